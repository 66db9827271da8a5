//! Objective sets in Lockout's schema v3: reading them as users write them,
//! and naming every problem the schema forbids.
//!
//! `read` reads the JSON with `serde` into loose raw types, then one
//! validation pass turns them into an [`ObjectiveSet`]. Fields this module does not use (`icons`,
//! `progression`, `tag`, `orden`, …) are ignored, never fatal. Every problem is reported at once, one line
//! each, naming the objective's index, its goal text and the field:
//! `objectives[3] "{{X}} Cage Moons": range is required when the goal has {{X}}`.

use serde_json::Value;
use std::fmt::Write as _;

/// Most characters in a goal (Lockout's limit).
pub const MAX_GOAL_CHARS: usize = 60;
/// Most characters in a tooltip.
pub const MAX_TOOLTIP_CHARS: usize = 120;
/// Most values in a range.
pub const MAX_RANGE_VALUES: usize = 12;
/// Most categories of each kind on one objective.
pub const MAX_CATEGORIES_PER_OBJECTIVE: usize = 4;
/// Most categories of each kind in a set (they are bit masks in the engine).
pub const MAX_CATEGORIES: usize = 128;
/// Most objectives in a set (a board cell stores its objective in 12 bits).
pub const MAX_OBJECTIVES: usize = 4095;
/// The field that pins an objective to board cells (see [`Position`]).
pub const FORCED_FIELD: &str = "forced_positions";

mod read;

pub use read::SetFileError;

/// A category and its limit in percent (0–100).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Category {
    pub name: String,
    pub percent: u32,
}

/// A cell an objective is forced into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Position {
    /// A 0-based, row-major cell index on the board being generated
    /// (the JSON integer `12`: the centre of a 5×5 board).
    Index(u32),
    /// Row and column, 1-based (the JSON string `"r3c3"`).
    Cell { row: u32, col: u32 },
}

impl Position {
    /// The 0-based cell on a `rows`×`cols` board, if the board has it.
    pub fn cell(self, rows: usize, cols: usize) -> Option<usize> {
        match self {
            Position::Index(i) => ((i as usize) < rows * cols).then_some(i as usize),
            Position::Cell { row, col } => {
                let (r, c) = (row as usize, col as usize);
                (r >= 1 && c >= 1 && r <= rows && c <= cols).then(|| (r - 1) * cols + (c - 1))
            }
        }
    }

    fn parse(value: &Value) -> Option<Position> {
        if let Some(i) = value.as_u64() {
            return u32::try_from(i).ok().map(Position::Index);
        }
        let text = value.as_str()?.trim().to_ascii_lowercase();
        let rest = text.strip_prefix('r')?;
        let (row, col) = rest.split_once('c')?;
        Some(Position::Cell {
            row: row.parse().ok()?,
            col: col.parse().ok()?,
        })
    }
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Position::Index(i) => write!(f, "cell {i}"),
            Position::Cell { row, col } => write!(f, "r{row}c{col}"),
        }
    }
}

/// One objective, as written (its index in `objectives` is its identity).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Objective {
    /// The goal text, with `{{X}}` and `[[s]]` still in it.
    pub goal: String,
    /// The values `{{X}}` can take, ascending; empty when the goal has none.
    pub range: Vec<u32>,
    /// How many times it may appear on one board.
    pub individual_limit: u32,
    /// 1–100 (100 when absent).
    pub weighting: u32,
    /// Indices into [`ObjectiveSet::board_categories`].
    pub board_categories: Vec<u16>,
    /// Indices into [`ObjectiveSet::line_categories`].
    pub line_categories: Vec<u16>,
    pub tooltip: Option<String>,
    pub disabled: bool,
    /// Cells it is placed in before anything else.
    pub forced: Vec<Position>,
}

impl Objective {
    /// Whether the goal has a `{{X}}` placeholder.
    pub fn has_value(&self) -> bool {
        self.goal.contains("{{X}}")
    }

