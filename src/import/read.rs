//! Reading other makers' files, a face at a time, memory flat whatever the
//! file's size: CSV/TSV with a header (or `--columns`), JSON (an array or
//! one value a line), plain text grids, and card files (v3 or native).
//!
//! A cell is a number, or a blank: empty, `0`, `FREE`, `*`, `-`, `.`,
//! `x`, `null`. A number followed by `*` (`12*`) carries the star.

use super::columns::{self, Columns, Role};
use super::tall::Tall;
use super::{Bad, Describe, ImportError, Item, Source, MAX_LINE};
use crate::cardfile::serials::Written;
use crate::cardfile::CardFile;
use crate::game::Face;
use std::io::{BufRead, BufReader, Read};

/// A source's layout, as `--format` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    Csv,
    Tsv,
    Json,
    Text,
    Cards,
}

impl Layout {
    /// The layout `--format` names.
    pub fn named(name: &str) -> Option<Layout> {
        Some(match name {
            "csv" => Layout::Csv,
            "tsv" => Layout::Tsv,
            "json" | "jsonl" => Layout::Json,
            "text" | "txt" => Layout::Text,
            "cards" | "v3" | "bmc" => Layout::Cards,
            _ => return None,
        })
    }

    /// The layout of `path`: by its first bytes (a card file's header, a
    /// JSON bracket, a tab or comma in a first line with a name in it),
    /// else by its extension, else text.
    pub fn sniff(path: &std::path::Path, head: &[u8]) -> Layout {
        if head.starts_with(crate::cardfile::header::MAGIC)
            || (head.len() >= 16
                && head[..4] == [3, 0, 0, 0]
                && head[8..16] == [128, 0, 0, 0, 25, 0, 0, 0])
        {
            return Layout::Cards;
        }
        let text = String::from_utf8_lossy(head);
        let text = text.trim_start_matches('\u{feff}').trim_start();
        if text.starts_with('[') || text.starts_with('{') {
            return Layout::Json;
        }
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let first = text.lines().next().unwrap_or("");
        let named = first.chars().any(|c| c.is_ascii_alphabetic());
        match ext.to_ascii_lowercase().as_str() {
            "tsv" | "tab" => Layout::Tsv,
            "csv" => Layout::Csv,
            "json" | "jsonl" | "ndjson" => Layout::Json,
            _ if named && first.contains('\t') => Layout::Tsv,
            _ if named && (first.contains(',') || first.contains(';')) => Layout::Csv,
            _ => Layout::Text,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Layout::Csv => "csv",
            Layout::Tsv => "tsv",
            Layout::Json => "json",
            Layout::Text => "text",
            Layout::Cards => "card file",
        }
    }
}

/// A cell as written: Some((number, starred)), 0 for a blank; None when
/// it is neither.
pub fn cell(text: &str) -> Option<(u8, bool)> {
    let t = text.trim();
    match t.to_ascii_lowercase().as_str() {
        "" | "free" | "*" | "-" | "." | "x" | "null" | "blank" => return Some((0, false)),
        _ => {}
    }
    let (t, star) = match t.strip_suffix('*') {
        Some(rest) => (rest.trim(), true),
        None => (t, false),
    };
    t.parse::<u8>().ok().map(|n| (n, star && n != 0))
}

/// Counts the bytes read through it, for progress, and refuses a line
/// longer than [`MAX_LINE`] (JSON: an element, whose reader sets `run` to
/// 0 after each).
struct Counted<'a, R> {
    inner: R,
    read: u64,
    tick: u64,
    progress: super::Tick<'a>,
    /// Bytes of the line (or JSON element) being read so far.
    run: std::rc::Rc<std::cell::Cell<u64>>,
    /// Lines end at a newline (tables, text); else only `since` moves.
    by_lines: bool,
}

/// The error a line past [`MAX_LINE`] gives (its kind: `FileTooLarge`).
fn too_long() -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::FileTooLarge,
        format!(
            "a line (or JSON element) longer than {} MiB: no face is that long; is this the right file?",
            MAX_LINE >> 20
        ),
    )
}

impl<R: Read> Read for Counted<'_, R> {
    /// Reads on, leaving out carriage returns: lines end with LF or CRLF
    /// alike, and are counted the same.
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            let n = self.inner.read(buf)?;
            self.read += n as u64;
            if self.read - self.tick >= 1 << 20 || n == 0 {
                (self.progress)(self.read - self.tick);
                self.tick = self.read;
            }
            let mut kept = 0;
            let mut run = self.run.get();
            for i in 0..n {
                if buf[i] != b'\r' {
                    buf[kept] = buf[i];
                    kept += 1;
                }
                run += 1;
                if self.by_lines && buf[i] == b'\n' {
                    run = 0;
                }
            }
            self.run.set(run);
            if run > MAX_LINE {
                return Err(too_long());
            }
            if kept > 0 || n == 0 {
                return Ok(kept);
            }
        }
    }
}

