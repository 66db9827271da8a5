//! `bingomint export`: cards as text lines for other programs.

use super::{open_intact, FromFile, Outcome};
use anyhow::{bail, Context, Result};
use bingomint::cardfile::writer::TempOutput;
use bingomint::cardfile::CardFile;
use bingomint::export::{strip, text};
use bingomint::game::uk90::Uk90;
use bingomint::game::us75::Us75;
use bingomint::game::Game;
use bingomint::game::GameId;
use std::io::{BufWriter, Write};
use std::ops::RangeInclusive;
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
  bingomint export cards.bmc --to txt | head
  bingomint export cards.bmc --to csv --range 1..1000 --out first-thousand.csv")]
pub struct Args {
    /// The card file.
    file: PathBuf,

    /// Output format.
    #[arg(long, default_value = "txt", value_parser = ["txt", "csv", "jsonl"])]
    to: String,

    /// Write here instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    out: Option<PathBuf>,

    /// Cards (or strips) to export, 1-based and inclusive: `A..B`, `A..`,
    /// `..B` or `N`.
    #[arg(long, value_name = "A..B")]
    range: Option<String>,

    /// Replace the output file if it exists.
    #[arg(long)]
    force: bool,
}

/// Runs `export`.
pub fn run(args: Args) -> Result<Outcome> {
    let file = open_intact(&args.file)?;
    let count = file.header().count;
    let range = match &args.range {
        Some(text) => parse_range(text, count, file.header().game.noun())?,
        None => 1..=count,
    };
    let to = args.to.as_str();
    let write = |sink: &mut dyn Write| -> Result<()> {
        match file.header().game {
            GameId::Us75 => {
                let game = Us75::reader(&file)?;
                if to == "csv" {
                    sink.write_all(text::csv_header().as_bytes())?;
                }
                write_lines(
                    sink,
                    &file,
                    &game,
                    range.clone(),
                    |n, card, line| match to {
                        "csv" => text::csv_line(n, card, line),
                        "jsonl" => text::json_line(n, card, line),
                        _ => text::txt_line(card, line),
                    },
                )
            }
            GameId::Uk90 => {
                let game = Uk90::reader(&file)?;
                if to == "csv" {
                    sink.write_all(strip::csv_header().as_bytes())?;
                }
                write_lines(sink, &file, &game, range.clone(), |n, s, line| match to {
                    "csv" => strip::csv_line(n, s, line),
                    "jsonl" => strip::json_line(n, s, line),
                    _ => strip::txt_line(s, line),
                })
            }
        }
    };
    match &args.out {
        None => {
            let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
            write(&mut out)?;
            out.flush()?;
        }
        Some(path) => {
            let (temp, handle) = TempOutput::new(path, args.force)?;
            let mut out = BufWriter::with_capacity(1 << 16, &handle);
            write(&mut out)?;
            out.flush()
                .with_context(|| format!("cannot write '{}'", path.display()))?;
            drop(out);
            temp.publish(&handle)?;
        }
    }
    Ok(Outcome::Success)
}

/// Decodes cards `range` of `file` and writes each as `render` formats it.
fn write_lines<G: Game>(
    sink: &mut dyn Write,
    file: &CardFile,
    game: &G,
    range: RangeInclusive<u64>,
    render: impl Fn(u64, &G::Card, &mut String),
) -> Result<()> {
    let mut line = String::with_capacity(512);
    for n in range {
        let record = file.record(n).expect("range checked");
        let card = game.decode(record).map_err(|why| {
            anyhow::anyhow!(
                "{} {n} in '{}' is damaged: {why}",
                file.header().game.noun(),
                file.path()
            )
        })?;
        line.clear();
        render(n, &card, &mut line);
        sink.write_all(line.as_bytes())?;
    }
    Ok(())
}

/// Parses `A..B`, `A..`, `..B` or `N` (1-based, inclusive) against `count` cards.
fn parse_range(text: &str, count: u64, noun: &str) -> Result<RangeInclusive<u64>> {
    let number = |s: &str, default: u64| -> Result<u64> {
        if s.is_empty() {
            return Ok(default);
        }
        s.trim()
            .parse::<u64>()
            .with_context(|| format!("--range {text}: '{s}' is not a card or strip number"))
    };
    let (start, end) = match text.split_once("..") {
        Some((a, b)) => (number(a, 1)?, number(b, count)?),
        None => {
            let n = number(text, 0)?;
            (n, n)
        }
    };
    if start == 0 {
        bail!("--range {text}: cards and strips are numbered from 1");
    }
    if start > end {
        bail!("--range {text}: the first card comes after the last");
    }
    if end > count {
        bail!("--range {text}: the file holds {noun}s 1 to {count}");
    }
    Ok(start..=end)
}

#[cfg(test)]
mod tests {
    use super::parse_range;

    #[test]
    fn ranges() {
        assert_eq!(parse_range("1..10", 100, "card").unwrap(), 1..=10);
        assert_eq!(parse_range("5..", 100, "card").unwrap(), 5..=100);
        assert_eq!(parse_range("..3", 100, "card").unwrap(), 1..=3);
        assert_eq!(parse_range("7", 100, "card").unwrap(), 7..=7);
        assert!(parse_range("0..3", 100, "card")
            .unwrap_err()
            .to_string()
            .contains("from 1"));
        assert!(parse_range("5..2", 100, "card").is_err());
        assert!(parse_range("1..101", 100, "card")
            .unwrap_err()
            .to_string()
            .contains("1 to 100"));
        assert!(parse_range("x..2", 100, "card").is_err());
    }
}
