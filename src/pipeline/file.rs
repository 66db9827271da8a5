//! Minting a card file (`generate`), stage by stage:
//! open the output (temporary name, space checked, mapped) → load the
//! `--exclude` keys → [`super::mint`] into [`super::Written`] records (each
//! chunk sealed and written with one `pwrite`) → the table's checksum →
//! header → publish (fsync, then link or rename into place).

use super::shard::{Shard, Sharded};
use super::{exclude, mint_game, outcore, spill, MintError, Progress, Stats, Written};
use crate::cardfile::header::{table_len, today, Header, ShardMark, SourceDateEpochError, BLOCK};
use crate::cardfile::writer::{io_err, WriteError};
use crate::cardfile::{CardFile, CardWriter, FileFormat, HEADER_SIZE};
use crate::dedup::{check_memory, KeySet};
use crate::game::{Game, Spec, Text, Visit};
use crate::seed::ALGORITHM_VERSION;
use std::path::{Path, PathBuf};
use xxhash_rust::xxh3::xxh3_64;

/// What to mint and where.
pub struct Plan<'a> {
    pub spec: Spec,
    /// Records (cards or strips).
    pub count: u64,
    pub seed: u64,
    pub format: FileFormat,
    pub out: &'a Path,
    /// Replace `out` if it exists.
    pub force: bool,
    /// Files of the same game whose cards the new file must not repeat.
    pub exclude: &'a [PathBuf],
    /// Use `exclude` files whose checksums fail (`--allow-damaged`).
    pub allow_damaged: bool,
    /// The memory budget in bytes (`--memory`): a run whose key set and
    /// mapped records would take more de-duplicates out of core.
    pub memory: u64,
    /// Where an out-of-core run puts its key partitions (default: beside `out`).
    pub spill_dir: Option<&'a Path>,
    /// The first face's number (`--first-serial`): 1, or where a series
    /// run before this one stopped, plus one.
    pub first_face: u64,
    /// The shard of a stock this run mints (`--shard`): `count` and
    /// `first_face` are the shard's own ([`super::shard::Shard::part`]).
    pub shard: Option<ShardMark>,
}

impl<'a> Plan<'a> {
    /// `count` records of `spec` from `seed` into `out`, as `generate`
    /// makes them by default: the native format, an existing `out` kept,
    /// nothing excluded, the default memory budget, faces from 1.
    pub fn new(spec: Spec, count: u64, seed: u64, out: &'a Path) -> Plan<'a> {
        Plan {
            spec,
            count,
            seed,
            format: FileFormat::Native,
            out,
            force: false,
            exclude: &[],
            allow_damaged: false,
            memory: super::default_memory(),
            spill_dir: None,
            first_face: 1,
            shard: None,
        }
    }

    /// Checks the plan against the limits of the game and the file format.
    pub fn validate(&self) -> Result<(), PlanError> {
        if self.format == FileFormat::V3 && !self.spec.fits_v3() {
            return Err(PlanError::V3Game(self.spec.facts().short_name));
        }
        if self.memory < outcore::MIN_MEMORY {
            return Err(PlanError::Memory {
                least: outcore::MIN_MEMORY,
            });
        }
        if self.count == 0 {
            return Err(PlanError::NoCards);
        }
        if self.count > super::MAX_CARDS {
            return Err(PlanError::TooMany {
                most: super::MAX_CARDS,
            });
        }
        let max = crate::cardfile::header::MAX_FIRST_FACE;
        if self.first_face == 0 || self.first_face > max {
            return Err(PlanError::FirstFace { most: max });
        }
        if self.format == FileFormat::V3 && self.first_face != 1 {
            return Err(PlanError::V3FirstFace);
        }
        if self.format == FileFormat::V3 && self.count > i32::MAX as u64 {
            return Err(PlanError::V3TooMany {
                most: i32::MAX as u64,
            });
        }
        Ok(())
    }
}

/// A plan that cannot be minted as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// The v3 layout holds 75-ball cards only (the game asked, named).
    #[error("the v3 layout holds 75-ball cards only, not {0}")]
    V3Game(&'static str),
    /// The memory budget is below the least a run needs (bytes).
    #[error("a run needs at least {} MiB of memory for one wave of cards", least >> 20)]
    Memory { least: u64 },
    #[error("no cards asked for")]
    NoCards,
    #[error("at most {most} cards a file")]
    TooMany { most: u64 },
    /// The v3 layout's count is a 32-bit integer.
    #[error("the v3 layout holds at most {most} cards (its count is a 32-bit integer)")]
    V3TooMany { most: u64 },
    #[error("a first face number from 1 to {most}")]
    FirstFace { most: u64 },
    /// The v3 layout numbers its cards from 1.
    #[error("the v3 layout numbers its cards from 1 (it has no field for another first number)")]
    V3FirstFace,
}

/// What a run did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Made {
    pub stats: Stats,
    /// Cards (or strips) of the `--exclude` files.
    pub excluded: u64,
    /// For a run de-duplicated out of core: how many key partitions it
    /// used, and how many of them went to disk.
    pub partitions: Option<(usize, usize)>,
}

