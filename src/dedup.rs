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

use dashmap::mapref::entry::Entry;
use dashmap::DashMap;
use std::hash::{BuildHasher, Hash, Hasher};

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

/// A concurrent set of exact keys, each remembering the smallest index that
/// claimed it.
pub struct KeySet<K: Eq + Hash> {
    map: DashMap<K, u32, Xxh3Build>,
}

impl<K: Eq + Hash + Copy> KeySet<K> {
    /// A set sized for `capacity` keys, so that it never grows (and never holds
    /// two tables at once) while the pipeline runs.
    pub fn with_capacity(capacity: usize) -> Self {
        let shards = (rayon::current_num_threads() * 16).next_power_of_two().max(64);
        KeySet {
            map: DashMap::with_capacity_and_hasher_and_shard_amount(capacity, Xxh3Build, shards),
        }
    }

    /// Offers `key` for `index`; the smaller index keeps it.
    #[inline]
    pub fn claim(&self, key: K, index: u32) -> Claim {
        match self.map.entry(key) {
            Entry::Vacant(slot) => {
                slot.insert(index);
                Claim::New
            }
            Entry::Occupied(mut slot) => {
                let holder = *slot.get();
                if holder == index {
                    // The same card offering the same key again.
                    Claim::New
                } else if holder < index {
                    Claim::Lost { holder }
                } else {
                    slot.insert(index);
                    Claim::Displaced { loser: holder }
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

    /// Removes `key` (used to undo a partial multi-key claim).
    pub fn remove(&self, key: &K) {
        self.map.remove(key);
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

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;

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
