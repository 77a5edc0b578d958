//! lazydoku against the `sudoku` crate (a JCZSolve port) and tdoku, side by side.
//!
//! For each dataset: load and parse every puzzle once, then time
//! "find a solution and prove it unique" (count up to 2) for both solvers,
//! alternating rounds so that both see the same machine state. Each pass
//! is timed in chunks of [`CHUNK`] puzzles, and a solver's time is the sum
//! over chunks of each chunk's fastest round: a burst of load on this
//! shared machine then costs one chunk of one round, not a whole round, and
//! short sets run rounds until each solver has had [`MIN_TIMED`]. Every count is
//! compared between the two. The table follows tdoku's: microseconds per
//! puzzle, the ratio, guesses per puzzle and the share solved without a guess.
//! lazydoku's guesses are the children built at branches (the measure of
//! `Board::rate`); its decisions are that search counted as tdoku counts
//! its guesses, one per candidate tried while another is left, so the
//! decisions column is the one to set beside tdoku's. Both walk the tree of
//! `solutions()`, through the public `Board::children`; the timed count
//! branches where guesses failed earlier in it, over a smaller tree.
//!
//! Run: `cargo run --release --manifest-path benches/peers/Cargo.toml [-- --rounds N] [--permute SEED] [DATASET...]`
//!
//! tdoku joins the comparison when its sources are at hand: the build
//! script compiles them from `TDOKU_SRC` (by default `../shared/peers/tdoku`
//! beside the repository) with `-O3 -march=native`, into this harness
//! only. Without them it says so and skips tdoku. `--permute SEED` moves
//! each puzzle by a random symmetry of the grid first, the same for every
//! solver, as tdoku's own benchmark does.
//!
//! Besides datasets, the names `million.txt` (enumeration), `queens` (a walk
//! against `pathfinding`), `pentominoes` (exact cover against
//! `dancing-links`) and `generate` (minimal symmetric puzzles against the
//! `sudoku` crate's generator) pick those comparisons; no name runs all.
//! `logic` compares logical solving (lazydoku's `explain` against the
//! `sudoku` crate's `StrategySolver` with every strategy it implements): the share
//! of each dataset solved by logic alone and the time per puzzle; every
//! lazydoku step is checked against the solution. `canon` compares
//! canonical forms (`Board::canonical` against `Sudoku::canonicalized`).
//!
//! With `--solve-rate FILE...` it times the library parsing and solving
//! each line on one thread: the rate `lazydoku solve --jobs 1` is held to.
//!
//! With `--sizes FILE...` it times lazydoku alone on boards of any size, one
//! row per puzzle, for `benches/peers/sizes.sh` to compare with CP-SAT.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use lazydoku::{Board, search};

/// tdoku, compiled from `TDOKU_SRC` by the build script when its sources
/// are there (`cfg(tdoku)`); a peer to measure against, called through its
/// C entry point.
#[cfg(tdoku)]
mod tdoku {
    use std::ffi::c_char;

    unsafe extern "C" {
        fn TdokuSolverDpllTriadSimd(
            input: *const c_char,
            limit: usize,
            configuration: u32,
            solution: *mut c_char,
            num_guesses: *mut usize,
        ) -> usize;
    }

    /// A puzzle as tdoku reads it: 81 bytes, `.` for empty, then a NUL.
    pub struct Puzzle([u8; 82]);

    impl Puzzle {
        pub fn new(line: &str) -> Puzzle {
            let mut bytes = [0u8; 82];
            for (byte, cell) in bytes.iter_mut().zip(line.bytes()) {
                *byte = if cell.is_ascii_digit() && cell != b'0' { cell } else { b'.' };
            }
            Puzzle(bytes)
        }

