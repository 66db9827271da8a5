//! The session's money, over HTTP: paper sold by serial range (refusals
//! named), a pack returned, a sale voided, a prize that is half the
//! game's sales with a minimum, and a progressive jackpot carried from
//! night one (not won within its calls) to night two (won); then `hall
//! verify` across both logs and the ledger, the report's totals against
//! sums taken here from the log's lines, and forgeries it catches.

use crate::common::{bingomint, generate};
use crate::hall::{sha256, start, Running};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

pub(crate) const NIGHT: &str = r#"
title = "Saturday session"
currency = "$"

[[product]]
name = "Session book"
price = "12.00"
faces = 6
games = "all"
paper = "blue"

[[product]]
name = "Snowball single"
price = "2.00"
faces = 1
games = ["Snowball"]
paper = "red"

[[product]]
name = "Electronic 12"
price = "15.00"
faces = 12
games = "all"
electronic = true

[[progressive]]
name = "Snowball"
seed = "500.00"
increment = "50.00"
share = "10%"
within = 30
add_calls = 2
ceiling = "2000.00"

[[game]]
name = "Early bird"
pattern = "line"
prize = { share = "50%", min = "20.00", max = "500.00" }

[[game]]
name = "Snowball"
pattern = "coverall"
jackpot = { progressive = "Snowball", consolation = "100.00" }
"#;

pub(crate) struct Night {
    pub(crate) dir: PathBuf,
    pub(crate) cards: PathBuf,
    pub(crate) ledger: PathBuf,
    pub(crate) night: PathBuf,
}

impl Night {
    pub(crate) fn new(dir: &Path) -> Night {
        let night = dir.join("session.toml");
        std::fs::write(&night, NIGHT).unwrap();
        Night {
            dir: dir.to_path_buf(),
            cards: generate(dir, "c.bmc", &["--count", "200", "--seed", "money"]),
            ledger: dir.join("jackpots.jsonl"),
            night,
        }
    }

    pub(crate) fn open(&self, log: &str) -> Running {
        let (night, ledger) = (self.night.to_str().unwrap(), self.ledger.to_str().unwrap());
        let extra = ["--night", night, "--balls", "blower", "--jackpots", ledger];
        start(&[&self.cards], &self.dir.join(log), &extra)
    }

    pub(crate) fn verify(&self, logs: &[&str], ledger: Option<&Path>) -> (i32, String) {
        let mut cmd = bingomint();
        cmd.args(["hall", "verify"]);
        for l in logs {
            cmd.arg(self.dir.join(l));
        }
        cmd.arg("--cards").arg(&self.cards);
        if let Some(l) = ledger {
            cmd.arg("--jackpots").arg(l);
        }
        let out = cmd.output().unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    }
}

/// Face `card`'s numbers (not the free centre).
pub(crate) fn numbers(hall: &Running, card: &str) -> Vec<u8> {
    let (status, v) = hall.post("/api/faces", json!({ "card": card }));
    assert_eq!(status, 200, "{v}");
    (v["cells"].as_array().unwrap().iter())
        .map(|n| n.as_u64().unwrap() as u8)
        .filter(|&n| n > 0)
        .collect()
}

pub(crate) fn key_in(hall: &Running, balls: &[u8]) {
    for &b in balls {
        let (status, v) = hall.post("/api/calls", json!({ "ball": b }));
        assert_eq!(status, 201, "ball {b}: {v}");
    }
}

pub(crate) fn sell(
    hall: &Running,
    path: &str,
    product: &str,
    first: u64,
    last: u64,
) -> (u16, Value) {
    hall.post(
        path,
        json!({ "product": product, "first": first, "last": last }),
    )
}

