//! Reading puzzles as a stream: from arguments, files or stdin, one per line
//! or as multi-line grids, with every line accounted for. Blank, comment and
//! header lines come back as text to pass through, so that the output lines
//! up with the input.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::sync::OnceLock;
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError, sync_channel};
use std::time::Duration;

use lazydoku::Shape;
use lazydoku::board::MAX_SIDE;
use lazydoku::format::Parser;

/// The longest line read as a puzzle: a 25x25 board is 625 cells, and a
/// comment may follow. A longer line is reported and skipped unread.
pub const MAX_LINE: usize = 64 * 1024;

/// The most lines a multi-line puzzle may span: 25 rows, separators between
/// and around the boxes, and room for a matrix written loosely.
const MAX_PUZZLE_LINES: usize = 64;

/// The most lines a puzzle written as a JSON object may span: `jq` writes
/// each cell of a cage on a line of its own, some 1,500 lines for a 25x25
/// killer.
const MAX_VALUE_LINES: usize = 4096;
/// The most bytes a puzzle written as a JSON object over several lines may
/// hold.
const MAX_VALUE_BYTES: usize = 1 << 20;

/// How long a grid waits for the `regions` and `cages` lines that may
/// follow it, when they have not arrived with it: long enough for a
/// writer that split its output anywhere to write the rest, short enough
/// that a person at a terminal, or a program that waits for each answer,
/// hardly notices. `LAZYDOKU_GRID_RULES_WAIT_MS` sets another.
const GRID_RULES_WAIT: Duration = Duration::from_millis(250);

/// A source opened for reading; its buffer shows what can be read without
/// waiting.
pub type Reader = BufReader<Input>;

/// The bytes of a source: read directly from what never makes a reader
/// wait (files, text in memory), or by a thread of its own from what may
/// (a pipe, a terminal), so that the reader can wait for more with a time
/// limit.
pub enum Input {
    Direct(Box<dyn Read + Send>),
    Prefetched(Prefetch),
}

impl Input {
    /// Whether more input (or its end) can be read at once, after waiting
    /// at most `wait` for it (`None`: not at all).
    fn arrives_within(&mut self, wait: Option<Duration>) -> bool {
        match self {
            Input::Direct(_) => true,
            Input::Prefetched(prefetch) => prefetch.arrives_within(wait),
        }
    }
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Input::Direct(inner) => inner.read(buf),
            Input::Prefetched(prefetch) => prefetch.read(buf),
        }
    }
}

/// Blocks of a source read ahead by a thread: at most a few in flight.
pub struct Prefetch {
    blocks: Receiver<io::Result<Vec<u8>>>,
    block: Vec<u8>,
    at: usize,
    /// A block (or error) taken off the channel to see that it was there.
    early: Option<io::Result<Vec<u8>>>,
}

impl Prefetch {
    fn new(mut inner: Box<dyn Read + Send>) -> Prefetch {
        let (send, blocks) = sync_channel(4);
        std::thread::spawn(move || {
            // Read into one buffer and sent as long as what came: a writer
            // that sends a line at a time costs a line, not a block.
            let mut buffer = vec![0; 1 << 16];
            loop {
                let read = match inner.read(&mut buffer) {
                    Ok(0) => return,
                    Ok(n) => Ok(buffer[..n].to_vec()),
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => Err(e),
                };
                let failed = read.is_err();
                // The reader is gone, or the source failed: nothing more.
                if send.send(read).is_err() || failed {
                    return;
                }
            }
        });
        Prefetch { blocks, block: Vec::new(), at: 0, early: None }
    }

    /// Whether a read returns at once, waiting for a block at most `wait`
    /// (`None`: not at all). The end of the input returns at once too.
    fn arrives_within(&mut self, wait: Option<Duration>) -> bool {
        if self.at < self.block.len() || self.early.is_some() {
            return true;
        }
        let next = match wait {
            Some(wait) => self.blocks.recv_timeout(wait).map_err(|e| e == RecvTimeoutError::Disconnected),
            None => self.blocks.try_recv().map_err(|e| e == TryRecvError::Disconnected),
        };
        match next {
            Ok(block) => {
                self.early = Some(block);
                true
            }
            Err(ended) => ended,
        }
    }
}

