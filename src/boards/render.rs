//! Boards as users read them: a text grid, JSON / JSON Lines, CSV, and the
//! board BingoSync's custom game accepts.
//!
//! Every (objective, value) goal is rendered once, up front; a board is then
//! a concatenation of ready fragments, which keeps JSONL output near memcpy
//! speed. CSV fields are quoted by the `csv` crate ([`csv_field`]).

use super::board::{cell_name, unpack, Gave, Line, Relaxed, Size};
use super::engine::Engine;
use super::list::BoardRef;
use super::set::ObjectiveSet;
use super::{push_board, push_decimal, BoardSeed};
use crate::text::{csv_field, rule, Rule};
use std::fmt::Write as _;
use unicode_width::UnicodeWidthStr;

/// One goal as shown.
struct Goal {
    text: String,
    /// The cell's JSON object after a comma (`,{…}`), so a cell after the
    /// first is one copy.
    json: String,
    /// The text as a CSV field.
    csv: String,
}

/// Renders boards of one set and size.
pub struct Renderer<'a> {
    set: &'a ObjectiveSet,
    engine: &'a Engine,
    seed: &'a BoardSeed,
    /// `goals[k][value index]`.
    goals: Vec<Vec<Goal>>,
    /// Most characters on a line of a text-grid cell.
    cell_width: usize,
    /// A board's JSON up to its seed string's number: `{"board":` comes
    /// before the board number, then this: `,"seed":"BASE:v1:`.
    json_seed: String,
    /// From the seed string's closing quote to the first cell:
    /// `","rows":R,"cols":C,"cells":[`.
    json_cells: String,
}

/// Text-grid cell width when the output is not a terminal.
pub const CELL_WIDTH: usize = 18;

/// The text-grid cell width that fits `columns` board columns in a terminal
/// `terminal` characters wide (8 to 24; [`CELL_WIDTH`] when unknown).
pub fn cell_width_for(terminal: Option<usize>, columns: usize) -> usize {
    match terminal {
        // Each cell takes its text, two spaces and a border; one more border.
        Some(t) => (t.saturating_sub(1) / columns)
            .saturating_sub(3)
            .clamp(8, 24),
        None => CELL_WIDTH,
    }
}

/// JSON string literal of `s`.
fn json_str(s: &str) -> String {
    serde_json::to_string(s).expect("strings always serialize")
}

impl<'a> Renderer<'a> {
    /// Renders every goal of `set` once, for boards of `engine`'s size.
    pub fn new(set: &'a ObjectiveSet, engine: &'a Engine, seed: &'a BoardSeed) -> Renderer<'a> {
        let names = |cats: &[u16], all: &[super::set::Category]| {
            let list: Vec<String> = cats
                .iter()
                .map(|&c| json_str(&all[c as usize].name))
                .collect();
            format!("[{}]", list.join(","))
        };
        let goals = set
            .objectives
            .iter()
            .enumerate()
            .map(|(k, o)| {
                let values: Vec<Option<u32>> = if o.range.is_empty() {
                    vec![None]
                } else {
                    o.range.iter().map(|&v| Some(v)).collect()
                };
                values
                    .into_iter()
                    .map(|value| {
                        let text = o.text(value);
                        let mut json = format!(
                            ",{{\"objective\":{k},\"goal\":{},\"value\":{},\"board_categories\":{},\"line_categories\":{}",
                            json_str(&text),
                            value.map_or("null".to_string(), |v| v.to_string()),
                            names(&o.board_categories, &set.board_categories),
                            names(&o.line_categories, &set.line_categories),
                        );
                        if let Some(t) = o.tooltip_text(value) {
                            let _ = write!(json, ",\"tooltip\":{}", json_str(&t));
                        }
                        json.push('}');
                        Goal {
                            csv: csv_field(&text),
                            text,
                            json,
                        }
                    })
                    .collect()
            })
            .collect();
        let Size { rows, cols } = engine.size();
        // The seed string is its prefix, then digits (needing no escape).
        let quoted = json_str(&seed.prefix());
        let json_seed = format!(",\"seed\":{}", &quoted[..quoted.len() - 1]);
        Renderer {
            set,
            engine,
            seed,
            goals,
            cell_width: CELL_WIDTH,
            json_seed,
            json_cells: format!("\",\"rows\":{rows},\"cols\":{cols},\"cells\":["),
        }
    }

    /// The same renderer with text-grid cells `width` characters wide.
    pub fn with_cell_width(mut self, width: usize) -> Self {
        self.cell_width = width;
        self
    }

    /// The seed string of board `number`, attempt `attempt`.
    pub fn seed_of(&self, number: u64, attempt: u32) -> String {
        self.seed.of_board(number, attempt)
    }

    fn goal(&self, cell: u16) -> &Goal {
        let (k, v) = unpack(cell);
        &self.goals[k][v]
    }

    /// Appends board `number` as one JSON object (no newline).
    pub fn json(&self, number: u64, board: BoardRef, out: &mut String) {
        out.push_str("{\"board\":");
        push_decimal(out, number);
        out.push_str(&self.json_seed);
        push_board(out, number, board.attempt);
        out.push_str(&self.json_cells);
        let mut comma = 1;
        for &cell in board.cells {
            out.push_str(&self.goal(cell).json[comma..]);
            comma = 0;
        }
        out.push_str("],\"relaxed\":[");
        for (i, r) in board.relaxed.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            self.relaxed_json(r, out);
        }
        out.push_str("]}");
    }

