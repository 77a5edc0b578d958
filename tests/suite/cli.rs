//! End-to-end tests of the `lazydoku` binary, run as a user would.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const EASY: &str = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
const EASY_SOLVED: &str = "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
const UNSOLVABLE: &str = "2.53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..";
const HARD1: &str = ".....6....59.....82....8....45........3........6..3.54...325..6..................";

use crate::common::{self, run, temp_file};

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

#[test]
fn no_arguments_on_a_terminal_solves_the_bundled_set() {
    // `script` gives lazydoku a terminal for stdin and stdout.
    let available = Command::new("script").arg("--version").output().is_ok_and(|o| o.status.success());
    if !available {
        eprintln!("skipped: `script` (util-linux) is not installed here");
        return;
    }
    let out = Command::new("script")
        .args(["-qec", env!("CARGO_BIN_EXE_lazydoku"), "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).replace('\r', "");
    let lines: Vec<&str> = text.lines().filter(|l| l.len() == 81).collect();
    assert_eq!(lines.len(), 95, "{text}");
    assert!(lines.iter().all(|l| !l.contains('.')));
    assert!(text.contains("lazydoku: 95 found, 0 without solution, 0 invalid; 95 puzzles in"), "{text}");
}

#[test]
fn no_arguments_with_piped_input_solves_the_input() {
    let out = run(&[], format!("{EASY}\n"));
    assert!(out.status.success());
    assert_eq!(stdout(&out), format!("{EASY_SOLVED}\n"));
}

#[test]
fn one_line_in_one_line_out_including_bad_lines() {
    let input = format!("# a comment\n{EASY}\n\n{UNSOLVABLE}\n{}x\n{EASY}   # trailing\n", &EASY[1..]);
    let out = run(&["solve"], input);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            "# a comment",
            EASY_SOLVED,
            "",
            "no solution",
            "invalid: 'x' is not a cell of a 9x9 board; use 1-9 for digits and '.', '0' or '_' for empty",
            &format!("{EASY_SOLVED}   # trailing"),
        ]
    );
    let err = stderr(&out);
    let err: Vec<&str> = err.lines().collect();
    assert_eq!(err[0], "lazydoku: -:4: no solution");
    assert_eq!(
        err[1],
        "lazydoku: -:5:81: 'x' is not a cell of a 9x9 board; use 1-9 for digits and '.', '0' or '_' for empty"
    );
    assert!(err[2].starts_with("lazydoku: 2 found, 1 without solution, 1 invalid; 4 puzzles in"), "{}", err[2]);
    let out = run(&["solve", EASY], "");
    assert!(
        stderr(&out).starts_with("lazydoku: 1 found, 0 without solution, 0 invalid; 1 puzzle in"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_puzzle_written_as_its_rows_on_one_line_is_answered_so() {
    let rows =
        |text: &str| text.as_bytes().chunks(9).map(|r| String::from_utf8_lossy(r).into_owned()).collect::<Vec<_>>();
    let input = format!("{} # rows, with a comment\n1... ..2. .3.. ...4\n", rows(EASY).join(" "));
    let out = run(&["solve"], input);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), format!("{} # rows, with a comment\n1243 3421 4312 2134\n", rows(EASY_SOLVED).join(" ")));
}

#[test]
fn solve_reads_an_argument_a_file_and_stdin() {
    let out = run(&["solve", EASY], "");
    assert!(out.status.success());
    assert_eq!(stdout(&out), format!("{EASY_SOLVED}\n"));
    let file = temp_file("two.txt", format!("{EASY}\n{EASY}\n"));
    let out = run(&["solve", "--quiet", file.to_str().unwrap(), "-"], format!("{EASY}\n"));
    assert_eq!(stdout(&out), format!("{EASY_SOLVED}\n").repeat(3));
    assert_eq!(stderr(&out), "", "--quiet silences the summary");
    let out = run(&["solve"], format!("{EASY}\n"));
    assert_eq!(stdout(&out), format!("{EASY_SOLVED}\n"), "stdin is the default when it is not a terminal");
}

#[test]
fn order_is_kept_under_jobs() {
    // Hard and easy puzzles interleaved, so that they finish out of order.
    let hard =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/puzzles6_forum_hardest_1106")).unwrap();
    let mut input = String::new();
    for (i, line) in hard.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).take(300).enumerate() {
        input.push_str(line);
        input.push('\n');
        if i % 3 == 0 {
            input.push_str(EASY);
            input.push('\n');
        }
        if i % 50 == 0 {
            input.push_str(UNSOLVABLE);
            input.push('\n');
        }
    }
    // More than one chunk of records, too.
    let input = input.repeat(12);
    let one = run(&["solve", "--jobs", "1", "-q"], &input);
    let two = run(&["solve", "--jobs", "2", "-q"], &input);
    assert_eq!(one.status.code(), Some(1));
    assert_eq!(stdout(&one), stdout(&two));
    let lines: Vec<String> = stdout(&two).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), input.lines().count());
    for (puzzle, answer) in input.lines().zip(&lines) {
        if puzzle == UNSOLVABLE {
            assert_eq!(answer, "no solution");
        } else {
            let board: lazydoku::Board = puzzle.parse().unwrap();
            assert_eq!(Some(answer.as_str()), board.solve().as_ref().map(lazydoku::Board::as_str));
        }
    }
}

#[test]
fn exit_codes_say_how_it_went() {
    assert_eq!(run(&["solve", EASY], "").status.code(), Some(0));
    assert_eq!(run(&["solve", UNSOLVABLE], "").status.code(), Some(1));
    assert_eq!(run(&["solve", "-"], "1234\n").status.code(), Some(1));
    assert_eq!(run(&["solve", "--no-such-flag"], "").status.code(), Some(2));
    assert_eq!(run(&["count", "--limit", "many", EASY], "").status.code(), Some(2));
    assert_eq!(run(&["solve", "--shape", "7x7", EASY], "").status.code(), Some(2));
    let help = run(&["--help"], "");
    assert!(help.status.success());
    assert!(stdout(&help).contains("Exit status: 0 when everything asked for was found, 1 when some puzzle"));
    assert!(stdout(&help).contains("Examples:"));
}

#[test]
fn a_grid_comes_back_in_the_same_grid_format() {
    let grid = "\
_ _ 3 | _ 2 _ | 6 _ _
9 _ _ | 3 _ 5 | _ _ 1
_ _ 1 | 8 _ 6 | 4 _ _
------+-------+------
_ _ 8 | 1 _ 2 | 9 _ _
7 _ _ | _ _ _ | _ _ 8
_ _ 6 | 7 _ 8 | 2 _ _
------+-------+------
_ _ 2 | 6 _ 9 | 5 _ _
8 _ _ | 2 _ 3 | _ _ 9
_ _ 5 | _ 1 _ | 3 _ _
";
    let out = run(&["solve", "-"], grid);
    assert!(out.status.success());
    let text = stdout(&out);
    assert_eq!(text.lines().next(), Some("4 8 3 | 9 2 1 | 6 5 7"));
    assert_eq!(text.lines().nth(3), Some("------+-------+------"));
    assert_eq!(text.lines().count(), 11);
    assert_eq!(text.replace(['|', '-', '+', ' ', '\n'], ""), EASY_SOLVED);
    // The same puzzle as a matrix comes back as a matrix.
    let matrix: String = format!(
        "[{}]",
        EASY.as_bytes()
            .chunks(9)
            .map(|r| format!(
                "[{}]",
                r.iter()
                    .map(|&b| if b == b'.' { "nil".into() } else { char::from(b).to_string() })
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
            .collect::<Vec<_>>()
            .join(",\n ")
    );
    let out = run(&["solve"], &matrix);
    assert!(stdout(&out).starts_with("[[4, 8, 3, 9, 2, 1, 6, 5, 7],\n [9, 6, 7,"), "{}", stdout(&out));
}

#[test]
fn formats_line_grid_and_json() {
    let out = run(&["solve", "--format", "grid", EASY], "");
    assert!(stdout(&out).starts_with("4 8 3 | 9 2 1 | 6 5 7\n"));
    let out = run(&["solve", "--format", "json", "-"], format!("{EASY}\n{UNSOLVABLE}\nbad\n"));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], format!("{{\"file\":\"-\",\"line\":1,\"status\":\"solved\",\"solution\":\"{EASY_SOLVED}\"}}"));
    assert_eq!(lines[1], "{\"file\":\"-\",\"line\":2,\"status\":\"none\"}");
    assert!(
        lines[2]
            .starts_with("{\"file\":\"-\",\"line\":3,\"status\":\"invalid\",\"error\":\"a one-line puzzle has 3 cells"),
        "{}",
        lines[2]
    );
    let out = run(&["count", "--format", "json", HARD1], "");
    assert_eq!(stdout(&out), "{\"file\":null,\"line\":1,\"status\":\"counted\",\"count\":2}\n");
    let grid_in = run(&["solve", "--format", "line", "-"], format!("{:#}", EASY.parse::<lazydoku::Board>().unwrap()));
    // As many lines out as in: the solution, then the grid's other ten lines empty.
    assert_eq!(stdout(&grid_in), format!("{EASY_SOLVED}\n{}", "\n".repeat(10)));
}

#[test]
fn count_check_and_all() {
    let out = run(&["count", "--limit", "7", HARD1, EASY, UNSOLVABLE], "");
    assert_eq!(out.status.code(), Some(1), "a puzzle without solution");
    assert_eq!(stdout(&out), "7\n1\n0\n");
    assert_eq!(stdout(&run(&["count", HARD1], "")), "2\n", "the default limit is 2");
    let out = run(&["check", "-"], format!("{EASY}\n{HARD1}\n{UNSOLVABLE}\nxyz\n"));
    assert_eq!(
        stdout(&out),
        "unique\nmultiple\nnone\ninvalid: a one-line puzzle has 3 cells, but it needs the square of a board side: \
         one of 16, 36, 64, 81, 100, 144, 196, 225, 256, 324, 400, 441, 484, 576, 625\n"
    );
    let out = run(&["all", "--limit", "3", "12..34.........."], "");
    assert!(out.status.success());
    let lines: Vec<String> = stdout(&out).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(stdout(&run(&["all", "12..34.........."], "")).lines().count(), 12);
    // Grids are kept apart by a blank line.
    let grids = stdout(&run(&["all", "--limit", "2", "--format", "grid", "12..34.........."], ""));
    assert_eq!(grids.split("\n\n").count(), 2, "{grids}");
    assert_eq!(grids.lines().count(), 2 * 5 + 1);
}

#[test]
fn search_orders_and_the_frontier_guard() {
    for order in ["dfs", "bfs", "best"] {
        let out = run(&["solve", "--order", order, EASY], "");
        assert_eq!(stdout(&out), format!("{EASY_SOLVED}\n"), "{order}");
    }
    // A breadth-first enumeration of the empty board outgrows a small frontier.
    let out = run(&["count", "--order", "bfs", "--max-memory", "1M", "--limit", "1000000", &".".repeat(81)], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).starts_with("stopped: the breadth-first frontier passed 1048576 bytes"), "{}", stdout(&out));
}