        /// The solutions up to `limit`, and tdoku's guesses on the way.
        pub fn count(&self, limit: usize) -> (usize, usize) {
            let mut solution = [0u8; 82];
            let mut guesses = 0usize;
            // SAFETY: the input is 81 cells and a NUL, as tdoku reads it;
            // with a limit above 1 tdoku writes no solution, and the buffer
            // has room for one anyway; `guesses` is a valid place to write.
            let count = unsafe {
                TdokuSolverDpllTriadSimd(
                    self.0.as_ptr().cast(),
                    limit,
                    0,
                    solution.as_mut_ptr().cast(),
                    &raw mut guesses,
                )
            };
            (count, guesses)
        }
    }
}

/// Says once, at the top, whether tdoku takes part and how it was built.
fn tdoku_note() {
    if cfg!(tdoku) {
        println!("tdoku: from {}, built with {} -O3", env!("TDOKU_FOLDER"), env!("TDOKU_COMPILER"));
    } else {
        println!("tdoku: no sources at {} (set TDOKU_SRC to tdoku's folder): skipped", env!("TDOKU_FOLDER"));
    }
}

const DATASETS: &[&str] = &[
    "puzzles2_17_clue",
    "puzzles3_magictour_top1465",
    "puzzles5_forum_hardest_1905_11+",
    "puzzles6_forum_hardest_1106",
    "puzzles7_serg_benchmark",
    "norvig_top95.txt",
];

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data")
}

fn load(name: &str) -> Vec<String> {
    let path = data_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        // A name that is not one of the repository's datasets is the usual
        // cause: say which file, rather than a panic's backtrace.
        eprintln!("lazydoku-peers: cannot read dataset {name} ({}): {e}", path.display());
        std::process::exit(2)
    });
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split_whitespace().next().unwrap_or_default().to_owned())
        .collect()
}

/// Guesses made by the depth-first search of `solutions()` up to the second
/// solution (`lazydoku::explain::guesses`, the measure of
/// `Board::rate().guesses()`), checked against the count.
fn guesses(board: &Board) -> u64 {
    let (guesses, solutions) = lazydoku::explain::guesses(board);
    assert_eq!(solutions, board.count_solutions(2));
    guesses as u64
}

/// The same search's decisions counted as tdoku counts its guesses: one
/// for each candidate tried at a branch while another is left untried. A
/// branch on two candidates, both explored, is one decision (try the first;
/// the second is then forced) where [`guesses`] counts two children. Children
/// that fail count too, as tdoku counts a guess before it propagates.
fn decisions(board: &Board) -> u64 {
    /// [`lazydoku::board::Children`] noting the candidates each step tries.
    struct Counted<'a> {
        children: lazydoku::board::Children,
        decisions: &'a std::cell::Cell<u64>,
    }
    impl Iterator for Counted<'_> {
        type Item = Board;
        fn next(&mut self) -> Option<Board> {
            let before = self.children.remaining().len();
            let child = self.children.next();
            let after = self.children.remaining().len();
            if self.children.cell().is_some() && before > after {
                // Every candidate tried but the last of all is a decision.
                let tried = (before - after) as u64;
                self.decisions.set(self.decisions.get() + tried - u64::from(after == 0));
            }
            child
        }
    }
    let decisions = std::cell::Cell::new(0);
    let solutions = search::dfs(board.clone(), |b: &Board| Counted { children: b.children(), decisions: &decisions })
        .filter(Board::is_complete)
        .take(2)
        .count();
    assert_eq!(solutions, board.count_solutions(2));
    decisions.get()
}

/// Puzzles timed together in a count's pass ([`timed_chunks`]).
const CHUNK: usize = 64;
/// The least time a solver's rounds of one set add up to: a set of 95
/// easy puzzles takes a millisecond a round, so three rounds left a
/// ratio to chance (top95 0.69 to 0.83, top1465 0.86 to 1.09 over five
/// processes, where 15 rounds gave 0.71 to 0.86 and 0.83 to 0.87).
const MIN_TIMED: Duration = Duration::from_millis(500);
/// The most rounds a set gets while reaching [`MIN_TIMED`].
const MAX_ROUNDS: usize = 200;

