//! Full house, naked single and hidden single: the steps that place a digit
//! by looking at one cell or one region.

use super::Step;
use super::grid::Grid;

pub(super) fn full_house(grid: &Grid) -> Option<Step> {
    grid.units_missing_one().find_map(|unit| {
        let placed = grid.placed(unit);
        let cell = grid.unit(unit).find(|&c| grid.values[c] == 0)?;
        let missing = grid.geometry().full & !placed;
        // Anything else is a contradiction, which the caller reports.
        let digit = single(missing & grid.candidates[cell])?;
        Some(Step::full_house(grid, cell, digit, unit))
    })
}

pub(super) fn naked_single(grid: &Grid) -> Option<Step> {
    grid.first_with_one_candidate().and_then(|cell| {
        let digit = single(grid.candidates[cell])?;
        Some(Step::naked_single(grid, cell, digit))
    })
}

pub(super) fn hidden_single(grid: &Grid) -> Option<Step> {
    grid.scan_order().iter().find_map(|&unit| {
        let singles = grid.one_place(unit);
        (singles != 0).then(|| {
            let digit = u8::try_from(singles.trailing_zeros() + 1).unwrap_or(0);
            let places = grid.place_mask(unit, digit);
            let cell = grid.geometry().unit_cell(unit, places.trailing_zeros() as usize);
            Step::hidden_single(grid, cell, digit, unit)
        })
    })
}

/// The digit of a set of one.
pub(super) fn single(bits: u32) -> Option<u8> {
    bits.is_power_of_two().then(|| u8::try_from(bits.trailing_zeros() + 1).unwrap_or(0))
}
