//! Rotations and reflections (`Turn`) of boards and their rules: a turned
//! puzzle's solutions are the puzzle's own, turned, for every kind of rule.

use std::collections::BTreeSet;

use lazydoku::{Board, Region, Relation, Rules, RulesError, Shape, Turn};

use crate::common::shuffled_grid;

fn digits(grid: &str) -> Vec<usize> {
    grid.bytes().map(|b| usize::from(b - b'0')).collect()
}

/// The cell of `row` that holds `digit` in `grid`.
fn place_of(grid: &[usize], side: usize, row: usize, digit: usize) -> usize {
    row * side + (0..side).find(|&c| grid[row * side + c] == digit).expect("a row holds every digit")
}

/// Rules of every kind that `grid` (of boxes 2x3) keeps, each built from
/// where its digits lie.
fn rules_kept_by(grid: &[usize]) -> Result<Rules, RulesError> {
    let side = 6;
    let at = |cell: usize| grid[cell];
    let row = |r: usize| -> Vec<usize> { (0..side).map(|c| r * side + c).collect() };
    let column = |c: usize| -> Vec<usize> { (0..side).map(|r| r * side + c).collect() };
    let digits_along = |cells: &[usize]| cells.iter().map(|&c| at(c)).collect::<Vec<_>>();
    // Row 1, left to right: the sandwich between its 1 and its 6.
    let second = digits_along(&row(1));
    let (one, six) = (second.iter().position(|&d| d == 1).unwrap(), second.iter().position(|&d| d == 6).unwrap());
    let sandwich: usize = second[one.min(six) + 1..one.max(six)].iter().sum();
    // Row 2 from the left: the X-sum of its first x digits.
    let third = digits_along(&row(2));
    let x_sum: usize = third[..third[0]].iter().sum();
    // Column 0 from the top: how many digits are taller than those before.
    let first_column = digits_along(&column(0));
    let seen = (0..side).filter(|&i| first_column[..i].iter().all(|&d| d < first_column[i])).count();
    let diagonal: Vec<usize> = (0..side).map(|i| i * side + i).collect();
    let diagonal_sum: usize = diagonal.iter().map(|&c| at(c)).sum();
    // Row 0 in the order of its digits: a thermometer.
    let mut rising = row(0);
    rising.sort_by_key(|&c| at(c));
    // An arrow whose circle and shaft hold the same digit, in rows 3 and 5
    // and in different columns (digit 2's places there).
    let (circle, shaft) = (place_of(grid, side, 3, 2), place_of(grid, side, 5, 2));
    // Cells of row 4 holding 1, 2 and 3; of 1, 3 and 5; and 1, 2, 6.
    let in_row_4 = |digit: usize| place_of(grid, side, 4, digit);
    let even: Vec<usize> = row(5).into_iter().filter(|&c| at(c) % 2 == 0).collect();
    let odd: Vec<usize> = column(5).into_iter().filter(|&c| at(c) % 2 == 1).collect();
    // One cell of each digit, each in its own row: an extra region.
    let extra: Vec<usize> = (0..side).map(|r| place_of(grid, side, r, r + 1)).collect();
    let rules = Rules::new(Shape::new(2, 3))
        .with_cage(at(0) + at(1), &[0, 1])?
        .with_thermometer(&rising)?
        .with_relation(6, Relation::Difference(at(6).abs_diff(at(7))), 7)?
        .with_relation(12, Relation::Sum(at(12) + at(18)), 18)?
        .with_arrow(&[circle], &[shaft])?
        .with_sum(diagonal_sum, &diagonal)?
        .with_sandwich(sandwich, &row(1))?
        .with_x_sum(x_sum, &row(2))?
        .with_skyscraper(seen, &column(0))?
        .with_between_line(&[in_row_4(1), in_row_4(2), in_row_4(6)])?
        .with_quadruple(&[0, 1, 6, 7], &[u8::try_from(at(7)).unwrap()])?
        .with_renban(&[in_row_4(1), in_row_4(2), in_row_4(3)])?
        .with_zipper_line(&[in_row_4(1), in_row_4(3), in_row_4(2)])?
        .with_double_arrow(&[in_row_4(1), in_row_4(3), in_row_4(2)])?
        .with_entropic_line(&[in_row_4(1), in_row_4(3), in_row_4(5)])?
        .with_modular_line(&[in_row_4(1), in_row_4(2), in_row_4(3)])?
        .with_region_sum_line(&[place_of(grid, side, 0, 4), place_of(grid, side, 2, 4)])?
        .with_even(&even)?
        .with_odd(&odd)?
        .with_region(&extra)?
        .with_distinct(&[place_of(grid, side, 0, 1), place_of(grid, side, 3, 2)])?;
    Ok(rules)
}

