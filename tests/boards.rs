//! Objective boards: limits on real and sample sets (property tests over
//! seeds), relaxation, uniqueness, seed strings, exports and set validation.

use crate::common::{
    bingomint, data, interrupt_once_writing, nine_goal_set, skipped, stdout_of, SmallDisk,
};
use bingomint::boards::board::{unpack, Board, Size, Weighting};
use bingomint::boards::engine::Engine;
use bingomint::boards::set::ObjectiveSet;
use bingomint::boards::{draw_board, draw_numbered, BoardKeys};
use bingomint::dedup::KeySet;
use bingomint::pipeline::{in_pool, mint_own_streams};
use bingomint::seed::own_stream;
use predicates::prelude::*;
use proptest::prelude::*;
use serde_json::Value;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// A real Lockout set from `../shared/data/lockout/`, or None (with a loud
/// note on stderr) when that folder is not there.
fn real_set(name: &str) -> Option<(PathBuf, ObjectiveSet)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/lockout")
        .join(name);
    if !path.exists() {
        // Once per set and run: the property tests ask for it many times.
        static SAID: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
        let mut said = SAID.lock().unwrap_or_else(|e| e.into_inner());
        if !said.iter().any(|n| n == name) {
            said.push(name.to_string());
            skipped(&format!(
                "real Lockout set {} is absent; the checks on it did not run",
                path.display()
            ));
        }
        return None;
    }
    let set = ObjectiveSet::from_file(&path).unwrap();
    Some((path, set))
}

fn sample_set() -> ObjectiveSet {
    ObjectiveSet::from_file(&data("sample-goals.json")).unwrap()
}

fn size(text: &str) -> Size {
    text.parse().unwrap()
}

/// Every property a drawn board must have, whatever the set: each cell a goal
/// of an enabled objective, no (objective, value) twice, forced cells in
/// place, and the constraints broken (counted from scratch) exactly those the
/// board reports as relaxed.
fn check_board(set: &ObjectiveSet, engine: &Engine, board: &Board) {
    let mut broken = engine
        .violations(&board.cells)
        .expect("cells are goals of the set");
    let mut reported: Vec<_> = board.relaxed.iter().map(|r| r.gave).collect();
    broken.sort_unstable();
    reported.sort_unstable();
    assert_eq!(
        broken, reported,
        "broken constraints differ from the relaxed list"
    );
    let sz = engine.size();
    for &cell in &board.cells {
        let (k, _) = unpack(cell);
        assert!(
            !set.objectives[k].disabled,
            "disabled objective {k} on a board"
        );
    }
    for (k, o) in set.objectives.iter().enumerate() {
        for pos in &o.forced {
            if let Some(c) = pos.cell(sz.rows, sz.cols) {
                assert_eq!(
                    unpack(board.cells[c]).0,
                    k,
                    "forced objective {k} not at {pos}"
                );
            }
        }
    }
}

fn draw(engine: &Engine, seed: u64, n: u64) -> Board {
    draw_board(engine, &mut own_stream(seed, n, 0), 0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn real_sets_meet_every_limit_square_and_rectangle(seed in any::<u64>()) {
        for name in ["smo_short.json", "smo_combined.json"] {
            let Some((_, set)) = real_set(name) else { continue };
            for sz in ["5x5", "7x7", "7x5", "3x10"] {
                let engine = Engine::new(&set, size(sz), Weighting::Lockout).unwrap();
                for n in 1..=25 {
                    let board = draw(&engine, seed, n);
                    check_board(&set, &engine, &board);
                    // These sets fit these sizes: nothing should give way.
                    prop_assert!(board.relaxed.is_empty(), "{name} {sz}: {:?}", board.relaxed);
                }
            }
        }
    }

    #[test]
    fn sample_set_boards_are_valid_in_both_weighting_modes(seed in any::<u64>()) {
        let set = sample_set();
        for (sz, weighting) in [("5x5", Weighting::Lockout), ("5x5", Weighting::Proportional),
                                ("6x4", Weighting::Lockout), ("7x7", Weighting::Lockout)] {
            let engine = Engine::new(&set, size(sz), weighting).unwrap();
            for n in 1..=20 {
                check_board(&set, &engine, &draw(&engine, seed, n));
            }
        }
    }
}

/// Ten objectives all in one board category capped at 10 % (3 of 25 cells)
/// and one line category capped at 0 % (1 per line): no 5x5 board can meet
/// that, so constraints must give way, and say so.
const TIGHT: &str = r#"{
  "schema_version": 3,
  "limits": {"board": {"red": 10}, "line": {"red": 0}},
  "objectives": [
    {"goal": "A {{X}}", "range": [1,2,3], "individual_limit": 3, "board_categories": ["red"], "line_categories": ["red"]},
    {"goal": "B {{X}}", "range": [1,2,3], "individual_limit": 3, "board_categories": ["red"], "line_categories": ["red"]},
    {"goal": "C {{X}}", "range": [1,2,3], "individual_limit": 3, "board_categories": ["red"], "line_categories": ["red"]},
    {"goal": "D {{X}}", "range": [1,2,3], "individual_limit": 3, "board_categories": ["red"], "line_categories": ["red"]},
    {"goal": "E {{X}}", "range": [1,2,3], "individual_limit": 3, "board_categories": ["red"], "line_categories": ["red"]},
    {"goal": "F {{X}}", "range": [1,2,3], "individual_limit": 3, "board_categories": ["red"], "line_categories": ["red"]},
    {"goal": "G {{X}}", "range": [1,2,3], "individual_limit": 3, "board_categories": ["red"], "line_categories": ["red"]},
    {"goal": "H {{X}}", "range": [1,2,3], "individual_limit": 3, "board_categories": ["red"], "line_categories": ["red"]},
    {"goal": "I {{X}}", "range": [1,2,3], "individual_limit": 3, "board_categories": ["red"], "line_categories": ["red"]},
    {"goal": "J {{X}}", "range": [1,2,3], "individual_limit": 3, "board_categories": ["red"], "line_categories": ["red"]}
  ]
}"#;

