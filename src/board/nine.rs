//! The 9x9 engine: band bitboards.
//!
//! For each digit, the board is three bands of three rows, each band a
//! 27-bit mask of the cells where the digit may still go (bit
//! `9 * row_in_band + column`). This is the layout `JCZSolve` made known, and
//! it makes the three inferences that matter cheap:
//!
//! - Within a band, a digit sits once in each row and once in each box, so
//!   its three rows take the three boxes in some order. A table over the nine
//!   "mini-rows" (row x box) keeps the cells of the orders still possible:
//!   one lookup gives locked candidates (pointing and claiming along rows) and
//!   hidden singles in boxes. A row left with one cell is a hidden single.
//! - Naked singles across all digits come from counting bits in parallel:
//!   `twos |= ones & a; ones |= a` over the nine digit masks of a band.
//! - Across bands, a digit sits once in each column and once in each box of
//!   a stack, so the same permutation argument over the nine "mini-columns"
//!   (band x column) gives locked candidates along columns. It also finds
//!   hidden singles in columns: a column with one cell left pins its box to
//!   that column, and the band step then solves the cell.
//!
//! A solved cell writes its digit into the text, so [`Board::as_str`](super::Board::as_str)
//! never has to be rebuilt.

use std::ops::ControlFlow;

use super::engine::Engine;
use super::residual::{Cells, Residual};
use super::{Contradiction, EMPTY, SYMBOLS, Shape};
use crate::cpu::BitManipulation;

/// The nine bits of one row of a band.
const ROW: u32 = 0x1FF;
/// All 27 cells of a band.
const BAND: u32 = 0x7FF_FFFF;
/// All 27 digit-band pairs.
const ALL_PAIRS: u32 = 0x7FF_FFFF;

/// The mini-rows of a band's 27 bits that hold a candidate, as the nine
/// bits of a [`PERMUTATIONS`] index: bit `3 * box + row`.
///
/// Shifts rather than a table: the band update is a chain of dependent
/// steps, and each lookup is a load on it.
#[inline]
const fn mini_rows(band: u32) -> usize {
    // Bit `9 * row + 3 * box` set where the mini-row has a candidate.
    let firsts = (band | band >> 1 | band >> 2) & MINI_ROW_FIRSTS;
    // Rows 1 and 2 moved down by 8 and 16 bits interleave with row 0.
    ((firsts | firsts >> 8 | firsts >> 16) & ROW) as usize
}

