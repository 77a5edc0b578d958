//! [`Children`]: the lazy iterator of a board's child boards.

use std::fmt;
use std::iter::FusedIterator;

use super::nine::FailedGuesses;
use super::{Board, Candidates};

/// How a walk picks the cell each board branches on, and what it notes
/// when a guess fails at once.
pub(crate) trait Branching {
    /// The cell to branch on and its candidates, or `None` when `board`
    /// is complete.
    fn branch_cell(&self, board: &Board) -> Option<(usize, u32)>;

    /// A guess at `cell` met a contradiction as it was propagated.
    fn failed(&mut self, cell: usize);
}

/// The branch of [`Board::children`]: a walk with it visits the nodes of
/// [`search::dfs`](crate::search::dfs) over `Board::children`, in order.
pub(crate) struct AsChildren;

impl Branching for AsChildren {
    // Inlined into the walk, with the branch choice below it
    // (`Board::branch_cell` down to the 9x9 engine's `pairs`): in a program
    // that walks in several places, the compiler left each step a call of
    // its own, and `solutions()` enumerated 3% slower (docs/performance.md).
    #[expect(clippy::inline_always, reason = "measured: see the comment above")]
    #[inline(always)]
    fn branch_cell(&self, board: &Board) -> Option<(usize, u32)> {
        board.branch_cell()
    }

    #[inline]
    fn failed(&mut self, _: usize) {}
}

/// Branches that learn where guesses fail, for walks whose order is
/// theirs to choose: counts without a node budget.
impl Branching for FailedGuesses {
    #[expect(clippy::inline_always, reason = "part of the count's walk, compiled for `BitManipulation` there")]
    #[inline(always)]
    fn branch_cell(&self, board: &Board) -> Option<(usize, u32)> {
        board.branch_cell_after_failures(self)
    }

    #[inline]
    fn failed(&mut self, cell: usize) {
        FailedGuesses::failed(self, cell);
    }
}

/// The children of a board, built one at a time: one per candidate of the
/// empty cell with the fewest candidates, smallest digit first, each
/// propagated as [`Board::propagated`] does. Children that reach a
/// contradiction are skipped.
///
/// A board that came from parsing or [`Board::place`] is propagated first,
/// once, and the branch is taken on the result; if propagation alone
/// completes it, that completed board is the one child.
///
/// Built by [`Board::children`]. It owns a copy of its parent, so it borrows
/// nothing.
#[derive(Clone)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct Children {
    /// The board to branch from, taken (not cloned) for the last candidate.
    /// With no branch cell, the board itself is the one child.
    parent: Option<Board>,
    branch: Option<usize>,
    remaining: u32,
}

impl Children {
    /// No children at all.
    pub(crate) fn none() -> Children {
        Children { parent: None, branch: None, remaining: 0 }
    }

    /// The children of `parent`.
    pub(crate) fn new(parent: &Board) -> Children {
        if parent.is_complete() {
            return Children::none();
        }
        Children::of(parent.clone())
    }

    /// `board` itself as the one child, not yet visited: the root of a
    /// walk.
    pub(crate) fn unvisited(board: Board) -> Children {
        Children { parent: Some(board), branch: None, remaining: 0 }
    }

    /// The children of `parent`, which they keep: no copy of it is made.
    pub(crate) fn of(parent: Board) -> Children {
        let mut children = Children::unvisited(parent);
        if children.expand(&AsChildren) { children } else { Children::none() }
    }

    /// Turns an entry holding a board not yet visited into that board's
    /// children, the board kept in place: settled first if it came from
    /// parsing or placing, then branched. With no branch cell (settling
    /// completed it), its one child is itself. `false`, for the caller to
    /// drop the entry, when the board has no children: complete, or
    /// contradicted by settling.
    #[expect(clippy::inline_always, reason = "the walk's step: see `AsChildren::branch_cell`")]
    #[inline(always)]
    fn expand(&mut self, branching: &impl Branching) -> bool {
        let Some(board) = self.parent.as_mut() else { return false };
        if board.is_complete() || (!board.is_settled() && board.settle().is_err()) {
            return false;
        }
        if let Some((cell, remaining)) = branching.branch_cell(board) {
            self.branch = Some(cell);
            self.remaining = remaining;
        }
        true
    }

    /// The cell the children branch on, or `None` when there is no branch:
    /// the board is complete, contradictory, or completed by propagation.
    #[must_use]
    pub fn cell(&self) -> Option<usize> {
        self.branch
    }

    /// The candidates of the branch cell not tried yet.
    #[must_use]
    pub fn remaining(&self) -> Candidates {
        Candidates::from_bits(self.remaining)
    }
}

