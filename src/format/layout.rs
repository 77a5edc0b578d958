//! [`Layout`]: how a puzzle was written, to print its solution the same way.

use std::fmt;
use std::ops::Range;

use crate::board::{Board, Shape};

/// The family of a puzzle's text format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LayoutKind {
    /// One line, one character per cell.
    Line,
    /// A row per line, with or without spaces and separators.
    Grid,
    /// A nested matrix of numbers.
    Matrix,
    /// A JSON object whose `puzzle` member holds the cells on one line, with
    /// the rules in `regions`, `cages` and `rules` members, as `lazydoku
    /// generate --format json` writes it.
    Object,
}

/// How a puzzle was written: its text, with the place of every cell.
///
/// [`Layout::render`] writes any board of the same shape into that text, so
/// a solution comes back formatted as its puzzle was: the same separators,
/// spacing, comments, empty marks and symbol convention.
///
/// # Example
///
/// ```
/// use lazydoku::format::Parser;
///
/// let text = "[[1, null, null, null],\n [null, null, 1, null],\n [null, 1, null, null],\n [null, null, null, 1]]";
/// let (board, layout) = Parser::new().parse(text)?;
/// let solution = board.solve().expect("solvable");
/// assert_eq!(
///     layout.render(&solution),
///     "[[1, 3, 2, 4],\n [2, 4, 1, 3],\n [4, 1, 3, 2],\n [3, 2, 4, 1]]"
/// );
/// # Ok::<(), lazydoku::ParseError>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Layout {
    pub(crate) template: String,
    /// Byte range of each cell's token in `template`, in cell order.
    pub(crate) spans: Vec<Range<usize>>,
    /// Whether each cell's token in the template marks an empty cell.
    pub(crate) was_empty: Vec<bool>,
    /// The token that marks an empty cell, for cells that were given but are
    /// empty in the board being rendered.
    pub(crate) empty_token: String,
    pub(crate) kind: LayoutKind,
    pub(crate) shape: Shape,
    pub(crate) hex: bool,
    /// The rules the puzzle brought with it, as it wrote them.
    pub(crate) own: OwnRules,
}

/// The rules a puzzle brought with it, as written, for a writer to carry
/// with its solution; all empty for rules given apart.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct OwnRules {
    /// The region map.
    pub(crate) region_map: Option<String>,
    /// The cage map and its sums.
    pub(crate) cage_map: Option<String>,
    /// The parity map, as written after a line or under a grid, or as
    /// [`Rules::parity_map`](crate::Rules::parity_map) writes a JSON
    /// object's even and odd cells.
    pub(crate) parity_map: Option<String>,
    /// The names of the named rules, apart by commas.
    pub(crate) rule_names: Option<String>,
    /// A JSON object's extra regions, as it listed them.
    pub(crate) extra_regions: Vec<Vec<usize>>,
    /// A JSON object's groups of distinct digits, as it listed them.
    pub(crate) distinct_groups: Vec<Vec<usize>>,
    /// A JSON object's thermometers, as it listed them.
    pub(crate) thermometers: Vec<Vec<usize>>,
    /// A JSON object's relations between cells, as it listed them.
    pub(crate) relations: Vec<(usize, crate::Relation, usize)>,
    /// A JSON object's sums (total and cells), as it listed them.
    pub(crate) sums: Vec<(usize, Vec<usize>)>,
    /// A JSON object's arrows (circle and shaft), as it listed them.
    pub(crate) arrows: Vec<(Vec<usize>, Vec<usize>)>,
    /// A JSON object's sandwiches (sum and cells), as it listed them.
    pub(crate) sandwiches: Vec<(usize, Vec<usize>)>,
    /// A JSON object's X-sums (sum and cells), as it listed them.
    pub(crate) x_sums: Vec<(usize, Vec<usize>)>,
    /// A JSON object's skyscraper clues (clue and cells), as it listed them.
    pub(crate) skyscrapers: Vec<(usize, Vec<usize>)>,
    /// A JSON object's between lines, as it listed them.
    pub(crate) between_lines: Vec<Vec<usize>>,
    /// A JSON object's quadruples (cells and digits), as it listed them.
    pub(crate) quadruples: Vec<(Vec<usize>, Vec<u8>)>,
    /// A JSON object's renban lines, as it listed them.
    pub(crate) renbans: Vec<Vec<usize>>,
    /// A JSON object's region sum lines, zipper lines and double arrows,
    /// as it listed them.
    pub(crate) region_sum_lines: Vec<Vec<usize>>,
    pub(crate) zipper_lines: Vec<Vec<usize>>,
    pub(crate) double_arrows: Vec<Vec<usize>>,
    /// A JSON object's entropic and modular lines, as it listed them.
    pub(crate) entropic_lines: Vec<Vec<usize>>,
    pub(crate) modular_lines: Vec<Vec<usize>>,
    /// A JSON object's even cells and odd cells, as it listed them.
    pub(crate) even: Option<Vec<usize>>,
    pub(crate) odd: Option<Vec<usize>>,
}

