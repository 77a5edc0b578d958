//! The [`Frontier`] trait and the two lazy frontiers, [`Stack`] and [`Queue`].

use std::collections::VecDeque;

/// The nodes a search has discovered but not visited yet.
///
/// A frontier receives the children of each visited node as an iterator `I`
/// and hands back the next node to visit. Keeping the iterators unopened, as
/// [`Stack`] and [`Queue`] do, keeps the search lazy: a child is built only
/// when it is popped.
///
/// # Contract
///
/// Once [`pop`](Frontier::pop) returns `None`, it must keep returning `None`
/// until the next [`push`](Frontier::push). The [`Search`](super::Search)
/// iterator relies on this to be fused.
///
/// # Example: a seeded random order, written against the public trait only
///
/// ```
/// use lazydoku::search::{self, Frontier};
///
/// /// Pulls the next node from a pseudo-randomly chosen pending iterator.
/// struct Shuffled<I> {
///     pending: Vec<I>,
///     state: u64,
/// }
///
/// impl<I: Iterator> Frontier<I> for Shuffled<I> {
///     fn push(&mut self, children: I) {
///         self.pending.push(children);
///     }
///
///     fn pop(&mut self) -> Option<I::Item> {
///         while !self.pending.is_empty() {
///             // xorshift64: small, seeded, reproducible.
///             self.state ^= self.state << 13;
///             self.state ^= self.state >> 7;
///             self.state ^= self.state << 17;
///             let pick = (self.state % self.pending.len() as u64) as usize;
///             match self.pending[pick].next() {
///                 Some(node) => return Some(node),
///                 None => drop(self.pending.swap_remove(pick)),
///             }
///         }
///         None
///     }
///
///     fn len(&self) -> usize {
///         self.pending.len()
///     }
/// }
///
/// let frontier = Shuffled { pending: Vec::new(), state: 0x9E37_79B9_7F4A_7C15 };
/// let children = |&n: &u32| (2 * n..=2 * n + 1).filter(|&c| c < 64);
/// let mut visited: Vec<u32> = search::with_frontier(1, children, frontier).collect();
/// // Every node of the tree is visited exactly once, in some shuffled order.
/// assert_eq!(visited[0], 1);
/// visited.sort_unstable();
/// assert_eq!(visited, (1..64).collect::<Vec<_>>());
/// ```
pub trait Frontier<I: Iterator> {
    /// Adds the children of a node that was just visited.
    fn push(&mut self, children: I);

    /// Removes and returns the next node to visit, or `None` when no pending
    /// iterator has a node left.
    fn pop(&mut self) -> Option<I::Item>;

    /// The number of pending entries the frontier holds: child iterators for
    /// [`Stack`] and [`Queue`], nodes for [`BestFirst`](super::BestFirst).
    ///
    /// This measures memory, not the number of nodes left: an entry may be an
    /// iterator that turns out to be empty.
    fn len(&self) -> usize;

    /// Whether the frontier holds no pending entry.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The depth-first frontier: a stack of unopened child iterators.
///
/// Nodes are pulled from the iterator pushed last, so a node's descendants
/// come before its next sibling.
#[derive(Clone, Debug)]
pub struct Stack<I> {
    iterators: Vec<I>,
}

impl<I> Stack<I> {
    /// An empty stack.
    #[must_use]
    pub fn new() -> Self {
        Stack { iterators: Vec::new() }
    }

    /// The pending iterators, the one pulled from next last: for a walk
    /// that builds each child where it will be expanded, which the
    /// iterator interface cannot, as it hands the child out.
    pub(crate) fn iterators_mut(&mut self) -> &mut Vec<I> {
        &mut self.iterators
    }
}

impl<I> Default for Stack<I> {
    fn default() -> Self {
        Self::new()
    }
}

impl<I: Iterator> Frontier<I> for Stack<I> {
    fn push(&mut self, children: I) {
        self.iterators.push(children);
    }

    fn pop(&mut self) -> Option<I::Item> {
        loop {
            let top = self.iterators.last_mut()?;
            let node = top.next();
            if node.is_some() {
                return node;
            }
            // Dropped where it lies: `pop` would copy the spent iterator
            // out first, and child iterators of boards are large.
            self.iterators.truncate(self.iterators.len() - 1);
        }
    }

    fn len(&self) -> usize {
        self.iterators.len()
    }
}

/// The breadth-first frontier: a queue of unopened child iterators.
///
/// Nodes are pulled from the iterator pushed first, and the children of each
/// visited node join the back of the queue, as in the Scala `t ++ h.next`.
#[derive(Clone, Debug)]
pub struct Queue<I> {
    iterators: VecDeque<I>,
}

impl<I> Queue<I> {
    /// An empty queue.
    #[must_use]
    pub fn new() -> Self {
        Queue { iterators: VecDeque::new() }
    }
}

impl<I> Default for Queue<I> {
    fn default() -> Self {
        Self::new()
    }
}

impl<I: Iterator> Frontier<I> for Queue<I> {
    fn push(&mut self, children: I) {
        self.iterators.push_back(children);
    }

    fn pop(&mut self) -> Option<I::Item> {
        loop {
            let front = self.iterators.front_mut()?;
            if let Some(node) = front.next() {
                return Some(node);
            }
            self.iterators.pop_front();
        }
    }

    fn len(&self) -> usize {
        self.iterators.len()
    }
}