/// The six one-to-one assignments of three lines to three slots: entry
/// `line` of an order is that line's slot.
const ORDERS: [[usize; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];

/// The 3x3 assignment argument behind both directions: three lines (rows of
/// a band, or bands of a stack) take three slots (boxes, or columns) one
/// each. For a pattern with bit `3 * line + slot` set where that line can
/// use that slot, the pairs that some one-to-one assignment uses, or 0 when
/// none fits.
const ASSIGNMENTS: [u32; 512] = {
    let mut table = [0u32; 512];
    let mut pattern = 0usize;
    while pattern < 512 {
        let mut o = 0;
        while o < 6 {
            let order = ORDERS[o];
            let used: usize = 1 << order[0] | 1 << (3 + order[1]) | 1 << (6 + order[2]);
            if pattern & used == used {
                #[expect(clippy::cast_possible_truncation, reason = "nine bits")]
                {
                    table[pattern] |= used as u32;
                }
            }
            o += 1;
        }
        pattern += 1;
    }
    table
};

/// [`ASSIGNMENTS`] with each pair kept (line `pair / 3`, slot `pair % 3`)
/// spread to `bits << (line_stride * line + slot_stride * slot)`.
const fn spread_assignments(bits: u32, line_stride: usize, slot_stride: usize) -> [u32; 512] {
    let mut table = [0; 512];
    let mut pattern = 0;
    while pattern < 512 {
        let mut pair = 0;
        while pair < 9 {
            if ASSIGNMENTS[pattern] & (1 << pair) != 0 {
                table[pattern] |= bits << (line_stride * (pair / 3) + slot_stride * (pair % 3));
            }
            pair += 1;
        }
        pattern += 1;
    }
    table
}

/// [`ASSIGNMENTS`] for a band's mini-rows, indexed box by box (bit
/// `3 * box + row` for a mini-row with a candidate, the order
/// [`mini_rows`] gathers them in), spread to the cells of each mini-row
/// kept: one lookup masks a digit's band.
const PERMUTATIONS: [u32; 512] = spread_assignments(7, 3, 9);

/// [`PERMUTATIONS`] indexed row by row (bit `3 * row + box`), the order in
/// which `pext` gathers the mini-rows.
const PERMUTATIONS_BY_ROW: [u32; 512] = spread_assignments(7, 9, 3);

/// The first cell of each of a band's nine mini-rows.
const MINI_ROW_FIRSTS: u32 = 0x124_9249;

/// How the band update finds the cells of a digit's band that fit a
/// placement: through [`mini_rows`]'s shifts on any processor, or one
/// `pext` where the processor has it; and how the copy of the update for
/// each gathers its marks.
trait PlacementFits: Copy {
    /// Whether [`Nine::clear_peers_of`] shifts its nine marks in one digit
    /// at a time. Written as nine independent shifts, the compiler gathers
    /// the nine tests in vector registers: 1 to 3% slower on Intel cores,
    /// which run the copy compiled for BMI2, and 0 to 3% faster on Zen 1,
    /// which runs the baseline copy (docs/performance.md, "The hard sets on
    /// an Intel host" and "A Zen 1 host").
    const MARKS_IN_ONE_CHAIN: bool;

    /// The cells of a band kept by [`ASSIGNMENTS`] over its mini-rows.
    fn fits(self, band: u32) -> u32;
}

/// [`PlacementFits`] on any processor.
#[derive(Clone, Copy)]
struct Shifts;

impl PlacementFits for Shifts {
    const MARKS_IN_ONE_CHAIN: bool = false;

    #[inline]
    fn fits(self, band: u32) -> u32 {
        PERMUTATIONS[mini_rows(band)]
    }
}

impl PlacementFits for BitManipulation {
    const MARKS_IN_ONE_CHAIN: bool = true;

    #[inline]
    fn fits(self, band: u32) -> u32 {
        PERMUTATIONS_BY_ROW[self.gather(band | band >> 1 | band >> 2, MINI_ROW_FIRSTS) as usize]
    }
}

/// [`ASSIGNMENTS`] for a stack's mini-columns (band x column), with the
/// columns a band keeps at bits `9 * band + column`: shifted to the stack,
/// the entries of the three stacks add up to each band's columns.
const STACK_FITS: [u32; 512] = spread_assignments(1, 9, 1);

/// The three columns of the first stack in each of three bands' nine.
const STACK_GROUPS: u32 = 7 | 7 << 9 | 7 << 18;

/// The [`STACK_FITS`] index of the stack at the low bits of `columns` (three
/// bands' columns, nine bits each): its three bits of each band, gathered by
/// one multiplication, as the three groups land on bits 12 to 20 without
/// overlapping anything else.
const fn stack_pattern(columns: u32) -> usize {
    let groups = columns & STACK_GROUPS;
    ((groups.wrapping_mul(1 << 12 | 1 << 6 | 1) >> 12) & 0x1FF) as usize
}

/// Nine bits of a row kept when exactly one is set, else 0.
#[inline]
const fn lone(row: u32) -> u32 {
    if row & row.wrapping_sub(1) == 0 { row } else { 0 }
}

/// The row and box peers of each position of a band, within the band.
const BAND_PEERS: [u32; 27] = {
    let mut table = [0; 27];
    let mut p = 0;
    while p < 27 {
        let (row, col) = (p / 9, p % 9);
        let mut mask = ROW << (9 * row);
        let mut r = 0;
        while r < 3 {
            mask |= 7 << (9 * r + 3 * (col / 3));
            r += 1;
        }
        table[p] = mask & !(1 << p);
        p += 1;
    }
    table
};

/// The three cells of each column within a band.
const COLUMN: [u32; 9] = {
    let mut table = [0; 9];
    let mut c = 0;
    while c < 9 {
        table[c] = (1 << c) | (1 << (c + 9)) | (1 << (c + 18));
        c += 1;
    }
    table
};

/// At most this many empty cells, the branch is on the first cell with the
/// fewest candidates, unscored.
const FIRST_PAIR: usize = 30;

/// At most this many empty cells, propagation skips the stack inferences:
/// that close to the leaves they almost never find anything, so they cost
/// more than they save (docs/performance.md has the counts).
const NO_STACKS: usize = 20;

/// The most empty cells a board may have for [`Nine::count_completions`]:
/// fewer than a [`Residual`] could hold, which keeps each of its branches'
/// copies small.
pub(crate) const MAX_DIRECT: usize = 48;

/// The box of each cell.
const BOX_OF: [u8; 81] = {
    let mut table = [0; 81];
    let mut cell = 0;
    while cell < 81 {
        #[expect(clippy::cast_possible_truncation, reason = "below 9")]
        {
            table[cell] = (cell / 27 * 3 + cell % 9 / 3) as u8;
        }
        cell += 1;
    }
    table
};

/// Spreads nine column bits to all three rows of a band.
const fn columns_to_band(cols: u32) -> u32 {
    cols | cols << 9 | cols << 18
}

/// Gathers a band's 27 bits into the nine columns they touch.
const fn band_to_columns(band: u32) -> u32 {
    (band | band >> 9 | band >> 18) & ROW
}

#[derive(Debug)]
pub(crate) struct Nine {
    text: [u8; 81],
    /// `cand[3 * d + b]`: the cells of band `b` where digit `d + 1` may go.
    /// A solved cell keeps the bit of its own digit and no other.
    cand: [u32; 27],
    /// The cells of each band not solved yet.
    unsolved: [u32; 3],
    /// Whether no inference is pending: true for boards that came out of
    /// propagation, false for parsed and placed ones.
    settled: bool,
    /// The empty cells when propagation last finished: kept for the
    /// questions asked of every settled board (whether to score the branch,
    /// whether to count directly), as counting costs a dozen instructions
    /// per band without a population-count instruction.
    settled_empty: u8,
}

impl Clone for Nine {
    #[inline]
    fn clone(&self) -> Nine {
        Nine { ..*self }
    }

    /// Field by field into place: the walk copies a parent's board over a
    /// spent entry's, and a copy written through a temporary (as a derived
    /// `clone` is) costs a second `memcpy` of the whole board.
    #[inline]
    fn clone_from(&mut self, source: &Nine) {
        self.text = source.text;
        self.cand = source.cand;
        self.unsolved = source.unsolved;
        self.settled = source.settled;
        self.settled_empty = source.settled_empty;
    }
}

impl Nine {
    pub(crate) fn empty() -> Nine {
        Nine { text: [EMPTY; 81], cand: [BAND; 27], unsolved: [BAND; 3], settled: false, settled_empty: 81 }
    }

    /// Whether [`Nine::count_completions`] takes this board: a propagated
    /// one with at most `threshold` empty cells.
    pub(crate) fn counts_directly(&self, threshold: usize) -> bool {
        self.settled && usize::from(self.settled_empty) <= threshold.min(MAX_DIRECT)
    }

    /// The number of completions of a board that [`Nine::counts_directly`],
    /// counting no further than `limit` (at least 1).
    // Out of line: it runs once per counted board, off the walk's hot loop.
    #[inline(never)]
    pub(crate) fn count_completions(&self, limit: usize) -> usize {
        if self.is_complete() {
            return 1;
        }
        self.residual().count(limit)
    }

    /// The empty cells as a problem of their own, with their candidates
    /// from the bands.
    fn residual(&self) -> Residual<u16, MAX_DIRECT, 9> {
        let (cand, unsolved) = (&self.cand, &self.unsolved);
        let mut index = [0u8; 81];
        let mut units = [0 as Cells; 27];
        let mut count = 0;
        let mut position = [0u8; MAX_DIRECT];
        for (b, &open) in unsolved.iter().enumerate() {
            let mut open = open;
            while open != 0 {
                let cell = 27 * b + open.trailing_zeros() as usize;
                open &= open - 1;
                let bit: Cells = 1 << count;
                units[cell / 9] |= bit;
                units[9 + cell % 9] |= bit;
                units[18 + usize::from(BOX_OF[cell])] |= bit;
                #[expect(clippy::cast_possible_truncation, reason = "below 81 and 64")]
                {
                    index[cell] = count as u8;
                    position[count] = cell as u8;
                }
                count += 1;
            }
        }
        let mut candidates = [0u16; MAX_DIRECT];
        let mut holders = [0 as Cells; 9];
        for (b, &open) in unsolved.iter().enumerate() {
            if open == 0 {
                continue;
            }
            for (d, holders) in holders.iter_mut().enumerate() {
                let mut at = cand[3 * d + b] & open;
                while at != 0 {
                    let cell = 27 * b + at.trailing_zeros() as usize;
                    at &= at - 1;
                    let k = usize::from(index[cell]);
                    candidates[k] |= 1 << d;
                    *holders |= 1 << k;
                }
            }
        }
        let mut peers = [0 as Cells; MAX_DIRECT];
        for (k, peer) in peers.iter_mut().enumerate().take(count) {
            let cell = usize::from(position[k]);
            *peer = (units[cell / 9] | units[9 + cell % 9] | units[18 + usize::from(BOX_OF[cell])]) & !(1 << k);
        }
        Residual::settled(candidates, peers, holders, count)
    }

    /// A board holding `digits[cell]` (1 to 9, or 0 for an empty cell),
    /// built in one pass over the bands rather than a digit at a time. The
    /// digits must agree with one another, as a solution's do.
    pub(crate) fn from_consistent_digits(digits: &[u8; 81]) -> Nine {
        let mut nine = Nine::empty();
        let mut givens = Givens::default();
        for (cell, &digit) in digits.iter().enumerate() {
            if digit == 0 {
                continue;
            }
            let d = usize::from(digit - 1);
            nine.text[cell] = SYMBOLS[d + 1];
            givens.add(cell, d);
        }
        givens.candidates_into(&mut nine);
        nine
    }

    /// A board holding `digits[cell]` (1 to 9, or 0 for an empty cell), as
    /// [`Nine::from_consistent_digits`], whose empty cells keep only the
    /// digits of `candidates(cell)` (digit bits).
    pub(crate) fn from_digits_within(digits: &[u8; 81], candidates: impl Fn(usize) -> u32) -> Nine {
        let mut nine = Nine::from_consistent_digits(digits);
        for (cell, _) in digits.iter().enumerate().filter(|&(_, &digit)| digit == 0) {
            let (b, p) = (cell / 27, cell % 27);
            let removed = !candidates(cell);
            for d in (0..9).filter(|&d| removed >> d & 1 != 0) {
                nine.cand[3 * d + b] &= !(1 << p);
            }
        }
        nine
    }

    /// The board of an 81-character line of digits 1 to 9 and `.`, `0` or
    /// `_` for empty cells, in one pass: `None` for any other character or
    /// two givens that clash, which the full parser then reports.
    ///
    /// Eight bytes at a time: a byte-by-byte loop branched on every cell,
    /// and where the givens lie is not predictable, so the branch missed
    /// at most of them (the loop was a tenth of `solve`'s time on 17-clue
    /// lines).
    pub(crate) fn from_line(line: &[u8; 81]) -> Option<Nine> {
        let mut nine = Nine::empty();
        let (words, last) = line.split_at(80);
        // The givens, one bit per cell, noted word by word and visited in
        // one loop after: a loop over each word's givens mispredicted its
        // exit at most words, as how many givens a word holds is random.
        let mut given: u128 = 0;
        for (w, bytes) in words.chunks_exact(8).enumerate() {
            let word = u64::from_le_bytes(bytes.try_into().ok()?);
            let digits = digit_bytes(word);
            if digits | empty_bytes(word) != HIGH_BITS {
                return None;
            }
            // The givens' bytes as they are, `.` for every other cell.
            let kept = (digits >> 7) * 0xFF;
            let text = (word & kept) | (u64::from_le_bytes([EMPTY; 8]) & !kept);
            nine.text[8 * w..8 * w + 8].copy_from_slice(&text.to_le_bytes());
            given |= u128::from(high_bits_gathered(digits)) << (8 * w);
        }
        match last[0] {
            b'.' | b'0' | b'_' => {}
            byte @ b'1'..=b'9' => {
                nine.text[80] = byte;
                given |= 1 << 80;
            }
            _ => return None,
        }
        let mut givens = Givens::default();
        while given != 0 {
            let cell = given.trailing_zeros() as usize;
            given &= given - 1;
            if givens.add(cell, usize::from(line[cell] - b'1')) {
                return None;
            }
        }
        givens.candidates_into(&mut nine);
        Some(nine)
    }

    /// Removes the digit of `bit` from the candidates of the empty `cell`,
    /// then propagates to a fixed point. The bands keep the exclusion, as
    /// they keep every candidate removed.
    pub(crate) fn exclude(&mut self, cell: usize, bit: u32) -> Result<(), Contradiction> {
        let (b, p, d) = (cell / 27, cell % 27, bit.trailing_zeros() as usize);
        if self.text[cell] != EMPTY {
            return if self.text[cell] == SYMBOLS[d + 1] { Err(Contradiction) } else { Ok(()) };
        }
        let i = 3 * d + b;
        self.cand[i] &= !(1 << p);
        let pending = if self.settled { 0 } else { ALL_PAIRS };
        self.propagate(pending | 1 << i)
    }

    /// Gives position `p` of band `b` to digit `d` within the band: the other
    /// digits lose the cell, and `d` loses the cell's row and box peers.
    fn claim(&mut self, b: usize, p: usize, d: usize) {
        for other in (0..9).filter(|&o| o != d) {
            self.cand[3 * other + b] &= !(1 << p);
        }
        self.cand[3 * d + b] &= !BAND_PEERS[p];
    }

    /// Marks the board propagated, noting its empty cells.
    #[inline]
    fn settle_here(&mut self) {
        self.settled = true;
        #[expect(clippy::cast_possible_truncation, reason = "81 at most")]
        {
            self.settled_empty = self.empty_cells() as u8;
        }
    }

    /// Runs the band inferences on every dirty digit-band pair, then naked
    /// singles, then the stack inferences, until nothing changes, and marks
    /// the board settled.
    ///
    /// Compiled twice: for BMI2 and its kin, chosen at run time, and for
    /// the baseline processor. The settling is part of it, so that its
    /// count of empty cells is a population-count instruction where the
    /// processor has one, rather than the dozens of instructions of the
    /// baseline's count.
    fn propagate(&mut self, dirty: u32) -> Result<(), Contradiction> {
        if let Some(instructions) = BitManipulation::detect() {
            instructions.run(|| self.propagate_and_settle(instructions, dirty))
        } else {
            self.propagate_and_settle(Shifts, dirty)
        }
    }

    /// [`Nine::propagate`]'s body, for each way of fitting placements.
    #[expect(clippy::inline_always, reason = "inlined into `BitManipulation::run` to be compiled for its instructions")]
    #[inline(always)]
    fn propagate_and_settle(&mut self, fits: impl PlacementFits, dirty: u32) -> Result<(), Contradiction> {
        self.propagate_with(fits, dirty)?;
        self.settle_here();
        Ok(())
    }

    /// [`Nine::propagate`] with the placements fitted by `fits`.
    #[expect(clippy::inline_always, reason = "inlined into `BitManipulation::run` to be compiled for its instructions")]
    #[inline(always)]
    fn propagate_with(&mut self, fits: impl PlacementFits, mut dirty: u32) -> Result<(), Contradiction> {
        // Digits and bands changed since their last sweep: only those can
        // hold a new single.
        let (mut touched, mut bands) = (0u32, 0u32);
        loop {
            while dirty != 0 {
                let i = dirty.trailing_zeros() as usize;
                dirty &= dirty - 1;
                touched |= 1 << (i / 3);
                bands |= 1 << (i % 3);
                self.update(fits, i, &mut dirty)?;
            }
            if self.is_complete() {
                return Ok(());
            }
            if self.naked_singles(std::mem::take(&mut bands), &mut dirty)? {
                continue;
            }
            if touched != 0 && self.empty_cells() > NO_STACKS {
                let digits = std::mem::take(&mut touched);
                if self.stacks(digits, &mut dirty)? {
                    continue;
                }
            }
            return Ok(());
        }
    }

    /// Locked candidates and hidden singles of digit `i / 3` in band `i % 3`;
    /// solves the rows left with one cell.
    #[expect(clippy::inline_always, reason = "part of `Nine::propagate_with`")]
    #[inline(always)]
    fn update<F: PlacementFits>(&mut self, fits: F, i: usize, dirty: &mut u32) -> Result<(), Contradiction> {
        let (d, b) = (i / 3, i % 3);
        let band = self.placeable(fits, i)?;
        self.cand[i] = band;
        // Rows left with one cell, each by a conditional move rather than a
        // branch: which rows are singles is unpredictable.
        let singles = lone(band & ROW) | lone((band >> 9) & ROW) << 9 | lone(band >> 18) << 18;
        let new = singles & self.unsolved[b];
        if new == 0 {
            return Ok(());
        }
        self.unsolved[b] &= !new;
        self.clear_peers_of::<F>(new, d, b, dirty);
        // The clearing took this digit-band pair's own cells too: give them back.
        self.cand[i] = band;
        *dirty &= !(1 << i);
        self.write_digit(new, d, b);
        Ok(())
    }

    /// Digit-band pair `i`'s candidates that fit a placement of the digit in
    /// the band: one cell in each row, in three different boxes. None fit is
    /// a contradiction.
    #[expect(clippy::inline_always, reason = "part of `Nine::propagate_with`")]
    #[inline(always)]
    fn placeable(&self, fits: impl PlacementFits, i: usize) -> Result<u32, Contradiction> {
        let old = self.cand[i];
        let band = old & fits.fits(old);
        if band == 0 { Err(Contradiction) } else { Ok(band) }
    }

    /// Clears the cells `new`, just solved with digit `d` in band `b`, from
    /// every digit of the band, and their columns from every band of `d`,
    /// marking in `dirty` the pairs that changed.
    ///
    /// Branch-free: the marks are gathered with constant shifts and moved
    /// into place once.
    #[expect(clippy::inline_always, reason = "part of `Nine::propagate_with`")]
    #[inline(always)]
    fn clear_peers_of<F: PlacementFits>(&mut self, new: u32, d: usize, b: usize, dirty: &mut u32) {
        let mut hit = 0;
        if F::MARKS_IN_ONE_CHAIN {
            // Highest digit first, so that each mark ends at its place.
            for other in (0..9).rev() {
                let j = 3 * other + b;
                let before = self.cand[j];
                self.cand[j] = before & !new;
                hit = hit << 3 | u32::from(before & new != 0);
            }
        } else {
            for other in 0..9 {
                let j = 3 * other + b;
                let before = self.cand[j];
                self.cand[j] = before & !new;
                hit |= u32::from(before & new != 0) << (3 * other);
            }
        }
        *dirty |= hit << b;
        let columns = columns_to_band(band_to_columns(new));
        let mut hit = 0;
        for other in 0..3 {
            let j = 3 * d + other;
            let before = self.cand[j];
            self.cand[j] = before & !columns;
            hit |= u32::from(before & columns != 0) << other;
        }
        *dirty |= hit << (3 * d);
    }

    /// Writes digit `d` into the text at the cells `new` of band `b`, at
    /// most one per row. Branch-free, as how many there are is
    /// unpredictable: a row with none rewrites its last cell as it was.
    #[expect(clippy::inline_always, reason = "part of `Nine::propagate_with`")]
    #[inline(always)]
    fn write_digit(&mut self, new: u32, d: usize, b: usize) {
        let symbol = SYMBOLS[d + 1];
        for row in 0..3 {
            let segment = (new >> (9 * row)) & ROW;
            let cell = 27 * b + 9 * row + ((segment | 1 << 8).trailing_zeros() as usize);
            let old = self.text[cell];
            self.text[cell] = if segment == 0 { old } else { symbol };
        }
    }

    /// Gives every cell with one candidate left its digit, in the bands of
    /// the mask; an unsolved cell with none is a contradiction.
    #[expect(clippy::inline_always, reason = "part of `Nine::propagate_with`")]
    #[inline(always)]
    fn naked_singles(&mut self, bands: u32, dirty: &mut u32) -> Result<bool, Contradiction> {
        let mut found = false;
        for b in 0..3 {
            // Bands outside the mask count as solved; no branch, as which
            // bands are in it is unpredictable.
            let unsolved = self.unsolved[b] & ((bands >> b) & 1).wrapping_neg();
            let (mut ones, mut twos) = (0, 0);
            for d in 0..9 {
                let band = self.cand[3 * d + b];
                twos |= ones & band;
                ones |= band;
            }
            if unsolved & !ones != 0 {
                return Err(Contradiction);
            }
            let mut singles = unsolved & !twos;
            while singles != 0 {
                let p = singles.trailing_zeros() as usize;
                singles &= singles - 1;
                // An earlier single of this sweep may have taken its digit.
                let d = (0..9).find(|&d| self.cand[3 * d + b] & (1 << p) != 0).ok_or(Contradiction)?;
                self.cand[3 * d + b] &= !BAND_PEERS[p];
                *dirty |= 1 << (3 * d + b);
                found = true;
            }
        }
        Ok(found)
    }

    /// Locked candidates along columns, for the digits in the mask: in each
    /// stack, a digit's three boxes take its three columns in some order.
    #[expect(clippy::inline_always, reason = "part of `Nine::propagate_with`")]
    #[inline(always)]
    fn stacks(&mut self, digits: u32, dirty: &mut u32) -> Result<bool, Contradiction> {
        let mut changed = false;
        let mut digits = digits;
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            // The columns of the digit's three bands side by side, nine
            // bits each: a stack's patterns are three bits of each.
            let columns = (0..3).fold(0, |acc, b| acc | band_to_columns(self.cand[3 * d + b]) << (9 * b));
            let mut allowed = 0;
            for stack in 0..3 {
                let fits = STACK_FITS[stack_pattern(columns >> (3 * stack))];
                if fits == 0 {
                    return Err(Contradiction);
                }
                allowed |= fits << (3 * stack);
            }
            for b in 0..3 {
                let j = 3 * d + b;
                let before = self.cand[j];
                let after = before & columns_to_band((allowed >> (9 * b)) & ROW);
                if after != before {
                    self.cand[j] = after;
                    *dirty |= 1 << j;
                    changed = true;
                }
            }
        }
        Ok(changed)
    }

    /// The cells with exactly two candidates, by band; or, to stop at, a
    /// cell with fewer (only unpropagated boards have one) or, near the
    /// leaves, the first pair. Counting to three is cheap, and almost every
    /// propagated board has such a cell.
    #[expect(clippy::inline_always, reason = "part of the walk's step: see `AsChildren::branch_cell`")]
    #[inline(always)]
    fn pairs(&self, near_leaves: bool) -> ControlFlow<usize, [u32; 3]> {
        let mut pairs = [0u32; 3];
        for (b, pair) in pairs.iter_mut().enumerate() {
            let unsolved = self.unsolved[b];
            if unsolved == 0 {
                continue;
            }
            let (mut ones, mut twos, mut threes) = (0, 0, 0);
            for d in 0..9 {
                let band = self.cand[3 * d + b];
                threes |= twos & band;
                twos |= ones & band;
                ones |= band;
            }
            let at_most_one = unsolved & !twos;
            if at_most_one != 0 {
                return ControlFlow::Break(27 * b + at_most_one.trailing_zeros() as usize);
            }
            *pair = unsolved & !threes;
            if near_leaves && *pair != 0 {
                return ControlFlow::Break(27 * b + pair.trailing_zeros() as usize);
            }
        }
        ControlFlow::Continue(pairs)
    }

    /// Of the cells given by band, the first with the most unsolved cells
    /// in its row and box.
    fn most_open(&self, cells: &[u32; 3], failures: impl Fn(usize) -> u32) -> usize {
        self.most_open_inlined(cells, failures)
    }

    /// [`Nine::most_open`], always inlined: into the count's walk, compiled
    /// for [`BitManipulation`]. Forced into every walk, the first solution's
    /// walk ran slower (see `walk_in_place`).
    #[expect(clippy::inline_always, reason = "see the comment above")]
    #[inline(always)]
    fn most_open_inlined(&self, cells: &[u32; 3], failures: impl Fn(usize) -> u32) -> usize {
        let mut best = (0, 0);
        for (b, &cells) in cells.iter().enumerate() {
            if cells == 0 {
                continue;
            }
            let open = open_in_row_and_box(self.unsolved[b]);
            let mut cells = cells;
            while cells != 0 {
                let p = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                let score = open_at(open, p) + 1 + failures(27 * b + p);
                if score > best.1 {
                    best = (27 * b + p, score);
                }
            }
        }
        best.0
    }

    /// [`Engine::assign_and_propagate`] through the band propagation alone.
    fn assign_by_propagation(&mut self, cell: usize, bit: u32) -> Result<(), Contradiction> {
        let (b, p, d) = (cell / 27, cell % 27, bit.trailing_zeros() as usize);
        // Only the digit's own band changes here: with its row and box peers
        // gone, the cell is the one place left in its row, and the band
        // update solves it like any hidden single (clearing the other digits
        // and the column there, once).
        let i = 3 * d + b;
        self.cand[i] &= !BAND_PEERS[p];
        let pending = if self.settled { 0 } else { ALL_PAIRS };
        self.propagate(pending | 1 << i)
    }

    /// Gives `cell` the digit of `bit` on a settled board with four empty
    /// cells, and the other three the digits that follow, without
    /// propagating.
    ///
    /// Such a board is a rectangle: a row, column or box with one empty
    /// cell would have given it a single, so the four cells take two rows
    /// and two columns, and each holds the two digits its row lacks, the
    /// same two as its column lacks. Its box holds a second cell of the
    /// rectangle in the same row or column (one box holding all four would
    /// need a digit twice, which the band update rules out), so both ways
    /// of filling it are solutions. The cell's row and column partners take
    /// the other digit, its opposite corner the same one. Writing them is
    /// a few instructions where propagation took hundreds, and on
    /// `data/million.txt` 44% of the solutions are such children
    /// (docs/performance.md, "Rectangles completed without propagation").
    fn complete_rectangle(&mut self, cell: usize, bit: u32) {
        debug_assert_eq!(self.empty_cells(), 4, "a settled rectangle");
        let other = self.candidate_bits(cell) & !bit;
        debug_assert!(other.is_power_of_two(), "a rectangle's cells have two candidates");
        let (row, column) = (cell / 9, cell % 9);
        for b in 0..3 {
            let mut empty = self.unsolved[b];
            while empty != 0 {
                let p = empty.trailing_zeros() as usize;
                empty &= empty - 1;
                let corner = 27 * b + p;
                let (digit, lost) =
                    if (corner / 9 == row) == (corner % 9 == column) { (bit, other) } else { (other, bit) };
                self.text[corner] = SYMBOLS[digit.trailing_zeros() as usize + 1];
                self.cand[3 * lost.trailing_zeros() as usize + b] &= !(1 << p);
            }
        }
        self.unsolved = [0; 3];
        self.settled_empty = 0;
    }

    /// Turns this board into its last child, given `first`, its other
    /// child, where that is cheaper than propagating: a settled board with
    /// six empty cells ([`Nine::complement_of`]). `false` leaves it
    /// unchanged.
    #[inline]
    pub(crate) fn become_other_child(&mut self, first: &Nine) -> bool {
        if !(self.settled && self.settled_empty == 6 && first.is_complete()) {
            return false;
        }
        self.complement_of(first);
        true
    }

    /// Turns a settled board with six empty cells, each with two
    /// candidates, into the child for one of them, given `first`, the
    /// complete child for the other: each empty cell takes the candidate
    /// `first` does not give it.
    ///
    /// A settled board's rows, columns and boxes with an empty cell hold two
    /// or more (one alone would be a single), so six empty cells lie in two
    /// rows and three columns, three rows and two columns, or a cycle
    /// through three rows and three columns with two cells in each.
    /// - In a cycle, each cell's two candidates are those its row lacks,
    ///   and those its column lacks; going round, every cell has the same
    ///   two, and the two fillings alternate them, each the other's
    ///   complement. Two cells of a box with different rows and columns
    ///   take the same digit in both fillings or in neither, and `first`
    ///   is one filling with no clash.
    /// - Two rows and three columns: each column's two cells hold the two
    ///   digits it lacks, three pairs of the three digits both rows lack,
    ///   and each row takes one digit of each pair, all different: two
    ///   ways, each the other's complement. A box holding cells of two
    ///   columns holds four empty cells with three digits between them,
    ///   one short of what it lacks, which propagation would have found:
    ///   so no box holds two cells that are not in one column.
    ///   (Three rows and two columns alike.)
    ///
    /// So the complement of `first` is a solution, and the only one the
    /// other child has. Propagation reaches it too, each cell forced in
    /// turn by a naked single, for several times the work
    /// (docs/performance.md, "Enumeration: the second child of six empty
    /// cells"); a unit test compares the two boards field by field.
    fn complement_of(&mut self, first: &Nine) {
        for (i, cand) in self.cand.iter_mut().enumerate() {
            let open = self.unsolved[i % 3];
            let band = *cand & !(first.cand[i] & open);
            *cand = band;
            let mut solved = band & open;
            while solved != 0 {
                let p = solved.trailing_zeros() as usize;
                solved &= solved - 1;
                self.text[27 * (i % 3) + p] = SYMBOLS[i / 3 + 1];
            }
        }
        self.unsolved = [0; 3];
        self.settled_empty = 0;
    }

    /// The unsolved cells with the fewest candidates, by band, or `None`
    /// when every cell is solved.
    // Called from one place. Left to itself, the compiler stopped inlining
    // it once the branch choice took a score for failed guesses, and on its
    // own the function moved its masks through vector registers and the
    // stack: 17-clue counts ran 5% slower with no more instructions.
    #[expect(clippy::inline_always, reason = "measured: see the comment above")]
    #[inline(always)]
    fn fewest_candidates(&self) -> Option<[u32; 3]> {
        let mut fewest = [0u32; 3];
        let mut count = usize::MAX;
        for b in 0..3 {
            // at_least[k]: cells of the band with k or more candidates.
            let mut at_least = [0u32; 11];
            at_least[0] = BAND;
            for d in 0..9 {
                let band = self.cand[3 * d + b];
                for k in (1..=d + 1).rev() {
                    at_least[k] |= at_least[k - 1] & band;
                }
            }
            for k in 0..=count.min(9) {
                let exactly = self.unsolved[b] & at_least[k] & !at_least[k + 1];
                if exactly != 0 {
                    if k < count {
                        count = k;
                        fewest = [0; 3];
                    }
                    fewest[b] = exactly;
                    break;
                }
            }
        }
        (count != usize::MAX).then_some(fewest)
    }
}

