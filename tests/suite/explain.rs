//! Logical steps, ratings and canonical forms: every step is checked
//! against the solution on every public dataset, and every canonical form
//! against random equivalents.

use std::collections::HashSet;

use crate::common::load;
use lazydoku::explain::{Ending, Level, MOST_GUESSES, Technique};
use lazydoku::generate::Generator;
use lazydoku::{Board, Relation, Rules, Shape, Turn};

/// Follows the steps of each puzzle of `name` (every `every`-th one),
/// checking each placement and elimination against the solution; returns
/// how many logic solved, and the techniques used.
fn steps_agree_with_solutions(name: &str, every: usize) -> (usize, HashSet<Technique>) {
    let mut solved = 0;
    let mut used = HashSet::new();
    for (i, line) in load(name).iter().enumerate().step_by(every) {
        let board: Board = line.parse().unwrap_or_else(|e| panic!("{name} #{i}: {e}"));
        let solution = board.solve().unwrap_or_else(|| panic!("{name} #{i}: no solution"));
        let mut steps = board.explain();
        let mut placed = 0;
        for step in steps.by_ref() {
            used.insert(step.technique());
            assert!(step.placements().all(|(c, d)| solution.get(c) == Some(d)), "{name} #{i}: {step}");
            assert!(step.eliminations().all(|(c, d)| solution.get(c) != Some(d)), "{name} #{i}: {step}");
            assert!(step.placements().len() + step.eliminations().len() > 0, "{name} #{i}: {step} changes nothing");
            placed += step.placements().len();
        }
        match steps.ending() {
            Some(Ending::Solved) => {
                solved += 1;
                assert_eq!(placed, board.empty_cells(), "{name} #{i}");
            }
            Some(Ending::Stuck { empty }) => assert_eq!(empty, board.empty_cells() - placed, "{name} #{i}"),
            other => panic!("{name} #{i}: ended with {other:?}"),
        }
    }
    (solved, used)
}

#[test]
fn steps_agree_with_the_solution_on_norvig_top95_and_hardest() {
    let (solved, used) = steps_agree_with_solutions("norvig_top95.txt", 1);
    // The sudoku crate's StrategySolver solves 34% of these by logic alone.
    assert!(solved * 100 >= 95 * 34, "{solved} of 95 solved by logic");
    for technique in [Technique::XWing, Technique::XyWing, Technique::WWing, Technique::XChain] {
        assert!(used.contains(&technique), "{technique} never used");
    }
    steps_agree_with_solutions("norvig_hardest.txt", 1);
}

#[test]
fn steps_agree_with_the_solution_on_samples_of_the_large_public_sets() {
    for (name, every) in [
        ("puzzles2_17_clue", 500),
        ("puzzles3_magictour_top1465", 15),
        ("puzzles5_forum_hardest_1905_11+", 500),
        ("puzzles6_forum_hardest_1106", 4),
    ] {
        steps_agree_with_solutions(name, every);
    }
}

#[test]
#[ignore = "release mode: run by .ci/run"]
fn steps_agree_with_the_solution_on_every_public_9x9_puzzle() {
    let sets = [
        ("puzzles2_17_clue", 88),
        ("puzzles3_magictour_top1465", 21),
        ("puzzles5_forum_hardest_1905_11+", 0),
        ("puzzles6_forum_hardest_1106", 0),
    ];
    for (name, strategy_solver_percent) in sets {
        let total = load(name).len();
        let (solved, _) = steps_agree_with_solutions(name, 1);
        println!("{name}: {solved} of {total} solved by logic alone");
        assert!(solved * 100 >= total * strategy_solver_percent, "{name}: {solved} of {total}");
    }
}

