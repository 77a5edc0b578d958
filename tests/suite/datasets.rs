//! Whole public datasets: every puzzle's solution count, and every solution
//! checked by a validity test that uses nothing of the library.

use crate::common;

use common::{is_solution_of, load};
use lazydoku::{Board, Rules, Shape};

/// Each puzzle has exactly one solution, and it is a valid grid that keeps
/// the givens.
fn all_unique(name: &str, expected_puzzles: usize) {
    let puzzles = load(name);
    assert_eq!(puzzles.len(), expected_puzzles, "{name}: puzzle count");
    for (i, line) in puzzles.iter().enumerate() {
        let board: Board = line.parse().unwrap_or_else(|e| panic!("{name} #{i}: {e}"));
        let mut solutions = board.solutions();
        let first = solutions.next().unwrap_or_else(|| panic!("{name} #{i}: no solution"));
        assert!(is_solution_of(line, first.as_str(), 3, 3, false), "{name} #{i}: invalid {first}");
        assert_eq!(solutions.next(), None, "{name} #{i}: a second solution");
        assert_eq!(board.count_solutions(2), 1, "{name} #{i}");
    }
}

#[test]
fn every_17_clue_puzzle_is_unique() {
    all_unique("puzzles2_17_clue", 49_158);
}

#[test]
fn norvig_top95_puzzles_are_unique() {
    all_unique("norvig_top95.txt", 95);
}

#[test]
fn norvig_hardest_puzzles_are_unique() {
    all_unique("norvig_hardest.txt", 11);
}

#[test]
fn magictour_top1465_puzzles_are_unique() {
    all_unique("puzzles3_magictour_top1465", 1_465);
}

#[test]
fn every_serg_puzzle_has_several_solutions() {
    let puzzles = load("puzzles7_serg_benchmark");
    assert_eq!(puzzles.len(), 10_000);
    for (i, line) in puzzles.iter().enumerate() {
        let board: Board = line.parse().unwrap_or_else(|e| panic!("serg #{i}: {e}"));
        let two: Vec<Board> = board.solutions().take(2).collect();
        assert_eq!(two.len(), 2, "serg #{i}: {line}");
        assert_ne!(two[0], two[1], "serg #{i}");
        for s in &two {
            assert!(is_solution_of(line, s.as_str(), 3, 3, false), "serg #{i}: invalid {s}");
        }
        assert_eq!(board.count_solutions(2), 2, "serg #{i}");
    }
}

#[test]
fn the_77_clue_puzzle_has_exactly_two_solutions() {
    let line = "003496758587132469694875213008763945946581327375924186761259834852347691439618572";
    let board: Board = line.parse().unwrap();
    let all: Vec<Board> = board.solutions().collect();
    assert_eq!(all.len(), 2);
    assert_eq!(board.count_solutions(usize::MAX), 2);
    assert!(!board.is_unique());
    for s in &all {
        assert!(is_solution_of(line, s.as_str(), 3, 3, false));
    }
}

#[test]
fn norvig_hard1_has_many_solutions_and_counting_stops_at_the_limit() {
    let line = &load("norvig_hard1.txt")[0];
    let board: Board = line.parse().unwrap();
    assert_eq!(board.count_solutions(1_000), 1_000);
    let distinct: std::collections::HashSet<Board> = board.solutions().take(1_000).collect();
    assert_eq!(distinct.len(), 1_000);
}

#[test]
fn the_empty_board_yields_a_thousand_distinct_valid_grids() {
    let empty: Board = ".".repeat(81).parse().unwrap();
    let first: Vec<Board> = empty.solutions().take(1_000).collect();
    assert_eq!(first.len(), 1_000);
    let distinct: std::collections::HashSet<&str> = first.iter().map(Board::as_str).collect();
    assert_eq!(distinct.len(), 1_000);
    for s in &first {
        assert!(is_solution_of(&".".repeat(81), s.as_str(), 3, 3, false), "{s}");
    }
}

#[test]
fn a_well_formed_puzzle_without_solution_gives_none_and_zero() {
    // Row 1 needs a 9 in its last cell, but column 9 already has one lower down.
    let line = &("12345678.".to_string() + &".".repeat(71) + "9");
    let board: Board = line.parse().unwrap();
    assert_eq!(line.len(), 81);
    assert_eq!(board.solve(), None);
    assert_eq!(board.count_solutions(2), 0);
    assert!(!board.is_unique());
    assert_eq!(board.solutions().count(), 0);

    // Norvig's hardest #2 with a wrong 2 added in its first cell: no rule is
    // broken and every empty cell keeps two or more candidates, so only the
    // search can tell.
    let deeper = "2.53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..";
    let board: Board = deeper.parse().unwrap();
    assert_eq!(board.count_solutions(2), 0);
}

