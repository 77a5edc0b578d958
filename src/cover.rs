//! [`ExactCover`]: Knuth's Algorithm X as a lazy search.
//!
//! An exact cover problem has columns and rows, each row a set of columns.
//! A solution is a set of rows that covers every primary column exactly
//! once and every secondary column at most once. Pentomino tilings, N-queens
//! and Sudoku are all exact covers.
//!
//! The search is [`search::dfs`](crate::search::dfs) over partial solutions: a node holds the
//! rows chosen so far, the rows still compatible with them and the primary
//! columns still uncovered, as bitsets. A node's children cover the
//! uncovered primary column with the fewest compatible rows, one child per
//! such row (Knuth's "S heuristic"), built one at a time.

use std::fmt;
use std::iter::FusedIterator;
use std::sync::OnceLock;

use itertools::{Itertools, iproduct};
use smallvec::SmallVec;

use crate::search::{Dfs, Search, Stack, Successors};

/// An exact cover problem: columns, primary and secondary, and rows that
/// each cover some of them.
///
/// # Example
///
/// ```
/// use lazydoku::ExactCover;
///
/// // Knuth's example: one exact cover, rows 0, 3 and 4.
/// let mut problem = ExactCover::new(7);
/// for row in [&[2, 4, 5][..], &[0, 3, 6], &[1, 2, 5], &[0, 3], &[1, 6], &[3, 4, 6]] {
///     problem.add_row(row);
/// }
/// assert_eq!(problem.solutions().collect::<Vec<_>>(), [vec![0, 3, 4]]);
///
/// // A secondary column may stay uncovered, but is never covered twice.
/// let mut loose = ExactCover::with_secondary(1, 1);
/// loose.add_row(&[0]);
/// loose.add_row(&[0, 1]);
/// assert_eq!(loose.count_solutions(10), 2);
/// ```
#[derive(Clone, Default)]
pub struct ExactCover {
    primary: usize,
    secondary: usize,
    /// Each row's columns, sorted, without repeats.
    rows: Vec<Vec<usize>>,
    /// The problem as the search reads it, built on first use and dropped
    /// when a row is added.
    compiled: OnceLock<Compiled>,
}

/// An [`ExactCover`] laid out for the search: for each column, the bitset
/// of the rows that cover it, as the run of words from the first with a bit
/// set to the last. Most columns are covered by few rows, so the column
/// choice and the removal of conflicting rows touch only those words, in
/// loops the compiler turns into vector instructions.
#[derive(Clone, Debug)]
struct Compiled {
    windows: Vec<Window>,
}

/// A column's rows: `words[i]` is word `first + i` of the bitset of rows.
#[derive(Clone, Debug, Default)]
struct Window {
    first: usize,
    words: Vec<u64>,
}

impl ExactCover {
    /// A problem with `primary` columns, numbered from 0, each to be covered
    /// exactly once, and no rows yet.
    #[must_use]
    pub fn new(primary: usize) -> ExactCover {
        ExactCover::with_secondary(primary, 0)
    }

    /// A problem with `primary` columns to cover exactly once (numbered from
    /// 0) and then `secondary` columns to cover at most once (numbered from
    /// `primary`).
    #[must_use]
    pub fn with_secondary(primary: usize, secondary: usize) -> ExactCover {
        ExactCover { primary, secondary, rows: Vec::new(), compiled: OnceLock::new() }
    }

    /// Adds a row that covers `columns` (in any order; repeats count once)
    /// and returns its number: rows are numbered from 0 in the order added.
    ///
    /// # Panics
    ///
    /// When a column is not one of the problem's. For columns that come
    /// from data, use [`ExactCover::try_add_row`].
    pub fn add_row(&mut self, columns: &[usize]) -> usize {
        match self.try_add_row(columns) {
            Ok(number) => number,
            Err(e) => panic!("{e}"),
        }
    }

    /// [`ExactCover::add_row`], or an error that names the first column out
    /// of range; the problem is unchanged then.
    ///
    /// # Errors
    ///
    /// [`ColumnOutOfRange`] when a column is not one of the problem's.
    ///
    /// ```
    /// use lazydoku::ExactCover;
    ///
    /// let mut problem = ExactCover::new(3);
    /// assert_eq!(problem.try_add_row(&[0, 2]), Ok(0));
    /// let err = problem.try_add_row(&[1, 3]).unwrap_err();
    /// assert_eq!(err.to_string(), "column 3 is out of range: the problem has 3 columns, numbered from 0");
    /// assert_eq!(problem.rows(), 1);
    /// ```
    pub fn try_add_row(&mut self, columns: &[usize]) -> Result<usize, ColumnOutOfRange> {
        let total = self.primary + self.secondary;
        let mut row = columns.to_vec();
        row.sort_unstable();
        row.dedup();
        if let Some(&column) = row.iter().find(|&&c| c >= total) {
            return Err(ColumnOutOfRange { column, columns: total });
        }
        let number = self.rows.len();
        self.rows.push(row);
        self.compiled.take();
        Ok(number)
    }

