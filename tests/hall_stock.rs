//! The paper stock across sessions: paper received and destroyed at the
//! office, a Tuesday session selling from it, a Friday session refused the
//! faces Tuesday sold (but sold those that came back), a crash between the
//! log and the book mended on reopening, `hall verify --stock` holding the
//! nights to the book (an edited line named), and `hall report --stock`
//! whose figures are counted here by hand.

use crate::common::bingomint;
use crate::hall::start;
use crate::hall_money::{forge, lines, sell, Night};
use serde_json::{json, Value};
use std::path::Path;

fn stock(args: &[&str]) -> (i32, String) {
    let out = bingomint().args(args).output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap(), text)
}

fn open(n: &Night, log: &str, book: &Path) -> crate::hall::Running {
    let extra = [
        "--night",
        n.night.to_str().unwrap(),
        "--balls",
        "blower",
        "--jackpots",
        n.ledger.to_str().unwrap(),
        "--stock",
        book.to_str().unwrap(),
    ];
    start(&[&n.cards], &n.dir.join(log), &extra)
}

fn verify(n: &Night, book: &Path) -> (i32, String) {
    let (tue, fri) = (n.dir.join("tue.jsonl"), n.dir.join("fri.jsonl"));
    let cards = n.cards.to_str().unwrap();
    stock(&[
        "hall",
        "verify",
        tue.to_str().unwrap(),
        fri.to_str().unwrap(),
        "--cards",
        cards,
        "--stock",
        book.to_str().unwrap(),
    ])
}

#[test]
fn paper_sold_on_tuesday_is_refused_on_friday_unless_it_came_back() {
    let dir = tempfile::tempdir().unwrap();
    let n = Night::new(dir.path());
    let book = dir.path().join("stock.jsonl");
    let (b, cards) = (book.to_str().unwrap(), n.cards.to_str().unwrap());

    // A hall with no book yet is told how to begin one.
    let out = bingomint()
        .args(["hall", "--listen", "127.0.0.1:0", "--cards", cards])
        .args(["--night", n.night.to_str().unwrap(), "--stock", b])
        .args(["--jackpots", n.ledger.to_str().unwrap()])
        .arg("--log")
        .arg(dir.path().join("x.jsonl"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("hall stock receive"), "{err}");

    // The office receives faces 1..120 as series A and 121..200 as B, and
    // destroys a water-damaged book.
    let (code, said) = stock(&[
        "hall", "stock", "receive", b, "--cards", cards, "--faces", "1..120", "--series", "A",
    ]);
    assert_eq!(code, 0, "{said}");
    assert!(said.contains("received 120 faces"), "{said}");
    let (code, said) = stock(&[
        "hall",
        "stock",
        "receive",
        b,
        "--cards",
        cards,
        "--faces",
        "121..200",
        "--series",
        "B",
        "--note",
        "delivery 4471",
    ]);
    assert_eq!(code, 0, "{said}");
    assert!(said.contains("200 faces on hand"), "{said}");
    let (code, said) = stock(&[
        "hall", "stock", "receive", b, "--cards", cards, "--faces", "100..130",
    ]);
    assert_eq!(code, 2, "{said}");
    assert!(said.contains("received twice"), "{said}");
    let (code, said) = stock(&[
        "hall",
        "stock",
        "destroy",
        b,
        "--cards",
        cards,
        "--faces",
        "13..18",
        "--why",
        "water damaged",
    ]);
    assert_eq!(code, 0, "{said}");
    assert!(said.contains("194 faces on hand"), "{said}");

    // Tuesday: books 1..6, 7..12 and 19..24 sold; 13..18 refused (gone);
    // 7..12 voided, so it comes back.
    let tue = open(&n, "tue.jsonl", &book);
    for (first, last) in [(1, 6), (7, 12), (19, 24)] {
        let (status, v) = sell(&tue, "/api/sales", "Session book", first, last);
        assert_eq!(status, 201, "{v}");
    }
    let (status, v) = sell(&tue, "/api/sales", "Session book", 13, 18);
    assert_eq!(status, 409, "{v}");
    let refused = v.to_string();
    assert!(
        refused.contains("13..18 were destroyed (water damaged"),
        "{refused}"
    );
    let (status, v) = tue.post(
        "/api/sales/void",
        json!({ "sale": 2, "reason": "keyed twice" }),
    );
    assert_eq!(status, 201, "{v}");
    drop(tue);

    // Friday: 1..6 was sold on Tuesday and is refused, naming the
    // session; 7..12 came back and sells; so does 25..30.
    let fri = open(&n, "fri.jsonl", &book);
    let (status, v) = sell(&fri, "/api/sales", "Session book", 1, 6);
    assert_eq!(status, 409, "{v}");
    let refused = v.to_string();
    assert!(
        refused.contains("faces 1..6 were sold in an earlier session"),
        "{refused}"
    );
    assert!(
        refused.contains("Saturday session") && refused.contains("tue.jsonl"),
        "{refused}"
    );
    for (first, last) in [(7, 12), (25, 30)] {
        let (status, v) = sell(&fri, "/api/sales", "Session book", first, last);
        assert_eq!(status, 201, "{v}");
    }
    let (status, v) = fri.post(
        "/api/sales/return",
        json!({ "product": "Session book", "first": 25, "last": 30 }),
    );
    assert_eq!(status, 201, "{v}");
    drop(fri);

    let (code, said) = verify(&n, &book);
    assert_eq!(code, 0, "{said}");
    assert!(
        said.contains("2 nights sold as the stock book issued them"),
        "{said}"
    );
    // By hand: 200 received; sold 1..6, 19..24 (Tuesday), 7..12 (Friday);
    // 13..18 destroyed; 200 - 18 - 6 = 176 on hand.
    assert!(
        said.contains("200 received, 18 sold, 6 destroyed, 176 on hand"),
        "{said}"
    );

    // A crash between Friday's log and the book: the book's last line
    // (25..30 back) is lost; opening the hall on Friday's log writes it.
    let kept = std::fs::read_to_string(&book).unwrap();
    let cut: String = kept
        .lines()
        .take(kept.lines().count() - 1)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&book, &cut).unwrap();
    let (code, said) = verify(&n, &book);
    assert_eq!(code, 1, "{said}");
    assert!(
        said.contains("holds faces 7..12 sold, but the stock holds 7..12, 25..30"),
        "{said}"
    );
    drop(open(&n, "fri.jsonl", &book));
    let last = lines(&book).pop().unwrap();
    assert_eq!(last["event"], "stock_back", "{last}");
    assert_eq!(last["faces"], json!([[25, 30]]), "{last}");
    let (code, said) = verify(&n, &book);
    assert_eq!(code, 0, "{said}");

    // An edited line, its chain made again, is named: Tuesday's issue of
    // 19..24 made 19..30.
    let forged = dir.path().join("forged.jsonl");
    forge(&book, &forged, |v| {
        if v["event"] == "stock_issued" && v["faces"] == json!([[19, 24]]) {
            v["faces"] = json!([[19, 30]]);
        }
    });
    let (code, said) = verify(&n, &forged);
    assert_eq!(code, 1, "{said}");
    assert!(said.contains("forged.jsonl line"), "{said}");
    // And an edit that breaks the chain.
    std::fs::write(&forged, kept.replacen("water damaged", "lost", 1)).unwrap();
    let (code, said) = verify(&n, &forged);
    assert_eq!(code, 1, "{said}");

    report_counts_by_hand(&n, &book);
}

