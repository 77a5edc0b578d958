//! Rules along lines of cells: sums whose digits may repeat (little
//! killer clues), arrows, sandwiches, between lines, quadruples and
//! renban lines, against
//! brute-force references that add the digits up (or compare them)
//! themselves.

use lazydoku::{Board, ClassLine, Conflict, ParseError, Rules, RulesError, Shape, SumKind, Turn};
use proptest::prelude::*;

use crate::common;

/// A rule as the reference reads it: the cells of `circle` spell a number
/// in decimal that the digits of `cells` add up to; with no circle, they
/// add up to `total`.
#[derive(Clone, Debug)]
struct SumLine {
    total: usize,
    circle: Vec<usize>,
    cells: Vec<usize>,
}

impl SumLine {
    /// Whether `grid` (0 for an empty cell) can still keep the rule: a
    /// filled rule adds up, and a total is not passed while cells are empty.
    fn may_hold(&self, grid: &[usize]) -> bool {
        let filled = |cells: &[usize]| cells.iter().all(|&c| grid[c] != 0);
        let added: usize = self.cells.iter().map(|&c| grid[c]).sum();
        if self.circle.is_empty() {
            let empty = self.cells.iter().filter(|&&c| grid[c] == 0).count();
            return if empty == 0 { added == self.total } else { added + empty <= self.total };
        }
        if !filled(&self.circle) || !filled(&self.cells) {
            return true;
        }
        self.circle.iter().fold(0, |number, &c| number * 10 + grid[c]) == added
    }
}

/// Counts the solutions of `puzzle` under `units`, up to `limit`, by
/// plain backtracking over the first empty cell, keeping only grids that
/// `may_hold` says can still keep the rules under test (0 for an empty
/// cell): the one search behind each reference of this file.
fn backtrack(
    puzzle: &str,
    side: usize,
    units: &[Vec<usize>],
    limit: usize,
    may_hold: &dyn Fn(&[usize]) -> bool,
) -> usize {
    fn count_on(
        grid: &mut [usize],
        side: usize,
        units: &[Vec<usize>],
        limit: usize,
        may_hold: &dyn Fn(&[usize]) -> bool,
    ) -> usize {
        if !may_hold(grid) {
            return 0;
        }
        let Some(cell) = grid.iter().position(|&v| v == 0) else { return 1 };
        let mut found = 0;
        for v in 1..=side {
            if units.iter().any(|u| u.contains(&cell) && u.iter().any(|&o| grid[o] == v)) {
                continue;
            }
            grid[cell] = v;
            found += count_on(grid, side, units, limit - found, may_hold);
            grid[cell] = 0;
            if found >= limit {
                break;
            }
        }
        found
    }
    let mut grid: Vec<usize> = puzzle.bytes().map(|b| if b == b'.' { 0 } else { usize::from(b - b'0') }).collect();
    let givens_fit = units.iter().all(|u| {
        let mut seen: Vec<usize> = u.iter().map(|&c| grid[c]).filter(|&d| d != 0).collect();
        seen.sort_unstable();
        seen.windows(2).all(|w| w[0] != w[1])
    });
    if givens_fit { count_on(&mut grid, side, units, limit, may_hold) } else { 0 }
}

/// Counts the solutions of `puzzle` under `units` and `lines` (sums and
/// arrows), up to `limit`.
fn brute_count(puzzle: &str, side: usize, units: &[Vec<usize>], lines: &[SumLine], limit: usize) -> usize {
    backtrack(puzzle, side, units, limit, &|grid| lines.iter().all(|line| line.may_hold(grid)))
}

/// Checks `puzzle` under `rules` against [`backtrack`] with `may_hold`
/// (the rules under test, as the reference reads them): givens that break
/// a rule are refused exactly when the reference finds no solution, and
/// otherwise the board agrees with it ([`common::agrees_with_reference`]).
fn agrees_under(
    rules: &Rules,
    puzzle: &str,
    side: usize,
    units: &[Vec<usize>],
    may_hold: &dyn Fn(&[usize]) -> bool,
) -> Result<(), TestCaseError> {
    let expected = backtrack(puzzle, side, units, 20, may_hold);
    let board = match rules.parse(puzzle) {
        Ok(board) => board,
        Err(
            e @ (ParseError::SumBroken { .. }
            | ParseError::NotBetween { .. }
            | ParseError::QuadrupleMissing { .. }
            | ParseError::NotRenban { .. }
            | ParseError::SameClass { .. }
            | ParseError::Seen { .. }),
        ) => {
            prop_assert_eq!(expected, 0, "{}: {}", puzzle, e);
            return Ok(());
        }
        Err(e) => return Err(TestCaseError::fail(format!("{puzzle}: {e}"))),
    };
    let solves = |solution: &str| backtrack(solution, side, units, 2, may_hold) == 1;
    common::agrees_with_reference(&board, puzzle, expected, solves)?;
    Ok(())
}

/// Reads `json` (this crate's JSON object) and `f_puzzles` (the same
/// rules in f-puzzles' JSON), both empty boards, as the rules `expected`;
/// writes the board as an f-puzzles link and reads it back the same; and
/// counts its solutions against [`backtrack`] with `may_hold`, which must
/// find some. The JSON's layout, for its lists.
fn reads_back_and_counts(
    json: &str,
    f_puzzles: &str,
    expected: &Rules,
    may_hold: &dyn Fn(&[usize]) -> bool,
) -> Result<lazydoku::format::Layout, Box<dyn std::error::Error>> {
    let shape = expected.shape();
    let (board, layout) = lazydoku::format::Parser::new().shape(shape).parse(json)?;
    assert_eq!(board.rules(), *expected);
    let link = lazydoku::format::f_puzzles_link(&board)?;
    assert_eq!(link.parse::<Board>()?.rules(), *expected);
    assert_eq!(f_puzzles.parse::<Board>()?.rules(), *expected);
    let side = shape.side();
    let units = common::classic_units(shape.box_rows(), shape.box_cols());
    let reference = backtrack(&".".repeat(side * side), side, &units, 5000, may_hold);
    assert_eq!(board.count_solutions(5000), reference);
    assert!(reference > 0);
    Ok(layout)
}

/// A sum or an arrow made from `pick`, on the cells of `walk` (distinct,
/// at least two): read off `grid`'s digits (so the grid keeps it) or, for
/// odd `pick`, one more than that (so it may not hold).
fn line_of(grid: &[usize], walk: &[usize], pick: u8) -> SumLine {
    let off = usize::from(pick % 2);
    if pick % 4 < 2 {
        let total = walk.iter().map(|&c| grid[c]).sum::<usize>() + off;
        SumLine { total, circle: Vec::new(), cells: walk.to_vec() }
    } else {
        // An arrow: the circle is the cell holding the largest digit, the
        // shaft as many others as the digit allows.
        let circle = *walk.iter().max_by_key(|&&c| grid[c]).expect("two cells");
        let mut shaft = Vec::new();
        let mut added = 0;
        for &c in walk.iter().filter(|&&c| c != circle) {
            if added + grid[c] <= grid[circle] {
                added += grid[c];
                shaft.push(c);
            }
        }
        if shaft.is_empty() {
            // No digit fits under the circle's: a shaft of one that breaks it.
            shaft.push(*walk.iter().find(|&&c| c != circle).expect("two cells"));
        }
        SumLine { total: 0, circle: vec![circle], cells: shaft }
    }
}

