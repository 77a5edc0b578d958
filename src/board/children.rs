//! [`Children`]: the lazy iterator of a board's child boards.

use std::fmt;
use std::iter::FusedIterator;

use super::{Board, Candidates};

/// The children of a board, built one at a time: one per candidate of the
/// empty cell with the fewest candidates, smallest digit first, each
/// propagated with naked and hidden singles. Children that reach a
/// contradiction are skipped.
///
/// Built by [`Board::children`]. It owns a copy of its parent, so it borrows
/// nothing.
#[derive(Clone)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct Children {
    /// Taken, not cloned, for the last candidate.
    parent: Option<Board>,
    cell: usize,
    remaining: u32,
}

impl Children {
    pub(crate) fn new(parent: &Board) -> Children {
        match parent.branch_cell() {
            Some((cell, remaining)) if remaining != 0 => Children { parent: Some(parent.clone()), cell, remaining },
            _ => Children { parent: None, cell: 0, remaining: 0 },
        }
    }

    /// The cell the children branch on, or `None` when there are none to
    /// build.
    #[must_use]
    pub fn cell(&self) -> Option<usize> {
        self.parent.as_ref().map(|_| self.cell)
    }

    /// The candidates not yet tried.
    #[must_use]
    pub fn remaining(&self) -> Candidates {
        Candidates::from_bits(self.remaining)
    }
}

impl Iterator for Children {
    type Item = Board;

    fn next(&mut self) -> Option<Board> {
        while self.remaining != 0 {
            let bit = self.remaining & self.remaining.wrapping_neg();
            self.remaining ^= bit;
            let mut child = if self.remaining == 0 { self.parent.take()? } else { self.parent.clone()? };
            if child.assign_and_propagate(self.cell, bit).is_ok() {
                return Some(child);
            }
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.remaining.count_ones() as usize))
    }
}

impl FusedIterator for Children {}

impl fmt::Debug for Children {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Children")
            .field("parent", &self.parent.as_ref().map(Board::as_str))
            .field("cell", &self.cell)
            .field("remaining", &self.remaining())
            .finish()
    }
}
