//! Live calls from the cryptographic generator (issue: the hall's seed used
//! whole, ChaCha20, the room's own entropy): the order a hall draws is the
//! one docs/hall.md's formula gives, reimplemented apart from the hall's
//! code (`tests/live/order.py`); the room seed is taken only before the
//! first ball and recomputed by `calls` and `hall verify`; a game without
//! one says so; logs of the older seed form still verify.

use crate::common::generate;
use crate::hall::{http, seed_order, sha256, start, verify_log};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;

/// The order by the independent reimplementation.
fn by_formula(seed: &str, room: &str, balls: u8) -> Vec<u64> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/live/order.py");
    let out = Command::new("python3")
        .arg(&script)
        .args([seed, room, &balls.to_string()])
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect()
}

fn log_lines(log: &Path) -> Vec<Value> {
    std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn the_formula_reimplemented_gives_the_rfcs_chacha20() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/live/order.py");
    let out = Command::new("python3")
        .arg(script)
        .arg("--self-test")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_hall_game_is_the_documented_order_of_its_seed_and_the_rooms() {
    let dir = tempfile::tempdir().unwrap();
    let cards = generate(dir.path(), "c.bmc", &["--count", "300", "--seed", "12"]);
    let log = dir.path().join("n.jsonl");
    let hall = start(&[&cards], &log, &[]);
    hall.post("/api/games", json!({"pattern": "coverall"}));
    let room = "Mrs Patel, table 4: \"41\"";
    // The caller's key, a body of the right shape, a room seed of text.
    let body = json!({"room_seed": room}).to_string();
    assert_eq!(
        http(
            &hall.addr,
            "POST",
            "/api/games/room-seed",
            None,
            Some(&body)
        )
        .0,
        401
    );
    assert_eq!(
        hall.post("/api/games/room-seed", json!({"room": room})).0,
        400
    );
    assert_eq!(
        hall.post("/api/games/room-seed", json!({"room_seed": "  "}))
            .0,
        400
    );
    // See: hardening round four — the house ground the order with texts
    // the board showed as the room's own word. Each is refused, naming
    // the character; none is logged.
    for (ground, named) in [
        ("Mrs Patel,\u{200b} table 4", "U+200B"),
        ("Mrs Patel, table 4\u{fe0f}", "U+FE0F"),
        ("Mrs Patel,\u{a0}table 4", "U+00A0"),
        ("Mrs Pa\u{2060}tel, table 4", "U+2060"),
        ("Mrs P\u{430}tel, table 4", "scripts"),
    ] {
        let (status, v) = hall.post("/api/games/room-seed", json!({"room_seed": ground}));
        assert_eq!(status, 400, "{ground:?}: {v}");
        assert!(v["error"].as_str().unwrap().contains(named), "{v}");
    }
    assert!(!std::fs::read_to_string(&log)
        .unwrap()
        .contains("room_seed\""));
    // Doubled spaces are the text the board shows: mixed as one.
    let doubled = room.replace(' ', "  ");
    let (status, state) = hall.post("/api/games/room-seed", json!({"room_seed": doubled}));
    assert_eq!(status, 201, "{state}");
    assert_eq!(
        state["game"]["room_seed"], room,
        "the board shows it at once"
    );
    assert_eq!(
        hall.post("/api/games/room-seed", json!({"room_seed": "again"}))
            .0,
        409
    );
    for _ in 0..75 {
        hall.post("/api/calls", json!({}));
    }
    let calls = hall.calls();
    let (status, v) = hall.post("/api/games/room-seed", json!({"room_seed": "late"}));
    assert_eq!(status, 409, "{v}");
    let end = hall.post("/api/games/end", json!({})).1;
    let seed = end["seed"].as_str().unwrap().to_string();
    assert!(seed.starts_with("hall2-") && seed.len() == 6 + 64, "{seed}");
    assert!(seed[6..].bytes().all(|b| b.is_ascii_hexdigit()));
    assert_eq!(end["state"]["revealed"]["room_seed"], room);
    // The same order three ways: the hall, `calls`, the formula.
    assert_eq!(calls, by_formula(&seed, room, 75));
    let text = crate::common::stdout_of(crate::common::bingomint().args([
        "calls",
        "--game",
        "75",
        "--seed",
        &seed,
        "--room-seed",
        room,
    ]));
    let printed: Vec<u64> = text.lines().skip(1).map(|l| l.parse().unwrap()).collect();
    assert_eq!(printed, calls);
    assert!(
        text.starts_with("# bingomint calls: game 75, seed hall2-"),
        "{text}"
    );
    // Without the room seed the order is another.
    assert_ne!(seed_order("75", &seed, 75), calls);
    drop(hall);
    assert_eq!(verify_log(&log, &cards).0, 0);
    let events: Vec<String> = log_lines(&log)
        .iter()
        .map(|v| v["event"].as_str().unwrap().to_string())
        .collect();
    let room_at = events.iter().position(|e| e == "room_seed").unwrap();
    assert!(room_at < events.iter().position(|e| e == "call").unwrap());
    // A forger who changes the room seed and rewrites every hash: the
    // calls no longer follow.
    let forged = rechain(&log_lines(&log), |v| {
        if v["event"] == "room_seed" {
            v["room_seed"] = json!("someone else");
        }
    });
    std::fs::write(&log, forged).unwrap();
    let (code, out) = verify_log(&log, &cards);
    assert_eq!(code, 1);
    assert!(out.contains("committed order gives"), "{out}");
}

/// The log's lines after `edit`, each `prev` made the hash of the line
/// before, as a forger would.
fn rechain(lines: &[Value], mut edit: impl FnMut(&mut Value)) -> String {
    let mut prev = "0".repeat(64);
    let mut out = String::new();
    for (i, v) in lines.iter().enumerate() {
        let mut v = v.clone();
        edit(&mut v);
        v["seq"] = json!(i + 1);
        v["prev"] = json!(prev);
        let line = serde_json::to_string(&v).unwrap();
        prev = sha256(&line);
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[test]
fn a_game_without_a_room_seed_says_so_and_a_log_of_older_seeds_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let cards = generate(dir.path(), "c.bmc", &["--count", "300", "--seed", "13"]);
    let log = dir.path().join("n.jsonl");
    let hall = start(&[&cards], &log, &[]);
    hall.post("/api/games", json!({"pattern": "line"}));
    for _ in 0..30 {
        hall.post("/api/calls", json!({}));
    }
    assert_eq!(hall.state()["game"]["room_seed"], Value::Null);
    hall.post("/api/claims", json!({"card": "7"}));
    let seed = hall.post("/api/games/end", json!({})).1["seed"]
        .as_str()
        .unwrap()
        .to_string();
    drop(hall);
    let lines = log_lines(&log);
    let room = lines.iter().find(|v| v["event"] == "room_seed").unwrap();
    assert_eq!(
        room["room_seed"],
        Value::Null,
        "the log says the game had none"
    );
    assert_eq!(verify_log(&log, &cards).0, 0);
    assert_eq!(
        lines
            .iter()
            .filter(|v| v["event"] == "call")
            .map(|v| v["ball"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        by_formula(&seed, "", 75)[..30].to_vec()
    );
    // The same night as a hall of the older seed form wrote it: `hall-`
    // and 32 hex digits, the order from the seed's 64-bit hash, no room
    // seed line. It verifies as before.
    let old = "hall-29332128305bd6b404dbfe94c3f49ba0";
    let order = seed_order("75", old, 75);
    let mut call = 0;
    // The claim's verdict was judged on the new order: left out (the older
    // hall's verdict would be its own), as is the room seed's line.
    let kept: Vec<Value> = lines
        .into_iter()
        .filter(|v| v["event"] != "room_seed" && v["event"] != "claim")
        .collect();
    let legacy = rechain(&kept, |v| match v["event"].as_str().unwrap() {
        "game_start" => v["commitment"] = json!(sha256(old)),
        "game_end" => v["seed"] = json!(old),
        "call" => {
            v["ball"] = json!(order[call]);
            call += 1;
        }
        _ => {}
    });
    std::fs::write(&log, legacy).unwrap();
    let (code, out) = verify_log(&log, &cards);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("30 calls match"), "{out}");
}

#[test]
fn the_raw_stream_for_a_lab_is_the_formulas_keystream() {
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("raw.bin");
    let out = crate::common::bingomint()
        .args([
            "audit",
            "--raw",
            "4K",
            "--generator",
            "hall",
            "--seed",
            "lab-1",
            "--out",
        ])
        .arg(&raw)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&raw).unwrap();
    assert_eq!(bytes.len(), 4096);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/live/order.py");
    let python = Command::new("python3")
        .arg(script)
        .args(["--keystream", "lab-1", "4096"])
        .output()
        .unwrap();
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(String::from_utf8(python.stdout).unwrap().trim(), hex);
    // A card file is minted by the other generator: said so, exit 2.
    let cards = generate(dir.path(), "c.bmc", &["--count", "10", "--seed", "1"]);
    let out = crate::common::bingomint()
        .args(["audit", "--raw", "4K", "--generator", "hall", "--out", "-"])
        .arg(&cards)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--generator hall"));
}
