//! Objective sets in Lockout's schema v3: reading them as users write them,
//! and naming every problem the schema forbids.
//!
//! Fields this module does not use (`icons`, `progression`, `tag`, `orden`, …)
//! are ignored, never fatal. Every problem is reported at once, one line
//! each, naming the objective's index, its goal text and the field:
//! `objectives[3] "{{X}} Cage Moons": range is required when the goal has {{X}}`.

use serde_json::{Map, Value};
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
    /// Reads a set from JSON text; `source_name` names it in messages.
    pub fn from_json(text: &str, source_name: &str) -> Result<ObjectiveSet, SetError> {
        let fail = |problems: Vec<String>| SetError {
            source_name: source_name.to_string(),
            problems,
        };
        let root: Value =
            serde_json::from_str(text).map_err(|e| fail(vec![format!("not valid JSON: {e}")]))?;
        let Some(root) = root.as_object() else {
            return Err(fail(vec![
                "the top level must be a JSON object with \"objectives\" and \"limits\"".into(),
            ]));
        };
        let mut p = Problems::default();
        match root.get("schema_version") {
            None | Some(Value::Null) => {}
            Some(v) if v.as_u64() == Some(3) => {}
            Some(v) => p.push(format!(
                "schema_version is {v}; bingomint reads schema 3 (set \"schema_version\": 3 after converting)"
            )),
        }
        let game_name = root
            .get("game_name")
            .and_then(Value::as_str)
            .map(String::from);
        let set_name = root
            .get("set_name")
            .and_then(Value::as_str)
            .map(String::from);
        let (board_categories, line_categories) = read_limits(root.get("limits"), &mut p);
        let mut objectives = Vec::new();
        match root.get("objectives") {
            Some(Value::Array(list)) if !list.is_empty() => {
                if list.len() > MAX_OBJECTIVES {
                    p.push(format!(
                        "objectives: {} objectives; at most {MAX_OBJECTIVES} are supported",
                        list.len()
                    ));
                }
                for (i, value) in list.iter().enumerate() {
                    let o = read_objective(i, value, &board_categories, &line_categories, &mut p);
                    objectives.push(o);
                }
            }
            Some(Value::Array(_)) => {
                p.push("objectives is empty: add at least one objective".into())
            }
            Some(_) => p.push("objectives must be an array of objective objects".into()),
            None => p.push("objectives is missing: the set needs an \"objectives\" array".into()),
        }
        if objectives.iter().all(|o| o.disabled) && !objectives.is_empty() {
            p.push("every objective is disabled: enable at least one".into());
        }
        if !p.0.is_empty() {
            return Err(fail(p.0));
        }
        Ok(ObjectiveSet {
            game_name,
            set_name,
            objectives,
            board_categories,
            line_categories,
        })
    }

    /// Reads a set from a file.
    pub fn from_file(path: &std::path::Path) -> anyhow::Result<ObjectiveSet> {
        use anyhow::Context;
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("--set: cannot read '{}'", path.display()))?;
        Ok(ObjectiveSet::from_json(&text, &path.display().to_string())?)
    }

    /// "Super Mario Odyssey: Short Goals", or what there is of it.
    pub fn title(&self) -> String {
        match (&self.game_name, &self.set_name) {
            (Some(g), Some(s)) => format!("{g}: {s}"),
            (Some(n), None) | (None, Some(n)) => n.clone(),
            (None, None) => "objective set".into(),
        }
    }
}

#[derive(Default)]
struct Problems(Vec<String>);

impl Problems {
    fn push(&mut self, problem: String) {
        self.0.push(problem);
    }
}