    /// How many distinct cells it can fill: one per range value, or one.
    pub fn distinct_values(&self) -> usize {
        self.range.len().max(1)
    }

    /// The goal as shown for `value`: `{{X}}` replaced by the value and
    /// `[[s]]` by "s" unless the value is 1.
    pub fn text(&self, value: Option<u32>) -> String {
        substitute(&self.goal, value)
    }

    /// The tooltip as shown for `value`.
    pub fn tooltip_text(&self, value: Option<u32>) -> Option<String> {
        self.tooltip.as_deref().map(|t| substitute(t, value))
    }
}

/// Replaces `{{X}}` by `value` and `[[s]]` by "s" unless `value` is 1.
pub fn substitute(text: &str, value: Option<u32>) -> String {
    let plural = if value == Some(1) { "" } else { "s" };
    let mut out = text.replace("[[s]]", plural);
    if let Some(v) = value {
        out = out.replace("{{X}}", &v.to_string());
    }
    out
}

/// A whole set: its objectives and category limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectiveSet {
    pub game_name: Option<String>,
    pub set_name: Option<String>,
    pub objectives: Vec<Objective>,
    pub board_categories: Vec<Category>,
    pub line_categories: Vec<Category>,
}

/// Why a set cannot be used: every problem, one line each.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.render())]
pub struct SetError {
    /// Where the set came from (a path), for the first line.
    pub source_name: String,
    pub problems: Vec<String>,
}

impl SetError {
    fn render(&self) -> String {
        let mut out = match self.problems.len() {
            1 => format!("'{}' is not a valid objective set: ", self.source_name),
            n => format!(
                "'{}' is not a valid objective set ({n} problems):\n  ",
                self.source_name
            ),
        };
        out.push_str(&self.problems.join("\n  "));
        out
    }
}

impl ObjectiveSet {
    /// "Super Mario Odyssey: Short Goals", or what there is of it.
    /// One line, whatever the names hold: a control character (a newline
    /// in `set_name`) would break the heading of a text board.
    pub fn title(&self) -> String {
        let title = match (&self.game_name, &self.set_name) {
            (Some(g), Some(s)) => format!("{g}: {s}"),
            (Some(n), None) | (None, Some(n)) => n.clone(),
            (None, None) => "objective set".into(),
        };
        title
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect()
    }
}

