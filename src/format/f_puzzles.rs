//! Puzzles from f-puzzles, the editor most setters of variant puzzles
//! share their work in: its JSON, and its links, which carry that JSON
//! compressed (`https://f-puzzles.com/?load=...`).
//!
//! A puzzle is translated into this crate's own JSON object (a `puzzle`
//! line, `regions`, `cages`, `rules`, `extra_regions`, `distinct_groups`,
//! `thermometers`, `relations`, `even`, `odd`, `sums`, `arrows`,
//! `sandwiches`, `x_sums`, `between_lines`, `quadruples`, `renbans`,
//! `region_sum_lines`, `zipper_lines`, `double_arrows`, `entropic_lines`
//! and `modular_lines`), which
//! the parser then reads as it reads any object. A constraint that these
//! rules cannot express is an error that names it: a puzzle solved
//! without one of its rules would have the wrong solutions.

use std::collections::{HashMap, HashSet};
use std::fmt::{self, Write as _};

use super::cages_json::{Reader, placed};
use crate::board::{Board, Counted, Indexer, Region, Relation, Rules, RulesError, SYMBOLS, Shape};

/// A board whose rules f-puzzles cannot hold: what is missing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FPuzzlesError(pub(super) String);

impl fmt::Display for FPuzzlesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FPuzzlesError {}

/// Members of an f-puzzles object that change nothing a solver must keep:
/// names, notes, the author's solution and drawings.
/// The editor's own settings (`activeConstraints` lists the kinds of
/// constraint drawn, all of them read from their own members).
const COSMETIC: [&str; 13] = [
    "title",
    "author",
    "ruleset",
    "solution",
    "text",
    "line",
    "rectangle",
    "circle",
    "cage",
    "activeConstraints",
    "highlightConflicts",
    "disabledLogic",
    "truecandidatesoptions",
];

/// How large a link's JSON may grow while it is decompressed: far more
/// than any puzzle of 25x25 with every constraint, and a bound on what a
/// few bytes of input can make (each code can double the longest entry).
const MAX_DECOMPRESSED: usize = 1 << 22;

/// The compressed text of an f-puzzles link, if `text` (trimmed) is one:
/// what follows `load=` in f-puzzles' own links, or `fpuzzles` or `fpuz`
/// in the links of the `sudokupad.app` player to the same JSON, with the
/// percent escapes of `+`, `/` and `=` decoded.
pub(super) fn link_payload(text: &str) -> Option<String> {
    let text = text.trim();
    let rest = text.strip_prefix("https://").or_else(|| text.strip_prefix("http://")).unwrap_or(text);
    let rest = rest.strip_prefix("www.").unwrap_or(rest);
    let payload = if let Some(query) = rest.strip_prefix("f-puzzles.com/") {
        let start = query.find("load=")? + "load=".len();
        &query[start..]
    } else {
        let path = rest.strip_prefix("sudokupad.app/").or_else(|| rest.strip_prefix("beta.sudokupad.app/"))?;
        path.strip_prefix("fpuzzles").or_else(|| path.strip_prefix("fpuz"))?
    };
    let payload = &payload[..payload.find(['&', '?', '#']).unwrap_or(payload.len())];
    let escapes = [("%2B", "+"), ("%2F", "/"), ("%3D", "=")];
    Some(
        escapes.iter().fold(payload.to_owned(), |text, (escape, c)| {
            text.replace(escape, c).replace(&escape.to_ascii_lowercase(), c)
        }),
    )
}

/// The value of a character of the Base64 alphabet.
fn base64_value(c: u8) -> Option<u32> {
    match c {
        b'A'..=b'Z' => Some(u32::from(c - b'A')),
        b'a'..=b'z' => Some(u32::from(c - b'a') + 26),
        b'0'..=b'9' => Some(u32::from(c - b'0') + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// Reads the bits of a Base64 text, six to a character, each character's
/// from its highest bit down; numbers are put together lowest bit first.
struct Bits<'a> {
    text: &'a [u8],
    at: usize,
    value: u32,
    mask: u32,
}

impl Bits<'_> {
    /// The next `count` bits as a number; past the end the bits are 0, as
    /// the compressor pads its last character with them.
    fn read(&mut self, count: u32) -> Result<u32, String> {
        let mut number = 0;
        for bit in 0..count {
            if self.mask == 0 {
                let Some(&c) = self.text.get(self.at) else {
                    return Err("the link's data ends before its end mark".to_owned());
                };
                self.value = base64_value(c)
                    .ok_or_else(|| format!("'{}' at character {} is not Base64", char::from(c), self.at + 1))?;
                self.at += 1;
                self.mask = 32;
            }
            if self.value & self.mask != 0 {
                number |= 1 << bit;
            }
            self.mask >>= 1;
        }
        Ok(number)
    }
}

/// Decompresses the text of an f-puzzles link: LZ-String's dictionary
/// coding over Base64. Codes 0 and 1 bring a new character of 8 or 16
/// bits, 2 ends the text, and the others name a dictionary entry; each
/// entry after the first adds the previous one and the first character of
/// the next, and the codes widen by a bit each time the dictionary fills
/// the current width.
pub(super) fn decompress(payload: &str) -> Result<String, String> {
    let text = payload.trim_end_matches('=').as_bytes();
    let mut bits = Bits { text, at: 0, value: 0, mask: 0 };
    let mut dictionary: Vec<Vec<u16>> = vec![Vec::new(); 3];
    let mut out: Vec<u16> = Vec::new();
    let literal = |bits: &mut Bits<'_>, code: u32| -> Result<Option<u16>, String> {
        match code {
            #[expect(clippy::cast_possible_truncation, reason = "8 or 16 bits read")]
            0 | 1 => Ok(Some(bits.read(if code == 0 { 8 } else { 16 })? as u16)),
            _ => Ok(None),
        }
    };
    // The first code has two bits; the next ones three, widening by one
    // each time `room` more entries have been added.
    let first = bits.read(2)?;
    let (mut width, mut room) = (3, 4u32);
    let Some(c) = literal(&mut bits, first)? else {
        return if first == 2 { Ok(String::new()) } else { Err(format!("the link's data starts with code {first}")) };
    };
    dictionary.push(vec![c]);
    let mut previous = vec![c];
    out.push(c);
    loop {
        if out.len() > MAX_DECOMPRESSED {
            return Err(format!("the link's data grows past {MAX_DECOMPRESSED} characters"));
        }
        let mut code = bits.read(width)?;
        if code == 2 {
            return String::from_utf16(&out).map_err(|_| "the link's data is not valid text".to_owned());
        }
        if let Some(c) = literal(&mut bits, code)? {
            dictionary.push(vec![c]);
            code = u32::try_from(dictionary.len() - 1).map_err(|_| "the link's dictionary is too large")?;
            room -= 1;
            widen(&mut width, &mut room)?;
        }
        let code = code as usize;
        let entry = if let Some(entry) = dictionary.get(code) {
            entry.clone()
        } else if code == dictionary.len() {
            let mut entry = previous.clone();
            entry.push(previous[0]);
            entry
        } else {
            return Err(format!("the link's data names entry {code} of {}", dictionary.len()));
        };
        out.extend_from_slice(&entry);
        let mut added = previous;
        added.push(entry[0]);
        dictionary.push(added);
        previous = entry;
        room -= 1;
        widen(&mut width, &mut room)?;
    }
}

/// Widens the codes by a bit once the dictionary has filled their width.
fn widen(width: &mut u32, room: &mut u32) -> Result<(), String> {
    if *room == 0 {
        // The output's bound stops the dictionary long before.
        if *width >= 30 {
            return Err("the link's codes grow too wide".to_owned());
        }
        *room = 1 << *width;
        *width += 1;
    }
    Ok(())
}

/// Whether `text`, a JSON object, is an f-puzzles puzzle: it has a `grid`
/// member and no `puzzle` member of this crate's own objects.
pub(super) fn is_object(text: &str) -> bool {
    if !text.contains("\"grid\"") {
        return false;
    }
    let mut reader = Reader::new(text);
    let (mut grid, mut puzzle) = (false, false);
    let read = reader.object(|r, key, _| {
        grid |= key == "grid";
        puzzle |= key == "puzzle";
        r.skip_value(0)
    });
    read.is_ok() && grid && !puzzle
}

/// An error at byte `at` of the f-puzzles text.
fn error(reader: &Reader<'_>, at: usize, reason: impl Into<String>) -> (usize, usize, String) {
    let (line, column) = reader.place(at);
    (line, column, reason.into())
}

/// What is read of the members of an f-puzzles object: each member's
/// key, where its key starts and where its value starts.
struct Members<'a> {
    list: Vec<(String, usize, usize)>,
    text: &'a str,
}

