//! Play: call orders, claims, winners and the simulator's command line,
//! checked against each other and against a plain reference that marks
//! call by call, on thousands of cards and tickets.

use crate::common::{bingomint, export_txt, generate, stdout_of};
use predicates::prelude::*;
use std::collections::BTreeSet;
use std::path::Path;

/// The order `calls` prints (comment lines skipped).
fn calls(args: &[&str]) -> Vec<u8> {
    stdout_of(bingomint().arg("calls").args(args))
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.parse().unwrap())
        .collect()
}

#[test]
fn call_orders_are_reproducible_permutations() {
    for game in ["75", "80", "90"] {
        let order = calls(&["--game", game, "--seed", "hall-7:2026-11-23:game-3"]);
        let balls: u8 = game.parse().unwrap();
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (1..=balls).collect::<Vec<_>>());
        assert_eq!(
            order,
            calls(&["--game", game, "--seed", "hall-7:2026-11-23:game-3"])
        );
        let first = calls(&[
            "--game",
            game,
            "--seed",
            "hall-7:2026-11-23:game-3",
            "--count",
            "10",
        ]);
        assert_eq!(first, order[..10]);
        assert_ne!(
            order,
            calls(&["--game", game, "--seed", "hall-7:2026-11-23:game-4"])
        );
    }
    bingomint()
        .args(["calls", "--seed", "5"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "# bingomint calls: game 75, seed 5, 75 calls\n",
        ));
    bingomint()
        .args(["calls", "--count", "76", "--seed", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--count 76 is more than the 75 numbers",
        ));
}

/// A face as the reference sees it: rows of numbers, 0 for a blank or the
/// free centre.
type Grid = Vec<Vec<u8>>;

/// The faces of a file, from `export --to txt`: faces of `rows` × `cols`
/// numbers row by row (a 90-ball strip's line holds six tickets).
fn faces_of(file: &Path, (rows, cols): (usize, usize)) -> Vec<Grid> {
    export_txt(file)
        .iter()
        .flat_map(|line| {
            let numbers: Vec<u8> = line
                .split_whitespace()
                .map(|n| n.parse().unwrap())
                .collect();
            numbers
                .chunks(rows * cols)
                .map(|face| face.chunks(cols).map(<[u8]>::to_vec).collect())
                .collect::<Vec<Grid>>()
        })
        .collect()
}

/// Whether `grid` holds `pattern` when the numbers in `marked` are called,
/// written from the rules, apart from the library.
fn holds(pattern: &str, grid: &Grid, marked: &BTreeSet<u8>) -> bool {
    // A square card's side (5 or 4); a ticket has 3 rows.
    let n = grid.len();
    let m = |r: usize, c: usize| grid[r][c] == 0 || marked.contains(&grid[r][c]);
    let row = |r: usize| (0..grid[r].len()).all(|c| m(r, c));
    let col = |c: usize| (0..n).all(|r| m(r, c));
    let diag = |d: usize| (0..n).all(|i| if d == 0 { m(i, i) } else { m(i, n - 1 - i) });
    let numbers = || grid.iter().flatten().filter(|&&n| n != 0);
    match pattern {
        "line" => (0..n).any(row) || (0..n).any(col) || (0..2).any(diag),
        "row" => (0..n).any(row),
        "column" => (0..n).any(col),
        "diagonal" => (0..2).any(diag),
        "four-corners" if n > 3 => m(0, 0) && m(0, n - 1) && m(n - 1, 0) && m(n - 1, n - 1),
        "centre" => m(1, 1) && m(1, 2) && m(2, 1) && m(2, 2),
        "x" => diag(0) && diag(1),
        "postage-stamp" => [(0, 0), (0, 3), (3, 0), (3, 3)]
            .iter()
            .any(|&(r, c)| m(r, c) && m(r, c + 1) && m(r + 1, c) && m(r + 1, c + 1)),
        "frame" => row(0) && row(4) && col(0) && col(4),
        "hardway" => [0, 1, 3, 4].iter().any(|&i| row(i) || col(i)),
        "coverall" | "full-house" => numbers().all(|n| marked.contains(n)),
        "one-line" => (0..3).any(row),
        "two-lines" => (0..3).filter(|&r| row(r)).count() >= 2,
        "four-corners" => [0, 2].iter().all(|&r| {
            let cells: Vec<u8> = grid[r].iter().copied().filter(|&n| n != 0).collect();
            marked.contains(&cells[0]) && marked.contains(cells.last().unwrap())
        }),
        "early-five" => numbers().filter(|n| marked.contains(n)).count() >= 5,
        _ => unreachable!("{pattern}"),
    }
}

