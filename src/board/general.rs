//! The engine for every shape but the classic 9x9 (which has its own in
//! `nine.rs`): per-cell candidate masks and per-unit digit places, with
//! naked and hidden singles, locked candidates, and (on large boards)
//! naked and hidden subsets of two and three over the shape's regions,
//! whatever they are, and killer cage sums, with the sums that cages
//! imply through the units (innies and outies).

use itertools::Either;
use smallvec::SmallVec;

use super::engine::Engine;
use super::relation::Related;
use super::residual::{Cells, DigitMask, MAX_CELLS, Residual};
use super::rules::SharedGeometry;
use super::sum::{contribution, digits_within};
use super::{Contradiction, EMPTY, Geometry, SYMBOLS, Shape, digit_of, spare};

/// The index (digit minus one) of a digit's bit.
fn digit_index(bit: u32) -> u8 {
    u8::try_from(bit.trailing_zeros()).expect("at most 32 bits")
}

fn to_u16(cell: usize) -> u16 {
    u16::try_from(cell).expect("at most 625 cells")
}

/// What propagation has yet to look at.
struct Pending {
    /// Whether naked and hidden subsets are looked for on these rules
    /// ([`SUBSETS_FROM_SIDE`]): if not, nothing is queued for them.
    subsets: bool,
    /// Cells to fill, each with its digit's bit: naked singles (the cell's
    /// one candidate) and hidden singles (the one place of a digit in a unit).
    singles: SmallVec<[(u16, u32); 256]>,
    /// Empty cells that came down to three candidates or two: each may
    /// complete a naked subset with other cells of one of its units.
    small_cells: SmallVec<[u16; SUBSETS_QUEUED]>,
    /// Units and digits whose places came down to three or two: each may
    /// complete a hidden subset with other digits of the unit.
    small_places: SmallVec<[(u16, u8); SUBSETS_QUEUED]>,
    /// Whether a queue was full when something came down to three or two:
    /// then every cell and place is looked at.
    subsets_overflowed: bool,
    /// Killer cages (in [`Geometry::cages_of`]'s numbering) with a cell
    /// changed since their sums were last looked at, one bit each: a cage
    /// whose cells did not change has nothing new to give.
    dirty_cages: SmallVec<[u64; 4]>,
    /// Every cage is to be looked at: the board was not propagated.
    every_cage: bool,
    /// Relations between two cells ([`Geometry::relations_of`]'s
    /// numbering) with a cell changed since they were last looked at.
    dirty_relations: SmallVec<[u64; 4]>,
    /// Sums whose digits may repeat ([`Geometry::line_rules_of`]'s numbering)
    /// with a cell changed since they were last looked at.
    dirty_lines: SmallVec<[u64; 4]>,
}

/// Sets bit `k` of the bit set `set`, growing it as needed.
fn mark(set: &mut SmallVec<[u64; 4]>, k: usize) {
    let word = k / 64;
    if set.len() <= word {
        set.resize(word + 1, 0);
    }
    set[word] |= 1 << (k % 64);
}

/// The members of the bit set `set`, smallest first.
fn members(set: &[u64]) -> impl Iterator<Item = usize> + '_ {
    set.iter().enumerate().flat_map(|(w, &word)| bits64(word).map(move |b| 64 * w + b))
}

/// The most cells, and the most places, queued for subsets: a full queue
/// costs one look at the whole board rather than an allocation.
const SUBSETS_QUEUED: usize = 256;

/// The smallest side on which propagation looks for naked and hidden
/// subsets. Up to 12x12, singles and locked candidates leave little for
/// them to find, and looking cost more than the nodes it saved: counts to
/// 2 of generated 12x12 puzzles took 15% longer with them, and enumerating
/// solutions 10 to 40% longer on 6x6 to 12x12. From 15x15 on they pay:
/// without them, those counts took 50 to 70% longer on 15x15 and 16x16
/// (docs/performance.md).
const SUBSETS_FROM_SIDE: usize = 13;

impl Pending {
    /// Nothing pending yet, on the rules `g`.
    fn new(g: &Geometry) -> Pending {
        Pending {
            subsets: g.side >= SUBSETS_FROM_SIDE,
            singles: SmallVec::new(),
            small_cells: SmallVec::new(),
            small_places: SmallVec::new(),
            subsets_overflowed: false,
            dirty_cages: SmallVec::new(),
            every_cage: false,
            dirty_relations: SmallVec::new(),
            dirty_lines: SmallVec::new(),
        }
    }

    /// Marks the cages and sums of `cell` for a look at their totals, and
    /// its relations for a look at their supports.
    #[inline]
    fn cell_changed(&mut self, g: &Geometry, cell: usize) {
        // Most boards have none: three tests on the hot path.
        if g.has_cages() || g.has_relations() || g.has_line_rules() {
            self.mark_watchers(g, cell);
        }
    }

    #[inline(never)]
    fn mark_watchers(&mut self, g: &Geometry, cell: usize) {
        for &k in g.cages_of(cell) {
            mark(&mut self.dirty_cages, usize::from(k));
        }
        for &k in g.relations_of(cell) {
            mark(&mut self.dirty_relations, k as usize);
        }
        for &k in g.line_rules_of(cell) {
            mark(&mut self.dirty_lines, k as usize);
        }
    }

    fn small_cell(&mut self, cell: usize) {
        if !self.subsets {
            return;
        }
        if self.small_cells.len() < SUBSETS_QUEUED {
            self.small_cells.push(to_u16(cell));
        } else {
            self.subsets_overflowed = true;
        }
    }

    fn small_place(&mut self, unit: usize, bit: u32) {
        if !self.subsets {
            return;
        }
        if self.small_places.len() < SUBSETS_QUEUED {
            self.small_places.push((to_u16(unit), digit_index(bit)));
        } else {
            self.subsets_overflowed = true;
        }
    }
}

/// Whether `mask` has three bits or fewer: three lowest bits cleared leave
/// nothing. Cheaper than counting them on processors without a population
/// count instruction, which the default x86-64 target does not assume.
#[inline]
fn at_most_three(mask: u32) -> bool {
    let two_fewer = mask & mask.wrapping_sub(1);
    let three_fewer = two_fewer & two_fewer.wrapping_sub(1);
    three_fewer & three_fewer.wrapping_sub(1) == 0
}

/// The indices of the set bits of `mask`, lowest first.
pub(crate) fn bits64(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let index = mask.trailing_zeros() as usize;
        mask &= mask.wrapping_sub(1);
        (index < 64).then_some(index)
    })
}

/// The indices of the set bits of `mask`, lowest first.
pub(crate) fn bits(mask: u32) -> impl Iterator<Item = usize> {
    bits64(u64::from(mask))
}