pub(crate) fn lines(log: &Path) -> Vec<Value> {
    (std::fs::read_to_string(log).unwrap().lines())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Rewrites a chained file with `edit` applied, every hash chained again.
pub(crate) fn forge(from: &Path, to: &Path, edit: impl Fn(&mut Value)) {
    let mut prev = "0".repeat(64);
    let mut out = String::new();
    for mut v in lines(from) {
        edit(&mut v);
        v["prev"] = json!(prev);
        let line = serde_json::to_string(&v).unwrap();
        prev = sha256(&line);
        out += &line;
        out.push('\n');
    }
    std::fs::write(to, out).unwrap();
}

/// Plays the night's two games: the early bird won on face 1's top row,
/// the snowball's full house on face 101 after `before` other balls.
pub(crate) fn play(hall: &Running, before: usize) -> (Value, Value) {
    let (status, v) = hall.post("/api/games", json!({}));
    assert_eq!(status, 201, "{v}");
    let row: Vec<u8> = numbers(hall, "1")[..5].to_vec();
    key_in(hall, &row);
    let (status, early) = hall.post("/api/claims", json!({ "card": "1", "accept": true }));
    assert_eq!(status, 200, "{early} {:?}", hall.state()["game"]);
    // The last prize paid ends the game.
    assert_eq!(hall.state()["game"], Value::Null);
    let (status, v) = hall.post("/api/games", json!({}));
    assert_eq!(status, 201, "{v}");
    let full = numbers(hall, "101");
    let others: Vec<u8> = (1..=75)
        .filter(|b| !full.contains(b))
        .take(before)
        .collect();
    key_in(hall, &others);
    key_in(hall, &full);
    let (status, snow) = hall.post("/api/claims", json!({ "card": "101", "accept": true }));
    assert_eq!(status, 200, "{snow}");
    // The last prize paid ends the game.
    assert_eq!(hall.state()["game"], Value::Null);
    (early, snow)
}

/// The log's payouts: (game, kind, amount).
pub(crate) fn payouts(log: &Path) -> Vec<(u64, String, u64)> {
    (lines(log).iter())
        .filter(|l| l["event"] == "payout")
        .map(|l| {
            (
                l["game"].as_u64().unwrap(),
                l["kind"].as_str().unwrap_or("").to_string(),
                l["amount"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn a_session_s_money_is_sold_paid_carried_and_verified_across_two_nights() {
    let dir = tempfile::tempdir().unwrap();
    let n = Night::new(dir.path());

    // Night one: sales by serial range, with what the console refuses.
    let hall = n.open("n1.jsonl");
    assert_eq!(sell(&hall, "/api/sales", "Session book", 1, 60).0, 201);
    let (status, v) = sell(&hall, "/api/sales", "Session book", 61, 65);
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("give 61..66"), "{v}");
    let (status, v) = sell(&hall, "/api/sales", "Session book", 55, 66);
    assert_eq!(status, 409, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("sold already (sale 1"),
        "{v}"
    );
    let (status, v) = sell(&hall, "/api/sales", "Raffle", 1, 1);
    assert_eq!(status, 404, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("\"Session book\""),
        "{v}"
    );
    assert_eq!(
        sell(&hall, "/api/sales", "Snowball single", 101, 140).0,
        201
    );
    assert_eq!(sell(&hall, "/api/sales", "Electronic 12", 145, 168).0, 201);
    // Two books came back unsold; the electronic sale was keyed by mistake.
    assert_eq!(
        sell(&hall, "/api/sales/return", "Session book", 49, 60).0,
        201
    );
    let (status, v) = sell(&hall, "/api/sales/return", "Session book", 49, 54);
    assert_eq!(status, 409, "a return twice: {v}");
    let (status, v) = hall.post(
        "/api/sales/void",
        json!({ "sale": 3, "reason": "keyed the wrong pack" }),
    );
    assert_eq!(status, 201, "{v}");
    assert_eq!(hall.post("/api/attendance", json!({ "count": 41 })).0, 201);
    let (status, sales) = crate::hall::http(&hall.addr, "GET", "/api/sales", Some(&hall.key), None);
    assert_eq!(status, 200);
    // 8 books at 12.00 and 40 singles at 2.00; the void takes nothing.
    assert_eq!(sales["sales"]["net"], 9600 + 8000, "{sales}");
    assert_eq!(sales["sales"]["paper"], 17600);
    assert_eq!(sales["sales"]["electronic"], 0);
    assert_eq!(
        crate::hall::http(&hall.addr, "GET", "/api/sales", None, None).0,
        401,
        "sales are the caller's"
    );
    let (early, snow) = play(&hall, 10);
    // Early bird: half of its sales (the books' 96.00 over two games).
    assert_eq!(early["payout"]["shares"][0], "$24.00", "{early}");
    // Snowball at call 34, past its 30 calls: the consolation; the pot
    // offered was 500.00 + 10% of its sales (48.00 + 80.00).
    assert_eq!(snow["payout"]["kind"], "consolation", "{snow}");
    // Every game the book plays has started: no late sale is left.
    let sold_late = sell(&hall, "/api/sales", "Session book", 67, 72);
    assert_eq!(sold_late.0, 409, "{}", sold_late.1);
    assert!(
        sold_late.1.to_string().contains("every game"),
        "{}",
        sold_late.1
    );
    drop(hall);
    let n1 = lines(&n.dir.join("n1.jsonl"));
    let start2 = n1
        .iter()
        .find(|l| l["event"] == "game_start" && l["game"] == 2)
        .unwrap();
    assert_eq!(start2["rules"]["jackpot"]["prize"], 51280, "{start2}");
    let ledger = lines(&n.ledger);
    let last = ledger.last().unwrap();
    assert_eq!(last["event"], "jackpot_night");
    assert_eq!(
        (last["pot"].as_u64(), last["within"].as_u64()),
        (Some(56280), Some(32))
    );

    // Night two: fewer books, so the early bird's minimum pays; the
    // snowball, within its 32 calls now, wins the pot carried.
    let hall = n.open("n2.jsonl");
    assert_eq!(sell(&hall, "/api/sales", "Session book", 1, 12).0, 201);
    assert_eq!(
        sell(&hall, "/api/sales", "Snowball single", 101, 110).0,
        201
    );
    let (early, snow) = play(&hall, 0);
    assert_eq!(early["payout"]["shares"][0], "$20.00", "{early}");
    assert_eq!(snow["payout"]["kind"], "jackpot", "{snow}");
    drop(hall);
    // 562.80 carried + 10% of (12.00 + 20.00).
    let n2 = n.dir.join("n2.jsonl");
    assert!(
        payouts(&n2).contains(&(2, "jackpot".into(), 56600)),
        "{:?}",
        payouts(&n2)
    );
    let last = lines(&n.ledger).pop().unwrap();
    assert_eq!(
        (last["outcome"]["won"].as_bool(), last["pot"].as_u64()),
        (Some(true), Some(50000))
    );

    let (code, out) = n.verify(&["n1.jsonl", "n2.jsonl"], Some(&n.ledger));
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("2 nights of progressive jackpots found in their logs"),
        "{out}"
    );
    assert!(
        out.contains("3 sales, 1 return and 1 void checked"),
        "{out}"
    );
    assert!(out.contains("net receipts 176.00 (88 faces sold)"), "{out}");

    report_totals_match_the_log(&n);

    // Forgeries, each chained again: a sale's amount, a product's price,
    // the ledger's pot.
    let forged = n.dir.join("forged.jsonl");
    forge(&n.dir.join("n1.jsonl"), &forged, |v| {
        if v["event"] == "sale" && v["sale"] == 2 {
            v["amount"] = json!(6000);
        }
    });
    let (code, out) = n.verify(&["forged.jsonl"], None);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("a sale whose number, units or amount are not the hall's"),
        "{out}"
    );
    forge(&n.dir.join("n1.jsonl"), &forged, |v| {
        if v["event"] == "session" {
            v["products"][0]["price"] = json!(1000);
        }
    });
    let (code, out) = n.verify(&["forged.jsonl"], None);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("line 2: a sale whose"), "{out}");
    let (code, out) = n.verify(&["n1.jsonl"], None);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("the products' prices are those of the night file"),
        "{out}"
    );
    let ledger = n.dir.join("forged-ledger.jsonl");
    forge(&n.ledger, &ledger, |v| {
        if v["event"] == "jackpot_night" && v["outcome"]["won"] == false {
            v["pot"] = json!(46280);
        }
    });
    let (code, out) = n.verify(&["n1.jsonl", "n2.jsonl"], Some(&ledger));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("but the rules carry 56280"), "{out}");
    // A ledger whose night one says it was won (and carried as won).
    forge(&n.ledger, &ledger, |v| {
        if v["event"] == "jackpot_night" && v["outcome"]["won"] == false {
            v["outcome"]["won"] = json!(true);
            v["outcome"]["paid"] = json!(51280);
            v["pot"] = json!(50000);
            v["within"] = json!(30);
        }
    });
    let (code, out) = n.verify(&["n1.jsonl", "n2.jsonl"], Some(&ledger));
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("in the log, 51280 offered within 30 calls, not won"),
        "{out}"
    );
}

