//! What a game is, as data: its [`Facts`] (names, shape, balls, free cells,
//! column letters, patterns, how its records sit on paper) and the [`Face`]
//! every other module plays, prints and shows. Each game module holds one
//! `FACTS` constant; [`super::Spec::facts`] hands it out, so nothing outside
//! `game/` needs to know which game it holds.

use super::patterns::Builtin;

/// The fixed facts of a game (the same for every parameter set).
#[derive(Debug)]
pub struct Facts {
    /// `75-ball`.
    pub short_name: &'static str,
    /// As `info` prints it: `75-ball (US, 5×5, free centre)`.
    pub describe: &'static str,
    /// What one record is called: card or strip.
    pub noun: &'static str,
    /// What one playing face is called: card or ticket.
    pub face_noun: &'static str,
    /// Faces per record.
    pub faces: usize,
    /// Rows and columns of a face.
    pub rows: usize,
    pub cols: usize,
    /// Numbers run from 1 to this.
    pub balls: u8,
    /// Cells marked before any call (the free centre), a bit per cell,
    /// row-major; blanks (a 0 on a face) are always marked too.
    pub free: u32,
    /// Column letters shown above a face (B I N G O), or none.
    pub letters: &'static [&'static str],
    /// The built-in win patterns, in the order `patterns` lists them.
    pub patterns: &'static [Builtin],
    /// How a record is laid out on paper.
    pub paper: Paper,
}

/// Where a face's identity (its number, series, file id, QR code) is
/// printed: under the face (a card) or over it (a ticket of a strip).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelAt {
    Above,
    Below,
}

/// A record on paper, in cells (a number's box): its faces stacked top to
/// bottom, each with its identity above or below it, a band of column
/// letters over a face when the game has letters.
#[derive(Clone, Copy, Debug)]
pub struct Paper {
    /// The counts `--layout N` takes: records a sheet.
    pub layouts: &'static [usize],
    /// The layout when none is asked for.
    pub default_layout: usize,
    /// Where each face's identity goes.
    pub label_at: LabelAt,
    /// The identity's height, without and with a QR code.
    pub label: (f32, f32),
    /// The space between two faces of a record.
    pub gap: f32,
}

/// Most cells on one face (a 90-ball ticket has 27).
pub const MAX_FACE_CELLS: usize = 27;

/// [`Face::star`] of a face without a star.
pub const NO_STAR: u8 = u8::MAX;

/// One playing face (a 75-ball card, a 90-ball ticket) as a grid of numbers,
/// row-major, 0 for a blank or a free cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Face {
    pub rows: u8,
    pub cols: u8,
    pub cells: [u8; MAX_FACE_CELLS],
    /// The cell (row-major) printed with a star, or [`NO_STAR`].
    pub star: u8,
}

impl Face {
    /// An empty face of `rows` × `cols`, without a star.
    pub fn new(rows: usize, cols: usize) -> Face {
        debug_assert!(rows * cols <= MAX_FACE_CELLS);
        Face {
            rows: rows as u8,
            cols: cols as u8,
            cells: [0; MAX_FACE_CELLS],
            star: NO_STAR,
        }
    }

    /// The number at (row, col), 0 for none.
    pub fn at(&self, row: usize, col: usize) -> u8 {
        self.cells[row * usize::from(self.cols) + col]
    }

    /// The row-major cells.
    pub fn numbers(&self) -> &[u8] {
        &self.cells[..usize::from(self.rows) * usize::from(self.cols)]
    }

    /// The star's cell as (row, column), if the face has one.
    pub fn star_at(&self) -> Option<(usize, usize)> {
        let cols = usize::from(self.cols);
        (self.star != NO_STAR)
            .then(|| (usize::from(self.star) / cols, usize::from(self.star) % cols))
    }
}
