//! What a board is: its size and lines, its cells (objective, value), the
//! constraints that gave way on it, and how the draw's objectives are
//! weighted. Plain values shared by the engine, the check and the output.

/// Smallest and largest rows or columns.
pub const SIZES: std::ops::RangeInclusive<usize> = 3..=10;

/// Board dimensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    pub rows: usize,
    pub cols: usize,
}

impl Size {
    /// Cells on the board.
    pub fn cells(self) -> usize {
        self.rows * self.cols
    }

    /// Whether diagonals count as lines.
    pub fn square(self) -> bool {
        self.rows == self.cols
    }
}

/// Text that is not a board size (the text).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{0}' is not a board size: use RxC (rows x columns), {least}–{most} each, e.g. 5x5 or 7x5",
    least = SIZES.start(),
    most = SIZES.end()
)]
pub struct SizeError(pub String);

impl std::str::FromStr for Size {
    type Err = SizeError;

    /// `RxC` (rows × columns), 3–10 each; `5` alone means 5x5.
    fn from_str(text: &str) -> Result<Size, SizeError> {
        let lower = text.trim().to_ascii_lowercase();
        let (r, c) = match lower.split_once(['x', '×']) {
            Some((r, c)) => (r.trim(), c.trim()),
            None => (lower.as_str(), lower.as_str()),
        };
        let parse = |s: &str| s.parse::<usize>().ok().filter(|n| SIZES.contains(n));
        match (parse(r), parse(c)) {
            (Some(rows), Some(cols)) => Ok(Size { rows, cols }),
            _ => Err(SizeError(text.to_string())),
        }
    }
}

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

/// How `weighting` acts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weighting {
    /// Lockout's rule: weighting w is the chance (w %) that the objective
    /// joins the pool of a board; picks from the pool are then equally likely.
    Lockout,
    /// Every objective is in the pool; each pick is in proportion to weighting.
    Proportional,
}

/// A line of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// Row r (0-based).
    Row(u8),
    /// Column c (0-based).
    Col(u8),
    /// Top-left to bottom-right.
    Diagonal,
    /// Top-right to bottom-left.
    AntiDiagonal,
}

impl std::fmt::Display for Line {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Line::Row(r) => write!(f, "row {}", r + 1),
            Line::Col(c) => write!(f, "column {}", c + 1),
            Line::Diagonal => f.write_str("diagonal"),
            Line::AntiDiagonal => f.write_str("anti-diagonal"),
        }
    }
}

/// A constraint that gave way. `line` indexes [`crate::boards::engine::Engine::lines`]; `category`
/// indexes the set's board or line categories.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Gave {
    LineCategory { category: u16, line: u8 },
    BoardCategory { category: u16 },
    RepeatInLine { line: u8 },
    IndividualLimit,
}

impl Gave {
    /// Its place in the relaxation order: 1 gives way first, 4 last.
    pub fn level(self) -> usize {
        match self {
            Gave::LineCategory { .. } => 1,
            Gave::BoardCategory { .. } => 2,
            Gave::RepeatInLine { .. } => 3,
            Gave::IndividualLimit => 4,
        }
    }
}

/// A constraint that gave way on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Relaxed {
    pub cell: u16,
    pub gave: Gave,
}

/// One drawn board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Board {
    /// 0 for a first draw; n for the n-th redraw of a duplicate.
    pub attempt: u32,
    /// Row-major cells, each [`pack`]ed (objective, value index).
    pub cells: Vec<u16>,
    /// The constraints that gave way, in the order they did.
    pub relaxed: Vec<Relaxed>,
}

/// Packs objective `k` (< 4096) and its value index (< 16) into a cell.
#[inline]
pub fn pack(k: usize, value: usize) -> u16 {
    ((k << 4) | value) as u16
}

/// The objective and value index of a cell.
#[inline]
pub fn unpack(cell: u16) -> (usize, usize) {
    (usize::from(cell >> 4), usize::from(cell & 15))
}

/// Text that is not a weighting (the text).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a weighting: use lockout or proportional")]
pub struct WeightingError(pub String);

impl std::str::FromStr for Weighting {
    type Err = WeightingError;

    fn from_str(text: &str) -> Result<Weighting, WeightingError> {
        match text {
            "lockout" => Ok(Weighting::Lockout),
            "proportional" => Ok(Weighting::Proportional),
            _ => Err(WeightingError(text.to_string())),
        }
    }
}

/// The board's lines (rows, columns, and on a square board the two
/// diagonals), and the lines through each cell.
pub(super) fn lines_of(size: Size) -> (Vec<Line>, Vec<Vec<u8>>) {
    let mut lines = Vec::new();
    let mut cell_lines = vec![Vec::new(); size.cells()];
    for r in 0..size.rows {
        for c in 0..size.cols {
            cell_lines[r * size.cols + c].push(r as u8);
        }
        lines.push(Line::Row(r as u8));
    }
    for c in 0..size.cols {
        for r in 0..size.rows {
            cell_lines[r * size.cols + c].push(lines.len() as u8);
        }
        lines.push(Line::Col(c as u8));
    }
    if size.square() {
        let n = size.rows;
        for i in 0..n {
            cell_lines[i * n + i].push(lines.len() as u8);
            cell_lines[i * n + (n - 1 - i)].push(lines.len() as u8 + 1);
        }
        lines.push(Line::Diagonal);
        lines.push(Line::AntiDiagonal);
    }
    (lines, cell_lines)
}

/// The set bits of a category mask, lowest first.
pub(super) fn bits(mut m: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            c
        })
    })
}

/// `r2c4`: a cell by 1-based row and column.
pub fn cell_name(size: Size, cell: usize) -> String {
    format!("r{}c{}", cell / size.cols + 1, cell % size.cols + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_and_explain() {
        assert_eq!("7x5".parse(), Ok(Size { rows: 7, cols: 5 }));
        assert_eq!("5".parse(), Ok(Size { rows: 5, cols: 5 }));
        assert!("2x5"
            .parse::<Size>()
            .unwrap_err()
            .to_string()
            .contains("3–10 each"));
        assert!("5x11".parse::<Size>().is_err());
    }
}