/// The serg set's puzzles have several solutions: steps that rest on a
/// unique solution must not be used there, and every placement must agree
/// with some solution.
#[test]
fn puzzles_with_several_solutions_get_no_uniqueness_steps() {
    for line in load("puzzles7_serg_benchmark").iter().step_by(200) {
        let board: Board = line.parse().unwrap();
        assert_eq!(board.count_solutions(2), 2);
        let mut current = board.clone();
        for step in board.explain() {
            assert!(!matches!(step.technique(), Technique::UniqueRectangle | Technique::BugPlusOne), "{step}");
            for (cell, digit) in step.placements() {
                current = current.place(cell, digit).unwrap();
            }
            assert!(current.solve().is_some(), "{step} leaves no solution");
        }
    }
}

#[test]
fn steps_work_over_the_regions_of_jigsaw_windoku_x_and_killer_rules() {
    // A jigsaw map: boxes trade cells that hold the same digit in the grid
    // whose row r is 1..9 turned left by 3r + r/3, so that grid solves it.
    let mut map = b"111222333111222333111222333444555666444555666444555666777888999777888999777888999".to_vec();
    map.swap(2, 23);
    map.swap(40, 66);
    let jigsaw = Rules::jigsaw(std::str::from_utf8(&map).unwrap()).unwrap();
    let all = [
        Rules::new(Shape::NINE).with_windows(),
        Rules::new(Shape::NINE).with_diagonals(),
        Rules::new(Shape::new(2, 3)),
        Rules::new(Shape::new(4, 4)),
        jigsaw,
        Rules::new(Shape::new(2, 2)).with_cage(3, &[0, 1]).unwrap().with_cage(7, &[14, 15]).unwrap(),
        Rules::new(Shape::NINE).with_anti_knight().with_anti_king(),
        Rules::new(Shape::new(2, 3)).with_non_consecutive(),
        Rules::new(Shape::NINE).with_non_consecutive(),
    ];
    for rules in all {
        let puzzles: Vec<Board> =
            Generator::new(rules.clone()).seed(5).clues(rules.shape().cells() / 2).puzzles().take(3).collect();
        assert_eq!(puzzles.len(), 3);
        for puzzle in puzzles {
            let solution = puzzle.solve().unwrap();
            let mut steps = puzzle.explain();
            for step in steps.by_ref() {
                assert!(step.placements().all(|(c, d)| solution.get(c) == Some(d)), "{step}");
                assert!(step.eliminations().all(|(c, d)| solution.get(c) != Some(d)), "{step}");
            }
            assert!(steps.ending().is_some());
            if steps.ending() == Some(Ending::Solved) {
                assert_eq!(steps.board(), solution);
            }
        }
    }
}

#[test]
fn the_non_consecutive_rule_takes_candidates_as_peers_do() {
    // The miracle sudoku: with the rule's candidates gone from the start,
    // hidden singles and pointing go on where, without them, the steps
    // ended stuck after two.
    let rules = Rules::new(Shape::NINE).with_anti_knight().with_anti_king().with_non_consecutive();
    let mut puzzle = ".".repeat(81);
    puzzle.replace_range(38..39, "1");
    puzzle.replace_range(51..52, "2");
    let puzzle = rules.parse(&puzzle).unwrap();
    let solution = puzzle.solve().unwrap();
    let mut steps = puzzle.explain();
    let mut count = 0;
    for step in steps.by_ref() {
        assert!(step.placements().all(|(c, d)| solution.get(c) == Some(d)), "{step}");
        assert!(step.eliminations().all(|(c, d)| solution.get(c) != Some(d)), "{step}");
        count += 1;
    }
    assert!(count > 10, "{count} steps, ending {:?}", steps.ending());
}

