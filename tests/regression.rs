//! Regressions found by trying bingomint with damaged and hostile inputs and
//! closed or full outputs; each test names what broke.

use crate::common::{bingomint, data, edit, generate, records_at, stdout_of};
use predicates::prelude::*;
use std::path::Path;

/// Rewrites a native header field and recomputes the header's checksum, as
/// a forger (or a careless tool) would.
fn forge(file: &Path, change: impl FnOnce(&mut Vec<u8>)) {
    edit(file, |bytes| {
        change(bytes);
        let sum = xxhash_rust::xxh3::xxh3_64(&bytes[..120]);
        bytes[120..128].copy_from_slice(&sum.to_le_bytes());
    });
}

/// Runs bingomint with `args` and `file`, its standard output sent to
/// `stdout`.
fn run_into(args: &[&str], file: Option<&Path>, stdout: std::fs::File) -> std::process::Output {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_bingomint"));
    cmd.args(args);
    if let Some(file) = file {
        cmd.arg(file);
    }
    cmd.stdout(stdout).output().unwrap()
}

// See: hardening issue, item 2 — `info > /dev/full` panicked with exit 101.
#[test]
fn a_full_output_device_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "10"]);
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    let cases: [(&[&str], Option<&Path>); 4] = [
        (&["info"], Some(&file)),
        (&["show", "--card", "1"], Some(&file)),
        (&["verify"], Some(&file)),
        (&["count"], None),
    ];
    for (args, file) in cases {
        let out = run_into(args, file, full());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("cannot write to standard output: No space left on device"),
            "{args:?}: {stderr}"
        );
    }
}

// See: hardening issue, item 2 — `info | head -c1` panicked on the closed pipe.
#[test]
fn a_closed_pipe_ends_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "10"]);
    for args in [vec!["info"], vec!["verify"], vec!["show", "--card", "2"]] {
        // The reader goes away before bingomint writes (its start-up takes
        // far longer than closing the pipe), so the first write fails.
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_bingomint"))
            .args(&args)
            .arg(&file)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}

// See: hardening issue, item 3 — a header whose count × record size wraps
// around to the file's length made `show` panic.
#[test]
fn a_forged_size_that_wraps_is_damage_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "10"]);
    // 128 + count × 2 wraps around 2⁶⁴ to the file's real 378 bytes.
    let count: u64 = (1 << 63) + 125;
    assert_eq!(count.wrapping_mul(2).wrapping_add(128), 378);
    forge(&file, |b| {
        b[16..24].copy_from_slice(&count.to_le_bytes());
        b[24..28].copy_from_slice(&2u32.to_le_bytes());
    });
    for args in [vec!["show", "--card", "1000"], vec!["info"], vec!["export"]] {
        bingomint()
            .args(&args)
            .arg(&file)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("is damaged"))
            .stderr(predicate::str::contains("panicked").not());
    }
    bingomint()
        .arg("verify")
        .arg(&file)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("FAILED"));
}

// See: hardening issue, item 8 — impossible fields with a recomputed
// checksum were accepted.
#[test]
fn impossible_header_fields_are_damage() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], usize, u8, &str); 4] = [
        (&["--game", "90"], 12, 1, "flags 0x1 in a 90-ball header"),
        (&["--game", "90"], 11, 7, "unknown 90-ball rule set 7"),
        (&[], 11, 1, "rule set 1 in a 75-ball header"),
        (&[], 24, 26, "record size 26 are impossible"),
    ];
    for (i, (args, at, value, message)) in cases.into_iter().enumerate() {
        let mut args = args.to_vec();
        args.extend(["--count", "20"]);
        let file = generate(dir.path(), &format!("f{i}.bmc"), &args);
        forge(&file, |b| b[at] = value);
        bingomint()
            .arg("info")
            .arg(&file)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("is damaged"))
            .stderr(predicate::str::contains(message));
        bingomint()
            .arg("verify")
            .arg(&file)
            .assert()
            .code(1)
            .stdout(predicate::str::contains(message));
    }
}

