//! [`Conflict`]: why a digit cannot be placed.

use std::fmt;

use super::relation::Broken;
use super::{Candidates, ClassLine, Region, Relation};

/// Why [`Board::place`](crate::Board::place) refused a digit: the digit is
/// already in one of the cell's regions, or the cell is taken.
///
/// Rows and columns count from 0 in the fields, as everywhere in the
/// library ([`Shape::cell`](crate::Shape::cell),
/// [`ParseError::Repeated`](crate::ParseError::Repeated)), and from 1 in the
/// message, which is meant for people.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Conflict {
    /// The cell index is past the last cell.
    CellOutOfRange {
        /// The index given.
        cell: usize,
        /// How many cells the board has.
        cells: usize,
    },
    /// The digit is 0 or larger than the board's side.
    DigitOutOfRange {
        /// The digit given.
        digit: u8,
        /// The largest digit of the board.
        side: usize,
    },
    /// The cell already holds a digit.
    Filled {
        /// The cell's row.
        row: usize,
        /// The cell's column.
        col: usize,
        /// The digit it holds.
        digit: u8,
    },
    /// Another cell of one of the cell's regions holds the same digit.
    Repeated {
        /// The digit.
        digit: u8,
        /// The region the two cells share.
        region: Region,
        /// The cell's row.
        row: usize,
        /// The cell's column.
        col: usize,
        /// The row of the cell that already holds the digit.
        peer_row: usize,
        /// The column of the cell that already holds the digit.
        peer_col: usize,
    },
    /// A cell that shares a side with the cell holds a digit one below or
    /// above it, under the non-consecutive rule.
    Consecutive {
        /// The digit.
        digit: u8,
        /// The neighbour's digit.
        neighbour: u8,
        /// The cell's row.
        row: usize,
        /// The cell's column.
        col: usize,
        /// The neighbour's row.
        neighbour_row: usize,
        /// The neighbour's column.
        neighbour_col: usize,
    },
    /// A cell related to the cell ([`Rules::with_relation`](crate::Rules::with_relation))
    /// holds a digit that does not keep the relation with it.
    Related {
        /// The digit.
        digit: u8,
        /// The relation.
        relation: Relation,
        /// Whether the cell is the relation's first cell (for
        /// [`Relation::Less`], the one that must be smaller).
        first: bool,
        /// The other cell's digit.
        other: u8,
        /// The cell's row.
        row: usize,
        /// The cell's column.
        col: usize,
        /// The other cell's row.
        other_row: usize,
        /// The other cell's column.
        other_col: usize,
    },
    /// The rules allow the cell other digits only
    /// ([`Rules::with_allowed_digits`](crate::Rules::with_allowed_digits)).
    NotAllowed {
        /// The digit.
        digit: u8,
        /// The digits the cell may hold.
        allowed: Candidates,
        /// The cell's row.
        row: usize,
        /// The cell's column.
        col: usize,
    },
    /// The digit fills a killer cage whose digits do not add up to its sum.
    CageSum {
        /// The cage's sum.
        sum: usize,
        /// What its digits add up to.
        found: usize,
        /// The cell's row.
        row: usize,
        /// The cell's column.
        col: usize,
    },
    /// The digit fills the last cell of a sum
    /// ([`Rules::with_sum`](crate::Rules::with_sum)), an arrow
    /// ([`Rules::with_arrow`](crate::Rules::with_arrow)) or a sandwich
    /// ([`Rules::with_sandwich`](crate::Rules::with_sandwich)) whose digits
    /// do not add up.
    SumBroken {
        /// What the digits must add up to: the sum's total, the number in
        /// the arrow's circle, or the sandwich's clue.
        sum: usize,
        /// What they add up to (an arrow's shaft, the digits between a
        /// sandwich's ends).
        found: usize,
        /// Which kind of sum it is.
        kind: SumKind,
        /// The cell's row.
        row: usize,
        /// The cell's column.
        col: usize,
    },
    /// The digit fills the last cell of a between line
    /// ([`Rules::with_between_line`](crate::Rules::with_between_line)) one of
    /// whose middle digits does not lie strictly between its ends.
    NotBetween {
        /// The middle digit out of place.
        digit: u8,
        /// The smaller end's digit.
        low: u8,
        /// The larger end's digit.
        high: u8,
        /// The cell's row.
        row: usize,
        /// The cell's column.
        col: usize,
    },
    /// The digit fills the last cell of a renban line
    /// ([`Rules::with_renban`](crate::Rules::with_renban)) whose digits are
    /// not a run of consecutive digits, each once.
    NotRenban {
        /// The line's smallest digit.
        low: u8,
        /// The line's largest digit.
        high: u8,
        /// The cell's row.
        row: usize,
        /// The cell's column.
        col: usize,
    },
    /// The digit fills the last cell of a skyscraper clue's line
    /// ([`Rules::with_skyscraper`](crate::Rules::with_skyscraper)) that
    /// shows another number of digits.
    Seen {
        /// The clue: how many digits the line must show.
        seen: usize,
        /// How many it shows.
        found: usize,
        /// The cell's row.
        row: usize,
        /// The cell's column.
        col: usize,
    },
    /// The digit fills the last cell of an entropic or modular line
    /// ([`Rules::with_entropic_line`](crate::Rules::with_entropic_line),
    /// [`Rules::with_modular_line`](crate::Rules::with_modular_line)) with
    /// two digits of one class among three cells in a row.
    SameClass {
        /// Which line it is.
        kind: ClassLine,
        /// The first of the two digits along the line.
        first: u8,
        /// The second.
        second: u8,
        /// The cell's row.
        row: usize,
        /// The cell's column.
        col: usize,
    },
    /// The digit fills the last cell of a quadruple
    /// ([`Rules::with_quadruple`](crate::Rules::with_quadruple)) without one
    /// of its digits (or without it as many times as it is given).
    QuadrupleMissing {
        /// The digit missing.
        digit: u8,
        /// The cell's row.
        row: usize,
        /// The cell's column.
        col: usize,
    },
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Conflict::CellOutOfRange { cell, cells } => {
                write!(f, "cell {cell} is off the board; use an index below {cells}")
            }
            Conflict::DigitOutOfRange { digit, side } => {
                write!(f, "digit {digit} is out of range; use a digit from 1 to {side}")
            }
            Conflict::Filled { row, col, digit } => {
                write!(f, "row {}, column {} already holds {digit}; choose an empty cell", row + 1, col + 1)
            }
            Conflict::Repeated { digit, region, row, col, peer_row, peer_col } => write!(
                f,
                "{digit} cannot go at row {}, column {}: the {region} already has it at row {}, column {}",
                row + 1,
                col + 1,
                peer_row + 1,
                peer_col + 1
            ),
            Conflict::Consecutive { digit, neighbour, row, col, neighbour_row, neighbour_col } => write!(
                f,
                "{digit} cannot go at row {}, column {}: the {neighbour} next to it at row {}, column {} is consecutive",
                row + 1,
                col + 1,
                neighbour_row + 1,
                neighbour_col + 1
            ),
            Conflict::Related { digit, relation, first, other, row, col, other_row, other_col } => {
                let broken = Broken { relation, first, other: &other, at: (other_row, other_col) };
                write!(f, "{digit} cannot go at row {}, column {}: {broken}", row + 1, col + 1)
            }
            Conflict::NotAllowed { digit, allowed, row, col } => {
                write!(
                    f,
                    "{digit} cannot go at row {}, column {}: {}",
                    row + 1,
                    col + 1,
                    OnlyAllowed { digits: allowed, symbols: false }
                )
            }
            Conflict::CageSum { sum, found, row, col } => write!(
                f,
                "row {}, column {} completes a cage that adds up to {found}, not its sum of {sum}",
                row + 1,
                col + 1
            ),
            Conflict::QuadrupleMissing { digit, row, col } => {
                write!(f, "row {}, column {} completes a quadruple short of its {digit}", row + 1, col + 1)
            }
            Conflict::Seen { seen, found, row, col } => write!(
                f,
                "row {}, column {} completes a skyscraper line that shows {found} digits, not its clue of {seen}",
                row + 1,
                col + 1
            ),
            Conflict::SameClass { kind, first, second, row, col } => {
                write!(
                    f,
                    "row {}, column {} completes {}",
                    row + 1,
                    col + 1,
                    SameClassLine { kind, first, second, symbols: false }
                )
            }
            Conflict::NotRenban { low, high, row, col } => write!(
                f,
                "row {}, column {} completes a renban line whose digits, {low} to {high}, are not a run of consecutive digits each once",
                row + 1,
                col + 1
            ),
            Conflict::NotBetween { digit, low, high, row, col } => write!(
                f,
                "row {}, column {} completes a between line whose {digit} does not lie between its ends, {low} and {high}",
                row + 1,
                col + 1
            ),
            Conflict::SumBroken { sum, found, kind, row, col } => {
                write!(f, "row {}, column {} completes {}", row + 1, col + 1, SumMismatch { sum, found, kind })
            }
        }
    }
}

