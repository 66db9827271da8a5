//! A control's log read back as a regulator would: the chain (every
//! signature and link), the sums, the reveal against the commitment, every
//! claim judged again on the stock, the winners and shares by the rule,
//! the books holding the same, and a venue's log the control's records
//! unchanged. Each check adds what disagrees to a list of problems.

use super::books::{Books, BooksError};
use super::message::{Allotment, Body, Judged, Payout, Takings};
use super::national;
use super::record::{Follower, Signed};
use crate::cardfile::CardFile;

/// What the log says, read in order.
#[derive(Default)]
pub struct Said {
    pub records: Vec<Signed>,
    pub game: String,
    /// `national` or `live`.
    pub play: String,
    commitment: String,
    pattern: String,
    balls: u8,
    pub currency: String,
    pub takings: Vec<Takings>,
    total: u64,
    /// A live game's calls as made: (n, ball).
    calls: Vec<(u8, u8)>,
    /// The stock's short id and each venue's allotment, as the game opened.
    pub stock: String,
    pub allotted: Vec<Allotment>,
    /// The faces each venue sold, as booked when sales closed.
    pub sold: Vec<Allotment>,
    pub prize: Option<u64>,
    seed: Option<String>,
    verdicts: Vec<Judged>,
    pub settled: Option<(Option<u8>, Vec<Payout>)>,
}

/// The records of `text`, the chain checked; a break ends the reading.
pub fn read(text: &str, key: ed25519_dalek::VerifyingKey, problems: &mut Vec<String>) -> Said {
    let mut said = Said::default();
    let mut follower: Option<Follower> = None;
    for (n, line) in text.lines().enumerate() {
        let s = match Signed::parse(line) {
            Ok(s) => s,
            Err(e) => {
                problems.push(format!("line {}: {e}", n + 1));
                break;
            }
        };
        let f = follower.get_or_insert_with(|| Follower::new(key, &s.record.game));
        if let Err(e) = f.take(&s) {
            problems.push(format!("line {}: {e}", n + 1));
            break;
        }
        said.take(&s.record.body);
        said.game.clone_from(&s.record.game);
        said.records.push(s);
    }
    said
}

impl Said {
    fn take(&mut self, body: &Body) {
        match body.clone() {
            Body::Open {
                commitment,
                pattern,
                currency,
                balls,
                stock,
                venues,
                play,
                ..
            } => {
                self.play = play;
                (self.commitment, self.pattern, self.currency) = (commitment, pattern, currency);
                (self.balls, self.stock, self.allotted) = (balls, stock, venues);
            }
            Body::SalesClosed {
                takings,
                sold,
                total,
            } => (self.takings, self.sold, self.total) = (takings, sold, total),
            Body::Prize { amount } => self.prize = Some(amount),
            Body::Reveal { seed } => self.seed = Some(seed),
            Body::Verdicts { claims } => {
                // A live game judges at each hold: every claim once.
                let known = |c: &Judged| {
                    (self.verdicts.iter()).any(|v| (&v.venue, v.claim) == (&c.venue, c.claim))
                };
                let new: Vec<Judged> = claims.into_iter().filter(|c| !known(c)).collect();
                self.verdicts.extend(new);
            }
            Body::Call { n, ball, .. } => self.calls.push((n, ball)),
            Body::Settled { call, payouts } => self.settled = Some((Some(call), payouts)),
            Body::Unwon { .. } => self.settled = Some((None, Vec::new())),
            Body::Refused { .. } | Body::Hold { .. } | Body::Voided { .. } => {}
        }
    }

    /// How the game stands: `settled at call 54`, `ended unwon`, `not
    /// settled`.
    pub fn outcome(&self) -> String {
        match &self.settled {
            Some((Some(call), _)) => format!("settled at call {call}"),
            Some((None, _)) => "ended unwon".into(),
            None => "not settled".into(),
        }
    }

