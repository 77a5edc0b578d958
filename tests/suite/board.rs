//! The Board API: placing, candidates, children, propagation, and answers.

use crate::common;

use lazydoku::search::Budget;
use lazydoku::{Board, Conflict, Region, Rules, Shape};

const EASY: &str = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
const HARDEST: &str = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

#[test]
fn a_board_is_its_text() {
    let board: Board = EASY.parse().unwrap();
    assert_eq!(board.as_str(), EASY);
    assert_eq!(board.shape(), Shape::NINE);
    assert_eq!(board.empty_cells(), EASY.matches('.').count());
    assert_eq!(board.get(2), Some(3));
    assert_eq!(board.get(0), None);
    assert_eq!(board.get(81), None);
    assert_eq!(board.cells().len(), 81);
    assert_eq!(board.cells().flatten().count(), 81 - board.empty_cells());
    assert_eq!(format!("{board:?}"), format!("Board {{ shape: Shape(3x3), text: {EASY:?} }}"));
}

#[test]
fn a_board_stays_small_and_inline() {
    // The docs state this size; a 9x9 board keeps its cells inline.
    assert_eq!(std::mem::size_of::<Board>(), 208);
}

#[test]
fn place_returns_a_new_board_and_leaves_the_old_one() {
    let board: Board = EASY.parse().unwrap();
    let next = board.place(0, 4).unwrap();
    assert_eq!(next.get(0), Some(4));
    assert_eq!(board.get(0), None);
    assert_eq!(&next.as_str()[1..], &EASY[1..]);
    // The digit left the candidates of the cell's peers only.
    assert!(board.candidates(1).contains(4));
    assert!(!next.candidates(1).contains(4));
    assert!(next.candidates(12).contains(4) || board.candidates(12) == next.candidates(12));
}

#[test]
fn place_reports_each_kind_of_conflict() {
    let board: Board = EASY.parse().unwrap();
    assert_eq!(board.place(81, 1), Err(Conflict::CellOutOfRange { cell: 81, cells: 81 }));
    assert_eq!(board.place(0, 0), Err(Conflict::DigitOutOfRange { digit: 0, side: 9 }));
    assert_eq!(board.place(0, 10), Err(Conflict::DigitOutOfRange { digit: 10, side: 9 }));
    assert_eq!(board.place(2, 3), Err(Conflict::Filled { row: 0, col: 2, digit: 3 }));
    // Row 1 has a 6 at column 7.
    assert_eq!(
        board.place(0, 6),
        Err(Conflict::Repeated { digit: 6, region: Region::Row, row: 0, col: 0, peer_row: 0, peer_col: 6 })
    );
    // The 9 at row 2, column 1 shares the column and the box; columns are named first.
    assert!(matches!(board.place(0, 9), Err(Conflict::Repeated { region: Region::Column, peer_row: 1, .. })));
    assert!(matches!(board.place(0, 7), Err(Conflict::Repeated { region: Region::Column, peer_row: 4, .. })));
    assert!(matches!(board.place(1, 1), Err(Conflict::Repeated { region: Region::Box, peer_row: 2, peer_col: 2, .. })));
    let message = board.place(0, 6).unwrap_err().to_string();
    assert_eq!(message, "6 cannot go at row 1, column 1: the row already has it at row 1, column 7");
}

#[test]
fn candidates_are_what_no_peer_holds() {
    let board: Board = HARDEST.parse().unwrap();
    for cell in 0..81 {
        let expected: Vec<u8> = if board.get(cell).is_some() {
            vec![]
        } else {
            let (r, c) = (cell / 9, cell % 9);
            (1..=9)
                .filter(|&d| {
                    (0..81).all(|p| {
                        let (pr, pc) = (p / 9, p % 9);
                        let peer = p != cell && (pr == r || pc == c || (pr / 3 == r / 3 && pc / 3 == c / 3));
                        !peer || board.get(p) != Some(d)
                    })
                })
                .collect()
        };
        let got = board.candidates(cell);
        assert_eq!(got.iter().collect::<Vec<_>>(), expected, "cell {cell}");
        assert_eq!(got.len(), expected.len());
        assert_eq!(got.iter().len(), expected.len(), "exact size_hint");
        assert_eq!(got.iter().rev().collect::<Vec<_>>(), expected.iter().rev().copied().collect::<Vec<_>>());
    }
}

