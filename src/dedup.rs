//! The exact-key set that keeps every card in a batch unique.
//!
//! A sharded concurrent map (`DashMap`) from a card's exact key to the
//! smallest card index that drew it. XXH3, one-shot over the key's bytes, only
//! places a key in a shard and bucket; equality is always on the whole key, so
//! two different cards are never mistaken for one another.
//!
//! Keeping the *smallest* index makes the outcome independent of thread
//! timing: whatever order the inserts arrive in, the survivors and the losers
//! are the same, and the pipeline redraws the losers in index order.
//!
//! Bulk inserts go shard by shard ([`KeySet::claim_shard`]): the pipeline
//! first sorts a wave of keys by shard, then one thread takes one shard's
//! lock once and inserts its whole batch. Shards are sized to stay near the
//! CPU caches (about 16K keys each), so a batch's random probes hit cache
//! instead of main memory, and no two threads ever wait on the same lock.

use dashmap::mapref::entry::Entry;
use dashmap::{DashMap, SharedValue};
use std::hash::{BuildHasher, Hash, Hasher};

/// What the pipeline needs of anything it mints (cards, strips, boards):
/// the exact keys that make one unique.
pub trait Keyed: Sync {
    /// One drawn card (or strip, or board).
    type Card: Send + Sync;
    /// An exact key: two cards are the same exactly when their keys are equal.
    type Key: Copy + Eq + Hash + Send + Sync;
    /// The keys of one card (one for a 75-ball card, six for a 90-ball strip).
    type Keys: AsRef<[Self::Key]>;

    /// The card's exact keys.
    fn keys(&self, card: &Self::Card) -> Self::Keys;
    /// How many keys each card has.
    fn keys_per_card(&self) -> usize;
}

/// Index given to keys loaded from `--exclude` files: smaller than every card
/// index (cards count from 1), so a drawn card never wins against them.
pub const EXCLUDED: u32 = 0;

/// A hasher that runs XXH3 once over the bytes a key writes.
///
/// Keys in this crate write themselves with a single `write` call, so this is
/// the one-shot XXH3, not the streaming one (which is several times slower
/// for 12- or 16-byte keys).
#[derive(Default)]
pub struct Xxh3Hasher(u64);

impl Hasher for Xxh3Hasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        self.0 = xxhash_rust::xxh3::xxh3_64_with_seed(bytes, self.0);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// Builds [`Xxh3Hasher`]s.
#[derive(Clone, Copy, Default)]
pub struct Xxh3Build;

impl BuildHasher for Xxh3Build {
    type Hasher = Xxh3Hasher;

    fn build_hasher(&self) -> Xxh3Hasher {
        Xxh3Hasher(0)
    }
}

/// The outcome of offering a key to the set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The key was new.
    New,
    /// The key was already held by a smaller index: the offered index loses.
    Lost { holder: u32 },
    /// The key was held by a larger index, which now loses to the offered one.
    Displaced { loser: u32 },
}

impl Claim {
    /// The index that lost, if any.
    pub fn loser(self, offered: u32) -> Option<u32> {
        match self {
            Claim::New => None,
            Claim::Lost { .. } => Some(offered),
            Claim::Displaced { loser } => Some(loser),
        }
    }
}

/// Settles a key held by `holder` and offered by `index`: the smaller keeps it.
#[inline]
fn settle(holder: &mut u32, index: u32) -> Claim {
    if *holder == index {
        // The same card offering the same key again.
        Claim::New
    } else if *holder < index {
        Claim::Lost { holder: *holder }
    } else {
        let loser = std::mem::replace(holder, index);
        Claim::Displaced { loser }
    }
}

/// A key waiting to be claimed in bulk, with its hash computed once.
#[derive(Clone, Copy, Debug)]
pub struct Pending<K> {
    pub hash: u64,
    pub key: K,
    pub index: u32,
}

/// How many keys ahead [`KeySet::claim_shard`] prefetches.
const PREFETCH_AHEAD: usize = 8;

