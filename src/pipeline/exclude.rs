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
    /// A file of another layout (single tickets) in a run that settles its
    /// keys out of core, which reads excluded records of its own layout only.
    #[error(
        "'{path}' holds {found}; a run this large settles its keys out of core, which \
         excludes files of the same layout only: raise --memory (or exclude it from a \
         smaller run)"
    )]
    OutOfCore { path: String, found: &'static str },
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
            // Single tickets (imported) and strips share their faces' keys.
            if !found.same_game(spec) && !found.lenient().same_game(spec.lenient()) {
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

/// Claims the keys of every card of `file` (a file of `game`'s game, read
/// with its own parameters, or of another layout of its faces: single
/// tickets for strips) in `set`, in parallel, as [`EXCLUDED`].
pub fn claim<G: Game>(game: &G, file: &CardFile, set: &KeySet<G::Key>) -> Result<(), ExcludeError> {
    let spec = file.header().spec;
    let Some(game) = G::with_spec(spec) else {
        return claim_faces(game, file, set);
    };
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

/// [`claim`] for a file of another layout: its faces one by one, each
/// keyed by [`Game::face_key`].
fn claim_faces<G: Game>(
    game: &G,
    file: &CardFile,
    set: &KeySet<G::Key>,
) -> Result<(), ExcludeError> {
    let keys =
        crate::play::scan_faces(file, 1..=file.header().count, |_, face| game.face_key(face))
            .map_err(|e| ExcludeError::Invalid {
                path: file.path().to_string(),
                card: e.number as usize,
                why: e.why,
            })?;
    set.reserve();
    for key in keys {
        set.claim(key, EXCLUDED);
    }
    Ok(())
}
