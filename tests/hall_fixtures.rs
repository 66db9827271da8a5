//! A log is a promise: nights an earlier build logged (committed under
//! `tests/fixtures/hall/`, each beside its card file, night file and
//! ledger) verify and report byte for byte as they did when they were
//! logged. The nights: sales and a progressive jackpot carried over two
//! nights (not won, then won); a tambola night of prizes open at once,
//! cut short and resumed; a night of blower balls with a recall under a
//! player's queued claim, a void and a room seed.
//!
//! `BINGOMINT_WRITE_FIXTURES=1 cargo test --release hall_fixtures -- --ignored`
//! plays the nights again into the folder and writes what today's build
//! says of them: only when the log's format is meant to change (and the
//! old fixtures kept beside the new).

use crate::common::{bingomint, generate};
use crate::hall::{http, start_at, Running};
use crate::hall_money::{key_in, play, sell, NIGHT};
use bingomint::hall::log::Line;
use bingomint::hall::{Event, LedgerEvent};
use serde_json::json;
use std::path::{Path, PathBuf};

/// What is checked of each night: the fixture, the command (`OUT.x`: a
/// file the command writes, compared in place of its output) and the
/// expected file.
const CHECKS: &[(&str, &[&str], &str)] = &[
    (
        "money",
        &[
            "hall",
            "verify",
            "n1.jsonl",
            "n2.jsonl",
            "--cards",
            "c.bmc",
            "--jackpots",
            "jackpots.jsonl",
        ],
        "verify.txt",
    ),
    (
        "money",
        &[
            "hall", "report", "n1.jsonl", "--cards", "c.bmc", "--out", "OUT.json",
        ],
        "n1.json",
    ),
    (
        "money",
        &[
            "hall", "report", "n2.jsonl", "--cards", "c.bmc", "--out", "OUT.csv",
        ],
        "n2.csv",
    ),
    (
        "money",
        &[
            "hall", "report", "n1.jsonl", "--cards", "c.bmc", "--out", "OUT.html",
        ],
        "n1.html",
    ),
    (
        "money",
        &[
            "hall", "report", "n1.jsonl", "--cards", "c.bmc", "--form", "wa-daily", "--out",
            "OUT.html",
        ],
        "n1-wa-daily.html",
    ),
    (
        "money",
        &[
            "hall",
            "report",
            "n1.jsonl",
            "n2.jsonl",
            "--cards",
            "c.bmc",
            "--period",
            "2000-01-01..2099-12-31",
            "--out",
            "OUT.csv",
        ],
        "period.csv",
    ),
    (
        "money",
        &[
            "hall", "report", "n2.jsonl", "--cards", "c.bmc", "--slips", "--out", "OUT.html",
        ],
        "n2-slips.html",
    ),
    (
        "tambola",
        &["hall", "verify", "t.jsonl", "--cards", "s.bmc"],
        "verify.txt",
    ),
    (
        "tambola",
        &[
            "hall", "report", "t.jsonl", "--cards", "s.bmc", "--out", "OUT.json",
        ],
        "t.json",
    ),
    (
        "tambola",
        &[
            "hall", "report", "t.jsonl", "--cards", "s.bmc", "--out", "OUT.csv",
        ],
        "t.csv",
    ),
    (
        "recall",
        &["hall", "verify", "r.jsonl", "--cards", "c.bmc"],
        "verify.txt",
    ),
    (
        "recall",
        &[
            "hall", "report", "r.jsonl", "--cards", "c.bmc", "--out", "OUT.json",
        ],
        "r.json",
    ),
    (
        "recall",
        &[
            "hall", "report", "r.jsonl", "--cards", "c.bmc", "--out", "OUT.html",
        ],
        "r.html",
    ),
];

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hall")
}

