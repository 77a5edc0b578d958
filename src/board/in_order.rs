//! [`BatchesInOrder`]: the solutions of [`Board::solutions`], in the same
//! order, found on several threads and handed over in batches that the
//! threads build.
//!
//! A worker thread walks a subtree depth-first, as `solutions()` does, and
//! streams its solutions, a batch at a time, into a channel of its own,
//! which the iterator reads. When another worker has nothing to do, the
//! walking one gives it the next unvisited child of the board above the
//! one it is at (or of that one, when it has no board above; or of a board
//! higher up, where the lower ones have fewer than [`GIVEN_FROM_EMPTY`]
//! empty cells). That child's
//! subtree comes, in the order of the solutions, right after the subtree
//! the walker is in, so the walker puts a mark into its channel at that
//! point ([`Message::Then`]): the reader reads the other worker's channel
//! to its end there before going on. The reader thus reads a tree of
//! channels depth-first, and the solutions come in their order.
//!
//! Memory stays bounded: each channel holds at most
//! [`BATCHES_PER_CHANNEL`] batches before its worker waits, and a walker
//! gives nothing away while [`GIVEN_PER_THREAD`] subtrees per thread are
//! given and not yet read to their end, nor while [`BUFFERED_PER_THREAD`]
//! batches per thread are sent and not yet read.
//!
//! A worker whose channel is full, while the reader reads another, walks
//! meanwhile a waiting subtree whose solutions come before the place its
//! walk has reached (each subtree knows where its root is in the tree,
//! [`Path`]), and waits only when there is none. It never takes one that
//! comes after: it could then wait on that one while the reader waited on
//! what the worker has yet to send (a try that did so hung). The subtrees
//! a worker gives away come after its place until their marks are sent.
//! A worker nests at most [`MOST_NESTED`] such walks, a bound on its
//! stack.
//!
//! Nothing waits for ever. The worker of the channel the reader reads only
//! ever waits on that channel; the others wait on channels read later,
//! each the one it walks last, which comes first among its own. And the
//! reader does not wait long on a subtree that no worker has taken (the
//! workers may all be waiting on channels read after it): it walks such a
//! subtree itself.
//!
//! Boards go from thread to thread only as the roots of given subtrees:
//! the solutions stay where they are found, and the batches carry what the
//! caller builds from them. Handed over one by one, the boards cost the
//! reader about half as much as finding them on 9x9 (docs/performance.md).

use std::collections::VecDeque;
use std::fmt;
use std::iter::FusedIterator;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::Duration;

use super::learning::comes_thick;
use super::{Board, Children, Solutions};

/// Batches in the channels, sent and not yet read, past which no more
/// subtrees are given away, per thread. Counted in solutions (4,096 a
/// thread), the bound stopped the gifts in a 16x16 search whose solutions
/// filled 255 to a batch: a thread's full channel behind the one read
/// held half of it, and the other thread waited for work 700 to 900 times
/// in a search of 0.7 s (docs/performance.md).
const BUFFERED_PER_THREAD: usize = 64;
/// Subtrees given away and not yet read to their end, per thread.
const GIVEN_PER_THREAD: usize = 8;
/// Batches a channel holds before its worker waits.
const BATCHES_PER_CHANNEL: usize = 16;
/// How long the reader waits on a given subtree that no worker has taken
/// before it walks the subtree itself.
const WAIT: Duration = Duration::from_millis(2);
/// How long a worker whose channel is full, and not read now, waits for a
/// subtree it may take before it tries its channel again.
const FULL_WAIT: Duration = Duration::from_millis(1);
/// The most walks a worker nests, each taken while the one around it
/// waits on a full channel: a bound on its stack. The test with eight
/// threads and batches of one solution nested eight deep.
const MOST_NESTED: usize = 16;
/// Boards with at most this many empty cells have their solutions found by
/// [`Board::solutions`] alone, with nothing given away from inside: its
/// walk near the leaves is faster than one that can stop to give.
const WALKED_WHOLE: usize = 20;
/// Only boards with at least this many empty cells (or the root) give a
/// child away: a 9x9 subtree given from lower down held too few solutions
/// to be worth a channel and a thread woken. `data/million.txt`'s puzzle
/// on two threads came 0.91 to 1.08 times as fast as one loop giving from
/// any level, 1.16 to 1.38 from 40 empty cells, 0.95 to 1.11 from 50 and
/// 0.88 to 0.96 from 60, where subtrees grow too few
/// (docs/performance.md).
const GIVEN_FROM_EMPTY: usize = 40;

