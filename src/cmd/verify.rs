//! `bingomint verify`: check a whole card file: header and record checksums,
//! every card's rules, and that no two cards are the same.

use super::{check_memory, with_game, with_threads, Outcome};
use anyhow::Result;
use bingomint::cardfile::{CardFile, FileError};
use bingomint::dedup::{KeySet, Pending};
use bingomint::game::Game;
use bingomint::pipeline::{claim_in_waves, wave_chunks, CHUNK};
use std::path::PathBuf;

/// How many problems of each kind are listed before "… and N more".
const SHOWN: usize = 10;

/// Verify a card file: checksums, every card's rules, no duplicates.
///
/// Exits 0 when all is well and 1, naming the bad cards, when not.
#[derive(clap::Args)]
#[command(after_help = "Example:\n  bingomint verify cards.bmc")]
pub struct Args {
    /// The card file.
    file: PathBuf,

    /// Worker threads [default: every core].
    #[arg(short = 'j', long)]
    threads: Option<usize>,

    /// Print only problems.
    #[arg(short, long)]
    quiet: bool,
}

/// Runs `verify`.
pub fn run(args: Args) -> Result<Outcome> {
    let file = match CardFile::open(&args.file) {
        Ok(file) => file,
        // Readable, but not the file its header describes: a negative answer.
        Err(err @ FileError::SizeMismatch { .. }) => {
            println!("FAILED: {err}");
            return Ok(Outcome::Negative);
        }
        Err(err) => return Err(err.into()),
    };
    let report = with_game!(&file, |game| {
        let keys = file.header().count as usize * game.keys_per_card();
        check_memory_for(&game, keys, &format!("verifying '{}'", file.path()))?;
        with_threads(args.threads, || check(&file, &game))?
    });
    let failed = report.iter().any(|line| line.failed);
    for line in &report {
        if !args.quiet || line.failed {
            println!("{}", line.text);
        }
    }
    if failed {
        println!("FAILED: {}", file.path());
        Ok(Outcome::Negative)
    } else {
        if !args.quiet {
            println!(
                "OK: {} holds {} valid, unique {}s",
                file.path(),
                file.header().count,
                file.header().game.noun()
            );
        }
        Ok(Outcome::Success)
    }
}

/// [`check_memory`] for the key type of `game`.
fn check_memory_for<G: Game>(_game: &G, keys: usize, what: &str) -> Result<()> {
    check_memory::<G::Key>(keys, what)
}

struct Line {
    failed: bool,
    text: String,
}

fn line(failed: bool, text: String) -> Line {
    Line { failed, text }
}

fn check<G: Game>(file: &CardFile, game: &G) -> Vec<Line> {
    let noun = file.header().game.noun();
    let mut report = Vec::new();
    match file.header_ok() {
        Some(true) => report.push(line(false, "header checksum   ok".into())),
        Some(false) => report.push(line(
            true,
            "header checksum   MISMATCH: the header is damaged".into(),
        )),
        None => report.push(line(false, "header checksum   none (v3 layout)".into())),
    }
    match file.records_ok() {
        Some(true) => report.push(line(false, "records checksum  ok".into())),
        Some(false) => report.push(line(
            true,
            "records checksum  MISMATCH: records were changed or damaged".into(),
        )),
        None => report.push(line(false, "records checksum  none (v3 layout)".into())),
    }
    let (broken, duplicates) = check_cards(file, game);
    let count = file.header().count;
    if broken.is_empty() {
        report.push(line(
            false,
            format!("rules             ok ({count} {noun}s)"),
        ));
    } else {
        report.push(line(
            true,
            format!(
                "rules             {} {noun}s break the rules:",
                broken.len()
            ),
        ));
        report.extend(listed(
            broken.iter().map(|(n, why)| format!("  {noun} {n}: {why}")),
            broken.len(),
        ));
    }
    if duplicates.is_empty() {
        report.push(line(
            false,
            format!(
                "uniqueness        ok (no {} repeats another)",
                if noun == "strip" { "ticket" } else { "card" }
            ),
        ));
    } else {
        report.push(line(
            true,
            format!(
                "uniqueness        {} {noun}s repeat an earlier {}:",
                duplicates.len(),
                if noun == "strip" { "ticket" } else { "card" }
            ),
        ));
        report.extend(listed(
            duplicates.iter().map(|(n, first)| {
                if noun == "strip" {
                    format!("  strip {n} repeats a ticket of strip {first}")
                } else {
                    format!("  card {n} is the same as card {first}")
                }
            }),
            duplicates.len(),
        ));
    }
    report
}

fn listed(lines: impl Iterator<Item = String>, total: usize) -> Vec<Line> {
    let mut out: Vec<Line> = lines.take(SHOWN).map(|t| line(true, t)).collect();
    if total > SHOWN {
        out.push(line(true, format!("  … and {} more", total - SHOWN)));
    }
    out
}

/// Checks every card's rules and finds repeats, in parallel. Returns the
/// broken cards (number, reason) and the repeats (number, the earlier card
/// holding one of its keys), both sorted.
#[allow(clippy::type_complexity)]
fn check_cards<G: Game>(file: &CardFile, game: &G) -> (Vec<(u64, String)>, Vec<(u64, u64)>) {
    let size = file.header().record_size as usize;
    let set = KeySet::with_capacity(file.header().count as usize * game.keys_per_card());
    // Each chunk of records, with the broken cards it finds.
    let mut chunks: Vec<(&[u8], Vec<(u64, String)>)> = file
        .records()
        .chunks(CHUNK * size)
        .map(|records| (records, Vec::new()))
        .collect();
    let wave = wave_chunks(game.keys_per_card());
    let mut losers = claim_in_waves(&mut chunks, &set, wave, |chunk, (records, broken), keys| {
        for (j, record) in records.chunks_exact(size).enumerate() {
            let index = (chunk * CHUNK + j + 1) as u32;
            match game.decode(record) {
                Err(why) => broken.push((u64::from(index), why.0)),
                Ok(card) => {
                    for &key in game.keys(&card).as_ref() {
                        keys.push(Pending {
                            hash: set.hash(&key),
                            key,
                            index,
                        });
                    }
                }
            }
        }
    });
    let broken: Vec<(u64, String)> = chunks.into_iter().flat_map(|(_, broken)| broken).collect();
    losers.sort_unstable();
    losers.dedup();
    let duplicates = losers
        .into_iter()
        .map(|n| {
            let card = game
                .decode(file.record(u64::from(n)).expect("loser is in range"))
                .expect("a loser decoded once already");
            let first = game
                .keys(&card)
                .as_ref()
                .iter()
                .filter_map(|key| set.holder(key))
                .find(|&holder| holder != n)
                .unwrap_or(n);
            (u64::from(n), u64::from(first))
        })
        .collect();
    (broken, duplicates)
}
