//! Claims: does a face hold a pattern after the calls so far (`check`), and
//! which faces of a file do, from which call (`winners`).

use super::calls::Calls;
use super::pattern::{Completion, Pattern};
use super::{scan_faces, InvalidRecord};
use crate::cardfile::CardFile;
use crate::game::Face;
use std::ops::RangeInclusive;

/// The answer to a claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The pattern is complete: by which way, at which call.
    Win(Completion),
    /// Complete, but the last call completes no way of it, which the rules
    /// in force require (`--last-call-must-complete`): the earliest way.
    NotAtLastCall(Completion),
    /// Not complete: the way closest to it and the numbers it still needs.
    NoWin { nearest: String, missing: Vec<u8> },
    /// No way of the pattern holds a number of this face (a custom mask
    /// over a ticket's blanks): it can never win it.
    CannotWin,
}

impl Verdict {
    /// Whether the claim is good.
    pub fn is_win(&self) -> bool {
        matches!(self, Verdict::Win(_))
    }
}

/// Judges a claim of `pattern` on `face` after `calls`; with
/// `last_call_must_complete`, the claim wins only when the last call
/// completes a way of the pattern (any way, not only the first complete).
pub fn check(
    face: &Face,
    pattern: &Pattern,
    calls: &Calls,
    last_call_must_complete: bool,
) -> Verdict {
    let positions = calls.positions();
    match pattern.completion(face, positions) {
        Some(done) if last_call_must_complete => {
            let last = calls.len() as u8;
            match pattern.completes_at(face, positions, last) {
                Some(way) => Verdict::Win(Completion { call: last, way }),
                None => Verdict::NotAtLastCall(done),
            }
        }
        Some(done) => Verdict::Win(done),
        None => match pattern.nearest(face, |n| calls.called(n)) {
            Some((nearest, missing)) => Verdict::NoWin { nearest, missing },
            None => Verdict::CannotWin,
        },
    }
}

/// A face that holds the pattern after the calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Winner {
    /// The card number (75-ball) or ticket number (90-ball).
    pub face: u64,
    /// How and when it completed.
    pub completed: Completion,
}

/// Every face of records `records` of `file` that holds `pattern` after
/// `calls`, earliest completion first (then by face number); the file is
/// scanned in parallel. With `last_call_must_complete`, only faces with a
/// way the last call completes (reported as completed then).
pub fn winners(
    file: &CardFile,
    records: RangeInclusive<u64>,
    pattern: &Pattern,
    calls: &Calls,
    last_call_must_complete: bool,
) -> Result<Vec<Winner>, InvalidRecord> {
    let positions = calls.positions();
    let last = calls.len() as u8;
    // Ways with a number not yet called stop at it.
    let bound = last + 1;
    let mut found = scan_faces(file, records, |face, cells| {
        let (call, way) = pattern.earliest(cells, positions, bound);
        if call >= bound {
            return None;
        }
        let completed = if last_call_must_complete {
            let way = pattern.completes_at(cells, positions, last)?;
            Completion { call: last, way }
        } else {
            Completion { call, way }
        };
        Some(Winner { face, completed })
    })?;
    // Stable: faces stay in order within a call.
    found.sort_by_key(|w| w.completed.call);
    Ok(found)
}

/// How many winners completed at each call: (call, count), ascending.
pub fn per_call(winners: &[Winner]) -> Vec<(u8, u64)> {
    let mut out: Vec<(u8, u64)> = Vec::new();
    for w in winners {
        match out.last_mut() {
            Some((call, n)) if *call == w.completed.call => *n += 1,
            _ => out.push((w.completed.call, 1)),
        }
    }
    out
}
