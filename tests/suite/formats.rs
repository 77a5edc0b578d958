//! Every input format reads to the same board; every malformed input gets
//! its own error; solutions print back in their puzzle's format.

use lazydoku::format::{LayoutKind, Parser};
use lazydoku::{Board, ParseError, Region, Shape};

const LINE: &str = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

fn ruby_grid() -> String {
    "\
0 0 3 | 0 2 0 | 6 0 0
9 0 0 | 3 0 5 | 0 0 1
0 0 1 | 8 0 6 | 4 0 0
------+-------+------
0 0 8 | 1 0 2 | 9 0 0
7 0 0 | 0 0 0 | 0 0 8
0 0 6 | 7 0 8 | 2 0 0
------+-------+------
0 0 2 | 6 0 9 | 5 0 0
8 0 0 | 2 0 3 | 0 0 9
0 0 5 | 0 1 0 | 3 0 0
"
    .to_owned()
}

fn go_grid() -> String {
    LINE.as_bytes()
        .chunks(9)
        .map(|row| {
            row.iter()
                .map(|&b| if b == b'.' { "_".to_owned() } else { char::from(b).to_string() })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn matrix(empty: &str) -> String {
    let rows: Vec<String> = LINE
        .as_bytes()
        .chunks(9)
        .map(|row| {
            let cells: Vec<String> =
                row.iter().map(|&b| if b == b'.' { empty.to_owned() } else { char::from(b).to_string() }).collect();
            format!("[{}]", cells.join(", "))
        })
        .collect();
    format!("[{}]", rows.join(",\n "))
}

#[test]
fn every_format_reads_to_the_same_board() {
    let expected: Board = LINE.parse().unwrap();
    let inputs = [
        LINE.to_owned(),
        LINE.replace('.', "0"),
        LINE.replace('.', "_"),
        format!("{LINE}   # a trailing comment"),
        format!("\n# a comment line\n{LINE}\n\n"),
        ruby_grid(),
        ruby_grid().replace('0', "."),
        go_grid(),
        format!("{expected:#}"),
        LINE.as_bytes().chunks(9).map(|r| String::from_utf8_lossy(r).into_owned()).collect::<Vec<_>>().join("\n"),
        matrix("null"),
        matrix("nil"),
        matrix("0"),
        format!(
            "[{}]",
            LINE.chars().map(|c| if c == '.' { "0".to_owned() } else { c.to_string() }).collect::<Vec<_>>().join(",")
        ),
        ruby_grid().replace('\n', "\r\n"),
    ];
    for input in &inputs {
        let board: Board = input.parse().unwrap_or_else(|e| panic!("{e}\n{input}"));
        assert_eq!(board, expected, "{input}");
    }
}

#[test]
fn each_format_is_recognised_as_its_kind() {
    let kind = |text: &str| Parser::new().parse(text).unwrap().1.kind();
    assert_eq!(kind(LINE), LayoutKind::Line);
    assert_eq!(kind(&ruby_grid()), LayoutKind::Grid);
    assert_eq!(kind(&go_grid()), LayoutKind::Grid);
    assert_eq!(kind(&matrix("nil")), LayoutKind::Matrix);
}

#[test]
fn a_solution_prints_in_the_format_its_puzzle_came_in() {
    let solution = "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
    let board: Board = LINE.parse().unwrap();
    assert_eq!(board.solve().unwrap().as_str(), solution);

    let render = |text: &str| {
        let (board, layout) = Parser::new().parse(text).unwrap();
        layout.render(&board.solve().unwrap())
    };
    assert_eq!(render(LINE), solution);
    assert_eq!(render(&format!("{LINE} # easy")), format!("{solution} # easy"));
    let grid = render(&ruby_grid());
    assert!(grid.starts_with("4 8 3 | 9 2 1 | 6 5 7\n9 6 7 | 3 4 5 | 8 2 1\n"), "{grid}");
    assert_eq!(grid.lines().nth(3), Some("------+-------+------"));
    let go = render(&go_grid());
    assert!(go.starts_with("4 8 3 9 2 1 6 5 7\n"), "{go}");
    assert_eq!(go.lines().count(), 9);
    let m = render(&matrix("nil"));
    assert!(m.starts_with("[[4, 8, 3, 9, 2, 1, 6, 5, 7],\n [9, 6, 7,"), "{m}");
    // And the rendered text reads back to the same solution.
    for text in [grid, go, m] {
        assert_eq!(text.parse::<Board>().unwrap().as_str(), solution);
    }
}

#[test]
fn rendering_an_unsolved_board_keeps_each_empty_mark() {
    let (board, layout) = Parser::new().parse(&matrix("nil")).unwrap();
    assert_eq!(layout.render(&board), matrix("nil"));
    let (board, layout) = Parser::new().parse(&go_grid()).unwrap();
    assert_eq!(layout.render(&board), go_grid());
}

#[test]
fn display_prints_the_line_and_the_alternate_grid() {
    let board: Board = LINE.parse().unwrap();
    assert_eq!(board.to_string(), LINE);
    let grid = format!("{board:#}");
    assert_eq!(grid, ruby_grid().replace('0', "."));
    assert_eq!(grid.parse::<Board>().unwrap(), board);
}

fn err(text: &str) -> ParseError {
    text.parse::<Board>().expect_err(text)
}

#[test]
fn each_kind_of_malformed_input_gets_its_own_error() {
    assert_eq!(err(""), ParseError::Empty);
    assert_eq!(err("  \n# only a comment\n\n"), ParseError::Empty);
    assert_eq!(err(&LINE[1..]), ParseError::CellCount { found: 80, line: 1 });
    assert_eq!(err(&format!("{LINE}.")), ParseError::CellCount { found: 82, line: 1 });
    assert_eq!(err(&LINE.replacen('.', "x", 1)), ParseError::InvalidSymbol { ch: 'x', line: 1, column: 1, side: 9 });
    assert_eq!(err(&LINE.replacen('.', "A", 3)), ParseError::InvalidSymbol { ch: 'A', line: 1, column: 1, side: 9 });
    // Two 3s in row 1: the error names both cells, and where the second is.
    // Givens are read in order, so the 3 typed into column 1 comes first.
    assert_eq!(
        err(&LINE.replacen('.', "3", 1)),
        ParseError::Repeated { digit: 3, region: Region::Row, first: (0, 0), second: (0, 2), line: 1, column: 3 }
    );
    // Two 9s in column 1, in a grid: the position is the grid's line and column.
    assert_eq!(
        err(&ruby_grid().replacen("0 0 1 | 8", "9 0 1 | 8", 1)),
        ParseError::Repeated { digit: 9, region: Region::Column, first: (1, 0), second: (2, 0), line: 3, column: 1 }
    );
    assert!(matches!(
        err(&ruby_grid().replacen("0 0 1 | 8", "0 9 1 | 8", 1)),
        ParseError::Repeated { digit: 9, region: Region::Box, .. }
    ));
    let ruby = ruby_grid();
    let short_row = ruby.replacen("9 0 0 | 3 0 5 | 0 0 1", "9 0 0 | 3 0 5 | 0 0", 1);
    assert_eq!(err(&short_row), ParseError::RowLength { line: 2, found: 8, expected: 9 });
    let missing_row = ruby.replacen("9 0 0 | 3 0 5 | 0 0 1\n", "", 1);
    assert_eq!(err(&missing_row), ParseError::RowCount { found: 8, expected: 9 });
    let bad_char = ruby.replacen("9 0 0 | 3", "9 0 0 | ?", 1);
    assert_eq!(err(&bad_char), ParseError::InvalidSymbol { ch: '?', line: 2, column: 9, side: 9 });
    assert_eq!(
        err("1234567\n1234567\n1234567\n1234567\n1234567\n1234567\n1234567"),
        ParseError::UnsupportedSide { side: 7 }
    );
    assert!(matches!(err("[[1, 2], [3"), ParseError::Matrix { found: None, .. }));
    assert!(matches!(err("[[1; 2]]"), ParseError::Matrix { found: Some(';'), line: 1, column: 4, .. }));
    assert!(matches!(err(&matrix("nope")), ParseError::Matrix { found: Some('n'), .. }));
    assert!(matches!(err(&format!("{} extra", matrix("0"))), ParseError::Matrix { found: Some('e'), .. }));
    assert_eq!(
        err(&matrix("0").replacen('3', "10", 1)),
        ParseError::ValueOutOfRange { value: 10, side: 9, line: 1, column: 9 }
    );
    assert_eq!(
        err(&matrix("0").replacen('3', "99999999999999999999999", 1)),
        ParseError::ValueOutOfRange { value: u64::MAX, side: 9, line: 1, column: 9 }
    );
    let mut short = matrix("0");
    short = short.replacen("[0, 0, 3, 0, 2, 0, 6, 0, 0]", "[0, 0, 3, 0, 2, 0, 6, 0]", 1);
    assert_eq!(err(&short), ParseError::RowLength { line: 1, found: 8, expected: 9 });
}

#[test]
fn error_messages_say_what_and_where_and_how_to_fix() {
    assert_eq!(
        err(&LINE.replacen('.', "x", 1)).to_string(),
        "line 1, column 1: 'x' is not a cell of a 9x9 board; use 1-9 for digits and '.', '0' or '_' for empty"
    );
    assert_eq!(
        err(&LINE.replacen('.', "3", 1)).to_string(),
        "line 1, column 3: 3 at row 1, column 3 repeats the 3 at row 1, column 1 in the same row"
    );
    let msg = err(&LINE[1..]).to_string();
    assert!(
        msg.starts_with(
            "line 1: a one-line puzzle has 80 cells, but it needs the square of a board side: one of 16, 36, 64, 81"
        ),
        "{msg}"
    );
    assert_eq!(err(&LINE[1..]).position(), Some((1, 1)));
    // One of a thing is one thing, not one things.
    assert!(err("7").to_string().starts_with("line 1: a one-line puzzle has 1 cell, but"), "{}", err("7"));
    assert_eq!(
        err("1 2 3 4\n1 2 3 4\n1\n1 2 3 4").to_string(),
        "line 3: this row has 1 cell where the other rows have 4; every row needs the same number"
    );
    assert_eq!(
        err("1\n2").to_string(),
        "the grid has 2 rows but its rows have 1 cell; a board needs as many rows as columns"
    );
    assert_eq!(
        lazydoku::Rules::new(Shape::new(2, 2)).with_regions("1").unwrap_err().to_string(),
        "a region map has 1 label; it needs one per cell, 16"
    );
}

#[test]
fn a_shape_can_be_required_and_separators_must_agree() {
    let six = "1.....\n......\n......\n......\n......\n.....1";
    assert_eq!(Board::parse_with(six, Shape::new(2, 3)).unwrap().shape(), Shape::new(2, 3));
    assert_eq!(Board::parse_with(six, Shape::new(3, 2)).unwrap().shape(), Shape::new(3, 2));
    assert_eq!(
        Board::parse_with(six, Shape::NINE),
        Err(ParseError::ShapeMismatch { expected: Shape::NINE, found: (2, 3) })
    );
    let boxed = "1 . . | . . .\n. . . | . . .\n------+------\n. . . | . . .\n. . . | . . .\n------+------\n. . . | . . .\n. . . | . . 1";
    assert_eq!(boxed.parse::<Board>().unwrap().shape(), Shape::new(2, 3));
    let tall = "1 . | . . | . .\n. . | . . | . .\n. . | . . | . .\n--------+------\n. . | . . | . .\n. . | . . | . .\n. . | . . | . 1";
    assert_eq!(tall.parse::<Board>().unwrap().shape(), Shape::new(3, 2));
    assert_eq!(
        Board::parse_with(tall, Shape::new(2, 3)),
        Err(ParseError::ShapeMismatch { expected: Shape::new(2, 3), found: (3, 2) })
    );
}

#[test]
fn garbage_never_panics() {
    let samples = [
        "[",
        "]",
        "[[",
        "[[]]",
        "[]",
        "[[[1]]]",
        "|",
        "-----",
        "+-+-+",
        "\n\n\n",
        "\u{feff}",
        "[[null]]",
        "[1,2,3,4]",
        "[[1,2],[3,4]]",
        "#",
        "[#]",
        "1\n2",
        "12\n34",
        "[,]",
        "[[,]]",
        "[1,,2]",
        "rules:",
        "rules:windoku",
        "................ rules:,,",
        "................ rules:\u{e9}",
        "\u{e9}............... rules:windoku",
        "1 .\n. .\nrules windoku",
        "1 . . .\n. . . .\n. . . .\n. . . .\nrules ,",
        "1 . . .\n. . . .\n. . . .\n. . . .\nrules windoku\nrules windoku",
        "{",
        "{}",
        "{\"puzzle\"",
        "{\"puzzle\":",
        "{\"puzzle\": \"\"}",
        "{\"puzzle\": \"\u{e9}\"}",
        "{\"puzzle\": \"................\", \"cages\": [[[[[[[[]]]]]]]]}",
        "{\"puzzle\": \"................\", \"rules\": [1]}",
    ];
    for s in samples.iter().copied().map(str::to_owned).chain(["é".repeat(81), "[".repeat(100_000)]) {
        // Each is an error; none is a puzzle.
        assert!(s.parse::<Board>().is_err(), "{s:?}");
    }
}

#[test]
fn shapes_are_checked_arithmetically() {
    assert_eq!(Shape::try_new(usize::MAX / 2 + 1, 2), None, "the product overflows");
    assert_eq!(Shape::try_new(9_223_372_036_854_775_808, 2), None);
    assert_eq!(Shape::from_side(usize::MAX), None, "and returns");
    assert_eq!(Shape::from_side(26), None);
}

#[test]
fn a_long_matrix_line_is_refused_where_it_outgrows_the_largest_board() {
    // 200,000 values on one line: read up to the first cell too many, not
    // to the end, and the column counted as the reader goes.
    let matrix = format!("[{}]", vec!["0"; 200_000].join(", "));
    assert_eq!(err(&matrix), ParseError::TooLarge { line: 1, column: 2 + 625 * 3 });
    let nested = format!("[{}]", vec!["[0, 0, 0, 0]"; 100_000].join(", "));
    assert!(matches!(err(&nested), ParseError::TooLarge { line: 1, .. }));
}

/// A one-line puzzle may bring its rules after it, as `lazydoku generate
/// --jigsaw` and `--killer` write them: read with them, and written back
/// with them.
#[test]
fn rules_written_after_a_one_line_puzzle_are_read_with_it() -> Result<(), Box<dyn std::error::Error>> {
    use lazydoku::generate::Generator;
    use lazydoku::{Rules, Shape};

    let jigsaw = Rules::jigsaw("aaabacbbccbdcddd")?;
    let board: Board = "1............... aaabacbbccbdcddd".parse()?;
    assert_eq!(board.rules(), jigsaw);
    assert_eq!(board, jigsaw.parse("1...............")?);
    let cages = "aabbccddeeffgghh a=3 b=7 c=7 d=3 e=3 f=7 g=7 h=3";
    let killer = Rules::new(Shape::new(2, 2)).with_cage_map(cages)?;
    let line = format!("1............... {cages} # a comment");
    let (board, layout) = Parser::new().parse(&line)?;
    assert_eq!(board.rules(), killer);
    assert_eq!((layout.region_map(), layout.cage_map()), (None, Some(cages)));
    // Rules given apart are not the puzzle's own.
    let (_, apart) = Parser::new().parse_with_rules("1...............", &killer)?;
    assert_eq!((apart.region_map(), apart.cage_map()), (None, None));
    let solution = board.solve().expect("a solution");
    assert_eq!(layout.render(&solution), format!("{} {cages} # a comment", solution.as_str()));
    // Both, region map first, as the generator writes them; and the
    // diagonals asked of the parser.
    let line = format!("1............... aaabacbbccbdcddd {cages}");
    let board = Parser::new().diagonals(true).parse_board(&line)?;
    assert_eq!(board.rules(), jigsaw.clone().with_cage_map(cages)?.with_diagonals());

    // Generated puzzles read back as they were made, on boards of 4x4 to 16x16.
    for (shape, killer) in
        [(Shape::new(2, 2), true), (Shape::new(2, 3), false), (Shape::NINE, true), (Shape::new(4, 4), false)]
    {
        let generator = Generator::new(Rules::new(shape)).seed(3).jigsaw();
        let generator = if killer { generator.killer() } else { generator };
        let puzzle = generator.puzzle(0).expect("a puzzle");
        let rules = puzzle.rules();
        let line =
            [puzzle.as_str().to_owned(), rules.region_map()].into_iter().chain(rules.cage_map()).collect::<Vec<_>>();
        let read: Board = line.join(" ").parse()?;
        assert_eq!(read, puzzle);
        assert_eq!(read.rules(), rules);
    }

    // Under a grid, as `generate --format grid` writes them: a line for
    // each map, region map first.
    let generator = Generator::new(Rules::new(Shape::new(2, 3))).seed(5).jigsaw().killer();
    let puzzle = generator.puzzle(0).expect("a puzzle");
    let rules = puzzle.rules();
    let cage_map = rules.cage_map().expect("cages");
    let text = format!("{puzzle:#}regions {}\ncages {cage_map}\n", rules.region_map());
    let (read, layout) = Parser::new().parse(&text)?;
    assert_eq!((&read, read.rules()), (&puzzle, rules.clone()));
    assert_eq!((layout.region_map(), layout.cage_map()), (Some(rules.region_map().as_str()), Some(cage_map.as_str())));
    let solved = layout.render(&read.solve().expect("a solution"));
    assert!(solved.ends_with(&format!("cages {cage_map}\n")), "{solved}");
    assert_eq!(solved.parse::<Board>()?.rules(), rules);
    let text = format!("{puzzle:#}cages {cage_map}\n");
    assert_eq!(text.parse::<Board>()?.rules().cages().count(), rules.cages().count());
    assert!(!text.parse::<Board>()?.rules().is_classic());

    // A second puzzle, or the solution, after a puzzle is still two
    // records run together: a digit's cells are never side by side.
    let solution = "1234341221434321";
    assert!(matches!(
        format!("1............... {solution}").parse::<Board>(),
        Err(ParseError::TwoPuzzles { column: 18, .. })
    ));
    // A map that is neither a region map nor followed by sums.
    assert_eq!(
        err("1............... \u{e9}abbccddeeffgghh").to_string(),
        "line 1, column 18: a map after the puzzle is a cage map with each cage's sum after it (a=12 ...), or a region \
         map whose regions are each as many connected cells as the side"
    );
    // Errors in the rules, placed on the line.
    assert_eq!(
        err("1............... aabbccddeeffgghh a=3 b=7 c=7 d=3 e=3 f=7 g=7 h=30").to_string(),
        "line 1, column 32: cage 'h': no 2 distinct digits add up to 30"
    );
    assert_eq!(
        err("1............... aabbccddeeffgghh a=3 b=7 c=7 d=3 e=3 f=7 g=7").to_string(),
        "line 1, column 32: cage 'h' has no sum; add h=SUM"
    );
    assert_eq!(
        err("13.............. aabbccddeeffgghh a=3 b=7 c=7 d=3 e=3 f=7 g=7 h=3").to_string(),
        "line 1, column 2: the givens of a cage add up to 4, not its sum of 3"
    );
    // Rules on the line are kept when they are the rules given apart, under
    // any labels, and are an error when they are not.
    assert_eq!(jigsaw.parse("1............... bbbabcaaccadcddd")?.rules(), jigsaw);
    let error = jigsaw.parse("1............... aabbaabbccddccdd").unwrap_err();
    assert_eq!(
        error.to_string(),
        "line 1, column 18: the puzzle brings its own rules, which are not the rules given apart; leave one of them out"
    );
    Ok(())
}

#[test]
fn rules_named_after_a_puzzle_are_read_with_it() -> Result<(), Box<dyn std::error::Error>> {
    use lazydoku::format::RULE_NAMES;
    use lazydoku::{Rules, Shape};

    let four = Shape::new(2, 2);
    let built = |name: &str| match name {
        "diagonals" => Rules::new(four).with_diagonals(),
        "windoku" => Rules::new(four).with_windows(),
        "anti-knight" => Rules::new(four).with_anti_knight(),
        "anti-king" => Rules::new(four).with_anti_king(),
        "non-consecutive" => Rules::new(four).with_non_consecutive(),
        other => panic!("a name this test does not know: {other}"),
    };
    let count = |board: &Board| board.count_solutions(usize::MAX);
    let plain: Board = "................".parse()?;
    // Each name on a one-line puzzle: the same board as the rule built
    // through the API, and a count of its own.
    for name in RULE_NAMES {
        let line = format!("................ rules:{name}");
        let (board, layout) = Parser::new().parse(&line)?;
        let expected = Board::empty_with(&built(name));
        assert_eq!(count(&board), count(&expected), "{name}");
        assert!(count(&board) < count(&plain), "{name}");
        assert_eq!(layout.rule_names(), Some(name));
        // Written back with the names in place (4x4 anti-king and
        // non-consecutive grids do not exist).
        if let Some(solution) = board.solve() {
            assert_eq!(layout.render(&solution), format!("{} rules:{name}", solution.as_str()));
        }
        assert_eq!(layout.render(&board), line);
    }
    // Several names, after maps and before a comment; repeated names count once.
    let cages = "aabbccddeeffgghh a=3 b=7 c=7 d=3 e=3 f=7 g=7 h=3";
    let line = format!("1............... aaabacbbccbdcddd {cages} rules:anti-knight,windoku,anti-knight # note");
    let (board, layout) = Parser::new().parse(&line)?;
    let rules = Rules::jigsaw("aaabacbbccbdcddd")?.with_cage_map(cages)?.with_anti_knight().with_windows();
    assert_eq!(count(&board), count(&Board::empty_with(&rules).place(0, 1)?));
    assert_eq!(layout.rule_names(), Some("anti-knight,windoku"));
    assert_eq!((layout.region_map(), layout.cage_map()), (Some("aaabacbbccbdcddd"), Some(cages)));
    // Under a grid, on a last line of their own, apart by spaces or commas.
    let grid = "1 . | . .\n. . | . .\n----+----\n. . | . .\n. . | . .\n";
    for names in ["anti-knight windoku", "anti-knight, windoku", "anti-knight,windoku"] {
        let (read, layout) = Parser::new().parse(&format!("{grid}rules {names}\n"))?;
        let expected = Rules::new(four).with_anti_knight().with_windows();
        assert_eq!(count(&read), count(&Board::empty_with(&expected).place(0, 1)?), "{names}");
        assert_eq!(layout.rule_names(), Some("anti-knight,windoku"));
    }
    let text = format!("{grid}regions aaabacbbccbdcddd\nrules diagonals\n");
    let (read, _) = Parser::new().parse(&text)?;
    let expected = Rules::jigsaw("aaabacbbccbdcddd")?.with_diagonals();
    assert_eq!(count(&read), count(&Board::empty_with(&expected).place(0, 1)?));
    // A given that breaks a named rule is refused, with its place.
    assert!(matches!(
        Parser::new().parse("1... ..1. .... .... rules:anti-knight"),
        Err(ParseError::Repeated { line: 1, column: 8, .. })
    ));
    // An unknown name, or none: said where.
    assert_eq!(
        err("1............... rules:anti-knight,queen").to_string(),
        "line 1, column 36: no rule is named 'queen': the names are diagonals, windoku, anti-knight, anti-king, \
         non-consecutive"
    );
    assert_eq!(
        err("1............... rules:").to_string(),
        "line 1, column 24: no rule is named here: the names are diagonals, windoku, anti-knight, anti-king, \
         non-consecutive"
    );
    assert_eq!(
        err(&format!("{grid}rules windoku knight\n")).to_string(),
        "line 6, column 15: no rule is named 'knight': the names are diagonals, windoku, anti-knight, anti-king, \
         non-consecutive"
    );
    // Named rules are the puzzle's own: they do not mix with rules given apart.
    let error = Rules::new(four).parse("1............... rules:windoku").unwrap_err();
    assert!(error.to_string().contains("brings its own rules"), "{error}");
    Ok(())
}

#[test]
fn a_puzzle_written_as_a_json_object_is_read_with_its_rules() -> Result<(), Box<dyn std::error::Error>> {
    use lazydoku::format::LayoutKind;
    use lazydoku::generate::Generator;
    use lazydoku::{Rules, Shape};

    // A plain object: the same board as the line, written back with the
    // puzzle solved and the other members kept.
    let line = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    let text = format!(r#"{{"id": "easy 1", "puzzle": "{line}", "source": {{"set": [1, 2]}}}}"#);
    let (board, layout) = Parser::new().parse(&text)?;
    assert_eq!(board, line.parse::<Board>()?);
    assert_eq!(layout.kind(), LayoutKind::Object);
    let solution = board.solve().expect("a solution");
    let solved = format!(r#"{{"id": "easy 1", "puzzle": "{}", "source": {{"set": [1, 2]}}}}"#, solution.as_str());
    assert_eq!(layout.render(&solution), solved);
    assert_eq!(text.parse::<Board>()?, board);
    // An element of an array written an element to a line: the comma
    // after it is read, and written back.
    let element = format!("  {text},");
    let (board, layout) = Parser::new().parse(&element)?;
    assert_eq!(board, line.parse::<Board>()?);
    assert_eq!(layout.render(&solution), format!("  {solved},"));
    // Written with 0 and _ for empty cells, and the board with a cell
    // emptied that was given: each empty cell keeps its mark, the emptied
    // one takes the first one's.
    let mut empty = 0;
    let zeros: String = line
        .chars()
        .map(|c| {
            empty += usize::from(c == '.');
            if c != '.' {
                c
            } else if empty % 2 == 0 {
                '_'
            } else {
                '0'
            }
        })
        .collect();
    let text = format!(r#"{{"puzzle":"{zeros}"}}"#);
    let (board, layout) = Parser::new().parse(&text)?;
    assert_eq!(layout.render(&board), text);
    let emptied: Board = format!("...{}", &line[3..]).parse()?;
    assert_eq!(layout.render(&emptied), format!(r#"{{"puzzle":"{}0{}"}}"#, &zeros[..2], &zeros[3..]));

    // Generated puzzles with a region map, cages and named rules, as
    // `generate --format json` writes them, read back with those rules.
    let four = Shape::new(2, 2);
    let generator = Generator::new(Rules::new(four).with_anti_knight()).seed(2).jigsaw().killer();
    let puzzle = generator.puzzle(0).expect("a puzzle");
    let rules = puzzle.rules();
    let cages = rules.cages().map(|(sum, cells)| format!(r#"{{"sum":{sum},"cells":{cells:?}}}"#)).collect::<Vec<_>>();
    let text = format!(
        r#"{{"index":0,"puzzle":"{}","regions":"{}","cages":[{}],"rules":["anti-knight"]}}"#,
        puzzle.as_str(),
        rules.region_map(),
        cages.join(",")
    );
    let (read, layout) = Parser::new().parse(&text)?;
    assert_eq!(read.rules(), rules);
    assert_eq!(read, puzzle);
    assert_eq!(layout.region_map(), Some(rules.region_map().as_str()));
    assert_eq!(layout.cage_map(), rules.cage_map().as_deref());
    assert_eq!(layout.rule_names(), Some("anti-knight"));
    // Extra regions and groups of distinct digits, as the API takes them.
    let text =
        r#"{"puzzle": "1...............", "extra_regions": [[0, 5, 10, 15]], "distinct_groups": [[3, 12], [1, 14]]}"#;
    let (read, _) = Parser::new().parse(text)?;
    let rules = Rules::new(four).with_region(&[0, 5, 10, 15])?.with_distinct(&[3, 12])?.with_distinct(&[1, 14])?;
    assert_eq!(read.rules(), rules);
    assert_eq!(read, rules.parse("1...............")?);
    // Named rules alone, and the diagonals asked of the parser too.
    let (read, _) = Parser::new().diagonals(true).parse(r#"{"puzzle": "1...............", "rules": ["windoku"]}"#)?;
    assert_eq!(read.rules(), Rules::new(four.with_diagonals()).with_windows());

    // Over several lines, errors are placed where they are.
    let text = "{\n  \"puzzle\": \"11..............\"\n}";
    assert!(matches!(text.parse::<Board>(), Err(ParseError::Repeated { line: 2, column: 15, .. })), "{text}");
    let broken = [
        (
            r#"{"puzzle": "1...............", "rules": ["windoku", "queen"]}"#,
            "line 1, column 53: no rule is named 'queen'",
        ),
        (
            r#"{"puzzle": "1...............", "cages": [{"sum": 30, "cells": [0, 1]}]}"#,
            "line 1, column 42: no 2 distinct",
        ),
        (
            r#"{"puzzle": "1...............", "regions": "aaab"}"#,
            "line 1, column 44: the region map has 4 labels, and the puzzle 16 cells",
        ),
        (r#"{"puzzle": "1..............."} x"#, "line 1, column 32: 'x' after the end of the object"),
        (r#"{"puzzle": "1..............."},,"#, "line 1, column 32: ',' after the end of the object"),
        (r#"{"puzzle": "1..............."}]"#, "line 1, column 31: ']' after the end of the object"),
        (r#"{"id": 7}"#, "line 1, column 1: the object has no \"puzzle\" member"),
        (r#"{"puzzle": "1...", "puzzle": "2..."}"#, "line 1, column 20: the object has two \"puzzle\" members"),
        (r#"{"puzzle": "1.\u002e."}"#, "line 1, column 15: a puzzle or a map is written without escapes"),
        (r#"{"puzzle": "1..."#, "line 1, column 17: a string is not closed"),
        (r#"{"puzzle": 12}"#, "line 1, column 12: expected a string, found '1'"),
        (
            r#"{"puzzle": "1...............", "extra_regions": [[0, 5, 10]]}"#,
            "line 1, column 50: an extra region has 3",
        ),
        (r#"{"puzzle": "1...............", "distinct_groups": [[0, 99]]}"#, "line 1, column 52: cell 99 is off"),
        (r#"{"puzzle": "1...............", "distinct_groups": [0]}"#, "line 1, column 52: expected '['"),
    ];
    for (text, start) in broken {
        let error = err(text).to_string();
        assert!(error.starts_with(start), "{text}: {error}");
    }
    Ok(())
}

#[test]
fn a_json_object_is_read_with_rules_given_apart_unless_it_brings_others() -> Result<(), Box<dyn std::error::Error>> {
    use lazydoku::Rules;
    // An object without rules of its own takes them.
    let jigsaw = Rules::jigsaw("aaabacbbccbdcddd")?;
    let (read, _) = Parser::new().parse_with_rules(r#"{"puzzle": "1..............."}"#, &jigsaw)?;
    assert_eq!(read.rules(), jigsaw);
    let error = Parser::new().parse_with_rules(r#"{"puzzle": "1...............", "rules": ["windoku"]}"#, &jigsaw);
    assert!(error.is_err_and(|e| e.to_string().contains("brings its own rules, which are not")));
    // One with the same rules of its own is read with them.
    let same = r#"{"puzzle": "1...............", "regions": "aaabacbbccbdcddd"}"#;
    assert_eq!(Parser::new().parse_with_rules(same, &jigsaw)?.0.rules(), jigsaw);
    Ok(())
}

#[test]
fn a_one_line_puzzle_may_be_written_as_its_rows() -> Result<(), Box<dyn std::error::Error>> {
    let rows = LINE.as_bytes().chunks(9).map(|r| std::str::from_utf8(r).unwrap()).collect::<Vec<_>>().join(" ");
    let expected: Board = LINE.parse()?;
    for text in [rows.clone(), format!("  {rows}   # easy"), rows.replace('.', "0")] {
        let (board, layout) = Parser::new().parse(&text)?;
        assert_eq!((board, layout.kind()), (expected.clone(), LayoutKind::Line), "{text}");
    }
    // The answer keeps the rows apart, and the comment after them.
    let (board, layout) = Parser::new().parse(&format!("{rows} # easy"))?;
    let solution = board.solve().expect("a solution");
    let solved = layout.render(&solution);
    assert_eq!(solved.split(' ').next(), Some(&solution.as_str()[..9]));
    assert!(solved.ends_with(" # easy"), "{solved}");
    assert_eq!(solved.parse::<Board>()?, solution);

    // 4x4 and 16x16, whose rows alone would be boards of side 2 and 4.
    assert_eq!("1... .... ..2. ....".parse::<Board>()?.as_str(), "1.........2.....");
    let sixteen = ".".repeat(256);
    let sixteen_rows = sixteen.as_bytes().chunks(16).map(|r| std::str::from_utf8(r).unwrap()).collect::<Vec<_>>();
    assert_eq!(sixteen_rows.join(" ").parse::<Board>()?.shape(), lazydoku::Shape::new(4, 4));
    assert_eq!(Parser::new().rows_on_one_line(&sixteen_rows.join(" ")), Some(16));
    assert_eq!(Parser::new().shape(lazydoku::Shape::NINE).rows_on_one_line("1... .... ..2. ...."), None);

    // A second puzzle after the rows, as rows or whole, is two records.
    let two = format!("{rows} {rows}");
    assert!(matches!(two.parse::<Board>(), Err(ParseError::TwoPuzzles { column: 91, .. })), "{two}");
    assert!(matches!(format!("{rows} {LINE}").parse::<Board>(), Err(ParseError::TwoPuzzles { column: 91, .. })));
    // Too few rows is a count of cells, said as such.
    assert!(matches!("1... .... ....".parse::<Board>(), Err(ParseError::CellCount { found: 12, .. })));
    // A grid whose rows are written in their boxes is still a grid.
    let boxes = LINE
        .as_bytes()
        .chunks(9)
        .map(|r| r.chunks(3).map(|b| std::str::from_utf8(b).unwrap()).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(Parser::new().parse(&boxes)?.0, expected);

    // Rules after the rows are read with them.
    let (board, layout) = Parser::new().parse("1... .... .... .... aaabacbbccbdcddd")?;
    assert_eq!(board.rules(), lazydoku::Rules::jigsaw("aaabacbbccbdcddd")?);
    assert!(layout.render(&board.solve().expect("a solution")).ends_with(" aaabacbbccbdcddd"));
    Ok(())
}