    /// The number of rows.
    #[must_use]
    pub fn rows(&self) -> usize {
        self.rows.len()
    }

    /// The columns row `row` covers, in increasing order; empty for a row
    /// number the problem does not have.
    #[must_use]
    pub fn row(&self, row: usize) -> &[usize] {
        self.rows.get(row).map_or(&[], Vec::as_slice)
    }

    /// The number of primary columns, numbered from 0.
    #[must_use]
    pub fn primary_columns(&self) -> usize {
        self.primary
    }

    /// The number of secondary columns, numbered after the primary ones.
    #[must_use]
    pub fn secondary_columns(&self) -> usize {
        self.secondary
    }

    /// N-queens: a row per square (rank-major: row `r * n + c` is the queen
    /// on rank `r`, file `c`); ranks and files are primary columns, the
    /// diagonals secondary ones, which a solution need not fill.
    ///
    /// ```
    /// use lazydoku::ExactCover;
    ///
    /// assert_eq!(ExactCover::queens(8).count_solutions(usize::MAX), 92);
    /// assert_eq!(ExactCover::queens(6).solutions().next(), Some(vec![1, 9, 17, 18, 26, 34]));
    /// ```
    #[must_use]
    pub fn queens(n: usize) -> ExactCover {
        let diagonals = (2 * n).saturating_sub(1);
        let mut problem = ExactCover::with_secondary(2 * n, 2 * diagonals);
        for r in 0..n {
            for c in 0..n {
                problem.add_row(&[r, n + c, 2 * n + r + c, 2 * n + diagonals + (n - 1 + r - c)]);
            }
        }
        problem
    }

    /// Tilings of a `width` x `height` box by the twelve pentominoes, each
    /// used once: a primary column per piece (0 to 11, in the order F, I,
    /// L, N, P, T, U, V, W, X, Y, Z) and then per cell (row-major), and a
    /// row per placement of a piece in one of its orientations.
    ///
    /// ```
    /// use lazydoku::ExactCover;
    ///
    /// // 8 tilings of the 3x20 box: 2 up to the box's symmetries.
    /// assert_eq!(ExactCover::pentominoes(20, 3).count_solutions(usize::MAX), 8);
    /// ```
    #[must_use]
    pub fn pentominoes(width: usize, height: usize) -> ExactCover {
        /// The twelve pieces, as cells (column, row).
        const PIECES: [[(i64, i64); 5]; 12] = [
            [(1, 0), (2, 0), (0, 1), (1, 1), (1, 2)], // F
            [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)], // I
            [(0, 0), (0, 1), (0, 2), (0, 3), (1, 3)], // L
            [(1, 0), (1, 1), (0, 2), (1, 2), (0, 3)], // N
            [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)], // P
            [(0, 0), (1, 0), (2, 0), (1, 1), (1, 2)], // T
            [(0, 0), (2, 0), (0, 1), (1, 1), (2, 1)], // U
            [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2)], // V
            [(0, 0), (0, 1), (1, 1), (1, 2), (2, 2)], // W
            [(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)], // X
            [(1, 0), (0, 1), (1, 1), (1, 2), (1, 3)], // Y
            [(0, 0), (1, 0), (1, 1), (1, 2), (2, 2)], // Z
        ];
        let mut problem = ExactCover::new(12 + width * height);
        for (piece, cells) in PIECES.iter().enumerate() {
            // The eight turns and mirror images, shifted to the origin, without repeats.
            let orientations = (0..8)
                .map(|turn| {
                    let turned: Vec<(i64, i64)> = cells
                        .iter()
                        .map(|&(x, y)| {
                            let x = if turn & 4 == 0 { x } else { -x };
                            match turn & 3 {
                                0 => (x, y),
                                1 => (-y, x),
                                2 => (-x, -y),
                                _ => (y, -x),
                            }
                        })
                        .collect();
                    let left = turned.iter().map(|c| c.0).min().unwrap_or(0);
                    let top = turned.iter().map(|c| c.1).min().unwrap_or(0);
                    turned.iter().map(|&(x, y)| (x - left, y - top)).sorted_unstable().collect::<Vec<_>>()
                })
                .unique();
            for (shape, dy, dx) in iproduct!(orientations, 0..height, 0..width) {
                let placed: Option<Vec<usize>> = shape
                    .iter()
                    .map(|&(x, y)| {
                        let (x, y) = (usize::try_from(x).ok()? + dx, usize::try_from(y).ok()? + dy);
                        (x < width && y < height).then_some(12 + y * width + x)
                    })
                    .collect();
                if let Some(mut columns) = placed {
                    columns.push(piece);
                    problem.add_row(&columns);
                }
            }
        }
        problem
    }

    /// Every solution, lazily, each as its rows in increasing order.
    pub fn solutions(&self) -> CoverSolutions<'_> {
        CoverSolutions { search: Search::new(self.root(), Expand::new(self), Stack::new()) }
    }

    /// The number of solutions, counting no further than `limit`.
    #[must_use]
    pub fn count_solutions(&self, limit: usize) -> usize {
        Search::new(self.root(), Expand::new(self), Stack::new()).counter(Partial::is_solution).up_to(limit)
    }

    /// [`ExactCover::count_solutions`] on every core
    /// ([`search::par_dfs`](crate::search::par_dfs)); it stops once `limit` is reached.
    #[cfg(feature = "parallel")]
    #[must_use]
    pub fn par_count_solutions(&self, limit: usize) -> usize {
        crate::search::par_dfs(self.root(), |p: &Partial| Expand::new(self).successors(p))
            .counter(Partial::is_solution)
            .up_to(limit)
    }

    fn compiled(&self) -> &Compiled {
        self.compiled.get_or_init(|| {
            let mut windows = vec![Window::default(); self.primary + self.secondary];
            for (number, row) in self.rows.iter().enumerate() {
                let (word, bit) = (number / 64, 1u64 << (number % 64));
                for &column in row {
                    let window = &mut windows[column];
                    if window.words.is_empty() {
                        window.first = word;
                    }
                    window.words.resize(word - window.first + 1, 0);
                    window.words[word - window.first] |= bit;
                }
            }
            Compiled { windows }
        })
    }

    fn root(&self) -> Partial {
        let mut words: Words = SmallVec::new();
        words.extend(all_set(self.rows.len()));
        words.extend(all_set(self.primary));
        Partial { words, row_words: self.rows.len().div_ceil(64), column_words: self.primary.div_ceil(64) }
    }
}