// See: hardening issue, item 4 — `--threads 99999999999` aborted or hung.
#[test]
fn an_absurd_thread_count_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "10"]);
    bingomint()
        .args([
            "generate",
            "--count",
            "10",
            "--threads",
            "99999999999",
            "--out",
        ])
        .arg(dir.path().join("d.bmc"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--threads 99999999999 is more than 1024",
        ));
    bingomint()
        .args(["verify", "--threads", "5000"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("use at most 1024"));
}

// See: hardening issue, item 10 — messages.
#[test]
fn a_directory_as_out_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    for force in [false, true] {
        let mut cmd = bingomint();
        cmd.args(["generate", "--count", "10", "--out"])
            .arg(dir.path());
        if force {
            cmd.arg("--force");
        }
        cmd.assert().code(2).stderr(predicate::str::contains(
            "is a directory: give --out a file name",
        ));
    }
}

#[test]
fn one_card_is_not_cards() {
    let dir = tempfile::tempdir().unwrap();
    bingomint()
        .args(["generate", "--count", "1", "--seed", "1", "--out"])
        .arg(dir.path().join("one.bmc"))
        .assert()
        .success()
        .stdout(predicate::str::starts_with("1 75-ball card, "));
    bingomint()
        .arg("verify")
        .arg(dir.path().join("one.bmc"))
        .assert()
        .success()
        .stdout(predicate::str::contains("rules             ok (1 card)\n"))
        .stdout(predicate::str::contains("holds 1 valid, unique card\n"));
}

#[test]
fn an_empty_file_holds_no_cards() {
    let dir = tempfile::tempdir().unwrap();
    // A v3 header for no cards, and nothing after it.
    let mut header = [0u8; 128];
    header[0] = 3;
    header[8] = 128;
    header[12] = 25;
    let file = dir.path().join("empty.dat");
    std::fs::write(&file, header).unwrap();
    bingomint()
        .args(["export", "--range", "1.."])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("the file holds no cards"));
    bingomint()
        .args(["show", "--card", "1"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("holds no cards"));
}

#[test]
fn a_creation_date_past_9999_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for epoch in ["99999999999999", "-5", "soon"] {
        bingomint()
            .env("SOURCE_DATE_EPOCH", epoch)
            .args(["generate", "--count", "10", "--out"])
            .arg(dir.path().join("d.bmc"))
            .assert()
            .code(2)
            .stderr(predicate::str::contains("SOURCE_DATE_EPOCH is"));
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// A goal set of `goals` goals, the first eight forced into the first eight
/// cells of a 3x3 board: `goals - 8` boards can be made.
fn forced_set(dir: &Path, goals: usize) -> std::path::PathBuf {
    let goals: Vec<String> = (0..goals)
        .map(|i| {
            let forced = if i < 8 {
                format!(", \"forced_positions\": [{i}]")
            } else {
                String::new()
            };
            format!("{{\"goal\": \"g{i}\"{forced}}}")
        })
        .collect();
    let set = dir.join("forced.json");
    std::fs::write(&set, format!("{{\"objectives\": [{}]}}", goals.join(","))).unwrap();
    set
}

#[test]
fn boards_out_of_distinct_boards_say_so_without_mentioning_exclude() {
    let dir = tempfile::tempdir().unwrap();
    // Eight goals forced into eight cells: a 3x3 board has one arrangement.
    let set = forced_set(dir.path(), 9);
    bingomint()
        .args([
            "boards", "--size", "3x3", "--count", "2", "--seed", "x", "--set",
        ])
        .arg(&set)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "only 1 distinct board found: the last 65536 draws in a row repeated them (board 2",
        ))
        .stderr(predicate::str::contains("--exclude").not());
}

