//! Sums over cells whose digits may repeat: little killer clues (a total
//! along a diagonal) and arrows (the digits on the shaft add up to the
//! number in the circle).
//!
//! Both are one linear equation over the cells' digits, which propagation
//! keeps by bounds: a cell keeps a digit only if the other cells' smallest
//! and largest contributions can still make up the rest.

use smallvec::SmallVec;

/// A sum rule as it was given, so that rules compare, print and write back
/// as the user gave them.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum SumRule {
    /// The digits of `cells` add up to `total`.
    Total { total: usize, cells: Vec<u16> },
    /// The digits of `shaft` add up to the number whose decimal digits the
    /// cells of `circle` hold, first cell first.
    Arrow { circle: Vec<u16>, shaft: Vec<u16> },
}

/// A sum rule as propagation reads it: the weighted digits of `terms`
/// (cell, weight) add up to `total`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Linear {
    pub(crate) terms: SmallVec<[(u16, i32); 8]>,
    pub(crate) total: i32,
}

impl SumRule {
    /// Every cell of the rule, the circle's first.
    pub(crate) fn cells(&self) -> impl Iterator<Item = u16> + Clone + '_ {
        match self {
            SumRule::Total { cells, .. } => cells.iter().chain(&[]).copied(),
            SumRule::Arrow { circle, shaft } => circle.iter().chain(shaft).copied(),
        }
    }

    /// The equation: a total's cells weigh 1; an arrow's shaft weighs 1
    /// and its circle's cells -1, -10, -100 from the last one, against 0.
    pub(crate) fn linear(&self) -> Linear {
        match self {
            SumRule::Total { total, cells } => Linear {
                terms: cells.iter().map(|&c| (c, 1)).collect(),
                total: i32::try_from(*total).unwrap_or(i32::MAX),
            },
            SumRule::Arrow { circle, shaft } => {
                let places = circle.iter().rev().scan(1i32, |place, &c| {
                    let weight = *place;
                    *place = place.saturating_mul(10);
                    Some((c, -weight))
                });
                let mut terms: SmallVec<[(u16, i32); 8]> = places.collect();
                terms.reverse();
                terms.extend(shaft.iter().map(|&c| (c, 1)));
                Linear { terms, total: 0 }
            }
        }
    }

    /// What the digits must add up to, and what they do, when every cell
    /// holds one (`digit` gives a cell's digit); `None` while a cell is
    /// empty, or when they add up.
    pub(crate) fn broken(&self, digit: impl Fn(usize) -> Option<u8>) -> Option<(usize, usize)> {
        let sum = |cells: &[u16]| -> Option<usize> {
            cells.iter().map(|&c| digit(usize::from(c)).map(usize::from)).sum::<Option<usize>>()
        };
        let (wanted, found) = match self {
            SumRule::Total { total, cells } => (*total, sum(cells)?),
            SumRule::Arrow { circle, shaft } => {
                let number = circle
                    .iter()
                    .map(|&c| digit(usize::from(c)).map(usize::from))
                    .try_fold(0usize, |n, d| Some(n.saturating_mul(10).saturating_add(d?)))?;
                (number, sum(shaft)?)
            }
        };
        (wanted != found).then_some((wanted, found))
    }

    /// Whether the rule is an arrow's.
    pub(crate) fn is_arrow(&self) -> bool {
        matches!(self, SumRule::Arrow { .. })
    }
}

impl Linear {
    /// Whether some digits of 1 to `side`, one per cell, make the sum
    /// (by bounds: repeats allowed, regions not counted).
    pub(crate) fn possible(&self, side: usize) -> bool {
        let full = u32::MAX >> (32 - side);
        let (low, high) = self.terms.iter().fold((0i64, 0i64), |(low, high), &(_, weight)| {
            let (a, b) = contribution(full, weight);
            (low + a, high + b)
        });
        (low..=high).contains(&i64::from(self.total))
    }
}

/// The smallest and largest that a cell with candidates `mask` (not empty)
/// adds to a sum at `weight`.
#[inline]
pub(crate) fn contribution(mask: u32, weight: i32) -> (i64, i64) {
    let smallest = i64::from(mask.trailing_zeros() + 1);
    let largest = i64::from(32 - mask.leading_zeros());
    let weight = i64::from(weight);
    if weight >= 0 { (weight * smallest, weight * largest) } else { (weight * largest, weight * smallest) }
}

/// The digits of `mask` whose value at `weight` lies in `low..=high`.
#[inline]
pub(crate) fn digits_within(mask: u32, weight: i32, low: i64, high: i64) -> u32 {
    let mut keep = 0;
    let mut rest = mask;
    while rest != 0 {
        let bit = rest & rest.wrapping_neg();
        rest ^= bit;
        let value = i64::from(weight) * i64::from(bit.trailing_zeros() + 1);
        if (low..=high).contains(&value) {
            keep |= bit;
        }
    }
    keep
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_arrow_weighs_its_circle_by_decimal_places() {
        let pill = SumRule::Arrow { circle: vec![3, 4], shaft: vec![5, 6, 7] };
        let linear = pill.linear();
        assert_eq!(linear.terms.as_slice(), [(3, -10), (4, -1), (5, 1), (6, 1), (7, 1)]);
        assert_eq!(linear.total, 0);
        // 12 = 3 + 4 + 5.
        let digits = |c: usize| Some([0, 0, 0, 1, 2, 3, 4, 5][c]);
        assert_eq!(pill.broken(digits), None);
        let wrong = |c: usize| Some([0, 0, 0, 1, 3, 3, 4, 5][c]);
        assert_eq!(pill.broken(wrong), Some((13, 12)));
        assert_eq!(pill.broken(|c| (c != 7).then_some(1)), None, "an empty cell breaks nothing yet");
    }

    #[test]
    fn bounds_keep_the_digits_that_fit() {
        assert_eq!(contribution(0b1010, 1), (2, 4));
        assert_eq!(contribution(0b1010, -10), (-40, -20));
        assert_eq!(digits_within(0b1111, 1, 2, 3), 0b0110);
        assert_eq!(digits_within(0b1111, -1, -3, -2), 0b0110);
        let total = SumRule::Total { total: 20, cells: vec![0, 1] };
        assert!(!total.linear().possible(9));
        assert!(total.linear().possible(16));
        let arrow = SumRule::Arrow { circle: vec![0], shaft: vec![1, 2, 3, 4] };
        assert!(!arrow.linear().possible(3), "four cells add up to 4 at least");
        assert!(arrow.linear().possible(4));
    }
}
