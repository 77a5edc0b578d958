//! [`Solutions`]: every solution of a board, lazily.

use std::fmt;
use std::iter::FusedIterator;
use std::time::Instant;

use super::children::{AsChildren, Branching, Visit, fold_walk, walk_in_place};
use super::clauses::{Clauses, Turn};
use super::learning::{FIRST_TURN_NODES, Learning, Step, outruns_learning};
use super::nine::FailedGuesses;
use super::weighted::{WeightedChildren, Weights};
use super::{Board, Children};
use crate::cpu::BitManipulation;
use crate::search::{Budget, Counter, Dfs, Exhausted, Meter, Search, Shortcut, Stack, Successors};

/// [`Board::children`] as a type of its own, so that the search calls it
/// directly rather than through a function pointer: the call is inlined and
/// each child iterator is built where the stack keeps it, saving board
/// copies on every node.
#[derive(Clone, Copy, Debug)]
struct BoardChildren;

impl Successors<Board, Children> for BoardChildren {
    fn successors(&mut self, board: &Board) -> Children {
        board.children()
    }
}

/// The shortcut of [`Board::count_solutions`]: a propagated board with at
/// most `threshold` empty cells has its completions counted by the engine
/// ([`Board::count_directly`]: 9x9 boards, and others without killer cages)
/// rather than searched. Under a node budget it counts only complete boards.
#[derive(Clone, Copy, Debug)]
struct DirectCount {
    threshold: usize,
}

/// Boards with at most this many empty cells are counted directly at the
/// start of a count...
const DIRECT_FIRST: usize = 40;
/// ...and each direct count that finds nothing lowers the threshold by this
/// much...
const DIRECT_STEP: usize = 8;
/// ...down to this. Counting directly is cheap where solutions are near, but
/// the band engine is better at proving a subtree empty: a puzzle whose
/// small subtrees turn out empty is left more and more to the engine.
const DIRECT_FLOOR: usize = 24;

const _: () = assert!(DIRECT_FIRST <= super::MAX_DIRECT, "the direct count holds every empty cell");

impl DirectCount {
    /// The shortcut for a count spending `meter`. A direct count is one
    /// node however many solutions it counts: under a node budget, every
    /// board is visited, so that the budget bounds the work the same way on
    /// every machine. (One direct count takes at most a few seconds, on the
    /// empty 6x6 board, which a time budget allows.)
    fn under(meter: &Meter) -> DirectCount {
        DirectCount { threshold: if meter.has_node_limit() { 0 } else { DIRECT_FIRST } }
    }
}

impl Shortcut<Board> for DirectCount {
    #[inline]
    fn count(&mut self, board: &Board, wanted: usize) -> Option<usize> {
        let found = board.count_directly(self.threshold, wanted)?;
        if found == 0 {
            self.threshold = self.threshold.saturating_sub(DIRECT_STEP).max(DIRECT_FLOOR.min(self.threshold));
        }
        Some(found)
    }
}

/// [`Board::count_solutions`]: the depth-first search of [`Board::solutions`]
/// counted, with the boards the engine counts directly (9x9 boards with few
/// empty cells) counted rather than searched. The count is the same. Each
/// node of the walk is one node of `meter`'s budget; the count stops short
/// when it is spent.
pub(crate) fn count(board: Board, limit: usize, meter: Meter) -> (usize, Option<Exhausted>) {
    // A node budget walks the nodes of the board's own `solutions()`.
    if !meter.has_node_limit() {
        if let Some(twin) = board.on_band_engine() {
            return count(twin, limit, meter);
        }
    }
    if limit <= DIVE_LIMIT && board.uses_general_engine() {
        return count_with_dives(&board, limit, meter);
    }
    if board.uses_general_engine() && !meter.has_node_limit() {
        return count_taking_turns(&board, limit, meter);
    }
    let mut search = Search::new(board, BoardChildren, Stack::new());
    let mut meter = meter;
    let count = count_in_place(&mut search, limit, &mut meter);
    (count, meter.exhausted())
}

/// The stack of a depth-first search over [`Board::children`], with the
/// root on it if the search has not visited it yet.
fn stack_of(search: &mut Dfs<Board, Children, BoardChildren>) -> &mut Vec<Children> {
    if let Some(root) = search.take_root() {
        search.push_children(Children::unvisited(root));
    }
    search.frontier_mut().iterators_mut()
}

