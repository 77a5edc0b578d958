//! Reading and writing puzzles in every supported text format.
//!
//! [`str::parse`] and [`Parser`] read, detecting the format:
//!
//! | format | example | empty cells |
//! |---|---|---|
//! | one line, optional trailing comment after whitespace | `..3.2.6..9..3.5..1...  # easy` | `.` `0` `_` |
//! | grid with `\|` and `------+------` separators | `0 0 3 \| 0 2 0 \| 6 0 0` | `.` `0` `_` |
//! | digits and `_` separated by spaces, a row per line | `_ _ 3 _ 2 _ 6 _ _` | `.` `0` `_` |
//! | nested matrix (JSON, Python or Ruby arrays) | `[[3, null, 6, ...], ...]` | `null` `nil` `0` |
//! | JSON object with the puzzle as one line, and its rules | `{"puzzle": "..3.2.6..", "rules": ["windoku"]}` | `.` `0` `_` |
//! | an f-puzzles puzzle: its JSON, or its link | `{"size": 9, "grid": [[{"value": 3, "given": true}, {}, ...]]}`, `https://f-puzzles.com/?load=...` | `{}` |
//!
//! A JSON object may span lines, and may end with a comma, as an element of
//! an array written with an element to a line or more; the layout keeps
//! both. (The command line cuts arrays into their objects itself, and hands
//! each over without the comma.)
//!
//! An f-puzzles puzzle is translated into this crate's JSON object, rules
//! and all; a constraint these rules cannot express is an error that names
//! it (see the README's "Puzzles from f-puzzles").
//!
//! Lines starting with `#` are comments. `0` means empty on boards up to
//! 9x9; larger boards use `1-9` then `A-Z` and `.` or `_` for empty, or the
//! hexadecimal `0-F` convention on 16x16 when [`Parser::hex`] asks for it.
//!
//! A [`Layout`] remembers how a puzzle was written, so that its solution can
//! be printed the same way.

mod cages_json;
mod error;
mod f_puzzles;
mod layout;
mod parse;

use std::fmt;

pub use error::ParseError;
pub use f_puzzles::FPuzzlesError;
pub use layout::{Layout, LayoutKind};
pub use parse::{Parser, RULE_NAMES};

use itertools::Itertools;

use crate::board::{Board, Rules, RulesError, Shape};

/// `board` as f-puzzles saves a puzzle: JSON with its digits as givens
/// and its rules as f-puzzles' constraints, which reads back as the same
/// board and rules.
///
/// # Errors
///
/// A rule f-puzzles has no constraint for: a relation other than a
/// thermometer step, a Kropki dot or an X or V, or digits restricted
/// other than to the even or the odd ones.
///
/// ```
/// use lazydoku::format::f_puzzles_json;
/// use lazydoku::{Board, Rules, Shape};
///
/// let killer = Rules::new(Shape::new(2, 2)).with_cage(3, &[0, 1])?.parse("1...............")?;
/// let json = f_puzzles_json(&killer)?;
/// assert!(json.starts_with(r#"{"size":4,"grid":[[{"value":1,"given":true},{},{},{}],"#));
/// assert!(json.ends_with(r#""killercage":[{"cells":["R1C1","R1C2"],"value":"3"}]}"#));
/// assert_eq!(json.parse::<Board>()?, killer);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn f_puzzles_json(board: &Board) -> Result<String, FPuzzlesError> {
    f_puzzles::write(board).map_err(FPuzzlesError)
}

/// A link that opens `board` in f-puzzles: [`f_puzzles_json`], compressed
/// as f-puzzles compresses it, after `https://f-puzzles.com/?load=`. It
/// reads back as the same board and rules.
///
/// # Errors
///
/// As [`f_puzzles_json`].
///
/// ```
/// use lazydoku::format::f_puzzles_link;
/// use lazydoku::{Board, Rules, Shape};
///
/// let windoku = Rules::new(Shape::NINE).with_windows().parse(&".".repeat(81))?.solve().expect("a grid");
/// let link = f_puzzles_link(&windoku)?;
/// assert!(link.starts_with("https://f-puzzles.com/?load=N4Ig"));
/// assert_eq!(link.parse::<Board>()?, windoku);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn f_puzzles_link(board: &Board) -> Result<String, FPuzzlesError> {
    f_puzzles_json(board).map(|json| format!("https://f-puzzles.com/?load={}", f_puzzles::compress(&json)))
}

