//! Minting and verifying with the keys in partitions: for runs whose key set
//! would not fit in the memory budget (`--memory`), or would outgrow the
//! caches (more than 16 M keys). The keys go to partitions
//! ([`super::spill`], in memory or on disk) instead of the in-memory set;
//! the records are drawn, sealed and written wave by wave, each wave copied
//! into the file by a writer thread while the next is drawn. The cards are the same,
//! byte for byte, as an in-memory run's: chunk c is drawn from stream c, the
//! losers are the cards that share a key with a smaller id, and they are
//! repaired by [`super::repair`] against the same keys.

use super::settle::{FrozenKeys, KeysOf};
use super::spill::{partitions_for, Entry, Partitions, ENTRY_BYTES, ENTRY_MEMORY};
use super::spill_waves::{settle_all, SpillWaves};
use super::{repair, MintError, Progress, Stats, Written, CHUNK};
use crate::cardfile::reader::seal_blocks;
use crate::cardfile::writer::{io_err, write_out, CardWriter, WriteError};
use crate::cardfile::CardFile;
use crate::dedup::KeySet;
use crate::game::{Game, RuleViolation};
use rayon::prelude::*;
use std::collections::HashMap;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::Path;
use xxhash_rust::xxh3::xxh3_64;

/// The least `--memory` a run accepts: a wave of one chunk of the largest
/// records, with its keys, and a partition to sort.
pub const MIN_MEMORY: u64 = 32 << 20;

/// How an out-of-core run uses its budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    /// Key partitions.
    pub partitions: usize,
    /// How many of them stay in memory (the rest go to disk).
    pub in_memory: usize,
    /// Chunks drawn (or read) per wave.
    pub wave: usize,
}

/// The most memory one partition takes while it is settled (8 M entries).
const PARTITION_BYTES: u64 = (8 << 20) * ENTRY_MEMORY as u64;

/// Memory set aside for everything a run holds besides its waves, keys and
/// block table (threads' stacks, small buffers).
const SLACK: u64 = 24 << 20;

impl Layout {
    /// The layout for `entries` keys of records of `size` bytes with `keys`
    /// keys each, within `memory` bytes, `fixed` of them taken already (the
    /// block table). A partition being settled takes at most half the budget;
    /// the partitions the rest allows stay in memory.
    pub fn new(memory: u64, entries: u64, size: usize, keys: usize, fixed: u64) -> Layout {
        // Small partitions even when memory allows large ones: a partition
        // being settled takes memory of its own.
        let partitions = partitions_for(entries, (memory / 2).min(PARTITION_BYTES));
        let per_partition = entries.div_ceil(partitions as u64);
        let wave = wave_chunks(memory, size, keys);
        let wave_bytes = (wave * CHUNK * (size + keys * 2 * std::mem::size_of::<Entry>())) as u64;
        let workspace = per_partition * ENTRY_MEMORY as u64;
        let allowance = memory.saturating_sub(workspace.max(wave_bytes) + fixed + SLACK);
        let in_memory =
            (allowance / (per_partition * ENTRY_BYTES as u64).max(1)).min(partitions as u64);
        Layout {
            partitions,
            in_memory: in_memory as usize,
            wave,
        }
    }

    /// Creates the partitions, after checking that those bound for disk fit
    /// in `dir`.
    pub fn create(
        &self,
        entries: u64,
        dir: &Path,
        out: &Path,
    ) -> Result<Partitions, OutOfCoreError> {
        let on_disk = (self.partitions - self.in_memory) as u64;
        let need = entries.div_ceil(self.partitions as u64) * on_disk * ENTRY_BYTES as u64;
        if let Some(free) = free_space(dir) {
            if need > free {
                return Err(OutOfCoreError::Space {
                    need,
                    free,
                    dir: dir.display().to_string(),
                });
            }
        }
        Ok(Partitions::create(
            dir,
            out,
            self.partitions,
            self.in_memory,
        )?)
    }
}

/// Bytes free for this user in the filesystem holding `dir` (None: unknown).
fn free_space(dir: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    // SAFETY: statvfs writes into the zeroed struct we own; the path is a
    // valid NUL-terminated string.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    let rc = unsafe { libc::statvfs(path.as_ptr(), &mut stat) };
    (rc == 0).then(|| stat.f_bavail as u64 * stat.f_frsize as u64)
}