// See: hardening round two, item 7 — asking for more boards than a set has
// ran for 27 s (2 boards, --count 1000; 45 minutes for 100,000) before
// failing. Exhaustion is now noticed after 65,536 fruitless draws in all.
#[test]
fn asking_for_more_boards_than_exist_stops_early() {
    let dir = tempfile::tempdir().unwrap();
    // Eight forced goals and two for the last cell: two boards in all.
    let set = forced_set(dir.path(), 10);
    bingomint()
        .args([
            "boards", "--size", "3x3", "--count", "100000", "--seed", "x",
        ])
        .args(["--format", "jsonl", "--out", "b.jsonl", "--set"])
        .arg(&set)
        .current_dir(dir.path())
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("only 2 distinct boards found"));
    assert!(!dir.path().join("b.jsonl").exists());
    bingomint()
        .args(["boards", "--size", "3x3", "--count", "2", "--seed", "x"])
        .args(["--format", "jsonl", "--out", "b.jsonl", "--set"])
        .arg(&set)
        .current_dir(dir.path())
        .assert()
        .success();
}

#[test]
fn info_on_a_v3_file_does_not_claim_no_star() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(
        dir.path(),
        "s.dat",
        &["--count", "5", "--star", "--format", "v3"],
    );
    bingomint()
        .arg("info")
        .arg(&file)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "12 no star, another cell its star",
        ));
}

// See: hardening issue, item 5 — `--force` replaced /dev/null, a FIFO or a
// symbolic link with a regular file.
#[test]
fn devices_are_written_through_and_never_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "10"]);
    for force in [false, true] {
        let mut runs = vec![
            vec!["generate", "--count", "10", "--quiet", "--out", "/dev/null"],
            vec!["export", "--out", "/dev/null"],
        ];
        runs[1].insert(1, file.to_str().unwrap());
        for mut args in runs {
            if force {
                args.push("--force");
            }
            bingomint().args(&args).assert().success();
            let kind = std::fs::metadata("/dev/null").unwrap().file_type();
            assert!(kind.is_char_device(), "{args:?} replaced /dev/null");
        }
    }
}

#[test]
fn a_fifo_receives_the_output_as_a_stream() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "20"]);
    let fifo = dir.path().join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        crate::common::skipped("a_fifo_receives_the_output_as_a_stream: mkfifo is missing");
        return;
    }
    let expected = crate::common::export_txt(&file).join("\n") + "\n";
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_bingomint"))
        .args(["export", "--force", "--out"])
        .arg(&fifo)
        .arg(&file)
        .spawn()
        .unwrap();
    let got = std::fs::read_to_string(&fifo).unwrap();
    assert!(child.wait().unwrap().success());
    assert_eq!(got, expected);
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    // A card file streams through a FIFO too, whole: the reader gets every byte.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_bingomint"))
        .args([
            "generate", "--count", "1000", "--seed", "4", "--quiet", "--out",
        ])
        .arg(&fifo)
        .env("SOURCE_DATE_EPOCH", crate::common::EPOCH)
        .spawn()
        .unwrap();
    let streamed = std::fs::read(&fifo).unwrap();
    assert!(child.wait().unwrap().success());
    let regular = generate(dir.path(), "r.bmc", &["--count", "1000", "--seed", "4"]);
    assert_eq!(streamed, std::fs::read(regular).unwrap());
}

#[test]
fn a_symbolic_link_is_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let target = generate(dir.path(), "t.bmc", &["--count", "10"]);
    let link = dir.path().join("link.bmc");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    for force in [false, true] {
        let mut cmd = bingomint();
        cmd.args(["generate", "--count", "10", "--out"]).arg(&link);
        if force {
            cmd.arg("--force");
        }
        cmd.assert()
            .code(2)
            .stderr(predicate::str::contains("is a symbolic link"));
        assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
    }
}

