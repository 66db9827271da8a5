//! `print`: the PDF parsed with a PDF library (pages, boxes, embedded
//! fonts, the faces' numbers read back), and checked with the tools a
//! prepress department uses (qpdf, pdffonts, pdftotext, pdftoppm, zbarimg)
//! when they are installed (`.ci/run` installs them); a test that needs a
//! missing tool says it was skipped.

use crate::common::{bingomint, edit, export_txt, generate, records_at, stdout_of};
use predicates::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Whether `tool` runs here; if not, says the test is skipped.
pub fn have(tool: &str, test: &str) -> bool {
    let found = Command::new(tool).arg("-v").output().is_ok();
    if !found {
        crate::common::skipped(&format!(
            "{test}: {tool} is not installed (Debian: qpdf, poppler-utils, zbar-tools)"
        ));
    }
    found
}

fn print(file: &Path, out: &Path, args: &[&str]) {
    bingomint()
        .arg("print")
        .arg(file)
        .arg("--out")
        .arg(out)
        .args(args)
        .arg("--quiet")
        .assert()
        .success();
}

/// The numbers of a face as `export --to txt` gives them (0s dropped).
fn numbers(line: &str) -> Vec<String> {
    line.split_whitespace()
        .filter(|n| *n != "0")
        .map(str::to_string)
        .collect()
}

fn page_text(doc: &lopdf::Document, page: u32) -> String {
    doc.extract_text(&[page]).unwrap()
}

#[test]
fn cards_print_six_a_page_with_boxes_fonts_and_their_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(
        dir.path(),
        "c.bmc",
        &["--count", "20", "--seed", "3", "--star"],
    );
    let pdf = dir.path().join("c.pdf");
    print(&file, &pdf, &["--series", "Autumn 24-B", "--bleed", "3mm"]);
    let doc = lopdf::Document::load(&pdf).unwrap();
    assert_eq!(doc.version, "1.3");
    let pages = doc.get_pages();
    assert_eq!(pages.len(), 4, "20 cards, 6 a page");
    for id in pages.values() {
        let page = doc.get_object(*id).unwrap().as_dict().unwrap();
        for key in [&b"MediaBox"[..], b"TrimBox", b"BleedBox"] {
            assert!(
                page.get(key).is_ok(),
                "page without {}",
                String::from_utf8_lossy(key)
            );
        }
    }
    // Both fonts embedded (a FontFile2 each) with a ToUnicode map.
    let embedded = doc
        .objects
        .values()
        .filter_map(|o| o.as_dict().ok())
        .filter(|d| d.get(b"FontFile2").is_ok())
        .count();
    assert_eq!(embedded, 2);
    // Faces read back: card 3 on page 1, card 20 on page 4, with their ids.
    let cards = export_txt(&file);
    let first = page_text(&doc, 1);
    for n in numbers(&cards[2]) {
        assert!(first.contains(&n), "page 1 lacks {n}: {first}");
    }
    assert!(first.contains("Card 3") && first.contains("Autumn 24-B"));
    assert!(first.contains("Sheet 1 of 4"));
    assert!(page_text(&doc, 4).contains("Card 20"));
    if have("qpdf", "print qpdf --check") {
        let out = Command::new("qpdf")
            .arg("--check")
            .arg(&pdf)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    if have("pdffonts", "print pdffonts") {
        let out =
            String::from_utf8(Command::new("pdffonts").arg(&pdf).output().unwrap().stdout).unwrap();
        // name, type, encoding, emb sub uni: every font embedded, subset, mapped.
        let rows: Vec<&str> = out.lines().skip(2).collect();
        assert_eq!(rows.len(), 2, "{out}");
        assert!(rows.iter().all(|r| r.contains("yes yes yes")), "{out}");
    }
    if have("pdftotext", "print pdftotext") {
        let out = Command::new("pdftotext")
            .args(["-f", "4", "-l", "4"])
            .arg(&pdf)
            .arg("-")
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        for n in numbers(&cards[19]) {
            assert!(text.contains(&n), "pdftotext page 4 lacks {n}");
        }
    }
}

#[test]
fn the_same_file_and_flags_give_the_same_bytes_for_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "5000", "--seed", "4"]);
    let (a, b) = (dir.path().join("a.pdf"), dir.path().join("b.pdf"));
    print(&file, &a, &["--threads", "1", "--qr"]);
    print(&file, &b, &["--threads", "2", "--qr"]);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
}

