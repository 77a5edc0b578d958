//! Sums over cells whose digits may repeat: little killer clues (a total
//! along a diagonal) and arrows (the digits on the shaft add up to the
//! number in the circle); and sandwich sums (the digits between a row's
//! smallest and largest add up to the clue).
//!
//! The first two are one linear equation over the cells' digits, which
//! propagation keeps by bounds: a cell keeps a digit only if the other
//! cells' smallest and largest contributions can still make up the rest.
//! A sandwich is kept by trying each place of its two ends.

use smallvec::SmallVec;

use super::SumKind;

/// A sum rule as it was given, so that rules compare, print and write back
/// as the user gave them.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum LineRule {
    /// The digits of `cells` add up to `total`.
    Total { total: usize, cells: Vec<u16> },
    /// The digits of `shaft` add up to the number whose decimal digits the
    /// cells of `circle` hold, first cell first.
    Arrow { circle: Vec<u16>, shaft: Vec<u16> },
    /// The digits of `cells` (a region, in order along it) between its
    /// smallest digit (1) and its largest (the side) add up to `sum`.
    Sandwich { sum: usize, cells: Vec<u16> },
    /// An X-sum: the first `x` digits of `cells` (a region, from the
    /// clue's side), where `x` is the first digit, add up to `sum`.
    XSum { sum: usize, cells: Vec<u16> },
    /// A skyscraper clue: seen from the clue's side, `seen` of `cells`' (a
    /// region's) digits are taller than every digit before them.
    Skyscraper { seen: usize, cells: Vec<u16> },
    /// The digits of `line`'s cells between its two ends lie strictly
    /// between the ends' digits.
    Between { line: Vec<u16> },
    /// A quadruple: `cells` (sorted) hold each digit of `digits` (sorted,
    /// a digit given twice held twice), and maybe others.
    Quadruple { cells: Vec<u16>, digits: Vec<u8> },
    /// A renban line: `line`'s cells hold a run of consecutive digits,
    /// each once, in any order.
    Renban { line: Vec<u16> },
    /// A line whose `groups` of cells (worked out from `line` by `kind`)
    /// add up to one sum each: a region sum line's segments, a zipper
    /// line's pairs around its middle, a double arrow's ends and middle.
    /// `cells` are the groups' cells, group by group.
    EqualSums { kind: EqualSumKind, line: Vec<u16>, groups: Vec<Vec<u16>>, cells: Vec<u16> },
    /// A line on which any three cells in a row hold digits of three
    /// different `classes` (digit masks): an entropic line's thirds of the
    /// digits, a modular line's remainders divided by 3.
    Classes { kind: ClassLine, line: Vec<u16>, classes: [u32; 3] },
}

/// Which line of classes a rule is: an entropic line
/// ([`Rules::with_entropic_line`](crate::Rules::with_entropic_line)) or a
/// modular line ([`Rules::with_modular_line`](crate::Rules::with_modular_line)),
/// as [`Conflict::SameClass`](crate::Conflict::SameClass) names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ClassLine {
    /// An entropic line: any three cells in a row hold a digit of the
    /// lower third of the digits (1 to 3 on 9x9), one of the middle third
    /// and one of the upper third.
    Entropic,
    /// A modular line: any three cells in a row hold digits that leave
    /// three different remainders divided by 3.
    Modular,
}

/// Which line of equal sums a [`LineRule::EqualSums`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum EqualSumKind {
    /// Each segment of the line within one box (or jigsaw region) adds up
    /// to the same.
    RegionSum,
    /// Cells the same distance from the line's middle add up to the same,
    /// the middle cell's digit on a line of odd length.
    Zipper,
    /// The two ends add up to what the cells between them do.
    DoubleArrow,
}

impl EqualSumKind {
    /// The groups of equal sums along `line` (of two cells or more), but
    /// for a region sum line, whose segments depend on the regions
    /// ([`segments`]).
    pub(crate) fn groups(self, line: &[u16]) -> Vec<Vec<u16>> {
        let n = line.len();
        match self {
            EqualSumKind::RegionSum => vec![line.to_vec()],
            EqualSumKind::Zipper => {
                let middle = (n % 2 == 1).then(|| vec![line[n / 2]]);
                middle.into_iter().chain((0..n / 2).map(|i| vec![line[i], line[n - 1 - i]])).collect()
            }
            EqualSumKind::DoubleArrow => vec![vec![line[0], line[n - 1]], line[1..n - 1].to_vec()],
        }
    }
}

/// The digits the cells of `groups`, which add up to one sum each, may
/// keep (group by group, into `keep`), given every cell's candidates
/// (`held`, a filled cell's digit as its one candidate): the sum lies
/// within every group's bounds (the least and greatest its cells'
/// candidates add up to), and each cell keeps the digits with which its
/// group can still make such a sum. `None` when no sum is left.
fn equal_sums_narrowed(groups: &[Vec<u16>], held: impl Fn(usize) -> u32, keep: &mut SmallVec<[u32; 32]>) -> Option<()> {
    let bounds = |group: &[u16]| {
        group.iter().fold((0, 0), |(least, most), &cell| {
            let (a, b) = contribution(held(usize::from(cell)), 1);
            (least + a, most + b)
        })
    };
    let (low, high) = groups.iter().fold((i64::MIN, i64::MAX), |(low, high), group| {
        let (least, most) = bounds(group);
        (low.max(least), high.min(most))
    });
    if low > high {
        return None;
    }
    keep.clear();
    for group in groups {
        let (least, most) = bounds(group);
        keep.extend(group.iter().map(|&cell| {
            let mask = held(usize::from(cell));
            let (own_least, own_most) = contribution(mask, 1);
            // The others add `least - own_least` to `most - own_most`.
            digits_within(mask, 1, low - (most - own_most), high - (least - own_least))
        }));
    }
    keep.iter().all(|&k| k != 0).then_some(())
}

