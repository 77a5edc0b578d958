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

/// Backtracking over the first empty cell, for [`brute_count`].
fn go(grid: &mut [usize], side: usize, limit: usize, ok: &dyn Fn(&[usize], usize, usize) -> bool) -> usize {
    let Some(cell) = grid.iter().position(|&v| v == 0) else { return 1 };
    let mut found = 0;
    for v in 1..=side {
        if found >= limit {
            break;
        }
        if ok(grid, cell, v) {
            grid[cell] = v;
            found += go(grid, side, limit - found, ok);
            grid[cell] = 0;
        }
    }
    found
}

/// [`go`] from `grid`, after checking that its givens do not already clash.
fn count_from(grid: &mut [usize], side: usize, limit: usize, ok: &dyn Fn(&[usize], usize, usize) -> bool) -> usize {
    for cell in 0..grid.len() {
        let v = grid[cell];
        if v != 0 {
            grid[cell] = 0;
            let fine = ok(grid, cell, v);
            grid[cell] = v;
            if !fine {
                return 0;
            }
        }
    }
    go(grid, side, limit, ok)
}

/// Counts solutions up to `limit` by plain backtracking over the first empty
/// cell, trying every symbol: slow, obviously right, and sharing nothing with
/// the library.
pub fn brute_count(puzzle: &str, br: usize, bc: usize, diagonals: bool, limit: usize) -> usize {
    let side = br * bc;
    let mut grid: Vec<usize> = puzzle.bytes().map(|b| value(b).unwrap_or(0)).collect();
    let ok = |grid: &[usize], cell: usize, v: usize| {
        let (r, c) = (cell / side, cell % side);
        let (top, left) = ((r / br) * br, (c / bc) * bc);
        (0..side).all(|i| {
            grid[r * side + i] != v
                && grid[i * side + c] != v
                && grid[(top + i / bc) * side + left + i % bc] != v
                && !(diagonals && r == c && grid[i * side + i] == v)
                && !(diagonals && r + c == side - 1 && grid[i * side + side - 1 - i] == v)
        })
    };
    count_from(&mut grid, side, limit, &ok)
}

/// Counts solutions up to `limit` under any list of units (each a list of
/// cells no digit may repeat in), by the same plain backtracking as
/// [`brute_count`]: the reference for rules given as data.
pub fn brute_count_units(puzzle: &str, side: usize, units: &[Vec<usize>], limit: usize) -> usize {
    brute_count_killer(puzzle, side, units, &[], limit)
}

/// [`brute_count_units`] with killer cages as well: each cage's digits are
/// distinct and add up to its sum.
pub fn brute_count_killer(
    puzzle: &str,
    side: usize,
    units: &[Vec<usize>],
    cages: &[(usize, Vec<usize>)],
    limit: usize,
) -> usize {
    let mut grid: Vec<usize> = puzzle.bytes().map(|b| value(b).unwrap_or(0)).collect();
    let mut all: Vec<Vec<usize>> = units.to_vec();
    all.extend(cages.iter().map(|(_, cells)| cells.clone()));
    let mine: Vec<Vec<usize>> =
        (0..grid.len()).map(|cell| (0..all.len()).filter(|&u| all[u].contains(&cell)).collect()).collect();
    let cage_of: Vec<Option<usize>> =
        (0..grid.len()).map(|cell| cages.iter().position(|(_, cells)| cells.contains(&cell))).collect();
    let ok = |grid: &[usize], cell: usize, v: usize| {
        let distinct = mine[cell].iter().all(|&u| all[u].iter().all(|&other| other == cell || grid[other] != v));
        distinct
            && cage_of[cell].is_none_or(|k| {
                let (sum, cells) = &cages[k];
                let others = cells.iter().filter(|&&c| c != cell);
                let total: usize = others.clone().map(|&c| grid[c]).sum::<usize>() + v;
                let full = others.clone().all(|&c| grid[c] != 0);
                if full { total == *sum } else { total < *sum }
            })
    };
    count_from(&mut grid, side, limit, &ok)
}

/// `grid` with only the cells `keep` marks given, the rest empty.
pub fn kept(grid: &str, keep: &[bool]) -> String {
    grid.chars().zip(keep).map(|(c, &k)| if k { c } else { '.' }).collect()
}

