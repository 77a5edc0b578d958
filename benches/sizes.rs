//! Benches for boards other than 9x9: enumerating the empty 6x6 board
//! (28,200,960 solutions), solving hard 16x16 and 25x25 puzzles, and 9x9
//! killer puzzles with no givens or few.
//!
//! Answers are checked before anything is timed.
//!
//! Run: `cargo bench --bench sizes`

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use lazydoku::{Board, Rules, Shape};

fn load(name: &str) -> Vec<Board> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.parse().unwrap_or_else(|e| panic!("{name}: {e}")))
        .collect()
}

fn enumeration(c: &mut Criterion) {
    let six = Board::empty(Shape::new(2, 3));
    let mut group = c.benchmark_group("empty_6x6");
    group.sample_size(10).measurement_time(Duration::from_secs(20)).warm_up_time(Duration::from_secs(1));
    group.bench_function("all_28_200_960_solutions", |b| {
        b.iter(|| {
            let n = black_box(&six).solutions().count();
            assert_eq!(n, 28_200_960);
            n
        });
    });
    group.finish();
    let four = Board::empty(Shape::new(2, 2));
    assert_eq!(four.solutions().count(), 288);
    c.bench_function("empty_4x4/all_288_solutions", |b| b.iter(|| black_box(&four).solutions().count()));
}

fn hard(c: &mut Criterion) {
    for name in ["hard16.txt", "hard25.txt"] {
        let boards = load(name);
        for board in &boards {
            assert_eq!(board.count_solutions(2), 1, "{name}");
        }
        let mut group = c.benchmark_group(name);
        group.sample_size(10).measurement_time(Duration::from_secs(5));
        group.bench_function("count_to_2_all", |b| {
            b.iter(|| boards.iter().map(|board| black_box(board).count_solutions(2)).sum::<usize>());
        });
        group.finish();
    }
}

fn killer(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/killer9.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    // Each line: the givens, then the cage map with its sums.
    let boards: Vec<Board> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (givens, cages) = l.split_once(' ').expect("givens and cages");
            let rules = Rules::new(Shape::NINE).with_cage_map(cages).expect("a cage map");
            rules.parse(givens).expect("a killer puzzle")
        })
        .collect();
    for board in &boards {
        assert_eq!(board.count_solutions(2), 1);
    }
    let mut group = c.benchmark_group("killer9.txt");
    group.sample_size(10).measurement_time(Duration::from_secs(5));
    group.bench_function("count_to_2_all", |b| {
        b.iter(|| boards.iter().map(|board| black_box(board).count_solutions(2)).sum::<usize>());
    });
    group.finish();
}

criterion_group!(benches, enumeration, hard, killer);
criterion_main!(benches);