impl Read for Prefetch {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at == self.block.len() {
            let next = match self.early.take() {
                Some(next) => next,
                // A closed channel is the end of the input.
                None => match self.blocks.recv() {
                    Ok(next) => next,
                    Err(_) => return Ok(0),
                },
            };
            (self.block, self.at) = (next?, 0);
        }
        let n = buf.len().min(self.block.len() - self.at);
        buf[..n].copy_from_slice(&self.block[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// One input: a file, stdin, or a puzzle given as an argument.
#[derive(Clone, Debug)]
pub enum Source {
    Stdin,
    /// A path: a regular file, or anything else that reads like one (a FIFO,
    /// `/dev/stdin`, a process substitution).
    File(String),
    Argument(String),
    /// The set solved when no command is given.
    Bundled(&'static str),
}

impl Source {
    /// `-` is stdin, an existing path is a file, anything else a puzzle,
    /// unless it looks like a path and is no puzzle: then it is a missing
    /// file, and the error says so.
    pub fn from_argument(arg: &str, parser: Parser) -> Result<Source, String> {
        if arg == "-" {
            return Ok(Source::Stdin);
        }
        match std::fs::metadata(arg) {
            Ok(meta) if meta.is_dir() => Err(format!("{arg}: is a directory; give the files in it")),
            Ok(_) => Ok(Source::File(arg.to_owned())),
            // An f-puzzles or SudokuPad link is a puzzle, whose error is its own.
            Err(_) if looks_like_path(arg) && !is_link(arg) && parser.parse_board(arg).is_err() => {
                Err(format!("{arg}: no such file"))
            }
            Err(_) => Ok(Source::Argument(arg.to_owned())),
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

    /// The name in JSON records: the path, `-` for stdin, none for a puzzle
    /// given in place.
    pub fn file_name(&self) -> Option<&str> {
        match self {
            Source::Stdin => Some("-"),
            Source::File(path) => Some(path),
            Source::Argument(_) | Source::Bundled(_) => None,
        }
    }

    /// The size in bytes of a regular file (for the progress bar).
    pub fn size(&self) -> Option<u64> {
        match self {
            Source::File(path) => std::fs::metadata(path).ok().filter(std::fs::Metadata::is_file).map(|m| m.len()),
            _ => None,
        }
    }

    /// Whether reading may wait on a writer (a pipe, a terminal), so that
    /// answers should not wait for more input before they leave.
    pub fn may_block(&self) -> bool {
        match self {
            Source::Stdin => true,
            Source::File(path) => !std::fs::metadata(path).is_ok_and(|m| m.is_file()),
            Source::Argument(_) | Source::Bundled(_) => false,
        }
    }

    pub fn open(&self) -> Result<Reader, String> {
        let inner: Box<dyn Read + Send> = match self {
            Source::Stdin => Box::new(io::stdin()),
            Source::File(path) => Box::new(File::open(path).map_err(|e| format!("{path}: {e}"))?),
            Source::Argument(text) => Box::new(io::Cursor::new(text.clone().into_bytes())),
            Source::Bundled(text) => Box::new(io::Cursor::new(text.as_bytes())),
        };
        let input = if self.may_block() { Input::Prefetched(Prefetch::new(inner)) } else { Input::Direct(inner) };
        Ok(BufReader::with_capacity(1 << 16, input))
    }
}

/// Whether `arg` is a link to a puzzle that the parser reads.
fn is_link(arg: &str) -> bool {
    arg.contains("f-puzzles.com/") || arg.contains("sudokupad.app/fpuz")
}

/// A path has a `/`, or ends in an extension such as `.txt` (a letter after
/// the last dot, then at most four letters or digits).
pub fn looks_like_path(arg: &str) -> bool {
    if arg.contains('/') {
        return true;
    }
    arg.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && ext.len() <= 5
            && ext.starts_with(|c: char| c.is_ascii_alphabetic())
            && ext.chars().all(|c| c.is_ascii_alphanumeric())
    })
}

/// What some input lines turned out to be, holding its text as a `T`: its
/// own `String` as [`Records::next_record`] returns it, or a `&str` into
/// the text of a [`Chunk`].
#[derive(Clone, Debug)]
pub enum Record<T = String> {
    /// A puzzle's text, its first line's number from 1, and how many lines
    /// it spans.
    Puzzle { line: usize, lines: usize, text: T, piece: Piece },
    /// A puzzle that could not be read as text.
    Unreadable { line: usize, lines: usize, column: usize, reason: T, piece: Piece },
    /// A blank, comment or header line, or the brackets and commas of an
    /// array of puzzles, passed through as it is.
    Text { line: usize, text: T, piece: Piece },
}

/// Where a record stands on its lines: most stand on whole lines of their
/// own; the pieces of a JSON array of puzzles share them, as the array is
/// cut at its values, so that each object (or string's text) is a puzzle
/// and the brackets, commas and quotes around them pass through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// The characters before the record's text on its first line.
    pub offset: usize,
    /// Whether the next record goes on with this one's last line: its
    /// answer ends with no line break.
    pub joined: bool,
    /// Whether the record belongs to an array of puzzles: a value (an
    /// object, or a string's text), whose several answers (`all`) go apart
    /// by commas; or the brackets, commas and quotes around values, which
    /// only the puzzles' own format writes.
    pub in_array: bool,
    /// Whether the record is the text of a string of an array, without its
    /// quotes: the answer is a string too unless it is a count.
    pub quoted: bool,
    /// For an error in an array's JSON, what mends it in the puzzles' own
    /// format, so that the answers still make an array: for an error that
    /// stands for no value (a doubled or a missing comma, a missing `]`),
    /// the text written in place of the error; for one in place of a
    /// value, the comma written before its string where the input had
    /// none.
    pub mend: Option<&'static str>,
}

impl Piece {
    /// A record of whole lines.
    pub const WHOLE: Piece = Piece { offset: 0, joined: false, in_array: false, quoted: false, mend: None };
}

impl<T> Record<T> {
    pub fn line(&self) -> usize {
        match self {
            Record::Puzzle { line, .. } | Record::Unreadable { line, .. } | Record::Text { line, .. } => *line,
        }
    }

    pub fn piece(&self) -> Piece {
        match self {
            Record::Puzzle { piece, .. } | Record::Unreadable { piece, .. } | Record::Text { piece, .. } => *piece,
        }
    }

    /// The text the record holds: the puzzle, the reason, or the line.
    fn text(&self) -> &T {
        match self {
            Record::Puzzle { text, .. } | Record::Unreadable { reason: text, .. } | Record::Text { text, .. } => text,
        }
    }

    /// The text the record holds, taken out of it.
    fn into_text(self) -> T {
        match self {
            Record::Puzzle { text, .. } | Record::Unreadable { reason: text, .. } | Record::Text { text, .. } => text,
        }
    }

    /// The same record holding `text` instead.
    fn with_text<U>(&self, text: U) -> Record<U> {
        match *self {
            Record::Puzzle { line, lines, piece, .. } => Record::Puzzle { line, lines, text, piece },
            Record::Unreadable { line, lines, column, piece, .. } => {
                Record::Unreadable { line, lines, column, reason: text, piece }
            }
            Record::Text { line, piece, .. } => Record::Text { line, text, piece },
        }
    }
}

/// Records read together, their texts one after another in one string: a
/// chunk of thousands of records is a few allocations, where a string per
/// record made an allocation per line, each freed by whichever worker
/// answered it.
#[derive(Debug, Default)]
pub struct Chunk {
    text: String,
    /// Each record, with where its text ends in `text` (it starts where
    /// the one before ends).
    records: Vec<(Record<()>, usize)>,
}

impl Chunk {
    /// An empty chunk with room for `records` records.
    pub fn with_capacity(records: usize) -> Chunk {
        Chunk { text: String::new(), records: Vec::with_capacity(records) }
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Where the text of the record at `index` starts: where the one
    /// before ends (`index` at most [`Chunk::len`]).
    fn start(&self, index: usize) -> usize {
        index.checked_sub(1).map_or(0, |before| self.records[before].1)
    }

    /// The record at `index`, which must be below [`Chunk::len`].
    pub fn get(&self, index: usize) -> Record<&str> {
        let (record, end) = &self.records[index];
        record.with_text(&self.text[self.start(index)..*end])
    }

    /// The bytes of the records from `start` up to `end`.
    pub fn text_len(&self, start: usize, end: usize) -> usize {
        self.start(end.min(self.len())) - self.start(start.min(self.len()))
    }

    /// The records from `start` up to `end`.
    pub fn range(&self, start: usize, end: usize) -> impl Iterator<Item = Record<&str>> {
        (start..end.min(self.len())).map(|index| self.get(index))
    }

    fn push(&mut self, record: &Record<String>) {
        self.text.push_str(record.text());
        self.records.push((record.with_text(()), self.text.len()));
    }

    /// A one-line puzzle on line `line`, whole.
    fn push_line_puzzle(&mut self, line: usize, text: &str) {
        self.text.push_str(text);
        self.records.push((Record::Puzzle { line, lines: 1, text: (), piece: Piece::WHOLE }, self.text.len()));
    }
}

/// How a source holds its puzzles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Mode {
    /// Each line decides: a whole board on one line is a puzzle, shorter
    /// rows make up grids, `[` starts a matrix.
    Auto,
    /// One puzzle per line.
    Line,
    /// Multi-line grids only: every content line is a row.
    Grid,
}

/// One line of input, before it is classified.
enum Line {
    Text(String),
    /// A part of a line of an array too long to read whole, cut after one
    /// of its values: the characters before it on the line, and whether the
    /// line goes on after it.
    Part {
        text: String,
        offset: usize,
        continues: bool,
    },
    /// Longer than `MAX_LINE` or not UTF-8: the column and the reason.
    Unreadable(usize, String),
}

/// A grid being gathered: its lines, rows so far, and the width of its rows.
struct Grid {
    first: usize,
    lines: Vec<String>,
    rows: usize,
    width: usize,
}

/// Reads records from one source.
pub struct Records {
    mode: Mode,
    parser: Parser,
    reader: Reader,
    /// Lines read so far.
    line: usize,
    /// Bytes consumed so far.
    pub bytes: u64,
    /// The last line ended with a lone CR, so a LF right after it is that
    /// line's ending, not an empty line.
    after_cr: bool,
    /// Whether the first line ended with CRLF, once that is known: the
    /// answers then end their lines the same way.
    first_ending_crlf: Option<bool>,
    /// Records complete but not returned yet.
    ready: VecDeque<Record>,
    /// The buffer of a line already taken into a chunk, kept for the next
    /// line to be read into.
    spare: Vec<u8>,
    /// Lines read but not taken, to be looked at next, in order: one read
    /// past the end of a grid, or those after a JSON value's first line
    /// when the value never closed.
    pending: VecDeque<(usize, Line)>,
    done: bool,
    /// Inside a JSON array of puzzles: where it opened, and what came last
    /// in it.
    array: Option<Array>,
    /// Where the line being read goes on, when it was cut into parts: the
    /// characters read of it so far, and the bytes read past the cut.
    part: Option<usize>,
    carry: Vec<u8>,
}

/// A JSON array of puzzles being read.
#[derive(Clone, Copy, Debug)]
struct Array {
    /// The line and column of its `[`.
    line: usize,
    column: usize,
    /// What the last thing read in it was.
    after: After,
}

/// A line of an array being cut into records.
struct Pieces {
    records: Vec<Record>,
    number: usize,
    line: String,
    /// The characters before `line` on its line (a part of a long line),
    /// and whether the line goes on after it.
    base: usize,
    continues: bool,
    /// Where the text not yet in a record starts.
    start: usize,
    /// The characters of `line` counted so far: up to which byte, and how
    /// many. Offsets are asked for in order along the line, so counting
    /// on from there keeps a long line's cost in proportion to its length.
    counted: (usize, usize),
}

impl Pieces {
    /// The characters before byte `at` on the line.
    fn offset(&mut self, at: usize) -> usize {
        let (from, chars) = if at >= self.counted.0 { self.counted } else { (0, 0) };
        self.counted = (at, chars + self.line[from..at].chars().count());
        self.base + self.counted.1
    }

    /// The text not yet in a record, up to byte `to`, as text to pass
    /// through (brackets, commas and blanks).
    fn text_to(&mut self, to: usize) {
        if self.start < to {
            let piece = Piece { offset: self.offset(self.start), joined: true, in_array: true, ..Piece::WHOLE };
            let text = self.line[self.start..to].to_owned();
            self.records.push(Record::Text { line: self.number, text, piece });
        }
        self.start = to;
    }

    /// A string of an array, from its quote at byte `at` to byte `end`: its
    /// text is a puzzle, and its quotes are the answer's to write (a count
    /// is a number, a solution a string). One that does not close on its
    /// line, or holds an escape (which no puzzle needs), is an error in its
    /// place.
    fn string_at(&mut self, at: usize, end: usize) {
        let string = self.line[at..end].trim_end();
        let end = at + string.len();
        let escaped = string.contains('\\');
        if string.len() < 2 || !string.ends_with('"') || escaped {
            self.text_to(at);
            let reason = if escaped {
                "a puzzle in a JSON string is written without escapes"
            } else {
                "the string is not closed where the array expects its comma or `]`"
            };
            self.value_error_at(at, reason, None);
            self.start = end;
            return;
        }
        self.text_to(at);
        let piece = Piece { offset: self.offset(at + 1), joined: true, in_array: true, quoted: true, mend: None };
        let text = self.line[at + 1..end - 1].to_owned();
        self.records.push(Record::Puzzle { line: self.number, lines: 1, text, piece });
        self.start = end;
    }

    /// An error at byte `at` in the array's punctuation, in its place
    /// among the records, answered by `mend` in the puzzles' own format.
    fn error_at(&mut self, at: usize, reason: &str, mend: &'static str) {
        let column = self.offset(at) + 1;
        self.error(at, column, reason, false, Some(mend));
    }

    /// An error at byte `at` in place of a value of the array, which its
    /// answer stands for as a value does; `mend`, the comma before it
    /// where there was none.
    fn value_error_at(&mut self, at: usize, reason: &str, mend: Option<&'static str>) {
        let column = self.offset(at) + 1;
        self.error(at, column, reason, true, mend);
    }

    fn error(&mut self, at: usize, column: usize, reason: &str, in_array: bool, mend: Option<&'static str>) {
        let piece = Piece { offset: self.offset(at), joined: true, in_array, quoted: false, mend };
        let (line, reason) = (self.number, reason.to_owned());
        self.records.push(Record::Unreadable { line, lines: 1, column, reason, piece });
    }

    /// The error of a value (`what`) at byte `pos` right after another, with
    /// no comma between: the text up to byte `at`, before the blanks, goes
    /// first, so that the mending comma follows the value before.
    fn comma_missing(&mut self, at: usize, pos: usize, what: &str) {
        self.text_to(at);
        self.error_at(pos, &format!("a comma is missing before this {what} in the JSON array"), ",");
    }

    /// The error of a `]` at byte `at` right after a comma. The comma, when
    /// it is on this line, is the error's to mend: it is left out.
    /// Otherwise the error stands for a value after it.
    fn comma_before_end(&mut self, at: usize) {
        let reason = "the JSON array ends right after a comma, which JSON does not allow";
        let column = self.offset(at) + 1;
        if let Some(comma) = self.line[self.start..at].rfind(',').map(|comma| self.start + comma) {
            self.text_to(comma);
            self.error(comma, column, reason, false, Some(""));
            self.start = comma + 1;
        } else {
            // On a line before: its answer is a string of the array, a
            // value after the comma.
            self.text_to(at);
            self.error(at, column, reason, true, None);
        }
    }

    /// The records, with the rest of the line (brackets, commas, blanks or
    /// a comment after the array) as text, and the last one ending the
    /// line unless it goes on. Blanks alone after an object are left out.
    fn finish(mut self) -> Vec<Record> {
        if !self.line[self.start..].trim().is_empty() || self.records.is_empty() {
            self.text_to(self.line.len());
        }
        if let Some(last) = self.records.last_mut() {
            match last {
                Record::Puzzle { piece, .. } | Record::Unreadable { piece, .. } | Record::Text { piece, .. } => {
                    piece.joined = self.continues;
                }
            }
        }
        self.records
    }
}

/// What came last in an array of puzzles, which says what may come next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum After {
    Open,
    Object,
    Comma,
}

impl Records {
    pub fn new(reader: Reader, mode: Mode, parser: Parser) -> Records {
        Records {
            mode,
            parser,
            reader,
            line: 0,
            bytes: 0,
            after_cr: false,
            first_ending_crlf: None,
            ready: VecDeque::new(),
            spare: Vec::new(),
            pending: VecDeque::new(),
            done: false,
            array: None,
            part: None,
            carry: Vec::new(),
        }
    }

    /// Whether the source's lines end with CRLF, as its first line's ending
    /// says (LF until that is known: a lone CR, or a first line without an
    /// ending, is answered with LF).
    pub fn crlf(&self) -> bool {
        self.first_ending_crlf == Some(true)
    }

    /// Whether the next record can be had without waiting on the writer:
    /// it is read, or its bytes have arrived.
    pub fn has_buffered(&mut self) -> bool {
        !self.ready.is_empty()
            || !self.pending.is_empty()
            || !self.reader.buffer().is_empty()
            || self.reader.get_mut().arrives_within(None)
    }

    /// Reads the next record into `chunk`: `Ok(false)` at the end, `Err`
    /// for an I/O error. A one-line record's buffer is then read into
    /// again, so that a chunk of such records allocates nothing per record.
    pub fn read_into(&mut self, chunk: &mut Chunk) -> io::Result<bool> {
        if self.line_puzzle_from_buffer(chunk) {
            return Ok(true);
        }
        let Some(record) = self.next_record()? else { return Ok(false) };
        chunk.push(&record);
        let text = record.into_text();
        // A long record's buffer is not kept, so that one long line or
        // grid does not hold its size for the rest of the input.
        if text.capacity() <= 4 * 1024 {
            self.spare = text.into_bytes();
        }
        Ok(true)
    }

    /// The common case of a large input, taken straight from the input's
    /// buffer into `chunk`: a one-line puzzle ([`Records::is_plain_line_puzzle`])
    /// whose whole line and its ending (as the first line's) are in the
    /// buffer, with nothing else under way. A line read the general way is
    /// copied into a buffer of its own, and from there into the chunk: on a
    /// million 17-clue lines, taking it from the buffer halved the reader
    /// thread's time (docs/performance.md). `false`, with nothing read,
    /// sends the line to [`Records::next_record`].
    fn line_puzzle_from_buffer(&mut self, chunk: &mut Chunk) -> bool {
        // The first line is read the general way: it settles the line
        // ending and loses a byte order mark.
        let Some(crlf) = self.first_ending_crlf else { return false };
        if self.after_cr
            || self.done
            || self.array.is_some()
            || self.part.is_some()
            || !self.carry.is_empty()
            || !self.ready.is_empty()
            || !self.pending.is_empty()
        {
            return false;
        }
        let buffer = self.reader.buffer();
        let Some(end) = memchr::memchr2(b'\n', b'\r', buffer) else { return false };
        let ending: &[u8] = if crlf { b"\r\n" } else { b"\n" };
        if end > MAX_LINE || !buffer[end..].starts_with(ending) {
            return false;
        }
        let Ok(text) = std::str::from_utf8(&buffer[..end]) else { return false };
        if !self.is_plain_line_puzzle(text) {
            return false;
        }
        self.line += 1;
        chunk.push_line_puzzle(self.line, text);
        let consumed = end + ending.len();
        self.reader.consume(consumed);
        self.bytes += consumed as u64;
        true
    }

    /// The next record, `Ok(None)` at the end, `Err` for an I/O error.
    pub fn next_record(&mut self) -> io::Result<Option<Record>> {
        if let Some(record) = self.ready.pop_front() {
            return Ok(Some(record));
        }
        let mut grid: Option<Grid> = None;
        loop {
            let next = match self.pending.pop_front() {
                Some(pending) => Some(pending),
                None if self.done => None,
                None => self.read_line()?,
            };
            let Some((number, line)) = next else {
                self.done = true;
                self.array_unclosed();
                return Ok(grid.map(|g| self.finish_grid(g)).or_else(|| self.ready.pop_front()));
            };
            let text = match line {
                Line::Text(text) => text,
                other if grid.is_some() => {
                    self.pending.push_front((number, other));
                    return Ok(grid.map(|g| self.finish_grid(g)));
                }
                Line::Unreadable(column, reason) => {
                    let piece = Piece::WHOLE;
                    return Ok(Some(Record::Unreadable { line: number, lines: 1, column, reason, piece }));
                }
                Line::Part { text, offset, continues } => {
                    if let Some(record) = self.array_record(number, text, self.array.is_none(), (offset, continues))? {
                        return Ok(Some(record));
                    }
                    continue;
                }
            };
            if grid.is_none() && self.array.is_some() && text.trim_start().starts_with(['{', '"', ',', ']']) {
                if let Some(record) = self.array_record(number, text, false, (0, false))? {
                    return Ok(Some(record));
                }
                continue;
            }
            let kind = self.classify(&text, grid.as_ref());
            match (kind, grid.as_mut()) {
                (Kind::Pass, None) if is_stray_rules_line(&text) => {
                    let reason = "a line of rules belongs right under its grid, as `generate --format grid` writes \
                                  them; this one follows no grid";
                    return Ok(Some(Record::Unreadable {
                        line: number,
                        lines: 1,
                        column: 1,
                        reason: reason.to_owned(),
                        piece: Piece::WHOLE,
                    }));
                }
                (Kind::Pass, None) => return Ok(Some(Record::Text { line: number, text, piece: self.passed() })),
                (Kind::Separator | Kind::Row(_), Some(g)) if g.lines.len() < MAX_PUZZLE_LINES => {
                    if let Kind::Row(width) = kind {
                        if g.rows == 0 {
                            g.width = width;
                        }
                        g.rows += 1;
                    }
                    g.lines.push(text);
                    if g.rows > 0 && g.rows >= g.width {
                        self.rules_under(g)?;
                        return Ok(grid.map(|g| self.finish_grid(g)));
                    }
                }
                (_, Some(_)) => {
                    // Anything else ends the grid, and is looked at afresh.
                    self.pending.push_front((number, Line::Text(text)));
                    return Ok(grid.map(|g| self.finish_grid(g)));
                }
                (Kind::LinePuzzle, None) => {
                    return Ok(Some(Record::Puzzle { line: number, lines: 1, text, piece: Piece::WHOLE }));
                }
                (Kind::Matrix, None) => {
                    // A line of `[` alone opens a matrix or an array of
                    // objects, as the next line tells; `[]` is an empty
                    // array, blanks or not between its brackets.
                    let trimmed = text.trim();
                    let empty = trimmed
                        .strip_prefix('[')
                        .and_then(|t| t.strip_suffix(']'))
                        .is_some_and(|t| t.trim().is_empty());
                    let array = empty || (trimmed == "[" && self.objects_follow(number)?);
                    if !array {
                        return self.matrix(number, text).map(Some);
                    }
                    if let Some(record) = self.array_record(number, text, true, (0, false))? {
                        return Ok(Some(record));
                    }
                }
                (Kind::JsonValue, None) if text.trim_start().starts_with('[') => {
                    if let Some(record) = self.array_record(number, text, true, (0, false))? {
                        return Ok(Some(record));
                    }
                }
                (Kind::JsonValue, None) => return self.json_value(number, text).map(Some),
                (Kind::Separator, None) => grid = Some(Grid { first: number, lines: vec![text], rows: 0, width: 0 }),
                (Kind::Row(width), None) => {
                    grid = Some(Grid { first: number, lines: vec![text], rows: 1, width });
                }
            }
        }
    }

    /// Where a line passed through stands: a blank line inside an array is
    /// the array's, as its commas are.
    fn passed(&self) -> Piece {
        Piece { in_array: self.array.is_some(), ..Piece::WHOLE }
    }

    /// At the end of the input, an array still open is an error at its `[`,
    /// mended by the `]`; after a comma, by the error as a string value
    /// and the `]`, as the comma is written already.
    fn array_unclosed(&mut self) {
        if let Some(Array { line, column, after }) = self.array.take() {
            macro_rules! unclosed {
                () => {
                    "the JSON array opened here is not closed before the input ends"
                };
            }
            let mend = if after == After::Comma { concat!("\"invalid: ", unclosed!(), "\"]") } else { "]" };
            let piece = Piece { mend: Some(mend), ..Piece::WHOLE };
            let reason = unclosed!().to_owned();
            self.ready.push_back(Record::Unreadable { line, lines: 1, column, reason, piece });
        }
    }

    /// Whether the first line after a `[` alone on line `number` that is
    /// not blank starts with an object or a string, or closes the array,
    /// which makes the `[` an array's rather than a matrix's; the lines
    /// read are put back.
    fn objects_follow(&mut self, number: usize) -> io::Result<bool> {
        // Inside the array while the next lines are read, so that a line of
        // objects too long to read whole is read in parts.
        self.array = Some(Array { line: number, column: 1, after: After::Open });
        // Blank lines tell nothing: the first line that is not one does
        // (within a bound, past which the `[` is a matrix's).
        let mut read = Vec::new();
        while read.len() < MAX_PUZZLE_LINES {
            let Some(next) = self.next_line()? else { break };
            let blank = matches!(&next.1, Line::Text(t) if t.trim().is_empty());
            read.push(next);
            if !blank {
                break;
            }
        }
        self.array = None;
        let objects = matches!(read.last(), Some((_, Line::Text(t) | Line::Part { text: t, .. }))
            if t.trim_start().starts_with(['{', '"', ']']));
        // Back where they came from, in order, first of the lines put back.
        for next in read.into_iter().rev() {
            self.pending.push_front(next);
        }
        Ok(objects)
    }

    /// The first record of a line of an array ([`Records::array_line`]),
    /// the rest made ready.
    fn array_record(
        &mut self,
        number: usize,
        text: String,
        opening: bool,
        part: (usize, bool),
    ) -> io::Result<Option<Record>> {
        self.array_line(number, text, opening, part)?;
        Ok(self.ready.pop_front())
    }

    /// Takes the lines of rules under a complete grid into it: `regions
    /// MAP`, then `cages MAP SUMS`, then `parity MAP`, then `rules NAMES`,
    /// any of them, as
    /// `generate --format grid` writes them. When the input so far ends
    /// with the grid, the next line is waited for only a moment
    /// ([`GRID_RULES_WAIT`]), so that the answer to a grid does not wait on
    /// the next puzzle (at a terminal, or from a program that waits for
    /// each answer); rules that come later than that are a record of their
    /// own, and invalid.
    fn rules_under(&mut self, grid: &mut Grid) -> io::Result<()> {
        for word in RULES_WORDS {
            if self.pending.is_empty() {
                if self.reader.buffer().is_empty() && !self.reader.get_mut().arrives_within(Some(grid_rules_wait())) {
                    return Ok(());
                }
                let next = self.read_line()?;
                self.pending.extend(next);
            }
            match self.pending.pop_front() {
                Some((_, Line::Text(text))) if is_rules_line(&text, word) => grid.lines.push(text),
                Some(other) => self.pending.push_front(other),
                None => {}
            }
        }
        Ok(())
    }

    /// A grid's lines as one puzzle; lines of separators alone, with no row,
    /// pass through as text (a border under a grid, say).
    fn finish_grid(&mut self, grid: Grid) -> Record {
        let lines = grid.lines.len();
        if grid.rows == 0 && lines > 0 {
            let mut records = grid.lines.into_iter().zip(grid.first..).map(|(text, line)| Record::Text {
                line,
                text,
                piece: Piece::WHOLE,
            });
            let first = records.next();
            self.ready.extend(records);
            return first.unwrap_or(Record::Text { line: grid.first, text: String::new(), piece: Piece::WHOLE });
        }
        Record::Puzzle { line: grid.first, lines, text: grid.lines.join("\n"), piece: Piece::WHOLE }
    }

    /// A matrix: lines until its brackets close.
    fn matrix(&mut self, number: usize, first: String) -> io::Result<Record> {
        let (mut opened, mut closed) = (first.matches('[').count(), first.matches(']').count());
        let mut lines = vec![first];
        while opened > closed && lines.len() < MAX_PUZZLE_LINES {
            match self.next_line()? {
                Some((_, Line::Text(text))) => {
                    opened += text.matches('[').count();
                    closed += text.matches(']').count();
                    lines.push(text);
                }
                Some((at, unreadable)) => {
                    self.pending.push_front((at, unreadable));
                    break;
                }
                None => {
                    self.done = true;
                    break;
                }
            }
        }
        Ok(Record::Puzzle { line: number, lines: lines.len(), text: lines.join("\n"), piece: Piece::WHOLE })
    }

    /// The next line: one put back first, else one read.
    fn next_line(&mut self) -> io::Result<Option<(usize, Line)>> {
        match self.pending.pop_front() {
            Some(line) => Ok(Some(line)),
            None => self.read_line(),
        }
    }

    /// A JSON object that opens on line `number` with `first` and goes on
    /// over the lines after it, as `jq` writes one: taken whole as one
    /// record. One that does not close ([`Records::gather_value`]) is an
    /// error on its first line alone, and the lines after it are read
    /// afresh: a stray `{` loses no puzzle after it.
    fn json_value(&mut self, number: usize, first: String) -> io::Result<Record> {
        let column = first.find('{').map_or(1, |at| first[..at].chars().count() + 1);
        let lines = match self.gather_value(number, first, 0)? {
            Ok((lines, _)) => lines,
            Err(reason) => {
                return Ok(Record::Unreadable { line: number, lines: 1, column, reason, piece: Piece::WHOLE });
            }
        };
        let text = lines.iter().map(|(_, text)| text.as_str()).collect::<Vec<_>>().join("\n");
        Ok(Record::Puzzle { line: number, lines: lines.len(), text, piece: Piece::WHOLE })
    }

    /// The lines of a JSON value that opens at byte `start` of `first`, line
    /// `number`, read on until it closes, with the byte just past its close
    /// on the last of them. `Err` says why when it does not close within
    /// [`MAX_VALUE_LINES`] lines and [`MAX_VALUE_BYTES`] bytes, or before the
    /// input ends, or before a line that starts an object where a member
    /// belongs (so a line of JSON Lines cut short holds back no answer
    /// after it); the lines after the first are then put back, ahead of any
    /// put back before, to be read on their own.
    #[expect(clippy::type_complexity, reason = "an I/O error, or the value's lines or why there are none")]
    fn gather_value(
        &mut self,
        number: usize,
        first: String,
        start: usize,
    ) -> io::Result<Result<(Vec<(usize, String)>, usize), String>> {
        let mut depth = JsonDepth::default();
        let mut end = depth.feed(&first[start..]).map(|at| start + at);
        let mut bytes = first.len() - start;
        let mut lines = vec![(number, first)];
        let mut broken_at = None;
        while end.is_none() && lines.len() < MAX_VALUE_LINES && bytes <= MAX_VALUE_BYTES {
            match self.next_line()? {
                Some((at, Line::Text(text))) if depth.in_object() && text.trim_start().starts_with('{') => {
                    // JSON allows no object there: the value is broken (a
                    // line of JSON Lines cut short, say), and this line
                    // starts the next, which need not wait for the bound.
                    self.pending.push_front((at, Line::Text(text)));
                    broken_at = Some(at);
                    break;
                }
                Some((at, Line::Text(text))) => {
                    end = depth.feed(&text);
                    bytes += text.len() + 1;
                    lines.push((at, text));
                }
                Some(unreadable) => {
                    self.pending.push_front(unreadable);
                    break;
                }
                None => {
                    self.done = true;
                    break;
                }
            }
        }
        if let Some(end) = end {
            return Ok(Ok((lines, end)));
        }
        let within = if let Some(at) = broken_at {
            format!("before line {at}, which starts an object where a member of this one belongs")
        } else if lines.len() >= MAX_VALUE_LINES || bytes > MAX_VALUE_BYTES {
            format!("within {MAX_VALUE_LINES} lines and {} KiB", MAX_VALUE_BYTES / 1024)
        } else {
            "before the input ends".to_owned()
        };
        for (at, text) in lines.drain(1..).rev() {
            self.pending.push_front((at, Line::Text(text)));
        }
        Ok(Err(format!(
            "a JSON object opened here is not closed {within}; the lines after this one are read on their own"
        )))
    }

    /// Cuts line `number` of a JSON array of puzzles into records, into
    /// [`Records::ready`]: each object a puzzle, with the blanks before it
    /// (and the lines after this one that it goes on over), each string's
    /// text a puzzle, and the brackets, commas and quotes between them text
    /// to pass through, each piece joined to the next on the line. `opening`: the line opens the array
    /// at its first `[`. `part`: the characters before the text on its
    /// line, and whether the line goes on after it (a line too long to read
    /// whole is read in parts). What JSON does not allow there (a missing
    /// or a doubled comma, a value that is neither an object nor a string,
    /// text after the `]`) is an error in its place, and the values around
    /// it are read.
    fn array_line(&mut self, number: usize, text: String, opening: bool, part: (usize, bool)) -> io::Result<()> {
        let (base, continues) = part;
        let mut cut = Pieces { records: Vec::new(), number, line: text, base, continues, start: 0, counted: (0, 0) };
        let mut opening = opening;
        // Where the scan is.
        let mut at = 0;
        while let Some(found) = cut.line[at..].find(|c: char| !c.is_whitespace()) {
            let pos = at + found;
            let after = self.array.map(|array| array.after);
            match cut.line.as_bytes()[pos] {
                b'[' if opening => {
                    opening = false;
                    self.array = Some(Array { line: cut.number, column: cut.offset(pos) + 1, after: After::Open });
                    at = pos + 1;
                }
                b',' => {
                    if after != Some(After::Object) {
                        cut.text_to(pos);
                        cut.error_at(pos, "a comma with no value before it in the JSON array", "");
                        cut.start = pos + 1;
                    }
                    self.set_after(After::Comma);
                    at = pos + 1;
                }
                b']' => {
                    if after == Some(After::Comma) {
                        cut.comma_before_end(pos);
                    }
                    self.array = None;
                    let rest = cut.line[pos + 1..].trim_start();
                    if !rest.is_empty() && !rest.starts_with('#') {
                        let from = cut.line.len() - rest.len();
                        cut.text_to(from);
                        cut.error_at(from, "the JSON array has ended before this on its line", "");
                        cut.start = cut.line.len();
                    }
                    break;
                }
                b'{' => {
                    cut.text_to(at);
                    if after == Some(After::Object) {
                        cut.comma_missing(at, pos, "object");
                    }
                    // A broken object is an error in its place; the array
                    // goes on at the lines after its first, read again,
                    // with no word on the comma it may have lost.
                    if !self.array_object(&mut cut, at, pos)? {
                        self.set_after(After::Open);
                        break;
                    }
                    self.set_after(After::Object);
                    at = cut.start;
                }
                b'"' => {
                    if after == Some(After::Object) {
                        cut.comma_missing(at, pos, "string");
                    }
                    let rest = &cut.line[pos..];
                    let end = pos + string_end(rest).unwrap_or_else(|| value_end(rest).max(1));
                    cut.string_at(pos, end);
                    at = cut.start.max(end);
                    self.set_after(After::Object);
                }
                _ => {
                    // Another value (a number, an array): an error in its
                    // place, up to the comma or `]` after it.
                    cut.text_to(pos);
                    let comma = (after == Some(After::Object)).then_some(",");
                    cut.value_error_at(pos, "expected an object, a comma or the `]` of the JSON array", comma);
                    // At least one byte: a stray `}` ends no value, and
                    // is the error itself.
                    let end = pos + value_end(&cut.line[pos..]).max(1);
                    (cut.start, at) = (end, end);
                    self.set_after(After::Object);
                }
            }
        }
        self.ready.extend(cut.finish());
        Ok(())
    }

    /// The object of an array that opens at byte `pos` of the line being
    /// cut, after the blanks from `at`: a puzzle, read on over the lines
    /// after when it goes on there, and the cut goes on after it. `false`
    /// when it does not close: an error, and the lines after its first
    /// are read on their own.
    fn array_object(&mut self, cut: &mut Pieces, at: usize, pos: usize) -> io::Result<bool> {
        let (offset, column) = (cut.offset(at), cut.offset(pos) + 1);
        let number = cut.number;
        let line = std::mem::take(&mut cut.line);
        match self.gather_value(number, line, pos)? {
            Ok((mut lines, end)) => {
                let (last_number, last) = lines.pop().expect("a value has its first line");
                let text = if lines.is_empty() {
                    last[at..end].to_owned()
                } else {
                    let mut text = lines[0].1[at..].to_owned();
                    for (_, middle) in &lines[1..] {
                        text.push('\n');
                        text.push_str(middle);
                    }
                    text.push('\n');
                    text.push_str(&last[..end]);
                    // On a line of its own now, read whole.
                    (cut.base, cut.continues, cut.counted) = (0, false, (0, 0));
                    text
                };
                let piece = Piece { offset, joined: true, in_array: true, ..Piece::WHOLE };
                cut.records.push(Record::Puzzle { line: number, lines: lines.len() + 1, text, piece });
                (cut.number, cut.line, cut.start) = (last_number, last, end);
                Ok(true)
            }
            Err(reason) => {
                let piece = Piece { offset, in_array: true, ..Piece::WHOLE };
                cut.records.push(Record::Unreadable { line: number, lines: 1, column, reason, piece });
                // The rest of the line went with the object.
                (cut.start, cut.continues) = (0, false);
                Ok(false)
            }
        }
    }

    /// Notes what came last in the array being read.
    fn set_after(&mut self, after: After) {
        if let Some(array) = &mut self.array {
            array.after = after;
        }
    }

    /// The common case of [`Records::classify`], first: a line that is one
    /// token of printable ASCII, as in every large dataset, and a whole
    /// board (or longer than any row), outside a grid.
    fn is_plain_line_puzzle(&self, text: &str) -> bool {
        let bytes = text.as_bytes();
        self.mode == Mode::Auto
            // A fold rather than `all`, so that the test runs on many bytes
            // at once: this loop was most of the reader thread's time.
            && bytes.iter().fold(true, |graphic, b| graphic & b.is_ascii_graphic())
            && !matches!(bytes.first(), None | Some(b'#' | b'[' | b'{'))
            && (self.is_whole_board(text, bytes.len()) || bytes.len() > MAX_SIDE)
    }

    /// What a line is, given the grid being gathered, if any.
    fn classify(&self, text: &str, grid: Option<&Grid>) -> Kind {
        if grid.is_none() && self.is_plain_line_puzzle(text) {
            return Kind::LinePuzzle;
        }
        let trimmed = text.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            return Kind::Pass;
        }
        if self.mode == Mode::Line {
            return Kind::LinePuzzle;
        }
        if grid.is_none()
            && (trimmed.starts_with('{')
                || trimmed.strip_prefix('[').is_some_and(|rest| rest.trim_start().starts_with(['{', '"'])))
        {
            // A JSON object on one line (JSON Lines), as `generate --format
            // json` writes each puzzle; or a value that goes on below (an
            // object written over several lines), or an array of objects.
            let closed = JsonDepth::default().feed(trimmed).is_some();
            return if closed && trimmed.starts_with('{') { Kind::LinePuzzle } else { Kind::JsonValue };
        }
        if grid.is_none() && trimmed.starts_with('[') {
            return Kind::Matrix;
        }
        let token = trimmed.split_whitespace().next().unwrap_or("");
        let length = token.chars().count();
        let free = grid.is_none() && self.mode == Mode::Auto;
        // A token as long as a 25x25 board's row followed by another as
        // long is a 5x5 board and its map (jigsaw regions or cages): no row
        // of a grid has a second token of its length after it.
        let with_map =
            || length == MAX_SIDE && trimmed.split_whitespace().nth(1).is_some_and(|map| map.chars().count() == length);
        if free && (self.is_whole_board(token, length) || length > MAX_SIDE || with_map()) {
            // A whole board, perhaps with a comment, or too long for a row:
            // one line, one record, so that a malformed line is one bad
            // record, not a bad grid.
            return Kind::LinePuzzle;
        }
        if free && self.starts_with_rows(trimmed) {
            // A board's rows apart by spaces, perhaps with a comment after.
            return Kind::LinePuzzle;
        }
        if is_header(trimmed) {
            return Kind::Pass;
        }
        if is_separator(trimmed) {
            return Kind::Separator;
        }
        // At most one past the largest board: enough to tell.
        let cells = trimmed.chars().filter(|&c| !c.is_whitespace() && c != '|').take(MAX_SIDE * MAX_SIDE + 1).count();
        if self.mode == Mode::Auto && cells > MAX_SIDE {
            // Digits apart by spaces, a whole board on one line; never a row,
            // so it also ends a grid that lacks rows.
            return Kind::LinePuzzle;
        }
        Kind::Row(cells)
    }

    /// Whether a line's first token is a whole board. A 16-symbol token is a
    /// 4x4 board unless a symbol above 4 (or the shape or hex option) makes
    /// it a row of a 16x16 grid written without spaces.
    fn is_whole_board(&self, token: &str, length: usize) -> bool {
        if length == 81 && self.parser.required_shape().is_none() && !self.parser.is_hex() {
            return true; // The common case, decided at once.
        }
        let side = length.isqrt();
        if side * side != length {
            return false;
        }
        match self.parser.required_shape() {
            Some(shape) => shape.cells() == length,
            None if self.parser.is_hex() => length == 256,
            None if length == 16 => token.chars().all(|c| matches!(c, '1'..='4' | '.' | '0' | '_')),
            None => Shape::from_side(side).is_some(),
        }
    }

    /// Whether a line starts with a board's rows, apart by spaces. Four
    /// tokens of four symbols are a 4x4 board only if every symbol fits
    /// one, as for a 16-symbol token: otherwise they are a row of a 16x16
    /// grid, in its boxes.
    fn starts_with_rows(&self, line: &str) -> bool {
        match self.parser.rows_on_one_line(line) {
            Some(4) => {
                let rows = line.split_whitespace().take(4);
                !self.parser.is_hex() && rows.flat_map(str::chars).all(|c| matches!(c, '1'..='4' | '.' | '0' | '_'))
            }
            Some(_) => true,
            None => false,
        }
    }

    /// One line without its ending (LF, CRLF or a lone CR), at most
    /// `MAX_LINE` bytes kept; a longer line is skipped to its end and
    /// reported, unless it is a line of an array of puzzles: that is cut
    /// after its last whole object within the bound, and read in parts
    /// ([`Line::Part`]). The byte order mark of the first line is dropped.
    fn read_line(&mut self) -> io::Result<Option<(usize, Line)>> {
        let mut bytes = std::mem::take(&mut self.spare);
        bytes.clear();
        // A line cut into parts goes on with the bytes read past the cut.
        let part = self.part.take();
        bytes.append(&mut self.carry);
        bytes.reserve(96);
        let mut too_long = false;
        let mut cut = false;
        let mut any = part.is_some();
        loop {
            let buffer = self.reader.fill_buf()?;
            if buffer.is_empty() {
                if !any {
                    return Ok(None);
                }
                break;
            }
            if std::mem::take(&mut self.after_cr) {
                let crlf = buffer[0] == b'\n';
                self.first_ending_crlf.get_or_insert(crlf);
                if crlf {
                    self.reader.consume(1);
                    self.bytes += 1;
                    continue;
                }
            }
            any = true;
            let end = memchr::memchr2(b'\n', b'\r', buffer);
            if self.first_ending_crlf.is_none() {
                // A CR last in the buffer is settled by the next byte, above.
                match end.map(|at| (buffer[at], buffer.get(at + 1))) {
                    Some((b'\n', _)) => self.first_ending_crlf = Some(false),
                    Some((_, Some(&next))) => self.first_ending_crlf = Some(next == b'\n'),
                    _ => {}
                }
            }
            let take = end.unwrap_or(buffer.len());
            if !too_long && bytes.len() + take > MAX_LINE {
                // Up to the bound, then cut there if the line is an array's.
                let room = MAX_LINE - bytes.len();
                bytes.extend_from_slice(&buffer[..room]);
                self.reader.consume(room);
                self.bytes += room as u64;
                if let Some(at) = self.array_cut(&bytes, part.is_none()) {
                    self.carry = bytes.split_off(at);
                    cut = true;
                    break;
                }
                too_long = true;
                continue;
            }
            if !too_long {
                bytes.extend_from_slice(&buffer[..take]);
            }
            let consumed = end.map_or(take, |at| at + 1);
            self.after_cr = end.is_some_and(|at| buffer[at] == b'\r');
            self.reader.consume(consumed);
            self.bytes += consumed as u64;
            if end.is_some() {
                break;
            }
        }
        let number = self.line + 1;
        if !cut {
            self.line = number;
        }
        let offset = part.unwrap_or(0);
        if number == 1 && part.is_none() && bytes.starts_with(b"\xEF\xBB\xBF") {
            bytes.drain(..3);
        }
        if too_long {
            let reason =
                format!("the line is longer than {MAX_LINE} bytes; a puzzle line is at most 625 cells and a comment");
            return Ok(Some((number, Line::Unreadable(offset + MAX_LINE + 1, reason))));
        }
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => {
                let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
                let column = offset + String::from_utf8_lossy(valid).chars().count() + 1;
                self.carry.clear();
                return Ok(Some((number, Line::Unreadable(column, "invalid UTF-8; puzzles are text".to_owned()))));
            }
        };
        if cut {
            self.part = Some(offset + text.chars().count());
        }
        Ok(Some((
            number,
            match part {
                None if !cut => Line::Text(text),
                _ => Line::Part { text, offset, continues: cut },
            },
        )))
    }