/// The QR codes on the first page of `pdf`, read back from a 150 dpi
/// rendering in `dir` (pdftoppm and zbarimg).
pub fn first_page_codes(pdf: &Path, dir: &Path) -> Vec<String> {
    let png = dir.join("page");
    let status = Command::new("pdftoppm")
        .args(["-r", "150", "-png", "-f", "1", "-l", "1"])
        .arg(pdf)
        .arg(&png)
        .status()
        .unwrap();
    assert!(status.success());
    let image = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "png"))
        .unwrap();
    let out = Command::new("zbarimg")
        .args(["-q", "--raw"])
        .arg(&image)
        .output()
        .unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn qr_codes_lead_back_to_their_card() {
    if !have("pdftoppm", "print QR") || !have("zbarimg", "print QR") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "12", "--seed", "5"]);
    let pdf = dir.path().join("q.pdf");
    print(&file, &pdf, &["--qr", "--range", "7..12"]);
    let mut codes = first_page_codes(&pdf, dir.path());
    codes.sort();
    assert_eq!(codes.len(), 6, "{codes:?}");
    let id = stdout_of(bingomint().arg("info").arg(&file))
        .lines()
        .find_map(|l| l.strip_prefix("id").map(|v| v.trim().to_string()))
        .unwrap();
    assert!(
        codes.contains(&format!("BINGOMINT:{id}:CARD:9")),
        "{codes:?}"
    );
    // The decoded text is a card reference `check` accepts.
    bingomint()
        .arg("check")
        .arg(&file)
        .args(["--card", &codes[0], "--calls", "1", "--pattern", "coverall"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("card 10 of"));
}

#[test]
fn strips_keep_their_six_tickets_together() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(
        dir.path(),
        "s.bmc",
        &["--game", "90", "--count", "5", "--seed", "6"],
    );
    let pdf = dir.path().join("s.pdf");
    print(&file, &pdf, &["--paper", "legal"]);
    let doc = lopdf::Document::load(&pdf).unwrap();
    assert_eq!(doc.get_pages().len(), 3, "5 strips, 2 a page");
    let second = page_text(&doc, 2);
    for t in 13..=24 {
        assert!(
            second.contains(&format!("Ticket {t}")),
            "page 2 lacks ticket {t}"
        );
    }
    let strips = export_txt(&file);
    for n in numbers(&strips[4]) {
        assert!(page_text(&doc, 3).contains(&n));
    }
}

#[test]
fn cut_stack_order_puts_consecutive_faces_in_each_pile() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "18", "--seed", "7"]);
    let pdf = dir.path().join("k.pdf");
    print(&file, &pdf, &["--order", "cut-stack"]);
    let doc = lopdf::Document::load(&pdf).unwrap();
    // 3 sheets: sheet 1 holds cards 1, 4, 7, 10, 13, 16.
    let first = page_text(&doc, 1);
    let cards: Vec<u32> = first
        .split("Card ")
        .skip(1)
        .map(|rest| {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().unwrap()
        })
        .collect();
    assert_eq!(cards, [1, 4, 7, 10, 13, 16], "{first}");
}

#[test]
fn pages_per_file_splits_the_run_and_writes_a_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "40", "--seed", "8"]);
    let out: PathBuf = dir.path().join("run").join("cards.pdf");
    print(&file, &out, &["--pages-per-file", "3"]);
    let manifest = std::fs::read_to_string(dir.path().join("run/manifest.csv")).unwrap();
    let rows: Vec<Vec<&str>> = manifest
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    // 40 cards, 7 pages: files of 3, 3 and 1 pages.
    assert_eq!(
        manifest.lines().next(),
        Some("file,pages,first,last,sha256")
    );
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0][..4], ["cards-0001.pdf", "3", "1", "18"]);
    assert_eq!(rows[2][..4], ["cards-0003.pdf", "1", "37", "40"]);
    for row in &rows {
        let bytes = std::fs::read(dir.path().join("run").join(row[0])).unwrap();
        use sha2::Digest;
        let sum: String = sha2::Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(row[4], sum);
    }
}