impl Layout {
    /// The family of the format.
    #[must_use]
    pub fn kind(&self) -> LayoutKind {
        self.kind
    }

    /// The shape of the board that was read.
    #[must_use]
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The text as it was read.
    #[must_use]
    pub fn template(&self) -> &str {
        &self.template
    }

    /// The region map that came with the puzzle, after it on its line or
    /// on a `regions` line under its grid, as written; `None` when the
    /// puzzle brought none (rules given apart, to
    /// [`Parser::parse_with_rules`](crate::format::Parser::parse_with_rules),
    /// are not the puzzle's own). [`Layout::render`] writes it back in
    /// its place; a writer of another format can add it.
    ///
    /// ```
    /// use lazydoku::format::Parser;
    ///
    /// let (_, layout) = Parser::new().parse("1... .... .... .... aaabacbbccbdcddd")?;
    /// assert_eq!(layout.region_map(), Some("aaabacbbccbdcddd"));
    /// assert_eq!(layout.cage_map(), None);
    /// # Ok::<(), lazydoku::ParseError>(())
    /// ```
    #[must_use]
    pub fn region_map(&self) -> Option<&str> {
        self.own.region_map.as_deref()
    }

    /// The cage map and each cage's sum (`aabb... a=3 b=7 ...`) that came
    /// with the puzzle, as written; `None` when it brought none.
    #[must_use]
    pub fn cage_map(&self) -> Option<&str> {
        self.own.cage_map.as_deref()
    }

    /// The even and odd cells that came with the puzzle as a parity map
    /// (`parity:e...o` after a line, a `parity` line under a grid), its
    /// marks as one token, or as [`Rules::parity_map`](crate::Rules::parity_map)
    /// writes a JSON object's `even` and `odd` cells; `None` when it
    /// brought none. [`Layout::render`] writes it back in its place.
    ///
    /// ```
    /// use lazydoku::format::Parser;
    ///
    /// let (board, layout) = Parser::new().parse("1... .... .... .... parity:.e..............")?;
    /// assert_eq!(layout.parity_map(), Some(".e.............."));
    /// assert_eq!(board.rules().allowed_digits(1).iter().collect::<Vec<_>>(), [2, 4]);
    /// let solution = board.solve().expect("a solution");
    /// assert!(layout.render(&solution).ends_with(" parity:.e.............."));
    /// # Ok::<(), lazydoku::ParseError>(())
    /// ```
    #[must_use]
    pub fn parity_map(&self) -> Option<&str> {
        self.own.parity_map.as_deref()
    }

    /// The names of the rules that came with the puzzle and that no map
    /// gives, apart by commas (`anti-knight,non-consecutive`, as a
    /// one-line puzzle's `rules:` token takes them); `None` when it named
    /// none. The names are `diagonals`, `windoku`, `anti-knight`,
    /// `anti-king` and `non-consecutive`.
    ///
    /// ```
    /// use lazydoku::format::Parser;
    ///
    /// let (board, layout) = Parser::new().parse("1... .... .... .... rules:anti-knight")?;
    /// assert_eq!(layout.rule_names(), Some("anti-knight"));
    /// assert_eq!(board.rules(), lazydoku::Rules::new(lazydoku::Shape::new(2, 2)).with_anti_knight());
    /// # Ok::<(), lazydoku::ParseError>(())
    /// ```
    #[must_use]
    pub fn rule_names(&self) -> Option<&str> {
        self.own.rule_names.as_deref()
    }

    /// The extra regions that a puzzle written as a JSON object brought in
    /// its `extra_regions` member, as it listed them; empty when it brought
    /// none. No other format writes them, so a writer of JSON can add them.
    ///
    /// ```
    /// use lazydoku::format::Parser;
    ///
    /// let text = r#"{"puzzle": "1...............", "extra_regions": [[0, 5, 10, 15]], "distinct_groups": [[3, 12]]}"#;
    /// let (_, layout) = Parser::new().parse(text)?;
    /// assert_eq!(layout.extra_regions(), [vec![0, 5, 10, 15]]);
    /// assert_eq!(layout.distinct_groups(), [vec![3, 12]]);
    /// # Ok::<(), lazydoku::ParseError>(())
    /// ```
    #[must_use]
    pub fn extra_regions(&self) -> &[Vec<usize>] {
        &self.own.extra_regions
    }