/// The count of [`Board::count_solutions`] over a depth-first search of
/// [`Board::children`], begun or not, walked in place ([`fold_walk`]).
///
/// Under a node budget the nodes are the search's, in its order, so that
/// a count stopped short stops where [`Counter`] over the search would.
/// Without one, the boards of the walk branch where guesses have failed
/// before ([`FailedGuesses`]): the same count, over a smaller tree.
///
/// Compiled twice, as [`BitManipulation`] explains: the walk's branch choice
/// runs on every node.
fn count_in_place(search: &mut Dfs<Board, Children, BoardChildren>, limit: usize, meter: &mut Meter) -> usize {
    match BitManipulation::detect() {
        Some(instructions) => instructions.run(|| count_in_place_with(search, limit, meter)),
        None => count_in_place_with(search, limit, meter),
    }
}

/// [`count_in_place`]'s walk.
#[expect(clippy::inline_always, reason = "inlined into `BitManipulation::run` to be compiled for its instructions")]
#[inline(always)]
fn count_in_place_with(search: &mut Dfs<Board, Children, BoardChildren>, limit: usize, meter: &mut Meter) -> usize {
    if meter.has_node_limit() {
        count_branching(search, &mut AsChildren, limit, meter)
    } else {
        count_branching(search, &mut FailedGuesses::new(), limit, meter)
    }
}

/// [`count_in_place`] with the branches of `branching`.
#[expect(clippy::inline_always, reason = "part of `count_in_place_with`")]
#[inline(always)]
fn count_branching(
    search: &mut Dfs<Board, Children, BoardChildren>,
    branching: &mut impl Branching,
    limit: usize,
    meter: &mut Meter,
) -> usize {
    if limit == 0 {
        return 0;
    }
    let mut shortcut = DirectCount::under(meter);
    let mut count = 0;
    let visit = |board: &Board| {
        if !meter.tick() {
            return Visit::Refuse;
        }
        count_board(board, &mut shortcut, &mut count, limit)
    };
    fold_walk(stack_of(search), branching, visit, (), |(), _| ());
    count
}

/// Counts up to this use [`count_with_dives`] on the general engine.
const DIVE_LIMIT: usize = 16;
/// Once a solution is known, a dive runs in one turn of this many: the
/// dives have found it or the depth-first count has, and on a puzzle with
/// one solution the rest of the work is the count's. (The 25x25 minimal
/// puzzles: 5.5 s to 3.3 s; the puzzles with several solutions are no
/// slower.)
const DIVE_TURN_AFTER_FIRST: u64 = 4;
/// The turn of [`count_with_dives`] at which the root is probed for digits
/// that propagation refutes ([`Board::probe`]), and the depth-first count
/// starts again below it: after some 3,000 nodes of each kind (about 15 ms
/// on 25x25), where a probe of a 25x25 root costs 15 ms and can take a
/// third off the count; small counts end before. Only killer boards with a
/// cage of too many fillings to spell out as clauses get this far: the
/// others have gone to clause learning.
const PROBE_AT_RUN: u64 = 24;
/// The turn of [`count_with_dives`] at which a board is handed to clause
/// learning ([`Board::clauses`]): after some 800 nodes
/// of each kind (about 25 ms on 25x25). Most puzzles end before, where the
/// engine's propagation is cheaper than building the clauses; those that
/// do not are the ones whose refutations recur in many subtrees, which
/// clauses learned from conflicts cut short (25x25 puzzles on the edge of
/// uniqueness: 95 s to 30 s in all; docs/performance.md).
const CLAUSES_AT_RUN: u64 = 8;
/// Nodes per unit of the Luby sequence in [`count_with_dives`].
const DIVE_UNIT: u64 = 64;