/// `cells` reduced to distinct cells of the board, in order.
fn distinct_cells(cells: &[usize], count: usize) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    for &c in cells {
        if !out.contains(&(c % count)) {
            out.push(c % count);
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(80))]

    #[test]
    fn sums_and_arrows_agree_with_brute_force(
        seed in 1..u64::MAX,
        six in any::<bool>(),
        keep in prop::collection::vec(prop::bool::weighted(0.2), 36),
        walks in prop::collection::vec((prop::collection::vec(0..36usize, 2..6), 0..8u8), 1..5),
    ) {
        let (br, bc) = if six { (2, 3) } else { (2, 2) };
        let side = br * bc;
        let cells = side * side;
        let grid_text = common::shuffled_grid(br, bc, seed);
        let grid: Vec<usize> = grid_text.bytes().map(|b| usize::from(b - b'0')).collect();
        let drawn = walks
            .iter()
            .map(|(walk, pick)| (distinct_cells(walk, cells), *pick))
            .filter(|(walk, _)| walk.len() >= 2)
            .map(|(walk, pick)| line_of(&grid, &walk, pick));
        let mut rules = Rules::new(Shape::new(br, bc));
        let mut lines = Vec::new();
        for line in drawn {
            let more = if line.circle.is_empty() {
                rules.clone().with_sum(line.total, &line.cells)
            } else {
                rules.clone().with_arrow(&line.circle, &line.cells)
            };
            match more {
                Ok(more) => {
                    rules = more;
                    lines.push(line);
                }
                // Refused only where digits of 1 to the side cannot make it.
                Err(RulesError::ImpossibleDigitSum { .. }) => {
                    prop_assert!(line.total > line.cells.len() * side, "{:?}", line);
                }
                Err(RulesError::ImpossibleArrow { .. }) => {
                    prop_assert!(line.cells.len() > side, "{:?}", line);
                }
                Err(e) => return Err(TestCaseError::fail(format!("{line:?}: {e}"))),
            }
        }
        let puzzle = common::kept(&grid_text, &keep);
        let units = common::classic_units(br, bc);
        let expected = brute_count(&puzzle, side, &units, &lines, 20);
        let board = match rules.parse(&puzzle) {
            Ok(board) => board,
            Err(e @ ParseError::SumBroken { .. }) => {
                prop_assert_eq!(expected, 0, "{}: {}", puzzle, e);
                return Ok(());
            }
            Err(e) => return Err(TestCaseError::fail(format!("{puzzle}: {e}"))),
        };
        let solves = |solution: &str| brute_count(solution, side, &units, &lines, 2) == 1;
        common::agrees_with_reference(&board, &puzzle, expected, solves)?;
        let all_read_off = walks.iter().all(|(_, pick)| pick % 2 == 0);
        if all_read_off && lines.iter().all(|line| line.may_hold(&grid)) {
            prop_assert!(expected >= 1);
            prop_assert!(board.solutions().take(20).any(|s| s.as_str() == grid_text) || expected == 20);
        }
    }
}

/// The cells of a diagonal of a board of side `side` from (`row`, 0) down
/// and to the right: a little killer clue's cells.
fn diagonal(side: usize, row: usize) -> Vec<usize> {
    (0..side - row).map(|i| (row + i) * side + i).collect()
}

#[test]
fn little_killers_and_arrows_on_every_size_keep_their_rule() {
    for (br, bc) in [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5)] {
        let side = br * bc;
        // A grid to read the clues off, so that the rules have a solution.
        let grid = Board::empty(Shape::new(br, bc)).solve().expect("an empty board has a solution");
        let digit = |c: usize| usize::from(grid.get(c).unwrap());
        let mut rules = Rules::new(Shape::new(br, bc));
        for row in 1..side.min(6) {
            let cells = diagonal(side, row);
            rules = rules.with_sum(cells.iter().map(|&c| digit(c)).sum(), &cells).unwrap();
        }
        // An arrow from the cell of the largest digit in row 1 along the
        // rest of row 2, as far as the digits fit.
        let circle = (0..side).max_by_key(|&c| digit(c)).unwrap();
        let mut shaft = Vec::new();
        for c in side..2 * side {
            if shaft.iter().map(|&s| digit(s)).sum::<usize>() + digit(c) <= digit(circle) {
                shaft.push(c);
            }
        }
        rules = rules.with_arrow(&[circle], &shaft).unwrap();
        let solution = Board::empty_with(&rules).solve().expect("the grid keeps every clue");
        let got = |c: usize| usize::from(solution.get(c).unwrap());
        for (total, cells) in rules.sums() {
            assert_eq!(cells.iter().map(|&c| got(c)).sum::<usize>(), total, "{side}x{side}");
        }
        for (circle, shaft) in rules.arrows() {
            assert_eq!(shaft.iter().map(|&c| got(c)).sum::<usize>(), got(circle[0]), "{side}x{side}");
        }
        assert!(common::solves_units(&".".repeat(side * side), solution.as_str(), &common::classic_units(br, bc)));
    }
}

#[test]
fn a_pill_reads_its_cells_as_a_decimal_number() {
    // On 9x9, the first two cells of row 1 spell a number that the first
    // six cells of row 2 add up to: at least 1 + 2 + ... + 6 = 21.
    let rules = Rules::new(Shape::NINE).with_arrow(&[0, 1], &[9, 10, 11, 12, 13, 14]).unwrap();
    let board = Board::empty_with(&rules);
    for solution in board.solutions().take(50) {
        let d = |c: usize| usize::from(solution.get(c).unwrap());
        assert_eq!(10 * d(0) + d(1), (9..15).map(d).sum::<usize>(), "{solution}");
    }
    // 3 in front makes the number at most 39: a shaft of six from 21 to 39.
    // The number is 10 to 54 by bounds (six cells of 1 to 9 each), so
    // its first digit is 5 at most; the solutions need 2 or 3.
    let settled = board.propagated().expect("it has solutions");
    let first = settled.candidates(0);
    assert!(first.contains(2) && first.contains(3) && !(6..=9).any(|d| first.contains(d)), "{first:?}");
}

#[test]
fn bad_sums_and_arrows_say_what_is_wrong() {
    let four = || Rules::new(Shape::new(2, 2));
    assert_eq!(four().with_sum(3, &[0, 16]), Err(RulesError::CellOutOfRange { cell: 16, cells: 16 }));
    assert_eq!(four().with_sum(3, &[0, 1, 0]), Err(RulesError::RepeatedSumCell { cell: 0 }));
    assert_eq!(four().with_sum(1, &[0, 1]), Err(RulesError::ImpossibleDigitSum { sum: 1, cells: 2, side: 4 }));
    assert_eq!(four().with_sum(0, &[]), Err(RulesError::ImpossibleDigitSum { sum: 0, cells: 0, side: 4 }));
    assert_eq!(four().with_arrow(&[0], &[0, 1]), Err(RulesError::RepeatedSumCell { cell: 0 }));
    assert_eq!(four().with_arrow(&[], &[1]), Err(RulesError::ImpossibleArrow { circle: 0, shaft: 1, side: 4 }));
    assert_eq!(four().with_arrow(&[0], &[]), Err(RulesError::ImpossibleArrow { circle: 1, shaft: 0, side: 4 }));
    // A pill on a board with digits from 10 up.
    let sixteen = Rules::new(Shape::new(4, 4)).with_arrow(&[0, 1], &[16, 17]);
    assert_eq!(sixteen, Err(RulesError::ImpossibleArrow { circle: 2, shaft: 2, side: 16 }));
    // A pill of 2 on 4x4 reads 11 to 44, but two cells add up to 8 at most.
    let pill = four().with_arrow(&[0, 1], &[4, 5]);
    assert_eq!(pill, Err(RulesError::ImpossibleArrow { circle: 2, shaft: 2, side: 4 }));
    let message = four().with_sum(1, &[0, 1]).unwrap_err().to_string();
    assert_eq!(message, "no 2 digits of 1 to 4 add up to 1; a sum needs 1 to 4 per cell");
    assert!(four().with_sum(usize::MAX, &[0]).is_err());
}

#[test]
fn givens_that_break_a_sum_are_refused_with_where() {
    let rules = Rules::new(Shape::new(2, 2)).with_sum(5, &[0, 10]).unwrap().with_arrow(&[2], &[7]).unwrap();
    let err = rules.parse("1...\n....\n..3.\n....").unwrap_err();
    assert_eq!(err, ParseError::SumBroken { sum: 5, found: 4, kind: SumKind::Total, line: 3, column: 3 });
    assert_eq!(err.to_string(), "line 3, column 3: the givens fill a sum whose digits add up to 4, not its total of 5");
    let err = rules.parse("..3.\n...4\n....\n....").unwrap_err();
    assert_eq!(err.reason(), "the givens fill an arrow whose shaft adds up to 4, not the 3 in its circle");
    // Placing a digit says the same.
    let board = Board::empty_with(&rules).place(0, 2).unwrap();
    let refused = board.place(10, 2).unwrap_err();
    assert_eq!(refused, Conflict::SumBroken { sum: 5, found: 4, kind: SumKind::Total, row: 2, col: 2 });
    assert_eq!(refused.to_string(), "row 3, column 3 completes a sum whose digits add up to 4, not its total of 5");
    assert!(board.place(10, 3).is_ok());
}

