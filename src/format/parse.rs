//! [`Parser`]: reads a puzzle in any supported format, detecting which.

use std::ops::Range;

use itertools::Itertools;

use super::cages_json::PuzzleObject;
use super::f_puzzles;
use super::layout::OwnRules;
use super::{Layout, LayoutKind, ParseError};
use crate::board::{Board, ClassLine, Conflict, EqualSumKind, MAX_SIDE, Rules, RulesError, Shape};

/// Reads puzzles, with options for what the text cannot say by itself.
///
/// [`str::parse`] is `Parser::new().parse(text)` without the layout.
///
/// # Example
///
/// ```
/// use lazydoku::format::{LayoutKind, Parser};
/// use lazydoku::Shape;
///
/// let go_style = "\
/// 1 _ _ _ _ _
/// _ _ _ _ _ _
/// _ _ _ _ _ _
/// _ _ _ _ _ _
/// _ _ _ _ _ _
/// _ _ _ _ _ 1";
/// let (board, layout) = Parser::new().shape(Shape::new(2, 3)).parse(go_style)?;
/// assert_eq!(layout.kind(), LayoutKind::Grid);
/// assert_eq!(board.as_str().len(), 36);
///
/// // 16x16 in the hexadecimal 0-F convention.
/// let hex = "0123456789ABCDEF".to_string() + &".".repeat(240);
/// let (board, _) = Parser::new().hex(true).parse(&hex)?;
/// assert_eq!(&board.as_str()[..16], "123456789ABCDEFG");
/// # Ok::<(), lazydoku::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[expect(clippy::struct_excessive_bools, reason = "independent options, each set by a builder method of its own")]
pub struct Parser {
    shape: Option<Shape>,
    diagonals: bool,
    windows: bool,
    anti_knight: bool,
    anti_king: bool,
    non_consecutive: bool,
    hex: bool,
}

impl Parser {
    /// A parser that infers the shape and reads `1-9`, `A-Z` symbols.
    #[must_use]
    pub fn new() -> Parser {
        Parser::default()
    }

    /// Requires this shape instead of inferring one. Its diagonals setting
    /// is kept.
    #[must_use]
    pub fn shape(mut self, shape: Shape) -> Parser {
        self.shape = Some(shape);
        self
    }

    /// Makes both main diagonals regions of the board read (X-sudoku).
    #[must_use]
    pub fn diagonals(mut self, yes: bool) -> Parser {
        self.diagonals = yes;
        self
    }

    /// Makes windoku's windows regions of the board read, on whatever shape
    /// it has ([`Rules::with_windows`]): boxes of the board's box shape, one
    /// cell in from the edges and one cell apart. A Latin square has no box
    /// shape, so no windows. Rules given to [`Parser::parse_with_rules`] are
    /// taken as they are, as with [`Parser::diagonals`].
    ///
    /// ```
    /// use lazydoku::format::{ParseError, Parser};
    /// use lazydoku::{Region, Rules, Shape};
    ///
    /// let windoku = Parser::new().windows(true);
    /// // A 4x4 board has one window, at rows and columns 2-3.
    /// let (board, _) = windoku.parse("1... .... .... ....")?;
    /// assert_eq!(board.rules(), Rules::new(Shape::new(2, 2)).with_windows());
    /// let err = windoku.parse(".... .1.. ..1. ....").unwrap_err();
    /// assert!(matches!(err, ParseError::Repeated { region: Region::Window, .. }), "{err}");
    /// // A 9x9 line gets the four 3x3 windows.
    /// let (board, _) = windoku.parse(&".".repeat(81))?;
    /// assert_eq!(board.rules().regions().count(), 27 + 4);
    /// # Ok::<(), ParseError>(())
    /// ```
    #[must_use]
    pub fn windows(mut self, yes: bool) -> Parser {
        self.windows = yes;
        self
    }

    /// Adds anti-knight's rule to the board read, on whatever shape it has
    /// ([`Rules::with_anti_knight`]): no digit twice a knight's move apart.
    /// Rules given to [`Parser::parse_with_rules`] are taken as they are.
    ///
    /// ```
    /// use lazydoku::format::{ParseError, Parser};
    /// use lazydoku::{Region, Rules, Shape};
    ///
    /// let anti_knight = Parser::new().anti_knight(true);
    /// let (board, _) = anti_knight.parse("1... .... .... ....")?;
    /// assert_eq!(board.rules(), Rules::new(Shape::new(2, 2)).with_anti_knight());
    /// // r1c1 and r2c3 are a knight's move apart.
    /// let err = anti_knight.parse("1... ..1. .... ....").unwrap_err();
    /// assert!(matches!(err, ParseError::Repeated { region: Region::Distinct, .. }), "{err}");
    /// # Ok::<(), ParseError>(())
    /// ```
    #[must_use]
    pub fn anti_knight(mut self, yes: bool) -> Parser {
        self.anti_knight = yes;
        self
    }

    /// Adds anti-king's rule to the board read, on whatever shape it has
    /// ([`Rules::with_anti_king`]): no digit twice in cells that touch at a
    /// corner. Rules given to [`Parser::parse_with_rules`] are taken as they
    /// are.
    #[must_use]
    pub fn anti_king(mut self, yes: bool) -> Parser {
        self.anti_king = yes;
        self
    }

    /// The rules of `shape` with what this parser adds, kept for the next
    /// call on this thread: every line of a batch asks for the same ones,
    /// and building them took some 30 µs a line, more than checking an
    /// easy 9x9 puzzle.
    fn added_rules(self, shape: Shape) -> Rules {
        type Last = Option<(Shape, [bool; 4], Rules)>;
        thread_local! {
            static LAST: std::cell::RefCell<Last> = const { std::cell::RefCell::new(None) };
        }
        let options = [self.windows, self.anti_knight, self.anti_king, self.non_consecutive];
        LAST.with(|last| {
            let mut last = last.borrow_mut();
            match &*last {
                Some((kept, kept_options, rules)) if *kept == shape && *kept_options == options => rules.clone(),
                _ => {
                    let rules = self.added_to(Rules::new(shape));
                    *last = Some((shape, options, rules.clone()));
                    rules
                }
            }
        })
    }

    /// Adds the non-consecutive rule to the board read, on whatever shape
    /// it has ([`Rules::with_non_consecutive`]): no two cells that share a
    /// side hold consecutive digits. Rules given to
    /// [`Parser::parse_with_rules`] are taken as they are.
    ///
    /// ```
    /// use lazydoku::format::{ParseError, Parser};
    ///
    /// let err = Parser::new().non_consecutive(true).parse("12.. .... .... ....").unwrap_err();
    /// assert!(matches!(err, ParseError::Consecutive { digit: 2, neighbour: 1, .. }), "{err}");
    /// # Ok::<(), ParseError>(())
    /// ```
    #[must_use]
    pub fn non_consecutive(mut self, yes: bool) -> Parser {
        self.non_consecutive = yes;
        self
    }

    /// Whether this parser adds rules of its own to a plain shape's.
    fn adds_rules(self) -> bool {
        self.windows || self.anti_knight || self.anti_king || self.non_consecutive
    }

    /// `rules` with the windows, chess and non-consecutive rules this
    /// parser adds.
    fn added_to(self, rules: Rules) -> Rules {
        let rules = if self.windows { rules.with_windows() } else { rules };
        let rules = if self.anti_knight { rules.with_anti_knight() } else { rules };
        let rules = if self.anti_king { rules.with_anti_king() } else { rules };
        if self.non_consecutive { rules.with_non_consecutive() } else { rules }
    }

    /// Reads 16x16 boards in the hexadecimal convention: `0-F` are the
    /// digits 1 to 16, and only `.` and `_` mean empty.
    #[must_use]
    pub fn hex(mut self, yes: bool) -> Parser {
        self.hex = yes;
        self
    }

    /// The shape this parser requires, if one was set with [`Parser::shape`].
    #[must_use]
    pub fn required_shape(&self) -> Option<Shape> {
        self.shape
    }

    /// Whether this parser reads the hexadecimal 0-F convention.
    #[must_use]
    pub fn is_hex(&self) -> bool {
        self.hex
    }

