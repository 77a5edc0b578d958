//! [`ParseError`]: what is wrong with a puzzle's text, and where.

use std::fmt;

use itertools::Itertools;

use crate::board::{Counted, Region, Shape};

/// Why a text is not a puzzle.
///
/// Positions in the text (`line`, `column`) count from 1, columns in
/// characters, as editors count them. Positions on the board (rows and
/// columns of cells) count from 0 in the fields, as everywhere in the
/// library ([`Shape::cell`], [`Conflict`](crate::Conflict)), and from 1 in
/// the message, which is meant for people.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseError {
    /// Nothing but blank and comment lines.
    Empty,
    /// A character that is no symbol, empty mark or separator of this board.
    InvalidSymbol {
        /// The character found.
        ch: char,
        /// Where it is.
        line: usize,
        /// Where it is.
        column: usize,
        /// The side of the board being read (0 when not known yet).
        side: usize,
    },
    /// A one-line puzzle whose cell count is not the square of a supported side.
    CellCount {
        /// Cells found.
        found: usize,
        /// The line.
        line: usize,
    },
    /// A grid row with a different number of cells than the other rows (the
    /// rows before it in a grid; most rows in a matrix).
    RowLength {
        /// The line of the row.
        line: usize,
        /// Cells found on it.
        found: usize,
        /// Cells on the other rows.
        expected: usize,
    },
    /// A grid with a different number of rows than cells in a row.
    RowCount {
        /// Rows found.
        found: usize,
        /// Cells in a row, which is how many rows a square board has.
        expected: usize,
    },
    /// A side that is no product `r x c` with `r, c >= 2` and at most 25.
    UnsupportedSide {
        /// The side found.
        side: usize,
    },
    /// The board does not fit the shape that was asked for, or its
    /// separators disagree with it.
    ShapeMismatch {
        /// The shape asked for, or the one the separators show.
        expected: Shape,
        /// Box rows and columns found.
        found: (usize, usize),
    },
    /// The nested-matrix form is malformed.
    Matrix {
        /// What the reader expected there.
        expected: &'static str,
        /// What it found (`None` at the end of the input).
        found: Option<char>,
        /// Where.
        line: usize,
        /// Where.
        column: usize,
    },
    /// A number in a nested matrix that is larger than the board's side.
    ValueOutOfRange {
        /// The number.
        value: u64,
        /// The largest digit of the board.
        side: usize,
        /// Where.
        line: usize,
        /// Where.
        column: usize,
    },
    /// Two givens side by side hold consecutive digits under the
    /// non-consecutive rule ([`Rules::with_non_consecutive`](crate::Rules::with_non_consecutive)).
    Consecutive {
        /// The later given's digit.
        digit: u8,
        /// The earlier given's digit, one below or above it.
        neighbour: u8,
        /// Row and column (from 0) of the earlier given.
        first: (usize, usize),
        /// Row and column (from 0) of the later given.
        second: (usize, usize),
        /// Where the later given is in the input.
        line: usize,
        /// Where the later given is in the input.
        column: usize,
    },
    /// Two related givens ([`Rules::with_relation`](crate::Rules::with_relation))
    /// whose digits do not keep their relation.
    Related {
        /// The later given's digit.
        digit: u8,
        /// The relation.
        relation: crate::Relation,
        /// Whether the later given is the relation's first cell (for
        /// [`Relation::Less`](crate::Relation::Less), the one that must be
        /// smaller).
        first_cell: bool,
        /// The earlier given's digit.
        other: u8,
        /// Row and column (from 0) of the earlier given.
        first: (usize, usize),
        /// Row and column (from 0) of the later given.
        second: (usize, usize),
        /// Where the later given is in the input.
        line: usize,
        /// Where the later given is in the input.
        column: usize,
    },
    /// A given that the rules do not allow in its cell
    /// ([`Rules::with_allowed_digits`](crate::Rules::with_allowed_digits)):
    /// an odd digit in an even cell, say.
    NotAllowed {
        /// The given's digit.
        digit: u8,
        /// The digits the cell may hold.
        allowed: crate::Candidates,
        /// Row and column (from 0) of the given.
        at: (usize, usize),
        /// Where the given is in the input.
        line: usize,
        /// Where the given is in the input.
        column: usize,
    },
    /// Two givens repeat a digit in one region.
    Repeated {
        /// The repeated digit.
        digit: u8,
        /// The region they share.
        region: Region,
        /// Row and column (from 0) of the earlier given.
        first: (usize, usize),
        /// Row and column (from 0) of the later given.
        second: (usize, usize),
        /// Where the later given is in the input.
        line: usize,
        /// Where the later given is in the input.
        column: usize,
    },
    /// A one-line puzzle whose cell count does not fit the shape asked for.
    ShapeCells {
        /// The shape asked for.
        shape: Shape,
        /// Cells found.
        found: usize,
        /// The line.
        line: usize,
    },
    /// A second puzzle on the line of a one-line puzzle, where only a
    /// comment may follow.
    TwoPuzzles {
        /// The line.
        line: usize,
        /// Where the second puzzle starts.
        column: usize,
    },
    /// The rules written after a one-line puzzle (a region map, or a cage
    /// map with its sums, as `lazydoku generate --jigsaw` and `--killer`
    /// write them) are not valid, or are not the rules given apart.
    LineRules {
        /// The line.
        line: usize,
        /// Where the fault is, or where the rules start.
        column: usize,
        /// What is wrong.
        reason: String,
    },
    /// A matrix with more cells than the largest board (25x25) has; reading
    /// stops there.
    TooLarge {
        /// Where the first cell too many is.
        line: usize,
        /// Where the first cell too many is.
        column: usize,
    },
    /// The givens fill a killer cage whose digits do not add up to its sum.
    CageSum {
        /// The cage's sum.
        sum: usize,
        /// What its givens add up to.
        found: usize,
        /// Where the given that fills the cage is.
        line: usize,
        /// Where the given that fills the cage is.
        column: usize,
    },
    /// The givens fill a sum ([`Rules::with_sum`](crate::Rules::with_sum)),
    /// an arrow ([`Rules::with_arrow`](crate::Rules::with_arrow)) or a
    /// sandwich ([`Rules::with_sandwich`](crate::Rules::with_sandwich))
    /// whose digits do not add up.
    SumBroken {
        /// The sum's total, the number in the arrow's circle, or the
        /// sandwich's clue.
        sum: usize,
        /// What the givens add up to (an arrow's shaft, the digits between a
        /// sandwich's ends).
        found: usize,
        /// Which kind of sum it is.
        kind: crate::SumKind,
        /// Where the given that fills the sum is.
        line: usize,
        /// Where the given that fills the sum is.
        column: usize,
    },
    /// The givens fill a between line
    /// ([`Rules::with_between_line`](crate::Rules::with_between_line)) one of
    /// whose middle digits does not lie strictly between its ends.
    NotBetween {
        /// The middle digit out of place.
        digit: u8,
        /// The smaller end's digit.
        low: u8,
        /// The larger end's digit.
        high: u8,
        /// Where the given that fills the line is.
        line: usize,
        /// Where the given that fills the line is.
        column: usize,
    },
    /// The givens fill a renban line
    /// ([`Rules::with_renban`](crate::Rules::with_renban)) whose digits are
    /// not a run of consecutive digits, each once.
    NotRenban {
        /// The line's smallest digit.
        low: u8,
        /// The line's largest digit.
        high: u8,
        /// Where the given that fills the line is.
        line: usize,
        /// Where the given that fills the line is.
        column: usize,
    },
    /// The givens fill a skyscraper clue's line
    /// ([`Rules::with_skyscraper`](crate::Rules::with_skyscraper)) that
    /// shows another number of digits.
    Seen {
        /// The clue: how many digits the line must show.
        seen: usize,
        /// How many it shows.
        found: usize,
        /// Where the given that fills the line is.
        line: usize,
        /// Where the given that fills the line is.
        column: usize,
    },
    /// The givens fill an entropic or modular line
    /// ([`Rules::with_entropic_line`](crate::Rules::with_entropic_line),
    /// [`Rules::with_modular_line`](crate::Rules::with_modular_line)) with
    /// two digits of one class among three cells in a row.
    SameClass {
        /// Which line it is.
        kind: crate::ClassLine,
        /// The first of the two digits along the line.
        first: u8,
        /// The second.
        second: u8,
        /// Where the given that fills the line is.
        line: usize,
        /// Where the given that fills the line is.
        column: usize,
    },
    /// The givens fill a quadruple
    /// ([`Rules::with_quadruple`](crate::Rules::with_quadruple)) without one
    /// of its digits (or without it as many times as it is given).
    QuadrupleMissing {
        /// The digit missing.
        digit: u8,
        /// Where the given that fills the quadruple is.
        line: usize,
        /// Where the given that fills the quadruple is.
        column: usize,
    },
    /// Hexadecimal symbols were asked for on a board whose side is not 16.
    HexNeedsSixteen {
        /// The side found.
        side: usize,
    },
}

