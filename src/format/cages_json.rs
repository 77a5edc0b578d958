//! Killer cages as JSON: [`Rules::with_cage_json`].

use crate::board::{Relation, Rules, RulesError};

/// The four hexadecimal digits of a `\u` escape.
fn hex_unit(chars: &mut impl Iterator<Item = (usize, char)>) -> Option<u16> {
    let hex: String = chars.take(4).map(|(_, c)| c).collect();
    u16::from_str_radix(&hex, 16).ok().filter(|_| hex.len() == 4)
}

/// A reader's error as the line, column and reason the parser reports.
pub(super) fn placed(e: RulesError) -> (usize, usize, String) {
    match e {
        RulesError::CageMap { line, column, reason } => (line, column, reason),
        other => (1, 1, other.to_string()),
    }
}

/// A cage as read, with where it starts for errors.
struct JsonCage {
    at: (usize, usize),
    sum: Option<usize>,
    cells: Option<Vec<usize>>,
}

/// A cursor over JSON text that knows each byte's line and column.
pub(super) struct Reader<'a> {
    pub(super) text: &'a str,
    pub(super) pos: usize,
    /// The last place asked for: a byte, its line and its column. Places
    /// are asked for in order as an object is read, so each is counted on
    /// from the last (an object with thousands of relations on one line
    /// took most of its reading time counting from the start each time).
    last_place: std::cell::Cell<(usize, usize, usize)>,
}

/// How deep arrays and objects may nest in a value that is skipped: far
/// more than any cage file needs, and a bound on the recursion.
const MAX_DEPTH: usize = 64;

impl<'a> Reader<'a> {
    /// A reader at the start of `text`.
    pub(super) fn new(text: &'a str) -> Reader<'a> {
        Reader { text, pos: 0, last_place: std::cell::Cell::new((0, 1, 1)) }
    }

    /// The line and column (from 1, in characters) of byte `at`.
    pub(super) fn place(&self, at: usize) -> (usize, usize) {
        let (from, mut line, mut column) = self.last_place.get();
        let from = if at >= from {
            from
        } else {
            (line, column) = (1, 1);
            0
        };
        let between = &self.text[from..at];
        match between.rfind('\n') {
            Some(last) => {
                line += between.matches('\n').count();
                column = between[last + 1..].chars().count() + 1;
            }
            None => column += between.chars().count(),
        }
        self.last_place.set((at, line, column));
        (line, column)
    }

    pub(super) fn error(&self, at: usize, reason: impl Into<String>) -> RulesError {
        let (line, column) = self.place(at);
        RulesError::CageMap { line, column, reason: reason.into() }
    }

    pub(super) fn skip_space(&mut self) {
        let rest = &self.text[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    pub(super) fn peek(&mut self) -> Option<char> {
        self.skip_space();
        self.text[self.pos..].chars().next()
    }

    fn expect(&mut self, wanted: char, what: &str) -> Result<(), RulesError> {
        match self.peek() {
            Some(c) if c == wanted => {
                self.pos += 1;
                Ok(())
            }
            Some(c) => Err(self.error(self.pos, format!("expected {what}, found '{c}'"))),
            None => Err(self.error(self.pos, format!("expected {what}, found the end"))),
        }
    }

    /// A string, its escapes decoded.
    pub(super) fn string(&mut self) -> Result<String, RulesError> {
        self.expect('"', "a string")?;
        let mut out = String::new();
        let mut chars = self.text[self.pos..].char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.pos += i + 1;
                    return Ok(out);
                }
                '\\' => {
                    let escaped = match chars.next() {
                        Some((_, e @ ('"' | '\\' | '/'))) => Some(e),
                        Some((_, 'b')) => Some('\u{8}'),
                        Some((_, 'f')) => Some('\u{c}'),
                        Some((_, 'n')) => Some('\n'),
                        Some((_, 'r')) => Some('\r'),
                        Some((_, 't')) => Some('\t'),
                        Some((_, 'u')) => match hex_unit(&mut chars) {
                            // A pair of surrogates is one character; a lone
                            // one reads as the replacement character, as keys
                            // and names are only compared.
                            Some(high @ 0xD800..=0xDBFF) => {
                                let escape = chars.next().map(|(_, c)| c) == Some('\\')
                                    && chars.next().map(|(_, c)| c) == Some('u');
                                let low = if escape { hex_unit(&mut chars) } else { None };
                                low.map(|low| {
                                    char::decode_utf16([high, low])
                                        .next()
                                        .map_or('\u{FFFD}', |c| c.unwrap_or('\u{FFFD}'))
                                })
                            }
                            Some(single) => Some(char::from_u32(u32::from(single)).unwrap_or('\u{FFFD}')),
                            None => None,
                        },
                        _ => None,
                    };
                    match escaped {
                        Some(c) => out.push(c),
                        None => {
                            return Err(self.error(self.pos + i, "a string holds an escape that JSON does not have"));
                        }
                    }
                }
                c => out.push(c),
            }
        }
        Err(self.error(self.text.len(), "a string is not closed"))
    }

