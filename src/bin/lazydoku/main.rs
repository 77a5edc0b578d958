//! `lazydoku`: solve, count and check Sudoku puzzles of every size, one per
//! line or one grid, as a streaming Unix filter.

mod answer;
mod batch;
mod bench;
mod input;
mod trace;

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use lazydoku::Shape;
use lazydoku::format::Parser as PuzzleParser;

use answer::{Format, Order, Settings, Task};
use batch::Batch;
use input::{Mode, Record, Records, Source};

/// The puzzles solved when no command is given: Norvig's 95 hard puzzles.
const DEFAULT_SET: &str = include_str!("../../../data/norvig_top95.txt");

const AFTER_HELP: &str = "\
Without a command, lazydoku solves a bundled set of 95 hard puzzles and prints a summary.

Input: puzzles as arguments, files, or `-` for stdin (the default when stdin is not a
terminal). One puzzle per line (`#` starts a comment line; a trailing comment after white
space is kept), or a single multi-line grid, a Go-style spaced grid or a nested matrix.

Output: exactly one line per puzzle, in input order (`all` prints a line per solution).
A puzzle without solution, or a malformed one, says so on its own line and on stderr with
its line (and column), and the batch goes on.

Exit status: 0 when everything asked for was found, 1 when some puzzle had no solution,
was malformed or was stopped, 2 for a usage or I/O error.

Examples:
  lazydoku solve puzzles.txt > solutions.txt
  lazydoku check --jobs 2 puzzles.txt
  lazydoku count --limit 1000 '.....6....59.....82....8....45........3........6..3.54...325..6..................'
  cat grid.txt | lazydoku solve
  lazydoku all --limit 10 --format grid puzzle.txt
  lazydoku trace --order bfs puzzle.txt
  lazydoku bench data/puzzles2_17_clue";

#[derive(Parser, Debug)]
#[command(
    name = "lazydoku",
    version,
    about = "Solve, count and check Sudoku puzzles of every size with a lazy search."
)]
#[command(after_help = AFTER_HELP)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the solution of each puzzle, in the format the puzzle came in.
    #[command(after_help = "Example:\n  lazydoku solve data/norvig_top95.txt --jobs 2 > solutions.txt")]
    Solve(BatchArgs),
    /// Print the number of solutions of each puzzle, counting no further than --limit.
    #[command(after_help = "Example:\n  lazydoku count --limit 10 puzzles.txt")]
    Count {
        /// Stop counting at this many solutions.
        #[arg(long, default_value_t = 2)]
        limit: usize,
        #[command(flatten)]
        args: BatchArgs,
    },
    /// Print the solutions of each puzzle lazily, one per line, stopping at --limit.
    #[command(after_help = "Example:\n  lazydoku all --limit 5 '12..34..........'")]
    All {
        /// Stop after this many solutions of a puzzle (default: all of them).
        #[arg(long)]
        limit: Option<usize>,
        #[command(flatten)]
        args: BatchArgs,
    },
    /// Print `unique`, `multiple`, `none` or `invalid` for each puzzle.
    #[command(after_help = "Example:\n  lazydoku check --jobs 2 data/puzzles7_serg_benchmark | sort | uniq -c")]
    Check(BatchArgs),
    /// Show the search itself, board by board, until the first solution: animated on a
    /// terminal, one line per board (step, empty cells, board) otherwise.
    #[command(after_help = "Example:\n  lazydoku trace --order bfs --delay 100 puzzle.txt")]
    Trace {
        /// The puzzle: itself, a file, or `-` for stdin (its first puzzle is traced).
        input: Option<String>,
        #[arg(long, value_enum, default_value_t = Order::Dfs)]
        order: Order,
        /// Stop after this many boards.
        #[arg(long, default_value_t = 100_000)]
        limit: usize,
        /// Milliseconds between frames of the animation.
        #[arg(long, default_value_t = 40)]
        delay: u64,
        /// Stop a breadth- or best-first search whose frontier passes this many boards.
        #[arg(long, default_value_t = 1_000_000)]
        max_frontier: usize,
        #[command(flatten)]
        puzzle: PuzzleArgs,
    },
    /// Time counting to 2 over datasets: µs per puzzle, guesses, share solved without a guess.
    #[command(after_help = "Example:\n  lazydoku bench data/puzzles2_17_clue data/norvig_top95.txt")]
    Bench {
        /// Dataset files, one puzzle per line.
        #[arg(required = true)]
        files: Vec<String>,
        /// Time this many rounds and keep the best.
        #[arg(long, default_value_t = 3)]
        rounds: usize,
    },
}

