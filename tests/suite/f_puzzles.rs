//! Puzzles from f-puzzles: its JSON and its links, read into rules built
//! through the public API, and through the command line.

use lazydoku::format::Parser;
use lazydoku::{Board, Indexer, ParseError, Relation, Rules, Shape};

use crate::common;

/// A link to the 4x4 puzzle of [`TWO_CAGES`], compressed as f-puzzles
/// compresses its JSON (made by the unit tests' compressor, whose output
/// the decompressor reads as it reads links made by f-puzzles itself).
pub const TWO_CAGES_LINK: &str = "https://f-puzzles.com/?load=N4IgzglgXgpiBcAWANCALhNAbO8QBUB3AewAIBjAQwHMYwRVqAnCAEwQG0PQA3SrAK64AjIwg8YAOwRomQgL7Jgi5UvkBdZNxU61m7WsPL9q0zvWaQAawhYcTKrU6hyMO/XgcQAJWEBhACYGH38AZhBLPkFcEABWEBUQV3dOH0Q/RGDvUIyI1CihBDiE9XkgA===";

/// The JSON of [`TWO_CAGES_LINK`].
const TWO_CAGES: &str = r#"{"size":4,"title":"Two cages","grid":[[{"value":1,"given":true},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"killercage":[{"cells":["R1C2","R1C3"],"value":"5"},{"cells":["R4C4","R3C4"],"value":"5"}]}"#;

/// A link whose puzzle has a renban line on the first two cells of a 4x4
/// board (made by the compressor, as [`TWO_CAGES_LINK`]).
const RENBAN_LINK: &str = "https://f-puzzles.com/?load=N4IgzglgXgpiBcAWANCA5gJwgEwQbT2AF9ljSTiBdZQiu86285qms9uy6kDGAOwBGAQz75QAGwh8YYfHhAAlAIwBhJSFTKVAJhBcilIkA===";

/// A link whose 4x4 puzzle has a skyscraper clue of 2 above its first
/// column (made by the compressor).
const SKYSCRAPER_LINK: &str = "https://f-puzzles.com/?load=N4IgzglgXgpiBcAWANCA5gJwgEwQbT2AF9ljSTiBdZQiu86285qms9uy68AawE8wAYwwBDAA4wM+UIJgAbOQhAAlAAwBhAIwhUANxFyArnHggATCCKUiQA==";

/// A link whose puzzle has a lockout line, a constraint these rules do
/// not read (made by the compressor).
pub const UNREAD_LINK: &str = "https://f-puzzles.com/?load=N4IgzglgXgpiBcAWANCA5gJwgEwQbT2AF9ljSTiBdZQiu86285qms9uy6kAGwHsAxgGs+AVwAu+UDwgA7GGHx4QAJQCMAYTUhU6jYhBcilIkA===";

/// A link to a 4x4 board whose top left box holds a 1 and a 2 by a
/// quadruple (made by the compressor).
const QUADRUPLE_LINK: &str = "https://f-puzzles.com/?load=N4IgzglgXgpiBcAWANCA5gJwgEwQbT2AF9ljSTiBdZQiu86285qms9uy6kARwFcAhtgx8ADgBs48QiADGMceLD4QAJQCMAYXUhUGzQCZdag9uOrTR7gDcB4vjGXT1yA5SLug";

/// A link to a 4x4 board with a sandwich clue of 5 above its second
/// column (made by the compressor).
const SANDWICH_LINK: &str = "https://f-puzzles.com/?load=N4IgzglgXgpiBcAWANCA5gJwgEwQbT2AF9ljSTiBdZQiu86285qms9uy68AQwDtsAdwgBjABZgArgFt8oETAA2ihCABKABgDCAJhCoAbj0WS48EAFYQRSkSA";

/// A link to a 4x4 board with an arrow whose line runs from its circle,
/// R1C1, to R1C2: a rule no grid keeps, as the two cells share a row.
const ARROW_LINK: &str = "https://f-puzzles.com/?load=N4IgzglgXgpiBcAWANCA5gJwgEwQbT2AF9ljSTiBdZQiu86285qms9uy6kAQwwwD2Ad3ygANhAB2MMPjwgASgEYAwkpCplKgEwguqAMYwxY2fHlb1lItaA==";

/// An f-puzzles grid of `line`'s givens, on a board of `side`, with a
/// digit that is not a given (a solver's entry) in the first empty cell,
/// which must not count.
fn grid_of(line: &str, side: usize) -> String {
    let mut entered = false;
    let rows: Vec<String> = line
        .as_bytes()
        .chunks(side)
        .map(|row| {
            let cells: Vec<String> = row
                .iter()
                .map(|&b| match char::from(b).to_digit(36) {
                    Some(d) if b != b'0' => format!("{{\"value\":{d},\"given\":true,\"c\":false}}"),
                    _ if !entered => {
                        entered = true;
                        "{\"value\":1,\"centerPencilMarks\":[1,2]}".to_owned()
                    }
                    _ => "{}".to_owned(),
                })
                .collect();
            format!("[{}]", cells.join(","))
        })
        .collect();
    format!("[{}]", rows.join(","))
}

