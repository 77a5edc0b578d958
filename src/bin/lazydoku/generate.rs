//! `lazydoku generate`: puzzles from [`Generator`], streamed in order,
//! made in parallel.

use std::io::Write;

use itertools::Itertools;
use lazydoku::Board;
use lazydoku::format::Layout;
use lazydoku::generate::{Generator, NoPuzzle};
use rayon::prelude::*;

use crate::answer::Format;

/// Which rules of its own each puzzle has, to be written beside it: a
/// random region map, random cages.
#[derive(Clone, Debug, Default)]
#[expect(clippy::struct_excessive_bools, reason = "which rules to write, each independent of the others")]
pub struct Extras {
    pub regions: bool,
    pub cages: bool,
    /// A parity map of even and odd cells.
    pub parity: bool,
    /// 16x16 puzzles written in 0-F (`--hex`).
    pub hex: bool,
    /// The names of the rules the flags add, apart by commas.
    pub names: Option<String>,
    /// The puzzle `--rules` read, and how it was laid out: its own rules
    /// (lines, relations, ...) are written from it in JSON.
    pub source: Option<(Board, Layout)>,
}

/// How many puzzles each thread makes between two writes: enough to keep
/// the threads busy, few enough that output comes as it is made.
const PER_THREAD: u64 = 4;

/// Writes `count` puzzles of `generator` (endlessly with `None`) to stdout,
/// in stream order whatever `jobs` is, since a puzzle depends only on the
/// seed and its position in the stream. Also returns once stdout is closed.
/// `extras` says which of each puzzle's own rules are written with it.
pub fn run(
    generator: &Generator,
    count: Option<u64>,
    jobs: usize,
    format: Format,
    extras: &Extras,
) -> Result<bool, String> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build().map_err(|e| e.to_string())?;
    let stdout = std::io::stdout();
    let chunk = PER_THREAD * u64::try_from(jobs).unwrap_or(1);
    let mut start = 0u64;
    while count.is_none_or(|count| start < count) {
        let end = count.map_or(start + chunk, |count| count.min(start + chunk));
        let puzzles: Vec<Result<Board, NoPuzzle>> =
            pool.install(|| (start..end).into_par_iter().map(|i| generator.try_puzzle(i)).collect());
        let mut out = stdout.lock();
        for (index, puzzle) in (start..end).zip(puzzles) {
            let puzzle = puzzle.map_err(|why| match why {
                NoPuzzle::NoSolution => why.to_string(),
                NoPuzzle::FloorTooHigh { .. } => format!("{why}; fewer --clues may reach it"),
                NoPuzzle::NoneOfTheDifficulty => format!("{why}, for puzzle {} of the stream", index + 1),
            })?;
            let text = render(&puzzle, index, format, extras);
            let written = writeln!(out, "{}", text.trim_end())
                .and_then(|()| if format == Format::Grid { writeln!(out) } else { Ok(()) });
            // A closed pipe (`| head`) is the reader saying it has enough.
            if written.is_err() {
                return Ok(true);
            }
        }
        if out.flush().is_err() {
            return Ok(true);
        }
        start = end;
    }
    Ok(true)
}

/// The text of puzzle `index` in `format`, with the rules of its own that
/// `extras` names: after the puzzle on its line (or below its grid) as the
/// region map, the cage map with its sums and the rules' names, which
/// `--regions` and `--cages` and the parser read back, the parity map and
/// the rules' names; in JSON as `regions`, `cages`, `even` and `odd`, and
/// `rules` members.
pub fn render(puzzle: &Board, index: u64, format: Format, extras: &Extras) -> String {
    let rules = puzzle.rules();
    let regions = extras.regions.then(|| rules.region_map());
    let cages = if extras.cages { rules.cage_map() } else { None };
    let parity = if extras.parity { rules.parity_map() } else { None };
    let names = extras.names.as_deref();
    let symbols = |text: &str| if extras.hex { crate::answer::hexadecimal(text) } else { text.to_owned() };
    match format {
        Format::Line | Format::Grid if extras.source.is_some() => {
            crate::answer::note_rules_left_out(extras.source.as_ref().map(|(_, layout)| layout));
            line_or_grid(puzzle, format, extras, (regions, cages, parity, names))
        }
        Format::Line | Format::Grid => line_or_grid(puzzle, format, extras, (regions, cages, parity, names)),
        Format::FPuzzles => crate::answer::f_puzzles_link(puzzle),
        Format::Json => {
            let clues = puzzle.cells().flatten().count();
            let head = format!("{{\"index\":{index},\"puzzle\":\"{}\",\"clues\":{clues}", symbols(puzzle.as_str()));
            if let Some((board, layout)) = &extras.source {
                // Every rule of the puzzle --rules read, as it wrote them.
                let members = crate::answer::layout_fields(board, layout);
                let members = members.into_iter().map(|(name, value)| format!(",\"{name}\":{value}"));
                return std::iter::once(head).chain(members).chain(std::iter::once("}".to_owned())).collect();
            }
            let regions = regions.map(|map| format!(",\"regions\":\"{map}\""));
            let cages = extras.cages.then(|| format!(",\"cages\":{}", crate::answer::cages_json(&rules)));
            let names = names.map(|names| format!(",\"rules\":{}", crate::answer::names_json(names)));
            let parity = parity.map(|map| crate::answer::parity_json(&map));
            std::iter::once(head)
                .chain(regions)
                .chain(cages)
                .chain(parity)
                .chain(names)
                .chain(std::iter::once("}".to_owned()))
                .collect()
        }
    }
}

/// The puzzle on a line, or as a grid, with the maps and names of
/// `maps` (regions, cages, parity, rule names) after it or below it.
fn line_or_grid(
    puzzle: &Board,
    format: Format,
    extras: &Extras,
    maps: (Option<String>, Option<String>, Option<String>, Option<&str>),
) -> String {
    let (regions, cages, parity, names) = maps;
    let symbols = |text: &str| if extras.hex { crate::answer::hexadecimal(text) } else { text.to_owned() };
    match format {
        Format::Line => std::iter::once(symbols(puzzle.as_str()))
            .chain(regions)
            .chain(cages)
            .chain(parity.as_ref().map(|map| format!("parity:{map}")))
            .chain(names.map(|names| format!("rules:{names}")))
            .join(" "),
        Format::Grid => {
            let below = regions
                .map(|map| format!("regions {map}\n"))
                .into_iter()
                .chain(cages.map(|map| format!("cages {map}\n")))
                .chain(parity.as_ref().map(|map| format!("parity {map}\n")))
                .chain(names.map(|names| format!("rules {names}\n")));
            std::iter::once(symbols(&format!("{puzzle:#}"))).chain(below).collect()
        }
        Format::FPuzzles | Format::Json => unreachable!("written by render"),
    }
}
