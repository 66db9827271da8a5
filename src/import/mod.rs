//! `import`: other makers' card and ticket files as a bingomint card file,
//! so that a hall's own paper can be checked, scanned for winners, played in
//! the hall and excluded from new batches.
//!
//! Two passes over the source, a face at a time ([`read`]), memory flat but
//! for the exact keys:
//!
//! 1. **judge**: every face against its game's rules ([`Game::decode`] of
//!    a one-face record, and [`Game::strict_faults`]), every duplicate by
//!    exact key, the numbering, a 75-ball file's stars, and whether 90-ball
//!    tickets form strips (six consecutive tickets holding 1–90 once);
//! 2. **write**: the faces again, into a temporary file sealed in blocks as
//!    `generate` seals them, its header (native format version 3) carrying
//!    the provenance; published only when whole.
//!
//! A file that breaks a rule, or holds a duplicate, is refused with every
//! face named (exit 2), unless the options say otherwise.

pub mod columns;
mod json;
mod judge;
pub mod read;
mod tall;
mod write;

use crate::cardfile::header::{Provenance, SourceDateEpochError};
use crate::cardfile::serials::Written;
use crate::cardfile::writer::WriteError;
use crate::game::{Face, Spec};
use read::Layout;
use std::path::Path;

/// The longest line (a row of a table, a line of text) or JSON element
/// the import reads: far past any face or strip, and a bound on memory
/// whatever the source holds.
pub const MAX_LINE: u64 = 1 << 20;

/// Progress: bytes of the source read.
pub type Tick<'a> = &'a (dyn Fn(u64) + Sync);

/// A face's shape and what its cells may hold, as the readers need it.
pub struct Shape {
    pub rows: usize,
    pub cols: usize,
    pub balls: u8,
    /// Free cells, a bit per row-major cell.
    pub free: u32,
    pub letters: &'static [&'static str],
    /// Faces a strip holds (a line or value may hold a whole strip), or 1.
    pub strip: usize,
    pub short_name: &'static str,
}

impl Shape {
    /// The shape of `spec`'s faces.
    pub fn of(spec: Spec) -> Shape {
        let facts = spec.facts();
        Shape {
            rows: facts.rows,
            cols: facts.cols,
            balls: facts.balls,
            free: facts.free,
            letters: facts.letters,
            strip: facts.faces,
            short_name: facts.short_name,
        }
    }

    /// A cell's name: `G4` (a game with letters), else `r2c3`.
    pub fn cell_name(&self, cell: usize) -> String {
        let (r, c) = (cell / self.cols, cell % self.cols);
        match self.letters.get(c) {
            Some(letter) => format!("{letter}{}", r + 1),
            None => format!("r{}c{}", r + 1, c + 1),
        }
    }

    /// The cell a name such as `G4` or `r2c3` names.
    pub fn cell_named(&self, name: &str) -> Option<usize> {
        let name = name.trim();
        (0..self.rows * self.cols).find(|&c| self.cell_name(c).eq_ignore_ascii_case(name))
    }

    /// How many whole faces `values` numbers make, written row by row: a
    /// face's cells, its cells but the free ones, or a strip's faces; 0 for
    /// none of these.
    pub fn faces_in(&self, values: usize) -> usize {
        let cells = self.rows * self.cols;
        if values == cells || (self.free != 0 && values == cells - self.free.count_ones() as usize)
        {
            1
        } else if self.strip > 1 && values == cells * self.strip {
            self.strip
        } else {
            0
        }
    }

    /// A face of `values` row by row: every cell, or every cell but the
    /// free ones.
    pub fn face_from(&self, values: &[(u8, bool)]) -> Face {
        let mut face = Face::new(self.rows, self.cols);
        let cells = (0..self.rows * self.cols)
            .filter(|&c| values.len() == self.rows * self.cols || self.free >> c & 1 == 0);
        for (cell, &(n, star)) in cells.zip(values) {
            face.cells[cell] = n;
            if star {
                face.star = cell as u8;
            }
        }
        face
    }
}

