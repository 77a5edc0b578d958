//! The pencil marks a person keeps: each cell's digit or candidates, with
//! the names that steps use for cells, regions and digits.

use std::cell::RefCell;
use std::fmt::{self, Write as _};

use crate::board::{Board, Geometry, Region, Rules, bits64};

use super::Step;

#[derive(Clone, Debug)]
pub(super) struct Grid {
    rules: Rules,
    /// The board the steps started from, for the uniqueness check.
    puzzle: Board,
    pub(super) side: usize,
    /// The digit of each cell, 0 for empty.
    pub(super) values: Vec<u8>,
    /// The candidates of each empty cell (bit `d - 1` for digit `d`), 0 for
    /// a filled one. Written only through [`Grid::apply`], which keeps
    /// `place_masks` with them.
    pub(super) candidates: Vec<u32>,
    /// `place_masks[unit * side + d - 1]`: the empty cells of the unit
    /// that have digit `d` as a candidate, bit `i` for its `i`-th cell.
    /// Every technique asks where a digit can go in a region, over and over
    /// at each step; kept up to date, that is one load, not a scan.
    place_masks: Vec<u32>,
    /// The digits placed in each unit, one bit each.
    placed: Vec<u32>,
    /// The empty cells with one candidate left, bit `c % 64` of word
    /// `c / 64`; and the digits with one place left in each unit. Kept
    /// with the candidates, so that the singles, most steps of most
    /// puzzles, are found without a look at every cell and every digit of
    /// every unit.
    one_candidate: Vec<u64>,
    one_place: Vec<u32>,
    /// The units with one digit left to place, bit `u % 64` of word
    /// `u / 64`: where a full house may be.
    one_missing: Vec<u64>,
    /// How many cells are empty.
    empty: usize,
    /// Whether an empty cell has no candidate left, or a unit no place for
    /// a digit it lacks: worked out in full once, then kept by
    /// [`Grid::apply`] from what each step changes.
    contradictory: bool,
    /// What [`Grid::remove`] left at nothing while a step is applied: an
    /// empty cell's candidates (`None`), or a digit's places in a unit.
    /// Checked once the whole step is in, since a later placement of the
    /// same step may fill the cell or place the digit.
    emptied: Vec<(usize, Option<u8>)>,
    /// Each unit's number among the units of its kind, from 1.
    ordinals: Vec<usize>,
    /// The units in the order people scan them for hidden singles: boxes
    /// (and other regions) first, then rows and columns.
    scan_order: Vec<usize>,
    /// See [`Grid::lines`].
    lines: Option<[Vec<usize>; 2]>,
    /// The digits whose places the step being applied changed.
    changed_digits: u32,
    /// Whether a cell's peers are the cells of its units, with no cages or
    /// groups of distinct digits.
    peers_are_units: bool,
    /// For each killer cage, then each cage that units imply: its cells'
    /// candidates when the cage step last found nothing to remove there
    /// (see [`Grid::quiet_cage`]).
    quiet_cages: RefCell<Vec<Vec<u32>>>,
}

impl Grid {
    /// The givens of `board`, and for each empty cell every digit that no
    /// peer holds (nor, under the non-consecutive rule, is next to a
    /// neighbour's digit): what a person writes in before the first
    /// deduction.
    pub(super) fn new(board: &Board) -> Grid {
        let rules = board.rules();
        let geometry = rules.geometry();
        let values: Vec<u8> = board.cells().map(|digit| digit.unwrap_or(0)).collect();
        let mut placed = vec![0; geometry.unit_count()];
        for (cell, &value) in values.iter().enumerate() {
            for m in geometry.memberships(cell) {
                placed[usize::from(m.unit)] |= bit(value).unwrap_or(0);
            }
        }
        // Without cages and groups of distinct digits, a cell's peers are
        // its units' cells, whose digits are known by unit already.
        let peers_are_units = geometry.cages.is_empty() && geometry.distinct.is_empty();
        let candidates = first_candidates(geometry, &values, &placed, peers_are_units);
        let side = geometry.side;
        let mut place_masks = vec![0u32; geometry.unit_count() * side];
        for (masks, unit) in place_masks.chunks_exact_mut(side).zip(geometry.units()) {
            let mut unit_candidates = [0u32; 32];
            for (slot, &cell) in unit_candidates.iter_mut().zip(unit) {
                *slot = candidates[usize::from(cell)];
            }
            for (digit, mask) in masks.iter_mut().enumerate() {
                *mask = (0..side).fold(0, |m, place| m | (unit_candidates[place] >> digit & 1) << place);
            }
        }
        let (ordinals, scan_order, lines) = unit_layout(geometry);
        let empty = candidates.len() - values.iter().filter(|&&v| v != 0).count();
        let mut one_candidate = vec![0u64; candidates.len().div_ceil(64)];
        for (cell, &candidates) in candidates.iter().enumerate() {
            one_candidate[cell / 64] |= u64::from(candidates.is_power_of_two()) << (cell % 64);
        }
        let one_place = place_masks
            .chunks(side)
            .map(|masks| (0..side).fold(0, |singles, d| singles | u32::from(masks[d].is_power_of_two()) << d))
            .collect();
        let mut one_missing = vec![0u64; placed.len().div_ceil(64)];
        for (unit, &digits) in placed.iter().enumerate() {
            one_missing[unit / 64] |= u64::from(digits.count_ones() as usize + 1 == side) << (unit % 64);
        }
        let mut grid = Grid {
            rules: rules.clone(),
            puzzle: board.clone(),
            side,
            values,
            candidates,
            place_masks,
            placed,
            one_candidate,
            one_place,
            one_missing,
            empty,
            contradictory: false,
            emptied: Vec::new(),
            ordinals,
            scan_order,
            lines,
            changed_digits: 0,
            peers_are_units,
            quiet_cages: RefCell::new(vec![Vec::new(); geometry.cages.len() + geometry.implied.len()]),
        };
        grid.contradictory = grid.contradiction_anywhere();
        grid
    }