/// From the forum's hardest list: propagation alone does not solve it.
const NEEDS_GUESS: &str = "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";

#[test]
fn children_branch_on_the_cell_with_fewest_candidates() {
    let board: Board = NEEDS_GUESS.parse().unwrap();
    // A parsed board is propagated once, then branches.
    let settled = board.propagated().unwrap();
    assert!(!settled.is_complete());
    let children = board.children();
    let cell = children.cell().expect("an unsolved board has children");
    let fewest = (0..81).filter(|&c| settled.get(c).is_none()).map(|c| settled.candidates(c).len()).min().unwrap();
    assert_eq!(fewest, 2);
    assert_eq!(settled.candidates(cell).len(), fewest);
    assert_eq!(children.remaining(), settled.candidates(cell));
    let kids: Vec<Board> = children.collect();
    assert!(!kids.is_empty() && kids.len() <= fewest);
    for kid in &kids {
        // Each child fills the branch cell and keeps every cell the settled board had.
        assert!(kid.get(cell).is_some());
        assert!(settled.as_str().bytes().zip(kid.as_str().bytes()).all(|(g, k)| g == b'.' || g == k));
    }
    // A settled board branches on its own fewest-candidate cell.
    assert_eq!(kids[0].children().cell().map(|c| kids[0].candidates(c).len()), Some(2));
}

#[test]
fn a_board_solved_by_propagation_has_itself_completed_as_its_one_child() {
    let board: Board = HARDEST.parse().unwrap();
    let children = board.children();
    assert_eq!(children.cell(), None);
    assert_eq!(children.size_hint(), (1, Some(1)));
    let kids: Vec<Board> = children.collect();
    assert_eq!(kids.len(), 1);
    assert!(kids[0].is_complete());
    assert_eq!(Some(&kids[0]), board.solve().as_ref());
}