/// Where in a source something was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bad {
    kind: &'static str,
    n: u64,
    column: Option<usize>,
}

impl Bad {
    pub fn line(n: u64) -> Bad {
        Bad {
            kind: "line",
            n,
            column: None,
        }
    }
    pub fn element(n: u64) -> Bad {
        Bad {
            kind: "value",
            n,
            column: None,
        }
    }
    pub fn record(n: u64) -> Bad {
        Bad {
            kind: "record",
            n,
            column: None,
        }
    }
    pub fn flag(name: &'static str) -> Bad {
        Bad {
            kind: name,
            n: 0,
            column: None,
        }
    }
    /// The number of the line, value or record.
    pub fn number(self) -> u64 {
        self.n
    }

    /// The same kind of place, numbered `n`.
    pub fn at(self, n: u64) -> Bad {
        Bad {
            n,
            column: None,
            ..self
        }
    }

    /// The same place, at column (or field) `c` from 1.
    pub fn column(self, c: usize) -> Bad {
        Bad {
            column: Some(c),
            ..self
        }
    }
}

impl std::fmt::Display for Bad {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        if self.kind.starts_with("--") {
            return f.write_str(self.kind);
        }
        write!(f, "{} {}", self.kind, self.n)?;
        match (self.column, self.kind) {
            (Some(c), "line") => write!(f, ", column {c}"),
            (Some(c), _) => write!(f, ", cell {c}"),
            (None, _) => Ok(()),
        }
    }
}

/// How a source was read, in words, and whether it numbered its faces.
pub struct Describe {
    pub layout: String,
    pub numbered_by: Option<String>,
}

/// One face read from a source.
#[derive(Clone, Debug)]
pub struct Item {
    pub at: Bad,
    /// The source's own number for it (its serial as printed), if it
    /// gives one.
    pub number: Option<Written>,
    pub face: Face,
}

/// A source being read.
pub struct Source<'a> {
    pub path: &'a Path,
    pub shape: Shape,
    pub columns: Option<&'a str>,
    pub by_columns: bool,
    pub progress: Tick<'a>,
}

impl Source<'_> {
    fn name(&self) -> String {
        self.path.display().to_string()
    }

    fn io(&self, source: std::io::Error) -> ImportError {
        ImportError::Io {
            path: self.name(),
            source,
        }
    }

    fn bad(&self, at: Bad, why: String) -> ImportError {
        ImportError::Bad {
            path: self.name(),
            at: at.to_string(),
            why,
        }
    }

    fn not_cards(&self, why: &str) -> ImportError {
        ImportError::NotCards {
            path: self.name(),
            why: why.to_string(),
        }
    }

    /// A cell's text as (number, starred); an error names the place.
    fn cell(&self, text: &str, at: Bad) -> Result<(u8, bool), ImportError> {
        let balls = self.shape.balls;
        match read::cell(text) {
            Some((n, star)) if n <= balls => Ok((n, star)),
            Some((n, _)) => Err(self.bad(
                at,
                format!(
                    "{n} is out of range: {} numbers run 1–{balls}",
                    self.shape.short_name
                ),
            )),
            None => Err(self.bad(
                at,
                format!(
                    "{:?} is not a number or a blank (empty, 0, FREE, *)",
                    crate::text::clip(text, 30)
                ),
            )),
        }
    }
}

