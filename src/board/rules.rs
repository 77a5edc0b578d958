//! [`Rules`]: the regions in which a board's digits may not repeat.

use itertools::Itertools;
use std::cell::RefCell;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use super::relation::Related;
use super::shape::{Cage, Geometry};
use super::sum::{ClassLine, EqualSumKind, LineRule, classes_of};
use super::{Candidates, Indexer, Region, Relation, Shape, Turn};

/// A geometry shared by every board with the same rules: a classic shape's,
/// built once for the whole program, or one that a user's rules made.
#[derive(Clone, Debug)]
pub(crate) enum SharedGeometry {
    Classic(&'static Geometry),
    Custom(Arc<Geometry>),
}

impl Deref for SharedGeometry {
    type Target = Geometry;

    #[inline]
    fn deref(&self) -> &Geometry {
        match self {
            SharedGeometry::Classic(geometry) => geometry,
            SharedGeometry::Custom(geometry) => geometry,
        }
    }
}

/// The rules of a board: its size and the regions (units) in which no digit
/// may repeat. Every board has rows and columns; then boxes, or the regions
/// of a jigsaw map; and any extra regions: the two diagonals (X-sudoku),
/// windoku's windows, or any list of cells.
///
/// Rules are data: build them once and make any number of boards with
/// [`Board::empty_with`](crate::Board::empty_with) or
/// [`Rules::parse`]. Boards share their rules rather than copy them, and
/// every search of the library (children, solutions, counts, the parallel
/// search) keeps every region.
///
/// # Example
///
/// ```
/// use lazydoku::{Board, Rules};
///
/// // A 4x4 jigsaw: four irregular regions instead of boxes.
/// let rules = Rules::jigsaw("
///     A A A B
///     A C B B
///     C C B D
///     C D D D")?;
/// let board = Board::empty_with(&rules);
/// let solutions: Vec<Board> = board.solutions().collect();
/// assert_eq!(solutions.len(), 24);
/// // Each region holds 1 to 4 once.
/// let grid = solutions[0].as_str().as_bytes();
/// let mut region_a: Vec<u8> = [0, 1, 2, 4].iter().map(|&c| grid[c]).collect();
/// region_a.sort_unstable();
/// assert_eq!(region_a, b"1234");
/// # Ok::<(), lazydoku::RulesError>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Rules {
    geometry: SharedGeometry,
}

impl fmt::Debug for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let count = |kind: Region| self.geometry.unit_list().iter().filter(|(k, _)| *k == kind).count();
        f.debug_struct("Rules")
            .field("shape", &self.geometry.shape)
            .field("jigsaw", &(count(Region::Jigsaw) > 0))
            .field("windows", &count(Region::Window))
            .field("extra", &count(Region::Extra))
            .field("cages", &self.geometry.cages.len())
            .field("distinct", &self.geometry.distinct.len())
            .field("non_consecutive", &self.geometry.non_consecutive)
            .field("relations", &self.geometry.relations.len())
            .field("sums", &self.geometry.line_rules.len())
            .field(
                "cells_with_allowed_digits",
                &self.geometry.allowed.iter().filter(|&&m| m != self.geometry.full).count(),
            )
            .finish_non_exhaustive()
    }
}

impl PartialEq for SharedGeometry {
    fn eq(&self, other: &SharedGeometry) -> bool {
        **self == **other
    }
}

impl Eq for SharedGeometry {}

thread_local! {
    // The last rules whose invariant turns were found on this thread, with
    // a bit per turn of `Turn::ALL`. Kept beside the rules rather than in
    // them, where a cell set on first use would make boards and rules keys
    // with interior mutability.
    static INVARIANT_TURNS: RefCell<Option<(Rules, u8)>> = const { RefCell::new(None) };
}

/// The invariant turns of `rules` as remembered, if they are the last rules
/// asked about on this thread.
fn remembered_invariant_turns(rules: &Rules) -> Option<u8> {
    INVARIANT_TURNS.with(|last| last.borrow().as_ref().and_then(|(last, kept)| (last == rules).then_some(*kept)))
}

/// Hashes what equality compares, so that equal rules, in whatever order
/// they were built, hash alike.
impl std::hash::Hash for Rules {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.order_key().hash(state);
    }
}

impl Rules {
    /// The classic rules of `shape`: rows, columns and boxes, and the two
    /// diagonals if the shape has them ([`Shape::with_diagonals`]).
    #[must_use]
    pub fn new(shape: Shape) -> Rules {
        Rules { geometry: SharedGeometry::Classic(shape.geometry()) }
    }

    /// A jigsaw board of the size that `labels` implies: rows, columns, and
    /// the labelled regions in place of boxes. The same as
    /// [`Rules::with_regions`] on the shape whose cell count is the number of
    /// labels, or on the Latin square ([`Shape::latin`]) of a side that has
    /// no box shape, such as 5 or 7.
    ///
    /// # Errors
    ///
    /// [`RulesError::LabelCount`] when the number of labels is not the cell
    /// count of a supported board, and the errors of [`Rules::with_regions`].
    ///
    /// ```
    /// use lazydoku::{Rules, RulesError};
    ///
    /// assert!(Rules::jigsaw("AABB AABB CCDD CCDD").is_ok());
    /// assert_eq!(Rules::jigsaw("AB"), Err(RulesError::LabelCount { found: 2, expected: None }));
    /// assert_eq!(Rules::jigsaw("11122 11222 33444 33344 55555")?.shape(), lazydoku::Shape::latin(5));
    /// # Ok::<(), RulesError>(())
    /// ```
    pub fn jigsaw(labels: &str) -> Result<Rules, RulesError> {
        let found = labels.chars().filter(|c| !c.is_whitespace()).count();
        let side = found.isqrt();
        // A side with no box shape (5, 7, ...) gets the Latin square: the
        // map takes the place of boxes either way.
        let shape = Shape::from_side(side)
            .or(Shape::try_latin(side))
            .filter(|_| side * side == found)
            .ok_or(RulesError::LabelCount { found, expected: None })?;
        Rules::new(shape).with_regions(labels)
    }

    /// These rules with the labelled regions in place of boxes (or of an
    /// earlier map): one label per cell, row by row, whitespace ignored, so
    /// a map can be written as a grid. Cells with the same label form a
    /// region. Diagonals, windows, extra regions and cages are kept.
    ///
    /// A map of the boxes themselves gives back the boxes, with the classic
    /// engine's speed.
    ///
    /// # Errors
    ///
    /// [`RulesError::LabelCount`] when there is not one label per cell;
    /// [`RulesError::RegionSize`] when a label does not name exactly as many
    /// cells as the board's side.
    ///
    /// ```
    /// use lazydoku::{Board, Rules, RulesError, Shape};
    ///
    /// // A 4x4 jigsaw: four irregular regions instead of boxes.
    /// let rules = Rules::new(Shape::new(2, 2)).with_regions("
    ///     A A A B
    ///     A C B B
    ///     C C B D
    ///     C D D D")?;
    /// assert_eq!(Board::empty_with(&rules).count_solutions(usize::MAX), 24);
    /// assert_eq!(
    ///     Rules::new(Shape::new(2, 2)).with_regions("AAAB AABB CCDD CCDD"),
    ///     Err(RulesError::RegionSize { label: 'A', found: 5, expected: 4 })
    /// );
    /// assert_eq!(
    ///     Rules::new(Shape::new(2, 2)).with_regions("AABB AABB CCDD"),
    ///     Err(RulesError::LabelCount { found: 12, expected: Some(16) })
    /// );
    /// # Ok::<(), RulesError>(())
    /// ```
    pub fn with_regions(self, labels: &str) -> Result<Rules, RulesError> {
        let (side, cells) = (self.geometry.side, self.geometry.cells);
        let labels: Vec<char> = labels.chars().filter(|c| !c.is_whitespace()).collect();
        if labels.len() != cells {
            return Err(RulesError::LabelCount { found: labels.len(), expected: Some(cells) });
        }
        let mut names: Vec<char> = Vec::new();
        let mut regions: Vec<Vec<usize>> = Vec::new();
        for (cell, &label) in labels.iter().enumerate() {
            if let Some(i) = names.iter().position(|&n| n == label) {
                regions[i].push(cell);
            } else {
                names.push(label);
                regions.push(vec![cell]);
            }
        }
        if let Some((&label, region)) = names.iter().zip(&regions).find(|(_, r)| r.len() != side) {
            return Err(RulesError::RegionSize { label, found: region.len(), expected: side });
        }
        let shape = self.geometry.shape;
        // A map of the boxes themselves keeps the boxes (and so, with no
        // other additions, the classic geometry and its engine).
        let mut sorted = regions.clone();
        sorted.sort_unstable();
        let mut boxes: Vec<Vec<usize>> = Geometry::classic_units(shape)
            .into_iter()
            .filter(|(kind, _)| *kind == Region::Box)
            .map(|(_, mut cells)| {
                cells.sort_unstable();
                cells
            })
            .collect();
        boxes.sort_unstable();
        let kind = if sorted == boxes { Region::Box } else { Region::Jigsaw };
        let old = self.geometry.unit_list();
        let mut units: Vec<(Region, Vec<usize>)> =
            old.iter().filter(|(k, _)| matches!(k, Region::Row | Region::Column)).cloned().collect();
        units.extend(regions.into_iter().map(|cells| (kind, cells)));
        units.extend(
            old.into_iter().filter(|(k, _)| !matches!(k, Region::Row | Region::Column | Region::Box | Region::Jigsaw)),
        );
        let rules = Rules::from_parts(shape, &units, self.geometry.cage_list(), &self.geometry);
        rules.digits_fit()?;
        Ok(rules)
    }

    /// These rules with both main diagonals as regions as well (X-sudoku).
    #[must_use]
    pub fn with_diagonals(self) -> Rules {
        let side = self.geometry.side;
        let units = self.geometry.unit_list();
        if units.iter().any(|(kind, _)| *kind == Region::Diagonal) {
            return self;
        }
        let mut units = units;
        units.push((Region::Diagonal, (0..side).map(|i| i * side + i).collect()));
        units.push((Region::Diagonal, (0..side).map(|i| i * side + side - 1 - i).collect()));
        Rules::from_parts(self.geometry.shape.with_diagonals(), &units, self.geometry.cage_list(), &self.geometry)
    }

    /// These rules with windoku's windows as regions as well: boxes of the
    /// board's box shape, one cell in from the edges and one cell apart
    /// (on 9x9, the four 3x3 windows at rows and columns 2-4 and 6-8).
    ///
    /// ```
    /// use lazydoku::{Board, Rules, Shape};
    ///
    /// let windoku = Rules::new(Shape::NINE).with_windows();
    /// assert_eq!(windoku.regions().count(), 27 + 4);
    /// let solution = Board::empty_with(&windoku).solve().expect("a solution");
    /// let text = solution.as_str().as_bytes();
    /// // The window at rows and columns 2-4 (from 1) holds every digit.
    /// let mut window: Vec<u8> = (1..4).flat_map(|r| (1..4).map(move |c| text[r * 9 + c])).collect();
    /// window.sort_unstable();
    /// assert_eq!(window, b"123456789");
    /// ```
    ///
    /// A Latin square ([`Shape::latin`]) has no box shape, so no windows:
    /// its rules come back unchanged.
    #[must_use]
    pub fn with_windows(self) -> Rules {
        let shape = self.geometry.shape;
        let (side, br, bc) = (shape.side(), shape.box_rows(), shape.box_cols());
        let mut windows = Vec::new();
        let mut top = 1;
        while top + br < side {
            let mut left = 1;
            while left + bc < side {
                windows.push((Region::Window, (0..side).map(|i| (top + i / bc) * side + left + i % bc).collect()));
                left += bc + 1;
            }
            top += br + 1;
        }
        self.with_units(windows)
    }

    /// These rules with `cells` as one more region: as many distinct cells
    /// as the board's side, numbered row by row from 0.
    ///
    /// # Errors
    ///
    /// [`RulesError::CellOutOfRange`], [`RulesError::RepeatedCell`], or
    /// [`RulesError::ExtraRegionSize`] when the region has the wrong number
    /// of cells.
    ///
    /// ```
    /// use lazydoku::{Rules, RulesError, Shape};
    ///
    /// // The four corners of a 4x4 board hold 1 to 4.
    /// let corners = Rules::new(Shape::new(2, 2)).with_region(&[0, 3, 12, 15])?;
    /// assert_eq!(corners.regions().count(), 13);
    /// assert_eq!(
    ///     Rules::new(Shape::new(2, 2)).with_region(&[0, 1, 16, 2]),
    ///     Err(RulesError::CellOutOfRange { cell: 16, cells: 16 })
    /// );
    /// # Ok::<(), RulesError>(())
    /// ```
    pub fn with_region(self, cells: &[usize]) -> Result<Rules, RulesError> {
        let (side, count) = (self.geometry.side, self.geometry.cells);
        if let Some(&cell) = cells.iter().find(|&&c| c >= count) {
            return Err(RulesError::CellOutOfRange { cell, cells: count });
        }
        if let Some((_, &cell)) = cells.iter().enumerate().find(|&(i, c)| cells[..i].contains(c)) {
            return Err(RulesError::RepeatedCell { cell });
        }
        if cells.len() != side {
            return Err(RulesError::ExtraRegionSize { found: cells.len(), expected: side });
        }
        let rules = self.with_units([(Region::Extra, cells.to_vec())]);
        rules.digits_fit()?;
        Ok(rules)
    }

