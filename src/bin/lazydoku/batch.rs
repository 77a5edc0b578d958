//! The batch pipeline: a reader thread, the solving pool, a writer thread.
//!
//! Records travel in chunks from the reader. Each chunk is a task in the
//! pool, answered in blocks, so that no worker waits at the end of a chunk;
//! the writer puts the answers back in input order. A fixed number of
//! messages may be on their way to the writer at once, so reading, solving
//! and writing overlap while memory stays flat whatever the input's length.

use std::collections::{BTreeMap, VecDeque};
use std::io::{self, BufWriter, IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, SyncSender, TryRecvError, channel, sync_channel};
use std::thread;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use lazydoku::format::Parser;

use crate::answer::{
    Order, Origin, Outcome, Problem, Question, Settings, Status, Task, answer, answer_bare_line, answers_bare_lines,
    keeps_layout, stream_all,
};
use crate::input::{Chunk, Mode, Record, Records, Source};

/// Records per chunk: enough to keep every core busy, few enough that
/// memory stays small.
const CHUNK: usize = 16_384;

/// Records answered together into one output string, so that the writer
/// frees one string per block rather than one per record.
const BLOCK: usize = 128;

/// Messages that may be on their way to the writer at once: chunks being
/// answered, or answered and held back for order. With two, the pool starts
/// on the next chunk while the last blocks of one finish; four did no
/// better on two cores and held 37 MB at most against 27 MB (a million
/// 17-clue lines).
const IN_FLIGHT: usize = 2;

/// `all` hands its solutions to the writer in batches of about this many
/// bytes...
pub const STREAM_BYTES: usize = 1 << 16;
/// ...or after this long, whichever comes first.
const STREAM_WAIT: std::time::Duration = std::time::Duration::from_millis(20);
/// Batches a puzzle's lane holds under `all` with several jobs, while the
/// puzzles before it are written...
const LANE_BATCHES: usize = 4;
/// ...and the lanes under way, per job.
const LANES_PER_JOB: usize = 4;

/// Input this large (in bytes) gets a progress bar on a terminal.
const PROGRESS_FROM: u64 = 1 << 20;

/// The most texts [`Distinct`] holds between two values of an array.
const HELD_TEXTS: usize = 1024;

/// `canon --unique`: drops the puzzles whose canonical form was written
/// before. In an array of puzzles, a dropped value takes a comma with it,
/// so that the answers still make an array: the comma before it when a
/// value of the array was written, else the one after it. What lies
/// between two values waits until the second is known to be written.
#[derive(Default)]
struct Distinct {
    /// The canonical forms written so far, each with its rules: equal
    /// digits under other rules are another puzzle.
    seen: std::collections::HashSet<crate::answer::Form>,
    /// The texts of the current array since its last value written.
    held: Vec<Outcome>,
    /// The source of the held texts, and whether its lines end in CRLF.
    origin: (usize, bool),
    /// Whether a value of the current array was written.
    written: bool,
    /// A comma taken from or owed to the texts.
    comma: Comma,
    /// Whether the answers keep the puzzles' layout, arrays included;
    /// otherwise they stand a line each, and only repeats are dropped.
    in_layout: bool,
}

/// A comma that [`Distinct`] has yet to settle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Comma {
    #[default]
    Settled,
    /// A value was dropped before any was written: the next comma goes
    /// with it.
    Owed,
    /// The comma after the last value written, taken out of texts that
    /// went out past [`HELD_TEXTS`]: written before the next value written,
    /// or dropped with the next value dropped.
    Withheld,
}

