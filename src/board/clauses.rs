//! A settled board of the general engine as clauses, counted by the
//! clause-learning solver in [`crate::sat`].
//!
//! One variable per empty cell and candidate; each empty cell takes
//! exactly one of its candidates, and each unit gives each digit it still
//! lacks exactly one of its places ("exactly one" as one clause for at
//! least one and a clause for each pair for at most one). The candidates
//! are the board's after propagation, so the given digits need no
//! variables. A killer cage gets a variable for each set of digits that
//! can fill its empty cells and make its sum: exactly one set is chosen,
//! its digits fill the cells and no other digit does.

use std::time::{Duration, Instant};

use crate::sat::{Lit, Outcome, Solver, positive};
use crate::search::{Exhausted, Meter};

use super::general::bits;
use super::{EMPTY, Geometry};

/// Conflicts between looks at the budget, which counts each as a node. A
/// conflict on an edge25 puzzle took about 80 µs (2.35 s for 28,700), a
/// few nodes' worth of the depth-first count there, so a time budget is
/// looked at every 5 ms or so.
const CONFLICTS_PER_LOOK: u64 = 64;

/// How a turn of [`Clauses::count_for`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Turn {
    /// Every model is counted, or `limit` of them: the count is exact.
    Counted,
    /// The turn's time is up; the count goes on at the next turn.
    Paused,
    /// The meter's budget ran out.
    Spent,
}

/// The most fillings of one cage's empty cells that the clauses spell
/// out pair by pair: a variable each, a clause for each pair of them, and
/// one for each filling and each digit it keeps out of each cell.
const PAIRWISE_FILLINGS: usize = 256;

/// The most fillings of one cage's empty cells that the clauses spell
/// out, a variable each; a board with a cage of more is left to the
/// search. Past [`PAIRWISE_FILLINGS`] the clauses grow with the fillings
/// rather than with their square: five-cell cages of 25x25 killers with few
/// givens have up to a thousand or so: the depth-first search alone took
/// 24 s to count one such puzzle to 2, clause learning about a second.
const MOST_CAGE_FILLINGS: usize = 4096;

/// The digit (from 1) of a one-bit candidate set, 0 for none.
fn digit_of_bit(bit: u32) -> u8 {
    if bit == 0 { 0 } else { u8::try_from(bit.trailing_zeros() + 1).unwrap_or(0) }
}

/// Exactly one of `lits`: one clause for at least one, and one for each
/// pair for at most one.
/// No two of the empty `cells` hold the same digit: a binary clause for
/// each pair and each candidate they share, `literal(cell, digit)` being
/// the variable of the digit in the cell.
fn distinct(solver: &mut Solver, cells: &[usize], literal: impl Fn(usize, usize) -> Lit, cands: &[u32]) {
    for (k, &a) in cells.iter().enumerate() {
        for &b in &cells[k + 1..] {
            for digit in bits(cands[a] & cands[b]) {
                solver.add_clause(&[literal(a, digit) ^ 1, literal(b, digit) ^ 1]);
            }
        }
    }
}

fn exactly_one(solver: &mut Solver, lits: &[Lit]) {
    solver.add_clause(lits);
    for (k, &a) in lits.iter().enumerate() {
        for &b in &lits[k + 1..] {
            solver.add_clause(&[a ^ 1, b ^ 1]);
        }
    }
}

/// At most one of `lits`, by a chain of `lits.len() - 1` new variables
/// from `first`, the `k`th true once any of the first `k + 1` literals is
/// (Sinz's sequential counter): three clauses a literal rather than one a
/// pair, and unit propagation still rules out the rest once one is true.
/// Returns the next unused variable.
fn at_most_one_chained(solver: &mut Solver, lits: &[Lit], first: usize) -> usize {
    let Some((&last, rest)) = lits.split_last() else { return first };
    for (k, &lit) in rest.iter().enumerate() {
        let upto = positive(first + k);
        solver.add_clause(&[lit ^ 1, upto]);
        if k > 0 {
            let before = positive(first + k - 1);
            solver.add_clause(&[before ^ 1, upto]);
            solver.add_clause(&[lit ^ 1, before ^ 1]);
        }
    }
    if !rest.is_empty() {
        solver.add_clause(&[last ^ 1, positive(first + rest.len() - 1) ^ 1]);
    }
    first + rest.len()
}

