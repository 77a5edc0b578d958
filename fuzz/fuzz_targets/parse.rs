//! The parser with every option: the first byte picks the options, the rest
//! is the text. Whatever parses is solved within a budget and each solution
//! rendered in the puzzle's layout.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lazydoku::format::Parser;
use lazydoku::search::Budget;
use lazydoku::Shape;

const SHAPES: [(usize, usize); 10] = [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (2, 5), (3, 4), (4, 4), (4, 5), (5, 5)];

fuzz_target!(|data: &[u8]| {
    let Some((&options, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let mut parser = Parser::new().diagonals(options & 1 != 0).hex(options & 2 != 0);
    if options & 4 != 0 {
        let (rows, cols) = SHAPES[usize::from(options >> 4) % SHAPES.len()];
        parser = parser.shape(Shape::new(rows, cols));
    }
    if let Ok((board, layout)) = parser.parse(text) {
        for solution in board.solutions().within(Budget::nodes(200)).take(2) {
            assert!(solution.is_complete());
            let _ = layout.render(&solution);
        }
    }
    let _ = parser.parse_board(text);
});
