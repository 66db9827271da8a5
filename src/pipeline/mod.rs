//! The minting pipeline and the stages built on it, the same for every
//! game (anything [`Keyed`]: cards, strips, boards).
//!
//! Here: [`mint`] (chunk streams) and [`mint_own_streams`] (a stream per
//! card, for boards), in two steps:
//!
//! 1. [`draw_chunks`]: the slots of a [`Store`] are cut into chunks of
//!    [`CHUNK`] cards; chunk `c` draws its cards from random stream `c` of
//!    the master seed (or as its game's [`Game::drawer`] says: uk strips
//!    each from a stream of their own) and puts each in its slot; the
//!    cards' keys are then claimed in the [`KeySet`], shard by shard
//!    ([`waves`]). Both steps run in parallel on rayon's pool.
//! 2. [`repair`] (in `repair.rs`): every card that lost its key to a
//!    smaller index (a duplicate, or a card of an excluded file) is redrawn
//!    until it is new: in parallel rounds while many wait, then one by
//!    one, in index order, from the dedicated repair stream.
//!
//! Reproducibility contract: the records depend only on the game, the seed
//! and the keys loaded before the run, never on the thread count or on
//! timing, because chunk streams are fixed by chunk index (a card's own
//! stream by its number) and every duplicate is settled by index (see
//! [`crate::dedup`]).
//!
//! Beside it: [`store`] (where cards go: a card file's records, or values),
//! [`waves`] (claiming keys in bulk), and the stages commands call:
//! [`mod@file`] (mint a card file), [`exclude`] (the keys of other files),
//! [`verify`] (check a whole file). Progress goes to a [`Progress`].

pub mod across;
pub mod distinct;
pub mod exclude;
pub mod file;
pub mod outcore;
mod repair;
pub mod settle;
pub mod shard;
pub mod spill;
mod spill_waves;
pub mod store;
pub mod verify;
pub mod waves;

use crate::dedup::{KeySet, Keyed, OutOfMemory};
use crate::game::Game;
use crate::seed::Rng;
use distinct::{ChunkHashes, Hashes};
use rayon::prelude::*;
use repair::candidate_round;
pub use repair::{repair, Frozen, InSet};
use spill::hash_key;
pub use store::{Part, Records, Store, Written};
pub use waves::{claim_in_waves, wave_chunks, KeySink};

/// How a long stage reports progress, from any thread. The library draws
/// nothing itself: a command passes its progress bar, a test `&|_| {}`
/// (any `Fn(u64)` is a `Progress` that only counts).
pub trait Progress: Sync {
    /// `n` more cards are done.
    fn advance(&self, n: u64);
    /// The stage moved on to `what` (`checksum and sync`).
    fn phase(&self, what: &str) {
        let _ = what;
    }
}

impl<F: Fn(u64) + Sync> Progress for F {
    fn advance(&self, n: u64) {
        self(n)
    }
}

/// Cards per chunk. Part of the algorithm: changing it changes the cards a
/// seed gives (see [`crate::seed::ALGORITHM_VERSION`]).
pub const CHUNK: usize = 1 << 16;

/// Cards per chunk of [`mint_own_streams`]: any size gives the same cards
/// there, and a board takes ~2 µs, so a chunk of 4,096 is ~8 ms of work:
/// the last one to finish keeps the other core waiting little.
const OWN_CHUNK: usize = 1 << 12;

/// Draws a repair candidate at most this many times for one card before
/// giving up: only a game whose cards are nearly all taken gets there.
const MAX_REPAIR_DRAWS: u64 = 1 << 20;

/// Most cards (or strips) in one file. Card indices are 32-bit, and the
/// parallel repair labels its candidates `MAX_CARDS + 1 + index`.
pub const MAX_CARDS: u64 = (1 << 31) - 2;

/// While more cards than this wait for repair, they are redrawn in parallel
/// rounds; the rest one after another.
const PARALLEL_REPAIR: usize = 4096;

/// The default memory budget (`--memory`): a third of the memory available
/// now (Linux's MemAvailable; 8 GiB where it cannot be read), leaving the
/// rest to the page cache that carries the output to disk. At least
/// [`outcore::MIN_MEMORY`].
pub fn default_memory() -> u64 {
    budget_of(crate::dedup::available_memory())
}

/// The memory assumed available where the system does not say.
const ASSUMED_AVAILABLE: u64 = 8 << 30;

/// [`default_memory`] for `available` bytes (None: not known).
fn budget_of(available: Option<u64>) -> u64 {
    (available.unwrap_or(ASSUMED_AVAILABLE) / 3).max(outcore::MIN_MEMORY)
}

