//! [`Step`]: one deduction, and the [`Technique`] it uses.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use smallvec::{SmallVec, smallvec};

use super::grid::{CellName, Grid, UnitName, symbol};
use super::rating::Level;
use super::{cages, chains, fish, intersections, neighbours, relations, singles, subsets, sums, uniqueness, wings};

/// A way of deducing a digit or ruling candidates out, easiest first in
/// [`Technique::ALL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Technique {
    /// The last empty cell of a region takes the digit the region lacks.
    FullHouse,
    /// A cell with one candidate left.
    NakedSingle,
    /// A digit with one place left in a region.
    HiddenSingle,
    /// A digit confined, within a box or other region, to one row or
    /// column (or any region the two share) leaves the rest of that line.
    Pointing,
    /// A digit confined, within a row or column, to one box (or other
    /// region) leaves the rest of that box.
    Claiming,
    /// A killer cage's cells keep only the digits of the combinations that
    /// make its sum.
    CageCombination,
    /// Killer cages imply sums through a unit, whose digits add up to a
    /// known total (45 on 9x9): the unit's cells outside the cages wholly
    /// inside it (innies), or the cells outside it of the cages that cover
    /// it (outies), keep only the digits of the combinations that make
    /// their sum.
    InniesAndOuties,
    /// Under the non-consecutive rule, a cell whose candidates are all a
    /// digit or next to it rules that digit out of the cells beside it.
    NonConsecutive,
    /// Two related cells (a thermometer, an inequality sign, a Kropki dot,
    /// an XV mark): a candidate of one that keeps the relation with no
    /// digit the other may hold goes.
    Relation,
    /// A sum whose digits may repeat (a little killer, an arrow): a
    /// candidate that the other cells' least and greatest cannot make up
    /// the sum with goes.
    SumBounds,
    /// Any other rule along a line (a sandwich, a between line, a
    /// quadruple, a renban line, a region sum or zipper line, a double
    /// arrow, an entropic or modular line): a candidate that no way of
    /// keeping the rule with its cells' candidates leaves goes.
    LineRules,
    /// Two cells of a region with the same two candidates.
    NakedPair,
    /// Two digits with the same two places in a region.
    HiddenPair,
    /// Three cells of a region with three candidates between them.
    NakedTriple,
    /// Three digits with three places between them in a region.
    HiddenTriple,
    /// Four cells of a region with four candidates between them.
    NakedQuad,
    /// Four digits with four places between them in a region.
    HiddenQuad,
    /// A digit whose places in two rows lie in the same two columns (or
    /// the other way round).
    XWing,
    /// The fish of three rows and three columns.
    Swordfish,
    /// The fish of four rows and four columns.
    Jellyfish,
    /// A two-candidate pivot and two pincers that see it.
    XyWing,
    /// A three-candidate pivot and two two-candidate pincers.
    XyzWing,
    /// Two cells with the same two candidates joined by a strong link.
    WWing,
    /// The cells of a digit's strong links coloured in two alternating
    /// colours.
    SimpleColouring,
    /// A chain of one digit, alternating strong and weak links.
    XChain,
    /// Unique rectangle, type 1: three corners of a rectangle hold only the
    /// same two candidates, which the fourth then cannot take.
    UniqueRectangle,
    /// Bivalue universal grave plus one: every empty cell has two
    /// candidates but one, which must take the digit that breaks the grave.
    BugPlusOne,
}

impl Technique {
    /// Every technique, in the order they are tried.
    pub const ALL: [Technique; 27] = [
        Technique::FullHouse,
        Technique::NakedSingle,
        Technique::HiddenSingle,
        Technique::Pointing,
        Technique::Claiming,
        Technique::CageCombination,
        Technique::InniesAndOuties,
        Technique::NonConsecutive,
        Technique::Relation,
        Technique::SumBounds,
        Technique::LineRules,
        Technique::NakedPair,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::HiddenTriple,
        Technique::XWing,
        Technique::NakedQuad,
        Technique::Swordfish,
        Technique::HiddenQuad,
        Technique::Jellyfish,
        Technique::XyWing,
        Technique::XyzWing,
        Technique::WWing,
        Technique::UniqueRectangle,
        Technique::BugPlusOne,
        Technique::SimpleColouring,
        Technique::XChain,
    ];

