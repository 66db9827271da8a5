//! A venue hall's part in a linked game. The hall sells the game's paper
//! as it sells its own: a `[[product]]` with `linked = "GAME"` in its
//! night file. Such a product plays none of the night's own games.
//!
//! - [`Part`]: the faces and takings the night's log holds for the game.
//!   `link venue` reports them to the control.
//! - [`check`]: that part held against the control's records the venue
//!   kept. `hall verify --link` runs it.

use super::message::{Faces, Payout};
use super::verify::{read, Said};
use super::{game, national, LinkError};
use crate::hall::log::Line;
use crate::hall::Event;
use std::path::Path;

/// What a night's log sold for one linked game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// The products linked to the game.
    pub products: Vec<String>,
    /// The faces sold and held (returns and voids taken out), merged.
    pub faces: Vec<Faces>,
    /// Net takings, minor units.
    pub amount: u64,
    /// The short id of the card file the hall sells from (its first).
    pub stock: String,
}

impl Part {
    /// Game `game`'s part of the night `lines`, or why there is none.
    pub fn of(lines: &[Line<Event>], game: &str) -> Result<Part, String> {
        let sales = crate::hall::replay::sales(lines);
        let stock = (lines.iter().rev())
            .find_map(|l| match &l.event {
                Event::Session(s) => s.files.first().map(|f| f.id.clone()),
                _ => None,
            })
            .ok_or("the log opens no session")?;
        let linked: Vec<usize> = (sales.products.iter().enumerate())
            .filter(|(_, p)| p.linked.as_deref() == Some(game))
            .map(|(i, _)| i)
            .collect();
        if linked.is_empty() {
            return Err(format!(
                "the night sells no product linked to game {game:?}: give its night file a [[product]] with linked = \"{game}\""
            ));
        }
        let mut ranges = Vec::new();
        let mut amount = 0u64;
        for &p in &linked {
            let (held, net) = sales.held_by(p);
            ranges.extend(held.into_iter().map(|r| (*r.start(), *r.end())));
            amount += net;
        }
        Ok(Part {
            products: linked
                .iter()
                .map(|&p| sales.products[p].name.clone())
                .collect(),
            faces: merged(ranges),
            amount,
            stock,
        })
    }

    /// Game `game`'s part of the night's log at `path`, its chain checked.
    pub fn read(path: &Path, game: &str) -> Result<Part, LinkError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| game!("hall: cannot read '{}': {e}", path.display()))?;
        let (lines, _) = crate::hall::log::read::<Event>(&text)
            .map_err(|e| game!("hall: '{}': {e}", path.display()))?;
        Part::of(&lines, game).map_err(|why| game!("hall: '{}': {why}", path.display()))
    }

    /// The faces sold.
    pub fn count(&self) -> u64 {
        national::count(&self.faces)
    }
}

/// Ranges sorted and merged where they touch.
fn merged(mut ranges: Vec<Faces>) -> Vec<Faces> {
    ranges.sort_unstable();
    let mut out: Vec<Faces> = Vec::new();
    for (a, b) in ranges {
        match out.last_mut() {
            Some(l) if a <= l.1 + 1 => l.1 = l.1.max(b),
            _ => out.push((a, b)),
        }
    }
    out
}

/// A venue hall's night held against the control's records it kept.
#[derive(Debug, Default)]
pub struct Agreement {
    /// The venue the night's faces are allotted to (None: it sold none).
    pub venue: Option<String>,
    /// The control's booking of this venue's sales: faces, minor units.
    pub booked: Option<(u64, u64)>,
    /// What the settlement pays at this venue.
    pub payouts: Vec<Payout>,
    pub problems: Vec<String>,
}

