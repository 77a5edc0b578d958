//! Criterion benches over the public datasets: one group per dataset, with
//! "first solution" and "count to 2" (find a solution and prove it unique),
//! plus the enumeration of a puzzle with over a million solutions.
//!
//! Every bench checks its answers before it is timed, so that a fast wrong
//! answer cannot pass. Large datasets are sampled (their first puzzles) to
//! keep a run short; the comparison harness in `benches/peers` times them
//! whole.
//!
//! Run: `cargo bench --bench datasets`

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use lazydoku::Board;

/// Dataset, puzzles sampled, and the number of solutions each has when
/// counting to 2.
const DATASETS: &[(&str, usize, usize)] = &[
    ("puzzles2_17_clue", 2_000, 1),
    ("puzzles3_magictour_top1465", 1_465, 1),
    ("puzzles5_forum_hardest_1905_11+", 500, 1),
    ("puzzles6_forum_hardest_1106", 375, 1),
    ("puzzles7_serg_benchmark", 2_000, 2),
    ("norvig_top95.txt", 95, 1),
];

fn load(name: &str, take: usize) -> Vec<Board> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .take(take)
        .map(|l| l.parse().unwrap_or_else(|e| panic!("{name}: {e}")))
        .collect()
}

fn datasets(c: &mut Criterion) {
    for &(name, take, solutions) in DATASETS {
        let boards = load(name, take);
        // The answers, checked before anything is timed.
        for (i, board) in boards.iter().enumerate() {
            assert_eq!(board.count_solutions(2), solutions, "{name} #{i}");
            let first = board.solve().unwrap_or_else(|| panic!("{name} #{i}: no solution"));
            assert!(first.is_complete(), "{name} #{i}");
        }
        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Elements(boards.len() as u64));
        group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
        group.bench_function(BenchmarkId::new("first_solution", boards.len()), |b| {
            b.iter(|| boards.iter().filter_map(|board| black_box(board).solve()).count());
        });
        group.bench_function(BenchmarkId::new("count_to_2", boards.len()), |b| {
            b.iter(|| boards.iter().map(|board| black_box(board).count_solutions(2)).sum::<usize>());
        });
        group.finish();
    }
}

fn enumeration(c: &mut Criterion) {
    let board = &load("million.txt", 1)[0];
    assert_eq!(board.solutions().fold(0, |n, _board| n + 1), 1_039_784);
    assert_eq!(board.count_solutions(usize::MAX), 1_039_784);
    let mut group = c.benchmark_group("enumeration");
    group.throughput(Throughput::Elements(1_039_784));
    group.sample_size(10).measurement_time(Duration::from_secs(5));
    // Every solution built as a board (a fold: `count` would not build them).
    group.bench_function("million_all_solutions", |b| {
        b.iter(|| black_box(board).solutions().fold(0, |n, _board| n + 1));
    });
    // Counted: the last few empty cells of each branch counted, not built.
    group.bench_function("million_count_solutions", |b| b.iter(|| black_box(board).count_solutions(usize::MAX)));
    group.finish();
}

criterion_group!(benches, datasets, enumeration);
criterion_main!(benches);