    /// The groups of distinct digits that a puzzle written as a JSON object
    /// brought in its `distinct_groups` member, as it listed them; empty
    /// when it brought none.
    #[must_use]
    pub fn distinct_groups(&self) -> &[Vec<usize>] {
        &self.own.distinct_groups
    }

    /// The thermometers (bulb first) that a puzzle written as a JSON object
    /// brought in its `thermometers` member, as it listed them; empty when
    /// it brought none.
    ///
    /// ```
    /// use lazydoku::format::Parser;
    /// use lazydoku::Relation;
    ///
    /// let text = r#"{"puzzle": "................", "thermometers": [[0, 1, 2]],
    ///     "relations": [{"cells": [14, 15], "relation": "ratio", "value": 2}]}"#;
    /// let (board, layout) = Parser::new().parse(text)?;
    /// assert_eq!(layout.thermometers(), [vec![0, 1, 2]]);
    /// assert_eq!(layout.relations(), [(14, Relation::Ratio(2), 15)]);
    /// assert_eq!(board.rules().relations().count(), 3);
    /// # Ok::<(), lazydoku::ParseError>(())
    /// ```
    #[must_use]
    pub fn thermometers(&self) -> &[Vec<usize>] {
        &self.own.thermometers
    }

    /// The relations between cells that a puzzle written as a JSON object
    /// brought in its `relations` member, as it listed them; empty when it
    /// brought none.
    #[must_use]
    pub fn relations(&self) -> &[(usize, crate::Relation, usize)] {
        &self.own.relations
    }

    /// The sums (total and cells) that a puzzle written as a JSON object
    /// brought in its `sums` member, as it listed them; empty when it
    /// brought none.
    ///
    /// ```
    /// use lazydoku::format::Parser;
    ///
    /// let text = r#"{"puzzle": "................", "sums": [{"sum": 4, "cells": [0, 6, 9, 15]}],
    ///     "arrows": [{"circle": [3], "shaft": [6, 9]}]}"#;
    /// let (board, layout) = Parser::new().parse(text)?;
    /// assert_eq!(layout.sums(), [(4, vec![0, 6, 9, 15])]);
    /// assert_eq!(layout.arrows(), [(vec![3], vec![6, 9])]);
    /// let solution = board.solve().expect("a solution");
    /// assert_eq!(solution.get(3), Some(solution.get(6).unwrap() + solution.get(9).unwrap()));
    /// # Ok::<(), lazydoku::ParseError>(())
    /// ```
    #[must_use]
    pub fn sums(&self) -> &[(usize, Vec<usize>)] {
        &self.own.sums
    }

    /// The arrows (circle and shaft) that a puzzle written as a JSON object
    /// brought in its `arrows` member, as it listed them; empty when it
    /// brought none.
    #[must_use]
    pub fn arrows(&self) -> &[(Vec<usize>, Vec<usize>)] {
        &self.own.arrows
    }

    /// The sandwiches (sum and cells along a region) that a puzzle written
    /// as a JSON object brought in its `sandwiches` member, as it listed
    /// them; empty when it brought none.
    #[must_use]
    pub fn sandwiches(&self) -> &[(usize, Vec<usize>)] {
        &self.own.sandwiches
    }

    /// The X-sums (sum and cells from the clue's side) that a puzzle
    /// written as a JSON object brought in its `x_sums` member, as it
    /// listed them; empty when it brought none.
    #[must_use]
    pub fn x_sums(&self) -> &[(usize, Vec<usize>)] {
        &self.own.x_sums
    }

    /// The skyscraper clues (clue and cells from its side) that a puzzle
    /// written as a JSON object brought in its `skyscrapers` member, as it
    /// listed them; empty when it brought none.
    #[must_use]
    pub fn skyscrapers(&self) -> &[(usize, Vec<usize>)] {
        &self.own.skyscrapers
    }

    /// The between lines (ends first and last) that a puzzle written as a
    /// JSON object brought in its `between_lines` member, as it listed
    /// them; empty when it brought none.
    #[must_use]
    pub fn between_lines(&self) -> &[Vec<usize>] {
        &self.own.between_lines
    }

    /// The quadruples (cells and digits) that a puzzle written as a JSON
    /// object brought in its `quadruples` member, as it listed them; empty
    /// when it brought none.
    #[must_use]
    pub fn quadruples(&self) -> &[(Vec<usize>, Vec<u8>)] {
        &self.own.quadruples
    }

