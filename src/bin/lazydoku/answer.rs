//! What each command answers for one puzzle.

use std::fmt::Write as _;

use lazydoku::format::{Layout, Parser};
use lazydoku::search::{self, Frontier};
use lazydoku::{Board, Children};

use crate::input::Record;

/// The search order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Order {
    /// Depth-first: memory grows with depth only.
    Dfs,
    /// Breadth-first, level by level (the Scala seed's order), within --max-frontier.
    Bfs,
    /// Best-first: the board with the fewest empty cells first.
    Best,
}

/// How answers are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One line of cells per board.
    Line,
    /// The grid with `|` and `------+------` separators.
    Grid,
    /// One JSON object per puzzle, on one line.
    Json,
}

/// What to compute.
#[derive(Clone, Copy, Debug)]
pub enum Task {
    Solve,
    Count(usize),
    All(Option<usize>),
    Check,
}

/// Everything the answer depends on besides the puzzle.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub task: Task,
    pub order: Order,
    pub max_frontier: usize,
    /// `None`: the format the puzzle came in.
    pub format: Option<Format>,
    pub parser: Parser,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Everything asked for was found.
    Found,
    /// The puzzle has no solution.
    NoSolution,
    /// The puzzle could not be read.
    Invalid,
    /// The search was stopped (the breadth-first frontier grew too large).
    Stopped,
}

/// One puzzle's answer: what goes to stdout, and what to report on stderr.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub line: usize,
    pub out: String,
    pub status: Status,
    /// Column (when known) and reason, for stderr.
    pub problem: Option<(Option<usize>, String)>,
}

pub fn answer(settings: &Settings, record: &Record) -> Outcome {
    let line = record.line();
    let text = match record {
        Record::Unreadable { column, reason, .. } => {
            return failure(settings, line, Status::Invalid, Some(*column), reason.clone());
        }
        Record::Puzzle { text, .. } => text,
    };
    // A bare line needs no layout: its solution is its own text.
    let parsed = if text.trim().contains(char::is_whitespace) || settings.parser != Parser::new() {
        settings.parser.parse(text).map(|(board, layout)| (board, Some(layout)))
    } else {
        settings.parser.parse_board(text).map(|board| (board, None))
    };
    let (board, layout) = match parsed {
        Ok(parsed) => parsed,
        Err(e) => {
            let (at_line, column) = e.position().map_or((line, None), |(l, c)| (line + l - 1, Some(c)));
            let mut outcome = failure(settings, line, Status::Invalid, column, e.reason());
            outcome.line = at_line;
            return outcome;
        }
    };
    let render = |b: &Board| render(settings.format, layout.as_ref(), b);
    let mut found = solutions(&board, settings.order, settings.max_frontier);
    let result: Result<(Status, String), String> = (|| match settings.task {
        Task::Solve => Ok(match found.next().transpose()? {
            Some(solution) => {
                (Status::Found, json_or(settings, line, "solved", &[("solution", quote(&solution))], render(&solution)))
            }
            None => (Status::NoSolution, json_or(settings, line, "none", &[], "no solution".to_owned())),
        }),
        Task::Count(limit) => {
            let n = count_up_to(&board, settings.order, &mut found, limit)?;
            let status = if n == 0 { Status::NoSolution } else { Status::Found };
            Ok((
                status,
                json_or(
                    settings,
                    line,
                    if n == 0 { "none" } else { "counted" },
                    &[("count", n.to_string())],
                    n.to_string(),
                ),
            ))
        }
        Task::Check => {
            let n = count_up_to(&board, settings.order, &mut found, 2)?;
            let verdict = ["none", "unique", "multiple"][n];
            let status = if n == 0 { Status::NoSolution } else { Status::Found };
            Ok((status, json_or(settings, line, verdict, &[], verdict.to_owned())))
        }
        Task::All(limit) => {
            let mut all = Vec::new();
            for solution in found.by_ref().take(limit.unwrap_or(usize::MAX)) {
                all.push(solution?);
            }
            if all.is_empty() {
                return Ok((Status::NoSolution, json_or(settings, line, "none", &[], "no solution".to_owned())));
            }
            let out = if settings.format == Some(Format::Json) {
                let list = all.iter().map(quote).collect::<Vec<_>>().join(",");
                json(line, "solved", &[("solutions", format!("[{list}]"))])
            } else {
                let rendered: Vec<String> = all.iter().map(render).collect();
                // Multi-line answers (grids, matrices) get a blank line between them.
                let gap = if rendered.iter().any(|r| r.contains('\n')) { "\n\n" } else { "\n" };
                rendered.join(gap)
            };
            Ok((Status::Found, out))
        }
    })();
    match result {
        Ok((status, out)) => {
            let problem = (status == Status::NoSolution).then(|| (None, "no solution".to_owned()));
            Outcome { line, out, status, problem }
        }
        Err(reason) => failure(settings, line, Status::Stopped, None, reason),
    }
}