    /// Where to cut `bytes`, the start of a line too long to read whole
    /// (`starts_line`) or a part of one after a cut: just after its last
    /// object or string that closes at the array's level, if it is a line
    /// of an array of puzzles (one that opens it with `[` and an object or
    /// a string, or one inside it) and has such a value.
    fn array_cut(&self, bytes: &[u8], starts_line: bool) -> Option<usize> {
        let trimmed = bytes.trim_ascii_start();
        let opens = starts_line
            && trimmed.first() == Some(&b'[')
            && matches!(trimmed[1..].trim_ascii_start().first(), Some(b'{' | b'"'));
        if !opens && self.array.is_none() {
            return None;
        }
        let level = usize::from(opens);
        let mut depth = JsonDepth::default();
        let mut cut = None;
        for (at, &byte) in bytes.iter().enumerate() {
            // An object's `}`, or the quote that ends a string.
            let closes = if depth.in_string { byte == b'"' && !depth.escaped } else { byte == b'}' };
            depth.feed_byte(byte);
            if closes && depth.depth == level {
                cut = Some(at + 1);
            } else if depth.opened && depth.depth < level {
                break; // The array has closed.
            }
        }
        cut.filter(|&at| at > 0)
    }
}

/// What one line is, for the reader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Blank, comment or header: passed through.
    Pass,
    /// A whole puzzle on one line.
    LinePuzzle,
    /// The first line of a matrix.
    Matrix,
    /// The first line of a JSON value that goes on below, or of an array.
    JsonValue,
    /// A line of `-`, `+`, `|` and `=` between boxes.
    Separator,
    /// A grid row with this many cells.
    Row(usize),
}

