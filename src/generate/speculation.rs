//! Removing a puzzle's givens on several threads, with the puzzle that
//! removing them one at a time gives.
//!
//! Each orbit is tried against the givens that the orbits before it left.
//! Near the end of a large puzzle almost every try finds a second solution
//! (the orbit stays), and each is a search of up to seconds: the tries are
//! what takes the time, so they run ahead on every thread of the pool,
//! against the givens as they were when each began, and are decided in
//! order as they finish.
//!
//! A try that found a second solution holds whatever was removed after it
//! began, since fewer givens keep every solution they had. A try that found
//! none holds only if nothing was removed in between; otherwise it runs
//! again against the givens of the moment. So the puzzle does not depend on
//! the number of threads or on which try finished first.
//!
//! The coordination runs in the tries themselves: each one, as it finishes,
//! decides what it can and starts the next tries. No thread of the pool
//! waits on the others, which a pool of two threads cannot spare.

use std::sync::Mutex;

/// The side from which a puzzle's removals are tried several at a time:
/// below it a try takes microseconds, and the puzzles of a stream, made in
/// parallel themselves, keep the threads busy.
pub(super) const SIDE: usize = 16;

/// The givens of `kept` less every orbit of `orbits`, in order, that
/// `removable` allows (`removable(kept, orbit)`: whether the givens `kept`
/// can lose `orbit` and keep one solution), stopping once at most `floor`
/// of the `clues` givens are left: what trying the orbits one at a time
/// gives, with one try running on each thread of the current rayon pool.
pub(super) fn remove(
    orbits: &[Vec<usize>],
    kept: Vec<bool>,
    clues: usize,
    floor: Option<usize>,
    removable: &(impl Fn(&[bool], &[usize]) -> bool + Sync),
) -> Vec<bool> {
    let state = Mutex::new(Tries {
        kept,
        clues,
        floor,
        removals: 0,
        decided: 0,
        begun: 0,
        results: vec![None; orbits.len()],
        running: vec![false; orbits.len()],
        in_flight: 0,
        threads: rayon::current_num_threads().max(1),
        last_removed: true,
    });
    rayon::scope(|scope| {
        let first = lock(&state).advance();
        for start in first {
            spawn(scope, &state, orbits, removable, start);
        }
    });
    state.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner).kept
}

/// A try to begin: the orbit, the givens to try it against, and how many
/// removals had been made when they were taken.
struct Start {
    orbit: usize,
    kept: Vec<bool>,
    removals: u64,
}

/// Runs the try `start`, records it, and begins the tries it makes room for.
fn spawn<'scope, F>(
    scope: &rayon::Scope<'scope>,
    state: &'scope Mutex<Tries>,
    orbits: &'scope [Vec<usize>],
    removable: &'scope F,
    start: Start,
) where
    F: Fn(&[bool], &[usize]) -> bool + Sync,
{
    scope.spawn(move |scope| {
        let found = removable(&start.kept, &orbits[start.orbit]);
        let next = {
            let mut tries = lock(state);
            tries.finish(start.orbit, found, start.removals);
            tries.decide(orbits);
            tries.advance()
        };
        for start in next {
            spawn(scope, state, orbits, removable, start);
        }
    });
}

/// The shared state, even after a try panicked elsewhere: every field is
/// left consistent between two statements.
fn lock(state: &Mutex<Tries>) -> std::sync::MutexGuard<'_, Tries> {
    state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Where the tries of one puzzle stand.
struct Tries {
    /// The givens after the orbits decided so far.
    kept: Vec<bool>,
    clues: usize,
    floor: Option<usize>,
    /// Orbits removed so far: a try began with this many is still exact.
    removals: u64,
    /// Orbits before this one are decided.
    decided: usize,
    /// Orbits before this one have had a try begun (the first undecided
    /// one may be running again).
    begun: usize,
    /// Each finished try: whether the orbit could go, and the removals when
    /// the try began.
    results: Vec<Option<(bool, u64)>>,
    running: Vec<bool>,
    in_flight: usize,
    threads: usize,
    /// Whether the last orbit decided was removed. Tries run ahead only
    /// after one stayed: while orbits go, each removal voids the tries
    /// begun before it that found no second solution, which is then most
    /// of them (the givens of a killer puzzle nearly all go, each try a
    /// proof of up to a second), and running them would take the threads
    /// from other puzzles of the stream.
    last_removed: bool,
}

impl Tries {
    fn finish(&mut self, orbit: usize, removable: bool, removals: u64) {
        self.results[orbit] = Some((removable, removals));
        self.running[orbit] = false;
        self.in_flight -= 1;
    }

    /// Whether no more orbits are to be decided.
    fn stopped(&self) -> bool {
        self.decided == self.results.len() || self.floor.is_some_and(|floor| self.clues <= floor)
    }

    /// Decides the orbits in order as far as finished tries allow. A try
    /// that allowed a removal but began before the last removal is dropped,
    /// to be run again.
    fn decide(&mut self, orbits: &[Vec<usize>]) {
        while !self.stopped() {
            let Some((removable, removals)) = self.results[self.decided] else { break };
            if removable && removals != self.removals {
                self.results[self.decided] = None;
                break;
            }
            if removable {
                for &cell in &orbits[self.decided] {
                    self.kept[cell] = false;
                }
                self.clues -= orbits[self.decided].len();
                self.removals += 1;
            }
            self.last_removed = removable;
            self.decided += 1;
        }
    }

    /// The tries to begin now: the first undecided orbit again if its try
    /// was dropped, then new orbits in order, up to one try a thread (one
    /// in all just after a removal).
    fn advance(&mut self) -> Vec<Start> {
        let mut starts = Vec::new();
        if self.stopped() {
            return starts;
        }
        let head = self.decided;
        if head < self.begun && self.results[head].is_none() && !self.running[head] {
            starts.push(self.start(head));
        }
        let most = if self.last_removed { 1 } else { self.threads };
        while self.in_flight < most && self.begun < self.results.len() {
            let orbit = self.begun;
            self.begun += 1;
            starts.push(self.start(orbit));
        }
        starts
    }

    fn start(&mut self, orbit: usize) -> Start {
        self.running[orbit] = true;
        self.in_flight += 1;
        Start { orbit, kept: self.kept.clone(), removals: self.removals }
    }
}