/// What [`walk_in_place`] does with a board it has built, as its visitor
/// says.
pub(crate) enum Visit {
    /// Leave it on top of the stack, as a child not yet visited, and stop:
    /// the budget is spent.
    Refuse,
    /// Take it off the stack and hand it out.
    Take,
    /// Take it off the stack and drop it (it was counted without walking
    /// below it), then stop or go on.
    Drop { stop: bool },
    /// Put its children in its place and go on.
    Expand,
}

/// The depth-first walk over a stack of children iterators, with each
/// child built where it is expanded: in a new entry on top of its parent's,
/// or, for the parent's last candidate, in the parent's own entry, which
/// then holds the child's children.
///
/// The nodes and their order are those of popping the next child off the
/// top iterator and pushing its children, as [`Stack`](crate::search::Stack)
/// does; only the copies differ. Popping hands the child out, and pushing
/// moves it into its children and those onto the stack: three copies of a
/// board per node, a quarter of the time of enumerating solutions. Here a
/// child costs one copy, and a last child none.
///
/// `visit` is asked about each board built, and the walk goes on until it
/// says [`Visit::Take`] (the board is returned), [`Visit::Refuse`] or
/// [`Visit::Drop`] with `stop`, or the stack is empty (`None`). The boards
/// it expands branch where `branching` says, [`AsChildren`] for the nodes
/// of the depth-first search.
///
/// Left to the compiler to inline: forced into `Solutions::next`, the first
/// solution of the command line's `solve` ran 4% slower (its branch
/// choice's counters went through the stack).
pub(crate) fn walk_in_place(
    stack: &mut Vec<Children>,
    branching: &mut impl Branching,
    mut visit: impl FnMut(&Board) -> Visit,
) -> Option<Board> {
    loop {
        let depth = stack.len();
        let top = stack.last_mut()?;
        // Build the next child in the top entry or the one above it, which
        // then holds it with no branch: a child not yet visited.
        if let Some(cell) = top.branch {
            if top.remaining == 0 || top.parent.is_none() {
                stack.truncate(depth - 1);
                continue;
            }
            let bit = top.remaining & top.remaining.wrapping_neg();
            top.remaining ^= bit;
            if top.remaining == 0 {
                let built = top.parent.as_mut().is_some_and(|board| board.assign_and_propagate(cell, bit).is_ok());
                if !built {
                    branching.failed(cell);
                    stack.truncate(depth - 1);
                    continue;
                }
                top.branch = None;
            } else {
                copy_up(stack, depth);
                let child = stack.last_mut().expect("the entry just made");
                (child.branch, child.remaining) = (None, 0);
                if child.parent.as_mut().is_none_or(|board| board.assign_and_propagate(cell, bit).is_err()) {
                    branching.failed(cell);
                    stack.truncate(depth);
                    continue;
                }
                second_child_from_first(stack, depth);
            }
        }
        // The top entry holds a child not yet visited, or nothing.
        let depth = stack.len();
        let top = stack.last_mut()?;
        let Some(board) = top.parent.as_ref() else {
            stack.truncate(depth - 1);
            continue;
        };
        match visit(board) {
            Visit::Refuse => return None,
            Visit::Take => return stack.pop().and_then(|entry| entry.parent),
            Visit::Drop { stop } => {
                stack.truncate(depth - 1);
                if stop {
                    return None;
                }
            }
            Visit::Expand => {
                if !top.expand(branching) {
                    stack.truncate(depth - 1);
                }
            }
        }
    }
}

