//! The symmetries of a board that keep every solution a solution: random
//! equivalents ([`Board::transformed`]) and the canonical form of a class
//! of equivalent boards ([`Board::canonical`]).
//!
//! On classic rules the symmetries are: permuting the bands (rows of
//! boxes), the rows within each band, the stacks (columns of boxes) and the
//! columns within each stack; transposing, when the boxes are square; and
//! relabelling the digits. On 9x9 that is 3,359,232 grid symmetries times
//! 9! relabellings.

use super::{Board, SYMBOLS, digit_of_symbol};
use crate::random::SplitMix64;

/// The largest side whose canonical form is computed: the search below
/// visits every symmetry that keeps the board as small as the best found
/// so far, which on a board with many symmetries (the empty board, say) is
/// every symmetry of the group, and past 9x9 the group is too large for that.
const LARGEST_CANONICAL_SIDE: usize = 9;

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
    /// disguise a puzzle.
    ///
    /// On classic rules any symmetry of the group above may be applied. On
    /// other rules without cages (jigsaw, X, windoku, extra regions), only
    /// the digits are relabelled, as moving cells would move the regions;
    /// on killer rules, where relabelling changes sums, the board comes back
    /// unchanged.
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
        if rules.cages().next().is_some() {
            return self.clone();
        }
        let side = self.shape().side();
        let mut random = SplitMix64::new(seed);
        let mut labels: Vec<u8> = (1..=u8::try_from(side).unwrap_or(0)).collect();
        random.shuffle(&mut labels);
        let source = digits_of(self);
        let (rows, columns, transpose) = if has_classic_symmetries(self) {
            let shape = self.shape();
            let rows = grouped_permutation(&mut random, side, shape.box_rows());
            let columns = grouped_permutation(&mut random, side, shape.box_cols());
            // A Latin square's rows and columns trade places as square boxes do.
            let transpose = (shape.box_rows() == shape.box_cols() || !shape.has_boxes()) && random.below(2) == 1;
            (rows, columns, transpose)
        } else {
            ((0..side).collect(), (0..side).collect(), false)
        };
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

    /// The canonical form of this board: of every board equivalent to it
    /// under the symmetries of its rules (see [`Board::transformed`]), the
    /// one whose text is smallest, reading an empty cell as smaller than
    /// any digit and relabelling digits in the order they first appear.
    /// Two boards are equivalent exactly when their canonical forms are
    /// equal.
    ///
    /// `None` for boards whose group is not searched: rules other than the
    /// classic ones (jigsaw, X, windoku, killer), Latin squares, and sides
    /// above 9, where a board with many symmetries would take too long.
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
    #[must_use]
    pub fn canonical(&self) -> Option<Board> {
        let search = Canonical::search(self)?;
        let mut board = Board::empty_with(&self.rules());
        for (cell, &digit) in search.best.iter().enumerate() {
            if digit != 0 {
                board.put_given(cell, 1 << (digit - 1));
            }
        }
        Some(board)
    }

    /// The number of grid symmetries (each with the relabelling it needs)
    /// that map this board to itself: 1 for most puzzles, and the size of
    /// the whole group for the empty board. `None` where
    /// [`Board::canonical`] is `None`.
    #[must_use]
    pub fn automorphisms(&self) -> Option<u64> {
        Canonical::search(self).map(|search| search.automorphisms)
    }
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

/// The search for the smallest equivalent board: branch and bound over the
/// rows of the output, the columns fixed by the first row.
struct Canonical {
    side: usize,
    band: usize,
    stack: usize,
    /// The smallest output so far, row by row; rows from `valid` on are
    /// not yet known.
    best: Vec<u8>,
    valid: usize,
    /// The symmetries found that give `best`.
    automorphisms: u64,
}

/// The board in one orientation, and the column order being tried.
struct Oriented<'a> {
    grid: &'a [u8],
    columns: [usize; LARGEST_CANONICAL_SIDE],
    /// How many digits each stack of the first row holds.
    fill: [usize; LARGEST_CANONICAL_SIDE],
    /// The same, sorted: the fill of each output stack.
    sorted_fill: [usize; LARGEST_CANONICAL_SIDE],
    first_row: usize,
}

