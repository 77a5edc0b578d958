//! A small conflict-driven clause-learning (CDCL) satisfiability solver.
//!
//! The depth-first count refutes a wrong turn anew in every subtree where
//! it recurs: on 25x25 puzzles near the edge of uniqueness that is hundreds
//! of thousands of nodes. A clause learned from each conflict forbids the
//! turn everywhere at once, which is what lets CP-SAT count those puzzles
//! in seconds. This solver follows the design the `MiniSat` paper made
//! standard: two watched literals per clause (binary clauses kept apart as
//! implication lists), first-UIP learning with the learned clause's
//! redundant literals removed and its literals of each lower level
//! replaced by that level's implication point where one serves (all-UIP
//! shrinking), variable activities (VSIDS, with the variables of the
//! learned clause's reasons bumped too) with saved phases, and Luby
//! restarts. As learned clauses pile up, half of them
//! are dropped at set intervals, those of highest glue (the number of
//! decision levels among their literals, as Glucose measures it) first;
//! clauses of glue 2 or less are kept for good.
//!
//! The solver is incremental in the one way counting needs: after a model
//! is found, a clause forbidding it can be added and the search resumed,
//! keeping everything learned so far.

use std::cmp::Ordering;

/// A literal: `2 * variable` for the variable true, `2 * variable + 1` for
/// it false.
pub(crate) type Lit = u32;

/// The literal that a variable is true.
#[inline]
pub(crate) fn positive(var: usize) -> Lit {
    u32::try_from(var).expect("variables fit in 31 bits") << 1
}

#[inline]
const fn negate(lit: Lit) -> Lit {
    lit ^ 1
}

#[inline]
const fn var_of(lit: Lit) -> usize {
    (lit >> 1) as usize
}

/// Values of literals: 1 true, 0 false; unassigned is `UNSET`.
const UNSET: u8 = 2;

/// Why a variable has its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reason {
    /// A decision, or a fact at level 0.
    None,
    /// The binary clause of the implied literal and this one, which is false.
    Binary(Lit),
    /// The clause with this index; the implied literal is its first.
    Clause(u32),
}

/// The clause found false.
#[derive(Clone, Copy, Debug)]
enum Conflict {
    Binary(Lit, Lit),
    Clause(u32),
}

/// Where a clause's header starts in the arena: its length, then its
/// flags, then its activity (as `f32` bits), then its literals.
const LENGTH: usize = 0;
const FLAGS: usize = 1;
const ACTIVITY: usize = 2;
const HEADER: usize = 3;
const LEARNT: u32 = 1;
const DELETED: u32 = 2;

/// A clause watching a literal, with another literal of it that, when
/// true, spares a look at the clause.
#[derive(Clone, Copy, Debug)]
struct Watch {
    clause: u32,
    blocker: Lit,
}

/// What [`Solver::solve`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// A model, read with [`Solver::model_value`].
    Satisfiable,
    /// No model: the clauses contradict one another.
    Unsatisfiable,
    /// The conflict budget ran out first; solving again goes on from here.
    Unknown,
}

/// Learned clauses are first reduced after this many conflicts...
const FIRST_REDUCE: u64 = 16_000;
/// ...and then after this many more each time than the last. Glucose's
/// 2,000 and 300 dropped clauses that the counts of unique 25x25 puzzles
/// needed again: on `data/edge25.txt` they took 44 s, 8,000 and 1,000 took
/// 39 s, these 34 s (docs/performance.md).
const REDUCE_STEP: u64 = 2000;
/// Learned clauses of this glue or less are kept for good.
const KEPT_GLUE: u32 = 2;

/// How many watches ahead a clause is fetched into the cache: most of unit
/// propagation's time is the first read of a clause, a cache miss, and
/// whether a watch needs its clause is unpredictable, so the processor
/// does not run ahead to the next one on its own. 4 and 8 ahead did
/// alike (docs/performance.md).
const PREFETCH_AHEAD: usize = 4;

/// Conflicts per unit of the Luby sequence of restarts.
const RESTART_UNIT: u64 = 100;
/// Variable activities decay by this factor per conflict.
const VAR_DECAY: f64 = 0.95;
/// Learned clauses' activities decay by this factor per conflict.
const CLAUSE_DECAY: f32 = 0.999;

