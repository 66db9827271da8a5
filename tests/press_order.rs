//! A print house's second order, continuing its first: 100,000 UK strips
//! after 60,000, on SRA3, cut-stacked in stacks of at most 500 sheets,
//! books of six named spot inks, packing lists and carton labels with
//! barcodes. Nothing of the second order repeats a serial, strip, book or
//! carton number of the first (read back from both packing lists, the
//! PDFs' text and the labels' barcodes, with zbarimg); every cut stands at
//! least 2 mm off anything printed on a piece (measured on the sheets as
//! pdftoppm renders them); each named ink is a plate of its own name.

use crate::common::{bingomint, generate, stdout_of};
use crate::press_run::tool;
use crate::print::have;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// Renders page `page` of `pdf` in gray at `dpi`: (width, height, pixels).
fn render(pdf: &Path, page: u64, dpi: u32) -> (usize, usize, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let p = page.to_string();
    tool(
        Command::new("pdftoppm")
            .args(["-gray", "-r", &dpi.to_string(), "-f", &p, "-l", &p])
            .arg(pdf)
            .arg(dir.path().join("page")),
    );
    let file = std::fs::read_dir(dir.path()).unwrap().next().unwrap();
    let bytes = std::fs::read(file.unwrap().path()).unwrap();
    // A binary PGM: "P5", width, height, 255, then a byte a pixel.
    let mut fields = Vec::new();
    let mut at = 0;
    while fields.len() < 4 {
        while bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        let start = at;
        while !bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        fields.push(String::from_utf8_lossy(&bytes[start..at]).into_owned());
    }
    assert_eq!(fields[0], "P5");
    let (w, h): (usize, usize) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    (w, h, bytes[at + 1..].to_vec())
}

