//! Electronic paper over HTTP: packs issued at the console from the faces
//! the night keeps for electronic play, loaded onto two phones with their
//! one-time codes (one refused past the night's cap of faces a device a
//! game, a code refused the second time, a voided pack refused), claims
//! that name the pack (and are refused from another device), a win paid;
//! then the log's `pack` lines, each phone's receipts and `hall report`
//! agree on every transaction, and `hall verify` names a forged one.

use crate::common::{bingomint, generate};
use crate::hall::{http, sha256, start, Running};
use serde_json::{json, Value};
use std::path::Path;

pub(crate) const NIGHT: &str = r#"
title = "Electronic Tuesday"
currency = "$"
languages = ["en", "es"]

[[product]]
name = "Book 6"
price = "6.00"
faces = 6

[[product]]
name = "E-pack 36"
price = "10.00"
faces = 36
electronic = true

[electronic]
faces = "217..400"
cap = 36
one_device = true

[[game]]
name = "Line"
pattern = "line"
prize = "20.00"

[[game]]
name = "Full house"
pattern = "coverall"
prize = "50.00"
"#;

pub(crate) const PHONE_A: &str = "0123456789abcdef0123456789abcdef";
pub(crate) const PHONE_B: &str = "fedcba9876543210fedcba9876543210";

/// A player's request (no key).
pub(crate) fn player(hall: &Running, path: &str, body: Value) -> (u16, Value) {
    http(&hall.addr, "POST", path, None, Some(&body.to_string()))
}

/// A hall of 400 cards playing the night above, balls from a blower.
pub(crate) fn open(dir: &Path, more: &[&str]) -> (Running, std::path::PathBuf) {
    let night = dir.join("night.toml");
    std::fs::write(&night, NIGHT).unwrap();
    let cards = generate(dir, "c.bmc", &["--count", "400", "--seed", "packs"]);
    let mut extra = vec!["--night", night.to_str().unwrap(), "--balls", "blower"];
    extra.extend(more);
    (start(&[&cards], &dir.join("night.jsonl"), &extra), cards)
}

/// Issues a pack of "E-pack 36": its number and code.
pub(crate) fn issue(hall: &Running) -> (u64, String) {
    let (status, v) = hall.post("/api/sales", json!({"product": "E-pack 36"}));
    assert_eq!(status, 201, "{v}");
    let pack = &v["pack"];
    assert!(pack["url"]
        .as_str()
        .unwrap()
        .ends_with(pack["code"].as_str().unwrap()));
    assert!(!pack["qr"].as_array().unwrap().is_empty(), "{v}");
    (
        pack["pack"].as_u64().unwrap(),
        pack["code"].as_str().unwrap().to_string(),
    )
}

