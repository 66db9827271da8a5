//! Renderings of 75-ball cards ([`Text`] for [`Us75`]).
//!
//! - grid: a boxed B I N G O grid with FREE in the centre and the star
//!   marked `*`, as `show` prints it.
//! - txt: one card per line, 25 numbers row-major, 0 for the free centre.
//! - CSV: `card,B1,I1,N1,G1,O1,B2,…,O5,star`, a row per card; JSON: one
//!   object per card with its grid and the star's cell.

use super::{Card, Us75, LETTERS};
use crate::game::Text;
use crate::text::{push_line, rule, Rule};
use std::fmt::Write;

/// The name of a cell, letter then row: `B1` … `O5`.
fn cell_name(row: usize, col: usize) -> String {
    format!("{}{}", LETTERS[col], row + 1)
}

impl Text for Us75 {
    fn grid(&self, card: &Card, _face: usize) -> String {
        grid(card)
    }

    fn legend(&self, card: &Card) -> Option<String> {
        card.star().map(|_| "* star".to_string())
    }

    fn txt_line(&self, card: &Card, out: &mut String) {
        push_line(out, card.grid().iter().flatten(), ' ');
    }

    fn csv_header(&self) -> Vec<String> {
        let mut fields = vec!["card".to_string()];
        for r in 0..5 {
            for c in 0..5 {
                fields.push(cell_name(r, c));
            }
        }
        fields.push("star".into());
        fields
    }

    /// The card number, 25 numbers row-major (0 = free), the star's cell
    /// (empty without a star).
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
        let star = card.star().map(|(r, c)| cell_name(r, c));
        row.push_field(star.as_deref().unwrap_or(""));
    }

    /// `{"card":N,"grid":[[…]×5],"star":"G4"|null}`.
    fn json_line(&self, number: u64, card: &Card, out: &mut String) {
        let _ = write!(out, "{{\"card\":{number},\"grid\":[");
        for (r, row) in card.grid().iter().enumerate() {
            if r > 0 {
                out.push(',');
            }
            let _ = write!(
                out,
                "[{},{},{},{},{}]",
                row[0], row[1], row[2], row[3], row[4]
            );
        }
        match card.star() {
            Some((r, c)) => {
                let _ = writeln!(out, "],\"star\":\"{}\"}}", cell_name(r, c));
            }
            None => out.push_str("],\"star\":null}\n"),
        }
    }
}

/// A boxed grid of the card: a B I N G O heading, five rows of numbers,
/// FREE in the centre, the star's number marked `*`.
pub fn grid(card: &Card) -> String {
    let numbers = card.grid();
    let star = card.star();
    let mut out = rule(Rule::Top, 5, 6);
    out.push('│');
    for letter in LETTERS {
        let _ = write!(out, "{letter:^6}│");
    }
    out.push('\n');
    out.push_str(&rule(Rule::Between, 5, 6));
    for (r, row) in numbers.iter().enumerate() {
        out.push('│');
        for (c, &n) in row.iter().enumerate() {
            let text = if n == 0 {
                "FREE".to_string()
            } else if star == Some((r, c)) {
                format!("*{n}")
            } else {
                n.to_string()
            };
            let _ = write!(out, "{text:^6}│");
        }
        out.push('\n');
    }
    out.push_str(&rule(Rule::Bottom, 5, 6));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::us75::StarRule;
    use crate::game::Game;

    fn sample() -> Card {
        let record = [
            1, 2, 3, 4, 5, 16, 17, 18, 19, 20, 31, 32, 4, 33, 34, 46, 47, 48, 49, 50, 61, 62, 63,
            64, 65,
        ];
        Us75::new(StarRule::Any).decode(&record).unwrap()
    }

    #[test]
    fn grid_shows_free_centre_and_star() {
        let g = grid(&sample());
        assert!(g.contains("FREE"));
        assert!(g.contains("*5"), "{g}");
        assert_eq!(g.lines().count(), 9);
        assert!(g
            .lines()
            .nth(1)
            .unwrap()
            .contains("  B   │  I   │  N   │  G   │  O   "));
    }

    #[test]
    fn line_formats() {
        let game = Us75::new(StarRule::Any);
        let card = sample();
        let mut s = String::new();
        game.txt_line(&card, &mut s);
        assert_eq!(
            s,
            "1 16 31 46 61 2 17 32 47 62 3 18 0 48 63 4 19 33 49 64 5 20 34 50 65\n"
        );
        let mut row = csv::StringRecord::new();
        game.csv_row(7, "7", &card, 0, &mut row);
        assert_eq!(
            row.iter().collect::<Vec<_>>().join(","),
            "7,1,16,31,46,61,2,17,32,47,62,3,18,0,48,63,4,19,33,49,64,5,20,34,50,65,B5"
        );
        assert!(game
            .csv_header()
            .join(",")
            .starts_with("card,B1,I1,N1,G1,O1,B2,"));
        s.clear();
        game.json_line(7, &card, &mut s);
        assert_eq!(
            s,
            "{\"card\":7,\"grid\":[[1,16,31,46,61],[2,17,32,47,62],[3,18,0,48,63],\
             [4,19,33,49,64],[5,20,34,50,65]],\"star\":\"B5\"}\n"
        );
    }
}