fn solution_set(board: &Board) -> BTreeSet<String> {
    board.solutions().map(|solution| solution.as_str().to_owned()).collect()
}

fn turned_text(text: &str, side: usize, turn: Turn) -> String {
    let mut out = vec![b'.'; side * side];
    for (cell, &symbol) in text.as_bytes().iter().enumerate() {
        out[turn.cell(side, cell)] = symbol;
    }
    String::from_utf8(out).unwrap()
}

#[test]
fn turned_puzzles_of_every_rule_have_the_solutions_turned() -> Result<(), Box<dyn std::error::Error>> {
    for seed in 1..=12u64 {
        let grid = digits(&shuffled_grid(2, 3, seed));
        let rules = rules_kept_by(&grid)?;
        // Two givens of every row: a puzzle with several solutions, which the
        // rules' every kind narrows.
        let mut board = Board::empty_with(&rules);
        for row in 0..6 {
            for column in [row % 6, (row + 3) % 6] {
                let cell = row * 6 + column;
                board = board.place(cell, u8::try_from(grid[cell])?)?;
            }
        }
        let solutions = solution_set(&board);
        let grid_text: String = grid.iter().map(|d| char::from(b'0' + u8::try_from(*d).unwrap())).collect();
        assert!(solutions.contains(&grid_text), "seed {seed}: the grid keeps its rules");
        for turn in Turn::ALL {
            let turned = board.turned(turn);
            let expected: BTreeSet<String> = solutions.iter().map(|s| turned_text(s, 6, turn)).collect();
            assert_eq!(solution_set(&turned), expected, "seed {seed}, {turn:?}");
            assert_eq!(turned.as_str(), turned_text(board.as_str(), 6, turn), "seed {seed}, {turn:?}");
            let shape = if turn.swaps_axes() { Shape::new(3, 2) } else { Shape::new(2, 3) };
            assert_eq!(turned.shape(), shape, "{turn:?}");
            // There and back: the same rules, and the same board.
            assert_eq!(turned.rules().turned(turn.inverse()), rules, "seed {seed}, {turn:?}");
            assert_eq!(turned.turned(turn.inverse()), board, "seed {seed}, {turn:?}");
        }
    }
    Ok(())
}

#[test]
fn turns_compose_as_the_square_s_symmetries_do() {
    let side = 9;
    for cell in 0..side * side {
        let twice = |turn: Turn| turn.cell(side, turn.cell(side, cell));
        assert_eq!(twice(Turn::Clockwise), Turn::Half.cell(side, cell));
        assert_eq!(twice(Turn::Half), cell);
        for turn in [Turn::TopToBottom, Turn::LeftToRight, Turn::MainDiagonal, Turn::AntiDiagonal] {
            assert_eq!(twice(turn), cell, "{turn:?} undoes itself");
        }
        assert_eq!(Turn::MainDiagonal.cell(side, Turn::TopToBottom.cell(side, cell)), Turn::Clockwise.cell(side, cell));
    }
    // Each is a different map of the cells, and none leaves them all alone.
    let maps: BTreeSet<Vec<usize>> =
        Turn::ALL.iter().map(|&turn| (0..side * side).map(|cell| turn.cell(side, cell)).collect()).collect();
    assert_eq!(maps.len(), 7);
    assert!(!maps.contains(&(0..side * side).collect::<Vec<_>>()));
}

#[test]
fn regions_that_the_turns_keep_stay_as_they_are() -> Result<(), RulesError> {
    for rules in [
        Rules::new(Shape::NINE),
        Rules::new(Shape::NINE).with_windows(),
        Rules::new(Shape::NINE.with_diagonals()),
        Rules::new(Shape::NINE).with_anti_knight().with_non_consecutive(),
        Rules::new(Shape::latin(5)),
    ] {
        for turn in Turn::ALL {
            assert_eq!(rules.turned(turn), rules, "{rules:?} under {turn:?}");
        }
    }
    // Rectangular boxes swap their sides under a quarter turn, and not under a half one.
    let six = Rules::new(Shape::new(2, 3));
    assert_eq!(six.turned(Turn::Clockwise), Rules::new(Shape::new(3, 2)));
    assert_eq!(six.turned(Turn::Half), six);
    assert!(Rules::new(Shape::new(2, 3)).turned(Turn::MainDiagonal).is_classic());
    // A jigsaw's regions move: its region map is read turned.
    let jigsaw = Rules::jigsaw("AAAB ABBB CCCD CDDD")?;
    let turned = jigsaw.turned(Turn::LeftToRight);
    assert_eq!(turned, Rules::jigsaw("BAAA BBBA DCCC DDDC")?);
    assert!(turned.regions().any(|(kind, _)| kind == Region::Jigsaw));
    Ok(())
}

