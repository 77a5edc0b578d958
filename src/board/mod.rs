//! The immutable, string-backed [`Board`] and everything it answers.

mod candidates;
mod children;
mod clauses;
mod conflict;
mod engine;
mod general;
#[cfg(feature = "parallel")]
mod in_order;
mod learning;
mod nine;
mod relation;
mod residual;
mod rules;
mod shape;
mod solutions;
mod spare;
mod sum;
mod transform;
mod weighted;

use std::fmt;
use std::hash::{Hash, Hasher};

use engine::{Engine, Engines};
use general::General;
use nine::{FailedGuesses, Nine};

use crate::search::{Budget, Exhausted, Meter};

pub use candidates::{Candidates, Digits};
pub use children::Children;
pub(crate) use clauses::Clauses;
pub use conflict::{Conflict, SumKind};
pub(crate) use conflict::{OnlyAllowed, SameClassLine, SumMismatch};
#[cfg(feature = "parallel")]
pub use in_order::BatchesInOrder;
pub(crate) use relation::Broken;
pub use relation::{Indexer, Relation};
pub(crate) use rules::Counted;
use rules::SharedGeometry;
pub use rules::{Rules, RulesError};
pub use shape::{MAX_SIDE, Region, Shape};
pub use solutions::Solutions;
pub use sum::ClassLine;
pub use transform::Turn;

/// Every solution of a board, on every core: built by
/// [`Board::par_solutions`].
#[cfg(feature = "parallel")]
#[derive(Clone, Debug)]
#[must_use = "parallel iterators are lazy and do nothing unless consumed"]
pub struct ParSolutions {
    board: Board,
}

#[cfg(feature = "parallel")]
impl rayon::iter::ParallelIterator for ParSolutions {
    type Item = Board;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: rayon::iter::plumbing::UnindexedConsumer<Board>,
    {
        use rayon::iter::ParallelBridge;

        if learning::comes_thick(&self.board) {
            crate::search::par_dfs(self.board, Board::children as fn(&Board) -> Children)
                .filter(Board::is_complete as fn(&Board) -> bool)
                .drive_unindexed(consumer)
        } else {
            self.board.solutions().par_bridge().drive_unindexed(consumer)
        }
    }
}

pub(crate) use candidates::digit_of;
pub(crate) use general::bits64;
pub(crate) use nine::MAX_DIRECT;
pub(crate) use shape::{Cage, Geometry};
use sum::LineBreak;
pub(crate) use sum::{EqualSumKind, LineRule, contribution, digits_within};

/// The text byte of an empty cell.
pub(crate) const EMPTY: u8 = b'.';

/// Text bytes by digit: `.` for 0 (empty), then `1-9`, then `A-P`. The
/// one alphabet of the crate: [`Shape::symbol`], [`digit_of_symbol`] and
/// the parser all read it from here.
pub(crate) const SYMBOLS: &[u8; MAX_SIDE + 1] = b".123456789ABCDEFGHIJKLMNOP";

/// The digit a text byte of [`SYMBOLS`] stands for; `None` for an empty
/// cell or any other byte.
pub(crate) const fn digit_of_symbol(symbol: u8) -> Option<u8> {
    match symbol {
        b'1'..=b'9' => Some(symbol - b'0'),
        b'A'..=b'P' => Some(symbol - b'A' + 10),
        _ => None,
    }
}

/// Propagation found an empty cell with no candidate, or a digit with no
/// place left in some region.
#[derive(Debug)]
pub(crate) struct Contradiction;

/// An immutable Sudoku board, held as its text.
///
/// The text is one character per cell, row by row: `1-9` then `A-P` for the
/// digits 1 to 25, and `.` for an empty cell. [`Board::as_str`] returns it
/// without allocating. Beside the text, each board keeps the candidates of
/// every cell, so that questions about the board are answered without
/// rescanning it.
///
/// Boards never change. [`Board::place`] returns a new board, and
/// [`Board::children`] yields new boards lazily, one per candidate of the
/// most constrained cell, each already propagated (naked and hidden singles,
/// locked candidates). Equality and hashing look at the shape and the text only.
///
/// A 9x9 board keeps everything inline: `size_of::<Board>()` is 208 bytes
/// on 64-bit targets (81 bytes of text, 27 band masks, and bookkeeping), and a
/// depth-first search over 9x9 boards allocates nothing per node. Boards of
/// other shapes keep their cells on the heap.
///
/// # Example
///
/// ```
/// use lazydoku::Board;
///
/// let board: Board = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......".parse()?;
/// let solution = board.solve().expect("this puzzle from Norvig's essay has one solution");
/// assert!(solution.is_complete());
/// assert_eq!(solution.as_str().len(), 81);
/// # Ok::<(), lazydoku::ParseError>(())
/// ```
pub struct Board {
    engine: Engines,
}

