//! The README's command-line transcripts print what they show: a change
//! in the search order or the generator's choices shows there first, and a
//! user copying a line should get the answer written under it.

use std::path::Path;
use std::process::Command;

/// One `$ lazydoku ...` line of the README (with its continuation lines)
/// and the standard output written under it.
struct Transcript {
    line: usize,
    command: String,
    shown: Vec<String>,
}

/// The transcripts of `readme`: each command up to the next one, a blank
/// line or the end of its code block. Lines that start `lazydoku:` are the
/// summary on standard error, which holds a time, and are left out.
fn transcripts(readme: &str) -> Vec<Transcript> {
    let lines: Vec<&str> = readme.lines().collect();
    let mut found = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        let trimmed = lines[k].trim_start();
        let indent = lines[k].len() - trimmed.len();
        let Some(first) = trimmed.strip_prefix("$ lazydoku ").map(|rest| format!("lazydoku {rest}")) else {
            k += 1;
            continue;
        };
        let line = k + 1;
        let mut command = first;
        while command.ends_with('\\') && k + 1 < lines.len() {
            command.pop();
            k += 1;
            command.push_str(lines[k].trim());
        }
        k += 1;
        let mut shown = Vec::new();
        while k < lines.len() {
            let text = lines[k].get(indent..).unwrap_or("").trim_end();
            if text.is_empty() || text.starts_with("$ ") || text.starts_with("```") {
                break;
            }
            if !text.starts_with("lazydoku:") {
                shown.push(text.to_string());
            }
            k += 1;
        }
        found.push(Transcript { line, command, shown });
    }
    found
}

/// The lines of the README code block whose first line starts with
/// `first`, out of their indentation, up to the end of the block.
fn shown_file(readme: &str, first: &str) -> Option<String> {
    let lines: Vec<&str> = readme.lines().collect();
    let start = lines.iter().position(|l| l.trim_start().starts_with(first))?;
    let indent = lines[start].len() - lines[start].trim_start().len();
    let block = lines[start..].iter().take_while(|l| !l.trim_start().starts_with("```"));
    Some(block.flat_map(|l| [l.get(indent..).unwrap_or(""), "\n"]).collect())
}

#[cfg(unix)]
#[test]
fn the_readme_transcripts_print_what_they_show() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let binary = Path::new(env!("CARGO_BIN_EXE_lazydoku"));
    let path = format!("{}:{}", binary.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    // Files a transcript writes (`tee`) stay in this folder for the next.
    let dir = std::env::temp_dir().join(format!("lazydoku-readme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The cage file of the killer transcripts is the one the README shows.
    let cages = shown_file(&readme, "# a 4x4 killer").expect("the README shows a 4x4 killer cage file");
    std::fs::write(dir.join("cages.txt"), cages).unwrap();
    let (mut checked, mut skipped) = (0, Vec::new());
    for transcript in transcripts(&readme) {
        // Files whose lines the README does not show in full, and answers
        // cut short with an ellipsis, cannot be compared.
        let needs_files =
            ["mixed.txt", "top5.txt", "puzzles.txt", "FILE"].iter().any(|file| transcript.command.contains(file));
        if needs_files || transcript.shown.iter().any(|l| l.contains('…')) || transcript.shown.is_empty() {
            skipped.push(transcript.line);
            continue;
        }
        let out = Command::new("sh")
            .arg("-c")
            .arg(&transcript.command)
            .current_dir(&dir)
            .env("PATH", &path)
            .output()
            .unwrap();
        let printed = String::from_utf8_lossy(&out.stdout);
        let printed: Vec<&str> = printed.lines().map(str::trim_end).collect();
        assert_eq!(
            printed,
            transcript.shown,
            "README line {}: `{}` printed this, and the README shows otherwise; stderr: {}",
            transcript.line,
            transcript.command,
            String::from_utf8_lossy(&out.stderr)
        );
        checked += 1;
    }
    let _ = std::fs::remove_dir_all(&dir);
    // The README has some twenty transcripts; most must be checked.
    assert!(checked >= 17, "only {checked} transcripts checked; skipped those at lines {skipped:?}");
}

#[test]
fn transcripts_are_cut_where_the_readme_shows_them() {
    let readme = "text\n```sh\n$ lazydoku solve x   # why\nanswer\nlazydoku: 1 found\n\n  $ lazydoku all \\\n      y\n  one\n  two\n  ```\n";
    let found = transcripts(readme);
    assert_eq!(found.len(), 2);
    assert_eq!((found[0].line, found[0].command.as_str()), (3, "lazydoku solve x   # why"));
    assert_eq!(found[0].shown, ["answer"]);
    assert_eq!((found[1].line, found[1].command.as_str()), (7, "lazydoku all y"));
    assert_eq!(found[1].shown, ["one", "two"]);
}