#[derive(Args, Debug)]
struct BatchArgs {
    /// Puzzles, files, or `-` for stdin (the default when stdin is not a terminal).
    inputs: Vec<String>,
    /// The search order.
    #[arg(long, value_enum, default_value_t = Order::Dfs)]
    order: Order,
    /// How to write answers (default: the format each puzzle came in).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Threads to solve with (default: every core).
    #[arg(short, long)]
    jobs: Option<usize>,
    /// No summary on stderr.
    #[arg(short, long)]
    quiet: bool,
    /// Stop a breadth- or best-first search whose frontier passes this many boards.
    #[arg(long, default_value_t = 1_000_000)]
    max_frontier: usize,
    /// How the input holds its puzzles.
    #[arg(long, value_enum, default_value_t = Mode::Auto)]
    input: Mode,
    #[command(flatten)]
    puzzle: PuzzleArgs,
}

#[derive(Args, Debug)]
struct PuzzleArgs {
    /// Box shape, rows x columns (as `2x3`), instead of inferring it.
    #[arg(long, value_parser = parse_shape)]
    shape: Option<Shape>,
    /// Both main diagonals are regions too (X-sudoku).
    #[arg(long)]
    x: bool,
    /// 16x16 puzzles in the hexadecimal 0-F convention.
    #[arg(long)]
    hex: bool,
}

impl PuzzleArgs {
    fn parser(&self) -> PuzzleParser {
        let parser = PuzzleParser::new().diagonals(self.x).hex(self.hex);
        match self.shape {
            Some(shape) => parser.shape(shape),
            None => parser,
        }
    }
}

fn parse_shape(text: &str) -> Result<Shape, String> {
    let (rows, cols) = text.split_once(['x', 'X']).ok_or("write the box shape as ROWSxCOLUMNS, as 2x3")?;
    let number = |t: &str| t.trim().parse::<usize>().map_err(|_| format!("{t:?} is not a number"));
    Shape::try_new(number(rows)?, number(cols)?)
        .ok_or_else(|| "box sides must be at least 2 and the board side at most 25".to_owned())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => run_batch(Ok(vec![Source::Bundled(DEFAULT_SET)]), Task::Solve, &BatchArgs::bundled()),
        Some(Command::Solve(args)) => run_batch(sources(&args.inputs), Task::Solve, &args),
        Some(Command::Count { limit, args }) => run_batch(sources(&args.inputs), Task::Count(limit), &args),
        Some(Command::All { limit, args }) => run_batch(sources(&args.inputs), Task::All(limit), &args),
        Some(Command::Check(args)) => run_batch(sources(&args.inputs), Task::Check, &args),
        Some(Command::Trace { input, order, limit, delay, max_frontier, puzzle }) => {
            run_trace(input, &trace::Trace { order, limit, delay: Duration::from_millis(delay), max_frontier }, &puzzle)
        }
        Some(Command::Bench { files, rounds }) => bench::run(&files, rounds),
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

impl BatchArgs {
    /// The bundled set, solved with the defaults.
    fn bundled() -> BatchArgs {
        BatchArgs {
            inputs: Vec::new(),
            order: Order::Dfs,
            format: None,
            jobs: None,
            quiet: false,
            max_frontier: 1_000_000,
            input: Mode::Auto,
            puzzle: PuzzleArgs { shape: None, x: false, hex: false },
        }
    }
}

fn sources(inputs: &[String]) -> Result<Vec<Source>, String> {
    if inputs.is_empty() {
        if std::io::stdin().is_terminal() {
            return Err("no puzzle given: pass a puzzle, a file, or `-` for stdin (see --help)".to_owned());
        }
        return Ok(vec![Source::Stdin]);
    }
    inputs.iter().map(|i| Source::from_argument(i)).collect()
}

fn run_batch(sources: Result<Vec<Source>, String>, task: Task, args: &BatchArgs) -> Result<bool, String> {
    let sources = sources?;
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from)).max(1);
    let settings = Settings {
        task,
        order: args.order,
        max_frontier: args.max_frontier,
        format: args.format,
        parser: args.puzzle.parser(),
    };
    let batch = Batch { settings, jobs, quiet: args.quiet, mode: args.input };
    Ok(batch.run(sources)?.all_found())
}

fn run_trace(input: Option<String>, trace: &trace::Trace, puzzle: &PuzzleArgs) -> Result<bool, String> {
    let source = match input {
        Some(input) => Source::from_argument(&input)?,
        None => sources(&[])?.remove(0),
    };
    let mut records = Records::new(source.open()?, Mode::Auto);
    let record = records.next_record().map_err(|e| format!("{}: {e}", source.name()))?;
    let Some(record) = record else { return Err(format!("{}: no puzzle found", source.name())) };
    let text = match &record {
        Record::Puzzle { text, .. } => text,
        Record::Unreadable { line, column, reason } => {
            return Err(format!("{}:{line}:{column}: {reason}", source.name()));
        }
    };
    let board = puzzle.parser().parse_board(text).map_err(|e| format!("{}:{}: {e}", source.name(), record.line()))?;
    trace.run(&board)
}