impl Distinct {
    /// The outcomes of `records` to write now, in order: those of the
    /// puzzles seen before have no output, and the texts held back from
    /// before come first.
    fn filter(&mut self, records: &Chunk, outcomes: Vec<Outcome>, source: usize, crlf: bool) -> Vec<Outcome> {
        self.origin = (source, crlf);
        let mut kept = Vec::with_capacity(outcomes.len() + self.held.len());
        for (record, mut outcome) in records.range(0, records.len()).zip(outcomes) {
            let duplicate = outcome.key.take().is_some_and(|key| !self.seen.insert(*key));
            if duplicate {
                outcome.out = None;
            }
            let piece = record.piece();
            // Punctuation of an array: its text, or an error in it, which
            // the answer mends (a comma, or nothing).
            let punctuation = match record {
                Record::Text { text, .. } if piece.in_array => Some(text.contains(']')),
                Record::Unreadable { .. } if !piece.in_array && piece.mend.is_some() => {
                    Some(piece.mend.is_some_and(|mend| mend.contains(']')))
                }
                _ => None,
            };
            if !self.in_layout || (!piece.in_array && punctuation.is_none()) {
                // Out of any array, or answers a line each.
                kept.append(&mut self.held);
                (self.written, self.comma) = (false, Comma::Settled);
                kept.push(outcome);
                continue;
            }
            match punctuation {
                Some(ends) => {
                    if self.comma == Comma::Owed && take_comma(&mut outcome, |out| out.find(',')) {
                        self.comma = Comma::Settled;
                        if outcome.out.as_deref() == Some("") {
                            outcome.out = None;
                        }
                    }
                    if ends {
                        // The array's end.
                        kept.append(&mut self.held);
                        kept.push(outcome);
                        (self.written, self.comma) = (false, Comma::Settled);
                    } else if self.written && self.held.len() < HELD_TEXTS {
                        self.held.push(outcome);
                    } else {
                        // Memory stays flat: past the bound, what is held
                        // goes out, but for its comma.
                        if let Some(text) = self.held.iter_mut().rev().find(|held| has_comma(held)) {
                            take_comma(text, |out| out.rfind(','));
                            self.comma = Comma::Withheld;
                        }
                        kept.append(&mut self.held);
                        kept.push(outcome);
                    }
                }
                None if duplicate => {
                    // The blanks before a string on its line go with it.
                    let blanks = if self.written { self.held.last_mut() } else { kept.last_mut() };
                    if let Some(blanks) = blanks.filter(|o| o.status.is_none() && o.joined) {
                        if blanks.out.as_deref().is_some_and(|t| !t.is_empty() && t.trim().is_empty()) {
                            blanks.out = None;
                        }
                    }
                    let before = self.held.iter_mut().rev().find(|held| has_comma(held));
                    match before {
                        Some(text) if self.written => {
                            take_comma(text, |out| out.rfind(','));
                            if !outcome.joined {
                                // The value ended its line: the line break stays.
                                text.joined = false;
                            } else if text.out.as_deref() == Some("") {
                                text.out = None;
                            }
                        }
                        _ if self.comma == Comma::Withheld => self.comma = Comma::Settled,
                        _ => self.comma = Comma::Owed,
                    }
                    kept.push(outcome);
                }
                None => {
                    kept.append(&mut self.held);
                    if self.comma == Comma::Withheld {
                        if let Some(out) = outcome.out.as_mut() {
                            out.insert(0, ',');
                        }
                        self.comma = Comma::Settled;
                    }
                    kept.push(outcome);
                    self.written = true;
                }
            }
        }
        kept
    }
}

/// Whether `outcome`'s text holds a comma.
fn has_comma(outcome: &Outcome) -> bool {
    outcome.out.as_deref().is_some_and(|text| text.contains(','))
}

/// Takes the comma that `find` finds out of `outcome`'s text: whether
/// there was one.
fn take_comma(outcome: &mut Outcome, find: impl Fn(&str) -> Option<usize>) -> bool {
    let Some(out) = outcome.out.as_mut() else { return false };
    let Some(at) = find(out) else { return false };
    out.remove(at);
    true
}

/// How a batch went.
#[derive(Debug, Default)]
pub struct Summary {
    pub found: u64,
    pub no_solution: u64,
    pub invalid: u64,
    pub stopped: u64,
}

impl Summary {
    pub fn total(&self) -> u64 {
        self.found + self.no_solution + self.invalid + self.stopped
    }

    pub fn all_found(&self) -> bool {
        self.total() == self.found
    }

    fn count(&mut self, status: Status) {
        match status {
            Status::Found => self.found += 1,
            Status::NoSolution => self.no_solution += 1,
            Status::Invalid => self.invalid += 1,
            Status::Stopped => self.stopped += 1,
        }
    }

    fn add(&mut self, other: &Summary) {
        self.found += other.found;
        self.no_solution += other.no_solution;
        self.invalid += other.invalid;
        self.stopped += other.stopped;
    }
}

enum Message {
    /// `crlf`: whether the source's lines end with CRLF.
    Chunk {
        source: usize,
        records: Chunk,
        bytes: u64,
        crlf: bool,
    },
    Failed(String),
}

/// The answers of consecutive records, joined: their output, line after
/// line, how they went, and what to report on stderr, in order.
#[derive(Default)]
struct Block {
    text: String,
    summary: Summary,
    problems: Vec<Problem>,
}

impl Block {
    fn add(&mut self, outcome: Outcome) {
        if let Some(status) = outcome.status {
            self.summary.count(status);
        }
        if let Some(out) = outcome.out {
            self.text.push_str(&out);
            if !outcome.joined {
                self.text.push('\n');
            }
        }
        self.problems.extend(outcome.problem);
    }
}

enum Solved {
    /// A chunk's answers in blocks. `crlf` here and below: whether the
    /// lines written end with CRLF rather than LF, as the source's do.
    Blocks {
        source: usize,
        blocks: Vec<Block>,
        bytes: u64,
        crlf: bool,
    },
    Chunk {
        source: usize,
        outcomes: Vec<Outcome>,
        bytes: u64,
        crlf: bool,
    },
    /// Solutions that `all` has found so far, to write at once.
    Solutions {
        text: String,
        crlf: bool,
    },
    Failed(String),
}