    /// A whole number, at most `usize::MAX`.
    pub(super) fn number(&mut self) -> Result<usize, RulesError> {
        self.skip_space();
        let start = self.pos;
        let digits = self.text[start..].bytes().take_while(u8::is_ascii_digit).count();
        let end = start + digits;
        let next = self.text[end..].chars().next();
        if digits == 0 || matches!(next, Some('.' | 'e' | 'E')) {
            let found: String = self.text[start..]
                .chars()
                .take_while(|c| !matches!(c, ',' | ']' | '}') && !c.is_whitespace())
                .collect();
            return Err(self.error(start, format!("expected a whole number, found {found:?}")));
        }
        self.pos = end;
        self.text[start..end].parse().map_err(|_| self.error(start, "the number is too large"))
    }

    /// The items of an array, each read by `item`.
    pub(super) fn array(
        &mut self,
        mut item: impl FnMut(&mut Self) -> Result<(), RulesError>,
    ) -> Result<(), RulesError> {
        self.expect('[', "'['")?;
        if self.peek() == Some(']') {
            self.pos += 1;
            return Ok(());
        }
        loop {
            item(self)?;
            match self.peek() {
                Some(',') => self.pos += 1,
                _ => return self.expect(']', "',' or ']'"),
            }
        }
    }

    /// The members of an object, each value read by `member` given its key
    /// and where the key starts.
    pub(super) fn object(
        &mut self,
        mut member: impl FnMut(&mut Self, &str, usize) -> Result<(), RulesError>,
    ) -> Result<(), RulesError> {
        self.expect('{', "'{'")?;
        if self.peek() == Some('}') {
            self.pos += 1;
            return Ok(());
        }
        loop {
            self.skip_space();
            let at = self.pos;
            let key = self.string()?;
            self.expect(':', "':'")?;
            member(self, &key, at)?;
            match self.peek() {
                Some(',') => self.pos += 1,
                _ => return self.expect('}', "',' or '}'"),
            }
        }
    }

    /// Any value, read and dropped: members a cage file may carry for
    /// other programs.
    pub(super) fn skip_value(&mut self, depth: usize) -> Result<(), RulesError> {
        if depth > MAX_DEPTH {
            return Err(self.error(self.pos, format!("values nest more than {MAX_DEPTH} deep")));
        }
        match self.peek() {
            Some('[') => self.array(|r| r.skip_value(depth + 1)),
            Some('{') => self.object(|r, _, _| r.skip_value(depth + 1)),
            Some('"') => self.string().map(|_| ()),
            Some(_) => {
                let rest = &self.text[self.pos..];
                let word = rest.find(|c: char| matches!(c, ',' | ']' | '}') || c.is_whitespace()).unwrap_or(rest.len());
                if word == 0 {
                    return Err(self.error(self.pos, "expected a value"));
                }
                self.pos += word;
                Ok(())
            }
            None => Err(self.error(self.pos, "expected a value, found the end")),
        }
    }