    /// The side of the board whose rows start `line`, written apart by
    /// white space (`53..7.... 6..195... ...`), if the line starts so and
    /// the board fits this parser's shape. [`Parser::parse`] reads such a
    /// line as one puzzle; a reader that splits a stream into records can
    /// ask this to keep the line whole.
    ///
    /// ```
    /// use lazydoku::format::Parser;
    ///
    /// assert_eq!(Parser::new().rows_on_one_line("1... .... ..2. ...."), Some(4));
    /// assert_eq!(Parser::new().rows_on_one_line("1..............."), None);
    /// ```
    #[must_use]
    pub fn rows_on_one_line(&self, line: &str) -> Option<usize> {
        let rows = grouped_rows(line)?;
        self.shape.is_none_or(|shape| shape.cells() == rows.cells()).then_some(rows.side)
    }

    /// Reads one puzzle, and how it was written.
    ///
    /// # Errors
    ///
    /// A [`ParseError`] that says what is wrong and where: an unknown
    /// character, a wrong number of cells or rows, an unsupported side, a
    /// malformed matrix, or two givens that repeat a digit in a region.
    ///
    /// A one-line puzzle may bring its own rules on its line, after it, as
    /// `lazydoku generate --jigsaw` and `--killer` write them: a region map
    /// (one label per cell, each region as many connected cells as the
    /// side), or a cage map followed by each cage's sum (`a=12 b=7 ...`).
    /// The layout keeps them, so that a solution is written with them.
    ///
    /// ```
    /// use lazydoku::format::Parser;
    ///
    /// let killer = "1............... aabbccddeeffgghh a=3 b=7 c=7 d=3 e=3 f=7 g=7 h=3";
    /// let (board, layout) = Parser::new().parse(killer)?;
    /// assert_eq!(board.rules().cages().count(), 8);
    /// let solution = board.solve().expect("a solution");
    /// assert!(layout.render(&solution).ends_with(" aabbccddeeffgghh a=3 b=7 c=7 d=3 e=3 f=7 g=7 h=3"));
    /// // `str::parse` reads the same.
    /// assert_eq!(killer.parse::<lazydoku::Board>()?, board);
    /// # Ok::<(), lazydoku::ParseError>(())
    /// ```
    pub fn parse(&self, text: &str) -> Result<(Board, Layout), ParseError> {
        if let Some(read) = self.parse_link(text, None) {
            return read;
        }
        if is_object(text) {
            return self.parse_object(text, None);
        }
        if let Some(found) = rules_with_puzzle(text) {
            return self.parse_with_own_rules(text, &found);
        }
        let scan = self.scan(text, false)?;
        let board = self.build(&scan)?;
        Ok(self.with_layout(text, &scan, board))
    }

    /// Reads a puzzle written with its own rules, `found` in `text`.
    fn parse_with_own_rules(self, text: &str, found: &LineRules<'_>) -> Result<(Board, Layout), ParseError> {
        let (parser, names) = match found.names {
            Some(names) => {
                let (parser, list) = self.with_rules_named(names)?;
                (parser, Some(list))
            }
            None => (self, None),
        };
        let (board, mut layout) = if found.regions.is_none() && found.cages.is_none() {
            // Named rules alone: built as the options of a parser are, once
            // per thread for a batch of such lines. A parity map takes the
            // board's size from the puzzle.
            let scan = parser.scan(&text[..found.end], found.on_puzzle_line(text))?;
            let board = match found.parity {
                Some(map) => {
                    let rules =
                        if parser.adds_rules() { parser.added_rules(scan.shape) } else { Rules::new(scan.shape) };
                    Self::build_on(&scan, Board::empty_with(&with_parity_map(rules, map)?))?
                }
                None => parser.build(&scan)?,
            };
            parser.with_layout(text, &scan, board)
        } else {
            let rules = parser.line_rules(found)?;
            let scan = parser.shape(rules.shape()).scan(&text[..found.end], found.on_puzzle_line(text))?;
            let board = Self::build_on(&scan, Board::empty_with(&rules))?;
            parser.with_layout(text, &scan, board)
        };
        layout.own.region_map = found.regions.map(|map| map.text.to_owned());
        layout.own.cage_map = found.cages.map(|map| map.text.to_owned());
        // One token, as a line's `parity:` takes it, however a grid's line
        // grouped it.
        layout.own.parity_map = found.parity.map(|map| map.text.split_whitespace().collect());
        layout.own.rule_names = names;
        Ok((board, layout))
    }

    /// Reads an f-puzzles link ([`f_puzzles::link_payload`]): its JSON,
    /// decompressed, as an f-puzzles object. `None` when `text` is no such
    /// link. Errors are placed at the link, as its JSON has no lines of
    /// the input's.
    fn parse_link(self, text: &str, given: Option<&Rules>) -> Option<Result<(Board, Layout), ParseError>> {
        let payload = f_puzzles::link_payload(text)?;
        let (line, column) = start_of(text);
        let at_link = |reason: String| ParseError::LineRules { line, column, reason };
        let read = f_puzzles::decompress(&payload)
            .map_err(|reason| at_link(format!("the f-puzzles link cannot be read: {reason}")))
            .and_then(|json| {
                if !f_puzzles::is_object(&json) {
                    return Err(at_link("the f-puzzles link holds no puzzle (no \"grid\")".to_owned()));
                }
                f_puzzles::translate(&json).map_err(|(l, c, reason)| {
                    at_link(format!("the f-puzzles link's puzzle, line {l}, column {c} of its JSON: {reason}"))
                })
            })
            .and_then(|(translated, shape)| {
                self.shape(shape).parse_object(&translated, given).map_err(|e| within_f_puzzles(&e, line, column))
            });
        Some(read)
    }

    /// This parser with the rules that `names` names switched on (names
    /// apart by commas or white space), and the names, apart by commas.
    fn with_rules_named(self, names: RulesPart<'_>) -> Result<(Parser, String), ParseError> {
        let mut parser = self;
        let mut list = Vec::new();
        for range in token_ranges(names.text).flat_map(|token| {
            let start = token.start;
            names.text[token].split(',').scan(start, |at, name| {
                let range = *at..*at + name.len();
                *at += name.len() + 1;
                Some(range)
            })
        }) {
            let name = &names.text[range.clone()];
            if name.is_empty() {
                continue;
            }
            let column = names.column + names.text[..range.start].chars().count();
            parser = parser.with_rule_named(name).ok_or_else(|| unknown_rule(name, names.line, column))?;
            if !list.contains(&name) {
                list.push(name);
            }
        }
        if list.is_empty() {
            let reason = format!("no rule is named here: the names are {}", RULE_NAMES.join(", "));
            return Err(ParseError::LineRules { line: names.line, column: names.column, reason });
        }
        Ok((parser, list.join(",")))
    }

    /// This parser with the rule of `name` (one of [`RULE_NAMES`]) switched
    /// on, or `None` for a name it does not know.
    fn with_rule_named(self, name: &str) -> Option<Parser> {
        match name {
            "diagonals" => Some(self.diagonals(true)),
            "windoku" => Some(self.windows(true)),
            "anti-knight" => Some(self.anti_knight(true)),
            "anti-king" => Some(self.anti_king(true)),
            "non-consecutive" => Some(self.non_consecutive(true)),
            _ => None,
        }
    }

