//! Digits allowed in some cells only: even and odd cells, and any set
//! (`Rules::with_allowed_digits`).

use lazydoku::format::Parser;
use lazydoku::generate::Generator;
use lazydoku::search::Budget;
use lazydoku::{Board, Conflict, ParseError, Rules, RulesError, Shape, Turn};
use proptest::prelude::*;

use crate::common;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(80))]

    /// Even and odd cells read off a grid (which keeps them) or drawn at
    /// random (which may not), and sets of digits drawn at random, against
    /// plain backtracking.
    #[test]
    fn boards_with_allowed_digits_agree_with_brute_force(
        seed in 1..u64::MAX,
        six in any::<bool>(),
        keep in prop::collection::vec(prop::bool::weighted(0.2), 36),
        marks in prop::collection::vec((0..36usize, 0..4u8, 1..64u32), 0..12),
    ) {
        let (br, bc) = if six { (2, 3) } else { (2, 2) };
        let side = br * bc;
        let cells = side * side;
        let full = (1u32 << side) - 1;
        let grid_text = common::shuffled_grid(br, bc, seed);
        let grid: Vec<usize> = grid_text.bytes().map(|b| usize::from(b - b'0')).collect();
        let (even, odd) = (0..side).fold((0, 0), |(e, o), d| if d % 2 == 1 { (e | 1 << d, o) } else { (e, o | 1 << d) });
        let mut rules = Rules::new(Shape::new(br, bc));
        let mut allowed = vec![full; cells];
        for &(cell, kind, mask) in &marks {
            let cell = cell % cells;
            let parity = if grid[cell] % 2 == 0 { even } else { odd };
            let mask = match kind {
                0 => parity,                     // kept by the grid
                1 => full & !parity,             // broken by the grid
                2 => (mask & full) | 1 << (grid[cell] - 1), // a set holding the grid's digit
                _ => mask & full,                // any set
            };
            let digits: Vec<u8> = (1..=side).filter(|d| mask >> (d - 1) & 1 == 1).map(|d| u8::try_from(d).unwrap()).collect();
            match rules.clone().with_allowed_digits(&[cell], &digits) {
                Ok(next) => {
                    rules = next;
                    allowed[cell] &= mask;
                }
                Err(RulesError::NoDigitAllowed { cell: at }) => prop_assert_eq!(allowed[at] & mask, 0),
                // Cells of one unit with fewer digits between them than
                // cells, once this cell keeps only `mask`: checked as said.
                Err(RulesError::TooFewDigits { cells: crowded, digits }) => {
                    let after = |c: usize| if c == cell { allowed[c] & mask } else { allowed[c] };
                    let union = crowded.iter().fold(0, |m, &c| m | after(c));
                    let listed = digits.iter().fold(0, |m, &d| m | 1 << (d - 1));
                    prop_assert_eq!(union, listed);
                    prop_assert!(digits.len() < crowded.len());
                    prop_assert!(crowded.contains(&cell));
                    let units = common::classic_units(br, bc);
                    prop_assert!(units.iter().any(|unit| crowded.iter().all(|c| unit.contains(c))), "{:?}", crowded);
                }
                Err(e) => return Err(TestCaseError::fail(format!("{e}"))),
            }
        }
        for (cell, &mask) in allowed.iter().enumerate() {
            prop_assert_eq!(rules.allowed_digits(cell).bits(), mask);
        }
        let puzzle = common::kept(&grid_text, &keep);
        let units = common::classic_units(br, bc);
        let expected = common::brute_count_allowed(&puzzle, side, &units, &allowed, 20);
        let board = match rules.parse(&puzzle) {
            Ok(board) => board,
            Err(e @ ParseError::NotAllowed { .. }) => {
                prop_assert_eq!(expected, 0, "{}: {}", puzzle, e);
                return Ok(());
            }
            Err(e) => return Err(TestCaseError::fail(format!("{puzzle}: {e}"))),
        };
        let solves = |grid: &str| common::brute_count_allowed(grid, side, &units, &allowed, 2) == 1;
        common::agrees_with_reference(&board, &puzzle, expected, solves)?;
        if allowed.iter().zip(&grid).all(|(&mask, &d)| mask >> (d - 1) & 1 == 1) {
            prop_assert!(expected >= 1, "the grid keeps every set");
        }
    }
}

