//! A print house's whole run, as the press cuts, packs and ships it:
//! 100,000 UK strips on SRA3, three a sheet, cut-stacked into books of six
//! named spot inks; every piece names its book, page, serial and series
//! where it lands after cutting (read back with `pdftotext -bbox`), a
//! packing list whose serials add up to the run, carton labels; then a
//! second run that continues the series. Checked with the prepress tools
//! (qpdf, pdfinfo, pdftotext), which `.ci/run` installs.

use crate::common::{bingomint, generate, stdout_of};
use crate::print::have;
use predicates::str::contains;
use std::path::Path;
use std::process::Command;

/// What a prepress tool prints; it must succeed.
pub fn tool(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    stdout
}

/// The value of `field` in `pdfinfo`'s report.
fn field<'a>(info: &'a str, field: &str) -> &'a str {
    let line = info
        .lines()
        .find(|l| l.starts_with(field))
        .unwrap_or_else(|| panic!("{field}: {info}"));
    line[field.len()..].trim()
}

/// A word `pdftotext -bbox` found: its text and its left and right edges.
struct Word {
    text: String,
    x: (f32, f32),
}

/// The words of page `page` of `pdf`, in reading order.
fn words(pdf: &Path, page: u64) -> Vec<Word> {
    let p = page.to_string();
    let out = Command::new("pdftotext")
        .args(["-bbox", "-f", &p, "-l", &p])
        .arg(pdf)
        .arg("-")
        .output()
        .unwrap();
    let html = String::from_utf8_lossy(&out.stdout);
    let attr = |line: &str, name: &str| -> f32 {
        let at = line.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
        line[at..].split('"').next().unwrap().parse().unwrap()
    };
    html.lines()
        .filter(|l| l.trim_start().starts_with("<word"))
        .map(|l| Word {
            text: l
                .split('>')
                .nth(1)
                .unwrap()
                .split('<')
                .next()
                .unwrap()
                .into(),
            x: (attr(l, "xMin"), attr(l, "xMax")),
        })
        .collect()
}

/// Each piece of page `page` (the sheet cut in three across its trim of
/// `trim` = (left, width) points): the first ticket it names, and its
/// label's book, page and series, all read inside the piece's third.
fn pieces(pdf: &Path, page: u64, trim: (f32, f32)) -> Vec<(u64, u64, u64, u64)> {
    let words = words(pdf, page);
    let third = |w: &Word| ((w.x.0 - trim.0) / (trim.1 / 3.0)).floor() as usize;
    let mut found = Vec::new();
    for piece in 0..3 {
        let inside: Vec<&Word> = words.iter().filter(|w| third(w) == piece).collect();
        // Each word of the piece's text ends inside its third too.
        assert!(inside
            .iter()
            .all(|w| ((w.x.1 - trim.0) / (trim.1 / 3.0)).floor() as usize == piece));
        let after = |name: &str| -> u64 {
            let at = inside
                .iter()
                .position(|w| w.text == name)
                .unwrap_or_else(|| panic!("page {page} piece {piece}: no {name:?}"));
            inside[at + 1].text.parse().unwrap()
        };
        found.push((
            after("Ticket"),
            after("Book"),
            after("page"),
            after("Series"),
        ));
    }
    found
}

