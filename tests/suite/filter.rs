//! The command line as a Unix filter: streaming, one line in and one line
//! out, arguments and input that never surprise. Each test is named after
//! what went wrong before it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::common::{lazydoku, run, temp_file};

const EASY: &str = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
const EASY_SOLVED: &str = "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
/// A guard against hanging forever, not a speed check: each step it guards
/// takes milliseconds.
const HANG: Duration = Duration::from_secs(120);

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_lazydoku")
}

fn bash(script: &str) -> Output {
    // The script names the binary as "$0".
    Command::new("bash").args(["-c", script, bin()]).stdin(Stdio::null()).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A one-line board as a grid of rows of symbols without spaces.
fn rows_of(line: &str, side: usize) -> String {
    let mut grid = String::new();
    for row in line.as_bytes().chunks(side) {
        grid.push_str(&text(row));
        grid.push('\n');
    }
    grid
}

/// Reads lines from a child's stdout on another thread, so that a test can
/// wait for one line with a guard against hanging.
fn line_reader(child: &mut Child) -> mpsc::Receiver<String> {
    let out = BufReader::new(child.stdout.take().unwrap());
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        for line in out.lines() {
            if send.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    receive
}

#[test]
fn all_streams_solutions_of_the_empty_board_instead_of_gathering_them() {
    // The empty board has about 6.7e21 solutions: gathering them first never ends.
    let mut child = lazydoku()
        .args(["all", "-q", &".".repeat(81)])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let lines = line_reader(&mut child);
    for _ in 0..3 {
        let line = lines.recv_timeout(HANG).expect("a solution as soon as it is found");
        assert_eq!(line.len(), 81);
        assert!(!line.contains('.'));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // Through `head`, the command ends once head has its lines.
    let out = bash(r#""$0" all "$(printf '.%.0s' {1..81})" | head -3"#);
    assert_eq!(text(&out.stdout).lines().count(), 3);
}

#[test]
fn an_answer_leaves_before_the_next_puzzle_arrives() {
    let mut child = lazydoku()
        .args(["solve", "-q"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let lines = line_reader(&mut child);
    writeln!(input, "{EASY}").unwrap();
    input.flush().unwrap();
    // Stdin stays open: an answer that waited for a chunk or for the end would never come.
    assert_eq!(lines.recv_timeout(HANG).expect("the first answer while input is still open"), EASY_SOLVED);
    writeln!(input, "{EASY}").unwrap();
    input.flush().unwrap();
    assert_eq!(lines.recv_timeout(HANG).expect("the second answer"), EASY_SOLVED);
    drop(input);
    assert!(child.wait().unwrap().success());
}

#[test]
fn a_missing_file_with_an_extension_is_named_as_missing() {
    let out = run(&["solve", "puzzles.txt"], "");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stderr), "lazydoku: puzzles.txt: no such file\n");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_directory_is_named_as_a_directory() {
    let dir = std::env::temp_dir();
    let out = run(&["solve", dir.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("is a directory"), "{}", text(&out.stderr));
}

#[test]
fn a_file_given_without_a_command_gets_the_command_suggested() {
    let file = temp_file("plain.txt", format!("{EASY}\n"));
    let out = run(&[file.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains(&format!("run: lazydoku solve {}", file.to_str().unwrap())), "{err}");
    let out = run(&[EASY], "");
    assert!(text(&out.stderr).contains(&format!("lazydoku solve {EASY}")), "{}", text(&out.stderr));
}

#[test]
fn a_byte_order_mark_is_ignored() {
    let out = run(&["solve", "-q"], format!("\u{feff}{EASY}\n"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), format!("{EASY_SOLVED}\n"));
}

#[test]
fn grids_apart_by_a_blank_line_are_two_puzzles() {
    let grid = rows_of(EASY, 9);
    let out = run(&["solve", "-q"], format!("{grid}\n{grid}"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let solved = rows_of(EASY_SOLVED, 9);
    assert_eq!(text(&out.stdout), format!("{solved}\n{solved}"));
}

#[test]
fn project_euler_grids_with_headers_are_read() {
    let euler = "Grid 01\n003020600\n900305001\n001806400\n008102900\n700000008\n006708200\n002609500\n800203009\n\
                 005010300\nGrid 02\n200080300\n060070084\n030500209\n000105408\n000000000\n402706000\n301007040\n\
                 720040060\n004010003\n";
    let out = run(&["solve", "-q"], euler);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let answer = text(&out.stdout);
    let lines: Vec<&str> = answer.lines().collect();
    assert_eq!(lines.len(), 20);
    assert_eq!(lines[0], "Grid 01");
    assert_eq!(lines[1], "483921657");
    assert_eq!(lines[10], "Grid 02");
    assert_eq!(lines[11], "245981376");
    let check = run(&["check", "-q"], euler);
    assert_eq!(
        text(&check.stdout).lines().filter(|l| !l.is_empty()).collect::<Vec<_>>(),
        ["Grid 01", "unique", "Grid 02", "unique"]
    );
}

#[test]
fn a_matrix_of_eight_rows_of_nine_says_it_lacks_a_row() {
    let row = "[1, 0, 0, 0, 0, 0, 0, 0, 0]";
    let matrix = format!("[{}]", [row; 8].join(", "));
    let out = run(&["solve", "-q"], &matrix);
    assert_eq!(
        text(&out.stdout),
        "invalid: the grid has 8 rows but its rows have 9 cells; a board needs as many rows as columns\n"
    );
}

#[test]
fn a_shape_that_does_not_fit_the_line_says_what_it_expected() {
    let out = run(&["solve", "--shape", "2x2", "-q", EASY], "");
    assert_eq!(
        text(&out.stdout),
        "invalid: a one-line puzzle has 81 cells, but boxes of 2x2 make a 4x4 board of 16 cells\n"
    );
}

#[test]
fn zero_limits_and_jobs_are_usage_errors_and_jobs_are_capped() {
    for args in [&["count", "--limit", "0"][..], &["all", "--limit", "0"], &["solve", "--jobs", "0"]] {
        let out = run(&[args, &[EASY]].concat(), "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).contains("must be at least 1"), "{}", text(&out.stderr));
    }
    let out = run(&["solve", "--jobs", "1000", EASY], "");
    assert!(out.status.success());
    assert!(text(&out.stderr).contains("--jobs 1000 is more than the"), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), format!("{EASY_SOLVED}\n"));
}

#[test]
fn hex_answers_are_in_hex_in_every_format() {
    let hex = format!("0123456789ABCDEF{}", ".".repeat(240));
    let line = text(&run(&["solve", "--hex", "-q", "--format", "line", &hex], "").stdout);
    assert!(line.starts_with("0123456789ABCDEF"), "{line}");
    assert!(line.trim().chars().all(|c| c.is_ascii_hexdigit()), "{line}");
    let grid = text(&run(&["solve", "--hex", "-q", "--format", "grid", &hex], "").stdout);
    assert!(grid.starts_with("0 1 2 3 | 4 5 6 7 | 8 9 A B | C D E F"), "{grid}");
    let json = text(&run(&["solve", "--hex", "-q", "--format", "json", &hex], "").stdout);
    assert!(json.contains("\"solution\":\"0123456789ABCDEF"), "{json}");
    assert!(!json.contains('G'), "{json}");
}

#[test]
fn bench_on_a_missing_file_is_an_error() {
    let out = run(&["bench", "no-such-dataset.txt"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no-such-dataset.txt"), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty(), "no table row for a missing file");
}

#[test]
fn json_records_carry_the_file_name() {
    let file = temp_file("named.txt", format!("# comment\n{EASY}\n"));
    let path = file.to_str().unwrap();
    let out = run(&["solve", "--format", "json", path], "");
    assert_eq!(
        text(&out.stdout),
        format!("{{\"file\":\"{path}\",\"line\":2,\"status\":\"solved\",\"solution\":\"{EASY_SOLVED}\"}}\n")
    );
}

#[test]
fn a_node_budget_stops_one_puzzle_and_the_batch_goes_on() {
    let hard = ".....6....59.....82....8....45........3........6..3.54...325..6..................";
    let out = run(&["count", "--limit", "100000", "--max-nodes", "50", "-"], format!("{hard}\n{EASY}\n"));
    assert_eq!(out.status.code(), Some(1));
    let answer = text(&out.stdout);
    let lines: Vec<&str> = answer.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(
        lines[0].starts_with("stopped: stopped after 50 nodes: the budget of 50 nodes was spent ("),
        "{}",
        lines[0]
    );
    assert_eq!(lines[1], "1");
    let err = text(&out.stderr);
    assert!(err.contains("lazydoku: -:1: stopped after 50 nodes"), "{err}");
    assert!(err.contains("1 stopped"), "{err}");
    // The same budget stops `solve` and `all`, and a time budget stops an endless enumeration.
    let solve = run(&["solve", "--max-nodes", "1", "-q", &".".repeat(625)], "");
    assert!(text(&solve.stdout).starts_with("stopped: stopped after 1 nodes"), "{}", text(&solve.stdout));
    let all = run(&["all", "--timeout", "0.2", "-q", &".".repeat(81)], "");
    assert_eq!(all.status.code(), Some(1));
    let last = text(&all.stdout).lines().last().map(str::to_owned).unwrap_or_default();
    assert!(last.starts_with("stopped: stopped after"), "{last}");
    assert!(last.contains("the time budget of 0.2 s was spent"), "{last}");
}

#[test]
fn a_closed_pipe_on_stdout_and_stderr_is_no_panic() {
    let file = temp_file("many.txt", format!("{EASY}\n").repeat(20_000));
    let path = file.to_str().unwrap();
    for command in ["solve", "bench"] {
        let out = bash(&format!(r#""$0" {command} {path} 2>&1 | head -1 >/dev/null; echo "${{PIPESTATUS[0]}}""#));
        let status = text(&out.stdout).trim().to_owned();
        assert_ne!(status, "101", "{command} panicked");
        assert!(status == "0" || status == "1", "{command}: {status}");
    }
}

#[test]
fn output_that_cannot_be_written_is_an_error() {
    if !std::path::Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full here");
        return;
    }
    for args in [&["trace", EASY][..], &["bench", "--rounds", "1", "data/norvig_top95.txt"], &["solve", EASY]] {
        let out = lazydoku()
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains("cannot write the output"), "{}", text(&out.stderr));
    }
}

#[test]
fn a_huge_shape_is_refused() {
    let out = run(&["solve", "--shape", "9223372036854775808x2", EASY], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("at most 25"), "{}", text(&out.stderr));
}

#[test]
fn carriage_returns_alone_end_lines() {
    let out = run(&["check", "-q"], format!("{EASY}\r{EASY}\r{EASY}\r"));
    assert_eq!(text(&out.stdout), "unique\nunique\nunique\n");
}

#[test]
fn crlf_input_is_answered_with_crlf() {
    let crlf = run(&["check", "-q"], format!("{EASY}\r\n\r\n# note\r\n{EASY}\r\n"));
    assert_eq!(text(&crlf.stdout), "unique\r\n\r\n# note\r\nunique\r\n");
    let lf = run(&["check", "-q"], format!("{EASY}\n\n# note\n{EASY}\n"));
    assert_eq!(text(&lf.stdout), "unique\n\n# note\nunique\n");

    // Every line of a multi-line answer, a grid read and written back.
    let grid = rows_of(EASY, 9);
    let out = run(&["solve", "-q"], grid.replace('\n', "\r\n"));
    assert_eq!(text(&out.stdout), rows_of(EASY_SOLVED, 9).replace('\n', "\r\n"));

    // The CSV header of `rate` and the solutions `all` streams.
    let out = run(&["rate", "-q"], format!("{EASY}\r\n"));
    let rows = text(&out.stdout);
    assert!(rows.starts_with("puzzle,solutions,") && rows.matches("\r\n").count() == 2, "{rows:?}");
    assert_eq!(rows.matches('\n').count(), 2, "{rows:?}");
    let out = run(&["all", "-q", "--limit", "3"], "................\r\n");
    let solutions = text(&out.stdout);
    assert!(
        solutions.lines().count() >= 3 && solutions.split_inclusive('\n').all(|l| l.ends_with("\r\n")),
        "{solutions:?}"
    );

    // Each file by its own first line's ending.
    let windows = temp_file("crlf-windows.txt", format!("{EASY}\r\n"));
    let unix = temp_file("crlf-unix.txt", format!("{EASY}\n"));
    let out = run(&["solve", "-q", windows.to_str().unwrap(), unix.to_str().unwrap()], "");
    assert_eq!(text(&out.stdout), format!("{EASY_SOLVED}\r\n{EASY_SOLVED}\n"));
}

#[test]
fn a_second_puzzle_on_a_line_is_an_error_not_a_comment() {
    let out = run(&["solve", "-q", "-"], format!("{EASY} {EASY}\n"));
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).starts_with("invalid: a second puzzle starts here"), "{}", text(&out.stdout));
}

#[test]
fn compact_grids_of_every_size_are_read() {
    for (box_rows, box_cols) in [(4, 4), (5, 5), (3, 4), (2, 3)] {
        let side = box_rows * box_cols;
        let board = lazydoku::Board::empty(lazydoku::Shape::new(box_rows, box_cols)).solve().unwrap();
        // Two givens in three, written as rows of symbols without spaces.
        let kept: String = board
            .as_str()
            .chars()
            .enumerate()
            .map(|(cell, c)| if (cell / side + cell % side) % 3 == 0 { '.' } else { c })
            .collect();
        let grid = rows_of(&kept, side);
        let shape = format!("{box_rows}x{box_cols}");
        let out = run(&["solve", "-q", "--shape", &shape], &grid);
        assert!(out.status.success(), "{side}: {}{}", text(&out.stdout), text(&out.stderr));
        assert_eq!(text(&out.stdout).lines().count(), side);
        assert!(!text(&out.stdout).contains('.'));
    }
    // 16x16 needs no shape: its symbols say it is no 4x4 board.
    let sixteen = lazydoku::Board::empty(lazydoku::Shape::new(4, 4)).solve().unwrap();
    let grid = rows_of(sixteen.as_str(), 16);
    let out = run(&["check", "-q"], &grid);
    assert_eq!(text(&out.stdout).lines().next(), Some("unique"), "{}", text(&out.stdout));
}

#[test]
fn fifos_dev_stdin_and_process_substitution_are_files() {
    let out = run(&["solve", "-q", "/dev/stdin"], format!("{EASY}\n"));
    assert_eq!(text(&out.stdout), format!("{EASY_SOLVED}\n"), "{}", text(&out.stderr));
    let out = bash(&format!(r#""$0" solve -q <(echo {EASY})"#));
    assert_eq!(text(&out.stdout), format!("{EASY_SOLVED}\n"), "{}", text(&out.stderr));
    let dir = std::env::temp_dir().join(format!("lazydoku-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("puzzles");
    let _ = std::fs::remove_file(&fifo);
    let made = Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success());
    if made {
        let out = bash(&format!(r#"(echo {EASY} > {0}) & "$0" solve -q {0}"#, fifo.display()));
        assert_eq!(text(&out.stdout), format!("{EASY_SOLVED}\n"), "{}", text(&out.stderr));
    }
}

#[test]
fn the_breadth_first_guard_counts_bytes() {
    let out = run(&["count", "--order", "bfs", "--max-memory", "10M", "-q", &".".repeat(625)], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).starts_with("stopped: the breadth-first frontier passed 10485760 bytes"),
        "{}",
        text(&out.stdout)
    );
}

/// What `command` with `args` writes for `file` on `jobs` jobs: stdout,
/// stderr without the summary (whose rate differs from run to run), and
/// the exit status.
fn answered_on(jobs: &str, command: &str, args: &[&str], file: &str) -> (String, String, Option<i32>) {
    let out = lazydoku().args([command, "--jobs", jobs]).args(args).arg(file).output().unwrap();
    let stderr = text(&out.stderr);
    // Nor the note that there are fewer cores than jobs, where there are.
    let noise = ["puzzles in", "1 puzzle in", "cores here"];
    let kept: Vec<&str> = stderr.lines().filter(|l| !noise.iter().any(|n| l.contains(n))).collect();
    (text(&out.stdout), kept.join("\n"), out.status.code())
}

#[test]
fn all_on_two_jobs_writes_what_one_job_writes() {
    let million = crate::common::load("million.txt").remove(0);
    let empty = ".".repeat(81);
    let object = format!(r#"{{"puzzle": "{EASY}", "id": 7}}"#);
    let no_solution = format!("12345678.........9{}", ".".repeat(63));
    let input = [
        million.as_str(),
        "# a comment, passed through",
        EASY,
        &no_solution,
        "1234",
        &object,
        "12..34..........",
        r#"["12..34..........", "................"]"#,
        &empty,
        "",
        &million,
    ]
    .join("\n");
    let file = temp_file("all_two_jobs.txt", format!("{input}\n"));
    let file = file.to_str().unwrap();
    let variants = [
        &["--limit", "3000"][..],
        &["--limit", "20", "--format", "json"],
        &["--limit", "5", "--format", "grid"],
        // One puzzle at a time under a time limit; one lane a job for
        // breadth-first frontiers.
        &["--limit", "3000", "--timeout", "600"],
        &["--limit", "30", "--order", "bfs", "--max-memory", "16M"],
    ];
    for args in variants {
        let answers = |jobs: &str| answered_on(jobs, "all", args, file);
        let one = answers("1");
        assert!(one.0.len() > 3000 * 82 || args[1] != "3000", "{}", one.0.len());
        assert!(!args.contains(&"bfs") || one.1.contains("breadth-first"), "{}", one.1);
        assert!(one.1.contains(":4: no solution") && one.1.contains(":5: a board of side 2"), "{}", one.1);
        assert_eq!(answers("2"), one, "{args:?}");
    }
}

#[test]
fn all_of_one_puzzle_on_two_jobs_writes_what_one_job_writes() {
    // A file of one puzzle is searched on every job's thread, the
    // solutions in the order of one: each format's separators, the first
    // solution's left out, a limit inside a thread's batch, no solution.
    let million = crate::common::load("million.txt").remove(0);
    let mut sixteen = crate::common::load("hard16.txt").remove(0).into_bytes();
    // Two givens out: 20,252 solutions, each some microseconds to find.
    (sixteen[15], sixteen[23]) = (b'.', b'.');
    let sixteen = String::from_utf8(sixteen).unwrap();
    let object = format!(r#"{{"puzzle": "{}", "id": 7}}"#, ".".repeat(16));
    let no_solution = format!("12345678.........9{}", ".".repeat(63));
    // A 16x16 killer puzzle whose one solution the walk alone takes
    // minutes to reach: one thread, with clause learning beside the walk.
    let killers = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/killer16.txt")).unwrap();
    let killer = killers.lines().find(|l| !l.starts_with('#')).unwrap();
    let cases: [(&str, &[&str]); 9] = [
        (&million, &["--limit", "300000"]),
        (&million, &["--limit", "777", "--format", "grid"]),
        (&sixteen, &[]),
        (&".".repeat(81), &["--limit", "4321", "--format", "json"]),
        (&object, &[]),
        (r#"["12..34.........."]"#, &[]),
        (&no_solution, &[]),
        (&".".repeat(256), &["--hex", "--limit", "3000"]),
        (killer, &[]),
    ];
    for (index, (puzzle, args)) in cases.into_iter().enumerate() {
        let file = temp_file(&format!("all_one_puzzle_{index}.txt"), format!("{puzzle}\n"));
        let answers = |jobs: &str| answered_on(jobs, "all", args, file.to_str().unwrap());
        let one = answers("1");
        // Several solutions, but where there are none, or one.
        assert!(one.0.len() > 200 || index == 6 || index == 8, "{index}: {}", one.0);
        assert!(index != 8 || one.0.lines().count() == 1, "{}", one.0);
        let two = answers("2");
        // The first line that differs, not the whole of a long output.
        let differ = one.0.lines().zip(two.0.lines()).position(|(a, b)| a != b);
        assert_eq!((differ, two.0.len()), (None, one.0.len()), "{index}: {args:?}");
        assert_eq!((two.1, two.2), (one.1, one.2), "{index}: {args:?}");
    }
}

#[test]
fn all_on_two_jobs_stops_when_the_output_closes() {
    // Two boards of some 6.7e21 solutions each: the second one's lane runs
    // ahead of the first, and both must stop once `head` has its lines.
    let empty = ".".repeat(81);
    let file = temp_file("all_two_empty.txt", format!("{empty}\n{empty}\n"));
    // `timeout` exits with 124 if the command outlives its guard, which is
    // no speed check: stopping takes milliseconds.
    let script = r#"timeout 120 "$0" all -q --jobs 2 "$1" | head -5; echo "${PIPESTATUS[0]}" >&2"#;
    let out = Command::new("bash").args(["-c", script, bin(), file.to_str().unwrap()]).output().unwrap();
    assert_eq!(text(&out.stdout).lines().count(), 5);
    assert_ne!(text(&out.stderr).trim(), "124", "still running after head closed its input");
}

#[test]
fn large_counts_on_two_jobs_are_the_counts_of_one() {
    // Counts to 10,000 or more of classic 9x9 puzzles are shared among the
    // jobs' threads, unless a budget bounds them; the numbers, messages and
    // exit status stay those of one job.
    let million = crate::common::load("million.txt").remove(0);
    let no_solution = format!("12345678.........9{}", ".".repeat(63));
    let sixteen = crate::common::load("hard16.txt").remove(0);
    let input = [million.as_str(), EASY, &no_solution, "12..34..........", &sixteen, &".".repeat(81)].join("\n");
    let file = temp_file("large_counts.txt", format!("{input}\n"));
    let file = file.to_str().unwrap();
    for args in [&["--limit", "20000"][..], &["--limit", "200000"], &["--limit", "20000", "--max-nodes", "5000"]] {
        let answers = |jobs: &str| answered_on(jobs, "count", args, file);
        let one = answers("1");
        let expected = if args.len() > 2 { "stopped" } else { args[1] };
        assert!(one.0.starts_with(expected) && one.0.contains("\n1\n0\n"), "{}", one.0);
        assert_eq!(answers("2"), one, "{args:?}");
    }
}