#[test]
fn a_cell_beside_another_loses_the_digit_that_all_of_its_candidates_are_or_touch() {
    // Non-consecutive puzzles of 6x6 and 9x9 with some givens: the steps
    // that use the technique take out only digits the solution lacks, and
    // each of them rules out a digit that every candidate of its cell
    // equals or is next to, in a cell beside it.
    let mut found = 0;
    for (shape, clues) in [(Shape::new(2, 3), 0), (Shape::NINE, 20), (Shape::NINE, 14)] {
        let rules = Rules::new(shape).with_non_consecutive();
        for puzzle in Generator::new(rules.clone()).seed(7).clues(clues).puzzles().take(12) {
            let solution = puzzle.solve().unwrap();
            for step in puzzle.explain() {
                assert!(step.placements().all(|(c, d)| solution.get(c) == Some(d)), "{step}");
                assert!(step.eliminations().all(|(c, d)| solution.get(c) != Some(d)), "{step}");
                if step.technique() != Technique::NonConsecutive {
                    continue;
                }
                found += 1;
                let side = shape.side();
                let cell = step.cells()[0];
                let (digits, places) = (step.digits(), step.placements().count());
                assert!(digits.len() >= 2 && places == 0, "{step}");
                for (other, digit) in step.eliminations() {
                    assert_eq!(
                        (cell / side).abs_diff(other / side) + (cell % side).abs_diff(other % side),
                        1,
                        "{step}"
                    );
                    assert!(digits.iter().all(|&d| d.abs_diff(digit) <= 1), "{step}");
                }
                assert!(step.sentence().starts_with("Non-consecutive neighbours: "), "{step}");
            }
        }
    }
    assert!(found >= 20, "the technique was used {found} times");
}

#[test]
fn a_killer_cage_keeps_only_the_digits_of_its_sums() {
    // A cage of two cells summing to 3 on 4x4 holds 1 and 2: its cells lose 3 and 4.
    let rules = Rules::new(Shape::new(2, 2)).with_cage(3, &[0, 1]).unwrap();
    let step = rules.parse(&".".repeat(16)).unwrap().hint().unwrap();
    assert_eq!(step.technique(), Technique::CageCombination);
    assert_eq!(step.eliminations().collect::<Vec<_>>(), [(0, 3), (0, 4), (1, 3), (1, 4)]);
    // Cells that keep, or lose, the same digits are named together.
    assert_eq!(
        step.to_string(),
        "Cage combination: the cage of r1c1 and r1c2 summing to 3 can only hold 1 and 2 in r1c1 and r1c2, \
         so 3 and 4 come out of r1c1 and r1c2."
    );
    // With a given in the cage: one digit comes out, of its empty cells.
    let rules = Rules::new(Shape::new(2, 2)).with_cage(6, &[0, 1, 2]).unwrap();
    let step = rules.parse("..1.............").unwrap().hint().unwrap();
    assert_eq!(
        step.to_string(),
        "Cage combination: the cage of r1c1, r1c2 and r1c3 summing to 6 can only hold 2 and 3 in r1c1 and r1c2, \
         so 4 comes out of r1c1 and r1c2."
    );
}

#[test]
fn innies_and_outies_explain_the_sums_that_cages_imply() -> Result<(), Box<dyn std::error::Error>> {
    // Row 1's cages cover all of it but r1c9 and add up to 38: r1c9 is the
    // 7 that takes the row to 45.
    let rules = Rules::new(Shape::NINE).with_cage(3, &[0, 1])?.with_cage(15, &[2, 3, 4])?.with_cage(20, &[5, 6, 7])?;
    let mut steps = rules.parse(&".".repeat(81))?.explain();
    let step = steps.find(|step| step.technique() == Technique::InniesAndOuties).ok_or("no innies step")?;
    assert_eq!(step.cells(), [8]);
    assert!(step.to_string().contains("add up to 7"), "{step}");
    assert_eq!(steps.candidates(8).single(), Some(7));

    Ok(())
}

