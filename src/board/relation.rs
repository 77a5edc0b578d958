//! [`Relation`]: a rule between the digits of two cells, as thermometers,
//! inequality signs, Kropki dots and XV marks draw them.

use std::fmt;

use super::Shape;

/// How the digits of two cells must relate: the rule behind a
/// thermometer, an inequality sign, a Kropki dot or an XV mark. Given to
/// [`Rules::with_relation`](crate::Rules::with_relation) with its two
/// cells, the first cell before the relation and the second after it.
///
/// | puzzle mark | relation |
/// |---|---|
/// | `a < b`, or a thermometer's step from `a` to `b` | `Relation::Less` |
/// | a slow thermometer's step from `a` to `b` | `Relation::LessOrEqual` |
/// | Kropki's white dot | `Relation::Difference(1)` |
/// | Kropki's black dot | `Relation::Ratio(2)` |
/// | XV's X and V | `Relation::Sum(10)`, `Relation::Sum(5)` |
/// | a German whispers line's step | `Relation::Apart(5)` |
/// | no black dot, where all are given | `Relation::NotRatio(2)` |
/// | no white dot, where all are given | `Relation::NotDifference(1)` |
/// | no X or V, where all are given | `Relation::NotSum(10)` and `Relation::NotSum(5)` |
/// | a column indexer at row `r`, column `c` (159 puzzles), with the cell of its row in column `v` | `Relation::Index(v, c)` |
///
/// Only [`Relation::Less`], [`Relation::LessOrEqual`] and
/// [`Relation::Index`] depend on the order of their cells.
///
/// ```
/// use lazydoku::Relation;
///
/// assert!(Relation::Less.holds(3, 7));
/// assert!(!Relation::Less.holds(7, 3));
/// assert!(Relation::Difference(1).holds(5, 4));
/// assert!(Relation::Ratio(2).holds(3, 6) && Relation::Ratio(2).holds(6, 3));
/// assert!(Relation::Sum(10).holds(4, 6));
/// assert!(Relation::Apart(5).holds(9, 4) && !Relation::Apart(5).holds(3, 7));
/// assert_eq!(Relation::Ratio(2).to_string(), "one is 2 times the other");
/// assert!(Relation::NotRatio(2).holds(3, 5) && !Relation::NotRatio(2).holds(3, 6));
/// assert!(Relation::Index(4, 1).holds(4, 1) && Relation::Index(4, 1).holds(2, 3));
/// assert!(!Relation::Index(4, 1).holds(4, 2) && !Relation::Index(4, 1).holds(2, 1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Relation {
    /// The first cell's digit is smaller than the second's.
    Less,
    /// The first cell's digit is at most the second's: a slow
    /// thermometer's step, along which digits may stay the same.
    LessOrEqual,
    /// The two digits differ by exactly this much.
    Difference(usize),
    /// One digit is exactly this many times the other.
    Ratio(usize),
    /// The two digits add up to this.
    Sum(usize),
    /// The two digits differ by this much or more (German whispers are 5,
    /// Dutch whispers 4).
    Apart(usize),
    /// The two digits do not differ by this much: a pair of neighbours
    /// without a white dot, in a puzzle that gives all of them.
    NotDifference(usize),
    /// Neither digit is this many times the other: a pair of neighbours
    /// without a black dot, in a puzzle that gives all of them.
    NotRatio(usize),
    /// The two digits do not add up to this: a pair of neighbours without
    /// an X (or a V), in a puzzle that gives all of them.
    NotSum(usize),
    /// The first cell holds the first digit exactly when the second cell
    /// holds the second: an indexing cell and a cell it may point at. In a
    /// 159 puzzle the cell in column 1 of a row holds the column of the
    /// row's 1, so it is `Index(v, 1)` with the row's cell in column `v`,
    /// for each `v` but 1.
    Index(usize, usize),
}

