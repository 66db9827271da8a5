//! A claim judged: the reference looked up in the hall's card files, the
//! face read, the pattern checked against the calls so far. The live hall
//! and `hall verify` judge with this one function, so a log's verdicts can
//! be judged again exactly.

use super::refusal::Refusal;
use super::state::Grid;
use crate::cardfile::CardFile;
use crate::game::Face;
use crate::play::calls::Calls;
use crate::play::claims::{check, winners, Verdict};
use crate::play::pattern::Pattern;
use crate::play::reference::{locate, Reference};
use crate::play::scan_faces;
use std::ops::RangeInclusive;

/// The hall's cards: the files and which faces were sold.
pub struct Cards {
    pub files: Vec<CardFile>,
    /// Face ranges sold (of the first file); None: every face.
    pub sold: Option<Vec<RangeInclusive<u64>>>,
    /// The sold faces followed call by call, in a live hall
    /// ([`super::track`]); None: every question is a scan.
    pub tracker: Option<super::track::Follower>,
}

/// What a claim came to.
#[derive(Clone, Debug)]
pub struct Judged {
    pub win: bool,
    /// In words: `wins row 2 at call 31`, `card 12 was not sold`.
    pub reason: String,
    /// `card 4711` or `ticket 70 (strip 12)`, and the file's id.
    pub label: Option<String>,
    /// The face with the called numbers marked, for the console.
    pub face: Option<Grid>,
    /// The file and face found.
    pub at: Option<(usize, u64)>,
}

impl Judged {
    /// A claim that is no win without looking at the calls.
    fn refused(reason: String, label: Option<String>, at: Option<(usize, u64)>) -> Judged {
        Judged {
            win: false,
            reason,
            label,
            face: None,
            at,
        }
    }
}

impl Cards {
    /// The cards of `files`, of which `sold` were sold (None: all).
    pub fn new(files: Vec<CardFile>, sold: Option<Vec<RangeInclusive<u64>>>) -> Cards {
        Cards {
            files,
            sold,
            tracker: None,
        }
    }

    /// Whether face `n` of file `f` was sold.
    pub fn sold(&self, f: usize, n: u64) -> bool {
        super::sold::is_sold(self.sold.as_deref(), f, n)
    }

    /// The file and face `text` names: a QR text names its file by id; a
    /// number is a face of the first file.
    pub fn find(&self, text: &str) -> Result<(usize, u64), Refusal> {
        let no_face = |why: String| Refusal::NoFace(why);
        // A face's label (`card CH-04520 of 3F2A…`) names its file.
        if let Some(found) = self.by_label(text.trim()) {
            return Ok(found);
        }
        let first = self.files[0].header();
        let reference = Reference::parse_for(first, text).map_err(|e| no_face(e.to_string()))?;
        let f = match &reference.file {
            Some(id) => self.files.iter().position(|f| f.short_id().eq_ignore_ascii_case(id)).ok_or_else(|| {
                let ids: Vec<String> = self.files.iter().map(|f| f.short_id()).collect();
                no_face(format!("{:?} belongs to a file this hall does not hold (id {id}; the hall holds {})", text.trim(), ids.join(", ")))
            })?,
            None => 0,
        };
        let located = locate(&self.files[f], text, false).map_err(|e| no_face(e.to_string()))?;
        let n = located.face.expect("a face, not a record").0;
        if reference.file.is_none() {
            let holders: Vec<usize> = (0..self.files.len())
                .filter(|&g| self.files[g].header().record_of(n).is_some())
                .collect();
            if holders.len() > 1 && holders.iter().any(|&g| self.imported(g)) {
                let named: Vec<String> = holders.iter().map(|&g| self.label(g, n)).collect();
                return Err(no_face(format!(
                    "{:?} is printed on cards of {} imported packs ({}): give the card's label as one of these, or its QR text",
                    text.trim(),
                    holders.len(),
                    named.join("; ")
                )));
            }
        }
        Ok((f, n))
    }

    /// Whether file `f` keeps another maker's serials as printed.
    fn imported(&self, f: usize) -> bool {
        self.files[f].header().serials().is_some()
    }

    /// [`Cards::shared_serials`] in words, for the caller when the hall
    /// opens.
    pub fn shared_notice(&self) -> Option<String> {
        let (a, b, span) = self.shared_serials()?;
        let h = |f: usize| self.files[f].header();
        Some(format!(
            "serials {}–{} may be printed on cards of both '{}' and '{}': a claim by such a serial alone is answered with both cards' labels",
            h(a).serial(*span.start()),
            h(a).serial(*span.end()),
            self.files[a].path(),
            self.files[b].path()
        ))
    }

    /// Serials that more than one file holds, when one is an import (its
    /// paper carries no file id): the two files' places and the shared
    /// numbers' span, for a warning when the hall opens.
    pub fn shared_serials(&self) -> Option<(usize, usize, RangeInclusive<u64>)> {
        for a in 0..self.files.len() {
            for b in a + 1..self.files.len() {
                let (x, y) = (
                    self.files[a].header().face_range(),
                    self.files[b].header().face_range(),
                );
                let (lo, hi) = (*x.start().max(y.start()), *x.end().min(y.end()));
                if lo <= hi && (self.imported(a) || self.imported(b)) {
                    return Some((a, b, lo..=hi));
                }
            }
        }
        None
    }

