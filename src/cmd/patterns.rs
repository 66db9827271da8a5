//! `bingomint patterns`: every built-in pattern, drawn.

use super::{out, Outcome};
use anyhow::Result;
use bingomint::game::Spec;
use bingomint::play::pattern::Pattern;

/// List every built-in win pattern, with each way to win drawn.
///
/// X marks a cell that must be called, * a free cell (always marked).
/// Custom patterns: --pattern mask:ROWS with rows top to bottom, X or .,
/// several masks joined with | meaning any of them. A marked cell with no
/// number (the free centre, a ticket's blank) counts as marked; a way with
/// no number on a face is never won by it.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bingomint patterns
  bingomint patterns --game 90
  bingomint check cards.bmc --card 7 --calls-file calls.txt \\
      --pattern 'mask:X...X/.X.X./..X../.X.X./X...X'")]
pub struct Args {
    /// Only this game's patterns.
    #[arg(short, long, value_parser = super::games())]
    game: Option<String>,
}

/// Runs `patterns`.
pub fn run(args: Args) -> Result<Outcome> {
    let games: Vec<Spec> = Spec::GAMES
        .iter()
        .filter(|g| args.game.as_deref().is_none_or(|only| only == **g))
        .filter_map(|g| Spec::named(g))
        .collect();
    let mut text = String::new();
    for spec in games {
        text.push_str(&format!("{} patterns\n\n", spec.short_name()));
        for builtin in spec.facts().patterns {
            let pattern = Pattern::parse(builtin.name, spec).expect("a built-in pattern");
            text.push_str(&draw(&pattern, spec, builtin.about));
            text.push('\n');
        }
    }
    out!("{text}");
    Ok(Outcome::Success)
}

/// A pattern's name, what it takes, and its ways drawn side by side.
fn draw(pattern: &Pattern, spec: Spec, about: &str) -> String {
    let (rows, cols) = spec.face_shape();
    let free = spec.facts().free;
    let Some(ways) = pattern.ways() else {
        return format!("{}: {about}\n", pattern.name());
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
                            if free & (1 << i) != 0 {
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