/// A small count on a board of the general engine: the depth-first count,
/// in slices, taking turns with restarted dives, both branching by domain
/// over weighted degree ([`WeightedChildren`]).
///
/// Large boards are heavy-tailed: one early branch on a cell where two
/// solutions differ hides the second behind a subtree that can take
/// minutes to refute, while a search that branches in another order finds
/// it at once. Each dive is a depth-first search on a node budget from the
/// Luby sequence, with its digits in an order of its own; the distinct
/// solutions of all the dives add up, and once `limit` of them are found,
/// that is the answer. The depth-first count gets as many nodes between the
/// dives and resumes where it stopped, so the dives take at most half the
/// work (less once a solution is known: [`DIVE_TURN_AFTER_FIRST`]), and the
/// count is exact when it ends first.
///
/// Both learn which units fail: a cell in units where propagation keeps
/// failing is branched on early, where its failures cut the most. On the
/// 25x25 puzzles this finds first solutions that the fewest-candidates
/// order took seconds to reach, and shrinks the refutation of unique
/// puzzles several times. docs/performance.md has the figures.
///
/// A count still going after [`CLAUSES_AT_RUN`] turns goes to clause
/// learning ([`Board::clauses`]), which counts from the root and is exact
/// on its own; only killer boards with a cage of too many fillings to
/// spell out stay with the search.
fn count_with_dives(board: &Board, limit: usize, mut meter: Meter) -> (usize, Option<Exhausted>) {
    let weights = Weights::new(board);
    let learning = |b: &Board| WeightedChildren::new(b, &weights, 0);
    let mut depth_first = counter(Search::new(board.clone(), learning, Stack::new()), meter.clone());
    // The dives learn apart from the depth-first count: its weights come
    // from refuting one subtree after another, theirs from looking for a
    // solution.
    let dive_weights = Weights::new(board);
    let mut counted = 0;
    let mut found: Vec<Board> = Vec::new();
    let mut run = 0;
    loop {
        run += 1;
        let slice = crate::search::luby_at(run).saturating_mul(DIVE_UNIT);
        if run == CLAUSES_AT_RUN {
            // A count past its first few hundred nodes: clause learning
            // takes it over to the end, unless a cage has too many
            // fillings to spell out.
            match board.settled_clauses() {
                Err(()) => return (0, None),
                Ok(Some(mut clauses)) => return clauses.count(limit, &mut meter),
                Ok(None) => {}
            }
        }
        if run == PROBE_AT_RUN {
            // A long count: the root is worth probing, and the count
            // starts again from there, keeping what its weights learned.
            let mut probed = board.clone();
            if (!probed.is_settled() && probed.settle().is_err()) || probed.probe().is_err() {
                return (0, None);
            }
            depth_first = counter(Search::new(probed, learning, Stack::new()), meter.clone());
            counted = 0;
        }
        // Each slice within what is left of `meter`, which is charged after.
        depth_first = depth_first.within(Budget::nodes(slice.min(meter.nodes_left())));
        counted += depth_first.up_to(limit - counted);
        if counted >= limit || depth_first.exhausted().is_none() {
            return (counted, None);
        }
        if !meter.spend(depth_first.visited()) {
            return (counted.max(found.len()), meter.exhausted());
        }
        if (counted > 0 || !found.is_empty()) && run % DIVE_TURN_AFTER_FIRST != 0 {
            continue;
        }
        let mut dive = crate::search::dfs(board.clone(), |b: &Board| WeightedChildren::new(b, &dive_weights, run));
        let keep = |solution: Board| {
            if !found.contains(&solution) {
                found.push(solution);
            }
            found.len() >= limit
        };
        match walk_slice(&mut dive, slice, &mut meter, keep) {
            SliceEnd::Stopped => return (limit, None),
            SliceEnd::Spent => return (counted.max(found.len()), meter.exhausted()),
            SliceEnd::Ended | SliceEnd::Full => {}
        }
    }
}