/// The reference's winners: (face number, the call that completed it).
fn reference_winners(faces: &[Grid], pattern: &str, order: &[u8]) -> Vec<(u64, usize)> {
    let mut won = Vec::new();
    let mut open: Vec<usize> = (0..faces.len()).collect();
    let mut marked = BTreeSet::new();
    for (i, &n) in order.iter().enumerate() {
        marked.insert(n);
        open.retain(|&f| {
            if holds(pattern, &faces[f], &marked) {
                won.push((f as u64 + 1, i + 1));
                false
            } else {
                true
            }
        });
    }
    won.sort_by_key(|&(face, call)| (call, face));
    won
}

/// `winners --format csv`: (face, call) rows; the exit code must say
/// whether there were any.
fn cli_winners(file: &Path, pattern: &str, order: &[u8]) -> Vec<(u64, usize)> {
    let list: Vec<String> = order.iter().map(u8::to_string).collect();
    let out = bingomint()
        .arg("winners")
        .arg(file)
        .args([
            "--pattern",
            pattern,
            "--format",
            "csv",
            "--calls",
            &list.join(","),
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<(u64, usize)> = text
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let call = if f.len() == 4 { f[1] } else { f[2] };
            (f[0].parse().unwrap(), call.parse().unwrap())
        })
        .collect();
    assert_eq!(out.status.code(), Some(if rows.is_empty() { 1 } else { 0 }));
    rows
}

/// `check` on one face: exit 0 and the call, or exit 1.
fn cli_check(file: &Path, flag: &str, face: u64, pattern: &str, order: &[u8]) -> Option<usize> {
    let list: Vec<String> = order.iter().map(u8::to_string).collect();
    let out = bingomint()
        .arg("check")
        .arg(file)
        .args([
            flag,
            &face.to_string(),
            "--pattern",
            pattern,
            "--calls",
            &list.join(","),
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    match out.status.code() {
        Some(0) => {
            let call = text.split("completed at call ").nth(1).unwrap();
            Some(call.split_whitespace().next().unwrap().parse().unwrap())
        }
        Some(1) => {
            assert!(text.contains("NO WIN"), "{text}");
            None
        }
        code => panic!("check exited {code:?}: {text}"),
    }
}

fn agree(
    file: &Path,
    faces: &[Grid],
    flag: &str,
    patterns: &[&str],
    balls: &str,
    counts: &[usize],
) {
    let mut checked = 0;
    for (i, pattern) in patterns.iter().enumerate() {
        for &count in counts {
            let seed = format!("{pattern}-{count}");
            let order = calls(&[
                "--game",
                balls,
                "--seed",
                &seed,
                "--count",
                &count.to_string(),
            ]);
            let expected = reference_winners(faces, pattern, &order);
            checked += expected.len();
            assert_eq!(
                cli_winners(file, pattern, &order),
                expected,
                "{pattern} after {count}"
            );
            // check agrees on the first winner, a late one, and a face
            // that has not won.
            let losers = (1..=faces.len() as u64).find(|f| !expected.iter().any(|w| w.0 == *f));
            let samples = [expected.first(), expected.last()];
            for &&(face, call) in samples.iter().flatten() {
                assert_eq!(cli_check(file, flag, face, pattern, &order), Some(call));
            }
            if let Some(face) = losers.filter(|_| i % 2 == 0) {
                assert_eq!(cli_check(file, flag, face, pattern, &order), None);
            }
        }
    }
    // Enough winners that the comparison means something.
    assert!(checked > 3 * faces.len(), "{checked} winners");
}

#[test]
fn winners_and_check_agree_with_marking_call_by_call_75() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "3000", "--seed", "11"]);
    let faces = faces_of(&file, (5, 5));
    let patterns = [
        "line",
        "row",
        "column",
        "diagonal",
        "four-corners",
        "x",
        "postage-stamp",
        "frame",
        "hardway",
        "coverall",
    ];
    agree(&file, &faces, "--card", &patterns, "75", &[12, 30, 60]);
}

