//! Rules along lines. Sums whose digits may repeat (little killers,
//! arrows): a candidate that would take the sum out of what the other
//! cells can make up. The rest (sandwiches, between lines, quadruples,
//! renban lines, lines of equal sums and of classes): a candidate that the
//! rule's own narrowing, the search's, leaves no room for.

use super::grid::{Grid, bit, digits, list, symbol};
use super::{Step, Technique};
use crate::ClassLine;
use crate::board::{EqualSumKind, LineRule, contribution, digits_within};

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

/// The first rule along a line kept by narrowing (every rule along a line
/// but sums and arrows) that leaves a cell fewer digits than it has: what
/// the rule leaves it, with every cell of the rule held to its candidates,
/// and the rest go. One cell's candidates a step, taken out together.
pub(super) fn lines(grid: &Grid) -> Option<Step> {
    let geometry = grid.geometry();
    // A filled cell's digit, or an empty one's candidates.
    let held = |cell: usize| bit(grid.values[cell]).unwrap_or(grid.candidates[cell]);
    let mut keep = smallvec::SmallVec::new();
    geometry.line_rules.iter().find_map(|rule| {
        let cells = rule.narrowed_cells()?;
        if cells.iter().any(|&c| held(usize::from(c)) == 0) {
            return None;
        }
        // A rule no way of keeping is left for the search to find.
        rule.narrowed(geometry.full, &held, &mut keep)?;
        cells.iter().zip(&keep).find_map(|(&cell, &kept)| {
            let cell = usize::from(cell);
            let gone = grid.candidates[cell] & !kept;
            (grid.values[cell] == 0 && gone != 0).then(|| {
                let sentence = format!(
                    "{}: {}, which leaves {} only {}; so {} out of {}.",
                    Technique::LineRules,
                    rule_in_words(grid, rule),
                    grid.cell_name(cell),
                    list(digits(grid.candidates[cell] & kept).map(symbol)).replace(" and ", " or "),
                    list(digits(gone).map(symbol)),
                    grid.cell_name(cell)
                );
                let cells: Vec<usize> = rule.cells().map(usize::from).collect();
                let eliminations = digits(gone).map(|digit| (cell, digit)).collect();
                Step::new(Technique::LineRules, cells, smallvec::SmallVec::new(), Vec::new(), eliminations, sentence)
            })
        })
    })
}

/// What a rule along a line kept by narrowing asks, in its own terms.
fn rule_in_words(grid: &Grid, rule: &LineRule) -> String {
    let names = list(rule.cells().map(|c| grid.cell_name(usize::from(c))));
    match rule {
        LineRule::Sandwich { sum, .. } => {
            format!("along {names}, the digits between the smallest and the largest add up to {sum}")
        }
        LineRule::Skyscraper { seen, .. } => {
            format!("seen from the clue's end, {seen} of {names} stand taller than all before them")
        }
        LineRule::XSum { sum, .. } => {
            format!("along {names}, the first digits, as many as the first one says, add up to {sum}")
        }
        LineRule::Between { .. } => format!("the middle of the between line {names} lies between its ends"),
        LineRule::Quadruple { digits: wanted, .. } => {
            format!("{names} hold {}", list(wanted.iter().map(|&d| symbol(d))))
        }
        LineRule::Renban { .. } => format!("{names} hold a run of consecutive digits"),
        LineRule::EqualSums { kind: EqualSumKind::RegionSum, .. } => {
            format!("the segments of the region sum line {names} add up to one sum")
        }
        LineRule::EqualSums { kind: EqualSumKind::Zipper, .. } => {
            format!("the cells of the zipper line {names} the same distance from its middle add up to one sum")
        }
        LineRule::EqualSums { kind: EqualSumKind::DoubleArrow, .. } => {
            format!("the ends of the double arrow {names} add up to the cells between them")
        }
        LineRule::Classes { kind: ClassLine::Entropic, .. } => {
            format!("any three cells in a row of the entropic line {names} hold a low, a middle and a high digit")
        }
        LineRule::Classes { kind: ClassLine::Modular, .. } => {
            format!("any three cells in a row of the modular line {names} leave three remainders divided by 3")
        }
        // Sums and arrows are the bounds step's.
        LineRule::Total { .. } | LineRule::Arrow { .. } => names,
    }
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
        // The other rules along lines have no equation, so no bounds step
        // reaches them ("Line rules" takes them).
        _ => String::new(),
    }
}

/// `5`, or `5 to 9`.
fn span(low: i64, high: i64) -> String {
    if low == high { low.to_string() } else { format!("{low} to {high}") }
}
