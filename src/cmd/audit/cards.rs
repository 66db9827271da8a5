//! The battery on a card file's cards, and the exact uniqueness check.

use super::{auditor, pooled, About, Args};
use crate::cmd::{spinning, Bar};
use anyhow::{anyhow, Context, Result};
use bingomint::audit::{self, Battery, Check};
use bingomint::cardfile::CardFile;
use bingomint::pipeline::verify::{verify_within, VerifyError};
use bingomint::pipeline::{default_memory, spill, Progress};

/// The battery on FILE's cards, with the exact uniqueness check.
pub fn cards(args: &Args) -> Result<(Battery, About, String)> {
    let path = args.file.as_deref().expect("clap asks for FILE");
    let file = CardFile::open(path)?;
    let (spec, count) = (file.header().spec, file.header().count);
    crate::cmd::require_sound_flat(&file)?;
    if spec.faces() == 1 && spec.face_noun() == "ticket" {
        anyhow::bail!(
            "'{}' holds single 90-ball tickets (imported): the battery tests 75- and 80-ball \
             cards and 90-ball strips, whose layouts have a known law; single tickets have none",
            file.path()
        );
    }
    let size = spec.record_size();
    let held = bingomint::text::count_of(count, spec.noun());
    if count < 1000 {
        anyhow::bail!(
            "'{}' holds {held}; the battery needs at least 1000 to tell a fair file from a flawed one \
             (docs/audit.md, \"Power\")",
            file.path()
        );
    }
    if count < 10_000 {
        eprintln!(
            "bingomint: warning: '{}' holds {held}; the tests' approximations want 10000 or more, \
             so read their p-values with care",
            file.path()
        );
    }
    spinning(spec.slow_start(), args.quiet, || spec.prepare());
    let bar = Bar::new(count, spec.noun(), args.quiet);
    let done = |range: std::ops::Range<usize>| {
        file.release_records(range.start * size..range.end * size);
        bar.advance(range.len() as u64);
    };
    let records = &file.records()[..count as usize * size];
    let mut battery = pooled(args, || audit::cards::battery(spec, records, &done))?;
    bar.finish();
    battery.subject = format!("{count} {}", spec.made(count));
    battery.checks.push(unique(args, &file)?);
    let mut about = vec![
        ("file".to_string(), file.path().to_string()),
        ("file id".into(), file.short_id()),
        (
            "file SHA-256".into(),
            bingomint::input::sha256_file(path).context("cannot read the file again")?,
        ),
        (
            "game".into(),
            format!("{} {}", spec.describe(), spec.parameters()),
        ),
        ("records".into(), count.to_string()),
    ];
    let h = file.header();
    let recorded = |v: Option<String>| v.unwrap_or_else(|| "not recorded (v3 layout)".into());
    about.push(("seed".into(), recorded(h.seed.map(|s| s.to_string()))));
    about.push((
        "algorithm version".into(),
        recorded(h.algorithm.map(|a| a.to_string())),
    ));
    about.push(("made by".into(), recorded(h.tool_version.clone())));
    about.push(("created".into(), bingomint::text::iso_date(h.created)));
    about.extend(auditor(args)?);
    Ok((battery, about, spec.short_name().to_string()))
}

/// Uniqueness, exactly: every face's key, in memory or in partitions.
pub(super) fn unique(args: &Args, file: &CardFile) -> Result<Check> {
    let memory = args.memory.unwrap_or_else(default_memory);
    let path = args.file.as_deref().expect("a file");
    let dir = args
        .temp_dir
        .clone()
        .unwrap_or_else(|| spill::default_dir(path));
    let (report, _) = spinning(Some("checking uniqueness".into()), args.quiet, || {
        pooled(args, || verify_within(file, memory, &dir))
    })?
    .map_err(|e| match e {
        VerifyError::Memory(_) => anyhow!("{e}; give --memory a budget below the free memory"),
        e => e.into(),
    })?;
    let spec = report.spec;
    let faces = report.count * spec.faces() as u64;
    let noun = spec.face_noun();
    let detail = match (report.duplicates.first(), report.broken.first()) {
        (None, None) => format!(
            "{}: no two the same (exact keys)",
            bingomint::text::count_of(faces, noun)
        ),
        (Some((n, first)), _) => format!(
            "{} repeat an earlier one ({} {n} repeats {first})",
            bingomint::text::count_of(report.duplicates.len() as u64, noun),
            spec.noun()
        ),
        (None, Some((n, why))) => format!("{} {n} breaks the rules: {why}", spec.noun()),
    };
    Ok(Check {
        name: "uniqueness".into(),
        passed: report.duplicates.is_empty() && report.broken.is_empty(),
        detail,
    })
}
