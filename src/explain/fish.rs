//! Basic fish (X-wing, swordfish, jellyfish): a digit whose places in `n`
//! rows lie in `n` columns takes those columns' places in those rows, so
//! it leaves the rest of the columns; and the same with rows and columns
//! exchanged.

use itertools::Itertools;
use smallvec::{SmallVec, smallvec};

use super::grid::{Grid, symbol};
use super::{Step, Technique};

/// The fish of `fish_size` lines for the digits of `digits`.
pub(super) fn basic(grid: &Grid, fish_size: usize, digits: u32) -> Option<Step> {
    let technique = match fish_size {
        2 => Technique::XWing,
        3 => Technique::Swordfish,
        _ => Technique::Jellyfish,
    };
    let side = grid.side;
    let line_units = grid.lines()?;
    // Row `r` of a row-based fish is `(r, c)`; of a column-based one, `(c, r)`.
    [("rows", "columns", false), ("columns", "rows", true)].into_iter().zip(line_units).find_map(
        |((base_name, cover_name, transposed), units)| {
            let cell = move |line: usize, across: usize| if transposed { across * side + line } else { line * side + across };
            super::grid::digits(digits & grid.geometry().full).find_map(|digit| {
                // Each base line with 2..=size places, as a mask of positions
                // across it: the digit's places in the line's unit.
                let lines: SmallVec<[(usize, u32); 25]> = units
                    .iter()
                    .map(|&unit| grid.place_mask(unit, digit))
                    .enumerate()
                    .filter(|&(_, across)| (2..=fish_size).contains(&(across.count_ones() as usize)))
                    .collect();
                lines.iter().combinations(fish_size).find_map(|base| {
                    let cover = base.iter().fold(0u32, |m, (_, across)| m | across);
                    if cover.count_ones() as usize != fish_size {
                        return None;
                    }
                    let base_lines: Vec<usize> = base.iter().map(|&&(line, _)| line).collect();
                    let eliminations: Vec<(usize, u8)> = (0..side)
                        .filter(|&line| !base_lines.contains(&line))
                        .flat_map(|line| (0..side).filter(move |&a| cover >> a & 1 == 1).map(move |a| cell(line, a)))
                        .filter(|&c| grid.has(c, digit))
                        .map(|c| (c, digit))
                        .collect();
                    if eliminations.is_empty() {
                        return None;
                    }
                    let cells: Vec<usize> = base_lines
                        .iter()
                        .flat_map(|&line| (0..side).map(move |a| cell(line, a)))
                        .filter(|&c| grid.has(c, digit))
                        .collect();
                    let numbers = |mask: u32| {
                        super::grid::list((0..side).filter(|&i| mask >> i & 1 == 1).map(|i| (i + 1).to_string()))
                    };
                    let base_mask = base_lines.iter().fold(0u32, |m, &l| m | 1 << l);
                    let sentence = format!(
                        "{technique}: in {base_name} {}, {} can only go in {cover_name} {}, so it leaves the rest of those {cover_name}.",
                        numbers(base_mask),
                        symbol(digit),
                        numbers(cover)
                    );
                    let mut cells = cells;
                    cells.sort_unstable();
                    Some(Step::new(technique, cells, smallvec![digit], Vec::new(), eliminations, sentence))
                })
            })
        },
    )
}
