//! Every help's examples run as printed: each command's `Examples:` (and
//! the top level's), in a fresh folder holding the repository's `data/`
//! and the files the examples read but do not make (`cards.bmc`: the
//! 9,000 cards the guides make; `strips.bmc`: 1,000 strips; `words.bmc`: 30 items cards of
//! `data/items/words.txt`; `calls.txt` and `calls90.txt`: 40 75-ball and 30
//! 90-ball calls). As in the guides, a command whose comment
//! says `# needs:` or `# serves until stopped` is left out, and every other
//! must run without an error (exit 0, or 1 for a negative answer).

use crate::common::{bingomint, sh};
use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The help of `args` (unwrapped).
fn help(args: &[&str]) -> String {
    let out = bingomint()
        .args(args)
        .arg("--help")
        .env("COLUMNS", "1000")
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

/// The commands (and the hall's subcommands) whose help to read.
fn commands() -> Vec<Vec<String>> {
    let top = help(&[]);
    let mut out = vec![vec![]];
    let listed = top.split("Commands:").nth(1).unwrap_or("");
    for line in listed.lines().skip(1).take_while(|l| !l.trim().is_empty()) {
        let name = line.split_whitespace().next().unwrap_or("");
        if !name.is_empty() && name != "help" {
            out.push(vec![name.to_string()]);
        }
    }
    for sub in ["verify", "cert", "report", "tables"] {
        out.push(vec!["hall".into(), sub.into()]);
    }
    for sub in ["receive", "destroy"] {
        out.push(vec!["hall".into(), "stock".into(), sub.into()]);
    }
    out
}

/// A help's example commands, continuation lines joined, comment lines
/// dropped.
fn examples(help: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut joined = String::new();
    let mut inside = false;
    for line in help.lines() {
        if line.starts_with("Example") {
            inside = true;
            continue;
        }
        if !inside || !line.starts_with("  ") {
            inside = inside && line.trim().is_empty();
            continue;
        }
        let line = line.trim();
        if joined.is_empty() && line.starts_with('#') {
            continue;
        }
        match line.strip_suffix('\\') {
            Some(head) => joined.push_str(head),
            None => {
                joined.push_str(line);
                out.push(std::mem::take(&mut joined));
            }
        }
    }
    out
}

/// The files the examples make themselves (after `--out`, `-o` or `>`).
fn made(examples: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for e in examples {
        let words: Vec<&str> = e.split_whitespace().collect();
        for w in words.windows(2) {
            if ["--out", "-o", ">"].contains(&w[0]) {
                out.push(w[1].to_string());
            }
        }
    }
    out
}

/// The files a help's examples read: made once, copied where needed.
fn inputs() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for line in [
        "bingomint generate --count 9000 --seed help -q --out cards.bmc",
        "bingomint generate --game 90 --count 1000 --seed help -q --out strips.bmc",
        "bingomint generate --items ITEMS --count 30 --seed help -q --out words.bmc",
        "bingomint calls --game 75 --seed help --count 40 > calls.txt",
        "bingomint calls --game 90 --seed help --count 30 > calls90.txt",
    ] {
        let words = root().join("data/items/words.txt");
        let line = line.replace("ITEMS", words.to_str().unwrap());
        assert!(sh(dir.path(), &line).status.success(), "{line}");
    }
    dir
}

#[test]
fn every_help_s_examples_run_as_printed() {
    let inputs = inputs();
    let mut ran = 0;
    for command in commands() {
        let args: Vec<&str> = command.iter().map(String::as_str).collect();
        let examples = examples(&help(&args));
        let dir = tempfile::tempdir().unwrap();
        let copied = Command::new("cp")
            .arg("-r")
            .arg(root().join("data"))
            .arg(dir.path())
            .status()
            .unwrap();
        assert!(copied.success());
        let made = made(&examples);
        for input in [
            "cards.bmc",
            "strips.bmc",
            "words.bmc",
            "calls.txt",
            "calls90.txt",
        ] {
            if !made.iter().any(|m| m == input) {
                std::fs::copy(inputs.path().join(input), dir.path().join(input)).unwrap();
            }
        }
        for example in &examples {
            if example.contains("# needs:") || example.contains("# serves until stopped") {
                continue;
            }
            let out = sh(dir.path(), example);
            assert!(
                matches!(out.status.code(), Some(0 | 1)),
                "bingomint {} --help: this example fails as printed:\n  {example}\n{}{}",
                command.join(" "),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            ran += 1;
        }
    }
    assert!(ran >= 60, "only {ran} examples ran");
}

#[test]
fn examples_are_read_as_a_user_reads_them() {
    let text = "About.\n\nExamples:\n  # a comment\n  bingomint a \\\n      --b c\n  bingomint d > e.txt   # note\n\nMore.\n  not an example\n";
    let found = examples(text);
    assert_eq!(found, ["bingomint a --b c", "bingomint d > e.txt   # note"]);
    assert_eq!(made(&found), ["e.txt"]);
}
