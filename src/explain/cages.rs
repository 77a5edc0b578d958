//! Killer cages: each cage's cells keep only the digits that some way of
//! making its sum, with distinct digits, can put there.

use super::grid::{Grid, digits, symbol};
use super::{Step, Technique};

/// Past this many combinations a cage is left to the other techniques:
/// the candidates of a large cage with a middling sum say little anyway.
const MOST_COMBINATIONS: usize = 2000;

/// Up to this many empty cells, each combination is matched to the cells'
/// candidates; beyond, a cell keeps every digit of the combinations, as
/// the matchings grow factorially.
const MOST_CELLS_MATCHED: usize = 6;

pub(super) fn combinations(grid: &Grid) -> Option<Step> {
    grid.geometry().cages.iter().find_map(|cage| {
        if cage.combinations.len() > MOST_COMBINATIONS {
            return None;
        }
        let cells: Vec<usize> = cage.cells.iter().map(|&c| usize::from(c)).collect();
        let placed = cells.iter().filter(|&&c| grid.values[c] != 0).fold(0u32, |m, &c| m | 1 << (grid.values[c] - 1));
        let empty: Vec<usize> = cells.iter().copied().filter(|&c| grid.values[c] == 0).collect();
        // The digits each empty cell takes in some way of filling the cage.
        let mut possible = vec![0u32; empty.len()];
        for &combination in cage.combinations.iter().filter(|&&m| m & placed == placed) {
            if empty.len() <= MOST_CELLS_MATCHED {
                fill(grid, &empty, combination & !placed, 0, &mut Vec::new(), &mut possible);
            } else {
                for p in &mut possible {
                    *p |= combination & !placed;
                }
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
        let sentence = format!(
            "{}: the cage of {} summing to {} can only hold {} in these cells, so {} come out.",
            Technique::CageCombination,
            grid.cell_names(&cells),
            cage.sum,
            super::grid::list(empty.iter().zip(&possible).map(|(&c, &keep)| format!(
                "{} in {}",
                super::grid::symbols(keep),
                grid.cell_name(c)
            ))),
            super::grid::list(eliminations.iter().map(|&(c, d)| format!("{} from {}", symbol(d), grid.cell_name(c))))
        );
        let pattern_digits = digits(possible.iter().fold(0, |m, p| m | p)).collect();
        Some(Step::new(Technique::CageCombination, cells, pattern_digits, Vec::new(), eliminations, sentence))
    })
}

/// Every way to give the empty cells from `at` on the digits of `left`,
/// one each, within their candidates; what each cell takes is added to
/// `possible`.
fn fill(grid: &Grid, empty: &[usize], left: u32, at: usize, taken: &mut Vec<u8>, possible: &mut [u32]) {
    let Some(&cell) = empty.get(at) else {
        if left == 0 {
            for (slot, &digit) in possible.iter_mut().zip(taken.iter()) {
                *slot |= 1 << (digit - 1);
            }
        }
        return;
    };
    for digit in digits(left & grid.candidates[cell]) {
        taken.push(digit);
        fill(grid, empty, left & !(1 << (digit - 1)), at + 1, taken, possible);
        taken.pop();
    }
}