// See: hardening issue, item 6 — runs killed outright left full-size
// hidden temporaries that nothing cleaned.
#[test]
fn temporaries_of_killed_runs_are_named_and_removed_with_force() {
    let dir = tempfile::tempdir().unwrap();
    // The id of a process that has certainly ended.
    let mut done = std::process::Command::new("true").spawn().unwrap();
    let pid = done.id();
    done.wait().unwrap();
    let stale = dir.path().join(format!(".c.bmc.bingomint-{pid}.tmp"));
    std::fs::write(&stale, b"half a file").unwrap();
    // And the key partitions of a run killed while out of core.
    let spill = dir.path().join(format!(".c.bmc.bingomint-{pid}.spill"));
    std::fs::create_dir(&spill).unwrap();
    std::fs::write(spill.join("000.keys"), b"keys").unwrap();
    let out = dir.path().join("c.bmc");
    bingomint()
        .args(["generate", "--count", "10", "--quiet", "--out"])
        .arg(&out)
        .assert()
        .success()
        .stderr(predicate::str::contains(format!(
            "was left by an interrupted run (process {pid} is gone)"
        )));
    assert!(stale.exists(), "removed without --force");
    assert!(spill.exists(), "removed without --force");
    bingomint()
        .args(["generate", "--count", "10", "--quiet", "--force", "--out"])
        .arg(&out)
        .assert()
        .success()
        .stderr(predicate::str::contains("removed"));
    assert!(!stale.exists());
    assert!(!spill.exists());
}

// See: hardening issue, item 7 — a records-checksum mismatch said only that
// the file was damaged, and show, export and --exclude used damaged records.
#[test]
fn damaged_cards_are_named_and_never_used_unless_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "1000", "--seed", "3"]);
    // One bit of card 201 (block 4: cards 193-256) and of card 1000 (the
    // short last block: cards 961-1000), both still valid cards.
    edit(&file, |b| {
        let at = records_at(b);
        b[at + 200 * 25 + 24] ^= 1;
        b[at + 999 * 25 + 22] ^= 1;
    });
    bingomint()
        .arg("verify")
        .arg(&file)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "records checksum  MISMATCH: cards 193-256, 961-1000 (104 cards in blocks",
        ));
    bingomint()
        .arg("info")
        .arg(&file)
        .assert()
        .code(2)
        .stdout(predicate::str::contains(
            "cards 193-256, 961-1000 are damaged",
        ));
    let refused = "cards 193-256 fail their checksum";
    for args in [
        vec!["show", "--card", "201"],
        vec!["export", "--range", "190..200"],
    ] {
        bingomint()
            .args(&args)
            .arg(&file)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(refused))
            .stderr(predicate::str::contains("--allow-damaged"));
        bingomint()
            .args(&args)
            .arg(&file)
            .arg("--allow-damaged")
            .assert()
            .success()
            .stdout(predicate::str::is_empty().not())
            .stderr(predicate::str::contains("used anyway (--allow-damaged)"));
    }
    // Cards outside the damaged blocks are shown and exported as ever.
    bingomint()
        .args(["show", "--card", "192"])
        .arg(&file)
        .assert()
        .success();
    bingomint()
        .args(["export", "--range", "257..960"])
        .arg(&file)
        .assert()
        .success()
        .stderr("bingomint: exported 704 cards as txt\n");
    let out = dir.path().join("more.bmc");
    bingomint()
        .args(["generate", "--count", "10", "--exclude"])
        .arg(&file)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--exclude"))
        .stderr(predicate::str::contains("cards 193-256, 961-1000 fail"));
    assert!(!out.exists());
    bingomint()
        .args(["generate", "--count", "10", "--quiet", "--allow-damaged"])
        .arg("--exclude")
        .arg(&file)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
}

// See: hardening issue, item 7 — a changed block checksum names its block.
#[test]
fn a_damaged_block_table_names_the_block() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "s.bmc", &["--game", "90", "--count", "200"]);
    // The third entry of the table: strips 129-192.
    edit(&file, |b| b[128 + 2 * 8 + 5] ^= 0x40);
    bingomint()
        .arg("verify")
        .arg(&file)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "records checksum  MISMATCH: strips 129-192 (64 strips",
        ));
    bingomint()
        .args(["show", "--ticket", "1"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("the block table"));
}

/// Rewrites a native file of format version 2 as version 1 wrote it: no
/// block table, one checksum of all record bytes.
fn as_version_1(bytes: &[u8]) -> Vec<u8> {
    use xxhash_rust::xxh3::xxh3_64;
    let records = &bytes[records_at(bytes)..];
    let mut old = bytes[..128].to_vec();
    old[8..10].copy_from_slice(&1u16.to_le_bytes());
    old[28..32].copy_from_slice(&128u32.to_le_bytes());
    old[72..80].copy_from_slice(&xxh3_64(records).to_le_bytes());
    old[80..84].fill(0);
    let sum = xxh3_64(&old[..120]);
    old[120..128].copy_from_slice(&sum.to_le_bytes());
    old.extend_from_slice(records);
    old
}

