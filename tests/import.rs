//! `bingomint import`: other makers' files in, every face judged, and the
//! imported file at work everywhere a card file is (show, check, winners,
//! export, print, --exclude), named by every reference a player can read.

use crate::common::{self, bingomint, generate, stdout_of};
use predicates::str::contains;
use std::path::{Path, PathBuf};

/// Imports `source` as `game` into `dir/out` with `args`; must succeed.
pub fn import(dir: &Path, source: &Path, game: &str, out: &str, args: &[&str]) -> PathBuf {
    let path = dir.join(out);
    bingomint()
        .arg("import")
        .arg(source)
        .args(["--game", game, "--quiet", "--out"])
        .arg(&path)
        .args(args)
        .assert()
        .success();
    path
}

/// `import` of `source` that must fail with exit 2 naming `message`, and
/// leave nothing at `--out` nor beside it.
pub fn refused(dir: &Path, source: &Path, game: &str, args: &[&str], message: &str) {
    let out = dir.join("refused.bmc");
    bingomint()
        .arg("import")
        .arg(source)
        .args(["--game", game, "--out"])
        .arg(&out)
        .args(args)
        .assert()
        .code(2)
        .stderr(contains(message));
    assert!(!out.exists(), "a refused import left {}", out.display());
    let stray: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("refused"))
        .collect();
    assert!(stray.is_empty(), "temporaries left: {stray:?}");
}

pub fn export(file: &Path, format: &str, range: Option<&str>) -> String {
    let mut cmd = bingomint();
    cmd.args(["export", "--format", format]).arg(file);
    if let Some(range) = range {
        cmd.args(["--range", range]);
    }
    stdout_of(&mut cmd)
}

#[test]
fn exports_import_back_to_the_same_faces_for_every_game_and_format() {
    let dir = tempfile::tempdir().unwrap();
    for (game, extra) in [
        ("75", "--star"),
        ("75", "--seed=5"),
        ("80", "--seed=6"),
        ("90", "--seed=7"),
    ] {
        let name = format!("g{game}{extra}.bmc");
        let file = generate(
            dir.path(),
            &name,
            &["--game", game, "--count", "240", extra],
        );
        for format in ["csv", "jsonl", "txt"] {
            let text = export(&file, format, None);
            let source = dir.path().join(format!("{name}.{format}"));
            std::fs::write(&source, &text).unwrap();
            let back = import(
                dir.path(),
                &source,
                game,
                &format!("{name}-{format}.bmc"),
                &[],
            );
            assert_eq!(export(&back, format, None), text, "{game} {extra} {format}");
            let info = stdout_of(bingomint().arg("info").arg(&back));
            if game == "90" {
                assert!(info.contains("strips        240 (1440 tickets)"), "{info}");
            }
            // txt writes numbers only: the star does not travel in it.
            if extra == "--star" && format != "txt" {
                assert!(info.contains("star          yes, one per card"), "{info}");
            }
        }
    }
    // The original v3 layout.
    let v3 = generate(
        dir.path(),
        "v3.dat",
        &["--count", "300", "--star", "--format", "v3"],
    );
    let back = import(dir.path(), &v3, "75", "v3.bmc", &[]);
    assert_eq!(export(&back, "txt", None), export(&v3, "txt", None));
    // The same source and day give the same bytes.
    let again = import(dir.path(), &v3, "75", "v3-again.bmc", &[]);
    assert_eq!(
        std::fs::read(&back).unwrap(),
        std::fs::read(&again).unwrap()
    );
}

/// Writes the files `makers.py` makes (another maker's layouts, drawn
/// without bingomint) into `dir`.
fn makers(dir: &Path) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/import/makers.py");
    let status = std::process::Command::new("python3")
        .arg(script)
        .arg(dir)
        .status()
        .expect("python3 runs the makers' script");
    assert!(status.success());
}

