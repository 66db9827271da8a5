use crate::common::{bingomint, export_txt, generate};
use predicates::prelude::*;
use std::io::{BufRead, BufReader};

#[test]
fn txt_has_one_card_per_line_row_major_with_zero_centre() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "300"]);
    let lines = export_txt(&file);
    assert_eq!(lines.len(), 300);
    for line in &lines {
        let numbers: Vec<u8> = line.split(' ').map(|n| n.parse().unwrap()).collect();
        assert_eq!(numbers.len(), 25);
        assert_eq!(numbers[12], 0);
        for (i, &n) in numbers.iter().enumerate() {
            if i != 12 {
                let column = (i % 5) as u8;
                assert!((15 * column + 1..=15 * column + 15).contains(&n), "{line}");
            }
        }
    }
}

#[test]
fn range_selects_cards() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "100"]);
    let all = export_txt(&file);
    let out = bingomint()
        .args(["export", "--range", "10..12"])
        .arg(&file)
        .output()
        .unwrap();
    let some: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(some, all[9..12]);
    bingomint()
        .args(["export", "--range", "90..101"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--range 90..101: \"101\" is not in this file: it holds cards 1 to 100",
        ));
}

#[test]
fn csv_and_jsonl_carry_the_card_number_and_star() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "5", "--star"]);
    let out = dir.path().join("c.csv");
    bingomint()
        .args(["export", "--to", "csv", "--out"])
        .arg(&out)
        .arg(&file)
        .assert()
        .success();
    let csv = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 6);
    assert!(lines[0].starts_with("card,B1,I1,N1,G1,O1,"));
    assert!(lines[0].ends_with(",O5,star"));
    assert!(lines[3].starts_with("3,"));
    let star = lines[3].rsplit(',').next().unwrap();
    assert!(star.len() == 2 && "BINGO".contains(&star[..1]), "{star}");
    // The output exists now: no overwrite without --force.
    bingomint()
        .args(["export", "--to", "csv", "--out"])
        .arg(&out)
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("already exists"));
    bingomint()
        .args(["export", "--to", "jsonl", "--range", "2"])
        .arg(&file)
        .assert()
        .success()
        .stdout(predicate::str::is_match(r#"^\{"card":2,"grid":\[\[(\d+,){4}\d+\](,\[(\d+,){4}\d+\]){4}\],"star":"[BINGO][1-5]"\}\n$"#).unwrap());
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "100000"]);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_bingomint"))
        .arg("export")
        .arg(&file)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first.split(' ').count(), 25);
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty());
}

#[test]
fn export_says_what_it_wrote_unless_quiet() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "30", "--seed", "2"]);
    let out = dir.path().join("e.csv");
    let run = |args: &[&str]| {
        bingomint()
            .arg("export")
            .arg(&file)
            .args(args)
            .output()
            .unwrap()
    };
    let written = run(&[
        "--format",
        "csv",
        "--range",
        "1..10",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        String::from_utf8_lossy(&written.stdout),
        format!("10 cards as csv -> {}\n", out.display())
    );
    // To standard output: the cards there, the summary on stderr.
    let piped = run(&["--range", "1..3"]);
    assert_eq!(String::from_utf8_lossy(&piped.stdout).lines().count(), 3);
    assert_eq!(
        String::from_utf8_lossy(&piped.stderr),
        "bingomint: exported 3 cards as txt\n"
    );
    let quiet = run(&["--range", "1..3", "-q"]);
    assert!(quiet.stderr.is_empty());
}

#[test]
fn a_range_list_is_its_runs_in_order_in_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "60", "--seed", "3"]);
    let lines = |range: &str| -> Vec<String> {
        let out = bingomint()
            .arg("export")
            .arg(&file)
            .args(["--range", range, "-q"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    };
    let all = lines("1..60");
    let listed = lines("1..3, 7..8,42");
    let want: Vec<String> = [0, 1, 2, 6, 7, 41]
        .iter()
        .map(|&i| all[i].clone())
        .collect();
    assert_eq!(listed, want);
    // Runs that go back or overlap are refused, naming the rule.
    bingomint()
        .arg("export")
        .arg(&file)
        .args(["--range", "5..7,6"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("in order without overlapping"));
    // print and winners take the same list.
    let pdf = dir.path().join("l.pdf");
    bingomint()
        .arg("print")
        .arg(&file)
        .args(["--range", "1..3,7..8,42", "--out"])
        .arg(&pdf)
        .assert()
        .success()
        .stdout(predicate::str::starts_with("6 cards on 1 letter page"));
    let doc = lopdf::Document::load(&pdf).unwrap();
    let text = doc.extract_text(&[1]).unwrap();
    for card in ["Card 1", "Card 3", "Card 7", "Card 8", "Card 42"] {
        assert!(text.contains(card), "{card}: {text}");
    }
    assert!(
        !text.contains("Card 4\n") && !text.contains("Card 41"),
        "{text}"
    );
    bingomint()
        .arg("winners")
        .arg(&file)
        .args([
            "--calls",
            "1,2,3",
            "--pattern",
            "line",
            "--range",
            "1..3,7..8",
        ])
        .assert()
        .stdout(predicate::str::contains("cards 1 to 3, 7 to 8 of"));
}
