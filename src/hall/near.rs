//! The sold faces some numbers from a prize: who a consolation by
//! closeness ([`super::rules::Near`]) is paid to. Read off the tracker when
//! it stands at the calls and the prize, else found by a scan of every
//! sold face, as `hall verify` always does: the two give the same faces,
//! in file and face order.

use super::judge::Cards;
use super::refusal::Refusal;
pub use super::track::Away;
use crate::game::Face;
use crate::play::calls::{Calls, NEVER};
use crate::play::pattern::{Pattern, CANNOT};
use crate::play::scan_faces;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// How far `face` is from `pattern` after the calls whose places are
/// `positions`.
fn distance(face: &Face, pattern: &Pattern, positions: &[u8]) -> u8 {
    let (mut numbered, mut marked) = (0u32, 0u32);
    for (cell, &x) in face.numbers().iter().enumerate().filter(|(_, &x)| x != 0) {
        numbered |= 1 << cell;
        if positions[usize::from(x)] != NEVER {
            marked |= 1 << cell;
        }
    }
    let (rows, cols) = (usize::from(face.rows), usize::from(face.cols));
    pattern.to_go(rows, cols, numbered, marked)
}

impl Cards {
    /// The sold faces exactly `to_go` numbers from `pattern` after `calls`
    /// (None: the nearest that do not hold it); more than `limit` are
    /// counted, not listed.
    pub fn away(
        &self,
        pattern: &Pattern,
        calls: &Calls,
        to_go: Option<u8>,
        limit: usize,
    ) -> Result<Away, Refusal> {
        let tracked = self.tracker.as_ref().map(|t| t.now());
        if let Some(found) = tracked.and_then(|t| t.1.away(pattern, calls, to_go, limit)) {
            return Ok(found);
        }
        let positions = calls.positions();
        // Each sold face's distance, when it is near at all.
        let near = |f: usize, n: u64, face: &Face| {
            let d = distance(face, pattern, positions);
            (self.sold(f, n) && d != 0 && d != CANNOT).then_some(d)
        };
        let scan = |f: usize, each: &(dyn Fn(u64, u8) -> bool + Sync)| {
            let file = &self.files[f];
            scan_faces(file, 1..=file.header().count, |n, face| {
                near(f, n, face).filter(|&d| each(n, d)).map(|_| n)
            })
            .map_err(|e| Refusal::NoFace(e.to_string()))
        };
        let d = match to_go {
            Some(k) => k,
            None => {
                let least = AtomicU8::new(CANNOT);
                for f in 0..self.files.len() {
                    scan(f, &|_, d| {
                        least.fetch_min(d, Relaxed);
                        false
                    })?;
                }
                Some(least.into_inner())
                    .filter(|&d| d != CANNOT)
                    .unwrap_or(0)
            }
        };
        let mut away = Away {
            to_go: d,
            faces: 0,
            listed: Vec::new(),
        };
        if d == 0 {
            return Ok(away);
        }
        for f in 0..self.files.len() {
            for n in scan(f, &|_, x| x == d)? {
                away.faces += 1;
                if away.faces as usize <= limit {
                    away.listed.push((f, n));
                }
            }
        }
        if away.faces as usize > limit {
            away.listed.clear();
        }
        Ok(away)
    }
}