/// Runs `args` in a copy of fixture `name` (so the reports are written
/// outside the repository); its exit code and what it said.
/// Runs one check in a copy of its fixture: the exit code, what it
/// said (stdout, or the file it wrote) and its stderr.
fn run(name: &str, args: &[&str]) -> (i32, Vec<u8>, String) {
    let work = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(fixtures().join(name)).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), work.path().join(entry.file_name())).unwrap();
        }
    }
    let out_file = args.iter().find_map(|a| a.strip_prefix("OUT"));
    let out_path = out_file.map(|ext| work.path().join(format!("out{ext}")));
    let args: Vec<String> = (args.iter())
        .map(|a| match (a.strip_prefix("OUT"), &out_path) {
            (Some(_), Some(p)) => p.display().to_string(),
            _ => a.to_string(),
        })
        .collect();
    let out = bingomint()
        .current_dir(work.path())
        .env("TZ", "UTC")
        .args(&args)
        .output()
        .unwrap();
    let said = match &out_path {
        Some(p) => std::fs::read(p).unwrap_or_default(),
        None => out.stdout,
    };
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code().unwrap_or(-1), said, stderr)
}

#[test]
fn nights_an_earlier_build_logged_verify_and_report_the_same() {
    for (name, args, expected) in CHECKS {
        let want = std::fs::read(fixtures().join(name).join("expected").join(expected))
            .unwrap_or_else(|e| panic!("{name}/expected/{expected}: {e}"));
        let (code, got, stderr) = run(name, args);
        assert_eq!(code, 0, "{name}: {args:?}: {stderr}");
        assert!(
            got == want,
            "{name}: {args:?} no longer says what {name}/expected/{expected} holds:\n{}",
            first_difference(&want, &got)
        );
    }
}

#[test]
fn every_line_an_earlier_build_logged_is_written_again_byte_for_byte() {
    let mut seen = 0;
    for dir in std::fs::read_dir(fixtures()).unwrap() {
        for file in std::fs::read_dir(dir.unwrap().path()).unwrap() {
            let path = file.unwrap().path();
            if path.extension().is_none_or(|e| e != "jsonl") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for raw in text.lines() {
                let again = if path.ends_with("jackpots.jsonl") {
                    again::<LedgerEvent>(raw)
                } else {
                    again::<Event>(raw)
                };
                assert_eq!(again, raw, "{}", path.display());
                seen += 1;
            }
        }
    }
    assert!(seen > 150, "only {seen} lines");
}

/// A line read as today's build reads it, and written again.
fn again<E: serde::Serialize + serde::de::DeserializeOwned>(raw: &str) -> String {
    let line: Line<E> = serde_json::from_str(raw).unwrap_or_else(|e| panic!("{e}: {raw}"));
    serde_json::to_string(&line).unwrap()
}

/// The first line where two outputs part.
fn first_difference(want: &[u8], got: &[u8]) -> String {
    let (want, got) = (String::from_utf8_lossy(want), String::from_utf8_lossy(got));
    for (k, (w, g)) in want.lines().zip(got.lines()).enumerate() {
        if w != g {
            return format!("line {}:\n  was: {w}\n  now: {g}", k + 1);
        }
    }
    format!(
        "{} lines were, {} lines now",
        want.lines().count(),
        got.lines().count()
    )
}

/// Plays the nights again into `tests/fixtures/hall/` and writes what
/// this build says of them.
#[test]
#[ignore = "writes the fixtures: BINGOMINT_WRITE_FIXTURES=1"]
fn write_fixtures() {
    if std::env::var_os("BINGOMINT_WRITE_FIXTURES").is_none() {
        return;
    }
    for (name, play) in [
        ("money", money as fn(&Path)),
        ("tambola", tambola),
        ("recall", recall),
    ] {
        let dir = fixtures().join(name);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("expected")).unwrap();
        play(&dir);
    }
    for (name, args, expected) in CHECKS {
        let (code, said, stderr) = run(name, args);
        assert_eq!(code, 0, "{name}: {args:?}: {stderr}");
        let to = fixtures().join(name).join("expected").join(expected);
        std::fs::write(to, said).unwrap();
    }
}