    /// The sums and the rules, from the log alone.
    pub fn sums(&self, problems: &mut Vec<String>) {
        if let Some(seed) = &self.seed {
            if crate::hall::commitment(seed) != self.commitment {
                problems.push("the revealed seed does not match the commitment".into());
            }
            self.calls_by_seed(seed, problems);
        }
        let sum: u64 = self.takings.iter().map(|t| t.amount).sum();
        if sum != self.total {
            problems.push(format!(
                "the takings add up to {sum}, the log says {}",
                self.total
            ));
        }
        for t in &self.takings {
            let sold = self.sold.iter().find(|a| a.venue == t.venue);
            if sold.map(|a| national::count(&a.faces)) != Some(t.faces) {
                problems.push(format!(
                    "venue {}: {} faces booked, but its sold ranges differ",
                    t.venue, t.faces
                ));
            }
        }
        let (Some(prize), Some((call, payouts))) = (self.prize, &self.settled) else {
            return;
        };
        let by_rule = national::settle(&self.verdicts, prize);
        let logged = call.map(|c| (c, payouts.clone()));
        if by_rule != logged {
            problems.push(format!(
                "the settlement {logged:?} is not the rules' {by_rule:?}"
            ));
        }
    }

    /// A live game's calls are the sealed order's, in order from 1.
    fn calls_by_seed(&self, seed: &str, problems: &mut Vec<String>) {
        let order = crate::play::live::order(self.balls, seed, &self.game);
        for (k, &(n, ball)) in self.calls.iter().enumerate() {
            if usize::from(n) != k + 1 || order.get(k) != Some(&ball) {
                problems.push(format!(
                    "call {n} ({ball}) is not call {} of the sealed order",
                    k + 1
                ));
                return;
            }
        }
    }

    /// Every claim judged again on the stock.
    pub fn judge_again(&self, stock: &CardFile, problems: &mut Vec<String>) {
        let Some(seed) = &self.seed else { return };
        let spec = stock.header().spec;
        let Ok(pattern) = crate::play::pattern::Pattern::parse(&self.pattern, spec) else {
            return problems.push(format!(
                "pattern {:?} is not one of the stock's game",
                self.pattern
            ));
        };
        let calls = national::calls(spec.balls(), seed, &self.game);
        for c in self
            .verdicts
            .iter()
            .filter(|c| !c.refused.starts_with(national::LATE))
            .filter(|c| !c.refused.starts_with(national::VOIDED))
        {
            let sold = self
                .sold
                .iter()
                .find(|a| a.venue == c.venue)
                .map_or(&[][..], |a| &a.faces[..]);
            let again = national::judge(stock, sold, &pattern, &calls, (c.face, c.call));
            if again != c.refused {
                problems.push(format!(
                    "claim {} of {} (face {}): logged {:?}, judged again {:?}",
                    c.claim, c.venue, c.face, c.refused, again
                ));
            }
        }
    }

    /// A venue's log `text` (named `name`): the control's records
    /// unchanged, maybe fewer.
    pub fn venue_log(&self, name: &str, text: &str, problems: &mut Vec<String>) {
        for (n, line) in text.lines().enumerate() {
            let theirs = Signed::parse(line).ok().map(|s| s.hash());
            if theirs.is_none() || theirs != self.records.get(n).map(Signed::hash) {
                return problems.push(format!(
                    "venue log '{name}' line {}: not the control's record {}",
                    n + 1,
                    n + 1
                ));
            }
        }
    }

    /// The books hold what the log says.
    pub async fn books(&self, books: &Books, problems: &mut Vec<String>) -> Result<(), BooksError> {
        let g = &self.game;
        if books.takings(g).await? != self.takings {
            problems.push("the books' sales differ from the log's".into());
        }
        let (prize, settled) = books.state(g).await?;
        if prize != self.prize {
            problems.push(format!(
                "the books' prize {prize:?} differs from the log's {:?}",
                self.prize
            ));
        }
        if settled != self.settled.is_some() {
            problems.push("the books and the log differ on whether the game is settled".into());
        }
        let payouts = self.settled.as_ref().map_or(Vec::new(), |(_, p)| p.clone());
        if books.payouts(g).await? != payouts {
            problems.push("the books' payouts differ from the log's".into());
        }
        if books.claims(g).await? != self.verdicts.len() as u64 {
            problems.push("the books hold another number of claims than the log judged".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
