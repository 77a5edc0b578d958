//! Naked and hidden subsets of two, three and four within a region.

use itertools::Itertools;
use smallvec::SmallVec;

use super::grid::{Grid, digits, symbols};
use super::{Step, Technique};

fn technique(size: usize, hidden: bool) -> Technique {
    match (size, hidden) {
        (2, false) => Technique::NakedPair,
        (3, false) => Technique::NakedTriple,
        (4, false) => Technique::NakedQuad,
        (2, true) => Technique::HiddenPair,
        (3, true) => Technique::HiddenTriple,
        _ => Technique::HiddenQuad,
    }
}

/// `size` cells of a region whose candidates together are `size` digits:
/// those digits leave the region's other cells.
pub(super) fn naked(grid: &Grid, size: usize) -> Option<Step> {
    let technique = technique(size, false);
    (0..grid.unit_count()).find_map(|unit| {
        let cells: SmallVec<[usize; 32]> =
            grid.unit(unit).filter(|&c| (2..=size).contains(&(grid.count(c) as usize))).collect();
        cells.iter().copied().combinations(size).find_map(|subset| {
            let held = subset.iter().fold(0, |m, &c| m | grid.candidates[c]);
            if held.count_ones() as usize != size {
                return None;
            }
            let eliminations: Vec<(usize, u8)> = grid
                .unit(unit)
                .filter(|c| !subset.contains(c))
                .flat_map(|c| digits(grid.candidates[c] & held).map(move |d| (c, d)))
                .collect();
            if eliminations.is_empty() {
                return None;
            }
            let sentence = format!(
                "{technique}: in {}, {} hold only {} between them, so those digits leave the region's other cells.",
                grid.unit_name(unit),
                grid.cell_names(&subset),
                symbols(held)
            );
            Some(Step::new(technique, subset, digits(held).collect(), Vec::new(), eliminations, sentence))
        })
    })
}

/// `size` digits of a region with `size` places between them: those cells
/// hold nothing else.
pub(super) fn hidden(grid: &Grid, size: usize) -> Option<Step> {
    let technique = technique(size, true);
    (0..grid.unit_count()).find_map(|unit| {
        let digits_of_side = u8::try_from(grid.side).unwrap_or(0);
        // Each digit with two to `size` places, and those places as bits.
        let spread: SmallVec<[(u8, u32); 32]> = (1..=digits_of_side)
            .map(|d| (d, grid.place_mask(unit, d)))
            .filter(|&(_, places)| (2..=size).contains(&(places.count_ones() as usize)))
            .collect();
        spread.iter().combinations(size).find_map(|subset| {
            let spots = subset.iter().fold(0u32, |m, (_, places)| m | places);
            if spots.count_ones() as usize != size {
                return None;
            }
            let cells: Vec<usize> =
                grid.unit(unit).enumerate().filter(|&(i, _)| spots >> i & 1 == 1).map(|(_, c)| c).collect();
            let mut cells = cells;
            cells.sort_unstable();
            let kept = subset.iter().fold(0u32, |m, (d, _)| m | 1 << (d - 1));
            let eliminations: Vec<(usize, u8)> =
                cells.iter().flat_map(|&c| digits(grid.candidates[c] & !kept).map(move |d| (c, d))).collect();
            if eliminations.is_empty() {
                return None;
            }
            let sentence = format!(
                "{technique}: in {}, {} can only go in {}, so those cells hold nothing else.",
                grid.unit_name(unit),
                symbols(kept),
                grid.cell_names(&cells)
            );
            Some(Step::new(technique, cells, digits(kept).collect(), Vec::new(), eliminations, sentence))
        })
    })
}
