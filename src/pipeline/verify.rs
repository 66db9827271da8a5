//! Checking a whole card file (`verify`): the header's checksum, every
//! block of records against its checksum (naming the damaged cards), every card's
//! rules (the game's own `decode`), and that no two cards share a key,
//! claimed in the key set exactly as `generate` claims them.

use super::distinct::{distinct, ChunkHashes, Hashes};
use super::outcore;
use super::outcore::OutOfCoreError;
use super::spill::{hash_key, settle, KeysOf, SortedEntries};
use super::waves::{claim_in_waves, wave_chunks};
use super::CHUNK;
use crate::cardfile::{CardFile, Integrity};
use crate::dedup::{check_memory, KeySet};
use crate::game::Game;
use crate::game::{Spec, Text, Visit};
use rayon::prelude::*;
use std::ops::RangeInclusive;
use std::path::Path;

/// What [`verify`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The game of the file.
    pub spec: Spec,
    /// Records in the file.
    pub count: u64,
    /// Whether the header's own checksum matches (None: the layout has none).
    pub header_ok: Option<bool>,
    /// What the records' checksums say (the damaged cards, if any).
    pub integrity: Integrity,
    /// Cards that break their game's rules: (number, why), ascending.
    pub broken: Vec<(u64, String)>,
    /// Cards that repeat a key of an earlier card: (number, the earlier
    /// card), ascending.
    pub duplicates: Vec<(u64, u64)>,
}

impl Report {
    /// Whether the file passed every check.
    pub fn ok(&self) -> bool {
        self.header_ok != Some(false)
            && !matches!(self.integrity, Integrity::Damaged(_))
            && self.broken.is_empty()
            && self.duplicates.is_empty()
    }
}

/// Checks every card of `file` in parallel on the current rayon pool, in
/// memory. Fails (before any work) only when the key set would not fit.
pub fn verify(file: &CardFile) -> Result<Report, String> {
    let spec = file.header().spec;
    let keys = file.header().count as usize * spec.keys_per_card();
    check_memory(
        spec.key_set_bytes(keys),
        &format!("verifying '{}'", file.path()),
    )?;
    let (broken, duplicates) = spec.visit(CheckCards { file });
    Ok(Report {
        spec,
        count: file.header().count,
        header_ok: file.header_ok(),
        integrity: file.integrity(1..=file.header().count),
        broken,
        duplicates,
    })
}

/// [`verify`] within a memory budget of `memory` bytes: when the key set
/// and the mapped file would take more, the keys go to partition files in
/// a temporary directory under `spill_dir` (see [`super::spill`]) and the
/// file is read wave by wave, each wave's pages let go when done. The
/// report is the same. Returns it with the partitions used and how many
/// of them went to disk (None: in memory).
pub fn verify_within(
    file: &CardFile,
    memory: u64,
    spill_dir: &Path,
) -> Result<(Report, Option<(usize, usize)>), String> {
    let spec = file.header().spec;
    let count = file.header().count;
    if !super::file::partitioned(spec, count, 0, memory) {
        return Ok((verify(file)?, None));
    }
    let (broken, duplicates, integrity, partitions) = spec
        .visit(CheckOutOfCore {
            file,
            memory,
            spill_dir,
        })
        .map_err(|e| e.to_string())?;
    let report = Report {
        spec,
        count,
        header_ok: file.header_ok(),
        integrity,
        broken,
        duplicates,
    };
    Ok((report, Some(partitions)))
}

struct CheckOutOfCore<'a> {
    file: &'a CardFile,
    memory: u64,
    spill_dir: &'a Path,
}

/// The keys of a card file's records, for settling partitions.
struct FileKeys<'a, G> {
    game: &'a G,
    file: &'a CardFile,
}

impl<G: Game> KeysOf<G::Key> for FileKeys<'_, G> {
    fn keys_of(&self, id: u32) -> Vec<G::Key> {
        self.file
            .record(u64::from(id))
            .and_then(|record| self.game.decode(record).ok())
            .map_or_else(Vec::new, |card| self.game.keys(&card).as_ref().to_vec())
    }
    fn rank(&self, id: u32) -> u32 {
        id
    }
}