/// Chunks per wave for records of `size` bytes with `keys` keys each, so a
/// wave's records and key buffers take about an eighth of `memory`.
fn wave_chunks(memory: u64, size: usize, keys: usize) -> usize {
    let per_chunk = (CHUNK * (size + keys * 2 * std::mem::size_of::<Entry>())) as u64;
    ((memory / 8 / per_chunk) as usize).clamp(1, 32)
}

/// Where the exact keys of an id come from during an out-of-core run: the
/// card file being written (read with `pread`, so the records can be
/// rewritten meanwhile), the `--exclude` files, and the first draws of the
/// cards being repaired, kept aside.
struct Sources<'a, G: Game> {
    game: &'a G,
    file: &'a File,
    records_at: u64,
    count: u32,
    excluded: &'a [(G, &'a CardFile)],
    /// The losers' first draws (a repaired card's record holds its new card).
    first_draws: HashMap<u32, Vec<G::Key>>,
}

impl<G: Game> KeysOf<G::Key> for Sources<'_, G> {
    fn keys_of(&self, id: u32) -> Vec<G::Key> {
        if let Some(keys) = self.first_draws.get(&id) {
            return keys.clone();
        }
        let size = self.game.spec().record_size();
        let (game, record) = if id <= self.count {
            let mut record = vec![0u8; size];
            let at = self.records_at + u64::from(id - 1) * size as u64;
            // A record written by this run: reading it back cannot fail
            // short of a disk error, which the final sync reports.
            if self.file.read_exact_at(&mut record, at).is_err() {
                return Vec::new();
            }
            (self.game, record)
        } else {
            let mut n = u64::from(id - self.count);
            let mut found = None;
            for (game, file) in self.excluded {
                let held = file.header().count;
                if n <= held {
                    found = Some((game, file.record(n).expect("in range").to_vec()));
                    break;
                }
                n -= held;
            }
            found.expect("an excluded id is within the excluded files")
        };
        match game.decode(&record) {
            Ok(card) => game.keys(&card).as_ref().to_vec(),
            Err(_) => Vec::new(),
        }
    }

    fn rank(&self, id: u32) -> u32 {
        if id > self.count {
            0
        } else {
            id
        }
    }
}

/// Why an out-of-core step failed.
#[derive(Debug, thiserror::Error)]
pub enum OutOfCoreError {
    #[error(transparent)]
    Write(#[from] WriteError),
    #[error(transparent)]
    Mint(#[from] MintError),
    /// The partitions bound for disk (`need` bytes) would not fit in `dir`
    /// (`free` bytes).
    #[error(
        "the key partitions need about {:.1} GB in '{dir}', which has {:.1} GB free",
        *need as f64 / 1e9,
        *free as f64 / 1e9
    )]
    Space { need: u64, free: u64, dir: String },
    /// A record of an excluded file breaks its game's rules.
    #[error("'{path}': card {card} is not valid: {why}")]
    Invalid {
        path: String,
        card: u64,
        why: RuleViolation,
    },
}

/// What an out-of-core mint did, besides its stats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spilled {
    /// Partitions the keys went to.
    pub partitions: usize,
    /// How many of them were kept on disk.
    pub on_disk: usize,
    /// The block table's checksum (the header's records checksum), when sealed.
    pub table_checksum: Option<u64>,
}

