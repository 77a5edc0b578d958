//! Puzzle generation: [`Generator`] makes an endless, lazy, seeded stream
//! of puzzles with one solution each, for any [`Rules`].
//!
//! ```
//! use lazydoku::generate::{Generator, Symmetry};
//! use lazydoku::{Rules, Shape};
//!
//! let generator = Generator::new(Rules::new(Shape::NINE)).seed(7).symmetry(Symmetry::Rotate180);
//! for puzzle in generator.puzzles().take(2) {
//!     assert!(puzzle.is_unique());
//! }
//! ```
//!
//! Each puzzle starts from a random full grid of the rules. Its cells are
//! then emptied in a random order, a whole orbit of the symmetry at a time,
//! keeping each removal that leaves the solution unique. One pass leaves a
//! minimal puzzle: removing clues never makes a puzzle with several
//! solutions unique again, so no orbit kept could go later either.
//!
//! Uniqueness is checked against the known solution: a second solution of
//! the puzzle without some clues must differ from the first in one of the
//! cells just emptied (otherwise it would solve the puzzle before). So each
//! other digit of those cells is tried in turn and solved for, rather than
//! counting solutions from scratch. On 25x25 boards near uniqueness, where
//! a second solution can hide far from the first, this turns counts of
//! seconds or minutes into searches confined to the emptied cells. Cells
//! whose digit the givens left in their regions force need no search.
//!
//! A 9x9 grid starts from the three boxes on the main diagonal, each in a
//! random order of the digits (they share no row or column); the solver's
//! completion is then moved by a random symmetry of the grid. The grids
//! are varied, though not uniformly drawn from all grids.

use std::fmt;

use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use crate::board::{Board, Clauses, Region, Rules};
use crate::explain::{Ending, Level, Rating};
use crate::random::SplitMix64;
use crate::search;
use crate::search::Budget;

mod random_rules;
#[cfg(feature = "parallel")]
mod speculation;

/// The symmetry of a puzzle's givens: each cell is given or empty together
/// with its images under the symmetry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Symmetry {
    /// No symmetry.
    #[default]
    None,
    /// Turned half a turn about the centre.
    Rotate180,
    /// Turned a quarter turn about the centre (and so half a turn too).
    Rotate90,
    /// Mirrored left to right, across the middle column.
    MirrorLeftRight,
    /// Mirrored top to bottom, across the middle row.
    MirrorTopBottom,
    /// Mirrored across the main diagonal (top left to bottom right).
    Diagonal,
    /// Mirrored across the anti-diagonal (top right to bottom left).
    AntiDiagonal,
    /// Every rotation and mirror of the square at once.
    Full,
}

impl Symmetry {
    /// Every symmetry, for menus and command lines.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::None,
        Symmetry::Rotate180,
        Symmetry::Rotate90,
        Symmetry::MirrorLeftRight,
        Symmetry::MirrorTopBottom,
        Symmetry::Diagonal,
        Symmetry::AntiDiagonal,
        Symmetry::Full,
    ];

    /// The images of cell (`row`, `col`) on a board of side `side`, the
    /// cell itself included: the maps that generate the symmetry, applied
    /// until nothing new comes.
    fn orbit(self, row: usize, col: usize, side: usize) -> Vec<(usize, usize)> {
        type Map = fn(usize, (usize, usize)) -> (usize, usize);
        let rotate_half: Map = |last, (r, c)| (last - r, last - c);
        let rotate_quarter: Map = |last, (r, c)| (c, last - r);
        let left_right: Map = |last, (r, c)| (r, last - c);
        let top_bottom: Map = |last, (r, c)| (last - r, c);
        let diagonal: Map = |_, (r, c)| (c, r);
        let anti_diagonal: Map = |last, (r, c)| (last - c, last - r);
        let generators: &[Map] = match self {
            Symmetry::None => &[],
            Symmetry::Rotate180 => &[rotate_half],
            Symmetry::Rotate90 => &[rotate_quarter],
            Symmetry::MirrorLeftRight => &[left_right],
            Symmetry::MirrorTopBottom => &[top_bottom],
            Symmetry::Diagonal => &[diagonal],
            Symmetry::AntiDiagonal => &[anti_diagonal],
            Symmetry::Full => &[rotate_quarter, diagonal],
        };
        let mut orbit = vec![(row, col)];
        let mut next = 0;
        while next < orbit.len() {
            for map in generators {
                let image = map(side - 1, orbit[next]);
                if !orbit.contains(&image) {
                    orbit.push(image);
                }
            }
            next += 1;
        }
        orbit
    }

    /// The cells of a board of side `side` in orbits, each orbit's cells in
    /// increasing order and the orbits by their first cell.
    fn orbits(self, side: usize) -> Vec<Vec<usize>> {
        let mut seen = vec![false; side * side];
        let mut orbits = Vec::new();
        for cell in 0..side * side {
            if seen[cell] {
                continue;
            }
            let mut orbit: Vec<usize> =
                self.orbit(cell / side, cell % side, side).into_iter().map(|(r, c)| r * side + c).collect();
            orbit.sort_unstable();
            for &c in &orbit {
                seen[c] = true;
            }
            orbits.push(orbit);
        }
        orbits
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Symmetry::None => "none",
            Symmetry::Rotate180 => "rotate180",
            Symmetry::Rotate90 => "rotate90",
            Symmetry::MirrorLeftRight => "mirror-left-right",
            Symmetry::MirrorTopBottom => "mirror-top-bottom",
            Symmetry::Diagonal => "diagonal",
            Symmetry::AntiDiagonal => "anti-diagonal",
            Symmetry::Full => "full",
        })
    }
}

/// A symmetry name that is none of [`Symmetry`]'s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownSymmetry(String);

