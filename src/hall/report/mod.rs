//! `hall report`: the night's record from its log, for the manager and the
//! regulator: every game with its name, paper, patterns and specials, each
//! call with its time and source, recalls, claims, winners and payouts, the
//! commitment and the revealed seed (or the blower), and the night's total.
//! Written as a page to print (HTML), a row per event (CSV) or JSON. The
//! log is verified first ([`super::verify`]); this only reads it.

use super::log::Line;
use super::money::show;
use super::replay::{replay, Step};
use super::{Event, FileEntry};
use crate::hall::event as ev;
use serde::Serialize;

mod csv;
mod duty;
mod html;
pub mod money;
pub mod period;
mod slips;
mod stock;
mod w2g;
mod wa;
pub use self::csv::csv;
pub use html::html;
pub use slips::slips;
pub use stock::{stock_csv, stock_html, stock_json};
pub use w2g::w2g;
pub use wa::wa_daily;

/// The night's record.
#[derive(Debug, Serialize)]
pub struct Record {
    pub title: Option<String>,
    /// The night's id (its first session's), when the log gives one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub night: Option<String>,
    /// The night file's currency, when the log names it.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub currency: String,
    pub files: Vec<FileEntry>,
    pub games: Vec<GameRecord>,
    /// Paid in all, in minor units, and in words per currency.
    pub paid: u64,
    pub paid_text: String,
    pub lines: u64,
    pub first: String,
    pub last: String,
    /// The time zone its times are shown in (None: UTC, as logged).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
    /// The session's money, when it sold by serial range or played a
    /// progressive jackpot ([`money::money`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub money: Option<money::Money>,
    /// The linked games the night sold for (`hall report --link`), each as
    /// the control's records the venue kept give it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub linked: Vec<LinkedRecord>,
}

/// A linked game (`bingomint link`): this venue's part and the network's.
#[derive(Debug, Serialize)]
pub struct LinkedRecord {
    pub game: String,
    /// `national` or `live`.
    pub play: String,
    pub venue: String,
    pub currency: String,
    /// Faces sold here and their takings, as the control booked them.
    pub faces: u64,
    pub takings: u64,
    /// Every venue's takings, and the prize fixed from them.
    pub network: u64,
    pub prize: Option<u64>,
    /// `settled at call 54`, `ended unwon`, `not settled`.
    pub outcome: String,
    /// What the settlement paid here: (face, minor units).
    pub payouts: Vec<(u64, u64)>,
}

impl LinkedRecord {
    /// An amount in the game's currency.
    pub fn show(&self, amount: u64) -> String {
        show(amount, &self.currency)
    }
}

/// A game of the night.
#[derive(Debug, Serialize)]
pub struct GameRecord {
    pub game: u64,
    pub name: Option<String>,
    pub paper: Option<String>,
    pub stages: Vec<String>,
    pub concurrent: bool,
    pub prize: String,
    pub specials: Vec<String>,
    /// `rng` or `blower`.
    pub balls_from: &'static str,
    pub commitment: String,
    pub seed: Option<String>,
    pub room_seed: Option<String>,
    pub started: String,
    pub ended: Option<String>,
    /// `ended`, `void` (its seed lost) or `open`.
    pub status: &'static str,
    pub wild: Option<u8>,
    pub calls: Vec<CallRecord>,
    pub claims: Vec<ClaimRecord>,
    pub payouts: Vec<PayoutRecord>,
    pub paid: u64,
}

/// A call, and whether it was recalled.
#[derive(Debug, Serialize)]
pub struct CallRecord {
    pub call: usize,
    pub ball: u8,
    pub time: String,
    pub source: &'static str,
    pub recalled: Option<String>,
}

/// A claim, from the console or a phone's queue.
#[derive(Debug, Serialize)]
pub struct ClaimRecord {
    pub time: String,
    pub card: String,
    pub stage: String,
    pub call: usize,
    pub win: bool,
    pub accepted: bool,
    pub reason: String,
    pub queued: Option<u64>,
    /// A player's claim the caller never answered: why it was closed (the
    /// game ended, or the call it was made on was recalled).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closed: Option<String>,
    /// A player's claim waiting for the caller (not logged: the record's
    /// own bookkeeping).
    #[serde(skip)]
    waiting: bool,
}

/// A prize paid.
#[derive(Debug, Serialize)]
pub struct PayoutRecord {
    pub stage: String,
    pub call: usize,
    pub kind: Option<String>,
    pub amount: Option<String>,
    pub winners: Vec<String>,
    pub shares: Vec<String>,
    /// Voided by the caller: when, and why (its amount left the sums).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub voided: Option<String>,
    #[serde(skip)]
    currency: String,
    #[serde(skip)]
    minor: u64,
    /// Each winner's share in minor units, as `shares` says in words.
    #[serde(skip)]
    share_minor: Vec<u64>,
    /// When the payout was logged (its line's time).
    #[serde(skip)]
    time: String,
}

