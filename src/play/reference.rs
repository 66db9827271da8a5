//! What a player reads off a card, as a caller types or scans it: the face
//! number, a 90-ball ticket number, the QR text `print --qr` puts on a face
//! (`bingomint:ID:card:N`, `bingomint:ID:ticket:N`), or a *group face*: a
//! colour digit followed by the face number padded to the file's count of
//! digits (`3004711`: colour 3, face 4711 of a file of up to 999,999 faces).

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
    #[error("{text:?} is not in this file: it holds {noun}s 1 to {last}")]
    OutOfRange {
        text: String,
        noun: &'static str,
        last: u64,
    },
    #[error("{text:?} belongs to the file with id {found}, not {id}")]
    OtherFile {
        text: String,
        found: String,
        id: String,
    },
}

impl Reference {
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

    /// The face this names in a file of `faces` faces with id `id`: its
    /// number, or, for a group face (one digit more than the file's count
    /// of faces has, out of range as a plain number), the number after the
    /// colour digit.
    pub fn face_in(&self, id: &str, faces: u64, noun: &'static str) -> Result<u64, ReferenceError> {
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
            last: faces,
        };
        match self.number {
            0 => Err(ReferenceError::Zero(self.text.clone())),
            n if n <= faces => Ok(n),
            _ if self.file.is_none() && self.text.len() == digits(faces) + 1 => {
                let face = self.text[1..].parse::<u64>().map_err(|_| out_of_range())?;
                (1..=faces)
                    .contains(&face)
                    .then_some(face)
                    .ok_or_else(out_of_range)
            }
            _ => Err(out_of_range()),
        }
    }
}

/// The group face printed for face `face` of a file of `faces` faces in
/// colour `colour` (0–9).
pub fn group_face(colour: u8, face: u64, faces: u64) -> String {
    format!("{colour}{face:0width$}", width = digits(faces))
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
            assert_eq!(r.face_in("AB12CD34", faces, "card"), Ok(face), "{text}");
        }
        assert_eq!(group_face(3, 4711, faces), "3004711");
    }

    #[test]
    fn what_names_no_face_says_why() {
        let r = |t: &str| Reference::parse(t).and_then(|r| r.face_in("AB12CD34", 5000, "card"));
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
    }
}