/// How many solutions there are, up to `limit`, or why the search stopped.
/// Depth-first, the library counts without building the last cells of each
/// branch ([`Board::count_solutions`]); the other orders count what they find.
fn count_up_to(
    board: &Board,
    order: Order,
    found: &mut impl Iterator<Item = Result<Board, String>>,
    limit: usize,
) -> Result<usize, String> {
    if order == Order::Dfs {
        return Ok(board.count_solutions(limit));
    }
    found.take(limit).try_fold(0, |n, solution| solution.map(|_| n + 1))
}

fn failure(settings: &Settings, line: usize, status: Status, column: Option<usize>, reason: String) -> Outcome {
    let word = if status == Status::Invalid { "invalid" } else { "stopped" };
    let out = if settings.format == Some(Format::Json) {
        json(line, word, &[("error", quote_str(&reason))])
    } else {
        format!("{word}: {reason}")
    };
    Outcome { line, out, status, problem: Some((column, reason)) }
}

/// `text`, or the JSON object for it when JSON was asked for.
fn json_or(settings: &Settings, line: usize, status: &str, fields: &[(&str, String)], text: String) -> String {
    if settings.format == Some(Format::Json) { json(line, status, fields) } else { text }
}

fn json(line: usize, status: &str, fields: &[(&str, String)]) -> String {
    let mut out = format!("{{\"line\":{line},\"status\":\"{status}\"");
    for (key, value) in fields {
        let _ = write!(out, ",\"{key}\":{value}");
    }
    out.push('}');
    out
}

fn quote(board: &Board) -> String {
    format!("\"{}\"", board.as_str())
}

/// A JSON string literal.
fn quote_str(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

pub fn render(format: Option<Format>, layout: Option<&Layout>, board: &Board) -> String {
    match (format, layout) {
        (Some(Format::Grid), _) => format!("{board:#}").trim_end().to_owned(),
        (None, Some(layout)) => layout.render(board).trim_end().to_owned(),
        _ => board.as_str().to_owned(),
    }
}

/// The solutions in the chosen order; a breadth- or best-first search that
/// outgrows `max_frontier` yields one error and stops.
pub fn solutions(board: &Board, order: Order, max_frontier: usize) -> Box<dyn Iterator<Item = Result<Board, String>>> {
    let children: fn(&Board) -> Children = Board::children;
    match order {
        Order::Dfs => Box::new(board.solutions().map(Ok)),
        Order::Bfs => guarded(search::bfs(board.clone(), children), max_frontier, "breadth-first"),
        Order::Best => guarded(
            search::best_first(board.clone(), children, Board::empty_cells as fn(&Board) -> usize),
            max_frontier,
            "best-first",
        ),
    }
}

fn guarded<F>(
    mut search: search::Search<Board, Children, fn(&Board) -> Children, F>,
    max_frontier: usize,
    name: &'static str,
) -> Box<dyn Iterator<Item = Result<Board, String>>>
where
    F: Frontier<Children> + 'static,
{
    let mut stopped = false;
    Box::new(std::iter::from_fn(move || {
        if stopped {
            return None;
        }
        loop {
            if search.frontier().len() > max_frontier {
                stopped = true;
                return Some(Err(format!(
                    "the {name} frontier passed {max_frontier} boards; use --order dfs, or raise --max-frontier"
                )));
            }
            let board = search.next()?;
            if board.is_complete() {
                return Some(Ok(board));
            }
        }
    }))
}
