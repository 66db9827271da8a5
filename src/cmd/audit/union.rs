//! `audit FILE --with FILE…`: the battery on the union of a stock's files
//! (its shards), their cards in one seeded interleaving, and no face in two
//! of them.

use super::cards::unique;
use super::{auditor, pooled, About, Args};
use crate::cmd::Bar;
use anyhow::{bail, Context, Result};
use bingomint::audit::{self, Battery, Check};
use bingomint::cardfile::CardFile;
use bingomint::pipeline::across::across;
use bingomint::pipeline::Progress;
use bingomint::seed::{below_u64, stream};
use bingomint::text::count_of;
use std::path::PathBuf;

/// The seed of the interleaving (stream 0 of it): fixed, so an audit of
/// the same files is the same report.
const INTERLEAVE_SEED: u64 = 0x6269_6e67_6f75_6e69;

/// The battery on FILE and the `--with` files as one stock.
pub fn union(args: &Args) -> Result<(Battery, About, String)> {
    let paths: Vec<&PathBuf> = args.file.iter().chain(&args.with).collect();
    let files = (paths.iter())
        .map(|p| CardFile::open(p).map_err(anyhow::Error::from))
        .collect::<Result<Vec<_>>>()?;
    let spec = files[0].header().spec;
    for file in &files {
        crate::cmd::require_sound_flat(file)?;
        if file.header().spec != spec {
            bail!(
                "'{}' holds {}, not {} as '{}' does: a stock's files are of one game",
                file.path(),
                file.header().spec.describe(),
                spec.describe(),
                files[0].path()
            );
        }
    }
    let count: u64 = files.iter().map(|f| f.header().count).sum();
    if count < 1000 {
        bail!(
            "the files hold {} together; the battery needs at least 1000",
            count_of(count, spec.noun())
        );
    }
    let records = interleaved(&files, spec.record_size());
    let bar = Bar::new(count, spec.noun(), args.quiet);
    let done = |range: std::ops::Range<usize>| bar.advance(range.len() as u64);
    let mut battery = pooled(args, || audit::cards::battery(spec, &records, &done))?;
    bar.finish();
    drop(records);
    battery.subject = format!(
        "{count} {} in {} files, interleaved",
        spec.made(count),
        files.len()
    );
    battery.checks.push(uniqueness(args, &files)?);
    let mut about = vec![(
        "game".to_string(),
        format!("{} {}", spec.describe(), spec.parameters()),
    )];
    for (k, file) in files.iter().enumerate() {
        let h = file.header();
        let shard = h.shard.map_or(String::new(), |s| {
            format!(", shard {}/{} of a stock of {}", s.index, s.of, s.stock)
        });
        let sha = bingomint::input::sha256_file(std::path::Path::new(file.path()))
            .context("cannot read the file again")?;
        about.push((
            format!("file {}", k + 1),
            format!(
                "{} (id {}, {}{shard}, seed {}, SHA-256 {sha})",
                file.path(),
                file.short_id(),
                count_of(h.count, spec.noun()),
                h.seed.map_or("not recorded".into(), |s| s.to_string())
            ),
        ));
    }
    about.push(("records".into(), count.to_string()));
    about.push((
        "order".into(),
        format!("the files' records interleaved by a Fisher–Yates shuffle of stream 0 of seed {INTERLEAVE_SEED}"),
    ));
    about.extend(auditor(args)?);
    Ok((battery, about, spec.short_name().to_string()))
}

/// Every file's records in one shuffled order.
fn interleaved(files: &[CardFile], size: usize) -> Vec<u8> {
    // A record as its file (top 16 bits) and its index in it.
    let mut order: Vec<u64> = (files.iter().enumerate())
        .flat_map(|(k, f)| (0..f.header().count).map(move |i| (k as u64) << 48 | i))
        .collect();
    let mut rng = stream(INTERLEAVE_SEED, 0);
    for i in (1..order.len()).rev() {
        let j = below_u64(&mut rng, i as u64 + 1) as usize;
        order.swap(i, j);
    }
    let mut records = Vec::with_capacity(order.len() * size);
    for at in order {
        let (k, i) = ((at >> 48) as usize, (at & ((1 << 48) - 1)) as usize);
        records.extend_from_slice(&files[k].records()[i * size..(i + 1) * size]);
    }
    records
}

/// Each file's uniqueness, exactly, and no face in two files.
fn uniqueness(args: &Args, files: &[CardFile]) -> Result<Check> {
    for file in files {
        let check = unique(args, file)?;
        if !check.passed {
            return Ok(Check {
                detail: format!("{}: {}", file.path(), check.detail),
                ..check
            });
        }
    }
    let found = across(files, 1)?;
    let noun = files[0].header().spec.face_noun();
    let detail = match found.listed.first() {
        None => format!(
            "{}: no two the same (exact keys), none in two files",
            count_of(found.faces, noun)
        ),
        Some(s) => format!(
            "{} in two files ({noun} {} of {} is {noun} {} of {})",
            count_of(found.shared, noun),
            s.first.1,
            files[s.first.0].path(),
            s.second.1,
            files[s.second.0].path()
        ),
    };
    Ok(Check {
        name: "uniqueness".into(),
        passed: found.shared == 0,
        detail,
    })
}
