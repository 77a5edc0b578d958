//! Reading puzzles: from arguments, files or stdin, one per line or one
//! multi-line grid.

use std::fs;
use std::io::{self, Read};
use std::path::Path;

/// Where a batch of puzzles comes from, for messages.
#[derive(Clone, Debug)]
pub struct Source {
    /// `-` for stdin, the path for a file, `argument` for text given inline.
    pub name: String,
    pub text: String,
}

/// One puzzle's text and where it starts.
#[derive(Clone, Debug)]
pub struct Record<'a> {
    pub text: &'a str,
    /// Line number from 1 of the puzzle's first line in its source.
    pub line: usize,
}

/// Reads each input: `-` is stdin, an existing path is a file, anything else
/// is the puzzle itself.
pub fn read_sources(inputs: &[String]) -> Result<Vec<Source>, String> {
    inputs
        .iter()
        .map(|input| {
            if input == "-" {
                let mut bytes = Vec::new();
                io::stdin().read_to_end(&mut bytes).map_err(|e| format!("cannot read stdin: {e}"))?;
                let text = String::from_utf8(bytes).map_err(|e| not_utf8("stdin", &e))?;
                Ok(Source { name: "-".to_owned(), text })
            } else if Path::new(input).is_file() {
                let bytes = fs::read(input).map_err(|e| format!("cannot read {input}: {e}"))?;
                let text = String::from_utf8(bytes).map_err(|e| not_utf8(input, &e))?;
                Ok(Source { name: input.clone(), text })
            } else if looks_like_puzzle(input) {
                Ok(Source { name: "argument".to_owned(), text: input.clone() })
            } else {
                Err(format!("{input}: no such file, and not a puzzle either"))
            }
        })
        .collect()
}

fn not_utf8(name: &str, e: &std::string::FromUtf8Error) -> String {
    let at = e.utf8_error().valid_up_to();
    format!("{name}: not UTF-8 text (invalid byte at offset {at})")
}

/// Whether an argument is meant as a puzzle rather than a path: it has no
/// path separator and is made of puzzle characters.
fn looks_like_puzzle(arg: &str) -> bool {
    !arg.contains('/') && arg.chars().all(|c| c.is_ascii_alphanumeric() || " .,_|-+[]\n\r\t#".contains(c))
}

/// Splits a source into puzzles: one per line when its first content line is
/// a whole puzzle by itself, else the whole text as one multi-line puzzle.
pub fn records(text: &str) -> Vec<Record<'_>> {
    let mut content = text.lines().enumerate().filter(|(_, l)| is_content(l));
    let Some((_, first)) = content.next() else { return Vec::new() };
    let one_per_line = content.next().is_none() || is_line_puzzle(first);
    if one_per_line {
        text.lines().enumerate().filter(|(_, l)| is_content(l)).map(|(i, l)| Record { text: l, line: i + 1 }).collect()
    } else {
        let line = text.lines().position(is_content).map_or(1, |i| i + 1);
        vec![Record { text, line }]
    }
}

fn is_content(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && !t.starts_with('#')
}

/// Whether a line's first token has the length of a whole board.
fn is_line_puzzle(line: &str) -> bool {
    let token = line.split_whitespace().next().unwrap_or("");
    let n = token.chars().count();
    let side = n.isqrt();
    side >= 4 && side * side == n && !token.starts_with('[')
}