/// A board of the general engine. Its buffers come from and go back to
/// [`spare`]'s pools, so that the boards a search makes and drops at every
/// node cost no allocation once it has warmed up.
#[derive(Debug)]
pub(crate) struct General {
    geometry: SharedGeometry,
    text: Vec<u8>,
    /// Candidates of each empty cell; the single bit of its digit for a filled one.
    cands: Vec<u32>,
    /// `places[unit * side + d]`: where digit `d + 1` can go in the unit,
    /// bit `i` for its `i`-th cell (a filled cell keeps its own digit). Kept
    /// as the candidates change, so that a digit down to one place is seen
    /// at once rather than by sweeping every unit.
    places: Vec<u32>,
    /// The digits whose places changed in each unit since locked
    /// candidates last looked at it: only those can be newly confined.
    changed: Vec<u32>,
    /// For each cage (words [`Geometry::cage_words`]), a bit for each of
    /// its sets of digits that has not yet failed to fit: candidates only
    /// narrow from a board to its children, so a set that failed stays
    /// failed, and a visit to a cage looks at the others alone. Empty
    /// without cages.
    cage_sets: Vec<u64>,
    /// Where propagation last found a contradiction, for branching
    /// heuristics that learn from failures.
    conflict: Option<Conflict>,
    /// How many cells are empty.
    empty: u16,
    /// Whether nothing is left to propagate: true for boards that came out
    /// of propagation, false for parsed and placed ones.
    settled: bool,
}

/// Where a contradiction was found: a unit left without a place for some
/// digit, or a cell whose candidates or digit clash.
#[derive(Clone, Copy, Debug)]
enum Conflict {
    Unit(u16),
    Cell(u16),
}

impl General {
    /// Notes where propagation failed.
    #[cold]
    fn fail(&mut self, at: Conflict) -> Contradiction {
        self.conflict = Some(at);
        Contradiction
    }

