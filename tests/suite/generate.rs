//! The puzzle generator: seeded, unique, symmetric, minimal, for any rules.

use lazydoku::generate::{Generator, Symmetry};
use lazydoku::{Board, Region, Rules, Shape};

/// The cells that `board` gives.
fn givens(board: &Board) -> Vec<usize> {
    board.cells().enumerate().filter(|(_, d)| d.is_some()).map(|(cell, _)| cell).collect()
}

/// Whether the givens of `board` look the same under `map` (a map of
/// (row, col) on a board of side `side`).
fn keeps_pattern(board: &Board, map: impl Fn(usize, usize, usize) -> (usize, usize)) -> bool {
    let side = board.shape().side();
    (0..side * side).all(|cell| {
        let (r, c) = map(side - 1, cell / side, cell % side);
        board.get(cell).is_some() == board.get(r * side + c).is_some()
    })
}

/// Whether removing any given of `board` (with its images under
/// `symmetry`, through `orbit_of`) leaves more than one solution.
fn is_minimal(board: &Board, orbit_of: impl Fn(usize) -> Vec<usize>) -> bool {
    let rules = board.rules();
    givens(board).into_iter().all(|cell| {
        let orbit = orbit_of(cell);
        let text: String =
            board.as_str().char_indices().map(|(i, s)| if orbit.contains(&i) { '.' } else { s }).collect();
        rules.parse(&text).unwrap().count_solutions(2) == 2
    })
}

#[test]
fn the_same_seed_gives_the_same_puzzles_and_another_seed_others() {
    let generator = Generator::new(Rules::new(Shape::NINE)).seed(3);
    let first: Vec<Board> = generator.puzzles().take(4).collect();
    assert_eq!(generator.puzzles().take(4).collect::<Vec<_>>(), first);
    let other: Vec<Board> = generator.clone().seed(4).puzzles().take(4).collect();
    assert!(first.iter().all(|p| !other.contains(p)));
    // Each puzzle depends on its index alone: for making them in parallel.
    assert_eq!(generator.puzzle(2).as_ref(), first.get(2));
    // The puzzles of one stream differ from one another.
    assert!(first.iter().enumerate().all(|(i, p)| first[i + 1..].iter().all(|q| q != p)));
}

#[test]
fn puzzles_are_unique_and_minimal_by_default() {
    for (shape, count) in [(Shape::new(2, 2), 6), (Shape::new(2, 3), 4), (Shape::NINE, 4)] {
        for puzzle in Generator::new(Rules::new(shape)).seed(11).puzzles().take(count) {
            assert!(puzzle.is_unique(), "{shape}: {puzzle}");
            assert!(is_minimal(&puzzle, |cell| vec![cell]), "{shape}: {puzzle} is not minimal");
        }
    }
}

/// A map of (row, col) on a board whose last row and column are the first
/// argument.
type Map = fn(usize, usize, usize) -> (usize, usize);