#[test]
fn turned_puzzles_go_to_f_puzzles_and_back_with_the_same_rules() -> Result<(), Box<dyn std::error::Error>> {
    let row: Vec<usize> = (9..18).collect();
    let rules = Rules::new(Shape::NINE)
        .with_cage(10, &[40, 41])?
        .with_thermometer(&[0, 10, 20])?
        .with_sandwich(10, &row)?
        .with_sum(15, &[6, 16, 26])?
        .with_arrow(&[30], &[31, 32])?
        .with_relation(50, Relation::Difference(1), 51)?;
    let board = Board::empty_with(&rules).place(80, 4)?;
    for turn in Turn::ALL {
        let turned = board.turned(turn);
        let back: Board = lazydoku::format::f_puzzles_json(&turned)?.parse()?;
        assert_eq!(back.rules(), turned.rules(), "{turn:?}");
        assert_eq!(back, turned, "{turn:?}");
    }
    // A row indexer read backwards is no indexer: refused, and said why.
    let indexer = Board::empty_with(&Rules::new(Shape::NINE).with_indexer(lazydoku::Indexer::Row, 0)?);
    let err = lazydoku::format::f_puzzles_json(&indexer.turned(Turn::Half)).unwrap_err();
    assert!(err.to_string().contains("f-puzzles has no mark"), "{err}");
    assert!(lazydoku::format::f_puzzles_json(&indexer.turned(Turn::LeftToRight)).is_ok());
    Ok(())
}

/// A puzzle of `rules`: the cells of their first solution for which
/// `keep` holds.
fn puzzle_of(rules: &Rules, keep: impl Fn(usize) -> bool) -> Result<Board, Box<dyn std::error::Error>> {
    let grid = Board::empty_with(rules).solve().ok_or("the rules have a solution")?;
    let mut board = Board::empty_with(rules);
    for cell in (0..rules.shape().cells()).filter(|&cell| keep(cell)) {
        board = board.place(cell, grid.get(cell).ok_or("a full grid")?)?;
    }
    Ok(board)
}

fn givens(board: &Board) -> Vec<u8> {
    let mut givens: Vec<u8> = board.as_str().bytes().filter(|&b| b != b'.').collect();
    givens.sort_unstable();
    givens
}

#[test]
fn transformed_variant_puzzles_move_their_rules_and_keep_their_count() -> Result<(), Box<dyn std::error::Error>> {
    // Killer: digits keep their values, the cages move with the cells.
    let killer = Rules::new(Shape::NINE).with_cages([(3, vec![0, 1]), (17, vec![79, 80]), (6, vec![40, 41, 49])])?;
    let board = puzzle_of(&killer, |cell| cell % 3 == 0)?;
    let count = board.count_solutions(usize::MAX);
    assert!(count >= 1);
    let mut moved = 0;
    for seed in 0..16 {
        let other = board.transformed(seed);
        assert_eq!(other, board.transformed(seed), "the same seed, the same board");
        assert_eq!(other.count_solutions(usize::MAX), count, "seed {seed}");
        assert_eq!(givens(&other), givens(&board), "seed {seed}: no digit relabelled");
        let sums: BTreeSet<usize> = other.rules().cages().map(|(sum, _)| sum).collect();
        assert_eq!(sums, BTreeSet::from([3, 6, 17]));
        moved += usize::from(other != board);
    }
    assert!(moved >= 12, "most seeds turn the board: {moved} of 16");
    // Windoku: turned and relabelled, the rules the same.
    let windoku = Rules::new(Shape::NINE).with_windows();
    let board = puzzle_of(&windoku, |cell| cell % 3 != 1)?;
    let count = board.count_solutions(usize::MAX);
    let mut relabelled = 0;
    for seed in 0..8 {
        let other = board.transformed(seed);
        assert_eq!(other.rules(), windoku);
        assert_eq!(other.count_solutions(usize::MAX), count);
        // Relabelled: no turn alone gives it.
        relabelled += usize::from(other != board && Turn::ALL.iter().all(|&turn| board.turned(turn) != other));
    }
    assert!(relabelled >= 6, "relabelled {relabelled} of 8");
    // Rectangular boxes keep their shape under `transformed`.
    let six = Rules::new(Shape::new(2, 3)).with_thermometer(&[0, 1, 2, 3])?;
    let board = puzzle_of(&six, |cell| cell % 2 == 0)?;
    let count = board.count_solutions(usize::MAX);
    for seed in 0..16 {
        let other = board.transformed(seed);
        assert_eq!(other.shape(), Shape::new(2, 3));
        assert_eq!(other.count_solutions(usize::MAX), count);
    }
    Ok(())
}