/// Why an import stopped; nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("cannot read '{path}'")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// A place in the source that cannot be read as the game's faces.
    #[error("'{path}', {at}: {why}")]
    Bad {
        path: String,
        at: String,
        why: String,
    },
    #[error("'{path}' is not a card or ticket list: {why}")]
    NotCards { path: String, why: String },
    /// A card file whose checksums fail: nothing is read from it.
    #[error("{0}; run `bingomint verify` on it (import reads only sound card files)")]
    Damaged(#[from] crate::cardfile::FileError),
    /// Faces that break the rules or repeat: the whole report.
    #[error("{0}")]
    Refused(String),
    #[error(transparent)]
    Write(#[from] WriteError),
    #[error(transparent)]
    Date(#[from] SourceDateEpochError),
}

/// What to do with a face that repeats an earlier one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Duplicates {
    /// Refuse the file, naming each (the default).
    Refuse,
    /// Keep the first, leave out the rest (faces then numbered in order).
    Drop,
}

/// What to import and how.
pub struct Options<'a> {
    /// The game: 75-ball (star from the source), 80-ball, or 90-ball under
    /// a rule set (strips when the tickets form them).
    pub game: Spec,
    /// Keep faces that break layout rules but are valid to play.
    pub loose: bool,
    /// The source's layout, or None to tell from its bytes and name.
    pub layout: Option<Layout>,
    /// Number faces 1, 2, … in file order, whatever the source says.
    pub renumber: bool,
    pub duplicates: Duplicates,
    pub out: &'a Path,
    pub force: bool,
}

/// What an import made.
#[derive(Clone, Debug)]
pub struct Imported {
    pub spec: Spec,
    /// Records written (cards, tickets or strips).
    pub records: u64,
    /// Faces written.
    pub faces: u64,
    pub first_face: u64,
    pub provenance: Provenance,
    /// Faces that break the strict rules (a loose import), as reported.
    pub breaking: Vec<String>,
    /// Duplicates left out (`Duplicates::Drop`), as reported.
    pub dropped: Vec<String>,
    /// Why 90-ball tickets were stored as single tickets, not strips.
    pub not_strips: Option<String>,
}

/// Whether `head` is UTF-16 text: a byte-order mark, or ASCII with a zero
/// byte beside every character.
fn utf16(head: &[u8]) -> Option<&'static str> {
    match head {
        [0xff, 0xfe, ..] => return Some("UTF-16 (little-endian)"),
        [0xfe, 0xff, ..] => return Some("UTF-16 (big-endian)"),
        _ => {}
    }
    let pairs = head.len() / 2;
    let zeros_at = |odd: usize| (0..pairs).filter(|i| head[2 * i + odd] == 0).count();
    if pairs >= 8 && zeros_at(1) == pairs && zeros_at(0) == 0 {
        Some("UTF-16 (little-endian, no byte-order mark)")
    } else if pairs >= 8 && zeros_at(0) == pairs && zeros_at(1) == 0 {
        Some("UTF-16 (big-endian, no byte-order mark)")
    } else {
        None
    }
}

/// The layout of `source`, told from its first bytes and its name; UTF-16
/// and binary sources are refused, named for what they are.
fn sniff(source: &Source) -> Result<Layout, ImportError> {
    let mut head = vec![0u8; 4096];
    let mut file = std::fs::File::open(source.path).map_err(|e| source.io(e))?;
    let n = std::io::Read::read(&mut file, &mut head).map_err(|e| source.io(e))?;
    head.truncate(n);
    let layout = Layout::sniff(source.path, &head);
    if let Some(which) = utf16(&head).filter(|_| layout != Layout::Cards) {
        return Err(source.not_cards(&format!(
            "it is {which} text; save it as UTF-8 (a spreadsheet's \"CSV UTF-8\", or \
             iconv -f UTF-16 -t UTF-8 FILE > FILE.csv) and import that"
        )));
    }
    if layout != Layout::Cards && head.contains(&0) {
        return Err(source
            .not_cards("it is binary, not text (CSV, JSON, a list of numbers) or a card file"));
    }
    Ok(layout)
}

