//! Lazy, iterator-based search, with Sudoku as its flagship.
//!
//! lazydoku has two layers:
//!
//! - [`search`]: generic lazy search. A root, a `successors` closure and a
//!   frontier ([`dfs`](search::dfs), [`bfs`](search::bfs),
//!   [`best_first`](search::best_first), or your own [`Frontier`](search::Frontier))
//!   give an iterator over every node visited, root first.
//! - [`Board`]: an immutable, string-backed Sudoku board of any size from
//!   4x4 to 25x25, with optional diagonal regions. [`Board::children`] is a
//!   lazy iterator of child boards, so a board plugs straight into
//!   [`search`]; [`Board::solutions`], [`Board::solve`],
//!   [`Board::count_solutions`] and [`Board::is_unique`] are combinators over
//!   that search (counting stops short of building the last few cells of
//!   each branch).
//!
//! This follows a Scala design in which `Board(game: String)` has
//! `next: Stream[Board]` and `solve = steps(game).filter(_.isDone).head`.
//!
//! # Example: solve, count, and choose the search order
//!
//! ```
//! use lazydoku::{search, Board};
//!
//! let board: Board = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..".parse()?;
//! let solved = board.solve().expect("solvable");
//! assert!(solved.is_complete());
//! assert!(board.is_unique());
//!
//! // Breadth-first, the first complete board: `steps(game).filter(_.isDone).head`.
//! let first = search::bfs(board.clone(), Board::children).find(Board::is_complete);
//! assert_eq!(first, Some(solved));
//! # Ok::<(), lazydoku::ParseError>(())
//! ```
//!
//! # Example: enumerate lazily
//!
//! ```
//! use lazydoku::{Board, Shape};
//!
//! // The empty 9x9 board has about 6.7e21 solutions; taking three is instant.
//! let three: Vec<Board> = Board::empty(Shape::NINE).solutions().take(3).collect();
//! assert_eq!(three.len(), 3);
//! assert_ne!(three[0], three[1]);
//! ```
//!
//! # Example: print a solution the way its puzzle was written
//!
//! ```
//! use lazydoku::format::Parser;
//!
//! let puzzle = "\
//! 1 _ | _ _
//! _ _ | 1 _
//! ----+----
//! _ 1 | _ _
//! _ _ | _ 1
//! ";
//! let (board, layout) = Parser::new().parse(puzzle)?;
//! let solution = board.solve().expect("solvable");
//! assert_eq!(layout.render(&solution), "\
//! 1 3 | 2 4
//! 2 4 | 1 3
//! ----+----
//! 4 1 | 3 2
//! 3 2 | 4 1
//! ");
//! # Ok::<(), lazydoku::ParseError>(())
//! ```
#![deny(missing_docs)]
// `unsafe` is denied everywhere but in `cpu`, which runs code compiled for
// a processor feature once it has made sure the processor has it, and
// issues cache prefetch hints.
#![deny(unsafe_code)]
#![warn(missing_debug_implementations)]

pub mod board;
mod cover;
mod cpu;
pub mod explain;
pub mod format;
pub mod generate;
mod random;
mod sat;
pub mod search;

pub use board::{
    Board, Candidates, Children, ClassLine, Conflict, Indexer, Region, Relation, Rules, RulesError, Shape, Solutions,
    SumKind, Turn,
};
pub use cover::{ColumnOutOfRange, CoverSolutions, ExactCover};
pub use format::ParseError;

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