#[test]
fn winners_and_check_agree_with_marking_call_by_call_80() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(
        dir.path(),
        "c.bmc",
        &["--game", "80", "--count", "3000", "--seed", "13"],
    );
    let faces = faces_of(&file, (4, 4));
    assert_eq!(faces.len(), 3000);
    let patterns = [
        "line",
        "row",
        "column",
        "diagonal",
        "four-corners",
        "centre",
        "coverall",
    ];
    agree(&file, &faces, "--card", &patterns, "80", &[12, 30, 60]);
}

#[test]
fn winners_and_check_agree_with_marking_call_by_call_90() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(
        dir.path(),
        "s.bmc",
        &["--game", "90", "--count", "400", "--seed", "12"],
    );
    let faces = faces_of(&file, (3, 9));
    assert_eq!(faces.len(), 2400);
    let patterns = [
        "one-line",
        "two-lines",
        "full-house",
        "four-corners",
        "early-five",
    ];
    agree(&file, &faces, "--ticket", &patterns, "90", &[15, 45, 80]);
}

#[test]
fn claims_name_how_and_when_and_refuse_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "100", "--seed", "4"]);
    let card = &faces_of(&file, (5, 5))[6];
    // The top row of card 7, then one number of its second row.
    let mut order: Vec<String> = card[0].iter().map(u8::to_string).collect();
    order.insert(2, card[1][0].to_string());
    let list = order.join(",");
    let check = |extra: &[&str]| {
        let mut cmd = bingomint();
        cmd.arg("check")
            .arg(&file)
            .args(["--card", "7", "--calls", &list]);
        cmd.args(extra);
        cmd
    };
    check(&["--pattern", "line"])
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "WIN: row 1 completed at call 6 ({})",
            card[0][4]
        )))
        .stdout(predicate::str::contains(format!("[{:>2}]", card[0][0])));
    check(&["--pattern", "line", "--last-call-must-complete"])
        .assert()
        .success();
    // Called once more after the line: no longer the last call.
    let mut later = order.clone();
    let spare = (1..=75u8)
        .find(|n| !card.iter().flatten().any(|c| c == n))
        .unwrap();
    later.push(spare.to_string());
    bingomint()
        .arg("check")
        .arg(&file)
        .args([
            "--card",
            "7",
            "--pattern",
            "line",
            "--last-call-must-complete",
        ])
        .args(["--calls", &later.join(",")])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "NOT VALID: row 1 completed at call 6",
        ));
    check(&["--pattern", "coverall"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "NO WIN: nearest is every cell, which still needs 18",
        ));
    // The reference a printed QR code holds.
    let info = stdout_of(bingomint().arg("info").arg(&file));
    let id = info
        .lines()
        .find_map(|l| l.strip_prefix("id"))
        .unwrap()
        .trim();
    bingomint()
        .arg("check")
        .arg(&file)
        .args(["--card", &format!("bingomint:{id}:card:7")])
        .args(["--calls", &list, "--pattern", "row"])
        .assert()
        .success();
    let cases: [(&[&str], &str); 6] = [
        (
            &["--card", "7", "--calls", "1,76", "--pattern", "line"],
            "--calls: 76 is not a number of this game (1 to 75)",
        ),
        (
            &["--card", "7", "--calls", "5,6,5", "--pattern", "line"],
            "--calls: 5 is called twice (calls 1 and 3)",
        ),
        (
            &["--card", "7", "--calls", "5", "--pattern", "lines"],
            "--pattern \"lines\" is not a 75-ball pattern",
        ),
        (
            &["--card", "7", "--calls", "5", "--pattern", "full-house"],
            "'full-house' is a 90-ball pattern",
        ),
        (
            &["--card", "101", "--calls", "5", "--pattern", "line"],
            "--card \"101\" is not in this file: it holds cards 1 to 100",
        ),
        (
            &[
                "--card",
                "bingomint:ZZZZZZZZ:card:7",
                "--calls",
                "5",
                "--pattern",
                "line",
            ],
            "belongs to the file with id ZZZZZZZZ",
        ),
    ];
    for (args, message) in cases {
        bingomint()
            .arg("check")
            .arg(&file)
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
}

