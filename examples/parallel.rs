//! Parallel search against one core, side by side in one run: every
//! solution of the empty 6x6 board (28,200,960), every node of the
//! 12-queens tree, and counts of large puzzles whose few solutions hide in
//! large trees, where clause learning races the shared count.
//!
//! ```sh
//! cargo run --release --example parallel [ROUNDS]
//! ```
//!
//! Each figure is the best of ROUNDS runs (default 3); the one-core runs use
//! a rayon pool of one thread, so both sides run the same code.

use std::time::Instant;

use lazydoku::{Board, Shape, search};
use rayon::prelude::*;

fn best_of(rounds: usize, mut run: impl FnMut() -> usize) -> (usize, f64) {
    let mut best = f64::INFINITY;
    let mut result = 0;
    for _ in 0..rounds.max(1) {
        let start = Instant::now();
        result = run();
        best = best.min(start.elapsed().as_secs_f64());
    }
    (result, best)
}

fn queens(n: usize) -> impl Fn(&Vec<usize>) -> Vec<Vec<usize>> + Sync + Send {
    move |placed: &Vec<usize>| {
        let row = placed.len();
        (0..n)
            .filter(|&c| placed.iter().enumerate().all(|(r, &q)| q != c && q.abs_diff(c) != row - r))
            .map(|c| [placed.as_slice(), &[c]].concat())
            .collect()
    }
}

/// Line `n` (from 1) of a file of `data/`, with whatever it holds beside
/// the givens (a killer puzzle's cages).
fn puzzle(file: &str, n: usize) -> Board {
    let path = format!("{}/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the data files are in the repository");
    let line = text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).nth(n - 1).expect("the line");
    line.parse().expect("a valid puzzle")
}

fn main() {
    let rounds = std::env::args().nth(1).and_then(|r| r.parse().ok()).unwrap_or(3);
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a pool");
    let all = rayon::ThreadPoolBuilder::new().num_threads(cores).build().expect("a pool");
    let six = Board::empty(Shape::new(2, 3));
    let minimal = puzzle("minimal25.txt", 3);
    let removed = puzzle("removed25.txt", 1);
    let killer = puzzle("killer16.txt", 1);
    let tasks: [(&str, &(dyn Fn() -> usize + Sync)); 6] = [
        ("empty 6x6, par_count_solutions", &|| six.par_count_solutions(usize::MAX)),
        ("minimal25.txt line 3, par_count_solutions(17)", &|| minimal.par_count_solutions(17)),
        ("removed25.txt line 1, par_count_solutions", &|| removed.par_count_solutions(usize::MAX)),
        ("killer16.txt line 1, par_count_solutions", &|| killer.par_count_solutions(usize::MAX)),
        ("12 queens, par_dfs, every node", &|| search::par_dfs(Vec::new(), queens(12)).count()),
        ("12 queens, par_dfs, solutions", &|| {
            search::par_dfs(Vec::new(), queens(12)).filter(|p| p.len() == 12).count()
        }),
    ];
    println!("{cores} cores");
    for (name, task) in tasks {
        let (n1, t1) = one.install(|| best_of(rounds, task));
        let (n, t) = all.install(|| best_of(rounds, task));
        assert_eq!(n1, n, "{name}: the same count on one core and on all");
        println!("{name}: {n}; one core {t1:.2} s, {cores} cores {t:.2} s, speed-up {:.2}", t1 / t);
    }
    let (n, t) = best_of(rounds, || six.count_solutions(usize::MAX));
    println!("empty 6x6, count_solutions (sequential): {n} in {t:.2} s");
}
