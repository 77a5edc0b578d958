//! The symmetries of a board that keep every solution a solution: random
//! equivalents ([`Board::transformed`]) and the canonical form of a class
//! of equivalent boards ([`Board::canonical`]).
//!
//! On classic rules the symmetries are: permuting the bands (rows of
//! boxes), the rows within each band, the stacks (columns of boxes) and the
//! columns within each stack; transposing, when the boxes are square; and
//! relabelling the digits. On 9x9 that is 3,359,232 grid symmetries times
//! 9! relabellings. Rules of every other kind keep their meaning under the
//! rotations and reflections of the board ([`Turn`]), which move the rules
//! with the cells.

use super::general::bits;
use super::{Board, MAX_SIDE, Rules, digit_of_symbol};
use crate::random::SplitMix64;

/// A rotation or a reflection of the board: the seven ways, besides
/// leaving it be, to lay a square grid onto itself. [`Board::turned`] and
/// [`Rules::turned`] move the cells and every rule with them, so a turned
/// puzzle has the same solutions, turned.
///
/// Four of them ([`Turn::swaps_axes`]) take rows to columns: they turn a
/// board of boxes `r` rows by `c` columns into one of boxes `c` by `r`.
///
/// ```
/// use lazydoku::Turn;
///
/// // On a 4x4 board, cell 1 (row 0, column 1) after a quarter turn clockwise
/// // is at row 1, column 3.
/// assert_eq!(Turn::Clockwise.cell(4, 1), 7);
/// for turn in Turn::ALL {
///     assert_eq!(turn.inverse().cell(4, turn.cell(4, 1)), 1);
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// A quarter turn clockwise: the top row becomes the right column.
    Clockwise,
    /// A half turn: the top row becomes the bottom row, read backwards.
    Half,
    /// A quarter turn anticlockwise: the top row becomes the left column.
    Anticlockwise,
    /// Turned over top to bottom: the top row becomes the bottom row.
    TopToBottom,
    /// Turned over left to right: the left column becomes the right column.
    LeftToRight,
    /// Turned over along the diagonal from the top left corner: rows
    /// become columns (the transpose).
    MainDiagonal,
    /// Turned over along the diagonal from the top right corner.
    AntiDiagonal,
}

impl Turn {
    /// Every turn, in the order of the variants.
    pub const ALL: [Turn; 7] = [
        Turn::Clockwise,
        Turn::Half,
        Turn::Anticlockwise,
        Turn::TopToBottom,
        Turn::LeftToRight,
        Turn::MainDiagonal,
        Turn::AntiDiagonal,
    ];

    /// Where `cell` (numbered row by row from 0) of a board of `side` goes.
    ///
    /// # Panics
    ///
    /// When `cell` is not a cell of such a board (`side * side` or more).
    #[must_use]
    pub const fn cell(self, side: usize, cell: usize) -> usize {
        assert!(side > 0 && cell / side < side, "the cell is not on the board");
        let (row, column) = (cell / side, cell % side);
        let last = side - 1;
        let (row, column) = match self {
            Turn::Clockwise => (column, last - row),
            Turn::Half => (last - row, last - column),
            Turn::Anticlockwise => (last - column, row),
            Turn::TopToBottom => (last - row, column),
            Turn::LeftToRight => (row, last - column),
            Turn::MainDiagonal => (column, row),
            Turn::AntiDiagonal => (last - column, last - row),
        };
        row * side + column
    }

    /// Whether rows become columns: the quarter turns and the turns over a
    /// diagonal.
    #[must_use]
    pub const fn swaps_axes(self) -> bool {
        matches!(self, Turn::Clockwise | Turn::Anticlockwise | Turn::MainDiagonal | Turn::AntiDiagonal)
    }

    /// The turn's name, in words joined by hyphens, as the command line
    /// takes it (`transform --turn`): `clockwise`, `half`, `anticlockwise`,
    /// `top-to-bottom`, `left-to-right`, `main-diagonal`, `anti-diagonal`.
    ///
    /// ```
    /// use lazydoku::Turn;
    ///
    /// assert_eq!(Turn::TopToBottom.name(), "top-to-bottom");
    /// assert!(Turn::ALL.iter().all(|&turn| Turn::from_name(turn.name()) == Some(turn)));
    /// assert_eq!(Turn::from_name("sideways"), None);
    /// ```
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Turn::Clockwise => "clockwise",
            Turn::Half => "half",
            Turn::Anticlockwise => "anticlockwise",
            Turn::TopToBottom => "top-to-bottom",
            Turn::LeftToRight => "left-to-right",
            Turn::MainDiagonal => "main-diagonal",
            Turn::AntiDiagonal => "anti-diagonal",
        }
    }

    /// The turn that [`Turn::name`] calls `name`, if any.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Turn> {
        Turn::ALL.into_iter().find(|turn| turn.name() == name)
    }

    /// The turn that undoes this one.
    #[must_use]
    pub const fn inverse(self) -> Turn {
        match self {
            Turn::Clockwise => Turn::Anticlockwise,
            Turn::Anticlockwise => Turn::Clockwise,
            other => other,
        }
    }
}

/// Whether relabelling the digits would change what the rules say: sums,
/// which digits are consecutive, which is larger, which are allowed.
fn digits_have_meaning(rules: &Rules) -> bool {
    rules.cages().next().is_some()
        || rules.is_non_consecutive()
        || rules.relations().next().is_some()
        || rules.sums().next().is_some()
        || rules.arrows().next().is_some()
        || rules.sandwiches().next().is_some()
        || rules.x_sums().next().is_some()
        || rules.skyscrapers().next().is_some()
        || rules.between_lines().next().is_some()
        || rules.quadruples().next().is_some()
        || rules.renbans().next().is_some()
        || rules.region_sum_lines().next().is_some()
        || rules.zipper_lines().next().is_some()
        || rules.double_arrows().next().is_some()
        || rules.entropic_lines().next().is_some()
        || rules.modular_lines().next().is_some()
        || rules.has_allowed_digits()
}

