//! Parallel search against one thread, side by side: each task runs in a
//! rayon pool of one thread and in a pool of every core, so both sides run
//! the same code and the ratio of the two is the speed-up.
//!
//! - `queens_13`: every node of the 13-queens tree (4,601,179 nodes,
//!   73,712 solutions) through `search::par_dfs(..).counter(..)`;
//! - `6x6_first_row`: the 39,168 solutions of the 6x6 board with its first
//!   row given, through `Board::par_count_solutions`;
//! - `pentominoes_4x15`: the 1,472 tilings of a 4x15 box through
//!   `ExactCover::par_count_solutions`.
//!
//! Run: `cargo bench --bench parallel`. The empty 6x6 board, too slow for
//! repeated samples, is in `cargo run --release --example parallel`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use lazydoku::{Board, ExactCover, search};
use rayon::ThreadPool;

/// N-queens over bitmasks: placed rows, attacked files and diagonals.
#[derive(Clone, Copy)]
struct Queens {
    n: u32,
    placed: u32,
    files: u32,
    rising: u32,
    falling: u32,
}

impl Queens {
    fn children(&self) -> impl Iterator<Item = Queens> + Send + use<> {
        let parent = *self;
        let board = (1u32 << parent.n) - 1;
        let mut free =
            if parent.placed == parent.n { 0 } else { board & !(parent.files | parent.rising | parent.falling) };
        std::iter::from_fn(move || {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            (bit != 0).then(|| Queens {
                placed: parent.placed + 1,
                files: parent.files | bit,
                rising: ((parent.rising | bit) << 1) & board,
                falling: (parent.falling | bit) >> 1,
                ..parent
            })
        })
    }
}

fn pools() -> [(String, ThreadPool); 2] {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let pool = |threads| rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a thread pool");
    [("1_thread".to_owned(), pool(1)), (format!("{cores}_threads"), pool(cores))]
}

fn parallel(c: &mut Criterion) {
    let thirteen = Queens { n: 13, placed: 0, files: 0, rising: 0, falling: 0 };
    let queens = || search::par_dfs(thirteen, Queens::children).counter(|q: &Queens| q.placed == q.n).up_to(usize::MAX);
    let six: Board = format!("123456{}", ".".repeat(30)).parse().expect("a 6x6 board");
    let tiles = ExactCover::pentominoes(15, 4);

    // Answers first, untimed.
    assert_eq!(queens(), 73_712);
    assert_eq!(six.par_count_solutions(usize::MAX), 39_168);
    assert_eq!(tiles.par_count_solutions(usize::MAX), 1_472);

    let mut group = c.benchmark_group("parallel");
    group.sample_size(10).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_secs(1));
    for (threads, pool) in pools() {
        group.bench_function(format!("queens_13/{threads}"), |b| b.iter(|| pool.install(queens)));
        group.bench_function(format!("6x6_first_row/{threads}"), |b| {
            b.iter(|| pool.install(|| black_box(&six).par_count_solutions(usize::MAX)));
        });
        group.bench_function(format!("pentominoes_4x15/{threads}"), |b| {
            b.iter(|| pool.install(|| black_box(&tiles).par_count_solutions(usize::MAX)));
        });
    }
    group.finish();
}

criterion_group!(benches, parallel);
criterion_main!(benches);