fn open(dir: &Path, cards: &str, log: &str, extra: &[&str]) -> Running {
    start_at(dir, &[Path::new(cards)], Path::new(log), extra)
}

/// Two nights of sales and a progressive jackpot: not won within its
/// calls on the first (the consolation paid), won on the second.
fn money(dir: &Path) {
    std::fs::write(dir.join("session.toml"), NIGHT).unwrap();
    generate(dir, "c.bmc", &["--count", "200", "--seed", "money"]);
    let extra = [
        "--night",
        "session.toml",
        "--balls",
        "blower",
        "--jackpots",
        "jackpots.jsonl",
    ];
    let hall = open(dir, "c.bmc", "n1.jsonl", &extra);
    assert_eq!(sell(&hall, "/api/sales", "Session book", 1, 60).0, 201);
    assert_eq!(
        sell(&hall, "/api/sales", "Snowball single", 101, 140).0,
        201
    );
    assert_eq!(sell(&hall, "/api/sales", "Electronic 12", 141, 164).0, 201);
    assert_eq!(
        sell(&hall, "/api/sales/return", "Session book", 49, 60).0,
        201
    );
    let void = json!({ "sale": 3, "reason": "keyed the wrong pack" });
    assert_eq!(hall.post("/api/sales/void", void).0, 201);
    assert_eq!(hall.post("/api/attendance", json!({ "count": 41 })).0, 201);
    play(&hall, 10);
    drop(hall);
    let hall = open(dir, "c.bmc", "n2.jsonl", &extra);
    assert_eq!(sell(&hall, "/api/sales", "Session book", 1, 12).0, 201);
    assert_eq!(
        sell(&hall, "/api/sales", "Snowball single", 101, 110).0,
        201
    );
    play(&hall, 0);
}

/// Tambola's prizes open at once, claimed out of order; the hall killed
/// with prizes left and resumed.
fn tambola(dir: &Path) {
    let night = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/tambola-night.toml");
    std::fs::copy(night, dir.join("tambola-night.toml")).unwrap();
    generate(
        dir,
        "s.bmc",
        &["--game", "90", "--count", "30", "--seed", "t"],
    );
    let extra = ["--night", "tambola-night.toml", "--balls", "blower"];
    let hall = open(dir, "s.bmc", "t.jsonl", &extra);
    assert_eq!(hall.post("/api/games", json!({})).0, 201);
    let (status, face) = hall.post("/api/faces", json!({ "card": "1" }));
    assert_eq!(status, 200, "{face}");
    let cols = face["cols"].as_u64().unwrap() as usize;
    let cells: Vec<u8> = (face["cells"].as_array().unwrap().iter())
        .map(|n| n.as_u64().unwrap() as u8)
        .collect();
    let rows: Vec<Vec<u8>> = (cells.chunks(cols))
        .map(|r| r.iter().copied().filter(|&n| n > 0).collect())
        .collect();
    let claim = |body| {
        let (status, v) = hall.post("/api/claims", body);
        assert_eq!(status, 200, "{v}");
    };
    key_in(&hall, &rows[2]);
    claim(json!({"card": "1", "accept": true}));
    claim(json!({"card": "1", "accept": true, "prize": "bottom-line"}));
    key_in(&hall, &rows[0]);
    claim(json!({"card": "1", "accept": true}));
    drop(hall);
    let hall = open(dir, "s.bmc", "t.jsonl", &extra);
    key_in(&hall, &rows[1]);
    for prize in ["full-house", "middle-line", "four-corners"] {
        let body = json!({"card": "1", "accept": true, "prize": prize});
        let (status, v) = hall.post("/api/claims", body);
        assert_eq!(status, 200, "{v}");
    }
}

