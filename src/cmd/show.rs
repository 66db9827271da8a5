//! `bingomint show`: one card, strip or ticket as a text grid.
//!
//! Flags → the record and face asked for → `export::show` → print.

use super::play::{locate_named, CallsArgs};
use super::{out, require_sound, Outcome};
use anyhow::{bail, Result};
use bingomint::cardfile::CardFile;
use bingomint::export::show;
use std::path::PathBuf;

/// Show one card, strip or ticket as a grid.
///
/// 75-ball: B I N G O heading, FREE centre, star marked *. 90-ball: the
/// strip's six tickets, or one ticket with --ticket.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bingomint show cards.bmc --card 66057
  bingomint show cards.bmc 66057           # the same card
  # Called numbers marked [12]:
  bingomint show cards.bmc --card 66057 --calls 12,44,7,68,3
  bingomint show strips.bmc --strip 12     # tickets 67-72
  bingomint show strips.bmc --ticket 70")]
pub struct Args {
    /// The card file.
    file: PathBuf,

    /// The card, as --card takes it, given after the file
    /// (`show cards.bmc 3`).
    #[arg(value_name = "CARD", conflicts_with_all = ["card", "strip", "ticket"])]
    face: Option<String>,

    /// The card (75- and 80-ball): its number from 1, or what is printed on
    /// it: its QR text (`bingomint:ID:card:N`) or its group face. In a file
    /// of strips, a ticket's QR text or group face.
    #[arg(
        short,
        long,
        required_unless_present_any = ["strip", "ticket", "face"],
        conflicts_with_all = ["strip", "ticket"]
    )]
    card: Option<String>,

    /// The strip (90-ball), from 1: its six tickets.
    #[arg(short, long, conflicts_with = "ticket")]
    strip: Option<String>,

    /// The ticket (90-ball), from 1: strip n holds tickets 6n-5 to 6n; or
    /// the ticket's QR text or group face.
    #[arg(short, long)]
    ticket: Option<String>,

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
    if count == 0 {
        bail!("'{}' holds no {}s", file.path(), spec.noun());
    }
    // The record, and the face alone if one was asked for: what is printed
    // on a face names a face (a card, or a strip's ticket).
    let located = locate_named(
        &file,
        args.card.as_deref().or(args.face.as_deref()),
        args.strip.as_deref(),
        args.ticket.as_deref(),
    )?;
    let n = located.record;
    let only = located.face.filter(|_| faces > 1).map(|(_, place)| place);
    require_sound(&file, n..=n, Some(args.allow_damaged))?;
    if let Some(calls) = args.calls.read(spec)? {
        let place = |t: u64| {
            let (record, place) = file.header().record_of(t).expect("a face of the record");
            debug_assert_eq!(record, n);
            place
        };
        let wanted = |t: u64| only.is_none_or(|o| place(t) == o);
        let shown =
            bingomint::play::scan_faces(&file, n..=n, |t, face| wanted(t).then_some((t, *face)))?;
        let mut text = String::new();
        for (t, face) in shown {
            if faces > 1 {
                text.push_str(&format!("ticket {}\n", file.header().serial(t)));
            } else {
                // "card 5 of 40", or for a file numbered from its own first
                // face, "card 1005 of 1001 to 1040".
                let h = file.header();
                let faces = h.face_range();
                let of = if *faces.start() == 1 {
                    count.to_string()
                } else {
                    format!("{} to {}", h.serial(*faces.start()), h.serial(*faces.end()))
                };
                text.push_str(&format!(
                    "{} {} of {of} ({})\n",
                    spec.face_noun(),
                    h.serial(t),
                    file.path()
                ));
            }
            text.push_str(&bingomint::play::marked_grid(&face, spec, |x| {
                calls.called(x)
            }));
        }
        text.push_str(&format!(
            "{} called, marked [n]; the last {}\n",
            bingomint::text::count_of(calls.len() as u64, "number"),
            spec.ball(calls.order()[calls.len() - 1])
        ));
        out!("{text}");
        return Ok(Outcome::Success);
    }
    out!("{}", show(&file, n, only)?);
    Ok(Outcome::Success)
}
