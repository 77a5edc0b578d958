//! A seeded random and mutation fuzzer, on stable Rust: inputs of every
//! shape and format, and mutations of real puzzles, through the parser with
//! every option, the command line's reader, and the `Board` API.
//!
//! The properties: nothing panics, every input is bounded (a node budget on
//! each search), and every solution found solves its puzzle.
//!
//! Ignored by default; `.ci/run` runs it in release mode. The number of
//! inputs and the seed come from `LAZYDOKU_FUZZ_INPUTS` (default 100,000)
//! and `LAZYDOKU_FUZZ_SEED`:
//!
//! ```sh
//! LAZYDOKU_FUZZ_INPUTS=10000000 cargo test --release --test suite fuzz -- --ignored --nocapture
//! ```

use crate::common;

#[allow(dead_code, reason = "the command line's reader, compiled here to be fuzzed; some of it serves the binary only")]
#[path = "../../src/bin/lazydoku/input.rs"]
mod input;

use std::io::{BufReader, Read};
use std::panic::{AssertUnwindSafe, catch_unwind};

use lazydoku::format::Parser;
use lazydoku::search::Budget;
use lazydoku::{Board, Region, Shape};

/// A small, fast, seedable generator (splitmix64).
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, bound: usize) -> usize {
        usize::try_from(self.next() % bound.max(1) as u64).unwrap_or(0)
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Characters that matter to some format, and a few that matter to none.
const ALPHABET: &[char] = &[
    '.', '0', '_', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'A', 'F', 'G', 'P', 'Q', 'Z', 'a', 'x', ' ', '\t',
    '\n', '\r', '|', '-', '+', '=', '[', ']', ',', '#', 'n', 'u', 'l', 'i', 'é', '\u{feff}', '\0', '{', '}', '"', ':',
];

/// Box shapes to write puzzles in.
const SHAPES: &[(usize, usize)] = &[(2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (2, 5), (3, 4), (4, 4), (4, 5), (5, 5)];

/// A puzzle of a random shape in a random format, from a solved grid with
/// random cells emptied.
fn generated(random: &mut Random) -> String {
    let (br, bc) = *random.pick(SHAPES);
    let side = br * bc;
    let grid = common::shuffled_grid(br, bc, random.next());
    let keep = random.below(100);
    let cells: Vec<char> =
        grid.chars().map(|c| if random.below(100) < keep { c } else { *random.pick(&['.', '0', '_']) }).collect();
    // Rules named after a line, or in a JSON object, now and then.
    let names: Vec<&str> = lazydoku::format::RULE_NAMES.iter().copied().filter(|_| random.below(4) == 0).collect();
    match random.below(9) {
        0 => cells.iter().collect(),
        8 => f_puzzles_object(random, &grid, &cells, br, bc),
        5 => format!("{} rules:{}", cells.iter().collect::<String>(), names.join(",")),
        // A parity map after the line, or under the grid.
        7 => with_parity_map(random, &grid, &cells, br, bc),
        6 => {
            let quoted: Vec<String> = names.iter().map(|name| format!("\"{name}\"")).collect();
            // The main diagonal as an extra region, and two cells a knight's
            // move apart as a group, now and then: givens may break them.
            let diagonal: Vec<usize> = (0..side).map(|i| i * side + i).collect();
            // A thermometer along the first row, and relations of every
            // kind between random cells, with values that may be
            // impossible, now and then.
            let thermometer: Vec<usize> = (0..random.below(side + 2)).collect();
            let relations: Vec<String> = (0..random.below(4))
                .map(|_| {
                    let (a, b) = (random.below(side * side + 1), random.below(side * side));
                    let name = *random.pick(&["less", "difference", "ratio", "sum", "apart", "more", "index"]);
                    let value = random.below(2 * side + 2);
                    let value = match name {
                        "less" => String::new(),
                        // Two digits, or now and then one: an error.
                        "index" if value % 4 != 0 => format!(r#", "value": [{value}, {}]"#, random.below(side + 2)),
                        _ => format!(r#", "value": {value}"#),
                    };
                    format!(r#"{{"cells": [{a}, {b}], "relation": "{name}"{value}}}"#)
                })
                .collect();
            // Even and odd cells, now and then some off the board, or the
            // same cell in both.
            let marked: Vec<usize> = (0..random.below(5)).map(|_| random.below(side * side + 1)).collect();
            let more = match random.below(6) {
                0 => format!(r#", "extra_regions": [{diagonal:?}]"#),
                1 => format!(r#", "distinct_groups": [[0, {}]]"#, side + 2),
                2 => format!(r#", "thermometers": [{thermometer:?}]"#),
                3 => format!(r#", "relations": [{}]"#, relations.join(", ")),
                4 => {
                    format!(r#", "even": {:?}, "odd": {:?}"#, &marked[..marked.len() / 2], &marked[marked.len() / 2..])
                }
                _ => String::new(),
            };
            let object = format!(
                r#"{{"puzzle": "{}", "rules": [{}]{more}}}"#,
                cells.iter().collect::<String>(),
                quoted.join(", ")
            );
            // Over several lines now and then, as `jq` writes objects, and
            // then perhaps two of them, or the same in an array, on lines
            // of their own or on one line.
            match random.below(6) {
                0 => object.replace(", ", ",\n  ").replace('{', "{\n  "),
                1 => format!("{object}\n{}", object.replace(", ", ",\n")),
                2 => format!("[\n{object},\n{object}\n]"),
                3 => format!("[{object}, {object}]"),
                // An array of the puzzle as strings.
                4 => format!("[\"{0}\", \"{0}\"]", cells.iter().collect::<String>()),
                _ => object,
            }
        }
        1 => cells.chunks(side).map(|row| row.iter().collect::<String>()).collect::<Vec<_>>().join("\n"),
        2 => cells
            .chunks(side)
            .map(|row| row.iter().map(char::to_string).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join("\n"),
        3 => grid_with_separators(&cells, br, bc),
        _ => format!(
            "[{}]",
            cells
                .chunks(side)
                .map(|row| format!(
                    "[{}]",
                    row.iter()
                        .map(|&c| c
                            .to_digit(36)
                            .filter(|&d| d > 0 && c != '0')
                            .map_or("null".into(), |d| d.to_string()))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
                .collect::<Vec<_>>()
                .join(",\n")
        ),
    }
}

/// An f-puzzles sandwich clue above a column or left of a row (or
/// nowhere), of any sum: most break the grid.
fn sandwich_clue(random: &mut Random, side: usize) -> String {
    let at = random.below(side + 2);
    let cell = match random.below(5) {
        0 => format!("R0C{at}"),
        1 => format!("R{at}C0"),
        2 => format!("R{}C{at}", side + 1),
        3 => format!("R{at}C{}", side + 1),
        _ => "R0C0".to_owned(),
    };
    format!(r#"{{"cell":"{cell}","value":"{}"}}"#, random.below(40))
}

/// An f-puzzles little killer from above the first row, by its cells or by
/// its direction (now and then a wrong one), with the sum of `digit`s on
/// its diagonal or another.
fn little_killer(
    random: &mut Random,
    side: usize,
    digit: &dyn Fn(usize) -> char,
    name: &dyn Fn(usize) -> String,
) -> String {
    let column = random.below(side);
    let cells: Vec<usize> = (0..side - column).map(|i| i * side + column + i).collect();
    let total: u32 = cells.iter().map(|&c| digit(c).to_digit(36).unwrap_or(1)).sum();
    let total = if random.below(3) == 0 { random.below(80) } else { usize::try_from(total).unwrap_or(0) };
    let listed = if random.below(2) == 0 {
        format!(r#","cells":[{}]"#, cells.iter().map(|&c| name(c)).collect::<Vec<_>>().join(","))
    } else {
        String::new()
    };
    let direction = random.pick(&["DR", "dr", "UL", "XX"]);
    format!(r#"{{"cell":"R0C{column}","direction":"{direction}"{listed},"value":"{total}"}}"#)
}

/// Whether the digits `digit` gives keep every line of equal sums of
/// `rules` (a region sum line's segments, cut by the boxes or jigsaw
/// regions, a zipper line's middle and pairs around it, a double arrow's
/// ends and middle) and every line of classes, each worked out here.
fn equal_sums_hold(rules: &lazydoku::Rules, digit: &dyn Fn(usize) -> usize) -> bool {
    let region_of = |cell: usize| {
        rules.regions().position(|(kind, cells)| matches!(kind, Region::Box | Region::Jigsaw) && cells.contains(&cell))
    };
    let one_sum = |groups: Vec<Vec<usize>>| {
        let sums: Vec<usize> = groups.iter().map(|g| g.iter().map(|&c| digit(c)).sum()).collect();
        sums.windows(2).all(|w| w[0] == w[1])
    };
    let segments = rules.region_sum_lines().all(|line| {
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for (i, &c) in line.iter().enumerate() {
            match groups.last_mut() {
                Some(group) if i > 0 && region_of(c).is_some() && region_of(line[i - 1]) == region_of(c) => {
                    group.push(c);
                }
                _ => groups.push(vec![c]),
            }
        }
        one_sum(groups)
    });
    let zippers = rules.zipper_lines().all(|line| {
        let n = line.len();
        let pairs = (0..n / 2).map(|i| vec![line[i], line[n - 1 - i]]);
        one_sum(if n % 2 == 1 { std::iter::once(vec![line[n / 2]]).chain(pairs).collect() } else { pairs.collect() })
    });
    let arrows = rules
        .double_arrows()
        .all(|line| one_sum(vec![vec![line[0], line[line.len() - 1]], line[1..line.len() - 1].to_vec()]));
    // Entropic and modular lines: any three cells in a row, three classes.
    let side = rules.shape().side();
    let classes = |line: Vec<usize>, class: &dyn Fn(usize) -> usize| {
        let classes: Vec<usize> = line.iter().map(|&c| class(digit(c))).collect();
        (0..classes.len()).all(|i| (i + 1..classes.len().min(i + 3)).all(|j| classes[i] != classes[j]))
    };
    let entropic = rules.entropic_lines().all(|line| classes(line, &|d| (d - 1) / (side / 3)));
    let modular = rules.modular_lines().all(|line| classes(line, &|d| d % 3));
    segments && zippers && arrows && entropic && modular
}

/// The f-puzzles lines of cells the fuzzer draws along three cells.
const LINES: [&str; 8] = [
    "palindrome",
    "renban",
    "regionsumline",
    "zipperline",
    "doublearrow",
    "entropicline",
    "modularline",
    "slowthermometer",
];

/// The rules f-puzzles turns on by a flag.
const FLAGS: [&str; 6] = ["diagonal+", "diagonal-", "antiknight", "antiking", "nonconsecutive", "disjointgroups"];

/// The puzzle `cells` as an f-puzzles object: its givens in the grid
/// (with a solver's entries, which are not givens, now and then), and
/// constraints read off `grid` (which keeps them) or drawn at random,
/// some naming cells off the board, some of kinds not read here.
fn f_puzzles_object(random: &mut Random, grid: &str, cells: &[char], br: usize, bc: usize) -> String {
    let side = br * bc;
    let digit = |cell: usize| grid.as_bytes()[cell % grid.len()] as char;
    let value = |c: char| c.to_digit(36).filter(|&d| d > 0 && c != '0');
    let name = |cell: usize| format!("\"R{}C{}\"", cell / side + 1, cell % side + 1);
    // Every cell's region given as its box's now and then, or one cell's
    // given at random (which most often breaks the regions' sizes).
    let (boxes, stray) =
        (random.below(6) == 0, if random.below(6) == 0 { random.below(side * side) } else { usize::MAX });
    let rows: Vec<String> = cells
        .chunks(side)
        .enumerate()
        .map(|(r, row)| {
            let row: Vec<String> = row
                .iter()
                .enumerate()
                .map(|(c, &mark)| {
                    let cell = r * side + c;
                    let region = if cell == stray {
                        format!(r#","region":{}"#, random.below(side + 1))
                    } else if boxes {
                        format!(r#","region":{}"#, r / br * (side / bc) + c / bc)
                    } else {
                        String::new()
                    };
                    match value(mark) {
                        Some(d) => format!(r#"{{"value":{d},"given":true{region}}}"#),
                        None if random.below(10) == 0 => {
                            format!(r#"{{"value":{}{region}}}"#, digit(cell).to_digit(36).unwrap_or(1))
                        }
                        None => format!("{{{}}}", region.trim_start_matches(',')),
                    }
                })
                .collect();
            format!("[{}]", row.join(","))
        })
        .collect();
    let mut members = vec![format!(r#""size":{side}"#), format!(r#""grid":[{}]"#, rows.join(","))];
    let random_cell = |random: &mut Random| {
        if random.below(30) == 0 { side * side + random.below(3) } else { random.below(side * side) }
    };
    // Each kind's items, gathered into one array per member.
    let mut kinds: std::collections::BTreeMap<&str, Vec<String>> = std::collections::BTreeMap::new();
    for _ in 0..random.below(4) {
        let a = random_cell(random);
        let b = if random.below(2) == 0 { a + 1 } else { a + side };
        let (x, y) = (digit(a).to_digit(36).unwrap_or(1), digit(b).to_digit(36).unwrap_or(1));
        let (kind, item) = match random.below(17) {
            0 => ("killercage", format!(r#"{{"cells":[{},{}],"value":"{}"}}"#, name(a), name(b), x + y)),
            1 => ("killercage", format!(r#"{{"cells":[{},{}],"value":"{}"}}"#, name(a), name(b), random.below(40))),
            2 => {
                let (low, high) = if x < y { (a, b) } else { (b, a) };
                ("thermometer", format!(r#"{{"lines":[[{},{}]]}}"#, name(low), name(high)))
            }
            3 => ("difference", format!(r#"{{"cells":[{},{}],"value":"{}"}}"#, name(a), name(b), x.abs_diff(y))),
            4 => (
                "xv",
                format!(r#"{{"cells":[{},{}],"value":"{}"}}"#, name(a), name(b), random.pick(&["X", "V", "x", "W"])),
            ),
            5 => (if x % 2 == 0 { "even" } else { "odd" }, format!(r#"{{"cell":{}}}"#, name(a))),
            6 => {
                let flag = *random.pick(&FLAGS);
                members.push(format!(r#""{flag}":true"#));
                // Marks given in full, now and then: most grids break them.
                if random.below(3) == 0 {
                    members.push(r#""negative":["ratio","xv"]"#.to_owned());
                }
                continue;
            }
            8 => ("arrow", format!(r#"{{"lines":[[{},{}]],"cells":[{}]}}"#, name(a), name(b), name(a))),
            9 => ("littlekillersum", little_killer(random, side, &digit, &name)),
            10 => ("clone", format!(r#"{{"cells":[{}],"cloneCells":[{}]}}"#, name(a), name(b))),
            12 => (*random.pick(&["minimum", "maximum"]), format!(r#"{{"cell":{}}}"#, name(a))),
            13 => (*random.pick(&["sandwichsum", "xsum", "skyscraper"]), sandwich_clue(random, side)),
            15 => {
                let corner = [a, a + 1, a + side, a + side + 1].map(name).join(",");
                ("quadruple", format!(r#"{{"cells":[{corner}],"values":[{x},{}]}}"#, random.below(side + 2)))
            }
            14 => ("betweenline", format!(r#"{{"lines":[[{},{},{}]]}}"#, name(a), name(b), name(a + 2))),
            11 => {
                let line = format!(r#"{{"lines":[[{},{},{}]]}}"#, name(a), name(b), name(a + 2));
                (*random.pick(&LINES), line)
            }
            16 => {
                let value =
                    if random.below(2) == 0 { String::new() } else { format!(r#","value":"{}""#, x.abs_diff(y)) };
                ("whispers", format!(r#"{{"lines":[[{},{}]]{value}}}"#, name(a), name(b)))
            }
            7 => (
                "extraregion",
                format!(r#"{{"cells":[{}]}}"#, (0..side).map(|i| name(i * side + i)).collect::<Vec<_>>().join(",")),
            ),
            _ => (
                *random.pick(&["arrow", "ratio", "negative", "cage", "quadruple", "renban", "nabner", "boxindexer"]),
                format!(r#"{{"cells":[{}]}}"#, name(a)),
            ),
        };
        kinds.entry(kind).or_default().push(item);
    }
    members.extend(kinds.into_iter().map(|(kind, items)| format!(r#""{kind}":[{}]"#, items.join(","))));
    members.dedup();
    let object = format!("{{{}}}", members.join(","));
    if random.below(3) == 0 { object.replace(",\"", ",\n\"") } else { object }
}

/// The puzzle `cells` with a parity map after the line, or under the
/// grid, read off `grid` now and then and drawn at random (perhaps too
/// long, short or with a wrong mark) otherwise.
fn with_parity_map(random: &mut Random, grid: &str, cells: &[char], br: usize, bc: usize) -> String {
    let off_grid = random.below(2) == 0;
    let mut map: String = grid
        .chars()
        .map(|c| {
            let even = c.to_digit(36).unwrap_or(0) % 2 == 0;
            match (random.below(4), off_grid) {
                (0, true) => {
                    if even {
                        'e'
                    } else {
                        'o'
                    }
                }
                (0, false) => *random.pick(&['e', 'o', 'E', 'x']),
                _ => '.',
            }
        })
        .collect();
    if random.below(8) == 0 {
        map.truncate(random.below(map.len() + 1));
    }
    if random.below(2) == 0 {
        format!("{} parity:{map}", cells.iter().collect::<String>())
    } else {
        format!("{}parity {map}\n", grid_with_separators(cells, br, bc))
    }
}

fn grid_with_separators(cells: &[char], br: usize, bc: usize) -> String {
    let side = br * bc;
    let mut out = String::new();
    for (r, row) in cells.chunks(side).enumerate() {
        if r > 0 && r % br == 0 {
            out.push_str(&"-".repeat(2 * side + 1));
            out.push('\n');
        }
        for (c, ch) in row.iter().enumerate() {
            if c > 0 {
                out.push_str(if c % bc == 0 { " | " } else { " " });
            }
            out.push(*ch);
        }
        out.push('\n');
    }
    out
}

/// A real or generated puzzle, changed in a few random places.
fn mutated(random: &mut Random, seeds: &[String]) -> String {
    let mut text: Vec<char> =
        if random.below(2) == 0 { random.pick(seeds).chars().collect() } else { generated(random).chars().collect() };
    for _ in 0..=random.below(4) {
        let at = random.below(text.len() + 1);
        match random.below(6) {
            0 if at < text.len() => text[at] = *random.pick(ALPHABET),
            1 => text.insert(at, *random.pick(ALPHABET)),
            2 if at < text.len() => {
                text.remove(at);
            }
            3 => {
                // Splice in a piece of another puzzle.
                let other: Vec<char> = random.pick(seeds).chars().collect();
                let from = random.below(other.len());
                let len = random.below(other.len() - from + 1);
                text.splice(at..at, other[from..from + len].iter().copied());
            }
            4 if !text.is_empty() => text.truncate(at.min(text.len())),
            _ => {
                let run = random.below(40);
                let ch = *random.pick(ALPHABET);
                text.splice(at..at, std::iter::repeat_n(ch, run));
            }
        }
    }
    text.into_iter().collect()
}

/// Pure noise from the alphabet.
fn noise(random: &mut Random) -> String {
    let len = random.below(700);
    (0..len).map(|_| *random.pick(ALPHABET)).collect()
}

fn parser(random: &mut Random) -> Parser {
    let mut parser =
        Parser::new().diagonals(random.below(8) == 0).windows(random.below(8) == 0).hex(random.below(10) == 0);
    if random.below(4) == 0 {
        let (br, bc) = *random.pick(SHAPES);
        parser = parser.shape(Shape::new(br, bc));
    }
    parser
}

/// Every check on one input: parse, then search within a budget, checking
/// each solution against the puzzle; and the command line's reader over the
/// same bytes.
fn check(text: &str, parser: Parser) {
    if let Ok((board, layout)) = parser.parse(text) {
        let shape = board.shape();
        let budget = Budget::nodes(300);
        let mut solutions = board.solutions().within(budget);
        for solution in solutions.by_ref().take(3) {
            assert!(solution.is_complete());
            // Every unit of the rules (jigsaw regions, extra regions, cages)
            // holds distinct digits; boxes and diagonals are checked apart
            // from the rules too, where they are the regions.
            let units: Vec<Vec<usize>> = board.rules().regions().map(|(_, cells)| cells).collect();
            assert!(common::solves_units(board.as_str(), solution.as_str(), &units), "{text:?} gave {solution}");
            let jigsaw = board.rules().regions().any(|(kind, _)| kind == Region::Jigsaw);
            assert!(
                jigsaw
                    || common::is_solution_of(
                        board.as_str(),
                        solution.as_str(),
                        shape.box_rows(),
                        shape.box_cols(),
                        shape.has_diagonals()
                    ),
                "{text:?} gave {solution}"
            );
            let digit = |cell: usize| usize::from(solution.get(cell).unwrap_or(0));
            for (a, relation, b) in board.rules().relations() {
                assert!(common::keeps(relation, digit(a), digit(b)), "{text:?} gave {solution}");
            }
            for (total, cells) in board.rules().sums() {
                assert_eq!(cells.iter().map(|&c| digit(c)).sum::<usize>(), total, "{text:?} gave {solution}");
            }
            for (circle, shaft) in board.rules().arrows() {
                let number = circle.iter().fold(0, |n, &c| n * 10 + digit(c));
                assert_eq!(shaft.iter().map(|&c| digit(c)).sum::<usize>(), number, "{text:?} gave {solution}");
            }
            for (cells, digits) in board.rules().quadruples() {
                let held: Vec<usize> = cells.iter().map(|&c| digit(c)).collect();
                let count = |d: usize, list: &[usize]| list.iter().filter(|&&x| x == d).count();
                let wanted: Vec<usize> = digits.iter().map(|&d| usize::from(d)).collect();
                assert!(wanted.iter().all(|&d| count(d, &held) >= count(d, &wanted)), "{text:?} gave {solution}");
            }
            assert!(equal_sums_hold(&board.rules(), &digit), "{text:?} gave {solution}");
            for line in board.rules().renbans() {
                let mut digits: Vec<usize> = line.iter().map(|&c| digit(c)).collect();
                digits.sort_unstable();
                assert!(digits.windows(2).all(|w| w[1] == w[0] + 1), "{text:?} gave {solution}");
            }
            for line in board.rules().between_lines() {
                let (a, b) = (digit(line[0]), digit(line[line.len() - 1]));
                let inside = |d: usize| a.min(b) < d && d < a.max(b);
                assert!(line[1..line.len() - 1].iter().all(|&c| inside(digit(c))), "{text:?} gave {solution}");
            }
            for (seen, cells) in board.rules().skyscrapers() {
                let tallest = cells.iter().scan(0, |tallest, &c| {
                    let taller = digit(c) > *tallest;
                    *tallest = (*tallest).max(digit(c));
                    Some(taller)
                });
                assert_eq!(tallest.filter(|&t| t).count(), seen, "{text:?} gave {solution}");
            }
            for (sum, cells) in board.rules().x_sums() {
                let first = digit(cells[0]);
                assert_eq!(cells[..first].iter().map(|&c| digit(c)).sum::<usize>(), sum, "{text:?} gave {solution}");
            }
            for (sum, cells) in board.rules().sandwiches() {
                let digits: Vec<usize> = cells.iter().map(|&c| digit(c)).collect();
                let one = digits.iter().position(|&d| d == 1).expect("a region holds 1");
                let top = digits.iter().position(|&d| d == shape.side()).expect("and the largest digit");
                let between: usize = digits[one.min(top) + 1..one.max(top)].iter().sum();
                assert_eq!(between, sum, "{text:?} gave {solution}");
            }
            for cell in 0..shape.side() * shape.side() {
                let allowed = board.rules().allowed_digits(cell);
                assert!(allowed.contains(solution.get(cell).unwrap_or(0)), "{text:?} gave {solution}");
            }
            let _ = layout.render(&solution);
        }
        let (count, _) = board.count_solutions_within(3, budget);
        assert!(count <= 3);
        check_symmetries(text, &board);
        if let Some(first) = board.children().next() {
            assert_eq!(first.shape(), shape);
        }
    }
    let _ = text.parse::<Board>();
    for mode in [input::Mode::Auto, input::Mode::Line, input::Mode::Grid] {
        let open = || input::Records::new(BufReader::new(input::Input::Direct(bytes_of(text))), mode, parser);
        let mut records = open();
        let mut lines = 0;
        let mut read = Vec::new();
        while let Ok(Some(record)) = records.next_record() {
            lines += 1;
            assert!(lines <= text.len() + 1, "the reader returns at most one record per line");
            if let input::Record::Puzzle { text: puzzle, .. } = &record {
                let _ = parser.parse(puzzle);
            }
            read.push(format!("{record:?}"));
        }
        // The command line's chunks, whose records share one string and
        // whose lines reuse each other's buffers, hold the same records.
        let mut chunked = open();
        let mut chunk = input::Chunk::default();
        while let Ok(true) = chunked.read_into(&mut chunk) {}
        let in_chunk: Vec<String> = chunk.range(0, chunk.len()).map(|record| format!("{record:?}")).collect();
        assert_eq!(in_chunk, read, "records read into a chunk");
    }
}

/// Canonical forms and equivalents of whatever rules came in: never a
/// panic, the same givens, and the puzzle's own rules where promised.
/// Classic boards above 9x9 are left out, whose search may take tenths of
/// a second on a sparse board.
fn check_symmetries(text: &str, board: &Board) {
    if board.shape().side() > 9 && board.rules().is_classic() {
        return;
    }
    if let Some((form, automorphisms)) = board.canonical_and_automorphisms() {
        assert_eq!(form.rules(), board.rules(), "{text:?}");
        assert_eq!(form.empty_cells(), board.empty_cells(), "{text:?}");
        assert!(automorphisms >= 1);
    }
    let with_rules = board.canonical_with_rules().map(|form| form.empty_cells());
    assert!(with_rules.is_none_or(|empty| empty == board.empty_cells()), "{text:?}");
    assert_eq!(board.transformed_keeping_rules(7).rules(), board.rules(), "{text:?}");
}

fn bytes_of(text: &str) -> Box<dyn Read + Send> {
    Box::new(std::io::Cursor::new(text.as_bytes().to_vec()))
}

#[test]
#[ignore = "a fuzz run: .ci/run runs it in release mode with 100,000 inputs"]
fn fuzz_the_parser_the_reader_and_the_board() {
    let inputs: u64 = std::env::var("LAZYDOKU_FUZZ_INPUTS").ok().and_then(|n| n.parse().ok()).unwrap_or(100_000);
    let seed: u64 = std::env::var("LAZYDOKU_FUZZ_SEED").ok().and_then(|n| n.parse().ok()).unwrap_or(0x1a2b_3c4d);
    let mut seeds: Vec<String> = Vec::new();
    for name in ["norvig_top95.txt", "puzzles6_forum_hardest_1106", "hard16.txt", "hard25.txt"] {
        seeds.extend(common::load(name).into_iter().take(200));
    }
    // Some of the same puzzles written as their rows on one line.
    let rows = |line: &String| {
        let side = line.len().isqrt().max(1);
        line.as_bytes().chunks(side).map(String::from_utf8_lossy).collect::<Vec<_>>().join(" ")
    };
    let as_rows: Vec<String> = seeds.iter().step_by(10).map(rows).collect();
    seeds.extend(as_rows);
    // f-puzzles links, whose compressed text the mutations break.
    for _ in 0..20 {
        seeds.push(crate::f_puzzles::TWO_CAGES_LINK.to_owned());
        seeds.push(crate::f_puzzles::UNREAD_LINK.to_owned());
    }
    let mut random = Random(seed);
    let quiet = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut failures = Vec::new();
    for n in 0..inputs {
        let text = match random.below(10) {
            0..=4 => mutated(&mut random, &seeds),
            5..=7 => generated(&mut random),
            _ => noise(&mut random),
        };
        let parser = parser(&mut random);
        if let Err(panic) = catch_unwind(AssertUnwindSafe(|| check(&text, parser))) {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default();
            failures.push(format!("input {n}: {text:?} with {parser:?}: {message}"));
            if failures.len() >= 5 {
                break;
            }
        }
    }
    std::panic::set_hook(quiet);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    println!("fuzzed {inputs} inputs from seed {seed}: no panic, every solution valid");
}

/// Valid rules as text, with the shape each is read on, for
/// [`fuzz_the_rules_readers`] to mutate.
fn valid_rules_texts() -> Vec<(Shape, &'static str)> {
    vec![
        (Shape::new(2, 2), "aaab acbb ccbd cddd"),
        (Shape::new(2, 2), "aabc\nddbc\neeff\nghhf\na=3 b=7 c=5\nd=3 e=7 f=6 g=4 h=5\n"),
        (
            Shape::new(2, 2),
            r#"{"cages": [{"sum": 3, "cells": [0, 1]}, {"sum": 7, "cells": [14, 15]}], "note": [1, {"x": null}]}"#,
        ),
        (Shape::new(2, 3), "aaabbb aaabbb cccddd cccddd eeefff eeefff"),
        (Shape::new(2, 3), r#"[{"sum": 11, "cells": [0, 1, 6]}, {"cells": [35, 34], "sum": 3}]"#),
        // Parity maps, one grouped as rows, and one of 9x9.
        (Shape::new(2, 2), "e.o. .... ..e. ...o"),
        (Shape::new(2, 3), "# even-odd\neo....\n......\n..oe..\n......\n......\n.....e\n"),
        (Shape::NINE, "e.......o.....e........o.........e.e.....o.......o...e..........o.....e.......o.e"),
        // A unique 9x9 even-odd puzzle, as `generate --even-odd` wrote it.
        (
            Shape::NINE,
            "..7.32.8...358.........9....3...1.....2.........4..7..........3.....5.9.5.8..4.2. parity:..o...o.o...oee.o.........eeo......e.o.eo......eeo.........o...o.........o.......",
        ),
        // One-line puzzles with their rules after them.
        (Shape::new(2, 2), "1............... aaabacbbccbdcddd"),
        (Shape::new(2, 2), "1............... aaabacbbccbdcddd parity:.e.............o rules:diagonals"),
        (Shape::new(2, 2), "1............... aabbccddeeffgghh a=3 b=7 c=7 d=3 e=3 f=7 g=7 h=3"),
        (Shape::new(2, 2), "1............... aaabacbbccbdcddd aabb.cddeeffgghh a=3 b=7 c=7 d=3 e=3 f=7 g=7 h=3"),
        (Shape::new(2, 3), "1.....2............................. aaabbbaaabbbcccdddcccdddeeefffeeefff"),
        (
            Shape::new(2, 2),
            "1 . | . .\n. . | . .\n----+----\n. . | . .\n. . | . .\nregions aaabacbbccbdcddd\ncages aabbccddeeffgghh a=3 b=7 c=7 d=3 e=3 f=7 g=7 h=3\n",
        ),
    ]
}

/// Rules as text: region maps, cage maps, JSON cages and parity maps for a
/// 4x4 or 6x6 board (and a 9x9 parity map), valid ones mutated a few
/// characters at a time, and groups of distinct digits made of the text's
/// bytes, with anti-knight, anti-king or non-consecutive rules now and
/// then. Nothing panics; rules that are accepted make boards whose bounded
/// counts run and whose solutions keep every region, group, cage and
/// allowed digit; a 9x9 count without a budget agrees with the bounded
/// one.
#[test]
#[ignore = "a fuzz run: .ci/run runs it in release mode"]
fn fuzz_the_rules_readers() {
    use lazydoku::Rules;
    let inputs: u64 = std::env::var("LAZYDOKU_FUZZ_INPUTS").ok().and_then(|n| n.parse().ok()).unwrap_or(100_000);
    let seed: u64 = std::env::var("LAZYDOKU_FUZZ_SEED").ok().and_then(|n| n.parse().ok()).unwrap_or(0x5eed_0016);
    let valid = valid_rules_texts();
    let extra: &[char] = &['{', '}', '[', ']', '"', ':', ',', '=', '\\', '9', '-', 'e', '.', '\n'];
    let mut random = Random(seed);
    let quiet = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut failures = Vec::new();
    for n in 0..inputs {
        let &(shape, text) = random.pick(&valid);
        let mut chars: Vec<char> = text.chars().collect();
        for _ in 0..random.below(4) {
            let at = random.below(chars.len() + 1);
            let ch = if random.below(2) == 0 { *random.pick(extra) } else { *random.pick(ALPHABET) };
            match random.below(3) {
                0 if at < chars.len() => chars[at] = ch,
                1 if at < chars.len() => {
                    chars.remove(at);
                }
                _ => chars.insert(at, ch),
            }
        }
        let text: String = chars.into_iter().collect();
        let check = || {
            let base = Rules::new(shape);
            let group: Vec<usize> = text
                .bytes()
                .take(1 + usize::try_from(n % 7).unwrap())
                .map(|b| usize::from(b) % (shape.cells() + 2))
                .collect();
            let read = [
                base.clone().with_regions(&text),
                base.clone().with_cage_map(&text),
                base.clone().with_cage_json(&text),
                base.clone().with_parity_map(&text),
                base.with_distinct(&group),
            ];
            let chess = |rules: Rules| match n % 4 {
                0 => rules.with_anti_knight(),
                1 => rules.with_anti_king(),
                2 => rules.with_non_consecutive(),
                _ => rules,
            };
            let boards = read.into_iter().filter_map(Result::ok).map(|rules| Board::empty_with(&chess(rules)));
            for board in boards.chain(text.parse::<Board>().ok()) {
                let rules = board.rules();
                let units: Vec<Vec<usize>> =
                    rules.regions().map(|(_, cells)| cells).chain(rules.distinct_groups()).collect();
                let (walked, stopped) = board.count_solutions_within(2, Budget::nodes(2_000));
                // Without a budget, 9x9 even-odd counts run on the band engine.
                if stopped.is_none() && rules.shape() == Shape::NINE {
                    assert_eq!(board.count_solutions(2), walked, "{board}");
                }
                for solution in board.solutions().within(Budget::nodes(500)).take(3) {
                    assert!(common::solves_units(board.as_str(), solution.as_str(), &units), "{solution}");
                    let side = rules.shape().side();
                    let digit = |cell: usize| i32::from(solution.get(cell).unwrap());
                    let apart = (0..side * side).all(|c| {
                        (c % side + 1 == side || (digit(c) - digit(c + 1)).abs() != 1)
                            && (c + side >= side * side || (digit(c) - digit(c + side)).abs() != 1)
                    });
                    assert!(!rules.is_non_consecutive() || apart, "{solution}");
                    for cell in 0..side * side {
                        assert!(rules.allowed_digits(cell).contains(solution.get(cell).unwrap()), "{solution}");
                    }
                    for (sum, cells) in rules.cages() {
                        let total: usize = cells.iter().map(|&c| usize::from(solution.get(c).unwrap())).sum();
                        assert_eq!(total, sum, "{solution}");
                    }
                }
            }
        };
        if let Err(panic) = catch_unwind(AssertUnwindSafe(check)) {
            let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
            failures.push(format!("input {n}: {text:?}: {message}"));
            if failures.len() >= 5 {
                break;
            }
        }
    }
    std::panic::set_hook(quiet);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
