//! JSON sources, a value at a time: one array of faces, or one face (or
//! strip) a line (JSON Lines). A face is an array of its numbers (row by
//! row; a 75-ball face may leave out the centre), an array of its rows, or
//! an object holding one of those under `grid`, `rows`, `cells` or
//! `numbers`, its number under a numbering name (`card`, `ticket`, `id` …)
//! and its star's cell under `star`; a 90-ball strip is an array of six
//! tickets, or an object with them under `tickets`. Cells are numbers,
//! `null`, or text as a table's cells are.

use super::columns::is_number_name;
use super::{Bad, Describe, ImportError, Item, Source};
use crate::cardfile::serials::Written;
use serde::de::{DeserializeSeed, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;
use std::io::Read;

/// Reads a JSON source.
/// `run` counts the bytes of the element being read: the reader refuses
/// one past [`super::MAX_LINE`], and each face read sets it to 0.
pub fn read(
    source: &Source,
    reader: impl Read,
    run: &std::rc::Rc<std::cell::Cell<u64>>,
    each: &mut dyn FnMut(Item) -> Result<(), ImportError>,
) -> Result<Describe, ImportError> {
    let mut de = serde_json::Deserializer::from_reader(reader);
    let mut state = State {
        source,
        each,
        values: 0,
        numbered: false,
        error: None,
        run,
    };
    let mut tops = 0u64;
    loop {
        if de.end().is_ok() {
            break;
        }
        tops += 1;
        let result = Top(&mut state).deserialize(&mut de);
        if let Some(e) = state.error.take() {
            return Err(e);
        }
        result.map_err(|e| {
            let why = match e.io_error_kind() {
                Some(std::io::ErrorKind::FileTooLarge) => format!(
                    "a JSON element longer than {} MiB: no face is that long; is this the right file?",
                    super::MAX_LINE >> 20
                ),
                _ => format!("not JSON the import can read: {e}"),
            };
            source.bad(Bad::line(e.line() as u64), why)
        })?;
    }
    if state.values == 0 {
        return Err(source.not_cards("it holds no faces"));
    }
    Ok(Describe {
        layout: if tops > 1 {
            "json (a value a line)".to_string()
        } else {
            "json (an array of faces)".to_string()
        },
        numbered_by: state.numbered.then(|| "a numbering field".to_string()),
    })
}

struct State<'a, 'b> {
    source: &'a Source<'a>,
    each: &'b mut dyn FnMut(Item) -> Result<(), ImportError>,
    /// Faces (or strips) read.
    values: u64,
    numbered: bool,
    /// The first error, kept whole (serde would flatten it to text).
    error: Option<ImportError>,
    /// Bytes of the element being read, shared with the reader.
    run: &'a std::rc::Rc<std::cell::Cell<u64>>,
}

/// A face's number: its serial as printed (`export --format jsonl` of a
/// file that keeps one), else a numbering field's number.
fn number_of(fields: &serde_json::Map<String, Value>) -> Result<Option<Written>, String> {
    if let Some(text) = fields.get("serial").and_then(Value::as_str) {
        return Written::read(text).map(Some);
    }
    Ok((fields.iter())
        .find(|(k, v)| is_number_name(k) && v.is_u64())
        .and_then(|(_, v)| v.as_u64())
        .map(Written::plain))
}

impl State<'_, '_> {
    /// One value that holds a face or a strip (`k` counts them from 1).
    fn value(&mut self, value: Value) -> Result<(), ImportError> {
        self.run.set(0);
        self.values += 1;
        let at = Bad::element(self.values);
        let source = self.source;
        let (number, grid, star) = match value {
            Value::Object(mut fields) => {
                let number = number_of(&fields).map_err(|why| source.bad(at, why))?;
                self.numbered |= number.is_some();
                let grid = [
                    "grid", "rows", "cells", "numbers", "tickets", "card", "ticket",
                ]
                .iter()
                .find_map(|k| fields.remove(*k).filter(Value::is_array))
                .ok_or_else(|| {
                    source.bad(at, "an object without grid, rows, cells or numbers".into())
                })?;
                let star = fields
                    .get("star")
                    .and_then(Value::as_str)
                    .map(str::to_string);
                (number, grid, star)
            }
            grid @ Value::Array(_) => (None, grid, None),
            other => {
                return Err(source.bad(at, format!("{other} is not a face (an array or object)")))
            }
        };
        let mut flat = Vec::new();
        flatten(&grid, &mut flat);
        let values: Vec<(u8, bool)> = flat
            .iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::Null => Ok((0, false)),
                Value::Number(n) => match n.as_u64() {
                    Some(n) if n <= 255 => source.cell(&n.to_string(), at.column(i + 1)),
                    _ => {
                        Err(source.bad(at.column(i + 1), format!("{n} is not a number on a card")))
                    }
                },
                Value::String(s) => source.cell(s, at.column(i + 1)),
                other => Err(source.bad(at.column(i + 1), format!("{other} is not a cell"))),
            })
            .collect::<Result<_, _>>()?;
        let shape = &source.shape;
        let parts = shape.faces_in(values.len());
        if parts == 0 {
            let cells = shape.rows * shape.cols;
            let why = format!(
                "{} cells: a {} face has {cells}",
                values.len(),
                shape.short_name
            );
            return Err(source.bad(at, why));
        }
        let size = values.len() / parts;
        for k in 0..parts {
            let mut face = shape.face_from(&values[k * size..(k + 1) * size]);
            if let Some(name) = &star {
                face.star = shape.cell_named(name).ok_or_else(|| {
                    source.bad(at, format!("star {name:?} is not a cell such as G4"))
                })? as u8;
            }
            let number = (number.as_ref()).map(|n| Written {
                number: n.number + k as u64,
                ..n.clone()
            });
            (self.each)(Item { at, number, face })?;
        }
        Ok(())
    }
}

fn flatten<'v>(value: &'v Value, out: &mut Vec<&'v Value>) {
    match value {
        Value::Array(items) => items.iter().for_each(|v| flatten(v, out)),
        other => out.push(other),
    }
}

/// A top-level value: an array of faces (each handled as it is read), or
/// one face.
struct Top<'s, 'a, 'b>(&'s mut State<'a, 'b>);

impl<'de> DeserializeSeed<'de> for Top<'_, '_, '_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Top<'_, '_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an array of faces, or a face")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        // Faces one by one; numbers straight in the array make it one face.
        let mut flat = Vec::new();
        while let Some(value) = seq.next_element::<Value>()? {
            if value.is_array() || value.is_object() {
                if let Err(e) = self.0.value(value) {
                    self.0.error = Some(e);
                    return Err(serde::de::Error::custom("stopped"));
                }
            } else {
                flat.push(value);
            }
        }
        if !flat.is_empty() {
            if let Err(e) = self.0.value(Value::Array(flat)) {
                self.0.error = Some(e);
                return Err(serde::de::Error::custom("stopped"));
            }
        }
        Ok(())
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        let value = Value::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
        if let Err(e) = self.0.value(value) {
            self.0.error = Some(e);
            return Err(serde::de::Error::custom("stopped"));
        }
        Ok(())
    }
}