    /// These rules with a killer cage: the digits in `cells` are distinct
    /// and add up to `sum`. Cages may not share a cell.
    ///
    /// # Errors
    ///
    /// [`RulesError::CellOutOfRange`], [`RulesError::RepeatedCell`],
    /// [`RulesError::CageOverlap`] when a cell is in another cage,
    /// [`RulesError::CageSize`] for an empty cage or one larger than the
    /// board's side, and [`RulesError::ImpossibleSum`] when no set of
    /// distinct digits of that size adds up to `sum`.
    ///
    /// ```
    /// use lazydoku::{Board, Rules, RulesError, Shape};
    ///
    /// // A 4x4 board whose top left box must hold 1 and 2 in its top row.
    /// let rules = Rules::new(Shape::new(2, 2)).with_cage(3, &[0, 1])?;
    /// for solution in Board::empty_with(&rules).solutions() {
    ///     let top = &solution.as_str()[..2];
    ///     assert!(top == "12" || top == "21");
    /// }
    /// assert_eq!(Board::empty_with(&rules).count_solutions(usize::MAX), 288 / 6);
    /// assert_eq!(
    ///     Rules::new(Shape::new(2, 2)).with_cage(9, &[0, 1]),
    ///     Err(RulesError::ImpossibleSum { sum: 9, cells: 2 })
    /// );
    /// # Ok::<(), RulesError>(())
    /// ```
    pub fn with_cage(self, sum: usize, cells: &[usize]) -> Result<Rules, RulesError> {
        self.with_cages([(sum, cells.to_vec())])
    }

    /// These rules with every cage of `cages` (each a sum and its cells)
    /// added at once: the same checks as [`Rules::with_cage`] on each, in
    /// order, and the rules built once rather than once per cage, which
    /// matters for a board of a hundred cages.
    ///
    /// # Errors
    ///
    /// The error of the first cage that [`Rules::with_cage`] would refuse,
    /// counting as taken the cells of the cages before it.
    ///
    /// ```
    /// use lazydoku::{Rules, RulesError, Shape};
    ///
    /// let killer = Rules::new(Shape::new(2, 2)).with_cages([(3, vec![0, 1]), (7, vec![14, 15])])?;
    /// assert_eq!(killer.cages().collect::<Vec<_>>(), [(3, vec![0, 1]), (7, vec![14, 15])]);
    /// // The same cages one at a time make the same rules.
    /// let one_by_one = Rules::new(Shape::new(2, 2)).with_cage(3, &[0, 1])?.with_cage(7, &[14, 15])?;
    /// assert_eq!(killer, one_by_one);
    /// assert_eq!(
    ///     Rules::new(Shape::new(2, 2)).with_cages([(3, vec![0, 1]), (5, vec![1, 2])]),
    ///     Err(RulesError::CageOverlap { cell: 1 })
    /// );
    /// # Ok::<(), RulesError>(())
    /// ```
    pub fn with_cages(self, cages: impl IntoIterator<Item = (usize, Vec<usize>)>) -> Result<Rules, RulesError> {
        self.with_cages_numbered(cages).map_err(|(_, e)| e)
    }

    /// [`Rules::with_cages`], with the place in `cages` of the cage refused.
    pub(crate) fn with_cages_numbered(
        self,
        cages: impl IntoIterator<Item = (usize, Vec<usize>)>,
    ) -> Result<Rules, (usize, RulesError)> {
        let (side, count) = (self.geometry.side, self.geometry.cells);
        let mut all = self.geometry.cages.clone();
        let mut taken = vec![false; count];
        for &cell in all.iter().flat_map(|cage| &cage.cells) {
            taken[usize::from(cell)] = true;
        }
        let before = all.len();
        for (sum, cells) in cages {
            let refuse = |e: RulesError| (all.len() - before, e);
            if let Some(&cell) = cells.iter().find(|&&c| c >= count) {
                return Err(refuse(RulesError::CellOutOfRange { cell, cells: count }));
            }
            if let Some((_, &cell)) = cells.iter().enumerate().find(|&(i, c)| cells[..i].contains(c)) {
                return Err(refuse(RulesError::RepeatedCell { cell }));
            }
            if let Some(&cell) = cells.iter().find(|&&c| taken[c]) {
                return Err(refuse(RulesError::CageOverlap { cell }));
            }
            if cells.is_empty() || cells.len() > side {
                return Err(refuse(RulesError::CageSize { found: cells.len(), side }));
            }
            let cage = Cage::new(&cells, sum, side);
            if cage.combinations.is_empty() {
                return Err(refuse(RulesError::ImpossibleSum { sum, cells: cells.len() }));
            }
            for &cell in &cells {
                taken[cell] = true;
            }
            all.push(cage);
        }
        let rules = Rules::sharing(self.geometry.with_cages(all));
        rules.digits_fit().map_err(|e| {
            // Only a new cage can have made cells short of digits: the
            // first one holding any of them is the one refused.
            let crowded = |cage: &Cage| match &e {
                RulesError::TooFewDigits { cells, .. } => cage.cells.iter().any(|&c| cells.contains(&usize::from(c))),
                _ => false,
            };
            (rules.geometry.cages[before..].iter().position(crowded).unwrap_or(0), e)
        })?;
        Ok(rules)
    }

    /// These rules with `cages` in place of their cages, unchecked, as
    /// [`Rules::with_cage_list`].
    pub(crate) fn with_cages_replaced(self, cages: Vec<(usize, Vec<usize>)>) -> Rules {
        let side = self.geometry.side;
        let all = cages.into_iter().map(|(sum, cells)| Cage::new(&cells, sum, side)).collect();
        Rules::sharing(self.geometry.with_cages(all))
    }

    /// These rules with every cage in `cages` added at once, unchecked: for
    /// cages made from a solution's digits, which hold by construction.
    pub(crate) fn with_cage_list(self, cages: Vec<(usize, Vec<usize>)>) -> Rules {
        let side = self.geometry.side;
        let mut all = self.geometry.cages.clone();
        all.extend(cages.into_iter().map(|(sum, cells)| Cage::new(&cells, sum, side)));
        Rules::sharing(self.geometry.with_cages(all))
    }

    /// The boxes, or the jigsaw regions in their place, as a map with one
    /// label per cell, row by row: `1` to `9`, then `A` to `Z`, numbered in
    /// the order their first cells come. [`Rules::with_regions`] reads it
    /// back.
    ///
    /// ```
    /// use lazydoku::{Rules, Shape};
    ///
    /// assert_eq!(Rules::new(Shape::new(2, 2)).region_map(), "1122112233443344");
    /// let jigsaw = Rules::jigsaw("AAAB ACBB CCBD CDDD")?;
    /// assert_eq!(jigsaw.region_map(), "1112132233243444");
    /// assert_eq!(Rules::jigsaw(&jigsaw.region_map())?, jigsaw);
    /// # Ok::<(), lazydoku::RulesError>(())
    /// ```
    #[must_use]
    pub fn region_map(&self) -> String {
        const LABELS: &[u8] = b"123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
        let mut region_of = vec![usize::MAX; self.geometry.cells];
        let mut regions: Vec<Vec<usize>> = self
            .geometry
            .unit_list()
            .into_iter()
            .filter(|(kind, _)| matches!(kind, Region::Box | Region::Jigsaw))
            .map(|(_, cells)| cells)
            .collect();
        regions.sort_unstable_by_key(|cells| cells.iter().min().copied());
        for (number, cells) in regions.iter().enumerate() {
            for &cell in cells {
                region_of[cell] = number;
            }
        }
        region_of.iter().map(|&number| LABELS.get(number).map_or('.', |&label| char::from(label))).collect()
    }

    /// These rules with the digits of `cells` distinct: 2 cells to as many
    /// as the board's side, numbered row by row from 0. Unlike a region
    /// ([`Rules::with_region`]), the group need not hold every digit, and
    /// groups may share cells, so any "these cells differ" rule can be
    /// written as groups: a killer cage whose sum is not given, or two
    /// cells a chess move apart ([`Rules::with_anti_knight`] and
    /// [`Rules::with_anti_king`] are such pairs).
    ///
    /// # Errors
    ///
    /// [`RulesError::CellOutOfRange`], [`RulesError::RepeatedCell`], or
    /// [`RulesError::DistinctSize`] for fewer than 2 cells or more than the
    /// side.
    ///
    /// ```
    /// use lazydoku::{Board, Rules, RulesError, Shape};
    ///
    /// // Opposite corners of a 4x4 board differ.
    /// let rules = Rules::new(Shape::new(2, 2)).with_distinct(&[0, 15])?.with_distinct(&[3, 12])?;
    /// let board = Board::empty_with(&rules);
    /// assert!(board.solutions().all(|s| s.get(0) != s.get(15) && s.get(3) != s.get(12)));
    /// assert_eq!(board.count_solutions(usize::MAX), 168); // of the 288 plain grids
    /// assert_eq!(rules.distinct_groups().collect::<Vec<_>>(), [vec![0, 15], vec![3, 12]]);
    /// assert_eq!(
    ///     Rules::new(Shape::new(2, 2)).with_distinct(&[5]),
    ///     Err(RulesError::DistinctSize { found: 1, side: 4 })
    /// );
    /// # Ok::<(), RulesError>(())
    /// ```
    pub fn with_distinct(self, cells: &[usize]) -> Result<Rules, RulesError> {
        self.with_distinct_groups([cells.to_vec()])
    }

    /// These rules with every group of `groups` added at once, as by
    /// [`Rules::with_distinct`], and the rules built once.
    ///
    /// # Errors
    ///
    /// The error of the first group that [`Rules::with_distinct`] would
    /// refuse.
    pub fn with_distinct_groups(self, groups: impl IntoIterator<Item = Vec<usize>>) -> Result<Rules, RulesError> {
        let (side, count) = (self.geometry.side, self.geometry.cells);
        let mut all = self.geometry.distinct.clone();
        let before = all.len();
        for cells in groups {
            if let Some(&cell) = cells.iter().find(|&&c| c >= count) {
                return Err(RulesError::CellOutOfRange { cell, cells: count });
            }
            if let Some((_, &cell)) = cells.iter().enumerate().find(|&(i, c)| cells[..i].contains(c)) {
                return Err(RulesError::RepeatedCell { cell });
            }
            if cells.len() < 2 || cells.len() > side {
                return Err(RulesError::DistinctSize { found: cells.len(), side });
            }
            // Every cell is below the cell count, at most 625: each fits.
            let mut group: Vec<u16> = cells.iter().map(|&c| u16::try_from(c).unwrap_or(u16::MAX)).collect();
            group.sort_unstable();
            all.push(group);
        }
        if all.len() == before {
            return Ok(self);
        }
        // Sorted and without repeats, so that equal rules compare equal
        // whatever order their groups came in.
        all.sort_unstable();
        all.dedup();
        let rules = Rules::sharing(self.geometry.with_distinct(all));
        rules.digits_fit()?;
        Ok(rules)
    }

    /// These rules with anti-knight's: no two cells a knight's move apart
    /// (two cells along one side, one along the other) hold the same digit.
    /// Each such pair is a group of [`Rules::with_distinct`].
    ///
    /// ```
    /// use lazydoku::{Board, Rules, Shape};
    ///
    /// let rules = Rules::new(Shape::NINE).with_anti_knight();
    /// let solution = Board::empty_with(&rules).solve().expect("anti-knight grids exist");
    /// // r1c1 and r2c3 are a knight's move apart.
    /// assert_ne!(solution.get(0), solution.get(11));
    /// ```
    #[must_use]
    pub fn with_anti_knight(self) -> Rules {
        self.with_pairs_at(&[(1, 2), (2, 1), (1, -2), (2, -1)])
    }

    /// These rules with anti-king's: no two cells that touch at a corner
    /// hold the same digit (cells that touch along a side already share a
    /// row or a column). Each such pair is a group of
    /// [`Rules::with_distinct`].
    ///
    /// ```
    /// use lazydoku::{Board, Rules, Shape};
    ///
    /// let rules = Rules::new(Shape::new(2, 3)).with_anti_king();
    /// let solution = Board::empty_with(&rules).solve().expect("6x6 anti-king grids exist");
    /// assert_ne!(solution.get(0), solution.get(7));
    /// ```
    #[must_use]
    pub fn with_anti_king(self) -> Rules {
        self.with_pairs_at(&[(1, 1), (1, -1)])
    }

    /// These rules with each pair of cells `(rows, columns)` apart, for
    /// each offset in `offsets`, as a group of distinct digits.
    fn with_pairs_at(self, offsets: &[(usize, isize)]) -> Rules {
        let side = self.geometry.side;
        let mut pairs = Vec::new();
        for row in 0..side {
            for col in 0..side {
                for &(down, across) in offsets {
                    let (to_row, to_col) = (row + down, col.checked_add_signed(across));
                    if let Some(to_col) = to_col.filter(|&c| c < side && to_row < side) {
                        pairs.push(vec![row * side + col, to_row * side + to_col]);
                    }
                }
            }
        }
        self.with_distinct_groups(pairs).expect("pairs of distinct cells on the board")
    }

