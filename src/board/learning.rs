//! [`Learning`]: clause learning beside the walk of [`Solutions`] on the
//! general engine, which finds the solutions of boards whose walk keeps
//! failing the same way, and hands them out in the walk's own order.
//!
//! [`Solutions`]: super::Solutions

use std::time::{Duration, Instant};

use super::Board;
use super::clauses::{Clauses, Turn};
use crate::search::Meter;

/// Nodes of the walk's first turn, which the solutions of most boards
/// come within (about 30 ms on 25x25); each turn after takes twice the one
/// before. The count that takes turns with clause learning
/// (`count_taking_turns`) goes the same way.
pub(crate) const FIRST_TURN_NODES: u64 = 1_000;
/// Clause learning takes part only while the walk has found fewer than one
/// solution in this many nodes: a walk through a tree thick with solutions
/// finds them faster than clause learning, one model at a time, can.
const NODES_PER_SOLUTION: u64 = 8;
/// Clause learning leaves once the walk has found this many solutions and
/// eight times its models in the same time ([`outruns_learning`])...
const OUT_FROM: usize = 1_000;
const OUT_RATE: usize = 8;
/// ...or once it has found this many models, which it holds until it has
/// them all (about 6 MB of 25x25 grids, and as many clauses forbidding
/// them): so many solutions are the walk's to find.
const MOST_MODELS: usize = 10_000;

/// Whether a walk or count that has found `found` solutions in the time
/// clause learning found `models` is clearly the faster of the two, as on
/// trees of many solutions, whose direct counts near the leaves count
/// thousands at once where clause learning finds one model at a time:
/// clause learning then leaves it to go on alone.
pub(crate) fn outruns_learning(found: usize, models: usize) -> bool {
    found >= OUT_FROM && found >= OUT_RATE.saturating_mul(models)
}

/// The settings of the turns: [`FIRST_TURN_NODES`],
/// [`NODES_PER_SOLUTION`] and [`MOST_MODELS`], which tests lower to put
/// clause learning beside the walks of small boards.
#[derive(Clone, Copy, Debug)]
struct Settings {
    first_turn: u64,
    nodes_per_solution: u64,
    most_models: usize,
}

const SETTINGS: Settings =
    Settings { first_turn: FIRST_TURN_NODES, nodes_per_solution: NODES_PER_SOLUTION, most_models: MOST_MODELS };

#[cfg(not(test))]
fn settings() -> Settings {
    SETTINGS
}

#[cfg(test)]
fn settings() -> Settings {
    tests::TURNS.with(std::cell::Cell::get)
}

/// What [`Solutions`](super::Solutions) on the general engine keeps beside
/// its walk: the walk goes in turns of a number of nodes, and after each
/// turn clause learning gets the time the turn took, to find every
/// solution as a model and prove there are no more. Once it has, the
/// solutions the walk has not yet handed out are put in the walk's order
/// ([`in_search_order`]) and handed out from there, the walk dropped: the
/// same solutions in the same order as the walk alone, where the walk
/// alone can take minutes past its last solution, or before its first
/// (16x16 killer puzzles).
#[derive(Clone)]
pub(crate) struct Learning {
    /// The board whose solutions these are.
    root: Board,
    /// Nodes left in the walk's turn, and in the next one.
    turn_left: u64,
    next_turn: u64,
    /// When the walk's turn began, once it has.
    turn_began: Option<Instant>,
    /// Nodes walked and solutions the walk has handed out, in all.
    nodes: u64,
    walked: usize,
    /// Clause learning, once built, and the digits of its models.
    clauses: Option<Clauses>,
    models: Vec<Vec<u8>>,
    /// Whether clause learning still takes part.
    taking_part: bool,
    settings: Settings,
    /// The solutions left, in order, once clause learning has found them
    /// all.
    known: Option<std::vec::IntoIter<Board>>,
}

/// What [`Learning`] says after a node of the walk, or a turn.
pub(crate) enum Step {
    /// The walk goes on.
    Walk,
    /// The walk's turn is over.
    TurnOver,
}

impl Learning {
    pub(crate) fn new(root: Board) -> Learning {
        let settings = settings();
        Learning {
            root,
            turn_left: settings.first_turn,
            next_turn: settings.first_turn.saturating_mul(2),
            turn_began: None,
            nodes: 0,
            walked: 0,
            clauses: None,
            models: Vec::new(),
            taking_part: true,
            settings,
            known: None,
        }
    }

    /// The solutions left, once clause learning has found them all.
    pub(crate) fn known(&mut self) -> Option<&mut std::vec::IntoIter<Board>> {
        self.known.as_mut()
    }

