//! Reading a set: the JSON into loose raw types with `serde` (every field
//! of any JSON type is accepted and kept), then one validation pass that
//! names every problem, `objectives[i] "goal": field …`, at once.

use super::{
    Category, Objective, ObjectiveSet, Position, SetError, FORCED_FIELD, MAX_CATEGORIES,
    MAX_CATEGORIES_PER_OBJECTIVE, MAX_GOAL_CHARS, MAX_OBJECTIVES, MAX_RANGE_VALUES,
    MAX_TOOLTIP_CHARS,
};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

impl ObjectiveSet {
    /// Reads a set from JSON text; `source_name` names it in messages.
    pub fn from_json(text: &str, source_name: &str) -> Result<ObjectiveSet, SetError> {
        let fail = |problems: Vec<String>| SetError {
            source_name: source_name.to_string(),
            problems,
        };
        let root: Value =
            serde_json::from_str(text).map_err(|e| fail(vec![format!("not valid JSON: {e}")]))?;
        if !root.is_object() {
            return Err(fail(vec![
                "the top level must be a JSON object with \"objectives\" and \"limits\"".into(),
            ]));
        }
        // Every field is `Loose`, so any object deserializes: the problems
        // are all found by the validation pass below, not one at a time.
        let raw =
            RawSet::deserialize(root).map_err(|e| fail(vec![format!("not valid JSON: {e}")]))?;
        let mut p = Problems::default();
        let set = raw.validate(&mut p);
        if p.0.is_empty() {
            Ok(set)
        } else {
            Err(fail(p.0))
        }
    }

    /// Reads a set from a file (or a pipe) of at most [`MAX_SET_BYTES`].
    pub fn from_file(path: &std::path::Path) -> Result<ObjectiveSet, SetFileError> {
        let text = crate::input::read_text(path, MAX_SET_BYTES)?;
        Ok(ObjectiveSet::from_json(&text, &path.display().to_string())?)
    }
}

/// The most a goal set file may hold (the largest real sets are 140 kB).
pub const MAX_SET_BYTES: u64 = 16 << 20;

