//! Every guide's examples run as printed: each `sh` block of each
//! `docs/*.md`, in order, in an empty folder holding the repository's
//! `data/`, as a reader who follows the guide from its top runs them. A
//! command whose comment says `# needs:` (what the reader must bring: a
//! night's log, dieharder, a seed a game revealed) or `# serves until
//! stopped` (the hall) is left out; every other must run without an error:
//! exit 0, or 1 for a negative answer (a claim that is no win), never 2.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The commands of a guide's `sh` blocks, continuation lines joined.
fn commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.trim() != "```sh" {
            continue;
        }
        let mut joined = String::new();
        for line in lines.by_ref().take_while(|l| l.trim() != "```") {
            match line.trim_end().strip_suffix('\\') {
                Some(head) => joined.push_str(head),
                None => {
                    joined.push_str(line);
                    if !joined.trim().is_empty() {
                        out.push(std::mem::take(&mut joined));
                    }
                    joined.clear();
                }
            }
        }
    }
    out
}

/// Whether a guide marks the command as one the test cannot run.
fn left_out(command: &str) -> bool {
    command.contains("# needs:") || command.contains("# serves until stopped")
}

fn run(dir: &Path, line: &str) -> Result<(), String> {
    let out = crate::common::sh(dir, line);
    if matches!(out.status.code(), Some(0 | 1)) {
        return Ok(());
    }
    Err(format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    ))
}

#[test]
fn every_guide_s_examples_run_as_printed() {
    let mut guides: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    guides.sort();
    let mut ran = 0;
    for guide in guides {
        let text = std::fs::read_to_string(&guide).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let copied = Command::new("cp")
            .arg("-r")
            .arg(root().join("data"))
            .arg(dir.path())
            .status()
            .unwrap();
        assert!(copied.success());
        for command in commands(&text) {
            if left_out(&command) {
                continue;
            }
            if let Err(output) = run(dir.path(), &command) {
                panic!(
                    "{}: this example fails as printed:\n  {command}\n{output}",
                    guide.display()
                );
            }
            ran += 1;
        }
    }
    assert!(ran >= 25, "only {ran} examples ran");
}

#[test]
fn continuation_lines_join_and_marked_commands_are_left_out() {
    let text = "x\n```sh\na \\\n  b\n\nc # needs: dieharder\n```\n```text\nd\n```\n";
    let found = commands(text);
    assert_eq!(found, ["a   b", "c # needs: dieharder"]);
    assert!(left_out(&found[1]) && !left_out(&found[0]));
}
