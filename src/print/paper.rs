//! Paper, lengths and the grid of faces on a sheet. All lengths are in PDF
//! points (1/72 inch).

/// Points per millimetre.
const MM: f32 = 72.0 / 25.4;

/// A value users wrote for a length, a paper or a layout that does not
/// read as one; the text shows the value, the command names the option.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ParseError {
    #[error("{0:?}: write a length such as 3mm, 0.25in or 18pt")]
    NotALength(String),
    #[error("{0:?}: the unit must be mm, cm, in or pt (for example 3mm)")]
    Unit(String),
    #[error("{text:?}: must be from 0 to {}in", max / 72.0)]
    OutOfRange { text: String, max: f32 },
    #[error(
        "{0:?}: choose {names} or a size WxH with a unit such as 210x297mm or 8.5x11in",
        names = paper_names().join(", ")
    )]
    NotAPaper(String),
    #[error("{0:?}: at least 2in (51mm) each way")]
    PaperTooSmall(String),
    #[error("{0:?}: at most 100in (2540mm) each way")]
    PaperTooLarge(String),
    #[error(
        "{text:?}: give {counts} a page, or columns x rows such as 3x2 (at most 64 a page)",
        counts = counts.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")
    )]
    NotALayout {
        text: String,
        counts: &'static [usize],
    },
}

/// A length as users write it: `3mm`, `0.25in`, `18pt`, `1cm`, up to 10in.
pub fn length(text: &str) -> Result<f32, ParseError> {
    length_up_to(text, 720.0)
}

/// A length of at most `max` points: a number (`3`, `0.25`, `1e1`) and a
/// unit after it.
fn length_up_to(text: &str, max: f32) -> Result<f32, ParseError> {
    let t = text.trim();
    let split = t
        .rfind(|c: char| c.is_ascii_digit() || c == '.')
        .map_or(0, |i| i + 1);
    let (number, unit) = t.split_at(split);
    let value: f32 = number
        .trim()
        .parse()
        .map_err(|_| ParseError::NotALength(crate::text::clip(text, 60).into_owned()))?;
    let scale = match unit.trim() {
        "mm" => MM,
        "cm" => 10.0 * MM,
        "in" => 72.0,
        "pt" => 1.0,
        _ => return Err(ParseError::Unit(crate::text::clip(text, 60).into_owned())),
    };
    let points = value * scale;
    if !(0.0..=max).contains(&points) || !points.is_finite() {
        return Err(ParseError::OutOfRange {
            text: crate::text::clip(text, 60).into_owned(),
            max,
        });
    }
    Ok(points)
}

/// The named paper sizes, portrait, in points.
pub const PAPERS: [(&str, f32, f32); 8] = [
    ("letter", 612.0, 792.0),
    ("legal", 612.0, 1008.0),
    ("tabloid", 792.0, 1224.0),
    ("a4", 210.0 * MM, 297.0 * MM),
    ("a3", 297.0 * MM, 420.0 * MM),
    ("sra3", 320.0 * MM, 450.0 * MM),
    // Classrooms print on A5 and A6.
    ("a5", 148.0 * MM, 210.0 * MM),
    ("a6", 105.0 * MM, 148.0 * MM),
];

/// The named papers, for messages.
fn paper_names() -> Vec<&'static str> {
    PAPERS.iter().map(|p| p.0).collect()
}

/// A paper size by name or `WxH` with a unit (`210x297mm`, `8.5x11in`).
pub fn paper(text: &str) -> Result<(f32, f32), ParseError> {
    let lower = text.trim().to_ascii_lowercase();
    if let Some(&(_, w, h)) = PAPERS.iter().find(|(name, _, _)| *name == lower) {
        return Ok((w, h));
    }
    let bad = || ParseError::NotAPaper(crate::text::clip(text, 60).into_owned());
    let unit_at = lower
        .rfind(|c: char| c.is_ascii_digit() || c == '.')
        .ok_or_else(bad)?
        + 1;
    let (dims, unit) = lower.split_at(unit_at);
    let (w, h) = dims.split_once('x').ok_or_else(bad)?;
    // Up to 100 inches a side: wide-format presses.
    let side = |v: &str| match length_up_to(&format!("{v}{unit}"), 7200.0) {
        Err(ParseError::OutOfRange { .. }) => Err(ParseError::PaperTooLarge(
            crate::text::clip(text, 60).into_owned(),
        )),
        other => other.map_err(|_| bad()),
    };
    let (w, h) = (side(w)?, side(h)?);
    if w < 144.0 || h < 144.0 {
        return Err(ParseError::PaperTooSmall(
            crate::text::clip(text, 60).into_owned(),
        ));
    }
    Ok((w, h))
}