impl Clone for Board {
    #[inline]
    fn clone(&self) -> Board {
        Board { engine: self.engine.clone() }
    }

    #[inline]
    fn clone_from(&mut self, source: &Board) {
        self.engine.clone_from(&source.engine);
    }
}

impl Board {
    /// The board of `shape` with every cell empty.
    ///
    /// ```
    /// use lazydoku::{Board, Shape};
    ///
    /// let empty = Board::empty(Shape::new(2, 2));
    /// assert_eq!(empty.as_str(), "................");
    /// assert_eq!(empty.solutions().count(), 288);
    /// ```
    #[must_use]
    pub fn empty(shape: Shape) -> Board {
        // Directly, not through `Rules`: every puzzle read starts here.
        let engine = if shape == Shape::NINE {
            Engines::Nine(Nine::empty())
        } else {
            Engines::General(General::empty(SharedGeometry::Classic(shape.geometry())))
        };
        Board { engine }
    }

    /// The board of `rules` with every cell empty: a jigsaw, windoku or any
    /// other [`Rules`].
    ///
    /// ```
    /// use lazydoku::{Board, Rules, Shape};
    ///
    /// let x = Rules::new(Shape::new(2, 2)).with_diagonals();
    /// assert_eq!(Board::empty_with(&x).solutions().count(), 48);
    /// assert_eq!(Board::empty_with(&x).rules(), x);
    /// ```
    #[must_use]
    pub fn empty_with(rules: &Rules) -> Board {
        match rules.geometry() {
            SharedGeometry::Classic(geometry) => Board::empty(geometry.shape),
            custom @ SharedGeometry::Custom(_) => Board { engine: Engines::General(General::empty(custom.clone())) },
        }
    }

    /// The rules of this board.
    #[must_use]
    pub fn rules(&self) -> Rules {
        match &self.engine {
            Engines::Nine(_) => Rules::new(Shape::NINE),
            Engines::General(general) => Rules::from_geometry(general.geometry().clone()),
        }
    }

    /// The units and peers of this board's rules.
    pub(crate) fn geometry(&self) -> &Geometry {
        match &self.engine {
            Engines::Nine(_) => Shape::NINE.geometry(),
            Engines::General(general) => general.geometry(),
        }
    }

    /// The board's shape.
    #[must_use]
    pub fn shape(&self) -> Shape {
        self.engine.shape()
    }

    /// The text as bytes, one per cell: what the formats write.
    pub(crate) fn text(&self) -> &[u8] {
        self.engine.text()
    }