#[test]
fn an_over_tight_set_relaxes_and_reports_every_constraint_that_gave_way() {
    let set = ObjectiveSet::from_json(TIGHT, "tight.json").unwrap();
    let engine = Engine::new(&set, size("5x5"), Weighting::Lockout).unwrap();
    for n in 1..=50 {
        let board = draw(&engine, 3, n);
        check_board(&set, &engine, &board);
        assert!(!board.relaxed.is_empty());
        // With 25 red cells, a board cap of 3 and a line cap of 1, both
        // category limits must give way.
        use bingomint::boards::board::Gave;
        assert!(board
            .relaxed
            .iter()
            .any(|r| matches!(r.gave, Gave::BoardCategory { .. })));
        assert!(board
            .relaxed
            .iter()
            .any(|r| matches!(r.gave, Gave::LineCategory { .. })));
    }
}

#[test]
fn the_cli_reports_relaxation_on_stderr_and_in_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tight.json");
    std::fs::write(&path, TIGHT).unwrap();
    let out = bingomint()
        .args(["boards", "--seed", "x", "--format", "json", "--set"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("warning: board 1 (x:v1:1): r"), "{stderr}");
    assert!(
        stderr.contains("board category \"red\" (at most 3 per board) gave way"),
        "{stderr}"
    );
    let boards: Value = serde_json::from_slice(&out.stdout).unwrap();
    let relaxed = boards[0]["relaxed"].as_array().unwrap();
    assert!(!relaxed.is_empty());
    assert!(relaxed
        .iter()
        .any(|r| r["constraint"] == "line_category" && r["category"] == "red" && r["limit"] == 1));
    // --check says the limits cannot be met, and answers no. See: hardening
    // round two, item 6 (it exited 0).
    bingomint()
        .args(["boards", "--check", "--set"])
        .arg(&path)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "10000 of 10000 sample boards needed a constraint to give way",
        ))
        .stdout(predicate::str::contains("FAILED: "));
}

// See: hardening round two, item 6 — a set whose objectives repeat one goal
// text filled boards with that goal, and --check said "met every limit".
#[test]
fn check_names_goals_that_repeat() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("same.json");
    let mut objectives: Vec<String> = (0..30).map(|_| r#"{"goal": "Jump"}"#.to_string()).collect();
    objectives.push(r#"{"goal": "{{X}} coins", "range": [1, 5]}"#.into());
    objectives.push(r#"{"goal": "{{X}} coins", "range": [6, 9]}"#.into());
    std::fs::write(
        &path,
        format!(r#"{{"objectives": [{}]}}"#, objectives.join(",")),
    )
    .unwrap();
    let said = bingomint()
        .args(["boards", "--check", "--set"])
        .arg(&path)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "objectives[0], objectives[1], objectives[2]",
        ))
        .stdout(predicate::str::contains("a board can show it 30 times"))
        .get_output()
        .stdout
        .clone();
    // Templates over different values show different goals.
    assert!(!String::from_utf8_lossy(&said).contains("coins"));
}

#[test]
fn a_set_that_can_never_fill_the_board_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("small.json");
    std::fs::write(
        &path,
        r#"{"objectives": [{"goal": "a"}, {"goal": "{{X}} b", "range": [1, 2]}]}"#,
    )
    .unwrap();
    bingomint()
        .args(["boards", "--size", "3x3", "--set"])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "the set has 3 distinct goals (objective × range value) among its enabled objectives, but a 3x3 board has 9 cells",
        ));
}

