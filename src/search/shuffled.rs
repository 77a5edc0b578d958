//! The [`Shuffled`] frontier: depth-first, each node's children in a seeded
//! random order.

use std::fmt;

use super::Frontier;
use crate::random::SplitMix64;

/// A depth-first frontier that visits each node's children in a random
/// order drawn from a seed: the same seed, the same order.
///
/// Shuffling needs all of a node's children, so they are built together,
/// on the [`pop`](Frontier::pop) after their parent was visited, never
/// before; memory grows with depth times the branching factor. Built by
/// [`search::shuffled_dfs`](super::shuffled_dfs).
///
/// The generator is `SplitMix64`: small, fast, and good enough to spread a
/// search; it is not meant for anything secret.
#[derive(Clone)]
pub struct Shuffled<I: Iterator> {
    levels: Vec<Vec<I::Item>>,
    pending: Option<I>,
    random: SplitMix64,
}

impl<I: Iterator> Shuffled<I> {
    /// An empty frontier whose order is drawn from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Shuffled { levels: Vec::new(), pending: None, random: SplitMix64::new(seed) }
    }

    /// Builds the children waiting since the last visit, in a shuffled order.
    fn open_pending(&mut self) {
        if self.pending.is_none() {
            return;
        }
        // Gathered into the level where they will stay, with the iterator
        // left in place: if a child panics and the caller goes on, the
        // siblings gathered so far and those still to come are kept.
        self.levels.push(Vec::new());
        while let Some(node) = self.pending.as_mut().and_then(Iterator::next) {
            if let Some(level) = self.levels.last_mut() {
                level.push(node);
            }
        }
        self.pending = None;
        let mut level = self.levels.pop().unwrap_or_default();
        // `pop` takes from the end.
        self.random.shuffle(&mut level);
        self.levels.push(level);
    }
}

impl<I: Iterator> Frontier<I> for Shuffled<I> {
    fn push(&mut self, children: I) {
        self.open_pending();
        self.pending = Some(children);
    }

    fn pop(&mut self) -> Option<I::Item> {
        self.open_pending();
        loop {
            let top = self.levels.last_mut()?;
            if let Some(node) = top.pop() {
                return Some(node);
            }
            self.levels.pop();
        }
    }

    /// Levels held, plus one for children not built yet.
    fn len(&self) -> usize {
        self.levels.len() + usize::from(self.pending.is_some())
    }
}

impl<I: Iterator> fmt::Debug for Shuffled<I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Shuffled")
            .field("levels", &self.levels.len())
            .field("pending", &self.pending.is_some())
            .finish_non_exhaustive()
    }
}