/// Writes the text of a board as a grid: cells separated by spaces, `|`
/// between boxes, `-` and `+` between bands of boxes. Without `boxes` (a
/// jigsaw map, whose regions no line can follow, or a Latin square) the
/// cells alone.
pub(crate) fn write_grid(f: &mut impl fmt::Write, shape: Shape, boxes: bool, text: &[u8]) -> fmt::Result {
    let side = shape.side();
    let (br, bc) = if boxes { (shape.box_rows(), shape.box_cols()) } else { (side, side) };
    let rule = (0..side / bc)
        .map(|b| {
            let width = 2 * bc + usize::from(b != 0 && b + 1 != side / bc);
            "-".repeat(width)
        })
        .join("+");
    for (r, row) in text.chunks(side).enumerate() {
        if r != 0 && r % br == 0 {
            writeln!(f, "{rule}")?;
        }
        for (c, &byte) in row.iter().enumerate() {
            if c != 0 {
                f.write_str(if c % bc == 0 { " | " } else { " " })?;
            }
            f.write_char(char::from(byte))?;
        }
        f.write_char('\n')?;
    }
    Ok(())
}

// The board's text formats live here, beside the parser, so that the board
// module needs nothing from this one.
impl Board {
    /// Parses `text` as a board of `shape`, in any format [`str::parse`]
    /// accepts: shorthand for `Parser::new().shape(shape).parse(text)`,
    /// keeping the board. [`Parser`] has the other options.
    ///
    /// # Errors
    ///
    /// A [`ParseError`] when the text is not a puzzle of
    /// this shape, or when its givens break a rule.
    ///
    /// ```
    /// use lazydoku::{Board, Shape};
    ///
    /// let six = Board::parse_with("1.....\n......\n......\n......\n......\n.....1", Shape::new(2, 3))?;
    /// assert_eq!(six.shape(), Shape::new(2, 3));
    /// # Ok::<(), lazydoku::ParseError>(())
    /// ```
    pub fn parse_with(text: &str, shape: Shape) -> Result<Board, ParseError> {
        Parser::new().shape(shape).parse(text).map(|(board, _)| board)
    }
}

/// A cage of a cage map: its label, where the label was first seen, its
/// cells and its sum once read.
struct MapCage {
    label: char,
    at: (usize, usize),
    cells: Vec<usize>,
    sum: Option<usize>,
}

impl Rules {
    /// The killer cages as a cage map on one line, then each label's sum:
    /// the text [`Rules::with_cage_map`] reads back. Labels are `a` to `z`,
    /// `A` to `Z`, `0` to `9`, then characters from U+00C0 on, in the order
    /// the cages' first cells come; `.` marks a cell in no cage. `None`
    /// without cages.
    ///
    /// ```
    /// use lazydoku::{Rules, Shape};
    ///
    /// let killer = Rules::new(Shape::new(2, 2)).with_cage(7, &[15, 14])?.with_cage(3, &[0, 1])?;
    /// let map = killer.cage_map().expect("two cages");
    /// assert_eq!(map, "aa............bb a=3 b=7");
    /// assert_eq!(Rules::new(Shape::new(2, 2)).with_cage_map(&map)?, killer);
    /// assert_eq!(Rules::new(Shape::new(2, 2)).cage_map(), None);
    /// # Ok::<(), lazydoku::RulesError>(())
    /// ```
    #[must_use]
    pub fn cage_map(&self) -> Option<String> {
        let mut cages: Vec<(usize, Vec<usize>)> = self.cages().collect();
        if cages.is_empty() {
            return None;
        }
        cages.sort_unstable_by_key(|(_, cells)| cells.iter().min().copied());
        let label = |number: usize| -> char {
            const FIRST: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
            FIRST.get(number).map_or_else(
                // From U+00C0 on, as many code points as the largest board
                // has cells are all printable, none of them whitespace.
                || u32::try_from(number - FIRST.len() + 0xC0).ok().and_then(char::from_u32).unwrap_or('?'),
                |&byte| char::from(byte),
            )
        };
        let mut map = vec!['.'; self.shape().cells()];
        for (number, (_, cells)) in cages.iter().enumerate() {
            for &cell in cells {
                map[cell] = label(number);
            }
        }
        let map: String = map.into_iter().collect();
        let sums = cages.iter().enumerate().map(|(number, (sum, _))| format!(" {}={sum}", label(number)));
        Some(std::iter::once(map).chain(sums).collect())
    }

