//! The cash-up's rules, tried in-process.

use super::super::tests::{floor, sale, two_products};
use super::super::{Move, SaleError, SaleLine, Sales};
use std::collections::BTreeSet;

// See: issue 65, item 1: the session's cash-up.
#[test]
fn each_drawer_is_counted_against_its_float_and_the_sales_it_took() {
    let mut s = two_products();
    let none = BTreeSet::new();
    let open = || floor(&none, false);
    let take = |s: &mut Sales, m: Move| -> Result<SaleLine, SaleError> {
        let line = s.event(&m, &open())?;
        s.book(&line);
        Ok(line)
    };
    let float = |drawer: &str, amount| Move::Float {
        drawer: drawer.into(),
        amount,
    };
    let at = |drawer: &str, first, last| Move::Sale {
        product: "book".into(),
        first,
        last,
        drawer: Some(drawer.into()),
    };
    assert!(matches!(
        take(&mut s, at("Door", 1, 6)),
        Err(SaleError::NoDrawer(_))
    ));
    take(&mut s, float("Door", 5_000)).unwrap();
    take(&mut s, float("Bar", 2_000)).unwrap();
    assert!(matches!(
        take(&mut s, float("Door", 1)),
        Err(SaleError::Floated(..))
    ));
    take(&mut s, at("Door", 1, 60)).unwrap();
    take(&mut s, at("Bar", 61, 72)).unwrap();
    take(&mut s, sale("book", 73, 78)).unwrap();
    let back = Move::Return {
        product: "book".into(),
        first: 55,
        last: 60,
    };
    take(&mut s, back).unwrap();
    // Door: 50.00 + 120.00 - 12.00 refunded; counted exact.
    let Ok(SaleLine::Count(door)) = take(
        &mut s,
        Move::Count {
            drawer: "Door".into(),
            counted: 15_800,
            denominations: Vec::new(),
        },
    ) else {
        panic!("no count")
    };
    assert_eq!(
        (door.expected, door.over, door.deposit),
        (15_800, 0, 10_800)
    );
    // Bar: 20.00 + 24.00, counted 42.00: 2.00 short.
    let Ok(SaleLine::Count(bar)) = take(
        &mut s,
        Move::Count {
            drawer: "Bar".into(),
            counted: 4_200,
            denominations: vec![(2_000, 2), (100, 2)],
        },
    ) else {
        panic!("no count")
    };
    assert_eq!((bar.expected, bar.over, bar.deposit), (4_400, -200, 2_200));
    assert!(matches!(
        take(&mut s, at("Bar", 79, 84)),
        Err(SaleError::Counted(_))
    ));
    let shown = s.cash_up();
    assert_eq!(shown.len(), 2);
    assert_eq!((shown[1].takings, shown[1].over), (2_400, Some(-200)));
}

#[test]
fn a_count_by_denomination_is_their_sum_each_value_once() {
    use super::denominations_sum;
    assert_eq!(
        denominations_sum(&[(2_000, 4), (100, 6), (50, 0)]).unwrap(),
        8_600
    );
    let refused = |d: &[(u64, u64)]| denominations_sum(d).unwrap_err().to_string();
    assert!(refused(&[(2_000, 1), (2_000, 2)]).contains("20.00 is given twice"));
    assert!(refused(&[(0, 3)]).contains("no value"));
    assert!(matches!(
        denominations_sum(&[(u64::MAX / 2, 3)]),
        Err(SaleError::TooLarge)
    ));
    assert!(refused(&[(1, 1); 41]).contains("at most 40"));
}