/// What a worker sends down a channel.
enum Message<B> {
    /// A batch, and how many solutions it holds.
    Batch(B, usize),
    /// Read this subtree to its end here, then go on with this channel.
    Then(Gift<B>),
    /// The subtree is searched: a channel closed without it means that its
    /// worker panicked.
    Done,
}

/// The root of a given subtree, until a worker (or the reader) takes it.
type Root = Arc<Mutex<Option<Board>>>;

/// Where a subtree's root is in the tree: the index of the child taken at
/// each level from the top. The solutions come in the order of these
/// paths, a subtree's own after those of the subtrees before it and of the
/// boards above it.
type Path = Vec<u32>;

/// A subtree given away, as the reader sees it.
struct Gift<B> {
    root: Root,
    batches: Receiver<Message<B>>,
    /// Which subtree it is, for [`Shared::front`].
    id: u64,
}

/// A subtree waiting for a worker, and where its batches go.
struct Job<B> {
    root: Root,
    to_reader: SyncSender<Message<B>>,
    id: u64,
    path: Path,
}

/// What the workers and the reader share.
struct Shared<B, F> {
    /// Adds a solution to a batch; `true` when the batch is full.
    add: F,
    jobs: Mutex<VecDeque<Job<B>>>,
    /// Signalled when a job comes or the search stops.
    job_came: Condvar,
    /// Workers waiting for a job.
    idle: AtomicUsize,
    /// Jobs in the queue whose root no one has taken.
    queued: AtomicUsize,
    /// Subtrees given away and not yet read to their end.
    given: AtomicUsize,
    most_given: usize,
    /// Batches sent and not yet read.
    buffered: AtomicUsize,
    most_buffered: usize,
    stopped: AtomicBool,
    /// The subtree whose channel the reader reads now.
    front: AtomicU64,
    /// The next subtree's id.
    next_id: AtomicU64,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A poisoned lock means a worker panicked; the reader says so when the
    // worker's channel closes without its end.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<B, F> Shared<B, F> {
    /// Whether a walker should give a subtree away now.
    fn wants_gift(&self) -> bool {
        self.idle.load(Ordering::Relaxed) > self.queued.load(Ordering::Relaxed)
            && self.given.load(Ordering::Relaxed) < self.most_given
            && self.buffered.load(Ordering::Relaxed) < self.most_buffered
    }

    /// Queues `root`, at `path`, for a worker; returns what the reader
    /// reads of it.
    fn give(&self, root: Board, path: Path) -> Gift<B> {
        let root = Arc::new(Mutex::new(Some(root)));
        let (to_reader, batches) = sync_channel(BATCHES_PER_CHANNEL);
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        self.given.fetch_add(1, Ordering::Relaxed);
        self.queued.fetch_add(1, Ordering::Relaxed);
        lock(&self.jobs).push_back(Job { root: Arc::clone(&root), to_reader, id, path });
        // All: a worker whose channel is full may not take this one.
        self.job_came.notify_all();
        Gift { root, batches, id }
    }

    /// The queued subtree nearest the reader that comes before `place`,
    /// with its root, for a worker whose walk is at `place` and whose
    /// channel is full: its solutions are read before what the worker has
    /// yet to send, so the worker will not wait on it behind its own.
    fn take_before(&self, place: &[u32]) -> Option<(Job<B>, Board)> {
        let mut jobs = lock(&self.jobs);
        loop {
            let at = (0..jobs.len())
                .filter(|&i| jobs[i].path.as_slice() < place)
                .min_by(|&i, &k| jobs[i].path.cmp(&jobs[k].path))?;
            let job = jobs.remove(at)?;
            // The reader may have taken the root to walk it itself.
            let root = lock(&job.root).take();
            if let Some(root) = root {
                self.queued.fetch_sub(1, Ordering::Relaxed);
                return Some((job, root));
            }
        }
    }

    fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
        let _jobs = lock(&self.jobs);
        self.job_came.notify_all();
    }
}

/// The solutions of a board in the order of [`Board::solutions`], found on
/// several threads, in batches that the threads build. Built by
/// [`Board::par_solutions_in_order`].
///
/// Dropping it stops the threads: each ends once it has found its next
/// solution, or searched the board it is at.
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct BatchesInOrder<B, F> {
    threads: usize,
    /// Worker threads started.
    workers: usize,
    /// The board, until the first call of `next`.
    root: Option<Board>,
    shared: Arc<Shared<B, F>>,
    /// The channels being read, the one read now last.
    reading: Vec<Gift<B>>,
    /// A subtree that no worker took, walked here: it stands for the
    /// channel read now.
    here: Option<Solutions>,
}

