//! `bingomint simulate`: how many calls a pattern takes to fall with N
//! cards in play, and how often the prize is shared.
//!
//! Flags → the faces (fresh cards from the seed, or a file's) → games in
//! parallel (`play::simulate::play`) → the summary as text or JSON, and a
//! histogram.

use super::play::pattern;
use super::{outln, require_sound, with_threads, Bar, Outcome};
use anyhow::{bail, Context, Result};
use bingomint::cardfile::CardFile;
use bingomint::export::parse_range;
use bingomint::game::{Face, Spec};
use bingomint::play::scan_faces;
use bingomint::play::simulate::{fresh_faces, play, summarise, svg, Summary};
use bingomint::seed::Seed;
use std::path::PathBuf;
use std::time::Instant;

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
  bingomint simulate --game 75 --cards 1000 --pattern coverall --games 100000 --plot coverall.svg
  bingomint simulate --game 90 --strips 200 --pattern full-house --games 20000
  bingomint simulate --from cards.bmc --range 1..9000 --pattern line --games 20000 --json")]
pub struct Args {
    /// The game, for fresh cards.
    #[arg(long, default_value = "75", value_parser = super::games())]
    game: String,

    /// 90-ball rule set for fresh strips.
    #[arg(long, value_parser = Spec::RULE_SETS)]
    rules: Option<String>,

    /// Fresh 75-ball cards in play.
    #[arg(long, value_name = "N", conflicts_with_all = ["tickets", "strips", "from"])]
    cards: Option<u64>,

    /// Fresh 90-ball tickets in play.
    #[arg(long, value_name = "N", conflicts_with_all = ["strips", "from"])]
    tickets: Option<u64>,

    /// Fresh 90-ball strips in play (six tickets each).
    #[arg(long, value_name = "N", conflicts_with = "from")]
    strips: Option<u64>,

    /// Play the cards of this file instead of fresh ones.
    #[arg(long, value_name = "FILE")]
    from: Option<PathBuf>,

    /// With --from: the cards (or strips) in play, `A..B` [default: all].
    #[arg(long, value_name = "A..B", requires = "from")]
    range: Option<String>,

    /// The pattern (see `bingomint patterns`), or a mask.
    #[arg(short, long)]
    pattern: String,

    /// Games to play.
    #[arg(long, default_value_t = 10_000)]
    games: u64,

    /// Seed of the cards and call orders: a number or any text.
    #[arg(long, default_value = "1")]
    seed: String,

    /// Print the figures as JSON.
    #[arg(long)]
    json: bool,

    /// Draw the distribution of calls to the first win as an SVG histogram.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,

    /// Replace the --plot file if it exists.
    #[arg(long)]
    force: bool,

    /// Worker threads [default: every core].
    #[arg(short = 'j', long)]
    threads: Option<usize>,

    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
}

/// Most games one run may play.
const MAX_GAMES: u64 = 1_000_000_000;
/// Most faces one run may hold in memory.
const MAX_FACES: u64 = 100_000_000;

/// Runs `simulate`.
pub fn run(args: Args) -> Result<Outcome> {
    if args.games == 0 || args.games > MAX_GAMES {
        bail!("--games must be from 1 to {MAX_GAMES}");
    }
    if let Some(plot) = &args.plot {
        if plot.extension().and_then(|e| e.to_str()) != Some("svg") {
            bail!(
                "--plot '{}': the histogram is written as SVG; give a file ending in .svg",
                plot.display()
            );
        }
        bingomint::cardfile::writer::refuse_existing(plot, args.force)?;
    }
    let seed = Seed::parse(&args.seed);
    let started = Instant::now();
    let summary = with_threads(args.threads, || -> Result<(Summary, String, String)> {
        let (spec, faces, what) = faces(&args, seed.value)?;
        let pattern = pattern(&args.pattern, spec)?;
        let balls = spec.balls();
        let bar = Bar::new(args.games, "game", args.quiet);
        let games = play(&faces, &pattern, balls, args.games, seed.value, &bar);
        bar.finish();
        let summary = summarise(pattern.name(), faces.len() as u64, seed.value, &games);
        Ok((summary, what, spec.face_noun().to_string()))
    })??;
    let (summary, what, face) = summary;
    let secs = started.elapsed().as_secs_f64().max(1e-6);
    if let Some(plot) = &args.plot {
        bingomint::cardfile::writer::write_text(Some(plot), args.force, |out| {
            out.write_all(svg(&summary).as_bytes())
                .with_context(|| format!("cannot write '{}'", plot.display()))
        })?;
    }
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        print_summary(&summary, &what, &face, secs)?;
    }
    Ok(Outcome::Success)
}