#[test]
fn even_and_odd_cells_take_their_digits_from_the_start() {
    let rules = Rules::new(Shape::NINE).with_even(&[0, 1, 2, 3]).unwrap().with_odd(&[80]).unwrap();
    let board = Board::empty_with(&rules);
    assert_eq!(board.candidates(0).iter().collect::<Vec<_>>(), [2, 4, 6, 8]);
    assert_eq!(board.candidates(80).iter().collect::<Vec<_>>(), [1, 3, 5, 7, 9]);
    assert_eq!(board.candidates(40).len(), 9);
    let grid = board.solve().expect("such grids exist");
    assert!([0, 1, 2, 3].iter().all(|&c| grid.get(c).unwrap() % 2 == 0));
    assert_eq!(grid.get(80).unwrap() % 2, 1);
    // Five even cells in one row: four even digits only.
    let five = Rules::new(Shape::NINE).with_even(&[0, 1, 2, 3, 4]);
    assert_eq!(five, Err(RulesError::TooFewDigits { cells: vec![0, 1, 2, 3, 4], digits: vec![2, 4, 6, 8] }));
    // The same rules given twice, or in another order, are the same rules.
    let again = Rules::new(Shape::NINE).with_odd(&[80]).unwrap().with_even(&[3, 2, 1, 0, 0]).unwrap();
    assert_eq!(again, rules);
    assert!(!rules.is_classic());
    // Every digit allowed is no rule at all.
    let all = Rules::new(Shape::NINE).with_allowed_digits(&[5], &[1, 2, 3, 4, 5, 6, 7, 8, 9]).unwrap();
    assert!(all.is_classic() && !all.has_allowed_digits());
}

#[test]
fn errors_say_what_is_wrong() {
    let four = || Rules::new(Shape::new(2, 2));
    assert_eq!(four().with_even(&[16]), Err(RulesError::CellOutOfRange { cell: 16, cells: 16 }));
    assert_eq!(four().with_allowed_digits(&[0], &[0]), Err(RulesError::DigitOutOfRange { digit: 0, side: 4 }));
    let err = four().with_even(&[3]).unwrap().with_odd(&[3]).unwrap_err();
    assert_eq!(err, RulesError::NoDigitAllowed { cell: 3 });
    assert_eq!(err.to_string(), "cell 3 is left with no digit it may hold; its allowed digits must share one");
    assert_eq!(four().with_allowed_digits(&[2], &[]), Err(RulesError::NoDigitAllowed { cell: 2 }));
    // A given the rules do not allow, where it stands.
    let rules = four().with_even(&[5]).unwrap();
    let err = rules.parse("....\n.3..\n....\n....").unwrap_err();
    assert!(matches!(err, ParseError::NotAllowed { digit: 3, at: (1, 1), line: 2, column: 2, .. }), "{err:?}");
    assert_eq!(err.to_string(), "line 2, column 2: 3 at row 2, column 2: the rules allow only 2 or 4 there");
    let conflict = Board::empty_with(&rules).place(5, 1).unwrap_err();
    assert!(matches!(conflict, Conflict::NotAllowed { digit: 1, row: 1, col: 1, .. }));
    assert_eq!(conflict.to_string(), "1 cannot go at row 2, column 2: the rules allow only 2 or 4 there");
    assert!(Board::empty_with(&rules).place(5, 4).is_ok());
}

#[test]
fn transforms_only_turn_the_board_and_explain_starts_from_the_allowed_digits() {
    let rules = Rules::new(Shape::NINE).with_odd(&[0]).unwrap();
    let board = rules.parse(&format!("1{}", ".".repeat(80))).unwrap();
    // Relabelling would break the rule: the board is turned alone.
    let other = board.transformed(3);
    assert!(other == board || Turn::ALL.iter().any(|&turn| board.turned(turn) == other));
    let corner = other.as_str().find('1').unwrap();
    assert_eq!(other.rules().allowed_digits(corner).into_iter().collect::<Vec<u8>>(), [1, 3, 5, 7, 9]);
    // No turn lays one odd corner onto itself, and digits are not
    // relabelled: the board is its own canonical form.
    assert_eq!(board.canonical().as_ref(), Some(&board));
    // Logic starts from the allowed digits: the even cells of a 4x4 board
    // show only 2 and 4 before any step, and every step placed keeps them.
    let rules = Rules::new(Shape::new(2, 2)).with_even(&[0, 1]).unwrap().with_odd(&[2]).unwrap();
    let puzzle = rules.parse("2...............").unwrap();
    let mut steps = puzzle.explain();
    assert_eq!(steps.candidates(1).iter().collect::<Vec<_>>(), [4]);
    assert_eq!(steps.candidates(2).iter().collect::<Vec<_>>(), [1, 3]);
    let solution = puzzle.solve().expect("a solution");
    for step in steps.by_ref() {
        assert!(step.placements().all(|(cell, digit)| solution.get(cell) == Some(digit)), "{step}");
    }
    assert_eq!(steps.board().get(1), Some(4));
}

