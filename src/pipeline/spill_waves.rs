//! The out-of-core loop, written once: records in chunks of [`CHUNK`]
//! cards, a wave of chunks at a time; each chunk's keys gathered and sorted
//! by partition in parallel, the wave appended to the [`Partitions`]; when
//! every wave is in, the partitions settled one by one. `outcore::mint`
//! (the `--exclude` files' keys, then the draws) and `verify` out of core
//! both run through here; what each does around a wave (sealing blocks,
//! writing records, releasing pages) stays with it.

use super::settle::{settle, KeysOf, Shared};
use super::spill::{Partitions, SortedEntries};
use super::{Progress, CHUNK};
use crate::cardfile::writer::WriteError;
use rayon::prelude::*;
use std::ops::Range;

/// The key batches of one wave, reused from wave to wave.
pub(crate) struct SpillWaves {
    batches: Vec<SortedEntries>,
}

impl SpillWaves {
    /// Batches for waves of `wave` chunks.
    pub fn new(wave: usize) -> SpillWaves {
        SpillWaves {
            batches: (0..wave.max(1)).map(|_| SortedEntries::default()).collect(),
        }
    }

    /// The waves over `cards` cards: each a range of chunk numbers.
    pub fn ranges(&self, cards: usize) -> impl Iterator<Item = Range<usize>> {
        let chunks = cards.div_ceil(CHUNK);
        let wave = self.batches.len();
        (0..chunks)
            .step_by(wave)
            .map(move |first| first..(first + wave).min(chunks))
    }

    /// One wave: for the j-th of `units`, in parallel, `fill(first_chunk + j,
    /// unit, batch)` pushes the chunk's keys (ids from `first_id` on, within
    /// 2²¹ of it) into an empty batch, which is then sorted by partition;
    /// the wave is appended to `parts`. Returns what each `fill` returned,
    /// in chunk order. `units` holds at most a wave of chunks.
    pub fn wave<U, R>(
        &mut self,
        parts: &mut Partitions,
        first_chunk: usize,
        first_id: u32,
        units: impl IndexedParallelIterator<Item = U>,
        fill: impl Fn(usize, U, &mut SortedEntries) -> R + Sync + Send,
    ) -> Result<Vec<R>, WriteError>
    where
        U: Send,
        R: Send,
    {
        let n = units.len();
        assert!(n <= self.batches.len(), "a wave holds at most its batches");
        let shared = &*parts;
        let found: Vec<R> = units
            .zip(self.batches.par_iter_mut())
            .with_max_len(1)
            .enumerate()
            .map(|(j, (unit, batch))| {
                batch.clear();
                let out = fill(first_chunk + j, unit, batch);
                batch.sort(shared);
                out
            })
            .collect();
        let done: Vec<&SortedEntries> = self.batches[..n].iter().collect();
        parts.append(&done, first_id)?;
        Ok(found)
    }
}

/// Settles every partition in turn (see [`settle`]), letting each go when
/// done: the keys shared with an id of smaller rank. Says which partitions
/// it is on through `progress`, when given.
pub(crate) fn settle_all<K, S>(
    parts: &mut Partitions,
    keys: &S,
    progress: Option<&dyn Progress>,
) -> Result<Vec<Shared>, WriteError>
where
    K: Copy + Eq + std::hash::Hash,
    S: KeysOf<K>,
{
    let mut shared = Vec::new();
    for p in 0..parts.count() {
        if let Some(progress) = progress.filter(|_| p % 16 == 0) {
            let last = (p + 16).min(parts.count());
            progress.phase(&format!(
                "settling keys, partitions {}-{last} of {}",
                p + 1,
                parts.count()
            ));
        }
        let entries = parts.shared_hashes(p)?;
        parts.discard(p);
        shared.extend(settle(parts, &entries, keys));
    }
    Ok(shared)
}