#[test]
fn other_sizes_and_options() {
    let out = run(&["solve", "12..34.........."], "");
    assert_eq!(stdout(&out).trim().len(), 16);
    let six = "1.....\n......\n......\n......\n......\n.....1";
    let out = run(&["count", "--shape", "3x2", "--limit", "3", "-"], six);
    assert_eq!(stdout(&out), "3\n\n\n\n\n\n", "a six-line puzzle's answer takes six lines");
    let x = run(&["check", "--x", "-"], format!("5{}5\n", ".".repeat(79)));
    assert!(
        stdout(&x).starts_with("invalid: 5 at row 9, column 9 repeats the 5 at row 1, column 1 in the same diagonal"),
        "{}",
        stdout(&x)
    );
}

#[test]
fn empty_input_gives_empty_output() {
    let out = run(&["solve", "-"], "");
    assert!(out.status.success());
    assert_eq!(stdout(&out), "");
    assert!(stderr(&out).starts_with("lazydoku: 0 found, 0 without solution, 0 invalid; 0 puzzles"));
    let out = run(&["solve", "-"], "\n# only comments\n\n");
    assert_eq!(stdout(&out), "\n# only comments\n\n", "comments and blank lines pass through");
}

#[test]
fn a_missing_file_is_an_io_error() {
    let out = run(&["solve", "no/such/file.txt"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no/such/file.txt"), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
}

#[test]
fn invalid_utf8_is_reported_on_its_line_and_the_rest_goes_on() {
    let mut input = format!("{EASY}\n").into_bytes();
    input.extend_from_slice(b"..3.2.\xff\xfe..\n");
    input.extend_from_slice(format!("{EASY}\n").as_bytes());
    let out = run(&["solve", "-"], input);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), format!("{EASY_SOLVED}\ninvalid: invalid UTF-8; puzzles are text\n{EASY_SOLVED}\n"));
    assert!(stderr(&out).starts_with("lazydoku: -:2:7: invalid UTF-8"), "{}", stderr(&out));
}

#[test]
fn a_ten_megabyte_line_without_newline_is_refused_clearly() {
    let mut input = format!("{EASY}\n").into_bytes();
    input.extend(std::iter::repeat_n(b'.', 10 * 1024 * 1024));
    let file = temp_file("huge.txt", &input);
    let out = run(&["solve", file.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0], EASY_SOLVED);
    assert!(lines[1].starts_with("invalid: the line is longer than 65536 bytes"), "{}", lines[1]);
    assert!(stderr(&out).contains("huge.txt:2:65537: the line is longer"), "{}", stderr(&out));
    // The same through a pipe.
    let out = run(&["solve", "-"], &input);
    assert_eq!(stdout(&out).lines().count(), 2);
}

#[test]
fn trace_prints_every_board_until_the_first_solution() {
    let out = run(&["trace", HARD1], "");
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 2);
    let first: Vec<&str> = lines[0].split('\t').collect();
    assert_eq!(first, ["1", &HARD1.matches('.').count().to_string(), HARD1]);
    let last: Vec<&str> = lines.last().unwrap().split('\t').collect();
    assert_eq!(last[1], "0");
    let board: lazydoku::Board = HARD1.parse().unwrap();
    assert_eq!(Some(last[2]), board.solve().as_ref().map(lazydoku::Board::as_str));
    // Steps are numbered in order.
    assert!(lines.iter().enumerate().all(|(i, l)| l.starts_with(&format!("{}\t", i + 1))));
    let bfs = run(&["trace", "--order", "bfs", EASY], "");
    assert!(stdout(&bfs).lines().last().unwrap().ends_with(EASY_SOLVED));
}

#[test]
fn bench_prints_a_table_for_each_file() {
    let out = run(&["bench", "--rounds", "1", concat!(env!("CARGO_MANIFEST_DIR"), "/data/norvig_top95.txt")], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("dataset"));
    let row: Vec<&str> = lines[1].split_whitespace().collect();
    assert!(row[0].ends_with("norvig_top95.txt"));
    assert_eq!(row[1], "95");
    assert_eq!(row[3], "95", "every puzzle is unique");
    assert!(row[2].parse::<f64>().unwrap() > 0.0);
}

