//! Sums whose digits may repeat (little killers, arrows): a candidate that
//! would take the sum out of what the other cells can make up.

use super::grid::{Grid, bit, digits, list, symbol};
use super::{Step, Technique};
use crate::board::{LineRule, contribution, digits_within};

/// The first sum with a candidate outside its bounds: the other cells'
/// least and greatest leave the cell a range of digits, and the rest go.
/// One cell's candidates a step, taken out together.
pub(super) fn bounds(grid: &Grid) -> Option<Step> {
    let geometry = grid.geometry();
    // A filled cell's digit, or an empty one's candidates.
    let held = |cell: usize| bit(grid.values[cell]).unwrap_or(grid.candidates[cell]);
    geometry.line_rules.iter().zip(&geometry.linear).find_map(|(rule, linear)| {
        if linear.terms.iter().any(|&(cell, _)| held(usize::from(cell)) == 0) {
            return None;
        }
        let total = i64::from(linear.total);
        let (low, high) = linear.terms.iter().fold((0, 0), |(low, high), &(cell, weight)| {
            let (a, b) = contribution(held(usize::from(cell)), weight);
            (low + a, high + b)
        });
        linear.terms.iter().find_map(|&(cell, weight)| {
            let cell = usize::from(cell);
            let (a, b) = contribution(held(cell), weight);
            let keep = digits_within(held(cell), weight, total - (high - b), total - (low - a));
            let gone = grid.candidates[cell] & !keep;
            (grid.values[cell] == 0 && gone != 0).then(|| {
                let why = reason(grid, rule, cell, &held);
                let sentence = format!(
                    "{}: {why}; so {} out of {}.",
                    Technique::SumBounds,
                    list(digits(gone).map(symbol)),
                    grid.cell_name(cell)
                );
                let cells: Vec<usize> = rule.cells().map(usize::from).collect();
                let eliminations = digits(gone).map(|digit| (cell, digit)).collect();
                Step::new(Technique::SumBounds, cells, smallvec::SmallVec::new(), Vec::new(), eliminations, sentence)
            })
        })
    })
}

/// The least and greatest that `cells` add up to, each holding one of its
/// digits (`held`), leaving out `cell`.
fn range_without(cells: &[u16], cell: usize, held: &impl Fn(usize) -> u32) -> (i64, i64) {
    cells.iter().map(|&c| usize::from(c)).filter(|&c| c != cell).fold((0, 0), |(low, high), c| {
        let (a, b) = contribution(held(c), 1);
        (low + a, high + b)
    })
}

/// Why `cell` of `rule` loses candidates, in the rule's own terms.
fn reason(grid: &Grid, rule: &LineRule, cell: usize, held: &impl Fn(usize) -> u32) -> String {
    let name = grid.cell_name(cell);
    let names = |cells: &[u16]| list(cells.iter().map(|&c| grid.cell_name(usize::from(c))));
    match rule {
        // A sandwich, a between line, a quadruple, a renban line, a line of
        // equal sums or of classes has no equation, so no bounds step
        // reaches it.
        LineRule::Sandwich { .. }
        | LineRule::Between { .. }
        | LineRule::Quadruple { .. }
        | LineRule::Renban { .. }
        | LineRule::EqualSums { .. }
        | LineRule::Classes { .. } => String::new(),
        LineRule::Total { total, cells } => {
            let (low, high) = range_without(cells, cell, held);
            format!("{} add up to {total}, and the cells beside {name} add up to {}", names(cells), span(low, high))
        }
        LineRule::Arrow { circle, shaft } if circle.contains(&u16::try_from(cell).unwrap_or(u16::MAX)) => {
            let (low, high) = range_without(shaft, usize::MAX, held);
            let number = if circle.len() == 1 { "the circle" } else { "the number in the circle" };
            format!("{name} is in {number} of an arrow whose shaft ({}) adds up to {}", names(shaft), span(low, high))
        }
        LineRule::Arrow { circle, shaft } => {
            // The circle's number from its cells' digits, leading first.
            let (least, most) = circle.iter().fold((0, 0), |(least, most), &c| {
                let (a, b) = contribution(held(usize::from(c)), 1);
                (least * 10 + a, most * 10 + b)
            });
            let (low, high) = range_without(shaft, cell, held);
            format!(
                "the shaft of the arrow from {} adds up to its circle's {}, and the shaft's cells beside {name} add up to {}",
                names(circle),
                span(least, most),
                span(low, high)
            )
        }
    }
}

/// `5`, or `5 to 9`.
fn span(low: i64, high: i64) -> String {
    if low == high { low.to_string() } else { format!("{low} to {high}") }
}
