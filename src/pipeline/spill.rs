//! De-duplication out of core, for runs whose key set would not fit in the
//! memory budget (`--memory`).
//!
//! While cards are drawn, every key's XXH3 hash and its card's id go to one
//! of 2^b partition files in a temporary directory, chosen by the hash's
//! top bits. Each partition is then loaded alone, sorted by (hash, id), and
//! its runs of equal hashes settled on the exact keys, read back from the
//! records: of the cards sharing a key, the smallest id keeps it, exactly
//! the rule of the in-memory [`crate::dedup::KeySet`] (cards of `--exclude`
//! files before every card). So the losers, and everything after them, are
//! the same as in memory.
//!
//! Ids: cards are 1..=count; the records of `--exclude` files follow, from
//! count + 1, and rank before every card.

use crate::buckets::runs_mut;
use crate::cardfile::writer::{io_err, TempDir, WriteError};
use crate::dedup::Xxh3Build;
use rayon::prelude::*;
use std::fs::File;
use std::hash::{BuildHasher, Hash};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Bytes of one entry in a partition, on disk or kept in memory: the
/// hash's 43 bits below the partition bits, then the card's offset in its
/// wave (21 bits). The wave's first id is kept per partition, so a loaded
/// entry has its whole id back; see [`Partitions::append`].
pub const ENTRY_BYTES: usize = 8;

/// Bits of a card's offset in its wave: a wave spans at most 2^21 ids.
pub const OFFSET_BITS: u32 = 21;

/// Bytes an entry takes while its partition is loaded and sorted (the
/// entries and the radix sort's second copy).
pub const ENTRY_MEMORY: usize = 2 * std::mem::size_of::<Entry>();

/// One key of one card: the key's hash (its top bits, see
/// [`Partitions::truncate`]) and the card's id.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Entry {
    pub hash: u64,
    pub id: u32,
}

/// The hash that places a key in its partition and sorts it there.
#[inline]
pub fn hash_key<K: Hash>(key: &K) -> u64 {
    Xxh3Build.hash_one(key)
}

/// Most partitions a run uses (and so files it keeps open).
const MAX_PARTITIONS: usize = 256;

/// How many partitions `entries` keys need so that one partition, loaded
/// and sorted, takes at most `bytes`: a power of two, at least 4.
pub fn partitions_for(entries: u64, bytes: u64) -> usize {
    let needed = (entries * ENTRY_MEMORY as u64).div_ceil(bytes.max(1));
    (needed as usize)
        .next_power_of_two()
        .clamp(4, MAX_PARTITIONS)
}

/// Where a partition's entries wait until it is settled.
enum Holder {
    /// In memory, while the budget allows.
    Memory(Vec<u64>),
    /// In a file of the run's temporary directory.
    Disk(File, PathBuf),
}

/// The key partitions of one run; those on disk are removed with it.
pub struct Partitions {
    dir: Option<TempDir>,
    parts: Vec<Holder>,
    /// log2(partitions): a hash's partition is its top `bits` bits.
    bits: u32,
    /// Per partition: (first id of a wave, entries before it), one per
    /// [`Partitions::append`].
    waves: Vec<Vec<(u32, u64)>>,
    /// Entries in each partition.
    lens: Vec<u64>,
}

impl Partitions {
    /// `count` (a power of two) empty partitions, the first `in_memory` of
    /// them kept in memory, the rest in files of a new temporary directory
    /// under `parent`, named after `out`.
    pub fn create(
        parent: &Path,
        out: &Path,
        count: usize,
        in_memory: usize,
    ) -> Result<Partitions, WriteError> {
        debug_assert!(count.is_power_of_two() && count >= 2);
        let dir = (in_memory < count)
            .then(|| TempDir::new(parent, out))
            .transpose()?;
        let parts = (0..count)
            .map(|p| match &dir {
                Some(dir) if p >= in_memory => {
                    let path = dir.path().join(format!("{p:03}.keys"));
                    File::options()
                        .read(true)
                        .write(true)
                        .create_new(true)
                        .open(&path)
                        .map(|file| Holder::Disk(file, path.clone()))
                        .map_err(io_err("cannot create", &path))
                }
                _ => Ok(Holder::Memory(Vec::new())),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Partitions {
            dir,
            parts,
            bits: count.trailing_zeros(),
            waves: vec![Vec::new(); count],
            lens: vec![0; count],
        })
    }

    /// How many partitions.
    pub fn count(&self) -> usize {
        self.parts.len()
    }

    /// How many are kept on disk.
    pub fn on_disk(&self) -> usize {
        self.parts
            .iter()
            .filter(|h| matches!(h, Holder::Disk(..)))
            .count()
    }

    /// The directory holding those on disk, if any are.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_ref().map(TempDir::path)
    }

