//! `lazydoku`: solve, count and check Sudoku puzzles of every size, one per
//! line or one grid, as a streaming Unix filter.

mod answer;
mod batch;
mod bench;
mod generate;
mod input;
mod trace;

use std::io::{IsTerminal, Write};
use std::ops::RangeInclusive;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use lazydoku::explain::{Level, MOST_GUESSES};
use lazydoku::format::{Layout, Parser as PuzzleParser};
use lazydoku::generate::{Generator, Symmetry};
use lazydoku::search::Budget;
use lazydoku::{Board, Rules, Shape};

use answer::{Format, Order, Question, Settings, Task};
use batch::Batch;
use input::{Mode, Record, Records, Source};

/// The puzzles solved when no command is given: Norvig's 95 hard puzzles.
const DEFAULT_SET: &str = include_str!("../../../data/norvig_top95.txt");

const AFTER_HELP: &str = "\
Without a command, lazydoku solves the puzzles piped to it, or, at a terminal, a bundled
set of 95 hard puzzles, and prints a summary.

Input: puzzles as arguments, files, or `-` for stdin (the default when stdin is not a
terminal). One puzzle per line (a trailing comment after white space is kept), multi-line
grids (with or without spaces and separators; several in a file, apart by blank lines or
header lines such as `Grid 01`), nested matrices, JSON objects, or f-puzzles files and links
(`https://f-puzzles.com/?load=...`). Blank lines, `#` comments and headers pass through to
the output unchanged, so output line N belongs to input line N.

Output: one answer per puzzle, in input order, as many lines as the puzzle took (`all`
prints every solution). A puzzle without solution, a malformed one, or one stopped by
--timeout or --max-nodes says so in its place and on stderr with its line (and column),
and the batch goes on.

Exit status: 0 when everything asked for was found, 1 when some puzzle had no solution,
was malformed or was stopped, 2 for a usage or I/O error.