    /// The technique's name, as steps print it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Technique::FullHouse => "Full house",
            Technique::NakedSingle => "Naked single",
            Technique::HiddenSingle => "Hidden single",
            Technique::Pointing => "Pointing",
            Technique::Claiming => "Claiming",
            Technique::CageCombination => "Cage combination",
            Technique::InniesAndOuties => "Innies and outies",
            Technique::NonConsecutive => "Non-consecutive neighbours",
            Technique::Relation => "Related cells",
            Technique::SumBounds => "Sum bounds",
            Technique::LineRules => "Line rules",
            Technique::NakedPair => "Naked pair",
            Technique::HiddenPair => "Hidden pair",
            Technique::NakedTriple => "Naked triple",
            Technique::HiddenTriple => "Hidden triple",
            Technique::NakedQuad => "Naked quad",
            Technique::HiddenQuad => "Hidden quad",
            Technique::XWing => "X-wing",
            Technique::Swordfish => "Swordfish",
            Technique::Jellyfish => "Jellyfish",
            Technique::XyWing => "XY-wing",
            Technique::XyzWing => "XYZ-wing",
            Technique::WWing => "W-wing",
            Technique::SimpleColouring => "Simple colouring",
            Technique::XChain => "X-chain",
            Technique::UniqueRectangle => "Unique rectangle",
            Technique::BugPlusOne => "BUG+1",
        }
    }

    /// What one use of the technique adds to a puzzle's score: the scale
    /// of `HoDoKu`'s default scores, where a hidden single is 14 and an
    /// X-wing 140.
    #[must_use]
    pub const fn score(self) -> u32 {
        match self {
            Technique::FullHouse | Technique::NakedSingle => 4,
            Technique::HiddenSingle => 14,
            Technique::CageCombination | Technique::Relation | Technique::SumBounds | Technique::LineRules => 30,
            Technique::InniesAndOuties => 40,
            Technique::Pointing | Technique::Claiming | Technique::NonConsecutive => 50,
            Technique::NakedPair => 60,
            Technique::HiddenPair => 70,
            Technique::NakedTriple => 80,
            Technique::HiddenTriple | Technique::UniqueRectangle | Technique::BugPlusOne => 100,
            Technique::NakedQuad => 120,
            Technique::XWing => 140,
            Technique::HiddenQuad | Technique::Swordfish | Technique::WWing | Technique::SimpleColouring => 150,
            Technique::Jellyfish | Technique::XyWing => 160,
            Technique::XyzWing => 180,
            Technique::XChain => 260,
        }
    }

    /// The level of a puzzle whose hardest step uses this technique.
    #[must_use]
    pub const fn level(self) -> Level {
        match self {
            Technique::FullHouse | Technique::NakedSingle | Technique::HiddenSingle => Level::Easy,
            Technique::Pointing
            | Technique::Claiming
            | Technique::CageCombination
            | Technique::InniesAndOuties
            | Technique::NonConsecutive
            | Technique::Relation
            | Technique::SumBounds
            | Technique::LineRules
            | Technique::NakedPair
            | Technique::HiddenPair
            | Technique::NakedTriple
            | Technique::HiddenTriple => Level::Medium,
            Technique::NakedQuad
            | Technique::HiddenQuad
            | Technique::XWing
            | Technique::Swordfish
            | Technique::XyWing
            | Technique::XyzWing
            | Technique::WWing
            | Technique::UniqueRectangle
            | Technique::BugPlusOne => Level::Hard,
            Technique::Jellyfish | Technique::SimpleColouring | Technique::XChain => Level::Expert,
        }
    }

    /// Whether the technique holds only for a puzzle with one solution.
    pub(super) const fn needs_uniqueness(self) -> bool {
        matches!(self, Technique::UniqueRectangle | Technique::BugPlusOne)
    }

    /// Whether the technique looks at one digit at a time: a use of it for
    /// a digit depends only on that digit's places.
    pub(super) const fn is_per_digit(self) -> bool {
        matches!(
            self,
            Technique::Pointing
                | Technique::Claiming
                | Technique::XWing
                | Technique::Swordfish
                | Technique::Jellyfish
                | Technique::SimpleColouring
                | Technique::XChain
        )
    }

    /// The first use of the technique on `grid`, if it has one that
    /// places a digit or rules a candidate out. A technique that looks at
    /// one digit at a time ([`Technique::is_per_digit`]) looks only at the
    /// digits of `digits` (bit `d - 1` for digit `d`); the others ignore it.
    pub(super) fn find(self, grid: &Grid, digits: u32) -> Option<Step> {
        match self {
            Technique::FullHouse => singles::full_house(grid),
            Technique::NakedSingle => singles::naked_single(grid),
            Technique::HiddenSingle => singles::hidden_single(grid),
            Technique::Pointing => intersections::locked(grid, false, digits),
            Technique::Claiming => intersections::locked(grid, true, digits),
            Technique::CageCombination => cages::combinations(grid),
            Technique::InniesAndOuties => cages::innies_and_outies(grid),
            Technique::NonConsecutive => neighbours::non_consecutive(grid),
            Technique::Relation => relations::related(grid),
            Technique::SumBounds => sums::bounds(grid),
            Technique::LineRules => sums::lines(grid),
            Technique::NakedPair => subsets::naked(grid, 2),
            Technique::NakedTriple => subsets::naked(grid, 3),
            Technique::NakedQuad => subsets::naked(grid, 4),
            Technique::HiddenPair => subsets::hidden(grid, 2),
            Technique::HiddenTriple => subsets::hidden(grid, 3),
            Technique::HiddenQuad => subsets::hidden(grid, 4),
            Technique::XWing => fish::basic(grid, 2, digits),
            Technique::Swordfish => fish::basic(grid, 3, digits),
            Technique::Jellyfish => fish::basic(grid, 4, digits),
            Technique::XyWing => wings::xy(grid),
            Technique::XyzWing => wings::xyz(grid),
            Technique::WWing => wings::w(grid),
            Technique::SimpleColouring => chains::colouring(grid, digits),
            Technique::XChain => chains::x_chain(grid, digits),
            Technique::UniqueRectangle => uniqueness::rectangle(grid),
            Technique::BugPlusOne => uniqueness::bug_plus_one(grid),
        }
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One logical step: the technique, the cells and digits of its pattern,
/// what it places and what it rules out, and a sentence that says why.
///
/// `Display` writes the sentence.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Step {
    technique: Technique,
    cells: PatternCells,
    digits: PatternDigits,
    placements: SmallVec<[(usize, u8); 1]>,
    eliminations: Vec<(usize, u8)>,
    sentence: Sentence,
    /// The sentence as text, once [`Step::sentence`] has asked for it.
    written: Written,
}

