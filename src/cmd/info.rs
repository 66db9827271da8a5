//! `bingomint info`: what a card file holds and whether its checksums match.

use super::{out, Outcome};
use anyhow::Result;
use bingomint::cardfile::header::Import;
use bingomint::cardfile::{CardFile, FileFormat, Header, Integrity};
use bingomint::text::count_of;
use std::path::PathBuf;

/// Describe a card file: game, format, count, seed, checksums.
///
/// Also the parameters, the creation date and the writing tool's version.
/// A damaged file is described, then reported: exit 2.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  bingomint info cards.bmc\n  bingomint info cards.bmc --id    # the id a QR code names the file by"
)]
pub struct Args {
    /// The card file.
    file: PathBuf,

    /// Print only the file's short id (as QR codes, `show` and the hall
    /// name the file: bingomint:ID:card:N).
    #[arg(long)]
    id: bool,
}

/// Runs `info`.
pub fn run(args: Args) -> Result<Outcome> {
    let file = CardFile::open(&args.file)?;
    if args.id {
        super::outln!("{}", file.short_id());
        return Ok(Outcome::Success);
    }
    let h = file.header();
    let mut out = String::new();
    let mut field = |name: &str, value: String| out.push_str(&format!("{name:<14}{value}\n"));
    field("file", file.path().to_string());
    field("id", file.short_id());
    field("format", h.format_text());
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
    for (name, value) in numbering(h) {
        field(name, value);
    }
    if let Some(seed) = h.seed {
        field("seed", seed.to_string());
    }
    if let Some(algorithm) = h.algorithm {
        field("algorithm", format!("version {algorithm}"));
    }
    let created = if h.import.is_some() {
        "imported"
    } else {
        "created"
    };
    field(created, bingomint::text::iso_date(h.created));
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

/// How the faces are numbered, when not from 1: a series continued, or
/// what an imported file says of its source.
fn numbering(h: &Header) -> Vec<(&'static str, String)> {
    let faces = h.face_range();
    match &h.import {
        Some(import) => imported(h, import),
        None => {
            let noun = h.spec.face_noun();
            let mut out = Vec::new();
            if h.first_face != 1 {
                let how = ["a series continued", "on from the shards before it"]
                    [usize::from(h.shard.is_some())];
                let range = format!("{noun}s {}–{} ({how})", faces.start(), faces.end());
                out.push(("numbered", range));
            }
            out
        }
    }
}

/// What an imported file says of its source.
fn imported(h: &Header, import: &Import) -> Vec<(&'static str, String)> {
    let Some(p) = import.provenance() else {
        return vec![("imported from", "(the provenance cannot be read)".into())];
    };
    let faces = h.face_range();
    let range = (h.serials()).map_or(format!("{}–{}", faces.start(), faces.end()), |s| {
        s.describe()
    });
    let noun = h.spec.face_noun();
    let mut out = vec![
        ("imported from", format!("'{}'", p.source)),
        ("source sha256", p.sha256),
        ("source layout", p.layout),
        ("numbered", format!("{noun}s {range}, {}", p.numbering)),
    ];
    if p.breaking > 0 {
        let n = count_of(p.breaking, h.spec.face_noun());
        out.push((
            "breaking",
            format!("{n} break the layout rules (valid to play)"),
        ));
    }
    out.push(("seed", "none: imported, not drawn".into()));
    out
}