impl Compiled {
    /// The uncovered primary column with the fewest compatible rows, and
    /// their number: each count stops once it cannot be the fewest, and the
    /// search once a column has none. `None` once every column is covered.
    #[expect(clippy::inline_always, reason = "inlined into `cpu::with_popcnt` to be compiled for popcnt")]
    #[inline(always)]
    fn fewest_options(&self, partial: &Partial) -> Option<(u32, usize)> {
        let mut best: Option<(u32, usize)> = None;
        for (word, &bits) in partial.uncovered().iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let column = word * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let fewest = best.map_or(u32::MAX, |(fewest, _)| fewest);
                let options = self.options(partial, column, fewest);
                if options < fewest {
                    best = Some((options, column));
                }
                if options == 0 {
                    return best;
                }
            }
        }
        best
    }

    /// How many rows compatible with `partial` cover `column`, counting no
    /// further than about `enough`.
    #[expect(clippy::inline_always, reason = "inlined into `cpu::with_popcnt` to be compiled for popcnt")]
    #[inline(always)]
    fn options(&self, partial: &Partial, column: usize, enough: u32) -> u32 {
        let window = &self.windows[column];
        let compatible = &partial.compatible()[window.first..window.first + window.words.len()];
        let mut count = 0;
        // Sixteen words at a time, which the compiler counts with vector
        // instructions, then a look at whether the count can still win.
        for (rows, ok) in window.words.chunks(16).zip(compatible.chunks(16)) {
            count += rows.iter().zip(ok).map(|(&r, &o)| (r & o).count_ones()).sum::<u32>();
            if count >= enough {
                break;
            }
        }
        count
    }
}

/// A row named a column the problem does not have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColumnOutOfRange {
    /// The column named.
    pub column: usize,
    /// How many columns the problem has.
    pub columns: usize,
}

impl fmt::Display for ColumnOutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {} is out of range: the problem has {} columns, numbered from 0", self.column, self.columns)
    }
}

impl std::error::Error for ColumnOutOfRange {}

impl fmt::Debug for ExactCover {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExactCover")
            .field("primary", &self.primary)
            .field("secondary", &self.secondary)
            .field("rows", &self.rows.len())
            .finish_non_exhaustive()
    }
}

/// A node's words: inline up to this many, which holds the 6x10 pentomino
/// problem (33 words of rows, 2 of columns, 12 rows chosen) with no
/// allocation per node.
type Words = SmallVec<[u64; 48]>;

/// A node of the search, in one buffer: the bitset of rows still compatible
/// with those chosen, the bitset of primary columns still uncovered, and
/// the rows chosen so far, in the order chosen.
#[derive(Clone, Debug)]
struct Partial {
    words: Words,
    row_words: usize,
    column_words: usize,
}