/// Whether digits `a` and `b` of two related cells keep `relation`, as
/// written out here rather than asked of the library.
pub fn keeps(relation: lazydoku::Relation, a: usize, b: usize) -> bool {
    use lazydoku::Relation;
    match relation {
        Relation::Less => a < b,
        Relation::LessOrEqual => a <= b,
        Relation::Difference(k) => a + k == b || b + k == a,
        Relation::Ratio(k) => a * k == b || b * k == a,
        Relation::Sum(k) => a + b == k,
        Relation::Apart(k) => a >= b + k || b >= a + k,
        Relation::NotDifference(k) => a + k != b && b + k != a,
        Relation::NotRatio(k) => a * k != b && b * k != a,
        Relation::NotSum(k) => a + b != k,
        Relation::Index(v, d) => (a == v) == (b == d),
        other => panic!("no reference for {other:?}"),
    }
}

/// [`brute_count_units`] with each cell held to the digits of its mask in
/// `allowed` (bit `d - 1` for digit `d`): the reference for even and odd
/// cells.
pub fn brute_count_allowed(puzzle: &str, side: usize, units: &[Vec<usize>], allowed: &[u32], limit: usize) -> usize {
    let mut grid: Vec<usize> = puzzle.bytes().map(|b| value(b).unwrap_or(0)).collect();
    let ok = |grid: &[usize], cell: usize, v: usize| {
        allowed[cell] >> (v - 1) & 1 == 1
            && units.iter().filter(|u| u.contains(&cell)).all(|u| u.iter().all(|&c| grid[c] != v))
    };
    count_from(&mut grid, side, limit, &ok)
}

/// [`brute_count_units`] with relations between cells as well: each
/// `(first, relation, second)` keeps [`keeps`] once both cells are filled.
pub fn brute_count_related(
    puzzle: &str,
    side: usize,
    units: &[Vec<usize>],
    relations: &[(usize, lazydoku::Relation, usize)],
    limit: usize,
) -> usize {
    let mut grid: Vec<usize> = puzzle.bytes().map(|b| value(b).unwrap_or(0)).collect();
    let ok = |grid: &[usize], cell: usize, v: usize| {
        units.iter().filter(|u| u.contains(&cell)).all(|u| u.iter().all(|&o| o == cell || grid[o] != v))
            && relations.iter().all(|&(a, relation, b)| match (a == cell, b == cell) {
                (true, _) => grid[b] == 0 || keeps(relation, v, grid[b]),
                (_, true) => grid[a] == 0 || keeps(relation, grid[a], v),
                _ => true,
            })
    };
    count_from(&mut grid, side, limit, &ok)
}

/// Whether `solution` is complete, keeps the givens of `puzzle` and
/// repeats no digit in any of `units`.
pub fn solves_units(puzzle: &str, solution: &str, units: &[Vec<usize>]) -> bool {
    let (p, s) = (puzzle.as_bytes(), solution.as_bytes());
    p.len() == s.len()
        && s.iter().all(|&b| value(b).is_some())
        && p.iter().zip(s).all(|(&g, &v)| value(g).is_none() || g == v)
        && units.iter().all(|unit| {
            let mut seen: Vec<u8> = unit.iter().map(|&c| s[c]).collect();
            seen.sort_unstable();
            seen.windows(2).all(|w| w[0] != w[1])
        })
}