/// The eight ways to lay a square onto itself, by row and column: the
/// reference for the turns `Board::canonical` searches on rules other than
/// the classic ones.
fn dihedral(side: usize) -> Vec<Vec<usize>> {
    let last = side - 1;
    let maps: [&dyn Fn(usize, usize) -> (usize, usize); 8] = [
        &|r, c| (r, c),
        &|r, c| (c, last - r),
        &|r, c| (last - r, last - c),
        &|r, c| (last - c, r),
        &|r, c| (last - r, c),
        &|r, c| (r, last - c),
        &|r, c| (c, r),
        &|r, c| (last - c, last - r),
    ];
    maps.iter()
        .map(|map| {
            (0..side * side)
                .map(|cell| {
                    let (r, c) = map(cell / side, cell % side);
                    r * side + c
                })
                .collect()
        })
        .collect()
}

/// The smallest text of `board` and how many turns give it, by brute
/// force: every one of the eight turns that lays the rules onto themselves,
/// and with `relabel` every relabelling of the digits.
fn smallest_by_brute_force(board: &Board, relabel: bool) -> (String, u128) {
    use itertools::Itertools;
    let side = board.shape().side();
    let rules = board.rules();
    let labels: Vec<Vec<u8>> =
        if relabel { (1..=u8::try_from(side).unwrap()).permutations(side).collect() } else { vec![(1..=6).collect()] };
    let mut forms: Vec<String> = Vec::new();
    for map in dihedral(side) {
        // The rules read through the map: the turn that moves cell `c` to `map[c]`.
        let Some(turn) = std::iter::once(None)
            .chain(Turn::ALL.into_iter().map(Some))
            .find(|turn| (0..side * side).all(|c| turn.map_or(c, |t| t.cell(side, c)) == map[c]))
        else {
            panic!("each map is a turn");
        };
        if turn.is_some_and(|turn| rules.turned(turn) != rules) {
            continue;
        }
        let mut moved = vec![0u8; side * side];
        for (cell, digit) in board.cells().enumerate() {
            moved[map[cell]] = digit.unwrap_or(0);
        }
        let form = labels
            .iter()
            .map(|labels| {
                moved
                    .iter()
                    .map(|&d| if d == 0 { '.' } else { char::from(b'0' + labels[usize::from(d) - 1]) })
                    .collect::<String>()
            })
            .min()
            .unwrap();
        forms.push(form);
    }
    let smallest = forms.iter().min().unwrap().clone();
    let count = forms.iter().filter(|form| **form == smallest).count();
    (smallest, u128::try_from(count).unwrap())
}