/// Reads `source` in `layout`, calling `each` with every face in order.
pub fn read(
    source: &Source,
    layout: Layout,
    each: &mut dyn FnMut(Item) -> Result<(), ImportError>,
) -> Result<Describe, ImportError> {
    let path = source.path;
    if layout == Layout::Cards {
        return cards(source, each);
    }
    let file = std::fs::File::open(path).map_err(|e| source.io(e))?;
    let run = std::rc::Rc::new(std::cell::Cell::new(0));
    let reader = BufReader::with_capacity(
        1 << 16,
        Counted {
            inner: file,
            read: 0,
            tick: 0,
            progress: source.progress,
            run: run.clone(),
            by_lines: layout != Layout::Json,
        },
    );
    match layout {
        Layout::Csv | Layout::Tsv => table(source, reader, layout, each),
        Layout::Json => super::json::read(source, reader, &run, each),
        Layout::Text => text(source, reader, each),
        Layout::Cards => unreachable!("read above"),
    }
}

/// A table: a header (or `--columns`), then a face a row.
fn table(
    source: &Source,
    reader: impl Read,
    layout: Layout,
    each: &mut dyn FnMut(Item) -> Result<(), ImportError>,
) -> Result<Describe, ImportError> {
    let mut rows = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(if layout == Layout::Tsv { b'\t' } else { b',' })
        .from_reader(reader);
    let mut record = csv::StringRecord::new();
    let mut mapped: Option<Columns> = None;
    let mut tall = Tall::default();
    let mut first = true;
    loop {
        match rows.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => {
                let line = e.position().map_or(rows.position().line(), |p| p.line());
                if let csv::ErrorKind::Io(io) = e.kind() {
                    if io.kind() == std::io::ErrorKind::FileTooLarge {
                        return Err(source.bad(Bad::line(line + 1), io.to_string()));
                    }
                }
                return Err(source.bad(Bad::line(line), csv_problem(&e)));
            }
        }
        let line = record.position().map_or(0, |p| p.line());
        let fields = semicolons(&record);
        if fields.iter().all(|f| f.trim().is_empty()) {
            continue;
        }
        let at = Bad::line(line);
        if first {
            first = false;
            let (columns, header) = map_columns(source, &fields, at)?;
            // A face over several lines: read through `tall`.
            tall.on = columns.roles.contains(&Role::Row);
            mapped = Some(columns);
            if header {
                continue;
            }
        }
        let columns = mapped.as_ref().expect("mapped on the first row");
        let item = match tall.on {
            true => tall.line(source, columns, &fields, at)?,
            false => Some(row(source, columns, &fields, at)?),
        };
        item.map_or(Ok(()), &mut *each)?;
    }
    let columns = mapped.ok_or_else(|| source.not_cards("it holds no rows"))?;
    tall.finish(source)?;
    let mut layout = format!("{} ({}", layout.name(), columns.cells);
    if !columns.ignored.is_empty() {
        layout.push_str(&format!("; ignored columns: {}", names(&columns.ignored)));
    }
    layout.push(')');
    Ok(Describe {
        layout,
        numbered_by: columns.number,
    })
}

/// The columns of a table, from its first row (a header) or `--columns`;
/// and whether that row is a header, not a face.
fn map_columns(source: &Source, fields: &[&str], at: Bad) -> Result<(Columns, bool), ImportError> {
    let shape = &source.shape;
    let named = fields.iter().any(|f| cell(f).is_none());
    if let Some(list) = source.columns {
        let header = named.then_some(fields);
        let columns = columns::from_list(list, (fields.len(), header), shape, source.by_columns)
            .map_err(|why| source.bad(Bad::flag("--columns"), why))?;
        return Ok((columns, named));
    }
    if !named {
        return Err(source.bad(
            at,
            "the first row holds numbers, not column names: add a header \
             or name the columns with --columns (e.g. --columns number,cells)"
                .into(),
        ));
    }
    let names: Vec<String> = fields.iter().map(|s| s.to_string()).collect();
    let columns = columns::from_header(&names, shape, source.by_columns)
        .map_err(|why| source.bad(at, why))?;
    Ok((columns, true))
}

/// The most characters of a column's name the provenance keeps.
const NAME_CHARS: usize = 40;
/// The most ignored columns the provenance names one by one.
const NAMES_LISTED: usize = 10;

/// Column names as the provenance keeps them: the first few, each cut to
/// [`NAME_CHARS`], and how many more there were (a header is the source's
/// text, of any length; the card file's provenance is bounded).
fn names(all: &[String]) -> String {
    let mut listed: Vec<String> = all
        .iter()
        .take(NAMES_LISTED)
        .map(|n| crate::text::clip(n, NAME_CHARS).into_owned())
        .collect();
    if all.len() > NAMES_LISTED {
        listed.push(format!("and {} more", all.len() - NAMES_LISTED));
    }
    listed.join(", ")
}