/// Row-major digits, 0 for empty, of a board's text.
fn digits_of(board: &Board) -> Vec<u8> {
    board.text().iter().map(|&s| digit_of_symbol(s).unwrap_or(0)).collect()
}

/// Whether the rules are classic ones whose symmetries are the group above.
fn has_classic_symmetries(board: &Board) -> bool {
    let rules = board.rules();
    rules.is_classic() && !board.shape().has_diagonals()
}

impl Board {
    /// A random board equivalent to this one, from `seed`: the same seed
    /// gives the same board on every machine. It has as many solutions, as
    /// many givens and the same difficulty, for data augmentation or to
    /// disguise a puzzle. Its shape is this board's.
    ///
    /// On classic rules any symmetry of the group above may be applied. On
    /// every other rules the board is rotated or reflected ([`Turn`]), with
    /// its rules moved along: regions, windows, cages, relations, lines and
    /// clues (a board of rectangular boxes only by the four turns that keep
    /// its shape). The digits are relabelled too where that changes nothing
    /// the rules say: jigsaw, X, windoku and extra regions, but not sums,
    /// which digits are consecutive or larger, or which are allowed (killer,
    /// non-consecutive, relations, lines, even and odd cells).
    ///
    /// ```
    /// use lazydoku::Board;
    ///
    /// let board: Board = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..".parse()?;
    /// let other = board.transformed(1);
    /// assert_ne!(other, board);
    /// assert_eq!(other.empty_cells(), board.empty_cells());
    /// assert!(other.is_unique());
    /// assert_eq!(other.canonical(), board.canonical());
    /// # Ok::<(), lazydoku::ParseError>(())
    /// ```
    #[must_use]
    pub fn transformed(&self, seed: u64) -> Board {
        let rules = self.rules();
        let mut random = SplitMix64::new(seed);
        if !has_classic_symmetries(self) {
            return self.turned_at_random(&rules, &rules.shape_keeping_turns(), &mut random);
        }
        let side = self.shape().side();
        let labels = shuffled_labels(&mut random, side);
        let source = digits_of(self);
        let shape = self.shape();
        let rows = grouped_permutation(&mut random, side, shape.box_rows());
        let columns = grouped_permutation(&mut random, side, shape.box_cols());
        // A Latin square's rows and columns trade places as square boxes do.
        let transpose = (shape.box_rows() == shape.box_cols() || !shape.has_boxes()) && random.below(2) == 1;
        let mut digits = vec![0u8; side * side];
        for (row, &from_row) in rows.iter().enumerate() {
            for (col, &from_col) in columns.iter().enumerate() {
                let (r, c) = if transpose { (from_col, from_row) } else { (from_row, from_col) };
                let digit = source[r * side + c];
                if digit != 0 {
                    digits[row * side + col] = labels[usize::from(digit) - 1];
                }
            }
        }
        // A symmetry of the rules keeps digits that did not clash apart.
        Board::empty_with(&rules).with_solution_digits(&digits)
    }

    /// A random equivalent with this board's own rules, from `seed`: on
    /// classic rules [`Board::transformed`]'s, whose symmetries all keep
    /// the rules; on other rules one of the turns that lay them onto
    /// themselves ([`Rules::invariant_turns`]) or none, with the digits
    /// relabelled where they are only labels to the rules. For puzzles whose
    /// rules come apart from them (a region map given once for a file of
    /// puzzles), which rules turned with the board would no longer match.
    /// A killer puzzle whose cages no turn keeps comes back as it is.
    ///
    /// ```
    /// use lazydoku::{Rules, Shape};
    ///
    /// let windoku = Rules::new(Shape::NINE).with_windows();
    /// let puzzle = windoku.parse(&format!("12{}", ".".repeat(79)))?;
    /// for seed in 0..8 {
    ///     let other = puzzle.transformed_keeping_rules(seed);
    ///     assert_eq!(other.rules(), windoku);
    ///     assert_eq!(other.canonical(), puzzle.canonical());
    /// }
    /// # Ok::<(), lazydoku::ParseError>(())
    /// ```
    #[must_use]
    pub fn transformed_keeping_rules(&self, seed: u64) -> Board {
        let rules = self.rules();
        if has_classic_symmetries(self) {
            return self.transformed(seed);
        }
        let turns: Vec<Turn> = rules.invariant_turns().collect();
        self.turned_at_random(&rules, &turns, &mut SplitMix64::new(seed))
    }

    /// [`Board::transformed`] on rules other than the classic ones: one of
    /// `turns`, or none, and the digits relabelled where the rules allow.
    fn turned_at_random(&self, rules: &Rules, turns: &[Turn], random: &mut SplitMix64) -> Board {
        let shape = self.shape();
        // One draw in as many as there are turns, plus one, leaves the board
        // where it is.
        let draw = random.below(turns.len() + 1);
        let turned = turns.get(draw).map_or_else(|| self.clone(), |&turn| self.turned(turn));
        if digits_have_meaning(rules) {
            return turned;
        }
        let labels = shuffled_labels(random, shape.side());
        let digits: Vec<u8> = digits_of(&turned)
            .into_iter()
            .map(|digit| if digit == 0 { 0 } else { labels[usize::from(digit) - 1] })
            .collect();
        Board::empty_with(&turned.rules()).with_solution_digits(&digits)
    }

