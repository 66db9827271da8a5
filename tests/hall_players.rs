//! Players' phones, from the outside: faces added by number, claims queued
//! for the caller in arrival order and decided, floods held off with 429,
//! unsold faces refused, shared wins on one call, and the HTTP a phone or
//! a hostile client may send (malformed heads, a lying Content-Length,
//! HTTP/1.0, pipelining). Traffic goes to 127.0.0.0/8 only.

use crate::common::generate;
use crate::hall::{http, start, verify_log};
use crate::hall_hostile::connect_from;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::path::Path;
use std::time::Duration;

/// A request from the address `source` (each 127.0.0.x is a client of
/// its own to the hall); the status and the JSON body.
fn from(source: &str, addr: &str, method: &str, path: &str, body: &str) -> (u16, Value) {
    let mut s = connect_from(source, addr);
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    let status = answer[9..12].parse().unwrap();
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

fn bingo(source: &str, addr: &str, card: &str) -> (u16, Value) {
    from(
        source,
        addr,
        "POST",
        "/api/bingo",
        &json!({ "card": card }).to_string(),
    )
}

fn cards(dir: &Path) -> std::path::PathBuf {
    generate(dir, "c.bmc", &["--count", "200", "--seed", "7"])
}

fn queue(hall: &crate::hall::Running) -> Vec<Value> {
    let (status, v) = http(&hall.addr, "GET", "/api/queue", Some(&hall.key), None);
    assert_eq!(status, 200, "{v}");
    v["queue"].as_array().unwrap().clone()
}

#[test]
fn players_claims_wait_in_arrival_order_and_read_their_outcome() {
    let dir = tempfile::tempdir().unwrap();
    let cards = cards(dir.path());
    let log = dir.path().join("n.jsonl");
    let hall = start(&[&cards], &log, &["--sold", "1..100", "--daub", "assist"]);
    let a = hall.addr.clone();
    // No game: nothing to claim.
    let (status, v) = bingo("127.0.0.2", &a, "5");
    assert_eq!(status, 409, "{v}");
    assert!(v["error"].as_str().unwrap().contains("no game is open"));
    hall.post("/api/games", json!({"stages": ["line", "frame"]}));
    for _ in 0..3 {
        hall.post("/api/calls", json!({}));
    }
    // A face as a phone adds it: its numbers and the reference to claim by.
    let (status, face) = from("127.0.0.2", &a, "POST", "/api/faces", r#"{"card": "5"}"#);
    assert_eq!(status, 200, "{face}");
    assert_eq!(face["card"], "5");
    assert_eq!(face["cells"].as_array().unwrap().len(), 25);
    assert!(face["label"].as_str().unwrap().starts_with("card 5 of "));
    assert_eq!(hall.state()["daub"], "assist");
    // Three phones claim; each is told its place, and given the token
    // that reads its claim.
    let (mut tokens, mut ids) = (Vec::new(), Vec::new());
    for (i, (phone, card)) in [("127.0.0.2", "5"), ("127.0.0.3", "9"), ("127.0.0.4", "12")]
        .iter()
        .enumerate()
    {
        let (status, v) = bingo(phone, &a, card);
        assert_eq!(status, 202, "{v}");
        assert_eq!(v["place"], i + 1);
        assert_eq!(v["status"], "waiting");
        tokens.push(v["token"].as_str().unwrap().to_string());
        ids.push(v["id"].as_u64().unwrap());
    }
    // See: hardening round four (anyone read every player's claim by
    // walking the ids). Without its token, or with another's, no answer.
    let first = ids[0];
    for token in [None, Some(tokens[1].as_str())] {
        let (status, v) = http(&a, "GET", &format!("/api/bingo/{first}"), token, None);
        assert_eq!(status, 401, "{v}");
    }
    let (status, v) = http(
        &a,
        "GET",
        &format!("/api/bingo/{first}"),
        Some(&tokens[0]),
        None,
    );
    assert_eq!((status, v["place"].clone()), (200, json!(1)), "{v}");
    // The queue is the caller's: the key, and arrival order, each judged
    // (three calls make no line).
    let (status, _) = http(&a, "GET", "/api/queue", None, None);
    assert_eq!(status, 401);
    let q = queue(&hall);
    let cards_queued: Vec<&str> = q.iter().map(|w| w["card"].as_str().unwrap()).collect();
    assert_eq!(cards_queued, ["5", "9", "12"]);
    assert!(q.iter().all(|w| w["win"] == false && w["call"] == 3));
    assert!(q[0]["reason"].as_str().unwrap().starts_with("not a win"));
    assert_eq!(q[0]["face"]["marked"].as_array().unwrap().len(), 25);
    // The caller rejects the second; the third moves up.
    let id = q[1]["id"].as_u64().unwrap();
    let (status, v) = hall.post("/api/claims", json!({"queued": id, "accept": false}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["queued"], id);
    let (_, s) = http(
        &a,
        "GET",
        &format!("/api/bingo/{id}"),
        Some(&tokens[1]),
        None,
    );
    assert_eq!(s["status"], "rejected");
    assert!(s["reason"].as_str().unwrap().starts_with("not a win"));
    let third = q[2]["id"].as_u64().unwrap();
    assert_eq!(
        http(
            &a,
            "GET",
            &format!("/api/bingo/{third}"),
            Some(&tokens[2]),
            None
        )
        .1["place"],
        2
    );
    // A decided claim is not decided twice; a wrong card is refused.
    let (status, v) = hall.post("/api/claims", json!({"queued": id, "accept": true}));
    assert_eq!(status, 409, "{v}");
    let (status, v) = hall.post("/api/claims", json!({"queued": third, "card": "13"}));
    assert_eq!(status, 400, "{v}");
    // The game ends: what still waits is closed, and the phones read why.
    hall.post("/api/games/end", json!({}));
    let (_, s) = http(
        &a,
        "GET",
        &format!("/api/bingo/{third}"),
        Some(&tokens[2]),
        None,
    );
    assert_eq!(s["status"], "closed");
    assert!(queue(&hall).is_empty());
    let (status, _) = http(&a, "GET", "/api/bingo/999", None, None);
    assert_eq!(status, 404);
    drop(hall);
    // Every queued claim is in the log, and the log verifies.
    let text = std::fs::read_to_string(&log).unwrap();
    assert_eq!(text.matches(r#""event":"queued""#).count(), 3);
    let (code, out) = verify_log(&log, &cards);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn two_players_complete_a_line_on_one_call_and_both_win_it() {
    let dir = tempfile::tempdir().unwrap();
    let cards = cards(dir.path());
    let log = dir.path().join("n.jsonl");
    let hall = start(&[&cards], &log, &[]);
    let a = hall.addr.clone();
    hall.post("/api/games", json!({"stages": ["line", "frame"]}));
    for _ in 0..75 {
        hall.post("/api/calls", json!({}));
    }
    let first = bingo("127.0.0.2", &a, "1").1["id"].as_u64().unwrap();
    let second = bingo("127.0.0.3", &a, "2").1["id"].as_u64().unwrap();
    assert!(queue(&hall).iter().all(|w| w["win"] == true));
    let v = hall
        .post("/api/claims", json!({"queued": first, "accept": true}))
        .1;
    assert_eq!(v["accepted"], true);
    assert_eq!(hall.state()["game"]["stage"], "frame");
    // The second was a line at the same call: it shares the line, and the
    // game stays on the frame.
    let v = hall
        .post("/api/claims", json!({"queued": second, "accept": true}))
        .1;
    assert_eq!(
        (v["accepted"].clone(), v["stage"].clone()),
        (json!(true), json!("line"))
    );
    assert_eq!(hall.state()["game"]["stage"], "frame");
    // The caller's key reads any claim.
    let (_, s) = http(
        &a,
        "GET",
        &format!("/api/bingo/{second}"),
        Some(&hall.key),
        None,
    );
    assert_eq!(s["status"], "accepted");
    drop(hall);
    let text = std::fs::read_to_string(&log).unwrap();
    assert_eq!(text.matches(r#""event":"stage""#).count(), 1, "one move on");
    let (code, out) = verify_log(&log, &cards);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn a_flood_of_claims_is_held_off_and_unsold_faces_cannot_be_added() {
    let dir = tempfile::tempdir().unwrap();
    let cards = cards(dir.path());
    let hall = start(
        &[&cards],
        &dir.path().join("n.jsonl"),
        &["--sold", "1..100"],
    );
    let a = hall.addr.clone();
    hall.post("/api/games", json!({"pattern": "line"}));
    // An unsold face and one not in the file: not added, not claimed.
    let (status, v) = from("127.0.0.2", &a, "POST", "/api/faces", r#"{"card": "150"}"#);
    assert_eq!(status, 409, "{v}");
    assert!(v["error"]
        .as_str()
        .unwrap()
        .contains("card 150 was not sold"));
    let (status, _) = from("127.0.0.2", &a, "POST", "/api/faces", r#"{"card": "5000"}"#);
    assert_eq!(status, 404);
    assert_eq!(bingo("127.0.0.2", &a, "150").0, 409);
    assert_eq!(bingo("127.0.0.2", &a, "5000").0, 404);
    let long = "9".repeat(300);
    assert_eq!(bingo("127.0.0.2", &a, &long).0, 400);
    // Two waiting claims a face; three a phone.
    assert_eq!(bingo("127.0.0.2", &a, "7").0, 202);
    assert_eq!(bingo("127.0.0.3", &a, "7").0, 202);
    let (status, v) = bingo("127.0.0.4", &a, "7");
    assert_eq!(status, 429, "{v}");
    assert!(v["error"]
        .as_str()
        .unwrap()
        .contains("this face already has 2"));
    assert_eq!(bingo("127.0.0.2", &a, "8").0, 202);
    assert_eq!(bingo("127.0.0.2", &a, "9").0, 202);
    let (status, v) = bingo("127.0.0.2", &a, "10");
    assert_eq!(status, 429, "{v}");
    assert!(v["error"]
        .as_str()
        .unwrap()
        .contains("this phone already has 3"));
    // Another phone is not held up by the flood.
    assert_eq!(bingo("127.0.0.5", &a, "10").0, 202);
    assert_eq!(queue(&hall).len(), 5);
}

/// Writes `request` raw and reads until the server closes (or 5 s pass).
fn raw(addr: &str, request: &[u8]) -> String {
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    s.write_all(request).unwrap();
    let mut answer = Vec::new();
    let _ = s.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

#[test]
fn malformed_pipelined_and_old_requests_are_answered_as_http_says() {
    let dir = tempfile::tempdir().unwrap();
    let cards = cards(dir.path());
    let log = dir.path().join("n.jsonl");
    let hall = start(&[&cards], &log, &[]);
    let a = hall.addr.clone();
    hall.post("/api/games", json!({"pattern": "line"}));
    let status = |answer: &str| answer.get(9..12).unwrap_or("").to_string();
    // No version, a header without a colon, two Content-Lengths that
    // disagree (a smuggling attempt): 400, nothing done.
    for bad in [
        "GET /api/state\r\n\r\n".to_string(),
        "GET /api/state HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n".to_string(),
        format!(
            "POST /api/bingo HTTP/1.1\r\nHost: x\r\nContent-Length: 13\r\nContent-Length: 40\r\n\r\n{}",
            r#"{"card": "5"}"#
        ),
    ] {
        let answer = raw(&a, bad.as_bytes());
        assert_eq!(status(&answer), "400", "{bad:?} got {answer:?}");
    }
    // A Content-Length that promises more than comes, then the client
    // stops writing: refused, not taken as a claim.
    let mut s = std::net::TcpStream::connect(&a).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
    s.write_all(
        b"POST /api/bingo HTTP/1.1\r\nHost: x\r\nContent-Length: 400\r\n\r\n{\"card\": \"5\"}",
    )
    .unwrap();
    s.shutdown(std::net::Shutdown::Write).unwrap();
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    assert!(!status(&answer).starts_with('2'), "{answer:?}");
    // A Content-Length that says less than comes: the body is cut there
    // (not JSON: 400) and the rest is read as the next request (400).
    let answer = raw(
        &a,
        b"POST /api/bingo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\n{\"card\": \"5\"}",
    );
    assert_eq!(status(&answer), "400", "{answer:?}");
    assert_eq!(queue(&hall).len(), 0, "no claim was queued by the lies");
    // HTTP/1.0: answered, and the connection closed after it.
    let answer = raw(&a, b"GET /api/state HTTP/1.0\r\n\r\n");
    assert!(
        answer.starts_with("HTTP/1.") && status(&answer) == "200",
        "{answer:?}"
    );
    // Pipelining: two requests in one write, two answers in order.
    let answer = raw(
        &a,
        b"GET /api/state HTTP/1.1\r\nHost: x\r\n\r\nGET /api/bingo/77 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    let statuses: Vec<&str> = answer
        .match_indices("HTTP/1.1 ")
        .map(|(i, _)| &answer[i + 9..i + 12])
        .collect();
    assert_eq!(statuses, ["200", "404"], "{answer:?}");
    // And the hall still answers.
    assert_eq!(http(&a, "GET", "/api/state", None, None).0, 200);
}

#[test]
fn claims_waiting_when_the_hall_stops_wait_on_when_it_starts_again() {
    let dir = tempfile::tempdir().unwrap();
    let cards = cards(dir.path());
    let log = dir.path().join("n.jsonl");
    let hall = start(&[&cards], &log, &[]);
    hall.post("/api/games", json!({"pattern": "line"}));
    for _ in 0..75 {
        hall.post("/api/calls", json!({}));
    }
    let id = bingo("127.0.0.2", &hall.addr, "30").1["id"]
        .as_u64()
        .unwrap();
    // The second phone's token still reads its claim after the restart.
    let token = bingo("127.0.0.3", &hall.addr, "31").1["token"]
        .as_str()
        .unwrap()
        .to_string();
    drop(hall);
    let hall = start(&[&cards], &log, &[]);
    let q = queue(&hall);
    assert_eq!(q.len(), 2);
    assert_eq!(
        (q[0]["id"].as_u64(), q[0]["win"].clone()),
        (Some(id), json!(true))
    );
    assert_eq!(
        q[0]["face"]["marked"].as_array().unwrap().len(),
        25,
        "its face drawn again"
    );
    assert!(q[0]["label"].as_str().unwrap().starts_with("card 30 of "));
    // Numbering goes on from the log.
    let next = bingo("127.0.0.4", &hall.addr, "32").1["id"]
        .as_u64()
        .unwrap();
    assert_eq!(next, id + 2);
    let v = hall
        .post("/api/claims", json!({"queued": id, "accept": true}))
        .1;
    assert_eq!(v["accepted"], true);
    let (_, s) = http(
        &hall.addr,
        "GET",
        &format!("/api/bingo/{}", id + 1),
        Some(&token),
        None,
    );
    assert_eq!(s["status"], "closed", "the win ended the game: {s}");
    drop(hall);
    let (code, out) = verify_log(&log, &cards);
    assert_eq!(code, 0, "{out}");
}
