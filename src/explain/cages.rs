//! Killer cages: each cage's cells keep only the digits that some way of
//! making its sum, with distinct digits, can put there.

use itertools::Itertools;

use super::grid::{Grid, digits, symbols};
use super::{Step, Technique};
use crate::board::{Cage, bits64};

/// Past this many combinations a cage is left to the other techniques:
/// the candidates of a large cage with a middling sum say little anyway.
const MOST_COMBINATIONS: usize = 2000;

/// Up to this many empty cells, each combination is matched to the cells'
/// candidates; beyond, a cell keeps every digit of the combinations. The
/// matching goes through the subsets of the combination's digits, as bits
/// of one `u64`: 2 to the 6th of them.
const MOST_CELLS_MATCHED: usize = 6;

pub(super) fn combinations(grid: &Grid) -> Option<Step> {
    grid.geometry().cages.iter().enumerate().find_map(|(slot, cage)| {
        let narrowed = narrow(grid, cage, slot)?;
        let sentence = format!(
            "{}: the cage of {} summing to {} can only hold {}, so {}.",
            Technique::CageCombination,
            grid.cell_names(&narrowed.cells),
            cage.sum,
            narrowed.kept(grid),
            narrowed.removed(grid)
        );
        Some(narrowed.step(Technique::CageCombination, sentence))
    })
}

/// The sums that cages imply through units (the rule of 45 on 9x9), each
/// narrowed as a cage: a unit holds every digit once, so the cells of a
/// unit outside the cages wholly inside it (innies) add up to the unit's
/// total less those cages' sums, and the cells of the cages covering a
/// unit that lie outside it (outies) add up to their sums less the total.
pub(super) fn innies_and_outies(grid: &Grid) -> Option<Step> {
    let geometry = grid.geometry();
    let total = grid.side * (grid.side + 1) / 2;
    geometry.implied.iter().enumerate().find_map(|(k, implied)| {
        let narrowed = narrow(grid, &implied.cage, geometry.cages.len() + k)?;
        let unit = grid.unit_name(implied.unit);
        let from: usize = implied.cages.iter().map(|&i| geometry.cages[i].sum).sum();
        let why = if implied.outies {
            format!(
                "the cages covering {unit} add up to {from}, {} more than the {total} of its digits, so their cells outside it, {}, add up to {}",
                implied.cage.sum,
                grid.cell_names(&narrowed.cells),
                implied.cage.sum
            )
        } else {
            format!(
                "the digits of {unit} add up to {total} and the cages wholly inside it to {from}, so its other cells, {}, add up to {}",
                grid.cell_names(&narrowed.cells),
                implied.cage.sum
            )
        };
        let sentence = format!(
            "{}: {why} and can only hold {}, so {}.",
            Technique::InniesAndOuties,
            narrowed.kept(grid),
            narrowed.removed(grid)
        );
        Some(narrowed.step(Technique::InniesAndOuties, sentence))
    })
}

/// A cage's cells narrowed to the digits of its combinations.
struct Narrowed {
    cells: Vec<usize>,
    empty: Vec<usize>,
    /// The digits each empty cell can take, in the order of `empty`.
    possible: Vec<u32>,
    eliminations: Vec<(usize, u8)>,
}

impl Narrowed {
    /// "1 and 2 in r1c1 and r1c2; 3 in r2c1": what the empty cells keep,
    /// the cells that keep the same digits named together.
    fn kept(&self, grid: &Grid) -> String {
        by_digits(self.empty.iter().copied().zip(self.possible.iter().copied()))
            .iter()
            .map(|(digits, cells)| format!("{} in {}", symbols(*digits), grid.cell_names(cells)))
            .join("; ")
    }

    /// "3 and 4 come out of r1c1 and r1c2; 4 comes out of r2c1": the
    /// eliminations, the cells that lose the same digits named together.
    fn removed(&self, grid: &Grid) -> String {
        // What each cell loses, as `narrow` found the eliminations.
        let lost = self
            .empty
            .iter()
            .zip(&self.possible)
            .map(|(&c, &keep)| (c, grid.candidates[c] & !keep))
            .filter(|&(_, lost)| lost != 0);
        by_digits(lost)
            .iter()
            .map(|(digits, cells)| {
                let verb = if digits.is_power_of_two() { "comes" } else { "come" };
                format!("{} {verb} out of {}", symbols(*digits), grid.cell_names(cells))
            })
            .join("; ")
    }

