//! [`Shape`]: the size, box layout and extra regions of a board, and the
//! cached [`Geometry`] (units and peers) that every board of a shape shares.

use std::fmt;
use std::ops::Range;
use std::sync::OnceLock;

use super::relation::Related;
use super::sum::{EqualSumKind, LineRule, Linear, segments};

/// The largest side supported: symbols `1-9` then `A-P`, 25 in all.
pub const MAX_SIDE: usize = 25;

/// The layout of a board: boxes of `box_rows` x `box_cols` cells on a board
/// whose side is `box_rows * box_cols`, or no boxes at all (a Latin square,
/// [`Shape::latin`]), optionally with both main diagonals as extra regions
/// (X-sudoku).
///
/// Every region is data (a list of cells), so further regions such as
/// windoku windows would be more entries in the same list.
///
/// ```
/// use lazydoku::Shape;
///
/// let six = Shape::new(2, 3);
/// assert_eq!(six.side(), 6);
/// assert_eq!(six.cells(), 36);
/// assert_eq!(Shape::from_side(16), Some(Shape::new(4, 4)));
/// assert_eq!(Shape::from_side(12), Some(Shape::new(3, 4)));
/// assert_eq!(Shape::from_side(7), None); // 7 is no product r x c with r, c >= 2
/// assert_eq!(Shape::NINE.with_diagonals().to_string(), "3x3 X");
/// assert_eq!(Shape::latin(7).to_string(), "latin7");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shape {
    box_rows: u8,
    box_cols: u8,
    diagonals: bool,
}

impl Shape {
    /// The classic 9x9 board with 3x3 boxes.
    pub const NINE: Shape = Shape::new(3, 3);

    /// Boxes of `box_rows` x `box_cols` cells, on a side of their product.
    ///
    /// # Panics
    ///
    /// When either factor is below 2 or the side is above 25. Use
    /// [`Shape::try_new`] for values that come from input.
    #[must_use]
    pub const fn new(box_rows: usize, box_cols: usize) -> Shape {
        match Shape::try_new(box_rows, box_cols) {
            Some(shape) => shape,
            None => panic!("a shape needs box sides of at least 2 and a board side of at most 25"),
        }
    }

    /// Boxes of `box_rows` x `box_cols` cells, or `None` when either factor is
    /// below 2 or the side `box_rows * box_cols` is above 25.
    #[must_use]
    pub const fn try_new(box_rows: usize, box_cols: usize) -> Option<Shape> {
        // Checked: a product that overflows is no supported side either.
        match box_rows.checked_mul(box_cols) {
            Some(side) if box_rows >= 2 && box_cols >= 2 && side <= MAX_SIDE => {}
            _ => return None,
        }
        #[expect(clippy::cast_possible_truncation, reason = "both are at most 12 here")]
        Some(Shape { box_rows: box_rows as u8, box_cols: box_cols as u8, diagonals: false })
    }

    /// A board of `side` x `side` cells whose regions are its rows and
    /// columns alone: a Latin square. It is also the base for jigsaw boards
    /// of sides that no box shape has (5, 7, 11, ...), through
    /// [`Rules::with_regions`](crate::Rules::with_regions). Its
    /// [`box_rows`](Shape::box_rows) is 1 and its
    /// [`box_cols`](Shape::box_cols) the side: each row is a band of its own.
    ///
    /// ```
    /// use lazydoku::{Board, Rules, Shape};
    ///
    /// let latin = Shape::latin(5);
    /// assert!(!latin.has_boxes());
    /// // 161,280 Latin squares of order 5.
    /// assert_eq!(Board::empty(latin).count_solutions(200_000), 161_280);
    /// // A 5x5 jigsaw: rows, columns and five regions of five cells.
    /// let jigsaw = Rules::new(latin).with_regions("11122 11222 33444 33344 55555")?;
    /// assert_eq!(jigsaw.regions().count(), 15);
    /// # Ok::<(), lazydoku::RulesError>(())
    /// ```
    ///
    /// # Panics
    ///
    /// When `side` is below 2 or above 25. Use [`Shape::try_latin`] for
    /// values that come from input.
    #[must_use]
    pub const fn latin(side: usize) -> Shape {
        match Shape::try_latin(side) {
            Some(shape) => shape,
            None => panic!("a Latin square needs a side from 2 to 25"),
        }
    }

    /// A Latin square of `side` ([`Shape::latin`]), or `None` when `side`
    /// is below 2 or above 25.
    #[must_use]
    pub const fn try_latin(side: usize) -> Option<Shape> {
        if side < 2 || side > MAX_SIDE {
            return None;
        }
        #[expect(clippy::cast_possible_truncation, reason = "at most 25 here")]
        Some(Shape { box_rows: 1, box_cols: side as u8, diagonals: false })
    }

    /// Whether the board has boxes: false for a Latin square.
    #[must_use]
    pub const fn has_boxes(self) -> bool {
        self.box_rows >= 2
    }

    /// The usual shape for a side: square boxes where the side is a square,
    /// otherwise the factors `r x c` with `r <= c` closest to square
    /// (6 is 2x3, 12 is 3x4). `None` for a side that has no such factors.
    #[must_use]
    pub const fn from_side(side: usize) -> Option<Shape> {
        // Also keeps `rows * rows` below from overflowing on huge sides.
        if side > MAX_SIDE {
            return None;
        }
        let mut rows = 1;
        let mut best = None;
        while rows * rows <= side {
            if rows >= 2 && side % rows == 0 {
                best = Shape::try_new(rows, side / rows);
            }
            rows += 1;
        }
        best
    }

    /// The same shape with both main diagonals as extra regions (X-sudoku).
    #[must_use]
    pub const fn with_diagonals(self) -> Shape {
        Shape { diagonals: true, ..self }
    }

    /// Rows in a box; 1 for a Latin square.
    #[must_use]
    pub const fn box_rows(self) -> usize {
        self.box_rows as usize
    }

    /// Columns in a box; the side for a Latin square.
    #[must_use]
    pub const fn box_cols(self) -> usize {
        self.box_cols as usize
    }

    /// Whether both main diagonals are regions too.
    #[must_use]
    pub const fn has_diagonals(self) -> bool {
        self.diagonals
    }

    /// Cells in a row, a column or a region; also the number of symbols.
    #[must_use]
    pub const fn side(self) -> usize {
        self.box_rows() * self.box_cols()
    }

    /// Cells on the board.
    #[must_use]
    pub const fn cells(self) -> usize {
        self.side() * self.side()
    }

    /// The cell index of `row` and `col`, both from 0: `row * side + col`.
    #[must_use]
    pub const fn cell(self, row: usize, col: usize) -> usize {
        row * self.side() + col
    }

    /// The symbol for `digit` (1 to side): `1-9`, then `A-Z`.
    ///
    /// ```
    /// assert_eq!(lazydoku::Shape::symbol(10), Some('A'));
    /// assert_eq!(lazydoku::Shape::symbol(0), None);
    /// ```
    #[must_use]
    pub const fn symbol(digit: u8) -> Option<char> {
        match digit {
            1..=25 => Some(super::SYMBOLS[digit as usize] as char),
            _ => None,
        }
    }