/// The game a source's faces are for, when the command names none: the
/// first of 75-, 80- and 90-ball whose shape the source's first face reads
/// in (a 75-ball card has 24 or 25 cells, an 80-ball card 16, a ticket 27;
/// numbers past a game's balls do not read). None: it reads as none.
pub fn sniff_game(source: &Source, layout: Option<Layout>) -> Option<Spec> {
    let layout = match layout {
        Some(layout) => layout,
        None => sniff(source).ok()?,
    };
    ["75", "80", "90"].into_iter().find_map(|game| {
        let spec = Spec::named(game)?;
        let trial = Source {
            shape: Shape::of(spec),
            ..*source
        };
        let mut read_one = false;
        // The first face is enough: stop there.
        let _ = read::read(&trial, layout, &mut |_| {
            read_one = true;
            Err(ImportError::Refused(String::new()))
        });
        read_one.then_some(spec)
    })
}

impl Imported {
    /// The faces' numbers: `1–20`, or `CH-04512–CH-04566 in 19 runs (gaps kept)`.
    pub fn numbers(&self) -> String {
        (self.provenance.serials.as_ref()).map_or_else(
            || format!("{}–{}", self.first_face, self.first_face + self.faces - 1),
            |s| s.describe(),
        )
    }

    /// What to tell of a source that numbers none of its faces.
    pub fn numbering_note(&self) -> Option<String> {
        let noun = self.spec.face_noun();
        (self.provenance.numbering == "order in the file").then(|| {
            format!(
                "gives no serial or number for its {noun}s (no column or label such as \
                 Serial No., Card, No.): they are numbered 1, 2, … in file order; if the \
                 paper carries serials, name their column with --columns"
            )
        })
    }
}

/// Imports `source` as `options` say, publishing the card file at `out`.
pub fn import(source: &Source, options: &Options) -> Result<Imported, ImportError> {
    let layout = match options.layout {
        Some(layout) => layout,
        None => sniff(source)?,
    };
    let sha256 = crate::input::sha256_file(source.path).map_err(|e| source.io(e))?;
    let judge = options.game.lenient();
    let judged = judge.visit(judge::Judge {
        source,
        options,
        layout,
    })?;
    let spec = judged.spec(options);
    let provenance = Provenance {
        source: source
            .path
            .file_name()
            .map_or_else(|| source.name(), |n| n.to_string_lossy().into_owned()),
        sha256,
        layout: judged.describe.layout.clone(),
        numbering: match (&judged.describe.numbered_by, options.renumber) {
            (Some(by), false) => by.clone(),
            (Some(_), true) => "order in the file (--renumber)".into(),
            (None, _) => "order in the file".into(),
        },
        rules: if judged.breaking.total > 0 {
            "loose"
        } else {
            "strict"
        }
        .into(),
        breaking: judged.breaking.total,
        serials: judged.serials.clone(),
    };
    let first_face = judged.first_face;
    let provenance_bytes = serde_json::to_vec(&provenance).expect("plain fields");
    // Every field is bounded (column names cut and counted), so this holds;
    // checked, as a file past it could not be read back.
    if provenance_bytes.len() > crate::cardfile::header::MAX_PROVENANCE as usize {
        let runs = judged.serials.as_ref().map_or(String::new(), |s| {
            format!(
                " (its serials fall in {} runs of numbers one after another: \
                 import each series apart, or add --renumber)",
                s.runs.len()
            )
        });
        return Err(source.not_cards(&format!(
            "its description takes {} bytes, more than a card file keeps ({}){runs}",
            provenance_bytes.len(),
            crate::cardfile::header::MAX_PROVENANCE
        )));
    }
    judge.visit(write::Write {
        source,
        options,
        layout,
        judged: &judged,
        spec,
        provenance: provenance_bytes,
    })?;
    let faces = judged.kept;
    Ok(Imported {
        spec,
        records: faces / spec.faces() as u64,
        faces,
        first_face,
        provenance,
        breaking: judged.breaking.lines,
        dropped: judged.dropped_lines.lines,
        not_strips: judged.not_strips,
    })
}
