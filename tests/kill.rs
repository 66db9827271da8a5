//! Killed outright (SIGKILL, no chance to clean up) at random moments, a
//! run leaves at its output path either nothing, the file that was there
//! before, or the whole new output: never part of one.

use crate::common::{bingomint, data, generate, EPOCH};
use std::path::Path;
use std::time::{Duration, Instant};

/// How many times each command is killed.
const KILLS: u64 = 12;

/// A small deterministic generator for the kill moments (xorshift64).
struct Moments(u64);

impl Moments {
    /// A moment in [0, limit).
    fn next(&mut self, limit: Duration) -> Duration {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        limit.mul_f64((self.0 >> 11) as f64 / (1u64 << 53) as f64)
    }
}

/// Runs `args` writing `out` to completion three times and returns the
/// output's bytes and the fastest run's time: a first run with cold caches,
/// or one slowed by other tests, would put the kills past the end of the
/// runs that follow.
fn reference(args: &[&str], out: &Path) -> (Vec<u8>, Duration) {
    let mut fastest = Duration::MAX;
    let mut bytes = Vec::new();
    for _ in 0..3 {
        let started = Instant::now();
        let status = bingomint().args(args).arg(out).output().unwrap();
        fastest = fastest.min(started.elapsed());
        assert!(
            status.status.success(),
            "{}",
            String::from_utf8_lossy(&status.stderr)
        );
        let made = std::fs::read(out).unwrap();
        assert!(bytes.is_empty() || made == bytes, "the same run twice");
        bytes = made;
        std::fs::remove_file(out).unwrap();
    }
    (bytes, fastest)
}

/// Starts `args` writing `out` (with `--force` when a previous file is
/// there), SIGKILLs it after a random moment, and checks what `out` holds.
fn kill_repeatedly(name: &str, args: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join(name);
    let (whole, took) = reference(args, &out);
    let previous = b"the previous file, which must survive".to_vec();
    let mut moments = Moments(0x9E37_79B9_7F4A_7C15 ^ name.len() as u64);
    let (mut before_end, mut finished) = (0, 0);
    for kill in 0..KILLS {
        let had_previous = kill % 2 == 1;
        if had_previous {
            std::fs::write(&out, &previous).unwrap();
        }
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_bingomint"));
        cmd.env("SOURCE_DATE_EPOCH", EPOCH).args(args).arg(&out);
        if had_previous {
            cmd.arg("--force");
        }
        let mut child = cmd
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Within the first 70% of a whole run: the load of other tests can
        // make the reference run slower than this one.
        std::thread::sleep(moments.next(took.mul_f64(0.7)));
        child.kill().unwrap();
        let status = child.wait().unwrap();
        let now = std::fs::read(&out).ok();
        if status.success() {
            finished += 1;
            assert_eq!(now.as_ref(), Some(&whole), "{name}: a finished run");
        } else {
            before_end += 1;
            match (&now, had_previous) {
                (None, false) => {}
                (Some(bytes), true) if bytes == &previous => {}
                // Killed after publishing but before exiting.
                (Some(bytes), _) if bytes == &whole => {}
                (Some(bytes), _) => panic!(
                    "{name}: kill {kill} left {} bytes at the output ({} whole)",
                    bytes.len(),
                    whole.len()
                ),
                (None, true) => panic!("{name}: kill {kill} removed the previous file"),
            }
        }
        let _ = std::fs::remove_file(&out);
        // What a killed run leaves is its temporary file, and nothing else.
        for entry in std::fs::read_dir(dir.path()).unwrap() {
            let entry = entry.unwrap().file_name().to_string_lossy().into_owned();
            assert!(
                entry.starts_with(&format!(".{name}.bingomint-")) && entry.ends_with(".tmp"),
                "{name}: kill {kill} left {entry}"
            );
            std::fs::remove_file(dir.path().join(entry)).unwrap();
        }
    }
    // Kills must land mid-run, or the test proves nothing.
    assert!(
        before_end >= KILLS / 3,
        "{name}: {before_end} kills mid-run, {finished} finished"
    );
}

#[test]
fn killed_generate_leaves_no_partial_card_file() {
    kill_repeatedly(
        "cards.bmc",
        &[
            "generate", "--count", "3000000", "--seed", "1", "--quiet", "--out",
        ],
    );
}

#[test]
fn killed_export_leaves_no_partial_text() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "400000", "--seed", "2"]);
    let file = file.to_str().unwrap();
    kill_repeatedly("cards.csv", &["export", file, "--format", "csv", "--out"]);
}

#[test]
fn killed_boards_leaves_no_partial_text() {
    let set = data("sample-goals.json");
    let set = set.to_str().unwrap();
    kill_repeatedly(
        "boards.jsonl",
        &[
            "boards", "--set", set, "--count", "100000", "--seed", "3", "--format", "jsonl",
            "--quiet", "--out",
        ],
    );
}

#[test]
fn killed_print_leaves_no_partial_pdf() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "150000", "--seed", "4"]);
    let file = file.to_str().unwrap();
    kill_repeatedly("cards.pdf", &["print", file, "--quiet", "--out"]);
}
