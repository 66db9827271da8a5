//! `bingomint hall`: the live night. Card files → `hall::Hall` (its log
//! read back, an open game resumed) → `hall::api::Api`, served over HTTP or
//! TLS (`serve.rs`: axum on tokio, `routes.rs`, `slots.rs`, `tls.rs`) until
//! stopped; `hall verify` checks a log (`verify.rs`), `hall cert` makes a
//! certificate.

use super::{outln, Outcome};
use anyhow::{Context, Result};
use bingomint::hall::judge::Cards;
use bingomint::hall::verify::{parse_sold, sold_within};
use bingomint::hall::Hall;

mod args;
mod daub;
mod open;
mod routes;
mod serve;
mod slots;
mod tls;
mod verify;
pub use args::Args;
use args::Sub;
use open::{open_cards, opening};

/// Runs `hall`.
pub fn run(args: Args) -> Result<Outcome> {
    match args.command {
        Some(Sub::Verify { log, cards }) => return verify::run(&log, &cards),
        Some(Sub::Cert { hosts, out, force }) => return tls::cert(hosts, &out, force),
        None => {}
    }
    anyhow::ensure!(
        !args.cards.is_empty(),
        "--cards FILE: name the card file the night plays"
    );
    let (files, entries) = open_cards(&args.cards)?;
    let faces = files[0].header().face_range();
    let sold = match &args.sold {
        Some(text) => Some(
            parse_sold(text)
                .and_then(|ranges| sold_within(ranges, faces, files[0].path()))
                .map_err(|e| anyhow::anyhow!("--sold: {e}"))?,
        ),
        None => None,
    };
    let log = args.log_path();
    let tls = match (&args.tls_cert, &args.tls_key) {
        (Some(cert), Some(key)) => Some(tls::config(cert, key)?),
        _ => None,
    };
    // Listen first: a hall that cannot take its port (or read its TLS
    // files) writes nothing.
    let listener = std::net::TcpListener::bind(&args.listen).with_context(|| {
        format!(
            "--listen {}: cannot listen there (in use? 127.0.0.1:0 picks a free port)",
            args.listen
        )
    })?;
    // A log past the file-size limit must fail as a write (and be cut
    // back), not kill the hall.
    // SAFETY: sets this process's disposition of one signal to "ignore".
    unsafe { libc::signal(libc::SIGXFSZ, libc::SIG_IGN) };
    let lost = args.lost_seed();
    let mut hall = Hall::open(
        Cards { files, sold },
        &log,
        entries,
        args.sold.clone(),
        lost,
    )
    .map_err(opening)?;
    hall.daub = args.daub.into();
    let addr = listener.local_addr()?;
    let scheme = if tls.is_some() { "https" } else { "http" };
    let key =
        bingomint::hall::random_hex().context("cannot read the operating system's entropy")?;
    let state = hall.state();
    outln!("console  {scheme}://{addr}/console#{key}   (the caller's; keep it private)");
    outln!("board    {scheme}://{addr}/board");
    outln!(
        "players  {scheme}://{addr}/play   (phones: daubing {})",
        args.daub.name()
    );
    outln!("log      {}", log.display());
    if let Some(notice) = &state.notice {
        eprintln!("bingomint: note: {notice}");
    }
    if let Some(game) = &state.game {
        outln!(
            "resumed  game {} after call {}",
            game.game,
            game.calls.len()
        );
    }
    if !addr.ip().is_loopback() {
        eprintln!("bingomint: note: listening on {addr}: other machines on the network can open the board");
        if tls.is_none() {
            eprintln!("bingomint: note: without --tls-cert the console's key and every claim cross the network in clear text (`bingomint hall cert` makes a certificate)");
        }
    }
    let api = bingomint::hall::api::Api::new(hall, key);
    serve::serve(listener, api, tls)?;
    Ok(Outcome::Success)
}