    /// Whether the cage step found nothing to remove in cage `slot` (a
    /// killer cage's index, or the number of killer cages plus an implied
    /// cage's) when its `cells` had the candidates they have now. The step
    /// looks at every cage at every step of a killer puzzle, and each look
    /// matches the cage's combinations to its cells: a cage whose cells
    /// have not changed gives the same answer. A cell's candidates tell
    /// whether it is filled (none), and a filled cell keeps its digit.
    pub(super) fn quiet_cage(&self, slot: usize, cells: &[u16]) -> bool {
        let quiet = self.quiet_cages.borrow();
        quiet[slot].len() == cells.len()
            && cells.iter().zip(&quiet[slot]).all(|(&c, &was)| self.candidates[usize::from(c)] == was)
    }

    /// Notes that the cage step found nothing to remove in cage `slot`.
    pub(super) fn note_quiet_cage(&self, slot: usize, cells: &[u16]) {
        let mut quiet = self.quiet_cages.borrow_mut();
        quiet[slot].clear();
        quiet[slot].extend(cells.iter().map(|&c| self.candidates[usize::from(c)]));
    }

    /// Takes `bits` out of the candidates of `cell`, and the cell out of
    /// those digits' places.
    fn remove(&mut self, cell: usize, bits: u32) {
        let gone = self.candidates[cell] & bits;
        if gone == 0 {
            return;
        }
        self.changed_digits |= gone;
        let left = self.candidates[cell] & !gone;
        self.candidates[cell] = left;
        if left == 0 {
            self.emptied.push((cell, None));
        }
        let bit = 1 << (cell % 64);
        if left.is_power_of_two() {
            self.one_candidate[cell / 64] |= bit;
        } else {
            self.one_candidate[cell / 64] &= !bit;
        }
        let geometry = self.rules.geometry();
        for m in geometry.memberships(cell) {
            let unit = usize::from(m.unit);
            for digit in digits(gone) {
                let slot = unit * self.side + usize::from(digit - 1);
                let places = self.place_masks[slot] & !(1 << m.place);
                self.place_masks[slot] = places;
                if places == 0 {
                    self.emptied.push((unit, Some(digit)));
                }
                let bit = 1 << (digit - 1);
                if places.is_power_of_two() {
                    self.one_place[unit] |= bit;
                } else {
                    self.one_place[unit] &= !bit;
                }
            }
        }
    }

    /// The first empty cell with one candidate left.
    pub(super) fn first_with_one_candidate(&self) -> Option<usize> {
        let (word, &bits) = self.one_candidate.iter().enumerate().find(|&(_, &bits)| bits != 0)?;
        Some(word * 64 + bits.trailing_zeros() as usize)
    }

