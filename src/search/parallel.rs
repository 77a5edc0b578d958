//! [`par_dfs`]: every node of a tree, visited once, on every core.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::time::{Duration, Instant};

use rayon::iter::ParallelIterator;
use rayon::iter::plumbing::{Folder, Reducer, UnindexedConsumer};

use super::NoShortcut;

/// Visits `root` and every node below it exactly once, in parallel: a
/// rayon [`ParallelIterator`], so `filter`, `count`, `find_any`, `reduce` and
/// the rest simply work.
///
/// Each worker walks its part of the tree depth-first, with a stack of
/// unopened child iterators as [`dfs`](super::dfs) does. Every 1,024 nodes
/// or millisecond, whichever comes first (so slow nodes are shared too), a
/// worker with nothing of its own waiting to be stolen offers the oldest
/// iterator on its stack (the siblings nearest the root, whose subtrees
/// are the largest), or, with a single iterator left, the next sibling
/// from it. Nothing is built before a
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

impl<N, IN, S> ParDfs<N, S>
where
    N: Send,
    S: Fn(&N) -> IN + Sync + Send,
    IN: IntoIterator<Item = N>,
    IN::IntoIter: Send,
{
    /// Counts the goal nodes of this search on every core, optionally
    /// counting whole subtrees at once: [`Counter`](super::Counter) in
    /// parallel. See [`ParCounter`].
    ///
    /// ```
    /// use lazydoku::search;
    ///
    /// // Subsets of 0..20 as increasing lists: the 2^20 nodes, 184,756 of 10 elements.
    /// let bigger = |s: &Vec<u8>| {
    ///     let from = s.last().map_or(0, |&x| x + 1);
    ///     let stem = s.clone();
    ///     (from..20).map(move |x| [stem.as_slice(), &[x]].concat())
    /// };
    /// let tens = search::par_dfs(vec![], bigger).counter(|s: &Vec<u8>| s.len() == 10);
    /// assert_eq!(tens.clone().up_to(usize::MAX), 184_756);
    /// assert_eq!(tens.up_to(1_000), 1_000); // and it stops soon after
    /// ```
    pub fn counter<G>(self, goal: G) -> ParCounter<N, S, G, NoShortcut>
    where
        G: Fn(&N) -> bool + Sync + Send,
    {
        ParCounter { search: self, goal, shortcut: NoShortcut }
    }
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

/// Nodes a worker visits between looks at whether to share its work...
const SLICE: usize = 1024;
/// ...or less, once this much time has passed: a node can stand for a
/// whole subtree, as when a count's shortcut counts it at once, and a tree
/// of a few hundred such nodes would otherwise be walked by one worker
/// while the others wait (the empty 6x6 board's count took as long on two
/// cores as on one).
const SLICE_TIME: Duration = Duration::from_millis(1);
/// The clock is read once in this many nodes of a slice, and at its first
/// nodes (the first, second, fourth and eighth), where a slow node shows.
const CLOCK_EVERY: usize = 16;

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

    /// Visits up to `limit` nodes depth-first into `folder`, for about
    /// [`SLICE_TIME`] at most, keeping the rest.
    fn fold_some<F: Folder<N>>(&mut self, mut folder: F, limit: usize) -> F {
        let deadline = Instant::now() + SLICE_TIME;
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
                    if (visited % CLOCK_EVERY == 0 || visited.is_power_of_two()) && Instant::now() >= deadline {
                        break;
                    }
                }
                None => {
                    self.stack.pop();
                }
            }
        }
        folder
    }
}

/// Counts the goal nodes of a [`ParDfs`] on every core, no further than a
/// limit: [`Counter`](super::Counter) in parallel. Built by
/// [`ParDfs::counter`].
///
/// With a [`ParCounter::shortcut`], a subtree the shortcut can count is
/// counted without being walked. The shortcut is asked about each node as it
/// is taken from its parent's children, before it is expanded; it is shared
/// by the workers, so it is `Fn + Sync`, with no state of its own.
///
/// Once `limit` goals are found, no worker expands another node.
#[derive(Clone)]
#[must_use = "a counter does nothing until `up_to` is called"]
pub struct ParCounter<N, S, G, D> {
    search: ParDfs<N, S>,
    goal: G,
    shortcut: D,
}

impl<N: fmt::Debug, S, G, D> fmt::Debug for ParCounter<N, S, G, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ParCounter").field("search", &self.search).finish_non_exhaustive()
    }
}

/// A shortcut the workers of a [`ParCounter`] share: [`NoShortcut`], or any
/// `Fn(&N, usize) -> Option<usize> + Sync`, with the meaning of
/// [`Shortcut`](super::Shortcut).
pub trait SharedShortcut<N>: Sync {
    /// The goals in the subtree of `node`, up to `wanted`, or `None` to
    /// walk it.
    fn count(&self, node: &N, wanted: usize) -> Option<usize>;
}

impl<N, F> SharedShortcut<N> for F
where
    F: Fn(&N, usize) -> Option<usize> + Sync,
{
    #[inline]
    fn count(&self, node: &N, wanted: usize) -> Option<usize> {
        self(node, wanted)
    }
}