impl Members<'_> {
    fn reader_at(&self, at: usize) -> Reader<'_> {
        let mut reader = Reader::new(self.text);
        reader.pos = at;
        reader
    }
}

/// The board an f-puzzles object is on: its side, and the cell a
/// reference such as `R3C7` names.
struct Grid {
    side: usize,
}

impl Grid {
    /// Reads a cell reference: `R`, the row from 1, `C`, the column from 1.
    fn cell(&self, r: &mut Reader<'_>) -> Result<usize, (usize, usize, String)> {
        r.skip_space();
        let at = r.pos;
        let name = r.string().map_err(placed)?;
        let upper = name.to_ascii_uppercase();
        let parsed = upper.strip_prefix('R').and_then(|rest| {
            let (row, column) = rest.split_once('C')?;
            Some((row.parse::<usize>().ok()?, column.parse::<usize>().ok()?))
        });
        match parsed {
            Some((row, column)) if (1..=self.side).contains(&row) && (1..=self.side).contains(&column) => {
                Ok((row - 1) * self.side + column - 1)
            }
            Some(_) => Err(error(r, at, format!("cell {name:?} is off the {0}x{0} board", self.side))),
            None => Err(error(r, at, format!("expected a cell such as \"R1C1\", found {name:?}"))),
        }
    }

    /// An array of cell references.
    fn cells(&self, r: &mut Reader<'_>) -> Result<Vec<usize>, (usize, usize, String)> {
        let mut cells = Vec::new();
        let mut failed = None;
        let read = r.array(|r| {
            let cell = self.cell(r);
            cells.push(kept(&mut failed, cell)?);
            Ok(())
        });
        settled(read, failed)?;
        Ok(cells)
    }
}

/// An object of an f-puzzles constraint's array: the members that the
/// constraints read, and where the object starts.
#[derive(Default)]
struct Item {
    at: usize,
    cells: Option<Vec<usize>>,
    cell: Option<usize>,
    lines: Vec<Vec<usize>>,
    clone_cells: Option<Vec<usize>>,
    values: Vec<String>,
    value: Option<String>,
    value_at: usize,
}

/// A stand-in error that stops a reader's loop; the real one is kept
/// beside it.
fn stop() -> RulesError {
    RulesError::CageMap { line: 0, column: 0, reason: String::new() }
}

/// Runs `f` in a reader's callback, keeping its error in `failed`.
fn kept<T>(
    failed: &mut Option<(usize, usize, String)>,
    result: Result<T, (usize, usize, String)>,
) -> Result<T, RulesError> {
    result.map_err(|e| {
        *failed = Some(e);
        stop()
    })
}

/// The error of a reader's loop: the one kept, or the reader's own.
fn settled(read: Result<(), RulesError>, failed: Option<(usize, usize, String)>) -> Result<(), (usize, usize, String)> {
    match (read, failed) {
        (_, Some(e)) => Err(e),
        (Err(e), None) => Err(placed(e)),
        (Ok(()), None) => Ok(()),
    }
}

/// The objects of a constraint's array.
fn items(r: &mut Reader<'_>, grid: &Grid) -> Result<Vec<Item>, (usize, usize, String)> {
    let mut items = Vec::new();
    let mut failed = None;
    let read = r.array(|r| {
        r.skip_space();
        let mut item = Item { at: r.pos, ..Item::default() };
        r.object(|r, member, _| match member {
            "cells" => {
                let cells = grid.cells(r);
                item.cells = Some(kept(&mut failed, cells)?);
                Ok(())
            }
            "cell" => {
                let cell = grid.cell(r);
                item.cell = Some(kept(&mut failed, cell)?);
                Ok(())
            }
            "lines" => r.array(|r| {
                let line = grid.cells(r);
                item.lines.push(kept(&mut failed, line)?);
                Ok(())
            }),
            "values" => r.array(|r| {
                r.skip_space();
                let value = number_or_string(r);
                item.values.push(kept(&mut failed, value)?);
                Ok(())
            }),
            "cloneCells" => {
                let cells = grid.cells(r);
                item.clone_cells = Some(kept(&mut failed, cells)?);
                Ok(())
            }
            "value" => {
                r.skip_space();
                item.value_at = r.pos;
                let value = number_or_string(r);
                item.value = Some(kept(&mut failed, value)?);
                Ok(())
            }
            _ => r.skip_value(0),
        })?;
        items.push(item);
        Ok(())
    });
    settled(read, failed)?;
    Ok(items)
}

/// The cells of a grid row's objects: a given's digit where `given` is
/// true, and a region where there is one.
fn grid_row(
    r: &mut Reader<'_>,
    side: usize,
    row: usize,
    givens: &mut [usize],
    regions: &mut [Option<usize>],
) -> Result<usize, (usize, usize, String)> {
    let mut column = 0;
    let mut failed = None;
    let read = r.array(|r| {
        r.skip_space();
        let at = r.pos;
        if column == side {
            return kept(
                &mut failed,
                Err(error(r, at, format!("row {} of the grid has more than {side} cells", row + 1))),
            );
        }
        let cell = row * side + column;
        let (mut value, mut given) = (None, false);
        r.object(|r, member, _| match member {
            "value" => {
                r.skip_space();
                let value_at = r.pos;
                let number = r.number();
                value = Some((number?, value_at));
                Ok(())
            }
            "given" => {
                let flag = flag(r);
                given = kept(&mut failed, flag)?;
                Ok(())
            }
            "region" if r.text[r.pos..].trim_start().starts_with("null") => r.skip_value(0),
            "region" => {
                r.skip_space();
                let region = r.number()?;
                regions[cell] = Some(region);
                Ok(())
            }
            _ => r.skip_value(0),
        })?;
        if let (Some((digit, value_at)), true) = (value, given) {
            if !(1..=side).contains(&digit) {
                return kept(
                    &mut failed,
                    Err(error(r, value_at, format!("a given of {digit} on a board of size {side}"))),
                );
            }
            givens[cell] = digit;
        }
        column += 1;
        Ok(())
    });
    settled(read, failed)?;
    Ok(column)
}

/// A whole number written as a number or as a string, as f-puzzles writes
/// a cage's sum and a dot's value.
fn number_or_string(r: &mut Reader<'_>) -> Result<String, (usize, usize, String)> {
    if r.peek() == Some('"') { r.string().map_err(placed) } else { r.number().map(|n| n.to_string()).map_err(placed) }
}

/// `true`, `false` or `null` (read as false).
fn flag(r: &mut Reader<'_>) -> Result<bool, (usize, usize, String)> {
    r.skip_space();
    let at = r.pos;
    for (word, value) in [("true", true), ("false", false), ("null", false)] {
        if r.text[at..].starts_with(word) {
            r.pos += word.len();
            return Ok(value);
        }
    }
    r.skip_value(0).map_err(placed)?;
    Err(error(r, at, "expected true or false"))
}

/// Whether the value at the reader is empty or off: `false`, `null`,
/// `[]`, `{}` or `""`. The reader is left past it.
fn is_empty_value(r: &mut Reader<'_>) -> Result<bool, (usize, usize, String)> {
    r.skip_space();
    let start = r.pos;
    r.skip_value(0).map_err(placed)?;
    let value: String = r.text[start..r.pos].chars().filter(|c| !c.is_whitespace()).collect();
    Ok(matches!(value.as_str(), "false" | "null" | "[]" | "{}" | "\"\""))
}

