//! Rules as data (jigsaw regions, windoku's windows, extra regions) against
//! a brute-force reference that knows nothing but the list of units.

use lazydoku::{Board, ParseError, Region, Rules, RulesError, Shape, Turn};
use proptest::prelude::*;

use crate::common;

/// A small xorshift generator: the tests' only randomness besides proptest's seeds.
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        usize::try_from(self.0 % n as u64).unwrap()
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// What each property test starts from: a random solved grid of 4x4 (2x2
/// boxes) or 6x6 (2x3 boxes), and a random source with the same seed.
struct SmallGrid {
    br: usize,
    bc: usize,
    side: usize,
    random: Random,
    grid: String,
}

fn small_grid(seed: u64, six: bool) -> SmallGrid {
    let (br, bc) = if six { (2, 3) } else { (2, 2) };
    SmallGrid { br, bc, side: br * bc, random: Random(seed), grid: common::shuffled_grid(br, bc, seed) }
}

fn rows_and_columns(side: usize) -> Vec<Vec<usize>> {
    let rows = (0..side).map(|r| (0..side).map(|c| r * side + c).collect());
    let columns = (0..side).map(|c| (0..side).map(|r| r * side + c).collect());
    rows.chain(columns).collect()
}

fn boxes(br: usize, bc: usize) -> Vec<Vec<usize>> {
    let side = br * bc;
    (0..side)
        .map(|b| {
            let (top, left) = ((b / br) * br, (b % br) * bc);
            (0..side).map(|i| (top + i / bc) * side + left + i % bc).collect()
        })
        .collect()
}

/// Regions that each hold every digit of `grid` once: for each digit, its
/// cells dealt at random to the regions. So `grid` solves the jigsaw.
fn regions_solved_by(grid: &str, side: usize, random: &mut Random) -> Vec<Vec<usize>> {
    let mut regions = vec![Vec::new(); side];
    for digit in grid.bytes().collect::<std::collections::BTreeSet<u8>>() {
        let mut cells: Vec<usize> = grid.bytes().enumerate().filter(|&(_, b)| b == digit).map(|(c, _)| c).collect();
        random.shuffle(&mut cells);
        for (region, cell) in regions.iter_mut().zip(cells) {
            region.push(cell);
        }
    }
    regions
}

/// The givens of `grid` where `keep` says so.
fn puzzle_from(grid: &str, keep: &[bool]) -> String {
    grid.chars().zip(keep.iter().cycle()).map(|(c, &k)| if k { c } else { '.' }).collect()
}

/// The library's count against the reference's, and every solution checked.
fn agrees(rules: &Rules, puzzle: &str, side: usize, units: &[Vec<usize>]) -> Result<(), TestCaseError> {
    let expected = common::brute_count_units(puzzle, side, units, 20);
    agrees_with(rules, puzzle, expected, |solution| common::solves_units(puzzle, solution, units))
}