#[test]
fn bad_print_requests_are_refused_naming_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "100", "--seed", "9"]);
    let out = dir.path().join("x.pdf");
    let cases: [(&[&str], &str); 7] = [
        (
            &["--layout", "7"],
            "--layout \"7\": give 1, 2, 3, 4, 6, 8, 9, 12, 18",
        ),
        (&["--paper", "b5"], "--paper \"b5\": choose letter"),
        (&["--range", "90..101"], "--range 90..101"),
        (&["--colour", "rgb:1,0,0"], "--colour \"rgb:1,0,0\""),
        (&["--margin", "3"], "--margin \"3\": the unit must be"),
        (&["--paper", "4x6in", "--layout", "18"], "too small to read"),
        (
            &["--layout", "6", "--paper", "3x3in"],
            "use --layout 1 (the most that fits this paper), or --paper letter",
        ),
    ];
    for (args, message) in cases {
        bingomint()
            .arg("print")
            .arg(&file)
            .arg("--out")
            .arg(&out)
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
        assert!(!out.exists());
    }
    std::fs::write(&out, b"keep me").unwrap();
    bingomint()
        .arg("print")
        .arg(&file)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("already exists"));
    assert_eq!(std::fs::read(&out).unwrap(), b"keep me");
    // A damaged card is named and nothing is printed.
    edit(&file, |b| {
        let at = records_at(b);
        b[at + 70 * 25 + 3] ^= 1;
    });
    let fresh = dir.path().join("y.pdf");
    bingomint()
        .arg("print")
        .arg(&file)
        .arg("--out")
        .arg(&fresh)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cards 65-100 fail their checksum"));
    assert!(!fresh.exists());
}

#[test]
fn export_for_a_data_merge_names_the_sheets_print_uses() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "30", "--seed", "10"]);
    let csv = stdout_of(bingomint().arg("export").arg(&file).args([
        "--format",
        "csv",
        "--layout",
        "6",
        "--series",
        "Autumn 24-B",
        "--range",
        "4..30",
    ]));
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    let last = rows[0].len();
    // Card 10 is the 7th of the range: sheet 2, position 1.
    let card10 = rows.iter().find(|r| r[0] == "10").unwrap();
    assert_eq!(
        card10[last - 4..],
        ["Autumn 24-B", card10[last - 3], "2", "1"]
    );
    let pdf = dir.path().join("m.pdf");
    print(
        &file,
        &pdf,
        &["--range", "4..30", "--series", "Autumn 24-B"],
    );
    let doc = lopdf::Document::load(&pdf).unwrap();
    let second = page_text(&doc, 2);
    let first_card: String = second
        .split("Card ")
        .nth(1)
        .unwrap()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    assert_eq!(first_card, "10");
    assert!(
        second.contains(card10[last - 3]),
        "the file id is on the sheet"
    );
    bingomint()
        .arg("export")
        .arg(&file)
        .args(["--layout", "6"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("add --format csv"));
}

#[test]
fn books_collate_sheets_in_their_colours_and_tints_reach_into_the_bleed() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "36", "--seed", "11"]);
    let pdf = dir.path().join("b.pdf");
    print(
        &file,
        &pdf,
        &[
            "--book-pages",
            "3",
            "--colours",
            "cmyk:0,100,100,0",
            "cmyk:100,0,0,0",
            "gray",
            "--bleed",
            "3mm",
            "--background",
            "20",
        ],
    );
    let doc = lopdf::Document::load(&pdf).unwrap();
    assert_eq!(doc.get_pages().len(), 6);
    assert!(page_text(&doc, 5).contains("Book 2 page 2 of 3"));
    bingomint()
        .arg("print")
        .arg(&file)
        .arg("--out")
        .arg(dir.path().join("x.pdf"))
        .args(["--book-pages", "3", "--colours", "gray", "gray"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "give one ink for each of the 3 pages",
        ));
    if !have("pdftoppm", "print bleed") {
        return;
    }
    // The gray value of a pixel 1.5mm outside the trim's left edge, half
    // way up page 3 (gray ink, 20% tint): the tint reaches into the bleed.
    let gray_at_bleed = |pdf: &Path| -> u8 {
        let out = Command::new("pdftoppm")
            .args(["-gray", "-r", "72", "-f", "3", "-l", "3"])
            .arg(pdf)
            .output()
            .unwrap();
        let pgm = out.stdout;
        // P5\nW H\n255\n then one byte a pixel.
        let header: Vec<&[u8]> = pgm.splitn(4, |&b| b == b'\n').collect();
        let dims = String::from_utf8_lossy(header[1]).to_string();
        let (w, h): (usize, usize) = {
            let mut it = dims.split_whitespace().map(|v| v.parse().unwrap());
            (it.next().unwrap(), it.next().unwrap())
        };
        let pixels = header[3];
        // The slug: 3mm bleed + 18pt marks area = 26.5pt; 1.5mm = 4.25pt.
        let x = (26.5 - 4.25) as usize;
        pixels[(h / 2) * w + x]
    };
    assert!(gray_at_bleed(&pdf) < 230, "the bleed is tinted");
    let plain = dir.path().join("p.pdf");
    print(&file, &plain, &["--bleed", "3mm"]);
    assert!(gray_at_bleed(&plain) > 250, "no tint, no fill in the bleed");
}