    /// The units with one digit left to place, in order.
    pub(super) fn units_missing_one(&self) -> impl Iterator<Item = usize> + '_ {
        self.one_missing.iter().enumerate().flat_map(|(word, &bits)| bits64(bits).map(move |bit| word * 64 + bit))
    }

    /// The digits with one place left in `unit`, one bit each.
    pub(super) fn one_place(&self, unit: usize) -> u32 {
        self.one_place[unit]
    }

    pub(super) fn geometry(&self) -> &Geometry {
        self.rules.geometry()
    }

    pub(super) fn puzzle(&self) -> &Board {
        &self.puzzle
    }

    /// Whether the rules go beyond regions (killer cages, relations
    /// between cells, sums and arrows, groups of distinct digits, the non-consecutive
    /// rule, digits allowed in some cells only), which a swap of two
    /// digits between the corners of a rectangle can break: then a pattern
    /// that would have two solutions under regions alone may have one, and
    /// the uniqueness techniques do not hold.
    pub(super) fn has_more_than_regions(&self) -> bool {
        let geometry = self.geometry();
        !geometry.cages.is_empty()
            || geometry.has_relations()
            || geometry.has_line_rules()
            || !geometry.distinct.is_empty()
            || geometry.non_consecutive
            || !geometry.allowed.is_empty()
    }

    /// The board of the digits placed so far.
    pub(super) fn board(&self) -> Board {
        let mut board = Board::empty_with(&self.rules);
        for (cell, &digit) in self.values.iter().enumerate() {
            if digit != 0 {
                board.put_given(cell, 1 << (digit - 1));
            }
        }
        board
    }

    pub(super) fn empty(&self) -> usize {
        self.empty
    }

    /// The digits placed in `unit`, one bit each.
    pub(super) fn placed(&self, unit: usize) -> u32 {
        self.placed[unit]
    }

    /// Applies the step, and returns the digits whose places changed (bit
    /// `d - 1` for digit `d`).
    pub(super) fn apply(&mut self, step: &Step) -> u32 {
        // The rules are shared: a handle of their own lets them be read
        // while the candidates are written.
        let rules = self.rules.clone();
        let geometry = rules.geometry();
        for (cell, digit) in step.placements() {
            self.values[cell] = digit;
            self.empty -= 1;
            for m in geometry.memberships(cell) {
                let unit = usize::from(m.unit);
                self.placed[unit] |= 1 << (digit - 1);
                let one_missing = self.placed[unit].count_ones() as usize + 1 == self.side;
                self.one_missing[unit / 64] =
                    self.one_missing[unit / 64] & !(1 << (unit % 64)) | u64::from(one_missing) << (unit % 64);
            }
            self.remove(cell, u32::MAX);
            let bit = 1 << (digit - 1);
            if self.peers_are_units {
                // The peers that still have the digit are its places in
                // the cell's units: only those are visited.
                for m in geometry.memberships(cell) {
                    let unit = usize::from(m.unit);
                    let mut places = self.place_masks[unit * self.side + usize::from(digit - 1)];
                    while places != 0 {
                        let peer = geometry.unit_cell(unit, places.trailing_zeros() as usize);
                        places &= places - 1;
                        if self.candidates[peer] & bit != 0 {
                            self.remove(peer, bit);
                        }
                    }
                }
            } else {
                // Most peers lack the digit already: a look here saves a call.
                for &peer in geometry.peers(cell) {
                    if self.candidates[usize::from(peer)] & bit != 0 {
                        self.remove(usize::from(peer), bit);
                    }
                }
            }
            if geometry.non_consecutive {
                let near = geometry.consecutive_to(1 << (digit - 1));
                for neighbour in geometry.side_neighbours(cell) {
                    self.remove(neighbour, near);
                }
            }
        }
        for (cell, digit) in step.eliminations() {
            self.remove(cell, 1 << (digit - 1));
        }
        let found = self.emptied.iter().any(|&(at, digit)| match digit {
            None => self.values[at] == 0,
            Some(digit) => self.placed[at] >> (digit - 1) & 1 == 0,
        });
        self.contradictory |= found;
        self.emptied.clear();
        debug_assert_eq!(self.contradictory, self.contradiction_anywhere(), "kept as the grid changed");
        debug_assert!(
            (0..self.candidates.len())
                .all(|c| { (self.one_candidate[c / 64] >> (c % 64) & 1 == 1) == self.candidates[c].is_power_of_two() }),
            "cells with one candidate kept as the grid changed"
        );
        debug_assert!(
            self.place_masks.chunks(self.side).zip(&self.one_place).all(|(masks, &singles)| {
                (0..self.side).all(|d| (singles >> d & 1 == 1) == masks[d].is_power_of_two())
            }),
            "digits with one place kept as the grid changed"
        );
        debug_assert!(
            self.placed.iter().enumerate().all(|(u, &digits)| {
                (self.one_missing[u / 64] >> (u % 64) & 1 == 1) == (digits.count_ones() as usize + 1 == self.side)
            }),
            "units missing one digit kept as the grid changed"
        );
        std::mem::take(&mut self.changed_digits)
    }

    /// An empty cell without candidates, or a unit with no place for a
    /// digit it lacks.
    pub(super) fn is_contradictory(&self) -> bool {
        self.contradictory
    }

    /// [`Grid::is_contradictory`], worked out over the whole grid.
    fn contradiction_anywhere(&self) -> bool {
        let geometry = self.geometry();
        let empty_without = (0..geometry.cells).any(|c| self.values[c] == 0 && self.candidates[c] == 0);
        empty_without
            || (0..geometry.unit_count())
                .any(|unit| digits(geometry.full & !self.placed[unit]).any(|digit| self.place_mask(unit, digit) == 0))
    }

    pub(super) fn unit_count(&self) -> usize {
        self.geometry().unit_count()
    }

    /// The cells of `unit`.
    pub(super) fn unit(&self, unit: usize) -> impl Iterator<Item = usize> + '_ {
        let side = self.side;
        (0..side).map(move |place| self.geometry().unit_cell(unit, place))
    }

    pub(super) fn kind(&self, unit: usize) -> Region {
        self.geometry().region(unit)
    }

    /// The empty cells of `unit` that have `digit` as a candidate.
    pub(super) fn places(&self, unit: usize, digit: u8) -> Vec<usize> {
        let mask = self.place_mask(unit, digit);
        (0..self.side)
            .filter(|&place| mask >> place & 1 == 1)
            .map(|place| self.geometry().unit_cell(unit, place))
            .collect()
    }

    /// The places of `digit` in `unit` as bits, bit `i` for its `i`-th
    /// cell: [`Grid::places`] without building the list.
    pub(super) fn place_mask(&self, unit: usize, digit: u8) -> u32 {
        self.place_masks[unit * self.side + usize::from(digit - 1)]
    }

    /// The two places of `digit` in `unit` when it has exactly two there
    /// (a strong link), in the unit's order.
    pub(super) fn two_places(&self, unit: usize, digit: u8) -> Option<(usize, usize)> {
        let mask = self.place_mask(unit, digit);
        (mask.count_ones() == 2).then(|| {
            let cell = |place: u32| self.geometry().unit_cell(unit, place as usize);
            (cell(mask.trailing_zeros()), cell(mask.ilog2()))
        })
    }

    /// The units in the order people scan them: boxes (and other regions)
    /// first, then rows and columns.
    pub(super) fn scan_order(&self) -> &[usize] {
        &self.scan_order
    }

    pub(super) fn has(&self, cell: usize, digit: u8) -> bool {
        self.candidates[cell] >> (digit - 1) & 1 == 1
    }

    pub(super) fn count(&self, cell: usize) -> u32 {
        self.candidates[cell].count_ones()
    }

    /// Whether two cells may not hold the same digit.
    pub(super) fn sees(&self, a: usize, b: usize) -> bool {
        a != b && self.geometry().peers(a).binary_search(&u16::try_from(b).unwrap_or(u16::MAX)).is_ok()
    }

    pub(super) fn peers(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        self.geometry().peers(cell).iter().map(|&p| usize::from(p))
    }

    /// The units `cell` is in.
    pub(super) fn units_of(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        self.geometry().memberships(cell).iter().map(|m| usize::from(m.unit))
    }

    /// The units of the rows and of the columns, in order, when the rules
    /// have every row and every column as a unit (a digit's places in row
    /// `r` are then its columns there, and the other way round).
    pub(super) fn lines(&self) -> Option<&[Vec<usize>; 2]> {
        self.lines.as_ref()
    }

    /// A cell's name, `r5c6`, written where it is used: a step's sentence
    /// names several, and an allocation for each cost more than the rest
    /// of finding a single.
    pub(super) fn cell_name(&self, cell: usize) -> CellName {
        CellName { row: cell / self.side + 1, column: cell % self.side + 1 }
    }

    pub(super) fn cell_names(&self, cells: &[usize]) -> String {
        list(cells.iter().map(|&c| self.cell_name(c)))
    }

    /// A unit's name, `box 5` or `region 3`, written where it is used.
    pub(super) fn unit_name(&self, unit: usize) -> UnitName {
        UnitName { kind: self.kind(unit), ordinal: self.ordinals[unit] }
    }
}