/// The record of a verified log's `lines`.
pub fn record(lines: &[Line<crate::hall::Event>]) -> Record {
    let mut r = Record {
        title: None,
        night: None,
        currency: String::new(),
        files: Vec::new(),
        games: Vec::new(),
        paid: 0,
        paid_text: String::new(),
        lines: lines.len() as u64,
        first: lines.first().map_or(String::new(), |l| l.time.clone()),
        last: lines.last().map_or(String::new(), |l| l.time.clone()),
        zone: None,
        money: None,
        linked: Vec::new(),
    };
    let mut by_currency: Vec<(String, u64)> = Vec::new();
    for line in replay(lines) {
        step(&mut r, line, &mut by_currency);
    }
    r.paid = by_currency.iter().map(|(_, a)| a).sum();
    let texts: Vec<String> = by_currency.iter().map(|(c, a)| show(*a, c)).collect();
    r.paid_text = if texts.is_empty() {
        "nothing".into()
    } else {
        texts.join(" + ")
    };
    r
}

fn step(r: &mut Record, line: Step, by_currency: &mut Vec<(String, u64)>) {
    let time = line.line.time.clone();
    let game = r.games.last_mut();
    match line.event() {
        Event::Session(ev::Session {
            files,
            night,
            id,
            currency,
            ..
        }) => {
            if r.night.is_none() {
                r.night.clone_from(id);
            }
            if r.currency.is_empty() {
                r.currency.clone_from(currency);
            }
            for f in files {
                if !r.files.iter().any(|g| g.id == f.id) {
                    r.files.push(f.clone());
                }
            }
            if let Some(n) = night {
                r.title = Some(n.title.clone());
            }
        }
        Event::GameStart(start) => r.games.push(GameRecord::begun(start, time)),
        _ => {
            if let Some(g) = game {
                game_step(g, line, by_currency)
            }
        }
    }
}

fn game_step(g: &mut GameRecord, line: Step, by_currency: &mut Vec<(String, u64)>) {
    let time = line.line.time.clone();
    match line.event() {
        Event::RoomSeed(e) => g.room_seed = e.room_seed.clone(),
        Event::Call(e) => g.calls.push(CallRecord::of(e, time)),
        Event::Recall(e) => recall_step(g, e, time),
        Event::Queued(e) => g.claims.push(ClaimRecord::queued(e, time)),
        Event::Wild(e) => g.wild = Some(e.digit),
        Event::Claim(e) => {
            // A player's claim answered: its waiting record gives way to
            // the answer.
            if let Some(id) = e.queued {
                g.claims.retain(|c| !(c.waiting && c.queued == Some(id)));
            }
            g.claims.push(ClaimRecord::decided(e, time))
        }
        Event::Payout(p) => {
            payout_step(g, p, by_currency);
            stamp(g, time);
        }
        Event::NearPayout(n) => {
            near_step(g, n, by_currency);
            stamp(g, time);
        }
        Event::Void(e) => {
            let why = format!("{time}: {}", e.reason);
            void_step(g, &e.stage, e.call, &why, by_currency)
        }
        Event::PayoutReversed(e) => {
            // The payout and the consolation paid with it (same stage and
            // call), taken back after the game ended.
            let why = format!("after the game ended, {time}: {}", e.reason);
            void_step(g, &e.stage, e.call, &why, by_currency);
            void_step(g, &e.stage, e.call, &why, by_currency);
        }
        Event::GameEnd(e) => {
            g.seed = e.seed.seed().map(str::to_string);
            g.ended = Some(time);
            g.status = "ended";
            close(g, |_| true, "the game ended before the caller answered");
        }
        Event::GameVoid(_) => {
            g.ended = Some(time);
            g.status = "void";
            let why = "the game was voided before the caller answered";
            close(g, |_| true, why);
        }
        _ => {}
    }
}

/// The last call taken back: marked recalled, the claims made on it
/// closed.
fn recall_step(g: &mut GameRecord, e: &ev::Recall, time: String) {
    if let Some(c) = (g.calls.iter_mut().rev())
        .find(|c| c.call == e.call && c.ball == e.ball && c.recalled.is_none())
    {
        c.recalled = Some(time);
    }
    let why = format!("call {} was recalled", e.call);
    close(g, |c| c.call >= e.call, &why);
}

impl GameRecord {
    /// A game as its start line records it.
    fn begun(e: &ev::GameStart, time: String) -> GameRecord {
        let rules = &e.rules;
        GameRecord {
            game: e.game,
            name: rules.name.clone(),
            paper: rules.paper.clone(),
            stages: e.stages.clone(),
            concurrent: rules.concurrent,
            prize: e.prize.clone(),
            specials: rules.specials(),
            balls_from: if rules.blower { "blower" } else { "rng" },
            commitment: e.commitment.hex().to_string(),
            seed: None,
            room_seed: None,
            started: time,
            ended: None,
            status: "open",
            wild: None,
            calls: Vec::new(),
            claims: Vec::new(),
            payouts: Vec::new(),
            paid: 0,
        }
    }
}

