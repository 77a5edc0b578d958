//! [`walk`]: a depth-first search steered from outside, with depths.

use std::fmt;
use std::iter::FusedIterator;

/// A depth-first search, in the order of [`dfs`](super::dfs), that can be
/// steered while it runs, as walkdir steers a walk of directories:
/// [`Walk::depth`] tells the depth of the node just yielded,
/// [`Walk::skip_children`] leaves out everything below it, and
/// [`Walk::max_depth`] bounds the depth of the whole walk (no node below the
/// bound is built).
///
/// # Example
///
/// ```
/// use lazydoku::search;
///
/// let tree = |&n: &u32| if n < 8 { vec![2 * n, 2 * n + 1] } else { vec![] };
/// let mut walk = search::walk(1, tree).max_depth(2);
/// let mut seen = Vec::new();
/// while let Some(n) = walk.next() {
///     seen.push((n, walk.depth()));
///     if n == 2 {
///         walk.skip_children(); // not 4, 5 or anything below them
///     }
/// }
/// assert_eq!(seen, [(1, 0), (2, 1), (3, 1), (6, 2), (7, 2)]);
/// ```
pub fn walk<N, IN, S>(root: N, successors: S) -> Walk<N, IN::IntoIter, S>
where
    S: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
{
    Walk { root: Some(root), successors, stack: Vec::new(), pending: None, depth: 0, max_depth: usize::MAX }
}

/// The steerable depth-first search built by [`walk`].
#[derive(Clone)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct Walk<N, I, S> {
    root: Option<N>,
    successors: S,
    /// Child iterators of the open nodes; a node from the top one is at
    /// depth `stack.len()`.
    stack: Vec<I>,
    /// The children of the node just yielded, pushed at the next step unless
    /// skipped.
    pending: Option<I>,
    depth: usize,
    max_depth: usize,
}

impl<N, I, S> Walk<N, I, S> {
    /// No node deeper than `depth` (the root is at 0) is built or yielded.
    pub fn max_depth(mut self, depth: usize) -> Self {
        self.max_depth = depth;
        self
    }

    /// The depth of the node just yielded: 0 for the root.
    #[must_use]
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Leaves out the children of the node just yielded, and everything
    /// below them; none of them is built.
    pub fn skip_children(&mut self) {
        self.pending = None;
    }
}

impl<N, IN, S> Iterator for Walk<N, IN::IntoIter, S>
where
    S: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
{
    type Item = N;

    fn next(&mut self) -> Option<N> {
        if let Some(children) = self.pending.take() {
            self.stack.push(children);
        }
        let node = match self.root.take() {
            Some(root) => {
                self.depth = 0;
                root
            }
            None => loop {
                let top = self.stack.last_mut()?;
                match top.next() {
                    Some(node) => {
                        self.depth = self.stack.len();
                        break node;
                    }
                    None => {
                        self.stack.pop();
                    }
                }
            },
        };
        if self.depth < self.max_depth {
            let children = (self.successors)(&node).into_iter();
            if children.size_hint().1 != Some(0) {
                self.pending = Some(children);
            }
        }
        Some(node)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let empty = self.root.is_none() && self.stack.is_empty() && self.pending.is_none();
        if empty { (0, Some(0)) } else { (usize::from(self.root.is_some()), None) }
    }
}

impl<N, IN, S> FusedIterator for Walk<N, IN::IntoIter, S>
where
    S: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
{
}

impl<N: fmt::Debug, I, S> fmt::Debug for Walk<N, I, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Walk")
            .field("root", &self.root)
            .field("depth", &self.depth)
            .field("open", &self.stack.len())
            .field("max_depth", &self.max_depth)
            .finish_non_exhaustive()
    }
}
