//! [`Solutions`]: every solution of a board, lazily.

use std::fmt;
use std::iter::{Filter, FusedIterator};

use super::{Board, Children};
use crate::search::{self, Dfs};

type Successors = fn(&Board) -> Children;
type Complete = fn(&Board) -> bool;

/// Every solution of a board, lazily: the depth-first search over
/// [`Board::children`] filtered for complete boards.
///
/// Built by [`Board::solutions`]. Memory stays bounded by the depth of the
/// search, at most one pending child iterator per empty cell.
#[derive(Clone)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct Solutions {
    inner: Filter<Dfs<Board, Children, Successors>, Complete>,
}

impl Solutions {
    pub(crate) fn new(board: Board) -> Solutions {
        let successors: Successors = Board::children;
        let complete: Complete = Board::is_complete;
        Solutions { inner: search::dfs(board, successors).filter(complete) }
    }
}

impl Iterator for Solutions {
    type Item = Board;

    fn next(&mut self) -> Option<Board> {
        self.inner.next()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl FusedIterator for Solutions {}

impl fmt::Debug for Solutions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solutions").finish_non_exhaustive()
    }
}