impl Canonical {
    fn search(board: &Board) -> Option<Canonical> {
        let shape = board.shape();
        let side = shape.side();
        // A Latin square's group moves every row and column alone: another search.
        if !has_classic_symmetries(board) || side > LARGEST_CANONICAL_SIDE || !shape.has_boxes() {
            return None;
        }
        let (band, stack) = (shape.box_rows(), shape.box_cols());
        let source = digits_of(board);
        let mut orientations = vec![source.clone()];
        if band == stack {
            orientations.push((0..side * side).map(|cell| source[(cell % side) * side + cell / side]).collect());
        }
        let mut search = Canonical { side, band, stack, best: vec![0; side * side], valid: 0, automorphisms: 0 };
        // The first row is a row, in either orientation, whose best
        // arrangement has its digits latest: its stacks by how many digits
        // they hold, fewest first, and the empty cells first in each.
        let stacks = side / stack;
        let mut first_rows = Vec::new();
        for grid in &orientations {
            for row in 0..side {
                let mut fill = [0; LARGEST_CANONICAL_SIDE];
                for (s, f) in fill.iter_mut().enumerate().take(stacks) {
                    *f = (0..stack).filter(|&i| grid[row * side + s * stack + i] != 0).count();
                }
                let mut sorted_fill = fill;
                sorted_fill[..stacks].sort_unstable();
                let pattern: Vec<bool> =
                    sorted_fill[..stacks].iter().flat_map(|&f| (0..stack).map(move |i| i >= stack - f)).collect();
                first_rows.push((
                    pattern,
                    Oriented { grid, columns: [0; LARGEST_CANONICAL_SIDE], fill, sorted_fill, first_row: row },
                ));
            }
        }
        let smallest = first_rows.iter().map(|(pattern, _)| pattern).min()?.clone();
        for (pattern, mut oriented) in first_rows {
            if pattern == smallest {
                search.arrange_stacks(&mut oriented, 0, 0);
            }
        }
        Some(search)
    }

    /// Chooses the source stack of output stack `slot` (one whose first-row
    /// fill is that slot's), for each stack not in `taken` (a bit set).
    fn arrange_stacks(&mut self, board: &mut Oriented<'_>, slot: usize, taken: u32) {
        let stacks = self.side / self.stack;
        if slot == stacks {
            // Each stack's columns start as one class, in any order.
            let mut columns = Columns { order: [0; LARGEST_CANONICAL_SIDE], end: [0; LARGEST_CANONICAL_SIDE] };
            for (position, &column) in board.columns[..self.side].iter().enumerate() {
                columns.order[position] = column;
                columns.end[position] = (position / self.stack + 1) * self.stack;
            }
            let mut used = [false; LARGEST_CANONICAL_SIDE];
            self.place_row(board, 0, board.first_row, &mut used, [0; SYMBOLS.len()], 1, &columns);
            return;
        }
        for s in 0..stacks {
            if taken >> s & 1 == 0 && board.fill[s] == board.sorted_fill[slot] {
                for i in 0..self.stack {
                    board.columns[slot * self.stack + i] = s * self.stack + i;
                }
                self.arrange_stacks(board, slot + 1, taken | 1 << s);
            }
        }
    }

    /// Puts source row `row` at output row `at`, its columns ordered within
    /// each class of `columns` to make it smallest: empty cells first (still
    /// one class, for later rows to order), then digits already labelled, by
    /// label, then new digits in every order. Goes on with the rows after
    /// it, keeping what is no larger than the best so far.
    #[expect(clippy::too_many_arguments, reason = "the state of one step of the search")]
    fn place_row(
        &mut self,
        board: &Oriented<'_>,
        at: usize,
        row: usize,
        used: &mut [bool; LARGEST_CANONICAL_SIDE],
        labels: [u8; SYMBOLS.len()],
        next_label: u8,
        columns: &Columns,
    ) {
        let side = self.side;
        let digit = |column: usize| board.grid[row * side + column];
        let mut split = *columns;
        // For each place of a new digit, the columns it may be taken from.
        let mut choices = [0u32; LARGEST_CANONICAL_SIDE];
        let smaller = at >= self.valid;
        if (0..side).all(|p| columns.end[p] == p + 1) {
            // Every column decided: nothing to split or choose.
            self.fill_row(board, at, row, used, labels, next_label, &mut split, &choices, 0, 0, smaller);
            return;
        }
        let mut start = 0;
        while start < side {
            let end = columns.end[start];
            let members = &columns.order[start..end];
            let mut place = start;
            for &column in members.iter().filter(|&&c| digit(c) == 0) {
                split.order[place] = column;
                place += 1;
            }
            split.end[start..place].fill(place);
            let labelled_from = place;
            for &column in members.iter().filter(|&&c| digit(c) != 0 && labels[usize::from(digit(c))] != 0) {
                // Insertion by label: a class holds a few columns.
                let label = labels[usize::from(digit(column))];
                let mut at_place = place;
                while at_place > labelled_from && labels[usize::from(digit(split.order[at_place - 1]))] > label {
                    split.order[at_place] = split.order[at_place - 1];
                    at_place -= 1;
                }
                split.order[at_place] = column;
                place += 1;
            }
            for (offset, decided) in split.end[labelled_from..place].iter_mut().enumerate() {
                *decided = labelled_from + offset + 1;
            }
            let new = members
                .iter()
                .filter(|&&c| digit(c) != 0 && labels[usize::from(digit(c))] == 0)
                .fold(0u32, |m, &c| m | 1 << c);
            choices[place..end].fill(new);
            for (offset, decided) in split.end[place..end].iter_mut().enumerate() {
                *decided = place + offset + 1;
            }
            start = end;
        }
        self.fill_row(board, at, row, used, labels, next_label, &mut split, &choices, 0, 0, smaller);
    }

