//! What each command answers for one puzzle.

use itertools::Itertools as _;
use std::borrow::Cow;
use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Instant;

use lazydoku::explain::{Ending, Explain, Step, Technique};
use lazydoku::format::{Layout, Parser};
use lazydoku::search::{self, Budget, Frontier};
use lazydoku::{Board, Children, Relation, Rules, Turn};

use crate::batch::Due;
use crate::input::{Piece, Record};
use lazydoku::format::LayoutKind;

/// The search order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Order {
    /// Depth-first: memory grows with depth only.
    Dfs,
    /// Breadth-first, level by level, within --max-memory.
    Bfs,
    /// Best-first: the board with the fewest empty cells first, within --max-memory.
    Best,
}

/// How answers are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One line of cells per board.
    Line,
    /// The grid with `|` and `------+------` separators.
    Grid,
    /// One JSON object per puzzle (per solution with `all`), on one line.
    Json,
    /// A link that opens the board, rules and all, in the f-puzzles editor.
    #[value(name = "f-puzzles")]
    FPuzzles,
}

/// What to compute.
#[derive(Clone, Copy, Debug)]
pub enum Task {
    /// One answer per puzzle.
    Answer(Question),
    /// Every solution, up to a limit, streamed as each is found.
    All(Option<usize>),
}

/// What the one answer per puzzle is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// The first solution.
    Solve,
    /// The number of solutions, up to a limit.
    Count(usize),
    /// None, unique or multiple.
    Check,
    /// Solutions, givens, guesses, hardest technique, score, level and
    /// canonical form.
    Rate,
    /// The first logical step.
    Hint,
    /// Every logical step, and how they end.
    Explain,
    /// The canonical form; with `unique`, puzzles equivalent to an
    /// earlier one are left out.
    Canon { unique: bool },
    /// An equivalent puzzle: the one turn, or a random equivalent drawn
    /// from `--seed` and the puzzle's line.
    Transform { seed: u64, turn: Option<Turn> },
}

/// The columns of `rate`'s CSV, written once before its rows.
pub const RATE_HEADER: &str = "puzzle,solutions,givens,guesses,hardest,score,level,canonical";

/// Everything the answer depends on besides the puzzle.
#[derive(Clone, Debug)]
pub struct Settings {
    pub task: Task,
    pub order: Order,
    /// The most memory a breadth- or best-first frontier may hold, in bytes.
    pub max_memory: u64,
    /// The work one puzzle may take.
    pub budget: Budget,
    /// `None`: the format the puzzle came in.
    pub format: Option<Format>,
    pub parser: Parser,
    /// Rules given on the command line (jigsaw, windoku, killer), which every
    /// puzzle is read with; `None`: each puzzle's shape is inferred.
    pub rules: Option<Rules>,
    /// No notes on stderr (errors are still reported).
    pub quiet: bool,
    /// The threads answering (`--jobs`), on whose pool each answer runs
    /// when there are several.
    pub jobs: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Everything asked for was found.
    Found,
    /// The puzzle has no solution.
    NoSolution,
    /// The puzzle could not be read.
    Invalid,
    /// The search was stopped: its budget was spent, or its frontier
    /// outgrew --max-memory.
    Stopped,
}

/// What to report on stderr: the line and column (when known) and why.
#[derive(Clone, Debug)]
pub struct Problem {
    pub line: usize,
    pub column: Option<usize>,
    pub reason: String,
}

/// One record's answer: what goes to stdout, and what to report on stderr.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The output, without its last line break; it may span lines, and
    /// `None` writes nothing (a comment line under JSON).
    pub out: Option<String>,
    /// `None` for a line passed through.
    pub status: Option<Status>,
    pub problem: Option<Problem>,
    /// What makes two outcomes the same for `canon --unique`: the
    /// canonical form, rules and all (boxed: most outcomes have none).
    pub key: Option<Box<Form>>,
    /// Whether the next outcome goes on with this one's last line, as the
    /// pieces of an array on one line do in the puzzles' own format.
    pub joined: bool,
}

/// Where a record came from, for JSON and for messages.
#[derive(Clone, Copy, Debug)]
pub struct Origin<'a> {
    pub file: Option<&'a str>,
}

/// A puzzle read, or the outcome that says why it could not be.
struct Puzzle {
    board: Board,
    layout: Option<Layout>,
    line: usize,
    lines: usize,
}

fn read(settings: &Settings, record: &Record<&str>, origin: Origin<'_>) -> Result<Puzzle, Outcome> {
    let (line, lines, text) = match record {
        Record::Text { text, .. } => {
            // JSON output is objects only, and CSV rows only: comments and
            // blank lines stay out. Answers that do not keep the puzzles'
            // layout stand a line each, without an array's brackets and
            // commas.
            let rows = matches!(settings.task, Task::Answer(Question::Rate));
            let own_line = keeps_layout(settings) || !record.piece().in_array;
            let out = (settings.format != Some(Format::Json) && !rows && own_line).then(|| (*text).to_owned());
            return Err(Outcome { out, status: None, problem: None, key: None, joined: false });
        }
        Record::Unreadable { line, lines, column, reason, .. } => {
            return Err(failure(settings, origin, *line, *lines, Status::Invalid, Some(*column), (*reason).to_owned()));
        }
        Record::Puzzle { line, lines, text, .. } => (*line, *lines, text),
    };
    // A bare line needs no layout: its solution is its own text. A JSON
    // object's answer is the object with its puzzle solved.
    let parsed = if let Some(rules) = &settings.rules {
        settings.parser.parse_with_rules(text, rules).map(|(board, layout)| (board, Some(layout)))
    } else if !is_bare_line(lines, text) || settings.parser != Parser::new() {
        settings.parser.parse(text).map(|(board, layout)| (board, Some(layout)))
    } else {
        settings.parser.parse_board(text).map(|board| (board, None))
    };
    match parsed {
        Ok((board, layout)) => Ok(Puzzle { board, layout, line, lines }),
        Err(e) => {
            // Columns on the first line count from the line's start, not
            // the record's (an object within an array on one line).
            let offset = |l: usize| if l == 1 { record.piece().offset } else { 0 };
            let (at_line, column) = e.position().map_or((line, None), |(l, c)| (line + l - 1, Some(c + offset(l))));
            let mut outcome = failure(settings, origin, line, lines, Status::Invalid, column, e.reason());
            if let Some(problem) = &mut outcome.problem {
                problem.line = at_line;
            }
            Err(outcome)
        }
    }
}

/// Whether a record of `lines` lines holding `text` is a bare line: one
/// line with no whitespace between its characters and no object, whose
/// answer needs no layout.
fn is_bare_line(lines: usize, text: &str) -> bool {
    lines == 1 && !has_inner_whitespace(text) && !text.trim_start().starts_with('{')
}

/// Whether whitespace separates the characters of `text`, as in a line of
/// digits in groups, which needs the full parser and its layout. Lines of
/// ASCII, nearly all of them, are scanned a byte at a time: decoding each
/// character took more than a tenth of the time of solving a 17-clue line.
fn has_inner_whitespace(text: &str) -> bool {
    let text = text.trim();
    if text.is_ascii() {
        // `char::is_whitespace` on ASCII: tab, LF, VT, FF, CR and space.
        // A byte at or below the space first, over the whole line at once
        // (a fold, which the compiler turns into wide compares): never
        // there on a line of digits and dots.
        #[expect(clippy::needless_bitwise_bool, reason = "`||` would stop early and scan a byte at a time")]
        let low = text.bytes().fold(false, |low, b| low | (b <= b' '));
        low && text.bytes().any(|b| b == b' ' || (b'\t'..=b'\r').contains(&b))
    } else {
        text.contains(char::is_whitespace)
    }
}

