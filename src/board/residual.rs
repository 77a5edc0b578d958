//! Counting the completions of a nearly solved board cell by cell.
//!
//! With few empty cells left, an engine's machinery costs more than the
//! problem: a board with a few dozen empty cells is a small constraint
//! problem over those cells alone. Every solved cell's digit is already gone
//! from the candidates of its peers, so a completion is exactly a choice of
//! one candidate per empty cell with no two empty peers alike. [`Residual`]
//! counts those choices with naked singles and backtracking, keeping one
//! candidate mask per empty cell, the mask of each cell's empty peers, and
//! for each digit the mask of the cells that still have it (so that placing
//! a digit touches only the peers that lose it); nothing is written back to
//! a board. Killer cages are beyond it: their sums are not peers.

use std::ops::{BitAnd, BitOrAssign, BitXorAssign, Not};

/// A set of empty cells, by their index among the empty cells.
pub(crate) type Cells = u64;

/// The most empty cells a [`Residual`] can hold: one bit each in [`Cells`].
pub(crate) const MAX_CELLS: usize = 64;

/// A cell's candidates: bit `d` for digit `d + 1`. The 9x9 engine and
/// boards up to 16x16 keep them in 16 bits, which halves what each branch
/// copies; larger boards need 32.
pub(crate) trait DigitMask:
    Copy + Eq + BitAnd<Output = Self> + BitOrAssign + BitXorAssign + Not<Output = Self>
{
    const ZERO: Self;
    /// The mask of a digit set of the board, which must fit.
    fn from_bits(bits: u32) -> Self;
    /// The mask with its lowest bit cleared.
    fn without_lowest(self) -> Self;
    fn lowest(self) -> Self;
    fn lowest_digit(self) -> usize;
    fn len(self) -> u32;
}

macro_rules! digit_mask {
    ($t:ty) => {
        impl DigitMask for $t {
            const ZERO: $t = 0;
            #[inline]
            #[allow(clippy::cast_possible_truncation, reason = "the caller picks a type its digits fit")]
            fn from_bits(bits: u32) -> $t {
                bits as $t
            }
            #[inline]
            fn without_lowest(self) -> $t {
                self & self.wrapping_sub(1)
            }
            #[inline]
            fn lowest(self) -> $t {
                self & self.wrapping_neg()
            }
            #[inline]
            fn lowest_digit(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline]
            fn len(self) -> u32 {
                self.count_ones()
            }
        }
    };
}

digit_mask!(u16);
digit_mask!(u32);

/// The empty cells of a board as a constraint problem of their own: at
/// most `CELLS` cells (no more than [`MAX_CELLS`]) and `DIGITS` digits.
pub(crate) struct Residual<M, const CELLS: usize, const DIGITS: usize> {
    /// The candidates of each empty cell.
    candidates: [M; CELLS],
    /// For each empty cell, the other empty cells that share a region with it.
    peers: [Cells; CELLS],
    /// For each digit, the empty cells that have it as a candidate.
    holders: [Cells; DIGITS],
    /// All the empty cells.
    cells: Cells,
    /// The empty cells with one candidate, to place before any branch.
    forced: Cells,
}

impl<M: DigitMask, const CELLS: usize, const DIGITS: usize> Residual<M, CELLS, DIGITS> {
    /// The problem over `count` empty cells with these candidates and empty
    /// peers (entries past `count` unused).
    pub(crate) fn new(candidates: [M; CELLS], peers: [Cells; CELLS], count: usize) -> Self {
        let mut holders = [0; DIGITS];
        let mut forced = 0;
        for (k, &mask) in candidates.iter().enumerate().take(count) {
            // Cells with one candidate (a settled board has none, but one
            // may be given) are placed first.
            if mask.without_lowest() == M::ZERO {
                forced |= 1 << k;
            }
            let mut rest = mask;
            while rest != M::ZERO {
                holders[rest.lowest_digit()] |= 1 << k;
                rest = rest.without_lowest();
            }
        }
        Self::from_parts(candidates, peers, holders, count, forced)
    }

    /// The same from a board settled by propagation, which has no empty
    /// cell with fewer than two candidates, with the cells holding each
    /// digit already gathered: the 9x9 engine builds them in the same pass
    /// as the candidates, which saves a second pass over every cell at
    /// each direct count.
    pub(crate) fn settled(
        candidates: [M; CELLS],
        peers: [Cells; CELLS],
        holders: [Cells; DIGITS],
        count: usize,
    ) -> Self {
        debug_assert!(
            candidates.iter().take(count).all(|&mask| mask.without_lowest() != M::ZERO),
            "a settled board's empty cells have two candidates or more"
        );
        Self::from_parts(candidates, peers, holders, count, 0)
    }

    fn from_parts(
        candidates: [M; CELLS],
        peers: [Cells; CELLS],
        holders: [Cells; DIGITS],
        count: usize,
        forced: Cells,
    ) -> Self {
        const { assert!(CELLS <= MAX_CELLS, "one bit per cell") };
        let cells = if count == 64 { Cells::MAX } else { (1 << count) - 1 };
        Residual { candidates, peers, holders, cells, forced }
    }

    /// The number of completions, counting no further than `limit` (at
    /// least 1).
    pub(crate) fn count(&self, limit: usize) -> usize {
        let (mut candidates, mut holders) = (self.candidates, self.holders);
        self.search(&mut candidates, &mut holders, self.cells, self.forced, limit)
    }

    /// Places the `forced` cells, then branches on an open cell with the
    /// fewest candidates. `holders` may still list, for other digits, cells
    /// narrowed to one candidate; only open cells are looked at. Recursion
    /// depth is at most one per empty cell.
    fn search(
        &self,
        candidates: &mut [M; CELLS],
        holders: &mut [Cells; DIGITS],
        mut open: Cells,
        mut forced: Cells,
        limit: usize,
    ) -> usize {
        while forced != 0 {
            let k = forced.trailing_zeros() as usize;
            forced &= forced - 1;
            let digit = candidates[k];
            if digit == M::ZERO {
                return 0;
            }
            open &= !(1 << k);
            // Only the open peers that still have the digit change.
            let d = digit.lowest_digit();
            let mut hit = self.peers[k] & open & holders[d];
            holders[d] &= !hit;
            while hit != 0 {
                let j = hit.trailing_zeros() as usize;
                hit &= hit - 1;
                let left = candidates[j] & !digit;
                candidates[j] = left;
                if left.without_lowest() == M::ZERO {
                    forced |= 1 << j;
                }
            }
        }
        if open == 0 {
            return 1;
        }
        let k = fewest(candidates, open);
        let mut choices = candidates[k];
        let mut total = 0;
        while choices != M::ZERO {
            let digit = choices.lowest();
            choices ^= digit;
            let (mut branch, mut branch_holders) = (*candidates, *holders);
            branch[k] = digit;
            total += self.search(&mut branch, &mut branch_holders, open, 1 << k, limit - total);
            if total >= limit {
                break;
            }
        }
        total
    }
}

/// The open cell with the fewest candidates: the first with two or fewer
/// if any, found without counting.
fn fewest<M: DigitMask>(candidates: &[M], open: Cells) -> usize {
    let mut rest = open;
    while rest != 0 {
        let k = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        if candidates[k].without_lowest().without_lowest() == M::ZERO {
            return k;
        }
    }
    let mut best = (open.trailing_zeros() as usize, u32::MAX);
    let mut rest = open;
    while rest != 0 {
        let k = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let n = candidates[k].len();
        if n < best.1 {
            best = (k, n);
        }
    }
    best.0
}