#[test]
fn a_classic_puzzle_reads_as_its_line() {
    let line = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    let json = format!(r#"{{"size":9,"title":"Line \"one\"\n\u00e9","author":"x","grid":{}}}"#, grid_of(line, 9));
    let board: Board = json.parse().expect("an f-puzzles object");
    let classic: Board = line.parse().expect("a line");
    assert_eq!(board, classic);
    assert_eq!(board.solve(), classic.solve());
    // Pretty-printed, as a file saved by hand.
    let pretty = json.replace(",\"", ",\n  \"").replace("[[", "[\n[");
    assert_eq!(pretty.parse::<Board>().expect("spread over lines"), classic);
}

#[test]
fn every_constraint_read_is_the_rule_built_by_hand() -> Result<(), Box<dyn std::error::Error>> {
    let json = r##"{
        "size": 9,
        "grid": [[{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}],
                 [{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}],
                 [{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{"value":9,"given":true}]],
        "diagonal-": true,
        "antiking": true,
        "killercage": [{"cells": ["R1C1", "R1C2"], "value": "3", "outlineC": "#000000"}, {"cells": ["R2C1", "R2C2", "R2C3"]}],
        "extraregion": [{"cells": ["R4C4","R4C5","R4C6","R5C4","R5C5","R5C6","R6C4","R6C5","R6C6"]}],
        "thermometer": [{"lines": [["R9C1", "R8C1", "R7C1"], ["R9C1", "R9C2"]], "baseC": "#CFCFCF"}],
        "odd": [{"cell": "R3C3"}],
        "even": [{"cell": "R3C4"}, {"cell": "r3c5"}],
        "difference": [{"cells": ["R5C1", "R5C2"]}, {"cells": ["R6C1", "R6C2"], "value": "4"}],
        "ratio": [{"cells": ["R7C8", "R7C9"]}],
        "xv": [{"cells": ["R1C8", "R1C9"], "value": "X"}, {"cells": ["R2C8", "R2C9"], "value": "V"}],
        "negative": [],
        "arrow": [],
        "text": [{"cells": ["R1C1"], "value": "hello"}],
        "solution": []
    }"##;
    let (board, layout) = Parser::new().parse(json)?;
    let main_diagonal: Vec<usize> = (0..9).map(|i| i * 10).collect();
    let expected = Rules::new(Shape::NINE)
        .with_anti_king()
        .with_cage(3, &[0, 1])?
        .with_region(&[30, 31, 32, 39, 40, 41, 48, 49, 50])?
        .with_region(&main_diagonal)?
        .with_distinct(&[9, 10, 11])?
        .with_thermometer(&[72, 63, 54])?
        .with_thermometer(&[72, 73])?
        .with_relation(36, Relation::Difference(1), 37)?
        .with_relation(45, Relation::Difference(4), 46)?
        .with_relation(61, Relation::Ratio(2), 62)?
        .with_relation(7, Relation::Sum(10), 8)?
        .with_relation(16, Relation::Sum(5), 17)?
        .with_even(&[21, 22])?
        .with_odd(&[20])?;
    assert_eq!(board.rules(), expected);
    assert_eq!(board.get(80), Some(9));
    assert_eq!(board.cells().flatten().count(), 1);
    // The answer is this crate's own object, which keeps the rules.
    let solution = board.solve().expect("a solution");
    let answer = layout.render(&solution);
    let again: Board = answer.parse()?;
    assert_eq!(again.rules(), expected);
    assert_eq!(again, solution);
    Ok(())
}

#[test]
fn arrows_little_killers_clones_palindromes_and_extremes_are_the_rules_built_by_hand()
-> Result<(), Box<dyn std::error::Error>> {
    let json = format!(
        r#"{{
        "size": 9,
        "grid": {},
        "arrow": [{{"lines": [["R5C5", "R4C4", "R3C3"], ["R5C5", "R6C6"]], "cells": ["R5C5"]}},
                  {{"lines": [["R8C2", "R9C3", "R9C4"]], "cells": ["R8C2", "R8C1"]}}],
        "littlekillersum": [{{"cell": "R0C1", "cells": ["R1C1","R2C2","R3C3","R4C4","R5C5","R6C6","R7C7","R8C8","R9C9"], "direction": "DR", "value": "45"}},
                            {{"cell": "R0C9", "direction": "DL", "value": 20}},
                            {{"cell": "R10C7", "direction": "UR", "value": "3"}},
                            {{"cell": "R8C10", "direction": "UL", "value": "20"}},
                            {{"cell": "R0C5", "direction": "DR", "value": ""}}],
        "clone": [{{"cells": ["R1C1", "R1C2"], "cloneCells": ["R5C7", "R5C8"]}}],
        "palindrome": [{{"lines": [["R9C5", "R8C6", "R7C7", "R6C8", "R5C9"]]}}],
        "minimum": [{{"cell": "R1C5"}}],
        "maximum": [{{"cell": "R9C9"}}]
    }}"#,
        grid_of(&".".repeat(81), 9)
    );
    let board: Board = json.parse()?;
    let expected = Rules::new(Shape::NINE)
        .with_arrow(&[40], &[30, 20, 50])?
        // A pill's cells in reading order: R8C1 is the leading digit.
        .with_arrow(&[63, 64], &[74, 75])?
        .with_sum(45, &[0, 10, 20, 30, 40, 50, 60, 70, 80])?
        .with_sum(20, &[7, 15, 23, 31, 39, 47, 55, 63])?
        .with_sum(3, &[79, 71])?
        .with_sum(20, &[62, 52, 42, 32, 22, 12, 2])?
        .with_relation(0, Relation::Difference(0), 42)?
        .with_relation(1, Relation::Difference(0), 43)?
        .with_relation(76, Relation::Difference(0), 44)?
        .with_relation(68, Relation::Difference(0), 52)?
        // The minimum at R1C5 is below its three neighbours, the maximum in
        // the corner above its two.
        .with_relations([(4, Relation::Less, 3), (4, Relation::Less, 5), (4, Relation::Less, 13)])?
        .with_relations([(71, Relation::Less, 80), (79, Relation::Less, 80)])?;
    assert_eq!(board.rules(), expected);
    let solution = board.solve().expect("a solution");
    let digit = |cell: usize| usize::from(solution.get(cell).unwrap());
    assert_eq!(digit(40), digit(30) + digit(20) + digit(50));
    assert_eq!(10 * digit(63) + digit(64), digit(74) + digit(75));
    assert_eq!(digit(79) + digit(71), 3);
    assert_eq!((digit(0), digit(76)), (digit(42), digit(44)));
    // Written back, the same rules; a sum that is no whole diagonal, or a
    // relation f-puzzles has no mark for, is refused.
    let link = lazydoku::format::f_puzzles_link(&board)?;
    assert_eq!(link.parse::<Board>()?.rules(), expected);
    let loose = Rules::new(Shape::NINE).with_sum(10, &[0, 1])?.parse(&".".repeat(81))?;
    let refused = lazydoku::format::f_puzzles_json(&loose).unwrap_err().to_string();
    assert!(refused.contains("only as a little killer along a whole diagonal"), "{refused}");
    let short = Rules::new(Shape::NINE).with_sum(10, &[10, 20, 30, 40, 50, 60, 70, 80])?.parse(&".".repeat(81))?;
    assert!(lazydoku::format::f_puzzles_json(&short).is_err(), "a diagonal that stops short of the edge");
    // The arrow of a link f-puzzles made: one cell in its circle and one on
    // its shaft, in one row, which no grid keeps.
    let arrow: Board = ARROW_LINK.parse()?;
    assert_eq!(arrow.rules(), Rules::new(Shape::new(2, 2)).with_arrow(&[0], &[1])?);
    assert_eq!(arrow.count_solutions(10), 0);
    let sandwich: Board = SANDWICH_LINK.parse()?;
    assert_eq!(sandwich.rules(), Rules::new(Shape::new(2, 2)).with_sandwich(5, &[1, 5, 9, 13])?);
    assert_eq!(sandwich.count_solutions(1000), 48);
    let quadruple: Board = QUADRUPLE_LINK.parse()?;
    assert_eq!(quadruple.rules(), Rules::new(Shape::new(2, 2)).with_quadruple(&[0, 1, 4, 5], &[1, 2])?);
    assert_eq!(lazydoku::format::f_puzzles_link(&quadruple)?.parse::<Board>()?.rules(), quadruple.rules());
    Ok(())
}