/// The way to the writer: each message takes a place in the output order
/// and one of a fixed number of permits, which the writer hands back once
/// it has written the message. Workers finish chunks out of order; the
/// writer holds back what comes early.
struct Ordered {
    next: u64,
    permits: Receiver<()>,
    to_write: Sender<(u64, Solved)>,
}

impl Ordered {
    /// The next place in the output, once a permit is free; `None` when the
    /// writer has stopped (stdout was closed).
    fn reserve(&mut self) -> Option<u64> {
        self.permits.recv().ok()?;
        self.next += 1;
        Some(self.next - 1)
    }

    /// Sends `solved` in the next place; `false` when the writer has stopped.
    fn send(&mut self, solved: Solved) -> bool {
        self.reserve().is_some_and(|place| self.to_write.send((place, solved)).is_ok())
    }
}

/// What a puzzle's task under `all` sends down its lane: a batch of
/// solutions, then its outcome.
enum Lane {
    Solutions(String),
    Done(Outcome),
}

/// The lanes' messages ready for the writer under `all`, in order: batches
/// of solutions, written as they are, and puzzles' outcomes.
#[derive(Default)]
struct Ready {
    outcomes: Vec<Outcome>,
    bytes: usize,
}

impl Ready {
    fn add(&mut self, message: Lane) {
        let outcome = match message {
            // Joined: written as it is, with no line ending after it.
            Lane::Solutions(text) => Outcome { out: Some(text), status: None, problem: None, key: None, joined: true },
            Lane::Done(outcome) => outcome,
        };
        self.bytes += outcome.out.as_ref().map_or(0, String::len);
        self.outcomes.push(outcome);
    }

    /// Sends what is ready, if anything; `false` when the writer has stopped.
    fn send(&mut self, ordered: &mut Ordered, source: usize, crlf: bool) -> bool {
        if self.outcomes.is_empty() {
            return true;
        }
        self.bytes = 0;
        let outcomes = std::mem::take(&mut self.outcomes);
        ordered.send(Solved::Chunk { source, outcomes, bytes: 0, crlf })
    }
}

/// When a batch of `all`'s solutions is due: once it holds
/// [`STREAM_BYTES`], or [`STREAM_WAIT`] after the last was (or after the
/// first piece began to wait).
///
/// The clock is read once every so many pieces, as many as come in about a
/// quarter of [`STREAM_WAIT`] at the pace of the last reading (from 1 to
/// [`MOST_UNTIMED`]): at one read a piece, reading it took a twentieth of
/// the time of writing a million solutions, which come far faster than
/// that wait.
pub struct Due {
    since: Instant,
    /// When the clock was last read, the pieces added since, and how many
    /// to add before the next reading.
    read_at: Instant,
    untimed: u32,
    between_readings: u32,
}

/// The most pieces [`Due`] counts without reading the clock.
const MOST_UNTIMED: u32 = 64;

impl Due {
    /// Pieces that have waited since `since`.
    pub fn since(since: Instant) -> Due {
        Due { since, read_at: since, untimed: 0, between_readings: 1 }
    }

    /// One more piece, the batch now `bytes` long: when the batch was
    /// found due, if it is (the next one's wait starts then).
    pub fn piece(&mut self, bytes: usize) -> Option<Instant> {
        self.untimed += 1;
        if bytes < STREAM_BYTES && self.untimed < self.between_readings {
            return None;
        }
        let now = Instant::now();
        let pace = (now - self.read_at) / self.untimed;
        let pieces = (STREAM_WAIT / 4).as_nanos() / pace.as_nanos().max(1);
        self.between_readings = u32::try_from(pieces).unwrap_or(u32::MAX).clamp(1, MOST_UNTIMED);
        (self.read_at, self.untimed) = (now, 0);
        if bytes < STREAM_BYTES && now - self.since < STREAM_WAIT {
            return None;
        }
        self.since = now;
        Some(now)
    }
}

/// Batches of one puzzle's solutions under `all`, each given out once it
/// is [`Due`].
struct Batches {
    batch: String,
    due: Due,
}

impl Batches {
    fn new() -> Batches {
        Batches { batch: String::new(), due: Due::since(Instant::now()) }
    }

    /// Adds `text`; the batch, when it is due.
    fn add(&mut self, text: &str) -> Option<String> {
        self.batch.push_str(text);
        self.due.piece(self.batch.len())?;
        Some(std::mem::take(&mut self.batch))
    }

    /// What is left, if anything.
    fn rest(self) -> Option<String> {
        (!self.batch.is_empty()).then_some(self.batch)
    }
}

