//! Cards of a card file for people and other programs: `export` (lines:
//! txt, CSV, JSON Lines) and `show` (grids), for any game, through the
//! game's own [`Text`] renderings; the output formats users name, one
//! [`Format`] for every command; and the small text helpers the games'
//! renderings share (boxed grids, number lines, CSV fields).

use crate::cardfile::CardFile;
use crate::game::{Game, Text, Visit};
use std::fmt::Write as _;
use std::io::{self, Write};
use std::ops::RangeInclusive;

/// An output format, by the name users type (`--format`). Each command
/// accepts the ones it can write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// An aligned grid per card or board, for people.
    Text,
    /// Numbers only, a card per line (`export`).
    Txt,
    /// Comma-separated values with a header row.
    Csv,
    /// One JSON array.
    Json,
    /// One JSON object per line.
    Jsonl,
    /// BingoSync's custom board (`boards`, 5x5, one board).
    Bingosync,
}

/// Text that names no output format (the text).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not an output format")]
pub struct FormatError(pub String);

impl std::str::FromStr for Format {
    type Err = FormatError;

    fn from_str(text: &str) -> Result<Format, FormatError> {
        Ok(match text {
            "text" => Format::Text,
            "txt" => Format::Txt,
            "csv" => Format::Csv,
            "json" => Format::Json,
            "jsonl" => Format::Jsonl,
            "bingosync" => Format::Bingosync,
            _ => return Err(FormatError(text.to_string())),
        })
    }
}

/// Why an export stopped.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// A record breaks its game's rules: the file is damaged.
    #[error("{noun} {number} in '{path}' is damaged: {why}")]
    Damaged {
        noun: &'static str,
        number: u64,
        path: String,
        why: String,
    },
    /// `format` is not one `export` writes.
    #[error("export writes txt, csv or jsonl, not {0:?}")]
    Unsupported(Format),
    /// Writing failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// Writes cards `range` (1-based, inclusive, within the file) of `file` to
/// `out` in `format` (txt, csv or jsonl).
pub fn export(
    file: &CardFile,
    range: &[RangeInclusive<u64>],
    format: Format,
    out: &mut dyn Write,
) -> Result<(), ExportError> {
    if !matches!(format, Format::Txt | Format::Csv | Format::Jsonl) {
        return Err(ExportError::Unsupported(format));
    }
    file.header().spec.visit(Export {
        file,
        range,
        format,
        out,
        merge: None,
    })
}

/// The identity `print` puts on each face, as columns for a data-merge tool
/// (`export --format csv --layout N --series TEXT`).
#[derive(Clone, Debug)]
pub struct Merge {
    /// The series text (`print --series`; default the file's id).
    pub series: String,
    /// The file's short id.
    pub file_id: String,
    /// Cards (or strips) a sheet, in `print`'s sequential order.
    pub per_sheet: u64,
}

/// CSV of cards `range` with, after the game's own columns, `series`,
/// `file_id`, `sheet` and `position` (on the sheet, from 1) as `print
/// --order sequential` places them from the first card of the range.
pub fn export_for_merge(
    file: &CardFile,
    range: &[RangeInclusive<u64>],
    merge: &Merge,
    out: &mut dyn Write,
) -> Result<(), ExportError> {
    file.header().spec.visit(Export {
        file,
        range,
        format: Format::Csv,
        out,
        merge: Some(merge),
    })
}

struct Export<'a> {
    file: &'a CardFile,
    /// Runs of records, in order.
    range: &'a [RangeInclusive<u64>],
    format: Format,
    out: &'a mut dyn Write,
    merge: Option<&'a Merge>,
}

