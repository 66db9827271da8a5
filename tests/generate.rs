use crate::common::{
    bingomint, data, export_txt, generate, generate_fails, interrupt_once_writing, records_at,
    SmallDisk,
};
use predicates::prelude::*;
use std::collections::HashSet;

#[test]
fn writes_a_file_that_verify_accepts_and_says_what_it_did() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cards.bmc");
    bingomint()
        .args(["generate", "--count", "1000", "--seed", "42", "--out"])
        .arg(&out)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "1000 75-ball cards, 0 duplicates redrawn",
        ))
        .stdout(predicate::str::contains("seed 42"));
    // The header, a checksum for each of the 16 blocks of 64 cards, the cards.
    assert_eq!(
        std::fs::metadata(&out).unwrap().len(),
        128 + 16 * 8 + 1000 * 25
    );
    bingomint().arg("verify").arg(&out).assert().success();
}

#[test]
fn prints_the_entropy_seed_and_stores_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cards.bmc");
    let run = bingomint()
        .args(["generate", "--count", "10", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8(run.stdout).unwrap();
    let seed = stdout
        .split("(seed ")
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap();
    bingomint()
        .arg("info")
        .arg(&out)
        .assert()
        .success()
        .stdout(predicate::str::contains(format!("seed          {seed}\n")));
}

#[test]
fn same_seed_gives_identical_bytes_for_any_thread_count() {
    // 1.1 M cards: 17 chunks, so more than one wave of the pipeline.
    let dir = tempfile::tempdir().unwrap();
    let args = ["--count", "1100000", "--seed", "shared-seed", "--star"];
    let one = generate(
        dir.path(),
        "t1.bmc",
        &[&args[..], &["--threads", "1"]].concat(),
    );
    let first = std::fs::read(&one).unwrap();
    for threads in ["2", "3"] {
        let name = format!("t{threads}.bmc");
        let other = generate(
            dir.path(),
            &name,
            &[&args[..], &["--threads", threads]].concat(),
        );
        assert!(
            first == std::fs::read(&other).unwrap(),
            "--threads {threads} differs"
        );
    }
}

#[test]
fn uk_strips_are_the_same_for_any_thread_count() {
    // 140,000 strips: three chunks, each strip from its own stream, drawn
    // eight at a time in whatever order the threads take the chunks.
    let dir = tempfile::tempdir().unwrap();
    let args = ["--game", "90", "--count", "140000", "--seed", "strips-3"];
    let files: Vec<Vec<u8>> = ["1", "2", "3"]
        .iter()
        .map(|threads| {
            let path = generate(
                dir.path(),
                &format!("u{threads}.bmc"),
                &[&args[..], &["--threads", threads]].concat(),
            );
            std::fs::read(path).unwrap()
        })
        .collect();
    assert!(files[0] == files[1], "--threads 2 differs");
    assert!(files[0] == files[2], "--threads 3 differs");
}

#[test]
fn text_seeds_map_to_a_stable_number() {
    let dir = tempfile::tempdir().unwrap();
    let a = generate(dir.path(), "a.bmc", &["--count", "50", "--seed", "MV2XRO"]);
    let b = generate(dir.path(), "b.bmc", &["--count", "50", "--seed", "MV2XRO"]);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    // xxh3_64("MV2XRO"): pinned, since shared seeds must keep working.
    let expected = xxhash_rust_seed("MV2XRO");
    bingomint()
        .arg("info")
        .arg(&a)
        .assert()
        .stdout(predicate::str::contains(format!(
            "seed          {expected}\n"
        )));
}

fn xxhash_rust_seed(text: &str) -> u64 {
    bingomint::seed::Seed::parse(text).value
}

#[test]
fn v3_output_matches_the_golden_file() {
    // data/golden-v3-star-seed42-100.dat: the original layout, 100 cards with
    // stars, seed 42, created 2023-11-14. Any change here changes what a
    // shared seed produces.
    let dir = tempfile::tempdir().unwrap();
    let out = generate(
        dir.path(),
        "v3.dat",
        &["--count", "100", "--seed", "42", "--star", "--format", "v3"],
    );
    let golden = std::fs::read(data("golden-v3-star-seed42-100.dat")).unwrap();
    assert_eq!(
        &golden[..20],
        &[3, 0, 0, 0, 100, 0, 0, 0, 128, 0, 0, 0, 25, 0, 0, 0, 0xCA, 0xB3, 0x34, 0x01]
    );
    assert!(
        std::fs::read(&out).unwrap() == golden,
        "v3 output differs from the golden file"
    );
}

#[test]
fn native_and_v3_hold_the_same_cards() {
    let dir = tempfile::tempdir().unwrap();
    let native = generate(
        dir.path(),
        "n.bmc",
        &["--count", "300", "--seed", "9", "--star"],
    );
    let v3 = generate(
        dir.path(),
        "v.dat",
        &["--count", "300", "--seed", "9", "--star", "--format", "v3"],
    );
    let a = std::fs::read(native).unwrap();
    let b = std::fs::read(v3).unwrap();
    assert_eq!(a[records_at(&a)..], b[128..]);
}

#[test]
fn refuses_to_overwrite_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let out = generate(dir.path(), "c.bmc", &["--count", "10", "--seed", "1"]);
    let before = std::fs::read(&out).unwrap();
    bingomint()
        .args(["generate", "--count", "10", "--seed", "2", "--out"])
        .arg(&out)
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("already exists").and(predicate::str::contains("--force")),
        );
    assert_eq!(std::fs::read(&out).unwrap(), before);
    bingomint()
        .args([
            "generate", "--count", "10", "--seed", "2", "--force", "-q", "--out",
        ])
        .arg(&out)
        .assert()
        .success();
    assert_ne!(std::fs::read(&out).unwrap(), before);
    // No temporary files are left behind.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn bad_flags_name_the_flag_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c.bmc");
    let cases: [(&[&str], &str); 5] = [
        (&["--count", "0"], "--count must be at least 1"),
        (
            &["--count", "2147483647"],
            "--count must be at most 2147483646",
        ),
        (&["--game", "76"], "--game"),
        (&["--format", "pdf"], "--format"),
        (&["--threads", "0"], "--threads must be at least 1"),
    ];
    for (args, message) in cases {
        generate_fails(args, &out, message);
    }
    assert!(!out.exists());
}

