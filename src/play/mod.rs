//! Playing the cards: call orders ([`calls`]), win patterns and when a face
//! completes one ([`pattern`]), checking a claim and scanning a file for
//! winners ([`claims`]), and simulating games to see how many calls a
//! pattern takes ([`simulate`]).
//!
//! Everything works on faces ([`crate::game::Face`]: a 75-ball card, a
//! 90-ball ticket) as the games give them, so a hall's till or a web caller
//! can use it without the command line:
//!
//! ```
//! use bingomint::game::Face;
//! use bingomint::play::calls::Calls;
//! use bingomint::game::Spec;
//! use bingomint::play::pattern::Pattern;
//!
//! // A card, row by row (0 = the free centre).
//! let mut card = Face::new(5, 5);
//! card.cells[..25].copy_from_slice(&[
//!      7, 16, 31, 46, 61,
//!      2, 17, 32, 47, 62,
//!      3, 18,  0, 48, 63,
//!      4, 19, 34, 49, 64,
//!      5, 20, 35, 50, 65,
//! ]);
//! let calls = Calls::parse(75, "9, 3, 18, 70, 48, 63", "the caller").unwrap();
//! let line = Pattern::parse("line", Spec::named("75").unwrap()).unwrap();
//! let won = line.completion(&card, calls.positions()).unwrap();
//! assert_eq!(won.call, 6); // the sixth call, 63, completed it
//! assert_eq!(line.way_name(won.way), "row 3");
//! ```

pub mod calls;
pub mod claims;
pub mod listing;
pub mod live;
pub mod pattern;
pub mod reference;
pub mod simulate;

use crate::cardfile::CardFile;
use crate::game::{Face, RuleViolation, Spec, Text, Visit};
use rayon::prelude::*;
use std::ops::RangeInclusive;

/// A record of a file that is not a valid card of its game.
#[derive(Debug, thiserror::Error)]
#[error("'{path}': {noun} {number} is not valid: {why}")]
pub struct InvalidRecord {
    pub path: String,
    pub noun: &'static str,
    pub number: u64,
    pub why: RuleViolation,
}

/// Records per parallel task of a scan.
const SCAN_CHUNK: usize = 1 << 14;

/// Calls `each(face number, face)` for every face of records `records`
/// (1-based, inclusive, within the file) of `file`, in parallel on the
/// current rayon pool, and returns what it kept, in face order. Face `t`
/// (from 0) of record `n` is face number `(n − 1) × faces + t + 1` (the card
/// or ticket number; an imported file's numbers start at its own first).
pub fn scan_faces<T: Send>(
    file: &CardFile,
    records: RangeInclusive<u64>,
    each: impl Fn(u64, &Face) -> Option<T> + Sync,
) -> Result<Vec<T>, InvalidRecord> {
    file.header().spec.visit(Scan {
        file,
        records,
        each,
    })
}

struct Scan<'a, F> {
    file: &'a CardFile,
    records: RangeInclusive<u64>,
    each: F,
}

impl<T: Send, F: Fn(u64, &Face) -> Option<T> + Sync> Visit for Scan<'_, F> {
    type Out = Result<Vec<T>, InvalidRecord>;

    fn visit<G: Text>(self, game: &G) -> Self::Out {
        let spec = game.spec();
        let header = self.file.header();
        let size = spec.record_size();
        let faces = spec.faces() as u64;
        let (first, last) = (*self.records.start(), *self.records.end());
        if first > last {
            return Ok(Vec::new());
        }
        let all = self.file.records();
        let bytes = &all[(first as usize - 1) * size..last as usize * size];
        let parts: Vec<Result<Vec<T>, InvalidRecord>> = bytes
            .par_chunks(SCAN_CHUNK * size)
            .enumerate()
            .map(|(chunk, records)| {
                let mut kept = Vec::new();
                let mut cells = vec![Face::new(0, 0); faces as usize];
                for (j, record) in records.chunks_exact(size).enumerate() {
                    let number = first + (chunk * SCAN_CHUNK + j) as u64;
                    game.read_faces(record, &mut cells)
                        .map_err(|why| InvalidRecord {
                            path: self.file.path().to_string(),
                            noun: spec.noun(),
                            number,
                            why,
                        })?;
                    for (t, face) in cells.iter().enumerate() {
                        let n = header.face_number(number, t);
                        if let Some(value) = (self.each)(n, face) {
                            kept.push(value);
                        }
                    }
                }
                Ok(kept)
            })
            .collect();
        let mut out = Vec::new();
        for part in parts {
            out.extend(part?);
        }
        Ok(out)
    }
}

/// A face as a boxed text grid with the called numbers marked `[12]`, the
/// game's column letters over it (B I N G O) and FREE in its free cells
/// (an items card's labels, the called ones `[in brackets]`).
pub fn marked_grid(face: &Face, spec: Spec, called: impl Fn(u8) -> bool) -> String {
    if let Some(deck) = spec.items() {
        return crate::game::items::text::grid(deck, face.numbers(), Some(&called));
    }
    let facts = spec.facts();
    let (rows, cols) = (usize::from(face.rows), usize::from(face.cols));
    let line = |l: &str, m: &str, r: &str| format!("{l}{}{r}\n", vec!["────"; cols].join(m));
    let mut out = line("┌", "┬", "┐");
    if !facts.letters.is_empty() {
        out.push('│');
        for letter in facts.letters {
            out.push_str(&format!("  {letter} │"));
        }
        out.push('\n');
        out.push_str(&line("├", "┼", "┤"));
    }
    for r in 0..rows {
        out.push('│');
        for c in 0..cols {
            let free = facts.free & 1 << (r * cols + c) != 0;
            let cell = match face.at(r, c) {
                0 if free => "FREE".to_string(),
                0 => "    ".to_string(),
                n if called(n) => format!("[{n:>2}]"),
                n => format!(" {n:>2} "),
            };
            out.push_str(&cell);
            out.push('│');
        }
        out.push('\n');
    }
    out.push_str(&line("└", "┴", "┘"));
    out
}
