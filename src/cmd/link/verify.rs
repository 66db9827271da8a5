//! `link verify`: a control's log checked as a regulator would: the chain
//! (every signature and link), the sums, the reveal against the
//! commitment, every claim judged again on the stock, the winners and
//! shares by the rules, the books holding the same, and each venue's log
//! the control's records unchanged.

use crate::cmd::Outcome;
use anyhow::{anyhow, Result};
use bingomint::cardfile::CardFile;
use bingomint::hall::money;
use bingomint::link::books::Books;
use bingomint::link::message::{Allotment, Body, Judged, Payout, Takings};
use bingomint::link::national;
use bingomint::link::record::{unhex, Follower, Signed};
use std::path::PathBuf;

pub struct Check {
    pub log: PathBuf,
    pub control: String,
    pub stock: Option<PathBuf>,
    pub venue_logs: Vec<PathBuf>,
    pub database: Option<String>,
}

/// What the log says, read in order.
#[derive(Default)]
struct Said {
    records: Vec<Signed>,
    game: String,
    commitment: String,
    pattern: String,
    currency: String,
    takings: Vec<Takings>,
    sold: Vec<Allotment>,
    prize: Option<u64>,
    seed: Option<String>,
    verdicts: Vec<Judged>,
    settled: Option<(Option<u8>, Vec<Payout>)>,
}

impl Check {
    pub async fn run(self) -> Result<Outcome> {
        let key = unhex::<32>(&self.control)
            .and_then(|b| ed25519_dalek::VerifyingKey::from_bytes(&b).ok())
            .ok_or_else(|| anyhow!("--control: give the control's public key, 64 hex digits"))?;
        let text = std::fs::read_to_string(&self.log)
            .map_err(|e| anyhow!("cannot read '{}': {e}", self.log.display()))?;
        let mut problems = Vec::new();
        let said = read(&text, key, &mut problems);
        said.sums(&mut problems);
        if let Some(path) = &self.stock {
            let stock = CardFile::open_intact(path).map_err(|e| anyhow!("--stock: {e}"))?;
            said.judge_again(&stock, &mut problems);
        }
        for path in &self.venue_logs {
            said.venue_log(path, &mut problems);
        }
        if let Some(url) = &self.database {
            said.books(&Books::open(url).await?, &mut problems).await?;
        }
        report(&self, &said, &problems);
        Ok(if problems.is_empty() {
            Outcome::Success
        } else {
            Outcome::Negative
        })
    }
}

fn report(check: &Check, said: &Said, problems: &[String]) {
    let name = check.log.display();
    for p in problems {
        println!("{name}: {p}");
    }
    let c = &said.currency;
    let outcome = match &said.settled {
        Some((Some(call), payouts)) => {
            format!("settled at call {call}, {} winning face(s)", payouts.len())
        }
        Some((None, _)) => "ended unwon".to_string(),
        None => "not settled".to_string(),
    };
    println!(
        "{name}: game {}, {} records; {} venues sold {}; prize {}; {outcome}; {}",
        said.game,
        said.records.len(),
        said.takings.len(),
        money::show(said.takings.iter().map(|t| t.amount).sum(), c),
        said.prize.map_or("not fixed".into(), |p| money::show(p, c)),
        if problems.is_empty() {
            "all agrees"
        } else {
            "DISAGREES"
        }
    );
}

/// The records of `text`, the chain checked; a break ends the reading.
fn read(text: &str, key: ed25519_dalek::VerifyingKey, problems: &mut Vec<String>) -> Said {
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
                ..
            } => {
                (self.commitment, self.pattern, self.currency) = (commitment, pattern, currency);
            }
            Body::SalesClosed { takings, sold, .. } => (self.takings, self.sold) = (takings, sold),
            Body::Prize { amount } => self.prize = Some(amount),
            Body::Reveal { seed } => self.seed = Some(seed),
            Body::Verdicts { claims } => self.verdicts = claims,
            Body::Settled { call, payouts } => self.settled = Some((Some(call), payouts)),
            Body::Unwon { .. } => self.settled = Some((None, Vec::new())),
            Body::Refused { .. } => {}
        }
    }

    /// The sums and the rules, from the log alone.
    fn sums(&self, problems: &mut Vec<String>) {
        if let Some(seed) = &self.seed {
            if bingomint::hall::commitment(seed) != self.commitment {
                problems.push("the revealed seed does not match the commitment".into());
            }
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

    /// Every claim judged again on the stock.
    fn judge_again(&self, stock: &CardFile, problems: &mut Vec<String>) {
        let Some(seed) = &self.seed else { return };
        let spec = stock.header().spec;
        let Ok(pattern) = bingomint::play::pattern::Pattern::parse(&self.pattern, spec) else {
            return problems.push(format!(
                "pattern {:?} is not one of the stock's game",
                self.pattern
            ));
        };
        let calls = national::calls(spec.balls(), seed, &self.game);
        for c in &self.verdicts {
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

    /// A venue's log: the control's records unchanged, maybe fewer.
    fn venue_log(&self, path: &PathBuf, problems: &mut Vec<String>) {
        let name = path.display();
        let Ok(text) = std::fs::read_to_string(path) else {
            return problems.push(format!("cannot read venue log '{name}'"));
        };
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
    async fn books(&self, books: &Books, problems: &mut Vec<String>) -> Result<()> {
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
