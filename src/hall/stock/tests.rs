//! The stock book's rules, in-process: sets of faces, and each line
//! following from those before it.

use super::*;

fn f(ranges: &[(u64, u64)]) -> Faces {
    Faces::from_pairs(ranges).unwrap()
}

#[test]
fn faces_merge_subtract_and_intersect() {
    let a = Faces::of([7..=12, 1..=6, 20..=20, 30..=40]);
    assert_eq!(a.ranges(), &[1..=12, 20..=20, 30..=40]);
    assert_eq!(a.count(), 12 + 1 + 11);
    assert_eq!(
        a.minus(&f(&[(5, 8), (20, 20), (35, 50)])).words(),
        "1..4, 9..12, 30..34"
    );
    assert_eq!(a.minus(&f(&[(1, 100)])), Faces::default());
    assert_eq!(a.minus(&f(&[(13, 19)])), a);
    assert_eq!(a.and(&f(&[(10, 31)])).words(), "10..12, 20, 30..31");
    assert_eq!(
        f(&[(1, u64::MAX)])
            .minus(&f(&[(u64::MAX, u64::MAX)]))
            .words(),
        format!("1..{}", u64::MAX - 1)
    );
    assert!(Faces::from_pairs(&[(5, 4)]).is_none());
}

fn received(faces: &[(u64, u64)]) -> StockEvent {
    StockEvent::StockReceived(Received {
        cards: "ABC".into(),
        path: "c.bmc".into(),
        series: Some("A".into()),
        faces: faces.to_vec(),
        note: None,
    })
}

fn issued(night: &str, faces: &[(u64, u64)]) -> StockEvent {
    StockEvent::StockIssued(Issued {
        cards: "ABC".into(),
        night: night.into(),
        title: format!("night {night}"),
        log: format!("{night}.jsonl"),
        faces: faces.to_vec(),
    })
}

fn back(night: &str, faces: &[(u64, u64)]) -> StockEvent {
    StockEvent::StockBack(Back {
        cards: "ABC".into(),
        night: night.into(),
        faces: faces.to_vec(),
        why: "returned".into(),
    })
}

fn destroyed(faces: &[(u64, u64)]) -> StockEvent {
    StockEvent::StockDestroyed(Destroyed {
        cards: "ABC".into(),
        faces: faces.to_vec(),
        why: "torn".into(),
    })
}

fn run(events: &[StockEvent]) -> Result<Standing, String> {
    let mut s = Standing::default();
    for e in events {
        s.step(e, "2026-11-24T19:00:00.000Z")?;
    }
    Ok(s)
}

#[test]
fn a_face_is_sold_in_one_session_until_it_comes_back() {
    let s = run(&[
        received(&[(1, 60)]),
        issued("tue", &[(1, 12)]),
        back("tue", &[(7, 12)]),
    ])
    .unwrap();
    let p = s.paper("ABC").unwrap();
    assert_eq!(p.on_hand(), f(&[(7, 60)]));
    let why = p.refuse("fri", &f(&[(1, 6)])).unwrap();
    assert!(
        why.contains("faces 1..6 were sold in an earlier session, night tue"),
        "{why}"
    );
    assert_eq!(p.refuse("fri", &f(&[(7, 12)])), None);
    // Its own faces are no refusal to the session holding them.
    assert_eq!(p.refuse("tue", &f(&[(1, 6)])), None);
    let why = p.refuse("fri", &f(&[(55, 66)])).unwrap();
    assert!(
        why.contains("faces 61..66 of 'c.bmc' were never received"),
        "{why}"
    );

    let err = run(&[
        received(&[(1, 60)]),
        issued("tue", &[(1, 12)]),
        issued("fri", &[(10, 15)]),
    ])
    .unwrap_err();
    assert!(
        err.contains("faces 10..12 were sold in an earlier session"),
        "{err}"
    );
    let err = run(&[
        received(&[(1, 60)]),
        issued("tue", &[(1, 6)]),
        back("tue", &[(4, 9)]),
    ])
    .unwrap_err();
    assert!(
        err.contains("faces 7..9 come back from night tue, which does not hold them"),
        "{err}"
    );
    let err = run(&[received(&[(1, 60)]), received(&[(50, 70)])]).unwrap_err();
    assert!(
        err.contains("faces 50..60 of 'c.bmc' are received twice"),
        "{err}"
    );
}

#[test]
fn only_paper_on_hand_is_destroyed_and_destroyed_paper_is_not_sold() {
    let s = run(&[received(&[(1, 60)]), destroyed(&[(13, 18)])]).unwrap();
    let p = s.paper("ABC").unwrap();
    let why = p.refuse("tue", &f(&[(13, 18)])).unwrap();
    assert!(
        why.contains("faces 13..18 were destroyed (torn, 2026-11-24)"),
        "{why}"
    );
    let err = run(&[
        received(&[(1, 60)]),
        issued("tue", &[(1, 6)]),
        destroyed(&[(5, 8)]),
    ])
    .unwrap_err();
    assert!(err.contains("destroyed faces not on hand"), "{err}");
    assert!(run(&[issued("tue", &[(1, 6)])])
        .unwrap_err()
        .contains("never received"));
    assert!(run(&[received(&[])]).unwrap_err().contains("no ranges"));
}

#[test]
fn a_book_behind_its_log_is_brought_up_to_it_and_checked_against_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stock.jsonl");
    let mut stock = Stock::open(&path).unwrap();
    stock
        .receive(("ABC", "c.bmc"), &f(&[(1, 60)]), None, None)
        .unwrap();
    let night = StockNight {
        night: "tue",
        title: "Tuesday",
        log: "tue.jsonl",
        cards: "ABC",
        path: "c.bmc",
    };
    stock.follow(&night, &f(&[(1, 12)]), "sold").unwrap();
    stock
        .follow(&night, &f(&[(1, 6), (13, 18)]), "returned")
        .unwrap();
    let fri = StockNight {
        night: "fri",
        ..night
    };
    let err = stock
        .follow(&fri, &f(&[(1, 6)]), "sold")
        .unwrap_err()
        .to_string();
    assert!(err.contains("sold in an earlier session"), "{err}");
    drop(stock);
    let text = std::fs::read_to_string(&path).unwrap();
    let events: Vec<String> = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["event"].to_string())
        .collect();
    assert_eq!(
        events,
        [
            "\"stock_received\"",
            "\"stock_issued\"",
            "\"stock_back\"",
            "\"stock_issued\""
        ]
    );
    let sold = |faces| vec![NightSold { night, sold: faces }];
    assert!(check(&text, &sold(f(&[(1, 6), (13, 18)]))).is_ok());
    let (line, why) = check(&text, &sold(f(&[(1, 12)]))).unwrap_err();
    assert_eq!(line, 4);
    assert!(
        why.contains("holds faces 1..12 sold, but the stock holds 1..6, 13..18"),
        "{why}"
    );
}
