//! A series continued: `--continue FILE` (numbered on from the file's
//! last face, the file excluded) and `--first-serial N`, whose run must
//! reuse no serial of an `--exclude` file.

use super::Args;
use anyhow::{anyhow, Result};

/// `--continue FILE`: the first serial after the file's last, and the
/// file excluded.
pub(super) fn continues(args: &mut Args) -> Result<()> {
    let Some(path) = args.continues.clone() else {
        return Ok(());
    };
    let file = bingomint::cardfile::CardFile::open(&path)
        .map_err(|e| crate::cmd::damaged(e, false).context("--continue"))?;
    let header = file.header();
    if header.serials().is_some() {
        return Err(anyhow!(
            "--continue '{}': its serials are another maker's, as printed; give --first-serial N and --exclude it",
            path.display()
        ));
    }
    args.first_serial = header.face_range().end() + 1;
    if !args.exclude.contains(&path) {
        args.exclude.push(path);
    }
    Ok(())
}

/// A series continued (`--first-serial`) reuses none of the serials of the
/// `--exclude` files: refused, naming the first serial free for the run.
pub(super) fn continues_clear(args: &Args, faces: u64) -> Result<()> {
    let mut taken = Vec::new();
    for path in &args.exclude {
        let Ok(file) = bingomint::cardfile::CardFile::open(path) else {
            continue; // the pipeline names a file it cannot read
        };
        taken.push((path, file.header().face_range()));
    }
    let span = args.count.saturating_mul(faces).max(1) - 1;
    let overlaps = |from: u64| {
        let run = from..=from.saturating_add(span);
        (taken.iter()).find(|(_, t)| t.start() <= run.end() && run.start() <= t.end())
    };
    let Some((path, range)) = overlaps(args.first_serial) else {
        return Ok(());
    };
    let mut free = args.first_serial;
    while let Some((_, t)) = overlaps(free) {
        free = t.end() + 1;
    }
    Err(anyhow!(
        "--first-serial {}: serials {}–{} are those of '{}' (--exclude) already; continue the series with --first-serial {free}",
        args.first_serial,
        range.start().max(&args.first_serial),
        range.end().min(&args.first_serial.saturating_add(span)),
        path.display()
    ))
}
