//! Reports in the hall's time zone: a night file's `zone` is logged with
//! the session, and `hall report` shows every time local to it with its
//! offset (the daily record's date the hall's, not UTC's); `--zone`
//! names another; a log with no zone reports in UTC as it always did.

use crate::common::bingomint;
use crate::hall_money::{lines, sell, Night, NIGHT};
use serde_json::Value;

fn report(dir: &std::path::Path, args: &[&str]) -> (i32, String) {
    let out = bingomint()
        .current_dir(dir)
        .args(["hall", "report"])
        .args(args)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap(), text)
}

#[test]
fn a_report_shows_the_night_s_times_in_the_hall_s_zone() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let n = Night::new(d);
    let night = n.night.clone();
    let text = NIGHT.replacen(
        "currency = \"$\"",
        "currency = \"$\"\nzone = \"America/Los_Angeles\"",
        1,
    );
    std::fs::write(&night, &text).unwrap();
    let log = d.join("n.jsonl");
    let hall = n.open("n.jsonl");
    let (status, v) = sell(&hall, "/api/sales", "Session book", 1, 6);
    assert_eq!(status, 201, "{v}");
    drop(hall);
    let logged = lines(&log);
    assert_eq!(logged[0]["zone"], "America/Los_Angeles");
    let utc = logged[0]["time"].as_str().unwrap().to_string();

    let (code, said) = report(d, &["n.jsonl", "--cards", "c.bmc", "--out", "n.json"]);
    assert_eq!(code, 0, "{said}");
    let r: Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("n.json")).unwrap()).unwrap();
    assert_eq!(r["zone"], "America/Los_Angeles");
    let first = r["first"].as_str().unwrap();
    // The same instant, seen from Washington: -08:00 in winter, -07:00 in summer.
    let local: jiff::Timestamp = first.parse().unwrap();
    assert_eq!(
        local,
        utc.parse::<jiff::Timestamp>().unwrap(),
        "{first} vs {utc}"
    );
    assert!(
        first.ends_with("-08:00") || first.ends_with("-07:00"),
        "{first}"
    );
    let (code, said) = report(d, &["n.jsonl", "--cards", "c.bmc", "--out", "n.html"]);
    assert_eq!(code, 0, "{said}");
    let html = std::fs::read_to_string(d.join("n.html")).unwrap();
    assert!(
        html.contains("Times are local to America/Los_Angeles"),
        "{html}"
    );
    let (code, said) = report(
        d,
        &[
            "n.jsonl", "--cards", "c.bmc", "--form", "wa-daily", "--out", "wa.html",
        ],
    );
    assert_eq!(code, 0, "{said}");
    let wa = std::fs::read_to_string(d.join("wa.html")).unwrap();
    assert!(wa.contains(&format!("session of {}", &first[..10])), "{wa}");
    assert!(!wa.contains(" UTC.</p>"), "{wa}");

    // --zone names another zone; a wrong one is refused, naming the flag.
    let (code, said) = report(
        d,
        &[
            "n.jsonl",
            "--cards",
            "c.bmc",
            "--zone",
            "Europe/London",
            "--out",
            "l.json",
        ],
    );
    assert_eq!(code, 0, "{said}");
    let r: Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("l.json")).unwrap()).unwrap();
    assert!(r["first"].as_str().unwrap().ends_with("+00:00"), "{r}");
    let (code, said) = report(
        d,
        &[
            "n.jsonl",
            "--cards",
            "c.bmc",
            "--zone",
            "Mars/Base",
            "--out",
            "m.json",
        ],
    );
    assert_eq!(code, 2, "{said}");
    assert!(
        said.contains("--zone: \"Mars/Base\" is no time zone"),
        "{said}"
    );
    assert!(!d.join("m.json").exists());

    // A night file naming no zone of the database is refused at the hall's door.
    std::fs::write(&night, text.replace("America/Los_Angeles", "Pacific Time")).unwrap();
    let out = bingomint()
        .args(["hall", "--night", night.to_str().unwrap(), "--check"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("zone") && err.contains("\"Pacific Time\" is no time zone"),
        "{err}"
    );
}
