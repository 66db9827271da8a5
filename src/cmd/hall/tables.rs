//! `hall tables`: table cards that tell phones how to find the hall.

use crate::cmd::{outln, Outcome};
use anyhow::{bail, Result};
use bingomint::cardfile::writer::refuse_existing;
use bingomint::hall::join::Join;
use bingomint::print::{paper, tables};
use std::path::PathBuf;

/// The most table cards one file holds.
const MAX_TABLES: usize = 1000;

#[derive(clap::Args)]
pub struct Args {
    /// The PDF to write.
    #[arg(short, long, value_name = "FILE")]
    pub out: PathBuf,
    /// The players' page as phones open it; without it, the address
    /// the hall will print for --listen on this machine.
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// Where the hall will listen: a PORT alone (every interface) or
    /// ADDRESS:PORT, as `hall --listen` takes it.
    #[arg(long, value_name = "ADDRESS", default_value = "8075")]
    pub listen: String,
    /// The hall will serve over TLS (an https address).
    #[arg(long)]
    pub tls: bool,
    /// The night's title, at the top of each card.
    #[arg(long, default_value = "Bingo")]
    pub title: String,
    /// The venue's Wi-Fi network, named in the first step.
    #[arg(long, value_name = "NAME")]
    pub wifi: Option<String>,
    /// How many cards: tables 1 to N.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub tables: usize,
    /// Paper: letter, legal, tabloid, a4, a3, sra3, a5, a6, or WxH with
    /// a unit (210x297mm, 8.5x11in).
    #[arg(long, default_value = "letter")]
    pub paper: String,
    /// Space between the paper's edge and the cards.
    #[arg(long, default_value = "0.375in", value_name = "LENGTH")]
    pub margin: String,
    /// Replace an existing file.
    #[arg(long)]
    pub force: bool,
    /// No summary line.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Writes the table cards `--out`.
pub fn run(args: &Args) -> Result<Outcome> {
    let url = match &args.url {
        Some(url) => checked_url(url)?,
        None => machine_url(&args.listen, args.tls)?,
    };
    for (flag, text) in [
        ("--title", Some(&args.title)),
        ("--wifi", args.wifi.as_ref()),
    ] {
        if text.is_some_and(|t| !bingomint::print::series_ok(t)) {
            bail!(
                "{flag}: give 1 to {} printable characters (no invisible character, no doubled or outer space)",
                bingomint::print::MAX_SERIES
            );
        }
    }
    if !(1..=MAX_TABLES).contains(&args.tables) {
        bail!("--tables: give 1 to {MAX_TABLES} (a card for each table)");
    }
    let sheet = paper::paper(&args.paper).map_err(crate::cmd::flag("--paper"))?;
    let margin = paper::length(&args.margin).map_err(crate::cmd::flag("--margin"))?;
    let cards = tables::Tables {
        title: &args.title,
        url: &url,
        wifi: args.wifi.as_deref(),
        count: args.tables,
    };
    let (pdf, pages) = tables::table_cards(&cards, sheet, margin)
        .map_err(|e| anyhow::anyhow!("--paper {} --margin {}: {e}", args.paper, args.margin))?;
    refuse_existing(&args.out, args.force)?;
    crate::cmd::write_bytes(Some(&args.out), args.force, &pdf)?;
    if !args.quiet {
        outln!(
            "{} table cards for {url} on {pages} {} pages -> {}",
            args.tables,
            args.paper,
            args.out.display()
        );
    }
    Ok(Outcome::Success)
}

/// `--url` as given, when a phone can open it.
fn checked_url(url: &str) -> Result<String> {
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"));
    let host = rest.map(|r| r.split('/').next().unwrap_or(""));
    if host.is_none_or(str::is_empty)
        || url.len() > 200
        || url.chars().any(|c| c.is_whitespace() || c.is_control())
    {
        bail!("--url: give the players' page as phones open it, such as http://192.168.1.20:8075/play (http:// or https://, no spaces, at most 200 characters)");
    }
    Ok(url.to_string())
}

/// The players' page the hall will print for `--listen` on this machine.
fn machine_url(listen: &str, tls: bool) -> Result<String> {
    let given = super::join::listen_address(listen);
    let Ok(at) = given.parse::<std::net::SocketAddr>() else {
        bail!("--listen {listen}: give a PORT alone (every interface) or ADDRESS:PORT, such as 0.0.0.0:8075");
    };
    let join = Join::new(at, &super::join::machine(), tls);
    match join.players.first() {
        Some(url) => Ok(url.clone()),
        None => bail!(
            "--listen {listen}: no phone can reach this machine there ({}); give a PORT alone, or --url with the address phones will use",
            if at.ip().is_loopback() { "loopback is this machine only" } else { "it has no network address" }
        ),
    }
}