/// The library's count against `expected`, a reference's count to 20, and
/// every solution checked by `solves`.
fn agrees_with(
    rules: &Rules,
    puzzle: &str,
    expected: usize,
    solves: impl Fn(&str) -> bool,
) -> Result<(), TestCaseError> {
    let board = match rules.parse(puzzle) {
        Ok(board) => board,
        // Givens that clash are refused, and have no solution.
        Err(e @ (ParseError::Repeated { .. } | ParseError::Consecutive { .. })) => {
            prop_assert_eq!(expected, 0, "{}: {}", puzzle, e);
            return Ok(());
        }
        Err(e) => return Err(TestCaseError::fail(format!("{puzzle}: {e}"))),
    };
    prop_assert_eq!(board.count_solutions(20), expected, "{}", puzzle);
    prop_assert_eq!(board.par_count_solutions(20), expected, "{} in parallel", puzzle);
    let solutions: Vec<Board> = board.solutions().take(20).collect();
    prop_assert_eq!(solutions.len(), expected);
    for solution in &solutions {
        prop_assert!(solves(solution.as_str()), "{} gave {}", puzzle, solution);
        prop_assert_eq!(solution.rules(), rules.clone());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn jigsaw_boards_agree_with_brute_force(
        seed in 1..u64::MAX,
        six in any::<bool>(),
        keep in prop::collection::vec(prop::bool::weighted(0.45), 36),
    ) {
        let SmallGrid { side, mut random, grid, .. } = small_grid(seed, six);
        let regions = regions_solved_by(&grid, side, &mut random);
        let mut labels = vec!['?'; side * side];
        for (i, region) in regions.iter().enumerate() {
            for &cell in region {
                labels[cell] = char::from(b'a' + u8::try_from(i).unwrap());
            }
        }
        let rules = Rules::jigsaw(&labels.iter().collect::<String>()).unwrap();
        let mut units = rows_and_columns(side);
        units.extend(regions);
        agrees(&rules, &puzzle_from(&grid, &keep), side, &units)?;
    }

    #[test]
    fn latin_squares_and_their_jigsaws_agree_with_brute_force(
        seed in 1..u64::MAX,
        side in 2..=5usize,
        jigsaw in any::<bool>(),
        keep in prop::collection::vec(prop::bool::weighted(0.4), 25),
    ) {
        // A Latin square: digit (r + c) mod side, rows, columns and digits shuffled.
        let mut random = Random(seed);
        let mut order: Vec<Vec<usize>> = (0..3).map(|_| (0..side).collect()).collect();
        for o in &mut order {
            random.shuffle(o);
        }
        let grid: String = (0..side * side)
            .map(|cell| {
                let (r, c) = (order[0][cell / side], order[1][cell % side]);
                char::from(b'1' + u8::try_from(order[2][(r + c) % side]).unwrap())
            })
            .collect();
        let mut units = rows_and_columns(side);
        let rules = if jigsaw {
            let regions = regions_solved_by(&grid, side, &mut random);
            let mut labels = vec!['?'; side * side];
            for (i, region) in regions.iter().enumerate() {
                for &cell in region {
                    labels[cell] = char::from(b'a' + u8::try_from(i).unwrap());
                }
            }
            units.extend(regions);
            Rules::new(Shape::latin(side)).with_regions(&labels.iter().collect::<String>()).unwrap()
        } else {
            Rules::new(Shape::latin(side))
        };
        prop_assert_eq!(rules.regions().count(), units.len());
        agrees(&rules, &puzzle_from(&grid, &keep), side, &units)?;
    }

    #[test]
    fn windoku_and_extra_regions_agree_with_brute_force(
        seed in 1..u64::MAX,
        six in any::<bool>(),
        keep in prop::collection::vec(prop::bool::weighted(0.5), 36),
    ) {
        let SmallGrid { br, bc, side, mut random, grid } = small_grid(seed, six);
        // An extra region the grid satisfies: one cell of each digit.
        let extra = regions_solved_by(&grid, side, &mut random).swap_remove(0);
        let rules = Rules::new(Shape::new(br, bc)).with_region(&extra).unwrap();
        let mut units = rows_and_columns(side);
        units.extend(boxes(br, bc));
        units.push(extra);
        agrees(&rules, &puzzle_from(&grid, &keep), side, &units)?;

        // Windoku: the grid need not satisfy the windows, so the puzzle's
        // count may be anything, 0 included.
        let windoku = Rules::new(Shape::new(br, bc)).with_windows();
        let mut units = rows_and_columns(side);
        units.extend(boxes(br, bc));
        // The window one cell in from the top left, the box's shape.
        units.push((0..side).map(|i| (1 + i / bc) * side + 1 + i % bc).collect());
        prop_assert_eq!(windoku.regions().count(), units.len());
        let sparse: Vec<bool> = keep.iter().map(|&k| k && random.below(3) == 0).collect();
        agrees(&windoku, &puzzle_from(&grid, &sparse), side, &units)?;
    }
}

/// Cages that `grid` satisfies: grown from random cells through random
/// neighbours with digits not yet in the cage, up to `largest` cells, each
/// with the sum of its digits in `grid`.
fn cages_of(grid: &str, side: usize, largest: usize, random: &mut Random) -> Vec<(usize, Vec<usize>)> {
    let digits: Vec<usize> = grid.bytes().map(|b| usize::from(b - b'0')).collect();
    let mut order: Vec<usize> = (0..side * side).collect();
    random.shuffle(&mut order);
    let mut taken = vec![false; side * side];
    let mut cages = Vec::new();
    for start in order {
        if taken[start] {
            continue;
        }
        taken[start] = true;
        let mut cells = vec![start];
        let cage_size = 1 + random.below(largest);
        while cells.len() < cage_size {
            let next = cells.iter().flat_map(|&c| {
                let (r, col) = (c / side, c % side);
                [
                    (r > 0).then(|| c - side),
                    (r + 1 < side).then(|| c + side),
                    (col > 0).then(|| c - 1),
                    (col + 1 < side).then(|| c + 1),
                ]
            });
            let free: Vec<usize> =
                next.flatten().filter(|&n| !taken[n] && cells.iter().all(|&c| digits[c] != digits[n])).collect();
            if free.is_empty() {
                break;
            }
            let n = free[random.below(free.len())];
            taken[n] = true;
            cells.push(n);
        }
        cages.push((cells.iter().map(|&c| digits[c]).sum(), cells));
    }
    cages
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn killer_boards_agree_with_brute_force(
        seed in 1..u64::MAX,
        six in any::<bool>(),
        keep in prop::collection::vec(prop::bool::weighted(0.2), 36),
    ) {
        let SmallGrid { br, bc, side, mut random, grid } = small_grid(seed, six);
        let cages = cages_of(&grid, side, 4, &mut random);
        let mut rules = Rules::new(Shape::new(br, bc));
        for (sum, cells) in &cages {
            rules = rules.with_cage(*sum, cells).unwrap();
        }
        prop_assert_eq!(rules.cages().collect::<Vec<_>>(), cages.clone());
        prop_assert_eq!(&Rules::new(Shape::new(br, bc)).with_cages(cages.clone()).unwrap(), &rules);
        let mut units = rows_and_columns(side);
        units.extend(boxes(br, bc));
        // On 4x4 the cages alone; on 6x6 a few givens too, to keep the reference quick.
        let puzzle = if six { puzzle_from(&grid, &keep) } else { ".".repeat(16) };
        let expected = common::brute_count_killer(&puzzle, side, &units, &cages, 20);
        prop_assert!(expected >= 1, "the grid itself solves it");
        let board = rules.parse(&puzzle).unwrap();
        prop_assert_eq!(board.count_solutions(20), expected, "{}", puzzle);
        prop_assert_eq!(board.par_count_solutions(20), expected, "{} in parallel", puzzle);
        for solution in board.solutions().take(20) {
            let text = solution.as_str().as_bytes();
            prop_assert!(common::solves_units(&puzzle, solution.as_str(), &units));
            for (sum, cells) in &cages {
                prop_assert_eq!(cells.iter().map(|&c| usize::from(text[c] - b'0')).sum::<usize>(), *sum);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// A child is propagated from its parent's settled state, looking only
    /// at the cages whose cells changed; a board read afresh with the same
    /// digits looks at every cage. The child knows at least as much: each
    /// of its cells is filled as the fresh board's is, or has no candidate
    /// the fresh board's lacks. (It may know more: near the leaves the
    /// fresh board skips subsets, which the parent looked for.) A change
    /// that no cage saw would leave candidates the fresh board removes.
    #[test]
    fn killer_children_propagate_as_far_as_boards_read_afresh(
        seed in 1..u64::MAX,
        six in any::<bool>(),
        keep in prop::collection::vec(prop::bool::weighted(0.1), 36),
    ) {
        let SmallGrid { br, bc, side, mut random, grid } = small_grid(seed, six);
        let rules = Rules::new(Shape::new(br, bc)).with_cages(cages_of(&grid, side, 4, &mut random)).unwrap();
        let Some(root) = rules.parse(&puzzle_from(&grid, &keep)).unwrap().propagated() else {
            return Err(TestCaseError::fail("the grid solves it"));
        };
        // The first few dozen boards of the search, each with its children.
        let mut stack = vec![root];
        for _ in 0..40 {
            let Some(parent) = stack.pop() else { break };
            let children = parent.children();
            let Some(cell) = children.cell() else { continue };
            for child in children {
                let mut text = parent.as_str().as_bytes().to_vec();
                text[cell] = b'0' + child.get(cell).unwrap();
                let afresh = rules.parse(std::str::from_utf8(&text).unwrap()).unwrap().propagated();
                let afresh = afresh.expect("the child knows at least as much, and has no contradiction");
                for at in 0..side * side {
                    if let Some(digit) = afresh.get(at) {
                        prop_assert_eq!(child.get(at), Some(digit), "cell {}", at);
                    } else {
                        let (mine, fresh) = (child.candidates(at), afresh.candidates(at));
                        prop_assert!(mine.iter().all(|d| fresh.contains(d)), "cell {}: {:?} against {:?}", at, mine, fresh);
                    }
                }
                stack.push(child);
            }
        }
    }
}

/// Sums the cages imply through the units (innies and outies) take part in
/// propagation: on this 4x4 killer they fill 12 cells before any guess,
/// where cages and units alone fill 6, and no solution is lost.
#[test]
fn sums_that_cages_imply_through_units_fill_cells() -> Result<(), Box<dyn std::error::Error>> {
    let cages = [(5, vec![4, 8]), (7, vec![2, 3]), (6, vec![1, 5]), (5, vec![13, 14])];
    let rules =
        cages.iter().try_fold(Rules::new(Shape::new(2, 2)), |rules, (sum, cells)| rules.with_cage(*sum, cells))?;
    let board = rules.parse(&".".repeat(16))?;
    assert_eq!(board.propagated().expect("solutions exist").empty_cells(), 4);
    let units = [rows_and_columns(4), boxes(2, 2)].concat();
    assert_eq!(board.count_solutions(1000), common::brute_count_killer(&".".repeat(16), 4, &units, &cages, 1000));
    Ok(())
}

#[test]
fn killer_cages_say_what_is_wrong() {
    let four = || Rules::new(Shape::new(2, 2));
    assert_eq!(four().with_cage(3, &[0, 1]).unwrap().with_cage(5, &[1, 2]), Err(RulesError::CageOverlap { cell: 1 }));
    assert_eq!(four().with_cage(10, &[0, 1, 2, 3, 4]), Err(RulesError::CageSize { found: 5, side: 4 }));
    assert_eq!(four().with_cage(0, &[]), Err(RulesError::CageSize { found: 0, side: 4 }));
    assert_eq!(four().with_cage(2, &[0, 1]), Err(RulesError::ImpossibleSum { sum: 2, cells: 2 }));
    assert_eq!(four().with_cage(2, &[0, 1]).unwrap_err().to_string(), "no 2 distinct digits add up to 2");
    // Givens that fill a cage with the wrong sum, and two digits that repeat in a cage.
    let caged = four().with_cage(5, &[0, 5]).unwrap();
    let err = caged.parse("1... .3.. .... ....").unwrap_err();
    assert_eq!(err.to_string(), "line 1, column 7: the givens of a cage add up to 4, not its sum of 5");
    let caged = four().with_cage(7, &[0, 6, 9]).unwrap();
    let err = caged.parse("1... ..1. .... ....").unwrap_err();
    assert!(matches!(err, ParseError::Repeated { region: Region::Cage, .. }), "{err}");
    // A cage that cannot be completed leaves no solution.
    let tight = four().with_cage(3, &[0, 1]).unwrap();
    assert_eq!(tight.parse("3... .... .... ....").unwrap().count_solutions(10), 0);
}

#[test]
fn classic_rules_are_the_shape_s_and_share_its_engine() {
    assert!(Rules::new(Shape::NINE).is_classic());
    assert_eq!(Board::empty_with(&Rules::new(Shape::NINE)), Board::empty(Shape::NINE));
    // Diagonals added twice are added once; X rules equal the X shape's.
    let x = Rules::new(Shape::NINE).with_diagonals().with_diagonals();
    assert_eq!(x, Rules::new(Shape::NINE.with_diagonals()));
    assert!(x.is_classic());
    // A jigsaw map of the boxes is the classic board.
    let boxes_map: String = (0..81).map(|c| char::from(b'a' + u8::try_from(c / 27 * 3 + c % 9 / 3).unwrap())).collect();
    assert_eq!(Rules::jigsaw(&boxes_map).unwrap(), Rules::new(Shape::NINE));
    // Boards of different rules with the same text differ.
    let windoku = Rules::new(Shape::NINE).with_windows();
    assert_ne!(Board::empty_with(&windoku), Board::empty(Shape::NINE));
    assert_eq!(Board::empty_with(&windoku).rules(), windoku);
}

#[test]
fn windoku_on_9x9_has_the_four_windows() {
    let windoku = Rules::new(Shape::NINE).with_windows();
    let windows: Vec<Vec<usize>> =
        windoku.regions().filter(|(kind, _)| *kind == Region::Window).map(|(_, cells)| cells).collect();
    let window = |top: usize, left: usize| -> Vec<usize> { (0..9).map(|i| (top + i / 3) * 9 + left + i % 3).collect() };
    assert_eq!(windows, [window(1, 1), window(1, 5), window(5, 1), window(5, 5)]);
    // A published-style check: a solution of the empty windoku board keeps every region.
    let solution = Board::empty_with(&windoku).solve().expect("windoku boards have solutions");
    let units: Vec<Vec<usize>> = windoku.regions().map(|(_, cells)| cells).collect();
    assert!(common::solves_units(&".".repeat(81), solution.as_str(), &units));
}

#[test]
fn invalid_rules_say_what_is_wrong() {
    assert_eq!(Rules::jigsaw(""), Err(RulesError::LabelCount { found: 0, expected: None }));
    assert_eq!(Rules::jigsaw(&"a".repeat(26)), Err(RulesError::LabelCount { found: 26, expected: None }));
    // 25 labels make a 5x5 jigsaw on the Latin square, whose regions hold five cells.
    assert_eq!(Rules::jigsaw(&"a".repeat(25)), Err(RulesError::RegionSize { label: 'a', found: 25, expected: 5 }));
    let err = Rules::jigsaw("aabb aabb ccdd ccdc").unwrap_err();
    assert_eq!(err, RulesError::RegionSize { label: 'c', found: 5, expected: 4 });
    assert_eq!(err.to_string(), "jigsaw region 'c' has 5 cells; every region needs 4");
    let four = Rules::new(Shape::new(2, 2));
    assert_eq!(four.clone().with_region(&[0, 1, 2]), Err(RulesError::ExtraRegionSize { found: 3, expected: 4 }));
    assert_eq!(four.clone().with_region(&[0, 1, 1, 2]), Err(RulesError::RepeatedCell { cell: 1 }));
    assert_eq!(four.with_region(&[0, 1, 2, 99]), Err(RulesError::CellOutOfRange { cell: 99, cells: 16 }));
    // Givens that break a jigsaw region: the error names the region and where.
    let jigsaw = Rules::jigsaw("aaab acbb ccbd cddd").unwrap();
    let err = jigsaw.parse("..1. 1... .... ....").unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 1, column 6: 1 at row 2, column 1 repeats the 1 at row 1, column 3 in the same region"
    );
}

#[test]
fn cage_maps_read_with_their_errors_placed() {
    let four = || Rules::new(Shape::new(2, 2));
    let map = "# a killer 4x4\naabc\nddbc\neeff\nghhf\na=3 b=7 c=5\nd=3 e=7 f=6 g=4 h=5\n";
    let killer = four().with_cage_map(map).unwrap();
    assert_eq!(killer.cages().count(), 8);
    let expected: usize = common::brute_count_killer(
        &".".repeat(16),
        4,
        &{
            let mut units = rows_and_columns(4);
            units.extend(boxes(2, 2));
            units
        },
        &killer.cages().collect::<Vec<_>>(),
        1_000,
    );
    assert_eq!(Board::empty_with(&killer).count_solutions(1_000), expected);
    let err = |text: &str| four().with_cage_map(text).unwrap_err().to_string();
    assert_eq!(err("aab\nc"), "line 2, column 1: the map has 4 cells; the board has 16");
    assert_eq!(err(&format!("{}\na=3", "a".repeat(17))), "line 1, column 17: the map has more than 16 cells");
    assert_eq!(err("aa.. .... .... .... b=3"), "line 1, column 21: 'b' has a sum but no cells in the map");
    assert_eq!(err("aa.. .... .... ...."), "line 1, column 1: cage 'a' has no sum; add a=SUM");
    assert_eq!(err("aa.. .... .... .... a=3 a=4"), "line 1, column 25: 'a' has two sums");
    assert_eq!(err("aa.. .... .... .... a=9"), "line 1, column 1: cage 'a': no 2 distinct digits add up to 9");
    // The cages are checked at once; the error is still the first cage's.
    assert_eq!(err("aa.. .... .... ..bb a=9"), "line 1, column 1: cage 'a': no 2 distinct digits add up to 9");
    assert_eq!(err("aa.. .... .... ..bb b=9"), "line 1, column 1: cage 'a' has no sum; add a=SUM");
    assert_eq!(err("aa.. .... .... ..bb a=3 b=9"), "line 1, column 18: cage 'b': no 2 distinct digits add up to 9");
}

#[test]
fn region_maps_replace_boxes_and_keep_every_other_rule() {
    let four = Rules::new(Shape::new(2, 2));
    let map = "aaab acbb ccbd cddd";
    // Windows and cages added first survive a map given after them.
    let rules = four.clone().with_windows().with_cage(3, &[0, 1]).unwrap().with_regions(map).unwrap();
    let kinds: Vec<Region> = rules.regions().map(|(kind, _)| kind).collect();
    assert_eq!(kinds.iter().filter(|&&k| k == Region::Jigsaw).count(), 4);
    assert_eq!(kinds.iter().filter(|&&k| k == Region::Box).count(), 0);
    assert_eq!(kinds.iter().filter(|&&k| k == Region::Window).count(), 1);
    assert_eq!(rules.cages().collect::<Vec<_>>(), [(3, vec![0, 1])]);
    // A second map replaces the first; the order of the calls does not matter.
    let other = four.clone().with_regions("abab abab cdcd cdcd").unwrap().with_regions(map).unwrap();
    assert_eq!(other, Rules::jigsaw(map).unwrap());
    assert_eq!(rules, four.with_regions(map).unwrap().with_windows().with_cage(3, &[0, 1]).unwrap());
    assert_eq!(
        Rules::new(Shape::new(2, 2)).with_regions("11112222333344"),
        Err(RulesError::LabelCount { found: 14, expected: Some(16) })
    );
    assert_eq!(
        RulesError::LabelCount { found: 14, expected: Some(16) }.to_string(),
        "a region map has 14 labels; it needs one per cell, 16"
    );
}

#[test]
fn cages_read_as_json_with_their_errors_placed() {
    let four = || Rules::new(Shape::new(2, 2));
    let json = r##"{
  "title": "a killer 4x4",
  "cages": [
    {"sum": 3, "cells": [0, 1]},
    {"cells": [14, 15], "sum": 7, "colour": "#ffd"}
  ]
}"##;
    let killer = four().with_cage_json(json).unwrap();
    assert_eq!(killer.cages().collect::<Vec<_>>(), [(3, vec![0, 1]), (7, vec![14, 15])]);
    // The same cages as a cage map make the same rules.
    assert_eq!(killer, four().with_cage_map("aa.. .... .... ..bb a=3 b=7").unwrap());
    assert_eq!(four().with_cage_json("[]").unwrap(), four());
    // Labels and text beyond ASCII are placed by character, not byte.
    assert_eq!(
        four().with_cage_map("\u{e9}a.. .... .... .... a=1 \u{e9}x=2").unwrap_err().to_string(),
        "line 1, column 25: \"\u{e9}x=2\": a sum names one label, as a=12"
    );
    let error = |text: &str| four().with_cage_json(text).unwrap_err().to_string();
    assert_eq!(error(r#"[{"sum": 3}]"#), "line 1, column 2: a cage has no \"cells\"");
    assert_eq!(error(r#"[{"cells": [0]}]"#), "line 1, column 2: a cage has no \"sum\"");
    assert_eq!(
        error(r#"[{"sum": 9, "cells": [0, 1]}, {"cells": [2]}]"#),
        "line 1, column 2: no 2 distinct digits add up to 9"
    );
    assert_eq!(error(r#"[{"sum": 3, "cells": [0, 1]}, {"cells": [2]}]"#), "line 1, column 31: a cage has no \"sum\"");
    assert_eq!(
        error(r#"[{"sum": 3.5, "cells": [0, 1]}]"#),
        "line 1, column 10: expected a whole number, found \"3.5\""
    );
    assert_eq!(error(r#"[{"sum": -3, "cells": [0, 1]}]"#), "line 1, column 10: expected a whole number, found \"-3\"");
    assert_eq!(error("[{\"sum\": 3,\n  \"cells\": [0, 1}]"), "line 2, column 17: expected ',' or ']', found '}'");
    assert_eq!(
        error(r#"[{"sum": 3, "cells": [0, 16]}]"#),
        "line 1, column 2: cell 16 is off the board; use an index below 16"
    );
    assert_eq!(
        error(r#"[{"sum": 3, "cells": [0, 1]}, {"sum": 4, "cells": [1, 2]}]"#),
        "line 1, column 31: cell 1 is already in another cage"
    );
    assert_eq!(error(r#"{"puzzle": "1..."}"#), "line 1, column 1: the object has no \"cages\" member");
    assert_eq!(error("[] x"), "line 1, column 4: 'x' after the end of the cages");
    assert_eq!(error(r#"[{"sum": 3, "sum": 4, "cells": [0, 1]}]"#), "line 1, column 13: a cage has two sums");
    assert_eq!(error("["), "line 1, column 2: expected '{', found the end");
    assert_eq!(error(&"[".repeat(100_000)), "line 1, column 2: expected '{', found '['");
    let deep = format!("{{\"x\": {}1{}, \"cages\": []}}", "[".repeat(100), "]".repeat(100));
    assert!(error(&deep).contains("nest more than 64 deep"), "{}", error(&deep));
}

/// The pairs of cells of a `side` board that are `(down, across)` apart
/// for one of `moves`, in either direction.
fn pairs_apart(side: usize, moves: &[(isize, isize)]) -> Vec<Vec<usize>> {
    let mut pairs = Vec::new();
    for cell in 0..side * side {
        for &(down, across) in moves {
            let (row, col) = ((cell / side).checked_add_signed(down), (cell % side).checked_add_signed(across));
            if let (Some(row), Some(col)) = (row, col) {
                if row < side && col < side {
                    pairs.push(vec![cell, row * side + col]);
                }
            }
        }
    }
    pairs
}

const KNIGHT: [(isize, isize); 8] = [(1, 2), (2, 1), (1, -2), (2, -1), (-1, 2), (-2, 1), (-1, -2), (-2, -1)];
const KING: [(isize, isize); 8] = [(1, 1), (1, -1), (-1, 1), (-1, -1), (0, 1), (1, 0), (0, -1), (-1, 0)];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn distinct_groups_agree_with_brute_force(
        seed in 1..u64::MAX,
        six in any::<bool>(),
        keep in prop::collection::vec(prop::bool::weighted(0.45), 36),
    ) {
        let SmallGrid { br, bc, side, mut random, grid } = small_grid(seed, six);
        // Groups the grid satisfies, of 2 cells to `side`, overlapping at will.
        let mut groups = Vec::new();
        for _ in 0..=random.below(6) {
            let size = 2 + random.below(side - 1);
            let mut cells: Vec<usize> = (0..side * side).collect();
            random.shuffle(&mut cells);
            let (mut group, mut digits) = (Vec::new(), Vec::new());
            for cell in cells {
                let digit = grid.as_bytes()[cell];
                if group.len() < size && !digits.contains(&digit) {
                    digits.push(digit);
                    group.push(cell);
                }
            }
            groups.push(group);
        }
        let classic = || {
            let mut units = rows_and_columns(side);
            units.extend(boxes(br, bc));
            units
        };
        let rules = Rules::new(Shape::new(br, bc)).with_distinct_groups(groups.clone()).unwrap();
        let mut units = classic();
        units.extend(groups);
        agrees(&rules, &puzzle_from(&grid, &keep), side, &units)?;

        // Anti-knight and anti-king, which the grid need not satisfy: the
        // count may be anything, 0 included.
        let sparse: Vec<bool> = keep.iter().map(|&k| k && random.below(3) == 0).collect();
        for (rules, moves) in [
            (Rules::new(Shape::new(br, bc)).with_anti_knight(), &KNIGHT),
            (Rules::new(Shape::new(br, bc)).with_anti_king(), &KING),
        ] {
            let mut units = classic();
            units.extend(pairs_apart(side, moves));
            agrees(&rules, &puzzle_from(&grid, &sparse), side, &units)?;
        }
    }
}

#[test]
fn groups_of_distinct_digits_are_checked_kept_and_compared_as_sets() {
    let four = || Rules::new(Shape::new(2, 2));
    assert_eq!(four().with_distinct(&[3]), Err(RulesError::DistinctSize { found: 1, side: 4 }));
    assert_eq!(four().with_distinct(&[0, 1, 2, 3, 4]), Err(RulesError::DistinctSize { found: 5, side: 4 }));
    assert_eq!(four().with_distinct(&[0, 16]), Err(RulesError::CellOutOfRange { cell: 16, cells: 16 }));
    assert_eq!(four().with_distinct(&[5, 5]), Err(RulesError::RepeatedCell { cell: 5 }));
    assert_eq!(
        four().with_distinct(&[9]).unwrap_err().to_string(),
        "a group of distinct digits has 1 cell; it needs 2 to 4"
    );

    // Order does not matter, repeats count once, and the plain rules are not these.
    let a = four().with_distinct(&[6, 0]).unwrap().with_distinct(&[15, 12, 5]).unwrap();
    let b = four().with_distinct(&[12, 5, 15]).unwrap().with_distinct(&[0, 6]).unwrap().with_distinct(&[6, 0]).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.distinct_groups().collect::<Vec<_>>(), [vec![0, 6], vec![5, 12, 15]]);
    assert_ne!(a, four());
    assert!(!a.is_classic());
    assert_eq!(four().with_anti_knight().with_anti_knight(), four().with_anti_knight());
    assert_eq!(four().with_anti_king().distinct_groups().count(), 2 * 3 * 3);

    // Other rules added later keep the groups.
    let jigsaw = a.clone().with_regions("aabb aabb ccdd ccdd").unwrap().with_diagonals().with_cage(3, &[0, 1]).unwrap();
    assert_eq!(jigsaw.distinct_groups().collect::<Vec<_>>(), a.distinct_groups().collect::<Vec<_>>());

    // Givens that break a group: the error names it.
    let err = a.parse("1.....1.........").unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 1, column 7: 1 at row 2, column 3 repeats the 1 at row 1, column 1 in the same group of distinct digits"
    );
}

#[test]
fn anti_knight_and_anti_king_grids_on_9x9() {
    let rules = Rules::new(Shape::NINE).with_anti_knight().with_anti_king();
    let grid = Board::empty_with(&rules).solve().expect("grids with both exist");
    let digits = grid.as_str().as_bytes();
    assert!(digits.iter().all(u8::is_ascii_digit));
    for pair in pairs_apart(9, &KNIGHT).into_iter().chain(pairs_apart(9, &KING)) {
        assert_ne!(digits[pair[0]], digits[pair[1]], "cells {} and {} of {}", pair[0], pair[1], grid);
    }
    // The grid with a third of its cells removed still has it among its
    // solutions, and every solution keeps the rules.
    let puzzle: String =
        grid.as_str().chars().enumerate().map(|(cell, c)| if cell % 3 == 0 { '.' } else { c }).collect();
    let board = rules.parse(&puzzle).unwrap();
    let solutions: Vec<Board> = board.solutions().take(50).collect();
    assert!(solutions.contains(&grid));
    assert_eq!(board.count_solutions(50), solutions.len());
}

/// The brute-force reference with the non-consecutive rule: backtracking
/// over the first empty cell, no digit repeated in `units`, and none next
/// to a consecutive one.
fn brute_count_non_consecutive(puzzle: &str, side: usize, units: &[Vec<usize>], limit: usize) -> usize {
    fn fits(grid: &[usize], side: usize, units: &[Vec<usize>], cell: usize, v: usize) -> bool {
        let (r, c) = (cell / side, cell % side);
        let near = [(r > 0).then(|| cell - side), (r + 1 < side).then(|| cell + side)]
            .into_iter()
            .chain([(c > 0).then(|| cell - 1), (c + 1 < side).then(|| cell + 1)])
            .flatten();
        units.iter().filter(|u| u.contains(&cell)).all(|u| u.iter().all(|&o| o == cell || grid[o] != v))
            && near.into_iter().all(|n| grid[n] == 0 || grid[n].abs_diff(v) != 1)
    }
    fn go(grid: &mut [usize], side: usize, units: &[Vec<usize>], limit: usize) -> usize {
        let Some(cell) = grid.iter().position(|&v| v == 0) else { return 1 };
        let mut found = 0;
        for v in 1..=side {
            if found < limit && fits(grid, side, units, cell, v) {
                grid[cell] = v;
                found += go(grid, side, units, limit - found);
                grid[cell] = 0;
            }
        }
        found
    }
    let mut grid: Vec<usize> = puzzle.bytes().map(|b| if b == b'.' { 0 } else { usize::from(b - b'0') }).collect();
    for cell in 0..grid.len() {
        let v = std::mem::take(&mut grid[cell]);
        if v != 0 && !fits(&grid, side, units, cell, v) {
            return 0;
        }
        grid[cell] = v;
    }
    go(&mut grid, side, units, limit)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn non_consecutive_boards_agree_with_brute_force(
        seed in 1..u64::MAX,
        six in any::<bool>(),
        keep in prop::collection::vec(prop::bool::weighted(0.3), 36),
        with_king in any::<bool>(),
    ) {
        // Givens from a random grid, which need not keep the rule: the count
        // may be anything, 0 included, and a given next to a consecutive
        // one is refused.
        let SmallGrid { br, bc, side, grid, .. } = small_grid(seed, six);
        let puzzle = puzzle_from(&grid, &keep);
        let mut units = rows_and_columns(side);
        units.extend(boxes(br, bc));
        let mut rules = Rules::new(Shape::new(br, bc)).with_non_consecutive();
        if with_king {
            rules = rules.with_anti_king();
            units.extend(pairs_apart(side, &KING));
        }
        let expected = brute_count_non_consecutive(&puzzle, side, &units, 20);
        // A solution is complete, keeps the givens, and keeps every rule:
        // the reference finds it, and nothing else, when given all of it.
        agrees_with(&rules, &puzzle, expected, |solution| {
            brute_count_non_consecutive(solution, side, &units, 2) == 1
                && puzzle.bytes().zip(solution.bytes()).all(|(g, s)| g == b'.' || g == s)
        })?;
    }
}

#[test]
fn the_miracle_sudoku_has_one_solution_from_two_givens() {
    // Mitchell Lee's puzzle: anti-knight, anti-king and non-consecutive,
    // with a 1 at row 5, column 3 and a 2 at row 6, column 7.
    let rules = Rules::new(Shape::NINE).with_anti_knight().with_anti_king().with_non_consecutive();
    assert!(rules.is_non_consecutive() && !Rules::new(Shape::NINE).with_anti_king().is_non_consecutive());
    let mut puzzle = vec![b'.'; 81];
    puzzle[4 * 9 + 2] = b'1';
    puzzle[5 * 9 + 6] = b'2';
    let board = rules.parse(std::str::from_utf8(&puzzle).unwrap()).unwrap();
    assert_eq!(board.count_solutions(2), 1);
    let solution = board.solve().unwrap();
    let mut units = rows_and_columns(9);
    units.extend(boxes(3, 3));
    units.extend(pairs_apart(9, &KNIGHT));
    units.extend(pairs_apart(9, &KING));
    assert_eq!(brute_count_non_consecutive(solution.as_str(), 9, &units, 2), 1, "{solution}");
    // Without the non-consecutive rule, two givens leave many grids.
    let chess = Rules::new(Shape::NINE).with_anti_knight().with_anti_king();
    assert_eq!(chess.parse(std::str::from_utf8(&puzzle).unwrap()).unwrap().count_solutions(2), 2);
    // Givens side by side that are consecutive: refused, and said where.
    let err = rules.parse(&format!("34{}", ".".repeat(79))).unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 1, column 2: 4 at row 1, column 2 is next to the 3 at row 1, column 1; the non-consecutive rule keeps them apart"
    );
    // Relabelling would break the rule: a transformed board is turned alone.
    let other = board.transformed(7);
    assert!(other == board || Turn::ALL.iter().any(|&turn| board.turned(turn) == other));
    assert_eq!(other.count_solutions(2), 1);
}
