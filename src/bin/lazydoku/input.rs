//! Reading puzzles as a stream: from arguments, files or stdin, one per line
//! or one multi-line grid, with every bad line reported and skipped.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

/// The longest line read as a puzzle: a 25x25 board is 625 cells, and a
/// comment may follow. A longer line is reported and skipped unread.
pub const MAX_LINE: usize = 64 * 1024;

/// The most a multi-line grid may hold.
const MAX_GRID: usize = 1024 * 1024;

/// One input: a file, stdin, or a puzzle given as an argument.
#[derive(Clone, Debug)]
pub enum Source {
    Stdin,
    File(String),
    Argument(String),
    /// The set solved when no command is given.
    Bundled(&'static str),
}

impl Source {
    /// `-` is stdin, an existing path is a file, anything else is a puzzle.
    pub fn from_argument(arg: &str) -> Result<Source, String> {
        if arg == "-" {
            Ok(Source::Stdin)
        } else if Path::new(arg).is_file() {
            Ok(Source::File(arg.to_owned()))
        } else if looks_like_puzzle(arg) {
            Ok(Source::Argument(arg.to_owned()))
        } else {
            Err(format!("{arg}: no such file, and not a puzzle either"))
        }
    }

    /// The name used in messages.
    pub fn name(&self) -> &str {
        match self {
            Source::Stdin => "-",
            Source::File(path) => path,
            Source::Argument(_) => "argument",
            Source::Bundled(_) => "bundled",
        }
    }

    /// The size in bytes, when known in advance (for the progress bar).
    pub fn size(&self) -> Option<u64> {
        match self {
            Source::File(path) => std::fs::metadata(path).ok().map(|m| m.len()),
            _ => None,
        }
    }

    pub fn open(&self) -> Result<Box<dyn BufRead + Send>, String> {
        Ok(match self {
            Source::Stdin => Box::new(BufReader::with_capacity(1 << 16, io::stdin())),
            Source::File(path) => {
                Box::new(BufReader::with_capacity(1 << 16, File::open(path).map_err(|e| format!("{path}: {e}"))?))
            }
            Source::Argument(text) => Box::new(io::Cursor::new(text.clone().into_bytes())),
            Source::Bundled(text) => Box::new(io::Cursor::new(text.as_bytes())),
        })
    }
}

/// Whether an argument is meant as a puzzle rather than a path.
fn looks_like_puzzle(arg: &str) -> bool {
    !arg.contains('/') && arg.chars().all(|c| c.is_ascii_alphanumeric() || " .,_|-+[]\n\r\t#".contains(c))
}

/// What one input line (or grid) turned out to be.
#[derive(Clone, Debug)]
pub enum Record {
    /// A puzzle's text, and its first line's number from 1.
    Puzzle { line: usize, text: String },
    /// A line that could not be read as text.
    Unreadable { line: usize, column: usize, reason: String },
}

impl Record {
    pub fn line(&self) -> usize {
        match self {
            Record::Puzzle { line, .. } | Record::Unreadable { line, .. } => *line,
        }
    }
}

/// How a source holds its puzzles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Mode {
    /// One puzzle per line when the first puzzle line is a whole board (or a
    /// single token longer than any row); otherwise one multi-line puzzle.
    Auto,
    /// One puzzle per line.
    Line,
    /// The whole input is one puzzle.
    Grid,
}

/// Reads records from one source, one per line, or the whole source as one
/// puzzle when its first content line is not a whole puzzle by itself.
pub struct Records {
    mode: Mode,
    reader: Box<dyn BufRead + Send>,
    line: usize,
    /// Bytes consumed so far.
    pub bytes: u64,
    /// Whether the first content line has decided the mode.
    decided: bool,
    done: bool,
}

impl Records {
    pub fn new(reader: Box<dyn BufRead + Send>, mode: Mode) -> Records {
        Records { mode, reader, line: 0, bytes: 0, decided: false, done: false }
    }