#[test]
fn files_of_format_version_1_are_still_read() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "300", "--seed", "5"]);
    let new = std::fs::read(&file).unwrap();
    let old = dir.path().join("old.bmc");
    std::fs::write(&old, as_version_1(&new)).unwrap();
    let cards = |f: &Path| crate::common::export_txt(f);
    assert_eq!(cards(&old), cards(&file));
    bingomint()
        .arg("info")
        .arg(&old)
        .assert()
        .success()
        .stdout(predicate::str::contains("bingomint format 1"));
    bingomint().arg("verify").arg(&old).assert().success();
    // Damage in a version-1 file cannot be placed: every card is named.
    edit(&old, |b| b[128 + 7] ^= 1);
    bingomint()
        .arg("verify")
        .arg(&old)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("MISMATCH: cards 1-300"));
}

// See: hardening issue round two, item 8 — print and `simulate --from` on a
// damaged file said "add --allow-damaged", which neither command accepts.
#[test]
fn commands_without_allow_damaged_do_not_offer_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "300", "--seed", "3"]);
    edit(&file, |b| {
        let at = records_at(b);
        b[at + 200 * 25 + 24] ^= 1;
    });
    let pdf = dir.path().join("c.pdf");
    for args in [
        vec![
            "print".into(),
            file.display().to_string(),
            "--out".into(),
            pdf.display().to_string(),
        ],
        vec![
            "simulate".into(),
            "--from".into(),
            file.display().to_string(),
            "--pattern".into(),
            "line".into(),
            "--games".into(),
            "5".into(),
        ],
    ] {
        bingomint()
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "cards 193-256 fail their checksum",
            ))
            .stderr(predicate::str::contains("run `bingomint verify` on it"))
            .stderr(predicate::str::contains("--allow-damaged").not());
    }
    assert!(!pdf.exists());
}

// See: hardening round two, items 3, 4 and 8 — endless input grew memory
// without bound (`--calls-file /dev/zero` 7 GB in 20 s, a card file of
// /dev/zero 3-5 GB, `boards --set /dev/zero` 13 GB), a long calls token was
// echoed whole, and a directory as a card file said "No such device".
#[test]
fn endless_and_irregular_inputs_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "10", "--seed", "1"]);
    let file = file.to_str().unwrap();
    let out = dir.path().join("x.bmc");
    let out = out.to_str().unwrap();
    let folder = dir.path().to_str().unwrap();
    let cases: Vec<(Vec<&str>, String)> = vec![
        (
            vec!["info", "/dev/zero"],
            "'/dev/zero' is a character device, not a card file".into(),
        ),
        (
            vec!["verify", "/dev/zero"],
            "is a character device, not a card file".into(),
        ),
        (
            vec!["show", "/dev/zero", "--card", "1"],
            "not a card file".into(),
        ),
        (vec!["export", "/dev/zero"], "not a card file".into()),
        (
            vec!["print", "/dev/zero", "--out", "z.pdf"],
            "not a card file".into(),
        ),
        (
            vec![
                "check",
                "/dev/zero",
                "--card",
                "1",
                "--calls",
                "1",
                "--pattern",
                "line",
            ],
            "not a card file".into(),
        ),
        (
            vec!["winners", "/dev/zero", "--calls", "1", "--pattern", "line"],
            "not a card file".into(),
        ),
        (
            vec!["simulate", "--from", "/dev/zero", "--pattern", "line"],
            "not a card file".into(),
        ),
        (
            vec!["generate", "-n", "5", "--exclude", "/dev/zero", "-o", out],
            "--exclude: '/dev/zero' is a character device".into(),
        ),
        (
            vec!["info", folder],
            format!("'{folder}' is a directory, not a card file"),
        ),
        (
            vec!["boards", "--set", "/dev/zero"],
            "--set: '/dev/zero' holds more than 16 MB".into(),
        ),
        (
            vec![
                "check",
                file,
                "--card",
                "1",
                "--pattern",
                "line",
                "--calls-file",
                "/dev/zero",
            ],
            "--calls-file '/dev/zero' holds more than 1 MB".into(),
        ),
        (
            vec!["winners", file, "--pattern", "line", "--calls-file", folder],
            "is a directory".into(),
        ),
    ];
    for (args, said) in cases {
        bingomint()
            .current_dir(dir.path())
            .args(&args)
            .timeout(std::time::Duration::from_secs(30))
            .assert()
            .code(2)
            .stderr(predicate::str::contains(said));
    }
    assert!(!std::path::Path::new(out).exists());
    // One long token: named, not echoed whole.
    let long = dir.path().join("long.txt");
    std::fs::write(&long, format!("1 {}", "y".repeat(500_000))).unwrap();
    let said = bingomint()
        .args([
            "check",
            file,
            "--card",
            "1",
            "--pattern",
            "line",
            "--calls-file",
        ])
        .arg(&long)
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    assert!(said.len() < 400, "{}", String::from_utf8_lossy(&said));
}

