//! The items game's flags, shared by the commands that make or name a game
//! (`generate`, `count`, `calls`), and the game they choose.

use anyhow::{anyhow, bail, Result};
use bingomint::game::items::{Deck, Design, ItemList};
use bingomint::game::Spec;

/// `--items`, `--size`, `--free`, `--no-free`, `--columns`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct ItemsArgs {
    /// The items game's list (implies --game items): a text file, one label
    /// a line; a CSV file with a `label` column and optional `group` and
    /// `image` (PNG or JPEG path) columns; or the built-in `loteria` (the
    /// 54 traditional cards).
    #[arg(long, value_name = "FILE")]
    pub items: Option<String>,

    /// Rows x columns of an items card, 3 to 5 each [default: 5x5; 4x4 for
    /// --items loteria].
    #[arg(long, value_name = "RxC")]
    pub size: Option<String>,

    /// The free centre's text, on a 3x3 or 5x5 items card [default: FREE].
    #[arg(long, value_name = "TEXT", conflicts_with = "no_free")]
    pub free: Option<String>,

    /// No free centre on an items card (every cell holds an item).
    #[arg(long)]
    pub no_free: bool,

    /// Where items go on a card: anywhere, or grouped (column c draws from
    /// the list's c-th group, as B-I-N-G-O columns do).
    #[arg(long, value_name = "HOW", default_value = "any", value_parser = ["any", "grouped"])]
    pub columns: String,

    /// What no two items cards share: the whole card (cards), or any whole
    /// line: row, column or diagonal, as a set of items (lines), so a line
    /// game never has two winners on one line.
    #[arg(long, value_name = "WHAT", default_value = "cards", value_parser = ["cards", "lines"])]
    pub distinct: String,
}

impl ItemsArgs {
    /// The game `--game` and these flags name: the items game when
    /// `--items` is given (or `--game items`), else `None` (the flags of an
    /// items card given with another game are refused).
    pub fn spec(&self, game: &str) -> Result<Option<Spec>> {
        let Some(items) = &self.items else {
            if game == "items" {
                bail!("--game items needs its list: add --items FILE (or --items loteria)");
            }
            let stray = [
                ("--size", self.size.is_some()),
                ("--free", self.free.is_some()),
                ("--no-free", self.no_free),
                ("--columns grouped", self.columns == "grouped"),
                ("--distinct lines", self.distinct == "lines"),
            ];
            if let Some((flag, _)) = stray.iter().find(|(_, given)| *given) {
                bail!("{flag} is for items cards: add --items FILE, or leave {flag} out");
            }
            return Ok(None);
        };
        if !matches!(game, "75" | "items") {
            bail!("--items makes an items game; leave out --game {game} (or say --game items)");
        }
        let list = ItemList::read(items).map_err(|e| anyhow!("--items {e}"))?;
        let default_size = if items == "loteria" { "4x4" } else { "5x5" };
        let (rows, cols) = parse_size(self.size.as_deref().unwrap_or(default_size))?;
        let centre = rows == cols && rows % 2 == 1;
        let free = match (&self.free, self.no_free) {
            (_, true) => None,
            (Some(text), false) => Some(text.clone()),
            (None, false) if centre => Some("FREE".to_string()),
            (None, false) => None,
        };
        let design = Design {
            rows,
            cols,
            free,
            grouped: self.columns == "grouped",
            distinct_lines: self.distinct == "lines",
        };
        Deck::spec(design, list)
            .map(Some)
            .map_err(|e| anyhow!("--items {items}: {e}"))
    }
}

/// `--size RxC`.
fn parse_size(text: &str) -> Result<(usize, usize)> {
    let parsed = text
        .to_ascii_lowercase()
        .split_once(['x', '×'])
        .and_then(|(r, c)| Some((r.trim().parse().ok()?, c.trim().parse().ok()?)));
    parsed.ok_or_else(|| anyhow!("--size {text:?}: give rows x columns, such as 5x5 or 4x4"))
}
