//! Deductions that hold because the puzzle has one solution: a pattern that
//! would let two digits trade places in every solution cannot be left.

use super::grid::{Grid, digits, symbol, symbols};
use super::singles::single;
use super::{Step, Technique};
use smallvec::smallvec;

/// Whether the digits of `corners` (top left, top right, bottom left,
/// bottom right) could trade places without breaking a region: every
/// region holds none of them, all four, or one side of the rectangle.
fn could_trade(grid: &Grid, corners: [usize; 4]) -> bool {
    let sides = [0b0011, 0b1100, 0b0101, 0b1010, 0b1111];
    corners.iter().flat_map(|&c| grid.units_of(c)).all(|unit| {
        let held = corners
            .iter()
            .enumerate()
            .filter(|&(_, &c)| grid.unit(unit).any(|u| u == c))
            .fold(0, |m, (i, _)| m | 1 << i);
        sides.contains(&held)
    })
}

/// Unique rectangle, type 1: three corners of a rectangle over two rows,
/// two columns and two boxes hold only the same two candidates. If the
/// fourth took either, all four would hold only those two, and the two
/// digits could trade places for a second solution; so the fourth loses
/// both.
pub(super) fn rectangle(grid: &Grid) -> Option<Step> {
    let side = grid.side;
    let cells = grid.candidates.len();
    (0..cells).filter(|&c| grid.count(c) == 2).find_map(|corner| {
        let pair = grid.candidates[corner];
        let (row, col) = (corner / side, corner % side);
        let across = (0..side).filter(|&c| c != col).map(|c| row * side + c).filter(|&c| grid.candidates[c] == pair);
        across.collect::<Vec<_>>().into_iter().find_map(|beside| {
            (0..side).filter(|&r| r != row).map(|r| r * side + col).filter(|&c| grid.candidates[c] == pair).find_map(|below| {
                let fourth = (below / side) * side + beside % side;
                if grid.count(fourth) <= 2 || grid.candidates[fourth] & pair != pair {
                    return None;
                }
                let corners = [corner, beside, below, fourth];
                // In row-major order: top left, top right, bottom left, bottom right.
                let mut sorted = corners;
                sorted.sort_unstable();
                if !could_trade(grid, sorted) {
                    return None;
                }
                let eliminations: Vec<(usize, u8)> = digits(pair).map(|d| (fourth, d)).collect();
                let sentence = format!(
                    "{}: {}, {} and {} hold only {}; if {} took either, all four corners would hold only those two, which could trade places for a second solution; so {} leave {}.",
                    Technique::UniqueRectangle,
                    grid.cell_name(corner),
                    grid.cell_name(beside),
                    grid.cell_name(below),
                    symbols(pair),
                    grid.cell_name(fourth),
                    symbols(pair),
                    grid.cell_name(fourth)
                );
                Some(Step::new(Technique::UniqueRectangle, corners.to_vec(), digits(pair).collect(), Vec::new(), eliminations, sentence))
            })
        })
    })
}

/// Bivalue universal grave plus one: every empty cell has two candidates
/// but one, which has three, and every digit has two places in each region
/// but one digit, which has three in that cell's regions. Without that
/// digit, the cell would leave a grave, where taking the other candidate
/// of every cell gives a second solution; so the cell holds it.
pub(super) fn bug_plus_one(grid: &Grid) -> Option<Step> {
    let mut odd = None;
    for cell in 0..grid.candidates.len() {
        match grid.count(cell) {
            0 | 2 => {}
            3 if odd.is_none() => odd = Some(cell),
            _ => return None,
        }
    }
    let cell = odd?;
    let units: Vec<usize> = grid.units_of(cell).collect();
    let first = *units.first()?;
    let digit = single(
        digits(grid.candidates[cell])
            .filter(|&d| grid.place_mask(first, d).count_ones() == 3)
            .fold(0, |m, d| m | 1 << (d - 1)),
    )?;
    let grave = (0..grid.unit_count()).all(|unit| {
        digits(grid.geometry().full).all(|d| {
            let count = grid.place_mask(unit, d).count_ones();
            let expected = if d == digit && units.contains(&unit) { 3 } else { 2 };
            count == 0 || count == expected
        })
    });
    if !grave {
        return None;
    }
    let sentence = format!(
        "{}: every empty cell but {} has two candidates, and {} has three places in its regions; without {} there, taking the other candidate of every cell would give a second solution, so {} is {}.",
        Technique::BugPlusOne,
        grid.cell_name(cell),
        symbol(digit),
        symbol(digit),
        grid.cell_name(cell),
        symbol(digit)
    );
    Some(Step::new(Technique::BugPlusOne, vec![cell], smallvec![digit], vec![(cell, digit)], Vec::new(), sentence))
}