#[derive(Clone, Debug)]
pub(crate) struct Solver {
    /// Value of each literal (`UNSET`, 0 or 1), both of a variable's kept
    /// together: unit propagation reads a literal's value with one load,
    /// where a value per variable took a shift and a comparison with the
    /// sign, and counting `data/edge25.txt` to 2 ran 3 to 5% faster so
    /// (docs/performance.md).
    values: Vec<u8>,
    level: Vec<u32>,
    reason: Vec<Reason>,
    /// The phase each variable last had, tried first when it is decided.
    phase: Vec<u8>,
    activity: Vec<f64>,
    var_increment: f64,
    /// Unassigned variables (and some assigned ones), by activity.
    heap: VarHeap,
    /// For each literal, the literals implied when it becomes false.
    binaries: Vec<Vec<Lit>>,
    /// For each literal, the clauses watching it (visited when it turns false).
    watches: Vec<Vec<Watch>>,
    /// Every clause of three literals or more, one after another, each a
    /// header and its literals: one lookup reaches the literals, where a
    /// vector per clause would cost a second cache miss at every visit.
    arena: Vec<u32>,
    /// Where the learned clauses still in use start in the arena.
    learnts: Vec<u32>,
    clause_increment: f32,
    trail: Vec<Lit>,
    /// Where each decision level starts on the trail.
    trail_limits: Vec<usize>,
    /// Trail entries not yet propagated start here.
    queue_head: usize,
    /// False once the clauses are known to be contradictory.
    consistent: bool,
    /// Scratch of conflict analysis.
    seen: Vec<bool>,
    /// The last model found, as `values`.
    model: Vec<u8>,
    conflicts: u64,
    /// Conflicts at which the learned clauses are next reduced.
    next_reduce: u64,
    reductions: u64,
    /// Scratch: a stamp per decision level, for counting levels.
    level_stamp: Vec<u64>,
    stamp: u64,
    /// For shrinking a learned clause: the variables still to be passed at
    /// the level looked at, those whose mark is `open_stamp`.
    open_mark: Vec<u64>,
    open_stamp: u64,
    restarts: u64,
    conflicts_to_restart: u64,
    /// Literals decided first, one level each, in every search until the
    /// next [`Solver::solve_assuming`].
    assumptions: Vec<Lit>,
    /// Lists that conflict analysis fills and empties at every conflict,
    /// kept between conflicts so that it allocates nothing once they have
    /// grown: the learned clause, and scratch lists of literals.
    scratch: Scratch,
}

/// The lists behind [`Solver::analyze`], reused from one conflict to the
/// next: allocated afresh at each conflict (about 80 allocations for a
/// learned clause of 37 literals), they cost 6 to 8% of counting the puzzles
/// of `data/edge25.txt` (docs/performance.md).
#[derive(Clone, Debug, Default)]
struct Scratch {
    learnt: Vec<Lit>,
    antecedents: Vec<Lit>,
    marked: Vec<Lit>,
    stack: Vec<Lit>,
    by_level: Vec<Lit>,
    shrunk: Vec<Lit>,
}

impl Solver {
    pub(crate) fn new(vars: usize) -> Solver {
        let mut heap = VarHeap::default();
        let activity = vec![0.0; vars];
        for v in 0..vars {
            heap.insert(v, &activity);
        }
        Solver {
            values: vec![UNSET; 2 * vars],
            level: vec![0; vars],
            reason: vec![Reason::None; vars],
            // Deciding a variable true first: on the puzzles counted here,
            // a digit given to a cell, which propagates the most and finds
            // models sooner (docs/performance.md).
            phase: vec![1; vars],
            activity,
            var_increment: 1.0,
            heap,
            binaries: vec![Vec::new(); 2 * vars],
            watches: vec![Vec::new(); 2 * vars],
            arena: Vec::new(),
            learnts: Vec::new(),
            clause_increment: 1.0,
            trail: Vec::with_capacity(vars),
            trail_limits: Vec::new(),
            queue_head: 0,
            consistent: true,
            seen: vec![false; vars],
            model: Vec::new(),
            conflicts: 0,
            next_reduce: FIRST_REDUCE,
            reductions: 0,
            level_stamp: Vec::new(),
            stamp: 0,
            open_mark: vec![0; vars],
            open_stamp: 0,
            restarts: 0,
            conflicts_to_restart: RESTART_UNIT,
            assumptions: Vec::new(),
            scratch: Scratch::default(),
        }
    }

    /// Sets the value variable `var` takes first when it is next decided
    /// (until a later assignment saves another).
    pub(crate) fn set_phase(&mut self, var: usize, value: bool) {
        self.phase[var] = u8::from(value);
    }

    /// Conflicts met so far, over every call to [`Solver::solve`].
    pub(crate) fn conflicts(&self) -> u64 {
        self.conflicts
    }

    #[inline]
    fn is_true(&self, lit: Lit) -> bool {
        self.values[lit as usize] == 1
    }

    #[inline]
    fn is_false(&self, lit: Lit) -> bool {
        self.values[lit as usize] == 0
    }

    fn decision_level(&self) -> u32 {
        u32::try_from(self.trail_limits.len()).expect("levels fit in 32 bits")
    }

    /// Whether variable `var` is true in the last model found.
    pub(crate) fn model_value(&self, var: usize) -> bool {
        self.model[2 * var] == 1
    }