#[test]
fn children_are_propagated_with_naked_and_hidden_singles() {
    let board: Board = NEEDS_GUESS.parse().unwrap();
    for kid in board.children() {
        for cell in 0..81 {
            if kid.get(cell).is_none() {
                // No naked single is left...
                assert!(kid.candidates(cell).len() >= 2, "naked single left at {cell} in {kid}");
            }
        }
        // ...and no hidden single: every missing digit has two places in
        // each row, column and box.
        for i in 0..9 {
            let units: [Vec<usize>; 3] = [
                (0..9).map(|j| i * 9 + j).collect(),
                (0..9).map(|j| j * 9 + i).collect(),
                (0..9).map(|j| (i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3).collect(),
            ];
            for unit in &units {
                for d in 1..=9u8 {
                    if unit.iter().all(|&c| kid.get(c) != Some(d)) {
                        let places = unit.iter().filter(|&&c| kid.candidates(c).contains(d)).count();
                        assert!(places >= 2, "hidden single {d} in {unit:?} of {kid}");
                    }
                }
            }
        }
    }
}

#[test]
fn children_skip_exactly_the_candidates_that_propagate_to_a_contradiction() {
    // The Norvig-hardest puzzle with a wrong given: every branch dies somewhere.
    let broken: Board =
        "2.53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..".parse().unwrap();
    let mut skipped = 0;
    for node in lazydoku::search::dfs(broken, Board::children).take(500) {
        let mut children = node.children();
        let Some(cell) = children.cell() else { continue };
        let tried = children.remaining();
        assert_eq!(children.size_hint(), (0, Some(tried.len())));
        let kept: Vec<u8> = children.by_ref().map(|k| k.get(cell).unwrap()).collect();
        assert_eq!(children.next(), None, "fused");
        assert_eq!(children.size_hint(), (0, Some(0)));
        for digit in tried {
            let survives = node.place(cell, digit).ok().and_then(|b| b.propagated()).is_some();
            assert_eq!(kept.contains(&digit), survives, "digit {digit} at {cell} of {node}");
            skipped += usize::from(!survives);
        }
    }
    assert!(skipped > 0, "the search of an unsolvable puzzle meets contradictions");
}

#[test]
fn children_are_the_full_propagation_of_each_guess() {
    // A child propagates incrementally, from what its guess changed on a
    // settled parent. It must be the board that placing the digit and
    // propagating everything gives, candidates and all, and a skipped digit
    // must be one that full propagation finds contradictory. The nodes come
    // from near the leaves of the trees of a puzzle with a million
    // solutions, of puzzles with several, and of the 1106 hardest.
    let mut puzzles = vec![common::load("million.txt")[0].clone()];
    puzzles.extend(common::load("puzzles7_serg_benchmark").into_iter().take(300));
    puzzles.extend(common::load("puzzles6_forum_hardest_1106").into_iter().take(100));
    let (mut compared, mut skipped) = (0, 0);
    for puzzle in &puzzles {
        let puzzle: Board = puzzle.parse().unwrap();
        let nodes = lazydoku::search::dfs(puzzle, Board::children).take(20_000);
        for node in nodes.filter(|n| (1..=14).contains(&n.empty_cells())).take(1_000) {
            let mut children = node.children();
            let Some(cell) = children.cell() else { continue };
            let tried = children.remaining();
            let kept: Vec<Board> = children.by_ref().collect();
            for digit in tried {
                let full = node.place(cell, digit).unwrap().propagated();
                let child = kept.iter().find(|k| k.get(cell) == Some(digit));
                match (&full, child) {
                    (Some(full), Some(child)) => {
                        assert_eq!(full, child, "digit {digit} at {cell} of {node}");
                        for c in 0..81 {
                            assert_eq!(
                                full.candidates(c),
                                child.candidates(c),
                                "cell {c}: {digit} at {cell} of {node}"
                            );
                        }
                        compared += 1;
                    }
                    (None, None) => skipped += 1,
                    _ => panic!("digit {digit} at {cell} of {node}: full propagation {full:?}, child {child:?}"),
                }
            }
        }
    }
    assert!(compared > 1_000 && skipped > 100, "{compared} children compared, {skipped} contradictions");
}

#[test]
fn a_complete_board_has_no_children_and_is_its_own_solution() {
    let solved: Board = EASY.parse::<Board>().unwrap().solve().unwrap();
    assert!(solved.is_complete());
    assert_eq!(solved.children().count(), 0);
    assert_eq!(solved.children().cell(), None);
    assert_eq!(solved.solutions().collect::<Vec<_>>(), std::slice::from_ref(&solved));
}

#[test]
fn children_do_not_borrow_their_parent() {
    let children = {
        let board: Board = HARDEST.parse().unwrap();
        board.children()
    };
    assert!(children.count() >= 1);
}

#[test]
fn propagated_fills_singles_or_reports_a_contradiction() {
    let board: Board = EASY.parse().unwrap();
    let p = board.propagated().unwrap();
    assert!(p.is_complete(), "singles alone solve this puzzle");
    assert_eq!(Some(p), board.solve());
    let broken: Board = ("12345678.".to_string() + &".".repeat(71) + "9").parse().unwrap();
    assert_eq!(broken.propagated(), None);
}

#[test]
fn solutions_are_the_depth_first_search_filtered_for_complete_boards() {
    // `solutions()` names its successors with a type of its own and filters
    // by hand, for speed; it must still be exactly the public depth-first
    // search over `Board::children` filtered for complete boards, in order.
    let mut puzzles: Vec<String> = common::load("puzzles7_serg_benchmark").into_iter().take(200).collect();
    puzzles.push(common::load("million.txt")[0].clone());
    puzzles.push("12..34..........".to_owned());
    let mut total = 0;
    for puzzle in &puzzles {
        let board: Board = puzzle.parse().unwrap();
        let ours: Vec<Board> = board.solutions().take(500).collect();
        let reference: Vec<Board> =
            lazydoku::search::dfs(board, Board::children).filter(Board::is_complete).take(500).collect();
        assert_eq!(ours, reference, "{puzzle}");
        total += ours.len();
    }
    assert!(total > 1_000, "{total} solutions compared");
}

#[test]
fn solutions_within_a_budget_are_the_first_nodes_of_the_search() {
    // `solutions()` builds each child where it is expanded; under a node
    // budget it must still stop exactly where the public search would, and
    // a count taken from where it stopped must find the rest.
    let board: Board = common::load("million.txt")[0].parse().unwrap();
    let nodes: Vec<Board> = lazydoku::search::dfs(board.clone(), Board::children).take(5_000).collect();
    let mut solutions_seen = 0;
    for budget in [1, 2, 3, 17, 64, 100, 999, 4_321, 5_000] {
        let mut within = board.solutions().within(Budget::nodes(budget));
        let ours: Vec<Board> = within.by_ref().collect();
        let expected: Vec<Board> =
            nodes[..usize::try_from(budget).unwrap()].iter().filter(|b| b.is_complete()).cloned().collect();
        assert_eq!(ours, expected, "budget {budget}");
        assert_eq!(within.exhausted().map(|e| e.nodes()), Some(budget));
        solutions_seen += ours.len();
    }
    assert!(solutions_seen > 1_000, "only {solutions_seen} solutions: the check would prove little");

    // A puzzle with fewer solutions: the million's with its first solution's
    // first eleven cells given.
    let first = board.solutions().next().unwrap();
    let text: String = board
        .as_str()
        .chars()
        .zip(first.as_str().chars())
        .enumerate()
        .map(|(i, (p, s))| if i < 11 { s } else { p })
        .collect();
    let fewer: Board = text.parse().unwrap();
    let total = fewer.count_solutions(usize::MAX);
    assert!((100..100_000).contains(&total), "{total} solutions");
    for taken in [0, 1, 5, total / 2, total - 1, total] {
        let mut all = fewer.solutions();
        assert_eq!(all.by_ref().take(taken).count(), taken);
        assert_eq!(all.count(), total - taken, "after {taken}");
    }
}

#[test]
fn solutions_folded_are_the_solutions_one_by_one() {
    // `fold`, and `for_each`, `last` and the sums built on it, walk the
    // search in a loop of their own rather than through `next`: they must
    // hand out the same boards in the same order, from a fresh iterator,
    // from one partly used, and within a budget.
    let push = |mut all: Vec<Board>, board: Board| {
        all.push(board);
        all
    };
    let million: Board = common::load("million.txt")[0].parse().unwrap();
    let mut boards: Vec<Board> =
        common::load("puzzles7_serg_benchmark").iter().take(20).map(|line| line.parse().unwrap()).collect();
    boards.push("12..34..........".parse().unwrap());
    boards.push(Rules::new(Shape::new(2, 3)).with_cage(3, &[0, 1]).unwrap().parse(&".".repeat(36)).unwrap());
    boards.push(million.clone());
    let mut compared = 0;
    for board in &boards {
        for budget in [1, 3, 100, 5_000] {
            let one_by_one: Vec<Board> = board.solutions().within(Budget::nodes(budget)).collect();
            let folded = board.solutions().within(Budget::nodes(budget)).fold(Vec::new(), push);
            assert_eq!(folded, one_by_one, "{board}, budget {budget}");
            compared += folded.len();
        }
        let mut partly = board.solutions().within(Budget::nodes(5_000));
        let first: Vec<Board> = partly.by_ref().take(3).collect();
        let rest = partly.fold(first, push);
        assert_eq!(rest, board.solutions().within(Budget::nodes(5_000)).collect::<Vec<_>>(), "{board}");
    }
    assert!(compared > 3_000, "only {compared} solutions compared");

    // Every solution of the million, folded and one by one: the same count,
    // and the same sum of digits in each cell.
    let add = |(count, mut digits): (u64, [u64; 81]), solution: Board| {
        for (cell, sum) in digits.iter_mut().enumerate() {
            *sum += u64::from(solution.get(cell).unwrap());
        }
        (count + 1, digits)
    };
    let folded = million.solutions().fold((0, [0; 81]), add);
    let mut one_by_one = (0, [0; 81]);
    for solution in million.solutions() {
        one_by_one = add(one_by_one, solution);
    }
    assert_eq!(folded.0, 1_039_784);
    assert_eq!(folded, one_by_one);
}

#[test]
fn counts_within_a_node_budget_are_the_public_counter_s() {
    // The count walks its search in place, with fewer copies than the
    // public `Counter`; under a node budget (which counts every complete
    // board, none directly) it must visit the same nodes and count the same.
    let boards: Vec<Board> =
        [common::load("million.txt")[0].clone(), HARDEST.to_owned(), "12..34..........".to_owned()]
            .iter()
            .map(|line| line.parse().unwrap())
            .collect();
    let mut counted = 0;
    for board in &boards {
        for budget in [1, 2, 5, 40, 333, 2_000] {
            for limit in [1, 2, 7, usize::MAX] {
                let ours = board.count_solutions_within(limit, Budget::nodes(budget));
                let mut public = lazydoku::search::dfs(board.clone(), Board::children)
                    .counter(Board::is_complete)
                    .within(Budget::nodes(budget));
                let found = public.up_to(limit);
                assert_eq!(ours, (found, public.exhausted()), "{board}, budget {budget}, limit {limit}");
                counted += found;
            }
        }
    }
    assert!(counted > 1_000, "only {counted} solutions counted: the check would prove little");
}

#[test]
fn solutions_are_fused_and_cloneable() {
    let board: Board = "12..34..........".parse().unwrap();
    let mut all = board.solutions();
    let mut copy = all.clone();
    assert_eq!(all.by_ref().count(), 12);
    assert_eq!(all.next(), None);
    assert_eq!(copy.next(), board.solutions().next());
    assert!(format!("{copy:?}").starts_with("Solutions"));
}

#[test]
fn equal_text_means_equal_boards() {
    use std::collections::HashSet;
    let a: Board = EASY.parse().unwrap();
    let b: Board = EASY.replace('.', "0").parse().unwrap();
    assert_eq!(a, b);
    let set: HashSet<Board> = [a.clone(), b].into_iter().collect();
    assert_eq!(set.len(), 1);
    assert_ne!(a, a.place(0, 4).unwrap());
}

#[test]
fn solutions_in_order_on_several_threads_are_the_solutions_in_their_order() {
    // Threads that walk subtrees and give the next ones to idle threads,
    // read back in order, give the boards of `solutions()` one for one:
    // boards of many solutions (more than the threads may hold unread),
    // few, one and none, on both engines and with rules beyond the
    // classic ones, in batches of one, of seven and of sixty-four.
    let million: Board = common::load("million.txt")[0].parse().unwrap();
    let mut boards: Vec<Board> =
        common::load("puzzles7_serg_benchmark").iter().take(5).map(|line| line.parse().unwrap()).collect();
    boards.push(million.clone());
    boards.push(Board::empty(Shape::NINE));
    boards.push(Board::empty(Shape::new(2, 2)));
    boards.push(Board::empty(Shape::new(2, 3)));
    boards.push(EASY.parse().unwrap());
    boards.push(EASY.parse::<Board>().unwrap().solve().unwrap());
    // No place for a 3 in the first row.
    boards.push("12.....3..3.....".parse().unwrap());
    boards.push(common::load("hard16.txt")[0].parse().unwrap());
    boards.push(Rules::new(Shape::new(2, 3)).with_cage(3, &[0, 1]).unwrap().parse(&".".repeat(36)).unwrap());
    boards.push(Rules::new(Shape::NINE).with_windows().parse(&".".repeat(81)).unwrap());
    for board in &boards {
        let expected: Vec<Board> = board.solutions().take(30_000).collect();
        for (threads, size) in [(1, 64), (2, 1), (2, 7), (2, 64), (3, 64), (8, 7)] {
            let batches = board.par_solutions_in_order(threads, move |batch: &mut Vec<Board>, solution| {
                batch.push(solution);
                batch.len() == size
            });
            let mut in_order = Vec::new();
            for (batch, count) in batches {
                assert!(count > 0 && count == batch.len() && count <= size, "{board}: a batch of {count}");
                in_order.extend(batch);
                // Boards of more solutions than are compared are read a
                // batch past them; the others to their end.
                if expected.len() == 30_000 && in_order.len() >= 30_000 {
                    break;
                }
            }
            in_order.truncate(30_000);
            assert_eq!(in_order.len(), expected.len(), "{board} on {threads} threads");
            assert!(in_order == expected, "{board} on {threads} threads: another order");
        }
    }
    // Every solution of a board of a million, to the end, written out.
    let lines = million.par_solutions_in_order(2, |text: &mut String, solution| {
        text.push_str(solution.as_str());
        text.push('\n');
        text.len() > 1 << 16
    });
    let (count, bytes) = lines.fold((0, 0), |(count, bytes), (text, k)| (count + k, bytes + text.len()));
    assert_eq!((count, bytes), (1_039_784, 1_039_784 * 82));
    // Dropped with the threads far from done: nothing waits on them.
    let mut some = Board::empty(Shape::NINE).par_solutions_in_order(2, |batch: &mut Vec<Board>, solution| {
        batch.push(solution);
        batch.len() == 4
    });
    assert!(some.nth(10).is_some_and(|(batch, _)| batch.iter().all(Board::is_complete)));
    drop(some);
}

#[test]
fn parallel_solutions_of_sparse_trees_come_from_the_guided_walk() {
    // Beyond classic 9x9, a tree whose first 2,000 nodes hold fewer than
    // one solution in eight is walked by the calling thread as
    // `solutions()` walks it, guided by clause learning, and no worker is
    // started: a 16x16 killer puzzle of one solution. A tree thick with
    // solutions goes to the workers.
    let killer = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/killer16.txt")).unwrap();
    let sparse: Board = killer.lines().find(|l| !l.starts_with('#')).unwrap().parse().unwrap();
    let thick = Board::empty(Shape::new(2, 3));
    let add = |batch: &mut Vec<Board>, solution| {
        batch.push(solution);
        batch.len() == 16
    };
    for (board, workers, take) in [(&sparse, false, usize::MAX), (&thick, true, 5_000)] {
        let mut batches = board.par_solutions_in_order(2, add);
        let mut in_order: Vec<Board> = batches.next().map(|(batch, _)| batch).unwrap_or_default();
        let started = !format!("{batches:?}").contains("workers: 0");
        assert_eq!(started, workers, "{board}: {batches:?}");
        for (batch, _) in batches.by_ref() {
            in_order.extend(batch);
            if in_order.len() >= take {
                break;
            }
        }
        in_order.truncate(take);
        let expected: Vec<Board> = board.solutions().take(take).collect();
        assert!(in_order == expected, "{board}: {} solutions against {}", in_order.len(), expected.len());
    }
    // In no order, the sparse tree's solutions come from the guided walk.
    let unordered: Vec<Board> = rayon::iter::ParallelIterator::collect(sparse.par_solutions());
    assert_eq!(unordered, sparse.solutions().collect::<Vec<_>>());
}
