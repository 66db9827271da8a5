//! Claiming many cards' keys in the [`KeySet`] at once: in waves of chunks,
//! each chunk's keys sorted by shard, then every shard worked by one thread
//! under one lock. Drawing, repair rounds, `--exclude` files and `verify`
//! all claim their keys here, through a [`KeySink`].

use crate::dedup::{KeySet, Pending};
use rayon::prelude::*;

/// Keys gathered before they are claimed together: a wave of chunks. Any
/// size gives the same cards; this one keeps the key buffers near 50 MB.
const WAVE_KEYS: usize = 16 * super::CHUNK;

/// Chunks of `chunk` cards per wave for a game with `keys_per_card` keys a
/// card.
pub fn wave_chunks(keys_per_card: usize, chunk: usize) -> usize {
    (WAVE_KEYS / chunk.max(1) / keys_per_card.max(1)).max(1)
}

/// Where a unit of work puts the keys it claims: each key is hashed once,
/// here, and claimed with the wave.
pub struct KeySink<'a, K: Eq + std::hash::Hash> {
    set: &'a KeySet<K>,
    pending: &'a mut Vec<Pending<K>>,
}

impl<K: Copy + Eq + std::hash::Hash> KeySink<'_, K> {
    /// Claims `key` for card `index` with the wave.
    #[inline]
    pub fn push(&mut self, key: K, index: u32) {
        let hash = self.set.hash(&key);
        self.pending.push(Pending { hash, key, index });
    }

    /// Claims every key of `keys` for card `index`.
    #[inline]
    pub fn push_all(&mut self, keys: &[K], index: u32) {
        for &key in keys {
            self.push(key, index);
        }
    }
}

/// Claims the keys of many chunks of work in `set`, in waves, and returns
/// every losing index (unsorted, possibly repeated).
///
/// `units[c]` is chunk c's work; `keys_of(c, unit, sink)` does it and puts
/// its keys in the sink. A wave of `wave` units (see [`wave_chunks`]) runs in
/// parallel, each unit's keys are counting-sorted by shard, then the shards
/// claim the wave's keys, in parallel, one lock per shard. The result does
/// not depend on the wave size or the thread count.
pub fn claim_in_waves<K, U>(
    units: &mut [U],
    set: &KeySet<K>,
    wave: usize,
    keys_of: impl Fn(usize, &mut U, &mut KeySink<K>) + Sync,
) -> Vec<u32>
where
    K: Copy + Eq + std::hash::Hash + Send + Sync,
    U: Send,
{
    // A set made deferred gets its tables now, before keys come.
    set.reserve();
    let mut buffers: Vec<ChunkKeys<K>> = (0..wave).map(|_| ChunkKeys::default()).collect();
    let mut losers = Vec::new();
    for (number, wave_units) in units.chunks_mut(wave).enumerate() {
        wave_units
            .par_iter_mut()
            .zip(buffers.par_iter_mut())
            .with_max_len(1)
            .enumerate()
            .for_each(|(j, (unit, keys))| {
                keys.pending.clear();
                let mut sink = KeySink {
                    set,
                    pending: &mut keys.pending,
                };
                keys_of(number * wave + j, unit, &mut sink);
                keys.sort_by_shard(set);
            });
        let drawn = &buffers[..wave_units.len()];
        let wave_losers = (0..set.shard_count())
            .into_par_iter()
            .fold(Vec::new, |mut losers, shard| {
                let batch = drawn.iter().map(|keys| keys.shard(shard));
                set.claim_shard(shard, batch, &mut losers);
                losers
            })
            .reduce(Vec::new, |mut a, b| {
                a.extend(b);
                a
            });
        losers.extend(wave_losers);
    }
    losers
}

/// One chunk's keys, sorted by shard with a counting sort. The buffers are
/// reused from wave to wave.
struct ChunkKeys<K> {
    pending: Vec<Pending<K>>,
    sorted: Vec<Pending<K>>,
    /// `starts[s]..starts[s + 1]` is shard s's part of `sorted`.
    starts: Vec<u32>,
}

impl<K> Default for ChunkKeys<K> {
    fn default() -> Self {
        ChunkKeys {
            pending: Vec::new(),
            sorted: Vec::new(),
            starts: Vec::new(),
        }
    }
}

impl<K: Copy + Eq + std::hash::Hash> ChunkKeys<K> {
    fn sort_by_shard(&mut self, set: &KeySet<K>) {
        crate::buckets::sort_into(
            &self.pending,
            set.shard_count(),
            |p| set.shard_of(p.hash),
            &mut self.starts,
            &mut self.sorted,
        );
    }

    fn shard(&self, shard: usize) -> &[Pending<K>] {
        &self.sorted[self.starts[shard] as usize..self.starts[shard + 1] as usize]
    }
}