impl Relation {
    /// Whether `first` and `second`, the digits of the first cell and of
    /// the second, keep this relation.
    #[must_use]
    pub fn holds(self, first: u8, second: u8) -> bool {
        let (a, b) = (usize::from(first), usize::from(second));
        match self {
            Relation::Less => a < b,
            Relation::LessOrEqual => a <= b,
            Relation::Difference(k) => a.abs_diff(b) == k,
            Relation::Ratio(k) => a.checked_mul(k) == Some(b) || b.checked_mul(k) == Some(a),
            Relation::Sum(k) => a + b == k,
            Relation::Apart(k) => a.abs_diff(b) >= k,
            Relation::NotDifference(k) => !Relation::Difference(k).holds(first, second),
            Relation::NotRatio(k) => !Relation::Ratio(k).holds(first, second),
            Relation::NotSum(k) => !Relation::Sum(k).holds(first, second),
            Relation::Index(v, d) => (a == v) == (b == d),
        }
    }

    /// The relation's name, as JSON puzzle objects write it: `less`,
    /// `difference`, `ratio`, `sum`, `apart`, `not-difference`,
    /// `not-ratio`, `not-sum` or `index`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Relation::Less => "less",
            Relation::LessOrEqual => "less-or-equal",
            Relation::Difference(_) => "difference",
            Relation::Ratio(_) => "ratio",
            Relation::Sum(_) => "sum",
            Relation::Apart(_) => "apart",
            Relation::NotDifference(_) => "not-difference",
            Relation::NotRatio(_) => "not-ratio",
            Relation::NotSum(_) => "not-sum",
            Relation::Index(..) => "index",
        }
    }

    /// The number a relation carries: the difference, the ratio or the
    /// sum; `None` for [`Relation::Less`] and [`Relation::LessOrEqual`],
    /// and for [`Relation::Index`], which carries two ([`Relation::digits`]).
    #[must_use]
    pub const fn value(self) -> Option<usize> {
        match self {
            Relation::Less | Relation::LessOrEqual | Relation::Index(..) => None,
            Relation::Difference(k)
            | Relation::Ratio(k)
            | Relation::Sum(k)
            | Relation::Apart(k)
            | Relation::NotDifference(k)
            | Relation::NotRatio(k)
            | Relation::NotSum(k) => Some(k),
        }
    }

    /// The two digits of [`Relation::Index`], the first cell's and the
    /// second's; `None` for every other relation.
    #[must_use]
    pub const fn digits(self) -> Option<(usize, usize)> {
        match self {
            Relation::Index(v, d) => Some((v, d)),
            _ => None,
        }
    }

    /// The relation of [`Relation::name`] `name` with [`Relation::value`]
    /// `value`; `None` for an unknown name, or a value missing or given
    /// where the relation has none.
    ///
    /// ```
    /// use lazydoku::Relation;
    ///
    /// assert_eq!(Relation::from_name("ratio", Some(2)), Some(Relation::Ratio(2)));
    /// assert_eq!(Relation::from_name("less", None), Some(Relation::Less));
    /// assert_eq!(Relation::from_name("sum", None), None);
    /// let xv = Relation::Sum(10);
    /// assert_eq!(Relation::from_name(xv.name(), xv.value()), Some(xv));
    /// ```
    #[must_use]
    pub fn from_name(name: &str, value: Option<usize>) -> Option<Relation> {
        match (name, value) {
            ("less", None) => Some(Relation::Less),
            ("less-or-equal", None) => Some(Relation::LessOrEqual),
            ("difference", Some(k)) => Some(Relation::Difference(k)),
            ("ratio", Some(k)) => Some(Relation::Ratio(k)),
            ("sum", Some(k)) => Some(Relation::Sum(k)),
            ("apart", Some(k)) => Some(Relation::Apart(k)),
            ("not-difference", Some(k)) => Some(Relation::NotDifference(k)),
            ("not-ratio", Some(k)) => Some(Relation::NotRatio(k)),
            ("not-sum", Some(k)) => Some(Relation::NotSum(k)),
            _ => None,
        }
    }

    /// Whether the two cells can be swapped, with the relation kept.
    pub(crate) fn is_symmetric(self) -> bool {
        match self {
            Relation::Less | Relation::LessOrEqual => false,
            Relation::Index(v, d) => v == d,
            _ => true,
        }
    }

    /// The digits (bit `d - 1` for digit `d`) of 1 to `side` that the
    /// second cell may hold when the first holds one of `first`: the
    /// supports of `first` across the relation. `full` has a bit for each
    /// digit of the board.
    #[inline]
    pub(crate) fn seconds_for(self, first: u32, full: u32) -> u32 {
        match self {
            // Above the smallest digit the first cell may hold.
            Relation::Less => first.checked_sub(1).map_or(0, |_| !(first ^ (first - 1)) & full),
            // From the smallest digit the first cell may hold up.
            Relation::LessOrEqual => match first & first.wrapping_neg() {
                0 => 0,
                lowest => !(lowest - 1) & full,
            },
            Relation::Difference(k) => shifted(first, k, full),
            Relation::Ratio(k) => each_digit(first, multiples(k), full),
            Relation::Sum(k) => each_digit(first, |d| [k.checked_sub(d), None], full),
            Relation::Apart(k) => apart(first, k, full),
            // A digit supports every digit but the few its relation would
            // pair it with.
            Relation::NotDifference(k) => each_digit_but(first, |d| [d.checked_add(k), d.checked_sub(k)], full),
            Relation::NotRatio(k) => each_digit_but(first, multiples(k), full),
            Relation::NotSum(k) => each_digit_but(first, |d| [k.checked_sub(d), None], full),
            Relation::Index(v, d) => exactly_when(first, v, d, full),
        }
    }

    /// The digits the first cell may hold when the second holds one of
    /// `second`: [`Relation::seconds_for`] the other way.
    #[inline]
    pub(crate) fn firsts_for(self, second: u32, full: u32) -> u32 {
        match self {
            // Below the largest digit the second cell may hold.
            Relation::Less => second.checked_ilog2().map_or(0, |top| (1 << top) - 1),
            // Up to the largest digit the second cell may hold.
            Relation::LessOrEqual => second.checked_ilog2().map_or(0, |top| u32::MAX >> (31 - top)),
            Relation::Index(v, d) => exactly_when(second, d, v, full),
            symmetric => symmetric.seconds_for(second, full),
        }
    }

    /// Whether two digits of 1 to `side` keep the relation.
    pub(crate) fn possible(self, side: usize) -> bool {
        let full = u32::MAX >> (32 - side);
        self.seconds_for(full, full) != 0
    }
}

