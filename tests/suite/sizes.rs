//! Every board size from 4x4 to 25x25, and the diagonal variant, through the
//! same API: parsing, printing, enumerating, counting and solving.

use crate::common;

use common::{brute_count, is_solution_of, load};
use lazydoku::format::{LayoutKind, Parser};
use lazydoku::search;
use lazydoku::{Board, ParseError, Shape};

/// Every box shape the issue names: 4x4, 6x6, 8x8, 9x9, 10x10, 12x12,
/// 15x15, 16x16, 20x20 and 25x25.
const SHAPES: [(usize, usize); 10] = [(2, 2), (2, 3), (2, 4), (3, 3), (2, 5), (3, 4), (3, 5), (4, 4), (4, 5), (5, 5)];

/// A random full grid: the first solution of a shuffled search.
fn random_grid(shape: Shape, seed: u64) -> Board {
    search::shuffled_dfs(Board::empty(shape), Board::children, seed)
        .find(Board::is_complete)
        .expect("every shape has full grids")
}

/// `grid` with cells emptied at random, keeping about `keep` percent.
fn remove_cells(grid: &str, keep: u64, seed: u64) -> String {
    let mut state = seed | 1;
    grid.chars()
        .map(|c| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if state % 100 < keep { c } else { '.' }
        })
        .collect()
}

#[test]
fn the_empty_4x4_board_has_288_solutions() {
    let all: Vec<Board> = Board::empty(Shape::new(2, 2)).solutions().collect();
    assert_eq!(all.len(), 288);
    let distinct: std::collections::HashSet<&str> = all.iter().map(Board::as_str).collect();
    assert_eq!(distinct.len(), 288);
    assert!(all.iter().all(|b| is_solution_of(&".".repeat(16), b.as_str(), 2, 2, false)));
}

#[test]
fn a_4x4_puzzle_with_four_givens_has_12_solutions() {
    let board: Board = "12..34..........".parse().unwrap();
    assert_eq!(board.shape(), Shape::new(2, 2));
    assert_eq!(board.solutions().count(), 12);
    assert_eq!(brute_count("12..34..........", 2, 2, false, usize::MAX), 12);
}

#[test]
fn random_puzzles_of_every_size_keep_their_givens() {
    for (r, c) in SHAPES {
        for diagonals in [false, true] {
            let shape = if diagonals { Shape::new(r, c).with_diagonals() } else { Shape::new(r, c) };
            for seed in 0..3 {
                let grid = random_grid(shape, seed);
                assert_eq!(grid.shape(), shape);
                assert!(is_solution_of(grid.as_str(), grid.as_str(), r, c, diagonals), "{shape}: {grid}");
                let puzzle = remove_cells(grid.as_str(), 55, seed);
                let board = Board::parse_with(&puzzle, shape).unwrap_or_else(|e| panic!("{shape}: {e}"));
                let solutions: Vec<Board> = board.solutions().take(5).collect();
                assert!(!solutions.is_empty(), "{shape}: the grid it came from is a solution");
                for s in &solutions {
                    assert!(is_solution_of(&puzzle, s.as_str(), r, c, diagonals), "{shape}: {s}");
                }
                assert_eq!(board.count_solutions(2), solutions.len().min(2), "{shape}");
            }
        }
    }
}

#[test]
fn random_full_grids_differ_by_seed() {
    for (r, c) in SHAPES {
        let grids: std::collections::HashSet<String> =
            (0..4).map(|seed| random_grid(Shape::new(r, c), seed).as_str().to_owned()).collect();
        assert!(grids.len() >= 3, "{r}x{c}: {} distinct grids of 4", grids.len());
    }
}

#[test]
fn counts_agree_with_brute_force_on_small_sizes() {
    let cases = [
        (2, 2, false, 30),
        (2, 2, true, 30),
        (2, 3, false, 45),
        (3, 2, false, 45),
        (2, 3, true, 50),
        (2, 4, false, 65),
    ];
    for (r, c, diagonals, keep) in cases {
        let shape = if diagonals { Shape::new(r, c).with_diagonals() } else { Shape::new(r, c) };
        for seed in 0..25 {
            let grid = random_grid(shape, seed);
            let puzzle = remove_cells(grid.as_str(), keep, seed);
            let board = Board::parse_with(&puzzle, shape).unwrap();
            let brute = brute_count(&puzzle, r, c, diagonals, 3);
            assert_eq!(board.count_solutions(3), brute, "{shape}: {puzzle}");
        }
    }
    // Empty small boards, counted whole both ways.
    assert_eq!(
        Board::empty(Shape::new(2, 2).with_diagonals()).solutions().count(),
        brute_count(&".".repeat(16), 2, 2, true, usize::MAX)
    );
}

