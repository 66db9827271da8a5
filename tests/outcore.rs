//! Out-of-core runs, forced with a small `--memory`: the same files and the
//! same verify reports as in memory, for any thread count, with and without
//! `--exclude` (whose every card repeats, so the parallel repair rounds and
//! the one-by-one tail both run against the key partitions).

use crate::common::{bingomint, edit, generate, records_at, stdout_of};
use predicates::str::contains;
use std::path::Path;

/// The least budget a run takes: far below what these runs need in memory.
const SMALL: &str = "32M";

fn assert_same(a: &Path, b: &Path) {
    let (a_bytes, b_bytes) = (std::fs::read(a).unwrap(), std::fs::read(b).unwrap());
    assert!(
        a_bytes == b_bytes,
        "{} and {} differ",
        a.display(),
        b.display()
    );
}

/// Nothing of a run's partitions is left in `dir`: only the listed files.
fn only(dir: &Path, names: &[&str]) {
    let mut found: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    found.sort();
    let mut names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    names.sort();
    assert_eq!(found, names);
}

/// Generates `args` in memory and out of core with 1 and 2 threads (every
/// partition on disk, then, for 75-ball cards, some kept in memory), and
/// checks the three files are one.
fn same_out_of_core(dir: &Path, args: &[&str]) {
    let in_memory = generate(dir, "in.bmc", args);
    for (threads, memory) in [("1", SMALL), ("2", "48M")] {
        let out = dir.join(format!("out{threads}.bmc"));
        bingomint()
            .arg("generate")
            .args(args)
            .args(["--memory", memory, "--threads", threads, "--out"])
            .arg(&out)
            .assert()
            .success()
            .stdout(contains("key partitions"));
        assert_same(&in_memory, &out);
    }
}

#[test]
fn us75_out_of_core_is_the_in_memory_file() {
    let dir = tempfile::tempdir().unwrap();
    // 2 M cards: 31 chunks, several waves at this budget.
    same_out_of_core(
        dir.path(),
        &["--count", "2000000", "--seed", "11", "--star"],
    );
    only(dir.path(), &["in.bmc", "out1.bmc", "out2.bmc"]);
}

#[test]
fn us75_v3_out_of_core_is_the_in_memory_file() {
    let dir = tempfile::tempdir().unwrap();
    same_out_of_core(
        dir.path(),
        &["--count", "1500000", "--seed", "12", "--format", "v3"],
    );
}

#[test]
fn uk90_out_of_core_is_the_in_memory_file() {
    let dir = tempfile::tempdir().unwrap();
    same_out_of_core(
        dir.path(),
        &["--game", "90", "--count", "150000", "--seed", "13"],
    );
}

#[test]
fn es90_out_of_core_is_the_in_memory_file() {
    let dir = tempfile::tempdir().unwrap();
    same_out_of_core(
        dir.path(),
        &[
            "--game", "90", "--rules", "es", "--count", "200000", "--seed", "14",
        ],
    );
}

#[test]
fn out_of_core_repair_against_an_excluded_file_is_the_in_memory_repair() {
    let dir = tempfile::tempdir().unwrap();
    // The same seed: the first 300,000 cards all repeat the excluded file.
    let old = generate(
        dir.path(),
        "old.bmc",
        &["--count", "300000", "--seed", "15"],
    );
    let old = old.to_str().unwrap().to_string();
    let args = ["--count", "1500000", "--seed", "15", "--exclude", &old];
    same_out_of_core(dir.path(), &args);
    let summary = stdout_of(
        bingomint()
            .args(["verify", "--memory", SMALL])
            .arg(dir.path().join("out1.bmc")),
    );
    assert!(summary.contains("OK"), "{summary}");
    // Nothing of the old file is repeated: verify both together by
    // excluding the new file from a run that needs every card of the old.
    let new = dir.path().join("out1.bmc");
    bingomint()
        .args([
            "generate", "--count", "300000", "--seed", "15", "--memory", SMALL,
        ])
        .arg("--exclude")
        .arg(&new)
        .arg("--out")
        .arg(dir.path().join("again.bmc"))
        .assert()
        .success()
        // The old file's cards are drawn again and must not repeat the new file's.
        .stdout(contains("0 duplicates redrawn"));
}

