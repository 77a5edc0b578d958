//! [`Candidates`]: the small set of digits a cell may still take.

use std::fmt;
use std::iter::FusedIterator;

/// The digits a cell may still take, as a bit set.
///
/// Digits run from 1 to the board's side (at most 25). Iterating yields them
/// in increasing order.
///
/// ```
/// use lazydoku::Board;
///
/// let board: Board = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..".parse()?;
/// let first = board.candidates(0);
/// assert_eq!(first.iter().collect::<Vec<u8>>(), [4, 5]);
/// assert_eq!(first.len(), 2);
/// assert!(first.contains(5));
/// assert!(board.candidates(2).is_empty()); // a given has no candidates
/// # Ok::<(), lazydoku::ParseError>(())
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Candidates {
    bits: u32,
}

impl Candidates {
    /// The set whose bit `d - 1` stands for digit `d`.
    pub(crate) const fn from_bits(bits: u32) -> Candidates {
        Candidates { bits }
    }

    /// The bit set: bit `d - 1` stands for digit `d`.
    #[must_use]
    pub const fn bits(self) -> u32 {
        self.bits
    }

    /// How many digits are in the set.
    #[must_use]
    pub const fn len(self) -> usize {
        self.bits.count_ones() as usize
    }

    /// Whether the set has no digit.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.bits == 0
    }

    /// Whether `digit` is in the set.
    #[must_use]
    pub const fn contains(self, digit: u8) -> bool {
        digit >= 1 && digit <= 32 && self.bits >> (digit - 1) & 1 == 1
    }

    /// The only digit, when the set has exactly one.
    #[must_use]
    pub const fn single(self) -> Option<u8> {
        if self.bits.is_power_of_two() { Some(digit_of(self.bits)) } else { None }
    }

    /// The digits in increasing order.
    pub const fn iter(self) -> Digits {
        Digits { bits: self.bits }
    }
}

impl IntoIterator for Candidates {
    type Item = u8;
    type IntoIter = Digits;

    fn into_iter(self) -> Digits {
        self.iter()
    }
}

impl fmt::Debug for Candidates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// The digit of a one-bit mask.
#[expect(clippy::cast_possible_truncation, reason = "at most 32")]
pub(crate) const fn digit_of(bit: u32) -> u8 {
    bit.trailing_zeros() as u8 + 1
}

/// An iterator over the digits of a [`Candidates`] set, smallest first.
#[derive(Clone, Debug)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct Digits {
    bits: u32,
}

impl Iterator for Digits {
    type Item = u8;

    fn next(&mut self) -> Option<u8> {
        if self.bits == 0 {
            return None;
        }
        let digit = digit_of(self.bits);
        self.bits &= self.bits - 1;
        Some(digit)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.bits.count_ones() as usize;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Digits {
    fn next_back(&mut self) -> Option<u8> {
        if self.bits == 0 {
            return None;
        }
        let top = self.bits.ilog2();
        self.bits &= !(1 << top);
        #[expect(clippy::cast_possible_truncation, reason = "at most 32")]
        Some(top as u8 + 1)
    }
}

impl ExactSizeIterator for Digits {}
impl FusedIterator for Digits {}