#[test]
fn the_same_sums_make_the_same_rules_and_transforms_only_turn_the_board() {
    let a = Rules::new(Shape::NINE).with_sum(10, &[0, 10]).unwrap().with_arrow(&[40], &[41, 42]).unwrap();
    let b = Rules::new(Shape::NINE).with_arrow(&[40], &[41, 42]).unwrap().with_sum(10, &[0, 10]).unwrap();
    assert_eq!(a, b);
    assert_ne!(a, Rules::new(Shape::NINE).with_sum(11, &[0, 10]).unwrap().with_arrow(&[40], &[41, 42]).unwrap());
    assert_ne!(a, Rules::new(Shape::NINE).with_sum(10, &[0, 10]).unwrap().with_arrow(&[41], &[40, 42]).unwrap());
    assert!(!a.is_classic());
    let board = a.parse(&format!("{}9{}", ".".repeat(40), ".".repeat(40))).unwrap();
    let other = board.transformed(7);
    // Relabelling digits would change the sums: the board is turned alone.
    assert!(other == board || Turn::ALL.iter().any(|&turn| board.turned(turn) == other));
    assert_eq!(other.rules().sums().map(|(total, cells)| (total, cells.len())).collect::<Vec<_>>(), [(10, 2)]);
    assert_eq!(other.as_str().find('9'), Some(40), "the middle stays where it is");
}

#[test]
fn explanations_take_sums_by_their_bounds() {
    use lazydoku::explain::Technique;

    // An arrow along the first row of a 4x4 board: the circle is the sum
    // of the next two cells, 2 at least by bounds.
    let rules = Rules::new(Shape::new(2, 2)).with_arrow(&[0], &[1, 2]).unwrap();
    let board = Board::empty_with(&rules);
    let step = board.explain().next().expect("a step");
    assert_eq!(step.technique(), Technique::SumBounds);
    assert_eq!(
        step.to_string(),
        "Sum bounds: r1c1 is in the circle of an arrow whose shaft (r1c2 and r1c3) adds up to 2 to 8; so 1 out of r1c1."
    );
    // A little killer of two cells adding up to 3 keeps 1 and 2 in both.
    let little = Rules::new(Shape::new(2, 2)).with_sum(3, &[0, 5]).unwrap();
    let step = Board::empty_with(&little).explain().next().expect("a step");
    assert_eq!(
        step.to_string(),
        "Sum bounds: r1c1 and r2c2 add up to 3, and the cells beside r1c1 add up to 1 to 4; so 3 and 4 out of r1c1."
    );
    // Each step's eliminations keep every solution's digits.
    for rules in [rules, little] {
        let board = Board::empty_with(&rules);
        let solutions: Vec<Board> = board.solutions().collect();
        for step in board.explain() {
            for (cell, digit) in step.eliminations() {
                assert!(solutions.iter().all(|s| s.get(cell) != Some(digit)), "{step}");
            }
        }
    }
}

#[test]
fn the_bundled_sums_puzzles_have_one_solution_that_keeps_every_sum() {
    let text = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/sums9.jsonl"))
        .expect("data/sums9.jsonl");
    let mut read = 0;
    for line in text.lines() {
        let board: Board = line.parse().expect("a JSON puzzle");
        let rules = board.rules();
        assert!(rules.sums().count() == 4 && rules.arrows().count() >= 1, "{line}");
        let solutions: Vec<Board> = board.solutions().take(2).collect();
        assert_eq!(solutions.len(), 1, "{line}");
        let digit = |cell: usize| usize::from(solutions[0].get(cell).unwrap());
        for (total, cells) in rules.sums() {
            assert_eq!(cells.iter().map(|&c| digit(c)).sum::<usize>(), total);
        }
        for (circle, shaft) in rules.arrows() {
            assert_eq!(shaft.iter().map(|&c| digit(c)).sum::<usize>(), digit(circle[0]));
        }
        let units = common::classic_units(3, 3);
        assert!(common::solves_units(board.as_str(), solutions[0].as_str(), &units));
        read += 1;
    }
    assert_eq!(read, 24);
}

/// The sum between the 1 and the largest digit (`side`) of `digits`, the
/// line's digits in order; `None` while either is missing.
fn sandwich_of(digits: &[usize], side: usize) -> Option<usize> {
    let one = digits.iter().position(|&d| d == 1)?;
    let top = digits.iter().position(|&d| d == side)?;
    Some(digits[one.min(top) + 1..one.max(top)].iter().sum())
}