    fn cage(&mut self, cages: &mut Vec<JsonCage>) -> Result<(), RulesError> {
        self.skip_space();
        let mut cage = JsonCage { at: self.place(self.pos), sum: None, cells: None };
        self.object(|r, key, at| match key {
            "sum" if cage.sum.is_some() => Err(r.error(at, "a cage has two sums")),
            "sum" => {
                cage.sum = Some(r.number()?);
                Ok(())
            }
            "cells" if cage.cells.is_some() => Err(r.error(at, "a cage has two lists of cells")),
            "cells" => {
                cage.cells = Some(r.numbers()?);
                Ok(())
            }
            _ => r.skip_value(0),
        })?;
        cages.push(cage);
        Ok(())
    }
}

impl Rules {
    /// These rules with killer cages given as JSON: an array of objects
    /// with a `sum` and the `cells` (indices row by row from 0), or an
    /// object whose `cages` member is that array. Other members are
    /// skipped, so a file may carry more for other programs.
    ///
    /// ```json
    /// {"cages": [{"sum": 3, "cells": [0, 1]}, {"sum": 7, "cells": [14, 15]}]}
    /// ```
    ///
    /// # Errors
    ///
    /// [`RulesError::CageMap`] with the line and column: text that is not
    /// such JSON, a cage without a sum or cells, or a cage the rules refuse
    /// (as [`Rules::with_cage`] says why).
    ///
    /// ```
    /// use lazydoku::{Rules, Shape};
    ///
    /// let killer = Rules::new(Shape::new(2, 2)).with_cage_json(r#"[{"sum": 3, "cells": [0, 1]}]"#)?;
    /// assert_eq!(killer.cages().collect::<Vec<_>>(), [(3, vec![0, 1])]);
    /// let err = Rules::new(Shape::new(2, 2)).with_cage_json(r#"[{"sum": 9, "cells": [0, 1]}]"#).unwrap_err();
    /// assert_eq!(err.to_string(), "line 1, column 2: no 2 distinct digits add up to 9");
    /// # Ok::<(), lazydoku::RulesError>(())
    /// ```
    pub fn with_cage_json(self, text: &str) -> Result<Rules, RulesError> {
        let mut reader = Reader::new(text);
        let mut cages = Vec::new();
        let mut found_cages = false;
        if reader.peek() == Some('{') {
            reader.object(|r, key, _| {
                if key == "cages" {
                    found_cages = true;
                    r.array(|r| r.cage(&mut cages))
                } else {
                    r.skip_value(0)
                }
            })?;
        } else {
            found_cages = true;
            reader.array(|r| r.cage(&mut cages))?;
        }
        if !found_cages {
            return Err(reader.error(0, "the object has no \"cages\" member"));
        }
        if let Some(c) = reader.peek() {
            return Err(reader.error(reader.pos, format!("'{c}' after the end of the cages")));
        }
        // The cages before the first one lacking a member are checked
        // first, so that the error reported is the first cage's.
        let complete = cages.iter().position(|cage| cage.sum.is_none() || cage.cells.is_none()).unwrap_or(cages.len());
        let whole =
            cages[..complete].iter().map(|cage| (cage.sum.unwrap_or_default(), cage.cells.clone().unwrap_or_default()));
        let rules = self.with_cages_numbered(whole).map_err(|(k, e)| {
            let (line, column) = cages[k].at;
            RulesError::CageMap { line, column, reason: e.to_string() }
        })?;
        match cages.get(complete) {
            Some(&JsonCage { at: (line, column), sum, .. }) => {
                let missing = if sum.is_none() { "sum" } else { "cells" };
                Err(RulesError::CageMap { line, column, reason: format!("a cage has no \"{missing}\"") })
            }
            None => Ok(rules),
        }
    }
}

/// A relation between two cells, as [`Rules::with_relation`] takes it:
/// the first cell, the relation and the second.
pub(super) type RelatedCells = (usize, Relation, usize);

/// A sum as [`Rules::with_sum`] takes it (the total and the cells), with
/// its line and column.
pub(super) type PlacedSum = ((usize, Vec<usize>), (usize, usize));