/// Whether the answers keep the layout of the input, each in its record's
/// place: the puzzles' own format, for the answers that stand where a
/// puzzle stood (a board, a count, a word). CSV rows and logical steps
/// stand a line each.
pub fn keeps_layout(settings: &Settings) -> bool {
    settings.format.is_none()
        && !matches!(settings.task, Task::Answer(Question::Rate | Question::Hint | Question::Explain))
}

/// Whether a record's answer goes on with the next one's on its line: a
/// piece of an array on one line, answered in its layout.
fn joined(settings: &Settings, record: &Record<&str>) -> bool {
    keeps_layout(settings) && record.piece().joined
}

/// `outcome` put in its record's place: joined to the next as the record
/// is, and, for a value of an array in its own format, after the blanks
/// that stood before it (a solution rendered in its layout has them
/// already; a count or an error does not). So that the answers make a
/// JSON array, an answer that is not a value where it stands becomes a
/// JSON string: in place of a string, anything but a count; in place of
/// an object, a word or an error (solved objects and counts are values as
/// they are). Blank lines that pad an answer to its object's lines stay
/// outside the string.
fn in_place(settings: &Settings, record: &Record<&str>, mut outcome: Outcome) -> Outcome {
    outcome.joined = joined(settings, record);
    let (text, piece) = match record {
        Record::Puzzle { text, piece, .. } => (*text, *piece),
        // An error that stands for a value of an array.
        Record::Unreadable { piece, .. } if piece.in_array => ("", *piece),
        // An error in an array's punctuation, mended.
        Record::Unreadable { piece, .. } => {
            if let Some(mend) = piece.mend.filter(|_| keeps_layout(settings)) {
                outcome.out = Some(mend.to_owned());
            }
            return outcome;
        }
        Record::Text { .. } => return outcome,
    };
    let Some(out) = outcome.out.as_mut().filter(|_| piece.in_array && keeps_layout(settings)) else {
        return outcome;
    };
    let blanks = &text[..text.len() - text.trim_start().len()];
    if !out.starts_with(blanks) {
        out.insert_str(0, blanks);
    }
    let answer = out.trim_start();
    // A count is a number. Anything else in place of a string is a string;
    // in place of an object, only a solved object is an object.
    let number = answer.starts_with(|c: char| c.is_ascii_digit());
    let is_value = if piece.quoted {
        number && matches!(settings.task, Task::Answer(Question::Count(_)))
    } else {
        number || answer.starts_with('{')
    };
    if !is_value {
        let start = out.len() - answer.len();
        let end = out[start..].find('\n').map_or(out.len(), |at| start + at);
        let quoted = quote_str(&out[start..end]);
        out.replace_range(start..end, &quoted);
    }
    if let Some(comma) = piece.mend {
        out.insert_str(0, comma);
    }
    outcome
}

/// The answer to `solve`, `count` and `check` for one record.
pub fn answer(settings: &Settings, question: Question, record: &Record<&str>, origin: Origin<'_>) -> Outcome {
    in_place(settings, record, answer_alone(settings, question, record, origin))
}

/// Whether `question` under `settings` answers a bare line as
/// [`answer_bare_line`] does: `solve`, `count` or `check`, depth-first, in
/// the puzzles' own format, read with the default parser and no rules from
/// the command line.
pub fn answers_bare_lines(settings: &Settings, question: Question) -> bool {
    matches!(question, Question::Solve | Question::Count(_) | Question::Check)
        && settings.order == Order::Dfs
        && settings.format.is_none()
        && settings.rules.is_none()
        && settings.parser == Parser::new()
}

/// The answer to a whole record of one line with no whitespace within it
/// (a bare line, nearly every record of a large input), where
/// [`answers_bare_lines`] holds: the answer's line written straight onto
/// the end of `out`, and the outcome that counts it and says what to
/// report, with no output of its own; or the outcome of a search stopped,
/// as [`answer`] gives it. `None` for any other record, and for a line that
/// does not parse, which [`answer`] then reads again to say why.
///
/// The general way builds a layout, a puzzle that holds it, and a string
/// for each answer, which the block then copies: a few percent of the time
/// of solving a million 17-clue lines on one job (docs/performance.md).
pub fn answer_bare_line(
    settings: &Settings,
    question: Question,
    record: &Record<&str>,
    origin: Origin<'_>,
    out: &mut String,
) -> Option<Outcome> {
    let Record::Puzzle { line, lines, text, piece } = *record else { return None };
    if piece != Piece::WHOLE || !is_bare_line(lines, text) {
        return None;
    }
    let board = settings.parser.parse_board(text).ok()?;
    let found = match question {
        Question::Solve => match board.solve_within(settings.budget) {
            (_, Some(stopped)) => Err(stopped.to_string()),
            (Some(solution), None) => {
                out.push_str(solution.as_str());
                Ok(true)
            }
            (None, None) => {
                out.push_str(NO_SOLUTION);
                Ok(false)
            }
        },
        Question::Count(limit) => match count_up_to(&board, settings, limit) {
            (n, Some(stopped)) => Err(stopped_counting(question, stopped, n)),
            (n, None) => {
                let _ = write!(out, "{n}");
                Ok(n > 0)
            }
        },
        Question::Check => match board.count_solutions_within(2, settings.budget) {
            (n, Some(stopped)) => Err(stopped_counting(question, stopped, n)),
            (n, None) => {
                out.push_str(verdict(n));
                Ok(n > 0)
            }
        },
        _ => return None,
    };
    Some(match found {
        Ok(any) => {
            out.push('\n');
            let status = if any { Status::Found } else { Status::NoSolution };
            Outcome { out: None, status: Some(status), problem: no_solution(status, line), key: None, joined: false }
        }
        Err(reason) => failure(settings, origin, line, lines, Status::Stopped, None, reason),
    })
}

/// What `solve` and `all` write for a puzzle with no solution.
const NO_SOLUTION: &str = "no solution";

/// The problem to report for an answer of `status` on `line`: a puzzle with
/// no solution is one.
fn no_solution(status: Status, line: usize) -> Option<Problem> {
    (status == Status::NoSolution).then(|| Problem { line, column: None, reason: NO_SOLUTION.to_owned() })
}

/// `check`'s word for `n` solutions counted to 2.
fn verdict(n: usize) -> &'static str {
    ["none", "unique", "multiple"][n.min(2)]
}

/// Why `count` or `check` stopped short, with the solutions it had.
fn stopped_counting(question: Question, reason: impl std::fmt::Display, n: usize) -> String {
    let verb = if matches!(question, Question::Check) { "found" } else { "counted" };
    format!("{reason} ({n} solutions {verb})")
}