/// Mints `writer`'s records out of core: see the module text. `excluded`
/// are the `--exclude` files; `dir` holds the partition files; `out` names
/// them. Seals the blocks (of `block` records) as it goes when `block` is
/// given.
#[allow(clippy::too_many_arguments)]
pub fn mint<G: Game>(
    game: &G,
    seed: u64,
    writer: &mut CardWriter,
    excluded: &[&CardFile],
    memory: u64,
    dir: &Path,
    out: &Path,
    block: Option<u32>,
    progress: &dyn Progress,
) -> Result<(Stats, Spilled), OutOfCoreError> {
    let size = game.spec().record_size();
    let per_card = game.keys_per_card();
    let count = writer.records().len() / size;
    let excluded_count: u64 = excluded.iter().map(|f| f.header().count).sum();
    if count as u64 + excluded_count >= u64::from(u32::MAX) {
        return Err(MintError::TooMany.into());
    }
    let entries = (count as u64 + excluded_count) * per_card as u64;
    let table = block.map_or(0, |b| count.div_ceil(b as usize) as u64 * 8);
    let layout = Layout::new(memory, entries, size, per_card, table);
    let excluded: Vec<(G, &CardFile)> = excluded
        .iter()
        .map(|f| (G::with_spec(f.header().spec).expect("same game"), *f))
        .collect();
    let mut run = Run {
        game,
        seed,
        count,
        out,
        block,
        progress,
        parts: layout.create(entries, dir, out)?,
    };
    // The wave's key buffers live while keys come in, not while they settle.
    let mut waves = SpillWaves::new(layout.wave);
    run.claim_excluded(&excluded, &mut waves)?;
    progress.phase("drawing");
    run.draw(writer, &mut waves)?;
    drop(waves);
    let file = writer
        .file()
        .try_clone()
        .map_err(io_err("cannot read back", out))?;
    let mut sources = Sources {
        game,
        file: &file,
        records_at: writer.records_at() as u64,
        count: count as u32,
        excluded: &excluded,
        first_draws: HashMap::new(),
    };
    let losers = run.losers(&sources)?;
    let (redrawn, repair_draws) = run.repair(writer, &mut sources, losers)?;
    let table_checksum = block.map(|_| xxh3_64(writer.table_and_file().0));
    Ok((
        Stats {
            cards: count as u64,
            redrawn,
            draws: count as u64 + repair_draws,
        },
        Spilled {
            partitions: run.parts.count(),
            on_disk: run.parts.on_disk(),
            table_checksum,
        },
    ))
}

/// One out-of-core mint, its stages in the order [`mint`] runs them.
struct Run<'a, G: Game> {
    game: &'a G,
    seed: u64,
    /// Cards to mint.
    count: usize,
    out: &'a Path,
    block: Option<u32>,
    progress: &'a dyn Progress,
    parts: Partitions,
}

