//! The office's week, scripted: a club's Tuesday and Friday sessions sold
//! from one paper stock, cash drawers floated and counted (the bar £2
//! short), a late sale for the games still to come, Friday refused the
//! faces Tuesday sold, a mistaken full house taken back, and the hall
//! killed mid-game and started again with the caller's tab still working.
//! Every figure of the reports (the record in HTML, CSV and JSON, the
//! daily record, the W-2G list, the duty return, the stock) is held to a
//! count made here by hand; `hall verify` passes the week, and names an
//! edited cash, late-sale or stock line.

use crate::common::{bingomint, generate};
use crate::hall::{http, start, Running};
use crate::hall_money::{forge, key_in, numbers, sell};
use serde_json::{json, Value};
use std::path::PathBuf;

const NIGHT: &str = r#"
title = "Club bingo"
currency = "£"
zone = "Europe/London"

[[product]]
name = "Book"
price = "12.00"
faces = 6
games = "all"
paper = "blue"

[[game]]
name = "Early line"
pattern = "line"
prize = { share = "50%", min = "10.00" }

[[game]]
name = "Full house"
pattern = "coverall"
prize = "60.00"
"#;

/// A drawer's cash-up as the report gives it: name, expected, counted,
/// over (negative: short), deposit.
type Drawer = (String, u64, u64, Option<i64>, Option<u64>);

/// A forgery: the file edited, the copy written, the edit, what `hall
/// verify` must say of it.
type Forgery<'a> = (&'a str, &'a str, &'a dyn Fn(&mut Value), &'a str);

struct Week {
    dir: PathBuf,
    cards: PathBuf,
    night: PathBuf,
    stock: PathBuf,
}

impl Week {
    fn open(&self, log: &str) -> Running {
        let (night, stock) = (self.night.to_str().unwrap(), self.stock.to_str().unwrap());
        let extra = ["--night", night, "--balls", "blower", "--stock", stock];
        start(&[&self.cards], &self.dir.join(log), &extra)
    }

    fn run(&self, args: &[&str]) -> (i32, String) {
        let out = bingomint()
            .current_dir(&self.dir)
            .args(args)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status.code().unwrap(), text)
    }

    fn report(&self, args: &[&str], out: &str) -> String {
        let mut all = vec!["hall", "report"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--cards", "c.bmc", "--out", out]);
        let (code, said) = self.run(&all);
        assert_eq!(code, 0, "{all:?}: {said}");
        std::fs::read_to_string(self.dir.join(out)).unwrap()
    }

    fn verify(&self, tue: &str, stock: &str) -> (i32, String) {
        self.run(&[
            "hall",
            "verify",
            tue,
            "fri.jsonl",
            "--cards",
            "c.bmc",
            "--stock",
            stock,
        ])
    }
}

fn post(hall: &Running, path: &str, body: Value) -> Value {
    let (status, v) = hall.post(path, body);
    assert!(status == 200 || status == 201, "{path}: {status} {v}");
    v
}

fn sale(hall: &Running, first: u64, drawer: &str) {
    post(
        hall,
        "/api/sales",
        json!({"product": "Book", "first": first, "last": first + 5, "drawer": drawer}),
    );
}

/// A full house on `card`: every number of its face keyed in, claimed and
/// accepted.
fn full_house(hall: &Running, card: &str) -> Value {
    let called: Vec<u64> = hall.calls();
    let face: Vec<u8> = numbers(hall, card)
        .into_iter()
        .filter(|n| !called.contains(&u64::from(*n)))
        .collect();
    key_in(hall, &face);
    post(hall, "/api/claims", json!({"card": card, "accept": true}))
}

/// The first line on `card`: its top row keyed in, claimed and accepted.
fn line(hall: &Running, card: &str) -> Value {
    key_in(hall, &numbers(hall, card)[..5]);
    post(hall, "/api/claims", json!({"card": card, "accept": true}))
}