    /// The next record, `Ok(None)` at the end, `Err` for an I/O error.
    pub fn next_record(&mut self) -> io::Result<Option<Record>> {
        if self.done {
            return Ok(None);
        }
        loop {
            let Some((bytes, too_long)) = self.read_line()? else {
                self.done = true;
                return Ok(None);
            };
            let line = self.line;
            if too_long {
                let reason = format!(
                    "the line is longer than {MAX_LINE} bytes; a puzzle line is at most 625 cells and a comment"
                );
                return Ok(Some(Record::Unreadable { line, column: MAX_LINE + 1, reason }));
            }
            let mut text = match String::from_utf8(bytes) {
                Ok(text) => text,
                Err(e) => {
                    let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
                    let column = String::from_utf8_lossy(valid).chars().count() + 1;
                    let reason = "invalid UTF-8; puzzles are text".to_owned();
                    return Ok(Some(Record::Unreadable { line, column, reason }));
                }
            };
            let trimmed = text.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            if !self.decided {
                // The first content line decides the mode.
                self.decided = true;
                let lines = match self.mode {
                    Mode::Auto => is_line_puzzle(trimmed),
                    Mode::Line => true,
                    Mode::Grid => false,
                };
                if !lines {
                    return self.whole_grid(line, text).map(Some);
                }
            }
            // Drop the line break in place: no second allocation per line.
            let kept = text.trim_end_matches(['\n', '\r']).len();
            text.truncate(kept);
            return Ok(Some(Record::Puzzle { line, text }));
        }
    }

    /// Reads the rest of the source as one multi-line puzzle.
    fn whole_grid(&mut self, line: usize, first: String) -> io::Result<Record> {
        self.done = true;
        let mut rest = Vec::new();
        let limit = u64::try_from(MAX_GRID).unwrap_or(u64::MAX);
        self.reader.by_ref().take(limit).read_to_end(&mut rest)?;
        self.bytes += rest.len() as u64;
        if rest.len() >= MAX_GRID {
            let reason = format!("a multi-line puzzle is at most {MAX_GRID} bytes; put one puzzle per line instead");
            return Ok(Record::Unreadable { line, column: 1, reason });
        }
        match String::from_utf8(rest) {
            Ok(rest) => Ok(Record::Puzzle { line, text: first + &rest }),
            Err(_) => Ok(Record::Unreadable { line, column: 1, reason: "invalid UTF-8; puzzles are text".to_owned() }),
        }
    }

    /// One line with its newline, at most `MAX_LINE` bytes kept; a longer
    /// line is skipped to its end and flagged.
    fn read_line(&mut self) -> io::Result<Option<(Vec<u8>, bool)>> {
        let mut bytes = Vec::with_capacity(96);
        let limit = (MAX_LINE + 1) as u64;
        let n = self.reader.by_ref().take(limit).read_until(b'\n', &mut bytes)?;
        if n == 0 {
            return Ok(None);
        }
        self.line += 1;
        self.bytes += n as u64;
        if bytes.len() > MAX_LINE && bytes.last() != Some(&b'\n') {
            // Skip the rest of the line without holding it.
            loop {
                let buffer = self.reader.fill_buf()?;
                if buffer.is_empty() {
                    break;
                }
                if let Some(at) = buffer.iter().position(|&b| b == b'\n') {
                    self.reader.consume(at + 1);
                    self.bytes += at as u64 + 1;
                    break;
                }
                let len = buffer.len();
                self.reader.consume(len);
                self.bytes += len as u64;
            }
            return Ok(Some((Vec::new(), true)));
        }
        Ok(Some((bytes, false)))
    }
}

/// Whether a line reads as a one-line puzzle: its first token has the
/// length of a whole board, or is longer than any grid row (so a malformed
/// line of a dataset stays one bad line, not a bad whole file).
fn is_line_puzzle(line: &str) -> bool {
    let token = line.split_whitespace().next().unwrap_or("");
    let n = token.chars().count();
    let side = n.isqrt();
    !token.starts_with('[') && ((side >= 4 && side * side == n) || n > lazydoku::board::MAX_SIDE)
}