    /// Reads a puzzle played by these rules, in any format [`str::parse`]
    /// accepts, its size fixed by the rules.
    ///
    /// # Errors
    ///
    /// A [`ParseError`] when the text is not a puzzle of this size, or when
    /// two givens repeat a digit in one of the rules' regions.
    ///
    /// ```
    /// use lazydoku::{ParseError, Region, Rules, Shape};
    ///
    /// let windoku = Rules::new(Shape::new(2, 2)).with_windows();
    /// let board = windoku.parse("1... .... .... ....")?;
    /// assert_eq!(board.rules(), windoku);
    /// // 1 at row 2, column 2 and again at row 3, column 3: both in the window.
    /// let err = windoku.parse(".... .1.. ..1. ....").unwrap_err();
    /// assert!(matches!(err, ParseError::Repeated { region: Region::Window, .. }), "{err}");
    /// # Ok::<(), ParseError>(())
    /// ```
    pub fn parse(&self, text: &str) -> Result<Board, ParseError> {
        Parser::new().parse_with_rules(text, self).map(|(board, _)| board)
    }

    /// These rules with the killer cages of a cage map: one label per cell,
    /// row by row (any character but whitespace, `#` and `=`; `.` for a
    /// cell in no cage), then each label's sum as `label=sum`, in any
    /// order, on lines of their own. Blank lines and lines starting with
    /// `#` are skipped.
    ///
    /// # Errors
    ///
    /// [`RulesError::CageMap`] with the line and column: a map with the
    /// wrong number of cells, a sum that is no number, a label without a
    /// sum or a sum without cells, or a cage the rules refuse (an
    /// impossible sum, more cells than digits, a cell shared with a cage
    /// already there).
    ///
    /// ```
    /// use lazydoku::{Board, Rules, Shape};
    ///
    /// // Cells 0 and 1 add up to 3; cells 14 and 15 to 7.
    /// let killer = Rules::new(Shape::new(2, 2)).with_cage_map("
    ///     a a . .
    ///     . . . .
    ///     . . . .
    ///     . . b b
    ///     a=3 b=7")?;
    /// assert_eq!(killer.cages().collect::<Vec<_>>(), [(3, vec![0, 1]), (7, vec![14, 15])]);
    /// let err = Rules::new(Shape::new(2, 2)).with_cage_map("aa.. .... .... ..bb a=3 b=x").unwrap_err();
    /// assert_eq!(err.to_string(), "line 1, column 25: \"b=x\": a sum is a whole number, as b=12");
    /// # Ok::<(), lazydoku::RulesError>(())
    /// ```
    pub fn with_cage_map(self, text: &str) -> Result<Rules, RulesError> {
        let error = |line: usize, column: usize, reason: String| RulesError::CageMap { line, column, reason };
        let cells = self.shape().cells();
        let mut cages: Vec<MapCage> = Vec::new();
        // The cage of each ASCII label, found without a search: a map has a
        // label a cell, and a 9x9 one some thirty cages.
        let mut ascii_cage = [usize::MAX; 128];
        let find = |cages: &[MapCage], ascii_cage: &[usize; 128], label: char| match ascii_cage.get(label as usize) {
            Some(&k) => (k != usize::MAX).then_some(k),
            None => cages.iter().position(|cage| cage.label == label),
        };
        let mut count = 0;
        let mut last_line = 1;
        for (number, line) in text.lines().enumerate().map(|(i, l)| (i + 1, l)) {
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            last_line = number;
            // The byte after the last token: where the next one is looked for.
            let mut offset = 0;
            for token in line.split_whitespace() {
                let start = line[offset..].find(token).map_or(offset, |i| offset + i);
                offset = start + token.len();
                let at = line[..start].chars().count() + 1;
                if let Some((label, sum)) = token.split_once('=') {
                    let mut chars = label.chars();
                    let (Some(label), None) = (chars.next(), chars.next()) else {
                        return Err(error(number, at, format!("{token:?}: a sum names one label, as a=12")));
                    };
                    let sum: usize = sum
                        .parse()
                        .map_err(|_| error(number, at, format!("{token:?}: a sum is a whole number, as {label}=12")))?;
                    match find(&cages, &ascii_cage, label).map(|k| &mut cages[k]) {
                        Some(cage) if cage.sum.is_none() => cage.sum = Some(sum),
                        Some(_) => return Err(error(number, at, format!("'{label}' has two sums"))),
                        None => return Err(error(number, at, format!("'{label}' has a sum but no cells in the map"))),
                    }
                    continue;
                }
                for (offset, label) in token.chars().enumerate() {
                    if count == cells {
                        return Err(error(number, at + offset, format!("the map has more than {cells} cells")));
                    }
                    if label != '.' {
                        if let Some(k) = find(&cages, &ascii_cage, label) {
                            cages[k].cells.push(count);
                        } else {
                            if let Some(slot) = ascii_cage.get_mut(label as usize) {
                                *slot = cages.len();
                            }
                            // Room for most cages' cells: growing from one
                            // cell took two more allocations a cage.
                            let mut cells = Vec::with_capacity(5);
                            cells.push(count);
                            cages.push(MapCage { label, at: (number, at + offset), cells, sum: None });
                        }
                    }
                    count += 1;
                }
            }
        }
        if count != cells {
            return Err(error(
                last_line,
                1,
                format!("the map has {}; the board has {cells}", crate::board::Counted(count, "cell")),
            ));
        }
        // The cages before the first without a sum are checked first, so
        // that the error reported is the first cage's in map order.
        let summed = cages.iter().position(|cage| cage.sum.is_none()).unwrap_or(cages.len());
        let sums: Vec<(usize, Vec<usize>)> = cages[..summed]
            .iter_mut()
            .map(|cage| (cage.sum.unwrap_or_default(), std::mem::take(&mut cage.cells)))
            .collect();
        let rules = self.with_cages_numbered(sums).map_err(|(k, e)| {
            let MapCage { label, at: (line, column), .. } = cages[k];
            error(line, column, format!("cage '{label}': {e}"))
        })?;
        match cages.get(summed) {
            Some(&MapCage { label, at: (line, column), .. }) => {
                Err(error(line, column, format!("cage '{label}' has no sum; add {label}=SUM")))
            }
            None => Ok(rules),
        }
    }
}