#[test]
fn a_night_of_sales_resumes_and_a_lost_ledger_line_is_written_again() {
    let dir = tempfile::tempdir().unwrap();
    let n = Night::new(dir.path());
    let hall = n.open("n1.jsonl");
    assert_eq!(sell(&hall, "/api/sales", "Session book", 1, 60).0, 201);
    assert_eq!(
        sell(&hall, "/api/sales", "Snowball single", 101, 140).0,
        201
    );
    drop(hall); // killed
    let hall = n.open("n1.jsonl");
    let (_, sales) = crate::hall::http(&hall.addr, "GET", "/api/sales", Some(&hall.key), None);
    assert_eq!(sales["sales"]["net"], 12000 + 8000, "{sales}");
    // The same faces cannot be sold again after the restart.
    assert_eq!(sell(&hall, "/api/sales", "Session book", 55, 60).0, 409);
    play(&hall, 10);
    drop(hall);
    // A crash between the log's game end and the ledger's line: the line
    // is lost; opening the hall on that log writes it again.
    let text = std::fs::read_to_string(&n.ledger).unwrap();
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| !l.contains("jackpot_night"))
        .collect();
    std::fs::write(&n.ledger, kept.join("\n") + "\n").unwrap();
    let (code, out) = n.verify(&["n1.jsonl"], Some(&n.ledger));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("is not in the ledger"), "{out}");
    drop(n.open("n1.jsonl"));
    let (code, out) = n.verify(&["n1.jsonl"], Some(&n.ledger));
    assert_eq!(code, 0, "{out}");
    // A night file changed in a comment only: its played games, their
    // prizes fixed from sales and the pot from the ledger, are as played.
    std::fs::write(&n.night, format!("{NIGHT}\n# checked by the manager\n")).unwrap();
    let (night, ledger) = (n.night.to_str().unwrap(), n.ledger.to_str().unwrap());
    let keep = [
        "--night",
        night,
        "--jackpots",
        ledger,
        "--night-changed",
        "keep-log",
    ];
    drop(start(&[&n.cards], &n.dir.join("n1.jsonl"), &keep));
    // A night that plays a progressive needs its ledger.
    let out = bingomint()
        .args(["hall", "--listen", "127.0.0.1:0", "--log"])
        .arg(dir.path().join("n3.jsonl"))
        .arg("--cards")
        .arg(&n.cards)
        .arg("--night")
        .arg(&n.night)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--jackpots FILE"), "{err}");
    // And --sold does not go with products.
    let out = bingomint()
        .args([
            "hall",
            "--listen",
            "127.0.0.1:0",
            "--sold",
            "1..10",
            "--log",
        ])
        .arg(dir.path().join("n4.jsonl"))
        .arg("--cards")
        .arg(&n.cards)
        .arg("--night")
        .arg(&n.night)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--sold: the night file lists [[product]]s")
    );
}