#[test]
fn other_makers_files_import_with_their_own_numbers() {
    let dir = tempfile::tempdir().unwrap();
    makers(dir.path());
    for (source, game, args) in [
        ("perms.csv", "75", &["--by", "columns"][..]),
        ("starred.tsv", "75", &[]),
        ("cards.json", "75", &[]),
        ("eighty.txt", "80", &[]),
        ("tickets.jsonl", "90", &[]),
    ] {
        let path = dir.path().join(source);
        let file = import(dir.path(), &path, game, &format!("{source}.bmc"), args);
        let truth: serde_json::Value = serde_json::from_slice(
            &std::fs::read(dir.path().join(format!("{source}.truth.json"))).unwrap(),
        )
        .unwrap();
        let lines = export(&file, "jsonl", None);
        let faces: Vec<serde_json::Value> = lines
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let truth = truth.as_array().unwrap();
        assert_eq!(faces.len(), truth.len(), "{source}");
        for (face, want) in faces.iter().zip(truth) {
            let number = face.get("card").or_else(|| face.get("ticket")).unwrap();
            assert_eq!(number, &want["number"], "{source}");
            let grid = face.get("grid").or_else(|| face.get("rows")).unwrap();
            assert_eq!(grid, &want["rows"], "{source} {number}");
            if game == "75" {
                let star = match want["star"].as_u64() {
                    Some(s) => serde_json::json!(format!(
                        "{}{}",
                        ["B", "I", "N", "G", "O"][s as usize % 5],
                        s / 5 + 1
                    )),
                    None => serde_json::Value::Null,
                };
                assert_eq!(face["star"], star, "{source} {number}");
            }
        }
        let verify = stdout_of(bingomint().arg("verify").arg(&file));
        assert!(
            verify.contains(&format!("imported from '{source}'")),
            "{verify}"
        );
    }
    // Read row by row, the column-by-column perms break the rules, and the
    // report says what to try.
    refused(
        dir.path(),
        &dir.path().join("perms.csv"),
        "75",
        &[],
        "add --by columns",
    );
    // Tickets that never formed strips stay single tickets.
    let info = stdout_of(
        bingomint()
            .arg("info")
            .arg(dir.path().join("tickets.jsonl.bmc")),
    );
    assert!(
        info.contains("37 single tickets (not grouped in strips)"),
        "{info}"
    );
}

/// Two tickets as a generator that allows empty columns writes them: the
/// second has no number in column 1 and none in column 5.
const LOOSE: &str = "\
Ticket 1
 1 10  -  - 40 50  -  - 80
 -  - 21 30  - 51 60  - 81
 2 11  - 31  -  - 61 70  -

Ticket 2
 - 12 22  -  - 52 62  - 82
 - 13  - 32  - 53  - 71 83
 - 14 23  -  - 54 63 72  -
";

#[test]
fn tickets_with_empty_columns_need_loose_rules_and_each_column_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("loose.txt");
    std::fs::write(&source, LOOSE).unwrap();
    refused(
        dir.path(),
        &source,
        "90",
        &[],
        "ticket 2 (line 7): column 1 is empty; uk rules need 1–3 numbers a column; \
         column 5 is empty; uk rules need 1–3 numbers a column",
    );
    refused(
        dir.path(),
        &source,
        "90",
        &[],
        "--rules loose imports tickets",
    );
    let out = dir.path().join("loose.bmc");
    bingomint()
        .args(["import", "--game", "90", "--rules", "loose", "--out"])
        .arg(&out)
        .arg(&source)
        .assert()
        .success()
        .stderr(contains("1 ticket break"))
        .stderr(contains("column 5 is empty"));
    let info = stdout_of(bingomint().arg("info").arg(&out));
    assert!(info.contains("loose: valid to play"), "{info}");
    assert!(info.contains("2 single tickets"), "{info}");
    stdout_of(bingomint().arg("verify").arg(&out));
    // Claims are judged on them.
    let calls = dir.path().join("calls.txt");
    std::fs::write(&calls, "12 22 52 62 82\n").unwrap();
    bingomint()
        .args([
            "check",
            "--ticket",
            "2",
            "--pattern",
            "one-line",
            "--calls-file",
        ])
        .arg(&calls)
        .arg(&out)
        .assert()
        .success()
        .stdout(contains("WIN"));
    // Loose is for tickets only.
    refused(
        dir.path(),
        &source,
        "75",
        &["--rules", "loose"],
        "--rules loose is for 90-ball tickets",
    );
}

#[test]
fn duplicates_are_refused_or_left_out_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "50", "--seed", "3"]);
    let mut text = export(&file, "csv", None);
    let third = text.lines().nth(3).unwrap().to_string();
    let (_, cells) = third.split_once(',').unwrap();
    text.push_str(&format!("51,{cells}\n"));
    let source = dir.path().join("dup.csv");
    std::fs::write(&source, &text).unwrap();
    refused(
        dir.path(),
        &source,
        "75",
        &[],
        "card 51 (line 52) repeats card 3 (line 4)",
    );
    // Dropped without --renumber, the rest keep their numbers: 51 is no card.
    let kept = import(
        dir.path(),
        &source,
        "75",
        "kept.bmc",
        &["--duplicates", "drop"],
    );
    assert_eq!(export(&kept, "txt", None), export(&file, "txt", None));
    bingomint()
        .args(["show", "--card", "51"])
        .arg(&kept)
        .assert()
        .code(2)
        .stderr(contains("it holds cards 1 to 50"));
    let out = dir.path().join("dropped.bmc");
    bingomint()
        .args([
            "import",
            "--game",
            "75",
            "--duplicates",
            "drop",
            "--renumber",
            "--out",
        ])
        .arg(&out)
        .arg(&source)
        .assert()
        .success()
        .stderr(contains("card 51 (line 52) repeats card 3 (line 4)"));
    assert_eq!(export(&out, "txt", None), export(&file, "txt", None));
}