/// One pass of `count` over `items`, timed [`CHUNK`] items at a time, each
/// chunk's time kept in `best` where it is the fastest yet. Returns the
/// counts' sum (for `black_box`) and the whole pass's time.
fn timed_chunks<T>(items: &[T], count: impl Fn(&T) -> usize, best: &mut [Duration]) -> (usize, Duration) {
    let (mut sum, mut spent) = (0, Duration::ZERO);
    for (chunk, best) in items.chunks(CHUNK).zip(best) {
        let start = Instant::now();
        sum += chunk.iter().map(&count).sum::<usize>();
        let t = start.elapsed();
        spent += t;
        *best = (*best).min(t);
    }
    (sum, spent)
}

fn time<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed())
}

/// Counting every solution of a puzzle with over a million of them, and,
/// for lazydoku, also yielding every solution as a board.
fn enumeration(rounds: usize) {
    let line = &load("million.txt")[0];
    let ours: Board = line.parse().expect("lazydoku parses");
    let theirs = sudoku::Sudoku::from_str_line(line).expect("sudoku parses");
    let (mut best_count, mut best_yield, mut best_next, mut best_theirs) =
        (Duration::MAX, Duration::MAX, Duration::MAX, Duration::MAX);
    #[cfg_attr(not(tdoku), expect(unused_mut, reason = "set only with tdoku"))]
    let mut best_tdoku = Duration::MAX;
    for _ in 0..rounds {
        let (n, t) = time(|| ours.count_solutions(usize::MAX));
        assert_eq!(n, 1_039_784, "lazydoku's count");
        best_count = best_count.min(t);
        // A fold, not `count`, which counts without building the boards.
        let (n, t) = time(|| ours.solutions().fold(0, |n, _board| n + 1));
        assert_eq!(n, 1_039_784, "lazydoku's solutions");
        best_yield = best_yield.min(t);
        // And one call of `next` per solution, as a `for` loop takes them.
        let (n, t) = time(|| {
            let mut n = 0;
            for _board in ours.solutions() {
                n += 1;
            }
            n
        });
        assert_eq!(n, 1_039_784, "lazydoku's solutions one by one");
        best_next = best_next.min(t);
        let (n, t) = time(|| theirs.solutions_count_up_to(usize::MAX));
        assert_eq!(n, 1_039_784, "sudoku's count");
        best_theirs = best_theirs.min(t);
        #[cfg(tdoku)]
        {
            let puzzle = tdoku::Puzzle::new(line);
            let (n, t) = time(|| puzzle.count(usize::MAX).0);
            assert_eq!(n, 1_039_784, "tdoku's count");
            best_tdoku = best_tdoku.min(t);
        }
    }
    let rate = |t: Duration| 1_039_784.0 / t.as_secs_f64() / 1e6;
    println!(
        "\nenumeration (million.txt, 1,039,784 solutions): sudoku's solutions_count_up_to {:.2} M/s\n  \
         lazydoku count_solutions {:.2} M/s (ratio of rates {:.2})\n  \
         lazydoku solutions(), every solution built as a board {:.2} M/s (ratio of rates {:.2}); \
         in a `for` loop {:.2} M/s",
        rate(best_theirs),
        rate(best_count),
        rate(best_count) / rate(best_theirs),
        rate(best_yield),
        rate(best_yield) / rate(best_theirs),
        rate(best_next)
    );
    if best_tdoku < Duration::MAX {
        println!(
            "  tdoku counting {:.2} M/s: lazydoku's count at {:.2}x its rate, solutions() at {:.2}x \
             ({:.2}x in a `for` loop)",
            rate(best_tdoku),
            rate(best_count) / rate(best_tdoku),
            rate(best_yield) / rate(best_tdoku),
            rate(best_next) / rate(best_tdoku)
        );
    }
}