impl Visit for CheckOutOfCore<'_> {
    type Out = Result<
        (
            Vec<(u64, String)>,
            Vec<(u64, u64)>,
            Integrity,
            (usize, usize),
        ),
        OutOfCoreError,
    >;

    fn visit<G: Text>(self, game: &G) -> Self::Out {
        let CheckOutOfCore {
            file,
            memory,
            spill_dir,
        } = self;
        let size = game.spec().record_size();
        let count = file.header().count as usize;
        let entries = (count * game.keys_per_card()) as u64;
        let layout = outcore::Layout::new(memory, entries, size, game.keys_per_card(), 0);
        let name = Path::new(file.path())
            .file_name()
            .map_or(Path::new("verify"), Path::new);
        let mut parts = layout.create(entries, spill_dir, name)?;
        let wave = layout.wave;
        let mut batches: Vec<(SortedEntries, Vec<(u64, String)>)> =
            (0..wave).map(|_| Default::default()).collect();
        let mut broken = Vec::new();
        let mut runs: Vec<RangeInclusive<u64>> = Vec::new();
        // A file without a block table has one checksum for all records.
        let whole = file.header().block.is_none();
        let mut integrity = if whole {
            let all = file.integrity(1..=count as u64);
            file.release_pages();
            Some(all)
        } else {
            None
        };
        let chunks = count.div_ceil(CHUNK);
        for first_chunk in (0..chunks).step_by(wave) {
            let last_chunk = (first_chunk + wave).min(chunks);
            let bytes = first_chunk * CHUNK * size..(last_chunk * CHUNK).min(count) * size;
            file.records()[bytes.clone()]
                .par_chunks(CHUNK * size)
                .zip(batches.par_iter_mut())
                .with_max_len(1)
                .enumerate()
                .for_each(|(j, (records, (batch, bad)))| {
                    batch.clear();
                    bad.clear();
                    for (k, record) in records.chunks_exact(size).enumerate() {
                        let id = ((first_chunk + j) * CHUNK + k + 1) as u32;
                        match game.decode(record) {
                            Err(why) => bad.push((u64::from(id), why.0)),
                            Ok(card) => {
                                for key in game.keys(&card).as_ref() {
                                    batch.push(key, id);
                                }
                            }
                        }
                    }
                    batch.sort(&parts);
                });
            let done: Vec<&SortedEntries> = batches[..last_chunk - first_chunk]
                .iter()
                .map(|(batch, _)| batch)
                .collect();
            parts.append(&done, (first_chunk * CHUNK + 1) as u32)?;
            for (_, bad) in &mut batches[..last_chunk - first_chunk] {
                broken.append(bad);
            }
            if !whole {
                let cards = (bytes.start / size) as u64 + 1..=(bytes.end / size) as u64;
                match file.integrity(cards) {
                    Integrity::Damaged(found) => {
                        for run in found {
                            match runs.last_mut() {
                                Some(last) if *last.end() + 1 == *run.start() => {
                                    *last = *last.start()..=*run.end()
                                }
                                _ => runs.push(run),
                            }
                        }
                    }
                    Integrity::Unchecked => integrity = Some(Integrity::Unchecked),
                    Integrity::Intact => {}
                }
            }
            file.release_records(bytes);
        }
        drop(batches);
        let integrity = integrity.unwrap_or(if runs.is_empty() {
            Integrity::Intact
        } else {
            Integrity::Damaged(runs)
        });
        // Settle the partitions; a card that shares several keys names the
        // holder of the first of them, as the in-memory check does.
        let keys = FileKeys { game, file };
        let mut shared = Vec::new();
        for p in 0..parts.count() {
            let entries = parts.shared_hashes(p)?;
            parts.discard(p);
            shared.extend(settle(&parts, &entries, &keys));
        }
        shared.sort_unstable_by_key(|s| (s.loser, s.hash));
        let mut duplicates = Vec::new();
        for group in shared.chunk_by(|a, b| a.loser == b.loser) {
            let loser = group[0].loser;
            let holder = keys
                .keys_of(loser)
                .iter()
                .map(|key| parts.truncate(hash_key(key)))
                .find_map(|h| group.iter().find(|s| s.hash == h))
                .map_or(group[0].holder, |s| s.holder);
            duplicates.push((u64::from(loser), u64::from(holder)));
        }
        Ok((
            broken,
            duplicates,
            integrity,
            (parts.count(), parts.on_disk()),
        ))
    }
}

