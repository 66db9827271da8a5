//! `bingomint verify`: check a whole card file: header and record checksums,
//! every card's rules, and that no two cards are the same.
//!
//! The file → `pipeline::verify::verify` → the report, exit 1 on a problem.

use super::{outln, with_threads, Outcome};
use anyhow::Result;
use bingomint::cardfile::{CardFile, FileError, Integrity};
use bingomint::export::count_of;
use bingomint::pipeline::verify::{verify_within, Report};
use bingomint::pipeline::{default_memory, spill};
use std::path::PathBuf;

/// How many problems of each kind are listed before "… and N more".
const SHOWN: usize = 10;

/// Verify a card file: checksums, every card's rules, no duplicates.
///
/// Exits 0 when all is well and 1, naming the bad cards, when not.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  bingomint verify cards.bmc\n  bingomint verify big.bmc --memory 4G --temp-dir /scratch"
)]
pub struct Args {
    /// The card file.
    file: PathBuf,

    /// Memory budget: when the key set and the mapped file would take more,
    /// duplicates are found out of core, through key partitions on disk,
    /// with the same report. K, M, G, T are powers of 1024 [default: a third
    /// of the memory available].
    #[arg(long, value_name = "SIZE", value_parser = super::parse_size)]
    memory: Option<u64>,

    /// Where an out-of-core check keeps its key partitions (about 12 bytes
    /// a card, removed at the end) [default: the file's directory].
    #[arg(long, value_name = "DIR")]
    temp_dir: Option<PathBuf>,

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
        // Unreadable, or a format this version does not read: nothing to
        // check.
        Err(err @ (FileError::Read { .. } | FileError::Unsupported { .. })) => {
            return Err(err.into())
        }
        // Not a card file, or one that does not hold what its header says:
        // a negative answer.
        Err(err) => {
            outln!("FAILED: {err}");
            return Ok(Outcome::Negative);
        }
    };
    let memory = args.memory.unwrap_or_else(default_memory);
    let dir = args
        .temp_dir
        .clone()
        .unwrap_or_else(|| spill::default_dir(&args.file));
    let (report, partitions) = with_threads(args.threads, || verify_within(&file, memory, &dir))?
        .map_err(anyhow::Error::msg)?;
    if let (Some((p, disk)), false) = (partitions, args.quiet) {
        outln!("uniqueness        checked in {p} key partitions ({disk} on disk)");
    }
    for (failed, text) in lines(&report) {
        if !args.quiet || failed {
            outln!("{text}");
        }
    }
    if !report.ok() {
        outln!("FAILED: {}", file.path());
        return Ok(Outcome::Negative);
    }
    if !args.quiet {
        outln!(
            "OK: {} holds {}",
            file.path(),
            count_of(
                report.count,
                &format!("valid, unique {}", report.spec.noun())
            )
        );
    }
    Ok(Outcome::Success)
}

/// The report as lines, each marked failed or not.
fn lines(report: &Report) -> Vec<(bool, String)> {
    let noun = report.spec.noun();
    let face = report.spec.face_noun();
    let mut out = Vec::new();
    let mut line = |failed: bool, text: String| out.push((failed, text));
    match report.header_ok {
        Some(true) => line(false, "header checksum   ok".into()),
        Some(false) => line(
            true,
            "header checksum   MISMATCH: the header is damaged".into(),
        ),
        None => line(false, "header checksum   none (v3 layout)".into()),
    }
    match &report.integrity {
        Integrity::Intact => line(false, "records checksum  ok".into()),
        damage @ Integrity::Damaged(_) => {
            let n = damage.damaged_cards();
            line(
                true,
                format!(
                    "records checksum  MISMATCH: {noun}s {} ({} in blocks whose checksum \
                     fails: changed or damaged)",
                    damage.describe(SHOWN),
                    count_of(n, noun),
                ),
            )
        }
        Integrity::Unchecked => line(false, "records checksum  none (v3 layout)".into()),
    }
    let (broken, duplicates) = (&report.broken, &report.duplicates);
    if broken.is_empty() {
        line(
            false,
            format!("rules             ok ({})", count_of(report.count, noun)),
        );
    } else {
        line(
            true,
            format!(
                "rules             {} {} the rules:",
                count_of(broken.len() as u64, noun),
                if broken.len() == 1 { "breaks" } else { "break" }
            ),
        );
        listed(
            &mut line,
            broken.iter().map(|(n, why)| format!("  {noun} {n}: {why}")),
            broken.len(),
        );
    }
    if duplicates.is_empty() {
        line(
            false,
            format!("uniqueness        ok (no {face} repeats another)"),
        );
    } else {
        line(
            true,
            format!(
                "uniqueness        {} {} an earlier {face}:",
                count_of(duplicates.len() as u64, noun),
                if duplicates.len() == 1 {
                    "repeats"
                } else {
                    "repeat"
                }
            ),
        );
        let what = |&(n, first): &(u64, u64)| {
            if report.spec.faces() > 1 {
                format!("  {noun} {n} repeats a {face} of {noun} {first}")
            } else {
                format!("  {noun} {n} is the same as {noun} {first}")
            }
        };
        listed(&mut line, duplicates.iter().map(what), duplicates.len());
    }
    out
}

/// The first [`SHOWN`] of `lines`, then how many more there were.
fn listed(line: &mut impl FnMut(bool, String), lines: impl Iterator<Item = String>, total: usize) {
    for text in lines.take(SHOWN) {
        line(true, text);
    }
    if total > SHOWN {
        line(true, format!("  … and {} more", total - SHOWN));
    }
}