impl fmt::Display for UnknownSymmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<String> = Symmetry::ALL.iter().map(ToString::to_string).collect();
        write!(f, "unknown symmetry {:?}: expected one of {}", self.0, names.join(", "))
    }
}

impl std::error::Error for UnknownSymmetry {}

/// Why [`Generator::try_puzzle`] made no puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoPuzzle {
    /// The rules have no solution, so there is no grid to take givens from.
    NoSolution,
    /// None of the [`MOST_TRIES`] puzzles made had the level or the
    /// guesses asked for (a 4x4 board never needs expert techniques, and a
    /// floor of givens can leave every puzzle too easy).
    NoneOfTheDifficulty,
    /// The first `tries` puzzles all came down to the floor of
    /// [`Generator::clues`] easier than the level asked for: the givens
    /// the floor keeps leave too little for the level to need. A lower
    /// floor may reach it.
    FloorTooHigh {
        /// The tries made: [`MOST_TRIES`] on 9x9 and smaller boards, fewer
        /// on larger ones (see [`Generator::clues`]).
        tries: u64,
    },
}

impl fmt::Display for NoPuzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoPuzzle::NoSolution => f.write_str("these rules have no solution, so no puzzle"),
            NoPuzzle::NoneOfTheDifficulty => {
                write!(f, "no puzzle of the difficulty asked for came in {MOST_TRIES} tries")
            }
            NoPuzzle::FloorTooHigh { tries } => {
                write!(f, "the floor of givens left each of the first {tries} puzzles easier than the level asked for")
            }
        }
    }
}

impl std::error::Error for NoPuzzle {}

impl std::str::FromStr for Symmetry {
    type Err = UnknownSymmetry;

    /// The names that [`Symmetry`]'s `Display` writes.
    fn from_str(name: &str) -> Result<Symmetry, UnknownSymmetry> {
        Symmetry::ALL.into_iter().find(|s| s.to_string() == name).ok_or_else(|| UnknownSymmetry(name.to_owned()))
    }
}

/// Makes puzzles with one solution for a set of [`Rules`]: seeded, so the
/// same settings give the same puzzles on every machine, and lazy: each
/// puzzle is made when [`Puzzles`] is asked for it.
///
/// By default a puzzle is minimal (no orbit of givens can go without a
/// second solution) with no symmetry; [`Generator::clues`] stops removing
/// givens earlier.
///
/// With the `parallel` feature, a puzzle of side 16 or more tries several
/// removals at a time, one on each thread of the current rayon pool (the
/// global one, a thread per core, unless it is made inside
/// [`rayon::ThreadPool::install`]): each try is a search, near the end
/// of up to seconds. The puzzle is the same whatever the number of
/// threads: a try's answer is used only where trying the removals one at
/// a time would give the same.
#[derive(Clone, Debug)]
pub struct Generator {
    rules: Rules,
    seed: u64,
    symmetry: Symmetry,
    clues: Option<usize>,
    level: Option<Level>,
    guesses: Option<RangeInclusive<usize>>,
    jigsaw: bool,
    killer: bool,
    /// How many cells of each grid are marked even or odd, if any.
    even_odd: Option<usize>,
    /// The nodes each proof of a removal may take, if bounded.
    proof_nodes: Option<u64>,
    /// The peers of each cell under the rules' regions, worked out once.
    peers: Arc<Peers>,
}

/// How many random region maps are drawn for one puzzle, at most, before
/// the generator gives up on the rules: a map has no solution now and then
/// (a region and a row can force a digit twice), rarely many times running.
const MOST_MAPS: usize = 100;

/// The nodes a search may spend on a full grid of a random region map
/// before the map is dropped for another. Maps with grids give one within
/// a few dozen nodes; one without can take seconds to refute.
const GRID_NODES: u64 = 5_000;

/// Mixed into a try's seed for the order in which its cages are joined.
const JOINS: u64 = 0x6A09_E667_F3BC_C908;

/// How many puzzles are made for one position of the stream, at most, when
/// looking for one of a given difficulty.
pub const MOST_TRIES: u64 = 10_000;

/// How many tries in a row may come down to the floor of
/// [`Generator::clues`] easier than the level asked for before
/// [`Generator::try_puzzle`] gives up with [`NoPuzzle::FloorTooHigh`]:
/// [`MOST_TRIES`] on 9x9 and smaller boards, and on larger ones fewer in
/// proportion to the square of the cells, never fewer than 100 (a try's
/// cost grows faster than that). With floors that keep the level out of
/// reach, on one thread: 10,000 9x9 tries took 0.29 s, 1,001 16x16 tries
/// 1.5 s, 167 25x25 tries 4.1 s (docs/performance.md).
fn floor_tries(cells: usize) -> u64 {
    let cells = u64::try_from(cells).unwrap_or(u64::MAX);
    (MOST_TRIES * 81 * 81 / cells.saturating_mul(cells).max(1)).clamp(100, MOST_TRIES)
}

/// Boards this wide or wider are made with logic of the level asked for
/// from the first try (see [`Generator::level`]): their minimal puzzles are
/// nearly all beyond logic, and the most costly to make.
const LOGIC_FIRST_SIDE: usize = 16;

/// How the givens of a try are removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Removal {
    /// While the puzzle keeps one solution, to a minimal puzzle (or to the
    /// floor of [`Generator::clues`]).
    Minimal,
    /// While logic of this level still solves the puzzle.
    Logical(Level),
    /// While logic still solves the puzzle, then the first given whose
    /// removal leaves a puzzle that logic cannot solve and that keeps one
    /// solution: a puzzle beyond logic, not minimal.
    PastLogic,
}

impl Generator {
    /// A generator for `rules`, with seed 0, no symmetry, minimal puzzles.
    #[must_use]
    pub fn new(rules: Rules) -> Generator {
        let peers = Arc::new(Peers::of(&rules));
        Generator {
            rules,
            seed: 0,
            symmetry: Symmetry::None,
            clues: None,
            level: None,
            guesses: None,
            jigsaw: false,
            killer: false,
            even_odd: None,
            proof_nodes: None,
            peers,
        }
    }