#[test]
fn show_marks_the_calls_and_patterns_are_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(
        dir.path(),
        "s.bmc",
        &["--game", "90", "--count", "3", "--seed", "4"],
    );
    let ticket = &faces_of(&file, (3, 9))[13];
    let first = ticket[0].iter().find(|&&n| n != 0).unwrap();
    bingomint()
        .arg("show")
        .arg(&file)
        .args(["--ticket", "14", "--calls", &format!("{first},90")])
        .assert()
        .success()
        .stdout(predicate::str::contains(format!("[{first:>2}]")))
        .stdout(predicate::str::contains(
            "2 numbers called, marked [n]; the last 90",
        ));
    bingomint()
        .arg("patterns")
        .assert()
        .success()
        .stdout(predicate::str::contains("line: 12 ways"))
        .stdout(predicate::str::contains("hardway: 8 ways"))
        .stdout(predicate::str::contains("early-five: any five numbers"));
}

#[test]
fn simulate_reports_reproducible_figures() {
    let run = |threads: &str| {
        stdout_of(bingomint().args([
            "simulate",
            "--cards",
            "300",
            "--pattern",
            "line",
            "--games",
            "3000",
            "--seed",
            "7",
            "--json",
            "--quiet",
            "--threads",
            threads,
        ]))
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    let summary: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert_eq!(summary["games"], 3000);
    assert_eq!(summary["faces"], 300);
    let mean = summary["mean"].as_f64().unwrap();
    assert!((4.0..20.0).contains(&mean), "{mean}");
    let dir = tempfile::tempdir().unwrap();
    let plot = dir.path().join("h.svg");
    bingomint()
        .args([
            "simulate",
            "--game",
            "90",
            "--strips",
            "20",
            "--pattern",
            "full-house",
        ])
        .args(["--games", "500", "--quiet", "--plot"])
        .arg(&plot)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "pattern full-house · 20 fresh strips (120 tickets)",
        ));
    assert!(std::fs::read_to_string(&plot).unwrap().starts_with("<svg"));
    bingomint()
        .args([
            "simulate",
            "--game",
            "90",
            "--cards",
            "5",
            "--pattern",
            "one-line",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--cards is for 75- and 80-ball cards",
        ));
}

