//! [`beam`]: level by level, keeping only the best few nodes of each level.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};
use std::fmt;
use std::iter::FusedIterator;

/// Beam search: visits `root`, then level by level, keeping of each level
/// only the `width` nodes with the smallest `key` (ties in the order they
/// were built) and expanding only those.
///
/// A level's nodes come out in key order. A node's children are built when
/// the node is yielded, and at most `width` of a level's are kept at any
/// time, so memory grows with `width`, not with the tree. With a width as large as the widest level, this is a breadth-first
/// search that orders each level by key; with width 1, a greedy descent.
///
/// # Example
///
/// ```
/// use lazydoku::search;
///
/// // Numbers built digit by digit; keep the 2 smallest of each level.
/// let children = |&n: &u32| if n < 100 { (1..=3).map(|d| 10 * n + d).collect() } else { vec![] };
/// let mut it = search::beam(0, children, |&n: &u32| n, 2);
/// assert_eq!(it.next(), Some(0));
/// assert_eq!(it.next(), Some(1)); // of 1, 2, 3
/// assert_eq!(it.next(), Some(2));
/// assert_eq!(it.next(), Some(11)); // of 11, 12, 13, 21, 22, 23
/// assert_eq!(it.next(), Some(12));
/// assert_eq!(it.next(), Some(111));
/// ```
pub fn beam<N, IN, S, K, KF>(root: N, successors: S, key: KF, width: usize) -> Beam<N, K, S, KF>
where
    S: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
    K: Ord,
    KF: FnMut(&N) -> K,
{
    Beam { level: VecDeque::from([root]), next: BinaryHeap::new(), successors, key, width, built: 0 }
}

/// The beam search built by [`beam`].
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct Beam<N, K, S, KF> {
    /// The kept nodes of the current level not yielded yet, best first.
    level: VecDeque<N>,
    /// The best children so far of the nodes yielded from this level: the
    /// next level. The worst is on top, to be dropped when there are too many.
    next: BinaryHeap<Keyed<K, N>>,
    successors: S,
    key: KF,
    width: usize,
    /// Children built so far, to break ties in the order they were built.
    built: u64,
}

impl<N, IN, S, K, KF> Iterator for Beam<N, K, S, KF>
where
    S: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
    K: Ord,
    KF: FnMut(&N) -> K,
{
    type Item = N;

    fn next(&mut self) -> Option<N> {
        if self.level.is_empty() {
            self.level = std::mem::take(&mut self.next).into_sorted_vec().into_iter().map(|k| k.node).collect();
        }
        let node = self.level.pop_front()?;
        // Its children compete for the next level now, so that no node
        // needs to be kept (or cloned) after it is yielded.
        for child in (self.successors)(&node) {
            let key = (self.key)(&child);
            self.next.push(Keyed { key, built: self.built, node: child });
            self.built += 1;
            if self.next.len() > self.width {
                self.next.pop();
            }
        }
        Some(node)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let known = self.level.len() + self.next.len();
        (known, None)
    }
}

impl<N, IN, S, K, KF> FusedIterator for Beam<N, K, S, KF>
where
    S: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
    K: Ord,
    KF: FnMut(&N) -> K,
{
}

impl<N, K: fmt::Debug, S, KF> fmt::Debug for Beam<N, K, S, KF> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Beam")
            .field("level", &self.level.len())
            .field("next", &self.next.len())
            .field("width", &self.width)
            .finish_non_exhaustive()
    }
}

/// A node with its key, ordered by key and then by when it was built.
struct Keyed<K, N> {
    key: K,
    built: u64,
    node: N,
}

impl<K: Ord, N> Ord for Keyed<K, N> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key.cmp(&other.key).then_with(|| self.built.cmp(&other.built))
    }
}

impl<K: Ord, N> PartialOrd for Keyed<K, N> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<K: Ord, N> PartialEq for Keyed<K, N> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<K: Ord, N> Eq for Keyed<K, N> {}