    /// The rules the puzzles keep. With [`Generator::jigsaw`] or
    /// [`Generator::killer`], each puzzle adds its own regions or cages to
    /// them.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The seed: the same seed gives the same puzzles.
    #[must_use]
    pub fn seed(mut self, seed: u64) -> Generator {
        self.seed = seed;
        self
    }

    /// The symmetry of the givens.
    #[must_use]
    pub fn symmetry(mut self, symmetry: Symmetry) -> Generator {
        self.symmetry = symmetry;
        self
    }

    /// Minimal puzzles: givens are removed until no orbit of them can go
    /// without a second solution. The default; undoes [`Generator::clues`]
    /// and [`Generator::proof_nodes`].
    #[must_use]
    pub fn minimal(mut self) -> Generator {
        self.clues = None;
        self.proof_nodes = None;
        self
    }

    /// Bounds each proof that a removal keeps one solution to `nodes`: the
    /// search's nodes, or the conflicts of clause learning, which the
    /// longest proofs go to. A removal whose proof runs out keeps its given,
    /// so each puzzle still has one solution but may not be minimal (some
    /// given could go, at a cost the bound refused).
    ///
    /// That is what makes puzzles whose last removals are the hardest
    /// counts come at all: a minimal 25x25 killer puzzle took more than ten
    /// minutes without making one, where on one thread a bound of 2,000
    /// nodes made one of 41 givens in 41 s, and 20,000 one of 26 givens in
    /// 113 s (docs/performance.md). The bound counts work, not time, so the
    /// same seed gives the same puzzles on every machine; each puzzle's
    /// removals then go one at a time rather than several at once, since
    /// which try answers first would otherwise decide what a spent bound
    /// keeps.
    ///
    /// ```
    /// use lazydoku::generate::Generator;
    /// use lazydoku::{Rules, Shape};
    ///
    /// // On 9x9 nearly every removal is settled by propagation alone; on
    /// // 16x16 killers the last ones take searches.
    /// let killer = Generator::new(Rules::new(Shape::new(4, 4))).seed(2).killer();
    /// let minimal = killer.puzzle(0).expect("a puzzle");
    /// let bounded = killer.proof_nodes(5).puzzle(0).expect("a puzzle");
    /// assert!(bounded.is_unique());
    /// assert!(bounded.cells().flatten().count() > minimal.cells().flatten().count());
    /// ```
    #[must_use]
    pub fn proof_nodes(mut self, nodes: u64) -> Generator {
        self.proof_nodes = Some(nodes);
        self
    }

    /// Stops removing givens once at most `clues` are left. A puzzle that
    /// becomes minimal first keeps more.
    ///
    /// With [`Generator::level`], a floor can keep the level out of reach:
    /// puzzles with many givens are mostly easy (of 1,000 9x9 puzzles at 34
    /// givens, 5 were medium; at 40, none). When every try so far came down
    /// to the floor too easy, [`Generator::try_puzzle`] stops with
    /// [`NoPuzzle::FloorTooHigh`]: after [`MOST_TRIES`] on 9x9, and after
    /// fewer on larger boards, whose tries cost more (1,001 on 16x16, 167
    /// on 25x25).
    #[must_use]
    pub fn clues(mut self, clues: usize) -> Generator {
        self.clues = Some(clues);
        self
    }

    /// Only puzzles of this level ([`Board::rate`]'s human difficulty).
    ///
    /// Puzzles are made and rated until one has the level, up to
    /// [`MOST_TRIES`] for each position of the stream. Of 2,000 minimal 9x9
    /// puzzles with half-turn symmetry, 67% were easy, 10% medium, 9% hard,
    /// 3% expert and 10% beyond, so on classic rules a few tries do.
    ///
    /// Where three tries in four or more (from the eighth on) came out
    /// harder than the level, each such try is made again from the same
    /// grid, each given (in a random order, as for minimal puzzles) removed
    /// only if [`Board::explain`] still solves the puzzle with techniques
    /// of the level or easier (it is then unique without a search). Such a
    /// puzzle is not minimal:
    /// some givens could go if logic were allowed more. That is how rules
    /// whose minimal puzzles are beyond the techniques (lines, sums, large
    /// boards) get puzzles of a level at all: 9x9 with rules along lines,
    /// medium puzzles in about a tenth of a second each.
    ///
    /// Boards of 16x16 and more take that road from the first try, for
    /// every level below [`Level::Beyond`]: their minimal puzzles are
    /// nearly all beyond logic, and on 25x25 or 16x16 jigsaw maps one takes
    /// from seconds to minutes to make. A 25x25 puzzle of a level then
    /// comes in 0.07 s (beyond) to 3 s (expert) on one thread, where an
    /// easy one took over two minutes before (docs/performance.md).
    /// Puzzles beyond logic are minimal puzzles, except on those costly
    /// rules (25x25, 16x16 jigsaw maps): there givens are removed while
    /// logic still solves the puzzle, then past it, the first removal that
    /// logic cannot follow and that keeps one solution ending the puzzle,
    /// which keeps more givens than a minimal one.
    ///
    /// ```
    /// use lazydoku::explain::Level;
    /// use lazydoku::generate::Generator;
    /// use lazydoku::{Rules, Shape};
    ///
    /// let generator = Generator::new(Rules::new(Shape::NINE)).seed(1).level(Level::Medium);
    /// assert!(generator.puzzles().take(3).all(|p| p.rate().level() == Level::Medium));
    /// ```
    #[must_use]
    pub fn level(mut self, level: Level) -> Generator {
        self.level = Some(level);
        self
    }