fn read_limits(limits: Option<&Value>, p: &mut Problems) -> (Vec<Category>, Vec<Category>) {
    let empty = Map::new();
    let limits = match limits {
        None | Some(Value::Null) => &empty,
        Some(Value::Object(m)) => m,
        Some(_) => {
            p.push("limits must be an object: {\"board\": {…}, \"line\": {…}}".into());
            &empty
        }
    };
    let mut read = |kind: &str| -> Vec<Category> {
        let map = match limits.get(kind) {
            None | Some(Value::Null) => return Vec::new(),
            Some(Value::Object(m)) => m,
            Some(_) => {
                p.push(format!(
                    "limits.{kind} must be an object mapping each category to a percent"
                ));
                return Vec::new();
            }
        };
        if map.len() > MAX_CATEGORIES {
            p.push(format!(
                "limits.{kind}: {} categories; at most {MAX_CATEGORIES} are supported",
                map.len()
            ));
        }
        let mut cats = Vec::new();
        for (name, value) in map {
            match value.as_u64() {
                Some(percent) if percent <= 100 => cats.push(Category {
                    name: name.clone(),
                    percent: percent as u32,
                }),
                _ => {
                    p.push(format!(
                        "limits.{kind}.{name} is {value}: a limit is a whole percent from 0 to 100"
                    ));
                    cats.push(Category {
                        name: name.clone(),
                        percent: 100,
                    });
                }
            }
        }
        cats
    };
    let board = read("board");
    let line = read("line");
    (board, line)
}