#[test]
fn every_symmetry_shows_in_the_givens_and_puzzles_are_minimal_under_it() {
    let side = 9;
    let rotate_half = |l: usize, r: usize, c: usize| (l - r, l - c);
    let rotate_quarter = |l: usize, r: usize, c: usize| (c, l - r);
    let left_right = |l: usize, r: usize, c: usize| (r, l - c);
    let top_bottom = |l: usize, r: usize, c: usize| (l - r, c);
    let diagonal = |_: usize, r: usize, c: usize| (c, r);
    let anti_diagonal = |l: usize, r: usize, c: usize| (l - c, l - r);
    let cases: [(Symmetry, Vec<Map>); 7] = [
        (Symmetry::Rotate180, vec![rotate_half]),
        (Symmetry::Rotate90, vec![rotate_quarter, rotate_half]),
        (Symmetry::MirrorLeftRight, vec![left_right]),
        (Symmetry::MirrorTopBottom, vec![top_bottom]),
        (Symmetry::Diagonal, vec![diagonal]),
        (Symmetry::AntiDiagonal, vec![anti_diagonal]),
        (Symmetry::Full, vec![rotate_quarter, diagonal, left_right, anti_diagonal]),
    ];
    for (symmetry, maps) in cases {
        let puzzle = Generator::new(Rules::new(Shape::NINE)).seed(5).symmetry(symmetry).puzzle(0).unwrap();
        assert!(puzzle.is_unique(), "{symmetry}: {puzzle}");
        for map in &maps {
            assert!(keeps_pattern(&puzzle, map), "{symmetry}: {puzzle}");
        }
        // The orbit of a cell: its images under the maps, until nothing new.
        let orbit_of = |cell: usize| {
            let mut orbit = vec![cell];
            let mut next = 0;
            while next < orbit.len() {
                for map in &maps {
                    let (r, c) = map(side - 1, orbit[next] / side, orbit[next] % side);
                    if !orbit.contains(&(r * side + c)) {
                        orbit.push(r * side + c);
                    }
                }
                next += 1;
            }
            orbit
        };
        assert!(is_minimal(&puzzle, orbit_of), "{symmetry}: {puzzle} is not minimal");
    }
}

#[test]
fn a_clue_target_stops_the_removal() {
    for puzzle in Generator::new(Rules::new(Shape::NINE)).seed(9).clues(40).puzzles().take(3) {
        let clues = givens(&puzzle).len();
        assert!((40 - 1..=40).contains(&clues), "{clues} clues: {puzzle}");
        assert!(puzzle.is_unique());
    }
    let symmetric = Generator::new(Rules::new(Shape::NINE)).seed(9).clues(40).symmetry(Symmetry::Rotate90);
    let clues = givens(&symmetric.puzzle(0).unwrap()).len();
    assert!((40 - 3..=40).contains(&clues), "{clues} clues");
    // `minimal` undoes the target.
    let minimal = Generator::new(Rules::new(Shape::NINE)).seed(9).clues(40).minimal().puzzle(0).unwrap();
    assert!(givens(&minimal).len() < 37);
}

#[test]
fn puzzles_follow_any_rules() {
    let jigsaw = Rules::new(Shape::new(2, 3))
        .with_regions("111222 113222 133344 533444 555664 556666")
        .unwrap_or_else(|e| panic!("{e}"));
    let killer = Rules::new(Shape::new(2, 2)).with_cage(3, &[0, 1]).unwrap().with_cage(7, &[14, 15]).unwrap();
    let every = [
        Rules::new(Shape::NINE).with_diagonals(),
        Rules::new(Shape::NINE).with_windows(),
        Rules::new(Shape::new(2, 4)),
        jigsaw,
        killer,
    ];
    for rules in every {
        let puzzles: Vec<Board> = Generator::new(rules.clone()).seed(2).puzzles().take(2).collect();
        assert_eq!(puzzles.len(), 2);
        for puzzle in puzzles {
            assert_eq!(puzzle.rules(), rules);
            assert!(puzzle.is_unique(), "{puzzle}");
            assert!(is_minimal(&puzzle, |cell| vec![cell]), "{puzzle} is not minimal");
        }
    }
}

#[test]
fn large_boards_get_puzzles_too() {
    let puzzle = Generator::new(Rules::new(Shape::new(4, 4))).seed(1).clues(160).puzzle(0).unwrap();
    assert!(givens(&puzzle).len() <= 160);
    assert!(puzzle.is_unique());
}

#[test]
fn rules_without_a_solution_give_no_puzzle() {
    // Each cage needs 1 and 2, and the two cages share a row.
    let rules = Rules::new(Shape::new(2, 2)).with_cage(3, &[0, 1]).unwrap().with_cage(3, &[2, 3]).unwrap();
    assert_eq!(Generator::new(rules).puzzles().next(), None);
}

