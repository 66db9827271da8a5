//! A face over several lines, a row a line (`Serial,Row,B,I,N,G,O`): the
//! rows of each face in order, on lines one after another, its serial the
//! same on each.

use super::columns::{Columns, Role};
use super::{Bad, ImportError, Item, Source};
use crate::cardfile::serials::Written;

/// A face over several lines, a row a line, as it is gathered.
#[derive(Default)]
pub(super) struct Tall {
    /// Whether the table's faces are over several lines.
    pub(super) on: bool,
    number: Option<Written>,
    start: Option<Bad>,
    /// The rows so far, row-major.
    cells: Vec<(u8, bool)>,
}

impl Tall {
    /// Reads one line; a face when it was its last row.
    pub(super) fn line(
        &mut self,
        source: &Source,
        columns: &Columns,
        fields: &[&str],
        at: Bad,
    ) -> Result<Option<Item>, ImportError> {
        let shape = &source.shape;
        let (number, row, values) = read_line(source, columns, fields, at)?;
        let expected = self.cells.len() / shape.cols + 1;
        let name = |w: &Option<Written>| {
            w.as_ref()
                .map_or("a face".into(), |w| format!("face {}", w.text()))
        };
        if row != Some(expected) {
            return Err(source.bad(
                at,
                format!(
                "row {} of {} where row {expected} comes next: a face over several lines gives \
                 its rows 1 to {} in order, on lines one after another",
                row.map_or("?".into(), |r| r.to_string()),
                name(&number),
                shape.rows
            ),
            ));
        }
        if expected > 1 && number != self.number {
            return Err(source.bad(
                at,
                format!(
                    "{} begins before {} has its {} rows (it stops at row {})",
                    name(&number),
                    name(&self.number),
                    shape.rows,
                    expected - 1
                ),
            ));
        }
        if expected == 1 {
            self.start = Some(at);
            self.number = number;
        }
        self.cells.extend(values);
        if self.cells.len() < shape.rows * shape.cols {
            return Ok(None);
        }
        let face = shape.face_from(&self.cells);
        self.cells.clear();
        Ok(Some(Item {
            at: self.start.unwrap_or(at),
            number: self.number.take(),
            face,
        }))
    }
    /// The end of the source: a face cut short is named.
    pub(super) fn finish(&self, source: &Source) -> Result<(), ImportError> {
        match self.start.filter(|_| !self.cells.is_empty()) {
            Some(start) => Err(source.bad(
                start,
                format!(
                    "the last face stops after row {} of its {}",
                    self.cells.len() / source.shape.cols,
                    source.shape.rows
                ),
            )),
            None => Ok(()),
        }
    }
}

/// One line's serial, row number and cells.
#[allow(clippy::type_complexity)]
fn read_line(
    source: &Source,
    columns: &Columns,
    fields: &[&str],
    at: Bad,
) -> Result<(Option<Written>, Option<usize>, Vec<(u8, bool)>), ImportError> {
    let shape = &source.shape;
    if fields.len() != columns.width() {
        let why = format!(
            "{} fields where the header has {}",
            fields.len(),
            columns.width()
        );
        return Err(source.bad(at, why));
    }
    let (mut number, mut row, mut values) = (None, None, vec![(0, false); shape.cols]);
    for (i, (role, text)) in columns.roles.iter().zip(fields).enumerate() {
        let here = at.column(i + 1);
        match role {
            Role::Number => {
                number = Some(Written::read(text).map_err(|why| source.bad(here, why))?)
            }
            Role::Row => {
                row = Some(text.trim().parse::<usize>().map_err(|_| {
                    source.bad(
                        here,
                        format!("{text:?} is not a row number (1 to {})", shape.rows),
                    )
                })?)
            }
            Role::Column(c) => values[*c] = source.cell(text, here)?,
            _ => {}
        }
    }
    Ok((number, row, values))
}
