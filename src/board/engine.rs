//! [`Engine`]: what a board asks of the solver behind it, and [`Engines`],
//! the one a board has.

use super::general::General;
use super::nine::Nine;
use super::{Contradiction, Shape};

/// The questions a [`Board`](super::Board) asks of its engine and the
/// changes it makes through it. Every engine answers all of them; only
/// [`Engine::count_directly`] is optional.
pub(crate) trait Engine {
    /// The board's shape.
    fn shape(&self) -> Shape;

    /// One byte per cell, row by row: `.` for empty, else the digit's symbol.
    fn text(&self) -> &[u8];

    /// Digit bits (bit `d - 1` for digit `d`) of the candidates of an empty
    /// cell; the digit's own bit for a filled one.
    fn candidate_bits(&self, cell: usize) -> u32;

    /// How many cells are empty.
    fn empty_cells(&self) -> usize;

    /// Whether every cell is filled.
    fn is_complete(&self) -> bool;

    /// Whether propagation has nothing left to do.
    fn is_settled(&self) -> bool;

    /// Writes a given into an empty cell and removes it from its peers'
    /// candidates, with no further inference. The caller has checked the
    /// rules.
    fn put(&mut self, cell: usize, bit: u32);

    /// Propagates everything pending to a fixed point.
    fn propagate_all(&mut self) -> Result<(), Contradiction>;

    /// Gives the empty `cell` the digit of `bit`, one of its candidates,
    /// and propagates to a fixed point.
    fn assign_and_propagate(&mut self, cell: usize, bit: u32) -> Result<(), Contradiction>;

    /// The cell to branch on and its candidates, or `None` when complete.
    fn branch_cell(&self) -> Option<(usize, u32)>;

    /// The number of completions of a propagated board with at most
    /// `threshold` empty cells, counting no further than `limit`, where the
    /// engine counts them faster than the search would; `None` leaves the
    /// board to the search.
    fn count_directly(&self, threshold: usize, limit: usize) -> Option<usize> {
        let _ = (threshold, limit);
        None
    }
}

/// The classic board has an engine of its own; every other shape shares
/// the general engine, whose cells are on the heap (so that it is no larger
/// than the 9x9 board).
#[derive(Debug)]
pub(crate) enum Engines {
    Nine(Nine),
    General(General),
}

impl Clone for Engines {
    #[inline]
    fn clone(&self) -> Engines {
        match self {
            Engines::Nine(e) => Engines::Nine(e.clone()),
            Engines::General(e) => Engines::General(e.clone()),
        }
    }

    /// In place when both boards have the same engine: see
    /// [`Nine::clone_from`] and [`General::clone_from`].
    #[inline]
    fn clone_from(&mut self, source: &Engines) {
        match (self, source) {
            (Engines::Nine(to), Engines::Nine(from)) => to.clone_from(from),
            (Engines::General(to), Engines::General(from)) => to.clone_from(from),
            (to, from) => *to = from.clone(),
        }
    }
}

impl Engine for Engines {
    fn shape(&self) -> Shape {
        match self {
            Engines::Nine(e) => e.shape(),
            Engines::General(e) => e.shape(),
        }
    }

    fn text(&self) -> &[u8] {
        match self {
            Engines::Nine(e) => e.text(),
            Engines::General(e) => e.text(),
        }
    }

    fn candidate_bits(&self, cell: usize) -> u32 {
        match self {
            Engines::Nine(e) => e.candidate_bits(cell),
            Engines::General(e) => e.candidate_bits(cell),
        }
    }

    fn empty_cells(&self) -> usize {
        match self {
            Engines::Nine(e) => e.empty_cells(),
            Engines::General(e) => e.empty_cells(),
        }
    }

    fn is_complete(&self) -> bool {
        match self {
            Engines::Nine(e) => e.is_complete(),
            Engines::General(e) => e.is_complete(),
        }
    }

    fn is_settled(&self) -> bool {
        match self {
            Engines::Nine(e) => e.is_settled(),
            Engines::General(e) => e.is_settled(),
        }
    }

    fn put(&mut self, cell: usize, bit: u32) {
        match self {
            Engines::Nine(e) => e.put(cell, bit),
            Engines::General(e) => e.put(cell, bit),
        }
    }

    fn propagate_all(&mut self) -> Result<(), Contradiction> {
        match self {
            Engines::Nine(e) => e.propagate_all(),
            Engines::General(e) => e.propagate_all(),
        }
    }

    fn assign_and_propagate(&mut self, cell: usize, bit: u32) -> Result<(), Contradiction> {
        match self {
            Engines::Nine(e) => e.assign_and_propagate(cell, bit),
            Engines::General(e) => e.assign_and_propagate(cell, bit),
        }
    }

    #[expect(clippy::inline_always, reason = "part of the walk's step: see `AsChildren::branch_cell`")]
    #[inline(always)]
    fn branch_cell(&self) -> Option<(usize, u32)> {
        match self {
            Engines::Nine(e) => e.branch_cell(),
            Engines::General(e) => e.branch_cell(),
        }
    }

    fn count_directly(&self, threshold: usize, limit: usize) -> Option<usize> {
        match self {
            Engines::Nine(e) => e.count_directly(threshold, limit),
            Engines::General(e) => e.count_directly(threshold, limit),
        }
    }
}
