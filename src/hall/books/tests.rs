//! Every money rule of the night, tried on [`Books::decide`] in-process:
//! no socket, no log file. A game of balls keyed in from a blower makes
//! each deterministic; 200 75-ball cards, faces 4 to 6 holding column B
//! once every B number is out.

use super::super::judge::Cards;
use super::super::rules::{Plan, Rules, Share};
use super::super::{Event, Refusal};
use super::{Books, ClaimAsked, Command, Draw};
use crate::cardfile::CardFile;
use crate::hall::event as ev;

/// 200 75-ball cards of seed 11, faces `sold` sold.
fn cards(sold: std::ops::RangeInclusive<u64>) -> (tempfile::TempDir, Cards) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c.bmc");
    let plan = crate::pipeline::file::Plan {
        force: true,
        ..crate::pipeline::file::Plan::new(crate::game::Spec::named("75").unwrap(), 200, 11, &out)
    };
    crate::pipeline::file::generate(&plan, &|_: u64| {}).unwrap();
    let cards = Cards::new(vec![CardFile::open(&out).unwrap()], Some(vec![sold]));
    (dir, cards)
}

/// A game of `stages` paying `amounts` (pence), shared by `share`.
fn plan(stages: &[&str], amounts: &[u64], share: Share) -> Plan {
    Plan {
        stages: stages.iter().map(|s| s.to_string()).collect(),
        prize: String::new(),
        last_call: false,
        rules: Rules {
            currency: "£".into(),
            amounts: amounts.to_vec(),
            share,
            ..Rules::default()
        },
    }
}

/// Decides `command` and applies its events, as the shell does.
fn run(books: &mut Books, cards: &Cards, command: Command) -> Result<Vec<Event>, Refusal> {
    let events = books.decide(cards, command)?.events;
    for e in &events {
        books.apply(e, cards).unwrap();
    }
    Ok(events)
}

/// A blower's game of `plan` with `balls` keyed in.
fn game(cards: &Cards, plan: Plan, balls: impl IntoIterator<Item = u8>) -> Books {
    let mut books = Books::default();
    let start = Command::Start {
        plan: Box::new(plan),
        draw: Draw::Blower,
        today: "2026-11-27".into(),
    };
    run(&mut books, cards, start).unwrap();
    for b in balls {
        run(&mut books, cards, Command::Call(Some(b))).unwrap();
    }
    books
}

fn claim(card: &str, accept: bool) -> Command {
    Command::Claim(ClaimAsked {
        card: Some(card.into()),
        accept,
        ..ClaimAsked::default()
    })
}

fn kinds(events: &[Event]) -> Vec<&'static str> {
    (events.iter())
        .map(|e| match e {
            Event::Claim(_) => "claim",
            Event::Payout(_) => "payout",
            Event::Stage(_) => "stage",
            Event::GameEnd(_) => "end",
            Event::Queued(_) => "queued",
            Event::Call(_) => "call",
            Event::Recall(_) => "recall",
            _ => "other",
        })
        .collect()
}

fn winners(events: &[Event]) -> Vec<String> {
    (events.iter())
        .find_map(|e| match e {
            Event::Payout(ev::Payout { winners, .. }) => Some(winners.clone()),
            _ => None,
        })
        .unwrap_or_default()
        .iter()
        .map(|w| w.split(" of ").next().unwrap().to_string())
        .collect()
}

#[test]
fn a_claim_its_payout_and_the_move_on_are_one_decision() {
    let (_d, cards) = cards(4..=6);
    let mut books = game(
        &cards,
        plan(&["column", "coverall"], &[1000, 5000], Share::Claimed),
        1..=15,
    );
    let events = run(&mut books, &cards, claim("5", true)).unwrap();
    assert_eq!(kinds(&events), ["claim", "payout", "stage"]);
    assert_eq!(books.paid, 1000);
    assert_eq!(books.open.as_ref().unwrap().stage, 1);
}