/// What a step's sentence says. The singles, most of the steps of most
/// puzzles, keep the names in it and are written when asked for: a rating,
/// or a caller that looks only at placements, never pays for the text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Sentence {
    Text(String),
    FullHouse { cell: CellName, unit: UnitName, digit: u8 },
    NakedSingle { cell: CellName, digit: u8 },
    HiddenSingle { unit: UnitName, digit: u8, cell: CellName },
}

impl fmt::Display for Sentence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sentence::Text(text) => f.write_str(text),
            Sentence::FullHouse { cell, unit, digit } => write!(
                f,
                "{}: {cell} is the last empty cell of {unit}, so it is {}.",
                Technique::FullHouse,
                symbol(*digit)
            ),
            Sentence::NakedSingle { cell, digit } => {
                write!(f, "{}: {cell} has one candidate left, {}.", Technique::NakedSingle, symbol(*digit))
            }
            Sentence::HiddenSingle { unit, digit, cell } => {
                write!(f, "{}: in {unit}, {} fits only in {cell}.", Technique::HiddenSingle, symbol(*digit))
            }
        }
    }
}

/// A step's sentence written out, kept once written. It is what the
/// sentence says, so it takes no part in comparing or hashing steps.
#[derive(Clone, Debug, Default)]
struct Written(OnceLock<String>);

impl PartialEq for Written {
    fn eq(&self, _: &Written) -> bool {
        true
    }
}

impl Eq for Written {}

impl Hash for Written {
    fn hash<H: Hasher>(&self, _: &mut H) {}
}

/// A step's pattern: most are a cell or a few, held without an allocation
/// (the singles that make most steps of an easy puzzle would otherwise
/// allocate three lists each).
pub(super) type PatternCells = SmallVec<[usize; 4]>;
/// The digits of a step's pattern.
pub(super) type PatternDigits = SmallVec<[u8; 4]>;