    /// These rules with the non-consecutive rule: no two cells that share a
    /// side hold consecutive digits (as 4 and 5).
    ///
    /// Relabelling digits does not keep this rule, so
    /// [`Board::transformed`](crate::Board::transformed) leaves such boards
    /// as they are.
    ///
    /// ```
    /// use lazydoku::{Board, Rules, Shape};
    ///
    /// let rules = Rules::new(Shape::new(2, 3)).with_non_consecutive();
    /// let grid = Board::empty_with(&rules).solve().expect("6x6 grids exist");
    /// let digit = |cell| i32::from(grid.get(cell).unwrap());
    /// assert!((0..36).filter(|c| c % 6 < 5).all(|c| (digit(c) - digit(c + 1)).abs() != 1));
    /// assert!((0..30).all(|c| (digit(c) - digit(c + 6)).abs() != 1));
    /// ```
    #[must_use]
    pub fn with_non_consecutive(self) -> Rules {
        if self.geometry.non_consecutive {
            return self;
        }
        Rules::sharing(self.geometry.with_non_consecutive())
    }

    /// Whether the rules have [`Rules::with_non_consecutive`]'s.
    #[must_use]
    pub fn is_non_consecutive(&self) -> bool {
        self.geometry.non_consecutive
    }

    /// These rules with `relation` between the digits of two cells: the
    /// digit of `first` and the digit of `second` (cells numbered row by
    /// row from 0) must keep it, as [`Relation::holds`] says. Inequality
    /// signs, Kropki dots and XV marks are such pairs; a thermometer is a
    /// chain of them ([`Rules::with_thermometer`]).
    ///
    /// Propagation keeps every relation arc-consistent: each candidate of
    /// either cell has a partner among the other cell's candidates.
    ///
    /// # Errors
    ///
    /// [`RulesError::CellOutOfRange`], [`RulesError::RelatedToItself`] when
    /// the two cells are one, and [`RulesError::ImpossibleRelation`] when
    /// no two digits of the board keep the relation.
    ///
    /// ```
    /// use lazydoku::{Board, Relation, Rules, RulesError, Shape};
    ///
    /// // A 4x4 board whose first cell is less than the next, and whose
    /// // last two cells carry a Kropki black dot.
    /// let rules = Rules::new(Shape::new(2, 2))
    ///     .with_relation(0, Relation::Less, 1)?
    ///     .with_relation(14, Relation::Ratio(2), 15)?;
    /// for solution in Board::empty_with(&rules).solutions() {
    ///     let digit = |cell| solution.get(cell).unwrap();
    ///     assert!(digit(0) < digit(1));
    ///     assert!(digit(14) == 2 * digit(15) || digit(15) == 2 * digit(14));
    /// }
    /// assert_eq!(
    ///     Rules::new(Shape::new(2, 2)).with_relation(0, Relation::Sum(9), 1),
    ///     Err(RulesError::ImpossibleRelation { relation: Relation::Sum(9), side: 4 })
    /// );
    /// # Ok::<(), RulesError>(())
    /// ```
    pub fn with_relation(self, first: usize, relation: Relation, second: usize) -> Result<Rules, RulesError> {
        self.with_relations([(first, relation, second)])
    }

    /// These rules with every relation of `relations`, each as
    /// [`Rules::with_relation`] takes it, and the rules built once.
    ///
    /// # Errors
    ///
    /// The error of the first relation that [`Rules::with_relation`] would
    /// refuse.
    pub fn with_relations(
        self,
        relations: impl IntoIterator<Item = (usize, Relation, usize)>,
    ) -> Result<Rules, RulesError> {
        let (side, count) = (self.geometry.side, self.geometry.cells);
        let mut all = self.geometry.relations.clone();
        let before = all.len();
        for (first, relation, second) in relations {
            if let Some(cell) = [first, second].into_iter().find(|&c| c >= count) {
                return Err(RulesError::CellOutOfRange { cell, cells: count });
            }
            if first == second {
                return Err(RulesError::RelatedToItself { cell: first });
            }
            if !relation.possible(side) {
                return Err(RulesError::ImpossibleRelation { relation, side });
            }
            // Both cells are below the cell count, at most 625: each fits.
            let cell = |c: usize| u16::try_from(c).unwrap_or(u16::MAX);
            all.push(Related::new(cell(first), relation, cell(second)));
        }
        if all.len() == before {
            return Ok(self);
        }
        Ok(Rules::sharing(self.geometry.with_relations(all)))
    }

    /// These rules with an indexing cell at `cell`: its digit names a cell
    /// of its row, column or box, which holds the indexer's own column,
    /// row or place there ([`Indexer`]). Kept as [`Relation::Index`] with
    /// each cell it may point at.
    ///
    /// # Errors
    ///
    /// [`RulesError::CellOutOfRange`], and [`RulesError::IndexerWithoutBoxes`]
    /// for a box indexer on rules without boxes (a jigsaw map, a Latin
    /// square).
    ///
    /// ```
    /// use lazydoku::{Board, Indexer, Rules, Shape};
    ///
    /// // 159: the cells of columns 1, 5 and 9 name where 1, 5 and 9 go in
    /// // their row.
    /// let indexers = (0..9).flat_map(|row| [0, 4, 8].map(|column| 9 * row + column));
    /// let rules = indexers.fold(Ok(Rules::new(Shape::NINE)), |rules, cell| rules?.with_indexer(Indexer::Column, cell))?;
    /// let grid = Board::empty_with(&rules).solve().expect("159 grids exist");
    /// let digit = |row: usize, column: usize| usize::from(grid.get(9 * row + column).unwrap());
    /// assert!((0..9).all(|row| [0, 4, 8].iter().all(|&c| digit(row, digit(row, c) - 1) == c + 1)));
    /// # Ok::<(), lazydoku::RulesError>(())
    /// ```
    pub fn with_indexer(self, indexer: Indexer, cell: usize) -> Result<Rules, RulesError> {
        let cells = self.geometry.cells;
        if cell >= cells {
            return Err(RulesError::CellOutOfRange { cell, cells });
        }
        if indexer == Indexer::Box && !self.geometry.has_boxes() {
            return Err(RulesError::IndexerWithoutBoxes { cell });
        }
        let shape = self.shape();
        self.with_relations(indexer.relations(shape, cell))
    }

    /// These rules with a thermometer: its digits rise from the bulb,
    /// `cells[0]`, to the tip, each cell's digit smaller than the next
    /// one's ([`Relation::Less`] between each cell and the next).
    ///
    /// # Errors
    ///
    /// [`RulesError::CellOutOfRange`], [`RulesError::RelatedToItself`] for
    /// a cell given twice, and [`RulesError::ThermometerLength`] for an
    /// empty thermometer or one longer than the board has digits.
    ///
    /// ```
    /// use lazydoku::{Board, Rules, RulesError, Shape};
    ///
    /// // A 4x4 thermometer of four cells down the first column holds 1 to 4.
    /// let rules = Rules::new(Shape::new(2, 2)).with_thermometer(&[0, 4, 8, 12])?;
    /// let grid = Board::empty_with(&rules).solve().expect("a solution");
    /// assert_eq!([0, 4, 8, 12].map(|c| grid.get(c).unwrap()), [1, 2, 3, 4]);
    /// assert_eq!(
    ///     Rules::new(Shape::new(2, 2)).with_thermometer(&[0, 1, 2, 3, 7]),
    ///     Err(RulesError::ThermometerLength { found: 5, side: 4 })
    /// );
    /// # Ok::<(), RulesError>(())
    /// ```
    pub fn with_thermometer(self, cells: &[usize]) -> Result<Rules, RulesError> {
        let side = self.geometry.side;
        if cells.is_empty() || cells.len() > side {
            return Err(RulesError::ThermometerLength { found: cells.len(), side });
        }
        if let Some((_, &cell)) = cells.iter().enumerate().find(|&(i, c)| cells[..i].contains(c)) {
            return Err(RulesError::RelatedToItself { cell });
        }
        if cells.len() == 1 {
            // A bulb alone says nothing, but its cell must be on the board.
            let count = self.geometry.cells;
            return if cells[0] < count {
                Ok(self)
            } else {
                Err(RulesError::CellOutOfRange { cell: cells[0], cells: count })
            };
        }
        self.with_relations(cells.windows(2).map(|pair| (pair[0], Relation::Less, pair[1])))
    }

    /// These rules with a slow thermometer: its digits never fall from the
    /// bulb, `cells[0]`, to the tip, each cell's digit at most the next
    /// one's ([`Relation::LessOrEqual`] between each cell and the next).
    /// Cells of one region still differ, so there they rise.
    ///
    /// # Errors
    ///
    /// [`RulesError::CellOutOfRange`], [`RulesError::RelatedToItself`] for
    /// a cell given twice, and [`RulesError::ThermometerLength`] for an
    /// empty one.
    ///
    /// ```
    /// use lazydoku::{Board, Relation, Rules, Shape};
    ///
    /// // Along a diagonal of a 4x4 board, which no region holds twice but
    /// // for its boxes: digits may repeat, and never fall.
    /// let rules = Rules::new(Shape::new(2, 2)).with_slow_thermometer(&[0, 5, 10, 15])?;
    /// for solution in Board::empty_with(&rules).solutions() {
    ///     let digits = [0, 5, 10, 15].map(|c| solution.get(c).unwrap());
    ///     assert!(digits.windows(2).all(|w| w[0] <= w[1]));
    /// }
    /// assert!(rules.relations().all(|(_, relation, _)| relation == Relation::LessOrEqual));
    /// # Ok::<(), lazydoku::RulesError>(())
    /// ```
    pub fn with_slow_thermometer(self, cells: &[usize]) -> Result<Rules, RulesError> {
        if cells.is_empty() {
            return Err(RulesError::ThermometerLength { found: 0, side: self.geometry.side });
        }
        if let [cell] = *cells {
            // A bulb alone says nothing, but its cell must be on the board.
            let count = self.geometry.cells;
            return if cell < count { Ok(self) } else { Err(RulesError::CellOutOfRange { cell, cells: count }) };
        }
        if let Some((_, &cell)) = cells.iter().enumerate().find(|&(i, c)| cells[..i].contains(c)) {
            return Err(RulesError::RelatedToItself { cell });
        }
        self.with_relations(cells.windows(2).map(|pair| (pair[0], Relation::LessOrEqual, pair[1])))
    }

    /// These rules with a sum whose digits may repeat: the digits of
    /// `cells` add up to `total`. A little killer clue (a total along a
    /// diagonal) is one; so is any cage whose digits need not differ.
    /// Regions still keep their digits apart where the cells share one.
    ///
    /// # Errors
    ///
    /// [`RulesError::CellOutOfRange`], [`RulesError::RepeatedSumCell`] for a
    /// cell given twice, and [`RulesError::ImpossibleDigitSum`] for no
    /// cell, or a total below one or above the board's side per cell.
    ///
    /// ```
    /// use lazydoku::{Board, Rules, RulesError, Shape};
    ///
    /// // Four cells of a 4x4 board, no two in one row, column or box,
    /// // that add up to 4: four 1s.
    /// let rules = Rules::new(Shape::new(2, 2)).with_sum(4, &[0, 6, 9, 15])?;
    /// let solutions: Vec<Board> = Board::empty_with(&rules).solutions().collect();
    /// assert!(!solutions.is_empty());
    /// for solution in solutions {
    ///     assert!([0, 6, 9, 15].iter().all(|&c| solution.get(c) == Some(1)));
    /// }
    /// assert_eq!(rules.sums().collect::<Vec<_>>(), [(4, vec![0, 6, 9, 15])]);
    /// assert_eq!(
    ///     Rules::new(Shape::new(2, 2)).with_sum(17, &[0, 5, 10, 15]),
    ///     Err(RulesError::ImpossibleDigitSum { sum: 17, cells: 4, side: 4 })
    /// );
    /// # Ok::<(), RulesError>(())
    /// ```
    pub fn with_sum(self, total: usize, cells: &[usize]) -> Result<Rules, RulesError> {
        let rule = self.checked_sum(total, cells)?;
        Ok(self.with_sum_rules(vec![rule]))
    }