/// A count above [`DIVE_LIMIT`] on the general engine, without a node
/// budget: the depth-first count and clause learning take turns of equal
/// time, and the first to finish gives the count; both are exact.
///
/// The depth-first count is fast where the solutions are many and the
/// tree thick with them (its direct counts near the leaves count thousands
/// at once), and slow where few solutions hide in a large tree that keeps
/// failing the same way, which learned clauses cut short: a minimal 25x25
/// puzzle counted to 17 took over 20 s by the depth-first count alone,
/// where clause learning counts it to 2 in under a second; a 25x25 puzzle
/// of 6,209 solutions, 21 s against 1.7 s (docs/performance.md). Taking
/// turns costs at most about twice the faster one's time, and nothing for
/// counts that end within the first turn (of [`FIRST_TURN_NODES`], each
/// turn after twice as long). Once the depth-first count is clearly the
/// faster counter ([`outruns_learning`]), it goes on alone.
fn count_taking_turns(board: &Board, limit: usize, mut meter: Meter) -> (usize, Option<Exhausted>) {
    let mut search = Search::new(board.clone(), BoardChildren, Stack::new());
    let mut shortcut = DirectCount::under(&meter);
    let mut counted = 0;
    let mut learner: Option<(Clauses, usize)> = None;
    let mut learning = true;
    let mut nodes = FIRST_TURN_NODES;
    loop {
        let start = Instant::now();
        counted += count_turn(&mut search, &mut shortcut, limit - counted, nodes, &mut meter);
        if counted >= limit || stack_of(&mut search).is_empty() {
            return (counted, None);
        }
        if meter.exhausted().is_some() {
            return (counted.max(learner.map_or(0, |(_, found)| found)), meter.exhausted());
        }
        if outruns_learning(counted, learner.as_ref().map_or(0, |(_, found)| *found)) {
            // Clause learning would only slow this count down (and is not
            // even built for one that counts this fast from the start).
            learner = None;
            learning = false;
        }
        if learning && learner.is_none() {
            let Ok(clauses) = board.settled_clauses() else { return (0, None) };
            learner = clauses.map(|clauses| (clauses, 0));
            learning = learner.is_some();
        }
        if let Some((clauses, found)) = learner.as_mut() {
            match clauses.count_for(found, limit, start.elapsed(), &mut meter) {
                Turn::Counted => return (*found, None),
                Turn::Spent => return (counted.max(*found), meter.exhausted()),
                Turn::Paused => {}
            }
        }
        nodes = nodes.saturating_mul(2);
    }
}

/// How long clause learning racing the shared count runs between looks at
/// how far the shared count has got.
#[cfg(feature = "parallel")]
const RACE_LOOK: std::time::Duration = std::time::Duration::from_millis(10);

/// The search that races the shared depth-first count of
/// [`Board::par_count_solutions`] on the general engine, on one thread of
/// its own: the count of [`count_with_dives`] for small limits, else
/// clause learning, which leaves the race once the shared count clearly
/// outruns it ([`outruns_learning`]) or where the board's rules cannot be
/// spelled out as clauses. Its count if it finished first, else `None`.
///
/// The shared count walks the tree that [`Board::count_solutions`] walks,
/// on every core but this one; on large boards few solutions can hide in
/// a large tree that keeps failing the same way, and the racing search
/// cuts that short, as [`count`] does on one core.
#[cfg(feature = "parallel")]
pub(crate) fn count_racing(board: &Board, limit: usize, race: &crate::search::Race) -> Option<usize> {
    use std::sync::atomic::Ordering::Relaxed;

    let meter = Meter::new(Budget::UNLIMITED).stopped_by(std::sync::Arc::clone(&race.stop));
    if limit <= DIVE_LIMIT {
        let (counted, stopped) = count_with_dives(board, limit, meter);
        return if stopped.is_none() { race.finish(counted) } else { None };
    }
    let counted = learn_racing(board, limit, race, meter);
    race.watched.store(false, Relaxed);
    counted
}

/// Clause learning's part of [`count_racing`].
#[cfg(feature = "parallel")]
fn learn_racing(board: &Board, limit: usize, race: &crate::search::Race, mut meter: Meter) -> Option<usize> {
    use std::sync::atomic::Ordering::Relaxed;

    let Ok(clauses) = board.settled_clauses() else { return race.finish(0) };
    let mut clauses = clauses?;
    let mut found = 0;
    while !outruns_learning(race.found.load(Relaxed), found) {
        match clauses.count_for(&mut found, limit, RACE_LOOK, &mut meter) {
            Turn::Counted => return race.finish(found),
            Turn::Spent => return None,
            Turn::Paused => {}
        }
    }
    None
}

/// A board of a depth-first count that has counted `count` of `limit`:
/// counted directly where `shortcut` can, else counted if complete, else
/// expanded.
#[expect(clippy::inline_always, reason = "part of the count's walk, as `count_branching` is")]
#[inline(always)]
fn count_board(board: &Board, shortcut: &mut DirectCount, count: &mut usize, limit: usize) -> Visit {
    let wanted = limit - *count;
    *count += match shortcut.count(board, wanted) {
        Some(found) => found.min(wanted),
        None if board.is_complete() => 1,
        None => return Visit::Expand,
    };
    Visit::Drop { stop: *count >= limit }
}

