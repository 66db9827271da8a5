//! `print`'s flags for the press's paper trail: a tint behind the sheet,
//! spot inks, short books, the packing list.

use std::path::PathBuf;

/// What `print` asks of a print run's paper trail.
#[derive(clap::Args)]
pub struct PressFlags {
    /// A tint of the ink behind each sheet, in percent, reaching into the
    /// bleed (the faces stay white).
    #[arg(long, value_name = "PERCENT", default_value_t = 0.0)]
    pub(super) background: f32,

    /// Named inks as spot colours: each a plate of its own (a /Separation
    /// colour space), its process CMYK the alternate. yellow, pink, … are
    /// the plates Bingo Yellow, Bingo Pink, …; NAME=cmyk:C,M,Y,K names the
    /// plate as the ink's maker does ("PANTONE 116 C=cmyk:0,16,100,0"),
    /// never a process colorant's name; plain cmyk:… and gray stay process.
    #[arg(long)]
    pub(super) spot: bool,

    /// Print a last book with fewer pages than --book-pages (refused
    /// otherwise, naming the count: a short book is a packing mistake).
    #[arg(long, requires = "book_pages")]
    pub(super) allow_short_book: bool,

    /// Write a packing list (CSV): a row a book (pages, first, last and
    /// top-sheet serial, inks in page order, where its pages are), and a
    /// row a carton with --books-per-carton.
    #[arg(long, value_name = "FILE.csv")]
    pub(super) packing: Option<PathBuf>,

    /// Books packed to a carton, for the packing list's carton rows (1 or
    /// more).
    #[arg(long, value_name = "K", requires = "packing", value_parser = clap::value_parser!(u64).range(1..))]
    pub(super) books_per_carton: Option<u64>,

    /// Faces a series: each face names its series (faces 1–9,000 are
    /// series 1, 9,001–18,000 series 2, …), as do the packing list and the
    /// carton labels; 0 for none [default: 9000 for 75-ball cards, else none].
    #[arg(long, value_name = "N")]
    pub(super) series_size: Option<u64>,

    /// Write a label for each carton (PDF): carton k of n, the maker,
    /// customer and job, series, serials, top-sheet serial, inks, cut,
    /// packets, and the carton's id as a Code 128 barcode.
    #[arg(long, value_name = "FILE.pdf", requires = "books_per_carton")]
    pub(super) carton_labels: Option<PathBuf>,

    /// Cut the stack in stacks of N sheets, as a guillotine lifts them
    /// (--order cut-stack): each stack's piles hold runs of whole books
    /// (N a multiple of --book-pages), numbered stack after stack; its
    /// sheets say their stack, the packing list each book's stack, pile
    /// and place, and --pages-per-file (a multiple of N) splits files at
    /// stacks.
    #[arg(long, value_name = "SHEETS", value_parser = clap::value_parser!(u64).range(1..))]
    pub(super) stack: Option<u64>,

    /// The packing list of the order this run continues: books, cartons
    /// and sheets numbered on from its last (serials must follow its).
    #[arg(long, value_name = "PREV.csv")]
    pub(super) after: Option<PathBuf>,

    /// How far a piece's cut stands off its print (with --press, more than
    /// one a page): cut marks sit this far outside every piece, so a
    /// guillotine's tolerance never cuts into it.
    #[arg(long, value_name = "LENGTH", default_value = "2mm")]
    pub(super) safety: String,

    /// The maker named on the carton labels.
    #[arg(long, value_name = "NAME", requires = "carton_labels")]
    pub(super) maker: Option<String>,

    /// The customer named on the carton labels.
    #[arg(long, value_name = "NAME", requires = "carton_labels")]
    pub(super) customer: Option<String>,

    /// The job number: on the carton labels, and the start of each
    /// carton's id in its barcode (JOB-C00001) [default: the file's id].
    #[arg(long, value_name = "JOB", requires = "carton_labels")]
    pub(super) job: Option<String>,

    /// The carton labels' stock: a4 or letter (two a page), or label stock
    /// one a page, 100x150mm, 4x6in or any WxH.
    #[arg(
        long,
        value_name = "SIZE",
        default_value = "a4",
        requires = "carton_labels"
    )]
    pub(super) label_size: String,
}