/// `part` (a night's log) against `said` (the control's records the venue
/// kept): the same stock, the faces within one venue's allotment, the
/// sales the control booked the night's own, every payout at the venue
/// on a face the night sold.
pub fn check(part: &Part, said: &Said) -> Agreement {
    let mut a = Agreement::default();
    if part.stock != said.stock {
        a.problems.push(format!(
            "the night sells from card file {}, the linked game plays stock {}",
            part.stock, said.stock
        ));
        return a;
    }
    if part.faces.is_empty() {
        return a;
    }
    let within = |allotted: &[Faces]| {
        (part.faces.iter()).all(|&(lo, hi)| allotted.iter().any(|&(a, b)| a <= lo && hi <= b))
    };
    let Some(allotment) = said.allotted.iter().find(|v| within(&v.faces)) else {
        a.problems.push(format!(
            "the night sold faces {} for the game, within no one venue's allotment",
            shown(&part.faces)
        ));
        return a;
    };
    let venue = allotment.venue.clone();
    let sold = (said.sold.iter())
        .find(|s| s.venue == venue)
        .map(|s| merged(s.faces.clone()));
    let taken = said.takings.iter().find(|t| t.venue == venue);
    a.booked = taken.map(|t| (t.faces, t.amount));
    match (sold, taken) {
        (Some(sold), Some(t)) => {
            if sold != merged(part.faces.clone()) {
                a.problems.push(format!(
                    "the control booked faces {} sold at {venue}; the night's log holds {}",
                    shown(&sold),
                    shown(&part.faces)
                ));
            }
            if t.amount != part.amount {
                a.problems.push(format!(
                    "the control booked takings of {} at {venue}; the night's log takes {}",
                    t.amount, part.amount
                ));
            }
        }
        _ if said.takings.is_empty() => {}
        _ => a.problems.push(format!(
            "the control booked no sales at {venue}; the night's log sold {} faces",
            part.count()
        )),
    }
    if let Some((_, payouts)) = &said.settled {
        a.payouts = payouts
            .iter()
            .filter(|p| p.venue == venue)
            .cloned()
            .collect();
    }
    for p in &a.payouts {
        if !(part.faces.iter()).any(|&(lo, hi)| lo <= p.face && p.face <= hi) {
            a.problems.push(format!(
                "the settlement pays face {} at {venue}, which the night's log did not sell",
                p.face
            ));
        }
    }
    a.venue = Some(venue);
    a
}

impl Agreement {
    /// The night's report's record of the game (`hall report --link`).
    pub fn record(&self, said: &Said) -> crate::hall::report::LinkedRecord {
        let (faces, takings) = self.booked.unwrap_or((0, 0));
        crate::hall::report::LinkedRecord {
            game: said.game.clone(),
            play: said.play.clone(),
            venue: self.venue.clone().unwrap_or_default(),
            currency: said.currency.clone(),
            faces,
            takings,
            network: said.takings.iter().map(|t| t.amount).sum(),
            prize: said.prize,
            outcome: said.outcome(),
            payouts: self.payouts.iter().map(|p| (p.face, p.amount)).collect(),
        }
    }
}

/// A linked game's records held against the nights that sold for it.
pub struct Held<'a> {
    /// What the records say.
    pub said: Said,
    /// Each night that sold for the game (its name), its part, and how it
    /// agrees with the records.
    pub nights: Vec<(&'a str, Part, Agreement)>,
    /// Every disagreement in words: the chain's, and each night's (named).
    pub problems: Vec<String>,
}

/// The records `text` (a venue's `link venue --log`, signed by `key`)
/// held against `nights` (each a name and its log's lines): every night
/// that sells for the game is checked; none is a problem.
pub fn hold<'a>(
    text: &str,
    key: ed25519_dalek::VerifyingKey,
    nights: &[(&'a str, &[Line<Event>])],
) -> Held<'a> {
    let mut problems = Vec::new();
    let said = read(text, key, &mut problems);
    let mut held = Vec::new();
    for &(name, lines) in nights {
        let Ok(part) = Part::of(lines, &said.game) else {
            continue;
        };
        let a = check(&part, &said);
        problems.extend(a.problems.iter().map(|p| format!("{name}: {p}")));
        held.push((name, part, a));
    }
    if held.is_empty() {
        problems.push(format!(
            "no night given sells for linked game {:?} (a [[product]] with linked = {:?})",
            said.game, said.game
        ));
    }
    Held {
        said,
        nights: held,
        problems,
    }
}

/// `1..6, 13..18`.
fn shown(faces: &[Faces]) -> String {
    let list: Vec<String> = faces.iter().map(|(a, b)| format!("{a}..{b}")).collect();
    list.join(", ")
}

#[cfg(test)]
mod tests;
