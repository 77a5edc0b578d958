//! [`Learning`]: clause learning guiding the walk of [`Solutions`] on the
//! general engine, past the subtrees that hold no solution, on boards whose
//! walk keeps failing the same way.
//!
//! [`Solutions`]: super::Solutions

use super::Board;
use super::children::Visit;
use super::clauses::Clauses;
use crate::search::Meter;

/// Nodes of the walk's first turn, which the solutions of most boards
/// come within (about 30 ms on 25x25). The count that takes turns with
/// clause learning (`count_taking_turns`) starts the same way, each turn
/// after twice the one before.
pub(crate) const FIRST_TURN_NODES: u64 = 1_000;
/// Clause learning guides the walk only if, at the end of its first turn, the walk
/// has found fewer than one solution in this many nodes: a walk through a
/// tree thick with solutions finds them faster than it could be guided.
const NODES_PER_SOLUTION: u64 = 8;
/// Clause learning leaves a count once the depth-first count has found
/// this many solutions and eight times its models in the same time
/// ([`outruns_learning`]).
const OUT_FROM: usize = 1_000;
const OUT_RATE: usize = 8;

/// Whether a walk or count that has found `found` solutions in the time
/// clause learning found `models` is clearly the faster of the two, as on
/// trees of many solutions, whose direct counts near the leaves count
/// thousands at once where clause learning finds one model at a time:
/// clause learning then leaves it to go on alone.
pub(crate) fn outruns_learning(found: usize, models: usize) -> bool {
    found >= OUT_FROM && found >= OUT_RATE.saturating_mul(models)
}

/// The parallel searches of solutions on the general engine go to their
/// threads only where the walk's first this many nodes hold one solution in
/// [`NODES_PER_SOLUTION`] or more ([`comes_thick`]).
#[cfg(feature = "parallel")]
const PROBED_NODES: u64 = 2_000;

/// Whether the solutions of `board` come thick enough from the start to be
/// worth the threads of a parallel search, whose walks go alone. Where they
/// come sparser (few solutions in a large tree, as on hard 16x16 killer
/// puzzles), the threads would keep failing where clause learning guides
/// `solutions()` past whole subtrees. Boards of the 9x9 engine always do.
#[cfg(feature = "parallel")]
pub(crate) fn comes_thick(board: &Board) -> bool {
    if !board.uses_general_engine() {
        return true;
    }
    let wanted = usize::try_from(PROBED_NODES / NODES_PER_SOLUTION).unwrap_or(usize::MAX);
    board.count_solutions_within(wanted, crate::search::Budget::nodes(PROBED_NODES)).0 >= wanted
}

/// The settings of the turns: [`FIRST_TURN_NODES`] and
/// [`NODES_PER_SOLUTION`], which tests lower to have clause learning guide
/// the walks of small boards.
#[derive(Clone, Copy, Debug)]
struct Settings {
    first_turn: u64,
    nodes_per_solution: u64,
}

const SETTINGS: Settings = Settings { first_turn: FIRST_TURN_NODES, nodes_per_solution: NODES_PER_SOLUTION };

#[cfg(not(test))]
fn settings() -> Settings {
    SETTINGS
}

#[cfg(test)]
fn settings() -> Settings {
    tests::TURNS.with(std::cell::Cell::get)
}

/// What [`Solutions`](super::Solutions) on the general engine keeps beside
/// its walk. The walk's first turn of [`FIRST_TURN_NODES`] goes alone; if
/// the walk found fewer than one solution in [`NODES_PER_SOLUTION`] nodes
/// there, clause learning guides it from then on: before the walk goes below a board, it asks the board's
/// clauses whether any solution agrees with the board, and passes over it
/// if none does. The answers are exact, so the walk hands out the same
/// solutions in the same order as alone, and goes only below boards with a
/// solution to find: where the walk alone can take minutes before its first
/// solution (16x16 killer puzzles) or past its last, clause learning proves
/// whole subtrees empty with what it learned from the others.
///
/// The question is not asked of a board that agrees with the last model
/// found, which has a solution below it: the walk goes down the path to a
/// model asking only about the siblings before each step.
#[derive(Clone)]
pub(crate) struct Learning {
    /// The board whose solutions these are.
    root: Board,
    /// Nodes left in the walk's first turn.
    turn_left: u64,
    /// Nodes walked and solutions the walk has handed out, in all.
    nodes: u64,
    walked: usize,
    /// Whether the walk is in its first turn, which decides whether
    /// clause learning guides it.
    in_turn: bool,
    settings: Settings,
    /// Clause learning guiding the walk, once it does.
    guide: Option<Guide>,
    /// The boards the guided walk went below, and how many it passed over.
    #[cfg(test)]
    expanded: Vec<Board>,
    #[cfg(test)]
    passed_over: u64,
}

/// Clause learning guiding a walk: the root's clauses, and the digits of
/// the last model they gave.
#[derive(Clone)]
struct Guide {
    clauses: Clauses,
    model: Vec<u8>,
}