/// `hall report --stock` in each format, its figures those counted by hand.
fn report_counts_by_hand(n: &Night, book: &Path) {
    let b = book.to_str().unwrap();
    let out = |name: &str| n.dir.join(name).to_str().unwrap().to_string();
    let (code, said) = stock(&["hall", "report", "--stock", b, "--out", &out("stock.json")]);
    assert_eq!(code, 0, "{said}");
    assert!(
        said.contains("1 card file, 2 sessions, 176 faces on hand"),
        "{said}"
    );
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(out("stock.json")).unwrap()).unwrap();
    let p = &v["papers"][0];
    assert_eq!(
        p["totals"],
        json!({"received": 200, "sold": 18, "destroyed": 6, "on_hand": 176})
    );
    assert_eq!(p["received"][1]["series"], "B");
    assert_eq!(p["received"][1]["note"], "delivery 4471");
    let tue = &p["sessions"][0];
    assert_eq!(
        (tue["issued"].as_u64(), tue["back"].as_u64()),
        (Some(18), Some(6)),
        "{tue}"
    );
    assert_eq!(tue["sold"], json!([[1, 6], [19, 24]]));
    let fri = &p["sessions"][1];
    assert_eq!(
        (fri["issued"].as_u64(), fri["back"].as_u64()),
        (Some(12), Some(6)),
        "{fri}"
    );
    assert_eq!(p["on_hand"], json!([[25, 200]]));

    let (code, said) = stock(&["hall", "report", "--stock", b, "--out", &out("stock.csv")]);
    assert_eq!(code, 0, "{said}");
    let csv = std::fs::read_to_string(out("stock.csv")).unwrap();
    assert!(
        csv.contains(",destroyed,") && csv.contains("13..18,6,water damaged"),
        "{csv}"
    );
    assert!(
        csv.contains(",on hand,") && csv.contains("25..200,176"),
        "{csv}"
    );

    let (code, said) = stock(&["hall", "report", "--stock", b, "--out", &out("stock.html")]);
    assert_eq!(code, 0, "{said}");
    let html = std::fs::read_to_string(out("stock.html")).unwrap();
    assert!(
        html.contains("<td>200</td><td>18</td><td>6</td><td>176</td>"),
        "{html}"
    );
    assert!(html.contains("176 faces: 25..200"), "{html}");
}
