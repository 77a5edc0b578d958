//! A settled board of the general engine as clauses, counted by the
//! clause-learning solver in [`crate::sat`].
//!
//! One variable per empty cell and candidate; each empty cell takes
//! exactly one of its candidates, and each unit gives each digit it still
//! lacks exactly one of its places ("exactly one" as one clause for at
//! least one and a clause for each pair for at most one). The candidates
//! are the board's after propagation, so the given digits need no
//! variables. Killer cages are not expressed: their sums are not clauses.

use crate::sat::{Lit, Outcome, Solver, positive};
use crate::search::{Exhausted, Meter};

use super::{EMPTY, Geometry};

/// Conflicts between looks at the budget: one conflict costs about as
/// much as a node of the depth-first count on a large board, and the
/// meter counts them as nodes.
const CONFLICTS_PER_LOOK: u64 = 64;

pub(crate) struct Clauses {
    solver: Solver,
    /// The empty cells, with the first variable of each and its candidates.
    cells: Vec<(usize, usize, u32)>,
}

impl Clauses {
    /// The clauses of the empty cells of a settled board with these
    /// candidates (a filled cell's text is not [`EMPTY`]).
    pub(crate) fn new(geometry: &Geometry, text: &[u8], cands: &[u32]) -> Clauses {
        // The first variable of each empty cell; the rest follow, one per
        // candidate, lowest digit first.
        let mut first = vec![usize::MAX; geometry.cells];
        let mut cells = Vec::new();
        let mut vars = 0;
        for cell in (0..geometry.cells).filter(|&c| text[c] == EMPTY) {
            first[cell] = vars;
            cells.push((cell, vars, cands[cell]));
            vars += cands[cell].count_ones() as usize;
        }
        let var = |cell: usize, digit: usize| first[cell] + (cands[cell] & ((1 << digit) - 1)).count_ones() as usize;
        let mut solver = Solver::new(vars);
        let mut exactly_one = |lits: &[Lit]| {
            solver.add_clause(lits);
            for (k, &a) in lits.iter().enumerate() {
                for &b in &lits[k + 1..] {
                    solver.add_clause(&[a ^ 1, b ^ 1]);
                }
            }
        };
        let mut lits: Vec<Lit> = Vec::new();
        for &(cell, _, candidates) in &cells {
            lits.clear();
            lits.extend(super::general::bits(candidates).map(|d| positive(var(cell, d))));
            exactly_one(&lits);
        }
        for unit in geometry.units() {
            for digit in 0..geometry.side {
                let bit = 1 << digit;
                let unit_cells = unit.iter().map(|&c| usize::from(c));
                // A digit already in the unit is gone from its empty cells.
                if unit_cells.clone().any(|c| text[c] != EMPTY && cands[c] == bit) {
                    continue;
                }
                lits.clear();
                lits.extend(
                    unit_cells.filter(|&c| text[c] == EMPTY && cands[c] & bit != 0).map(|c| positive(var(c, digit))),
                );
                exactly_one(&lits);
            }
        }
        Clauses { solver, cells }
    }

    /// The number of completions, counting no further than `limit`, within
    /// what is left of `meter`'s budget (a conflict is a node): each model
    /// found is forbidden by a clause and the search goes on, keeping what
    /// it learned.
    pub(crate) fn count(&mut self, limit: usize, meter: &mut Meter) -> (usize, Option<Exhausted>) {
        let mut found = 0;
        while found < limit {
            let before = self.solver.conflicts();
            let outcome = self.solver.solve(CONFLICTS_PER_LOOK.min(meter.nodes_left()));
            if !meter.spend(self.solver.conflicts() - before) {
                return (found, meter.exhausted());
            }
            match outcome {
                Outcome::Unsatisfiable => break,
                Outcome::Unknown => {}
                Outcome::Satisfiable => {
                    found += 1;
                    let block: Vec<Lit> = self.model().map(|var| positive(var) ^ 1).collect();
                    self.solver.add_clause(&block);
                }
            }
        }
        (found, None)
    }

    /// The variables true in the last model: one per empty cell.
    fn model(&self) -> impl Iterator<Item = usize> + '_ {
        self.cells.iter().filter_map(|&(_, first, candidates)| {
            (first..first + candidates.count_ones() as usize).find(|&v| self.solver.model_value(v))
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::random::SplitMix64;
    use crate::search::{Budget, Meter};
    use crate::{Board, Rules, Shape};

    /// The clause count of a board against the depth-first search's.
    fn agree(board: &Board, limit: usize) -> usize {
        let mut settled = board.clone();
        let expected = board.solutions().take(limit).count();
        if settled.settle().is_err() {
            assert_eq!(expected, 0, "{}", board.as_str());
            return 0;
        }
        let mut clauses = settled.clauses().expect("no cages");
        let (counted, exhausted) = clauses.count(limit, &mut Meter::new(Budget::UNLIMITED));
        assert_eq!((counted, exhausted), (expected, None), "{}", board.as_str());
        counted
    }

    /// Random givens of a random solution, kept with probability `keep` in
    /// 100, on each rule set: counts of 0 (a clashing digit added), 1 and
    /// several, up to the limit.
    #[test]
    fn clause_counts_equal_the_search_s_on_random_boards() {
        let rule_sets = [
            Rules::new(Shape::new(2, 2)),
            Rules::new(Shape::new(2, 3)),
            Rules::new(Shape::new(2, 3)).with_diagonals(),
            Rules::jigsaw("111222111222333444333444555666555666").unwrap(),
            Rules::new(Shape::new(3, 3)).with_windows(),
            Rules::new(Shape::new(3, 4)),
        ];
        let mut random = SplitMix64::new(2026);
        let mut seen = [0usize; 3];
        for rules in &rule_sets {
            let side = rules.shape().side();
            let empty = rules.parse(&".".repeat(side * side)).unwrap();
            for seed in 0..40usize {
                let grid = crate::search::shuffled_dfs(empty.clone(), Board::children, u64::try_from(seed).unwrap())
                    .find(Board::is_complete)
                    .expect("a grid");
                let mut text: Vec<u8> = grid.as_str().bytes().collect();
                let keep = [25, 40, 55, 70][seed % 4];
                for cell in &mut text {
                    if random.below(100) >= keep {
                        *cell = b'.';
                    }
                }
                // Now and then a digit that breaks the grid where it lies.
                if seed % 7 == 0 {
                    let cell = random.below(text.len());
                    if text[cell] == b'.' {
                        text[cell] = grid.as_str().as_bytes()[(cell + 1) % text.len()];
                    }
                }
                let Ok(board) = rules.parse(std::str::from_utf8(&text).unwrap()) else { continue };
                let limit = [1, 2, 16][seed % 3];
                let found = agree(&board, limit);
                seen[found.min(2)] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n > 0), "no solution, one and several all met: {seen:?}");
    }
}
