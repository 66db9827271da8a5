//! `bingomint verify --across`: each file verified, then the faces two of
//! them share named (`pipeline::across`), exit 1 when one is shared.

use super::{one, Args};
use crate::cmd::{outln, with_threads, Outcome};
use anyhow::{anyhow, Result};
use bingomint::cardfile::CardFile;
use bingomint::pipeline::across::{across, Across};
use bingomint::text::count_of;

/// The most shared faces named one by one.
const LISTED: usize = 20;

/// Runs `verify --across`.
pub fn run(args: &Args) -> Result<Outcome> {
    if args.files.len() < 2 {
        return Err(anyhow!(
            "--across checks files against each other: give two or more, such as `bingomint verify --across a.bmc b.bmc`"
        ));
    }
    with_threads(args.threads, || {
        for path in &args.files {
            if matches!(one(path, args)?, Outcome::Negative) {
                return Ok(Outcome::Negative);
            }
        }
        let files = (args.files.iter())
            .map(|p| CardFile::open(p))
            .collect::<Result<Vec<_>, _>>()?;
        let found = match across(&files, LISTED) {
            Ok(found) => found,
            Err(e) => {
                outln!("FAILED: {e}");
                return Ok(Outcome::Negative);
            }
        };
        said(&files, &found, args.quiet)
    })?
}

/// What the check found, in words.
fn said(files: &[CardFile], found: &Across, quiet: bool) -> Result<Outcome> {
    let spec = files[0].header().spec;
    let names: Vec<&str> = files.iter().map(|f| f.path()).collect();
    if found.shared == 0 {
        if !quiet {
            outln!(
                "OK: {}: {}, none of them in two files",
                names.join(", "),
                count_of(found.faces, spec.face_noun())
            );
        }
        return Ok(Outcome::Success);
    }
    let face = |(k, n): (usize, u64)| format!("{} {n} of {}", spec.face_noun(), names[k]);
    for s in &found.listed {
        outln!("shared: {} is {}", face(s.first), face(s.second));
    }
    if found.shared > found.listed.len() as u64 {
        outln!("  … and {} more", found.shared - found.listed.len() as u64);
    }
    outln!(
        "FAILED: {} in two files (of {} read)",
        count_of(found.shared, spec.face_noun()),
        count_of(found.faces, spec.face_noun())
    );
    Ok(Outcome::Negative)
}