#[test]
fn out_of_core_repair_of_strips_against_an_excluded_file() {
    let dir = tempfile::tempdir().unwrap();
    let old = generate(
        dir.path(),
        "old.bmc",
        &["--game", "90", "--count", "20000", "--seed", "16"],
    );
    let old = old.to_str().unwrap().to_string();
    same_out_of_core(
        dir.path(),
        &[
            "--game",
            "90",
            "--count",
            "150000",
            "--seed",
            "16",
            "--exclude",
            &old,
        ],
    );
}

/// verify's report, in memory and out of core.
fn reports(file: &Path) -> (String, String) {
    let run = |extra: &[&str]| {
        let out = bingomint()
            .arg("verify")
            .arg(file)
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    (run(&[]), run(&["--memory", SMALL, "--threads", "1"]))
}

#[test]
fn verify_out_of_core_names_the_same_duplicates_and_broken_cards() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(
        dir.path(),
        "d.bmc",
        &["--count", "1500000", "--seed", "17", "--format", "v3"],
    );
    edit(&file, |bytes| {
        // The v3 layout: a 128-byte header, then 25-byte records.
        let record = |n: usize| 128 + (n - 1) * 25;
        for (from, to) in [(5, 100), (5, 1_499_999), (77, 1_200_000), (1_234_567, 3)] {
            let copy = bytes[record(from)..record(from) + 25].to_vec();
            bytes[record(to)..record(to) + 25].copy_from_slice(&copy);
        }
        bytes[record(4000)] = 0;
    });
    let (in_memory, out_of_core) = reports(&file);
    assert!(
        in_memory.contains("card 1499999 is the same as card 5"),
        "{in_memory}"
    );
    assert!(in_memory.contains("card 4000"), "{in_memory}");
    assert!(out_of_core.contains("key partitions"), "{out_of_core}");
    let without_note: String = out_of_core
        .lines()
        .filter(|l| !l.contains("key partitions"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(in_memory, without_note);
}

#[test]
fn verify_out_of_core_names_the_same_damaged_blocks_and_repeated_strips() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(
        dir.path(),
        "s.bmc",
        &["--game", "90", "--count", "150000", "--seed", "18"],
    );
    edit(&file, |bytes| {
        let at = records_at(bytes);
        let record = |n: usize| at + (n - 1) * 162;
        // Strip 90,000 becomes a copy of strip 7; a byte of strip 140,000 changes.
        let copy = bytes[record(7)..record(7) + 162].to_vec();
        bytes[record(90_000)..record(90_000) + 162].copy_from_slice(&copy);
        bytes[record(140_000) + 40] ^= 0x20;
    });
    let (in_memory, out_of_core) = reports(&file);
    assert!(in_memory.contains("strip 90000"), "{in_memory}");
    assert!(in_memory.contains("MISMATCH"), "{in_memory}");
    let without_note: String = out_of_core
        .lines()
        .filter(|l| !l.contains("key partitions"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(in_memory, without_note);
}

#[test]
fn a_budget_too_small_is_refused_naming_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    crate::common::generate_fails(
        &["--count", "1000", "--memory", "1M"],
        &dir.path().join("x.bmc"),
        "--memory must be at least 32 MiB",
    );
    crate::common::generate_fails(
        &["--count", "1000", "--memory", "lots"],
        &dir.path().join("x.bmc"),
        "such as 8G or 512M",
    );
    only(dir.path(), &[]);
}

#[test]
fn partitions_go_to_the_temp_dir_and_are_removed() {
    let dir = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    bingomint()
        .args([
            "generate", "--count", "1500000", "--seed", "19", "--memory", SMALL,
        ])
        .arg("--temp-dir")
        .arg(scratch.path())
        .arg("--out")
        .arg(dir.path().join("c.bmc"))
        .assert()
        .success()
        .stdout(contains("key partitions"));
    only(dir.path(), &["c.bmc"]);
    only(scratch.path(), &[]);
    bingomint()
        .args(["generate", "--count", "1500000", "--memory", SMALL])
        .arg("--temp-dir")
        .arg(dir.path().join("missing"))
        .arg("--out")
        .arg(dir.path().join("d.bmc"))
        .assert()
        .code(2)
        .stderr(contains("missing"));
    only(dir.path(), &["c.bmc"]);
}
