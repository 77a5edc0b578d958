//! Locked candidates: a digit confined, within one region, to the cells it
//! shares with another region cannot go in the rest of that other region.

use crate::Region;
use smallvec::smallvec;

use super::grid::{Grid, symbol};
use super::{Step, Technique};

/// Pointing (from a box or other region into a line) or, with `claiming`,
/// claiming (from a row or column into a box or other region), for the
/// digits of `digits`.
pub(super) fn locked(grid: &Grid, claiming: bool, digits: u32) -> Option<Step> {
    let technique = if claiming { Technique::Claiming } else { Technique::Pointing };
    let is_line = |unit: usize| matches!(grid.kind(unit), Region::Row | Region::Column);
    (0..grid.unit_count()).filter(|&u| is_line(u) == claiming).find_map(|unit| {
        super::grid::digits(digits & grid.geometry().full).find_map(|digit| {
            let mask = grid.place_mask(unit, digit);
            if mask.count_ones() < 2 {
                return None;
            }
            grid.geometry().meetings(unit).iter().find_map(|meeting| {
                let other = usize::from(meeting.other);
                // Every place inside the other region, and some of the
                // other region's places outside this one.
                if mask & !meeting.shared != 0 || grid.place_mask(other, digit) & !meeting.other_shared == 0 {
                    return None;
                }
                let places = grid.places(unit, digit);
                let eliminations: Vec<(usize, u8)> = grid
                    .unit(other)
                    .filter(|&c| grid.has(c, digit) && !places.contains(&c))
                    .map(|c| (c, digit))
                    .collect();
                let removed: Vec<usize> = eliminations.iter().map(|&(c, _)| c).collect();
                let sentence = format!(
                    "{technique}: in {}, {} can only go in {}, all in {}; so it comes out of the rest of {}: {}.",
                    grid.unit_name(unit),
                    symbol(digit),
                    grid.cell_names(&places),
                    grid.unit_name(other),
                    grid.unit_name(other),
                    grid.cell_names(&removed)
                );
                Some(Step::new(technique, places.clone(), smallvec![digit], Vec::new(), eliminations, sentence))
            })
        })
    })
}
