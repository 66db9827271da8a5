//! `bingomint audit` from the outside: the verdict and exit codes, the
//! report files and what their header says, never clobbering a report,
//! bad flags, reproducible figures, and the raw output.

use crate::common::{bingomint, edit, export_txt, generate};
use predicates::prelude::*;
use serde_json::Value;
use std::path::Path;

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn about<'a>(report: &'a Value, key: &str) -> &'a str {
    report["about"][key]
        .as_str()
        .unwrap_or_else(|| panic!("no {key} in {}", report["about"]))
}

fn sha256(path: &Path) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(std::fs::read(path).unwrap());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn a_fair_file_passes_with_a_report_that_names_file_and_binary() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "20000", "--seed", "42"]);
    bingomint()
        .arg("audit")
        .arg(&file)
        .assert()
        .success()
        .stdout(predicate::str::contains("PASS: 20000 75-ball cards:"))
        .stdout(predicate::str::contains("20000 cards: no two the same"));
    let report = json(&dir.path().join("c.bmc.audit.json"));
    assert_eq!(report["passed"], true);
    assert_eq!(about(&report, "file SHA-256"), sha256(&file));
    assert_eq!(
        about(&report, "binary SHA-256"),
        sha256(Path::new(env!("CARGO_BIN_EXE_bingomint")))
    );
    assert_eq!(about(&report, "seed"), "42");
    assert_eq!(about(&report, "algorithm version"), "4");
    let families: Vec<&str> = report["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["family"].as_str().unwrap())
        .collect();
    for family in [
        "chi-square",
        "permutation",
        "runs",
        "serial correlation",
        "gap",
        "poker",
        "coupon collector",
    ] {
        assert!(families.contains(&family), "no {family} test");
    }
    // One page that opens offline: no scripts, nothing fetched.
    let html = std::fs::read_to_string(dir.path().join("c.bmc.audit.html")).unwrap();
    assert!(html.contains("<svg") && html.contains("PASS"));
    for fetch in ["<script", "src=", "href=", "@import", "url("] {
        assert!(!html.contains(fetch), "the report fetches: {fetch}");
    }
}

#[test]
fn a_report_is_never_clobbered_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "2000", "--seed", "1"]);
    let html = dir.path().join("r.html");
    let json_out = dir.path().join("r.json");
    let audit = |extra: &[&str]| {
        let mut cmd = bingomint();
        cmd.arg("audit").arg(&file).arg("--out").arg(&html);
        cmd.arg("--out").arg(&json_out).args(extra);
        cmd.assert()
    };
    audit(&["-q"]).success();
    let before = json(&json_out)["tests"].clone();
    // Only the JSON's place is free: still refused before either is written.
    std::fs::remove_file(&json_out).unwrap();
    audit(&[]).code(2).stderr(
        predicate::str::contains("already exists").and(predicate::str::contains("--force")),
    );
    assert!(!json_out.exists(), "a refusal wrote half the report");
    audit(&["--force", "-q"]).success();
    assert_eq!(json(&json_out)["tests"], before);
    // See: hardening round three, item 13 — with a directory or a link where
    // a report goes, --force was asked for although it was given.
    std::fs::remove_file(&html).unwrap();
    std::fs::create_dir(&html).unwrap();
    std::fs::remove_file(&json_out).unwrap();
    std::os::unix::fs::symlink(&file, &json_out).unwrap();
    audit(&["--force"]).code(2).stderr(
        predicate::str::contains("r.html' is a directory")
            .and(predicate::str::contains("move it away"))
            .and(predicate::str::contains("add --force").not()),
    );
    std::fs::remove_dir(&html).unwrap();
    audit(&["--force"]).code(2).stderr(
        predicate::str::contains("r.json' is a symbolic link")
            .and(predicate::str::contains("move it away")),
    );
    // A folder, as older versions took, is refused with the fix.
    bingomint()
        .arg("audit")
        .arg(&file)
        .args(["--out", "report-folder"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--out 'report-folder': name the report's file, ending .html or .json",
        ));
}

#[test]
fn repeated_cards_fail_and_damaged_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let v3 = generate(dir.path(), "c.dat", &["--count", "3000", "--format", "v3"]);
    edit(&v3, |bytes| {
        let first: Vec<u8> = bytes[128..128 + 25].to_vec();
        bytes[128 + 2 * 25..128 + 3 * 25].copy_from_slice(&first);
    });
    bingomint()
        .arg("audit")
        .arg(&v3)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("card 3 repeats 1"))
        .stdout(
            predicate::str::contains("FAIL:").and(predicate::str::contains("uniqueness failed")),
        );
    assert_eq!(json(&dir.path().join("c.dat.audit.json"))["passed"], false);
    let native = generate(dir.path(), "c.bmc", &["--count", "3000"]);
    edit(&native, |bytes| *bytes.last_mut().unwrap() ^= 1);
    bingomint()
        .arg("audit")
        .arg(&native)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bingomint verify"));
    assert!(!dir.path().join("c.bmc.audit.json").exists());
}