Examples:
  lazydoku solve puzzles.txt > solutions.txt
  lazydoku check --jobs 2 puzzles.txt
  lazydoku count --limit 1000 '.....6....59.....82....8....45........3........6..3.54...325..6..................'
  cat grid.txt | lazydoku solve
  lazydoku all --limit 10 --format grid puzzle.txt
  lazydoku count --timeout 2 --jobs 2 hard.txt
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
        /// Stop counting at this many solutions (at least 1).
        #[arg(long, default_value_t = 2, value_parser = at_least_one)]
        limit: usize,
        #[command(flatten)]
        args: BatchArgs,
    },
    /// Print the solutions of each puzzle as they are found, one per line, stopping at --limit.
    ///
    /// A puzzle alone in its input (an argument, or a file of one line) is searched on every
    /// --jobs thread, its solutions in the order of one (depth-first, with no --timeout or
    /// --max-nodes, where they come thick); fewer puzzles than jobs share the threads out;
    /// more take a thread each.
    #[command(
        after_help = "Example:\n  lazydoku all --limit 5 '12..34..........'\n  lazydoku all '.................................................................................' | head -3"
    )]
    All {
        /// Stop after this many solutions of a puzzle (default: all of them).
        #[arg(long, value_parser = at_least_one)]
        limit: Option<usize>,
        #[command(flatten)]
        args: BatchArgs,
    },
    /// Print `unique`, `multiple`, `none` or `invalid` for each puzzle.
    #[command(after_help = "Example:\n  lazydoku check --jobs 2 data/puzzles7_serg_benchmark | sort | uniq -c")]
    Check(BatchArgs),
    /// Rate each puzzle: one CSV row (after a header) or JSON object with the puzzle, its
    /// solutions (up to 2), givens, guesses, hardest technique, score, level and canonical form.
    #[command(
        after_help = "Guesses: the children built at branches of two or more candidates by the depth-first\ncount to two solutions, counted up to 100000 (a puzzle rated 100000 takes at least that many).\nHardest, score and level: from the logical steps of `explain`; the\nlevel is easy, medium, hard, expert, or beyond when logic alone does not solve the puzzle.\n\nExample:\n  lazydoku rate --jobs 2 data/norvig_top95.txt > ratings.csv"
    )]
    Rate(BatchArgs),
    /// Print the first logical step of each puzzle: the technique, the cells and why.
    #[command(
        after_help = "Example:\n  lazydoku hint '..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..'"
    )]
    Hint(BatchArgs),
    /// Print the logical steps that solve each puzzle, one per line, and how they end: solved,
    /// stuck (no technique known here applies; it never guesses), or a contradiction.
    #[command(after_help = "Example:\n  lazydoku explain --format json puzzle.txt")]
    Explain(BatchArgs),
    /// Print the canonical form of each puzzle: the smallest equivalent under the symmetries of
    /// its rules, so that equivalent puzzles print the same line. Classic rules of every size:
    /// bands, rows, stacks, columns, transposition and relabelling. Other rules: the rotations
    /// and reflections that lay them onto themselves, relabelling where digits are only labels.
    #[command(after_help = "Example:\n  lazydoku canon --unique puzzles.txt > distinct.txt")]
    Canon {
        /// Leave out puzzles equivalent to an earlier one (a puzzle turned with its rules, maps
        /// and cages included, is the same puzzle).
        #[arg(long)]
        unique: bool,
        #[command(flatten)]
        args: BatchArgs,
    },
    /// Print an equivalent of each puzzle, in its own format: as many solutions, givens and the
    /// same difficulty, for data augmentation or to disguise a puzzle. A random one by default
    /// (classic rules: bands, rows, stacks and columns moved, transposed, digits relabelled;
    /// other rules: turned, relabelled where digits are only labels), or the turn --turn names.
    #[command(
        after_help = "Rules that a turn moves are written with the puzzle by --format f-puzzles (every rule), and by a\nline or grid that brought its own maps (region, cage and parity maps, written turned as\n`generate` writes them). Elsewhere (JSON objects, rules given by flags) the random draw keeps\nthe puzzle's rules (the turns that lay them onto themselves, relabelling where digits are only\nlabels: a killer whose cages no turn keeps comes back as it is), and a --turn that moves them\nis an error for that puzzle.\n\nExample:\n  lazydoku transform --seed 7 puzzles.txt > disguised.txt"
    )]
    Transform {
        /// The draw: the puzzle on input line L gets the equivalent of this seed and L together,
        /// so each line is drawn apart and a run is the same on every machine.
        #[arg(long, default_value_t = 0, conflicts_with = "turn")]
        seed: u64,
        /// One rotation or reflection for every puzzle, instead of a random equivalent: a quarter
        /// turn (clockwise, anticlockwise), a half turn, turned over top to bottom or left to right,
        /// or over the main diagonal (rows become columns) or the anti-diagonal.
        #[arg(long, value_parser = turn_names())]
        turn: Option<lazydoku::Turn>,
        #[command(flatten)]
        args: BatchArgs,
    },
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
        /// Stop a breadth- or best-first search whose frontier holds more than this
        /// (bytes, or with K, M or G).
        #[arg(long, default_value = "1G", value_parser = parse_size)]
        max_memory: u64,
        #[command(flatten)]
        puzzle: PuzzleArgs,
    },
    /// Make puzzles with one solution each: a random full grid, then givens removed while
    /// the solution stays unique (minimal unless --clues stops it).
    #[command(
        after_help = "The same --seed gives the same puzzles, in the same order, whatever --jobs is.\n\nExamples:\n  lazydoku generate --count 10 --seed 7 --symmetry rotate180\n  lazydoku generate --count 3 --shape 4x4 --clues 120\n  lazydoku generate --count 5 --regions 'aaab abbb cccd cddd' --format grid"
    )]
    Generate {
        /// How many puzzles (default: until stdout is closed).
        #[arg(long, value_parser = at_least_one)]
        count: Option<usize>,
        /// The seed of the random choices.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// The symmetry of the givens: none, rotate180, rotate90, mirror-left-right,
        /// mirror-top-bottom, diagonal, anti-diagonal or full.
        #[arg(long, default_value = "none")]
        symmetry: Symmetry,
        /// Stop removing givens once this many are left (default: until no given can go).
        #[arg(long)]
        clues: Option<usize>,
        /// Give up a removal whose proof of one solution takes more than N nodes of the search
        /// (or conflicts of clause learning), keeping its given: puzzles come within a bound of
        /// work, unique but not always minimal. For 25x25 killers, whose minimal puzzles take
        /// more than ten minutes each.
        #[arg(long, value_name = "N")]
        proof_nodes: Option<u64>,
        /// Only puzzles of this level (as `rate` gives it): easy, medium, hard, expert or beyond.
        /// Where minimal puzzles keep coming out harder (rules along lines, sums, and from the first
        /// try on boards of 16x16 and more), givens are removed only while logic of the level still
        /// solves the puzzle; where killer puzzles keep coming out easier, cages are joined until it
        /// has the level. Beyond-logic puzzles on 25x25 and 16x16 jigsaw maps stop at the first
        /// removal past logic that keeps one solution (not minimal, and made in a fraction of a
        /// second instead of minutes).
        #[arg(long, value_name = "LEVEL")]
        difficulty: Option<Level>,
        /// Only puzzles whose guesses (as `rate` gives them) are within MIN-MAX, or at least MIN
        /// with MIN-. Guesses are counted up to 100000.
        #[arg(long, value_name = "MIN-MAX", value_parser = parse_guesses)]
        guesses: Option<RangeInclusive<usize>>,
        /// Each puzzle on a random jigsaw map of its own, written after it (the map
        /// `--regions` reads).
        #[arg(long, conflicts_with = "regions")]
        jigsaw: bool,
        /// Killer puzzles: cages cut from each grid, written after the puzzle as a cage map
        /// with its sums (what `--cages` reads); most puzzles keep no givens.
        #[arg(long, conflicts_with = "cages")]
        killer: bool,
        /// Even-odd puzzles: a quarter of each grid's cells marked even or odd by their
        /// digits, written after the puzzle as a parity map (what `--parity` reads).
        #[arg(long, conflicts_with = "parity")]
        even_odd: bool,
        /// With --even-odd: how many cells of each grid are marked (default: a quarter).
        #[arg(long, value_name = "N", requires = "even_odd")]
        marks: Option<usize>,
        /// Puzzles on the rules of this puzzle, whatever they are (lines, relations, cages,
        /// regions): a JSON object or an f-puzzles file or link, in a file or inline; its
        /// givens are left out. `--format json` and `f-puzzles` write every rule with each
        /// puzzle; line and grid output cannot hold rules along lines, and say so.
        #[arg(long, value_name = "PUZZLE|FILE", conflicts_with_all = ["jigsaw", "killer", "even_odd"])]
        rules: Option<String>,
        /// How to write puzzles.
        #[arg(long, value_enum, default_value_t = Format::Line)]
        format: Format,
        /// Threads to make puzzles with (default: every core; at most one per core).
        #[arg(short, long, value_parser = at_least_one)]
        jobs: Option<usize>,
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
    /// Threads to solve with (default: every core; at most one per core).
    #[arg(short, long, value_parser = at_least_one)]
    jobs: Option<usize>,
    /// No summary on stderr.
    #[arg(short, long)]
    quiet: bool,
    /// Stop a breadth- or best-first search whose frontier holds more than this, per
    /// puzzle (bytes, or with K, M or G).
    #[arg(long, default_value = "1G", value_parser = parse_size)]
    max_memory: u64,
    /// Stop a puzzle that takes longer than this many seconds, and go on with the next.
    #[arg(long, value_parser = parse_seconds)]
    timeout: Option<Duration>,
    /// Stop a puzzle whose search visits more than this many boards (the same on every
    /// machine), and go on with the next.
    #[arg(long, value_parser = at_least_one)]
    max_nodes: Option<usize>,
    /// How the input holds its puzzles.
    #[arg(long, value_enum, default_value_t = Mode::Auto)]
    input: Mode,
    #[command(flatten)]
    puzzle: PuzzleArgs,
}

