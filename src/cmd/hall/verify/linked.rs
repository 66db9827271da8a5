//! `hall verify --link`: a venue's night against the linked games'
//! records the venue kept (`link venue --log`), and the network's books.

use crate::cmd::{outln, Outcome};
use anyhow::{anyhow, Context, Result};
use bingomint::hall::money;
use bingomint::hall::report::LinkedRecord;
use bingomint::link::books::Books;
use bingomint::link::hall::{check, Agreement, Part};
use bingomint::link::record::unhex;
use bingomint::link::verify::{read, Said};
use bingomint::text::count_of;
use ed25519_dalek::VerifyingKey;
use std::path::PathBuf;

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
        let Some(hex) = &self.control else {
            return Ok(None);
        };
        let key = unhex::<32>(hex)
            .and_then(|b| VerifyingKey::from_bytes(&b).ok())
            .ok_or_else(|| anyhow!("--control: give the control's public key, 64 hex digits, as `bingomint link key` printed it"))?;
        Ok(Some(key))
    }
}

/// Each linked game's records against the night `logs` that sold for it.
pub fn check_all(nights: &[PathBuf], link: &Linked, key: VerifyingKey) -> Result<Outcome> {
    let mut lines = Vec::new();
    for night in nights {
        let text = std::fs::read_to_string(night)
            .with_context(|| format!("cannot read '{}'", night.display()))?;
        lines.push((night, bingomint::hall::log::read(&text)?.0));
    }
    let mut outcome = Outcome::Success;
    for path in &link.link_logs {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("--link: cannot read '{}'", path.display()))?;
        let mut problems = Vec::new();
        let said = read(&text, key, &mut problems);
        let parts: Vec<_> = (lines.iter())
            .filter_map(|(night, l)| Part::of(l, &said.game).ok().map(|p| (night, p)))
            .collect();
        if parts.is_empty() {
            problems.push(format!(
                "no night given sells for linked game {:?} (a [[product]] with linked = {:?})",
                said.game, said.game
            ));
        }
        if let Some(url) = &link.database {
            books(&said, url, &mut problems)?;
        }
        let mut agreements = Vec::new();
        for (night, part) in &parts {
            let a = check(part, &said);
            problems.extend(
                a.problems
                    .iter()
                    .map(|p| format!("{}: {p}", night.display())),
            );
            agreements.push((part, a));
        }
        for p in &problems {
            outln!("FAILED: {}: {p}", path.display());
        }
        if problems.is_empty() {
            for (part, a) in &agreements {
                agreed(path, &said, part, a, link.database.is_some())?;
            }
        } else {
            outcome = Outcome::Negative;
        }
    }
    Ok(outcome)
}

/// The linked games of `link_logs` for the report of the night `lines`:
/// each game's records checked against the night (as `hall verify --link`
/// does, the books aside). Err inside: the first disagreement, in words.
pub fn report_records(
    lines: &[bingomint::hall::log::Line<bingomint::hall::Event>],
    link_logs: &[PathBuf],
    control: &str,
) -> Result<Result<Vec<LinkedRecord>, String>> {
    let key = (Linked {
        link_logs: Vec::new(),
        control: Some(control.to_string()),
        database: None,
    })
    .key()?
    .expect("a key was given");
    let mut out = Vec::new();
    for path in link_logs {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("--link: cannot read '{}'", path.display()))?;
        let mut problems = Vec::new();
        let said = read(&text, key, &mut problems);
        let a = match Part::of(lines, &said.game) {
            Ok(part) => check(&part, &said),
            Err(why) => anyhow::bail!("--link '{}': {why}", path.display()),
        };
        problems.extend(a.problems);
        if let Some(p) = problems.first() {
            return Ok(Err(format!(
                "{}: {p} (hall verify --link names every disagreement)",
                path.display()
            )));
        }
        let (faces, takings) = a.booked.unwrap_or((0, 0));
        out.push(LinkedRecord {
            game: said.game.clone(),
            play: said.play.clone(),
            venue: a.venue.unwrap_or_default(),
            currency: said.currency.clone(),
            faces,
            takings,
            network: said.takings.iter().map(|t| t.amount).sum(),
            prize: said.prize,
            outcome: outcome(&said),
            payouts: a.payouts.iter().map(|p| (p.face, p.amount)).collect(),
        });
    }
    Ok(Ok(out))
}

/// How the game stands: `settled at call 54`, `ended unwon`, `not settled`.
fn outcome(said: &Said) -> String {
    match &said.settled {
        Some((Some(call), _)) => format!("settled at call {call}"),
        Some((None, _)) => "ended unwon".into(),
        None => "not settled".into(),
    }
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
fn agreed(
    path: &std::path::Path,
    said: &Said,
    part: &Part,
    a: &Agreement,
    books: bool,
) -> Result<()> {
    let c = &said.currency;
    let Some(venue) = &a.venue else {
        outln!(
            "OK: {}: linked game {}: the night sold none of its faces",
            path.display(),
            said.game
        );
        return Ok(());
    };
    let mut outcome = outcome(said);
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
