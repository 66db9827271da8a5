//! `bingomint hall` over HTTP, from the outside: every endpoint, the key,
//! claims by every reference, the live stream, a kill and a resume, and
//! `hall verify` on sound and tampered logs. Traffic goes to 127.0.0.1 only.

use crate::common::{bingomint, generate, stdout_of};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A hall running on a free port, killed when dropped.
pub struct Running {
    child: Child,
    pub addr: String,
    pub key: String,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `hall --cards FILE… --log LOG` with `extra` flags.
pub fn start(cards: &[&Path], log: &Path, extra: &[&str]) -> Running {
    start_in(cards, log, extra, &[])
}

/// [`start`] with `env` set for the hall (`TZ`, say).
pub fn start_in(cards: &[&Path], log: &Path, extra: &[&str], env: &[(&str, &str)]) -> Running {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bingomint"));
    cmd.envs(env.iter().copied());
    launch(cmd, cards, log, extra)
}

/// [`start`] in `dir`, so the log records the paths as given (relative).
pub fn start_at(dir: &Path, cards: &[&Path], log: &Path, extra: &[&str]) -> Running {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bingomint"));
    cmd.current_dir(dir);
    launch(cmd, cards, log, extra)
}

fn launch(mut cmd: Command, cards: &[&Path], log: &Path, extra: &[&str]) -> Running {
    cmd.arg("hall")
        .args(["--listen", "127.0.0.1:0", "--log"])
        .arg(log)
        .args(extra);
    for c in cards {
        cmd.arg("--cards").arg(c);
    }
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let (mut addr, mut key) = (String::new(), String::new());
    for _ in 0..4 {
        let mut line = String::new();
        if out.read_line(&mut line).unwrap() == 0 {
            break;
        }
        if let Some(rest) = line
            .strip_prefix("console  http://")
            .or_else(|| line.strip_prefix("console  https://"))
        {
            let (a, k) = rest.split_once("/console#").unwrap();
            addr = a.to_string();
            key = k.split_whitespace().next().unwrap().to_string();
        }
        if line.starts_with("log") {
            break;
        }
    }
    assert!(!addr.is_empty(), "the hall did not start");
    // Keep reading its output so it never blocks on a full pipe.
    std::thread::spawn(move || for _ in out.lines() {});
    Running { child, addr, key }
}

/// One request; the status and the JSON body.
pub fn http(
    addr: &str,
    method: &str,
    path: &str,
    key: Option<&str>,
    body: Option<&str>,
) -> (u16, Value) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let body = body.unwrap_or("");
    let auth = key.map_or(String::new(), |k| format!("Authorization: Bearer {k}\r\n"));
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\n{auth}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    // Read the head, then as many bytes as Content-Length says (a server
    // may keep the connection open), else to the end.
    let mut r = BufReader::new(s);
    let mut head = String::new();
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).unwrap() == 0 || line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let status = head[9..12].parse().unwrap();
    let length = head.lines().find_map(|l| {
        let (name, value) = l.split_once(':')?;
        name.eq_ignore_ascii_case("content-length")
            .then(|| value.trim().parse::<usize>().unwrap())
    });
    let mut body = Vec::new();
    match length {
        Some(n) => {
            body.resize(n, 0);
            r.read_exact(&mut body).unwrap();
        }
        None => {
            r.read_to_end(&mut body).unwrap();
        }
    }
    let json = String::from_utf8_lossy(&body);
    (status, serde_json::from_str(&json).unwrap_or(Value::Null))
}

impl Running {
    /// The hall's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
    pub fn post(&self, path: &str, body: Value) -> (u16, Value) {
        http(
            &self.addr,
            "POST",
            path,
            Some(&self.key),
            Some(&body.to_string()),
        )
    }
    pub fn state(&self) -> Value {
        http(&self.addr, "GET", "/api/state", None, None).1
    }
    pub fn calls(&self) -> Vec<u64> {
        let s = self.state();
        s["game"]["calls"]
            .as_array()
            .map_or(vec![], |a| a.iter().map(|n| n.as_u64().unwrap()).collect())
    }
}