/// Translates an f-puzzles object into this crate's JSON puzzle object,
/// with the shape it is read on. An error gives its line and column in `text`.
#[expect(clippy::too_many_lines, reason = "one arm per constraint, read in one place")]
pub(super) fn translate(text: &str) -> Result<(String, Shape), (usize, usize, String)> {
    let mut reader = Reader::new(text);
    let mut list = Vec::new();
    reader
        .object(|r, key, at| {
            r.skip_space();
            if list.iter().any(|(k, _, _)| k == key) {
                return Err(r.error(at, format!("the object has two \"{key}\" members")));
            }
            list.push((key.to_owned(), at, r.pos));
            r.skip_value(0)
        })
        .map_err(placed)?;
    let members = Members { list, text };
    let find = |key: &str| members.list.iter().find(|(k, _, _)| k == key).map(|&(_, at, value)| (at, value));
    let Some((size_at, size_value)) = find("size") else {
        return Err((1, 1, "the f-puzzles object has no \"size\"".to_owned()));
    };
    let side = {
        let mut r = members.reader_at(size_value);
        let side = r.number().map_err(placed)?;
        if !(4..=25).contains(&side) {
            return Err(error(&r, size_at, format!("a board of size {side}: sizes from 4 to 25 are read")));
        }
        side
    };
    let grid = Grid { side };
    let cells = side * side;
    let mut givens = vec![0usize; cells];
    let mut regions: Vec<Option<usize>> = vec![None; cells];
    let Some((_, grid_at)) = find("grid") else {
        return Err((1, 1, "the f-puzzles object has no \"grid\"".to_owned()));
    };
    {
        let mut r = members.reader_at(grid_at);
        let mut row = 0;
        let mut failed = None;
        let read = r.array(|r| {
            r.skip_space();
            let row_at = r.pos;
            if row == side {
                return kept(&mut failed, Err(error(r, row_at, format!("the grid has more than {side} rows"))));
            }
            let columns = grid_row(r, side, row, &mut givens, &mut regions);
            let columns = kept(&mut failed, columns)?;
            if columns != side {
                let reason = format!("row {} of the grid has {columns} cells, not {side}", row + 1);
                return kept(&mut failed, Err(error(r, row_at, reason)));
            }
            row += 1;
            Ok(())
        });
        settled(read, failed)?;
        if row != side {
            return Err(error(&r, grid_at, format!("the grid has {row} rows, not {side}")));
        }
    }

    let mut out = String::from("{\"puzzle\": \"");
    out.extend(givens.iter().map(|&d| char::from(SYMBOLS[d])));
    out.push('"');
    let drawn = Shape::from_side(side);
    // A cell without a region of its own keeps its box's.
    let labels: Option<Vec<usize>> =
        regions.iter().enumerate().map(|(cell, region)| region.or_else(|| drawn.map(|s| box_of(s, cell)))).collect();
    let Some(labels) = labels else {
        let (at, _) = find("grid").unwrap_or((0, 0));
        let reason = format!("a board of size {side} has no boxes: every cell needs a \"region\"");
        return Err(error(&reader, at, reason));
    };
    // Regions that are the boxes of some shape (3x2 on a side of 6, say)
    // make that shape; others are a jigsaw, on the shape f-puzzles draws
    // or a Latin square.
    let boxes = (2..=side / 2)
        .filter(|rows| side % rows == 0 && side / rows >= 2)
        .filter_map(|rows| Shape::try_new(rows, side / rows))
        .find(|&candidate| same_partition(&labels, |cell| box_of(candidate, cell)));
    let shape = boxes.or(drawn).or(Shape::try_latin(side)).ok_or_else(|| (1, 1, format!("a board of size {side}")))?;
    let jigsaw = boxes.is_none();
    if jigsaw {
        out.push_str(", \"regions\": \"");
        for label in labels {
            let Some(&symbol) = REGION_LABELS.get(label) else {
                let (at, _) = find("grid").unwrap_or((0, 0));
                let reason = format!("region {label} is past the {} labels read", REGION_LABELS.len());
                return Err(error(&reader, at, reason));
            };
            out.push(char::from(symbol));
        }
        out.push('"');
    }
    let shape_with_boxes = shape.has_boxes().then_some(shape);

    let (mut names, mut cages, mut extra, mut groups) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut thermometers, mut relations, mut even, mut odd) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut negative: Vec<String> = Vec::new();
    let (mut sums, mut arrows, mut sandwiches, mut between) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut x_sums, mut skyscrapers) = (Vec::new(), Vec::new());
    let mut quadruples: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
    // Indexing cells' relations (`Relation::Index`).
    let mut index_relations: Vec<(usize, Relation, usize)> = Vec::new();
    let (mut renbans, mut region_sum_lines, mut zipper_lines, mut double_arrows) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut entropic_lines, mut modular_lines) = (Vec::new(), Vec::new());
    let mut diagonals = (false, false);
    for (key, key_at, value_at) in &members.list {
        let mut r = members.reader_at(*value_at);
        match key.as_str() {
            "size" | "grid" => {}
            k if COSMETIC.contains(&k) => {}
            "diagonal+" => diagonals.0 = flag(&mut r)?,
            "diagonal-" => diagonals.1 = flag(&mut r)?,
            "antiknight" | "antiking" | "nonconsecutive" | "disjointgroups" => {
                if flag(&mut r)? {
                    match key.as_str() {
                        "antiknight" => names.push("anti-knight"),
                        "antiking" => names.push("anti-king"),
                        "nonconsecutive" => names.push("non-consecutive"),
                        _ if jigsaw || shape_with_boxes.is_none() => {
                            return Err(error(&r, *key_at, "disjoint groups are read on boards of boxes only"));
                        }
                        _ => {
                            let shape = shape_with_boxes.expect("checked above");
                            for place in 0..side {
                                groups
                                    .push((0..cells).filter(|&c| place_in_box(shape, c) == place).collect::<Vec<_>>());
                            }
                        }
                    }
                }
            }
            "killercage" => {
                for item in items(&mut r, &grid)? {
                    let cells = item.cells.unwrap_or_default();
                    match item.value.as_deref().map(str::trim) {
                        None | Some("") => groups.push(cells),
                        Some(value) => {
                            let sum = value.parse::<usize>().map_err(|_| {
                                error(&r, item.value_at, format!("a cage's sum {value:?} is not a whole number"))
                            })?;
                            cages.push((sum, cells));
                        }
                    }
                }
            }
            "arrow" => arrows.extend(items(&mut r, &grid)?.into_iter().map(arrow_of)),
            "littlekillersum" => sums.extend(little_killers(&mut r, &grid)?),
            "sandwichsum" => sandwiches.extend(outside_clues(&mut r, &grid, "a sandwich", false)?),
            "xsum" => x_sums.extend(outside_clues(&mut r, &grid, "an X-sum", true)?),
            "skyscraper" => skyscrapers.extend(outside_clues(&mut r, &grid, "a skyscraper", true)?),
            "betweenline" => between.extend(items(&mut r, &grid)?.into_iter().flat_map(|item| item.lines)),
            "renban" | "regionsumline" | "zipperline" | "doublearrow" | "entropicline" | "modularline" => {
                let lines = match key.as_str() {
                    "renban" => &mut renbans,
                    "regionsumline" => &mut region_sum_lines,
                    "zipperline" => &mut zipper_lines,
                    "entropicline" => &mut entropic_lines,
                    "modularline" => &mut modular_lines,
                    _ => &mut double_arrows,
                };
                lines.extend(items(&mut r, &grid)?.into_iter().flat_map(|item| item.lines));
            }
            "whispers" => {
                // Neighbours along the line at least `value` apart: by
                // default half the side, rounded up (5 on 9x9, German
                // whispers).
                for item in items(&mut r, &grid)? {
                    let apart = match item.value.as_deref().map(str::trim) {
                        None | Some("") => side.div_ceil(2),
                        Some(v) => v.parse::<usize>().map_err(|_| {
                            error(&r, item.value_at, format!("a whispers line's value {v:?} is not a whole number"))
                        })?,
                    };
                    for line in &item.lines {
                        relations.extend(line.windows(2).map(|pair| (pair[0], "apart", apart, pair[1])));
                    }
                }
            }
            k if INDEXERS.iter().any(|&(name, _)| name == k) => {
                // The guard found it: the default is never taken.
                let indexer = INDEXERS.iter().find(|&&(name, _)| name == k).map_or(Indexer::Column, |&(_, i)| i);
                let boxes = shape_with_boxes.filter(|_| !jigsaw);
                if indexer == Indexer::Box && boxes.is_none() {
                    return Err(error(&r, *key_at, "box indexers are read on boards of boxes only"));
                }
                for cell in items(&mut r, &grid)?.into_iter().flat_map(|item| item.cells.unwrap_or_default()) {
                    index_relations.extend(indexer.relations(boxes.unwrap_or(shape), cell));
                }
            }
            "nabner" => {
                // No two cells of a line alike or consecutive: each pair of
                // its cells at least 2 apart.
                for line in items(&mut r, &grid)?.into_iter().flat_map(|item| item.lines) {
                    let mut cells = line;
                    cells.sort_unstable();
                    cells.dedup();
                    for (k, &first) in cells.iter().enumerate() {
                        relations.extend(cells[k + 1..].iter().map(|&second| (first, "apart", 2, second)));
                    }
                }
            }
            "quadruple" => {
                for item in items(&mut r, &grid)? {
                    let digits: Result<Vec<usize>, _> = item.values.iter().map(|v| v.trim().parse::<usize>()).collect();
                    let Ok(digits) = digits else {
                        return Err(error(&r, item.at, "a quadruple's values are whole numbers"));
                    };
                    quadruples.push((item.cells.unwrap_or_default(), digits));
                }
            }
            "clone" => {
                for item in items(&mut r, &grid)? {
                    let (cells, clones) = (item.cells.unwrap_or_default(), item.clone_cells.unwrap_or_default());
                    if cells.len() != clones.len() {
                        let reason = format!(
                            "a clone has {} and {}",
                            Counted(cells.len(), "cell"),
                            Counted(clones.len(), "clone cell")
                        );
                        return Err(error(&r, item.at, reason));
                    }
                    relations.extend(cells.iter().zip(&clones).map(|(&a, &b)| (a, "difference", 0, b)));
                }
            }
            "palindrome" => {
                for line in items(&mut r, &grid)?.into_iter().flat_map(|item| item.lines) {
                    let half = line.len() / 2;
                    let pairs = line[..half].iter().zip(line.iter().rev());
                    relations.extend(pairs.filter(|(a, b)| a != b).map(|(&a, &b)| (a, "difference", 0, b)));
                }
            }
            "extraregion" => extra.extend(items(&mut r, &grid)?.into_iter().map(|item| item.cells.unwrap_or_default())),
            "thermometer" => thermometers.extend(items(&mut r, &grid)?.into_iter().flat_map(|item| item.lines)),
            "slowthermometer" => {
                for line in items(&mut r, &grid)?.into_iter().flat_map(|item| item.lines) {
                    relations.extend(line.windows(2).map(|pair| (pair[0], "less-or-equal", 0, pair[1])));
                }
            }
            "minimum" | "maximum" => {
                // Smaller (or larger) than each cell beside it: a step of a
                // thermometer to (or from) each.
                for cell in items(&mut r, &grid)?.into_iter().filter_map(|item| item.cell) {
                    let beside = neighbours(side).filter_map(|(a, b)| match cell {
                        _ if a == cell => Some(b),
                        _ if b == cell => Some(a),
                        _ => None,
                    });
                    let steps: Vec<Vec<usize>> = beside
                        .map(|other| if key == "minimum" { vec![cell, other] } else { vec![other, cell] })
                        .collect();
                    thermometers.extend(steps);
                }
            }
            "odd" | "even" => {
                let cells = items(&mut r, &grid)?.into_iter().filter_map(|item| item.cell);
                if key == "odd" { odd.extend(cells) } else { even.extend(cells) }
            }
            "difference" | "ratio" | "xv" => {
                for item in items(&mut r, &grid)? {
                    let cells = item.cells.unwrap_or_default();
                    let &[first, second] = cells.as_slice() else {
                        let reason = format!("a {key} mark joins {}; it joins two", Counted(cells.len(), "cell"));
                        return Err(error(&r, item.at, reason));
                    };
                    let (name, number) = match (key.as_str(), item.value.as_deref().map(str::trim)) {
                        ("difference", None | Some("")) => ("difference", 1),
                        (_, None | Some("")) => ("ratio", 2),
                        ("xv", Some("X" | "x")) => ("sum", 10),
                        ("xv", Some("V" | "v")) => ("sum", 5),
                        ("xv", other) => {
                            let reason = format!("an xv mark holds {other:?}; it holds \"X\" or \"V\"");
                            return Err(error(&r, item.at, reason));
                        }
                        (_, Some(v)) => {
                            let n = v.parse::<usize>().map_err(|_| {
                                error(&r, item.value_at, format!("a {key} mark's value {v:?} is not a whole number"))
                            })?;
                            (key.as_str(), n)
                        }
                    };
                    relations.push((first, name, number, second));
                }
            }
            "negative" => {
                r.skip_space();
                if r.peek() == Some('[') {
                    let mut failed = None;
                    let read = r.array(|r| {
                        r.skip_space();
                        let at = r.pos;
                        let kind = r.string()?;
                        if !NEGATED.iter().any(|(name, _)| *name == kind) {
                            let reason =
                                format!("\"negative\" names {kind:?}; it takes \"ratio\", \"difference\" or \"xv\"");
                            return kept(&mut failed, Err(error(r, at, reason)));
                        }
                        negative.push(kind);
                        Ok(())
                    });
                    settled(read, failed)?;
                } else if !is_empty_value(&mut r)? {
                    return Err(error(&r, *key_at, "\"negative\" is a list of the marks given in full"));
                }
            }
            other => {
                if !is_empty_value(&mut r)? {
                    return Err(error(&r, *key_at, format!("the f-puzzles constraint \"{other}\" is not read here")));
                }
            }
        }
    }
    // Windoku's windows, written by f-puzzles as extra regions, are the
    // rule of that name, as this crate writes them.
    if let Some(shape) = shape_with_boxes.filter(|_| !jigsaw) {
        let sorted = |cells: &Vec<usize>| {
            let mut cells = cells.clone();
            cells.sort_unstable();
            cells
        };
        let windows: Vec<Vec<usize>> = Rules::new(shape)
            .with_windows()
            .regions()
            .filter(|(kind, _)| *kind == Region::Window)
            .map(|(_, cells)| sorted(&cells))
            .collect();
        if !windows.is_empty() && windows.iter().all(|window| extra.iter().any(|cells| sorted(cells) == *window)) {
            extra.retain(|cells| !windows.contains(&sorted(cells)));
            names.push("windoku");
        }
    }
    match diagonals {
        (true, true) => names.push("diagonals"),
        (true, false) => extra.push((0..side).map(|i| (side - 1 - i) * side + i).collect()),
        (false, true) => extra.push((0..side).map(|i| i * side + i).collect()),
        (false, false) => {}
    }
    if !names.is_empty() {
        out.push_str(", \"rules\": [");
        out.push_str(&names.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join(", "));
        out.push(']');
    }
    if !cages.is_empty() {
        out.push_str(", \"cages\": [");
        for (k, (sum, cells)) in cages.iter().enumerate() {
            let sep = if k == 0 { "" } else { ", " };
            let _ = write!(out, "{sep}{{\"sum\": {sum}, \"cells\": {}}}", list_of(cells));
        }
        out.push(']');
    }
    for (name, lists) in [
        ("extra_regions", &extra),
        ("distinct_groups", &groups),
        ("thermometers", &thermometers),
        ("between_lines", &between),
        ("renbans", &renbans),
        ("region_sum_lines", &region_sum_lines),
        ("zipper_lines", &zipper_lines),
        ("double_arrows", &double_arrows),
        ("entropic_lines", &entropic_lines),
        ("modular_lines", &modular_lines),
    ] {
        if !lists.is_empty() {
            let _ = write!(
                out,
                ", \"{name}\": [{}]",
                lists.iter().map(|cells| list_of(cells)).collect::<Vec<_>>().join(", ")
            );
        }
    }
    // A mark given in full: every pair of neighbours without it keeps the
    // relation's negation.
    for kind in &negative {
        for &(name, negations) in NEGATED.iter().filter(|(name, _)| name == kind) {
            let marked: HashSet<(usize, usize)> = relations
                .iter()
                // A clone (an equal pair, difference 0) is not a dot.
                .filter(|&&(_, relation, value, _)| mark_of(relation) == Some(name) && value != 0)
                .map(|&(a, _, _, b)| (a.min(b), a.max(b)))
                .collect();
            for (a, b) in neighbours(side).filter(|pair| !marked.contains(pair)) {
                relations.extend(negations.iter().map(|&(relation, value)| (a, relation, value, b)));
            }
        }
    }
    if !relations.is_empty() || !index_relations.is_empty() {
        out.push_str(", \"relations\": [");
        for (k, (first, name, value, second)) in relations.iter().enumerate() {
            let sep = if k == 0 { "" } else { ", " };
            // A relation without a number takes no value.
            let value =
                if Relation::from_name(name, None).is_some() { String::new() } else { format!(", \"value\": {value}") };
            let _ = write!(out, "{sep}{{\"cells\": [{first}, {second}], \"relation\": \"{name}\"{value}}}");
        }
        for (k, (first, relation, second)) in index_relations.iter().enumerate() {
            let sep = if k == 0 && relations.is_empty() { "" } else { ", " };
            let (mine, theirs) = relation.digits().unwrap_or_default();
            let _ = write!(
                out,
                "{sep}{{\"cells\": [{first}, {second}], \"relation\": \"index\", \"value\": [{mine}, {theirs}]}}"
            );
        }
        out.push(']');
    }
    for (name, cells) in [("even", &even), ("odd", &odd)] {
        if !cells.is_empty() {
            let _ = write!(out, ", \"{name}\": {}", list_of(cells));
        }
    }
    if !sums.is_empty() {
        let objects: Vec<String> =
            sums.iter().map(|(sum, cells)| format!("{{\"sum\": {sum}, \"cells\": {}}}", list_of(cells))).collect();
        let _ = write!(out, ", \"sums\": [{}]", objects.join(", "));
    }
    if !quadruples.is_empty() {
        let objects: Vec<String> = quadruples
            .iter()
            .map(|(cells, digits)| format!("{{\"cells\": {}, \"digits\": {}}}", list_of(cells), list_of(digits)))
            .collect();
        let _ = write!(out, ", \"quadruples\": [{}]", objects.join(", "));
    }
    for (name, number, clues) in
        [("sandwiches", "sum", &sandwiches), ("x_sums", "sum", &x_sums), ("skyscrapers", "clue", &skyscrapers)]
    {
        if !clues.is_empty() {
            let objects: Vec<String> = clues
                .iter()
                .map(|(value, cells)| format!("{{\"{number}\": {value}, \"cells\": {}}}", list_of(cells)))
                .collect();
            let _ = write!(out, ", \"{name}\": [{}]", objects.join(", "));
        }
    }
    if !arrows.is_empty() {
        let objects: Vec<String> = arrows
            .iter()
            .map(|(circle, shaft)| format!("{{\"circle\": {}, \"shaft\": {}}}", list_of(circle), list_of(shaft)))
            .collect();
        let _ = write!(out, ", \"arrows\": [{}]", objects.join(", "));
    }
    out.push('}');
    Ok((out, shape))
}