/// Asks the CPU to start loading the cache line at `ptr`.
#[inline(always)]
fn prefetch<T>(ptr: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint: it never faults and has no effect
    // on memory, whatever the address.
    unsafe {
        core::arch::x86_64::_mm_prefetch(ptr.cast::<i8>(), core::arch::x86_64::_MM_HINT_T0)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = ptr;
}

/// Keys per shard the set aims for: a shard's table then stays a few hundred
/// kilobytes, within a core's L2 cache.
const KEYS_PER_SHARD: usize = 16 * 1024;

/// A concurrent set of exact keys, each remembering the smallest index that
/// claimed it.
pub struct KeySet<K: Eq + Hash> {
    map: DashMap<K, u32, Xxh3Build>,
    /// The keys the set was sized for (see [`KeySet::reserve`]).
    capacity: usize,
}

impl<K: Eq + Hash + Copy> KeySet<K> {
    /// A set sized for `capacity` keys, so that it never grows (and never holds
    /// two tables at once) while the pipeline runs.
    pub fn with_capacity(capacity: usize) -> Self {
        let set = KeySet::deferred(capacity);
        set.reserve();
        set
    }

    /// A set with the shards of [`KeySet::with_capacity`] but no tables yet,
    /// for a run that most likely claims no key at all (uniqueness is proved
    /// by hashes first): making a table for 10 M keys zeroes and maps 16 MB
    /// on one thread before the first card. [`KeySet::reserve`] makes them
    /// when keys do come.
    pub fn deferred(capacity: usize) -> Self {
        let shards = (capacity / KEYS_PER_SHARD)
            .next_power_of_two()
            .clamp(64, 1 << 16);
        KeySet {
            map: DashMap::with_hasher_and_shard_amount(Xxh3Build, shards),
            capacity,
        }
    }

    /// Makes every shard's table as large as [`KeySet::with_capacity`]
    /// would have (a table already that large is left alone).
    pub fn reserve(&self) {
        let per_shard = self.capacity.div_ceil(self.shard_count());
        for shard in self.map.shards() {
            let mut table = shard.write();
            if table.capacity() < per_shard {
                let more = per_shard - table.len();
                table.reserve(more, |(k, _)| Xxh3Build.hash_one(k));
            }
        }
    }

    /// The memory a set sized for `capacity` keys takes: hashbrown tables
    /// hold a power of two of buckets, at most 7/8 full, each an entry plus
    /// a control byte.
    pub fn bytes_for(capacity: usize) -> usize {
        let buckets = (capacity.saturating_mul(8) / 7).max(1).next_power_of_two();
        buckets.saturating_mul(std::mem::size_of::<(K, SharedValue<u32>)>() + 1)
    }

    /// The key's hash (XXH3 of its bytes).
    #[inline]
    pub fn hash(&self, key: &K) -> u64 {
        self.map.hash_usize(key) as u64
    }

    /// The shard a hash falls in.
    #[inline]
    pub fn shard_of(&self, hash: u64) -> usize {
        self.map.determine_shard(hash as usize)
    }

    /// How many shards the set has.
    pub fn shard_count(&self) -> usize {
        self.map.shards().len()
    }

    /// Offers `key` for `index`; the smaller index keeps it.
    #[inline]
    pub fn claim(&self, key: K, index: u32) -> Claim {
        match self.map.entry(key) {
            Entry::Vacant(slot) => {
                slot.insert(index);
                Claim::New
            }
            Entry::Occupied(mut slot) => settle(slot.get_mut(), index),
        }
    }

    /// Claims batches of keys that all fall in `shard` (see
    /// [`KeySet::shard_of`]), under one lock, pushing every losing index onto
    /// `losers`.
    ///
    /// The table slots of the key eight places on are
    /// prefetched, so that several cache misses are under way at once
    /// instead of one after the other.
    pub fn claim_shard<'a>(
        &self,
        shard: usize,
        batches: impl Iterator<Item = &'a [Pending<K>]>,
        losers: &mut Vec<u32>,
    ) where
        K: 'a,
    {
        let mut table = self.map.shards()[shard].write();
        for batch in batches {
            for (i, p) in batch.iter().enumerate() {
                debug_assert_eq!(self.shard_of(p.hash), shard);
                if let Some(ahead) = batch.get(i + PREFETCH_AHEAD) {
                    // hashbrown's layout: slot j's control byte at
                    // `data_end + j` bytes, its entry at `data_end - (j + 1)`.
                    let end = table.data_end().as_ptr();
                    let slot = ahead.hash as usize & (table.buckets() - 1);
                    prefetch(end.cast::<u8>().wrapping_add(slot));
                    prefetch(end.wrapping_sub(slot + 1));
                }
                let found = table.find_or_find_insert_slot(
                    p.hash,
                    |(k, _)| *k == p.key,
                    |(k, _)| Xxh3Build.hash_one(k),
                );
                match found {
                    Ok(bucket) => {
                        // SAFETY: the bucket was just found in this table,
                        // which this thread holds write-locked; no other
                        // reference to the entry exists.
                        let (_, holder) = unsafe { bucket.as_mut() };
                        if let Some(loser) = settle(holder.get_mut(), p.index).loser(p.index) {
                            losers.push(loser);
                        }
                    }
                    Err(slot) => {
                        // SAFETY: `slot` was returned by
                        // `find_or_find_insert_slot` on this table for this
                        // hash, and the table has not changed since (we hold
                        // its write lock).
                        unsafe {
                            table.insert_in_slot(p.hash, slot, (p.key, SharedValue::new(p.index)))
                        };
                    }
                }
            }
        }
    }

    /// Inserts `key` for `index` if no one holds it; true if it was inserted.
    pub fn insert_new(&self, key: K, index: u32) -> bool {
        match self.map.entry(key) {
            Entry::Vacant(slot) => {
                slot.insert(index);
                true
            }
            Entry::Occupied(_) => false,
        }
    }

    /// The index holding `key`, if any.
    pub fn holder(&self, key: &K) -> Option<u32> {
        self.map.get(key).map(|v| *v)
    }

    /// Whether `key` is held.
    pub fn contains(&self, key: &K) -> bool {
        self.map.contains_key(key)
    }

    /// How many keys the set holds.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

/// The memory available now, in bytes (Linux's MemAvailable), if the system
/// says.
pub fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Fails when a key set of `bytes` (see [`KeySet::bytes_for`]) would not
/// fit in the memory available now (Linux; elsewhere nothing is checked),
/// instead of letting the allocation abort the process later.
pub fn check_memory(bytes: usize) -> Result<(), OutOfMemory> {
    match available_memory() {
        Some(available) if bytes as u64 > available => Err(OutOfMemory {
            needed: bytes as u64,
            available,
        }),
        _ => Ok(()),
    }
}

/// A key set that would not fit in the memory available now (bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "needs about {:.1} GB of memory to check uniqueness, but {:.1} GB is available",
    *needed as f64 / 1e9,
    *available as f64 / 1e9
)]
pub struct OutOfMemory {
    pub needed: u64,
    pub available: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;