impl CallRecord {
    fn of(e: &ev::Call, time: String) -> CallRecord {
        CallRecord {
            call: e.call,
            ball: e.ball,
            time,
            source: match e.source {
                super::Source::Rng => "rng",
                super::Source::Blower => "blower",
            },
            recalled: None,
        }
    }
}

impl ClaimRecord {
    /// A player's claim as it joined the queue.
    fn queued(e: &ev::Queued, time: String) -> ClaimRecord {
        ClaimRecord {
            time,
            card: e.card.clone(),
            stage: e.stage.clone(),
            call: e.call,
            win: e.win,
            accepted: false,
            reason: e.reason.clone(),
            queued: Some(e.id),
            closed: None,
            waiting: true,
        }
    }

    /// A claim decided.
    fn decided(e: &ev::Claim, time: String) -> ClaimRecord {
        ClaimRecord {
            time,
            card: e.card.clone(),
            stage: e.stage.clone(),
            call: e.call,
            win: e.win,
            accepted: e.accepted,
            reason: e.reason.clone(),
            queued: e.queued,
            closed: None,
            waiting: false,
        }
    }
}

/// A payout: the game's and the night's sums, and its record.
fn payout_step(g: &mut GameRecord, p: &ev::Payout, by_currency: &mut Vec<(String, u64)>) {
    let ev::Payout {
        stage,
        call,
        kind,
        amount,
        currency,
        winners,
        shares,
        ..
    } = p;
    paid_step(g, by_currency, shares, |sum| PayoutRecord {
        stage: stage.clone(),
        call: *call,
        kind: kind.map(|k| k.word().to_string()),
        amount: amount.map(|a| show(a, currency)),
        winners: winners.clone(),
        shares: shares.iter().map(|&s| show(s, currency)).collect(),
        currency: currency.clone(),
        minor: sum,
        voided: None,
        share_minor: Vec::new(),
        time: String::new(),
    });
}

/// A consolation by closeness, recorded as a payout of its stage whose
/// kind says how near its faces were.
fn near_step(g: &mut GameRecord, n: &ev::NearPayout, by_currency: &mut Vec<(String, u64)>) {
    let ev::NearPayout {
        stage,
        call,
        to_go,
        faces,
        amount,
        currency,
        winners,
        shares,
        ..
    } = n;
    let kind = match (*to_go, winners.len()) {
        (0, _) => "consolation: no face was near".to_string(),
        (k, 0) => crate::hall::payout::near_unpaid(*faces, k),
        (k, _) => format!("consolation {k} to go"),
    };
    // A consolation nobody took is no prize paid: no amount stands.
    let paid = !winners.is_empty();
    paid_step(g, by_currency, shares, |sum| PayoutRecord {
        stage: stage.clone(),
        call: *call,
        kind: Some(kind),
        amount: paid.then(|| show(*amount, currency)),
        winners: winners.clone(),
        shares: shares.iter().map(|&s| show(s, currency)).collect(),
        currency: currency.clone(),
        minor: sum,
        voided: None,
        share_minor: Vec::new(),
        time: String::new(),
    });
}

/// The time of the payout just recorded.
fn stamp(g: &mut GameRecord, time: String) {
    if let Some(p) = g.payouts.last_mut() {
        p.time = time;
    }
}

/// A payout's record (made from the sum of its `shares`) added to the
/// game, and the sum to the game's and the night's.
fn paid_step(
    g: &mut GameRecord,
    by_currency: &mut Vec<(String, u64)>,
    shares: &[u64],
    record: impl FnOnce(u64) -> PayoutRecord,
) {
    let sum = shares.iter().fold(0u64, |a, &b| a.saturating_add(b));
    let mut p = record(sum);
    p.share_minor = shares.to_vec();
    g.paid = g.paid.saturating_add(sum);
    match by_currency.iter_mut().find(|(c, _)| *c == p.currency) {
        Some((_, a)) => *a = a.saturating_add(sum),
        None => by_currency.push((p.currency.clone(), sum)),
    }
    g.payouts.push(p);
}

/// A payout voided: it stays in the record, marked with when and why, and
/// leaves the sums.
fn void_step(
    g: &mut GameRecord,
    stage: &str,
    call: usize,
    why: &str,
    by_currency: &mut [(String, u64)],
) {
    let Some(p) = (g.payouts.iter_mut().rev())
        .find(|p| p.stage == stage && p.call == call && p.voided.is_none())
    else {
        return;
    };
    p.voided = Some(why.to_string());
    g.paid = g.paid.saturating_sub(p.minor);
    if let Some((_, a)) = by_currency.iter_mut().find(|(c, _)| *c == p.currency) {
        *a = a.saturating_sub(p.minor);
    }
}

/// Closes the players' claims still waiting that `which` picks, saying
/// `why`: they stay in the record, unanswered.
fn close(g: &mut GameRecord, which: impl Fn(&ClaimRecord) -> bool, why: &str) {
    for c in g.claims.iter_mut().filter(|c| c.waiting && which(c)) {
        c.waiting = false;
        c.closed = Some(why.to_string());
    }
}