#[test]
fn group_faces_print_in_the_free_centre_and_name_their_card() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "1200", "--seed", "12"]);
    let pdf = dir.path().join("g.pdf");
    print(
        &file,
        &pdf,
        &[
            "--group-face",
            "--range",
            "1..12",
            "--book-pages",
            "2",
            "--colours",
            "gray",
            "cmyk:0,100,100,0",
        ],
    );
    let doc = lopdf::Document::load(&pdf).unwrap();
    // Sheet 1 in the first colour, sheet 2 in the second: card 1 is 10001,
    // card 7 (the first of sheet 2) 20007; four digits for 1,200 cards.
    assert!(
        page_text(&doc, 1).contains("10001"),
        "{}",
        page_text(&doc, 1)
    );
    assert!(
        page_text(&doc, 2).contains("20007"),
        "{}",
        page_text(&doc, 2)
    );
    let shown = crate::common::stdout_of(bingomint().args(["show", "--card", "20007"]).arg(&file));
    assert!(shown.starts_with("card 7 of 1200"), "{shown}");
    let strips = generate(dir.path(), "s.bmc", &["--game", "90", "--count", "2"]);
    bingomint()
        .arg("print")
        .arg(&strips)
        .arg("--out")
        .arg(dir.path().join("s.pdf"))
        .arg("--group-face")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("75-ball cards only"));
}

/// A page's MediaBox and TrimBox, as lopdf reads them.
fn boxes(pdf: &Path) -> (Vec<f32>, Vec<f32>) {
    let doc = lopdf::Document::load(pdf).unwrap();
    let id = *doc.get_pages().values().next().unwrap();
    let page = doc.get_object(id).unwrap().as_dict().unwrap();
    let read = |key: &[u8]| -> Vec<f32> {
        (page.get(key).unwrap().as_array().unwrap().iter())
            .map(|v| v.as_float().unwrap())
            .collect()
    };
    (read(b"MediaBox"), read(b"TrimBox"))
}

#[test]
fn pages_are_the_paper_asked_for_unless_a_print_house_asks_for_more() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "12", "--seed", "7"]);
    let out = |name: &str, args: &[&str]| -> (PathBuf, String) {
        let pdf = dir.path().join(name);
        let said = stdout_of(
            bingomint()
                .arg("print")
                .arg(&file)
                .args(args)
                .arg("--out")
                .arg(&pdf),
        );
        (pdf, said)
    };
    // Home and office: Letter is 612×792 pt, everything inside it.
    let (home, said) = out("home.pdf", &["--paper", "letter", "--layout", "3"]);
    assert_eq!(
        boxes(&home),
        (vec![0.0, 0.0, 612.0, 792.0], vec![0.0, 0.0, 612.0, 792.0])
    );
    assert!(said.contains("nothing outside the sheet"), "{said}");
    // Three a page grow to the cells of four (a 2×2 grid, the last row
    // centred), not a column of three at the size of six.
    let points = |said: &str| -> f32 {
        let at = said.find(" pt numbers").unwrap();
        said[..at].rsplit(' ').next().unwrap().parse().unwrap()
    };
    let (_, six) = out("six.pdf", &["--paper", "letter", "--layout", "6"]);
    let (_, four) = out("four.pdf", &["--paper", "letter", "--layout", "4"]);
    assert!(points(&said) > points(&six) * 1.4, "{said} / {six}");
    assert_eq!(points(&said), points(&four));
    // The print house: the trim inside a larger page, marks and bleed out.
    let (press, said) = out("press.pdf", &["--paper", "letter", "--press"]);
    let (media, trim) = boxes(&press);
    assert_eq!(trim, vec![18.0, 18.0, 630.0, 810.0]);
    assert_eq!(media, vec![0.0, 0.0, 648.0, 828.0]);
    assert!(
        said.contains("press: crop marks outside the trim, page 648×828 pt"),
        "{said}"
    );
    let (bled, said) = out("bled.pdf", &["--paper", "a4", "--bleed", "3mm"]);
    assert!(
        boxes(&bled).0[2] > boxes(&bled).1[2],
        "a bleed implies --press"
    );
    assert!(
        said.contains("press: 3.0 mm bleed and crop marks"),
        "{said}"
    );
}