    /// Adds a clause; returns `false` once the clauses are contradictory.
    /// May be called between solves: the solver is then at level 0.
    pub(crate) fn add_clause(&mut self, lits: &[Lit]) -> bool {
        debug_assert_eq!(self.decision_level(), 0, "clauses are added at the root");
        if !self.consistent {
            return false;
        }
        let mut kept: Vec<Lit> = Vec::with_capacity(lits.len());
        for &lit in lits {
            if self.is_true(lit) || kept.contains(&negate(lit)) {
                return true;
            }
            if !self.is_false(lit) && !kept.contains(&lit) {
                kept.push(lit);
            }
        }
        match kept.len() {
            0 => self.consistent = false,
            1 => {
                self.assign(kept[0], Reason::None);
                self.consistent = self.propagate().is_none();
            }
            2 => self.add_binary(kept[0], kept[1]),
            _ => {
                self.attach(&kept, false);
            }
        }
        self.consistent
    }

    fn add_binary(&mut self, a: Lit, b: Lit) {
        self.binaries[a as usize].push(b);
        self.binaries[b as usize].push(a);
    }

    /// Stores a clause of three literals or more, watching its first two.
    fn attach(&mut self, lits: &[Lit], learnt: bool) -> u32 {
        let index = u32::try_from(self.arena.len()).expect("the arena fits in 32 bits");
        self.watches[lits[0] as usize].push(Watch { clause: index, blocker: lits[1] });
        self.watches[lits[1] as usize].push(Watch { clause: index, blocker: lits[0] });
        let length = u32::try_from(lits.len()).expect("clauses fit in 32 bits");
        self.arena.extend([length, if learnt { LEARNT } else { 0 }, 0f32.to_bits()]);
        self.arena.extend_from_slice(lits);
        if learnt {
            self.learnts.push(index);
        }
        index
    }

    /// The literals of the clause at `c`.
    #[inline]
    fn lits(&self, c: u32) -> &[Lit] {
        let c = c as usize;
        &self.arena[c + HEADER..c + HEADER + self.arena[c + LENGTH] as usize]
    }

    fn glue_of(&self, c: u32) -> u32 {
        self.arena[c as usize + FLAGS] >> 2
    }

    fn activity_of(&self, c: u32) -> f32 {
        f32::from_bits(self.arena[c as usize + ACTIVITY])
    }

    fn set_activity(&mut self, c: u32, activity: f32) {
        self.arena[c as usize + ACTIVITY] = activity.to_bits();
    }

    // Always inlined: left to the compiler, it stayed a call of its own
    // from unit propagation, and the count of `data/edge25.txt` to 2 ran
    // 2% slower (docs/performance.md).
    #[expect(clippy::inline_always, reason = "measured: see the comment above")]
    #[inline(always)]
    fn assign(&mut self, lit: Lit, reason: Reason) {
        let v = var_of(lit);
        self.values[lit as usize] = 1;
        self.values[negate(lit) as usize] = 0;
        self.level[v] = self.decision_level();
        self.reason[v] = reason;
        self.trail.push(lit);
    }

    /// Unit propagation to a fixed point, or the clause found false.
    fn propagate(&mut self) -> Option<Conflict> {
        while self.queue_head < self.trail.len() {
            let false_lit = negate(self.trail[self.queue_head]);
            self.queue_head += 1;
            let f = false_lit as usize;
            for k in 0..self.binaries[f].len() {
                let implied = self.binaries[f][k];
                if self.is_true(implied) {
                    continue;
                }
                if self.is_false(implied) {
                    return Some(Conflict::Binary(false_lit, implied));
                }
                self.assign(implied, Reason::Binary(false_lit));
            }
            let mut watches = std::mem::take(&mut self.watches[f]);
            let (mut i, mut j) = (0, 0);
            let mut conflict = None;
            while i < watches.len() {
                if let Some(ahead) = watches.get(i + PREFETCH_AHEAD) {
                    crate::cpu::prefetch(&self.arena[ahead.clause as usize]);
                }
                let watch = watches[i];
                i += 1;
                if self.is_true(watch.blocker) {
                    watches[j] = watch;
                    j += 1;
                    continue;
                }
                let c = watch.clause as usize;
                let length = self.arena[c + LENGTH] as usize;
                let lits = &mut self.arena[c + HEADER..c + HEADER + length];
                if lits[0] == false_lit {
                    lits.swap(0, 1);
                }
                let first = lits[0];
                if first != watch.blocker && self.values[first as usize] == 1 {
                    watches[j] = Watch { clause: watch.clause, blocker: first };
                    j += 1;
                    continue;
                }
                // Look for a literal not false to watch instead.
                let mut moved = false;
                for k in 2..lits.len() {
                    let lit = lits[k];
                    if self.values[lit as usize] != 0 {
                        lits.swap(1, k);
                        self.watches[lit as usize].push(Watch { clause: watch.clause, blocker: first });
                        moved = true;
                        break;
                    }
                }
                if moved {
                    continue;
                }
                watches[j] = Watch { clause: watch.clause, blocker: first };
                j += 1;
                if self.is_false(first) {
                    conflict = Some(Conflict::Clause(watch.clause));
                    while i < watches.len() {
                        watches[j] = watches[i];
                        i += 1;
                        j += 1;
                    }
                } else {
                    self.assign(first, Reason::Clause(watch.clause));
                }
            }
            watches.truncate(j);
            self.watches[f] = watches;
            if conflict.is_some() {
                return conflict;
            }
        }
        None
    }