impl Engine for Nine {
    fn count_directly(&self, threshold: usize, limit: usize) -> Option<usize> {
        self.counts_directly(threshold).then(|| self.count_completions(limit))
    }

    fn shape(&self) -> Shape {
        Shape::NINE
    }

    fn text(&self) -> &[u8] {
        &self.text
    }

    /// Digit bits (bit `d - 1` for digit `d`) of the candidates of `cell`;
    /// the digit's own bit for a solved cell.
    #[inline]
    fn candidate_bits(&self, cell: usize) -> u32 {
        let (b, p) = (cell / 27, cell % 27);
        let mut bits = 0;
        for d in 0..9 {
            bits |= ((self.cand[3 * d + b] >> p) & 1) << d;
        }
        bits
    }

    fn is_settled(&self) -> bool {
        self.settled
    }

    fn is_complete(&self) -> bool {
        self.unsolved == [0; 3]
    }

    fn empty_cells(&self) -> usize {
        // Two counts rather than three: without a population-count
        // instruction at the baseline target, each is a dozen instructions.
        let [first, second, third] = self.unsolved;
        ((u64::from(first) | u64::from(second) << 27).count_ones() + third.count_ones()) as usize
    }

    /// Writes a given into an empty cell and removes its digit from the
    /// peers, with no further inference. The caller has checked the rules.
    fn put(&mut self, cell: usize, bit: u32) {
        let (b, p, d) = (cell / 27, cell % 27, bit.trailing_zeros() as usize);
        self.text[cell] = SYMBOLS[d + 1];
        self.unsolved[b] &= !(1 << p);
        self.claim(b, p, d);
        for band in (0..3).filter(|&o| o != b) {
            self.cand[3 * d + band] &= !COLUMN[p % 9];
        }
        self.settled = false;
    }