    /// This board rotated or reflected by `turn`, with its rules: each
    /// given moves to [`Turn::cell`], and the rules as
    /// [`Rules::turned`] moves them. The solutions of the turned board are
    /// this board's solutions, turned.
    ///
    /// ```
    /// use lazydoku::{Board, Rules, Shape, Turn};
    ///
    /// // A 4x4 killer puzzle with a cage along the top row's first two cells.
    /// let rules = Rules::new(Shape::new(2, 2)).with_cage(3, &[0, 1])?;
    /// let board = Board::empty_with(&rules).place(0, 1)?;
    /// let turned = board.turned(Turn::Clockwise);
    /// // The given and the cage now run down the right column.
    /// assert_eq!(turned.get(3), Some(1));
    /// assert_eq!(turned.rules().cages().collect::<Vec<_>>(), [(3, vec![3, 7])]);
    /// assert_eq!(turned.count_solutions(1000), board.count_solutions(1000));
    /// assert_eq!(turned.turned(Turn::Anticlockwise), board);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn turned(&self, turn: Turn) -> Board {
        let rules = self.rules().turned(turn);
        let side = self.shape().side();
        let digits = turned_digits(&digits_of(self), side, Some(turn), false);
        Board::empty_with(&rules).with_solution_digits(&digits)
    }

    /// The canonical form of this board: of every board equivalent to it
    /// under the symmetries of its rules (see [`Board::transformed`]), the
    /// one whose text is smallest, reading an empty cell as smaller than
    /// any digit and relabelling digits in the order they first appear.
    /// On classic rules, two boards are equivalent exactly when their
    /// canonical forms are equal.
    ///
    /// Every classic shape has one: square and rectangular boxes (not
    /// transposed, which would change the shape) and Latin squares (every
    /// row and every column moved alone, and transposed). 9x9 puzzles take
    /// some 20 µs, 25x25 puzzles under a millisecond, full 25x25 grids some
    /// 10 ms.
    ///
    /// On every other rules (jigsaw, X, windoku, killer, relations, lines,
    /// even and odd cells, and the rest) the symmetries searched are the
    /// turns ([`Turn`]) that lay the rules onto themselves, each with the
    /// digits relabelled where the digits are only labels to the rules
    /// (jigsaw, X, windoku, extra regions; not sums, which digits are
    /// consecutive or larger, or which are allowed). The canonical board has
    /// this board's rules. Some of these rules have symmetries besides the
    /// turns (windoku's and X's groups are larger), which are not searched:
    /// there two equivalent boards may have different canonical forms,
    /// while equal forms still mean equivalent boards.
    ///
    /// `None` only for a board of classic rules whose search passes a
    /// fixed bound of work, ten times what the slowest board seen needed
    /// (the cells of one digit of a 25x25 grid, fixed by 28,800 symmetries,
    /// in 0.2 s).
    ///
    /// ```
    /// use lazydoku::Board;
    ///
    /// let board: Board = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..".parse()?;
    /// let canonical = board.canonical().expect("classic 9x9 rules");
    /// assert_eq!(canonical.as_str(), "...........1..2..324.56.78............2..3..735.68.94.....7..5.52.3.84.671.4.52.8");
    /// assert_eq!(canonical.canonical().as_ref(), Some(&canonical));
    /// assert_eq!(board.automorphisms(), Some(1));
    /// # Ok::<(), lazydoku::ParseError>(())
    /// ```
    ///
    /// On windoku rules, each turn of a puzzle has the same form:
    ///
    /// ```
    /// use lazydoku::{Rules, Shape, Turn};
    ///
    /// let windoku = Rules::new(Shape::NINE).with_windows();
    /// let puzzle = windoku.parse(&format!("12{}", ".".repeat(79)))?;
    /// let form = puzzle.canonical().expect("every rules have one");
    /// assert_eq!(form.as_str(), format!("{}12", ".".repeat(79)));
    /// assert_eq!(form.rules(), windoku);
    /// for turn in Turn::ALL {
    ///     assert_eq!(puzzle.turned(turn).canonical().as_ref(), Some(&form));
    /// }
    /// # Ok::<(), lazydoku::ParseError>(())
    /// ```
    #[must_use]
    pub fn canonical(&self) -> Option<Board> {
        self.canonical_and_automorphisms().map(|(board, _)| board)
    }

    /// The canonical form of this board and its rules together: the same
    /// as [`Board::canonical`] on classic rules; on other rules, of this
    /// board and its rules under every turn that keeps their shape (the
    /// rules moved with the cells, as [`Board::turned`] moves them), each
    /// relabelled where digits are only labels, the one whose rules come
    /// first in a fixed order of rules, then whose text is smallest.
    ///
    /// So two jigsaw, killer or other puzzles that are turns of each other
    /// have the same form here, which [`Board::canonical`] does not give
    /// them, as it keeps each puzzle's own rules; and the form may have
    /// rules of its own. `None` where [`Board::canonical`] is `None`.
    ///
    /// ```
    /// use lazydoku::{Rules, Turn};
    ///
    /// let jigsaw = Rules::jigsaw("aaab cabb ccdb cddd")?;
    /// let puzzle = jigsaw.parse("1......2...3....")?;
    /// let turned = puzzle.turned(Turn::TopToBottom);
    /// assert_ne!(turned.rules(), jigsaw);
    /// assert_ne!(turned.canonical(), puzzle.canonical());
    /// assert_eq!(turned.canonical_with_rules(), puzzle.canonical_with_rules());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn canonical_with_rules(&self) -> Option<Board> {
        if has_classic_symmetries(self) {
            return self.canonical();
        }
        let rules = self.rules();
        let relabel = !digits_have_meaning(&rules);
        let side = self.shape().side();
        let source = digits_of(self);
        let turned = rules.shape_keeping_turned().into_iter().map(|(turn, rules)| (Some(turn), rules));
        let mut best = None;
        for (turn, turned) in std::iter::once((None, rules.clone())).chain(turned) {
            let digits = turned_digits(&source, side, turn, relabel);
            let key = (turned.order_key(), digits);
            if best.as_ref().is_none_or(|(best, _)| key < *best) {
                best = Some((key, turned));
            }
        }
        let ((_, digits), rules) = best?;
        Some(Board::empty_with(&rules).with_solution_digits(&digits))
    }

    /// The number of grid symmetries (each with the relabelling it needs)
    /// that map this board to itself: 1 for most puzzles, and the size of
    /// the whole group for the empty board. On rules other than the
    /// classic ones, the turns [`Board::canonical`] searches, leaving the
    /// board be among them. `None` where [`Board::canonical`] is `None`.
    ///
    /// ```
    /// use lazydoku::{Rules, Shape};
    ///
    /// // The empty windoku board lies on itself under all eight turns.
    /// let windoku = Rules::new(Shape::NINE).with_windows();
    /// assert_eq!(windoku.parse(&".".repeat(81))?.automorphisms(), Some(8));
    /// # Ok::<(), lazydoku::ParseError>(())
    /// ```
    #[must_use]
    pub fn automorphisms(&self) -> Option<u128> {
        self.canonical_and_automorphisms().map(|(_, automorphisms)| automorphisms)
    }

    /// [`Board::canonical`] and [`Board::automorphisms`] from one search,
    /// for the cost of either.
    ///
    /// ```
    /// use lazydoku::Board;
    ///
    /// let board: Board = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..".parse()?;
    /// assert_eq!(board.canonical_and_automorphisms(), Some((board.canonical().unwrap(), 1)));
    /// # Ok::<(), lazydoku::ParseError>(())
    /// ```
    #[must_use]
    pub fn canonical_and_automorphisms(&self) -> Option<(Board, u128)> {
        let (digits, automorphisms) = if has_classic_symmetries(self) {
            let search = Canonical::search(self)?;
            (search.best, search.automorphisms)
        } else {
            self.smallest_turn()
        };
        Some((Board::empty_with(&self.rules()).with_solution_digits(&digits), automorphisms))
    }

    /// [`Board::canonical`] on rules other than the classic ones: the
    /// smallest digits (row-major, 0 for empty) over the turns that lay the
    /// rules onto themselves, and leaving the board be, each relabelled by
    /// first appearance where the rules allow; and how many of them give
    /// those digits.
    fn smallest_turn(&self) -> (Vec<u8>, u128) {
        let rules = self.rules();
        let relabel = !digits_have_meaning(&rules);
        let side = self.shape().side();
        let source = digits_of(self);
        let kept = rules.invariant_turns();
        let (mut best, mut count) = (Vec::new(), 0);
        for turn in std::iter::once(None).chain(kept.map(Some)) {
            let digits = turned_digits(&source, side, turn, relabel);
            match (count, digits.cmp(&best)) {
                (0, _) | (_, std::cmp::Ordering::Less) => (best, count) = (digits, 1),
                (_, std::cmp::Ordering::Equal) => count += 1,
                (_, std::cmp::Ordering::Greater) => {}
            }
        }
        (best, count)
    }
}

