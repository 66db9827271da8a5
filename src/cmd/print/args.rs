//! `print`'s flags: what a user can ask of the PDF, and their help
//! (`options.rs` says what they mean to the library).

use std::path::PathBuf;

/// Print a card file as a PDF: n-up faces, each with its face number,
/// series and the file's id, sheet numbers; pages the size of --paper, or
/// a print house's pages with --press (bleed and crop marks outside the
/// trim).
///
/// 75-ball: 6 cards a page on Letter by default; 90-ball: 2 strips a page,
/// a strip's six tickets together. Text is vector (DejaVu Sans); the PDF
/// follows PDF/X-1a:2001 (PDF 1.3, gray or CMYK inks, no transparency,
/// TrimBox and BleedBox). The same file and flags give the same bytes.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bingomint print cards.bmc --out cards.pdf
  bingomint print cards.bmc --layout 3 --paper letter --out home.pdf
  bingomint print cards.bmc --layout 9 --paper a4 --bleed 3mm \\
      --series 'Autumn 24-B' --range 1..9000 --out s24b.pdf
  bingomint print cards.bmc --layout 3x2 --qr --colour cmyk:0,100,100,0 \\
      --out red.pdf
  bingomint print strips.bmc --paper legal --out strips.pdf
  # Writes run/cards-0001.pdf … and run/manifest.csv:
  bingomint print cards.bmc --pages-per-file 500 --out run/cards.pdf
  bingomint print cards.bmc --order cut-stack --out stack.pdf
  # Books of 6 pages, 4 cards a page, in named inks, with a packing list:
  bingomint print cards.bmc --layout 4 --book-pages 6 \\
      --colours red blue green purple orange brown --packing books.csv \\
      --out books.pdf
  # Cut into piles of whole books, each piece labelled, press marks:
  bingomint print cards.bmc --layout 4 --order cut-stack --book-pages 6 \\
      --colours red blue green purple orange brown --press --out piles.pdf
  # A press order: lifts of whole books, packing list, carton labels:
  bingomint print strips.bmc --paper sra3 --order cut-stack --stack 498 \\
      --book-pages 6 --colours yellow pink blue green orange purple --spot \\
      --press --allow-short-book --packing order.csv --books-per-carton 10 \\
      --carton-labels labels.pdf --job J2611 --label-size 4x6in --out o.pdf
  bingomint print cards.bmc --bleed 3mm --background 15 \\
      --colour blue --out tinted.pdf
  # An items game: its cards, and every item once on cards to cut out.
  bingomint print words.bmc --title 'Class 7 words' --out words.pdf
  bingomint print words.bmc --calling-cards --out calling.pdf")]
pub struct Args {
    /// The card file (native or v3).
    pub(super) file: PathBuf,

    /// The PDF to write.
    #[arg(short, long, value_name = "FILE.pdf")]
    pub(super) out: PathBuf,

    /// Faces a page: 75-ball 1-4, 6, 8, 9, 12 or 18 cards, 90-ball 1-4 or 6
    /// strips; or CxR, 3x2 [default: 6, 2 strips; more on tabloid, A3, SRA3].
    #[arg(long, value_name = "N|CxR")]
    pub(super) layout: Option<String>,

    /// Paper (the trim size): letter, legal, tabloid, a4, a3, sra3, a5, a6, or
    /// WxH with a unit (210x297mm, 8.5x11in).
    #[arg(long, default_value = "letter")]
    pub(super) paper: String,

    /// Space between the paper's edge and the faces.
    #[arg(long, default_value = "0.375in", value_name = "LENGTH")]
    pub(super) margin: String,

    /// Space between faces.
    #[arg(long, default_value = "0.25in", value_name = "LENGTH")]
    pub(super) gap: String,

    /// The print house's page: the trim (--paper) with the bleed and crop
    /// marks outside it (MediaBox > TrimBox); without it, the paper as
    /// loaded. A --bleed implies it.
    #[arg(long)]
    pub(super) press: bool,

    /// Bleed beyond the trim (BleedBox; crop marks outside it); implies --press.
    #[arg(long, default_value = "0mm", value_name = "LENGTH")]
    pub(super) bleed: String,

    /// With --press, leave out the crop marks.
    #[arg(long)]
    pub(super) no_marks: bool,

    /// For low-vision players: one card a page, numbers at least 48 pt.
    #[arg(long, conflicts_with = "layout")]
    pub(super) large_print: bool,

    /// The series printed on every face [default: the file's id].
    #[arg(long)]
    pub(super) series: Option<String>,

    /// A QR code on each face (bingomint:ID:card:N), which `check --card` reads.
    #[arg(long)]
    pub(super) qr: bool,

    /// Print each 75-ball card's group face in its free centre: a colour digit
    /// (the sheet's place in --colours, else 1), then the card number padded.
    #[arg(long)]
    pub(super) group_face: bool,

    /// The ink: gray (black), a named colour (yellow, pink, blue, green,
    /// orange, red, purple, brown: the night file's paper names), or
    /// cmyk:C,M,Y,K in percent.
    #[arg(long, alias = "color", default_value = "gray", value_name = "INK")]
    #[arg(conflicts_with = "book_pages")]
    pub(super) colour: String,

    /// Books of K sheets: page k of each book printed in the k-th of
    /// --colours, each sheet labelled with its book and page.
    #[arg(long, value_name = "K", requires = "colours")]
    pub(super) book_pages: Option<usize>,

    /// The inks of a book's pages, one for each of --book-pages, separated by
    /// spaces: gray, a named colour (yellow, pink, …) or cmyk:C,M,Y,K.
    #[arg(long, value_name = "INK", num_args = 1.., requires = "book_pages")]
    pub(super) colours: Vec<String>,

    /// sequential: sheet 1 holds faces 1…n; cut-stack: each pile holds consecutive faces.
    #[arg(long, default_value = "sequential", value_parser = ["sequential", "cut-stack"])]
    pub(super) order: String,

    /// Cards (or strips) to print, `A..B`, or a list, `1..600,901..1200` [default: all].
    #[arg(long, value_name = "A..B")]
    pub(super) range: Option<String>,

    /// Split into files of at most N pages (FILE-0001.pdf …) with a
    /// manifest.csv (file, pages, first and last face, SHA-256).
    #[arg(long, value_name = "N")]
    pub(super) pages_per_file: Option<u64>,

    #[command(flatten)]
    pub(super) trail: super::press::PressFlags,

    #[command(flatten)]
    pub(super) items: super::items::ItemsFlags,

    /// Replace existing output files.
    #[arg(long)]
    pub(super) force: bool,

    /// Worker threads [default: every core].
    #[arg(short = 'j', long)]
    pub(super) threads: Option<usize>,

    /// No progress bar and no summary line.
    #[arg(short, long)]
    pub(super) quiet: bool,
}
