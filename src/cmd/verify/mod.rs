//! `bingomint verify`: check a whole card file: header and record checksums,
//! every card's rules, and that no two cards are the same.
//!
//! The file → `pipeline::verify::verify` → the report, exit 1 on a problem.

mod across;
mod shard;

use super::{outln, with_threads, Outcome};
use anyhow::{anyhow, Result};
use bingomint::cardfile::{CardFile, FileError};
use bingomint::pipeline::outcore::OutOfCoreError;
use bingomint::pipeline::shard::Shard;
use bingomint::pipeline::verify::{verify_within, VerifyError};
use bingomint::pipeline::{default_memory, spill};
use bingomint::text::count_of;
use std::path::{Path, PathBuf};

/// Verify a card file: checksums, every card's rules, no duplicates.
///
/// Exits 0 when all is well and 1, naming the bad cards, when not.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  bingomint verify cards.bmc\n  bingomint verify big.bmc --memory 4G --temp-dir /scratch   # needs: big.bmc\n  bingomint verify --across cards.bmc more.bmc   # needs: more.bmc"
)]
pub struct Args {
    /// The card file (with --across, the files).
    #[arg(required = true, value_name = "FILE")]
    pub(super) files: Vec<PathBuf>,

    /// Check several files of one game against each other as well: each
    /// is verified, then any face two of them share is named (90-ball:
    /// ticket by ticket). Exits 1 when one is shared.
    #[arg(long)]
    pub(super) across: bool,

    /// Check that every card is of shard I of N of a stock (`generate
    /// --shard`); a shard's file is checked against its own shard without
    /// it.
    #[arg(long, value_name = "I/N", value_parser = super::generate::parse_shard)]
    pub(super) shard: Option<Shard>,

    /// Memory budget: when the key set and the mapped file would take more,
    /// duplicates are found out of core, through key partitions on disk,
    /// with the same report. K, M, G, T are powers of 1024 [default: a third
    /// of the memory available].
    #[arg(long, value_name = "SIZE", value_parser = super::parse_size)]
    memory: Option<u64>,

    /// Where an out-of-core check keeps its key partitions (about 8 bytes
    /// a card, removed at the end) [default: the file's directory].
    #[arg(long, value_name = "DIR")]
    temp_dir: Option<PathBuf>,

    /// Worker threads [default: every core].
    #[arg(short = 'j', long)]
    pub(super) threads: Option<usize>,

    /// Print only problems.
    #[arg(short, long)]
    pub(super) quiet: bool,
}

/// Runs `verify`.
pub fn run(args: Args) -> Result<Outcome> {
    if args.across {
        return across::run(&args);
    }
    if let [_, second, ..] = args.files.as_slice() {
        return Err(anyhow!(
            "'{}': verify checks one file; add --across to check several against each other",
            second.display()
        ));
    }
    with_threads(args.threads, || one(&args.files[0], &args))?
}

/// Verifies the card file `path`.
pub(super) fn one(path: &Path, args: &Args) -> Result<Outcome> {
    let file = match CardFile::open(path) {
        Ok(file) => file,
        // Unreadable, or a format this version does not read: nothing to
        // check.
        Err(
            err @ (FileError::Read { .. }
            | FileError::Unsupported { .. }
            | FileError::NotRegular { .. }),
        ) => return Err(err.into()),
        // Not a card file, or one that does not hold what its header says:
        // a negative answer.
        Err(err) => {
            outln!("FAILED: {err}");
            return Ok(Outcome::Negative);
        }
    };
    let memory = args.memory.unwrap_or_else(default_memory);
    let dir = (args.temp_dir.clone()).unwrap_or_else(|| spill::default_dir(path));
    let (report, partitions) = verify_within(&file, memory, &dir).map_err(|e| match e {
        VerifyError::Memory(_) => anyhow!(
            "verifying '{}': {e}; give --memory a budget below the free memory to check \
                 it in key partitions",
            file.path()
        ),
        VerifyError::OutOfCore(e @ OutOfCoreError::Space { .. }) => anyhow!(
            "{e}: choose another --temp-dir, or raise --memory to keep more of them in memory"
        ),
        e => e.into(),
    })?;
    if let (Some((p, disk)), false) = (partitions, args.quiet) {
        outln!("uniqueness        checked in {p} key partitions ({disk} on disk)");
    }
    if let (Some(import), false) = (&file.header().import, args.quiet) {
        outln!("provenance        {}", import.describe());
    }
    for (failed, text) in report.lines() {
        if !args.quiet || failed {
            outln!("{text}");
        }
    }
    if !report.ok() || !shard::member(&file, args)? {
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
