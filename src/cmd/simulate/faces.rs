//! The faces a simulation puts in play: fresh ones from the seed, or a
//! file's.

use super::args::Args;
use crate::cmd::require_sound;
use anyhow::{bail, Result};
use bingomint::cardfile::CardFile;
use bingomint::game::{Face, Spec};
use bingomint::play::reference::{locate_ranges, records_in};
use bingomint::play::{scan_faces, simulate::fresh_faces};

/// Most faces one run may hold in memory.
const MAX_FACES: u64 = 100_000_000;

/// The faces in play, their game, and how to name them.
pub(super) fn faces(args: &Args, seed: u64) -> Result<(Spec, Vec<Face>, String)> {
    if let Some(path) = &args.from {
        let file = CardFile::open_intact(path)?;
        let spec = file.header().spec;
        let count = file.header().count;
        let runs = match &args.range {
            Some(text) => locate_ranges(&file, text).map_err(crate::cmd::flag("--range"))?,
            None => vec![1..=count],
        };
        let faces = records_in(&runs) * spec.faces() as u64;
        if faces > MAX_FACES {
            bail!("--range holds {faces} faces; simulate plays at most {MAX_FACES}");
        }
        let named: Vec<String> = (runs.iter())
            .map(|r| {
                format!(
                    "{} to {}",
                    file.record_name(*r.start()),
                    file.record_name(*r.end())
                )
            })
            .collect();
        let what = format!("{}s {} of '{}'", spec.noun(), named.join(", "), file.path());
        let mut all = Vec::new();
        for run in runs {
            require_sound(&file, run.clone(), None)?;
            all.extend(scan_faces(&file, run, |_, face| Some(*face))?);
        }
        return Ok((spec, all, what));
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