    /// How many solutions are left to hand out, once they are known.
    pub(crate) fn known_left(&self) -> Option<usize> {
        self.known.as_ref().map(ExactSizeIterator::len)
    }

    /// Whether the walk has begun.
    pub(crate) fn has_begun(&self) -> bool {
        self.nodes > 0
    }

    /// The board the solutions are of.
    pub(crate) fn root(&self) -> &Board {
        &self.root
    }

    /// A node of the walk is about to be visited: [`Step::TurnOver`] when
    /// the turn has had its nodes, and the node waits for the next turn.
    #[inline]
    pub(crate) fn node(&mut self) -> Step {
        if !self.taking_part {
            return Step::Walk;
        }
        if self.turn_left == 0 {
            return Step::TurnOver;
        }
        self.turn_began.get_or_insert_with(Instant::now);
        self.turn_left -= 1;
        self.nodes += 1;
        Step::Walk
    }

    /// The walk handed out a solution.
    pub(crate) fn walked_one(&mut self) {
        self.walked += 1;
    }

    /// Clause learning's turn, after the walk's: `Some(true)` once it has
    /// every solution (then [`Learning::known`] hands them out), `None`
    /// when `meter` ran out, `Some(false)` for the walk to go on.
    pub(crate) fn learn(&mut self, meter: &mut Meter) -> Option<bool> {
        let time = self.turn_began.take().map_or(Duration::ZERO, |began| began.elapsed());
        (self.turn_left, self.next_turn) = (self.next_turn, self.next_turn.saturating_mul(2));
        let models = self.models.len();
        let sparse = self.nodes > self.settings.nodes_per_solution.saturating_mul(self.walked as u64);
        if !self.taking_part || !sparse || outruns_learning(self.walked, models) || models >= self.settings.most_models
        {
            self.stop_learning();
            return Some(false);
        }
        if self.clauses.is_none() {
            let mut settled = self.root.clone();
            if !settled.is_settled() && settled.settle().is_err() {
                // No solution: the walk ends at once.
                self.stop_learning();
                return Some(false);
            }
            self.clauses = settled.clauses();
            if self.clauses.is_none() {
                self.stop_learning();
                return Some(false);
            }
        }
        let clauses = self.clauses.as_mut()?;
        let began = Instant::now();
        let mut found = self.models.len();
        loop {
            let before = found;
            // A model at a time, to read each; the turn's time runs on.
            let turn = clauses.count_for(&mut found, before + 1, time.saturating_sub(began.elapsed()), meter);
            if found > before {
                self.models.push(clauses.model_digits());
            }
            match turn {
                Turn::Spent => return None,
                Turn::Paused => return Some(false),
                Turn::Counted if found == before => break,
                Turn::Counted if found >= self.settings.most_models => {
                    self.stop_learning();
                    return Some(false);
                }
                Turn::Counted if began.elapsed() >= time => return Some(false),
                Turn::Counted => {}
            }
        }
        let mut solutions = in_search_order(&self.root, std::mem::take(&mut self.models));
        solutions.drain(..self.walked.min(solutions.len()));
        self.known = Some(solutions.into_iter());
        self.clauses = None;
        Some(true)
    }

    fn stop_learning(&mut self) {
        self.taking_part = false;
        self.clauses = None;
        self.models = Vec::new();
    }
}

/// The solutions of `root` given as `models` (each the digit of every
/// cell), as boards, in the order of `root.solutions()`: the walk's own
/// path down to each, built through [`Board::children`] from the root,
/// going only into children that some model agrees with. The walk's order
/// is the children's at each node, so this is its order; and the boards
/// are built as the walk builds them.
pub(crate) fn in_search_order(root: &Board, models: Vec<Vec<u8>>) -> Vec<Board> {
    let count = models.len();
    let mut ordered = Vec::with_capacity(count);
    // Boards with the models that lie below them, the next one to visit
    // last.
    let mut stack = vec![(root.clone(), models)];
    while let Some((board, mut below)) = stack.pop() {
        if below.is_empty() {
            continue;
        }
        if board.is_complete() {
            ordered.push(board);
            continue;
        }
        let children = board.children();
        let Some(cell) = children.cell() else {
            // Settled into its one child, complete, or with no child.
            stack.extend(children.map(|child| (child, std::mem::take(&mut below))));
            continue;
        };
        let mut parts = Vec::new();
        for child in children {
            let digit = child.get(cell).unwrap_or(0);
            let (agree, rest): (Vec<_>, Vec<_>) = below.into_iter().partition(|model| model.get(cell) == Some(&digit));
            below = rest;
            parts.push((child, agree));
        }
        stack.extend(parts.into_iter().rev());
    }
    debug_assert_eq!(ordered.len(), count, "every model lies on the walk's path to a solution");
    ordered
}