/// Receipts and prizes summed here from the log's lines: what a regulator
/// would add up by hand.
fn sums(log: &Path) -> (u64, u64, u64) {
    let (mut net, mut paid, mut attendance) = (0i64, 0u64, 0);
    for l in lines(log) {
        let amount = l["amount"].as_u64().unwrap_or(0) as i64;
        match l["event"].as_str().unwrap() {
            "sale" => net += amount,
            "sale_return" | "sale_void" => net -= amount,
            "payout" | "near_payout" => {
                paid += (l["shares"].as_array().unwrap().iter())
                    .map(|s| s.as_u64().unwrap())
                    .sum::<u64>()
            }
            "void" => panic!("no payout is voided in this night"),
            "attendance" => attendance = l["count"].as_u64().unwrap(),
            _ => {}
        }
    }
    (net as u64, paid, attendance)
}

fn report(n: &Night, args: &[&str], out: &str) -> (i32, String) {
    let mut cmd = bingomint();
    cmd.args(["hall", "report"])
        .args(args)
        .arg("--cards")
        .arg(&n.cards)
        .arg("--out")
        .arg(n.dir.join(out));
    let o = cmd.output().unwrap();
    let text =
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    (o.status.code().unwrap(), text)
}

fn report_totals_match_the_log(n: &Night) {
    let (log1, log2) = (n.dir.join("n1.jsonl"), n.dir.join("n2.jsonl"));
    let (net1, paid1, people) = sums(&log1);
    let (net2, paid2, _) = sums(&log2);
    assert_eq!((net1, people), (17_600, 41));
    let (code, out) = report(n, &[log1.to_str().unwrap()], "n1.json");
    assert_eq!(code, 0, "{out}");
    let r: Value =
        serde_json::from_str(&std::fs::read_to_string(n.dir.join("n1.json")).unwrap()).unwrap();
    let m = &r["money"];
    assert_eq!(
        (
            m["net"].as_u64(),
            m["paid"].as_u64(),
            m["attendance"].as_u64()
        ),
        (Some(net1), Some(paid1), Some(41)),
        "{m}"
    );
    assert_eq!(
        m["paper"].as_u64().unwrap() + m["electronic"].as_u64().unwrap(),
        net1
    );
    // 24.00 + 100.00 of 176.00.
    assert_eq!(m["payout_share"], "70.45%");
    assert_eq!(m["jackpots"][0]["pot_out"], 56_280);
    let (code, out) = report(
        n,
        &[log1.to_str().unwrap(), "--form", "wa-daily"],
        "daily.html",
    );
    assert_eq!(code, 0, "{out}");
    let page = std::fs::read_to_string(n.dir.join("daily.html")).unwrap();
    for item in [
        "(1) Schedule of games",
        "(2) Attendance",
        "41 people",
        "(5) Gross gambling receipts",
        "$176.00",
        "Sets of paper",
    ] {
        assert!(page.contains(item), "{item}");
    }
    let (code, out) = report(n, &[log1.to_str().unwrap()], "n1.csv");
    assert_eq!(code, 0, "{out}");
    let csv = std::fs::read_to_string(n.dir.join("n1.csv")).unwrap();
    assert!(
        csv.contains(",session,") && csv.contains("keyed the wrong pack"),
        "{csv}"
    );
    let both = [log1.to_str().unwrap(), log2.to_str().unwrap()];
    let today = lines(&log1)[0]["time"].as_str().unwrap()[..10].to_string();
    let span = format!("{today}..{today}");
    let (code, out) = report(n, &["--period", &span, both[0], both[1]], "period.json");
    assert_eq!(code, 0, "{out}");
    let p: Value =
        serde_json::from_str(&std::fs::read_to_string(n.dir.join("period.json")).unwrap()).unwrap();
    assert_eq!(p["total"]["receipts"].as_u64(), Some(net1 + net2), "{p}");
    assert_eq!(p["total"]["paid"].as_u64(), Some(paid1 + paid2), "{p}");
    assert_eq!(p["sessions"].as_array().unwrap().len(), 2);
    let (code, out) = report(
        n,
        &["--period", "2020-01-01..2020-03-31", both[0], both[1]],
        "q1.csv",
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("0 sessions (2 outside the period left out)"),
        "{out}"
    );
    let (code, out) = report(
        n,
        &["--period", "2026-13-01..2026-12-31", both[0]],
        "bad.csv",
    );
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("--period: \"2026-13-01\" is not a date"),
        "{out}"
    );
}