/// The digits of each class of a line of classes on digits 1 to `side`:
/// an entropic line's lower, middle and upper thirds (`None` when `side`
/// does not split into thirds), a modular line's digits by their
/// remainder divided by 3.
pub(crate) fn classes_of(kind: ClassLine, side: usize) -> Option<[u32; 3]> {
    let mut classes = [0u32; 3];
    for digit in 1..=side {
        let class = match kind {
            ClassLine::Entropic if side % 3 == 0 => (digit - 1) / (side / 3),
            ClassLine::Entropic => return None,
            ClassLine::Modular => digit % 3,
        };
        classes[class] |= 1 << (digit - 1);
    }
    Some(classes)
}

/// The digits a line of classes' cells may keep, given every cell's
/// candidates (`held`, a filled cell's digit as its one candidate), into
/// `keep`. Three cells in a row hold three classes, so cells three apart
/// share a class, and the line's first three places (two, on a line of
/// two) take different classes: each place keeps the classes every cell
/// at it can hold, those are settled as distinct, and each cell keeps the
/// digits of its place's classes. `None` when a place has none left.
fn classes_narrowed(
    line: &[u16],
    classes: &[u32; 3],
    held: impl Fn(usize) -> u32,
    keep: &mut SmallVec<[u32; 32]>,
) -> Option<()> {
    let places = line.len().min(3);
    // Each place's classes, as bits 0 to 2.
    let mut allowed = [0b111u32; 3];
    for (k, &cell) in line.iter().enumerate() {
        let mask = held(usize::from(cell));
        let fits = (0..3).filter(|&c| mask & classes[c] != 0).fold(0, |set, c| set | 1 << c);
        allowed[k % 3] &= fits;
    }
    let allowed = &mut allowed[..places];
    if places == 3 {
        if !settle_run(allowed, 0b111) {
            return None;
        }
    } else if allowed.contains(&0) || (allowed[0] == allowed[1] && allowed[0].is_power_of_two()) {
        return None;
    } else if allowed[0].is_power_of_two() {
        allowed[1] &= !allowed[0];
    } else if allowed[1].is_power_of_two() {
        allowed[0] &= !allowed[1];
    }
    keep.clear();
    keep.extend(line.iter().enumerate().map(|(k, &cell)| {
        let digits = (0..3).filter(|&c| allowed[k % 3] & 1 << c != 0).fold(0, |set, c| set | classes[c]);
        held(usize::from(cell)) & digits
    }));
    keep.iter().all(|&k| k != 0).then_some(())
}

/// `line` cut into its segments: the longest runs of cells along it in one
/// region (`region_of` gives a cell's, `u32::MAX` for none), a region left
/// and entered again starting a new one.
pub(crate) fn segments(line: &[u16], region_of: &[u32]) -> Vec<Vec<u16>> {
    let mut out: Vec<Vec<u16>> = Vec::new();
    let mut last = None;
    for &cell in line {
        let region = region_of.get(usize::from(cell)).copied().unwrap_or(u32::MAX);
        match out.last_mut() {
            Some(segment) if last == Some(region) && region != u32::MAX => segment.push(cell),
            _ => out.push(vec![cell]),
        }
        last = Some(region);
    }
    out
}

/// How a filled rule along a line is broken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LineBreak {
    /// A sum: what the digits must add up to, and what they do.
    Sum { sum: usize, found: usize, kind: SumKind },
    /// A between line: a middle digit, and the ends' digits, smaller first.
    Between { digit: u8, low: u8, high: u8 },
    /// A quadruple without enough of one of its digits.
    Missing { digit: u8 },
    /// A renban line whose digits are not a run, each once: its smallest
    /// and largest digit.
    NotRun { low: u8, high: u8 },
    /// A line of classes with two digits of one class among three cells
    /// in a row.
    SameClass { kind: ClassLine, first: u8, second: u8 },
    /// A skyscraper clue and how many digits its line shows.
    Seen { seen: usize, found: usize },
}

/// A sum rule as propagation reads it: the weighted digits of `terms`
/// (cell, weight) add up to `total`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Linear {
    pub(crate) terms: SmallVec<[(u16, i32); 8]>,
    pub(crate) total: i32,
}

impl LineRule {
    /// A sandwich along `cells`, read from the end with the smaller cell
    /// number: the digits between the 1 and the largest digit are the same
    /// read either way, so a line and its reverse are one rule.
    pub(crate) fn sandwich(sum: usize, mut cells: Vec<u16>) -> LineRule {
        if cells.first() > cells.last() {
            cells.reverse();
        }
        LineRule::Sandwich { sum, cells }
    }

