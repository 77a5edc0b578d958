//! Constraint propagation: naked singles and hidden singles (the Ruby seed's
//! "clean sweep" and "heat seek"), and the choice of the cell to branch on.

use smallvec::SmallVec;

use super::{Board, EMPTY, Geometry, Region};

/// Propagation found an empty cell with no candidate, or a digit with no
/// place left in some region.
#[derive(Debug)]
pub(crate) struct Contradiction;

/// Cells whose candidates fell to one and still wait to be filled.
type Singles = SmallVec<[u16; 32]>;

impl Board {
    /// Fills `bit` into the empty `cell`, then propagates singles to a fixed
    /// point.
    ///
    /// A board that was not settled may hold naked singles that no queue
    /// knows of, so those are gathered first.
    pub(crate) fn assign_and_propagate(&mut self, cell: usize, bit: u32) -> Result<(), Contradiction> {
        let mut singles = Singles::new();
        self.assign(cell, bit, &mut singles)?;
        if !self.settled {
            self.gather_singles(&mut singles);
        }
        self.propagate(&mut singles)?;
        self.settled = true;
        Ok(())
    }

    /// Propagates every single already on the board.
    pub(crate) fn propagate_all(&mut self) -> Result<(), Contradiction> {
        let mut singles = Singles::new();
        self.gather_singles(&mut singles);
        self.propagate(&mut singles)?;
        self.settled = true;
        Ok(())
    }

    fn gather_singles(&mut self, singles: &mut Singles) {
        singles.extend(
            (0..self.geometry.cells)
                .filter(|&c| self.text[c] == EMPTY && self.cands[c].count_ones() <= 1)
                .map(|c| u16::try_from(c).expect("at most 625 cells")),
        );
    }

    /// Fills `bit` into the empty `cell` and removes it from the peers,
    /// queueing each peer left with one candidate.
    fn assign(&mut self, cell: usize, bit: u32, singles: &mut Singles) -> Result<(), Contradiction> {
        self.fill(cell, bit);
        for &peer in self.geometry.peers(cell) {
            let peer = usize::from(peer);
            let cands = self.cands[peer];
            if cands & bit != 0 {
                if self.text[peer] != EMPTY {
                    return Err(Contradiction);
                }
                let left = cands & !bit;
                if left == 0 {
                    return Err(Contradiction);
                }
                self.cands[peer] = left;
                if left.is_power_of_two() {
                    singles.push(u16::try_from(peer).expect("at most 625 cells"));
                }
            }
        }
        Ok(())
    }

    /// Fills naked singles from the queue, then sweeps every region for
    /// hidden singles, until neither finds anything.
    fn propagate(&mut self, singles: &mut Singles) -> Result<(), Contradiction> {
        let g: &Geometry = self.geometry;
        loop {
            while let Some(cell) = singles.pop() {
                let cell = usize::from(cell);
                if self.text[cell] == EMPTY {
                    let bit = self.cands[cell];
                    if bit == 0 {
                        return Err(Contradiction);
                    }
                    self.assign(cell, bit, singles)?;
                }
            }
            if self.empty == 0 {
                return Ok(());
            }
            let mut found = false;
            for unit in g.units() {
                let (mut once, mut twice, mut placed) = (0u32, 0u32, 0u32);
                for &cell in unit {
                    let cell = usize::from(cell);
                    let cands = self.cands[cell];
                    if self.text[cell] == EMPTY {
                        twice |= once & cands;
                        once |= cands;
                    } else {
                        placed |= cands;
                    }
                }
                if once | placed != g.full {
                    return Err(Contradiction);
                }
                let mut hidden = once & !twice;
                while hidden != 0 {
                    let bit = hidden & hidden.wrapping_neg();
                    hidden ^= bit;
                    let cell = unit
                        .iter()
                        .map(|&c| usize::from(c))
                        .find(|&c| self.cands[c] & bit != 0)
                        .ok_or(Contradiction)?;
                    if self.text[cell] != EMPTY {
                        // Two digits had their only place in this one cell.
                        return Err(Contradiction);
                    }
                    self.assign(cell, bit, singles)?;
                    found = true;
                }
            }
            if !found && singles.is_empty() {
                return Ok(());
            }
        }
    }

    /// The empty cell with the fewest candidates (first in row order among
    /// equals) and its candidates, or `None` for a complete board.
    pub(crate) fn branch_cell(&self) -> Option<(usize, u32)> {
        let mut best: Option<(usize, u32)> = None;
        let mut fewest = u32::MAX;
        for (cell, (&t, &cands)) in self.text.iter().zip(self.cands.iter()).enumerate() {
            if t == EMPTY {
                let n = cands.count_ones();
                if n < fewest {
                    fewest = n;
                    best = Some((cell, cands));
                    // A settled board has no single left, so two is the least.
                    if n <= 1 || (n == 2 && self.settled) {
                        break;
                    }
                }
            }
        }
        best
    }
}

impl Geometry {
    /// The region that two peers share (the first one, in unit order).
    pub(crate) fn shared_region(&self, a: usize, b: usize) -> Region {
        let a = u16::try_from(a).expect("at most 625 cells");
        let b = u16::try_from(b).expect("at most 625 cells");
        self.units()
            .position(|unit| unit.contains(&a) && unit.contains(&b))
            .map_or(Region::Row, |index| self.region(index))
    }
}