/// [`answer`], before it is known whether it goes on with the next.
fn answer_alone(settings: &Settings, question: Question, record: &Record<&str>, origin: Origin<'_>) -> Outcome {
    let puzzle = match read(settings, record, origin) {
        Ok(puzzle) => puzzle,
        Err(outcome) => return outcome,
    };
    // Rules that f-puzzles cannot hold (only a JSON puzzle brings them)
    // leave no board to answer with in its format: said as for any
    // invalid puzzle, on stderr with the line and in the exit status.
    if settings.format == Some(Format::FPuzzles)
        && matches!(question, Question::Solve | Question::Canon { .. } | Question::Transform { .. })
    {
        if let Err(e) = lazydoku::format::f_puzzles_json(&puzzle.board) {
            return failure(settings, origin, puzzle.line, puzzle.lines, Status::Invalid, None, e.to_string());
        }
    }
    let found = match question {
        Question::Solve => solve(settings, &puzzle),
        Question::Count(limit) => count(settings, &puzzle, limit),
        Question::Check => check(settings, &puzzle),
        Question::Rate => Ok(rate(settings, &puzzle)),
        Question::Hint => Ok(hint(&puzzle)),
        Question::Explain => Ok(explain(settings, &puzzle)),
        Question::Canon { .. } => canon(settings, &puzzle),
        Question::Transform { seed, turn } => transform(settings, &puzzle, seed, turn),
    };
    let Answer { status, text, word, mut fields, key, holds_board } = match found {
        Ok(answer) => answer,
        // A board without a canonical form, or whose turned rules its
        // format cannot write, is not a search stopped short.
        Err(reason) if matches!(question, Question::Canon { .. } | Question::Transform { .. }) => {
            return failure(settings, origin, puzzle.line, puzzle.lines, Status::Invalid, None, reason);
        }
        Err(reason) => return failure(settings, origin, puzzle.line, puzzle.lines, Status::Stopped, None, reason),
    };
    let Puzzle { line, lines, .. } = puzzle;
    let out = if settings.format == Some(Format::Json) {
        if holds_board {
            fields.extend(rules_fields(&puzzle));
        }
        json(origin, line, word, &fields)
    } else {
        pad(text, lines)
    };
    let problem = no_solution(status, line);
    Outcome { out: Some(out), status: Some(status), problem, key, joined: false }
}

/// A canonical form as `canon --unique` keeps it: its text and what tells
/// its rules apart, as equal digits under other rules are another puzzle.
/// Not the rules themselves: puzzles that bring their own (a jigsaw map on
/// each line) would each keep a geometry of kilobytes for the rest of the
/// run. Classic rules are told apart by their shape; others by two 64-bit
/// hashes of everything their equality compares, drawn apart, so that two
/// forms of the same text are taken for one only where 128 bits of their
/// rules agree.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Form {
    text: String,
    shape: lazydoku::Shape,
    rules: Option<(u64, u64)>,
}

impl Form {
    fn of(board: &Board) -> Form {
        let rules = board.rules();
        let hashes = (!rules.is_classic()).then(|| {
            let hash = |salt: u8| {
                use std::hash::{Hash, Hasher};
                let mut hasher = std::hash::DefaultHasher::new();
                (salt, &rules).hash(&mut hasher);
                hasher.finish()
            };
            (hash(0), hash(1))
        });
        Form { text: board.as_str().to_owned(), shape: board.shape(), rules: hashes }
    }
}

