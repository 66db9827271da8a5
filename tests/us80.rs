//! 80-ball cards through every command: generate (the same bytes for any
//! thread count, --exclude), info, verify (a broken rule named), show,
//! export, count, and print with QR codes read back.

use crate::common::{bingomint, edit, export_txt, generate, records_at, stdout_of};
use predicates::prelude::*;
use std::collections::HashSet;
use std::process::Command;

#[test]
fn eighty_ball_patterns_are_lines_corners_centre_and_coverall() {
    use bingomint::game::Spec;
    use bingomint::play::pattern::Pattern;
    let spec = Spec::Us80;
    let ways = |name: &str| Pattern::parse(name, spec).unwrap().ways().unwrap().len();
    assert_eq!(ways("line"), 10);
    assert_eq!(ways("four-corners"), 1);
    assert_eq!(ways("coverall"), 1);
    let centre = Pattern::parse("centre", spec).unwrap();
    assert_eq!(
        centre.ways().unwrap()[0].mask,
        1 << 5 | 1 << 6 | 1 << 9 | 1 << 10
    );
    let err = Pattern::parse("full-house", spec).unwrap_err().to_string();
    assert!(
        err.contains("not an 80-ball pattern") && err.contains("90-ball"),
        "{err}"
    );
    let mask = Pattern::parse("mask:X..X/..../..../X..X", spec).unwrap();
    assert_eq!(
        mask.ways().unwrap()[0].mask,
        Pattern::parse("four-corners", spec)
            .unwrap()
            .ways()
            .unwrap()[0]
            .mask
    );
}

#[test]
fn eighty_ball_cards_are_valid_unique_and_reproducible() {
    let dir = tempfile::tempdir().unwrap();
    // 70,000 cards: two chunks of the pipeline.
    let args = ["--game", "80", "--count", "70000", "--seed", "80"];
    let one = generate(dir.path(), "one.bmc", &[&args[..], &["-j", "1"]].concat());
    let two = generate(dir.path(), "two.bmc", &[&args[..], &["-j", "2"]].concat());
    assert!(std::fs::read(&one).unwrap() == std::fs::read(&two).unwrap());
    let lines = export_txt(&one);
    assert_eq!(lines.len(), 70_000);
    let mut seen = HashSet::new();
    for line in &lines {
        let numbers: Vec<u8> = line.split(' ').map(|n| n.parse().unwrap()).collect();
        assert_eq!(numbers.len(), 16);
        for c in 0..4 {
            let column: HashSet<u8> = (0..4).map(|r| numbers[4 * r + c]).collect();
            assert_eq!(column.len(), 4, "{line}");
            let low = 20 * c as u8 + 1;
            assert!(column.iter().all(|n| (low..low + 20).contains(n)), "{line}");
        }
        assert!(seen.insert(numbers), "a repeated card");
    }
    bingomint()
        .arg("verify")
        .arg(&one)
        .assert()
        .success()
        .stdout(predicate::str::contains("70000 valid, unique cards"));
    let info = stdout_of(bingomint().arg("info").arg(&one));
    assert!(info.contains("80-ball (US, 4×4, no free cell)"), "{info}");
    assert!(info.contains("16 bytes each"), "{info}");
    // New cards never repeat the old ones.
    let more = generate(
        dir.path(),
        "more.bmc",
        &[
            "--game",
            "80",
            "--count",
            "1000",
            "--exclude",
            one.to_str().unwrap(),
        ],
    );
    assert!(export_txt(&more).iter().all(|l| !lines.contains(l)));
    // A 75-ball file cannot be excluded from 80-ball cards.
    let other = generate(dir.path(), "c75.bmc", &["--count", "10"]);
    bingomint()
        .args(["generate", "--game", "80", "--count", "5", "--exclude"])
        .arg(&other)
        .arg("--out")
        .arg(dir.path().join("x.bmc"))
        .assert()
        .code(2);
}

#[test]
fn a_broken_eighty_ball_card_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--game", "80", "--count", "50"]);
    // Card 3's second column, first row: 5 is not a number of 21-40.
    edit(&file, |bytes| {
        let at = records_at(bytes) + 2 * 16 + 4;
        bytes[at] = 5;
    });
    bingomint()
        .arg("verify")
        .arg(&file)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "column 2 row 1 holds 5, outside 21–40",
        ));
}

#[test]
fn show_export_and_count_speak_eighty_ball() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(
        dir.path(),
        "c.bmc",
        &["--game", "80", "--count", "9", "--seed", "4"],
    );
    let first: Vec<String> = export_txt(&file)[1]
        .split(' ')
        .map(str::to_string)
        .collect();
    let shown = stdout_of(bingomint().arg("show").arg(&file).args(["--card", "2"]));
    assert!(shown.starts_with("card 2 of 9"), "{shown}");
    assert!(first.iter().all(|n| shown.contains(&format!(" {n} "))));
    let csv = stdout_of(
        bingomint()
            .arg("export")
            .arg(&file)
            .args(["--format", "csv", "--range", "2"]),
    );
    let mut rows = csv.lines();
    assert_eq!(rows.next().unwrap().split(',').count(), 17);
    assert_eq!(rows.next().unwrap(), format!("2,{}", first.join(",")));
    let count = stdout_of(bingomint().args(["count", "--game", "80"]));
    assert!(count.contains("182818479414274560000"), "{count}");
    bingomint()
        .args([
            "generate", "--game", "80", "--format", "v3", "--count", "5", "--out",
        ])
        .arg(dir.path().join("v3.dat"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--format v3 holds 75-ball cards only",
        ));
}

#[test]
fn eighty_ball_cards_print_with_their_numbers_and_qr_codes() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(
        dir.path(),
        "c.bmc",
        &["--game", "80", "--count", "12", "--seed", "8"],
    );
    let pdf = dir.path().join("c.pdf");
    bingomint()
        .arg("print")
        .arg(&file)
        .arg("--out")
        .arg(&pdf)
        .args(["--qr", "--quiet"])
        .assert()
        .success();
    let doc = lopdf::Document::load(&pdf).unwrap();
    assert_eq!(doc.get_pages().len(), 2, "12 cards, 6 a page");
    let text = doc.extract_text(&[2]).unwrap();
    assert!(text.contains("Card 12"), "{text}");
    for n in export_txt(&file)[11].split(' ') {
        assert!(text.contains(n), "page 2 lacks {n}");
    }
    let tools = ["pdftoppm", "zbarimg"];
    if tools
        .iter()
        .any(|t| Command::new(t).arg("-v").output().is_err())
    {
        crate::common::skipped("80-ball QR codes: pdftoppm or zbarimg is not installed");
        return;
    }
    let codes = crate::print::first_page_codes(&pdf, dir.path());
    assert_eq!(codes.len(), 6, "{codes:?}");
    assert!(codes.iter().all(|c| c.contains(":CARD:")), "{codes:?}");
}