/// Runs `work` on a rayon pool of `threads` threads (every core when None),
/// so a run's parallel stages use exactly that many.
pub fn in_pool<T: Send>(
    threads: Option<usize>,
    work: impl FnOnce() -> T + Send,
) -> Result<T, rayon::ThreadPoolBuildError> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        builder = builder.num_threads(n);
    }
    Ok(builder.build()?.install(work))
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Cards written.
    pub cards: u64,
    /// Cards that lost against a duplicate (or an excluded card) and were redrawn.
    pub redrawn: u64,
    /// Every card drawn, first draws and repair draws.
    pub draws: u64,
}

/// Why minting stopped.
#[derive(Debug, thiserror::Error)]
pub enum MintError {
    /// The game has too few distinct cards left for the request.
    #[error(
        "card {index}: no new card found in {MAX_REPAIR_DRAWS} draws; \
         the game has too few distinct cards left"
    )]
    KeySpaceExhausted { index: u64 },
    /// Cards with streams of their own (boards) stopped finding new
    /// draws: `made` were made, and the last [`MAX_ATTEMPTS`] draws in a
    /// row repeated one of them.
    #[error(
        "only {} found: the last {MAX_ATTEMPTS} draws in a row repeated them (board {number} \
         was still waiting); the set has too few distinct boards at this size",
        crate::text::count_of(*made, "distinct board")
    )]
    OwnStreamsExhausted { number: u64, made: u64 },
    /// The request does not fit the set's 32-bit card indices.
    #[error("too many cards: at most {MAX_CARDS} per file")]
    TooMany,
    /// The key set for `cards` cards would not fit in memory.
    #[error("{cards} cards: the key set {memory}")]
    Memory { cards: u64, memory: OutOfMemory },
    /// Writing or reading back the key partitions of an out-of-core run failed.
    #[error(transparent)]
    Spill(#[from] crate::cardfile::writer::WriteError),
}

/// Fills `store` with unique cards: chunk c's first draws from
/// `drawer(c)` (for most games [`crate::seed::chunk_stream`]: one card after another
/// from stream c of `seed`), repairs by `draw` from `seed`'s repair
/// streams; `set` may already hold excluded keys.
pub fn mint<K: Keyed, S: Store<K::Card>, D: FnMut(u32) -> K::Card>(
    keyed: &K,
    draw: impl Fn(&mut Rng) -> K::Card + Sync,
    drawer: impl Fn(usize) -> D + Sync,
    seed: u64,
    store: &mut S,
    set: &KeySet<K::Key>,
    progress: &dyn Progress,
) -> Result<Stats, MintError> {
    let count = store.len();
    if count as u64 > MAX_CARDS {
        return Err(MintError::TooMany);
    }
    let losers = draw_unique(keyed, store, set, progress, CHUNK, drawer);
    let (redrawn, repair_draws) = repair(keyed, &draw, seed, store, set, &mut InSet, losers)?;
    Ok(Stats {
        cards: count as u64,
        redrawn,
        draws: count as u64 + repair_draws,
    })
}

/// [`mint`] for a card-file game: first draws by its [`Game::drawer`],
/// repairs by [`Game::draw`].
pub fn mint_game<G: Game, S: Store<G::Card>>(
    game: &G,
    seed: u64,
    store: &mut S,
    set: &KeySet<G::Key>,
    progress: &dyn Progress,
) -> Result<Stats, MintError> {
    mint(
        game,
        |rng| game.draw(rng),
        |chunk| game.drawer(seed, chunk),
        seed,
        store,
        set,
        progress,
    )
}

/// [`mint_game`] straight into `records` (a whole number of the game's
/// records).
pub fn mint_records<G: Game>(
    game: &G,
    seed: u64,
    records: &mut [u8],
    set: &KeySet<G::Key>,
    progress: &dyn Progress,
) -> Result<Stats, MintError> {
    mint_game(game, seed, &mut Records::new(game, records), set, progress)
}

