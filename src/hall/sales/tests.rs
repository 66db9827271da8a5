//! The rules of selling, tried in-process.

use super::jackpot::{Outcome, Progressive};
use super::*;
use std::collections::BTreeSet;

fn product(name: &str, price: u64, faces: u64, games: Vec<usize>) -> Product {
    Product {
        name: name.into(),
        price,
        faces,
        games,
        paper: None,
        electronic: false,
    }
}

fn sale(product: &str, first: u64, last: u64) -> Move {
    Move::Sale {
        product: product.into(),
        first,
        last,
    }
}

#[test]
fn shares_are_read_to_the_hundredth_of_a_percent_and_rounded_down() {
    assert_eq!(Percent::parse("50%"), Ok(Percent(5000)));
    assert_eq!(Percent::parse(" 12.5 %"), Ok(Percent(1250)));
    assert_eq!(Percent::parse("0.25%"), Ok(Percent(25)));
    for bad in ["50", "50.123%", "-5%", "%", "1e2%", "101%", "12.%"] {
        assert!(Percent::parse(bad).is_err(), "{bad}");
    }
    assert_eq!(Percent(1250).words(), "12.5%");
    assert_eq!(Percent(3333).of(100), 33);
    let cut = Cut {
        share: Percent(5000),
        min: 2000,
        max: Some(50_000),
    };
    assert_eq!(
        (cut.amount(0), cut.amount(4801), cut.amount(10_000_000)),
        (2000, 2400, 50_000)
    );
}

/// A card file of 200 faces, the programme's games `played`.
fn floor(played: &BTreeSet<usize>, any_game: bool) -> Floor<'_> {
    Floor {
        faces: 1..=200,
        played,
        any_game,
    }
}

/// A book of 6 for every game, a single for game 2.
fn two_products() -> Sales {
    Sales {
        products: vec![
            product("book", 1200, 6, vec![]),
            product("single", 200, 1, vec![2]),
        ],
        programme: 2,
        list: Vec::new(),
    }
}

#[test]
fn a_face_is_sold_once_returned_within_its_sale_and_never_after_its_games() {
    let played = BTreeSet::new();
    let open = floor(&played, false);
    let mut s = two_products();
    let take = |s: &mut Sales, m: Move| -> Result<(), SaleError> {
        let e = s.event(&m, &open)?;
        s.book(&e);
        Ok(())
    };
    take(&mut s, sale("book", 1, 60)).unwrap();
    assert!(matches!(
        take(&mut s, sale("book", 61, 64)),
        Err(SaleError::Units { suggest: 66, .. })
    ));
    assert!(matches!(
        take(&mut s, sale("single", 60, 60)),
        Err(SaleError::SoldTwice { sale: 1, .. })
    ));
    assert!(matches!(
        take(&mut s, sale("book", 199, 204)),
        Err(SaleError::Outside { .. })
    ));
    take(&mut s, sale("single", 101, 110)).unwrap();
    let back = Move::Return {
        product: "book".into(),
        first: 25,
        last: 36,
    };
    take(&mut s, back.clone()).unwrap();
    assert!(matches!(
        take(&mut s, back),
        Err(SaleError::NotIssued { .. })
    ));
    // Returned faces may be sold again.
    take(&mut s, sale("single", 30, 30)).unwrap();
    assert_eq!(s.sold_for(Some(1)), vec![1..=24, 37..=60]);
    assert_eq!(
        s.sold_for(Some(2)),
        vec![1..=24, 30..=30, 37..=60, 101..=110]
    );
    assert_eq!(s.sold_for(None), vec![1..=24, 37..=60]);
    // The book's 8 units (96.00) over its two games; the singles' 11.
    assert_eq!(s.game_sales(Some(1)), 4800);
    assert_eq!(s.game_sales(Some(2)), 4800 + 2200);
    assert_eq!(s.game_sales(None), 0);
    let void = Move::Void {
        sale: 2,
        reason: "wrong pack".into(),
    };
    take(&mut s, void.clone()).unwrap();
    assert!(matches!(take(&mut s, void), Err(SaleError::Voided(2))));
    assert_eq!(s.game_sales(Some(2)), 4800 + 200);
    let shown = s.shown();
    assert_eq!(
        (shown.gross, shown.refunds, shown.voided, shown.net),
        (12_000 + 2000 + 200, 2400, 2000, 9800)
    );
    // Once game 2 started, its products are neither sold nor returned.
    let played: BTreeSet<usize> = [1, 2].into();
    let late = floor(&played, true);
    assert!(matches!(
        s.event(&sale("single", 150, 150), &late),
        Err(SaleError::Started { .. })
    ));
    assert!(matches!(
        s.event(&sale("book", 150, 155), &late),
        Err(SaleError::Started { .. })
    ));
}

#[test]
fn a_pot_carries_its_increment_and_calls_until_won_and_stops_at_its_ceiling() {
    let rules = Progressive {
        name: "Snowball".into(),
        seed: 50_000,
        increment: 5_000,
        share: Percent(1000),
        within: 48,
        add_calls: 1,
        ceiling: Some(60_000),
        must_go: Some("2026-12-31".into()),
    };
    let pot = rules.fresh();
    let (progress, offered, within) = pot.offer(12_800, false, 75);
    assert_eq!((progress.added, offered, within), (1_280, 51_280, 48));
    let outcome = |offered, within, won| Outcome {
        name: "Snowball".into(),
        game: 2,
        offered,
        within,
        won,
        paid: 0,
    };
    let next = pot.next(&outcome(offered, within, false), 75);
    assert_eq!((next.pot, next.within), (56_280, 49));
    let next = next.next(&outcome(59_000, 49, false), 75);
    assert_eq!((next.pot, next.within), (60_000, 50), "the ceiling");
    assert_eq!(next.offer(1_000_000, false, 75).1, 60_000);
    // The must-go date: any full win takes it.
    assert!(rules.must_go_on("2026-12-31") && !rules.must_go_on("2026-12-30"));
    assert_eq!(next.offer(0, true, 75).2, 75);
    let won = next.next(&outcome(60_000, 75, true), 75);
    assert_eq!((won.pot, won.within), (50_000, 48));
}