#[test]
fn symmetries_read_back_their_names() {
    for symmetry in Symmetry::ALL {
        assert_eq!(symmetry.to_string().parse::<Symmetry>(), Ok(symmetry));
    }
    let err = "spiral".parse::<Symmetry>().unwrap_err();
    assert!(err.to_string().contains("unknown symmetry \"spiral\""), "{err}");
}

#[test]
fn a_difficulty_asked_for_is_the_difficulty_given() {
    use lazydoku::explain::Level;
    let plain = Generator::new(Rules::new(Shape::NINE)).seed(2).symmetry(Symmetry::Rotate180);
    for level in [Level::Easy, Level::Hard, Level::Beyond] {
        let generator = plain.clone().level(level);
        let puzzles: Vec<Board> = generator.puzzles().take(3).collect();
        assert_eq!(puzzles.len(), 3);
        for puzzle in &puzzles {
            assert!(puzzle.is_unique());
            assert_eq!(puzzle.rate().level(), level, "{puzzle}");
        }
        // Still seeded, and still one puzzle per position.
        assert_eq!(generator.puzzle(1).as_ref(), puzzles.get(1));
    }
    let searching = plain.clone().guesses(10..=usize::MAX);
    assert!(searching.puzzles().take(3).all(|p| p.rate().guesses() >= 10));
    let both = plain.level(Level::Easy).guesses(0..=0);
    assert!(both.puzzles().take(3).all(|p| p.rate().guesses() == 0 && p.rate().level() == Level::Easy));
}

#[test]
fn large_boards_get_puzzles_of_a_level_at_once() {
    use lazydoku::explain::Level;
    // Minimal 25x25 puzzles took minutes each, and puzzles of a level came
    // only as one of them: these are made by logic of the level from the
    // first try, or (beyond) by logic, then one removal past it.
    let big = Generator::new(Rules::new(Shape::new(5, 5))).seed(3);
    let jigsaw = Generator::new(Rules::new(Shape::new(4, 4))).seed(3).jigsaw();
    for (generator, level) in
        [(&big, Level::Easy), (&big, Level::Beyond), (&jigsaw, Level::Hard), (&jigsaw, Level::Beyond)]
    {
        let puzzle = generator.clone().level(level).puzzle(0).expect("a puzzle of the level");
        let side = puzzle.shape().side();
        // Far from the full grid (minimal ones keep about two in five).
        assert!(givens(&puzzle).len() < side * side * 3 / 5, "{puzzle}");
        assert!(puzzle.is_unique(), "{puzzle}");
        assert_eq!(puzzle.rate().level(), level, "{puzzle}");
    }
}

#[test]
fn a_difficulty_comes_on_rules_whose_minimal_puzzles_are_beyond_logic() {
    use lazydoku::explain::Level;
    let rules = Rules::new(Shape::NINE)
        .with_renban(&[0, 1, 2, 3])
        .and_then(|r| r.with_zipper_line(&[20, 21, 22, 23, 24, 25, 26]))
        .and_then(|r| r.with_entropic_line(&[36, 37, 38, 39, 40]))
        .and_then(|r| r.with_modular_line(&[72, 73, 74, 75]))
        .and_then(|r| r.with_double_arrow(&[60, 61, 62, 63]))
        .unwrap();
    let plain = Generator::new(rules).seed(4);
    // The minimal puzzles of these rules need more than the techniques.
    assert!(plain.puzzles().take(8).all(|p| p.rate().level() == Level::Beyond));
    for level in [Level::Medium, Level::Hard] {
        let generator = plain.clone().level(level);
        for puzzle in generator.puzzles().take(3) {
            assert!(puzzle.is_unique());
            assert_eq!(puzzle.rate().level(), level, "{puzzle}");
            // Each given left is needed: without it the puzzle has more
            // solutions, or logic of the level no longer solves it.
            let rules = puzzle.rules();
            for cell in givens(&puzzle) {
                let text: String =
                    puzzle.as_str().char_indices().map(|(i, s)| if i == cell { '.' } else { s }).collect();
                let fewer = rules.parse(&text).unwrap();
                assert!(
                    !fewer.is_unique() || fewer.rate().level() > level,
                    "{puzzle}: r{}c{}",
                    cell / 9 + 1,
                    cell % 9 + 1
                );
            }
        }
    }
}