    /// Gives `cell` the digit of `bit`, one of its candidates, and propagates
    /// to a fixed point.
    fn assign_and_propagate(&mut self, cell: usize, bit: u32) -> Result<(), Contradiction> {
        let (b, p, d) = (cell / 27, cell % 27, bit.trailing_zeros() as usize);
        if self.settled && self.settled_empty == 4 && self.unsolved[b] & self.cand[3 * d + b] & (1 << p) != 0 {
            self.complete_rectangle(cell, bit);
            return Ok(());
        }
        self.assign_by_propagation(cell, bit)
    }

    /// Propagates everything pending on the board.
    fn propagate_all(&mut self) -> Result<(), Contradiction> {
        self.propagate(ALL_PAIRS)
    }

    /// The cell to branch on and its candidates, or `None` when complete.
    ///
    /// Called on propagated boards, where every empty cell has two
    /// candidates or more (a cell with fewer, which only an unpropagated
    /// board has, is returned if its band is counted). The cells with the
    /// fewest candidates (two, almost always), and among those the first with
    /// the most unsolved cells in its row and box, where a guess has the most
    /// to propagate to. On the hardest datasets that choice makes a third
    /// fewer guesses than taking the first such cell; counting the column
    /// too made slightly more. With
    /// [`FIRST_PAIR`] empty cells or fewer, the first such cell is taken:
    /// near the leaves the order matters little and scoring costs more than
    /// it saves.
    #[expect(clippy::inline_always, reason = "part of the walk's step: see `AsChildren::branch_cell`")]
    #[inline(always)]
    fn branch_cell(&self) -> Option<(usize, u32)> {
        self.branch_cell_scored::<false>(|_| 0)
    }
}

