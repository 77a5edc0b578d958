//! The general engine allocates nothing per node once a search has warmed
//! up: its boards reuse the buffers of the boards dropped before them.
//! A test binary of its own, as it counts every allocation of the process.

#![expect(unsafe_code, reason = "a global allocator, which only counts and passes each call to the system's")]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

use lazydoku::search;
use lazydoku::{Board, Rules, Shape};

struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call goes to the system allocator unchanged; only a count
// is kept on the side.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's contract is passed on as it is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// Allocations made by `work`.
fn allocations(work: impl FnOnce()) -> u64 {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    work();
    ALLOCATIONS.load(Ordering::Relaxed) - before
}

/// The allocations of the depth-first search of `board`'s children in
/// `nodes` nodes, after as many nodes to warm up.
fn steady_walk(board: &Board, nodes: usize) -> u64 {
    let mut walk = search::dfs(board.clone(), Board::children);
    assert_eq!(walk.by_ref().take(nodes).count(), nodes);
    allocations(|| assert_eq!(walk.by_ref().take(nodes).count(), nodes))
}

#[test]
fn the_general_engine_allocates_nothing_per_node() {
    const NODES: usize = 10_000;
    let windoku = Board::empty_with(&Rules::new(Shape::NINE).with_windows());
    for (name, board) in [
        ("empty 16x16", Board::empty(Shape::new(4, 4))),
        ("empty 25x25", Board::empty(Shape::new(5, 5))),
        ("empty 6x6", Board::empty(Shape::new(2, 3))),
        ("empty windoku", windoku),
    ] {
        let made = steady_walk(&board, NODES);
        // The walk's own stack grows with the depth, not the nodes.
        assert!(made < 20, "{name}: {made} allocations in {NODES} nodes");
    }
}