/// See [`Grid::cell_name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct CellName {
    row: usize,
    column: usize,
}

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row, self.column)
    }
}

/// See [`Grid::unit_name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct UnitName {
    kind: Region,
    ordinal: usize,
}

impl fmt::Display for UnitName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            Region::Jigsaw => f.write_str("region")?,
            Region::Extra => f.write_str("extra region")?,
            kind => write!(f, "{kind}")?,
        }
        write!(f, " {}", self.ordinal)
    }
}

/// The candidates of each empty cell before the first step: every digit
/// the rules allow there that no peer holds (nor, under the
/// non-consecutive rule, is next to a neighbour's digit); 0 for a filled
/// cell. `placed` is each unit's digits, which are a cell's peers' digits
/// when `peers_are_units`.
fn first_candidates(geometry: &Geometry, values: &[u8], placed: &[u32], peers_are_units: bool) -> Vec<u32> {
    (0..geometry.cells)
        .map(|cell| {
            if values[cell] != 0 {
                return 0;
            }
            let allowed = geometry.allowed_at(cell);
            let left = if peers_are_units {
                geometry.memberships(cell).iter().fold(allowed, |left, m| left & !placed[usize::from(m.unit)])
            } else {
                geometry
                    .peers(cell)
                    .iter()
                    .filter_map(|&peer| bit(values[usize::from(peer)]))
                    .fold(allowed, |left, taken| left & !taken)
            };
            if !geometry.non_consecutive {
                return left;
            }
            geometry
                .side_neighbours(cell)
                .filter_map(|n| bit(values[n]))
                .fold(left, |left, taken| left & !geometry.consecutive_to(taken))
        })
        .collect()
}