#[test]
fn unwritable_output_is_a_clear_error() {
    bingomint()
        .args([
            "generate",
            "--count",
            "10",
            "--out",
            "/nonexistent-dir/c.bmc",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "cannot create '/nonexistent-dir/c.bmc'",
        ));
}

#[test]
fn exclude_makes_a_new_series_that_never_repeats_the_old() {
    let dir = tempfile::tempdir().unwrap();
    let old = generate(dir.path(), "old.bmc", &["--count", "2000", "--seed", "5"]);
    let old_v3 = generate(
        dir.path(),
        "old.dat",
        &["--count", "500", "--seed", "6", "--format", "v3"],
    );
    // Same seed as the old file: every first draw repeats an old card and
    // must be redrawn.
    let new = dir.path().join("new.bmc");
    bingomint()
        .args(["generate", "--count", "2000", "--seed", "5", "--out"])
        .arg(&new)
        .arg("--exclude")
        .arg(&old)
        .arg(&old_v3)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "2000 75-ball cards, against 2500 excluded cards, 2000 duplicates redrawn",
        ));
    let old_cards: HashSet<String> = export_txt(&old)
        .into_iter()
        .chain(export_txt(&old_v3))
        .collect();
    let new_cards = export_txt(&new);
    assert_eq!(new_cards.len(), 2000);
    assert!(new_cards.iter().all(|c| !old_cards.contains(c)));
    bingomint().arg("verify").arg(&new).assert().success();
}

#[test]
fn exclude_rejects_files_that_are_not_card_files() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.bmc");
    std::fs::write(&junk, vec![7u8; 500]).unwrap();
    bingomint()
        .args(["generate", "--count", "10", "--exclude"])
        .arg(&junk)
        .arg("--out")
        .arg(dir.path().join("c.bmc"))
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("--exclude")
                .and(predicate::str::contains("is not a card file")),
        );
    assert!(!dir.path().join("c.bmc").exists());
}

#[test]
fn quiet_prints_nothing() {
    let dir = tempfile::tempdir().unwrap();
    bingomint()
        .args(["generate", "--count", "10", "-q", "--out"])
        .arg(dir.path().join("c.bmc"))
        .assert()
        .success()
        .stdout("")
        .stderr("");
}

#[cfg(unix)]
#[test]
fn an_interrupted_run_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("big.bmc");
    let args = [
        "generate", "--count", "40000000", "--seed", "1", "-q", "--out",
    ];
    interrupt_once_writing(&args, &out);
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_a_clear_error_and_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let Some(disk) = SmallDisk::mount(
        dir.path(),
        "a_full_disk_is_a_clear_error_and_leaves_no_file",
    ) else {
        return;
    };
    bingomint()
        .args(["generate", "--count", "100000", "--out"])
        .arg(disk.path.join("c.bmc"))
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("not enough space for")
                .and(predicate::str::contains("No space left")),
        );
    assert_eq!(disk.files(), 0);
}

#[cfg(target_os = "linux")]
#[test]
fn key_partitions_that_would_not_fit_their_temp_dir_are_refused_before_any_work() {
    // 1.5 M cards at a 32 MiB budget go out of core, with megabytes of key
    // partitions on disk: more than a 1 MiB --temp-dir holds.
    let dir = tempfile::tempdir().unwrap();
    let Some(disk) = SmallDisk::mount(
        dir.path(),
        "key_partitions_that_would_not_fit_their_temp_dir_are_refused_before_any_work",
    ) else {
        return;
    };
    let out = dir.path().join("c.bmc");
    bingomint()
        .args([
            "generate",
            "--count",
            "1500000",
            "--memory",
            "32M",
            "--temp-dir",
        ])
        .arg(&disk.path)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("the key partitions need about"))
        .stderr(predicate::str::contains("choose another --temp-dir"));
    assert!(!out.exists());
    assert_eq!(disk.files(), 0);
}