    /// These rules with an arrow: the digits of `shaft` add up to the
    /// number in the circle. A circle of one cell holds a digit; a circle
    /// of several cells (a pill) holds a number written in decimal, its
    /// first cell the leading digit, which needs a board whose digits are
    /// below 10. Digits on the shaft may repeat where no region forbids it.
    ///
    /// # Errors
    ///
    /// [`RulesError::CellOutOfRange`], [`RulesError::RepeatedSumCell`] for a
    /// cell given twice (in the circle and the shaft together), and
    /// [`RulesError::ImpossibleArrow`] for an empty circle or shaft, a pill
    /// on a board with digits from 10 up, or a shaft that cannot add up to
    /// any number the circle can hold.
    ///
    /// ```
    /// use lazydoku::{Board, Rules, RulesError, Shape};
    ///
    /// // On a 4x4 board, the first cell is the sum of the two below it.
    /// let rules = Rules::new(Shape::new(2, 2)).with_arrow(&[0], &[4, 8])?;
    /// // Of the 288 grids, 12 hold each order of 1 to 4 down the column,
    /// // and 4 orders put the sum of the next two first: 48 grids.
    /// assert_eq!(Board::empty_with(&rules).count_solutions(1000), 48);
    /// for solution in Board::empty_with(&rules).solutions() {
    ///     let digit = |cell| solution.get(cell).unwrap();
    ///     assert_eq!(digit(0), digit(4) + digit(8));
    /// }
    /// assert_eq!(rules.arrows().collect::<Vec<_>>(), [(vec![0], vec![4, 8])]);
    /// assert_eq!(
    ///     Rules::new(Shape::new(2, 2)).with_arrow(&[0], &[1, 2, 3, 4, 8]),
    ///     Err(RulesError::ImpossibleArrow { circle: 1, shaft: 5, side: 4 })
    /// );
    /// # Ok::<(), RulesError>(())
    /// ```
    pub fn with_arrow(self, circle: &[usize], shaft: &[usize]) -> Result<Rules, RulesError> {
        let rule = self.checked_arrow(circle, shaft)?;
        Ok(self.with_sum_rules(vec![rule]))
    }

