//! A stock minted in shards (`generate --shard I/N`): the game's cards are
//! split into classes by their first column's ordered draw
//! ([`Game::classes`]: 360,360 for 75-ball, 116,280 for 80-ball), and
//! shard I of N draws only from its own run of classes. Two shards never
//! hold the same card, with no network and no shared state. Each class
//! holds as many cards as every other, so a shard's count is the stock's
//! count in proportion to its classes, and the shards together are the
//! stock a single run would draw uniformly (stratified by class). Its
//! streams are its own: the seed mixed with I and N.

use crate::cardfile::header::ShardMark;
use crate::cardfile::CardFile;
use crate::dedup::Keyed;
use crate::game::{Face, Game, RuleViolation, Spec, Text, Visit};
use crate::seed::Rng;
use rayon::prelude::*;
use std::ops::Range;
use xxhash_rust::xxh3::xxh3_64_with_seed;

/// Shard `index` (from 1) of `of`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub of: u32,
}

/// The most shards a stock is cut into.
pub const MAX_SHARDS: u32 = 1 << 16;

/// A `--shard` that is not `I/N` with 1 ≤ I ≤ N.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    #[error("{0:?}: give the shard as I/N, such as 3/8 (shard 3 of 8)")]
    Form(String),
    #[error("{0}: shards count from 1 to {1} (an index that counts from 0, as Kubernetes' JOB_COMPLETION_INDEX does, needs 1 added)")]
    Index(u32, u32),
    #[error("{0} shards: give 1 to {MAX_SHARDS}")]
    Count(u32),
    #[error("{of} shards of {classes} classes: give at most {classes} shards")]
    Classes { of: u32, classes: u32 },
}

impl Shard {
    /// Reads `I/N`.
    pub fn parse(text: &str) -> Result<Shard, ShardError> {
        let form = || ShardError::Form(text.to_string());
        let (i, n) = text.trim().split_once('/').ok_or_else(form)?;
        let index: u32 = i.trim().parse().map_err(|_| form())?;
        let of: u32 = n.trim().parse().map_err(|_| form())?;
        if of == 0 || of > MAX_SHARDS {
            return Err(ShardError::Count(of));
        }
        if index == 0 || index > of {
            return Err(ShardError::Index(index, of));
        }
        Ok(Shard { index, of })
    }

    /// The run of classes (of `classes`) this shard draws from: shard I
    /// of N takes ⌊(I−1)·C/N⌋ to ⌊I·C/N⌋.
    pub fn classes(self, classes: u32) -> Result<Range<u32>, ShardError> {
        if self.of > classes {
            return Err(ShardError::Classes {
                of: self.of,
                classes,
            });
        }
        let at = |i: u32| (u64::from(i) * u64::from(classes) / u64::from(self.of)) as u32;
        Ok(at(self.index - 1)..at(self.index))
    }

    /// Of a stock of `stock` cards over `classes` classes, the cards
    /// before this shard's and its own: ⌊S·lo/C⌋ and ⌊S·hi/C⌋ − ⌊S·lo/C⌋,
    /// so the shards' counts add up to the stock.
    pub fn part(self, stock: u64, classes: u32) -> Result<(u64, u64), ShardError> {
        let range = self.classes(classes)?;
        let at = |c: u32| (u128::from(stock) * u128::from(c) / u128::from(classes)) as u64;
        Ok((at(range.start), at(range.end) - at(range.start)))
    }

    /// The seed of this shard's streams: `seed` mixed with I and N.
    pub fn seed(self, seed: u64) -> u64 {
        let mut bytes = *b"bingomint shard ........";
        bytes[16..20].copy_from_slice(&self.index.to_le_bytes());
        bytes[20..].copy_from_slice(&self.of.to_le_bytes());
        xxh3_64_with_seed(&bytes, seed)
    }
}

impl From<ShardMark> for Shard {
    /// The shard a file's header names.
    fn from(mark: ShardMark) -> Shard {
        Shard {
            index: mark.index,
            of: mark.of,
        }
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.of)
    }
}

/// A game drawing only from `classes`: the pipeline mints a shard through
/// it as it mints any game.
pub struct Sharded<G> {
    pub game: G,
    pub classes: Range<u32>,
}

impl<G: Game> Keyed for Sharded<G> {
    type Card = G::Card;
    type Key = G::Key;
    type Keys = G::Keys;

    fn keys(&self, card: &G::Card) -> G::Keys {
        self.game.keys(card)
    }

    fn keys_per_card(&self) -> usize {
        self.game.keys_per_card()
    }
}

impl<G: Game> Game for Sharded<G> {
    fn spec(&self) -> Spec {
        self.game.spec()
    }

    fn draw(&self, rng: &mut Rng) -> G::Card {
        self.game.draw_in(rng, &self.classes)
    }