#[test]
fn solve_agrees_with_brute_force_on_small_sizes() {
    let (mut solved, mut none) = (0, 0);
    for (r, c, diagonals, keep) in [(2, 2, false, 30), (2, 2, true, 40), (2, 3, false, 35), (2, 3, true, 45)] {
        let shape = if diagonals { Shape::new(r, c).with_diagonals() } else { Shape::new(r, c) };
        for seed in 0..40 {
            // Givens from two grids, so that some puzzles have no solution.
            let (a, b) = (random_grid(shape, seed), random_grid(shape, seed + 1000));
            let mixed: String = a
                .as_str()
                .chars()
                .zip(b.as_str().chars())
                .enumerate()
                .map(|(cell, (x, y))| if cell % 7 == 0 { y } else { x })
                .collect();
            let puzzle = remove_cells(&mixed, keep, seed);
            let Ok(board) = Board::parse_with(&puzzle, shape) else { continue };
            let brute = brute_count(&puzzle, r, c, diagonals, 1);
            if let Some(solution) = board.solve() {
                assert_eq!(brute, 1, "{shape}: {puzzle} has no solution, yet solve gave one");
                assert!(is_solution_of(&puzzle, solution.as_str(), r, c, diagonals), "{shape}: {puzzle} -> {solution}");
                solved += 1;
            } else {
                assert_eq!(brute, 0, "{shape}: {puzzle} has a solution, yet solve gave none");
                none += 1;
            }
            assert_eq!(board.solve_within(search::Budget::nodes(1_000_000)), (board.solve(), None));
        }
    }
    assert!(solved > 10 && none > 10, "both kinds of puzzle came up: {solved} solved, {none} without solution");
}

/// `solve` hands a search that runs long over to clause learning, as the
/// count does: the second 16x16 jigsaw of `data/jigsaw16.txt` was still
/// unsolved after 1,000,000 nodes of the search alone (over 30 s), where
/// its count to 2 takes under a second. A conflict of clause learning is
/// a node of the budget.
#[test]
fn a_first_solution_near_uniqueness_comes_as_soon_as_the_count() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/jigsaw16.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let line = text.lines().filter(|l| !l.starts_with('#')).nth(1).unwrap();
    let board: Board = line.parse().unwrap();
    let (solution, stopped) = board.solve_within(search::Budget::nodes(100_000));
    assert_eq!(stopped, None);
    let solution = solution.expect("a solution within the budget");
    assert!(solution.is_complete());
    assert_eq!(board.count_solutions(2), 1);
    assert_eq!(Some(solution), board.solutions().next());
}

#[test]
fn small_counts_on_large_boards_keep_to_their_budget() {
    let puzzles = load("removed16.txt");
    for puzzle in puzzles.iter().take(6) {
        let board: Board = puzzle.parse().unwrap();
        let whole = board.count_solutions(2);
        assert_eq!(whole, 2, "{puzzle}");
        // Enough nodes, or an hour: the same count, and no stop.
        assert_eq!(board.count_solutions_within(2, search::Budget::nodes(10_000_000)), (2, None));
        assert_eq!(
            board.count_solutions_within(2, search::Budget::time(std::time::Duration::from_secs(3600))),
            (2, None)
        );
        // Two nodes: stopped at exactly two, with at most what was found.
        let (counted, stopped) = board.count_solutions_within(2, search::Budget::nodes(2));
        assert!(counted <= 2);
        if counted < 2 {
            assert_eq!(stopped.map(|e| e.nodes()), Some(2), "{puzzle}");
        }
    }
    let empty = Board::empty(Shape::new(5, 5));
    let (counted, stopped) = empty.count_solutions_within(2, search::Budget::nodes(100));
    assert_eq!((counted, stopped.map(|e| e.nodes())), (0, Some(100)), "100 nodes do not reach the bottom of 25x25");
}

