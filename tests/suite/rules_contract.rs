//! The contract from the rules issue, exactly as written there.

use lazydoku::{Board, Rules, Shape};

#[test]
fn rules_contract() -> Result<(), Box<dyn std::error::Error>> {
    let classic = Rules::new(Shape::NINE);
    let boxes = "111222333111222333111222333444555666444555666444555666777888999777888999777888999";
    let same = Rules::new(Shape::NINE).with_regions(boxes)?;
    let puzzle = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    assert_eq!(same.parse(puzzle)?.solve(), classic.parse(puzzle)?.solve());

    // Windoku: four extra 3x3 windows.
    let hyper = Rules::new(Shape::NINE).with_windows();
    let grid: Board = hyper.parse(&".".repeat(81))?.solve().expect("windoku grids exist");
    assert!(grid.is_complete());

    // Killer: a two-cell cage summing to 3 holds 1 and 2.
    let killer = Rules::new(Shape::new(2, 2)).with_cage(3, &[0, 1])?;
    assert!(killer.parse(&".".repeat(16))?.solutions().all(|s| s.get(0).unwrap() + s.get(1).unwrap() == 3));
    assert!(Rules::new(Shape::new(2, 2)).with_cage(11, &[0, 1]).is_err()); // no two of 1..4 make 11
    assert!(Rules::new(Shape::new(2, 2)).with_regions("11112222333344").is_err()); // 14 labels, 16 cells
    Ok(())
}