    /// Reads a puzzle written as a JSON object ([`PuzzleObject`]), played by
    /// `given` when rules are given apart, else by the rules it brings.
    fn parse_object(self, text: &str, given: Option<&Rules>) -> Result<(Board, Layout), ParseError> {
        // An f-puzzles object is read on the shape its translation found
        // (its regions' boxes; for a jigsaw the boxes f-puzzles draws, or a
        // Latin square where the side has none), which the translated
        // object alone cannot say; a shape the parser was given does not
        // apply, as the puzzle's regions are its own.
        if f_puzzles::is_object(text) {
            let (line, column) = start_of(text);
            let (translated, shape) = f_puzzles::translate(text)
                .map_err(|(line, column, reason)| ParseError::LineRules { line, column, reason })?;
            return self.shape(shape).parse_object(&translated, given).map_err(|e| within_f_puzzles(&e, line, column));
        }
        let object = PuzzleObject::read(text).map_err(|(line, column, reason)| ParseError::LineRules {
            line,
            column,
            reason,
        })?;
        let own_rules = object.first_rule_place();
        if let (Some(given), Some(at)) = (given, own_rules) {
            return self.parse_object(text, None).and_then(|read| same_rules(read, given, at));
        }
        if given.is_none() && own_rules.is_none() {
            // The common case of JSON Lines: a bare 81-character puzzle, read
            // as fast as a bare line.
            let cells = &text[object.puzzle.clone()];
            if let Some(board) = self.bare_nine(cells) {
                let at = object.puzzle.start;
                let layout = Layout {
                    template: text.to_owned(),
                    spans: (at..at + cells.len()).map(|i| i..i + 1).collect(),
                    was_empty: board.cells().map(|digit| digit.is_none()).collect(),
                    empty_token: board.cells().position(|d| d.is_none()).map_or(".", |i| &cells[i..=i]).to_owned(),
                    kind: LayoutKind::Object,
                    shape: Shape::NINE,
                    hex: false,
                    own: OwnRules::default(),
                };
                return Ok((board, layout));
            }
        }
        let mut parser = self;
        let mut list: Vec<&str> = Vec::new();
        for (name, (line, column)) in &object.names {
            parser = parser.with_rule_named(name).ok_or_else(|| unknown_rule(name, *line, *column))?;
            if !list.contains(&name.as_str()) {
                list.push(name);
            }
        }
        // The puzzle's text where it stands, everything before it blank: the
        // cells' places, and the places errors give, are the object's own.
        let padded: String = text[..object.puzzle.start]
            .bytes()
            .map(|b| if b == b'\n' { '\n' } else { ' ' })
            .chain(text[object.puzzle.clone()].chars())
            .collect();
        let (board, scan) = match given {
            Some(rules) => {
                let scan = parser.shape(rules.shape()).scan(&padded, false)?;
                (Self::build_on(&scan, Board::empty_with(rules))?, scan)
            }
            None if own_rules.is_none() || object.names_only() => {
                let scan = parser.scan(&padded, false)?;
                (parser.build(&scan)?, scan)
            }
            None => {
                let side = parser.scan(&padded, false)?.shape.side();
                let rules = parser.object_rules(text, &object, side)?;
                let scan = parser.shape(rules.shape()).scan(&padded, false)?;
                (Self::build_on(&scan, Board::empty_with(&rules))?, scan)
            }
        };
        let (board, mut layout) = parser.with_layout(text, &scan, board);
        layout.kind = LayoutKind::Object;
        layout.own.region_map = object.regions.map(|(range, _)| text[range].to_owned());
        layout.own.cage_map = if object.cages.is_some() { board.rules().cage_map() } else { None };
        layout.own.rule_names = (!list.is_empty()).then(|| list.join(","));
        layout.own.extra_regions = object.extra_regions.into_iter().map(|(cells, _)| cells).collect();
        layout.own.distinct_groups = object.distinct_groups.into_iter().map(|(cells, _)| cells).collect();
        layout.own.thermometers = object.thermometers.into_iter().map(|(cells, _)| cells).collect();
        layout.own.relations = object.relations.into_iter().map(|(relation, _)| relation).collect();
        layout.own.sums = object.sums.into_iter().map(|(sum, _)| sum).collect();
        layout.own.arrows = object.arrows.into_iter().map(|(arrow, _)| arrow).collect();
        layout.own.sandwiches = object.sandwiches.into_iter().map(|(sandwich, _)| sandwich).collect();
        layout.own.x_sums = object.x_sums.into_iter().map(|(x_sum, _)| x_sum).collect();
        layout.own.skyscrapers = object.skyscrapers.into_iter().map(|(clue, _)| clue).collect();
        layout.own.between_lines = object.between_lines.into_iter().map(|(line, _)| line).collect();
        layout.own.quadruples = object.quadruples.into_iter().map(|(quadruple, _)| quadruple).collect();
        layout.own.renbans = object.renbans.into_iter().map(|(line, _)| line).collect();
        layout.own.region_sum_lines = object.region_sum_lines.into_iter().map(|(line, _)| line).collect();
        layout.own.zipper_lines = object.zipper_lines.into_iter().map(|(line, _)| line).collect();
        layout.own.double_arrows = object.double_arrows.into_iter().map(|(line, _)| line).collect();
        layout.own.entropic_lines = object.entropic_lines.into_iter().map(|(line, _)| line).collect();
        layout.own.modular_lines = object.modular_lines.into_iter().map(|(line, _)| line).collect();
        if object.even.is_some() || object.odd.is_some() {
            layout.own.parity_map = board.rules().parity_map();
        }
        layout.own.even = object.even.map(|(cells, _)| cells);
        layout.own.odd = object.odd.map(|(cells, _)| cells);
        Ok((board, layout))
    }

    /// The rules a JSON object brings besides named ones (already this
    /// parser's options), on a board of `side`: its region map, cages,
    /// extra regions, groups of distinct digits, thermometers, relations
    /// and even and odd cells, each error placed in the object.
    #[expect(clippy::too_many_lines, reason = "one check per member of the object, in one place")]
    fn object_rules(self, text: &str, object: &PuzzleObject, side: usize) -> Result<Rules, ParseError> {
        if let Some((range, (line, column))) = &object.regions {
            let labels = text[range.clone()].chars().filter(|c| !c.is_whitespace()).count();
            if labels != side * side {
                let reason = format!(
                    "the region map has {}, and the puzzle {} cells",
                    crate::board::Counted(labels, "label"),
                    side * side
                );
                return Err(ParseError::LineRules { line: *line, column: *column, reason });
            }
        }
        let regions = object.regions.as_ref().map(|(range, (line, column))| RulesPart {
            text: &text[range.clone()],
            line: *line,
            column: *column,
        });
        let rules =
            self.line_rules(&LineRules { regions, cages: None, parity: None, names: None, side, end: text.len() })?;
        let rules = match &object.cages {
            Some((range, (line, column))) => {
                rules.with_cage_json(&text[range.clone()]).map_err(|e| match e {
                    // Placed within the value: moved to the object's lines.
                    RulesError::CageMap { line: 1, column: at, reason } => {
                        ParseError::LineRules { line: *line, column: column + at - 1, reason }
                    }
                    RulesError::CageMap { line: below, column, reason } => {
                        ParseError::LineRules { line: line + below - 1, column, reason }
                    }
                    other => ParseError::LineRules { line: *line, column: *column, reason: other.to_string() },
                })?
            }
            None => rules,
        };
        let at = |(line, column): (usize, usize), e: RulesError| ParseError::LineRules {
            line,
            column,
            reason: e.to_string(),
        };
        let mut rules = rules;
        for (cells, place) in &object.extra_regions {
            rules = rules.with_region(cells).map_err(|e| at(*place, e))?;
        }
        // Groups and relations are added at once, as the rules are built
        // anew for each addition (an f-puzzles puzzle whose marks are given
        // in full has thousands of relations on 25x25); one at a time only
        // to place an error.
        let groups = object.distinct_groups.iter().map(|(cells, _)| cells.clone());
        if let Ok(all) = rules.clone().with_distinct_groups(groups) {
            rules = all;
        } else {
            for (cells, place) in &object.distinct_groups {
                rules = rules.with_distinct(cells).map_err(|e| at(*place, e))?;
            }
        }
        for (cells, place) in &object.thermometers {
            rules = rules.with_thermometer(cells).map_err(|e| at(*place, e))?;
        }
        if let Ok(all) = rules.clone().with_relations(object.relations.iter().map(|&(relation, _)| relation)) {
            rules = all;
        } else {
            for &((first, relation, second), place) in &object.relations {
                rules = rules.with_relation(first, relation, second).map_err(|e| at(place, e))?;
            }
        }
        // Sums and arrows checked one by one, and added at once.
        let mut sums = Vec::with_capacity(object.sums.len() + object.arrows.len());
        for ((total, cells), place) in &object.sums {
            sums.push(rules.checked_sum(*total, cells).map_err(|e| at(*place, e))?);
        }
        for ((circle, shaft), place) in &object.arrows {
            sums.push(rules.checked_arrow(circle, shaft).map_err(|e| at(*place, e))?);
        }
        for ((sum, cells), place) in &object.sandwiches {
            sums.push(rules.checked_sandwich(*sum, cells).map_err(|e| at(*place, e))?);
        }
        for ((sum, cells), place) in &object.x_sums {
            sums.push(rules.checked_x_sum(*sum, cells).map_err(|e| at(*place, e))?);
        }
        for ((seen, cells), place) in &object.skyscrapers {
            sums.push(rules.checked_skyscraper(*seen, cells).map_err(|e| at(*place, e))?);
        }
        for (line, place) in &object.between_lines {
            sums.push(rules.checked_between_line(line).map_err(|e| at(*place, e))?);
        }
        for ((cells, digits), place) in &object.quadruples {
            sums.push(rules.checked_quadruple(cells, digits).map_err(|e| at(*place, e))?);
        }
        for (line, place) in &object.renbans {
            sums.push(rules.checked_renban(line).map_err(|e| at(*place, e))?);
        }
        for (kind, lines) in [
            (EqualSumKind::RegionSum, &object.region_sum_lines),
            (EqualSumKind::Zipper, &object.zipper_lines),
            (EqualSumKind::DoubleArrow, &object.double_arrows),
        ] {
            for (line, place) in lines {
                sums.push(rules.checked_equal_sums(kind, line).map_err(|e| at(*place, e))?);
            }
        }
        for (kind, lines) in
            [(ClassLine::Entropic, &object.entropic_lines), (ClassLine::Modular, &object.modular_lines)]
        {
            for (line, place) in lines {
                sums.push(rules.checked_class_line(kind, line).map_err(|e| at(*place, e))?);
            }
        }
        rules = rules.with_sum_rules(sums);
        if let Some((cells, place)) = &object.even {
            rules = rules.with_even(cells).map_err(|e| at(*place, e))?;
        }
        if let Some((cells, place)) = &object.odd {
            rules = rules.with_odd(cells).map_err(|e| at(*place, e))?;
        }
        Ok(rules)
    }