/// One puzzle's answer, before it is written: its status, its text, and
/// the status word and fields of its JSON object.
struct Answer {
    status: Status,
    text: String,
    word: &'static str,
    fields: Vec<(&'static str, String)>,
    key: Option<Box<Form>>,
    /// Whether the JSON object holds a board of the puzzle (a solution,
    /// the puzzle, a step's cells), and so the rules the puzzle brought
    /// with it ([`rules_fields`]).
    holds_board: bool,
}

/// A solution ([`Board::solve_within`] depth-first; the first found in the
/// other orders); `Err` says why the search stopped short.
fn solve(settings: &Settings, puzzle: &Puzzle) -> Result<Answer, String> {
    let found = if settings.order == Order::Dfs {
        match puzzle.board.solve_within(settings.budget) {
            (_, Some(stopped)) => return Err(stopped.to_string()),
            (found, None) => found,
        }
    } else {
        solutions(&puzzle.board, settings).next().transpose()?
    };
    Ok(match found {
        Some(solution) => Answer {
            status: Status::Found,
            text: render(settings, puzzle.layout.as_ref(), &solution),
            word: "solved",
            // Built for JSON only: a string per puzzle otherwise thrown away.
            fields: if settings.format == Some(Format::Json) {
                vec![("solution", quote(settings, &solution))]
            } else {
                Vec::new()
            },
            key: None,
            holds_board: true,
        },
        None => Answer {
            status: Status::NoSolution,
            text: NO_SOLUTION.to_owned(),
            word: "none",
            fields: Vec::new(),
            key: None,
            holds_board: false,
        },
    })
}

/// The number of solutions up to `limit`.
fn count(settings: &Settings, puzzle: &Puzzle, limit: usize) -> Result<Answer, String> {
    let (n, stopped) = count_up_to(&puzzle.board, settings, limit);
    if let Some(reason) = stopped {
        return Err(stopped_counting(Question::Count(limit), reason, n));
    }
    let (status, word) = if n == 0 { (Status::NoSolution, "none") } else { (Status::Found, "counted") };
    Ok(Answer {
        status,
        text: n.to_string(),
        word,
        fields: vec![("count", n.to_string())],
        key: None,
        holds_board: false,
    })
}

/// None, unique or multiple.
fn check(settings: &Settings, puzzle: &Puzzle) -> Result<Answer, String> {
    let (n, stopped) = count_up_to(&puzzle.board, settings, 2);
    if let Some(reason) = stopped {
        return Err(stopped_counting(Question::Check, reason, n));
    }
    let word = verdict(n);
    let status = if n == 0 { Status::NoSolution } else { Status::Found };
    Ok(Answer { status, text: word.to_owned(), word, fields: Vec::new(), key: None, holds_board: false })
}

/// One CSV row (or JSON object) of ratings.
fn rate(settings: &Settings, puzzle: &Puzzle) -> Answer {
    let board = &puzzle.board;
    let rating = board.rate();
    let canonical = board.canonical();
    let givens = board.cells().flatten().count();
    let hardest = rating.hardest().map(Technique::name);
    let status = if rating.solutions() == 0 { Status::NoSolution } else { Status::Found };
    // Only the format that goes out is built.
    if settings.format == Some(Format::Json) {
        let fields = vec![
            ("puzzle", quote(settings, board)),
            ("solutions", rating.solutions().to_string()),
            ("givens", givens.to_string()),
            ("guesses", rating.guesses().to_string()),
            ("hardest", hardest.map_or_else(|| "null".to_owned(), quote_str)),
            ("score", rating.score().to_string()),
            ("level", quote_str(rating.level().name())),
            ("canonical", canonical.as_ref().map_or_else(|| "null".to_owned(), |c| quote(settings, c))),
        ];
        return Answer { status, text: String::new(), word: "rated", fields, key: None, holds_board: true };
    }
    // A puzzle with rules of its own is written as a line that reads back
    // with them, as the input could have been.
    let text = format!(
        "{},{},{givens},{},{},{},{},{}",
        csv_field(as_line(settings, puzzle.layout.as_ref(), board)),
        rating.solutions(),
        rating.guesses(),
        hardest.unwrap_or_default(),
        rating.score(),
        rating.level(),
        canonical.as_ref().map_or(String::new(), |c| symbols(settings, c.as_str())),
    );
    Answer { status, text, word: "rated", fields: Vec::new(), key: None, holds_board: true }
}

/// A step as a JSON object: technique, sentence, placements and eliminations.
fn step_json(step: &Step) -> String {
    // Written into one string: a puzzle's steps in JSON are some sixty of
    // these, and a string for each part cost more than finding the step.
    let pairs = |out: &mut String, key: &str, pairs: &mut dyn Iterator<Item = (usize, u8)>| {
        let _ = write!(out, ",\"{key}\":[");
        for (k, (cell, digit)) in pairs.enumerate() {
            let _ = write!(out, "{}[{cell},{digit}]", if k == 0 { "" } else { "," });
        }
        out.push(']');
    };
    let mut out = String::with_capacity(64 + step.sentence().len());
    out.push_str("{\"technique\":");
    push_quoted(&mut out, step.technique().name());
    out.push_str(",\"text\":");
    push_quoted(&mut out, step.sentence());
    pairs(&mut out, "placements", &mut step.placements());
    pairs(&mut out, "eliminations", &mut step.eliminations());
    out.push('}');
    out
}

/// What the end of the steps says, and its status.
fn ending(steps: &Explain, taken: usize) -> (Status, String) {
    match steps.ending() {
        Some(Ending::Solved) if taken == 0 => (Status::Found, "solved: every cell is filled".to_owned()),
        Some(Ending::Solved) => (Status::Found, format!("solved by logic in {taken} steps")),
        Some(Ending::Contradiction) => {
            (Status::NoSolution, "contradiction: the candidates leave no solution".to_owned())
        }
        Some(Ending::Stuck { empty }) => (
            Status::Found,
            format!("stuck after {taken} steps: no technique known here applies; {empty} cells are empty"),
        ),
        _ => (Status::Found, String::new()),
    }
}

/// The first logical step, or why there is none. In JSON, with the rules
/// the puzzle brought, as the cells a step names are cells of its regions
/// and cages.
fn hint(puzzle: &Puzzle) -> Answer {
    let mut steps = puzzle.board.explain();
    if let Some(step) = steps.next() {
        let fields = vec![("step", step_json(&step))];
        return Answer {
            status: Status::Found,
            text: step.to_string(),
            word: "hint",
            fields,
            key: None,
            holds_board: true,
        };
    }
    let (status, text) = ending(&steps, 0);
    let word = if status == Status::NoSolution { "none" } else { "no step" };
    let fields = vec![("ending", quote_str(&text))];
    Answer { status, text, word, fields, key: None, holds_board: true }
}

/// Every logical step, one per line, and how they end.
fn explain(settings: &Settings, puzzle: &Puzzle) -> Answer {
    // Each step is written in the one format that goes out: building the
    // other took as long as finding the steps.
    let json = settings.format == Some(Format::Json);
    let mut steps = puzzle.board.explain();
    let (mut text, mut objects, mut taken) = (String::new(), Vec::new(), 0);
    for step in steps.by_ref() {
        taken += 1;
        if json {
            objects.push(step_json(&step));
        } else {
            let _ = writeln!(text, "{taken}. {step}");
        }
    }
    let (status, end) = ending(&steps, taken);
    let fields = if json {
        vec![("steps", format!("[{}]", objects.join(","))), ("ending", quote_str(&end))]
    } else {
        Vec::new()
    };
    text.push_str(&end);
    Answer { status, text, word: "explained", fields, key: None, holds_board: true }
}

/// The canonical form, in the puzzle's own format.
fn canon(settings: &Settings, puzzle: &Puzzle) -> Result<Answer, String> {
    let (canonical, automorphisms) = puzzle
        .board
        .canonical_and_automorphisms()
        .ok_or("no canonical form: the search for it passed its bound of work (no puzzle seen needs a tenth of it)")?;
    // Puzzles that are turns of each other are one, their rules turned
    // too; classic rules (with diagonals or not) are kept by every turn.
    let key =
        if puzzle.board.rules().is_classic() { Some(canonical.clone()) } else { puzzle.board.canonical_with_rules() };
    Ok(Answer {
        status: Status::Found,
        text: render(settings, puzzle.layout.as_ref(), &canonical),
        word: "canonical",
        fields: vec![("canonical", quote(settings, &canonical)), ("automorphisms", automorphisms.to_string())],
        key: key.as_ref().map(|form| Box::new(Form::of(form))),
        holds_board: true,
    })
}

/// An equivalent puzzle, in the puzzle's own format: `turn`, or else the
/// random equivalent of `seed` mixed with the puzzle's line, so that each
/// line gets a draw of its own and a run is the same on every machine.
/// Rules that a turn moves (a jigsaw map, cages, lines) are written by
/// f-puzzles answers and by lines and grids that brought their own maps;
/// elsewhere the random draw keeps the rules, and a turn that moves them
/// is an error.
fn transform(settings: &Settings, puzzle: &Puzzle, seed: u64, turn: Option<Turn>) -> Result<Answer, String> {
    let seed = seed ^ (puzzle.line as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let board = turn.map_or_else(|| puzzle.board.transformed(seed), |turn| puzzle.board.turned(turn));
    let (board, text) = if settings.format == Some(Format::FPuzzles) || board.rules() == puzzle.board.rules() {
        let text = render(settings, puzzle.layout.as_ref(), &board);
        (board, text)
    } else if let Some(text) = with_own_maps(settings, puzzle, &board) {
        (board, text)
    } else if turn.is_none() {
        let board = puzzle.board.transformed_keeping_rules(seed);
        let text = render(settings, puzzle.layout.as_ref(), &board);
        (board, text)
    } else {
        return Err("the turn moves this puzzle's rules (regions, cages, lines or marks), which its format cannot write with it (a line or a grid writes its own maps; --format f-puzzles writes every rule); a turn that keeps them writes any format".to_owned());
    };
    Ok(Answer {
        status: Status::Found,
        text,
        word: "transformed",
        fields: vec![("transformed", quote(settings, &board))],
        key: None,
        holds_board: true,
    })
}

/// `board`, an equivalent of `puzzle` whose rules moved, on a line or as a
/// grid with the maps and rule names the puzzle brought, as `generate`
/// writes them; `None` unless the puzzle came that way and the text reads
/// back as `board`, rules and all (rules given on the command line, or
/// any the maps do not hold, are not written there).
fn with_own_maps(settings: &Settings, puzzle: &Puzzle, board: &Board) -> Option<String> {
    let layout = puzzle.layout.as_ref()?;
    let format = match (settings.format, layout.kind()) {
        (Some(Format::Line), _) | (None, LayoutKind::Line) => Format::Line,
        (Some(Format::Grid), _) | (None, LayoutKind::Grid) => Format::Grid,
        _ => return None,
    };
    if settings.rules.is_some() {
        return None;
    }
    let extras = crate::generate::Extras {
        regions: layout.region_map().is_some(),
        cages: layout.cage_map().is_some(),
        parity: layout.parity_map().is_some(),
        hex: settings.parser.is_hex(),
        names: layout.rule_names().map(str::to_owned),
        source: None,
    };
    let text = crate::generate::render(board, 0, format, &extras);
    let (read_back, _) = settings.parser.parse(&text).ok()?;
    if read_back != *board {
        return None;
    }
    let text = text.trim_end();
    // A one-line puzzle's trailing comment follows its cells and rules: a
    // token each, and one more for each cage's sum.
    let comment = (layout.kind() == LayoutKind::Line && format == Format::Line)
        .then(|| {
            let tokens = 1
                + usize::from(extras.regions)
                + if extras.cages { 1 + puzzle.board.rules().cages().count() } else { 0 }
                + usize::from(extras.parity)
                + usize::from(extras.names.is_some());
            after_tokens(&layout.render(&puzzle.board), tokens).to_owned()
        })
        .filter(|comment| !comment.is_empty());
    Some(comment.map_or_else(|| text.to_owned(), |comment| format!("{text} {comment}")))
}

/// What follows the first `count` tokens (apart by white space) of `line`,
/// from the next token on.
fn after_tokens(line: &str, count: usize) -> &str {
    let mut rest = line.trim_start();
    for _ in 0..count {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        rest = rest[end..].trim_start();
    }
    rest.trim_end()
}

/// How `all` writes one puzzle's solutions, owned so that each thread of a
/// search on several threads can hold it.
struct SolutionText {
    settings: Settings,
    layout: Option<Layout>,
    /// The puzzle's rules as JSON fields, the same for every solution.
    rules: Vec<(&'static str, String)>,
    file: Option<String>,
    line: usize,
    /// What goes between the solutions of an object of a JSON array,
    /// written in the array's own format: they are objects of the array
    /// too, apart by commas, a line each unless the object shares its line.
    between_elements: Option<&'static str>,
    /// The solutions are strings of a JSON array, quoted.
    quoted: bool,
    /// A bare line's solutions are their boards' own text, passed on as it
    /// is: a string built for each was a tenth of the time of writing a
    /// million of them.
    own_text: bool,
    /// When the search began: a first solution that took long since then
    /// is written at once.
    started: Instant,
}

impl SolutionText {
    fn text<'b>(&self, solution: &'b Board) -> Cow<'b, str> {
        let settings = &self.settings;
        if self.own_text {
            Cow::Borrowed(solution.as_str())
        } else if settings.format == Some(Format::Json) {
            let fields: Vec<_> =
                std::iter::once(("solution", quote(settings, solution))).chain(self.rules.clone()).collect();
            json(Origin { file: self.file.as_deref() }, self.line, "solution", &fields).into()
        } else if self.quoted {
            quote_str(&render(settings, self.layout.as_ref(), solution)).into()
        } else {
            render(settings, self.layout.as_ref(), solution).into()
        }
    }

    /// What goes before a solution written as `text`, but the first.
    fn between(&self, text: &str) -> &'static str {
        match self.between_elements {
            Some(between) => between,
            // Multi-line answers (grids, matrices) get a blank line between them.
            None if text.contains('\n') => "\n\n",
            None => "\n",
        }
    }