    /// Every sum of [`Rules::with_sum`]: its total and its cells (in
    /// order), in the order the rules keep them.
    pub fn sums(&self) -> impl Iterator<Item = (usize, Vec<usize>)> + '_ {
        self.geometry.line_rules.iter().filter_map(|rule| match rule {
            LineRule::Total { total, cells } => Some((*total, cells.iter().map(|&c| usize::from(c)).collect())),
            _ => None,
        })
    }

    /// Every arrow of [`Rules::with_arrow`]: its circle (the number's
    /// leading digit first) and its shaft (its cells in order), in the
    /// order the rules keep them.
    pub fn arrows(&self) -> impl Iterator<Item = (Vec<usize>, Vec<usize>)> + '_ {
        let cells = |cells: &[u16]| cells.iter().map(|&c| usize::from(c)).collect();
        self.geometry.line_rules.iter().filter_map(move |rule| match rule {
            LineRule::Arrow { circle, shaft } => Some((cells(circle), cells(shaft))),
            _ => None,
        })
    }

    /// These rules with a sandwich sum: along `cells`, the cells of one
    /// region in order (a row left to right, say), the digits between the
    /// region's 1 and its largest digit (9 on 9x9) add up to `sum`; 0
    /// puts the two side by side.
    ///
    /// # Errors
    ///
    /// [`RulesError::CellOutOfRange`], [`RulesError::RepeatedSumCell`],
    /// [`RulesError::SandwichLine`] for cells that are not one region's,
    /// and [`RulesError::ImpossibleSandwich`] for a sum above what the
    /// digits between can make.
    ///
    /// ```
    /// use lazydoku::{Board, Rules, RulesError, Shape};
    ///
    /// // The first row of a 4x4 board holds 5 between its 1 and its 4: the
    /// // 1 and the 4 at its ends, the 2 and the 3 between them.
    /// let rules = Rules::new(Shape::new(2, 2)).with_sandwich(5, &[0, 1, 2, 3])?;
    /// let solutions: Vec<Board> = Board::empty_with(&rules).solutions().collect();
    /// assert_eq!(solutions.len(), 288 / 6);
    /// for solution in &solutions {
    ///     let ends = [solution.get(0).unwrap(), solution.get(3).unwrap()];
    ///     assert!(ends == [1, 4] || ends == [4, 1]);
    /// }
    /// assert_eq!(rules.sandwiches().collect::<Vec<_>>(), [(5, vec![0, 1, 2, 3])]);
    /// // The same row read from the right is the same rule.
    /// assert_eq!(Rules::new(Shape::new(2, 2)).with_sandwich(5, &[3, 2, 1, 0])?, rules);
    /// assert_eq!(
    ///     Rules::new(Shape::new(2, 2)).with_sandwich(5, &[0, 1, 4, 5]).map(|_| ()),
    ///     Ok(()),
    ///     "a box is a region too"
    /// );
    /// assert_eq!(
    ///     Rules::new(Shape::new(2, 2)).with_sandwich(3, &[0, 1, 2, 4]),
    ///     Err(RulesError::SandwichLine { cells: vec![0, 1, 2, 4] })
    /// );
    /// assert_eq!(
    ///     Rules::new(Shape::new(2, 2)).with_sandwich(6, &[0, 1, 2, 3]),
    ///     Err(RulesError::ImpossibleSandwich { sum: 6, side: 4 })
    /// );
    /// # Ok::<(), RulesError>(())
    /// ```
    pub fn with_sandwich(self, sum: usize, cells: &[usize]) -> Result<Rules, RulesError> {
        let rule = self.checked_sandwich(sum, cells)?;
        Ok(self.with_sum_rules(vec![rule]))
    }

    /// Every sandwich of [`Rules::with_sandwich`]: its sum and its cells in
    /// order, in the order the rules keep them. A sandwich reads the same
    /// both ways, so its cells come from the end with the smaller cell
    /// number, whichever way it was given.
    pub fn sandwiches(&self) -> impl Iterator<Item = (usize, Vec<usize>)> + '_ {
        self.geometry.line_rules.iter().filter_map(|rule| match rule {
            LineRule::Sandwich { sum, cells } => Some((*sum, cells.iter().map(|&c| usize::from(c)).collect())),
            _ => None,
        })
    }

    /// These rules with a between line: the digits of the cells between
    /// the line's two ends, `cells[0]` and the last, lie strictly between
    /// the ends' digits. Digits in the middle may repeat where no region
    /// forbids it.
    ///
    /// # Errors
    ///
    /// [`RulesError::CellOutOfRange`], [`RulesError::RepeatedSumCell`],
    /// and [`RulesError::BetweenLineLength`] for a line of fewer than three
    /// cells.
    ///
    /// ```
    /// use lazydoku::{Board, Rules, RulesError, Shape};
    ///
    /// // Down the first column of a 4x4 board: the two middle cells lie
    /// // between the ends, so the ends are 1 and 4.
    /// let rules = Rules::new(Shape::new(2, 2)).with_between_line(&[0, 4, 8, 12])?;
    /// let solutions: Vec<Board> = Board::empty_with(&rules).solutions().collect();
    /// assert!(!solutions.is_empty());
    /// for solution in &solutions {
    ///     let ends = [solution.get(0).unwrap(), solution.get(12).unwrap()];
    ///     assert!(ends == [1, 4] || ends == [4, 1]);
    /// }
    /// assert_eq!(rules.between_lines().collect::<Vec<_>>(), [vec![0, 4, 8, 12]]);
    /// assert_eq!(
    ///     Rules::new(Shape::new(2, 2)).with_between_line(&[0, 1]),
    ///     Err(RulesError::BetweenLineLength { found: 2, side: 4 })
    /// );
    /// # Ok::<(), RulesError>(())
    /// ```
    pub fn with_between_line(self, cells: &[usize]) -> Result<Rules, RulesError> {
        let rule = self.checked_between_line(cells)?;
        Ok(self.with_sum_rules(vec![rule]))
    }

    /// Every between line of [`Rules::with_between_line`], its ends first
    /// and last, in the order the rules keep them.
    pub fn between_lines(&self) -> impl Iterator<Item = Vec<usize>> + '_ {
        self.geometry.line_rules.iter().filter_map(|rule| match rule {
            LineRule::Between { line } => Some(line.iter().map(|&c| usize::from(c)).collect()),
            _ => None,
        })
    }

    /// These rules with a quadruple: `cells` (the four around a corner, or
    /// any) hold each of `digits`, a digit given twice twice, and may hold
    /// others.
    ///
    /// # Errors
    ///
    /// [`RulesError::CellOutOfRange`], [`RulesError::RepeatedSumCell`],
    /// [`RulesError::DigitOutOfRange`], and [`RulesError::QuadrupleSize`]
    /// for no cell, no digit, or more digits than cells.
    ///
    /// ```
    /// use lazydoku::{Board, Rules, RulesError, Shape};
    ///
    /// // The four cells around the centre of a 4x4 board hold a 1 and two 3s.
    /// let rules = Rules::new(Shape::new(2, 2)).with_quadruple(&[5, 6, 9, 10], &[3, 1, 3])?;
    /// assert_eq!(rules.quadruples().collect::<Vec<_>>(), [(vec![5, 6, 9, 10], vec![1, 3, 3])]);
    /// let solutions: Vec<Board> = Board::empty_with(&rules).solutions().collect();
    /// assert!(!solutions.is_empty());
    /// for solution in &solutions {
    ///     let digits: Vec<u8> = [5, 6, 9, 10].iter().map(|&c| solution.get(c).unwrap()).collect();
    ///     assert!(digits.contains(&1) && digits.iter().filter(|&&d| d == 3).count() == 2);
    /// }
    /// assert_eq!(
    ///     Rules::new(Shape::new(2, 2)).with_quadruple(&[0, 1], &[1, 2, 3]),
    ///     Err(RulesError::QuadrupleSize { cells: 2, digits: 3 })
    /// );
    /// # Ok::<(), RulesError>(())
    /// ```
    pub fn with_quadruple(self, cells: &[usize], digits: &[u8]) -> Result<Rules, RulesError> {
        let rule = self.checked_quadruple(cells, digits)?;
        Ok(self.with_sum_rules(vec![rule]))
    }

    /// Every quadruple of [`Rules::with_quadruple`]: its cells and its
    /// digits, each sorted, in the order the rules keep them.
    pub fn quadruples(&self) -> impl Iterator<Item = (Vec<usize>, Vec<u8>)> + '_ {
        self.geometry.line_rules.iter().filter_map(|rule| match rule {
            LineRule::Quadruple { cells, digits } => {
                Some((cells.iter().map(|&c| usize::from(c)).collect(), digits.clone()))
            }
            _ => None,
        })
    }

    /// These rules with a renban line: the digits of `cells` are a run of
    /// consecutive digits (3, 4, 5 or 7, 5, 6, say), each once, in any
    /// order. The cells need not share a region.
    ///
    /// # Errors
    ///
    /// [`RulesError::CellOutOfRange`], [`RulesError::RepeatedSumCell`], and
    /// [`RulesError::RenbanLength`] for fewer than two cells or more than
    /// the side.
    ///
    /// ```
    /// use lazydoku::{Board, Rules, RulesError, Shape};
    ///
    /// // The main diagonal of a 4x4 board holds 1 to 4 in some order, and
    /// // a line of two cells from two boxes holds two digits in a row.
    /// let rules = Rules::new(Shape::new(2, 2)).with_renban(&[0, 5, 10, 15])?.with_renban(&[1, 2])?;
    /// assert_eq!(rules.renbans().collect::<Vec<_>>(), [vec![0, 5, 10, 15], vec![1, 2]]);
    /// let solutions: Vec<Board> = Board::empty_with(&rules).solutions().collect();
    /// assert!(!solutions.is_empty());
    /// for solution in &solutions {
    ///     let (a, b) = (solution.get(1).unwrap(), solution.get(2).unwrap());
    ///     assert_eq!(a.abs_diff(b), 1);
    /// }
    /// assert_eq!(
    ///     Rules::new(Shape::new(2, 2)).with_renban(&[0, 1, 2, 3, 4]),
    ///     Err(RulesError::RenbanLength { found: 5, side: 4 })
    /// );
    /// # Ok::<(), RulesError>(())
    /// ```
    pub fn with_renban(self, cells: &[usize]) -> Result<Rules, RulesError> {
        let rule = self.checked_renban(cells)?;
        Ok(self.with_sum_rules(vec![rule]))
    }

    /// Every renban line of [`Rules::with_renban`], its cells in the order
    /// given, the lines in the order the rules keep them.
    pub fn renbans(&self) -> impl Iterator<Item = Vec<usize>> + '_ {
        self.geometry.line_rules.iter().filter_map(|rule| match rule {
            LineRule::Renban { line } => Some(line.iter().map(|&c| usize::from(c)).collect()),
            _ => None,
        })
    }

    /// These rules with a region sum line: where the line crosses from one
    /// box (or jigsaw region) to another it is cut into segments, and the
    /// digits of every segment add up to the same sum. A line that leaves a
    /// box and comes back has a segment for each visit. The segments follow
    /// the regions of the rules as they are built, whether the regions come
    /// before or after the line.
    ///
    /// # Errors
    ///
    /// [`RulesError::CellOutOfRange`], [`RulesError::RepeatedSumCell`], and
    /// [`RulesError::ShortLine`] for fewer than two cells.
    ///
    /// ```
    /// use lazydoku::{Board, Rules, Shape};
    ///
    /// // Along the first row of a 4x4 board: the two cells of the first box
    /// // add up to what the two of the second box do, 1 + 4 = 2 + 3.
    /// let rules = Rules::new(Shape::new(2, 2)).with_region_sum_line(&[0, 1, 2, 3])?;
    /// assert_eq!(rules.region_sum_lines().collect::<Vec<_>>(), [vec![0, 1, 2, 3]]);
    /// for solution in Board::empty_with(&rules).solutions() {
    ///     let digit = |cell: usize| solution.get(cell).unwrap();
    ///     assert_eq!(digit(0) + digit(1), digit(2) + digit(3));
    /// }
    /// # Ok::<(), lazydoku::RulesError>(())
    /// ```
    pub fn with_region_sum_line(self, cells: &[usize]) -> Result<Rules, RulesError> {
        let rule = self.checked_equal_sums(EqualSumKind::RegionSum, cells)?;
        Ok(self.with_sum_rules(vec![rule]))
    }

    /// These rules with a zipper line: the digits of any two cells the same
    /// distance from the line's middle add up to the same sum, which on a
    /// line of odd length is the digit of its middle cell. Digits may
    /// repeat along it, but where the regions forbid it.
    ///
    /// # Errors
    ///
    /// [`RulesError::CellOutOfRange`], [`RulesError::RepeatedSumCell`], and
    /// [`RulesError::ShortLine`] for fewer than three cells.
    ///
    /// ```
    /// use lazydoku::{Board, Rules, Shape};
    ///
    /// // A zipper of three cells down the first column of a 4x4 board: the
    /// // middle cell holds the sum of the two at the ends.
    /// let rules = Rules::new(Shape::new(2, 2)).with_zipper_line(&[0, 4, 8])?;
    /// let solution = Board::empty_with(&rules).solve().expect("a grid");
    /// let digit = |cell: usize| solution.get(cell).unwrap();
    /// assert_eq!(digit(4), digit(0) + digit(8));
    /// assert_eq!(rules.zipper_lines().collect::<Vec<_>>(), [vec![0, 4, 8]]);
    /// # Ok::<(), lazydoku::RulesError>(())
    /// ```
    pub fn with_zipper_line(self, cells: &[usize]) -> Result<Rules, RulesError> {
        let rule = self.checked_equal_sums(EqualSumKind::Zipper, cells)?;
        Ok(self.with_sum_rules(vec![rule]))
    }

    /// These rules with a double arrow: a line whose two ends (circles)
    /// add up to what the digits of the cells between them do, which may
    /// repeat but where the regions forbid it.
    ///
    /// # Errors
    ///
    /// [`RulesError::CellOutOfRange`], [`RulesError::RepeatedSumCell`], and
    /// [`RulesError::ShortLine`] for fewer than three cells.
    ///
    /// ```
    /// use lazydoku::{Board, Rules, Shape};
    ///
    /// let rules = Rules::new(Shape::new(2, 2)).with_double_arrow(&[0, 5, 10, 15])?;
    /// for solution in Board::empty_with(&rules).solutions() {
    ///     let digit = |cell: usize| solution.get(cell).unwrap();
    ///     assert_eq!(digit(0) + digit(15), digit(5) + digit(10));
    /// }
    /// assert_eq!(rules.double_arrows().collect::<Vec<_>>(), [vec![0, 5, 10, 15]]);
    /// # Ok::<(), lazydoku::RulesError>(())
    /// ```
    pub fn with_double_arrow(self, cells: &[usize]) -> Result<Rules, RulesError> {
        let rule = self.checked_equal_sums(EqualSumKind::DoubleArrow, cells)?;
        Ok(self.with_sum_rules(vec![rule]))
    }

    /// Every region sum line of [`Rules::with_region_sum_line`], its cells
    /// in the order given.
    pub fn region_sum_lines(&self) -> impl Iterator<Item = Vec<usize>> + '_ {
        self.equal_sum_lines(EqualSumKind::RegionSum)
    }

    /// Every zipper line of [`Rules::with_zipper_line`], its cells in the
    /// order given.
    pub fn zipper_lines(&self) -> impl Iterator<Item = Vec<usize>> + '_ {
        self.equal_sum_lines(EqualSumKind::Zipper)
    }

    /// Every double arrow of [`Rules::with_double_arrow`], its cells in
    /// the order given.
    pub fn double_arrows(&self) -> impl Iterator<Item = Vec<usize>> + '_ {
        self.equal_sum_lines(EqualSumKind::DoubleArrow)
    }

    /// The lines of equal sums of one kind.
    fn equal_sum_lines(&self, wanted: EqualSumKind) -> impl Iterator<Item = Vec<usize>> + '_ {
        self.geometry.line_rules.iter().filter_map(move |rule| match rule {
            LineRule::EqualSums { kind, line, .. } if *kind == wanted => {
                Some(line.iter().map(|&c| usize::from(c)).collect())
            }
            _ => None,
        })
    }

    /// The rule of [`Rules::with_region_sum_line`],
    /// [`Rules::with_zipper_line`] or [`Rules::with_double_arrow`], by
    /// `kind`, checked against these rules.
    pub(crate) fn checked_equal_sums(&self, kind: EqualSumKind, cells: &[usize]) -> Result<LineRule, RulesError> {
        let line = self.sum_cells(cells)?;
        let least = if kind == EqualSumKind::RegionSum { 2 } else { 3 };
        if line.len() < least {
            return Err(RulesError::ShortLine { found: line.len(), least });
        }
        let groups = kind.groups(&line);
        let cells = groups.concat();
        Ok(LineRule::EqualSums { kind, line, groups, cells })
    }

    /// These rules with an entropic line: any three cells in a row along
    /// it hold a digit of the lower third of the digits (1 to 3 on 9x9),
    /// one of the middle third (4 to 6) and one of the upper third (7 to
    /// 9). A line of two cells holds two thirds.
    ///
    /// # Errors
    ///
    /// [`RulesError::CellOutOfRange`], [`RulesError::RepeatedSumCell`],
    /// [`RulesError::ShortLine`] for fewer than two cells, and
    /// [`RulesError::NoThirds`] on a side that does not split into thirds.
    ///
    /// ```
    /// use lazydoku::{Board, Rules, RulesError, Shape};
    ///
    /// // Down the first column of a 6x6 board: 1-2, 3-4 and 5-6 by turns.
    /// let rules = Rules::new(Shape::new(2, 3)).with_entropic_line(&[0, 6, 12, 18, 24, 30])?;
    /// let solution = Board::empty_with(&rules).solve().expect("a grid");
    /// let thirds: Vec<u8> = [0, 6, 12, 18, 24, 30].iter().map(|&c| (solution.get(c).unwrap() - 1) / 2).collect();
    /// assert!(thirds.windows(3).all(|w| w[0] != w[1] && w[1] != w[2] && w[0] != w[2]));
    /// assert_eq!(rules.entropic_lines().collect::<Vec<_>>(), [vec![0, 6, 12, 18, 24, 30]]);
    /// assert_eq!(
    ///     Rules::new(Shape::new(2, 2)).with_entropic_line(&[0, 1]),
    ///     Err(RulesError::NoThirds { side: 4 })
    /// );
    /// # Ok::<(), RulesError>(())
    /// ```
    pub fn with_entropic_line(self, cells: &[usize]) -> Result<Rules, RulesError> {
        let rule = self.checked_class_line(ClassLine::Entropic, cells)?;
        Ok(self.with_sum_rules(vec![rule]))
    }

    /// These rules with a modular line: any three cells in a row along it
    /// hold digits that leave three different remainders divided by 3 (one
    /// of 3, 6, 9, one of 1, 4, 7 and one of 2, 5, 8 on 9x9). A line of two
    /// cells holds two remainders.
    ///
    /// # Errors
    ///
    /// [`RulesError::CellOutOfRange`], [`RulesError::RepeatedSumCell`], and
    /// [`RulesError::ShortLine`] for fewer than two cells.
    ///
    /// ```
    /// use lazydoku::{Board, Rules, Shape};
    ///
    /// let rules = Rules::new(Shape::NINE).with_modular_line(&[0, 1, 2, 3, 4])?;
    /// let solution = Board::empty_with(&rules).solve().expect("a grid");
    /// let remainders: Vec<u8> = (0..5).map(|c| solution.get(c).unwrap() % 3).collect();
    /// assert!(remainders.windows(3).all(|w| w[0] != w[1] && w[1] != w[2] && w[0] != w[2]));
    /// assert_eq!(rules.modular_lines().collect::<Vec<_>>(), [vec![0, 1, 2, 3, 4]]);
    /// # Ok::<(), lazydoku::RulesError>(())
    /// ```
    pub fn with_modular_line(self, cells: &[usize]) -> Result<Rules, RulesError> {
        let rule = self.checked_class_line(ClassLine::Modular, cells)?;
        Ok(self.with_sum_rules(vec![rule]))
    }

    /// Every entropic line of [`Rules::with_entropic_line`], its cells in
    /// the order given.
    pub fn entropic_lines(&self) -> impl Iterator<Item = Vec<usize>> + '_ {
        self.class_lines(ClassLine::Entropic)
    }

    /// Every modular line of [`Rules::with_modular_line`], its cells in the
    /// order given.
    pub fn modular_lines(&self) -> impl Iterator<Item = Vec<usize>> + '_ {
        self.class_lines(ClassLine::Modular)
    }

    /// The lines of classes of one kind.
    fn class_lines(&self, wanted: ClassLine) -> impl Iterator<Item = Vec<usize>> + '_ {
        self.geometry.line_rules.iter().filter_map(move |rule| match rule {
            LineRule::Classes { kind, line, .. } if *kind == wanted => {
                Some(line.iter().map(|&c| usize::from(c)).collect())
            }
            _ => None,
        })
    }

    /// The rule of [`Rules::with_entropic_line`] or
    /// [`Rules::with_modular_line`], by `kind`, checked against these rules.
    pub(crate) fn checked_class_line(&self, kind: ClassLine, cells: &[usize]) -> Result<LineRule, RulesError> {
        let side = self.geometry.side;
        let line = self.sum_cells(cells)?;
        if line.len() < 2 {
            return Err(RulesError::ShortLine { found: line.len(), least: 2 });
        }
        let classes = classes_of(kind, side).ok_or(RulesError::NoThirds { side })?;
        Ok(LineRule::Classes { kind, line, classes })
    }

    /// The rule of [`Rules::with_renban`], checked against these rules.
    pub(crate) fn checked_renban(&self, cells: &[usize]) -> Result<LineRule, RulesError> {
        let side = self.geometry.side;
        let line = self.sum_cells(cells)?;
        // One cell is a run of itself: refused as a mistake, as a between
        // line without a middle is.
        if line.len() < 2 || line.len() > side {
            return Err(RulesError::RenbanLength { found: line.len(), side });
        }
        Ok(LineRule::Renban { line })
    }

    /// The rule of [`Rules::with_quadruple`], checked against these rules.
    pub(crate) fn checked_quadruple(&self, cells: &[usize], digits: &[u8]) -> Result<LineRule, RulesError> {
        let side = self.geometry.side;
        let mut cells = self.sum_cells(cells)?;
        if let Some(&digit) = digits.iter().find(|&&d| d == 0 || usize::from(d) > side) {
            return Err(RulesError::DigitOutOfRange { digit, side });
        }
        if cells.is_empty() || digits.is_empty() || digits.len() > cells.len() {
            return Err(RulesError::QuadrupleSize { cells: cells.len(), digits: digits.len() });
        }
        cells.sort_unstable();
        let mut digits = digits.to_vec();
        digits.sort_unstable();
        Ok(LineRule::Quadruple { cells, digits })
    }

    /// The line rule of [`Rules::with_between_line`], checked against these
    /// rules.
    pub(crate) fn checked_between_line(&self, cells: &[usize]) -> Result<LineRule, RulesError> {
        let side = self.geometry.side;
        let line = self.sum_cells(cells)?;
        // Middle digits may repeat, so a line of any length can hold; one
        // with no middle says nothing and is refused as a mistake.
        if line.len() < 3 {
            return Err(RulesError::BetweenLineLength { found: line.len(), side });
        }
        Ok(LineRule::Between { line })
    }

    /// These rules with an X-sum: along `cells`, one region's cells from
    /// the clue's side (a row from the left, say), the first `x` digits add
    /// up to `sum`, where `x` is the first digit.
    ///
    /// # Errors
    ///
    /// [`RulesError::CellOutOfRange`], [`RulesError::RepeatedSumCell`],
    /// [`RulesError::XSumLine`] for cells that are not one region's, and
    /// [`RulesError::ImpossibleXSum`] for a sum no first digits can make.
    ///
    /// ```
    /// use lazydoku::{Board, Rules, RulesError, Shape};
    ///
    /// // The first row of a 4x4 board read from the left: an X-sum of 10
    /// // is all four digits, so its first digit is 4.
    /// let rules = Rules::new(Shape::new(2, 2)).with_x_sum(10, &[0, 1, 2, 3])?;
    /// assert!(Board::empty_with(&rules).solutions().all(|s| s.get(0) == Some(4)));
    /// assert_eq!(rules.x_sums().collect::<Vec<_>>(), [(10, vec![0, 1, 2, 3])]);
    /// assert_eq!(
    ///     Rules::new(Shape::new(2, 2)).with_x_sum(11, &[0, 1, 2, 3]),
    ///     Err(RulesError::ImpossibleXSum { sum: 11, side: 4 })
    /// );
    /// # Ok::<(), RulesError>(())
    /// ```
    pub fn with_x_sum(self, sum: usize, cells: &[usize]) -> Result<Rules, RulesError> {
        let rule = self.checked_x_sum(sum, cells)?;
        Ok(self.with_sum_rules(vec![rule]))
    }

    /// Every X-sum of [`Rules::with_x_sum`]: its sum and its cells, from the
    /// clue's side.
    pub fn x_sums(&self) -> impl Iterator<Item = (usize, Vec<usize>)> + '_ {
        self.geometry.line_rules.iter().filter_map(|rule| match rule {
            LineRule::XSum { sum, cells } => Some((*sum, cells.iter().map(|&c| usize::from(c)).collect())),
            _ => None,
        })
    }

    /// The rule of [`Rules::with_x_sum`], checked against these rules.
    pub(crate) fn checked_x_sum(&self, sum: usize, cells: &[usize]) -> Result<LineRule, RulesError> {
        let side = self.geometry.side;
        let line = self.clue_line(cells)?;
        // One digit 1 at least, all of them at most.
        if sum == 0 || sum > side * (side + 1) / 2 {
            return Err(RulesError::ImpossibleXSum { sum, side });
        }
        Ok(LineRule::XSum { sum, cells: line })
    }

    /// These rules with a skyscraper clue: read from the clue's side along
    /// `cells`, one region's (a row from the left, say), `seen` digits are
    /// taller than every digit before them (the first always is).
    ///
    /// # Errors
    ///
    /// [`RulesError::CellOutOfRange`], [`RulesError::RepeatedSumCell`],
    /// [`RulesError::XSumLine`] for cells that are not one region's, and
    /// [`RulesError::ImpossibleSkyscraper`] for a clue of 0 or above the
    /// side.
    ///
    /// ```
    /// use lazydoku::{Board, Rules, Shape};
    ///
    /// // The first row of a 4x4 board seen from the left shows all four:
    /// // it rises 1, 2, 3, 4.
    /// let rules = Rules::new(Shape::new(2, 2)).with_skyscraper(4, &[0, 1, 2, 3])?;
    /// let grid = Board::empty_with(&rules).solve().expect("a grid");
    /// assert_eq!(&grid.as_str()[..4], "1234");
    /// assert_eq!(rules.skyscrapers().collect::<Vec<_>>(), [(4, vec![0, 1, 2, 3])]);
    /// # Ok::<(), lazydoku::RulesError>(())
    /// ```
    pub fn with_skyscraper(self, seen: usize, cells: &[usize]) -> Result<Rules, RulesError> {
        let rule = self.checked_skyscraper(seen, cells)?;
        Ok(self.with_sum_rules(vec![rule]))
    }

    /// Every skyscraper clue of [`Rules::with_skyscraper`]: how many it
    /// sees, and its cells from the clue's side.
    pub fn skyscrapers(&self) -> impl Iterator<Item = (usize, Vec<usize>)> + '_ {
        self.geometry.line_rules.iter().filter_map(|rule| match rule {
            LineRule::Skyscraper { seen, cells } => Some((*seen, cells.iter().map(|&c| usize::from(c)).collect())),
            _ => None,
        })
    }

    /// The rule of [`Rules::with_skyscraper`], checked against these rules.
    pub(crate) fn checked_skyscraper(&self, seen: usize, cells: &[usize]) -> Result<LineRule, RulesError> {
        let side = self.geometry.side;
        let line = self.clue_line(cells)?;
        if seen == 0 || seen > side {
            return Err(RulesError::ImpossibleSkyscraper { seen, side });
        }
        Ok(LineRule::Skyscraper { seen, cells: line })
    }

    /// Whether `cells` are the cells of one region, in any order.
    fn is_region(&self, cells: &[u16]) -> bool {
        let mut sorted = cells.to_vec();
        sorted.sort_unstable();
        self.geometry.units().any(|unit| {
            let mut unit = unit.to_vec();
            unit.sort_unstable();
            unit == sorted
        })
    }

    /// The sum rule of [`Rules::with_sandwich`], checked against these rules.
    pub(crate) fn checked_sandwich(&self, sum: usize, cells: &[usize]) -> Result<LineRule, RulesError> {
        let side = self.geometry.side;
        let line = self.sum_cells(cells)?;
        if !self.is_region(&line) {
            return Err(RulesError::SandwichLine { cells: cells.to_vec() });
        }
        // The digits between the ends are 2 to side - 1 at most.
        if sum > (2..side).sum::<usize>() {
            return Err(RulesError::ImpossibleSandwich { sum, side });
        }
        Ok(LineRule::sandwich(sum, line))
    }

    /// The sum rule of [`Rules::with_sum`], checked against these rules.
    pub(crate) fn checked_sum(&self, total: usize, cells: &[usize]) -> Result<LineRule, RulesError> {
        let side = self.geometry.side;
        let mut cells = self.sum_cells(cells)?;
        // A sum's cells in any order are one rule.
        cells.sort_unstable();
        let rule = LineRule::Total { total, cells };
        let fits = i32::try_from(total).is_ok() && !rule.linear().terms.is_empty() && rule.linear().possible(side);
        if !fits {
            let count = rule.cells().count();
            return Err(RulesError::ImpossibleDigitSum { sum: total, cells: count, side });
        }
        Ok(rule)
    }

    /// The sum rule of [`Rules::with_arrow`], checked against these rules.
    pub(crate) fn checked_arrow(&self, circle: &[usize], shaft: &[usize]) -> Result<LineRule, RulesError> {
        let side = self.geometry.side;
        let both: Vec<usize> = circle.iter().chain(shaft).copied().collect();
        let mut cells = self.sum_cells(&both)?;
        let mut shaft = cells.split_off(circle.len());
        // The shaft's cells in any order are one rule; the circle's order
        // is the number's.
        shaft.sort_unstable();
        let impossible = RulesError::ImpossibleArrow { circle: circle.len(), shaft: shaft.len(), side };
        // A pill past three cells holds a number no shaft on a board of
        // 625 cells reaches; past nine its weights would overflow.
        if cells.is_empty() || shaft.is_empty() || (cells.len() > 1 && side > 9) || cells.len() > 3 {
            return Err(impossible);
        }
        let rule = LineRule::Arrow { circle: cells, shaft };
        if !rule.linear().possible(side) {
            return Err(impossible);
        }
        Ok(rule)
    }

    /// The cells of a clue read along a whole region from outside (X-sums,
    /// skyscrapers), checked as [`Rules::sum_cells`] checks them.
    fn clue_line(&self, cells: &[usize]) -> Result<Vec<u16>, RulesError> {
        let line = self.sum_cells(cells)?;
        if self.is_region(&line) { Ok(line) } else { Err(RulesError::XSumLine { cells: cells.to_vec() }) }
    }

    /// `cells` as the rules keep them, each on the board and given once.
    fn sum_cells(&self, cells: &[usize]) -> Result<Vec<u16>, RulesError> {
        let count = self.geometry.cells;
        if let Some(&cell) = cells.iter().find(|&&c| c >= count) {
            return Err(RulesError::CellOutOfRange { cell, cells: count });
        }
        if let Some((_, &cell)) = cells.iter().enumerate().find(|&(i, c)| cells[..i].contains(c)) {
            return Err(RulesError::RepeatedSumCell { cell });
        }
        // Every cell is below the cell count, at most 625: each fits.
        Ok(cells.iter().map(|&c| u16::try_from(c).unwrap_or(u16::MAX)).collect())
    }

    /// These rules with `more` sums (checked by the caller), built once.
    pub(crate) fn with_sum_rules(self, more: Vec<LineRule>) -> Rules {
        if more.is_empty() {
            return self;
        }
        let mut all = self.geometry.line_rules.clone();
        all.extend(more);
        Rules::sharing(self.geometry.with_sums(all))
    }

    /// These rules with each of `cells` (numbered row by row from 0)
    /// holding one of `digits` only: the shaded cells of even-odd puzzles,
    /// or any other set. A cell given several times keeps the digits all of
    /// its sets share.
    ///
    /// # Errors
    ///
    /// [`RulesError::CellOutOfRange`], [`RulesError::DigitOutOfRange`] for
    /// a digit outside 1 to the board's side,
    /// [`RulesError::NoDigitAllowed`] for a cell left with no digit, and
    /// [`RulesError::TooFewDigits`] for cells of one region, group of
    /// distinct digits or cage that may hold fewer digits between them than
    /// they are. Regions, groups and cages added later through a builder
    /// that can fail are checked the same way.
    ///
    /// ```
    /// use lazydoku::{Board, Rules, RulesError, Shape};
    ///
    /// // The first cell of a 4x4 board holds 3 or 4, the next one 1.
    /// let rules = Rules::new(Shape::new(2, 2)).with_allowed_digits(&[0], &[3, 4])?.with_allowed_digits(&[1], &[1])?;
    /// assert_eq!(rules.allowed_digits(0).iter().collect::<Vec<_>>(), [3, 4]);
    /// for solution in Board::empty_with(&rules).solutions() {
    ///     assert!(solution.get(0).unwrap() >= 3 && solution.get(1) == Some(1));
    /// }
    /// assert!(rules.parse("2...............").is_err(), "2 is not allowed in the first cell");
    /// assert_eq!(
    ///     Rules::new(Shape::new(2, 2)).with_allowed_digits(&[0], &[5]),
    ///     Err(RulesError::DigitOutOfRange { digit: 5, side: 4 })
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_allowed_digits(self, cells: &[usize], digits: &[u8]) -> Result<Rules, RulesError> {
        let (side, count) = (self.geometry.side, self.geometry.cells);
        if let Some(&cell) = cells.iter().find(|&&c| c >= count) {
            return Err(RulesError::CellOutOfRange { cell, cells: count });
        }
        if let Some(&digit) = digits.iter().find(|&&d| d == 0 || usize::from(d) > side) {
            return Err(RulesError::DigitOutOfRange { digit, side });
        }
        let mask = digits.iter().fold(0u32, |mask, &d| mask | 1 << (d - 1));
        self.with_allowed_masks(cells.iter().map(|&cell| (cell, mask)))
    }

    /// These rules with each cell of `masks` holding the digits of its
    /// mask only, as [`Rules::with_allowed_digits`] (whose checks of cells
    /// and digits the caller has made): one copy of the rules for many sets.
    pub(crate) fn with_allowed_masks(self, masks: impl IntoIterator<Item = (usize, u32)>) -> Result<Rules, RulesError> {
        let count = self.geometry.cells;
        let mut allowed = (0..count).map(|cell| self.geometry.allowed_at(cell)).collect::<Vec<u32>>();
        let mut changed = false;
        for (cell, mask) in masks {
            changed = true;
            allowed[cell] &= mask;
            if allowed[cell] == 0 {
                return Err(RulesError::NoDigitAllowed { cell });
            }
        }
        if !changed {
            return Ok(self);
        }
        let rules = Rules::sharing(self.geometry.with_allowed(allowed));
        rules.digits_fit()?;
        Ok(rules)
    }

    /// [`RulesError::TooFewDigits`] when the digits these rules allow leave
    /// cells that must differ (in a region, a group of distinct
    /// digits or a cage) fewer digits than cells: so that five even cells
    /// in a row of 9x9 are an error that names them, not a search that
    /// fails. Checked by every builder that can fail, whichever of the
    /// allowed digits and the regions came first.
    fn digits_fit(&self) -> Result<(), RulesError> {
        if !self.has_allowed_digits() {
            return Ok(());
        }
        let geometry = &self.geometry;
        let allowed: Vec<u32> = (0..geometry.cells).map(|cell| geometry.allowed_at(cell)).collect();
        let groups = geometry
            .unit_list()
            .into_iter()
            .map(|(_, cells)| cells)
            .chain(self.distinct_groups())
            .chain(geometry.cage_list().into_iter().map(|(_, cells)| cells));
        for group in groups {
            if let Some(crowded) = crowded_cells(&group, &allowed, geometry.full) {
                let digits = Candidates::from_bits(crowded.iter().fold(0, |mask, &cell| mask | allowed[cell]));
                return Err(RulesError::TooFewDigits { cells: crowded, digits: digits.iter().collect() });
            }
        }
        Ok(())
    }

    /// These rules with `cells` holding even digits only (the shaded
    /// squares of even-odd puzzles): [`Rules::with_allowed_digits`] with
    /// 2, 4, 6 and so on up to the board's side.
    ///
    /// # Errors
    ///
    /// As [`Rules::with_allowed_digits`].
    ///
    /// ```
    /// use lazydoku::{Rules, RulesError, Shape};
    ///
    /// // A 9x9 row has four even digits, so five even cells in one row
    /// // leave no grid.
    /// let err = Rules::new(Shape::NINE).with_even(&[0, 2, 4, 6, 8]).unwrap_err();
    /// assert_eq!(err, RulesError::TooFewDigits { cells: vec![0, 2, 4, 6, 8], digits: vec![2, 4, 6, 8] });
    /// assert_eq!(
    ///     err.to_string(),
    ///     "cells 0, 2, 4, 6, 8 must hold distinct digits, and may hold only 2, 4, 6, 8: 5 cells for 4 digits"
    /// );
    /// ```
    pub fn with_even(self, cells: &[usize]) -> Result<Rules, RulesError> {
        let digits: Vec<u8> = (2..=self.largest_digit()).step_by(2).collect();
        self.with_allowed_digits(cells, &digits)
    }

    /// These rules with `cells` holding odd digits only (the circled
    /// squares of even-odd puzzles): [`Rules::with_allowed_digits`] with 1,
    /// 3, 5 and so on up to the board's side.
    ///
    /// # Errors
    ///
    /// As [`Rules::with_allowed_digits`].
    pub fn with_odd(self, cells: &[usize]) -> Result<Rules, RulesError> {
        let digits: Vec<u8> = (1..=self.largest_digit()).step_by(2).collect();
        self.with_allowed_digits(cells, &digits)
    }

    /// The board's largest digit, its side (25 at most).
    fn largest_digit(&self) -> u8 {
        u8::try_from(self.geometry.side).unwrap_or(u8::MAX)
    }

    /// The digits `cell` may hold under these rules
    /// ([`Rules::with_allowed_digits`]): every digit of the board unless
    /// they say otherwise, and none for a cell off the board.
    #[must_use]
    pub fn allowed_digits(&self, cell: usize) -> Candidates {
        if cell >= self.geometry.cells {
            return Candidates::from_bits(0);
        }
        Candidates::from_bits(self.geometry.allowed_at(cell))
    }

    /// Whether some cell may not hold every digit
    /// ([`Rules::with_allowed_digits`]).
    #[must_use]
    pub fn has_allowed_digits(&self) -> bool {
        !self.geometry.allowed.is_empty()
    }

    /// Every relation between two cells ([`Rules::with_relation`]): the
    /// first cell, the relation and the second, in order and without
    /// repeats. A symmetric relation lists its smaller cell first.
    pub fn relations(&self) -> impl Iterator<Item = (usize, Relation, usize)> + '_ {
        self.geometry.relations.iter().map(|r| (usize::from(r.cells[0]), r.relation, usize::from(r.cells[1])))
    }

    /// Every group of distinct digits ([`Rules::with_distinct`]), each with
    /// its cells in order, the groups in order and without repeats.
    pub fn distinct_groups(&self) -> impl Iterator<Item = Vec<usize>> + '_ {
        self.geometry.distinct.iter().map(|group| group.iter().map(|&c| usize::from(c)).collect())
    }

    /// Every killer cage: its sum and its cells, in the order added.
    pub fn cages(&self) -> impl Iterator<Item = (usize, Vec<usize>)> + '_ {
        self.geometry.cage_list().into_iter()
    }

    /// The board's shape: its side, and its boxes when it has boxes.
    #[must_use]
    pub fn shape(&self) -> Shape {
        self.geometry.shape
    }

    /// Every region, with its kind: rows, then columns, then boxes (or
    /// jigsaw regions), then the rest in the order they were added.
    pub fn regions(&self) -> impl Iterator<Item = (Region, Vec<usize>)> + '_ {
        self.geometry.unit_list().into_iter()
    }

    /// These rules rotated or reflected by `turn`, as [`Board::turned`]
    /// turns a board: every region, cage, group, relation, line and clue
    /// moves with its cells (a line keeps its direction, a clue the side it
    /// reads from, turned), and the rows, columns, boxes and diagonals are
    /// the turned board's own. A turn that swaps rows and columns
    /// ([`Turn::swaps_axes`]) makes boxes of `r` rows by `c` columns into
    /// boxes of `c` by `r`.
    ///
    /// [`Board::turned`]: crate::Board::turned
    ///
    /// ```
    /// use lazydoku::{Relation, Rules, Shape, Turn};
    ///
    /// // A thermometer along the top row of a 6x6 board with 2x3 boxes.
    /// let rules = Rules::new(Shape::new(2, 3)).with_thermometer(&[0, 1, 2])?;
    /// let turned = rules.turned(Turn::Clockwise);
    /// // Down the right column of a board with 3x2 boxes.
    /// assert_eq!(turned.shape(), Shape::new(3, 2));
    /// let steps: Vec<_> = turned.relations().collect();
    /// assert_eq!(steps, [(5, Relation::Less, 11), (11, Relation::Less, 17)]);
    /// assert_eq!(turned.turned(Turn::Anticlockwise), rules);
    /// // Windoku's windows lie on themselves under every turn of 9x9.
    /// let windoku = Rules::new(Shape::NINE).with_windows();
    /// assert!(Turn::ALL.iter().all(|&turn| windoku.turned(turn) == windoku));
    /// # Ok::<(), lazydoku::RulesError>(())
    /// ```
    #[must_use]
    pub fn turned(&self, turn: Turn) -> Rules {
        let shape = self.geometry.shape;
        let side = shape.side();
        let shape = if turn.swaps_axes() && self.geometry.has_boxes() {
            let swapped = Shape::try_new(shape.box_cols(), shape.box_rows()).unwrap_or(shape);
            if shape.has_diagonals() { swapped.with_diagonals() } else { swapped }
        } else {
            shape
        };
        let to: Vec<usize> = (0..side * side).map(|cell| turn.cell(side, cell)).collect();
        Rules::sharing(self.geometry.moved(shape, &to))
    }

    /// The turns that lay these rules onto themselves: those under which
    /// [`Rules::turned`] gives equal rules. Every turn for classic rules of
    /// square boxes, windoku and X; the four that keep rows as rows for
    /// rectangular boxes; for most jigsaw and killer rules none. Kept for
    /// the last rules asked about on each thread, as [`Board::canonical`]
    /// asks for each board and a batch of puzzles shares its rules.
    ///
    /// [`Board::canonical`]: crate::Board::canonical
    ///
    /// ```
    /// use lazydoku::{Rules, Shape, Turn};
    ///
    /// assert_eq!(Rules::new(Shape::NINE).with_windows().invariant_turns().count(), 7);
    /// let cage = Rules::new(Shape::NINE).with_cage(3, &[0, 80])?;
    /// assert_eq!(cage.invariant_turns().collect::<Vec<_>>(), [Turn::Half, Turn::MainDiagonal, Turn::AntiDiagonal]);
    /// # Ok::<(), lazydoku::RulesError>(())
    /// ```
    pub fn invariant_turns(&self) -> impl Iterator<Item = Turn> + '_ {
        let kept = remembered_invariant_turns(self).unwrap_or_else(|| {
            self.shape_keeping_turned();
            remembered_invariant_turns(self).unwrap_or(0)
        });
        Turn::ALL.into_iter().enumerate().filter(move |&(i, _)| kept >> i & 1 == 1).map(|(_, turn)| turn)
    }

    /// The turns after which the rules still have their shape: every one
    /// but those that take rows to columns, when the boxes are rectangular.
    pub(crate) fn shape_keeping_turns(&self) -> Vec<Turn> {
        let shape = self.shape();
        let keeps_shape =
            |turn: &Turn| !turn.swaps_axes() || shape.box_rows() == shape.box_cols() || !self.geometry.has_boxes();
        Turn::ALL.into_iter().filter(keeps_shape).collect()
    }

    /// Each turn that keeps the shape, with the rules it makes: these rules
    /// themselves where the turn lays them onto themselves. Each is built
    /// once at most, and the turns that keep the rules are remembered for
    /// [`Rules::invariant_turns`] (only those can: the others change the
    /// shape).
    pub(crate) fn shape_keeping_turned(&self) -> Vec<(Turn, Rules)> {
        let turns = self.shape_keeping_turns();
        if let Some(kept) = remembered_invariant_turns(self) {
            let keeps = |turn: Turn| Turn::ALL.iter().position(|&t| t == turn).is_some_and(|i| kept >> i & 1 == 1);
            return turns
                .into_iter()
                .map(|turn| (turn, if keeps(turn) { self.clone() } else { self.turned(turn) }))
                .collect();
        }
        let turned: Vec<(Turn, Rules)> = turns.into_iter().map(|turn| (turn, self.turned(turn))).collect();
        let kept = Turn::ALL
            .iter()
            .enumerate()
            .filter(|&(_, turn)| turned.iter().any(|(t, rules)| t == turn && rules == self))
            .fold(0u8, |kept, (i, _)| kept | 1 << i);
        INVARIANT_TURNS.with(|last| *last.borrow_mut() = Some((self.clone(), kept)));
        turned
    }

    /// A key that orders rules, equal for equal rules.
    pub(crate) fn order_key(&self) -> impl Ord + std::hash::Hash + use<> {
        self.geometry.order_key()
    }

    /// Whether these are the plain rules of their shape: rows, columns,
    /// boxes, and diagonals only if the shape has them.
    #[must_use]
    pub fn is_classic(&self) -> bool {
        *self.geometry == *self.geometry.shape.geometry()
    }

    pub(crate) fn geometry(&self) -> &SharedGeometry {
        &self.geometry
    }

    pub(crate) fn from_geometry(geometry: SharedGeometry) -> Rules {
        Rules { geometry }
    }

    /// Rules of `units` and `cages`, with the groups of distinct digits,
    /// the non-consecutive rule and the relations as `like` has them.
    fn from_parts(
        shape: Shape,
        units: &[(Region, Vec<usize>)],
        cages: Vec<(usize, Vec<usize>)>,
        like: &Geometry,
    ) -> Rules {
        let side = shape.side();
        let cages = cages.into_iter().map(|(sum, cells)| Cage::new(&cells, sum, side)).collect();
        Rules::sharing(
            Geometry::from_parts(shape, units, cages, like.distinct.clone())
                .non_consecutive(like.non_consecutive)
                .related(like.relations.clone())
                .summed(like.line_rules.clone())
                .allowing(like.allowed.clone()),
        )
    }

    /// Rules of `geometry`: the classic shape's own, shared, when it has
    /// the same units and no cages.
    fn sharing(geometry: Geometry) -> Rules {
        let shape = geometry.shape;
        if geometry == *shape.geometry() {
            return Rules::new(shape);
        }
        Rules { geometry: SharedGeometry::Custom(Arc::new(geometry)) }
    }

    fn with_units(self, more: impl IntoIterator<Item = (Region, Vec<usize>)>) -> Rules {
        let mut units = self.geometry.unit_list();
        let before = units.len();
        units.extend(more);
        if units.len() == before {
            return self;
        }
        Rules::from_parts(self.geometry.shape, &units, self.geometry.cage_list(), &self.geometry)
    }
}

