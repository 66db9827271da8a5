//! `hall verify`: a log checked after the night. The chain of hashes, each
//! ended game's revealed seed against its commitment, every call against
//! the order that seed gives (a blower's balls: each a number of the game,
//! none twice), every recall, a wild game's digit, every claim judged
//! again on the card files, and every payout found again: the same faces,
//! the amount its rules give, the same shares. Each line is also applied
//! to the hall's own books ([`super::books::Books::apply`]), as the live
//! hall and its resume apply it. The first bad line is named.

mod checks;
mod near;
mod reversal;
mod session;
pub use session::{pinned, Pinned};

use super::event::Source;
use super::judge::Cards;
use super::log::read;
use super::rules::Rules;
pub use super::sold::{parse_sold, sold_within, SoldError};
use super::Event;
use crate::hall::event as ev;
use checks::{check_game, name};
use reversal::LastEnded;

/// The first thing wrong, and its line.
#[derive(Debug, PartialEq, Eq)]
pub struct Finding {
    pub line: u64,
    pub what: String,
}

/// What a sound log held.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub lines: u64,
    pub games: u64,
    pub calls: u64,
    pub claims: u64,
    pub payouts: u64,
    /// Paid in all, in minor units (the currencies as the games gave them).
    pub paid: u64,
    /// Games of balls from a blower: no seed to check their calls against.
    pub blower: u64,
    /// Their calls (among `calls`).
    pub blower_calls: u64,
    /// A game not ended (its calls cannot be checked before its seed is out).
    pub open: Option<u64>,
    /// Games ended unrevealed, their seeds lost: their calls cannot be
    /// checked.
    pub voided: Vec<u64>,
    /// The night's id, its sales, its progressive jackpots as the ledger
    /// had them when it opened and each one's game, and its head count.
    pub night: Option<String>,
    pub sales: super::sales::Sales,
    pub opened_pots: Vec<super::sales::jackpot::Pot>,
    pub outcomes: Vec<super::sales::jackpot::Outcome>,
    pub attendance: Option<u64>,
    /// Payouts taken back after their game ended (their amounts are out
    /// of `paid`).
    pub reversed: u64,
}

struct Game {
    balls: u8,
    stages: Vec<String>,
    last_call: bool,
    commitment: String,
    /// (line, call, ball) of every call made, and the calls shown now.
    calls: Vec<(u64, usize, u8)>,
    shown: Vec<u8>,
    /// (line, card, stage, calls, logged verdict).
    claims: Vec<(u64, String, String, Vec<u8>, bool)>,
    /// (line, the payout's event, the calls it was paid at, the cards
    /// claimed for its prize by then: the accepted claim's, then the
    /// players' waiting).
    payouts: Vec<(u64, ev::Payout, Vec<u8>, Vec<String>)>,
    /// The last accepted claim: (stage, call, card).
    accepted: Option<(String, usize, String)>,
    /// Every accepted win: (line, stage).
    wins: Vec<(u64, String)>,
    rules: Rules,
    /// Players' claims waiting: id → (card, stage, call).
    queued: std::collections::HashMap<u64, (String, String, usize)>,
    /// The room seed's line, once logged: (line, the seed or none).
    room: Option<(u64, Option<String>)>,
    /// The consolation by closeness paid: (line, event, the calls then).
    near: Option<(u64, ev::NearPayout, Vec<u8>)>,
}

/// The open game, or a finding that `what` came with none.
fn open<'a>(
    game: &'a mut Option<(u64, Game)>,
    at: u64,
    what: &str,
) -> Result<&'a mut Game, Finding> {
    match game {
        Some((_, g)) => Ok(g),
        None => Err(Finding {
            line: at,
            what: format!("{what} with no game open"),
        }),
    }
}

impl Game {
    fn call(&mut self, at: u64, call: usize, ball: u8, source: Source) -> Result<(), Finding> {
        if call != self.shown.len() + 1 {
            return Err(finding(
                at,
                format!("call {call} comes after {} calls shown", self.shown.len()),
            ));
        }
        if (source == Source::Blower) != self.rules.blower {
            return Err(finding(
                at,
                format!(
                    "call {call} is marked as from the {}, in a game whose balls come from the {}",
                    name(source),
                    if self.rules.blower {
                        "blower"
                    } else {
                        "hall's generator"
                    }
                ),
            ));
        }
        // Every ball a number of the game; a blower's, none twice (the
        // hall's own calls are checked against their order at the end,
        // which names the first call that strays from it).
        let outside = ball == 0 || ball > self.balls;
        if outside || (self.rules.blower && self.shown.contains(&ball)) {
            return Err(finding(
                at,
                format!("call {call} is {ball}: not a number of the game, or called already"),
            ));
        }
        self.calls.push((at, call, ball));
        self.shown.push(ball);
        Ok(())
    }

