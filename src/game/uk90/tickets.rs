//! Single 90-ball tickets that never formed strips: what many ticket
//! generators make, and what `import` stores when a file's tickets do not
//! group, six at a time, into strips holding 1–90 once.
//!
//! Record: 27 bytes, row by row, column by column, the number or 0 for a
//! blank (one ticket of a strip record). The exact key is the strip's
//! ticket key ([`super::TicketKey`]), so tickets are unique across strip
//! and ticket files alike.
//!
//! Tickets are checked against a rule set ([`faults`]): strict files meet
//! every rule of uk or es; *loose* files (`import --rules loose`) hold
//! tickets that may break the layout rules (a row without five numbers, an
//! empty or over-full column, a column out of order) but are still valid to
//! play: every number 1–90 in its own column, none twice, at least one.

use super::rules::{column_of, Rules};
use super::text::{push_cells, push_rows, ticket_grid, ticket_header};
use super::{ticket_key, TicketKey, Uk90};
use crate::dedup::Keyed;
use crate::game::facts::{Facts, LabelAt, Paper};
use crate::game::{Face, Game, RuleViolation, Spec, Text};
use crate::seed::Rng;
use crate::text::push_line;
use std::fmt::Write;

/// Bytes per ticket record.
pub const RECORD_SIZE: usize = 27;

/// A ticket's cells, row by row, 0 for a blank.
pub type Cells = [[u8; 9]; 3];

/// The facts of a file of single tickets.
pub const FACTS: Facts = Facts {
    short_name: "90-ball",
    describe: "90-ball (UK, single 3×9 tickets, not in strips)",
    noun: "ticket",
    face_noun: "ticket",
    faces: 1,
    rows: 3,
    cols: 9,
    balls: 90,
    free: 0,
    letters: &[],
    patterns: &super::facts::PATTERNS,
    paper: Paper {
        layouts: &[1, 2, 3, 6, 12],
        default_layout: 6,
        label_at: LabelAt::Above,
        label: (0.7, 1.8),
        gap: 0.3,
    },
};

/// One ticket and its exact key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ticket {
    pub cells: Cells,
    key: TicketKey,
}

impl Ticket {
    /// A ticket of these cells (checked or not), its key computed from them.
    pub fn new(cells: Cells) -> Ticket {
        let mut numbers = 0u128;
        let mut layout = 0u32;
        for (r, row) in cells.iter().enumerate() {
            for (c, &n) in row.iter().enumerate() {
                if (1..=90).contains(&n) {
                    numbers |= 1 << (n - 1);
                    layout |= 1 << (9 * r + c);
                }
            }
        }
        Ticket {
            cells,
            key: ticket_key(numbers, layout),
        }
    }

    /// The exact key.
    pub fn key(&self) -> TicketKey {
        self.key
    }
}

/// Every rule `ticket` breaks, in reading order: the rules of play always
/// (numbers 1–90 in their own column, none twice, at least one), and with
/// `rules` the layout rules of that set too. Each names the row or column:
/// `column 1 is empty; uk rules need 1–3 numbers a column`.
pub fn faults(ticket: &Cells, rules: Option<Rules>) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen = 0u128;
    for (r, row) in ticket.iter().enumerate() {
        let mut mask = 0u16;
        for (c, &n) in row.iter().enumerate() {
            if n == 0 {
                continue;
            }
            if !(1..=90).contains(&n) {
                out.push(format!(
                    "row {} column {} holds {n}; numbers run 1–90",
                    r + 1,
                    c + 1
                ));
                continue;
            }
            if column_of(n) != c {
                out.push(format!(
                    "row {} column {} holds {n}, which belongs in column {}",
                    r + 1,
                    c + 1,
                    column_of(n) + 1
                ));
            }
            if seen >> (n - 1) & 1 == 1 {
                out.push(format!("{n} appears twice"));
            }
            seen |= 1 << (n - 1);
            mask |= 1 << c;
        }
        let Some(rules) = rules else { continue };
        if mask.count_ones() != 5 {
            out.push(format!(
                "row {} holds {} numbers; every row holds 5",
                r + 1,
                mask.count_ones()
            ));
        } else if !rules.row_ok(mask) {
            out.push(format!(
                "row {} has three blanks or four numbers in a run, which {} rules forbid",
                r + 1,
                rules.name()
            ));
        }
    }
    if seen == 0 {
        out.push("the ticket holds no numbers".into());
    }
    if let Some(rules) = rules {
        let max = rules.max_per_column();
        for c in 0..9 {
            let column: Vec<u8> = (0..3).map(|r| ticket[r][c]).filter(|&n| n != 0).collect();
            let need = format!("{} rules need 1–{max} numbers a column", rules.name());
            if column.is_empty() {
                out.push(format!("column {} is empty; {need}", c + 1));
            } else if column.len() > usize::from(max) {
                out.push(format!(
                    "column {} holds {} numbers; {need}",
                    c + 1,
                    column.len()
                ));
            } else if column.windows(2).any(|w| w[0] >= w[1]) {
                out.push(format!("column {} does not ascend top to bottom", c + 1));
            }
        }
    }
    out
}

/// A file's single tickets under one rule set, strict or loose.
pub struct Tickets90 {
    rules: Rules,
    loose: bool,
}

impl Tickets90 {
    /// Tickets checked against `rules`, or (`loose`) only against the rules
    /// of play, `rules` then naming the set they were imported against.
    pub fn new(rules: Rules, loose: bool) -> Tickets90 {
        Tickets90 { rules, loose }
    }
}