/// The digits of one cell, within `full`, that some digit of `mask` in the
/// other supports when the other holds `mine` exactly when this one holds
/// `theirs`: `theirs` if `mask` has `mine`, every digit but `theirs` if it
/// has another.
fn exactly_when(mask: u32, mine: usize, theirs: usize, full: u32) -> u32 {
    let bit =
        |digit: usize| digit.checked_sub(1).and_then(|shift| 1u32.checked_shl(u32::try_from(shift).ok()?)).unwrap_or(0);
    let (mine, theirs) = (bit(mine), bit(theirs));
    let with = if mask & mine != 0 { theirs } else { 0 };
    let without = if mask & !mine != 0 { !theirs } else { 0 };
    (with | without) & full
}

/// `mask` moved `by` digits up and down, within `full`.
fn shifted(mask: u32, by: usize, full: u32) -> u32 {
    let Ok(by) = u32::try_from(by) else { return 0 };
    (mask.checked_shl(by).unwrap_or(0) | mask.checked_shr(by).unwrap_or(0)) & full
}

/// The digits `by` or more away from some digit of `mask`, within `full`:
/// those `by` or more below its largest, and those `by` or more above its
/// smallest.
fn apart(mask: u32, by: usize, full: u32) -> u32 {
    let (Some(top), Ok(by)) = (mask.checked_ilog2(), u32::try_from(by)) else { return 0 };
    let below = top.checked_sub(by).map_or(0, |highest| u32::MAX >> (31 - highest));
    let above = mask.trailing_zeros().checked_add(by).and_then(|lowest| u32::MAX.checked_shl(lowest)).unwrap_or(0);
    (below | above) & full
}