    /// The partition of a hash.
    #[inline]
    pub fn of(&self, hash: u64) -> usize {
        (hash >> (64 - self.bits)) as usize
    }

    /// The bits of `hash` an entry keeps: the partition's and the next 43.
    /// Equal keys have equal truncated hashes; the rare unequal keys that
    /// share one are told apart on their exact keys.
    #[inline]
    pub fn truncate(&self, hash: u64) -> u64 {
        hash & (u64::MAX << (OFFSET_BITS - self.bits))
    }

    /// Appends a wave: every batch's part for each partition (each batch
    /// sorted by partition), the partitions filled in parallel. Every id in
    /// the wave is in `first_id .. first_id + 2^21`.
    pub fn append(&mut self, batches: &[&SortedEntries], first_id: u32) -> Result<(), WriteError> {
        let bits = self.bits;
        self.parts
            .par_iter_mut()
            .zip(self.lens.par_iter_mut())
            .zip(self.waves.par_iter_mut())
            .enumerate()
            .try_for_each(|(p, ((holder, len), waves))| {
                waves.push((first_id, *len));
                let packed = batches.iter().flat_map(|b| b.part(p)).map(|e| {
                    let offset = u64::from(e.id - first_id);
                    debug_assert!(offset < 1 << OFFSET_BITS);
                    (e.hash << bits) >> OFFSET_BITS << OFFSET_BITS | offset
                });
                match holder {
                    Holder::Memory(entries) => {
                        let before = entries.len();
                        entries.extend(packed);
                        *len += (entries.len() - before) as u64;
                        Ok(())
                    }
                    Holder::Disk(file, path) => {
                        let bytes: Vec<u8> = packed.flat_map(u64::to_le_bytes).collect();
                        *len += (bytes.len() / ENTRY_BYTES) as u64;
                        file.write_all(&bytes).map_err(io_err("cannot write", path))
                    }
                }
            })
    }

    /// Partition `p`'s entries, sorted by hash: a counting sort on the 16
    /// bits below the partition bits (see `Partitions::scatter`), then each
    /// bucket (a few hundred entries) on its own. For lookups.
    pub fn load(&self, p: usize) -> Result<Vec<Entry>, WriteError> {
        self.with_stored(p, |stored| {
            let (mut sorted, starts) = self.scatter(p, stored, 16);
            runs_mut(&mut sorted, &starts)
                .into_par_iter()
                .with_min_len(64)
                .for_each(|bucket| bucket.sort_unstable_by_key(|e| e.hash));
            sorted
        })
    }

    /// The entries of partition `p` whose hash another entry shares, sorted
    /// by hash: what [`settle`] needs, found without sorting the partition.
    /// A counting sort on the 8 bits below the partition bits cuts it into
    /// 256 buckets; each bucket's hashes then go into an open-addressing
    /// table that fits the core's cache, which notices equal ones.
    pub fn shared_hashes(&self, p: usize) -> Result<Vec<Entry>, WriteError> {
        let bits = self.bits;
        self.with_stored(p, |stored| {
            let (mut sorted, starts) = self.scatter(p, stored, 8);
            let mut shared: Vec<Entry> = runs_mut(&mut sorted, &starts)
                .into_par_iter()
                .map_init(Vec::new, |table: &mut Vec<u32>, bucket| {
                    let slots = (2 * bucket.len()).next_power_of_two().max(16);
                    table.clear();
                    table.resize(slots, u32::MAX);
                    let mut found = Vec::new();
                    for (i, e) in bucket.iter().enumerate() {
                        // The bits just above the truncated ones: random.
                        let mut slot = (e.hash >> (OFFSET_BITS - bits)) as usize & (slots - 1);
                        loop {
                            match table[slot] {
                                u32::MAX => {
                                    table[slot] = i as u32;
                                    break;
                                }
                                j if bucket[j as usize].hash == e.hash => {
                                    found.push(bucket[j as usize]);
                                    found.push(*e);
                                    break;
                                }
                                _ => slot = (slot + 1) & (slots - 1),
                            }
                        }
                    }
                    found
                })
                .flatten_iter()
                .collect();
            shared.sort_unstable();
            shared.dedup();
            shared
        })
    }

