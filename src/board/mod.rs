//! The immutable, string-backed [`Board`] and everything it answers.

mod candidates;
mod children;
mod conflict;
mod propagate;
mod shape;
mod solutions;

use std::fmt;
use std::hash::{Hash, Hasher};

use smallvec::SmallVec;

pub use candidates::{Candidates, Digits};
pub use children::Children;
pub use conflict::Conflict;
pub use shape::{MAX_SIDE, Region, Shape};
pub use solutions::Solutions;

pub(crate) use candidates::digit_of;
pub(crate) use shape::Geometry;

/// The text byte of an empty cell.
pub(crate) const EMPTY: u8 = b'.';

/// Text bytes by digit: `.` for 0 (empty), then `1-9`, then `A-P`.
pub(crate) const SYMBOLS: &[u8; MAX_SIDE + 1] = b".123456789ABCDEFGHIJKLMNOP";

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
/// most constrained cell, each already propagated with naked and hidden
/// singles. Equality and hashing look at the shape and the text only.
///
/// A 9x9 board and everything smaller keep their cells inline: a board is
/// `size_of::<Board>()` = 448 bytes on 64-bit targets, and a depth-first
/// search over 9x9 boards allocates nothing per node. Larger boards keep
/// their cells on the heap.
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
#[derive(Clone)]
pub struct Board {
    geometry: &'static Geometry,
    text: SmallVec<[u8; 81]>,
    /// Candidates of each empty cell; the single bit of its digit for a filled one.
    cands: SmallVec<[u32; 81]>,
    /// How many cells are empty.
    empty: u16,
    /// Whether no single is left to propagate: true for boards that came out
    /// of propagation, false for parsed and placed ones.
    settled: bool,
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
    #[expect(clippy::missing_panics_doc, reason = "a shape has at most 625 cells")]
    pub fn empty(shape: Shape) -> Board {
        let geometry = shape.geometry();
        Board {
            geometry,
            text: SmallVec::from_elem(EMPTY, geometry.cells),
            cands: SmallVec::from_elem(geometry.full, geometry.cells),
            empty: u16::try_from(geometry.cells).expect("at most 625 cells"),
            settled: false,
        }
    }

    /// Parses `text` as a board of `shape`, in any format [`str::parse`]
    /// accepts.
    ///
    /// # Errors
    ///
    /// A [`ParseError`](crate::ParseError) when the text is not a puzzle of
    /// this shape, or when its givens break a rule.
    ///
    /// ```
    /// use lazydoku::{Board, Shape};
    ///
    /// let six = Board::parse_with("1.....\n......\n......\n......\n......\n.....1", Shape::new(2, 3))?;
    /// assert_eq!(six.shape(), Shape::new(2, 3));
    /// # Ok::<(), lazydoku::ParseError>(())
    /// ```
    pub fn parse_with(text: &str, shape: Shape) -> Result<Board, crate::ParseError> {
        crate::format::Parser::new().shape(shape).parse(text).map(|(board, _)| board)
    }

    /// The board's shape.
    #[must_use]
    pub fn shape(&self) -> Shape {
        self.geometry.shape
    }

    /// The text: one character per cell, row by row, `.` for empty.
    #[must_use]
    #[expect(clippy::missing_panics_doc, reason = "the text holds only ASCII symbols")]
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.text).expect("the text holds only ASCII symbols")
    }

    /// The digit at `cell` (`row * side + col`), or `None` when it is empty
    /// or off the board.
    #[must_use]
    pub fn get(&self, cell: usize) -> Option<u8> {
        match self.text.get(cell) {
            Some(&EMPTY) | None => None,
            Some(_) => Some(digit_of(self.cands[cell])),
        }
    }

    /// The digits of every cell, row by row, `None` for empty.
    #[must_use = "iterators are lazy and do nothing unless consumed"]
    pub fn cells(&self) -> impl ExactSizeIterator<Item = Option<u8>> + '_ {
        (0..self.geometry.cells).map(|cell| self.get(cell))
    }

    /// The digits `cell` may still take; empty for a filled cell or a cell
    /// off the board.
    #[must_use]
    pub fn candidates(&self, cell: usize) -> Candidates {
        match self.text.get(cell) {
            Some(&EMPTY) => Candidates::from_bits(self.cands[cell]),
            _ => Candidates::default(),
        }
    }

    /// How many cells are empty.
    #[must_use]
    pub fn empty_cells(&self) -> usize {
        usize::from(self.empty)
    }

    /// Whether every cell is filled. Every rule holds on every board, so a
    /// complete board is a solution.
    #[must_use]
    pub fn is_complete(&self) -> bool {
        self.empty == 0
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

    /// Places `digit` at `cell` in place; the checks of [`Board::place`].
    pub(crate) fn put(&mut self, cell: usize, digit: u8) -> Result<(), Conflict> {
        let g = self.geometry;
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
        self.fill(cell, bit);
        self.settled = false;
        // No peer holds the digit, so clearing its bit leaves filled peers intact.
        for &peer in g.peers(cell) {
            self.cands[usize::from(peer)] &= !bit;
        }
        Ok(())
    }

    /// Writes a digit into an empty cell's text and candidates.
    fn fill(&mut self, cell: usize, bit: u32) {
        self.text[cell] = SYMBOLS[usize::from(digit_of(bit))];
        self.cands[cell] = bit;
        self.empty -= 1;
    }

    /// The board with every naked and hidden single filled in, or `None` when
    /// that reaches a contradiction.
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
        board.propagate_all().ok().map(|()| board)
    }

    /// The children of this board, lazily: one per candidate of the empty
    /// cell with the fewest candidates, each propagated with naked and hidden
    /// singles; a child that reaches a contradiction is skipped.
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
    /// over [`Board::children`], filtered for complete boards.
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

    /// The first solution, or `None` when there is none.
    #[must_use]
    pub fn solve(&self) -> Option<Board> {
        self.solutions().next()
    }

    /// The number of solutions, counting no further than `limit`.
    ///
    /// `count_solutions(2)` tells none, one, or several; it stops as soon as
    /// the second solution is found.
    #[must_use]
    pub fn count_solutions(&self, limit: usize) -> usize {
        self.solutions().take(limit).count()
    }

    /// Whether the board has exactly one solution.
    #[must_use]
    pub fn is_unique(&self) -> bool {
        self.count_solutions(2) == 1
    }
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.geometry.shape == other.geometry.shape && self.text == other.text
    }
}

impl Eq for Board {}

impl Hash for Board {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.geometry.shape.hash(state);
        self.text.hash(state);
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Board").field("shape", &self.shape()).field("text", &self.as_str()).finish()
    }
}

/// `{}` prints the one-line text; `{:#}` prints the grid with `|` between
/// boxes and `------+------` between bands.
///
/// ```
/// use lazydoku::Board;
///
/// let board: Board = "1234341221434321".parse()?;
/// assert_eq!(board.to_string(), "1234341221434321");
/// assert_eq!(format!("{board:#}"), "1 2 | 3 4\n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | 2 1\n");
/// # Ok::<(), lazydoku::ParseError>(())
/// ```
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() { crate::format::write_grid(f, self.shape(), &self.text) } else { f.write_str(self.as_str()) }
    }
}