impl std::error::Error for Conflict {}

/// How a filled sum or arrow fails to add up, as the end of a sentence:
/// "an arrow whose shaft adds up to 7, not the 8 in its circle".
pub(crate) struct SumMismatch {
    pub(crate) sum: usize,
    pub(crate) found: usize,
    pub(crate) kind: SumKind,
}

impl fmt::Display for SumMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let SumMismatch { sum, found, kind } = *self;
        match kind {
            SumKind::Total => write!(f, "a sum whose digits add up to {found}, not its total of {sum}"),
            SumKind::Arrow => write!(f, "an arrow whose shaft adds up to {found}, not the {sum} in its circle"),
            SumKind::Sandwich => write!(
                f,
                "a sandwich whose digits between its smallest and its largest add up to {found}, not its clue of {sum}"
            ),
            SumKind::XSum => {
                write!(
                    f,
                    "an X-sum whose first digits, as many as the first says, add up to {found}, not its clue of {sum}"
                )
            }
            SumKind::RegionSum => {
                write!(f, "a region sum line whose segments add up to {sum} and {found}, not one sum")
            }
            SumKind::Zipper => {
                write!(f, "a zipper line whose cells around its middle add up to {sum} and {found}, not one sum")
            }
            SumKind::DoubleArrow => {
                write!(f, "a double arrow whose ends add up to {sum} and the cells between them to {found}")
            }
        }
    }
}