/// Row-major digits (0 for empty) moved by `turn` (or left be), and with
/// `relabel` relabelled in the order they first appear.
fn turned_digits(source: &[u8], side: usize, turn: Option<Turn>, relabel: bool) -> Vec<u8> {
    let mut digits = vec![0u8; side * side];
    for (cell, &digit) in source.iter().enumerate() {
        digits[turn.map_or(cell, |turn| turn.cell(side, cell))] = digit;
    }
    if relabel {
        relabel_by_first_appearance(&mut digits);
    }
    digits
}

/// Relabels the digits (0 for empty) in the order they first appear: the
/// first digit becomes 1, the next other one 2, and so on, which makes the
/// digits the smallest of their relabellings.
fn relabel_by_first_appearance(digits: &mut [u8]) {
    let mut labels = [0u8; MAX_SIDE + 1];
    let mut next = 0;
    for digit in digits.iter_mut().filter(|digit| **digit != 0) {
        let label = &mut labels[usize::from(*digit)];
        if *label == 0 {
            next += 1;
            *label = next;
        }
        *digit = *label;
    }
}

/// The digits 1 to `side` in a random order: digit `d` is relabelled as
/// the `d`-th.
fn shuffled_labels(random: &mut SplitMix64, side: usize) -> Vec<u8> {
    let mut labels: Vec<u8> = (1..=u8::try_from(side).unwrap_or(0)).collect();
    random.shuffle(&mut labels);
    labels
}

/// A permutation of `0..side` that keeps groups of `group` consecutive
/// indices together: the groups in a random order, and the indices within
/// each group in a random order.
fn grouped_permutation(random: &mut SplitMix64, side: usize, group: usize) -> Vec<usize> {
    let mut groups: Vec<usize> = (0..side / group).collect();
    random.shuffle(&mut groups);
    groups
        .into_iter()
        .flat_map(|g| {
            let mut within: Vec<usize> = (g * group..(g + 1) * group).collect();
            random.shuffle(&mut within);
            within
        })
        .collect()
}

/// The places of the output's columns: one per column of the largest board.
const MAX: usize = MAX_SIDE;

/// How many output cells the search for a canonical form may compare
/// before it gives up: a bound on the boards whose symmetries it cannot
/// tell apart in time (sparse boards above 9x9 that many symmetries fix
/// without any two rows being alike). The empty 25x25 board, full grids
/// and puzzles of every size take a small part of it.
const CANONICAL_CELL_BUDGET: u64 = 1 << 28;