/// How deep a JSON text stands in its objects and arrays, fed a line at a
/// time: brackets and braces inside strings do not count. A string ends
/// with its line, as JSON strings hold no line breaks: a quote left open
/// by mistake does not turn the lines after it inside out.
#[derive(Debug, Default)]
struct JsonDepth {
    depth: usize,
    opened: bool,
    in_string: bool,
    escaped: bool,
    /// Which of the brackets open are objects, the innermost lowest (bit
    /// set) and arrays (bit clear), while they nest at most 64 deep.
    objects: u64,
}

impl JsonDepth {
    /// Follows the value over `text`, one line of it: where the value
    /// closes in it, just past its last bracket, if it does.
    fn feed(&mut self, text: &str) -> Option<usize> {
        (self.in_string, self.escaped) = (false, false);
        text.bytes().position(|byte| self.feed_byte(byte)).map(|at| at + 1)
    }

    /// Follows the value over one more byte: whether that byte closes it.
    fn feed_byte(&mut self, byte: u8) -> bool {
        if self.in_string {
            match byte {
                _ if self.escaped => self.escaped = false,
                b'\\' => self.escaped = true,
                b'"' => self.in_string = false,
                _ => {}
            }
            return false;
        }
        match byte {
            b'"' => self.in_string = true,
            b'{' | b'[' => {
                (self.depth, self.opened) = (self.depth + 1, true);
                self.objects = self.objects << 1 | u64::from(byte == b'{');
            }
            b'}' | b']' => {
                self.depth = self.depth.saturating_sub(1);
                self.objects >>= 1;
                return self.closed();
            }
            _ => {}
        }
        false
    }

