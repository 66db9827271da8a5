//! The national game's rules, decided here and nowhere else: whose
//! allotments may stand together, which sales and claims a venue may make,
//! the prize fixed from every venue's takings, and who wins what (the
//! fewest calls across the network; ties share the prize to the cent).
//!
//! The sealed order is [`crate::play::live::order`] of the revealed seed,
//! with the game's id as the room: one order everywhere, committed to
//! before the first sale ([`crate::hall::commitment`]).

use super::message::{Allotment, Faces, Judged, Payout};
use crate::cardfile::CardFile;
use crate::hall::money;
use crate::play::calls::Calls;
use crate::play::claims;
use crate::play::pattern::Pattern;

/// How a live game's claim made after the next call begins its refusal.
pub const LATE: &str = "too late: ";

/// How a claim from a venue voided for the game begins its refusal.
pub const VOIDED: &str = "voided: ";

/// How many faces `ranges` hold.
pub fn count(ranges: &[Faces]) -> u64 {
    ranges.iter().map(|&(a, b)| b - a + 1).sum()
}

/// Whether `face` is within `ranges`.
pub fn holds(ranges: &[Faces], face: u64) -> bool {
    ranges.iter().any(|&(a, b)| (a..=b).contains(&face))
}

/// The first face two sets of ranges share, if any.
fn shared(a: &[Faces], b: &[Faces]) -> Option<u64> {
    let mut best: Option<u64> = None;
    for &(a0, a1) in a {
        for &(b0, b1) in b {
            let (lo, hi) = (a0.max(b0), a1.min(b1));
            if lo <= hi {
                best = Some(best.map_or(lo, |f| f.min(lo)));
            }
        }
    }
    best
}

/// The venues' allotments when no face is allotted twice (no duplicate face
/// in a common draw) and each range lies within the stock's `faces`.
pub fn check_allotments(venues: &[Allotment], faces: Faces) -> Result<(), String> {
    for (i, v) in venues.iter().enumerate() {
        if v.faces.is_empty() {
            return Err(format!("venue {:?} is allotted no faces", v.venue));
        }
        if let Some(&(a, b)) = v
            .faces
            .iter()
            .find(|&&(a, b)| a > b || a < faces.0 || b > faces.1)
        {
            return Err(format!(
                "venue {:?}: faces {a}..{b} are not within the stock's {}..{}",
                v.venue, faces.0, faces.1
            ));
        }
        for (j, &range) in v.faces.iter().enumerate() {
            if let Some(f) = shared(&[range], &v.faces[..j]) {
                return Err(format!("venue {:?} is allotted face {f} twice", v.venue));
            }
        }
        for w in &venues[..i] {
            if w.venue == v.venue {
                return Err(format!("venue {:?} is named twice", v.venue));
            }
            if let Some(f) = shared(&v.faces, &w.faces) {
                return Err(format!(
                    "venues {:?} and {:?} are both allotted face {f}: a face plays once in a common draw",
                    w.venue, v.venue
                ));
            }
        }
    }
    Ok(())
}

/// The faces a venue says it sold, counted, when they lie within its
/// allotment and no face is sold twice.
pub fn check_sales(allotted: &[Faces], sold: &[Faces]) -> Result<u64, String> {
    if let Some(&(a, b)) = sold.iter().find(|&&(a, b)| a > b) {
        return Err(format!("faces {a}..{b} run backwards"));
    }
    for (i, &(a, b)) in sold.iter().enumerate() {
        let within = allotted.iter().any(|&(x, y)| x <= a && b <= y);
        if !within {
            return Err(format!(
                "faces {a}..{b} are not within the venue's allotment"
            ));
        }
        if let Some(f) = shared(&[(a, b)], &sold[..i]) {
            return Err(format!("face {f} is sold twice"));
        }
    }
    Ok(count(sold))
}

