//! `bingomint hall stock`: the office's side of the paper stock book —
//! paper received into it by serial range and series, and paper on hand
//! destroyed. Sessions issue from it as they sell (`hall --stock`);
//! `hall report --stock` lists it.

use super::open::faces_of;
use crate::cmd::{outln, Outcome};
use anyhow::{anyhow, Result};
use bingomint::hall::stock::Stock;
use bingomint::text::count_of;
use std::path::{Path, PathBuf};

/// `hall stock`'s commands.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub what: What,
}

#[derive(clap::Subcommand)]
pub enum What {
    /// Receive paper into the stock book (begun if new): faces of a card
    /// file by range or serials as printed, and the series they are.
    #[command(after_help = "\
Examples:
  bingomint hall stock receive stock.jsonl --cards cards.bmc \\
      --faces 1..600 --series A --note 'delivery 4471'
  bingomint hall stock receive stock.jsonl --cards cards.bmc \\
      --faces 601..9000 --series B")]
    Receive {
        /// The stock book.
        #[arg(value_name = "STOCK")]
        book: PathBuf,
        /// The card file the paper was printed from.
        #[arg(long, value_name = "FILE")]
        cards: PathBuf,
        /// The faces received, such as 1..600,1201..1800 [default: all].
        #[arg(long, value_name = "RANGES")]
        faces: Option<String>,
        /// The series printed on the paper.
        #[arg(long, value_name = "NAME")]
        series: Option<String>,
        /// A note kept with the receipt (a delivery note's number).
        #[arg(long, value_name = "TEXT")]
        note: Option<String>,
    },
    /// Destroy paper on hand (damaged, misprinted), with the reason.
    #[command(after_help = "\
Examples:
  bingomint hall stock destroy stock.jsonl --cards cards.bmc \\
      --faces 13..18 --why 'water damaged'         # needs: a stock book")]
    Destroy {
        /// The stock book.
        #[arg(value_name = "STOCK")]
        book: PathBuf,
        /// The card file the paper was printed from.
        #[arg(long, value_name = "FILE")]
        cards: PathBuf,
        /// The faces destroyed, such as 13..18.
        #[arg(long, value_name = "RANGES")]
        faces: String,
        /// Why they were destroyed.
        #[arg(long, value_name = "TEXT")]
        why: String,
    },
}

/// Runs `hall stock`.
pub fn run(a: &Args) -> Result<Outcome> {
    match &a.what {
        What::Receive {
            book,
            cards,
            faces,
            series,
            note,
        } => {
            let (file, faces) = faces_of(cards, faces.as_deref())?;
            let series = named(series.as_deref(), "--series")?;
            let note = named(note.as_deref(), "--note")?;
            let mut stock = open(book)?;
            let id = file.short_id();
            stock
                .receive((&id, file.path()), &faces, series.clone(), note)
                .map_err(|e| anyhow!("{}: {e}", book.display()))?;
            let paper = stock.standing.paper(&id).expect("received");
            let series = series.map_or(String::new(), |s| format!(" (series {s})"));
            outln!(
                "received {} of '{}'{series} into '{}': {} on hand",
                count_of(faces.count(), "face"),
                file.path(),
                book.display(),
                count_of(paper.on_hand().count(), "face")
            );
        }
        What::Destroy {
            book,
            cards,
            faces,
            why,
        } => {
            let (file, faces) = faces_of(cards, Some(faces))?;
            let why = named(Some(why), "--why")?.expect("given");
            if !book.is_file() {
                anyhow::bail!(
                    "STOCK '{}': no stock book there: give the book paper was received into",
                    book.display()
                );
            }
            let mut stock = open(book)?;
            let id = file.short_id();
            stock
                .destroy(&id, &faces, &why)
                .map_err(|e| anyhow!("--faces: {e}"))?;
            let paper = stock.standing.paper(&id).expect("destroyed from it");
            outln!(
                "destroyed faces {} of '{}' ({why}): {} on hand",
                faces.words(),
                file.path(),
                count_of(paper.on_hand().count(), "face")
            );
        }
    }
    Ok(Outcome::Success)
}

/// A name or note, trimmed; an empty one refused, naming `flag`.
fn named(text: Option<&str>, flag: &str) -> Result<Option<String>> {
    match text.map(str::trim) {
        Some("") => anyhow::bail!("{flag}: give some text (it is kept in the stock book)"),
        Some(t) if t.chars().any(char::is_control) => {
            anyhow::bail!("{flag}: give one line of text, with no control characters")
        }
        t => Ok(t.map(str::to_string)),
    }
}

fn open(book: &Path) -> Result<Stock> {
    Stock::open(book).map_err(|e| anyhow!("STOCK '{}': {e}", book.display()))
}
