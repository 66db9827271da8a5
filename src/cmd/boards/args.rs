//! `boards`' flags: what a user can ask of a batch, their help, and their
//! translation into the library's terms, with its refusals in the flags'
//! words.

use bingomint::boards::board::{Size, Weighting};
use bingomint::boards::engine::EngineError;
use bingomint::boards::render::cell_width_for;
use bingomint::export::Format;
use std::io::IsTerminal;
use std::path::PathBuf;

/// Generate objective boards (game bingo) from a Lockout schema v3 goal set.
///
/// Every board honours the set's limits: individual limits (repeats take
/// distinct range values), board category limits, line category limits on
/// every row, column and (square boards) diagonal, no objective twice in a
/// line, forced positions. When a board cannot meet them, bounded
/// backtracking runs first; only then does a constraint give way, in a fixed
/// order (line categories, board categories, repeats in a line, individual
/// limits), reported on stderr and in the board's "relaxed" list.
///
/// Each board is printed with a seed string (SEED:v1:N) that draws it again
/// alone; a batch of --count boards holds no two equal boards (same
/// objectives with the same values in the same cells) and is identical for
/// any --threads.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bingomint boards --set data/sample-goals.json --size 5x5 --seed MV2XRO
  bingomint boards --set data/sample-goals.json --size 7x5 --count 100000 \\
      --seed s1 --format jsonl --out boards.jsonl
  bingomint boards --set data/sample-goals.json --size 5x5 --seed MV2XRO \\
      --format bingosync --out card.json
  # Board 17 of that batch, again:
  bingomint boards --set data/sample-goals.json --seed MV2XRO:v1:17
  bingomint boards --set data/sample-goals.json --check --size 5x5")]
pub struct Args {
    /// The goal set: Lockout schema v3 JSON.
    #[arg(long, value_name = "FILE")]
    pub(super) set: PathBuf,

    /// Board size: rows x columns, 3–10 each (5x5, 7x5, …).
    #[arg(long, default_value = "5x5", value_parser = |text: &str| text.parse::<Size>())]
    pub(super) size: Size,

    /// Number of unique boards.
    #[arg(short = 'n', long, default_value_t = 1)]
    pub(super) count: u64,

    /// Seed: any text or number (players share it), or a board's own seed
    /// string SEED:v1:N to draw board N again. Without it a seed is taken
    /// from the operating system and printed.
    #[arg(long)]
    pub(super) seed: Option<String>,

    /// Output format: text (grid), json (array), jsonl (a board per line),
    /// bingosync (BingoSync's custom board, 5x5, one board), csv (a row per
    /// board).
    #[arg(long, default_value = "text", value_parser = ["text", "json", "jsonl", "bingosync", "csv"])]
    pub(super) format: String,

    /// Write here instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub(super) out: Option<PathBuf>,

    /// Replace the output file if it exists.
    #[arg(long)]
    pub(super) force: bool,

    /// Worker threads [default: every core].
    #[arg(short = 'j', long)]
    pub(super) threads: Option<usize>,

    /// No progress bar and no summary line (warnings still show).
    #[arg(short, long)]
    pub(super) quiet: bool,

    /// Validate the set (every problem at once) and report whether its limits
    /// can be met at --size, from a sample of boards; writes no boards. Exit 0
    /// when every limit held, 1 when one gave way or goals repeat.
    #[arg(long)]
    pub(super) check: bool,

    /// How "weighting" acts: lockout (the chance, in %, that an objective
    /// joins a board's pool, as Lockout does) or proportional (each pick in
    /// proportion to weighting).
    #[arg(long, default_value = "lockout", value_parser = ["lockout", "proportional"])]
    pub(super) weighting: String,
}

impl Args {
    pub(super) fn format(&self) -> Format {
        self.format.parse().expect("clap checked the name")
    }

    pub(super) fn weighting(&self) -> Weighting {
        self.weighting.parse().expect("clap checked the name")
    }

    /// Text-grid cell width: fitted to the terminal when printing to one.
    pub(super) fn cell_width(&self) -> usize {
        let terminal = (self.out.is_none() && std::io::stdout().is_terminal())
            .then(crate::cmd::terminal_width)
            .flatten();
        cell_width_for(terminal, self.size.cols)
    }
}

/// Why the set cannot make boards of `--size`, with the flag that helps.
pub(super) fn engine_error(e: &EngineError) -> String {
    match e {
        EngineError::TooFewGoals { .. } => format!("{e}, or choose a smaller --size"),
        EngineError::Forced(_) => e.to_string(),
    }
}