/// A quadruple as [`Rules::with_quadruple`] takes it (the cells and the
/// digits), with its line and column.
pub(super) type PlacedQuadruple = ((Vec<usize>, Vec<u8>), (usize, usize));

/// An arrow as [`Rules::with_arrow`] takes it (the circle and the shaft),
/// with its line and column.
pub(super) type PlacedArrow = ((Vec<usize>, Vec<usize>), (usize, usize));

/// A puzzle written as a JSON object, as `lazydoku generate --format json`
/// writes one: where each member that the parser reads lies in the text,
/// or what it holds.
pub(super) struct PuzzleObject {
    /// The puzzle's cells: the text inside the quotes of `puzzle`.
    pub(super) puzzle: std::ops::Range<usize>,
    /// The region map inside the quotes of `regions`, with its line and
    /// column.
    pub(super) regions: Option<(std::ops::Range<usize>, (usize, usize))>,
    /// The whole value of `cages`, with its line and column.
    pub(super) cages: Option<(std::ops::Range<usize>, (usize, usize))>,
    /// Each name of `rules`, with its line and column.
    pub(super) names: Vec<(String, (usize, usize))>,
    /// Each region of `extra_regions` (as [`Rules::with_region`] takes
    /// it), with its line and column.
    pub(super) extra_regions: Vec<(Vec<usize>, (usize, usize))>,
    /// Each group of `distinct_groups` (as [`Rules::with_distinct`] takes
    /// it), with its line and column.
    pub(super) distinct_groups: Vec<(Vec<usize>, (usize, usize))>,
    /// Each thermometer of `thermometers`, bulb first (as
    /// [`Rules::with_thermometer`] takes it), with its line and column.
    pub(super) thermometers: Vec<(Vec<usize>, (usize, usize))>,
    /// Each relation of `relations` (as [`Rules::with_relation`] takes
    /// it), with its line and column.
    pub(super) relations: Vec<(RelatedCells, (usize, usize))>,
    /// Each sum of `sums` (as [`Rules::with_sum`] takes it: the total and
    /// the cells), with its line and column.
    pub(super) sums: Vec<PlacedSum>,
    /// Each arrow of `arrows` (as [`Rules::with_arrow`] takes it: the
    /// circle and the shaft), with its line and column.
    pub(super) arrows: Vec<PlacedArrow>,
    /// Each sandwich of `sandwiches` (as [`Rules::with_sandwich`] takes it:
    /// the sum and the cells), with its line and column.
    pub(super) sandwiches: Vec<PlacedSum>,
    /// Each X-sum of `x_sums` (as [`Rules::with_x_sum`] takes it: the sum
    /// and the cells from the clue's side), with its line and column.
    pub(super) x_sums: Vec<PlacedSum>,
    /// Each clue of `skyscrapers` (as [`Rules::with_skyscraper`] takes it:
    /// how many it sees, and the cells from its side), with its line and
    /// column.
    pub(super) skyscrapers: Vec<PlacedSum>,
    /// Each line of `between_lines` (as [`Rules::with_between_line`] takes
    /// it, its ends first and last), with its line and column.
    pub(super) between_lines: Vec<(Vec<usize>, (usize, usize))>,
    /// Each quadruple of `quadruples` (as [`Rules::with_quadruple`] takes
    /// it: the cells and the digits), with its line and column.
    pub(super) quadruples: Vec<PlacedQuadruple>,
    /// Each line of `renbans` (as [`Rules::with_renban`] takes it), with
    /// its line and column.
    pub(super) renbans: Vec<(Vec<usize>, (usize, usize))>,
    /// Each line of `region_sum_lines`, `zipper_lines` and `double_arrows`
    /// (as [`Rules::with_region_sum_line`], [`Rules::with_zipper_line`]
    /// and [`Rules::with_double_arrow`] take them), with its line and
    /// column.
    pub(super) region_sum_lines: Vec<(Vec<usize>, (usize, usize))>,
    pub(super) zipper_lines: Vec<(Vec<usize>, (usize, usize))>,
    pub(super) double_arrows: Vec<(Vec<usize>, (usize, usize))>,
    /// Each line of `entropic_lines` and `modular_lines` (as
    /// [`Rules::with_entropic_line`] and [`Rules::with_modular_line`] take
    /// them), with its line and column.
    pub(super) entropic_lines: Vec<(Vec<usize>, (usize, usize))>,
    pub(super) modular_lines: Vec<(Vec<usize>, (usize, usize))>,
    /// The cells of `even` and of `odd` (as [`Rules::with_even`] and
    /// [`Rules::with_odd`] take them), each list with its line and column.
    pub(super) even: Option<(Vec<usize>, (usize, usize))>,
    pub(super) odd: Option<(Vec<usize>, (usize, usize))>,
}