impl ParseError {
    /// The message without its position, for callers that show the position
    /// their own way (as `FILE:LINE:COLUMN`).
    ///
    /// ```
    /// let err = "x".repeat(81).parse::<lazydoku::Board>().unwrap_err();
    /// assert_eq!(err.position(), Some((1, 1)));
    /// assert!(err.to_string().starts_with("line 1, column 1: 'x' is not"));
    /// assert!(err.reason().starts_with("'x' is not"));
    /// ```
    #[must_use]
    pub fn reason(&self) -> String {
        Reason(self).to_string()
    }

    /// The line and column the error points at, when it points at one.
    #[must_use]
    pub fn position(&self) -> Option<(usize, usize)> {
        match *self {
            ParseError::InvalidSymbol { line, column, .. }
            | ParseError::Matrix { line, column, .. }
            | ParseError::ValueOutOfRange { line, column, .. }
            | ParseError::Repeated { line, column, .. }
            | ParseError::Consecutive { line, column, .. }
            | ParseError::Related { line, column, .. }
            | ParseError::NotAllowed { line, column, .. }
            | ParseError::CageSum { line, column, .. }
            | ParseError::SumBroken { line, column, .. }
            | ParseError::NotBetween { line, column, .. }
            | ParseError::QuadrupleMissing { line, column, .. }
            | ParseError::NotRenban { line, column, .. }
            | ParseError::SameClass { line, column, .. }
            | ParseError::Seen { line, column, .. }
            | ParseError::TwoPuzzles { line, column }
            | ParseError::LineRules { line, column, .. }
            | ParseError::TooLarge { line, column } => Some((line, column)),
            ParseError::CellCount { line, .. }
            | ParseError::ShapeCells { line, .. }
            | ParseError::RowLength { line, .. } => Some((line, 1)),
            _ => None,
        }
    }
}