/// Stage 1 as [`draw_chunks`] (chunks of `size` cards), without the key
/// set while it holds nothing (no `--exclude` keys): each chunk keeps only
/// its keys' hashes, and when they are all distinct
/// ([`distinct::distinct`]) no card lost and the set stays empty. When two hashes meet (a repeated card, or a coincidence of
/// 64-bit hashes) the chunks are drawn again, the same cards from the same
/// streams, claiming their keys in `set`. The losers are [`draw_chunks`]'s
/// either way, so the cards a seed gives do not change.
pub fn draw_unique<K: Keyed, S: Store<K::Card>, D: FnMut(u32) -> K::Card>(
    keyed: &K,
    store: &mut S,
    set: &KeySet<K::Key>,
    progress: &dyn Progress,
    size: usize,
    drawer: impl Fn(usize) -> D + Sync,
) -> Vec<u32> {
    if !set.is_empty() {
        return draw_chunks(keyed, store, set, progress, size, drawer);
    }
    let per_card = keyed.keys_per_card();
    let bits = Hashes::bits_for(store.len() * per_card);
    let mut parts = store.parts(size);
    // Each chunk a task of its own: left to split as it likes, rayon ran a
    // few chunks in a row as one task, and one core could sit idle while the
    // other finished them (50-150 ms of 1 M boards).
    let chunks = parts
        .par_iter_mut()
        .with_max_len(1)
        .enumerate()
        .map_init(Vec::new, |hashes, (chunk, part)| {
            let mut draw = drawer(chunk);
            let first = chunk * size + 1;
            hashes.clear();
            for j in 0..part.len() {
                let card = draw((first + j) as u32);
                hashes.extend(keyed.keys(&card).as_ref().iter().map(hash_key));
                part.put(j, card);
            }
            part.done();
            progress.advance(part.len() as u64);
            ChunkHashes::new(bits, hashes)
        })
        .collect();
    drop(parts);
    if distinct::distinct(&Hashes { bits, chunks }) {
        return Vec::new();
    }
    progress.phase("two keys share a hash: drawing again, claiming keys");
    draw_chunks(keyed, store, set, &|_| {}, size, drawer)
}

/// Stage 1: draws every chunk (`size` cards) in parallel, putting each card
/// into its slot, and claims the keys. Chunk c's cards come from
/// `drawer(c)`, called with each card's index (1-based). Returns the
/// indices of the cards that lost a key to a smaller index, unsorted,
/// possibly repeated.
pub fn draw_chunks<K: Keyed, S: Store<K::Card>, D: FnMut(u32) -> K::Card>(
    keyed: &K,
    store: &mut S,
    set: &KeySet<K::Key>,
    progress: &dyn Progress,
    size: usize,
    drawer: impl Fn(usize) -> D + Sync,
) -> Vec<u32> {
    let mut parts = store.parts(size);
    let wave = wave_chunks(keyed.keys_per_card(), size);
    claim_in_waves(&mut parts, set, wave, |chunk, part, keys| {
        let mut draw = drawer(chunk);
        let first = chunk * size + 1;
        for j in 0..part.len() {
            let index = (first + j) as u32;
            let card = draw(index);
            keys.push_all(keyed.keys(&card).as_ref(), index);
            part.put(j, card);
        }
        part.done();
        progress.advance(part.len() as u64);
    })
}

/// Most draws of one card in [`mint_own_streams`] (first draw included).
pub const MAX_ATTEMPTS: u32 = 1 << 16;