    /// Writes output row `at` from place `place` on, choosing the column of
    /// each new digit's place from `left` (the columns of its run not yet
    /// placed), and compares it with the best as it goes.
    #[expect(clippy::too_many_arguments, reason = "the state of one step of the search")]
    fn fill_row(
        &mut self,
        board: &Oriented<'_>,
        at: usize,
        row: usize,
        used: &mut [bool; LARGEST_CANONICAL_SIDE],
        mut labels: [u8; SYMBOLS.len()],
        mut next_label: u8,
        columns: &mut Columns,
        choices: &[u32; LARGEST_CANONICAL_SIDE],
        mut place: usize,
        mut left: u32,
        mut smaller: bool,
    ) {
        let side = self.side;
        let start = at * side;
        while place < side {
            if choices[place] != 0 {
                // The first place of a run of new digits starts with all of them.
                if place == 0 || choices[place - 1] != choices[place] {
                    left = choices[place];
                }
                if !self.keep(start + place, next_label, &mut smaller) {
                    return;
                }
                let mut options = left;
                // After the first option, the best holds this row up to
                // here: the others are compared with it, not written over it.
                let mut first = true;
                while options != 0 {
                    let column = options.trailing_zeros() as usize;
                    options &= options - 1;
                    let digit = usize::from(board.grid[row * side + column]);
                    let mut labels = labels;
                    labels[digit] = next_label;
                    columns.order[place] = column;
                    let mut chosen = *columns;
                    self.fill_row(
                        board,
                        at,
                        row,
                        used,
                        labels,
                        next_label + 1,
                        &mut chosen,
                        choices,
                        place + 1,
                        left & !(1 << column),
                        smaller && first,
                    );
                    first = false;
                }
                return;
            }
            let digit = board.grid[row * side + columns.order[place]];
            let value = if digit == 0 {
                0
            } else {
                let label = &mut labels[usize::from(digit)];
                if *label == 0 {
                    *label = next_label;
                    next_label += 1;
                }
                *label
            };
            if !self.keep(start + place, value, &mut smaller) {
                return;
            }
            place += 1;
        }
        if smaller {
            self.valid = at + 1;
            self.automorphisms = 0;
        }
        if at + 1 == side {
            // Columns still in one class are empty in every row: each order
            // of them gives this same board.
            let mut orders = 1;
            let mut p = 0;
            while p < side {
                orders *= (1..=(columns.end[p] - p) as u64).product::<u64>();
                p = columns.end[p];
            }
            self.automorphisms += orders;
            return;
        }
        used[row] = true;
        let next = at + 1;
        let band = self.band;
        if next % band == 0 {
            // A new band: any row of a band not used yet.
            for first in (0..side).step_by(band) {
                if !used[first..first + band].contains(&true) {
                    for candidate in first..first + band {
                        self.place_row(board, next, candidate, used, labels, next_label, columns);
                    }
                }
            }
        } else {
            let first = row / band * band;
            for candidate in first..first + band {
                if !used[candidate] {
                    self.place_row(board, next, candidate, used, labels, next_label, columns);
                }
            }
        }
        used[row] = false;
    }
}

impl Canonical {
    /// Compares `value`, at `index` of the output, with the best: `false`
    /// when the output is larger there (the branch is cut). Once smaller,
    /// the output is written over the best.
    fn keep(&mut self, index: usize, value: u8, smaller: &mut bool) -> bool {
        if !*smaller {
            match value.cmp(&self.best[index]) {
                std::cmp::Ordering::Greater => return false,
                std::cmp::Ordering::Less => *smaller = true,
                std::cmp::Ordering::Equal => {}
            }
        }
        if *smaller {
            self.best[index] = value;
        }
        true
    }
}

/// The column order of the output as far as the rows so far decide it:
/// the places `p..end[p]` hold columns that are alike in every row so far,
/// in any order (`end[p] == p + 1` for a decided place).
#[derive(Clone, Copy)]
struct Columns {
    order: [usize; LARGEST_CANONICAL_SIDE],
    end: [usize; LARGEST_CANONICAL_SIDE],
}

/// The text of `digits` (row-major, 0 for empty).
#[cfg(test)]
fn text_of(digits: &[u8]) -> String {
    digits.iter().map(|&d| SYMBOLS[usize::from(d)] as char).collect()
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