    /// Whether the innermost bracket open is an object's, where only a
    /// member's name, a comma or its `}` may come next, never a `{`.
    fn in_object(&self) -> bool {
        (1..=64).contains(&self.depth) && self.objects & 1 == 1
    }

    /// Whether the value has opened and closed again.
    fn closed(&self) -> bool {
        self.opened && self.depth == 0
    }
}

/// The length of the JSON value that `text` starts with, on its line: up to
/// the first comma or closing bracket outside its strings and brackets.
fn value_end(text: &str) -> usize {
    let mut depth = JsonDepth::default();
    // Bytes, not characters: the bytes looked for are ASCII, which no
    // other character's bytes hold.
    text.bytes()
        .position(|byte| {
            let outside = depth.depth == 0 && !depth.in_string;
            let ends = outside && matches!(byte, b',' | b']' | b'}');
            if !ends {
                depth.feed_byte(byte);
            }
            ends
        })
        .unwrap_or(text.len())
}

/// The length of the JSON string that `text` starts with, up to its
/// closing quote, or `None` when it does not close on the line.
fn string_end(text: &str) -> Option<usize> {
    let mut escaped = false;
    // Bytes, as in `value_end`.
    text.bytes().enumerate().skip(1).find_map(|(at, byte)| {
        let closes = byte == b'"' && !escaped;
        escaped = byte == b'\\' && !escaped;
        closes.then_some(at + 1)
    })
}