    /// Runs `work` on partition `p`'s stored entries (read back from disk
    /// when it is there).
    fn with_stored<T>(&self, p: usize, work: impl FnOnce(&[u64]) -> T) -> Result<T, WriteError> {
        let len = self.lens[p] as usize;
        let mut packed: Vec<u64> = Vec::new();
        let stored: &[u64] = match &self.parts[p] {
            Holder::Memory(entries) => entries,
            Holder::Disk(file, path) => {
                use std::os::unix::fs::FileExt;
                packed.reserve_exact(len);
                let mut buffer = vec![0u8; ENTRY_BYTES << 17];
                let mut at = 0usize;
                while at < len {
                    let n = (len - at).min(1 << 17);
                    let bytes = &mut buffer[..n * ENTRY_BYTES];
                    file.read_exact_at(bytes, (at * ENTRY_BYTES) as u64)
                        .map_err(io_err("cannot read back", path))?;
                    packed.extend(
                        bytes
                            .chunks_exact(ENTRY_BYTES)
                            .map(|e| u64::from_le_bytes(e.try_into().expect("8 bytes"))),
                    );
                    at += n;
                }
                &packed
            }
        };
        Ok(work(stored))
    }

    /// The entries of partition `p` (stored as `stored`) with their ids and
    /// truncated hashes back, in buckets by the `radix` bits below the
    /// partition bits (a parallel counting sort), with where each bucket
    /// starts (one more start: the end).
    fn scatter(&self, p: usize, stored: &[u64], radix: u32) -> (Vec<Entry>, Vec<usize>) {
        let shift = 64 - self.bits - radix;
        let top = (p as u64) << (64 - self.bits);
        let bits = self.bits;
        let waves = &self.waves[p];
        let len = stored.len();
        let unpack = |e: u64, first_id: u32| Entry {
            hash: top | (e >> OFFSET_BITS << OFFSET_BITS) >> bits,
            id: first_id + (e & ((1 << OFFSET_BITS) - 1)) as u32,
        };
        let bucket = |e: &Entry| ((e.hash >> shift) & ((1 << radix) - 1)) as usize;
        // Pieces of the stored entries, each with the waves it spans.
        let pieces = 4 * rayon::current_num_threads();
        let per = len.div_ceil(pieces).max(1);
        let each = |piece: usize, mut visit: Box<dyn FnMut(Entry) + '_>| {
            let (from, to) = (piece * per, ((piece + 1) * per).min(len));
            if from >= to {
                return;
            }
            let mut w = waves.partition_point(|&(_, at)| at as usize <= from) - 1;
            let mut at = from;
            while at < to {
                let end = waves
                    .get(w + 1)
                    .map_or(len, |&(_, next)| next as usize)
                    .min(to);
                for &e in &stored[at..end] {
                    visit(unpack(e, waves[w].0));
                }
                at = end;
                w += 1;
            }
        };
        let counts: Vec<Vec<usize>> = (0..pieces)
            .into_par_iter()
            .map(|piece| {
                let mut counts = vec![0usize; 1 << radix];
                each(piece, Box::new(|e| counts[bucket(&e)] += 1));
                counts
            })
            .collect();
        // Where each piece's part of each bucket starts.
        let mut starts = vec![0usize; (1 << radix) + 1];
        let mut next: Vec<Vec<usize>> = vec![vec![0; 1 << radix]; pieces];
        let mut at = 0usize;
        for b in 0..1 << radix {
            starts[b] = at;
            for piece in 0..pieces {
                next[piece][b] = at;
                at += counts[piece][b];
            }
        }
        starts[1 << radix] = at;
        drop(counts);
        let mut sorted: Vec<Entry> = Vec::with_capacity(len);
        let out = SharedSlots(sorted.as_mut_ptr());
        next.into_par_iter()
            .enumerate()
            .for_each(|(piece, mut next)| {
                let out = &out;
                each(
                    piece,
                    Box::new(move |e| {
                        let slot = &mut next[bucket(&e)];
                        // SAFETY: the slots of piece `piece` in bucket b are
                        // `next[b]..` up to its count, disjoint from every other
                        // piece's and within `len` (the counts sum to it); each
                        // is written once.
                        unsafe { out.0.add(*slot).write(e) };
                        *slot += 1;
                    }),
                );
            });
        // SAFETY: all `len` slots were written above.
        unsafe { sorted.set_len(len) };
        (sorted, starts)
    }

    /// Lets go of partition `p`'s entries once it is settled.
    pub fn discard(&mut self, p: usize) {
        if let Holder::Memory(entries) = &mut self.parts[p] {
            *entries = Vec::new();
        }
    }
}