    fn recall(&mut self, at: u64, call: usize, ball: u8) -> Result<(), Finding> {
        if self.shown.last() != Some(&ball) || call != self.shown.len() {
            return Err(finding(
                at,
                format!("recall of call {call} ({ball}), which is not the last call shown"),
            ));
        }
        if let Some((line, p, ..)) = (self.payouts.iter()).find(|(_, p, ..)| p.call >= call) {
            return Err(finding(
                at,
                format!(
                    "recall of call {call} ({ball}), but line {line} paid {} at call {} on it",
                    p.stage, p.call
                ),
            ));
        }
        self.shown.pop();
        // Players' claims made on the ball taken back are closed with it.
        self.queued.retain(|_, (_, _, c)| *c < call);
        Ok(())
    }

    /// A payout voided: it must be the game's last; its prize and the win
    /// that took it are open again.
    fn void(&mut self, at: u64, stage: &str, call: usize) -> Result<(), Finding> {
        let last = (self.payouts.last()).map(|(_, p, ..)| (p.stage.as_str(), p.call));
        if last != Some((stage, call)) {
            return Err(finding(
                at,
                format!("a void of the payout of {stage} at call {call}, which is not the game's last payout"),
            ));
        }
        self.payouts.pop();
        if let Some(i) = self.wins.iter().rposition(|(_, s)| s == stage) {
            self.wins.remove(i);
        }
        Ok(())
    }

    /// The calls shown up to `call`, or a finding that there were fewer.
    fn shown_to(&self, at: u64, call: usize) -> Result<Vec<u8>, Finding> {
        self.shown.get(..call).map(<[u8]>::to_vec).ok_or_else(|| {
            finding(
                at,
                format!(
                    "call {call} is named, but {} calls are shown",
                    self.shown.len()
                ),
            )
        })
    }

    /// A claim at the console (judged at the calls shown), or a queued
    /// one decided (judged at the call it arrived at).
    fn claim(&mut self, at: u64, claim: Claimed, queued: Option<u64>) -> Result<(), Finding> {
        let Claimed {
            card,
            stage,
            call,
            win,
        } = claim;
        match queued {
            Some(id) => {
                let waiting = self.queued.remove(&id);
                if waiting.as_ref() != Some(&(card.to_string(), stage.to_string(), call)) {
                    return Err(finding(at, format!("a decision on claim {id} ({card:?} for {stage} at call {call}), which is not a claim waiting in the queue")));
                }
            }
            None => self.at_now(at, stage, call)?,
        }
        let calls = self.shown_to(at, call)?;
        self.claims
            .push((at, card.to_string(), stage.to_string(), calls, win));
        Ok(())
    }

    /// A wild game's digit: logged once, after the first call, the first
    /// ball's last digit.
    fn wild(&mut self, at: u64, digit: u8) -> Result<(), Finding> {
        let due = self.rules.wild_digit(&self.shown);
        if self.shown.len() != 1 || due != Some(digit) {
            return Err(finding(
                at,
                format!(
                    "a wild digit {digit}, but the game's first ball gives {}",
                    due.map_or("none".into(), |d| d.to_string())
                ),
            ));
        }
        Ok(())
    }

    /// A payout: after the accepted claim it pays, once a prize.
    fn payout(&mut self, at: u64, payout: &ev::Payout) -> Result<(), Finding> {
        let ev::Payout {
            stage,
            call,
            winners,
            ..
        } = payout;
        let claim = self.accepted.take();
        let Some((_, _, card)) = claim.as_ref().filter(|(s, c, _)| (s, c) == (stage, call)) else {
            return Err(finding(
                at,
                format!(
                    "a payout of {stage} at call {call} that no accepted claim just before it won"
                ),
            ));
        };
        let mut claimed = vec![card.clone()];
        claimed.extend(
            (self.queued.values())
                .filter(|(_, s, c)| s == stage && c <= call)
                .map(|(card, _, _)| card.clone()),
        );
        if self.payouts.iter().any(|(_, p, _, _)| p.stage == *stage) {
            return Err(finding(at, format!("{stage} is paid a second time")));
        }
        if winners.is_empty() {
            return Err(finding(at, "a payout to nobody".into()));
        }
        let calls = self.shown_to(at, *call)?;
        self.payouts.push((at, payout.clone(), calls, claimed));
        Ok(())
    }

    /// The game a `game_start` line opens.
    fn begun(start: &ev::GameStart) -> Game {
        let ev::GameStart {
            balls,
            stages,
            last_call,
            commitment,
            rules,
            ..
        } = start;
        Game {
            balls: *balls,
            stages: stages.clone(),
            last_call: *last_call,
            commitment: commitment.hex().to_string(),
            calls: vec![],
            shown: vec![],
            claims: vec![],
            queued: Default::default(),
            room: None,
            payouts: vec![],
            accepted: None,
            wins: vec![],
            rules: rules.clone(),
            near: None,
        }
    }