#[derive(Args, Debug)]
#[expect(clippy::struct_excessive_bools, reason = "command-line flags, each independent of the others")]
struct PuzzleArgs {
    /// Box shape, rows x columns (as `2x3`), instead of inferring it; `latinN` for
    /// an N x N board with no boxes (a Latin square, or the base of a jigsaw).
    #[arg(long, value_parser = parse_shape)]
    shape: Option<Shape>,
    /// Both main diagonals are regions too (X-sudoku).
    #[arg(long)]
    x: bool,
    /// 16x16 puzzles in the hexadecimal 0-F convention, read and written.
    #[arg(long)]
    hex: bool,
    /// Jigsaw regions instead of boxes: a file holding the map, or the map
    /// itself; one label per cell, row by row (as `aaab acbb ccbd cddd`).
    #[arg(long, value_name = "MAP|FILE")]
    regions: Option<String>,
    /// Windoku: box-shaped windows one cell in from the edges are regions too
    /// (on 9x9, rows and columns 2-4 and 6-8), on each puzzle's own size.
    #[arg(long)]
    windoku: bool,
    /// Anti-knight: no digit twice a knight's move apart, on each puzzle's own size.
    #[arg(long)]
    anti_knight: bool,
    /// Anti-king: no digit twice in cells that touch at a corner, on each
    /// puzzle's own size.
    #[arg(long)]
    anti_king: bool,
    /// Non-consecutive: no two cells that share a side hold consecutive
    /// digits, on each puzzle's own size.
    #[arg(long)]
    non_consecutive: bool,
    /// Killer cages: a cage map (one label per cell, `.` for none; without --shape its size
    /// gives the board's), then `label=sum` for each cage; or JSON,
    /// `[{"sum": 3, "cells": [0, 1]}, ...]`; in a file, or inline.
    #[arg(long, value_name = "MAP|FILE")]
    cages: Option<String>,
    /// Even-odd: a parity map, one mark per cell, row by row: `e` for a cell that holds an
    /// even digit, `o` for an odd one, `.` for either (as `e... .o.. .... ....`); without
    /// --shape, --regions or --cages its size gives the board's; in a file, or inline.
    #[arg(long, value_name = "MAP|FILE")]
    parity: Option<String>,
}

