//! Generic lazy search over any tree of nodes.
//!
//! This module knows nothing of Sudoku. A search is described by a root node
//! and a `successors` closure that returns the children of a node as an
//! [`IntoIterator`]; the search is itself an [`Iterator`] over every node it
//! visits, root first. This is the Scala design's `steps` stream:
//! `solve = steps(game).filter(_.isDone).head` becomes
//! `search::dfs(root, children).find(is_done)`.
//!
//! # Laziness
//!
//! A child is built only when the search needs it. The depth-first
//! [`Stack`] keeps a stack of *unopened child iterators*, the breadth-first
//! [`Queue`] keeps a queue of them (the Scala `t ++ h.next`), so no sibling is
//! built before it is visited. When a node is yielded, its `successors` are
//! requested (so the iterator exists), but none of them is pulled until the
//! next call to [`next`](Iterator::next). An iterator whose
//! [`size_hint`](Iterator::size_hint) has an upper bound of 0, a leaf's, is
//! dropped rather than handed to the frontier.
//!
//! # No bounds on nodes
//!
//! There is no visited set, so nodes need neither `Hash` nor `Eq`: the search
//! walks a tree. If your graph has cycles, the successors closure must break
//! them. There is no recursion either: a chain a million nodes deep is walked
//! with a heap-allocated stack.
//!
//! # Orders
//!
//! [`dfs`], [`bfs`] and [`best_first`] cover the usual orders, and
//! [`shuffled_dfs`] a reproducible random one. Any other order
//! plugs in through the [`Frontier`] trait and [`with_frontier`]; see the
//! trait's documentation for a seeded random order written only against the
//! public API. Beside them:
//!
//! - [`iddfs`]: breadth-first order in memory that grows with depth only;
//! - [`beam`]: level by level, each level's best few by a key;
//! - [`lds`]: limited discrepancy search, trusting the children's order;
//! - [`restarts`]: the shuffled search restarted on the Luby schedule;
//! - [`interleave`]: several searches, fairly, even endless ones;
//! - [`walk`]: depth-first with depths, a depth bound and skipped subtrees;
//! - [`Search::prune`]: a search without the subtrees that fail a test;
//! - [`Search::counter`]: a count of goal nodes, with a [`Shortcut`] for
//!   subtrees that can be counted without walking them;
//! - `par_dfs`: every node once, on every core (with the default feature
//!   `parallel`).
//!
//! # Bounds
//!
//! A [`Budget`] stops a search after so many nodes or so much time, and
//! says so: [`Search::within`], or [`bounded`] for any iterator.
//!
//! # Example
//!
//! ```
//! use lazydoku::search;
//!
//! // The tree of numbers where n has children 2n and 2n + 1, up to 7.
//! let children = |&n: &u32| (2 * n..=2 * n + 1).filter(|&c| c <= 7);
//!
//! let depth_first: Vec<u32> = search::dfs(1, children).collect();
//! assert_eq!(depth_first, [1, 2, 4, 5, 3, 6, 7]);
//!
//! let breadth_first: Vec<u32> = search::bfs(1, children).collect();
//! assert_eq!(breadth_first, [1, 2, 3, 4, 5, 6, 7]);
//!
//! // Smallest key first: odd numbers before even ones, ties in insertion order.
//! let odd_first: Vec<u32> = search::best_first(1, children, |&n| n % 2 == 0).collect();
//! assert_eq!(odd_first, [1, 3, 7, 2, 5, 6, 4]);
//! ```

mod beam;
mod best_first;
mod budget;
mod count;
mod depth;
mod discrepancy;
mod frontier;
mod iddfs;
mod interleave;
#[cfg(feature = "parallel")]
mod parallel;
mod restarts;
mod shuffled;
mod walk;

pub use beam::{Beam, beam};
pub use best_first::BestFirst;
pub(crate) use budget::Meter;
pub use budget::{Bounded, Budget, Exhausted, Limit, bounded};
pub use count::{Counter, NoShortcut, Shortcut};
pub use depth::{Walk, walk};
pub use discrepancy::{Lds, lds};
pub use frontier::{Frontier, Queue, Stack};
pub use iddfs::{Iddfs, iddfs};
pub use interleave::{Interleave, interleave};
#[cfg(feature = "parallel")]
pub(crate) use parallel::Race;
#[cfg(feature = "parallel")]
pub use parallel::{ParCounter, ParDfs, SharedShortcut, par_dfs};
pub(crate) use restarts::luby_at;
pub use restarts::{Restarts, luby, restarts};
pub use shuffled::Shuffled;
pub use walk::{Pruned, Search, Successors};

/// A depth-first [`Search`]: the frontier is a [`Stack`] of child iterators.
pub type Dfs<N, IN, S> = Search<N, IN, S, Stack<<IN as IntoIterator>::IntoIter>>;

/// A breadth-first [`Search`]: the frontier is a [`Queue`] of child iterators.
pub type Bfs<N, IN, S> = Search<N, IN, S, Queue<<IN as IntoIterator>::IntoIter>>;