    /// The literals other than the implied one that made `var` take its
    /// value: all false.
    fn antecedents(&self, reason: Reason, out: &mut Vec<Lit>) {
        out.clear();
        match reason {
            Reason::None => {}
            Reason::Binary(other) => out.push(other),
            Reason::Clause(c) => out.extend_from_slice(&self.lits(c)[1..]),
        }
    }

    /// First-UIP learning: the learned clause (its asserting literal first,
    /// then one of the highest level among the rest) and the level to go
    /// back to.
    fn analyze(&mut self, conflict: Conflict) -> (Vec<Lit>, u32) {
        let mut learnt = std::mem::take(&mut self.scratch.learnt);
        learnt.clear();
        learnt.push(0);
        let mut antecedents = std::mem::take(&mut self.scratch.antecedents);
        antecedents.clear();
        match conflict {
            Conflict::Binary(a, b) => antecedents.extend([a, b]),
            Conflict::Clause(c) => {
                self.bump_clause(c);
                antecedents.extend_from_slice(self.lits(c));
            }
        }
        let level = self.decision_level();
        let mut open = 0;
        let mut index = self.trail.len();
        let asserting = loop {
            for &lit in &antecedents {
                let v = var_of(lit);
                if !self.seen[v] && self.level[v] > 0 {
                    self.seen[v] = true;
                    self.bump_var(v);
                    if self.level[v] >= level {
                        open += 1;
                    } else {
                        learnt.push(lit);
                    }
                }
            }
            loop {
                index -= 1;
                if self.seen[var_of(self.trail[index])] {
                    break;
                }
            }
            let p = self.trail[index];
            self.seen[var_of(p)] = false;
            open -= 1;
            if open == 0 {
                break p;
            }
            let reason = self.reason[var_of(p)];
            if let Reason::Clause(c) = reason {
                self.bump_clause(c);
            }
            self.antecedents(reason, &mut antecedents);
        };
        learnt[0] = negate(asserting);
        // A literal implied by the others (through reasons that lead only
        // to them, or to level 0) adds nothing: drop it. The levels of the
        // clause, one bit each, rule out most lookups at once.
        let mut marked = std::mem::take(&mut self.scratch.marked);
        marked.clone_from(&learnt);
        let levels = learnt[1..].iter().fold(0u32, |acc, &l| acc | 1 << (self.level[var_of(l)] & 31));
        let mut kept = 1;
        let mut stack = std::mem::take(&mut self.scratch.stack);
        for k in 1..learnt.len() {
            let lit = learnt[k];
            if self.reason[var_of(lit)] == Reason::None
                || !self.implied(lit, levels, &mut marked, &mut stack, &mut antecedents)
            {
                learnt[kept] = lit;
                kept += 1;
            }
        }
        self.scratch.stack = stack;
        learnt.truncate(kept);
        for &lit in &marked[1..] {
            self.seen[var_of(lit)] = false;
        }
        self.shrink(&mut learnt, &mut antecedents);
        self.bump_reason_side(&learnt, &mut antecedents, &mut marked);
        let mut back_to = 0;
        if learnt.len() > 1 {
            let mut best = 1;
            for k in 2..learnt.len() {
                if self.level[var_of(learnt[k])] > self.level[var_of(learnt[best])] {
                    best = k;
                }
            }
            learnt.swap(1, best);
            back_to = self.level[var_of(learnt[1])];
        }
        self.scratch.antecedents = antecedents;
        self.scratch.marked = marked;
        (learnt, back_to)
    }

