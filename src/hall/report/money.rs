//! The session's money in the record: receipts by product and by paper or
//! electronic, each set issued (serial range, colour, value, returned,
//! voided), every prize paid over and under a threshold, the prizes as a
//! share of the receipts, the head count, and each progressive jackpot's
//! movement. Built from a verified log and what `hall verify` found of
//! it; every sum is the sales' own ([`crate::hall::sales::Sales::shown`]).

use super::super::log::Line;
use super::super::money::show;
use super::super::replay::replay;
use super::super::sales::jackpot::{Pot, Progress};
use super::super::sales::shown::{ProductSold, SaleShown};
use super::super::verify::Summary;
use super::Record;
use serde::Serialize;

/// The session's money.
#[derive(Debug, Serialize)]
pub struct Money {
    pub currency: String,
    /// The session's date (its log's first line, UTC).
    pub date: String,
    pub attendance: Option<u64>,
    pub products: Vec<ProductSold>,
    pub sets: Vec<SetRecord>,
    pub gross: u64,
    pub refunds: u64,
    pub voided: u64,
    /// Receipts: issued less returned and voided.
    pub net: u64,
    pub paper: u64,
    pub electronic: u64,
    pub prizes: Vec<PrizeRecord>,
    pub threshold: u64,
    pub over: Tally,
    pub under: Tally,
    pub paid: u64,
    /// Prizes paid as a share of the receipts (`62.50%`).
    pub payout_share: Option<String>,
    pub jackpots: Vec<JackpotMove>,
    /// The cash-up: each drawer's float, takings, count, over or short and
    /// deposit.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cash: Vec<crate::hall::sales::DrawerShown>,
    /// Every electronic pack's transaction (issue, load, void and
    /// refund), in order, with the time its line was logged.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub electronic_sales: Vec<PackRecord>,
}

/// An electronic pack's transaction as the record lists it.
#[derive(Debug, Serialize)]
pub struct PackRecord {
    /// The log line's time (UTC).
    pub time: String,
    #[serde(flatten)]
    pub line: crate::hall::sales::packs::PackLine,
}

/// A count of prizes and their sum.
#[derive(Debug, Default, Serialize, PartialEq, Eq)]
pub struct Tally {
    pub prizes: u64,
    pub amount: u64,
}

/// A set of paper issued: a sale.
#[derive(Debug, Serialize)]
pub struct SetRecord {
    #[serde(flatten)]
    pub sale: SaleShown,
    pub colour: Option<String>,
    pub kind: &'static str,
    /// A unit's price.
    pub value: u64,
    pub units: u64,
}

/// A prize paid (not voided).
#[derive(Debug, Serialize)]
pub struct PrizeRecord {
    pub game: u64,
    pub name: Option<String>,
    pub stage: String,
    pub kind: Option<String>,
    pub call: usize,
    pub amount: u64,
    pub winners: Vec<String>,
}

/// A progressive jackpot's night.
#[derive(Debug, Serialize)]
pub struct JackpotMove {
    pub name: String,
    pub game: u64,
    pub pot_in: u64,
    pub added: u64,
    pub offered: u64,
    pub within: usize,
    pub won: bool,
    pub paid: u64,
    pub pot_out: u64,
    pub within_out: usize,
}

