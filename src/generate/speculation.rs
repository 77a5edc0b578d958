//! Removing a puzzle's givens on several threads, with the puzzle that
//! removing them one at a time gives.
//!
//! Each orbit is tried against the givens that the orbits before it left,
//! and each try is a search: near the end of a large puzzle, of up to
//! seconds. So the tries run ahead of the decisions, one on each thread of
//! the pool, each against a guess of the givens the orbits before it will
//! leave, and are decided in order as they finish.
//!
//! Uniqueness is monotone in the givens, which makes a guess safe in one
//! direction. A try that found a second solution holds for any givens
//! within those it tried (fewer givens keep every solution); a try that
//! found none holds for any givens that include them (more givens keep
//! the one solution alone). A try whose answer does not hold for the
//! givens actually left runs again against them. So the puzzle does not
//! depend on the number of threads, nor on which try finished first.
//!
//! The guess follows the last decision. After an orbit stayed, the tries
//! ahead are made against the givens as they are (near the end of a 25x25
//! puzzle nearly every orbit stays); after one went, against the givens
//! less every orbit still undecided (the givens of a killer puzzle nearly
//! all go, each removal a proof of up to a second).
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
        decided: 0,
        begun: 0,
        results: vec![None; orbits.len()],
        running: vec![false; orbits.len()],
        in_flight: 0,
        threads: rayon::current_num_threads().max(1),
        last_removed: true,
    });
    rayon::scope(|scope| {
        let first = lock(&state).advance(orbits);
        for start in first {
            spawn(scope, &state, orbits, removable, start);
        }
    });
    state.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner).kept
}

/// A try to begin: the orbit and the givens to try it against.
struct Start {
    orbit: usize,
    kept: Vec<bool>,
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
            tries.finish(start.orbit, found, start.kept);
            tries.decide(orbits);
            tries.advance(orbits)
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
    /// Orbits before this one are decided.
    decided: usize,
    /// Orbits before this one have had a try begun (the first undecided
    /// one may be running again).
    begun: usize,
    /// Each finished try: whether the orbit could go, and the givens it
    /// was tried against.
    results: Vec<Option<(bool, Vec<bool>)>>,
    running: Vec<bool>,
    in_flight: usize,
    threads: usize,
    /// Whether the last orbit decided went: the guess for the tries ahead.
    last_removed: bool,
}

impl Tries {
    fn finish(&mut self, orbit: usize, removable: bool, tried: Vec<bool>) {
        self.results[orbit] = Some((removable, tried));
        self.running[orbit] = false;
        self.in_flight -= 1;
    }

    /// Whether no more orbits are to be decided.
    fn stopped(&self) -> bool {
        self.decided == self.results.len() || self.floor.is_some_and(|floor| self.clues <= floor)
    }

    /// Decides the orbits in order as far as finished tries allow. A try
    /// whose answer does not hold for the givens left is dropped, to be
    /// run again.
    fn decide(&mut self, orbits: &[Vec<usize>]) {
        while !self.stopped() {
            let Some((removable, tried)) = &self.results[self.decided] else { break };
            let removable = *removable;
            // No second solution with the givens tried holds with more
            // givens; a second solution holds with fewer.
            let holds = if removable { within(tried, &self.kept) } else { within(&self.kept, tried) };
            self.results[self.decided] = None;
            if !holds {
                break;
            }
            if removable {
                for &cell in &orbits[self.decided] {
                    self.kept[cell] = false;
                }
                self.clues -= orbits[self.decided].len();
            }
            self.last_removed = removable;
            self.decided += 1;
        }
    }

    /// The tries to begin now: the first undecided orbit again if its try
    /// was dropped, then new orbits in order, up to one try a thread.
    fn advance(&mut self, orbits: &[Vec<usize>]) -> Vec<Start> {
        let mut starts = Vec::new();
        if self.stopped() {
            return starts;
        }
        let head = self.decided;
        if head < self.begun && self.results[head].is_none() && !self.running[head] {
            starts.push(self.start(orbits, head));
        }
        // Tries further ahead rest on more guesses; without a bound the
        // quick ones (a guess of many givens gone finds a second solution
        // at once) would run through every orbit, leaving the tries to be
        // run again to the first undecided orbit, one at a time.
        let ahead = self.results.len().min(self.decided + 2 * self.threads);
        while self.in_flight < self.threads && self.begun < ahead {
            let orbit = self.begun;
            self.begun += 1;
            starts.push(self.start(orbits, orbit));
        }
        starts
    }

    /// A try of `orbit` against the givens as they are, or, after a
    /// removal, less every orbit before it still undecided. The first
    /// undecided orbit's try is exact either way.
    fn start(&mut self, orbits: &[Vec<usize>], orbit: usize) -> Start {
        self.running[orbit] = true;
        self.in_flight += 1;
        let mut kept = self.kept.clone();
        if self.last_removed {
            for &cell in orbits[self.decided..orbit].iter().flatten() {
                kept[cell] = false;
            }
        }
        Start { orbit, kept }
    }
}

/// Whether every given of `inner` is one of `outer`.
fn within(inner: &[bool], outer: &[bool]) -> bool {
    inner.iter().zip(outer).all(|(&inner, &outer)| !inner || outer)
}