    /// Shrinks the learned clause level by level (all-UIP shrinking, after
    /// Feng and Bacchus): two or more of its literals at one decision level
    /// give way to that level's unique implication point, where one is
    /// found without leaving the clause's own literals at the levels below.
    /// The clause stays implied, and is shorter: over eight seeds of the
    /// variables' first order, counting the 14 puzzles of `data/edge25.txt`
    /// to 2 took a seventh fewer conflicts, and each was cheaper
    /// (docs/performance.md). `reasons` is a scratch list.
    fn shrink(&mut self, learnt: &mut Vec<Lit>, reasons: &mut Vec<Lit>) {
        if learnt.len() <= 2 {
            return;
        }
        for &lit in learnt.iter() {
            self.seen[var_of(lit)] = true;
        }
        let mut by_level = std::mem::take(&mut self.scratch.by_level);
        by_level.clear();
        by_level.extend_from_slice(&learnt[1..]);
        by_level.sort_unstable_by_key(|&lit| self.level[var_of(lit)]);
        let mut shrunk = std::mem::take(&mut self.scratch.shrunk);
        shrunk.clear();
        shrunk.push(learnt[0]);
        let mut start = 0;
        while start < by_level.len() {
            let level = self.level[var_of(by_level[start])];
            let end = start + by_level[start..].iter().take_while(|&&lit| self.level[var_of(lit)] == level).count();
            let group = &by_level[start..end];
            // A literal alone at its level is its own implication point.
            let uip = if group.len() > 1 { self.level_uip(group, reasons) } else { None };
            match uip {
                Some(uip) => shrunk.push(negate(uip)),
                None => shrunk.extend_from_slice(group),
            }
            start = end;
        }
        for &lit in learnt.iter() {
            self.seen[var_of(lit)] = false;
        }
        // The old clause's list becomes the next call's scratch.
        std::mem::swap(learnt, &mut shrunk);
        self.scratch.shrunk = shrunk;
        self.scratch.by_level = by_level;
    }

    /// The trail literal at the level of `group` (literals of the learned
    /// clause, all at one level, whose variables are marked `seen` with
    /// the rest of the clause's) that every path from the level's decision
    /// to them goes through, found by walking the level's trail back; or
    /// `None` when the walk meets a literal of a lower level outside the
    /// clause.
    fn level_uip(&mut self, group: &[Lit], reasons: &mut Vec<Lit>) -> Option<Lit> {
        let level = self.level[var_of(group[0])];
        self.open_stamp += 1;
        for &lit in group {
            self.open_mark[var_of(lit)] = self.open_stamp;
        }
        let mut open = group.len();
        let start = self.trail_limits[level as usize - 1];
        let end = self.trail_limits.get(level as usize).copied().unwrap_or(self.trail.len());
        for k in (start..end).rev() {
            let p = self.trail[k];
            if self.open_mark[var_of(p)] != self.open_stamp {
                continue;
            }
            open -= 1;
            if open == 0 {
                return Some(p);
            }
            self.antecedents(self.reason[var_of(p)], reasons);
            for &other in reasons.iter() {
                let w = var_of(other);
                if self.level[w] == level {
                    if self.open_mark[w] != self.open_stamp {
                        self.open_mark[w] = self.open_stamp;
                        open += 1;
                    }
                } else if self.level[w] > 0 && !self.seen[w] {
                    return None;
                }
            }
        }
        None
    }

    /// Bumps the variables of the reasons of the learned clause's literals
    /// that are not in it (reason-side bumping, as in the Maple family of
    /// solvers): they made the conflict one step further back, and the
    /// search then branches nearer to where conflicts come from. Over four
    /// seeds of the variables' first order, it took a quarter off the
    /// conflicts of counting the 14 puzzles of `data/edge25.txt` to 2
    /// (docs/performance.md). `reasons` and `bumped` are scratch lists.
    fn bump_reason_side(&mut self, learnt: &[Lit], reasons: &mut Vec<Lit>, bumped: &mut Vec<Lit>) {
        for &lit in learnt {
            self.seen[var_of(lit)] = true;
        }
        bumped.clear();
        for &lit in learnt {
            self.antecedents(self.reason[var_of(lit)], reasons);
            for &other in reasons.iter() {
                let v = var_of(other);
                if !self.seen[v] && self.level[v] > 0 {
                    self.seen[v] = true;
                    bumped.push(other);
                    self.bump_var(v);
                }
            }
        }
        for &lit in learnt.iter().chain(bumped.iter()) {
            self.seen[var_of(lit)] = false;
        }
    }

    /// Whether `lit`, of the learned clause, follows from the clause's
    /// other literals (those with `seen` set) through the reasons of the
    /// trail. Literals found implied stay marked, and are listed in
    /// `marked` for clearing. `stack` and `antecedents` are scratch lists.
    fn implied(
        &mut self,
        lit: Lit,
        levels: u32,
        marked: &mut Vec<Lit>,
        stack: &mut Vec<Lit>,
        antecedents: &mut Vec<Lit>,
    ) -> bool {
        stack.clear();
        stack.push(lit);
        let top = marked.len();
        while let Some(q) = stack.pop() {
            self.antecedents(self.reason[var_of(q)], antecedents);
            for &a in antecedents.iter() {
                let v = var_of(a);
                if self.seen[v] || self.level[v] == 0 {
                    continue;
                }
                if self.reason[v] != Reason::None && (1 << (self.level[v] & 31)) & levels != 0 {
                    self.seen[v] = true;
                    stack.push(a);
                    marked.push(a);
                } else {
                    for &m in &marked[top..] {
                        self.seen[var_of(m)] = false;
                    }
                    marked.truncate(top);
                    return false;
                }
            }
        }
        true
    }

