//! Counting the completions of a nearly solved 9x9 board cell by cell.
//!
//! With few empty cells left, the band machinery costs more than the
//! problem: a board with a few dozen empty cells is a small constraint
//! problem over those cells alone. Every solved cell's digit is already gone from
//! the candidates of its peers, so a completion is exactly a choice of one
//! candidate per empty cell with no two empty peers alike. [`Residual`]
//! counts those choices with naked singles and backtracking, keeping one
//! 16-bit candidate mask per empty cell, the mask of each cell's empty
//! peers, and for each digit the mask of the cells that still have it (so
//! that placing a digit touches only the peers that lose it); nothing is
//! written back to a board.

/// At most this many empty cells, a board's completions are counted
/// directly. The masks over the empty cells are `u64`.
pub(super) const MAX_CELLS: usize = 48;

/// A set of empty cells, by their index among the empty cells.
type Cells = u64;

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

/// The empty cells of a board as a constraint problem of their own.
pub(super) struct Residual {
    /// The candidates of each empty cell, bit `d` for digit `d + 1`.
    candidates: [u16; MAX_CELLS],
    /// For each empty cell, the other empty cells in its row, column or box.
    peers: [Cells; MAX_CELLS],
    /// For each digit, the empty cells that have it as a candidate.
    holders: [Cells; 9],
    /// All the empty cells.
    cells: Cells,
}

impl Residual {
    /// The problem over the empty cells of `unsolved` (by band) whose
    /// candidates `cand` holds by digit and band, as [`super::Nine`] keeps
    /// them. At most [`MAX_CELLS`] cells may be empty.
    pub(super) fn new(cand: &[u32; 27], unsolved: &[u32; 3]) -> Residual {
        let mut index = [0u8; 81];
        let mut units = [0 as Cells; 27];
        let mut cells = 0;
        let mut count = 0;
        let mut position = [0u8; MAX_CELLS];
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
                cells |= bit;
                count += 1;
            }
        }
        let mut candidates = [0u16; MAX_CELLS];
        let mut holders = [0 as Cells; 9];
        for (b, &open) in unsolved.iter().enumerate() {
            if open == 0 {
                continue;
            }
            for d in 0..9 {
                let mut at = cand[3 * d + b] & open;
                while at != 0 {
                    let cell = 27 * b + at.trailing_zeros() as usize;
                    at &= at - 1;
                    let k = usize::from(index[cell]);
                    candidates[k] |= 1 << d;
                    holders[d] |= 1 << k;
                }
            }
        }
        let mut peers = [0 as Cells; MAX_CELLS];
        for (k, peer) in peers.iter_mut().enumerate().take(count) {
            let cell = usize::from(position[k]);
            *peer = (units[cell / 9] | units[9 + cell % 9] | units[18 + usize::from(BOX_OF[cell])]) & !(1 << k);
        }
        Residual { candidates, peers, holders, cells }
    }

    /// The number of completions, counting no further than `limit` (at
    /// least 1).
    pub(super) fn count(&self, limit: usize) -> usize {
        // A propagated board has no cell with one candidate or none; were
        // there one, the branch would take it first (one choice, or none).
        let (mut candidates, mut holders) = (self.candidates, self.holders);
        self.search(&mut candidates, &mut holders, self.cells, 0, limit)
    }

    /// Places the `forced` cells, then branches on an open cell with the
    /// fewest candidates. `holders` may still list, for other digits, cells
    /// narrowed to one candidate; only open cells are looked at. Recursion
    /// depth is at most one per empty cell.
    fn search(
        &self,
        candidates: &mut [u16; MAX_CELLS],
        holders: &mut [Cells; 9],
        mut open: Cells,
        mut forced: Cells,
        limit: usize,
    ) -> usize {
        while forced != 0 {
            let k = forced.trailing_zeros() as usize;
            forced &= forced - 1;
            let digit = candidates[k];
            if digit == 0 {
                return 0;
            }
            open &= !(1 << k);
            // Only the open peers that still have the digit change.
            let d = digit.trailing_zeros() as usize;
            let mut hit = self.peers[k] & open & holders[d];
            holders[d] &= !hit;
            while hit != 0 {
                let j = hit.trailing_zeros() as usize;
                hit &= hit - 1;
                let left = candidates[j] & !digit;
                candidates[j] = left;
                if left & left.wrapping_sub(1) == 0 {
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
        while choices != 0 {
            let digit = choices & choices.wrapping_neg();
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
fn fewest(candidates: &[u16; MAX_CELLS], open: Cells) -> usize {
    let mut rest = open;
    while rest != 0 {
        let k = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let beyond_first = candidates[k] & candidates[k].wrapping_sub(1);
        if beyond_first & beyond_first.wrapping_sub(1) == 0 {
            return k;
        }
    }
    let mut best = (open.trailing_zeros() as usize, u32::MAX);
    let mut rest = open;
    while rest != 0 {
        let k = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let n = candidates[k].count_ones();
        if n < best.1 {
            best = (k, n);
        }
    }
    best.0
}
