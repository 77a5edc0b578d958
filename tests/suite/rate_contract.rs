//! The contract from the issue on making, rating, explaining and
//! canonicalizing puzzles, exactly as written there.

use lazydoku::generate::{Generator, Symmetry};
use lazydoku::{Board, Rules, Shape};

#[test]
fn contract() {
    let generator = Generator::new(Rules::new(Shape::NINE)).seed(7).symmetry(Symmetry::Rotate180).minimal();
    let puzzles: Vec<Board> = generator.puzzles().take(3).collect();
    assert!(puzzles.iter().all(Board::is_unique));
    assert_eq!(generator.puzzles().take(3).collect::<Vec<_>>(), puzzles); // seeded: the same again
    let plain = Generator::new(Rules::new(Shape::NINE)).seed(7).symmetry(Symmetry::None).minimal();
    assert!(plain.puzzles().next().is_some());

    let puzzle = &puzzles[0];
    let rating = puzzle.rate();
    println!("{} guesses", rating.guesses());
    let solution = puzzle.solve().unwrap();
    for step in puzzle.explain() {
        println!("{step}");
        assert!(step.placements().into_iter().all(|(cell, digit)| solution.get(cell) == Some(digit)));
        assert!(step.eliminations().into_iter().all(|(cell, digit)| solution.get(cell) != Some(digit)));
    }
    assert_eq!(puzzle.hint().map(|s| s.to_string()), puzzle.explain().next().map(|s| s.to_string()));
    assert_eq!(puzzle.transformed(12345).canonical(), puzzle.canonical());
}
