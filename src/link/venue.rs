//! `link venue`: a venue's part in a national game. It follows the
//! control's chain (each record's signature and link checked before it is
//! kept), sells from its allotment, calls the revealed order and claims.
//! Started again with the same log, it checks the chain it kept against
//! the broker's, then resends what it said before (the broker and the
//! books keep each once).

use super::files::{Selling, Venue};
use super::hall::Part;
use super::message::Faces;
use super::{game, note, now_ms, Ended, LinkError};
use crate::hall::money;
use crate::link::bus::{Broker, Bus};
use crate::link::message::{Body, VenueMessage};
use crate::link::national;
use crate::link::record::{ChainError, Follower, Signed};
use std::io::Write;
use tokio::time::Duration;

type Result<T, E = LinkError> = std::result::Result<T, E>;

/// The venue as it follows a game.
struct Follow {
    v: Venue,
    bus: Bus,
    follower: Follower,
    /// Records kept by an earlier run, checked again as the broker resends them.
    kept: Vec<Signed>,
    log: std::fs::File,
    timings: Option<std::fs::File>,
    commitment: String,
    pattern: String,
    currency: String,
    /// `national` or `live`, as the game opened.
    play: String,
    /// A live game's calls so far.
    calls: Vec<u8>,
    /// Claims made so far.
    claims: u64,
    /// The faces sold here, once the game opened.
    sold: Vec<Faces>,
}

/// Records the venue kept in its log, each checked as a follower would.
pub fn kept(path: &std::path::Path, v: &Venue) -> Result<Vec<Signed>> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(Vec::new());
    };
    let mut follower = Follower::new(v.control, &v.game);
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let s =
            Signed::parse(line).map_err(|e| game!("'{}' line {}: {e}", path.display(), n + 1))?;
        follower
            .take(&s)
            .map_err(|e| game!("'{}' line {}: {e}", path.display(), n + 1))?;
        out.push(s);
    }
    Ok(out)
}