/// A row split on commas that was meant to be split on semicolons (a
/// spreadsheet's CSV in a comma-decimal locale): split it again.
fn semicolons(record: &csv::StringRecord) -> Vec<&str> {
    if record.len() == 1 && record[0].contains(';') {
        record[0].split(';').collect()
    } else {
        record.iter().collect()
    }
}

fn csv_problem(e: &csv::Error) -> String {
    match e.kind() {
        csv::ErrorKind::Utf8 { .. } => "not UTF-8 text".into(),
        csv::ErrorKind::Io(e) => format!("cannot read: {e}"),
        other => format!("{other:?}"),
    }
}

/// One row of a table as a face.
fn row(source: &Source, columns: &Columns, fields: &[&str], at: Bad) -> Result<Item, ImportError> {
    let shape = &source.shape;
    if fields.len() != columns.width() {
        return Err(source.bad(
            at,
            format!(
                "{} fields where the header has {} (a ragged row)",
                fields.len(),
                columns.width()
            ),
        ));
    }
    let mut face = Face::new(shape.rows, shape.cols);
    let mut number = None;
    for (i, (role, text)) in columns.roles.iter().zip(fields).enumerate() {
        let here = at.column(i + 1);
        match role {
            Role::Skip | Role::Row | Role::Column(_) => {}
            Role::Number => {
                let n = Written::read(text).map_err(|why| source.bad(here, why))?;
                number = Some(n);
            }
            Role::Star => {
                if !text.trim().is_empty() {
                    let cell = shape.cell_named(text).ok_or_else(|| {
                        source.bad(here, format!("{text:?} is not a cell such as G4"))
                    })?;
                    face.star = cell as u8;
                }
            }
            Role::Cell(c) => {
                let (n, star) = source.cell(text, here)?;
                face.cells[*c] = n;
                if star {
                    face.star = *c as u8;
                }
            }
        }
    }
    Ok(Item { at, number, face })
}

/// Plain text: a face a line (all its numbers), a strip a line (90-ball:
/// 162 numbers), or a face as rows of numbers with blank lines between
/// faces. A line `Card 12`, `Ticket 12:` or `#12` numbers the face after it
/// (or the face on the rest of the line).
fn text(
    source: &Source,
    reader: impl BufRead,
    each: &mut dyn FnMut(Item) -> Result<(), ImportError>,
) -> Result<Describe, ImportError> {
    let mut grid = Grid {
        source,
        rows: Vec::new(),
        label: None,
        labelled: false,
        start: 0,
        faces_a_line: 0,
    };
    for (i, line) in reader.lines().enumerate() {
        let n = i as u64 + 1;
        let line = line.map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidData => source.bad(Bad::line(n), "not UTF-8 text".into()),
            std::io::ErrorKind::FileTooLarge => source.bad(Bad::line(n), e.to_string()),
            _ => source.io(e),
        })?;
        grid.line(n, &line, each)?;
    }
    let shape = &source.shape;
    if !grid.rows.is_empty() {
        return Err(source.bad(
            Bad::line(grid.start),
            format!(
                "the last face has {} of its {} rows",
                grid.rows.len(),
                shape.rows
            ),
        ));
    }
    let layout = match grid.faces_a_line {
        0 => "text (a face as rows of numbers)",
        1 => "text (a face a line)",
        _ => "text (a strip a line)",
    };
    Ok(Describe {
        layout: layout.to_string(),
        numbered_by: grid.labelled.then(|| "labels in the text".to_string()),
    })
}

/// A text source being read, line by line.
struct Grid<'a> {
    source: &'a Source<'a>,
    /// The rows of the face being read.
    rows: Vec<Vec<(u8, bool)>>,
    /// The number the next face takes.
    label: Option<Written>,
    labelled: bool,
    /// The line its first row is on.
    start: u64,
    /// Faces a line, when a line holds whole faces.
    faces_a_line: usize,
}