/// The digits of `full` that `partners` leaves out for some digit of
/// `mask`: each digit supports all but its partners.
fn each_digit_but(mut mask: u32, partners: impl Fn(usize) -> [Option<usize>; 2], full: u32) -> u32 {
    let mut out = 0u32;
    while mask != 0 && out != full {
        let digit = mask.trailing_zeros() as usize + 1;
        mask &= mask - 1;
        out |= full & !bits_of(partners(digit));
    }
    out & full
}

/// The digits that `partners` gives for some digit of `mask`, within `full`.
fn each_digit(mut mask: u32, partners: impl Fn(usize) -> [Option<usize>; 2], full: u32) -> u32 {
    let mut out = 0u32;
    while mask != 0 {
        let digit = mask.trailing_zeros() as usize + 1;
        mask &= mask - 1;
        out |= bits_of(partners(digit));
    }
    out & full
}

/// The digit bits of `partners`, those of 1 to 32.
fn bits_of(partners: [Option<usize>; 2]) -> u32 {
    partners.into_iter().flatten().filter(|partner| (1..=32).contains(partner)).fold(0, |bits, p| bits | 1 << (p - 1))
}

/// The digits `k` times a digit, and the digit `k` times which it is.
fn multiples(k: usize) -> impl Fn(usize) -> [Option<usize>; 2] {
    move |d| [d.checked_mul(k), (d.checked_rem(k) == Some(0)).then(|| d / k)]
}

/// What an indexing cell's digit points at: a cell of its row, its column
/// or its box ([`Rules::with_indexer`](crate::Rules::with_indexer)), and
/// what that cell then holds. Rows, columns, digits and places in a box
/// (numbered row by row) count from 1 here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Indexer {
    /// At row `r` of its column, holding `v`: row `v` of the column holds `r`.
    Row,
    /// At column `c` of its row, holding `v`: column `v` of the row holds
    /// `c`. A 159 puzzle has these in columns 1, 5 and 9 of every row.
    Column,
    /// At place `i` of its box, holding `v`: place `v` of the box holds `i`.
    Box,
}

impl Indexer {
    /// The relations of an indexer of this kind at `cell` of a board of
    /// `shape`: [`Relation::Index`] with each cell it may point at but
    /// itself.
    pub(crate) fn relations(self, shape: Shape, cell: usize) -> impl Iterator<Item = (usize, Relation, usize)> {
        let (side, box_rows, box_cols) = (shape.side(), shape.box_rows(), shape.box_cols());
        let (row, column) = (cell / side, cell % side);
        let corner = cell - row % box_rows * side - column % box_cols;
        (1..=side)
            .map(move |v| {
                let (digit, pointed) = match self {
                    Indexer::Row => (row + 1, (v - 1) * side + column),
                    Indexer::Column => (column + 1, row * side + v - 1),
                    Indexer::Box => (
                        row % box_rows * box_cols + column % box_cols + 1,
                        corner + (v - 1) / box_cols * side + (v - 1) % box_cols,
                    ),
                };
                (cell, Relation::Index(v, digit), pointed)
            })
            .filter(move |&(_, _, pointed)| pointed != cell)
    }
}

impl fmt::Display for Relation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Relation::Less => write!(f, "the first is smaller"),
            Relation::LessOrEqual => write!(f, "the first is no larger"),
            Relation::Difference(k) => write!(f, "they differ by {k}"),
            Relation::Ratio(k) => write!(f, "one is {k} times the other"),
            Relation::Sum(k) => write!(f, "they add up to {k}"),
            Relation::Apart(k) => write!(f, "they differ by {k} or more"),
            Relation::NotDifference(k) => write!(f, "they do not differ by {k}"),
            Relation::NotRatio(k) => write!(f, "neither is {k} times the other"),
            Relation::NotSum(k) => write!(f, "they do not add up to {k}"),
            Relation::Index(v, d) => write!(f, "the first is {v} exactly when the second is {d}"),
        }
    }
}

/// Why a digit breaks a relation with the digit of another cell, as the
/// end of a sentence about it: "it must be smaller than the 3 at row 1,
/// column 2".
pub(crate) struct Broken<'a> {
    pub(crate) relation: Relation,
    /// Whether the digit is the relation's first cell's.
    pub(crate) first: bool,
    /// The other cell's digit, as it is written.
    pub(crate) other: &'a dyn fmt::Display,
    /// The other cell's row and column, from 0.
    pub(crate) at: (usize, usize),
}

