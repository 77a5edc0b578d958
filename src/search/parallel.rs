//! [`par_dfs`]: every node of a tree, visited once, on every core.

use std::fmt;

use rayon::iter::ParallelIterator;
use rayon::iter::plumbing::{Folder, UnindexedConsumer, UnindexedProducer, bridge_unindexed};

/// Visits `root` and every node below it exactly once, in parallel: a
/// rayon [`ParallelIterator`], so `filter`, `count`, `find_any`, `reduce` and
/// the rest simply work.
///
/// Each worker walks its part of the tree depth-first, with a stack of
/// unopened child iterators as [`dfs`](super::dfs) does. When rayon asks for
/// work to share, a worker gives away the oldest iterator on its stack (the
/// siblings nearest the root, whose subtrees are the largest), or, with a
/// single iterator left, the next sibling from it. Nothing is built before a
/// worker needs it, and memory grows with the depth of the tree on each
/// worker. The order of the nodes is not defined.
///
/// `successors` is shared by the workers, so it is `Fn + Sync`.
///
/// # Example
///
/// ```
/// use lazydoku::search;
/// use rayon::prelude::*;
///
/// // The full binary tree of depth 16: 2^17 - 1 nodes, each once.
/// let nodes = search::par_dfs(1u64, |&n| if n < 1 << 16 { vec![2 * n, 2 * n + 1] } else { vec![] });
/// assert_eq!(nodes.clone().count(), (1 << 17) - 1);
/// assert_eq!(nodes.sum::<u64>(), (1..1 << 17).sum());
/// ```
pub fn par_dfs<N, IN, S>(root: N, successors: S) -> ParDfs<N, S>
where
    N: Send,
    S: Fn(&N) -> IN + Sync + Send,
    IN: IntoIterator<Item = N>,
    IN::IntoIter: Send,
{
    ParDfs { root, successors }
}

/// The parallel depth-first search built by [`par_dfs`].
#[derive(Clone)]
#[must_use = "parallel iterators are lazy and do nothing unless consumed"]
pub struct ParDfs<N, S> {
    root: N,
    successors: S,
}

impl<N: fmt::Debug, S> fmt::Debug for ParDfs<N, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ParDfs").field("root", &self.root).finish_non_exhaustive()
    }
}

impl<N, IN, S> ParallelIterator for ParDfs<N, S>
where
    N: Send,
    S: Fn(&N) -> IN + Sync + Send,
    IN: IntoIterator<Item = N>,
    IN::IntoIter: Send,
{
    type Item = N;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<N>,
    {
        let producer = Part { root: Some(self.root), opened: false, stack: Vec::new(), successors: &self.successors };
        bridge_unindexed(producer, consumer)
    }
}

/// One worker's share of the tree: perhaps a node not visited yet, and a
/// stack of unopened child iterators.
struct Part<'s, N, I, S> {
    root: Option<N>,
    /// Whether the root's children were already handed to another part.
    opened: bool,
    stack: Vec<I>,
    successors: &'s S,
}

impl<N, IN, S> UnindexedProducer for Part<'_, N, IN::IntoIter, S>
where
    N: Send,
    S: Fn(&N) -> IN + Sync + Send,
    IN: IntoIterator<Item = N>,
    IN::IntoIter: Send,
{
    type Item = N;

    fn split(mut self) -> (Self, Option<Self>) {
        let part = |root, stack| Part { root, opened: false, stack, successors: self.successors };
        if self.stack.len() >= 2 {
            // The oldest siblings, nearest the root: the most work.
            let oldest = self.stack.remove(0);
            return (Part { ..self }, Some(part(None, vec![oldest])));
        }
        if let (Some(root), false) = (&self.root, self.opened) {
            // The root stays to be visited here; its children go there.
            let children = (self.successors)(root).into_iter();
            self.opened = true;
            return (Part { ..self }, Some(part(None, vec![children])));
        }
        if let Some(top) = self.stack.last_mut() {
            if let Some(node) = top.next() {
                return (Part { ..self }, Some(part(Some(node), Vec::new())));
            }
        }
        (self, None)
    }

    fn fold_with<F>(self, mut folder: F) -> F
    where
        F: Folder<N>,
    {
        let Part { root, opened, mut stack, successors } = self;
        if let Some(root) = root {
            if !opened {
                stack.push(successors(&root).into_iter());
            }
            folder = folder.consume(root);
        }
        while !folder.full() {
            let Some(top) = stack.last_mut() else { break };
            match top.next() {
                Some(node) => {
                    let children = successors(&node).into_iter();
                    if children.size_hint().1 != Some(0) {
                        stack.push(children);
                    }
                    folder = folder.consume(node);
                }
                None => {
                    stack.pop();
                }
            }
        }
        folder
    }
}