/// How many faces (or strips) across and down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    pub cols: usize,
    pub rows: usize,
}

impl Grid {
    pub fn per_page(self) -> usize {
        self.cols * self.rows
    }
}

/// `--layout`: `N` (the grid of N that fits best) or `CxR`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    Count(usize),
    Grid(Grid),
}

impl Layout {
    /// `N` (one of `counts`) or `CxR` (at most 64 a page).
    pub fn parse(text: &str, counts: &'static [usize]) -> Result<Layout, ParseError> {
        let bad = || ParseError::NotALayout {
            text: crate::text::clip(text, 60).into_owned(),
            counts,
        };
        if let Some((c, r)) = text.split_once(['x', 'X']) {
            let cols: usize = c.trim().parse().map_err(|_| bad())?;
            let rows: usize = r.trim().parse().map_err(|_| bad())?;
            if cols == 0 || rows == 0 || cols * rows > 64 {
                return Err(bad());
            }
            return Ok(Layout::Grid(Grid { cols, rows }));
        }
        let n: usize = text.trim().parse().map_err(|_| bad())?;
        if !counts.contains(&n) {
            return Err(bad());
        }
        Ok(Layout::Count(n))
    }
}

/// A face's shape in cells: its width and height in units of a grid cell
/// (the cell's size is what a layout decides).
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub width: f32,
    pub height: f32,
}

/// The best grid of `n` for an area of `w` × `h` with `gap` between faces
/// of `shape`, and the cell size it allows.
pub fn best_grid(n: usize, w: f32, h: f32, gap: f32, shape: Shape) -> (Grid, f32) {
    // Every grid of `cols` columns that holds n in whole rows; one whose
    // last row is short (3 in a 2×2) wins only by more than 2 %, so a full
    // grid is kept when it is as good.
    let mut best = (Grid { cols: 1, rows: n }, f32::MIN);
    for cols in 1..=n {
        let grid = Grid {
            cols,
            rows: n.div_ceil(cols),
        };
        let cell = cell_size(grid, w, h, gap, shape);
        let weighed = if grid.per_page() == n {
            cell
        } else {
            cell / 1.02
        };
        if weighed > best.1 {
            best = (grid, weighed);
        }
    }
    (best.0, cell_size(best.0, w, h, gap, shape))
}

/// The cell size a grid of faces allows in `w` × `h`.
pub fn cell_size(grid: Grid, w: f32, h: f32, gap: f32, shape: Shape) -> f32 {
    let fw = (w - gap * (grid.cols as f32 - 1.0)) / grid.cols as f32;
    let fh = (h - gap * (grid.rows as f32 - 1.0)) / grid.rows as f32;
    (fw / shape.width).min(fh / shape.height)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_and_papers() {
        assert!((length("3mm").unwrap() - 8.503937).abs() < 1e-4);
        assert_eq!(length("0.5in").unwrap(), 36.0);
        assert_eq!(length("1e1mm").unwrap(), length("10mm").unwrap());
        assert_eq!(length(" 3 mm ").unwrap(), length("3mm").unwrap());
        assert_eq!(length("3"), Err(ParseError::Unit("3".into())));
        assert_eq!(length("mm"), Err(ParseError::NotALength("mm".into())));
        assert!(length("11in")
            .unwrap_err()
            .to_string()
            .contains("from 0 to 10in"));
        assert_eq!(paper("Letter").unwrap(), (612.0, 792.0));
        assert_eq!(paper("8.5x11in").unwrap(), (612.0, 792.0));
        let a4 = paper("210x297mm").unwrap();
        assert!((a4.0 - 595.2756).abs() < 1e-3 && (a4.1 - 841.8898).abs() < 1e-3);
        assert!(paper("b5")
            .unwrap_err()
            .to_string()
            .contains("letter, legal"));
    }

    #[test]
    fn the_grid_with_the_largest_cells_wins() {
        let shape = Shape {
            width: 5.0,
            height: 7.0,
        };
        // 2x3: min(270/5, 234/7) = 33.4 pt cells; 3x2: min(174/5, 360/7) = 34.8.
        let (grid, cell) = best_grid(6, 558.0, 738.0, 18.0, shape);
        assert_eq!(grid, Grid { cols: 3, rows: 2 });
        assert!((cell - 34.8).abs() < 1e-4);
        assert_eq!(
            Layout::parse("3x2", &[6]).unwrap(),
            Layout::Grid(Grid { cols: 3, rows: 2 })
        );
        assert!(Layout::parse("7", &[1, 2, 6]).is_err());
    }
}