    fn step(self, technique: Technique, sentence: String) -> Step {
        let pattern_digits = digits(self.possible.iter().fold(0, |m, p| m | p)).collect();
        Step::new(technique, self.cells, pattern_digits, Vec::new(), self.eliminations, sentence)
    }
}

/// Cells with their digits, gathered by digits: the cells with the same
/// digits together, in the order they first come.
fn by_digits(cells: impl Iterator<Item = (usize, u32)>) -> Vec<(u32, Vec<usize>)> {
    let mut groups: Vec<(u32, Vec<usize>)> = Vec::new();
    for (cell, digits) in cells {
        match groups.iter_mut().find(|(d, _)| *d == digits) {
            Some((_, cells)) => cells.push(cell),
            None => groups.push((digits, vec![cell])),
        }
    }
    groups
}

/// The digits that some way of filling `cage` with distinct digits that
/// make its sum, holding the digits already placed there, can put in each
/// empty cell; `None` when that removes no candidate, or when the cage has
/// too many combinations to be worth it.
fn narrow(grid: &Grid, cage: &Cage, slot: usize) -> Option<Narrowed> {
    if cage.combinations.len() > MOST_COMBINATIONS {
        return None;
    }
    if grid.quiet_cage(slot, &cage.cells) {
        return None;
    }
    let narrowed = narrow_cells(grid, cage);
    if narrowed.is_none() {
        grid.note_quiet_cage(slot, &cage.cells);
    }
    narrowed
}

/// [`narrow`] without the look at what it found before.
fn narrow_cells(grid: &Grid, cage: &Cage) -> Option<Narrowed> {
    let cells: Vec<usize> = cage.cells.iter().map(|&c| usize::from(c)).collect();
    let placed = cells.iter().filter(|&&c| grid.values[c] != 0).fold(0u32, |m, &c| m | 1 << (grid.values[c] - 1));
    let empty: Vec<usize> = cells.iter().copied().filter(|&c| grid.values[c] == 0).collect();
    let mut possible = vec![0u32; empty.len()];
    let candidates: Vec<u32> = empty.iter().map(|&c| grid.candidates[c]).collect();
    let open = candidates.iter().fold(0, |m, &c| m | c);
    for &combination in cage.combinations.iter().filter(|&&m| m & placed == placed) {
        let rest = combination & !placed;
        if empty.len() <= MOST_CELLS_MATCHED {
            // A combination with a digit no empty cell can take, or that
            // leaves a cell no digit of it, has no matching.
            if rest & !open == 0 && candidates.iter().all(|&c| c & rest != 0) {
                matched(&candidates, rest, &mut possible);
            }
        } else {
            for p in &mut possible {
                *p |= rest;
            }
        }
        // Most cages narrow nothing: once every candidate has been found a
        // place, the other combinations cannot remove one.
        if candidates.iter().zip(&possible).all(|(&c, &p)| c & !p == 0) {
            return None;
        }
    }
    let eliminations: Vec<(usize, u8)> = empty
        .iter()
        .zip(&possible)
        .flat_map(|(&c, &keep)| digits(grid.candidates[c] & !keep).map(move |d| (c, d)))
        .collect();
    if eliminations.is_empty() {
        return None;
    }
    Some(Narrowed { cells, empty, possible, eliminations })
}