#[test]
fn killer_puzzles_are_solved_by_logic_with_innies_and_outies() -> Result<(), Box<dyn std::error::Error>> {
    // `data/killer9.txt`: each line holds the givens, the cage map and the sums.
    let (mut solved, mut innies, mut outies) = (0, 0, 0);
    let text = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/killer9.txt"))?;
    let puzzles: Vec<&str> = text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).collect();
    assert_eq!(puzzles.len(), 100);
    for line in &puzzles {
        let (givens, cages) = line.split_once(' ').ok_or("givens, then cages")?;
        let board = Rules::new(Shape::NINE).with_cage_map(cages)?.parse(givens)?;
        let solution = board.solve().ok_or("a solution")?;
        let mut steps = board.explain();
        for step in steps.by_ref() {
            assert!(step.placements().all(|(c, d)| solution.get(c) == Some(d)), "{line}: {step}");
            assert!(step.eliminations().all(|(c, d)| solution.get(c) != Some(d)), "{line}: {step}");
            if step.technique() == Technique::InniesAndOuties {
                if step.to_string().contains("cages covering") {
                    outies += 1;
                } else {
                    innies += 1;
                }
            }
        }
        solved += usize::from(steps.ending() == Some(Ending::Solved));
    }
    // Without innies and outies, 80 of the 100 were solved by logic; with
    // them, 98.
    assert!(solved >= 95, "{solved} of {} solved by logic", puzzles.len());
    assert!(innies > 0 && outies > 0, "{innies} innies steps, {outies} outies steps");
    Ok(())
}

#[test]
fn a_contradiction_ends_the_steps_and_says_so() {
    // r1c3 can be neither 1 or 2 (its row) nor 3 or 4 (its column).
    let board: Board = "12....3...4.....".parse().unwrap();
    let mut steps = board.explain();
    assert_eq!(steps.next(), None);
    assert_eq!(steps.ending(), Some(Ending::Contradiction));
    assert_eq!(board.hint(), None);
    assert_eq!(board.rate().level(), Level::Beyond);
}

#[test]
fn explain_is_lazy_fused_and_its_size_hint_holds() {
    let board: Board =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..".parse().unwrap();
    let mut steps = board.explain();
    let (low, high) = steps.size_hint();
    let count = board.explain().count();
    assert!(low <= count && high.is_none_or(|h| count <= h));
    assert_eq!(steps.by_ref().count(), count);
    assert_eq!(steps.next(), None);
    assert_eq!(steps.size_hint(), (0, Some(0)));
    assert_eq!(steps.board(), board.solve().unwrap());
}

/// Singles write their sentence only when asked: the text is the same
/// through `sentence()` and `Display`, before and after it is kept, and a
/// step asked for its text equals and hashes as its clone that was not.
#[test]
fn sentences_written_when_asked_are_the_same_every_way() {
    use std::hash::BuildHasher;
    let board: Board =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......".parse().unwrap();
    let hasher = std::collections::hash_map::RandomState::new();
    let mut techniques = HashSet::new();
    for step in board.explain() {
        let untouched = step.clone();
        let displayed = step.to_string();
        assert_eq!(step.sentence(), displayed);
        assert_eq!(step.to_string(), displayed, "written once kept");
        assert!(displayed.starts_with(&format!("{}: ", step.technique())), "{displayed}");
        assert_eq!(step, untouched);
        assert_eq!(hasher.hash_one(&step), hasher.hash_one(&untouched));
        assert_eq!(untouched.sentence(), displayed);
        assert!(format!("{untouched:?}").contains(&format!("sentence: {displayed:?}")), "{untouched:?}");
        techniques.insert(step.technique());
    }
    assert!(
        [Technique::FullHouse, Technique::NakedSingle, Technique::HiddenSingle].iter().all(|t| techniques.contains(t)),
        "{techniques:?}"
    );
    assert!(techniques.len() > 3, "steps besides singles: {techniques:?}");
}