/// The centres of runs of `true`.
fn centres(hits: impl Iterator<Item = bool>) -> Vec<f32> {
    let (mut out, mut start) = (Vec::new(), None);
    for (i, hit) in hits.chain([false]).enumerate() {
        match (hit, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s + i - 1) as f32 / 2.0);
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// The least distance, in millimetres, between a cut and any ink on the
/// pieces of page `page`: the cuts read from the marks in the slug above
/// and left of the trim (`trim`: x0, y0, x1, y1 in points, from pdfinfo),
/// the ink from the page as rendered, within the pieces' span.
fn cut_clearance(pdf: &Path, page: u64, trim: [f32; 4], page_h: f32) -> f32 {
    let dpi = 200;
    let px = |pt: f32| pt * dpi as f32 / 72.0;
    let (w, h, pixels) = render(pdf, page, dpi);
    let at = |x: usize, y: usize| pixels[y * w + x];
    let (left, right) = (px(trim[0]), px(trim[2]));
    let (top, bottom) = (px(page_h - trim[3]), px(page_h - trim[1]));
    // The marks in the slug: the band above the trim, left of it.
    let band = (px(4.0) as usize, (top - px(9.0)) as usize);
    let xs = centres((0..w).map(|x| (band.0..band.1).any(|y| at(x, y) < 200)));
    let band = (px(4.0) as usize, (left - px(9.0)) as usize);
    let ys = centres((0..h).map(|y| (band.0..band.1).any(|x| at(x, y) < 200)));
    // The pieces' cuts lie inside the trim; the trim's own are its edges.
    let inside = |v: &&f32, lo: f32, hi: f32| **v > lo + 2.0 && **v < hi - 2.0;
    let xs: Vec<f32> = xs
        .iter()
        .filter(|v| inside(v, left, right))
        .copied()
        .collect();
    let ys: Vec<f32> = ys
        .iter()
        .filter(|v| inside(v, top, bottom))
        .copied()
        .collect();
    assert!(xs.len() >= 4 && ys.len() >= 4, "cuts: {xs:?} {ys:?}");
    let (x0, x1) = (xs[0], xs[xs.len() - 1]);
    let (y0, y1) = (ys[0], ys[ys.len() - 1]);
    let mut least = f32::MAX;
    for y in y0 as usize..=y1 as usize {
        for x in x0 as usize..=x1 as usize {
            if at(x, y) > 235 {
                continue;
            }
            let dx = xs
                .iter()
                .map(|c| (x as f32 - c).abs())
                .fold(f32::MAX, f32::min);
            let dy = ys
                .iter()
                .map(|c| (y as f32 - c).abs())
                .fold(f32::MAX, f32::min);
            least = least.min(dx).min(dy);
        }
    }
    least * 25.4 / dpi as f32
}

/// `pdfinfo -box -f p -l p`'s TrimBox and the page's height, points.
fn trim_of(pdf: &Path, page: u64) -> ([f32; 4], f32) {
    let p = page.to_string();
    let info = tool(
        Command::new("pdfinfo")
            .args(["-box", "-f", &p, "-l", &p])
            .arg(pdf),
    );
    let numbers = |key: &str| -> Vec<f32> {
        let line = info.lines().find(|l| l.contains(key)).unwrap();
        let values = line.split(key).nth(1).unwrap();
        (values.split_whitespace())
            .filter_map(|v| v.parse().ok())
            .collect()
    };
    let trim = numbers("TrimBox:");
    let media = numbers("MediaBox:");
    ([trim[0], trim[1], trim[2], trim[3]], media[3])
}

/// A packing list's rows: column name → value, a map a row.
fn rows(csv: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let text = std::fs::read_to_string(csv).unwrap();
    let mut lines = text.lines();
    let head: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    lines
        .map(|l| {
            head.iter()
                .cloned()
                .zip(l.split(',').map(String::from))
                .collect()
        })
        .collect()
}

/// The strip numbers page `page` of `pdf` prints ("Ticket 7 · Strip 2").
fn strips_on(pdf: &Path, page: u64) -> BTreeSet<u64> {
    let p = page.to_string();
    let text = tool(
        Command::new("pdftotext")
            .args(["-f", &p, "-l", &p])
            .arg(pdf)
            .arg("-"),
    );
    let words: Vec<&str> = text.split_whitespace().collect();
    (words.windows(2))
        .filter(|w| w[0] == "Strip")
        .map(|w| w[1].parse().unwrap())
        .collect()
}

#[test]
fn a_second_order_continues_the_first_with_safe_cuts_lifts_and_labels() {
    if !["qpdf", "pdftotext", "pdftoppm", "zbarimg"]
        .iter()
        .all(|t| have(t, "press order"))
    {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let first = generate(
        d,
        "first.bmc",
        &["--game", "90", "--count", "60000", "--seed", "order-1"],
    );
    let said = stdout_of(
        bingomint()
            .args(["generate", "--game", "90", "--count", "100000"])
            .args(["--seed", "order-2", "--continue"])
            .arg(&first)
            .arg("--out")
            .arg(d.join("second.bmc")),
    );
    assert!(said.contains("tickets 360001–960000"), "{said}");
    let second = d.join("second.bmc");
    let press = |order: &str, file: &Path, extra: &[&str]| -> String {
        let out = |ext: &str| d.join(format!("{order}{ext}"));
        stdout_of(
            bingomint()
                .arg("print")
                .arg(file)
                .args(["--paper", "sra3", "--order", "cut-stack", "--stack", "500"])
                .args([
                    "--book-pages",
                    "6",
                    "--colours",
                    "Bingo Yellow=cmyk:0,10,100,0",
                ])
                .args(["pink", "blue", "green", "orange"])
                .args(["PANTONE 2685 C=cmyk:85,100,0,0", "--spot", "--bleed", "3mm"])
                .args(["--allow-short-book", "--books-per-carton", "100"])
                .args(["--maker", "Mint Paper Co.", "--customer", "Riverside Bingo"])
                .args(["--job", &format!("J-{order}"), "--label-size", "100x150mm"])
                .arg("--packing")
                .arg(out(".csv"))
                .arg("--carton-labels")
                .arg(out("-labels.pdf"))
                .arg("--out")
                .arg(out(".pdf"))
                .args(extra),
        )
    };
    let said = press("first", &first, &[]);
    // SRA3 takes 6 strips a sheet; 500 sheets lift as 498, whole books.
    assert!(said.contains("(6 a page"), "{said}");
    assert!(
        said.contains("stacks: 21 of 498 sheets (the last 40)"),
        "{said}"
    );
    let after = d.join("first.csv");
    let said = press("second", &second, &["--after", after.to_str().unwrap()]);
    assert!(
        said.contains("the series continues: strip 60001, sheet 10001, book 10003 come first"),
        "{said}"
    );

    // No number of the second order repeats one of the first's.
    let (one, two) = (rows(&d.join("first.csv")), rows(&d.join("second.csv")));
    let numbers = |rows: &[std::collections::HashMap<String, String>], kind: &str, col: &str| {
        (rows.iter())
            .filter(|r| r["kind"] == kind)
            .map(|r| r[col].parse::<u64>().unwrap())
            .collect::<Vec<u64>>()
    };
    for (kind, col) in [
        ("book", "number"),
        ("carton", "number"),
        ("book", "last_sheet"),
    ] {
        let (a, b) = (numbers(&one, kind, col), numbers(&two, kind, col));
        let (last, least) = (a.iter().max().unwrap(), b.iter().min().unwrap());
        assert!(
            least > last,
            "{kind} {col}: the second starts at {least}, the first ends at {last}"
        );
    }
    let (a, b) = (
        numbers(&one, "book", "last_serial"),
        numbers(&two, "book", "first_serial"),
    );
    assert_eq!(*a.iter().max().unwrap(), 360_000);
    assert_eq!(*b.iter().min().unwrap(), 360_001);
    assert_eq!(
        numbers(&one, "book", "number").len(),
        10_002,
        "short books at the end"
    );
    // Each book lies in one stack, pile and place, whole books a pile.
    let book = one.iter().find(|r| r["number"] == "84").unwrap();
    assert_eq!(
        (&*book["stack"], &*book["pile"], &*book["position"]),
        ("1", "2", "1")
    );
    let book = one.iter().find(|r| r["number"] == "499").unwrap();
    assert_eq!(
        (&*book["stack"], &*book["pile"], &*book["position"]),
        ("2", "1", "1")
    );

    // The PDFs agree: strips, sheets and books on the pieces.
    let (pdf1, pdf2) = (d.join("first.pdf"), d.join("second.pdf"));
    let on_first: BTreeSet<u64> = [1, 5000, 10_000]
        .iter()
        .flat_map(|&p| strips_on(&pdf1, p))
        .collect();
    let on_second: BTreeSet<u64> = [1, 8000, 16_667]
        .iter()
        .flat_map(|&p| strips_on(&pdf2, p))
        .collect();
    assert!(
        on_first.iter().all(|&s| (1..=60_000).contains(&s)),
        "{on_first:?}"
    );
    assert!(
        on_second.iter().all(|&s| (60_001..=160_000).contains(&s)),
        "{on_second:?}"
    );
    let page1 = tool(
        Command::new("pdftotext")
            .args(["-f", "1", "-l", "1"])
            .arg(&pdf2)
            .arg("-"),
    );
    assert!(
        page1.contains("Stack 1 of 34 (sheet 1 in it) · Sheet 10001 of 26667"),
        "{page1}"
    );
    assert!(page1.contains("Book 10003 page 1 of 6"), "{page1}");

    // Every cut at least 2 mm off the print, on a first, middle and last
    // sheet of each order.
    for (pdf, pages) in [(&pdf1, [1, 4_999, 10_000]), (&pdf2, [1, 9_000, 16_667])] {
        for page in pages {
            let (trim, height) = trim_of(pdf, page);
            let mm = cut_clearance(pdf, page, trim, height);
            eprintln!(
                "{} page {page}: cuts {mm:.2} mm off the print",
                pdf.display()
            );
            assert!(
                mm >= 2.0,
                "{} page {page}: a cut {mm:.2} mm off the print",
                pdf.display()
            );
        }
    }

    // A plate for each named ink, by its name; none a process colorant's.
    let raw = String::from_utf8_lossy(&std::fs::read(&pdf2).unwrap()).into_owned();
    for plate in ["Bingo#20Yellow", "Bingo#20Pink", "PANTONE#202685#20C"] {
        assert!(
            raw.contains(&format!("/Separation /{plate} /DeviceCMYK")),
            "{plate}"
        );
    }
    for process in ["Cyan", "Magenta", "Yellow", "Black"] {
        assert!(
            !raw.contains(&format!("/Separation /{process} ")),
            "{process}"
        );
    }
    tool(Command::new("qpdf").arg("--check").arg(&pdf2));

    // The carton labels: a barcode a carton, none repeating the first's.
    let mut ids = Vec::new();
    for order in ["first", "second"] {
        let labels = d.join(format!("{order}-labels.pdf"));
        tool(Command::new("qpdf").arg("--check").arg(&labels));
        let info = tool(Command::new("pdfinfo").arg(&labels));
        assert!(info.contains("283.465 x 425.197"), "100x150mm: {info}");
        let p = tempfile::tempdir().unwrap();
        tool(
            Command::new("pdftoppm")
                .args(["-r", "150", "-png", "-f", "1", "-l", "2"])
                .arg(&labels)
                .arg(p.path().join("l")),
        );
        for page in std::fs::read_dir(p.path()).unwrap() {
            let read = tool(Command::new("zbarimg").arg("-q").arg(page.unwrap().path()));
            ids.push(read.trim().to_string());
        }
    }
    ids.sort();
    assert_eq!(
        ids,
        [
            "CODE-128:J-first-C00001",
            "CODE-128:J-first-C00002",
            "CODE-128:J-second-C00102",
            "CODE-128:J-second-C00103",
        ]
    );
    let text = tool(
        Command::new("pdftotext")
            .args(["-f", "1", "-l", "1"])
            .arg(d.join("second-labels.pdf"))
            .arg("-"),
    );
    for line in [
        "CARTON 102 OF 268",
        "Customer: Riverside Bingo · Job J-second",
        "Books 10003-10102",
    ] {
        assert!(text.contains(line), "{line}: {text}");
    }
}

#[test]
fn lifts_cuts_labels_and_continued_orders_refuse_what_cannot_be_made() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let first = generate(
        d,
        "a.bmc",
        &["--game", "90", "--count", "60", "--seed", "a"],
    );
    let books = ["--book-pages", "6", "--colours", "red", "blue", "pink"];
    let books = [&books[..], &["green", "orange", "purple"]].concat();
    let packing = d.join("a.csv");
    bingomint()
        .arg("print")
        .arg(&first)
        .args(["--order", "cut-stack", "--quiet", "--packing"])
        .arg(&packing)
        .args(&books)
        .arg("--out")
        .arg(d.join("a.pdf"))
        .assert()
        .success();
    let refused = |args: &[&str], file: &Path, says: &str| {
        let out = d.join("refused.pdf");
        bingomint()
            .arg("print")
            .arg(file)
            .args(args)
            .arg("--out")
            .arg(&out)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(says));
        assert!(!out.exists(), "{args:?}");
    };
    refused(
        &["--stack", "10"],
        &first,
        "--stack 10: stacks are lifts of a cut stack; add --order cut-stack",
    );
    let cut = [&["--order", "cut-stack"][..], &books].concat();
    refused(
        &[&cut[..], &["--stack", "4"]].concat(),
        &first,
        "give --stack 6 or more",
    );
    refused(
        &[&cut[..], &["--stack", "50", "--pages-per-file", "100"]].concat(),
        &first,
        "--pages-per-file 100: files split at stacks of 48 sheets (--stack 50): give --pages-per-file 96 or 144",
    );
    refused(
        &["--press", "--gap", "3mm"],
        &first,
        "--safety: a cut between pieces 2.0 mm off each needs gaps of at least 4.7 mm (--gap is 3.0 mm)",
    );
    refused(
        &["--press", "--margin", "1mm"],
        &first,
        "past the 1.0 mm --margin",
    );
    let labels = d.join("l.pdf");
    let trail = [
        "--books-per-carton",
        "2",
        "--carton-labels",
        labels.to_str().unwrap(),
    ];
    let b_csv = d.join("b.csv");
    let with_trail = [&cut[..], &["--packing", b_csv.to_str().unwrap()], &trail].concat();
    refused(
        &[&with_trail[..], &["--job", "J 26"]].concat(),
        &first,
        "--job \"J 26\": give 1 to 24 letters",
    );
    refused(
        &[&with_trail[..], &["--label-size", "a9"]].concat(),
        &first,
        "--label-size \"a9\": choose",
    );
    assert!(!labels.exists());
    // An order whose serials do not follow the earlier one's.
    refused(
        &[&cut[..], &["--after", packing.to_str().unwrap()]].concat(),
        &first,
        "that order printed serials up to 360, and",
    );
    refused(
        &["--after", first.to_str().unwrap()],
        &first,
        "not a packing list print wrote",
    );
    // Continued, it is numbered on: its first piece is strip 61, book 11.
    let more = d.join("b.bmc");
    bingomint()
        .args([
            "generate", "--game", "90", "--count", "12", "--seed", "b", "--quiet",
        ])
        .arg("--continue")
        .arg(&first)
        .arg("--out")
        .arg(&more)
        .assert()
        .success();
    let said = stdout_of(
        bingomint()
            .arg("print")
            .arg(&more)
            .args(&cut)
            .arg("--after")
            .arg(&packing)
            .arg("--out")
            .arg(d.join("b.pdf")),
    );
    assert!(
        said.contains("the series continues: strip 61, sheet 31, book 11 come first"),
        "{said}"
    );
}