/// Runs `boards` with `args` and returns stdout.
fn boards(set: &Path, args: &[&str]) -> String {
    stdout_of(bingomint().arg("boards").arg("--set").arg(set).args(args))
}

#[test]
fn batches_are_identical_for_any_thread_count_and_seed_strings_redraw_one_board() {
    let set = data("sample-goals.json");
    let args = [
        "--count", "3000", "--seed", "league-7", "--format", "jsonl", "--quiet",
    ];
    let one = boards(&set, &[&args[..], &["--threads", "1"]].concat());
    let two = boards(&set, &[&args[..], &["--threads", "2"]].concat());
    assert!(one == two, "--threads 1 and 2 differ");
    let lines: Vec<&str> = one.lines().collect();
    assert_eq!(lines.len(), 3000);
    let keys: HashSet<Vec<(u64, Value)>> = lines
        .iter()
        .map(|l| {
            let b: Value = serde_json::from_str(l).unwrap();
            b["cells"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| (c["objective"].as_u64().unwrap(), c["value"].clone()))
                .collect()
        })
        .collect();
    assert_eq!(keys.len(), 3000, "boards repeat");
    // Board 1234's own seed string draws exactly that board again, alone.
    let board: Value = serde_json::from_str(lines[1233]).unwrap();
    assert_eq!(board["seed"], "league-7:v1:1234");
    let again = boards(&set, &["--seed", "league-7:v1:1234", "--format", "jsonl"]);
    assert_eq!(again.trim_end(), lines[1233]);
}

#[test]
fn duplicates_are_redrawn_and_their_seed_strings_still_reproduce_them() {
    // Nine objectives on a 3x3 board: 4,000 boards repeat some.
    let set = nine_goal_set();
    let engine = Engine::new(&set, size("3x3"), Weighting::Lockout).unwrap();
    let run = |threads: usize| {
        in_pool(Some(threads), || {
            let count = 4000;
            let keys = KeySet::with_capacity(count);
            let mut boards = vec![Board::default(); count];
            let stats =
                mint_own_streams(&BoardKeys::<16>, 1, &mut boards, &keys, &|_| {}, |n, a| {
                    draw_numbered(&engine, 11, n, a)
                })
                .unwrap();
            (boards, stats)
        })
        .unwrap()
    };
    let (boards, stats) = run(1);
    assert!(stats.redrawn > 0, "{stats:?}");
    assert_eq!(run(2), (boards.clone(), stats));
    let distinct: HashSet<&Vec<u16>> = boards.iter().map(|b| &b.cells).collect();
    assert_eq!(distinct.len(), 4000);
    let redrawn: Vec<(usize, &Board)> = boards
        .iter()
        .enumerate()
        .filter(|(_, b)| b.attempt > 0)
        .collect();
    assert_eq!(redrawn.len() as u64, stats.redrawn);
    for (i, b) in redrawn {
        let again = draw_board(
            &engine,
            &mut own_stream(11, i as u64 + 1, b.attempt),
            b.attempt,
        );
        assert_eq!(again.cells, b.cells);
    }
}

#[test]
fn forced_positions_and_text_grid() {
    let text = boards(&data("sample-goals.json"), &["--seed", "MV2XRO"]);
    assert!(
        text.starts_with("board 1 · seed MV2XRO:v1:1 · Lantern Keep: Sample Goals · 5x5\n┌"),
        "{text}"
    );
    // The centre row holds the forced "Pet the Lighthouse Cat" in column 3.
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with('│')).collect();
    let centre_rows: Vec<&str> = rows
        .iter()
        .copied()
        .filter(|l| l.contains("Pet the Lighthouse"))
        .collect();
    assert_eq!(centre_rows.len(), 1);
    let cells: Vec<&str> = centre_rows[0].split('│').collect();
    assert!(
        cells[3].contains("Pet the Lighthouse"),
        "{}",
        centre_rows[0]
    );
}