/// The search for the smallest equivalent board: branch and bound over the
/// rows of the output, each row's columns ordered within the classes of
/// columns the rows before left alike.
///
/// Four things keep it small:
/// - A run of digits that first appear in one row, in columns still alike,
///   gets its labels by place, whatever the order of those columns: the
///   order is left to later rows, and a later row that shows one of those
///   digits puts its column first among those left (anything else would
///   make that later cell larger).
/// - Rows, bands and stacks that are the same (bands and stacks up to the
///   order of their rows or columns) are symmetries of the board: of those,
///   one is tried, its automorphisms counted once for each.
/// - A board equal to its transpose is searched in one orientation.
/// - Of the rows that may come next, only those that come out smallest
///   (each tie's columns tried) are searched further: searching one that a
///   later candidate beats would be wasted.
struct Canonical {
    side: usize,
    band: usize,
    stack: usize,
    /// The smallest output so far, row by row; rows from `valid` on are
    /// not yet known.
    best: Vec<u8>,
    valid: usize,
    /// The symmetries found that give `best`.
    automorphisms: u128,
    /// Output cells compared so far, against [`CANONICAL_CELL_BUDGET`].
    cells: u64,
}

/// The board in one orientation, with which rows, bands and stacks are the
/// same.
struct Oriented {
    grid: Vec<u8>,
    /// For each row, the first row with the same digits in every column.
    row_class: [u8; MAX],
    /// For each band, the first band with the same rows, in any order.
    band_class: [u8; MAX],
    /// For each stack, the first stack with the same columns, in any order.
    stack_class: [u8; MAX],
}

impl Oriented {
    fn new(grid: Vec<u8>, side: usize, band: usize, stack: usize) -> Oriented {
        let cells = &grid;
        let row = |r: usize| &cells[r * side..(r + 1) * side];
        let column = |c: usize| (0..side).map(move |r| cells[r * side + c]);
        let mut row_class = [0u8; MAX];
        let mut column_class = [0u8; MAX];
        for i in 0..side {
            row_class[i] = (0..=i).find(|&j| row(j) == row(i)).map_or(0, small);
            column_class[i] = (0..=i).find(|&j| column(j).eq(column(i))).map_or(0, small);
        }
        // Groups are alike when their sorted classes are.
        let classes = |class: &[u8; MAX], group: usize| -> [u8; MAX] {
            let keys: Vec<Vec<u8>> = (0..side / group)
                .map(|g| {
                    let mut key = class[g * group..(g + 1) * group].to_vec();
                    key.sort_unstable();
                    key
                })
                .collect();
            let mut out = [0u8; MAX];
            for (g, key) in keys.iter().enumerate() {
                out[g] = small(keys.iter().position(|k| k == key).unwrap_or(g));
            }
            out
        };
        let band_class = classes(&row_class, band);
        let stack_class = classes(&column_class, stack);
        Oriented { grid, row_class, band_class, stack_class }
    }
}

/// The column order of the output as far as the rows so far decide it:
/// the places `start[p]..end[p]` hold columns that are alike in every row
/// so far, in any order (`end[p] == p + 1` for a decided place).
#[derive(Clone, Copy)]
struct Columns {
    /// The column at each place.
    order: [u8; MAX],
    /// The place of each column.
    place: [u8; MAX],
    start: [u8; MAX],
    end: [u8; MAX],
}

impl Columns {
    /// Moves `column` to `at`, the first place of its class, deciding it;
    /// the rest of the class stays one class.
    fn take(&mut self, at: usize, column: usize) {
        let from = usize::from(self.place[column]);
        let moved = self.order[at];
        self.order.swap(at, from);
        self.place[usize::from(moved)] = small(from);
        self.place[column] = small(at);
        let end = usize::from(self.end[at]);
        self.end[at] = small(at + 1);
        self.start[at + 1..end].fill(small(at + 1));
    }

    /// Moves the columns of class `at..end` for which `first` holds before
    /// the others, keeping each part one class.
    fn split(&mut self, at: usize, end: usize, first: impl Fn(usize) -> bool) {
        let mut members = [0u8; MAX];
        let mut count = 0;
        let mut middle = at;
        for pass in [true, false] {
            for &column in &self.order[at..end] {
                if first(usize::from(column)) == pass {
                    members[count] = column;
                    count += 1;
                }
            }
            if pass {
                middle = at + count;
            }
        }
        for (offset, &column) in members[..count].iter().enumerate() {
            self.order[at + offset] = column;
            self.place[usize::from(column)] = small(at + offset);
        }
        self.end[at..middle].fill(small(middle));
        self.start[middle..end].fill(small(middle));
    }

    fn is_decided(&self, column: usize) -> bool {
        let place = usize::from(self.place[column]);
        usize::from(self.start[place]) == place && usize::from(self.end[place]) == place + 1
    }

    /// The orders of the columns left alike: the product of the factorials
    /// of the classes' sizes.
    fn orders(&self, side: usize) -> u128 {
        let mut orders = 1u128;
        let mut place = 0;
        while place < side {
            let end = usize::from(self.end[place]);
            orders *= (1..=(end - place) as u128).product::<u128>();
            place = end;
        }
        orders
    }
}

/// The labels of the source's digits as far as the rows so far decide them.
#[derive(Clone, Copy)]
struct Labels {
    /// A digit's label, 0 while it has none or it is still pending.
    fixed: [u8; MAX + 1],
    /// For a pending digit, its column plus 1: its label is `base` plus its
    /// column's place less `run`, once that place is decided.
    column: [u8; MAX + 1],
    base: [u8; MAX + 1],
    run: [u8; MAX + 1],
    next: u8,
}

impl Labels {
    fn new() -> Labels {
        Labels { fixed: [0; MAX + 1], column: [0; MAX + 1], base: [0; MAX + 1], run: [0; MAX + 1], next: 1 }
    }

    /// Whether `digit` has appeared in the rows so far.
    fn is_seen(&self, digit: u8) -> bool {
        let d = usize::from(digit);
        self.fixed[d] != 0 || self.column[d] != 0
    }

