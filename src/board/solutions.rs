//! [`Solutions`]: every solution of a board, lazily.

use std::cell::Cell;
use std::fmt;
use std::iter::FusedIterator;

use super::{Board, Children};
use crate::search::{Budget, Dfs, Exhausted, Meter, Search, Stack, Successors};

/// [`Board::children`] as a type of its own, so that the search calls it
/// directly rather than through a function pointer: the call is inlined and
/// each child iterator is built where the stack keeps it (enumeration: 14 to
/// 9 board copies per solution, 8% faster).
#[derive(Clone, Copy, Debug)]
struct BoardChildren;

impl Successors<Board, Children> for BoardChildren {
    fn successors(&mut self, board: &Board) -> Children {
        Children::new(board, 0)
    }
}

/// The children of the counting walk: a board whose completions the engine
/// counts itself, with at most the threshold's empty cells, is a leaf
/// ([`Board::counts_directly`]).
#[derive(Clone, Copy, Debug)]
struct CountingChildren<'a> {
    threshold: &'a Cell<usize>,
}

impl Successors<Board, Children> for CountingChildren<'_> {
    fn successors(&mut self, board: &Board) -> Children {
        Children::new(board, self.threshold.get())
    }
}

/// Boards with at most this many empty cells are counted directly at the
/// start of a count...
const DIRECT_FIRST: usize = 40;
/// ...and each direct count that finds nothing lowers the threshold by this
/// much...
const DIRECT_STEP: usize = 8;
/// ...down to this. Counting directly is cheap where solutions are near, but
/// the band engine is better at proving a subtree empty: a puzzle whose
/// small subtrees turn out empty is left more and more to the engine.
const DIRECT_FLOOR: usize = 24;

const _: () = assert!(DIRECT_FIRST <= super::MAX_DIRECT, "the direct count holds every empty cell");

/// [`Board::count_solutions`]: the depth-first search of [`Board::solutions`],
/// with the boards the engine counts directly (9x9 boards with few empty
/// cells) counted rather than searched. The count is the same. Each node of
/// the walk is one node of `meter`'s budget; the count stops short when it
/// is spent.
pub(crate) fn count(board: &Board, limit: usize, meter: &mut Meter) -> usize {
    let mut count = 0;
    if limit == 0 {
        return count;
    }
    let threshold = Cell::new(DIRECT_FIRST);
    let mut search = Search::new(board.clone(), CountingChildren { threshold: &threshold }, Stack::new());
    while meter.tick() {
        // Looked at where it is returned, not moved out: a copy per node shows.
        let next = search.next();
        let Some(node) = &next else { break };
        if node.counts_directly(threshold.get()) {
            let found = node.count_completions(limit - count);
            if found == 0 {
                threshold.set(threshold.get().saturating_sub(DIRECT_STEP).max(DIRECT_FLOOR));
            }
            count += found;
        } else {
            count += usize::from(node.is_complete());
        }
        if count >= limit {
            break;
        }
    }
    count
}

/// Every solution of a board, lazily: the depth-first search over
/// [`Board::children`] filtered for complete boards.
///
/// Built by [`Board::solutions`]. Memory stays bounded by the depth of the
/// search, at most one pending child iterator per empty cell.
#[derive(Clone)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct Solutions {
    search: Dfs<Board, Children, BoardChildren>,
    meter: Meter,
}

impl Solutions {
    /// [`search::dfs`](crate::search::dfs) is exactly this `Search` over a
    /// `Stack`, with a closure in place of [`BoardChildren`].
    pub(crate) fn new(board: Board) -> Solutions {
        Solutions { search: Search::new(board, BoardChildren, Stack::new()), meter: Meter::new(Budget::UNLIMITED) }
    }

    /// These solutions, with the search stopping once `budget` is spent:
    /// each board the search visits counts as one node.
    /// [`Solutions::exhausted`] then says so.
    ///
    /// ```
    /// use lazydoku::search::Budget;
    /// use lazydoku::{Board, Shape};
    ///
    /// let mut solutions = Board::empty(Shape::NINE).solutions().within(Budget::nodes(200));
    /// let found = solutions.by_ref().count();
    /// assert!(found > 0);
    /// assert_eq!(solutions.exhausted().map(|e| e.nodes()), Some(200));
    /// ```
    pub fn within(mut self, budget: Budget) -> Solutions {
        self.meter = Meter::new(budget);
        self
    }

    /// Why the search stopped early, or `None` while it has budget left and
    /// once it has found every solution.
    #[must_use]
    pub fn exhausted(&self) -> Option<Exhausted> {
        self.meter.exhausted()
    }
}

impl Iterator for Solutions {
    type Item = Board;

    /// `filter(Board::is_complete)` by hand: the board stays where it is
    /// returned, one copy fewer per node than [`Iterator::filter`] makes.
    fn next(&mut self) -> Option<Board> {
        loop {
            // The end of the search is not the end of the budget.
            if self.search.size_hint().1 == Some(0) || !self.meter.tick() {
                return None;
            }
            let node = self.search.next();
            match &node {
                Some(board) if !board.is_complete() => {}
                _ => return node,
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, self.search.size_hint().1)
    }

    /// Before the first solution is taken, [`Board::count_solutions`]: the
    /// same number, without building the last cells of each branch as
    /// boards. Once the search has begun, the solutions left, one by one.
    /// Either way within the budget, if there is one.
    fn count(mut self) -> usize {
        match self.search.unvisited_root() {
            Some(root) => count(root, usize::MAX, &mut self.meter),
            None => self.fold(0, |n, _| n + 1),
        }
    }
}

impl FusedIterator for Solutions {}

impl fmt::Debug for Solutions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solutions").finish_non_exhaustive()
    }
}