#[test]
fn the_empty_board_of_every_shape_is_solved() {
    for (r, c) in (2..=12).flat_map(|r| (2..=12).map(move |c| (r, c))) {
        let Some(shape) = Shape::try_new(r, c) else { continue };
        for shape in [shape, shape.with_diagonals()] {
            let grid = Board::empty(shape).solve().unwrap_or_else(|| panic!("{shape}: no grid"));
            assert!(grid.is_complete(), "{shape}");
            // Parsing checks every region: no digit twice.
            let back = Board::parse_with(grid.as_str(), shape).unwrap_or_else(|e| panic!("{shape}: {e}"));
            assert_eq!(back, grid, "{shape}");
        }
    }
}

#[test]
fn the_line_length_gives_the_shape_with_square_boxes_first() {
    for (r, c) in SHAPES {
        let side = r * c;
        let board: Board = ".".repeat(side * side).parse().unwrap();
        assert_eq!(board.shape(), Shape::from_side(side).unwrap());
        assert_eq!(board.shape().side(), side);
    }
    let twelve: Board = ".".repeat(144).parse().unwrap();
    assert_eq!(twelve.shape(), Shape::new(3, 4));
    // An explicit shape overrides the default for the same side.
    let tall = Board::parse_with(&".".repeat(144), Shape::new(4, 3)).unwrap();
    assert_eq!(tall.shape(), Shape::new(4, 3));
}

#[test]
fn every_size_prints_and_reads_back_in_each_format() {
    for (r, c) in SHAPES.into_iter().chain([(3, 2), (4, 3), (5, 4)]) {
        let shape = Shape::new(r, c);
        let grid = random_grid(shape, 7);
        let puzzle = Board::parse_with(&remove_cells(grid.as_str(), 50, 7), shape).unwrap();
        // The line, with the shape given (the line alone infers square-first boxes).
        assert_eq!(Board::parse_with(&puzzle.to_string(), shape).unwrap(), puzzle);
        // The grid infers its shape from the separators.
        let printed = format!("{puzzle:#}");
        let (back, layout) = Parser::new().parse(&printed).unwrap();
        assert_eq!(back, puzzle, "{shape}\n{printed}");
        assert_eq!(back.shape(), shape);
        assert_eq!(layout.kind(), LayoutKind::Grid);
        // The solution comes back in the same grid format.
        let rendered = layout.render(&back.solve().unwrap());
        assert_eq!(rendered.lines().count(), printed.lines().count());
        assert!(!rendered.contains('.'));
        // A nested matrix of numbers, 0 for empty.
        let rows: Vec<String> = (0..shape.side())
            .map(|row| {
                let cells: Vec<String> = (0..shape.side())
                    .map(|col| puzzle.get(shape.cell(row, col)).map_or(0, u32::from).to_string())
                    .collect();
                format!("[{}]", cells.join(", "))
            })
            .collect();
        let matrix = format!("[{}]", rows.join(",\n "));
        assert_eq!(Board::parse_with(&matrix, shape).unwrap(), puzzle, "{matrix}");
    }
}

#[test]
fn sixteen_by_sixteen_reads_and_writes_the_hex_convention() {
    let grid = random_grid(Shape::new(4, 4), 3);
    let hex: String = remove_cells(grid.as_str(), 60, 3)
        .chars()
        .map(|c| match c {
            '.' => '.',
            '1'..='9' => char::from_digit(c.to_digit(10).unwrap() - 1, 16).unwrap(),
            _ => char::from_digit(u32::from(c as u8 - b'A') + 9, 16).unwrap().to_ascii_uppercase(),
        })
        .collect();
    assert!(hex.contains('0') && hex.contains('F') && !hex.contains('G'));
    let (board, layout) = Parser::new().hex(true).parse(&hex).unwrap();
    assert_eq!(board.shape(), Shape::new(4, 4));
    let solution = board.solve().unwrap();
    let rendered = layout.render(&solution);
    assert!(rendered.chars().all(|c| c.is_ascii_hexdigit()), "{rendered}");
    assert!(hex.chars().zip(rendered.chars()).all(|(p, s)| p == '.' || p == s));
    // Without the option, 0 is no symbol of a 16x16 board.
    assert!(matches!(hex.parse::<Board>(), Err(ParseError::InvalidSymbol { ch: '0', side: 16, .. })));
}