#[test]
fn claimed_pays_the_claimants_and_all_holders_every_face() {
    let (_d, cards) = cards(4..=6);
    // A sleeper: card 4 holds the column too, but nobody claims it.
    let mut books = game(&cards, plan(&["column"], &[3000], Share::Claimed), 1..=15);
    let bingo = Command::Bingo {
        card: "6".into(),
        client_waiting: 0,
        device: None,
    };
    run(&mut books, &cards, bingo).unwrap();
    let (verdict, _) = books
        .claim(
            &cards,
            &ClaimAsked {
                card: Some("5".into()),
                ..Default::default()
            },
        )
        .unwrap();
    assert_eq!(
        verdict.split.as_deref(),
        Some("£30.00 shared by 2: £15.00, £15.00")
    );
    let events = run(&mut books, &cards, claim("5", true)).unwrap();
    assert_eq!(winners(&events), ["card 5", "card 6"]);

    let mut books = game(
        &cards,
        plan(&["column"], &[3000], Share::AllHolders),
        1..=15,
    );
    let events = run(&mut books, &cards, claim("5", true)).unwrap();
    assert_eq!(winners(&events), ["card 5", "card 4", "card 6"]);
}

#[test]
fn a_recall_at_or_before_a_paid_call_is_refused() {
    let (_d, cards) = cards(4..=6);
    let mut books = game(
        &cards,
        plan(&["column", "coverall"], &[1000, 5000], Share::Claimed),
        1..=15,
    );
    run(&mut books, &cards, claim("5", true)).unwrap();
    let refused = books.decide(&cards, Command::Recall).unwrap_err();
    assert!(
        matches!(
            refused,
            Refusal::RecallPaid {
                call: 15,
                paid_at: 15,
                ..
            }
        ),
        "{refused}"
    );
    // A ball after the paid call can be taken back.
    run(&mut books, &cards, Command::Call(Some(16))).unwrap();
    let events = run(&mut books, &cards, Command::Recall).unwrap();
    assert_eq!(kinds(&events), ["recall"]);
}

#[test]
fn a_claim_queued_on_a_recalled_ball_is_closed_never_paid() {
    let (_d, cards) = cards(4..=6);
    let mut books = game(&cards, plan(&["column"], &[1000], Share::Claimed), 1..=15);
    let bingo = Command::Bingo {
        card: "5".into(),
        client_waiting: 0,
        device: None,
    };
    let queued = run(&mut books, &cards, bingo).unwrap();
    let Event::Queued(ev::Queued { id, win: true, .. }) = queued[0] else {
        panic!("{queued:?}")
    };
    // Balls 15 down to 5 taken back: four B numbers cannot make a column.
    for _ in 0..11 {
        run(&mut books, &cards, Command::Recall).unwrap();
    }
    let decide = Command::Claim(ClaimAsked {
        queued: Some(id),
        accept: true,
        ..ClaimAsked::default()
    });
    assert!(matches!(books.decide(&cards, decide), Err(Refusal::NotWaiting(i)) if i == id));
    let status = books.queue.status(id).unwrap();
    assert!(status.reason.contains("call 15 was recalled"), "{status:?}");
    // Judged again at the calls shown, the card no longer wins.
    let (verdict, events) = books
        .claim(
            &cards,
            &ClaimAsked {
                card: Some("5".into()),
                accept: true,
                ..Default::default()
            },
        )
        .unwrap();
    assert_eq!((verdict.win, verdict.call), (false, 4));
    assert_eq!(kinds(&events), ["claim"]);
}

#[test]
fn an_accepted_win_without_its_payout_line_is_paid_on_resume() {
    let (_d, cards) = cards(4..=6);
    let mut books = game(&cards, plan(&["column"], &[1000], Share::Claimed), 1..=15);
    let events = books.decide(&cards, claim("5", true)).unwrap().events;
    // A crash of an older hall after the claim's line: only it was written.
    books.apply(&events[0], &cards).unwrap();
    assert!(books.unpaid.is_some());
    let (paid, said) = books.complete_payout(&cards).unwrap();
    assert_eq!(kinds(&paid), ["payout", "end"]);
    assert!(said.unwrap().contains("it is paid now"));
    for e in &paid {
        books.apply(e, &cards).unwrap();
    }
    assert_eq!(books.paid, 1000);
    assert!(books.open.is_none());
}

