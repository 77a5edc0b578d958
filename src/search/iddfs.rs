//! [`iddfs`]: breadth-first order in memory that grows with depth only.

use std::fmt;
use std::iter::FusedIterator;

/// Visits `root` and every node below it in breadth-first order (all nodes
/// of depth 0, then of depth 1, and so on) by iterative deepening: a
/// depth-first walk to depth 0, then again to depth 1, and so on, each walk
/// yielding only the nodes at its limit.
///
/// Memory grows with the depth of the tree, never with its width, at the
/// cost of building the upper levels again on each walk (for a tree that
/// branches at least twice, less than the work of the last level). The
/// walk ends after the first depth with no node. Within a depth, nodes come
/// in depth-first order.
///
/// # Example
///
/// ```
/// use lazydoku::search;
///
/// let mut it = search::iddfs(1u64, |&n| if n < 4 { vec![2 * n, 2 * n + 1] } else { vec![] });
/// assert_eq!(it.next(), Some(1)); // depth 0
/// assert_eq!(it.next(), Some(2)); // depth 1
/// assert_eq!(it.next(), Some(3));
/// assert_eq!(it.next(), Some(4)); // depth 2: 2's children, then 3's
/// assert_eq!(it.next(), Some(5));
/// assert_eq!(it.next(), Some(6));
/// assert_eq!(it.next(), Some(7));
/// assert_eq!(it.next(), None);
/// ```
pub fn iddfs<N, IN, S>(root: N, successors: S) -> Iddfs<N, IN::IntoIter, S>
where
    N: Clone,
    S: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
{
    Iddfs { root, successors, limit: 0, stack: Vec::new(), started: false, reached: false, done: false }
}

/// The iterative deepening search built by [`iddfs`].
#[derive(Clone)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct Iddfs<N, I, S> {
    root: N,
    successors: S,
    /// The depth this walk yields.
    limit: usize,
    /// Child iterators of the nodes above the limit on the current path; a
    /// node taken from the top one is at depth `stack.len()`.
    stack: Vec<I>,
    /// Whether the current walk has begun.
    started: bool,
    /// Whether the current walk reached its limit: a deeper walk may find more.
    reached: bool,
    done: bool,
}

impl<N, IN, S> Iterator for Iddfs<N, IN::IntoIter, S>
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
                self.reached = false;
                if self.limit == 0 {
                    self.reached = true;
                    return Some(self.root.clone());
                }
                self.stack.push((self.successors)(&self.root).into_iter());
            }
            let Some(top) = self.stack.last_mut() else {
                // This walk is over: go one deeper if it reached its limit.
                self.done = !self.reached;
                self.limit += 1;
                self.started = false;
                continue;
            };
            let Some(node) = top.next() else {
                self.stack.pop();
                continue;
            };
            if self.stack.len() == self.limit {
                self.reached = true;
                return Some(node);
            }
            self.stack.push((self.successors)(&node).into_iter());
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        if self.done { (0, Some(0)) } else { (0, None) }
    }
}

impl<N, IN, S> FusedIterator for Iddfs<N, IN::IntoIter, S>
where
    N: Clone,
    S: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
{
}

impl<N: fmt::Debug, I, S> fmt::Debug for Iddfs<N, I, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Iddfs")
            .field("root", &self.root)
            .field("depth", &self.limit)
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}