/// The per-record step of a distributed engine: GNU parallel cuts the input
/// into blocks, runs lazydoku on each, and keeps their order.
#[test]
fn works_as_the_per_record_step_of_gnu_parallel() {
    let available = Command::new("parallel").arg("--version").output().is_ok_and(|o| o.status.success());
    if !available {
        // .ci/run sets this when it has the tool, so a broken lookup cannot pass silently there.
        assert!(std::env::var_os("LAZYDOKU_REQUIRE_PARALLEL").is_none(), "GNU parallel should be here");
        eprintln!("skipped: GNU parallel is not installed here");
        return;
    }
    let data = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/norvig_top95.txt")).unwrap();
    let direct = run(&["solve", "-q", "-"], &data);
    let mut child = Command::new("parallel")
        .args(["--pipe", "--keep-order", "-N", "10", env!("CARGO_BIN_EXE_lazydoku"), "solve", "-q", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let feed = data.clone();
    let writer = std::thread::spawn(move || pipe.write_all(feed.as_bytes()));
    let piped = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(piped.status.success(), "{}", stderr(&piped));
    assert_eq!(stdout(&piped), stdout(&direct));
    assert_eq!(stdout(&piped).lines().count(), 95);
}

/// The per-record step of Spark's `RDD.pipe` in local mode: each partition's
/// lines go through one lazydoku process, and the answers come back in order.
/// Needs Java and pyspark; `.ci/run` installs both when it can.
#[test]
fn works_as_the_per_record_step_of_spark_rdd_pipe() {
    let has_java = Command::new("java").arg("-version").output().is_ok_and(|o| o.status.success());
    let has_pyspark = Command::new("python3").args(["-c", "import pyspark"]).output().is_ok_and(|o| o.status.success());
    if !(has_java && has_pyspark) {
        // .ci/run sets this when it installed both, so a broken lookup cannot pass silently there.
        assert!(std::env::var_os("LAZYDOKU_REQUIRE_SPARK").is_none(), "Java and pyspark should be here");
        eprintln!("skipped: Spark's RDD.pipe test needs Java ({has_java}) and pyspark ({has_pyspark})");
        return;
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/norvig_top95.txt");
    let data = std::fs::read_to_string(path).unwrap();
    let direct = run(&["solve", "-q", "-"], &data);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/spark/pipe.py");
    let piped = Command::new("python3").args([script, env!("CARGO_BIN_EXE_lazydoku"), path, "7"]).output().unwrap();
    assert!(piped.status.success(), "{}", stderr(&piped));
    assert_eq!(stdout(&piped), stdout(&direct));
    assert_eq!(stdout(&piped).lines().count(), 95);
}

/// Sides with no box shape: Latin squares with `--shape latinN`, and jigsaw
/// maps of any side, whose grids print without box lines.
#[test]
fn latin_squares_and_jigsaws_of_any_side_come_from_the_command_line() {
    let o = common::run(&["count", "--shape", "latin4", "--limit", "1000", "-"], ".".repeat(16) + "\n");
    assert_eq!((stdout(&o).trim(), o.status.code()), ("576", Some(0)), "{}", stderr(&o));
    let map = "1122333112223311422335144444556647756666675557777";
    let o = common::run(&["solve", "-q", "--regions", map, "..5..........157.........4...........7.2...3.6..."], "");
    let answer = stdout(&o);
    let units: Vec<Vec<usize>> = (0..7)
        .flat_map(|i| [(0..7).map(|c| i * 7 + c).collect(), (0..7).map(|r| r * 7 + i).collect()])
        .chain(
            (b'1'..=b'7').map(|label| map.bytes().enumerate().filter(|&(_, l)| l == label).map(|(c, _)| c).collect()),
        )
        .collect();
    assert!(
        common::solves_units("..5..........157.........4...........7.2...3.6...", answer.trim(), &units),
        "{answer}"
    );
    // Generated 7x7 jigsaws in grid format: cells alone, then the map.
    let o = common::run(
        &["generate", "--count", "2", "--seed", "3", "--shape", "latin7", "--jigsaw", "--format", "grid"],
        "",
    );
    let text = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!text.contains('|') && !text.contains('-'), "{text}");
    assert_eq!(text.matches("regions ").count(), 2, "{text}");
    // Boxes where there are none: said, not ignored.
    let o = common::run(&["solve", "--shape", "latin5", "--windoku", &".".repeat(25)], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("windows take the box shape"), "{}", stderr(&o));
    let o = common::run(&["solve", &".".repeat(49)], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("--shape latin7"), "{}", stderr(&o));
}

#[test]
fn regions_windoku_and_cages_come_from_the_command_line() {
    // Jigsaw: the map inline; 24 solutions of the empty board, found by brute force.
    let jigsaw = ["--regions", "aaab acbb ccbd cddd"];
    let o = common::run(&[&["count", "--limit", "100"][..], &jigsaw, &["-"]].concat(), "................\n");
    assert_eq!((stdout(&o).trim(), o.status.code()), ("24", Some(0)), "{}", stderr(&o));
    // The map from a file, and an answer in the puzzle's own grid format.
    let map = common::temp_file("jigsaw.txt", "a a a b\na c b b\nc c b d\nc d d d\n");
    let grid = "1 . . .\n. . . .\n. . . .\n. . . .\n";
    let o = common::run(&["solve", "--regions", map.to_str().unwrap(), "-"], grid);
    let answer = stdout(&o);
    assert_eq!(answer.lines().count(), 4, "{answer}");
    assert!(answer.starts_with("1 "), "{answer}");
    // A given that breaks a jigsaw region: invalid, with the place.
    let o = common::run(&[&["check"][..], &jigsaw, &["-"]].concat(), "..1.1...........\n");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("in the same region"), "{}", stderr(&o));

    // Windoku on 9x9: the empty board has solutions, and each keeps the windows.
    let empty = ".".repeat(81);
    let o = common::run(&["solve", "--windoku", &empty], "");
    let solution = stdout(&o);
    let text = solution.trim().as_bytes();
    let mut window: Vec<u8> = (1..4).flat_map(|r| (1..4).map(move |c| text[r * 9 + c])).collect();
    window.sort_unstable();
    assert_eq!(window, b"123456789", "{solution}");

    // Killer: cages made from the grid 1234 3412 2143 4321; both solutions listed.
    let cages = common::temp_file("cages.txt", "aabb\ncdde\ncffe\ngghh\na=3 b=7 c=5 d=5 e=5 f=5 g=7 h=3\n");
    let o = common::run(&["all", "--shape", "2x2", "--cages", cages.to_str().unwrap(), "-"], "................\n");
    let listed = stdout(&o);
    let all: Vec<&str> = listed.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    assert!(all.contains(&"1234341221434321"), "{all:?}");
    assert_eq!(
        all.len(),
        common::brute_count_killer(
            &".".repeat(16),
            4,
            &[
                vec![0, 1, 2, 3],
                vec![4, 5, 6, 7],
                vec![8, 9, 10, 11],
                vec![12, 13, 14, 15],
                vec![0, 4, 8, 12],
                vec![1, 5, 9, 13],
                vec![2, 6, 10, 14],
                vec![3, 7, 11, 15],
                vec![0, 1, 4, 5],
                vec![2, 3, 6, 7],
                vec![8, 9, 12, 13],
                vec![10, 11, 14, 15],
            ],
            &[
                (3, vec![0, 1]),
                (7, vec![2, 3]),
                (5, vec![4, 8]),
                (5, vec![5, 6]),
                (5, vec![7, 11]),
                (5, vec![9, 10]),
                (7, vec![12, 13]),
                (3, vec![14, 15]),
            ],
            100
        )
    );
    // The same cages as JSON list the same solutions.
    let json = common::temp_file(
        "cages.json",
        r#"[{"sum": 3, "cells": [0, 1]}, {"sum": 7, "cells": [2, 3]}, {"sum": 5, "cells": [4, 8]},
            {"sum": 5, "cells": [5, 6]}, {"sum": 5, "cells": [7, 11]}, {"sum": 5, "cells": [9, 10]},
            {"sum": 7, "cells": [12, 13]}, {"sum": 3, "cells": [14, 15]}]"#,
    );
    let o = common::run(&["all", "--shape", "2x2", "--cages", json.to_str().unwrap(), "-"], "................\n");
    assert_eq!(stdout(&o), listed);
    // Without --shape, the cage map's size gives the board's, as a region
    // map's does: the same solutions.
    let o = common::run(&["all", "--cages", cages.to_str().unwrap(), "-"], "................\n");
    assert_eq!((stdout(&o), o.status.code()), (listed.clone(), Some(0)), "{}", stderr(&o));
    let bad = common::temp_file("bad-cages.json", "[{\"sum\": 3, \"cells\": [0, 1]},\n {\"sum\": 3}]");
    let o = common::run(&["solve", "--shape", "2x2", "--cages", bad.to_str().unwrap(), "-"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("bad-cages.json: line 2, column 2: a cage has no \"cells\""), "{}", stderr(&o));

    // Bad rules are usage errors that say what and where.
    let o = common::run(&["solve", "--regions", "aaab acbb", "-"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--regions: a region map has 8 labels"), "{}", stderr(&o));
    let bad = common::temp_file("bad-cages.txt", "aa..\n....\n....\n....\na=9\n");
    let o = common::run(&["solve", "--shape", "2x2", "--cages", bad.to_str().unwrap(), "-"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("line 1, column 1: cage 'a': no 2 distinct digits add up to 9"), "{}", stderr(&o));
}

#[test]
fn windoku_takes_each_puzzles_own_size() {
    // Without --shape, --windoku reads each puzzle on its own size, as --x
    // does: a 4x4 and a 6x6 line in one input, each kept to its windows
    // (4x4: rows and columns 2-3; 6x6: rows 2-3 and columns 2-4, the only
    // one a cell in from the edges), with the counts of the same rules
    // built by hand.
    let (four, six) = (".".repeat(16), ".".repeat(36));
    let o = common::run(&["all", "--limit", "1000", "--windoku", "-"], format!("{four}\n{six}\n"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let listed = stdout(&o);
    let (fours, sixes): (Vec<&str>, Vec<&str>) =
        listed.lines().map(str::trim).filter(|l| !l.is_empty()).partition(|l| l.len() == 16);
    let count_of = |shape: lazydoku::Shape| {
        lazydoku::Board::empty_with(&lazydoku::Rules::new(shape).with_windows()).count_solutions(1000)
    };
    assert_eq!(fours.len(), count_of(lazydoku::Shape::new(2, 2)), "{listed}");
    assert_eq!(sixes.len(), count_of(lazydoku::Shape::new(2, 3)), "{listed}");
    assert!(fours.len() < 288 && !sixes.is_empty(), "{listed}");
    let holds = |grid: &str, side: usize, cells: &[(usize, usize)]| {
        let mut digits: Vec<u8> = cells.iter().map(|&(r, c)| grid.as_bytes()[r * side + c]).collect();
        digits.sort_unstable();
        digits.dedup();
        digits.len() == cells.len()
    };
    assert!(fours.iter().all(|g| holds(g, 4, &[(1, 1), (1, 2), (2, 1), (2, 2)])), "{listed}");
    let six_window = [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3)];
    assert!(sixes.iter().all(|g| holds(g, 6, &six_window)), "{listed}");
    // A given repeated in a window, on a size other than 9x9: invalid, said.
    let o = common::run(&["check", "--windoku", "-"], "1...............\n.....1....1.....\n");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("unique") || stdout(&o).starts_with("multiple"), "{}", stdout(&o));
    assert!(stdout(&o).lines().nth(1).is_some_and(|l| l.starts_with("invalid")), "{}", stdout(&o));
}

#[test]
fn chess_rules_take_each_puzzles_own_size_and_join_the_rules_given() {
    use lazydoku::{Board, Rules, Shape};
    // Whether no two cells `moves` apart hold the same digit.
    let keeps = |grid: &str, side: usize, moves: &[(usize, usize)]| {
        let g = grid.as_bytes();
        (0..side * side).all(|cell| {
            let (r, c) = (cell / side, cell % side);
            moves.iter().all(|&(down, across)| {
                let right = r + down < side && c + across < side && g[cell] == g[(r + down) * side + c + across];
                let left = r + down < side && c >= across && g[cell] == g[(r + down) * side + c - across];
                !right && !left
            })
        })
    };
    let knight = [(1, 2), (2, 1)];
    // A 4x4 and a 6x6 line in one input, each on its own size, with the
    // counts of the same rules built by hand.
    let (four, six) = (".".repeat(16), "1".to_owned() + &".".repeat(35));
    let o = common::run(&["all", "--limit", "5000", "--anti-knight", "-q", "-"], format!("{four}\n{six}\n"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let listed = stdout(&o);
    let (fours, sixes): (Vec<&str>, Vec<&str>) =
        listed.lines().map(str::trim).filter(|l| !l.is_empty()).partition(|l| l.len() == 16);
    let count = |rules: Rules, puzzle: &str| rules.parse(puzzle).unwrap().count_solutions(5000);
    assert_eq!(fours.len(), count(Rules::new(Shape::new(2, 2)).with_anti_knight(), &four), "{listed}");
    assert_eq!(sixes.len(), count(Rules::new(Shape::new(2, 3)).with_anti_knight(), &six), "{listed}");
    assert!(fours.len() < 288 && !sixes.is_empty(), "{listed}");
    assert!(fours.iter().all(|g| keeps(g, 4, &knight)) && sixes.iter().all(|g| keeps(g, 6, &knight)), "{listed}");

    // Joined to a jigsaw map: the count of the map's rules with anti-king's.
    let map = "aaab acbb ccbd cddd";
    let o = common::run(&["count", "--regions", map, "--anti-king", "--limit", "1000", "-q", &four], "");
    let expected = Board::empty_with(&Rules::jigsaw(map).unwrap().with_anti_king()).count_solutions(1000);
    assert_eq!(stdout(&o).trim(), expected.to_string(), "{}", stderr(&o));

    // Generated puzzles name their rules, and are unique under them, not
    // without them.
    let o = common::run(&["generate", "--anti-knight", "--anti-king", "--count", "3", "--seed", "1"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let puzzles = stdout(&o);
    assert!(puzzles.lines().all(|l| l.len() == 81 + 28 && l.ends_with(" rules:anti-knight,anti-king")), "{puzzles}");
    let bare: String = puzzles.lines().flat_map(|l| [&l[..81], "\n"]).collect();
    for (flags, input) in
        [(&["--anti-knight", "--anti-king"][..], &bare), (&[][..], &puzzles), (&["--anti-king"][..], &puzzles)]
    {
        let with = common::run(&[&["check", "-q"][..], flags].concat(), input);
        assert_eq!(stdout(&with), "unique\n".repeat(3), "{flags:?} {input}");
    }
    let without = common::run(&["check", "-q"], &bare);
    assert_eq!(stdout(&without), "multiple\n".repeat(3), "{puzzles}");
    let solved = common::run(&["solve", "-q"], &puzzles);
    let king = [(1, 1)];
    let solved = stdout(&solved);
    let grids: Vec<&str> = solved.lines().filter_map(|l| l.strip_suffix(" rules:anti-knight,anti-king")).collect();
    assert!(grids.len() == 3 && grids.iter().all(|g| keeps(g, 9, &knight) && keeps(g, 9, &king)), "{solved}");
    // As a grid and in JSON, the names go with the puzzle and its answer.
    let o = common::run(
        &["generate", "--windoku", "--shape", "2x3", "--count", "1", "--seed", "2", "--format", "grid"],
        "",
    );
    let grid = stdout(&o);
    assert!(grid.trim_end().ends_with("\nrules windoku"), "{grid}");
    let o = common::run(&["solve", "-q", "--format", "json", "-"], &grid);
    assert!(stdout(&o).contains(r#","rules":["windoku"]}"#), "{}", stdout(&o));
    let solution = stdout(&o).split(r#""solution":""#).nth(1).unwrap()[..36].to_owned();
    let windoku = Rules::new(Shape::new(2, 3)).with_windows();
    assert!(windoku.parse(&solution).is_ok_and(|b| b.is_complete()), "{solution}");
    let o = common::run(&["generate", "--x", "--count", "1", "--seed", "2", "--format", "json"], "");
    assert!(stdout(&o).trim_end().ends_with(r#","rules":["diagonals"]}"#), "{}", stdout(&o));
    // A map given to generate is written with each puzzle, and so are the
    // names: a puzzle reads back as itself on its own, or with the same
    // flags, and not with other rules.
    let flags = ["--regions", map, "--anti-knight"];
    let o = common::run(&[&["generate", "--count", "1", "--seed", "1"][..], &flags[..]].concat(), "");
    let puzzle = stdout(&o);
    let expected = Rules::jigsaw(map).unwrap().with_anti_knight();
    assert_eq!(puzzle.parse::<lazydoku::Board>().map(|b| b.rules()), Ok(expected), "{puzzle}");
    let alone = common::run(&["solve", "-"], &puzzle);
    let with_flags = common::run(&[&["solve"][..], &flags[..], &["-"][..]].concat(), &puzzle);
    assert!(alone.status.success() && stdout(&alone) == stdout(&with_flags), "{}", stderr(&with_flags));
    let o = common::run(&["solve", "--regions", map, "-"], &puzzle);
    assert!(
        stderr(&o).contains("-:1:18: the puzzle brings its own rules, which are not the rules given"),
        "{}",
        stderr(&o)
    );
    // A line of names with no grid above it is refused; other text passes.
    let o = common::run(&["solve", "-"], "rules anti-king\nrules of the game\n");
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).starts_with("invalid: a line of rules belongs right under its grid"), "{}", stdout(&o));
    assert!(stdout(&o).ends_with("\nrules of the game\n"), "{}", stdout(&o));

    // The miracle sudoku: two givens, with the non-consecutive rule too.
    let mut miracle = vec![b'.'; 81];
    miracle[4 * 9 + 2] = b'1';
    miracle[5 * 9 + 6] = b'2';
    let miracle = String::from_utf8(miracle).unwrap();
    let all_three = ["--anti-knight", "--anti-king", "--non-consecutive"];
    let o = common::run(&[&["check", "-q"][..], &all_three, &[&miracle]].concat(), "");
    assert_eq!(stdout(&o), "unique\n", "{}", stderr(&o));
    let o = common::run(&[&["solve", "-q"][..], &all_three, &[&miracle]].concat(), "");
    let rules = Rules::new(Shape::NINE).with_anti_knight().with_anti_king().with_non_consecutive();
    assert_eq!(stdout(&o).trim(), rules.parse(&miracle).unwrap().solve().unwrap().as_str());
    let o = common::run(&["check", "-q", "--anti-knight", "--anti-king", &miracle], "");
    assert_eq!(stdout(&o), "multiple\n");
    // Consecutive givens side by side: invalid, said where.
    let o = common::run(&["check", "--non-consecutive", "-"], "12..............\n");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("-:1:2: 2 at row 1, column 2 is next to the 1 at row 1, column 1"), "{}", stderr(&o));
}

#[test]
fn json_lines_from_generate_are_solved_into_json_lines() {
    use lazydoku::format::Parser;
    // Generated puzzles as JSON objects, with a region map, cages and named
    // rules, read back by `solve` and answered as the same objects with
    // each puzzle solved, under the rules the object brings.
    for args in [
        &["generate", "--jigsaw", "--anti-knight", "--count", "2", "--seed", "1", "--format", "json"][..],
        &["generate", "--killer", "--shape", "2x2", "--count", "2", "--seed", "1", "--format", "json"],
    ] {
        let o = common::run(args, "");
        assert!(o.status.success(), "{}", stderr(&o));
        let puzzles = stdout(&o);
        let solved = common::run(&["solve", "-q", "-"], &puzzles);
        assert!(solved.status.success(), "{}", stderr(&solved));
        let answers = stdout(&solved);
        assert_eq!(answers.lines().count(), 2, "{answers}");
        for (puzzle, answer) in puzzles.lines().zip(answers.lines()) {
            let (asked, _) = Parser::new().parse(puzzle).unwrap();
            let (board, layout) = Parser::new().parse(answer).unwrap();
            assert!(board.is_complete() && board.rules() == asked.rules(), "{answer}");
            assert_eq!(asked.solve().as_ref(), Some(&board), "{answer}");
            // The object as it was, the puzzle member aside.
            let outside = |text: &str| {
                let (before, after) = text.split_once(r#""puzzle":""#).expect("a puzzle member");
                format!("{before}{}", after.split_once('"').expect("its end").1)
            };
            assert_eq!(outside(answer), outside(puzzle));
            assert_eq!(layout.render(&board), answer);
        }
        // The same answers as JSON records.
        let json = common::run(&["solve", "-q", "--format", "json", "-"], &puzzles);
        assert_eq!(stdout(&json).matches(r#""status":"solved""#).count(), 2, "{}", stdout(&json));
    }
    // Extra regions and groups of distinct digits, which only JSON writes,
    // go with the answers in JSON.
    let object = r#"{"puzzle": "1...............", "extra_regions": [[0, 5, 10, 15]], "distinct_groups": [[3, 12]]}"#;
    let o = common::run(&["all", "-q", "--format", "json", "-"], format!("{object}\n"));
    let rules = lazydoku::Rules::new(lazydoku::Shape::new(2, 2)).with_region(&[0, 5, 10, 15]).unwrap();
    let count = rules.with_distinct(&[3, 12]).unwrap().parse("1...............").unwrap().count_solutions(100);
    let listed = stdout(&o);
    let answers: Vec<&str> = listed.lines().collect();
    assert!(answers.len() == count && count > 1, "{listed}");
    let members = r#","extra_regions":[[0,5,10,15]],"distinct_groups":[[3,12]]}"#;
    assert!(answers.iter().all(|a| a.ends_with(members)), "{listed}");
}

/// `text`, a JSON object on one line, written over several as a pretty
/// printer would: a line break after each `{`, `[` and `,` and before each
/// `}` and `]` outside strings.
fn spread_over_lines(text: &str) -> String {
    let (mut out, mut in_string) = (String::new(), false);
    for c in text.chars() {
        match c {
            '"' => in_string = !in_string,
            '}' | ']' if !in_string => out.push('\n'),
            _ => {}
        }
        out.push(c);
        if !in_string && matches!(c, '{' | '[' | ',') {
            out.push_str("\n  ");
        }
    }
    out
}

/// Two generated killer jigsaw puzzles as JSON Lines, as `generate` writes
/// them.
fn two_killer_jigsaw_objects() -> String {
    let o = common::run(&["generate", "--killer", "--jigsaw", "--count", "2", "--seed", "4", "--format", "json"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

#[test]
fn json_arrays_on_one_line_are_read_object_by_object() {
    use lazydoku::format::Parser;
    let compact = two_killer_jigsaw_objects();
    // An array on one line, as `JSON.stringify` and `jq -c .` write one, is
    // read object by object, and answered as the same array on one line.
    let one_line = format!("[{}]\n", compact.trim_end().replace('\n', ", "));
    let o = common::run(&["solve", "-q", "-"], &one_line);
    assert!(o.status.success(), "{}", stderr(&o));
    let answer = stdout(&o);
    assert_eq!(answer.lines().count(), 1, "{answer}");
    let objects = top_level_values(answer.trim_end());
    assert_eq!(objects.len(), 2, "{answer}");
    for (object, line) in objects.iter().zip(compact.lines()) {
        let (board, _) = Parser::new().parse(object).unwrap();
        assert_eq!(Parser::new().parse(line).unwrap().0.solve(), Some(board), "{object}");
    }
    let o = common::run(&["count", "-q", "-"], &one_line);
    assert_eq!(stdout(&o), "[1, 1]\n");
    // The answer reads back as the same array of solved puzzles.
    let o = common::run(&["solve", "-q", "-"], &answer);
    assert_eq!(stdout(&o), answer);
    // With another format, and for answers of their own form (CSV rows,
    // logical steps), an answer a line.
    let o = common::run(&["rate", "-q", "-"], &one_line);
    assert_eq!(stdout(&o).lines().count(), 3, "{}", stdout(&o));
    assert!(stdout(&o).lines().skip(1).all(|row| row.split(',').count() == 8), "{}", stdout(&o));
    let o =
        common::run(&["solve", "-q", "--format", "line", "-"], format!("[\n{}]\n", compact.replace("}\n{", "},\n{")));
    assert_eq!(stdout(&o).lines().count(), 2, "{}", stdout(&o));
    assert!(stdout(&o).lines().all(|l| l.parse::<lazydoku::Board>().is_ok_and(|b| b.is_complete())), "{}", stdout(&o));
    let o = common::run(&["solve", "-q", "--format", "json", "-"], &one_line);
    assert_eq!(stdout(&o).lines().filter(|l| l.contains("\"status\":\"solved\"")).count(), 2, "{}", stdout(&o));
    assert_eq!(stdout(&o).lines().count(), 2, "{}", stdout(&o));
    // Errors are placed at their column on the line, and the objects
    // around them answered; so are commas that JSON does not allow.
    let given = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    let solution = given.parse::<lazydoku::Board>().unwrap().solve().unwrap();
    let bad = format!("{{\"puzzle\":\"{given}\",\"rules\":[\"queen\"]}}");
    let input = format!("[{{\"puzzle\":\"{given}\"}}, {bad},, {{\"puzzle\":\"{given}\"}}]\n");
    let o = common::run(&["solve", "-"], &input);
    assert_eq!(o.status.code(), Some(1));
    let queen = 1 + input.find("\"queen").unwrap();
    assert!(stderr(&o).contains(&format!("-:1:{queen}: no rule is named 'queen'")), "{}", stderr(&o));
    let comma = 2 + input.find(",,").unwrap();
    assert!(stderr(&o).contains(&format!("-:1:{comma}: a comma with no value before it")), "{}", stderr(&o));
    assert!(stderr(&o).contains("2 found, 0 without solution, 2 invalid"), "{}", stderr(&o));
    let out = stdout(&o);
    // An object's error stands in its place as a JSON string; the comma's
    // error, which stands for no value, is mended: the comma is left out.
    assert!(out.starts_with(&format!("[{{\"puzzle\":\"{solution}\"}}, \"invalid: no rule is named 'queen'")), "{out}");
    assert!(out.ends_with(&format!("non-consecutive\", {{\"puzzle\":\"{solution}\"}}]\n")), "{out}");
    assert_eq!(top_level_values(out.trim_end()).len(), 3, "{out}");
    // The answers are a JSON array: strings for words and errors, numbers
    // for counts.
    let input = input.replace(",,", ",");
    let o = common::run(&["check", "-q", "-"], &input);
    assert_eq!(
        stdout(&o),
        "[\"unique\", \"invalid: no rule is named 'queen': the names are diagonals, windoku, anti-knight, anti-king, non-consecutive\", \"unique\"]\n"
    );

    // So does a value that is neither an object nor a string.
    let o = common::run(&["solve", "-q", "-"], format!("[{{\"puzzle\":\"{given}\"}}, 3, [true]]\n"));
    let values = top_level_values(stdout(&o).trim_end());
    assert_eq!(values.len(), 3, "{}", stdout(&o));
    assert!(values[1..].iter().all(|v| v.starts_with("\"invalid: expected an object")), "{}", stdout(&o));
    // An array that never closes is reported once the input ends; after
    // its comma, the error is a value of the array, which then closes.
    let o = common::run(&["solve", "-"], format!("[{{\"puzzle\":\"{given}\"}},\n"));
    let unclosed = "the JSON array opened here is not closed before the input ends";
    assert!(stderr(&o).contains(&format!("-:1:1: {unclosed}")), "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("[{{\"puzzle\":\"{solution}\"}},\n\"invalid: {unclosed}\"]\n"));

    // An array of strings, each a puzzle: answered between the same quotes,
    // an error's text escaped as a JSON string's.
    let input = format!("[\"{given}\", \"x\\\"y\", \"{given}\"]\n");
    let o = common::run(&["solve", "-"], &input);
    let expected = format!(
        "[\"{solution}\", \"invalid: a puzzle in a JSON string is written without escapes\", \"{solution}\"]\n"
    );
    assert_eq!(stdout(&o), expected);
    assert!(stderr(&o).contains("-:1:87: a puzzle in a JSON string is written without escapes"), "{}", stderr(&o));
    // A count is a number where the string stood; an error stays a string.
    let o = common::run(&["count", "-q", "-"], format!("[\n  \"{given}\",\n  \"1.\"\n]\n"));
    assert!(stdout(&o).starts_with("[\n  1,\n  \"invalid: a one-line puzzle has 2 cells"), "{}", stdout(&o));
    assert!(stdout(&o).ends_with("\"\n]\n"), "{}", stdout(&o));
    let o = common::run(&["count", "--limit", "1000", "-q", "-"], format!("[\"{given}\",\"{}\"]\n", ".".repeat(16)));
    assert_eq!(stdout(&o), "[1,288]\n");

    // `all` writes an object's solutions as objects of the array, apart by
    // commas, on one line or a line each as the object stood.
    let two = format!("{{\"puzzle\":\"{}\"}}", ".".repeat(81));
    let o = common::run(&["all", "--limit", "2", "-q", "-"], format!("[{two},{two}]\n"));
    let answer = stdout(&o);
    assert_eq!(answer.lines().count(), 1, "{answer}");
    assert_eq!(top_level_values(answer.trim_end()).len(), 4, "{answer}");
    let o = common::run(&["all", "--limit", "2", "-q", "-"], format!("[\n  {two},\n  {two}\n]\n"));
    let answer = stdout(&o);
    let lines: Vec<&str> = answer.lines().collect();
    assert_eq!(lines.len(), 6, "{answer}");
    assert!(lines[1..5].iter().all(|l| l.starts_with("  {\"puzzle\":")), "{answer}");
    assert_eq!(lines[1..5].iter().filter(|l| l.ends_with("},")).count(), 3, "{answer}");
    // And a string's solutions as strings.
    let o = common::run(&["all", "--limit", "2", "-q", "-"], format!("[\"{}\"]\n", ".".repeat(81)));
    assert_eq!(top_level_values(stdout(&o).trim_end()).len(), 2, "{}", stdout(&o));
    assert!(top_level_values(stdout(&o).trim_end()).iter().all(|v| v.len() == 83), "{}", stdout(&o));
}

#[test]
fn json_errors_in_an_array_are_mended_in_the_answers() {
    let given = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    let solution = given.parse::<lazydoku::Board>().unwrap().solve().unwrap();
    // Every comma that JSON does not allow is mended in the answers, so
    // that they make an array, and still reported where it stands.
    let object = format!("{{\"puzzle\":\"{given}\"}}");
    let (solved, string) = (format!("{{\"puzzle\":\"{solution}\"}}"), format!("\"{given}\""));
    let cases = [
        (format!("[{object},{object},]"), format!("[{solved},{solved}]"), "ends right after a comma"),
        (format!("[{object} {object}]"), format!("[{solved}, {solved}]"), "a comma is missing before this object"),
        (
            format!("[{string} {string}]"),
            format!("[\"{solution}\", \"{solution}\"]"),
            "a comma is missing before this string",
        ),
        (
            format!("[{string},,{string}]"),
            format!("[\"{solution}\",\"{solution}\"]"),
            "a comma with no value before it",
        ),
        (format!("[{object}] {object}"), format!("[{solved}] "), "the JSON array has ended before this"),
        (
            format!("[{object}}}]"),
            format!("[{solved},\"invalid: expected an object, a comma or the `]` of the JSON array\"]"),
            "expected an object",
        ),
        // A comma on the line before the `]` stays: the error is a value
        // after it.
        (
            format!("[\n  {object},\n]"),
            format!("[\n  {solved},\n\"invalid: the JSON array ends right after a comma, which JSON does not allow\"]"),
            "-:3:1: the JSON array ends right after a comma",
        ),
    ];
    // An array cut short at the end of the input gets its `]`.
    let o = common::run(&["solve", "-"], format!("[{object}, {string}\n"));
    assert_eq!(stdout(&o), format!("[{solved}, \"{solution}\"\n]\n"));
    assert!(stderr(&o).contains("-:1:1: the JSON array opened here is not closed"), "{}", stderr(&o));
    // Empty arrays, however laid out, are empty arrays.
    for empty in ["[]", "[ ]", "[\n]", "[\n  ]", "[\n\n]"] {
        let o = common::run(&["solve", "-q", "-"], format!("{empty}\n"));
        assert_eq!(stdout(&o), format!("{empty}\n"));
        assert_eq!(o.status.code(), Some(0), "{empty}");
    }
    for (input, expected, error) in cases {
        let o = common::run(&["solve", "-"], format!("{input}\n"));
        assert_eq!(stdout(&o), format!("{expected}\n"), "{input}");
        assert!(stderr(&o).contains(error), "{input}: {}", stderr(&o));
        assert_eq!(o.status.code(), Some(1), "{input}");
    }
}

/// The values of a JSON array written on one line, as text: cut at the
/// commas outside its strings and inner brackets.
fn top_level_values(array: &str) -> Vec<String> {
    let inner = array.strip_prefix('[').and_then(|a| a.strip_suffix(']')).expect("an array on one line");
    let (mut values, mut value) = (Vec::new(), String::new());
    let (mut depth, mut in_string, mut escaped) = (0, false, false);
    for c in inner.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            '{' | '[' if !in_string => depth += 1,
            '}' | ']' if !in_string => depth -= 1,
            ',' if !in_string && depth == 0 => {
                values.push(std::mem::take(&mut value).trim().to_owned());
                continue;
            }
            _ => {}
        }
        value.push(c);
    }
    values.push(value.trim().to_owned());
    values
}

#[test]
fn json_objects_over_several_lines_are_read_whole() {
    use lazydoku::format::Parser;
    let compact = two_killer_jigsaw_objects();
    let spread: String = compact.lines().map(|line| spread_over_lines(line) + "\n").collect();
    assert!(spread.lines().count() > 100, "{spread}");
    // Each object is one puzzle, answered as the same object over the same
    // lines with its puzzle solved: the answers line up with the input.
    let solved = common::run(&["solve", "-q", "-"], &spread);
    assert!(solved.status.success(), "{}", stderr(&solved));
    let answers = stdout(&solved);
    assert_eq!(answers.lines().count(), spread.lines().count(), "{answers}");
    let mut answer_lines = answers.lines();
    for line in compact.lines() {
        let lines = spread_over_lines(line).lines().count();
        let object = answer_lines.by_ref().take(lines).collect::<Vec<_>>().join("\n");
        let (asked, _) = Parser::new().parse(line).unwrap();
        let (board, _) = Parser::new().parse(&object).unwrap();
        assert_eq!(asked.solve().as_ref(), Some(&board), "{object}");
        assert_eq!(board.rules(), asked.rules());
    }
    let count = common::run(&["count", "-q", "-"], &spread);
    assert_eq!(stdout(&count).split_whitespace().collect::<Vec<_>>(), ["1", "1"]);

    // An error is placed on its line within the object: here an unknown
    // rule name on the fourth line of an object that starts on the second.
    let puzzle = ".".repeat(81);
    let input = format!("# two objects\n{{\n  \"puzzle\": \"{puzzle}\",\n  \"rules\": [\"queen\"]\n}}\n");
    let o = common::run(&["solve", "-"], &input);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("-:4:13: no rule is named 'queen'"), "{}", stderr(&o));

    // A `{` that never closes is an error on its own line, and every line
    // after it is read as it would be without it.
    let given = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    let input = format!("{{\n{given}\n{{\"puzzle\":\"{given}\"}}\n");
    let o = common::run(&["solve", "-"], &input);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].starts_with("invalid: a JSON object opened here is not closed before line 3"), "{out}");
    let solution = given.parse::<lazydoku::Board>().unwrap().solve().unwrap();
    assert_eq!(lines[1], solution.as_str());
    assert_eq!(lines[2], format!("{{\"puzzle\":\"{solution}\"}}"));
    assert!(stderr(&o).contains("-:1:1: a JSON object opened here"), "{}", stderr(&o));
    // A line of JSON Lines cut short is an error on its own line at once:
    // the next line starts an object where a member of this one belongs.
    let input = format!("{{\"puzzle\":\"{given}\",\n{{\"puzzle\":\"{given}\"}}\n");
    let o = common::run(&["solve", "-"], &input);
    assert_eq!(stdout(&o).lines().nth(1), Some(format!("{{\"puzzle\":\"{solution}\"}}").as_str()));
    assert!(stderr(&o).contains("-:1:1: a JSON object opened here is not closed before line 2"), "{}", stderr(&o));

    // An array with its brackets on lines of their own, as `jq .` writes
    // one, is read element by element, and answered as the same array.
    let elements: Vec<String> = compact.lines().map(spread_over_lines).collect();
    let array = format!("[\n{}\n]\n", elements.join(",\n"));
    let o = common::run(&["solve", "-q", "-"], &array);
    assert!(o.status.success(), "{}", stderr(&o));
    let answers = stdout(&o);
    assert_eq!(answers.lines().count(), array.lines().count(), "{answers}");
    let mut answer_lines = answers.lines();
    assert_eq!(answer_lines.next(), Some("["));
    for (k, (element, line)) in elements.iter().zip(compact.lines()).enumerate() {
        let object = answer_lines.by_ref().take(element.lines().count()).collect::<Vec<_>>().join("\n");
        assert_eq!(object.ends_with(','), k + 1 < elements.len(), "{object}");
        let (board, _) = Parser::new().parse(&object).unwrap();
        assert_eq!(Parser::new().parse(line).unwrap().0.solve(), Some(board), "{object}");
    }
    assert_eq!(answer_lines.next(), Some("]"));
    // `count` in such an array answers a number for each object, with the
    // array's commas (JSON again), over the lines of the objects.
    let o = common::run(&["count", "-q", "-"], &array);
    assert_eq!(stdout(&o).lines().count(), array.lines().count());
    assert_eq!(stdout(&o).split_whitespace().collect::<String>(), "[1,1]");

    // Line and grid answers have no way to write extra regions or groups:
    // a note says so once, unless quiet.
    let empty = ".".repeat(81);
    let object = format!("{{\"puzzle\":\"{empty}\",\"extra_regions\":[[0,10,20,30,40,50,60,70,80]]}}\n");
    let o = common::run(&["solve", "--format", "line", "-"], object.repeat(2));
    assert_eq!(stdout(&o).lines().count(), 2);
    assert_eq!(stderr(&o).matches("have no way to write a JSON puzzle's `extra_regions`").count(), 1, "{}", stderr(&o));
    let o = common::run(&["solve", "-q", "--format", "grid", "-"], &object);
    assert!(o.status.success() && stderr(&o).is_empty(), "{}", stderr(&o));
    // A bracket alone still opens a matrix.
    let o = common::run(&["count", "-q", "-"], "[\n[1,2,3,4],[3,4,1,2],\n[2,1,4,3],[4,3,2,1]]\n");
    assert_eq!(stdout(&o).split_whitespace().collect::<Vec<_>>(), ["1"], "{}", stderr(&o));
}

#[test]
fn trace_follows_the_rules_given() {
    // The README's jigsaw: the last board traced is its solution.
    let o = common::run(&["trace", "--regions", "aaab acbb ccbd cddd", "1......2...3...."], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let last: Vec<&str> = text.lines().last().unwrap().split('\t').collect();
    assert_eq!(last[1..], ["0", "1324413224133241"]);
    // Windoku: every board keeps the windows, down to a complete grid.
    let empty = ".".repeat(81);
    let o = common::run(&["trace", "--windoku", &empty], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let grid = text.lines().last().unwrap().split('\t').nth(2).unwrap();
    let windoku = lazydoku::Rules::new(lazydoku::Shape::NINE).with_windows();
    let board = windoku.parse(grid).expect("a grid that keeps every window");
    assert!(board.is_complete());
    // A region map that does not fit is a usage error, as for solve.
    let o = common::run(&["trace", "--regions", "aaab acbb", "1......2...3...."], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--regions: a region map has 8 labels"), "{}", stderr(&o));
}

#[test]
fn generate_writes_unique_puzzles_the_same_for_any_jobs() {
    let args = ["generate", "--count", "5", "--seed", "7", "--symmetry", "rotate180"];
    let one = run(&[&args[..], &["--jobs", "1"]].concat(), "");
    let two = run(&[&args[..], &["--jobs", "2"]].concat(), "");
    assert!(one.status.success(), "{}", stderr(&one));
    assert_eq!(stdout(&one), stdout(&two));
    let text = stdout(&one);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5);
    for line in &lines {
        let board: lazydoku::Board = line.parse().unwrap();
        assert!(board.is_unique(), "{line}");
        // Half-turn symmetry of the givens.
        let cells = line.as_bytes();
        assert!((0..81).all(|i| (cells[i] == b'.') == (cells[80 - i] == b'.')), "{line}");
    }
    // The library's generator makes the same puzzles.
    let generator = lazydoku::generate::Generator::new(lazydoku::Rules::new(lazydoku::Shape::NINE))
        .seed(7)
        .symmetry(lazydoku::generate::Symmetry::Rotate180);
    let library: Vec<String> = generator.puzzles().take(5).map(|b| b.as_str().to_owned()).collect();
    assert_eq!(lines, library);
}

#[test]
fn generate_follows_the_rules_flags_and_stops_when_the_reader_does() {
    let out = run(&["generate", "--count", "2", "--regions", "aaab abbb cccd cddd", "--seed", "3"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let rules = lazydoku::Rules::jigsaw("aaab abbb cccd cddd").unwrap();
    for line in stdout(&out).lines() {
        assert!(rules.parse(line).unwrap().is_unique(), "{line}");
    }
    let out = run(&["generate", "--count", "1", "--shape", "2x3", "--clues", "20", "--format", "json"], "");
    let text = stdout(&out);
    assert!(text.starts_with("{\"index\":0,\"puzzle\":\""), "{text}");
    // Endless output into a reader that stops: the command ends, and well.
    let mut child = common::lazydoku().args(["generate", "--seed", "1"]).stdout(Stdio::piped()).spawn().unwrap();
    let mut first = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(child.stdout.take().unwrap()), &mut first).unwrap();
    assert_eq!(first.trim_end().len(), 81);
    assert!(child.wait().unwrap().success());
    let bad = run(&["generate", "--symmetry", "spiral"], "");
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("unknown symmetry \"spiral\""), "{}", stderr(&bad));
}

/// `--proof-nodes` reaches the generator (a 16x16 killer keeps more
/// givens under a bound of 5 nodes than minimal), and a 25x25 killer asked
/// for without a bound says at once how to bound it, whether its size
/// comes from `--shape` or from a region map.
#[test]
fn generate_bounds_proofs_and_says_when_to() {
    let givens = |args: &[&str]| {
        let out = run(args, "");
        assert!(out.status.success(), "{}", stderr(&out));
        let line = stdout(&out).lines().next().unwrap().to_owned();
        let checked = run(&["check", "-q", "-"], &line);
        assert_eq!(stdout(&checked).trim(), "unique", "{line}");
        line[..256].bytes().filter(|&b| b != b'.').count()
    };
    let killer = ["generate", "--shape", "4x4", "--killer", "--count", "1", "--seed", "2"];
    let minimal = givens(&killer);
    let bounded = givens(&[&killer[..], &["--proof-nodes", "5"]].concat());
    assert!(bounded > minimal, "{bounded} givens bounded, {minimal} minimal");
    let first_said = |args: &[&str]| {
        let mut child = common::lazydoku().args(args).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
        let mut first = String::new();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(child.stderr.take().unwrap()), &mut first).unwrap();
        child.kill().unwrap();
        child.wait().unwrap();
        first
    };
    let unbounded = ["generate", "--killer", "--count", "1", "-j", "1"];
    let first = first_said(&[&unbounded[..], &["--shape", "5x5"]].concat());
    assert!(first.contains("--proof-nodes N"), "{first}");
    // The boxes as a region map: the side is known only from the map.
    let regions: String =
        (0..625).map(|cell| char::from(b'A' + u8::try_from(cell / 125 * 5 + cell % 25 / 5).unwrap())).collect();
    let first = first_said(&[&unbounded[..], &["--regions", &regions]].concat());
    assert!(first.contains("--proof-nodes N"), "{first}");
}

/// `--hex` generates 16x16 puzzles written in 0-F, which `solve --hex` reads back.
#[test]
fn generate_writes_hexadecimal_sixteens() {
    let o = common::run(&["generate", "--count", "2", "--seed", "5", "--hex", "--clues", "150"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let puzzles = stdout(&o);
    for line in puzzles.lines() {
        assert_eq!(line.len(), 256, "{line}");
        assert!(line.bytes().all(|b| b == b'.' || b.is_ascii_digit() || (b'A'..=b'F').contains(&b)), "{line}");
    }
    let solved = common::run(&["count", "--hex", "-"], &puzzles);
    assert_eq!(stdout(&solved), "1\n1\n", "{}", stderr(&solved));
    let o = common::run(&["generate", "--count", "1", "--hex", "--shape", "3x3"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--hex writes 16x16"), "{}", stderr(&o));
}

#[test]
fn generate_writes_random_jigsaw_maps_and_killer_cages_that_solve_back() {
    let args = ["generate", "--count", "3", "--seed", "5", "--jigsaw", "--killer"];
    let one = run(&[&args[..], &["--jobs", "1"]].concat(), "");
    let two = run(&[&args[..], &["--jobs", "2"]].concat(), "");
    assert!(one.status.success(), "{}", stderr(&one));
    assert_eq!(stdout(&one), stdout(&two));
    for line in stdout(&one).lines() {
        // The puzzle, its region map, then its cage map and sums.
        let (puzzle, rest) = line.split_once(' ').unwrap();
        let (map, cages) = rest.split_once(' ').unwrap();
        let rules = lazydoku::Rules::jigsaw(map).unwrap().with_cage_map(cages).unwrap();
        let board = rules.parse(puzzle).unwrap();
        assert!(board.is_unique(), "{line}");
        // The command line reads the same map and cages back.
        let out = run(&["count", "-q", "--regions", map, "--cages", cages, puzzle], "");
        assert_eq!(stdout(&out).trim(), "1", "{}", stderr(&out));
    }
    // Piped on: each line is read with its own rules, and solved back
    // with them.
    let out = run(&["check", "-q"], stdout(&one));
    assert_eq!(stdout(&out), "unique\nunique\nunique\n", "{}", stderr(&out));
    let out = run(&["solve", "-q"], stdout(&one));
    for (solved, line) in stdout(&out).lines().zip(stdout(&one).lines()) {
        let (solution, rules) = solved.split_once(' ').unwrap();
        assert_eq!(rules, line.split_once(' ').unwrap().1);
        let board: lazydoku::Board = solved.parse().unwrap();
        assert!(board.is_complete() && board.as_str() == solution, "{solved}");
        assert_eq!(board.rules(), line.parse::<lazydoku::Board>().unwrap().rules());
    }
    // In grid format, the maps on lines of their own under each grid.
    let grids = run(&[&args[..], &["--format", "grid"]].concat(), "");
    let out = run(&["check", "-q"], stdout(&grids));
    assert_eq!(stdout(&out).lines().filter(|l| !l.is_empty()).collect::<Vec<_>>(), ["unique"; 3], "{}", stderr(&out));
    // A line of rules that follows no grid is not taken for a comment.
    let out = run(&["check"], "cages aabbccddeeffgghh a=3 b=7 c=7 d=3 e=3 f=7 g=7 h=3\n");
    assert!(stdout(&out).starts_with("invalid: a line of rules belongs right under its grid"), "{}", stdout(&out));
    // Rules on the line and rules given apart must be the same rules.
    let first = stdout(&one).lines().next().unwrap().to_owned();
    let map = first.split(' ').nth(1).unwrap();
    let out = run(&["check", "--regions", map], first.clone());
    assert!(stderr(&out).contains("the puzzle brings its own rules, which are not"), "{}", stderr(&out));
    // Windoku's windows, like the diagonals of --x, join the rules a line
    // brings: the count is that of those rules with the windows, which this
    // puzzle's solution breaks.
    let windowed = first.parse::<lazydoku::Board>().unwrap().rules().with_windows();
    let expected = windowed.parse(first.split(' ').next().unwrap()).map_or(0, |board| board.count_solutions(2));
    assert_eq!(expected, 0);
    let out = run(&["count", "-q", "--windoku"], first);
    assert_eq!(stdout(&out).trim(), expected.to_string(), "{}", stderr(&out));
    // JSON carries the cages as `--cages` reads them.
    let out = run(&["generate", "--count", "1", "--seed", "2", "--killer", "--shape", "2x3", "--format", "json"], "");
    let text = stdout(&out);
    assert!(text.contains("\"cages\":[{\"sum\":"), "{text}");
    let rules = lazydoku::Rules::new(lazydoku::Shape::new(2, 3)).with_cage_json(&text).unwrap();
    assert_eq!(rules.cages().map(|(_, cells)| cells.len()).sum::<usize>(), 36);
    let out = run(&["generate", "--jigsaw", "--regions", "aaab abbb cccd cddd"], "");
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
}

#[test]
fn answers_in_any_format_keep_the_rules_a_puzzle_brought() {
    let generated = run(&["generate", "--count", "2", "--seed", "4", "--shape", "2x3", "--jigsaw", "--killer"], "");
    let lines = stdout(&generated);
    let rules: Vec<lazydoku::Rules> = lines.lines().map(|l| l.parse::<lazydoku::Board>().unwrap().rules()).collect();
    let maps: Vec<(&str, &str)> = lines.lines().map(|l| l[37..].split_once(' ').unwrap()).collect();
    // Each answer read back alone has its puzzle's rules and is a solution
    // of the puzzle.
    let read_back = |text: &str, index: usize| {
        let board: lazydoku::Board = text.parse().unwrap_or_else(|e| panic!("{e}: {text}"));
        assert_eq!(board.rules(), rules[index], "{text}");
        assert!(board.is_complete(), "{text}");
    };
    for format in ["line", "grid"] {
        let out = run(&["solve", "-q", "--format", format], lines.clone());
        let text = stdout(&out);
        let answers: Vec<String> = if format == "line" {
            text.lines().map(str::to_owned).collect()
        } else {
            // A grid's answer ends with its `cages` line.
            let mut whole: Vec<String> = Vec::new();
            for part in text.split_inclusive('\n') {
                if whole.last().is_none_or(|last| last.lines().last().is_some_and(|l| l.starts_with("cages "))) {
                    whole.push(String::new());
                }
                whole.last_mut().unwrap().push_str(part);
            }
            whole
        };
        assert_eq!(answers.len(), 2, "{text}");
        for (index, answer) in answers.iter().enumerate() {
            read_back(answer, index);
        }
    }
    // JSON: the region map as written, and the cages as `--cages` reads them.
    let out = run(&["solve", "-q", "--format", "json"], lines.clone());
    for (index, object) in stdout(&out).lines().enumerate() {
        assert!(object.contains(&format!("\"regions\":\"{}\"", maps[index].0)), "{object}");
        let cages = lazydoku::Rules::jigsaw(maps[index].0).unwrap().with_cage_json(object).unwrap();
        assert_eq!(cages, rules[index]);
    }
    // The steps of `hint` and `explain` name cells of those regions and
    // cages: their objects carry the rules too.
    for question in ["hint", "explain"] {
        let out = run(&[question, "-q", "--format", "json"], lines.clone());
        let objects: Vec<String> = stdout(&out).lines().map(str::to_owned).collect();
        assert_eq!(objects.len(), 2, "{objects:?}");
        for (index, object) in objects.iter().enumerate() {
            assert!(object.contains(&format!("\"regions\":\"{}\"", maps[index].0)), "{object}");
            let cages = lazydoku::Rules::jigsaw(maps[index].0).unwrap().with_cage_json(object).unwrap();
            assert_eq!(cages, rules[index], "{object}");
        }
    }
    // The rate CSV's puzzle column is the puzzle's line, rules and all.
    let out = run(&["rate", "-q"], lines.clone());
    let rows: Vec<String> = stdout(&out).lines().skip(1).map(str::to_owned).collect();
    assert_eq!(rows.len(), 2);
    for (row, line) in rows.iter().zip(lines.lines()) {
        assert!(row.starts_with(&format!("{line},1,")), "{row}");
    }
}

/// A grid's rules lines that reach the pipe after its rows, in a write of
/// their own, are still read with it; and a grid with none is answered
/// while the input stays open.
#[test]
fn a_grid_and_its_rules_lines_written_apart_are_read_together() {
    use std::io::BufRead;
    let generated = run(&["generate", "--count", "1", "--seed", "1", "--jigsaw", "--killer", "--format", "grid"], "");
    let text = stdout(&generated);
    let at = text.find("regions ").unwrap();
    let (rows, rules) = text.split_at(at);
    // Waits a minute for the rules at most: the pause below is far shorter
    // on any machine.
    let mut child = common::lazydoku()
        .args(["check", "-q"])
        .env("LAZYDOKU_GRID_RULES_WAIT_MS", "60000")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    pipe.write_all(rows.as_bytes()).unwrap();
    pipe.flush().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(200));
    pipe.write_all(rules.as_bytes()).unwrap();
    drop(pipe);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stdout(&out));
    assert_eq!(stdout(&out).trim(), "unique");

    // With the input left open, the answer to a grid comes all the same,
    // after the short wait for rules lines.
    let mut child =
        common::lazydoku().args(["solve", "-q"]).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    let mut pipe = child.stdin.take().unwrap();
    pipe.write_all(b"1 . . .\n. . 3 .\n. 4 . .\n. . . 2\n").unwrap();
    pipe.flush().unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    assert_eq!(first, "1 3 2 4\n");
    drop(pipe);
    assert!(child.wait().unwrap().success());
}

#[test]
fn rate_writes_a_csv_header_and_one_row_per_puzzle_the_same_for_any_jobs() {
    let input = format!("# a comment\n{EASY}\n{HARD1}\n{UNSOLVABLE}\n");
    let one = run(&["rate", "--jobs", "1"], input.clone());
    let two = run(&["rate", "--jobs", "2"], input);
    assert_eq!(stdout(&one), stdout(&two));
    let text = stdout(&one);
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(rows[0], ["puzzle", "solutions", "givens", "guesses", "hardest", "score", "level", "canonical"]);
    assert_eq!(rows.len(), 4, "{text}"); // the comment is left out of the CSV
    let easy: lazydoku::Board = EASY.parse().unwrap();
    let rating = easy.rate();
    let canonical = easy.canonical().unwrap();
    let expected = [
        EASY,
        "1",
        "32",
        "0",
        rating.hardest().unwrap().name(),
        &rating.score().to_string(),
        "easy",
        canonical.as_str(),
    ];
    assert_eq!(rows[1], expected);
    assert_eq!(rows[2][1], "2", "{text}"); // HARD1 has many solutions: counted to 2
    assert_eq!((rows[3][1], rows[3][6]), ("0", "beyond"));
    assert_eq!(one.status.code(), Some(1)); // one puzzle without solution
    let json = run(&["rate", "--format", "json"], format!("{EASY}\n"));
    let text = stdout(&json);
    assert!(text.starts_with("{\"file\":\"-\",\"line\":1,\"status\":\"rated\",\"puzzle\":\""), "{text}");
    assert!(text.contains("\"solutions\":1,\"givens\":32,\"guesses\":0,"), "{text}");
}

#[test]
fn hint_and_explain_print_steps_that_the_solution_bears_out() {
    let out = run(&["hint", EASY], "");
    assert!(out.status.success());
    let hint = stdout(&out);
    let board: lazydoku::Board = EASY.parse().unwrap();
    assert_eq!(hint.trim_end(), board.hint().unwrap().to_string());
    let out = run(&["explain", EASY], "");
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], format!("1. {}", hint.trim_end()));
    assert_eq!(lines.last(), Some(&format!("solved by logic in {} steps", lines.len() - 1).as_str()));
    // JSON: every placement is the solution's digit.
    let out = run(&["explain", "--format", "json", EASY], "");
    let text = stdout(&out);
    let placed: Vec<(usize, u8)> = text
        .split("\"placements\":[")
        .skip(1)
        .flat_map(|rest| rest.split(']').next().unwrap_or_default().split("],[").map(str::to_owned).collect::<Vec<_>>())
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let pair = pair.trim_matches(['[', ']']);
            let (cell, digit) = pair.split_once(',').unwrap();
            (cell.parse().unwrap(), digit.parse().unwrap())
        })
        .collect();
    assert_eq!(placed.len(), board.empty_cells(), "{text}");
    let solution = board.solve().unwrap();
    assert!(placed.iter().all(|&(cell, digit)| solution.get(cell) == Some(digit)));
    // A puzzle logic cannot finish says so, and is no failure.
    let hardest = common::load("puzzles6_forum_hardest_1106")[0].clone();
    let out = run(&["explain", &hardest], "");
    assert!(out.status.success());
    assert!(stdout(&out).lines().last().unwrap().starts_with("stuck after "), "{}", stdout(&out));
    let out = run(&["hint", "12....3...4....."], "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out).trim_end(), "contradiction: the candidates leave no solution");
}

#[test]
fn canon_prints_one_form_per_class_and_unique_drops_repeats() {
    let easy: lazydoku::Board = EASY.parse().unwrap();
    let disguised: Vec<String> = (0..3).map(|seed| easy.transformed(seed).as_str().to_owned()).collect();
    let input = format!("{EASY}\n{}\n{HARD1}\n", disguised.join("\n"));
    let out = run(&["canon"], input.clone());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5);
    assert!(lines[..4].iter().all(|l| *l == easy.canonical().unwrap().as_str()));
    assert_ne!(lines[4], lines[0]);
    let out = run(&["canon", "--unique"], input);
    assert_eq!(stdout(&out).lines().collect::<Vec<_>>(), [lines[0], lines[4]]);
    // In a JSON array, a repeat goes with a comma beside it: the answers
    // are still an array, laid out as the puzzles were.
    let (a, b, c) = (&disguised[0], &disguised[1], HARD1);
    let (easy_form, hard_form) = (lines[0], lines[4]);
    let cases = [
        (format!("[\"{a}\",\"{b}\",\"{c}\"]"), format!("[\"{easy_form}\",\"{hard_form}\"]")),
        (format!("[\"{a}\",\"{c}\",\"{b}\"]"), format!("[\"{easy_form}\",\"{hard_form}\"]")),
        (format!("[\"{c}\",\"{a}\",\"{c}\",\"{b}\",\"{c}\"]"), format!("[\"{hard_form}\",\"{easy_form}\"]")),
        (format!("[{{\"puzzle\":\"{a}\"}},{{\"puzzle\":\"{b}\"}}]"), format!("[{{\"puzzle\":\"{easy_form}\"}}]")),
        (
            format!("[\n  {{\"puzzle\":\"{a}\"}},\n  {{\"puzzle\":\"{b}\"}},\n  {{\"puzzle\":\"{c}\"}}\n]"),
            format!("[\n  {{\"puzzle\":\"{easy_form}\"}},\n  {{\"puzzle\":\"{hard_form}\"}}\n]"),
        ),
        (format!("[\n  \"{a}\",\n  \"{c}\",\n  \"{b}\"\n]"), format!("[\n  \"{easy_form}\",\n  \"{hard_form}\"\n]")),
        // Every value a repeat of a puzzle before the array.
        (format!("{a}\n[\n  \"{b}\",\n  \"{a}\"\n]"), format!("{easy_form}\n[\n]")),
        (format!("{a}\n[\"{b}\"]"), format!("{easy_form}\n[]")),
        // Blank lines inside the array, more than are held back at once.
        (
            format!("[\n  \"{a}\",{}\n  \"{b}\"\n]", "\n".repeat(1100)),
            format!("[\n  \"{easy_form}\"{}\n]", "\n".repeat(1100)),
        ),
        (
            format!("[\n  \"{a}\",{}\n  \"{c}\"\n]", "\n".repeat(1100)),
            format!("[\n  \"{easy_form}\"{}\n  ,\"{hard_form}\"\n]", "\n".repeat(1100)),
        ),
        // Commas that JSON does not allow, mended around the repeats.
        (format!("[\"{a}\",,\"{b}\",\"{c}\"]"), format!("[\"{easy_form}\",\"{hard_form}\"]")),
        (format!("[\"{a}\" \"{b}\" \"{c}\",]"), format!("[\"{easy_form}\", \"{hard_form}\"]")),
    ];
    for (input, expected) in cases {
        let out = run(&["canon", "--unique", "-q", "-"], format!("{input}\n"));
        assert_eq!(stdout(&out), format!("{expected}\n"), "{input}");
    }
    let out = run(&["canon", "--format", "json", EASY], "");
    assert!(stdout(&out).contains("\"automorphisms\":1}"), "{}", stdout(&out));
}

#[test]
fn canon_turns_and_relabels_variant_puzzles_and_keeps_other_rules_apart() {
    use lazydoku::{Rules, Shape, Turn, generate::Generator};
    // Windoku: a puzzle, turned and relabelled, and turned alone, are one.
    let windoku = Rules::new(Shape::NINE).with_windows();
    let puzzle = Generator::new(windoku).seed(1).puzzles().next().unwrap();
    let form = puzzle.canonical().unwrap();
    let input = format!("{puzzle}\n{}\n{}\n", puzzle.transformed(5), puzzle.turned(Turn::Anticlockwise));
    let out = run(&["canon", "--windoku"], input.clone());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout(&out), format!("{form}\n{form}\n{form}\n"));
    let out = run(&["canon", "--unique", "--windoku"], input);
    assert_eq!(stdout(&out), format!("{form}\n"));
    // The same digits under two region maps are two puzzles; each map comes
    // back with its form.
    let pinwheel = "1......2...3.... aaabcabbccdbcddd";
    let boxes = "1......2...3.... aabbaabbccddccdd";
    let out = run(&["canon", "--unique", "-q"], format!("{pinwheel}\n{boxes}\n{pinwheel}\n"));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].ends_with(" aaabcabbccdbcddd") && lines[1].ends_with(" aabbaabbccddccdd"), "{text}");
    // A jigsaw puzzle and its turn, map and all, are one; the first is kept.
    let jigsaw = Rules::jigsaw("aaabb aabbb cccdd ccedd eeeed").unwrap();
    let puzzle = jigsaw.parse("1....2...........3......4").unwrap();
    let turned = puzzle.turned(Turn::LeftToRight);
    let lines = format!("{puzzle} {}\n{turned} {}\n", jigsaw.region_map(), turned.rules().region_map());
    let out = run(&["canon", "-q"], lines.clone());
    assert_eq!(stdout(&out).lines().count(), 2);
    let out = run(&["canon", "--unique", "-q"], lines);
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert_eq!(text.trim_end(), format!("{} {}", puzzle.canonical().unwrap(), jigsaw.region_map()));
}

#[test]
fn generate_makes_puzzles_of_the_difficulty_asked_for() {
    let out = run(&["generate", "--count", "2", "--seed", "4", "--difficulty", "hard", "--guesses", "1-"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    for line in stdout(&out).lines() {
        let rating = line.parse::<lazydoku::Board>().unwrap().rate();
        assert_eq!(rating.level(), lazydoku::explain::Level::Hard, "{line}");
        assert!(rating.guesses() >= 1, "{line}");
    }
    let bad = run(&["generate", "--guesses", "9-3"], "");
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("its first number is larger than its second"), "{}", stderr(&bad));
    let bad = run(&["generate", "--difficulty", "fiendish"], "");
    assert!(stderr(&bad).contains("expected easy, medium, hard, expert or beyond"), "{}", stderr(&bad));
    // A level the rules never reach is said to be that, not a lack of
    // solutions (4x4 puzzles never need expert techniques).
    let none = run(&["generate", "--shape", "2x2", "--difficulty", "expert", "--count", "1", "-j", "1"], "");
    assert_eq!(none.status.code(), Some(2));
    let said = stderr(&none);
    assert!(said.contains("no puzzle of the difficulty asked for came in 10000 tries, for puzzle 1"), "{said}");
    // A floor of givens that leaves every try too easy is named as the
    // cause.
    let floor = run(&["generate", "--difficulty", "hard", "--clues", "60", "--count", "1", "-j", "1"], "");
    assert_eq!(floor.status.code(), Some(2));
    assert!(
        stderr(&floor).contains("the floor of givens left each of the first 10000 puzzles easier"),
        "{}",
        stderr(&floor)
    );
    // Guesses are counted up to 100000, so a range above it is refused.
    let bad = run(&["generate", "--guesses", "100001-"], "");
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("guesses are counted up to 100000"), "{}", stderr(&bad));
    // Rules with no solution still say so: each cage needs 1 and 2.
    let cages = "AABB............ A=3 B=3";
    let none = run(&["generate", "--shape", "2x2", "--cages", cages, "--count", "1"], "");
    assert!(stderr(&none).contains("these rules have no solution"), "{}", stderr(&none));
}

/// A JSON array of puzzles as a generator of arrays writes it: `values`
/// (each an object or a string) on one line, a line each as `jq .` writes
/// them, or apart by blanks; `blank` lines after the lines whose index it
/// holds.
fn json_array(values: &[String], layout: u8, blank: &[usize]) -> String {
    match layout {
        0 => format!("[{}]", values.join(",")),
        1 if values.is_empty() => "[]".to_owned(),
        1 => {
            let lines: Vec<String> = std::iter::once("[".to_owned())
                .chain(values.iter().enumerate().map(|(k, v)| {
                    let comma = if k + 1 < values.len() { "," } else { "" };
                    format!("  {v}{comma}")
                }))
                .chain(std::iter::once("]".to_owned()))
                .collect();
            let last = lines.len() - 1;
            let mut text = String::new();
            for (k, line) in lines.iter().enumerate() {
                text.push_str(line);
                text.push('\n');
                if k < last && blank.contains(&k) {
                    text.push('\n');
                }
            }
            text.trim_end().to_owned()
        }
        _ => format!("[ {} ]", values.join(" , ")),
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Whatever the layout, the answers to an array of puzzles parse as a
    /// JSON array of as many values (of the distinct ones, for
    /// `canon --unique`), each what its question answers.
    #[test]
    fn answers_to_a_json_array_are_a_json_array(
        picks in proptest::collection::vec(0usize..3, 0..6),
        strings: bool,
        layout in 0u8..3,
        blank in proptest::collection::vec(0usize..8, 0..3),
    ) {
        let puzzles = [
            EASY,
            "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        ];
        let values: Vec<String> = picks
            .iter()
            .map(|&k| if strings { format!("\"{}\"", puzzles[k]) } else { format!("{{\"puzzle\":\"{}\"}}", puzzles[k]) })
            .collect();
        let input = json_array(&values, layout, &blank) + "\n";
        let parse = |args: &[&str]| -> Vec<serde_json::Value> {
            let out = run(args, &input);
            assert!(out.status.success(), "{args:?} {input}: {}", stderr(&out));
            match serde_json::from_slice(&out.stdout) {
                Ok(serde_json::Value::Array(values)) => values,
                other => panic!("{args:?} {input}: not a JSON array: {other:?} from {}", stdout(&out)),
            }
        };
        let solved = parse(&["solve", "-q", "-"]);
        proptest::prop_assert_eq!(solved.len(), picks.len());
        for (value, &k) in solved.iter().zip(&picks) {
            let text = if strings { value.as_str() } else { value["puzzle"].as_str() };
            let solution = puzzles[k].parse::<lazydoku::Board>().unwrap().solve().unwrap();
            proptest::prop_assert_eq!(text, Some(solution.as_str()));
        }
        let counts = parse(&["count", "-q", "-"]);
        proptest::prop_assert!(counts.len() == picks.len() && counts.iter().all(|c| c.as_u64() == Some(1)), "{:?}", counts);
        let words = parse(&["check", "-q", "-"]);
        proptest::prop_assert!(words.len() == picks.len() && words.iter().all(|w| w.as_str() == Some("unique")), "{:?}", words);
        let all = parse(&["all", "--limit", "2", "-q", "-"]);
        proptest::prop_assert_eq!(all.len(), picks.len());
        let mut distinct = picks.clone();
        distinct.sort_unstable();
        distinct.dedup();
        let forms = parse(&["canon", "--unique", "-q", "-"]);
        proptest::prop_assert_eq!(forms.len(), distinct.len());
    }
}

#[test]
fn transform_writes_equivalent_puzzles_in_their_own_format() {
    use lazydoku::{Board, Rules, Turn};
    let easy: Board = EASY.parse().unwrap();
    // Twice the same puzzle, a comment and a blank line between: each line
    // gets a draw of its own, and the run is the same every time.
    let input = format!("{EASY}\n{EASY}\n# kept\n\n{HARD1}\n");
    let out = run(&["transform", "--seed", "3"], input.clone());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert_eq!(lines[2..4], ["# kept", ""]);
    assert_ne!(lines[0], lines[1]);
    for (line, original) in [(lines[0], EASY), (lines[1], EASY), (lines[4], HARD1)] {
        let board: Board = line.parse().unwrap();
        let original: Board = original.parse().unwrap();
        assert_eq!(board.canonical(), original.canonical(), "{line}");
        assert_ne!(board, original);
    }
    assert_eq!(stdout(&run(&["transform", "--seed", "3"], input)), text);
    // One turn for every puzzle.
    let out = run(&["transform", "--turn", "clockwise", EASY], "");
    assert_eq!(stdout(&out).trim_end(), easy.turned(Turn::Clockwise).as_str());
    // A jigsaw with its map on the line: the draw may turn the map, written
    // with it; with the map given by a flag, the draw keeps it.
    let jigsaw = Rules::jigsaw("aaabb aabbb cccdd ccedd eeeed").unwrap();
    let puzzle = jigsaw.parse("1....2...........3......4").unwrap();
    let line = format!("{puzzle} {}", jigsaw.region_map());
    let parser = lazydoku::format::Parser::new();
    for seed in ["1", "2", "5"] {
        let out = run(&["transform", "--seed", seed, "-q", &line], "");
        let (back, _) = parser.parse(stdout(&out).trim_end()).unwrap();
        assert_eq!(back.canonical_with_rules(), puzzle.canonical_with_rules(), "seed {seed}");
        let map = jigsaw.region_map();
        let out = run(&["transform", "--seed", seed, "-q", "--regions", &map, &puzzle.to_string()], "");
        let kept = jigsaw.parse(stdout(&out).trim_end()).unwrap();
        assert_eq!(kept.canonical(), puzzle.canonical(), "seed {seed}");
    }
    // A turn that moves the map writes the turned map, as `generate` would;
    // f-puzzles writes it too, as a link.
    let turned = puzzle.turned(Turn::LeftToRight);
    let out = run(&["transform", "--turn", "left-to-right", "-q", &line], "");
    assert_eq!(stdout(&out).trim_end(), format!("{turned} {}", turned.rules().region_map()));
    // A trailing comment stays after the rewritten map.
    let out = run(&["transform", "--turn", "left-to-right", "-q", &format!("{line}  # a jigsaw")], "");
    assert_eq!(stdout(&out).trim_end(), format!("{turned} {} # a jigsaw", turned.rules().region_map()));
    let out = run(&["transform", "--turn", "left-to-right", "-q", "--format", "f-puzzles", &line], "");
    assert!(out.status.success());
    assert_eq!(stdout(&out).trim_end().parse::<Board>().unwrap(), turned);
    // Rules given on the command line stay as given: a turn that moves them
    // is an error for that puzzle.
    let map = jigsaw.region_map();
    let out = run(&["transform", "--turn", "left-to-right", "-q", "--regions", &map, &puzzle.to_string()], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).starts_with("invalid: the turn moves this puzzle's rules"), "{}", stdout(&out));
    // A killer line: cages and sums turned, one solution still.
    let killer = "...........4..2...................6.........13................................... abbccdddeaabfccddegabfhijjjgklliijjmnkloppqrrnstopuqrrvvtouuwxxvvtyyzAAxBBBCDDAAA a=25 b=14 c=17 d=25 e=14 f=12 g=7 h=7 i=14 j=20 k=12 l=21 m=7 n=7 o=8 p=18 q=13 r=16 s=6 t=15 u=14 v=26 w=8 x=16 y=12 z=3 A=21 B=6 C=8 D=13";
    let out = run(&["transform", "--turn", "clockwise", "-q", &format!("{killer} # ten cages")], "");
    let turned_killer = stdout(&out);
    assert!(
        turned_killer.trim_end().ends_with(" D=13 # ten cages") || turned_killer.trim_end().ends_with("# ten cages")
    );
    let turned_killer = turned_killer.trim_end().trim_end_matches("# ten cages");
    let original: Board = lazydoku::format::Parser::new().parse(killer).unwrap().0;
    let read: Board = lazydoku::format::Parser::new().parse(turned_killer.trim_end()).unwrap().0;
    assert_eq!(read, original.turned(Turn::Clockwise));
    // A seed and a turn together are a usage error.
    let out = run(&["transform", "--seed", "1", "--turn", "half", EASY], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_5x5_board_with_its_map_and_a_worded_comment_is_a_puzzle_not_a_header() {
    // 25 symbols are as many as a 25x25 grid's row, and "a jigsaw" made the
    // line look like a header such as `Grid 01`: it was passed through.
    let line = "......................... aaabbaabbbcccddcceddeeeed # a jigsaw";
    let out = run(&["count", "-q", "--limit", "3", line], "");
    assert_eq!(stdout(&out), "3\n");
    // A header line before it still passes through.
    let out = run(&["count", "-q", "--limit", "3"], format!("Grid 01\n{line}\n"));
    assert_eq!(stdout(&out), "Grid 01\n3\n");
}

#[test]
fn large_counts_beyond_classic_rules_are_the_same_on_any_jobs() {
    // Counts to 10,000 or more are shared among the jobs, with clause
    // learning racing the shared count on boards other than classic 9x9:
    // a 6x6 board of some hundreds of solutions, 16x16 puzzles of one and
    // of many, and a killer puzzle.
    let data = |file: &str| std::fs::read_to_string(format!("{}/data/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let (removed, killer) = (data("removed16.txt"), data("killer16.txt"));
    let puzzles = |text: &str| text.lines().filter(|l| !l.starts_with('#')).map(str::to_owned).collect::<Vec<_>>();
    let (removed, killer) = (puzzles(&removed), puzzles(&killer));
    let lines = [format!("123456456123{}", ".".repeat(24)), removed[0].clone(), removed[5].clone(), killer[0].clone()];
    let expected: String = lines
        .iter()
        .map(|line| line.parse::<lazydoku::Board>().unwrap().count_solutions(10_000).to_string() + "\n")
        .collect();
    let input = lines.join("\n") + "\n";
    for jobs in ["1", "2"] {
        let o = run(&["count", "--limit", "10000", "-q", "--jobs", jobs], &input);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(stdout(&o), expected, "{jobs} jobs");
    }
}