    /// Only puzzles whose guesses ([`Rating::guesses`](crate::explain::Rating::guesses))
    /// are within `guesses`; tried as for [`Generator::level`]. Guesses are
    /// counted up to [`MOST_GUESSES`](crate::explain::MOST_GUESSES), so a
    /// range that starts above it gets no puzzle. Without a level, each try
    /// is a minimal puzzle: from 20 seconds to minutes each on 25x25.
    #[must_use]
    pub fn guesses(mut self, guesses: RangeInclusive<usize>) -> Generator {
        self.guesses = Some(guesses);
        self
    }

    /// Each puzzle on a random jigsaw map of its own, in place of the
    /// rules' boxes (or regions): connected regions as large as the side,
    /// grown from the boxes by random trades of cells. The rules'
    /// diagonals, windows, extra regions and cages stay. Each puzzle's
    /// [`Board::rules`] hold its map, and [`Rules::region_map`] writes it.
    ///
    /// Maps with no full grid are dropped for others. Minimal puzzles come
    /// in milliseconds up to 9x9. On 16x16 maps, proving uniqueness near the
    /// minimum (some 76 givens, against 92 to 98 on boxes) took 9 to 26 s
    /// a puzzle in one measurement, and over 60 s for one seed of four.
    /// [`Generator::clues`] at 85 took a quarter of a second, and at 80
    /// almost 4 s.
    ///
    /// ```
    /// use lazydoku::generate::Generator;
    /// use lazydoku::{Rules, Shape};
    ///
    /// let puzzle = Generator::new(Rules::new(Shape::NINE)).seed(3).jigsaw().puzzle(0).expect("a puzzle");
    /// assert!(puzzle.is_unique());
    /// let map = puzzle.rules().region_map();
    /// assert_ne!(Rules::jigsaw(&map)?, Rules::new(Shape::NINE));
    /// # Ok::<(), lazydoku::RulesError>(())
    /// ```
    #[must_use]
    pub fn jigsaw(mut self) -> Generator {
        self.jigsaw = true;
        self
    }

    /// Killer puzzles: each full grid is cut into cages of 2 to 5
    /// neighbouring cells with distinct digits (a cell left with no free
    /// neighbour makes a cage of one), each with its digits' sum. Givens
    /// are then removed as for any rules, so most puzzles keep none: the
    /// cages alone make the solution unique. [`Rules::cage_map`] writes a
    /// puzzle's cages.
    ///
    /// Nearly every such puzzle is medium (95 of 100 on 9x9; the rest
    /// beyond). With [`Generator::level`] above that, once three tries in
    /// four or more (from the eighth on) came out too easy, each such try
    /// joins touching cages, two at a time in a random order, while logic of
    /// the level still solves it, until it has the level: fewer, larger
    /// cages, as hard killers have. Cages of the rules given to
    /// [`Generator::new`] are never joined; with them, only the tries.
    ///
    /// ```
    /// use lazydoku::generate::Generator;
    /// use lazydoku::{Rules, Shape};
    ///
    /// let puzzle = Generator::new(Rules::new(Shape::new(2, 3))).seed(1).killer().puzzle(0).expect("a puzzle");
    /// assert!(puzzle.is_unique());
    /// let cells: usize = puzzle.rules().cages().map(|(_, cells)| cells.len()).sum();
    /// assert_eq!(cells, 36);
    /// ```
    #[must_use]
    pub fn killer(mut self) -> Generator {
        self.killer = true;
        self
    }

    /// Even-odd puzzles: a quarter of the cells of each full grid, drawn at
    /// random, are marked even or odd by their digits
    /// ([`Rules::with_even`], [`Rules::with_odd`]). Givens are then removed
    /// as for any rules, and the marks let more of them go.
    /// [`Rules::parity_map`] writes a puzzle's marks.
    ///
    /// ```
    /// use lazydoku::generate::Generator;
    /// use lazydoku::{Rules, Shape};
    ///
    /// let puzzle = Generator::new(Rules::new(Shape::new(2, 3))).seed(1).even_odd().puzzle(0).expect("a puzzle");
    /// assert!(puzzle.is_unique());
    /// let map = puzzle.rules().parity_map().expect("marked cells");
    /// assert_eq!(map.chars().filter(|&mark| mark != '.').count(), 9);
    /// # Ok::<(), lazydoku::RulesError>(())
    /// ```
    #[must_use]
    pub fn even_odd(self) -> Generator {
        let quarter = self.rules.shape().cells() / 4;
        self.even_odd_cells(quarter)
    }

    /// Even-odd puzzles as [`Generator::even_odd`], with `cells` cells of
    /// each grid marked (every cell, when the board has fewer). More marks
    /// leave fewer givens.
    ///
    /// ```
    /// use lazydoku::generate::Generator;
    /// use lazydoku::{Rules, Shape};
    ///
    /// let generator = Generator::new(Rules::new(Shape::NINE)).seed(4);
    /// let marked = |g: Generator| g.puzzle(0).and_then(|p| p.rules().parity_map()).map(|m| m.matches(['e', 'o']).count());
    /// assert_eq!(marked(generator.clone().even_odd_cells(40)), Some(40));
    /// assert_eq!(marked(generator.clone().even_odd_cells(100)), Some(81));
    /// let givens = |g: Generator| g.puzzle(0).map(|p| p.cells().flatten().count());
    /// assert!(givens(generator.clone().even_odd_cells(81)) < givens(generator.even_odd_cells(10)));
    /// ```
    #[must_use]
    pub fn even_odd_cells(mut self, cells: usize) -> Generator {
        self.even_odd = Some(cells);
        self
    }

    /// The puzzles, endlessly: the `n`-th is [`Generator::puzzle`]`(n)`.
    /// The iterator ends only for rules with no solution at all.
    pub fn puzzles(&self) -> Puzzles {
        Puzzles { generator: self.clone(), next: 0 }
    }

