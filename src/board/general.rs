//! The engine for every shape but the classic 9x9 (which has its own in
//! `nine.rs`): per-cell candidate masks, with naked and hidden singles and
//! locked candidates over the shape's regions, whatever they are.

use smallvec::SmallVec;

use super::engine::Engine;
use super::residual::{Cells, DigitMask, MAX_CELLS, Residual};
use super::rules::SharedGeometry;
use super::{Contradiction, EMPTY, Geometry, SYMBOLS, Shape, digit_of};

/// Cells whose candidates fell to one and still wait to be filled.
type Singles = SmallVec<[u16; 32]>;

#[derive(Clone, Debug)]
pub(crate) struct General {
    geometry: SharedGeometry,
    text: SmallVec<[u8; 81]>,
    /// Candidates of each empty cell; the single bit of its digit for a filled one.
    cands: SmallVec<[u32; 81]>,
    /// How many cells are empty.
    empty: u16,
    /// Whether no single is left to propagate: true for boards that came out
    /// of propagation, false for parsed and placed ones.
    settled: bool,
}

impl General {
    /// Its own size and its cells' memory on the heap, when they are there.
    pub(crate) fn size_in_bytes(&self) -> usize {
        let heap = |spilled: bool, bytes: usize| if spilled { bytes } else { 0 };
        size_of::<General>()
            + heap(self.text.spilled(), self.text.capacity())
            + heap(self.cands.spilled(), self.cands.capacity() * size_of::<u32>())
    }

    /// The empty board of these rules.
    pub(crate) fn empty(geometry: SharedGeometry) -> General {
        let (cells, full) = (geometry.cells, geometry.full);
        General {
            geometry,
            text: SmallVec::from_elem(EMPTY, cells),
            cands: SmallVec::from_elem(full, cells),
            empty: u16::try_from(cells).expect("at most 625 cells"),
            settled: false,
        }
    }

    /// The rules this board keeps.
    pub(crate) fn geometry(&self) -> &SharedGeometry {
        &self.geometry
    }

    fn fill(&mut self, cell: usize, bit: u32) {
        self.text[cell] = SYMBOLS[usize::from(digit_of(bit))];
        self.cands[cell] = bit;
        self.empty -= 1;
    }

    fn gather_singles(&self, singles: &mut Singles) {
        singles.extend(
            (0..self.geometry.cells)
                .filter(|&c| self.text[c] == EMPTY && self.cands[c].count_ones() <= 1)
                .map(|c| u16::try_from(c).expect("at most 625 cells")),
        );
    }

    /// Fills `bit` into the empty `cell` and removes it from the peers,
    /// queueing each peer left with one candidate.
    fn assign(&mut self, g: &Geometry, cell: usize, bit: u32, singles: &mut Singles) -> Result<(), Contradiction> {
        self.fill(cell, bit);
        for &peer in g.peers(cell) {
            let peer = usize::from(peer);
            if self.cands[peer] & bit != 0 {
                if self.text[peer] != EMPTY {
                    return Err(Contradiction);
                }
                self.eliminate(peer, bit, singles)?;
            }
        }
        Ok(())
    }

    /// Removes `bits` from the candidates of the empty `cell`, queueing it if
    /// one is left.
    fn eliminate(&mut self, cell: usize, bits: u32, singles: &mut Singles) -> Result<(), Contradiction> {
        let left = self.cands[cell] & !bits;
        if left == 0 {
            return Err(Contradiction);
        }
        self.cands[cell] = left;
        if left.is_power_of_two() {
            singles.push(u16::try_from(cell).expect("at most 625 cells"));
        }
        Ok(())
    }