impl Grid<'_> {
    fn line(
        &mut self,
        n: u64,
        line: &str,
        each: &mut dyn FnMut(Item) -> Result<(), ImportError>,
    ) -> Result<(), ImportError> {
        let (source, shape) = (self.source, &self.source.shape);
        let mut tokens: Vec<&str> = line
            .trim_start_matches('\u{feff}')
            .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '|' | '│'))
            .filter(|t| !t.is_empty())
            .collect();
        if tokens.is_empty() {
            return match self.rows.len() {
                0 => Ok(()),
                got => Err(source.bad(
                    Bad::line(n),
                    format!(
                        "a face ends after {got} of its {} rows (a ragged grid)",
                        shape.rows
                    ),
                )),
            };
        }
        if let Some((number, used)) = text_label(&tokens) {
            self.label = Some(number);
            self.labelled = true;
            tokens.drain(..used);
        }
        let heading = tokens.iter().all(|t| t.chars().all(char::is_alphabetic));
        if tokens.is_empty() || (heading && self.rows.is_empty()) {
            return Ok(()); // a label alone, or a heading: B I N G O
        }
        let values: Vec<(u8, bool)> = tokens
            .iter()
            .enumerate()
            .map(|(j, t)| source.cell(t, Bad::line(n).column(j + 1)))
            .collect::<Result<_, _>>()?;
        if self.rows.is_empty() {
            self.start = n;
        }
        let cells = shape.rows * shape.cols;
        let faces = shape.faces_in(values.len());
        if self.rows.is_empty() && faces > 0 {
            self.faces_a_line = faces;
            for part in values.chunks(values.len() / faces) {
                let number = self.label.take();
                let at = Bad::line(n);
                each(Item {
                    at,
                    number,
                    face: shape.face_from(part),
                })?;
            }
            return Ok(());
        }
        if values.len() != shape.cols {
            let (rows, cols, name) = (shape.rows, shape.cols, shape.short_name);
            let why = format!(
                "{} numbers: a {name} face is {rows} rows of {cols} (or one line of {cells})",
                values.len()
            );
            return Err(source.bad(Bad::line(n), why));
        }
        self.rows.push(values);
        if self.rows.len() == shape.rows {
            let flat: Vec<(u8, bool)> = self.rows.drain(..).flatten().collect();
            let (at, number) = (Bad::line(self.start), self.label.take());
            each(Item {
                at,
                number,
                face: shape.face_from(&flat),
            })?;
        }
        Ok(())
    }
}

/// A face's label at the start of a line: `Card 12`, `Ticket: 12`, `#12`,
/// `12:`, `Serial No. CH-04512`; the serial and the tokens it used.
fn text_label(tokens: &[&str]) -> Option<(Written, usize)> {
    let first = tokens[0];
    if let Some(n) = first
        .strip_prefix('#')
        .and_then(|t| t.trim_end_matches(':').parse().ok())
    {
        return Some((Written::plain(n), 1));
    }
    if let Some(n) = first.strip_suffix(':').and_then(|t| t.parse().ok()) {
        return Some((Written::plain(n), 1));
    }
    let is_word = |t: &str| {
        let word = t.trim_end_matches(':');
        word.chars().any(|c| c.is_alphabetic()) && columns::is_number_name(word)
    };
    if is_word(first) {
        // `Serial No. 12`: a second word naming the number is skipped.
        let used = if tokens.get(1).is_some_and(|t| is_word(t)) {
            2
        } else {
            1
        };
        let text = tokens
            .get(used)?
            .trim_start_matches('#')
            .trim_end_matches(':');
        return Some((Written::parse(text)?, used + 1));
    }
    None
}

/// A card file (v3 or native) of the same game, a stretch of records at a
/// time.
fn cards(
    source: &Source,
    each: &mut dyn FnMut(Item) -> Result<(), ImportError>,
) -> Result<Describe, ImportError> {
    let file = CardFile::open(source.path).map_err(|e| source.not_cards(&e.to_string()))?;
    let h = file.header();
    if h.spec.balls() != source.shape.balls
        || h.spec.face_shape() != (source.shape.rows, source.shape.cols)
    {
        return Err(source.not_cards(&format!(
            "it holds {}, not {} faces",
            h.spec.describe(),
            source.shape.short_name
        )));
    }
    const STRETCH: u64 = 1 << 16;
    let mut first = 1;
    while first <= h.count {
        let last = (first + STRETCH - 1).min(h.count);
        // Checked as every command checks a card file: a damaged one is
        // not laundered into a new file that verifies clean.
        file.require_sound(first..=last)?;
        let faces = crate::play::scan_faces(&file, first..=last, |n, face| Some((n, *face)))
            .map_err(|e| source.not_cards(&e.to_string()))?;
        for (n, face) in faces {
            each(Item {
                at: Bad::record(h.record_of(n).map_or(0, |r| r.0)),
                number: Some(Written::plain(n)),
                face,
            })?;
        }
        file.release_records(0..file.records().len());
        (source.progress)((last + 1 - first) * h.record_size as u64);
        first = last + 1;
    }
    Ok(Describe {
        layout: format!(
            "card file ({}, {})",
            match h.format {
                crate::cardfile::FileFormat::V3 => "v3 layout",
                crate::cardfile::FileFormat::Native => "bingomint native",
            },
            h.spec.describe()
        ),
        numbered_by: Some("the card file's numbers".into()),
    })
}