    /// The smallest label a seen `digit` can take in the cell at place
    /// `at`, whose class starts there: the first place of its column's
    /// class, or the next one when that class is the cell's own (the cell's
    /// column takes `at`).
    fn least(&self, columns: &Columns, digit: u8, at: usize) -> u8 {
        let d = usize::from(digit);
        if self.fixed[d] != 0 {
            return self.fixed[d];
        }
        let column = usize::from(self.column[d] - 1);
        let place = usize::from(columns.place[column]);
        let first = if columns.is_decided(column) {
            place
        } else {
            match usize::from(columns.start[place]) {
                start if start == at => at + 1,
                start => start,
            }
        };
        self.base[d] + small(first) - self.run[d]
    }

    /// The label of `digit` in a decided cell: a new digit gets the next
    /// label, and a pending digit's column goes first in its class.
    fn settle(&mut self, columns: &mut Columns, digit: u8) -> u8 {
        let d = usize::from(digit);
        if digit == 0 {
            return 0;
        }
        if self.fixed[d] == 0 {
            if self.column[d] == 0 {
                self.fixed[d] = self.next;
                self.next += 1;
            } else {
                let column = usize::from(self.column[d] - 1);
                if !columns.is_decided(column) {
                    let start = usize::from(columns.start[usize::from(columns.place[column])]);
                    columns.take(start, column);
                }
                self.fixed[d] = self.base[d] + columns.place[column] - self.run[d];
            }
        }
        self.fixed[d]
    }
}

impl Canonical {
    fn search(board: &Board) -> Option<Canonical> {
        if !has_classic_symmetries(board) {
            return None;
        }
        let shape = board.shape();
        let side = shape.side();
        // A Latin square moves every row and column alone: one band, one stack.
        let (band, stack) = if shape.has_boxes() { (shape.box_rows(), shape.box_cols()) } else { (side, side) };
        let source = digits_of(board);
        let mut orientations = vec![Oriented::new(source.clone(), side, band, stack)];
        let mut orientation_weight = 1;
        if band == stack {
            let transposed: Vec<u8> = (0..side * side).map(|cell| source[(cell % side) * side + cell / side]).collect();
            if transposed == source {
                orientation_weight = 2;
            } else {
                orientations.push(Oriented::new(transposed, side, band, stack));
            }
        }
        let mut search =
            Canonical { side, band, stack, best: vec![0; side * side], valid: 0, automorphisms: 0, cells: 0 };
        // The first row is a row, in either orientation, whose best
        // arrangement has its digits latest: its stacks by how many digits
        // they hold, fewest first, and the empty cells first in each.
        let stacks = side / stack;
        let fill = |grid: &[u8], row: usize| -> [u8; MAX] {
            let mut fill = [0u8; MAX];
            for (s, f) in fill.iter_mut().enumerate().take(stacks) {
                *f = small((0..stack).filter(|&i| grid[row * side + s * stack + i] != 0).count());
            }
            fill
        };
        let pattern = |fill: &[u8; MAX]| -> Vec<bool> {
            let mut sorted = fill[..stacks].to_vec();
            sorted.sort_unstable();
            sorted.iter().flat_map(|&f| (0..stack).map(move |i| i >= stack - usize::from(f))).collect()
        };
        let smallest =
            orientations.iter().flat_map(|oriented| (0..side).map(|row| pattern(&fill(&oriented.grid, row)))).min()?;
        for oriented in &orientations {
            let first_rows = (0..side).filter(|&row| pattern(&fill(&oriented.grid, row)) == smallest);
            for (row, alike) in
                alike_groups(first_rows, |row| (oriented.row_class[row], oriented.band_class[row / band]))
            {
                let row_fill = fill(&oriented.grid, row);
                let mut sorted_fill = row_fill;
                sorted_fill[..stacks].sort_unstable();
                let first = FirstRow { row, fill: row_fill, sorted_fill };
                search.arrange_stacks(oriented, &first, [0; MAX], 0, 0, orientation_weight * alike);
                if search.cells > CANONICAL_CELL_BUDGET {
                    return None;
                }
            }
        }
        Some(search)
    }

    /// Chooses the source stack of output stack `slot` (one whose first-row
    /// fill is that slot's), for each stack not in `taken` (a bit set).
    fn arrange_stacks(
        &mut self,
        board: &Oriented,
        first: &FirstRow,
        mut stacks: [u8; MAX],
        slot: usize,
        taken: u32,
        weight: u128,
    ) {
        let count = self.side / self.stack;
        if slot == count {
            // Each stack's columns start as one class, in any order.
            let mut columns = Columns { order: [0; MAX], place: [0; MAX], start: [0; MAX], end: [0; MAX] };
            for place in 0..self.side {
                let column = usize::from(stacks[place / self.stack]) * self.stack + place % self.stack;
                columns.order[place] = small(column);
                columns.place[column] = small(place);
                columns.start[place] = small(place / self.stack * self.stack);
                columns.end[place] = small((place / self.stack + 1) * self.stack);
            }
            let mut used = [false; MAX];
            self.place_row(board, 0, first.row, &mut used, columns, Labels::new(), weight);
            return;
        }
        let free = (0..count).filter(|&s| taken >> s & 1 == 0 && first.fill[s] == first.sorted_fill[slot]);
        for (s, alike) in alike_groups(free, |s| (board.stack_class[s], 0)) {
            stacks[slot] = small(s);
            self.arrange_stacks(board, first, stacks, slot + 1, taken | 1 << s, weight * alike);
        }
    }