/// A short description of a set's contents, for `--check`.
pub fn summary(set: &ObjectiveSet) -> String {
    let enabled = set.objectives.iter().filter(|o| !o.disabled).count();
    let mut s = format!(
        "{}: {} objectives ({} enabled), {} board categories, {} line categories",
        set.title(),
        set.objectives.len(),
        enabled,
        set.board_categories.len(),
        set.line_categories.len()
    );
    let forced = set
        .objectives
        .iter()
        .filter(|o| !o.forced.is_empty())
        .count();
    if forced > 0 {
        let _ = write!(s, ", {forced} with forced positions");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(json: &str) -> Vec<String> {
        ObjectiveSet::from_json(json, "t.json")
            .unwrap_err()
            .problems
    }

    #[test]
    fn substitution() {
        assert_eq!(substitute("{{X}} Cage Moon[[s]]", Some(1)), "1 Cage Moon");
        assert_eq!(substitute("{{X}} Cage Moon[[s]]", Some(3)), "3 Cage Moons");
        assert_eq!(substitute("Find the Key", None), "Find the Key");
    }

    #[test]
    fn unknown_fields_are_ignored_and_defaults_apply() {
        let set = ObjectiveSet::from_json(
            r#"{"schema_version": 3, "whatever": 1, "limits": {"board": {"a": 20}},
                "objectives": [{"goal": "G", "board_categories": ["a"], "icons": ["x.webp"], "orden": 4}]}"#,
            "t.json",
        )
        .unwrap();
        let o = &set.objectives[0];
        assert_eq!(
            (o.individual_limit, o.weighting, o.disabled),
            (1, 100, false)
        );
        assert_eq!(o.board_categories, vec![0]);
    }

    #[test]
    fn every_problem_is_reported_once_with_index_goal_and_field() {
        let p = problems(
            r#"{"limits": {"board": {"a": 120}, "line": {}},
                "objectives": [
                  {"goal": "fine"},
                  {"goal": "{{X}} Cage Moons"},
                  {"goal": "{{X}} Coins", "range": [5, 3]},
                  {"goal": "Boss", "individual_limit": 2},
                  {"goal": "{{X}} Rocks", "range": [1, 2], "individual_limit": 3, "weighting": 0},
                  {"goal": "Cat", "board_categories": ["zzz"], "line_categories": ["a"]},
                  {"goal": "Pinned", "forced_positions": ["centre"]}
                ]}"#,
        );
        let expect = [
            "limits.board.a is 120: a limit is a whole percent from 0 to 100",
            r#"objectives[1] "{{X}} Cage Moons": range is required when the goal has {{X}}"#,
            r#"objectives[2] "{{X}} Coins": range [5, 3] must be strictly ascending"#,
            r#"objectives[3] "Boss": individual_limit is 2 but the goal has no {{X}}"#,
            r#"objectives[4] "{{X}} Rocks": individual_limit is 3 but range has only 2 value(s)"#,
            r#"objectives[4] "{{X}} Rocks": weighting is 0; it must be a whole number from 1 to 100"#,
            r#"objectives[5] "Cat": board_categories names "zzz", which is not a key of limits.board"#,
            r#"objectives[5] "Cat": line_categories names "a", which is not a key of limits.line"#,
            r#"objectives[6] "Pinned": forced_positions: "centre" is not a position"#,
        ];
        assert_eq!(p.len(), expect.len(), "{p:#?}");
        for (got, want) in p.iter().zip(expect) {
            assert!(got.starts_with(want), "{got:?} should start with {want:?}");
        }
    }

    #[test]
    fn structural_problems() {
        assert!(problems("[1, 2]")[0].contains("top level must be a JSON object"));
        assert!(problems("{\"objectives\": []}")[0].contains("objectives is empty"));
        assert!(problems("{}")[0].contains("objectives is missing"));
        assert!(problems("{\"objectives\": [{\"goal\": \"a\"}")[0].contains("not valid JSON"));
        assert!(
            problems(r#"{"schema_version": 2, "objectives": [{"goal": "a"}]}"#)[0]
                .contains("schema_version is 2")
        );
        let long = format!(r#"{{"objectives": [{{"goal": "{}"}}]}}"#, "x".repeat(61));
        assert!(problems(&long)[0].contains("goal is 61 characters"));
        assert!(
            problems(r#"{"objectives": [{"goal": "a", "disabled": true}]}"#)[0]
                .contains("every objective is disabled")
        );
    }

    #[test]
    fn positions() {
        let set = ObjectiveSet::from_json(
            r#"{"objectives": [{"goal": "{{X}} A", "range": [1, 2], "individual_limit": 2,
                "forced_positions": [12, "R1C5"]}]}"#,
            "t.json",
        )
        .unwrap();
        let f = &set.objectives[0].forced;
        assert_eq!(f, &[Position::Index(12), Position::Cell { row: 1, col: 5 }]);
        assert_eq!(f[0].cell(5, 5), Some(12));
        assert_eq!(f[1].cell(5, 5), Some(4));
        assert_eq!(f[1].cell(3, 4), None);
        assert_eq!(f[0].cell(3, 4), Some(12).filter(|_| false));
    }

    #[test]
    fn the_error_lists_every_problem() {
        let err = ObjectiveSet::from_json(
            r#"{"objectives": [{"goal": "{{X}} A"}, {"goal": "{{X}} B"}]}"#,
            "s.json",
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.starts_with("'s.json' is not a valid objective set (2 problems):\n  objectives[0]")
        );
    }
}