#[test]
fn packs_sold_to_two_phones_agree_in_the_log_the_receipts_and_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let (hall, cards) = open(dir.path(), &["--daub", "ontario"]);
    // Ontario's rule: the player marks every ball (manual), said so.
    let state = hall.state();
    assert_eq!(state["daub"], "manual");
    assert!(
        state["daub_rule"]
            .as_str()
            .unwrap()
            .starts_with("Ontario: every ball is acknowledged"),
        "{state}"
    );
    // Paper sells outside the faces kept; never from them.
    let (status, v) = hall.post(
        "/api/sales",
        json!({"product": "Book 6", "first": 1, "last": 6}),
    );
    assert_eq!(status, 201, "{v}");
    let (status, v) = hall.post(
        "/api/sales",
        json!({"product": "Book 6", "first": 217, "last": 222}),
    );
    assert_eq!(status, 400, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("kept for electronic play (217..400)"),
        "{v}"
    );
    // A pack is the next from the faces kept, not a range the seller picks.
    let (status, v) = hall.post(
        "/api/sales",
        json!({"product": "E-pack 36", "first": 289, "last": 324}),
    );
    assert_eq!(status, 409, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("the next is 217..252"),
        "{v}"
    );
    let (one, code_one) = issue(&hall);
    let (two, code_two) = issue(&hall);
    let (three, code_three) = issue(&hall);
    assert_eq!((one, two, three), (2, 3, 4));
    let (status, v) = hall.post(
        "/api/sales/void",
        json!({"sale": three, "reason": "bought by mistake"}),
    );
    assert_eq!(status, 201, "{v}");

    // Phone A opens pack 2; pack 3 would pass its cap; phone B takes it.
    let (status, a) = player(
        &hall,
        "/api/packs/load",
        json!({"code": code_one, "device": PHONE_A}),
    );
    assert_eq!(status, 201, "{a}");
    assert_eq!(a["faces"].as_array().unwrap().len(), 36);
    assert_eq!(
        (a["first"].as_u64(), a["last"].as_u64()),
        (Some(217), Some(252))
    );
    let (status, v) = player(
        &hall,
        "/api/packs/load",
        json!({"code": code_two, "device": PHONE_A}),
    );
    assert_eq!(status, 409, "{v}");
    let why = v["error"].as_str().unwrap();
    assert!(
        why.contains("this device holds 36 faces for game 1 (pack 2)") && why.contains("cap of 36"),
        "{why}"
    );
    let (status, b) = player(
        &hall,
        "/api/packs/load",
        json!({"code": code_two.to_lowercase(), "device": PHONE_B}),
    );
    assert_eq!(status, 201, "{b}");
    // A code loads once; a voided pack, never; a made-up code names nothing.
    let (status, v) = player(
        &hall,
        "/api/packs/load",
        json!({"code": code_one, "device": PHONE_B}),
    );
    assert_eq!(status, 409, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("loaded on a device already"),
        "{v}"
    );
    let (status, v) = player(
        &hall,
        "/api/packs/load",
        json!({"code": code_three, "device": PHONE_B}),
    );
    assert_eq!(status, 409, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("voided and refunded"),
        "{v}"
    );
    let forged = format!("{}-0000000000", one);
    let (status, _) = player(
        &hall,
        "/api/packs/load",
        json!({"code": forged, "device": PHONE_B}),
    );
    assert_eq!(status, 404);
    // A pack's face is not added by its number, as paper is.
    let (status, v) = player(&hall, "/api/faces", json!({"card": "217"}));
    assert_eq!(status, 409, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("electronic pack 2"),
        "{v}"
    );

    // Game 1: the blower calls face 217's top line.
    let (status, v) = hall.post("/api/games", json!({}));
    assert_eq!(status, 201, "{v}");
    let face = &a["faces"][0];
    assert_eq!(face["card"], "217");
    let cells: Vec<u64> = face["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    for &ball in cells[..5].iter().filter(|&&n| n > 0) {
        let (status, v) = hall.post("/api/calls", json!({"ball": ball}));
        assert_eq!(status, 201, "{v}");
    }
    // Phone B cannot claim pack 2's face; phone A's claim names the pack.
    let (status, v) = player(
        &hall,
        "/api/bingo",
        json!({"card": "217", "device": PHONE_B}),
    );
    assert_eq!(status, 409, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("claim from that device"),
        "{v}"
    );
    let (status, v) = player(
        &hall,
        "/api/bingo",
        json!({"card": "217", "device": PHONE_A}),
    );
    assert_eq!(status, 202, "{v}");
    let id = v["id"].as_u64().unwrap();
    let (status, v) = hall.post("/api/claims", json!({"queued": id, "accept": true}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["accepted"], true, "{v}");
    // Phone B plays on: its own pack's face is its to claim.
    let (status, v) = player(
        &hall,
        "/api/bingo",
        json!({"card": "253", "device": PHONE_B}),
    );
    assert!(status == 202 || status == 409, "{status} {v}");
    let (_, state) = http(&hall.addr, "GET", "/api/state", None, None);
    assert_eq!(state["languages"], json!(["en", "es"]), "{state}");

    // The receipts, as each phone reads them.
    let (status, mine_a) = player(&hall, "/api/packs", json!({"device": PHONE_A}));
    assert_eq!(status, 200, "{mine_a}");
    let (_, mine_b) = player(&hall, "/api/packs", json!({"device": PHONE_B}));
    let log = std::fs::read_to_string(dir.path().join("night.jsonl")).unwrap();
    drop(hall);

    // The log's transactions: issue 2, 3, 4; void 4; load 2 on A, 3 on B.
    let lines: Vec<Value> = (log.lines())
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|l| l["event"] == "pack")
        .collect();
    let said: Vec<(u64, &str, u64, u64)> = (lines.iter())
        .map(|l| {
            (
                l["txn"].as_u64().unwrap(),
                l["action"].as_str().unwrap(),
                l["pack"].as_u64().unwrap(),
                l["amount"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        said,
        [
            (1, "issue", 2, 1000),
            (2, "issue", 3, 1000),
            (3, "issue", 4, 1000),
            (4, "void", 4, 1000),
            (5, "load", 2, 0),
            (6, "load", 3, 0)
        ]
    );
    let queued = log
        .lines()
        .find(|l| l.contains(r#""event":"queued""#))
        .unwrap();
    assert!(queued.contains(r#""pack":2"#), "{queued}");

    // Each receipt line is the log's line: number, time, faces, device.
    let receipts: Vec<&Value> = [&mine_a, &mine_b]
        .iter()
        .flat_map(|m| m["packs"].as_array().unwrap())
        .flat_map(|p| p["receipt"].as_array().unwrap())
        .collect();
    assert_eq!(receipts.len(), 4, "{mine_a} {mine_b}");
    for r in &receipts {
        let l = lines.iter().find(|l| l["txn"] == r["txn"]).unwrap();
        let time = log
            .lines()
            .find(|raw| raw.contains(&format!(r#""txn":{},"#, l["txn"])))
            .unwrap();
        assert!(
            time.contains(&format!(r#""time":"{}""#, r["time"].as_str().unwrap())),
            "{r} {time}"
        );
        assert_eq!(r["faces"], format!("{}..{}", l["first"], l["last"]));
        assert_eq!(r["device"], l["device"]);
    }
    assert_eq!(receipts[0]["amount"], "$10.00");

    // `hall verify` holds the lines; the report lists every one.
    let out = bingomint()
        .args(["hall", "verify"])
        .arg(dir.path().join("night.jsonl"))
        .arg("--cards")
        .arg(&cards)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = dir.path().join("r.json");
    let out = bingomint()
        .args(["hall", "report"])
        .arg(dir.path().join("night.jsonl"))
        .arg("--cards")
        .arg(&cards)
        .arg("--out")
        .arg(&report)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let sales = r["money"]["electronic_sales"].as_array().unwrap();
    assert_eq!(sales.len(), 6);
    for (s, l) in sales.iter().zip(&lines) {
        for field in [
            "txn", "action", "pack", "product", "first", "last", "amount",
        ] {
            assert_eq!(s[field], l[field], "{field}: {s} {l}");
        }
        assert_eq!(s.get("device"), l.get("device"));
    }
    for r in &receipts {
        let s = sales.iter().find(|s| s["txn"] == r["txn"]).unwrap();
        assert_eq!(s["time"], r["time"]);
    }
    // Two packs sold, one voided and refunded: $20.00 electronic.
    assert_eq!(r["money"]["electronic"], 2000, "{}", r["money"]);

    // A load line moved to another device is found out.
    let forged = log.replacen(
        &format!(r#""device":"{}""#, lines[5]["device"].as_str().unwrap()),
        &format!(r#""device":"{}""#, lines[4]["device"].as_str().unwrap()),
        1,
    );
    let forged = rechain(&forged);
    std::fs::write(dir.path().join("forged.jsonl"), forged).unwrap();
    let out = bingomint()
        .args(["hall", "verify"])
        .arg(dir.path().join("forged.jsonl"))
        .arg("--cards")
        .arg(&cards)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let said =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("a load the hall would have refused") && said.contains("cap of 36"),
        "{said}"
    );
}

#[test]
fn a_night_file_s_electronic_rules_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            NIGHT.replace("faces = \"217..400\"", "faces = \"400..217\""),
            "electronic.faces",
        ),
        (NIGHT.replace("cap = 36", "cap = 24"), "past the cap of 24"),
        (
            NIGHT.replace("electronic = true", ""),
            "no [[product]] is electronic",
        ),
        (
            NIGHT.replace("[\"en\", \"es\"]", "[\"english\"]"),
            "not a language tag",
        ),
    ];
    let cards = generate(dir.path(), "c.bmc", &["--count", "40", "--seed", "n"]);
    for (text, said) in cases {
        let night = dir.path().join("n.toml");
        std::fs::write(&night, text).unwrap();
        let out = bingomint()
            .args(["hall", "--listen", "127.0.0.1:0", "--cards"])
            .arg(&cards)
            .arg("--night")
            .arg(&night)
            .arg("--log")
            .arg(dir.path().join("x.jsonl"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{said}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(said), "{said}: {err}");
    }
}

/// `text`'s lines, each `prev` made the hash of the line before, as a
/// forger would.
fn rechain(text: &str) -> String {
    let mut prev = "0".repeat(64);
    let mut out = String::new();
    for raw in text.lines() {
        let mut v: Value = serde_json::from_str(raw).unwrap();
        v["prev"] = json!(prev);
        let line = serde_json::to_string(&v).unwrap();
        prev = sha256(&line);
        out.push_str(&line);
        out.push('\n');
    }
    out
}