/// [`Origin`] with the file's name owned, for the tasks of `all`.
#[derive(Clone)]
struct OwnedOrigin {
    file: Option<String>,
}

impl OwnedOrigin {
    fn borrowed(&self) -> Origin<'_> {
        Origin { file: self.file.as_deref() }
    }
}

pub struct Batch {
    pub settings: Settings,
    pub jobs: usize,
    pub quiet: bool,
    pub mode: Mode,
    /// A line written before the answers (the CSV header of `rate`), with
    /// the line ending of the first source.
    pub header: Option<&'static str>,
}

impl Batch {
    /// Runs every source through the pipeline to stdout. `Err` is an I/O
    /// error, after which nothing more is read.
    pub fn run(&self, sources: Vec<Source>) -> Result<Summary, String> {
        self.run_into(sources, io::stdout())
    }

    /// [`Batch::run`], the answers written to `output`.
    fn run_into<W: Write + Send + 'static>(&self, sources: Vec<Source>, output: W) -> Result<Summary, String> {
        let start = Instant::now();
        let names: Vec<String> = sources.iter().map(|s| s.name().to_owned()).collect();
        let files: Vec<Option<String>> = sources.iter().map(|s| s.file_name().map(str::to_owned)).collect();
        let total: Option<u64> = sources.iter().map(Source::size).sum();
        let progress = self.progress_bar(total);

        let (to_solve, solving) = sync_channel::<Message>(2);
        let (to_write, writing) = channel::<(u64, Solved)>();
        let (give_back, permits) = sync_channel::<()>(IN_FLIGHT);
        for _ in 0..IN_FLIGHT {
            let _ = give_back.send(());
        }
        let (mode, parser) = (self.mode, self.settings.parser);
        let reader = thread::spawn(move || read_all(&sources, mode, parser, &to_solve));
        let header = self.header;
        let writer = thread::spawn(move || write_all(output, &writing, &give_back, header, &names, progress.as_ref()));
        let mut ordered = Ordered { next: 0, permits, to_write };