    fn relaxed_json(&self, r: &Relaxed, out: &mut String) {
        let size = self.engine.size();
        let cell = usize::from(r.cell);
        let _ = write!(
            out,
            "{{\"cell\":{cell},\"row\":{},\"col\":{},",
            cell / size.cols + 1,
            cell % size.cols + 1
        );
        let _ = match r.gave {
            Gave::LineCategory { category, line } => write!(
                out,
                "\"constraint\":\"line_category\",\"category\":{},\"line\":\"{}\",\"limit\":{}}}",
                json_str(&self.set.line_categories[category as usize].name),
                self.line(line),
                self.engine.line_cap(line as usize, category as usize)
            ),
            Gave::BoardCategory { category } => write!(
                out,
                "\"constraint\":\"board_category\",\"category\":{},\"limit\":{}}}",
                json_str(&self.set.board_categories[category as usize].name),
                self.engine.board_cap(category as usize)
            ),
            Gave::RepeatInLine { line } => write!(
                out,
                "\"constraint\":\"repeat_in_line\",\"line\":\"{}\"}}",
                self.line(line)
            ),
            Gave::IndividualLimit => out.write_str("\"constraint\":\"individual_limit\"}"),
        };
    }

    fn line(&self, line: u8) -> Line {
        self.engine.lines()[line as usize]
    }

    /// What gave way, for a warning: `r2c4 "3 Sand Moons" (objective 7):
    /// line category "sand" (at most 2 per line) in row 2 gave way`.
    pub fn describe(&self, board: BoardRef, r: &Relaxed) -> String {
        let (k, _) = unpack(board.cells[r.cell as usize]);
        format!(
            "{} {:?} (objective {k}): {} gave way",
            cell_name(self.engine.size(), r.cell as usize),
            self.goal(board.cells[r.cell as usize]).text,
            constraint_text(self.set, self.engine, r.gave)
        )
    }

    /// Appends board `number` as a CSV row (with newline).
    pub fn csv(&self, number: u64, board: BoardRef, out: &mut String) {
        let Size { rows, cols } = self.engine.size();
        let _ = write!(
            out,
            "{number},{},{rows},{cols}",
            csv_field(&self.seed.of_board(number, board.attempt))
        );
        for &cell in board.cells {
            out.push(',');
            out.push_str(&self.goal(cell).csv);
        }
        out.push(',');
        let relaxed: Vec<String> = board
            .relaxed
            .iter()
            .map(|r| self.describe(board, r))
            .collect();
        out.push_str(&csv_field(&relaxed.join("; ")));
        out.push('\n');
    }