#[test]
fn a_hundred_thousand_strip_book_run_is_labelled_packed_and_continued() {
    if !["qpdf", "pdftotext", "pdfinfo"]
        .iter()
        .all(|t| have(t, "press run"))
    {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let strips = generate(
        dir.path(),
        "strips.bmc",
        &["--game", "90", "--count", "100000", "--seed", "press"],
    );
    let (pdf, packing, labels) = (
        dir.path().join("run.pdf"),
        dir.path().join("pack.csv"),
        dir.path().join("labels.pdf"),
    );
    let press = |file: &Path, out: &Path, packing: &Path, extra: &[&str]| {
        bingomint()
            .arg("print")
            .arg(file)
            .args(["--paper", "sra3", "--layout", "3", "--order", "cut-stack"])
            .args(["--book-pages", "6", "--colours", "yellow", "pink", "blue"])
            .args(["green", "orange", "purple", "--spot", "--bleed", "3mm"])
            .args(["--series-size", "600", "--allow-short-book", "--quiet"])
            .arg("--packing")
            .arg(packing)
            .arg("--out")
            .arg(out)
            .args(extra)
            .assert()
            .success();
    };
    press(
        &strips,
        &pdf,
        &packing,
        &[
            "--books-per-carton",
            "50",
            "--carton-labels",
            labels.to_str().unwrap(),
            "--maker",
            "Mint Paper Co.",
        ],
    );
    // PDF/X-1a, sound, six spot plates.
    tool(Command::new("qpdf").arg("--check").arg(&pdf));
    let info = tool(Command::new("pdfinfo").args(["-box"]).arg(&pdf));
    assert_eq!(field(&info, "Pages:"), "33334");
    assert_eq!(field(&info, "PDF subtype:"), "PDF/X-1:2001");
    let bytes = std::fs::read(&pdf).unwrap();
    let raw = String::from_utf8_lossy(&bytes);
    assert!(raw.contains("/GTS_PDFXVersion (PDF/X-1:2001)"));
    for ink in ["Yellow", "Pink", "Blue", "Green", "Orange", "Purple"] {
        assert!(
            raw.contains(&format!("/Separation /Bingo#20{ink} /DeviceCMYK")),
            "{ink}"
        );
    }
    // The trim box: (left, width), from pdfinfo's "TrimBox: x0 y0 x1 y1".
    let trim: Vec<f32> = (field(&info, "TrimBox:").split_whitespace())
        .map(|v| v.parse().unwrap())
        .collect();
    let (left, width) = (trim[0], trim[2] - trim[0]);
    // The packing list: books and cartons whose serials add up to the run.
    let text = std::fs::read_to_string(&packing).unwrap();
    let rows: Vec<Vec<String>> = (text.lines().skip(1))
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    let num = |r: &Vec<String>, i: usize| -> u64 { r[i].parse().unwrap() };
    let (books, cartons): (Vec<_>, Vec<_>) = rows.iter().partition(|r| r[0] == "book");
    let mut ranges: Vec<(u64, u64)> = books.iter().map(|b| (num(b, 6), num(b, 7))).collect();
    ranges.sort_unstable();
    assert_eq!(ranges.first().unwrap().0, 1);
    assert!(
        ranges.windows(2).all(|w| w[1].0 == w[0].1 + 1),
        "books overlap or leave a gap"
    );
    assert_eq!(
        ranges.last().unwrap().1,
        600_000,
        "every ticket of 100,000 strips"
    );
    let pages: u64 = books.iter().map(|b| num(b, 4)).sum();
    assert_eq!(
        pages,
        3 * 33_334 - 2,
        "every piece in one book (the last sheet holds one strip)"
    );
    assert_eq!(cartons.len(), books.len().div_ceil(50));
    let carton_tickets: u64 = cartons.iter().map(|c| num(c, 7) - num(c, 6) + 1).sum();
    assert_eq!(carton_tickets, 600_000);
    // Every piece of the first, a middle and the last full sheet names the
    // book, page and series the packing list puts its ticket in.
    for page in [1, 17_000, 33_332] {
        for (ticket, book, k, series) in pieces(&pdf, page, (left, width)) {
            let row = books.iter().find(|b| num(b, 1) == book).unwrap();
            assert!(
                (num(row, 6)..=num(row, 7)).contains(&ticket),
                "page {page}: {ticket} in book {book}"
            );
            assert_eq!(
                k,
                page - num(row, 11) + 1,
                "page {page}: book {book}'s page"
            );
            assert_eq!(series, (ticket - 1) / 600 + 1);
        }
    }
    // The carton labels: one a carton, two a page, what a carton carries.
    tool(Command::new("qpdf").arg("--check").arg(&labels));
    let first = tool(
        Command::new("pdftotext")
            .args(["-f", "1", "-l", "1"])
            .arg(&labels)
            .arg("-"),
    );
    for line in [
        "CARTON 1 OF 334",
        "Maker: Mint Paper Co.",
        "series no. 1-3",
        "Serials 1–1800",
        "Top sheet serial: 1",
        "Books 1-50 · 50 packets of 6 pages",
        "Colours: yellow pink blue green orange purple",
        "Cut: 3 up (18 tickets a page)",
        "CARTON 2 OF 334",
    ] {
        assert!(first.contains(line), "{line}: {first}");
    }
    let labels_info = tool(Command::new("pdfinfo").arg(&labels));
    assert_eq!(field(&labels_info, "Pages:"), "167");

    // A second run continues the series: never a strip of the first, its
    // tickets numbered on from 600,001, found by those numbers.
    let more = dir.path().join("more.bmc");
    bingomint()
        .args([
            "generate", "--game", "90", "--count", "1000", "--seed", "press-2",
        ])
        .arg("--exclude")
        .arg(&strips)
        .args(["--first-serial", "600001", "--out"])
        .arg(&more)
        .assert()
        .success()
        .stdout(contains("tickets 600001–606000"));
    // See: issue 62 (and the press's second order): a series continued
    // over the first run's serials is refused, naming the first free one.
    bingomint()
        .args(["generate", "--game", "90", "--count", "10", "--exclude"])
        .arg(&strips)
        .args(["--first-serial", "60001", "--out"])
        .arg(dir.path().join("reused.bmc"))
        .assert()
        .code(2)
        .stderr(contains("serials 60001–60060 are those of"))
        .stderr(contains("continue the series with --first-serial 600001"));
    assert!(!dir.path().join("reused.bmc").exists());
    let (pdf2, packing2) = (dir.path().join("more.pdf"), dir.path().join("more.csv"));
    press(&more, &pdf2, &packing2, &[]);
    let text = std::fs::read_to_string(&packing2).unwrap();
    let book1: Vec<&str> = text.lines().nth(1).unwrap().split(',').collect();
    assert_eq!(
        (book1[6], book1[8], book1[14]),
        ("600001", "600001", "1001"),
        "{text}"
    );
    // Its books are numbered on from the 100,000 strips' before it.
    let (ticket, book, k, series) = pieces(&pdf2, 1, (left, width))[0];
    assert_eq!((ticket, book, k, series), (600_001, 16_668, 1, 1001));
    let shown = stdout_of(bingomint().args(["show", "--ticket", "600001"]).arg(&more));
    assert!(shown.contains("tickets 600001–600006"), "{shown}");
    bingomint()
        .args(["show", "--ticket", "5"])
        .arg(&more)
        .assert()
        .code(2)
        .stderr(contains("it holds tickets 600001 to 606000"));
}
