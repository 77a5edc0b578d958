//! The [`Search`] iterator that drives every frontier.

use std::fmt;
use std::iter::FusedIterator;
use std::marker::PhantomData;

use super::Frontier;

/// How a [`Search`] expands a node into its children.
///
/// Every closure or function `FnMut(&N) -> IN` is one, and that is what
/// [`dfs`](super::dfs), [`bfs`](super::bfs) and the other constructors take.
/// Implement it for a type of your own to name a search's type without a
/// function pointer, which the compiler cannot see through, and build the
/// search with [`Search::new`]. [`Board::solutions`](crate::Board::solutions)
/// is built this way.
///
/// ```
/// use lazydoku::search::{Search, Stack, Successors};
///
/// /// The children 2n and 2n + 1 of n, up to a bound.
/// struct Halving(u32);
///
/// impl Successors<u32, Vec<u32>> for Halving {
///     fn successors(&mut self, &n: &u32) -> Vec<u32> {
///         (2 * n..=2 * n + 1).filter(|&c| c <= self.0).collect()
///     }
/// }
///
/// // A type a struct can hold: no closure, no function pointer.
/// type Numbers = Search<u32, Vec<u32>, Halving, Stack<std::vec::IntoIter<u32>>>;
/// let search: Numbers = Search::new(1, Halving(7), Stack::new());
/// assert_eq!(search.collect::<Vec<_>>(), [1, 2, 4, 5, 3, 6, 7]);
/// ```
pub trait Successors<N, IN> {
    /// The children of `node`.
    fn successors(&mut self, node: &N) -> IN;
}

impl<N, IN, S> Successors<N, IN> for S
where
    S: FnMut(&N) -> IN,
{
    fn successors(&mut self, node: &N) -> IN {
        self(node)
    }
}

/// An iterator over every node of a search tree, root first, in the order
/// its frontier `F` chooses.
///
/// Built by [`dfs`](super::dfs), [`bfs`](super::bfs),
/// [`best_first`](super::best_first) and [`with_frontier`](super::with_frontier).
///
/// When a node is yielded, its `successors` iterator has been created and
/// handed to the frontier, but not pulled: stopping after a node costs
/// nothing for its children. An iterator whose
/// [`size_hint`](Iterator::size_hint) promises no item (upper bound 0) is
/// dropped instead of pushed, so leaves cost the frontier nothing.
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct Search<N, IN: IntoIterator, S, F> {
    root: Option<N>,
    successors: S,
    frontier: F,
    _children: PhantomData<fn() -> IN>,
}