    /// The rules written with a puzzle, built.
    fn line_rules(self, found: &LineRules<'_>) -> Result<Rules, ParseError> {
        let fail = |(line, column): (usize, usize), reason: String| ParseError::LineRules { line, column, reason };
        let at = |part: RulesPart<'_>| (part.line, part.column);
        let shape = self.shape.or(Shape::from_side(found.side)).or(Shape::try_latin(found.side));
        let rules = match (found.regions, self.shape) {
            (Some(map), None) => Rules::jigsaw(map.text).map_err(|e| fail(at(map), format!("the region map: {e}")))?,
            (Some(map), Some(shape)) => {
                Rules::new(shape).with_regions(map.text).map_err(|e| fail(at(map), format!("the region map: {e}")))?
            }
            (None, _) => {
                Rules::new(shape.ok_or_else(|| fail(found.start(), format!("no board has side {}", found.side)))?)
            }
        };
        let rules = match found.cages {
            Some(map) => rules.with_cage_map(map.text).map_err(|e| match e {
                // The map is on one line: its columns count from its start.
                RulesError::CageMap { column, reason, .. } => fail((map.line, map.column + column - 1), reason),
                other => fail(at(map), other.to_string()),
            })?,
            None => rules,
        };
        let rules = if self.diagonals { rules.with_diagonals() } else { rules };
        let rules = self.added_to(rules);
        match found.parity {
            // Last: the builders of windows, diagonals and chess rules cannot
            // refuse cells left too few digits, and this one checks every rule.
            Some(map) => with_parity_map(rules, map),
            None => Ok(rules),
        }
    }