/// A turn of [`count_taking_turns`]'s depth-first count: up to `nodes` more
/// nodes of the walk, counting up to `limit` more solutions, the walk left
/// where it stopped.
fn count_turn(
    search: &mut Dfs<Board, Children, BoardChildren>,
    shortcut: &mut DirectCount,
    limit: usize,
    nodes: u64,
    meter: &mut Meter,
) -> usize {
    let mut count = 0;
    let mut left = nodes;
    let visit = |board: &Board| {
        if left == 0 || !meter.tick() {
            return Visit::Refuse;
        }
        left -= 1;
        count_board(board, shortcut, &mut count, limit)
    };
    fold_walk(stack_of(search), &mut AsChildren, visit, (), |(), _| ());
    count
}

/// How [`walk_slice`] ended.
enum SliceEnd {
    /// A solution made `stop` say so.
    Stopped,
    /// The walk has no node left.
    Ended,
    /// The slice's nodes were all taken.
    Full,
    /// The meter's budget ran out.
    Spent,
}

/// Takes up to `nodes` nodes of `walk`, each one node of `meter`, giving
/// each complete board to `stop`, which says whether to stop there.
fn walk_slice(
    walk: &mut impl Iterator<Item = Board>,
    nodes: u64,
    meter: &mut Meter,
    mut stop: impl FnMut(Board) -> bool,
) -> SliceEnd {
    for _ in 0..nodes {
        if !meter.tick() {
            return SliceEnd::Spent;
        }
        match walk.next() {
            None => return SliceEnd::Ended,
            Some(node) => {
                if node.is_complete() && stop(node) {
                    return SliceEnd::Stopped;
                }
            }
        }
    }
    SliceEnd::Full
}

/// [`Board::solve_within`]: the first solution of the depth-first search on
/// the 9x9 engine. On the general engine, the first solution of a
/// depth-first search that branches by domain over weighted degree, taking
/// turns with restarted dives as [`count_with_dives`] does: the empty 24x24
/// board, or a 25x25 puzzle with several solutions, can keep the plain
/// fewest-candidates order from any solution for minutes. A search still
/// going at turn [`CLAUSES_AT_RUN`] goes to clause learning, as the count
/// does, unless a killer cage has too many fillings to spell out. Every
/// board visited is one node of `meter`'s budget, and so is every conflict
/// of clause learning; a board has no solution when the depth-first search
/// ends without one, or clause learning finds no model.
pub(crate) fn first(board: &Board, mut meter: Meter) -> (Option<Board>, Option<Exhausted>) {
    if !meter.has_node_limit() {
        if let Some(twin) = board.on_band_engine() {
            let (found, stopped) = first(&twin, meter);
            let digits: Option<Vec<u8>> = found.map(|grid| grid.cells().map(|d| d.unwrap_or(0)).collect());
            let empty = Board::empty_with(&board.rules());
            return (digits.map(|digits| empty.with_solution_digits(&digits)), stopped);
        }
    }
    if !board.uses_general_engine() {
        let mut solutions = Solutions { meter, ..Solutions::walk_alone(board.clone()) };
        let first = solutions.next();
        return (first, solutions.exhausted());
    }
    let weights = Weights::new(board);
    let mut depth_first = crate::search::dfs(board.clone(), |b: &Board| WeightedChildren::new(b, &weights, 0));
    let dive_weights = Weights::new(board);
    let mut run = 0;
    let mut solution = None;
    loop {
        run += 1;
        let slice = crate::search::luby_at(run).saturating_mul(DIVE_UNIT);
        if run == CLAUSES_AT_RUN {
            // As in the count: past its first few hundred nodes, the search
            // hands over to clause learning, which finds a first model of a
            // puzzle near uniqueness about as soon as the count to 2 does,
            // where the search alone can take several times as long.
            match board.settled_clauses() {
                Err(()) => return (None, None),
                Ok(Some(mut clauses)) => {
                    let (digits, stopped) = clauses.solve(&mut meter);
                    let empty = Board::empty_with(&board.rules());
                    return (digits.map(|digits| empty.with_solution_digits(&digits)), stopped);
                }
                Ok(None) => {}
            }
        }
        let mut take = |found: Board| {
            solution = Some(found);
            true
        };
        match walk_slice(&mut depth_first, slice, &mut meter, &mut take) {
            SliceEnd::Stopped => return (solution, None),
            SliceEnd::Ended => return (None, None),
            SliceEnd::Spent => return (None, meter.exhausted()),
            SliceEnd::Full => {}
        }
        let mut dive = crate::search::dfs(board.clone(), |b: &Board| WeightedChildren::new(b, &dive_weights, run));
        match walk_slice(&mut dive, slice, &mut meter, &mut take) {
            SliceEnd::Stopped => return (solution, None),
            SliceEnd::Spent => return (None, meter.exhausted()),
            SliceEnd::Ended | SliceEnd::Full => {}
        }
    }
}