/// Plays `v`'s part, keeping the chain in `log` (opened to append; `kept`
/// are the records it already holds).
pub async fn run(
    v: Venue,
    (log, kept): (std::fs::File, Vec<Signed>),
    broker: Broker<'_>,
    (wait, timings): (u64, Option<std::fs::File>),
) -> Result<Ended> {
    let bus = Bus::open(&broker, &v.game).await?;
    let follower = Follower::new(v.control, &v.game);
    let mut f = Follow {
        v,
        bus,
        follower,
        kept,
        log,
        timings,
        commitment: String::new(),
        pattern: String::new(),
        currency: String::new(),
        play: String::new(),
        calls: Vec::new(),
        claims: 0,
        sold: Vec::new(),
    };
    let hello = VenueMessage::Hello {
        venue: f.v.venue.clone(),
        version: crate::link::VERSION.into(),
    };
    f.bus.publish_venue(&hello).await?;
    let mut records = f.bus.records();
    let mut said = false;
    let mut until = tokio::time::Instant::now() + Duration::from_secs(wait);
    loop {
        let next = tokio::time::timeout_at(until, records.next()).await;
        let text = match next.map_err(|_| game!("no word from the control in {wait} s (--wait)"))? {
            Ok(text) => text,
            Err(e) => {
                // Followed again from the last record taken.
                if !std::mem::replace(&mut said, true) {
                    note!("the broker is not answering ({e}); waiting");
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
        };
        until = tokio::time::Instant::now() + Duration::from_secs(wait);
        let s = match Signed::parse(&text).map_err(ChainError::Unreadable) {
            Ok(s) => s,
            Err(e) => return stopped(e),
        };
        match f.take(&s) {
            Ok(true) => f.keep(&s)?,
            Ok(false) => {}
            Err(e) => return stopped(e),
        }
        if let Some(outcome) = f.act(&s.record.body).await? {
            return Ok(outcome);
        }
    }
}

fn stopped(e: ChainError) -> Result<Ended> {
    Ok(Ended::Stopped(format!("linked game stopped: {e}")))
}

impl Follow {
    /// Takes the next record: one kept before must come back the same.
    /// Whether it is new (to be kept).
    fn take(&mut self, s: &Signed) -> Result<bool, ChainError> {
        self.follower.take(s)?;
        let at = self.follower.seq() as usize;
        match self.kept.get(at - 1) {
            Some(k) if k.hash() != s.hash() => Err(ChainError::Fork { seq: s.record.seq }),
            Some(_) => Ok(false),
            None => Ok(true),
        }
    }

    /// Keeps a new record in the log before it is acted on: a restart
    /// finds it.
    fn keep(&mut self, s: &Signed) -> Result<()> {
        writeln!(self.log, "{}", s.line())?;
        self.log.sync_data()?;
        if let Some(t) = &mut self.timings {
            let r = &s.record;
            let kind = r.body.kind();
            writeln!(t, "{}\t{kind}\t{}\t{}", r.seq, r.at_ms, now_ms())?;
        }
        Ok(())
    }

    async fn act(&mut self, body: &Body) -> Result<Option<Ended>> {
        let me = self.v.venue.clone();
        match body {
            Body::Open { .. } => self.open(body).await?,
            Body::Voided { venue, call, why } if *venue == me => {
                let why = format!("the control voided {me} for this game at call {call}: {why}");
                return Ok(Some(Ended::Stopped(why)));
            }
            Body::Voided { venue, call, .. } => note!("{me}: {venue} was voided at call {call}"),
            Body::Refused { venue, why } if *venue == me => {
                let why = format!("the control refused {me}: {why}");
                return Ok(Some(Ended::Stopped(why)));
            }
            Body::Prize { amount } => {
                note!(
                    "{me}: the linked prize is {}",
                    money::show(*amount, &self.currency)
                );
            }
            Body::Reveal { seed } => self.reveal(seed).await?,
            Body::Verdicts { claims } => {
                let refused = claims
                    .iter()
                    .filter(|c| c.venue == me && !c.refused.is_empty());
                for c in refused {
                    note!(
                        "{me}: claim {} (face {}) refused: {}",
                        c.claim,
                        c.face,
                        c.refused
                    );
                }
            }
            Body::Settled { call, payouts } => return Ok(Some(self.settled(*call, payouts))),
            Body::Unwon { why } => {
                note!("{me}: the game ended unwon: {why}");
                return Ok(Some(Ended::Unwon));
            }
            Body::Call {
                n,
                ball,
                show_at_ms,
            } => self.call(*n, *ball, *show_at_ms).await?,
            Body::Hold { call, venue } => {
                note!("{me}: held at call {call} by a claim at {venue}")
            }
            Body::Refused { .. } | Body::SalesClosed { .. } => {}
        }
        Ok(None)
    }

    /// The game settled: this venue's payouts.
    fn settled(&self, call: u8, payouts: &[crate::link::message::Payout]) -> Ended {
        let me = &self.v.venue;
        let ours: Vec<_> = payouts.iter().filter(|p| p.venue == *me).cloned().collect();
        let (here, all) = (ours.len(), payouts.len());
        note!("{me}: settled at call {call}; {here} of {all} winning face(s) here");
        let currency = self.currency.clone();
        Ended::Settled {
            call,
            payouts: ours,
            currency,
        }
    }

    /// Checks the game opened is the one this venue sells, then sells.
    async fn open(&mut self, body: &Body) -> Result<()> {
        let Body::Open {
            play,
            version,
            stock,
            venues,
            commitment,
            pattern,
            currency,
            ..
        } = body
        else {
            return Ok(());
        };
        let me = &self.v.venue;
        if version != crate::link::VERSION {
            return Err(game!(
                "the control runs version {version}; this venue runs {}",
                crate::link::VERSION
            ));
        }
        if *stock != self.v.stock.short_id() {
            return Err(game!(
                "stock: the game plays stock {stock}, this venue's file is {}",
                self.v.stock.short_id()
            ));
        }
        let allotted = venues
            .iter()
            .find(|a| a.venue == *me)
            .ok_or_else(|| game!("venue: the game does not name {me:?}"))?;
        let (sold, amount) = self.selling()?;
        let count =
            national::check_sales(&allotted.faces, &sold).map_err(|why| game!("sold: {why}"))?;
        self.sold = sold;
        (self.commitment, self.pattern, self.currency) =
            (commitment.clone(), pattern.clone(), currency.clone());
        self.play.clone_from(play);
        note!(
            "{me}: sold {count} faces, {}",
            money::show(amount, currency)
        );
        let sales = VenueMessage::Sales {
            venue: me.clone(),
            faces: self.sold.clone(),
            amount,
        };
        self.bus.publish_venue(&sales).await?;
        Ok(())
    }

    /// The faces sold here and their takings: as the venue file gives
    /// them, or as the hall's log holds them now.
    fn selling(&self) -> Result<(Vec<Faces>, u64)> {
        match &self.v.selling {
            Selling::Fixed { sold, price } => {
                let amount = (national::count(sold))
                    .checked_mul(*price)
                    .ok_or_else(|| game!("price: too large"))?;
                Ok((sold.clone(), amount))
            }
            Selling::Hall(path) => {
                let part = Part::read(path, &self.v.game)?;
                if part.stock != self.v.stock.short_id() {
                    return Err(game!(
                        "hall: the night sells from card file {}, the venue file's stock is {}",
                        part.stock,
                        self.v.stock.short_id()
                    ));
                }
                Ok((part.faces, part.amount))
            }
        }
    }

    fn parsed_pattern(&self) -> Result<crate::play::pattern::Pattern> {
        let spec = self.v.stock.header().spec;
        crate::play::pattern::Pattern::parse(&self.pattern, spec).map_err(|e| game!("{e}"))
    }

    /// A live game's call: shown at its instant; the faces sold here that
    /// it completes are claimed.
    async fn call(&mut self, n: u8, ball: u8, show_at_ms: u64) -> Result<()> {
        let me = self.v.venue.clone();
        if usize::from(n) != self.calls.len() + 1 {
            return Err(game!("call {n} came after call {}", self.calls.len()));
        }
        let wait = show_at_ms.saturating_sub(now_ms());
        tokio::time::sleep(Duration::from_millis(wait.min(10_000))).await;
        self.calls.push(ball);
        note!("{me}: call {n}: {ball}");
        let seen = VenueMessage::Seen {
            venue: me.clone(),
            call: n,
        };
        self.bus.publish_venue(&seen).await?;
        let calls = crate::play::calls::Calls::from_order(
            self.v.stock.header().spec.balls(),
            self.calls.clone(),
        );
        let now =
            national::completing_now(&self.v.stock, &self.sold, &self.parsed_pattern()?, &calls)
                .map_err(|e| game!("{e}"))?;
        for face in now {
            self.claims += 1;
            let claim = VenueMessage::Claim {
                venue: me.clone(),
                claim: self.claims,
                face,
                call: n,
            };
            note!("{me}: face {face} claims at call {n}");
            self.bus.publish_venue(&claim).await?;
        }
        Ok(())
    }

    /// Checks the seed against the commitment, calls the order, claims.
    async fn reveal(&mut self, seed: &str) -> Result<()> {
        let me = self.v.venue.clone();
        if crate::hall::commitment(seed) != self.commitment {
            return Err(game!(
                "the revealed seed does not match the commitment the game opened with"
            ));
        }
        let spec = self.v.stock.header().spec;
        let calls = national::calls(spec.balls(), seed, &self.v.game);
        if self.play == "live" {
            // The calls made were the committed order's.
            if !calls.order().starts_with(&self.calls) {
                return Err(game!(
                    "the calls made do not follow the order the game committed to"
                ));
            }
            return Ok(());
        }
        let pattern = self.parsed_pattern()?;
        let won = national::winners(&self.v.stock, &self.sold, &pattern, &calls)
            .map_err(|e| game!("{e}"))?;
        for (k, &(face, call)) in won.iter().enumerate() {
            let claim = VenueMessage::Claim {
                venue: me.clone(),
                claim: k as u64 + 1,
                face,
                call,
            };
            self.bus.publish_venue(&claim).await?;
        }
        match won.first() {
            Some((_, call)) => note!("{me}: {} face(s) won at call {call}; claimed", won.len()),
            None => note!("{me}: no face sold here completes the pattern"),
        }
        let done = VenueMessage::Done {
            venue: me,
            claims: won.len() as u64,
        };
        self.bus.publish_venue(&done).await?;
        Ok(())
    }
}