#[test]
fn a_win_of_a_prize_paid_already_is_not_paid_twice() {
    let (_d, cards) = cards(4..=6);
    let mut books = game(
        &cards,
        plan(&["column", "coverall"], &[1000, 5000], Share::Claimed),
        1..=15,
    );
    run(&mut books, &cards, claim("5", true)).unwrap();
    // The column was paid to card 5 alone; card 4 holds it, too late.
    let asked = ClaimAsked {
        card: Some("4".into()),
        accept: true,
        named: Some("column".into()),
        ..Default::default()
    };
    assert!(matches!(
        books.claim(&cards, &asked),
        Err(Refusal::NoSuchPrize { .. })
    ));
}

#[test]
fn a_blower_s_ball_is_a_number_of_the_game_and_called_once() {
    let (_d, cards) = cards(4..=6);
    let books = game(&cards, plan(&["line"], &[], Share::Claimed), [7]);
    let again = books.decide(&cards, Command::Call(Some(7))).unwrap_err();
    assert!(matches!(again, Refusal::BallCalled { ball: 7, call: 1 }));
    let outside = books.decide(&cards, Command::Call(Some(76))).unwrap_err();
    assert!(matches!(
        outside,
        Refusal::BallOutside {
            ball: 76,
            balls: 75
        }
    ));
    let none = books.decide(&cards, Command::Call(None)).unwrap_err();
    assert!(matches!(none, Refusal::BallNeeded(1)));
}

#[test]
fn rules_that_cannot_be_won_or_paid_are_refused_at_the_start() {
    let (_d, cards) = cards(4..=6);
    let books = Books::default();
    let start = |plan| Command::Start {
        plan: Box::new(plan),
        draw: Draw::Blower,
        today: "2026-11-27".into(),
    };
    let repeated = plan(&["line", "line", "coverall"], &[], Share::Claimed);
    let e = books.decide(&cards, start(repeated)).unwrap_err();
    assert!(matches!(e, Refusal::Rules(_)), "{e}");
    // Words for a prize in a game with a currency: refused, not paid as null.
    let mut words = plan(&["line"], &[], Share::Claimed);
    words.prize = "£5 raffle line".into();
    let e = books.decide(&cards, start(words)).unwrap_err();
    assert!(e.to_string().contains("is not an amount"), "{e}");
    // A decimal comma is a decimal point.
    let mut comma = plan(&["line"], &[], Share::Claimed);
    comma.prize = "12,50".into();
    let events = books.decide(&cards, start(comma)).unwrap().events;
    let Event::GameStart(ev::GameStart { rules, .. }) = &events[0] else {
        panic!()
    };
    assert_eq!(rules.amounts, [1250]);
}

#[test]
fn a_bonanza_s_precalls_start_with_the_game_in_one_decision() {
    let (_d, cards) = cards(4..=6);
    let mut p = plan(&["coverall"], &[], Share::Claimed);
    p.rules.precalls = 40;
    p.rules.wild = true;
    let seed = format!("{}{}", crate::play::live::PREFIX, "ab".repeat(32));
    let events = Books::default()
        .decide(
            &cards,
            Command::Start {
                plan: Box::new(p),
                draw: Draw::Seed(seed.clone()),
                today: "2026-11-27".into(),
            },
        )
        .unwrap()
        .events;
    // The start, "no room seed", 40 calls and the wild digit after the first.
    assert_eq!(events.len(), 1 + 1 + 40 + 1);
    assert!(matches!(
        events[1],
        Event::RoomSeed(ev::RoomSeed {
            room_seed: None,
            ..
        })
    ));
    assert!(matches!(events[3], Event::Wild(_)));
    let order = crate::play::calls::Calls::of_hall(75, &seed, "", 75);
    let balls: Vec<u8> = (events.iter())
        .filter_map(|e| match e {
            Event::Call(ev::Call { ball, .. }) => Some(*ball),
            _ => None,
        })
        .collect();
    assert_eq!(balls, order.order()[..40]);
}