/// A line of `-`, `=`, `+` and `|` only, with at least one dash.
fn is_separator(line: &str) -> bool {
    line.contains(['-', '=']) && line.chars().all(|c| c.is_whitespace() || "-=+|".contains(c))
}

/// [`GRID_RULES_WAIT`], or what the environment sets.
fn grid_rules_wait() -> Duration {
    static WAIT: OnceLock<Duration> = OnceLock::new();
    *WAIT.get_or_init(|| {
        let millis = std::env::var("LAZYDOKU_GRID_RULES_WAIT_MS").ok().and_then(|ms| ms.parse().ok());
        millis.map_or(GRID_RULES_WAIT, Duration::from_millis)
    })
}

/// Whether `line` is a line of rules that no grid is above: a region or
/// cage map, or rules named by their names alone (text such as `rules of
/// the game` is not).
fn is_stray_rules_line(line: &str) -> bool {
    is_rules_line(line, "regions")
        || is_rules_line(line, "cages")
        || is_rules_line(line, "parity")
        || is_rules_line(line, "rules")
            && line
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|word| !word.is_empty())
                .skip(1)
                .all(|name| lazydoku::format::RULE_NAMES.contains(&name))
}

/// The words that start the lines of rules under a grid, in their order.
const RULES_WORDS: [&str; 4] = ["regions", "cages", "parity", "rules"];