/// The digits that each cell takes in some way of giving the digits of
/// `left` to the cells, one each, within the cells' `candidates` (at most
/// [`MOST_CELLS_MATCHED`] cells): added to `possible`, in the cells' order.
///
/// Enumerating the ways took 81% of the time of making hard killer
/// puzzles (a cage of six cells has up to 720 for each combination).
/// Instead, with the digits of `left` numbered 0 to `n - 1` and a set of
/// them a subset index below `2^n`: `ahead[j]` holds the sets that the
/// first `j` cells can take, `behind[j]` those that the cells from `j` on
/// can, each as one bit per set. Cell `j` can take digit `k` when a set
/// `s` of `ahead[j]` lacks it and `behind[j + 1]` holds the rest, every
/// digit not in `s` but `k`.
fn matched(candidates: &[u32], left: u32, possible: &mut [u32]) {
    let cells = candidates.len();
    if left.count_ones() as usize != cells || cells > MOST_CELLS_MATCHED {
        return;
    }
    let mut numbered = [0u32; MOST_CELLS_MATCHED];
    let mut rest = left;
    for slot in numbered.iter_mut().take(cells) {
        *slot = rest & rest.wrapping_neg();
        rest &= rest - 1;
    }
    // Each cell's candidates among the digits of `left`, by their numbers.
    let mut local = [0usize; MOST_CELLS_MATCHED];
    for (slot, &cands) in local.iter_mut().zip(candidates) {
        *slot = (0..cells).filter(|&k| numbered[k] & cands != 0).fold(0, |m, k| m | 1 << k);
    }
    // The digits of a set `s` left to one more cell, one at a time.
    let adding = |s: usize, open: usize| bits64((open & !s) as u64);
    let extend = |sets: u64, open: usize| {
        bits64(sets).fold(0u64, |next, s| adding(s, open).fold(next, |next, k| next | 1 << (s | 1 << k)))
    };
    let mut ahead = [0u64; MOST_CELLS_MATCHED + 1];
    ahead[0] = 1;
    for j in 0..cells {
        ahead[j + 1] = extend(ahead[j], local[j]);
    }
    let mut behind = [0u64; MOST_CELLS_MATCHED + 1];
    behind[cells] = 1;
    for j in (0..cells).rev() {
        behind[j] = extend(behind[j + 1], local[j]);
    }
    let all = (1 << cells) - 1;
    for j in 0..cells {
        for s in bits64(ahead[j]) {
            for k in adding(s, local[j]) {
                if behind[j + 1] >> (all ^ s ^ 1 << k) & 1 == 1 {
                    possible[j] |= numbered[k];
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::SplitMix64;

    /// Every way to give `left`'s digits to the cells, one each, within
    /// their candidates, enumerated one by one.
    fn enumerated(candidates: &[u32], left: u32, possible: &mut [u32], taken: &mut Vec<u32>) {
        let Some(&cands) = candidates.get(taken.len()) else {
            if left == 0 {
                for (slot, &digit) in possible.iter_mut().zip(taken.iter()) {
                    *slot |= digit;
                }
            }
            return;
        };
        let mut open = left & cands;
        while open != 0 {
            let digit = open & open.wrapping_neg();
            open &= open - 1;
            taken.push(digit);
            enumerated(candidates, left & !digit, possible, taken);
            taken.pop();
        }
    }

    fn random_word(random: &mut SplitMix64) -> u32 {
        u32::try_from(random.next_u64() >> 32).expect("32 bits")
    }

    #[test]
    fn matching_by_subsets_agrees_with_every_way_enumerated() {
        let mut random = SplitMix64::new(7);
        let mut kept = 0;
        for _ in 0..20_000 {
            let cells = 1 + random.below(MOST_CELLS_MATCHED);
            // Digits of a 16x16 board; now and then one too many or few.
            let digits = (cells + random.below(8)).saturating_sub(3).clamp(1, 16);
            let mut left = 0u32;
            while left.count_ones() < u32::try_from(digits).unwrap() {
                left |= 1 << random.below(16);
            }
            let candidates: Vec<u32> =
                (0..cells).map(|_| random_word(&mut random) & 0xFFFF | left & random_word(&mut random)).collect();
            let (mut fast, mut slow) = (vec![0; cells], vec![0; cells]);
            matched(&candidates, left, &mut fast);
            enumerated(&candidates, left, &mut slow, &mut Vec::new());
            assert_eq!(fast, slow, "{candidates:?} {left:b}");
            kept += usize::from(slow.iter().any(|&p| p != 0));
        }
        // Thousands of draws have ways at all: not a comparison of zeros.
        assert!(kept > 2_000, "{kept}");
    }
}
