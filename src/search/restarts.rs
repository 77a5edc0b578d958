//! [`restarts`]: randomized restarts on the Luby schedule.

use std::fmt;
use std::iter::FusedIterator;

use super::{Bounded, Budget, Search, Shuffled};

/// Runs [`shuffled_dfs`](super::shuffled_dfs) from `root` again and again,
/// each run with a seed of its own and a node budget from the Luby
/// sequence (1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...) times `unit`, and yields
/// every node of every run.
///
/// Search times of a randomized backtracking search are often heavy-tailed:
/// most runs are short, a few take forever. Restarting on Luby, Sinclair and
/// Zuckerman's schedule is within a logarithmic factor of the best fixed
/// cutoff without knowing it (Gomes, Selman and Kautz showed how much this
/// helps combinatorial search). Use it with [`Iterator::find`] to find one
/// goal; nodes repeat across runs. A run that ends within its budget has
/// searched the whole tree, and the restarts end with it.
///
/// # Example
///
/// ```
/// use lazydoku::search;
///
/// assert_eq!(search::luby(1..=15).collect::<Vec<_>>(), [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
///
/// // A tree 40 levels deep: a depth-first search that takes one wrong turn
/// // near the root spends ages below it before it finds 37. Short random
/// // dives find it soon.
/// let deep = |&n: &u64| if n < 1 << 40 { vec![2 * n, 2 * n + 1] } else { vec![] };
/// assert_eq!(search::restarts(1u64, deep, 7, 10).find(|&n| n == 37), Some(37));
///
/// // A small tree is searched whole, and then the restarts end.
/// let all = search::restarts(1u32, |&n: &u32| if n < 8 { vec![2 * n, 2 * n + 1] } else { vec![] }, 1, 1000);
/// assert_eq!(all.count(), 15);
/// ```
pub fn restarts<N, IN, S>(root: N, successors: S, seed: u64, unit: u64) -> Restarts<N, IN, S>
where
    N: Clone,
    S: FnMut(&N) -> IN + Clone,
    IN: IntoIterator<Item = N>,
{
    Restarts { root, successors, seed, unit: unit.max(1), runs: 0, current: None, done: false }
}

/// The Luby sequence at each of `indices` (from 1): 1, 1, 2, 1, 1, 2, 4, ...
pub fn luby(indices: impl IntoIterator<Item = u64>) -> impl Iterator<Item = u64> {
    indices.into_iter().map(luby_at)
}

/// The `i`-th term (from 1) of the Luby sequence: `2^(k-1)` when `i` is
/// `2^k - 1`, otherwise the term at `i - 2^(k-1) + 1` for the `k` with
/// `2^(k-1) <= i < 2^k - 1`.
pub(crate) fn luby_at(mut i: u64) -> u64 {
    loop {
        if i <= 1 {
            return 1;
        }
        let k = 64 - i.leading_zeros(); // 2^(k-1) <= i < 2^k
        if i == (1u64 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

type Run<N, IN, S> = Bounded<Search<N, IN, S, Shuffled<<IN as IntoIterator>::IntoIter>>>;

/// The restarting search built by [`restarts`].
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct Restarts<N, IN: IntoIterator, S> {
    root: N,
    successors: S,
    seed: u64,
    unit: u64,
    runs: u64,
    current: Option<Run<N, IN, S>>,
    done: bool,
}

impl<N, IN, S> Iterator for Restarts<N, IN, S>
where
    N: Clone,
    S: FnMut(&N) -> IN + Clone,
    IN: IntoIterator<Item = N>,
{
    type Item = N;

    fn next(&mut self) -> Option<N> {
        while !self.done {
            if self.current.is_none() {
                self.runs += 1;
                let budget = Budget::nodes(luby_at(self.runs).saturating_mul(self.unit));
                // Each run's seed differs from the last in every bit that matters.
                let seed = self.seed ^ self.runs.wrapping_mul(0x9E37_79B9_7F4A_7C15);
                let search = super::shuffled_dfs(self.root.clone(), self.successors.clone(), seed);
                self.current = Some(search.within(budget));
            }
            let Some(run) = self.current.as_mut() else { continue };
            if let Some(node) = run.next() {
                return Some(node);
            }
            if run.exhausted().is_some() {
                self.current = None;
            } else {
                self.done = true;
            }
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        if self.done { (0, Some(0)) } else { (0, None) }
    }
}

impl<N, IN, S> FusedIterator for Restarts<N, IN, S>
where
    N: Clone,
    S: FnMut(&N) -> IN + Clone,
    IN: IntoIterator<Item = N>,
{
}

impl<N: fmt::Debug, IN: IntoIterator, S> fmt::Debug for Restarts<N, IN, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Restarts")
            .field("root", &self.root)
            .field("runs", &self.runs)
            .field("unit", &self.unit)
            .finish_non_exhaustive()
    }
}
