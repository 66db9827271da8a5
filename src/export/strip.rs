//! Text renderings of 90-ball strips.
//!
//! - [`ticket_grid`]: one ticket as a boxed 3×9 grid, as `show` prints it.
//! - [`txt_line`]: one strip per line, 162 numbers, ticket by ticket, row by
//!   row, 0 for a blank (the `export --to txt` format).
//! - [`csv_header`]/[`csv_line`]: one row per ticket, with its ticket and
//!   strip numbers; [`json_line`]: one object per strip.

use super::{rule, Rule};
use crate::game::uk90::Strip;
use std::fmt::Write;

/// One ticket as a boxed grid, blanks empty.
pub fn ticket_grid(strip: &Strip, ticket: usize) -> String {
    let mut out = rule(Rule::Top, 9, 4);
    for (r, row) in strip.cells[ticket].iter().enumerate() {
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

/// 162 numbers, ticket by ticket, row by row, space-separated, 0 for a blank.
pub fn txt_line(strip: &Strip, out: &mut String) {
    super::push_line(out, strip.cells.iter().flatten().flatten(), ' ');
}

/// The CSV header: `ticket,strip,r1c1,…,r3c9`.
pub fn csv_header() -> String {
    let mut s = String::from("ticket,strip");
    for r in 1..=3 {
        for c in 1..=9 {
            let _ = write!(s, ",r{r}c{c}");
        }
    }
    s.push('\n');
    s
}

/// Six CSV rows, one per ticket of strip `number`: ticket number
/// 6(number − 1) + t, the strip number, 27 cells row by row (0 = blank).
pub fn csv_line(number: u64, strip: &Strip, out: &mut String) {
    for (t, ticket) in strip.cells.iter().enumerate() {
        let _ = write!(out, "{},{number}", 6 * (number - 1) + t as u64 + 1);
        for n in ticket.iter().flatten() {
            let _ = write!(out, ",{n}");
        }
        out.push('\n');
    }
}

/// One JSON object: `{"strip":N,"tickets":[[[9 numbers]×3]×6]}`, 0 = blank.
pub fn json_line(number: u64, strip: &Strip, out: &mut String) {
    let _ = write!(out, "{{\"strip\":{number},\"tickets\":[");
    for (t, ticket) in strip.cells.iter().enumerate() {
        out.push_str(if t > 0 { ",[" } else { "[" });
        for (r, row) in ticket.iter().enumerate() {
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
    out.push_str("]}\n");
}
