//! Exact cover against published counts, N-queens, and Sudoku posed as an
//! exact cover against `Board`.

use lazydoku::{Board, ExactCover, search};
use rayon::prelude::*;

use crate::common;

/// The twelve pentominoes, as cells (column, row).
const PENTOMINOES: [[(i32, i32); 5]; 12] = [
    [(1, 0), (2, 0), (0, 1), (1, 1), (1, 2)], // F
    [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)], // I
    [(0, 0), (0, 1), (0, 2), (0, 3), (1, 3)], // L
    [(1, 0), (1, 1), (0, 2), (1, 2), (0, 3)], // N
    [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)], // P
    [(0, 0), (1, 0), (2, 0), (1, 1), (1, 2)], // T
    [(0, 0), (2, 0), (0, 1), (1, 1), (2, 1)], // U
    [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2)], // V
    [(0, 0), (0, 1), (1, 1), (1, 2), (2, 2)], // W
    [(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)], // X
    [(1, 0), (0, 1), (1, 1), (1, 2), (1, 3)], // Y
    [(0, 0), (1, 0), (1, 1), (1, 2), (2, 2)], // Z
];

/// Every placement of every pentomino in a `width` x `height` box: a column
/// per piece, then a column per cell.
fn pentomino_tilings(width: i32, height: i32) -> ExactCover {
    let cells = usize::try_from(width * height).unwrap();
    let mut problem = ExactCover::new(12 + cells);
    for (piece, shape) in PENTOMINOES.iter().enumerate() {
        let mut orientations: Vec<Vec<(i32, i32)>> = Vec::new();
        for turn in 0..8 {
            let mut cells: Vec<(i32, i32)> = shape
                .iter()
                .map(|&(x, y)| {
                    let (x, y) = if turn & 4 != 0 { (-x, y) } else { (x, y) };
                    match turn & 3 {
                        0 => (x, y),
                        1 => (-y, x),
                        2 => (-x, -y),
                        _ => (y, -x),
                    }
                })
                .collect();
            let (min_x, min_y) = (cells.iter().map(|c| c.0).min().unwrap(), cells.iter().map(|c| c.1).min().unwrap());
            for cell in &mut cells {
                *cell = (cell.0 - min_x, cell.1 - min_y);
            }
            cells.sort_unstable();
            if !orientations.contains(&cells) {
                orientations.push(cells);
            }
        }
        for cells in &orientations {
            for dx in 0..width {
                for dy in 0..height {
                    let placed: Option<Vec<usize>> = cells
                        .iter()
                        .map(|&(x, y)| {
                            let (x, y) = (x + dx, y + dy);
                            (x < width && y < height).then(|| 12 + usize::try_from(y * width + x).unwrap())
                        })
                        .collect();
                    if let Some(mut columns) = placed {
                        columns.push(piece);
                        problem.add_row(&columns);
                    }
                }
            }
        }
    }
    problem
}

#[test]
fn pentominoes_tile_3x20_and_4x15_boxes_as_published() {
    // 8 and 1,472 tilings: 2 and 368 up to the box's 4 symmetries.
    assert_eq!(pentomino_tilings(20, 3).count_solutions(usize::MAX), 8);
    assert_eq!(pentomino_tilings(15, 4).count_solutions(usize::MAX), 1_472);
    let tilings: Vec<Vec<usize>> = pentomino_tilings(20, 3).solutions().collect();
    assert_eq!(tilings.len(), 8);
    assert!(tilings.iter().all(|rows| rows.len() == 12 && rows.is_sorted()));
}

#[test]
#[ignore = "a release-mode check: cargo test --release --test suite -- --ignored"]
fn pentominoes_tile_5x12_and_6x10_boxes_as_published() {
    assert_eq!(pentomino_tilings(12, 5).par_count_solutions(usize::MAX), 4_040);
    assert_eq!(pentomino_tilings(10, 6).par_count_solutions(usize::MAX), 9_356);
}

/// N-queens as exact cover: ranks and files primary, diagonals secondary.
fn queens(n: usize) -> ExactCover {
    let mut problem = ExactCover::with_secondary(2 * n, 2 * (2 * n - 1));
    for r in 0..n {
        for c in 0..n {
            problem.add_row(&[r, n + c, 2 * n + r + c, 2 * n + (2 * n - 1) + (n - 1 + r - c)]);
        }
    }
    problem
}

#[test]
fn n_queens_counts_through_secondary_columns_and_as_a_search() {
    let known = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2_680, 14_200];
    for (n, &count) in (1..=10).zip(&known) {
        assert_eq!(queens(n).count_solutions(usize::MAX), count, "{n} queens");
        assert_eq!(queens(n).par_count_solutions(usize::MAX), count, "{n} queens in parallel");
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