#[cfg(test)]
mod tests {
    use super::{Settings, in_search_order};
    use crate::random::SplitMix64;
    use crate::search::Budget;
    use crate::{Board, Rules, Shape};
    use std::cell::Cell;

    thread_local! {
        /// The turns' settings as this thread's tests set them.
        pub(super) static TURNS: Cell<Settings> = const { Cell::new(super::SETTINGS) };
    }

    /// Random boards of several rules: givens of a random grid, kept with
    /// probability `keep` in 100 (killer cages on some).
    fn random_boards(count: usize) -> Vec<Board> {
        let rule_sets = [
            Rules::new(Shape::new(2, 2)),
            Rules::new(Shape::new(2, 3)),
            Rules::new(Shape::new(2, 3)).with_diagonals(),
            Rules::jigsaw("111222111222333444333444555666555666").unwrap(),
            Rules::new(Shape::new(2, 3)).with_cage(9, &[0, 1, 2]).unwrap().with_cage(7, &[10, 16]).unwrap(),
            Rules::new(Shape::new(2, 4)),
        ];
        let mut random = SplitMix64::new(29);
        let mut boards = Vec::new();
        for rules in &rule_sets {
            let cells = rules.shape().cells();
            let empty = rules.parse(&".".repeat(cells)).unwrap();
            for seed in 0..count as u64 {
                let grid = crate::search::shuffled_dfs(empty.clone(), Board::children, seed)
                    .find(Board::is_complete)
                    .expect("a grid");
                let keep = [20, 35, 50, 65][random.below(4)];
                let text: String =
                    grid.as_str().chars().map(|symbol| if random.below(100) < keep { symbol } else { '.' }).collect();
                boards.push(rules.parse(&text).unwrap());
            }
        }
        boards
    }

    fn digits(board: &Board) -> Vec<u8> {
        board.cells().map(|digit| digit.unwrap_or(0)).collect()
    }

    /// The solutions' models, shuffled, put back in the walk's order: the
    /// walk's boards, in its order.
    #[test]
    fn models_in_search_order_are_the_walk_s_solutions() {
        let mut random = SplitMix64::new(5);
        let mut several = 0;
        for board in random_boards(20) {
            let walked: Vec<Board> = super::super::Solutions::walk_alone(board.clone()).take(3_000).collect();
            if walked.len() == 3_000 {
                continue;
            }
            let mut models: Vec<Vec<u8>> = walked.iter().map(digits).collect();
            for i in (1..models.len()).rev() {
                models.swap(i, random.below(i + 1));
            }
            let ordered = in_search_order(&board, models);
            assert_eq!(ordered, walked, "{}", board.as_str());
            several += usize::from(walked.len() > 1);
        }
        assert!(several > 20, "boards of several solutions: {several}");
    }

    /// With turns of a few nodes each and clause learning on however many
    /// solutions the walk finds, `solutions()` hands out the walk's
    /// solutions in the walk's order: whole, and cut short at any point
    /// (then the rest, taken by `fold`, and `count`). With few models
    /// allowed, clause learning leaves the walk to go on alone.
    #[test]
    fn solutions_beside_clause_learning_are_the_walk_s() {
        let mut learned = 0;
        for (first_turn, most_models) in [(1, 10_000), (3, 10_000), (2, 4)] {
            TURNS.with(|s| s.set(Settings { first_turn, nodes_per_solution: 0, most_models }));
            for board in random_boards(12) {
                let walked: Vec<Board> = super::super::Solutions::walk_alone(board.clone()).take(3_000).collect();
                if walked.len() == 3_000 {
                    continue;
                }
                let text = board.as_str();
                let mut solutions = board.solutions();
                assert_eq!(solutions.clone().collect::<Vec<_>>(), walked, "{text}");
                let cut = walked.len() / 2;
                let first: Vec<Board> = solutions.by_ref().take(cut).collect();
                assert_eq!(first[..], walked[..cut], "{text}");
                let left = solutions.clone().count();
                let rest = solutions.fold(Vec::new(), |mut rest, solution| {
                    rest.push(solution);
                    rest
                });
                assert_eq!((left, &rest[..]), (walked.len() - cut, &walked[cut..]), "{text}");
                assert_eq!(board.solutions().count(), walked.len(), "{text}");
                let mut timed = board.solutions().within(Budget::time(std::time::Duration::from_secs(600)));
                assert!(timed.by_ref().eq(walked.iter().cloned()), "{text}");
                learned += usize::from(walked.len() > 1);
            }
        }
        TURNS.with(|s| s.set(super::SETTINGS));
        assert!(learned > 20, "boards of several solutions: {learned}");
    }
}