pub fn seed_order(game: &str, seed: &str, count: usize) -> Vec<u64> {
    let text = stdout_of(bingomint().args([
        "calls",
        "--game",
        game,
        "--seed",
        seed,
        "--count",
        &count.to_string(),
    ]));
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.parse().unwrap())
        .collect()
}

pub fn sha256(text: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn every_endpoint_answers_and_writes_need_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let cards = generate(dir.path(), "c.bmc", &["--count", "2000", "--seed", "3"]);
    let hall = start(&[&cards], &dir.path().join("night.jsonl"), &[]);
    let a = hall.addr.as_str();
    assert_eq!(
        http(a, "GET", "/api/state", None, None).1["game"],
        Value::Null
    );
    // Without the key, or with another, nothing changes.
    for key in [None, Some("not-the-key")] {
        let (status, body) = http(a, "POST", "/api/games", key, Some(r#"{"pattern":"line"}"#));
        assert_eq!(status, 401, "{body}");
        assert!(body["error"]
            .as_str()
            .unwrap()
            .contains("Authorization: Bearer"));
    }
    assert_eq!(hall.state()["game"], Value::Null);
    assert_eq!(
        hall.post("/api/games", json!({"pattern": "no-such"})).0,
        400
    );
    let (status, state) = hall.post("/api/games", json!({"pattern": "line", "prize": "£25"}));
    assert_eq!(status, 201);
    let commitment = state["game"]["commitment"].as_str().unwrap().to_string();
    assert_eq!(commitment.len(), 64);
    assert_eq!(hall.post("/api/games", json!({"pattern": "line"})).0, 409);
    for _ in 0..6 {
        assert_eq!(hall.post("/api/calls", json!({})).0, 201);
    }
    let (status, recalled) = http(a, "DELETE", "/api/calls/last", Some(&hall.key), None);
    assert_eq!(status, 200);
    assert_eq!(hall.calls().len(), 5);
    assert!(!hall
        .calls()
        .contains(&recalled["recalled"].as_u64().unwrap()));
    for (method, path, body, status) in [
        ("POST", "/api/claims", Some("{bad json"), 400),
        ("POST", "/api/claims", Some(r#"{"cart": "12"}"#), 400),
        ("GET", "/api/calls", None, 405),
        ("GET", "/nowhere", None, 404),
    ] {
        assert_eq!(
            http(a, method, path, Some(&hall.key), body).0,
            status,
            "{method} {path}"
        );
    }
    let big = format!(r#"{{"card": "{}"}}"#, "1".repeat(40_000));
    assert_eq!(
        http(a, "POST", "/api/claims", Some(&hall.key), Some(&big)).0,
        413
    );
    let (status, end) = hall.post("/api/games/end", json!({}));
    assert_eq!(status, 200);
    let seed = end["seed"].as_str().unwrap();
    assert_eq!(
        sha256(seed),
        commitment,
        "the revealed seed is the committed one"
    );
    assert_eq!(end["state"]["revealed"]["seed"], seed);
    // The calls shown were the committed order's first ones (the recalled
    // ball comes again as the sixth).
    let order = seed_order("75", seed, 6);
    assert_eq!(
        order[..5],
        hall_calls_from_log(&dir.path().join("night.jsonl"))[..5]
    );
    assert_eq!(hall.post("/api/calls", json!({})).0, 409);
    for page in ["/board", "/console", "/"] {
        let mut s = TcpStream::connect(a).unwrap();
        write!(s, "GET {page} HTTP/1.1\r\n\r\n").unwrap();
        let mut text = String::new();
        s.read_to_string(&mut text).unwrap();
        assert!(
            text.starts_with("HTTP/1.1 200") && text.contains("<!DOCTYPE html>"),
            "{page}"
        );
        assert!(
            !text.contains("src=\"http") && !text.contains("href=\"http"),
            "{page} fetches from elsewhere"
        );
    }
}

/// The balls of the call lines of a log, recalls taken out.
fn hall_calls_from_log(log: &Path) -> Vec<u64> {
    let mut shown = Vec::new();
    for line in std::fs::read_to_string(log).unwrap().lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        match v["event"].as_str().unwrap() {
            "call" => shown.push(v["ball"].as_u64().unwrap()),
            "recall" => {
                shown.pop();
            }
            _ => {}
        }
    }
    shown
}

#[test]
fn claims_by_every_reference_and_their_refusals() {
    let dir = tempfile::tempdir().unwrap();
    let cards = generate(dir.path(), "c.bmc", &["--count", "3000", "--seed", "4"]);
    let other = generate(dir.path(), "o.bmc", &["--count", "10", "--seed", "5"]);
    let id = |f: &std::path::Path| crate::common::file_id(f);
    let (cid, oid) = (id(&cards), id(&other));
    let hall = start(
        &[&cards],
        &dir.path().join("n.jsonl"),
        &["--sold", "1..2000"],
    );
    // Every sold face holding the line shares it (electronic play).
    hall.post(
        "/api/games",
        json!({"pattern": "line", "share": "all-holders"}),
    );
    for _ in 0..75 {
        hall.post("/api/calls", json!({}));
    }
    // Every number called: every sold card holds a line.
    for card in [
        "17",
        &format!("bingomint:{cid}:card:17"),
        &format!("bingomint:{}:CARD:17", cid.to_lowercase()),
        "20017",
    ] {
        let (status, v) = hall.post("/api/claims", json!({"card": card}));
        assert_eq!(status, 200);
        assert_eq!(v["win"], true, "{card}: {v}");
        assert_eq!(v["label"], format!("card 17 of {cid}"));
        assert_eq!(v["face"]["cells"].as_array().unwrap().len(), 25);
    }
    for (card, reason) in [
        ("2500", "card 2500 was not sold"),
        ("9999", "not in this file"),
        (&format!("bingomint:{oid}:card:3") as &str, "does not hold"),
        ("seventeen", "neither a card or ticket number"),
    ] {
        let (status, v) = hall.post("/api/claims", json!({"card": card}));
        assert_eq!(
            status,
            if card == "2500" { 200 } else { 404 },
            "{card}: {v}"
        );
        assert_eq!(v["win"], false, "{card}");
        assert!(
            v["reason"].as_str().unwrap().contains(reason),
            "{card}: {v}"
        );
    }
    // Accepting a win ends a one-stage game and reveals the seed.
    let v = hall
        .post("/api/claims", json!({"card": "17", "accept": true}))
        .1;
    assert_eq!(v["accepted"], true);
    assert!(v["also_winning"].as_array().unwrap().len() >= 10);
    assert!(!v["also_winning"]
        .as_array()
        .unwrap()
        .contains(&json!(format!("card 17 of {cid}"))));
    assert!(hall.state()["revealed"]["seed"]
        .as_str()
        .unwrap()
        .starts_with("hall2-"));
}

#[test]
fn ninety_ball_stages_move_on_as_wins_are_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let strips = generate(
        dir.path(),
        "s.bmc",
        &["--game", "90", "--count", "200", "--seed", "6"],
    );
    let hall = start(&[&strips], &dir.path().join("n.jsonl"), &[]);
    hall.post(
        "/api/games",
        json!({"stages": ["one-line", "two-lines", "full-house"], "prize": "the night"}),
    );
    for _ in 0..90 {
        hall.post("/api/calls", json!({}));
    }
    for (stage, next) in [("one-line", "two-lines"), ("two-lines", "full-house")] {
        let v = hall
            .post("/api/claims", json!({"card": "70", "accept": true}))
            .1;
        assert_eq!(
            (v["win"].clone(), v["stage"].clone()),
            (json!(true), json!(stage)),
            "{v}"
        );
        assert_eq!(hall.state()["game"]["stage"], next);
    }
    let v = hall
        .post("/api/claims", json!({"card": "bingomint:x:ticket:71"}))
        .1;
    assert!(
        v["reason"].as_str().unwrap().contains("does not hold"),
        "{v}"
    );
    hall.post("/api/claims", json!({"card": "1200", "accept": true}));
    assert_eq!(hall.state()["game"], Value::Null);
}

/// A live stream as a viewer follows it: the state it holds and the
/// number of the last message.
struct Viewer {
    stream: BufReader<TcpStream>,
    state: Value,
    seq: u64,
    /// The bytes of each message's data.
    sizes: Vec<usize>,
}

impl Viewer {
    fn open(addr: &str) -> Viewer {
        let mut s = TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        write!(s, "GET /api/events HTTP/1.1\r\n\r\n").unwrap();
        Viewer {
            stream: BufReader::new(s),
            state: Value::Null,
            seq: 0,
            sizes: Vec::new(),
        }
    }

    /// The state after the next message: whole, or patched in turn.
    fn next(&mut self) -> &Value {
        let data = loop {
            let mut line = String::new();
            self.stream.read_line(&mut line).unwrap();
            if let Some(data) = line.strip_prefix("data: ") {
                break data.trim_end().to_string();
            }
        };
        self.sizes.push(data.len());
        let m: Value = serde_json::from_str(&data).unwrap();
        let seq = m["seq"].as_u64().unwrap();
        if let Some(state) = m.get("state") {
            self.state = state.clone();
        } else {
            assert_eq!(seq, self.seq + 1, "a patch out of turn: {data}");
            let patch: json_patch::Patch = serde_json::from_value(m["patch"].clone()).unwrap();
            json_patch::patch(&mut self.state, &patch).unwrap();
        }
        self.seq = seq;
        &self.state
    }
}

#[test]
fn every_viewer_sees_each_call_as_it_happens_sent_as_a_patch() {
    let dir = tempfile::tempdir().unwrap();
    let cards = generate(dir.path(), "c.bmc", &["--count", "1000", "--seed", "7"]);
    let hall = start(&[&cards], &dir.path().join("n.jsonl"), &[]);
    let mut viewers: Vec<Viewer> = (0..5).map(|_| Viewer::open(&hall.addr)).collect();
    for v in viewers.iter_mut() {
        assert_eq!(v.next()["game"], Value::Null);
    }
    hall.post("/api/games", json!({"pattern": "x"}));
    for v in viewers.iter_mut() {
        assert_eq!(v.next()["game"]["stage"], "x");
    }
    let mut balls = Vec::new();
    for _ in 0..3 {
        balls.push(hall.post("/api/calls", json!({})).1["ball"].clone());
        // The state changes again when the "to go" counts are up to date
        // (after the start, after each call): wait for the calls, then for
        // the counts.
        for v in viewers.iter_mut() {
            while v.next()["game"]["calls"] != json!(balls) {}
            while v.state["game"]["counting"] == json!(true) {
                v.next();
            }
        }
    }
    // Patched call by call, each viewer holds the state exactly.
    let now = hall.state();
    for v in viewers.iter_mut() {
        assert_eq!(v.state, now);
    }
    // After the game's start (whole, then a patch with the game), each
    // change is far smaller than the state.
    let v = &viewers[0];
    let whole = now.to_string().len();
    assert!(
        v.sizes[2..].iter().all(|&n| n * 4 < whole),
        "{whole}: {:?}",
        v.sizes
    );
    // A viewer that comes now is sent the state whole, at the same number.
    let mut late = Viewer::open(&hall.addr);
    assert_eq!(*late.next(), now);
    assert_eq!(late.seq, viewers[0].seq);
}

pub fn verify_log(log: &Path, cards: &Path) -> (i32, String) {
    let out = bingomint()
        .args(["hall", "verify"])
        .arg(log)
        .arg("--cards")
        .arg(cards)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// A night: two games, claims, a recall; the hall killed outright in the
/// middle of the second game and started again on the same log.
fn night(dir: &Path) -> (PathBuf, PathBuf) {
    let cards = generate(dir, "c.bmc", &["--count", "5000", "--seed", "8"]);
    let log = dir.join("night.jsonl");
    let hall = start(&[&cards], &log, &[]);
    hall.post("/api/games", json!({"pattern": "four-corners"}));
    for _ in 0..40 {
        hall.post("/api/calls", json!({}));
    }
    http(
        &hall.addr,
        "DELETE",
        "/api/calls/last",
        Some(&hall.key),
        None,
    );
    hall.post("/api/claims", json!({"card": "12"}));
    hall.post("/api/games/end", json!({}));
    hall.post("/api/games", json!({"pattern": "coverall"}));
    for _ in 0..10 {
        hall.post("/api/calls", json!({}));
    }
    let before = hall.calls();
    let key = hall.key.clone();
    drop(hall); // SIGKILL
    let hall = start(&[&cards], &log, &[]);
    assert_eq!(
        hall.calls(),
        before,
        "the resumed game shows the same calls"
    );
    // See: issue 65, item 7: the caller's open tab survives the restart.
    assert_eq!(hall.key, key, "the console's key is kept beside the log");
    let kept = std::fs::metadata(format!("{}.console", log.display())).unwrap();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&kept.permissions()) & 0o777,
        0o600
    );
    for _ in 0..5 {
        hall.post("/api/calls", json!({}));
    }
    let after = hall.calls();
    hall.post("/api/claims", json!({"card": "bingomint:nope:card:1"}));
    let seed = hall.post("/api/games/end", json!({})).1["seed"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        after,
        seed_order("75", &seed, 15),
        "the next calls continue the committed order"
    );
    (log, cards)
}

#[test]
fn a_killed_hall_resumes_and_its_log_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let (log, cards) = night(dir.path());
    let (code, out) = verify_log(&log, &cards);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("2 games ended") && out.contains("2 claims judged the same again"),
        "{out}"
    );
    assert!(
        !crate::hall::secret(&log).exists(),
        "the seed file goes when the game ends"
    );
}