/// The library's own rate on the lines of each file, one thread, for the
/// command line's `solve` to be compared with: each line parsed, solved,
/// and its solution's text taken, as a program using the library would.
fn solve_rate(files: &[String], rounds: usize) {
    for file in files {
        let text = std::fs::read_to_string(file).expect("file readable");
        let lines: Vec<&str> = text.lines().filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
        let mut best = Duration::MAX;
        for _ in 0..rounds {
            let (bytes, t) = time(|| {
                lines
                    .iter()
                    .map(|l| l.parse::<Board>().ok().and_then(|b| b.solve()).map_or(0, |s| s.as_str().len()))
                    .sum::<usize>()
            });
            std::hint::black_box(bytes);
            best = best.min(t);
        }
        println!(
            "{file}: {} lines parsed and solved on one thread in {:.2} s ({:.0} lines/s)",
            lines.len(),
            best.as_secs_f64(),
            lines.len() as f64 / best.as_secs_f64()
        );
    }
}

/// The N-queens tree: a node lists the column of the queen in each row so far.
fn queens(n: usize) -> impl Fn(&Vec<usize>) -> Vec<Vec<usize>> + Copy {
    move |placed: &Vec<usize>| {
        let row = placed.len();
        (0..n)
            .filter(|&c| placed.iter().enumerate().all(|(r, &q)| q != c && q.abs_diff(c) != row - r))
            .map(|c| [placed.as_slice(), &[c]].concat())
            .collect()
    }
}

/// The walk itself: every node of the 11-queens tree (166,926), by
/// `search::dfs` and by pathfinding's `dfs_reach`, which keeps a visited set.
fn walk(rounds: usize) {
    let (mut best_ours, mut best_theirs) = (Duration::MAX, Duration::MAX);
    for _ in 0..rounds {
        let (n, t) = time(|| search::dfs(Vec::new(), queens(11)).count());
        assert_eq!(n, 166_926, "lazydoku's walk");
        best_ours = best_ours.min(t);
        let (n, t) = time(|| pathfinding::directed::dfs::dfs_reach(Vec::new(), queens(11)).count());
        assert_eq!(n, 166_926, "pathfinding's walk");
        best_theirs = best_theirs.min(t);
    }
    println!(
        "
walk (every node of the 11-queens tree, 166,926): search::dfs {:.1} ms, pathfinding dfs_reach {:.1} ms (ratio {:.2})",
        best_ours.as_secs_f64() * 1e3,
        best_theirs.as_secs_f64() * 1e3,
        best_ours.as_secs_f64() / best_theirs.as_secs_f64()
    );
}

/// Minimal puzzles with half-turn symmetry: lazydoku's `Generator` against
/// the `sudoku` crate's `generate_with_symmetry`, per puzzle. Every puzzle
/// of both is checked unique (untimed), and their mean clue counts shown:
/// both remove givens until none can go, so their puzzles are alike.
fn generation(rounds: usize) {
    use lazydoku::generate::{Generator, Symmetry};
    const PUZZLES: usize = 500;
    let generator = Generator::new(lazydoku::Rules::new(lazydoku::Shape::NINE)).symmetry(Symmetry::Rotate180);
    let (mut best_ours, mut best_theirs) = (Duration::MAX, Duration::MAX);
    let (mut clues_ours, mut clues_theirs) = (0, 0);
    for round in 0..rounds {
        let seeded = generator.clone().seed(round as u64);
        let (ours, t) = time(|| seeded.puzzles().take(PUZZLES).collect::<Vec<Board>>());
        best_ours = best_ours.min(t);
        let (theirs, t) = time(|| {
            (0..PUZZLES)
                .map(|_| sudoku::Sudoku::generate_with_symmetry(sudoku::Symmetry::HalfRotation))
                .collect::<Vec<_>>()
        });
        best_theirs = best_theirs.min(t);
        assert!(ours.iter().all(Board::is_unique), "lazydoku's puzzles have one solution");
        assert!(theirs.iter().all(|s| s.solutions_count_up_to(2) == 1), "sudoku's puzzles have one solution");
        clues_ours = ours.iter().map(|b| b.cells().flatten().count()).sum();
        clues_theirs = theirs.iter().map(|s| s.to_bytes().iter().filter(|&&d| d != 0).count()).sum();
    }
    let per = |t: Duration| t.as_secs_f64() * 1e6 / PUZZLES as f64;
    println!(
        "
generate (minimal, half-turn symmetry, {PUZZLES} puzzles): lazydoku {:.1} µs ({:.1} clues), sudoku {:.1} µs ({:.1} clues) a puzzle (ratio {:.2})",
        per(best_ours),
        clues_ours as f64 / PUZZLES as f64,
        per(best_theirs),
        clues_theirs as f64 / PUZZLES as f64,
        best_ours.as_secs_f64() / best_theirs.as_secs_f64()
    );
}

