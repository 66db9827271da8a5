//! Renderings of 90-ball strips ([`Text`] for [`Uk90`]).
//!
//! - grid: one ticket as a boxed 3×9 grid, blanks empty, as `show` prints it.
//! - txt: one strip per line, 162 numbers, ticket by ticket, row by row, 0
//!   for a blank.
//! - CSV: `ticket,strip,r1c1,…,r3c9`, a row per ticket; JSON: one object per
//!   strip, `{"strip":N,"tickets":[[[9 numbers]×3]×6]}`.

use super::{Strip, Uk90};
use crate::game::Text;
use crate::text::{push_line, rule, Rule};
use std::fmt::Write;

impl Text for Uk90 {
    fn grid(&self, strip: &Strip, ticket: usize) -> String {
        ticket_grid(&strip.cells[ticket])
    }

    fn legend(&self, _strip: &Strip) -> Option<String> {
        None
    }

    fn txt_line(&self, strip: &Strip, out: &mut String) {
        push_line(out, strip.cells.iter().flatten().flatten(), ' ');
    }

    fn csv_header(&self) -> Vec<String> {
        ticket_header(&["ticket", "strip"])
    }

    /// The ticket's number, the strip's, 27 cells row by row (0 = blank).
    fn csv_row(
        &self,
        record: u64,
        number: &str,
        strip: &Strip,
        t: usize,
        row: &mut csv::StringRecord,
    ) {
        row.push_field(number);
        row.push_field(&record.to_string());
        push_cells(&strip.cells[t], row);
    }

    fn json_line(&self, number: u64, strip: &Strip, out: &mut String) {
        let _ = write!(out, "{{\"strip\":{number},\"tickets\":[");
        for (t, ticket) in strip.cells.iter().enumerate() {
            out.push_str(if t > 0 { "," } else { "" });
            push_rows(ticket, out);
        }
        out.push_str("]}\n");
    }
}

/// A ticket's CSV header: `first`, then its 27 cells `r1c1` … `r3c9`.
pub fn ticket_header(first: &[&str]) -> Vec<String> {
    let mut fields: Vec<String> = first.iter().map(|f| f.to_string()).collect();
    for r in 1..=3 {
        for c in 1..=9 {
            fields.push(format!("r{r}c{c}"));
        }
    }
    fields
}

/// A ticket's 27 cells, row by row (0 = blank), as CSV fields.
pub fn push_cells(cells: &[[u8; 9]; 3], row: &mut csv::StringRecord) {
    for n in cells.iter().flatten() {
        row.push_field(&n.to_string());
    }
}

/// A ticket's rows as JSON: `[[9 numbers],[…],[…]]`.
pub fn push_rows(cells: &[[u8; 9]; 3], out: &mut String) {
    out.push('[');
    for (r, row) in cells.iter().enumerate() {
        out.push_str(if r > 0 { ",[" } else { "[" });
        for (c, n) in row.iter().enumerate() {
            if c > 0 {
                out.push(',');
            }
            let _ = write!(out, "{n}");
        }
        out.push(']');
    }
    out.push(']');
}

/// One ticket as a boxed grid, blanks empty.
pub fn ticket_grid(cells: &[[u8; 9]; 3]) -> String {
    let mut out = rule(Rule::Top, 9, 4);
    for (r, row) in cells.iter().enumerate() {
        out.push('│');
        for &n in row {
            if n == 0 {
                out.push_str("    │");
            } else {
                let _ = write!(out, "{n:>3} │");
            }
        }
        out.push('\n');
        if r < 2 {
            out.push_str(&rule(Rule::Between, 9, 4));
        }
    }
    out.push_str(&rule(Rule::Bottom, 9, 4));
    out
}
