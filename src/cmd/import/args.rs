//! `import`'s flags: the source, the game and how to read it.

use crate::cmd::games;
use std::path::PathBuf;

/// Import another maker's cards or tickets as a card file.
///
/// Reads CSV or TSV with a header (or --columns), JSON (an array of faces or
/// one a line), plain text grids, and card files (v3 or native). Every face
/// is checked against the game's rules and every duplicate found by exact
/// key; a file breaking a rule is refused with each face named, and nothing
/// is written. The card file records the source's name and SHA-256 (shown by
/// info and verify) and numbers faces as the source does; 90-ball tickets
/// that form strips are stored as strips, others as single tickets.
#[derive(clap::Args)]
#[command(after_help = "\
Header names the columns are known by: card / ticket / id / number / serial
(the face's own number), star, strip (read past), B1 … O5, r1c1 …, or places
1 … 25 (row by row; --by columns for column by column). A blank cell is
empty, 0, FREE, *, -, ., x, null or blank (in any case).

Examples:
  bingomint import data/import/perms.csv --game 75 --by columns \\
      --out perms.bmc
  bingomint import data/import/tickets.txt --game 90 --rules loose \\
      --out tickets.bmc
  # A v3 file (the original generator's layout):
  bingomint import data/golden-v3-star-seed42-100.dat --out old.bmc
  bingomint import data/import/sheet.csv --game 80 \\
      --columns number,skip,cells --out sheet.bmc
  bingomint generate --count 100000 --exclude perms.bmc --out new.bmc")]
pub struct Args {
    /// The file to import.
    pub(super) file: PathBuf,

    /// The game the faces are for [default: the game the first face reads
    /// as: 75, 80 or 90, said on stderr].
    #[arg(short, long, value_parser = games())]
    pub(super) game: Option<String>,

    /// The card file to write.
    #[arg(short, long, value_name = "FILE")]
    pub(super) out: PathBuf,

    /// 90-ball rule set: uk, es, or loose (tickets valid to play, numbers
    /// in their columns and none twice, though a row or column breaks the uk
    /// layout rules; each is reported and the file records it) [default: uk].
    #[arg(long, value_parser = ["uk", "es", "loose"])]
    pub(super) rules: Option<String>,

    /// The source's layout [default: told from its first bytes and name].
    #[arg(long, value_parser = ["csv", "tsv", "json", "text", "cards"])]
    pub(super) format: Option<String>,

    /// Each column's role, comma-separated: number, star, skip, cells (the
    /// face's cells from here on), or a cell name (B1, r1c1). A first row of
    /// names is then read past.
    #[arg(long, value_name = "LIST")]
    pub(super) columns: Option<String>,

    /// How cells given by place (1, 2, … or `cells`) run across a face.
    #[arg(long, value_name = "rows|columns", default_value = "rows", value_parser = ["rows", "columns"])]
    pub(super) by: String,

    /// Number the faces 1, 2, … in file order instead of by the source's own
    /// numbers.
    #[arg(long)]
    pub(super) renumber: bool,

    /// A face that repeats an earlier one: refuse the file, or drop the
    /// repeat (keeping the first) and say which were dropped.
    #[arg(long, value_name = "refuse|drop", default_value = "refuse", value_parser = ["refuse", "drop"])]
    pub(super) duplicates: String,

    /// Replace the output file if it exists.
    #[arg(long)]
    pub(super) force: bool,

    /// No progress bar and no summary line (warnings still show).
    #[arg(short, long)]
    pub(super) quiet: bool,
}
