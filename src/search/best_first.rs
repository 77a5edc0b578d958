//! The [`BestFirst`] frontier: smallest key first, ties in insertion order.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::fmt;

use super::Frontier;

/// A frontier that pops the node with the smallest key, ties in insertion
/// order.
///
/// Choosing the best node needs the key of every node discovered, so the
/// children of a visited node are all built and keyed at once, but only on
/// the next [`pop`](Frontier::pop): until then they wait as one unopened
/// iterator. Each node's key is computed once. Built by
/// [`search::best_first`](super::best_first).
#[derive(Clone)]
pub struct BestFirst<N, K, KF, I = std::iter::Empty<N>> {
    heap: BinaryHeap<Keyed<N, K>>,
    pending: Option<I>,
    key: KF,
    inserted: u64,
}

impl<N, K, KF, I> BestFirst<N, K, KF, I>
where
    K: Ord,
    KF: FnMut(&N) -> K,
    I: Iterator<Item = N>,
{
    /// An empty frontier ordered by `key`.
    #[must_use]
    pub fn new(key: KF) -> Self {
        BestFirst { heap: BinaryHeap::new(), pending: None, key, inserted: 0 }
    }

    /// Builds and keys the children waiting since the last visit.
    fn open_pending(&mut self) {
        // The iterator stays in place while it is drained: if a key or a
        // child panics and the caller goes on, the siblings not keyed yet are
        // still there, and only the node that panicked is lost.
        while let Some(node) = self.pending.as_mut().and_then(Iterator::next) {
            let key = (self.key)(&node);
            self.heap.push(Keyed { key, inserted: self.inserted, node });
            self.inserted += 1;
        }
        self.pending = None;
    }
}

impl<N, K: fmt::Debug, KF, I> fmt::Debug for BestFirst<N, K, KF, I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Nodes may be large; the keys tell what the frontier will do next.
        f.debug_struct("BestFirst")
            .field("len", &self.heap.len())
            .field("pending", &self.pending.is_some())
            .field("next_key", &self.heap.peek().map(|k| &k.key))
            .finish_non_exhaustive()
    }
}

impl<I, N, K, KF> Frontier<I> for BestFirst<N, K, KF, I>
where
    I: Iterator<Item = N>,
    K: Ord,
    KF: FnMut(&N) -> K,
{
    fn push(&mut self, children: I) {
        self.open_pending();
        self.pending = Some(children);
    }

    fn pop(&mut self) -> Option<N> {
        self.open_pending();
        self.heap.pop().map(|k| k.node)
    }

    /// Nodes in the heap, plus one for children not keyed yet.
    fn len(&self) -> usize {
        self.heap.len() + usize::from(self.pending.is_some())
    }
}

/// A heap entry ordered so that `BinaryHeap`, a max-heap, pops the smallest
/// key first and, among equal keys, the one inserted first.
#[derive(Clone)]
struct Keyed<N, K> {
    key: K,
    inserted: u64,
    node: N,
}

impl<N, K: Ord> Ord for Keyed<N, K> {
    fn cmp(&self, other: &Self) -> Ordering {
        other.key.cmp(&self.key).then_with(|| other.inserted.cmp(&self.inserted))
    }
}

impl<N, K: Ord> PartialOrd for Keyed<N, K> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<N, K: Ord> PartialEq for Keyed<N, K> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<N, K: Ord> Eq for Keyed<N, K> {}