    /// Reads one puzzle played by `rules` (a jigsaw map, windoku's windows,
    /// extra regions, killer cages), and how it was written. The rules fix
    /// the board's size; this parser's other options still apply. A puzzle
    /// written with rules of its own (a map after it, named rules, a JSON
    /// object's rules) is read with them if they are these rules.
    ///
    /// # Errors
    ///
    /// As [`Parser::parse`], with the rules' regions and cages checked; a
    /// puzzle whose own rules are not these is an error at its rules.
    ///
    /// ```
    /// use lazydoku::format::Parser;
    /// use lazydoku::Rules;
    ///
    /// let jigsaw = Rules::jigsaw("aaab acbb ccbd cddd")?;
    /// let (board, layout) = Parser::new().parse_with_rules("1 . . .\n. . . .\n. . . .\n. . . .", &jigsaw)?;
    /// assert_eq!(board.rules(), jigsaw);
    /// assert!(layout.render(&board.solve().expect("solvable")).starts_with("1 "));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse_with_rules(&self, text: &str, rules: &Rules) -> Result<(Board, Layout), ParseError> {
        if let Some(read) = self.parse_link(text, Some(rules)) {
            return read;
        }
        if is_object(text) {
            return self.parse_object(text, Some(rules));
        }
        if let Some(found) = rules_with_puzzle(text) {
            return self.parse_with_own_rules(text, &found).and_then(|read| same_rules(read, rules, found.start()));
        }
        let scan = self.shape(rules.shape()).scan(text, false)?;
        let board = Self::build_on(&scan, Board::empty_with(rules))?;
        Ok(self.with_layout(text, &scan, board))
    }

    /// The board with how it was written.
    fn with_layout(self, text: &str, scan: &Scan, board: Board) -> (Board, Layout) {
        let layout = Layout {
            template: text.to_owned(),
            spans: scan.cells.iter().map(|c| c.span.clone()).collect(),
            was_empty: scan.values.iter().map(Option::is_none).collect(),
            empty_token: scan.values.iter().position(Option::is_none).map_or_else(
                || if scan.kind == LayoutKind::Matrix { "null" } else { "." }.to_owned(),
                |i| text[scan.cells[i].span.clone()].to_owned(),
            ),
            kind: scan.kind,
            shape: board.shape(),
            hex: self.hex,
            own: OwnRules::default(),
        };
        (board, layout)
    }

    /// Reads one puzzle, without keeping its layout.
    ///
    /// # Errors
    ///
    /// As [`Parser::parse`].
    pub fn parse_board(&self, text: &str) -> Result<Board, ParseError> {
        if let Some(board) = self.bare_nine(text) {
            return Ok(board);
        }
        if let Some(read) = self.parse_link(text, None) {
            return read.map(|(board, _)| board);
        }
        if is_object(text) {
            return self.parse_object(text, None).map(|(board, _)| board);
        }
        if let Some(found) = rules_with_puzzle(text) {
            return self.parse_with_own_rules(text, &found).map(|(board, _)| board);
        }
        self.build(&self.scan(text, false)?)
    }

    /// The common case of batch input, read without allocating: a bare
    /// 81-character line of a classic board. `None` sends anything else, and
    /// any error, to the full reader, which says exactly what is wrong.
    fn bare_nine(self, text: &str) -> Option<Board> {
        if self.hex
            || self.diagonals
            || self.adds_rules()
            || self.shape.is_some_and(|s| s != Shape::NINE)
            || text.len() != 81
        {
            return None;
        }
        Board::nine_from_line(text.as_bytes().try_into().ok()?)
    }

    /// Reads the cells of `text`; with `rules_after`, what follows a
    /// one-line puzzle is its rules, not a second puzzle.
    fn scan(self, text: &str, rules_after: bool) -> Result<Scan, ParseError> {
        let mut content = lines(text).filter(|l| is_content(l.text));
        let first = content.next().ok_or(ParseError::Empty)?;
        if first.text.trim_start().starts_with('[') {
            return self.finish(scan_matrix(text, first)?);
        }
        let raw = match content.next() {
            None => self.scan_line(&first, rules_after)?,
            Some(second) => scan_grid([first, second].into_iter().chain(content))?,
        };
        self.finish(raw)
    }

    fn scan_line(self, line: &Line<'_>, rules_after: bool) -> Result<Raw, ParseError> {
        let fits = |count: usize| match self.shape {
            Some(shape) => count == shape.cells(),
            None => side_of_cells(count).is_some(),
        };
        let lead = line.text.len() - line.text.trim_start().len();
        let rows = grouped_rows(line.text).filter(|rows| fits(rows.cells()));
        let token_end = match rows {
            Some(rows) => rows.end,
            None => line.text[lead..].find(char::is_whitespace).map_or(line.text.len(), |e| lead + e),
        };
        let token = &line.text[lead..token_end];
        let token_len = rows.map_or_else(|| token.chars().count(), GroupedRows::cells);
        // A token of 4 or 9 cells followed by more like it is rows that
        // fell short of a board, not a board of side 2 or 3 (which has no
        // boxes, so needs its shape given anyway).
        let short_rows = self.shape.is_none()
            && side_of_cells(token_len).and_then(Shape::from_side).is_none()
            && line.text[token_end..]
                .split_whitespace()
                .next()
                .is_some_and(|next| next.chars().count() == token_len && next.chars().all(is_cell_char));
        // Counted before anything is collected, so that a long bad line
        // costs no memory beyond its text.
        let cells: Vec<RawCell> = if fits(token_len) && !short_rows {
            if !rules_after {
                Self::no_second_puzzle(line, token_end, token_len, rows.map(|rows| rows.side))?;
            }
            line.cells(lead, token).collect()
        } else {
            // Digits separated by spaces, on one line.
            let spaced = line.cells(0, line.text).count();
            if !fits(spaced) {
                let found = if token_len > 1 && !short_rows { token_len } else { spaced };
                if let Some(shape) = self.shape {
                    return Err(ParseError::ShapeCells { shape, found, line: line.number });
                }
                let side = found.isqrt();
                if side * side == found && side > 1 {
                    return Err(ParseError::UnsupportedSide { side });
                }
                return Err(ParseError::CellCount { found, line: line.number });
            }
            line.cells(0, line.text).collect()
        };
        let side = side_of_cells(cells.len()).unwrap_or(0);
        Ok(Raw { cells, kind: LayoutKind::Line, side, box_rows: None, box_cols: None })
    }

    /// A trailing comment may follow a one-line puzzle, but not a second
    /// puzzle of the same size: that is two records run together.
    ///
    /// A token of as many characters that is neither is a map that is not
    /// rules: a cage map without its sums, or labels of regions that are
    /// not as many connected cells as the side. Taken for a comment, it
    /// would leave the puzzle read without its rules. After a puzzle
    /// written as its rows, a token as long as a row starts a second one.
    fn no_second_puzzle(
        line: &Line<'_>,
        token_end: usize,
        token_len: usize,
        row_len: Option<usize>,
    ) -> Result<(), ParseError> {
        let rest = &line.text[token_end..];
        let Some(next) = rest.split_whitespace().next() else { return Ok(()) };
        let length = next.chars().count();
        let at = token_end + rest.find(next).unwrap_or(0);
        let column = line.text[..at].chars().count() + 1;
        if next.chars().all(is_cell_char) && (length == token_len || Some(length) == row_len) {
            return Err(ParseError::TwoPuzzles { line: line.number, column });
        }
        if length == token_len && !next.contains('=') {
            let reason = "a map after the puzzle is a cage map with each cage's sum after it (a=12 ...), or a \
                          region map whose regions are each as many connected cells as the side";
            return Err(ParseError::LineRules { line: line.number, column, reason: reason.to_owned() });
        }
        Ok(())
    }

    /// Works out the shape and decodes every cell.
    fn finish(self, raw: Raw) -> Result<Scan, ParseError> {
        let side = raw.side;
        let shape = match self.shape {
            Some(shape) => {
                if shape.side() != side {
                    let found = Shape::from_side(side).map_or((side, 1), |s| (s.box_rows(), s.box_cols()));
                    return Err(ParseError::ShapeMismatch { expected: shape, found });
                }
                if let (Some(r), Some(c)) = (raw.box_rows, raw.box_cols) {
                    if (r, c) != (shape.box_rows(), shape.box_cols()) {
                        return Err(ParseError::ShapeMismatch { expected: shape, found: (r, c) });
                    }
                }
                shape
            }
            None => shape_from_separators(side, raw.box_rows, raw.box_cols)?,
        };
        let shape = if self.diagonals { shape.with_diagonals() } else { shape };
        if self.hex && side != 16 {
            return Err(ParseError::HexNeedsSixteen { side });
        }
        let values = raw.cells.iter().map(|cell| decode(cell, side, self.hex)).collect::<Result<Vec<_>, _>>()?;
        Ok(Scan { cells: raw.cells, values, kind: raw.kind, shape })
    }

    fn build(self, scan: &Scan) -> Result<Board, ParseError> {
        let empty =
            if self.adds_rules() { Board::empty_with(&self.added_rules(scan.shape)) } else { Board::empty(scan.shape) };
        Self::build_on(scan, empty)
    }

    /// Writes the givens of `scan` onto `board`, an empty board of its size.
    fn build_on(scan: &Scan, mut board: Board) -> Result<Board, ParseError> {
        let side = scan.shape.side();
        for (cell, (value, raw)) in scan.values.iter().zip(&scan.cells).enumerate() {
            let Some(digit) = *value else { continue };
            match board.put(cell, digit) {
                Ok(()) => {}
                Err(Conflict::Repeated { digit, region, peer_row, peer_col, .. }) => {
                    return Err(ParseError::Repeated {
                        digit,
                        region,
                        first: (peer_row, peer_col),
                        second: (cell / side, cell % side),
                        line: raw.line,
                        column: raw.column,
                    });
                }
                Err(Conflict::Consecutive { digit, neighbour, neighbour_row, neighbour_col, .. }) => {
                    return Err(ParseError::Consecutive {
                        digit,
                        neighbour,
                        first: (neighbour_row, neighbour_col),
                        second: (cell / side, cell % side),
                        line: raw.line,
                        column: raw.column,
                    });
                }
                Err(Conflict::Related { digit, relation, first, other, other_row, other_col, .. }) => {
                    return Err(ParseError::Related {
                        digit,
                        relation,
                        first_cell: first,
                        other,
                        first: (other_row, other_col),
                        second: (cell / side, cell % side),
                        line: raw.line,
                        column: raw.column,
                    });
                }
                Err(Conflict::CageSum { sum, found, .. }) => {
                    return Err(ParseError::CageSum { sum, found, line: raw.line, column: raw.column });
                }
                Err(Conflict::QuadrupleMissing { digit, .. }) => {
                    return Err(ParseError::QuadrupleMissing { digit, line: raw.line, column: raw.column });
                }
                Err(Conflict::Seen { seen, found, .. }) => {
                    return Err(ParseError::Seen { seen, found, line: raw.line, column: raw.column });
                }
                Err(Conflict::SameClass { kind, first, second, .. }) => {
                    return Err(ParseError::SameClass { kind, first, second, line: raw.line, column: raw.column });
                }
                Err(Conflict::NotRenban { low, high, .. }) => {
                    return Err(ParseError::NotRenban { low, high, line: raw.line, column: raw.column });
                }
                Err(Conflict::NotBetween { digit, low, high, .. }) => {
                    return Err(ParseError::NotBetween { digit, low, high, line: raw.line, column: raw.column });
                }
                Err(Conflict::SumBroken { sum, found, kind, .. }) => {
                    return Err(ParseError::SumBroken { sum, found, kind, line: raw.line, column: raw.column });
                }
                Err(Conflict::NotAllowed { digit, allowed, row, col }) => {
                    return Err(ParseError::NotAllowed {
                        digit,
                        allowed,
                        at: (row, col),
                        line: raw.line,
                        column: raw.column,
                    });
                }
                Err(other) => unreachable!("decoded cells are in range and empty: {other}"),
            }
        }
        Ok(board)
    }
}

impl std::str::FromStr for crate::Board {
    type Err = ParseError;

    /// Reads a puzzle in any supported format, inferring its shape.
    fn from_str(text: &str) -> Result<Board, ParseError> {
        Parser::new().parse_board(text)
    }
}

/// The names of the rules a puzzle may bring after it, as a one-line
/// puzzle's token `rules:anti-knight,anti-king` or a line `rules
/// anti-knight anti-king` under a grid: both main diagonals as regions
/// (X-sudoku), windoku's windows ([`Rules::with_windows`]),
/// [`Rules::with_anti_knight`], [`Rules::with_anti_king`] and
/// [`Rules::with_non_consecutive`].
///
/// ```
/// use lazydoku::format::{Parser, RULE_NAMES};
/// use lazydoku::{Rules, Shape};
///
/// assert!(RULE_NAMES.contains(&"non-consecutive"));
/// let (board, layout) = Parser::new().parse("1... .... .... .... rules:diagonals,windoku")?;
/// assert_eq!(layout.rule_names(), Some("diagonals,windoku"));
/// let same = Rules::new(Shape::new(2, 2)).with_diagonals().with_windows().parse("1...............")?;
/// assert_eq!(board.count_solutions(usize::MAX), same.count_solutions(usize::MAX));
/// assert_eq!(board.count_solutions(usize::MAX), 12); // 72 without the rules
/// # Ok::<(), lazydoku::ParseError>(())
/// ```
pub const RULE_NAMES: [&str; 5] = ["diagonals", "windoku", "anti-knight", "anti-king", "non-consecutive"];

