//! What a player reads off a card, as a caller types or scans it: the face
//! number, a 90-ball ticket number, the QR text `print --qr` puts on a face
//! (`bingomint:ID:card:N`, `bingomint:ID:ticket:N`), or a *group face*: a
//! colour digit followed by the face number padded to the file's count of
//! digits (`3004711`: colour 3, face 4711 of a file of up to 999,999 faces).

use crate::cardfile::CardFile;
use crate::export::{RangeError, RangeProblem};
use std::ops::RangeInclusive;

/// A reference, parsed but not yet looked up in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    /// The file id a QR text names (None: any file).
    pub file: Option<String>,
    /// The face number as given.
    pub number: u64,
    /// The text as typed, for messages.
    pub text: String,
}

/// A reference that names no face.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReferenceError {
    #[error("{0:?} is neither a card or ticket number nor a reference like bingomint:ID:card:12")]
    Unreadable(String),
    #[error("{0:?} names no card: numbers start at 1")]
    Zero(String),
    /// A plain number for a card in a file of strips, where it could be a
    /// strip or a ticket.
    #[error("{0:?} could be a strip or a ticket of this file of strips: say --strip {0} or --ticket {0}")]
    StripOrTicket(String),
    #[error("{text:?} is not in this file: it holds {noun}s {first} to {last}")]
    OutOfRange {
        text: String,
        noun: &'static str,
        first: u64,
        last: u64,
    },
    /// A number between an imported file's first and last serials that
    /// no face carries (the file's serials have gaps).
    #[error("{text:?} is not in this file: its {noun}s run {first} to {last} with gaps (no {noun} carries this one)")]
    Gap {
        text: String,
        noun: &'static str,
        first: String,
        last: String,
    },
    #[error("{text:?} belongs to the file with id {found}, not {id}")]
    OtherFile {
        text: String,
        found: String,
        id: String,
    },
}

impl Reference {
    /// Parses `text` as a face of the file with header `h` reads it: as
    /// [`Reference::parse`] does, or a serial as printed (`CH-04512`) when
    /// the file keeps its serials.
    pub fn parse_for(h: &crate::cardfile::Header, text: &str) -> Result<Reference, ReferenceError> {
        Reference::parse(text).or_else(|e| match h.serials().and_then(|s| s.read(text)) {
            Some(number) => Ok(Reference {
                file: None,
                number,
                text: text.trim().to_string(),
            }),
            None => Err(e),
        })
    }

    /// Parses `text`: a number, or `bingomint:ID:card|ticket:N` (any case).
    pub fn parse(text: &str) -> Result<Reference, ReferenceError> {
        let t = text.trim();
        let unreadable = || ReferenceError::Unreadable(t.to_string());
        if let Ok(number) = t.parse::<u64>() {
            return Ok(Reference {
                file: None,
                number,
                text: t.to_string(),
            });
        }
        let parts: Vec<&str> = t.split(':').collect();
        let [scheme, id, kind, n] = parts[..] else {
            return Err(unreadable());
        };
        let kind = kind.to_ascii_lowercase();
        if !scheme.eq_ignore_ascii_case("bingomint") || !(kind == "card" || kind == "ticket") {
            return Err(unreadable());
        }
        let number = n.parse().map_err(|_| unreadable())?;
        Ok(Reference {
            file: Some(id.to_ascii_uppercase()),
            number,
            text: t.to_string(),
        })
    }

    /// The face this names in a file with id `id` whose faces are numbered
    /// `faces`: its number, or, for a group face (one digit more than the
    /// file's last face number has, out of range as a plain number), the
    /// number after the colour digit.
    pub fn face_in(
        &self,
        id: &str,
        faces: RangeInclusive<u64>,
        noun: &'static str,
    ) -> Result<u64, ReferenceError> {
        if let Some(found) = &self.file {
            if !found.eq_ignore_ascii_case(id) {
                return Err(ReferenceError::OtherFile {
                    text: self.text.clone(),
                    found: found.clone(),
                    id: id.to_string(),
                });
            }
        }
        let out_of_range = || ReferenceError::OutOfRange {
            text: self.text.clone(),
            noun,
            first: *faces.start(),
            last: *faces.end(),
        };
        match self.number {
            0 => Err(ReferenceError::Zero(self.text.clone())),
            n if faces.contains(&n) => Ok(n),
            n if self.file.is_none()
                && n > *faces.end()
                && self.text.len() == digits(*faces.end()) + 1 =>
            {
                let face = self.text[1..].parse::<u64>().map_err(|_| out_of_range())?;
                faces
                    .contains(&face)
                    .then_some(face)
                    .ok_or_else(out_of_range)
            }
            _ => Err(out_of_range()),
        }
    }
}

