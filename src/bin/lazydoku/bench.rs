//! `lazydoku bench`: the speed table of the comparison harness, for
//! lazydoku alone, on any dataset.

use std::io::{self, Write};
use std::time::Instant;

use lazydoku::Board;
use lazydoku::format::Parser;

use crate::input::{Mode, Record, Records, Source};

/// Prints, for each file: puzzles, microseconds per puzzle to find a
/// solution and prove it unique (count to 2, best of `rounds`), solutions
/// found, guesses per puzzle, and the share solved without a guess.
pub fn run(files: &[String], rounds: usize) -> Result<bool, String> {
    // Every file is checked before any time is spent.
    for file in files {
        match std::fs::metadata(file) {
            Ok(meta) if meta.is_dir() => return Err(format!("{file}: is a directory; give the files in it")),
            Ok(_) => {}
            Err(e) => return Err(format!("{file}: {e}")),
        }
    }
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let header = format!(
        "{:<40} {:>8} {:>10} {:>9} {:>10} {:>9}",
        "dataset", "puzzles", "µs/puzzle", "unique", "guesses", "no guess"
    );
    if !write_line(&mut out, &header)? {
        return Ok(true);
    }
    let mut all_read = true;
    for file in files {
        let source = Source::File(file.clone());
        let mut records = Records::new(source.open()?, Mode::Line, Parser::new());
        let mut boards = Vec::new();
        while let Some(record) = records.next_record().map_err(|e| format!("{file}: {e}"))? {
            match &record {
                Record::Puzzle { text, .. } => match text.parse::<Board>() {
                    Ok(board) => boards.push(board),
                    Err(e) => {
                        all_read = false;
                        let _ = writeln!(io::stderr(), "lazydoku: {file}:{}: {e}", record.line());
                    }
                },
                Record::Unreadable { line, reason, .. } => {
                    all_read = false;
                    let _ = writeln!(io::stderr(), "lazydoku: {file}:{line}: {reason}");
                }
                Record::Text { .. } => {}
            }
        }
        let mut best = f64::INFINITY;
        let mut unique = 0;
        for _ in 0..rounds.max(1) {
            let start = Instant::now();
            unique = boards.iter().filter(|b| b.count_solutions(2) == 1).count();
            best = best.min(start.elapsed().as_secs_f64());
        }
        let guesses: Vec<usize> = boards.iter().map(|board| lazydoku::explain::guesses(board).0).collect();
        #[expect(clippy::cast_precision_loss, reason = "counts far below 2^52")]
        let (n, total_guesses) = (boards.len().max(1) as f64, guesses.iter().sum::<usize>() as f64);
        #[expect(clippy::cast_precision_loss, reason = "counts far below 2^52")]
        let no_guess = guesses.iter().filter(|&&g| g == 0).count() as f64 / n * 100.0;
        let row = format!(
            "{:<40} {:>8} {:>10.2} {:>9} {:>10.1} {:>8.1}%",
            file,
            boards.len(),
            best * 1e6 / n,
            unique,
            total_guesses / n,
            no_guess
        );
        if !write_line(&mut out, &row)? {
            break;
        }
    }
    Ok(all_read)
}

/// Writes one line at once; `Ok(false)` when the reader of the output is
/// gone, an error when the output cannot be written.
fn write_line(out: &mut impl Write, line: &str) -> Result<bool, String> {
    crate::batch::written(writeln!(out, "{line}").and_then(|()| out.flush()))
}