#[test]
fn ratings_order_puzzles_by_difficulty() {
    let easy: Board =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..".parse().unwrap();
    let hardest: Board = load("puzzles6_forum_hardest_1106")[0].parse().unwrap();
    let (easy, hardest) = (easy.rate(), hardest.rate());
    assert_eq!((easy.level(), easy.guesses(), easy.solutions()), (Level::Easy, 0, 1));
    assert!(easy.is_solved_by_logic());
    assert_eq!(hardest.level(), Level::Beyond);
    assert!(hardest.guesses() > 0);
    assert!(hardest.score() > 0);
    assert_eq!("Expert".parse::<Level>(), Ok(Level::Expert));
    assert!("impossible".parse::<Level>().is_err());
    // The serg puzzles have two solutions or more.
    let several: Board = load("puzzles7_serg_benchmark")[0].parse().unwrap();
    assert_eq!(several.rate().solutions(), 2);
}

#[test]
fn a_level_is_that_of_the_hardest_step_taken() {
    // Generated puzzles of every level, simple colouring and XY-wings among
    // them: scores do not rank techniques in the order of their levels.
    let mut seen = HashSet::new();
    for puzzle in Generator::new(Rules::new(Shape::NINE)).seed(3).puzzles().take(300) {
        let rating = puzzle.rate();
        let mut steps = puzzle.explain();
        let highest = steps.by_ref().map(|step| step.technique().level()).max().unwrap_or(Level::Easy);
        let level = if steps.ending() == Some(Ending::Solved) { highest } else { Level::Beyond };
        assert_eq!(rating.level(), level, "{puzzle}");
        assert_eq!(rating.hardest().map(Technique::level), rating.hardest().map(|_| highest), "{puzzle}");
        seen.insert(level);
    }
    assert_eq!(seen.len(), Level::ALL.len(), "every level met: {seen:?}");
}

#[test]
fn canonical_forms_agree_on_random_equivalents_over_public_sets() {
    for (name, every) in [("norvig_top95.txt", 1), ("puzzles2_17_clue", 1000), ("puzzles6_forum_hardest_1106", 10)] {
        for line in load(name).iter().step_by(every) {
            let board: Board = line.parse().unwrap();
            let canonical = board.canonical().unwrap();
            assert_eq!(canonical.canonical().as_ref(), Some(&canonical), "{line}");
            assert_eq!(canonical.empty_cells(), board.empty_cells());
            assert!(canonical.as_str() <= board.as_str() || canonical.as_str().starts_with('.'));
            for seed in 0..4 {
                let other = board.transformed(seed);
                assert_eq!(other.canonical().as_ref(), Some(&canonical), "{line} seed {seed}");
                assert_eq!(other.count_solutions(2), board.count_solutions(2));
            }
        }
    }
}

#[test]
fn canonical_forms_find_the_one_pair_of_equivalent_puzzles_in_norvig_top95() {
    let puzzles = load("norvig_top95.txt");
    let forms: HashSet<Board> = puzzles.iter().map(|l| l.parse::<Board>().unwrap().canonical().unwrap()).collect();
    assert_eq!(forms.len(), puzzles.len() - 1);
    // The second is the first with its bottom band moved to the top.
    let first: Board =
        ".2..........6....3.74.8.........3..2.8..4..1.6..5.........1.78.5....9..........4.".parse().unwrap();
    let second: Board =
        "....1.78.5....9..........4..2..........6....3.74.8.........3..2.8..4..1.6..5.....".parse().unwrap();
    assert!(puzzles.contains(&first.as_str().to_owned()) && puzzles.contains(&second.as_str().to_owned()));
    assert_eq!(first.canonical(), second.canonical());
}

#[test]
fn automorphisms_count_the_symmetries_that_fix_a_board() {
    assert_eq!(Board::empty(Shape::new(2, 2)).automorphisms(), Some(128));
    assert_eq!(Board::empty(Shape::new(2, 3)).automorphisms(), Some(3 * 2 * 2 * 2 * 2 * 2 * 3 * 2 * 3 * 2));
    let puzzle: Board = load("norvig_top95.txt")[0].parse().unwrap();
    assert_eq!(puzzle.automorphisms(), Some(1));
}

