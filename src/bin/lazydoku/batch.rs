//! The batch pipeline: a reader thread, the solving pool, a writer thread.
//!
//! Records travel in chunks through bounded channels, so reading, solving
//! and writing overlap while memory stays flat whatever the input's length.
//! Each chunk is solved in parallel and written in input order.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::answer::{Outcome, Settings, Status, answer};
use crate::input::{Mode, Record, Records, Source};

/// Records per chunk: enough to keep every core busy, few enough that
/// memory stays small.
const CHUNK: usize = 16_384;

/// Input this large (in bytes) gets a progress bar on a terminal.
const PROGRESS_FROM: u64 = 1 << 20;

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
}

enum Message {
    Chunk { source: usize, records: Vec<Record>, bytes: u64 },
    Failed(String),
}

enum Solved {
    Chunk { source: usize, outcomes: Vec<Outcome>, bytes: u64 },
    Failed(String),
}

pub struct Batch {
    pub settings: Settings,
    pub jobs: usize,
    pub quiet: bool,
    pub mode: Mode,
}

impl Batch {
    /// Runs every source through the pipeline. `Err` is an I/O error, after
    /// which nothing more is read.
    pub fn run(&self, sources: Vec<Source>) -> Result<Summary, String> {
        let start = Instant::now();
        let names: Vec<String> = sources.iter().map(|s| s.name().to_owned()).collect();
        let total: Option<u64> = sources.iter().map(Source::size).sum();
        let progress = self.progress_bar(total);

        let (to_solve, solving) = sync_channel::<Message>(2);
        let (to_write, writing) = sync_channel::<Solved>(2);
        let mode = self.mode;
        let reader = thread::spawn(move || read_all(&sources, mode, &to_solve));
        let writer = thread::spawn(move || write_all(&writing, &names, progress.as_ref()));

        let pool = rayon::ThreadPoolBuilder::new().num_threads(self.jobs).build().map_err(|e| e.to_string())?;
        for message in solving {
            let solved = match message {
                Message::Failed(e) => Solved::Failed(e),
                Message::Chunk { source, records, bytes } => {
                    let outcomes = if self.jobs == 1 {
                        records.iter().map(|r| answer(&self.settings, r)).collect()
                    } else {
                        pool.install(|| records.par_iter().map(|r| answer(&self.settings, r)).collect())
                    };
                    Solved::Chunk { source, outcomes, bytes }
                }
            };
            if to_write.send(solved).is_err() {
                break; // The writer stopped: stdout was closed.
            }
        }
        drop(to_write);
        let summary = writer.join().map_err(|_| "the writer thread panicked".to_owned())?;
        // The reader may be blocked on a full channel if the writer stopped early.
        drop(reader);
        let summary = summary?;
        if !self.quiet {
            let secs = start.elapsed().as_secs_f64();
            #[expect(clippy::cast_precision_loss, reason = "puzzle counts are far below 2^52")]
            let rate = summary.total() as f64 / secs.max(1e-9);
            eprintln!(
                "lazydoku: {} found, {} without solution, {} invalid{}; {} puzzles in {secs:.2} s ({rate:.0} puzzles/s)",
                summary.found,
                summary.no_solution,
                summary.invalid,
                if summary.stopped > 0 { format!(", {} stopped", summary.stopped) } else { String::new() },
                summary.total(),
            );
        }
        Ok(summary)
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

fn read_all(sources: &[Source], mode: Mode, to_solve: &SyncSender<Message>) {
    for (index, source) in sources.iter().enumerate() {
        let reader = match source.open() {
            Ok(reader) => reader,
            Err(e) => {
                let _ = to_solve.send(Message::Failed(e));
                return;
            }
        };
        let mut records = Records::new(reader, mode);
        loop {
            let before = records.bytes;
            let mut chunk = Vec::with_capacity(CHUNK);
            let mut failed = None;
            while chunk.len() < CHUNK {
                match records.next_record() {
                    Ok(Some(record)) => chunk.push(record),
                    Ok(None) => break,
                    Err(e) => {
                        failed = Some(format!("{}: {e}", source.name()));
                        break;
                    }
                }
            }
            let last = chunk.len() < CHUNK;
            let bytes = records.bytes - before;
            if !chunk.is_empty() && to_solve.send(Message::Chunk { source: index, records: chunk, bytes }).is_err() {
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

fn write_all(writing: &Receiver<Solved>, names: &[String], progress: Option<&ProgressBar>) -> Result<Summary, String> {
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut summary = Summary::default();
    let mut failure = None;
    for solved in writing {
        let (source, outcomes, bytes) = match solved {
            Solved::Failed(e) => {
                failure = Some(e);
                break;
            }
            Solved::Chunk { source, outcomes, bytes } => (source, outcomes, bytes),
        };
        for outcome in &outcomes {
            match outcome.status {
                Status::Found => summary.found += 1,
                Status::NoSolution => summary.no_solution += 1,
                Status::Invalid => summary.invalid += 1,
                Status::Stopped => summary.stopped += 1,
            }
            if let Err(e) = writeln!(out, "{}", outcome.out) {
                if e.kind() == io::ErrorKind::BrokenPipe {
                    // The reader of our output is gone: stop quietly.
                    return Ok(summary);
                }
                return Err(format!("cannot write the output: {e}"));
            }
            if let Some((column, reason)) = &outcome.problem {
                match progress {
                    Some(bar) => bar.suspend(|| report(&names[source], outcome.line, *column, reason)),
                    None => report(&names[source], outcome.line, *column, reason),
                }
            }
        }
        if let Some(bar) = progress {
            bar.inc(bytes);
        }
    }
    if let Err(e) = out.flush() {
        if e.kind() != io::ErrorKind::BrokenPipe {
            return Err(format!("cannot write the output: {e}"));
        }
    }
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    failure.map_or(Ok(summary), Err)
}

/// `lazydoku: FILE:LINE[:COLUMN]: reason` on stderr.
fn report(name: &str, line: usize, column: Option<usize>, reason: &str) {
    match column {
        Some(column) => eprintln!("lazydoku: {name}:{line}:{column}: {reason}"),
        None => eprintln!("lazydoku: {name}:{line}: {reason}"),
    }
}