impl Rules {
    /// These rules with the even and odd cells of a parity map (even-odd
    /// puzzles): one mark per cell, row by row, `e` for a cell that holds an
    /// even digit, `o` for an odd one and `.` for either, in either case.
    /// White space, and lines starting with `#`, are skipped, so the map
    /// can be one token or a grid. [`Rules::with_even`] and
    /// [`Rules::with_odd`] take the same cells as lists.
    ///
    /// # Errors
    ///
    /// [`RulesError::ParityMap`] with the line and column of a character
    /// that is no mark, or of a map with too many or too few marks; and
    /// the errors of [`Rules::with_allowed_digits`], as five even cells in
    /// one row of 9x9 ([`RulesError::TooFewDigits`]).
    ///
    /// ```
    /// use lazydoku::{Rules, Shape};
    ///
    /// let rules = Rules::new(Shape::new(2, 2)).with_parity_map("
    ///     e . . .
    ///     . . . .
    ///     . . . .
    ///     . . . o")?;
    /// assert_eq!(rules, Rules::new(Shape::new(2, 2)).with_even(&[0])?.with_odd(&[15])?);
    /// assert_eq!(rules.parity_map().as_deref(), Some("e..............o"));
    /// let err = Rules::new(Shape::new(2, 2)).with_parity_map("e... .x.. .... ....").unwrap_err();
    /// assert_eq!(err.to_string(), "line 1, column 7: 'x' is no mark of a parity map: e for even, o for odd, . for either");
    /// # Ok::<(), lazydoku::RulesError>(())
    /// ```
    pub fn with_parity_map(self, text: &str) -> Result<Rules, RulesError> {
        let error = |line: usize, column: usize, reason: String| RulesError::ParityMap { line, column, reason };
        let cells = self.shape().cells();
        let (mut even, mut odd) = (Vec::new(), Vec::new());
        let mut count = 0;
        // Where the map ends: a map cut short is reported there.
        let mut end = (1, 1);
        for (number, line) in text.lines().enumerate().map(|(i, l)| (i + 1, l)) {
            if line.trim_start().starts_with('#') {
                continue;
            }
            for (column, mark) in line.chars().enumerate().map(|(i, c)| (i + 1, c)) {
                if mark.is_whitespace() {
                    continue;
                }
                if count == cells {
                    return Err(error(number, column, format!("the map has more than {cells} marks, one per cell")));
                }
                match mark {
                    'e' | 'E' => even.push(count),
                    'o' | 'O' => odd.push(count),
                    '.' => {}
                    _ => {
                        let reason =
                            format!("{mark:?} is no mark of a parity map: e for even, o for odd, . for either");
                        return Err(error(number, column, reason));
                    }
                }
                count += 1;
                end = (number, column + 1);
            }
        }
        if count != cells {
            return Err(error(end.0, end.1, format!("the map has {count} marks; the board has {cells} cells")));
        }
        // Both kinds of marks at once: one copy of the rules, one check.
        let (even_digits, odd_digits, _) = parity_digits(self.shape().side());
        self.with_allowed_masks(
            even.into_iter().map(|cell| (cell, even_digits)).chain(odd.into_iter().map(|cell| (cell, odd_digits))),
        )
    }