    /// `card 4711 of 3f2a…` or `ticket 70 (strip 12) of 3f2a…`: face `n`
    /// of file `f` as the pages name it.
    pub fn label(&self, f: usize, n: u64) -> String {
        let file = &self.files[f];
        let record = file.header().record_of(n).map_or(0, |(record, _)| record);
        let spec = file.header().spec;
        let serial = file.header().serial(n);
        format!("{} of {}", spec.face_label(serial, record), file.short_id())
    }

    /// The face a label names (`card 4711 of 3F2A…`, as [`Cards::label`]
    /// writes it): its file and number, when a file of these holds it.
    pub fn by_label(&self, label: &str) -> Option<(usize, u64)> {
        let (face, id) = label.rsplit_once(" of ")?;
        let f = self.files.iter().position(|file| file.short_id() == id)?;
        let n = self.files[f]
            .header()
            .read_serial(face.split_whitespace().nth(1)?)?;
        (self.files[f].header().record_of(n).is_some() && self.label(f, n) == label)
            .then_some((f, n))
    }

    /// The game of file `f`.
    pub fn spec(&self, f: usize) -> crate::game::Spec {
        self.files[f].header().spec
    }

    /// Face `n` of file `f`.
    pub fn face(&self, f: usize, n: u64) -> Result<Face, Refusal> {
        let file = &self.files[f];
        let missing = || Refusal::NoFace(format!("face {n} is not in the file"));
        let record = file.header().record_of(n).ok_or_else(missing)?.0;
        let found = scan_faces(file, record..=record, |m, face| (m == n).then_some(*face))
            .map_err(|e| Refusal::NoFace(e.to_string()))?;
        // Let go of the pages the read mapped (the kernel maps a window
        // around a fault): a night of claims on a large file stays flat.
        let size = file.header().spec.record_size();
        let at = (record as usize - 1) * size;
        let window = 1 << 17;
        let end = (at + window).min(file.header().count as usize * size);
        file.release_records(at.saturating_sub(window)..end);
        found.first().copied().ok_or_else(missing)
    }

    /// Whether face `n` of file `f` holds `pattern` after `calls`.
    pub fn holds(
        &self,
        f: usize,
        n: u64,
        pattern: &Pattern,
        calls: &Calls,
        last_call: bool,
    ) -> Result<bool, Refusal> {
        Ok(check(&self.face(f, n)?, pattern, calls, last_call).is_win())
    }

    /// Judges a claim of `pattern` after `calls` by the face `text` names.
    pub fn judge(&self, text: &str, pattern: &Pattern, calls: &Calls, last_call: bool) -> Judged {
        let (f, n) = match self.find(text) {
            Ok(found) => found,
            Err(e) => return Judged::refused(e.to_string(), None, None),
        };
        let spec = self.files[f].header().spec;
        let label = Some(self.label(f, n));
        if !self.sold(f, n) {
            let reason = format!("{} {n} was not sold tonight", spec.face_noun());
            return Judged::refused(reason, label, Some((f, n)));
        }
        let face = match self.face(f, n) {
            Ok(face) => face,
            Err(e) => return Judged::refused(e.to_string(), label, Some((f, n))),
        };
        let verdict = check(&face, pattern, calls, last_call);
        let reason = match &verdict {
            Verdict::Win(c) => format!("wins: {} complete at call {}", pattern.way_name(c.way), c.call),
            Verdict::NotAtLastCall(c) => format!(
                "complete ({} at call {}), but the last call did not complete it, as the house rule requires",
                pattern.way_name(c.way),
                c.call
            ),
            Verdict::NoWin { nearest, missing } => {
                let missing: Vec<String> = missing.iter().map(u8::to_string).collect();
                let needs = Pattern::needs(nearest);
                format!("not a win: {nearest} still {needs} {}", missing.join(", "))
            }
            Verdict::CannotWin => format!("not a win: no way of {} is on this face", pattern.name()),
        };
        let positions = calls.positions();
        let way = match &verdict {
            Verdict::Win(c) => pattern.way_cells(&face, c.way),
            _ => 0,
        };
        let grid = Grid::of(&face, |x| positions[usize::from(x)] != u8::MAX)
            .lit(way, calls.order().last().copied());
        Judged {
            win: verdict.is_win(),
            reason,
            label,
            face: Some(grid),
            at: Some((f, n)),
        }
    }

    /// Every sold face of every file that holds `pattern` after `calls`
    /// (read off the tracker when it stands there, else a scan); more than
    /// `limit` is refused.
    pub fn winning(
        &self,
        pattern: &Pattern,
        calls: &Calls,
        last_call: bool,
        limit: usize,
    ) -> Result<Vec<(usize, u64)>, Refusal> {
        let tracked = self.tracker.as_ref().map(|t| t.now());
        let holding = (tracked.as_ref()).and_then(|t| t.1.holding(pattern, calls));
        if !last_call && holding.is_some_and(|n| n > limit) {
            return Err(Refusal::TooManyWinners(limit));
        }
        if let Some(found) = tracked.and_then(|t| t.1.winners(pattern, calls, last_call)) {
            if found.len() > limit {
                return Err(Refusal::TooManyWinners(limit));
            }
            return Ok(found);
        }
        let mut out = Vec::new();
        for (f, file) in self.files.iter().enumerate() {
            let found = winners(file, 1..=file.header().count, pattern, calls, last_call)
                .map_err(|e| Refusal::NoFace(e.to_string()))?;
            out.extend(
                (found.into_iter())
                    .filter(|w| self.sold(f, w.face))
                    .map(|w| (f, w.face)),
            );
            if out.len() > limit {
                return Err(Refusal::TooManyWinners(limit));
            }
        }
        Ok(out)
    }
}
