//! Stage 2 of minting: redrawing the losers (cards whose key a smaller
//! index holds) until each is new, in parallel rounds while many wait,
//! then one by one from the repair stream; the keys held outside the key
//! set (an out-of-core run's partitions) through [`Frozen`].

use super::waves::{claim_in_waves, wave_chunks};
use super::{MintError, Store, CHUNK, MAX_CARDS, MAX_REPAIR_DRAWS, PARALLEL_REPAIR};
use crate::dedup::{KeySet, Keyed};
use crate::seed::{repair_round_stream, stream, Rng, REPAIR_STREAM};
use rayon::prelude::*;

/// Keys held outside the [`KeySet`] that every repair candidate must still
/// avoid: the first draws of an out-of-core run, kept in partition files
/// (see [`spill`]). Asked in batches: [`Frozen::learn`] is given every
/// candidate's keys before [`Frozen::holds`] is asked about any of them.
pub trait Frozen<K>: Sync {
    /// Looks up `keys` (the keys of the candidates about to be tried).
    fn learn(&mut self, keys: &[K]) -> Result<(), MintError>;
    /// Whether `key`, one of the keys last learned, is held.
    fn holds(&self, key: &K) -> bool;
}

/// No frozen keys: the whole run's keys are in the [`KeySet`].
pub struct InSet;

impl<K> Frozen<K> for InSet {
    fn learn(&mut self, _: &[K]) -> Result<(), MintError> {
        Ok(())
    }
    fn holds(&self, _: &K) -> bool {
        false
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
/// Either way the result depends only on the keys held (in `set` or in
/// `frozen`), never on timing.
pub fn repair<K: Keyed, S: Store<K::Card>>(
    keyed: &K,
    draw: &(impl Fn(&mut Rng) -> K::Card + Sync),
    seed: u64,
    store: &mut S,
    set: &KeySet<K::Key>,
    frozen: &mut dyn Frozen<K::Key>,
    mut losers: Vec<u32>,
) -> Result<(u64, u64), MintError> {
    losers.sort_unstable();
    losers.dedup();
    let redrawn = losers.len() as u64;
    let mut draws = 0u64;
    let mut round = 0u64;
    while losers.len() > PARALLEL_REPAIR && round < MAX_REPAIR_DRAWS {
        draws += losers.len() as u64;
        losers = candidate_round(keyed, store, set, frozen, &losers, |i| {
            draw(&mut repair_round_stream(seed, round, i))
        })?;
        round += 1;
    }
    // One by one. Candidates come from the repair stream in order, whichever
    // card they are for, so they can be drawn (and looked up) ahead.
    let mut rng = stream(seed, REPAIR_STREAM);
    let mut ahead: std::collections::VecDeque<K::Card> = Default::default();
    for (n, &index) in losers.iter().enumerate() {
        let mut tries = 0u64;
        loop {
            if tries == MAX_REPAIR_DRAWS {
                return Err(MintError::KeySpaceExhausted {
                    index: u64::from(index),
                });
            }
            tries += 1;
            if ahead.is_empty() {
                // Enough for the cards left, and a few for redraws.
                ahead.extend((0..losers.len() - n + 8).map(|_| draw(&mut rng)));
                let keys: Vec<K::Key> = ahead
                    .iter()
                    .flat_map(|card| keyed.keys(card).as_ref().to_vec())
                    .collect();
                frozen.learn(&keys)?;
            }
            let card = ahead.pop_front().expect("just filled");
            let keys = keyed.keys(&card);
            let keys = keys.as_ref();
            if keys.iter().any(|k| frozen.holds(k) || set.contains(k)) {
                continue;
            }
            for &key in keys {
                set.insert_new(key, index);
            }
            store.put(index as usize - 1, card);
            break;
        }
        draws += tries;
    }
    Ok((redrawn, draws))
}

/// Draws one candidate per index of `losers` (sorted) with `draw`; the
/// candidates claim their keys labelled `MAX_CARDS + 1 + i`, so every card
/// already placed (and every key `frozen` holds) beats them and, among them,
/// the smaller index wins. Winners are relabelled i and put in their slots.
/// Returns the indices still losing, sorted.
pub(super) fn candidate_round<K: Keyed, S: Store<K::Card>>(
    keyed: &K,
    store: &mut S,
    set: &KeySet<K::Key>,
    frozen: &mut dyn Frozen<K::Key>,
    losers: &[u32],
    draw: impl Fn(u32) -> K::Card + Sync,
) -> Result<Vec<u32>, MintError> {
    let label = |i: u32| (MAX_CARDS + 1) as u32 + i;
    let mut units: Vec<(&[u32], Vec<K::Card>)> = losers
        .par_chunks(CHUNK)
        .map(|ids| (ids, ids.iter().map(|&i| draw(i)).collect()))
        .collect();
    let keys: Vec<K::Key> = units
        .iter()
        .flat_map(|(_, cards)| cards.iter())
        .flat_map(|card| keyed.keys(card).as_ref().to_vec())
        .collect();
    frozen.learn(&keys)?;
    let frozen = &*frozen;
    // A candidate with a frozen key loses it; its other keys are claimed
    // all the same, as a key held in the set would leave them.
    let blocked: Vec<u32> = units
        .iter()
        .flat_map(|(ids, cards)| ids.iter().zip(cards))
        .filter(|(_, card)| keyed.keys(card).as_ref().iter().any(|k| frozen.holds(k)))
        .map(|(&i, _)| label(i))
        .collect();
    let wave = wave_chunks(keyed.keys_per_card(), CHUNK);
    let mut lost = claim_in_waves(&mut units, set, wave, |_, (ids, cards), keys| {
        for (&i, card) in ids.iter().zip(cards.iter()) {
            for key in keyed.keys(card).as_ref() {
                if !frozen.holds(key) {
                    keys.push(*key, label(i));
                }
            }
        }
    });
    lost.extend(blocked);
    // Only this round's candidates count: a stale label of an earlier
    // round's loser may be displaced too.
    let mut lost: Vec<u32> = lost
        .into_iter()
        .filter_map(|l| l.checked_sub(label(0)))
        .filter(|i| losers.binary_search(i).is_ok())
        .collect();
    lost.sort_unstable();
    lost.dedup();
    let won = |i: u32| lost.binary_search(&i).is_err();
    // Relabel the winners' keys from label(i) to i: claiming them with the
    // smaller index does exactly that, in bulk (what it reports as displaced
    // is only the old labels).
    let mut batches: Vec<(&[u32], &[K::Card])> = units
        .iter()
        .map(|(ids, cards)| (*ids, cards.as_slice()))
        .collect();
    claim_in_waves(&mut batches, set, wave, |_, (ids, cards), keys| {
        for (&i, card) in ids.iter().zip(cards.iter()) {
            if won(i) {
                keys.push_all(keyed.keys(card).as_ref(), i);
            }
        }
    });
    for (ids, cards) in units {
        for (&i, card) in ids.iter().zip(cards) {
            if won(i) {
                store.put(i as usize - 1, card);
            }
        }
    }
    Ok(lost)
}