#[test]
fn json_objects_bring_even_and_odd_cells_and_get_them_back() {
    let puzzle = r#"{"puzzle": "................", "even": [0, 1], "odd": [15]}"#;
    let out = common::run(&["solve", "-q"], puzzle);
    let text = String::from_utf8_lossy(&out.stdout);
    let solved = text.split('"').nth(3).expect("the puzzle member").to_owned();
    assert!(text.trim_end().ends_with(r#""even": [0, 1], "odd": [15]}"#), "{text}");
    let digit = |cell: usize| solved.as_bytes()[cell] - b'0';
    assert!(digit(0) % 2 == 0 && digit(1) % 2 == 0 && digit(15) % 2 == 1, "{solved}");
    let out = common::run(&["solve", "-q", "--format", "json"], puzzle);
    let json = String::from_utf8_lossy(&out.stdout);
    assert!(json.contains(r#""even":[0,1],"odd":[15]"#), "{json}");
    // 288 4x4 grids; the first two cells even: 2 and 4 either way, a sixth.
    let out = common::run(&["count", "-q", "--limit", "1000"], r#"{"puzzle": "................", "even": [0, 1]}"#);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), (288 / 6).to_string());
    // Errors are placed in the object.
    let out = common::run(&["solve"], r#"{"puzzle": "................", "odd": [0, 16]}"#);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("-:1:39: cell 16 is off the board; use an index below 16"), "{stderr}");
    let out = common::run(&["solve"], r#"{"puzzle": "2...............", "odd": [0]}"#);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("-:1:13: 2 at row 1, column 1: the rules allow only 1 or 3 there"), "{stderr}");
}

/// Cells that must differ with fewer digits between them than cells, in
/// any kind of group: the error names the cells and digits, and the same
/// cells that fit are accepted.
#[test]
fn too_few_digits_for_cells_that_must_differ_is_an_error() {
    let four = || Rules::new(Shape::new(2, 2));
    let crowded = |rules: Result<Rules, RulesError>| match rules {
        Err(RulesError::TooFewDigits { cells, digits }) => (cells, digits),
        other => panic!("{other:?}"),
    };
    // A column: three odd cells, two odd digits.
    assert_eq!(crowded(four().with_odd(&[1, 5, 13])), (vec![1, 5, 13], vec![1, 3]));
    assert!(four().with_odd(&[1, 5]).is_ok());
    // One cell allowed 1 and 2, two allowed 1: the two ones clash alone.
    let rules = four().with_allowed_digits(&[0], &[1, 2]).unwrap();
    assert_eq!(crowded(rules.with_allowed_digits(&[2, 3], &[1])), (vec![2, 3], vec![1]));
    // A jigsaw region, a cage and a group of distinct digits.
    let jigsaw = Rules::jigsaw("aaab abbb cccd cddd").unwrap();
    assert_eq!(crowded(jigsaw.with_even(&[0, 1, 4])), (vec![0, 1, 4], vec![2, 4]));
    let killer = four().with_cage(10, &[0, 5, 10, 15]).unwrap();
    assert_eq!(crowded(killer.with_even(&[0, 5, 10])), (vec![0, 5, 10], vec![2, 4]));
    let group = four().with_distinct(&[0, 15]).unwrap();
    assert_eq!(crowded(group.with_allowed_digits(&[0, 15], &[3])), (vec![0, 15], vec![3]));
    // On 25x25, where digits go up to 25.
    let big = Rules::new(Shape::new(5, 5));
    let odd: Vec<usize> = (0..14).collect();
    let (cells, digits) = crowded(big.with_odd(&odd));
    assert_eq!((cells.len(), digits), (14, (1..=25).step_by(2).collect::<Vec<u8>>()));
}

/// Parity maps: one mark per cell, read and written by `Rules`, after a
/// line, under a grid, and from `--parity`.
#[test]
fn parity_maps_read_and_write_even_and_odd_cells() {
    let four = || Rules::new(Shape::new(2, 2));
    let rules = four().with_parity_map("# even-odd\ne.O.\n....\n....\n...E").unwrap();
    assert_eq!(rules, four().with_even(&[0, 15]).unwrap().with_odd(&[2]).unwrap());
    assert_eq!(rules.parity_map().as_deref(), Some("e.o............e"));
    assert_eq!(four().with_parity_map(&rules.parity_map().unwrap()), Ok(rules.clone()));
    assert_eq!(four().with_parity_map(&".".repeat(16)), Ok(four()));
    // No map for rules without marks, or with a set that is neither.
    assert_eq!(four().parity_map(), None);
    assert_eq!(four().with_allowed_digits(&[3], &[1, 2]).unwrap().parity_map(), None);
    let err = |map: &str| four().with_parity_map(map).unwrap_err().to_string();
    assert_eq!(
        err("e...\n..y.\n....\n...."),
        "line 2, column 3: 'y' is no mark of a parity map: e for even, o for odd, . for either"
    );
    assert_eq!(err("e... .... .... .... ."), "line 1, column 21: the map has more than 16 marks, one per cell");
    assert_eq!(err("e...\n....\n..."), "line 3, column 4: the map has 11 marks; the board has 16 cells");
    assert_eq!(
        err("ooo. .... .... ...."),
        "cells 0, 1, 2 must hold distinct digits, and may hold only 1, 3: 3 cells for 2 digits"
    );

    // After a line, with the other rules in their places, and written back.
    let (board, layout) = Parser::new().parse("1... .... .... .... aaabacbbccbdcddd parity:.e..............").unwrap();
    assert_eq!(layout.parity_map(), Some(".e.............."));
    assert_eq!(board.rules(), Rules::jigsaw("aaabacbbccbdcddd").unwrap().with_even(&[1]).unwrap());
    let solution = board.solve().expect("a solution");
    assert!(solution.get(1).unwrap() % 2 == 0);
    assert_eq!(layout.render(&solution), format!("{} aaabacbbccbdcddd parity:.e..............", rows(&solution)));
    // The names before or after the map, never read as a comment.
    for line in [
        "1............... rules:diagonals parity:.o..............",
        "1............... parity:.o.............. rules:diagonals",
    ] {
        let board: Board = line.parse().unwrap();
        assert_eq!(board.rules(), four().with_diagonals().with_odd(&[1]).unwrap(), "{line}");
    }
    // Errors where they stand.
    let err = "1............... parity:.x..............".parse::<Board>().unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 1, column 26: 'x' is no mark of a parity map: e for even, o for odd, . for either"
    );
    let err = "1............... parity:e...............".parse::<Board>().unwrap_err();
    assert_eq!(err.to_string(), "line 1, column 1: 1 at row 1, column 1: the rules allow only 2 or 4 there");
    let err = "................ parity:eee.............".parse::<Board>().unwrap_err();
    assert!(err.to_string().starts_with("line 1, column 25: the parity map: cells 0, 1, 2 must hold"), "{err}");
    // Under a grid, in groups or not, after a region map.
    let grid = "1 . | . .\n. . | . .\n----+----\n. . | . .\n. . | . .\nparity .e.. .... .... ...o\n";
    let (board, layout) = Parser::new().parse(grid).unwrap();
    assert_eq!(layout.parity_map(), Some(".e.............o"));
    assert_eq!(board.rules(), four().with_even(&[1]).unwrap().with_odd(&[15]).unwrap());
    let err = Parser::new().parse("1 . | . .\n. . | . .\n----+----\n. . | . .\n. . | . .\nparity .e..\n").unwrap_err();
    assert_eq!(err.to_string(), "line 6, column 12: the map has 4 marks; the board has 16 cells");
}

/// A puzzle's rows on one line, as the line puzzle above was written.
fn rows(board: &Board) -> String {
    let text = board.as_str();
    (0..4).map(|r| &text[4 * r..4 * r + 4]).collect::<Vec<_>>().join(" ")
}

#[test]
fn the_command_line_reads_and_writes_parity_maps() {
    let stdout = |out: std::process::Output| String::from_utf8_lossy(&out.stdout).into_owned();
    // `--parity`: inline, on the map's own size, or from a file naming it.
    let out = stdout(common::run(
        &["count", "-q", "--limit", "1000", "--parity", "ee.. .... .... ...."],
        "................\n",
    ));
    assert_eq!(out.trim(), (288 / 6).to_string(), "the first two cells 2 and 4, either way round");
    let file = common::temp_file("parity.txt", "# the first cell odd\no...\n....\n....\n....\n");
    let file = file.to_str().unwrap();
    let out = stdout(common::run(&["solve", "-q", "--parity", file], "2...............\n3...............\n"));
    let mut lines = out.lines();
    assert!(lines.next().unwrap().starts_with("invalid: 2 at row 1, column 1: the rules allow only 1 or 3 there"));
    assert!(lines.next().unwrap().starts_with('3'));
    let out = common::run(&["solve", "-q", "--parity", "eeeee"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("--parity: line 1, column 6: the map has 5 marks; the board has 81 cells")
    );
    let out = common::run(&["solve", "-q", "--parity", &format!("eeeee{}", ".".repeat(76))], "");
    assert!(String::from_utf8_lossy(&out.stderr).contains("--parity: cells 0, 1, 2, 3, 4 must hold distinct digits"));

    // Answers carry a puzzle's own map, in every format.
    let puzzle = "1............... parity:.e.............o\n";
    let line = stdout(common::run(&["solve", "-q"], puzzle));
    assert!(line.trim_end().ends_with(" parity:.e.............o"), "{line}");
    let grid = stdout(common::run(&["solve", "-q", "--format", "grid"], puzzle));
    assert!(grid.trim_end().ends_with("\nparity .e.............o"), "{grid}");
    let again = stdout(common::run(&["solve", "-q", "--format", "line"], &grid));
    // The grid's six lines get six lines back, the answer on the first.
    assert_eq!(again.lines().next(), line.lines().next());
    let json = stdout(common::run(&["solve", "-q", "--format", "json"], puzzle));
    assert!(json.contains(r#""even":[1],"odd":[15]"#), "{json}");
    // A JSON object's even and odd cells now go into line answers too.
    let out =
        common::run(&["solve", "--format", "line"], r#"{"puzzle": "1...............", "even": [1], "odd": [15]}"#);
    assert_eq!(stdout(out.clone()), line);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("note"), "nothing left out");
    // A parity line with no grid above it is reported, not skipped.
    let out = stdout(common::run(&["solve", "-q"], "parity e... .... .... ....\n"));
    assert!(out.starts_with("invalid"), "{out}");
}

#[test]
fn generated_even_odd_puzzles_read_back_as_themselves() {
    for format in ["line", "grid", "json"] {
        let out = common::run(
            &["generate", "--even-odd", "--count", "3", "--seed", "5", "--shape", "2x3", "--format", format],
            "",
        );
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let puzzles = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(puzzles.contains("parity") || puzzles.contains("\"even\""), "{puzzles}");
        let checked = common::run(&["check", "-q"], &puzzles);
        let answers = String::from_utf8_lossy(&checked.stdout);
        assert_eq!(answers.matches("unique").count(), 3, "{format}: {answers}");
    }
    // `--marks N` marks N cells, and needs --even-odd.
    let out = common::run(&["generate", "--even-odd", "--marks", "30", "--count", "2", "--seed", "8"], "");
    let puzzles = String::from_utf8_lossy(&out.stdout).into_owned();
    for line in puzzles.lines() {
        let map = line.split("parity:").nth(1).expect("a parity map");
        assert_eq!(map.matches(['e', 'o']).count(), 30, "{line}");
    }
    assert_eq!(common::run(&["check", "-q"], &puzzles).stdout, b"unique\nunique\n");
    assert_eq!(common::run(&["generate", "--marks", "30", "--count", "1"], "").status.code(), Some(2));
    // With a jigsaw map and cages of their own, read back with all three.
    for more in ["--jigsaw", "--killer"] {
        let out = common::run(&["generate", "--even-odd", more, "--count", "2", "--seed", "2", "--shape", "2x3"], "");
        let puzzles = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(puzzles.lines().all(|line| line.contains(" parity:")), "{puzzles}");
        let checked = common::run(&["check", "-q"], &puzzles);
        assert_eq!(String::from_utf8_lossy(&checked.stdout), "unique\nunique\n", "{more}: {puzzles}");
    }
    // Each puzzle's marks come from its solution: every marked cell keeps
    // its parity, and a quarter of the cells is marked.
    let generator = Generator::new(Rules::new(Shape::NINE)).seed(9).even_odd();
    for puzzle in generator.puzzles().take(4) {
        let rules = puzzle.rules();
        let map = rules.parity_map().expect("marks");
        assert_eq!(map.chars().filter(|&m| m != '.').count(), 81 / 4);
        let solution = puzzle.solve().expect("a solution");
        assert!(puzzle.is_unique());
        for (cell, mark) in map.chars().enumerate() {
            let digit = solution.get(cell).unwrap();
            assert!(mark == '.' || (mark == 'e') == (digit % 2 == 0), "{cell}: {mark} {digit}");
        }
    }
}

/// Classic 9x9 rules with digits allowed in some cells are counted and
/// solved on the 9x9 engine: the counts agree with the general engine's
/// own walk (which a node budget keeps), and a solution keeps the rules,
/// the givens and the allowed digits.
#[test]
fn nine_by_nine_even_odd_counts_agree_with_the_general_walk() {
    let generator = Generator::new(Rules::new(Shape::NINE)).seed(21).even_odd();
    let mut multiple = 0;
    for (k, puzzle) in generator.puzzles().take(12).enumerate() {
        let rules = puzzle.rules();
        // Givens taken out, more of them each time, for counts above one.
        let mut board = Board::empty_with(&rules);
        for (cell, digit) in puzzle.cells().enumerate() {
            if let Some(digit) = digit.filter(|_| cell % (k + 2) != 0) {
                board = board.place(cell, digit).unwrap();
            }
        }
        for limit in [1, 2, 50] {
            let fast = board.count_solutions(limit);
            let (walked, stopped) = board.count_solutions_within(limit, Budget::nodes(u64::MAX / 2));
            assert_eq!((fast, stopped), (walked, None), "{board} to {limit}");
            assert_eq!(fast, board.solutions().take(limit).count(), "{board}");
            assert_eq!(fast, board.par_count_solutions(limit), "{board} in parallel");
            multiple += usize::from(limit > 1 && fast > 1);
        }
        let solution = board.solve().expect("a solution");
        assert_eq!(solution.rules(), rules);
        assert!(solution.is_complete());
        for cell in 0..81 {
            let digit = solution.get(cell).unwrap();
            assert!(rules.allowed_digits(cell).contains(digit), "{solution} at {cell}");
            assert!(board.get(cell).is_none_or(|given| given == digit));
        }
        assert!(rules.parse(solution.as_str()).is_ok(), "{solution} keeps the rules");
    }
    assert!(multiple > 0, "some boards have several solutions");
}

/// Regions, groups and cages added after the digits allowed are checked as
/// well, through every builder that can fail.
#[test]
fn regions_and_cages_added_later_are_checked_too() {
    let even = || Rules::new(Shape::new(2, 2)).with_even(&[0, 5]).unwrap();
    let short = |rules: Result<Rules, RulesError>| match rules {
        Err(RulesError::TooFewDigits { cells, digits }) => (cells, digits),
        other => panic!("{other:?}"),
    };
    // Cells 0 and 5 are both even and on the main diagonal: 2 and 4 fit.
    assert!(even().with_region(&[0, 5, 10, 15]).is_ok());
    let three = Rules::new(Shape::new(2, 2)).with_even(&[0, 5, 10]).unwrap();
    assert_eq!(short(three.clone().with_region(&[0, 5, 10, 15])), (vec![0, 5, 10], vec![2, 4]));
    assert_eq!(short(three.clone().with_distinct(&[0, 5, 10])), (vec![0, 5, 10], vec![2, 4]));
    assert_eq!(short(three.clone().with_cage(9, &[0, 5, 10])), (vec![0, 5, 10], vec![2, 4]));
    // Cells 0, 2 and 4 share no row, column or box, but a jigsaw region.
    let marked = Rules::new(Shape::new(2, 2)).with_even(&[0, 2, 4]).unwrap();
    assert_eq!(short(marked.with_regions("aaab abbb cccd cddd")), (vec![0, 2, 4], vec![2, 4]));
    // A cage map names the cage that left too few digits.
    let err = three.with_cage_map("ab.. .a.. ..a. ...b a=9 b=5").unwrap_err();
    assert!(
        err.to_string().starts_with("line 1, column 1: cage 'a': cells 0, 5, 10 must hold distinct digits"),
        "{err}"
    );
}