    /// Puts source row `row` at output row `at`, then goes on with the rows
    /// after it, keeping what is no larger than the best so far.
    #[expect(clippy::too_many_arguments, reason = "the state of one step of the search")]
    fn place_row(
        &mut self,
        board: &Oriented,
        at: usize,
        row: usize,
        used: &mut [bool; MAX],
        columns: Columns,
        labels: Labels,
        weight: u128,
    ) {
        let smaller = at >= self.valid;
        self.fill_row(board, at, row, used, columns, labels, 0, smaller, weight);
    }

    /// Writes output row `at` from place `place` on, comparing it with the
    /// best as it goes ([`advance`] gives the values), and tries each
    /// column of a tie in turn. Then goes on with the rows after it.
    #[expect(clippy::too_many_arguments, reason = "the state of one step of the search")]
    fn fill_row(
        &mut self,
        board: &Oriented,
        at: usize,
        row: usize,
        used: &mut [bool; MAX],
        mut columns: Columns,
        mut labels: Labels,
        mut place: usize,
        mut smaller: bool,
        weight: u128,
    ) {
        let side = self.side;
        let start = at * side;
        let digits = &board.grid[row * side..(row + 1) * side];
        if self.cells > CANONICAL_CELL_BUDGET {
            return;
        }
        let keep = |p: usize, value: u8| self.keep(start + p, value, &mut smaller);
        match advance(digits, &mut columns, &mut labels, &mut place, keep) {
            Advance::Done => {}
            Advance::Cut => return,
            Advance::Tie(ties) => {
                // After the first option, the best holds this row up to
                // here: the others are compared with it, not written over it.
                for (option, column) in bits(ties).enumerate() {
                    let (columns, labels) = taking(columns, labels, place, column, digits);
                    self.fill_row(board, at, row, used, columns, labels, place + 1, smaller && option == 0, weight);
                }
                return;
            }
        }
        if smaller {
            self.valid = at + 1;
            self.automorphisms = 0;
        }
        if at + 1 == side {
            // Columns still in one class are alike in every row: each order
            // of them gives this same board.
            self.automorphisms += weight * columns.orders(side);
            return;
        }
        used[row] = true;
        let next = at + 1;
        let band = self.band;
        let candidates = if next % band == 0 {
            // A new band: any row of a band not used yet.
            let bands = (0..side / band).filter(|b| !used[b * band..(b + 1) * band].contains(&true));
            let rows = bands.flat_map(|b| b * band..(b + 1) * band);
            alike_groups(rows, |r| (board.row_class[r], board.band_class[r / band]))
        } else {
            let first = row / band * band;
            let rows = (first..first + band).filter(|&r| !used[r]);
            alike_groups(rows, |r| (board.row_class[r], 0))
        };
        // Only the rows that come out smallest here can lead to the
        // smallest board: the others are not searched below. `least` starts
        // as the best's row, where that is known, and only comes down.
        let mut least = [u8::MAX; MAX];
        if next < self.valid {
            least[..side].copy_from_slice(&self.best[next * side..(next + 1) * side]);
        }
        let mut smallest = Vec::with_capacity(candidates.len());
        for &(candidate, _) in &candidates {
            let digits = &board.grid[candidate * side..(candidate + 1) * side];
            let reached = smallest_row(digits, columns, labels, 0, [0; MAX], &mut least, &mut self.cells);
            smallest.push(reached.then_some(least));
        }
        for (&(candidate, alike), row_least) in candidates.iter().zip(&smallest) {
            if *row_least == Some(least) {
                self.place_row(board, next, candidate, used, columns, labels, weight * alike);
            }
        }
        used[row] = false;
    }

    /// Compares `value`, at `index` of the output, with the best: `false`
    /// when the output is larger there (the branch is cut). Once smaller,
    /// the output is written over the best.
    fn keep(&mut self, index: usize, value: u8, smaller: &mut bool) -> bool {
        self.cells += 1;
        if !no_larger(value, self.best[index], smaller) {
            return false;
        }
        if *smaller {
            self.best[index] = value;
        }
        true
    }
}

/// A place, column, row, stack, count or label of the search, which are
/// all at most [`MAX_SIDE`] + 1, as it stores them.
#[expect(clippy::cast_possible_truncation, reason = "at most 26")]
fn small(n: usize) -> u8 {
    debug_assert!(n <= MAX_SIDE + 1);
    n as u8
}

/// How [`advance`] stopped.
enum Advance {
    /// The row is written.
    Done,
    /// `emit` said to stop.
    Cut,
    /// Columns of the class at the place reached give its value alike
    /// (pending digits whose columns share a class): the caller takes one,
    /// settles its digit and goes on from the next place.
    Tie(u32),
}

/// Gives the values of a row of `digits` from `place` on to `emit`, which
/// says whether to go on, ordering the columns within each class: empty
/// cells first (still one class), then seen digits, smallest label first,
/// then new digits as a run labelled by place, its order left to later rows.
fn advance(
    digits: &[u8],
    columns: &mut Columns,
    labels: &mut Labels,
    place: &mut usize,
    mut emit: impl FnMut(usize, u8) -> bool,
) -> Advance {
    let side = digits.len();
    let digit = |column: u8| digits[usize::from(column)];
    while *place < side {
        let at = *place;
        let end = usize::from(columns.end[at]);
        if end == at + 1 {
            let here = digit(columns.order[at]);
            let value = labels.settle(columns, here);
            if !emit(at, value) {
                return Advance::Cut;
            }
            *place += 1;
            continue;
        }
        let members = &columns.order[at..end];
        let empty = members.iter().filter(|&&c| digit(c) == 0).count();
        if empty > 0 {
            if empty < end - at {
                columns.split(at, end, |c| digits[c] == 0);
            }
            for p in at..at + empty {
                if !emit(p, 0) {
                    return Advance::Cut;
                }
            }
            *place += empty;
            continue;
        }
        let mut least = u8::MAX;
        let mut ties = 0u32;
        for &column in members {
            let d = digit(column);
            if labels.is_seen(d) {
                let label = labels.least(columns, d, at);
                if label < least {
                    (least, ties) = (label, 0);
                }
                if label == least {
                    ties |= 1 << column;
                }
            }
        }
        if ties == 0 {
            // Every digit new: labelled by place, the order left to later rows.
            for (offset, &column) in members.iter().enumerate() {
                let d = usize::from(digit(column));
                labels.column[d] = column + 1;
                labels.base[d] = labels.next;
                labels.run[d] = small(at);
                if !emit(at + offset, labels.next + small(offset)) {
                    return Advance::Cut;
                }
            }
            labels.next += small(end - at);
            *place = end;
            continue;
        }
        if !emit(at, least) {
            return Advance::Cut;
        }
        if ties.count_ones() > 1 {
            return Advance::Tie(ties);
        }
        let column = ties.trailing_zeros() as usize;
        columns.take(at, column);
        labels.settle(columns, digits[column]);
        *place += 1;
    }
    Advance::Done
}