fn sides() -> String {
    (4..=crate::board::MAX_SIDE).filter(|&s| Shape::from_side(s).is_some()).map(|s| s * s).join(", ")
}

/// A [`ParseError`]'s message without its position.
struct Reason<'a>(&'a ParseError);

impl fmt::Display for Reason<'_> {
    #[expect(clippy::too_many_lines, reason = "one arm per kind of error, each a sentence")]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self.0 {
            ParseError::Empty => f.write_str("no puzzle found: the input is empty or all comments"),
            ParseError::InvalidSymbol { ch, side, .. } => {
                write!(f, "{ch:?} is not a cell of ")?;
                match side {
                    0 => f.write_str("a puzzle"),
                    1..=9 => write!(f, "a {side}x{side} board; use 1-{side} for digits and '.', '0' or '_' for empty"),
                    _ => write!(
                        f,
                        "a {side}x{side} board; use 1-9 and A-{} for digits and '.' or '_' for empty",
                        Shape::symbol(u8::try_from(side).unwrap_or(25)).unwrap_or('P')
                    ),
                }
            }
            ParseError::CellCount { found, .. } => write!(
                f,
                "a one-line puzzle has {}, but it needs the square of a board side: one of {}",
                Counted(found, "cell"),
                sides()
            ),
            ParseError::RowLength { found, expected, .. } => write!(
                f,
                "this row has {} where the other rows have {expected}; every row needs the same number",
                Counted(found, "cell")
            ),
            ParseError::RowCount { found, expected } => write!(
                f,
                "the grid has {} but its rows have {}; a board needs as many rows as columns",
                Counted(found, "row"),
                Counted(expected, "cell")
            ),
            ParseError::UnsupportedSide { side } if !(2..=25).contains(&side) => write!(
                f,
                "a board of side {side} is not supported; the side must be r x c with r, c >= 2 and at most 25"
            ),
            ParseError::UnsupportedSide { side } => write!(
                f,
                "a board of side {side} has no box shape (r x c with r, c >= 2, at most 25); a Latin square or a \
                 jigsaw of that side needs its rules given (Shape::latin, or --shape latin{side} or --regions)"
            ),
            ParseError::ShapeMismatch { expected, found: (r, c) } => write!(
                f,
                "the board has boxes of {r}x{c} but {expected} was expected; check the shape or the separators"
            ),
            ParseError::Matrix { expected, found, .. } => match found {
                Some(ch) => write!(f, "expected {expected} in the matrix, found {ch:?}"),
                None => write!(f, "expected {expected} in the matrix, found the end of input"),
            },
            ParseError::ValueOutOfRange { value, side, .. } => {
                write!(f, "{value} is out of range; use 1 to {side} for digits and 0 or null for empty")
            }
            ParseError::Repeated { digit, region, first: (r1, c1), second: (r2, c2), .. } => write!(
                f,
                "{} at row {}, column {} repeats the {} at row {}, column {} in the same {region}",
                symbol(digit),
                r2 + 1,
                c2 + 1,
                symbol(digit),
                r1 + 1,
                c1 + 1
            ),
            ParseError::Consecutive { digit, neighbour, first: (r1, c1), second: (r2, c2), .. } => write!(
                f,
                "{} at row {}, column {} is next to the {} at row {}, column {}; the non-consecutive rule keeps them apart",
                symbol(digit),
                r2 + 1,
                c2 + 1,
                symbol(neighbour),
                r1 + 1,
                c1 + 1
            ),
            ParseError::Related { digit, relation, first_cell, other, first, second: (r2, c2), .. } => {
                let other = symbol(other);
                let broken = crate::board::Broken { relation, first: first_cell, other: &other, at: first };
                write!(f, "{} at row {}, column {}: {broken}", symbol(digit), r2 + 1, c2 + 1)
            }
            ParseError::NotAllowed { digit, allowed, at: (row, col), .. } => {
                let only = crate::board::OnlyAllowed { digits: allowed, symbols: true };
                write!(f, "{} at row {}, column {}: {only}", symbol(digit), row + 1, col + 1)
            }
            ParseError::CageSum { sum, found, .. } => {
                write!(f, "the givens of a cage add up to {found}, not its sum of {sum}")
            }
            ParseError::QuadrupleMissing { digit, .. } => {
                write!(f, "the givens fill a quadruple short of its {}", symbol(digit))
            }
            ParseError::Seen { seen, found, .. } => {
                write!(f, "the givens fill a skyscraper line that shows {found} digits, not its clue of {seen}")
            }
            ParseError::SameClass { kind, first, second, .. } => {
                write!(f, "the givens fill {}", crate::board::SameClassLine { kind, first, second, symbols: true })
            }
            ParseError::NotRenban { low, high, .. } => write!(
                f,
                "the givens fill a renban line whose digits, {} to {}, are not a run of consecutive digits each once",
                symbol(low),
                symbol(high)
            ),
            ParseError::NotBetween { digit, low, high, .. } => write!(
                f,
                "the givens fill a between line whose {} does not lie between its ends, {} and {}",
                symbol(digit),
                symbol(low),
                symbol(high)
            ),
            ParseError::SumBroken { sum, found, kind, .. } => {
                write!(f, "the givens fill {}", crate::board::SumMismatch { sum, found, kind })
            }
            ParseError::ShapeCells { shape, found, .. } if !shape.has_boxes() => write!(
                f,
                "a one-line puzzle has {}, but a Latin square of side {side} has {}",
                Counted(found, "cell"),
                shape.cells(),
                side = shape.side()
            ),
            ParseError::ShapeCells { shape, found, .. } => write!(
                f,
                "a one-line puzzle has {}, but boxes of {}x{} make a {side}x{side} board of {} cells",
                Counted(found, "cell"),
                shape.box_rows(),
                shape.box_cols(),
                shape.cells(),
                side = shape.side()
            ),
            ParseError::TwoPuzzles { .. } => {
                f.write_str("a second puzzle starts here; put one puzzle per line (a comment after a puzzle is fine)")
            }
            ParseError::LineRules { ref reason, .. } => f.write_str(reason),
            ParseError::TooLarge { .. } => {
                f.write_str("the matrix has more cells here than the largest board (25x25, 625 cells) can hold")
            }
            ParseError::HexNeedsSixteen { side } => {
                write!(f, "hexadecimal symbols 0-F need a 16x16 board, but this one has side {side}")
            }
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The position first, as a line alone for errors about a whole line.
        match (self, self.position()) {
            (
                ParseError::CellCount { .. } | ParseError::ShapeCells { .. } | ParseError::RowLength { .. },
                Some((line, _)),
            ) => {
                write!(f, "line {line}: ")?;
            }
            (_, Some((line, column))) => write!(f, "line {line}, column {column}: ")?,
            (_, None) => {}
        }
        Reason(self).fmt(f)
    }
}

fn symbol(digit: u8) -> char {
    Shape::symbol(digit).unwrap_or('?')
}

impl std::error::Error for ParseError {}