/// Whether `line` is `word` and then a map of one label per cell of a
/// board (for `parity`, marks of even and odd cells, in groups or not), or,
/// for `rules`, anything (the lines of rules under a grid; the parser reads
/// the names).
fn is_rules_line(line: &str, word: &str) -> bool {
    let mut words = line.split_whitespace();
    if words.next() != Some(word) {
        return false;
    }
    let is_square = |cells: usize| cells >= 4 && cells.isqrt().pow(2) == cells;
    match word {
        "rules" => words.next().is_some(),
        // A parity map may be written in groups, as its rows.
        "parity" => {
            let marks: Vec<char> = words.flat_map(str::chars).collect();
            is_square(marks.len()) && marks.iter().all(|c| matches!(c, 'e' | 'E' | 'o' | 'O' | '.'))
        }
        _ => words.next().is_some_and(|map| is_square(map.chars().count())),
    }
}

/// A header such as `Grid 01` or `Puzzle 3: hard`: two words or more, one of
/// them a word of letters. Rows are one token, single symbols apart, or
/// written in their boxes (`1A2B C3D4 ...`).
fn is_header(line: &str) -> bool {
    let mut words = line.split_whitespace();
    let first = words.next();
    words.next().is_some()
        && line.split_whitespace().any(|w| w.chars().filter(char::is_ascii_alphabetic).nth(1).is_some())
        && first.is_some_and(|w| !w.starts_with('['))
        && !is_row_in_boxes(line)
}

