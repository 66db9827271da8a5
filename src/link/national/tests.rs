use super::*;
use crate::link::message::{Allotment, Judged};

fn allot(venue: &str, faces: &[(u64, u64)]) -> Allotment {
    Allotment {
        venue: venue.into(),
        faces: faces.to_vec(),
    }
}

fn claim(venue: &str, face: u64, call: u8, refused: &str) -> Judged {
    Judged {
        venue: venue.into(),
        claim: face,
        face,
        call,
        refused: refused.into(),
    }
}

#[test]
fn allotments_that_share_a_face_are_refused() {
    let stock = (1, 9000);
    let apart = [allot("a", &[(1, 3000)]), allot("b", &[(3001, 6000)])];
    assert_eq!(check_allotments(&apart, stock), Ok(()));
    let overlap = [
        allot("a", &[(1, 3000)]),
        allot("b", &[(4000, 5000), (2999, 3001)]),
    ];
    let why = check_allotments(&overlap, stock).unwrap_err();
    assert!(why.contains("both allotted face 2999"), "{why}");
    let twice = [allot("a", &[(1, 10), (5, 20)])];
    assert!(check_allotments(&twice, stock)
        .unwrap_err()
        .contains("face 5 twice"));
    let outside = [allot("a", &[(8000, 9001)])];
    assert!(check_allotments(&outside, stock)
        .unwrap_err()
        .contains("not within"));
    let named = [allot("a", &[(1, 2)]), allot("a", &[(3, 4)])];
    assert!(check_allotments(&named, stock)
        .unwrap_err()
        .contains("named twice"));
}

#[test]
fn sales_stay_within_the_allotment_and_are_counted() {
    let allotted = [(1, 3000), (6001, 7000)];
    assert_eq!(check_sales(&allotted, &[(1, 2500), (6001, 6010)]), Ok(2510));
    assert!(check_sales(&allotted, &[(2900, 3100)])
        .unwrap_err()
        .contains("not within"));
    assert!(check_sales(&allotted, &[(1, 10), (10, 12)])
        .unwrap_err()
        .contains("face 10 is sold twice"));
}

#[test]
fn the_fewest_calls_win_and_ties_share_to_the_cent() {
    let claims = [
        claim("york", 4855, 56, ""),
        claim("leeds", 12, 55, "face 12 completes at call 59, not 55"),
        claim("hull", 7001, 57, ""),
        claim("leeds", 40, 56, ""),
        claim("york", 5354, 56, ""),
    ];
    let (call, payouts) = settle(&claims, 100_001).unwrap();
    assert_eq!(call, 56);
    let got: Vec<_> = payouts
        .iter()
        .map(|p| (p.venue.as_str(), p.face, p.amount))
        .collect();
    // In order of venue and face; the odd penny to the first share.
    assert_eq!(
        got,
        [
            ("leeds", 40, 33_334),
            ("york", 4855, 33_334),
            ("york", 5354, 33_333)
        ]
    );
    assert_eq!(payouts.iter().map(|p| p.amount).sum::<u64>(), 100_001);
}

#[test]
fn no_good_claim_settles_nothing() {
    assert_eq!(settle(&[claim("a", 1, 40, "not sold here")], 500), None);
    assert_eq!(settle(&[], 500), None);
}

#[test]
fn a_claim_is_judged_on_the_stock() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.bmc");
    let spec = crate::game::Spec::named("75").unwrap();
    let plan = crate::pipeline::file::Plan::new(spec, 200, 7, &path);
    crate::pipeline::file::generate(&plan, &|_: u64| {}).unwrap();
    let file = CardFile::open_intact(&path).unwrap();
    let pattern = Pattern::parse("coverall", file.header().spec).unwrap();
    let calls = calls(75, "hall2-00", "g");
    let won = winners(&file, &[(1, 100)], &pattern, &calls).unwrap();
    let &(face, call) = won
        .first()
        .expect("a coverall of 100 cards completes within 75 calls");
    assert!(won
        .iter()
        .all(|&(f, c)| c == call && (1..=100).contains(&f)));
    assert_eq!(
        judge(&file, &[(1, 100)], &pattern, &calls, (face, call)),
        ""
    );
    let late = judge(&file, &[(1, 100)], &pattern, &calls, (face, call + 1));
    assert!(
        late.contains(&format!("completes at call {call}")),
        "{late}"
    );
    let elsewhere = judge(&file, &[(101, 200)], &pattern, &calls, (face, call));
    assert!(
        elsewhere.contains("not among the faces the venue sold"),
        "{elsewhere}"
    );
    // No face of the other venue's part completes earlier than its own winners.
    let theirs = winners(&file, &[(101, 200)], &pattern, &calls).unwrap();
    assert!(theirs.iter().all(|&(f, _)| f > 100));
}
