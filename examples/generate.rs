//! Generates a puzzle with a unique solution: a random full grid of the
//! shape, then clues removed in random order while the solution stays unique.
//!
//! `cargo run --release --example generate -- BOX_ROWS BOX_COLS [SEED] [--x] [--clues N]`
//!
//! `--clues N` stops removing once N clues are left: minimal 25x25 puzzles
//! take the general engine too long to prove unique.
//!
//! The puzzles in `data/hard16.txt` and `data/hard25.txt` came from here.

use lazydoku::search::{self, Frontier};
use lazydoku::{Board, Shape};

/// Depth-first, with each node's children in a shuffled order.
struct Shuffled<T> {
    levels: Vec<Vec<T>>,
    state: u64,
}

impl<T> Shuffled<T> {
    fn next_random(&mut self, bound: usize) -> usize {
        // xorshift64: small, seeded, reproducible.
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        usize::try_from(self.state % bound as u64).expect("bound fits")
    }
}

impl<I: Iterator> Frontier<I> for Shuffled<I::Item> {
    fn push(&mut self, children: I) {
        let mut level: Vec<I::Item> = children.collect();
        for i in (1..level.len()).rev() {
            let j = self.next_random(i + 1);
            level.swap(i, j);
        }
        self.levels.push(level);
    }

    fn pop(&mut self) -> Option<I::Item> {
        loop {
            let top = self.levels.last_mut()?;
            if let Some(node) = top.pop() {
                return Some(node);
            }
            self.levels.pop();
        }
    }

    fn len(&self) -> usize {
        self.levels.len()
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let (rows, cols, seed) = (number(0, 3), number(1, 3), number(2, 1));
    let mut shape = Shape::try_new(usize::try_from(rows).unwrap(), usize::try_from(cols).unwrap())
        .expect("box sides of at least 2 and a side of at most 25");
    if args.iter().any(|a| a == "--x") {
        shape = shape.with_diagonals();
    }
    let frontier = Shuffled { levels: Vec::new(), state: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1 };
    let grid = search::with_frontier(Board::empty(shape), Board::children, frontier)
        .find(Board::is_complete)
        .expect("every shape has full grids");
    let mut order: Vec<usize> = (0..shape.cells()).collect();
    let mut shuffler = Shuffled::<()> { levels: Vec::new(), state: seed.wrapping_add(17) | 1 };
    for i in (1..order.len()).rev() {
        let j = shuffler.next_random(i + 1);
        order.swap(i, j);
    }
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