    pub(crate) fn geometry(self) -> &'static Geometry {
        // One slot per possible shape; each geometry is built once and shared
        // by every board of that shape, so boards carry a plain reference.
        const SLOTS: usize = (MAX_SIDE + 1) * (MAX_SIDE + 1) * 2;
        static CACHE: [OnceLock<Geometry>; SLOTS] = [const { OnceLock::new() }; SLOTS];
        let slot = (self.box_rows() * (MAX_SIDE + 1) + self.box_cols()) * 2 + usize::from(self.diagonals);
        CACHE[slot].get_or_init(|| Geometry::new(self))
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.has_boxes() {
            write!(f, "{}x{}", self.box_rows, self.box_cols)?;
        } else {
            write!(f, "latin{}", self.box_cols)?;
        }
        if self.diagonals {
            f.write_str(" X")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Shape({self})")
    }
}

/// Which kind of region a unit is, for error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Region {
    /// A row.
    Row,
    /// A column.
    Column,
    /// A box.
    Box,
    /// One of the two main diagonals.
    Diagonal,
    /// A region of a jigsaw board, in place of the boxes.
    Jigsaw,
    /// One of windoku's windows.
    Window,
    /// A region the rules add ([`Rules::with_region`](crate::Rules::with_region)).
    Extra,
    /// A killer cage ([`Rules::with_cage`](crate::Rules::with_cage)).
    Cage,
    /// A group of cells whose digits differ without having to hold every
    /// digit ([`Rules::with_distinct`](crate::Rules::with_distinct)), such as
    /// two cells a knight's move apart under
    /// [`Rules::with_anti_knight`](crate::Rules::with_anti_knight).
    Distinct,
}

impl fmt::Display for Region {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Region::Row => "row",
            Region::Column => "column",
            Region::Box => "box",
            Region::Diagonal => "diagonal",
            Region::Jigsaw => "region",
            Region::Window => "window",
            Region::Extra => "extra region",
            Region::Cage => "cage",
            Region::Distinct => "group of distinct digits",
        })
    }
}

/// Units and peers of one board's rules, computed once: shared by every
/// board with those rules.
#[derive(Clone, Debug)]
pub(crate) struct Geometry {
    pub(crate) shape: Shape,
    pub(crate) side: usize,
    pub(crate) cells: usize,
    /// All digits: bits `0..side`.
    pub(crate) full: u32,
    /// `side` cells per unit: rows, then columns, boxes (or jigsaw
    /// regions), and any others.
    unit_cells: Vec<u16>,
    /// The kind of each unit.
    kinds: Vec<Region>,
    /// Peers of cell `c` are `peers[peer_start[c]..peer_start[c + 1]]`.
    peers: Vec<u16>,
    peer_start: Vec<u32>,
    /// The units of cell `c`, with its place in each, are
    /// `memberships[membership_start[c]..membership_start[c + 1]]`.
    memberships: Vec<Membership>,
    membership_start: Vec<u32>,
    /// For locked candidates, the regions that share two cells or more
    /// with unit `u` are `meetings[meeting_start[u]..meeting_start[u + 1]]`.
    meetings: Vec<Meeting>,
    meeting_start: Vec<u32>,
    /// The most cells that unit `u` shares with another region: a digit
    /// with more places than that in `u` is confined to no overlap.
    widest_meeting: Vec<u8>,
    /// Killer cages: distinct digits (their cells are peers) with a sum.
    pub(crate) cages: Vec<Cage>,
    /// Groups of cells whose digits differ, without a region's duty to
    /// hold every digit: their cells are peers, and that is all.
    pub(crate) distinct: Vec<Vec<u16>>,
    /// Whether cells that share a side may not hold consecutive digits.
    pub(crate) non_consecutive: bool,
    /// Sums the cages imply (see [`implied_sums`]): cages for propagation,
    /// and steps of their own for `explain`.
    pub(crate) implied: Vec<ImpliedSum>,
    /// The cages holding cell `c`, given and implied (numbered given ones
    /// first), are `cell_cages[cell_cage_start[c]..cell_cage_start[c + 1]]`;
    /// both empty on a board without cages.
    cell_cages: Vec<u16>,
    cell_cage_start: Vec<u32>,
    /// Where each cage's bits start, in words, in a board's record of the
    /// sets each cage may still take (one bit a set), with the end after
    /// the last; empty on a board without cages.
    cage_word_start: Vec<u32>,
    /// Pairs of cells whose digits keep a [`Relation`](super::Relation),
    /// sorted and each once, so that equal rules compare equal.
    pub(crate) relations: Vec<Related>,
    /// The relations of cell `c` (indices into `relations`) are
    /// `cell_relations[cell_relation_start[c]..cell_relation_start[c + 1]]`;
    /// both empty without relations.
    cell_relations: Vec<u32>,
    cell_relation_start: Vec<u32>,
    /// Rules along lines of cells (little killers, arrows, sandwiches),
    /// sorted and each once, as given; `linear` holds the same rules as
    /// equations where they are one.
    pub(crate) line_rules: Vec<LineRule>,
    pub(crate) linear: Vec<Linear>,
    /// The line rules of cell `c` (indices into `line_rules`) are
    /// `cell_line_rules[cell_line_rule_start[c]..cell_line_rule_start[c + 1]]`; both empty
    /// without sums.
    cell_line_rules: Vec<u32>,
    cell_line_rule_start: Vec<u32>,
    /// The digits each cell may hold (even or odd cells, say), one mask a
    /// cell; empty when every cell may hold every digit.
    pub(crate) allowed: Vec<u32>,
}

/// A killer cage: its cells hold distinct digits that add up to `sum`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Cage {
    pub(crate) cells: Vec<u16>,
    pub(crate) sum: usize,
    /// Every set of distinct digits (bit `d - 1` for digit `d`) of the
    /// cage's size that adds up to its sum.
    pub(crate) combinations: DigitSets,
}

/// Sets of digits, as bits: a slice of a table shared by every cage of
/// boards up to 16x16, or a list of their own on larger boards. A line of
/// 9x9 killer puzzles has some fifty cages, given and implied, each of
/// which took an allocation for its list.
#[derive(Clone, Debug)]
pub(crate) enum DigitSets {
    Shared(&'static [u32]),
    Own(Vec<u32>),
}

impl std::ops::Deref for DigitSets {
    type Target = [u32];

    fn deref(&self) -> &[u32] {
        match self {
            DigitSets::Shared(sets) => sets,
            DigitSets::Own(sets) => sets,
        }
    }
}

impl PartialEq for DigitSets {
    fn eq(&self, other: &DigitSets) -> bool {
        **self == **other
    }
}

impl Eq for DigitSets {}

/// A sum that cages imply through a unit, as a cage, and where it comes
/// from, for the step that explains it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ImpliedSum {
    pub(crate) cage: Cage,
    /// The unit whose digits' total implies it.
    pub(crate) unit: usize,
    /// Whether its cells lie outside the unit (outies), rather than inside
    /// it outside the cages there (innies).
    pub(crate) outies: bool,
    /// The given cages whose sums it takes from the unit's total (innies)
    /// or the unit's total from (outies).
    pub(crate) cages: Vec<usize>,
}

impl Cage {
    pub(crate) fn new(cells: &[usize], sum: usize, side: usize) -> Cage {
        Cage::of_cells(cells.iter().map(|&c| to_u16(c)).collect(), sum, side)
    }

