//! What an audit reads: a card file's cards, games' calls, or (--raw) the
//! generator itself; and the lines that say what was audited.

use super::{pooled, Args};
use crate::cmd::{outln, spinning, Bar, Outcome};
use anyhow::{anyhow, Context, Result};
use bingomint::audit::{self, Battery, Check};
use bingomint::cardfile::{header::today, writer::TempOutput, CardFile};
use bingomint::game::Spec;
use bingomint::pipeline::verify::{verify_within, VerifyError};
use bingomint::pipeline::{default_memory, spill, Progress};
use bingomint::seed::Seed;
use std::io::Write;

type About = Vec<(String, String)>;

/// The battery on FILE's cards, with the exact uniqueness check.
pub fn cards(args: &Args) -> Result<(Battery, About, String)> {
    let path = args.file.as_deref().expect("clap asks for FILE");
    let file = CardFile::open(path)?;
    let (spec, count) = (file.header().spec, file.header().count);
    // The checksums, a stretch at a time, each stretch's pages let go:
    // memory stays flat however large the file.
    const STRETCH: u64 = 1 << 20;
    let size = spec.record_size();
    for first in (1..=count).step_by(STRETCH as usize) {
        let last = (first + STRETCH - 1).min(count);
        crate::cmd::require_sound(&file, first..=last, None)?;
        file.release_records((first - 1) as usize * size..last as usize * size);
    }
    if count < 10_000 {
        eprintln!(
            "bingomint: warning: '{}' holds {count} records; the tests' approximations want 10000 or more, \
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
            audit::sha256_file(path).context("cannot read the file again")?,
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
    about.push(("created".into(), h.created.to_string()));
    about.extend(auditor(args)?);
    Ok((battery, about, spec.short_name().to_string()))
}

/// Uniqueness, exactly: every face's key, in memory or in partitions.
fn unique(args: &Args, file: &CardFile) -> Result<Check> {
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

/// The binary and the day of the audit.
fn auditor(args: &Args) -> Result<About> {
    let exe = std::env::current_exe().context("cannot find this program's own file")?;
    let sha =
        audit::sha256_file(&exe).with_context(|| format!("cannot read '{}'", exe.display()))?;
    Ok(vec![
        (
            "audited by".into(),
            format!("bingomint {}", env!("CARGO_PKG_VERSION")),
        ),
        ("binary SHA-256".into(), sha),
        ("audited on".into(), today()?.to_string()),
        ("alpha".into(), args.alpha.to_string()),
    ])
}

/// The battery on --games call orders.
pub fn calls(args: &Args) -> Result<(Battery, About, String)> {
    let game = args.game.as_deref().unwrap_or("75");
    let balls = Spec::named(game)
        .context("--game: choose one of the games listed")?
        .balls();
    let base = args.seed.as_deref().map(Seed::parse);
    if base.is_none() {
        Seed::from_entropy().context("cannot read a seed from the operating system")?;
    }
    let seed_of = |g: u64| match &base {
        Some(s) => audit::calls::game_seed(s.value, g),
        None => {
            getrandom::u64().expect("the operating system's entropy source answered a moment ago")
        }
    };
    let bar = Bar::new(args.games, "game", args.quiet);
    let done = |n: u64| bar.advance(n);
    let battery = pooled(args, || {
        audit::calls::battery(balls, args.games, &seed_of, &done)
    })?;
    bar.finish();
    let seeds = match &base {
        Some(s) => format!("game g: XXH3 of g under the base seed {s} (reproducible)"),
        None => "every game's seed fresh from the operating system, as a live game's".into(),
    };
    let mut about = vec![
        (
            "calls".to_string(),
            format!("{} games of {balls}-ball calls", args.games),
        ),
        ("seeds".into(), seeds),
        (
            "call order".into(),
            "a Fisher–Yates shuffle of every number from the game seed's calls stream".into(),
        ),
    ];
    about.extend(auditor(args)?);
    Ok((battery, about, game.to_string()))
}

/// --raw: the generator's words (or, --scaled, the numbers) to --out.
pub fn raw(args: &Args, bytes: u64) -> Result<Outcome> {
    let (spec, seed) = match &args.file {
        Some(path) => {
            let file = CardFile::open(path)?;
            let seed = match (&args.seed, file.header().seed) {
                (Some(text), _) => Seed::parse(text).value,
                (None, Some(seed)) => seed,
                (None, None) => {
                    anyhow::bail!("'{}' records no seed (v3 layout); give --seed", file.path())
                }
            };
            (file.header().spec, seed)
        }
        None => {
            let game = args.game.as_deref().unwrap_or("75");
            let spec = Spec::named(game).context("--game: choose one of the games listed")?;
            let seed = match &args.seed {
                Some(text) => Seed::parse(text),
                None => {
                    Seed::from_entropy().context("cannot read a seed from the operating system")?
                }
            };
            (spec, seed.value)
        }
    };
    let dump = if args.scaled {
        audit::raw::Dump::Scaled
    } else {
        audit::raw::Dump::Raw
    };
    let out = args.out.as_deref().expect("checked: --raw has --out");
    let what = if args.scaled {
        "numbers as drawn"
    } else {
        "raw xoshiro256++ words"
    };
    let written = if out.as_os_str() == "-" {
        let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
        audit::raw::write(spec, seed, dump, bytes, &mut stdout)
            .context("cannot write to standard output")?
    } else {
        let (guard, file) = TempOutput::new(out, args.force)?;
        let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
        let n = audit::raw::write(spec, seed, dump, bytes, &mut w)
            .with_context(|| crate::cmd::cannot_write(Some(out)))?;
        w.flush()
            .with_context(|| crate::cmd::cannot_write(Some(out)))?;
        let file = w.into_inner().map_err(|e| anyhow!("{}", e.error()))?;
        guard.publish(&file)?;
        outln!(
            "wrote {n} bytes of {what} ({}, seed {seed}) to {}",
            spec.made(2),
            out.display()
        );
        return Ok(Outcome::Success);
    };
    if !args.quiet {
        eprintln!(
            "bingomint: wrote {written} bytes of {what} ({}, seed {seed})",
            spec.made(2)
        );
    }
    Ok(Outcome::Success)
}