/// The sealed order as calls.
pub fn calls(balls: u8, seed: &str, game: &str) -> Calls {
    Calls::from_order(balls, crate::play::live::order(balls, seed, game))
}

/// Every face of `sold` that completes `pattern` within `calls`, with the
/// call that completes it.
fn completed(
    file: &CardFile,
    sold: &[Faces],
    pattern: &Pattern,
    calls: &Calls,
) -> Result<Vec<(u64, u8)>, String> {
    let mut found = Vec::new();
    for &(a, b) in sold {
        let Some((lo, hi)) = file.header().records_within(&(a..=b)) else {
            continue;
        };
        let won =
            claims::winners(file, lo..=hi, pattern, calls, false).map_err(|e| e.to_string())?;
        let within = won.into_iter().filter(|w| (a..=b).contains(&w.face));
        found.extend(within.map(|w| (w.face, w.completed.call)));
    }
    found.sort_unstable();
    Ok(found)
}

/// The faces of `sold` that complete `pattern` first under `calls`, and
/// that call: a venue's winners (none when no sold face completes it).
pub fn winners(
    file: &CardFile,
    sold: &[Faces],
    pattern: &Pattern,
    calls: &Calls,
) -> Result<Vec<(u64, u8)>, String> {
    let mut found = completed(file, sold, pattern, calls)?;
    let Some(first) = found.iter().map(|&(_, c)| c).min() else {
        return Ok(Vec::new());
    };
    found.retain(|&(_, c)| c == first);
    Ok(found)
}

/// The faces of `sold` that complete `pattern` at the last of `calls` (a
/// live game's claims at that call).
pub fn completing_now(
    file: &CardFile,
    sold: &[Faces],
    pattern: &Pattern,
    calls: &Calls,
) -> Result<Vec<u64>, String> {
    let now = calls.len() as u8;
    let found = completed(file, sold, pattern, calls)?;
    Ok(found
        .into_iter()
        .filter(|&(_, c)| c == now)
        .map(|(f, _)| f)
        .collect())
}

/// Judges a claim that `face`, sold at the venue (`sold`), completed
/// `pattern` at call `call`: empty when it did, else why not.
pub fn judge(
    file: &CardFile,
    sold: &[Faces],
    pattern: &Pattern,
    calls: &Calls,
    (face, call): (u64, u8),
) -> String {
    if !holds(sold, face) {
        return format!("face {face} is not among the faces the venue sold");
    }
    let Some((record, _)) = file.header().record_of(face) else {
        return format!("face {face} is not in the stock");
    };
    let positions = calls.positions();
    let done = crate::play::scan_faces(file, record..=record, |n, f| {
        (n == face).then(|| pattern.completion(f, positions))
    });
    match done.map(|v| v.into_iter().next().flatten()) {
        Ok(Some(c)) if c.call == call => String::new(),
        Ok(Some(c)) => format!("face {face} completes at call {}, not {call}", c.call),
        Ok(None) => format!("face {face} does not complete the pattern"),
        Err(e) => e.to_string(),
    }
}

/// The network's winners among the judged claims: every good claim at the
/// fewest calls, sharing `prize` to the cent (in order of venue, then
/// face; the first get the odd minor units). None when no claim is good.
pub fn settle(claims: &[Judged], prize: u64) -> Option<(u8, Vec<Payout>)> {
    let good = claims.iter().filter(|c| c.refused.is_empty());
    let call = good.clone().map(|c| c.call).min()?;
    let mut won: Vec<(&str, u64)> = good
        .filter(|c| c.call == call)
        .map(|c| (c.venue.as_str(), c.face))
        .collect();
    won.sort_unstable();
    won.dedup();
    let shares = money::split(prize, won.len());
    let payouts = won
        .into_iter()
        .zip(shares)
        .map(|((venue, face), amount)| Payout {
            venue: venue.to_string(),
            face,
            amount,
        })
        .collect();
    Some((call, payouts))
}

#[cfg(test)]
mod tests;