    fn of_cells(cells: Vec<u16>, sum: usize, side: usize) -> Cage {
        let combinations = match sets_of_digits(side) {
            Some(table) => DigitSets::Shared(table.of(cells.len(), sum)),
            None => DigitSets::Own(sets_adding_up_to(cells.len(), sum, side)),
        };
        Cage { cells, sum, combinations }
    }
}

/// The sets of `digits` distinct digits of 1 to `side` adding up to `sum`,
/// as bits, smallest digit first, found by a search that stops where the
/// digits left cannot make the sum.
fn sets_adding_up_to(digits: usize, sum: usize, side: usize) -> Vec<u32> {
    // Digits from `next` up, `left` more of them, adding up to `rest`.
    fn choose(next: usize, left: usize, rest: usize, side: usize, mask: u32, out: &mut Vec<u32>) {
        if left == 0 {
            if rest == 0 {
                out.push(mask);
            }
            return;
        }
        // Too few digits left, or the largest `left` of them fall short
        // of the sum: nothing below here fits (this bounds the search
        // by what it finds, even for large cages on large boards).
        if side + 1 < next + left || left * (2 * side + 1 - left) / 2 < rest {
            return;
        }
        for digit in next..=side {
            // The smallest `left` digits from here already pass the sum.
            if digit * left + left * (left - 1) / 2 > rest {
                break;
            }
            choose(digit + 1, left - 1, rest - digit, side, mask | 1 << (digit - 1), out);
        }
    }
    let mut sets = Vec::new();
    choose(1, digits, sum, side, 0, &mut sets);
    sets
}

/// Every set of distinct digits of a board, as bits, grouped by how many
/// digits and their sum; within a group in the order that listing them
/// smallest digit first gives (as `Cage::new`'s search does). Rules for
/// killer lines are built once a line, and a cage's sets are one lookup.
struct SetsOfDigits {
    sets: Vec<u32>,
    /// Where the sets of `size` digits adding up to `sum` start, at
    /// `size * (largest sum + 1) + sum`, with the end after the last.
    start: Vec<u32>,
    largest_sum: usize,
}

impl SetsOfDigits {
    fn of(&'static self, size: usize, sum: usize) -> &'static [u32] {
        let group = size * (self.largest_sum + 1) + sum;
        if sum > self.largest_sum || group + 1 >= self.start.len() {
            return &[];
        }
        &self.sets[self.start[group] as usize..self.start[group + 1] as usize]
    }
}

/// The [`SetsOfDigits`] of boards of `side` up to 16 (65,536 sets at
/// most), built the first time they are asked for; `None` above.
fn sets_of_digits(side: usize) -> Option<&'static SetsOfDigits> {
    const LARGEST_SIDE: usize = 16;
    static TABLES: [OnceLock<SetsOfDigits>; LARGEST_SIDE + 1] = [const { OnceLock::new() }; LARGEST_SIDE + 1];
    let table = TABLES.get(side)?;
    Some(table.get_or_init(|| {
        let largest_sum = side * (side + 1) / 2;
        let group = |set: u32| {
            let sum: usize = (0..side).filter(|d| set >> d & 1 == 1).map(|d| d + 1).sum();
            set.count_ones() as usize * (largest_sum + 1) + sum
        };
        let mut sets: Vec<u32> = (0..1u32 << side).collect();
        // Smallest digit first: the set with the lower bit where two differ
        // comes first, which is the larger value with the bits reversed.
        sets.sort_by_cached_key(|&set| (group(set), std::cmp::Reverse(set.reverse_bits())));
        let groups = (side + 1) * (largest_sum + 1);
        let mut start = vec![0u32; groups + 1];
        for &set in &sets {
            start[group(set) + 1] += 1;
        }
        for g in 0..groups {
            start[g + 1] += start[g];
        }
        SetsOfDigits { sets, start, largest_sum }
    }))
}

/// Sums that killer cages imply through the units (the rule of 45 on
/// 9x9): every unit holds each digit once, so its digits add up to
/// `1 + 2 + ... + side`.
/// - Innies: the cells of a unit outside the cages that lie wholly inside
///   it add up to that total less those cages' sums.
/// - Outies: when cages cover a unit, the cells of those cages outside it
///   add up to their sums less the total; kept when those cells lie in one
///   unit, so that their digits are distinct as a cage's are.
///
/// Each is a cage for propagation only: its cells are already peers. Sets
/// that too many combinations of digits make are left out.
fn implied_sums<'a>(
    side: usize,
    unit_cells: &[u16],
    member_of: &dyn Fn(usize) -> &'a [Membership],
    cages: &[Cage],
) -> Vec<ImpliedSum> {
    // At most this many sets of distinct digits of the set's size to list.
    const MOST_CHOICES: u64 = 20_000;
    // Propagation looks at every combination of every cage each round: a
    // sum that many combinations make prunes little and costs much (on
    // 16x16, 64 kept its cost level with no implied sums; 9x9 killers
    // need no more).
    const MOST_COMBINATIONS: usize = 64;
    /// A set of cells found with its sum, before it is known to be new:
    /// its cells and the cages it comes from lie in lists shared by all.
    struct Found {
        cells: Range<usize>,
        sum: usize,
        unit: usize,
        outies: bool,
        cages: Range<usize>,
    }
    let choices = |k: usize| (0..k as u64).fold(1u64, |n, i| n * (side as u64 - i) / (i + 1));
    if cages.is_empty() {
        return Vec::new();
    }
    let total = side * (side + 1) / 2;
    let mut cage_of = vec![usize::MAX; side * side];
    for (i, cage) in cages.iter().enumerate() {
        for &cell in &cage.cells {
            cage_of[usize::from(cell)] = i;
        }
    }
    // Each set's cells are sorted as it is noted; its combinations are
    // listed once it is known to be new.
    let (mut found, mut found_cells, mut found_cages) = (Vec::new(), Vec::<u16>::new(), Vec::new());
    let mut note = |cells: &[usize], sum, unit, outies, from: &[usize]| {
        let start = found_cells.len();
        found_cells.extend(cells.iter().map(|&c| to_u16(c)));
        found_cells[start..].sort_unstable();
        let first_cage = found_cages.len();
        found_cages.extend_from_slice(from);
        found.push(Found { cells: start..found_cells.len(), sum, unit, outies, cages: first_cage..found_cages.len() });
    };
    let mut in_unit = vec![false; side * side];
    // Lists for the unit at hand, kept from one unit to the next.
    let (mut touching, mut inside, mut innies, mut outies) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (u, unit) in unit_cells.chunks_exact(side).enumerate() {
        let unit = || unit.iter().map(|&c| usize::from(c));
        for c in unit() {
            in_unit[c] = true;
        }
        // The cages with a cell in the unit, and those of them wholly inside it.
        touching.clear();
        touching.extend(unit().map(|c| cage_of[c]).filter(|&i| i != usize::MAX));
        touching.sort_unstable();
        touching.dedup();
        let is_inside = |i: usize| cages[i].cells.iter().all(|&c| in_unit[usize::from(c)]);
        inside.clear();
        inside.extend(touching.iter().copied().filter(|&i| is_inside(i)));
        let inside_sum: usize = inside.iter().map(|&i| cages[i].sum).sum();
        innies.clear();
        innies.extend(unit().filter(|&c| !inside.contains(&cage_of[c])));
        if !innies.is_empty() && innies.len() < side && total >= inside_sum {
            note(&innies, total - inside_sum, u, false, &inside);
        }
        if unit().all(|c| cage_of[c] != usize::MAX) {
            let sum: usize = touching.iter().map(|&i| cages[i].sum).sum();
            outies.clear();
            outies.extend(
                touching.iter().flat_map(|&i| cages[i].cells.iter().map(|&c| usize::from(c))).filter(|&c| !in_unit[c]),
            );
            // Some unit holds them all: one of the first one's.
            let distinct = outies.first().is_some_and(|&first| {
                member_of(first).iter().any(|m| {
                    let other = &unit_cells[usize::from(m.unit) * side..][..side];
                    outies.iter().all(|&c| other.contains(&to_u16(c)))
                })
            });
            if !outies.is_empty() && distinct && sum >= total {
                note(&outies, sum - total, u, true, &touching);
            }
        }
        for c in unit() {
            in_unit[c] = false;
        }
    }
    let mut implied: Vec<ImpliedSum> = Vec::new();
    // The cells of every cage so far, each list sorted (given cages may not
    // be) and kept in one list, and the lists in order, to be looked up by
    // halving: some thirty to a few hundred, where hashing each list, each
    // in an allocation of its own, cost more.
    let mut known_cells: Vec<u16> = Vec::with_capacity(cages.iter().map(|cage| cage.cells.len()).sum());
    let mut known: Vec<Range<usize>> = Vec::with_capacity(cages.len() + found.len());
    for cage in cages {
        let start = known_cells.len();
        known_cells.extend_from_slice(&cage.cells);
        known_cells[start..].sort_unstable();
        known.push(start..known_cells.len());
    }
    known.sort_unstable_by(|a, b| known_cells[a.clone()].cmp(&known_cells[b.clone()]));
    for found in found {
        let cells = &found_cells[found.cells];
        if choices(cells.len()) > MOST_CHOICES {
            continue;
        }
        if let Err(place) = known.binary_search_by(|k| known_cells[k.clone()].cmp(cells)) {
            let cage = Cage::of_cells(cells.to_vec(), found.sum, side);
            if cage.combinations.len() <= MOST_COMBINATIONS {
                let start = known_cells.len();
                known_cells.extend_from_slice(cells);
                known.insert(place, start..known_cells.len());
                let (unit, outies, cages) = (found.unit, found.outies, found_cages[found.cages].to_vec());
                implied.push(ImpliedSum { cage, unit, outies, cages });
            }
        }
    }
    implied
}