/// The line and column where `text`'s first non-blank character stands.
fn start_of(text: &str) -> (usize, usize) {
    let at = text.len() - text.trim_start().len();
    let before = &text[..at];
    (before.matches('\n').count() + 1, before.rsplit('\n').next().unwrap_or_default().chars().count() + 1)
}

/// An error in the object translated from an f-puzzles puzzle, placed at
/// the puzzle's start (`line`, `column`), since the translation's lines
/// are not the input's.
fn within_f_puzzles(e: &ParseError, line: usize, column: usize) -> ParseError {
    ParseError::LineRules { line, column, reason: format!("in the f-puzzles puzzle: {e}") }
}

/// Whether `text` is a puzzle written as a JSON object.
fn is_object(text: &str) -> bool {
    text.trim_start().starts_with('{')
}

/// The error for a rule name not in [`RULE_NAMES`], at `line` and `column`.
fn unknown_rule(name: &str, line: usize, column: usize) -> ParseError {
    let reason = format!("no rule is named '{name}': the names are {}", RULE_NAMES.join(", "));
    ParseError::LineRules { line, column, reason }
}

/// What starts the named rules after a one-line puzzle.
const NAMES_TOKEN: &str = "rules:";

/// `rules` with the even and odd cells of the parity map `map`, which
/// stands on one line, its errors placed there.
fn with_parity_map(rules: Rules, map: RulesPart<'_>) -> Result<Rules, ParseError> {
    rules.with_parity_map(map.text).map_err(|e| match e {
        RulesError::ParityMap { column, reason, .. } => {
            ParseError::LineRules { line: map.line, column: map.column + column - 1, reason }
        }
        other => {
            ParseError::LineRules { line: map.line, column: map.column, reason: format!("the parity map: {other}") }
        }
    })
}

/// What starts the parity map after a one-line puzzle.
const PARITY_TOKEN: &str = "parity:";

/// Rules written with a puzzle (after a one-line puzzle, or on lines of
/// their own under a grid): a region map, a cage map with its sums, and
/// named rules, any of them, in that order.
struct LineRules<'a> {
    /// The region map.
    regions: Option<RulesPart<'a>>,
    /// The cage map with the sums after it.
    cages: Option<RulesPart<'a>>,
    /// The parity map: the even and odd cells.
    parity: Option<RulesPart<'a>>,
    /// The names of rules that no map gives (anti-knight, windoku, ...).
    names: Option<RulesPart<'a>>,
    /// The puzzle's side.
    side: usize,
    /// Where the puzzle's text ends: the whole text when the rules are on
    /// the puzzle's line, or where the lines of rules under a grid start.
    end: usize,
}

/// A map in a text, with where it starts.
#[derive(Clone, Copy)]
struct RulesPart<'a> {
    text: &'a str,
    line: usize,
    column: usize,
}

impl LineRules<'_> {
    /// Where the rules start.
    fn start(&self) -> (usize, usize) {
        self.regions.or(self.cages).or(self.parity).or(self.names).map_or((1, 1), |part| (part.line, part.column))
    }

    /// Whether the rules are on the puzzle's line, after it.
    fn on_puzzle_line(&self, text: &str) -> bool {
        self.end == text.len()
    }
}

/// The rules of a puzzle written with it: after a one-line puzzle, or on
/// lines of their own under a grid.
/// A puzzle read with the rules it brings, kept when they are `given`, the
/// rules given apart (as a puzzle that `lazydoku generate` wrote with its
/// rules is read back with the flags that made it); an error at `at`, where
/// its rules start, when they differ.
fn same_rules(read: (Board, Layout), given: &Rules, at: (usize, usize)) -> Result<(Board, Layout), ParseError> {
    if read.0.rules() == *given {
        return Ok(read);
    }
    let (line, column) = at;
    let reason = "the puzzle brings its own rules, which are not the rules given apart; leave one of them out";
    Err(ParseError::LineRules { line, column, reason: reason.to_owned() })
}

fn rules_with_puzzle(text: &str) -> Option<LineRules<'_>> {
    rules_after_puzzle(text).or_else(|| rules_under_grid(text))
}

/// The lines `regions MAP`, `cages MAP SUMS...` and `rules NAMES`, in that
/// order (any of them), that end a grid, as `lazydoku generate --format
/// grid` writes them.
fn rules_under_grid<'a>(text: &'a str) -> Option<LineRules<'a>> {
    // The last three content lines and how many there are, kept as the
    // text goes by: a long text costs no memory here.
    let mut count = 0;
    let mut last: [Option<Line<'a>>; 4] = [None; 4];
    for line in lines(text).filter(|l| is_content(l.text)) {
        count += 1;
        last = [last[1], last[2], last[3], Some(line)];
    }
    let part = |line: Option<Line<'a>>, word: &str| -> Option<(RulesPart<'a>, usize)> {
        let line = line?;
        let rest = line.text.trim_start().strip_prefix(word)?;
        let map = rest.trim_start();
        let at = line.text.len() - map.len();
        let column = line.text[..at].chars().count() + 1;
        (rest.len() > map.len() && !map.is_empty())
            .then_some((RulesPart { text: map.trim_end(), line: line.number, column }, line.offset))
    };
    // From the last line up: each line found moves the next one up.
    let mut unread = last.len();
    let mut take = |word: &str| {
        let found = part(*last.get(unread.checked_sub(1)?)?, word);
        if found.is_some() {
            unread -= 1;
        }
        found
    };
    let names = take("rules");
    let parity = take("parity");
    let cages = take("cages");
    let regions = take("regions");
    let rules_lines =
        [names.is_some(), parity.is_some(), cages.is_some(), regions.is_some()].into_iter().filter(|&x| x).count();
    // A grid of two rows at least above them.
    if rules_lines == 0 || count < rules_lines + 2 {
        return None;
    }
    let (_, end) = regions.or(cages).or(parity).or(names)?;
    // The side, for rules read from a map (named rules alone take the
    // grid's own).
    let side = match regions.or(cages) {
        Some((map, _)) => side_of_cells(map.text.split_whitespace().next()?.chars().count())?,
        None => 0,
    };
    Some(LineRules {
        regions: regions.map(|(part, _)| part),
        cages: cages.map(|(part, _)| part),
        parity: parity.map(|(part, _)| part),
        names: names.map(|(part, _)| part),
        side,
        end,
    })
}

/// The whitespace-separated tokens of `text`, as byte ranges.
fn token_ranges(text: &str) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        let start = at + text[at..].find(|c: char| !c.is_whitespace())?;
        let end = text[start..].find(char::is_whitespace).map_or(text.len(), |e| start + e);
        at = end;
        Some(start..end)
    })
}

/// A character that can stand for a cell in a one-line puzzle.
fn is_cell_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '.' || c == '_'
}

/// A one-line puzzle written as its rows, apart by white space.
#[derive(Clone, Copy)]
struct GroupedRows {
    /// The board's side: as many rows as cells in a row.
    side: usize,
    /// The byte just past the last row.
    end: usize,
}

impl GroupedRows {
    fn cells(self) -> usize {
        self.side * self.side
    }
}

/// Whether `line` starts with the rows of a board with boxes, `side`
/// tokens of `side` cells each (`53..7.... 6..195... ...`). A row of 4, 9,
/// 16 or 25 cells would also be a whole board of side 2 to 5; the tokens
/// that follow it, as long and as many as the side, say it is a row.
fn grouped_rows(line: &str) -> Option<GroupedRows> {
    let mut tokens = token_ranges(line);
    let first = tokens.next()?;
    let side = line[first.clone()].chars().count();
    // Sides without boxes (2, 3, 5, ...) are left out: a grid's row
    // written in its boxes (`53. .7. ...`) looks like such a board.
    Shape::from_side(side)?;
    let is_row = |range: &Range<usize>| {
        let row = &line[range.clone()];
        row.chars().count() == side && row.chars().all(is_cell_char)
    };
    if !is_row(&first) {
        return None;
    }
    let mut end = first.end;
    for _ in 1..side {
        let row = tokens.next().filter(is_row)?;
        end = row.end;
    }
    Some(GroupedRows { side, end })
}

