//! A 9x9 depth-first search allocates nothing per node: counted through a
//! global allocator.

#![allow(unsafe_code, reason = "a counting global allocator must implement the unsafe GlobalAlloc trait")]

use crate::common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use lazydoku::{Board, search};

/// Counts the allocations made by the current thread, then defers to the
/// system allocator.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    /// Bytes allocated by this thread and not freed yet, and the most that
    /// ever were since the last reset. Frees of memory from other threads
    /// make `LIVE` wrap below zero; the tests measure one thread's own work.
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

fn grow(bytes: usize) {
    LIVE.with(|live| {
        live.set(live.get().wrapping_add(bytes));
        PEAK.with(|peak| peak.set(peak.get().max(live.get())));
    });
}

fn shrink(bytes: usize) {
    LIVE.with(|live| live.set(live.get().wrapping_sub(bytes)));
}

// SAFETY: every call is forwarded unchanged to `System`, which upholds the
// GlobalAlloc contract; the counter is a thread-local `Cell` with a const
// initializer, so touching it never allocates or reenters the allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        grow(layout.size());
        // SAFETY: the caller's contract is passed on as is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        shrink(layout.size());
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        shrink(layout.size());
        grow(new_size);
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

/// The most bytes this thread held at once while `work` ran, beyond what it
/// held before.
fn peak_during(work: impl FnOnce()) -> usize {
    let before = LIVE.with(Cell::get);
    PEAK.with(|peak| peak.set(before));
    work();
    PEAK.with(Cell::get).wrapping_sub(before)
}

#[test]
fn rejecting_a_long_line_holds_memory_bounded_by_the_line() {
    // Lines of every shape the reader might collect cells from, each far
    // larger than any board: spaced digits, a flat matrix, a nested one.
    let spaced = "1 ".repeat(30_000);
    let flat = format!("[{}]", "1, ".repeat(20_000));
    let nested = format!("[{}]", "[1, 2], ".repeat(10_000));
    let grid = "1 2 3 4\n".repeat(5_000);
    for text in [&spaced, &flat, &nested, &grid] {
        let mut result = None;
        let peak = peak_during(|| result = Some(lazydoku::format::Parser::new().parse(text)));
        assert!(result.is_some_and(|r| r.is_err()));
        assert!(peak <= 64 * 1024, "{} bytes held to reject {} bytes of input", peak, text.len());
    }
}

#[test]
fn a_9x9_depth_first_search_allocates_nothing_per_node() {
    let boards: Vec<Board> =
        common::load("puzzles6_forum_hardest_1106").iter().take(100).map(|l| l.parse().unwrap()).collect();
    let (mut nodes, mut allocs) = (0usize, 0usize);
    let mut most = 0;
    for board in &boards {
        let before = allocations();
        let mut visited = 0usize;
        let found = search::dfs(board.clone(), Board::children)
            .inspect(|_| visited += 1)
            .filter(Board::is_complete)
            .take(2)
            .count();
        let counted = board.count_solutions(2);
        let made = allocations() - before;
        assert_eq!((found, counted), (1, 1));
        nodes += visited;
        allocs += made;
        most = most.max(made);
    }
    // The searches visit thousands of nodes...
    assert!(nodes > 10_000, "only {nodes} nodes: the check would prove little");
    println!("{nodes} nodes, {allocs} allocations, at most {most} in one puzzle");
    // ...while the only allocations are the search stacks growing by
    // doubling (a handful per search, twice per puzzle here), whatever the
    // number of nodes.
    assert!(most <= 16, "a search made {most} allocations");
    assert!(allocs <= 16 * boards.len(), "{allocs} allocations for {nodes} nodes");
}

#[test]
fn the_allocator_counts_what_it_should() {
    // The check above would pass vacuously if nothing were counted.
    let before = allocations();
    let v: Vec<u64> = Vec::with_capacity(10);
    drop(v);
    assert_eq!(allocations() - before, 1);
}