    /// The puzzle at position `index` of [`Generator::puzzles`], made on its
    /// own: a puzzle depends only on the generator's seed and its position in the
    /// stream, so puzzles can be made in parallel, in any order, with the
    /// same result.
    /// `None` for rules with no solution, or when no puzzle of the
    /// difficulty asked for came in [`MOST_TRIES`]; [`Generator::try_puzzle`]
    /// says which.
    #[must_use]
    pub fn puzzle(&self, index: u64) -> Option<Board> {
        self.try_puzzle(index).ok()
    }

    /// [`Generator::puzzle`], with the reason when there is none.
    ///
    /// # Errors
    ///
    /// [`NoPuzzle::NoSolution`] when the rules have no solution,
    /// [`NoPuzzle::FloorTooHigh`] when the first tries all came down to the
    /// floor of [`Generator::clues`] easier than the level asked for (as
    /// many as [`MOST_TRIES`] on 9x9, fewer on larger boards), and
    /// [`NoPuzzle::NoneOfTheDifficulty`] when no puzzle of the level or
    /// guesses asked for came in [`MOST_TRIES`].
    ///
    /// ```
    /// use lazydoku::explain::Level;
    /// use lazydoku::generate::{Generator, NoPuzzle};
    /// use lazydoku::{Rules, Shape};
    ///
    /// // 4x4 puzzles never need expert techniques.
    /// let expert = Generator::new(Rules::new(Shape::new(2, 2))).level(Level::Expert);
    /// assert_eq!(expert.try_puzzle(0), Err(NoPuzzle::NoneOfTheDifficulty));
    /// ```
    pub fn try_puzzle(&self, index: u64) -> Result<Board, NoPuzzle> {
        if self.level.is_none() && self.guesses.is_none() {
            return self.candidate(random_for(self.seed, index), Removal::Minimal).ok_or(NoPuzzle::NoSolution);
        }
        let fits = |puzzle: &Board, level: Option<Level>| {
            level.is_none_or(|level| level == self.level.unwrap_or(level))
                && self.guesses.as_ref().is_none_or(|range| range.contains(&crate::explain::guesses(puzzle).0))
        };
        // Tries whose puzzle came out harder, or easier, than the level
        // asked for.
        let (mut too_hard_tries, mut too_easy_tries) = (0, 0);
        // Whether every try so far came down to the floor of givens too
        // easy (beyond included, which `too_easy` leaves out).
        let mut all_easy_at_floor = true;
        let side = self.rules.shape().side();
        let first_removal = match self.level {
            Some(level) if level < Level::Beyond && side >= LOGIC_FIRST_SIDE => Removal::Logical(level),
            Some(Level::Beyond) if self.minimal_is_costly() => Removal::PastLogic,
            _ => Removal::Minimal,
        };
        for attempt in 0..MOST_TRIES {
            // The first try is the puzzle made without a difficulty asked
            // for (or, on large boards, with logic of the level).
            let seed = self.seed ^ attempt.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            // No puzzle at all: the rules have no solution.
            let puzzle = self.candidate(random_for(seed, index), first_removal).ok_or(NoPuzzle::NoSolution)?;
            let level = self.level.map(|_| Rating::logical(&puzzle).level());
            if fits(&puzzle, level) {
                return Ok(puzzle);
            }
            // Too hard, as three in four tries or more were (of eight or
            // more): the same grid again, with givens removed only while
            // logic of the level asked for still solves the puzzle.
            // Checking that takes the logical steps at each removal, where
            // a minimal puzzle takes one count, so it is done only where
            // minimal puzzles keep missing the level by being too hard
            // (rules along lines and sums, mostly, whose minimal puzzles
            // are beyond logic). Elsewhere the next try is cheaper.
            let too_hard = self.level.zip(level).filter(|&(wanted, got)| wanted < got && wanted < Level::Beyond);
            too_hard_tries += u64::from(too_hard.is_some());
            let retry = too_hard.filter(|_| first_removal == Removal::Minimal && most_of(too_hard_tries, attempt));
            if let Some((wanted, _)) = retry {
                let puzzle =
                    self.candidate(random_for(seed, index), Removal::Logical(wanted)).ok_or(NoPuzzle::NoSolution)?;
                if fits(&puzzle, Some(Rating::logical(&puzzle).level())) {
                    return Ok(puzzle);
                }
            }
            // Too easy, as three in four killer tries or more were: cages
            // joined until the puzzle has the level (nearly every minimal
            // killer puzzle is medium). Only cages the generator cut: the
            // rules' own stay as they are.
            let too_easy = self.level.zip(level).filter(|&(wanted, got)| got < wanted && wanted < Level::Beyond);
            too_easy_tries += u64::from(too_easy.is_some());
            let joining = self.killer && self.rules.cages().next().is_none();
            if let Some((wanted, _)) = too_easy.filter(|_| joining && most_of(too_easy_tries, attempt)) {
                let mut random = random_for(seed ^ JOINS, index);
                let joined = random_rules::joined_cages(&puzzle, wanted, &mut random).ok_or(NoPuzzle::NoSolution)?;
                if fits(&joined, Some(Rating::logical(&joined).level())) {
                    return Ok(joined);
                }
            }
            // A floor that stops every try before the level is reached
            // would have the tries run to the last.
            let at_floor = self.clues.is_some_and(|floor| side * side - puzzle.empty_cells() <= floor);
            let easier = self.level.zip(level).is_some_and(|(wanted, got)| got < wanted);
            all_easy_at_floor &= at_floor && easier;
            if all_easy_at_floor && attempt + 1 >= floor_tries(side * side) {
                return Err(NoPuzzle::FloorTooHigh { tries: attempt + 1 });
            }
        }
        Err(NoPuzzle::NoneOfTheDifficulty)
    }