/// The rules after a one-line puzzle, if `text` is one. After the puzzle,
/// a token of as many characters followed by sums (`a=12`) is a cage map;
/// one not followed by sums is a region map if it labels regions of `side`
/// connected cells each, and a cage map with its sums may follow it. A
/// second puzzle (or a solution) after the first is neither: a digit's
/// cells in a grid are never next to one another.
fn rules_after_puzzle(text: &str) -> Option<LineRules<'_>> {
    let mut content = lines(text).filter(|l| is_content(l.text));
    let line = content.next()?;
    if content.next().is_some() || line.text.trim_start().starts_with('[') {
        return None;
    }
    let (puzzle_end, cells) = if let Some(rows) = grouped_rows(line.text) {
        (rows.end, rows.cells())
    } else {
        let first = token_ranges(line.text).next()?;
        (first.end, line.text[first].chars().count())
    };
    let side = side_of_cells(cells)?;
    let mut tokens =
        token_ranges(&line.text[puzzle_end..]).map(|range| range.start + puzzle_end..range.end + puzzle_end).peekable();
    let is_names = |range: &Range<usize>| line.text[range.clone()].starts_with(NAMES_TOKEN);
    let is_parity = |range: &Range<usize>| line.text[range.clone()].starts_with(PARITY_TOKEN);
    let is_map = |range: &Range<usize>| {
        let map = &line.text[range.clone()];
        !map.contains('=') && map.chars().count() == cells && !is_names(range) && !is_parity(range)
    };
    let part = |range: Range<usize>| RulesPart {
        text: &line.text[range.clone()],
        line: line.number,
        column: line.text[..range.start].chars().count() + 1,
    };
    let mut found = LineRules { regions: None, cages: None, parity: None, names: None, side, end: text.len() };
    let is_sum = |range: &Range<usize>| line.text[range.clone()].contains('=');
    let mut next = tokens.next();
    if let Some(first) = next.clone().filter(is_map) {
        let cage_map = if tokens.peek().is_some_and(is_sum) {
            Some(first)
        } else if is_region_map(&line.text[first.clone()], side) {
            found.regions = Some(part(first));
            next = tokens.next();
            next.clone().filter(|map| is_map(map) && tokens.peek().is_some_and(is_sum))
        } else {
            // A map that is no rules: `Parser::no_second_puzzle` says so.
            return None;
        };
        if let Some(cage_map) = cage_map {
            let mut end = cage_map.end;
            while let Some(sum) = tokens.next_if(is_sum) {
                end = sum.end;
            }
            found.cages = Some(part(cage_map.start..end));
            next = tokens.next();
        }
    }
    // The parity map and the names, in either order: whichever comes
    // second is not left to be read as a comment.
    while let Some(token) = next.clone() {
        if found.parity.is_none() && is_parity(&token) {
            found.parity = Some(part(token.start + PARITY_TOKEN.len()..token.end));
        } else if found.names.is_none() && is_names(&token) {
            found.names = Some(part(token.start + NAMES_TOKEN.len()..token.end));
        } else {
            break;
        }
        next = tokens.next();
    }
    (found.regions.is_some() || found.cages.is_some() || found.parity.is_some() || found.names.is_some())
        .then_some(found)
}

/// Whether `labels` (one per cell of a `side` by `side` board) name `side`
/// regions of `side` cells, each connected through cells side by side.
fn is_region_map(labels: &str, side: usize) -> bool {
    let labels: Vec<char> = labels.chars().collect();
    let mut seen = vec![false; labels.len()];
    let mut regions = 0;
    for start in 0..labels.len() {
        if seen[start] {
            continue;
        }
        // The cells reached from `start` through its own label.
        seen[start] = true;
        let (mut reached, mut stack) = (0, vec![start]);
        while let Some(cell) = stack.pop() {
            reached += 1;
            let (row, col) = (cell / side, cell % side);
            let next = [
                (row > 0).then(|| cell - side),
                (row + 1 < side).then(|| cell + side),
                (col > 0).then(|| cell - 1),
                (col + 1 < side).then(|| cell + 1),
            ];
            for other in next.into_iter().flatten() {
                if !seen[other] && labels[other] == labels[start] {
                    seen[other] = true;
                    stack.push(other);
                }
            }
        }
        // A region split in two, or of the wrong size, is no region map.
        if reached != side {
            return false;
        }
        regions += 1;
    }
    regions == side
}

/// What a cell's text says.
#[derive(Clone, Copy, Debug)]
enum Token {
    Char(char),
    Number(u64),
    Null,
}

#[derive(Clone, Debug)]
struct RawCell {
    token: Token,
    span: Range<usize>,
    line: usize,
    column: usize,
}

/// Cells as found, before the shape is known.
struct Raw {
    cells: Vec<RawCell>,
    kind: LayoutKind,
    side: usize,
    box_rows: Option<usize>,
    box_cols: Option<usize>,
}

/// Cells decoded, with the shape.
struct Scan {
    cells: Vec<RawCell>,
    values: Vec<Option<u8>>,
    kind: LayoutKind,
    shape: Shape,
}

/// One line of the input: its number from 1, its byte offset, its text
/// without the line break.
#[derive(Clone, Copy)]
struct Line<'a> {
    number: usize,
    offset: usize,
    text: &'a str,
}

impl<'a> Line<'a> {
    /// The cells of `part`, which starts `at` bytes into the line: every
    /// character but white space and `|`.
    fn cells(&self, at: usize, part: &'a str) -> impl Iterator<Item = RawCell> + 'a {
        let (number, offset, before) = (self.number, self.offset, &self.text[..at]);
        let first_column = before.chars().count() + 1;
        part.chars()
            .zip(first_column..)
            .scan(at, |byte, (ch, column)| {
                let start = *byte;
                *byte += ch.len_utf8();
                Some((start, ch, column))
            })
            .filter(|&(_, ch, _)| !ch.is_whitespace() && ch != '|')
            .map(move |(start, ch, column)| RawCell {
                token: Token::Char(ch),
                span: offset + start..offset + start + ch.len_utf8(),
                line: number,
                column,
            })
    }
}

fn lines(text: &str) -> impl Iterator<Item = Line<'_>> {
    text.split('\n')
        .scan(0, |offset, raw| {
            let start = *offset;
            *offset += raw.len() + 1;
            Some((start, raw))
        })
        .zip(1..)
        .map(|((offset, raw), number)| Line { number, offset, text: raw.strip_suffix('\r').unwrap_or(raw) })
}

fn is_content(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && !t.starts_with('#')
}

/// A line of `-`, `=`, `+` and `|` only, with at least one dash.
fn is_separator(line: &str) -> bool {
    line.contains(['-', '=']) && line.chars().all(|c| c.is_whitespace() || "-=+|".contains(c))
}

/// The side of a square board of `cells` cells, from 2 to 25. Whether
/// it has a box shape, or needs one given (a Latin square), is decided
/// with the shape.
fn side_of_cells(cells: usize) -> Option<usize> {
    let side = cells.isqrt();
    (side * side == cells && (2..=MAX_SIDE).contains(&side)).then_some(side)
}

fn scan_grid<'a>(content: impl Iterator<Item = Line<'a>>) -> Result<Raw, ParseError> {
    let mut cells = Vec::new();
    let (mut rows, mut width) = (0, 0);
    let (mut box_rows, mut box_cols) = (None, None);
    for line in content {
        if is_separator(line.text) {
            if box_rows.is_none() && rows > 0 {
                box_rows = Some(rows);
            }
            continue;
        }
        // Counted first: nothing is kept of a grid larger than any board.
        let found = line.cells(0, line.text).count();
        if rows == 0 {
            width = found;
            if width > MAX_SIDE {
                return Err(ParseError::UnsupportedSide { side: width });
            }
            if let Some(bar) = line.text.find('|') {
                box_cols = Some(line.cells(0, &line.text[..bar]).count());
            }
        } else if found != width {
            return Err(ParseError::RowLength { line: line.number, found, expected: width });
        }
        rows += 1;
        if rows > width {
            return Err(ParseError::RowCount { found: rows, expected: width });
        }
        cells.extend(line.cells(0, line.text));
    }
    if rows != width {
        return Err(ParseError::RowCount { found: rows, expected: width });
    }
    Ok(Raw { cells, kind: LayoutKind::Grid, side: width, box_rows, box_cols })
}