#[test]
fn canonical_forms_of_rules_beyond_the_classic_agree_with_brute_force() -> Result<(), Box<dyn std::error::Error>> {
    let four = Shape::new(2, 2);
    // Rules, whether digits are labels to them, and how many of the eight
    // turns lay them onto themselves.
    let cases = [
        (Rules::new(four.with_diagonals()), true, 8),
        (Rules::new(Shape::new(2, 3)).with_anti_king(), true, 4),
        (Rules::jigsaw("aaab cabb ccdb cddd")?, true, 4),
        (Rules::new(four).with_cages([(3, vec![0, 1]), (3, vec![14, 15])])?, false, 2),
        (Rules::new(four).with_relation(5, Relation::Less, 6)?.with_relation(10, Relation::Less, 9)?, false, 2),
        (Rules::new(Shape::new(2, 3)).with_even(&[0, 5, 30, 35])?, false, 4),
        (Rules::new(Shape::new(2, 3)).with_non_consecutive(), false, 4),
        (Rules::new(Shape::new(3, 2)).with_region(&[0, 7, 14, 21, 28, 35])?, true, 2),
    ];
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for (rules, relabel, turns) in cases {
        let empty = Board::empty_with(&rules);
        assert_eq!(empty.automorphisms(), Some(turns), "{rules:?}");
        let grid = empty.solve().ok_or_else(|| format!("{rules:?} have a grid"))?;
        for keep_one_in in [1, 2, 3, 5, 8, 40] {
            for _ in 0..6 {
                let mut board = Board::empty_with(&rules);
                for (cell, digit) in grid.cells().enumerate() {
                    if next() % keep_one_in == 0 {
                        board = board.place(cell, digit.ok_or("a full grid")?)?;
                    }
                }
                let (text, count) = smallest_by_brute_force(&board, relabel);
                let form = board.canonical().ok_or("every rules have a form")?;
                assert_eq!(form.as_str(), text, "{rules:?} {board}");
                assert_eq!(form.rules(), rules);
                assert_eq!(board.automorphisms(), Some(count), "{rules:?} {board}");
                assert_eq!(form.canonical().as_ref(), Some(&form));
            }
        }
    }
    Ok(())
}

#[test]
fn equivalent_windoku_puzzles_have_one_canonical_form_and_killers_their_own() -> Result<(), Box<dyn std::error::Error>>
{
    let windoku = Rules::new(Shape::NINE).with_windows();
    let puzzle = puzzle_of(&windoku, |cell| cell % 4 == 0 || cell % 7 == 0)?;
    let form = puzzle.canonical().ok_or("windoku has a form")?;
    assert_eq!(form.count_solutions(usize::MAX), puzzle.count_solutions(usize::MAX));
    assert_eq!(givens(&form).len(), givens(&puzzle).len());
    for seed in 0..8 {
        // Turned and relabelled.
        assert_eq!(puzzle.transformed(seed).canonical().as_ref(), Some(&form), "seed {seed}");
    }
    for turn in Turn::ALL {
        assert_eq!(puzzle.turned(turn).canonical().as_ref(), Some(&form), "{turn:?}");
    }
    // Another puzzle of the same rules is not equivalent.
    let other = puzzle_of(&windoku, |cell| cell % 5 == 0)?;
    assert_ne!(other.canonical(), Some(form));
    // A killer's cages lie on themselves under no turn, and its digits mean
    // sums: the puzzle is its own form.
    let killer = Rules::new(Shape::NINE).with_cages([(3, vec![0, 1]), (17, vec![79, 80]), (6, vec![40, 41, 49])])?;
    let board = puzzle_of(&killer, |cell| cell % 3 == 0)?;
    assert_eq!(board.canonical().as_ref(), Some(&board));
    assert_eq!(board.automorphisms(), Some(1));
    Ok(())
}

#[test]
fn invariant_turns_belong_to_each_set_of_rules() -> Result<(), RulesError> {
    let windoku = Rules::new(Shape::NINE).with_windows();
    assert_eq!(windoku.invariant_turns().collect::<Vec<_>>(), Turn::ALL);
    // Rules built on them after they were asked find their own: a cage of
    // two cells side by side is kept by no turn, one of the two top corners
    // by the turn over left to right.
    let caged = windoku.clone().with_cage(3, &[0, 1])?;
    assert_eq!(caged.invariant_turns().count(), 0);
    let mirrored = windoku.clone().with_cage(10, &[0, 8])?;
    assert_eq!(mirrored.invariant_turns().collect::<Vec<_>>(), [Turn::LeftToRight]);
    // The corner is even: only the turn over the main diagonal keeps it.
    let even = windoku.with_even(&[0])?;
    assert_eq!(even.invariant_turns().collect::<Vec<_>>(), [Turn::MainDiagonal]);
    // Rectangular boxes: the turns that keep rows as rows.
    let six = Rules::new(Shape::new(2, 3));
    assert!(six.invariant_turns().all(|turn| !turn.swaps_axes()));
    assert_eq!(six.invariant_turns().count(), 3);
    Ok(())
}