/// Like [`mint`], but every card has streams of its own: card number n
/// (`first` for the first slot) draws attempt a with `draw(n, a)`, which
/// should draw from [`own_stream`]`(seed, n, a)`, so any one card can be drawn
/// again from (seed, n, a) alone. Used for objective boards, where a shared
/// seed string names one board. Duplicates are settled as in [`mint`]: the
/// smaller index keeps its card; losers redraw with the next attempt, in
/// parallel rounds.
pub fn mint_own_streams<K: Keyed, S: Store<K::Card>>(
    keyed: &K,
    first: u64,
    store: &mut S,
    set: &KeySet<K::Key>,
    progress: &dyn Progress,
    draw: impl Fn(u64, u32) -> K::Card + Sync,
) -> Result<Stats, MintError> {
    let count = store.len();
    if count as u64 > MAX_CARDS || first + count as u64 >= 1 << 40 {
        return Err(MintError::TooMany);
    }
    let number = |index: u32| first + u64::from(index) - 1;
    let mut losers = draw_unique(keyed, store, set, progress, OWN_CHUNK, |_| {
        let draw = &draw;
        move |index: u32| draw(number(index), 0)
    });
    losers.sort_unstable();
    losers.dedup();
    let redrawn = losers.len() as u64;
    let mut draws = count as u64;
    let mut attempt = 1;
    // Draws in a row that found no new card: past MAX_ATTEMPTS the space is
    // taken to be used up, whether one card or many are still waiting (a
    // set with two boards and --count 1000 stops in 66 rounds, not 65,536).
    let mut fruitless = 0u64;
    while let Some(&index) = losers.first() {
        if attempt == MAX_ATTEMPTS || fruitless >= u64::from(MAX_ATTEMPTS) {
            return Err(MintError::OwnStreamsExhausted {
                number: number(index),
                made: (count - losers.len()) as u64,
            });
        }
        let waiting = losers.len();
        draws += waiting as u64;
        losers = candidate_round(keyed, store, set, &mut InSet, &losers, |i| {
            draw(number(i), attempt)
        })?;
        fruitless = if losers.len() < waiting {
            0
        } else {
            fruitless + waiting as u64
        };
        attempt += 1;
    }
    Ok(Stats {
        cards: count as u64,
        redrawn,
        draws,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_budget_is_a_third_of_what_is_available_or_of_8_gib() {
        assert_eq!(budget_of(Some(24 << 30)), 8 << 30);
        assert_eq!(budget_of(None), (8 << 30) / 3);
        assert_eq!(budget_of(Some(1 << 20)), outcore::MIN_MEMORY);
    }
    use rand_core::RngCore;

    /// A toy game whose cards are the numbers below its size, so duplicates
    /// are as common as a test needs.
    struct Toy(u32);

    /// Only 1,000 distinct cards.
    const TINY: Toy = Toy(1000);

    impl Keyed for Toy {
        type Card = u32;
        type Key = u32;
        type Keys = [u32; 1];
        fn keys(&self, card: &u32) -> [u32; 1] {
            [*card]
        }
        fn keys_per_card(&self) -> usize {
            1
        }
    }

    impl Toy {
        fn mint(
            &self,
            seed: u64,
            cards: &mut Vec<u32>,
            set: &KeySet<u32>,
        ) -> Result<Stats, MintError> {
            let draw = |rng: &mut Rng| rng.next_u32() % self.0;
            mint(
                self,
                draw,
                |chunk| crate::seed::chunk_stream(seed, chunk, draw),
                seed,
                cards,
                set,
                &|_| {},
            )
        }
    }

    #[test]
    fn parallel_repair_rounds_are_deterministic_and_unique() {
        // 300,000 of 1,048,576 cards: ~40,000 first-draw duplicates, so the
        // repair runs parallel rounds, then the sequential tail.
        let run = |threads: usize| {
            in_pool(Some(threads), || {
                let count = 300_000;
                let set = KeySet::with_capacity(count);
                let mut records = vec![0u32; count];
                let stats = Toy(1 << 20).mint(5, &mut records, &set).unwrap();
                (records, stats)
            })
            .unwrap()
        };
        let (records, stats) = run(1);
        assert!(stats.redrawn > PARALLEL_REPAIR as u64, "{stats:?}");
        let mut cards = cards(&records);
        cards.sort_unstable();
        cards.dedup();
        assert_eq!(cards.len(), 300_000);
        for threads in [2, 3] {
            assert!(
                run(threads) == (records.clone(), stats),
                "--threads {threads} differs"
            );
        }
    }

    fn run(threads: usize, count: usize, excluded: &[u32]) -> (Vec<u32>, Stats) {
        run_in(threads, count, excluded, KeySet::deferred)
    }

    /// A run with its key set made by `set_for` (deferred, as `generate`
    /// makes it, or sized up front).
    fn run_in(
        threads: usize,
        count: usize,
        excluded: &[u32],
        set_for: fn(usize) -> KeySet<u32>,
    ) -> (Vec<u32>, Stats) {
        in_pool(Some(threads), || {
            let set = set_for(count + excluded.len());
            for &k in excluded {
                set.claim(k, crate::dedup::EXCLUDED);
            }
            let mut records = vec![0u32; count];
            let stats = TINY.mint(9, &mut records, &set).unwrap();
            (records, stats)
        })
        .unwrap()
    }

    fn cards(records: &[u32]) -> Vec<u32> {
        records.to_vec()
    }

    #[test]
    fn duplicates_are_redrawn_until_unique() {
        let (records, stats) = run(2, 900, &[]);
        let mut all = cards(&records);
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 900);
        assert!(stats.redrawn > 100, "{stats:?}");
        assert!(stats.draws > 900 + stats.redrawn);
    }

    #[test]
    fn output_is_identical_for_every_thread_count() {
        // Two chunks' worth would need 2×CHUNK cards; the toy game has only
        // 1,000, so this checks the repair order; the CLI tests cover chunks.
        let one = run(1, 700, &[]);
        for threads in [2, 3, 8] {
            assert_eq!(run(threads, 700, &[]), one);
        }
        // A set whose tables are made when the first keys come (here: when
        // two hashes meet) gives the cards a set sized up front gives.
        assert_eq!(run_in(2, 700, &[], KeySet::with_capacity), one);
        let excluded: Vec<u32> = (0..300).collect();
        assert_eq!(
            run_in(2, 500, &excluded, KeySet::with_capacity),
            run(2, 500, &excluded)
        );
    }

    #[test]
    fn excluded_keys_are_never_drawn() {
        let excluded: Vec<u32> = (0..500).collect();
        let (records, stats) = run(2, 400, &excluded);
        assert!(cards(&records).iter().all(|&c| c >= 500));
        assert!(stats.redrawn > 0);
    }

    #[test]
    fn an_exhausted_game_is_an_error_not_a_hang() {
        let set = KeySet::with_capacity(1001);
        let mut records = vec![0u32; 1001];
        let err = TINY.mint(1, &mut records, &set).unwrap_err();
        assert!(matches!(err, MintError::KeySpaceExhausted { .. }));
    }
}
