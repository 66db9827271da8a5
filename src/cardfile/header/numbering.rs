//! How a file's faces are numbered: from 1, from a series continued
//! (`generate --first-serial`), or as an import's serials were printed
//! ([`Serials`]); every command finds a face, and names it, through these.

use super::Header;
use crate::cardfile::serials::Serials;

impl Header {
    /// The first face's number: 1, a series continued, or an imported
    /// file's own.
    pub fn first_face(&self) -> u64 {
        self.first_face
    }

    /// The serials as printed, when an import kept them.
    pub fn serials(&self) -> Option<&Serials> {
        self.import.as_ref().and_then(|i| i.serials.as_ref())
    }

    /// The number printed on face `t` (from 0) of record `record` (from 1).
    pub fn face_number(&self, record: u64, t: usize) -> u64 {
        let index = self.spec.face_number(record, t);
        match self.serials() {
            Some(s) => s.number(index - 1).unwrap_or(0),
            None => index + self.first_face - 1,
        }
    }

    /// The record (from 1) and place (from 0) of the face numbered `face`,
    /// if the file holds it.
    pub fn record_of(&self, face: u64) -> Option<(u64, usize)> {
        let faces = self.count.checked_mul(self.spec.faces() as u64)?;
        let index = match self.serials() {
            Some(s) => s.index_of(face)?,
            None if face < self.first_face => return None,
            None => face - self.first_face,
        };
        (index < faces).then(|| self.spec.record_of(index + 1))
    }

    /// The numbers of the file's faces, first and last (with an import's
    /// gaps, not every number between is a face).
    pub fn face_range(&self) -> std::ops::RangeInclusive<u64> {
        if let Some(s) = self.serials() {
            return s.first()..=s.last();
        }
        let faces = self.count * self.spec.faces() as u64;
        self.first_face..=self.first_face + faces.max(1) - 1
    }

    /// The records (from 1) of the first and last faces numbered within
    /// `faces` (a sold range, whose ends may fall in an import's gaps or
    /// past the file), if any is.
    pub fn records_within(&self, faces: &std::ops::RangeInclusive<u64>) -> Option<(u64, u64)> {
        let (lo, hi) = match self.serials() {
            Some(s) => s.indices_within(*faces.start(), *faces.end())?,
            None => {
                let all = self.face_range();
                let lo = (*faces.start()).max(*all.start());
                let hi = (*faces.end()).min(*all.end());
                if lo > hi || self.count == 0 {
                    return None;
                }
                (lo - self.first_face, hi - self.first_face)
            }
        };
        Some((self.spec.record_of(lo + 1).0, self.spec.record_of(hi + 1).0))
    }

    /// Face `n`'s serial as printed: `CH-04512`, or the number.
    pub fn serial(&self, n: u64) -> String {
        match self.serials() {
            Some(s) => s.text(n),
            None => n.to_string(),
        }
    }

    /// The face number a serial as printed names (`CH-04512`, `04512`), or
    /// None when `text` is no serial of this file's kind.
    pub fn read_serial(&self, text: &str) -> Option<u64> {
        match self.serials() {
            Some(s) => s.read(text),
            None => text.trim().parse().ok(),
        }
    }
}
