//! Exact cover against published counts, N-queens, and Sudoku posed as an
//! exact cover against `Board`.

use lazydoku::{Board, ExactCover, search};
use rayon::prelude::*;

use crate::common;

/// The tilings of a `width` x `height` box up to its four symmetries (the
/// two mirrors and the half turn): each tiling drawn as the piece on each
/// cell, and the smallest of its four images kept.
fn tilings_up_to_symmetry(width: usize, height: usize) -> usize {
    let problem = ExactCover::pentominoes(width, height);
    let drawings: std::collections::HashSet<Vec<usize>> = problem
        .solutions()
        .map(|rows| {
            let mut grid = vec![usize::MAX; width * height];
            for row in rows {
                let columns = problem.row(row);
                let piece = columns.iter().copied().find(|&c| c < 12).expect("a piece column");
                for &cell in columns.iter().filter(|&&c| c >= 12) {
                    assert_eq!(grid[cell - 12], usize::MAX, "a cell covered twice");
                    grid[cell - 12] = piece;
                }
            }
            assert!(grid.iter().all(|&p| p < 12), "a cell left uncovered");
            let image = |flip_x: bool, flip_y: bool| -> Vec<usize> {
                (0..width * height)
                    .map(|i| {
                        let (x, y) = (i % width, i / width);
                        let (x, y) = (if flip_x { width - 1 - x } else { x }, if flip_y { height - 1 - y } else { y });
                        grid[y * width + x]
                    })
                    .collect()
            };
            [image(false, false), image(true, false), image(false, true), image(true, true)]
                .into_iter()
                .min()
                .expect("four images")
        })
        .collect();
    drawings.len()
}

#[test]
fn pentominoes_tile_3x20_and_4x15_boxes_as_published() {
    // 8 and 1,472 tilings: 2 and 368 up to the box's 4 symmetries.
    assert_eq!(ExactCover::pentominoes(20, 3).count_solutions(usize::MAX), 8);
    assert_eq!(ExactCover::pentominoes(15, 4).count_solutions(usize::MAX), 1_472);
    let tilings: Vec<Vec<usize>> = ExactCover::pentominoes(20, 3).solutions().collect();
    assert_eq!(tilings.len(), 8);
    assert!(tilings.iter().all(|rows| rows.len() == 12 && rows.is_sorted()));
    assert_eq!(tilings_up_to_symmetry(20, 3), 2);
    assert_eq!(tilings_up_to_symmetry(15, 4), 368);
}

#[test]
#[ignore = "a release-mode check: cargo test --release --test suite -- --ignored"]
fn pentominoes_tile_5x12_and_6x10_boxes_as_published() {
    assert_eq!(ExactCover::pentominoes(12, 5).par_count_solutions(usize::MAX), 4_040);
    assert_eq!(ExactCover::pentominoes(10, 6).par_count_solutions(usize::MAX), 9_356);
    assert_eq!(tilings_up_to_symmetry(12, 5), 1_010);
    assert_eq!(tilings_up_to_symmetry(10, 6), 2_339);
}

#[test]
fn n_queens_counts_through_secondary_columns_and_as_a_search() {
    let known = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2_680, 14_200];
    for (n, &count) in (1..=10).zip(&known) {
        assert_eq!(ExactCover::queens(n).count_solutions(usize::MAX), count, "{n} queens");
        assert_eq!(ExactCover::queens(n).par_count_solutions(usize::MAX), count, "{n} queens in parallel");
    }
    // The plain search of the contract, to 12.
    for (n, &count) in (1..=12).zip(&known) {
        let successors = move |placed: &Vec<usize>| {
            let row = placed.len();
            (0..n)
                .filter(|&c| placed.iter().enumerate().all(|(r, &q)| q != c && q.abs_diff(c) != row - r))
                .map(|c| [placed.as_slice(), &[c]].concat())
                .collect::<Vec<_>>()
        };
        let found = search::par_dfs(Vec::new(), successors).filter(|p| p.len() == n).count();
        assert_eq!(found, count, "{n} queens");
    }
}

/// A 9x9 puzzle as exact cover: a row per cell and digit, columns for each
/// cell, and each digit in each row, column and box; givens keep one row.
fn sudoku(puzzle: &str) -> ExactCover {
    let mut problem = ExactCover::new(4 * 81);
    for (cell, symbol) in puzzle.bytes().enumerate() {
        let (r, c) = (cell / 9, cell % 9);
        let b = r / 3 * 3 + c / 3;
        for d in 0..9 {
            if symbol.is_ascii_digit() && symbol != b'0' && usize::from(symbol - b'1') != d {
                problem.add_row(&[]); // Keeps row numbers as cell * 9 + digit.
                continue;
            }
            problem.add_row(&[cell, 81 + r * 9 + d, 162 + c * 9 + d, 243 + b * 9 + d]);
        }
    }
    problem
}

#[test]
fn sudoku_as_exact_cover_agrees_with_boards_on_the_public_datasets() {
    for name in ["norvig_top95.txt", "puzzles2_17_clue", "puzzles6_forum_hardest_1106", "puzzles7_serg_benchmark"] {
        for puzzle in common::load(name).iter().take(40) {
            let board: Board = puzzle.parse().unwrap();
            let cover = sudoku(puzzle);
            assert_eq!(cover.count_solutions(2), board.count_solutions(2), "{name}: {puzzle}");
            if let Some(rows) = cover.solutions().next() {
                let text: String = rows.iter().map(|row| char::from(b'1' + u8::try_from(row % 9).unwrap())).collect();
                assert!(common::is_solution_of(puzzle, &text, 3, 3, false), "{name}: {puzzle} gave {text}");
                if board.is_unique() {
                    assert_eq!(Some(text.as_str()), board.solve().as_ref().map(Board::as_str));
                }
            }
        }
    }
}