/// An f-puzzles arrow as a circle and a shaft: the circle's cells (`cells`)
/// in reading order, the number's leading digit first, and the cells of
/// its lines that are not in the circle (each line starts in it), each
/// once.
fn arrow_of(item: Item) -> (Vec<usize>, Vec<usize>) {
    let mut circle = item.cells.unwrap_or_default();
    circle.sort_unstable();
    circle.dedup();
    let mut shaft: Vec<usize> = Vec::new();
    for cell in item.lines.into_iter().flatten() {
        if !circle.contains(&cell) && !shaft.contains(&cell) {
            shaft.push(cell);
        }
    }
    (circle, shaft)
}

/// A sum's total and cells.
type SumCells = (usize, Vec<usize>);

/// The diagonal steps of f-puzzles' little killer directions: rows down
/// and columns across.
const DIRECTIONS: [(&str, (isize, isize)); 4] = [("DR", (1, 1)), ("DL", (1, -1)), ("UR", (-1, 1)), ("UL", (-1, -1))];

/// The little killer clues of a `littlekillersum` array, each as its sum
/// and the cells of its diagonal: the `cells` listed, or else those from
/// the clue's cell outside the grid (`cell`, such as `"R0C3"`) in its
/// `direction`. A clue without a value gives nothing.
fn little_killers(r: &mut Reader<'_>, grid: &Grid) -> Result<Vec<SumCells>, (usize, usize, String)> {
    let mut clues = Vec::new();
    let mut failed = None;
    let read = r.array(|r| {
        r.skip_space();
        let at = r.pos;
        let (mut cells, mut outside, mut direction, mut value) = (None, None, None, None);
        r.object(|r, member, _| match member {
            "cells" => {
                let read = grid.cells(r);
                cells = Some(kept(&mut failed, read)?);
                Ok(())
            }
            "cell" | "direction" => {
                r.skip_space();
                let place = r.pos;
                let text = r.string()?;
                if member == "cell" {
                    outside = Some((text, place));
                } else {
                    direction = Some((text, place));
                }
                Ok(())
            }
            "value" => {
                r.skip_space();
                let place = r.pos;
                let read = number_or_string(r);
                value = Some((kept(&mut failed, read)?, place));
                Ok(())
            }
            _ => r.skip_value(0),
        })?;
        let Some((value, value_at)) = value.filter(|(v, _)| !v.trim().is_empty()) else { return Ok(()) };
        let Ok(sum) = value.trim().parse::<usize>() else {
            let reason = format!("a little killer's sum {value:?} is not a whole number");
            return kept(&mut failed, Err(error(r, value_at, reason)));
        };
        let cells = match cells {
            Some(cells) => cells,
            None => kept(&mut failed, diagonal_from(r, grid, at, outside, direction))?,
        };
        clues.push((sum, cells));
        Ok(())
    });
    settled(read, failed)?;
    Ok(clues)
}