/// Whether `grid` (0 for an empty cell) keeps every sandwich of
/// `sandwiches` (sum, cells in order) whose line is full.
fn sandwiches_hold(grid: &[usize], side: usize, sandwiches: &[(usize, Vec<usize>)]) -> bool {
    sandwiches.iter().all(|(sum, cells)| {
        let digits: Vec<usize> = cells.iter().map(|&c| grid[c]).collect();
        digits.contains(&0) || sandwich_of(&digits, side) == Some(*sum)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn sandwiches_agree_with_brute_force(
        seed in 1..u64::MAX,
        six in any::<bool>(),
        keep in prop::collection::vec(prop::bool::weighted(0.15), 36),
        lines in prop::collection::vec((0..12usize, 0..4usize), 1..4),
    ) {
        let (br, bc) = if six { (2, 3) } else { (2, 2) };
        let side = br * bc;
        let grid_text = common::shuffled_grid(br, bc, seed);
        let grid: Vec<usize> = grid_text.bytes().map(|b| usize::from(b - b'0')).collect();
        let units = common::classic_units(br, bc);
        let mut rules = Rules::new(Shape::new(br, bc));
        let mut sandwiches = Vec::new();
        for &(line, pick) in &lines {
            // A row or column (its cells, in order, backwards now and then),
            // with the grid's sum or a little off it.
            let mut cells = units[line % (2 * side)].clone();
            if pick == 3 {
                cells.reverse();
            }
            let digits: Vec<usize> = cells.iter().map(|&c| grid[c]).collect();
            let sum = sandwich_of(&digits, side).expect("a full line") + [0, 0, 1, 0][pick];
            match rules.clone().with_sandwich(sum, &cells) {
                Ok(more) => {
                    rules = more;
                    sandwiches.push((sum, cells));
                }
                Err(RulesError::ImpossibleSandwich { .. }) => prop_assert!(sum > (2..side).sum::<usize>()),
                Err(e) => return Err(TestCaseError::fail(format!("{cells:?}: {e}"))),
            }
        }
        let puzzle = common::kept(&grid_text, &keep);
        agrees_under(&rules, &puzzle, side, &units, &|grid| sandwiches_hold(grid, side, &sandwiches))?;
    }
}

#[test]
fn sandwiches_say_what_is_wrong_and_come_in_json_and_f_puzzles() -> Result<(), Box<dyn std::error::Error>> {
    let nine = || Rules::new(Shape::NINE);
    let row: Vec<usize> = (0..9).collect();
    assert_eq!(nine().with_sandwich(36, &row), Err(RulesError::ImpossibleSandwich { sum: 36, side: 9 }));
    assert!(nine().with_sandwich(35, &row).is_ok(), "2 to 8 add up to 35");
    let bent: Vec<usize> = (1..10).collect();
    assert_eq!(nine().with_sandwich(5, &bent), Err(RulesError::SandwichLine { cells: bent.clone() }));
    assert!(nine().with_sandwich(5, &bent).unwrap_err().to_string().contains("not one region's"));
    // A sandwich of 35 puts 1 and 9 at the ends of its row.
    let board = Board::empty_with(&nine().with_sandwich(35, &row)?).propagated().expect("solutions");
    assert_eq!(board.candidates(0).iter().collect::<Vec<_>>(), [1, 9]);
    assert_eq!(board.candidates(4).iter().collect::<Vec<_>>(), (2..=8).collect::<Vec<_>>());
    // Givens that break it, and JSON and f-puzzles that bring it back.
    let rules = nine().with_sandwich(0, &row)?;
    assert!(rules.parse(&format!("1.9{}", ".".repeat(78))).is_ok(), "checked once the row is full");
    let err = rules.parse(&format!("123456789{}", ".".repeat(72))).unwrap_err();
    assert_eq!(err.position(), Some((1, 9)));
    assert!(err.to_string().ends_with("add up to 35, not its clue of 0"), "{err}");
    assert!(err.to_string().contains("a sandwich whose digits between its smallest and its largest"), "{err}");
    let json = r#"{"puzzle": "................", "sandwiches": [{"sum": 5, "cells": [0, 4, 8, 12]}]}"#;
    let (board, layout) = lazydoku::format::Parser::new().parse(json)?;
    assert_eq!(layout.sandwiches(), [(5, vec![0, 4, 8, 12])]);
    let link = lazydoku::format::f_puzzles_link(&board)?;
    assert_eq!(link.parse::<Board>()?.rules(), board.rules());
    let boxed = Rules::new(Shape::new(2, 2)).with_sandwich(0, &[0, 1, 4, 5])?.parse(&".".repeat(16))?;
    let refused = lazydoku::format::f_puzzles_json(&boxed).unwrap_err().to_string();
    assert!(refused.contains("only along a row or a column"), "{refused}");
    Ok(())
}

/// Whether `grid` (0 for an empty cell) keeps every between line of
/// `lines` (ends first and last) that is full.
fn between_holds(grid: &[usize], lines: &[Vec<usize>]) -> bool {
    lines.iter().all(|line| {
        let digits: Vec<usize> = line.iter().map(|&c| grid[c]).collect();
        let (a, b) = (digits[0], digits[digits.len() - 1]);
        let (low, high) = (a.min(b), a.max(b));
        digits.contains(&0) || digits[1..digits.len() - 1].iter().all(|&d| low < d && d < high)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn between_lines_agree_with_brute_force(
        seed in 1..u64::MAX,
        six in any::<bool>(),
        keep in prop::collection::vec(prop::bool::weighted(0.15), 36),
        walks in prop::collection::vec(prop::collection::vec(0..36usize, 3..6), 1..4),
    ) {
        let (br, bc) = if six { (2, 3) } else { (2, 2) };
        let side = br * bc;
        let cells = side * side;
        let grid_text = common::shuffled_grid(br, bc, seed);
        let units = common::classic_units(br, bc);
        let mut rules = Rules::new(Shape::new(br, bc));
        let mut lines = Vec::new();
        for walk in &walks {
            let line = distinct_cells(walk, cells);
            if line.len() < 3 {
                continue;
            }
            rules = rules.with_between_line(&line).map_err(|e| TestCaseError::fail(format!("{line:?}: {e}")))?;
            lines.push(line);
        }
        let puzzle = common::kept(&grid_text, &keep);
        agrees_under(&rules, &puzzle, side, &units, &|grid| between_holds(grid, &lines))?;
    }
}

#[test]
fn between_lines_say_what_is_wrong_and_come_in_json_and_f_puzzles() -> Result<(), Box<dyn std::error::Error>> {
    let rules = Rules::new(Shape::NINE).with_between_line(&[0, 10, 20])?;
    assert_eq!(rules.clone().with_between_line(&[0, 0, 1]), Err(RulesError::RepeatedSumCell { cell: 0 }));
    // Givens that fill the line out of order are refused where the line fills.
    let err = rules.parse(&format!("5{}6{}4{}", ".".repeat(9), ".".repeat(9), ".".repeat(60))).unwrap_err();
    assert_eq!(err, ParseError::NotBetween { digit: 6, low: 4, high: 5, line: 1, column: 21 });
    assert_eq!(err.reason(), "the givens fill a between line whose 6 does not lie between its ends, 4 and 5");
    let placed = Board::empty_with(&rules).place(0, 2)?.place(10, 5)?;
    assert!(matches!(placed.place(20, 3), Err(Conflict::NotBetween { digit: 5, low: 2, high: 3, .. })));
    assert!(placed.place(20, 9).is_ok());
    // JSON and f-puzzles bring it and write it back.
    let json = r#"{"puzzle": "................", "between_lines": [[0, 5, 10, 15]]}"#;
    let f_puzzles = r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"betweenline":[{"lines":[["R1C1","R2C2","R3C3","R4C4"]]}]}"#;
    let expected = Rules::new(Shape::new(2, 2)).with_between_line(&[0, 5, 10, 15])?;
    let diagonal = [vec![0, 5, 10, 15]];
    let layout = reads_back_and_counts(json, f_puzzles, &expected, &|grid| between_holds(grid, &diagonal))?;
    assert_eq!(layout.between_lines(), diagonal);
    Ok(())
}

/// Whether `grid` (0 for an empty cell) can still give `cells` every digit
/// of `digits` as many times as it is listed: each digit has enough cells
/// holding it or empty.
fn quadruple_may_hold(grid: &[usize], cells: &[usize], digits: &[u8]) -> bool {
    digits.iter().all(|&d| {
        let needed = digits.iter().fold(0, |n, &x| n + usize::from(x == d));
        let open = cells.iter().filter(|&&c| grid[c] == usize::from(d) || grid[c] == 0).count();
        let held = cells.iter().filter(|&&c| grid[c] == usize::from(d)).count();
        open >= needed && (held >= needed || cells.iter().any(|&c| grid[c] == 0))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn quadruples_agree_with_brute_force(
        seed in 1..u64::MAX,
        six in any::<bool>(),
        keep in prop::collection::vec(prop::bool::weighted(0.15), 36),
        corners in prop::collection::vec((0..36usize, prop::collection::vec(1..7u8, 1..4)), 1..4),
    ) {
        let (br, bc) = if six { (2, 3) } else { (2, 2) };
        let side = br * bc;
        let grid_text = common::shuffled_grid(br, bc, seed);
        let units = common::classic_units(br, bc);
        let mut rules = Rules::new(Shape::new(br, bc));
        let mut quadruples = Vec::new();
        for (corner, digits) in &corners {
            // The four cells around a corner of cells, and digits of the board.
            let (row, col) = ((corner / side) % (side - 1), corner % (side - 1));
            let cells: Vec<usize> = [0, 1, side, side + 1].iter().map(|d| row * side + col + d).collect();
            let digits: Vec<u8> = digits.iter().map(|&d| (d - 1) % u8::try_from(side).unwrap() + 1).collect();
            rules = rules.with_quadruple(&cells, &digits).map_err(|e| TestCaseError::fail(format!("{cells:?}: {e}")))?;
            quadruples.push((cells, digits));
        }
        let puzzle = common::kept(&grid_text, &keep);
        let may_hold = |grid: &[usize]| quadruples.iter().all(|(cells, digits)| quadruple_may_hold(grid, cells, digits));
        agrees_under(&rules, &puzzle, side, &units, &may_hold)?;
    }
}

#[test]
fn quadruples_say_what_is_wrong_and_come_in_json() -> Result<(), Box<dyn std::error::Error>> {
    let four = || Rules::new(Shape::new(2, 2));
    assert_eq!(four().with_quadruple(&[0, 1], &[5]), Err(RulesError::DigitOutOfRange { digit: 5, side: 4 }));
    assert_eq!(four().with_quadruple(&[], &[1]), Err(RulesError::QuadrupleSize { cells: 0, digits: 1 }));
    let rules = four().with_quadruple(&[0, 1, 4, 5], &[3, 3])?;
    let err = rules.parse("12..\n34..\n....\n....").unwrap_err();
    assert_eq!(err, ParseError::QuadrupleMissing { digit: 3, line: 2, column: 2 });
    assert_eq!(err.reason(), "the givens fill a quadruple short of its 3");
    assert!(rules.parse("12..\n3...\n....\n....").is_ok(), "checked once the four are full");
    // Across two boxes: with 1, 2 and 4 placed, the 3 goes in the one cell
    // left for it, where the regions alone would leave 1 or 3.
    let across = four().with_quadruple(&[1, 2, 5, 6], &[3])?;
    let board = across.parse(".12.\n.4..\n....\n....")?;
    assert_eq!(
        Board::empty(Shape::new(2, 2)).place(1, 1)?.place(2, 2)?.place(5, 4)?.propagated().unwrap().candidates(6).len(),
        2
    );
    assert_eq!(board.propagated().expect("solutions").get(6), Some(3));
    let json = r#"{"puzzle": "................", "quadruples": [{"cells": [5, 6, 9, 10], "digits": [4, 4]}]}"#;
    let (board, layout) = lazydoku::format::Parser::new().parse(json)?;
    assert_eq!(layout.quadruples(), [(vec![5, 6, 9, 10], vec![4, 4])]);
    assert_eq!(board.rules(), four().with_quadruple(&[10, 9, 6, 5], &[4, 4])?);
    let solution = board.solve().expect("a solution");
    assert!([5, 10].iter().all(|&c| solution.get(c) == Some(4)) || [6, 9].iter().all(|&c| solution.get(c) == Some(4)));
    Ok(())
}

/// Whether `grid` (0 for an empty cell) can still keep every renban line
/// of `lines`: the digits placed on a line differ, and lie within as many
/// consecutive digits as the line has cells.
fn renban_may_hold(grid: &[usize], lines: &[Vec<usize>]) -> bool {
    lines.iter().all(|line| {
        let mut digits: Vec<usize> = line.iter().map(|&c| grid[c]).filter(|&d| d != 0).collect();
        digits.sort_unstable();
        let distinct = digits.windows(2).all(|w| w[0] != w[1]);
        distinct && digits.first().zip(digits.last()).is_none_or(|(low, high)| high - low < line.len())
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn renban_lines_agree_with_brute_force(
        seed in 1..u64::MAX,
        six in any::<bool>(),
        keep in prop::collection::vec(prop::bool::weighted(0.15), 36),
        walks in prop::collection::vec((prop::collection::vec(0..36usize, 2..6), any::<bool>()), 1..4),
    ) {
        let (br, bc) = if six { (2, 3) } else { (2, 2) };
        let side = br * bc;
        let cells = side * side;
        let grid_text = common::shuffled_grid(br, bc, seed);
        let grid: Vec<usize> = grid_text.bytes().map(|b| usize::from(b - b'0')).collect();
        let units = common::classic_units(br, bc);
        let mut rules = Rules::new(Shape::new(br, bc));
        let mut lines = Vec::new();
        for (walk, kept) in &walks {
            let mut line = distinct_cells(walk, cells);
            line.truncate(side);
            if *kept {
                // A line the grid keeps: the cells holding a run of digits
                // from the walk's first digit up, each in its own row from
                // the walk's first cell's.
                let (start_row, low) = (line[0] / side, grid[line[0]].min(side + 1 - line.len()));
                line = (0..line.len())
                    .map(|i| {
                        let row = (start_row + i) % side;
                        (0..side).map(|c| row * side + c).find(|&c| grid[c] == low + i).expect("a row holds every digit")
                    })
                    .collect();
            }
            if line.len() < 2 {
                continue;
            }
            rules = rules.with_renban(&line).map_err(|e| TestCaseError::fail(format!("{line:?}: {e}")))?;
            lines.push(line);
        }
        let puzzle = common::kept(&grid_text, &keep);
        agrees_under(&rules, &puzzle, side, &units, &|grid| renban_may_hold(grid, &lines))?;
    }
}

#[test]
fn renban_lines_say_what_is_wrong_and_come_in_json_and_f_puzzles() -> Result<(), Box<dyn std::error::Error>> {
    let four = || Rules::new(Shape::new(2, 2));
    assert_eq!(four().with_renban(&[3]), Err(RulesError::RenbanLength { found: 1, side: 4 }));
    assert_eq!(four().with_renban(&[3, 3]), Err(RulesError::RepeatedSumCell { cell: 3 }));
    assert_eq!(four().with_renban(&[3, 16]), Err(RulesError::CellOutOfRange { cell: 16, cells: 16 }));
    assert_eq!(
        four().with_renban(&[0, 1, 2, 3, 4]).unwrap_err().to_string(),
        "a renban line has 5 cells; it needs 2 to 4, as its digits are a run of distinct digits from 1 to 4"
    );
    // Givens that fill a line with a gap are refused where the line fills.
    let rules = Rules::new(Shape::NINE).with_renban(&[0, 10, 20])?;
    let err = rules.parse(&format!("5{}7{}4{}", ".".repeat(9), ".".repeat(9), ".".repeat(60))).unwrap_err();
    assert_eq!(err, ParseError::NotRenban { low: 4, high: 7, line: 1, column: 21 });
    assert_eq!(
        err.reason(),
        "the givens fill a renban line whose digits, 4 to 7, are not a run of consecutive digits each once"
    );
    let placed = Board::empty_with(&rules).place(0, 5)?.place(10, 7)?;
    assert!(matches!(placed.place(20, 4), Err(Conflict::NotRenban { low: 4, high: 7, .. })));
    assert!(placed.place(20, 6).is_ok());
    // Two digits placed on a line of three leave the third its one digit:
    // 5 and 7 need the 6, on a line across three boxes.
    let settled = placed.propagated().expect("solutions");
    assert_eq!(settled.get(20), Some(6));
    // JSON, f-puzzles (renban and whispers lines) bring them and write them back.
    let json = r#"{"puzzle": "................", "renbans": [[0, 5, 10], [3, 6]]}"#;
    let f_puzzles = r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"renban":[{"lines":[["R1C1","R2C2","R3C3"]]},{"lines":[["R1C4","R2C3"]]}]}"#;
    let expected = four().with_renban(&[3, 6])?.with_renban(&[0, 5, 10])?;
    let lines = [vec![0, 5, 10], vec![3, 6]];
    let layout = reads_back_and_counts(json, f_puzzles, &expected, &|grid| renban_may_hold(grid, &lines))?;
    assert_eq!(layout.renbans(), lines);
    Ok(())
}

/// A line of equal sums as the reference reads it, by its kind (0 a
/// region sum line, 1 a zipper line, 2 a double arrow): its groups of
/// cells, each adding up to the same, worked out here from the boxes of
/// `br` x `bc` cells.
fn equal_groups(kind: u8, line: &[usize], br: usize, bc: usize) -> Vec<Vec<usize>> {
    let side = br * bc;
    let n = line.len();
    match kind {
        0 => {
            let box_of = |c: usize| (c / side / br, c % side / bc);
            let mut groups: Vec<Vec<usize>> = Vec::new();
            for (i, &c) in line.iter().enumerate() {
                match groups.last_mut() {
                    Some(group) if i > 0 && box_of(line[i - 1]) == box_of(c) => group.push(c),
                    _ => groups.push(vec![c]),
                }
            }
            groups
        }
        1 => {
            let pairs = (0..n / 2).map(|i| vec![line[i], line[n - 1 - i]]);
            if n % 2 == 1 { std::iter::once(vec![line[n / 2]]).chain(pairs).collect() } else { pairs.collect() }
        }
        _ => vec![vec![line[0], line[n - 1]], line[1..n - 1].to_vec()],
    }
}

/// Whether `grid` (0 for an empty cell) can still give every group of
/// each line one sum: the least and greatest each group can add up to
/// (an empty cell 1 to `side`) share a value.
fn equal_may_hold(grid: &[usize], side: usize, lines: &[Vec<Vec<usize>>]) -> bool {
    lines.iter().all(|groups| {
        let (low, high) = groups.iter().fold((0, usize::MAX), |(low, high), group| {
            let placed: usize = group.iter().map(|&c| grid[c]).sum();
            let empty = group.iter().filter(|&&c| grid[c] == 0).count();
            (low.max(placed + empty), high.min(placed + empty * side))
        });
        low <= high
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn lines_of_equal_sums_agree_with_brute_force(
        seed in 1..u64::MAX,
        six in any::<bool>(),
        keep in prop::collection::vec(prop::bool::weighted(0.15), 36),
        lines in prop::collection::vec((0..3u8, prop::collection::vec(0..36usize, 3..7), any::<u64>()), 1..3),
    ) {
        let (br, bc) = if six { (2, 3) } else { (2, 2) };
        let side = br * bc;
        let cells = side * side;
        let grid_text = common::shuffled_grid(br, bc, seed);
        let grid: Vec<usize> = grid_text.bytes().map(|b| usize::from(b - b'0')).collect();
        let units = common::classic_units(br, bc);
        let mut rules = Rules::new(Shape::new(br, bc));
        let mut all_groups = Vec::new();
        for (kind, walk, draw) in &lines {
            let mut line = distinct_cells(walk, cells);
            if line.len() < 3 {
                continue;
            }
            // For an odd `draw`, a line of the same length that the grid
            // keeps, drawn at random, when one turns up.
            let mut state = draw | 1;
            for _ in 0..if draw % 2 == 1 { 300 } else { 0 } {
                let mut next = || {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    usize::try_from(state % 36).unwrap()
                };
                let tried = distinct_cells(&(0..line.len() * 3).map(|_| next()).collect::<Vec<_>>(), cells);
                if tried.len() >= line.len() {
                    let tried = tried[..line.len()].to_vec();
                    if equal_may_hold(&grid, side, &[equal_groups(*kind, &tried, br, bc)]) {
                        line = tried;
                        break;
                    }
                }
            }
            rules = match kind {
                0 => rules.with_region_sum_line(&line),
                1 => rules.with_zipper_line(&line),
                _ => rules.with_double_arrow(&line),
            }
            .map_err(|e| TestCaseError::fail(format!("{line:?}: {e}")))?;
            all_groups.push(equal_groups(*kind, &line, br, bc));
        }
        let puzzle = common::kept(&grid_text, &keep);
        agrees_under(&rules, &puzzle, side, &units, &|grid| equal_may_hold(grid, side, &all_groups))?;
    }
}

#[test]
fn lines_of_equal_sums_say_what_is_wrong_and_come_in_json_and_f_puzzles() -> Result<(), Box<dyn std::error::Error>> {
    let four = || Rules::new(Shape::new(2, 2));
    assert_eq!(four().with_region_sum_line(&[3]), Err(RulesError::ShortLine { found: 1, least: 2 }));
    assert_eq!(four().with_zipper_line(&[0, 1]), Err(RulesError::ShortLine { found: 2, least: 3 }));
    assert_eq!(four().with_double_arrow(&[0, 1, 1]), Err(RulesError::RepeatedSumCell { cell: 1 }));
    assert_eq!(
        four().with_double_arrow(&[0, 1]).unwrap_err().to_string(),
        "a line of 2 cells is too short for its rule, which needs 3 or more"
    );
    // Givens that fill a line with unequal sums are refused where it fills:
    // the middle 5, and a pair around it of 1 and 6.
    let zipper = Rules::new(Shape::NINE).with_zipper_line(&[0, 1, 2, 3, 4])?;
    let err = zipper.parse(&format!("13526{}", ".".repeat(76))).unwrap_err();
    assert_eq!(err, ParseError::SumBroken { sum: 5, found: 7, kind: SumKind::Zipper, line: 1, column: 5 });
    assert_eq!(
        err.reason(),
        "the givens fill a zipper line whose cells around its middle add up to 5 and 7, not one sum"
    );
    assert!(zipper.parse(&format!("13524{}", ".".repeat(76))).is_ok());
    let arrow = four().with_double_arrow(&[0, 5, 10])?;
    let placed = Board::empty_with(&arrow).place(0, 1)?.place(5, 4)?;
    assert!(matches!(
        placed.place(10, 2),
        Err(Conflict::SumBroken { sum: 3, found: 4, kind: SumKind::DoubleArrow, .. })
    ));
    // The ends add up to 4 at most, so the middle 4 leaves the last end a 3.
    assert_eq!(placed.propagated().expect("solutions").get(10), Some(3));
    // A region sum line is cut by the regions as the rules end up, even
    // when a jigsaw map comes after it: here two regions of rows.
    let jigsaw = "1122 1122 3344 3344";
    let before = four().with_region_sum_line(&[0, 1, 2, 3])?.with_regions(jigsaw)?;
    let after = four().with_regions(jigsaw)?.with_region_sum_line(&[0, 1, 2, 3])?;
    assert_eq!(before, after);
    for solution in Board::empty_with(&before).solutions() {
        let digit = |cell: usize| solution.get(cell).unwrap();
        assert_eq!(digit(0) + digit(1), digit(2) + digit(3));
    }
    // JSON and f-puzzles bring each kind and write it back.
    let json = r#"{"puzzle": "................", "region_sum_lines": [[0, 1, 2, 3]], "zipper_lines": [[4, 8, 12]],
        "double_arrows": [[3, 7, 11]]}"#;
    let expected =
        four().with_region_sum_line(&[0, 1, 2, 3])?.with_zipper_line(&[4, 8, 12])?.with_double_arrow(&[3, 7, 11])?;
    let f_puzzles = r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],
        "regionsumline":[{"lines":[["R1C1","R1C2","R1C3","R1C4"]]}],"zipperline":[{"lines":[["R2C1","R3C1","R4C1"]]}],
        "doublearrow":[{"lines":[["R1C4","R2C4","R3C4"]]}]}"#;
    let groups =
        [equal_groups(0, &[0, 1, 2, 3], 2, 2), equal_groups(1, &[4, 8, 12], 2, 2), equal_groups(2, &[3, 7, 11], 2, 2)];
    let layout = reads_back_and_counts(json, f_puzzles, &expected, &|grid| equal_may_hold(grid, 4, &groups))?;
    assert_eq!(layout.region_sum_lines(), [vec![0, 1, 2, 3]]);
    assert_eq!(layout.zipper_lines(), [vec![4, 8, 12]]);
    assert_eq!(layout.double_arrows(), [vec![3, 7, 11]]);
    Ok(())
}

/// A line of classes as the reference reads it: its cells, and the class
/// of a digit on a board of a side.
type ClassedLine = (Vec<usize>, fn(usize, usize) -> usize);

/// Whether `grid` (0 for an empty cell) can still keep every line of
/// classes of `lines` (each with the class of a digit): no two placed
/// digits among three cells in a row share a class.
fn classes_may_hold(grid: &[usize], lines: &[ClassedLine], side: usize) -> bool {
    lines.iter().all(|(line, class)| {
        let classes: Vec<Option<usize>> = line.iter().map(|&c| (grid[c] != 0).then(|| class(grid[c], side))).collect();
        (0..classes.len())
            .all(|i| (i + 1..classes.len().min(i + 3)).all(|j| classes[i].is_none() || classes[i] != classes[j]))
    })
}

/// A digit's third of the digits 1 to `side`, an entropic line's class.
fn third(digit: usize, side: usize) -> usize {
    (digit - 1) / (side / 3)
}

/// A digit's remainder divided by 3, a modular line's class.
fn remainder(digit: usize, _side: usize) -> usize {
    digit % 3
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn entropic_and_modular_lines_agree_with_brute_force(
        seed in 1..u64::MAX,
        six in any::<bool>(),
        keep in prop::collection::vec(prop::bool::weighted(0.15), 36),
        lines in prop::collection::vec((any::<bool>(), prop::collection::vec(0..36usize, 2..7)), 1..3),
    ) {
        let (br, bc) = if six { (2, 3) } else { (2, 2) };
        let side = br * bc;
        let cells = side * side;
        let grid_text = common::shuffled_grid(br, bc, seed);
        let units = common::classic_units(br, bc);
        let mut rules = Rules::new(Shape::new(br, bc));
        let mut kept: Vec<ClassedLine> = Vec::new();
        for (entropic, walk) in &lines {
            let line = distinct_cells(walk, cells);
            if line.len() < 2 {
                continue;
            }
            // Entropic lines on 6x6 only: 4 does not split into thirds.
            if *entropic && six {
                rules = rules.with_entropic_line(&line).map_err(|e| TestCaseError::fail(format!("{line:?}: {e}")))?;
                kept.push((line, third));
            } else {
                rules = rules.with_modular_line(&line).map_err(|e| TestCaseError::fail(format!("{line:?}: {e}")))?;
                kept.push((line, remainder));
            }
        }
        let puzzle = common::kept(&grid_text, &keep);
        agrees_under(&rules, &puzzle, side, &units, &|grid| classes_may_hold(grid, &kept, side))?;
    }
}

#[test]
fn entropic_and_modular_lines_say_what_is_wrong_and_come_in_json_and_f_puzzles()
-> Result<(), Box<dyn std::error::Error>> {
    let four = || Rules::new(Shape::new(2, 2));
    assert_eq!(four().with_modular_line(&[3]), Err(RulesError::ShortLine { found: 1, least: 2 }));
    assert_eq!(four().with_entropic_line(&[0, 1]), Err(RulesError::NoThirds { side: 4 }));
    assert_eq!(
        four().with_entropic_line(&[0, 1]).unwrap_err().to_string(),
        "an entropic line splits the digits into thirds, and the digits 1 to 4 do not split so"
    );
    // Givens that put two digits of one class among three cells in a row
    // are refused where the line fills.
    let nine = Rules::new(Shape::NINE).with_entropic_line(&[0, 1, 2, 3])?;
    let err = nine.parse(&format!("1475{}", ".".repeat(77))).unwrap_err();
    assert_eq!(err, ParseError::SameClass { kind: ClassLine::Entropic, first: 4, second: 5, line: 1, column: 4 });
    assert_eq!(
        err.reason(),
        "the givens fill an entropic line whose 4 and 5, among three cells in a row, are of one third of the digits"
    );
    assert!(nine.parse(&format!("1472{}", ".".repeat(77))).is_ok());
    let modular = Rules::new(Shape::NINE).with_modular_line(&[0, 9, 18])?;
    let placed = Board::empty_with(&modular).place(0, 3)?.place(9, 4)?;
    assert!(matches!(
        placed.place(18, 7),
        Err(Conflict::SameClass { kind: ClassLine::Modular, first: 4, second: 7, .. })
    ));
    // 3 and 4 leave the third cell a digit of remainder 2 (2, 5 or 8).
    let settled = placed.propagated().expect("solutions");
    assert!(settled.candidates(18).iter().all(|d| d % 3 == 2), "{:?}", settled.candidates(18));
    // Cells three apart along a line share a class.
    let long = Rules::new(Shape::NINE).with_modular_line(&[0, 1, 2, 3, 4, 5])?;
    let settled = Board::empty_with(&long).place(0, 9)?.propagated().expect("solutions");
    assert!(settled.candidates(3).iter().all(|d| d % 3 == 0), "{:?}", settled.candidates(3));
    // JSON and f-puzzles bring them and write them back.
    let json = r#"{"puzzle": "....................................",
        "entropic_lines": [[0, 1, 2, 3]], "modular_lines": [[6, 12, 18]]}"#;
    let expected = Rules::new(Shape::new(2, 3)).with_entropic_line(&[0, 1, 2, 3])?.with_modular_line(&[6, 12, 18])?;
    let row = "[{},{},{},{},{},{}]";
    let f_puzzles = format!(
        r#"{{"size":6,"grid":[{row},{row},{row},{row},{row},{row}],
        "entropicline":[{{"lines":[["R1C1","R1C2","R1C3","R1C4"]]}}],"modularline":[{{"lines":[["R2C1","R3C1","R4C1"]]}}]}}"#
    );
    let lines: [ClassedLine; 2] = [(vec![0, 1, 2, 3], third), (vec![6, 12, 18], remainder)];
    let layout = reads_back_and_counts(json, &f_puzzles, &expected, &|grid| classes_may_hold(grid, &lines, 6))?;
    assert_eq!(layout.entropic_lines(), [vec![0, 1, 2, 3]]);
    assert_eq!(layout.modular_lines(), [vec![6, 12, 18]]);
    Ok(())
}

#[test]
fn explanations_take_every_other_line_by_its_narrowing() {
    use lazydoku::explain::Technique;

    // A renban of two cells holding a 1: the other holds 2.
    let renban = Rules::new(Shape::new(2, 2)).with_renban(&[0, 5]).unwrap();
    let board = renban.parse("1...............").unwrap();
    let step = board.explain().find(|s| s.technique() == Technique::LineRules).expect("a line step");
    assert_eq!(
        step.to_string(),
        "Line rules: r1c1 and r2c2 hold a run of consecutive digits, which leaves r2c2 only 2; so 3 and 4 out of r2c2."
    );
    // The first step of each rule's 6x6 board, empty or with a given:
    // nothing else applies there. And the eliminations of its first steps
    // each leave the board no solution with that digit in that cell.
    let six = || Rules::new(Shape::new(2, 3));
    let boards = [
        (renban, "1..............."),
        (six().with_entropic_line(&[0, 1, 2, 3]).unwrap(), "1"),
        (six().with_modular_line(&[0, 7, 14]).unwrap(), "3"),
        (six().with_zipper_line(&[0, 7, 14]).unwrap(), ""),
        (six().with_double_arrow(&[0, 7, 14]).unwrap(), ""),
        (six().with_region_sum_line(&[0, 1, 2, 3]).unwrap(), ""),
        (six().with_between_line(&[0, 7, 14]).unwrap(), ""),
        (six().with_quadruple(&[0, 1, 6, 7], &[3, 4, 5, 6]).unwrap(), ""),
        (six().with_sandwich(14, &[0, 1, 2, 3, 4, 5]).unwrap(), ""),
    ];
    for (rules, givens) in boards {
        let side = rules.shape().side();
        let board = rules.parse(&format!("{givens}{}", ".".repeat(side * side - givens.len()))).unwrap();
        let steps: Vec<_> = board.explain().take(4).collect();
        assert_eq!(steps[0].technique(), Technique::LineRules, "{}", steps[0]);
        for step in steps {
            for (cell, digit) in step.eliminations() {
                let kept = board.place(cell, digit).map_or(0, |b| b.count_solutions(1));
                assert_eq!(kept, 0, "{step}");
            }
        }
    }
}

#[test]
fn the_command_line_generates_puzzles_on_the_rules_of_a_puzzle() {
    // A JSON object's rules along lines, with each puzzle in JSON.
    let rules = r#"{"puzzle": "....................................", "renbans": [[0, 7, 14]],
        "entropic_lines": [[5, 10, 15, 20]], "zipper_lines": [[30, 31, 32, 33, 34]]}"#;
    let out = common::run(&["generate", "--count", "3", "--seed", "4", "--format", "json", "--rules", rules], "");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let expected = Rules::new(Shape::new(2, 3))
        .with_renban(&[0, 7, 14])
        .unwrap()
        .with_entropic_line(&[5, 10, 15, 20])
        .unwrap()
        .with_zipper_line(&[30, 31, 32, 33, 34])
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 3);
    for line in text.lines() {
        let (board, layout) = lazydoku::format::Parser::new().parse(line).unwrap();
        assert_eq!(board.rules(), expected, "{line}");
        assert_eq!(layout.renbans(), [vec![0, 7, 14]]);
        assert!(board.is_unique(), "{line}");
    }
    // An f-puzzles link's rules, each puzzle a link of its own.
    let link = lazydoku::format::f_puzzles_link(&Board::empty_with(&expected)).unwrap();
    let out = common::run(&["generate", "--count", "2", "--seed", "4", "--format", "f-puzzles", "--rules", &link], "");
    let text = String::from_utf8(out.stdout).unwrap();
    for line in text.lines() {
        let board: Board = line.parse().unwrap();
        assert_eq!(board.rules(), expected);
        assert!(board.is_unique() && board.empty_cells() < 36, "{line}");
    }
    // Line output cannot hold the lines, and says so; other rule flags
    // beside --rules, and a puzzle that cannot be read, are refused.
    let out = common::run(&["generate", "--count", "1", "--rules", rules], "");
    assert!(String::from_utf8_lossy(&out.stderr).contains("have no way to write"), "{out:?}");
    let out = common::run(&["generate", "--count", "1", "--x", "--rules", rules], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--rules brings the puzzle's every rule"));
    let out = common::run(&["generate", "--count", "1", "--rules", r#"{"puzzle": "...", "renbans": [[0]]}"#], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("lazydoku: --rules: "), "{out:?}");
}

/// The X-sum of `digits`, a line's digits from the clue's side: the first
/// `x` of them added up, `x` the first; `None` while one is missing.
fn x_sum_of(digits: &[usize]) -> Option<usize> {
    let counted = digits.get(..*digits.first().filter(|&&d| d != 0)?)?;
    counted.iter().all(|&d| d != 0).then(|| counted.iter().sum())
}

/// What a line's digits, from the clue's side, show for a clue outside
/// the grid (an X-sum, a skyscraper's count); `None` while they cannot
/// tell.
type ClueOf = fn(&[usize]) -> Option<usize>;

/// Whether `grid` (0 for an empty cell) can still keep every clue of
/// `clues` (its number and its cells from its side), read by `clue_of`.
fn clues_may_hold(grid: &[usize], clues: &[(usize, Vec<usize>)], clue_of: ClueOf) -> bool {
    clues.iter().all(|(clue, cells)| {
        let digits: Vec<usize> = cells.iter().map(|&c| grid[c]).collect();
        clue_of(&digits).is_none_or(|found| found == *clue)
    })
}

/// How a rule refuses a clue no line shows: whether an error is that
/// refusal, and the largest clue on a side.
type Refusal = (fn(&RulesError) -> bool, fn(usize) -> usize);

/// The property test of clues outside the grid: on the grid of `seed` (a
/// 6x6 one if `six`, else 4x4) with the givens `keep` marks, a clue for
/// each of `lines` (a row or column, read from its far end for an odd
/// pick) with the grid's number or one more (picks 2 and 3), added by
/// `with`, which must refuse a number above `largest` of the side as
/// `impossible` says; then the board against [`backtrack`].
fn outside_clues_agree(
    (seed, six, keep, lines): (u64, bool, &[bool], &[(usize, usize)]),
    clue_of: ClueOf,
    with: fn(Rules, usize, &[usize]) -> Result<Rules, RulesError>,
    (impossible, largest): Refusal,
) -> Result<(), TestCaseError> {
    let (br, bc) = if six { (2, 3) } else { (2, 2) };
    let side = br * bc;
    let grid_text = common::shuffled_grid(br, bc, seed);
    let grid: Vec<usize> = grid_text.bytes().map(|b| usize::from(b - b'0')).collect();
    let units = common::classic_units(br, bc);
    let mut rules = Rules::new(Shape::new(br, bc));
    let mut clues = Vec::new();
    for &(line, pick) in lines {
        let mut cells = units[line % (2 * side)].clone();
        if pick % 2 == 1 {
            cells.reverse();
        }
        let digits: Vec<usize> = cells.iter().map(|&c| grid[c]).collect();
        let clue = clue_of(&digits).expect("a full line") + [0, 0, 1, 1][pick];
        match with(rules.clone(), clue, &cells) {
            Ok(more) => {
                rules = more;
                clues.push((clue, cells));
            }
            Err(e) if impossible(&e) => prop_assert!(clue > largest(side)),
            Err(e) => return Err(TestCaseError::fail(format!("{cells:?}: {e}"))),
        }
    }
    let puzzle = common::kept(&grid_text, keep);
    agrees_under(&rules, &puzzle, side, &units, &|grid| clues_may_hold(grid, &clues, clue_of))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn x_sums_agree_with_brute_force(
        seed in 1..u64::MAX,
        six in any::<bool>(),
        keep in prop::collection::vec(prop::bool::weighted(0.15), 36),
        lines in prop::collection::vec((0..12usize, 0..4usize), 1..4),
    ) {
        let impossible = |e: &RulesError| matches!(e, RulesError::ImpossibleXSum { .. });
        let with = |rules: Rules, sum: usize, cells: &[usize]| rules.with_x_sum(sum, cells);
        outside_clues_agree((seed, six, &keep, &lines), x_sum_of, with, (impossible, |side| side * (side + 1) / 2))?;
    }
}

#[test]
fn x_sums_say_what_is_wrong_and_come_in_json_and_f_puzzles() -> Result<(), Box<dyn std::error::Error>> {
    let four = || Rules::new(Shape::new(2, 2));
    assert_eq!(four().with_x_sum(3, &[0, 1, 4, 5]), Ok(four().with_x_sum(3, &[0, 1, 4, 5])?), "a box is a region");
    assert_eq!(four().with_x_sum(3, &[0, 1, 2, 4]), Err(RulesError::XSumLine { cells: vec![0, 1, 2, 4] }));
    assert_eq!(four().with_x_sum(0, &[0, 1, 2, 3]), Err(RulesError::ImpossibleXSum { sum: 0, side: 4 }));
    assert_eq!(
        four().with_x_sum(11, &[0, 1, 2, 3]).unwrap_err().to_string(),
        "no X-sum adds up to 11: its first digits add up to 1 to 10 on digits 1 to 4"
    );
    // Givens that fill the counted cells wrong are refused where they fill
    // them: a first digit 3 and 3 + 1 + 2 = 6, not 7.
    let row = Rules::new(Shape::NINE).with_x_sum(7, &[8, 7, 6, 5, 4, 3, 2, 1, 0])?;
    let err = row.parse(&format!("......213{}", ".".repeat(72))).unwrap_err();
    assert_eq!(err, ParseError::SumBroken { sum: 7, found: 6, kind: SumKind::XSum, line: 1, column: 9 });
    assert_eq!(
        err.reason(),
        "the givens fill an X-sum whose first digits, as many as the first says, add up to 6, not its clue of 7"
    );
    // A first digit 2 leaves the next cell 5.
    let settled = Board::empty_with(&row).place(8, 2)?.propagated().expect("solutions");
    assert_eq!(settled.get(7), Some(5));
    // JSON and f-puzzles bring them, from each side, and write them back.
    let json = r#"{"puzzle": "................", "x_sums": [{"sum": 10, "cells": [0, 1, 2, 3]},
        {"sum": 3, "cells": [12, 8, 4, 0]}, {"sum": 6, "cells": [7, 6, 5, 4]}]}"#;
    let f_puzzles = r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],
        "xsum":[{"cell":"R1C0","value":"10"},{"cell":"R5C1","value":3},{"cell":"R2C5","value":"6"}]}"#;
    let expected = four().with_x_sum(10, &[0, 1, 2, 3])?.with_x_sum(3, &[12, 8, 4, 0])?.with_x_sum(6, &[7, 6, 5, 4])?;
    let sums = [(10, vec![0, 1, 2, 3]), (3, vec![12, 8, 4, 0]), (6, vec![7, 6, 5, 4])];
    let may_hold = |grid: &[usize]| clues_may_hold(grid, &sums, x_sum_of);
    let layout = reads_back_and_counts(json, f_puzzles, &expected, &may_hold)?;
    assert_eq!(layout.x_sums(), sums);
    // One along a box is this crate's, and no f-puzzles clue's.
    let boxed = Board::empty_with(&four().with_x_sum(3, &[0, 1, 4, 5])?);
    let refused = lazydoku::format::f_puzzles_link(&boxed).unwrap_err().to_string();
    assert!(refused.contains("an X-sum only along a row or a column"), "{refused}");
    Ok(())
}

