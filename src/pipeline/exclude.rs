//! Excluding the cards of other files (`generate --exclude`): each file of
//! the same game is mapped, every record checked, and its keys claimed with
//! the index [`EXCLUDED`], which no drawn card can beat, so the new file
//! repeats none of them.

use super::waves::{claim_in_waves, wave_chunks};
use super::CHUNK;
use crate::cardfile::{CardFile, FileError};
use crate::dedup::{KeySet, EXCLUDED};
use crate::game::{Game, RuleViolation, Spec};
use std::path::PathBuf;

/// Why a file of cards to exclude cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ExcludeError {
    /// It could not be read as an intact card file.
    #[error(transparent)]
    File(FileError),
    /// It holds another game.
    #[error("'{path}' holds {found}, not {wanted}")]
    OtherGame {
        path: String,
        found: &'static str,
        wanted: &'static str,
    },
    /// One of its records breaks its game's rules.
    #[error("'{path}': card {card} is not valid: {why}")]
    Invalid {
        path: String,
        card: usize,
        why: RuleViolation,
    },
}

/// Opens every `--exclude` file and checks that it holds the game of `spec`
/// (with any parameters) and, unless `allow_damaged`, that every record
/// matches its checksum.
pub fn open(
    paths: &[PathBuf],
    spec: Spec,
    allow_damaged: bool,
) -> Result<Vec<CardFile>, ExcludeError> {
    paths
        .iter()
        .map(|path| {
            let file = CardFile::open_intact(path).map_err(ExcludeError::File)?;
            if !allow_damaged {
                file.require_sound(1..=file.header().count)
                    .map_err(ExcludeError::File)?;
            }
            let found = file.header().spec;
            if !found.same_game(spec) {
                return Err(ExcludeError::OtherGame {
                    path: path.display().to_string(),
                    found: found.describe(),
                    wanted: spec.describe(),
                });
            }
            Ok(file)
        })
        .collect()
}

/// Claims the keys of every card of `file` (a file of `G`'s game, read with
/// its own parameters) in `set`, in parallel, as [`EXCLUDED`].
pub fn claim<G: Game>(file: &CardFile, set: &KeySet<G::Key>) -> Result<(), ExcludeError> {
    let spec = file.header().spec;
    let game = G::with_spec(spec).expect("open() checked the game");
    let size = spec.record_size();
    // Each chunk of records, with the first invalid card it finds.
    type Chunk<'a> = (&'a [u8], Option<(usize, RuleViolation)>);
    let mut chunks: Vec<Chunk> = file
        .records()
        .chunks(CHUNK * size)
        .map(|records| (records, None))
        .collect();
    let wave = wave_chunks(game.keys_per_card(), CHUNK);
    claim_in_waves(&mut chunks, set, wave, |chunk, (records, invalid), keys| {
        for (j, record) in records.chunks_exact(size).enumerate() {
            match game.decode(record) {
                Ok(card) => keys.push_all(game.keys(&card).as_ref(), EXCLUDED),
                Err(why) => {
                    *invalid = Some((chunk * CHUNK + j + 1, why));
                    return;
                }
            }
        }
    });
    match chunks.into_iter().find_map(|(_, invalid)| invalid) {
        Some((card, why)) => Err(ExcludeError::Invalid {
            path: file.path().to_string(),
            card,
            why,
        }),
        None => Ok(()),
    }
}