/// A cell named as f-puzzles names cells, `R3C7`, with its row and column
/// from 1, which may lie outside the grid (a clue's place): `None` for a
/// name of another form.
fn named_place(name: &str) -> Option<(isize, isize)> {
    let upper = name.to_ascii_uppercase();
    let (row, column) = upper.strip_prefix('R')?.split_once('C')?;
    Some((row.parse().ok()?, column.parse().ok()?))
}

/// The clues outside the grid of a `sandwichsum` or `xsum` array (`what`
/// names one in errors), each as its sum and the cells of its row or
/// column: a clue above or below the grid (row 0, or the row after the
/// last) is its column's, one left or right of it its row's. A sandwich's
/// cells run top to bottom and left to right; with `from_the_clue`, an
/// X-sum's run from the clue's side. A clue without a value gives nothing.
fn outside_clues(
    r: &mut Reader<'_>,
    grid: &Grid,
    what: &str,
    from_the_clue: bool,
) -> Result<Vec<SumCells>, (usize, usize, String)> {
    let side = isize::try_from(grid.side).unwrap_or(isize::MAX);
    let mut clues = Vec::new();
    let mut failed = None;
    let read = r.array(|r| {
        r.skip_space();
        let at = r.pos;
        let (mut place, mut value) = (None, None);
        r.object(|r, member, _| match member {
            "cell" => {
                r.skip_space();
                let name_at = r.pos;
                place = Some((r.string()?, name_at));
                Ok(())
            }
            "value" => {
                r.skip_space();
                let value_at = r.pos;
                let read = number_or_string(r);
                value = Some((kept(&mut failed, read)?, value_at));
                Ok(())
            }
            _ => r.skip_value(0),
        })?;
        let Some((value, value_at)) = value.filter(|(v, _)| !v.trim().is_empty()) else { return Ok(()) };
        let Ok(sum) = value.trim().parse::<usize>() else {
            let reason = format!("{what}'s sum {value:?} is not a whole number");
            return kept(&mut failed, Err(error(r, value_at, reason)));
        };
        let Some((name, name_at)) = place else {
            return kept(&mut failed, Err(error(r, at, format!("{what} clue has no \"cell\""))));
        };
        let inside = |n: isize| (1..=side).contains(&n);
        let (mut line, after_the_last): (Vec<usize>, bool) = match named_place(&name) {
            Some((row, column)) if (row == 0 || row == side + 1) && inside(column) => {
                ((0..grid.side).map(|r| r * grid.side + column.unsigned_abs() - 1).collect(), row != 0)
            }
            Some((row, column)) if (column == 0 || column == side + 1) && inside(row) => {
                ((0..grid.side).map(|c| (row.unsigned_abs() - 1) * grid.side + c).collect(), column != 0)
            }
            _ => {
                let reason = format!("{what} clue stands beside a row or column, not at {name:?}");
                return kept(&mut failed, Err(error(r, name_at, reason)));
            }
        };
        if from_the_clue && after_the_last {
            line.reverse();
        }
        clues.push((sum, line));
        Ok(())
    });
    settled(read, failed)?;
    Ok(clues)
}

/// The cells from a little killer's clue cell outside the grid, one
/// diagonal step at a time in its direction, while on the board.
fn diagonal_from(
    r: &Reader<'_>,
    grid: &Grid,
    at: usize,
    outside: Option<(String, usize)>,
    direction: Option<(String, usize)>,
) -> Result<Vec<usize>, (usize, usize, String)> {
    let side = grid.side;
    let Some((name, name_at)) = outside else { return Err(error(r, at, "a little killer has no \"cell\"")) };
    let Some((way, way_at)) = direction else { return Err(error(r, at, "a little killer has no \"direction\"")) };
    let Some((row, column)) = named_place(&name) else {
        return Err(error(r, name_at, format!("expected a cell such as \"R0C1\", found {name:?}")));
    };
    let Some(&(_, (down, across))) = DIRECTIONS.iter().find(|(w, _)| w.eq_ignore_ascii_case(&way)) else {
        return Err(error(r, way_at, format!("a little killer's direction {way:?} is not DR, DL, UR or UL")));
    };
    // From 1-based names, the cell outside is at (row - 1, column - 1).
    let on_board = |row: isize, column: isize| {
        let (Ok(row), Ok(column)) = (usize::try_from(row), usize::try_from(column)) else { return None };
        (row < side && column < side).then_some(row * side + column)
    };
    let (mut row, mut column) = (row - 1 + down, column - 1 + across);
    let mut cells = Vec::new();
    while let Some(cell) = on_board(row, column) {
        cells.push(cell);
        (row, column) = (row + down, column + across);
    }
    if cells.is_empty() {
        return Err(error(r, name_at, format!("a little killer at {name:?} going {way} meets no cell")));
    }
    Ok(cells)
}

/// The marks f-puzzles can give in full (its `negative` list), and the
/// relations every pair of neighbours without one keeps.
const NEGATED: [(&str, &[(&str, usize)]); 3] = [
    ("ratio", &[("not-ratio", 2)]),
    ("difference", &[("not-difference", 1)]),
    ("xv", &[("not-sum", 10), ("not-sum", 5)]),
];

