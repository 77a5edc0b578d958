//! [`Solutions`]: every solution of a board, lazily.

use std::fmt;
use std::iter::FusedIterator;

use super::{Board, Children};
use crate::search::{self, Dfs};

type Successors = fn(&Board) -> Children;

/// Every solution of a board, lazily: the depth-first search over
/// [`Board::children`] filtered for complete boards.
///
/// Built by [`Board::solutions`]. Memory stays bounded by the depth of the
/// search, at most one pending child iterator per empty cell.
#[derive(Clone)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct Solutions {
    search: Dfs<Board, Children, Successors>,
}

impl Solutions {
    pub(crate) fn new(board: Board) -> Solutions {
        let successors: Successors = Board::children;
        Solutions { search: search::dfs(board, successors) }
    }
}

impl Iterator for Solutions {
    type Item = Board;

    /// `filter(Board::is_complete)` by hand: the board stays where it is
    /// returned, one copy fewer per node than [`Iterator::filter`] makes.
    fn next(&mut self) -> Option<Board> {
        loop {
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
}

impl FusedIterator for Solutions {}

impl fmt::Debug for Solutions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solutions").finish_non_exhaustive()
    }
}