    #[test]
    fn a_deferred_set_makes_its_tables_on_reserve() {
        let capacity = 100_000;
        let room = |set: &KeySet<u64>| -> usize {
            set.map.shards().iter().map(|s| s.read().capacity()).sum()
        };
        let set = KeySet::<u64>::deferred(capacity);
        assert_eq!(
            set.shard_count(),
            KeySet::<u64>::with_capacity(capacity).shard_count()
        );
        assert_eq!(room(&set), 0);
        // Keys claimed one by one grow its tables as they come.
        assert_eq!(set.claim(3, 1), Claim::New);
        set.reserve();
        let reserved = room(&set);
        assert!(reserved >= capacity, "{reserved}");
        assert_eq!(reserved, room(&KeySet::with_capacity(capacity)));
        // Reserving again leaves the tables alone; keys stay.
        set.reserve();
        assert_eq!(room(&set), reserved);
        assert_eq!(set.holder(&3), Some(1));
    }

    #[test]
    fn smallest_index_wins_in_any_order() {
        let set = KeySet::with_capacity(4);
        assert_eq!(set.claim(7u64, 5), Claim::New);
        assert_eq!(set.claim(7u64, 9), Claim::Lost { holder: 5 });
        assert_eq!(set.claim(7u64, 2), Claim::Displaced { loser: 5 });
        assert_eq!(set.holder(&7), Some(2));
        // The same index offering the key again (a card with a repeated key) is no loss.
        assert_eq!(set.claim(7u64, 2), Claim::New);
        assert_eq!(set.claim(7u64, 3), Claim::Lost { holder: 2 });
        assert!(!set.insert_new(7u64, 1));
        assert!(set.insert_new(8u64, 1));
        assert_eq!(set.len(), 2);
    }

    #[test]
    fn bulk_claims_by_shard_agree_with_single_claims() {
        let keys: Vec<u64> = (0..20_000u64).map(|i| i * 7919 % 5000).collect();
        let single = KeySet::with_capacity(5000);
        let mut expected: Vec<u32> = keys
            .iter()
            .zip(1u32..)
            .filter_map(|(&k, i)| single.claim(k, i).loser(i))
            .collect();
        let bulk = KeySet::with_capacity(5000);
        let mut by_shard = vec![Vec::new(); bulk.shard_count()];
        // Offer in reverse order: the outcome must not depend on it.
        for (&key, index) in keys.iter().zip(1u32..20_001).rev() {
            let hash = bulk.hash(&key);
            by_shard[bulk.shard_of(hash)].push(Pending { hash, key, index });
        }
        let mut losers = Vec::new();
        for (shard, batch) in by_shard.iter().enumerate() {
            bulk.claim_shard(shard, std::iter::once(&batch[..]), &mut losers);
        }
        expected.sort();
        losers.sort();
        assert_eq!(losers, expected);
        assert_eq!(losers.len(), 15_000);
        for k in 0..5000u64 {
            assert_eq!(bulk.holder(&k), single.holder(&k));
        }
    }

    #[test]
    fn parallel_claims_keep_the_minimum() {
        // 64 keys, each offered by 100 indices in parallel: the holder must be
        // the smallest index, and exactly 99 of each 100 must be reported lost.
        let set = KeySet::with_capacity(64);
        let losers: usize = (1u32..=6400)
            .into_par_iter()
            .map(|i| match set.claim(u64::from(i % 64), i) {
                Claim::New => 0,
                Claim::Lost { .. } | Claim::Displaced { .. } => 1,
            })
            .sum();
        assert_eq!(losers, 6400 - 64);
        for k in 0..64u64 {
            let smallest = if k == 0 { 64 } else { k as u32 };
            assert_eq!(set.holder(&k), Some(smallest));
        }
    }
}