#[test]
fn boards_without_the_classic_group_are_turned_and_relabelled() {
    let windoku = Rules::new(Shape::NINE).with_windows();
    let puzzle = Generator::new(windoku).seed(1).puzzles().next().unwrap();
    // Their canonical forms search the turns alone (tests/suite/turns.rs).
    assert_eq!(puzzle.transformed(9).canonical(), puzzle.canonical());
    let relabelled = puzzle.transformed(9);
    // The cells of the puzzle or of a turn of it are given, with the digits
    // relabelled.
    let given = |board: &Board| board.cells().map(|cell| cell.is_some()).collect::<Vec<bool>>();
    assert!(
        std::iter::once(puzzle.clone()).chain(Turn::ALL.iter().map(|&turn| puzzle.turned(turn))).any(|turned| given(
            &turned
        )
            == given(&relabelled)
            && turned != relabelled)
    );
    assert_eq!(relabelled.count_solutions(2), 1);
    let killer = Rules::new(Shape::new(2, 2)).with_cage(3, &[0, 1]).unwrap();
    let board = killer.parse("1...............").unwrap();
    // Relabelling would change the cage's sum: the board is turned alone.
    let other = board.transformed(3);
    assert!(other == board || Turn::ALL.iter().any(|&turn| board.turned(turn) == other));
}

/// Every grid symmetry of a board of boxes `band` x `stack` (transposed too
/// when square), each with the relabelling by first appearance: the
/// smallest text and how many symmetries give it.
fn smallest_by_brute_force(board: &Board) -> (String, u128) {
    use itertools::Itertools;
    let shape = board.shape();
    let (side, band, stack) = (shape.side(), shape.box_rows(), shape.box_cols());
    let grouped = |group: usize| -> Vec<Vec<usize>> {
        let groups = side / group;
        let mut all = Vec::new();
        for order in (0..groups).permutations(groups) {
            let within: Vec<Vec<Vec<usize>>> = (0..groups).map(|_| (0..group).permutations(group).collect()).collect();
            for choice in within.iter().multi_cartesian_product() {
                all.push((0..side).map(|i| order[i / group] * group + choice[i / group][i % group]).collect());
            }
        }
        all
    };
    let (rows, columns) = (grouped(band), grouped(stack));
    let source: Vec<u8> = board.cells().map(|d| d.unwrap_or(0)).collect();
    let (mut best, mut count): (Option<Vec<u8>>, u128) = (None, 0);
    // A Latin square's rows and columns trade places as square boxes do.
    let orientations: &[bool] = if band == stack || !shape.has_boxes() { &[false, true] } else { &[false] };
    for &transpose in orientations {
        for r in &rows {
            for c in &columns {
                let mut labels = [0u8; 26];
                let mut next = 1;
                let out: Vec<u8> = (0..side * side)
                    .map(|cell| {
                        let (row, col) = (r[cell / side], c[cell % side]);
                        let d =
                            usize::from(if transpose { source[col * side + row] } else { source[row * side + col] });
                        if d == 0 {
                            return 0;
                        }
                        if labels[d] == 0 {
                            labels[d] = next;
                            next += 1;
                        }
                        labels[d]
                    })
                    .collect();
                match &best {
                    Some(b) if out > *b => {}
                    Some(b) if out == *b => count += 1,
                    _ => (best, count) = (Some(out), 1),
                }
            }
        }
    }
    let text = best.unwrap_or_default().iter().map(|&d| if d == 0 { '.' } else { char::from(b'0' + d) }).collect();
    (text, count)
}

