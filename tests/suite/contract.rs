//! The contract from the core issue, exactly as written there.

#![expect(clippy::filter_next, reason = "the contract is kept exactly as the issue wrote it")]

use lazydoku::{Board, search};

#[test]
fn contract() -> Result<(), Box<dyn std::error::Error>> {
    let board: Board = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..".parse()?;
    let solved = board.solve().expect("solvable");
    assert!(solved.is_complete());
    assert_eq!(board.count_solutions(2), 1);
    assert!(board.is_unique());
    assert_eq!(search::dfs(board.clone(), Board::children).find(Board::is_complete), Some(solved.clone()));
    assert_eq!(search::bfs(board.clone(), Board::children).find(Board::is_complete), Some(solved.clone()));
    let fewest_empty_first =
        search::best_first(board.clone(), Board::children, |b: &Board| b.as_str().matches('.').count());
    assert_eq!(fewest_empty_first.filter(Board::is_complete).next(), Some(solved));

    // The empty board has about 6.7e21 solutions. Laziness makes taking ten instant.
    let empty: Board = ".".repeat(81).parse()?;
    let ten: Vec<Board> = empty.solutions().take(10).collect();
    assert_eq!(ten.len(), 10);
    Ok(())
}
