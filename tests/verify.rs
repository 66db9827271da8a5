use crate::common::{bingomint, edit, generate, records_at};
use predicates::prelude::*;

#[test]
fn accepts_what_generate_writes() {
    let dir = tempfile::tempdir().unwrap();
    for (name, format) in [("c.bmc", "native"), ("c.dat", "v3")] {
        let file = generate(
            dir.path(),
            name,
            &["--count", "5000", "--star", "--format", format],
        );
        bingomint()
            .arg("verify")
            .arg(&file)
            .assert()
            .success()
            .stdout(predicate::str::contains(
                "rules             ok (5000 cards)",
            ))
            .stdout(predicate::str::contains("uniqueness        ok"))
            .stdout(predicate::str::contains("holds 5000 valid, unique cards"));
    }
}

#[test]
fn names_a_card_that_breaks_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "50"]);
    edit(&file, |bytes| {
        // Card 5, column B row 1 (record byte 0) := 16, outside B's 1-15.
        let at = records_at(bytes);
        bytes[at + 4 * 25] = 16;
    });
    bingomint()
        .arg("verify")
        .arg(&file)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("records checksum  MISMATCH"))
        .stdout(predicate::str::contains(
            "card 5: column B row 1 holds 16, outside 1–15",
        ))
        .stdout(predicate::str::contains("FAILED"));
}

#[test]
fn names_duplicate_cards() {
    // A v3 file has no checksum, so a copied card is found by the uniqueness check alone.
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.dat", &["--count", "50", "--format", "v3"]);
    edit(&file, |bytes| {
        let first: Vec<u8> = bytes[128..128 + 25].to_vec();
        bytes[128 + 2 * 25..128 + 3 * 25].copy_from_slice(&first);
        bytes[128 + 40 * 25..128 + 41 * 25].copy_from_slice(&first);
    });
    bingomint()
        .arg("verify")
        .arg(&file)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("2 cards repeat an earlier card"))
        .stdout(predicate::str::contains("card 3 is the same as card 1"))
        .stdout(predicate::str::contains("card 41 is the same as card 1"));
}

#[test]
fn finds_a_damaged_header() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "50"]);
    edit(&file, |bytes| {
        bytes[33] ^= 0xFF; // the seed
    });
    bingomint()
        .arg("verify")
        .arg(&file)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("header checksum   MISMATCH"));
    // Commands that trust the header refuse it.
    bingomint()
        .args(["show", "--card", "1"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("header's checksum does not match"));
}

#[test]
fn a_truncated_file_fails_verification() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "50"]);
    edit(&file, |bytes| bytes.truncate(1000));
    bingomint()
        .arg("verify")
        .arg(&file)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("truncated or damaged"));
}

#[test]
fn an_unfinished_file_is_not_a_card_file() {
    // What a run killed before its header was written leaves behind: records, zero header.
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "50"]);
    edit(&file, |bytes| {
        bytes[..128].fill(0);
    });
    // verify's answer is no (1); the other commands refuse it (2).
    bingomint()
        .arg("verify")
        .arg(&file)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("FAILED"))
        .stdout(predicate::str::contains("is not a card file"));
    bingomint()
        .arg("info")
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is not a card file"));
}

#[test]
fn quiet_prints_only_problems() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "50"]);
    bingomint()
        .args(["verify", "-q"])
        .arg(&file)
        .assert()
        .success()
        .stdout("");
}

// See: issue 64 (stock minted on several machines needs a check across
// its files).
#[test]
fn across_names_a_face_two_files_share_and_passes_files_that_share_none() {
    let dir = tempfile::tempdir().unwrap();
    let a = generate(dir.path(), "a.bmc", &["--count", "3000", "--seed", "1"]);
    let b = generate(dir.path(), "b.bmc", &["--count", "2000", "--seed", "2"]);
    // A second order from the first's seed repeats its first cards, under
    // numbers of its own.
    let c = generate(
        dir.path(),
        "c.bmc",
        &["--count", "40", "--seed", "1", "--first-serial", "3001"],
    );
    bingomint()
        .args(["verify", "--across"])
        .args([&a, &b])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "5000 cards, none of them in two files",
        ));
    bingomint()
        .args(["verify", "--across", "--quiet"])
        .args([&a, &b, &c])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(format!(
            "shared: card 1 of {} is card 3001 of {}",
            a.display(),
            c.display()
        )))
        .stdout(predicate::str::contains("… and 20 more"))
        .stdout(predicate::str::contains(
            "FAILED: 40 cards in two files (of 5040 cards read)",
        ));
    // One file, or several without --across: a usage error.
    bingomint()
        .args(["verify", "--across"])
        .arg(&a)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("give two or more"));
    bingomint()
        .arg("verify")
        .args([&a, &b])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("add --across"));
}
