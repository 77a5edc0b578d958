//! Rules drawn at random for each puzzle: jigsaw region maps, and killer
//! cages cut from a full grid.

use crate::board::{Board, Shape};
use crate::explain::{Level, Rating};
use crate::random::SplitMix64;

/// How many trades of cells between touching regions are tried for each
/// region map, per cell of the board: enough that the boxes the map
/// starts from are gone from sight.
const SWAPS_PER_CELL: usize = 12;

/// A random jigsaw map of `shape`: `shape.side()` connected regions of
/// `shape.side()` cells each, as one region number per cell.
///
/// It starts from the boxes and makes random trades between two touching
/// regions: a cell of one that borders the other moves across, and a cell
/// of the other that borders the first comes back, kept when both regions
/// stay connected. Sizes never change. The maps are varied, though not all
/// equally likely.
pub(super) fn region_map(shape: Shape, random: &mut SplitMix64) -> Vec<usize> {
    let (side, cells) = (shape.side(), shape.cells());
    let (rows, cols) = (shape.box_rows(), shape.box_cols());
    let mut region: Vec<usize> =
        (0..cells).map(|cell| (cell / side / rows) * (side / cols) + (cell % side) / cols).collect();
    for _ in 0..SWAPS_PER_CELL * cells {
        let leaving = random.below(cells);
        let near = neighbours(leaving, side);
        let (from, to) = (region[leaving], region[near[random.below(near.len())]]);
        if from == to {
            continue;
        }
        region[leaving] = to;
        // The cells of `to` that now border what is left of `from`.
        let returning: Vec<usize> = (0..cells)
            .filter(|&cell| {
                cell != leaving && region[cell] == to && neighbours(cell, side).iter().any(|&n| region[n] == from)
            })
            .collect();
        if returning.is_empty() {
            region[leaving] = from;
            continue;
        }
        let back = returning[random.below(returning.len())];
        region[back] = from;
        if !is_connected(&region, from, side) || !is_connected(&region, to, side) {
            region[leaving] = from;
            region[back] = to;
        }
    }
    region
}

/// The map's text: one label per cell, `1` to `9` then `A` to `Z`.
pub(super) fn map_text(region: &[usize]) -> String {
    const LABELS: &[u8] = b"123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    region.iter().map(|&r| char::from(LABELS[r])).collect()
}

/// The cells beside `cell` (not diagonally) on a board of side `side`.
fn neighbours(cell: usize, side: usize) -> Vec<usize> {
    let (row, col) = (cell / side, cell % side);
    let mut near = Vec::with_capacity(4);
    if row > 0 {
        near.push(cell - side);
    }
    if row + 1 < side {
        near.push(cell + side);
    }
    if col > 0 {
        near.push(cell - 1);
    }
    if col + 1 < side {
        near.push(cell + 1);
    }
    near
}

/// Whether the cells of region `label` in `region` are connected.
fn is_connected(region: &[usize], label: usize, side: usize) -> bool {
    let Some(start) = region.iter().position(|&r| r == label) else { return true };
    let mut seen = vec![false; region.len()];
    seen[start] = true;
    let mut stack = vec![start];
    let mut reached = 1;
    while let Some(cell) = stack.pop() {
        for next in neighbours(cell, side) {
            if region[next] == label && !seen[next] {
                seen[next] = true;
                reached += 1;
                stack.push(next);
            }
        }
    }
    reached == region.iter().filter(|&&r| r == label).count()
}

/// The share, in twelfths, of cages of each size from 2 to 5 that the
/// cutting aims for: sizes 2 and 3 most, as in published killers. A cell
/// whose neighbours are all taken ends up a cage of its own.
const CAGE_SIZE_WEIGHTS: [(usize, usize); 4] = [(2, 4), (3, 4), (4, 3), (5, 1)];

