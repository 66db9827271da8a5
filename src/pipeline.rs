//! The minting pipeline, the same for every game:
//!
//! 1. [`draw_chunks`]: the records are cut into chunks of [`CHUNK`] cards;
//!    chunk `c` draws its cards from random stream `c` of the master seed and
//!    encodes each straight into its record; the cards' keys are then claimed
//!    in the [`KeySet`], shard by shard. Both steps run in parallel on rayon's
//!    pool.
//! 2. [`repair`]: every card that lost its key to a smaller index (a
//!    duplicate, or a card of an `--exclude` file) is redrawn until it is
//!    new: in parallel rounds while many wait, then one by one, in index
//!    order, from the dedicated repair stream.
//!
//! Reproducibility contract: the records depend only on the game, the seed
//! and the keys loaded before the run, never on the thread count or on
//! timing, because chunk streams are fixed by chunk index and every duplicate
//! is settled by index (see [`crate::dedup`]).

use crate::dedup::{KeySet, Pending};
use crate::game::Game;
use crate::seed::{stream, REPAIR_STREAM};
use indicatif::ProgressBar;
use rayon::prelude::*;

/// Cards per chunk. Part of the algorithm: changing it changes the cards a
/// seed gives (see [`crate::seed::ALGORITHM_VERSION`]).
pub const CHUNK: usize = 1 << 16;

/// Draws a repair candidate at most this many times for one card before
/// giving up: only a game whose cards are nearly all taken gets there.
const MAX_REPAIR_DRAWS: u64 = 1 << 20;

/// Most cards (or strips) in one file. Card indices are 32-bit, and the
/// parallel repair labels its candidates `MAX_CARDS + 1 + index`.
pub const MAX_CARDS: u64 = (1 << 31) - 2;

/// While more cards than this wait for repair, they are redrawn in parallel
/// rounds; the rest one after another.
const PARALLEL_REPAIR: usize = 4096;

/// Stream ids of the parallel repair: round r, card i draws from stream
/// `ROUND_STREAMS + (r << 32) + i`.
const ROUND_STREAMS: u64 = 1 << 62;

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
         the game has too few distinct cards left for --count (lower it or drop an --exclude file)"
    )]
    KeySpaceExhausted { index: u64 },
    /// The request does not fit the set's 32-bit card indices.
    #[error("too many cards: at most {MAX_CARDS} per file")]
    TooMany,
}

/// Fills `records` (a whole number of records) with unique cards of `game`
/// drawn from `seed`; `set` may already hold excluded keys.
pub fn mint<G: Game>(
    game: &G,
    seed: u64,
    records: &mut [u8],
    set: &KeySet<G::Key>,
    progress: &ProgressBar,
) -> Result<Stats, MintError> {
    let count = records.len() / game.record_size();
    if count as u64 > MAX_CARDS {
        return Err(MintError::TooMany);
    }
    // Chunk c's cards come one after another from stream c.
    let losers = draw_chunks(game, records, set, progress, |chunk| {
        let mut rng = stream(seed, chunk as u64);
        move |_| game.draw(&mut rng)
    });
    let (redrawn, repair_draws) = repair(game, seed, records, set, losers)?;
    Ok(Stats {
        cards: count as u64,
        redrawn,
        draws: count as u64 + repair_draws,
    })
}

/// Keys gathered before they are claimed together: a wave of chunks. Any
/// size gives the same cards; this one keeps the key buffers near 50 MB.
const WAVE_KEYS: usize = 16 * CHUNK;

/// Chunks per wave for a game with `keys_per_card` keys per card.
pub fn wave_chunks(keys_per_card: usize) -> usize {
    (WAVE_KEYS / CHUNK / keys_per_card.max(1)).max(1)
}