/// The count of [`Board::count_solutions`] over a search of the solutions,
/// begun or not, through the public [`Counter`]: for searches whose child
/// iterators are not [`Children`], which [`count_in_place`] walks.
fn counter<IN: Iterator<Item = Board>, S: Successors<Board, IN>>(
    search: Dfs<Board, IN, S>,
    meter: Meter,
) -> Counter<Dfs<Board, IN, S>, impl FnMut(&Board) -> bool, DirectCount> {
    let shortcut = DirectCount::under(&meter);
    search.counter(Board::is_complete).shortcut(shortcut).with_meter(meter)
}

/// Every solution of a board, lazily: the depth-first search over
/// [`Board::children`] filtered for complete boards.
///
/// Built by [`Board::solutions`]. Memory stays bounded by the depth of the
/// search, at most one pending child iterator per empty cell, and on boards
/// of the general engine the board's clauses, with what clause learning
/// has learned from them.
///
/// On those boards, with no node budget, if the search has found fewer
/// than one solution in eight boards after its first thousand, clause
/// learning guides it from then on: before the search goes below a board,
/// it asks whether any solution agrees with the board, and passes over
/// the board if none does. The boards and their order are the same either
/// way; the time is not where the search alone keeps failing the same
/// way: a 16x16 killer puzzle whose one solution the search alone had not
/// reached after 30 s takes under a second, and the first 100 solutions
/// of a 25x25 puzzle with more than that, hidden in a large tree, 2 s.
#[derive(Clone)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct Solutions {
    search: Dfs<Board, Children, BoardChildren>,
    meter: Meter,
    /// Clause learning beside the walk, on the general engine with no
    /// node budget ([`Learning`]).
    learning: Option<Box<Learning>>,
}

impl Solutions {
    /// [`search::dfs`](crate::search::dfs) is exactly this `Search` over a
    /// `Stack`, with a closure in place of [`BoardChildren`]; on the
    /// general engine, with clause learning beside it.
    pub(crate) fn new(board: Board) -> Solutions {
        let learning = board.uses_general_engine().then(|| Box::new(Learning::new(board.clone())));
        Solutions { learning, ..Solutions::walk_alone(board) }
    }

    /// The walk alone, with no clause learning beside it: for subtrees of
    /// a walk elsewhere.
    pub(crate) fn walk_alone(board: Board) -> Solutions {
        Solutions {
            search: Search::new(board, BoardChildren, Stack::new()),
            meter: Meter::new(Budget::UNLIMITED),
            learning: None,
        }
    }

    /// [`Iterator::next`] with clause learning beside the walk: the walk's
    /// first turn alone, then guided by clause learning if it showed itself
    /// sparse there ([`Learning`]).
    #[inline(never)]
    fn next_learning(&mut self) -> Option<Board> {
        let learning = self.learning.as_mut()?;
        loop {
            let meter = &mut self.meter;
            let mut turn_over = false;
            let visit = |board: &Board| match learning.node() {
                Step::TurnOver => {
                    turn_over = true;
                    Visit::Refuse
                }
                Step::Walk => {
                    let visit = take_complete(meter, board);
                    learning.visit(board, meter, visit)
                }
            };
            let found = walk_in_place(stack_of(&mut self.search), &mut AsChildren, visit);
            if found.is_some() {
                learning.walked_one();
                return found;
            }
            if !turn_over {
                return None; // Every solution found, or the budget spent.
            }
            learning.turn_over();
        }
    }

    /// Clause learning beside the walk, for tests to look at.
    #[cfg(test)]
    pub(crate) fn learning_mut(&mut self) -> Option<&mut Learning> {
        self.learning.as_deref_mut()
    }