/// A valid full grid of boxes `br` x `bc` made from `seed`: a pattern grid,
/// then digits relabelled and rows, columns, bands and stacks shuffled. All
/// of those keep a grid valid (not so with diagonals; do not use it there).
pub fn shuffled_grid(br: usize, bc: usize, seed: u64) -> String {
    let side = br * bc;
    let mut state = seed | 1;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        usize::try_from(state % n as u64).unwrap()
    };
    let mut shuffle = |v: &mut Vec<usize>| {
        for i in (1..v.len()).rev() {
            let j = next(i + 1);
            v.swap(i, j);
        }
    };
    // Rows: bands of br rows; columns: stacks of bc columns.
    let mut bands: Vec<usize> = (0..bc).collect();
    shuffle(&mut bands);
    let rows: Vec<usize> = bands
        .iter()
        .flat_map(|&b| {
            let mut inner: Vec<usize> = (0..br).collect();
            shuffle(&mut inner);
            inner.into_iter().map(move |r| b * br + r).collect::<Vec<_>>()
        })
        .collect();
    let mut stacks: Vec<usize> = (0..br).collect();
    shuffle(&mut stacks);
    let cols: Vec<usize> = stacks
        .iter()
        .flat_map(|&s| {
            let mut inner: Vec<usize> = (0..bc).collect();
            shuffle(&mut inner);
            inner.into_iter().map(move |c| s * bc + c).collect::<Vec<_>>()
        })
        .collect();
    let mut relabel: Vec<usize> = (1..=side).collect();
    shuffle(&mut relabel);
    let pattern = |r: usize, c: usize| (bc * (r % br) + r / br + c) % side;
    let symbol = |v: usize| {
        if v < 10 {
            char::from(b'0' + u8::try_from(v).unwrap())
        } else {
            char::from(b'A' + u8::try_from(v - 10).unwrap())
        }
    };
    (0..side)
        .flat_map(|r| (0..side).map(move |c| (r, c)))
        .map(|(r, c)| symbol(relabel[pattern(rows[r], cols[c])]))
        .collect()
}

/// The `lazydoku` binary, to run as a user would.
pub fn lazydoku() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_lazydoku"))
}

/// Runs the binary with `args` and `stdin` as its standard input.
pub fn run(args: &[&str], stdin: impl AsRef<[u8]>) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;

    let mut child =
        lazydoku().args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.as_ref().to_vec();
    // Written from another thread: a large input must not deadlock on a full pipe.
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

/// A file of this process's own under the temporary directory.
pub fn temp_file(name: &str, contents: impl AsRef<[u8]>) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("lazydoku-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

/// The rows, columns and boxes of a board of `br`x`bc` boxes, each as its
/// cells: the units the brute-force references take.
pub fn classic_units(br: usize, bc: usize) -> Vec<Vec<usize>> {
    let side = br * bc;
    let rows = (0..side).map(|r| (0..side).map(|c| r * side + c).collect());
    let columns = (0..side).map(|c| (0..side).map(|r| r * side + c).collect());
    let boxes = (0..side).map(|b| {
        let (top, left) = ((b / br) * br, (b % br) * bc);
        (0..side).map(|i| (top + i / bc) * side + left + i % bc).collect()
    });
    rows.chain(columns).chain(boxes).collect()
}

/// Checks `board`, read from `puzzle`, against a reference that counted
/// `expected` solutions (at most 20) and says which grids solve the
/// puzzle's rules: the count and the parallel count agree, every solution
/// is one the reference takes and keeps the givens, and propagation
/// removes no digit that a solution holds. Returns the solutions.
pub fn agrees_with_reference(
    board: &lazydoku::Board,
    puzzle: &str,
    expected: usize,
    solves: impl Fn(&str) -> bool,
) -> Result<Vec<lazydoku::Board>, proptest::test_runner::TestCaseError> {
    use proptest::{prop_assert, prop_assert_eq};
    prop_assert_eq!(board.count_solutions(20), expected, "{}", puzzle);
    prop_assert_eq!(board.par_count_solutions(20), expected, "{} in parallel", puzzle);
    let solutions: Vec<lazydoku::Board> = board.solutions().take(20).collect();
    prop_assert_eq!(solutions.len(), expected);
    for solution in &solutions {
        prop_assert!(solves(solution.as_str()), "{} gave {}", puzzle, solution);
        prop_assert!(puzzle.bytes().zip(solution.as_str().bytes()).all(|(g, s)| g == b'.' || g == s));
    }
    if let Some(settled) = board.propagated() {
        for solution in &solutions {
            for (cell, digit) in solution.cells().enumerate() {
                let digit = digit.expect("a solution is complete");
                let kept = settled.get(cell).map_or(settled.candidates(cell).contains(digit), |d| d == digit);
                prop_assert!(kept, "{} at {}", puzzle, cell);
            }
        }
    } else {
        prop_assert_eq!(expected, 0);
    }
    Ok(solutions)
}
