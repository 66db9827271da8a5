//! `bingomint patterns`: every built-in pattern, drawn.

use super::{out, Outcome};
use anyhow::Result;
use bingomint::play::pattern::{Board, Pattern};

/// List every built-in win pattern, with each way to win drawn.
///
/// X marks a cell that must be called, * the free centre (always marked).
/// Custom patterns: --pattern mask:ROWS with rows top to bottom, X or .,
/// several masks joined with | meaning any of them.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bingomint patterns
  bingomint patterns --game 90
  bingomint check cards.bmc --card 7 --calls-file calls.txt --pattern 'mask:X...X/.X.X./..X../.X.X./X...X'")]
pub struct Args {
    /// Only this game's patterns: 75 or 90.
    #[arg(long, value_parser = ["75", "90"])]
    game: Option<String>,
}

/// Runs `patterns`.
pub fn run(args: Args) -> Result<Outcome> {
    let boards: Vec<Board> = match args.game.as_deref() {
        Some("75") => vec![Board::Card75],
        Some(_) => vec![Board::Ticket90],
        None => vec![Board::Card75, Board::Ticket90],
    };
    let mut text = String::new();
    for board in boards {
        text.push_str(&format!("{}-ball patterns\n\n", board.balls()));
        for name in board.names() {
            let pattern = Pattern::parse(name, board).expect("a built-in pattern");
            text.push_str(&draw(&pattern, board));
            text.push('\n');
        }
    }
    out!("{text}");
    Ok(Outcome::Success)
}

/// A pattern's name, what it takes, and its ways drawn side by side.
fn draw(pattern: &Pattern, board: Board) -> String {
    let (rows, cols) = board.shape();
    let Some(ways) = pattern.ways() else {
        let what = match pattern.name() {
            "four-corners" => "the first and last number of the top and bottom rows",
            _ => "any five numbers of the ticket",
        };
        return format!("{}: {what}\n", pattern.name());
    };
    let mut out = format!(
        "{}: {} way{}\n",
        pattern.name(),
        ways.len(),
        if ways.len() == 1 { "" } else { "s" }
    );
    let per_line = 80 / (2 * cols + 2);
    for group in ways.chunks(per_line.max(1)) {
        for r in 0..rows {
            let cells: Vec<String> = group
                .iter()
                .map(|way| {
                    (0..cols)
                        .map(|c| {
                            let i = r * cols + c;
                            if board == Board::Card75 && i == 12 {
                                '*'
                            } else if way.mask & (1 << i) != 0 {
                                'X'
                            } else {
                                '.'
                            }
                        })
                        .map(String::from)
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect();
            out.push_str(&format!("  {}\n", cells.join("   ")));
        }
        out.push('\n');
    }
    out
}