/// [`PAIRWISE_FILLINGS`], which tests lower to put every cage in chained
/// clauses.
#[cfg(not(test))]
fn pairwise_fillings() -> usize {
    PAIRWISE_FILLINGS
}

#[cfg(test)]
fn pairwise_fillings() -> usize {
    tests::PAIRWISE_FILLINGS.with(std::cell::Cell::get)
}

/// The variables a cage's fillings take beyond one each: past
/// [`PAIRWISE_FILLINGS`], the chain of [`at_most_one_chained`] and one for
/// each digit some filling holds.
fn chained_variables(sets: &[u32]) -> usize {
    if sets.len() <= pairwise_fillings() {
        return 0;
    }
    sets.len().saturating_sub(1) + held_digits(sets).count_ones() as usize
}

/// The digits some filling of `sets` holds.
fn held_digits(sets: &[u32]) -> u32 {
    sets.iter().fold(0, |digits, &set| digits | set)
}

/// For each killer cage with an empty cell: its empty cells, and the sets
/// of digits that can fill them, from the cage's combinations that hold
/// its given digits and fit the candidates (every digit of the set has a
/// cell for it, and every cell a digit of the set). `None` when a cage has
/// more than [`MOST_CAGE_FILLINGS`].
fn cage_fillings(geometry: &Geometry, text: &[u8], cands: &[u32]) -> Option<Vec<(Vec<usize>, Vec<u32>)>> {
    let mut cages = Vec::new();
    for cage in &geometry.cages {
        let (empty, filled): (Vec<usize>, Vec<usize>) =
            cage.cells.iter().map(|&c| usize::from(c)).partition(|&c| text[c] == EMPTY);
        if empty.is_empty() {
            continue;
        }
        let given = filled.iter().fold(0, |digits, &c| digits | cands[c]);
        let open = empty.iter().fold(0, |digits, &c| digits | cands[c]);
        let sets: Vec<u32> = cage
            .combinations
            .iter()
            .filter(|&&set| set & given == given)
            .map(|&set| set & !given)
            .filter(|&rest| rest & !open == 0 && empty.iter().all(|&c| cands[c] & rest != 0))
            .collect();
        if sets.len() > MOST_CAGE_FILLINGS {
            return None;
        }
        cages.push((empty, sets));
    }
    Some(cages)
}

/// A cage of many fillings, in clauses that grow with them: exactly one
/// filling (its `selectors`), by [`at_most_one_chained`]; a variable from
/// `next` on for each digit some filling holds, true when one of the
/// empty cells holds it; each filling puts its digits there, and a digit
/// there needs a filling that holds it. With the cells' digits distinct
/// and as many digits as cells, no other digit fits: once one filling is
/// true, the others are false, the digits only they hold lose their every
/// filling, and so their places. Returns the next unused variable.
fn chained_fillings(
    solver: &mut Solver,
    empty: &[usize],
    sets: &[u32],
    selectors: &[Lit],
    next: usize,
    var: &impl Fn(usize, usize) -> usize,
    cands: &[u32],
) -> usize {
    solver.add_clause(selectors);
    let mut next = at_most_one_chained(solver, selectors, next);
    let digits = held_digits(sets);
    for &cell in empty {
        for digit in bits(cands[cell] & !digits) {
            solver.add_clause(&[positive(var(cell, digit)) ^ 1]);
        }
    }
    let mut lits = Vec::new();
    for digit in bits(digits) {
        let held = positive(next);
        next += 1;
        lits.clear();
        lits.push(held ^ 1);
        for &cell in empty.iter().filter(|&&c| cands[c] >> digit & 1 == 1) {
            let place = positive(var(cell, digit));
            solver.add_clause(&[place ^ 1, held]);
            lits.push(place);
        }
        solver.add_clause(&lits);
        lits.clear();
        lits.push(held ^ 1);
        for (&chosen, &set) in selectors.iter().zip(sets) {
            if set >> digit & 1 == 1 {
                solver.add_clause(&[chosen ^ 1, held]);
                lits.push(chosen);
            }
        }
        solver.add_clause(&lits);
    }
    next
}

