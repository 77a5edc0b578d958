//! [`Budget`]: a bound on a search's work, in nodes, in time, or both, and
//! [`Bounded`], the search that stops when its budget is spent and says so.

use std::fmt;
use std::iter::FusedIterator;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// How much work a search may do: at most so many nodes visited, at most so
/// much time from its first step, or both.
///
/// A node budget is deterministic: the same search stops at the same node on
/// every machine, which is what tests want. A time budget is what a batch
/// wants, so that one hard input cannot hold up the rest.
///
/// # Example
///
/// ```
/// use std::time::Duration;
/// use lazydoku::search::{self, Budget};
///
/// // An infinite tree: every number has two children.
/// let mut walk = search::bfs(1u64, |&n| [2 * n, 2 * n + 1]).within(Budget::nodes(10));
/// assert_eq!(walk.by_ref().count(), 10);
/// let stopped = walk.exhausted().expect("the tree is infinite");
/// assert_eq!(stopped.nodes(), 10);
/// assert_eq!(stopped.to_string(), "stopped after 10 nodes: the budget of 10 nodes was spent");
///
/// // Either limit stops it, whichever comes first.
/// let both = Budget::nodes(1_000_000).and_time(Duration::from_millis(1));
/// assert_eq!(both.node_limit(), Some(1_000_000));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Budget {
    nodes: Option<u64>,
    time: Option<Duration>,
}

impl Budget {
    /// No limit at all.
    pub const UNLIMITED: Budget = Budget { nodes: None, time: None };

    /// At most `nodes` nodes visited.
    #[must_use]
    pub const fn nodes(nodes: u64) -> Budget {
        Budget { nodes: Some(nodes), time: None }
    }

    /// At most `limit` of time, counted from the search's first step.
    #[must_use]
    pub const fn time(limit: Duration) -> Budget {
        Budget { nodes: None, time: Some(limit) }
    }

    /// This budget with a node limit as well.
    #[must_use]
    pub const fn and_nodes(self, nodes: u64) -> Budget {
        Budget { nodes: Some(nodes), ..self }
    }

    /// This budget with a time limit as well.
    #[must_use]
    pub const fn and_time(self, limit: Duration) -> Budget {
        Budget { time: Some(limit), ..self }
    }

    /// The node limit, if any.
    #[must_use]
    pub const fn node_limit(&self) -> Option<u64> {
        self.nodes
    }

    /// The time limit, if any.
    #[must_use]
    pub const fn time_limit(&self) -> Option<Duration> {
        self.time
    }
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::UNLIMITED
    }
}

/// Which limit of a [`Budget`] was reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Limit {
    /// The node limit.
    Nodes(u64),
    /// The time limit.
    Time(Duration),
}

/// Why a bounded search stopped before its end: its [`Budget`] was spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Exhausted {
    nodes: u64,
    limit: Limit,
}

impl Exhausted {
    /// Nodes visited before the search stopped.
    #[must_use]
    pub const fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The limit that was reached.
    #[must_use]
    pub const fn limit(&self) -> Limit {
        self.limit
    }
}

impl fmt::Display for Exhausted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.limit {
            Limit::Nodes(n) => write!(f, "stopped after {} nodes: the budget of {n} nodes was spent", self.nodes),
            Limit::Time(t) => {
                write!(f, "stopped after {} nodes: the time budget of {} s was spent", self.nodes, t.as_secs_f64())
            }
        }
    }
}

impl std::error::Error for Exhausted {}

/// A budget being spent: nodes so far, and the deadline once the clock runs.
#[derive(Clone, Debug)]
pub(crate) struct Meter {
    budget: Budget,
    /// Nodes allowed; `u64::MAX` without a node limit, so that one compare
    /// serves both cases on the hot path.
    allowed: u64,
    visited: u64,
    deadline: Option<Instant>,
    exhausted: Option<Exhausted>,
    /// Set by another thread to stop the search, as when two searches race
    /// for one answer and the other has it.
    stop: Option<Arc<AtomicBool>>,
    /// Whether there is a clock or a stop flag to look at: one test per
    /// node on the hot path, for both.
    looks: bool,
}

/// The clock is read once in this many nodes: a read costs tens of
/// nanoseconds, a node up to tens of microseconds.
const CLOCK_EVERY: u64 = 64;

impl Meter {
    pub(crate) fn new(budget: Budget) -> Meter {
        Meter {
            budget,
            allowed: budget.nodes.unwrap_or(u64::MAX),
            visited: 0,
            deadline: None,
            exhausted: None,
            stop: None,
            looks: budget.time.is_some(),
        }
    }

    /// This meter, spent as soon as `stop` is set: looked at as often as
    /// the clock is. A search stopped this way reports its budget cut to
    /// the nodes it had visited.
    #[cfg(feature = "parallel")]
    pub(crate) fn stopped_by(self, stop: Arc<AtomicBool>) -> Meter {
        Meter { stop: Some(stop), looks: true, ..self }
    }

    /// Whether the budget limits nodes.
    pub(crate) fn has_node_limit(&self) -> bool {
        self.budget.node_limit().is_some()
    }