/// For each unit, its number among the units of its kind (from 1); the
/// units in the order people scan them for hidden singles (boxes and other
/// regions first, then rows and columns); and, see [`Grid::lines`], the
/// units of the rows and of the columns.
fn unit_layout(geometry: &Geometry) -> (Vec<usize>, Vec<usize>, Option<[Vec<usize>; 2]>) {
    let side = geometry.side;
    // How many units of each kind came before, counted as they go by.
    let mut seen: Vec<(Region, usize)> = Vec::new();
    let ordinals = (0..geometry.unit_count())
        .map(|unit| {
            let kind = geometry.region(unit);
            if let Some((_, count)) = seen.iter_mut().find(|(k, _)| *k == kind) {
                *count += 1;
                *count
            } else {
                seen.push((kind, 1));
                1
            }
        })
        .collect();
    let lines_of = |kind: Region, cell: fn(usize, usize, usize) -> usize| {
        let units: Vec<usize> = (0..geometry.unit_count()).filter(|&u| geometry.region(u) == kind).collect();
        let in_order = units.len() == side
            && units
                .iter()
                .enumerate()
                .all(|(line, &unit)| (0..side).all(|place| geometry.unit_cell(unit, place) == cell(side, line, place)));
        in_order.then_some(units)
    };
    let rows = lines_of(Region::Row, |side, row, column| row * side + column);
    let columns = lines_of(Region::Column, |side, column, row| row * side + column);
    let lines = rows.zip(columns).map(|(rows, columns)| [rows, columns]);
    let mut scan_order: Vec<usize> = (0..geometry.unit_count()).collect();
    scan_order.sort_by_key(|&u| matches!(geometry.region(u), Region::Row | Region::Column));
    (ordinals, scan_order, lines)
}

/// The bit of `digit`, `None` for 0 (an empty cell).
pub(super) fn bit(digit: u8) -> Option<u32> {
    (digit != 0).then(|| 1 << (digit - 1))
}

/// The digits of a bit set, in increasing order.
pub(super) fn digits(mut bits: u32) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        let digit = u8::try_from(bits.trailing_zeros() + 1).ok().filter(|&d| d <= 32)?;
        bits &= bits - 1;
        Some(digit)
    })
}

/// How a digit is written.
pub(super) fn symbol(digit: u8) -> char {
    crate::Shape::symbol(digit).unwrap_or('?')
}

pub(super) fn symbols(bits: u32) -> String {
    list(digits(bits).map(symbol))
}

/// `a`, `a and b`, `a, b and c`.
pub(super) fn list<T: fmt::Display>(items: impl Iterator<Item = T>) -> String {
    let mut text = String::new();
    let mut items = items.peekable();
    let mut first = true;
    while let Some(item) = items.next() {
        if !first {
            text.push_str(if items.peek().is_some() { ", " } else { " and " });
        }
        first = false;
        // Writing to a string cannot fail.
        let _ = write!(text, "{item}");
    }
    text
}