/// How a filled line of classes is broken, as the end of a sentence: "an
/// entropic line whose 2 and 3, among three cells in a row, are of one
/// third of the digits".
/// The digits are numbers, or the symbols a puzzle writes them with.
pub(crate) struct SameClassLine {
    pub(crate) kind: ClassLine,
    pub(crate) first: u8,
    pub(crate) second: u8,
    pub(crate) symbols: bool,
}

impl fmt::Display for SameClassLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let SameClassLine { kind, first, second, symbols } = *self;
        let shown = |digit: u8| match super::Shape::symbol(digit).filter(|_| symbols) {
            Some(symbol) => symbol.to_string(),
            None => digit.to_string(),
        };
        let (first, second) = (shown(first), shown(second));
        match kind {
            ClassLine::Entropic => write!(
                f,
                "an entropic line whose {first} and {second}, among three cells in a row, are of one third of the digits"
            ),
            ClassLine::Modular => write!(
                f,
                "a modular line whose {first} and {second}, among three cells in a row, leave the same remainder divided by 3"
            ),
        }
    }
}

/// Which kind of sum [`Conflict::SumBroken`] and
/// [`ParseError::SumBroken`](crate::ParseError::SumBroken) speak of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SumKind {
    /// A total over cells whose digits may repeat
    /// ([`Rules::with_sum`](crate::Rules::with_sum)): a little killer clue.
    Total,
    /// An arrow ([`Rules::with_arrow`](crate::Rules::with_arrow)).
    Arrow,
    /// A sandwich sum ([`Rules::with_sandwich`](crate::Rules::with_sandwich)).
    Sandwich,
    /// An X-sum ([`Rules::with_x_sum`](crate::Rules::with_x_sum)): its
    /// clue, and what its first digits add up to.
    XSum,
    /// A region sum line
    /// ([`Rules::with_region_sum_line`](crate::Rules::with_region_sum_line)):
    /// its first segment's sum, and another's.
    RegionSum,
    /// A zipper line ([`Rules::with_zipper_line`](crate::Rules::with_zipper_line)):
    /// its middle digit (or first pair's sum), and a pair's sum.
    Zipper,
    /// A double arrow ([`Rules::with_double_arrow`](crate::Rules::with_double_arrow)):
    /// its ends' sum, and its middle's.
    DoubleArrow,
}

/// What the rules allow a cell, as the end of a sentence about a digit
/// that is not among it: "the rules allow only 2, 4, 6 or 8 there". The
/// digits are numbers, or the symbols a puzzle writes them with (`A` for
/// 10 on 16x16) when `symbols` is set.
pub(crate) struct OnlyAllowed {
    pub(crate) digits: Candidates,
    pub(crate) symbols: bool,
}

impl fmt::Display for OnlyAllowed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the rules allow only ")?;
        let count = self.digits.len();
        for (i, digit) in self.digits.iter().enumerate() {
            let before = if i == 0 {
                ""
            } else if i + 1 == count {
                " or "
            } else {
                ", "
            };
            match super::Shape::symbol(digit).filter(|_| self.symbols) {
                Some(symbol) => write!(f, "{before}{symbol}")?,
                None => write!(f, "{before}{digit}")?,
            }
        }
        f.write_str(" there")
    }
}
