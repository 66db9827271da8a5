//! `print`'s flags for an items game's cards.

/// What `print` asks of an items game's cards.
#[derive(clap::Args)]
pub struct ItemsFlags {
    /// An items game's calling cards instead of its cards: every item
    /// once, 18 a page, to cut out (--paper and --margin apply).
    #[arg(long)]
    pub calling_cards: bool,

    /// A title over every card's grid [default: an items list's name].
    #[arg(long)]
    pub title: Option<String>,

    /// The folder an items list's pictures are in [default: the card file's].
    #[arg(long, value_name = "DIR")]
    pub pictures: Option<std::path::PathBuf>,
}
