//! `lazydoku`: solve, count and check Sudoku puzzles from the command line.

mod input;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use lazydoku::Board;
use lazydoku::format::Parser as PuzzleParser;

use input::{Record, Source};

/// The puzzles solved when no command is given: Norvig's 95 hard puzzles.
const DEFAULT_SET: &str = include_str!("../../../data/norvig_top95.txt");

#[derive(Parser, Debug)]
#[command(name = "lazydoku", version, about = "Solve, count and check Sudoku puzzles with a lazy search.")]
#[command(after_help = "\
Without a command, lazydoku solves a bundled set of 95 hard puzzles and prints a summary.

Exit status: 0 when every puzzle was solved, 1 when some puzzle had no solution or was
malformed, 2 for a usage or I/O error.")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the solution of each puzzle, in the format the puzzle came in.
    Solve {
        /// Puzzles, files, or `-` for stdin (the default when stdin is not a terminal).
        inputs: Vec<String>,
    },
    /// Print the number of solutions of each puzzle, counting no further than --limit.
    Count {
        /// Stop counting at this many solutions.
        #[arg(long, default_value_t = 2)]
        limit: usize,
        /// Puzzles, files, or `-` for stdin.
        inputs: Vec<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => Ok(run_default()),
        Some(Command::Solve { inputs }) => with_sources(&inputs, solve),
        Some(Command::Count { limit, inputs }) => with_sources(&inputs, |r| count(r, limit)),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(message) => {
            eprintln!("lazydoku: {message}");
            ExitCode::from(2)
        }
    }
}

/// What became of one puzzle: its output line, and an error to report.
type Outcome = (String, Option<String>);

fn with_sources(inputs: &[String], mut each: impl FnMut(&Record<'_>) -> Outcome) -> Result<bool, String> {
    let inputs = if inputs.is_empty() {
        if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
            return Err("no puzzle given: pass a puzzle, a file, or `-` for stdin (see --help)".to_owned());
        }
        vec!["-".to_owned()]
    } else {
        inputs.to_vec()
    };
    let sources: Vec<Source> = input::read_sources(&inputs)?;
    let mut all_ok = true;
    for source in &sources {
        for record in input::records(&source.text) {
            let (out, problem) = each(&record);
            println!("{out}");
            if let Some(problem) = problem {
                all_ok = false;
                eprintln!("lazydoku: {}:{}: {problem}", source.name, record.line);
            }
        }
    }
    Ok(all_ok)
}

fn solve(record: &Record<'_>) -> Outcome {
    match PuzzleParser::new().parse(record.text) {
        Err(e) => (format!("invalid: {e}"), Some(e.to_string())),
        Ok((board, layout)) => match board.solve() {
            Some(solution) => (layout.render(&solution).trim_end().to_owned(), None),
            None => ("no solution".to_owned(), Some("no solution".to_owned())),
        },
    }
}

fn count(record: &Record<'_>, limit: usize) -> Outcome {
    match record.text.parse::<Board>() {
        Err(e) => (format!("invalid: {e}"), Some(e.to_string())),
        Ok(board) => (board.count_solutions(limit).to_string(), None),
    }
}

fn run_default() -> bool {
    let start = std::time::Instant::now();
    let records = input::records(DEFAULT_SET);
    let (mut solved, mut total) = (0, 0);
    for record in &records {
        total += 1;
        let (out, problem) = solve(record);
        if problem.is_none() {
            solved += 1;
        }
        println!("{out}");
    }
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "solved {solved} of {total} bundled puzzles (Norvig's top95) in {:.1} ms, {:.0} puzzles/s",
        secs * 1e3,
        f64::from(total) / secs
    );
    solved == total
}