/// Checks every card's rules and finds repeats, in parallel. Returns the
/// broken cards (number, reason) and the repeats (number, the earlier card
/// holding one of its keys), both sorted.
struct CheckCards<'a> {
    file: &'a CardFile,
}

type Found = (Vec<(u64, String)>, Vec<(u64, u64)>);

/// A chunk of records, with the broken cards found in it.
type Chunk<'a> = (&'a [u8], Vec<(u64, String)>);

impl Visit for CheckCards<'_> {
    type Out = Found;

    fn visit<G: Text>(self, game: &G) -> Found {
        let file = self.file;
        let size = game.spec().record_size();
        // Distinct hashes prove distinct keys; only a file where two keys
        // share a hash (a repeat, or a 1-in-10¹² coincidence at 10 M cards)
        // goes through the key set to name who repeats whom.
        let (broken, hashes) = decode_and_hash(game, file.records(), size);
        if distinct(&hashes) {
            return (broken, Vec::new());
        }
        drop(hashes);
        let set = KeySet::with_capacity(file.header().count as usize * game.keys_per_card());
        let mut chunks: Vec<Chunk> = file
            .records()
            .chunks(CHUNK * size)
            .map(|records| (records, Vec::new()))
            .collect();
        let wave = wave_chunks(game.keys_per_card(), CHUNK);
        let mut losers =
            claim_in_waves(&mut chunks, &set, wave, |chunk, (records, broken), keys| {
                for (j, record) in records.chunks_exact(size).enumerate() {
                    let index = (chunk * CHUNK + j + 1) as u32;
                    match game.decode(record) {
                        Err(why) => broken.push((u64::from(index), why.0)),
                        Ok(card) => keys.push_all(game.keys(&card).as_ref(), index),
                    }
                }
            });
        let broken: Vec<(u64, String)> =
            chunks.into_iter().flat_map(|(_, broken)| broken).collect();
        losers.sort_unstable();
        losers.dedup();
        let duplicates = losers
            .into_iter()
            .map(|n| {
                let card = game
                    .decode(file.record(u64::from(n)).expect("loser is in range"))
                    .expect("a loser decoded once already");
                let first = game
                    .keys(&card)
                    .as_ref()
                    .iter()
                    .filter_map(|key| set.holder(key))
                    .find(|&holder| holder != n)
                    .unwrap_or(n);
                (u64::from(n), u64::from(first))
            })
            .collect();
        (broken, duplicates)
    }
}

/// Decodes every record in parallel: the broken cards (number, why),
/// ascending, and the hashes of every key of the others.
fn decode_and_hash<G: Game>(game: &G, records: &[u8], size: usize) -> (Vec<(u64, String)>, Hashes) {
    let bits = Hashes::bits_for(records.len() / size * game.keys_per_card());
    let per_chunk = records
        .par_chunks(CHUNK * size)
        .with_max_len(1)
        .enumerate()
        .map(|(c, records)| {
            let mut hashes = Vec::with_capacity(records.len() / size * game.keys_per_card());
            let mut bad = Vec::new();
            for (j, record) in records.chunks_exact(size).enumerate() {
                match game.decode(record) {
                    Err(why) => bad.push(((c * CHUNK + j + 1) as u64, why.0)),
                    Ok(card) => hashes.extend(game.keys(&card).as_ref().iter().map(hash_key)),
                }
            }
            (ChunkHashes::new(bits, &hashes), bad)
        });
    let (chunks, bad): (Vec<ChunkHashes>, Vec<Vec<(u64, String)>>) = per_chunk.unzip();
    (bad.into_iter().flatten().collect(), Hashes { bits, chunks })
}