// See: paper a press can cut, pack and ship (inks by name, as the night
// file names paper; a light one told; a short last book named).
#[test]
fn books_take_inks_by_name_and_a_short_last_book_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "42", "--seed", "11"]);
    let pdf = dir.path().join("b.pdf");
    // 42 cards 6 a page: 7 pages, books of 3 leave a last book of 1.
    let out = bingomint()
        .arg("print")
        .arg(&file)
        .arg("--out")
        .arg(&pdf)
        .args(["--book-pages", "3", "--colours", "Yellow", "red", "blue"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("42 cards make 7 pages, so book 3 would have 1 of its 3 pages")
            && err.contains("print 36 cards (--range 1..36) for whole books"),
        "{err}"
    );
    assert!(!pdf.exists(), "nothing written");
    let out = bingomint()
        .arg("print")
        .arg(&file)
        .arg("--out")
        .arg(&pdf)
        .args(["--book-pages", "3", "--colours", "Yellow", "red", "blue"])
        .arg("--allow-short-book")
        .assert()
        .success()
        .get_output()
        .clone();
    let note = String::from_utf8(out.stderr).unwrap();
    assert!(note.contains("Yellow is a light ink"), "{note}");
    assert!(!note.contains("red is a light ink"), "{note}");
    let doc = lopdf::Document::load(&pdf).unwrap();
    assert_eq!(doc.get_pages().len(), 7);
    // Each sheet names its ink.
    assert!(
        page_text(&doc, 2).contains("Sheet 2 of 7 · red ·"),
        "{}",
        page_text(&doc, 2)
    );
    // Page 2 is printed in red: process magenta and yellow, no cyan.
    let content = doc.get_page_content(doc.get_pages()[&2]).unwrap();
    let text = String::from_utf8_lossy(&content);
    assert!(
        text.contains("0 1 1 0 k") || text.contains("0 1 1 0 K"),
        "red's CMYK on page 2"
    );
    bingomint()
        .arg("print")
        .arg(&file)
        .arg("--out")
        .arg(dir.path().join("w.pdf"))
        .args(["--colour", "white"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("white is the paper, not an ink"));
}

// See: paper a press can cut, pack and ship (one strip on an A4 book page
// is a narrow column, and nothing said so).
#[test]
fn a_page_the_faces_leave_half_empty_is_told_the_size_that_fits() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(
        dir.path(),
        "s.bmc",
        &["--game", "90", "--count", "4", "--seed", "3"],
    );
    let run = |paper: &str| -> String {
        let out = bingomint()
            .arg("print")
            .arg(&file)
            .arg("--out")
            .arg(dir.path().join("s.pdf"))
            .args(["--force", "--layout", "1", "--paper", paper])
            .assert()
            .success()
            .get_output()
            .clone();
        String::from_utf8(out.stderr).unwrap()
    };
    let note = run("a4");
    let (_, rest) = note.split_once("(--paper ").expect(&note);
    let size = rest.split(')').next().unwrap().to_string();
    let (w, h) = size.trim_end_matches("mm").split_once('x').unwrap();
    let (w, h): (u32, u32) = (w.parse().unwrap(), h.parse().unwrap());
    assert!(w < 210 && h <= 297, "{note}");
    // The size named holds the strip with nothing to say.
    assert_eq!(run(&size), "", "on {size}");
}