/// Each cell's peers, sorted, in one list, and where each cell's start
/// (with the end after the last): the cells that share a unit of
/// `unit_cells` (`side` cells each), a cage or a group of `distinct`
/// with it.
fn peer_lists<'a>(
    cells: usize,
    side: usize,
    unit_cells: &[u16],
    cages: &[Cage],
    distinct: &[Vec<u16>],
    member_of: &dyn Fn(usize) -> &'a [Membership],
) -> (Vec<u16>, Vec<u32>) {
    // Each unit's and each cage's cells as bits, `words` words each: a
    // cell's peers are the union of its units' and its cage's.
    let words = cells.div_ceil(64);
    let as_bits = |members: &mut dyn Iterator<Item = usize>, into: &mut Vec<u64>| {
        let start = into.len();
        into.resize(start + words, 0);
        for p in members {
            into[start + p / 64] |= 1 << (p % 64);
        }
    };
    let mut unit_bits = Vec::with_capacity(unit_cells.len() / side * words);
    for members in unit_cells.chunks_exact(side) {
        as_bits(&mut members.iter().map(|&p| usize::from(p)), &mut unit_bits);
    }
    let mut cage_bits = Vec::with_capacity(cages.len() * words);
    let mut cage_of = vec![usize::MAX; cells];
    for (k, cage) in cages.iter().enumerate() {
        as_bits(&mut cage.cells.iter().map(|&p| usize::from(p)), &mut cage_bits);
        for &cell in &cage.cells {
            cage_of[usize::from(cell)] = k;
        }
    }
    // Each cell's peers as a set of bits: sorted and without repeats
    // as they are read out, where a list took a sort. A cell has fewer
    // peers in its units than those units have cells, so room for those
    // is reserved at once; only peers through a cage may grow the list.
    let mut peers = Vec::with_capacity(unit_cells.len() * side);
    let mut peer_start = Vec::with_capacity(cells + 1);
    peer_start.push(0);
    let mut mine = vec![0u64; words];
    let (groups_of, groups_start) = by_cell(
        cells,
        distinct.iter().enumerate().flat_map(|(k, group)| group.iter().map(move |&cell| (usize::from(cell), k))),
    );
    for cell in 0..cells {
        for &k in &groups_of[groups_start[cell] as usize..groups_start[cell + 1] as usize] {
            for &peer in &distinct[k] {
                mine[usize::from(peer) / 64] |= 1 << (peer % 64);
            }
        }
        let cage = cage_of[cell];
        let cage = (cage != usize::MAX).then(|| &cage_bits[cage * words..(cage + 1) * words]);
        let unit_masks = member_of(cell).iter().map(|m| &unit_bits[usize::from(m.unit) * words..][..words]);
        for bits in unit_masks.chain(cage) {
            for (word, &bit) in mine.iter_mut().zip(bits) {
                *word |= bit;
            }
        }
        mine[cell / 64] &= !(1 << (cell % 64));
        for (w, word) in mine.iter_mut().enumerate() {
            while *word != 0 {
                peers.push(to_u16(64 * w + word.trailing_zeros() as usize));
                *word &= *word - 1;
            }
        }
        peer_start.push(u32::try_from(peers.len()).expect("at most 625 cells, each with fewer than 625 peers"));
    }
    (peers, peer_start)
}

/// `items` grouped by the cell each is for, keeping their order within a
/// cell: the items in one list, and where each cell's start (with the end
/// after the last), in two passes rather than a list per cell.
fn by_cell<T: Copy + Default>(cells: usize, items: impl Iterator<Item = (usize, T)> + Clone) -> (Vec<T>, Vec<u32>) {
    let mut start = vec![0u32; cells + 1];
    for (cell, _) in items.clone() {
        start[cell + 1] += 1;
    }
    for cell in 0..cells {
        start[cell + 1] += start[cell];
    }
    let mut next = start.clone();
    let mut grouped = vec![T::default(); start[cells] as usize];
    for (cell, item) in items {
        grouped[next[cell] as usize] = item;
        next[cell] += 1;
    }
    (grouped, start)
}

/// Where a unit meets another region in two cells or more: the places of
/// the shared cells in the unit and in the other region (bit `i` for a
/// unit's `i`-th cell).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Meeting {
    pub(crate) shared: u32,
    pub(crate) other: u16,
    pub(crate) other_shared: u32,
}

/// A unit that a cell is in, and the cell's place in it.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Membership {
    pub(crate) unit: u16,
    pub(crate) place: u8,
}

/// Two geometries are the same rules when they have the same units.
/// A geometry's units (kind and cells) and cages (cells and sum), each
/// sorted: see `Geometry::sorted_parts`.
type SortedParts = (Vec<(u8, Vec<u16>)>, Vec<(Vec<u16>, usize)>);

