//! How a file's faces are numbered: from 1, from a series continued
//! (`generate --first-serial`), or as an import's serials were printed
//! ([`Serials`]), and a shard's place in its stock; every command finds a
//! face, and names it, through these, and the header's reader checks them.

use super::{u32_at, u64_at, Header, HeaderError, Import, ShardMark};
use super::{IMPORTED_VERSION, MAX_FIRST_FACE, SHARD_VERSION};
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

/// The first face's number at byte 88 (zero: 1), checked with the bytes
/// reserved around it and, in format version 5, against the serials of
/// the file's `faces`.
pub(super) fn first_face_of(
    b: &[u8],
    version: u16,
    import: Option<&Import>,
    faces: u64,
) -> Result<u64, HeaderError> {
    let minted = version < IMPORTED_VERSION || version == SHARD_VERSION;
    let reserved = match version {
        SHARD_VERSION => 96..104,
        IMPORTED_VERSION.. => 104..120,
        _ => 96..120,
    };
    let zero = |r: std::ops::Range<usize>| b[r].iter().all(|&x| x == 0);
    if !zero(reserved.clone()) || (minted && !zero(84..88)) {
        return Err(HeaderError::Damaged(format!(
            "reserved header bytes {}-{} are not zero",
            if minted { 84 } else { reserved.start },
            reserved.end - 1
        )));
    }
    let first_face = match (u64_at(b, 88), import) {
        (0, None) => 1,
        (n @ 2..=MAX_FIRST_FACE, None) => n,
        (n @ 1..=MAX_FIRST_FACE, Some(_)) => n,
        (n, _) => {
            return Err(HeaderError::Damaged(format!(
                "first face {n} is impossible"
            )))
        }
    };
    let serials = import.and_then(|i| i.serials.as_ref());
    if serials.is_some_and(|s| s.first() != first_face || s.check(faces).is_err()) {
        return Err(HeaderError::Damaged(
            "the serials in the provenance do not number the file's faces".into(),
        ));
    }
    Ok(first_face)
}

/// The shard at byte 104 of a version 6 header: I of N (1 ≤ I ≤ N) of a
/// stock of at least `count` cards.
pub(super) fn shard_of(
    b: &[u8],
    version: u16,
    count: u64,
) -> Result<Option<ShardMark>, HeaderError> {
    if version != SHARD_VERSION {
        return Ok(None);
    }
    let shard = ShardMark {
        index: u32_at(b, 104),
        of: u32_at(b, 108),
        stock: u64_at(b, 112),
    };
    if shard.index == 0 || shard.index > shard.of || shard.stock < count {
        return Err(HeaderError::Damaged(format!(
            "shard {}/{} of a stock of {} holding {count} cards is impossible",
            shard.index, shard.of, shard.stock
        )));
    }
    Ok(Some(shard))
}