/// Stage 1: draws every chunk in parallel, encoding each card into its record,
/// and claims the keys. Chunk c's cards come from `drawer(c)`, called with
/// each card's index (1-based). Returns the indices of the cards that lost a
/// key to a smaller index, unsorted, possibly repeated.
pub fn draw_chunks<G: Game, D: FnMut(u32) -> G::Card>(
    game: &G,
    records: &mut [u8],
    set: &KeySet<G::Key>,
    progress: &ProgressBar,
    drawer: impl Fn(usize) -> D + Sync,
) -> Vec<u32> {
    let size = game.record_size();
    let mut chunks: Vec<&mut [u8]> = records.chunks_mut(CHUNK * size).collect();
    let wave = wave_chunks(game.keys_per_card());
    claim_in_waves(&mut chunks, set, wave, |chunk, records, keys| {
        let mut draw = drawer(chunk);
        let first = chunk * CHUNK + 1;
        for (j, record) in records.chunks_exact_mut(size).enumerate() {
            let index = (first + j) as u32;
            let card = draw(index);
            for &key in game.keys(&card).as_ref() {
                let hash = set.hash(&key);
                keys.push(Pending { hash, key, index });
            }
            game.encode(&card, record);
        }
        progress.inc((records.len() / size) as u64);
    })
}