#[test]
fn unsupported_sides_and_symbols_get_clear_errors() {
    assert_eq!(".".repeat(49).parse::<Board>(), Err(ParseError::UnsupportedSide { side: 7 }));
    let seven = vec![".".repeat(7); 7].join("\n");
    assert_eq!(seven.parse::<Board>(), Err(ParseError::UnsupportedSide { side: 7 }));
    assert_eq!(".".repeat(26 * 26).parse::<Board>(), Err(ParseError::UnsupportedSide { side: 26 }));
    let mut sixteen = ".".repeat(256);
    sixteen.replace_range(5..6, "H");
    assert_eq!(sixteen.parse::<Board>(), Err(ParseError::InvalidSymbol { ch: 'H', line: 1, column: 6, side: 16 }));
    let message = sixteen.parse::<Board>().unwrap_err().to_string();
    assert_eq!(
        message,
        "line 1, column 6: 'H' is not a cell of a 16x16 board; use 1-9 and A-G for digits and '.' or '_' for empty"
    );
    assert_eq!(Parser::new().hex(true).parse(&".".repeat(81)).unwrap_err(), ParseError::HexNeedsSixteen { side: 9 });
    let err = ParseError::UnsupportedSide { side: 7 }.to_string();
    assert!(err.contains("r x c"), "{err}");
}

#[test]
fn x_sudoku_keeps_both_diagonals_on_every_size() {
    for (r, c) in SHAPES {
        let shape = Shape::new(r, c).with_diagonals();
        let grid = random_grid(shape, 11);
        assert!(is_solution_of(grid.as_str(), grid.as_str(), r, c, true), "{shape}: {grid}");
        // The option of the parser gives the same shape.
        let parsed = Parser::new().diagonals(true).parse_board(&".".repeat(shape.cells())).unwrap();
        assert_eq!(parsed.shape(), shape);
    }
    // The diagonal is a region: a repeated digit on it is refused.
    let mut text = ".".repeat(81);
    text.replace_range(0..1, "5");
    text.replace_range(80..81, "5");
    assert!(Board::parse_with(&text, Shape::NINE).is_ok());
    let err = Board::parse_with(&text, Shape::NINE.with_diagonals()).unwrap_err();
    assert!(matches!(err, ParseError::Repeated { region: lazydoku::Region::Diagonal, .. }), "{err}");
}

#[test]
fn generated_hard_puzzles_have_one_solution() {
    for (name, r) in [("hard16.txt", 4), ("hard25.txt", 5)] {
        let puzzles = load(name);
        assert!(!puzzles.is_empty());
        for line in &puzzles {
            let board: Board = line.parse().unwrap();
            assert_eq!(board.shape(), Shape::new(r, r));
            let solution = board.solve().unwrap();
            assert!(is_solution_of(line, solution.as_str(), r, r, false));
            assert_eq!(board.count_solutions(2), 1, "{name}: {line}");
        }
    }
}

/// Run in release mode by .ci/run: about 16 s there, far longer in debug.
#[test]
#[ignore = "a release-mode check: cargo test --release --test suite -- --ignored"]
fn the_empty_6x6_board_has_28_200_960_solutions() {
    let start = std::time::Instant::now();
    assert_eq!(Board::empty(Shape::new(2, 3)).solutions().count(), 28_200_960);
    println!("counted 28,200,960 6x6 solutions in {:.1} s", start.elapsed().as_secs_f64());
}