/// A negated relation as [`NEGATED`] lists it: the mark given in full,
/// the relation's name and its value.
type Negation = (&'static str, &'static str, usize);

/// The f-puzzles mark a translated relation came from, by its name.
fn mark_of(relation: &str) -> Option<&'static str> {
    match relation {
        "ratio" => Some("ratio"),
        "difference" => Some("difference"),
        "sum" => Some("xv"),
        _ => None,
    }
}

/// Every pair of cells side by side in a row or a column, smaller first.
fn neighbours(side: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..side * side).flat_map(move |cell| {
        let right = (cell % side + 1 < side).then_some((cell, cell + 1));
        let below = (cell + side < side * side).then_some((cell, cell + side));
        right.into_iter().chain(below)
    })
}

/// Labels for the regions of a map, one per region number.
const REGION_LABELS: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// The box of `cell` on a board of `shape`, numbered row by row.
fn box_of(shape: Shape, cell: usize) -> usize {
    let side = shape.side();
    let (row, column) = (cell / side, cell % side);
    row / shape.box_rows() * (side / shape.box_cols()) + column / shape.box_cols()
}

/// Whether `labels` (one per cell) part the cells as `part` does.
fn same_partition(labels: &[usize], part: impl Fn(usize) -> usize) -> bool {
    let mut to_part: HashMap<usize, usize> = HashMap::new();
    let mut from_part: HashMap<usize, usize> = HashMap::new();
    labels.iter().enumerate().all(|(cell, &label)| {
        let other = part(cell);
        *to_part.entry(label).or_insert(other) == other && *from_part.entry(other).or_insert(label) == label
    })
}

/// The f-puzzles members of indexing cells (Rangsk's constraints).
const INDEXERS: [(&str, Indexer); 3] =
    [("rowindexer", Indexer::Row), ("columnindexer", Indexer::Column), ("boxindexer", Indexer::Box)];

/// The place of `cell` within its box, numbered row by row.
fn place_in_box(shape: Shape, cell: usize) -> usize {
    let side = shape.side();
    let (row, column) = (cell / side, cell % side);
    row % shape.box_rows() * shape.box_cols() + column % shape.box_cols()
}

/// A list of cells as a JSON array.
fn list_of(cells: &[usize]) -> String {
    format!("[{}]", cells.iter().map(usize::to_string).collect::<Vec<_>>().join(", "))
}

/// The f-puzzles JSON of `board`: its digits as givens, and its rules as
/// the members [`translate`] reads back. A rule that f-puzzles has no
/// member for is an error that names it.
pub(super) fn write(board: &Board) -> Result<String, String> {
    let rules = board.rules();
    let shape = board.shape();
    let side = shape.side();
    let name = |cell: usize| format!("\"R{}C{}\"", cell / side + 1, cell % side + 1);
    let names = |cells: &[usize]| cells.iter().map(|&c| name(c)).collect::<Vec<_>>().join(",");
    let mut out = format!("{{\"size\":{side},\"grid\":{}", grid_json(board));
    let mut flags = Vec::new();
    let mut extra = Vec::new();
    for (kind, unit) in rules.regions() {
        match kind {
            Region::Diagonal if unit.contains(&0) => flags.push("diagonal-"),
            Region::Diagonal => flags.push("diagonal+"),
            Region::Window | Region::Extra => extra.push(unit),
            _ => {}
        }
    }
    // Anti-knight and anti-king are kept as pairs of distinct cells: all of
    // a move's pairs there are the rule, the rest are groups of their own.
    let mut groups: Vec<Vec<usize>> = rules.distinct_groups().collect();
    for (flag, moves) in [("antiknight", &[(1, 2), (2, 1), (1, -2), (2, -1)][..]), ("antiking", &[(1, 1), (1, -1)][..])]
    {
        let pairs = pairs_at(side, moves);
        if !pairs.is_empty() && pairs.iter().all(|pair| groups.contains(pair)) {
            groups.retain(|group| !pairs.contains(group));
            flags.push(flag);
        }
    }
    if rules.is_non_consecutive() {
        flags.push("nonconsecutive");
    }
    for flag in flags {
        let _ = write!(out, ",\"{flag}\":true");
    }
    let cages: Vec<String> = rules
        .cages()
        .map(|(sum, cells)| format!("{{\"cells\":[{}],\"value\":\"{sum}\"}}", names(&cells)))
        .chain(groups.iter().map(|cells| format!("{{\"cells\":[{}]}}", names(cells))))
        .collect();
    let ([thermometers, differences, ratios, xv, clones, whispers, slow_thermometers], negative, indexers) =
        marks(board)?;
    let line_members = sum_items(board)?;
    if !negative.is_empty() {
        let names: Vec<String> = negative.iter().map(|mark| format!("\"{mark}\"")).collect();
        let _ = write!(out, ",\"negative\":[{}]", names.join(","));
    }
    let (mut odd, mut even) = (Vec::new(), Vec::new());
    if rules.has_allowed_digits() {
        let Some(map) = rules.parity_map() else {
            return Err(
                "f-puzzles marks cells even or odd, and these rules restrict some cells' digits otherwise".to_owned()
            );
        };
        for (cell, mark) in map.chars().enumerate() {
            match mark {
                'o' => odd.push(format!("{{\"cell\":{}}}", name(cell))),
                'e' => even.push(format!("{{\"cell\":{}}}", name(cell))),
                _ => {}
            }
        }
    }
    let extra: Vec<String> = extra.iter().map(|cells| format!("{{\"cells\":[{}]}}", names(cells))).collect();
    let marks = [
        ("killercage", cages),
        ("extraregion", extra),
        ("thermometer", thermometers),
        ("difference", differences),
        ("ratio", ratios),
        ("xv", xv),
        ("clone", clones),
        ("whispers", whispers),
        ("slowthermometer", slow_thermometers),
    ];
    let indexers = INDEXERS.into_iter().map(|(name, _)| name).zip(indexers);
    let parity = [("odd", odd), ("even", even)];
    for (member, items) in marks.into_iter().chain(indexers).chain(line_members).chain(parity) {
        if !items.is_empty() {
            let _ = write!(out, ",\"{member}\":[{}]", items.join(","));
        }
    }
    out.push('}');
    Ok(out)
}

/// The rows of `board`'s f-puzzles grid: its digits as givens, and the
/// cells' regions where they are not the boxes f-puzzles draws for the
/// side (a jigsaw, boxes of another shape, or a Latin square, whose rows
/// stand in as its regions).
fn grid_json(board: &Board) -> String {
    let rules = board.rules();
    let shape = board.shape();
    let (side, cells) = (shape.side(), shape.cells());
    let regions: Vec<Vec<usize>> = rules
        .regions()
        .filter(|(kind, _)| matches!(kind, Region::Box | Region::Jigsaw))
        .map(|(_, cells)| cells)
        .collect();
    let default_boxes = Shape::from_side(side).is_some_and(|drawn| {
        drawn.box_rows() == shape.box_rows() && drawn.box_cols() == shape.box_cols() && shape.has_boxes()
    }) && rules.regions().all(|(kind, _)| kind != Region::Jigsaw);
    let mut region_of: Vec<Option<usize>> = vec![None; cells];
    if !default_boxes {
        let units = if regions.is_empty() {
            (0..side).map(|row| (row * side..(row + 1) * side).collect()).collect()
        } else {
            regions
        };
        for (k, unit) in units.iter().enumerate() {
            for &cell in unit {
                region_of[cell] = Some(k);
            }
        }
    }
    let grid: Vec<String> = (0..side)
        .map(|row| {
            let row: Vec<String> = (0..side)
                .map(|column| {
                    let cell = row * side + column;
                    let mut members = Vec::new();
                    if let Some(digit) = board.get(cell) {
                        members.push(format!("\"value\":{digit},\"given\":true"));
                    }
                    if let Some(region) = region_of[cell] {
                        members.push(format!("\"region\":{region}"));
                    }
                    format!("{{{}}}", members.join(","))
                })
                .collect();
            format!("[{}]", row.join(","))
        })
        .collect();
    format!("[{}]", grid.join(","))
}