// See: paper a press can cut, pack and ship (no packing list: books,
// colours, serial ranges and cartons).
#[test]
fn a_packing_list_names_every_book_and_carton_with_its_serials() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "42", "--seed", "11"]);
    let pdf = dir.path().join("b.pdf");
    let packing = dir.path().join("pack.csv");
    print(
        &file,
        &pdf,
        &[
            "--book-pages",
            "3",
            "--colours",
            "red",
            "blue",
            "gray",
            "--allow-short-book",
            "--packing",
            packing.to_str().unwrap(),
            "--books-per-carton",
            "2",
        ],
    );
    let text = std::fs::read_to_string(&packing).unwrap();
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    let (books, cartons): (Vec<_>, Vec<_>) = rows.iter().partition(|r| r[0] == "book");
    // 42 cards 6 a page: 7 pages, books of 3: 3 books (the last of 1 page).
    assert_eq!(books.len(), 3, "{text}");
    assert_eq!(cartons.len(), 2, "{text}");
    let mut next = 1;
    let doc = lopdf::Document::load(&pdf).unwrap();
    for b in &books {
        let (first, last, top): (u64, u64, u64) = (
            b[6].parse().unwrap(),
            b[7].parse().unwrap(),
            b[8].parse().unwrap(),
        );
        assert_eq!((first, top), (next, next), "{b:?}");
        next = last + 1;
        // The book's top sheet holds the serial the list names.
        let page: u32 = b[11].parse().unwrap();
        assert!(
            page_text(&doc, page).contains(&format!("Card {top}")),
            "{b:?}"
        );
    }
    assert_eq!(next, 43, "every card in one book");
    assert_eq!(books[0][9], "red blue gray");
    assert_eq!((books[2][4], books[2][9]), ("1", "red"), "the short book");
    assert_eq!(
        (cartons[0][3], cartons[0][6], cartons[0][7], cartons[1][3]),
        ("1-2", "1", "36", "3-3")
    );
    // Refused before anything is written: an existing list, a list named
    // as the PDF's own file.
    bingomint()
        .arg("print")
        .arg(&file)
        .arg("--out")
        .arg(dir.path().join("c.pdf"))
        .args(["--packing", packing.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--packing '"))
        .stderr(predicate::str::contains(
            "already exists: give another file",
        ));
    assert!(!dir.path().join("c.pdf").exists());
    // See: issue 62, labels printed the flag's value as the packet count
    // ("3 packets" on a one-book carton), and --books-per-carton 0 was
    // taken (an empty label sheet).
    let labels = dir.path().join("labels.pdf");
    print(
        &file,
        &dir.path().join("l.pdf"),
        &[
            "--book-pages",
            "3",
            "--colours",
            "red",
            "blue",
            "gray",
            "--allow-short-book",
            "--packing",
            dir.path().join("l.csv").to_str().unwrap(),
            "--books-per-carton",
            "2",
            "--carton-labels",
            labels.to_str().unwrap(),
        ],
    );
    let doc = lopdf::Document::load(&labels).unwrap();
    let text = page_text(&doc, 1);
    assert!(text.contains("Books 1-2 · 2 packets of 3 pages"), "{text}");
    assert!(text.contains("Book 3 · 1 packet of 3 pages"), "{text}");
    bingomint()
        .arg("print")
        .arg(&file)
        .arg("--out")
        .arg(dir.path().join("z.pdf"))
        .args(["--packing", dir.path().join("z.csv").to_str().unwrap()])
        .args(["--books-per-carton", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--books-per-carton"));
}

// See: paper a press can cut, pack and ship (n-up books lost their labels
// when the sheet was cut; "Book 1" named three physical books).
#[test]
fn every_piece_of_an_n_up_sheet_names_its_own_book_and_each_pile_is_whole_books() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "36", "--seed", "11"]);
    let pdf = dir.path().join("b.pdf");
    let packing = dir.path().join("pack.csv");
    print(
        &file,
        &pdf,
        &[
            "--layout",
            "3",
            "--order",
            "cut-stack",
            "--book-pages",
            "2",
            "--colours",
            "red",
            "blue",
            "--press",
            "--packing",
            packing.to_str().unwrap(),
        ],
    );
    let doc = lopdf::Document::load(&pdf).unwrap();
    // 12 sheets; pile j holds cards 12j+1 … 12j+12 in six books of two.
    let first = page_text(&doc, 1);
    for (card, book) in [(1, 1), (13, 7), (25, 13)] {
        assert!(
            first.contains(&format!("Card {card}\nBook {book} page 1 of 2 · ")),
            "{first}"
        );
    }
    let second = page_text(&doc, 2);
    assert!(
        second.contains("Card 14\nBook 7 page 2 of 2 · "),
        "{second}"
    );
    assert!(
        !first.contains("Sheet 1 of 12 · Book"),
        "the sheet's own label names no book"
    );
    let text = std::fs::read_to_string(&packing).unwrap();
    let books: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(books.len(), 18, "{text}");
    for (i, b) in books.iter().enumerate() {
        let (first, last, top) = (2 * i + 1, 2 * i + 2, 2 * i + 1);
        assert_eq!(
            (b[1], b[4], b[6], b[7], b[8], b[9]),
            (
                (i + 1).to_string().as_str(),
                "2",
                first.to_string().as_str(),
                last.to_string().as_str(),
                top.to_string().as_str(),
                "red blue"
            ),
            "{text}"
        );
    }
}

