//! Reading and writing puzzles in every supported text format.
//!
//! [`str::parse`] and [`Parser`] read, detecting the format:
//!
//! | format | example | empty cells |
//! |---|---|---|
//! | one line, optional trailing comment after whitespace | `..3.2.6..9..3.5..1...  # easy` | `.` `0` `_` |
//! | grid with `\|` and `------+------` separators | `0 0 3 \| 0 2 0 \| 6 0 0` | `.` `0` `_` |
//! | digits and `_` separated by spaces, a row per line | `_ _ 3 _ 2 _ 6 _ _` | `.` `0` `_` |
//! | nested matrix (JSON, Python or Ruby arrays) | `[[3, null, 6, ...], ...]` | `null` `nil` `0` |
//!
//! Lines starting with `#` are comments. `0` means empty on boards up to
//! 9x9; larger boards use `1-9` then `A-Z` and `.` or `_` for empty, or the
//! hexadecimal `0-F` convention on 16x16 when [`Parser::hex`] asks for it.
//!
//! A [`Layout`] remembers how a puzzle was written, so that its solution can
//! be printed the same way.

mod error;
mod layout;
mod parse;

use std::fmt;

pub use error::ParseError;
pub use layout::{Layout, LayoutKind};
pub use parse::Parser;

use itertools::Itertools;

use crate::board::{Board, Rules, Shape};

/// Writes the text of a board as a grid: cells separated by spaces, `|`
/// between boxes, `-` and `+` between bands of boxes.
pub(crate) fn write_grid(f: &mut impl fmt::Write, shape: Shape, text: &[u8]) -> fmt::Result {
    let (side, br, bc) = (shape.side(), shape.box_rows(), shape.box_cols());
    let rule = (0..side / bc)
        .map(|b| {
            let width = 2 * bc + usize::from(b != 0 && b + 1 != side / bc);
            "-".repeat(width)
        })
        .join("+");
    for (r, row) in text.chunks(side).enumerate() {
        if r != 0 && r % br == 0 {
            writeln!(f, "{rule}")?;
        }
        for (c, &byte) in row.iter().enumerate() {
            if c != 0 {
                f.write_str(if c % bc == 0 { " | " } else { " " })?;
            }
            f.write_char(char::from(byte))?;
        }
        f.write_char('\n')?;
    }
    Ok(())
}

// The board's text formats live here, beside the parser, so that the board
// module needs nothing from this one.
impl Board {
    /// Parses `text` as a board of `shape`, in any format [`str::parse`]
    /// accepts: shorthand for `Parser::new().shape(shape).parse(text)`,
    /// keeping the board. [`Parser`] has the other options.
    ///
    /// # Errors
    ///
    /// A [`ParseError`] when the text is not a puzzle of
    /// this shape, or when its givens break a rule.
    ///
    /// ```
    /// use lazydoku::{Board, Shape};
    ///
    /// let six = Board::parse_with("1.....\n......\n......\n......\n......\n.....1", Shape::new(2, 3))?;
    /// assert_eq!(six.shape(), Shape::new(2, 3));
    /// # Ok::<(), lazydoku::ParseError>(())
    /// ```
    pub fn parse_with(text: &str, shape: Shape) -> Result<Board, ParseError> {
        Parser::new().shape(shape).parse(text).map(|(board, _)| board)
    }
}

impl Rules {
    /// Reads a puzzle played by these rules, in any format [`str::parse`]
    /// accepts, its size fixed by the rules.
    ///
    /// # Errors
    ///
    /// A [`ParseError`] when the text is not a puzzle of this size, or when
    /// two givens repeat a digit in one of the rules' regions.
    ///
    /// ```
    /// use lazydoku::{ParseError, Region, Rules, Shape};
    ///
    /// let windoku = Rules::new(Shape::new(2, 2)).with_windoku();
    /// let board = windoku.parse("1... .... .... ....")?;
    /// assert_eq!(board.rules(), windoku);
    /// // 1 at row 2, column 2 and again at row 3, column 3: both in the window.
    /// let err = windoku.parse(".... .1.. ..1. ....").unwrap_err();
    /// assert!(matches!(err, ParseError::Repeated { region: Region::Window, .. }), "{err}");
    /// # Ok::<(), ParseError>(())
    /// ```
    pub fn parse(&self, text: &str) -> Result<Board, ParseError> {
        Parser::new().parse_with_rules(text, self)
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
        if f.alternate() { write_grid(f, self.shape(), self.text()) } else { f.write_str(self.as_str()) }
    }
}