        let pool = rayon::ThreadPoolBuilder::new().num_threads(self.jobs).build().map_err(|e| e.to_string())?;
        let mut distinct = Distinct { in_layout: keeps_layout(&self.settings), ..Distinct::default() };
        let unique = matches!(self.settings.task, Task::Answer(Question::Canon { unique: true }));
        // Questions answered a block at a time (not `canon --unique`,
        // whose duplicates are dropped here, one record at a time).
        let blocked = match self.settings.task {
            Task::Answer(question) if !unique => Some(question),
            _ => None,
        };
        // Each chunk is a task of its own in the pool, so that workers move
        // on to the next chunk while the last blocks of one are answered:
        // none waits at the end of a chunk.
        pool.in_place_scope_fifo(|scope| {
            for message in solving {
                let sent = match (message, blocked) {
                    (Message::Failed(e), _) => ordered.send(Solved::Failed(e)),
                    (Message::Chunk { source, records, bytes, crlf }, Some(question)) => {
                        let Some(place) = ordered.reserve() else {
                            break; // The writer stopped: stdout was closed.
                        };
                        let origin = Origin { file: files[source].as_deref() };
                        let to_write = ordered.to_write.clone();
                        let settings = &self.settings;
                        let jobs = self.jobs;
                        // Answered and joined in the workers, a block of
                        // records to a string: the writer only moves the bytes.
                        let answer_chunk = move || {
                            let blocks = answer_in_blocks(settings, question, &records, origin, jobs);
                            // A writer gone has stopped the output: nothing to do.
                            let _ = to_write.send((place, Solved::Blocks { source, blocks, bytes, crlf }));
                        };
                        if self.jobs == 1 {
                            answer_chunk();
                        } else {
                            scope.spawn_fifo(move |_| answer_chunk());
                        }
                        true
                    }
                    (Message::Chunk { source, records, bytes, crlf }, None) => {
                        let origin = Origin { file: files[source].as_deref() };
                        // Shared with the tasks of `all`.
                        let records = Arc::new(records);
                        let outcomes = match self.settings.task {
                            Task::All(limit) => {
                                let origin = OwnedOrigin { file: files[source].clone() };
                                match self.stream_all(scope, source, &records, &origin, limit, crlf, &mut ordered) {
                                    Some(()) => Vec::new(),
                                    None => break, // The writer stopped: stdout was closed.
                                }
                            }
                            Task::Answer(question) if self.jobs == 1 => records
                                .range(0, records.len())
                                .map(|r| answer(&self.settings, question, &r, origin))
                                .collect(),
                            Task::Answer(question) => pool.install(|| {
                                (0..records.len())
                                    .into_par_iter()
                                    .map(|i| answer(&self.settings, question, &records.get(i), origin))
                                    .collect()
                            }),
                        };
                        let outcomes =
                            if unique { distinct.filter(&records, outcomes, source, crlf) } else { outcomes };
                        ordered.send(Solved::Chunk { source, outcomes, bytes, crlf })
                    }
                };
                if !sent {
                    break; // The writer stopped: stdout was closed.
                }
            }
            // Text of an array left open at the end of the input.
            let held = std::mem::take(&mut distinct.held);
            if !held.is_empty() {
                let (source, crlf) = distinct.origin;
                ordered.send(Solved::Chunk { source, outcomes: held, bytes: 0, crlf });
            }
        });
        drop(ordered);
        let summary = writer.join().map_err(|_| "the writer thread panicked".to_owned())?;
        // The reader may be blocked on input or on a full channel if the
        // writer stopped early; it ends with the process.
        drop(reader);
        let summary = summary?;
        if !self.quiet {
            print_summary(&summary, start);
        }
        Ok(summary)
    }

    /// `all` over a chunk: solutions go to the writer as they are found,
    /// in batches cut by size and by time ([`Batches`]), so that the first
    /// ones show at once and memory stays flat; then each puzzle's outcome,
    /// before the next puzzle's solutions. `None` when the writer has
    /// stopped.
    ///
    /// With one job, or with a time limit per puzzle, the puzzles are
    /// enumerated here, one at a time; so is a chunk of one puzzle, on
    /// every job's thread ([`stream_all`]'s `threads`). With more jobs, each puzzle is a
    /// task of the pool that streams into a lane of its own, a channel of
    /// [`LANE_BATCHES`] batches, and the lanes are passed on here in input
    /// order: the first puzzle's solutions go out as they come, and at most
    /// [`LANES_PER_JOB`] lanes per job (one, for breadth- and best-first
    /// frontiers) run ahead of it until they are full, so memory stays
    /// flat. The tasks start in input order, so the puzzle whose lane is
    /// read next has always started once a worker is free, and a worker
    /// waits only on a full lane behind it. A chunk of fewer puzzles than
    /// jobs has each searched on its share of the jobs' threads, where
    /// [`crate::answer::all_on_threads`] allows.
    #[expect(clippy::too_many_arguments, reason = "the chunk, where it came from and where it goes")]
    fn stream_all<'scope>(
        &'scope self,
        scope: &rayon::ScopeFifo<'scope>,
        source: usize,
        records: &Arc<Chunk>,
        origin: &OwnedOrigin,
        limit: Option<usize>,
        crlf: bool,
        ordered: &mut Ordered,
    ) -> Option<()> {
        // A puzzle's `--timeout` runs from its start, so a lane that waited
        // on the puzzles before it would run out of time where one job
        // does not: with a time limit, the puzzles go one at a time. A
        // chunk of one puzzle (one given on the command line, say) has it
        // searched on every job's thread, where the search allows.
        if self.jobs == 1 || self.settings.budget.time_limit().is_some() || records.len() == 1 {
            let threads = if records.len() == 1 { self.jobs } else { 1 };
            for record in records.range(0, records.len()) {
                let mut batches = Batches::new();
                let mut open = true;
                let mut emit = |text: &str| {
                    if let Some(full) = batches.add(text) {
                        open = ordered.send(Solved::Solutions { text: full, crlf });
                    }
                    open
                };
                let outcome = stream_all(&self.settings, &record, origin.borrowed(), limit, threads, &mut emit);
                if !open {
                    return None;
                }
                if let Some(rest) = batches.rest() {
                    if !ordered.send(Solved::Solutions { text: rest, crlf }) {
                        return None;
                    }
                }
                if !ordered.send(Solved::Chunk { source, outcomes: vec![outcome], bytes: 0, crlf }) {
                    return None;
                }
            }
            return Some(());
        }
        // Set once the writer has stopped: lanes not yet started skip their
        // puzzle, and running ones stop at their next solution.
        let stopped = Arc::new(AtomicBool::new(false));
        // Fewer puzzles than jobs: each puzzle's tree is spread over its
        // share of them, as a puzzle alone in its chunk is over all, rather
        // than leaving the spare jobs idle.
        let threads_of = |index: usize| {
            let puzzles = records.len();
            if puzzles < self.jobs { self.jobs / puzzles + usize::from(index < self.jobs % puzzles) } else { 1 }
        };
        let lane_of = |index: usize| {
            let threads = threads_of(index);
            let (to_lane, lane) = sync_channel::<Lane>(LANE_BATCHES);
            let (records, origin, stopped) = (Arc::clone(records), origin.clone(), Arc::clone(&stopped));
            let settings = &self.settings;
            scope.spawn_fifo(move |_| {
                if stopped.load(Ordering::Relaxed) {
                    return;
                }
                let mut batches = Batches::new();
                let mut emit = |text: &str| {
                    let sent = batches.add(text).is_none_or(|full| to_lane.send(Lane::Solutions(full)).is_ok());
                    sent && !stopped.load(Ordering::Relaxed)
                };
                let outcome = stream_all(settings, &records.get(index), origin.borrowed(), limit, threads, &mut emit);
                if let Some(rest) = batches.rest() {
                    let _ = to_lane.send(Lane::Solutions(rest));
                }
                let _ = to_lane.send(Lane::Done(outcome));
            });
            lane
        };
        // Puzzles started and not yet written: a lane whose puzzle is done
        // frees its worker for the next, and holds its output until its
        // turn, so the lanes ahead are counted here, not by the workers.
        // A breadth- or best-first frontier may hold `--max-memory` per
        // puzzle: one lane a job keeps the total where other commands keep it.
        let most_lanes = if self.settings.order == Order::Dfs { LANES_PER_JOB * self.jobs } else { self.jobs };
        let mut lanes = VecDeque::with_capacity(most_lanes);
        let mut ready = Ready::default();
        let mut next = 0;
        loop {
            while next < records.len() && lanes.len() < most_lanes {
                lanes.push_back(lane_of(next));
                next += 1;
            }
            let Some(lane) = lanes.pop_front() else { break };
            loop {
                // What the lanes have ready goes to the writer together,
                // one message rather than one per batch and per puzzle;
                // it goes before waiting on a lane, so nothing ready waits
                // on a puzzle still being searched.
                let message = match lane.try_recv() {
                    Ok(message) => message,
                    Err(TryRecvError::Disconnected) => break,
                    Err(TryRecvError::Empty) => {
                        if !ready.send(ordered, source, crlf) {
                            stopped.store(true, Ordering::Relaxed);
                            return None;
                        }
                        match lane.recv() {
                            Ok(message) => message,
                            Err(_) => break,
                        }
                    }
                };
                ready.add(message);
                if ready.bytes >= STREAM_BYTES && !ready.send(ordered, source, crlf) {
                    stopped.store(true, Ordering::Relaxed);
                    return None;
                }
            }
        }
        if !ready.send(ordered, source, crlf) {
            return None;
        }
        Some(())
    }

    fn progress_bar(&self, total: Option<u64>) -> Option<ProgressBar> {
        let total = total.filter(|&t| t >= PROGRESS_FROM)?;
        // On a terminal only; never mixed into output on the same terminal,
        // and never when the output goes down a pipe.
        if self.quiet || !io::stderr().is_terminal() || io::stdout().is_terminal() || stdout_is_pipe() {
            return None;
        }
        let bar = ProgressBar::new(total);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        Some(bar)
    }
}