    /// The renban lines that a puzzle written as a JSON object brought in
    /// its `renbans` member, as it listed them; empty when it brought none.
    #[must_use]
    pub fn renbans(&self) -> &[Vec<usize>] {
        &self.own.renbans
    }

    /// The region sum lines that a puzzle written as a JSON object brought
    /// in its `region_sum_lines` member, as it listed them; empty when it
    /// brought none.
    #[must_use]
    pub fn region_sum_lines(&self) -> &[Vec<usize>] {
        &self.own.region_sum_lines
    }

    /// The zipper lines that a puzzle written as a JSON object brought in
    /// its `zipper_lines` member, as it listed them; empty when it brought
    /// none.
    #[must_use]
    pub fn zipper_lines(&self) -> &[Vec<usize>] {
        &self.own.zipper_lines
    }

    /// The double arrows that a puzzle written as a JSON object brought in
    /// its `double_arrows` member, as it listed them; empty when it brought
    /// none.
    #[must_use]
    pub fn double_arrows(&self) -> &[Vec<usize>] {
        &self.own.double_arrows
    }

    /// The entropic lines that a puzzle written as a JSON object brought in
    /// its `entropic_lines` member, as it listed them; empty when it
    /// brought none.
    #[must_use]
    pub fn entropic_lines(&self) -> &[Vec<usize>] {
        &self.own.entropic_lines
    }

    /// The modular lines that a puzzle written as a JSON object brought in
    /// its `modular_lines` member, as it listed them; empty when it brought
    /// none.
    #[must_use]
    pub fn modular_lines(&self) -> &[Vec<usize>] {
        &self.own.modular_lines
    }

    /// The cells that a puzzle written as a JSON object marked even in its
    /// `even` member ([`Rules::with_even`](crate::Rules::with_even)), as it
    /// listed them; `None` when it has no such member.
    ///
    /// ```
    /// use lazydoku::format::Parser;
    ///
    /// let text = r#"{"puzzle": "................", "even": [0, 5], "odd": [15]}"#;
    /// let (board, layout) = Parser::new().parse(text)?;
    /// assert_eq!(layout.even(), Some(&[0, 5][..]));
    /// assert_eq!(layout.odd(), Some(&[15][..]));
    /// assert_eq!(board.rules().allowed_digits(0).iter().collect::<Vec<_>>(), [2, 4]);
    /// # Ok::<(), lazydoku::ParseError>(())
    /// ```
    #[must_use]
    pub fn even(&self) -> Option<&[usize]> {
        self.own.even.as_deref()
    }

    /// The cells that a puzzle written as a JSON object marked odd in its
    /// `odd` member ([`Rules::with_odd`](crate::Rules::with_odd)), as it
    /// listed them; `None` when it has no such member.
    #[must_use]
    pub fn odd(&self) -> Option<&[usize]> {
        self.own.odd.as_deref()
    }

    /// `board` written the way the puzzle was.
    ///
    /// # Panics
    ///
    /// When the board's side differs from the layout's: a layout has a
    /// place for exactly as many cells as its puzzle had.
    #[must_use]
    pub fn render(&self, board: &Board) -> String {
        assert_eq!(board.shape().side(), self.shape.side(), "a layout renders boards of its own size only");
        let mut out = String::with_capacity(self.template.len() + 8);
        let mut at = 0;
        for (cell, span) in self.spans.iter().enumerate() {
            out.push_str(&self.template[at..span.start]);
            match board.get(cell) {
                Some(digit) => self.push_digit(&mut out, digit),
                None if self.was_empty[cell] => out.push_str(&self.template[span.clone()]),
                None => out.push_str(&self.empty_token),
            }
            at = span.end;
        }
        out.push_str(&self.template[at..]);
        out
    }

    fn push_digit(&self, out: &mut String, digit: u8) {
        use std::fmt::Write;
        match (self.kind, self.hex) {
            (LayoutKind::Matrix, _) => write!(out, "{digit}").expect("writing to a String"),
            (_, true) => out.push(char::from_digit(u32::from(digit) - 1, 16).map_or('?', |c| c.to_ascii_uppercase())),
            (_, false) => out.push(Shape::symbol(digit).unwrap_or('?')),
        }
    }
}

impl fmt::Debug for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Layout")
            .field("kind", &self.kind)
            .field("shape", &self.shape)
            .field("hex", &self.hex)
            .field("template", &self.template)
            .finish_non_exhaustive()
    }
}