impl PuzzleObject {
    /// Where the object's first rule of its own is (a map, a list of
    /// cells, a name), if it has one.
    pub(super) fn first_rule_place(&self) -> Option<(usize, usize)> {
        let first = |list: &[(Vec<usize>, (usize, usize))]| list.first().map(|(_, at)| *at);
        self.regions
            .as_ref()
            .or(self.cages.as_ref())
            .map(|(_, at)| *at)
            .or(first(&self.extra_regions))
            .or(first(&self.distinct_groups))
            .or(first(&self.thermometers))
            .or(self.relations.first().map(|(_, at)| *at))
            .or(self.sums.first().map(|(_, at)| *at))
            .or(self.arrows.first().map(|(_, at)| *at))
            .or(self.sandwiches.first().map(|(_, at)| *at))
            .or(self.x_sums.first().map(|(_, at)| *at))
            .or(self.skyscrapers.first().map(|(_, at)| *at))
            .or(first(&self.between_lines))
            .or(self.quadruples.first().map(|(_, at)| *at))
            .or(first(&self.renbans))
            .or(first(&self.region_sum_lines))
            .or(first(&self.zipper_lines))
            .or(first(&self.double_arrows))
            .or(first(&self.entropic_lines))
            .or(first(&self.modular_lines))
            .or(self.even.as_ref().map(|(_, at)| *at))
            .or(self.odd.as_ref().map(|(_, at)| *at))
            .or(self.names.first().map(|(_, at)| *at))
    }

    /// Whether the object's only rules of its own are names (which the
    /// parser's options hold), with no map or list of cells.
    pub(super) fn names_only(&self) -> bool {
        let place = self.first_rule_place();
        place.is_some() && place == self.names.first().map(|(_, at)| *at)
    }

