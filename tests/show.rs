use crate::common::{bingomint, export_txt, generate, stdout_of};
use predicates::prelude::*;

#[test]
fn shows_a_card_as_a_bingo_grid() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "100", "--seed", "3"]);
    let out = bingomint()
        .args(["show", "--card", "42"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("card 42 of 100"));
    assert!(text.contains("│  B   │  I   │  N   │  G   │  O   │"));
    assert!(text.contains("FREE"));
    assert!(!text.contains('*'));
    // The grid's numbers are export's line for the same card.
    let numbers: Vec<String> = text
        .lines()
        .filter(|l| l.starts_with('│') && !l.contains(" B "))
        .flat_map(|l| {
            l.split('│')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .map(|s| if s == "FREE" { "0".to_string() } else { s })
        .collect();
    assert_eq!(numbers.join(" "), export_txt(&file)[41]);
}

#[test]
fn marks_the_star() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "10", "--star"]);
    bingomint()
        .args(["show", "-c", "10"])
        .arg(&file)
        .assert()
        .success()
        .stdout(predicate::str::is_match(r"│ +\*\d+ +│").unwrap())
        .stdout(predicate::str::contains("* star"));
}

#[test]
fn fails_for_a_card_out_of_range() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "10"]);
    for (card, why) in [
        ("0", "--card \"0\" names no card: numbers start at 1"),
        (
            "11",
            "--card \"11\" is not in this file: it holds cards 1 to 10",
        ),
    ] {
        bingomint()
            .args(["show", "--card", card])
            .arg(&file)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(why));
    }
}

#[test]
fn what_is_printed_on_a_face_finds_it() {
    let dir = tempfile::tempdir().unwrap();
    let cards = generate(dir.path(), "c.bmc", &["--count", "3000", "--seed", "2"]);
    let strips = generate(
        dir.path(),
        "s.bmc",
        &["--game", "90", "--count", "300", "--seed", "2"],
    );
    let id = |f: &std::path::Path| crate::common::file_id(f);
    let show =
        |f: &std::path::Path, args: &[&str]| stdout_of(bingomint().arg("show").arg(f).args(args));
    let by_number = show(&cards, &["--card", "17"]);
    let qr = format!("bingomint:{}:card:17", id(&cards));
    assert_eq!(show(&cards, &["--card", &qr]), by_number);
    assert_eq!(show(&cards, &["--card", &qr.to_lowercase()]), by_number);
    // The group face: a colour digit, then the number padded to 4 digits.
    assert_eq!(show(&cards, &["--card", "30017"]), by_number);
    // check names the face the same ways (exit 1: no win after 3 calls).
    let check = |card: &str| {
        let args = ["--card", card, "--calls", "1,2,3", "--pattern", "line"];
        let out = bingomint()
            .arg("check")
            .arg(&cards)
            .args(args)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    assert_eq!(check("30017"), check("17"));
    assert_eq!(check(&qr), check("17"));
    let ticket = show(&strips, &["--ticket", "70"]);
    let qr = format!("bingomint:{}:ticket:70", id(&strips));
    assert_eq!(show(&strips, &["--card", &qr]), ticket);
    bingomint()
        .arg("show")
        .arg(&cards)
        .args(["--card", "bingomint:ZZZZZZZZ:card:17"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "belongs to the file with id ZZZZZZZZ",
        ));
}

// See: newcomer round two, item 7 — `show` on an imported file said
// "card 1005 of 40".
#[test]
fn a_face_of_a_file_numbered_its_own_way_is_shown_with_that_numbering() {
    let dir = tempfile::tempdir().unwrap();
    let cards = generate(dir.path(), "c.bmc", &["--count", "40", "--seed", "6"]);
    let csv = stdout_of(bingomint().args(["export", "--format", "csv"]).arg(&cards));
    let renumbered: Vec<String> = csv
        .lines()
        .enumerate()
        .map(|(i, line)| match i {
            0 => line.to_string(),
            _ => format!("{},{}", 1000 + i, line.split_once(',').unwrap().1),
        })
        .collect();
    let source = dir.path().join("perms.csv");
    std::fs::write(&source, renumbered.join("\n")).unwrap();
    let perms = dir.path().join("perms.bmc");
    bingomint()
        .args(["import", "--game", "75", "--quiet", "--out"])
        .arg(&perms)
        .arg(&source)
        .assert()
        .success();
    let calls = dir.path().join("calls.txt");
    std::fs::write(&calls, "5\n17\n").unwrap();
    let show = |file: &std::path::Path, card: &str| {
        stdout_of(
            bingomint()
                .arg("show")
                .arg(file)
                .args(["--card", card, "--calls-file"])
                .arg(&calls),
        )
    };
    assert!(show(&perms, "1005").starts_with("card 1005 of 1001 to 1040 ("));
    assert!(show(&cards, "5").starts_with("card 5 of 40 ("));
}

/// See: a newcomer's first hour, round three (`show x.bmc 3` was refused).
#[test]
fn a_bare_number_after_the_file_is_the_card() {
    let dir = tempfile::tempdir().unwrap();
    let cards = generate(dir.path(), "c.bmc", &["--count", "10", "--seed", "bare"]);
    let by_flag = bingomint()
        .arg("show")
        .arg(&cards)
        .args(["--card", "3"])
        .output()
        .unwrap();
    let bare = bingomint()
        .arg("show")
        .arg(&cards)
        .arg("3")
        .output()
        .unwrap();
    assert!(bare.status.success(), "{bare:?}");
    assert_eq!(bare.stdout, by_flag.stdout);
    assert!(String::from_utf8_lossy(&bare.stdout).starts_with("card 3 of 10"));
    // Both ways at once is a mistake, named.
    bingomint()
        .arg("show")
        .arg(&cards)
        .args(["3", "--card", "4"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("cannot be used with '--card"));
}
