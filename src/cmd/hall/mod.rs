//! `bingomint hall`: the live night. Card files → `hall::Hall` (its log
//! read back, an open game resumed) → the HTTP API and pages (`api.rs`,
//! served by `http.rs`) until stopped; `hall verify` checks a log.

use super::{outln, Outcome};
use anyhow::{Context, Result};
use bingomint::cardfile::CardFile;
use bingomint::hall::judge::Cards;
use bingomint::hall::verify::{parse_sold, sold_within, verify};
use bingomint::hall::{FileEntry, Hall};
use std::path::PathBuf;
use std::sync::Arc;

mod args;
pub use args::Args;
use args::Sub;

/// Runs `hall`.
pub fn run(args: Args) -> Result<Outcome> {
    if let Some(Sub::Verify { log, cards }) = args.command {
        return check_log(&log, &cards);
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
    // Listen first: a hall that cannot take its port writes nothing.
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
    let hall = Hall::open(
        Cards { files, sold },
        &log,
        entries,
        args.sold.clone(),
        lost,
    )
    .map_err(anyhow::Error::msg)?;
    let addr = listener.local_addr()?;
    let key =
        bingomint::hall::random_hex().context("cannot read the operating system's entropy")?;
    let state = hall.state();
    outln!("console  http://{addr}/console#{key}   (the caller's; keep it private)");
    outln!("board    http://{addr}/board");
    outln!("log      {}", log.display());
    if let Some(notice) = state["notice"].as_str() {
        eprintln!("bingomint: note: {notice}");
    }
    if let Some(game) = state["game"].as_object() {
        outln!(
            "resumed  game {} after call {}",
            game["game"],
            game["calls"].as_array().map_or(0, Vec::len)
        );
    }
    if !addr.ip().is_loopback() {
        eprintln!("bingomint: note: listening on {addr}: other machines on the network can open the board");
    }
    let api = Arc::new(bingomint::hall::api::Api::new(hall, key));
    bingomint::hall::http::serve(
        listener,
        Arc::new(move |request, stream| api.handle(request, stream)),
    );
    Ok(Outcome::Success)
}

/// Opens the night's files: each sound, all one game.
fn open_cards(paths: &[PathBuf]) -> Result<(Vec<CardFile>, Vec<FileEntry>)> {
    let mut files: Vec<CardFile> = Vec::new();
    let mut entries = Vec::new();
    for path in paths {
        let file = CardFile::open(path)?;
        let count = file.header().count;
        super::require_sound_flat(&file)?;
        let spec = file.header().spec;
        if let Some(first) = files.first() {
            anyhow::ensure!(
                first.header().spec.same_game(spec),
                "--cards '{}' holds {} but '{}' holds {}: a night plays one game",
                file.path(),
                spec.short_name(),
                first.path(),
                first.header().spec.short_name()
            );
        }
        let sha256 = bingomint::input::sha256_file(path)
            .with_context(|| format!("cannot read '{}'", path.display()))?;
        entries.push(FileEntry {
            path: file.path().to_string(),
            id: file.short_id(),
            sha256,
            count,
            game: spec.short_name().into(),
        });
        files.push(file);
    }
    Ok((files, entries))
}

/// `hall verify`.
fn check_log(log: &std::path::Path, cards: &[PathBuf]) -> Result<Outcome> {
    let text =
        std::fs::read_to_string(log).with_context(|| format!("cannot read '{}'", log.display()))?;
    let (files, _) = open_cards(cards)?;
    let mut cards = Cards { files, sold: None };
    match verify(&text, &mut cards) {
        Ok(s) => {
            outln!(
                "OK: {}: {} lines chained, {} games ended, {} calls match their revealed seeds, {} claims judged the same again",
                log.display(),
                s.lines,
                s.games,
                s.calls,
                s.claims
            );
            for g in &s.voided {
                outln!("note: game {g} ended unrevealed (its seed was lost): its calls cannot be checked");
            }
            if let Some(g) = s.open {
                outln!("note: game {g} is still open; its calls can be checked once it ends and its seed is out");
            }
            Ok(Outcome::Success)
        }
        Err(f) => {
            outln!("FAILED: {} line {}: {}", log.display(), f.line, f.what);
            Ok(Outcome::Negative)
        }
    }
}