// See: issue 62, the period counted a night twice (the same log given
// twice, or a copy under another name) and summed a $ night and a £ night
// as one $ total; amounts with no payout carried no currency at all.
#[test]
fn a_period_counts_each_night_once_and_in_one_currency() {
    let dir = tempfile::tempdir().unwrap();
    let n = Night::new(dir.path());
    let hall = n.open("n1.jsonl");
    assert_eq!(sell(&hall, "/api/sales", "Session book", 1, 60).0, 201);
    drop(hall);
    let n1 = n.dir.join("n1.jsonl");
    std::fs::copy(&n1, n.dir.join("copy.jsonl")).unwrap();
    // A £ night of the same programme, with its own ledger, in a folder of
    // its own.
    let pounds = n.dir.join("club");
    std::fs::create_dir(&pounds).unwrap();
    let night = pounds.join("session.toml");
    std::fs::write(
        &night,
        NIGHT.replace("currency = \"$\"", "currency = \"£\""),
    )
    .unwrap();
    let extra = [
        "--night",
        night.to_str().unwrap(),
        "--balls",
        "blower",
        "--jackpots",
        pounds.join("jackpots.jsonl").to_str().unwrap(),
    ]
    .map(String::from);
    let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
    let p1 = pounds.join("p1.jsonl");
    let hall = start(&[&n.cards], &p1, &extra);
    assert_eq!(sell(&hall, "/api/sales", "Session book", 1, 12).0, 201);
    drop(hall);

    // See: issue 62, a product's price and every sale of it halved
    // together, then chained again, verified OK: the night file the
    // session opened with (its SHA-256 in the log) pins the price.
    let forged = n.dir.join("forged.jsonl");
    forge(&n1, &forged, |v| {
        if v["event"] == "session" && v["products"].is_array() {
            v["products"][0]["price"] = json!(600);
        } else if v["event"] == "sale" {
            v["amount"] = json!(v["amount"].as_u64().unwrap() / 2);
        }
    });
    let (code, out) = n.verify(&["forged.jsonl"], None);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("are not those of the night file"), "{out}");
    std::fs::remove_file(&forged).unwrap();
    let today = lines(&n1)[0]["time"].as_str().unwrap()[..10].to_string();
    let span = format!("{today}..{today}");
    let (code, out) = report(&n, &[p1.to_str().unwrap()], "p1.json");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("receipts £24.00"), "{out}");
    let copy = n.dir.join("copy.jsonl");
    for (twice, said) in [
        ([&n1, &n1], "give each night's log once"),
        ([&n1, &copy], "a copy of a night is no other night"),
        ([&n1, &p1], "report each currency's nights apart"),
    ] {
        let logs = twice.map(|p| p.to_str().unwrap());
        let (code, out) = report(&n, &["--period", &span, logs[0], logs[1]], "p.csv");
        assert_eq!(code, 2, "{out}");
        assert!(out.contains(said), "{out}");
        assert!(!n.dir.join("p.csv").exists());
    }
    let (code, out) = report(&n, &["--period", &span, n1.to_str().unwrap()], "p.csv");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("receipts $120.00"), "{out}");
    for bad in ["2026-02-31", "2026-04-31"] {
        let (code, out) = report(
            &n,
            &[
                "--period",
                &format!("{bad}..2026-12-31"),
                n1.to_str().unwrap(),
            ],
            "q.csv",
        );
        assert_eq!(code, 2, "{out}");
        assert!(out.contains(&format!("\"{bad}\" is not a date")), "{out}");
    }
}