impl<G: Game> Run<'_, G> {
    /// The keys of the `--exclude` files, ids from `count + 1` on, file
    /// after file; a record that breaks its game's rules stops the run.
    fn claim_excluded(
        &mut self,
        excluded: &[(G, &CardFile)],
        waves: &mut SpillWaves,
    ) -> Result<(), OutOfCoreError> {
        let mut first_id = self.count as u64 + 1;
        for (game, file) in excluded {
            let n = file.header().count as usize;
            for chunks in waves.ranges(n) {
                let wave_first = (first_id + (chunks.start * CHUNK) as u64) as u32;
                let found = waves.wave(
                    &mut self.parts,
                    chunks.start,
                    wave_first,
                    chunks.clone().into_par_iter(),
                    |c, _, batch| {
                        for j in c * CHUNK..((c + 1) * CHUNK).min(n) {
                            let number = j as u64 + 1;
                            let record = file.record(number).expect("in range");
                            match game.decode(record) {
                                Ok(card) => {
                                    for key in game.keys(&card).as_ref() {
                                        batch.push(key, (first_id + j as u64) as u32);
                                    }
                                }
                                Err(why) => return Some((number, why)),
                            }
                        }
                        None
                    },
                )?;
                if let Some((card, why)) = found.into_iter().flatten().next() {
                    return Err(OutOfCoreError::Invalid {
                        path: file.path().to_string(),
                        card,
                        why,
                    });
                }
                let size = game.spec().record_size();
                file.release_records(
                    chunks.start * CHUNK * size..(chunks.end * CHUNK).min(n) * size,
                );
            }
            first_id += n as u64;
        }
        Ok(())
    }

    /// Draws every chunk into a wave buffer, wave by wave: keys to the
    /// partitions, blocks sealed; a writer thread copies each finished wave
    /// into the file with one `pwrite` and starts its writeback while the
    /// next wave is drawn (two buffers take turns).
    fn draw(
        &mut self,
        writer: &mut CardWriter,
        waves: &mut SpillWaves,
    ) -> Result<(), OutOfCoreError> {
        let (game, seed, count, progress) = (self.game, self.seed, self.count, self.progress);
        let size = game.spec().record_size();
        let span = self.block.map_or(0, |b| b as usize * size);
        let records_at = writer.records_at() as u64;
        let output = writer
            .file()
            .try_clone()
            .map_err(io_err("cannot write", self.out))?;
        std::thread::scope(|scope| -> Result<(), OutOfCoreError> {
            let (to_writer, filled) = std::sync::mpsc::sync_channel::<(Vec<u8>, u64)>(1);
            let (give_back, buffers) = std::sync::mpsc::channel::<Vec<u8>>();
            for _ in 0..2 {
                give_back.send(Vec::new()).expect("the receiver is here");
            }
            let writing = scope.spawn(move || -> std::io::Result<()> {
                for (buffer, at) in filled {
                    write_out(&output, &buffer, at)?;
                    if give_back.send(buffer).is_err() {
                        break;
                    }
                }
                Ok(())
            });
            for chunks in waves.ranges(count) {
                let bytes = chunks.start * CHUNK * size..(chunks.end * CHUNK).min(count) * size;
                // None: the writer stopped, and says why below.
                let Ok(mut records) = buffers.recv() else {
                    break;
                };
                records.clear();
                records.resize(bytes.len(), 0);
                waves.wave(
                    &mut self.parts,
                    chunks.start,
                    (chunks.start * CHUNK + 1) as u32,
                    records.par_chunks_mut(CHUNK * size),
                    |chunk, records, batch| {
                        let mut draw = game.drawer(seed, chunk);
                        for (k, record) in records.chunks_exact_mut(size).enumerate() {
                            let id = (chunk * CHUNK + k + 1) as u32;
                            let card = draw(id);
                            for key in game.keys(&card).as_ref() {
                                batch.push(key, id);
                            }
                            game.encode(&card, record);
                        }
                        progress.advance((records.len() / size) as u64);
                    },
                )?;
                if let Some(block) = self.block {
                    let (table, _) = writer.table_and_file();
                    let first_block = chunks.start * CHUNK / block as usize;
                    seal_blocks(&records, span, &mut table[first_block * 8..]);
                }
                if to_writer
                    .send((records, records_at + bytes.start as u64))
                    .is_err()
                {
                    break;
                }
            }
            drop(to_writer);
            writing
                .join()
                .expect("the writer thread does not panic")
                .map_err(io_err("cannot write", self.out))?;
            Ok(())
        })
    }

    /// Settles the partitions: the minted cards that lost a key, ascending.
    fn losers(&mut self, sources: &Sources<G>) -> Result<Vec<u32>, OutOfCoreError> {
        let shared = settle_all(&mut self.parts, sources, Some(self.progress))?;
        let mut losers: Vec<u32> = shared
            .into_iter()
            .map(|s| s.loser)
            .filter(|&id| id as usize <= self.count)
            .collect();
        losers.sort_unstable();
        losers.dedup();
        Ok(losers)
    }

    /// Redraws the losers against the partitions and the keys they add,
    /// each repaired record written on its own and its block sealed again.
    /// Returns (cards redrawn, draws taken).
    fn repair(
        &mut self,
        writer: &mut CardWriter,
        sources: &mut Sources<G>,
        losers: Vec<u32>,
    ) -> Result<(u64, u64), OutOfCoreError> {
        if losers.is_empty() {
            return Ok((0, 0));
        }
        let game = self.game;
        self.progress.phase("redrawing duplicates");
        sources.first_draws = losers
            .par_iter()
            .map(|&id| (id, sources.keys_of(id)))
            .collect();
        let overlay = KeySet::with_capacity(losers.len() * game.keys_per_card() * 2);
        let mut frozen = FrozenKeys::new(&self.parts, &*sources);
        let records_at = writer.records_at() as u64;
        let (table, file) = writer.table_and_file();
        let sealed = self.block.map(|block| (table, block as usize));
        let mut store = Written::new(game, file, records_at, self.count, sealed);
        let found = repair(
            game,
            &|rng| game.draw(rng),
            self.seed,
            &mut store,
            &overlay,
            &mut frozen,
            losers,
        )?;
        store.finish().map_err(io_err("cannot write", self.out))?;
        Ok(found)
    }
}