// See: hardening round two, item 11 — a goal set saved with a UTF-8
// byte-order mark was refused.
#[test]
fn a_goal_set_with_a_byte_order_mark_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("bom.json");
    let text = std::fs::read_to_string(data("sample-goals.json")).unwrap();
    std::fs::write(&set, format!("\u{feff}{text}")).unwrap();
    bingomint()
        .args(["boards", "--seed", "s", "--set"])
        .arg(&set)
        .assert()
        .success();
}

// See: hardening round two, item 10 — `--out` naming the command's own input
// destroyed it with --force, and a split print re-run with --force left the
// replaced run's extra parts beside the new manifest.
#[test]
fn an_output_is_never_an_input_and_a_replaced_split_run_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "300", "--seed", "2"]);
    let before = std::fs::read(&file).unwrap();
    let set = dir.path().join("s.json");
    std::fs::copy(data("sample-goals.json"), &set).unwrap();
    let same = dir.path().join(".").join("c.bmc");
    for args in [
        vec![
            "winners",
            "c.bmc",
            "--calls",
            "1,2",
            "--pattern",
            "line",
            "--out",
            "c.bmc",
        ],
        vec!["export", "c.bmc", "--out", same.to_str().unwrap()],
        vec![
            "generate",
            "-n",
            "5",
            "--exclude",
            "c.bmc",
            "--out",
            "c.bmc",
        ],
        vec![
            "boards", "--set", "s.json", "--seed", "x", "--out", "s.json",
        ],
    ] {
        bingomint()
            .current_dir(dir.path())
            .args(&args)
            .arg("--force")
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "writing it would destroy what is being read",
            ));
    }
    assert_eq!(std::fs::read(&file).unwrap(), before);
    assert!(std::fs::read_to_string(&set).unwrap().contains("goal"));
    let split = |range: &str| {
        bingomint()
            .current_dir(dir.path())
            .args(["print", "c.bmc", "--range", range, "--pages-per-file", "10"])
            .args(["--out", "run/c.pdf", "--force"])
            .assert()
            .success();
    };
    split("1..300");
    assert!(dir.path().join("run/c-0005.pdf").exists());
    split("1..60");
    let mut left: Vec<String> = std::fs::read_dir(dir.path().join("run"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["c-0001.pdf", "manifest.csv"]);
}