impl Nine {
    /// [`Engine::branch_cell`], with each guess that failed at once in a
    /// cell ([`FailedGuesses`]) scored as one more unsolved cell in its row
    /// and box.
    #[expect(clippy::inline_always, reason = "part of the count's walk, compiled for `BitManipulation` there")]
    #[inline(always)]
    pub(crate) fn branch_cell_after_failures(&self, failures: &FailedGuesses) -> Option<(usize, u32)> {
        self.branch_cell_scored::<true>(|cell| failures.at(cell))
    }

    /// [`Engine::branch_cell`], with `failures` of each cell added to its
    /// score above [`FIRST_PAIR`] empty cells.
    #[expect(clippy::inline_always, reason = "part of the walk's step: see `AsChildren::branch_cell`")]
    #[inline(always)]
    fn branch_cell_scored<const INLINED: bool>(&self, failures: impl Fn(usize) -> u32) -> Option<(usize, u32)> {
        // Near the leaves the order matters little: the first cell with two
        // candidates is taken, and the bands after it are not counted.
        let near_leaves = usize::from(self.settled_empty) <= FIRST_PAIR;
        let cell = match self.pairs(near_leaves) {
            ControlFlow::Break(cell) => cell,
            ControlFlow::Continue(pairs) => {
                let fewest = if pairs == [0; 3] { self.fewest_candidates()? } else { pairs };
                if near_leaves {
                    first_cell(&fewest)?
                } else if INLINED {
                    self.most_open_inlined(&fewest, failures)
                } else {
                    self.most_open(&fewest, failures)
                }
            }
        };
        Some((cell, self.candidate_bits(cell)))
    }
}