/// An `ExactCover` read back as a problem for the `dancing-links` crate:
/// possibilities are row numbers, constraints column numbers.
struct Peer {
    problem: lazydoku::ExactCover,
    rows: Vec<usize>,
    columns: Vec<usize>,
}

impl dancing_links::ExactCover for Peer {
    type Possibility = usize;
    type Constraint = usize;

    fn satisfies(&self, row: &usize, column: &usize) -> bool {
        self.problem.row(*row).binary_search(column).is_ok()
    }

    fn is_optional(&self, column: &usize) -> bool {
        *column >= self.problem.primary_columns()
    }

    fn possibilities(&self) -> &[usize] {
        &self.rows
    }

    fn constraints(&self) -> &[usize] {
        &self.columns
    }
}

/// Exact cover: every pentomino tiling of the 6x10 box (9,356), by
/// `ExactCover::count_solutions` (one core) and by dancing links.
fn exact_cover(rounds: usize) {
    let problem = lazydoku::ExactCover::pentominoes(10, 6);
    let columns = problem.primary_columns() + problem.secondary_columns();
    let peer = Peer { rows: (0..problem.rows()).collect(), columns: (0..columns).collect(), problem: problem.clone() };
    let (mut best_ours, mut best_parallel, mut best_theirs) = (Duration::MAX, Duration::MAX, Duration::MAX);
    for _ in 0..rounds {
        let (n, t) = time(|| problem.count_solutions(usize::MAX));
        assert_eq!(n, 9_356, "lazydoku's count");
        best_ours = best_ours.min(t);
        let (n, t) = time(|| problem.par_count_solutions(usize::MAX));
        assert_eq!(n, 9_356, "lazydoku's parallel count");
        best_parallel = best_parallel.min(t);
        let (n, t) = time(|| dancing_links::Solver::new(&peer).count());
        assert_eq!(n, 9_356, "dancing-links' count");
        best_theirs = best_theirs.min(t);
    }
    println!(
        "\nexact cover (pentomino tilings of 6x10, 9,356): dancing-links {:.2} s; ExactCover::count_solutions {:.2} s \
         (ratio {:.2}); par_count_solutions on {} threads {:.2} s (ratio {:.2})",
        best_theirs.as_secs_f64(),
        best_ours.as_secs_f64(),
        best_ours.as_secs_f64() / best_theirs.as_secs_f64(),
        rayon::current_num_threads(),
        best_parallel.as_secs_f64(),
        best_parallel.as_secs_f64() / best_theirs.as_secs_f64()
    );
}