/// Blower balls: a player's claim queued, the ball under it recalled,
/// the win accepted, its payout voided and won again; then a game of the
/// hall's own calls with a room seed.
fn recall(dir: &Path) {
    std::fs::write(
        dir.join("night.toml"),
        "title = \"Tuesday\"\ncurrency = \"£\"\n[[game]]\nname = \"Lines\"\nstages = [\"line\", \"coverall\"]\nprize = [\"10.00\", \"20,50\"]\n",
    )
    .unwrap();
    generate(dir, "c.bmc", &["--count", "60", "--seed", "recall"]);
    let hall = open(
        dir,
        "c.bmc",
        "r.jsonl",
        &["--night", "night.toml", "--balls", "blower"],
    );
    assert_eq!(hall.post("/api/games", json!({})).0, 201);
    let (_, face) = hall.post("/api/faces", json!({"card": "3"}));
    let rest: Vec<u8> = (face["cells"].as_array().unwrap().iter())
        .map(|n| n.as_u64().unwrap() as u8)
        .collect();
    key_in(&hall, &rest[..5]);
    let (status, _) = http(
        &hall.addr,
        "POST",
        "/api/bingo",
        None,
        Some(r#"{"card": "3"}"#),
    );
    assert_eq!(status, 202);
    let (status, _) = http(
        &hall.addr,
        "DELETE",
        "/api/calls/last",
        Some(&hall.key),
        Some("{}"),
    );
    assert_eq!(status, 200);
    key_in(&hall, &rest[4..5]);
    let (status, v) = hall.post("/api/claims", json!({"card": "3", "accept": true}));
    assert_eq!(status, 200, "{v}");
    let (status, v) = hall.post(
        "/api/payouts/void",
        json!({"reason": "the caller misread the card"}),
    );
    assert_eq!(status, 200, "{v}");
    let (status, v) = hall.post("/api/claims", json!({"card": "3", "accept": true}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(hall.post("/api/games/end", json!({})).0, 200);
    drop(hall);
    let hall = open(dir, "c.bmc", "r.jsonl", &[]);
    hall.post(
        "/api/games",
        json!({"pattern": "line", "prize": "a tin of biscuits"}),
    );
    let (status, v) = hall.post("/api/games/room-seed", json!({"room_seed": "table 4"}));
    assert_eq!(status, 201, "{v}");
    for _ in 0..20 {
        hall.post("/api/calls", json!({}));
    }
    for card in 1..=20 {
        hall.post(
            "/api/claims",
            json!({"card": card.to_string(), "accept": true}),
        );
    }
    hall.post("/api/games/end", json!({}));
}

/// The period page of the money fixture's two nights: a net column
/// (receipts less prizes, a loss shown as one) and the progressive
/// jackpot's pot carried out of the period, the hall's liability.
#[test]
fn a_period_page_gives_each_session_s_net_and_the_jackpot_liability() {
    let (code, page, stderr) = run(
        "money",
        &[
            "hall",
            "report",
            "--period",
            "2026-11-01..2026-11-30",
            "n1.jsonl",
            "n2.jsonl",
            "--cards",
            "c.bmc",
            "--out",
            "OUT.html",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let page = String::from_utf8(page).unwrap();
    // n1: $176.00 in, $124.00 paid; n2: $44.00 in, $586.00 paid (the
    // snowball won, $566.00).
    assert!(page.contains("<td>$52.00</td>"), "{page}");
    assert!(page.contains("<td>−$542.00</td>"), "{page}");
    assert!(page.contains("<td>−$490.00</td>"), "{page}");
    // Won on n2, the snowball starts again at its seed.
    assert!(
        page.contains("<tr><td>Snowball</td><td>$500.00</td><td>2026-11-28 (n2.jsonl)</td></tr>"),
        "{page}"
    );
    assert!(
        page.contains("table.period{width:100%;max-width:60em"),
        "{page}"
    );
}
