//! `simulate`'s flags: what a user can ask of a simulation, their help,
//! and the faces they put in play.

use crate::cmd::require_sound;
use anyhow::{bail, Result};
use bingomint::cardfile::CardFile;
use bingomint::game::{Face, Spec};
use bingomint::play::{reference::locate_range, scan_faces, simulate::fresh_faces};
use std::path::PathBuf;

/// Simulate games: calls until the first win, and how many share it.
///
/// Each game calls the numbers in a fresh uniform order (reproducible from
/// --seed) against the same faces: N fresh random cards (--cards, or
/// --tickets/--strips for 90-ball) drawn from the seed, or the cards of a
/// file (--from, --range). Reports the mean, median and percentiles of the
/// calls until the first face completes the pattern, how many faces
/// complete at that same call (ties split prizes), and the distribution.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bingomint simulate --game 75 --cards 1000 --pattern coverall --games 100000 \\
      --plot coverall.svg
  bingomint simulate --game 90 --strips 200 --pattern full-house --games 20000
  bingomint simulate --cards 300 --pattern coverall --within 50 --games 100000
  bingomint simulate --from cards.bmc --range 1..9000 --pattern line \\
      --games 20000 --json")]
pub struct Args {
    /// The game, for fresh cards.
    #[arg(short, long, default_value = "75", value_parser = crate::cmd::games())]
    pub(super) game: String,

    /// 90-ball rule set for fresh strips.
    #[arg(long, value_parser = Spec::RULE_SETS)]
    pub(super) rules: Option<String>,

    /// Fresh 75- or 80-ball cards in play.
    #[arg(long, value_name = "N", conflicts_with_all = ["tickets", "strips", "from"])]
    pub(super) cards: Option<u64>,

    /// Fresh 90-ball tickets in play.
    #[arg(long, value_name = "N", conflicts_with_all = ["strips", "from"])]
    pub(super) tickets: Option<u64>,

    /// Fresh 90-ball strips in play (six tickets each).
    #[arg(long, value_name = "N", conflicts_with = "from")]
    pub(super) strips: Option<u64>,

    /// Play the cards of this file instead of fresh ones.
    #[arg(long, value_name = "FILE")]
    pub(super) from: Option<PathBuf>,

    /// With --from: the cards (or strips) in play, `A..B` [default: all].
    #[arg(long, value_name = "A..B", requires = "from")]
    pub(super) range: Option<String>,

    /// The pattern (see `bingomint patterns`), or a mask.
    #[arg(short, long)]
    pub(super) pattern: String,

    /// Games to play.
    #[arg(long, default_value_t = 10_000)]
    pub(super) games: u64,

    /// Seed of the cards and call orders: a number or any text; 1 unless
    /// given (not fresh, as generate's), so a simulation's figures repeat.
    #[arg(long, default_value = "1")]
    pub(super) seed: String,

    /// Also say the chance of a win within N calls (a jackpot's
    /// question), with its 95 % interval.
    #[arg(long, value_name = "N")]
    pub(super) within: Option<u8>,

    /// Print the figures as JSON.
    #[arg(long)]
    pub(super) json: bool,

    /// Draw the distribution of calls to the first win as an SVG histogram.
    #[arg(long, value_name = "FILE.svg")]
    pub(super) plot: Option<PathBuf>,

    /// Replace the --plot file if it exists.
    #[arg(long)]
    pub(super) force: bool,

    /// Worker threads [default: every core].
    #[arg(short = 'j', long)]
    pub(super) threads: Option<usize>,

    /// No progress bar (the results still print).
    #[arg(short, long)]
    pub(super) quiet: bool,
}

/// Most faces one run may hold in memory.
const MAX_FACES: u64 = 100_000_000;

/// The faces in play, their game, and how to name them.
pub(super) fn faces(args: &Args, seed: u64) -> Result<(Spec, Vec<Face>, String)> {
    if let Some(path) = &args.from {
        let file = CardFile::open_intact(path)?;
        let spec = file.header().spec;
        let count = file.header().count;
        let range = match &args.range {
            Some(text) => locate_range(&file, text).map_err(crate::cmd::flag("--range"))?,
            None => 1..=count,
        };
        let faces = (range.end() - range.start() + 1) * spec.faces() as u64;
        if faces > MAX_FACES {
            bail!("--range holds {faces} faces; simulate plays at most {MAX_FACES}");
        }
        require_sound(&file, range.clone(), None)?;
        let what = format!(
            "{}s {} to {} of '{}'",
            spec.noun(),
            file.record_name(*range.start()),
            file.record_name(*range.end()),
            file.path()
        );
        let faces = scan_faces(&file, range, |_, face| Some(*face))?;
        return Ok((spec, faces, what));
    }
    let spec = crate::cmd::spec_from_flags(&args.game, args.rules.as_deref(), false)?;
    let (records, keep, what) = match (spec.faces(), args.cards, args.tickets, args.strips) {
        (1, Some(n), None, None) => (n, n, format!("{n} fresh cards")),
        (1, _, _, _) => bail!("give the cards in play: --cards N (or --from FILE)"),
        (_, None, Some(n), None) => (n.div_ceil(6), n, format!("{n} fresh tickets")),
        (_, None, None, Some(n)) => (
            n,
            n.saturating_mul(6),
            format!("{n} fresh strips ({} tickets)", n.saturating_mul(6)),
        ),
        (_, Some(_), _, _) => {
            bail!("--cards is for 75- and 80-ball cards; give --tickets N or --strips N with --game 90")
        }
        _ => bail!("give the tickets in play: --tickets N or --strips N (or --from FILE)"),
    };
    if keep == 0 || keep > MAX_FACES {
        let (flag, n) = match (args.cards, args.tickets, args.strips) {
            (Some(n), _, _) => ("--cards", n),
            (_, Some(n), _) => ("--tickets", n),
            (_, _, Some(n)) => ("--strips", n),
            _ => ("--cards", 0),
        };
        bail!(
            "{flag} {n} puts {keep} {}s in play; simulate plays 1 to {MAX_FACES}",
            spec.face_noun()
        );
    }
    let mut faces = fresh_faces(spec, records, seed)?;
    faces.truncate(keep as usize);
    Ok((spec, faces, what))
}