#[test]
fn bad_sources_are_refused_naming_the_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "5", "--seed", "3"]);
    let csv = export(&file, "csv", None);
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let mut lines: Vec<String> = csv.lines().map(String::from).collect();
    lines[3] = "3,1,2".into();
    let ragged = write("ragged.csv", &lines.join("\n"));
    refused(
        dir.path(),
        &ragged,
        "75",
        &[],
        "line 4: 3 fields where the header has 27",
    );
    let mut lines: Vec<String> = csv.lines().map(String::from).collect();
    let mut fields: Vec<&str> = lines[2].split(',').collect();
    fields[5] = "76";
    lines[2] = fields.join(",");
    let range = write("range.csv", &lines.join("\n"));
    refused(
        dir.path(),
        &range,
        "75",
        &[],
        "line 3, column 6: 76 is out of range: 75-ball numbers run 1–75",
    );
    let header = write("header.csv", "a,b,c\n1,2,3\n");
    refused(dir.path(), &header, "75", &[], "name them with --columns");
    let binary = write("image.png", "\u{89}PNG\r\n\u{1a}\n\0\0\0\rIHDR");
    refused(
        dir.path(),
        &binary,
        "75",
        &[],
        "is not a card or ticket list",
    );
    let empty = write("empty.txt", "\n\n");
    refused(dir.path(), &empty, "75", &[], "it holds no faces");
    let mut lines: Vec<String> = csv.lines().map(String::from).collect();
    lines.remove(3);
    lines.swap(2, 3);
    let unsorted = write("unsorted.csv", &lines.join("\n"));
    refused(
        dir.path(),
        &unsorted,
        "75",
        &[],
        "card 2 follows card 4; numbers must rise",
    );
    let json = write("bad.json", "[[1,2,3]]");
    refused(
        dir.path(),
        &json,
        "75",
        &[],
        "value 1: 3 cells: a 75-ball face has 25",
    );
    // An existing output is kept without --force.
    let out = dir.path().join("kept.bmc");
    std::fs::write(&out, "mine").unwrap();
    bingomint()
        .args(["import", "--game", "75", "--out"])
        .arg(&out)
        .arg(dir.path().join("c.bmc"))
        .assert()
        .code(2)
        .stderr(contains("--force"));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "mine");
}

