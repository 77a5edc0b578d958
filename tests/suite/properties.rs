//! Property tests: the search and the board against simple references.

use crate::common;

use std::collections::BTreeSet;

use common::{brute_count, is_solution_of, shuffled_grid};
use lazydoku::format::Parser;
use lazydoku::{Board, search};
use proptest::prelude::*;

/// `grid` with the cells where `keep` is false emptied.
fn puzzle_from(grid: &str, keep: &[bool]) -> String {
    grid.chars().zip(keep).map(|(c, &k)| if k { c } else { '.' }).collect()
}

fn set(it: impl Iterator<Item = Board>) -> BTreeSet<String> {
    it.map(|b| b.as_str().to_owned()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn shuffled_grids_are_valid(seed in any::<u64>()) {
        let grid = shuffled_grid(3, 3, seed);
        prop_assert!(is_solution_of(&grid, &grid, 3, 3, false), "{}", grid);
    }

    /// Random 9x9 puzzles: every solution keeps the givens and is valid, and
    /// DFS, BFS and best-first find the same set.
    #[test]
    fn orders_agree_and_solutions_keep_the_givens(
        seed in any::<u64>(),
        keep in prop::collection::vec(prop::bool::weighted(0.45), 81),
    ) {
        let grid = shuffled_grid(3, 3, seed);
        let text = puzzle_from(&grid, &keep);
        let board: Board = text.parse().unwrap();
        // Cap the enumeration: sparse puzzles can have millions of solutions.
        let dfs: Vec<Board> = board.solutions().take(500).collect();
        prop_assert!(!dfs.is_empty(), "the grid it came from is a solution");
        for s in &dfs {
            prop_assert!(is_solution_of(&text, s.as_str(), 3, 3, false), "{}", s);
        }
        let dfs = set(dfs.into_iter());
        prop_assume!(dfs.len() < 500);
        let bfs = set(search::bfs(board.clone(), Board::children).filter(Board::is_complete));
        let best = set(search::best_first(board.clone(), Board::children, Board::empty_cells).filter(Board::is_complete));
        prop_assert_eq!(&dfs, &bfs);
        prop_assert_eq!(&dfs, &best);
        prop_assert!(dfs.contains(&grid));
    }

    /// Small boards, where brute force is quick: the count agrees with it.
    #[test]
    fn counts_agree_with_brute_force_on_4x4(
        seed in any::<u64>(),
        keep in prop::collection::vec(prop::bool::weighted(0.3), 16),
        // Some puzzles get a random extra given that may break them.
        extra in prop::option::of((0usize..16, 1u8..=4)),
    ) {
        let mut text: Vec<u8> = puzzle_from(&shuffled_grid(2, 2, seed), &keep).into_bytes();
        if let Some((cell, digit)) = extra {
            text[cell] = b'0' + digit;
        }
        let text = String::from_utf8(text).unwrap();
        let brute = brute_count(&text, 2, 2, false, usize::MAX);
        match text.parse::<Board>() {
            Ok(board) => {
                prop_assert_eq!(board.solutions().count(), brute, "{}", text);
                prop_assert_eq!(board.count_solutions(2), brute.min(2));
                prop_assert_eq!(board.is_unique(), brute == 1);
            }
            // Rejected only for clashing givens, which brute force sees as no solution.
            Err(e) => prop_assert_eq!(brute, 0, "{}: {}", text, e),
        }
    }

    #[test]
    fn count_agrees_with_brute_force_on_dense_9x9(
        seed in any::<u64>(),
        keep in prop::collection::vec(prop::bool::weighted(0.6), 81),
    ) {
        let text = puzzle_from(&shuffled_grid(3, 3, seed), &keep);
        let board: Board = text.parse().unwrap();
        prop_assert_eq!(board.count_solutions(3), brute_count(&text, 3, 3, false, 3));
    }

    /// Counting, which counts the completions of nearly solved 9x9 boards
    /// cell by cell instead of searching them, agrees with enumerating the
    /// solutions, at every limit; so does counting each child, whose
    /// counts add up to its parent's.
    #[test]
    fn count_agrees_with_enumeration_on_9x9(
        seed in any::<u64>(),
        keep in prop::collection::vec(prop::bool::weighted(0.45), 81),
        limit in 1usize..60,
        // Some puzzles get a random extra given that may break them.
        extra in prop::option::of((0usize..81, 1u8..=9)),
    ) {
        let mut text: Vec<u8> = puzzle_from(&shuffled_grid(3, 3, seed), &keep).into_bytes();
        if let Some((cell, digit)) = extra {
            text[cell] = b'0' + digit;
        }
        let text = String::from_utf8(text).unwrap();
        let Ok(board) = text.parse::<Board>() else { return Ok(()) };
        let listed = board.solutions().take(limit).count();
        prop_assert_eq!(board.count_solutions(limit), listed, "{}", text);
        if listed < limit {
            // All of them: counted before the search starts, and one by one
            // after the first.
            prop_assert_eq!(board.solutions().count(), listed, "{}", text);
            let mut started = board.solutions();
            let first = started.next();
            prop_assert_eq!(usize::from(first.is_some()) + started.count(), listed, "{}", text);
        }
        if listed < limit {
            let by_child: usize = board.children().map(|c| c.count_solutions(usize::MAX)).sum();
            prop_assert_eq!(by_child, listed, "{}", text);
        }
    }

    /// Every rendering of a board reads back to the same board.
    #[test]
    fn formats_round_trip(seed in any::<u64>(), keep in prop::collection::vec(any::<bool>(), 81)) {
        let board: Board = puzzle_from(&shuffled_grid(3, 3, seed), &keep).parse().unwrap();
        prop_assert_eq!(&board.to_string().parse::<Board>().unwrap(), &board);
        prop_assert_eq!(&format!("{board:#}").parse::<Board>().unwrap(), &board);
        let (again, layout) = Parser::new().parse(&format!("{board:#}")).unwrap();
        prop_assert_eq!(layout.render(&again), format!("{board:#}"));
    }

    /// The allocation-free reader of bare 81-character lines agrees with the
    /// full reader (`parse` always takes the full path), errors included.
    #[test]
    fn the_fast_line_reader_agrees_with_the_full_one(
        seed in any::<u64>(),
        keep in prop::collection::vec(any::<bool>(), 81),
        noise in prop::collection::vec((0usize..81, "[0-9._xA ]"), 0..3),
    ) {
        let mut text: Vec<char> = puzzle_from(&shuffled_grid(3, 3, seed), &keep).chars().collect();
        for (at, ch) in &noise {
            text[*at] = ch.chars().next().unwrap();
        }
        let text: String = text.into_iter().collect();
        let fast = Parser::new().parse_board(&text);
        let full = Parser::new().parse(&text).map(|(board, _)| board);
        prop_assert_eq!(fast, full, "{}", text);
    }

    /// No string makes the parser panic.
    #[test]
    fn parsing_never_panics(text in "\\PC{0,200}") {
        let _ = text.parse::<Board>();
    }

    #[test]
    fn parsing_near_misses_never_panics(text in "[\\[\\]0-9.,_| \\n\\-+nul]{0,300}") {
        let _ = text.parse::<Board>();
    }
}