pub fn secret(log: &Path) -> PathBuf {
    PathBuf::from(format!("{}.seed", log.display()))
}

#[test]
fn tampered_logs_fail_verification_at_the_first_bad_line() {
    let dir = tempfile::tempdir().unwrap();
    let (log, cards) = night(dir.path());
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let call = lines
        .iter()
        .position(|l| l.contains(r#""event":"call""#))
        .unwrap();
    let write = |lines: &[String]| std::fs::write(&log, lines.join("\n") + "\n").unwrap();
    let owned: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    // An edited call: the chain breaks at the line after it.
    let mut edited = owned.clone();
    let v: Value = serde_json::from_str(&edited[call]).unwrap();
    let other = if v["ball"] == 1 { 2 } else { 1 };
    edited[call] = edited[call].replace(
        &format!(r#""ball":{}"#, v["ball"]),
        &format!(r#""ball":{other}"#),
    );
    write(&edited);
    let (code, out) = verify_log(&log, &cards);
    assert_eq!(code, 1);
    assert!(
        out.contains(&format!("line {}", call + 2)) && out.contains("chain breaks"),
        "{out}"
    );
    // A deleted line, and two lines swapped.
    let mut deleted = owned.clone();
    deleted.remove(call + 3);
    write(&deleted);
    assert!(verify_log(&log, &cards)
        .1
        .contains(&format!("line {}", call + 4)));
    let mut swapped = owned.clone();
    swapped.swap(call + 1, call + 2);
    write(&swapped);
    assert_eq!(verify_log(&log, &cards).0, 1);
    // A forger who rewrites every hash still cannot change a call: the
    // revealed seed gives another order.
    let mut forged = Vec::new();
    let mut prev = "0".repeat(64);
    for (i, l) in edited.iter().enumerate() {
        let mut v: Value = serde_json::from_str(l).unwrap();
        v["prev"] = json!(prev);
        let line = serde_json::to_string(&v).unwrap();
        prev = sha256(&line);
        forged.push(line);
        let _ = i;
    }
    write(&forged);
    let (code, out) = verify_log(&log, &cards);
    assert_eq!(code, 1);
    assert!(
        out.contains(&format!("line {}", call + 1)) && out.contains("committed order gives"),
        "{out}"
    );
}

#[test]
fn audit_tests_the_games_a_log_revealed() {
    let dir = tempfile::tempdir().unwrap();
    let cards = generate(dir.path(), "c.bmc", &["--count", "100", "--seed", "10"]);
    let log = dir.path().join("year.jsonl");
    let hall = start(&[&cards], &log, &[]);
    for _ in 0..120 {
        hall.post("/api/games", json!({"pattern": "line"}));
        hall.post("/api/calls", json!({}));
        hall.post("/api/games/end", json!({}));
    }
    drop(hall);
    let out = dir.path().join("a.json");
    let run = bingomint()
        .args(["audit", "--calls", "--log"])
        .arg(&log)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    // Fresh seeds: a pass or, rarely, a fail; never an error.
    assert!(
        matches!(run.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(report["subject"], "120 games of 75-ball calls");
    // A tampered log is refused before any test.
    let text = std::fs::read_to_string(&log).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.remove(5);
    std::fs::write(&log, lines.join("\n") + "\n").unwrap();
    bingomint()
        .args(["audit", "--calls", "--force", "--log"])
        .arg(&log)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("line 6"));
}

#[test]
fn an_imported_file_plays_by_its_own_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let cards = generate(dir.path(), "c.bmc", &["--count", "40", "--seed", "6"]);
    // Another maker's perms numbered from 1001: the same cards, renumbered.
    let csv = stdout_of(bingomint().args(["export", "--format", "csv"]).arg(&cards));
    let mut lines: Vec<String> = csv.lines().map(String::from).collect();
    for (i, line) in lines.iter_mut().enumerate().skip(1) {
        let (_, cells) = line.split_once(',').unwrap();
        *line = format!("{},{cells}", 1000 + i);
    }
    let source = dir.path().join("perms.csv");
    std::fs::write(&source, lines.join("\n")).unwrap();
    let perms = dir.path().join("perms.bmc");
    bingomint()
        .args(["import", "--game", "75", "--quiet", "--out"])
        .arg(&perms)
        .arg(&source)
        .assert()
        .success();
    let id = crate::common::file_id(&perms);
    let hall = start(
        &[&perms],
        &dir.path().join("n.jsonl"),
        &["--sold", "1001..1020"],
    );
    hall.post("/api/games", json!({"pattern": "line"}));
    for _ in 0..75 {
        hall.post("/api/calls", json!({}));
    }
    for card in ["1005", "11005", &format!("bingomint:{id}:card:1005")] {
        let (status, v) = hall.post("/api/claims", json!({"card": card}));
        assert_eq!(status, 200, "{card}: {v}");
        assert_eq!(v["win"], true, "{card}: {v}");
        assert_eq!(v["label"], format!("card 1005 of {id}"));
    }
    let (_, v) = hall.post("/api/claims", json!({"card": "1030"}));
    assert!(v["reason"].as_str().unwrap().contains("not sold"), "{v}");
    let (status, v) = hall.post("/api/claims", json!({"card": "5"}));
    assert_eq!(status, 404);
    assert!(
        v["reason"].as_str().unwrap().contains("cards 1001 to 1040"),
        "{v}"
    );
    drop(hall);
    // --sold outside the file's own numbers is refused before the night.
    bingomint()
        .arg("hall")
        .arg("--cards")
        .arg(&perms)
        .args(["--sold", "1..20", "--log"])
        .arg(dir.path().join("m.jsonl"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("numbered 1001..1040"));
}
