//! `bingomint info`: what a card file holds and whether its checksums match.

use super::{out, Outcome};
use anyhow::Result;
use bingomint::cardfile::{CardFile, FileFormat, Integrity};
use std::path::PathBuf;

/// Describe a card file: game, format, count, seed, checksums.
///
/// Also the parameters, the creation date and the writing tool's version.
/// A damaged file is described, then reported: exit 2.
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
    field("id", file.short_id());
    field(
        "format",
        match h.format {
            FileFormat::Native => match h.block {
                Some(block) => format!(
                    "native (bingomint format 2: a checksum every {block} {}s)",
                    h.spec.noun()
                ),
                None => "native (bingomint format 1: one checksum for all records)".to_string(),
            },
            FileFormat::V3 => {
                "v3 (the original generator's layout: no seed, no checksums)".to_string()
            }
        },
    );
    field("game", h.spec.describe().to_string());
    let (before, after) = h.spec.info(h.count, h.format == FileFormat::Native);
    for (name, value) in before {
        field(name, value);
    }
    field(
        "records",
        format!("{} bytes each, from byte {}", h.record_size, h.records_at),
    );
    for (name, value) in after {
        field(name, value);
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
    let checked = match file.header_ok() {
        Some(true) => "ok",
        Some(false) => "MISMATCH: the file is damaged (run `bingomint verify`)",
        None => NONE,
    };
    field("header", checked.to_string());
    let integrity = file.integrity(1..=h.count);
    let records = match &integrity {
        Integrity::Intact => "ok".to_string(),
        Integrity::Unchecked => NONE.to_string(),
        damage @ Integrity::Damaged(_) => format!(
            "MISMATCH: {}s {} are damaged (run `bingomint verify`)",
            h.spec.noun(),
            damage.describe(5)
        ),
    };
    field("checksum", records);
    out!("{out}");
    file.require_intact_header()?;
    if integrity.damaged_cards() > 0 {
        super::require_sound(&file, 1..=h.count, None)?;
    }
    Ok(Outcome::Success)
}

/// What `info` says of a checksum the layout does not keep.
const NONE: &str = "none in this format (`bingomint verify` still checks rules and uniqueness)";

fn date(yyyymmdd: u32) -> String {
    format!(
        "{:04}-{:02}-{:02}",
        yyyymmdd / 10_000,
        yyyymmdd / 100 % 100,
        yyyymmdd % 100
    )
}
