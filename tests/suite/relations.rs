//! Relations between two cells (thermometers, inequality signs, Kropki
//! dots, XV marks) against a brute-force reference that checks each
//! relation by its own arithmetic.

use lazydoku::{Board, Conflict, Indexer, ParseError, Relation, Rules, RulesError, Shape, Turn};
use proptest::prelude::*;

use crate::common;

/// Rows, columns and boxes of boxes `br` x `bc`.
fn digits(grid: &str) -> Vec<usize> {
    grid.bytes().map(|b| usize::from(b - b'0')).collect()
}

/// A relation between cells `a` and `b` of `grid`, of a kind that `kind`
/// picks: kinds 0 to 4 and 10 are read off the grid's digits there, so
/// that the grid keeps them; kinds 5 to 9 and 17 are fixed relations that
/// it may break; kinds 11 to 13 are negated ones the grid keeps, 14 to 16
/// fixed ones; 18 is an indexing cell's relation the grid keeps, 19 a
/// fixed one.
/// `None` where the grid's digits give no relation of that kind.
fn relation_of(grid: &[usize], side: usize, a: usize, b: usize, kind: u8) -> Option<(usize, Relation, usize)> {
    let (x, y) = (grid[a], grid[b]);
    match kind {
        0 if x < y => Some((a, Relation::Less, b)),
        0 if y < x => Some((b, Relation::Less, a)),
        1 => Some((a, Relation::Difference(x.abs_diff(y)), b)),
        2 if x.max(y) % x.min(y) == 0 => Some((a, Relation::Ratio(x.max(y) / x.min(y)), b)),
        3 => Some((a, Relation::Sum(x + y), b)),
        4 => Some((a, Relation::Apart(x.abs_diff(y)), b)),
        5 => Some((a, Relation::Difference(1), b)),
        6 => Some((a, Relation::Less, b)),
        7 => Some((a, Relation::Ratio(2), b)),
        8 => Some((a, Relation::Sum(side + 1), b)),
        9 => Some((a, Relation::Apart(side / 2), b)),
        // A slow thermometer's step, up or level.
        10 if x <= y => Some((a, Relation::LessOrEqual, b)),
        10 => Some((b, Relation::LessOrEqual, a)),
        17 => Some((a, Relation::LessOrEqual, b)),
        // The negated dots and marks, read off the grid (kept) or fixed.
        11 if x.abs_diff(y) != 1 => Some((a, Relation::NotDifference(1), b)),
        12 if x != 2 * y && y != 2 * x => Some((a, Relation::NotRatio(2), b)),
        13 => Some((a, Relation::NotSum(x + y + 1), b)),
        14 => Some((a, Relation::NotDifference(1), b)),
        15 => Some((a, Relation::NotRatio(2), b)),
        16 => Some((a, Relation::NotSum(side + 1), b)),
        18 => Some((a, Relation::Index(x, y), b)),
        19 => Some((a, Relation::Index(1, side), b)),
        _ => None,
    }
}