/// Whether `line` is a row of a board of 10 to 25 columns (the sides that
/// use letters) written as its boxes: three or more tokens of symbols, each
/// as long as a box is wide.
fn is_row_in_boxes(line: &str) -> bool {
    let Some(width) = line.split_whitespace().next().map(|w| w.chars().count()) else { return false };
    let mut count = 0;
    for word in line.split_whitespace() {
        if word.chars().count() != width || !word.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_')) {
            return false;
        }
        count += 1;
    }
    count >= 3 && Shape::from_side(width * count).is_some_and(|shape| shape.side() >= 10 && shape.box_cols() == width)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn records(input: &str, mode: Mode) -> Vec<Record> {
        let reader: Box<dyn Read + Send> = Box::new(io::Cursor::new(input.as_bytes().to_vec()));
        let mut records = Records::new(BufReader::new(Input::Direct(reader)), mode, Parser::new());
        std::iter::from_fn(|| records.next_record().unwrap()).collect()
    }

    fn kinds(input: &str) -> Vec<(usize, usize, char)> {
        records(input, Mode::Auto)
            .iter()
            .map(|r| match r {
                Record::Puzzle { line, lines, .. } => (*line, *lines, 'P'),
                Record::Unreadable { line, lines, .. } => (*line, *lines, 'U'),
                Record::Text { line, .. } => (*line, 1, 'T'),
            })
            .collect()
    }

    #[test]
    fn line_endings_of_every_kind_end_lines() {
        let p = ".".repeat(81);
        assert_eq!(kinds(&format!("{p}\r{p}\r\n{p}\n{p}")), [(1, 1, 'P'), (2, 1, 'P'), (3, 1, 'P'), (4, 1, 'P')]);
        assert_eq!(kinds(&format!("\u{feff}{p}\n")), [(1, 1, 'P')]);
    }

    #[test]
    fn the_first_line_s_ending_is_known_wherever_the_buffer_splits_it() {
        let p = ".".repeat(81);
        for (input, crlf) in [
            (format!("{p}\r\n{p}\n"), true),
            (format!("{p}\n{p}\r\n"), false),
            (format!("{p}\r{p}\r\n"), false),
            (format!("{p}\r"), false),
            (p.clone(), false),
        ] {
            // Every size of buffer, so that some end right after the CR.
            for capacity in 1..=input.len() + 1 {
                let reader: Box<dyn Read + Send> = Box::new(io::Cursor::new(input.as_bytes().to_vec()));
                let reader = BufReader::with_capacity(capacity, Input::Direct(reader));
                let mut records = Records::new(reader, Mode::Auto, Parser::new());
                let mut count = 0;
                while records.next_record().unwrap().is_some() {
                    count += 1;
                }
                assert_eq!(records.crlf(), crlf, "{input:?} read {capacity} bytes at a time");
                assert_eq!(count, input.matches(&p).count(), "{input:?} read {capacity} bytes at a time");
            }
        }
    }

    #[test]
    fn grids_end_where_their_rows_do() {
        let p = ".".repeat(81);
        let grid = "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n";
        // Complete grids, a grid short of rows, headers, blank lines, a
        // border under a grid, a one-line puzzle after a short grid.
        let input = format!("{grid}{grid}\nGrid 3\n{grid}+---+\n\n1 2 3 4\n{p}\n");
        assert_eq!(
            kinds(&input),
            [
                (1, 4, 'P'),
                (5, 4, 'P'),
                (9, 1, 'T'),
                (10, 1, 'T'),
                (11, 4, 'P'),
                (15, 1, 'T'),
                (16, 1, 'T'),
                (17, 1, 'P'),
                (18, 1, 'P')
            ]
        );
    }

    #[test]
    fn a_json_value_is_one_record_over_its_lines() {
        let p = ".".repeat(81);
        let object = format!("{{\n  \"puzzle\": \"{p}\",\n  \"note\": \"{{ [ \\\" }}\"\n}}\n");
        let grid = "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n";
        // An object over four lines (braces in a string do not count), one
        // on one line, an array, then a grid.
        let input = format!("{object}{{\"puzzle\":\"{p}\"}}\n[{{\"puzzle\":\n\"{p}\"}}]\n{grid}");
        assert_eq!(kinds(&input), [(1, 4, 'P'), (5, 1, 'P'), (6, 1, 'T'), (6, 2, 'P'), (7, 1, 'T'), (8, 4, 'P')]);
        // An array with its brackets on lines of their own: they pass
        // through, and each element is a puzzle. A `]` elsewhere does not.
        let input = format!("[\n{},\n{{\"puzzle\":\"{p}\"}}\n]\n]\n", object.trim_end());
        assert_eq!(kinds(&input), [(1, 1, 'T'), (2, 4, 'P'), (5, 1, 'T'), (6, 1, 'P'), (7, 1, 'T'), (8, 1, 'P')]);
        // Without the comma, the missing comma is an error in its place.
        let input = format!("[\n{object}{{\"puzzle\":\"{p}\"}}\n]\n");
        assert_eq!(kinds(&input), [(1, 1, 'T'), (2, 4, 'P'), (6, 1, 'U'), (6, 1, 'P'), (7, 1, 'T')]);
        // A brace that never closes is one bad line; what follows is read
        // as it would be without it, grids, matrices and arrays too.
        let input = format!("{{\n{p}\n{grid}{object}[\n[1,2],\n[2,1]]\n[\n{object}]\n{p}\n");
        let expected = [(1, 1, 'U'), (2, 1, 'P'), (3, 4, 'P'), (7, 4, 'P'), (11, 3, 'P'), (14, 1, 'T'), (15, 4, 'P')];
        assert_eq!(kinds(&input)[..7], expected);
        assert_eq!(kinds(&input)[7..], [(19, 1, 'T'), (20, 1, 'P')]);
        // A line of JSON Lines cut short is an error on its own, as the next
        // line starts an object where a member belongs; objects nested in
        // an array, on lines of their own, are no such line.
        let input = format!("{{\"puzzle\":\"{p}\"\n{{\"puzzle\":\"{p}\"}}\n{{\"puzzle\":\"{p}\",\n\"cages\":[\n");
        let input = format!("{input}{{\"sum\":3,\"cells\":[0,1]}},\n{{\"sum\":7,\"cells\":[2,3]}}\n]}}\n");
        assert_eq!(kinds(&input), [(1, 1, 'U'), (2, 1, 'P'), (3, 5, 'P')]);
        // Nor one that stays open past the bound.
        let input = format!("{{\n{}", format!("{p}\n").repeat(MAX_VALUE_LINES + 10));
        let read = kinds(&input);
        assert_eq!(read.len(), MAX_VALUE_LINES + 11);
        assert_eq!(read[0], (1, 1, 'U'));
        assert!(read[1..].iter().enumerate().all(|(k, &r)| r == (k + 2, 1, 'P')));
    }

    /// The records of an array are pieces of its lines: put back together,
    /// each where its line and offset say, they are the input again, and
    /// each object is a puzzle of its own.
    #[test]
    fn an_array_is_cut_into_its_objects_and_what_lies_between() {
        let p = ".".repeat(81);
        let object = format!("{{\"puzzle\":\"{p}\",\"note\":\"[ {{ ] }}\\\" ,\"}}");
        let over_lines = format!("{{\"puzzle\":\n  \"{p}\"\n}}");
        let inputs = [
            format!("[{object},{object}]"),
            format!("  [ {object} ,  {object}  ]  # two"),
            format!("[\n  {object},\n  {over_lines}, {object}\n]"),
            format!("[{over_lines},\n{object}]"),
            format!("[ {object}]\n{p}\n[{object}]"),
            "[]".to_owned(),
            "[ ]".to_owned(),
            "[\n]".to_owned(),
            // Blank lines inside, after the `[` too.
            format!("[\n\n  {object},\n\n  {object}\n]"),
            // Lines too long to read whole, read in parts: one that opens
            // the array, and one after a `[` alone.
            format!("[{}]", vec![object.as_str(); 2 * MAX_LINE / object.len()].join(", ")),
            format!("[\n{}\n]", vec![object.as_str(); 2 * MAX_LINE / object.len()].join(",")),
        ];
        for input in inputs {
            let records = records(&input, Mode::Auto);
            let lines: Vec<&str> = input.lines().collect();
            let mut rebuilt = String::new();
            for record in &records {
                let (line, text, piece) = match record {
                    Record::Puzzle { line, text, piece, .. } | Record::Text { line, text, piece } => {
                        (line, text, piece)
                    }
                    Record::Unreadable { reason, .. } => panic!("{input}: {reason}"),
                };
                let first = text.lines().next().unwrap_or("");
                assert!(lines[line - 1].chars().skip(piece.offset).collect::<String>().starts_with(first), "{input}");
                if piece.in_array && matches!(record, Record::Puzzle { .. }) {
                    let board = text.parse::<lazydoku::Board>().map(|b| b.as_str().len());
                    assert_eq!(board, Ok(81), "{input}: {text}");
                }
                rebuilt.push_str(text);
                if !piece.joined {
                    rebuilt.push('\n');
                }
            }
            assert!(rebuilt.trim_end() == input, "{input} came back as {rebuilt}");
            let objects =
                records.iter().filter(|r| matches!(r, Record::Puzzle { piece, .. } if piece.in_array)).count();
            assert_eq!(objects, input.matches("\"puzzle\"").count(), "{input}");
        }
        // An object that never closes takes the rest of its line with it.
        let input = format!("[{{\"puzzle\":\"{p}\"}}, {{\"puzzle\":\n");
        assert_eq!(kinds(&input), [(1, 1, 'T'), (1, 1, 'P'), (1, 1, 'T'), (1, 1, 'U'), (1, 1, 'U')]);
        // One cut short, its lines after read again as the array's.
        let input = format!("[\n{{\"puzzle\":\"{p}\"\n{{\"puzzle\":\"{p}\"}},\n{{\"puzzle\":\"{p}\"}}\n]\n");
        assert_eq!(kinds(&input), [(1, 1, 'T'), (2, 1, 'U'), (3, 1, 'P'), (3, 1, 'T'), (4, 1, 'P'), (5, 1, 'T')]);
        // Stray closing brackets and other values are errors in their place.
        let input = format!("[{{\"puzzle\":\"{p}\"}}}}, 3, true, [1], {{\"puzzle\":\"{p}\"}}]\n");
        let expected = [(1, 1, 'T'), (1, 1, 'P'), (1, 1, 'U'), (1, 1, 'T'), (1, 1, 'U'), (1, 1, 'T'), (1, 1, 'U')];
        assert_eq!(kinds(&input)[..7], expected);
        assert_eq!(kinds(&input)[7..], [(1, 1, 'T'), (1, 1, 'U'), (1, 1, 'T'), (1, 1, 'P'), (1, 1, 'T')]);
        // An array of strings: each string's text is a puzzle, its quotes
        // left to the answer; also on a line too long to read whole.
        let strings = [
            format!("[\"{p}\", \"{p}\"]"),
            format!("[\n  \"{p}\",\n  \"{p}\"\n]"),
            format!("[{}]", vec![format!("\"{p}\""); 2 * MAX_LINE / p.len()].join(",")),
        ];
        for input in strings {
            let records = records(&input, Mode::Auto);
            let mut rebuilt = String::new();
            for record in &records {
                match record {
                    Record::Puzzle { text, piece, .. } => {
                        assert!(piece.quoted && piece.in_array && *text == p, "{input}");
                        rebuilt.extend(["\"", text.as_str(), "\""]);
                    }
                    Record::Text { text, piece, .. } => {
                        assert!(piece.in_array && !piece.quoted);
                        rebuilt.push_str(text);
                    }
                    Record::Unreadable { reason, .. } => panic!("{input}: {reason}"),
                }
                if !record.piece().joined {
                    rebuilt.push('\n');
                }
            }
            assert!(rebuilt.trim_end() == input, "{input} came back as {rebuilt}");
            assert_eq!(records.iter().filter(|r| r.piece().quoted).count(), input.matches(&p).count());
        }
        // An object longer than a line may be is no line of an array: the
        // line is reported, and the lines after it read.
        let long = format!("{{\"puzzle\":\"{p}\",\"note\":\"{}\"}}", "x".repeat(MAX_LINE));
        let input = format!("[{{\"puzzle\":\"{p}\"}}, {long}]\n{p}\n");
        assert_eq!(kinds(&input), [(1, 1, 'T'), (1, 1, 'P'), (1, 1, 'U'), (2, 1, 'P'), (1, 1, 'U')]);
    }

    #[test]
    fn a_board_written_as_its_rows_on_one_line_is_one_record() {
        let rows9 =
            ["53..7....", "6..195...", ".98....6.", "8...6...3", "4..8.3..1", "7...2...6", ".6....28.", "...419..5"];
        let nine = format!("{} ....8..79", rows9.join(" "));
        let four = "1... .... ..2. ....";
        // A 16x16 grid written in its boxes: rows of four tokens of four,
        // which are no 4x4 board since they hold symbols above 4.
        let sixteen_row = "1234 5678 9abc defg\n";
        let input = format!("{nine} # a comment after it\n{four}\n{four} # easy\n{}", sixteen_row.repeat(16));
        assert_eq!(kinds(&input), [(1, 1, 'P'), (2, 1, 'P'), (3, 1, 'P'), (4, 16, 'P')]);
    }

    /// Records read into a chunk, with each line's buffer read into again,
    /// are the records read one at a time: every kind, lines longer than
    /// the buffer kept, invalid UTF-8, and a line too long to read.
    #[test]
    fn a_chunk_holds_the_records_read_one_at_a_time() {
        let p = ".".repeat(81);
        let grid = "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n";
        let long_comment = format!("# {}", "-".repeat(10_000));
        let mut input = format!("# a comment\n{p}\n{grid}\n[[1,2],[3,4]]\n{long_comment}\n{p} # note\n").into_bytes();
        input.extend_from_slice(b"\xff..\n");
        input.extend_from_slice(format!("{}\n{p}\n\n{p}", "x".repeat(MAX_LINE + 5)).as_bytes());
        let open = || {
            let reader: Box<dyn Read + Send> = Box::new(io::Cursor::new(input.clone()));
            Records::new(BufReader::new(Input::Direct(reader)), Mode::Auto, Parser::new())
        };
        let mut one_at_a_time = open();
        let expected: Vec<Record> = std::iter::from_fn(|| one_at_a_time.next_record().unwrap()).collect();
        let mut chunked = open();
        let mut chunk = Chunk::with_capacity(4);
        while chunked.read_into(&mut chunk).unwrap() {}
        assert_eq!(chunk.len(), expected.len());
        assert!(expected.len() >= 10, "{expected:?}");
        for (index, record) in expected.iter().enumerate() {
            assert_eq!(format!("{:?}", chunk.get(index)), format!("{record:?}"));
        }
        let kinds: Vec<char> = chunk
            .range(0, chunk.len())
            .map(|r| match r {
                Record::Puzzle { .. } => 'P',
                Record::Unreadable { .. } => 'U',
                Record::Text { .. } => 'T',
            })
            .collect();
        assert_eq!(kinds, ['T', 'P', 'P', 'T', 'P', 'T', 'P', 'U', 'U', 'P', 'T', 'P']);
    }

    /// Plain one-line puzzles taken straight from the input's buffer are
    /// the records read one at a time, wherever the buffer ends and
    /// whichever line endings the input mixes.
    #[test]
    fn lines_taken_from_the_buffer_are_the_records_read_one_at_a_time() {
        let p = ".".repeat(81);
        let q = format!("1{}", ".".repeat(80));
        let grid = "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n";
        for input in [
            format!("{p}\n{q}\n# note\n{p}\n{grid}{q}\n\n{p}"),
            format!("{p}\r\n{q}\r\n{p}\n{q}\r{p}\r\n{grid}{q}\r\n"),
            format!("\u{feff}{q}\n{p}\r\n{q}\n[{{\"puzzle\":\"{p}\"}},\n{{\"puzzle\":\"{q}\"}}]\n{p}\n"),
        ] {
            for capacity in (1..=200).chain([input.len() + 1]) {
                let open = || {
                    let reader: Box<dyn Read + Send> = Box::new(io::Cursor::new(input.as_bytes().to_vec()));
                    Records::new(BufReader::with_capacity(capacity, Input::Direct(reader)), Mode::Auto, Parser::new())
                };
                let mut one_at_a_time = open();
                let expected: Vec<Record> = std::iter::from_fn(|| one_at_a_time.next_record().unwrap()).collect();
                let mut chunked = open();
                let mut chunk = Chunk::with_capacity(4);
                while chunked.read_into(&mut chunk).unwrap() {}
                assert_eq!(chunk.len(), expected.len(), "{input:?} at {capacity}");
                for (index, record) in expected.iter().enumerate() {
                    assert_eq!(format!("{:?}", chunk.get(index)), format!("{record:?}"), "{input:?} at {capacity}");
                }
                assert_eq!((chunked.bytes, chunked.crlf()), (one_at_a_time.bytes, one_at_a_time.crlf()));
            }
        }
    }

    #[test]
    fn paths_are_told_from_puzzles() {
        assert!(looks_like_path("puzzles.txt"));
        assert!(looks_like_path("a/b"));
        assert!(!looks_like_path("..3.2.6..9"));
        assert!(!looks_like_path(&".".repeat(81)));
    }
}
