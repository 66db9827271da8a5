//! Faces that two card files share (`verify --across`): every face's exact
//! key from each file, sorted by the key's hash, and each run of equal
//! hashes compared key by key, so a shared face is found exactly, never by
//! its hash alone. A face a file repeats within itself is `verify`'s to
//! report, not this check's.
//!
//! Memory: 48 bytes a face of all the files together (the key, its hash,
//! its file and number), reserved once; one file's faces more while it is
//! read.

use super::CHUNK;
use crate::cardfile::CardFile;
use crate::dedup::Xxh3Hasher;
use crate::game::{Game, RuleViolation, Text, Visit};
use rayon::prelude::*;
use std::hash::BuildHasher;

/// A face two files share: each as (file index, face number).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shared {
    pub first: (usize, u64),
    pub second: (usize, u64),
}

/// What the check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Across {
    /// Faces read, in all the files.
    pub faces: u64,
    /// Pairs of faces in two files that are the same face.
    pub shared: u64,
    /// The first of them (at most the `most` asked for), in order of the
    /// first file and face.
    pub listed: Vec<Shared>,
}

/// Why files cannot be checked against each other.
#[derive(Debug, thiserror::Error)]
pub enum AcrossError {
    /// A file holds another game than the first.
    #[error("'{path}' holds {found}, not {wanted} as '{first}' does: faces of different games are never the same")]
    OtherGame {
        path: String,
        found: &'static str,
        first: String,
        wanted: &'static str,
    },
    /// One of a file's records breaks its game's rules.
    #[error("'{path}': record {record} is not valid: {why} (run `bingomint verify` on it)")]
    Invalid {
        path: String,
        record: u64,
        why: RuleViolation,
    },
}

/// The faces `files` share, the first `most` of them listed.
pub fn across(files: &[CardFile], most: usize) -> Result<Across, AcrossError> {
    let Some(first) = files.first() else {
        return Ok(Across {
            faces: 0,
            shared: 0,
            listed: Vec::new(),
        });
    };
    let spec = first.header().spec;
    for file in &files[1..] {
        let found = file.header().spec;
        // Single tickets (imported) and strips share their faces' keys.
        if !found.same_game(spec) && !found.lenient().same_game(spec.lenient()) {
            return Err(AcrossError::OtherGame {
                path: file.path().to_string(),
                found: found.describe(),
                first: first.path().to_string(),
                wanted: spec.describe(),
            });
        }
    }
    spec.visit(Check { files, most })
}

/// The hash every key is sorted by: XXH3, as the key set's.
type Hashes = std::hash::BuildHasherDefault<Xxh3Hasher>;

/// A face found: its key's hash, its key, its file and its number.
type Found<K> = (u64, K, usize, u64);

struct Check<'a> {
    files: &'a [CardFile],
    most: usize,
}

impl Visit for Check<'_> {
    type Out = Result<Across, AcrossError>;

    fn visit<G: Text>(self, game: &G) -> Self::Out {
        let hasher = Hashes::default();
        let total = (self.files.iter())
            .map(|f| f.header().count * f.header().spec.faces() as u64)
            .sum::<u64>();
        let mut all = Vec::with_capacity(total as usize);
        for (k, file) in self.files.iter().enumerate() {
            let keys = match G::with_spec(file.header().spec) {
                Some(own) => {
                    keys_of(&own, file, k, &hasher, &mut all)?;
                    continue;
                }
                // Another layout of the game's faces (single tickets beside
                // strips): face by face.
                None => crate::play::scan_faces(file, 1..=file.header().count, |n, face| {
                    (game.face_key(face)).map(|key| (hasher.hash_one(key), key, k, n))
                })
                .map_err(|e| AcrossError::Invalid {
                    path: file.path().to_string(),
                    record: e.number,
                    why: e.why,
                })?,
            };
            all.extend(keys);
        }
        let faces = all.len() as u64;
        all.par_sort_unstable_by_key(|&(hash, _, k, n)| (hash, k, n));
        let mut found = Vec::new();
        for run in all.chunk_by(|a, b| a.0 == b.0).filter(|run| run.len() > 1) {
            for (i, a) in run.iter().enumerate() {
                let same = run[i + 1..].iter().filter(|b| b.1 == a.1 && b.2 != a.2);
                found.extend(same.map(|b| Shared {
                    first: (a.2, a.3),
                    second: (b.2, b.3),
                }));
            }
        }
        found.sort_unstable_by_key(|s| (s.first, s.second));
        let shared = found.len() as u64;
        found.truncate(self.most);
        Ok(Across {
            faces,
            shared,
            listed: found,
        })
    }
}

