use super::*;
use crate::link::message::{Allotment, Body, Judged, Payout, Takings};
use crate::link::record::Chain;
use ed25519_dalek::SigningKey;

const SEED: &str = "hall2-00";

fn claim(venue: &str, face: u64, call: u8) -> Judged {
    Judged {
        venue: venue.into(),
        claim: 1,
        face,
        call,
        refused: String::new(),
    }
}

/// A played game's log, its settlement as given.
fn log(settled: Body) -> String {
    let mut c = Chain::new(SigningKey::from_bytes(&[1; 32]), "g");
    let sold = |v: &str, a, b| Allotment {
        venue: v.into(),
        faces: vec![(a, b)],
    };
    let bodies = [
        Body::Open {
            play: "national".into(),
            version: "1".into(),
            stock: "ID".into(),
            balls: 75,
            pattern: "coverall".into(),
            currency: "£".into(),
            venues: vec![sold("a", 1, 10), sold("b", 11, 20)],
            commitment: crate::hall::commitment(SEED),
            prize_terms: "50% of sales".into(),
            claim_seconds: 60,
        },
        Body::SalesClosed {
            takings: vec![
                Takings {
                    venue: "a".into(),
                    faces: 10,
                    amount: 500,
                },
                Takings {
                    venue: "b".into(),
                    faces: 5,
                    amount: 251,
                },
            ],
            total: 751,
            sold: vec![sold("a", 1, 10), sold("b", 11, 15)],
        },
        Body::Prize { amount: 375 },
        Body::Reveal { seed: SEED.into() },
        Body::Verdicts {
            claims: vec![claim("a", 3, 50), claim("b", 12, 50), claim("b", 14, 52)],
        },
        settled,
    ];
    let lines: Vec<String> = bodies.into_iter().map(|b| c.sign(b, 0).line()).collect();
    lines.join("\n")
}

fn key() -> ed25519_dalek::VerifyingKey {
    SigningKey::from_bytes(&[1; 32]).verifying_key()
}

fn problems(text: &str) -> Vec<String> {
    let mut p = Vec::new();
    let said = read(text, key(), &mut p);
    said.sums(&mut p);
    p
}

fn paid(shares: &[(&str, u64, u64)]) -> Body {
    let payouts = shares
        .iter()
        .map(|&(v, face, amount)| Payout {
            venue: v.into(),
            face,
            amount,
        })
        .collect();
    Body::Settled { call: 50, payouts }
}

#[test]
fn a_game_settled_by_the_rules_has_no_problem() {
    let text = log(paid(&[("a", 3, 188), ("b", 12, 187)]));
    assert_eq!(problems(&text), Vec::<String>::new());
}

#[test]
fn a_settlement_the_rules_do_not_give_is_named() {
    // The odd penny to the wrong share, and a payout to a face that lost.
    for wrong in [
        paid(&[("a", 3, 187), ("b", 12, 188)]),
        paid(&[("a", 3, 125), ("b", 12, 125), ("b", 14, 125)]),
    ] {
        let found = problems(&log(wrong));
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("is not the rules'"), "{found:?}");
    }
}

#[test]
fn booked_faces_that_differ_from_the_sold_ranges_are_named() {
    let text = log(paid(&[("a", 3, 188), ("b", 12, 187)]));
    let mut p = Vec::new();
    let mut said = read(&text, key(), &mut p);
    said.takings[1].faces = 6;
    said.sums(&mut p);
    assert_eq!(p.len(), 1);
    assert!(p[0].contains("venue b: 6 faces booked"), "{p:?}");
}

#[test]
fn a_log_that_breaks_stops_the_reading_at_its_line() {
    let text = log(paid(&[("a", 3, 188), ("b", 12, 187)]));
    let mut lines: Vec<&str> = text.lines().collect();
    lines.remove(2);
    let found = problems(&lines.join("\n"));
    assert!(
        found[0].starts_with("line 3: record 4 came after record 2"),
        "{found:?}"
    );
}

#[test]
fn a_venue_log_must_be_the_controls_records() {
    let text = log(paid(&[("a", 3, 188), ("b", 12, 187)]));
    let mut p = Vec::new();
    let said = read(&text, key(), &mut p);
    let first_three: Vec<&str> = text.lines().take(3).collect();
    said.venue_log("v.jsonl", &first_three.join("\n"), &mut p);
    assert!(p.is_empty(), "{p:?}");
    let changed = text.replacen("\"amount\":375", "\"amount\":376", 1);
    said.venue_log("v.jsonl", &changed, &mut p);
    assert_eq!(
        p,
        ["venue log 'v.jsonl' line 3: not the control's record 3"]
    );
}