/// What is wrong with rules given as data.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RulesError {
    /// A region map without one label per cell.
    LabelCount {
        /// Labels found.
        found: usize,
        /// The board's cell count; `None` for [`Rules::jigsaw`] when no
        /// supported board (16, 36, 64, 81, ... up to 625 cells) has that
        /// many cells.
        expected: Option<usize>,
    },
    /// A jigsaw region with the wrong number of cells.
    RegionSize {
        /// The region's label.
        label: char,
        /// Cells with that label.
        found: usize,
        /// The board's side, which every region must have.
        expected: usize,
    },
    /// An extra region with the wrong number of cells.
    ExtraRegionSize {
        /// Cells given.
        found: usize,
        /// The board's side, which every region must have.
        expected: usize,
    },
    /// A cell past the last one.
    CellOutOfRange {
        /// The cell given.
        cell: usize,
        /// How many cells the board has.
        cells: usize,
    },
    /// A cell given twice in one region.
    RepeatedCell {
        /// The cell.
        cell: usize,
    },
    /// A cell of a new cage is already in another cage.
    CageOverlap {
        /// The cell.
        cell: usize,
    },
    /// A cage with no cell, or with more cells than there are digits.
    CageSize {
        /// Cells given.
        found: usize,
        /// The board's side: the most cells a cage may have.
        side: usize,
    },
    /// No set of distinct digits of the cage's size adds up to its sum.
    ImpossibleSum {
        /// The sum asked for.
        sum: usize,
        /// The cage's cells.
        cells: usize,
    },
    /// A group of distinct digits ([`Rules::with_distinct`]) of fewer than
    /// two cells or more than there are digits.
    DistinctSize {
        /// Cells given.
        found: usize,
        /// The board's side: the most cells a group may have.
        side: usize,
    },
    /// A relation ([`Rules::with_relation`]) between a cell and itself, or a
    /// thermometer ([`Rules::with_thermometer`]) that holds a cell twice.
    RelatedToItself {
        /// The cell.
        cell: usize,
    },
    /// A relation that no two digits of the board keep, as a sum of 30 on
    /// a 9x9 board.
    ImpossibleRelation {
        /// The relation.
        relation: Relation,
        /// The board's side: its digits are 1 to `side`.
        side: usize,
    },
    /// A thermometer with no cell, or with more cells than there are digits
    /// ([`Rules::with_thermometer`]); a slow thermometer with no cell
    /// ([`Rules::with_slow_thermometer`]).
    ThermometerLength {
        /// Cells given.
        found: usize,
        /// The board's side: the most cells a thermometer may have.
        side: usize,
    },
    /// A sum ([`Rules::with_sum`]), an arrow ([`Rules::with_arrow`]), a
    /// sandwich ([`Rules::with_sandwich`]), a between line
    /// ([`Rules::with_between_line`]), a quadruple
    /// ([`Rules::with_quadruple`]), a renban line ([`Rules::with_renban`]) or
    /// a line of equal sums ([`Rules::with_region_sum_line`],
    /// [`Rules::with_zipper_line`], [`Rules::with_double_arrow`]) or of
    /// classes ([`Rules::with_entropic_line`], [`Rules::with_modular_line`])
    /// that holds a cell twice.
    RepeatedSumCell {
        /// The cell.
        cell: usize,
    },
    /// A sum ([`Rules::with_sum`]) that no digits of the board make on its
    /// cells: no cell, or a total below one or above the side per cell.
    ImpossibleDigitSum {
        /// The total asked for.
        sum: usize,
        /// The sum's cells.
        cells: usize,
        /// The board's side: its digits are 1 to `side`.
        side: usize,
    },
    /// An arrow ([`Rules::with_arrow`]) that cannot hold: an empty circle or
    /// shaft, a circle of more than one cell (a number of several digits)
    /// on a board with digits from 10 up or of more than three cells, or a
    /// shaft whose digits cannot add up to any number the circle holds.
    ImpossibleArrow {
        /// The circle's cells.
        circle: usize,
        /// The shaft's cells.
        shaft: usize,
        /// The board's side: its digits are 1 to `side`.
        side: usize,
    },
    /// A sandwich ([`Rules::with_sandwich`]) whose cells are not those of
    /// one region of the rules.
    SandwichLine {
        /// The cells given.
        cells: Vec<usize>,
    },
    /// A sandwich ([`Rules::with_sandwich`]) whose sum is more than all the
    /// digits between the smallest and the largest add up to.
    ImpossibleSandwich {
        /// The sum asked for.
        sum: usize,
        /// The board's side: its digits are 1 to `side`.
        side: usize,
    },
    /// A between line ([`Rules::with_between_line`]) of fewer than three
    /// cells: two ends and a middle.
    BetweenLineLength {
        /// Cells given.
        found: usize,
        /// The board's side.
        side: usize,
    },
    /// A renban line ([`Rules::with_renban`]) of fewer than two cells, or
    /// of more than the side: no run of distinct digits is that long.
    RenbanLength {
        /// Cells given.
        found: usize,
        /// The board's side.
        side: usize,
    },
    /// A region sum line ([`Rules::with_region_sum_line`]), an entropic or
    /// modular line ([`Rules::with_entropic_line`],
    /// [`Rules::with_modular_line`]) of fewer than two cells, or a zipper
    /// line ([`Rules::with_zipper_line`]) or double
    /// arrow ([`Rules::with_double_arrow`]) of fewer than three.
    ShortLine {
        /// Cells given.
        found: usize,
        /// The fewest the line needs.
        least: usize,
    },
    /// An entropic line ([`Rules::with_entropic_line`]) on a side that does
    /// not split into thirds.
    NoThirds {
        /// The board's side.
        side: usize,
    },
    /// An X-sum ([`Rules::with_x_sum`]) or a skyscraper clue
    /// ([`Rules::with_skyscraper`]) along cells that are not one region's.
    XSumLine {
        /// The cells given.
        cells: Vec<usize>,
    },
    /// An X-sum ([`Rules::with_x_sum`]) that no first digits make: 0, or
    /// more than every digit adds up to.
    ImpossibleXSum {
        /// The sum asked for.
        sum: usize,
        /// The board's side: its digits are 1 to `side`.
        side: usize,
    },
    /// A skyscraper clue ([`Rules::with_skyscraper`]) of 0, or above the
    /// side: no line shows that many.
    ImpossibleSkyscraper {
        /// The clue.
        seen: usize,
        /// The board's side.
        side: usize,
    },
    /// A box indexer ([`Rules::with_indexer`]) on rules without boxes.
    IndexerWithoutBoxes {
        /// The indexer's cell.
        cell: usize,
    },
    /// A quadruple ([`Rules::with_quadruple`]) with no cell, no digit, or
    /// more digits than cells.
    QuadrupleSize {
        /// Cells given.
        cells: usize,
        /// Digits given.
        digits: usize,
    },
    /// A digit outside 1 to the board's side, as
    /// [`Rules::with_allowed_digits`] or [`Rules::with_quadruple`] was given.
    DigitOutOfRange {
        /// The digit.
        digit: u8,
        /// The board's side: its digits are 1 to `side`.
        side: usize,
    },
    /// A cell that [`Rules::with_allowed_digits`] left with no digit it may
    /// hold.
    NoDigitAllowed {
        /// The cell.
        cell: usize,
    },
    /// Cells that must hold distinct digits (in one region, group of
    /// distinct digits or cage) with fewer digits among them than cells,
    /// by the digits the rules allow ([`Rules::with_allowed_digits`]): no
    /// grid can fill them.
    TooFewDigits {
        /// The cells, in order.
        cells: Vec<usize>,
        /// Every digit those cells may hold, fewer than the cells.
        digits: Vec<u8>,
    },
    /// A parity map ([`Rules::with_parity_map`]) that cannot be read.
    ParityMap {
        /// The line, from 1.
        line: usize,
        /// The column, from 1, in characters.
        column: usize,
        /// What is wrong there.
        reason: String,
    },
    /// A killer cage map ([`Rules::with_cage_map`]) that cannot be read.
    CageMap {
        /// The line, from 1.
        line: usize,
        /// The column, from 1, in characters.
        column: usize,
        /// What is wrong there.
        reason: String,
    },
}

