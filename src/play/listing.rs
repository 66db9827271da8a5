//! The winners `winners` found, written for people (`text`), for a
//! spreadsheet (`csv`, by the csv crate) or for programs (`jsonl`): each
//! face with the call that completed it, the number called then and the
//! way, and for people a count per call.

use super::calls::Calls;
use super::claims::{per_call, Winner};
use super::pattern::Pattern;
use crate::export::Format;
use crate::game::Spec;
use crate::text::count_of;
use std::io::{self, Write};
use std::ops::RangeInclusive;

/// What a list of winners is about.
pub struct Listing<'a> {
    pub spec: Spec,
    pub pattern: &'a Pattern,
    pub calls: &'a Calls,
    pub winners: &'a [Winner],
    /// The file scanned, as the heading names it.
    pub path: &'a str,
    /// The records scanned: runs, in order.
    pub records: Vec<RangeInclusive<u64>>,
    /// The file's header: how its faces are numbered.
    pub header: &'a crate::cardfile::Header,
    /// Text without its heading and its counts a call: a line a winner.
    pub quiet: bool,
}

impl Listing<'_> {
    /// Writes the list in `format` (text, csv or jsonl).
    pub fn write(&self, format: Format, out: &mut dyn Write) -> io::Result<()> {
        match format {
            Format::Csv => self.csv(out),
            Format::Jsonl => self.jsonl(out),
            Format::Text => self.text(out),
            other => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("winners are not written as {other:?}"),
            )),
        }
    }

    /// The number called at `call` (from 1).
    fn number(&self, call: u8) -> u8 {
        self.calls.order()[usize::from(call) - 1]
    }

    /// `card,call,number,way` (a strip's tickets: `ticket,strip,…`).
    fn csv(&self, out: &mut dyn Write) -> io::Result<()> {
        let spec = self.spec;
        let strips = spec.faces() > 1;
        let mut csv = csv::Writer::from_writer(out);
        let mut header = vec![spec.face_noun()];
        if strips {
            header.push(spec.noun());
        }
        header.extend(["call", "number", "way"]);
        csv.write_record(&header)?;
        for win in self.winners {
            let (call, way) = (win.completed.call, win.completed.way);
            let mut row = vec![win.face.to_string()];
            if strips {
                let record = self.header.record_of(win.face).map_or(0, |r| r.0);
                row.push(record.to_string());
            }
            row.extend([
                call.to_string(),
                self.number(call).to_string(),
                self.pattern.way_name(way),
            ]);
            csv.write_record(&row)?;
        }
        csv.flush()
    }

    /// `{"card":N,"call":C,"number":K,"way":"…"}` a line.
    fn jsonl(&self, out: &mut dyn Write) -> io::Result<()> {
        let face = self.spec.face_noun();
        for win in self.winners {
            let (call, way) = (win.completed.call, win.completed.way);
            let way = serde_json::to_string(&self.pattern.way_name(way))?;
            writeln!(
                out,
                "{{\"{face}\":{},\"call\":{call},\"number\":{},\"way\":{way}}}",
                self.header.serial(win.face),
                self.number(call)
            )?;
        }
        Ok(())
    }

    /// A heading, a line a winner, then the count at each call (quiet: the
    /// winners' lines alone).
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        // The runs as the faces are numbered (an imported file's own).
        let name = |record: u64| match self.spec.faces() {
            1 => self.header.serial(self.header.face_number(record, 0)),
            _ => record.to_string(),
        };
        let runs: Vec<String> = (self.records.iter())
            .map(|r| match (name(*r.start()), name(*r.end())) {
                (a, b) if a == b => a.to_string(),
                (a, b) => format!("{a} to {b}"),
            })
            .collect();
        if !self.quiet {
            writeln!(
                out,
                "pattern {} · {} · {}s {} of '{}': {}",
                self.pattern.name(),
                count_of(self.calls.len() as u64, "call"),
                self.spec.noun(),
                runs.join(", "),
                self.path,
                count_of(self.winners.len() as u64, "winner")
            )?;
        }
        for win in self.winners {
            let (call, way) = (win.completed.call, win.completed.way);
            writeln!(
                out,
                "{} {}: {} at call {call} ({})",
                self.spec.face_noun(),
                self.header.serial(win.face),
                self.pattern.way_name(way),
                self.spec.ball(self.number(call))
            )?;
        }
        for (call, n) in per_call(self.winners).into_iter().filter(|_| !self.quiet) {
            let winners = count_of(n, "winner");
            writeln!(
                out,
                "call {call} ({}): {winners}",
                self.spec.ball(self.number(call))
            )?;
        }
        Ok(())
    }
}
