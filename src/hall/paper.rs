//! A paper's colour as the screens show it: a colour of print's table of
//! named colours, or an ink as `print --colours` takes it. The night file
//! names a product's paper and a game's with it.

/// The screen colour of paper `name` (a name of print's table of named
/// colours, [`crate::print::NAMED`], or an ink as `print --colours` takes
/// it, `cmyk:C,M,Y,K`).
pub fn paper_colour(name: &str) -> Result<String, PaperError> {
    let lower = name.trim().to_ascii_lowercase();
    if let Some((.., css)) = crate::print::NAMED.iter().find(|(n, ..)| *n == lower) {
        return Ok(css.to_string());
    }
    if lower.starts_with("cmyk:") {
        // One reading of an ink: print's.
        use crate::print::{Ink, InkError};
        return match Ink::parse(&lower) {
            Ok(ink) => Ok(match ink.process() {
                Some(v) => {
                    let ch = |c: f32| (255.0 * (1.0 - c) * (1.0 - v[3])).round() as u8;
                    format!("#{:02x}{:02x}{:02x}", ch(v[0]), ch(v[1]), ch(v[2]))
                }
                None => "#ffffff".into(),
            }),
            // No ink on paper: the paper is white.
            Err(InkError::Blank(_)) => Ok("#ffffff".into()),
            Err(e) => Err(PaperError::Ink(e)),
        };
    }
    Err(PaperError::Unknown {
        name: name.to_string(),
    })
}

/// A paper the hall cannot show.
#[derive(Debug, thiserror::Error)]
pub enum PaperError {
    #[error("{0}")]
    Ink(crate::print::InkError),
    #[error("{name:?} is not a paper colour: name one of {names}, or an ink as print takes it, cmyk:C,M,Y,K", names = paper_names())]
    Unknown { name: String },
}

fn paper_names() -> String {
    (crate::print::NAMED.iter())
        .map(|(n, ..)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}