/// One cell of an output compared with the same cell of `bound`, the
/// cells before it equal unless `below` says the output is already
/// smaller: `false` when the output is larger here, and `below` set once it
/// is smaller.
fn no_larger(value: u8, bound: u8, below: &mut bool) -> bool {
    if !*below {
        match value.cmp(&bound) {
            std::cmp::Ordering::Greater => return false,
            std::cmp::Ordering::Less => *below = true,
            std::cmp::Ordering::Equal => {}
        }
    }
    true
}

/// The columns and labels after `column` takes `place`, where a tie left
/// the choice: one of the states a tie branches into.
fn taking(mut columns: Columns, mut labels: Labels, place: usize, column: usize, digits: &[u8]) -> (Columns, Labels) {
    columns.take(place, column);
    labels.settle(&mut columns, digits[column]);
    (columns, labels)
}

/// Whether a row of `digits` can come out, from `place` on after
/// `output`'s first places, no larger than `least`, each column of a tie
/// tried (the rest of the row depends on which one is taken); `least`
/// becomes the smallest such row. Each cell written is one of `cells`.
fn smallest_row(
    digits: &[u8],
    mut columns: Columns,
    mut labels: Labels,
    mut place: usize,
    mut output: [u8; MAX],
    least: &mut [u8; MAX],
    cells: &mut u64,
) -> bool {
    let side = digits.len();
    let mut below = output[..place] < least[..place];
    let emit = |p: usize, value: u8| {
        *cells += 1;
        output[p] = value;
        no_larger(value, least[p], &mut below)
    };
    match advance(digits, &mut columns, &mut labels, &mut place, emit) {
        Advance::Cut => false,
        Advance::Done => {
            if output[..side] < least[..side] {
                least[..side].copy_from_slice(&output[..side]);
            }
            true
        }
        Advance::Tie(ties) => {
            let mut reached = false;
            for column in bits(ties) {
                let (columns, labels) = taking(columns, labels, place, column, digits);
                reached |= smallest_row(digits, columns, labels, place + 1, output, least, cells);
            }
            reached
        }
    }
}

/// The first row of the output, with how many digits each of its stacks
/// holds, and the same sorted: the fill of each output stack.
struct FirstRow {
    row: usize,
    fill: [u8; MAX],
    sorted_fill: [u8; MAX],
}

/// The first of each group of `items` with the same `key`, and how many
/// the group holds: items that a symmetry of the board swaps, of which one
/// is searched for all.
fn alike_groups(items: impl Iterator<Item = usize>, key: impl Fn(usize) -> (u8, u8)) -> Vec<(usize, u128)> {
    let mut groups: Vec<((u8, u8), usize, u128)> = Vec::new();
    for item in items {
        let k = key(item);
        match groups.iter_mut().find(|(seen, _, _)| *seen == k) {
            Some((_, _, count)) => *count += 1,
            None => groups.push((k, item, 1)),
        }
    }
    groups.into_iter().map(|(_, item, count)| (item, count)).collect()
}

/// The text of `digits` (row-major, 0 for empty).
#[cfg(test)]
fn text_of(digits: &[u8]) -> String {
    digits.iter().map(|&d| super::SYMBOLS[usize::from(d)] as char).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use itertools::Itertools;

    #[test]
    fn canonical_of_a_small_board_is_its_smallest_equivalent_by_brute_force() {
        let board: Board = "1.....3..2......".parse().expect("4x4");
        let canonical = board.canonical().expect("4x4 classic");
        // Every grid symmetry of 4x4, relabelled by first appearance.
        let source = digits_of(&board);
        let mut smallest: Option<String> = None;
        for transpose in [false, true] {
            for rows in (0..4).permutations(4).filter(|p| p[0] / 2 == p[1] / 2 && p[2] / 2 == p[3] / 2) {
                for cols in (0..4).permutations(4).filter(|p| p[0] / 2 == p[1] / 2 && p[2] / 2 == p[3] / 2) {
                    let mut labels = [0u8; 26];
                    let mut next = 1;
                    let out: Vec<u8> = (0..16)
                        .map(|cell| {
                            let (r, c) = (rows[cell / 4], cols[cell % 4]);
                            let d = if transpose { source[c * 4 + r] } else { source[r * 4 + c] };
                            if d == 0 {
                                return 0;
                            }
                            if labels[usize::from(d)] == 0 {
                                labels[usize::from(d)] = next;
                                next += 1;
                            }
                            labels[usize::from(d)]
                        })
                        .collect();
                    let text = text_of(&out);
                    if smallest.as_ref().is_none_or(|s| text < *s) {
                        smallest = Some(text);
                    }
                }
            }
        }
        assert_eq!(Some(canonical.as_str().to_owned()), smallest);
    }
}