/// Whether the cells of `cells` are connected through sides on a board of
/// side `side`.
fn is_connected(cells: &[usize], side: usize) -> bool {
    let mut reached = vec![cells[0]];
    let mut next = 0;
    while next < reached.len() {
        let cell = reached[next];
        for &other in cells {
            let (dr, dc) = ((cell / side).abs_diff(other / side), (cell % side).abs_diff(other % side));
            if dr + dc == 1 && !reached.contains(&other) {
                reached.push(other);
            }
        }
        next += 1;
    }
    reached.len() == cells.len()
}

#[test]
fn random_jigsaw_maps_have_connected_regions_and_unique_minimal_puzzles() {
    for (shape, count) in [(Shape::new(2, 2), 4), (Shape::new(2, 3), 4), (Shape::NINE, 4)] {
        let side = shape.side();
        let generator = Generator::new(Rules::new(shape)).seed(21).jigsaw();
        let puzzles: Vec<Board> = generator.puzzles().take(count).collect();
        let mut maps = Vec::new();
        for puzzle in &puzzles {
            let rules = puzzle.rules();
            let map = rules.region_map();
            // The map reads back as the puzzle's own rules.
            assert_eq!(Rules::new(shape).with_regions(&map).unwrap(), rules, "{map}");
            let regions: Vec<Vec<usize>> = rules
                .regions()
                .filter(|(kind, _)| matches!(kind, Region::Jigsaw | Region::Box))
                .map(|(_, cells)| cells)
                .collect();
            assert_eq!(regions.len(), side);
            assert!(regions.iter().all(|cells| cells.len() == side && is_connected(cells, side)), "{map}");
            assert!(puzzle.is_unique(), "{map}: {puzzle}");
            assert!(is_minimal(puzzle, |cell| vec![cell]), "{map}: {puzzle} is not minimal");
            maps.push(map);
        }
        // The maps vary, and are not the boxes (on 6x6 and up, where the
        // maps are many).
        if side >= 6 {
            let boxes = Rules::new(shape).region_map();
            assert!(maps.iter().all(|map| *map != boxes), "{maps:?}");
            assert!(maps.iter().enumerate().all(|(i, map)| !maps[i + 1..].contains(map)), "{maps:?}");
        }
        // The same seed gives the same maps and puzzles.
        assert_eq!(generator.puzzles().take(count).collect::<Vec<_>>(), puzzles);
    }
}

#[test]
fn killer_puzzles_have_cages_that_hold_their_solution() {
    for rules in [Rules::new(Shape::new(2, 3)), Rules::new(Shape::NINE), Rules::new(Shape::NINE).with_windows()] {
        let generator = Generator::new(rules).seed(8).killer();
        for puzzle in generator.puzzles().take(3) {
            assert_cages_hold(&puzzle);
            assert!(is_minimal(&puzzle, |cell| vec![cell]), "{puzzle} is not minimal");
        }
    }
}

