//! [`WeightedChildren`]: children for restarted searches that learn where
//! contradictions arise (domain over weighted degree), on the general
//! engine.

use std::cell::RefCell;
use std::rc::Rc;

use super::Board;
use super::engine::{Engine, Engines};

/// One weight per unit of the rules, shared by every node of the searches
/// that learn from one another: a unit gains one each time propagation
/// fails in it. Every unit starts at one, so that cells in no failing unit
/// still compare by their candidates alone.
#[derive(Clone, Debug)]
pub(crate) struct Weights(Rc<RefCell<Vec<u32>>>);

impl Weights {
    /// Weights for the units of `board`'s rules.
    pub(crate) fn new(board: &Board) -> Weights {
        let units = match &board.engine {
            Engines::General(e) => e.geometry().unit_count(),
            Engines::Nine(_) => 0,
        };
        Weights(Rc::new(RefCell::new(vec![1; units])))
    }
}

/// The children of a board on the general engine, branching on the cell
/// with the fewest candidates for the weight of its units, its digits in
/// an order drawn from a seed. A child that fails adds to the weights of
/// the units where it failed. (On the 9x9 engine: the usual branch cell,
/// and no learning.)
pub(crate) struct WeightedChildren {
    parent: Option<Board>,
    cell: usize,
    remaining: u32,
    weights: Weights,
    state: u64,
}

impl WeightedChildren {
    pub(crate) fn new(parent: &Board, weights: &Weights, seed: u64) -> WeightedChildren {
        let mut children =
            WeightedChildren { parent: None, cell: 0, remaining: 0, weights: weights.clone(), state: seed };
        let Some(parent) = parent.settled_to_branch() else { return children };
        let branch = match &parent.engine {
            Engines::General(e) => e.branch_cell_weighted(&weights.0.borrow(), seed),
            Engines::Nine(e) => e.branch_cell(),
        };
        match branch {
            Some((cell, remaining)) => {
                children.cell = cell;
                children.remaining = remaining;
            }
            // Propagation alone completed it: the one child.
            None => children.remaining = 0,
        }
        children.parent = Some(parent);
        children
    }
}

impl Iterator for WeightedChildren {
    type Item = Board;

    fn next(&mut self) -> Option<Board> {
        if self.remaining == 0 {
            // A completed parent is the one child; otherwise nothing is left.
            return self.parent.take().filter(Board::is_complete);
        }
        while self.remaining != 0 {
            // A digit drawn at random among those left.
            self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            let pick = u32::try_from((self.state >> 33) % u64::from(self.remaining.count_ones())).unwrap_or(0);
            let mut bits = self.remaining;
            for _ in 0..pick {
                bits &= bits - 1;
            }
            let bit = bits & bits.wrapping_neg();
            self.remaining ^= bit;
            let mut child = if self.remaining == 0 { self.parent.take()? } else { self.parent.clone()? };
            if child.assign_and_propagate(self.cell, bit).is_ok() {
                return Some(child);
            }
            if let Engines::General(e) = &child.engine {
                let mut weights = self.weights.0.borrow_mut();
                for unit in e.conflict_units() {
                    weights[unit] = weights[unit].saturating_add(1);
                }
            }
        }
        None
    }
}
