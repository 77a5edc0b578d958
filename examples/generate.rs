//! Generates a puzzle with a unique solution: a random full grid of the
//! shape, then clues removed in random order while the solution stays unique.
//!
//! `cargo run --release --example generate -- BOX_ROWS BOX_COLS [SEED] [--x] [--clues N]`
//!
//! Without `--clues` the puzzle is minimal: each clue was removed if the
//! solution stayed unique without it, and removing clues never makes an
//! ambiguous puzzle unique again, so no clue left can go. `--clues N`
//! stops removing once N clues are left.
//!
//! The puzzles in `data/hard16.txt` and `data/hard25.txt` came from here.

use lazydoku::search;
use lazydoku::{Board, Shape};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let (rows, cols, seed) = (number(0, 3), number(1, 3), number(2, 1));
    let mut shape = Shape::try_new(usize::try_from(rows).unwrap(), usize::try_from(cols).unwrap())
        .expect("box sides of at least 2 and a side of at most 25");
    if args.iter().any(|a| a == "--x") {
        shape = shape.with_diagonals();
    }
    // The cells in a random order: a shuffled search of a one-level tree.
    let root = usize::MAX;
    let cells = shape.cells();
    let shuffled = |n: usize, seed: u64| -> Vec<usize> {
        search::shuffled_dfs(root, |&i| if i == root { 0..n } else { 0..0 }, seed).skip(1).collect()
    };
    // A random full grid: the top row a random order of the digits, the
    // rest solved (the solver restarts where a plain search can stall on
    // large boards).
    let mut top = ".".repeat(cells);
    let side = shape.side();
    let symbols = "123456789ABCDEFGHIJKLMNOP";
    let row: String = shuffled(side, seed).iter().map(|&d| &symbols[d..=d]).collect();
    top.replace_range(..side, &row);
    let grid = Board::parse_with(&top, shape).expect("one row of distinct digits").solve().expect("full grids exist");
    let order = shuffled(cells, seed ^ 0x5DEE_CE66);
    let floor: usize = args
        .iter()
        .position(|a| a == "--clues")
        .and_then(|i| args.get(i + 1))
        .map_or(0, |n| n.parse().expect("--clues takes a number"));
    let mut text: Vec<u8> = grid.as_str().bytes().collect();
    for cell in order {
        if text.iter().filter(|&&b| b != b'.').count() <= floor {
            break;
        }
        let kept = text[cell];
        text[cell] = b'.';
        let puzzle = Board::parse_with(std::str::from_utf8(&text).expect("ASCII"), shape).expect("valid");
        if puzzle.count_solutions(2) != 1 {
            text[cell] = kept;
        }
    }
    let puzzle = std::str::from_utf8(&text).expect("ASCII");
    let clues = text.iter().filter(|&&b| b != b'.').count();
    println!("{puzzle} # {shape}, {clues} clues, seed {seed}");
}