// See: hardening round two, item 5 — --last-call-must-complete judged the
// earliest completed way, so a card whose row fell at call 5 was refused at
// call 9 although call 9 completed its first column. The house rule: the
// claim is good when the last number called completes a winning way.
#[test]
fn the_last_call_may_complete_any_winning_way() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "50", "--seed", "9"]);
    let card = &faces_of(&file, (5, 5))[0];
    // Row 1 (complete at call 5), then the rest of column 1 (complete at 9).
    let mut order: Vec<u8> = card[0].to_vec();
    order.extend((1..5).map(|r| card[r][0]));
    let list: Vec<String> = order.iter().map(u8::to_string).collect();
    let list = list.join(",");
    let run = |cmd: &str, extra: &[&str]| {
        let mut c = bingomint();
        c.arg(cmd)
            .arg(&file)
            .args(["--pattern", "line", "--calls", &list]);
        c.args(extra);
        c
    };
    run("check", &["--card", "1", "--last-call-must-complete"])
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "WIN: column B completed at call 9 ({})",
            order[8]
        )));
    let listed = stdout_of(&mut run("winners", &["--last-call-must-complete"]));
    assert!(
        listed.contains(&format!("card 1: column B at call 9 ({})", order[8])),
        "{listed}"
    );
    // A number that completes nothing of card 1 called last: not valid.
    let spare = (1..=75u8)
        .find(|n| !card.iter().flatten().any(|c| c == n))
        .unwrap();
    bingomint()
        .arg("check")
        .arg(&file)
        .args([
            "--card",
            "1",
            "--pattern",
            "line",
            "--last-call-must-complete",
        ])
        .args(["--calls", &format!("{list},{spare}")])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "NOT VALID: row 1 completed at call 5",
        ))
        .stdout(predicate::str::contains("completes no way of the pattern"));
}

// See: hardening round two, items 1 and 2 — a mask whose marked cells hold
// no number (the free centre; a ticket's blanks) panicked check and winners
// (index usize::MAX) and made simulate print "mean -0.00 … max 0".
#[test]
fn a_way_without_numbers_is_never_won() {
    let dir = tempfile::tempdir().unwrap();
    let cards = generate(dir.path(), "c.bmc", &["--count", "20", "--seed", "1"]);
    let centre = "mask:...../...../..X../...../.....";
    for args in [
        vec!["check", "--card", "1", "--calls", "1,2,3"],
        vec!["winners", "--calls", "1,2,3"],
    ] {
        bingomint()
            .arg(args[0])
            .arg(&cards)
            .args(&args[1..])
            .args(["--pattern", centre])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("marks only the free centre"));
    }
    bingomint()
        .args([
            "simulate",
            "--cards",
            "10",
            "--games",
            "10",
            "--pattern",
            centre,
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("marks only the free centre"));
    // A ticket whose four corners are blank cannot win the corner mask.
    let strips = generate(
        dir.path(),
        "s.bmc",
        &["--game", "90", "--count", "300", "--seed", "1"],
    );
    let tickets = faces_of(&strips, (3, 9));
    let blank = tickets
        .iter()
        .position(|t| t[0][0] == 0 && t[0][8] == 0 && t[2][0] == 0 && t[2][8] == 0)
        .expect("a ticket with four blank corners among 1,800") as u64
        + 1;
    let corners = "mask:X.......X/........./X.......X";
    let all: Vec<String> = (1..=90).map(|n: u8| n.to_string()).collect();
    bingomint()
        .arg("check")
        .arg(&strips)
        .args(["--ticket", &blank.to_string(), "--pattern", corners])
        .args(["--calls", &all.join(",")])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("so it can never win it"));
    // Winners: nobody "completes" before the first call.
    let listed = stdout_of(bingomint().arg("winners").arg(&strips).args([
        "--pattern",
        corners,
        "--calls",
        "1,2,3",
    ]));
    assert!(!listed.contains("at call 0"), "{listed}");
    assert!(!listed.contains(&format!("ticket {blank}:")), "{listed}");
}

