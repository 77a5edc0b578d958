//! `lazydoku bench`: the speed table of the comparison harness, for
//! lazydoku alone, on any dataset.

use std::time::Instant;

use lazydoku::{Board, search};

use crate::input::{Mode, Record, Records, Source};

/// Prints, for each file: puzzles, microseconds per puzzle to find a
/// solution and prove it unique (count to 2, best of `rounds`), solutions
/// found, guesses per puzzle, and the share solved without a guess.
pub fn run(files: &[String], rounds: usize) -> Result<bool, String> {
    println!(
        "{:<40} {:>8} {:>10} {:>9} {:>10} {:>9}",
        "dataset", "puzzles", "µs/puzzle", "unique", "guesses", "no guess"
    );
    let mut all_read = true;
    for file in files {
        let source = Source::from_argument(file)?;
        let mut records = Records::new(source.open()?, Mode::Line);
        let mut boards = Vec::new();
        while let Some(record) = records.next_record().map_err(|e| format!("{file}: {e}"))? {
            match &record {
                Record::Puzzle { text, .. } => match text.parse::<Board>() {
                    Ok(board) => boards.push(board),
                    Err(e) => {
                        all_read = false;
                        eprintln!("lazydoku: {file}:{}: {e}", record.line());
                    }
                },
                Record::Unreadable { line, reason, .. } => {
                    all_read = false;
                    eprintln!("lazydoku: {file}:{line}: {reason}");
                }
            }
        }
        let mut best = f64::INFINITY;
        let mut unique = 0;
        for _ in 0..rounds.max(1) {
            let start = Instant::now();
            unique = boards.iter().filter(|b| b.count_solutions(2) == 1).count();
            best = best.min(start.elapsed().as_secs_f64());
        }
        let guesses: Vec<usize> = boards.iter().map(guesses).collect();
        #[expect(clippy::cast_precision_loss, reason = "counts far below 2^52")]
        let (n, total_guesses) = (boards.len().max(1) as f64, guesses.iter().sum::<usize>() as f64);
        #[expect(clippy::cast_precision_loss, reason = "counts far below 2^52")]
        let no_guess = guesses.iter().filter(|&&g| g == 0).count() as f64 / n * 100.0;
        println!(
            "{:<40} {:>8} {:>10.2} {:>9} {:>10.1} {:>8.1}%",
            file,
            boards.len(),
            best * 1e6 / n,
            unique,
            total_guesses / n,
            no_guess
        );
    }
    Ok(all_read)
}

/// Children built at a branch with two or more candidates by the depth-first
/// search of `solutions()` up to the second solution (`count_solutions`,
/// which is what is timed, builds fewer: it counts the last cells directly).
fn guesses(board: &Board) -> usize {
    let mut guesses = 0;
    search::dfs(board.clone(), |b: &Board| {
        let children = b.children();
        if children.remaining().len() > 1 {
            guesses += children.remaining().len();
        }
        children
    })
    .filter(Board::is_complete)
    .take(2)
    .count();
    guesses
}