/// A thermometer along `grid`'s rising digits: from `start`, each step to
/// a neighbour (sides and corners) holding a larger digit, chosen by `turns`.
fn rising_path(grid: &[usize], side: usize, start: usize, turns: &[usize]) -> Vec<usize> {
    let mut path = vec![start];
    for &turn in turns {
        let here = *path.last().unwrap();
        let (r, c) = (here / side, here % side);
        let next: Vec<usize> = (r.saturating_sub(1)..=(r + 1).min(side - 1))
            .flat_map(|nr| (c.saturating_sub(1)..=(c + 1).min(side - 1)).map(move |nc| nr * side + nc))
            .filter(|&n| grid[n] > grid[here])
            .collect();
        if next.is_empty() {
            break;
        }
        path.push(next[turn % next.len()]);
    }
    path
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(80))]

    #[test]
    fn related_boards_agree_with_brute_force(
        seed in 1..u64::MAX,
        six in any::<bool>(),
        keep in prop::collection::vec(prop::bool::weighted(0.25), 36),
        picks in prop::collection::vec((0..36usize, 0..36usize, 0..20u8), 0..10),
        thermometer in prop::option::of((0..36usize, prop::collection::vec(0..8usize, 1..6))),
    ) {
        let (br, bc) = if six { (2, 3) } else { (2, 2) };
        let side = br * bc;
        let cells = side * side;
        let grid_text = common::shuffled_grid(br, bc, seed);
        let grid = digits(&grid_text);
        let mut relations: Vec<(usize, Relation, usize)> = picks
            .iter()
            .filter(|&&(a, b, _)| a % cells != b % cells)
            .filter_map(|&(a, b, kind)| relation_of(&grid, side, a % cells, b % cells, kind))
            .collect();
        let mut rules = Rules::new(Shape::new(br, bc)).with_relations(relations.iter().copied()).unwrap();
        if let Some((start, turns)) = thermometer {
            let path = rising_path(&grid, side, start % cells, &turns);
            rules = rules.with_thermometer(&path).unwrap();
            relations.extend(path.windows(2).map(|pair| (pair[0], Relation::Less, pair[1])));
        }
        let puzzle: String =
            grid_text.chars().zip(&keep).map(|(c, &k)| if k { c } else { '.' }).collect();
        let units = common::classic_units(br, bc);
        let expected = common::brute_count_related(&puzzle, side, &units, &relations, 20);
        let board = match rules.parse(&puzzle) {
            Ok(board) => board,
            Err(e @ ParseError::Related { .. }) => {
                prop_assert_eq!(expected, 0, "{}: {}", puzzle, e);
                return Ok(());
            }
            Err(e) => return Err(TestCaseError::fail(format!("{puzzle}: {e}"))),
        };
        let solves = |grid: &str| common::brute_count_related(grid, side, &units, &relations, 2) == 1;
        common::agrees_with_reference(&board, &puzzle, expected, solves)?;
        // The grid the relations were read from is a solution when the
        // relations came from it alone.
        if relations.iter().all(|&(a, relation, b)| common::keeps(relation, grid[a], grid[b])) {
            prop_assert!(expected >= 1);
            prop_assert!(board.solutions().take(20).any(|s| s.as_str() == grid_text) || expected == 20);
        }
    }
}

#[test]
fn a_thermometer_of_every_digit_is_filled_by_propagation_alone() {
    // Down the first column of a 9x9 board: 1 to 9 from the bulb.
    let cells: Vec<usize> = (0..9).map(|r| r * 9).collect();
    let rules = Rules::new(Shape::NINE).with_thermometer(&cells).unwrap();
    let settled = Board::empty_with(&rules).propagated().expect("no contradiction");
    let column: Vec<Option<u8>> = cells.iter().map(|&c| settled.get(c)).collect();
    assert_eq!(column, (1..=9).map(Some).collect::<Vec<_>>());
    // One cell shorter: each cell keeps two candidates.
    let rules = Rules::new(Shape::NINE).with_thermometer(&cells[..8]).unwrap();
    let settled = Board::empty_with(&rules).propagated().expect("no contradiction");
    for (k, &cell) in cells[..8].iter().enumerate() {
        let k = u8::try_from(k).unwrap();
        assert_eq!(settled.candidates(cell).iter().collect::<Vec<u8>>(), [k + 1, k + 2], "cell {cell}");
    }
}

#[test]
fn relations_on_every_size_keep_their_rule() {
    // Kropki dots, XV marks and inequality signs read off a grid of each
    // size, then a first solution of the empty board under them.
    for (br, bc) in [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5)] {
        let side = br * bc;
        let grid = digits_of_grid(&Board::empty(Shape::new(br, bc)).solve().unwrap());
        let mut relations = Vec::new();
        for cell in (0..side * side).filter(|c| c % side + 1 < side).step_by(3) {
            let kind = u8::try_from(cell % 4).unwrap();
            relations.extend(relation_of(&grid, side, cell, cell + 1, kind));
        }
        let rules = Rules::new(Shape::new(br, bc)).with_relations(relations.iter().copied()).unwrap();
        let solution = Board::empty_with(&rules).solve().expect("the grid itself keeps them");
        let found = digits_of_grid(&solution);
        for &(a, relation, b) in &relations {
            assert!(common::keeps(relation, found[a], found[b]), "{side}x{side}: {a} {relation:?} {b}");
        }
        assert_eq!(solution.rules(), rules);
    }
}

fn digits_of_grid(board: &Board) -> Vec<usize> {
    board.cells().map(|d| usize::from(d.expect("complete"))).collect()
}

