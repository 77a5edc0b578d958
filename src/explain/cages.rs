//! Killer cages: each cage's cells keep only the digits that some way of
//! making its sum, with distinct digits, can put there.

use itertools::Itertools;

use super::grid::{Grid, digits, symbols};
use super::{Step, Technique};
use crate::board::Cage;

/// Past this many combinations a cage is left to the other techniques:
/// the candidates of a large cage with a middling sum say little anyway.
const MOST_COMBINATIONS: usize = 2000;

/// Up to this many empty cells, each combination is matched to the cells'
/// candidates; beyond, a cell keeps every digit of the combinations, as
/// the matchings grow factorially.
const MOST_CELLS_MATCHED: usize = 6;

pub(super) fn combinations(grid: &Grid) -> Option<Step> {
    grid.geometry().cages.iter().find_map(|cage| {
        let narrowed = narrow(grid, cage)?;
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
    geometry.implied.iter().find_map(|implied| {
        let narrowed = narrow(grid, &implied.cage)?;
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
fn narrow(grid: &Grid, cage: &Cage) -> Option<Narrowed> {
    if cage.combinations.len() > MOST_COMBINATIONS {
        return None;
    }
    let cells: Vec<usize> = cage.cells.iter().map(|&c| usize::from(c)).collect();
    let placed = cells.iter().filter(|&&c| grid.values[c] != 0).fold(0u32, |m, &c| m | 1 << (grid.values[c] - 1));
    let empty: Vec<usize> = cells.iter().copied().filter(|&c| grid.values[c] == 0).collect();
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
    Some(Narrowed { cells, empty, possible, eliminations })
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