fn read_objective(
    i: usize,
    value: &Value,
    board_cats: &[Category],
    line_cats: &[Category],
    p: &mut Problems,
) -> Objective {
    let mut o = Objective {
        goal: String::new(),
        range: Vec::new(),
        individual_limit: 1,
        weighting: 100,
        board_categories: Vec::new(),
        line_categories: Vec::new(),
        tooltip: None,
        disabled: false,
        forced: Vec::new(),
    };
    let Some(map) = value.as_object() else {
        p.push(format!(
            "objectives[{i}]: must be an object with a \"goal\""
        ));
        return o;
    };
    let goal = map.get("goal").and_then(Value::as_str);
    let name = match goal {
        Some(g) => format!("objectives[{i}] {g:?}"),
        None => format!("objectives[{i}]"),
    };
    let mut problem = |text: String| p.push(format!("{name}: {text}"));
    match goal {
        None => problem("goal is required (the text shown on the board)".into()),
        Some(g) if g.trim().is_empty() => problem("goal is empty".into()),
        Some(g) => {
            let chars = g.chars().count();
            if chars > MAX_GOAL_CHARS {
                problem(format!(
                    "goal is {chars} characters; at most {MAX_GOAL_CHARS} are allowed"
                ));
            }
            if g.matches("{{X}}").count() > 1 {
                problem("goal has more than one {{X}}; at most one is allowed".into());
            }
            o.goal = g.to_string();
        }
    }
    let has_x = o.goal.contains("{{X}}");
    match map.get("range") {
        None | Some(Value::Null) => {}
        Some(Value::Array(values)) => {
            let mut ok = true;
            for v in values {
                match v.as_u64() {
                    Some(n) if n >= 1 && n <= u64::from(u32::MAX) => o.range.push(n as u32),
                    _ => {
                        problem(format!("range value {v} is not a positive whole number"));
                        ok = false;
                    }
                }
            }
            if ok && o.range.windows(2).any(|w| w[0] >= w[1]) {
                problem(format!(
                    "range {:?} must be strictly ascending (each value once, smallest first)",
                    o.range
                ));
            }
            if o.range.len() > MAX_RANGE_VALUES {
                problem(format!(
                    "range has {} values; at most {MAX_RANGE_VALUES} are allowed",
                    o.range.len()
                ));
                o.range.truncate(MAX_RANGE_VALUES);
            }
        }
        Some(_) => problem("range must be an array of whole numbers, e.g. [2, 4, 6]".into()),
    }
    if has_x && o.range.is_empty() {
        problem("range is required when the goal has {{X}}".into());
    }
    if !has_x && !o.range.is_empty() {
        problem("range is given but the goal has no {{X}} to put the value in".into());
        o.range.clear();
    }
    let integer =
        |field: &str, lo: u32, hi: u32, problem: &mut dyn FnMut(String)| match map.get(field) {
            None | Some(Value::Null) => None,
            Some(v) => match v.as_u64() {
                Some(n) if n >= u64::from(lo) && n <= u64::from(hi) => Some(n as u32),
                _ => {
                    problem(format!(
                        "{field} is {v}; it must be a whole number from {lo} to {hi}"
                    ));
                    None
                }
            },
        };
    if let Some(limit) = integer("individual_limit", 1, 99, &mut problem) {
        o.individual_limit = limit;
        if limit as usize > o.distinct_values() {
            problem(if has_x {
                format!(
                    "individual_limit is {limit} but range has only {} value(s); repeats need distinct values",
                    o.range.len()
                )
            } else {
                format!(
                    "individual_limit is {limit} but the goal has no {{{{X}}}}; only goals with a range may repeat"
                )
            });
        }
    }
    if let Some(w) = integer("weighting", 1, 100, &mut problem) {
        o.weighting = w;
    }
    for (field, cats, kind, out) in [
        (
            "board_categories",
            board_cats,
            "board",
            &mut o.board_categories,
        ),
        ("line_categories", line_cats, "line", &mut o.line_categories),
    ] {
        match map.get(field) {
            None | Some(Value::Null) => {}
            Some(Value::Array(names)) => {
                if names.len() > MAX_CATEGORIES_PER_OBJECTIVE {
                    problem(format!(
                        "{field} has {} categories; at most {MAX_CATEGORIES_PER_OBJECTIVE} are allowed",
                        names.len()
                    ));
                }
                for n in names {
                    let Some(n) = n.as_str() else {
                        problem(format!("{field}: {n} is not a category name"));
                        continue;
                    };
                    match cats.iter().position(|c| c.name == n) {
                        Some(k) => {
                            if !out.contains(&(k as u16)) {
                                out.push(k as u16);
                            }
                        }
                        None => problem(format!(
                            "{field} names {n:?}, which is not a key of limits.{kind}; add \"{n}\": <percent> there or fix the name"
                        )),
                    }
                }
            }
            Some(_) => problem(format!("{field} must be an array of category names")),
        }
    }
    match map.get("tooltip") {
        None | Some(Value::Null) => {}
        Some(Value::String(t)) => {
            let chars = t.chars().count();
            if chars > MAX_TOOLTIP_CHARS {
                problem(format!(
                    "tooltip is {chars} characters; at most {MAX_TOOLTIP_CHARS} are allowed"
                ));
            }
            if !t.is_empty() {
                o.tooltip = Some(t.clone());
            }
        }
        Some(_) => problem("tooltip must be a string".into()),
    }
    match map.get("disabled") {
        None | Some(Value::Null) => {}
        Some(Value::Bool(b)) => o.disabled = *b,
        Some(v) => problem(format!("disabled is {v}; it must be true or false")),
    }
    match map.get(FORCED_FIELD) {
        None | Some(Value::Null) => {}
        Some(Value::Array(list)) => {
            for v in list {
                match Position::parse(v) {
                    Some(pos) if !o.forced.contains(&pos) => o.forced.push(pos),
                    Some(_) => problem(format!("{FORCED_FIELD} lists {v} twice")),
                    None => problem(format!(
                        "{FORCED_FIELD}: {v} is not a position; use a 0-based row-major cell index (12) or \"r3c3\""
                    )),
                }
            }
            if o.forced.len() > o.individual_limit as usize {
                problem(format!(
                    "{FORCED_FIELD} lists {} cells but individual_limit is {}; raise the limit or list fewer cells",
                    o.forced.len(),
                    o.individual_limit
                ));
            }
        }
        Some(_) => problem(format!(
            "{FORCED_FIELD} must be an array of cells, e.g. [12] or [\"r3c3\"]"
        )),
    }
    o
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