    /// Fills naked singles from the queue, then sweeps every region for
    /// hidden singles, then for locked candidates, until none finds anything.
    fn propagate(&mut self, g: &Geometry, singles: &mut Singles) -> Result<(), Contradiction> {
        loop {
            while let Some(cell) = singles.pop() {
                let cell = usize::from(cell);
                if self.text[cell] == EMPTY {
                    let bit = self.cands[cell];
                    if bit == 0 {
                        return Err(Contradiction);
                    }
                    self.assign(g, cell, bit, singles)?;
                }
            }
            if self.empty == 0 {
                // Singles may fill a cage's last cells in one round: check its sum.
                return self.cage_sums(g, singles).map(|_| ());
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
                    self.assign(g, cell, bit, singles)?;
                    found = true;
                }
            }
            // Locked candidates cost a sweep over every pair of regions; near
            // the leaves (fewer empty cells than two rows hold) singles finish
            // the board alone, and enumeration spends most nodes there.
            let worth_it = usize::from(self.empty) > 2 * g.side;
            if found || !singles.is_empty() || self.cage_sums(g, singles)? {
                continue;
            }
            if !(worth_it && self.locked_candidates(g, singles)?) {
                return Ok(());
            }
        }
    }

    /// Killer cages: a cell keeps only the digits of some set of distinct
    /// digits that adds up to its cage's sum, holds the digits already
    /// placed in the cage, and leaves each empty cell of the cage a
    /// candidate. Returns whether anything was eliminated.
    fn cage_sums(&mut self, g: &Geometry, singles: &mut Singles) -> Result<bool, Contradiction> {
        let mut changed = false;
        for cage in &g.cages {
            let mut placed = 0u32;
            for &cell in &cage.cells {
                let cell = usize::from(cell);
                if self.text[cell] != EMPTY {
                    placed |= self.cands[cell];
                }
            }
            let fits = |set: u32| {
                set & placed == placed
                    && cage
                        .cells
                        .iter()
                        .map(|&c| usize::from(c))
                        .all(|c| self.text[c] != EMPTY || self.cands[c] & set & !placed != 0)
            };
            let (mut allowed, mut any) = (0, false);
            for &set in cage.combinations.iter().filter(|&&set| fits(set)) {
                allowed |= set;
                any = true;
            }
            // No set fits: the cage cannot be completed, or it is full and
            // its digits do not add up.
            if !any {
                return Err(Contradiction);
            }
            let allowed = allowed & !placed;
            for &cell in &cage.cells {
                let cell = usize::from(cell);
                let gone = self.cands[cell] & !allowed;
                if self.text[cell] == EMPTY && gone != 0 {
                    self.eliminate(cell, gone, singles)?;
                    changed = true;
                }
            }
        }
        Ok(changed)
    }

    /// The empty cells as a problem of their own (at most [`MAX_CELLS`]).
    fn residual<M: DigitMask, const DIGITS: usize>(&self) -> Residual<M, MAX_CELLS, DIGITS> {
        let g = &*self.geometry;
        // Each cell's index among the empty ones; `u8::MAX` for a filled one.
        let mut index = [u8::MAX; super::MAX_SIDE * super::MAX_SIDE];
        let mut candidates = [M::ZERO; MAX_CELLS];
        let mut position = [0usize; MAX_CELLS];
        let mut count = 0;
        for cell in (0..g.cells).filter(|&c| self.text[c] == EMPTY) {
            index[cell] = u8::try_from(count).expect("at most 64 empty cells");
            candidates[count] = M::from_bits(self.cands[cell]);
            position[count] = cell;
            count += 1;
        }
        let mut peers = [0 as Cells; MAX_CELLS];
        for (k, &cell) in position.iter().enumerate().take(count) {
            for &peer in g.peers(cell) {
                let j = index[usize::from(peer)];
                if j != u8::MAX {
                    peers[k] |= 1 << j;
                }
            }
        }
        Residual::new(candidates, peers, count)
    }

    /// The empty cells with the fewest candidates, in order; none for a
    /// complete board.
    fn fewest_candidate_cells(&self) -> impl Iterator<Item = usize> + Clone + '_ {
        let open = |c: &usize| self.text[*c] == EMPTY;
        let fewest = (0..self.geometry.cells).filter(open).map(|c| self.cands[c].count_ones()).min().unwrap_or(0);
        (0..self.geometry.cells).filter(move |c| open(c) && self.cands[*c].count_ones() == fewest)
    }

    /// An empty cell with the fewest candidates that `seed` picks (the same
    /// seed and board give the same cell), and its candidates; `None` for a
    /// complete board.
    pub(crate) fn branch_cell_seeded(&self, seed: u64) -> Option<(usize, u32)> {
        let tied = self.fewest_candidate_cells();
        // The seed mixed with the number of empty cells, so that the pick
        // changes with the depth and from one seed to another.
        let mixed =
            (seed ^ u64::from(self.empty).wrapping_mul(0x9E37_79B9_7F4A_7C15)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        let count = tied.clone().count() as u64;
        if count == 0 {
            return None;
        }
        let cell = tied.clone().nth(usize::try_from((mixed >> 32) % count).expect("below the cell count"))?;
        Some((cell, self.cands[cell]))
    }

    /// Locked candidates (pointing and claiming): when a digit's places in
    /// one region all lie where it meets another, the digit leaves the rest
    /// of the other. Returns whether anything was eliminated.
    fn locked_candidates(&mut self, g: &Geometry, singles: &mut Singles) -> Result<bool, Contradiction> {
        let mut changed = false;
        for overlap in &g.overlaps {
            let places = |cells: &[u16]| {
                cells
                    .iter()
                    .map(|&c| usize::from(c))
                    .filter(|&c| self.text[c] == EMPTY)
                    .fold(0, |m, c| m | self.cands[c])
            };
            let shared = places(&overlap.shared);
            let (first, second) = (places(&overlap.only_first), places(&overlap.only_second));
            for (confined, others) in [(shared & !first, &overlap.only_second), (shared & !second, &overlap.only_first)]
            {
                if confined == 0 {
                    continue;
                }
                for &cell in others {
                    let cell = usize::from(cell);
                    if self.text[cell] == EMPTY && self.cands[cell] & confined != 0 {
                        self.eliminate(cell, confined, singles)?;
                        changed = true;
                    }
                }
            }
        }
        Ok(changed)
    }
}