    /// Adds `solution` to `batch`, each solution after what goes before
    /// it; `true` when the batch is due.
    fn add(&self, batch: &mut TextBatch, solution: &Board) -> bool {
        let text = self.text(solution);
        let between = self.between(&text);
        if batch.ends.is_empty() {
            batch.first_between = between.len();
        }
        batch.text.push_str(between);
        batch.text.push_str(&text);
        batch.ends.push(batch.text.len());
        batch.is_due(self.started)
    }
}

/// Solutions' text built by one of the threads of `all` on one puzzle.
#[derive(Default)]
struct TextBatch {
    text: String,
    /// Where each solution's text ends.
    ends: Vec<usize>,
    /// The length of what goes before the first solution, left out when
    /// it is the puzzle's first.
    first_between: usize,
    /// When the batch is due, from its first solution on.
    due: Option<Due>,
}

thread_local! {
    /// When this thread's last batch under `all` was due: a batch's first
    /// solution has waited since then (or since the search began), for
    /// all the batch knows.
    static LAST_DUE: std::cell::Cell<Option<Instant>> = const { std::cell::Cell::new(None) };
}

impl TextBatch {
    /// Whether the batch is due, as [`Due`] has it, now that it holds
    /// one more solution: a first solution that took long to find is due
    /// at once.
    fn is_due(&mut self, started: Instant) -> bool {
        let due = self.due.get_or_insert_with(|| Due::since(LAST_DUE.get().map_or(started, |last| last.max(started))));
        let Some(now) = due.piece(self.text.len()) else { return false };
        LAST_DUE.set(Some(now));
        true
    }
}

/// Whether `all` may search a puzzle on `threads` threads: depth-first,
/// the order the threads keep, and with no budget, which a search on
/// several threads does not share.
pub fn all_on_threads(settings: &Settings, threads: usize) -> bool {
    threads > 1
        && settings.order == Order::Dfs
        && settings.budget.node_limit().is_none()
        && settings.budget.time_limit().is_none()
}

/// `all` for one record: each solution goes to `emit` as soon as the search
/// finds it (`emit` says `false` when the output is gone, and the search
/// stops), with the line breaks and commas that go between solutions and
/// after the last. The outcome that comes back holds what is left to
/// write: nothing after solutions, or the one line that says why there are
/// none.
///
/// With `threads` above one, where [`all_on_threads`] allows, the
/// solutions are found on that many threads, in the same order
/// ([`Board::par_solutions_in_order`]), and written by them in batches.
pub fn stream_all(
    settings: &Settings,
    record: &Record<&str>,
    origin: Origin<'_>,
    limit: Option<usize>,
    threads: usize,
    emit: &mut dyn FnMut(&str) -> bool,
) -> Outcome {
    let joined = joined(settings, record);
    let puzzle = match read(settings, record, origin) {
        Ok(puzzle) => puzzle,
        Err(outcome) => return in_place(settings, record, outcome),
    };
    let Puzzle { board, layout, line, lines } = &puzzle;
    let piece = record.piece();
    // An object of an array, in its own format.
    let element = keeps_layout(settings) && piece.in_array;
    let writer = Arc::new(SolutionText {
        settings: settings.clone(),
        layout: layout.clone(),
        rules: if settings.format == Some(Format::Json) { rules_fields(&puzzle) } else { Vec::new() },
        file: origin.file.map(str::to_owned),
        line: *line,
        between_elements: element.then_some(if piece.offset == 0 { ",\n" } else { "," }),
        quoted: element && piece.quoted,
        own_text: settings.format.is_none() && layout.is_none() && !settings.parser.is_hex() && !element,
        started: Instant::now(),
    });
    let limit = limit.unwrap_or(usize::MAX);
    let mut found = 0usize;
    let gone = Outcome { out: None, status: Some(Status::Found), problem: None, key: None, joined };
    // Writes one more solution; `false` once the output is gone.
    let mut write = |solution: &Board, found: usize| {
        let text = writer.text(solution);
        // The separator goes first, as a piece of its own: put in front of
        // the solution's text, it moved the whole text.
        (found == 0 || emit(writer.between(&text))) && emit(&text)
    };
    let stopped = if all_on_threads(settings, threads) {
        let add = {
            let writer = Arc::clone(&writer);
            move |batch: &mut TextBatch, solution: Board| writer.add(batch, &solution)
        };
        for (batch, count) in board.par_solutions_in_order(threads, add) {
            let taken = count.min(limit - found);
            let start = if found == 0 { batch.first_between } else { 0 };
            if !emit(&batch.text[start..batch.ends[taken - 1]]) {
                return gone;
            }
            found += taken;
            if found == limit {
                break;
            }
        }
        None
    } else if settings.order == Order::Dfs {
        // The library's walk itself rather than `solutions`' boxed results:
        // each board moved once less, and the walk inlined here.
        let mut walk = board.solutions().within(settings.budget);
        while found < limit {
            let Some(solution) = walk.next() else { break };
            if !write(&solution, found) {
                return gone;
            }
            found += 1;
        }
        walk.exhausted().filter(|_| found < limit).map(|e| e.to_string())
    } else {
        let mut stopped = None;
        for solution in solutions(board, settings).take(limit) {
            match solution {
                Ok(solution) if write(&solution, found) => found += 1,
                Ok(_) => return gone,
                Err(reason) => stopped = Some(reason),
            }
        }
        stopped
    };
    if let Some(reason) = stopped {
        let reason = format!("{reason} ({found} solutions written)");
        if found > 0 {
            emit(writer.between(""));
        }
        let stopped = failure(settings, origin, *line, *lines, Status::Stopped, None, reason);
        return in_place(settings, record, stopped);
    }
    if found == 0 {
        let out = if settings.format == Some(Format::Json) {
            json(origin, *line, "none", &[])
        } else {
            pad(NO_SOLUTION.to_owned(), *lines)
        };
        let problem = no_solution(Status::NoSolution, *line);
        let none = Outcome { out: Some(out), status: Some(Status::NoSolution), problem, key: None, joined };
        return in_place(settings, record, none);
    }
    if !joined {
        emit("\n");
    }
    Outcome { out: None, status: Some(Status::Found), problem: None, key: None, joined }
}

/// Counts to this limit or more are shared among the jobs.
const SHARED_COUNT_FROM: usize = 10_000;