fn shape_from_separators(side: usize, rows: Option<usize>, cols: Option<usize>) -> Result<Shape, ParseError> {
    let unsupported = ParseError::UnsupportedSide { side };
    let divide = |part: usize| if part != 0 && side % part == 0 { Some(side / part) } else { None };
    let (r, c) = match (rows, cols) {
        (Some(r), Some(c)) => (r, c),
        (Some(r), None) => (r, divide(r).ok_or(unsupported.clone())?),
        (None, Some(c)) => (divide(c).ok_or(unsupported.clone())?, c),
        (None, None) => return Shape::from_side(side).ok_or(unsupported),
    };
    match Shape::try_new(r, c) {
        Some(shape) if shape.side() == side => Ok(shape),
        _ if Shape::from_side(side).is_none() => Err(unsupported),
        _ => Err(ParseError::ShapeMismatch { expected: Shape::from_side(side).ok_or(unsupported)?, found: (r, c) }),
    }
}

fn decode(cell: &RawCell, side: usize, hex: bool) -> Result<Option<u8>, ParseError> {
    let value = match cell.token {
        Token::Null | Token::Number(0) | Token::Char('.' | '_') => return Ok(None),
        Token::Char('0') if !hex && side <= 9 => return Ok(None),
        Token::Number(n) => n,
        Token::Char(ch) => {
            let value = if hex {
                ch.to_digit(16).map(|d| d + 1)
            } else {
                // Letters in either case; the alphabet itself is the board's.
                u8::try_from(ch.to_ascii_uppercase()).ok().and_then(crate::board::digit_of_symbol).map(u32::from)
            };
            match value.filter(|&v| v as usize <= side && v != 0) {
                Some(v) => u64::from(v),
                None => return Err(ParseError::InvalidSymbol { ch, line: cell.line, column: cell.column, side }),
            }
        }
    };
    match u8::try_from(value) {
        Ok(digit) if usize::from(digit) <= side => Ok(Some(digit)),
        _ => Err(ParseError::ValueOutOfRange { value, side, line: cell.line, column: cell.column }),
    }
}

/// Reads the nested matrix that starts on line `first`: `[[1, null, ...], ...]`,
/// or a flat `[1, null, ...]`.
fn scan_matrix(text: &str, first: Line<'_>) -> Result<Raw, ParseError> {
    let mut reader = MatrixReader::new(text, first);
    reader.expect('[', "'['")?;
    let mut rows: Vec<(usize, Vec<RawCell>)> = Vec::new();
    let mut flat: Vec<RawCell> = Vec::new();
    loop {
        reader.skip_space();
        match reader.peek() {
            Some(']') => {
                reader.bump();
                break;
            }
            Some('[') if flat.is_empty() => {
                let line = reader.line;
                reader.bump();
                let mut row = Vec::new();
                loop {
                    reader.skip_space();
                    if reader.peek() == Some(']') {
                        reader.bump();
                        break;
                    }
                    let value = reader.value()?;
                    if rows.len() + 1 > MAX_SIDE || row.len() + 1 > MAX_SIDE {
                        return Err(ParseError::TooLarge { line: value.line, column: value.column });
                    }
                    row.push(value);
                    reader.skip_space();
                    match reader.peek() {
                        Some(',') => reader.bump(),
                        Some(']') => {}
                        other => return Err(reader.error("',' or ']'", other)),
                    }
                }
                rows.push((line, row));
            }
            Some(_) if rows.is_empty() => {
                let value = reader.value()?;
                if flat.len() + 1 > MAX_SIDE * MAX_SIDE {
                    return Err(ParseError::TooLarge { line: value.line, column: value.column });
                }
                flat.push(value);
            }
            other => return Err(reader.error("a row '['", other)),
        }
        reader.skip_space();
        match reader.peek() {
            Some(',') => reader.bump(),
            Some(']') => {}
            other => return Err(reader.error("',' or ']'", other)),
        }
    }
    reader.skip_space_and_comments();
    if let Some(ch) = reader.peek() {
        return Err(reader.error("the end of the input", Some(ch)));
    }
    let (cells, side) = if rows.is_empty() {
        let side = side_of_cells(flat.len()).ok_or(ParseError::CellCount { found: flat.len(), line: first.number })?;
        (flat, side)
    } else {
        // The width most rows have (the first row's on a tie), so that the
        // one odd row is the one reported.
        let lengths = rows.iter().map(|(_, row)| row.len()).counts();
        let side = rows.iter().rev().map(|(_, row)| row.len()).max_by_key(|len| lengths[len]).unwrap_or(0);
        for (line, row) in &rows {
            if row.len() != side {
                return Err(ParseError::RowLength { line: *line, found: row.len(), expected: side });
            }
        }
        if rows.len() != side {
            return Err(ParseError::RowCount { found: rows.len(), expected: side });
        }
        (rows.into_iter().flat_map(|(_, row)| row).collect(), side)
    };
    Ok(Raw { cells, kind: LayoutKind::Matrix, side, box_rows: None, box_cols: None })
}

/// A cursor over the matrix text that tracks lines and columns.
struct MatrixReader<'a> {
    text: &'a str,
    at: usize,
    line: usize,
    /// The column of `at`, in characters from 1: kept as the cursor moves,
    /// since counting it from the line's start at every value is quadratic
    /// on a long line.
    column: usize,
}

impl<'a> MatrixReader<'a> {
    fn new(text: &'a str, first: Line<'_>) -> Self {
        let lead = first.text.len() - first.text.trim_start().len();
        let column = first.text[..lead].chars().count() + 1;
        MatrixReader { text, at: first.offset + lead, line: first.number, column }
    }

    fn peek(&self) -> Option<char> {
        self.text[self.at..].chars().next()
    }

    fn bump(&mut self) {
        if let Some(ch) = self.peek() {
            self.at += ch.len_utf8();
            if ch == '\n' {
                self.line += 1;
                self.column = 1;
            } else {
                self.column += 1;
            }
        }
    }

    fn column(&self) -> usize {
        self.column
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    fn skip_space_and_comments(&mut self) {
        loop {
            self.skip_space();
            if self.peek() != Some('#') {
                return;
            }
            while self.peek().is_some_and(|c| c != '\n') {
                self.bump();
            }
        }
    }

    fn error(&self, expected: &'static str, found: Option<char>) -> ParseError {
        ParseError::Matrix { expected, found, line: self.line, column: self.column() }
    }

    fn expect(&mut self, want: char, expected: &'static str) -> Result<(), ParseError> {
        match self.peek() {
            Some(ch) if ch == want => {
                self.bump();
                Ok(())
            }
            other => Err(self.error(expected, other)),
        }
    }

    /// A number, or `null`, `nil` or `None` for an empty cell.
    fn value(&mut self) -> Result<RawCell, ParseError> {
        let (start, line, column) = (self.at, self.line, self.column());
        let expected = "a number, null or nil";
        match self.peek() {
            Some(c) if c.is_ascii_digit() => {
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.bump();
                }
                let digits = &self.text[start..self.at];
                // Anything too long for u64 is out of range anyway.
                let value = digits.parse().unwrap_or(u64::MAX);
                Ok(RawCell { token: Token::Number(value), span: start..self.at, line, column })
            }
            Some(c) if c.is_ascii_alphabetic() => {
                while self.peek().is_some_and(|c| c.is_ascii_alphanumeric()) {
                    self.bump();
                }
                match &self.text[start..self.at] {
                    "null" | "nil" | "None" => Ok(RawCell { token: Token::Null, span: start..self.at, line, column }),
                    _ => Err(ParseError::Matrix { expected, found: Some(c), line, column }),
                }
            }
            other => Err(self.error(expected, other)),
        }
    }
}
