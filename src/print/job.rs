//! A print job's files: the run split into files of `--pages-per-file`
//! sheets ([`parts`]), the manifest that lists them (written by the csv
//! crate, each file's SHA-256), and the document's date ([`date`]).

use super::Plan;
use crate::cardfile::header::{source_date_epoch, yyyymmdd, SourceDateEpochError};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// One output file and the sheets (from 0) it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    pub path: PathBuf,
    pub sheets: Range<u64>,
}

/// The output files of a run of `sheets` sheets: `out` itself, or with
/// `per_file`, `STEM-0001.pdf`, `STEM-0002.pdf`, … beside it.
pub fn parts(out: &Path, sheets: u64, per_file: Option<u64>) -> Vec<Part> {
    let Some(per) = per_file else {
        return vec![Part {
            path: out.to_path_buf(),
            sheets: 0..sheets,
        }];
    };
    let stem = out
        .file_stem()
        .map_or("cards".into(), |s| s.to_string_lossy().into_owned());
    (0..sheets.div_ceil(per))
        .map(|i| Part {
            path: out.with_file_name(format!("{stem}-{:04}.pdf", i + 1)),
            sheets: i * per..((i + 1) * per).min(sheets),
        })
        .collect()
}

/// A writer that hashes what passes through it (SHA-256), for the
/// manifest of a file written as it is made.
pub struct Hashed<'a> {
    out: &'a mut dyn std::io::Write,
    hasher: sha2::Sha256,
}

impl<'a> Hashed<'a> {
    pub fn new(out: &'a mut dyn std::io::Write) -> Hashed<'a> {
        use sha2::Digest;
        Hashed {
            out,
            hasher: sha2::Sha256::new(),
        }
    }

    /// The SHA-256 of everything written, hex.
    pub fn sha256(self) -> String {
        use sha2::Digest;
        crate::text::hex(&self.hasher.finalize())
    }
}

impl std::io::Write for Hashed<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        use sha2::Digest;
        let n = self.out.write(bytes)?;
        self.hasher.update(&bytes[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// The manifest's line for one written file: its name, pages, the first
/// and last record printed in it, and the SHA-256 of its bytes.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ManifestRow {
    pub file: String,
    pub pages: u64,
    pub first: u64,
    pub last: u64,
    pub sha256: String,
}

impl ManifestRow {
    /// The row of `part` of `plan`, whose file's SHA-256 is `sha256` (hex).
    pub fn new(plan: &Plan, part: &Part, sha256: String) -> ManifestRow {
        let slots = plan.per_page;
        let items: Vec<u64> = part
            .sheets
            .clone()
            .flat_map(|s| (0..slots).filter_map(move |k| plan.item(s, k)))
            .collect();
        let first = items.iter().min().map_or(0, |&i| plan.record_at(i));
        let last = items.iter().max().map_or(0, |&i| plan.record_at(i));
        ManifestRow {
            file: part
                .path
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned()),
            pages: part.sheets.end - part.sheets.start,
            first,
            last,
            sha256,
        }
    }
}

/// The files an earlier run's manifest at `manifest` lists (plain names in
/// its folder ending in `.pdf`), for a run that replaces that run; empty
/// when there is no readable manifest.
pub fn listed_parts(manifest: &Path) -> Vec<PathBuf> {
    let Ok(text) = crate::input::read_text(manifest, 16 << 20) else {
        return Vec::new();
    };
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    reader
        .records()
        .filter_map(|row| row.ok()?.get(0).map(str::to_string))
        .filter(|name| name.ends_with(".pdf") && !name.contains(['/', '\\']) && name != "..")
        .map(|name| manifest.with_file_name(name))
        .collect()
}

/// Writes the manifest: a header, then a row a file.
pub fn write_manifest(rows: &[ManifestRow], out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let mut csv = csv::Writer::from_writer(out);
    for row in rows {
        csv.serialize(row)?;
    }
    if rows.is_empty() {
        csv.write_record(["file", "pages", "first", "last", "sha256"])?;
    }
    csv.flush()
}

/// The document's date as (year, month, day, hour, minute, second):
/// `SOURCE_DATE_EPOCH` when set, else the card file's creation date
/// (`yyyymmdd`) at midnight UTC; never the clock, so the same input gives
/// the same bytes. The error names the variable.
pub fn date(created: u32) -> Result<(u16, u8, u8, u8, u8, u8), SourceDateEpochError> {
    let ymd = |v: u32| ((v / 10_000) as u16, (v / 100 % 100) as u8, (v % 100) as u8);
    if let Some(secs) = source_date_epoch()? {
        let (y, m, d) = ymd(yyyymmdd(secs.div_euclid(86_400)));
        let t = secs.rem_euclid(86_400);
        let (h, min, s) = ((t / 3600) as u8, (t / 60 % 60) as u8, (t % 60) as u8);
        return Ok((y, m, d, h, min, s));
    }
    let (y, m, d) = ymd(created);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return Ok((1970, 1, 1, 0, 0, 0));
    }
    Ok((y, m, d, 0, 0, 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_splits_into_numbered_files_of_whole_sheets() {
        let one = parts(Path::new("out/cards.pdf"), 7, None);
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].sheets, 0..7);
        let split = parts(Path::new("out/cards.pdf"), 7, Some(3));
        let names: Vec<_> = split.iter().map(|p| p.path.clone()).collect();
        assert_eq!(
            names,
            ["cards-0001.pdf", "cards-0002.pdf", "cards-0003.pdf"]
                .map(|n| Path::new("out").join(n))
        );
        assert_eq!(split[2].sheets, 6..7);
    }

    #[test]
    fn the_manifest_quotes_what_needs_it() {
        let row = ManifestRow {
            file: "a,b.pdf".into(),
            pages: 2,
            first: 1,
            last: 12,
            sha256: "ab".into(),
        };
        let mut out = Vec::new();
        write_manifest(&[row], &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "file,pages,first,last,sha256\n\"a,b.pdf\",2,1,12,ab\n"
        );
    }
}