impl PuzzleArgs {
    /// The names of the rules these flags add to a plain shape's or to the
    /// maps of `--regions` and `--cages`, apart by commas, for `generate` to
    /// write with each puzzle (as `rules:NAMES`); `None` without any.
    fn rule_names(&self) -> Option<String> {
        let flags = [
            ("diagonals", self.x),
            ("windoku", self.windoku),
            ("anti-knight", self.anti_knight),
            ("anti-king", self.anti_king),
            ("non-consecutive", self.non_consecutive),
        ];
        let names: Vec<&str> = flags.iter().filter(|&&(_, on)| on).map(|&(name, _)| name).collect();
        (!names.is_empty()).then(|| names.join(","))
    }

    /// The rules that `--regions` and `--cages` make, with `--x`'s diagonals
    /// and `--windoku`'s windows, on the `--shape` given; without one, on the
    /// size of the region map or else of the cage map (9x9 for cages in
    /// JSON). `None` when neither is given, and the parser reads each
    /// puzzle's shape, diagonals and windows.
    fn rules(&self) -> Result<Option<Rules>, String> {
        self.check_windows()?;
        if self.regions.is_none() && self.cages.is_none() && self.parity.is_none() {
            return Ok(None);
        }
        let cages = match &self.cages {
            Some(file) => {
                // Inline cages have sums (`a=3`) or are JSON; anything else names a file.
                let inline =
                    !Path::new(file).is_file() && (file.contains('=') || file.trim_start().starts_with(['[', '{']));
                let text = if inline {
                    file.clone()
                } else {
                    std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?
                };
                let json = text.trim_start().starts_with(['[', '{']);
                Some((file, text, json))
            }
            None => None,
        };
        let parity = match &self.parity {
            Some(map) => {
                let name = if Path::new(map).is_file() { format!("--parity {map}") } else { "--parity".to_owned() };
                Some((name, map_text(map)?))
            }
            None => None,
        };
        let mut rules = if let Some(map) = &self.regions {
            let text = map_text(map)?;
            // With --shape the map must fit it; without, its size gives the shape.
            let rules = match self.shape {
                Some(shape) => Rules::new(shape).with_regions(&text),
                None => Rules::jigsaw(&text),
            };
            rules.map_err(|e| format!("--regions: {e}"))?
        } else {
            let map_shape = cages.as_ref().and_then(|(_, text, json)| if *json { None } else { cage_map_shape(text) });
            let map_shape = map_shape.or_else(|| parity.as_ref().and_then(|(_, text)| parity_map_shape(text)));
            Rules::new(self.shape.or(map_shape).unwrap_or(Shape::NINE))
        };
        if self.x {
            rules = rules.with_diagonals();
        }
        if self.windoku {
            Self::windows_fit(rules.shape())?;
            rules = rules.with_windows();
        }
        rules = self.chess(rules);
        if let Some((file, text, json)) = cages {
            let cages = if json { rules.with_cage_json(&text) } else { rules.with_cage_map(&text) };
            rules = cages.map_err(|e| format!("{file}: {e}"))?;
        }
        // Last: the builders of windows, diagonals and chess rules cannot
        // refuse cells left too few digits, and this one checks every rule.
        if let Some((name, text)) = parity {
            rules = rules.with_parity_map(&text).map_err(|e| format!("{name}: {e}"))?;
        }
        Ok(Some(rules))
    }

    /// `--windoku` on a `--shape` without boxes is an error, not windoku
    /// without windows.
    fn check_windows(&self) -> Result<(), String> {
        match self.shape {
            Some(shape) if self.windoku => Self::windows_fit(shape),
            _ => Ok(()),
        }
    }

    fn windows_fit(shape: Shape) -> Result<(), String> {
        if shape.has_boxes() {
            Ok(())
        } else {
            Err(format!("--windoku: windows take the box shape, and {shape} has none"))
        }
    }

