//! N-queens three ways, checked against each other and against the
//! published counts: a depth-first search over bitmask nodes, the same
//! search counted on every core, and exact cover with secondary columns.
//!
//! ```sh
//! cargo run --release --example queens [N]
//! ```
//!
//! N (default 12, at most 16) is the largest board; each size from 1 up is
//! counted and timed, and the first solution of the largest is drawn.

use std::time::Instant;

use lazydoku::{ExactCover, search};

/// Solutions for n = 1..=16 (OEIS A000170).
const PUBLISHED: [usize; 16] =
    [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2_680, 14_200, 73_712, 365_596, 2_279_184, 14_772_512];

/// A partial placement: one queen in each of the first `placed` rows, with
/// the files and both diagonals they attack as bitmasks. Copying it is
/// cheaper than any list, and its children need no allocation.
#[derive(Clone, Copy, Debug)]
struct Queens {
    n: u32,
    placed: u32,
    files: u32,
    /// Diagonals as seen from the next row: shifted one file per row.
    rising: u32,
    falling: u32,
    /// The file of the queen in each row so far, 4 bits a row.
    columns: u64,
}

impl Queens {
    fn empty(n: u32) -> Queens {
        Queens { n, placed: 0, files: 0, rising: 0, falling: 0, columns: 0 }
    }

    fn is_complete(&self) -> bool {
        self.placed == self.n
    }

    /// The boards with one more queen, in the next row, file by file.
    fn children(&self) -> impl Iterator<Item = Queens> + Send + use<> {
        let parent = *self;
        let board = (1u32 << parent.n) - 1;
        let mut free = if parent.is_complete() { 0 } else { board & !(parent.files | parent.rising | parent.falling) };
        std::iter::from_fn(move || {
            if free == 0 {
                return None;
            }
            let bit = free & free.wrapping_neg();
            free ^= bit;
            Some(Queens {
                placed: parent.placed + 1,
                files: parent.files | bit,
                rising: ((parent.rising | bit) << 1) & board,
                falling: (parent.falling | bit) >> 1,
                columns: parent.columns | (u64::from(bit.trailing_zeros()) << (4 * parent.placed)),
                ..parent
            })
        })
    }

    fn file(&self, row: u32) -> u32 {
        u32::try_from((self.columns >> (4 * row)) & 0xF).unwrap_or(0)
    }
}

fn main() {
    let largest: u32 = std::env::args().nth(1).and_then(|n| n.parse().ok()).unwrap_or(12).clamp(1, 16);
    println!("{:>3} {:>12} {:>12} {:>12} {:>12}", "n", "solutions", "dfs", "par_dfs", "exact cover");
    for n in 1..=largest {
        let expected = PUBLISHED[n as usize - 1];
        let start = Instant::now();
        let sequential = search::dfs(Queens::empty(n), Queens::children).counter(Queens::is_complete).up_to(usize::MAX);
        let dfs = start.elapsed();
        let start = Instant::now();
        let parallel =
            search::par_dfs(Queens::empty(n), Queens::children).counter(Queens::is_complete).up_to(usize::MAX);
        let par = start.elapsed();
        // Exact cover builds n^2 rows of bitsets: past 13 it is the slow way.
        let (cover, cover_time) = if n <= 13 {
            let start = Instant::now();
            let count = ExactCover::queens(n as usize).count_solutions(usize::MAX);
            (Some(count), format!("{:.3} s", start.elapsed().as_secs_f64()))
        } else {
            (None, "-".to_owned())
        };
        assert_eq!(sequential, expected, "{n} queens, depth-first");
        assert_eq!(parallel, expected, "{n} queens, on every core");
        assert!(cover.is_none_or(|c| c == expected), "{n} queens, exact cover");
        println!("{n:>3} {expected:>12} {:>10.3} s {:>10.3} s {cover_time:>12}", dfs.as_secs_f64(), par.as_secs_f64());
    }
    let first = search::dfs(Queens::empty(largest), Queens::children).find(Queens::is_complete);
    if let Some(board) = first {
        println!("\nthe first of {largest} queens, depth-first:");
        for row in 0..largest {
            let line: String = (0..largest).map(|c| if c == board.file(row) { " Q" } else { " ." }).collect();
            println!("{line}");
        }
    }
}