/// Rules are equal when they have the same regions and cages, in any
/// order: a cage map read back lists its cages by their first cells, not
/// in the order they were added. Groups of distinct digits are kept
/// sorted, so they compare as they are.
impl PartialEq for Geometry {
    fn eq(&self, other: &Geometry) -> bool {
        if std::ptr::eq(self, other) {
            return true;
        }
        if self.shape != other.shape
            || self.kinds.len() != other.kinds.len()
            || self.cages.len() != other.cages.len()
            || self.distinct != other.distinct
            || self.non_consecutive != other.non_consecutive
            || self.relations != other.relations
            || self.line_rules != other.line_rules
            || self.allowed != other.allowed
        {
            return false;
        }
        if self.unit_cells == other.unit_cells && self.kinds == other.kinds && self.cages == other.cages {
            return true;
        }
        self.sorted_parts() == other.sorted_parts()
    }
}

impl Eq for Geometry {}

impl Geometry {
    /// Whether these are classic 9x9 rules with some cells' digits
    /// restricted and nothing else: rules the band engine keeps by
    /// starting without the other digits, as a restriction is a removed
    /// candidate that nothing brings back.
    pub(crate) fn is_nine_with_allowed_digits(&self) -> bool {
        let classic = Shape::NINE.geometry();
        !self.allowed.is_empty()
            && self.shape == Shape::NINE
            && self.cages.is_empty()
            && self.distinct.is_empty()
            && !self.non_consecutive
            && self.relations.is_empty()
            && self.line_rules.is_empty()
            && self.kinds == classic.kinds
            && self.unit_cells == classic.unit_cells
    }

    /// These rules with each cell `c` moved to `to[c]`, on a board of
    /// `shape`: a rotation or reflection ([`Turn`](crate::Turn)), which
    /// takes rows and columns to rows and columns, boxes to the boxes of
    /// `shape`, and the two diagonals to each other. Rows, columns, boxes
    /// and diagonals are `shape`'s own, in their usual order; every other
    /// region, cage, group, relation, line and allowed set moves with its
    /// cells, in the order its own builder keeps, so that moving there and
    /// back gives equal rules.
    pub(crate) fn moved(&self, shape: Shape, to: &[usize]) -> Geometry {
        // Every field is named, so that a rule added to the geometry cannot
        // be left behind here: the derived ones are built again below.
        let Geometry {
            shape: _,
            side: _,
            cells: _,
            full: _,
            unit_cells: _,
            kinds: _,
            peers: _,
            peer_start: _,
            memberships: _,
            membership_start: _,
            meetings: _,
            meeting_start: _,
            widest_meeting: _,
            cages,
            distinct,
            non_consecutive,
            implied: _,
            cell_cages: _,
            cell_cage_start: _,
            cage_word_start: _,
            relations,
            cell_relations: _,
            cell_relation_start: _,
            line_rules,
            linear: _,
            cell_line_rules: _,
            cell_line_rule_start: _,
            allowed,
        } = self;
        let cell = |c: u16| to_u16(to[usize::from(c)]);
        let cells = |list: &[u16]| list.iter().map(|&c| cell(c)).collect::<Vec<u16>>();
        let units = self.moved_units(shape, to);
        let side = shape.side();
        let cages = cages.iter().map(|cage| Cage::of_cells(cells(&cage.cells), cage.sum, side)).collect();
        let mut distinct: Vec<Vec<u16>> = distinct
            .iter()
            .map(|group| {
                let mut group = cells(group);
                group.sort_unstable();
                group
            })
            .collect();
        distinct.sort_unstable();
        let relations = relations
            .iter()
            .map(|related| Related::new(cell(related.cells[0]), related.relation, cell(related.cells[1])))
            .collect();
        let line_rules = line_rules.iter().map(|rule| rule.moved(cell)).collect();
        let mut moved_allowed = allowed.clone();
        for (c, &mask) in allowed.iter().enumerate() {
            moved_allowed[to[c]] = mask;
        }
        Geometry::from_parts(shape, &units, cages, distinct)
            .non_consecutive(*non_consecutive)
            .related(relations)
            .summed(line_rules)
            .allowing(moved_allowed)
    }

    /// The units of [`Geometry::moved`]: rows, columns, boxes and diagonals
    /// are the new shape's, in their usual order; a jigsaw's regions are
    /// listed as its region map gives them (each region's cells in reading
    /// order, the regions by their first cell); windows that the move takes
    /// onto windows stay as listed, so that a turned windoku keeps
    /// windoku's rules; other regions move with their cells.
    fn moved_units(&self, shape: Shape, to: &[usize]) -> Vec<(Region, Vec<usize>)> {
        let units = self.unit_list();
        let moved_unit = |unit: &[usize]| unit.iter().map(|&c| to[c]).collect::<Vec<usize>>();
        // The units of `kind`, moved or as they are, each one's cells in
        // order and the units in order.
        let sorted_units = |kind: Region, moved: bool| {
            let mut sorted: Vec<Vec<usize>> = units
                .iter()
                .filter(|(k, _)| *k == kind)
                .map(|(_, unit)| {
                    let mut cells = if moved { moved_unit(unit) } else { unit.clone() };
                    cells.sort_unstable();
                    cells
                })
                .collect();
            sorted.sort_unstable();
            sorted
        };
        let keep_windows = sorted_units(Region::Window, true) == sorted_units(Region::Window, false);
        let jigsaw = sorted_units(Region::Jigsaw, true);
        let mut jigsaw = jigsaw.into_iter();
        let shape_units = Geometry::classic_units(shape);
        let of_kind =
            |kind: Region| shape_units.iter().filter(move |(k, _)| *k == kind).map(|(_, cells)| cells.clone());
        let (mut rows, mut columns) = (of_kind(Region::Row), of_kind(Region::Column));
        let (mut boxes, mut diagonals) = (of_kind(Region::Box), of_kind(Region::Diagonal));
        units
            .iter()
            .map(|(kind, unit)| {
                let listed = match kind {
                    Region::Row => rows.next(),
                    Region::Column => columns.next(),
                    Region::Box => boxes.next(),
                    Region::Diagonal => diagonals.next(),
                    Region::Jigsaw => jigsaw.next(),
                    Region::Window if keep_windows => Some(unit.clone()),
                    Region::Window | Region::Extra | Region::Cage | Region::Distinct => None,
                };
                (*kind, listed.unwrap_or_else(|| moved_unit(unit)))
            })
            .collect()
    }

    /// The rows, columns and boxes of `shape`, and its diagonals if it has them.
    pub(crate) fn classic_units(shape: Shape) -> Vec<(Region, Vec<usize>)> {
        let side = shape.side();
        let (br, bc) = (shape.box_rows(), shape.box_cols());
        let mut units: Vec<(Region, Vec<usize>)> = Vec::new();
        units.extend((0..side).map(|r| (Region::Row, (0..side).map(|c| r * side + c).collect())));
        units.extend((0..side).map(|c| (Region::Column, (0..side).map(|r| r * side + c).collect())));
        // Boxes are numbered row-major: `side / box_cols` boxes across.
        let boxes = if shape.has_boxes() { side } else { 0 };
        units.extend((0..boxes).map(|b| {
            let (top, left) = ((b / br) * br, (b % br) * bc);
            (Region::Box, (0..side).map(|i| (top + i / bc) * side + left + i % bc).collect())
        }));
        if shape.diagonals {
            units.push((Region::Diagonal, (0..side).map(|i| i * side + i).collect()));
            units.push((Region::Diagonal, (0..side).map(|i| i * side + side - 1 - i).collect()));
        }
        units
    }

