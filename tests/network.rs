//! `scripts/network.sh`: the servers a linked network uses (NATS with
//! JetStream, a throwaway PostgreSQL) started in a folder, answering, and
//! stopped. Needs nats-server and PostgreSQL, which `.ci/run` installs.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Command;

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/network.sh")
}

pub fn run(action: &str, dir: &Path) -> std::process::Output {
    Command::new("bash")
        .arg(script())
        .arg(action)
        .arg(dir)
        .output()
        .unwrap()
}

/// A value of `DIR/network.env`.
pub fn env_value(dir: &Path, key: &str) -> String {
    let text = std::fs::read_to_string(dir.join("network.env")).unwrap();
    (text.lines())
        .find_map(|l| l.strip_prefix(&format!("{key}=")))
        .unwrap()
        .to_string()
}

/// The body of `GET path` at `addr`.
fn get(addr: &str, path: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(s, "GET {path} HTTP/1.0\r\nHost: x\r\n\r\n").unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

/// psql, on PATH or where Debian keeps PostgreSQL's programs.
pub fn psql() -> PathBuf {
    let on_path = Command::new("sh")
        .args(["-c", "command -v psql"])
        .output()
        .unwrap();
    if on_path.status.success() {
        return PathBuf::from(String::from_utf8(on_path.stdout).unwrap().trim());
    }
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .expect("PostgreSQL is installed (.ci/run installs it)")
        .map(|e| e.unwrap().path().join("bin/psql"))
        .filter(|p| p.exists())
        .collect();
    found.sort();
    found.pop().expect("psql is installed")
}

/// Whether nats-server and PostgreSQL's programs are installed; when not,
/// the test is skipped (and fails under `BINGOMINT_REQUIRE_TOOLS`).
pub fn servers_installed() -> bool {
    let nats = Command::new("sh")
        .args(["-c", "command -v nats-server"])
        .output()
        .is_ok_and(|o| o.status.success());
    let pg = std::fs::read_dir("/usr/lib/postgresql").is_ok()
        || Command::new("sh")
            .args(["-c", "command -v pg_ctl"])
            .output()
            .is_ok_and(|o| o.status.success());
    if !(nats && pg) {
        super::common::skipped(
            "nats-server or PostgreSQL is not installed (apt-get install nats-server postgresql)",
        );
    }
    nats && pg
}

/// Stops the network in its folder however the test ends, so a failed
/// assertion leaves no server running.
pub struct Stop(pub PathBuf);

impl Drop for Stop {
    fn drop(&mut self) {
        if self.0.join("network.env").exists() {
            let _ = run("stop", &self.0);
        }
    }
}

// See: issue 64, item 10.
#[test]
fn the_network_script_starts_nats_and_postgresql_that_answer_and_stops_them() {
    if !servers_installed() {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("net");
    let _stop = Stop(dir.clone());
    let started = run("start", &dir);
    assert!(
        started.status.success(),
        "{}",
        String::from_utf8_lossy(&started.stderr)
    );
    let said = String::from_utf8_lossy(&started.stdout);
    assert!(
        said.contains("stop with") && said.contains("nats://127.0.0.1:"),
        "{said}"
    );
    // A second start in the same folder is refused, and leaves the first.
    let again = run("start", &dir);
    assert_eq!(again.status.code(), Some(2));
    let status = run("status", &dir);
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stdout)
    );
    // NATS with JetStream on.
    let monitor = env_value(&dir, "NATS_MONITOR");
    let monitor = monitor.trim_start_matches("http://");
    assert!(get(monitor, "/healthz").contains("ok"));
    let jsz = get(monitor, "/jsz");
    assert!(jsz.contains("\"streams\""), "{jsz}");
    // PostgreSQL takes a query.
    let url = env_value(&dir, "DATABASE_URL");
    let query = Command::new(psql())
        .args([url.as_str(), "-tAc", "select 40 + 2"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&query.stdout).trim(), "42");
    // Stopped: neither answers, and the folder says no network.
    let pg_port: u16 = (url.rsplit(':').next().unwrap().split('/').next().unwrap())
        .parse()
        .unwrap();
    let stopped = run("stop", &dir);
    assert!(
        stopped.status.success(),
        "{}",
        String::from_utf8_lossy(&stopped.stderr)
    );
    assert!(TcpStream::connect(monitor).is_err(), "NATS still answers");
    assert!(
        TcpStream::connect(("127.0.0.1", pg_port)).is_err(),
        "PostgreSQL still answers"
    );
    assert_eq!(run("status", &dir).status.code(), Some(1));
}
