//! XY-wing, XYZ-wing and W-wing: small patterns of two- and
//! three-candidate cells that rule a digit out of the cells that see both
//! ends.

use itertools::Itertools;
use smallvec::smallvec;

use super::grid::{Grid, digits, symbol, symbols};
use super::singles::single;
use super::{Step, Technique};

/// The cells other than `pattern` that have `digit` and see every cell
/// of `ends`.
fn seeing_all(grid: &Grid, ends: &[usize], pattern: &[usize], digit: u8) -> Vec<(usize, u8)> {
    grid.peers(ends[0])
        .filter(|&c| !pattern.contains(&c) && grid.has(c, digit) && ends.iter().all(|&e| grid.sees(c, e)))
        .map(|c| (c, digit))
        .collect()
}

fn bivalue(grid: &Grid) -> impl Iterator<Item = usize> + '_ {
    (0..grid.candidates.len()).filter(|&c| grid.count(c) == 2)
}

/// A pivot {x, y} sees pincers {x, z} and {y, z}: one pincer is z
/// whichever the pivot takes, so z leaves every cell that sees both.
pub(super) fn xy(grid: &Grid) -> Option<Step> {
    bivalue(grid).find_map(|pivot| {
        let both = grid.candidates[pivot];
        let pincers: Vec<usize> = grid
            .peers(pivot)
            .filter(|&c| grid.count(c) == 2 && (grid.candidates[c] & both).is_power_of_two())
            .collect();
        pincers.iter().copied().tuple_combinations().find_map(|(a, b)| {
            let (ca, cb) = (grid.candidates[a], grid.candidates[b]);
            let z = ca & cb & !both;
            // The pincers share z and take different digits of the pivot.
            if z.count_ones() != 1 || ca & both == cb & both {
                return None;
            }
            let z = single(z)?;
            let eliminations = seeing_all(grid, &[a, b], &[pivot, a, b], z);
            if eliminations.is_empty() {
                return None;
            }
            let sentence = format!(
                "{}: {} holds {} and sees {} ({}) and {} ({}): whichever digit the pivot takes, one of them is {}, so {} leaves every cell that sees both.",
                Technique::XyWing,
                grid.cell_name(pivot),
                symbols(both),
                grid.cell_name(a),
                symbols(ca),
                grid.cell_name(b),
                symbols(cb),
                symbol(z),
                symbol(z)
            );
            let digits = digits(both | ca | cb).collect();
            Some(Step::new(Technique::XyWing, vec![pivot, a, b], digits, Vec::new(), eliminations, sentence))
        })
    })
}

/// A pivot {x, y, z} sees pincers {x, z} and {y, z}: one of the three is
/// z, so z leaves every cell that sees all three.
pub(super) fn xyz(grid: &Grid) -> Option<Step> {
    (0..grid.candidates.len()).filter(|&c| grid.count(c) == 3).find_map(|pivot| {
        let all = grid.candidates[pivot];
        let pincers: Vec<usize> =
            grid.peers(pivot).filter(|&c| grid.count(c) == 2 && grid.candidates[c] & !all == 0).collect();
        pincers.iter().copied().tuple_combinations().find_map(|(a, b)| {
            let (ca, cb) = (grid.candidates[a], grid.candidates[b]);
            if ca | cb != all {
                return None;
            }
            let z = single(ca & cb)?;
            let eliminations = seeing_all(grid, &[pivot, a, b], &[pivot, a, b], z);
            if eliminations.is_empty() {
                return None;
            }
            let sentence = format!(
                "{}: {} holds {} and sees {} ({}) and {} ({}): one of the three is {}, so {} leaves every cell that sees all three.",
                Technique::XyzWing,
                grid.cell_name(pivot),
                symbols(all),
                grid.cell_name(a),
                symbols(ca),
                grid.cell_name(b),
                symbols(cb),
                symbol(z),
                symbol(z)
            );
            Some(Step::new(Technique::XyzWing, vec![pivot, a, b], digits(all).collect(), Vec::new(), eliminations, sentence))
        })
    })
}

/// Two cells {x, y} that do not see each other, and a region where x has
/// two places, one seen by each cell: one of the two cells is y, so y
/// leaves every cell that sees both.
pub(super) fn w(grid: &Grid) -> Option<Step> {
    let cells: Vec<usize> = bivalue(grid).collect();
    cells.iter().copied().tuple_combinations().find_map(|(a, b)| {
        let pair = grid.candidates[a];
        if grid.candidates[b] != pair || grid.sees(a, b) {
            return None;
        }
        digits(pair).find_map(|x| {
            let y = single(pair & !(1 << (x - 1)))?;
            let eliminations = seeing_all(grid, &[a, b], &[a, b], y);
            if eliminations.is_empty() {
                return None;
            }
            (0..grid.unit_count()).find_map(|unit| {
                let (p, q) = grid.two_places(unit, x)?;
                if [p, q].iter().any(|c| *c == a || *c == b) {
                    return None;
                }
                let linked = (grid.sees(p, a) && grid.sees(q, b)) || (grid.sees(p, b) && grid.sees(q, a));
                if !linked {
                    return None;
                }
                let sentence = format!(
                    "{}: {} and {} both hold {}, and in {} {} can only go in {} and {}, each seen by one of them: so one of the two cells is {}, and {} leaves every cell that sees both.",
                    Technique::WWing,
                    grid.cell_name(a),
                    grid.cell_name(b),
                    symbols(pair),
                    grid.unit_name(unit),
                    symbol(x),
                    grid.cell_name(p),
                    grid.cell_name(q),
                    symbol(y),
                    symbol(y)
                );
                Some(Step::new(Technique::WWing, vec![a, b, p, q], smallvec![x, y], Vec::new(), eliminations.clone(), sentence))
            })
        })
    })
}