#[test]
fn bad_flags_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "100"]);
    for (args, message) in [
        (vec!["--alpha", "0"], "--alpha 0"),
        (vec!["--alpha", "0.9"], "--alpha 0.9"),
        (vec!["--calls", "--games", "10"], "--games 10"),
        (vec!["--raw", "1K"], "--raw needs one --out"),
        (vec!["--raw", "0", "--out", "x"], "--raw <BYTES>"),
        (vec!["--games", "5000"], "--call-orders"),
        (vec![], "<FILE>"),
        (
            vec!["c.bmc"],
            "holds 100 cards; the battery needs at least 1000",
        ),
    ] {
        let mut cmd = bingomint();
        cmd.arg("audit").args(&args).current_dir(dir.path());
        if args.first().is_some_and(|a| a.starts_with("--alpha")) {
            cmd.arg(&file);
        }
        cmd.assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
}

#[test]
fn figures_are_the_same_for_any_thread_count_and_seeded_calls_repeat() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(
        dir.path(),
        "s.bmc",
        &["--game", "90", "--count", "3000", "--seed", "5"],
    );
    let mut tests = Vec::new();
    for threads in ["1", "2"] {
        let out = dir.path().join(format!("r{threads}.json"));
        bingomint()
            .arg("audit")
            .arg(&file)
            .args(["-j", threads, "-q", "--out"])
            .arg(&out)
            .assert()
            .success();
        tests.push(json(&out)["tests"].clone());
    }
    assert_eq!(tests[0], tests[1]);
    let mut calls = Vec::new();
    for run in ["a.json", "b.json"] {
        let out = dir.path().join(run);
        let args = [
            "audit",
            "--call-orders",
            "--game",
            "90",
            "--games",
            "2000",
            "--seed",
            "night-1",
            "-q",
            "--out",
        ];
        bingomint().args(args).arg(&out).assert().success();
        calls.push(json(&out)["tests"].clone());
    }
    assert_eq!(calls[0], calls[1]);
    assert!(calls[0].as_array().unwrap().len() > 90);
}

#[test]
fn raw_output_is_the_files_stream_to_a_file_or_a_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "100", "--seed", "42"]);
    let from_file = dir.path().join("f.bin");
    bingomint()
        .arg("audit")
        .arg(&file)
        .args(["--raw", "4K", "--out"])
        .arg(&from_file)
        .assert()
        .success();
    let piped = bingomint()
        .args(["audit", "--raw", "4K", "--seed", "42", "--out", "-"])
        .output()
        .unwrap();
    assert!(piped.status.success());
    assert_eq!(std::fs::read(&from_file).unwrap(), piped.stdout);
    assert_eq!(piped.stdout.len(), 4096);
    // The numbers as drawn: the first card's, as `export` shows them.
    let scaled = bingomint()
        .args([
            "audit", "--raw", "24", "--scaled", "--seed", "42", "--out", "-",
        ])
        .output()
        .unwrap();
    let first = &export_txt(&file)[0];
    let mut on_card: Vec<u8> = first
        .split([' ', ','])
        .filter_map(|n| n.parse().ok())
        .filter(|&n| n > 0)
        .collect();
    let mut drawn = scaled.stdout.clone();
    on_card.sort_unstable();
    drawn.sort_unstable();
    assert_eq!(drawn, on_card, "card 1: {first}");
    bingomint()
        .arg("audit")
        .arg(&file)
        .args(["--raw", "4K", "--out"])
        .arg(&from_file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("already exists"));
}

// See: newcomer round two, item 7 — `audit --raw 1G --out - | head -c
// 10000000` said "wrote 9437640 bytes", fewer than head had read.
#[test]
fn raw_output_into_a_pipe_closed_early_says_so_with_what_the_pipe_took() {
    use std::io::Read;
    for generator in ["mint", "hall"] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_bingomint"))
            .args([
                "audit",
                "--raw",
                "64M",
                "--seed",
                "1",
                "--generator",
                generator,
                "--out",
                "-",
            ])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let mut first = vec![0u8; 100_000];
        stdout.read_exact(&mut first).unwrap();
        drop(stdout);
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{generator}");
        let err = String::from_utf8_lossy(&out.stderr);
        let taken: u64 = err
            .split("stopped after ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{generator}: {err}"));
        assert!(
            (100_000..64 << 20).contains(&taken),
            "{generator}: {taken}: {err}"
        );
        assert!(err.contains("the reader closed the pipe"), "{err}");
    }
}