    /// Whether a minimal puzzle of these rules takes long to make: its last
    /// removals are counts at the edge of uniqueness, which took minutes
    /// for one 25x25 puzzle and 9 to 26 s (once over 60 s) for one on a
    /// 16x16 jigsaw map, against a tenth of a second on 16x16 boxes.
    fn minimal_is_costly(&self) -> bool {
        let side = self.rules.shape().side();
        side >= 25 || (self.jigsaw && side >= 16)
    }

    /// One puzzle of the rules, from the random numbers `random`, its
    /// givens removed as `removal` says.
    fn candidate(&self, mut random: SplitMix64, removal: Removal) -> Option<Board> {
        let (empty, grid) = self.rules_and_grid(&mut random)?;
        let side = self.rules.shape().side();
        let mut orbits = self.symmetry.orbits(side);
        random.shuffle(&mut orbits);
        let digits: Vec<u8> = grid.cells().map(|digit| digit.unwrap_or(0)).collect();
        // A random map has peers of its own; cages are not regions.
        let own;
        let peers = if self.jigsaw {
            own = Peers::of(&empty.rules());
            &own
        } else {
            &*self.peers
        };
        let mut kept = vec![true; side * side];
        let mut clues = side * side;
        let learned = Learned::new(&empty);
        // Set by a removal past logic: the puzzle is then done. (Atomic
        // only because the closure is shared with the parallel removal,
        // which removals past logic never take.)
        let past_logic = AtomicBool::new(false);
        // Whether the givens `kept` can lose `orbit` and keep one solution.
        let removable = |kept: &[bool], orbit: &[usize]| {
            let mut kept = kept.to_vec();
            for &cell in orbit {
                kept[cell] = false;
            }
            // Cells whose digit the givens left in their regions force
            // can go without a search: no other solution appears (and
            // logic places them with a single).
            if orbit.iter().all(|&cell| peers.force(cell, &digits, &kept, side)) {
                return true;
            }
            let puzzle = givens_of(&empty, &digits, &kept);
            match removal {
                // Sound steps that fill every cell leave one solution, so no
                // search is needed.
                Removal::Logical(level) => solved_within(&puzzle, level),
                Removal::Minimal => unique_without(&puzzle, &digits, orbit, learned.as_ref(), self.proof_nodes),
                Removal::PastLogic => {
                    solved_within(&puzzle, Level::Expert) || {
                        let unique = unique_without(&puzzle, &digits, orbit, learned.as_ref(), self.proof_nodes);
                        past_logic.store(unique, Ordering::Relaxed);
                        unique
                    }
                }
            }
        };
        // Large puzzles test several removals at a time, with the same
        // result as testing them one by one (`speculation` says how, from
        // uniqueness being monotone in the givens; logic is not known to
        // be, so removals under a level go one at a time, and so do removals
        // whose proofs are bounded: a spent bound is no answer either way).
        #[cfg(feature = "parallel")]
        if removal == Removal::Minimal
            && self.proof_nodes.is_none()
            && side >= speculation::SIDE
            && rayon::current_num_threads() > 1
        {
            let kept = speculation::remove(&orbits, kept, clues, self.clues, &removable);
            return Some(givens_of(&empty, &digits, &kept));
        }
        for orbit in &orbits {
            if self.clues.is_some_and(|floor| clues <= floor) {
                break;
            }
            if removable(&kept, orbit) {
                for &cell in orbit {
                    kept[cell] = false;
                }
                clues -= orbit.len();
                if past_logic.load(Ordering::Relaxed) {
                    break;
                }
            }
        }
        Some(givens_of(&empty, &digits, &kept))
    }

    /// The empty board of one puzzle's rules (with a random map or cages
    /// when asked for), and a random full grid of them.
    fn rules_and_grid(&self, random: &mut SplitMix64) -> Option<(Board, Board)> {
        let (mut empty, mut grid) = if self.jigsaw {
            let shape = self.rules.shape();
            (0..MOST_MAPS).find_map(|_| {
                let map = random_rules::map_text(&random_rules::region_map(shape, random));
                let empty = Board::empty_with(&self.rules.clone().with_regions(&map).ok()?);
                let grid = self.full_grid_within(&empty, random, Budget::nodes(GRID_NODES))?;
                Some((empty, grid))
            })?
        } else {
            let empty = Board::empty_with(&self.rules);
            let grid = self.full_grid(&empty, random)?;
            (empty, grid)
        };
        if self.killer {
            let rules = empty.rules().with_cage_list(random_rules::cages(&grid, random));
            grid = rules.parse(grid.as_str()).ok()?;
            empty = Board::empty_with(&rules);
        }
        if let Some(marked) = self.even_odd {
            let mut cells: Vec<usize> = (0..grid.shape().cells()).collect();
            random.shuffle(&mut cells);
            cells.truncate(marked);
            cells.sort_unstable();
            let (even, odd): (Vec<usize>, Vec<usize>) =
                cells.into_iter().partition(|&cell| grid.get(cell).is_some_and(|digit| digit % 2 == 0));
            let rules = empty.rules().with_even(&even).ok()?.with_odd(&odd).ok()?;
            grid = rules.parse(grid.as_str()).ok()?;
            empty = Board::empty_with(&rules);
        }
        Some((empty, grid))
    }

    /// A random full grid of `empty`'s rules, with its top row a random
    /// permutation, found within `budget` nodes.
    fn full_grid_within(&self, empty: &Board, random: &mut SplitMix64, budget: Budget) -> Option<Board> {
        let side = self.rules.shape().side();
        let mut digits: Vec<u8> = (1..=u8::try_from(side).ok()?).collect();
        random.shuffle(&mut digits);
        let top = digits.iter().enumerate().try_fold(empty.clone(), |board, (cell, &digit)| board.place(cell, digit));
        top.ok()?.solve_within(budget).0
    }

