//! `lazydoku generate`: puzzles from [`Generator`], streamed in order,
//! made in parallel.

use std::io::Write;

use lazydoku::Board;
use lazydoku::generate::Generator;
use rayon::prelude::*;

use crate::answer::Format;

/// How many puzzles each thread makes between two writes: enough to keep
/// the threads busy, few enough that output comes as it is made.
const PER_THREAD: u64 = 4;

/// Writes `count` puzzles of `generator` (endlessly with `None`) to stdout,
/// in stream order whatever `jobs` is, since a puzzle depends only on the
/// seed and its position in the stream. Also returns once stdout is closed.
pub fn run(generator: &Generator, count: Option<u64>, jobs: usize, format: Format) -> Result<bool, String> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build().map_err(|e| e.to_string())?;
    let stdout = std::io::stdout();
    let chunk = PER_THREAD * u64::try_from(jobs).unwrap_or(1);
    let mut start = 0u64;
    while count.is_none_or(|count| start < count) {
        let end = count.map_or(start + chunk, |count| count.min(start + chunk));
        let puzzles: Vec<Option<Board>> =
            pool.install(|| (start..end).into_par_iter().map(|i| generator.puzzle(i)).collect());
        let mut out = stdout.lock();
        for (index, puzzle) in (start..end).zip(puzzles) {
            let Some(puzzle) = puzzle else {
                return Err("these rules have no solution, so no puzzle".to_owned());
            };
            let text = match format {
                Format::Line => puzzle.as_str().to_owned(),
                Format::Grid => format!("{puzzle:#}"),
                Format::Json => {
                    let clues = puzzle.cells().flatten().count();
                    format!("{{\"index\":{index},\"puzzle\":\"{}\",\"clues\":{clues}}}", puzzle.as_str())
                }
            };
            let written = writeln!(out, "{}", text.trim_end())
                .and_then(|()| if format == Format::Grid { writeln!(out) } else { Ok(()) });
            // A closed pipe (`| head`) is the reader saying it has enough.
            if written.is_err() {
                return Ok(true);
            }
        }
        if out.flush().is_err() {
            return Ok(true);
        }
        start = end;
    }
    Ok(true)
}
