//! `hall verify --link` and `hall report --link`: a venue's night against
//! the linked games' records the venue kept (`link venue --log`), and the
//! network's books. The checks are the library's ([`bingomint::link::hall`]).

use crate::cmd::{outln, Outcome};
use anyhow::{anyhow, Context, Result};
use bingomint::hall::log::Line;
use bingomint::hall::money;
use bingomint::hall::report::LinkedRecord;
use bingomint::hall::Event;
use bingomint::link::books::Books;
use bingomint::link::hall::{hold, Agreement, Part};
use bingomint::link::record::unhex;
use bingomint::link::verify::Said;
use bingomint::text::count_of;
use ed25519_dalek::VerifyingKey;
use std::path::{Path, PathBuf};

/// The linked games a venue's night played.
#[derive(clap::Args)]
pub struct Linked {
    /// A linked game's records as the venue kept them (`link venue
    /// --log`): the night's sales of its products linked to the game must
    /// be what the control booked. Repeat for more games.
    #[arg(long = "link", value_name = "LOG", requires = "control")]
    pub link_logs: Vec<PathBuf>,
    /// The control's public key (64 hex digits), as the venue file pins it.
    #[arg(long, value_name = "HEX", requires = "link_logs")]
    pub control: Option<String>,
    /// The network's books (PostgreSQL), which must hold what the records
    /// say.
    #[arg(long, value_name = "URL", requires = "link_logs")]
    pub database: Option<String>,
}

impl Linked {
    /// The control's key, when linked games are to be checked.
    pub fn key(&self) -> Result<Option<VerifyingKey>> {
        self.control.as_deref().map(key).transpose()
    }
}

fn key(hex: &str) -> Result<VerifyingKey> {
    unhex::<32>(hex)
        .and_then(|b| VerifyingKey::from_bytes(&b).ok())
        .ok_or_else(|| anyhow!("--control: give the control's public key, 64 hex digits, as `bingomint link key` printed it"))
}

fn read(path: &Path, flag: &str) -> Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("{flag}cannot read '{}'", path.display()))
}

/// Each linked game's records against the nights `nights` that sold for it.
pub fn check_all(nights: &[PathBuf], link: &Linked, key: VerifyingKey) -> Result<Outcome> {
    let mut logs = Vec::new();
    for night in nights {
        let lines = bingomint::hall::log::read(&read(night, "")?)?.0;
        logs.push((night.display().to_string(), lines));
    }
    let named: Vec<(&str, &[Line<Event>])> = (logs.iter())
        .map(|(n, l)| (n.as_str(), l.as_slice()))
        .collect();
    let mut outcome = Outcome::Success;
    for path in &link.link_logs {
        let mut held = hold(&read(path, "--link: ")?, key, &named);
        if let Some(url) = &link.database {
            books(&held.said, url, &mut held.problems)?;
        }
        for p in &held.problems {
            outln!("FAILED: {}: {p}", path.display());
        }
        if !held.problems.is_empty() {
            outcome = Outcome::Negative;
            continue;
        }
        for (_, part, a) in &held.nights {
            agreed(path, &held.said, part, a, link.database.is_some())?;
        }
    }
    Ok(outcome)
}

/// The linked games of `link_logs` for the report of the night `lines`,
/// each checked against it as `hall verify --link` does (the books
/// aside). Err inside: the first disagreement, in words.
pub fn report_records(
    lines: &[Line<Event>],
    link_logs: &[PathBuf],
    control: &str,
) -> Result<Result<Vec<LinkedRecord>, String>> {
    let key = key(control)?;
    let mut out = Vec::new();
    for path in link_logs {
        let held = hold(&read(path, "--link: ")?, key, &[("the night", lines)]);
        if let Some(p) = held.problems.first() {
            return Ok(Err(format!(
                "{}: {p} (hall verify --link names every disagreement)",
                path.display()
            )));
        }
        out.extend(held.nights.iter().map(|(_, _, a)| a.record(&held.said)));
    }
    Ok(Ok(out))
}

/// The books checked against the records, on a runtime of their own.
fn books(said: &Said, url: &str, problems: &mut Vec<String>) -> Result<()> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    rt.block_on(async {
        let books = Books::open(url).await?;
        said.books(&books, problems).await?;
        Ok::<_, anyhow::Error>(())
    })
    .context("--database")
}

/// What one linked game's check found, when all agreed.
fn agreed(path: &Path, said: &Said, part: &Part, a: &Agreement, books: bool) -> Result<()> {
    let Some(venue) = &a.venue else {
        outln!(
            "OK: {}: linked game {}: the night sold none of its faces",
            path.display(),
            said.game
        );
        return Ok(());
    };
    let c = &said.currency;
    let mut outcome = said.outcome();
    if let Some((Some(_), _)) = &said.settled {
        outcome += &format!(
            ", {} here ({})",
            count_of(a.payouts.len() as u64, "winning face"),
            money::show(a.payouts.iter().map(|p| p.amount).sum(), c)
        );
    }
    outln!(
        "OK: {}: {} records chained and signed; linked game {} at venue {venue}: {} sold for {} as the control booked them; {outcome}{}",
        path.display(),
        said.records.len(),
        said.game,
        count_of(part.count(), "face"),
        money::show(part.amount, c),
        if books { "; the books agree" } else { "" }
    );
    Ok(())
}