    /// The same rule with each cell `c` at `cell(c)`, its cells along the
    /// line in the same order, and put in the order its builder keeps where
    /// that is another (a sum's cells, a shaft's and a quadruple's sorted,
    /// a sandwich's from its smaller end). A region sum line's segments are
    /// cut again by the geometry that takes it.
    pub(crate) fn moved(&self, cell: impl Fn(u16) -> u16) -> LineRule {
        let cells = |list: &[u16]| list.iter().map(|&c| cell(c)).collect::<Vec<u16>>();
        let sorted = |list: &[u16]| {
            let mut moved = cells(list);
            moved.sort_unstable();
            moved
        };
        match self {
            LineRule::Total { total, cells: list } => LineRule::Total { total: *total, cells: sorted(list) },
            LineRule::Arrow { circle, shaft } => LineRule::Arrow { circle: cells(circle), shaft: sorted(shaft) },
            LineRule::Sandwich { sum, cells: list } => LineRule::sandwich(*sum, cells(list)),
            LineRule::XSum { sum, cells: list } => LineRule::XSum { sum: *sum, cells: cells(list) },
            LineRule::Skyscraper { seen, cells: list } => LineRule::Skyscraper { seen: *seen, cells: cells(list) },
            LineRule::Between { line } => LineRule::Between { line: cells(line) },
            LineRule::Quadruple { cells: list, digits } => {
                LineRule::Quadruple { cells: sorted(list), digits: digits.clone() }
            }
            LineRule::Renban { line } => LineRule::Renban { line: cells(line) },
            LineRule::EqualSums { kind, line, groups, cells: list } => LineRule::EqualSums {
                kind: *kind,
                line: cells(line),
                groups: groups.iter().map(|group| cells(group)).collect(),
                cells: cells(list),
            },
            LineRule::Classes { kind, line, classes } => {
                LineRule::Classes { kind: *kind, line: cells(line), classes: *classes }
            }
        }
    }

