//! Counts solutions over a dataset, up to LIMIT each (default 2), for profilers:
//! `cargo run --release --example profile -- FILE [REPEAT [LIMIT]]`.

#![expect(clippy::cast_precision_loss, reason = "counts far below 2^52")]
use lazydoku::Board;
fn main() {
    let path = std::env::args().nth(1).expect("a dataset file");
    let text = std::fs::read_to_string(path).expect("readable");
    let boards: Vec<Board> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().next().unwrap().parse().expect("puzzle"))
        .collect();
    let repeat: usize = std::env::args().nth(2).map_or(1, |n| n.parse().expect("a repeat count"));
    let limit: usize = std::env::args().nth(3).map_or(2, |n| n.parse().expect("a limit"));
    let start = std::time::Instant::now();
    let mut total = 0;
    for _ in 0..repeat {
        total += count_all(&boards, limit);
    }
    let secs = start.elapsed().as_secs_f64() / repeat as f64;
    println!("{} puzzles, {total} solutions counted, {:.2} µs/puzzle", boards.len(), secs * 1e6 / boards.len() as f64);
}

/// Kept out of line so that profilers can collect this function alone.
#[inline(never)]
fn count_all(boards: &[Board], limit: usize) -> usize {
    boards.iter().map(|b| b.count_solutions(limit)).sum()
}