    /// `rules` with `--anti-knight`'s and `--anti-king`'s pairs and
    /// `--non-consecutive`'s rule.
    fn chess(&self, rules: Rules) -> Rules {
        let rules = if self.anti_knight { rules.with_anti_knight() } else { rules };
        let rules = if self.anti_king { rules.with_anti_king() } else { rules };
        if self.non_consecutive { rules.with_non_consecutive() } else { rules }
    }

    fn parser(&self) -> PuzzleParser {
        let parser = PuzzleParser::new()
            .diagonals(self.x)
            .windows(self.windoku)
            .anti_knight(self.anti_knight)
            .anti_king(self.anti_king)
            .non_consecutive(self.non_consecutive)
            .hex(self.hex);
        match self.shape {
            Some(shape) => parser.shape(shape),
            None => parser,
        }
    }
}

/// The shape whose cell count a cage map has, counted as
/// `Rules::with_cage_map` counts it: a character a cell, on the lines that
/// are neither blank nor `#` comments, leaving out the `label=sum` tokens.
/// `None` when no board has that many cells; the map is then read on 9x9,
/// which says what is wrong with it.
fn cage_map_shape(text: &str) -> Option<Shape> {
    let cells: usize = text
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
        .flat_map(str::split_whitespace)
        .filter(|token| !token.contains('='))
        .map(|token| token.chars().count())
        .sum();
    shape_of_cells(cells)
}

/// The shape whose cell count a parity map has, counted as
/// `Rules::with_parity_map` counts it: a mark a cell, on the lines that are
/// not `#` comments. `None` when no board has that many cells, as for
/// [`cage_map_shape`].
fn parity_map_shape(text: &str) -> Option<Shape> {
    let cells: usize = text
        .lines()
        .filter(|line| !line.trim_start().starts_with('#'))
        .map(|line| line.chars().filter(|c| !c.is_whitespace()).count())
        .sum();
    shape_of_cells(cells)
}

/// The board shape with `cells` cells, if there is one.
fn shape_of_cells(cells: usize) -> Option<Shape> {
    let side = cells.isqrt();
    if side * side == cells { Shape::from_side(side) } else { None }
}

/// A map given to a flag: the file it names, or the text itself.
fn map_text(map: &str) -> Result<String, String> {
    if Path::new(map).is_file() {
        std::fs::read_to_string(map).map_err(|e| format!("{map}: {e}"))
    } else {
        Ok(map.to_owned())
    }
}

fn parse_shape(text: &str) -> Result<Shape, String> {
    if let Some(side) = text.strip_prefix("latin") {
        let side = side.trim().parse::<usize>().map_err(|_| format!("{side:?} is not a number"))?;
        return Shape::try_latin(side).ok_or_else(|| "a Latin square's side is from 2 to 25".to_owned());
    }
    let (rows, cols) = text.split_once(['x', 'X']).ok_or("write the box shape as ROWSxCOLUMNS, as 2x3")?;
    let number = |t: &str| t.trim().parse::<usize>().map_err(|_| format!("{t:?} is not a number"));
    Shape::try_new(number(rows)?, number(cols)?)
        .ok_or_else(|| "box sides must be at least 2 and the board side (their product) at most 25".to_owned())
}

fn at_least_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("must be at least 1".to_owned()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("{text:?} is not a whole number")),
    }
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text.parse().map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if !(seconds > 0.0 && seconds.is_finite()) {
        return Err("must be a positive number of seconds".to_owned());
    }
    Duration::try_from_secs_f64(seconds).map_err(|e| e.to_string())
}

/// Bytes, with an optional K, M or G (powers of 1024).
fn parse_size(text: &str) -> Result<u64, String> {
    let upper = text.trim().to_ascii_uppercase();
    let digits = upper.trim_end_matches(['B', 'I']);
    let (number, shift) = match digits.chars().last() {
        Some('K') => (&digits[..digits.len() - 1], 10),
        Some('M') => (&digits[..digits.len() - 1], 20),
        Some('G') => (&digits[..digits.len() - 1], 30),
        _ => (digits, 0),
    };
    let n: u64 = number.trim().parse().map_err(|_| format!("{text:?} is not a size; write it as 512M or 2G"))?;
    n.checked_mul(1 << shift).filter(|&n| n > 0).ok_or_else(|| format!("{text:?} is not a size from 1 byte to 16 EiB"))
}

