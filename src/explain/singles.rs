//! Full house, naked single and hidden single: the steps that place a digit
//! by looking at one cell or one region.

use super::grid::{Grid, symbol};
use super::{Step, Technique};

pub(super) fn full_house(grid: &Grid) -> Option<Step> {
    let one_left = grid.side - 1;
    (0..grid.unit_count()).find_map(|unit| {
        let placed = grid.placed(unit);
        if placed.count_ones() as usize != one_left {
            return None;
        }
        let cell = grid.unit(unit).find(|&c| grid.values[c] == 0)?;
        let missing = grid.geometry().full & !placed;
        // Anything else is a contradiction, which the caller reports.
        let digit = single(missing & grid.candidates[cell])?;
        let sentence = format!(
            "{}: {} is the last empty cell of {}, so it is {}.",
            Technique::FullHouse,
            grid.cell_name(cell),
            grid.unit_name(unit),
            symbol(digit)
        );
        Some(Step::new(Technique::FullHouse, vec![cell], vec![digit], vec![(cell, digit)], Vec::new(), sentence))
    })
}

pub(super) fn naked_single(grid: &Grid) -> Option<Step> {
    (0..grid.candidates.len()).find_map(|cell| {
        let digit = single(grid.candidates[cell])?;
        let sentence =
            format!("{}: {} has one candidate left, {}.", Technique::NakedSingle, grid.cell_name(cell), symbol(digit));
        Some(Step::new(Technique::NakedSingle, vec![cell], vec![digit], vec![(cell, digit)], Vec::new(), sentence))
    })
}

pub(super) fn hidden_single(grid: &Grid) -> Option<Step> {
    grid.scan_order().iter().find_map(|&unit| {
        (1..=u8::try_from(grid.side).unwrap_or(0)).find_map(|digit| {
            let places = grid.place_mask(unit, digit);
            if !places.is_power_of_two() {
                return None;
            }
            let cell = grid.geometry().unit_cell(unit, places.trailing_zeros() as usize);
            let sentence = format!(
                "{}: in {}, {} fits only in {}.",
                Technique::HiddenSingle,
                grid.unit_name(unit),
                symbol(digit),
                grid.cell_name(cell)
            );
            Some(Step::new(Technique::HiddenSingle, vec![cell], vec![digit], vec![(cell, digit)], Vec::new(), sentence))
        })
    })
}

/// The digit of a set of one.
pub(super) fn single(bits: u32) -> Option<u8> {
    bits.is_power_of_two().then(|| u8::try_from(bits.trailing_zeros() + 1).unwrap_or(0))
}