impl Step {
    /// A step of `technique` over the pattern of `cells` and `digits`,
    /// with what it places and rules out (each sorted here) and its sentence.
    pub(super) fn new(
        technique: Technique,
        cells: impl Into<PatternCells>,
        digits: PatternDigits,
        placements: Vec<(usize, u8)>,
        mut eliminations: Vec<(usize, u8)>,
        sentence: String,
    ) -> Step {
        let mut placements = SmallVec::from_vec(placements);
        placements.sort_unstable();
        placements.dedup();
        eliminations.sort_unstable();
        eliminations.dedup();
        Step {
            technique,
            cells: cells.into(),
            digits,
            placements,
            eliminations,
            sentence: Sentence::Text(sentence),
            written: Written::default(),
        }
    }

    /// A step that places `digit` in `cell` because it is the last empty
    /// cell of `unit`.
    pub(super) fn full_house(grid: &Grid, cell: usize, digit: u8, unit: usize) -> Step {
        let sentence = Sentence::FullHouse { cell: grid.cell_name(cell), unit: grid.unit_name(unit), digit };
        Step::single(Technique::FullHouse, cell, digit, sentence)
    }

    /// A step that places `digit`, the last candidate of `cell`.
    pub(super) fn naked_single(grid: &Grid, cell: usize, digit: u8) -> Step {
        Step::single(Technique::NakedSingle, cell, digit, Sentence::NakedSingle { cell: grid.cell_name(cell), digit })
    }

    /// A step that places `digit` in `cell`, its last place in `unit`.
    pub(super) fn hidden_single(grid: &Grid, cell: usize, digit: u8, unit: usize) -> Step {
        let sentence = Sentence::HiddenSingle { unit: grid.unit_name(unit), digit, cell: grid.cell_name(cell) };
        Step::single(Technique::HiddenSingle, cell, digit, sentence)
    }

    fn single(technique: Technique, cell: usize, digit: u8, sentence: Sentence) -> Step {
        Step {
            technique,
            cells: smallvec![cell],
            digits: smallvec![digit],
            placements: smallvec![(cell, digit)],
            eliminations: Vec::new(),
            sentence,
            written: Written::default(),
        }
    }

    /// The technique the step uses.
    #[must_use]
    pub fn technique(&self) -> Technique {
        self.technique
    }

    /// The cells of the pattern (row-major indices), in the order the
    /// sentence names them.
    #[must_use]
    pub fn cells(&self) -> &[usize] {
        &self.cells
    }

    /// The digits of the pattern.
    #[must_use]
    pub fn digits(&self) -> &[u8] {
        &self.digits
    }

    /// The digits placed, as `(cell, digit)` pairs in row-major order of
    /// cells, digits from 1.
    #[must_use = "iterators are lazy and do nothing unless consumed"]
    pub fn placements(&self) -> impl ExactSizeIterator<Item = (usize, u8)> + '_ {
        self.placements.iter().copied()
    }

    /// The candidates ruled out, as `(cell, digit)` pairs in row-major order
    /// of cells. A placement also rules its digit out of the cell's peers;
    /// those are not listed.
    #[must_use = "iterators are lazy and do nothing unless consumed"]
    pub fn eliminations(&self) -> impl ExactSizeIterator<Item = (usize, u8)> + '_ {
        self.eliminations.iter().copied()
    }

    /// The sentence that explains the step.
    #[must_use]
    pub fn sentence(&self) -> &str {
        match &self.sentence {
            Sentence::Text(text) => text,
            sentence => self.written.0.get_or_init(|| sentence.to_string()),
        }
    }
}

/// The fields a caller can see, with the sentence as its text (not the
/// parts it is written from, nor whether it was written yet).
impl fmt::Debug for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Step")
            .field("technique", &self.technique)
            .field("cells", &self.cells)
            .field("digits", &self.digits)
            .field("placements", &self.placements)
            .field("eliminations", &self.eliminations)
            .field("sentence", &self.sentence())
            .finish_non_exhaustive()
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.written.0.get() {
            Some(text) => f.write_str(text),
            None => self.sentence.fmt(f),
        }
    }
}