/// How many guesses in each cell of a 9x9 board failed at once (their
/// propagation met a contradiction), over one walk of a search tree.
///
/// A count branches on such a cell again: a guess that fails at once
/// leaves one real child, so the branch costs a propagation rather than a
/// split, and a digit that fails in one subtree tends to fail in the next
/// where the search branched elsewhere first. Scoring each failure as one
/// more unsolved cell in the cell's row and box took the decisions of
/// the whole depth-first tree, counting to 2, from 94.7 to 82.3 a puzzle
/// on the first 3,000 of forum hardest 11+ and from 159.8 to 131.3 on 1106
/// (docs/performance.md).
pub(crate) struct FailedGuesses {
    counts: [u32; 81],
}

impl FailedGuesses {
    pub(crate) fn new() -> FailedGuesses {
        FailedGuesses { counts: [0; 81] }
    }

    /// Notes a guess at `cell` that failed at once. Cells past the 81st,
    /// of other shapes' boards, which branch as they always do, are not
    /// noted.
    #[inline]
    pub(crate) fn failed(&mut self, cell: usize) {
        if let Some(count) = self.counts.get_mut(cell) {
            *count = count.saturating_add(1);
        }
    }

    #[inline]
    fn at(&self, cell: usize) -> u32 {
        self.counts[cell]
    }
}

/// The givens of a board gathered band by band, to build its candidates at
/// once: each band's candidates for a digit are its cells minus the filled
/// ones and the rows, boxes and columns of the digit's givens, with those
/// givens given back, which is what placing them one by one leaves when
/// no two clash.
#[derive(Default)]
struct Givens {
    filled: [u32; 3],
    /// Where each digit is given, by digit and band.
    held: [u32; 27],
    /// The row and box peers of those cells, by digit and band.
    peers: [u32; 27],
    /// The columns of each digit's givens, as a band's cells.
    columns: [u32; 9],
}

impl Givens {
    /// Notes the digit of index `d` at `cell`: whether it clashes with a
    /// given noted before (the same digit in its row, box or column).
    #[inline]
    fn add(&mut self, cell: usize, d: usize) -> bool {
        let (b, p) = (cell / 27, cell % 27);
        let i = 3 * d + b;
        let clash = (self.peers[i] | self.columns[d]) >> p & 1 != 0;
        self.filled[b] |= 1 << p;
        self.held[i] |= 1 << p;
        self.peers[i] |= BAND_PEERS[p];
        self.columns[d] |= COLUMN[p % 9];
        clash
    }

    /// The candidates and unsolved cells these givens leave, into `nine`.
    fn candidates_into(&self, nine: &mut Nine) {
        let open = self.filled.map(|filled| BAND & !filled);
        // By digit, then band: an index split by division cost a
        // multiplication at each of the 27 words.
        for (d, (cands, &columns)) in nine.cand.chunks_exact_mut(3).zip(&self.columns).enumerate() {
            for (b, cand) in cands.iter_mut().enumerate() {
                let i = 3 * d + b;
                *cand = (open[b] & !self.peers[i] & !columns) | self.held[i];
            }
        }
        nine.unsolved = open;
    }
}

/// The high bit of each byte of a word.
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
/// The low seven bits of each byte of a word.
const LOW_SEVEN: u64 = 0x7F7F_7F7F_7F7F_7F7F;

/// `byte` in every byte of a word.
const fn every_byte(byte: u8) -> u64 {
    0x0101_0101_0101_0101 * byte as u64
}

/// The high bit of each byte of `word` that is `byte`, with no carry from
/// one byte to the next (the low seven bits are added apart).
const fn bytes_equal(word: u64, byte: u8) -> u64 {
    let x = word ^ every_byte(byte);
    !(((x & LOW_SEVEN) + LOW_SEVEN) | x) & HIGH_BITS
}

/// The high bit of each byte of `word` that is a digit `1` to `9`: an ASCII
/// byte at least `1` and below `:`, each bound tested by whether adding to
/// its low seven bits reaches the high bit.
const fn digit_bytes(word: u64) -> u64 {
    let low = word & LOW_SEVEN;
    let from_one = low + every_byte(0x80 - b'1');
    let from_colon = low + every_byte(0x80 - b':');
    from_one & !from_colon & !word & HIGH_BITS
}

