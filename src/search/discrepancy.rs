//! [`lds`]: limited discrepancy search.

use std::fmt;
use std::iter::FusedIterator;

/// Limited discrepancy search (Harvey and Ginsberg): trusts the order in
/// which `successors` yields children, and visits first the nodes reached
/// by always taking the first child, then those reached by departing from
/// that order once, then twice, and so on.
///
/// A node's discrepancies are the steps on its path from the root that took
/// a child other than the first. Walk `k` (from 0) visits the nodes with at
/// most `k` discrepancies depth-first and yields those with exactly `k`, so
/// every node comes out once; the search ends after the first walk that
/// left nothing beyond its limit. Memory grows with depth only; the price is
/// building the nodes of few discrepancies again on each walk.
///
/// # Example
///
/// ```
/// use lazydoku::search;
///
/// // The full binary tree of 15 nodes: n has children 2n and 2n + 1.
/// let tree = |&n: &u32| if n < 8 { vec![2 * n, 2 * n + 1] } else { vec![] };
/// let order: Vec<u32> = search::lds(1, tree).collect();
/// assert_eq!(order, [
///     1, 2, 4, 8, // always the first child
///     9, 5, 10, 3, 6, 12, // one step off
///     11, 13, 7, 14, // two
///     15, // three
/// ]);
/// ```
pub fn lds<N, IN, S>(root: N, successors: S) -> Lds<N, IN::IntoIter, S>
where
    N: Clone,
    S: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
{
    Lds { root, successors, limit: 0, stack: Vec::new(), started: false, beyond: false, done: false }
}

/// The limited discrepancy search built by [`lds`].
#[derive(Clone)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct Lds<N, I, S> {
    root: N,
    successors: S,
    /// The discrepancies this walk yields.
    limit: usize,
    /// For each open node on the path: its children, how many of them were
    /// taken, and the node's own discrepancies.
    stack: Vec<(I, usize, usize)>,
    started: bool,
    /// Whether this walk left a node beyond its limit: a next walk is needed.
    beyond: bool,
    done: bool,
}

impl<N, IN, S> Iterator for Lds<N, IN::IntoIter, S>
where
    N: Clone,
    S: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
{
    type Item = N;

    fn next(&mut self) -> Option<N> {
        while !self.done {
            if !self.started {
                self.started = true;
                self.beyond = false;
                self.stack.push(((self.successors)(&self.root).into_iter(), 0, 0));
                if self.limit == 0 {
                    return Some(self.root.clone());
                }
            }
            let Some((children, taken, discrepancies)) = self.stack.last_mut() else {
                self.done = !self.beyond;
                self.limit += 1;
                self.started = false;
                continue;
            };
            let Some(child) = children.next() else {
                self.stack.pop();
                continue;
            };
            let here = *discrepancies + usize::from(*taken > 0);
            *taken += 1;
            if here > self.limit {
                // Later siblings have as many discrepancies: none fits.
                self.beyond = true;
                self.stack.pop();
                continue;
            }
            self.stack.push(((self.successors)(&child).into_iter(), 0, here));
            if here == self.limit {
                return Some(child);
            }
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        if self.done { (0, Some(0)) } else { (0, None) }
    }
}

impl<N, IN, S> FusedIterator for Lds<N, IN::IntoIter, S>
where
    N: Clone,
    S: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
{
}

impl<N: fmt::Debug, I, S> fmt::Debug for Lds<N, I, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Lds").field("root", &self.root).field("discrepancies", &self.limit).finish_non_exhaustive()
    }
}
