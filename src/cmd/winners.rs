//! `bingomint winners`: every face of a file that holds a pattern after the
//! calls, earliest first.
//!
//! The file, a range, the calls → `play::claims::winners` (a parallel scan
//! of the mapped file) → `play::listing` (text, CSV or JSON lines).

use super::play::{pattern, CallsArgs};
use super::{cannot_write, clear_stale, require_sound, with_threads, Outcome};
use anyhow::{Context, Result};
use bingomint::cardfile::writer::write_text;
use bingomint::cardfile::CardFile;
use bingomint::play::claims::winners;
use bingomint::play::listing::Listing;
use bingomint::play::reference::locate_ranges;
use std::path::PathBuf;

/// List every card (or ticket) that holds the pattern after the calls.
///
/// Each winner with the call at which it first completed, earliest first,
/// then how many completed at each call. Exit 0 when there is a winner, 1
/// when there is none.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bingomint winners cards.bmc --calls-file calls.txt --pattern x --range 1..9000
  bingomint winners strips.bmc --calls-file calls90.txt --pattern one-line \\
      --format csv --out winners.csv")]
pub struct Args {
    /// The card file.
    file: PathBuf,

    #[command(flatten)]
    calls: CallsArgs,

    /// The pattern (see `bingomint patterns`), or a mask.
    #[arg(short, long)]
    pattern: String,

    /// The cards (or strips) sold: `A..B`, `A..`, `..B` or `N`, or a list
    /// of them in order, `1..5000,7001..9000` [default: all].
    #[arg(long, value_name = "A..B")]
    range: Option<String>,

    /// Output format.
    #[arg(long, default_value = "text", value_parser = ["text", "csv", "jsonl"])]
    format: String,

    /// Only faces with a winning way that the last number called completes
    /// (the house rule of `check --last-call-must-complete`).
    #[arg(long)]
    last_call_must_complete: bool,

    /// Write here instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    out: Option<PathBuf>,

    /// Replace the output file if it exists.
    #[arg(long)]
    force: bool,

    /// Scan cards even if their checksum blocks do not match.
    #[arg(long)]
    allow_damaged: bool,

    /// The winners' lines alone: no heading, no counts a call (exit 0
    /// when there is a winner, 1 when none).
    #[arg(short, long)]
    quiet: bool,

    /// Worker threads [default: every core].
    #[arg(short = 'j', long)]
    threads: Option<usize>,
}

/// Runs `winners`.
pub fn run(args: Args) -> Result<Outcome> {
    let file = CardFile::open_intact(&args.file)?;
    let spec = file.header().spec;
    let pattern = pattern(&args.pattern, spec)?;
    let calls = args.calls.required(spec)?;
    let count = file.header().count;
    let range = match &args.range {
        Some(text) => locate_ranges(&file, text).map_err(super::flag("--range"))?,
        None => vec![1..=count],
    };
    if let Some(out) = &args.out {
        let mut inputs = vec![args.file.as_path()];
        inputs.extend(args.calls.calls_file.as_deref());
        super::not_an_input(out, "--out", &inputs)?;
    }
    clear_stale(args.out.as_deref(), args.force)?;
    let found = with_threads(args.threads, || {
        let mut found = Vec::new();
        for run in &range {
            require_sound(&file, run.clone(), Some(args.allow_damaged))?;
            let last_call = args.last_call_must_complete;
            found.extend(winners(&file, run.clone(), &pattern, &calls, last_call)?);
        }
        Ok::<_, anyhow::Error>(found)
    })??;
    let listing = Listing {
        spec,
        pattern: &pattern,
        calls: &calls,
        winners: &found,
        path: file.path(),
        records: range,
        header: file.header(),
        quiet: args.quiet,
    };
    let format = args.format.parse().map_err(anyhow::Error::msg)?;
    let target = cannot_write(args.out.as_deref());
    write_text(args.out.as_deref(), args.force, |out| {
        listing.write(format, out).context(target.clone())?;
        out.flush().context(target.clone())
    })?;
    Ok(if found.is_empty() {
        Outcome::Negative
    } else {
        Outcome::Success
    })
}