    /// Counts one node; `false`, from then on, once the budget is spent.
    #[inline]
    pub(crate) fn tick(&mut self) -> bool {
        if self.visited >= self.allowed {
            return self.spent(Limit::Nodes(self.allowed));
        }
        if self.looks && self.visited % CLOCK_EVERY == 0 && !self.look() {
            return false;
        }
        self.visited += 1;
        true
    }

    /// Whether the search may go on, by the clock and the stop flag:
    /// `false`, with the budget spent, once either says no.
    #[cold]
    fn look(&mut self) -> bool {
        if self.stop.as_ref().is_some_and(|stop| stop.load(Relaxed)) {
            return self.spent(Limit::Nodes(self.visited));
        }
        let time = self.budget.time;
        match time {
            Some(limit) if !self.in_time(limit) => self.spent(Limit::Time(limit)),
            _ => true,
        }
    }

    #[cold]
    fn in_time(&mut self, limit: Duration) -> bool {
        let now = Instant::now();
        let deadline = *self.deadline.get_or_insert_with(|| now.checked_add(limit).unwrap_or(now));
        self.exhausted.is_none() && (now < deadline || self.visited == 0)
    }

    #[cold]
    fn spent(&mut self, limit: Limit) -> bool {
        // Stays spent: a later node limit check must not report the time.
        self.allowed = self.visited;
        self.exhausted.get_or_insert(Exhausted { nodes: self.visited, limit });
        false
    }

    pub(crate) fn exhausted(&self) -> Option<Exhausted> {
        self.exhausted
    }

    /// Nodes left before the node limit; `u64::MAX` without one.
    pub(crate) fn nodes_left(&self) -> u64 {
        self.allowed.saturating_sub(self.visited)
    }

    /// Counts `nodes` spent elsewhere (no more than [`Meter::nodes_left`]);
    /// `false` once the budget is spent, nodes or time.
    pub(crate) fn spend(&mut self, nodes: u64) -> bool {
        self.visited = self.visited.saturating_add(nodes).min(self.allowed);
        if self.visited >= self.allowed {
            return self.spent(Limit::Nodes(self.allowed));
        }
        self.look() && self.exhausted.is_none()
    }

    /// Nodes counted so far.
    pub(crate) fn visited(&self) -> u64 {
        self.visited
    }
}

/// A search, or any iterator, that stops once its [`Budget`] is spent: each
/// item taken from the inner iterator counts as one node.
///
/// Built by [`Search::within`](super::Search::within) or [`bounded`]. After
/// it ends, [`Bounded::exhausted`] says whether it ran out of budget or
/// reached the end. Take items through [`Iterator::by_ref`] to ask it.
#[derive(Clone, Debug)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct Bounded<I> {
    inner: I,
    meter: Meter,
}

impl<I> Bounded<I> {
    /// Why it stopped early, or `None` while it has budget left (and when
    /// it ended with budget to spare).
    #[must_use]
    pub fn exhausted(&self) -> Option<Exhausted> {
        self.meter.exhausted()
    }

    /// Nodes visited so far.
    #[must_use]
    pub fn visited(&self) -> u64 {
        self.meter.visited()
    }

    /// The iterator inside, to look at (a search's frontier, say).
    pub fn get_ref(&self) -> &I {
        &self.inner
    }

    /// The iterator inside, to go on without a bound.
    pub fn into_inner(self) -> I {
        self.inner
    }
}

/// Bounds any iterator by `budget`, each item counting as one node.
///
/// ```
/// use lazydoku::search::{self, Budget};
///
/// let mut numbers = search::bounded(0.., Budget::nodes(3));
/// assert_eq!(numbers.by_ref().collect::<Vec<_>>(), [0, 1, 2]);
/// assert!(numbers.exhausted().is_some());
/// ```
pub fn bounded<I: Iterator>(inner: I, budget: Budget) -> Bounded<I> {
    Bounded { inner, meter: Meter::new(budget) }
}

impl<I: Iterator> Iterator for Bounded<I> {
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        if self.meter.exhausted().is_some() {
            return None;
        }
        // Ending with budget to spare is not running out: look first.
        if self.inner.size_hint().1 == Some(0) {
            return None;
        }
        if !self.meter.tick() {
            return None;
        }
        self.inner.next()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        if self.meter.exhausted().is_some() { (0, Some(0)) } else { (0, self.inner.size_hint().1) }
    }
}

impl<I: FusedIterator> FusedIterator for Bounded<I> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "parallel")]
    #[test]
    fn a_meter_told_to_stop_is_spent_within_a_look_and_stays_spent() {
        let stop = Arc::new(AtomicBool::new(false));
        let mut meter = Meter::new(Budget::UNLIMITED).stopped_by(Arc::clone(&stop));
        assert!((0..1_000).all(|_| meter.tick()));
        assert!(meter.spend(10));
        stop.store(true, Relaxed);
        let before = meter.visited();
        let more = (0..1_000).take_while(|_| meter.tick()).count();
        assert!(more < 64, "{more} nodes after the stop");
        let exhausted = meter.exhausted().expect("stopped");
        assert_eq!(exhausted.nodes(), before + more as u64);
        assert!(!meter.tick() && !meter.spend(0), "still spent");
        // Without a stop flag or a clock, a meter never looks.
        let mut free = Meter::new(Budget::UNLIMITED);
        assert!((0..1_000).all(|_| free.tick()) && free.spend(1_000) && free.exhausted().is_none());
    }
}