    /// The CSV header line.
    pub fn csv_header(&self) -> String {
        let size = self.engine.size();
        let mut h = String::from("board,seed,rows,cols");
        for cell in 0..size.cells() {
            h.push(',');
            h.push_str(&cell_name(size, cell));
        }
        h.push_str(",relaxed\n");
        h
    }

    /// BingoSync's custom board: `[{"name": "…"}, …]` in row-major order.
    pub fn bingosync(&self, board: BoardRef) -> String {
        let names: Vec<String> = board
            .cells
            .iter()
            .map(|&c| format!("{{\"name\":{}}}", json_str(&self.goal(c).text)))
            .collect();
        format!("[{}]\n", names.join(","))
    }

    /// Board `number` as an aligned grid with a heading line.
    pub fn text(&self, number: u64, board: BoardRef, out: &mut String) {
        let Size { rows, cols } = self.engine.size();
        let _ = writeln!(
            out,
            "board {number} · seed {} · {} · {rows}x{cols}",
            self.seed.of_board(number, board.attempt),
            self.set.title()
        );
        let wrapped: Vec<Vec<String>> = board
            .cells
            .iter()
            .map(|&c| wrap(&self.goal(c).text, self.cell_width))
            .collect();
        let width = wrapped
            .iter()
            .flatten()
            .map(|l| l.width())
            .max()
            .unwrap_or(1);
        out.push_str(&rule(Rule::Top, cols, width + 2));
        for r in 0..rows {
            let height = (0..cols)
                .map(|c| wrapped[r * cols + c].len())
                .max()
                .unwrap_or(1);
            for line in 0..height {
                out.push('│');
                for c in 0..cols {
                    let text = wrapped[r * cols + c].get(line).map_or("", String::as_str);
                    let pad = width - text.width();
                    let _ = write!(out, " {text}{} │", " ".repeat(pad));
                }
                out.push('\n');
            }
            out.push_str(&if r + 1 == rows {
                rule(Rule::Bottom, cols, width + 2)
            } else {
                rule(Rule::Between, cols, width + 2)
            });
        }
        for r in board.relaxed {
            let _ = writeln!(out, "relaxed: {}", self.describe(board, r));
        }
    }
}

/// A constraint, for people: `line category "sand" (at most 2 per line) in
/// row 2`, `board category "boss" (at most 3 per board)`, `no objective
/// twice in column 4`, `individual_limit`.
pub fn constraint_text(set: &ObjectiveSet, engine: &Engine, gave: Gave) -> String {
    match gave {
        Gave::LineCategory { category, line } => format!(
            "line category {:?} (at most {} per line) in {}",
            set.line_categories[category as usize].name,
            engine.line_cap(line as usize, category as usize),
            engine.lines()[line as usize]
        ),
        Gave::BoardCategory { category } => format!(
            "board category {:?} (at most {} per board)",
            set.board_categories[category as usize].name,
            engine.board_cap(category as usize)
        ),
        Gave::RepeatInLine { line } => {
            format!("no objective twice in {}", engine.lines()[line as usize])
        }
        Gave::IndividualLimit => "individual_limit".to_string(),
    }
}

/// Splits `text` into lines of at most `width` columns (display width: a
/// CJK character takes two) at spaces (a longer word gets a line of its own).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.width() + 1 + word.width() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_and_cell_widths() {
        assert_eq!(
            wrap("Capture the Cactus + Tree", 12),
            vec!["Capture the", "Cactus +", "Tree"]
        );
        assert_eq!(wrap("", 5), vec![""]);
        assert_eq!(cell_width_for(Some(80), 5), 12);
        assert_eq!(cell_width_for(Some(200), 5), 24);
        assert_eq!(cell_width_for(Some(80), 10), 8);
        assert_eq!(cell_width_for(None, 5), CELL_WIDTH);
    }
}