// See: issue 62, a phone adding, or a claim on, a face sold tonight for a
// later game read "card 101 was not sold tonight": it was.
#[test]
fn a_face_sold_for_a_later_game_is_held_and_named_with_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let n = Night::new(dir.path());
    let hall = n.open("n1.jsonl");
    assert_eq!(sell(&hall, "/api/sales", "Session book", 1, 60).0, 201);
    assert_eq!(
        sell(&hall, "/api/sales", "Snowball single", 101, 140).0,
        201
    );
    let (status, v) = hall.post("/api/games", json!({}));
    assert_eq!(status, 201, "{v}");
    // The snowball single is a phone's to hold now; it plays in game 2.
    let (status, v) = hall.post("/api/faces", json!({ "card": "101" }));
    assert_eq!(status, 200, "{v}");
    let (status, v) = hall.post("/api/bingo", json!({ "card": "101" }));
    assert_eq!(status, 409, "{v}");
    let why = v["error"].as_str().unwrap();
    assert!(
        why.contains("card 101 was sold tonight for the programme's game 2, not for this game"),
        "{why}"
    );
    // A face no sale holds is still refused as unsold.
    let (status, v) = hall.post("/api/faces", json!({ "card": "150" }));
    assert_eq!(status, 409, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("card 150 was not sold tonight"),
        "{v}"
    );
}

/// The programme names a progressive jackpot once, as it stands before
/// its game: the pot carried in, to which the game's share of sales is
/// added when it starts; not an offer beside the pot.
#[test]
fn the_programme_states_a_progressive_jackpot_once() {
    let dir = tempfile::tempdir().unwrap();
    let n = Night::new(dir.path());
    let hall = n.open("n.jsonl");
    let state = hall.state();
    let specials = &state["night"]["games"][1]["specials"];
    assert_eq!(
        specials,
        &json!(["progressive jackpot \"Snowball\": $500.00 carried in, plus its share of the game's sales when it starts, within 30 calls, else $100.00"]),
        "{state}"
    );
}