/// The faces in play, their game, and how to name them.
fn faces(args: &Args, seed: u64) -> Result<(Spec, Vec<Face>, String)> {
    if let Some(path) = &args.from {
        let file = CardFile::open_intact(path)?;
        let spec = file.header().spec;
        let count = file.header().count;
        let range = match &args.range {
            Some(text) => parse_range(text, count, spec.noun()).map_err(super::flag("--range"))?,
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
            range.start(),
            range.end(),
            file.path()
        );
        let faces = scan_faces(&file, range, |_, face| Some(*face))?;
        return Ok((spec, faces, what));
    }
    let spec = super::spec_from_flags(&args.game, args.rules.as_deref(), false)?;
    let (records, keep, what) = match (spec.faces(), args.cards, args.tickets, args.strips) {
        (1, Some(n), None, None) => (n, n, format!("{n} fresh cards")),
        (1, _, _, _) => bail!("give the cards in play: --cards N (or --from FILE)"),
        (_, None, Some(n), None) => (n.div_ceil(6), n, format!("{n} fresh tickets")),
        (_, None, None, Some(n)) => (n, n * 6, format!("{n} fresh strips ({} tickets)", n * 6)),
        (_, Some(_), _, _) => {
            bail!("--cards is for 75-ball; give --tickets N or --strips N with --game 90")
        }
        _ => bail!("give the tickets in play: --tickets N or --strips N (or --from FILE)"),
    };
    if keep == 0 || keep > MAX_FACES {
        bail!("the faces in play must number from 1 to {MAX_FACES}");
    }
    let mut faces = fresh_faces(spec, records, seed)?;
    faces.truncate(keep as usize);
    Ok((spec, faces, what))
}

fn print_summary(s: &Summary, what: &str, face: &str, secs: f64) -> Result<()> {
    let won = s.games - s.unwon;
    outln!(
        "pattern {} · {what} · {} games (seed {}) · {:.2} s, {} {face}-games/s",
        s.pattern,
        s.games,
        s.seed,
        secs,
        super::rate(s.games as f64 * s.faces as f64 / secs)
    );
    if won == 0 {
        outln!("no game was won: the pattern cannot be completed on these faces");
        return Ok(());
    }
    outln!(
        "calls to the first win: mean {:.2}, sd {:.2}, median {}, min {}, max {}",
        s.mean,
        s.sd,
        s.median,
        s.min,
        s.max
    );
    let pct: Vec<String> = s
        .percentiles
        .iter()
        .map(|(p, c)| format!("{p}%: {c}"))
        .collect();
    outln!("won by call (share of games): {}", pct.join(" · "));
    outln!(
        "{face}s completing at that call: {:.3} on average; shared in {:.2}% of games",
        s.mean_winners,
        s.shared * 100.0
    );
    if s.unwon > 0 {
        outln!("games with no winner: {}", s.unwon);
    }
    outln!("calls  games  share  cumulative");
    let mut seen = 0;
    for &(call, games) in &s.first_win {
        seen += games;
        outln!(
            "{call:>5}  {games:>5}  {:>5.2}%  {:>6.2}%",
            games as f64 / s.games as f64 * 100.0,
            seen as f64 / s.games as f64 * 100.0
        );
    }
    Ok(())
}