#[test]
fn bingosync_is_25_names_and_needs_5x5() {
    let out = boards(
        &data("sample-goals.json"),
        &["--seed", "s", "--format", "bingosync"],
    );
    let list: Vec<Value> = serde_json::from_str(&out).unwrap();
    assert_eq!(list.len(), 25);
    for item in &list {
        let obj = item.as_object().unwrap();
        assert_eq!(obj.len(), 1);
        assert!(!obj["name"].as_str().unwrap().is_empty());
        assert!(!obj["name"].as_str().unwrap().contains("{{X}}"));
    }
    bingomint()
        .args(["boards", "--size", "7x5", "--format", "bingosync", "--set"])
        .arg(data("sample-goals.json"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--format bingosync needs --size 5x5",
        ));
}

#[test]
fn csv_has_a_header_and_a_row_per_board() {
    let out = boards(
        &data("sample-goals.json"),
        &[
            "--seed", "s", "--count", "5", "--format", "csv", "--size", "4x3",
        ],
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 6);
    assert_eq!(
        lines[0],
        "board,seed,rows,cols,r1c1,r1c2,r1c3,r2c1,r2c2,r2c3,r3c1,r3c2,r3c3,r4c1,r4c2,r4c3,relaxed"
    );
    assert!(lines[3].starts_with("3,s:v1:3,4,3,"));
}

#[test]
fn json_is_an_array_with_the_documented_fields() {
    let out = boards(
        &data("sample-goals.json"),
        &[
            "--seed", "s", "--count", "3", "--format", "json", "--size", "7x5",
        ],
    );
    let list: Vec<Value> = serde_json::from_str(&out).unwrap();
    assert_eq!(list.len(), 3);
    let b = &list[2];
    assert_eq!(
        (b["board"].as_u64(), b["rows"].as_u64(), b["cols"].as_u64()),
        (Some(3), Some(7), Some(5))
    );
    assert_eq!(b["cells"].as_array().unwrap().len(), 35);
    let set = sample_set();
    for cell in b["cells"].as_array().unwrap() {
        let k = cell["objective"].as_u64().unwrap() as usize;
        let o = &set.objectives[k];
        let value = cell["value"].as_u64().map(|v| v as u32);
        assert_eq!(cell["goal"], o.text(value));
        assert_eq!(value.is_some(), o.has_value());
    }
}

#[test]
fn real_sets_through_the_cli() {
    let Some((path, _)) = real_set("smo_short.json") else {
        return;
    };
    let out = boards(
        &path,
        &[
            "--seed", "MV2XRO", "--format", "jsonl", "--count", "200", "--size", "7x5",
        ],
    );
    assert_eq!(out.lines().count(), 200);
    bingomint()
        .args(["boards", "--check", "--size", "7x7", "--set"])
        .arg(&path)
        .assert()
        .success()
        .stdout(predicate::str::contains("91 objectives (91 enabled)"))
        .stdout(predicate::str::contains(
            "7x7: all 10000 sample boards met every limit",
        ));
}

#[test]
fn an_invalid_set_names_every_problem_and_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.json");
    std::fs::write(
        &path,
        r#"{"schema_version": 3, "limits": {"board": {"moons": 20}},
            "objectives": [
              {"goal": "Fine"},
              {"goal": "Also fine", "board_categories": ["moons"]},
              {"goal": "Stars"},
              {"goal": "{{X}} Cage Moons", "board_categories": ["moon"]}
            ]}"#,
    )
    .unwrap();
    for extra in [&[][..], &["--check"][..]] {
        bingomint()
            .arg("boards")
            .args(extra)
            .arg("--set")
            .arg(&path)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("(2 problems)"))
            .stderr(predicate::str::contains(
                r#"objectives[3] "{{X}} Cage Moons": range is required when the goal has {{X}}"#,
            ))
            .stderr(predicate::str::contains(
                r#"objectives[3] "{{X}} Cage Moons": board_categories names "moon", which is not a key of limits.board"#,
            ));
    }
}

#[test]
fn bad_flags_are_clear_errors() {
    let set = data("sample-goals.json");
    let fails = |args: &[&str], message: &str| {
        bingomint()
            .arg("boards")
            .arg("--set")
            .arg(&set)
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    };
    fails(&["--size", "11x5"], "not a board size: use RxC");
    fails(&["--size", "5by5"], "not a board size");
    fails(&["--seed", "s:v1:3", "--count", "2"], "names one board");
    fails(&["--seed", "s:v7:3"], "v7");
    fails(&["--count", "0"], "--count must be at least 1");
    bingomint()
        .args(["boards", "--set", "/nonexistent/goals.json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--set: cannot read '/nonexistent/goals.json'",
        ));
}