/// Visits `root` and every node below it depth-first, in pre-order.
///
/// The children of a node are visited in the order its `successors` iterator
/// yields them, and all of a node's descendants come before its next sibling.
/// Memory grows with the depth of the tree (one child iterator per level),
/// never with its width.
///
/// # Example
///
/// ```
/// use lazydoku::search;
///
/// // Strings over {a, b} of length at most 2.
/// let mut it = search::dfs(String::new(), |s: &String| {
///     let stem = s.clone();
///     let letters = if s.len() < 2 { "ab" } else { "" };
///     letters.chars().map(move |c| format!("{stem}{c}"))
/// });
/// assert_eq!(it.next().as_deref(), Some(""));
/// assert_eq!(it.next().as_deref(), Some("a"));
/// assert_eq!(it.next().as_deref(), Some("aa")); // deeper before wider
/// assert_eq!(it.next().as_deref(), Some("ab"));
/// assert_eq!(it.next().as_deref(), Some("b"));
/// ```
pub fn dfs<N, IN, S>(root: N, successors: S) -> Dfs<N, IN, S>
where
    S: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
{
    Search::new(root, successors, Stack::new())
}

/// Visits `root` and every node below it breadth-first, level by level.
///
/// Within a level, nodes come in the order their parents were visited, and
/// siblings in the order their `successors` iterator yields them. The queue
/// holds one unopened child iterator per visited node whose children have not
/// all been visited yet, so memory grows with the width of the tree: use
/// [`Search::frontier`] to watch it.
///
/// # Example
///
/// ```
/// use lazydoku::search;
///
/// let mut it = search::bfs(1u64, |&n| [10 * n, 10 * n + 1]);
/// assert_eq!(it.next(), Some(1));
/// assert_eq!(it.next(), Some(10));
/// assert_eq!(it.next(), Some(11));
/// assert_eq!(it.next(), Some(100)); // children of 10 before those of 11
/// assert_eq!(it.next(), Some(101));
/// assert_eq!(it.next(), Some(110));
/// ```
pub fn bfs<N, IN, S>(root: N, successors: S) -> Bfs<N, IN, S>
where
    S: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
{
    Search::new(root, successors, Queue::new())
}

/// Visits the node with the smallest `key` first, ties in insertion order.
///
/// Unlike [`dfs`] and [`bfs`], choosing the best node needs every candidate's
/// key, so when a node's children are first needed they are all built and
/// keyed at once. That happens on the call to `next` after their parent was
/// yielded, never before. Keys are computed once per node.
///
/// # Example
///
/// ```
/// use lazydoku::search;
///
/// // Explore sums of 1s and 5s, always extending the smallest sum first.
/// let mut it = search::best_first(0u32, |&n| [n + 5, n + 1], |&n| n);
/// assert_eq!(it.next(), Some(0));
/// assert_eq!(it.next(), Some(1));
/// assert_eq!(it.next(), Some(2));
/// assert_eq!(it.next(), Some(3));
/// assert_eq!(it.next(), Some(4));
/// assert_eq!(it.next(), Some(5)); // 0 + 5, pushed before 4 + 1
/// assert_eq!(it.next(), Some(5)); // 4 + 1
/// ```
pub fn best_first<N, IN, S, K, KF>(
    root: N,
    successors: S,
    key: KF,
) -> Search<N, IN, S, BestFirst<N, K, KF, IN::IntoIter>>
where
    S: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
    K: Ord,
    KF: FnMut(&N) -> K,
{
    Search::new(root, successors, BestFirst::new(key))
}

/// Visits `root` and every node below it depth-first, each node's children
/// in a random order drawn from `seed`.
///
/// The first complete board of a shuffled search over an empty board is a
/// random full grid; the same seed gives the same grid.
///
/// # Example
///
/// ```
/// use lazydoku::{search, Board, Shape};
///
/// let grid = |seed| search::shuffled_dfs(Board::empty(Shape::NINE), Board::children, seed).find(Board::is_complete);
/// let (a, b) = (grid(1).expect("a grid"), grid(2).expect("a grid"));
/// assert!(a.is_complete() && b.is_complete());
/// assert_ne!(a, b);
/// assert_eq!(grid(1), Some(a)); // reproducible
///
/// // Every node of a tree is still visited exactly once.
/// let mut all: Vec<u32> = search::shuffled_dfs(1, |&n| (2 * n..=2 * n + 1).filter(|&c| c < 32), 7).collect();
/// all.sort_unstable();
/// assert_eq!(all, (1..32).collect::<Vec<_>>());
/// ```
pub fn shuffled_dfs<N, IN, S>(root: N, successors: S, seed: u64) -> Search<N, IN, S, Shuffled<IN::IntoIter>>
where
    S: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
{
    Search::new(root, successors, Shuffled::new(seed))
}

/// Visits `root` and its descendants in the order `frontier` chooses.
///
/// This is how a custom order plugs in: implement [`Frontier`] for it and
/// pass an empty one here. [`dfs`], [`bfs`] and [`best_first`] are this
/// function with [`Stack`], [`Queue`] and [`BestFirst`].
///
/// # Example
///
/// ```
/// use lazydoku::search::{self, Stack};
///
/// let it = search::with_frontier(3u8, |&n| n.checked_sub(1), Stack::new());
/// assert_eq!(it.collect::<Vec<_>>(), [3, 2, 1, 0]);
/// ```
pub fn with_frontier<N, IN, S, F>(root: N, successors: S, frontier: F) -> Search<N, IN, S, F>
where
    S: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
    F: Frontier<IN::IntoIter>,
{
    Search::new(root, successors, frontier)
}
