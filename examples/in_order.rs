//! Solutions in order on every core against `solutions()` on one, side by
//! side in one run: each solution written out as a line of text, by the
//! threads in `par_solutions_in_order` and by the one loop in
//! `solutions()`.
//!
//! ```sh
//! cargo run --release --example in_order [ROUNDS]
//! ```
//!
//! Two puzzles: the first 300,000 solutions of `data/hard16.txt`'s first
//! puzzle with ten of its givens taken out, each some microseconds to
//! find, and every solution of `data/million.txt`'s puzzle (1,039,784),
//! each some 200 ns. The rounds alternate the two ways; each round prints
//! both times and their ratio.

use std::time::Instant;

use lazydoku::Board;

/// `data/hard16.txt`'s first puzzle with ten givens taken out.
const SIXTEEN: &str = ".3...6.....4..E.C.D4.2....6.......91.3...5...8.F.......G92....75...AD.6..18......G....2..........6....4E...F..2G7..E..C.5..G.9.66......4.B......5..D9..7G.E.F.....B..DF...728..E....1........4......G.....B8.F..857.2.......1..9E4F..5.6..3..AD.G....8.9.75.B3..";

/// Adds a solution's line to a batch of text; a batch is full at 64 KiB.
fn write_line(text: &mut String, solution: &Board) -> bool {
    text.push_str(solution.as_str());
    text.push('\n');
    text.len() >= 1 << 16
}

/// Lines and bytes of the first `limit` solutions, written by one loop.
fn one_loop(board: &Board, limit: usize) -> (usize, usize) {
    let mut text = String::new();
    let (mut lines, mut bytes) = (0, 0);
    for solution in board.solutions().take(limit) {
        lines += 1;
        if write_line(&mut text, &solution) {
            bytes += text.len();
            text.clear();
        }
    }
    (lines, bytes + text.len())
}

/// The same on `threads` threads; the last batch may run past `limit`.
fn in_order(board: &Board, limit: usize, threads: usize) -> (usize, usize) {
    let (mut lines, mut bytes) = (0, 0);
    for (text, count) in
        board.par_solutions_in_order(threads, |text: &mut String, solution| write_line(text, &solution))
    {
        lines += count;
        bytes += text.len();
        if lines >= limit {
            break;
        }
    }
    (lines, bytes)
}

fn main() {
    let rounds = std::env::args().nth(1).and_then(|r| r.parse().ok()).unwrap_or(3);
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let million = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/million.txt"))
        .expect("data/million.txt")
        .lines()
        .find(|line| !line.starts_with('#'))
        .expect("a puzzle")
        .to_owned();
    let puzzles = [("16x16, first 300,000", SIXTEEN, 300_000), ("million.txt, all", million.as_str(), usize::MAX)];
    println!("{cores} threads against one loop");
    for (name, puzzle, limit) in puzzles {
        let board: Board = puzzle.parse().expect("a puzzle");
        for round in 1..=rounds {
            let start = Instant::now();
            let (lines, _) = one_loop(&board, limit);
            let alone = start.elapsed().as_secs_f64();
            let start = Instant::now();
            let (threaded, _) = in_order(&board, limit, cores);
            let together = start.elapsed().as_secs_f64();
            assert!(threaded >= lines, "{name}: as many solutions either way");
            println!(
                "{name}, round {round}: {lines} lines, one loop {alone:.3} s, {cores} threads {together:.3} s, {:.2} times as fast",
                alone / together
            );
        }
    }
}