#[test]
fn the_same_relations_make_the_same_rules() {
    let four = || Rules::new(Shape::new(2, 2));
    let one = four().with_relation(0, Relation::Sum(5), 1).unwrap().with_relation(2, Relation::Less, 3).unwrap();
    // A symmetric relation given the other way round, and a repeat.
    let other = four()
        .with_relations([(3, Relation::Less, 2), (1, Relation::Sum(5), 0)])
        .unwrap()
        .with_relation(0, Relation::Sum(5), 1)
        .unwrap();
    assert_ne!(one, other, "3 < 2 is not 2 < 3");
    let same = four().with_relations([(2, Relation::Less, 3), (1, Relation::Sum(5), 0), (0, Relation::Sum(5), 1)]);
    assert_eq!(same.unwrap(), one);
    assert_eq!(one.relations().collect::<Vec<_>>(), [(0, Relation::Sum(5), 1), (2, Relation::Less, 3)]);
    assert!(!one.is_classic());
    assert_eq!(four().with_relations([]).unwrap(), four());
    // Relations survive regions and cages added after them.
    let more = one.clone().with_cage(7, &[14, 15]).unwrap().with_windows().with_diagonals();
    assert_eq!(more.relations().count(), 2);
    let jigsaw = one.with_regions("AAAB ACBB CCBD CDDD").unwrap();
    assert_eq!(jigsaw.relations().count(), 2);
    assert_eq!(format!("{jigsaw:?}").matches("relations: 2").count(), 1);
}

#[test]
fn bad_relations_say_what_is_wrong() {
    let four = || Rules::new(Shape::new(2, 2));
    assert_eq!(four().with_relation(0, Relation::Less, 16), Err(RulesError::CellOutOfRange { cell: 16, cells: 16 }));
    assert_eq!(four().with_relation(5, Relation::Less, 5), Err(RulesError::RelatedToItself { cell: 5 }));
    let err = four().with_relation(0, Relation::Difference(4), 1).unwrap_err();
    assert_eq!(err, RulesError::ImpossibleRelation { relation: Relation::Difference(4), side: 4 });
    assert_eq!(err.to_string(), "no two digits of 1 to 4 keep the relation \"they differ by 4\"");
    assert!(four().with_relation(0, Relation::Ratio(0), 1).is_err());
    assert!(four().with_relation(0, Relation::Sum(usize::MAX), 1).is_err());
    assert!(four().with_relation(0, Relation::Ratio(usize::MAX), 1).is_err());
    assert_eq!(four().with_thermometer(&[]), Err(RulesError::ThermometerLength { found: 0, side: 4 }));
    assert_eq!(
        four().with_thermometer(&[0, 1, 2, 3, 7]).unwrap_err().to_string(),
        "a thermometer has 5 cells; it needs 1 to 4"
    );
    assert_eq!(four().with_thermometer(&[0, 1, 0]), Err(RulesError::RelatedToItself { cell: 0 }));
    assert_eq!(four().with_thermometer(&[20]), Err(RulesError::CellOutOfRange { cell: 20, cells: 16 }));
    assert_eq!(four().with_thermometer(&[3]).unwrap(), four());
    // The first bad relation of a list is the one reported, and nothing is added.
    let err = four().with_relations([(0, Relation::Less, 1), (2, Relation::Sum(9), 3)]).unwrap_err();
    assert_eq!(err, RulesError::ImpossibleRelation { relation: Relation::Sum(9), side: 4 });
}