    fn classes(&self) -> Result<u32, &'static str> {
        self.game.classes()
    }

    fn draw_in(&self, rng: &mut Rng, classes: &Range<u32>) -> G::Card {
        self.game.draw_in(rng, classes)
    }

    fn class_of(&self, card: &G::Card) -> Option<u32> {
        self.game.class_of(card)
    }

    fn encode(&self, card: &G::Card, record: &mut [u8]) {
        self.game.encode(card, record)
    }

    fn decode(&self, record: &[u8]) -> Result<G::Card, RuleViolation> {
        self.game.decode(record)
    }

    fn face(&self, card: &G::Card, face: usize) -> Face {
        self.game.face(card, face)
    }

    fn face_key(&self, face: &Face) -> Option<G::Key> {
        self.game.face_key(face)
    }

    fn strict_faults(&self, card: &G::Card) -> Vec<String> {
        self.game.strict_faults(card)
    }

    fn encode_faces(&self, faces: &[Face], record: &mut [u8]) {
        self.game.encode_faces(faces, record)
    }

    /// The game of `spec` over all its classes: what reading another file
    /// of the game (`--exclude`) needs.
    fn with_spec(spec: Spec) -> Option<Self> {
        let game = G::with_spec(spec)?;
        let classes = 0..game.classes().ok()?;
        Some(Sharded { game, classes })
    }

    fn read_faces(&self, record: &[u8], faces: &mut [Face]) -> Result<(), RuleViolation> {
        self.game.read_faces(record, faces)
    }
}

/// The first card of `file` (its record number and class) that is not of
/// `shard`'s classes; None when every card is.
pub fn outside(file: &CardFile, shard: Shard) -> Result<Option<(u64, u32)>, ShardError> {
    file.header().spec.visit(Outside { file, shard })
}

struct Outside<'a> {
    file: &'a CardFile,
    shard: Shard,
}

impl Visit for Outside<'_> {
    type Out = Result<Option<(u64, u32)>, ShardError>;

    fn visit<G: Text>(self, game: &G) -> Self::Out {
        let Ok(classes) = game.classes() else {
            return Ok(None);
        };
        let range = self.shard.classes(classes)?;
        let size = game.spec().record_size();
        let found = (self.file.records().par_chunks_exact(size))
            .enumerate()
            .find_map_first(|(i, record)| {
                let class = game.decode(record).ok().and_then(|c| game.class_of(&c))?;
                (!range.contains(&class)).then_some((i as u64 + 1, class))
            });
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::us75::{StarRule, Us75};
    use crate::game::us80::Us80;

    #[test]
    fn shards_are_read_as_i_of_n_and_refused_naming_the_fix() {
        assert_eq!(Shard::parse("3/8"), Ok(Shard { index: 3, of: 8 }));
        assert!(matches!(Shard::parse("0/8"), Err(ShardError::Index(0, 8))));
        assert!(matches!(Shard::parse("9/8"), Err(ShardError::Index(9, 8))));
        assert!(matches!(Shard::parse("1/0"), Err(ShardError::Count(0))));
        assert!(matches!(Shard::parse("3"), Err(ShardError::Form(_))));
        let said = Shard::parse("0/4").unwrap_err().to_string();
        assert!(said.contains("JOB_COMPLETION_INDEX"), "{said}");
    }

    #[test]
    fn the_shards_cover_every_class_once_and_their_counts_add_up() {
        for (classes, of, stock) in [(360_360, 7, 1_000_003), (116_280, 300, 10u64.pow(11))] {
            let mut next = 0;
            let (mut before, mut total) = (0, 0);
            for index in 1..=of {
                let shard = Shard { index, of };
                let range = shard.classes(classes).unwrap();
                assert_eq!(range.start, next);
                next = range.end;
                let (first, count) = shard.part(stock, classes).unwrap();
                assert_eq!(first, before);
                before += count;
                total += count;
                // In proportion to its classes, within one card.
                let due = stock as f64 * f64::from(range.end - range.start) / f64::from(classes);
                assert!((count as f64 - due).abs() < 1.0, "{count} {due}");
            }
            assert_eq!((next, total), (classes, stock));
        }
        let too_many = Shard {
            index: 1,
            of: 400_000,
        };
        assert!(too_many.classes(360_360).is_err());
    }

    #[test]
    fn a_shards_cards_fall_in_its_classes_and_every_class_is_drawn() {
        let mut rng = crate::seed::stream(1, 0);
        let us75 = Us75::new(StarRule::On);
        let few = 100..103;
        let mut seen = [false; 3];
        for _ in 0..3000 {
            let card = us75.draw_in(&mut rng, &few);
            let class = us75.class_of(&card).unwrap();
            assert!(few.contains(&class));
            seen[(class - 100) as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
        // Cards drawn as ever have their class too, over the whole range.
        for _ in 0..1000 {
            let card = us75.draw(&mut rng);
            assert!(us75.class_of(&card).unwrap() < 360_360);
        }
        let band = 50_000..50_010;
        for _ in 0..1000 {
            let card = Us80.draw_in(&mut rng, &band);
            assert!(band.contains(&Us80.class_of(&card).unwrap()));
        }
        let shard = Shard { index: 2, of: 3 };
        assert_ne!(shard.seed(7), Shard { index: 1, of: 3 }.seed(7));
        assert_ne!(shard.seed(7), 7);
    }
}