#[test]
fn every_reference_form_names_a_face_in_every_command() {
    let dir = tempfile::tempdir().unwrap();
    makers(dir.path());
    let perms = import(
        dir.path(),
        &dir.path().join("perms.csv"),
        "75",
        "perms.bmc",
        &["--by", "columns"],
    );
    let id = common::file_id(&perms);
    let calls = dir.path().join("calls.txt");
    std::fs::write(
        &calls,
        (1..=75)
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join("\n"),
    )
    .unwrap();
    // Card 1005 of faces numbered 1001–1040: the number, the QR text, the
    // group face (colour 3, the number padded to 4 digits).
    for reference in [
        "1005",
        &format!("bingomint:{id}:card:1005"),
        &format!("BINGOMINT:{}:CARD:1005", id.to_lowercase()),
        "31005",
    ] {
        let shown = stdout_of(bingomint().args(["show", "--card", reference]).arg(&perms));
        assert!(
            shown.starts_with("card 1005 of 1001 to 1040"),
            "{reference}: {shown}"
        );
        let checked = stdout_of(
            bingomint()
                .args([
                    "check",
                    "--card",
                    reference,
                    "--pattern",
                    "coverall",
                    "--calls-file",
                ])
                .arg(&calls)
                .arg(&perms),
        );
        assert!(checked.contains("card 1005"), "{reference}: {checked}");
        let range = format!("{reference}..{reference}");
        let rows = export(&perms, "csv", Some(&range));
        assert!(
            rows.lines().nth(1).unwrap().starts_with("1005,"),
            "{reference}: {rows}"
        );
        let won = stdout_of(
            bingomint()
                .args([
                    "winners",
                    "--pattern",
                    "coverall",
                    "--range",
                    &range,
                    "--calls-file",
                ])
                .arg(&calls)
                .arg(&perms),
        );
        assert!(
            won.contains("cards 1005 of") && won.contains("card 1005:"),
            "{won}"
        );
        let pdf = dir.path().join("one.pdf");
        bingomint()
            .args(["print", "--force", "--range", &range, "--out"])
            .arg(&pdf)
            .arg(&perms)
            .assert()
            .success()
            .stdout(contains("1 card on 1 letter page"));
    }
    bingomint()
        .args(["show", "--card", "42"])
        .arg(&perms)
        .assert()
        .code(2)
        .stderr(contains("it holds cards 1001 to 1040"));
    // Strips: a ticket by number, QR text and group face, with --ticket,
    // and the ticket's strip in a range.
    let strips = generate(
        dir.path(),
        "s.bmc",
        &["--game", "90", "--count", "200", "--seed", "4"],
    );
    let sid = common::file_id(&strips);
    std::fs::write(
        &calls,
        (1..=90)
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join("\n"),
    )
    .unwrap();
    for reference in ["70", &format!("bingomint:{sid}:ticket:70"), "20070"] {
        let shown = stdout_of(
            bingomint()
                .args(["show", "--ticket", reference])
                .arg(&strips),
        );
        assert!(shown.contains("ticket 70\n"), "{reference}: {shown}");
        let checked = stdout_of(
            bingomint()
                .args([
                    "check",
                    "--ticket",
                    reference,
                    "--pattern",
                    "full-house",
                    "--calls-file",
                ])
                .arg(&calls)
                .arg(&strips),
        );
        assert!(
            checked.contains("ticket 70 (strip 12)"),
            "{reference}: {checked}"
        );
    }
    let range = format!("bingomint:{sid}:ticket:70..13");
    let rows = export(&strips, "csv", Some(&range));
    assert_eq!(rows.lines().count(), 1 + 12, "{rows}");
    assert!(rows.lines().nth(1).unwrap().starts_with("67,12,"), "{rows}");
}

#[test]
fn new_strips_are_unique_against_imported_tickets() {
    let dir = tempfile::tempdir().unwrap();
    let old = generate(
        dir.path(),
        "old.bmc",
        &["--game", "90", "--count", "20", "--seed", "9"],
    );
    // Another maker's tickets: the same tickets less the first, so they no
    // longer form strips.
    let csv = export(&old, "csv", None);
    let mut lines: Vec<&str> = csv.lines().collect();
    lines.remove(1);
    let source = dir.path().join("owned.csv");
    std::fs::write(&source, lines.join("\n")).unwrap();
    let owned = import(dir.path(), &source, "90", "owned.bmc", &["--renumber"]);
    let info = stdout_of(bingomint().arg("info").arg(&owned));
    assert!(info.contains("119 single tickets"), "{info}");
    // Without --exclude the seed draws the same strips again; with it, none
    // of the owned tickets comes back.
    let cells = |file: &Path| -> std::collections::HashSet<String> {
        export(file, "csv", None)
            .lines()
            .skip(1)
            .map(|l| l.splitn(3, ',').nth(2).unwrap().to_string())
            .collect()
    };
    let again = generate(
        dir.path(),
        "again.bmc",
        &["--game", "90", "--count", "20", "--seed", "9"],
    );
    assert_eq!(cells(&again), cells(&old));
    let new = generate(
        dir.path(),
        "new.bmc",
        &[
            "--game",
            "90",
            "--count",
            "20",
            "--seed",
            "9",
            "--exclude",
            owned.to_str().unwrap(),
        ],
    );
    let owned_cells: std::collections::HashSet<String> = export(&owned, "csv", None)
        .lines()
        .skip(1)
        .map(|l| l.split_once(',').unwrap().1.to_string())
        .collect();
    assert_eq!(owned_cells.len(), 119);
    assert!(cells(&new).is_disjoint(&owned_cells));
    stdout_of(bingomint().arg("verify").arg(&new));
}

#[test]
fn the_provenance_is_shown_and_sealed() {
    let dir = tempfile::tempdir().unwrap();
    makers(dir.path());
    let source = dir.path().join("starred.tsv");
    let file = import(dir.path(), &source, "75", "starred.bmc", &[]);
    let sum = stdout_of(assert_cmd::Command::new("sha256sum").arg(&source));
    let sum = sum.split_whitespace().next().unwrap();
    let info = stdout_of(bingomint().arg("info").arg(&file));
    for line in [
        "imported from 'starred.tsv'",
        &format!("source sha256 {sum}"),
        "numbered      cards 1–30, column 'id'",
        "seed          none: imported, not drawn",
        "format        native, imported (bingomint format 3",
    ] {
        assert!(info.contains(line), "{line}: {info}");
    }
    let verify = stdout_of(bingomint().arg("verify").arg(&file));
    assert!(verify.contains(&format!("sha256 {sum}")), "{verify}");
    // A changed byte of the provenance is damage.
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[140] ^= 1;
    std::fs::write(&file, bytes).unwrap();
    bingomint()
        .arg("verify")
        .arg(&file)
        .assert()
        .code(1)
        .stdout(contains("provenance"));
}

