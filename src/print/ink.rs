//! The ink a sheet is printed in: black (DeviceGray), one CMYK ink, or a
//! named spot ink (a `/Separation` colour space with its CMYK alternate),
//! as `--colour` and `--colours` name it, and how a content stream sets it.

use pdf_writer::types::ColorSpaceOperand;
use pdf_writer::{Content, Name};

/// The name a spot ink's colour space has in every resource dictionary
/// (each sheet's and each form's holds its own ink).
pub(super) const SPOT: Name = Name(b"Spot");

/// An ink users named that is not one; the text shows the value, the
/// command names the option.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum InkError {
    #[error("{0:?}: give an ink by name ({names}), gray for black, or cmyk:C,M,Y,K in percent (cmyk:0,100,100,0 for red)", names = ink_names())]
    NotAnInk(String),
    #[error("white is the paper, not an ink: name the ink the sheet is printed in ({names}, or gray for black)", names = ink_names())]
    White,
    #[error("{0:?}: an ink of 0,0,0,0 prints nothing")]
    Blank(String),
    #[error("{0:?} is the name of a process colorant (Cyan, Magenta, Yellow, Black) or a reserved one (All, None): a RIP would put the ink on that plate; name the spot ink as its maker does (\"Bingo Yellow=cmyk:0,10,100,0\", \"PANTONE 116 C=cmyk:0,16,100,0\")")]
    ProcessName(String),
    #[error("{0:?}: a spot ink's name is 1 to 63 printable ASCII characters, as its maker names it (\"PANTONE 116 C\")")]
    SpotName(String),
    #[error("{0:?}: a spot ink is NAME=cmyk:C,M,Y,K (its process alternate in percent), such as \"Bingo Yellow=cmyk:0,10,100,0\"")]
    SpotAlternate(String),
    #[error("{0:?} names a spot ink: give --spot to print it as a plate of its own")]
    NeedsSpot(String),
}

/// The names a spot ink may not take: the process colorants' and the
/// reserved ones (PDF 32000-1, 8.6.6.4), which a RIP maps to its own plates.
const PROCESS_NAMES: [&str; 6] = ["cyan", "magenta", "yellow", "black", "all", "none"];

/// A spot ink's name as its plate is named (`Bingo Yellow`, `PANTONE 116
/// C`): 1 to 63 printable ASCII characters, no process colorant's.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct SpotName {
    bytes: [u8; 63],
    len: u8,
}

impl SpotName {
    pub fn new(name: &str) -> Result<SpotName, InkError> {
        let name = name.trim();
        let shown = || crate::text::clip(name, 60).into_owned();
        if name.is_empty() || name.len() > 63 || !name.bytes().all(|b| (b' '..=b'~').contains(&b)) {
            return Err(InkError::SpotName(shown()));
        }
        if PROCESS_NAMES.contains(&name.to_ascii_lowercase().as_str()) {
            return Err(InkError::ProcessName(shown()));
        }
        let mut bytes = [0; 63];
        bytes[..name.len()].copy_from_slice(name.as_bytes());
        Ok(SpotName {
            bytes,
            len: name.len() as u8,
        })
    }

    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).expect("ASCII")
    }
}

impl std::fmt::Debug for SpotName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

/// Bingo paper's colours by name, one table for the night file's `paper`
/// and print's `--colour` and `--colours`: each one's process ink (CMYK,
/// percent) and its colour on the hall's screens. As inks `gray` and
/// `grey` are black (DeviceGray), as they always were, and white is no
/// ink.
pub const NAMED: [(&str, [u8; 4], &str); 11] = [
    ("white", [0, 0, 0, 0], "#ffffff"),
    ("yellow", [0, 0, 100, 0], "#ffe94d"),
    ("pink", [0, 65, 0, 0], "#ff9fc8"),
    ("blue", [100, 45, 0, 0], "#7fb8ff"),
    ("green", [80, 0, 100, 30], "#8fe08a"),
    ("orange", [0, 55, 100, 0], "#ffb14d"),
    ("red", [0, 100, 100, 0], "#ff6b6b"),
    ("purple", [60, 85, 0, 0], "#c49bff"),
    ("grey", [0, 0, 0, 100], "#c8c8c8"),
    ("gray", [0, 0, 0, 100], "#c8c8c8"),
    ("brown", [30, 60, 90, 25], "#c49a6c"),
];