    /// The text: one character per cell, row by row, `.` for empty.
    #[must_use]
    #[expect(clippy::missing_panics_doc, reason = "the text holds only ASCII symbols")]
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(self.text()).expect("the text holds only ASCII symbols")
    }

    /// The digit at `cell` (`row * side + col`), or `None` when it is empty
    /// or off the board.
    #[must_use]
    pub fn get(&self, cell: usize) -> Option<u8> {
        self.text().get(cell).and_then(|&symbol| digit_of_symbol(symbol))
    }

    /// The digits of every cell, row by row, `None` for empty.
    #[must_use = "iterators are lazy and do nothing unless consumed"]
    pub fn cells(&self) -> impl ExactSizeIterator<Item = Option<u8>> + '_ {
        (0..self.text().len()).map(|cell| self.get(cell))
    }

    /// The digits `cell` may still take; empty for a filled cell or a cell
    /// off the board.
    #[must_use]
    pub fn candidates(&self, cell: usize) -> Candidates {
        match self.text().get(cell) {
            Some(&EMPTY) => Candidates::from_bits(self.engine.candidate_bits(cell)),
            _ => Candidates::default(),
        }
    }

    /// How many cells are empty.
    #[must_use]
    pub fn empty_cells(&self) -> usize {
        self.engine.empty_cells()
    }

    /// Whether every cell is filled. Every rule holds on every board, so a
    /// complete board is a solution.
    #[must_use]
    pub fn is_complete(&self) -> bool {
        self.engine.is_complete()
    }

    /// A new board with `digit` at `cell`, or the reason it cannot go there.
    ///
    /// Nothing else is filled in: the new board differs from this one in one
    /// cell. The digit is removed from the candidates of the cell's peers.
    ///
    /// # Errors
    ///
    /// A [`Conflict`] when the cell is off the board or filled, the digit is
    /// out of range, or a peer already holds it.
    ///
    /// ```
    /// use lazydoku::{Board, Conflict};
    ///
    /// let board: Board = "1...............".parse()?;
    /// let next = board.place(5, 2)?;
    /// assert_eq!(next.as_str(), "1....2..........");
    /// assert_eq!(board.as_str(), "1..............."); // unchanged
    /// let err = board.place(3, 1).unwrap_err();
    /// assert!(matches!(err, Conflict::Repeated { digit: 1, .. }));
    /// assert_eq!(err.to_string(), "1 cannot go at row 1, column 4: the row already has it at row 1, column 1");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn place(&self, cell: usize, digit: u8) -> Result<Board, Conflict> {
        let mut board = self.clone();
        board.put(cell, digit)?;
        Ok(board)
    }

    /// Places a given known to break no rule into an empty cell.
    pub(crate) fn put_given(&mut self, cell: usize, bit: u32) {
        self.engine.put(cell, bit);
    }

    /// The classic board of an 81-character line of digits and `.`, `0` or
    /// `_`, read in one pass; `None` for anything else, or givens that
    /// clash, which the full parser reports.
    pub(crate) fn nine_from_line(line: &[u8; 81]) -> Option<Board> {
        Nine::from_line(line).map(|nine| Board { engine: Engines::Nine(nine) })
    }

    /// This board, empty, with `digits` (one per cell, 0 for none) placed
    /// without checks: digits that do not clash, such as those of one
    /// solution of its rules. A 9x9 board is built in one pass over its
    /// bands.
    pub(crate) fn with_solution_digits(&self, digits: &[u8]) -> Board {
        if let (Engines::Nine(_), Ok(digits)) = (&self.engine, <&[u8; 81]>::try_from(digits)) {
            return Board { engine: Engines::Nine(Nine::from_consistent_digits(digits)) };
        }
        if let Engines::General(general) = &self.engine {
            if self.empty_cells() == digits.len() && digits.iter().all(|&digit| digit != 0) {
                return Board { engine: Engines::General(General::solved(general.geometry().clone(), digits)) };
            }
        }
        let mut board = self.clone();
        for (cell, &digit) in digits.iter().enumerate().filter(|&(_, &digit)| digit != 0) {
            board.put_given(cell, 1 << (digit - 1));
        }
        board
    }

    /// Places `digit` at `cell` in place; the checks of [`Board::place`].
    pub(crate) fn put(&mut self, cell: usize, digit: u8) -> Result<(), Conflict> {
        // A handle of its own on the rules, to read them while the cells change.
        let rules = self.rules();
        let g: &Geometry = rules.geometry();
        if cell >= g.cells {
            return Err(Conflict::CellOutOfRange { cell, cells: g.cells });
        }
        if digit == 0 || usize::from(digit) > g.side {
            return Err(Conflict::DigitOutOfRange { digit, side: g.side });
        }
        let (row, col) = (cell / g.side, cell % g.side);
        if let Some(held) = self.get(cell) {
            return Err(Conflict::Filled { row, col, digit: held });
        }
        let bit = 1 << (digit - 1);
        let allowed = g.allowed_at(cell);
        if allowed & bit == 0 {
            return Err(Conflict::NotAllowed { digit, allowed: Candidates::from_bits(allowed), row, col });
        }
        if let Some(&peer) = g.peers(cell).iter().find(|&&p| self.get(usize::from(p)) == Some(digit)) {
            let peer = usize::from(peer);
            return Err(Conflict::Repeated {
                digit,
                region: g.shared_region(cell, peer),
                row,
                col,
                peer_row: peer / g.side,
                peer_col: peer % g.side,
            });
        }
        if g.non_consecutive {
            let near = |d: Option<u8>| d.is_some_and(|d| d.abs_diff(digit) == 1);
            if let Some(neighbour) = g.side_neighbours(cell).find(|&n| near(self.get(n))) {
                return Err(Conflict::Consecutive {
                    digit,
                    neighbour: self.get(neighbour).unwrap_or(0),
                    row,
                    col,
                    neighbour_row: neighbour / g.side,
                    neighbour_col: neighbour % g.side,
                });
            }
        }
        for &k in g.relations_of(cell) {
            let related = g.relations[k as usize];
            let first = usize::from(related.cells[0]) == cell;
            let other_cell = usize::from(related.cells[usize::from(first)]);
            let Some(other) = self.get(other_cell) else { continue };
            let (a, b) = if first { (digit, other) } else { (other, digit) };
            if !related.relation.holds(a, b) {
                return Err(Conflict::Related {
                    digit,
                    relation: related.relation,
                    first,
                    other,
                    row,
                    col,
                    other_row: other_cell / g.side,
                    other_col: other_cell % g.side,
                });
            }
        }
        self.put_given(cell, bit);
        // A cage this digit fills must add up.
        if let Some(cage) = g.cages.iter().find(|cage| cage.cells.contains(&u16::try_from(cell).unwrap_or(u16::MAX))) {
            let digits: Option<Vec<u8>> = cage.cells.iter().map(|&c| self.get(usize::from(c))).collect();
            if let Some(digits) = digits {
                let found = digits.iter().map(|&d| usize::from(d)).sum();
                if found != cage.sum {
                    return Err(Conflict::CageSum { sum: cage.sum, found, row, col });
                }
            }
        }
        // A sum this digit fills must add up, a between line keep its
        // middle between its ends, and so on for each rule along a line.
        for &k in g.line_rules_of(cell) {
            match g.line_rules[k as usize].broken(|c| self.get(c)) {
                Some(LineBreak::Sum { sum, found, kind }) => {
                    return Err(Conflict::SumBroken { sum, found, kind, row, col });
                }
                Some(LineBreak::Between { digit, low, high }) => {
                    return Err(Conflict::NotBetween { digit, low, high, row, col });
                }
                Some(LineBreak::Missing { digit }) => return Err(Conflict::QuadrupleMissing { digit, row, col }),
                Some(LineBreak::NotRun { low, high }) => return Err(Conflict::NotRenban { low, high, row, col }),
                Some(LineBreak::Seen { seen, found }) => return Err(Conflict::Seen { seen, found, row, col }),
                Some(LineBreak::SameClass { kind, first, second }) => {
                    return Err(Conflict::SameClass { kind, first, second, row, col });
                }
                None => {}
            }
        }
        Ok(())
    }

    /// The board propagated to a fixed point (naked and hidden singles, locked
    /// candidates), or `None` when that reaches a contradiction. On boards
    /// of side 13 and more, naked and hidden pairs and triples too, while
    /// more cells are empty than two rows hold: on smaller ones they found
    /// too little to pay for the look.
    ///
    /// On a 9x9 board with 20 or fewer empty cells, the inferences along
    /// columns (locked candidates, and hidden singles in columns) are left
    /// out: that close to the end they almost never find anything, and the
    /// search runs faster without them. Children are propagated the same way.
    ///
    /// ```
    /// use lazydoku::Board;
    ///
    /// // The 17-clue puzzles that need no guess are solved by propagation alone.
    /// let board: Board = "...8.1..........435............7.8........1...2..3....6......75..34........2..6..".parse()?;
    /// let propagated = board.propagated().expect("no contradiction");
    /// assert!(propagated.empty_cells() < board.empty_cells());
    /// # Ok::<(), lazydoku::ParseError>(())
    /// ```
    #[must_use]
    pub fn propagated(&self) -> Option<Board> {
        let mut board = self.clone();
        board.settle().ok().map(|()| board)
    }

    /// The children of this board, lazily: one per candidate of the empty
    /// cell with the fewest candidates, each propagated as
    /// [`Board::propagated`] does; a child that reaches a contradiction is
    /// skipped.
    ///
    /// The iterator owns a copy of the board, so `Board::children` can be
    /// passed to [`search::dfs`](crate::search::dfs) as the successors
    /// function. A complete board, or one with an empty cell that has no
    /// candidate, has no children.
    ///
    /// ```
    /// use lazydoku::Board;
    ///
    /// let board: Board = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..".parse()?;
    /// let children: Vec<Board> = board.children().collect();
    /// assert_eq!(children.len(), 1);
    /// assert!(children[0].is_complete()); // propagation alone solves this one
    /// # Ok::<(), lazydoku::ParseError>(())
    /// ```
    pub fn children(&self) -> Children {
        Children::new(self)
    }

    /// Every solution, lazily, in depth-first order: the depth-first search
    /// over [`Board::children`], filtered for complete boards. On boards
    /// other than classic 9x9 ones, clause learning runs beside a search
    /// that finds solutions slowly, and hands out the rest in the same
    /// order once it has found them all ([`Solutions`]).
    ///
    /// ```
    /// use lazydoku::Board;
    ///
    /// let board: Board = "12..34..........".parse()?;
    /// assert_eq!(board.solutions().count(), 12);
    /// # Ok::<(), lazydoku::ParseError>(())
    /// ```
    pub fn solutions(&self) -> Solutions {
        Solutions::new(self.clone())
    }

    /// A solution, or `None` when there is none.
    ///
    /// On the classic 9x9 board it is the first of [`Board::solutions`]. On
    /// other boards the search branches where propagation keeps failing
    /// and restarts with a growing budget, so that large boards with many
    /// solutions (an empty 24x24 board, say) are solved at once where the
    /// depth-first order can take minutes; a search still going after some
    /// hundreds of nodes is taken up by clause learning, as
    /// [`Board::count_solutions`] is, so that a puzzle near uniqueness is
    /// solved about as soon as it is counted to 2. With several solutions,
    /// the one found may not be the first of [`Board::solutions`], but it
    /// is the same on every run. A puzzle with one solution has that one.
    ///
    /// ```
    /// use lazydoku::{Board, Shape};
    ///
    /// let grid = Board::empty(Shape::new(4, 6)).solve().expect("24x24 grids exist");
    /// assert!(grid.is_complete());
    /// assert_eq!(Board::empty(Shape::new(4, 6)).solve(), Some(grid));
    /// ```
    #[must_use]
    pub fn solve(&self) -> Option<Board> {
        solutions::first(self, Meter::new(Budget::UNLIMITED)).0
    }

    /// [`Board::solve`], stopping once `budget` is spent: the solution, or
    /// `None` with why the search stopped short (when it did, there may
    /// still be a solution). Each board visited is one node of the budget,
    /// and so is each conflict of clause learning once it takes the search
    /// up.
    ///
    /// ```
    /// use lazydoku::search::Budget;
    /// use lazydoku::{Board, Shape};
    ///
    /// let empty = Board::empty(Shape::new(5, 5));
    /// let (solution, stopped) = empty.solve_within(Budget::nodes(10_000));
    /// assert!(solution.is_some_and(|s| s.is_complete()) && stopped.is_none());
    ///
    /// let (none, stopped) = empty.solve_within(Budget::nodes(3));
    /// assert!(none.is_none());
    /// assert_eq!(stopped.map(|e| e.nodes()), Some(3));
    /// ```
    #[must_use]
    pub fn solve_within(&self, budget: Budget) -> (Option<Board>, Option<Exhausted>) {
        solutions::first(self, Meter::new(budget))
    }

    /// The number of solutions, counting no further than `limit`.
    ///
    /// `count_solutions(2)` tells none, one, or several; it stops as soon as
    /// the second solution is found.
    ///
    /// The count is `solutions().take(limit).count()`, found faster: a
    /// depth-first search of the same kind, except that a propagated 9x9
    /// board with few empty cells (40 or fewer, fewer once such counts come
    /// up empty) has its completions counted on those cells alone rather
    /// than built as boards: counting every solution of a puzzle runs
    /// several times as fast as enumerating them. The 9x9 count also
    /// branches where guesses have failed earlier in the same count, which
    /// takes a tenth or more off the hardest puzzles' trees; only the order
    /// differs, not the count (docs/performance.md). A 9x9 board whose
    /// rules add only digits allowed in some cells (even-odd puzzles) is
    /// counted on the 9x9 engine too.
    ///
    /// On the other boards a count that runs long is taken up by clause
    /// learning, which finds each solution as a model and forbids it, and
    /// which proves no more are left far sooner than the search where the
    /// search keeps failing the same way (large boards near uniqueness): a
    /// count to 16 or less hands over to it after some hundreds of nodes,
    /// and a larger one takes turns of equal time with the depth-first
    /// count, the first to end giving the number (the depth-first count
    /// goes on alone once it counts far faster, as on boards of many
    /// solutions).
    ///
    /// ```
    /// use lazydoku::Board;
    ///
    /// // Norvig's "hard1", which has many solutions.
    /// let board: Board = ".....6....59.....82....8....45........3........6..3.54...325..6..................".parse()?;
    /// assert_eq!(board.count_solutions(1_000), 1_000);
    /// assert_eq!(board.count_solutions(1_000), board.solutions().take(1_000).count());
    /// # Ok::<(), lazydoku::ParseError>(())
    /// ```
    #[must_use]
    pub fn count_solutions(&self, limit: usize) -> usize {
        solutions::count(self.clone(), limit, Meter::new(Budget::UNLIMITED)).0
    }

    /// [`Board::count_solutions`], stopping once `budget` is spent: the
    /// count so far, and why it stopped short if it did (then there may be
    /// more solutions than counted). Each board the search visits is one
    /// node of the budget; a node budget stops at the same point on every
    /// machine, and walks the nodes of [`Board::solutions`] in its order
    /// (the count learns no branches from failed guesses then).
    ///
    /// ```
    /// use std::time::Duration;
    /// use lazydoku::search::Budget;
    /// use lazydoku::{Board, Shape};
    ///
    /// let empty = Board::empty(Shape::new(2, 2));
    /// assert_eq!(empty.count_solutions_within(1_000, Budget::nodes(1_000_000)), (288, None));
    ///
    /// let (counted, stopped) = empty.count_solutions_within(1_000, Budget::nodes(10));
    /// assert!(counted < 288);
    /// assert_eq!(stopped.map(|e| e.nodes()), Some(10));
    ///
    /// let in_time = Board::empty(Shape::NINE).count_solutions_within(5, Budget::time(Duration::from_secs(60)));
    /// assert_eq!(in_time, (5, None));
    /// ```
    #[must_use]
    pub fn count_solutions_within(&self, limit: usize, budget: Budget) -> (usize, Option<Exhausted>) {
        solutions::count(self.clone(), limit, Meter::new(budget))
    }

    /// Every solution, found on every core ([`search::par_dfs`](crate::search::par_dfs) over
    /// [`Board::children`], filtered for complete boards), in no defined
    /// order.
    ///
    /// On boards other than classic 9x9 whose first 2,000 nodes hold fewer
    /// than one solution in eight, the solutions come instead from
    /// [`Board::solutions`], guided by clause learning past the subtrees
    /// that hold none, and go to the cores as they are found: the cores,
    /// walking alone, would keep failing in those subtrees (a 16x16 killer
    /// puzzle's one solution took longer than a minute).
    ///
    /// ```
    /// use lazydoku::{Board, Shape};
    /// use rayon::prelude::*;
    ///
    /// let all: Vec<Board> = Board::empty(Shape::new(2, 2)).par_solutions().collect();
    /// assert_eq!(all.len(), 288);
    /// ```
    #[cfg(feature = "parallel")]
    pub fn par_solutions(&self) -> ParSolutions {
        ParSolutions { board: self.clone() }
    }

    /// The solutions of [`Board::solutions`], in the same order, found on
    /// `threads` threads, each of which builds batches of them with `add`:
    /// `add(batch, solution)` puts a solution into a batch (made with
    /// `B::default()`) and says whether the batch is full. The iterator
    /// gives each batch with the number of solutions in it, in order: a
    /// batch holds solutions that come one after another, and is never
    /// empty.
    ///
    /// Worth it where each solution takes a while to find, as on boards
    /// larger than 9x9 or puzzles whose solutions lie far apart, and where
    /// what is built from each one, such as its text, is built by the
    /// threads too. The first 300,000 solutions of a 16x16 puzzle, written
    /// out a line each, came 1.49 to 1.64 times as fast on two threads as
    /// from [`Board::solutions`] on one, and a 9x9 puzzle's million
    /// solutions, each found in some 200 ns, 1.48 to 1.56 times as fast
    /// (five rounds of `cargo run --release --example in_order`,
    /// docs/performance.md).
    ///
    /// The threads walk subtrees depth-first and give the next subtrees to
    /// threads that have none; the iterator reads what each finds in
    /// order. Memory stays bounded however many solutions there are: a
    /// thread waits once sixteen batches of its own wait to be read, and
    /// work is given away only while fewer than eight subtrees per thread
    /// are given and unread, and fewer than 64 batches per thread wait.
    /// On one thread, or with no thread to be had, the calling one walks
    /// the tree as `solutions()` does; and so it does on boards other than
    /// classic 9x9 whose first 2,000 nodes hold fewer than one solution in
    /// eight, where clause learning guides `solutions()` past subtrees that
    /// the threads, walking alone, would keep failing in (a 16x16 killer
    /// puzzle's one solution: 1.1 s on two threads, where the threads
    /// walking alone had not found it in 60 s).
    /// Dropping the iterator stops the threads, each once it has found its
    /// next solution.
    ///
    /// The threads are the operating system's, not rayon's: the caller
    /// waits on them, and a rayon worker waiting on work queued behind it
    /// in its own pool could wait for ever.
    ///
    /// # Panics
    ///
    /// If `add` panics on a thread; the iterator panics then too.
    ///
    /// ```
    /// use lazydoku::{Board, Shape};
    ///
    /// // Every solution of the 4x4 board written out, a line each, on two
    /// // threads, in batches of up to 50.
    /// let write = |text: &mut String, solution: Board| {
    ///     text.push_str(solution.as_str());
    ///     text.push('\n');
    ///     text.len() >= 50 * 17
    /// };
    /// let batches = Board::empty(Shape::new(2, 2)).par_solutions_in_order(2, write);
    /// let (text, count) = batches.fold((String::new(), 0), |(all, n), (text, k)| (all + &text, n + k));
    /// assert_eq!(count, 288);
    /// let one_by_one: Vec<Board> = Board::empty(Shape::new(2, 2)).solutions().collect();
    /// assert!(text.lines().eq(one_by_one.iter().map(Board::as_str)));
    /// ```
    #[cfg(feature = "parallel")]
    pub fn par_solutions_in_order<B, F>(&self, threads: usize, add: F) -> BatchesInOrder<B, F>
    where
        B: Default + Send + 'static,
        F: Fn(&mut B, Board) -> bool + Send + Sync + 'static,
    {
        BatchesInOrder::new(self, threads, add)
    }

    /// [`Board::count_solutions`] on every core: the same number, counting
    /// no further than `limit`, and the search stops once it is reached.
    /// The depth-first count is shared among the cores, and counts the last
    /// few empty cells of each branch directly, as [`Board::count_solutions`]
    /// does.
    ///
    /// On the engine for any rules (boards other than classic 9x9), one
    /// thread races the shared count with what [`Board::count_solutions`]
    /// does against heavy tails: restarted dives for counts up to 16, and
    /// clause learning, which leaves the race once the shared count finds
    /// solutions far faster. The first to finish answers and stops the
    /// other. Large boards where few solutions hide in a large tree are
    /// counted in about the time clause learning takes (a minimal 25x25
    /// puzzle counted to 17 in 0.56 s, where the shared count alone took
    /// 24 s on two cores), and trees thick with solutions as fast as the
    /// shared count goes. On a pool of one thread this is
    /// [`Board::count_solutions`].
    ///
    /// ```
    /// use lazydoku::{Board, Shape};
    ///
    /// assert_eq!(Board::empty(Shape::new(2, 2)).par_count_solutions(usize::MAX), 288);
    /// assert_eq!(Board::empty(Shape::NINE).par_count_solutions(1000), 1000);
    /// ```
    #[cfg(feature = "parallel")]
    #[must_use]
    pub fn par_count_solutions(&self, limit: usize) -> usize {
        /// Boards with at most this many empty cells are counted directly.
        const DIRECT: usize = 32;
        if let Some(twin) = self.on_band_engine() {
            return twin.par_count_solutions(limit);
        }
        let shared = crate::search::par_dfs(self.clone(), Board::children)
            .counter(Board::is_complete)
            .shortcut(|board: &Board, wanted| board.count_directly(DIRECT, wanted));
        if self.uses_general_engine() && limit > 0 {
            if rayon::current_num_threads() == 1 {
                return self.count_solutions(limit);
            }
            // One thread races the others with what the count on one core
            // does against heavy tails: dives and clause learning.
            let race = crate::search::Race::new();
            let (alone, together) =
                rayon::join(|| solutions::count_racing(self, limit, &race), || shared.up_to_racing(limit, &race));
            // The first to finish has the count, and the shared count
            // always finishes, so one side has it; the count on one core
            // is there only so that no path is left without an answer.
            return alone.or(together).unwrap_or_else(|| self.count_solutions(limit));
        }
        shared.up_to(limit)
    }

    /// The memory this board holds, in bytes: its own size and what it keeps
    /// on the heap. A frontier of boards (breadth- or best-first) holds
    /// about this much per board, which is how to bound it in bytes.
    ///
    /// ```
    /// use lazydoku::{Board, Shape};
    ///
    /// assert_eq!(Board::empty(Shape::NINE).size_in_bytes(), size_of::<Board>());
    /// assert!(Board::empty(Shape::new(5, 5)).size_in_bytes() > 625 * 5);
    /// ```
    #[must_use]
    pub fn size_in_bytes(&self) -> usize {
        size_of::<Board>()
            + match &self.engine {
                Engines::Nine(_) => 0,
                Engines::General(general) => general.heap_bytes(),
            }
    }

    /// Whether the board has exactly one solution.
    #[must_use]
    pub fn is_unique(&self) -> bool {
        self.count_solutions(2) == 1
    }

    /// Whether propagation has nothing left to do on this board.
    pub(crate) fn is_settled(&self) -> bool {
        self.engine.is_settled()
    }

    /// The number of completions of a propagated board with at most
    /// `threshold` empty cells, counting no further than `limit`, where
    /// the engine counts them itself (9x9 boards, with at most
    /// [`MAX_DIRECT`] empty cells); `None` leaves the board to the search.
    pub(crate) fn count_directly(&self, threshold: usize, limit: usize) -> Option<usize> {
        self.engine.count_directly(threshold, limit)
    }

    /// [`Board::clauses`] of this board settled: `Err` where settling
    /// finds it has no solution.
    pub(crate) fn settled_clauses(&self) -> Result<Option<clauses::Clauses>, ()> {
        let mut settled = self.clone();
        if !settled.is_settled() && settled.settle().is_err() {
            return Err(());
        }
        Ok(settled.clauses())
    }

    /// The empty cells of a settled board of the general engine as clauses,
    /// or `None` on the 9x9 engine and with a killer cage of too many
    /// fillings to spell out.
    pub(crate) fn clauses(&self) -> Option<clauses::Clauses> {
        match &self.engine {
            Engines::General(e) => e.clauses(),
            Engines::Nine(_) => None,
        }
    }

    /// The same board on the 9x9 engine, when its rules are classic 9x9
    /// rules with some cells' digits restricted (even-odd puzzles): the
    /// band engine keeps them as candidates removed at the start, and
    /// counts such puzzles as fast as classic ones. Its boards answer
    /// [`Board::rules`] as classic, so only counts and solutions' digits
    /// come back from it.
    pub(crate) fn on_band_engine(&self) -> Option<Board> {
        let Engines::General(general) = &self.engine else { return None };
        if !general.geometry().is_nine_with_allowed_digits() {
            return None;
        }
        let digits: [u8; 81] = std::array::from_fn(|cell| self.get(cell).unwrap_or(0));
        let nine = Nine::from_digits_within(&digits, |cell| self.engine.candidate_bits(cell));
        Some(Board { engine: Engines::Nine(nine) })
    }

    /// Whether the board is on the engine for any rules, not the 9x9 one.
    pub(crate) fn uses_general_engine(&self) -> bool {
        matches!(self.engine, Engines::General(_))
    }

    /// Removes every digit that propagation alone refutes (on the general
    /// engine; a 9x9 board is left as it is). The board must be settled.
    pub(crate) fn probe(&mut self) -> Result<(), Contradiction> {
        match &mut self.engine {
            Engines::General(e) => e.probe(),
            Engines::Nine(_) => Ok(()),
        }
    }

    /// This board with `digit` no longer a candidate of `cell`, propagated,
    /// or `None` when that is a contradiction.
    pub(crate) fn excluding(&self, cell: usize, digit: u8) -> Option<Board> {
        let mut board = self.clone();
        let excluded = match &mut board.engine {
            Engines::General(e) => e.exclude(cell, 1 << (digit - 1)),
            Engines::Nine(e) => e.exclude(cell, 1 << (digit - 1)),
        };
        excluded.ok().map(|()| board)
    }

    /// A propagated copy to branch from, or `None` when the board is
    /// complete or propagation finds a contradiction: where every child
    /// iterator starts.
    pub(crate) fn settled_to_branch(&self) -> Option<Board> {
        if self.is_complete() {
            return None;
        }
        let mut parent = self.clone();
        if !parent.is_settled() {
            parent.settle().ok()?;
        }
        Some(parent)
    }

    /// Propagates in place.
    pub(crate) fn settle(&mut self) -> Result<(), Contradiction> {
        self.engine.propagate_all()
    }

    /// The cell to branch on and its candidates, or `None` when complete.
    #[expect(clippy::inline_always, reason = "part of the walk's step: see `AsChildren::branch_cell`")]
    #[inline(always)]
    pub(crate) fn branch_cell(&self) -> Option<(usize, u32)> {
        self.engine.branch_cell()
    }

    /// [`Board::branch_cell`], learning from the guesses that failed so
    /// far in a walk (the 9x9 engine; the general engine's choice is its
    /// own).
    #[expect(clippy::inline_always, reason = "part of the count's walk, compiled for `BitManipulation` there")]
    #[inline(always)]
    pub(crate) fn branch_cell_after_failures(&self, failures: &FailedGuesses) -> Option<(usize, u32)> {
        match &self.engine {
            Engines::Nine(e) => e.branch_cell_after_failures(failures),
            Engines::General(e) => e.branch_cell(),
        }
    }

    /// An empty 9x9 board, for a 9x9 board to be copied over.
    #[inline]
    pub(crate) fn blank_like(&self) -> Option<Board> {
        match &self.engine {
            Engines::Nine(_) => Some(Board { engine: Engines::Nine(Nine::empty()) }),
            Engines::General(_) => None,
        }
    }

    /// Turns this board, branched on a cell with two candidates, into its
    /// child for the second, given `first`, the child for the first, where
    /// that is cheaper than propagating (9x9 boards with six empty cells).
    /// `false` leaves it unchanged, for the child to be propagated.
    #[inline]
    pub(crate) fn become_other_child(&mut self, first: &Board) -> bool {
        match (&mut self.engine, &first.engine) {
            (Engines::Nine(board), Engines::Nine(first)) => board.become_other_child(first),
            _ => false,
        }
    }

    /// Gives the empty `cell` the digit of `bit` and propagates.
    pub(crate) fn assign_and_propagate(&mut self, cell: usize, bit: u32) -> Result<(), Contradiction> {
        self.engine.assign_and_propagate(cell, bit)
    }
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.text() == other.text() && self.geometry() == other.geometry()
    }
}

impl Eq for Board {}

impl Hash for Board {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.shape().hash(state);
        self.text().hash(state);
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Board").field("shape", &self.shape()).field("text", &self.as_str()).finish()
    }
}