/// Boards of any size, puzzle by puzzle, in the rows that `cpsat.py` prints
/// (file, line, solutions up to 2, seconds), for `sizes.sh` to set side by
/// side: the best of `rounds` counts to 2 with one thread.
fn sizes(files: &[String], rounds: usize) {
    for file in files {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let board: Board = line.parse().unwrap_or_else(|e| panic!("{file}:{}: {e}", number + 1));
            let mut best = Duration::MAX;
            let mut solutions = 0;
            for _ in 0..rounds {
                let (n, t) = time(|| board.count_solutions(2));
                solutions = n;
                best = best.min(t);
            }
            println!("{file}\t{}\t{solutions}\t{:.6}", number + 1, best.as_secs_f64());
        }
    }
}

/// Every strategy of the `sudoku` crate's `StrategySolver` that it
/// implements (version 0.8.0 panics on `AvoidableRectangles`).
const STRATEGIES: &[sudoku::strategy::Strategy] = {
    use sudoku::strategy::Strategy::*;
    &[
        NakedSingles,
        HiddenSingles,
        LockedCandidates,
        NakedPairs,
        NakedTriples,
        NakedQuads,
        HiddenPairs,
        HiddenTriples,
        HiddenQuads,
        XWing,
        Swordfish,
        Jellyfish,
        XyWing,
        XyzWing,
        MutantSwordfish,
        MutantJellyfish,
    ]
};

/// Logic alone on each dataset: the share solved and µs per puzzle, for
/// lazydoku's `explain` and the `sudoku` crate's `StrategySolver`.
fn logic() {
    println!(
        "\n{:<34} {:>8} {:>14} {:>14} {:>12} {:>12}",
        "logic alone", "puzzles", "lazydoku", "StrategySolver", "lazydoku µs", "Strategy µs"
    );
    for name in DATASETS {
        let lines = load(name);
        let ours: Vec<Board> = lines.iter().map(|l| l.parse().expect("lazydoku parses")).collect();
        let theirs: Vec<sudoku::Sudoku> =
            lines.iter().map(|l| sudoku::Sudoku::from_str_line(l).expect("sudoku parses")).collect();
        // Checked first, untimed: every lazydoku step agrees with the
        // solution, on the puzzles with one.
        for (i, board) in ours.iter().enumerate() {
            if board.count_solutions(2) != 1 {
                continue;
            }
            let solution = board.solve().expect("one solution");
            for step in board.explain() {
                assert!(step.placements().all(|(c, d)| solution.get(c) == Some(d)), "{name} #{i}: {step}");
                assert!(step.eliminations().all(|(c, d)| solution.get(c) != Some(d)), "{name} #{i}: {step}");
            }
        }
        let (solved_ours, t_ours) = time(|| {
            ours.iter()
                .filter(|b| {
                    let mut steps = b.explain();
                    steps.by_ref().for_each(drop);
                    steps.ending() == Some(lazydoku::explain::Ending::Solved)
                })
                .count()
        });
        let (solved_theirs, t_theirs) = time(|| {
            theirs
                .iter()
                .filter(|s| sudoku::strategy::StrategySolver::from_sudoku(**s).solve(STRATEGIES).is_ok())
                .count()
        });
        let n = lines.len() as f64;
        println!(
            "{:<34} {:>8} {:>13.1}% {:>13.1}% {:>12.1} {:>12.1}",
            name,
            lines.len(),
            solved_ours as f64 / n * 100.0,
            solved_theirs as f64 / n * 100.0,
            t_ours.as_secs_f64() * 1e6 / n,
            t_theirs.as_secs_f64() * 1e6 / n
        );
    }
}