/// The names an ink may be given.
fn ink_names() -> String {
    (NAMED.iter())
        .filter(|(n, ..)| !matches!(*n, "white" | "gray" | "grey"))
        .map(|(n, ..)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The ink everything is printed in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ink {
    /// Black, DeviceGray.
    Gray,
    /// One CMYK ink, fractions 0–1.
    Cmyk([f32; 4]),
    /// A spot colour: a plate of its own, named (`Bingo Yellow` for a
    /// named ink of [`NAMED`], or as the user names it), its process CMYK
    /// (percent) the alternate.
    Spot { name: SpotName, cmyk: [u8; 4] },
}

impl Ink {
    /// `gray` or `cmyk:C,M,Y,K` (percentages).
    pub fn parse(text: &str) -> Result<Ink, InkError> {
        let lower = text.trim().to_ascii_lowercase();
        match lower.as_str() {
            "gray" | "grey" | "black" => return Ok(Ink::Gray),
            "white" => return Err(InkError::White),
            _ => {}
        }
        if let Some((_, v, _)) = NAMED.iter().find(|(n, ..)| *n == lower) {
            return Ok(Ink::Cmyk(v.map(|p| f32::from(p) / 100.0)));
        }
        if text.contains('=') {
            return Err(InkError::NeedsSpot(
                crate::text::clip(text, 60).into_owned(),
            ));
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

    /// `text` as [`Ink::parse`] reads it, a named ink as a spot colour
    /// (`yellow`: the plate `Bingo Yellow`), and `NAME=cmyk:C,M,Y,K` a spot
    /// ink named as its maker names it, with its process alternate.
    pub fn parse_spot(text: &str) -> Result<Ink, InkError> {
        if let Some((name, alternate)) = text.split_once('=') {
            let name = SpotName::new(name)?;
            let shown = || crate::text::clip(text, 60).into_owned();
            let cmyk = match Ink::parse(alternate.trim()) {
                Ok(Ink::Cmyk(v)) if alternate.trim().starts_with("cmyk:") => {
                    v.map(|f| (f * 100.0).round() as u8)
                }
                _ => return Err(InkError::SpotAlternate(shown())),
            };
            return Ok(Ink::Spot { name, cmyk });
        }
        let lower = text.trim().to_ascii_lowercase();
        match NAMED.iter().find(|(n, ..)| *n == lower) {
            Some((n, cmyk, _)) if !matches!(lower.as_str(), "white" | "gray" | "grey") => {
                let mut name = format!("Bingo {n}");
                name[6..7].make_ascii_uppercase();
                Ok(Ink::Spot {
                    name: SpotName::new(&name)?,
                    cmyk: *cmyk,
                })
            }
            _ => Ink::parse(text),
        }
    }

    /// The ink as process colour, fractions 0–1 (None: black, DeviceGray).
    pub fn process(self) -> Option<[f32; 4]> {
        match self {
            Ink::Gray => None,
            Ink::Cmyk(v) => Some(v),
            Ink::Spot { cmyk, .. } => Some(cmyk.map(|p| f32::from(p) / 100.0)),
        }
    }

    /// A spot ink's colorant name (`Bingo Yellow`, `PANTONE 116 C`), as
    /// the press's plate is named.
    pub fn spot_name(self) -> Option<String> {
        let Ink::Spot { name, .. } = self else {
            return None;
        };
        Some(name.as_str().to_string())
    }

    /// Whether numbers in this ink on white paper are hard to read: less
    /// than 2:1 contrast (yellow's is 1.1:1; black's 21:1).
    pub fn light(self) -> bool {
        let Some([c, m, y, k]) = self.process() else {
            return false;
        };
        // sRGB of the ink on white, made linear, as WCAG weighs it.
        let linear = |v: f32| {
            if v <= 0.04045 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        let (r, g, b) = (
            (1.0 - c) * (1.0 - k),
            (1.0 - m) * (1.0 - k),
            (1.0 - y) * (1.0 - k),
        );
        let lum = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
        1.05 / (lum + 0.05) < 2.0
    }

    /// `tint` (0–1) of the ink, as a fill.
    pub(super) fn tint(self, c: &mut Content, tint: f32) {
        match self {
            Ink::Gray => c.set_fill_gray(1.0 - tint),
            Ink::Cmyk([a, b, d, e]) => c.set_fill_cmyk(a * tint, b * tint, d * tint, e * tint),
            Ink::Spot { .. } => c
                .set_fill_color_space(ColorSpaceOperand::Named(SPOT))
                .set_fill_color([tint]),
        };
    }

    pub(super) fn fill(self, c: &mut Content) {
        match self {
            Ink::Gray => c.set_fill_gray(0.0),
            Ink::Cmyk([a, b, d, e]) => c.set_fill_cmyk(a, b, d, e),
            Ink::Spot { .. } => c
                .set_fill_color_space(ColorSpaceOperand::Named(SPOT))
                .set_fill_color([1.0]),
        };
    }

    pub(super) fn stroke(self, c: &mut Content) {
        match self {
            Ink::Gray => c.set_stroke_gray(0.0),
            Ink::Cmyk([a, b, d, e]) => c.set_stroke_cmyk(a, b, d, e),
            Ink::Spot { .. } => c
                .set_stroke_color_space(ColorSpaceOperand::Named(SPOT))
                .set_stroke_color([1.0]),
        };
    }
}

/// An ink as the slug and the packing list name it: `NAME` of a spot ink
/// given as `NAME=cmyk:…`, else as given.
pub fn ink_name(text: &str) -> String {
    text.split_once('=')
        .map_or(text, |(name, _)| name)
        .trim()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bingo_paper_s_names_are_inks_and_a_light_one_is_told() {
        for (name, v, _) in NAMED {
            match name {
                "white" => assert_eq!(Ink::parse(name), Err(InkError::White)),
                "gray" | "grey" => assert_eq!(Ink::parse(name), Ok(Ink::Gray)),
                _ => assert_eq!(
                    Ink::parse(&name.to_uppercase()),
                    Ok(Ink::Cmyk(v.map(|p| f32::from(p) / 100.0)))
                ),
            }
        }
        let light: Vec<&str> = (NAMED.iter())
            .filter(|(n, ..)| Ink::parse(n).is_ok_and(Ink::light))
            .map(|(n, ..)| *n)
            .collect();
        assert_eq!(light, ["yellow"]);
        assert!(Ink::parse("cmyk:0,0,100,0").unwrap().light());
        assert!(!Ink::parse("cmyk:0,30,100,20").unwrap().light());
        assert!(!Ink::Gray.light());
        let e = Ink::parse("mauve").unwrap_err().to_string();
        assert!(
            e.contains("yellow, pink, blue") && e.contains("cmyk:C,M,Y,K"),
            "{e}"
        );
    }
}