    /// Every cell of the rule, the circle's first.
    pub(crate) fn cells(&self) -> impl Iterator<Item = u16> + Clone + '_ {
        match self {
            LineRule::Total { cells, .. }
            | LineRule::Sandwich { cells, .. }
            | LineRule::XSum { cells, .. }
            | LineRule::Skyscraper { cells, .. }
            | LineRule::Between { line: cells }
            | LineRule::Renban { line: cells }
            | LineRule::EqualSums { line: cells, .. }
            | LineRule::Classes { line: cells, .. }
            | LineRule::Quadruple { cells, .. } => cells.iter().chain(&[]).copied(),
            LineRule::Arrow { circle, shaft } => circle.iter().chain(shaft).copied(),
        }
    }

    /// The cells of a rule kept by narrowing ([`LineRule::narrowed`]), in
    /// the order its digits to keep follow; `None` for a sum or an arrow,
    /// kept by their equation ([`LineRule::linear`]).
    pub(crate) fn narrowed_cells(&self) -> Option<&[u16]> {
        match self {
            LineRule::Total { .. } | LineRule::Arrow { .. } => None,
            LineRule::Sandwich { cells, .. }
            | LineRule::XSum { cells, .. }
            | LineRule::Skyscraper { cells, .. }
            | LineRule::Quadruple { cells, .. }
            | LineRule::EqualSums { cells, .. }
            | LineRule::Between { line: cells }
            | LineRule::Renban { line: cells }
            | LineRule::Classes { line: cells, .. } => Some(cells),
        }
    }

    /// The digits each cell of [`LineRule::narrowed_cells`] may keep under
    /// this rule, into `keep`, given every cell's candidates (`held`, a
    /// filled cell's digit as its one candidate) on a board of digits
    /// `full`; `None` when the rule cannot hold. A sum or an arrow keeps
    /// every candidate here.
    pub(crate) fn narrowed(
        &self,
        full: u32,
        held: &dyn Fn(usize) -> u32,
        keep: &mut SmallVec<[u32; 32]>,
    ) -> Option<()> {
        match self {
            LineRule::Sandwich { sum, cells } => sandwich_narrowed(cells, *sum, full, held, keep),
            LineRule::XSum { sum, cells } => x_sum_narrowed(cells, *sum, held, keep),
            LineRule::Skyscraper { seen, cells } => skyscraper_narrowed(cells, *seen, held, keep),
            LineRule::Between { line } => between_narrowed(line, held, keep),
            LineRule::Quadruple { cells, digits } => quadruple_narrowed(cells, digits, held, keep),
            LineRule::Renban { line } => renban_narrowed(line, full, held, keep),
            LineRule::Classes { line, classes, .. } => classes_narrowed(line, classes, held, keep),
            LineRule::EqualSums { groups, .. } => equal_sums_narrowed(groups, held, keep),
            LineRule::Total { .. } | LineRule::Arrow { .. } => {
                keep.clear();
                keep.extend(self.cells().map(|c| held(usize::from(c))));
                Some(())
            }
        }
    }

    /// The equation: a total's cells weigh 1; an arrow's shaft weighs 1
    /// and its circle's cells -1, -10, -100 from the last one, against 0.
    /// The other rules are no equation: none, with no terms.
    pub(crate) fn linear(&self) -> Linear {
        match self {
            LineRule::Total { total, cells } => Linear {
                terms: cells.iter().map(|&c| (c, 1)).collect(),
                total: i32::try_from(*total).unwrap_or(i32::MAX),
            },
            LineRule::Arrow { circle, shaft } => {
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
            _ => Linear { terms: SmallVec::new(), total: 0 },
        }
    }

    /// How the rule is broken once the cells it needs hold digits (every
    /// cell, but for an X-sum its first and those it counts; `digit` gives
    /// a cell's); `None` while one is empty, or when it holds.
    pub(crate) fn broken(&self, digit: impl Fn(usize) -> Option<u8>) -> Option<LineBreak> {
        let sum = |cells: &[u16]| -> Option<usize> {
            cells.iter().map(|&c| digit(usize::from(c)).map(usize::from)).sum::<Option<usize>>()
        };
        let (wanted, found) = match self {
            LineRule::Total { total, cells } => (*total, sum(cells)?),
            LineRule::Arrow { circle, shaft } => {
                let number = circle
                    .iter()
                    .map(|&c| digit(usize::from(c)).map(usize::from))
                    .try_fold(0usize, |n, d| Some(n.saturating_mul(10).saturating_add(d?)))?;
                (number, sum(shaft)?)
            }
            LineRule::Quadruple { cells, digits: wanted } => {
                let held: Option<SmallVec<[u8; 8]>> = cells.iter().map(|&c| digit(usize::from(c))).collect();
                let held = held?;
                let count = |d: u8, list: &[u8]| list.iter().fold(0, |n, &x| n + usize::from(x == d));
                let missing = wanted.iter().find(|&&d| count(d, &held) < count(d, wanted))?;
                return Some(LineBreak::Missing { digit: *missing });
            }
            LineRule::Classes { kind, line, classes } => {
                let digits: Option<SmallVec<[u8; 25]>> = line.iter().map(|&c| digit(usize::from(c))).collect();
                let digits = digits?;
                let class = |d: u8| classes.iter().position(|&mask| mask & 1 << (d - 1) != 0);
                let (i, j) = (0..digits.len())
                    .flat_map(|i| (i + 1..digits.len().min(i + 3)).map(move |j| (i, j)))
                    .find(|&(i, j)| class(digits[i]) == class(digits[j]))?;
                return Some(LineBreak::SameClass { kind: *kind, first: digits[i], second: digits[j] });
            }
            LineRule::EqualSums { kind, groups, .. } => {
                let sums: Option<SmallVec<[usize; 16]>> = groups.iter().map(|group| sum(group)).collect();
                let sums = sums?;
                let found = sums.iter().find(|&&s| s != sums[0])?;
                let kind = match kind {
                    EqualSumKind::RegionSum => SumKind::RegionSum,
                    EqualSumKind::Zipper => SumKind::Zipper,
                    EqualSumKind::DoubleArrow => SumKind::DoubleArrow,
                };
                return Some(LineBreak::Sum { sum: sums[0], found: *found, kind });
            }
            LineRule::Renban { line } => {
                let digits: Option<SmallVec<[u8; 25]>> = line.iter().map(|&c| digit(usize::from(c))).collect();
                let digits = digits?;
                let (low, high) = (*digits.iter().min()?, *digits.iter().max()?);
                let set = digits.iter().fold(0u32, |set, &d| set | 1 << (d - 1));
                let run = usize::from(high - low) + 1 == digits.len() && set.count_ones() as usize == digits.len();
                return (!run).then_some(LineBreak::NotRun { low, high });
            }
            LineRule::Between { line } => {
                let digits: Option<SmallVec<[u8; 25]>> = line.iter().map(|&c| digit(usize::from(c))).collect();
                let digits = digits?;
                let (first, last) = (digits[0], digits[digits.len() - 1]);
                let (low, high) = (first.min(last), first.max(last));
                let outside = digits[1..digits.len() - 1].iter().find(|&&d| d <= low || d >= high)?;
                return Some(LineBreak::Between { digit: *outside, low, high });
            }
            LineRule::Sandwich { sum: wanted, cells } => {
                let digits: Option<SmallVec<[u8; 25]>> = cells.iter().map(|&c| digit(usize::from(c))).collect();
                let digits = digits?;
                let largest = u8::try_from(cells.len()).unwrap_or(u8::MAX);
                let ends = (digits.iter().position(|&d| d == 1)?, digits.iter().position(|&d| d == largest)?);
                let (from, to) = (ends.0.min(ends.1), ends.0.max(ends.1));
                (*wanted, digits[from + 1..to].iter().map(|&d| usize::from(d)).sum())
            }
            LineRule::Skyscraper { seen, cells } => {
                let digits: Option<SmallVec<[u8; 25]>> = cells.iter().map(|&c| digit(usize::from(c))).collect();
                let found = digits?.iter().fold(
                    (0, 0),
                    |(tallest, found), &d| {
                        if d > tallest { (d, found + 1) } else { (tallest, found) }
                    },
                );
                return (found.1 != *seen).then_some(LineBreak::Seen { seen: *seen, found: found.1 });
            }
            LineRule::XSum { sum: wanted, cells } => {
                // Broken once the first digit and the cells it counts hold
                // digits, whatever the rest hold.
                let first = digit(usize::from(*cells.first()?))?;
                let counted = cells.get(..usize::from(first)).unwrap_or(cells);
                (*wanted, counted.iter().map(|&c| digit(usize::from(c)).map(usize::from)).sum::<Option<usize>>()?)
            }
        };
        let kind = match self {
            LineRule::Arrow { .. } => SumKind::Arrow,
            LineRule::Sandwich { .. } => SumKind::Sandwich,
            LineRule::XSum { .. } => SumKind::XSum,
            // Only sums reach here; the other rules returned above.
            _ => SumKind::Total,
        };
        (wanted != found).then_some(LineBreak::Sum { sum: wanted, found, kind })
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

/// The sums of the `count` smallest and of the `count` largest digits of
/// `mask`; `None` when it has fewer.
fn extremes(mask: u32, count: usize) -> Option<(i64, i64)> {
    if (mask.count_ones() as usize) < count {
        return None;
    }
    let digit = |bit: u32| i64::from(bit.trailing_zeros() + 1);
    let low = bits(mask).take(count).map(digit).sum();
    let mut rest = mask;
    let mut high = 0;
    for _ in 0..count {
        let top = 1 << rest.ilog2();
        high += digit(top);
        rest ^= top;
    }
    Some((low, high))
}

/// The bits of `mask`, lowest first.
fn bits(mut mask: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        let bit = mask & mask.wrapping_neg();
        mask ^= bit;
        (bit != 0).then_some(bit)
    })
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

/// The digits a sandwich's cells may keep, given every cell's candidates
/// (`held`, a filled cell's digit as its one candidate), into `keep`: for
/// each pair of places where the line's 1 and its largest digit (the top
/// bit of `full`) can stand, with the cells between able to make `sum` by
/// bounds, the ends keep those two digits, the cells between the digits
/// that fit the rest, and the cells outside any digit but those two. A
/// digit no such pair supports goes. `None` when no pair is left.
fn sandwich_narrowed(
    cells: &[u16],
    sum: usize,
    full: u32,
    held: impl Fn(usize) -> u32,
    keep: &mut SmallVec<[u32; 32]>,
) -> Option<()> {
    let (low, high) = (1u32, full ^ (full >> 1));
    let ends = low | high;
    let masks: SmallVec<[u32; 32]> = cells.iter().map(|&c| held(usize::from(c))).collect();
    keep.clear();
    keep.resize(cells.len(), 0);
    let sum = i64::try_from(sum).unwrap_or(i64::MAX);
    for a in 0..masks.len() {
        for b in a + 1..masks.len() {
            let (first, last) = (masks[a], masks[b]);
            let first_keeps =
                (if last & high != 0 { first & low } else { 0 }) | (if last & low != 0 { first & high } else { 0 });
            let last_keeps =
                (if first & high != 0 { last & low } else { 0 }) | (if first & low != 0 { last & high } else { 0 });
            if first_keeps == 0 || last_keeps == 0 {
                continue;
            }
            // Every other cell holds a digit but the ends'.
            if masks.iter().enumerate().any(|(k, &m)| k != a && k != b && m & !ends == 0) {
                continue;
            }
            // The cells between hold distinct digits (the line is a region).
            let inner: SmallVec<[u32; 32]> = masks[a + 1..b].iter().map(|&m| m & !ends).collect();
            let mut inner_keep: SmallVec<[u32; 32]> = SmallVec::from_elem(0, inner.len());
            if !distinct_sum(&inner, sum, &mut inner_keep) {
                continue;
            }
            keep[a] |= first_keeps;
            keep[b] |= last_keeps;
            for k in (0..a).chain(b + 1..masks.len()) {
                keep[k] |= masks[k] & !ends;
            }
            for (k, &kept) in (a + 1..b).zip(&inner_keep) {
                keep[k] |= kept;
            }
        }
    }
    keep.iter().all(|&k| k != 0).then_some(())
}

/// The digits a skyscraper line's cells (from the clue's side) may keep,
/// given every cell's candidates (`held`, a filled cell's digit as its
/// one candidate), into `keep`: those on some way along the line, a digit
/// a cell, that shows exactly `seen` digits taller than all before them.
/// Digits may repeat on such a way (the line's region keeps them apart),
/// but it ends with the largest digit tallest (the line holds every
/// digit), so this keeps what some walk over the states (tallest so far,
/// digits seen) allows, forward from the clue and back from the end.
/// `None` when no way is left.
fn skyscraper_narrowed(
    cells: &[u16],
    seen: usize,
    held: impl Fn(usize) -> u32,
    keep: &mut SmallVec<[u32; 32]>,
) -> Option<()> {
    // For each place and tallest digit so far (0 for none), the counts of
    // digits seen, as bits: those reached from the clue (`ahead`), and
    // those from which the end can show `seen` (`behind`).
    type States = [u32; 26];
    let masks: SmallVec<[u32; 32]> = cells.iter().map(|&c| held(usize::from(c))).collect();
    let n = masks.len();
    let goal = 1u32.checked_shl(u32::try_from(seen).ok()?)?;
    let mut ahead: SmallVec<[States; 26]> = SmallVec::from_elem([0; 26], n + 1);
    ahead[0][0] = 1;
    for (k, &mask) in masks.iter().enumerate() {
        for tallest in 0..26 {
            let counts = ahead[k][tallest];
            if counts == 0 {
                continue;
            }
            for bit in bits(mask) {
                let digit = bit.trailing_zeros() as usize + 1;
                if digit > tallest {
                    ahead[k + 1][digit] |= counts << 1;
                } else {
                    ahead[k + 1][tallest] |= counts;
                }
            }
        }
    }
    // The line is a whole region, so its tallest digit is the largest, n.
    let mut behind: SmallVec<[States; 26]> = SmallVec::from_elem([0; 26], n + 1);
    *behind[n].get_mut(n)? = goal;
    for (k, &mask) in masks.iter().enumerate().rev() {
        for tallest in 0..26 {
            for bit in bits(mask) {
                let digit = bit.trailing_zeros() as usize + 1;
                behind[k][tallest] |= if digit > tallest { behind[k + 1][digit] >> 1 } else { behind[k + 1][tallest] };
            }
        }
    }
    keep.clear();
    keep.extend(masks.iter().enumerate().map(|(k, &mask)| {
        bits(mask)
            .filter(|&bit| {
                let digit = bit.trailing_zeros() as usize + 1;
                (0..26).any(|tallest| {
                    let next = if digit > tallest { behind[k + 1][digit] >> 1 } else { behind[k + 1][tallest] };
                    ahead[k][tallest] & next != 0
                })
            })
            .fold(0, |kept, bit| kept | bit)
    }));
    keep.iter().all(|&k| k != 0).then_some(())
}

/// Whether cells with candidates `masks`, holding distinct digits, can
/// add up to `sum`, by bounds: each cell's own least and greatest, or the
/// union's, whichever is tighter. If they can, each cell's digits that
/// leave the others able to make up the rest go into its `keep`.
fn distinct_sum(masks: &[u32], sum: i64, keep: &mut [u32]) -> bool {
    let union = masks.iter().fold(0, |u, &m| u | m);
    let (smallest, largest) = masks.iter().fold((0, 0), |(smallest, largest), &m| {
        let (x, y) = contribution(m, 1);
        (smallest + x, largest + y)
    });
    let Some((low, high)) = extremes(union, masks.len()) else { return false };
    if !(smallest.max(low)..=largest.min(high)).contains(&sum) {
        return false;
    }
    for (&own, kept) in masks.iter().zip(keep.iter_mut()) {
        let (x, y) = contribution(own, 1);
        for bit in bits(own) {
            let digit = i64::from(bit.trailing_zeros() + 1);
            // The others: distinct, and none of them this digit.
            let Some((low, high)) = extremes(union & !bit, masks.len() - 1) else { continue };
            if (smallest - x).max(low) <= sum - digit && sum - digit <= (largest - y).min(high) {
                *kept |= bit;
            }
        }
    }
    true
}

/// The digits an X-sum's cells (a region, from the clue's side) may keep,
/// given every cell's candidates (`held`, a filled cell's digit as its
/// one candidate), into `keep`: for each digit `x` the first cell may
/// hold, with the next `x - 1` cells able to make up the rest of `sum` as
/// distinct digits, the first cell keeps `x`, those cells the digits that
/// fit, and the cells past them any digit but `x`. `None` when no first
/// digit is left.
fn x_sum_narrowed(
    cells: &[u16],
    sum: usize,
    held: impl Fn(usize) -> u32,
    keep: &mut SmallVec<[u32; 32]>,
) -> Option<()> {
    let masks: SmallVec<[u32; 32]> = cells.iter().map(|&c| held(usize::from(c))).collect();
    keep.clear();
    keep.resize(cells.len(), 0);
    let sum = i64::try_from(sum).unwrap_or(i64::MAX);
    for bit in bits(masks[0]) {
        let count = bit.trailing_zeros() as usize + 1;
        let Some(counted) = masks.get(1..count) else { continue };
        let inner: SmallVec<[u32; 32]> = counted.iter().map(|&m| m & !bit).collect();
        let rest = sum - i64::try_from(count).unwrap_or(i64::MAX);
        let fits = if inner.is_empty() { rest == 0 } else { distinct_sum(&inner, rest, &mut keep[1..count]) };
        if !fits {
            continue;
        }
        keep[0] |= bit;
        for k in count..masks.len() {
            keep[k] |= masks[k] & !bit;
        }
    }
    keep.iter().all(|&k| k != 0).then_some(())
}

/// The digits a between line's cells may keep, given every cell's
/// candidates (`held`, a filled cell's digit as its one candidate), into
/// `keep`: for each pair of the ends' digits two or more apart under which
/// every middle cell has a digit strictly between them, the ends keep
/// theirs and the middle cells those between. `None` when no pair is left.
fn between_narrowed(line: &[u16], held: impl Fn(usize) -> u32, keep: &mut SmallVec<[u32; 32]>) -> Option<()> {
    let masks: SmallVec<[u32; 32]> = line.iter().map(|&c| held(usize::from(c))).collect();
    let last = masks.len() - 1;
    keep.clear();
    keep.resize(masks.len(), 0);
    for first_bit in bits(masks[0]) {
        for last_bit in bits(masks[last]) {
            let (low, high) = (first_bit.min(last_bit), first_bit.max(last_bit));
            // The digits above the lower end and below the higher one.
            let between = (high - 1) & !(low | (low - 1));
            if masks[1..last].iter().any(|&m| m & between == 0) {
                continue;
            }
            keep[0] |= first_bit;
            keep[last] |= last_bit;
            for k in 1..last {
                keep[k] |= masks[k] & between;
            }
        }
    }
    keep.iter().all(|&k| k != 0).then_some(())
}

/// The digits a quadruple's cells may keep, given every cell's
/// candidates (`held`, a filled cell's digit as its one candidate), into
/// `keep`: a digit the quadruple needs as many times as it has cells that
/// may hold it goes into all of them, and when its digits fill it, each
/// cell keeps those digits only. `None` when a digit has too few cells.
fn quadruple_narrowed(
    cells: &[u16],
    digits: &[u8],
    held: impl Fn(usize) -> u32,
    keep: &mut SmallVec<[u32; 32]>,
) -> Option<()> {
    keep.clear();
    keep.extend(cells.iter().map(|&c| held(usize::from(c))));
    let wanted = digits.iter().fold(0u32, |set, &d| set | 1 << (d - 1));
    for bit in bits(wanted) {
        let needed = digits.iter().filter(|&&d| 1 << (d - 1) == bit).count();
        let places = keep.iter().filter(|&&m| m & bit != 0).count();
        if places < needed {
            return None;
        }
        if places == needed {
            for mask in keep.iter_mut().filter(|m| **m & bit != 0) {
                *mask = bit;
            }
        }
    }
    if digits.len() == cells.len() {
        for mask in keep.iter_mut() {
            *mask &= wanted;
        }
    }
    keep.iter().all(|&k| k != 0).then_some(())
}

/// The digits a renban line's cells may keep, given every cell's
/// candidates (`held`, a filled cell's digit as its one candidate) and the
/// board's digits (`full`), into `keep`: for each run of as many
/// consecutive digits as the line has cells, the cells narrowed to the run
/// and settled as a group of distinct digits that holds each of the run's
/// (a digit with one cell left goes there, a cell with one digit left
/// takes it from the others); each cell keeps what some run leaves it.
/// `None` when no run is left.
fn renban_narrowed(line: &[u16], full: u32, held: impl Fn(usize) -> u32, keep: &mut SmallVec<[u32; 32]>) -> Option<()> {
    let masks: SmallVec<[u32; 32]> = line.iter().map(|&c| held(usize::from(c))).collect();
    keep.clear();
    keep.resize(masks.len(), 0);
    let length = u32::try_from(masks.len()).ok().filter(|&n| n > 0 && n <= full.count_ones())?;
    let span = u32::MAX >> (32 - length);
    let mut run = span;
    let mut settled: SmallVec<[u32; 32]> = SmallVec::new();
    while run & !full == 0 {
        settled.clear();
        settled.extend(masks.iter().map(|&m| m & run));
        if settle_run(&mut settled, run) {
            for (k, &m) in keep.iter_mut().zip(&settled) {
                *k |= m;
            }
        }
        run <<= 1;
    }
    keep.iter().all(|&k| k != 0).then_some(())
}

/// Settles `cells`, which must hold the digits of `run` each once: a cell
/// with one digit takes it from the others, a digit with one cell goes
/// there. Whether they still can.
fn settle_run(cells: &mut [u32], run: u32) -> bool {
    loop {
        let mut changed = false;
        for k in 0..cells.len() {
            let mask = cells[k];
            if mask == 0 {
                return false;
            }
            if mask.is_power_of_two() {
                for (j, other) in cells.iter_mut().enumerate() {
                    if j != k && *other & mask != 0 {
                        *other &= !mask;
                        changed = true;
                    }
                }
            }
        }
        for bit in bits(run) {
            let mut holders = cells.iter_mut().filter(|m| **m & bit != 0);
            match (holders.next(), holders.next()) {
                (None, _) => return false,
                (Some(only), None) if *only != bit => {
                    *only = bit;
                    changed = true;
                }
                _ => {}
            }
        }
        if !changed {
            return true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_arrow_weighs_its_circle_by_decimal_places() {
        let pill = LineRule::Arrow { circle: vec![3, 4], shaft: vec![5, 6, 7] };
        let linear = pill.linear();
        assert_eq!(linear.terms.as_slice(), [(3, -10), (4, -1), (5, 1), (6, 1), (7, 1)]);
        assert_eq!(linear.total, 0);
        // 12 = 3 + 4 + 5.
        let digits = |c: usize| Some([0, 0, 0, 1, 2, 3, 4, 5][c]);
        assert_eq!(pill.broken(digits), None);
        let wrong = |c: usize| Some([0, 0, 0, 1, 3, 3, 4, 5][c]);
        assert_eq!(pill.broken(wrong), Some(LineBreak::Sum { sum: 13, found: 12, kind: SumKind::Arrow }));
        assert_eq!(pill.broken(|c| (c != 7).then_some(1)), None, "an empty cell breaks nothing yet");
    }

    #[test]
    fn a_sandwich_keeps_the_places_of_its_ends_that_fit() {
        // A row of 4 whose 1 and 4 hold a sum of 5 between them: 2 and 3.
        let cells = [0u16, 1, 2, 3];
        let mut keep = SmallVec::new();
        assert_eq!(sandwich_narrowed(&cells, 5, 0b1111, |_| 0b1111, &mut keep), Some(()));
        assert_eq!(keep.as_slice(), [0b1001, 0b0110, 0b0110, 0b1001]);
        // A sum of 0: the 1 and the 4 side by side, anywhere.
        assert_eq!(sandwich_narrowed(&cells, 0, 0b1111, |_| 0b1111, &mut keep), Some(()));
        assert_eq!(keep.as_slice(), [0b1111; 4]);
        // With the 1 first, the 4 must be second.
        let held = |c: usize| if c == 0 { 0b0001 } else { 0b1110 };
        assert_eq!(sandwich_narrowed(&cells, 0, 0b1111, held, &mut keep), Some(()));
        assert_eq!(keep.as_slice(), [0b0001, 0b1000, 0b0110, 0b0110]);
        assert_eq!(sandwich_narrowed(&cells, 4, 0b1111, held, &mut keep), None, "no two of 2 and 3 make 4");
        let rule = LineRule::Sandwich { sum: 5, cells: cells.to_vec() };
        assert_eq!(rule.broken(|c| Some([1, 2, 3, 4][c])), None);
        assert_eq!(
            rule.broken(|c| Some([2, 1, 4, 3][c])),
            Some(LineBreak::Sum { sum: 5, found: 0, kind: SumKind::Sandwich })
        );
    }

    #[test]
    fn a_between_line_keeps_its_middle_between_its_ends() {
        let line = [0u16, 1, 2];
        let mut keep = SmallVec::new();
        // Ends of 1 to 9 and a middle of 5: each end on its side of 5.
        let held = |c: usize| if c == 1 { 1 << 4 } else { 0x1FF };
        assert_eq!(between_narrowed(&line, held, &mut keep), Some(()));
        assert_eq!(keep.as_slice(), [0b1_1110_0000 | 0b1111, 1 << 4, 0b1_1110_0000 | 0b1111]);
        // One end 3: the middle holds what lies between 3 and the other end.
        let three = |c: usize| if c == 0 { 1 << 2 } else { 0x1FF };
        assert_eq!(between_narrowed(&line, three, &mut keep), Some(()));
        assert_eq!(keep[1], 0b1111_1010, "2, or 4 to 8");
        let rule = LineRule::Between { line: line.to_vec() };
        assert_eq!(rule.broken(|c| Some([3, 5, 8][c])), None);
        assert_eq!(rule.broken(|c| Some([3, 8, 5][c])), Some(LineBreak::Between { digit: 8, low: 3, high: 5 }));
        assert_eq!(rule.broken(|c| (c != 1).then_some(3)), None);
    }

    #[test]
    fn a_quadruple_places_the_digits_it_needs() {
        let cells = [0u16, 1, 9, 10];
        let mut keep = SmallVec::new();
        // A 1 with one cell left for it goes there.
        let held = |c: usize| if c == 0 { 0b1111 } else { 0b1110 };
        assert_eq!(quadruple_narrowed(&cells, &[1], held, &mut keep), Some(()));
        assert_eq!(keep.as_slice(), [0b0001, 0b1110, 0b1110, 0b1110]);
        // Two 2s need two cells that may hold 2.
        assert_eq!(quadruple_narrowed(&cells, &[2, 2], |c| if c == 0 { 0b10 } else { 0b1 }, &mut keep), None);
        // Four digits fill the four cells.
        assert_eq!(quadruple_narrowed(&cells, &[1, 2, 3, 4], |_| 0x1FF, &mut keep), Some(()));
        assert_eq!(keep.as_slice(), [0b1111; 4]);
        let rule = LineRule::Quadruple { cells: cells.to_vec(), digits: vec![2, 2] };
        assert_eq!(rule.broken(|c| Some([2, 3, 4, 2][c / 9 * 2 + c % 9])), None);
        assert_eq!(rule.broken(|c| Some([2, 3, 4, 5][c / 9 * 2 + c % 9])), Some(LineBreak::Missing { digit: 2 }));
    }

    #[test]
    fn a_renban_keeps_the_runs_its_cells_can_make() {
        let line = [0u16, 1, 2];
        let mut keep = SmallVec::new();
        let full = 0x1FF;
        // A 5 on a line of three: 3 to 7 for the others, and not 5.
        let held = |c: usize| if c == 0 { 1 << 4 } else { full };
        assert_eq!(renban_narrowed(&line, full, held, &mut keep), Some(()));
        assert_eq!(keep.as_slice(), [1 << 4, 0b110_1100, 0b110_1100]);
        // A 1 and a 9 cannot share a line of three.
        let apart = |c: usize| [1, 1 << 8, full][c];
        assert_eq!(renban_narrowed(&line, full, apart, &mut keep), None);
        // Two cells of 2 or 3 and a third cell: the run 1-3 or 2-4, and the
        // third cell takes what they leave.
        let pair = |c: usize| if c < 2 { 0b0110 } else { full };
        assert_eq!(renban_narrowed(&line, full, pair, &mut keep), Some(()));
        assert_eq!(keep.as_slice(), [0b0110, 0b0110, 0b1001]);
        assert_eq!(renban_narrowed(&[0, 1, 2, 3], 0b111, |_| 0b111, &mut keep), None, "longer than the side");
        let rule = LineRule::Renban { line: line.to_vec() };
        assert_eq!(rule.broken(|c| Some([4, 2, 3][c])), None);
        assert_eq!(rule.broken(|c| Some([4, 2, 2][c])), Some(LineBreak::NotRun { low: 2, high: 4 }));
        assert_eq!(rule.broken(|c| Some([5, 2, 3][c])), Some(LineBreak::NotRun { low: 2, high: 5 }));
        assert_eq!(rule.broken(|c| (c != 1).then_some(3)), None);
    }

    #[test]
    fn a_line_of_classes_keeps_three_in_a_row_apart() {
        let full = 0x1FF;
        let thirds = classes_of(ClassLine::Entropic, 9).expect("9 splits into thirds");
        assert_eq!(thirds, [0b111, 0b111_000, 0b111_000_000]);
        assert_eq!(classes_of(ClassLine::Entropic, 4), None);
        assert_eq!(classes_of(ClassLine::Modular, 4), Some([0b0100, 0b1001, 0b0010]));
        let line = [0u16, 1, 2, 3];
        let mut keep = SmallVec::new();
        // The fourth cell low: so is the first, and the two between are not.
        let held = |c: usize| if c == 3 { 0b10 } else { full };
        assert_eq!(classes_narrowed(&line, &thirds, held, &mut keep), Some(()));
        assert_eq!(keep.as_slice(), [0b111, 0b111_111_000, 0b111_111_000, 0b10]);
        // Two low cells side by side break it.
        assert_eq!(classes_narrowed(&line, &thirds, |c| if c < 2 { 0b11 } else { full }, &mut keep), None);
        // On a line of two, a cell fixed to a class takes it from the other.
        assert_eq!(classes_narrowed(&line[..2], &thirds, |c| if c == 0 { 0b1 } else { full }, &mut keep), Some(()));
        assert_eq!(keep.as_slice(), [0b1, 0b111_111_000]);
        let rule = LineRule::Classes {
            kind: ClassLine::Modular,
            line: line.to_vec(),
            classes: classes_of(ClassLine::Modular, 9).expect("any side"),
        };
        assert_eq!(rule.broken(|c| Some([1, 2, 3, 4][c])), None);
        assert_eq!(
            rule.broken(|c| Some([1, 2, 4, 3][c])),
            Some(LineBreak::SameClass { kind: ClassLine::Modular, first: 1, second: 4 })
        );
    }

    #[test]
    fn bounds_keep_the_digits_that_fit() {
        assert_eq!(contribution(0b1010, 1), (2, 4));
        assert_eq!(contribution(0b1010, -10), (-40, -20));
        assert_eq!(digits_within(0b1111, 1, 2, 3), 0b0110);
        assert_eq!(digits_within(0b1111, -1, -3, -2), 0b0110);
        let total = LineRule::Total { total: 20, cells: vec![0, 1] };
        assert!(!total.linear().possible(9));
        assert!(total.linear().possible(16));
        let arrow = LineRule::Arrow { circle: vec![0], shaft: vec![1, 2, 3, 4] };
        assert!(!arrow.linear().possible(3), "four cells add up to 4 at least");
        assert!(arrow.linear().possible(4));
    }
}