/// What [`Learning`] says before a node of the walk.
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
            nodes: 0,
            walked: 0,
            in_turn: true,
            settings,
            guide: None,
            #[cfg(test)]
            expanded: Vec::new(),
            #[cfg(test)]
            passed_over: 0,
        }
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
    /// the first turn has had its nodes, and the node waits for what comes
    /// after.
    #[inline]
    pub(crate) fn node(&mut self) -> Step {
        if !self.in_turn {
            return Step::Walk;
        }
        if self.turn_left == 0 {
            return Step::TurnOver;
        }
        self.turn_left -= 1;
        self.nodes += 1;
        Step::Walk
    }

    /// The walk handed out a solution.
    pub(crate) fn walked_one(&mut self) {
        self.walked += 1;
    }

    /// The end of the walk's first turn: clause learning guides the walk
    /// from here if it has found few solutions for its nodes, else the
    /// walk goes on alone.
    pub(crate) fn turn_over(&mut self) {
        let sparse = self.nodes > self.settings.nodes_per_solution.saturating_mul(self.walked as u64);
        self.in_turn = false;
        if !sparse {
            return;
        }
        // No clauses where the board has no solution (the walk ends at
        // once) or a killer cage has too many fillings to spell out.
        if let Ok(clauses) = self.root.settled_clauses() {
            self.guide = clauses.map(|clauses| Guide { clauses, model: Vec::new() });
        }
    }

    /// What the walk does with `board`, as `visit` says, and where it
    /// would expand it, passing over it if clause learning, guiding the
    /// walk, finds no solution below it. [`Visit::Refuse`] once `meter`'s
    /// budget is spent.
    #[inline]
    pub(crate) fn visit(&mut self, board: &Board, meter: &mut Meter, visit: Visit) -> Visit {
        let (Some(guide), Visit::Expand) = (self.guide.as_mut(), &visit) else { return visit };
        let visit = guide.visit(board, meter);
        #[cfg(test)]
        match visit {
            Visit::Expand => self.expanded.push(board.clone()),
            Visit::Drop { .. } => self.passed_over += 1,
            Visit::Take | Visit::Refuse => {}
        }
        visit
    }
}

impl Guide {
    /// [`Learning::visit`] of a board the walk would expand.
    fn visit(&mut self, board: &Board, meter: &mut Meter) -> Visit {
        let agrees = || board.cells().zip(&self.model).all(|(digit, &model)| digit.is_none_or(|digit| digit == model));
        if !self.model.is_empty() && agrees() {
            return Visit::Expand;
        }
        match self.clauses.has_model_below(board, meter) {
            Some(true) => {
                self.model = self.clauses.model_digits();
                Visit::Expand
            }
            Some(false) => Visit::Drop { stop: false },
            None => Visit::Refuse,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Settings;
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

    /// With turns of a few nodes each and clause learning guiding the walk
    /// from the first turn's end, however many solutions the walk finds,
    /// `solutions()` hands out the walk's solutions in the walk's order:
    /// whole, and cut short at any point (then the rest, taken by `fold`,
    /// and `count`), and under a time budget. With the walk thick enough,
    /// clause learning never guides it.
    #[test]
    fn solutions_guided_by_clause_learning_are_the_walk_s() {
        let mut guided = 0;
        for (first_turn, nodes_per_solution) in [(1, 0), (3, 0), (2, u64::MAX)] {
            TURNS.with(|s| s.set(Settings { first_turn, nodes_per_solution }));
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
                guided += usize::from(walked.len() > 1 && nodes_per_solution == 0);
            }
        }
        TURNS.with(|s| s.set(super::SETTINGS));
        assert!(guided > 20, "boards of several solutions: {guided}");
    }

    /// A guided walk goes below boards with a solution below them only,
    /// and passes over the others: on random boards of up to a hundred
    /// solutions, with clause learning guiding the walk from its first
    /// node.
    #[test]
    fn a_guided_walk_goes_only_below_boards_with_a_solution() {
        TURNS.with(|s| s.set(Settings { first_turn: 1, nodes_per_solution: 0 }));
        let (mut boards, mut passed_over) = (0, 0);
        for board in random_boards(12) {
            let walked: Vec<Board> = super::super::Solutions::walk_alone(board.clone()).take(101).collect();
            if walked.len() > 100 {
                continue;
            }
            let mut solutions = board.solutions();
            assert_eq!(solutions.by_ref().collect::<Vec<_>>(), walked, "{}", board.as_str());
            let guide = solutions.learning_mut().expect("the general engine");
            for below in &guide.expanded {
                let first = super::super::Solutions::walk_alone(below.clone()).next();
                assert!(first.is_some(), "{} expanded with no solution below", below.as_str());
            }
            passed_over += guide.passed_over;
            boards += 1;
        }
        TURNS.with(|s| s.set(super::SETTINGS));
        assert!(boards > 10 && passed_over > 0, "{boards} boards, {passed_over} passed over");
    }
}
