//! [`interleave`]: several searches, taking a node from each in turn.

use std::collections::VecDeque;
use std::fmt;
use std::iter::FusedIterator;

/// Takes one item from each iterator in turn, dropping each as it ends, so
/// that every item of every iterator comes out after finitely many steps
/// even when some iterators never end (a fair interleaving, as the `LogicT`
/// library's `interleave`; `Itertools::interleave` is the case of two).
///
/// # Example
///
/// ```
/// use lazydoku::search;
///
/// // Two endless searches and a short one.
/// let evens = search::dfs(0u64, |&n| [n + 2]);
/// let odds = search::dfs(1u64, |&n| [n + 2]);
/// let short = search::dfs(100u64, |_| []);
/// let mut it = search::interleave([
///     Box::new(evens) as Box<dyn Iterator<Item = u64>>,
///     Box::new(odds),
///     Box::new(short),
/// ]);
/// assert_eq!(it.by_ref().take(7).collect::<Vec<_>>(), [0, 1, 100, 2, 3, 4, 5]);
/// ```
pub fn interleave<I: Iterator>(iterators: impl IntoIterator<Item = I>) -> Interleave<I> {
    Interleave { turns: iterators.into_iter().collect() }
}

/// The fair interleaving built by [`interleave`].
#[derive(Clone)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct Interleave<I> {
    /// The iterators still going, the next one to take from first.
    turns: VecDeque<I>,
}

impl<I: Iterator> Iterator for Interleave<I> {
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        while let Some(mut iterator) = self.turns.pop_front() {
            if let Some(item) = iterator.next() {
                self.turns.push_back(iterator);
                return Some(item);
            }
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.turns.iter().map(Iterator::size_hint).fold((0, Some(0)), |(low, high), (l, h)| {
            (low.saturating_add(l), high.zip(h).and_then(|(a, b)| a.checked_add(b)))
        })
    }
}

impl<I: Iterator> FusedIterator for Interleave<I> {}

impl<I> fmt::Debug for Interleave<I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Interleave").field("going", &self.turns.len()).finish_non_exhaustive()
    }
}
