//! The floor, from the outside: the caller's "to go" counts at every call
//! (checked against a claim on every sold card), the winner as the room
//! sees it (and gone at the next call), where phones find the hall (its
//! network addresses and a QR code a reader decodes), and `--listen` as a
//! caller types it. Traffic goes to 127.0.0.1 only.

use crate::common::{bingomint, generate, skipped};
use crate::hall::{http, start};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::process::Stdio;

/// How many numbers card `n` still needs, by the caller's own check of it
/// (None: not a sold card).
fn away(v: &Value) -> usize {
    if v["win"] == json!(true) {
        return 0;
    }
    let reason = v["reason"].as_str().unwrap();
    let (_, missing) = reason.split_once(" still ").expect(reason);
    let list = missing.split_once(' ').unwrap().1;
    list.split(", ").count()
}

/// The state once the "to go" counts stand at the last call (they follow
/// it on a thread of their own).
fn counted(hall: &crate::hall::Running) -> Value {
    for _ in 0..500 {
        let state = hall.state();
        if state["game"]["counting"] == json!(false) {
            return state;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("the counts never came up to date");
}

#[test]
fn the_caller_counts_to_go_and_the_room_sees_the_winner() {
    let dir = tempfile::tempdir().unwrap();
    let cards = generate(dir.path(), "c.bmc", &["--count", "200", "--seed", "floor"]);
    let hall = start(
        &[&cards],
        &dir.path().join("f.jsonl"),
        &["--sold", "1..150"],
    );
    let (status, _) = hall.post(
        "/api/games",
        json!({"pattern": "line", "prize": "£12.00", "share": "all-holders"}),
    );
    assert_eq!(status, 201);
    let mut checked = 0;
    let (holders, last) = loop {
        let called = hall.post("/api/calls", json!({})).1;
        let state = counted(&hall);
        let to_go = &state["game"]["to_go"][0];
        assert_eq!(to_go["stage"], "line");
        // Every few calls, and when a card first holds it: the counts are
        // what a claim on each sold card says.
        let holding = to_go["holding"].as_u64().unwrap();
        if state["game"]["calls"].as_array().unwrap().len() % 3 == 0 || holding > 0 {
            let mut near = [0u64; 3];
            let mut holders = Vec::new();
            for n in 1..=150 {
                let v = hall.post("/api/claims", json!({"card": n.to_string()})).1;
                let d = away(&v);
                if d < 3 {
                    near[d] += 1;
                }
                if d == 0 {
                    holders.push(n);
                }
            }
            let counted = [
                holding,
                to_go["one"].as_u64().unwrap(),
                to_go["two"].as_u64().unwrap(),
            ];
            assert_eq!(counted, near, "after {} calls", state["game"]["calls"]);
            checked += 1;
            if holding > 0 {
                break (holders, called["ball"].clone());
            }
        }
    };
    assert!(checked >= 2);
    // A card not sold is never counted: the winners are the sold holders.
    let first = holders[0];
    let v = hall
        .post(
            "/api/claims",
            json!({"card": first.to_string(), "accept": true}),
        )
        .1;
    assert_eq!(v["accepted"], true, "{v}");
    assert_eq!(
        v["payout"]["winners"].as_array().unwrap().len(),
        holders.len()
    );
    let state = hall.state();
    let w = &state["winner"];
    assert_eq!(w["stage"], "line");
    assert_eq!(w["label"], v["label"]);
    assert_eq!(w["prize"], v["payout"]["text"]);
    assert_eq!(w["shared"], json!(holders.len()));
    // The face as printed, the winning line lit (five cells, or four and
    // the free centre), the last ball ringed on it.
    let face = &w["face"];
    let cells: Vec<u64> = face["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    let line: Vec<bool> = face["line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_bool().unwrap())
        .collect();
    assert_eq!(line.iter().filter(|&&l| l).count(), 5, "{face}");
    // (The game is over: its one prize is paid.)
    assert_eq!(state["game"], Value::Null);
    let ringed = face["last"]
        .as_u64()
        .expect("the last ball is on the winning card") as usize;
    assert_eq!(json!(cells[ringed]), last);
    assert!(line[ringed], "the last ball completed the line");
    // It stays after the game ends, until the next game (or call).
    let (status, _) = hall.post("/api/games", json!({"pattern": "coverall"}));
    assert_eq!(status, 201);
    assert_eq!(hall.state()["winner"], Value::Null);
}

/// A QR code as rows of `1` and `0`, read by a real reader (zbarimg).
fn read_qr(rows: &[Value], dir: &std::path::Path) -> Option<String> {
    let rows: Vec<&str> = rows.iter().map(|r| r.as_str().unwrap()).collect();
    let (n, scale, quiet) = (rows.len(), 6, 4);
    let size = (n + 2 * quiet) * scale;
    let mut pgm = format!("P5 {size} {size} 255\n").into_bytes();
    for y in 0..size {
        for x in 0..size {
            let (my, mx) = (
                (y / scale).wrapping_sub(quiet),
                (x / scale).wrapping_sub(quiet),
            );
            let dark = my < n && mx < n && rows[my].as_bytes()[mx] == b'1';
            pgm.push(if dark { 0 } else { 255 });
        }
    }
    let path = dir.join("qr.pgm");
    std::fs::write(&path, pgm).unwrap();
    let out = std::process::Command::new("zbarimg")
        .args(["-q", "--raw"])
        .arg(&path)
        .output()
        .ok()?;
    Some(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

#[test]
fn phones_find_the_hall_by_its_network_address_and_qr_code() {
    let dir = tempfile::tempdir().unwrap();
    let cards = generate(dir.path(), "c.bmc", &["--count", "20", "--seed", "join"]);
    // On this machine only: no address a phone can use, and the hall says
    // how to let phones in.
    let local = start(&[&cards], &dir.path().join("a.jsonl"), &[]);
    let (status, join) = http(&local.addr, "GET", "/api/join", None, None);
    assert_eq!((status, join["players"].clone()), (200, json!([])));
    drop(local);
    // A port alone: every interface.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_bingomint"))
        .args(["hall", "--listen", "0", "--log"])
        .arg(dir.path().join("b.jsonl"))
        .arg("--cards")
        .arg(&cards)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    // The addresses and the QR code follow the log's line; with no
    // network address there is no QR code to wait for.
    let network = has_network();
    let mut lines: Vec<String> = Vec::new();
    loop {
        let mut line = String::new();
        if out.read_line(&mut line).unwrap() == 0 {
            break;
        }
        let last = if network {
            line.contains("(scan for")
        } else {
            line.starts_with("log")
        };
        lines.push(line);
        if last {
            break;
        }
    }
    let console = lines
        .iter()
        .find(|l| l.starts_with("console"))
        .expect("the hall started");
    let port = console
        .split("/console")
        .next()
        .unwrap()
        .rsplit(':')
        .next()
        .unwrap()
        .to_string();
    let addr = format!("127.0.0.1:{port}");
    let (_, join) = http(&addr, "GET", "/api/join", None, None);
    let _ = child.kill();
    let _ = child.wait();
    let players: Vec<String> = join["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect();
    let printed: Vec<String> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("phones   "))
        .map(|l| l.trim().to_string())
        .collect();
    assert_eq!(
        printed, players,
        "the terminal and the board give the same addresses"
    );
    if !network {
        assert!(players.is_empty(), "{players:?}");
        return;
    }
    assert!(!players.is_empty());
    for p in &players {
        assert!(
            p.starts_with("http://") && p.ends_with(&format!(":{port}/play")),
            "{p}"
        );
        assert!(!p.contains("127.0.0.1") && !p.contains("0.0.0.0"), "{p}");
    }
    match read_qr(join["qr"].as_array().unwrap(), dir.path()) {
        Some(text) if !text.is_empty() => assert_eq!(text, players[0]),
        _ => skipped("zbarimg (Debian: zbar-tools) to read the players' QR code"),
    }
}

/// Whether this machine has an address a phone could use.
fn has_network() -> bool {
    let any: std::net::IpAddr = "0.0.0.0".parse().unwrap();
    let machine: Vec<std::net::IpAddr> = if_addrs::get_if_addrs()
        .map(|l| l.iter().map(|i| i.ip()).collect())
        .unwrap_or_default();
    !bingomint::hall::join::reachable(any, &machine).is_empty()
}

#[test]
fn listen_errors_name_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let cards = generate(dir.path(), "c.bmc", &["--count", "5", "--seed", "listen"]);
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let at = taken.local_addr().unwrap().to_string();
    for (listen, says) in [
        (at.as_str(), "the port is in use"),
        ("192.0.2.1:8075", "this machine has no such address"),
        ("hall:8075", "give ADDRESS:PORT"),
    ] {
        let out = bingomint()
            .args(["hall", "--listen", listen, "--log"])
            .arg(dir.path().join("x.jsonl"))
            .arg("--cards")
            .arg(&cards)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{listen}: {err}");
        assert!(
            err.contains(&format!("--listen {listen}")) && err.contains(says),
            "{listen}: {err}"
        );
        assert!(!dir.path().join("x.jsonl").exists(), "nothing written");
    }
}

#[test]
fn table_cards_carry_the_players_address_as_text_and_as_a_code_a_reader_decodes() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("tables.pdf");
    let url = "http://192.168.1.20:8075/play";
    let table_cards = |extra: &[&str]| {
        bingomint()
            .args(["hall", "tables", "--url", url, "--title", "Friday bingo"])
            .args(["--wifi", "Hall guests", "--paper", "a4", "--out"])
            .arg(&pdf)
            .args(extra)
            .output()
            .unwrap()
    };
    let out = table_cards(&["--tables", "3"]);
    assert!(out.status.success(), "{out:?}");
    let said = String::from_utf8(out.stdout).unwrap();
    assert!(
        said.contains("3 table cards for http://192.168.1.20:8075/play on 2 a4 pages"),
        "{said}"
    );
    // An existing file is kept without --force.
    let again = table_cards(&[]);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("--force"));
    if crate::print::have("qpdf", "hall tables") {
        let check = std::process::Command::new("qpdf")
            .arg("--check")
            .arg(&pdf)
            .output()
            .unwrap();
        assert!(check.status.success(), "{check:?}");
    }
    if crate::print::have("pdftotext", "hall tables") {
        let out = std::process::Command::new("pdftotext")
            .arg(&pdf)
            .arg("-")
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        for table in ["Table 1", "Table 2", "Table 3"] {
            assert!(text.contains(table), "{text}");
        }
        assert_eq!(text.matches(url).count(), 3, "{text}");
        assert_eq!(text.matches("Friday bingo").count(), 3, "{text}");
        assert!(text.contains("1. Join the Wi-Fi: Hall guests"), "{text}");
    }
    if crate::print::have("pdftoppm", "hall tables") && crate::print::have("zbarimg", "hall tables")
    {
        let codes = crate::print::first_page_codes(&pdf, dir.path());
        assert_eq!(codes, [url, url]);
    }
}

#[test]
fn table_cards_are_refused_an_address_no_phone_can_open() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("t.pdf");
    for (args, says) in [
        (
            &["--url", "ftp://hall/play"][..],
            "--url: give the players' page",
        ),
        (
            &["--url", "http://hall /play"][..],
            "--url: give the players' page",
        ),
        (
            &["--listen", "127.0.0.1:8075"][..],
            "loopback is this machine only",
        ),
        (
            &["--listen", "hall:port"][..],
            "--listen hall:port: give a PORT alone",
        ),
        (
            &["--url", "http://a/play", "--tables", "0"][..],
            "--tables: give 1 to 1000",
        ),
        (
            &["--url", "http://a/play", "--title", " x"][..],
            "--title: give 1 to",
        ),
    ] {
        let out = bingomint()
            .args(["hall", "tables", "--out"])
            .arg(&pdf)
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!pdf.exists(), "{args:?}");
    }
}