/// Why a set file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum SetFileError {
    #[error(transparent)]
    Read(#[from] crate::input::InputError),
    #[error(transparent)]
    Invalid(#[from] SetError),
}

#[derive(Default)]
struct Problems(Vec<String>);

impl Problems {
    fn push(&mut self, problem: String) {
        self.0.push(problem);
    }
}

/// A field as written: of the expected JSON type, or anything else (kept
/// for the message). `null` is an absent field (`Option`).
#[derive(Deserialize)]
#[serde(untagged)]
enum Loose<T> {
    Ok(T),
    Bad(Value),
}

/// The set as written, before validation (schema v3; unknown fields are
/// ignored).
#[derive(Deserialize)]
struct RawSet {
    schema_version: Option<Value>,
    game_name: Option<Loose<String>>,
    set_name: Option<Loose<String>>,
    limits: Option<Loose<RawLimits>>,
    objectives: Option<Loose<Vec<Loose<RawObjective>>>>,
}

#[derive(Deserialize)]
struct RawLimits {
    board: Option<Loose<BTreeMap<String, Loose<u64>>>>,
    line: Option<Loose<BTreeMap<String, Loose<u64>>>>,
}

#[derive(Deserialize)]
struct RawObjective {
    goal: Option<Loose<String>>,
    range: Option<Loose<Vec<Loose<u64>>>>,
    individual_limit: Option<Loose<u64>>,
    weighting: Option<Loose<u64>>,
    board_categories: Option<Loose<Vec<Loose<String>>>>,
    line_categories: Option<Loose<Vec<Loose<String>>>>,
    tooltip: Option<Loose<String>>,
    disabled: Option<Loose<bool>>,
    forced_positions: Option<Loose<Vec<Value>>>,
}

/// A loose string field's text, if it is a string.
fn text(field: &Option<Loose<String>>) -> Option<String> {
    match field {
        Some(Loose::Ok(s)) => Some(s.clone()),
        _ => None,
    }
}

impl RawSet {
    /// The set, with every problem pushed on `p`.
    fn validate(self, p: &mut Problems) -> ObjectiveSet {
        match &self.schema_version {
            None | Some(Value::Null) => {}
            Some(v) if v.as_u64() == Some(3) => {}
            Some(v) => p.push(format!(
                "schema_version is {v}; bingomint reads schema 3 (set \"schema_version\": 3 after converting)"
            )),
        }
        let (board_categories, line_categories) = match self.limits {
            None => (Vec::new(), Vec::new()),
            Some(Loose::Ok(limits)) => (
                categories("board", limits.board, p),
                categories("line", limits.line, p),
            ),
            Some(Loose::Bad(_)) => {
                p.push("limits must be an object: {\"board\": {…}, \"line\": {…}}".into());
                (Vec::new(), Vec::new())
            }
        };
        let mut objectives = Vec::new();
        match self.objectives {
            Some(Loose::Ok(list)) if !list.is_empty() => {
                if list.len() > MAX_OBJECTIVES {
                    p.push(format!(
                        "objectives: {} objectives; at most {MAX_OBJECTIVES} are supported",
                        list.len()
                    ));
                }
                for (i, raw) in list.into_iter().enumerate() {
                    objectives.push(read_objective(
                        i,
                        raw,
                        &board_categories,
                        &line_categories,
                        p,
                    ));
                }
            }
            Some(Loose::Ok(_)) => p.push("objectives is empty: add at least one objective".into()),
            Some(Loose::Bad(_)) => {
                p.push("objectives must be an array of objective objects".into())
            }
            None => p.push("objectives is missing: the set needs an \"objectives\" array".into()),
        }
        if objectives.iter().all(|o| o.disabled) && !objectives.is_empty() {
            p.push("every objective is disabled: enable at least one".into());
        }
        ObjectiveSet {
            game_name: text(&self.game_name),
            set_name: text(&self.set_name),
            objectives,
            board_categories,
            line_categories,
        }
    }
}

/// The categories of `limits.{kind}`, in name order.
fn categories(
    kind: &str,
    map: Option<Loose<BTreeMap<String, Loose<u64>>>>,
    p: &mut Problems,
) -> Vec<Category> {
    let map = match map {
        None => return Vec::new(),
        Some(Loose::Ok(map)) => map,
        Some(Loose::Bad(_)) => {
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
    map.into_iter()
        .map(|(name, value)| {
            let percent = match value {
                Loose::Ok(percent) if percent <= 100 => percent as u32,
                bad => {
                    p.push(format!(
                        "limits.{kind}.{name} is {}: a limit is a whole percent from 0 to 100",
                        shown(&bad)
                    ));
                    100
                }
            };
            Category { name, percent }
        })
        .collect()
}

/// A loose field as the message shows it (its JSON text).
fn shown<T: serde::Serialize>(field: &Loose<T>) -> String {
    match field {
        Loose::Ok(v) => serde_json::to_string(v).unwrap_or_default(),
        Loose::Bad(v) => v.to_string(),
    }
}

/// Problems of objective `i` go through this, prefixed with its index and goal.
struct Named<'a> {
    name: String,
    p: &'a mut Problems,
}

impl Named<'_> {
    fn push(&mut self, text: String) {
        self.p.push(format!("{}: {text}", self.name));
    }

    /// A whole number from `lo` to `hi`, or None with a problem pushed.
    fn integer(&mut self, field: &str, value: Option<Loose<u64>>, lo: u32, hi: u32) -> Option<u32> {
        match value? {
            Loose::Ok(n) if n >= u64::from(lo) && n <= u64::from(hi) => Some(n as u32),
            bad => {
                self.push(format!(
                    "{field} is {}; it must be a whole number from {lo} to {hi}",
                    shown(&bad)
                ));
                None
            }
        }
    }
}

fn read_objective(
    i: usize,
    raw: Loose<RawObjective>,
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
    let raw = match raw {
        Loose::Ok(raw) => raw,
        Loose::Bad(_) => {
            p.push(format!(
                "objectives[{i}]: must be an object with a \"goal\""
            ));
            return o;
        }
    };
    let name = match text(&raw.goal) {
        Some(g) => format!("objectives[{i}] {:?}", crate::text::clip(&g, 60)),
        None => format!("objectives[{i}]"),
    };
    let mut named = Named { name, p };
    read_goal(&raw, &mut o, &mut named);
    read_range(raw.range, &mut o, &mut named);
    read_limit(raw.individual_limit, &mut o, &mut named);
    if let Some(w) = named.integer("weighting", raw.weighting, 1, 100) {
        o.weighting = w;
    }
    o.board_categories = category_indices(
        "board_categories",
        raw.board_categories,
        board_cats,
        "board",
        &mut named,
    );
    o.line_categories = category_indices(
        "line_categories",
        raw.line_categories,
        line_cats,
        "line",
        &mut named,
    );
    match raw.tooltip {
        None => {}
        Some(Loose::Ok(t)) => {
            let chars = t.chars().count();
            if chars > MAX_TOOLTIP_CHARS {
                named.push(format!(
                    "tooltip is {chars} characters; at most {MAX_TOOLTIP_CHARS} are allowed"
                ));
            }
            if !t.is_empty() {
                o.tooltip = Some(t);
            }
        }
        Some(Loose::Bad(_)) => named.push("tooltip must be a string".into()),
    }
    match raw.disabled {
        None => {}
        Some(Loose::Ok(b)) => o.disabled = b,
        Some(Loose::Bad(v)) => named.push(format!("disabled is {v}; it must be true or false")),
    }
    read_forced(raw.forced_positions, &mut o, &mut named);
    o
}

fn read_goal(raw: &RawObjective, o: &mut Objective, named: &mut Named) {
    match text(&raw.goal) {
        None => named.push("goal is required (the text shown on the board)".into()),
        Some(g) if g.trim().is_empty() => named.push("goal is empty".into()),
        Some(g) => {
            let chars = g.chars().count();
            if chars > MAX_GOAL_CHARS {
                named.push(format!(
                    "goal is {chars} characters; at most {MAX_GOAL_CHARS} are allowed"
                ));
            }
            if g.matches("{{X}}").count() > 1 {
                named.push("goal has more than one {{X}}; at most one is allowed".into());
            }
            o.goal = g;
        }
    }
}

fn read_range(range: Option<Loose<Vec<Loose<u64>>>>, o: &mut Objective, named: &mut Named) {
    let has_x = o.has_value();
    match range {
        None => {}
        Some(Loose::Ok(values)) => {
            let mut ok = true;
            for v in values {
                match v {
                    Loose::Ok(n) if n >= 1 && n <= u64::from(u32::MAX) => o.range.push(n as u32),
                    bad => {
                        named.push(format!(
                            "range value {} is not a positive whole number",
                            shown(&bad)
                        ));
                        ok = false;
                    }
                }
            }
            if ok && o.range.windows(2).any(|w| w[0] >= w[1]) {
                named.push(format!(
                    "range {:?} must be strictly ascending (each value once, smallest first)",
                    o.range
                ));
            }
            if o.range.len() > MAX_RANGE_VALUES {
                named.push(format!(
                    "range has {} values; at most {MAX_RANGE_VALUES} are allowed",
                    o.range.len()
                ));
                o.range.truncate(MAX_RANGE_VALUES);
            }
        }
        Some(Loose::Bad(_)) => {
            named.push("range must be an array of whole numbers, e.g. [2, 4, 6]".into())
        }
    }
    if has_x && o.range.is_empty() {
        named.push("range is required when the goal has {{X}}".into());
    }
    if !has_x && !o.range.is_empty() {
        named.push("range is given but the goal has no {{X}} to put the value in".into());
        o.range.clear();
    }
}

fn read_limit(limit: Option<Loose<u64>>, o: &mut Objective, named: &mut Named) {
    let Some(limit) = named.integer("individual_limit", limit, 1, 99) else {
        return;
    };
    o.individual_limit = limit;
    if limit as usize > o.distinct_values() {
        named.push(if o.has_value() {
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

/// The indices of the categories an objective names in `field`.
fn category_indices(
    field: &str,
    names: Option<Loose<Vec<Loose<String>>>>,
    cats: &[Category],
    kind: &str,
    named: &mut Named,
) -> Vec<u16> {
    let mut out = Vec::new();
    let names = match names {
        None => return out,
        Some(Loose::Ok(names)) => names,
        Some(Loose::Bad(_)) => {
            named.push(format!("{field} must be an array of category names"));
            return out;
        }
    };
    if names.len() > MAX_CATEGORIES_PER_OBJECTIVE {
        named.push(format!(
            "{field} has {} categories; at most {MAX_CATEGORIES_PER_OBJECTIVE} are allowed",
            names.len()
        ));
    }
    for n in names {
        let n = match n {
            Loose::Ok(n) => n,
            Loose::Bad(v) => {
                named.push(format!("{field}: {v} is not a category name"));
                continue;
            }
        };
        match cats.iter().position(|c| c.name == n) {
            Some(k) if !out.contains(&(k as u16)) => out.push(k as u16),
            Some(_) => {}
            None => named.push(format!(
                "{field} names {n:?}, which is not a key of limits.{kind}; add \"{n}\": <percent> there or fix the name"
            )),
        }
    }
    out
}

fn read_forced(list: Option<Loose<Vec<Value>>>, o: &mut Objective, named: &mut Named) {
    match list {
        None => {}
        Some(Loose::Ok(list)) => {
            for v in list {
                match Position::parse(&v) {
                    Some(pos) if !o.forced.contains(&pos) => o.forced.push(pos),
                    Some(_) => named.push(format!("{FORCED_FIELD} lists {v} twice")),
                    None => named.push(format!(
                        "{FORCED_FIELD}: {v} is not a position; use a 0-based row-major cell index (12) or \"r3c3\""
                    )),
                }
            }
            if o.forced.len() > o.individual_limit as usize {
                named.push(format!(
                    "{FORCED_FIELD} lists {} cells but individual_limit is {}; raise the limit or list fewer cells",
                    o.forced.len(),
                    o.individual_limit
                ));
            }
        }
        Some(Loose::Bad(_)) => named.push(format!(
            "{FORCED_FIELD} must be an array of cells, e.g. [12] or [\"r3c3\"]"
        )),
    }
}