/// Checks that the cages of the unique killer `puzzle` cover every cell
/// once, are connected, hold distinct digits of their sums in its solution,
/// and read back from the cage map as the same rules.
fn assert_cages_hold(puzzle: &Board) {
    let shape = puzzle.shape();
    let rules = puzzle.rules();
    assert!(puzzle.is_unique(), "{puzzle}");
    let solution = puzzle.solve().unwrap();
    let cages: Vec<(usize, Vec<usize>)> = rules.cages().collect();
    let mut covered: Vec<usize> = cages.iter().flat_map(|(_, cells)| cells.iter().copied()).collect();
    covered.sort_unstable();
    assert_eq!(covered, (0..shape.cells()).collect::<Vec<_>>(), "every cell in one cage");
    for (sum, cells) in &cages {
        let digits: Vec<u8> = cells.iter().map(|&c| solution.get(c).unwrap()).collect();
        assert_eq!(digits.iter().map(|&d| usize::from(d)).sum::<usize>(), *sum);
        assert!(digits.iter().enumerate().all(|(i, d)| !digits[..i].contains(d)), "{digits:?}");
        assert!(cells.len() == 1 || is_connected(cells, shape.side()), "{cells:?}");
    }
    let map = rules.cage_map().unwrap();
    let base = Rules::new(shape);
    let base = if rules.regions().any(|(kind, _)| kind == Region::Window) { base.with_windows() } else { base };
    assert_eq!(base.with_cage_map(&map).unwrap(), rules, "{map}");
}

#[test]
fn hard_and_expert_killer_puzzles_come_from_joined_cages() {
    use lazydoku::explain::Level;
    let plain = Generator::new(Rules::new(Shape::NINE)).seed(1).killer();
    // Minimal killer puzzles are nearly all medium.
    let medium = plain.puzzles().take(12).filter(|p| p.rate().level() == Level::Medium).count();
    assert!(medium >= 10, "{medium} of 12 medium");
    let cages = |p: &Board| p.rules().cages().count();
    for level in [Level::Hard, Level::Expert] {
        for puzzle in plain.clone().level(level).puzzles().take(2) {
            assert_cages_hold(&puzzle);
            assert_eq!(puzzle.rate().level(), level, "{puzzle}");
            // Fewer cages than a minimal puzzle of the same generator cuts.
            assert!(cages(&puzzle) < plain.puzzles().take(12).map(|p| cages(&p)).min().unwrap(), "{puzzle}");
        }
    }
}

#[test]
fn jigsaw_and_killer_together() {
    let puzzle = Generator::new(Rules::new(Shape::NINE)).seed(2).jigsaw().killer().puzzle(1).unwrap();
    let rules = puzzle.rules();
    assert_ne!(rules.region_map(), Rules::new(Shape::NINE).region_map());
    assert_eq!(rules.cages().map(|(_, cells)| cells.len()).sum::<usize>(), 81);
    let rebuilt = Rules::jigsaw(&rules.region_map()).unwrap().with_cage_map(&rules.cage_map().unwrap()).unwrap();
    assert_eq!(rebuilt, rules);
    assert!(puzzle.is_unique());
}

/// Large puzzles test their removals on every thread of the pool, ahead of
/// the ones decided; the puzzles are still those of one thread, trying one
/// removal at a time.
#[test]
fn puzzles_do_not_depend_on_the_number_of_threads() {
    let in_pool = |threads: usize, generator: &Generator, index: u64| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| generator.puzzle(index)).unwrap()
    };
    let sixteen = Rules::new(Shape::new(4, 4));
    let generators = [
        Generator::new(sixteen.clone()).seed(5),
        Generator::new(sixteen.clone()).seed(6).symmetry(Symmetry::Rotate180),
        // A floor reached while tries are running ahead of it.
        Generator::new(sixteen.clone()).seed(7).clues(120),
        Generator::new(sixteen.clone()).seed(8).jigsaw().clues(100),
    ];
    // Nearly every given of a killer puzzle goes. (Their first puzzles:
    // others of these seeds take seconds.)
    let killers = [Generator::new(sixteen.clone()).seed(1).killer(), Generator::new(sixteen).seed(2).killer()];
    let puzzles = generators.iter().flat_map(|g| [(g, 0), (g, 1)]).chain(killers.iter().map(|g| (g, 0)));
    for (generator, index) in puzzles {
        let alone = in_pool(1, generator, index);
        let shared = in_pool(4, generator, index);
        assert_eq!(shared, alone, "{generator:?}, puzzle {index}");
        assert!(shared.is_unique());
    }
    // A puzzle made on four threads is minimal too.
    let puzzle = in_pool(4, &generators[0], 0);
    assert!(is_minimal(&puzzle, |cell| vec![cell]), "{puzzle} is not minimal");
    let floored = in_pool(4, &generators[2], 1);
    assert!((120 - 1..=120).contains(&givens(&floored).len()));
}