/// The memory an in-memory run of `cards` records of `spec` (plus
/// `excluded` records) takes: the key set and the mapped file.
pub fn in_memory_bytes(spec: Spec, cards: u64, excluded: u64) -> u64 {
    let keys = (cards + excluded) as usize * spec.keys_per_card();
    spec.key_set_bytes(keys) as u64 + cards * spec.record_size() as u64
}

/// Keys beyond which the key partitions beat the key set even in memory:
/// the set's table has long outgrown the caches, while a partition is
/// settled bucket by bucket in cache (30 M cards: 2.9–3.4 s against 4.0–4.2
/// s, a fifth of the memory; at 10 M they are even).
pub const PARTITION_KEYS: u64 = 16 << 20;

/// Whether a run of `cards` records of `spec` (plus `excluded`) settles its
/// keys in partitions ([`super::outcore`]) rather than in the key set: when
/// the set and the mapped file would not fit in `memory`, or when there are
/// more than [`PARTITION_KEYS`] keys.
pub fn partitioned(spec: Spec, cards: u64, excluded: u64, memory: u64) -> bool {
    (cards + excluded) * spec.keys_per_card() as u64 > PARTITION_KEYS
        || in_memory_bytes(spec, cards, excluded) > memory
}

/// Why minting a file failed.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    #[error(transparent)]
    Exclude(#[from] exclude::ExcludeError),
    #[error(transparent)]
    Write(#[from] WriteError),
    #[error(transparent)]
    Mint(#[from] MintError),
    #[error(transparent)]
    OutOfCore(#[from] outcore::OutOfCoreError),
    /// The game cannot be minted in shards, or not in so many.
    #[error("{0}")]
    Shard(String),
    /// The creation date asked for cannot be stored.
    #[error(transparent)]
    Date(#[from] SourceDateEpochError),
}

/// Mints `plan` on the current rayon pool and publishes the file.
pub fn generate(plan: &Plan, progress: &dyn Progress) -> Result<Made, GenerateError> {
    plan.spec.visit(Generate { plan, progress })
}

struct Generate<'a> {
    plan: &'a Plan<'a>,
    progress: &'a dyn Progress,
}

impl Visit for Generate<'_> {
    type Out = Result<Made, GenerateError>;

    fn visit<G: Text>(self, game: &G) -> Result<Made, GenerateError> {
        let Generate { plan, progress } = self;
        let Some(mark) = plan.shard else {
            return mint_file(game, plan.seed, plan, progress);
        };
        let shard = Shard::from(mark);
        let classes = game
            .classes()
            .map_err(|why| GenerateError::Shard(why.to_string()))?;
        let sharded = Sharded {
            game: G::with_spec(game.spec()).expect("the game of its own spec"),
            classes: (shard.classes(classes)).map_err(|e| GenerateError::Shard(e.to_string()))?,
        };
        mint_file(&sharded, shard.seed(plan.seed), plan, progress)
    }
}

/// Mints `plan` as `game` draws it, its streams from `seed`, and publishes
/// the file.
fn mint_file<G: Game>(
    game: &G,
    seed: u64,
    plan: &Plan,
    progress: &dyn Progress,
) -> Result<Made, GenerateError> {
    let spec = game.spec();
    let size = spec.record_size() as u64;
    let excluded = exclude::open(plan.exclude, spec, plan.allow_damaged)?;
    let excluded_cards: u64 = excluded.iter().map(|f| f.header().count).sum();
    let keys = (plan.count + excluded_cards) as usize * spec.keys_per_card();
    let in_core = !partitioned(spec, plan.count, excluded_cards, plan.memory);
    if let Some(other) = excluded.iter().find(|f| !f.header().spec.same_game(spec)) {
        if !in_core {
            return Err(exclude::ExcludeError::OutOfCore {
                path: other.path().to_string(),
                found: other.header().spec.describe(),
            }
            .into());
        }
    }
    if in_core {
        check_memory(spec.key_set_bytes(keys)).map_err(|memory| MintError::Memory {
            cards: plan.count,
            memory,
        })?;
    }
    let created = today()?;
    // The native layout seals the records in blocks; v3 keeps no checksum.
    let block = (plan.format == FileFormat::Native).then_some(BLOCK);
    let table = block.map_or(0, |block| {
        table_len(plan.count, block).expect("the count is bounded")
    });
    let front = spec.items().map_or(&[][..], |deck| deck.stored());
    let records_at = HEADER_SIZE as u64 + front.len() as u64 + table;
    let len = records_at + plan.count * size;
    let mut writer = CardWriter::create(plan.out, records_at, len, plan.force)?;
    writer.put_front(front);
    let (stats, records_checksum, partitions) = if in_core {
        in_memory(
            game,
            seed,
            plan,
            &mut writer,
            &excluded,
            keys,
            block,
            progress,
        )?
    } else {
        out_of_core(game, seed, plan, &mut writer, &excluded, block, progress)?
    };
    let header = Header {
        format: plan.format,
        spec,
        count: plan.count,
        record_size: size as u32,
        records_at: records_at as u32,
        created,
        seed: Some(plan.seed),
        algorithm: Some(ALGORITHM_VERSION),
        redrawn: Some(stats.redrawn),
        tool_version: Some(env!("CARGO_PKG_VERSION").to_string()),
        records_checksum,
        block,
        first_face: plan.first_face,
        import: None,
        shard: plan.shard,
    };
    writer.finish(&header.encode())?;
    progress.phase("published");
    Ok(Made {
        stats,
        excluded: excluded_cards,
        partitions,
    })
}

/// What a mint hands the header: its stats, the records' checksum (the
/// block table's, when sealed) and, out of core, the partitions used.
type Minted = (Stats, Option<u64>, Option<(usize, usize)>);

/// Mints `plan` with its `keys` keys in the in-memory key set.
#[allow(clippy::too_many_arguments)]
fn in_memory<G: Game>(
    game: &G,
    seed: u64,
    plan: &Plan,
    writer: &mut CardWriter,
    excluded: &[CardFile],
    keys: usize,
    block: Option<u32>,
    progress: &dyn Progress,
) -> Result<Minted, GenerateError> {
    // Tables only if keys come (`--exclude`, or two hashes meeting).
    let set = KeySet::deferred(keys);
    for file in excluded {
        exclude::claim(game, file, &set)?;
    }
    let at = writer.records_at() as u64;
    let (table, file) = writer.table_and_file();
    let sealed = block.map(|block| (&mut *table, block as usize));
    let mut store = Written::new(game, file, at, plan.count as usize, sealed);
    let stats = mint_game(game, seed, &mut store, &set, progress)?;
    store.finish().map_err(io_err("cannot write", plan.out))?;
    progress.phase("sync");
    Ok((stats, block.map(|_| xxh3_64(table)), None))
}

/// Mints `plan` with its keys in partitions ([`outcore::mint`]).
fn out_of_core<G: Game>(
    game: &G,
    seed: u64,
    plan: &Plan,
    writer: &mut CardWriter,
    excluded: &[CardFile],
    block: Option<u32>,
    progress: &dyn Progress,
) -> Result<Minted, GenerateError> {
    let dir = plan
        .spill_dir
        .map_or_else(|| spill::default_dir(plan.out), Path::to_path_buf);
    let excluded: Vec<&CardFile> = excluded.iter().collect();
    let (stats, spilled) = outcore::mint(
        game,
        seed,
        writer,
        &excluded,
        plan.memory,
        &dir,
        plan.out,
        block,
        progress,
    )?;
    progress.phase("sync");
    Ok((
        stats,
        spilled.table_checksum,
        Some((spilled.partitions, spilled.on_disk)),
    ))
}
