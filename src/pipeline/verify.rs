//! Checking a whole card file (`verify`): the header's checksum, every
//! block of records against its checksum (naming the damaged cards), every card's
//! rules (the game's own `decode`), and that no two cards share a key,
//! claimed in the key set exactly as `generate` claims them.

use super::distinct::{distinct, ChunkHashes, Hashes};
use super::outcore;
use super::outcore::OutOfCoreError;
use super::settle::KeysOf;
use super::spill::hash_key;
use super::spill_waves::{settle_all, SpillWaves};
use super::waves::{claim_in_waves, wave_chunks};
use super::CHUNK;
use crate::cardfile::{CardFile, Integrity};
use crate::dedup::{check_memory, KeySet, OutOfMemory};
use crate::game::Game;
use crate::game::{Spec, Text, Visit};
use crate::text::count_of;
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
    /// The file's header: cards and tickets are named by its numbering
    /// (from 1, a series continued, an import's own).
    pub header: crate::cardfile::Header,
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

impl Report {
    /// The uniqueness line, and the first repeated records.
    fn uniqueness(&self, line: &mut impl FnMut(bool, String)) {
        let report = self;
        let duplicates = &self.duplicates;
        let noun = self.spec.noun();
        let face = self.spec.face_noun();
        let lines = self.spec.items().is_some_and(|d| d.distinct_lines);
        if duplicates.is_empty() && lines {
            line(
                false,
                "uniqueness        ok (no two cards share a line)".into(),
            );
        } else if duplicates.is_empty() {
            line(
                false,
                format!("uniqueness        ok (no {face} repeats another)"),
            );
        } else {
            line(
                true,
                format!(
                    "uniqueness        {} {} an earlier {face}:",
                    count_of(duplicates.len() as u64, noun),
                    if duplicates.len() == 1 {
                        "repeats"
                    } else {
                        "repeat"
                    }
                ),
            );
            let what = |&(n, first): &(u64, u64)| {
                let (n, first) = (report.name(n), report.name(first));
                if lines {
                    format!("  {noun} {n} shares a line with {noun} {first}")
                } else if report.spec.faces() > 1 {
                    format!("  {noun} {n} repeats a {face} of {noun} {first}")
                } else {
                    format!("  {noun} {n} is the same as {noun} {first}")
                }
            };
            listed(line, duplicates.iter().map(what), duplicates.len());
        }
    }

    /// Record `n`'s name: a card's or ticket's face number, a strip's
    /// record number.
    fn name(&self, n: u64) -> u64 {
        if self.spec.faces() == 1 {
            self.header.face_number(n, 0)
        } else {
            n
        }
    }
}

/// Cards listed for each kind of problem; the rest are counted.
pub const SHOWN: usize = 10;

impl Report {
    /// The report in words, a line each, each marked failed or not: the
    /// checksums, the rules and uniqueness, listing the first
    /// [`SHOWN`] cards of each problem.
    pub fn lines(&self) -> Vec<(bool, String)> {
        let report = self;
        let noun = report.spec.noun();
        let mut out = Vec::new();
        let mut line = |failed: bool, text: String| out.push((failed, text));
        match report.header_ok {
            Some(true) => line(false, "header checksum   ok".into()),
            Some(false) => line(
                true,
                "header checksum   MISMATCH: the header is damaged".into(),
            ),
            None => line(false, "header checksum   none (v3 layout)".into()),
        }
        match &report.integrity {
            Integrity::Intact => line(false, "records checksum  ok".into()),
            damage @ Integrity::Damaged(_) => {
                let n = damage.damaged_cards();
                line(
                    true,
                    format!(
                        "records checksum  MISMATCH: {noun}s {} ({} in blocks whose checksum \
                         fails: changed or damaged)",
                        damage.describe(SHOWN),
                        count_of(n, noun),
                    ),
                )
            }
            Integrity::Unchecked => line(false, "records checksum  none (v3 layout)".into()),
        }
        let broken = &report.broken;
        if broken.is_empty() {
            line(
                false,
                format!("rules             ok ({})", count_of(report.count, noun)),
            );
        } else {
            line(
                true,
                format!(
                    "rules             {} {} the rules:",
                    count_of(broken.len() as u64, noun),
                    if broken.len() == 1 { "breaks" } else { "break" }
                ),
            );
            listed(
                &mut line,
                broken
                    .iter()
                    .map(|(n, why)| format!("  {noun} {}: {why}", report.name(*n))),
                broken.len(),
            );
        }
        report.uniqueness(&mut line);
        out
    }
}