    fn new(shape: Shape) -> Geometry {
        Geometry::from_parts(shape, &Geometry::classic_units(shape), Vec::new(), Vec::new())
    }

    /// The geometry of `units`, each of `shape.side()` distinct cells of
    /// the board, and of `cages`, which share no cell (both checked by the
    /// caller).
    pub(crate) fn from_parts(
        shape: Shape,
        units: &[(Region, Vec<usize>)],
        cages: Vec<Cage>,
        distinct: Vec<Vec<u16>>,
    ) -> Geometry {
        let kinds = units.iter().map(|&(kind, _)| kind).collect();
        let unit_cells = units.iter().flat_map(|(_, unit)| unit.iter().map(|&c| to_u16(c))).collect();
        Geometry::from_units(shape, kinds, unit_cells, cages, distinct)
    }

    /// This geometry's units with `cages` in place of its cages (checked
    /// by the caller): the units are copied as they are kept, two lists,
    /// where building them again took one list a unit. Every line of a
    /// file of killer puzzles comes here.
    pub(crate) fn with_cages(&self, cages: Vec<Cage>) -> Geometry {
        self.rebuilt(cages, self.distinct.clone(), self.non_consecutive)
    }

    /// This geometry with `distinct` in place of its groups of distinct
    /// digits (checked by the caller).
    pub(crate) fn with_distinct(&self, distinct: Vec<Vec<u16>>) -> Geometry {
        self.rebuilt(self.cages.clone(), distinct, self.non_consecutive)
    }

    /// This geometry with the non-consecutive rule: cells that share a
    /// side hold no consecutive digits.
    pub(crate) fn with_non_consecutive(&self) -> Geometry {
        self.rebuilt(self.cages.clone(), self.distinct.clone(), true)
    }

    /// This geometry's units with these cages, groups and non-consecutive
    /// rule.
    fn rebuilt(&self, cages: Vec<Cage>, distinct: Vec<Vec<u16>>, non_consecutive: bool) -> Geometry {
        let geometry = Geometry::from_units(self.shape, self.kinds.clone(), self.unit_cells.clone(), cages, distinct);
        geometry
            .non_consecutive(non_consecutive)
            .related(self.relations.clone())
            .summed(self.line_rules.clone())
            .allowing(self.allowed.clone())
    }

    /// This geometry with the non-consecutive rule, or without it.
    pub(crate) fn non_consecutive(mut self, yes: bool) -> Geometry {
        self.non_consecutive = yes;
        self
    }

    /// This geometry with `relations` (checked by the caller) in place of
    /// its relations.
    pub(crate) fn with_relations(&self, relations: Vec<Related>) -> Geometry {
        let geometry = Geometry::from_units(
            self.shape,
            self.kinds.clone(),
            self.unit_cells.clone(),
            self.cages.clone(),
            self.distinct.clone(),
        );
        geometry
            .non_consecutive(self.non_consecutive)
            .related(relations)
            .summed(self.line_rules.clone())
            .allowing(self.allowed.clone())
    }

    /// This geometry with `sums` (checked by the caller) in place of its
    /// sums. Nothing else depends on them.
    pub(crate) fn with_sums(&self, sums: Vec<LineRule>) -> Geometry {
        self.clone().summed(sums)
    }

    /// This geometry with `sums`, sorted and without repeats, their
    /// equations, and each cell's list of them.
    pub(crate) fn summed(mut self, mut sums: Vec<LineRule>) -> Geometry {
        // Region sum lines are cut by this geometry's boxes (or jigsaw
        // regions), whichever rules came before or after them.
        if sums.iter().any(|rule| matches!(rule, LineRule::EqualSums { kind: EqualSumKind::RegionSum, .. })) {
            let mut region_of = vec![u32::MAX; self.cells];
            for (index, unit) in self.units().enumerate() {
                if matches!(self.region(index), Region::Box | Region::Jigsaw) {
                    for &cell in unit {
                        region_of[usize::from(cell)] = u32::try_from(index).unwrap_or(u32::MAX);
                    }
                }
            }
            for rule in &mut sums {
                if let LineRule::EqualSums { kind: EqualSumKind::RegionSum, line, groups, cells } = rule {
                    *groups = segments(line, &region_of);
                    *cells = groups.concat();
                }
            }
        }
        sums.sort_unstable();
        sums.dedup();
        (self.cell_line_rules, self.cell_line_rule_start) = if sums.is_empty() {
            (Vec::new(), Vec::new())
        } else {
            by_cell(
                self.cells,
                sums.iter().enumerate().flat_map(|(k, sum)| {
                    let k = u32::try_from(k).expect("fewer than 2^32 sums");
                    sum.cells().map(move |cell| (usize::from(cell), k))
                }),
            )
        };
        self.linear = sums.iter().map(LineRule::linear).collect();
        self.line_rules = sums;
        self
    }

    /// Whether some cells keep a sum whose digits may repeat.
    #[inline]
    pub(crate) fn has_line_rules(&self) -> bool {
        !self.line_rules.is_empty()
    }

    /// The sums (indices into `sums`) that `cell` takes part in: none on a
    /// board without them.
    #[inline]
    pub(crate) fn line_rules_of(&self, cell: usize) -> &[u32] {
        match self.cell_line_rule_start.get(cell..cell + 2) {
            Some(&[start, end]) => &self.cell_line_rules[start as usize..end as usize],
            _ => &[],
        }
    }

    /// This geometry with `allowed` (one mask a cell, or none, checked by
    /// the caller) in place of the digits its cells may hold. Nothing else
    /// depends on them, so the rest is copied, not worked out again: a
    /// rebuild was a fifth of reading even-odd puzzles with their maps.
    pub(crate) fn with_allowed(&self, allowed: Vec<u32>) -> Geometry {
        self.clone().allowing(allowed)
    }

    /// This geometry with `allowed` as the digits its cells may hold: none
    /// kept when every cell may hold every digit, so that such rules equal
    /// the rules without the list.
    pub(crate) fn allowing(mut self, allowed: Vec<u32>) -> Geometry {
        self.allowed = if allowed.iter().all(|&mask| mask & self.full == self.full) { Vec::new() } else { allowed };
        self
    }

    /// The digits `cell` may hold, as bits: every digit unless the rules
    /// say otherwise.
    #[inline]
    pub(crate) fn allowed_at(&self, cell: usize) -> u32 {
        self.allowed.get(cell).map_or(self.full, |&mask| mask & self.full)
    }

    /// This geometry with `relations`, sorted and without repeats, and
    /// each cell's list of them.
    pub(crate) fn related(mut self, mut relations: Vec<Related>) -> Geometry {
        relations.sort_unstable();
        relations.dedup();
        (self.cell_relations, self.cell_relation_start) = if relations.is_empty() {
            (Vec::new(), Vec::new())
        } else {
            by_cell(
                self.cells,
                relations.iter().enumerate().flat_map(|(k, related)| {
                    let k = u32::try_from(k).expect("fewer than 2^32 relations");
                    related.cells.map(|cell| (usize::from(cell), k))
                }),
            )
        };
        self.relations = relations;
        self
    }

