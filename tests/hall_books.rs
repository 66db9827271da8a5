//! `hall verify` never panics: real logs the hall wrote (recalls, a
//! player's claim closed by a recall, a payout, a blower's game and a
//! game of the hall's own calls), mutated thousands of ways with a fixed
//! seed (a line dropped, doubled or moved; a number or a text of a field
//! changed to an edge; the chain written again as a forger would) and
//! verified in-process. Each mutation must give a verdict, OK or a finding
//! naming a line, never a panic. A bounded run of what
//! `fuzz/fuzz_targets/hall_verify.rs` does without a bound.

use crate::common::generate;
use crate::hall::{http, sha256, start};
use bingomint::cardfile::CardFile;
use bingomint::hall::judge::Cards;
use bingomint::hall::verify::verify;
use serde_json::{json, Value};
use std::path::Path;

/// A night on blower balls with a recall under a queued claim, a payout,
/// a second game of the hall's own calls; the log's lines.
fn a_night(dir: &Path, cards: &Path) -> Vec<Value> {
    let log = dir.join("n.jsonl");
    let night = dir.join("night.toml");
    std::fs::write(
        &night,
        "title = \"t\"\ncurrency = \"£\"\n[[game]]\nname = \"L\"\nstages = [\"line\", \"coverall\"]\nprize = [\"10.00\", \"20,50\"]\n",
    )
    .unwrap();
    let hall = start(
        &[cards],
        &log,
        &["--night", night.to_str().unwrap(), "--balls", "blower"],
    );
    hall.post("/api/games", json!({}));
    let (_, face) = hall.post("/api/faces", json!({"card": "3"}));
    let cells: Vec<u8> = (face["cells"].as_array().unwrap().iter())
        .map(|n| n.as_u64().unwrap() as u8)
        .collect();
    for &b in &cells[..5] {
        hall.post("/api/calls", json!({ "ball": b }));
    }
    hall.post("/api/bingo", json!({"card": "3"}));
    http(
        &hall.addr,
        "DELETE",
        "/api/calls/last",
        Some(&hall.key),
        Some("{}"),
    );
    hall.post("/api/calls", json!({ "ball": cells[4] }));
    hall.post("/api/claims", json!({"card": "3", "accept": true}));
    hall.post("/api/bingo", json!({"card": "4"}));
    hall.post("/api/games/end", json!({}));
    drop(hall);
    let log2 = dir.join("m.jsonl");
    let hall = start(&[cards], &log2, &[]);
    hall.post("/api/games", json!({"pattern": "line", "prize": "x"}));
    hall.post("/api/games/room-seed", json!({"room_seed": "table 4"}));
    for _ in 0..20 {
        hall.post("/api/calls", json!({}));
    }
    for card in 1..=30 {
        hall.post(
            "/api/claims",
            json!({"card": card.to_string(), "accept": true}),
        );
    }
    hall.post("/api/games/end", json!({}));
    drop(hall);
    let read = |p: &Path| -> Vec<Value> {
        (std::fs::read_to_string(p).unwrap().lines())
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let mut lines = read(&log);
    lines.extend(read(&log2).into_iter().skip(1));
    lines
}

/// xorshift64*: the test's own fixed stream of choices.
struct Choices(u64);

impl Choices {
    fn next(&mut self, below: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % below.max(1)
    }
}

/// The values a forger tries in a field.
fn edge(c: &mut Choices) -> Value {
    let edges = [
        json!(0),
        json!(1),
        json!(4),
        json!(5),
        json!(74),
        json!(75),
        json!(76),
        json!(255),
        json!(256),
        json!(-1),
        json!(u64::MAX),
        json!(""),
        json!("line"),
        json!("coverall"),
        json!(null),
        json!(true),
        json!([u64::MAX, 1]),
        json!({}),
    ];
    edges[c.next(edges.len())].clone()
}

/// One mutation of `lines`.
fn mutate(lines: &[Value], c: &mut Choices) -> Vec<Value> {
    let mut out = lines.to_vec();
    let at = c.next(out.len());
    match c.next(5) {
        0 => {
            out.remove(at);
        }
        1 => {
            let line = out[at].clone();
            out.insert(c.next(out.len()), line);
        }
        2 => {
            let to = c.next(out.len());
            out.swap(at, to);
        }
        _ => {
            if let Some(fields) = out[at].as_object_mut() {
                let keys: Vec<String> = fields
                    .keys()
                    .filter(|k| !["prev", "seq", "time"].contains(&k.as_str()))
                    .cloned()
                    .collect();
                if !keys.is_empty() {
                    let key = &keys[c.next(keys.len())];
                    match fields.get_mut(key) {
                        Some(Value::Object(inner)) if !inner.is_empty() => {
                            let k = inner.keys().nth(c.next(inner.len())).unwrap().clone();
                            inner.insert(k, edge(c));
                        }
                        Some(Value::Array(list)) if !list.is_empty() => {
                            let i = c.next(list.len());
                            list[i] = edge(c);
                        }
                        Some(v) => *v = edge(c),
                        None => {}
                    }
                }
            }
        }
    }
    out
}

/// `lines` as a log whose chain holds, numbered again.
fn chained(lines: &[Value]) -> String {
    let mut prev = "0".repeat(64);
    let mut text = String::new();
    for (i, v) in lines.iter().enumerate() {
        let mut v = v.clone();
        v["seq"] = json!(i + 1);
        v["prev"] = json!(prev);
        let line = serde_json::to_string(&v).unwrap();
        prev = sha256(&line);
        text += &line;
        text.push('\n');
    }
    text
}

#[test]
fn hall_verify_never_panics_on_thousands_of_forged_logs() {
    let dir = tempfile::tempdir().unwrap();
    let cards = generate(dir.path(), "c.bmc", &["--count", "60", "--seed", "books"]);
    let lines = a_night(dir.path(), &cards);
    let mut files = Cards::new(vec![CardFile::open(&cards).unwrap()], None);
    assert!(
        verify(&chained(&lines), &mut files).is_ok(),
        "the real log verifies"
    );
    let (ok, found) = forge(&lines, &mut files, 0x9E37_79B9_7F4A_7C15, 3_000, true);
    // Most edits are caught; some (a payout's reason text, a time) are not
    // money and verify OK.
    assert!(found > ok, "{found} found, {ok} verified");
}

/// A night of sales on the same 60 cards: books sold, one returned, a sale
/// voided, a prize from sales, a progressive jackpot (its ledger apart).
fn a_sales_night(dir: &Path, cards: &Path) -> Vec<Value> {
    let log = dir.join("s.jsonl");
    let night = dir.join("sales.toml");
    std::fs::write(
        &night,
        "title = \"t\"\ncurrency = \"£\"\n[[product]]\nname = \"book\"\nprice = \"6.00\"\nfaces = 6\n[[product]]\nname = \"single\"\nprice = \"1.00\"\ngames = [\"S\"]\n[[progressive]]\nname = \"S\"\nseed = \"50.00\"\nincrement = \"5.00\"\nshare = \"10%\"\nwithin = 40\n[[game]]\nname = \"L\"\npattern = \"line\"\nprize = { share = \"50%\", min = \"2.00\" }\n[[game]]\nname = \"S\"\npattern = \"coverall\"\njackpot = { progressive = \"S\", consolation = \"5.00\" }\n",
    )
    .unwrap();
    let ledger = dir.join("jackpots.jsonl");
    let args = [
        "--night",
        night.to_str().unwrap(),
        "--balls",
        "blower",
        "--jackpots",
        ledger.to_str().unwrap(),
    ];
    let hall = start(&[cards], &log, &args);
    let sell = |path: &str, product: &str, first: u64, last: u64| {
        hall.post(
            path,
            json!({"product": product, "first": first, "last": last}),
        )
    };
    sell("/api/sales", "book", 1, 30);
    sell("/api/sales", "single", 31, 40);
    sell("/api/sales", "book", 43, 48);
    sell("/api/sales/return", "book", 25, 30);
    hall.post("/api/sales/void", json!({"sale": 3, "reason": "twice"}));
    hall.post("/api/attendance", json!({"count": 12}));
    for game in 0..2 {
        hall.post("/api/games", json!({}));
        let card = if game == 0 { "3" } else { "33" };
        let (_, face) = hall.post("/api/faces", json!({ "card": card }));
        let cells: Vec<u8> = (face["cells"].as_array().unwrap().iter())
            .map(|n| n.as_u64().unwrap() as u8)
            .filter(|&n| n > 0)
            .collect();
        let upto = if game == 0 { 5 } else { cells.len() };
        for &b in &cells[..upto] {
            hall.post("/api/calls", json!({ "ball": b }));
        }
        hall.post("/api/claims", json!({"card": card, "accept": true}));
    }
    // See: issue 65, item 6: the jackpot game's payout is not taken back
    // once the ledger carried its outcome on.
    let (status, v) = hall.post("/api/payouts/void", json!({"reason": "misread"}));
    assert_eq!(status, 409, "{v}");
    let said = v["error"].as_str().unwrap();
    assert!(said.contains("played progressive jackpot \"S\""), "{v}");
    drop(hall);
    (std::fs::read_to_string(&log).unwrap().lines())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn hall_verify_never_panics_on_forged_nights_of_sales() {
    let dir = tempfile::tempdir().unwrap();
    let cards = generate(dir.path(), "c.bmc", &["--count", "60", "--seed", "books"]);
    let lines = a_sales_night(dir.path(), &cards);
    assert!(
        lines.iter().any(|l| l["event"] == "sale_void"),
        "the night sold"
    );
    assert!(
        lines.iter().any(|l| l["kind"] == "jackpot"),
        "the jackpot was won"
    );
    let mut files = Cards::new(vec![CardFile::open(&cards).unwrap()], None);
    let summary = verify(&chained(&lines), &mut files).expect("the real log verifies");
    assert_eq!(summary.outcomes.len(), 1);
    let (ok, found) = forge(&lines, &mut files, 0xD1B5_4A32_D192_ED03, 2_000, false);
    assert!(found > ok, "{found} found, {ok} verified");
}

/// `rounds` forgeries of the log `lines` (one edit each, sometimes two when
/// `twice`), each chained again and given to `hall verify`, which must not
/// panic and must say what it found; how many verified and how many were
/// found out.
fn forge(lines: &[Value], files: &mut Cards, seed: u64, rounds: u32, twice: bool) -> (u32, u32) {
    let mut c = Choices(seed);
    let (mut ok, mut found) = (0, 0);
    for round in 0..rounds {
        let mut forged = mutate(lines, &mut c);
        if twice && c.next(3) == 0 {
            forged = mutate(&forged, &mut c);
        }
        let text = chained(&forged);
        files.sold = None;
        let verdict =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| verify(&text, files)));
        match verdict {
            Ok(Ok(_)) => ok += 1,
            Ok(Err(f)) => {
                assert!(!f.what.is_empty(), "round {round}: a finding says what");
                found += 1;
            }
            Err(_) => panic!("round {round}: hall verify panicked on:\n{text}"),
        }
    }
    (ok, found)
}