/// Whether a depth-first count to `limit` is shared among the jobs'
/// threads ([`Board::par_count_solutions`], on the pool the answer runs
/// on): with several jobs, a large limit and no budget (the shared count
/// has none). Beyond classic 9x9 rules, clause learning races the shared
/// count there as it takes turns with the count on one core.
fn shares_count(settings: &Settings, limit: usize) -> bool {
    settings.jobs > 1
        && limit >= SHARED_COUNT_FROM
        && settings.budget.node_limit().is_none()
        && settings.budget.time_limit().is_none()
}

/// How many solutions there are, up to `limit`, and why the count stopped
/// short if it did. Depth-first, the library counts without building the last
/// cells of each branch ([`Board::count_solutions_within`]); the other
/// orders count what they find.
fn count_up_to(board: &Board, settings: &Settings, limit: usize) -> (usize, Option<String>) {
    if settings.order == Order::Dfs && shares_count(settings, limit) {
        return (board.par_count_solutions(limit), None);
    }
    if settings.order == Order::Dfs {
        let (n, stopped) = board.count_solutions_within(limit, settings.budget);
        return (n, stopped.map(|e| e.to_string()));
    }
    let mut n = 0;
    for solution in solutions(board, settings).take(limit) {
        match solution {
            Ok(_) => n += 1,
            Err(reason) => return (n, Some(reason)),
        }
    }
    (n, None)
}

/// One line with `text`, followed by empty lines up to `lines`, so that a
/// multi-line puzzle's answer takes as many lines as the puzzle did.
fn pad(mut text: String, lines: usize) -> String {
    if lines <= 1 {
        return text;
    }
    let have = text.lines().count().max(1);
    for _ in have..lines {
        text.push('\n');
    }
    text
}

fn failure(
    settings: &Settings,
    origin: Origin<'_>,
    line: usize,
    lines: usize,
    status: Status,
    column: Option<usize>,
    reason: String,
) -> Outcome {
    let word = if status == Status::Invalid { "invalid" } else { "stopped" };
    let out = if settings.format == Some(Format::Json) {
        json(origin, line, word, &[("error", quote_str(&reason))])
    } else {
        pad(format!("{word}: {reason}"), lines)
    };
    Outcome {
        out: Some(out),
        status: Some(status),
        problem: Some(Problem { line, column, reason }),
        key: None,
        joined: false,
    }
}

fn json(origin: Origin<'_>, line: usize, status: &str, fields: &[(&str, String)]) -> String {
    let file = origin.file.map_or_else(|| "null".to_owned(), quote_str);
    let mut out = format!("{{\"file\":{file},\"line\":{line},\"status\":\"{status}\"");
    for (key, value) in fields {
        let _ = write!(out, ",\"{key}\":{value}");
    }
    out.push('}');
    out
}

fn quote(settings: &Settings, board: &Board) -> String {
    format!("\"{}\"", symbols(settings, board.as_str()))
}

/// A JSON string literal.
fn quote_str(text: &str) -> String {
    let mut out = String::new();
    push_quoted(&mut out, text);
    out
}