#[test]
fn simulate_within_says_the_chance_of_a_win_by_a_call_in_one_line() {
    let run = |within: &str| {
        stdout_of(bingomint().args([
            "simulate",
            "--cards",
            "300",
            "--pattern",
            "line",
            "--games",
            "3000",
            "--seed",
            "7",
            "--quiet",
            "--json",
            "--within",
            within,
        ]))
    };
    let v: serde_json::Value = serde_json::from_str(&run("8")).unwrap();
    let w = &v["within"];
    // The count is the table's own: games whose first win came by call 8.
    let by_table: u64 = v["first_win"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e[0].as_u64().unwrap() <= 8)
        .map(|e| e[1].as_u64().unwrap())
        .sum();
    assert_eq!(w["games"], by_table);
    let (share, low, high) = (
        w["share"].as_f64().unwrap(),
        w["low"].as_f64().unwrap(),
        w["high"].as_f64().unwrap(),
    );
    assert!(low < share && share < high && high - low < 0.05, "{w}");
    // Every game of 75 calls is won: the chance is 1, its interval ends at 1.
    let all: serde_json::Value = serde_json::from_str(&run("75")).unwrap();
    assert_eq!(all["within"]["share"], 1.0);
    assert_eq!(all["within"]["high"], 1.0);
    let text = stdout_of(bingomint().args([
        "simulate",
        "--cards",
        "300",
        "--pattern",
        "line",
        "--games",
        "3000",
        "--seed",
        "7",
        "--quiet",
        "--within",
        "8",
    ]));
    assert!(
        text.contains("won within 8 calls: ") && text.contains("95% interval"),
        "{text}"
    );
    bingomint()
        .args([
            "simulate",
            "--cards",
            "3",
            "--pattern",
            "line",
            "--within",
            "0",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--within 0"));
}

#[test]
fn quiet_winners_list_only_winners_and_quiet_check_answers_by_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "3000", "--seed", "9"]);
    let calls = dir.path().join("calls.txt");
    let order = stdout_of(bingomint().args(["calls", "--seed", "friday-game-3", "--count", "40"]));
    std::fs::write(&calls, order).unwrap();
    let args = |quiet: bool| {
        let mut cmd = bingomint();
        cmd.arg("winners")
            .arg(&file)
            .arg("--calls-file")
            .arg(&calls)
            .args(["--pattern", "line"]);
        if quiet {
            cmd.arg("-q");
        }
        stdout_of(&mut cmd)
    };
    let (loud, quiet) = (args(false), args(true));
    let lines: Vec<&str> = loud.lines().filter(|l| l.starts_with("card ")).collect();
    assert!(!lines.is_empty(), "{loud}");
    assert_eq!(
        quiet.lines().collect::<Vec<_>>(),
        lines,
        "only the winners' lines"
    );
    let winner = lines[0].split([' ', ':']).nth(1).unwrap().to_string();
    let check = |card: &str| {
        bingomint()
            .arg("check")
            .arg(&file)
            .args(["--card", card, "--pattern", "line", "-q", "--calls-file"])
            .arg(&calls)
            .output()
            .unwrap()
    };
    let won = check(&winner);
    assert_eq!((won.status.code(), won.stdout.len()), (Some(0), 0));
    let loser = (1..=3000)
        .map(|n| n.to_string())
        .find(|n| !lines.iter().any(|l| l.starts_with(&format!("card {n}:"))))
        .unwrap();
    let lost = check(&loser);
    assert_eq!((lost.status.code(), lost.stdout.len()), (Some(1), 0));
}

#[test]
fn a_calls_file_of_another_game_is_refused_naming_both_games() {
    let dir = tempfile::tempdir().unwrap();
    let strips = generate(
        dir.path(),
        "s.bmc",
        &["--game", "90", "--count", "10", "--seed", "1"],
    );
    let calls = dir.path().join("c75.txt");
    let text =
        stdout_of(bingomint().args(["calls", "--game", "75", "--seed", "3", "--count", "40"]));
    std::fs::write(&calls, text).unwrap();
    for args in [
        vec!["winners", "--pattern", "one-line"],
        vec!["check", "--ticket", "3", "--pattern", "one-line"],
    ] {
        let out = bingomint()
            .args(&args[..1])
            .arg(&strips)
            .args(&args[1..])
            .arg("--calls-file")
            .arg(&calls)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("calls of a 75-ball game") && err.contains("cards are of a 90-ball game"),
            "{err}"
        );
    }
}
