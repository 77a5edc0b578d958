//! The `Board` API on boards read from the input: placing digits, children,
//! counting and enumerating within a budget, and agreement between them.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lazydoku::search::Budget;
use lazydoku::Board;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (puzzle, moves) = text.split_once('\n').unwrap_or((text, ""));
    let Ok(mut board) = puzzle.parse::<Board>() else { return };
    let cells = board.as_str().len();
    for pair in moves.as_bytes().chunks(2) {
        let [cell, digit] = pair else { break };
        if let Ok(next) = board.place(usize::from(*cell) % cells, digit % 26) {
            board = next;
        }
    }
    let budget = Budget::nodes(300);
    let mut solutions = board.solutions().within(budget);
    let found: Vec<Board> = solutions.by_ref().take(3).collect();
    for solution in &found {
        assert!(solution.is_complete());
        assert!(board.cells().zip(solution.cells()).all(|(given, solved)| given.is_none() || given == solved));
    }
    let (count, stopped) = board.count_solutions_within(3, budget);
    if stopped.is_none() && solutions.exhausted().is_none() {
        assert_eq!(count, found.len());
    }
    for child in board.children().take(4) {
        assert_eq!(child.shape(), board.shape());
    }
});