    /// Whether some cells keep a relation.
    #[inline]
    pub(crate) fn has_relations(&self) -> bool {
        !self.relations.is_empty()
    }

    /// The relations (indices into `relations`) that `cell` takes part in:
    /// none on a board without relations.
    #[inline]
    pub(crate) fn relations_of(&self, cell: usize) -> &[u32] {
        match self.cell_relation_start.get(cell..cell + 2) {
            Some(&[start, end]) => &self.cell_relations[start as usize..end as usize],
            _ => &[],
        }
    }

    /// The cells that share a side with `cell`.
    #[inline]
    pub(crate) fn side_neighbours(&self, cell: usize) -> impl Iterator<Item = usize> {
        let (side, row, col) = (self.side, cell / self.side, cell % self.side);
        let up = (row > 0).then(|| cell - side);
        let down = (row + 1 < side).then(|| cell + side);
        let left = (col > 0).then(|| cell - 1);
        let right = (col + 1 < side).then(|| cell + 1);
        [up, left, right, down].into_iter().flatten()
    }

    /// The digits that cannot share a side with `bit`'s digit under the
    /// non-consecutive rule: the one below it and the one above it.
    #[inline]
    pub(crate) fn consecutive_to(&self, bit: u32) -> u32 {
        ((bit << 1) | (bit >> 1)) & self.full
    }

    /// [`Geometry::from_parts`], with the units' kinds and their cells,
    /// `side` cells a unit one after another.
    fn from_units(
        shape: Shape,
        kinds: Vec<Region>,
        unit_cells: Vec<u16>,
        cages: Vec<Cage>,
        distinct: Vec<Vec<u16>>,
    ) -> Geometry {
        let side = shape.side();
        let cells = side * side;
        let units = || unit_cells.chunks_exact(side);
        // The units of each cell with its place in each, in unit order.
        let (memberships, membership_start) = by_cell(
            cells,
            units().enumerate().flat_map(|(unit, members)| {
                members.iter().enumerate().map(move |(place, &cell)| {
                    let place = u8::try_from(place).expect("at most 25 cells a unit");
                    (usize::from(cell), Membership { unit: to_u16(unit), place })
                })
            }),
        );
        let member_of =
            |cell: usize| &memberships[membership_start[cell] as usize..membership_start[cell + 1] as usize];
        let (peers, peer_start) = peer_lists(cells, side, &unit_cells, &cages, &distinct, &member_of);
        let (mut meetings, mut meeting_start, mut widest_meeting) = (Vec::new(), vec![0], Vec::new());
        // For the unit at hand, the places of the cells it shares with each
        // other unit: in it, and in the other.
        let mut shared = vec![(0u32, 0u32); kinds.len()];
        let mut met: Vec<usize> = Vec::new();
        for a in units() {
            met.clear();
            for (k, &cell) in a.iter().enumerate() {
                for m in member_of(usize::from(cell)) {
                    let j = usize::from(m.unit);
                    if shared[j] == (0, 0) {
                        met.push(j);
                    }
                    shared[j].0 |= 1 << k;
                    shared[j].1 |= 1 << m.place;
                }
            }
            met.sort_unstable();
            let mut widest = 0;
            for &j in &met {
                let (mine, theirs) = std::mem::take(&mut shared[j]);
                // The unit itself, or another with the same cells.
                if unit_cells[j * side..][..side] == *a {
                    continue;
                }
                if mine.count_ones() >= 2 {
                    meetings.push(Meeting { shared: mine, other: to_u16(j), other_shared: theirs });
                    widest = widest.max(mine.count_ones());
                }
            }
            meeting_start.push(u32::try_from(meetings.len()).expect("fewer than 2^32 meetings"));
            widest_meeting.push(u8::try_from(widest).expect("at most 25 cells a unit"));
        }
        let implied = implied_sums(side, &unit_cells, &member_of, &cages);
        let (cell_cages, cell_cage_start) = if cages.is_empty() {
            (Vec::new(), Vec::new())
        } else {
            by_cell(
                cells,
                cages.iter().chain(implied.iter().map(|i| &i.cage)).enumerate().flat_map(|(k, cage)| {
                    let k = u16::try_from(k).expect("fewer than 65,536 cages");
                    cage.cells.iter().map(move |&cell| (usize::from(cell), k))
                }),
            )
        };
        let mut cage_word_start = Vec::new();
        if !cages.is_empty() {
            let mut end = 0;
            cage_word_start.push(end);
            for cage in cages.iter().chain(implied.iter().map(|i| &i.cage)) {
                end += u32::try_from(cage.combinations.len().div_ceil(64)).expect("fewer than 2^32 words");
                cage_word_start.push(end);
            }
        }
        Geometry {
            shape,
            side,
            cells,
            full: (1 << side) - 1,
            meetings,
            meeting_start,
            widest_meeting,
            unit_cells,
            kinds,
            peers,
            peer_start,
            memberships,
            membership_start,
            implied,
            cages,
            distinct,
            non_consecutive: false,
            cell_cages,
            cell_cage_start,
            cage_word_start,
            relations: Vec::new(),
            cell_relations: Vec::new(),
            cell_relation_start: Vec::new(),
            line_rules: Vec::new(),
            linear: Vec::new(),
            cell_line_rules: Vec::new(),
            cell_line_rule_start: Vec::new(),
            allowed: Vec::new(),
        }
    }

    /// The units with their kinds and the cages with their sums, each
    /// with its cells sorted, in sorted order: what two equal geometries
    /// share whatever order they were built in.
    fn sorted_parts(&self) -> SortedParts {
        let mut units: Vec<(u8, Vec<u16>)> = self
            .kinds
            .iter()
            .zip(self.units())
            .map(|(&kind, cells)| {
                let mut cells = cells.to_vec();
                cells.sort_unstable();
                (kind as u8, cells)
            })
            .collect();
        units.sort_unstable();
        let mut cages: Vec<(Vec<u16>, usize)> = self
            .cages
            .iter()
            .map(|cage| {
                let mut cells = cage.cells.clone();
                cells.sort_unstable();
                (cells, cage.sum)
            })
            .collect();
        cages.sort_unstable();
        (units, cages)
    }

    /// A key that orders geometries, equal for equal ones: the shape, the
    /// sorted regions and cages, then every other rule as kept.
    pub(crate) fn order_key(&self) -> impl Ord + std::hash::Hash + use<> {
        let shape = &self.shape;
        (
            (shape.side(), shape.box_rows(), shape.box_cols(), shape.has_boxes(), shape.has_diagonals()),
            self.sorted_parts(),
            self.distinct.clone(),
            self.non_consecutive,
            self.relations.clone(),
            self.line_rules.clone(),
            self.allowed.clone(),
        )
    }

    /// Whether the shape's boxes are among the regions (not a jigsaw map,
    /// and not a Latin square), so that a grid may show them.
    pub(crate) fn has_boxes(&self) -> bool {
        self.kinds.contains(&Region::Box)
    }