/// The marks of [`marks`], the negated marks given in full, and the
/// indexing cells of each of [`INDEXERS`].
type Marks = ([Vec<String>; 7], Vec<&'static str>, [Vec<String>; 3]);

/// `board`'s relations as f-puzzles' thermometers (a step each), difference
/// and ratio dots, X and V marks, clones (equal pairs), whispers lines (a
/// pair each, cells some number apart), slow thermometers (a step each)
/// and indexing cells (each with all its relations); an error for any
/// other.
fn marks(board: &Board) -> Result<Marks, String> {
    let side = board.shape().side();
    let names = |cells: &[usize]| {
        cells.iter().map(|&c| format!("\"R{}C{}\"", c / side + 1, c % side + 1)).collect::<Vec<_>>().join(",")
    };
    // Indexing cells: the index relations that make up a whole indexer.
    let indexed: HashSet<(usize, Relation, usize)> =
        board.rules().relations().filter(|(_, relation, _)| relation.digits().is_some()).collect();
    let mut indexers: [Vec<String>; 3] = Default::default();
    let mut covered = HashSet::new();
    if !indexed.is_empty() {
        let boxes = board.rules().regions().any(|(kind, _)| kind == Region::Box);
        for cell in 0..side * side {
            for ((_, indexer), cells) in INDEXERS.into_iter().zip(&mut indexers) {
                if indexer == Indexer::Box && !boxes {
                    continue;
                }
                let relations: Vec<(usize, Relation, usize)> = indexer.relations(board.shape(), cell).collect();
                if relations.iter().all(|relation| indexed.contains(relation)) {
                    cells.push(format!("{{\"cells\":[{}]}}", names(&[cell])));
                    covered.extend(relations);
                }
            }
        }
    }
    let (mut thermometers, mut differences, mut ratios, mut xv) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut clones, mut whispers, mut slow_thermometers) = (Vec::new(), Vec::new(), Vec::new());
    // Pairs with each mark, and pairs with each negated relation, by the
    // mark's f-puzzles name.
    let mut marked: HashMap<&str, HashSet<(usize, usize)>> = HashMap::new();
    let mut negated: HashMap<Negation, HashSet<(usize, usize)>> = HashMap::new();
    for (first, relation, second) in board.rules().relations() {
        if covered.contains(&(first, relation, second)) {
            continue;
        }
        let pair = names(&[first, second]);
        let key = (first.min(second), first.max(second));
        let mark = match relation {
            Relation::Less => {
                thermometers.push(format!("{{\"lines\":[[{pair}]]}}"));
                continue;
            }
            Relation::LessOrEqual => {
                slow_thermometers.push(format!("{{\"lines\":[[{pair}]]}}"));
                continue;
            }
            Relation::Difference(0) => {
                clones.push(format!("{{\"cells\":[{}],\"cloneCells\":[{}]}}", names(&[first]), names(&[second])));
                continue;
            }
            Relation::Apart(k) => {
                // A whispers line of two cells; the value only where it is
                // not the default, half the side rounded up.
                let value = if k == side.div_ceil(2) { String::new() } else { format!(",\"value\":\"{k}\"") };
                whispers.push(format!("{{\"lines\":[[{pair}]]{value}}}"));
                continue;
            }
            Relation::Difference(1) => (&mut differences, format!("{{\"cells\":[{pair}]}}"), "difference"),
            Relation::Difference(k) => {
                (&mut differences, format!("{{\"cells\":[{pair}],\"value\":\"{k}\"}}"), "difference")
            }
            Relation::Ratio(2) => (&mut ratios, format!("{{\"cells\":[{pair}]}}"), "ratio"),
            Relation::Ratio(k) => (&mut ratios, format!("{{\"cells\":[{pair}],\"value\":\"{k}\"}}"), "ratio"),
            Relation::Sum(10) => (&mut xv, format!("{{\"cells\":[{pair}],\"value\":\"X\"}}"), "xv"),
            Relation::Sum(5) => (&mut xv, format!("{{\"cells\":[{pair}],\"value\":\"V\"}}"), "xv"),
            other => {
                let negation = NEGATED.iter().find_map(|(mark, negations)| {
                    negations
                        .iter()
                        .find(|&&(name, value)| other.name() == name && other.value() == Some(value))
                        .map(|&(name, value)| (*mark, name, value))
                });
                let Some(negation) = negation else {
                    return Err(format!(
                        "f-puzzles has no mark for the relation {other} between cells {first} and {second}"
                    ));
                };
                negated.entry(negation).or_default().insert(key);
                continue;
            }
        };
        mark.0.push(mark.1);
        marked.entry(mark.2).or_default().insert(key);
    }
    // A negated relation is written as its mark given in full, which must
    // be what it says: on every pair of neighbours without the mark.
    let mut negative = Vec::new();
    for (mark, negations) in NEGATED {
        let found: Vec<_> = negations.iter().map(|&(name, value)| negated.remove(&(mark, name, value))).collect();
        if found.iter().all(Option::is_none) {
            continue;
        }
        let none = HashSet::new();
        let with_mark = marked.get(mark).unwrap_or(&none);
        let unmarked: HashSet<(usize, usize)> = neighbours(side).filter(|pair| !with_mark.contains(pair)).collect();
        if found.iter().any(|pairs| pairs.as_ref() != Some(&unmarked)) {
            return Err(format!(
                "f-puzzles gives a mark in full or not at all: a relation that no {mark} mark holds is kept on \
                 some pairs of neighbours and not on others"
            ));
        }
        negative.push(mark);
    }
    Ok(([thermometers, differences, ratios, xv, clones, whispers, slow_thermometers], negative, indexers))
}

/// `board`'s rules along lines as f-puzzles' members, each named, in the
/// order they are written: its sums as little killer clues, its arrows as
/// arrows, its sandwiches and X-sums as their clues, and its between lines,
/// quadruples, renban lines, region sum lines, zipper lines, double
/// arrows, entropic lines and modular lines as theirs; an error for a sum whose
/// cells are not a whole diagonal, from edge to edge, which is all a
/// little killer can hold, and for a sandwich along a region other than
/// a row or a column.
fn sum_items(board: &Board) -> Result<Vec<(&'static str, Vec<String>)>, String> {
    let rules = board.rules();
    let side = board.shape().side();
    let name = |row: usize, column: usize| format!("\"R{row}C{column}\"");
    let names = |cells: &[usize]| cells.iter().map(|&c| name(c / side + 1, c % side + 1)).collect::<Vec<_>>().join(",");
    let mut little_killers = Vec::new();
    for (sum, mut cells) in rules.sums() {
        cells.sort_unstable();
        let (top_row, top_column) = (cells[0] / side, cells[0] % side);
        // The diagonal down and to the right, or down and to the left, from
        // the topmost cell to the edge.
        let run = |across: isize| -> Vec<usize> {
            let mut run = Vec::new();
            let (mut row, mut column) = (top_row, Some(top_column));
            while let Some(c) = column.filter(|&c| c < side && row < side) {
                run.push(row * side + c);
                row += 1;
                column = c.checked_add_signed(across);
            }
            run
        };
        let clue = if top_row == 0 || top_column == 0 {
            (run(1) == cells).then(|| (name(top_row, top_column), "DR"))
        } else {
            None
        };
        let clue = clue.or_else(|| {
            let starts_at_edge = top_row == 0 || top_column == side - 1;
            (starts_at_edge && run(-1) == cells).then(|| (name(top_row, top_column + 2), "DL"))
        });
        let Some((outside, direction)) = clue else {
            return Err(format!(
                "f-puzzles holds a sum only as a little killer along a whole diagonal, and cells {} are not one",
                cells.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")
            ));
        };
        little_killers.push(format!(
            "{{\"cell\":{outside},\"cells\":[{}],\"direction\":\"{direction}\",\"value\":\"{sum}\"}}",
            names(&cells)
        ));
    }
    let mut sandwiches = Vec::new();
    for (sum, cells) in rules.sandwiches() {
        let row = cells[0] / side;
        let column = cells[0] % side;
        let clue = if cells.iter().all(|&c| c / side == row) {
            name(row + 1, 0)
        } else if cells.iter().all(|&c| c % side == column) {
            name(0, column + 1)
        } else {
            return Err(format!(
                "f-puzzles holds a sandwich only along a row or a column, and cells {} are neither",
                cells.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")
            ));
        };
        sandwiches.push(format!("{{\"cell\":{clue},\"value\":\"{sum}\"}}"));
    }
    let x_sums = outside_clue_items(&mut rules.x_sums(), side, "an X-sum")?;
    let skyscrapers = outside_clue_items(&mut rules.skyscrapers(), side, "a skyscraper clue")?;
    let line_items = |lines: &mut dyn Iterator<Item = Vec<usize>>| -> Vec<String> {
        lines.map(|line| format!("{{\"lines\":[[{}]]}}", names(&line))).collect()
    };
    let between = line_items(&mut rules.between_lines());
    let renbans = line_items(&mut rules.renbans());
    let region_sums = line_items(&mut rules.region_sum_lines());
    let zippers = line_items(&mut rules.zipper_lines());
    let double_arrows = line_items(&mut rules.double_arrows());
    let entropic = line_items(&mut rules.entropic_lines());
    let modular = line_items(&mut rules.modular_lines());
    let quadruples = rules
        .quadruples()
        .map(|(cells, digits)| {
            let values: Vec<String> = digits.iter().map(u8::to_string).collect();
            format!("{{\"cells\":[{}],\"values\":[{}]}}", names(&cells), values.join(","))
        })
        .collect();
    let arrows = rules
        .arrows()
        .map(|(circle, shaft)| {
            let line: Vec<usize> = circle.iter().take(1).chain(&shaft).copied().collect();
            format!("{{\"lines\":[[{}]],\"cells\":[{}]}}", names(&line), names(&circle))
        })
        .collect();
    Ok(vec![
        ("littlekillersum", little_killers),
        ("arrow", arrows),
        ("sandwichsum", sandwiches),
        ("xsum", x_sums),
        ("skyscraper", skyscrapers),
        ("betweenline", between),
        ("quadruple", quadruples),
        ("renban", renbans),
        ("regionsumline", region_sums),
        ("zipperline", zippers),
        ("doublearrow", double_arrows),
        ("entropicline", entropic),
        ("modularline", modular),
    ])
}