/// A count and its noun, singular for one: "1 cell", "3 cells".
pub(crate) struct Counted(pub(crate) usize, pub(crate) &'static str);

impl fmt::Display for Counted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Counted(count, noun) = *self;
        write!(f, "{count} {noun}{}", if count == 1 { "" } else { "s" })
    }
}

impl fmt::Display for RulesError {
    #[expect(clippy::too_many_lines, reason = "one sentence per error, in one place")]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            RulesError::LabelCount { found, expected: Some(cells) } => {
                write!(f, "a region map has {}; it needs one per cell, {cells}", Counted(found, "label"))
            }
            RulesError::LabelCount { found, expected: None } => write!(
                f,
                "a region map has {}; it needs one per cell of a square board of side 2 to 25 (4, 9, 16, ... 625)",
                Counted(found, "label")
            ),
            RulesError::RegionSize { label, found, expected } => {
                write!(f, "jigsaw region '{label}' has {}; every region needs {expected}", Counted(found, "cell"))
            }
            RulesError::ExtraRegionSize { found, expected } => {
                write!(f, "an extra region has {}; every region needs {expected}", Counted(found, "cell"))
            }
            RulesError::CellOutOfRange { cell, cells } => {
                write!(f, "cell {cell} is off the board; use an index below {cells}")
            }
            RulesError::RepeatedCell { cell } => write!(f, "cell {cell} is given twice in one region"),
            RulesError::CageOverlap { cell } => write!(f, "cell {cell} is already in another cage"),
            RulesError::CageSize { found, side } => {
                write!(f, "a cage has {}; it needs 1 to {side}", Counted(found, "cell"))
            }
            RulesError::ImpossibleSum { sum, cells } => {
                write!(f, "no {cells} distinct digits add up to {sum}")
            }
            RulesError::DistinctSize { found, side } => {
                write!(f, "a group of distinct digits has {}; it needs 2 to {side}", Counted(found, "cell"))
            }
            RulesError::RelatedToItself { cell } => {
                write!(f, "cell {cell} is related to itself; a relation or thermometer takes distinct cells")
            }
            RulesError::ImpossibleRelation { relation, side } => {
                write!(f, "no two digits of 1 to {side} keep the relation \"{relation}\"")
            }
            RulesError::ThermometerLength { found, side } => {
                write!(f, "a thermometer has {}; it needs 1 to {side}", Counted(found, "cell"))
            }
            RulesError::RepeatedSumCell { cell } => {
                write!(f, "cell {cell} is given twice in one sum, arrow, sandwich or line")
            }
            RulesError::ImpossibleDigitSum { sum, cells, side } => {
                write!(f, "no {cells} digits of 1 to {side} add up to {sum}; a sum needs 1 to {side} per cell")
            }
            RulesError::ImpossibleArrow { circle, shaft, side } => write!(
                f,
                "an arrow with {circle} cells in its circle and {shaft} on its shaft cannot hold on digits 1 to {side}"
            ),
            RulesError::SandwichLine { ref cells } => write!(
                f,
                "a sandwich runs along one region, and cells {} are not one region's",
                cells.iter().join(", ")
            ),
            RulesError::ImpossibleSandwich { sum, side } => {
                write!(
                    f,
                    "no sandwich adds up to {sum}: the digits between 1 and {side} add up to {} at most",
                    (2..side).sum::<usize>()
                )
            }
            RulesError::BetweenLineLength { found, side } => write!(
                f,
                "a between line has {}; it needs its two ends and at least one cell between them (on digits 1 to {side})",
                Counted(found, "cell")
            ),
            RulesError::RenbanLength { found, side } => write!(
                f,
                "a renban line has {}; it needs 2 to {side}, as its digits are a run of distinct digits from 1 to {side}",
                Counted(found, "cell")
            ),
            RulesError::ShortLine { found, least } => {
                write!(f, "a line of {} is too short for its rule, which needs {least} or more", Counted(found, "cell"))
            }
            RulesError::NoThirds { side } => {
                write!(f, "an entropic line splits the digits into thirds, and the digits 1 to {side} do not split so")
            }
            RulesError::XSumLine { ref cells } => write!(
                f,
                "an X-sum or a skyscraper clue runs along one region from the clue's side, and cells {} are not one region's",
                cells.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")
            ),
            RulesError::ImpossibleSkyscraper { seen, side } => {
                write!(f, "no skyscraper line shows {seen} digits: it shows 1 to {side}")
            }
            RulesError::ImpossibleXSum { sum, side } => write!(
                f,
                "no X-sum adds up to {sum}: its first digits add up to 1 to {} on digits 1 to {side}",
                side * (side + 1) / 2
            ),
            RulesError::IndexerWithoutBoxes { cell } => {
                write!(f, "cell {cell} is a box indexer, and these rules have no boxes (a jigsaw map, or none)")
            }
            RulesError::QuadrupleSize { cells, digits } => write!(
                f,
                "a quadruple has {cells} cells and {digits} digits; it needs a cell and a digit, and no more digits than cells"
            ),
            RulesError::DigitOutOfRange { digit, side } => {
                write!(f, "digit {digit} is off the board; use 1 to {side}")
            }
            RulesError::NoDigitAllowed { cell } => {
                write!(f, "cell {cell} is left with no digit it may hold; its allowed digits must share one")
            }
            RulesError::TooFewDigits { ref cells, ref digits } => write!(
                f,
                "cells {} must hold distinct digits, and may hold only {}: {} cells for {} digits",
                cells.iter().join(", "),
                digits.iter().join(", "),
                cells.len(),
                digits.len()
            ),
            RulesError::CageMap { line, column, ref reason } | RulesError::ParityMap { line, column, ref reason } => {
                write!(f, "line {line}, column {column}: {reason}")
            }
        }
    }
}

