use crate::common::{bingomint, edit, generate};
use predicates::prelude::*;

#[test]
fn describes_a_native_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(
        dir.path(),
        "c.bmc",
        &["--count", "1234", "--seed", "77", "--star"],
    );
    bingomint()
        .arg("info")
        .arg(&file)
        .assert()
        .success()
        .stdout(predicate::str::contains("format        native"))
        .stdout(predicate::str::contains("game          75-ball"))
        .stdout(predicate::str::contains("cards         1234\n"))
        .stdout(predicate::str::contains("star          yes"))
        .stdout(predicate::str::contains("seed          77\n"))
        .stdout(predicate::str::contains("created       2023-11-14"))
        .stdout(predicate::str::contains("header        ok"))
        .stdout(predicate::str::contains("checksum      ok"));
}

#[test]
fn says_a_v3_file_has_no_checksum() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.dat", &["--count", "20", "--format", "v3"]);
    bingomint()
        .arg("info")
        .arg(&file)
        .assert()
        .success()
        .stdout(predicate::str::contains("format        v3"))
        .stdout(predicate::str::contains(
            "checksum      none in this format",
        ));
}

#[test]
fn reports_damaged_records() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "20"]);
    edit(&file, |bytes| {
        bytes[200] ^= 0x01;
    });
    // Described in full, then reported as damaged (exit 2, as every command
    // but verify does).
    bingomint()
        .arg("info")
        .arg(&file)
        .assert()
        .code(2)
        .stdout(predicate::str::contains(
            "checksum      MISMATCH: cards 1-20 are damaged",
        ))
        .stderr(predicate::str::contains("cards 1-20 fail their checksum"));
}

#[test]
fn fails_for_files_that_are_not_card_files() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("notes.txt");
    std::fs::write(&junk, "B I N G O\n".repeat(20)).unwrap();
    bingomint()
        .arg("info")
        .arg(&junk)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("notes.txt' is not a card file"));
    let empty = dir.path().join("empty.bmc");
    std::fs::write(&empty, "").unwrap();
    bingomint()
        .arg("info")
        .arg(&empty)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "0 bytes, shorter than the 128-byte header",
        ));
    bingomint()
        .args(["info", "/no/such/file.bmc"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read '/no/such/file.bmc'"));
}

#[test]
fn fails_for_truncated_files() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "100"]);
    edit(&file, |bytes| bytes.truncate(bytes.len() - 10));
    bingomint()
        .arg("info")
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("truncated or damaged"));
}

#[test]
fn info_id_prints_the_id_alone_as_a_qr_code_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "50", "--seed", "5"]);
    let id = crate::common::stdout_of(bingomint().arg("info").arg(&file).arg("--id"));
    assert_eq!(id, format!("{}\n", crate::common::file_id(&file)));
    // The reference the check help shows, built from it, names card 7.
    let reference = format!("bingomint:{}:card:7", id.trim());
    bingomint()
        .arg("show")
        .arg(&file)
        .args(["--card", &reference])
        .assert()
        .success()
        .stdout(predicate::str::contains("card 7"));
}