#[test]
fn an_office_week_reports_what_a_hand_count_says() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("night.toml"), NIGHT).unwrap();
    let w = Week {
        dir: d.to_path_buf(),
        cards: generate(d, "c.bmc", &["--count", "120", "--seed", "week"]),
        night: d.join("night.toml"),
        stock: d.join("stock.jsonl"),
    };
    let (code, said) = w.run(&[
        "hall",
        "stock",
        "receive",
        "stock.jsonl",
        "--cards",
        "c.bmc",
        "--series",
        "A",
    ]);
    assert_eq!(code, 0, "{said}");

    // Tuesday. Door floats £50, the bar £20; three books sold before the
    // first game (the door two, the bar one).
    let tue = w.open("tue.jsonl");
    post(
        &tue,
        "/api/cash/float",
        json!({"drawer": "Door", "amount": "50.00"}),
    );
    post(
        &tue,
        "/api/cash/float",
        json!({"drawer": "Bar", "amount": "20.00"}),
    );
    sale(&tue, 1, "Door");
    sale(&tue, 7, "Door");
    sale(&tue, 13, "Bar");
    // Game 1: 50% of its sales (half of £36: £18, so £9), at least £10.
    post(&tue, "/api/games", json!({}));
    // A late-comer's book, for the full house only.
    let late = post(
        &tue,
        "/api/sales",
        json!({"product": "Book", "first": 19, "last": 24, "drawer": "Door"}),
    );
    assert_eq!(late["made"]["games"], json!([2]), "{late}");
    let won = line(&tue, "1");
    assert_eq!(
        won["payout"]["text"].as_str().unwrap(),
        "£10.00 to card 1 of ".to_string()
            + won["label"]
                .as_str()
                .unwrap()
                .trim_start_matches("card 1 of "),
        "{won}"
    );
    // Game 2, the full house: some balls, then the hall is killed.
    post(&tue, "/api/games", json!({}));
    key_in(&tue, &[70, 71]);
    let key = tue.key.clone();
    drop(tue);
    let tue = w.open("tue.jsonl");
    // The caller's open tab keeps working: the key is the night's.
    assert_eq!(tue.key, key);
    let (status, _) = http(&tue.addr, "GET", "/api/sales", Some(&key), None);
    assert_eq!(status, 200);
    assert_eq!(tue.calls(), [70, 71]);
    // A full house accepted on card 7 by mistake, taken back.
    full_house(&tue, "7");
    let (status, v) = tue.post("/api/payouts/void", json!({"reason": "card 7 was misread"}));
    assert_eq!(status, 200, "{v}");
    // The cash counted: the door exactly, the bar £2 short.
    let door = post(
        &tue,
        "/api/cash/count",
        json!({"drawer": "Door", "amount": "86.00"}),
    );
    assert_eq!(door["made"]["expected"], 8600, "{door}");
    // The bar's by notes and coins: 2 × £10, 1 × £5, 5 × £1 = £30.
    let bar = post(
        &tue,
        "/api/cash/count",
        json!({"drawer": "Bar", "denominations": [["10.00", 2], ["5.00", 1], ["1.00", 5]]}),
    );
    assert_eq!(
        (
            bar["made"]["expected"].as_u64(),
            bar["made"]["over"].as_i64()
        ),
        (Some(3200), Some(-200)),
        "{bar}"
    );
    drop(tue);

    // Friday, on the same stock: Tuesday's faces refused; four books sold.
    let fri = w.open("fri.jsonl");
    post(
        &fri,
        "/api/cash/float",
        json!({"drawer": "Door", "amount": "50.00"}),
    );
    let (status, v) = sell(&fri, "/api/sales", "Book", 1, 6);
    assert_eq!(status, 409, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("sold in an earlier session"),
        "{v}"
    );
    for first in [25, 31, 37, 43] {
        sale(&fri, first, "Door");
    }
    post(&fri, "/api/games", json!({}));
    line(&fri, "25");
    post(&fri, "/api/games", json!({}));
    full_house(&fri, "31");
    post(
        &fri,
        "/api/cash/count",
        json!({"drawer": "Door", "amount": "98.00"}),
    );
    drop(fri);

    // The hand count. Tuesday: £36 at the door (1..6, 7..12, 19..24), £12
    // at the bar; paid £10 (the full house taken back). Friday: £48; paid
    // £12 (half of half of £48) and £60.
    let (code, said) = w.verify("tue.jsonl", "stock.jsonl");
    assert_eq!(code, 0, "{said}");
    assert!(
        said.contains("120 received, 48 sold, 0 destroyed, 72 on hand"),
        "{said}"
    );
    let j: Value = serde_json::from_str(&w.report(&["tue.jsonl"], "tue.json")).unwrap();
    let m = &j["money"];
    assert_eq!(
        (m["net"].as_u64(), m["paid"].as_u64()),
        (Some(4800), Some(1000)),
        "{m}"
    );
    assert_eq!(j["zone"], "Europe/London");
    let cash: Vec<Drawer> = (m["cash"].as_array().unwrap().iter())
        .map(|c| {
            (
                c["drawer"].as_str().unwrap().into(),
                c["expected"].as_u64().unwrap(),
                c["counted"].as_u64().unwrap(),
                c["over"].as_i64(),
                c["deposit"].as_u64(),
            )
        })
        .collect();
    assert_eq!(
        cash,
        [
            ("Door".into(), 8600, 8600, Some(0), Some(3600)),
            ("Bar".into(), 3200, 3000, Some(-200), Some(1000))
        ]
    );
    let late_set = (m["sets"].as_array().unwrap().iter())
        .find(|s| s["first"] == 19)
        .unwrap_or_else(|| panic!("{}", m["sets"]));
    assert_eq!(late_set["games"], json!([2]), "{late_set}");
    let html = w.report(&["tue.jsonl"], "tue.html");
    assert!(
        html.contains("Times are local to Europe/London"),
        "the record states its zone"
    );
    assert!(html.contains("short £2.00"), "the bar's drawer");
    assert!(
        html.contains("£30.00 (2 × £10.00, 1 × £5.00, 5 × £1.00)"),
        "the bar's count by denomination"
    );
    assert!(
        html.contains("card 7 was misread"),
        "the full house taken back, with its reason"
    );
    let csv = w.report(&["tue.jsonl"], "tue.csv");
    assert!(
        csv.lines()
            .any(|l| l.contains(",cash,") && l.contains("Bar") && l.contains("short £2.00")),
        "{csv}"
    );
    let wa = w.report(&["tue.jsonl", "--form", "wa-daily"], "tue-wa.html");
    assert!(wa.contains("£48.00") && wa.contains("£10.00"), "{wa}");

    let fri: Value = serde_json::from_str(&w.report(&["fri.jsonl"], "fri.json")).unwrap();
    let m = &fri["money"];
    assert_eq!(
        (m["net"].as_u64(), m["paid"].as_u64()),
        (Some(4800), Some(7200)),
        "{m}"
    );
    let w2g = w.report(
        &["fri.jsonl", "--form", "w2g", "--threshold", "50.00"],
        "fri-w2g.html",
    );
    assert_eq!(w2g.matches("£60.00").count(), 1, "{w2g}");
    assert!(w2g.contains("card 31 of"), "{w2g}");
    // The duty return over both: stakes £96, prizes £82, profits £14, duty £1.40.
    let duty = w.report(
        &[
            "--period",
            "2026-01-01..2099-12-31",
            "tue.jsonl",
            "fri.jsonl",
            "--form",
            "uk-duty",
        ],
        "duty.html",
    );
    for (what, amount) in [
        ("Stakes", "£96.00"),
        ("Prizes paid", "£82.00"),
        ("Bingo promotion profits", "£14.00"),
        ("Duty at 10%", "£1.40"),
    ] {
        let row = duty
            .lines()
            .find(|l| l.contains(what))
            .unwrap_or_else(|| panic!("{what}: {duty}"));
        assert!(row.contains(amount), "{what}: {row}");
    }
    let (code, said) = w.run(&[
        "hall",
        "report",
        "--stock",
        "stock.jsonl",
        "--zone",
        "Europe/London",
        "--out",
        "stock.json",
    ]);
    assert_eq!(code, 0, "{said}");
    let s: Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("stock.json")).unwrap()).unwrap();
    assert_eq!(
        s["papers"][0]["totals"],
        json!({"received": 120, "sold": 48, "destroyed": 0, "on_hand": 72})
    );
    assert_eq!(s["papers"][0]["sessions"][0]["sold"], json!([[1, 24]]));
    assert_eq!(s["papers"][0]["sessions"][1]["sold"], json!([[25, 48]]));

    // An edited line, its chain made again, is named.
    forged_lines_are_named(&w);
}

