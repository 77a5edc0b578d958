//! [`Children`]: the lazy iterator of a board's child boards.

use std::fmt;
use std::iter::FusedIterator;

use super::{Board, Candidates};

/// The children of a board, built one at a time: one per candidate of the
/// empty cell with the fewest candidates, smallest digit first, each
/// propagated as [`Board::propagated`] does. Children that reach a
/// contradiction are skipped.
///
/// A board that came from parsing or [`Board::place`] is propagated first,
/// once, and the branch is taken on the result; if propagation alone
/// completes it, that completed board is the one child.
///
/// Built by [`Board::children`]. It owns a copy of its parent, so it borrows
/// nothing.
#[derive(Clone)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct Children {
    /// The board to branch from, taken (not cloned) for the last candidate.
    /// With no branch cell, the board itself is the one child.
    parent: Option<Board>,
    branch: Option<usize>,
    remaining: u32,
}

impl Children {
    /// No children at all.
    pub(crate) fn none() -> Children {
        Children { parent: None, branch: None, remaining: 0 }
    }

    /// The children of `parent`.
    pub(crate) fn new(parent: &Board) -> Children {
        if parent.is_complete() {
            return Children::none();
        }
        Children::of(parent.clone())
    }

    /// The children of `parent`, which they keep: no copy of it is made.
    pub(crate) fn of(mut parent: Board) -> Children {
        if parent.is_complete() || (!parent.is_settled() && parent.settle().is_err()) {
            return Children::none();
        }
        match parent.branch_cell() {
            Some((cell, remaining)) => Children { parent: Some(parent), branch: Some(cell), remaining },
            // Propagation alone completed it.
            None => Children { parent: Some(parent), branch: None, remaining: 0 },
        }
    }

    /// The cell the children branch on, or `None` when there is no branch:
    /// the board is complete, contradictory, or completed by propagation.
    #[must_use]
    pub fn cell(&self) -> Option<usize> {
        self.branch
    }

    /// The candidates of the branch cell not tried yet.
    #[must_use]
    pub fn remaining(&self) -> Candidates {
        Candidates::from_bits(self.remaining)
    }
}

impl Iterator for Children {
    type Item = Board;

    fn next(&mut self) -> Option<Board> {
        let Some(cell) = self.branch else { return self.parent.take() };
        while self.remaining != 0 {
            let bit = self.remaining & self.remaining.wrapping_neg();
            self.remaining ^= bit;
            // The child is built where it is returned: boards are copied at
            // every node, and each copy counts.
            let mut child = if self.remaining == 0 { self.parent.take() } else { self.parent.clone() };
            if child.as_mut()?.assign_and_propagate(cell, bit).is_ok() {
                return child;
            }
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self.branch {
            None => {
                let n = usize::from(self.parent.is_some());
                (n, Some(n))
            }
            Some(_) => (0, Some(self.remaining.count_ones() as usize)),
        }
    }
}

impl FusedIterator for Children {}

impl fmt::Debug for Children {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Children")
            .field("parent", &self.parent.as_ref().map(Board::as_str))
            .field("cell", &self.branch)
            .field("remaining", &self.remaining())
            .finish()
    }
}