/// The output of the parallel counting sort: slots that several threads
/// write, each its own.
struct SharedSlots(*mut Entry);

// SAFETY: threads write disjoint slots only (see `Partitions::sort`).
unsafe impl Sync for SharedSlots {}

/// A batch of entries sorted by partition (a counting sort), its buffers
/// reused from batch to batch.
#[derive(Default)]
pub struct SortedEntries {
    pending: Vec<Entry>,
    sorted: Vec<Entry>,
    starts: Vec<u32>,
}

impl SortedEntries {
    /// Empties the batch.
    pub fn clear(&mut self) {
        self.pending.clear();
    }

    /// Adds `key` of card `id`.
    #[inline]
    pub fn push<K: Hash>(&mut self, key: &K, id: u32) {
        self.pending.push(Entry {
            hash: hash_key(key),
            id,
        });
    }

    /// Sorts the batch by partition.
    pub fn sort(&mut self, partitions: &Partitions) {
        crate::buckets::sort_into(
            &self.pending,
            partitions.count(),
            |e| partitions.of(e.hash),
            &mut self.starts,
            &mut self.sorted,
        );
    }

    fn part(&self, p: usize) -> &[Entry] {
        &self.sorted[self.starts[p] as usize..self.starts[p + 1] as usize]
    }
}

/// The directory partition files go in by default: beside the output (on
/// its filesystem, which has room for the output, not in a temporary
/// directory that may live in memory).
pub fn default_dir(out: &Path) -> PathBuf {
    match out.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::settle::{settle, FrozenKeys, KeysOf};

    /// Cards whose single key is a number; ids above `cards` are excluded records.
    struct Numbers {
        keys: Vec<u64>,
        cards: u32,
    }

    impl KeysOf<u64> for Numbers {
        fn keys_of(&self, id: u32) -> Vec<u64> {
            vec![self.keys[id as usize - 1]]
        }
        fn rank(&self, id: u32) -> u32 {
            if id > self.cards {
                0
            } else {
                id
            }
        }
    }

    #[test]
    fn settling_partitions_agrees_with_a_key_set() {
        // 40,000 cards over 9,000 values, then 500 excluded records.
        let mut keys: Vec<u64> = (0..40_000u64).map(|i| i * 7919 % 9_000).collect();
        keys.extend((0..500u64).map(|i| i * 13 % 9_000));
        let numbers = Numbers {
            keys: keys.clone(),
            cards: 40_000,
        };
        let dir = tempfile::tempdir().unwrap();
        // Three partitions in memory, five on disk.
        let mut parts = Partitions::create(dir.path(), Path::new("t.bmc"), 8, 3).unwrap();
        assert_eq!(parts.on_disk(), 5);
        let mut batch = SortedEntries::default();
        for (id, key) in (1u32..).zip(&keys) {
            batch.push(key, id);
        }
        batch.sort(&parts);
        parts.append(&[&batch], 1).unwrap();
        let mut losers: Vec<u32> = (0..parts.count())
            .flat_map(|p| settle(&parts, &parts.shared_hashes(p).unwrap(), &numbers))
            .map(|s| s.loser)
            .collect();
        losers.sort_unstable();
        losers.dedup();
        let set = crate::dedup::KeySet::with_capacity(10_000);
        for &k in &keys[40_000..] {
            set.claim(k, crate::dedup::EXCLUDED);
        }
        let mut expected: Vec<u32> = (1u32..)
            .zip(&keys[..40_000])
            .filter_map(|(id, &k)| set.claim(k, id).loser(id))
            .collect();
        expected.sort_unstable();
        expected.dedup();
        assert_eq!(losers, expected);
        // Every card after the first of its value, and the first ones of the
        // 500 excluded values.
        assert_eq!(losers.len(), 40_000 - 9_000 + 500);
        let frozen = FrozenKeys::new(&parts, &numbers);
        assert_eq!(frozen.lookup(&[5, 9_001, 8_999]).unwrap().len(), 2);
        for p in 0..parts.count() {
            let entries = parts.load(p).unwrap();
            assert!(
                entries.windows(2).all(|w| w[0].hash <= w[1].hash),
                "partition {p} unsorted"
            );
            assert!(entries
                .iter()
                .all(|e| parts.of(e.hash) == p && e.id >= 1 && e.id <= 40_500));
        }
        drop(parts);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
