//! `bingomint show`: one card, strip or ticket as a text grid.
//!
//! Flags → the record and face asked for → `export::show` → print.

use super::play::CallsArgs;
use super::{out, require_sound, Outcome};
use anyhow::{bail, Result};
use bingomint::cardfile::CardFile;
use bingomint::export::show;
use bingomint::play::reference::Reference;
use std::path::PathBuf;

/// Show one card, strip or ticket as a grid.
///
/// 75-ball: B I N G O heading, FREE centre, star marked *. 90-ball: the
/// strip's six tickets, or one ticket with --ticket.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bingomint show cards.bmc --card 66057
  bingomint show cards.bmc --card 66057 --calls 12,44,7,68,3   # called numbers marked [12]
  bingomint show strips.bmc --card 12      # strip 12: tickets 67-72
  bingomint show strips.bmc --ticket 70")]
pub struct Args {
    /// The card file.
    file: PathBuf,

    /// Card number (75-ball) or strip number (90-ball), from 1; or what is
    /// printed on a face: its QR text (`bingomint:ID:card:N`,
    /// `bingomint:ID:ticket:N`) or its group face.
    #[arg(
        short,
        long,
        required_unless_present = "ticket",
        conflicts_with = "ticket"
    )]
    card: Option<String>,

    /// Ticket number (90-ball), from 1: strip n holds tickets 6(n−1)+1 … 6n.
    #[arg(short, long)]
    ticket: Option<u64>,

    /// Show the card even if its checksum block does not match (it was
    /// changed or damaged since the file was written).
    #[arg(long)]
    allow_damaged: bool,

    #[command(flatten)]
    calls: CallsArgs,
}

/// Runs `show`.
pub fn run(args: Args) -> Result<Outcome> {
    let file = CardFile::open_intact(&args.file)?;
    let spec = file.header().spec;
    let count = file.header().count;
    let faces = spec.faces() as u64;
    // The record, the face alone if one was asked for, and how to name them.
    // What is printed on a face names a face: a card, or a strip's ticket.
    let (card, ticket) = match args.card.as_deref().map(|t| (t, t.trim().parse::<u64>())) {
        Some((_, Ok(n))) if n <= count => (Some(n), args.ticket),
        // Out of range as a number: a group face, or the range error below.
        Some((text, Ok(n))) => match Reference::parse(text)
            .and_then(|r| r.face_in(&file.short_id(), count * faces, spec.face_noun()))
        {
            Ok(face) if faces == 1 => (Some(face), None),
            Ok(face) => (None, Some(face)),
            Err(_) => (Some(n), args.ticket),
        },
        Some((text, _)) => {
            let reference = Reference::parse(text).map_err(super::flag("--card"))?;
            let n = reference
                .face_in(&file.short_id(), count * faces, spec.face_noun())
                .map_err(super::flag("--card"))?;
            if faces == 1 {
                (Some(n), None)
            } else {
                (None, Some(n))
            }
        }
        None => (None, args.ticket),
    };
    let (n, only, flag, shown, last, what) = match (card, ticket) {
        (Some(n), _) => (n, None, "--card", n, count, spec.noun()),
        (None, Some(_)) if faces == 1 => bail!(
            "--ticket is for 90-ball strips; use --card with a {} file",
            spec.short_name()
        ),
        (None, Some(t)) => {
            let (record, face) = spec.record_of(t.max(1));
            let noun = spec.face_noun();
            (record, Some(face), "--ticket", t, faces * count, noun)
        }
        (None, None) => unreachable!("clap requires --card or --ticket"),
    };
    if count == 0 {
        bail!("'{}' holds no {}s", file.path(), spec.noun());
    }
    if shown == 0 || n > count {
        bail!(
            "{flag} {shown} is out of range: '{}' holds {what}s 1 to {last}",
            file.path()
        );
    }
    require_sound(&file, n..=n, Some(args.allow_damaged))?;
    if let Some(calls) = args.calls.read(spec.balls())? {
        let faces = faces as usize;
        let wanted = |t: u64| only.is_none_or(|o| (t - 1) as usize % faces == o);
        let shown =
            bingomint::play::scan_faces(&file, n..=n, |t, face| wanted(t).then_some((t, *face)))?;
        let mut text = String::new();
        for (t, face) in shown {
            if faces > 1 {
                text.push_str(&format!("ticket {t}\n"));
            } else {
                text.push_str(&format!("card {t} of {count} ({})\n", file.path()));
            }
            text.push_str(&bingomint::play::marked_grid(&face, spec, |x| {
                calls.called(x)
            }));
        }
        text.push_str(&format!(
            "{} called, marked [n]; the last {}\n",
            bingomint::text::count_of(calls.len() as u64, "number"),
            calls.order()[calls.len() - 1]
        ));
        out!("{text}");
        return Ok(Outcome::Success);
    }
    out!("{}", show(&file, n, only)?);
    Ok(Outcome::Success)
}