    /// These solutions, with the search stopping once `budget` is spent:
    /// each board the search visits counts as one node.
    /// [`Solutions::exhausted`] then says so.
    ///
    /// ```
    /// use lazydoku::search::Budget;
    /// use lazydoku::{Board, Shape};
    ///
    /// let mut solutions = Board::empty(Shape::NINE).solutions().within(Budget::nodes(200));
    /// let found = solutions.by_ref().count();
    /// assert!(found > 0);
    /// assert_eq!(solutions.exhausted().map(|e| e.nodes()), Some(200));
    /// ```
    pub fn within(mut self, budget: Budget) -> Solutions {
        self.meter = Meter::new(budget);
        if budget.node_limit().is_some() {
            // A node budget stops at the same node on every machine, which
            // turns of time do not.
            self.learning = None;
        }
        self
    }

    /// Why the search stopped early, or `None` while it has budget left and
    /// once it has found every solution.
    #[must_use]
    pub fn exhausted(&self) -> Option<Exhausted> {
        self.meter.exhausted()
    }
}

/// What the walk behind [`Solutions`] does with each board it builds:
/// takes the complete ones, expands the others, and stops where `meter`'s
/// budget is spent.
// Always inlined into the closures of `next` and `fold`: a function that
// returned the closure itself made both 2 to 3% slower in the harness.
#[expect(clippy::inline_always, reason = "measured: see the comment above")]
#[inline(always)]
fn take_complete(meter: &mut Meter, board: &Board) -> Visit {
    if !meter.tick() {
        Visit::Refuse
    } else if board.is_complete() {
        Visit::Take
    } else {
        Visit::Expand
    }
}

impl Iterator for Solutions {
    type Item = Board;

    /// `filter(Board::is_complete)` by hand, with each child built where
    /// it is expanded (`walk_in_place`): the same boards in the same
    /// order, with two or three copies of a board fewer per node.
    // Inlined into the caller's loop: as a call of its own, a `for` loop
    // over the solutions of `million.txt` ran at 3.36-3.41 M/s in the peers
    // harness, and at 3.52-3.58 inlined (docs/performance.md).
    #[expect(clippy::inline_always, reason = "measured: see the comment above")]
    #[inline(always)]
    fn next(&mut self) -> Option<Board> {
        if self.learning.is_some() {
            return self.next_learning();
        }
        let meter = &mut self.meter;
        walk_in_place(stack_of(&mut self.search), &mut AsChildren, |board| take_complete(meter, board))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, self.search.size_hint().1)
    }

    /// Every solution handed to `f` from a loop of the walk's own, rather
    /// than one call of [`Iterator::next`] each: the same boards in the
    /// same order, within the same budget. `for_each`, `last` and the sums
    /// and extremes, which are built on `fold`, take this path. The loop
    /// stays in the library's code whatever the caller's code looks like:
    /// in the peers harness, enumerating `million.txt` this way ran at 3.45
    /// to 3.56 M solutions a second where `next` in a loop, before it was
    /// inlined, ran at 3.36 to 3.41 (docs/performance.md).
    fn fold<B, F: FnMut(B, Board) -> B>(mut self, init: B, mut f: F) -> B {
        if self.learning.is_some() {
            let mut acc = init;
            while let Some(solution) = self.next_learning() {
                acc = f(acc, solution);
            }
            return acc;
        }
        let meter = &mut self.meter;
        let stack = stack_of(&mut self.search);
        // Each solution copied out of its entry, which is left for the next
        // child to be copied over (`fold_walk`).
        fold_walk(stack, &mut AsChildren, |board| take_complete(meter, board), init, |acc, board| f(acc, board.clone()))
    }

    /// [`Board::count_solutions`] from where the search stands: the same
    /// number as counting them one by one, without building the last cells
    /// of each branch as boards. Within the budget, if there is one.
    fn count(mut self) -> usize {
        if let Some(learning) = self.learning.as_mut() {
            if !learning.has_begun() {
                // Not begun: the count that takes turns with clause learning.
                return count_taking_turns(learning.root(), usize::MAX, self.meter).0;
            }
        }
        count_in_place(&mut self.search, usize::MAX, &mut self.meter)
    }
}

impl FusedIterator for Solutions {}