    /// A random full grid of the rules, whose empty board is `empty`.
    fn full_grid(&self, empty: &Board, random: &mut SplitMix64) -> Option<Board> {
        if !empty.uses_general_engine() {
            // The three boxes on the main diagonal share no row or column,
            // so each takes any order of the digits, and every such start
            // was completed in a test of 200,000 (the shuffled search below
            // stays as the fallback). The completion that the solver finds
            // first is then moved by a random symmetry of the grid, so the
            // grids are of every kind. This takes a fifth of the time of a
            // search in a random order from the empty board.
            let mut start = empty.clone();
            for corner in [0, 30, 60] {
                let mut digits: [u8; 9] = [1, 2, 3, 4, 5, 6, 7, 8, 9];
                random.shuffle(&mut digits);
                for (i, digit) in digits.into_iter().enumerate() {
                    start.put_given(corner + i / 3 * 9 + i % 3, 1 << (digit - 1));
                }
            }
            if let Some(grid) = start.solve() {
                return Some(grid.transformed(random.next_u64()));
            }
            return search::shuffled_dfs(empty.clone(), Board::children, random.next_u64()).find(Board::is_complete);
        }
        // Large boards can stall a search in a random order. The top row
        // in a random order, then the restarted search of `solve`, finds
        // one at once; rules under which that row fails (cages) get a few
        // more tries, then the empty board's own solution.
        let side = self.rules.shape().side();
        for _ in 0..8 {
            let mut digits: Vec<u8> = (1..=u8::try_from(side).ok()?).collect();
            random.shuffle(&mut digits);
            let top =
                digits.iter().enumerate().try_fold(empty.clone(), |board, (cell, &digit)| board.place(cell, digit));
            if let Some(grid) = top.ok().and_then(|board| board.solve()) {
                return Some(grid);
            }
        }
        empty.solve()
    }
}

/// `empty` with the digits of a solution of its rules, `digits`, in the
/// cells that `kept` marks. They are placed without the checks of
/// [`Board::place`], which a solution's digits pass: a puzzle is built for
/// every given tried, and on 9x9 the checks cost more than the count.
fn givens_of(empty: &Board, digits: &[u8], kept: &[bool]) -> Board {
    let digits: Vec<u8> = digits.iter().zip(kept).map(|(&digit, &kept)| if kept { digit } else { 0 }).collect();
    empty.with_solution_digits(&digits)
}

/// The cells that share a region with each cell, flattened: the peers of
/// cell `c` are `cells[starts[c]..starts[c + 1]]`.
struct Peers {
    cells: Vec<u16>,
    starts: Vec<usize>,
}

/// Derived from the rules, which a generator shows already: the table
/// itself, thousands of cells long, would bury the rest.
impl fmt::Debug for Peers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Peers").field("cells", &(self.starts.len() - 1)).finish_non_exhaustive()
    }
}

impl Peers {
    fn of(rules: &Rules) -> Peers {
        let count = rules.shape().cells();
        let mut each: Vec<Vec<u16>> = vec![Vec::new(); count];
        for (_, region) in rules.regions() {
            for &cell in &region {
                each[cell].extend(region.iter().filter(|&&other| other != cell).filter_map(|&o| u16::try_from(o).ok()));
            }
        }
        let mut starts = Vec::with_capacity(count + 1);
        let mut cells = Vec::new();
        for mut peers in each {
            peers.sort_unstable();
            peers.dedup();
            starts.push(cells.len());
            cells.extend(peers);
        }
        starts.push(cells.len());
        Peers { cells, starts }
    }

    /// Whether the kept givens among `cell`'s peers hold every digit but
    /// `cell`'s own, so that they force it: any solution of the puzzle
    /// without `cell` has its digit there.
    fn force(&self, cell: usize, digits: &[u8], kept: &[bool], side: usize) -> bool {
        let seen = self.cells[self.starts[cell]..self.starts[cell + 1]]
            .iter()
            .map(|&peer| usize::from(peer))
            .filter(|&peer| kept[peer])
            .fold(0u32, |seen, peer| seen | 1 << digits[peer]);
        (seen | 1 << digits[cell]) >> 1 == (1 << side) - 1
    }
}

/// The side from which removals that a short search leaves open go to
/// clause learning that keeps what it learns ([`Learned`]): below it every
/// check is quick.
const LEARNED_SIDE: usize = 16;

/// Nodes of the search that each removal check gets before it goes to
/// clause learning ([`Learned`], or [`has_solution_near`]'s): enough for
/// the second solutions found at once and the removals that propagation
/// settles. With clause learning heading for the grid, a longer search
/// finds little that it would not find sooner: 100 rather than 1,000 made
/// the same puzzles in up to a fifth less time (16x16 killers, 20x20
/// boxes), level elsewhere (docs/performance.md, "Removal checks that
/// head for the grid").
const QUICK_NODES: u64 = 100;

/// The clauses of one grid's empty board, for the removal checks that a
/// short search leaves open. Every check of the grid asks about the same
/// clauses with other givens, as assumptions, so what one proof learns is
/// kept and shortens the next, where a count from scratch builds its
/// clauses anew and learns it all again. One set of clauses per thread
/// that asks at once.
struct Learned {
    empty: Board,
    idle: Mutex<Vec<Clauses>>,
}

impl Learned {
    /// `None` below [`LEARNED_SIDE`], on rules without killer cages or
    /// jigsaw regions, and for killer cages of too many fillings to spell
    /// out as clauses. Killer and jigsaw puzzles lose nearly all their
    /// givens, each removal a proof that no second solution exists, which
    /// is what learned clauses shorten. Late removals from other grids
    /// mostly find a second solution, which the search finds sooner than
    /// clause learning under hundreds of assumptions does: a 25x25 grid
    /// took 20 s with the search alone and 45 s with this.
    fn new(empty: &Board) -> Option<Learned> {
        let rules = empty.rules();
        let proofs_dominate =
            rules.cages().next().is_some() || rules.regions().any(|(region, _)| region == Region::Jigsaw);
        if empty.shape().side() < LEARNED_SIDE || !proofs_dominate {
            return None;
        }
        let mut empty = empty.clone();
        empty.settle().ok()?;
        let first = empty.clauses()?;
        Some(Learned { empty, idle: Mutex::new(vec![first]) })
    }