#[test]
fn canonical_forms_and_automorphisms_of_6x6_boards_agree_with_brute_force() {
    let rules = Rules::new(Shape::new(2, 3));
    for puzzle in Generator::new(rules).seed(11).puzzles().take(6) {
        let solution = puzzle.solve().unwrap();
        for board in [puzzle, solution] {
            let (text, count) = smallest_by_brute_force(&board);
            assert_eq!(board.canonical().unwrap().as_str(), text, "{board}");
            assert_eq!(board.automorphisms(), Some(count), "{board}");
        }
    }
}

#[test]
fn canonical_forms_and_automorphisms_of_sparse_boards_and_latin_squares_agree_with_brute_force() {
    // A small xorshift: the boards only need to vary.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut below = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let shapes = [Shape::new(2, 2), Shape::new(2, 3), Shape::latin(4), Shape::latin(5)];
    for round in 0..48 {
        let shape = shapes[round % shapes.len()];
        let grid = Board::empty(shape).solve().unwrap().transformed(below(u64::MAX));
        // From nearly empty to nearly full, and boards that keep only the
        // smallest digits, whose symmetries are many without two rows alike.
        let keep = below(101);
        let smallest = u8::try_from(below(3)).unwrap() + 1;
        let cells: String = grid
            .cells()
            .map(|digit| {
                let digit = digit.unwrap();
                let kept = if round % 3 == 0 { digit <= smallest } else { below(100) < keep };
                if kept { char::from(b'0' + digit) } else { '.' }
            })
            .collect();
        let board = Rules::new(shape).parse(&cells).unwrap();
        let (text, count) = smallest_by_brute_force(&board);
        assert_eq!(board.canonical().unwrap().as_str(), text, "{board}");
        assert_eq!(board.automorphisms(), Some(count), "{board}");
    }
}

#[test]
fn canonical_forms_of_16x16_and_25x25_boards_are_the_same_for_every_equivalent() {
    // The whole group fixes the empty board: 2 transpositions, 24^5 orders
    // of rows and as many of columns on 16x16; 120^6 each on 25x25.
    assert_eq!(Board::empty(Shape::new(4, 4)).automorphisms(), Some(2 * 24u128.pow(10)));
    assert_eq!(Board::empty(Shape::new(5, 5)).automorphisms(), Some(2 * 120u128.pow(12)));
    assert_eq!(Board::empty(Shape::new(3, 4)).automorphisms(), Some(24u128.pow(4) * 6u128.pow(5)));
    for name in ["hard16.txt", "minimal16.txt", "hard25.txt"] {
        for line in load(name).iter().step_by(3) {
            let board: Board = line.split_whitespace().next().unwrap().parse().unwrap();
            let grid = board.solve().unwrap();
            // The grid's cells that hold its smallest digit: many symmetries,
            // no two rows alike.
            let one: Board =
                grid.as_str().chars().map(|c| if c == '1' { '1' } else { '.' }).collect::<String>().parse().unwrap();
            for board in [board, grid, one] {
                let canonical = board.canonical().unwrap();
                assert_eq!(canonical.canonical().as_ref(), Some(&canonical), "{board}");
                assert_eq!(canonical.automorphisms(), board.automorphisms(), "{board}");
                for seed in 0..2 {
                    assert_eq!(board.transformed(seed).canonical().as_ref(), Some(&canonical), "{board} seed {seed}");
                }
            }
        }
    }
}

#[test]
#[ignore = "release mode: run by .ci/run"]
fn canonical_forms_and_automorphisms_of_9x9_boards_agree_with_brute_force() {
    let easy: Board =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..".parse().unwrap();
    let symmetric: Board =
        "123456789456789123789123456234567891567891234891234567345678912678912345912345678".parse().unwrap();
    let corners: Board = format!("1{}2", ".".repeat(79)).parse().unwrap();
    let ones: Board =
        symmetric.as_str().chars().map(|c| if c == '1' { '1' } else { '.' }).collect::<String>().parse().unwrap();
    for (board, expected) in [(&easy, 1), (&easy.solve().unwrap(), 1), (&symmetric, 54), (&corners, 2304), (&ones, 72)]
    {
        let (text, count) = smallest_by_brute_force(board);
        assert_eq!(count, expected, "{board}");
        assert_eq!(board.canonical().unwrap().as_str(), text, "{board}");
        assert_eq!(board.automorphisms(), Some(count), "{board}");
    }
}