/// The money of the verified log `lines` (`s`: what verify found of it;
/// `r`: its record), prizes of `threshold` or more counted apart; None
/// for a night that sold nothing by range and played no progressive.
pub fn money(
    lines: &[Line<crate::hall::Event>],
    r: &Record,
    s: &Summary,
    threshold: u64,
) -> Option<Money> {
    if !s.sales.active() && s.outcomes.is_empty() {
        return None;
    }
    let mut currency = r.currency.clone();
    let mut balls = 75;
    let mut progress = Vec::new();
    for start in replay(lines).starts() {
        if currency.is_empty() {
            currency.clone_from(&start.rules.currency);
        }
        balls = start.balls;
        if let Some(p) = &start.rules.progressive {
            progress.push((start.game, p.clone()));
        }
    }
    let shown = s.sales.shown();
    let sets = sets_of(s, &shown.sales);
    let (prizes, over, under) = prizes_of(r, threshold);
    let paid = over.amount + under.amount;
    let payout_share = (shown.net > 0).then(|| {
        let bp = u128::from(paid) * 10_000 / u128::from(shown.net);
        format!("{}.{:02}%", bp / 100, bp % 100)
    });
    let jackpots = jackpots_of(s, &progress, balls);
    Some(Money {
        currency,
        date: r.first.get(..10).unwrap_or("").to_string(),
        attendance: s.attendance,
        products: shown.products,
        sets,
        gross: shown.gross,
        refunds: shown.refunds,
        voided: shown.voided,
        net: shown.net,
        paper: shown.paper,
        electronic: shown.electronic,
        prizes,
        threshold,
        over,
        under,
        paid,
        payout_share,
        jackpots,
        cash: s.sales.cash_up(),
        electronic_sales: (lines.iter())
            .filter_map(|l| match &l.event {
                crate::hall::Event::Pack(p) => Some(PackRecord {
                    time: l.time.clone(),
                    line: p.clone(),
                }),
                _ => None,
            })
            .collect(),
    })
}

/// Each sale as a set: its range, its product's colour, kind and price,
/// and the units sold.
fn sets_of(s: &Summary, sales: &[SaleShown]) -> Vec<SetRecord> {
    (sales.iter())
        .map(|sale| {
            let p = s.sales.products.iter().find(|p| p.name == sale.product);
            SetRecord {
                sale: sale.clone(),
                colour: p.and_then(|p| p.paper.clone()),
                kind: p.map_or("paper", |p| p.kind()),
                value: p.map_or(0, |p| p.price),
                units: p.map_or(0, |p| (sale.last - sale.first + 1) / p.faces),
            }
        })
        .collect()
}

/// Every prize paid and not voided, and those at or over `threshold` and
/// under, counted (a consolation nobody took is no prize paid).
fn prizes_of(r: &Record, threshold: u64) -> (Vec<PrizeRecord>, Tally, Tally) {
    let prizes: Vec<PrizeRecord> = (r.games.iter())
        .flat_map(|g| g.payouts.iter().map(move |p| (g, p)))
        .filter(|(_, p)| p.voided.is_none() && !p.winners.is_empty())
        .map(|(g, p)| PrizeRecord {
            game: g.game,
            name: g.name.clone(),
            stage: p.stage.clone(),
            kind: p.kind.clone(),
            call: p.call,
            amount: p.minor,
            winners: p.winners.clone(),
        })
        .collect();
    let (mut over, mut under) = (Tally::default(), Tally::default());
    for p in &prizes {
        let t = if p.amount >= threshold {
            &mut over
        } else {
            &mut under
        };
        t.prizes += 1;
        t.amount += p.amount;
    }
    (prizes, over, under)
}

/// Each progressive jackpot's night: the pot carried in, from sales,
/// offered, won or not, carried out.
fn jackpots_of(s: &Summary, progress: &[(u64, Progress)], balls: u8) -> Vec<JackpotMove> {
    (s.outcomes.iter())
        .map(|o| {
            let opened: Option<&Pot> = s.opened_pots.iter().find(|p| p.rules.name == o.name);
            let added = (progress.iter())
                .find(|(g, p)| *g == o.game && p.name == o.name)
                .map_or(0, |(_, p)| p.added);
            let next = opened.map(|p| p.next(o, balls));
            JackpotMove {
                name: o.name.clone(),
                game: o.game,
                pot_in: o.offered - added,
                added,
                offered: o.offered,
                within: o.within,
                won: o.won,
                paid: o.paid,
                pot_out: next.as_ref().map_or(0, |n| n.pot),
                within_out: next.as_ref().map_or(0, |n| n.within),
            }
        })
        .collect()
}

impl Money {
    /// A drawer's count against the books: `over £1.00`, `short £2.00`,
    /// `exact`.
    pub fn over_words(&self, over: i64) -> String {
        match over {
            0 => "exact".into(),
            o if o > 0 => format!("over {}", self.show(o.unsigned_abs())),
            o => format!("short {}", self.show(o.unsigned_abs())),
        }
    }

    /// `minor` in the session's currency.
    pub fn show(&self, minor: u64) -> String {
        show(minor, &self.currency)
    }
}