    /// The room's seed: once, before the first call.
    fn room(&mut self, at: u64, room_seed: &Option<String>) -> Result<(), Finding> {
        if self.room.is_some() || !self.calls.is_empty() {
            return Err(finding(
                at,
                "a room seed after the first call, or a second one".into(),
            ));
        }
        self.room = Some((at, room_seed.clone()));
        Ok(())
    }

    /// A player's claim joining the queue.
    fn queue(&mut self, at: u64, id: u64, claim: Claimed) -> Result<(), Finding> {
        self.at_now(at, claim.stage, claim.call)?;
        let entry = (claim.card.to_string(), claim.stage.to_string(), claim.call);
        if self.queued.insert(id, entry).is_some() {
            return Err(finding(at, format!("claim {id} is queued twice")));
        }
        let calls = self.shown_to(at, claim.call)?;
        let (card, stage) = (claim.card.to_string(), claim.stage.to_string());
        self.claims.push((at, card, stage, calls, claim.win));
        Ok(())
    }

    /// A claim must be for a stage of the game, at the calls shown, after
    /// a bonanza's precalls.
    fn at_now(&self, at: u64, stage: &str, call: usize) -> Result<(), Finding> {
        if call < self.rules.precalls {
            return Err(finding(
                at,
                format!(
                    "a claim at call {call}, before the game's {} precalls were made",
                    self.rules.precalls
                ),
            ));
        }
        if call != self.shown.len() || !self.stages.iter().any(|s| s == stage) {
            return Err(finding(
                at,
                format!("a claim at call {call} for {stage}, which this game was not at"),
            ));
        }
        Ok(())
    }
}

/// A claim as a log line gives it.
struct Claimed<'a> {
    card: &'a str,
    stage: &'a str,
    call: usize,
    win: bool,
}