/// The closing line on stderr: how the batch went and how fast.
fn print_summary(summary: &Summary, start: Instant) {
    let secs = start.elapsed().as_secs_f64();
    #[expect(clippy::cast_precision_loss, reason = "puzzle counts are far below 2^52")]
    let rate = summary.total() as f64 / secs.max(1e-9);
    let stopped = if summary.stopped > 0 { format!(", {} stopped", summary.stopped) } else { String::new() };
    // Nothing to do if stderr is gone too.
    let _ = writeln!(
        io::stderr().lock(),
        "lazydoku: {} found, {} without solution, {} invalid{stopped}; {} {} in {secs:.2} s ({rate:.0} puzzles/s)",
        summary.found,
        summary.no_solution,
        summary.invalid,
        summary.total(),
        if summary.total() == 1 { "puzzle" } else { "puzzles" },
    );
}

/// Whether stdout is a pipe or a socket rather than a file.
fn stdout_is_pipe() -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        std::fs::metadata("/dev/stdout").is_ok_and(|m| m.file_type().is_fifo() || m.file_type().is_socket())
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// The answers of a chunk's records, joined a block at a time. With more
/// than one job this runs on a worker of the pool, whose other workers take
/// blocks from it.
fn answer_in_blocks(
    settings: &Settings,
    question: Question,
    records: &Chunk,
    origin: Origin<'_>,
    jobs: usize,
) -> Vec<Block> {
    let bare_lines = answers_bare_lines(settings, question);
    let block = |start: usize| {
        // Room for answers as long as their records, as a solution's line
        // is: the block's string then grows once at most.
        let room = records.text_len(start, start + BLOCK) + BLOCK;
        let mut block = Block { text: String::with_capacity(room), ..Block::default() };
        for record in records.range(start, start + BLOCK) {
            let quick =
                if bare_lines { answer_bare_line(settings, question, &record, origin, &mut block.text) } else { None };
            block.add(quick.unwrap_or_else(|| answer(settings, question, &record, origin)));
        }
        block
    };
    let starts = (0..records.len()).step_by(BLOCK);
    if jobs == 1 {
        starts.map(block).collect()
    } else {
        starts.collect::<Vec<_>>().into_par_iter().map(block).collect()
    }
}

