//! The non-consecutive rule between two empty cells side by side: a digit
//! that every candidate of one cell rules out of the other.

use super::grid::{Grid, digits, list, symbol, symbols};
use super::{Step, Technique};

/// A cell whose candidates are all a digit or next to it rules that digit
/// out of the empty cells beside it: whatever the cell holds is either the
/// digit, which a cell in the same row or column cannot repeat, or a digit
/// next to it, which the rule keeps from the cells beside. Cells with one
/// candidate are left to the singles.
pub(super) fn non_consecutive(grid: &Grid) -> Option<Step> {
    let geometry = grid.geometry();
    if !geometry.non_consecutive {
        return None;
    }
    (0..geometry.cells).filter(|&cell| grid.count(cell) >= 2).find_map(|cell| {
        let own = grid.candidates[cell];
        let mut eliminations = Vec::new();
        for neighbour in geometry.side_neighbours(cell) {
            for digit in digits(grid.candidates[neighbour]) {
                let bit = 1 << (digit - 1);
                if own & !(bit | geometry.consecutive_to(bit)) == 0 {
                    eliminations.push((neighbour, digit));
                }
            }
        }
        if eliminations.is_empty() {
            return None;
        }
        let removed = digits(eliminations.iter().fold(0, |all, &(_, d)| all | 1 << (d - 1))).map(|digit| {
            let cells: Vec<usize> = eliminations.iter().filter(|&&(_, d)| d == digit).map(|&(c, _)| c).collect();
            format!("{} out of {}", symbol(digit), grid.cell_names(&cells))
        });
        let sentence = format!(
            "{}: {} can only hold {}, and whichever it holds, a cell beside it can hold neither that digit nor one \
             next to it; so {}.",
            Technique::NonConsecutive,
            grid.cell_name(cell),
            symbols(own).replace(" and ", " or "),
            list(removed)
        );
        Some(Step::new(
            Technique::NonConsecutive,
            vec![cell],
            digits(own).collect(),
            Vec::new(),
            eliminations,
            sentence,
        ))
    })
}