impl<N> SharedShortcut<N> for NoShortcut {
    #[inline]
    fn count(&self, _: &N, _: usize) -> Option<usize> {
        None
    }
}

/// A node of the counting walk: one still to walk, or a subtree already
/// counted.
enum Tally<N> {
    Open(N),
    Counted(usize),
}

/// The children of a node of the counting walk, each asked of the shortcut
/// as it is taken.
struct TallyChildren<'a, I, D> {
    children: Option<I>,
    shortcut: &'a D,
    wanted: usize,
}

impl<N, I, D> Iterator for TallyChildren<'_, I, D>
where
    I: Iterator<Item = N>,
    D: SharedShortcut<N>,
{
    type Item = Tally<N>;

    fn next(&mut self) -> Option<Tally<N>> {
        let node = self.children.as_mut()?.next()?;
        Some(tally(node, self.shortcut, self.wanted))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.children.as_ref().map_or((0, Some(0)), Iterator::size_hint)
    }
}

fn tally<N>(node: N, shortcut: &impl SharedShortcut<N>, wanted: usize) -> Tally<N> {
    match shortcut.count(&node, wanted) {
        Some(found) => Tally::Counted(found.min(wanted)),
        None => Tally::Open(node),
    }
}

impl<N, IN, S, G, D> ParCounter<N, S, G, D>
where
    N: Send,
    S: Fn(&N) -> IN + Sync + Send,
    IN: IntoIterator<Item = N>,
    IN::IntoIter: Send,
    G: Fn(&N) -> bool + Sync + Send,
    D: SharedShortcut<N>,
{
    /// This count, with `shortcut` asked about each node before it is
    /// expanded.
    pub fn shortcut<E: SharedShortcut<N>>(self, shortcut: E) -> ParCounter<N, S, G, E> {
        ParCounter { search: self.search, goal: self.goal, shortcut }
    }

    /// The number of goals, counting no further than `limit`.
    #[must_use]
    pub fn up_to(self, limit: usize) -> usize {
        let found = AtomicUsize::new(0);
        self.count(limit, &found, None)
    }

    /// [`ParCounter::up_to`] racing another search for the same count
    /// through `race`: `None` if the other finished first (this count,
    /// stopped part way, may be short), else the count, and the other is
    /// told to stop.
    pub(crate) fn up_to_racing(self, limit: usize, race: &Race) -> Option<usize> {
        let counted = self.count(limit, &race.found, Some(race));
        race.finish(counted)
    }

    /// The count of [`ParCounter::up_to`], with `found` kept up to date as
    /// goals are found, and stopped early once `race` says so.
    fn count(self, limit: usize, found: &AtomicUsize, race: Option<&Race>) -> usize {
        if limit == 0 {
            return 0;
        }
        let ParCounter { search: ParDfs { root, successors }, goal, shortcut } = self;
        let shortcut = &shortcut;
        // With no limit to stop at, no counter is shared between the cores,
        // unless a racing search watches it.
        let bounded = limit != usize::MAX;
        let stopped = || race.is_some_and(|race| race.stop.load(Relaxed)) || (bounded && found.load(Relaxed) >= limit);
        let expand = |node: &Tally<N>| {
            let children = match node {
                Tally::Open(node) if !stopped() => Some(successors(node).into_iter()),
                _ => None,
            };
            TallyChildren { children, shortcut, wanted: limit }
        };
        let counted = par_dfs(tally(root, shortcut, limit), expand)
            .map(|node| {
                let n = match node {
                    Tally::Counted(n) => n,
                    Tally::Open(node) => usize::from(goal(&node)),
                };
                // Written only when there is something to add: a write per
                // node would bounce the counter between the cores.
                if n > 0 && (bounded || race.is_some_and(|race| race.watched.load(Relaxed))) {
                    found.fetch_add(n, Relaxed);
                }
                n
            })
            .reduce(|| 0, usize::saturating_add);
        counted.min(limit)
    }
}

/// What two searches for the same count share while they race, each on
/// its own threads: the first to finish answers and stops the other.
#[derive(Debug)]
pub(crate) struct Race {
    /// Set by the first search to finish.
    pub(crate) stop: Arc<AtomicBool>,
    /// The goals the parallel count has found so far, kept up to date
    /// while the other search watches it.
    pub(crate) found: AtomicUsize,
    /// Whether the other search still watches `found`; it stops watching
    /// when it leaves the race.
    pub(crate) watched: AtomicBool,
}

impl Race {
    pub(crate) fn new() -> Race {
        Race { stop: Arc::new(AtomicBool::new(false)), found: AtomicUsize::new(0), watched: AtomicBool::new(true) }
    }

    /// A search of the race has ended with `counted`, which is the answer
    /// if no other search ended before (and so nothing stopped this one
    /// part way); the others are told to stop.
    pub(crate) fn finish(&self, counted: usize) -> Option<usize> {
        self.stop.compare_exchange(false, true, Relaxed, Relaxed).is_ok().then_some(counted)
    }
}