/// The subsets of two and three in `board`'s regions that propagation
/// should have used but did not, and how many it found in all. A naked
/// subset is k empty cells of a region whose candidates lie within k
/// digits: no other cell of the region keeps any of them. A hidden subset
/// is k digits, none placed in the region, whose places (the empty cells
/// holding them as candidates) are k cells: those cells keep no other
/// candidate.
fn unused_subsets(board: &Board) -> (Vec<String>, usize) {
    let (mut unused, mut subsets) = (Vec::new(), 0);
    let side = board.shape().side();
    let rules = board.rules();
    let groups = |n: usize| -> Vec<Vec<usize>> {
        let pairs = (0..n).flat_map(|a| (a + 1..n).map(move |b| vec![a, b]));
        let triples = (0..n).flat_map(|a| (a + 1..n).flat_map(move |b| (b + 1..n).map(move |c| vec![a, b, c])));
        pairs.chain(triples).collect()
    };
    for (kind, cells) in rules.regions() {
        let empty: Vec<usize> = cells.iter().copied().filter(|&c| board.get(c).is_none()).collect();
        let small: Vec<usize> =
            empty.iter().copied().filter(|&c| (2..=3).contains(&board.candidates(c).len())).collect();
        for group in groups(small.len()) {
            let members: Vec<usize> = group.iter().map(|&i| small[i]).collect();
            let set = members.iter().fold(0, |set, &c| set | board.candidates(c).bits());
            if set.count_ones() as usize != members.len() {
                continue;
            }
            subsets += 1;
            if let Some(c) = empty.iter().find(|&&c| !members.contains(&c) && board.candidates(c).bits() & set != 0) {
                unused.push(format!("{kind:?} {cells:?}: naked subset {members:?} leaves cell {c} a digit of it"));
            }
        }
        let is_placed = |d: u8| cells.iter().any(|&c| board.get(c) == Some(d));
        let places = |d: u8| -> u64 {
            empty.iter().enumerate().filter(|&(_, &c)| board.candidates(c).contains(d)).fold(0, |m, (i, _)| m | 1 << i)
        };
        let digits: Vec<u8> = (1..=u8::try_from(side).unwrap())
            .filter(|&d| !is_placed(d) && (2..=3).contains(&places(d).count_ones()))
            .collect();
        for group in groups(digits.len()) {
            let members: Vec<u8> = group.iter().map(|&i| digits[i]).collect();
            let at = members.iter().fold(0, |at, &d| at | places(d));
            if at.count_ones() as usize != members.len() {
                continue;
            }
            subsets += 1;
            let keep = members.iter().fold(0, |set, &d| set | 1 << (d - 1));
            let cells_at: Vec<usize> = (0..empty.len()).filter(|i| at >> i & 1 == 1).map(|i| empty[i]).collect();
            if cells_at.iter().any(|&c| board.candidates(c).bits() & !keep != 0) {
                unused.push(format!(
                    "{kind:?} {cells:?}: hidden subset {members:?} in {cells_at:?} leaves other candidates"
                ));
            }
        }
    }
    (unused, subsets)
}

#[test]
fn propagation_uses_every_naked_and_hidden_subset_of_two_and_three_on_large_boards() {
    let mut subsets = 0;
    for name in ["hard16.txt", "removed16.txt", "hard25.txt"] {
        for line in load(name) {
            let puzzle: Board = line.parse().unwrap();
            // Subsets are looked for while more cells are empty than two rows hold.
            let worth_it = |b: &Board| b.empty_cells() > 2 * b.shape().side();
            let boards = puzzle.propagated().into_iter().flat_map(|p| {
                let children: Vec<Board> = p.children().collect();
                std::iter::once(p).chain(children)
            });
            for board in boards.filter(worth_it) {
                let (unused, found) = unused_subsets(&board);
                assert!(unused.is_empty(), "{name}: {line}: {unused:?}");
                subsets += found;
            }
        }
    }
    assert!(subsets > 0, "the boards looked at hold subsets");
}

#[test]
fn counts_above_sixteen_on_large_boards_are_the_search_s() {
    // A count to more than 16 on the general engine takes turns between
    // the depth-first count and clause learning, and the first to end gives
    // the count (clause learning's for the first two boards here, the
    // depth-first count's for the others): the same number as the search's
    // solutions taken one by one.
    let removed = load("removed25.txt");
    let hard = load("hard25.txt");
    let sixteen = load("hard16.txt");
    for (line, limit) in [(&hard[0], 17), (&removed[2], 50), (&removed[3], 40), (&sixteen[1], 100)] {
        let board: Board = line.parse().unwrap();
        let expected = board.solutions().take(limit).count();
        assert_eq!(board.count_solutions(limit), expected, "{line}");
        // In parallel, clause learning races the shared depth-first count
        // on a thread of its own: whichever wins, the same count.
        for threads in [1, 2, 3] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            assert_eq!(pool.install(|| board.par_count_solutions(limit)), expected, "{line} on {threads} threads");
        }
    }
}