#[derive(Clone)]
pub(crate) struct Clauses {
    solver: Solver,
    /// The empty cells, with the first variable of each and its candidates.
    cells: Vec<(usize, usize, u32)>,
    /// The digit of each filled cell as a bit, 0 for an empty one.
    filled: Vec<u32>,
}

impl Clauses {
    /// The clauses of the empty cells of a settled board with these
    /// candidates (a filled cell's text is not [`EMPTY`]), or `None` when
    /// a killer cage has more fillings than [`MOST_CAGE_FILLINGS`].
    pub(crate) fn new(geometry: &Geometry, text: &[u8], cands: &[u32]) -> Option<Clauses> {
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
        // Sums whose digits may repeat have no clauses here: the search
        // keeps them.
        if geometry.has_line_rules() {
            return None;
        }
        let cages = cage_fillings(geometry, text, cands)?;
        let var = |cell: usize, digit: usize| first[cell] + (cands[cell] & ((1 << digit) - 1)).count_ones() as usize;
        let mut solver =
            Solver::new(vars + cages.iter().map(|(_, sets)| sets.len() + chained_variables(sets)).sum::<usize>());
        let mut lits: Vec<Lit> = Vec::new();
        for &(cell, _, candidates) in &cells {
            lits.clear();
            lits.extend(bits(candidates).map(|d| positive(var(cell, d))));
            exactly_one(&mut solver, &lits);
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
                exactly_one(&mut solver, &lits);
            }
        }
        // Each cage takes exactly one of its fillings, a variable each: the
        // filling rules out every other digit in the cage's empty cells and
        // puts each of its own in one of them.
        let mut selector = vars;
        for (empty, sets) in &cages {
            let selectors: Vec<Lit> = (selector..selector + sets.len()).map(positive).collect();
            selector += sets.len();
            if sets.len() > pairwise_fillings() {
                selector = chained_fillings(&mut solver, empty, sets, &selectors, selector, &var, cands);
                distinct(&mut solver, empty, |cell, digit| positive(var(cell, digit)), cands);
                continue;
            }
            exactly_one(&mut solver, &selectors);
            for (&chosen, &rest) in selectors.iter().zip(sets) {
                for &cell in empty {
                    for digit in bits(cands[cell] & !rest) {
                        solver.add_clause(&[chosen ^ 1, positive(var(cell, digit)) ^ 1]);
                    }
                }
                for digit in bits(rest) {
                    lits.clear();
                    lits.push(chosen ^ 1);
                    lits.extend(
                        empty.iter().filter(|&&c| cands[c] >> digit & 1 == 1).map(|&c| positive(var(c, digit))),
                    );
                    solver.add_clause(&lits);
                }
            }
            // Distinct digits, for the cells of a cage that share no unit.
            distinct(&mut solver, empty, |cell, digit| positive(var(cell, digit)), cands);
        }
        // Groups of distinct digits, over their empty cells (a filled
        // cell's digit is gone from its peers' candidates already).
        let mut empty = Vec::new();
        for group in &geometry.distinct {
            empty.clear();
            empty.extend(group.iter().map(|&c| usize::from(c)).filter(|&c| text[c] == EMPTY));
            distinct(&mut solver, &empty, |cell, digit| positive(var(cell, digit)), cands);
        }
        // No consecutive digits side by side, pair by pair of candidates.
        if geometry.non_consecutive {
            for a in (0..geometry.cells).filter(|&c| text[c] == EMPTY) {
                for b in geometry.side_neighbours(a).filter(|&b| b > a && text[b] == EMPTY) {
                    for digit in bits(cands[a]) {
                        for next in bits(cands[b] & geometry.consecutive_to(1 << digit)) {
                            solver.add_clause(&[positive(var(a, digit)) ^ 1, positive(var(b, next)) ^ 1]);
                        }
                    }
                }
            }
        }
        // Relations between two empty cells, pair by pair of candidates
        // that break them (propagation left a filled cell's partner only
        // the digits that keep the relation with it).
        for related in &geometry.relations {
            let [a, b] = related.cells.map(usize::from);
            if text[a] != EMPTY || text[b] != EMPTY {
                continue;
            }
            for digit in bits(cands[a]) {
                let keep = related.relation.seconds_for(1 << digit, geometry.full);
                for other in bits(cands[b] & !keep) {
                    solver.add_clause(&[positive(var(a, digit)) ^ 1, positive(var(b, other)) ^ 1]);
                }
            }
        }
        let filled = (0..geometry.cells).map(|c| if text[c] == EMPTY { 0 } else { cands[c] }).collect();
        Some(Clauses { solver, cells, filled })
    }

    /// The number of completions, counting no further than `limit`, within
    /// what is left of `meter`'s budget (a conflict is a node): each model
    /// found is forbidden by a clause and the search goes on, keeping what
    /// it learned.
    pub(crate) fn count(&mut self, limit: usize, meter: &mut Meter) -> (usize, Option<Exhausted>) {
        let mut found = 0;
        match self.count_for(&mut found, limit, Duration::MAX, meter) {
            Turn::Spent => (found, meter.exhausted()),
            Turn::Counted | Turn::Paused => (found, None),
        }
    }

    /// The digits of a model, one per cell, within what is left of
    /// `meter`'s budget (a conflict is a node): `None` when there is none,
    /// or with why the search stopped short.
    pub(crate) fn solve(&mut self, meter: &mut Meter) -> (Option<Vec<u8>>, Option<Exhausted>) {
        match self.count(1, meter) {
            (1, _) => (Some(self.model_digits()), None),
            (_, stopped) => (None, stopped),
        }
    }

    /// [`Clauses::count`] a turn at a time: goes on from where the last
    /// turn stopped, with `found` models so far, for about `time` (looked
    /// at every [`CONFLICTS_PER_LOOK`] conflicts and at every model, so that
    /// each turn gets somewhere, however short).
    pub(crate) fn count_for(&mut self, found: &mut usize, limit: usize, time: Duration, meter: &mut Meter) -> Turn {
        let start = Instant::now();
        while *found < limit {
            let before = self.solver.conflicts();
            let outcome = self.solver.solve(CONFLICTS_PER_LOOK.min(meter.nodes_left()));
            if !meter.spend(self.solver.conflicts() - before) {
                return Turn::Spent;
            }
            match outcome {
                Outcome::Unsatisfiable => break,
                Outcome::Unknown => {}
                Outcome::Satisfiable => {
                    *found += 1;
                    let block: Vec<Lit> = self.model().map(|var| positive(var) ^ 1).collect();
                    self.solver.add_clause(&block);
                }
            }
            if *found < limit && start.elapsed() >= time {
                return Turn::Paused;
            }
        }
        Turn::Counted
    }

    /// Whether the clauses have a model that puts each digit of `placed`
    /// (cell, digit from 1) in its cell and keeps `excluded`'s digit out
    /// of its cell. What one question learns is kept for the next, and so
    /// are the levels of the givens it shares with the one before: the
    /// clauses are the same, only the assumptions change. `None` when
    /// `conflicts` ran out before the answer.
    pub(crate) fn has_model(
        &mut self,
        placed: impl IntoIterator<Item = (usize, u8)>,
        excluded: (usize, u8),
        conflicts: u64,
    ) -> Option<bool> {
        let Some(mut assumptions) = self.assumptions(placed) else { return Some(false) };
        match self.literal(excluded.0, excluded.1) {
            Ok(Some(lit)) => assumptions.push(lit ^ 1),
            // The digit is the cell's in every model.
            Ok(None) => return Some(false),
            // The digit is in no model.
            Err(()) => {}
        }
        match self.solver.solve_assuming(&assumptions, conflicts) {
            Outcome::Satisfiable => Some(true),
            Outcome::Unsatisfiable => Some(false),
            Outcome::Unknown => None,
        }
    }

    /// Whether the clauses have a model that agrees with every digit of
    /// `board` (a board below the one they came from): whether the walk
    /// finds a solution below it. Within what is left of `meter`'s budget,
    /// a conflict a node; `None` once it is spent. Then
    /// [`Clauses::model_digits`] gives the model found, if any.
    pub(crate) fn has_model_below(&mut self, board: &super::Board, meter: &mut Meter) -> Option<bool> {
        let digits = board.cells().enumerate().filter_map(|(cell, digit)| Some((cell, digit?)));
        let Some(assumptions) = self.assumptions(digits) else { return Some(false) };
        loop {
            let before = self.solver.conflicts();
            let outcome = self.solver.solve_assuming(&assumptions, CONFLICTS_PER_LOOK.min(meter.nodes_left()));
            if !meter.spend(self.solver.conflicts() - before) {
                return None;
            }
            match outcome {
                Outcome::Satisfiable => return Some(true),
                Outcome::Unsatisfiable => return Some(false),
                Outcome::Unknown => {}
            }
        }
    }

    /// The literals that put each digit of `placed` (cell, digit from 1) in
    /// its cell, leaving out the digits the clauses' board holds already;
    /// `None` where a digit cannot go in its cell in any model.
    fn assumptions(&self, placed: impl IntoIterator<Item = (usize, u8)>) -> Option<Vec<Lit>> {
        let mut assumptions = Vec::new();
        for (cell, digit) in placed {
            if let Some(lit) = self.literal(cell, digit).ok()? {
                assumptions.push(lit);
            }
        }
        Some(assumptions)
    }

    /// The variable of `digit` (from 1) in `cell` as a literal: `Ok(None)`
    /// where the board the clauses came from holds that digit there
    /// already, `Err` where the digit cannot go there at all.
    fn literal(&self, cell: usize, digit: u8) -> Result<Option<Lit>, ()> {
        let bit = 1u32 << (digit - 1);
        match self.cells.binary_search_by_key(&cell, |&(c, _, _)| c) {
            Ok(k) => {
                let (_, first, candidates) = self.cells[k];
                if candidates & bit == 0 {
                    return Err(());
                }
                Ok(Some(positive(first + (candidates & (bit - 1)).count_ones() as usize)))
            }
            Err(_) if self.filled.get(cell) == Some(&bit) => Ok(None),
            Err(_) => Err(()),
        }
    }

    /// Has the next search decide each cell toward `digits` (from 1, one
    /// per cell, row by row): a cell's variable is tried true first for the
    /// digit `digits` gives it and false for the others. A model near that
    /// grid, as a second solution a few cells away from a known one often
    /// is, is then met soon after the first conflict, where deciding every
    /// variable true first wanders far from it.
    pub(crate) fn prefer(&mut self, digits: &[u8]) {
        for &(cell, first, candidates) in &self.cells {
            let wanted = digits.get(cell).map_or(0, |&digit| usize::from(digit));
            for (k, digit) in bits(candidates).enumerate() {
                self.solver.set_phase(first + k, digit + 1 == wanted);
            }
        }
    }

    /// The digit (from 1) of every cell in the last model, filled cells
    /// included, row by row.
    pub(crate) fn model_digits(&self) -> Vec<u8> {
        let mut digits: Vec<u8> = self.filled.iter().map(|&bit| digit_of_bit(bit)).collect();
        for &(cell, first, candidates) in &self.cells {
            let taken = (first..first + candidates.count_ones() as usize).position(|v| self.solver.model_value(v));
            if let Some(taken) = taken {
                let bit = bits(candidates).nth(taken).map_or(0, |digit| 1u32 << digit);
                digits[cell] = digit_of_bit(bit);
            }
        }
        digits
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
    use super::Turn;
    use crate::random::SplitMix64;
    use crate::search::{Budget, Meter};
    use crate::{Board, Relation, Rules, Shape};
    use std::cell::Cell;
    use std::time::Duration;

    thread_local! {
        /// [`super::PAIRWISE_FILLINGS`] as this thread's tests set it.
        pub(super) static PAIRWISE_FILLINGS: Cell<usize> = const { Cell::new(super::PAIRWISE_FILLINGS) };
    }

    /// The clause count of a board against the depth-first search's.
    fn agree(board: &Board, limit: usize) -> usize {
        let mut settled = board.clone();
        let expected = board.solutions().take(limit).count();
        if settled.settle().is_err() {
            assert_eq!(expected, 0, "{}", board.as_str());
            return 0;
        }
        let mut clauses = settled.clauses().expect("cages of few fillings");
        let (counted, exhausted) = clauses.count(limit, &mut Meter::new(Budget::UNLIMITED));
        assert_eq!((counted, exhausted), (expected, None), "{}", board.as_str());
        // The same count in turns as short as can be, each one look at the
        // budget, going on from where the turn before stopped.
        let mut in_turns = settled.clauses().expect("cages of few fillings");
        let (mut found, mut meter) = (0, Meter::new(Budget::UNLIMITED));
        while in_turns.count_for(&mut found, limit, Duration::ZERO, &mut meter) == Turn::Paused {}
        assert_eq!(found, expected, "in turns: {}", board.as_str());
        // A first model, as `Board::solve` takes it from clause learning:
        // found where the board has a solution, and one of its solutions.
        let mut first = settled.clauses().expect("cages of few fillings");
        let (digits, stopped) = first.solve(&mut Meter::new(Budget::UNLIMITED));
        assert_eq!((digits.is_some(), stopped), (expected > 0, None), "{}", board.as_str());
        if let Some(digits) = digits {
            let solution = Board::empty_with(&board.rules()).with_solution_digits(&digits);
            assert!(solution.is_complete(), "{}: {}", board.as_str(), solution.as_str());
            assert!(board.cells().zip(solution.cells()).all(|(given, digit)| given.is_none() || given == digit));
            assert_eq!(is_solution(board, solution.as_str()), Some(true), "{}: {}", board.as_str(), solution.as_str());
            // The check above fails a grid that breaks the rules: the same
            // grid with its first two cells swapped clashes in a column.
            let mut swapped = solution.as_str().as_bytes().to_vec();
            if swapped[0] != swapped[1] {
                swapped.swap(0, 1);
                assert_ne!(is_solution(board, std::str::from_utf8(&swapped).unwrap()), Some(true));
            }
        }
        counted
    }

    /// Whether a complete grid keeps every rule of `board`, read by its
    /// rules' parser and counted; `None` when the parser refuses it.
    fn is_solution(board: &Board, grid: &str) -> Option<bool> {
        board.rules().parse(grid).ok().map(|grid| grid.is_complete() && grid.count_solutions(2) == 1)
    }

    /// Random givens of a random solution, kept with probability `keep` in
    /// 100, on each rule set, half of them with killer cages added: counts
    /// of 0 (a clashing digit added), 1 and several, up to the limit.
    #[test]
    fn clause_counts_equal_the_search_s_on_random_boards() {
        random_boards_agree();
    }

    /// The same boards with every cage's fillings in the clauses of cages
    /// of many fillings ([`super::chained_fillings`]).
    #[test]
    fn chained_cage_clauses_count_as_the_search_does() {
        PAIRWISE_FILLINGS.with(|limit| limit.set(0));
        random_boards_agree();
    }

    fn random_boards_agree() {
        let rule_sets = [
            Rules::new(Shape::new(2, 2)),
            Rules::new(Shape::new(2, 3)),
            Rules::new(Shape::new(2, 3)).with_diagonals(),
            Rules::jigsaw("111222111222333444333444555666555666").unwrap(),
            Rules::new(Shape::new(3, 3)).with_windows(),
            Rules::new(Shape::new(3, 4)),
            Rules::new(Shape::new(2, 3)).with_anti_king(),
            Rules::new(Shape::new(3, 3)).with_anti_knight(),
            Rules::new(Shape::new(2, 3)).with_distinct(&[0, 7, 14, 21]).unwrap().with_distinct(&[5, 30]).unwrap(),
            Rules::new(Shape::new(2, 3)).with_non_consecutive(),
            Rules::new(Shape::new(2, 3))
                .with_thermometer(&[0, 7, 14, 15])
                .and_then(|r| r.with_relation(20, Relation::Ratio(2), 26))
                .and_then(|r| r.with_relation(30, Relation::Sum(7), 35))
                .unwrap(),
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
                let killer = seed % 2 == 1;
                // Killer boards get few givens: many solutions are where a
                // sum that is not enforced shows.
                let keep = if killer { 10 } else { [25, 40, 55, 70][seed % 4] };
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
                // Half the time, a killer cage of two or three cells in every
                // other row, with the grid's sums.
                let mut rules = rules.clone();
                if killer {
                    for row in (0..side).step_by(2) {
                        let length = 2 + random.below(2);
                        let start = row * side + random.below(side - length + 1);
                        let cells: Vec<usize> = (start..start + length).collect();
                        let sum = cells.iter().map(|&c| usize::from(grid.get(c).unwrap())).sum();
                        rules = rules.with_cage(sum, &cells).unwrap();
                    }
                }
                let Ok(board) = rules.parse(std::str::from_utf8(&text).unwrap()) else { continue };
                let limit = if killer { 200 } else { [1, 2, 16][seed % 3] };
                let found = agree(&board, limit);
                seen[found.min(2)] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n > 0), "no solution, one and several all met: {seen:?}");
    }

    /// One set of clauses of an empty board asked many questions in a row
    /// (givens as assumptions, and a digit kept out of a cell), each
    /// answered as the search answers it on the board with those givens:
    /// what earlier questions learned, and the levels they share, change
    /// no answer.
    #[test]
    fn questions_under_assumptions_are_answered_as_the_search_answers_them() {
        let rule_sets = [
            Rules::new(Shape::new(2, 3)).with_cage(9, &[0, 1, 2]).unwrap().with_cage(4, &[6, 12]).unwrap(),
            Rules::jigsaw("111222111222333444333444555666555666").unwrap(),
            Rules::new(Shape::new(3, 3)).with_windows(),
            Rules::new(Shape::new(2, 2)),
        ];
        let mut random = SplitMix64::new(7);
        let (mut yes, mut no) = (0, 0);
        for rules in &rule_sets {
            let cells = rules.shape().cells();
            let mut empty = rules.parse(&".".repeat(cells)).unwrap();
            empty.settle().unwrap();
            let mut clauses = empty.clauses().expect("cages of few fillings");
            for seed in 0..60u64 {
                let grid = crate::search::shuffled_dfs(empty.clone(), Board::children, seed)
                    .find(Board::is_complete)
                    .expect("a grid");
                // Givens of the grid, now and then one of them changed to
                // a random digit, which may clash.
                let keep = [15, 30, 45, 60][random.below(4)];
                let mut placed: Vec<(usize, u8)> =
                    (0..cells).filter(|_| random.below(100) < keep).map(|c| (c, grid.get(c).unwrap())).collect();
                if seed % 5 == 0 && !placed.is_empty() {
                    let k = random.below(placed.len());
                    placed[k].1 = u8::try_from(1 + random.below(rules.shape().side())).unwrap();
                }
                let cell = random.below(cells);
                let digit = grid.get(cell).unwrap();
                let mut text = vec![b'.'; cells];
                for &(c, d) in &placed {
                    text[c] = b'0' + d;
                }
                // Givens that clash are no board, and have no solution.
                let expected = rules
                    .parse(std::str::from_utf8(&text).unwrap())
                    .ok()
                    .and_then(|board| board.excluding(cell, digit))
                    .is_some_and(|board| board.count_solutions(1) > 0);
                let answer = clauses.has_model(placed.iter().copied(), (cell, digit), u64::MAX).expect("no budget");
                assert_eq!(answer, expected, "{rules:?}: {placed:?} without {digit} in {cell}");
                if answer {
                    yes += 1;
                } else {
                    no += 1;
                }
            }
        }
        assert!(yes > 20 && no > 20, "both answers met often: {yes} and {no}");
    }

    /// Decisions that follow a grid of the rules meet no conflict, so the
    /// first model is that grid: checked against random grids, where the
    /// search left to itself finds others (so the check can fail).
    #[test]
    fn clauses_that_prefer_a_grid_find_it_first() {
        let rule_sets = [
            Rules::new(Shape::new(4, 4)),
            Rules::jigsaw("111222111222333444333444555666555666").unwrap(),
            Rules::new(Shape::new(3, 3)).with_windows(),
        ];
        let mut others = 0;
        for rules in &rule_sets {
            let mut empty = rules.parse(&".".repeat(rules.shape().cells())).unwrap();
            empty.settle().unwrap();
            for seed in 0..10u64 {
                let grid = crate::search::shuffled_dfs(empty.clone(), Board::children, seed)
                    .find(Board::is_complete)
                    .expect("a grid");
                let digits: Vec<u8> = grid.cells().map(|digit| digit.unwrap()).collect();
                let mut clauses = empty.clauses().expect("no cages");
                let (plain, _) = clauses.clone().solve(&mut Meter::new(Budget::UNLIMITED));
                others += usize::from(plain.as_deref() != Some(&digits[..]));
                clauses.prefer(&digits);
                let (first, stopped) = clauses.solve(&mut Meter::new(Budget::UNLIMITED));
                assert_eq!((first.as_deref(), stopped), (Some(&digits[..]), None), "{}", grid.as_str());
            }
        }
        assert!(others >= 20, "the search alone found the grid itself {} times in 30", 30 - others);
    }
}