#[test]
fn a_related_cell_loses_the_candidates_that_nothing_across_the_relation_keeps() {
    // r1c1 must be smaller than r1c2, which holds 2: only 1 is left for it.
    let rules = Rules::new(Shape::new(2, 2)).with_relation(0, Relation::Less, 1).unwrap();
    let puzzle = rules.parse(".2.. .... .... ....").unwrap();
    let step = puzzle.explain().find(|s| s.technique() == Technique::Relation).expect("a relation step");
    assert_eq!(
        step.sentence(),
        "Related cells: r1c1 must be smaller than r1c2, which holds 2; so 3 and 4 out of r1c1."
    );
    assert_eq!(step.eliminations().collect::<Vec<_>>(), [(0, 3), (0, 4)]);
    // Generated thermometer and Kropki puzzles: every step keeps the
    // solution, each relation step takes out candidates of one of its two
    // cells that keep the relation with no digit the other may hold, and
    // most puzzles are solved by logic alone.
    let mut found = 0;
    for (shape, seed) in [(Shape::new(2, 3), 1), (Shape::NINE, 2), (Shape::NINE, 3)] {
        let side = shape.side();
        let mut rules =
            Rules::new(shape).with_thermometer(&(0..side).step_by(2).map(|r| r * side + 1).collect::<Vec<_>>());
        rules = rules.and_then(|r| {
            r.with_relations([(side + 3, Relation::Ratio(2), side + 4), (2 * side, Relation::Difference(1), 3 * side)])
        });
        let rules = rules.unwrap();
        let mut solved = 0;
        for puzzle in Generator::new(rules.clone()).seed(seed).puzzles().take(8) {
            let solution = puzzle.solve().unwrap();
            let mut steps = puzzle.explain();
            for step in steps.by_ref() {
                assert!(step.placements().all(|(c, d)| solution.get(c) == Some(d)), "{step}");
                assert!(step.eliminations().all(|(c, d)| solution.get(c) != Some(d)), "{step}");
                assert!(!matches!(step.technique(), Technique::UniqueRectangle | Technique::BugPlusOne), "{step}");
                if step.technique() == Technique::Relation {
                    found += 1;
                    let pair = step.cells();
                    assert_eq!(pair.len(), 2, "{step}");
                    assert!(step.eliminations().all(|(c, _)| c == pair[1]), "{step}");
                    assert!(
                        rules.relations().any(|(a, _, b)| [a, b] == [pair[0], pair[1]] || [b, a] == [pair[0], pair[1]])
                    );
                    assert!(step.sentence().starts_with("Related cells: "), "{step}");
                }
            }
            solved += usize::from(steps.ending() == Some(Ending::Solved));
        }
        assert!(solved >= 3, "{solved} of 8 solved by logic on {shape:?}");
    }
    assert!(found >= 10, "the technique was used {found} times");
}

/// The plain search behind the guesses grows exponentially on large puzzles
/// near the edge of uniqueness (one 25x25 puzzle ran past 5 minutes): the
/// count stops at its cap, and the solutions are still counted right, by
/// the counting engine.
#[test]
fn guesses_stop_at_their_cap_with_solutions_still_counted() {
    let edge = load("edge25.txt");
    for (i, solutions) in [(2, 2), (3, 1)] {
        let board: Board = edge[i].parse().unwrap();
        assert_eq!(lazydoku::explain::guesses(&board), (MOST_GUESSES, solutions), "edge25 #{i}");
    }
    let rating = edge[3].parse::<Board>().unwrap().rate();
    assert_eq!((rating.guesses(), rating.solutions()), (MOST_GUESSES, 1));
}
