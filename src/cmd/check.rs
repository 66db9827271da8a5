//! `bingomint check`: is a claimed win good?
//!
//! The file and the face named → the calls → `play::claims::check` → the
//! face with the calls marked, and the answer (exit 0 a win, 1 not).

use super::play::{named_face, pattern, read_face, CallsArgs};
use super::{out, require_sound, Outcome};
use anyhow::Result;
use bingomint::cardfile::CardFile;
use bingomint::play::claims::{check, Verdict};
use bingomint::play::marked_grid;
use std::path::PathBuf;

/// Check a claim: does the card or ticket hold the pattern after the calls?
///
/// Prints the face with the called numbers marked [12], the way that
/// completed and the call that completed it. Exit 0 for a good claim, 1 for
/// a claim that is not a win (or, with --last-call-must-complete, was not
/// completed by the last call), 2 for bad input.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bingomint check cards.bmc --card 4711 --calls 12,44,7,68,3 --pattern line
  bingomint check strips.bmc --ticket 70 --calls-file calls90.txt \\
      --pattern two-lines
  # The text a printed face's QR code holds (the file's id, then the card):
  bingomint check cards.bmc \\
      --card \"bingomint:$(bingomint info cards.bmc --id):card:4711\" \\
      --calls 12,44,7,68,3 --pattern four-corners
  bingomint patterns      # every pattern, drawn")]
pub struct Args {
    /// The card file.
    file: PathBuf,

    /// The card claimed (75-ball): its number, or the reference a printed
    /// face's QR code holds (bingomint:ID:card:N).
    #[arg(short, long, conflicts_with = "ticket")]
    card: Option<String>,

    /// The ticket claimed (90-ball): its number (strip n holds tickets 6n-5
    /// to 6n), or its QR text or group face.
    #[arg(short, long)]
    ticket: Option<String>,

    #[command(flatten)]
    calls: CallsArgs,

    /// The pattern claimed (see `bingomint patterns`), or a mask such as
    /// mask:X...X/.X.X./..X../.X.X./X...X. Required: without it, the
    /// error lists the file's game's patterns.
    #[arg(short, long)]
    pattern: Option<String>,

    /// The claim is good only when the last number called completes a
    /// winning way (any way of the pattern, not only the first complete):
    /// the house rule of halls that require a claim on the ball that wins.
    #[arg(long)]
    last_call_must_complete: bool,

    /// Check the card even if its checksum block does not match.
    #[arg(long)]
    allow_damaged: bool,

    /// Print nothing: the exit code is the answer (0 a win, 1 none).
    #[arg(short, long)]
    quiet: bool,
}

/// Runs `check`.
pub fn run(args: Args) -> Result<Outcome> {
    let file = CardFile::open_intact(&args.file)?;
    let spec = file.header().spec;
    let Some(asked) = args.pattern.as_deref() else {
        let names: Vec<&str> = spec.facts().patterns.iter().map(|p| p.name).collect();
        anyhow::bail!(
            "--pattern: name the pattern claimed: {} (`bingomint patterns` draws them), or a mask:…",
            names.join(", ")
        );
    };
    let pattern = pattern(asked, spec)?;
    let named = named_face(&file, args.card.as_deref(), args.ticket.as_deref())?;
    let calls = args.calls.required(spec)?;
    require_sound(&file, named.record..=named.record, Some(args.allow_damaged))?;
    let face = read_face(&file, &named)?;
    let verdict = check(&face, &pattern, &calls, args.last_call_must_complete);
    let last = calls.len();
    let mut text = format!(
        "{} of '{}' · pattern {} · {} calls, the last {}\n",
        named.label,
        file.path(),
        pattern.name(),
        last,
        spec.ball(calls.order()[last - 1])
    );
    text.push_str(&marked_grid(&face, spec, |n| calls.called(n)));
    let at = |call: u8| {
        format!(
            "call {call} ({})",
            spec.ball(calls.order()[usize::from(call) - 1])
        )
    };
    let outcome = match &verdict {
        Verdict::Win(done) => {
            text.push_str(&format!(
                "WIN: {} completed at {}\n",
                pattern.way_name(done.way),
                at(done.call)
            ));
            Outcome::Success
        }
        Verdict::NotAtLastCall(done) => {
            text.push_str(&format!(
                "NOT VALID: {} completed at {}, and the last call ({}) completes no way \
                 of the pattern, as --last-call-must-complete requires\n",
                pattern.way_name(done.way),
                at(done.call),
                at(last as u8)
            ));
            Outcome::Negative
        }
        Verdict::CannotWin => {
            text.push_str(&format!(
                "NO WIN: no way of pattern {} holds a number of this {}, so it can never \
                 win it\n",
                pattern.name(),
                spec.face_noun()
            ));
            Outcome::Negative
        }
        Verdict::NoWin { nearest, missing } => {
            let numbers: Vec<String> = missing.iter().map(|&n| spec.ball(n)).collect();
            text.push_str(&format!(
                "NO WIN: nearest is {nearest}, which still {} {} ({})\n",
                bingomint::play::pattern::Pattern::needs(nearest),
                numbers.len(),
                numbers.join(", ")
            ));
            Outcome::Negative
        }
    };
    if !args.quiet {
        out!("{text}");
    }
    Ok(outcome)
}