    /// Whether the grid's rules have a solution with the digits of
    /// `placed` and without `excluded`'s; `None` when `conflicts` ran out
    /// first. The search heads for the grid `solution` (see
    /// [`has_solution_near`]).
    fn has_solution(
        &self,
        placed: impl IntoIterator<Item = (usize, u8)>,
        excluded: (usize, u8),
        solution: &[u8],
        conflicts: u64,
    ) -> Option<bool> {
        let taken = self.idle.lock().unwrap_or_else(PoisonError::into_inner).pop();
        // Not reached without a set: the first was built. "Maybe" keeps the given.
        let mut clauses = taken.or_else(|| self.empty.clauses())?;
        clauses.prefer(solution);
        let answer = clauses.has_model(placed, excluded, conflicts);
        self.idle.lock().unwrap_or_else(PoisonError::into_inner).push(clauses);
        answer
    }
}

/// Whether `missed` tries of the first `attempt + 1` make three in four or
/// more, from the eighth try on: enough to take a costlier kind of try.
fn most_of(missed: u64, attempt: u64) -> bool {
    attempt >= 7 && 4 * missed >= 3 * (attempt + 1)
}

/// Whether [`Board::explain`] solves `puzzle` with no technique above
/// `level`: the rating's level is then `level` or below. The steps stop at
/// the first one above it, which the rating would count too.
fn solved_within(puzzle: &Board, level: Level) -> bool {
    let mut steps = puzzle.explain();
    steps.by_ref().all(|step| step.technique().level() <= level) && steps.ending() == Some(Ending::Solved)
}

/// Whether `puzzle` (which the grid `solution` solves, its digits from 1
/// row by row) has no other solution, given that it has none with
/// `solution`'s digits in every cell of `emptied`: another solution must
/// differ from `solution` in one of those cells. For each cell in turn, a
/// solution is looked for without `solution`'s digit there, the cells
/// before it filled with `solution`'s digits: by a search, or, past
/// [`QUICK_NODES`] of it, by clause learning (`learned`'s where there is
/// one; without it, only where the checks are unbounded). Each of those
/// searches may take `proof_nodes` (nodes, or conflicts of `learned`); one
/// that runs out answers `false`, as if it had found another solution.
fn unique_without(
    puzzle: &Board,
    solution: &[u8],
    emptied: &[usize],
    learned: Option<&Learned>,
    proof_nodes: Option<u64>,
) -> bool {
    let nodes = proof_nodes.unwrap_or(u64::MAX);
    let mut base = puzzle.clone();
    for (k, &cell) in emptied.iter().enumerate() {
        let Some(&digit) = solution.get(cell).filter(|&&digit| digit != 0) else { return false };
        if let Some(other) = base.excluding(cell, digit) {
            // Whether another solution may exist: found, or not ruled out.
            let maybe = match (learned, proof_nodes) {
                (None, Some(_)) => other.count_solutions_within(1, Budget::nodes(nodes)) != (0, None),
                (learned, _) => match other.count_solutions_within(1, Budget::nodes(QUICK_NODES.min(nodes))) {
                    (0, Some(_)) => match learned {
                        Some(learned) => {
                            let givens = puzzle.cells().enumerate().filter_map(|(c, d)| Some((c, d?)));
                            let before = emptied[..k].iter().map(|&c| (c, solution[c]));
                            learned.has_solution(givens.chain(before), (cell, digit), solution, nodes) != Some(false)
                        }
                        None => has_solution_near(&other, solution),
                    },
                    (found, _) => found > 0,
                },
            };
            if maybe {
                return false;
            }
        }
        match base.place(cell, digit) {
            Ok(next) => base = next,
            Err(_) => return false,
        }
    }
    true
}

/// Whether `board`, a puzzle less a digit of the grid `solution` in one
/// cell, has a solution, by clause learning that decides each cell toward
/// `solution`'s digit. Near the edge of uniqueness a second solution is
/// often `solution` with a few cells changed (an unavoidable set), which
/// that finds soon after its first conflict; the searches that find none
/// are proofs, which the order of the decisions changes little. The same
/// puzzles come in up to a fifth less time on 25x25 boxes and 16x16
/// jigsaws, level on some grids (docs/performance.md, "Removal checks
/// that head for the grid").
fn has_solution_near(board: &Board, solution: &[u8]) -> bool {
    match board.settled_clauses() {
        Ok(Some(mut clauses)) => {
            clauses.prefer(solution);
            clauses.count(1, &mut search::Meter::new(Budget::UNLIMITED)).0 > 0
        }
        // Rules that clause learning does not take: the search alone.
        Ok(None) => board.count_solutions(1) > 0,
        Err(()) => false,
    }
}

/// The puzzles of a [`Generator`], one at a time. Built by
/// [`Generator::puzzles`].
#[derive(Clone, Debug)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct Puzzles {
    generator: Generator,
    next: u64,
}

impl Iterator for Puzzles {
    type Item = Board;

    fn next(&mut self) -> Option<Board> {
        let puzzle = self.generator.puzzle(self.next)?;
        self.next += 1;
        Some(puzzle)
    }
}

/// The random numbers of puzzle `index` of `seed`.
fn random_for(seed: u64, index: u64) -> SplitMix64 {
    let mut random = SplitMix64::new(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    random.next_u64();
    random
}
