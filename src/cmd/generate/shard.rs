//! `generate --shard I/N`: shard I's part of a stock of `--count` cards,
//! numbered on from the shards before it (`pipeline::shard`).

use super::args::Args;
use anyhow::{anyhow, Result};
use bingomint::cardfile::header::ShardMark;
use bingomint::game::Spec;
use bingomint::pipeline::file::Plan;
use bingomint::pipeline::shard::Shard;

/// `plan` (the whole stock's) cut to `shard`'s part: its count, its first
/// serial, the shard in its header.
pub(super) fn part<'a>(args: &Args, spec: Spec, shard: Shard, plan: Plan<'a>) -> Result<Plan<'a>> {
    if args.format == "v3" {
        return Err(anyhow!(
            "--shard {shard}: the v3 layout has no room for the shard; mint shards in the native format (drop --format v3)"
        ));
    }
    let classes = spec
        .classes()
        .map_err(|why| anyhow!("--shard {shard}: {why}"))?;
    let (before, count) = (shard.part(args.count, classes)).map_err(|e| anyhow!("--shard {e}"))?;
    if count == 0 {
        return Err(anyhow!(
            "--shard {shard}: a stock of {} cards leaves this shard none; give fewer shards or a larger --count (the whole stock's)",
            args.count
        ));
    }
    Ok(Plan {
        count,
        first_face: args.first_serial + before * spec.faces() as u64,
        shard: Some(ShardMark {
            index: shard.index,
            of: shard.of,
            stock: args.count,
        }),
        ..plan
    })
}
