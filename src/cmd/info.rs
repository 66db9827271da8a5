//! `bingomint info`: what a card file holds and whether its checksums match.

use super::Outcome;
use anyhow::Result;
use bingomint::cardfile::{CardFile, Format};
use bingomint::game::uk90::rules::Rules;
use bingomint::game::GameId;
use std::path::PathBuf;

/// Describe a card file: game, format, count, seed, checksums.
///
/// Also the parameters, the creation date and the writing tool's version.
#[derive(clap::Args)]
#[command(after_help = "Example:\n  bingomint info cards.bmc")]
pub struct Args {
    /// The card file.
    file: PathBuf,
}

/// Runs `info`.
pub fn run(args: Args) -> Result<Outcome> {
    let file = CardFile::open(&args.file)?;
    let h = file.header();
    let mut out = String::new();
    let mut field = |name: &str, value: String| out.push_str(&format!("{name:<14}{value}\n"));
    field("file", file.path().to_string());
    field(
        "format",
        match h.format {
            Format::Native => "native (bingomint format 1)".to_string(),
            Format::V3 => "v3 (the original generator's layout: no seed, no checksums)".to_string(),
        },
    );
    field("game", h.game.describe().to_string());
    if h.game == GameId::Uk90 {
        let rules = Rules::from_byte(h.rules).map_or("unknown", Rules::name);
        field("rules", rules.to_string());
        field("strips", format!("{} ({} tickets)", h.count, 6 * h.count));
    } else {
        field("cards", h.count.to_string());
    }
    field(
        "records",
        format!("{} bytes each, from byte {}", h.record_size, h.records_at),
    );
    if h.game == GameId::Us75 {
        field(
            "star",
            match h.star {
                Some(true) => "yes, one per card".into(),
                Some(false) => "no".into(),
                None => "not recorded in a v3 header (centre byte 12 = no star)".into(),
            },
        );
    }
    if let Some(seed) = h.seed {
        field("seed", seed.to_string());
    }
    if let Some(algorithm) = h.algorithm {
        field("algorithm", format!("version {algorithm}"));
    }
    field("created", date(h.created));
    if let Some(tool) = &h.tool_version {
        field("written by", format!("bingomint {tool}"));
    }
    if let Some(redrawn) = h.redrawn {
        field("redrawn", format!("{redrawn} duplicate draws replaced"));
    }
    field("header", status(file.header_ok()));
    field("checksum", status(file.records_ok()));
    print!("{out}");
    Ok(Outcome::Success)
}

fn status(ok: Option<bool>) -> String {
    match ok {
        Some(true) => "ok".into(),
        Some(false) => "MISMATCH: the file is damaged (run `bingomint verify`)".into(),
        None => "none in this format (`bingomint verify` still checks rules and uniqueness)".into(),
    }
}

fn date(yyyymmdd: u32) -> String {
    format!(
        "{:04}-{:02}-{:02}",
        yyyymmdd / 10_000,
        yyyymmdd / 100 % 100,
        yyyymmdd % 100
    )
}
