//! Checking a whole card file (`verify`): the header's checksum, every
//! block of records against its checksum (naming the damaged cards), every card's
//! rules (the game's own `decode`), and that no two cards share a key,
//! claimed in the key set exactly as `generate` claims them.

use super::waves::{claim_in_waves, wave_chunks};
use super::CHUNK;
use crate::cardfile::{CardFile, Integrity};
use crate::dedup::{check_memory, KeySet};
use crate::game::{Spec, Text, Visit};

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

/// Checks every card of `file` in parallel on the current rayon pool.
/// Fails (before any work) only when the key set would not fit in memory.
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
        let set = KeySet::with_capacity(file.header().count as usize * game.keys_per_card());
        let mut chunks: Vec<Chunk> = file
            .records()
            .chunks(CHUNK * size)
            .map(|records| (records, Vec::new()))
            .collect();
        let wave = wave_chunks(game.keys_per_card());
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