/// What a reference names in a file: a face, or (a strip's number) a whole
/// record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Located {
    /// The record (from 1).
    pub record: u64,
    /// The face's number and its place in the record (from 0); None when a
    /// plain number named a strip.
    pub face: Option<(u64, usize)>,
}

/// Finds what `text` names in `file`: a face number (an imported file's
/// own numbering), the QR text, a group face; with `records` set, a plain
/// number in a file of strips names a strip, as `--card` and `--range`
/// read it (`--ticket` reads it as a ticket).
pub fn locate(file: &CardFile, text: &str, records: bool) -> Result<Located, ReferenceError> {
    let h = file.header();
    let reference = Reference::parse_for(h, text)?;
    let spec = h.spec;
    if records && spec.faces() > 1 && reference.file.is_none() {
        match reference.number {
            0 => return Err(ReferenceError::Zero(reference.text)),
            n if n <= h.count => {
                return Ok(Located {
                    record: n,
                    face: None,
                })
            }
            // Past the strips: a group face, or out of range.
            n if n <= h.count * spec.faces() as u64 => {
                return Err(ReferenceError::OutOfRange {
                    text: reference.text,
                    noun: spec.noun(),
                    first: 1,
                    last: h.count,
                })
            }
            _ => {}
        }
    }
    let face = reference.face_in(&file.short_id(), h.face_range(), spec.face_noun())?;
    let (record, place) = h.record_of(face).ok_or_else(|| ReferenceError::Gap {
        text: reference.text.clone(),
        noun: spec.face_noun(),
        first: h.serial(*h.face_range().start()),
        last: h.serial(*h.face_range().end()),
    })?;
    Ok(Located {
        record,
        face: Some((face, place)),
    })
}

/// What `--card` names: a face as printed on it. In a file of strips a plain
/// number that could be a strip or a ticket is refused, naming both flags
/// (`--strip`, `--ticket`); QR texts and group faces name their ticket.
pub fn locate_card(file: &CardFile, text: &str) -> Result<Located, ReferenceError> {
    let h = file.header();
    let reference = Reference::parse_for(h, text)?;
    let faces = h.spec.faces() as u64;
    if faces > 1 && reference.file.is_none() && (1..=h.count * faces).contains(&reference.number) {
        return Err(ReferenceError::StripOrTicket(reference.text));
    }
    locate(file, text, false)
}

/// The records (from 1, inclusive) a `--range` names: `A..B`, `A..`,
/// `..B` or `A`, each end anything [`locate`] reads.
pub fn locate_range(file: &CardFile, text: &str) -> Result<RangeInclusive<u64>, RangeError> {
    let count = file.header().count;
    let noun = file.header().spec.noun();
    if count == 0 {
        return Err(RangeError {
            text: text.to_string(),
            problem: RangeProblem::Empty(noun.to_string()),
        });
    }
    let fail = |problem| RangeError {
        text: text.to_string(),
        problem,
    };
    let end = |s: &str, default: u64| -> Result<u64, RangeError> {
        if s.trim().is_empty() {
            return Ok(default);
        }
        locate(file, s, true)
            .map(|l| l.record)
            .map_err(|e| fail(RangeProblem::Reference(e.to_string())))
    };
    let (start, last) = match text.split_once("..") {
        Some((a, b)) => (end(a, 1)?, end(b, count)?),
        None => {
            let n = end(text, 0)?;
            (n, n)
        }
    };
    if start > last {
        return Err(fail(RangeProblem::Backwards));
    }
    Ok(start..=last)
}