/// The first [`SHOWN`] of `lines`, then how many more there were.
fn listed(line: &mut impl FnMut(bool, String), lines: impl Iterator<Item = String>, total: usize) {
    for text in lines.take(SHOWN) {
        line(true, text);
    }
    if total > SHOWN {
        line(true, format!("  … and {} more", total - SHOWN));
    }
}

/// Checks every card of `file` in parallel on the current rayon pool, in
/// memory. Fails (before any work) only when the key set would not fit.
pub fn verify(file: &CardFile) -> Result<Report, OutOfMemory> {
    let spec = file.header().spec;
    let keys = file.header().count as usize * spec.keys_per_card();
    check_memory(spec.key_set_bytes(keys))?;
    let (broken, duplicates) = spec.visit(CheckCards { file });
    Ok(Report {
        spec,
        count: file.header().count,
        header_ok: file.header_ok(),
        header: file.header().clone(),
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
) -> Result<(Report, Option<(usize, usize)>), VerifyError> {
    let spec = file.header().spec;
    let count = file.header().count;
    if !super::file::partitioned(spec, count, 0, memory) {
        return Ok((verify(file)?, None));
    }
    let (broken, duplicates, integrity, partitions) = spec.visit(CheckOutOfCore {
        file,
        memory,
        spill_dir,
    })?;
    let report = Report {
        spec,
        count,
        header_ok: file.header_ok(),
        header: file.header().clone(),
        integrity,
        broken,
        duplicates,
    };
    Ok((report, Some(partitions)))
}

/// Why a file could not be checked (what it holds is another matter: a
/// [`Report`]).
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// The key set would not fit in memory.
    #[error("the key set {0}")]
    Memory(#[from] OutOfMemory),
    #[error(transparent)]
    OutOfCore(#[from] OutOfCoreError),
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
        let mut waves = SpillWaves::new(layout.wave);
        let mut broken = Vec::new();
        let mut damage = Damage::default();
        // A file without a block table has one checksum for all records.
        let whole = file.header().block.is_none();
        if whole {
            damage.add(file.integrity(1..=count as u64));
            file.release_pages();
        }
        for chunks in waves.ranges(count) {
            let bytes = chunks.start * CHUNK * size..(chunks.end * CHUNK).min(count) * size;
            let found = waves.wave(
                &mut parts,
                chunks.start,
                (chunks.start * CHUNK + 1) as u32,
                file.records()[bytes.clone()].par_chunks(CHUNK * size),
                |chunk, records, batch| {
                    let mut bad = Vec::new();
                    for (k, record) in records.chunks_exact(size).enumerate() {
                        let id = (chunk * CHUNK + k + 1) as u32;
                        match game.decode(record) {
                            Err(why) => bad.push((u64::from(id), why.0)),
                            Ok(card) => {
                                for key in game.keys(&card).as_ref() {
                                    batch.push(key, id);
                                }
                            }
                        }
                    }
                    bad
                },
            )?;
            broken.extend(found.into_iter().flatten());
            if !whole {
                damage.add(
                    file.integrity((bytes.start / size) as u64 + 1..=(bytes.end / size) as u64),
                );
            }
            file.release_records(bytes);
        }
        drop(waves);
        // Settle the partitions; a card that shares several keys names the
        // holder of the first of them, as the in-memory check does.
        let keys = FileKeys { game, file };
        let mut shared = settle_all(&mut parts, &keys, None)?;
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
            damage.integrity(),
            (parts.count(), parts.on_disk()),
        ))
    }
}

/// The records' checksums, wave after wave: the damaged runs, merged where
/// they meet, or that the file could not be checked.
#[derive(Default)]
struct Damage {
    runs: Vec<RangeInclusive<u64>>,
    unchecked: bool,
}

impl Damage {
    fn add(&mut self, found: Integrity) {
        match found {
            Integrity::Damaged(found) => {
                for run in found {
                    match self.runs.last_mut() {
                        Some(last) if *last.end() + 1 == *run.start() => {
                            *last = *last.start()..=*run.end()
                        }
                        _ => self.runs.push(run),
                    }
                }
            }
            Integrity::Unchecked => self.unchecked = true,
            Integrity::Intact => {}
        }
    }

    fn integrity(self) -> Integrity {
        if self.unchecked {
            Integrity::Unchecked
        } else if self.runs.is_empty() {
            Integrity::Intact
        } else {
            Integrity::Damaged(self.runs)
        }
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
