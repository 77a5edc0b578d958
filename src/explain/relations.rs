//! Relations between two cells (thermometers, inequality signs, Kropki
//! dots, XV marks): a candidate that no digit of the other cell keeps the
//! relation with.

use super::grid::{Grid, bit, digits, list, symbol, symbols};
use super::{Step, Technique};
use crate::Relation;

/// The first relation with a candidate of one cell that keeps it with no
/// digit the other cell may hold: that candidate goes. One cell's
/// candidates a step, taken out together.
pub(super) fn related(grid: &Grid) -> Option<Step> {
    let geometry = grid.geometry();
    // A filled cell's digit, or an empty one's candidates.
    let held = |cell: usize| bit(grid.values[cell]).unwrap_or(grid.candidates[cell]);
    geometry.relations.iter().find_map(|related| {
        let [first, second] = related.cells.map(usize::from);
        let relation = related.relation;
        let (from_first, from_second) = (held(first), held(second));
        // Either way round: the second cell's candidates against the
        // first's digits, then the first's against the second's.
        [
            (second, first, from_first, relation.seconds_for(from_first, geometry.full)),
            (first, second, from_second, relation.firsts_for(from_second, geometry.full)),
        ]
        .into_iter()
        .find_map(|(cell, other, others, kept)| {
            let gone = grid.candidates[cell] & !kept;
            (grid.values[cell] == 0 && from_first != 0 && from_second != 0 && gone != 0).then(|| {
                let why = reason(grid, relation, cell, cell == first, other, others);
                let sentence = format!(
                    "{}: {why}; so {} out of {}.",
                    Technique::Relation,
                    list(digits(gone).map(symbol)),
                    grid.cell_name(cell)
                );
                let eliminations = digits(gone).map(|digit| (cell, digit)).collect();
                Step::new(
                    Technique::Relation,
                    vec![other, cell],
                    digits(others).collect(),
                    Vec::new(),
                    eliminations,
                    sentence,
                )
            })
        })
    })
}

/// Why `cell` loses candidates: what `relation` asks of it, given that
/// `other` holds one of `others`.
fn reason(grid: &Grid, relation: Relation, cell: usize, cell_is_first: bool, other: usize, others: u32) -> String {
    let (name, other_name) = (grid.cell_name(cell), grid.cell_name(other));
    let filled = grid.values[other] != 0;
    let holds = |bound: &str, digit: u32| {
        let digit = symbol(u8::try_from(digit + 1).unwrap_or(0));
        if filled { format!("which holds {digit}") } else { format!("which holds {bound} {digit}") }
    };
    match relation {
        Relation::Less if cell_is_first => {
            format!(
                "{name} must be smaller than {other_name}, {}",
                holds("at most", others.checked_ilog2().unwrap_or(0))
            )
        }
        Relation::Less => {
            format!("{name} must be larger than {other_name}, {}", holds("at least", others.trailing_zeros()))
        }
        Relation::LessOrEqual if cell_is_first => {
            format!(
                "{name} must be no larger than {other_name}, {}",
                holds("at most", others.checked_ilog2().unwrap_or(0))
            )
        }
        Relation::LessOrEqual => {
            format!("{name} must be no smaller than {other_name}, {}", holds("at least", others.trailing_zeros()))
        }
        _ if filled => {
            format!(
                "{name} and {other_name} must keep the rule that {relation}, and {other_name} holds {}",
                symbols(others)
            )
        }
        _ => format!(
            "{name} and {other_name} must keep the rule that {relation}, and {other_name} can only hold {}",
            symbols(others).replace(" and ", " or ")
        ),
    }
}