fn main() -> ExitCode {
    if let Some(message) = misplaced_input() {
        say(&message);
        return ExitCode::from(2);
    }
    let cli = Cli::parse();
    let result = match cli.command {
        None if std::io::stdin().is_terminal() => run_batch(
            Ok(vec![Source::Bundled(DEFAULT_SET)]),
            Task::Answer(Question::Solve),
            &BatchArgs::default_for_bare(),
        ),
        None => run_batch(Ok(vec![Source::Stdin]), Task::Answer(Question::Solve), &BatchArgs::default_for_bare()),
        Some(Command::Solve(args)) => run_batch(sources(&args), Task::Answer(Question::Solve), &args),
        Some(Command::Count { limit, args }) => run_batch(sources(&args), Task::Answer(Question::Count(limit)), &args),
        Some(Command::All { limit, args }) => run_batch(sources(&args), Task::All(limit), &args),
        Some(Command::Check(args)) => run_batch(sources(&args), Task::Answer(Question::Check), &args),
        Some(Command::Rate(args)) => run_batch(sources(&args), Task::Answer(Question::Rate), &args),
        Some(Command::Hint(args)) => run_batch(sources(&args), Task::Answer(Question::Hint), &args),
        Some(Command::Explain(args)) => run_batch(sources(&args), Task::Answer(Question::Explain), &args),
        Some(Command::Canon { unique, args }) => {
            run_batch(sources(&args), Task::Answer(Question::Canon { unique }), &args)
        }
        Some(Command::Transform { seed, turn, args }) => {
            let question = Question::Transform { seed, turn };
            run_batch(sources(&args), Task::Answer(question), &args)
        }
        Some(Command::Trace { input, order, limit, delay, max_memory, puzzle }) => {
            run_trace(input, &trace::Trace { order, limit, delay: Duration::from_millis(delay), max_memory }, &puzzle)
        }
        Some(Command::Bench { files, rounds }) => bench::run(&files, rounds),
        Some(Command::Generate {
            count,
            seed,
            symmetry,
            clues,
            proof_nodes,
            difficulty,
            guesses,
            jigsaw,
            killer,
            even_odd,
            marks,
            rules,
            format,
            jobs,
            puzzle,
        }) => {
            let (generator, source) = match generator_for(&puzzle, rules.as_deref()) {
                Ok(found) => found,
                Err(message) => {
                    say(&message);
                    return ExitCode::from(2);
                }
            };
            let mut generator = generator.seed(seed).symmetry(symmetry);
            if let Some(clues) = clues {
                generator = generator.clues(clues);
            }
            if let Some(nodes) = proof_nodes {
                generator = generator.proof_nodes(nodes);
            } else if killer && clues.is_none() && difficulty.is_none() && generator.rules().shape().side() >= 25 {
                // Measured: one such puzzle ran past ten minutes unmade.
                say(
                    "minimal 25x25 killer puzzles can take more than ten minutes each; --proof-nodes N bounds each removal's proof (at 2000, one came in 41 s: unique, not minimal)",
                );
            }
            if let Some(level) = difficulty {
                generator = generator.level(level);
            }
            if let Some(range) = guesses {
                generator = generator.guesses(range);
            }
            if jigsaw {
                generator = generator.jigsaw();
            }
            if killer {
                generator = generator.killer();
            }
            if even_odd {
                generator = match marks {
                    Some(cells) => generator.even_odd_cells(cells),
                    None => generator.even_odd(),
                };
            }
            let count = count.map(|n| u64::try_from(n).unwrap_or(u64::MAX));
            let extras = extras_for(source, &puzzle, [jigsaw, killer, even_odd]);
            generate::run(&generator, count, threads(jobs, false), format, &extras)
        }
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(message) => {
            say(&message);
            ExitCode::from(2)
        }
    }
}

/// `lazydoku: message` on stderr; nothing if stderr is gone.
fn say(message: &str) {
    let _ = writeln!(std::io::stderr().lock(), "lazydoku: {message}");
}

/// A file or puzzle given where the command belongs (`lazydoku FILE`): the
/// message that names the command meant.
fn misplaced_input() -> Option<String> {
    const COMMANDS: [&str; 12] =
        ["solve", "count", "all", "check", "rate", "hint", "explain", "canon", "trace", "bench", "generate", "help"];
    let first = std::env::args().nth(1)?;
    if first.starts_with('-') || COMMANDS.contains(&first.as_str()) {
        return None;
    }
    let is_file = std::path::Path::new(&first).exists();
    let is_puzzle = first.parse::<lazydoku::Board>().is_ok() || input::looks_like_path(&first);
    (is_file || is_puzzle).then(|| {
        let plain = first.chars().all(|c| c.is_ascii_alphanumeric() || "._/-".contains(c));
        let quoted = if plain { first.clone() } else { format!("'{first}'") };
        format!("{quoted} is not a command; to solve it, run: lazydoku solve {quoted}")
    })
}