fn read_all(sources: &[Source], mode: Mode, parser: Parser, to_solve: &SyncSender<Message>) {
    for (index, source) in sources.iter().enumerate() {
        let reader = match source.open() {
            Ok(reader) => reader,
            Err(e) => {
                let _ = to_solve.send(Message::Failed(e));
                return;
            }
        };
        let may_block = source.may_block();
        let mut records = Records::new(reader, mode, parser);
        loop {
            let before = records.bytes;
            let mut chunk = Chunk::with_capacity(if may_block { 64 } else { CHUNK });
            let mut failed = None;
            let mut last = false;
            while chunk.len() < CHUNK {
                match records.read_into(&mut chunk) {
                    Ok(true) => {}
                    Ok(false) => {
                        last = true;
                        break;
                    }
                    Err(e) => {
                        failed = Some(format!("{}: {e}", source.name()));
                        break;
                    }
                }
                // Answers leave before the reader waits for more input.
                if may_block && !records.has_buffered() {
                    break;
                }
            }
            let bytes = records.bytes - before;
            let crlf = records.crlf();
            if !chunk.is_empty()
                && to_solve.send(Message::Chunk { source: index, records: chunk, bytes, crlf }).is_err()
            {
                return;
            }
            if let Some(e) = failed {
                let _ = to_solve.send(Message::Failed(e));
                return;
            }
            if last {
                break;
            }
        }
    }
}

/// Writes what comes from `writing` in the order of its places, handing a
/// permit back for each message written.
fn write_all(
    output: impl Write,
    writing: &Receiver<(u64, Solved)>,
    give_back: &SyncSender<()>,
    header: Option<&str>,
    names: &[String],
    progress: Option<&ProgressBar>,
) -> Result<Summary, String> {
    let mut out = BufWriter::with_capacity(1 << 16, output);
    let mut summary = Summary::default();
    // Messages that came before their turn, by place.
    let mut early: BTreeMap<u64, Solved> = BTreeMap::new();
    let mut next = 0;
    let mut header = header;
    loop {
        let solved = if let Some(solved) = early.remove(&next) {
            solved
        } else {
            // Whatever is written leaves before the writer waits for more.
            let (place, solved) = match writing.try_recv() {
                Ok(message) => message,
                Err(TryRecvError::Disconnected) => break,
                Err(TryRecvError::Empty) => {
                    if !written(out.flush())? {
                        return Ok(summary);
                    }
                    match writing.recv() {
                        Ok(message) => message,
                        Err(_) => break,
                    }
                }
            };
            if place != next {
                early.insert(place, solved);
                continue;
            }
            solved
        };
        next += 1;
        // The permit is free again; the sender may be gone at the end.
        let _ = give_back.try_send(());
        if let Some(line) = header.take() {
            let crlf = match &solved {
                Solved::Blocks { crlf, .. } | Solved::Chunk { crlf, .. } | Solved::Solutions { crlf, .. } => *crlf,
                Solved::Failed(_) => false,
            };
            if !written(write_line(&mut out, line, crlf))? {
                return Ok(summary);
            }
        }
        let (source, outcomes, bytes, crlf) = match solved {
            Solved::Failed(e) => {
                let _ = out.flush();
                return Err(e);
            }
            Solved::Solutions { text, crlf } => {
                if !written(write_lines(&mut out, &text, crlf))? {
                    return Ok(summary);
                }
                continue;
            }
            Solved::Chunk { source, outcomes, bytes, crlf } => (source, outcomes, bytes, crlf),
            Solved::Blocks { source, blocks, bytes, crlf } => {
                for block in blocks {
                    summary.add(&block.summary);
                    if !written(write_lines(&mut out, &block.text, crlf))? {
                        return Ok(summary);
                    }
                    for problem in &block.problems {
                        match progress {
                            Some(bar) => bar.suspend(|| report(&names[source], problem)),
                            None => report(&names[source], problem),
                        }
                    }
                }
                if let Some(bar) = progress {
                    bar.inc(bytes);
                }
                continue;
            }
        };
        for outcome in &outcomes {
            if let Some(status) = outcome.status {
                summary.count(status);
            }
            if let Some(text) = &outcome.out {
                let write = if outcome.joined { write_lines } else { write_line };
                if !written(write(&mut out, text, crlf))? {
                    return Ok(summary);
                }
            }
            if let Some(problem) = &outcome.problem {
                match progress {
                    Some(bar) => bar.suspend(|| report(&names[source], problem)),
                    None => report(&names[source], problem),
                }
            }
        }
        if let Some(bar) = progress {
            bar.inc(bytes);
        }
    }
    if let Some(line) = header {
        // No input: the header alone.
        written(writeln!(out, "{line}"))?;
    }
    written(out.flush())?;
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    Ok(summary)
}