/// Canonical forms of the unique puzzles of two datasets: µs per puzzle
/// for each, and every lazydoku form checked against a random equivalent.
fn canon(rounds: usize) {
    println!("\n{:<34} {:>8} {:>12} {:>12} {:>7}", "canonical form", "puzzles", "lazydoku µs", "sudoku µs", "ratio");
    for name in ["norvig_top95.txt", "puzzles3_magictour_top1465", "puzzles2_17_clue"] {
        let lines: Vec<String> = load(name).into_iter().take(5000).collect();
        let ours: Vec<Board> = lines.iter().map(|l| l.parse().expect("lazydoku parses")).collect();
        let theirs: Vec<sudoku::Sudoku> =
            lines.iter().map(|l| sudoku::Sudoku::from_str_line(l).expect("sudoku parses")).collect();
        for board in &ours {
            assert_eq!(board.transformed(1).canonical(), board.canonical(), "{board}");
        }
        let (mut best_ours, mut best_theirs) = (Duration::MAX, Duration::MAX);
        for _ in 0..rounds {
            let (forms, t) = time(|| ours.iter().map(Board::canonical).collect::<Vec<_>>());
            assert!(forms.iter().all(Option::is_some));
            best_ours = best_ours.min(t);
            let (forms, t) = time(|| theirs.iter().map(sudoku::Sudoku::canonicalized).collect::<Vec<_>>());
            assert!(forms.iter().all(Option::is_some));
            best_theirs = best_theirs.min(t);
        }
        let n = lines.len() as f64;
        println!(
            "{:<34} {:>8} {:>12.1} {:>12.1} {:>7.2}",
            name,
            lines.len(),
            best_ours.as_secs_f64() * 1e6 / n,
            best_theirs.as_secs_f64() * 1e6 / n,
            best_ours.as_secs_f64() / best_theirs.as_secs_f64()
        );
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut rounds = 3;
    if let Some(i) = args.iter().position(|a| a == "--rounds") {
        rounds = args.get(i + 1).and_then(|n| n.parse().ok()).expect("--rounds N");
        args.drain(i..=i + 1);
    }
    let mut permute = None;
    if let Some(i) = args.iter().position(|a| a == "--permute") {
        permute = Some(args.get(i + 1).and_then(|n| n.parse::<u64>().ok()).expect("--permute SEED"));
        args.drain(i..=i + 1);
    }
    if args.first().is_some_and(|a| a == "--solve-rate") {
        solve_rate(&args[1..], rounds);
        return;
    }
    if args.first().is_some_and(|a| a == "--sizes") {
        sizes(&args[1..], rounds);
        return;
    }
    let everything = args.is_empty();
    let enumerate = everything || args.iter().any(|a| a == "million.txt");
    let queens_walk = everything || args.iter().any(|a| a == "queens");
    let cover = everything || args.iter().any(|a| a == "pentominoes");
    let generate = everything || args.iter().any(|a| a == "generate");
    let logical = everything || args.iter().any(|a| a == "logic");
    let canonical = everything || args.iter().any(|a| a == "canon");
    args.retain(|a| !["million.txt", "queens", "pentominoes", "generate", "logic", "canon"].contains(&a.as_str()));
    let names: Vec<&str> = if everything { DATASETS.to_vec() } else { args.iter().map(String::as_str).collect() };

    // Every dataset is read before the table starts, so that a mistyped
    // name stops the run before the first measurement.
    let datasets: Vec<(&str, Vec<String>)> = names.iter().map(|&name| (name, load(name))).collect();
    tdoku_note();
    if !names.is_empty() {
        if let Some(seed) = permute {
            println!(
                "each puzzle moved by a random symmetry of the grid (Board::transformed, seed {seed} plus its line)"
            );
        }
        print!(
            "{:<34} {:>8} {:>12} {:>12} {:>7} {:>10} {:>9} {:>10}",
            "dataset", "puzzles", "lazydoku µs", "sudoku µs", "ratio", "guesses", "no guess", "decisions"
        );
        if cfg!(tdoku) {
            print!(" {:>10} {:>9} {:>10}", "tdoku µs", "ratio", "tdoku guesses");
        }
        println!();
    }
    for (name, mut lines) in datasets {
        if let Some(seed) = permute {
            for (i, line) in lines.iter_mut().enumerate() {
                let board: Board = line.parse().expect("lazydoku parses");
                *line = board.transformed(seed.wrapping_add(i as u64)).as_str().to_owned();
            }
        }
        let ours: Vec<Board> = lines.iter().map(|l| l.parse().expect("lazydoku parses")).collect();
        let theirs: Vec<sudoku::Sudoku> =
            lines.iter().map(|l| sudoku::Sudoku::from_str_line(l).expect("sudoku parses")).collect();
        #[cfg(tdoku)]
        let tdoku_puzzles: Vec<tdoku::Puzzle> = lines.iter().map(|l| tdoku::Puzzle::new(l)).collect();

        // Agreement first, untimed: every count, puzzle by puzzle.
        for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
            let (x, y) = (a.count_solutions(2), b.solutions_count_up_to(2));
            assert_eq!(x, y, "{name} #{i}: lazydoku counts {x}, sudoku counts {y}");
            #[cfg(tdoku)]
            assert_eq!(x, tdoku_puzzles[i].count(2).0, "{name} #{i}: lazydoku and tdoku count differently");
        }

        let chunks = lines.len().div_ceil(CHUNK);
        let (mut chunks_ours, mut chunks_theirs) = (vec![Duration::MAX; chunks], vec![Duration::MAX; chunks]);
        #[cfg_attr(not(tdoku), expect(unused_mut, reason = "set only with tdoku"))]
        let mut chunks_tdoku = vec![Duration::MAX; chunks];
        let mut spent = Duration::ZERO;
        let mut round = 0;
        while round < rounds || (spent < MIN_TIMED && round < MAX_ROUNDS) {
            round += 1;
            let (sum, t) = timed_chunks(&ours, |b| b.count_solutions(2), &mut chunks_ours);
            std::hint::black_box(sum);
            spent += t;
            let (sum, _) = timed_chunks(&theirs, |s| s.solutions_count_up_to(2), &mut chunks_theirs);
            std::hint::black_box(sum);
            #[cfg(tdoku)]
            {
                let (sum, _) = timed_chunks(&tdoku_puzzles, |p| p.count(2).0, &mut chunks_tdoku);
                std::hint::black_box(sum);
            }
        }
        let best_ours: Duration = chunks_ours.iter().sum();
        let best_theirs: Duration = chunks_theirs.iter().sum();
        let best_tdoku: Duration = chunks_tdoku.iter().sum();
        let n = lines.len() as f64;
        let (us_ours, us_theirs) = (best_ours.as_secs_f64() * 1e6 / n, best_theirs.as_secs_f64() * 1e6 / n);
        let counts: Vec<u64> = ours.iter().map(guesses).collect();
        let no_guess = counts.iter().filter(|&&g| g == 0).count() as f64 / n * 100.0;
        let per_puzzle = counts.iter().sum::<u64>() as f64 / n;
        let decided = ours.iter().map(decisions).sum::<u64>() as f64 / n;
        print!(
            "{:<34} {:>8} {:>12.2} {:>12.2} {:>7.2} {:>10.1} {:>8.1}% {:>10.1}",
            name,
            lines.len(),
            us_ours,
            us_theirs,
            us_ours / us_theirs,
            per_puzzle,
            no_guess,
            decided
        );
        #[cfg(tdoku)]
        {
            let us_tdoku = best_tdoku.as_secs_f64() * 1e6 / n;
            let tdoku_guesses = tdoku_puzzles.iter().map(|p| p.count(2).1).sum::<usize>() as f64 / n;
            print!(" {:>10.2} {:>9.2} {:>10.1}", us_tdoku, us_ours / us_tdoku, tdoku_guesses);
        }
        std::hint::black_box(best_tdoku);
        println!();
    }
    if enumerate {
        enumeration(rounds);
    }
    if queens_walk {
        walk(rounds);
    }
    if cover {
        exact_cover(rounds);
    }
    if generate {
        generation(rounds);
    }
    if logical {
        logic();
    }
    if canonical {
        canon(rounds);
    }
}
