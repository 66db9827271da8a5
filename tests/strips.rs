//! 90-ball strips through the CLI.

use crate::common::{bingomint, edit, generate, generate_fails, records_at};
use predicates::prelude::*;

fn strips(file: &std::path::Path) -> Vec<Vec<u8>> {
    let out = bingomint()
        .args(["export", "--to", "txt"])
        .arg(file)
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split(' ').map(|n| n.parse().unwrap()).collect())
        .collect()
}

#[test]
fn generates_valid_strips_that_verify_accepts() {
    let dir = tempfile::tempdir().unwrap();
    for rules in ["uk", "es"] {
        let name = format!("{rules}.bmc");
        let out = dir.path().join(&name);
        bingomint()
            .args([
                "generate", "--game", "90", "--rules", rules, "--count", "3000", "--seed", "7",
                "--out",
            ])
            .arg(&out)
            .assert()
            .success()
            .stdout(predicate::str::contains(format!(
                "3000 90-ball strips ({rules}, 18000 tickets)"
            )));
        bingomint()
            .arg("verify")
            .arg(&out)
            .assert()
            .success()
            .stdout(predicate::str::contains(
                "uniqueness        ok (no ticket repeats another)",
            ));
        for strip in strips(&out) {
            assert_eq!(strip.len(), 162);
            let mut numbers: Vec<u8> = strip.iter().copied().filter(|&n| n != 0).collect();
            numbers.sort();
            assert_eq!(numbers, (1..=90).collect::<Vec<u8>>());
        }
    }
}

#[test]
fn same_seed_gives_identical_strips_for_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    // 70,000 strips: two chunks.
    let args = ["--game", "90", "--count", "70000", "--seed", "tambola"];
    let one = generate(
        dir.path(),
        "a.bmc",
        &[&args[..], &["--threads", "1"]].concat(),
    );
    let two = generate(
        dir.path(),
        "b.bmc",
        &[&args[..], &["--threads", "2"]].concat(),
    );
    assert!(std::fs::read(one).unwrap() == std::fs::read(two).unwrap());
}

#[test]
fn count_prints_the_exact_figures() {
    bingomint()
        .args(["count", "--game", "90"])
        .assert()
        .success()
        .stdout(predicate::str::contains("valid rows:                      126\n"))
        .stdout(predicate::str::contains("ticket column-count vectors:     1554\n"))
        .stdout(predicate::str::contains("ticket layouts:                  735210\n"))
        .stdout(predicate::str::contains(
            "numbered strips:                 467711541132248468278363019351514108076722415153589853880320000000000000000000\n",
        ));
    bingomint()
        .args(["count", "--game", "90", "--rules", "es"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "valid rows:                      79\n",
        ));
    bingomint()
        .args(["count", "--game", "75"])
        .assert()
        .success()
        .stdout(predicate::str::contains("552446474061128648601600000"));
}

#[test]
fn show_prints_a_strip_or_one_ticket() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "s.bmc", &["--game", "90", "--count", "20"]);
    // A plain number in --card could be strip 12 or ticket 12: refused,
    // naming both ways to say it.
    bingomint()
        .args(["show", "--card", "12"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "could be a strip or a ticket of this file of strips: say --strip 12 or --ticket 12",
        ));
    bingomint()
        .args([
            "check",
            "--card",
            "12",
            "--calls",
            "1",
            "--pattern",
            "one-line",
        ])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("say --strip 12 or --ticket 12"));
    bingomint()
        .args(["show", "--strip", "12"])
        .arg(&file)
        .assert()
        .success()
        .stdout(predicate::str::contains("strip 12 of 20"))
        .stdout(predicate::str::contains("tickets 67–72"))
        .stdout(predicate::str::contains("ticket 67\n┌────┬"))
        .stdout(predicate::str::contains("ticket 72\n"));
    let out = bingomint()
        .args(["show", "--ticket", "70"])
        .arg(&file)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("ticket 70\n") && !text.contains("ticket 69\n"));
    bingomint()
        .args(["show", "--ticket", "121"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains(
                "--ticket \"121\" is not in this file: it holds tickets 1 to 120",
            )
            .and(predicate::str::contains("tickets 1 to 120")),
        );
}

#[test]
fn verify_names_broken_and_repeated_strips() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "s.bmc", &["--game", "90", "--count", "10"]);
    edit(&file, |bytes| {
        let at = records_at(bytes);
        let first = bytes[at..at + 162].to_vec();
        bytes[at + 2 * 162..at + 3 * 162].copy_from_slice(&first);
        // Strip 5: swap two numbers between columns.
        let strip5 = at + 4 * 162;
        let a = (0..162)
            .find(|&i| (1..10).contains(&bytes[strip5 + i]))
            .unwrap();
        let b = (0..162)
            .find(|&i| (80..=90).contains(&bytes[strip5 + i]))
            .unwrap();
        bytes.swap(strip5 + a, strip5 + b);
    });
    bingomint()
        .arg("verify")
        .arg(&file)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("strip 5: ticket"))
        .stdout(predicate::str::contains("belongs in column"))
        .stdout(predicate::str::contains(
            "strip 3 repeats a ticket of strip 1",
        ));
}

#[test]
fn exclude_makes_every_ticket_new() {
    let dir = tempfile::tempdir().unwrap();
    let old = generate(
        dir.path(),
        "old.bmc",
        &["--game", "90", "--count", "500", "--seed", "3"],
    );
    let new = dir.path().join("new.bmc");
    bingomint()
        .args([
            "generate",
            "--game",
            "90",
            "--count",
            "500",
            "--seed",
            "3",
            "--exclude",
        ])
        .arg(&old)
        .arg("--out")
        .arg(&new)
        .assert()
        .success()
        .stdout(predicate::str::contains("500 duplicates redrawn"));
    bingomint().arg("verify").arg(&new).assert().success();
    // 75-ball files cannot be excluded from 90-ball strips.
    let cards = generate(dir.path(), "cards.bmc", &["--count", "10"]);
    bingomint()
        .args(["generate", "--game", "90", "--count", "5", "--exclude"])
        .arg(&cards)
        .arg("--out")
        .arg(dir.path().join("x.bmc"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not 90-ball"));
}

#[test]
fn flags_that_do_not_fit_the_game_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.bmc");
    let cases: [(&[&str], &str); 3] = [
        (&["--game", "90", "--star"], "--star is for 75-ball cards"),
        (
            &["--game", "90", "--format", "v3"],
            "--format v3 holds 75-ball cards only",
        ),
        (&["--rules", "es"], "--rules is for 90-ball strips"),
    ];
    for (args, message) in cases {
        generate_fails(args, &out, message);
    }
}

#[test]
fn exports_csv_per_ticket_and_jsonl_per_strip() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "s.bmc", &["--game", "90", "--count", "3"]);
    let out = bingomint()
        .args(["export", "--to", "csv"])
        .arg(&file)
        .output()
        .unwrap();
    let csv = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 1 + 18);
    assert!(lines[0].starts_with("ticket,strip,r1c1,"));
    assert!(lines[18].starts_with("18,3,"));
    bingomint()
        .args(["export", "--to", "jsonl", "--range", "2"])
        .arg(&file)
        .assert()
        .success()
        .stdout(
            predicate::str::is_match(
                r#"^\{"strip":2,"tickets":\[(\[(\[(\d+,){8}\d+\],?){3}\],?){6}\]\}\n$"#,
            )
            .unwrap(),
        );
}