/// The records a `--range` list names: runs as [`locate_range`] reads
/// them, separated by commas (`1..3,7..8,12`), in order and not
/// overlapping.
pub fn locate_ranges(file: &CardFile, text: &str) -> Result<Vec<RangeInclusive<u64>>, RangeError> {
    let mut out: Vec<RangeInclusive<u64>> = Vec::new();
    for part in text.split(',') {
        let run = locate_range(file, part.trim())?;
        if out.last().is_some_and(|last| run.start() <= last.end()) {
            return Err(RangeError {
                text: text.to_string(),
                problem: RangeProblem::OutOfOrder,
            });
        }
        out.push(run);
    }
    Ok(out)
}

/// How many records `runs` hold.
pub fn records_in(runs: &[RangeInclusive<u64>]) -> u64 {
    runs.iter().map(|r| r.end() + 1 - r.start()).sum()
}

/// The group face printed for face `face` of a file whose last face is
/// numbered `last`, in colour `colour` (0–9).
pub fn group_face(colour: u8, face: u64, last: u64) -> String {
    format!("{colour}{face:0width$}", width = digits(last))
}

fn digits(n: u64) -> usize {
    n.max(1).to_string().len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_finds_its_face() {
        let faces = 250_000;
        for (text, face) in [
            ("4711", 4711),
            (" bingomint:AB12CD34:card:4711 ", 4711),
            ("BINGOMINT:ab12cd34:TICKET:4711", 4711),
            (&group_face(3, 4711, faces) as &str, 4711),
        ] {
            let r = Reference::parse(text).unwrap();
            assert_eq!(r.face_in("AB12CD34", 1..=faces, "card"), Ok(face), "{text}");
        }
        assert_eq!(group_face(3, 4711, faces), "3004711");
    }

    #[test]
    fn ranges_read_both_ends_as_references() {
        let dir = std::env::temp_dir().join(format!("bingomint-ranges-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("c.bmc");
        let plan = crate::pipeline::file::Plan {
            force: true,
            ..crate::pipeline::file::Plan::new(
                crate::game::Spec::named("75").unwrap(),
                100,
                1,
                &out,
            )
        };
        crate::pipeline::file::generate(&plan, &|_: u64| {}).unwrap();
        let file = CardFile::open(&out).unwrap();
        let id = file.short_id();
        let range = |t: &str| locate_range(&file, t).map_err(|e| e.problem);
        assert_eq!(range("1..10"), Ok(1..=10));
        assert_eq!(range("5.."), Ok(5..=100));
        assert_eq!(range("..3"), Ok(1..=3));
        assert_eq!(range("7"), Ok(7..=7));
        assert_eq!(range(&format!("bingomint:{id}:card:7..1090")), Ok(7..=90));
        assert_eq!(range("5..2"), Err(RangeProblem::Backwards));
        assert!(matches!(range("0..3"), Err(RangeProblem::Reference(_))));
        assert!(matches!(range("1..101"), Err(RangeProblem::Reference(_))));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn what_names_no_face_says_why() {
        let r = |t: &str| Reference::parse(t).and_then(|r| r.face_in("AB12CD34", 1..=5000, "card"));
        assert!(matches!(
            r("bingomint:ZZZZZZZZ:card:3"),
            Err(ReferenceError::OtherFile { .. })
        ));
        assert!(matches!(r("9999"), Err(ReferenceError::OutOfRange { .. })));
        assert!(matches!(r("0"), Err(ReferenceError::Zero(_))));
        assert!(matches!(r("12a"), Err(ReferenceError::Unreadable(_))));
        assert!(matches!(
            r("bingomint:AB12CD34:strip:3"),
            Err(ReferenceError::Unreadable(_))
        ));
        // A group face whose face is out of range is refused, not guessed.
        assert!(matches!(r("19999"), Err(ReferenceError::OutOfRange { .. })));
        // Faces numbered from 10001 (an imported file's own numbering).
        let own =
            |t: &str| Reference::parse(t).and_then(|r| r.face_in("X", 10_001..=15_000, "card"));
        assert_eq!(own("10001"), Ok(10_001));
        assert_eq!(own("215000"), Ok(15_000));
        assert!(matches!(
            own("42"),
            Err(ReferenceError::OutOfRange { first: 10_001, .. })
        ));
    }
}