impl<N, IN, S, F> Search<N, IN, S, F>
where
    S: Successors<N, IN>,
    IN: IntoIterator<Item = N>,
    F: Frontier<IN::IntoIter>,
{
    /// The search from `root`, expanding nodes with `successors`, in the
    /// order `frontier` gives. The constructors such as
    /// [`dfs`](super::dfs) call this; call it directly for a
    /// [`Successors`] type of your own.
    pub fn new(root: N, successors: S, frontier: F) -> Self {
        Search { root: Some(root), successors, frontier, _children: PhantomData }
    }

    /// The frontier: what has been discovered and not yet visited.
    ///
    /// Its [`len`](Frontier::len) is the measure to watch when a breadth-first
    /// search might outgrow memory.
    ///
    /// ```
    /// use lazydoku::search::{self, Frontier};
    ///
    /// let mut it = search::bfs(0u32, |&n| [n + 1, n + 2]);
    /// it.by_ref().take(100).for_each(drop);
    /// assert!(it.frontier().len() > 10);
    /// ```
    pub fn frontier(&self) -> &F {
        &self.frontier
    }

    /// This search, stopping once `budget` is spent: each node visited
    /// counts as one. See [`Budget`](super::Budget).
    ///
    /// ```
    /// use lazydoku::search::{self, Budget};
    ///
    /// let mut walk = search::dfs(0u32, |&n| [n + 1]).within(Budget::nodes(5));
    /// assert_eq!(walk.by_ref().last(), Some(4));
    /// assert_eq!(walk.exhausted().map(|e| e.nodes()), Some(5));
    /// ```
    pub fn within(self, budget: super::Budget) -> super::Bounded<Self> {
        super::bounded(self, budget)
    }

    /// This search, without the nodes that fail `keep`: such a node is
    /// neither yielded nor expanded, so nothing below it is built (walkdir's
    /// `filter_entry`). [`Iterator::filter`] would still search below it.
    ///
    /// ```
    /// use lazydoku::search;
    ///
    /// let tree = |&n: &u32| if n < 8 { vec![2 * n, 2 * n + 1] } else { vec![] };
    /// // Without the subtree of 2: 1, 3, 6, 7, 12, 13, 14, 15.
    /// let kept: Vec<u32> = search::dfs(1, tree).prune(|&n| n != 2).collect();
    /// assert_eq!(kept, [1, 3, 6, 12, 13, 7, 14, 15]);
    /// ```
    pub fn prune<P>(self, keep: P) -> Pruned<Self, P>
    where
        P: FnMut(&N) -> bool,
    {
        Pruned { search: self, keep }
    }

    /// Counts the nodes of this search that are goals, as many as wanted
    /// at a time, optionally counting a whole subtree at once where that is
    /// cheaper than walking it. See [`Counter`](super::Counter).
    ///
    /// ```
    /// use lazydoku::search;
    ///
    /// // The numbers below 1,000 whose digits are strictly increasing.
    /// let longer = |s: &String| {
    ///     let from = if s.len() < 3 { s.bytes().last().map_or(b'1', |d| d + 1) } else { b':' };
    ///     let stem = s.clone();
    ///     (from..=b'9').map(move |d| format!("{stem}{}", d as char))
    /// };
    /// let mut counter = search::dfs(String::new(), longer).counter(|s: &String| !s.is_empty());
    /// assert_eq!(counter.up_to(10), 10);
    /// assert_eq!(counter.up_to(usize::MAX), 9 + 36 + 84 - 10); // the rest
    /// ```
    pub fn counter<G>(self, goal: G) -> super::Counter<Self, G, super::NoShortcut>
    where
        G: FnMut(&N) -> bool,
    {
        super::Counter::new(self, goal)
    }

    /// Takes the root if it has not been visited yet.
    #[inline]
    pub(crate) fn take_root(&mut self) -> Option<N> {
        self.root.take()
    }

    /// The frontier, to be changed in place by a walk that knows its type.
    #[inline]
    pub(crate) fn frontier_mut(&mut self) -> &mut F {
        &mut self.frontier
    }

    /// Takes the next node, not expanded yet.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<N> {
        if self.root.is_some() { self.root.take() } else { self.frontier.pop() }
    }

    /// Puts back the node just taken by [`Search::pop`], to be taken next:
    /// for a walk that finds it has no budget left for it.
    #[cold]
    #[inline(never)]
    pub(crate) fn put_back(&mut self, node: Option<N>) {
        debug_assert!(self.root.is_none(), "only the node just taken is put back");
        self.root = node;
    }

    /// Hands the children of `node`, just taken, to the frontier.
    #[inline]
    pub(crate) fn expand(&mut self, node: &N) {
        let children = self.successors.successors(node).into_iter();
        self.push_children(children);
    }

    /// Hands children made by the caller to the frontier, as [`Search::expand`]
    /// does with those its successors make: for a walk that can build them
    /// from a node it owns without a copy.
    #[inline]
    pub(crate) fn push_children(&mut self, children: IN::IntoIter) {
        // An iterator that says it has nothing (a leaf) is not worth a slot.
        if children.size_hint().1 != Some(0) {
            self.frontier.push(children);
        }
    }

    /// Takes the next node and, if `expand` says so, hands its children to
    /// the frontier: one step of every walk over this search.
    #[inline]
    pub(crate) fn step(&mut self, expand: impl FnOnce(&N) -> bool) -> Option<N> {
        // The node stays where it is returned: nodes may be large, and a
        // copy per node shows.
        let node = self.pop();
        if expand(node.as_ref()?) {
            self.expand(node.as_ref()?);
        }
        node
    }

    /// The next node that passes `keep`, expanded only then.
    fn next_kept(&mut self, keep: &mut impl FnMut(&N) -> bool) -> Option<N> {
        loop {
            let mut kept = false;
            let node = self.step(|node| {
                kept = keep(node);
                kept
            });
            if kept || node.is_none() {
                return node;
            }
        }
    }
}

impl<N, IN, S, F> Iterator for Search<N, IN, S, F>
where
    S: Successors<N, IN>,
    IN: IntoIterator<Item = N>,
    F: Frontier<IN::IntoIter>,
{
    type Item = N;

    fn next(&mut self) -> Option<N> {
        self.step(|_| true)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        if self.root.is_some() {
            (1, None)
        } else if self.frontier.is_empty() {
            (0, Some(0))
        } else {
            (0, None)
        }
    }
}

impl<N, IN, S, F> FusedIterator for Search<N, IN, S, F>
where
    S: Successors<N, IN>,
    IN: IntoIterator<Item = N>,
    F: Frontier<IN::IntoIter>,
{
}

impl<N, IN, S, F> Clone for Search<N, IN, S, F>
where
    N: Clone,
    IN: IntoIterator,
    S: Clone,
    F: Clone,
{
    fn clone(&self) -> Self {
        Search {
            root: self.root.clone(),
            successors: self.successors.clone(),
            frontier: self.frontier.clone(),
            _children: PhantomData,
        }
    }
}

impl<N, IN, S, F> fmt::Debug for Search<N, IN, S, F>
where
    N: fmt::Debug,
    IN: IntoIterator,
    F: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Search").field("root", &self.root).field("frontier", &self.frontier).finish_non_exhaustive()
    }
}

/// A search without the nodes that fail a predicate, nor anything below
/// them. Built by [`Search::prune`].
#[derive(Clone)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct Pruned<I, P> {
    search: I,
    keep: P,
}

impl<N, IN, S, F, P> Iterator for Pruned<Search<N, IN, S, F>, P>
where
    S: Successors<N, IN>,
    IN: IntoIterator<Item = N>,
    F: Frontier<IN::IntoIter>,
    P: FnMut(&N) -> bool,
{
    type Item = N;

    fn next(&mut self) -> Option<N> {
        self.search.next_kept(&mut self.keep)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, self.search.size_hint().1)
    }
}

impl<N, IN, S, F, P> FusedIterator for Pruned<Search<N, IN, S, F>, P>
where
    S: Successors<N, IN>,
    IN: IntoIterator<Item = N>,
    F: Frontier<IN::IntoIter>,
    P: FnMut(&N) -> bool,
{
}

impl<I: fmt::Debug, P> fmt::Debug for Pruned<I, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pruned").field("search", &self.search).finish_non_exhaustive()
    }
}