fn forged_lines_are_named(w: &Week) {
    let d = &w.dir;
    let cases: [Forgery; 3] = [
        (
            "tue.jsonl",
            "cash.jsonl",
            &|v| {
                if v["event"] == "cash_count" && v["drawer"] == "Bar" {
                    v["counted"] = json!(3200);
                    v["over"] = json!(0);
                }
            },
            "cash.jsonl line 50: a cash line the hall would have refused: denominations: they come to 30.00, not the 32.00 counted",
        ),
        (
            "tue.jsonl",
            "late.jsonl",
            &|v| {
                if v["event"] == "sale" && v["first"] == 19 {
                    v["games"] = json!([1, 2]);
                }
            },
            "line 8: a sale whose games are not those its product still had to play when it was made: the programme then gives late: games 2",
        ),
        (
            "stock.jsonl",
            "stock-forged.jsonl",
            &|v| {
                if v["event"] == "stock_issued" && v["faces"] == json!([[19, 24]]) {
                    v["faces"] = json!([[19, 30]]);
                }
            },
            "stock-forged.jsonl line",
        ),
    ];
    for (from, to, edit, named) in cases {
        forge(&d.join(from), &d.join(to), edit);
        let (tue, stock) = if from == "tue.jsonl" {
            (to, "stock.jsonl")
        } else {
            ("tue.jsonl", to)
        };
        let (code, said) = w.verify(tue, stock);
        assert_eq!(code, 1, "{to}: {said}");
        assert!(said.contains(named), "{to}: {said}");
    }
}