impl<B, F> fmt::Debug for BatchesInOrder<B, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BatchesInOrder")
            .field("threads", &self.threads)
            .field("workers", &self.workers)
            .field("reading", &self.reading.len())
            .finish_non_exhaustive()
    }
}

impl<B, F> BatchesInOrder<B, F>
where
    B: Default + Send + 'static,
    F: Fn(&mut B, Board) -> bool + Send + Sync + 'static,
{
    pub(super) fn new(board: &Board, threads: usize, add: F) -> BatchesInOrder<B, F> {
        let threads = threads.max(1);
        BatchesInOrder {
            threads,
            workers: 0,
            root: Some(board.clone()),
            shared: Arc::new(Shared {
                add,
                jobs: Mutex::new(VecDeque::new()),
                job_came: Condvar::new(),
                idle: AtomicUsize::new(0),
                queued: AtomicUsize::new(0),
                given: AtomicUsize::new(0),
                most_given: GIVEN_PER_THREAD * threads,
                buffered: AtomicUsize::new(0),
                most_buffered: BUFFERED_PER_THREAD * threads,
                stopped: AtomicBool::new(false),
                front: AtomicU64::new(0),
                next_id: AtomicU64::new(0),
            }),
            reading: Vec::new(),
            here: None,
        }
    }

    /// Starts the workers, the first with the whole tree. On one thread,
    /// or where the tree's solutions come sparse ([`comes_thick`]), the
    /// calling one walks the tree, with nothing handed over (a worker and
    /// a reader cost 5 to 25% more).
    fn start(&mut self, root: Board) {
        let spread = self.threads > 1 && comes_thick(&root);
        let gift = self.shared.give(root, Vec::new());
        // The root counts as no gift: no mark is read before it.
        self.shared.given.fetch_sub(1, Ordering::Relaxed);
        self.reading.push(gift);
        if !spread {
            return;
        }
        for _ in 0..self.threads {
            let shared = Arc::clone(&self.shared);
            // A thread that cannot be had leaves its work to the others, or
            // to the reader.
            let spawned = thread::Builder::new().name("lazydoku-solutions".into()).spawn(move || work(&shared));
            self.workers += usize::from(spawned.is_ok());
        }
    }

    /// The channel read now is at its end: back to the one it was read
    /// from.
    fn finished(&mut self) {
        self.reading.pop();
        if !self.reading.is_empty() {
            self.shared.given.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// The next batch of the subtree walked here; at its end, the channel
    /// it stands for is finished.
    fn next_here(&mut self) -> Option<(B, usize)> {
        let here = self.here.as_mut()?;
        let mut batch = B::default();
        let mut count = 0;
        for solution in here.by_ref() {
            count += 1;
            if (self.shared.add)(&mut batch, solution) {
                return Some((batch, count));
            }
        }
        self.here = None;
        self.finished();
        (count > 0).then_some((batch, count))
    }
}
impl<B, F> Iterator for BatchesInOrder<B, F>
where
    B: Default + Send + 'static,
    F: Fn(&mut B, Board) -> bool + Send + Sync + 'static,
{
    /// A batch, and how many solutions it holds (one or more).
    type Item = (B, usize);

    fn next(&mut self) -> Option<(B, usize)> {
        if let Some(root) = self.root.take() {
            self.start(root);
        }
        let mut waited = false;
        loop {
            if self.here.is_some() {
                match self.next_here() {
                    Some(batch) => return Some(batch),
                    None => continue,
                }
            }
            let is_root = self.reading.len() == 1;
            let Some(gift) = self.reading.last() else {
                self.shared.stop();
                return None;
            };
            self.shared.front.store(gift.id, Ordering::Relaxed);
            // The root is the first job, taken by the first worker free.
            let may_walk =
                if is_root { self.workers == 0 } else { waited || self.shared.idle.load(Ordering::Relaxed) == 0 };
            let untaken = if may_walk { lock(&gift.root).take() } else { None };
            if let Some(root) = untaken {
                self.shared.queued.fetch_sub(1, Ordering::Relaxed);
                // The root walked here, with no worker started: the walk of
                // `solutions()`, clause learning and all.
                self.here = Some(if is_root { Solutions::new(root) } else { Solutions::walk_alone(root) });
                continue;
            }
            let message = match gift.batches.recv_timeout(WAIT) {
                Ok(message) => message,
                Err(RecvTimeoutError::Timeout) => {
                    waited = true;
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => panic!("a thread searching solutions in order panicked"),
            };
            waited = false;
            match message {
                Message::Batch(batch, count) => {
                    self.shared.buffered.fetch_sub(1, Ordering::Relaxed);
                    return Some((batch, count));
                }
                Message::Then(inner) => self.reading.push(inner),
                Message::Done => self.finished(),
            }
        }
    }
}

impl<B, F> FusedIterator for BatchesInOrder<B, F>
where
    B: Default + Send + 'static,
    F: Fn(&mut B, Board) -> bool + Send + Sync + 'static,
{
}

impl<B, F> Drop for BatchesInOrder<B, F> {
    fn drop(&mut self) {
        self.shared.stop();
    }
}

/// A worker's loop: the next job, until the search stops.
fn work<B, F>(shared: &Shared<B, F>)
where
    B: Default,
    F: Fn(&mut B, Board) -> bool,
{
    loop {
        let job = {
            let mut jobs = lock(&shared.jobs);
            loop {
                if shared.stopped.load(Ordering::Relaxed) {
                    return;
                }
                if let Some(job) = jobs.pop_front() {
                    break job;
                }
                shared.idle.fetch_add(1, Ordering::Relaxed);
                jobs = shared.job_came.wait(jobs).unwrap_or_else(PoisonError::into_inner);
                shared.idle.fetch_sub(1, Ordering::Relaxed);
            }
        };
        // The reader may have taken the root to walk it itself.
        let root = lock(&job.root).take();
        let Some(root) = root else { continue };
        shared.queued.fetch_sub(1, Ordering::Relaxed);
        if walk_job(shared, job, root, 0).is_none() {
            // The reader has gone: nothing more is wanted.
            return;
        }
    }
}

/// Walks a subtree taken from the queue, to the end of its channel;
/// `nested` in how many walks of the same thread.
fn walk_job<B, F>(shared: &Shared<B, F>, job: Job<B>, root: Board, nested: usize) -> Option<()>
where
    B: Default,
    F: Fn(&mut B, Board) -> bool,
{
    let mut out = Out {
        shared,
        to_reader: job.to_reader,
        batch: B::default(),
        count: 0,
        id: job.id,
        path: job.path,
        position: Vec::new(),
        nested,
    };
    walk(root, &mut out)?;
    out.send(Message::Done)
}

/// A worker's channel, with the batch it is filling.
struct Out<'a, B, F> {
    shared: &'a Shared<B, F>,
    to_reader: SyncSender<Message<B>>,
    batch: B,
    count: usize,
    /// The subtree walked, and where its root is.
    id: u64,
    path: Path,
    /// Where the walk is below the root: the index of the child visited
    /// at each level of its stack.
    position: Path,
    /// In how many walks of the same thread this one is nested.
    nested: usize,
}

impl<B, F> Out<'_, B, F>
where
    B: Default,
    F: Fn(&mut B, Board) -> bool,
{
    fn push(&mut self, solution: Board) -> Option<()> {
        self.count += 1;
        if (self.shared.add)(&mut self.batch, solution) {
            self.flush()?;
        }
        Some(())
    }

    fn flush(&mut self) -> Option<()> {
        if self.count > 0 {
            let batch = std::mem::take(&mut self.batch);
            let count = std::mem::take(&mut self.count);
            self.shared.buffered.fetch_add(1, Ordering::Relaxed);
            self.deliver(Message::Batch(batch, count))?;
        }
        Some(())
    }

    /// Sends `message` after the solutions before it.
    fn send(&mut self, message: Message<B>) -> Option<()> {
        self.flush()?;
        self.deliver(message)
    }

    /// Puts `message` into the channel. While the channel is full and the
    /// reader reads another, the thread walks subtrees whose solutions are
    /// read before the walk's place, rather than wait: a thread whose
    /// subtree came late filled its channel at once and waited there for
    /// most of the search, while one other thread did all the work. It
    /// takes none read after that place (where its own subtrees given and
    /// not yet marked in the channel all are), which could leave it
    /// waiting there while the reader waits on what it has yet to send.
    fn deliver(&mut self, message: Message<B>) -> Option<()> {
        let mut message = message;
        loop {
            match self.to_reader.try_send(message) {
                Ok(()) => return Some(()),
                Err(TrySendError::Disconnected(_)) => return None,
                Err(TrySendError::Full(back)) => message = back,
            }
            let shared = self.shared;
            if shared.stopped.load(Ordering::Relaxed) {
                return None;
            }
            // Read now: the reader empties it.
            if shared.front.load(Ordering::Relaxed) == self.id {
                return self.to_reader.send(message).ok();
            }
            let may_take = self.nested < MOST_NESTED;
            if may_take {
                let place: Path = self.path.iter().chain(&self.position).copied().collect();
                if let Some((job, root)) = shared.take_before(&place) {
                    walk_job(shared, job, root, self.nested + 1)?;
                    continue;
                }
            }
            // Idle meanwhile, if it may take a subtree, so that walkers
            // give some away.
            let jobs = lock(&shared.jobs);
            let idle = usize::from(may_take);
            shared.idle.fetch_add(idle, Ordering::Relaxed);
            drop(shared.job_came.wait_timeout(jobs, FULL_WAIT).unwrap_or_else(PoisonError::into_inner));
            shared.idle.fetch_sub(idle, Ordering::Relaxed);
        }
    }
}

/// A board branched by a walker: its children still to visit, and the
/// subtrees given away from among them, to be read after the child
/// visited now.
struct Branched<B> {
    children: Children,
    given: Vec<Gift<B>>,
    /// Children taken so far, visited or given.
    taken: u32,
    /// The board's empty cells.
    empty: usize,
}

impl<B> Branched<B> {
    fn next(&mut self) -> Option<(u32, Board)> {
        let child = self.children.next()?;
        self.taken += 1;
        Some((self.taken - 1, child))
    }
}

/// Sends the solutions of `root` down `out`, in the order of
/// [`Board::solutions`], giving subtrees away when workers are idle.
/// `None` once the reader has gone or the search has stopped.
fn walk<B, F>(root: Board, out: &mut Out<'_, B, F>) -> Option<()>
where
    B: Default,
    F: Fn(&mut B, Board) -> bool,
{
    let shared = out.shared;
    let mut stack = Vec::new();
    visit(root, &mut stack, out)?;
    while !stack.is_empty() {
        if shared.stopped.load(Ordering::Relaxed) {
            return None;
        }
        if shared.wants_gift() {
            give(&mut stack, out)?;
        }
        let Some(top) = stack.last_mut() else { break };
        if let Some((index, child)) = top.next() {
            if let Some(visiting) = out.position.last_mut() {
                *visiting = index;
            }
            visit(child, &mut stack, out)?;
            continue;
        }
        stack.pop();
        out.position.pop();
        // The child visited at the level above is done: what was given
        // from that level comes next.
        if let Some(parent) = stack.last_mut() {
            for gift in std::mem::take(&mut parent.given) {
                out.send(Message::Then(gift))?;
            }
        }
    }
    Some(())
}

/// Visits `board`: a solution is sent, a board with few empty cells is
/// walked whole, and any other is branched.
fn visit<B, F>(board: Board, stack: &mut Vec<Branched<B>>, out: &mut Out<'_, B, F>) -> Option<()>
where
    B: Default,
    F: Fn(&mut B, Board) -> bool,
{
    if board.is_complete() {
        out.push(board)
    } else if board.empty_cells() <= WALKED_WHOLE {
        // `for_each` is the walk's own loop (`try_for_each` would go
        // through `next`); the subtree is small, so once the reader has gone
        // the rest is walked without being sent.
        let mut sent = Some(());
        Solutions::walk_alone(board).for_each(|solution| {
            if sent.is_some() {
                sent = out.push(solution);
            }
        });
        sent
    } else {
        let empty = board.empty_cells();
        stack.push(Branched { children: board.children(), given: Vec::new(), taken: 0, empty });
        out.position.push(0);
        Some(())
    }
}

/// Gives away the next child of the board above the deepest one on
/// `stack`, or of the deepest, or of the nearest board above that has one
/// left and [`GIVEN_FROM_EMPTY`] empty cells: the child visited next after
/// the subtree the walker is in, at the lowest level where that subtree is
/// worth a thread.
fn give<B, F>(stack: &mut [Branched<B>], out: &mut Out<'_, B, F>) -> Option<()>
where
    B: Default,
    F: Fn(&mut B, Board) -> bool,
{
    let deepest = stack.len() - 1;
    for level in (0..=deepest.saturating_sub(1)).rev() {
        if level > 0 && stack[level].empty < GIVEN_FROM_EMPTY {
            continue;
        }
        if let Some((index, child)) = stack[level].next() {
            let path = out.path.iter().chain(&out.position[..level]).copied().chain([index]);
            let gift = out.shared.give(child, path.collect());
            if level == deepest {
                // No child of the deepest board is being visited: the gift
                // comes now.
                out.send(Message::Then(gift))?;
            } else {
                stack[level].given.push(gift);
            }
            return Some(());
        }
    }
    Some(())
}
