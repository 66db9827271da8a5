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
use bingomint::link::record::unhex;
use bingomint::link::verify::{read, Said};
use std::path::PathBuf;

pub struct Check {
    pub log: PathBuf,
    pub control: String,
    pub stock: Option<PathBuf>,
    pub venue_logs: Vec<PathBuf>,
    pub database: Option<String>,
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
            match std::fs::read_to_string(path) {
                Ok(text) => said.venue_log(&path.display().to_string(), &text, &mut problems),
                Err(e) => problems.push(format!("cannot read venue log '{}': {e}", path.display())),
            }
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
