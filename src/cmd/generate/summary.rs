//! `generate`'s summary line: what was made, redrawn and excluded, the
//! seconds (a 90-ball run's table building stated apart), the rate for a
//! run long enough to mean one, where, and the seed to make it again.

use super::args::Args;
use crate::cmd::{outln, rate};
use anyhow::Result;
use bingomint::cardfile::HEADER_SIZE;
use bingomint::pipeline::file::Made;
use bingomint::pipeline::file::Plan;
use bingomint::seed::Seed;

/// The run's line: `secs` in all, `prepared` of them building what the
/// game draws from (the 90-ball tables), which the rate leaves out.
pub(super) fn summary(
    args: &Args,
    plan: &Plan,
    seed: &Seed,
    made: &Made,
    (secs, prepared): (f64, f64),
) -> Result<()> {
    let spec = plan.spec;
    let cards = made.stats.cards;
    let bytes = HEADER_SIZE as f64 + cards as f64 * spec.record_size() as f64;
    let drawing = (secs - prepared).max(1e-6);
    let excluded = if args.exclude.is_empty() {
        String::new()
    } else {
        // Named as the excluded files hold them: strips, or single tickets.
        let noun = (args.exclude.first())
            .and_then(|p| bingomint::cardfile::CardFile::open(p).ok())
            .map_or(spec.noun(), |f| f.header().spec.noun());
        format!(
            " against {},",
            bingomint::text::count_of(made.excluded, &format!("excluded {noun}"))
        )
    };
    let excluded = match made.partitions {
        Some((p, disk)) => {
            format!("{excluded} de-duplicated in {p} key partitions ({disk} on disk),")
        }
        None => excluded,
    };
    let n = made.stats.redrawn;
    let redrawn = match spec.items().is_some_and(|d| d.distinct_lines) {
        true => bingomint::text::count_of(n, "draw") + " sharing a line",
        false => format!("{n} duplicate{}", if n == 1 { "" } else { "s" }),
    };
    // A rate means something only for a run long enough to time: a few
    // cards (or the 90-ball tables' start-up) would give a silly figure.
    let speed = if cards >= 10_000 && drawing >= 0.01 {
        format!(
            ", {} {}s/s, {:.0} MB/s",
            rate(cards as f64 / drawing),
            spec.noun(),
            bytes / drawing / 1e6
        )
    } else {
        String::new()
    };
    let secs = match spec.slow_start() {
        Some(what) if prepared >= 0.05 => format!("{secs:.2} s ({prepared:.2} s of it {what})"),
        _ => format!("{secs:.2} s"),
    };
    // A series continued says where its faces' numbers run.
    let faces = cards * spec.faces() as u64;
    let numbered = match plan.first_face {
        1 => String::new(),
        n => format!(" {}s {n}–{},", spec.face_noun(), n + faces - 1),
    };
    let numbered = match plan.shard {
        Some(s) => format!(
            " shard {}/{} of a stock of {},{numbered}",
            s.index, s.of, s.stock
        ),
        None => numbered,
    };
    outln!(
        "{cards} {},{numbered}{excluded} {redrawn} redrawn, {secs}{speed} -> {} (seed {seed}, format {})",
        spec.made(cards),
        args.out.display(),
        args.format,
    );
    Ok(())
}
