//! `link`: linked venues playing one game. `link key` makes the control's
//! signing key, `link control` runs the game, `link venue` plays a venue's
//! part, `link verify` checks the record against the books. The games
//! themselves are the library's ([`bingomint::link`]).

mod args;
mod keys;
mod verify;

use crate::cmd::Outcome;
use anyhow::{anyhow, Context, Result};
pub use args::Args;
use args::Sub;
use bingomint::hall::money;
use bingomint::link::bus::Broker;
use bingomint::link::{control, files, venue, Ended};
use keys::{key, read_key};
use std::path::Path;

fn runtime() -> Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?)
}

/// Prints how a side's game ended: the payouts, one a line, each line
/// starting with `lead`; a venue that stopped exits 1.
fn said(ended: Ended, lead: &str) -> Outcome {
    match ended {
        Ended::Settled {
            call,
            payouts,
            currency,
        } => {
            for p in payouts {
                let amount = money::show(p.amount, &currency);
                println!("{lead}{}\tcall {call}\tface {}\t{amount}", p.venue, p.face);
            }
            Outcome::Success
        }
        Ended::Unwon => Outcome::Success,
        Ended::Stopped(why) => {
            eprintln!("{why}");
            Outcome::Negative
        }
    }
}

pub fn run(args: Args) -> Result<Outcome> {
    bingomint::link::set_notes(|text| eprintln!("{text}"));
    match args.command {
        Sub::Key { out, force } => key(&out, force),
        Sub::Control {
            network,
            key,
            log,
            servers,
        } => {
            let net = files::network(&network)?;
            let game = net.game.clone();
            let key = read_key(&key)?;
            let (nats, db) = (servers.nats()?, servers.database()?);
            let log = new_log(&log)?;
            let ended = runtime()?.block_on(control::run(net, key, log, (nats, db)))?;
            Ok(said(ended, &format!("{game}\t")))
        }
        Sub::Venue {
            venue,
            log,
            wait,
            timings,
            servers,
        } => play_venue(&venue, &log, (wait, timings.as_deref()), servers.nats()?),
        Sub::Verify {
            log,
            control,
            stock,
            venue_logs,
            database,
        } => {
            let check = verify::Check {
                log,
                control,
                stock,
                venue_logs,
                database,
            };
            runtime()?.block_on(check.run())
        }
    }
}

/// A venue's part: its file, its log (continued after a crash), the
/// longest wait for the control and where timings go.
fn play_venue(
    venue: &Path,
    log: &Path,
    (wait, timings): (u64, Option<&Path>),
    broker: Broker<'_>,
) -> Result<Outcome> {
    let v = files::venue(venue)?;
    let kept = venue::kept(log, &v)?;
    let append = |p: &Path| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(p)
    };
    let file = append(log).with_context(|| format!("--log: cannot open '{}'", log.display()))?;
    let timings = (timings.map(append).transpose()).context("--timings: cannot open the file")?;
    let ended = runtime()?.block_on(venue::run(v, (file, kept), broker, (wait, timings)))?;
    Ok(said(ended, ""))
}

fn new_log(path: &Path) -> Result<std::fs::File> {
    std::fs::OpenOptions::new()
        .create_new(true)
        .append(true)
        .open(path)
        .map_err(|e| {
            if e.kind() == std::io::ErrorKind::AlreadyExists {
                anyhow!(
                    "--log: '{}' exists: a control's log is never written over; give a new file",
                    path.display()
                )
            } else {
                anyhow!("--log: cannot create '{}': {e}", path.display())
            }
        })
}