/// Each face's key in `file` (file `k`) of `game`'s own layout, with its
/// hash, the file and the face's number, read in parallel onto `out`.
fn keys_of<G: Game>(
    game: &G,
    file: &CardFile,
    k: usize,
    hasher: &Hashes,
    out: &mut Vec<Found<G::Key>>,
) -> Result<(), AcrossError> {
    let header = file.header();
    let size = header.spec.record_size();
    let parts: Vec<Result<Vec<_>, AcrossError>> = (file.records().par_chunks(CHUNK * size))
        .enumerate()
        .map(|(chunk, records)| {
            let mut kept = Vec::with_capacity(records.len() / size * game.keys_per_card());
            for (j, record) in records.chunks_exact(size).enumerate() {
                let number = (chunk * CHUNK + j) as u64 + 1;
                let card = game.decode(record).map_err(|why| AcrossError::Invalid {
                    path: file.path().to_string(),
                    record: number,
                    why,
                })?;
                for (t, &key) in game.keys(&card).as_ref().iter().enumerate() {
                    kept.push((hasher.hash_one(key), key, k, header.face_number(number, t)));
                }
            }
            Ok(kept)
        })
        .collect();
    for part in parts {
        out.extend(part?);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::file::{generate, Plan};

    fn mint(dir: &std::path::Path, name: &str, game: &str, count: u64, seed: u64) -> CardFile {
        let out = dir.join(name);
        let spec = crate::game::Spec::named(game).unwrap();
        generate(&Plan::new(spec, count, seed, &out), &|_: u64| {}).unwrap();
        CardFile::open(&out).unwrap()
    }

    #[test]
    fn files_of_other_seeds_share_nothing_and_a_copy_shares_every_face() {
        let dir = tempfile::tempdir().unwrap();
        let a = mint(dir.path(), "a.bmc", "75", 500, 1);
        let b = mint(dir.path(), "b.bmc", "75", 300, 2);
        let a2 = mint(dir.path(), "a2.bmc", "75", 200, 1);
        let none = across(&[a, b], 10).unwrap();
        assert_eq!((none.faces, none.shared), (800, 0));
        // The same seed's first 200 cards are the first file's first 200.
        let a = CardFile::open(&dir.path().join("a.bmc")).unwrap();
        let some = across(&[a, a2], 3).unwrap();
        assert_eq!((some.faces, some.shared), (700, 200));
        let listed: Vec<_> = some.listed.iter().map(|s| (s.first, s.second)).collect();
        assert_eq!(
            listed,
            [((0, 1), (1, 1)), ((0, 2), (1, 2)), ((0, 3), (1, 3))]
        );
    }

    #[test]
    fn strips_are_checked_ticket_by_ticket_and_other_games_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let a = mint(dir.path(), "a.bmc", "90", 50, 7);
        let b = mint(dir.path(), "b.bmc", "90", 20, 7);
        let found = across(&[a, b], usize::MAX).unwrap();
        assert_eq!((found.faces, found.shared), (420, 120));
        let a = CardFile::open(&dir.path().join("a.bmc")).unwrap();
        let c = mint(dir.path(), "c.bmc", "80", 10, 7);
        let said = across(&[a, c], 1).unwrap_err().to_string();
        assert!(
            said.contains("holds") && said.contains("never the same"),
            "{said}"
        );
    }
}
