//! Helpers shared by the integration tests: dataset loading and a validity
//! check that uses nothing of the library.

#![allow(dead_code, reason = "each test file uses a different part")]

use std::path::Path;

/// The puzzle lines of a dataset in `data/`: comments and blank lines skipped.
pub fn load(name: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split_whitespace().next().unwrap_or_default().to_owned())
        .collect()
}

/// The value of a symbol: `1-9` then `A-Z`; `None` for anything else.
fn value(ch: u8) -> Option<usize> {
    match ch {
        b'1'..=b'9' => Some(usize::from(ch - b'0')),
        b'A'..=b'Z' => Some(usize::from(ch - b'A') + 10),
        _ => None,
    }
}

/// Whether `solution` is a complete, valid grid of boxes `br` x `bc`
/// (diagonals too when asked) that keeps every given of `puzzle`, where
/// givens are `1-9`, `A-Z` and anything else is empty.
pub fn is_solution_of(puzzle: &str, solution: &str, br: usize, bc: usize, diagonals: bool) -> bool {
    let side = br * bc;
    let (p, s) = (puzzle.as_bytes(), solution.as_bytes());
    if p.len() != side * side || s.len() != side * side {
        return false;
    }
    let keeps = p.iter().zip(s).all(|(&g, &v)| value(g).is_none() || g == v);
    let mut units: Vec<Vec<usize>> = Vec::new();
    for i in 0..side {
        units.push((0..side).map(|j| i * side + j).collect());
        units.push((0..side).map(|j| j * side + i).collect());
        let (top, left) = ((i / br) * br, (i % br) * bc);
        units.push((0..side).map(|j| (top + j / bc) * side + left + j % bc).collect());
    }
    if diagonals {
        units.push((0..side).map(|i| i * side + i).collect());
        units.push((0..side).map(|i| i * side + side - 1 - i).collect());
    }
    let all_valid = units.iter().all(|unit| {
        let mut seen = vec![false; side + 1];
        unit.iter().all(|&c| match value(s[c]) {
            Some(v) if v <= side && !seen[v] => {
                seen[v] = true;
                true
            }
            _ => false,
        })
    });
    keeps && all_valid
}
