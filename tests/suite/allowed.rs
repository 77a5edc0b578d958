//! Digits allowed in some cells only: even and odd cells, and any set
//! (`Rules::with_allowed_digits`).

use lazydoku::{Board, Conflict, ParseError, Rules, RulesError, Shape};
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
                Err(e) => return Err(TestCaseError::fail(format!("{e}"))),
            }
        }
        for (cell, &mask) in allowed.iter().enumerate() {
            prop_assert_eq!(rules.allowed_digits(cell).bits(), mask);
        }
        let puzzle: String = grid_text.chars().zip(&keep).map(|(c, &k)| if k { c } else { '.' }).collect();
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
    let five = Rules::new(Shape::NINE).with_even(&[0, 1, 2, 3, 4]).unwrap();
    assert!(Board::empty_with(&five).solutions().next().is_none());
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
fn transforms_keep_the_board_and_explain_starts_from_the_allowed_digits() {
    let rules = Rules::new(Shape::NINE).with_odd(&[0]).unwrap();
    let board = rules.parse(&format!("1{}", ".".repeat(80))).unwrap();
    assert_eq!(board.transformed(3), board);
    assert_eq!(board.canonical(), None);
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