/// A killer puzzle harder than `puzzle` (whose cages are all the
/// generator's), up to `wanted`: two touching cages whose digits in the
/// solution differ are joined into one, in a random order, while logic of
/// `wanted` or easier still solves the puzzle, until it has that level or
/// no join keeps it solved. Fewer, larger cages leave more combinations to
/// each, which is what makes killer puzzles hard; removing givens cannot,
/// as most keep none. Sound steps that fill every cell leave one
/// solution, so no count is needed.
pub(super) fn joined_cages(puzzle: &Board, wanted: Level, random: &mut SplitMix64) -> Option<Board> {
    let side = puzzle.shape().side();
    let solution = puzzle.solve()?;
    let digit_bits = |cells: &[usize]| cells.iter().fold(0u32, |bits, &c| bits | 1 << solution.get(c).unwrap_or(0));
    let rules = puzzle.rules();
    let mut cages: Vec<(usize, Vec<usize>)> = rules.cages().collect();
    let mut current = puzzle.clone();
    loop {
        let mut cage_of = vec![usize::MAX; side * side];
        for (k, (_, cells)) in cages.iter().enumerate() {
            for &cell in cells {
                cage_of[cell] = k;
            }
        }
        let mut pairs: Vec<(usize, usize)> = (0..side * side)
            .flat_map(|cell| neighbours(cell, side).into_iter().map(move |next| (cell, next)))
            .map(|(a, b)| (cage_of[a], cage_of[b]))
            .filter(|&(a, b)| a < b && b != usize::MAX && digit_bits(&cages[a].1) & digit_bits(&cages[b].1) == 0)
            .collect();
        pairs.sort_unstable();
        pairs.dedup();
        random.shuffle(&mut pairs);
        let joined = pairs.into_iter().find_map(|(a, b)| {
            let mut tried = cages.clone();
            let (sum, cells) = tried.swap_remove(b);
            tried[a].0 += sum;
            tried[a].1.extend(cells);
            tried[a].1.sort_unstable();
            let board = rules.clone().with_cages_replaced(tried.clone()).parse(current.as_str()).ok()?;
            let level = Rating::logical(&board).level();
            (level <= wanted).then_some((tried, board, level))
        });
        let Some((tried, board, level)) = joined else {
            return Some(current);
        };
        cages = tried;
        current = board;
        if level == wanted {
            return Some(current);
        }
    }
}

/// Killer cages cut from the full grid `grid`: connected groups of cells
/// with distinct digits, each with its digits' sum. Every cell is in a cage.
pub(super) fn cages(grid: &Board, random: &mut SplitMix64) -> Vec<(usize, Vec<usize>)> {
    let side = grid.shape().side();
    let digits: Vec<u8> = grid.cells().map(|d| d.unwrap_or(0)).collect();
    let mut taken = vec![false; digits.len()];
    let mut order: Vec<usize> = (0..digits.len()).collect();
    random.shuffle(&mut order);
    let total: usize = CAGE_SIZE_WEIGHTS.iter().map(|&(_, w)| w).sum();
    let mut cages = Vec::new();
    for start in order {
        if taken[start] {
            continue;
        }
        let mut pick = random.below(total);
        let wanted = CAGE_SIZE_WEIGHTS
            .iter()
            .find(|&&(_, weight)| {
                let here = pick < weight;
                pick = pick.saturating_sub(weight);
                here
            })
            .map_or(2, |&(size, _)| size);
        taken[start] = true;
        let mut cells = vec![start];
        while cells.len() < wanted {
            let open: Vec<usize> = cells
                .iter()
                .flat_map(|&cell| neighbours(cell, side))
                .filter(|&next| !taken[next] && cells.iter().all(|&c| digits[c] != digits[next]))
                .collect();
            if open.is_empty() {
                break;
            }
            let next = open[random.below(open.len())];
            taken[next] = true;
            cells.push(next);
        }
        cells.sort_unstable();
        let sum = cells.iter().map(|&c| usize::from(digits[c])).sum();
        cages.push((sum, cells));
    }
    cages
}