    /// Reads `text`, a JSON object with a `puzzle` string and perhaps
    /// `regions`, `cages` and `rules`; other members are skipped. A comma
    /// may follow it. An error gives its line, column and reason.
    #[expect(clippy::too_many_lines, reason = "one arm per member, read in one place")]
    pub(super) fn read(text: &str) -> Result<PuzzleObject, (usize, usize, String)> {
        let fail = placed;
        let mut reader = Reader::new(text);
        let (mut puzzle, mut regions, mut cages, mut names) = (None, None, None, None);
        let (mut extra_regions, mut distinct_groups, mut thermometers, mut relations) = (None, None, None, None);
        let (mut even, mut odd, mut sums, mut arrows) = (None, None, None, None);
        let (mut sandwiches, mut between_lines, mut quadruples, mut renbans) = (None, None, None, None);
        let (mut region_sum_lines, mut zipper_lines, mut double_arrows) = (None, None, None);
        let (mut entropic_lines, mut modular_lines, mut x_sums, mut skyscrapers) = (None, None, None, None);
        reader
            .object(|r, key, at| {
                let twice = |r: &Reader<'_>| r.error(at, format!("the object has two \"{key}\" members"));
                match key {
                    "puzzle" | "regions" => {
                        let found = r.plain_string()?;
                        let slot = if key == "puzzle" { &mut puzzle } else { &mut regions };
                        if slot.replace((found.clone(), r.place(found.start))).is_some() {
                            return Err(twice(r));
                        }
                        Ok(())
                    }
                    "cages" => {
                        r.skip_space();
                        let start = r.pos;
                        r.skip_value(0)?;
                        if cages.replace((start..r.pos, r.place(start))).is_some() {
                            return Err(twice(r));
                        }
                        Ok(())
                    }
                    "rules" => {
                        let mut list = Vec::new();
                        r.array(|r| {
                            r.skip_space();
                            let place = r.place(r.pos);
                            list.push((r.string()?, place));
                            Ok(())
                        })?;
                        if names.replace(list).is_some() {
                            return Err(twice(r));
                        }
                        Ok(())
                    }
                    "relations" => {
                        let mut list = Vec::new();
                        r.array(|r| r.relation(&mut list))?;
                        if relations.replace(list).is_some() {
                            return Err(twice(r));
                        }
                        Ok(())
                    }
                    "sums" | "sandwiches" | "x_sums" | "skyscrapers" => {
                        let mut list = Vec::new();
                        let (what, number) = if key == "skyscrapers" { ("skyscraper", "clue") } else { ("sum", "sum") };
                        r.array(|r| r.sum_line(what, number, &mut list))?;
                        let slot = match key {
                            "sums" => &mut sums,
                            "sandwiches" => &mut sandwiches,
                            "x_sums" => &mut x_sums,
                            _ => &mut skyscrapers,
                        };
                        if slot.replace(list).is_some() {
                            return Err(twice(r));
                        }
                        Ok(())
                    }
                    "quadruples" => {
                        let mut list = Vec::new();
                        r.array(|r| r.quadruple(&mut list))?;
                        if quadruples.replace(list).is_some() {
                            return Err(twice(r));
                        }
                        Ok(())
                    }
                    "arrows" => {
                        let mut list = Vec::new();
                        r.array(|r| r.arrow(&mut list))?;
                        if arrows.replace(list).is_some() {
                            return Err(twice(r));
                        }
                        Ok(())
                    }
                    "even" | "odd" => {
                        let cells = r.cells()?;
                        let slot = if key == "even" { &mut even } else { &mut odd };
                        if slot.replace(cells).is_some() {
                            return Err(twice(r));
                        }
                        Ok(())
                    }
                    "extra_regions" | "distinct_groups" | "thermometers" | "between_lines" | "renbans"
                    | "region_sum_lines" | "zipper_lines" | "double_arrows" | "entropic_lines" | "modular_lines" => {
                        let mut lists = Vec::new();
                        r.array(|r| {
                            lists.push(r.cells()?);
                            Ok(())
                        })?;
                        let slot = match key {
                            "extra_regions" => &mut extra_regions,
                            "distinct_groups" => &mut distinct_groups,
                            "between_lines" => &mut between_lines,
                            "renbans" => &mut renbans,
                            "region_sum_lines" => &mut region_sum_lines,
                            "zipper_lines" => &mut zipper_lines,
                            "double_arrows" => &mut double_arrows,
                            "entropic_lines" => &mut entropic_lines,
                            "modular_lines" => &mut modular_lines,
                            _ => &mut thermometers,
                        };
                        if slot.replace(lists).is_some() {
                            return Err(twice(r));
                        }
                        Ok(())
                    }
                    _ => r.skip_value(0),
                }
            })
            .map_err(fail)?;
        // One comma may follow, as after an element of an array written
        // an element to a line (or over several lines each): the layout
        // keeps it, so that the answers make the same array.
        if reader.peek() == Some(',') {
            reader.pos += 1;
        }
        if let Some(c) = reader.peek() {
            return Err(fail(reader.error(reader.pos, format!("'{c}' after the end of the object"))));
        }
        let Some((puzzle, _)) = puzzle else {
            return Err((1, 1, "the object has no \"puzzle\" member".to_owned()));
        };
        Ok(PuzzleObject {
            puzzle,
            regions,
            cages,
            names: names.unwrap_or_default(),
            extra_regions: extra_regions.unwrap_or_default(),
            distinct_groups: distinct_groups.unwrap_or_default(),
            thermometers: thermometers.unwrap_or_default(),
            relations: relations.unwrap_or_default(),
            sums: sums.unwrap_or_default(),
            arrows: arrows.unwrap_or_default(),
            sandwiches: sandwiches.unwrap_or_default(),
            x_sums: x_sums.unwrap_or_default(),
            skyscrapers: skyscrapers.unwrap_or_default(),
            between_lines: between_lines.unwrap_or_default(),
            quadruples: quadruples.unwrap_or_default(),
            renbans: renbans.unwrap_or_default(),
            region_sum_lines: region_sum_lines.unwrap_or_default(),
            zipper_lines: zipper_lines.unwrap_or_default(),
            double_arrows: double_arrows.unwrap_or_default(),
            entropic_lines: entropic_lines.unwrap_or_default(),
            modular_lines: modular_lines.unwrap_or_default(),
            even,
            odd,
        })
    }
}

