//! Solving the way a person does: [`Board::explain`] is a lazy iterator of
//! logical [`Step`]s, each naming its [`Technique`], and [`Board::rate`]
//! sums them into a [`Rating`].
//!
//! ```
//! use lazydoku::Board;
//!
//! let board: Board = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..".parse()?;
//! let hint = board.hint().expect("an easy puzzle has a first step");
//! assert_eq!(hint.to_string(), "Naked single: r5c6 has one candidate left, 4.");
//!
//! let mut steps = board.explain();
//! let placed = steps.by_ref().filter(|step| step.placements().next().is_some()).count();
//! assert_eq!(placed, board.empty_cells()); // solved by logic alone
//! assert_eq!(steps.ending(), Some(lazydoku::explain::Ending::Solved));
//! # Ok::<(), lazydoku::ParseError>(())
//! ```
//!
//! Each step is a deduction from the candidates that the puzzle's givens
//! and the steps before it leave, so following the steps by hand gives the
//! same eliminations. Techniques built on units work over the rules'
//! regions: jigsaw regions, diagonals, windows and any region a user adds.
//! Fish work over rows and columns. On killer rules, each cage's digits are
//! kept to the combinations that make its sum, and so are the sums the
//! cages imply through a unit (innies and outies: on 9x9, the rule of 45).
//! Under the non-consecutive rule, a placed digit takes the digits next to
//! it from the cells beside it, and a cell whose candidates are all one
//! digit or next to it takes that digit from its neighbours.
//!
//! Two techniques, unique rectangles and BUG+1, hold only for a puzzle with
//! one solution. They are used only when the puzzle has one solution (this
//! is checked by counting, once, when one of them is first tried) and never
//! on killer rules, where the exchange of digits they rest on can change a
//! cage's sum.
//!
//! When no technique applies, the iterator ends and [`Explain::ending`]
//! says why: it never guesses.

mod cages;
mod chains;
mod fish;
mod grid;
mod intersections;
mod neighbours;
mod rating;
mod relations;
mod singles;
mod step;
mod subsets;
mod sums;
mod uniqueness;
mod wings;

use std::iter::FusedIterator;

use crate::board::Board;
use grid::Grid;

pub use rating::{Level, Rating, UnknownLevel};
pub use rating::{MOST_GUESSES, guesses};
pub use step::{Step, Technique};

/// Why [`Explain`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Ending {
    /// Every cell is filled.
    Solved,
    /// No technique this crate knows applies: the rest needs a guess, or a
    /// technique beyond [`Technique::ALL`].
    Stuck {
        /// The cells still empty.
        empty: usize,
    },
    /// The candidates contradict each other: an empty cell has none left,
    /// or a region has no place left for a digit. The puzzle has no
    /// solution.
    Contradiction,
}

/// The logical steps that solve a board, one at a time: made by
/// [`Board::explain`].
///
/// Each call to `next` looks for the easiest technique that applies (in the
/// order of [`Technique::ALL`]) and applies it. The iterator is fused: once
/// it ends, [`Explain::ending`] says why.
#[must_use = "iterators are lazy and do nothing unless consumed"]
#[derive(Clone, Debug)]
pub struct Explain {
    grid: Grid,
    /// For each technique that looks at one digit at a time, the digits
    /// whose places changed since it last looked at every digit and found
    /// nothing: the others would give nothing again.
    unsettled: [u32; Technique::ALL.len()],
    /// Whether the puzzle has one solution: counted when first needed.
    unique: Option<bool>,
    ending: Option<Ending>,
}

impl Explain {
    pub(crate) fn new(board: &Board) -> Explain {
        Explain { grid: Grid::new(board), unsettled: [u32::MAX; Technique::ALL.len()], unique: None, ending: None }
    }

    /// Why the steps ended, or `None` while they have not.
    #[must_use]
    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    /// The board as the steps so far leave it: givens and placed digits.
    #[must_use]
    pub fn board(&self) -> Board {
        self.grid.board()
    }