impl std::error::Error for RulesError {}

/// Cells of `group` (which must hold distinct digits, and holds at most
/// 32 cells) that `allowed` leaves fewer digits than cells, in order;
/// `None` when each cell can have a digit of its own.
///
/// Only cells that may not hold every digit (of `full`) can be short of
/// digits: given a digit each, the others take what is left. Each such cell
/// in turn is matched to a digit, moving cells matched before to other
/// digits where that makes room (Kuhn's augmenting paths). A cell that
/// finds none, with the cells its search passed through, is such a set:
/// between them they may hold only the digits of the others, one fewer
/// than their number.
fn crowded_cells(group: &[usize], allowed: &[u32], full: u32) -> Option<Vec<usize>> {
    /// Finds restricted cell `k` a digit, moving others along; marks the
    /// cells (bits of `passed`) and digits (of `seen`) it passes through.
    fn place(k: usize, masks: &[u32], holder: &mut [u8; 32], seen: &mut u32, passed: &mut u32) -> bool {
        *passed |= 1 << k;
        let mut options = masks[k] & !*seen;
        while options != 0 {
            let digit = options.trailing_zeros() as usize;
            options &= options - 1;
            if *seen & 1 << digit != 0 {
                continue;
            }
            *seen |= 1 << digit;
            if holder[digit] == u8::MAX || place(usize::from(holder[digit]), masks, holder, seen, passed) {
                #[expect(clippy::cast_possible_truncation, reason = "a group has at most 32 cells")]
                {
                    holder[digit] = k as u8;
                }
                return true;
            }
        }
        false
    }
    let restricted: Vec<usize> = group.iter().copied().filter(|&cell| allowed[cell] & full != full).collect();
    let masks: Vec<u32> = restricted.iter().map(|&cell| allowed[cell]).collect();
    // Cells that may each hold as many digits as there are restricted
    // cells always fit: the common case, with no search.
    if masks.iter().all(|mask| mask.count_ones() as usize >= masks.len()) {
        return None;
    }
    let mut holder = [u8::MAX; 32];
    for k in 0..masks.len() {
        let (mut seen, mut passed) = (0, 0u32);
        if !place(k, &masks, &mut holder, &mut seen, &mut passed) {
            let mut cells: Vec<usize> =
                restricted.iter().enumerate().filter(|&(i, _)| passed >> i & 1 != 0).map(|(_, &c)| c).collect();
            cells.sort_unstable();
            return Some(cells);
        }
    }
    None
}