// See: hardening round two, items 8, 9 and 11 — messages that pointed
// nowhere (`--gap 10in` "makes numbers -17.0 pt", limits not stated,
// `--strips 20000000` naming no flag), export taking layouts and series that
// print refuses (and refusing 3x2), `--colour` ignored beside
// `--book-pages`, and an empty series printing "· ·".
#[test]
fn print_and_export_share_one_validation_and_say_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path(), "c.bmc", &["--count", "30", "--seed", "2"]);
    let cases: [(&[&str], &str); 9] = [
        (
            &["print", "c.bmc", "--out", "p.pdf", "--gap", "10in"],
            "--gap: the gaps between 6 faces a page leave no room for them",
        ),
        (
            &["print", "c.bmc", "--out", "p.pdf", "--layout", "0x2"],
            "(at most 64 a page)",
        ),
        (
            &["print", "c.bmc", "--out", "p.pdf", "--paper", "200x200in"],
            "at most 100in (2540mm) each way",
        ),
        (
            &["print", "c.bmc", "--out", "p.pdf", "--series", ""],
            "--series: give 1 to 40 printable characters",
        ),
        (
            &["export", "c.bmc", "--format", "csv", "--layout", "7"],
            "--layout \"7\": give 1, 2, 3, 4, 6",
        ),
        (
            &[
                "export", "c.bmc", "--format", "csv", "--layout", "6", "--series", "",
            ],
            "--series: give 1 to 40",
        ),
        (
            &[
                "export", "c.bmc", "--format", "csv", "--layout", "6", "--series", "a\tb",
            ],
            "--series: give 1 to 40",
        ),
        (
            &[
                "print",
                "c.bmc",
                "--out",
                "p.pdf",
                "--colour",
                "gray",
                "--book-pages",
                "2",
                "--colours",
                "gray",
                "gray",
            ],
            "'--colour <INK>' cannot be used with '--book-pages <K>'",
        ),
        (
            &[
                "simulate",
                "--game",
                "90",
                "--strips",
                "20000000",
                "--pattern",
                "full-house",
            ],
            "--strips 20000000 puts 120000000 tickets in play",
        ),
    ];
    for (args, said) in cases {
        bingomint()
            .current_dir(dir.path())
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(said));
    }
    assert!(!dir.path().join("p.pdf").exists());
    // A grid layout print takes, export takes too.
    let csv = stdout_of(bingomint().current_dir(dir.path()).args([
        "export", "c.bmc", "--format", "csv", "--layout", "3x2", "--range", "1..7",
    ]));
    // Card 7 is the first of the second sheet of six.
    assert!(csv.lines().nth(7).unwrap().ends_with(",2,1"), "{csv}");
}

// See: hardening round two, item 11 — goals in CJK misaligned text boards
// (width counted in characters, not columns) and a newline in set_name
// broke the heading.
#[test]
fn text_boards_align_any_script_and_keep_their_heading_on_one_line() {
    use unicode_width::UnicodeWidthStr;
    let dir = tempfile::tempdir().unwrap();
    let objectives: Vec<String> = (0..30)
        .map(|i| format!(r#"{{"goal": "星{i} を集める"}}"#))
        .collect();
    let set = dir.path().join("cjk.json");
    std::fs::write(
        &set,
        format!(
            r#"{{"set_name": "one\ntwo", "objectives": [{}]}}"#,
            objectives.join(",")
        ),
    )
    .unwrap();
    let text = stdout_of(
        bingomint()
            .args(["boards", "--seed", "s", "--size", "3x3", "--set"])
            .arg(&set),
    );
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].contains("one two"), "{text}");
    let widths: Vec<usize> = lines[1..].iter().map(|l| l.width()).collect();
    assert!(widths.iter().all(|&w| w == widths[0]), "{text}");
}

/// See: a newcomer's first hour, round three (`check` without --pattern
/// named nothing to choose from; `export --book-pages` got clap's tip to
/// pass it as a value).
#[test]
fn a_missing_pattern_lists_the_game_s_and_a_flag_of_another_command_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let cards = generate(dir.path(), "c.bmc", &["--count", "10", "--seed", "1"]);
    bingomint()
        .arg("check")
        .arg(&cards)
        .args(["--card", "1", "--calls", "1,2,3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--pattern: name the pattern claimed: line, row, column",
        ));
    bingomint()
        .arg("export")
        .arg(&cards)
        .args(["--book-pages", "6"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("export takes no --book-pages; it is a flag of print")
                .and(predicate::str::contains("-- --book-pages").not()),
        );
}
