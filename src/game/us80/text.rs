//! Renderings of 80-ball cards ([`Text`] for [`Us80`]).
//!
//! - grid: a boxed 4×4 grid, as `show` prints it.
//! - txt: one card per line, 16 numbers row-major.
//! - CSV: `card,r1c1,…,r4c4`, a row per card; JSON: one object per card,
//!   `{"card":N,"grid":[[4 numbers]×4]}`.

use super::{Card, Us80, SIDE};
use crate::game::Text;
use crate::text::{push_line, rule, Rule};
use std::fmt::Write;

impl Text for Us80 {
    fn grid(&self, card: &Card, _face: usize) -> String {
        let mut out = rule(Rule::Top, SIDE, 6);
        for (r, row) in card.grid().iter().enumerate() {
            if r > 0 {
                out.push_str(&rule(Rule::Between, SIDE, 6));
            }
            out.push('│');
            for n in row {
                let _ = write!(out, "{n:^6}│");
            }
            out.push('\n');
        }
        out.push_str(&rule(Rule::Bottom, SIDE, 6));
        out
    }

    fn legend(&self, _card: &Card) -> Option<String> {
        None
    }

    fn txt_line(&self, card: &Card, out: &mut String) {
        push_line(out, card.grid().iter().flatten(), ' ');
    }

    fn csv_header(&self) -> Vec<String> {
        crate::text::card_csv_header(SIDE, SIDE)
    }

    /// The card number, then its 16 numbers row by row.
    fn csv_row(
        &self,
        _record: u64,
        number: &str,
        card: &Card,
        _face: usize,
        row: &mut csv::StringRecord,
    ) {
        row.push_field(number);
        for n in card.grid().iter().flatten() {
            row.push_field(&n.to_string());
        }
    }

    /// `{"card":N,"grid":[[…]×4]}`.
    fn json_line(&self, number: u64, card: &Card, out: &mut String) {
        let _ = write!(out, "{{\"card\":{number},\"grid\":[");
        for (r, row) in card.grid().iter().enumerate() {
            if r > 0 {
                out.push(',');
            }
            let _ = write!(out, "[{},{},{},{}]", row[0], row[1], row[2], row[3]);
        }
        out.push_str("]}\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::seed::stream;

    #[test]
    fn renderings_hold_the_card() {
        let card = Us80.draw(&mut stream(1, 0));
        let grid = card.grid();
        let shown = Us80.grid(&card, 0);
        assert_eq!(shown.lines().count(), 2 * SIDE + 1);
        assert!(shown.contains(&format!("{:^6}", grid[3][3])));
        let mut line = String::new();
        Us80.txt_line(&card, &mut line);
        let numbers: Vec<u8> = line.split(' ').map(|w| w.trim().parse().unwrap()).collect();
        assert_eq!(numbers, grid.iter().flatten().copied().collect::<Vec<_>>());
        let mut json = String::new();
        Us80.json_line(7, &card, &mut json);
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["card"], 7);
        assert_eq!(value["grid"][2][1], grid[2][1]);
        assert_eq!(Us80.csv_header().len(), 17);
    }
}