impl fmt::Display for Broken<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (other, row, col) = (self.other, self.at.0 + 1, self.at.1 + 1);
        match self.relation {
            Relation::Less => {
                let side = if self.first { "smaller" } else { "larger" };
                write!(f, "it must be {side} than the {other} at row {row}, column {col}")
            }
            Relation::LessOrEqual => {
                let side = if self.first { "larger" } else { "smaller" };
                write!(f, "it must be no {side} than the {other} at row {row}, column {col}")
            }
            relation => write!(f, "it and the {other} at row {row}, column {col} break the rule that {relation}"),
        }
    }
}

/// Two cells whose digits keep a relation: `cells[0]` is the first.
/// Symmetric relations keep their smaller cell first, so that the same
/// rule given either way is one rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Related {
    pub(crate) cells: [u16; 2],
    pub(crate) relation: Relation,
}

impl Related {
    pub(crate) fn new(first: u16, relation: Relation, second: u16) -> Related {
        let cells = if relation.is_symmetric() && second < first { [second, first] } else { [first, second] };
        Related { cells, relation }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every relation's masks against the digit pairs that keep it.
    #[test]
    fn supports_are_the_digits_that_keep_the_relation() {
        let relations = [
            Relation::Less,
            Relation::LessOrEqual,
            Relation::Difference(0),
            Relation::Difference(1),
            Relation::Difference(3),
            Relation::Difference(40),
            Relation::Ratio(0),
            Relation::Ratio(1),
            Relation::Ratio(2),
            Relation::Ratio(3),
            Relation::Ratio(usize::MAX),
            Relation::Sum(5),
            Relation::Sum(10),
            Relation::Sum(0),
            Relation::Sum(usize::MAX),
            Relation::Apart(0),
            Relation::Apart(1),
            Relation::Apart(4),
            Relation::Apart(5),
            Relation::Apart(24),
            Relation::Apart(25),
            Relation::Apart(usize::MAX),
            Relation::NotDifference(0),
            Relation::NotDifference(1),
            Relation::NotDifference(3),
            Relation::NotDifference(usize::MAX),
            Relation::NotRatio(0),
            Relation::NotRatio(1),
            Relation::NotRatio(2),
            Relation::NotRatio(usize::MAX),
            Relation::NotSum(2),
            Relation::NotSum(10),
            Relation::NotSum(0),
            Relation::NotSum(usize::MAX),
            Relation::Index(1, 1),
            Relation::Index(4, 1),
            Relation::Index(1, 9),
            Relation::Index(25, 3),
            Relation::Index(0, 2),
            Relation::Index(3, 40),
            Relation::Index(usize::MAX, usize::MAX),
        ];
        for side in [4usize, 6, 9, 16, 25] {
            let full = u32::MAX >> (32 - side);
            for relation in relations {
                // Masks of a few digits each, and every single digit.
                let keeps = |a: usize, b: usize| relation.holds(u8::try_from(a).unwrap(), u8::try_from(b).unwrap());
                let masks = (1..=side).map(|d| 1u32 << (d - 1)).chain([full, 0b101, 0b1_0010, 0xAAAA, 0]);
                for mask in masks.map(|m| m & full) {
                    let digits = || (1..=side).filter(|d| mask >> (d - 1) & 1 == 1);
                    let seconds =
                        (1..=side).filter(|&b| digits().any(|a| keeps(a, b))).fold(0, |m, b| m | 1 << (b - 1));
                    let firsts = (1..=side).filter(|&a| digits().any(|b| keeps(a, b))).fold(0, |m, a| m | 1 << (a - 1));
                    assert_eq!(relation.seconds_for(mask, full), seconds, "{relation:?} side {side} mask {mask:b}");
                    assert_eq!(relation.firsts_for(mask, full), firsts, "{relation:?} side {side} mask {mask:b}");
                }
                let possible = (1..=side).any(|a| (1..=side).any(|b| keeps(a, b)));
                assert_eq!(relation.possible(side), possible, "{relation:?} side {side}");
            }
        }
    }
}