/// Claims the keys of many chunks of work in `set`, in waves, and returns
/// every losing index (unsorted, possibly repeated).
///
/// `units[c]` is chunk c's work; `keys_of(c, unit, keys)` does it and pushes
/// its keys (hashed with [`KeySet::hash`]). A wave of `wave` units (see
/// [`wave_chunks`]) runs in parallel, each unit's keys are counting-sorted by shard, then the
/// shards claim the wave's keys, in parallel, one lock per shard. The result
/// does not depend on the wave size or the thread count. Used to draw cards,
/// to load `--exclude` files and to verify files.
pub fn claim_in_waves<K, U>(
    units: &mut [U],
    set: &KeySet<K>,
    wave: usize,
    keys_of: impl Fn(usize, &mut U, &mut Vec<Pending<K>>) + Sync,
) -> Vec<u32>
where
    K: Copy + Eq + std::hash::Hash + Send + Sync,
    U: Send,
{
    let mut buffers: Vec<ChunkKeys<K>> = (0..wave).map(|_| ChunkKeys::default()).collect();
    let mut losers = Vec::new();
    for (number, wave_units) in units.chunks_mut(wave).enumerate() {
        wave_units
            .par_iter_mut()
            .zip(buffers.par_iter_mut())
            .enumerate()
            .for_each(|(j, (unit, keys))| {
                keys.pending.clear();
                keys_of(number * wave + j, unit, &mut keys.pending);
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
        let shards = set.shard_count();
        self.starts.clear();
        self.starts.resize(shards + 1, 0);
        for p in &self.pending {
            self.starts[set.shard_of(p.hash) + 1] += 1;
        }
        for s in 0..shards {
            self.starts[s + 1] += self.starts[s];
        }
        self.sorted.clear();
        self.sorted.extend_from_slice(&self.pending);
        let mut next = self.starts.clone();
        for p in &self.pending {
            let slot = &mut next[set.shard_of(p.hash)];
            self.sorted[*slot as usize] = *p;
            *slot += 1;
        }
    }

    fn shard(&self, shard: usize) -> &[Pending<K>] {
        &self.sorted[self.starts[shard] as usize..self.starts[shard + 1] as usize]
    }
}

/// Stage 2: redraws the losers until each is new. Returns (cards redrawn,
/// repair draws).
///
/// Many losers (say, a file drawn with the seed of an `--exclude` file) are
/// redrawn in parallel rounds: in round r, loser i draws one candidate from
/// its own stream; candidates claim their keys labelled `MAX_CARDS + 1 + i`,
/// so every card already placed beats them and, among them, the smaller
/// card number wins; winners are written and relabelled i. The last few
/// losers are redrawn one by one, in card order, from the repair stream.
/// Either way the result depends only on the set's contents, never on timing.
pub fn repair<G: Game>(
    game: &G,
    seed: u64,
    records: &mut [u8],
    set: &KeySet<G::Key>,
    mut losers: Vec<u32>,
) -> Result<(u64, u64), MintError> {
    losers.sort_unstable();
    losers.dedup();
    let redrawn = losers.len() as u64;
    let mut draws = 0u64;
    let mut round = 0u64;
    while losers.len() > PARALLEL_REPAIR && round < MAX_REPAIR_DRAWS {
        draws += losers.len() as u64;
        losers = repair_round(game, seed, round, records, set, &losers);
        round += 1;
    }
    let size = game.record_size();
    let mut rng = stream(seed, REPAIR_STREAM);
    for &index in &losers {
        let mut tries = 0u64;
        loop {
            if tries == MAX_REPAIR_DRAWS {
                return Err(MintError::KeySpaceExhausted {
                    index: u64::from(index),
                });
            }
            tries += 1;
            let card = game.draw(&mut rng);
            let keys = game.keys(&card);
            let keys = keys.as_ref();
            if keys.iter().any(|k| set.contains(k)) {
                continue;
            }
            for &key in keys {
                set.insert_new(key, index);
            }
            let at = (index as usize - 1) * size;
            game.encode(&card, &mut records[at..at + size]);
            break;
        }
        draws += tries;
    }
    Ok((redrawn, draws))
}

/// One parallel repair round over `losers` (sorted): loser i redraws from
/// its round stream. Returns those still losing, sorted.
fn repair_round<G: Game>(
    game: &G,
    seed: u64,
    round: u64,
    records: &mut [u8],
    set: &KeySet<G::Key>,
    losers: &[u32],
) -> Vec<u32> {
    candidate_round(game, records, set, losers, |i| {
        let mut rng = stream(seed, ROUND_STREAMS + (round << 32) + u64::from(i));
        game.draw(&mut rng)
    })
}

/// Draws one candidate per index of `losers` (sorted) with `draw`; the
/// candidates claim their keys labelled `MAX_CARDS + 1 + i`, so every card
/// already placed beats them and, among them, the smaller index wins. Winners
/// are written and relabelled i. Returns the indices still losing, sorted.
fn candidate_round<G: Game>(
    game: &G,
    records: &mut [u8],
    set: &KeySet<G::Key>,
    losers: &[u32],
    draw: impl Fn(u32) -> G::Card + Sync,
) -> Vec<u32> {
    let label = |i: u32| (MAX_CARDS + 1) as u32 + i;
    let mut units: Vec<(&[u32], Vec<G::Card>)> =
        losers.chunks(CHUNK).map(|ids| (ids, Vec::new())).collect();
    let wave = wave_chunks(game.keys_per_card());
    let lost = claim_in_waves(&mut units, set, wave, |_, (ids, cards), keys| {
        for &i in ids.iter() {
            let card = draw(i);
            for &key in game.keys(&card).as_ref() {
                let hash = set.hash(&key);
                keys.push(Pending {
                    hash,
                    key,
                    index: label(i),
                });
            }
            cards.push(card);
        }
    });
    // Only this round's candidates count: a stale label of an earlier
    // round's loser may be displaced too.
    let mut lost: Vec<u32> = lost
        .into_iter()
        .filter_map(|l| l.checked_sub(label(0)))
        .filter(|i| losers.binary_search(i).is_ok())
        .collect();
    lost.sort_unstable();
    lost.dedup();
    let size = game.record_size();
    let mut winners = Vec::new();
    for (ids, cards) in &units {
        for (&i, card) in ids.iter().zip(cards) {
            if lost.binary_search(&i).is_err() {
                let at = (i as usize - 1) * size;
                game.encode(card, &mut records[at..at + size]);
                winners.push((i, card));
            }
        }
    }
    // Relabel the winners' keys from label(i) to i: claiming them with the
    // smaller index does exactly that, in bulk (what it reports as displaced
    // is only the old labels).
    let mut batches: Vec<&[(u32, &G::Card)]> = winners.chunks(CHUNK).collect();
    claim_in_waves(&mut batches, set, wave, |_, batch, keys| {
        for &(i, card) in batch.iter() {
            for &key in game.keys(card).as_ref() {
                keys.push(Pending {
                    hash: set.hash(&key),
                    key,
                    index: i,
                });
            }
        }
    });
    lost
}

/// Most draws of one card in [`mint_own_streams`] (first draw included).
pub const MAX_ATTEMPTS: u32 = 1 << 16;

/// The stream of card `number` (1-based, as users see it), attempt
/// `attempt`, in [`mint_own_streams`].
pub fn own_stream(seed: u64, number: u64, attempt: u32) -> crate::seed::Rng {
    stream(seed, (u64::from(attempt) << 40) | number)
}

/// Like [`mint`], but every card has streams of its own: card number n
/// (`first` for the first record) draws attempt a from [`own_stream`]`(seed,
/// n, a)`, so any one card can be drawn again from (seed, n, a) alone. Used
/// for objective boards, where a shared seed string names one board.
/// Duplicates are settled as in [`mint`]: the smaller index keeps its card;
/// losers redraw with the next attempt, in parallel rounds.
pub fn mint_own_streams<G: Game>(
    game: &G,
    seed: u64,
    first: u64,
    records: &mut [u8],
    set: &KeySet<G::Key>,
    progress: &ProgressBar,
) -> Result<Stats, MintError> {
    let size = game.record_size();
    let count = records.len() / size;
    if count as u64 > MAX_CARDS || first + count as u64 >= 1 << 40 {
        return Err(MintError::TooMany);
    }
    let mut losers = draw_chunks(game, records, set, progress, |_| {
        move |index: u32| {
            let mut rng = own_stream(seed, first + u64::from(index) - 1, 0);
            game.draw_attempt(&mut rng, 0)
        }
    });
    losers.sort_unstable();
    losers.dedup();
    let redrawn = losers.len() as u64;
    let mut draws = count as u64;
    let mut attempt = 1;
    while let Some(&index) = losers.first() {
        if attempt == MAX_ATTEMPTS {
            return Err(MintError::KeySpaceExhausted {
                index: first + u64::from(index) - 1,
            });
        }
        draws += losers.len() as u64;
        losers = candidate_round(game, records, set, &losers, |i| {
            let mut rng = own_stream(seed, first + u64::from(i) - 1, attempt);
            game.draw_attempt(&mut rng, attempt)
        });
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
    use crate::game::RuleViolation;
    use crate::seed::Rng;
    use rand_core::RngCore;

    /// A toy game whose cards are the numbers below its size, so duplicates
    /// are as common as a test needs.
    struct Toy(u32);

    /// Only 1,000 distinct cards.
    const TINY: Toy = Toy(1000);

    impl Game for Toy {
        type Card = u32;
        type Key = u32;
        type Keys = [u32; 1];
        fn record_size(&self) -> usize {
            4
        }
        fn draw(&self, rng: &mut Rng) -> u32 {
            rng.next_u32() % self.0
        }
        fn keys(&self, card: &u32) -> [u32; 1] {
            [*card]
        }
        fn keys_per_card(&self) -> usize {
            1
        }
        fn encode(&self, card: &u32, record: &mut [u8]) {
            record.copy_from_slice(&card.to_le_bytes());
        }
        fn decode(&self, record: &[u8]) -> Result<u32, RuleViolation> {
            Ok(u32::from_le_bytes(record.try_into().unwrap()))
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
                let mut records = vec![0u8; count * 4];
                let stats =
                    mint(&Toy(1 << 20), 5, &mut records, &set, &ProgressBar::hidden()).unwrap();
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

    fn run(threads: usize, count: usize, excluded: &[u32]) -> (Vec<u8>, Stats) {
        in_pool(Some(threads), || {
            let set = KeySet::with_capacity(count + excluded.len());
            for &k in excluded {
                set.claim(k, crate::dedup::EXCLUDED);
            }
            let mut records = vec![0u8; count * 4];
            let stats = mint(&TINY, 9, &mut records, &set, &ProgressBar::hidden()).unwrap();
            (records, stats)
        })
        .unwrap()
    }

    fn cards(records: &[u8]) -> Vec<u32> {
        records
            .chunks_exact(4)
            .map(|r| u32::from_le_bytes(r.try_into().unwrap()))
            .collect()
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
        let mut records = vec![0u8; 1001 * 4];
        let err = mint(&TINY, 1, &mut records, &set, &ProgressBar::hidden()).unwrap_err();
        assert!(matches!(err, MintError::KeySpaceExhausted { .. }));
    }
}