impl Reader<'_> {
    /// An array of cell numbers, with the line and column where it starts.
    fn cells(&mut self) -> Result<(Vec<usize>, (usize, usize)), RulesError> {
        self.skip_space();
        let place = self.place(self.pos);
        Ok((self.numbers()?, place))
    }

    /// An array of numbers.
    fn numbers(&mut self) -> Result<Vec<usize>, RulesError> {
        let mut numbers = Vec::new();
        self.array(|r| {
            numbers.push(r.number()?);
            Ok(())
        })?;
        Ok(numbers)
    }

    /// A relation between two cells: `{"cells": [first, second],
    /// "relation": NAME}`, with a `value` for the relations that carry one
    /// ([`Relation::name`], [`Relation::value`]), and a `value` of two
    /// numbers for `index` ([`Relation::digits`]).
    fn relation(&mut self, out: &mut Vec<(RelatedCells, (usize, usize))>) -> Result<(), RulesError> {
        self.skip_space();
        let (start, place) = (self.pos, self.place(self.pos));
        let (mut cells, mut name, mut value, mut digits) = (None, None, None, None);
        self.object(|r, key, at| {
            let twice = |r: &Reader<'_>| Err(r.error(at, format!("a relation has two \"{key}\" members")));
            match key {
                "cells" if cells.is_some() => twice(r),
                "cells" => {
                    cells = Some(r.numbers()?);
                    Ok(())
                }
                "relation" if name.is_some() => twice(r),
                "relation" => {
                    name = Some(r.string()?);
                    Ok(())
                }
                "value" if value.is_some() || digits.is_some() => twice(r),
                "value" if r.peek() == Some('[') => {
                    digits = Some(r.numbers()?);
                    Ok(())
                }
                "value" => {
                    value = Some(r.number()?);
                    Ok(())
                }
                _ => r.skip_value(0),
            }
        })?;
        let cells = match cells.as_deref() {
            Some(&[first, second]) => (first, second),
            Some(other) => {
                return Err(self.error(
                    start,
                    format!("a relation has {}; it takes two", crate::board::Counted(other.len(), "cell")),
                ));
            }
            None => return Err(self.error(start, "a relation has no \"cells\"")),
        };
        let Some(name) = name else { return Err(self.error(start, "a relation has no \"relation\"")) };
        if name == "index" {
            let Some(&[first, second]) = digits.as_deref() else {
                return Err(self.error(start, "the relation \"index\" needs a \"value\" of two digits, such as [3, 1]"));
            };
            out.push(((cells.0, Relation::Index(first, second), cells.1), place));
            return Ok(());
        }
        if digits.is_some() {
            return Err(self.error(start, format!("the relation {name:?} takes one number as its \"value\"")));
        }
        let relation = Relation::from_name(&name, value).ok_or_else(|| {
            let reason = match Relation::from_name(&name, Some(1)).or(Relation::from_name(&name, None)) {
                None => format!(
                    "unknown relation {name:?}; use less, less-or-equal, difference, ratio, sum, apart, not-difference, not-ratio, not-sum or index"
                ),
                Some(relation @ (Relation::Less | Relation::LessOrEqual)) => {
                    format!("the relation \"{}\" takes no \"value\"", relation.name())
                }
                Some(_) => format!("the relation {name:?} needs a \"value\""),
            };
            self.error(start, reason)
        })?;
        out.push(((cells.0, relation, cells.1), place));
        Ok(())
    }

    /// A number and cells, as `what` (a sum, a skyscraper) holds them:
    /// `{"sum": N, "cells": [...]}`, the number named `number`.
    fn sum_line(&mut self, what: &str, number: &str, out: &mut Vec<PlacedSum>) -> Result<(), RulesError> {
        self.skip_space();
        let (start, place) = (self.pos, self.place(self.pos));
        let (mut sum, mut cells) = (None, None);
        self.object(|r, key, at| {
            let twice = |r: &Reader<'_>| Err(r.error(at, format!("a {what} has two \"{key}\" members")));
            match key {
                _ if key == number && sum.is_some() => twice(r),
                _ if key == number => {
                    sum = Some(r.number()?);
                    Ok(())
                }
                "cells" if cells.is_some() => twice(r),
                "cells" => {
                    cells = Some(r.cells()?.0);
                    Ok(())
                }
                _ => r.skip_value(0),
            }
        })?;
        let Some(sum) = sum else { return Err(self.error(start, format!("a {what} has no \"{number}\""))) };
        let Some(cells) = cells else { return Err(self.error(start, format!("a {what} has no \"cells\""))) };
        out.push(((sum, cells), place));
        Ok(())
    }

    /// An object of two lists of numbers named `names`, both needed, as
    /// `what` ("an arrow") holds them: the lists, and where the object
    /// starts.
    fn two_lists(&mut self, what: &str, names: [&str; 2]) -> Result<([Vec<usize>; 2], usize), RulesError> {
        self.skip_space();
        let start = self.pos;
        let mut lists: [Option<Vec<usize>>; 2] = [None, None];
        self.object(|r, key, at| {
            let Some(k) = names.iter().position(|&name| name == key) else { return r.skip_value(0) };
            if lists[k].replace(r.cells()?.0).is_some() {
                return Err(r.error(at, format!("{what} has two \"{key}\" members")));
            }
            Ok(())
        })?;
        let [first, second] = lists;
        let Some(first) = first else { return Err(self.error(start, format!("{what} has no \"{}\"", names[0]))) };
        let Some(second) = second else { return Err(self.error(start, format!("{what} has no \"{}\"", names[1]))) };
        Ok(([first, second], start))
    }

    /// A quadruple: `{"cells": [...], "digits": [...]}`.
    fn quadruple(&mut self, out: &mut Vec<PlacedQuadruple>) -> Result<(), RulesError> {
        let ([cells, digits], start) = self.two_lists("a quadruple", ["cells", "digits"])?;
        let place = self.place(start);
        let Ok(digits) = digits.into_iter().map(u8::try_from).collect::<Result<Vec<u8>, _>>() else {
            return Err(self.error(start, "a quadruple's digit is past 255"));
        };
        out.push(((cells, digits), place));
        Ok(())
    }

    /// An arrow: `{"circle": [...], "shaft": [...]}`.
    fn arrow(&mut self, out: &mut Vec<PlacedArrow>) -> Result<(), RulesError> {
        let ([circle, shaft], start) = self.two_lists("an arrow", ["circle", "shaft"])?;
        out.push(((circle, shaft), self.place(start)));
        Ok(())
    }

    /// A string with no escapes, as the range of its text inside the
    /// quotes: a puzzle or a map, whose cells are found in place.
    fn plain_string(&mut self) -> Result<std::ops::Range<usize>, RulesError> {
        self.expect('"', "a string")?;
        let start = self.pos;
        match self.text[start..].find(['"', '\\']) {
            Some(length) if self.text[start + length..].starts_with('"') => {
                self.pos = start + length + 1;
                Ok(start..start + length)
            }
            Some(length) => Err(self.error(start + length, "a puzzle or a map is written without escapes")),
            None => Err(self.error(self.text.len(), "a string is not closed")),
        }
    }
}
