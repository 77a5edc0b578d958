//! Buffers of dropped boards, kept for the next boards made on the thread.
//!
//! A search makes a board at every node and drops most of them soon after.
//! The general engine's boards take their buffers from here when one is
//! spare and give them back when dropped, so that once a search has warmed
//! up a node costs no call to the allocator.

use std::cell::RefCell;
use std::thread::LocalKey;

/// Buffers kept per pool and thread: enough for the boards a search holds
/// at once on most paths, few enough to give memory back when they are not.
const KEPT: usize = 128;

pub(crate) type Pool<T> = LocalKey<RefCell<Vec<Vec<T>>>>;

thread_local! {
    pub(crate) static TEXT: RefCell<Vec<Vec<u8>>> = const { RefCell::new(Vec::new()) };
    pub(crate) static CANDIDATES: RefCell<Vec<Vec<u32>>> = const { RefCell::new(Vec::new()) };
    pub(crate) static PLACES: RefCell<Vec<Vec<u32>>> = const { RefCell::new(Vec::new()) };
    pub(crate) static CHANGED: RefCell<Vec<Vec<u32>>> = const { RefCell::new(Vec::new()) };
    pub(crate) static CAGE_SETS: RefCell<Vec<Vec<u64>>> = const { RefCell::new(Vec::new()) };
}

/// A copy of `from` in a spare buffer of `pool` if there is one.
pub(crate) fn copy_of<T: Copy>(pool: &'static Pool<T>, from: &[T]) -> Vec<T> {
    // `try_with`: while the thread ends, the pool may be gone already.
    let mut buffer = pool.try_with(|p| p.borrow_mut().pop()).ok().flatten().unwrap_or_default();
    buffer.clear();
    buffer.extend_from_slice(from);
    buffer
}

/// Keeps `buffer` in `pool` for a later board, unless the pool is full.
pub(crate) fn give_back<T>(pool: &'static Pool<T>, buffer: Vec<T>) {
    if buffer.capacity() == 0 {
        return;
    }
    let _ = pool.try_with(|p| {
        let mut spare = p.borrow_mut();
        if spare.len() < KEPT {
            spare.push(buffer);
        }
    });
}