    /// The number of distinct decision levels among `lits`: the clause's
    /// glue (literal block distance). Learned clauses of low glue tie
    /// blocks of the search together and are the ones worth keeping.
    fn glue(&mut self, lits: &[Lit]) -> u32 {
        self.stamp += 1;
        if self.level_stamp.len() <= self.trail_limits.len() {
            self.level_stamp.resize(self.trail_limits.len() + 1, 0);
        }
        let mut glue = 0;
        for &lit in lits {
            let level = self.level[var_of(lit)] as usize;
            if self.level_stamp[level] != self.stamp {
                self.level_stamp[level] = self.stamp;
                glue += 1;
            }
        }
        glue
    }

    fn bump_var(&mut self, v: usize) {
        self.activity[v] += self.var_increment;
        if self.activity[v] > 1e100 {
            for a in &mut self.activity {
                *a *= 1e-100;
            }
            self.var_increment *= 1e-100;
        }
        self.heap.increased(v, &self.activity);
    }

    fn bump_clause(&mut self, c: u32) {
        if self.arena[c as usize + FLAGS] & LEARNT == 0 {
            return;
        }
        let activity = self.activity_of(c) + self.clause_increment;
        self.set_activity(c, activity);
        if activity > 1e20 {
            for k in 0..self.learnts.len() {
                let l = self.learnts[k];
                self.set_activity(l, self.activity_of(l) * 1e-20);
            }
            self.clause_increment *= 1e-20;
        }
    }

    /// Undoes every assignment above `level`, saving phases.
    fn backtrack(&mut self, level: u32) {
        if self.decision_level() <= level {
            return;
        }
        let start = self.trail_limits[level as usize];
        for k in (start..self.trail.len()).rev() {
            let v = var_of(self.trail[k]);
            self.phase[v] = self.values[2 * v];
            self.values[2 * v] = UNSET;
            self.values[2 * v + 1] = UNSET;
            self.reason[v] = Reason::None;
            self.heap.insert(v, &self.activity);
        }
        self.trail.truncate(start);
        self.trail_limits.truncate(level as usize);
        self.queue_head = start;
    }

    /// Drops half of the learned clauses, those of highest glue and then
    /// the least active, keeping those of glue [`KEPT_GLUE`] or less and
    /// those that are the reason of a value on the trail; then compacts
    /// the arena.
    fn reduce(&mut self) {
        let mut learnts = std::mem::take(&mut self.learnts);
        // Highest glue first, and the least active first among equals.
        learnts.sort_unstable_by(|&a, &b| {
            let activity = self.activity_of(a).partial_cmp(&self.activity_of(b)).unwrap_or(Ordering::Equal);
            self.glue_of(b).cmp(&self.glue_of(a)).then(activity)
        });
        let half = learnts.len() / 2;
        for &c in &learnts[..half] {
            let first = self.lits(c)[0];
            let locked = self.reason[var_of(first)] == Reason::Clause(c) && self.is_true(first);
            if !locked && self.glue_of(c) > KEPT_GLUE {
                self.arena[c as usize + FLAGS] |= DELETED;
            }
        }
        // Move every clause kept to its new place, leaving the new place
        // in the old header's flags for the reasons on the trail.
        let old = std::mem::take(&mut self.arena);
        let mut at = 0;
        self.learnts.clear();
        for watches in &mut self.watches {
            watches.clear();
        }
        while at < old.len() {
            let length = old[at + LENGTH] as usize;
            let end = at + HEADER + length;
            if old[at + FLAGS] & DELETED == 0 {
                let index = u32::try_from(self.arena.len()).expect("the arena fits in 32 bits");
                let lits = &old[at + HEADER..end];
                self.watches[lits[0] as usize].push(Watch { clause: index, blocker: lits[1] });
                self.watches[lits[1] as usize].push(Watch { clause: index, blocker: lits[0] });
                if old[at + FLAGS] & LEARNT != 0 {
                    self.learnts.push(index);
                }
                self.arena.extend_from_slice(&old[at..end]);
            }
            at = end;
        }
        // The reasons moved with their clauses: find each new place.
        let mut moved = old;
        let mut at = 0;
        let mut new_at = 0;
        while at < moved.len() {
            let length = moved[at + LENGTH] as usize;
            if moved[at + FLAGS] & DELETED == 0 {
                moved[at + FLAGS] = u32::try_from(new_at).expect("the arena fits in 32 bits");
                new_at += HEADER + length;
            }
            at += HEADER + length;
        }
        for &lit in &self.trail {
            let v = var_of(lit);
            if let Reason::Clause(c) = self.reason[v] {
                self.reason[v] = Reason::Clause(moved[c as usize + FLAGS]);
            }
        }
    }

