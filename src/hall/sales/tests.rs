//! The rules of selling, tried in-process.

use super::jackpot::{Outcome, Progressive};
use super::*;
use crate::hall::event as ev;
use std::collections::BTreeSet;

pub(super) fn product(name: &str, price: u64, faces: u64, games: Vec<usize>) -> Product {
    Product {
        name: name.into(),
        price,
        faces,
        games,
        paper: None,
        electronic: false,
        linked: None,
    }
}

pub(super) fn sale(product: &str, first: u64, last: u64) -> Move {
    Move::Sale {
        product: product.into(),
        first,
        last,
        drawer: None,
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
pub(super) fn floor(played: &BTreeSet<usize>, any_game: bool) -> Floor<'_> {
    Floor {
        faces: 1..=200,
        serials: None,
        played,
        any_game,
    }
}

/// A book of 6 for every game, a single for game 2.
pub(super) fn two_products() -> Sales {
    Sales {
        products: vec![
            product("book", 1200, 6, vec![]),
            product("single", 200, 1, vec![2]),
        ],
        programme: 2,
        list: Vec::new(),
        rules: 0,
        drawers: Vec::new(),
        electronic: None,
        packs: Default::default(),
    }
}

/// `m` checked and booked on a night whose games have not started.
fn take(s: &mut Sales, m: Move) -> Result<(), SaleError> {
    let played = BTreeSet::new();
    let e = s.event(&m, &floor(&played, false))?;
    s.book(&e);
    Ok(())
}

/// The faces given back: 25 to 36 of the first book sale.
fn returned() -> Move {
    Move::Return {
        product: "book".into(),
        first: 25,
        last: 36,
    }
}

/// A night's sales: books 1 to 60, singles 101 to 110, faces 25 to 36
/// returned, and face 30 sold again as a single.
fn a_night_of_sales() -> Sales {
    let mut s = two_products();
    take(&mut s, sale("book", 1, 60)).unwrap();
    take(&mut s, sale("single", 101, 110)).unwrap();
    take(&mut s, returned()).unwrap();
    // Returned faces may be sold again.
    take(&mut s, sale("single", 30, 30)).unwrap();
    s
}

#[test]
fn a_face_is_sold_once_and_returned_within_its_sale() {
    let mut s = a_night_of_sales();
    assert!(matches!(
        take(&mut s, sale("book", 61, 64)),
        Err(SaleError::Units { ref suggest, .. }) if suggest == "61..66"
    ));
    assert!(matches!(
        take(&mut s, sale("single", 60, 60)),
        Err(SaleError::SoldTwice { sale: 1, .. })
    ));
    assert!(matches!(
        take(&mut s, sale("book", 199, 204)),
        Err(SaleError::Outside { .. })
    ));
    assert!(matches!(
        take(&mut s, returned()),
        Err(SaleError::NotIssued { .. })
    ));
    assert_eq!(s.sold_for(Some(1)), vec![1..=24, 37..=60]);
    assert_eq!(
        s.sold_for(Some(2)),
        vec![1..=24, 30..=30, 37..=60, 101..=110]
    );
    assert_eq!(s.sold_for(None), vec![1..=24, 37..=60]);
}

#[test]
fn a_games_sales_are_less_returns_and_voids_and_none_are_made_after_its_games() {
    let mut s = a_night_of_sales();
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
        void: false,
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

// See: issue 62, paper that does not exist sold: an imported file whose
// serials have gaps sold a book of numbers in the gap, and a single in it.
#[test]
fn paper_in_an_imports_gap_is_never_sold() {
    let serials = crate::cardfile::serials::Serials {
        prefix: "CH-".into(),
        width: 5,
        runs: vec![(4512, 6), (4530, 30)],
    };
    let played = BTreeSet::new();
    let open = Floor {
        faces: 4512..=4559,
        serials: Some(&serials),
        played: &played,
        any_game: false,
    };
    let s = Sales {
        products: vec![
            product("book", 1200, 6, vec![]),
            product("single", 200, 1, vec![]),
        ],
        programme: 1,
        list: Vec::new(),
        rules: 0,
        drawers: Vec::new(),
        electronic: None,
        packs: Default::default(),
    };
    let refused = |m: Move| s.event(&m, &open).unwrap_err();
    let gap = refused(sale("book", 4518, 4523));
    assert!(
        matches!(gap, SaleError::Missing { missing: 4518, .. }),
        "{gap:?}"
    );
    assert!(gap.to_string().contains("its next face is 4530"), "{gap}");
    assert!(matches!(
        refused(sale("single", 4525, 4525)),
        SaleError::Missing { missing: 4525, .. }
    ));
    assert!(matches!(
        refused(sale("book", 4515, 4520)),
        SaleError::Missing { missing: 4518, .. }
    ));
    s.event(&sale("book", 4512, 4517), &open).unwrap();
    s.event(&sale("book", 4530, 4535), &open).unwrap();
    s.event(&sale("single", 4559, 4559), &open).unwrap();
}

// See: issue 62, a return of half of two books refunded one book, and
// its faces then sold again as one "book".
#[test]
fn a_return_is_of_whole_units_as_sold() {
    let played = BTreeSet::new();
    let open = floor(&played, false);
    let mut s = two_products();
    let e = s.event(&sale("book", 1, 60), &open).unwrap();
    s.book(&e);
    let back = |first, last| Move::Return {
        product: "book".into(),
        first,
        last,
    };
    let split = s.event(&back(4, 9), &open).unwrap_err();
    assert!(
        matches!(split, SaleError::SplitsUnits { lo: 1, hi: 12, .. }),
        "{split:?}"
    );
    assert!(split.to_string().contains("such as 1..12"), "{split}");
    // The suggestion is itself taken.
    let e = s.event(&back(1, 12), &open).unwrap();
    s.book(&e);
    s.event(&back(13, 18), &open).unwrap();
}

fn snowball() -> Progressive {
    Progressive {
        name: "Snowball".into(),
        seed: 50_000,
        increment: 5_000,
        share: Percent(1000),
        within: 48,
        add_calls: 1,
        ceiling: Some(60_000),
        must_go: None,
    }
}

fn night_line(
    night: &str,
    outcome: Outcome,
    after: &super::jackpot::Pot,
) -> crate::hall::LedgerEvent {
    crate::hall::LedgerEvent::JackpotNight(ev::JackpotNight {
        night: night.into(),
        title: String::new(),
        outcome,
        pot: after.pot,
        within: after.within,
    })
}

fn play_line(night: &str, game: u64) -> crate::hall::LedgerEvent {
    crate::hall::LedgerEvent::JackpotPlay(ev::JackpotPlay {
        night: night.into(),
        title: String::new(),
        name: "Snowball".into(),
        game,
        log: format!("{night}.jsonl"),
    })
}

fn outcome(offered: u64, within: usize, won: bool, paid: u64) -> Outcome {
    Outcome {
        name: "Snowball".into(),
        game: 2,
        offered,
        within,
        won,
        paid,
        void: false,
    }
}

// See: issue 62, a voided progressive game was carried as "not won"
// (+increment, +1 call) with nothing saying it was voided.
#[test]
fn a_voided_game_leaves_the_pot_as_it_stood() {
    let pot = snowball().fresh();
    let void = Outcome {
        void: true,
        ..outcome(51_000, 48, false, 0)
    };
    assert_eq!(pot.next(&void, 75), pot);
    assert_eq!(pot.impossible(&void, 75), None);
    let won_void = Outcome {
        won: true,
        paid: 51_000,
        ..void
    };
    assert!(pot.impossible(&won_void, 75).is_some());
}

// See: issue 62, a ledger with impossible lines (an offer below the pot
// carried in, paid three times the offer) passed verify without its
// nights' logs, and the hall opened on it.
#[test]
fn a_ledger_line_the_jackpot_s_rules_cannot_give_is_refused_on_its_own() {
    use super::ledger::Standing;
    let begin = crate::hall::LedgerEvent::JackpotOpen(ev::JackpotOpen { rules: snowball() });
    let pot = snowball().fresh();
    let try_night = |o: Outcome| {
        let mut s = Standing::default();
        s.step(&begin, 75).unwrap();
        let after = pot.next(&o, 75);
        s.step(&night_line("n1", o, &after), 75)
    };
    try_night(outcome(51_280, 48, false, 0)).unwrap();
    try_night(outcome(51_280, 48, true, 51_280)).unwrap();
    try_night(outcome(75_000, 75, true, 60_000)).unwrap_err();
    let below = try_night(outcome(40_000, 48, false, 0)).unwrap_err();
    assert!(below.contains("below the pot carried in"), "{below}");
    let thrice = try_night(outcome(51_280, 48, true, 153_840)).unwrap_err();
    assert!(thrice.contains("but 51280 was offered"), "{thrice}");
    let calls = try_night(outcome(51_280, 20, false, 0)).unwrap_err();
    assert!(calls.contains("within 20 calls"), "{calls}");
    let unpaid = try_night(outcome(51_280, 48, false, 100)).unwrap_err();
    assert!(unpaid.contains("not won, but 100 paid"), "{unpaid}");
}

// See: issue 62, the ledger out of order: a night opened, and played the
// pot, while another night's game of it had no outcome in the ledger.
#[test]
fn a_jackpot_in_play_is_played_by_no_other_night_until_its_outcome_is_in() {
    use super::ledger::Standing;
    let mut s = Standing::default();
    s.step(
        &crate::hall::LedgerEvent::JackpotOpen(ev::JackpotOpen { rules: snowball() }),
        75,
    )
    .unwrap();
    s.step(&play_line("n1", 2), 75).unwrap();
    assert_eq!(s.in_play("Snowball", "n2").map(|p| p.game), Some(2));
    assert_eq!(s.in_play("Snowball", "n1"), None);
    let twice = s.clone().step(&play_line("n2", 2), 75).unwrap_err();
    assert!(twice.contains("had it in play"), "{twice}");
    // The same night's play cut short before its log gives way.
    s.step(&play_line("n1", 3), 75).unwrap();
    let pot = snowball().fresh();
    let o = Outcome {
        game: 3,
        ..outcome(51_280, 48, true, 51_280)
    };
    let after = pot.next(&o, 75);
    s.step(&night_line("n1", o, &after), 75).unwrap();
    assert_eq!(s.in_play("Snowball", "n2"), None);
    // A night plays a jackpot once: a copy of it cannot play it again.
    let again = s.clone().step(&play_line("n1", 4), 75).unwrap_err();
    assert!(
        again.contains("after its game of it was recorded"),
        "{again}"
    );
    s.step(&play_line("n2", 2), 75).unwrap();
}

// See: issue 62, the period took 2026-02-31 and 2026-04-31 as dates.
#[test]
fn a_date_is_a_day_of_its_month() {
    use super::parse::is_date;
    for good in [
        "2026-02-28",
        "2024-02-29",
        "2000-02-29",
        "2026-04-30",
        "2026-12-31",
    ] {
        assert!(is_date(good), "{good}");
    }
    for bad in [
        "2026-02-31",
        "2026-04-31",
        "2026-02-29",
        "1900-02-29",
        "2026-13-01",
        "2026-00-10",
    ] {
        assert!(!is_date(bad), "{bad}");
    }
}

#[test]
fn a_linked_product_plays_none_of_the_nights_games_and_sells_after_they_start() {
    let mut sales = two_products();
    let mut national = product("national", 300, 6, vec![]);
    national.linked = Some("national-1".into());
    sales.products.push(national);
    let none = BTreeSet::new();
    for m in [sale("book", 1, 6), sale("national", 7, 18)] {
        let line = sales.event(&m, &floor(&none, false)).unwrap();
        sales.book(&line);
    }
    // Only the book's takings make the night's games' sales and faces.
    assert_eq!(sales.game_sales(Some(1)), 600, "1200 over two games");
    assert_eq!(sales.sold_for(Some(1)), vec![1..=6]);
    assert_eq!(sales.games_of(7), None, "no game of the night plays it");
    assert_eq!(sales.held_by(2), (vec![7..=18], 600));
    // Game 1 started: the book is shut, the linked game's paper is not.
    let started = BTreeSet::from([1]);
    let open = floor(&started, true);
    assert!(sales.event(&sale("book", 19, 24), &open).is_err());
    let late = sales.event(&sale("national", 19, 24), &open).unwrap();
    sales.book(&late);
    assert_eq!(sales.held_by(2), (vec![7..=24], 900));
}

// See: issue 65, item 4: `183..188` (books are 181–186, 187–192) was
// taken as one book, and the hint ("give 100..111") was off the books too.
#[test]
fn a_session_of_the_current_rules_sells_whole_units_on_the_files_own_boundaries() {
    let mut s = two_products();
    let none = BTreeSet::new();
    let err = |s: &Sales, m: Move| s.event(&m, &floor(&none, false)).unwrap_err().to_string();
    // An older build's session: any run of whole units, as it was logged.
    assert!(s
        .event(&sale("book", 183, 188), &floor(&none, false))
        .is_ok());
    s.rules = SELLING;
    assert_eq!(
        err(&s, sale("book", 183, 188)),
        "183..188 does not start on a unit of \"book\": its units of 6 faces are the card file's own (181..186 holds face 183): give 181..192"
    );
    assert_eq!(
        err(&s, sale("book", 100, 111)),
        "100..111 does not start on a unit of \"book\": its units of 6 faces are the card file's own (97..102 holds face 100): give 97..114"
    );
    assert_eq!(
        err(&s, sale("book", 62, 65)),
        "62..65 is 4 faces, not whole units of \"book\" (6 faces a unit): give 61..66"
    );
    let line = s
        .event(&sale("book", 181, 192), &floor(&none, false))
        .unwrap();
    s.book(&line);
    // Singles are every face's own unit; a return keeps to its sale's units.
    assert!(s.event(&sale("single", 7, 9), &floor(&none, false)).is_ok());
    let back = Move::Return {
        product: "book".into(),
        first: 187,
        last: 192,
    };
    assert!(s.event(&back, &floor(&none, false)).is_ok());
}

// See: issue 65, item 3: late sales.
#[test]
fn a_late_sale_gives_only_the_games_still_to_come_their_share() {
    let mut s = two_products();
    s.programme = 3;
    let none = BTreeSet::new();
    let line = s.event(&sale("book", 1, 6), &floor(&none, false)).unwrap();
    s.book(&line);
    let one = BTreeSet::from([1]);
    // An older build's session refused it; this one sells it late.
    assert!(matches!(
        s.event(&sale("book", 7, 12), &floor(&one, true)),
        Err(SaleError::Started { .. })
    ));
    s.rules = SELLING;
    let line = s.event(&sale("book", 7, 18), &floor(&one, true)).unwrap();
    let SaleLine::Sale(ref made) = line else {
        panic!("{line:?}")
    };
    assert_eq!(made.games, [2, 3]);
    s.book(&line);
    // 12.00 over three games (4.00 each), then 24.00 over two (12.00 each).
    assert_eq!(
        (
            s.game_sales(Some(1)),
            s.game_sales(Some(2)),
            s.game_sales(Some(3))
        ),
        (400, 1600, 1600)
    );
    assert_eq!(s.sold_for(Some(1)), vec![1..=6]);
    assert_eq!(s.sold_for(Some(2)), vec![1..=18]);
    assert_eq!(s.games_of(9), Some(vec![2, 3]));
    let all = BTreeSet::from([1, 2, 3]);
    assert!(matches!(
        s.event(&sale("book", 19, 24), &floor(&all, true)),
        Err(SaleError::AllStarted { .. })
    ));
}
