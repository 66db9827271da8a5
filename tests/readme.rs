//! The README's tour runs as printed: every command of its shell blocks, in
//! order, in an empty folder holding the repository's `data/`, after the
//! set-up command; each must succeed, and the lines of the text block after
//! it must appear in its output, in order (`…` stands for what changes from
//! run to run: times, speeds). Every local link of the README leads to a file.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The tour's blocks: (commands, expected lines).
fn tour() -> Vec<(Vec<String>, Vec<String>)> {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme
        .find("## A short tour")
        .expect("the README has a tour");
    let end = readme[start..]
        .find("\n## ")
        .map_or(readme.len(), |e| start + e);
    let mut blocks: Vec<(Vec<String>, Vec<String>)> = Vec::new();
    let mut lines = readme[start..end].lines();
    while let Some(line) = lines.next() {
        let kind = match line.trim() {
            "```sh" => "sh",
            "```text" => "text",
            _ => continue,
        };
        let body: Vec<String> = lines
            .by_ref()
            .take_while(|l| l.trim() != "```")
            .map(String::from)
            .collect();
        match kind {
            "sh" => blocks.push((body, Vec::new())),
            _ => blocks.last_mut().expect("output follows a command").1 = body,
        }
    }
    blocks
}

/// Whether `actual` is `expected` with each `…` standing for any text.
fn matches(expected: &str, actual: &str) -> bool {
    let parts: Vec<&str> = expected.split('…').collect();
    let mut rest = actual;
    for (i, part) in parts.iter().enumerate() {
        let part = if i + 1 == parts.len() {
            part.trim_end()
        } else {
            part
        };
        match i {
            0 => match rest.strip_prefix(part) {
                Some(r) => rest = r,
                None => return false,
            },
            _ if i + 1 == parts.len() => return rest.trim_end().ends_with(part),
            _ => match rest.find(part) {
                Some(at) => rest = &rest[at + part.len()..],
                None => return false,
            },
        }
    }
    rest.trim_end().is_empty() || parts.len() > 1
}

fn run(dir: &Path, line: &str) -> String {
    let out = crate::common::sh(dir, line);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "README command failed: {line}\n{text}"
    );
    text
}

#[test]
fn the_readme_tour_runs_as_printed() {
    let dir = tempfile::tempdir().unwrap();
    let status = Command::new("cp")
        .arg("-r")
        .arg(root().join("data"))
        .arg(dir.path())
        .status()
        .unwrap();
    assert!(status.success());
    // The set-up command, as a user runs it first.
    run(dir.path(), "bingomint generate --out cards.bmc");
    let blocks = tour();
    assert!(blocks.len() >= 5, "the tour has its blocks");
    for (commands, expected) in blocks {
        let mut output = String::new();
        for line in commands.iter().filter(|l| !l.trim().is_empty()) {
            output.push_str(&run(dir.path(), line));
        }
        let mut actual = output.lines();
        for want in &expected {
            assert!(
                actual.any(|got| matches(want, got)),
                "after {commands:?} the README shows\n  {want}\nwhich is not in the output:\n{output}"
            );
        }
    }
}

#[test]
fn every_local_link_of_the_readme_leads_to_a_file() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    for (i, _) in readme.match_indices("](") {
        let target = &readme[i + 2..];
        let target = &target[..target.find(')').unwrap()];
        if target.starts_with("http") || target.starts_with('#') {
            continue;
        }
        assert!(
            root().join(target).exists(),
            "README links to {target}, which is missing"
        );
    }
}

#[test]
fn wildcards_stand_for_what_changes() {
    assert!(matches(
        "60 cards on 10 pages (…), …",
        "60 cards on 10 pages (6 a page), 0.01 s"
    ));
    assert!(matches("OK: a", "OK: a"));
    assert!(!matches("OK: a", "OK: b"));
    assert!(matches("│  3   │ FREE │", "│  3   │ FREE │"));
    assert!(!matches("card 7 … x", "card 8 y x"));
}