    /// The candidates of `cell` as the steps so far leave them (bit `d - 1`
    /// for digit `d`); 0 for a filled cell.
    #[must_use]
    pub fn candidates(&self, cell: usize) -> crate::Candidates {
        crate::Candidates::from_bits(self.grid.candidates.get(cell).copied().unwrap_or(0))
    }

    fn is_unique(&mut self) -> bool {
        *self.unique.get_or_insert_with(|| self.grid.puzzle().count_solutions(2) == 1)
    }

    fn find(&mut self) -> Option<Step> {
        for (k, technique) in Technique::ALL.into_iter().enumerate() {
            let needs_uniqueness = technique.needs_uniqueness();
            if needs_uniqueness && (self.grid.has_more_than_regions() || self.unique == Some(false)) {
                continue;
            }
            let per_digit = technique.is_per_digit();
            let digits = self.unsettled[k];
            let found = if per_digit && digits == 0 { None } else { technique.find(&self.grid, digits) };
            debug_assert!(
                !per_digit || found == technique.find(&self.grid, u32::MAX),
                "{technique}: digits whose places did not change give no step"
            );
            if found.is_none() && per_digit {
                self.unsettled[k] = 0;
            }
            // The count that tells whether the puzzle is unique costs more
            // than looking for the pattern: it is made only for a step found.
            if let Some(step) = found {
                if needs_uniqueness && !self.is_unique() {
                    continue;
                }
                return Some(step);
            }
        }
        None
    }
}

impl Iterator for Explain {
    type Item = Step;

    fn next(&mut self) -> Option<Step> {
        if self.ending.is_some() {
            return None;
        }
        if self.grid.empty() == 0 {
            self.ending = Some(Ending::Solved);
            return None;
        }
        if self.grid.is_contradictory() {
            self.ending = Some(Ending::Contradiction);
            return None;
        }
        let step = self.find();
        if let Some(step) = &step {
            let changed = self.grid.apply(step);
            for digits in &mut self.unsettled {
                *digits |= changed;
            }
        } else {
            self.ending = Some(Ending::Stuck { empty: self.grid.empty() });
        }
        step
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        // Every step places a digit or removes a candidate.
        if self.ending.is_some() {
            (0, Some(0))
        } else {
            (0, Some(self.grid.candidates.iter().map(|c| c.count_ones() as usize).sum()))
        }
    }
}

impl FusedIterator for Explain {}

impl Board {
    /// The logical steps that solve this board, easiest technique first at
    /// each step, lazily: see [`explain`](crate::explain).
    ///
    /// ```
    /// use lazydoku::Board;
    ///
    /// // One of the hardest puzzles known: logic alone does not go far.
    /// let board: Board = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3".parse()?;
    /// let solution = board.solve().expect("one solution");
    /// let mut steps = board.explain();
    /// for step in steps.by_ref() {
    ///     assert!(step.placements().all(|(cell, digit)| solution.get(cell) == Some(digit)));
    /// }
    /// assert!(matches!(steps.ending(), Some(lazydoku::explain::Ending::Stuck { .. })));
    /// # Ok::<(), lazydoku::ParseError>(())
    /// ```
    pub fn explain(&self) -> Explain {
        Explain::new(self)
    }

    /// The first step of [`Board::explain`]: the easiest deduction there is,
    /// or `None` when the board is full or no technique applies.
    #[must_use]
    pub fn hint(&self) -> Option<Step> {
        self.explain().next()
    }

    /// How hard this puzzle is, by search effort and by technique: see
    /// [`Rating`].
    ///
    /// ```
    /// use lazydoku::explain::{Level, Technique};
    /// use lazydoku::Board;
    ///
    /// let board: Board = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..".parse()?;
    /// let rating = board.rate();
    /// assert_eq!(rating.guesses(), 0);
    /// assert_eq!(rating.solutions(), 1);
    /// assert_eq!(rating.level(), Level::Easy);
    /// assert_eq!(rating.hardest(), Some(Technique::NakedSingle));
    /// # Ok::<(), lazydoku::ParseError>(())
    /// ```
    #[must_use]
    pub fn rate(&self) -> Rating {
        Rating::of(self)
    }
}