/// Writes `text` as whole lines: [`write_lines`], then the last line's
/// ending.
fn write_line(out: &mut impl Write, text: &str, crlf: bool) -> io::Result<()> {
    write_lines(out, text, crlf)?;
    out.write_all(if crlf { b"\r\n" } else { b"\n" })
}

/// Writes `text`, whose lines end with LF, with CRLF endings instead
/// where `crlf` says so.
fn write_lines(out: &mut impl Write, text: &str, crlf: bool) -> io::Result<()> {
    if !crlf {
        return out.write_all(text.as_bytes());
    }
    let mut lines = text.split('\n');
    if let Some(first) = lines.next() {
        out.write_all(first.as_bytes())?;
    }
    for line in lines {
        out.write_all(b"\r\n")?;
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}

/// Whether a write to stdout went through: `Ok(false)` when the reader of
/// the output is gone (a closed pipe, as under `head`), which ends the
/// output quietly; an error for anything else (a full disk, say).
pub fn written(result: io::Result<()>) -> Result<bool, String> {
    match result {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(format!("cannot write the output: {e}")),
    }
}

/// `lazydoku: FILE:LINE[:COLUMN]: reason` on stderr; nothing if stderr is
/// gone.
fn report(name: &str, problem: &Problem) {
    let mut err = io::stderr().lock();
    let _ = match problem.column {
        Some(column) => writeln!(err, "lazydoku: {name}:{}:{column}: {}", problem.line, problem.reason),
        None => writeln!(err, "lazydoku: {name}:{}: {}", problem.line, problem.reason),
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::Format;
    use lazydoku::search::Budget;
    use std::sync::Mutex;

    /// Output kept in memory, shared with the test once the writer is done.
    #[derive(Clone, Default)]
    struct Kept(Arc<Mutex<Vec<u8>>>);

    impl Write for Kept {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// `all` over `file` on `jobs` threads: the output, and how many
    /// puzzles had solutions.
    fn all_on(jobs: usize, file: &std::path::Path, limit: usize, format: Option<Format>) -> (String, u64) {
        let settings = Settings {
            task: Task::All(Some(limit)),
            order: Order::Dfs,
            max_memory: u64::MAX,
            budget: Budget::UNLIMITED,
            format,
            parser: Parser::new(),
            rules: None,
            quiet: true,
            jobs,
        };
        let batch = Batch { settings, jobs, quiet: true, mode: Mode::Auto, header: None };
        let kept = Kept::default();
        let summary = batch.run_into(vec![Source::File(file.to_str().unwrap().to_owned())], kept.clone()).unwrap();
        let text = String::from_utf8(std::mem::take(&mut *kept.0.lock().unwrap())).unwrap();
        (text, summary.found)
    }

    /// A file of fewer puzzles than jobs has each puzzle searched on its
    /// share of the jobs' threads (more jobs than this machine may have
    /// cores, which the command line would not allow), and the answers are
    /// those of one job.
    #[test]
    fn all_of_fewer_puzzles_than_jobs_writes_what_one_job_writes() {
        let data = include_str!("../../../data/million.txt");
        let million = data.lines().find(|l| !l.starts_with('#')).unwrap();
        let mut sixteen = include_str!("../../../data/hard16.txt").lines().find(|l| !l.starts_with('#')).unwrap();
        sixteen = sixteen.split_whitespace().next().unwrap();
        // Two givens out: 20,252 solutions.
        let mut sixteen = sixteen.as_bytes().to_vec();
        (sixteen[15], sixteen[23]) = (b'.', b'.');
        let sixteen = String::from_utf8(sixteen).unwrap();
        let file = std::env::temp_dir().join(format!("lazydoku_few_puzzles_{}.txt", std::process::id()));
        std::fs::write(&file, format!("{million}\n{sixteen}\n{million}\n")).unwrap();
        for (limit, format) in [(100_000, None), (3_000, Some(Format::Grid)), (500, Some(Format::Json))] {
            let one = all_on(1, &file, limit, format);
            assert_eq!(one.1, 3);
            assert!(one.0.len() > 100 * limit, "{format:?}: {}", one.0.len());
            // Three puzzles on five jobs: two, two and one threads; on
            // seven: three, two and two.
            for jobs in [5, 7] {
                let many = all_on(jobs, &file, limit, format);
                // The first line that differs, not the whole of a long output.
                let differ = one.0.lines().zip(many.0.lines()).position(|(a, b)| a != b);
                assert_eq!((differ, many.0.len(), many.1), (None, one.0.len(), one.1), "{jobs} jobs, {format:?}");
            }
        }
        std::fs::remove_file(&file).unwrap();
    }
}
