//! [`Rating`]: how hard a puzzle is, by search effort and by the
//! techniques a person needs.

use std::cell::Cell;
use std::fmt;

use super::{Ending, Explain, Technique};
use crate::board::Board;
use crate::search;

/// A puzzle's named difficulty: the level of the hardest technique its
/// logical solution needs ([`Technique::level`]), or [`Level::Beyond`]
/// when the techniques of [`Technique::ALL`] do not solve it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Level {
    /// Singles only.
    Easy,
    /// Locked candidates, pairs and triples, cage combinations, and innies
    /// and outies.
    Medium,
    /// Quads, X-wings, swordfish, wings and uniqueness.
    Hard,
    /// Jellyfish, colouring and chains.
    Expert,
    /// More than these techniques: logic stops and a guess is needed.
    Beyond,
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 5] = [Level::Easy, Level::Medium, Level::Hard, Level::Expert, Level::Beyond];

    /// The level's name in lower case, as the command line writes it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
            Level::Beyond => "beyond",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level's name that is none of [`Level::ALL`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownLevel(pub String);

impl fmt::Display for UnknownLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown level `{}`: expected easy, medium, hard, expert or beyond", self.0)
    }
}

impl std::error::Error for UnknownLevel {}

impl std::str::FromStr for Level {
    type Err = UnknownLevel;

    fn from_str(name: &str) -> Result<Level, UnknownLevel> {
        Level::ALL
            .into_iter()
            .find(|level| level.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| UnknownLevel(name.to_owned()))
    }
}

/// How hard a puzzle is, two ways: made by [`Board::rate`].
///
/// - Search effort: [`Rating::guesses`], the guesses of a fixed
///   depth-first search.
/// - Human difficulty: the hardest technique of the puzzle's logical
///   solution ([`Board::explain`]), the sum of its steps' scores, and the
///   level of that technique.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rating {
    guesses: usize,
    solutions: usize,
    hardest: Option<Technique>,
    score: u32,
    steps: usize,
    ending: Ending,
}

impl Rating {
    pub(crate) fn of(board: &Board) -> Rating {
        let (guesses, solutions) = guesses(board);
        Rating { guesses, solutions, ..Rating::logical(board) }
    }

    /// The human side of the rating alone (guesses and solutions left at 0).
    pub(crate) fn logical(board: &Board) -> Rating {
        let mut explain = Explain::new(board);
        let (mut hardest, mut score, mut steps) = (None, 0, 0);
        for step in explain.by_ref() {
            let technique = step.technique();
            // By level first: scores are not in the order of levels (simple
            // colouring, expert, scores below the XY-wing, hard), and a
            // puzzle's level is that of the hardest step it needs.
            let rank = |t: Technique| (t.level(), t.score());
            hardest =
                Some(hardest.map_or(technique, |h: Technique| if rank(technique) > rank(h) { technique } else { h }));
            score += technique.score();
            steps += 1;
        }
        let ending = explain.ending().unwrap_or(Ending::Stuck { empty: board.empty_cells() });
        Rating { guesses: 0, solutions: 0, hardest, score, steps, ending }
    }

    /// The guesses of the search that counts the puzzle's solutions up to
    /// two: depth-first over [`Board::children`], each child built at a
    /// branch of two or more candidates counting as one guess. 0 for a
    /// puzzle that propagation (singles and locked candidates, and on
    /// large boards pairs and triples) solves alone. Comparable in spirit
    /// to tdoku's guess count, not equal to it: tdoku propagates more.
    ///
    /// Counted up to [`MOST_GUESSES`]: a puzzle rated with that many takes
    /// at least that many.
    #[must_use]
    pub fn guesses(&self) -> usize {
        self.guesses
    }

    /// The number of solutions, counted up to 2.
    #[must_use]
    pub fn solutions(&self) -> usize {
        self.solutions
    }

    /// The hardest technique the logical solution used: of the highest
    /// level ([`Technique::level`]), and of those the highest score.
    /// `None` when it took no step.
    #[must_use]
    pub fn hardest(&self) -> Option<Technique> {
        self.hardest
    }

    /// The sum of the scores ([`Technique::score`]) of every step of the
    /// logical solution, as far as it went.
    #[must_use]
    pub fn score(&self) -> u32 {
        self.score
    }

    /// The number of logical steps taken.
    #[must_use]
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// Whether logic alone solved the puzzle.
    #[must_use]
    pub fn is_solved_by_logic(&self) -> bool {
        self.ending == Ending::Solved
    }

    /// How the logical solution ended.
    #[must_use]
    pub fn ending(&self) -> Ending {
        self.ending
    }

    /// The level: the hardest technique's when logic solved the puzzle,
    /// [`Level::Beyond`] otherwise.
    #[must_use]
    pub fn level(&self) -> Level {
        match (self.ending, self.hardest) {
            (Ending::Solved, Some(technique)) => technique.level(),
            (Ending::Solved, None) => Level::Easy,
            _ => Level::Beyond,
        }
    }
}

/// The most guesses [`guesses`] counts: the search stops there, and the
/// puzzle's solutions are counted by [`Board::count_solutions`] instead.
///
/// The plain search behind the count grows exponentially on large puzzles
/// near the edge of uniqueness: a 25x25 puzzle of 280 givens took 1,767,184
/// guesses (22 s), another ran past 5 minutes. The forum's hardest 9x9
/// puzzles take at most 2,526 (of the 48,766 of `puzzles5_forum_hardest_1905_11+`);
/// 100,000 take about 1.3 s on 25x25; killer cages make each guess
/// dearer: 4 to 6 s on the bundled 16x16 killers, 8 to 13 s on the 25x25
/// ones.
pub const MOST_GUESSES: usize = 100_000;

/// The guesses of the fixed search of [`Rating::guesses`] (up to
/// [`MOST_GUESSES`]), and the puzzle's solutions, counted up to 2: the
/// search-effort measure alone, without the logical steps that
/// [`Board::rate`] also follows.
///
/// ```
/// use lazydoku::Board;
///
/// let board: Board = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......".parse()?;
/// let (guesses, solutions) = lazydoku::explain::guesses(&board);
/// assert_eq!(guesses, board.rate().guesses());
/// assert_eq!(solutions, 1);
/// # Ok::<(), lazydoku::ParseError>(())
/// ```
#[must_use]
pub fn guesses(board: &Board) -> (usize, usize) {
    let guesses = Cell::new(0);
    let mut solutions = 0;
    let nodes = search::dfs(board.clone(), |b: &Board| {
        let children = b.children();
        if children.remaining().len() > 1 {
            guesses.set(guesses.get() + children.remaining().len());
        }
        children
    });
    for node in nodes {
        if guesses.get() >= MOST_GUESSES {
            return (MOST_GUESSES, board.count_solutions(2));
        }
        if node.is_complete() {
            solutions += 1;
            if solutions == 2 {
                break;
            }
        }
    }
    (guesses.get(), solutions)
}