#[test]
fn renban_whispers_and_slow_thermometer_lines_are_the_rules_built_by_hand() -> Result<(), Box<dyn std::error::Error>> {
    let json = format!(
        r#"{{
        "size": 9,
        "grid": {},
        "renban": [{{"lines": [["R1C1", "R2C2", "R3C3", "R4C4"]]}}, {{"lines": [["R9C1", "R9C2"], ["R8C9", "R9C9"]]}}],
        "whispers": [{{"lines": [["R5C1", "R5C2", "R6C3"]]}}, {{"lines": [["R1C9", "R2C9"]], "value": "4"}}],
        "slowthermometer": [{{"lines": [["R6C9", "R7C8", "R8C7"]]}}]
    }}"#,
        grid_of(&".".repeat(81), 9)
    );
    let board: Board = json.parse()?;
    // German whispers by default (5 apart on 9x9); a value sets the step.
    let expected = Rules::new(Shape::NINE)
        .with_renban(&[0, 10, 20, 30])?
        .with_renban(&[72, 73])?
        .with_renban(&[71, 80])?
        .with_relations([(36, Relation::Apart(5), 37), (37, Relation::Apart(5), 47), (8, Relation::Apart(4), 17)])?
        // A slow thermometer: steps up or level.
        .with_slow_thermometer(&[53, 61, 69])?;
    assert_eq!(board.rules(), expected);
    let solution = board.solve().expect("a solution");
    let digit = |cell: usize| solution.get(cell).unwrap();
    let mut run: Vec<u8> = [0, 10, 20, 30].iter().map(|&c| digit(c)).collect();
    run.sort_unstable();
    assert!(run.windows(2).all(|w| w[1] == w[0] + 1), "{run:?}");
    assert!(digit(36).abs_diff(digit(37)) >= 5 && digit(8).abs_diff(digit(17)) >= 4);
    assert!(digit(53) <= digit(61) && digit(61) < digit(69));
    // Written back, the same rules.
    let link = lazydoku::format::f_puzzles_link(&board)?;
    assert_eq!(link.parse::<Board>()?.rules(), expected);
    let skyscraper: Board = SKYSCRAPER_LINK.parse()?;
    assert_eq!(skyscraper.rules(), Rules::new(Shape::new(2, 2)).with_skyscraper(2, &[0, 4, 8, 12])?);
    let renban: Board = RENBAN_LINK.parse()?;
    assert_eq!(renban.rules(), Rules::new(Shape::new(2, 2)).with_renban(&[0, 1])?);
    let bad = json.replace(r#""value": "4""#, r#""value": "four""#);
    let err = bad.parse::<Board>().unwrap_err().to_string();
    assert!(err.contains(r#"a whispers line's value "four" is not a whole number"#), "{err}");
    Ok(())
}

/// A Nabner line (Rangsk's f-puzzles constraints): no two of its cells
/// alike or consecutive, each pair of them read as `Relation::Apart(2)`.
#[test]
fn nabner_lines_keep_their_cells_two_apart() -> Result<(), Box<dyn std::error::Error>> {
    let json = format!(
        r#"{{"size": 4, "grid": {}, "nabner": [{{"lines": [["R1C1", "R2C2", "R1C1"]]}}, {{"lines": [["R4C1", "R4C3"]]}}]}}"#,
        grid_of(&".".repeat(16), 4)
    );
    let board: Board = json.parse()?;
    // A cell the line passes twice is one cell.
    let pairs = [(0, 5), (12, 14)];
    let expected = Rules::new(Shape::new(2, 2)).with_relations(pairs.map(|(a, b)| (a, Relation::Apart(2), b)))?;
    assert_eq!(board.rules(), expected);
    // Exactly the classic grids whose line cells are pairwise two apart.
    let classic: Board = ".".repeat(16).parse()?;
    let keeping = classic
        .solutions()
        .filter(|grid| pairs.iter().all(|&(a, b)| grid.get(a).unwrap().abs_diff(grid.get(b).unwrap()) >= 2))
        .count();
    assert!(keeping > 0 && keeping < 288, "{keeping}");
    assert_eq!(board.count_solutions(usize::MAX), keeping);
    // Written back (as two-cell whispers lines 2 apart), the same rules.
    let link = lazydoku::format::f_puzzles_link(&board)?;
    assert_eq!(link.parse::<Board>()?.rules(), expected);
    Ok(())
}

/// Row, column and box indexers (Rangsk's f-puzzles constraints): a 4x4
/// board's solutions are exactly the classic grids that keep each
/// indexer's definition, checked here from the definitions themselves.
#[test]
fn indexers_point_at_the_cells_their_digits_name() -> Result<(), Box<dyn std::error::Error>> {
    let json = format!(
        r#"{{"size": 4, "grid": {}, "columnindexer": [{{"cells": ["R1C1"]}}], "rowindexer": [{{"cells": ["R2C3"]}}], "boxindexer": [{{"cells": ["R4C4"]}}]}}"#,
        grid_of(&".".repeat(16), 4)
    );
    let board: Board = json.parse()?;
    let keeps = |grid: &Board| {
        let at = |row: usize, column: usize| usize::from(grid.get(row * 4 + column).unwrap());
        // Column indexer at R1C1 holding v: R1Cv holds 1.
        let column = at(0, at(0, 0) - 1) == 1;
        // Row indexer at R2C3 holding v: RvC3 holds 2.
        let row = at(at(1, 2) - 1, 2) == 2;
        // Box indexer at R4C4, place 4 of its box, holding v: place v of
        // the box holds 4.
        let place = at(3, 3) - 1;
        let boxed = at(2 + place / 2, 2 + place % 2) == 4;
        column && row && boxed
    };
    let classic: Board = ".".repeat(16).parse()?;
    let mut expected: Vec<String> = classic.solutions().filter(keeps).map(|grid| grid.as_str().to_owned()).collect();
    assert!(!expected.is_empty() && expected.len() < 288, "{}", expected.len());
    let mut found: Vec<String> = board.solutions().map(|grid| grid.as_str().to_owned()).collect();
    expected.sort_unstable();
    found.sort_unstable();
    assert_eq!(found, expected);
    // The rules built by hand, and each indexer a relation with each cell
    // it may point at.
    let by_hand = Rules::new(Shape::new(2, 2))
        .with_indexer(Indexer::Column, 0)?
        .with_indexer(Indexer::Row, 6)?
        .with_indexer(Indexer::Box, 15)?;
    assert_eq!(board.rules(), by_hand);
    let column_indexer: Vec<_> = board.rules().relations().filter(|&(first, _, _)| first == 0).collect();
    assert_eq!(
        column_indexer,
        [(0, Relation::Index(2, 1), 1), (0, Relation::Index(3, 1), 2), (0, Relation::Index(4, 1), 3)]
    );
    // Written back as the same indexers.
    let link = lazydoku::format::f_puzzles_link(&board)?;
    assert_eq!(link.parse::<Board>()?.rules(), board.rules());
    // An index relation that is not a whole indexer has no f-puzzles mark.
    let lone = Rules::new(Shape::new(2, 2)).with_relation(0, Relation::Index(2, 1), 1)?;
    let err = lazydoku::format::f_puzzles_link(&Board::empty_with(&lone)).unwrap_err().to_string();
    assert!(err.contains("the first is 2 exactly when the second is 1"), "{err}");
    // A box indexer needs boxes: a side of 5 has none (its regions here
    // are its rows).
    let rows: Vec<String> =
        (0..5).map(|r| format!("[{}]", vec![format!(r#"{{"region":{r}}}"#); 5].join(","))).collect();
    let no_boxes = format!(r#"{{"size":5,"grid":[{}],"boxindexer":[{{"cells":["R1C1"]}}]}}"#, rows.join(","));
    assert!(reason(&no_boxes).contains("box indexers are read on boards of boxes only"), "{}", reason(&no_boxes));
    let column = no_boxes.replace("boxindexer", "columnindexer");
    assert_eq!(column.parse::<Board>()?.rules().relations().count(), 4);
    Ok(())
}

#[test]
fn both_diagonals_and_the_named_rules() -> Result<(), Box<dyn std::error::Error>> {
    let empty = grid_of(&".".repeat(81), 9);
    let json = format!(
        r#"{{"size":9,"grid":{empty},"diagonal+":true,"diagonal-":true,"antiknight":true,"nonconsecutive":true,"disjointgroups":true}}"#
    );
    let board: Board = json.parse()?;
    let groups = (0..9).map(|place| (0..81).filter(|&c| (c / 9 % 3) * 3 + c % 3 == place).collect::<Vec<usize>>());
    let expected = Rules::new(Shape::NINE)
        .with_diagonals()
        .with_anti_knight()
        .with_non_consecutive()
        .with_distinct_groups(groups)?;
    assert_eq!(board.rules(), expected);
    // One diagonal alone, either way.
    let rising = format!(r#"{{"size":9,"grid":{empty},"diagonal+":true,"diagonal-":false}}"#);
    let cells: Vec<usize> = (0..9).map(|i| (8 - i) * 9 + i).collect();
    assert_eq!(rising.parse::<Board>()?.rules(), Rules::new(Shape::NINE).with_region(&cells)?);
    Ok(())
}

/// The pairs of neighbours of a 4x4 board, smaller cell first.
fn neighbours_of_four() -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for cell in 0..16 {
        if cell % 4 < 3 {
            pairs.push((cell, cell + 1));
        }
        if cell < 12 {
            pairs.push((cell, cell + 4));
        }
    }
    pairs
}

#[test]
fn marks_given_in_full_keep_the_other_pairs_from_them() -> Result<(), Box<dyn std::error::Error>> {
    // Every black dot and every V of a grid, given in full.
    let grid: Vec<usize> = "1234341221434321".bytes().map(|b| usize::from(b - b'0')).collect();
    let ratio = |(a, b): (usize, usize)| grid[a] == 2 * grid[b] || grid[b] == 2 * grid[a];
    let five = |(a, b): (usize, usize)| grid[a] + grid[b] == 5;
    let cell = |c: usize| format!("\"R{}C{}\"", c / 4 + 1, c % 4 + 1);
    let dots: Vec<String> = neighbours_of_four()
        .into_iter()
        .filter(|&pair| ratio(pair))
        .map(|(a, b)| format!(r#"{{"cells":[{},{}]}}"#, cell(a), cell(b)))
        .collect();
    let vs: Vec<String> = neighbours_of_four()
        .into_iter()
        .filter(|&pair| five(pair))
        .map(|(a, b)| format!(r#"{{"cells":[{},{}],"value":"V"}}"#, cell(a), cell(b)))
        .collect();
    let empty = grid_of(&".".repeat(16), 4);
    let json = format!(
        r#"{{"size":4,"grid":{empty},"negative":["xv","ratio"],"ratio":[{}],"xv":[{}]}}"#,
        dots.join(","),
        vs.join(",")
    );
    let board: Board = json.parse()?;
    let mut expected = Rules::new(Shape::new(2, 2));
    for (a, b) in neighbours_of_four() {
        expected = match (ratio((a, b)), five((a, b))) {
            (true, _) => expected.with_relation(a, Relation::Ratio(2), b)?,
            (false, _) => expected.with_relation(a, Relation::NotRatio(2), b)?,
        };
        expected = if five((a, b)) {
            expected.with_relation(a, Relation::Sum(5), b)?
        } else {
            expected.with_relation(a, Relation::NotSum(10), b)?.with_relation(a, Relation::NotSum(5), b)?
        };
    }
    assert_eq!(board.rules(), expected);
    // The solutions are the grids of 4x4 with exactly those dots and Vs.
    let keeps = |grid: &Board| {
        let digit = |cell: usize| usize::from(grid.get(cell).unwrap());
        neighbours_of_four().into_iter().all(|(a, b)| {
            let (x, y) = (digit(a), digit(b));
            (x == 2 * y || y == 2 * x) == ratio((a, b)) && (x + y == 5 || x + y == 10) == five((a, b))
        })
    };
    let solutions: Vec<Board> = board.solutions().collect();
    assert!(solutions.iter().any(|s| s.as_str() == "1234341221434321"));
    assert!(solutions.iter().all(keeps));
    assert_eq!(Board::empty(Shape::new(2, 2)).solutions().filter(keeps).count(), solutions.len());
    // Written back as f-puzzles gives them: in full.
    let json = lazydoku::format::f_puzzles_json(&board)?;
    assert!(json.contains(r#""negative":["ratio","xv"]"#), "{json}");
    assert_eq!(json.parse::<Board>()?.rules(), expected);
    // A negated relation on some pairs only has no f-puzzles form.
    let partial = Rules::new(Shape::new(2, 2)).with_relation(0, Relation::NotRatio(2), 1)?.parse(&".".repeat(16))?;
    assert!(lazydoku::format::f_puzzles_json(&partial).unwrap_err().to_string().contains("in full or not at all"));
    Ok(())
}

#[test]
fn regions_of_cells_make_a_jigsaw_and_sizes_take_their_boxes() -> Result<(), Box<dyn std::error::Error>> {
    // 6x6: boxes of two rows and three columns, as f-puzzles draws them.
    let six: Board = format!(r#"{{"size":6,"grid":{}}}"#, grid_of(&".".repeat(36), 6)).parse()?;
    assert_eq!(six.rules(), Rules::new(Shape::new(2, 3)));
    // A jigsaw 4x4: regions by number, one cell left to its box's.
    let map = "0001011122232333";
    let rows: Vec<String> = map
        .as_bytes()
        .chunks(4)
        .enumerate()
        .map(|(r, row)| {
            let cells: Vec<String> = row
                .iter()
                .enumerate()
                .map(|(c, &label)| {
                    // Cell (0, 1) lies in box 0 and region 0: left without one.
                    if (r, c) == (0, 1) { "{}".to_owned() } else { format!("{{\"region\":{}}}", label - b'0') }
                })
                .collect();
            format!("[{}]", cells.join(","))
        })
        .collect();
    let json = format!(r#"{{"size":4,"grid":[{}]}}"#, rows.join(","));
    let board: Board = json.parse()?;
    assert_eq!(board.rules(), Rules::new(Shape::new(2, 2)).with_regions(map)?);
    // 7x7 has no boxes: its regions are the cells' own.
    let map7: String = (0..49u8).map(|cell| char::from(b'0' + (cell / 7 * 3 + cell % 7) % 7)).collect();
    let seven: Vec<String> = map7
        .as_bytes()
        .chunks(7)
        .map(|row| {
            format!("[{}]", row.iter().map(|l| format!("{{\"region\":{}}}", l - b'0')).collect::<Vec<_>>().join(","))
        })
        .collect();
    let json7 = format!(r#"{{"size":7,"grid":[{}]}}"#, seven.join(","));
    assert_eq!(json7.parse::<Board>()?.rules(), Rules::new(Shape::latin(7)).with_regions(&map7)?);
    Ok(())
}

#[test]
fn links_read_as_their_json() -> Result<(), Box<dyn std::error::Error>> {
    let from_link: Board = TWO_CAGES_LINK.parse()?;
    let from_json: Board = TWO_CAGES.parse()?;
    assert_eq!(from_link, from_json);
    let expected = Rules::new(Shape::new(2, 2)).with_cage(5, &[1, 2])?.with_cage(5, &[15, 11])?;
    assert_eq!(from_link.rules(), expected);
    assert_eq!(from_link.count_solutions(usize::MAX), expected.parse("1...............")?.count_solutions(usize::MAX));
    // Read by the rules it has, and refused by others, at the link.
    assert_eq!(expected.parse(TWO_CAGES_LINK)?, from_link);
    let other = Rules::new(Shape::new(2, 2)).parse(TWO_CAGES_LINK).unwrap_err();
    assert_eq!(other.position(), Some((1, 1)), "{other}");
    // Escaped as a link may be in a page, and with other parameters.
    let (site, payload) = TWO_CAGES_LINK.split_once("load=").expect("a link");
    let escaped = format!("{site}load={}", payload.replace('+', "%2B").replace('/', "%2F").replace('=', "%3D"));
    assert!(escaped.contains("%2F") && escaped.contains("%3D"));
    assert_eq!(escaped.parse::<Board>()?, from_link);
    assert_eq!(TWO_CAGES_LINK.replace("?load=", "?x=1&load=").parse::<Board>()?, from_link);
    // SudokuPad's links to the same JSON.
    for site in ["https://sudokupad.app/fpuzzles", "https://sudokupad.app/fpuz", "beta.sudokupad.app/fpuz"] {
        assert_eq!(format!("{site}{payload}").parse::<Board>()?, from_link, "{site}");
    }
    Ok(())
}

/// The reason of an error, which must be placed at a line and column.
fn reason(text: &str) -> String {
    match text.parse::<Board>() {
        Err(e @ ParseError::LineRules { .. }) => {
            assert!(e.position().is_some(), "{e}");
            e.to_string()
        }
        other => panic!("expected an error with its place for {text}, got {other:?}"),
    }
}

#[test]
fn what_cannot_be_read_says_what_and_where() {
    let empty = grid_of(&".".repeat(16), 4);
    assert!(reason(UNREAD_LINK).contains("\"lockout\" is not read"), "{}", reason(UNREAD_LINK));
    let unread = format!("{{\"size\":4,\n\"grid\":{empty},\n\"lockout\":[{{\"lines\":[[\"R1C1\"]]}}]}}");
    assert_eq!(reason(&unread), "line 3, column 1: the f-puzzles constraint \"lockout\" is not read here");
    let quadruple =
        format!(r#"{{"size":4,"grid":{empty},"quadruple":[{{"cells":["R1C1","R1C2"],"values":[1,2,3]}}]}}"#);
    assert!(reason(&quadruple).contains("a quadruple has 2 cells and 3 digits"), "{}", reason(&quadruple));
    let negative = format!(r#"{{"size":4,"grid":{empty},"negative":["ratio","arrow"]}}"#);
    assert!(reason(&negative).contains("\"negative\" names \"arrow\""), "{}", reason(&negative));
    let little =
        format!(r#"{{"size":4,"grid":{empty},"littlekillersum":[{{"cell":"R0C1","direction":"NE","value":"4"}}]}}"#);
    assert!(reason(&little).contains("direction \"NE\" is not DR, DL, UR or UL"), "{}", reason(&little));
    let nowhere =
        format!(r#"{{"size":4,"grid":{empty},"littlekillersum":[{{"cell":"R0C1","direction":"UL","value":"4"}}]}}"#);
    assert!(reason(&nowhere).contains("meets no cell"), "{}", reason(&nowhere));
    let too_much =
        format!(r#"{{"size":4,"grid":{empty},"littlekillersum":[{{"cell":"R0C0","direction":"DR","value":"17"}}]}}"#);
    assert!(reason(&too_much).contains("no 4 digits of 1 to 4 add up to 17"), "{}", reason(&too_much));
    let clone = format!(r#"{{"size":4,"grid":{empty},"clone":[{{"cells":["R1C1","R1C2"],"cloneCells":["R3C3"]}}]}}"#);
    assert!(reason(&clone).contains("a clone has 2 cells and 1 clone cell"), "{}", reason(&clone));
    let off = format!(r#"{{"size":4,"grid":{empty},"odd":[{{"cell":"R5C1"}}]}}"#);
    assert!(reason(&off).contains("cell \"R5C1\" is off the 4x4 board"), "{}", reason(&off));
    let bad = format!(r#"{{"size":4,"grid":{empty},"odd":[{{"cell":"B2"}}]}}"#);
    assert!(reason(&bad).contains("expected a cell such as \"R1C1\""));
    let sum = format!(r#"{{"size":4,"grid":{empty},"killercage":[{{"cells":["R1C1"],"value":"?"}}]}}"#);
    assert!(reason(&sum).contains("a cage's sum \"?\" is not a whole number"));
    let impossible = format!(r#"{{"size":4,"grid":{empty},"killercage":[{{"cells":["R1C1","R1C2"],"value":"11"}}]}}"#);
    assert!(reason(&impossible).contains("in the f-puzzles puzzle"), "{}", reason(&impossible));
    let xv = format!(r#"{{"size":4,"grid":{empty},"xv":[{{"cells":["R1C1","R1C2"],"value":"Y"}}]}}"#);
    assert!(reason(&xv).contains("it holds \"X\" or \"V\""));
    let three = format!(r#"{{"size":4,"grid":{empty},"difference":[{{"cells":["R1C1","R1C2","R1C3"]}}]}}"#);
    assert!(reason(&three).contains("joins 3 cells"));
    let given = r#"{"size":4,"grid":[[{"value":5,"given":true},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]]}"#;
    assert!(reason(given).contains("a given of 5 on a board of size 4"));
    let short = r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]]}"#;
    assert!(reason(short).contains("the grid has 3 rows, not 4"));
    let narrow = r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{}],[{},{},{},{}],[{},{},{},{}]]}"#;
    assert!(reason(narrow).contains("row 2 of the grid has 3 cells, not 4"));
    assert!(reason(r#"{"grid":[]}"#).contains("no \"size\""));
    assert!(reason(r#"{"size":3,"grid":[]}"#).contains("sizes from 4 to 25"));
    let prime = format!(r#"{{"size":5,"grid":{}}}"#, grid_of(&".".repeat(25), 5));
    assert!(reason(&prime).contains("every cell needs a \"region\""));
    let broken = format!("{}Q{}", &TWO_CAGES_LINK[..60], &TWO_CAGES_LINK[61..]);
    let broken = broken.replace('Q', "!");
    assert!(reason(&broken).contains("the f-puzzles link cannot be read"), "{}", reason(&broken));
    let cut = &TWO_CAGES_LINK[..TWO_CAGES_LINK.len() - 30];
    assert!(reason(cut).contains("f-puzzles link"), "{}", reason(cut));
}

#[test]
fn the_command_line_reads_files_and_links() {
    let dir = std::env::temp_dir().join(format!("lazydoku-fpuzzles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("two-cages.json");
    std::fs::write(&file, TWO_CAGES.replace(",\"killercage\"", ",\n\"killercage\"")).unwrap();
    let path = file.to_str().unwrap();
    let expected = TWO_CAGES.parse::<Board>().unwrap().solve().expect("a solution");
    let out = common::run(&["solve", "-q", path], "");
    let text = String::from_utf8(out.stdout).unwrap();
    // The answer is the crate's own object, and the file's second line is
    // kept blank, so that output line N belongs to input line N.
    let (first, rest) = text.split_once('\n').unwrap();
    assert!(first.starts_with(&format!("{{\"puzzle\": \"{}\"", expected.as_str())), "{text}");
    assert!(first.contains("\"cages\": [{\"sum\": 5, \"cells\": [1, 2]}"), "{text}");
    assert_eq!(rest, "\n");
    // A link as an argument and on stdin: the solution as a line.
    let out = common::run(&["solve", "-q", TWO_CAGES_LINK], "");
    assert_eq!(String::from_utf8(out.stdout).unwrap(), format!("{}\n", expected.as_str()));
    let out = common::run(&["count", "-q", "--limit", "1000"], format!("{TWO_CAGES_LINK}\n{UNREAD_LINK}\n"));
    let count = TWO_CAGES.parse::<Board>().unwrap().count_solutions(usize::MAX);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!(
            "{count}\ninvalid: the f-puzzles link's puzzle, line 1, column 76 of its JSON: the f-puzzles constraint \"lockout\" is not read here\n"
        )
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(common::run(&["solve", "-q", UNREAD_LINK], "").stderr).unwrap();
    assert!(err.contains("argument:1:1: the f-puzzles link's puzzle") && !err.contains("no such file"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Boards of many rules, each written as an f-puzzles link and read back
/// as the same board with the same rules.
#[test]
fn boards_written_f_puzzles_output_read_back_the_same() -> Result<(), Box<dyn std::error::Error>> {
    use lazydoku::format::{f_puzzles_json, f_puzzles_link};
    use lazydoku::generate::Generator;

    let nine = Shape::NINE;
    let mut boards: Vec<Board> = Vec::new();
    for shape in [
        Shape::new(2, 2),
        Shape::new(2, 3),
        Shape::new(3, 2),
        Shape::new(2, 4),
        nine,
        Shape::new(4, 4),
        Shape::new(3, 5),
    ] {
        boards.push(Board::empty(shape).solve().expect("a grid"));
        boards.push(Generator::new(Rules::new(shape)).seed(1).puzzle(0).expect("a puzzle"));
    }
    let ruled = [
        Rules::new(nine).with_diagonals(),
        Rules::new(nine).with_windows(),
        Rules::new(nine).with_anti_knight().with_anti_king(),
        Rules::new(nine).with_non_consecutive(),
        Rules::new(nine).with_region(&(0..9).map(|i| (8 - i) * 9 + i).collect::<Vec<_>>())?,
        Rules::new(nine).with_distinct(&[0, 10, 20])?.with_thermometer(&[40, 41, 42, 43])?,
        Rules::new(nine)
            .with_relation(0, Relation::Difference(1), 1)?
            .with_relation(9, Relation::Difference(3), 10)?
            .with_relation(18, Relation::Ratio(2), 19)?
            .with_relation(27, Relation::Ratio(3), 28)?
            .with_relation(36, Relation::Sum(10), 37)?
            .with_relation(45, Relation::Sum(5), 46)?,
        Rules::new(nine)
            .with_relations([(0, Relation::Apart(5), 1), (1, Relation::Apart(5), 2), (9, Relation::Apart(4), 18)])?
            .with_renban(&[30, 40, 50])?
            .with_renban(&[8, 16])?,
    ];
    for rules in ruled {
        let board = rules.parse(&".".repeat(81))?;
        boards.push(board.solve().expect("a grid"));
        boards.push(board);
    }
    for generator in [
        Generator::new(Rules::new(nine)).jigsaw(),
        Generator::new(Rules::new(Shape::new(2, 3))).killer(),
        Generator::new(Rules::new(nine)).even_odd(),
    ] {
        boards.extend((0..3).map(|i| generator.clone().seed(5).puzzle(i).expect("a puzzle")));
    }
    for board in &boards {
        let link = f_puzzles_link(board)?;
        let read: Board = link.parse()?;
        assert_eq!(read.rules(), board.rules(), "{board:?} as {}", f_puzzles_json(board)?);
        assert_eq!(read.as_str(), board.as_str());
        assert_eq!(f_puzzles_json(board)?.parse::<Board>()?, read);
    }
    // A Latin square has no regions f-puzzles can leave out: its rows
    // stand in as its regions, the same puzzle.
    let latin = Board::empty(Shape::latin(5));
    let read: Board = f_puzzles_link(&latin)?.parse()?;
    assert_eq!(read.count_solutions(usize::MAX), latin.count_solutions(usize::MAX));
    // What f-puzzles has no constraint for is an error that says so.
    let seven = Rules::new(nine).with_relation(0, Relation::Sum(7), 1)?.parse(&".".repeat(81))?;
    assert!(f_puzzles_link(&seven).unwrap_err().to_string().contains("no mark for the relation"));
    let low = Rules::new(nine).with_allowed_digits(&[0], &[1, 2])?.parse(&".".repeat(81))?;
    assert!(f_puzzles_json(&low).unwrap_err().to_string().contains("even or odd"));
    Ok(())
}

#[test]
fn generated_puzzles_come_f_puzzles_output_that_read_back_the_same() {
    let run = |format: &str| {
        let args =
            ["generate", "--killer", "--shape", "2x3", "--count", "4", "--seed", "7", "-j", "1", "--format", format];
        String::from_utf8(common::run(&args, "").stdout).unwrap()
    };
    let (f_puzzles_output, line_output) = (run("f-puzzles"), run("line"));
    assert_eq!(f_puzzles_output.lines().count(), 4);
    for (link, line) in f_puzzles_output.lines().zip(line_output.lines()) {
        assert!(link.starts_with("https://f-puzzles.com/?load="), "{link}");
        let linked: Board = link.parse().expect("a link");
        let written: Board = line.parse().expect("a line with its cages");
        assert_eq!(linked, written);
        assert!(linked.is_unique());
    }
    // Answers too: a solution as a link.
    let out = common::run(&["solve", "-q", "--format", "f-puzzles"], format!("{TWO_CAGES}\n"));
    let link = String::from_utf8(out.stdout).unwrap();
    let solution: Board = link.trim_end().parse().expect("a link");
    assert_eq!(Some(solution), TWO_CAGES.parse::<Board>().unwrap().solve());
    // A puzzle whose rules f-puzzles cannot hold is answered as invalid,
    // in its place, on stderr with its line, and in the exit status.
    let sum_of_seven =
        r#"{"puzzle": "................", "relations": [{"cells": [0, 1], "relation": "sum", "value": 7}]}"#;
    let out = common::run(
        &["solve", "--format", "f-puzzles"],
        format!(
            "{TWO_CAGES}
{sum_of_seven}
"
        ),
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("https://f-puzzles.com/?load="), "{text}");
    assert_eq!(lines[1], "invalid: f-puzzles has no mark for the relation they add up to 7 between cells 0 and 1");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("-:2: f-puzzles has no mark for the relation"), "{err}");
    assert_eq!(out.status.code(), Some(1));
}