#[test]
fn apply_refuses_events_that_cannot_follow() {
    let (_d, cards) = cards(4..=6);
    let mut books = game(&cards, plan(&["line"], &[], Share::Claimed), [7, 8]);
    let call = |call, ball| {
        Event::Call(ev::Call {
            game: 1,
            call,
            ball,
            source: super::super::Source::Blower,
        })
    };
    assert!(books.apply(&call(5, 9), &cards).is_err(), "out of order");
    assert!(books.apply(&call(3, 0), &cards).is_err(), "ball 0");
    let recall = Event::Recall(ev::Recall {
        game: 1,
        call: 1,
        ball: 7,
    });
    assert!(books.apply(&recall, &cards).is_err(), "not the last call");
    let payout = Event::Payout(ev::Payout {
        game: 1,
        stage: "line".into(),
        call: 9,
        kind: None,
        amount: None,
        currency: String::new(),
        winners: vec!["card 5".into()],
        shares: vec![],
    });
    assert!(books.apply(&payout, &cards).is_err(), "a call not shown");
}

#[test]
fn a_voided_payout_opens_its_prize_again_and_lets_its_call_be_recalled() {
    let (_d, cards) = cards(4..=6);
    let stages = plan(&["column", "coverall"], &[1000, 5000], Share::Claimed);
    let mut books = game(&cards, stages, 1..=15);
    run(&mut books, &cards, claim("5", true)).unwrap();
    let void = |stage: Option<&str>, reason: &str| Command::Void {
        stage: stage.map(String::from),
        reason: reason.into(),
    };
    assert!(matches!(
        books.decide(&cards, void(None, "  ")),
        Err(Refusal::VoidReason)
    ));
    assert!(matches!(
        books.decide(&cards, void(Some("coverall"), "typo")),
        Err(Refusal::VoidNotLast { .. })
    ));
    let events = run(&mut books, &cards, void(None, "ball 15 was misread")).unwrap();
    assert!(matches!(&events[0], Event::Void(ev::Void { call: 15, .. })));
    let open = books.open.as_ref().unwrap();
    assert_eq!((open.stage, open.won(0), books.paid), (0, None, 0));
    assert!(open.announcement.as_deref().unwrap().contains("misread"));
    // Now the ball can be taken back, and nothing is left to void.
    assert_eq!(
        kinds(&run(&mut books, &cards, Command::Recall).unwrap()),
        ["recall"]
    );
    assert!(matches!(
        books.decide(&cards, void(None, "again")),
        Err(Refusal::NoPayout(1))
    ));
}

/// `balls` called one by one, `card` claimed (and accepted) at each:
/// the events of each claim that paid.
fn claimed_at_each_call(
    books: &mut Books,
    cards: &Cards,
    balls: &[u8],
    card: &str,
) -> Vec<Vec<Event>> {
    let mut paid = Vec::new();
    for &b in balls {
        run(books, cards, Command::Call(Some(b))).unwrap();
        let e = run(books, cards, claim(card, true)).unwrap();
        if kinds(&e).contains(&"payout") {
            paid.push(e);
        }
    }
    paid
}

/// The card numbers of winners labelled `card N of …`.
fn card_numbers(winners: &[String]) -> Vec<String> {
    (winners.iter())
        .map(|w| {
            let card = w.split(" of ").next().unwrap();
            card.trim_start_matches("card ").to_string()
        })
        .collect()
}