/// A 16x16 killer puzzle whose removals go past the search's first
/// thousand nodes, to clause learning that keeps what it learned from one
/// removal to the next: the puzzle is unique and minimal, and the same on
/// one thread and on two.
#[test]
fn a_sixteen_killer_puzzle_made_through_learned_clauses_is_unique_and_minimal() {
    let generator = Generator::new(Rules::new(Shape::new(4, 4))).seed(0).killer();
    let in_pool = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| generator.puzzle(0)).unwrap()
    };
    let puzzle = in_pool(1);
    assert_eq!(in_pool(2), puzzle);
    assert!(puzzle.is_unique());
    assert!(is_minimal(&puzzle, |cell| vec![cell]), "{puzzle} is not minimal");
}

/// A bound on each removal's proof keeps the givens whose proofs run
/// past it: the puzzle is unique, keeps more givens than the minimal one
/// where the bound bites, is the minimal one where it never does, and is
/// the same on one thread and on two.
#[test]
fn bounded_proofs_keep_their_givens_and_one_solution() {
    let generator = Generator::new(Rules::new(Shape::new(4, 4))).seed(0).killer();
    let in_pool = |threads: usize, generator: &Generator| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| generator.puzzle(0)).unwrap()
    };
    let minimal = in_pool(1, &generator);
    let bounded = generator.clone().proof_nodes(50);
    let puzzle = in_pool(1, &bounded);
    assert_eq!(in_pool(2, &bounded), puzzle);
    assert!(puzzle.is_unique());
    assert!(givens(&puzzle).len() > givens(&minimal).len(), "{puzzle} against {minimal}");
    // The same grid and cages: the bound changes only which givens stay.
    assert_eq!(puzzle.rules(), minimal.rules());
    assert_eq!(puzzle.solve(), minimal.solve());
    assert_eq!(in_pool(2, &generator.clone().proof_nodes(u64::MAX)), minimal);
    // `minimal` lifts the bound.
    assert_eq!(in_pool(1, &bounded.minimal()), minimal);
}

#[test]
fn a_floor_that_keeps_the_level_out_of_reach_is_said_to_do_so() {
    use lazydoku::explain::Level;
    use lazydoku::generate::{MOST_TRIES, NoPuzzle};
    // 60 givens of 81 leave nothing for a hard technique to do.
    for level in [Level::Hard, Level::Beyond] {
        let nine = Generator::new(Rules::new(Shape::NINE)).level(level).clues(60);
        assert_eq!(nine.try_puzzle(0), Err(NoPuzzle::FloorTooHigh { tries: MOST_TRIES }), "{level}");
    }
    // Larger boards, whose tries cost more, give up after fewer.
    let sixteen = Generator::new(Rules::new(Shape::new(4, 4))).level(Level::Hard).clues(200);
    assert_eq!(sixteen.try_puzzle(0), Err(NoPuzzle::FloorTooHigh { tries: 1001 }));
    // A floor that leaves the level rare, not out of reach, still gets it:
    // 5 in 1,000 tries at 34 givens were medium.
    let rare = Generator::new(Rules::new(Shape::NINE)).seed(1).level(Level::Medium).clues(34);
    for puzzle in rare.puzzles().take(2) {
        assert_eq!(puzzle.rate().level(), Level::Medium, "{puzzle}");
        assert!(givens(&puzzle).len() <= 34, "{puzzle}");
        assert!(puzzle.is_unique(), "{puzzle}");
    }
}