/// Clues of `what` (X-sums, skyscrapers: each its number and its cells
/// from the clue's side) as f-puzzles' clues, each beside the end of the
/// row or column its cells are read from; an error for one along another
/// region, which f-puzzles cannot hold.
fn outside_clue_items(
    clues: &mut dyn Iterator<Item = (usize, Vec<usize>)>,
    side: usize,
    what: &str,
) -> Result<Vec<String>, String> {
    let name = |row: usize, column: usize| format!("\"R{row}C{column}\"");
    let mut items = Vec::new();
    for (sum, cells) in clues {
        // The clue stands on the side the cells are read from: a whole row
        // or column, from one end.
        let (row, column) = (cells[0] / side, cells[0] % side);
        let across: Vec<usize> = (0..side).map(|c| row * side + c).collect();
        let down: Vec<usize> = (0..side).map(|r| r * side + column).collect();
        let backwards = |line: &[usize]| line.iter().rev().copied().collect::<Vec<_>>();
        let clue = if cells == across {
            name(row + 1, 0)
        } else if cells == backwards(&across) {
            name(row + 1, side + 1)
        } else if cells == down {
            name(0, column + 1)
        } else if cells == backwards(&down) {
            name(side + 1, column + 1)
        } else {
            return Err(format!(
                "f-puzzles holds {what} only along a row or a column from one end, and cells {} are not one",
                cells.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")
            ));
        };
        items.push(format!("{{\"cell\":{clue},\"value\":\"{sum}\"}}"));
    }
    Ok(items)
}

/// The pairs of cells a move of `moves` apart (rows down, columns
/// across), first cell first, as the anti-knight and anti-king rules keep
/// them.
fn pairs_at(side: usize, moves: &[(usize, isize)]) -> Vec<Vec<usize>> {
    let mut pairs = Vec::new();
    for row in 0..side {
        for column in 0..side {
            for &(down, across) in moves {
                let to = column.checked_add_signed(across).filter(|&c| c < side && row + down < side);
                if let Some(to) = to {
                    pairs.push(vec![row * side + column, (row + down) * side + to]);
                }
            }
        }
    }
    pairs
}

/// The Base64 alphabet, by value.
const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The writing side of [`decompress`]: codes of a growing width, six bits
/// to a Base64 character, each code's lowest bit first.
struct Compressor {
    out: String,
    value: usize,
    filled: usize,
    /// Code widths and when they grow, as the reader keeps them.
    width: u32,
    room: usize,
}

impl Compressor {
    fn write(&mut self, number: usize, count: u32) {
        for bit in 0..count {
            self.value = self.value << 1 | (number >> bit) & 1;
            self.filled += 1;
            if self.filled == 6 {
                self.out.push(char::from(BASE64[self.value]));
                (self.value, self.filled) = (0, 0);
            }
        }
    }

    /// One more entry made: the codes widen once `room` runs out.
    fn entry_made(&mut self) {
        self.room -= 1;
        if self.room == 0 {
            self.room = 1 << self.width;
            self.width += 1;
        }
    }

    /// Writes the code of `w`: a character met for the first time comes
    /// as itself (in 8 bits, or 16 past the first 256), the rest as their
    /// dictionary entry.
    fn emit(&mut self, w: &[u16], dictionary: &HashMap<Vec<u16>, usize>, first_time: &mut HashSet<u16>) {
        if w.len() == 1 && first_time.remove(&w[0]) {
            let unit = usize::from(w[0]);
            if unit < 256 {
                self.write(0, self.width);
                self.write(unit, 8);
            } else {
                self.write(1, self.width);
                self.write(unit, 16);
            }
            self.entry_made();
        } else {
            self.write(dictionary[w], self.width);
        }
        self.entry_made();
    }
}

/// LZ-String's compression to Base64, as f-puzzles compresses the JSON of
/// its links: the counterpart of [`decompress`]. The longest prefix of
/// the rest found in the dictionary is written as its code, and that
/// prefix with the next character becomes an entry.
pub(super) fn compress(text: &str) -> String {
    let mut dictionary: HashMap<Vec<u16>, usize> = HashMap::new();
    let mut first_time: HashSet<u16> = HashSet::new();
    let mut next_code = 3;
    let mut writer = Compressor { out: String::new(), value: 0, filled: 0, width: 2, room: 2 };
    let mut w: Vec<u16> = Vec::new();
    for unit in text.encode_utf16() {
        if !dictionary.contains_key([unit].as_slice()) {
            dictionary.insert(vec![unit], next_code);
            next_code += 1;
            first_time.insert(unit);
        }
        w.push(unit);
        if !dictionary.contains_key(&w) {
            dictionary.insert(w.clone(), next_code);
            next_code += 1;
            w.pop();
            writer.emit(&w, &dictionary, &mut first_time);
            w = vec![unit];
        }
    }
    if !w.is_empty() {
        writer.emit(&w, &dictionary, &mut first_time);
    }
    writer.write(2, writer.width);
    while writer.filled != 0 {
        writer.write(0, 1);
    }
    let mut out = writer.out;
    while out.len() % 4 != 0 {
        out.push('=');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decompression_undoes_compression() {
        let texts = [
            "",
            "a",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            "{\"size\":9,\"grid\":[[{},{}]]}",
            "tobeornottobeortobeornot",
            "é and ✓ and 𝄞, past one byte",
        ];
        for text in texts {
            assert_eq!(decompress(&compress(text)).as_deref(), Ok(text), "{text:?}");
        }
        let long: String = (0..5000u16).map(|i| char::from(b'a' + u8::try_from(i * 7 % 13).unwrap())).collect();
        assert_eq!(decompress(&compress(&long)), Ok(long));
    }

    #[test]
    fn places_counted_on_from_the_last_are_those_counted_from_the_start() {
        let text = "ab\ncdé\n\nfg h\né";
        let reader = Reader::new(text);
        let counted = |at: usize| {
            let before = &text[..at];
            (before.matches('\n').count() + 1, before.rsplit('\n').next().unwrap_or_default().chars().count() + 1)
        };
        let forward: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
        for &at in forward.iter().chain(forward.iter().rev()).chain(&[5, 0, 9, 2, 9, 16]) {
            assert_eq!(reader.place(at), counted(at), "byte {at}");
        }
    }

    #[test]
    fn broken_data_is_an_error() {
        let good = compress("{\"size\":4,\"grid\":[]}");
        assert!(decompress(&good[..good.len() / 2]).is_err());
        assert!(decompress("N4Ig!!").is_err());
        assert!(decompress("////////").is_err());
        assert_eq!(decompress(""), Err("the link's data ends before its end mark".to_owned()));
    }

    #[test]
    fn links_give_their_payload() {
        assert_eq!(link_payload("https://f-puzzles.com/?load=N4Ig%2Bab%3D").as_deref(), Some("N4Ig+ab="));
        assert_eq!(link_payload("  http://www.f-puzzles.com/?id=3&load=abc&x=1 ").as_deref(), Some("abc"));
        assert_eq!(link_payload("f-puzzles.com/?load=xyz").as_deref(), Some("xyz"));
        assert_eq!(link_payload("https://example.com/?load=abc"), None);
        assert_eq!(link_payload("https://sudokupad.app/fpuzN4IgabcQ").as_deref(), Some("N4IgabcQ"));
        assert_eq!(link_payload("https://beta.sudokupad.app/fpuzzlesN4Ig%2Bx?setting=1").as_deref(), Some("N4Ig+x"));
        assert_eq!(link_payload("https://sudokupad.app/psxczr1jpr"), None);
        assert_eq!(
            link_payload("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."),
            None
        );
    }
}