#[test]
fn canonical_forms_with_rules_are_one_for_every_turn_of_a_puzzle() -> Result<(), Box<dyn std::error::Error>> {
    // Rules of every kind read off random 6x6 grids: no turn keeps them,
    // so only the form with rules makes the turned puzzles one.
    for seed in 1..=6u64 {
        let grid = digits(&shuffled_grid(2, 3, seed));
        let rules = rules_kept_by(&grid)?;
        let board = puzzle_of(&rules, |cell| cell % 5 == 0)?;
        let form = board.canonical_with_rules().ok_or("every rules have a form")?;
        assert_eq!(form.canonical_with_rules().as_ref(), Some(&form), "seed {seed}");
        assert_eq!(form.count_solutions(usize::MAX), board.count_solutions(usize::MAX), "seed {seed}");
        // The form is a turn of the puzzle (digits mean something here).
        assert!(
            std::iter::once(board.clone()).chain(Turn::ALL.iter().map(|&turn| board.turned(turn))).any(|t| t == form),
            "seed {seed}"
        );
        for turn in Turn::ALL.into_iter().filter(|turn| !turn.swaps_axes()) {
            let turned = board.turned(turn);
            assert_ne!(turned.canonical(), board.canonical(), "seed {seed} {turn:?}");
            assert_eq!(turned.canonical_with_rules().as_ref(), Some(&form), "seed {seed} {turn:?}");
        }
        // Another puzzle of the same rules has another form.
        let other = puzzle_of(&rules, |cell| cell % 5 == 1)?;
        assert_ne!(other.canonical_with_rules().as_ref(), Some(&form), "seed {seed}");
    }
    // A jigsaw puzzle, turned and relabelled by `transformed`, has one form.
    let jigsaw = Rules::jigsaw("aaabb aabbb cccdd ccedd eeeed")?;
    let board = puzzle_of(&jigsaw, |cell| cell % 3 == 0)?;
    let form = board.canonical_with_rules().ok_or("every rules have a form")?;
    for seed in 0..12 {
        assert_eq!(board.transformed(seed).canonical_with_rules().as_ref(), Some(&form), "seed {seed}");
    }
    // Classic rules: the form of `canonical`.
    let classic: Board = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..".parse()?;
    assert_eq!(classic.canonical_with_rules(), classic.canonical());
    Ok(())
}

#[test]
fn equivalents_keeping_the_rules_keep_them() -> Result<(), Box<dyn std::error::Error>> {
    // Windoku: every turn keeps the rules, and digits are relabelled.
    let windoku = Rules::new(Shape::NINE).with_windows();
    let board = puzzle_of(&windoku, |cell| cell % 4 == 0)?;
    let mut moved = 0;
    for seed in 0..8 {
        let other = board.transformed_keeping_rules(seed);
        assert_eq!(other.rules(), windoku);
        assert_eq!(other.canonical(), board.canonical(), "seed {seed}");
        moved += usize::from(other != board);
    }
    assert!(moved >= 6, "{moved} of 8 moved");
    // A jigsaw whose map no turn keeps: relabelled only.
    let jigsaw = Rules::jigsaw("aaabb aabbb cccdd ccedd eeeed")?;
    let board = puzzle_of(&jigsaw, |cell| cell % 3 == 0)?;
    for seed in 0..8 {
        let other = board.transformed_keeping_rules(seed);
        assert_eq!(other.rules(), jigsaw);
        let given = |b: &Board| b.cells().map(|c| c.is_some()).collect::<Vec<bool>>();
        assert_eq!(given(&other), given(&board), "seed {seed}: the same cells");
        assert_eq!(other.canonical(), board.canonical(), "seed {seed}");
    }
    // A killer whose cages no turn keeps comes back as it is.
    let killer = Rules::new(Shape::NINE).with_cages([(3, vec![0, 1]), (17, vec![79, 80]), (6, vec![40, 41, 49])])?;
    let board = puzzle_of(&killer, |cell| cell % 3 == 0)?;
    assert!((0..8).all(|seed| board.transformed_keeping_rules(seed) == board));
    Ok(())
}

#[test]
fn equal_rules_built_in_another_order_hash_alike() -> Result<(), RulesError> {
    use std::collections::HashSet;
    let one = Rules::new(Shape::NINE).with_cages([(3, vec![0, 1]), (3, vec![80, 79])])?.with_windows();
    let other = Rules::new(Shape::NINE).with_windows().with_cage(3, &[79, 80])?.with_cage(3, &[1, 0])?;
    assert_eq!(one, other);
    let set: HashSet<Rules> = [one.clone(), other, one.turned(Turn::Half)].into_iter().collect();
    assert_eq!(set.len(), 1, "a half turn keeps these cages too");
    let set: HashSet<Rules> = [one.clone(), one.turned(Turn::Clockwise)].into_iter().collect();
    assert_eq!(set.len(), 2);
    Ok(())
}