/// The high bits of the eight bytes of `bits` (no other bit set) as the
/// eight bits of a byte, the first byte's lowest: moved down to bit `8i`,
/// byte `i`'s bit meets the multiplier's bit `7(8 - i)` at bit `56 + i`,
/// and no two of the partial products share a bit, so nothing carries.
const fn high_bits_gathered(bits: u64) -> u8 {
    ((bits >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// The high bit of each byte of `word` that stands for an empty cell on
/// a line: `.`, `0` or `_`.
const fn empty_bytes(word: u64) -> u64 {
    bytes_equal(word, b'.') | bytes_equal(word, b'0') | bytes_equal(word, b'_')
}

/// The first of the cells given by band.
fn first_cell(cells: &[u32; 3]) -> Option<usize> {
    let b = cells.iter().position(|&cells| cells != 0)?;
    Some(27 * b + cells[b].trailing_zeros() as usize)
}

/// The mini-row (`3 * row + box`) of each position of a band.
const MINI_ROW: [u8; 27] = {
    let mut table = [0; 27];
    let mut p = 0;
    while p < 27 {
        #[expect(clippy::cast_possible_truncation, reason = "below 9")]
        {
            table[p] = (3 * (p / 9) + p % 9 / 3) as u8;
        }
        p += 1;
    }
    table
};

/// For a row's nine cells: the cells in each of its three mini-rows, at
/// nibbles 0 to 2, and in the whole row, at nibble 3.
const ROW_COUNTS: [u16; 512] = {
    let mut table = [0; 512];
    let mut row = 0;
    while row < 512 {
        let mut x = 0;
        while x < 3 {
            #[expect(clippy::cast_possible_truncation, reason = "three bits at most")]
            let mini = ((row as u32 >> (3 * x)) & 7).count_ones() as u16;
            table[row] += mini << (4 * x) | mini << 12;
            x += 1;
        }
        row += 1;
    }
    table
};

/// For each mini-row of a band, the cells of `unsolved` in its row and its
/// box, the mini-row they share counted once, one nibble each (mini-row
/// `3 * row + box` at nibble `3 * row + box`): a branch cell's score is one
/// shift.
fn open_in_row_and_box(unsolved: u32) -> u64 {
    let rows = [0, 1, 2].map(|r| u64::from(ROW_COUNTS[((unsolved >> (9 * r)) & ROW) as usize]));
    // Nibble x: the cells of box x, nine at most.
    let boxes = (rows[0] + rows[1] + rows[2]) & 0xFFF;
    // Nibble x of row r: its row count less its mini-row (no borrow, as the
    // row holds the mini-row), plus the box (fifteen at most).
    let open = rows.map(|counts| ((counts >> 12) * 0x111 - (counts & 0xFFF)) + boxes);
    open[0] | open[1] << 12 | open[2] << 24
}

/// The count of [`open_in_row_and_box`] for position `p` of the band.
fn open_at(open: u64, p: usize) -> u32 {
    ((open >> (4 * MINI_ROW[p])) & 0xF) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A xorshift step: arbitrary masks, the same on every run.
    fn next_noise(state: &mut u32) -> u32 {
        *state ^= *state << 13;
        *state ^= *state >> 17;
        *state ^= *state << 5;
        *state
    }

    /// [`Shifts`] with the marks of [`BitManipulation`]'s copy, so that
    /// both ways of marking are compared on every processor.
    #[derive(Clone, Copy)]
    struct ShiftsMarkedInOneChain;

    impl PlacementFits for ShiftsMarkedInOneChain {
        const MARKS_IN_ONE_CHAIN: bool = true;

        fn fits(self, band: u32) -> u32 {
            Shifts.fits(band)
        }
    }

    /// Propagation through `pext` and through shifts, and with the marks
    /// of either copy, reaches the same board from every start: the hard
    /// puzzles' first lines, parsed, and each with every candidate of its
    /// branch cell assigned. On a processor without the instructions the
    /// `pext` copy does not run, and the shifts' two ways of marking are
    /// still compared.
    #[test]
    fn propagation_is_the_same_whichever_way_placements_are_fitted() {
        let text = include_str!("../../data/puzzles5_forum_hardest_1905_11+");
        let mut compared = 0;
        for line in text.lines().filter(|l| !l.starts_with('#')).take(300) {
            let bytes: &[u8; 81] = line.as_bytes()[..81].try_into().expect("81 cells");
            let start = Nine::from_line(bytes).expect("a puzzle");
            let both = |board: &Nine, dirty: u32| {
                let mut shifted = board.clone();
                let by_shifts = shifted.propagate_with(Shifts, dirty).map(|()| shifted);
                let same = |other: Result<Nine, Contradiction>| {
                    assert_eq!(by_shifts.as_ref().map(fields).ok(), other.as_ref().map(fields).ok(), "{line}");
                };
                let mut chained = board.clone();
                same(chained.propagate_with(ShiftsMarkedInOneChain, dirty).map(|()| chained));
                if let Some(instructions) = BitManipulation::detect() {
                    let mut gathered = board.clone();
                    same(instructions.run(|| gathered.propagate_with(instructions, dirty)).map(|()| gathered));
                }
                by_shifts
            };
            let settled = both(&start, ALL_PAIRS).expect("the puzzles have solutions");
            compared += 1;
            let Some((cell, bits)) = settled.branch_cell() else { continue };
            let (b, p) = (cell / 27, cell % 27);
            let mut bits = bits;
            while bits != 0 {
                let d = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let mut guess = settled.clone();
                guess.cand[3 * d + b] &= !BAND_PEERS[p];
                let _ = both(&guess, 1 << (3 * d + b));
                compared += 1;
            }
        }
        assert!(compared > 600, "{compared} propagations compared");
    }

    /// The first `limit` settled boards with `empty` empty cells met by
    /// depth-first searches of `data/million.txt`'s puzzle and of 11+'s
    /// first puzzles with every third clue taken away (puzzles of many
    /// solutions), each with its start.
    fn settled_boards_with(empty: u8, limit: usize) -> Vec<(String, Nine)> {
        let mut starts = vec![
            include_str!("../../data/million.txt").lines().find(|l| !l.starts_with('#')).expect("a puzzle").to_owned(),
        ];
        let hard = include_str!("../../data/puzzles5_forum_hardest_1905_11+");
        for line in hard.lines().filter(|l| !l.starts_with('#')).take(40) {
            let mut cut = line.as_bytes()[..81].to_vec();
            let mut clues = 0;
            for byte in &mut cut {
                if byte.is_ascii_digit() && *byte != b'0' {
                    clues += 1;
                    if clues % 3 == 0 {
                        *byte = b'.';
                    }
                }
            }
            starts.push(String::from_utf8(cut).expect("ASCII"));
        }
        let mut found = Vec::new();
        for start in &starts {
            let bytes: &[u8; 81] = start.as_bytes()[..81].try_into().expect("81 cells");
            let mut root = Nine::from_line(bytes).expect("a puzzle");
            root.propagate_all().expect("the puzzles have solutions");
            let (mut stack, mut met) = (vec![root], 0);
            while let Some(board) = stack.pop() {
                if met == limit {
                    break;
                }
                if board.settled_empty == empty {
                    met += 1;
                    found.push((start.clone(), board));
                    continue;
                }
                let Some((cell, mut bits)) = board.branch_cell() else { continue };
                while bits != 0 {
                    let bit = bits & bits.wrapping_neg();
                    bits ^= bit;
                    let mut child = board.clone();
                    if child.assign_by_propagation(cell, bit).is_ok() {
                        stack.push(child);
                    }
                }
            }
        }
        found
    }

    /// The fields of a board.
    fn fields(board: &Nine) -> ([u8; 81], [u32; 27], [u32; 3], bool, u8) {
        (board.text, board.cand, board.unsolved, board.settled, board.settled_empty)
    }

    /// The empty cells of a board, each with its candidates as digit bits,
    /// one bit at a time.
    fn choices(board: &Nine) -> Vec<(usize, u32)> {
        let mut choices = Vec::new();
        for cell in (0..81).filter(|&c| board.text[c] == EMPTY) {
            let mut bits = board.candidate_bits(cell);
            while bits != 0 {
                let bit = bits & bits.wrapping_neg();
                bits ^= bit;
                choices.push((cell, bit));
            }
        }
        choices
    }

    /// A settled board with four empty cells is completed by writing its
    /// rectangle exactly as propagation completes it, for every empty cell
    /// and each of its candidates.
    #[test]
    fn rectangles_complete_as_propagation_completes_them() {
        let mut compared = 0;
        for (start, board) in settled_boards_with(4, 200) {
            for (cell, bit) in choices(&board) {
                assert_eq!(board.candidate_bits(cell).count_ones(), 2, "{start}: cell {cell} of a rectangle");
                let (mut written, mut propagated) = (board.clone(), board.clone());
                written.assign_and_propagate(cell, bit).expect("both ways are solutions");
                propagated.assign_by_propagation(cell, bit).expect("both ways are solutions");
                assert_eq!(fields(&written), fields(&propagated), "{start}: cell {cell}, digit bit {bit}");
                assert_eq!((propagated.settled, propagated.settled_empty), (true, 0), "{start}");
                compared += 1;
            }
        }
        assert!(compared > 8 * 1000, "{compared} rectangle children compared");
    }

    /// On a settled board with six empty cells, each has two candidates,
    /// and the child for one of them is the complement of the child for the
    /// other, as propagation builds it, whenever that first child is
    /// complete: for every empty cell and each of its candidates.
    #[test]
    fn second_children_of_six_empty_cells_are_the_first_ones_complements() {
        let (mut compared, mut incomplete) = (0, 0);
        for (start, board) in settled_boards_with(6, 300) {
            for (cell, bit) in choices(&board) {
                let bits = board.candidate_bits(cell);
                assert_eq!(bits.count_ones(), 2, "{start}: cell {cell} of six");
                let mut first = board.clone();
                first.assign_by_propagation(cell, bits & !bit).expect("a settled board's candidate");
                let mut propagated = board.clone();
                let second = propagated.assign_by_propagation(cell, bit);
                let mut written = board.clone();
                if !first.is_complete() {
                    incomplete += 1;
                    assert!(!written.become_other_child(&first), "{start}");
                    assert_eq!(fields(&written), fields(&board), "{start}: left as it was");
                    continue;
                }
                second.expect("the complement is a solution");
                assert!(written.become_other_child(&first), "{start}");
                assert_eq!(fields(&written), fields(&propagated), "{start}: cell {cell}, digit bit {bit}");
                assert_eq!((propagated.settled, propagated.settled_empty), (true, 0), "{start}");
                compared += 1;
            }
        }
        assert!(compared > 10 * 1000, "{compared} second children compared, {incomplete} first ones incomplete");
        // A board with other than six empty cells is left to propagation.
        let (_, four) = settled_boards_with(4, 1).pop().expect("a rectangle");
        let (cell, bit) = choices(&four)[0];
        let mut first = four.clone();
        first.assign_by_propagation(cell, bit).expect("a rectangle's corner");
        let mut other = four.clone();
        assert!(!other.become_other_child(&first));
        assert_eq!(fields(&other), fields(&four));
    }

    /// The multiplication gathers the same nine bits as shifting each band's
    /// three columns into place, whatever the other columns hold.
    #[test]
    fn stack_pattern_gathers_three_columns_of_each_band() {
        let mut noise = 0x2545_F491_u32;
        for stack in 0..3 {
            for pattern in 0..512u32 {
                // The other columns take arbitrary values.
                let mut columns = next_noise(&mut noise) & 0x7FF_FFFF;
                for band in 0..3 {
                    let shift = 9 * band + 3 * stack;
                    columns = columns & !(7 << shift) | ((pattern >> (3 * band)) & 7) << shift;
                }
                assert_eq!(
                    stack_pattern(columns >> (3 * stack)),
                    pattern as usize,
                    "stack {stack}, columns {columns:#x}"
                );
            }
        }
    }

    /// Each band keeps, in each stack, the columns some assignment gives it.
    #[test]
    fn stack_fits_spread_the_assignments_by_band() {
        for pattern in 0..512 {
            for band in 0..3 {
                let kept = (STACK_FITS[pattern] >> (9 * band)) & 7;
                assert_eq!(kept, (ASSIGNMENTS[pattern] >> (3 * band)) & 7, "pattern {pattern:#o}, band {band}");
            }
            assert_eq!(STACK_FITS[pattern] & !STACK_GROUPS, 0, "pattern {pattern:#o} spills out of its stack");
        }
    }

    /// The permutation mask keeps exactly the cells of the mini-rows that
    /// some one-to-one assignment of rows to boxes uses, and the singles are
    /// the rows with one cell: both checked cell by cell against the rows
    /// and boxes.
    #[test]
    fn band_masks_match_assignments_and_rows_cell_by_cell() {
        let mut noise = 0x85EB_CA6B_u32;
        for _ in 0..5000 {
            let band = next_noise(&mut noise) & next_noise(&mut noise) & BAND;
            let mini_row = |row: usize, b: usize| (band >> (9 * row + 3 * b)) & 7 != 0;
            let fitting: Vec<_> = ORDERS.iter().filter(|o| (0..3).all(|row| mini_row(row, o[row]))).collect();
            let mut expected = 0;
            for order in &fitting {
                for (row, &b) in order.iter().enumerate() {
                    expected |= 7 << (9 * row + 3 * b);
                }
            }
            assert_eq!(band & Shifts.fits(band), band & expected, "band {band:#x}");
            if let Some(instructions) = BitManipulation::detect() {
                assert_eq!(band & instructions.fits(band), band & expected, "pext, band {band:#x}");
            }
            for row in 0..3 {
                let cells = (band >> (9 * row)) & ROW;
                let single = if cells.is_power_of_two() { cells } else { 0 };
                assert_eq!(lone(cells), single, "row {row} of band {band:#x}");
            }
        }
    }

    /// The counts match a cell-by-cell count of the unsolved cells that share
    /// the row or the box, for every position of the band.
    #[test]
    fn open_cells_counted_by_row_and_box() {
        let mut noise = 0x9E37_79B9_u32;
        for _ in 0..2000 {
            let unsolved = next_noise(&mut noise) & BAND;
            let open = open_in_row_and_box(unsolved);
            for p in 0..27 {
                let (row, col) = (p / 9, p % 9);
                let expected =
                    (0..27).filter(|&o| (o / 9 == row || o % 9 / 3 == col / 3) && unsolved & (1 << o) != 0).count();
                assert_eq!(open_at(open, p) as usize, expected, "position {p}, unsolved {unsolved:#x}");
            }
        }
    }

    /// Building a board from consistent digits in one pass leaves the same
    /// bands as placing the digits one at a time, for subsets of grids.
    #[test]
    fn digits_at_once_match_digits_one_by_one() {
        let grid = b"417369825632158947958724316825437169791586432346912758289643571573291684164875293";
        let mut noise = 0x1234_5678_u32;
        for _ in 0..500 {
            let mut digits = [0u8; 81];
            let mut one_by_one = Nine::empty();
            for (cell, &byte) in grid.iter().enumerate() {
                if next_noise(&mut noise) % 3 != 0 {
                    digits[cell] = byte - b'0';
                    one_by_one.put(cell, 1 << (byte - b'1'));
                }
            }
            let at_once = Nine::from_consistent_digits(&digits);
            assert_eq!(at_once.text, one_by_one.text);
            assert_eq!(at_once.cand, one_by_one.cand);
            assert_eq!(at_once.unsolved, one_by_one.unsolved);
            assert_eq!(at_once.settled, one_by_one.settled);
        }
    }

    /// A line read eight bytes at a time gives the board that placing its
    /// givens one cell at a time gives, and is refused for the same lines:
    /// any byte but a digit or `.`, `0` and `_` (bytes next to those, and
    /// with the high bit set, above all), and givens that clash.
    #[test]
    fn lines_read_by_words_match_lines_read_by_cells() {
        let grid = b"417369825632158947958724316825437169791586432346912758289643571573291684164875293";
        let near = [b'/', b':', b'-', b'^', b'`', b'1' | 0x80, b'.' | 0x80, b'0' | 0x80, b'9' | 0x80, 0, 0xFF, b' '];
        let mut noise = 0x0bad_5eed_u32;
        let (mut read, mut refused) = (0, 0);
        for round in 0..20_000 {
            let mut line = *grid;
            for byte in &mut line {
                match next_noise(&mut noise) % 8 {
                    0..=2 => {}
                    3 | 4 => *byte = b'.',
                    5 => *byte = b'0',
                    _ => *byte = b'_',
                }
            }
            // A stray byte, or a digit moved where it may clash.
            let at = next_noise(&mut noise) as usize % 81;
            match round % 4 {
                0 => line[at] = near[next_noise(&mut noise) as usize % near.len()],
                1 => line[at] = b'1' + (next_noise(&mut noise) % 9) as u8,
                _ => {}
            }
            let mut expected = Some(Nine::empty());
            let mut placed = [0u8; 81];
            for (cell, &byte) in line.iter().enumerate() {
                let Some(nine) = expected.as_mut() else { break };
                match byte {
                    b'.' | b'0' | b'_' => {}
                    b'1'..=b'9' => {
                        let clash = (0..cell).any(|other| {
                            placed[other] == byte
                                && (other / 9 == cell / 9 || other % 9 == cell % 9 || BOX_OF[other] == BOX_OF[cell])
                        });
                        if clash {
                            expected = None;
                        } else {
                            placed[cell] = byte;
                            nine.put(cell, 1 << (byte - b'1'));
                        }
                    }
                    _ => expected = None,
                }
            }
            let found = Nine::from_line(&line);
            let line_text = String::from_utf8_lossy(&line);
            match (found, expected) {
                (Some(found), Some(expected)) => {
                    assert_eq!(found.text, expected.text, "{line_text}");
                    assert_eq!(found.cand, expected.cand, "{line_text}");
                    assert_eq!(found.unsolved, expected.unsolved, "{line_text}");
                    read += 1;
                }
                (None, None) => refused += 1,
                (found, expected) => {
                    panic!("{line_text}: read {}, expected {}", found.is_some(), expected.is_some());
                }
            }
        }
        assert!(read > 5_000 && refused > 5_000, "both kinds of line were tried: {read} read, {refused} refused");
    }
}