    /// Searches for a model for up to `budget` more conflicts. A model
    /// found stays readable until the next one, and leaves the solver at
    /// level 0, where clauses can be added (under assumptions, at their
    /// last level); a spent budget leaves the search where it stands, to go
    /// on at the next call. The assumptions of the last
    /// [`Solver::solve_assuming`], if any, hold throughout.
    pub(crate) fn solve(&mut self, budget: u64) -> Outcome {
        if !self.consistent {
            return Outcome::Unsatisfiable;
        }
        let stop = self.conflicts.saturating_add(budget);
        loop {
            if let Some(conflict) = self.propagate() {
                self.conflicts += 1;
                if self.decision_level() == 0 {
                    self.consistent = false;
                    return Outcome::Unsatisfiable;
                }
                let (learnt, back_to) = self.analyze(conflict);
                let glue = self.glue(&learnt);
                self.backtrack(back_to);
                match learnt.len() {
                    1 => self.assign(learnt[0], Reason::None),
                    2 => {
                        self.add_binary(learnt[0], learnt[1]);
                        self.assign(learnt[0], Reason::Binary(learnt[1]));
                    }
                    _ => {
                        let first = learnt[0];
                        let c = self.attach(&learnt, true);
                        self.arena[c as usize + FLAGS] |= glue << 2;
                        self.bump_clause(c);
                        self.assign(first, Reason::Clause(c));
                    }
                }
                self.scratch.learnt = learnt;
                self.var_increment /= VAR_DECAY;
                self.clause_increment /= CLAUSE_DECAY;
                continue;
            }
            if self.conflicts >= self.conflicts_to_restart {
                self.restarts += 1;
                self.conflicts_to_restart = self.conflicts + RESTART_UNIT * crate::search::luby_at(self.restarts + 1);
                self.backtrack_to_assumptions();
            }
            if self.conflicts >= self.next_reduce {
                self.reductions += 1;
                self.next_reduce = self.conflicts + FIRST_REDUCE + REDUCE_STEP * self.reductions;
                self.reduce();
            }
            if self.conflicts >= stop {
                // Where the search stands is kept: solving again goes on
                // from here.
                return Outcome::Unknown;
            }
            // The assumptions are decided first, a level each (an empty
            // one for an assumption already true), so that learned clauses
            // hold without them.
            if let Some(&assumed) = self.assumptions.get(self.trail_limits.len()) {
                if self.is_false(assumed) {
                    // The levels of the assumptions before stay for the
                    // next question that shares them.
                    return Outcome::Unsatisfiable;
                }
                self.trail_limits.push(self.trail.len());
                if !self.is_true(assumed) {
                    self.assign(assumed, Reason::None);
                }
                continue;
            }
            let Some(v) = self.next_unassigned() else {
                self.model.clone_from(&self.values);
                self.backtrack_to_assumptions();
                return Outcome::Satisfiable;
            };
            self.trail_limits.push(self.trail.len());
            let lit = positive(v) | u32::from(self.phase[v] == 0);
            self.assign(lit, Reason::None);
        }
    }

    /// [`Solver::solve`] for a model in which every literal of
    /// `assumptions` is true: `Unsatisfiable` when there is none with them,
    /// which leaves the clauses open to other questions. What the search
    /// learns holds without the assumptions, so a series of questions
    /// about one set of clauses shares it.
    ///
    /// The search starts from the levels of the assumptions that the last
    /// question shares with this one, in order from the first: they are
    /// kept rather than decided and propagated again (one level per given,
    /// in the generator's questions).
    pub(crate) fn solve_assuming(&mut self, assumptions: &[Lit], budget: u64) -> Outcome {
        let shared = self.assumptions.iter().zip(assumptions).take_while(|(a, b)| a == b).count();
        self.backtrack(u32::try_from(shared).unwrap_or(u32::MAX));
        self.assumptions.clear();
        self.assumptions.extend_from_slice(assumptions);
        self.solve(budget)
    }

    /// Back to the last level of the assumptions (the root without any):
    /// a restart, or the end of a search, keeps them decided.
    fn backtrack_to_assumptions(&mut self) {
        self.backtrack(u32::try_from(self.assumptions.len()).unwrap_or(u32::MAX));
    }

    fn next_unassigned(&mut self) -> Option<usize> {
        while let Some(v) = self.heap.pop(&self.activity) {
            if self.values[2 * v] == UNSET {
                return Some(v);
            }
        }
        None
    }
}

/// A binary max-heap of variables by activity, with each variable's place
/// kept so that a bumped one moves up at once.
#[derive(Clone, Debug, Default)]
struct VarHeap {
    heap: Vec<usize>,
    /// Place of each variable in `heap`, or `usize::MAX` when absent.
    place: Vec<usize>,
}

