//! The ink a sheet is printed in: black (DeviceGray) or one CMYK ink, as
//! `--colour` and `--colours` name it, and how a content stream sets it.

use pdf_writer::Content;

/// An ink users named that is not one; the text shows the value, the
/// command names the option.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum InkError {
    #[error("{0:?}: give gray, or cmyk:C,M,Y,K in percent (cmyk:0,100,100,0 for red)")]
    NotAnInk(String),
    #[error("{0:?}: an ink of 0,0,0,0 prints nothing")]
    Blank(String),
}

/// The ink everything is printed in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ink {
    /// Black, DeviceGray.
    Gray,
    /// One CMYK ink, fractions 0–1.
    Cmyk([f32; 4]),
}

impl Ink {
    /// `gray` or `cmyk:C,M,Y,K` (percentages).
    pub fn parse(text: &str) -> Result<Ink, InkError> {
        if text == "gray" || text == "grey" {
            return Ok(Ink::Gray);
        }
        let bad = || InkError::NotAnInk(crate::text::clip(text, 60).into_owned());
        let values = text.strip_prefix("cmyk:").ok_or_else(bad)?;
        let parts: Vec<f32> = values
            .split(',')
            .map(|v| v.trim().parse::<f32>().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        match parts[..] {
            [c, m, y, k] if parts.iter().all(|v| (0.0..=100.0).contains(v)) => {
                if c + m + y + k == 0.0 {
                    return Err(InkError::Blank(crate::text::clip(text, 60).into_owned()));
                }
                Ok(Ink::Cmyk([c / 100.0, m / 100.0, y / 100.0, k / 100.0]))
            }
            _ => Err(bad()),
        }
    }

    /// `tint` (0–1) of the ink, as a fill.
    pub(super) fn tint(self, c: &mut Content, tint: f32) {
        match self {
            Ink::Gray => c.set_fill_gray(1.0 - tint),
            Ink::Cmyk([a, b, d, e]) => c.set_fill_cmyk(a * tint, b * tint, d * tint, e * tint),
        };
    }

    pub(super) fn fill(self, c: &mut Content) {
        match self {
            Ink::Gray => c.set_fill_gray(0.0),
            Ink::Cmyk([a, b, d, e]) => c.set_fill_cmyk(a, b, d, e),
        };
    }

    pub(super) fn stroke(self, c: &mut Content) {
        match self {
            Ink::Gray => c.set_stroke_gray(0.0),
            Ink::Cmyk([a, b, d, e]) => c.set_stroke_cmyk(a, b, d, e),
        };
    }
}