impl BatchArgs {
    /// What bare `lazydoku` runs with.
    fn default_for_bare() -> BatchArgs {
        BatchArgs {
            inputs: Vec::new(),
            order: Order::Dfs,
            format: None,
            jobs: None,
            quiet: false,
            max_memory: 1 << 30,
            timeout: None,
            max_nodes: None,
            input: Mode::Auto,
            puzzle: PuzzleArgs {
                shape: None,
                x: false,
                hex: false,
                regions: None,
                windoku: false,
                anti_knight: false,
                anti_king: false,
                non_consecutive: false,
                cages: None,
                parity: None,
            },
        }
    }

    fn budget(&self) -> Budget {
        let budget = match self.timeout {
            Some(limit) => Budget::time(limit),
            None => Budget::UNLIMITED,
        };
        match self.max_nodes {
            Some(nodes) => budget.and_nodes(u64::try_from(nodes).unwrap_or(u64::MAX)),
            None => budget,
        }
    }
}

fn sources(args: &BatchArgs) -> Result<Vec<Source>, String> {
    if args.inputs.is_empty() {
        if std::io::stdin().is_terminal() {
            return Err("no puzzle given: pass a puzzle, a file, or `-` for stdin (see --help)".to_owned());
        }
        return Ok(vec![Source::Stdin]);
    }
    let parser = args.puzzle.parser();
    args.inputs.iter().map(|i| Source::from_argument(i, parser)).collect()
}

fn run_batch(sources: Result<Vec<Source>, String>, task: Task, args: &BatchArgs) -> Result<bool, String> {
    let sources = sources?;
    let jobs = threads(args.jobs, args.quiet);
    let rules = args.puzzle.rules()?;
    let parser = match &rules {
        Some(rules) => args.puzzle.parser().shape(rules.shape()),
        None => args.puzzle.parser(),
    };
    let settings = Settings {
        task,
        order: args.order,
        max_memory: args.max_memory,
        budget: args.budget(),
        format: args.format,
        parser,
        rules,
        quiet: args.quiet,
        jobs,
    };
    let header = (matches!(task, Task::Answer(Question::Rate)) && args.format != Some(Format::Json))
        .then_some(answer::RATE_HEADER);
    let batch = Batch { settings, jobs, quiet: args.quiet, mode: args.input, header };
    Ok(batch.run(sources)?.all_found())
}

/// The number of threads for `--jobs`: every core by default, at most
/// one per core (said on stderr unless `quiet`).
fn threads(jobs: Option<usize>, quiet: bool) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    match jobs {
        Some(jobs) if jobs > cores => {
            if !quiet {
                say(&format!("--jobs {jobs} is more than the {cores} cores here; using {cores}"));
            }
            cores
        }
        Some(jobs) => jobs,
        None => cores,
    }
}

/// A generator of the rules that the flags give: `--regions`, `--windoku`,
/// `--anti-knight`, `--anti-king`, `--non-consecutive` and `--cages`, or
/// `--shape` and `--x` alone (9x9 by default).
fn generator_for(puzzle: &PuzzleArgs, source: Option<&str>) -> Result<(Generator, Option<(Board, Layout)>), String> {
    if let Some(source) = source {
        let (board, layout) = rules_of_puzzle(source, puzzle)?;
        return Ok((Generator::new(board.rules()), Some((board, layout))));
    }
    let rules = if let Some(rules) = puzzle.rules()? {
        rules
    } else {
        // --hex alone means 16x16.
        let default = if puzzle.hex { Shape::new(4, 4) } else { Shape::NINE };
        let shape = puzzle.shape.unwrap_or(default);
        let rules = if puzzle.x { Rules::new(shape).with_diagonals() } else { Rules::new(shape) };
        puzzle.chess(if puzzle.windoku { rules.with_windows() } else { rules })
    };
    if puzzle.hex && rules.shape().side() != 16 {
        return Err(format!(
            "--hex writes 16x16 puzzles in 0-F, but {} boards have side {}",
            rules.shape(),
            rules.shape().side()
        ));
    }
    Ok((Generator::new(rules), None))
}