#[test]
fn givens_that_break_a_relation_are_refused_with_where() {
    // Cell 1 must hold less than cell 0.
    let rules = Rules::new(Shape::new(2, 2)).with_relation(1, Relation::Less, 0).unwrap();
    let err = rules.parse("12.. .... .... ....").unwrap_err();
    assert!(matches!(err, ParseError::Related { digit: 2, other: 1, first_cell: true, .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        "line 1, column 2: 2 at row 1, column 2: it must be smaller than the 1 at row 1, column 1"
    );
    assert!(rules.parse("21.. .... .... ....").is_ok());
    // The later given the larger one's cell.
    let rules = Rules::new(Shape::new(2, 2)).with_relation(0, Relation::Less, 5).unwrap();
    let err = rules.parse("3...\n.2..\n....\n....").unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 2, column 2: 2 at row 2, column 2: it must be larger than the 3 at row 1, column 1"
    );
    // Placing a digit says the same.
    let kropki = Rules::new(Shape::new(2, 2)).with_relation(0, Relation::Ratio(2), 4).unwrap();
    let board = kropki.parse("3... .... .... ....").unwrap();
    let conflict = board.place(4, 4).unwrap_err();
    assert!(matches!(
        conflict,
        Conflict::Related { digit: 4, other: 3, first: false, relation: Relation::Ratio(2), .. }
    ));
    assert_eq!(
        conflict.to_string(),
        "4 cannot go at row 2, column 1: it and the 3 at row 1, column 1 break the rule that one is 2 times the other"
    );
    assert!(board.place(4, 1).is_err(), "1 and 3: no ratio of 2");
    assert!(board.place(5, 4).is_ok(), "unrelated cell");
}

#[test]
fn relabelling_would_break_a_relation_so_transforming_only_turns_the_board() {
    let rules = Rules::new(Shape::NINE).with_thermometer(&[0, 1, 2, 3]).unwrap();
    let board = rules.parse(&format!("1{}", ".".repeat(80))).unwrap();
    for seed in 0..8 {
        let other = board.transformed(seed);
        assert!(other == board || Turn::ALL.iter().any(|&turn| board.turned(turn) == other), "seed {seed}");
        // The bulb still holds the 1, with the thermometer's three steps from it.
        let bulb = other.as_str().find('1').unwrap();
        let steps: Vec<(usize, Relation, usize)> = other.rules().relations().collect();
        assert_eq!(steps.len(), 3);
        assert!(steps.iter().any(|&(from, relation, _)| from == bulb && relation == Relation::Less));
    }
    // No turn lays the thermometer onto itself, and its digits are not
    // relabelled: the board is its own canonical form.
    assert_eq!(board.canonical().as_ref(), Some(&board));
}

#[test]
fn json_puzzles_bring_thermometers_and_relations_and_get_them_back() {
    let rules = r#""thermometers": [[0, 1, 2, 3]], "relations": [{"cells": [4, 5], "relation": "sum", "value": 7}]}"#;
    let puzzle = format!(r#"{{"puzzle": "................", {rules}"#);
    let out = common::run(&["solve", "-q"], &puzzle);
    assert_eq!(String::from_utf8_lossy(&out.stdout), format!("{{\"puzzle\": \"1234342121434312\", {rules}\n"));
    let out = common::run(&["count", "-q"], &puzzle);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "2\n");
    let out = common::run(&["solve", "-q", "--format", "json"], &puzzle);
    let json = String::from_utf8_lossy(&out.stdout);
    assert!(
        json.contains(r#""thermometers":[[0,1,2,3]],"relations":[{"cells":[4,5],"relation":"sum","value":7}]"#),
        "{json}"
    );
    // A line answer has no place for them, and says so.
    let out = common::run(&["solve", "--format", "line"], &puzzle);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1234342121434312\n");
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("`double_arrows`, `entropic_lines` and `modular_lines`, and are written without them")
    );
    // The library reads the same object.
    let (board, layout) = lazydoku::format::Parser::new().parse(&puzzle).unwrap();
    assert_eq!(layout.relations(), [(4, Relation::Sum(7), 5)]);
    assert_eq!(board.rules().relations().count(), 4);
    // Errors say where, in the object's own lines.
    let cases = [
        (
            r#"{"puzzle": "................",
  "relations": [{"cells": [4, 5], "relation": "sum"}]}"#,
            "-:2:17: the relation \"sum\" needs a \"value\"",
        ),
        (
            r#"{"puzzle": "................", "relations": [{"cells": [4], "relation": "less"}]}"#,
            "-:1:46: a relation has 1 cell; it takes two",
        ),
        (
            r#"{"puzzle": "................", "relations": [{"cells": [4, 5], "relation": "more"}]}"#,
            "-:1:46: unknown relation \"more\"; use less, less-or-equal, difference, ratio, sum, apart, not-difference, not-ratio, not-sum or index",
        ),
        (
            r#"{"puzzle": "................", "relations": [{"cells": [4, 16], "relation": "less"}]}"#,
            "-:1:46: cell 16 is off the board; use an index below 16",
        ),
        (
            r#"{"puzzle": "................", "thermometers": [[0, 1, 2, 3, 4]]}"#,
            "-:1:49: a thermometer has 5 cells; it needs 1 to 4",
        ),
        (
            r#"{"puzzle": "12..............", "thermometers": [[1, 0]]}"#,
            "-:1:14: 2 at row 1, column 2: it must be smaller than the 1 at row 1, column 1",
        ),
        (
            r#"{"puzzle": "................", "relations": [{"cells": [0, 1], "relation": "index", "value": 2}]}"#,
            "-:1:46: the relation \"index\" needs a \"value\" of two digits, such as [3, 1]",
        ),
        (
            r#"{"puzzle": "................", "relations": [{"cells": [0, 1], "relation": "sum", "value": [2, 1]}]}"#,
            "-:1:46: the relation \"sum\" takes one number as its \"value\"",
        ),
    ];
    for (text, said) in cases {
        let out = common::run(&["solve"], text);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.lines().any(|line| line == format!("lazydoku: {said}")), "{text}: {stderr}");
        assert!(String::from_utf8_lossy(&out.stdout).starts_with("invalid: "), "{text}");
    }
}

