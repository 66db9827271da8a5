//! `import` under hostile sources: headers of any length, a number where a
//! card keeps a blank, a tampered card file, lines without end, pipes and
//! UTF-16. Each test names what broke.

use crate::common::{bingomint, edit, generate, records_at, stdout_of};
use crate::import::{export, import, refused};
use predicates::str::contains;
use std::path::{Path, PathBuf};

fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

// See: hardening round three, item 6 — a 70,000-character column name and
// 30,000 ignored columns made a file that verify, info and show called
// damaged.
#[test]
fn a_header_of_any_length_makes_a_file_that_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "5", "--seed", "3"]);
    let csv = export(&file, "csv", None);
    let extra = 30_000;
    let long_name = "n".repeat(70_000);
    let mut lines = csv.lines();
    let mut text = format!("{},{long_name}", lines.next().unwrap());
    for i in 0..extra {
        text.push_str(&format!(",x{i}"));
    }
    text.push('\n');
    let blanks = ",".repeat(extra + 1);
    for line in lines {
        text.push_str(&format!("{line}{blanks}\n"));
    }
    let source = write(dir.path(), "wide.csv", text);
    let out = import(dir.path(), &source, "75", "wide.bmc", &[]);
    bingomint().arg("verify").arg(&out).assert().success();
    let info = stdout_of(bingomint().arg("info").arg(&out));
    assert!(info.contains("and 29991 more"), "{info}");
    assert!(info.len() < 4000, "the provenance is bounded: {info}");
    bingomint()
        .args(["show", "--card", "2"])
        .arg(&out)
        .assert()
        .success();
}

// See: hardening round three, item 7 — a number in the 75-ball free centre
// was accepted and shown as FREE: the card played was not the card printed.
#[test]
fn a_number_in_the_free_centre_is_refused_in_every_layout() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "3", "--seed", "3"]);
    // CSV: the N3 column.
    let csv = export(&file, "csv", None);
    let mut lines: Vec<String> = csv.lines().map(String::from).collect();
    let header: Vec<&str> = lines[0].split(',').collect();
    let n3 = header
        .iter()
        .position(|h| *h == "N3")
        .expect("an N3 column");
    let mut row: Vec<String> = lines[2].split(',').map(String::from).collect();
    row[n3] = "42".into();
    lines[2] = row.join(",");
    let csv = write(dir.path(), "centre.csv", lines.join("\n"));
    let says = "its free cell N3 holds 42";
    refused(dir.path(), &csv, "75", &[], says);
    // Text: a face a line, 25 numbers.
    let text = export(&file, "txt", None);
    let first: Vec<&str> = text.lines().next().unwrap().split_whitespace().collect();
    assert_eq!(first.len(), 25, "a face a line");
    let mut cells = first.clone();
    cells[12] = "42";
    let text = text.replacen(&first.join(" "), &cells.join(" "), 1);
    let txt = write(dir.path(), "centre.txt", &text);
    refused(dir.path(), &txt, "75", &[], says);
    // JSON: a face of 25 cells.
    let json = write(
        dir.path(),
        "centre.json",
        "[[1,16,31,46,61, 2,17,32,47,62, 3,18,42,48,63, 4,19,33,49,64, 5,20,34,50,65]]",
    );
    refused(dir.path(), &json, "75", &[], says);
    // The same face with the centre free imports.
    let fine = write(
        dir.path(),
        "fine.json",
        "[[1,16,31,46,61, 2,17,32,47,62, 3,18,null,48,63, 4,19,33,49,64, 5,20,34,50,65]]",
    );
    import(dir.path(), &fine, "75", "fine.bmc", &[]);
}

// See: hardening round three, item 8 — import of a card file with a record
// byte changed (the card still legal) made a new file that verified clean.
#[test]
fn a_tampered_card_file_is_not_laundered_by_import() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "100", "--seed", "3"]);
    edit(&file, |b| {
        let at = records_at(b);
        b[at + 20 * 25 + 24] ^= 1;
    });
    bingomint().arg("verify").arg(&file).assert().code(1);
    refused(dir.path(), &file, "75", &[], "fail their checksum");
    bingomint()
        .args(["import", "--game", "75", "--out"])
        .arg(dir.path().join("x.bmc"))
        .arg(&file)
        .assert()
        .code(2)
        .stderr(contains("run `bingomint verify` on it"));
}

// See: hardening round three, item 9 — a 2 GB line took 14.7 GB; a CSV row
// of a million columns took 312 MB. A line, a row or a JSON element past
// 1 MiB is refused, naming where.
#[test]
fn a_line_without_end_is_refused_not_read_into_memory() {
    let dir = tempfile::tempdir().unwrap();
    let digits = write(dir.path(), "digits.txt", "1".repeat(3 << 20));
    refused(
        dir.path(),
        &digits,
        "75",
        &[],
        "line 1: a line (or JSON element) longer than 1 MiB",
    );
    let mut wide = String::from("card");
    for i in 1..=1_000_000 {
        wide.push_str(&format!(",c{i}"));
    }
    let wide = write(dir.path(), "wide.csv", wide + "\n");
    refused(dir.path(), &wide, "75", &[], "longer than 1 MiB");
    let json = write(
        dir.path(),
        "long.json",
        format!("[[{}1]]", "1,".repeat(1 << 20)),
    );
    refused(
        dir.path(),
        &json,
        "75",
        &[],
        "a JSON element longer than 1 MiB",
    );
    // A long file of short lines is fine: the bound is a line's.
    let file = generate(dir.path(), "c.bmc", &["--count", "60000", "--seed", "3"]);
    let csv = write(dir.path(), "many.csv", export(&file, "csv", None));
    assert!(std::fs::metadata(&csv).unwrap().len() > 2 << 20);
    import(dir.path(), &csv, "75", "many.bmc", &[]);
}

// See: hardening round three, item 10 and "also" — a pipe was "no such
// file"; UTF-16 was "binary".
#[test]
fn a_pipe_and_utf16_are_named_for_what_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "3", "--seed", "3"]);
    let csv = export(&file, "csv", None);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_bingomint"))
        .args(["import", "/dev/stdin", "--game", "75", "--out"])
        .arg(dir.path().join("piped.bmc"))
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let _ = child.stdin.take().unwrap().write_all(csv.as_bytes());
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("is a pipe") && err.contains("save the data to a file first"),
        "{err}"
    );
    let mut utf16 = vec![0xff, 0xfe];
    for unit in csv.encode_utf16() {
        utf16.extend(unit.to_le_bytes());
    }
    let source = write(dir.path(), "excel.csv", &utf16);
    refused(
        dir.path(),
        &source,
        "75",
        &[],
        "it is UTF-16 (little-endian) text; save it as UTF-8",
    );
    let no_bom = write(dir.path(), "excel2.csv", &utf16[2..]);
    refused(
        dir.path(),
        &no_bom,
        "75",
        &[],
        "UTF-16 (little-endian, no byte-order mark)",
    );
}