/// A bitset with bits `0..bits` set.
fn all_set(bits: usize) -> impl Iterator<Item = u64> {
    let words = bits.div_ceil(64);
    (0..words).map(move |w| if w + 1 == words && bits % 64 != 0 { (1u64 << (bits % 64)) - 1 } else { u64::MAX })
}

impl Partial {
    fn compatible(&self) -> &[u64] {
        &self.words[..self.row_words]
    }

    fn uncovered(&self) -> &[u64] {
        &self.words[self.row_words..self.row_words + self.column_words]
    }

    /// The rows chosen so far, in the order chosen.
    #[expect(clippy::cast_possible_truncation, reason = "row numbers were stored from `usize`, so they fit back")]
    fn chosen(&self) -> impl Iterator<Item = usize> + '_ {
        self.words[self.row_words + self.column_words..].iter().map(|&row| row as usize)
    }

    /// Whether every primary column is covered.
    fn is_solution(&self) -> bool {
        self.uncovered().iter().all(|&w| w == 0)
    }

    /// Chooses `row`: every row that shares a column with it is no longer
    /// compatible, and its primary columns are covered.
    fn choose(&mut self, problem: &ExactCover, compiled: &Compiled, row: usize) {
        let (compatible, rest) = self.words.split_at_mut(self.row_words);
        for &column in &problem.rows[row] {
            let window = &compiled.windows[column];
            for (ok, &rows) in compatible[window.first..].iter_mut().zip(&window.words) {
                *ok &= !rows;
            }
            if column < problem.primary {
                rest[column / 64] &= !(1u64 << (column % 64));
            }
        }
        self.words.push(row as u64);
    }
}

/// The children of a partial solution, as a type the search can name.
#[derive(Clone, Copy, Debug)]
struct Expand<'a> {
    problem: &'a ExactCover,
    compiled: &'a Compiled,
}

impl<'a> Expand<'a> {
    fn new(problem: &'a ExactCover) -> Self {
        Expand { problem, compiled: problem.compiled() }
    }
}

impl<'a> Successors<Partial, CoverChildren<'a>> for Expand<'a> {
    fn successors(&mut self, partial: &Partial) -> CoverChildren<'a> {
        let compiled = self.compiled;
        let best = crate::cpu::with_popcnt(
            #[inline(always)]
            || compiled.fewest_options(partial),
        );
        let parent = match best {
            Some((1.., _)) => Some(partial.clone()),
            _ => None,
        };
        let (left, column) = best.unwrap_or((0, 0));
        CoverChildren { expand: *self, parent, column, next: 0, bits: 0, left }
    }
}

/// The children of one partial solution, one per compatible row that covers
/// the chosen column, built one at a time; the last one takes the parent
/// rather than a copy.
#[derive(Clone, Debug)]
struct CoverChildren<'a> {
    expand: Expand<'a>,
    parent: Option<Partial>,
    /// The column the children cover.
    column: usize,
    /// The next word of the column's window to look at.
    next: usize,
    /// Rows of the word before `next` not tried yet.
    bits: u64,
    /// Children not built yet.
    left: u32,
}

impl Iterator for CoverChildren<'_> {
    type Item = Partial;

    fn next(&mut self) -> Option<Partial> {
        let parent = self.parent.as_ref()?;
        let Expand { problem, compiled } = self.expand;
        let window = &compiled.windows[self.column];
        while self.bits == 0 {
            let rows = window.words.get(self.next)?;
            self.bits = rows & parent.compatible()[window.first + self.next];
            self.next += 1;
        }
        let row = (window.first + self.next - 1) * 64 + self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        self.left -= 1;
        let mut child = if self.left == 0 { self.parent.take()? } else { parent.clone() };
        child.choose(problem, compiled, row);
        Some(child)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.left as usize;
        (left, Some(left))
    }
}

/// Every solution of an [`ExactCover`], lazily, each as its rows in
/// increasing order. Built by [`ExactCover::solutions`].
#[derive(Clone)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct CoverSolutions<'a> {
    search: Dfs<Partial, CoverChildren<'a>, Expand<'a>>,
}

impl Iterator for CoverSolutions<'_> {
    type Item = Vec<usize>;

    fn next(&mut self) -> Option<Vec<usize>> {
        loop {
            let partial = self.search.next()?;
            if partial.is_solution() {
                let mut rows: Vec<usize> = partial.chosen().collect();
                rows.sort_unstable();
                return Some(rows);
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, self.search.size_hint().1)
    }
}

impl FusedIterator for CoverSolutions<'_> {}

impl fmt::Debug for CoverSolutions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CoverSolutions").finish_non_exhaustive()
    }
}