impl Visit for Export<'_> {
    type Out = Result<(), ExportError>;

    fn visit<G: Text>(self, game: &G) -> Result<(), ExportError> {
        let Export {
            file,
            range,
            format,
            out,
            merge,
        } = self;
        if format == Format::Csv {
            let mut csv = csv::WriterBuilder::new().from_writer(out);
            let mut header = game.csv_header();
            if merge.is_some() {
                header.extend(["series", "file_id", "sheet", "position"].map(String::from));
            }
            csv.write_record(header).map_err(csv_error)?;
            let mut row = csv::StringRecord::new();
            let header = file.header();
            for (at, n) in range.iter().flat_map(|r| r.clone()).enumerate() {
                let at = at as u64;
                let card = decode(file, game, n)?;
                for face in 0..game.spec().faces() {
                    row.clear();
                    // An imported file's serial as printed, kept safe from
                    // a spreadsheet's formulas.
                    let serial = header.serial(header.face_number(n, face));
                    let serial = crate::text::spreadsheet_safe(&serial);
                    game.csv_row(n, &serial, &card, face, &mut row);
                    if let Some(m) = merge {
                        row.push_field(&crate::text::spreadsheet_safe(&m.series));
                        row.push_field(&m.file_id);
                        row.push_field(&(at / m.per_sheet + 1).to_string());
                        row.push_field(&(at % m.per_sheet + 1).to_string());
                    }
                    csv.write_record(&row).map_err(csv_error)?;
                }
            }
            csv.flush()?;
            return Ok(());
        }
        let mut line = String::with_capacity(512);
        let header = file.header();
        let printed = (header.serials()).filter(|s| !s.prefix.is_empty() || s.width > 0);
        for n in range.iter().flat_map(|r| r.clone()) {
            let card = decode(file, game, n)?;
            line.clear();
            match format {
                Format::Jsonl => {
                    game.json_line(file.record_name(n), &card, &mut line);
                    // A face's serial as printed, when more than its number.
                    if let Some(s) = printed.filter(|_| game.spec().faces() == 1) {
                        let text = serde_json::to_string(&s.text(header.face_number(n, 0)))
                            .expect("a string is JSON");
                        line.replace_range(..1, &format!("{{\"serial\":{text},"));
                    }
                }
                _ => game.txt_line(&card, &mut line),
            }
            out.write_all(line.as_bytes())?;
        }
        Ok(())
    }
}

fn csv_error(e: csv::Error) -> ExportError {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => ExportError::Io(e),
        other => ExportError::Io(io::Error::other(format!("{other:?}"))),
    }
}

/// Card `n` of `file`, decoded and checked.
fn decode<G: Game>(file: &CardFile, game: &G, n: u64) -> Result<G::Card, ExportError> {
    let record = file.record(n).expect("the range is within the file");
    game.decode(record).map_err(|why| ExportError::Damaged {
        noun: game.spec().noun(),
        number: n,
        path: file.path().to_string(),
        why: why.0,
    })
}

/// Card (or strip) `n` of `file` as `show` prints it: a heading line, then
/// the grid of each face, or of face `only` (0-based) alone.
pub fn show(file: &CardFile, n: u64, only: Option<usize>) -> Result<String, ExportError> {
    file.header().spec.visit(Show { file, n, only })
}

struct Show<'a> {
    file: &'a CardFile,
    n: u64,
    only: Option<usize>,
}

impl Visit for Show<'_> {
    type Out = Result<String, ExportError>;

    fn visit<G: Text>(self, game: &G) -> Result<String, ExportError> {
        let Show { file, n, only } = self;
        let spec = game.spec();
        let card = decode(file, game, n)?;
        let count = file.header().count;
        let mut out = String::new();
        if spec.faces() == 1 {
            let h = file.header();
            let name = h.serial(file.record_name(n));
            let (first, last) = (*h.face_range().start(), *h.face_range().end());
            let of = match first {
                1 => count.to_string(),
                _ => format!("{} to {}", h.serial(first), h.serial(last)),
            };
            let _ = writeln!(out, "{} {name} of {of} ({})", spec.noun(), file.path());
            out.push_str(&game.grid(&card, 0));
        } else {
            let faces = spec.faces() as u64;
            let first = file.header().face_number(n, 0);
            let _ = writeln!(
                out,
                "{} {n} of {count} ({}, {}): {}s {first}–{}",
                spec.noun(),
                file.path(),
                spec.parameters(),
                spec.face_noun(),
                first + faces - 1
            );
            for face in 0..spec.faces() {
                if only.is_none_or(|o| o == face) {
                    let serial = file.header().serial(file.header().face_number(n, face));
                    let _ = writeln!(out, "{} {serial}", spec.face_noun());
                    out.push_str(&game.grid(&card, face));
                }
            }
        }
        if let Some(legend) = game.legend(&card) {
            let _ = writeln!(out, "{legend}");
        }
        Ok(out)
    }
}

/// A range of records that cannot be read or is not in the file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}: {problem}", crate::text::clip(text, 40))]
pub struct RangeError {
    pub text: String,
    pub problem: RangeProblem,
}

/// What is wrong with a [`RangeError`]'s range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RangeProblem {
    /// The file holds no records (called that).
    #[error("the file holds no {0}s")]
    Empty(String),
    #[error("the first card comes after the last")]
    Backwards,
    /// Runs of a list that go back or overlap.
    #[error("the runs of a list come in order without overlapping, as in 1..3,7..8")]
    OutOfOrder,
    /// An end names no face or record of the file (why).
    #[error("{0}")]
    Reference(String),
}