/// The general engine against the 9x9 one on public puzzles: a jigsaw map of
/// the boxes is the classic board itself, and a box given again as an extra
/// region changes nothing about the solutions but moves the board onto the
/// engine for any rules. They must agree on the count to 2, and on the
/// solution when it is unique.
fn general_engine_agrees(name: &str, every: usize) {
    let boxes: String = (0..81).map(|c| char::from(b'a' + u8::try_from(c / 27 * 3 + c % 9 / 3).unwrap())).collect();
    let map = Rules::new(Shape::NINE).with_regions(&boxes).unwrap();
    assert_eq!(map, Rules::new(Shape::NINE));
    let redundant = map.with_region(&[0, 1, 2, 9, 10, 11, 18, 19, 20]).unwrap();
    assert!(!redundant.is_classic());
    for (i, line) in load(name).iter().enumerate().step_by(every) {
        let classic: Board = line.parse().unwrap();
        let general = redundant.parse(line).unwrap();
        let solved = general.solve().unwrap_or_else(|| panic!("{name} #{i}: no solution"));
        assert!(is_solution_of(line, solved.as_str(), 3, 3, false), "{name} #{i}: invalid {solved}");
        let count = general.count_solutions(2);
        assert_eq!(count, classic.count_solutions(2), "{name} #{i}");
        if count == 1 {
            assert_eq!(Some(solved.as_str()), classic.solve().as_ref().map(Board::as_str), "{name} #{i}");
        }
    }
}

#[test]
fn the_general_engine_agrees_on_norvig_top95() {
    general_engine_agrees("norvig_top95.txt", 1);
}

#[test]
#[ignore = "release mode: run by .ci/run"]
fn the_general_engine_agrees_on_public_9x9_sets() {
    general_engine_agrees("puzzles2_17_clue", 50);
    general_engine_agrees("puzzles3_magictour_top1465", 5);
    general_engine_agrees("puzzles5_forum_hardest_1905_11+", 20);
    general_engine_agrees("puzzles7_serg_benchmark", 100);
}

/// 16x16 counts to 2, which the general engine answers with randomized
/// dives beside its depth-first count: the unique puzzles stay at 1 and
/// those with clues removed reach 2, as CP-SAT counts them too
/// (`benches/peers/sizes.sh`). Every solution found is checked.
#[test]
fn counts_to_two_on_16x16_agree_with_the_solutions() {
    for (name, expected) in [("hard16.txt", 1), ("removed16.txt", 2)] {
        for (i, line) in load(name).iter().enumerate() {
            let board: Board = line.parse().unwrap_or_else(|e| panic!("{name} #{i}: {e}"));
            assert_eq!(board.count_solutions(2), expected, "{name} #{i}");
            let solutions: Vec<Board> = board.solutions().take(2).collect();
            assert_eq!(solutions.len(), expected, "{name} #{i}");
            for solution in &solutions {
                assert!(is_solution_of(line, solution.as_str(), 4, 4, false), "{name} #{i}: invalid {solution}");
            }
        }
    }
}

/// 25x25 counts that run long enough to go to clause learning: the
/// minimal puzzles are unique, and two puzzles on the edge of uniqueness
/// have two solutions each, as CP-SAT counts them (`benches/peers/sizes.sh`).
#[test]
fn long_25x25_counts_agree_with_cp_sat() {
    for (i, line) in load("minimal25.txt").iter().enumerate() {
        let board: Board = line.parse().unwrap();
        assert_eq!(board.count_solutions(2), 1, "minimal25 #{i}");
    }
    let edge = load("edge25.txt");
    for i in [2, 4] {
        let board: Board = edge[i].parse().unwrap();
        assert_eq!(board.count_solutions(2), 2, "edge25 #{i}");
    }
}

/// Counts 24x24 puzzles (boxes of 4 rows by 6 columns) to 2, expecting
/// `expected`, and checks every solution found.
fn counts_to_two_on_24x24(name: &str, expected: usize, lines: &[String]) {
    for (i, line) in lines.iter().enumerate() {
        let board: Board = line.parse().unwrap_or_else(|e| panic!("{name} #{i}: {e}"));
        assert_eq!(board.shape(), Shape::new(4, 6), "{name} #{i}");
        assert_eq!(board.count_solutions(2), expected, "{name} #{i}");
        let solutions: Vec<Board> =
            if expected == 1 { board.solve().into_iter().collect() } else { board.solutions().take(2).collect() };
        assert_eq!(solutions.len(), expected, "{name} #{i}");
        for solution in &solutions {
            assert!(is_solution_of(line, solution.as_str(), 4, 6, false), "{name} #{i}: invalid {solution}");
        }
    }
}

/// The first minimal 24x24 puzzle is unique, and its four versions with
/// clues removed have two solutions or more, as CP-SAT counts them
/// (`benches/peers/sizes.sh`).
#[test]
fn counts_to_two_on_24x24_agree_with_cp_sat() {
    counts_to_two_on_24x24("minimal24.txt", 1, &load("minimal24.txt")[..1]);
    counts_to_two_on_24x24("removed24.txt", 2, &load("removed24.txt")[..4]);
}

/// Every puzzle of `data/minimal24.txt` and `data/removed24.txt`, counts
/// that clause learning finishes: about 20 s in release mode.
#[test]
#[ignore = "about 20 s; run with --include-ignored"]
fn every_24x24_count_agrees_with_cp_sat() {
    counts_to_two_on_24x24("minimal24.txt", 1, &load("minimal24.txt"));
    counts_to_two_on_24x24("removed24.txt", 2, &load("removed24.txt"));
}

/// Every puzzle of `data/edge25.txt`: five with one solution and nine with
/// two, as CP-SAT counts them. About 30 s in release mode.
#[test]
#[ignore = "about 30 s; run with --include-ignored"]
fn edge25_counts_agree_with_cp_sat() {
    let counts: Vec<usize> =
        load("edge25.txt").iter().map(|line| line.parse::<Board>().unwrap().count_solutions(2)).collect();
    assert_eq!(counts, [2, 2, 2, 1, 2, 2, 1, 2, 2, 1, 2, 1, 1, 2]);
}
