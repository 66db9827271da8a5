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

/// Rewrites `file` in place: damage for the tests that check damage is found.
pub fn edit(file: &Path, change: impl FnOnce(&mut Vec<u8>)) {
    let mut bytes = std::fs::read(file).unwrap();
    change(&mut bytes);
    std::fs::write(file, bytes).unwrap();
}

/// The project's own `data/` folder.
pub fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}
