//! `bingomint export`: cards as text lines for other programs.
//!
//! Flags → the file and a range → `export::export` to the output.

use super::{cannot_write, clear_stale, flag, require_sound, Outcome};
use anyhow::Result;
use bingomint::cardfile::writer::write_text;
use bingomint::cardfile::CardFile;
use bingomint::export::{export, export_for_merge, ExportError, Format, Merge};
use bingomint::play::reference::{locate_ranges, records_in};
use bingomint::print::paper::Layout;
use bingomint::print::{layout_counts, series_ok, MAX_SERIES};
use std::path::PathBuf;

/// Export cards or strips as text: txt, csv or jsonl.
///
/// 75-ball: txt (25 numbers per line, row-major, 0 =
/// free centre), csv (with a header, the card number and the star's cell) or
/// jsonl (one JSON object per card). 90-ball: txt (one strip per line, 162
/// numbers, ticket by ticket, row by row, 0 = blank), csv (one row per
/// ticket) or jsonl (one object per strip).
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bingomint export cards.bmc --format txt | head
  bingomint export cards.bmc --format csv --range 1..1000 \\
      --out first-thousand.csv
  bingomint export cards.bmc --format csv --layout 6 --series 'Autumn 24-B' \\
      --out merge.csv")]
pub struct Args {
    /// The card file.
    file: PathBuf,

    /// Output format (`--to` is an older spelling).
    #[arg(long, alias = "to", default_value = "txt", value_parser = ["txt", "csv", "jsonl"])]
    format: String,

    /// Write here instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    out: Option<PathBuf>,

    /// Cards (or strips) to export, 1-based and inclusive: `A..B`, `A..`,
    /// `..B` or `N`, or a list of them in order: `1..3,7..8`.
    #[arg(long, value_name = "A..B")]
    range: Option<String>,

    /// Replace the output file if it exists.
    #[arg(long)]
    force: bool,

    /// Export cards even if their checksum blocks do not match (they were
    /// changed or damaged since the file was written).
    #[arg(long)]
    allow_damaged: bool,

    /// CSV for a data-merge tool: add the sheet and position each card
    /// takes when printed with `print --layout` (N a page, or CxR;
    /// sequential order), with the series and the file's id. Takes what
    /// `print --layout` takes, and nothing else.
    #[arg(long, value_name = "N|CxR")]
    layout: Option<String>,

    /// The series for --layout's columns [default: the file's id].
    #[arg(long, requires = "layout")]
    series: Option<String>,

    /// No summary (with --out, the `-> FILE` line; else the line on
    /// standard error).
    #[arg(short, long)]
    quiet: bool,
}

/// Runs `export`.
pub fn run(args: Args) -> Result<Outcome> {
    let file = CardFile::open_intact(&args.file)?;
    let count = file.header().count;
    let range = match &args.range {
        Some(text) => locate_ranges(&file, text).map_err(super::flag("--range"))?,
        None => vec![1..=count],
    };
    let format: Format = args.format.parse().map_err(anyhow::Error::msg)?;
    for run in &range {
        require_sound(&file, run.clone(), Some(args.allow_damaged))?;
    }
    if let Some(out) = &args.out {
        super::not_an_input(out, "--out", &[&args.file])?;
    }
    clear_stale(args.out.as_deref(), args.force)?;
    let target = cannot_write(args.out.as_deref());
    let merge = match &args.layout {
        Some(_) if format != Format::Csv => {
            anyhow::bail!("--layout adds print's columns to CSV: add --format csv")
        }
        Some(text) => {
            let spec = file.header().spec;
            let per_sheet =
                match Layout::parse(text, layout_counts(spec)).map_err(flag("--layout"))? {
                    Layout::Count(n) => n,
                    Layout::Grid(grid) => grid.per_page(),
                } as u64;
            let series = args.series.clone().unwrap_or_else(|| file.short_id());
            if !series_ok(&series) {
                anyhow::bail!("--series: give 1 to {MAX_SERIES} printable characters (no invisible character, no doubled or outer space)");
            }
            Some(Merge {
                series,
                file_id: file.short_id(),
                per_sheet,
            })
        }
        None => None,
    };
    let records = records_in(&range);
    write_text(args.out.as_deref(), args.force, |out| {
        match &merge {
            Some(m) => export_for_merge(&file, &range, m, out),
            None => export(&file, &range, format, out),
        }
        .map_err(|e| match e {
            ExportError::Io(io) => anyhow::Error::new(io).context(target),
            damaged => damaged.into(),
        })
    })?;
    let what = bingomint::text::count_of(records, file.header().spec.noun());
    match (&args.out, args.quiet) {
        (_, true) => {}
        (Some(out), _) => super::outln!("{what} as {} -> {}", args.format, out.display()),
        (None, _) => eprintln!("bingomint: exported {what} as {}", args.format),
    }
    Ok(Outcome::Success)
}
