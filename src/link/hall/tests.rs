use super::*;
use crate::link::message::{Allotment, Takings};

fn part(faces: Vec<Faces>, amount: u64) -> Part {
    Part {
        products: vec!["National book".into()],
        faces,
        amount,
        stock: "STOCK".into(),
    }
}

fn allot(venue: &str, faces: Vec<Faces>) -> Allotment {
    Allotment {
        venue: venue.into(),
        faces,
    }
}

/// The control's records as a venue kept them: two venues, `york` booked
/// faces 3001..3012 for 1200 and paid face 3005.
fn said() -> Said {
    let mut s = Said::default();
    (s.stock, s.allotted, s.sold, s.takings, s.settled) = (
        "STOCK".into(),
        vec![
            allot("leeds", vec![(1, 3000)]),
            allot("york", vec![(3001, 6000)]),
        ],
        vec![
            allot("leeds", vec![(1, 6)]),
            allot("york", vec![(3001, 3012)]),
        ],
        vec![
            Takings {
                venue: "leeds".into(),
                faces: 6,
                amount: 600,
            },
            Takings {
                venue: "york".into(),
                faces: 12,
                amount: 1200,
            },
        ],
        Some((
            Some(40),
            vec![Payout {
                venue: "york".into(),
                face: 3005,
                amount: 5000,
            }],
        )),
    );
    s
}

#[test]
fn a_night_that_sold_what_the_control_booked_agrees() {
    let a = check(&part(vec![(3001, 3006), (3007, 3012)], 1200), &said());
    assert_eq!(a.problems, Vec::<String>::new());
    assert_eq!(a.venue.as_deref(), Some("york"));
    assert_eq!(a.booked, Some((12, 1200)));
    assert_eq!(a.payouts.len(), 1);
    assert_eq!(a.payouts[0].face, 3005);
}

#[test]
fn other_faces_or_takings_than_booked_are_named() {
    let a = check(&part(vec![(3001, 3018)], 1200), &said());
    assert_eq!(a.problems.len(), 1, "{:?}", a.problems);
    assert!(
        a.problems[0].contains("booked faces 3001..3012"),
        "{:?}",
        a.problems
    );
    let a = check(&part(vec![(3001, 3012)], 1100), &said());
    assert_eq!(a.problems.len(), 1);
    assert!(
        a.problems[0].contains("takings of 1200"),
        "{:?}",
        a.problems
    );
}

#[test]
fn a_payout_on_a_face_the_night_did_not_sell_is_named() {
    let mut s = said();
    s.sold[1].faces = vec![(3006, 3012)];
    s.takings[1] = Takings {
        venue: "york".into(),
        faces: 7,
        amount: 700,
    };
    let a = check(&part(vec![(3006, 3012)], 700), &s);
    assert_eq!(a.problems.len(), 1, "{:?}", a.problems);
    assert!(a.problems[0].contains("pays face 3005"), "{:?}", a.problems);
}

#[test]
fn another_stock_or_faces_across_allotments_are_refused() {
    let mut p = part(vec![(3001, 3012)], 1200);
    p.stock = "OTHER".into();
    let a = check(&p, &said());
    assert!(
        a.problems[0].contains("card file OTHER"),
        "{:?}",
        a.problems
    );
    let a = check(&part(vec![(2995, 3006)], 1200), &said());
    assert!(
        a.problems[0].contains("within no one venue's allotment"),
        "{:?}",
        a.problems
    );
    assert_eq!(a.venue, None);
}

#[test]
fn ranges_merge_where_they_touch() {
    assert_eq!(
        merged(vec![(7, 12), (1, 6), (20, 25), (13, 13)]),
        vec![(1, 13), (20, 25)]
    );
}
