//! [`par_dfs`]: every node of a tree, visited once, on every core.

use std::fmt;

use rayon::iter::ParallelIterator;
use rayon::iter::plumbing::{Folder, Reducer, UnindexedConsumer};

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
        let part = Part { root: Some(self.root), opened: false, stack: Vec::new(), successors: &self.successors };
        walk(part, consumer, 0)
    }
}

/// Nodes a worker visits between looks at whether to share its work.
const SLICE: usize = 1024;

/// How deep shares may nest on one worker's stack: each is a frame of
/// `rayon::join`, and the tree may be far deeper than any stack.
const MAX_NESTING: usize = 48;

/// Walks `part` in slices. After each slice, if nothing of this worker's is
/// waiting to be stolen, the rest is split in two and offered with
/// `rayon::join`: an idle worker takes the older half, and otherwise this
/// worker goes on with both. So work is shared whenever a worker runs dry,
/// not only at the start, and a share is as large as can be had: the
/// siblings nearest the root.
fn walk<N, IN, S, C>(mut part: Part<'_, N, IN::IntoIter, S>, consumer: C, nesting: usize) -> C::Result
where
    N: Send,
    S: Fn(&N) -> IN + Sync + Send,
    IN: IntoIterator<Item = N>,
    IN::IntoIter: Send,
    C: UnindexedConsumer<N>,
{
    let mut done: Option<C::Result> = None;
    loop {
        let reducer = consumer.to_reducer();
        let slice = part.fold_some(consumer.split_off_left().into_folder(), SLICE).complete();
        done = Some(match done {
            Some(before) => reducer.reduce(before, slice),
            None => slice,
        });
        if part.is_empty() || consumer.full() {
            break;
        }
        // `None`: not on a worker yet; the join below moves the walk into the pool.
        let share = nesting < MAX_NESTING && rayon_core::current_thread_has_pending_tasks() != Some(true);
        if !share {
            continue;
        }
        let (rest, older) = match part.split() {
            (rest, Some(older)) => (rest, older),
            (whole, None) => {
                part = whole;
                continue;
            }
        };
        let outer = consumer.to_reducer();
        let inner = consumer.to_reducer();
        let left = consumer.split_off_left();
        let (a, b) = rayon::join(|| walk(rest, left, nesting + 1), || walk(older, consumer, nesting + 1));
        let shared = inner.reduce(a, b);
        return match done {
            Some(before) => outer.reduce(before, shared),
            None => shared,
        };
    }
    done.unwrap_or_else(|| consumer.into_folder().complete())
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

impl<N, IN, S> Part<'_, N, IN::IntoIter, S>
where
    S: Fn(&N) -> IN,
    IN: IntoIterator<Item = N>,
{
    fn is_empty(&self) -> bool {
        self.root.is_none() && self.stack.is_empty()
    }

    /// Splits off the older work, when there is more than one node's worth:
    /// the oldest iterator on the stack (the siblings nearest the root), or
    /// the root's children, or the next sibling of the one iterator left.
    /// `self` keeps the rest, which comes first in depth-first order.
    fn split(mut self) -> (Self, Option<Self>) {
        let successors = self.successors;
        let part = |root, stack| Part { root, opened: false, stack, successors };
        if self.stack.len() >= 2 {
            let oldest = self.stack.remove(0);
            return (self, Some(part(None, vec![oldest])));
        }
        if let (Some(root), false) = (&self.root, self.opened) {
            let children = (self.successors)(root).into_iter();
            self.opened = true;
            return (self, Some(part(None, vec![children])));
        }
        if let Some(top) = self.stack.last_mut() {
            if let Some(node) = top.next() {
                // This sibling is visited after those left on the stack.
                return (self, Some(part(Some(node), Vec::new())));
            }
        }
        (self, None)
    }

    /// Visits up to `limit` nodes depth-first into `folder`, keeping the rest.
    fn fold_some<F: Folder<N>>(&mut self, mut folder: F, limit: usize) -> F {
        let mut visited = 0;
        if let Some(root) = self.root.take() {
            if !self.opened {
                self.stack.push((self.successors)(&root).into_iter());
            }
            folder = folder.consume(root);
            visited += 1;
        }
        while visited < limit && !folder.full() {
            let Some(top) = self.stack.last_mut() else { break };
            match top.next() {
                Some(node) => {
                    let children = (self.successors)(&node).into_iter();
                    if children.size_hint().1 != Some(0) {
                        self.stack.push(children);
                    }
                    folder = folder.consume(node);
                    visited += 1;
                }
                None => {
                    self.stack.pop();
                }
            }
        }
        folder
    }
}