#[test]
fn without_game_the_first_face_names_it_and_the_file_is_the_same() {
    let dir = tempfile::tempdir().unwrap();
    makers(dir.path());
    for (source, game, args) in [
        ("perms.csv", "75", &["--by", "columns"][..]),
        ("starred.tsv", "75", &[]),
        ("cards.json", "75", &[]),
        ("eighty.txt", "80", &[]),
        ("tickets.jsonl", "90", &[]),
    ] {
        let path = dir.path().join(source);
        let named = import(
            dir.path(),
            &path,
            game,
            &format!("{source}.named.bmc"),
            args,
        );
        let sniffed = dir.path().join(format!("{source}.sniffed.bmc"));
        bingomint()
            .arg("import")
            .arg(&path)
            .arg("--out")
            .arg(&sniffed)
            .args(args)
            .assert()
            .success()
            .stderr(contains(format!(
                "as {game}-ball: its first face reads as one"
            )));
        assert_eq!(
            common::export_txt(&named),
            common::export_txt(&sniffed),
            "{source}"
        );
    }
    // A file whose first face is no game's is refused naming --game.
    let odd = dir.path().join("odd.txt");
    std::fs::write(&odd, "1 2 3\n").unwrap();
    bingomint()
        .arg("import")
        .arg(&odd)
        .arg("--out")
        .arg(dir.path().join("odd.bmc"))
        .assert()
        .code(2)
        .stderr(contains("name it with --game 75, 80 or 90"));
}

/// A maker's header of repeated letters with a colour column beside the
/// serial (`Serial,Colour,B,B,B,B,B,I,…`): the refusal's hint is a
/// `--columns` list that fits this file, and the file imports with it, its
/// serial column named by its header.
#[test]
fn the_columns_hint_fits_the_file_it_is_about() {
    let dir = tempfile::tempdir().unwrap();
    let cards = generate(dir.path(), "c.bmc", &["--count", "3", "--seed", "hint"]);
    let faces = exported(dir.path(), &cards);
    let mut csv = String::from("Serial,Colour");
    for l in ["B", "I", "N", "G", "O"] {
        csv += &format!(",{l}").repeat(5);
    }
    for (k, f) in faces.iter().enumerate() {
        csv += &format!("\nCH-{:05},red", 4512 + k);
        for col in 0..5 {
            for row in 0..5 {
                let n = f[row * 5 + col];
                csv += &if n == 0 {
                    ",FREE".to_string()
                } else {
                    format!(",{n}")
                };
            }
        }
    }
    std::fs::write(dir.path().join("maker.csv"), csv + "\n").unwrap();
    let import = |extra: &[&str]| {
        let out = bingomint()
            .current_dir(dir.path())
            .args(["import", "maker.csv", "--game", "75", "--out", "m.bmc"])
            .args(extra)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status.code().unwrap(), said)
    };
    let (code, said) = import(&[]);
    assert_eq!(code, 2, "{said}");
    let hint = said.split("e.g. ").nth(1).unwrap().trim().to_string();
    assert_eq!(hint, "--columns number,skip,cells --by columns", "{said}");
    let args: Vec<&str> = hint.split_whitespace().collect();
    let (code, said) = import(&args);
    assert_eq!(code, 0, "{said}");
    assert!(
        said.contains("cards CH-04512–CH-04514 (column 'Serial')"),
        "{said}"
    );
    assert_eq!(exported(dir.path(), &dir.path().join("m.bmc")), faces);
}

/// Each card of `file` as `export --format csv` writes it: its 25 cells,
/// row by row, 0 for the free centre.
fn exported(dir: &Path, file: &Path) -> Vec<Vec<u64>> {
    let out = dir.join("exported.csv");
    let done = bingomint()
        .args([
            "export",
            file.to_str().unwrap(),
            "--format",
            "csv",
            "--force",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(done.status.success());
    (std::fs::read_to_string(&out).unwrap().lines().skip(1))
        .map(|l| {
            l.split(',')
                .skip(1)
                .take(25)
                .map(|c| c.parse().unwrap())
                .collect()
        })
        .collect()
}