impl Engine for General {
    /// A propagated board with at most `threshold` empty cells (and no
    /// more than a [`Residual`] holds) is counted over its empty cells
    /// alone. Not with killer cages, whose sums the residual problem lacks.
    fn count_directly(&self, threshold: usize, limit: usize) -> Option<usize> {
        let empty = usize::from(self.empty);
        if !self.settled || !self.geometry.cages.is_empty() || empty > threshold.min(MAX_CELLS) {
            return None;
        }
        Some(if empty == 0 {
            1
        } else if self.geometry.side <= 16 {
            self.residual::<u16, 16>().count(limit)
        } else {
            self.residual::<u32, 25>().count(limit)
        })
    }

    fn shape(&self) -> Shape {
        self.geometry.shape
    }

    fn text(&self) -> &[u8] {
        &self.text
    }

    /// The candidates of an empty cell (the digit's bit for a filled one).
    fn candidate_bits(&self, cell: usize) -> u32 {
        self.cands[cell]
    }

    fn is_settled(&self) -> bool {
        self.settled
    }

    fn is_complete(&self) -> bool {
        self.empty == 0
    }

    fn empty_cells(&self) -> usize {
        usize::from(self.empty)
    }

    /// Writes a given into an empty cell and removes it from the peers'
    /// candidates, with no further propagation. The caller has checked that
    /// no peer holds it.
    fn put(&mut self, cell: usize, bit: u32) {
        self.fill(cell, bit);
        self.settled = false;
        for &peer in self.geometry.peers(cell) {
            self.cands[usize::from(peer)] &= !bit;
        }
    }

    /// Fills `bit` into the empty `cell`, then propagates singles to a fixed
    /// point. A board that was not settled may hold naked singles that no
    /// queue knows of, so those are gathered first.
    fn assign_and_propagate(&mut self, cell: usize, bit: u32) -> Result<(), Contradiction> {
        let mut singles = Singles::new();
        // The rules are shared, not part of what changes: a handle of
        // their own lets them be read while the cells are written.
        let geometry = self.geometry.clone();
        self.assign(&geometry, cell, bit, &mut singles)?;
        if !self.settled {
            self.gather_singles(&mut singles);
        }
        self.propagate(&geometry, &mut singles)?;
        self.settled = true;
        Ok(())
    }

    /// Propagates every single already on the board.
    fn propagate_all(&mut self) -> Result<(), Contradiction> {
        let mut singles = Singles::new();
        self.gather_singles(&mut singles);
        let geometry = self.geometry.clone();
        self.propagate(&geometry, &mut singles)?;
        self.settled = true;
        Ok(())
    }

    /// The empty cell with the fewest candidates and its candidates, or
    /// `None` for a complete board. Among equals, the one with the most empty
    /// peers, where a guess has the most to propagate to (as on 9x9).
    fn branch_cell(&self) -> Option<(usize, u32)> {
        let empty_peers =
            |c: usize| self.geometry.peers(c).iter().filter(|&&p| self.text[usize::from(p)] == EMPTY).count();
        // Scoring every tied cell costs more than it saves; eight is plenty.
        let cell = self.fewest_candidate_cells().take(8).max_by_key(|&c| (empty_peers(c), std::cmp::Reverse(c)))?;
        Some((cell, self.cands[cell]))
    }
}