/// How many of `digits` (a line's, from the clue's side) stand taller
/// than all before them; `None` while one is missing.
fn seen_of(digits: &[usize]) -> Option<usize> {
    if digits.contains(&0) {
        return None;
    }
    let (_, seen) =
        digits.iter().fold((0, 0), |(tallest, seen), &d| if d > tallest { (d, seen + 1) } else { (tallest, seen) });
    Some(seen)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn skyscrapers_agree_with_brute_force(
        seed in 1..u64::MAX,
        six in any::<bool>(),
        keep in prop::collection::vec(prop::bool::weighted(0.15), 36),
        lines in prop::collection::vec((0..12usize, 0..4usize), 1..4),
    ) {
        let impossible = |e: &RulesError| matches!(e, RulesError::ImpossibleSkyscraper { .. });
        let with = |rules: Rules, seen: usize, cells: &[usize]| rules.with_skyscraper(seen, cells);
        outside_clues_agree((seed, six, &keep, &lines), seen_of, with, (impossible, |side| side))?;
    }
}

#[test]
fn skyscrapers_say_what_is_wrong_and_come_in_json_and_f_puzzles() -> Result<(), Box<dyn std::error::Error>> {
    let four = || Rules::new(Shape::new(2, 2));
    assert_eq!(four().with_skyscraper(2, &[0, 1, 2, 4]), Err(RulesError::XSumLine { cells: vec![0, 1, 2, 4] }));
    assert_eq!(four().with_skyscraper(5, &[0, 1, 2, 3]), Err(RulesError::ImpossibleSkyscraper { seen: 5, side: 4 }));
    assert_eq!(
        four().with_skyscraper(0, &[0, 1, 2, 3]).unwrap_err().to_string(),
        "no skyscraper line shows 0 digits: it shows 1 to 4"
    );
    // Givens that show another number are refused where the line fills.
    let row = Rules::new(Shape::NINE).with_skyscraper(2, &[0, 1, 2, 3, 4, 5, 6, 7, 8])?;
    let err = row.parse(&format!("123456789{}", ".".repeat(72))).unwrap_err();
    assert_eq!(err, ParseError::Seen { seen: 2, found: 9, line: 1, column: 9 });
    assert_eq!(err.reason(), "the givens fill a skyscraper line that shows 9 digits, not its clue of 2");
    // A clue of 1 puts the tallest first.
    let one = Rules::new(Shape::NINE).with_skyscraper(1, &[8, 17, 26, 35, 44, 53, 62, 71, 80])?;
    assert_eq!(Board::empty_with(&one).propagated().expect("solutions").get(8), Some(9));
    let json = r#"{"puzzle": "................", "skyscrapers": [{"clue": 4, "cells": [0, 1, 2, 3]},
        {"clue": 1, "cells": [3, 7, 11, 15]}]}"#;
    let f_puzzles = r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],
        "skyscraper":[{"cell":"R1C0","value":"4"},{"cell":"R0C4","value":1}]}"#;
    let expected = four().with_skyscraper(4, &[0, 1, 2, 3])?.with_skyscraper(1, &[3, 7, 11, 15])?;
    let clues = [(4, vec![0, 1, 2, 3]), (1, vec![3, 7, 11, 15])];
    let may_hold = |grid: &[usize]| clues_may_hold(grid, &clues, seen_of);
    let layout = reads_back_and_counts(json, f_puzzles, &expected, &may_hold)?;
    assert_eq!(layout.skyscrapers(), clues);
    Ok(())
}