/// Writes `text` as a JSON string literal at the end of `out`: runs of
/// characters that need no escape are copied whole.
fn push_quoted(out: &mut String, text: &str) {
    out.reserve(text.len() + 2);
    out.push('"');
    let mut rest = text;
    while let Some(at) = rest.find(|c: char| c == '"' || c == '\\' || c < ' ') {
        out.push_str(&rest[..at]);
        // Each character escaped is ASCII, one byte.
        match rest.as_bytes()[at] {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            control => {
                let _ = write!(out, "\\u{control:04x}");
            }
        }
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
    out.push('"');
}

/// A board's text in the symbols the input used: 1-9 then A-P, or 0-F for
/// 16x16 boards read with `--hex`.
fn symbols(settings: &Settings, text: &str) -> String {
    if settings.parser.is_hex() { hexadecimal(text) } else { text.to_owned() }
}

/// A 16x16 board's text in the 0-F convention.
pub fn hexadecimal(text: &str) -> String {
    text.chars()
        .map(|c| match c.to_digit(36) {
            // 1-9 then A-G are the digits 1 to 16: one less, in hexadecimal.
            Some(digit @ 1..=16) => char::from_digit(digit - 1, 16).map_or(c, |h| h.to_ascii_uppercase()),
            _ => c,
        })
        .collect()
}

/// `board` in the format asked for, or as its puzzle was written. The
/// rules a puzzle brought with it go with it into any format that can
/// carry them, as `generate` writes them: after the line (the named ones
/// as `rules:NAMES`), or on `regions`, `cages` and `rules` lines under the
/// grid.
pub fn render(settings: &Settings, layout: Option<&Layout>, board: &Board) -> String {
    if matches!(settings.format, Some(Format::Line | Format::Grid)) && !settings.quiet {
        note_rules_left_out(layout);
    }
    match (settings.format, layout) {
        (Some(Format::Grid), _) => {
            let below = own_maps(layout).map(|(word, map)| format!("\n{word} {map}"));
            std::iter::once(symbols(settings, format!("{board:#}").trim_end())).chain(below).collect()
        }
        (Some(Format::FPuzzles), _) => f_puzzles_link(board),
        (None, Some(layout)) => layout.render(board).trim_end().to_owned(),
        _ => as_line(settings, layout, board),
    }
}

/// The f-puzzles link of `board`, or in its place the rule that f-puzzles
/// cannot hold (a relation other than its dots and marks, digits allowed
/// other than even or odd ones), which only rules read from JSON can have.
/// `solve` and `canon` refuse such a puzzle before it is answered; `all`
/// writes this in place of each board.
pub fn f_puzzles_link(board: &Board) -> String {
    lazydoku::format::f_puzzles_link(board).unwrap_or_else(|e| format!("invalid: {e}"))
}

/// Says once on stderr that a JSON puzzle's extra regions and groups of
/// distinct digits are left out of line and grid answers, which have no
/// way to write them, so that nothing is dropped without a word.
pub fn note_rules_left_out(layout: Option<&Layout>) {
    static NOTED: std::sync::Once = std::sync::Once::new();
    let brought = |layout: &Layout| {
        !layout.extra_regions().is_empty()
            || !layout.distinct_groups().is_empty()
            || !layout.thermometers().is_empty()
            || !layout.relations().is_empty()
            || !layout.sums().is_empty()
            || !layout.arrows().is_empty()
            || !layout.sandwiches().is_empty()
            || !layout.x_sums().is_empty()
            || !layout.skyscrapers().is_empty()
            || !layout.between_lines().is_empty()
            || !layout.quadruples().is_empty()
            || !layout.renbans().is_empty()
            || !layout.region_sum_lines().is_empty()
            || !layout.zipper_lines().is_empty()
            || !layout.double_arrows().is_empty()
            || !layout.entropic_lines().is_empty()
            || !layout.modular_lines().is_empty()
    };
    if layout.is_some_and(brought) {
        NOTED.call_once(|| {
            eprintln!(
                "lazydoku: note: line and grid answers have no way to write a JSON puzzle's `extra_regions`, \
                 `distinct_groups`, `thermometers`, `relations`, `sums`, `arrows`, `sandwiches`, `x_sums`, `skyscrapers`, `between_lines`, `quadruples`, `renbans`, `region_sum_lines`, `zipper_lines`, `double_arrows`, `entropic_lines` and `modular_lines`, and are written without them (the puzzle's own \
                 format and --format json keep them)"
            );
        });
    }
}

/// `board` on one line, with its puzzle's own rules after it.
fn as_line(settings: &Settings, layout: Option<&Layout>, board: &Board) -> String {
    let mut line = symbols(settings, board.as_str());
    for (word, map) in own_maps(layout) {
        line.push(' ');
        if matches!(word, "rules" | "parity") {
            line.push_str(word);
            line.push(':');
        }
        line.push_str(map);
    }
    line
}

/// The maps and rule names a puzzle brought with it, each with the word
/// that starts its line under a grid.
fn own_maps(layout: Option<&Layout>) -> impl Iterator<Item = (&'static str, &str)> {
    layout.into_iter().flat_map(|layout| {
        [
            ("regions", layout.region_map()),
            ("cages", layout.cage_map()),
            ("parity", layout.parity_map()),
            ("rules", layout.rule_names()),
        ]
        .into_iter()
        .filter_map(|(w, m)| Some((w, m?)))
    })
}

/// The JSON members for the rules a puzzle brought with it: `regions`,
/// the region map as written; `cages`, each cage's sum and cells (as
/// `generate --format json` writes them, and `--cages` reads them); a JSON
/// object's `extra_regions`, `distinct_groups`, `thermometers`,
/// `relations`, `sums`, `arrows`, `sandwiches`, `x_sums`, `skyscrapers`,
/// `between_lines`,
/// `quadruples`, `renbans`, `region_sum_lines`, `zipper_lines`,
/// `double_arrows`, `entropic_lines`, `modular_lines`, `even` and `odd`;
/// and `rules`, the names.
fn rules_fields(puzzle: &Puzzle) -> Vec<(&'static str, String)> {
    puzzle.layout.as_ref().map_or_else(Vec::new, |layout| layout_fields(&puzzle.board, layout))
}

/// The JSON members of [`rules_fields`] for `board` read with `layout`.
pub fn layout_fields(board: &Board, layout: &Layout) -> Vec<(&'static str, String)> {
    let regions = layout.region_map().map(|map| ("regions", quote_str(map)));
    let cages = layout.cage_map().map(|_| ("cages", cages_json(&board.rules())));
    let names = layout.rule_names().map(|names| ("rules", names_json(names)));
    let cell_lists = |lists: &[Vec<usize>]| {
        format!("[{}]", lists.iter().map(|cells| format!("[{}]", cells.iter().join(","))).join(","))
    };
    let extra = (!layout.extra_regions().is_empty()).then(|| ("extra_regions", cell_lists(layout.extra_regions())));
    let groups =
        (!layout.distinct_groups().is_empty()).then(|| ("distinct_groups", cell_lists(layout.distinct_groups())));
    let thermometers = (!layout.thermometers().is_empty()).then(|| ("thermometers", cell_lists(layout.thermometers())));
    let relations = (!layout.relations().is_empty()).then(|| ("relations", relations_json(layout.relations())));
    let cells = |cells: &[usize]| format!("[{}]", cells.iter().join(","));
    let sum_lists = |list: &[(usize, Vec<usize>)]| {
        let objects = list.iter().map(|(sum, list)| format!("{{\"sum\":{sum},\"cells\":{}}}", cells(list)));
        format!("[{}]", objects.format(","))
    };
    let sums = (!layout.sums().is_empty()).then(|| ("sums", sum_lists(layout.sums())));
    let sandwiches = (!layout.sandwiches().is_empty()).then(|| ("sandwiches", sum_lists(layout.sandwiches())));
    let x_sums = (!layout.x_sums().is_empty()).then(|| ("x_sums", sum_lists(layout.x_sums())));
    let skyscrapers = (!layout.skyscrapers().is_empty()).then(|| {
        let objects =
            layout.skyscrapers().iter().map(|(seen, list)| format!("{{\"clue\":{seen},\"cells\":{}}}", cells(list)));
        ("skyscrapers", format!("[{}]", objects.format(",")))
    });
    let between = (!layout.between_lines().is_empty()).then(|| ("between_lines", cell_lists(layout.between_lines())));
    let lines = [
        ("renbans", layout.renbans()),
        ("region_sum_lines", layout.region_sum_lines()),
        ("zipper_lines", layout.zipper_lines()),
        ("double_arrows", layout.double_arrows()),
        ("entropic_lines", layout.entropic_lines()),
        ("modular_lines", layout.modular_lines()),
    ];
    let lines = lines.into_iter().filter(|(_, lines)| !lines.is_empty()).map(|(name, lines)| (name, cell_lists(lines)));
    let quadruples = (!layout.quadruples().is_empty()).then(|| {
        let objects = layout
            .quadruples()
            .iter()
            .map(|(list, digits)| format!("{{\"cells\":{},\"digits\":[{}]}}", cells(list), digits.iter().join(",")));
        ("quadruples", format!("[{}]", objects.format(",")))
    });
    let arrows = (!layout.arrows().is_empty()).then(|| {
        let objects = layout
            .arrows()
            .iter()
            .map(|(circle, shaft)| format!("{{\"circle\":{},\"shaft\":{}}}", cells(circle), cells(shaft)));
        ("arrows", format!("[{}]", objects.format(",")))
    });
    let even = layout.even().map(|list| ("even", cells(list)));
    let odd = layout.odd().map(|list| ("odd", cells(list)));
    // A parity map read after a line or under a grid, as the two lists.
    let (even, odd) = match layout.parity_map() {
        Some(map) if even.is_none() && odd.is_none() => {
            let (even, odd) = parity_cells(map);
            (Some(("even", cells(&even))), Some(("odd", cells(&odd))))
        }
        _ => (even, odd),
    };
    regions
        .into_iter()
        .chain(cages)
        .chain(extra)
        .chain(groups)
        .chain(thermometers)
        .chain(relations)
        .chain(sums)
        .chain(arrows)
        .chain(sandwiches)
        .chain(x_sums)
        .chain(skyscrapers)
        .chain(between)
        .chain(quadruples)
        .chain(lines)
        .chain(even)
        .chain(odd)
        .chain(names)
        .collect()
}

/// The even and odd cells of a parity map (`e`, `o` or `.` per cell, white
/// space skipped), in order.
fn parity_cells(map: &str) -> (Vec<usize>, Vec<usize>) {
    let marks = map.chars().filter(|c| !c.is_whitespace());
    let (mut even, mut odd) = (Vec::new(), Vec::new());
    for (cell, mark) in marks.enumerate() {
        match mark {
            'e' | 'E' => even.push(cell),
            'o' | 'O' => odd.push(cell),
            _ => {}
        }
    }
    (even, odd)
}

/// A parity map as the JSON members `"even":[...],"odd":[...]`, each after
/// a comma, as `generate --format json` writes them.
pub fn parity_json(map: &str) -> String {
    let (even, odd) = parity_cells(map);
    format!(",\"even\":[{}],\"odd\":[{}]", even.iter().join(","), odd.iter().join(","))
}

/// Relations between cells as a JSON array of
/// `{"cells":[a,b],"relation":NAME}`, with a `value` where the relation
/// carries one (two digits for `index`).
fn relations_json(relations: &[(usize, Relation, usize)]) -> String {
    let objects = relations.iter().map(|&(first, relation, second)| {
        let value = match (relation.value(), relation.digits()) {
            (Some(k), _) => format!(",\"value\":{k}"),
            (None, Some((v, d))) => format!(",\"value\":[{v},{d}]"),
            (None, None) => String::new(),
        };
        format!("{{\"cells\":[{first},{second}],\"relation\":\"{}\"{value}}}", relation.name())
    });
    format!("[{}]", objects.format(","))
}

/// Rule names apart by commas as a JSON array of strings.
pub fn names_json(names: &str) -> String {
    format!("[{}]", names.split(',').map(quote_str).format(","))
}

/// The killer cages of `rules` as a JSON array of `{"sum":N,"cells":[...]}`.
pub fn cages_json(rules: &Rules) -> String {
    let cages = rules.cages().map(|(sum, cells)| format!("{{\"sum\":{sum},\"cells\":[{}]}}", cells.iter().join(",")));
    format!("[{}]", cages.format(","))
}

/// A CSV field: quoted when it holds a comma, a quote or a line break.
fn csv_field(text: String) -> String {
    if text.contains([',', '"', '\n', '\r']) { format!("\"{}\"", text.replace('"', "\"\"")) } else { text }
}

/// The solutions in the chosen order, within the budget; a search that runs
/// out of budget, or a breadth- or best-first one whose frontier outgrows
/// `max_memory`, yields one error and stops.
pub fn solutions(board: &Board, settings: &Settings) -> Box<dyn Iterator<Item = Result<Board, String>>> {
    let children: fn(&Board) -> Children = Board::children;
    // A frontier entry holds a board and its child iterator's state.
    let max_entries = || {
        let entry = u64::try_from(size_of::<Children>() + board.size_in_bytes()).unwrap_or(u64::MAX);
        usize::try_from(settings.max_memory / entry.max(1)).unwrap_or(usize::MAX)
    };
    match settings.order {
        Order::Dfs => {
            let mut solutions = board.solutions().within(settings.budget);
            let mut done = false;
            Box::new(std::iter::from_fn(move || {
                if done {
                    return None;
                }
                let next = solutions.next();
                if next.is_none() {
                    done = true;
                    return solutions.exhausted().map(|e| Err(e.to_string()));
                }
                next.map(Ok)
            }))
        }
        Order::Bfs => guarded(search::bfs(board.clone(), children), settings, max_entries(), "breadth-first"),
        Order::Best => guarded(
            search::best_first(board.clone(), children, Board::empty_cells as fn(&Board) -> usize),
            settings,
            max_entries(),
            "best-first",
        ),
    }
}

fn guarded<F>(
    search: search::Search<Board, Children, fn(&Board) -> Children, F>,
    settings: &Settings,
    max_entries: usize,
    name: &'static str,
) -> Box<dyn Iterator<Item = Result<Board, String>>>
where
    F: Frontier<Children> + 'static,
{
    let mut stopped = false;
    let max_memory = settings.max_memory;
    let mut search = search.within(settings.budget);
    Box::new(std::iter::from_fn(move || {
        if stopped {
            return None;
        }
        loop {
            let Some(board) = search.next() else {
                stopped = true;
                return search.exhausted().map(|e| Err(e.to_string()));
            };
            if board.is_complete() {
                return Some(Ok(board));
            }
            if search.get_ref().frontier().len() > max_entries {
                stopped = true;
                return Some(Err(format!(
                    "the {name} frontier passed {max_memory} bytes; use --order dfs, or raise --max-memory"
                )));
            }
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::STREAM_BYTES;
    use std::time::Duration;

    fn settings(budget: Budget) -> Settings {
        Settings {
            task: Task::Answer(Question::Solve),
            order: Order::Dfs,
            max_memory: u64::MAX,
            budget,
            format: None,
            parser: Parser::new(),
            rules: None,
            quiet: true,
            jobs: 1,
        }
    }

    /// What a block holds after an outcome, and what it counts and
    /// reports, as one string.
    fn written(before: &str, outcome: &Outcome) -> String {
        assert!(!outcome.joined);
        let out = outcome.out.as_ref().map(|out| format!("{out}\n"));
        format!("{before}{}|{:?}|{:?}", out.unwrap_or_default(), outcome.status, outcome.problem)
    }

    /// A bare line answered straight into the block reads as the general
    /// way's answer, to `solve`, `count` and `check`: lines of every size
    /// with one solution or several, lines with none, searches stopped by
    /// a budget. Lines the quick way leaves (objects, digits in groups,
    /// pieces of arrays, lines that do not parse) are left whole to the
    /// general way.
    #[test]
    fn bare_lines_answered_straight_into_the_block_read_as_answers() {
        let files = [
            include_str!("../../../data/puzzles2_17_clue"),
            include_str!("../../../data/puzzles5_forum_hardest_1905_11+"),
            include_str!("../../../data/puzzles7_serg_benchmark"),
            include_str!("../../../data/hard16.txt"),
            include_str!("../../../data/hard25.txt"),
        ];
        // The 16x16 and 25x25 lines have comments after them: the general
        // way reads them, and the quick way their first words.
        let taken = files.iter().flat_map(|text| text.lines().filter(|l| !l.starts_with('#')).take(40));
        let first_words = taken.clone().filter_map(|l| l.split_whitespace().next());
        // A line that does not parse, and one with no solution.
        let clash = format!("11{}", ".".repeat(79));
        let no_solution = format!("12345678.........9{}", ".".repeat(63));
        let seventeen = "  .................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...\t";
        let object =
            r#" {"puzzle": ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."}"#;
        let odd = ["1234", "12 34 21 43", "x".repeat(81).leak(), ".".repeat(80).leak(), seventeen, object];
        let lines: Vec<&str> =
            taken.chain(first_words).chain([clash.as_str(), no_solution.as_str()]).chain(odd).collect();
        let (mut quick_lines, mut general_lines, mut no_solutions, mut stopped) = (0, 0, 0, 0);
        let questions = [Question::Solve, Question::Count(1), Question::Count(3), Question::Check];
        for (budget, question) in [Budget::UNLIMITED, Budget::nodes(3)].into_iter().cartesian_product(questions) {
            let settings = settings(budget);
            assert!(answers_bare_lines(&settings, question));
            for (at, line) in lines.iter().enumerate() {
                for piece in [Piece::WHOLE, Piece { in_array: true, ..Piece::WHOLE }] {
                    let record = Record::Puzzle { line: at + 1, lines: 1, text: *line, piece };
                    let origin = Origin { file: None };
                    let general = answer(&settings, question, &record, origin);
                    let mut block = "earlier\n".to_owned();
                    let bare = piece == Piece::WHOLE && !line.trim().contains(' ') && !line.trim().starts_with('{');
                    let Some(quick) = answer_bare_line(&settings, question, &record, origin, &mut block) else {
                        assert_eq!(block, "earlier\n", "{line}");
                        assert!(!bare || settings.parser.parse_board(line).is_err(), "{line}");
                        general_lines += 1;
                        continue;
                    };
                    assert!(bare, "{line}");
                    no_solutions += usize::from(quick.status == Some(Status::NoSolution));
                    stopped += usize::from(quick.status == Some(Status::Stopped));
                    assert_eq!(written(&block, &quick), written("earlier\n", &general), "{line}");
                    quick_lines += 1;
                }
            }
        }
        // Every bare line that parses, under both budgets, for each question.
        assert!(quick_lines >= 8 * 130, "{quick_lines} {general_lines}");
        assert!(no_solutions >= 4 && stopped >= 4 * 40, "{no_solutions} {stopped}");
    }

    #[test]
    fn a_batch_of_solutions_is_due_when_full_or_when_its_first_came_late() {
        // A first solution found a second after the search began goes out
        // at once, alone.
        let started = Instant::now().checked_sub(Duration::from_secs(1)).expect("a clock past one second");
        let mut late = TextBatch { text: "1".into(), ends: vec![1], ..TextBatch::default() };
        assert!(late.is_due(started));
        // A batch of 64 KiB goes out whenever the search began.
        let mut full = TextBatch { text: "1".repeat(STREAM_BYTES), ..TextBatch::default() };
        assert!(full.is_due(Instant::now()));
    }

    #[test]
    fn json_strings_escape_quotes_backslashes_and_control_characters_only() {
        assert_eq!(quote_str(""), "\"\"");
        assert_eq!(quote_str("plain text, r5c6"), "\"plain text, r5c6\"");
        assert_eq!(quote_str("a\"b\\c\td\u{1}é\u{1f}"), "\"a\\\"b\\\\c\\u0009d\\u0001é\\u001f\"");
        assert_eq!(quote_str("\"\"\\"), "\"\\\"\\\"\\\\\"");
    }
}