impl fmt::Debug for Solutions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solutions").finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The walk's count of `board` to `limit` with `branching`, and the
    /// nodes it visited.
    fn walked(board: &Board, limit: usize, branching: &mut impl Branching) -> (usize, u64) {
        let mut search = Search::new(board.clone(), BoardChildren, Stack::new());
        let mut meter = Meter::new(Budget::UNLIMITED);
        let count = count_branching(&mut search, branching, limit, &mut meter);
        (count, meter.visited())
    }

    /// Branching where guesses failed before changes the tree, not the
    /// count: on unique puzzles, on the same puzzles with givens taken out
    /// (many solutions, counted to several limits) and with a clashing
    /// digit put in (none). On the hardest puzzles the tree is smaller.
    #[test]
    fn counts_that_learn_from_failed_guesses_are_the_same_over_fewer_nodes() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/puzzles5_forum_hardest_1905_11+");
        let text = std::fs::read_to_string(path).expect("the dataset is in the repository");
        let (mut plain_nodes, mut learned_nodes) = (0, 0);
        for (k, line) in text.lines().take(60).enumerate() {
            let puzzle: Board = line[..81].parse().expect("a valid puzzle");
            let plain = walked(&puzzle, 2, &mut AsChildren);
            let learned = walked(&puzzle, 2, &mut FailedGuesses::new());
            assert_eq!(plain.0, 1, "{line}");
            assert_eq!(learned.0, 1, "{line}");
            plain_nodes += plain.1;
            learned_nodes += learned.1;

            let mut fewer: Vec<u8> = line[..81].bytes().collect();
            for cell in (k % 7..81).step_by(7) {
                fewer[cell] = b'.';
            }
            let fewer: Board = std::str::from_utf8(&fewer).unwrap().parse().expect("fewer givens");
            for limit in [2, 50, 5_000] {
                let expected = walked(&fewer, limit, &mut AsChildren).0;
                assert_eq!(walked(&fewer, limit, &mut FailedGuesses::new()).0, expected, "{line} to {limit}");
                assert_eq!(expected, fewer.solutions().take(limit).count(), "{line} to {limit}");
            }

            // A digit that clashes with nothing given but with the solution.
            let solution = puzzle.solve().expect("a solution");
            let cell = (0..81).find(|&c| puzzle.get(c).is_none()).expect("an empty cell");
            let wrong = 1 + solution.get(cell).expect("filled") % 9;
            if let Ok(broken) = puzzle.place(cell, wrong) {
                assert_eq!(walked(&broken, 2, &mut FailedGuesses::new()).0, 0, "{line}");
            }
        }
        assert!(learned_nodes < plain_nodes, "{learned_nodes} nodes learning, {plain_nodes} without");
    }

    /// Each side of the race of `par_count_solutions`, alone: it counts
    /// and stops the other, or leaves or stops when told.
    #[cfg(feature = "parallel")]
    #[test]
    fn each_side_of_a_count_race_answers_alone_and_stops_when_told() {
        use std::sync::atomic::Ordering::Relaxed;

        use crate::search::Race;

        // A 6x6 board with its first two rows given: some hundreds of
        // solutions, for a limit that clause learning races for (above 16)
        // and one that the dives do.
        let board: Board = format!("{}{}", "123456456123", ".".repeat(24)).parse().unwrap();
        let all = board.count_solutions(usize::MAX);
        assert!(all > 16, "{all} solutions");
        let shared = || crate::search::par_dfs(board.clone(), Board::children).counter(Board::is_complete);
        for limit in [2, usize::MAX] {
            let expected = all.min(limit);
            let race = Race::new();
            assert_eq!(count_racing(&board, limit, &race), Some(expected), "to {limit}");
            assert!(race.stop.load(Relaxed), "the winner stops the other");
            assert_eq!(shared().up_to_racing(limit, &race), None, "the shared count has lost");

            let race = Race::new();
            assert_eq!(shared().up_to_racing(limit, &race), Some(expected), "to {limit}");
            assert_eq!(count_racing(&board, limit, &race), None, "told to stop");
        }
        // Clause learning leaves a race the shared count clearly leads, and
        // stops watching it; the race goes on without it.
        let race = Race::new();
        race.found.store(1_000_000, Relaxed);
        assert_eq!(count_racing(&board, usize::MAX, &race), None);
        assert!(!race.stop.load(Relaxed) && !race.watched.load(Relaxed));
    }
}
