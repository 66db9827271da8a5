//! Settling the key partitions of an out-of-core run ([`super::spill`]):
//! in each partition's runs of equal hashes, the exact keys (read back
//! through [`KeysOf`]) decide who shares a key, and the smallest rank keeps
//! it; and, for the repair that follows, [`FrozenKeys`]: the first draws'
//! keys, looked up in their partitions.

use super::spill::{hash_key, Entry, Partitions};
use crate::cardfile::writer::WriteError;
use crate::dedup::Xxh3Build;
use rayon::prelude::*;
use std::hash::Hash;

/// Where the exact keys of an id come from: the records (or, for the
/// losers of an out-of-core run, their first draws kept aside).
pub trait KeysOf<K>: Sync {
    /// The keys of card `id`.
    fn keys_of(&self, id: u32) -> Vec<K>;
    /// The rank of `id` in "the smallest keeps the key": an `--exclude`
    /// record ranks 0, a card its own number.
    fn rank(&self, id: u32) -> u32;
}

/// One key shared by several ids, with the one that keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shared {
    /// The key's hash.
    pub hash: u64,
    /// The id that lost the key.
    pub loser: u32,
    /// The id that keeps it (the smallest rank; the smallest id among equals).
    pub holder: u32,
}

/// Settles the entries of a partition sorted by hash (all of them, or only
/// those whose hash is shared: [`Partitions::shared_hashes`]): every id that shares an exact key with an
/// id of smaller rank loses it. Ids of rank 0 (`--exclude` records) never
/// lose. Equal hashes whose keys differ are told apart here.
pub fn settle<K: Copy + Eq + Hash>(
    parts: &Partitions,
    entries: &[Entry],
    keys: &impl KeysOf<K>,
) -> Vec<Shared> {
    // Runs of equal hashes, found in parallel on pieces cut at run bounds.
    let piece = (entries.len() / (4 * rayon::current_num_threads()).max(1)).max(1 << 16);
    let mut cuts = vec![0usize];
    let mut at = piece;
    while at < entries.len() {
        while at < entries.len() && entries[at].hash == entries[at - 1].hash {
            at += 1;
        }
        cuts.push(at);
        at += piece;
    }
    cuts.push(entries.len());
    cuts.dedup();
    cuts.par_windows(2)
        .flat_map_iter(|w| {
            let mut found = Vec::new();
            let run_starts = &entries[w[0]..w[1]];
            let mut i = 0;
            while i < run_starts.len() {
                let mut j = i + 1;
                while j < run_starts.len() && run_starts[j].hash == run_starts[i].hash {
                    j += 1;
                }
                if j - i > 1 {
                    settle_run(parts, &run_starts[i..j], keys, &mut found);
                }
                i = j;
            }
            found
        })
        .collect()
}

/// Settles ids whose keys share one hash.
fn settle_run<K: Copy + Eq + Hash>(
    parts: &Partitions,
    run: &[Entry],
    keys: &impl KeysOf<K>,
    found: &mut Vec<Shared>,
) {
    let hash = run[0].hash;
    let mut ids: Vec<u32> = run.iter().map(|e| e.id).collect();
    ids.sort_unstable();
    ids.dedup();
    // (key, id) for each key of these ids with this hash.
    let mut members: Vec<(K, u32)> = Vec::new();
    for &id in &ids {
        for key in keys.keys_of(id) {
            if parts.truncate(hash_key(&key)) == hash && !members.contains(&(key, id)) {
                members.push((key, id));
            }
        }
    }
    let mut done = vec![false; members.len()];
    for a in 0..members.len() {
        if done[a] {
            continue;
        }
        let group: Vec<usize> = (a..members.len())
            .filter(|&b| !done[b] && members[b].0 == members[a].0)
            .collect();
        let holder = group
            .iter()
            .map(|&b| members[b].1)
            .min_by_key(|&id| (keys.rank(id), id))
            .expect("a group has a member");
        for &b in &group {
            done[b] = true;
            let id = members[b].1;
            if keys.rank(id) > keys.rank(holder) {
                found.push(Shared {
                    hash,
                    loser: id,
                    holder,
                });
            }
        }
    }
}

/// The keys of the first draws, in their partitions, asked in batches: for
/// the repair of an out-of-core run ([`super::Frozen`]).
pub struct FrozenKeys<'a, K, S> {
    pub partitions: &'a Partitions,
    pub keys: &'a S,
    /// The keys found held at the last [`super::Frozen::learn`].
    pub held: std::collections::HashSet<K, Xxh3Build>,
}

impl<'a, K: Copy + Eq + Hash + Send + Sync, S: KeysOf<K>> FrozenKeys<'a, K, S> {
    /// The first draws in `partitions`, their exact keys from `keys`.
    pub fn new(partitions: &'a Partitions, keys: &'a S) -> Self {
        FrozenKeys {
            partitions,
            keys,
            held: Default::default(),
        }
    }

    /// Which of `asked` are held, loading each partition asked about once.
    pub fn lookup(&self, asked: &[K]) -> Result<Vec<K>, WriteError> {
        let mut by_part: Vec<Vec<(u64, K)>> = vec![Vec::new(); self.partitions.count()];
        for key in asked {
            let hash = self.partitions.truncate(hash_key(key));
            by_part[self.partitions.of(hash)].push((hash, *key));
        }
        let mut held = Vec::new();
        for (p, asked) in by_part.iter().enumerate() {
            if asked.is_empty() {
                continue;
            }
            let entries = self.partitions.load(p)?;
            held.par_extend(asked.par_iter().filter_map(|&(hash, key)| {
                let from = entries.partition_point(|e| e.hash < hash);
                entries[from..]
                    .iter()
                    .take_while(|e| e.hash == hash)
                    .any(|e| self.keys.keys_of(e.id).contains(&key))
                    .then_some(key)
            }));
        }
        Ok(held)
    }
}

impl<K: Copy + Eq + Hash + Send + Sync, S: KeysOf<K>> super::Frozen<K> for FrozenKeys<'_, K, S> {
    fn learn(&mut self, keys: &[K]) -> Result<(), super::MintError> {
        let held = self.lookup(keys).map_err(super::MintError::Spill)?;
        self.held.clear();
        self.held.extend(held);
        Ok(())
    }

    fn holds(&self, key: &K) -> bool {
        self.held.contains(key)
    }
}
