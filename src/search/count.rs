//! [`Counter`]: counting the goal nodes of a search, with a shortcut for
//! subtrees that can be counted without walking them.

use std::fmt;

use super::budget::Meter;
use super::{Budget, Exhausted, Frontier, Search, Successors};

/// Counts the goal nodes below some nodes without walking them: the
/// shortcut of a [`Counter`].
///
/// `count(node, wanted)` is `Some(n)` when the subtree of `node` (the node
/// itself included) holds `n` goals, counting no further than `wanted`;
/// that subtree is then neither walked nor expanded. `None` leaves the node
/// to the search. Any `FnMut(&N, usize) -> Option<usize>` is one.
pub trait Shortcut<N> {
    /// The goals in the subtree of `node`, up to `wanted`, or `None` to
    /// walk it.
    fn count(&mut self, node: &N, wanted: usize) -> Option<usize>;
}

impl<N, F> Shortcut<N> for F
where
    F: FnMut(&N, usize) -> Option<usize>,
{
    #[inline]
    fn count(&mut self, node: &N, wanted: usize) -> Option<usize> {
        self(node, wanted)
    }
}

/// The shortcut that counts nothing itself: every subtree is walked.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoShortcut;

impl<N> Shortcut<N> for NoShortcut {
    #[inline]
    fn count(&mut self, _: &N, _: usize) -> Option<usize> {
        None
    }
}

/// Counts the goal nodes of a search, no further than a limit at a time.
///
/// Built by [`Search::counter`]. It walks the search in its own order, so
/// a depth-first counter keeps one child iterator per level and nothing
/// else. Two options:
///
/// - [`Counter::shortcut`] counts a subtree without walking it, where
///   the caller knows a cheaper way: a closed formula, a table, a faster
///   special-purpose count. [`Board::count_solutions`](crate::Board::count_solutions)
///   counts the last empty cells of a 9x9 board this way.
/// - [`Counter::within`] stops the count once a [`Budget`] is spent; each
///   node taken from the search counts as one, a subtree counted by the
///   shortcut as one.
///
/// [`Counter::up_to`] can be called again: each call counts further goals,
/// where the last one stopped.
///
/// # Example
///
/// ```
/// use lazydoku::search;
///
/// // Paths of up to 20 steps left or right: 2^20 leaves at depth 20.
/// let steps = |path: &Vec<bool>| {
///     let stem = path.clone();
///     let more = if path.len() < 20 { [false, true].as_slice() } else { &[] };
///     more.iter().map(move |&step| [stem.as_slice(), &[step]].concat())
/// };
/// let complete = |path: &Vec<bool>| path.len() == 20;
///
/// let walked = search::dfs(vec![], steps).counter(complete).up_to(usize::MAX);
/// assert_eq!(walked, 1 << 20);
///
/// // Below depth 10, the 2^(20 - depth) leaves of a subtree are known.
/// let known = |path: &Vec<bool>, wanted: usize| (path.len() >= 10).then(|| (1usize << (20 - path.len())).min(wanted));
/// let mut counter = search::dfs(vec![], steps).counter(complete).shortcut(known);
/// assert_eq!(counter.up_to(usize::MAX), 1 << 20);
/// ```
#[must_use = "a counter does nothing until `up_to` is called"]
pub struct Counter<I, G, D> {
    search: I,
    goal: G,
    shortcut: D,
    meter: Meter,
}

impl<I, G> Counter<I, G, NoShortcut> {
    pub(crate) fn new(search: I, goal: G) -> Self {
        Counter { search, goal, shortcut: NoShortcut, meter: Meter::new(Budget::UNLIMITED) }
    }
}

impl<I, G, D> Counter<I, G, D> {
    /// This count, with `shortcut` asked about each node before it is
    /// expanded (see [`Shortcut`]).
    pub fn shortcut<E>(self, shortcut: E) -> Counter<I, G, E> {
        Counter { search: self.search, goal: self.goal, shortcut, meter: self.meter }
    }

    /// This count, stopping once `budget` is spent; [`Counter::exhausted`]
    /// then says so, and the count returned is a lower bound.
    pub fn within(mut self, budget: Budget) -> Self {
        self.meter = Meter::new(budget);
        self
    }

    /// This count, spending a budget already begun.
    pub(crate) fn with_meter(mut self, meter: Meter) -> Self {
        self.meter = meter;
        self
    }

    /// Why the count stopped early, or `None` while it has budget left.
    #[must_use]
    pub fn exhausted(&self) -> Option<Exhausted> {
        self.meter.exhausted()
    }

    /// Nodes taken from the search so far, subtrees counted by the shortcut
    /// included.
    #[must_use]
    pub fn visited(&self) -> u64 {
        self.meter.visited()
    }

    /// The search inside, where the count stopped.
    pub fn into_inner(self) -> I {
        self.search
    }
}

impl<N, IN, S, F, G, D> Counter<Search<N, IN, S, F>, G, D>
where
    S: Successors<N, IN>,
    IN: IntoIterator<Item = N>,
    F: Frontier<IN::IntoIter>,
    G: FnMut(&N) -> bool,
    D: Shortcut<N>,
{
    /// Counts goals until `limit` more are found, the search ends, or the
    /// budget is spent; returns how many this call found.
    pub fn up_to(&mut self, limit: usize) -> usize {
        let mut count = 0;
        while count < limit {
            // Looked at where it is returned, not moved out: nodes may be
            // large, and a copy per node shows.
            let node = self.search.pop();
            let Some(taken) = &node else { break };
            // Taken before the budget is asked: a search that has ended has
            // not run out.
            if !self.meter.tick() {
                self.search.put_back(node);
                break;
            }
            let wanted = limit - count;
            count += if let Some(found) = self.shortcut.count(taken, wanted) {
                found.min(wanted)
            } else {
                self.search.expand(taken);
                usize::from((self.goal)(taken))
            };
        }
        count
    }
}

impl<I: Clone, G: Clone, D: Clone> Clone for Counter<I, G, D> {
    fn clone(&self) -> Self {
        Counter {
            search: self.search.clone(),
            goal: self.goal.clone(),
            shortcut: self.shortcut.clone(),
            meter: self.meter.clone(),
        }
    }
}

impl<I: fmt::Debug, G, D> fmt::Debug for Counter<I, G, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Counter").field("search", &self.search).field("meter", &self.meter).finish_non_exhaustive()
    }
}