/// See: the floor (consolation prizes by closeness).
#[test]
fn the_consolation_pays_every_sold_face_that_far_when_the_last_stage_is_won() {
    let (_d, cards) = cards(1..=200);
    let numbers = |n: u64| -> Vec<u8> {
        let face = cards.face(0, n).unwrap();
        face.numbers().iter().copied().filter(|&x| x != 0).collect()
    };
    // 30 other numbers, then card 5's: card 5 holds the full house at
    // the last call, and a line on the way.
    let mut balls: Vec<u8> = (1..=75)
        .filter(|b| !numbers(5).contains(b))
        .take(30)
        .collect();
    balls.extend(numbers(5));
    // How many of each card's numbers are not called, counted here.
    let left = |n: u64| numbers(n).iter().filter(|x| !balls.contains(x)).count();
    let nearest = (1..=200u64).map(left).filter(|&d| d > 0).min().unwrap();
    for to_go in [None, Some(nearest as u8), Some(nearest as u8 + 1)] {
        let mut p = plan(&["line", "coverall"], &[1000, 5000], Share::Claimed);
        p.rules.near = Some(super::super::rules::Near { to_go, prize: 100 });
        let mut books = game(&cards, p, []);
        let paid = claimed_at_each_call(&mut books, &cards, &balls, "5");
        // No consolation for the line, a stage not the last.
        assert_eq!(kinds(&paid[0]), ["claim", "payout", "stage"]);
        assert_eq!(kinds(&paid[1]), ["claim", "payout", "other", "end"]);
        let events = paid;
        let Event::NearPayout(ev::NearPayout {
            to_go: d,
            faces,
            amount,
            winners,
            shares,
            ..
        }) = &events[1][2]
        else {
            panic!("{:?}", events[1][2])
        };
        let d = usize::from(*d);
        assert_eq!(d, usize::from(to_go.unwrap_or(nearest as u8)));
        let due: Vec<String> = (1..=200u64)
            .filter(|&n| n != 5 && left(n) == d)
            .map(|n| n.to_string())
            .collect();
        assert_eq!(card_numbers(winners), due);
        assert!(!due.is_empty() || to_go == Some(nearest as u8 + 1));
        assert_eq!(*faces, due.len() as u64);
        assert_eq!(*amount, 100);
        assert_eq!(*shares, crate::hall::money::split(100, due.len()));
        let near_paid: u64 = shares.iter().sum();
        assert_eq!(books.paid, 1000 + 5000 + near_paid);
    }
}

/// See: issue 63 (a sale was judged again by `apply`, twice live and three
/// times in verify). `apply` books what it is given; `check` is what a log
/// read back must pass, and names a sale the prices do not give.
#[test]
fn apply_books_a_line_as_it_stands_and_check_names_what_the_hall_would_not_have_written() {
    let (_d, cards) = cards(1..=200);
    let book = crate::hall::sales::Product {
        name: "Book".into(),
        price: 600,
        faces: 6,
        games: Vec::new(),
        paper: None,
        electronic: false,
        linked: None,
    };
    let session = Event::Session(ev::Session {
        files: Vec::new(),
        sold: None,
        note: None,
        night: None,
        id: Some("n".into()),
        products: vec![book],
        jackpots: Vec::new(),
        currency: "£".into(),
        selling: 0,
        zone: None,
        electronic: None,
    });
    let sale = |amount| {
        Event::Sale(ev::Sale {
            sale: 1,
            product: "Book".into(),
            first: 1,
            last: 12,
            units: 2,
            amount,
            games: Vec::new(),
            drawer: None,
        })
    };
    let mut books = Books::default();
    books.apply(&session, &cards).unwrap();
    assert_eq!(books.check(&sale(1200), &cards), Ok(()));
    assert_eq!(books.check(&sale(1), &cards), Err(super::Mismatch::Sale));
    // Applied as it stands: the books hold what the line says.
    books.apply(&sale(1), &cards).unwrap();
    assert_eq!(books.sales().list.len(), 1);
    assert_eq!(books.sales().list[0].amount, 1);
}