#[test]
fn refuses_to_overwrite_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("b.jsonl");
    std::fs::write(&out, "keep me").unwrap();
    bingomint()
        .args(["boards", "--format", "jsonl", "--set"])
        .arg(data("sample-goals.json"))
        .arg("--out")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("already exists"));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep me");
    bingomint()
        .args([
            "boards", "--format", "jsonl", "--seed", "1", "--force", "--set",
        ])
        .arg(data("sample-goals.json"))
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .starts_with("{\"board\":1,"));
}

#[test]
fn weighting_makes_rare_objectives_rare() {
    // "Take no damage against a Warden" has weighting 25, "Talk to the
    // Ferryman" 100 (and the same single category). Over 2,000 boards the
    // first must appear far less often in both modes.
    let set = sample_set();
    let rare = set
        .objectives
        .iter()
        .position(|o| o.goal.starts_with("Take no damage"))
        .unwrap();
    let common = set
        .objectives
        .iter()
        .position(|o| o.goal == "Talk to the Ferryman")
        .unwrap();
    for weighting in [Weighting::Lockout, Weighting::Proportional] {
        let engine = Engine::new(&set, size("5x5"), weighting).unwrap();
        let (mut r, mut c) = (0, 0);
        for n in 1..=2000 {
            let board = draw(&engine, 99, n);
            let ks: Vec<usize> = board.cells.iter().map(|&x| unpack(x).0).collect();
            r += ks.contains(&rare) as u32;
            c += ks.contains(&common) as u32;
        }
        assert!(
            r * 2 < c,
            "{weighting:?}: weighting 25 in {r} boards, 100 in {c}"
        );
    }
}

#[cfg(unix)]
#[test]
fn an_interrupted_run_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("boards.jsonl");
    let set = data("sample-goals.json");
    let args = [
        "boards",
        "--set",
        set.to_str().unwrap(),
        "--count",
        "1000000",
        "--seed",
        "1",
        "--format",
        "jsonl",
        "-q",
        "--out",
    ];
    interrupt_once_writing(&args, &out);
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_a_clear_error_and_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let Some(disk) = SmallDisk::mount(
        dir.path(),
        "boards::a_full_disk_is_a_clear_error_and_leaves_no_file",
    ) else {
        return;
    };
    bingomint()
        .args(["boards", "--count", "5000", "--format", "jsonl", "--set"])
        .arg(data("sample-goals.json"))
        .arg("--out")
        .arg(disk.path.join("b.jsonl"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot write"))
        .stderr(predicate::str::contains("No space left"));
    assert_eq!(disk.files(), 0);
}

/// Replacements a property test puts in a field of the sample set.
fn replacement(kind: u8) -> Value {
    match kind % 9 {
        0 => Value::Null,
        1 => serde_json::json!(0),
        2 => serde_json::json!(-3),
        3 => serde_json::json!(1000),
        4 => serde_json::json!("r9c9"),
        5 => serde_json::json!([]),
        6 => serde_json::json!([5, 1, 5]),
        7 => serde_json::json!({"x": 1}),
        _ => serde_json::json!("{{X}} {{X}} [[s]]"),
    }
}

const FIELDS: [&str; 9] = [
    "goal",
    "range",
    "individual_limit",
    "weighting",
    "board_categories",
    "line_categories",
    "disabled",
    "forced_positions",
    "tooltip",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Whatever a user breaks in a set, reading it either fails with named
    /// problems or gives a set whose boards are valid: never a panic.
    #[test]
    fn damaged_sets_are_refused_or_make_valid_boards(
        edits in proptest::collection::vec((0usize..38, 0usize..9, any::<u8>()), 1..6),
        seed in any::<u64>(),
    ) {
        let text = std::fs::read_to_string(data("sample-goals.json")).unwrap();
        let mut json: Value = serde_json::from_str(&text).unwrap();
        for &(i, field, kind) in &edits {
            let o = json["objectives"][i].as_object_mut().unwrap();
            if kind % 10 == 9 {
                o.remove(FIELDS[field]);
            } else {
                o.insert(FIELDS[field].to_string(), replacement(kind));
            }
        }
        match ObjectiveSet::from_json(&json.to_string(), "edited.json") {
            Err(e) => {
                prop_assert!(!e.problems.is_empty());
                for p in &e.problems {
                    prop_assert!(p.starts_with("objectives[") || p.starts_with("every objective"), "{p}");
                }
            }
            Ok(set) => {
                for sz in ["3x3", "5x5", "4x7"] {
                    if let Ok(engine) = Engine::new(&set, size(sz), Weighting::Lockout) {
                        for n in 1..=5 {
                            check_board(&set, &engine, &draw(&engine, seed, n));
                        }
                    }
                }
            }
        }
    }
}