impl<'a> Claimed<'a> {
    /// The claim a `claim` or `queued` line gives.
    fn of(event: &'a Event) -> Claimed<'a> {
        match event {
            Event::Claim(ev::Claim {
                card,
                stage,
                call,
                win,
                ..
            })
            | Event::Queued(ev::Queued {
                card,
                stage,
                call,
                win,
                ..
            }) => Claimed {
                card,
                stage,
                call: *call,
                win: *win,
            },
            _ => unreachable!("called on a claim's line"),
        }
    }
}

fn finding(line: u64, what: String) -> Finding {
    Finding { line, what }
}

/// Checks the log `text` against `cards` (the session's card files).
pub fn verify(text: &str, cards: &mut Cards) -> Result<Summary, Finding> {
    let (lines, _) = read(text).map_err(|e| match e {
        super::log::LogError::Bad { line, why } => Finding { line, what: why },
        e => Finding {
            line: 0,
            what: e.to_string(),
        },
    })?;
    let mut summary = Summary {
        lines: lines.len() as u64,
        ..Summary::default()
    };
    let mut game: Option<(u64, Game)> = None;
    let mut ended: Option<LastEnded> = None;
    // The live hall's own state, built by the same `apply` as it built it:
    // whatever the hall would not have followed, verify names too.
    let mut books = super::books::Books::default();
    for line in &lines {
        if let Some(why) = books.sale_finding(&line.event, cards) {
            return Err(finding(line.seq, why));
        }
        session::must_go(line, &books)?;
        books.check(&line.event, cards).map_err(|what| Finding {
            line: line.seq,
            what: what.to_string(),
        })?;
        step(line, (&mut game, &mut ended), cards, &mut summary)?;
        books.apply(&line.event, cards).map_err(|what| Finding {
            line: line.seq,
            what: what.to_string(),
        })?;
        if summary.opened_pots.is_empty() {
            summary.opened_pots = books.pots().to_vec();
        }
        // A night of sales: the faces each game plays, from its start.
        if let Some(sold) = books.take_sold() {
            cards.sold = Some(sold);
        }
    }
    summary.open = game.map(|(g, _)| g);
    summary.night = books.night_id().map(String::from);
    summary.sales = books.sales().clone();
    summary.outcomes = books.outcomes().to_vec();
    summary.attendance = books.attendance();
    Ok(summary)
}

/// One line of the log, checked against what came before it.
fn step(
    line: &super::log::Line<crate::hall::Event>,
    (game, ended): (&mut Option<(u64, Game)>, &mut Option<LastEnded>),
    cards: &mut Cards,
    summary: &mut Summary,
) -> Result<(), Finding> {
    let at = line.seq;
    let bad = |what: String| Finding { line: at, what };
    match &line.event {
        Event::Session(s) => session::session(s, cards, at)?,
        Event::Sale(_)
        | Event::Pack(_)
        | Event::SaleReturn(_)
        | Event::SaleVoid(_)
        | Event::CashFloat(_)
        | Event::CashCount(_)
        | Event::Attendance(_) => {}
        Event::GameStart(start) => {
            if game.is_some() {
                return Err(bad("a game starts while another is open".into()));
            }
            *game = Some((start.game, started(start, cards, at)?));
            *ended = None;
        }
        Event::Call(ev::Call {
            call, ball, source, ..
        }) => open(game, at, "a call")?.call(at, *call, *ball, *source)?,
        Event::Wild(ev::Wild { digit, .. }) => open(game, at, "a wild digit")?.wild(at, *digit)?,
        Event::Payout(p) => open(game, at, "a payout")?.payout(at, p)?,
        Event::NearPayout(n) => open(game, at, "a consolation")?.near(at, n)?,
        Event::RoomSeed(ev::RoomSeed { room_seed, .. }) => {
            open(game, at, "a room seed")?.room(at, room_seed)?
        }
        Event::Recall(ev::Recall { call, ball, .. }) => {
            open(game, at, "a recall")?.recall(at, *call, *ball)?
        }
        Event::Void(ev::Void { stage, call, .. }) => {
            open(game, at, "a void")?.void(at, stage, *call)?
        }
        Event::Claim(c) => claimed(open(game, at, "a claim")?, at, &line.event, c)?,
        Event::Queued(ev::Queued { id, .. }) => {
            let claim = Claimed::of(&line.event);
            open(game, at, "a queued claim")?.queue(at, *id, claim)?
        }
        Event::Stage(_) => {}
        Event::GameEnd(ev::GameEnd {
            game: ended_no,
            seed,
        }) => {
            let g = close(game, *ended_no, at, "ends")?;
            check_game(&g, seed.seed().unwrap_or(""), at, cards, summary)?;
            near::check_near(&g, at, cards, summary)?;
            summary.games += 1;
            *ended = Some(LastEnded::of(*ended_no, &g));
        }
        Event::GameVoid(ev::GameVoid { game: voided, .. }) => {
            close(game, *voided, at, "is voided")?;
            summary.voided.push(*voided);
            *ended = None;
        }
        Event::PayoutReversed(r) => LastEnded::reverse(ended, at, r, summary)?,
    }
    Ok(())
}

/// A claim's line (`event`, whose payload is `c`) in the open game `g`:
/// an accepted one is the game's win to pay.
fn claimed(g: &mut Game, at: u64, event: &Event, c: &ev::Claim) -> Result<(), Finding> {
    let claim = Claimed::of(event);
    g.accepted =
        (c.accepted).then(|| (claim.stage.to_string(), claim.call, claim.card.to_string()));
    if c.accepted {
        g.wins.push((at, claim.stage.to_string()));
    }
    g.claim(at, claim, c.queued)
}

/// The open game, taken as it `verb`s (ends, is voided) at line `at`: it
/// must be game `ended`.
fn close(game: &mut Option<(u64, Game)>, ended: u64, at: u64, verb: &str) -> Result<Game, Finding> {
    let bad = |what: String| Finding { line: at, what };
    let (g_no, g) =
        (game.take()).ok_or_else(|| bad(format!("a game {verb} that never started")))?;
    if g_no != ended {
        return Err(bad(format!(
            "game {ended} {verb}, but game {g_no} was open"
        )));
    }
    Ok(g)
}

/// A game's start, checked: its numbers the cards', its rules ones the
/// hall would have taken.
fn started(start: &ev::GameStart, cards: &Cards, at: u64) -> Result<Game, Finding> {
    let bad = |what: String| Finding { line: at, what };
    let ev::GameStart {
        balls,
        stages,
        rules,
        ..
    } = start;
    let spec = cards.files[0].header().spec;
    if *balls != spec.balls() {
        return Err(bad(format!(
            "a game of {balls} balls, but the cards are {}",
            spec.short_name()
        )));
    }
    // The rules the hall would have refused: amounts past its
    // limit, prizes for stages the game has not, patterns it has
    // not. (Its texts are what the board showed, not money: a log
    // of an older hall that took them as typed still verifies.)
    let plan = super::rules::Plan {
        stages: stages.clone(),
        prize: String::new(),
        last_call: false,
        rules: Rules {
            name: None,
            paper: None,
            currency: String::new(),
            ..rules.clone()
        },
    };
    plan.check(spec)
        .map_err(|e| bad(format!("the game's rules: {e}")))?;
    Ok(Game::begun(start))
}