/// [`walk_in_place`] going on past each board taken, which `take` folds
/// into the accumulator: the walk behind `solutions().fold(..)` and the
/// 9x9 count.
///
/// The entries it leaves (children dropped, taken or failed) stay in the
/// stack's memory above the live ones until it returns, and a new child
/// is copied over one of them (`clone_from`). A 9x9 board copied that way
/// is written once, where a new entry is written into a temporary and then
/// into the stack, and a board taken is copied out of its entry, which
/// stays for the next child. Enumerating `million.txt` ran about 6%
/// faster so, and the count to 2 of the hardest sets 1 to 2%
/// (docs/performance.md). [`walk_in_place`] keeps its own loop: each of its
/// calls returns with the stack as the search left it, so its spent entries
/// would be dropped at every return, and written this way it ran 7% slower
/// in a `for` loop over the solutions.
#[expect(
    clippy::inline_always,
    reason = "the loop of `Solutions::fold` and of the count compiled for `BitManipulation`"
)]
#[inline(always)]
pub(crate) fn fold_walk<B>(
    stack: &mut Vec<Children>,
    branching: &mut impl Branching,
    mut visit: impl FnMut(&Board) -> Visit,
    init: B,
    mut take: impl FnMut(B, &Board) -> B,
) -> B {
    let mut acc = init;
    // The live entries are the first `depth`; the rest are spent.
    let mut depth = stack.len();
    while depth > 0 {
        let top = &mut stack[depth - 1];
        if let Some(cell) = top.branch {
            if top.remaining == 0 || top.parent.is_none() {
                depth -= 1;
                continue;
            }
            let bit = top.remaining & top.remaining.wrapping_neg();
            top.remaining ^= bit;
            if top.remaining == 0 {
                if top.parent.as_mut().is_none_or(|board| board.assign_and_propagate(cell, bit).is_err()) {
                    branching.failed(cell);
                    depth -= 1;
                    continue;
                }
                top.branch = None;
            } else {
                copy_up(stack, depth);
                depth += 1;
                let child = &mut stack[depth - 1];
                (child.branch, child.remaining) = (None, 0);
                if child.parent.as_mut().is_none_or(|board| board.assign_and_propagate(cell, bit).is_err()) {
                    branching.failed(cell);
                    depth -= 1;
                    continue;
                }
                second_child_from_first(stack, depth - 1);
            }
        }
        let top = &mut stack[depth - 1];
        let Some(board) = top.parent.as_ref() else {
            depth -= 1;
            continue;
        };
        match visit(board) {
            Visit::Refuse => break,
            Visit::Take => {
                acc = take(acc, board);
                depth -= 1;
            }
            Visit::Drop { stop } => {
                depth -= 1;
                if stop {
                    break;
                }
            }
            Visit::Expand => {
                if !top.expand(branching) {
                    depth -= 1;
                }
            }
        }
    }
    stack.truncate(depth);
    acc
}

/// Once the first child of a two-way branch at entry `depth - 1` is built
/// in entry `depth`, builds the second in the parent's own entry from it,
/// where the engine can do so for less than a propagation
/// ([`Board::become_other_child`]): the entry then holds that child, not
/// yet visited, and the walk visits the same boards in the same order.
#[expect(clippy::inline_always, reason = "part of the walks' loops")]
#[inline(always)]
fn second_child_from_first(stack: &mut [Children], depth: usize) {
    let (live, above) = stack.split_at_mut(depth);
    let parent = &mut live[depth - 1];
    if !parent.remaining.is_power_of_two() {
        return;
    }
    if let (Some(board), Some(first)) = (parent.parent.as_mut(), above[0].parent.as_ref()) {
        if board.become_other_child(first) {
            (parent.branch, parent.remaining) = (None, 0);
        }
    }
}

/// Copies the board of entry `depth - 1` into entry `depth`: over the
/// board of the spent entry there ([`fold_walk`]), or into a new one.
///
/// A new entry for a 9x9 board holds an empty board first, which the copy
/// overwrites in place. Cloned whole, the new entry's board went through a
/// temporary, two calls of `memcpy`: enumerating `million.txt` in a `for`
/// loop ran 3% faster this way, and pushing an entry with no board and
/// cloning the board into it was slower than both (docs/performance.md).
#[expect(clippy::inline_always, reason = "part of the walks' loops")]
#[inline(always)]
fn copy_up(stack: &mut Vec<Children>, depth: usize) {
    if depth == stack.len() {
        let Some(blank) = stack[depth - 1].parent.as_ref().and_then(Board::blank_like) else {
            stack.extend_from_within(depth - 1..depth);
            return;
        };
        stack.push(Children::unvisited(blank));
    }
    let (live, above) = stack.split_at_mut(depth);
    above[0].parent.clone_from(&live[depth - 1].parent);
}

impl Iterator for Children {
    type Item = Board;

    fn next(&mut self) -> Option<Board> {
        let Some(cell) = self.branch else { return self.parent.take() };
        while self.remaining != 0 {
            let bit = self.remaining & self.remaining.wrapping_neg();
            self.remaining ^= bit;
            // The child is built where it is returned: boards are copied at
            // every node, and each copy counts.
            let mut child = if self.remaining == 0 { self.parent.take() } else { self.parent.clone() };
            if child.as_mut()?.assign_and_propagate(cell, bit).is_ok() {
                return child;
            }
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self.branch {
            None => {
                let n = usize::from(self.parent.is_some());
                (n, Some(n))
            }
            Some(_) => (0, Some(self.remaining.count_ones() as usize)),
        }
    }
}

impl FusedIterator for Children {}

impl fmt::Debug for Children {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Children")
            .field("parent", &self.parent.as_ref().map(Board::as_str))
            .field("cell", &self.branch)
            .field("remaining", &self.remaining())
            .finish()
    }
}
