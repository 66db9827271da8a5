//! Helpers shared by the integration tests.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

/// A fixed creation date (2023-11-14) so that files are byte-for-byte reproducible.
pub const EPOCH: &str = "1700000000";

/// The binary under test, with a fixed creation date.
pub fn bingomint() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bingomint"));
    cmd.env("SOURCE_DATE_EPOCH", EPOCH);
    cmd
}

/// Runs `generate` into `dir/name` with `args` and returns the path.
pub fn generate(dir: &Path, name: &str, args: &[&str]) -> PathBuf {
    let out = dir.join(name);
    bingomint()
        .arg("generate")
        .args(args)
        .arg("--out")
        .arg(&out)
        .arg("--quiet")
        .assert()
        .success();
    out
}

/// Runs `generate` with `args` into `out`, which must fail with exit 2 and
/// a message containing `message`.
pub fn generate_fails(args: &[&str], out: &Path, message: &str) {
    bingomint()
        .arg("generate")
        .args(args)
        .arg("--out")
        .arg(out)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(message));
}

/// Runs `export --to txt` and returns the lines.
pub fn export_txt(file: &Path) -> Vec<String> {
    stdout_of(bingomint().args(["export", "--to", "txt"]).arg(file))
        .lines()
        .map(str::to_string)
        .collect()
}

/// Runs `cmd`, which must succeed, and returns its standard output.
pub fn stdout_of(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Where a card file's records start (header bytes 28-31): after the
/// header and, in the native layout, the block table.
pub fn records_at(bytes: &[u8]) -> usize {
    u32::from_le_bytes(bytes[28..32].try_into().unwrap()) as usize
}

/// Rewrites `file` in place: damage for the tests that check damage is found.
pub fn edit(file: &Path, change: impl FnOnce(&mut Vec<u8>)) {
    let mut bytes = std::fs::read(file).unwrap();
    change(&mut bytes);
    std::fs::write(file, bytes).unwrap();
}

/// A set of nine one-shot goals: at 3x3 every board is an arrangement of
/// the same nine (9! = 362,880 of them), so large batches repeat some.
pub fn nine_goal_set() -> bingomint::boards::set::ObjectiveSet {
    let goals: Vec<String> = (1..=9)
        .map(|i| format!("{{\"goal\": \"Goal {i}\"}}"))
        .collect();
    let json = format!("{{\"objectives\": [{}]}}", goals.join(","));
    bingomint::boards::set::ObjectiveSet::from_json(&json, "nine").unwrap()
}

/// The project's own `data/` folder.
pub fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

/// Runs bingomint with `args` followed by `out`, sends SIGINT once its
/// temporary file has appeared beside `out`, and checks that it exits 130
/// and leaves nothing in that folder.
#[cfg(unix)]
pub fn interrupt_once_writing(args: &[&str], out: &Path) {
    use std::time::{Duration, Instant};
    let dir = out.parent().unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_bingomint"))
        .args(args)
        .arg(out)
        .spawn()
        .unwrap();
    let start = Instant::now();
    while std::fs::read_dir(dir).unwrap().count() == 0 {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no temporary file appeared"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(Duration::from_millis(50));
    // SAFETY: sending a signal to our own child process.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let left: Vec<_> = std::fs::read_dir(dir).unwrap().collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// A 1 MiB tmpfs mounted inside a test's folder (needs root), unmounted
/// when dropped.
pub struct SmallDisk {
    pub path: PathBuf,
}

impl SmallDisk {
    /// Mounts it under `dir`, or says loudly that `test` is skipped.
    pub fn mount(dir: &Path, test: &str) -> Option<SmallDisk> {
        let path = dir.join("small");
        std::fs::create_dir(&path).unwrap();
        let mounted = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=1m", "tmpfs"])
            .arg(&path)
            .output()
            .is_ok_and(|o| o.status.success());
        if !mounted {
            skipped(&format!(
                "{test}: cannot mount a 1 MiB tmpfs here (needs root)"
            ));
            return None;
        }
        Some(SmallDisk { path })
    }

    /// Entries in it.
    pub fn files(&self) -> usize {
        std::fs::read_dir(&self.path).unwrap().count()
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg(&self.path)
            .status();
    }
}

/// Says on the terminal, even when the test passes and its output is
/// captured, that a check did not run (`eprintln!` would be captured); where
/// everything must run (`BINGOMINT_REQUIRE_TOOLS`, as `.ci/run` sets it),
/// fails the test instead: a check that did not run never counts as passed.
pub fn skipped(why: &str) {
    use std::io::Write;
    assert!(
        std::env::var_os("BINGOMINT_REQUIRE_TOOLS").is_none(),
        "{why}: BINGOMINT_REQUIRE_TOOLS is set, so every check must run"
    );
    let _ = writeln!(std::io::stderr(), "SKIPPED {why}");
}

/// A card file's short id, as `info` prints it.
pub fn file_id(file: &Path) -> String {
    let info = stdout_of(bingomint().arg("info").arg(file));
    let line = info.lines().find(|l| l.starts_with("id")).unwrap();
    line.split_whitespace().nth(1).unwrap().to_string()
}

/// Runs `line` with `sh` in `dir`, the `bingomint` under test first on the
/// PATH (as a reader who installed it runs a guide's commands).
pub fn sh(dir: &Path, line: &str) -> std::process::Output {
    let bin = Path::new(env!("CARGO_BIN_EXE_bingomint")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    std::process::Command::new("sh")
        .args(["-c", line])
        .current_dir(dir)
        .env("PATH", path)
        .output()
        .unwrap()
}
