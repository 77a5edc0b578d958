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
            Err(_) if looks_like_path(arg) && parser.parse_board(arg).is_err() => Err(format!("{arg}: no such file")),
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
    Puzzle { line: usize, lines: usize, text: T },
    /// A puzzle that could not be read as text.
    Unreadable { line: usize, lines: usize, column: usize, reason: T },
    /// A blank, comment or header line, passed through as it is.
    Text { line: usize, text: T },
}

impl<T> Record<T> {
    pub fn line(&self) -> usize {
        match self {
            Record::Puzzle { line, .. } | Record::Unreadable { line, .. } | Record::Text { line, .. } => *line,
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
            Record::Puzzle { line, lines, .. } => Record::Puzzle { line, lines, text },
            Record::Unreadable { line, lines, column, .. } => Record::Unreadable { line, lines, column, reason: text },
            Record::Text { line, .. } => Record::Text { line, text },
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
    /// Inside an array of puzzles written an element to a line or more,
    /// whose brackets stand on lines of their own: the line of its `]` is
    /// passed through.
    in_array: bool,
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
            in_array: false,
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
                return Ok(grid.map(|g| self.finish_grid(g)).or_else(|| self.ready.pop_front()));
            };
            let text = match line {
                Line::Unreadable(column, reason) => {
                    if let Some(g) = grid {
                        self.pending.push_front((number, Line::Unreadable(column, reason)));
                        return Ok(Some(self.finish_grid(g)));
                    }
                    return Ok(Some(Record::Unreadable { line: number, lines: 1, column, reason }));
                }
                Line::Text(text) => text,
            };
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
                    }));
                }
                (Kind::Pass, None) => return Ok(Some(Record::Text { line: number, text })),
                (_, None) if self.in_array && text.trim() == "]" => {
                    self.in_array = false;
                    return Ok(Some(Record::Text { line: number, text }));
                }
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
                    return Ok(Some(Record::Puzzle { line: number, lines: 1, text }));
                }
                (Kind::Matrix, None) => {
                    // A line of `[` alone opens a matrix or an array of
                    // objects, as the next line tells. The brackets of an
                    // array pass through, and its elements are puzzles.
                    if text.trim() == "[" {
                        let next = self.next_line()?;
                        let objects = matches!(&next, Some((_, Line::Text(t))) if t.trim_start().starts_with('{'));
                        // Back where it came from: first of the lines put back.
                        if let Some(next) = next {
                            self.pending.push_front(next);
                        }
                        if objects {
                            self.in_array = true;
                            return Ok(Some(Record::Text { line: number, text }));
                        }
                    }
                    return self.matrix(number, text).map(Some);
                }
                (Kind::JsonValue, None) => return self.json_value(number, text).map(Some),
                (Kind::Separator, None) => grid = Some(Grid { first: number, lines: vec![text], rows: 0, width: 0 }),
                (Kind::Row(width), None) => {
                    grid = Some(Grid { first: number, lines: vec![text], rows: 1, width });
                }
            }
        }
    }

    /// Takes the lines of rules under a complete grid into it: `regions
    /// MAP`, then `cages MAP SUMS`, then `rules NAMES`, any of them, as
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
            let mut records = grid.lines.into_iter().zip(grid.first..).map(|(text, line)| Record::Text { line, text });
            let first = records.next();
            self.ready.extend(records);
            return first.unwrap_or(Record::Text { line: grid.first, text: String::new() });
        }
        Record::Puzzle { line: grid.first, lines, text: grid.lines.join("\n") }
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
        Ok(Record::Puzzle { line: number, lines: lines.len(), text: lines.join("\n") })
    }

    /// The next line: one put back first, else one read.
    fn next_line(&mut self) -> io::Result<Option<(usize, Line)>> {
        match self.pending.pop_front() {
            Some(line) => Ok(Some(line)),
            None => self.read_line(),
        }
    }

    /// A JSON value that opens on line `number` with `first` and goes on
    /// over the lines after it: a puzzle object written over several lines,
    /// as `jq` writes one, taken whole as one record; or an array of
    /// puzzles whose first object is on the line of its `[`, which is
    /// refused whole, with the ways to give it. (An array whose `[` stands
    /// alone is read element by element instead.)
    /// A value that does not close within [`MAX_VALUE_LINES`] lines and
    /// [`MAX_VALUE_BYTES`] bytes, or before the input ends, is an error on
    /// its first line alone, and the lines after it are read afresh: a
    /// stray `{` loses no puzzle after it.
    fn json_value(&mut self, number: usize, first: String) -> io::Result<Record> {
        let mut depth = JsonDepth::default();
        depth.feed(&first);
        let mut bytes = first.len();
        let mut lines = vec![(number, first)];
        while !depth.closed() && lines.len() < MAX_VALUE_LINES && bytes <= MAX_VALUE_BYTES {
            match self.next_line()? {
                Some((at, Line::Text(text))) => {
                    depth.feed(&text);
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
        let is_array = lines[0].1.trim_start().starts_with('[');
        let mut reason = String::new();
        if is_array {
            reason.push_str(
                "a JSON array of puzzles is read with its brackets on lines of their own and its objects on lines \
                 of theirs (as `jq .` writes it), or its objects one after another (`jq -c '.[]' FILE`)",
            );
        }
        if !depth.closed() {
            if !is_array {
                let within = if lines.len() >= MAX_VALUE_LINES || bytes > MAX_VALUE_BYTES {
                    format!("within {MAX_VALUE_LINES} lines and {} KiB", MAX_VALUE_BYTES / 1024)
                } else {
                    "before the input ends".to_owned()
                };
                reason = format!("a JSON object opened here is not closed {within}");
            }
            reason.push_str("; the lines after this one are read on their own");
            let opened = if is_array { '[' } else { '{' };
            let column = lines[0].1.find(opened).map_or(1, |at| at + 1);
            // The lines after the first go back, ahead of any put back before.
            for (at, text) in lines.drain(1..).rev() {
                self.pending.push_front((at, Line::Text(text)));
            }
            return Ok(Record::Unreadable { line: number, lines: 1, column, reason });
        }
        if is_array {
            return Ok(Record::Unreadable { line: number, lines: lines.len(), column: 1, reason });
        }
        let text = lines.iter().map(|(_, text)| text.as_str()).collect::<Vec<_>>().join("\n");
        Ok(Record::Puzzle { line: number, lines: lines.len(), text })
    }

    /// What a line is, given the grid being gathered, if any.
    fn classify(&self, text: &str, grid: Option<&Grid>) -> Kind {
        // The common case first: a line that is one token of printable
        // ASCII, as in every large dataset.
        let bytes = text.as_bytes();
        if grid.is_none()
            && self.mode == Mode::Auto
            // A fold rather than `all`, so that the test runs on many bytes
            // at once: this loop was most of the reader thread's time.
            && bytes.iter().fold(true, |graphic, b| graphic & b.is_ascii_graphic())
            && !matches!(bytes.first(), None | Some(b'#' | b'[' | b'{'))
            && (self.is_whole_board(text, bytes.len()) || bytes.len() > MAX_SIDE)
        {
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
                || trimmed.strip_prefix('[').is_some_and(|rest| rest.trim_start().starts_with('{')))
        {
            // A JSON object on one line (JSON Lines), as `generate --format
            // json` writes each puzzle; or a value that goes on below: an
            // object written over several lines, or an array of objects.
            let mut depth = JsonDepth::default();
            depth.feed(trimmed);
            return if depth.closed() && trimmed.starts_with('{') { Kind::LinePuzzle } else { Kind::JsonValue };
        }
        if grid.is_none() && trimmed.starts_with('[') {
            return Kind::Matrix;
        }
        let token = trimmed.split_whitespace().next().unwrap_or("");
        let length = token.chars().count();
        let free = grid.is_none() && self.mode == Mode::Auto;
        if free && (self.is_whole_board(token, length) || length > MAX_SIDE) {
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
    /// reported. The byte order mark of the first line is dropped.
    fn read_line(&mut self) -> io::Result<Option<(usize, Line)>> {
        let mut bytes = std::mem::take(&mut self.spare);
        bytes.clear();
        bytes.reserve(96);
        let mut too_long = false;
        let mut any = false;
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
            if bytes.len() + take <= MAX_LINE {
                bytes.extend_from_slice(&buffer[..take]);
            } else {
                too_long = true;
            }
            let consumed = end.map_or(take, |at| at + 1);
            self.after_cr = end.is_some_and(|at| buffer[at] == b'\r');
            self.reader.consume(consumed);
            self.bytes += consumed as u64;
            if end.is_some() {
                break;
            }
        }
        self.line += 1;
        let number = self.line;
        if number == 1 && bytes.starts_with(b"\xEF\xBB\xBF") {
            bytes.drain(..3);
        }
        if too_long {
            let reason =
                format!("the line is longer than {MAX_LINE} bytes; a puzzle line is at most 625 cells and a comment");
            return Ok(Some((number, Line::Unreadable(MAX_LINE + 1, reason))));
        }
        Ok(Some((
            number,
            match String::from_utf8(bytes) {
                Ok(text) => Line::Text(text),
                Err(e) => {
                    let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
                    let column = String::from_utf8_lossy(valid).chars().count() + 1;
                    Line::Unreadable(column, "invalid UTF-8; puzzles are text".to_owned())
                }
            },
        )))
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
}

impl JsonDepth {
    fn feed(&mut self, text: &str) {
        (self.in_string, self.escaped) = (false, false);
        for byte in text.bytes() {
            if self.closed() {
                return;
            }
            if self.in_string {
                match byte {
                    _ if self.escaped => self.escaped = false,
                    b'\\' => self.escaped = true,
                    b'"' => self.in_string = false,
                    _ => {}
                }
                continue;
            }
            match byte {
                b'"' => self.in_string = true,
                b'{' | b'[' => (self.depth, self.opened) = (self.depth + 1, true),
                b'}' | b']' => self.depth = self.depth.saturating_sub(1),
                _ => {}
            }
        }
    }

    /// Whether the value has opened and closed again.
    fn closed(&self) -> bool {
        self.opened && self.depth == 0
    }
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
        || is_rules_line(line, "rules")
            && line
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|word| !word.is_empty())
                .skip(1)
                .all(|name| lazydoku::format::RULE_NAMES.contains(&name))
}

/// The words that start the lines of rules under a grid, in their order.
const RULES_WORDS: [&str; 3] = ["regions", "cages", "rules"];

/// Whether `line` is `word` and then a map of one label per cell of a
/// board, or, for `rules`, anything (the lines of rules under a grid; the
/// parser reads the names).
fn is_rules_line(line: &str, word: &str) -> bool {
    let mut words = line.split_whitespace();
    words.next() == Some(word)
        && words.next().is_some_and(|map| {
            let cells = map.chars().count();
            word == "rules" || (cells >= 4 && cells.isqrt().pow(2) == cells)
        })
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
        assert_eq!(kinds(&input), [(1, 4, 'P'), (5, 1, 'P'), (6, 2, 'U'), (8, 4, 'P')]);
        // An array with its brackets on lines of their own: they pass
        // through, and each element is a puzzle. A `]` elsewhere does not.
        let input = format!("[\n{object}{{\"puzzle\":\"{p}\"}}\n]\n]\n");
        assert_eq!(kinds(&input), [(1, 1, 'T'), (2, 4, 'P'), (6, 1, 'P'), (7, 1, 'T'), (8, 1, 'P')]);
        // A brace that never closes is one bad line; what follows is read
        // as it would be without it, grids, matrices and arrays too.
        let input = format!("{{\n{p}\n{grid}{object}[\n[1,2],\n[2,1]]\n[\n{object}]\n{p}\n");
        let expected = [(1, 1, 'U'), (2, 1, 'P'), (3, 4, 'P'), (7, 4, 'P'), (11, 3, 'P'), (14, 1, 'T'), (15, 4, 'P')];
        assert_eq!(kinds(&input)[..7], expected);
        assert_eq!(kinds(&input)[7..], [(19, 1, 'T'), (20, 1, 'P')]);
        // Nor one that stays open past the bound.
        let input = format!("{{\n{}", format!("{p}\n").repeat(MAX_VALUE_LINES + 10));
        let read = kinds(&input);
        assert_eq!(read.len(), MAX_VALUE_LINES + 11);
        assert_eq!(read[0], (1, 1, 'U'));
        assert!(read[1..].iter().enumerate().all(|(k, &r)| r == (k + 2, 1, 'P')));
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

    #[test]
    fn paths_are_told_from_puzzles() {
        assert!(looks_like_path("puzzles.txt"));
        assert!(looks_like_path("a/b"));
        assert!(!looks_like_path("..3.2.6..9"));
        assert!(!looks_like_path(&".".repeat(81)));
    }
}
