//! Naked and hidden subsets of two, three and four within a region.

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
        find_subset(cells.len(), size, |chosen| {
            let held = chosen.iter().fold(0, |m, &k| m | grid.candidates[cells[k]]);
            if held.count_ones() as usize != size {
                return None;
            }
            let subset: Vec<usize> = chosen.iter().map(|&k| cells[k]).collect();
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
        find_subset(spread.len(), size, |chosen| {
            let subset = chosen.iter().map(|&k| spread[k]);
            let spots = subset.clone().fold(0u32, |m, (_, places)| m | places);
            if spots.count_ones() as usize != size {
                return None;
            }
            let mut cells: Vec<usize> =
                grid.unit(unit).enumerate().filter(|&(i, _)| spots >> i & 1 == 1).map(|(_, c)| c).collect();
            cells.sort_unstable();
            let kept = subset.fold(0u32, |m, (d, _)| m | 1 << (d - 1));
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

/// The first answer of `test` over the sets of `size` indices of `0..n`,
/// each in increasing order, taken in lexicographic order (as
/// `Itertools::combinations` yields them, without a list for each).
fn find_subset<T>(n: usize, size: usize, mut test: impl FnMut(&[usize]) -> Option<T>) -> Option<T> {
    const MOST: usize = 4;
    if size == 0 || size > n || size > MOST {
        return None;
    }
    let mut chosen = [0, 1, 2, 3];
    loop {
        if let Some(found) = test(&chosen[..size]) {
            return Some(found);
        }
        // The last index that can still move up, moved; those after it follow.
        let k = (0..size).rev().find(|&k| chosen[k] < n - size + k)?;
        chosen[k] += 1;
        for j in k + 1..size {
            chosen[j] = chosen[j - 1] + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use itertools::Itertools;

    use super::find_subset;

    /// The sets and their order are those of `Itertools::combinations`.
    #[test]
    fn subsets_come_as_combinations_do() {
        for n in 0..9 {
            for size in 1..=4 {
                let mut seen = Vec::new();
                let none: Option<()> = find_subset(n, size, |chosen| {
                    seen.push(chosen.to_vec());
                    None
                });
                assert!(none.is_none());
                assert_eq!(seen, (0..n).combinations(size).collect::<Vec<_>>(), "{n} choose {size}");
            }
        }
        assert_eq!(find_subset(5, 2, |c| (c == [1, 3]).then_some(7)), Some(7));
    }
}