impl Keyed for Tickets90 {
    type Card = Ticket;
    type Key = TicketKey;
    type Keys = [TicketKey; 1];

    fn keys(&self, ticket: &Ticket) -> [TicketKey; 1] {
        [ticket.key]
    }

    fn keys_per_card(&self) -> usize {
        1
    }
}

impl Game for Tickets90 {
    fn spec(&self) -> Spec {
        Spec::Tickets90 {
            rules: self.rules,
            loose: self.loose,
        }
    }

    /// The first ticket of a strip drawn uniformly (ticket files are
    /// imported, not minted; this keeps the game whole for tests).
    fn draw(&self, rng: &mut Rng) -> Ticket {
        let strip = Uk90::new(self.rules).draw(rng);
        Ticket::new(strip.cells[0])
    }

    fn encode(&self, ticket: &Ticket, record: &mut [u8]) {
        record.copy_from_slice(ticket.cells.as_flattened());
    }

    fn decode(&self, record: &[u8]) -> Result<Ticket, RuleViolation> {
        if record.len() != RECORD_SIZE {
            return Err(RuleViolation(format!(
                "record is {} bytes, expected {RECORD_SIZE}",
                record.len()
            )));
        }
        let mut cells = [[0u8; 9]; 3];
        for (r, row) in cells.iter_mut().enumerate() {
            row.copy_from_slice(&record[9 * r..9 * r + 9]);
        }
        match faults(&cells, (!self.loose).then_some(self.rules)).first() {
            Some(fault) => Err(RuleViolation(fault.clone())),
            None => Ok(Ticket::new(cells)),
        }
    }

    fn encode_faces(&self, faces: &[Face], record: &mut [u8]) {
        record.copy_from_slice(&faces[0].cells[..RECORD_SIZE]);
    }

    /// The layout rules of the rule set the ticket breaks.
    fn strict_faults(&self, ticket: &Ticket) -> Vec<String> {
        faults(&ticket.cells, Some(self.rules))
    }

    fn with_spec(spec: Spec) -> Option<Tickets90> {
        match spec {
            Spec::Tickets90 { rules, loose } => Some(Tickets90::new(rules, loose)),
            _ => None,
        }
    }

    fn face(&self, ticket: &Ticket, _face: usize) -> Face {
        let mut face = Face::new(3, 9);
        face.cells[..27].copy_from_slice(ticket.cells.as_flattened());
        face
    }
}

/// Renderings: the grid as a strip's ticket; txt one ticket a line (27
/// numbers); CSV `ticket,r1c1,…,r3c9`; JSON `{"ticket":N,"rows":[[9]×3]}`.
impl Text for Tickets90 {
    fn grid(&self, ticket: &Ticket, _face: usize) -> String {
        ticket_grid(&ticket.cells)
    }

    fn legend(&self, _ticket: &Ticket) -> Option<String> {
        None
    }

    fn txt_line(&self, ticket: &Ticket, out: &mut String) {
        push_line(out, ticket.cells.iter().flatten(), ' ');
    }

    fn csv_header(&self) -> Vec<String> {
        ticket_header(&["ticket"])
    }

    fn csv_row(
        &self,
        _record: u64,
        number: &str,
        ticket: &Ticket,
        _face: usize,
        row: &mut csv::StringRecord,
    ) {
        row.push_field(number);
        push_cells(&ticket.cells, row);
    }

    fn json_line(&self, number: u64, ticket: &Ticket, out: &mut String) {
        let _ = write!(out, "{{\"ticket\":{number},\"rows\":");
        push_rows(&ticket.cells, out);
        out.push_str("}\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seed::stream;

    #[test]
    fn drawn_tickets_round_trip_and_keys_match_the_strips() {
        let game = Tickets90::new(Rules::Uk, false);
        let strip = Uk90::new(Rules::Uk).draw(&mut stream(5, 0));
        let ticket = game.draw(&mut stream(5, 0));
        assert_eq!(ticket.key(), strip.ticket_key(0));
        let mut record = [0u8; RECORD_SIZE];
        game.encode(&ticket, &mut record);
        assert_eq!(game.decode(&record), Ok(ticket));
    }

    #[test]
    fn faults_name_every_broken_rule_and_loose_keeps_the_rules_of_play() {
        // Column 1 empty, row 1 with four numbers.
        let mut cells: Cells = [
            [0, 12, 0, 34, 0, 56, 0, 0, 81],
            [0, 0, 23, 0, 45, 0, 67, 78, 89],
            [0, 15, 0, 38, 0, 59, 0, 79, 90],
        ];
        let strict = faults(&cells, Some(Rules::Uk));
        assert_eq!(
            strict,
            [
                "row 1 holds 4 numbers; every row holds 5",
                "column 1 is empty; uk rules need 1–3 numbers a column",
            ]
        );
        assert!(faults(&cells, None).is_empty());
        let loose = Tickets90::new(Rules::Uk, true);
        let mut record = [0u8; RECORD_SIZE];
        record.copy_from_slice(cells.as_flattened());
        assert!(loose.decode(&record).is_ok());
        assert!(Tickets90::new(Rules::Uk, false).decode(&record).is_err());
        // A number in another column, or twice, is refused even loose.
        cells[0][1] = 5;
        cells[2][3] = 34;
        assert_eq!(
            faults(&cells, None),
            [
                "row 1 column 2 holds 5, which belongs in column 1",
                "34 appears twice"
            ]
        );
    }
}