/// What `generate` writes with each puzzle: all its rules, the maps given
/// included (those of the puzzle `--rules` read, `source`, or of the
/// flags, `made` saying which of jigsaw, killer and even-odd maps each
/// puzzle gets), so that it reads back as itself on its own.
fn extras_for(source: Option<(Board, Layout)>, puzzle: &PuzzleArgs, made: [bool; 3]) -> generate::Extras {
    let [jigsaw, killer, even_odd] = made;
    match source {
        Some((board, layout)) => generate::Extras {
            regions: layout.region_map().is_some(),
            cages: layout.cage_map().is_some(),
            parity: layout.parity_map().is_some(),
            hex: puzzle.hex,
            names: layout.rule_names().map(str::to_owned),
            source: Some((board, layout)),
        },
        None => generate::Extras {
            regions: jigsaw || puzzle.regions.is_some(),
            cages: killer || puzzle.cages.is_some(),
            parity: even_odd || puzzle.parity.is_some(),
            hex: puzzle.hex,
            names: puzzle.rule_names(),
            source: None,
        },
    }
}

/// The puzzle `source` names for `generate --rules` (a file, or the puzzle
/// itself), read as the command line reads puzzles, and how it was laid
/// out. It brings every rule, so no other flag may add one.
fn rules_of_puzzle(source: &str, puzzle: &PuzzleArgs) -> Result<(Board, Layout), String> {
    if puzzle.regions.is_some()
        || puzzle.cages.is_some()
        || puzzle.parity.is_some()
        || puzzle.shape.is_some()
        || puzzle.x
        || puzzle.windoku
        || puzzle.rule_names().is_some()
    {
        return Err(
            "--rules brings the puzzle's every rule and its shape; leave out the flags that add others".to_owned()
        );
    }
    let (name, text) = if Path::new(source).is_file() {
        (source.to_owned(), std::fs::read_to_string(source).map_err(|e| format!("{source}: {e}"))?)
    } else {
        ("--rules".to_owned(), source.to_owned())
    };
    let parser = PuzzleParser::new().hex(puzzle.hex);
    parser.parse(text.trim()).map_err(|e| format!("{name}: {e}"))
}

/// `MIN-MAX`, or `MIN-` for no upper bound.
fn parse_range(text: &str) -> Result<RangeInclusive<usize>, String> {
    let (low, high) =
        text.split_once('-').ok_or_else(|| format!("{text:?} is not a range; write it as 0-10 or 20-"))?;
    let number = |t: &str| t.trim().parse::<usize>().map_err(|_| format!("{t:?} in {text:?} is not a whole number"));
    let low = number(low)?;
    let high = if high.trim().is_empty() { usize::MAX } else { number(high)? };
    if low > high {
        return Err(format!("{text:?} is empty: its first number is larger than its second"));
    }
    Ok(low..=high)
}

/// A range of guesses that a puzzle's count can fall in: guesses are
/// counted no further than [`MOST_GUESSES`].
fn parse_guesses(text: &str) -> Result<RangeInclusive<usize>, String> {
    let range = parse_range(text)?;
    if *range.start() > MOST_GUESSES {
        return Err(format!("guesses are counted up to {MOST_GUESSES}, so no puzzle has {}", range.start()));
    }
    Ok(range)
}

fn run_trace(input: Option<String>, trace: &trace::Trace, puzzle: &PuzzleArgs) -> Result<bool, String> {
    let rules = puzzle.rules()?;
    let parser = puzzle.parser();
    let source = match input {
        Some(input) => Source::from_argument(&input, parser)?,
        None if std::io::stdin().is_terminal() => {
            return Err("no puzzle given: pass a puzzle, a file, or `-` for stdin (see --help)".to_owned());
        }
        None => Source::Stdin,
    };
    let mut records = Records::new(source.open()?, Mode::Auto, parser);
    let text = loop {
        match records.next_record().map_err(|e| format!("{}: {e}", source.name()))? {
            None => return Err(format!("{}: no puzzle found", source.name())),
            Some(Record::Text { .. }) => {}
            Some(Record::Unreadable { line, column, reason, .. }) => {
                return Err(format!("{}:{line}:{column}: {reason}", source.name()));
            }
            Some(Record::Puzzle { line, text, .. }) => break (line, text),
        }
    };
    let (line, text) = text;
    let board = match &rules {
        Some(rules) => parser.parse_with_rules(&text, rules).map(|(board, _)| board),
        None => parser.parse_board(&text),
    };
    trace.run(&board.map_err(|e| format!("{}:{line}: {e}", source.name()))?)
}

/// `--turn`: the names of the turns ([`lazydoku::Turn::name`]), each one
/// listed in the help and a usage error otherwise.
fn turn_names() -> impl clap::builder::TypedValueParser<Value = lazydoku::Turn> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(lazydoku::Turn::ALL.map(lazydoku::Turn::name))
        .try_map(|name| lazydoku::Turn::from_name(&name).ok_or("not the name of a turn"))
}