// See: paper a press can cut, pack and ship (no spot inks: bingo paper is
// printed in named colours, often as spot inks).
#[test]
fn named_inks_print_as_spot_plates_with_their_process_alternate() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "12", "--seed", "11"]);
    let pdf = dir.path().join("s.pdf");
    print(
        &file,
        &pdf,
        &[
            "--book-pages",
            "2",
            "--colours",
            "yellow",
            "cmyk:0,100,100,0",
            "--spot",
        ],
    );
    let bytes = std::fs::read(&pdf).unwrap();
    let text = String::from_utf8_lossy(&bytes);
    // Yellow a plate of its own (in its page's and its form's resources),
    // named apart from the process yellow colorant; a CMYK ink stays
    // process.
    assert_eq!(
        text.matches("/Separation /Bingo#20Yellow /DeviceCMYK")
            .count(),
        2
    );
    assert!(!text.contains("/Separation /Yellow "));
    assert!(!text.contains("/Separation /Red"));
    assert!(text.contains("/C1 [0 0 1 0]"), "yellow's process alternate");
    qpdf_checks(&pdf, "spot inks");
}

// See: issue 66, item 4: spot plates named as the ink maker names them,
// never like a process colorant, and the summary says which plates the
// file holds.
#[test]
fn spot_inks_are_named_as_their_makers_name_them() {
    let dir = tempfile::tempdir().unwrap();
    let file = generate(dir.path(), "c.bmc", &["--count", "12", "--seed", "11"]);
    let pdf = dir.path().join("s.pdf");
    let out = bingomint()
        .arg("print")
        .arg(&file)
        .args([
            "--layout",
            "2",
            "--book-pages",
            "3",
            "--spot",
            "--colours",
            "orange",
        ])
        .args([
            "PANTONE 116 C=cmyk:0,16,100,0",
            "cmyk:0,100,100,0",
            "--packing",
        ])
        .arg(dir.path().join("p.csv"))
        .arg("--out")
        .arg(&pdf)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("spot plates: Bingo Orange, PANTONE 116 C"),
        "{said}"
    );
    // The packing list calls the ink by its name, not its alternate.
    let packing = std::fs::read_to_string(dir.path().join("p.csv")).unwrap();
    assert!(
        packing.contains(",\"orange PANTONE 116 C cmyk:0,100,100,0\","),
        "{packing}"
    );
    let text = String::from_utf8_lossy(&std::fs::read(&pdf).unwrap()).into_owned();
    assert_eq!(
        text.matches("/Separation /PANTONE#20116#20C /DeviceCMYK")
            .count(),
        2
    );
    assert!(
        text.contains("/C1 [0 0.16 1 0]"),
        "the PANTONE ink's process alternate"
    );
    for process in ["Cyan", "Magenta", "Yellow", "Black", "All", "None"] {
        assert!(
            !text.contains(&format!("/Separation /{process} ")),
            "{process}"
        );
    }
    qpdf_checks(&pdf, "spot inks");
    for (ink, said) in [
        ("Yellow=cmyk:0,0,100,0", "is the name of a process colorant"),
        ("black=cmyk:0,0,0,100", "is the name of a process colorant"),
        ("Ink=yellow", "a spot ink is NAME=cmyk:C,M,Y,K"),
    ] {
        let out = bingomint()
            .arg("print")
            .arg(&file)
            .args(["--spot", "--colour", ink, "--out"])
            .arg(dir.path().join("x.pdf"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        // A process colorant's name is named alone; a bad alternate, whole.
        let named = match said.contains("process") {
            true => ink.split('=').next().unwrap(),
            false => ink,
        };
        assert!(
            err.contains(&format!("--colour {named:?}")) && err.contains(said),
            "{err}"
        );
        assert!(!dir.path().join("x.pdf").exists());
    }
}

// See: issue 66, item 5: a large sheet filled as a press fills it.
#[test]
fn a_large_sheet_defaults_to_the_layout_that_fills_it() {
    let dir = tempfile::tempdir().unwrap();
    let strips = generate(
        dir.path(),
        "s.bmc",
        &["--game", "90", "--count", "12", "--seed", "fill"],
    );
    let run = |paper: &str| {
        let out = bingomint()
            .arg("print")
            .arg(&strips)
            .args(["--paper", paper, "--out"])
            .arg(dir.path().join(format!("{paper}.pdf")))
            .output()
            .unwrap();
        assert!(out.status.success(), "{paper}");
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
    };
    // Letter and A4 keep the default, 2 strips; SRA3 takes 6 (3×2) and is
    // filled; A3, where 6 would print under 80 % of Letter's numbers, keeps
    // 3 and says how little of it they cover.
    assert!(run("letter").contains("(2 a page, 15.0 pt numbers"));
    assert!(run("a4").contains("(2 a page,"));
    let sra3 = run("sra3");
    assert!(
        sra3.contains("12 strips on 2 sra3 pages (6 a page, 12.7 pt numbers"),
        "{sra3}"
    );
    assert!(!sra3.contains("the faces cover"), "{sra3}");
    let a3 = run("a3");
    assert!(
        a3.contains("(3 a page,") && a3.contains("the faces cover 50% of each a3 page"),
        "{a3}"
    );
}

/// `qpdf --check` passes on `pdf`, when qpdf is here (`test` names what
/// is left unchecked otherwise).
fn qpdf_checks(pdf: &Path, test: &str) {
    if have("qpdf", test) {
        let check = Command::new("qpdf")
            .arg("--check")
            .arg(pdf)
            .output()
            .unwrap();
        assert!(
            check.status.success(),
            "{}",
            String::from_utf8_lossy(&check.stdout)
        );
    }
}

#[test]
fn large_print_is_one_card_a_page_with_numbers_of_48_pt_or_more() {
    let dir = tempfile::tempdir().unwrap();
    let cards = generate(dir.path(), "c.bmc", &["--count", "4", "--seed", "large"]);
    let pdf = dir.path().join("large.pdf");
    bingomint()
        .arg("print")
        .arg(&cards)
        .args(["--large-print", "--paper", "a4", "--out"])
        .arg(&pdf)
        .assert()
        .success()
        .stdout(predicate::str::contains("4 a4 pages (1 a page"));
    // Too small a sheet, or a strip of six tickets, is refused: no file.
    for (file, paper, said) in [
        (&cards, "a6", "24.4 pt"),
        (
            &generate(
                dir.path(),
                "s.bmc",
                &["--game", "90", "--count", "1", "--seed", "large"],
            ),
            "a3",
            "one strip a page",
        ),
    ] {
        let out = dir.path().join("refused.pdf");
        bingomint()
            .arg("print")
            .arg(file)
            .args(["--large-print", "--paper", paper, "--out"])
            .arg(&out)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(said).and(predicate::str::contains("--large-print")));
        assert!(!out.exists());
    }
    if !have("pdftotext", "large print pdftotext") {
        return;
    }
    // Each number's box, as poppler lays the text out: a font of 48 pt
    // makes a box of about 56 pt (this font's ascent and descent).
    let out = Command::new("pdftotext")
        .args(["-bbox", "-f", "1", "-l", "4"])
        .arg(&pdf)
        .arg("-")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let heights: Vec<f64> = (text.lines())
        .filter(|l| {
            l.contains("<word")
                && l.trim_end()
                    .trim_end_matches("</word>")
                    .rsplit('>')
                    .next()
                    .unwrap()
                    .parse::<u32>()
                    .is_ok()
        })
        .map(|l| {
            let at = |name: &str| -> f64 {
                let from = l.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
                l[from..].split('"').next().unwrap().parse().unwrap()
            };
            at("yMax") - at("yMin")
        })
        .collect();
    // The face's 24 numbers a card at 48 pt or more (the rest are the
    // card's own number and series beneath it).
    let large = heights.iter().filter(|&&h| h >= 55.5).count();
    assert_eq!(large, 4 * 24, "{heights:?}");
}