    pub(crate) fn cage_list(&self) -> Vec<(usize, Vec<usize>)> {
        self.cages.iter().map(|cage| (cage.sum, cage.cells.iter().map(|&c| usize::from(c)).collect())).collect()
    }

    /// Every unit with its kind.
    pub(crate) fn unit_list(&self) -> Vec<(Region, Vec<usize>)> {
        self.kinds
            .iter()
            .zip(self.units())
            .map(|(&kind, unit)| (kind, unit.iter().map(|&c| usize::from(c)).collect()))
            .collect()
    }

    /// The cages, given and implied, that hold `cell`: none on a board
    /// without cages.
    #[inline]
    pub(crate) fn cages_of(&self, cell: usize) -> &[u16] {
        match self.cell_cage_start.get(cell..cell + 2) {
            Some(&[start, end]) => &self.cell_cages[start as usize..end as usize],
            _ => &[],
        }
    }

    /// Whether there are killer cages.
    #[inline]
    pub(crate) fn has_cages(&self) -> bool {
        !self.cages.is_empty()
    }

    /// The number of cages, given and implied.
    pub(crate) fn all_cages(&self) -> usize {
        self.cages.len() + self.implied.len()
    }

    /// Cage `k` of [`Geometry::cages_of`]'s numbering.
    pub(crate) fn cage(&self, k: usize) -> &Cage {
        self.cages.get(k).unwrap_or_else(|| &self.implied[k - self.cages.len()].cage)
    }

    /// The words of cage `k`'s sets in a board's record of the sets each
    /// cage may still take.
    pub(crate) fn cage_words(&self, k: usize) -> Range<usize> {
        self.cage_word_start[k] as usize..self.cage_word_start[k + 1] as usize
    }

    /// A record of the sets each cage may still take with every set in it,
    /// as an empty board starts.
    pub(crate) fn every_cage_set(&self) -> Vec<u64> {
        let mut record = vec![0; self.cage_word_start.last().map_or(0, |&end| end as usize)];
        for k in 0..self.all_cages() {
            self.put_every_set(k, &mut record);
        }
        record
    }

    /// Puts every set of cage `k` back into `record`.
    pub(crate) fn put_every_set(&self, k: usize, record: &mut [u64]) {
        let words = &mut record[self.cage_words(k)];
        words.fill(u64::MAX);
        let sets = self.cage(k).combinations.len();
        if let (Some(last), 1..) = (words.last_mut(), sets % 64) {
            *last = (1 << (sets % 64)) - 1;
        }
    }

    pub(crate) fn peers(&self, cell: usize) -> &[u16] {
        &self.peers[self.peer_start[cell] as usize..self.peer_start[cell + 1] as usize]
    }

    /// The units that `cell` is in, with its place in each.
    #[inline]
    pub(crate) fn memberships(&self, cell: usize) -> &[Membership] {
        &self.memberships[self.membership_start[cell] as usize..self.membership_start[cell + 1] as usize]
    }

    /// The regions that share two cells or more with `unit`.
    #[inline]
    pub(crate) fn meetings(&self, unit: usize) -> &[Meeting] {
        &self.meetings[self.meeting_start[unit] as usize..self.meeting_start[unit + 1] as usize]
    }

    /// The most cells that `unit` shares with another region.
    #[inline]
    pub(crate) fn widest_meeting(&self, unit: usize) -> u32 {
        u32::from(self.widest_meeting[unit])
    }

    /// The `place`-th cell of unit `unit`.
    #[inline]
    pub(crate) fn unit_cell(&self, unit: usize, place: usize) -> usize {
        usize::from(self.unit_cells[unit * self.side + place])
    }

    pub(crate) fn units(&self) -> std::slice::ChunksExact<'_, u16> {
        self.unit_cells.chunks_exact(self.side)
    }

    /// The region kind of unit `index` (in the order of [`Geometry::units`]).
    pub(crate) fn region(&self, index: usize) -> Region {
        self.kinds[index]
    }

    /// The region that two peers share (the first one, in unit order),
    /// else their cage, else their group of distinct digits.
    pub(crate) fn shared_region(&self, a: usize, b: usize) -> Region {
        let (a, b) = (to_u16(a), to_u16(b));
        let both = |cells: &[u16]| cells.contains(&a) && cells.contains(&b);
        match self.units().position(both) {
            Some(i) => self.region(i),
            None if self.cages.iter().any(|cage| both(&cage.cells)) => Region::Cage,
            None => Region::Distinct,
        }
    }

    /// The number of units.
    pub(crate) fn unit_count(&self) -> usize {
        self.kinds.len()
    }
}

fn to_u16(cell: usize) -> u16 {
    u16::try_from(cell).expect("at most 625 cells")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nine_has_twenty_peers_and_twenty_seven_units() {
        let g = Shape::NINE.geometry();
        assert_eq!(g.unit_count(), 27);
        assert!((0..81).all(|c| g.peers(c).len() == 20));
    }

    #[test]
    fn diagonals_add_peers_only_on_the_diagonals() {
        let g = Shape::NINE.with_diagonals().geometry();
        assert_eq!(g.unit_count(), 29);
        assert_eq!(g.peers(0).len(), 20 + 6); // the main diagonal adds 8, two already peers
        assert_eq!(g.peers(40).len(), 20 + 12); // the centre is on both
        assert_eq!(g.peers(1).len(), 20);
    }

    #[test]
    fn boxes_of_two_by_three_tile_the_six_board() {
        let g = Shape::new(2, 3).geometry();
        let boxes: Vec<&[u16]> = g.units().skip(12).collect();
        assert_eq!(boxes[0], [0, 1, 2, 6, 7, 8]);
        assert_eq!(boxes[1], [3, 4, 5, 9, 10, 11]);
        assert_eq!(boxes[5], [27, 28, 29, 33, 34, 35]);
    }

    #[test]
    fn the_table_of_digit_sets_lists_what_the_search_finds_in_its_order() {
        for side in [4, 6, 9, 12, 16] {
            let table = sets_of_digits(side).expect("a table up to 16");
            let mut listed = 0;
            for size in 0..=side + 1 {
                for sum in 0..=side * (side + 1) / 2 + 2 {
                    let found = sets_adding_up_to(size, sum, side);
                    assert_eq!(table.of(size, sum), found.as_slice(), "side {side}, {size} digits adding up to {sum}");
                    listed += found.len();
                }
            }
            // Every set of digits is in one group: 2^side of them.
            assert_eq!(listed, 1 << side);
        }
        assert!(sets_of_digits(20).is_none());
    }

    #[test]
    fn from_side_prefers_square_then_closest_factors() {
        let got: Vec<(usize, Option<(usize, usize)>)> = [4, 6, 7, 8, 9, 10, 12, 15, 16, 20, 25, 26]
            .into_iter()
            .map(|s| (s, Shape::from_side(s).map(|sh| (sh.box_rows(), sh.box_cols()))))
            .collect();
        assert_eq!(
            got,
            [
                (4, Some((2, 2))),
                (6, Some((2, 3))),
                (7, None),
                (8, Some((2, 4))),
                (9, Some((3, 3))),
                (10, Some((2, 5))),
                (12, Some((3, 4))),
                (15, Some((3, 5))),
                (16, Some((4, 4))),
                (20, Some((4, 5))),
                (25, Some((5, 5))),
                (26, None),
            ]
        );
    }
}