impl VarHeap {
    fn insert(&mut self, v: usize, activity: &[f64]) {
        if self.place.len() <= v {
            self.place.resize(v + 1, usize::MAX);
        }
        if self.place[v] != usize::MAX {
            return;
        }
        self.place[v] = self.heap.len();
        self.heap.push(v);
        self.up(self.heap.len() - 1, activity);
    }

    fn increased(&mut self, v: usize, activity: &[f64]) {
        if let Some(&at) = self.place.get(v) {
            if at != usize::MAX {
                self.up(at, activity);
            }
        }
    }

    fn pop(&mut self, activity: &[f64]) -> Option<usize> {
        let top = *self.heap.first()?;
        let last = self.heap.pop()?;
        self.place[top] = usize::MAX;
        if !self.heap.is_empty() {
            self.put(0, last);
            self.down(0, activity);
        }
        Some(top)
    }

    fn up(&mut self, mut at: usize, activity: &[f64]) {
        let v = self.heap[at];
        while at > 0 {
            let parent = (at - 1) / 2;
            if activity[self.heap[parent]] >= activity[v] {
                break;
            }
            self.put(at, self.heap[parent]);
            at = parent;
        }
        self.put(at, v);
    }

    /// Puts `v` at `at`, noting its place.
    fn put(&mut self, at: usize, v: usize) {
        self.heap[at] = v;
        self.place[v] = at;
    }

    fn down(&mut self, mut at: usize, activity: &[f64]) {
        let v = self.heap[at];
        loop {
            let left = 2 * at + 1;
            if left >= self.heap.len() {
                break;
            }
            let right = left + 1;
            let child = if right < self.heap.len() && activity[self.heap[right]] > activity[self.heap[left]] {
                right
            } else {
                left
            };
            if activity[self.heap[child]] <= activity[v] {
                break;
            }
            self.put(at, self.heap[child]);
            at = child;
        }
        self.put(at, v);
    }
}

#[cfg(test)]
mod tests {
    use super::{Outcome, Solver, negate, positive};

    /// Pigeons into fewer holes: unsatisfiable, and only by search.
    fn pigeons(pigeons: usize, holes: usize) -> Solver {
        let var = |p: usize, h: usize| p * holes + h;
        let mut solver = Solver::new(pigeons * holes);
        for p in 0..pigeons {
            let some_hole: Vec<u32> = (0..holes).map(|h| positive(var(p, h))).collect();
            solver.add_clause(&some_hole);
        }
        for h in 0..holes {
            for p in 0..pigeons {
                for q in p + 1..pigeons {
                    solver.add_clause(&[negate(positive(var(p, h))), negate(positive(var(q, h)))]);
                }
            }
        }
        solver
    }

    #[test]
    fn pigeons_fit_holes_only_when_there_are_enough() {
        assert_eq!(pigeons(6, 5).solve(u64::MAX), Outcome::Unsatisfiable);
        let mut fits = pigeons(5, 5);
        assert_eq!(fits.solve(u64::MAX), Outcome::Satisfiable);
        // Every pigeon in exactly one hole, no hole shared.
        let mut used = [false; 5];
        for p in 0..5 {
            let holes: Vec<usize> = (0..5).filter(|&h| fits.model_value(p * 5 + h)).collect();
            assert!(!holes.is_empty());
            for h in holes {
                assert!(!used[h], "hole {h} shared");
                used[h] = true;
            }
        }
    }

    #[test]
    fn blocking_each_model_counts_them_all() {
        // Permutations of 4: 24 models of "each pigeon one hole, each hole
        // one pigeon" once every pigeon has at most one hole.
        let mut solver = pigeons(4, 4);
        for p in 0..4 {
            for h in 0..4 {
                for g in h + 1..4 {
                    solver.add_clause(&[negate(positive(p * 4 + h)), negate(positive(p * 4 + g))]);
                }
            }
        }
        let mut models = 0;
        while solver.solve(u64::MAX) == Outcome::Satisfiable {
            models += 1;
            let block: Vec<u32> = (0..16).filter(|&v| solver.model_value(v)).map(|v| negate(positive(v))).collect();
            solver.add_clause(&block);
        }
        assert_eq!(models, 24);
    }

    #[test]
    fn a_spent_budget_is_unknown_and_solving_again_goes_on() {
        let mut solver = pigeons(8, 7);
        assert_eq!(solver.solve(10), Outcome::Unknown);
        let mut outcome = Outcome::Unknown;
        while outcome == Outcome::Unknown {
            outcome = solver.solve(1000);
        }
        assert_eq!(outcome, Outcome::Unsatisfiable);
        assert!(solver.conflicts() > 10);
    }
}
