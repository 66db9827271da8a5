//! `verify`'s shard check: every card of a shard's file (or of `--shard
//! I/N`) of that shard's classes (`pipeline::shard`).

use super::Args;
use crate::cmd::outln;
use anyhow::{anyhow, Result};
use bingomint::cardfile::CardFile;
use bingomint::pipeline::shard::{outside, Shard};

/// Whether `file` is the shard `--shard` names or its header says, every
/// card of its classes (said on a line of `verify`'s report); true for a
/// file that is no shard, with no `--shard`.
pub(super) fn member(file: &CardFile, args: &Args) -> Result<bool> {
    let marked = file.header().shard.map(Shard::from);
    let Some(shard) = args.shard.or(marked) else {
        return Ok(true);
    };
    if let (Some(asked), Some(said)) = (args.shard, marked) {
        if asked != said {
            outln!("shard             NOT {asked}: the file is shard {said}");
            return Ok(false);
        }
    }
    let spec = file.header().spec;
    if let Err(why) = spec.classes() {
        return Err(anyhow!("--shard {shard}: {why}"));
    }
    match outside(file, shard).map_err(|e| anyhow!("--shard {e}"))? {
        None => {
            if !args.quiet {
                outln!(
                    "shard             ok (every {} of shard {shard}'s part of the stock)",
                    spec.noun()
                );
            }
            Ok(true)
        }
        Some((record, class)) => {
            outln!(
                "shard             OUTSIDE: {} {} (its first column's class {class}) is not of shard {shard}",
                spec.noun(),
                file.header().face_number(record, 0)
            );
            Ok(false)
        }
    }
}
