//! `bingomint hall`: the live night. Card files → `hall::shell::Hall` (its log
//! read back, an open game resumed) → `hall::api::Api`, served over HTTP or
//! TLS (`serve.rs`: axum on tokio, `routes.rs`, `slots.rs`, `tls.rs`) until
//! stopped; `hall verify` checks a log (`verify.rs`), `hall cert` makes a
//! certificate.

use super::{outln, Outcome};
use anyhow::Result;
use bingomint::hall::join::Join;
use bingomint::hall::judge::Cards;
use bingomint::hall::secret::Kept;
use bingomint::hall::shell::Hall;

mod args;
mod cert;
#[cfg(test)]
mod contract;
mod daub;
mod join;
mod night;
mod open;
mod report;
mod routes;
mod serve;
mod slots;
mod status;
mod stock;
mod sub;
mod tables;
mod tls;
mod verify;
pub use args::Args;
use args::Sub;
use open::{open_cards, opening};

/// Runs `hall`.
pub fn run(args: Args) -> Result<Outcome> {
    match args.command {
        Some(Sub::Verify {
            logs,
            cards,
            jackpots,
            stock,
            link,
        }) => {
            return verify::run(
                &logs,
                &cards,
                (jackpots.as_deref(), stock.as_deref()),
                &link,
            )
        }
        Some(Sub::Cert { hosts, out, force }) => return cert::cert(hosts, &out, force),
        Some(Sub::Tables(tables)) => return tables::run(&tables),
        Some(Sub::Stock(stock)) => return stock::run(&stock),
        Some(Sub::Report(report)) => return report::run(&report),
        None if args.check => return night::check(&args),
        None => {}
    }
    open_night(args)
}

/// Opens the night: its card files, night file and sold faces checked,
/// the port taken, the log opened, the API served until stopped.
fn open_night(args: Args) -> Result<Outcome> {
    let tls = match (&args.tls_cert, &args.tls_key) {
        (Some(cert), Some(key)) => Some(tls::config(cert, key)?),
        _ => None,
    };
    anyhow::ensure!(
        !args.cards.is_empty(),
        "--cards FILE: name the card file the night plays"
    );
    let (files, entries) = open_cards(&args.cards)?;
    let night = match &args.night {
        Some(path) => Some(night::load(path, Some(files[0].header().spec))?),
        None => None,
    };
    if let Some(n) = night.as_ref().filter(|(n, _)| !n.products.is_empty()) {
        night::sells(&n.0, &args, files.len())?;
    }
    let sold = open::sold(args.sold.as_deref(), &files[0])?;
    // Listen first: a hall that cannot take its port (or read its TLS
    // files) writes nothing.
    let listener = join::listen(&args.listen)?;
    // A log past the file-size limit must fail as a write (and be cut
    // back), not kill the hall.
    // SAFETY: sets this process's disposition of one signal to "ignore".
    unsafe { libc::signal(libc::SIGXFSZ, libc::SIG_IGN) };
    let opened = bingomint::hall::shell::Opening {
        files: entries,
        sold: args.sold.clone(),
        lost: args.lost_seed(),
        night,
        blower: args.balls == args::Balls::Blower,
        night_changed: args.night_changed.is_some(),
        ledger: args.jackpots.clone(),
        new_ledger: args.new_ledger,
        stock: args.stock.clone(),
    };
    let log = args.log_path();
    let mut hall = Hall::open(Cards::new(files, sold), &log, opened).map_err(opening)?;
    hall.daub = args.daub.mode();
    hall.daub_rule = args.daub.preset().map(|p| p.why);
    hall.audience = args.audience.map_or(hall.audience, Into::into);
    // Kept beside the log: a restart on the same night keeps the
    // caller's open tab working.
    let key = open::kept_key(&log, Kept::Console)?;
    let claims_key = open::kept_key(&log, Kept::Claims)?;
    let join = Join::new(listener.local_addr()?, &join::machine(), tls.is_some());
    let sells = hall.books().sales().active();
    announce(
        &args,
        &hall.state(),
        (&listener, &log),
        &key,
        (tls.is_some(), sells),
    )?;
    join::players(args.quiet, &join, &listener)?;
    let api = bingomint::hall::api::Api::new(hall, key, claims_key).with_join(join);
    serve::serve(listener, api, tls)?;
    Ok(Outcome::Success)
}

/// The hall's addresses, its log, the night and what the caller should know.
fn announce(
    args: &Args,
    state: &bingomint::hall::state::State,
    (listener, log): (&std::net::TcpListener, &std::path::Path),
    key: &str,
    (tls, sells): (bool, bool),
) -> Result<()> {
    let addr = listener.local_addr()?;
    let scheme = if tls { "https" } else { "http" };
    outln!("console  {scheme}://{addr}/console#{key}   (the caller's; keep it private)");
    outln!("board    {scheme}://{addr}/board");
    let daub = args.daub.words();
    outln!("players  {scheme}://{addr}/play   (phones: daubing {daub})");
    if !args.quiet {
        facts(args, state, log)?;
    }
    if let Some(notice) = &state.notice {
        eprintln!("bingomint: note: {notice}");
    }
    // A night that sells by product counts what it sold, not every face.
    if args.sold.is_none() && !sells {
        let faces: u64 = state.files.iter().map(|f| f.count).sum();
        eprintln!("bingomint: note: no --sold: every card of the card files counts as sold ({faces} records), so in a game shared by all holders every card holding a prize is paid; give --sold 1..N for the paper sold tonight");
    }
    if !addr.ip().is_loopback() {
        eprintln!("bingomint: note: listening on {addr}: other machines on the network can open the board");
        if !tls {
            eprintln!("bingomint: note: without --tls-cert the console's key and every claim cross the network in clear text (`bingomint hall cert` makes a certificate)");
        }
    }
    Ok(())
}

/// The log, the night, the ball source and a resumed game.
fn facts(args: &Args, state: &bingomint::hall::state::State, log: &std::path::Path) -> Result<()> {
    outln!("log      {}", log.display());
    if let Some(night) = &state.night {
        let next = (night.next).map_or("all played".into(), |k| format!("next {k}"));
        let games = night.games.len();
        outln!("night    {:?}: {games} games, {next}", night.title);
    }
    if args.balls == args::Balls::Blower {
        outln!("balls    from the blower: the caller keys in each ball drawn");
    }
    if let Some(game) = &state.game {
        outln!(
            "resumed  game {} after call {}",
            game.game,
            game.calls.len()
        );
    }
    Ok(())
}