/// `index` relations (indexing cells) in a JSON object: read, kept by the
/// solutions, and written back with their two digits.
#[test]
fn index_relations_read_and_write_their_two_digits() {
    // r1c1 holds 2 exactly when r1c2 holds 1; r1c1 holds 3 exactly when
    // r1c3 holds 1; r1c1 holds 4 exactly when r1c4 holds 1: a column
    // indexer of the first row.
    let relations = r#""relations":[{"cells":[0,1],"relation":"index","value":[2,1]},{"cells":[0,2],"relation":"index","value":[3,1]},{"cells":[0,3],"relation":"index","value":[4,1]}]"#;
    let puzzle = format!(r#"{{"puzzle":"................",{relations}}}"#);
    let board: Board = puzzle.parse().unwrap();
    let expected = Rules::new(Shape::new(2, 2))
        .with_relations([(0, Relation::Index(2, 1), 1), (0, Relation::Index(3, 1), 2), (0, Relation::Index(4, 1), 3)])
        .unwrap();
    assert_eq!(board.rules(), expected);
    let mut count = 0;
    for grid in board.solutions() {
        let first = usize::from(grid.get(0).unwrap());
        assert_eq!(grid.get(first - 1), Some(1), "{grid}");
        count += 1;
    }
    // Of the 288 grids, those whose first cell names the column of the
    // first row's 1: the 72 that start with 1, and a third of the 216 that
    // do not.
    assert_eq!(count, 144);
    let out = common::run(&["solve", "-q", "--format", "json"], &puzzle);
    let json = String::from_utf8_lossy(&out.stdout);
    assert!(json.contains(relations), "{json}");
    // The answer's solution read back as a puzzle keeps the rules.
    let back: Board = json.trim().replace("\"solution\"", "\"puzzle\"").parse().unwrap();
    assert_eq!(back.rules(), expected);
    assert!(back.is_complete());
}

/// Indexers on 6x6 (boxes of 2 rows and 3 columns): a digit placed in
/// an indexer forces the cell it names, by the definition of each kind.
#[test]
fn indexers_force_the_cells_their_digits_name() {
    // Row 2, column 5 (from 1): place 5 of its box (rows 1-2, columns 4-6).
    let cell = 6 + 4;
    for (indexer, named, holds) in [
        // Row v of column 5 holds 2.
        (Indexer::Row, (|v: usize| (v - 1) * 6 + 4) as fn(usize) -> usize, 2),
        // Column v of row 2 holds 5.
        (Indexer::Column, |v| 6 + v - 1, 5),
        // Place v of the box holds 5.
        (Indexer::Box, |v| (v - 1) / 3 * 6 + 3 + (v - 1) % 3, 5),
    ] {
        let rules = Rules::new(Shape::new(2, 3)).with_indexer(indexer, cell).unwrap();
        let empty = Board::empty_with(&rules);
        for v in 1..=6u8 {
            let placed = empty.place(cell, v).unwrap().propagated().expect("a digit of an indexer leaves a grid");
            // Solved by propagation alone.
            assert_eq!(placed.get(named(usize::from(v))), Some(holds), "{indexer:?} holding {v}");
            let grid = placed.solve().expect("a grid");
            assert_eq!(usize::from(grid.get(named(usize::from(v))).unwrap()), usize::from(holds));
        }
    }
    // Off the board, and a box indexer without boxes.
    let six = Rules::new(Shape::new(2, 3));
    assert_eq!(six.clone().with_indexer(Indexer::Row, 36), Err(RulesError::CellOutOfRange { cell: 36, cells: 36 }));
    let latin = Rules::new(Shape::latin(6));
    assert_eq!(latin.clone().with_indexer(Indexer::Box, 3), Err(RulesError::IndexerWithoutBoxes { cell: 3 }));
    assert!(latin.with_indexer(Indexer::Column, 3).is_ok());
    let jigsaw = Rules::new(Shape::new(2, 2)).with_regions("1112132233423444").unwrap();
    let err = jigsaw.with_indexer(Indexer::Box, 0).unwrap_err();
    assert_eq!(err.to_string(), "cell 0 is a box indexer, and these rules have no boxes (a jigsaw map, or none)");
}

#[test]
fn german_whispers_keep_five_off_the_line_and_every_step_five_apart() {
    // A line along the first row and down the fourth column, each step
    // five or more apart: no digit differs from 5 by that much, so
    // propagation alone takes 5 from every cell of it.
    let line = [0usize, 1, 2, 3, 12, 21, 30];
    let rules =
        Rules::new(Shape::NINE).with_relations(line.windows(2).map(|p| (p[0], Relation::Apart(5), p[1]))).unwrap();
    let settled = Board::empty_with(&rules).propagated().expect("whispers grids exist");
    for &cell in &line {
        assert!(!settled.candidates(cell).contains(5), "5 left at {cell}");
    }
    assert!(settled.candidates(40).contains(5), "the centre is off the line");
    // A whole row on the line would need nine digits without 5: none.
    let row = Rules::new(Shape::NINE).with_relations((0..8).map(|c| (c, Relation::Apart(5), c + 1))).unwrap();
    assert_eq!(Board::empty_with(&row).propagated(), None);
    let grid = Board::empty_with(&rules).solve().expect("whispers grids exist");
    for pair in line.windows(2) {
        let (a, b) = (grid.get(pair[0]).unwrap(), grid.get(pair[1]).unwrap());
        assert!(a.abs_diff(b) >= 5, "{grid}: {a} and {b} at {pair:?}");
    }
    // Ten or more apart is out of reach of 1 to 9.
    let err = Rules::new(Shape::NINE).with_relation(0, Relation::Apart(9), 1).unwrap_err();
    assert_eq!(err, RulesError::ImpossibleRelation { relation: Relation::Apart(9), side: 9 });
    // JSON objects name it "apart", and answers give it back.
    let puzzle = r#"{"puzzle": "................", "relations": [{"cells": [0, 1], "relation": "apart", "value": 3}]}"#;
    let out = common::run(&["solve", "-q", "--format", "json"], puzzle);
    let json = String::from_utf8_lossy(&out.stdout);
    assert!(json.contains(r#""relations":[{"cells":[0,1],"relation":"apart","value":3}]"#), "{json}");
    let out = common::run(&["count", "-q", "--limit", "1000"], puzzle);
    let with_line = String::from_utf8_lossy(&out.stdout).trim().parse::<usize>().unwrap();
    // Of the 288 4x4 grids, those whose first two digits are 1 and 4 either way.
    assert_eq!(with_line, 288 / 6);
}

#[test]
fn slow_thermometers_step_up_or_level_and_come_in_json() {
    let four = || Rules::new(Shape::new(2, 2));
    assert_eq!(four().with_slow_thermometer(&[]), Err(RulesError::ThermometerLength { found: 0, side: 4 }));
    assert_eq!(four().with_slow_thermometer(&[3, 2, 3]), Err(RulesError::RelatedToItself { cell: 3 }));
    assert_eq!(four().with_slow_thermometer(&[16]), Err(RulesError::CellOutOfRange { cell: 16, cells: 16 }));
    assert_eq!(four().with_slow_thermometer(&[5]), Ok(four()), "a bulb alone says nothing");
    // Longer than the side: digits may stay level where no region holds two.
    let long = four().with_slow_thermometer(&[0, 5, 10, 15, 14]).unwrap();
    let solutions: Vec<Board> = Board::empty_with(&long).solutions().collect();
    assert!(!solutions.is_empty());
    for solution in &solutions {
        let digits = [0, 5, 10, 15, 14].map(|c| solution.get(c).unwrap());
        assert!(digits.windows(2).all(|w| w[0] <= w[1]), "{solution}");
    }
    // A step down is refused, in the relation's own words.
    let step = four().with_slow_thermometer(&[0, 5]).unwrap();
    let err = Board::empty_with(&step).place(0, 3).unwrap().place(5, 2).unwrap_err();
    assert_eq!(err.to_string(), "2 cannot go at row 2, column 2: it must be no smaller than the 3 at row 1, column 1");
    // JSON names it, with no value.
    let json = r#"{"puzzle": "................", "relations": [{"cells": [0, 5], "relation": "less-or-equal"}]}"#;
    let (board, _) = lazydoku::format::Parser::new().parse(json).unwrap();
    assert_eq!(board.rules(), step);
    let valued = json.replace(r#""less-or-equal""#, r#""less-or-equal", "value": 1"#);
    let err = lazydoku::format::Parser::new().parse(&valued).unwrap_err().to_string();
    assert!(err.contains(r#"the relation "less-or-equal" takes no "value""#), "{err}");
}
