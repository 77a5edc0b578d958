//! End-to-end tests of the `lazydoku` binary.

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const EASY: &str = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
const EASY_SOLVED: &str = "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
const UNSOLVABLE: &str = "2.53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..";

fn lazydoku() -> Command {
    Command::new(env!("CARGO_BIN_EXE_lazydoku"))
}

/// Runs with `stdin` as standard input.
fn run(args: &[&str], stdin: &str) -> Output {
    let mut child =
        lazydoku().args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

#[test]
fn no_arguments_solves_the_bundled_set_without_waiting_for_stdin() {
    // Stdin stays open and empty: a program that read it would never finish.
    let mut child = lazydoku().stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let _keep_open = child.stdin.take();
    let deadline = Instant::now() + Duration::from_secs(120);
    while child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "lazydoku with no arguments waited on stdin");
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let lines: Vec<String> = stdout(&out).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 95);
    assert!(lines.iter().all(|l| l.len() == 81 && !l.contains('.')));
    assert!(stderr(&out).starts_with("solved 95 of 95 bundled puzzles"), "{}", stderr(&out));
}

#[test]
fn solve_reads_an_argument_a_file_and_stdin() {
    let out = run(&["solve", EASY], "");
    assert!(out.status.success());
    assert_eq!(stdout(&out), format!("{EASY_SOLVED}\n"));

    let dir = std::env::temp_dir().join(format!("lazydoku-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("two.txt");
    std::fs::write(&file, format!("# two puzzles\n{EASY}\n\n{EASY}  # again\n")).unwrap();
    let out = run(&["solve", file.to_str().unwrap()], "");
    assert!(out.status.success());
    assert_eq!(stdout(&out), format!("{EASY_SOLVED}\n{EASY_SOLVED}  # again\n"));

    let out = run(&["solve", "-"], &format!("{EASY}\n"));
    assert_eq!(stdout(&out), format!("{EASY_SOLVED}\n"));
    let out = run(&["solve"], &format!("{EASY}\n"));
    assert_eq!(stdout(&out), format!("{EASY_SOLVED}\n"), "stdin is the default when it is not a terminal");
}

#[test]
fn a_grid_comes_back_in_the_same_grid_format() {
    let grid = "\
_ _ 3 _ 2 _ 6 _ _
9 _ _ 3 _ 5 _ _ 1
_ _ 1 8 _ 6 4 _ _
_ _ 8 1 _ 2 9 _ _
7 _ _ _ _ _ _ _ 8
_ _ 6 7 _ 8 2 _ _
_ _ 2 6 _ 9 5 _ _
8 _ _ 2 _ 3 _ _ 9
_ _ 5 _ 1 _ 3 _ _
";
    let out = run(&["solve", "-"], grid);
    assert!(out.status.success());
    let text = stdout(&out);
    assert_eq!(text.lines().next(), Some("4 8 3 9 2 1 6 5 7"));
    assert_eq!(text.lines().count(), 9);
    assert_eq!(text.replace([' ', '\n'], ""), EASY_SOLVED);
}

#[test]
fn a_puzzle_without_solution_is_said_and_exits_1() {
    let out = run(&["solve", "-"], &format!("{EASY}\n{UNSOLVABLE}\n{EASY}\n"));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), format!("{EASY_SOLVED}\nno solution\n{EASY_SOLVED}\n"));
    assert_eq!(stderr(&out), "lazydoku: -:2: no solution\n");
}

#[test]
fn a_malformed_puzzle_is_said_with_its_line_and_the_rest_goes_on() {
    let out = run(&["solve", "-"], &format!("{EASY}\n{}x\n{EASY}\n", &EASY[1..]));
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0], EASY_SOLVED);
    assert!(lines[1].starts_with("invalid: line 1, column 81: 'x' is not a cell"), "{}", lines[1]);
    assert_eq!(lines[2], EASY_SOLVED);
    assert!(stderr(&out).starts_with("lazydoku: -:2: line 1, column 81:"), "{}", stderr(&out));
}

#[test]
fn count_stops_at_the_limit() {
    let hard1 = ".....6....59.....82....8....45........3........6..3.54...325..6..................";
    let out = run(&["count", "--limit", "7", hard1, EASY, UNSOLVABLE], "");
    assert!(out.status.success());
    assert_eq!(stdout(&out), "7\n1\n0\n");
    let out = run(&["count", hard1], "");
    assert_eq!(stdout(&out), "2\n", "the default limit is 2");
}

#[test]
fn a_missing_file_is_a_usage_error() {
    let out = run(&["solve", "no/such/file.txt"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no/such/file.txt"), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
}