    /// The even and odd cells as a parity map on one line, `e`, `o` or `.`
    /// for each cell: the text [`Rules::with_parity_map`] reads back. `None`
    /// when every cell may hold every digit, or when some cell's allowed
    /// digits ([`Rules::with_allowed_digits`]) are neither the even nor the
    /// odd ones, which a parity map cannot write.
    #[must_use]
    pub fn parity_map(&self) -> Option<String> {
        if !self.has_allowed_digits() {
            return None;
        }
        let (even, odd, all) = parity_digits(self.shape().side());
        (0..self.shape().cells())
            .map(|cell| match self.allowed_digits(cell).bits() {
                bits if bits == all => Some('.'),
                bits if bits == even => Some('e'),
                bits if bits == odd => Some('o'),
                _ => None,
            })
            .collect()
    }
}

/// The even digits, the odd digits and all digits of a board of `side`,
/// as digit bits (bit `k` for digit `k + 1`, so the even digits are the
/// odd bits).
fn parity_digits(side: usize) -> (u32, u32, u32) {
    let all = (1u32 << side) - 1;
    (all & 0xAAAA_AAAA, all & 0x5555_5555, all)
}

/// `{}` prints the one-line text; `{:#}` prints the grid with `|` between
/// boxes and `------+------` between bands. A jigsaw board, whose regions
/// no such line can follow, and a Latin square print their cells alone.
///
/// ```
/// use lazydoku::Board;
///
/// let board: Board = "1234341221434321".parse()?;
/// assert_eq!(board.to_string(), "1234341221434321");
/// assert_eq!(format!("{board:#}"), "1 2 | 3 4\n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | 2 1\n");
/// # Ok::<(), lazydoku::ParseError>(())
/// ```
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            write_grid(f, self.shape(), self.geometry().has_boxes(), self.text())
        } else {
            f.write_str(self.as_str())
        }
    }
}