    /// The units where propagation last found a contradiction: the unit
    /// that lost every place for a digit, or every unit of the cell that
    /// clashed.
    pub(crate) fn conflict_units(&self) -> impl Iterator<Item = usize> + '_ {
        let (unit, cell) = match self.conflict {
            Some(Conflict::Unit(unit)) => (Some(usize::from(unit)), None),
            Some(Conflict::Cell(cell)) => (None, Some(usize::from(cell))),
            None => (None, None),
        };
        let of_cell = cell.into_iter().flat_map(|c| self.geometry.memberships(c)).map(|m| usize::from(m.unit));
        unit.into_iter().chain(of_cell)
    }

    /// The empty cell with the fewest candidates for its weight, where a
    /// cell weighs the sum of its units' `weights` (domain over weighted
    /// degree): cells in the units where contradictions keep arising are
    /// taken first. Ties go to the cell that `seed` picks. `None` for a
    /// complete board.
    pub(crate) fn branch_cell_weighted(&self, weights: &[u32], seed: u64) -> Option<(usize, u32)> {
        let g = &*self.geometry;
        let mut best: Option<(usize, u64, u64)> = None;
        let mut ties = 0u64;
        let mut state = seed ^ u64::from(self.empty).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        for cell in (0..g.cells).filter(|&c| self.text[c] == EMPTY) {
            let size = u64::from(self.cands[cell].count_ones());
            let weight: u64 = g.memberships(cell).iter().map(|m| u64::from(weights[usize::from(m.unit)])).sum();
            match best {
                Some((_, s, w)) if size * w > s * weight => continue,
                Some((_, s, w)) if size * w == s * weight => {
                    // Reservoir sampling: each tied cell equally likely.
                    ties += 1;
                    state = state.wrapping_add(0x9E37_79B9_7F4A_7C15).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                    if (state >> 33) % ties != 0 {
                        continue;
                    }
                }
                _ => ties = 1,
            }
            best = Some((cell, size, weight));
        }
        best.map(|(cell, _, _)| (cell, self.cands[cell]))
    }
    /// The memory its buffers hold on the heap.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.text.capacity()
            + (self.cands.capacity() + self.places.capacity() + self.changed.capacity()) * 4
            + self.cage_sets.capacity() * 8
    }

    /// The empty board of these rules.
    pub(crate) fn empty(geometry: SharedGeometry) -> General {
        let (cells, full, units) = (geometry.cells, geometry.full, geometry.unit_count());
        let every_place = (1u32 << geometry.side) - 1;
        let (mut cands, mut places) = (vec![full; cells], vec![every_place; units * geometry.side]);
        if !geometry.allowed.is_empty() {
            // Cells that may not hold every digit start without the others,
            // and those digits without their places there: a pass over the
            // restricted cells, where one over every unit's slots and cells
            // was a seventh of reading an even-odd 9x9 puzzle.
            for (cell, cands) in cands.iter_mut().enumerate() {
                *cands = geometry.allowed_at(cell);
                let others = full & !*cands;
                if others == 0 {
                    continue;
                }
                for m in geometry.memberships(cell) {
                    for digit in bits(others) {
                        places[usize::from(m.unit) * geometry.side + digit] &= !(1 << m.place);
                    }
                }
            }
        }
        General {
            text: vec![EMPTY; cells],
            cands,
            places,
            changed: vec![full; units],
            cage_sets: geometry.every_cage_set(),
            empty: u16::try_from(cells).expect("at most 625 cells"),
            settled: false,
            conflict: None,
            geometry,
        }
    }

    /// The complete board of `digits` (1 to the side, one per cell, which
    /// keep every rule, as a solution's do), built in one pass: placing 81
    /// digits one at a time, each taken from its peers' places, was a third
    /// of answering an even-odd 9x9 puzzle.
    pub(crate) fn solved(geometry: SharedGeometry, digits: &[u8]) -> General {
        let (side, units) = (geometry.side, geometry.unit_count());
        let mut places = vec![0; units * side];
        for unit in 0..units {
            for place in 0..side {
                let digit = usize::from(digits[geometry.unit_cell(unit, place)]);
                places[unit * side + digit - 1] |= 1 << place;
            }
        }
        General {
            text: digits.iter().map(|&digit| SYMBOLS[usize::from(digit)]).collect(),
            cands: digits.iter().map(|&digit| 1 << (digit - 1)).collect(),
            places,
            changed: vec![geometry.full; units],
            cage_sets: geometry.every_cage_set(),
            empty: 0,
            settled: false,
            conflict: None,
            geometry,
        }
    }

    /// The rules this board keeps.
    pub(crate) fn geometry(&self) -> &SharedGeometry {
        &self.geometry
    }

    /// Takes the places of `cell` out of the places of the digits in
    /// `bits`, queueing a digit left with one place in a unit when that
    /// place is an empty cell. A digit left with no place is a
    /// contradiction.
    #[inline]
    fn remove_places(
        &mut self,
        g: &Geometry,
        cell: usize,
        bits: u32,
        pending: &mut Pending,
    ) -> Result<(), Contradiction> {
        for m in g.memberships(cell) {
            let unit = usize::from(m.unit);
            self.changed[unit] |= bits;
            let row = unit * g.side;
            let mut rest = bits;
            while rest != 0 {
                let bit = rest & rest.wrapping_neg();
                rest ^= bit;
                let slot = row + bit.trailing_zeros() as usize;
                let left = self.places[slot] & !(1 << m.place);
                self.places[slot] = left;
                if left == 0 {
                    return Err(self.fail(Conflict::Unit(m.unit)));
                }
                if left.is_power_of_two() {
                    let only = g.unit_cell(unit, left.trailing_zeros() as usize);
                    if self.text[only] == EMPTY {
                        pending.singles.push((to_u16(only), bit));
                    }
                } else if at_most_three(left) {
                    pending.small_place(unit, bit);
                }
            }
        }
        Ok(())
    }

    /// [`General::remove_places`] for a board that is not propagated: no
    /// queue and no contradiction, which propagation finds later.
    fn drop_places(&mut self, g: &Geometry, cell: usize, bits: u32) {
        for m in g.memberships(cell) {
            let unit = usize::from(m.unit);
            self.changed[unit] |= bits;
            let mut rest = bits;
            while rest != 0 {
                self.places[unit * g.side + rest.trailing_zeros() as usize] &= !(1 << m.place);
                rest &= rest - 1;
            }
        }
    }

    /// Fills `bit` into the empty `cell` and removes it from the peers,
    /// queueing what that forces.
    fn assign(&mut self, g: &Geometry, cell: usize, bit: u32, pending: &mut Pending) -> Result<(), Contradiction> {
        let others = self.cands[cell] & !bit;
        self.text[cell] = SYMBOLS[usize::from(digit_of(bit))];
        self.cands[cell] = bit;
        self.empty -= 1;
        pending.cell_changed(g, cell);
        self.remove_places(g, cell, others, pending)?;
        for &peer in g.peers(cell) {
            let peer = usize::from(peer);
            if self.cands[peer] & bit != 0 {
                if self.text[peer] != EMPTY {
                    return Err(self.fail(Conflict::Cell(to_u16(peer))));
                }
                self.eliminate(g, peer, bit, pending)?;
            }
        }
        if g.non_consecutive {
            let near = g.consecutive_to(bit);
            for neighbour in g.side_neighbours(cell) {
                if self.cands[neighbour] & near != 0 {
                    if self.text[neighbour] != EMPTY {
                        return Err(self.fail(Conflict::Cell(to_u16(neighbour))));
                    }
                    self.eliminate(g, neighbour, near, pending)?;
                }
            }
        }
        Ok(())
    }

    /// Removes `bits` (some of its candidates) from the empty `cell`,
    /// queueing it if one is left.
    #[inline]
    fn eliminate(&mut self, g: &Geometry, cell: usize, bits: u32, pending: &mut Pending) -> Result<(), Contradiction> {
        let gone = self.cands[cell] & bits;
        let left = self.cands[cell] & !bits;
        if left == 0 {
            return Err(self.fail(Conflict::Cell(to_u16(cell))));
        }
        self.cands[cell] = left;
        pending.cell_changed(g, cell);
        if left.is_power_of_two() {
            pending.singles.push((to_u16(cell), left));
        } else if at_most_three(left) {
            pending.small_cell(cell);
        }
        self.remove_places(g, cell, gone, pending)
    }

    /// Queues what a board that was not propagated already forces (cells
    /// with one candidate, and digits with one place in a unit), and the
    /// cells and places that may make subsets. A digit with no place, or a
    /// cell with no candidate, is a contradiction.
    fn gather_forced(&self, g: &Geometry, pending: &mut Pending) -> Result<(), Contradiction> {
        pending.every_cage = true;
        // Every relation is to be looked at: the board was not propagated.
        for k in 0..g.relations.len() {
            mark(&mut pending.dirty_relations, k);
        }
        for k in 0..g.line_rules.len() {
            mark(&mut pending.dirty_lines, k);
        }
        for cell in (0..g.cells).filter(|&c| self.text[c] == EMPTY) {
            match self.cands[cell] {
                0 => return Err(Contradiction),
                bit if bit.is_power_of_two() => pending.singles.push((to_u16(cell), bit)),
                few if few.count_ones() <= 3 => pending.small_cell(cell),
                _ => {}
            }
        }
        for (slot, &left) in self.places.iter().enumerate() {
            if left == 0 {
                return Err(Contradiction);
            }
            let (unit, digit) = (slot / g.side, slot % g.side);
            if left.is_power_of_two() {
                let only = g.unit_cell(unit, left.trailing_zeros() as usize);
                if self.text[only] == EMPTY {
                    pending.singles.push((to_u16(only), 1 << digit));
                }
            } else if left.count_ones() <= 3 {
                pending.small_place(unit, 1 << digit);
            }
        }
        Ok(())
    }

    /// Fills the forced cells, then looks at killer cages, locked
    /// candidates and subsets, until nothing is left to do.
    fn propagate(&mut self, g: &Geometry, pending: &mut Pending) -> Result<(), Contradiction> {
        loop {
            while let Some((cell, bit)) = pending.singles.pop() {
                let cell = usize::from(cell);
                if self.text[cell] != EMPTY {
                    // Filled since: by this digit, or by another when two
                    // digits had their only place in this one cell.
                    if self.cands[cell] != bit {
                        return Err(self.fail(Conflict::Cell(to_u16(cell))));
                    }
                } else if self.cands[cell] & bit == 0 {
                    return Err(self.fail(Conflict::Cell(to_u16(cell))));
                } else {
                    self.assign(g, cell, bit, pending)?;
                }
            }
            // Singles may fill both cells of a relation in one round: this
            // checks them too.
            if self.relation_supports(g, pending)? {
                continue;
            }
            // And the last cells of a sum: this checks its total.
            if self.line_bounds(g, pending)? {
                continue;
            }
            if self.empty == 0 {
                // Singles may fill a cage's last cells in one round: check its sum.
                return self.cage_sums(g, pending).map(|_| ());
            }
            if self.cage_sums(g, pending)? {
                continue;
            }
            // Locked candidates and subsets cost a look at regions; near the
            // leaves (fewer empty cells than two rows hold) singles finish
            // the board alone, and enumeration spends most nodes there.
            let worth_it = usize::from(self.empty) > 2 * g.side;
            if !(worth_it && (self.locked_candidates(g, pending)? || (pending.subsets && self.subsets(g, pending)?))) {
                return Ok(());
            }
        }
    }

    /// Relations between two cells: each cell keeps only the digits that
    /// some candidate of the other supports, and a filled cell's digit
    /// must be supported. Returns whether anything was eliminated.
    fn relation_supports(&mut self, g: &Geometry, pending: &mut Pending) -> Result<bool, Contradiction> {
        if !g.has_relations() {
            return Ok(false);
        }
        let dirty = std::mem::take(&mut pending.dirty_relations);
        let mut changed = false;
        for k in members(&dirty) {
            let Related { cells: [first, second], relation } = g.relations[k];
            let (first, second) = (usize::from(first), usize::from(second));
            changed |= self.keep_only(g, second, relation.seconds_for(self.cands[first], g.full), pending)?;
            changed |= self.keep_only(g, first, relation.firsts_for(self.cands[second], g.full), pending)?;
        }
        Ok(changed)
    }

    /// Sums whose digits may repeat (little killers, arrows): a cell keeps
    /// a digit only if the other cells' least and greatest contributions
    /// can make up the rest of the total. Bounds, not every combination:
    /// a filled sum is checked exactly, and the search does the rest.
    /// Returns whether anything was eliminated.
    fn line_bounds(&mut self, g: &Geometry, pending: &mut Pending) -> Result<bool, Contradiction> {
        if !g.has_line_rules() {
            return Ok(false);
        }
        let dirty = std::mem::take(&mut pending.dirty_lines);
        let mut changed = false;
        for k in members(&dirty) {
            let rule = &g.line_rules[k];
            if let Some(cells) = rule.narrowed_cells() {
                changed |= self.narrow_line(g, cells, pending, |_, held, keep| rule.narrowed(g.full, held, keep))?;
                continue;
            }
            let linear = &g.linear[k];
            let total = i64::from(linear.total);
            // Each narrowing tightens the others' bounds: again until none.
            loop {
                let (low, high) = linear.terms.iter().fold((0, 0), |(low, high), &(cell, weight)| {
                    let (a, b) = contribution(self.cands[usize::from(cell)], weight);
                    (low + a, high + b)
                });
                if !(low..=high).contains(&total) {
                    return Err(self.fail(Conflict::Cell(linear.terms[0].0)));
                }
                let mut narrowed = false;
                for &(cell, weight) in &linear.terms {
                    let cell = usize::from(cell);
                    let (a, b) = contribution(self.cands[cell], weight);
                    // The others add `low - a` to `high - b`.
                    let keep = digits_within(self.cands[cell], weight, total - (high - b), total - (low - a));
                    narrowed |= self.keep_only(g, cell, keep, pending)?;
                }
                changed |= narrowed;
                if !narrowed {
                    break;
                }
            }
        }
        Ok(changed)
    }

    /// A rule along a line kept by narrowing (`LineRule::narrowed`): each
    /// cell keeps the digits that `narrowed` says the rule leaves it, again
    /// until none goes. Returns whether anything was eliminated.
    fn narrow_line(
        &mut self,
        g: &Geometry,
        cells: &[u16],
        pending: &mut Pending,
        narrowed: impl Fn(&[u16], &dyn Fn(usize) -> u32, &mut SmallVec<[u32; 32]>) -> Option<()>,
    ) -> Result<bool, Contradiction> {
        let mut keep = SmallVec::new();
        let mut changed = false;
        loop {
            if narrowed(cells, &|cell| self.cands[cell], &mut keep).is_none() {
                return Err(self.fail(Conflict::Cell(cells[0])));
            }
            let mut narrowed = false;
            for (&cell, &kept) in cells.iter().zip(&keep) {
                narrowed |= self.keep_only(g, usize::from(cell), kept, pending)?;
            }
            changed |= narrowed;
            if !narrowed {
                return Ok(changed);
            }
        }
    }

    /// Removes the candidates of `cell` outside `keep`: a contradiction
    /// for a filled cell whose digit is outside it. Returns whether any
    /// was removed.
    fn keep_only(
        &mut self,
        g: &Geometry,
        cell: usize,
        keep: u32,
        pending: &mut Pending,
    ) -> Result<bool, Contradiction> {
        let gone = self.cands[cell] & !keep;
        if gone == 0 {
            return Ok(false);
        }
        if self.text[cell] != EMPTY {
            return Err(self.fail(Conflict::Cell(to_u16(cell))));
        }
        self.eliminate(g, cell, gone, pending)?;
        Ok(true)
    }

    /// Killer cages: a cell keeps only the digits of some set of distinct
    /// digits that adds up to its cage's sum, holds the digits already
    /// placed in the cage, and leaves each empty cell of the cage a
    /// candidate. Returns whether anything was eliminated.
    fn cage_sums(&mut self, g: &Geometry, pending: &mut Pending) -> Result<bool, Contradiction> {
        let mut changed = false;
        // The cages to look at: what this pass changes marks them anew.
        let dirty = std::mem::take(&mut pending.dirty_cages);
        let every = std::mem::take(&mut pending.every_cage);
        let cages = if every { Either::Left(0..g.all_cages()) } else { Either::Right(members(&dirty)) };
        for k in cages {
            let cage = g.cage(k);
            // The digits placed in the cage, and its empty cells with their
            // candidates, read once rather than for every set. A cage has
            // at most a side's cells: rules refuse larger ones, and implied
            // sums lie in one unit.
            let mut placed = 0u32;
            let mut empty = [(0usize, 0u32); super::MAX_SIDE];
            let mut count = 0;
            for &cell in &cage.cells {
                let cell = usize::from(cell);
                if self.text[cell] == EMPTY {
                    empty[count] = (cell, self.cands[cell]);
                    count += 1;
                } else {
                    placed |= self.cands[cell];
                }
            }
            let empty = &empty[..count];
            // On a small cage, each cell keeps the digits it takes in some
            // filling of the cage by distinct digits of a set that fits
            // (every cell's digit its own candidate), rather than every
            // digit of those sets. One empty cell keeps the same digits
            // either way.
            let exact = (2..=EXACT_CAGE_CELLS).contains(&count);
            // Each of a set's digits not yet placed goes to an empty cell,
            // so a set with one that no empty cell can take has no
            // filling. Filling cells one by one finds that too on a small
            // cage, so this only saves time there; it is not asked of a
            // large cage, whose cells keep every digit of the sets that fit.
            // A cage's empty cells only grow fewer, so a set this fails
            // stays failed, as the record of cage sets needs.
            let unplaceable = if count <= EXACT_CAGE_CELLS {
                !(placed | empty.iter().fold(0, |union, &(_, c)| union | c))
            } else {
                0
            };
            let fits = |set: u32| {
                set & placed == placed && set & unplaceable == 0 && empty.iter().all(|&(_, c)| c & set & !placed != 0)
            };
            let mut supports = [0u32; EXACT_CAGE_CELLS];
            let (mut allowed, mut any) = (0, false);
            // The sets that have not failed yet, in order; those that fail
            // now leave the record.
            let words = g.cage_words(k);
            let first = words.start;
            'sets: for w in words {
                let mut left = self.cage_sets[w];
                while left != 0 {
                    let bit = left & left.wrapping_neg();
                    left ^= bit;
                    let set = cage.combinations[(w - first) * 64 + bit.trailing_zeros() as usize];
                    if !fits(set) {
                        self.cage_sets[w] ^= bit;
                        continue;
                    }
                    if exact {
                        let digits = set & !placed;
                        // A set that could add no digit to any cell is not tried
                        // once some filling is known.
                        let adds = || empty.iter().zip(&supports).any(|(&(_, c), &s)| c & digits & !s != 0);
                        if (!any || adds()) && fill_supports(empty, digits, &mut supports) {
                            any = true;
                            // Once every candidate is in some filling, no
                            // other set can add one.
                            if empty.iter().zip(&supports).all(|(&(_, c), &s)| c & !s == 0) {
                                break 'sets;
                            }
                        }
                    } else {
                        allowed |= set;
                        any = true;
                    }
                }
            }
            // No set fits: the cage cannot be completed, or it is full and
            // its digits do not add up.
            if !any {
                return Err(self.fail(Conflict::Cell(cage.cells[0])));
            }
            if exact {
                for (&(cell, cands), &support) in empty.iter().zip(&supports) {
                    let gone = cands & !support;
                    if gone != 0 {
                        self.eliminate(g, cell, gone, pending)?;
                        changed = true;
                    }
                }
                continue;
            }
            let allowed = allowed & !placed;
            for &(cell, _) in empty {
                // Read again: eliminating from one cell can narrow or fill
                // another.
                let gone = self.cands[cell] & !allowed;
                if self.text[cell] == EMPTY && gone != 0 {
                    self.eliminate(g, cell, gone, pending)?;
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

    /// The empty cells of this settled board as clauses, or `None` when a
    /// killer cage has too many ways to be filled to spell out.
    pub(crate) fn clauses(&self) -> Option<super::clauses::Clauses> {
        debug_assert!(self.settled, "the clauses take the candidates as propagation left them");
        super::clauses::Clauses::new(&self.geometry, &self.text, &self.cands)
    }

    /// The first [`TIES_SCORED`] of the empty cells with the fewest
    /// candidates, in order, found in one pass; none for a complete board.
    fn fewest_candidate_cells(&self) -> SmallVec<[u16; TIES_SCORED]> {
        let mut fewest = u32::MAX;
        let mut tied = SmallVec::new();
        for (cell, (&symbol, &candidates)) in self.text.iter().zip(&self.cands).enumerate() {
            if symbol != EMPTY {
                continue;
            }
            let count = candidates.count_ones();
            if count < fewest {
                fewest = count;
                tied.clear();
                tied.push(to_u16(cell));
            } else if count == fewest && tied.len() < TIES_SCORED {
                tied.push(to_u16(cell));
            }
        }
        tied
    }

    /// Removes the candidates `bits` from the empty `cell`, then propagates
    /// to a fixed point.
    pub(crate) fn exclude(&mut self, cell: usize, bits: u32) -> Result<(), Contradiction> {
        let geometry = self.geometry.clone();
        let mut pending = Pending::new(&geometry);
        if !self.settled {
            self.gather_forced(&geometry, &mut pending)?;
        }
        if self.text[cell] != EMPTY {
            return if self.cands[cell] & bits == 0 { Ok(()) } else { Err(Contradiction) };
        }
        if self.cands[cell] & bits != 0 {
            self.eliminate(&geometry, cell, bits, &mut pending)?;
        }
        self.propagate(&geometry, &mut pending)?;
        self.settled = true;
        Ok(())
    }

    /// Failed-digit probing: each candidate of each empty cell is tried by
    /// propagation alone, and one that leads to a contradiction is removed
    /// (with what that forces), round after round until a round removes
    /// nothing. No solution is lost. The board must be settled.
    pub(crate) fn probe(&mut self) -> Result<(), Contradiction> {
        let geometry = self.geometry.clone();
        loop {
            let mut removed = false;
            for cell in 0..geometry.cells {
                let mut untried = if self.text[cell] == EMPTY { self.cands[cell] } else { 0 };
                while untried != 0 {
                    let bit = untried & untried.wrapping_neg();
                    untried ^= bit;
                    // Earlier probes may have filled the cell or removed the digit.
                    if self.text[cell] != EMPTY || self.cands[cell] & bit == 0 {
                        break;
                    }
                    let mut trial = self.clone();
                    if trial.assign_and_propagate(cell, bit).is_err() {
                        let mut pending = Pending::new(&geometry);
                        self.eliminate(&geometry, cell, bit, &mut pending)?;
                        self.propagate(&geometry, &mut pending)?;
                        removed = true;
                    }
                }
            }
            if !removed {
                return Ok(());
            }
        }
    }

    /// Naked and hidden subsets of two and three. Two (three) empty cells of
    /// a unit whose candidates lie within two (three) digits take those
    /// digits from the unit's other cells; two (three) digits whose places
    /// in a unit lie within two (three) cells leave those cells no other
    /// candidate. Only the cells and places that came down to three or two
    /// since the last look are looked at: a subset is found when its last
    /// member joins it. Returns whether anything was eliminated.
    fn subsets(&mut self, g: &Geometry, pending: &mut Pending) -> Result<bool, Contradiction> {
        let mut changed = false;
        while let Some(cell) = pending.small_cells.pop() {
            changed |= self.naked_subsets_of(g, usize::from(cell), pending)?;
        }
        while let Some((unit, digit)) = pending.small_places.pop() {
            changed |= self.hidden_subsets_of(g, usize::from(unit), usize::from(digit), pending)?;
        }
        if std::mem::take(&mut pending.subsets_overflowed) {
            let mut swept = false;
            for cell in 0..g.cells {
                swept |= self.naked_subsets_of(g, cell, pending)?;
            }
            for slot in 0..self.places.len() {
                swept |= self.hidden_subsets_of(g, slot / g.side, slot % g.side, pending)?;
            }
            // What the sweep changed is looked at again in full on the next
            // call, rather than through the queues it may have filled.
            pending.small_cells.clear();
            pending.small_places.clear();
            pending.subsets_overflowed = swept;
            changed |= swept;
        }
        Ok(changed)
    }

    /// Where the digits of `set` can go in `unit`.
    fn spots(&self, g: &Geometry, unit: usize, set: u32) -> u32 {
        let row = &self.places[unit * g.side..(unit + 1) * g.side];
        bits(set).fold(0, |spots, d| spots | row[d])
    }

    /// The naked subsets that `cell` belongs to, if it is empty with two or
    /// three candidates: its own candidates, and with two, those with a
    /// third digit that another cell of the unit adds.
    fn naked_subsets_of(&mut self, g: &Geometry, cell: usize, pending: &mut Pending) -> Result<bool, Contradiction> {
        let mine = self.cands[cell];
        if self.text[cell] != EMPTY || !(2..=3).contains(&mine.count_ones()) {
            return Ok(false);
        }
        let mut changed = false;
        for m in g.memberships(cell) {
            let unit = usize::from(m.unit);
            changed |= self.naked_subset(g, unit, mine, pending)?;
            if mine.count_ones() == 2 && self.cands[cell] == mine {
                // Every other cell of a triple holds one of the two digits.
                for place in bits(self.spots(g, unit, mine) & !(1 << m.place)) {
                    let other = g.unit_cell(unit, place);
                    let set = mine | self.cands[other];
                    if self.text[other] == EMPTY && set.count_ones() == 3 {
                        changed |= self.naked_subset(g, unit, set, pending)?;
                    }
                }
            }
        }
        Ok(changed)
    }

    /// The empty cells of `unit` whose candidates lie within `set`: when
    /// there are as many as `set` has digits, those digits leave the unit's
    /// other cells; more is a contradiction.
    fn naked_subset(
        &mut self,
        g: &Geometry,
        unit: usize,
        set: u32,
        pending: &mut Pending,
    ) -> Result<bool, Contradiction> {
        let spots = self.spots(g, unit, set);
        let inside = bits(spots).fold(0u32, |inside, place| {
            let cell = g.unit_cell(unit, place);
            let within = self.text[cell] == EMPTY && self.cands[cell] & !set == 0;
            inside | u32::from(within) << place
        });
        match inside.count_ones().cmp(&set.count_ones()) {
            std::cmp::Ordering::Less => return Ok(false),
            std::cmp::Ordering::Greater => return Err(self.fail(Conflict::Unit(to_u16(unit)))),
            std::cmp::Ordering::Equal => {}
        }
        let mut changed = false;
        for place in bits(spots & !inside) {
            let cell = g.unit_cell(unit, place);
            // A digit of the set placed elsewhere leaves its cells too few digits.
            if self.text[cell] != EMPTY {
                return Err(self.fail(Conflict::Unit(to_u16(unit))));
            }
            let gone = self.cands[cell] & set;
            if gone != 0 {
                self.eliminate(g, cell, gone, pending)?;
                changed = true;
            }
        }
        Ok(changed)
    }

    /// The hidden subsets that `digit` belongs to in `unit`, if it has two
    /// or three places there: those places, and with two, those with a
    /// third place that another digit of the two cells adds.
    fn hidden_subsets_of(
        &mut self,
        g: &Geometry,
        unit: usize,
        digit: usize,
        pending: &mut Pending,
    ) -> Result<bool, Contradiction> {
        let row = unit * g.side;
        let at = self.places[row + digit];
        if !(2..=3).contains(&at.count_ones()) {
            return Ok(false);
        }
        let mut changed = self.hidden_subset(g, unit, at, pending)?;
        if at.count_ones() == 2 && self.places[row + digit] == at {
            let first = g.unit_cell(unit, at.trailing_zeros() as usize);
            let second = g.unit_cell(unit, 31 - at.leading_zeros() as usize);
            // Every other digit of a triple can go in one of the two cells.
            for other in bits((self.cands[first] | self.cands[second]) & !(1 << digit)) {
                let spots = at | self.places[row + other];
                if spots.count_ones() == 3 {
                    changed |= self.hidden_subset(g, unit, spots, pending)?;
                }
            }
        }
        Ok(changed)
    }

    /// The digits whose places in `unit` lie within `spots` (places of empty
    /// cells): when there are as many as `spots` has cells, those cells
    /// keep only those digits; more is a contradiction.
    fn hidden_subset(
        &mut self,
        g: &Geometry,
        unit: usize,
        spots: u32,
        pending: &mut Pending,
    ) -> Result<bool, Contradiction> {
        let row = unit * g.side;
        let mut digits = 0;
        for place in bits(spots) {
            let cell = g.unit_cell(unit, place);
            if self.text[cell] != EMPTY {
                return Ok(false);
            }
            digits |= self.cands[cell];
        }
        let inside = bits(digits).filter(|&d| self.places[row + d] & !spots == 0).fold(0u32, |set, d| set | 1 << d);
        match inside.count_ones().cmp(&spots.count_ones()) {
            std::cmp::Ordering::Less => return Ok(false),
            std::cmp::Ordering::Greater => return Err(self.fail(Conflict::Unit(to_u16(unit)))),
            std::cmp::Ordering::Equal => {}
        }
        let mut changed = false;
        for place in bits(spots) {
            let cell = g.unit_cell(unit, place);
            let gone = self.cands[cell] & !inside;
            if gone != 0 {
                self.eliminate(g, cell, gone, pending)?;
                changed = true;
            }
        }
        Ok(changed)
    }

    /// Locked candidates (pointing and claiming): when a digit's places in
    /// one region all lie where it meets another, the digit leaves the rest
    /// of the other. Only digits whose places changed in a unit since the
    /// unit was last looked at are looked at, and only those with no more
    /// places than the unit shares with some region. Returns whether
    /// anything was eliminated.
    fn locked_candidates(&mut self, g: &Geometry, pending: &mut Pending) -> Result<bool, Contradiction> {
        let mut changed = false;
        for unit in 0..g.unit_count() {
            let mut digits = std::mem::take(&mut self.changed[unit]);
            let widest = g.widest_meeting(unit);
            while digits != 0 {
                let d = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                let places = self.places[unit * g.side + d];
                // One place is a filled cell (singles are done by now), whose
                // digit has left its peers already.
                if places.count_ones() > widest || places.is_power_of_two() {
                    continue;
                }
                for meeting in g.meetings(unit) {
                    if places & !meeting.shared != 0 {
                        continue;
                    }
                    let other = usize::from(meeting.other);
                    let mut victims = self.places[other * g.side + d] & !meeting.other_shared;
                    while victims != 0 {
                        let cell = g.unit_cell(other, victims.trailing_zeros() as usize);
                        victims &= victims - 1;
                        // A digit confined to the overlap is not placed outside it.
                        if self.text[cell] != EMPTY {
                            return Err(self.fail(Conflict::Cell(to_u16(cell))));
                        }
                        self.eliminate(g, cell, 1 << d, pending)?;
                        changed = true;
                    }
                }
            }
        }
        Ok(changed)
    }
}

impl Clone for General {
    fn clone(&self) -> General {
        General {
            geometry: self.geometry.clone(),
            text: spare::copy_of(&spare::TEXT, &self.text),
            cands: spare::copy_of(&spare::CANDIDATES, &self.cands),
            places: spare::copy_of(&spare::PLACES, &self.places),
            changed: spare::copy_of(&spare::CHANGED, &self.changed),
            // Boards without cages take no buffer for them.
            cage_sets: if self.cage_sets.is_empty() {
                Vec::new()
            } else {
                spare::copy_of(&spare::CAGE_SETS, &self.cage_sets)
            },
            conflict: self.conflict,
            empty: self.empty,
            settled: self.settled,
        }
    }

    /// Into the buffers already held, with no trip through the spare pools.
    fn clone_from(&mut self, source: &General) {
        self.geometry.clone_from(&source.geometry);
        self.text.clone_from(&source.text);
        self.cands.clone_from(&source.cands);
        self.places.clone_from(&source.places);
        self.changed.clone_from(&source.changed);
        self.cage_sets.clone_from(&source.cage_sets);
        self.conflict = source.conflict;
        self.empty = source.empty;
        self.settled = source.settled;
    }
}

impl Drop for General {
    fn drop(&mut self) {
        spare::give_back(&spare::TEXT, std::mem::take(&mut self.text));
        spare::give_back(&spare::CANDIDATES, std::mem::take(&mut self.cands));
        spare::give_back(&spare::PLACES, std::mem::take(&mut self.places));
        spare::give_back(&spare::CHANGED, std::mem::take(&mut self.changed));
        spare::give_back(&spare::CAGE_SETS, std::mem::take(&mut self.cage_sets));
    }
}

impl Engine for General {
    /// A propagated board with at most `threshold` empty cells (and no
    /// more than a [`Residual`] holds) is counted over its empty cells
    /// alone. Not with killer cages, whose sums the residual problem lacks.
    fn count_directly(&self, threshold: usize, limit: usize) -> Option<usize> {
        let empty = usize::from(self.empty);
        // The direct count knows peers only: not sums, not consecutive
        // digits, not relations.
        let g = &self.geometry;
        let pairs_only = g.cages.is_empty() && !g.non_consecutive && !g.has_relations() && !g.has_line_rules();
        if !self.settled || !pairs_only || empty > threshold.min(MAX_CELLS) {
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
        let geometry = self.geometry.clone();
        // A given may be a digit that propagation took from the cell, so
        // the cell's candidates can widen here: its cages' sets are all
        // looked at again.
        if bit & !self.cands[cell] != 0 {
            for &k in geometry.cages_of(cell) {
                geometry.put_every_set(usize::from(k), &mut self.cage_sets);
            }
        }
        let others = self.cands[cell] & !bit;
        self.text[cell] = SYMBOLS[usize::from(digit_of(bit))];
        self.cands[cell] = bit;
        self.empty -= 1;
        self.settled = false;
        self.drop_places(&geometry, cell, others);
        for &peer in geometry.peers(cell) {
            let peer = usize::from(peer);
            if self.cands[peer] & bit != 0 {
                self.cands[peer] &= !bit;
                self.drop_places(&geometry, peer, bit);
            }
        }
        if geometry.non_consecutive {
            let near = geometry.consecutive_to(bit);
            for neighbour in geometry.side_neighbours(cell) {
                let gone = self.cands[neighbour] & near;
                if gone != 0 && self.text[neighbour] == EMPTY {
                    self.cands[neighbour] &= !gone;
                    self.drop_places(&geometry, neighbour, gone);
                }
            }
        }
    }

    /// Fills `bit` into the empty `cell`, then propagates to a fixed point.
    /// A board that was not settled may hold singles that no queue knows
    /// of, so those are gathered first.
    fn assign_and_propagate(&mut self, cell: usize, bit: u32) -> Result<(), Contradiction> {
        // The rules are shared, not part of what changes: a handle of
        // their own lets them be read while the cells are written.
        let geometry = self.geometry.clone();
        let mut pending = Pending::new(&geometry);
        if !self.settled {
            self.gather_forced(&geometry, &mut pending)?;
        }
        self.assign(&geometry, cell, bit, &mut pending)?;
        self.propagate(&geometry, &mut pending)?;
        self.settled = true;
        Ok(())
    }

    /// Propagates everything already forced on the board.
    fn propagate_all(&mut self) -> Result<(), Contradiction> {
        let geometry = self.geometry.clone();
        let mut pending = Pending::new(&geometry);
        self.gather_forced(&geometry, &mut pending)?;
        self.propagate(&geometry, &mut pending)?;
        self.settled = true;
        Ok(())
    }

    /// The empty cell with the fewest candidates and its candidates, or
    /// `None` for a complete board. Among equals, the one with the most empty
    /// peers, where a guess has the most to propagate to (as on 9x9).
    fn branch_cell(&self) -> Option<(usize, u32)> {
        let empty_peers =
            |c: usize| self.geometry.peers(c).iter().filter(|&&p| self.text[usize::from(p)] == EMPTY).count();
        let cell = self
            .fewest_candidate_cells()
            .into_iter()
            .map(usize::from)
            .max_by_key(|&c| (empty_peers(c), std::cmp::Reverse(c)))?;
        Some((cell, self.cands[cell]))
    }
}

/// The most cells tied for the fewest candidates that
/// [`General::branch_cell`] scores: scoring every tied cell costs more than
/// it saves.
const TIES_SCORED: usize = 8;

/// The most empty cells of a cage whose candidates [`General::cage_sums`]
/// narrows exactly: the sets of digits the cells can have taken, one bit
/// each, fit in the bits of a `u64`.
const EXACT_CAGE_CELLS: usize = 6;

/// For each digit `e` of a set of at most six: the subsets (as bit `m` for
/// subset `m`) without `e`.
const WITHOUT_DIGIT: [u64; EXACT_CAGE_CELLS] = {
    let mut table = [0; EXACT_CAGE_CELLS];
    let mut e = 0;
    while e < EXACT_CAGE_CELLS {
        let mut m = 0;
        while m < 64 {
            if m & (1 << e) == 0 {
                table[e] |= 1 << m;
            }
            m += 1;
        }
        e += 1;
    }
    table
};

/// Adds to `supports` each cell's digits in every filling of `cells` (each
/// with its candidates) by the distinct `digits`, one each, as many digits
/// as cells; whether there is any.
///
/// A cell's digit is in some filling when the cells before it can take
/// some of the other digits and the cells after it the rest. So the sets
/// of digits the first `k` cells can take are found going forward, the
/// sets the cells from `k` on can complete going back, and each cell keeps
/// the digits that join the two: some thirty steps over sets of sets held
/// as bits, where trying every filling took up to 6! per set of digits.
fn fill_supports(cells: &[(usize, u32)], digits: u32, supports: &mut [u32]) -> bool {
    let n = cells.len();
    debug_assert!(n <= EXACT_CAGE_CELLS && digits.count_ones() as usize == n, "as many digits as cells");
    // The set's digits in order, and each cell's candidates among them as
    // bits 0..n.
    let mut digit_of = [0u32; EXACT_CAGE_CELLS];
    let mut rest = digits;
    for digit in digit_of.iter_mut().take(n) {
        *digit = rest & rest.wrapping_neg();
        rest ^= *digit;
    }
    let mut local = [0u32; EXACT_CAGE_CELLS];
    for (local, &(_, candidates)) in local.iter_mut().zip(cells) {
        for (e, &digit) in digit_of.iter().enumerate().take(n) {
            *local |= u32::from(candidates & digit != 0) << e;
        }
    }
    // `taken[k]`, bit `m`: the first `k` cells can take the digits of `m`,
    // one each. Giving digit `e` to cell `k` moves each set without it up
    // by `1 << e`.
    let mut taken = [0u64; EXACT_CAGE_CELLS + 1];
    taken[0] = 1;
    for k in 0..n {
        taken[k + 1] = bits(local[k]).fold(0, |next, e| next | (taken[k] & WITHOUT_DIGIT[e]) << (1 << e));
    }
    let all = (1u64 << n) - 1;
    if taken[n] >> all & 1 == 0 {
        return false;
    }
    // `completes`, bit `m`: with the digits of `m` taken before cell `k`,
    // the cells from `k` on can take the rest.
    let mut completes = 1u64 << all;
    for k in (0..n).rev() {
        let mut before = 0;
        for e in bits(local[k]) {
            if (taken[k] & WITHOUT_DIGIT[e]) << (1 << e) & completes != 0 {
                supports[k] |= digit_of[e];
            }
            before |= (completes & !WITHOUT_DIGIT[e]) >> (1 << e);
        }
        completes = before;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Engines;
    use crate::{Board, Rules, Shape};

    /// A solution built in one pass equals the same digits placed one at a
    /// time, down to every candidate and place, under rules of every kind.
    #[test]
    fn a_solved_board_is_the_digits_placed_one_by_one() {
        let rules = [
            Rules::new(Shape::new(2, 3)),
            Rules::jigsaw("aaabbb aaabbb cccddd cccddd eeefff eeefff").unwrap(),
            Rules::new(Shape::new(2, 2)).with_cage(3, &[0, 1]).unwrap().with_diagonals(),
            Rules::new(Shape::NINE).with_even(&[0, 10, 20]).unwrap(),
            Rules::new(Shape::new(4, 4)).with_windows(),
        ];
        for rules in rules {
            let empty = Board::empty_with(&rules);
            let solution = empty.solve().expect("a solution");
            let digits: Vec<u8> = solution.cells().map(|digit| digit.unwrap()).collect();
            let Engines::General(general) = &empty.engine else { panic!("{rules:?} on the general engine") };
            let at_once = General::solved(general.geometry().clone(), &digits);
            let mut one_by_one = general.clone();
            for (cell, &digit) in digits.iter().enumerate() {
                one_by_one.put(cell, 1 << (digit - 1));
            }
            assert_eq!(at_once.text, one_by_one.text);
            assert_eq!(at_once.cands, one_by_one.cands);
            assert_eq!(at_once.places, one_by_one.places);
            assert_eq!(at_once.empty, 0);
            assert_eq!(empty.with_solution_digits(&digits), solution);
        }
    }

    /// Whether every set of every cage that fits `board` (holding the
    /// digits placed in the cage, a candidate of each empty cell among its
    /// others, and on a cage of at most six empty cells none that no empty
    /// cell can take) is still in the board's record; and how many sets
    /// the record has left out.
    fn record_keeps_fitting_sets(board: &General) -> (bool, usize) {
        let g = &*board.geometry;
        let mut left_out = 0;
        for k in 0..g.all_cages() {
            let cage = g.cage(k);
            let filled = |c: &&u16| board.text[usize::from(**c)] != EMPTY;
            let placed = cage.cells.iter().filter(filled).fold(0, |p, &c| p | board.cands[usize::from(c)]);
            let empty: Vec<u32> =
                cage.cells.iter().filter(|c| !filled(c)).map(|&c| board.cands[usize::from(c)]).collect();
            let takes = empty.iter().fold(placed, |p, &c| p | c);
            let words = g.cage_words(k);
            for (i, &set) in cage.combinations.iter().enumerate() {
                let fits = set & placed == placed
                    && empty.iter().all(|&c| c & set & !placed != 0)
                    && (empty.len() > EXACT_CAGE_CELLS || set & !takes == 0);
                let kept = board.cage_sets[words.start + i / 64] >> (i % 64) & 1 == 1;
                if fits && !kept {
                    return (false, left_out);
                }
                left_out += usize::from(!kept);
            }
        }
        (true, left_out)
    }

    /// The record of the sets each cage may still take never leaves out
    /// one that fits: not on the boards of a search of killer puzzles, and
    /// not after a digit that propagation took from a cell is placed there
    /// again, which widens its candidates.
    #[test]
    fn the_record_of_cage_sets_keeps_every_set_that_fits() {
        let data = include_str!("../../data/killer9.txt");
        let (mut boards, mut left_out, mut widened) = (0, 0, 0);
        for line in data.lines().filter(|l| !l.starts_with('#')) {
            let puzzle: Board = line.parse().unwrap();
            let mut stack = vec![puzzle];
            let mut visited = 0;
            while let Some(board) = stack.pop() {
                visited += 1;
                if visited > 200 {
                    break;
                }
                let Engines::General(general) = &board.engine else { panic!("killer rules on the general engine") };
                let (kept, out) = record_keeps_fitting_sets(general);
                assert!(kept, "{line}: a set that fits is left out of {}", board.as_str());
                (boards, left_out) = (boards + 1, left_out + out);
                // Digits propagation took from empty cells, placed there
                // again: allowed where no peer holds them.
                for cell in (0..81).filter(|&c| board.get(c).is_none()) {
                    for digit in (1..=9u8).filter(|&d| !board.candidates(cell).contains(d)) {
                        let Ok(placed) = board.place(cell, digit) else { continue };
                        let Engines::General(general) = &placed.engine else { unreachable!() };
                        assert!(
                            record_keeps_fitting_sets(general).0,
                            "{line}: {} after a placed digit",
                            placed.as_str()
                        );
                        widened += 1;
                    }
                }
                stack.extend(board.children());
            }
        }
        assert!(left_out > 10_000 && boards > 100, "the record left out only {left_out} sets over {boards} boards");
        assert!(
            widened > 100,
            "{boards} boards, {left_out} sets left out, only {widened} had a taken digit placed again"
        );
    }

    /// Every filling of `cells` by the distinct `digits`, tried one by one.
    fn supports_by_trying(cells: &[u32], digits: u32, supports: &mut [u32]) -> bool {
        let Some((&candidates, rest)) = cells.split_first() else { return true };
        let mut any = false;
        for digit in bits(candidates & digits).map(|d| 1 << d) {
            if supports_by_trying(rest, digits & !digit, &mut supports[1..]) {
                supports[0] |= digit;
                any = true;
            }
        }
        any
    }

    /// The supports found through the sets of digits the cells can take
    /// are those of trying every filling, for two to six cells, digits of a
    /// 16x16 board and random candidates, many of them with no filling.
    #[test]
    fn supports_match_every_filling_tried() {
        let mut state = 0x2545_f491_u32;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state
        };
        let (mut fillable, mut none) = (0, 0);
        for _ in 0..20_000 {
            let n = 2 + next() as usize % (EXACT_CAGE_CELLS - 1);
            let mut digits = 0u32;
            while (digits.count_ones() as usize) < n {
                digits |= 1 << (next() % 16);
            }
            let cells: Vec<u32> = (0..n).map(|_| next() & 0xFFFF & (digits | next())).collect();
            let with_cells: Vec<(usize, u32)> = cells.iter().enumerate().map(|(k, &c)| (k, c)).collect();
            let (mut expected, mut found) = ([0u32; EXACT_CAGE_CELLS], [0u32; EXACT_CAGE_CELLS]);
            let any = supports_by_trying(&cells, digits, &mut expected);
            assert_eq!(fill_supports(&with_cells, digits, &mut found), any, "{cells:x?} {digits:x}");
            assert_eq!(found, expected, "{cells:x?} {digits:x}");
            if any { fillable += 1 } else { none += 1 }
        }
        assert!(fillable > 2_000 && none > 2_000, "{fillable} with a filling, {none} without");
    }
}
