//! The games bingomint mints: each described once, by a [`Spec`], and drawn,
//! keyed, stored and shown by one type that implements [`Game`] and [`Text`].
//!
//! Everything outside this folder asks a game through these: the pipeline
//! (`Game::draw`, keys), the card file (record size, header bytes:
//! [`Spec::from_header`]), `export`, `show` and `verify` ([`Text`],
//! `Game::decode`), and next print and claims ([`Game::face`], the face shape).
//! No other module matches on a game's name or hard-codes its sizes.
//!
//! A game's fixed facts (shape, balls, free cells, letters, patterns, how a
//! record sits on paper) are data, its module's `FACTS` ([`Facts`]), which
//! [`Spec::facts`] hands out.
//!
//! Adding a game: a module here with its `Game` + `Text` type and its
//! `FACTS`, a [`Spec`] variant, and the arms of the `match`es in this file
//! (see ARCHITECTURE.md, "Adding a game").

use crate::dedup::Keyed;
use crate::seed::Rng;
use csv::StringRecord as Row;

mod describe;
pub mod facts;
pub mod items;
pub mod patterns;
pub mod uk90;
pub mod us75;
pub mod us80;

mod rank;
pub use facts::{Face, Facts, LabelAt, Paper, MAX_FACE_CELLS, NO_STAR};
pub use rank::rank_of;

use items::{Deck, Items};
use uk90::rules::Rules;
use uk90::tickets::Tickets90;
use uk90::Uk90;
use us75::{StarRule, Us75};
use us80::Us80;

/// A game as the pipeline and the card file see it. Implementations are
/// immutable and cheap to share between threads; drawing cannot fail.
pub trait Game: Keyed {
    /// The game's description.
    fn spec(&self) -> Spec;
    /// Draws one card from `rng`.
    fn draw(&self, rng: &mut Rng) -> Self::Card;
    /// The first draws of chunk `chunk` (of the pipeline's `CHUNK`
    /// cards) of a run seeded `seed`: called with each card's index
    /// (1-based), in order. By default the chunk's cards come one after
    /// another from its stream ([`crate::seed::chunk_stream`]); a game
    /// whose cards have streams of their own says so here. Part of the
    /// algorithm (see [`crate::seed::ALGORITHM_VERSION`]).
    fn drawer(&self, seed: u64, chunk: usize) -> impl FnMut(u32) -> Self::Card + '_ {
        crate::seed::chunk_stream(seed, chunk, move |rng| self.draw(rng))
    }
    /// The classes the game's cards fall in for minting in shards: its
    /// first column's ordered draws, each class holding as many cards as
    /// every other. Err: why this game cannot be minted in shards.
    fn classes(&self) -> Result<u32, &'static str> {
        Err("this game's cards cannot be minted in shards yet")
    }
    /// Draws a card uniformly among those whose class is in `classes`
    /// (within [`Game::classes`]); only called when that is Ok.
    fn draw_in(&self, rng: &mut Rng, classes: &std::ops::Range<u32>) -> Self::Card {
        let _ = classes;
        self.draw(rng)
    }
    /// The card's class ([`Game::classes`]); None for a game without them.
    fn class_of(&self, card: &Self::Card) -> Option<u32> {
        let _ = card;
        None
    }
    /// Writes the card into a record of exactly `spec().record_size()` bytes.
    fn encode(&self, card: &Self::Card, record: &mut [u8]);
    /// Reads a record back, checking every rule of the game.
    fn decode(&self, record: &[u8]) -> Result<Self::Card, RuleViolation>;
    /// Face `face` (0-based, below `spec().faces()`) as a grid of numbers.
    fn face(&self, card: &Self::Card, face: usize) -> Face;
    /// The exact key of one face read from a file of another layout of the
    /// same game (a single ticket excluded from new strips), when keys are
    /// per face; None otherwise.
    fn face_key(&self, face: &Face) -> Option<Self::Key> {
        let _ = face;
        None
    }
    /// The rules a card valid to play still breaks, each in words: layout
    /// rules a strict file keeps and a loose one need not (single tickets);
    /// none for most games, whose every rule [`Game::decode`] checks.
    fn strict_faults(&self, card: &Self::Card) -> Vec<String> {
        let _ = card;
        Vec::new()
    }
    /// Writes `faces` (each of the game's shape, `spec().faces()` of them)
    /// into a record as [`Game::encode`] lays it out, unchecked: the inverse
    /// of [`Game::read_faces`], for faces read from elsewhere (`import`),
    /// which [`Game::decode`] then judges.
    fn encode_faces(&self, faces: &[Face], record: &mut [u8]);
    /// This game with the parameters of `spec`, if `spec` is this game
    /// (to read a file of the same game drawn with other parameters).
    fn with_spec(spec: Spec) -> Option<Self>
    where
        Self: Sized;
    /// Every face of a record, checked as [`Game::decode`] checks it, into
    /// `faces` (which holds `spec().faces()`): what scans of a file for
    /// winners use. A game may read the record more directly than through
    /// its card.
    fn read_faces(&self, record: &[u8], faces: &mut [Face]) -> Result<(), RuleViolation> {
        let card = self.decode(record)?;
        for (t, face) in faces.iter_mut().enumerate() {
            *face = self.face(&card, t);
        }
        Ok(())
    }
}

/// A game's renderings for people and other programs (`show`, `export`).
pub trait Text: Game {
    /// Face `face` as a boxed text grid, as `show` prints it.
    fn grid(&self, card: &Self::Card, face: usize) -> String;
    /// Lines `show` prints under the grids (a legend), if any.
    fn legend(&self, card: &Self::Card) -> Option<String>;
    /// The card as one line of numbers (`export --to txt`), with newline.
    fn txt_line(&self, card: &Self::Card, out: &mut String);
    /// The CSV header fields (one row per face follows).
    fn csv_header(&self) -> Vec<String>;
    /// The CSV fields of face `face` (its serial as printed, `number`) of
    /// record `record`, appended to `row`.
    fn csv_row(&self, record: u64, number: &str, card: &Self::Card, face: usize, row: &mut Row);
    /// The record as one JSON object (`export --to jsonl`), with newline;
    /// `number` names it: a card's or ticket's face number, a strip's record
    /// number.
    fn json_line(&self, number: u64, card: &Self::Card, out: &mut String);
}

/// A record that breaks a rule of its game; the text says which and how.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RuleViolation(pub String);

/// Everything bingomint knows about one game and its parameters, in one
/// place: names, sizes, header bytes, faces, and the typed game that draws
/// and reads it ([`Spec::visit`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spec {
    /// US 75-ball cards: 5×5, free centre, optional star.
    Us75 { star: StarRule },
    /// UK 90-ball strips of six 3×9 tickets, under a rule set.
    Uk90 { rules: Rules },
    /// US 80-ball cards: 4×4, no free cell.
    Us80,
    /// Single 90-ball tickets that never formed strips (imported), checked
    /// against a rule set, or only against the rules of play when `loose`.
    Tickets90 { rules: Rules, loose: bool },
    /// Cards of words, pictures or songs: a list's items as balls.
    Items(&'static Deck),
}

/// A game chosen by name that does not exist or does not take what came
/// with it ([`Spec::choose`]); the command names its options.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChoiceError {
    #[error("{0}: use 75, 80, 90 or items")]
    UnknownGame(String),
    /// The items game was named without its list.
    #[error("the items game needs its list: add --items FILE (or --items loteria)")]
    ItemsNeedList,
    #[error("{0}: use uk or es")]
    UnknownRules(String),
    /// A rule set was named for a game that has none.
    #[error("rule sets are for 90-ball strips")]
    RulesNotForGame,
    /// A star was asked for a game other than 75-ball (named).
    #[error("a star is for 75-ball cards, not {0}")]
    StarNotForGame(&'static str),
}

/// A native header's game, rule-set or flag field that makes no sense
/// ([`Spec::from_header`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FieldError {
    #[error("rule set {0} in a 75-ball header (expected 0)")]
    Rules75(u8),
    #[error("unknown flags {0:#x} in the header")]
    Flags(u32),
    #[error("flags {0:#x} in a 90-ball header (expected 0, 2 or 6)")]
    Flags90(u32),
    #[error("unknown 90-ball rule set {0} in the header")]
    Rules90(u8),
    #[error("rule set {0}, flags {1:#x} in an 80-ball header (expected 0, 0)")]
    Fields80(u8, u32),
    #[error("unknown game byte {0} in the header")]
    Game(u8),
    #[error("an items header without its item list")]
    ItemsWithoutList,
}

/// Work to do with the typed game of a [`Spec`] (Rust closures cannot be
/// generic, so a stage that needs `G: Game` is a small struct).
pub trait Visit {
    type Out;
    fn visit<G: Text>(self, game: &G) -> Self::Out;
}

/// The game byte of the native header.
const US75_BYTE: u8 = 75;
const UK90_BYTE: u8 = 90;
const US80_BYTE: u8 = 80;
/// The game byte of an items game (`I`); its list follows the header.
pub const ITEMS_BYTE: u8 = 73;
/// Header flag bit: the cards carry a star.
const FLAG_STAR: u32 = 1;
/// 90-ball header flag bit: records are single tickets, not strips.
const FLAG_TICKETS: u32 = 2;
/// 90-ball header flag bit (with [`FLAG_TICKETS`]): the tickets meet only
/// the rules of play, not every rule of their rule set.
const FLAG_LOOSE: u32 = 4;

impl Spec {
    /// The exact law of a face's layout, for a game whose layouts are
    /// drawn (90-ball strips); None when every face has the same cells.
    pub fn layout_law(self) -> Option<uk90::law::LayoutLaw> {
        match self {
            Spec::Uk90 { rules } => Some(uk90::law::layout_law(rules)),
            Spec::Us75 { .. } | Spec::Us80 | Spec::Tickets90 { .. } | Spec::Items(_) => None,
        }
    }

    /// Face `n` (its serial as printed) of record `record` as people name
    /// it: `card 4711`, or `ticket 70 (strip 12)`.
    pub fn face_label(self, n: impl std::fmt::Display, record: u64) -> String {
        if self.faces() == 1 {
            format!("{} {n}", self.face_noun())
        } else {
            format!("ticket {n} (strip {record})")
        }
    }

    /// The game a face of this game read from elsewhere (`import`) is
    /// judged by, one face a record, checking the rules of play (a 75-ball
    /// star anywhere, a ticket's layout loose): [`Game::strict_faults`]
    /// names the rest.
    pub fn lenient(self) -> Spec {
        match self {
            Spec::Us75 { .. } => Spec::Us75 {
                star: StarRule::Any,
            },
            Spec::Uk90 { rules } | Spec::Tickets90 { rules, .. } => {
                Spec::Tickets90 { rules, loose: true }
            }
            Spec::Us80 => Spec::Us80,
            Spec::Items(_) => self,
        }
    }

    /// The game of a file of imported faces: 75-ball cards with or without
    /// a star; 90-ball strips when the tickets form them, else single
    /// tickets, `loose` when some break the layout rules.
    pub fn imported(self, strips: bool, loose: bool, star: bool) -> Spec {
        match self {
            Spec::Us75 { .. } => Spec::Us75 {
                star: if star { StarRule::On } else { StarRule::Off },
            },
            Spec::Uk90 { rules } if strips && !loose => Spec::Uk90 { rules },
            Spec::Uk90 { rules } | Spec::Tickets90 { rules, .. } => {
                Spec::Tickets90 { rules, loose }
            }
            Spec::Us80 => Spec::Us80,
            Spec::Items(_) => self,
        }
    }

    /// Whether each record is drawn from a stream of its own
    /// ([`crate::seed::own_stream`], attempt 0) rather than one after
    /// another from its chunk's stream: what a raw dump of the generator
    /// follows.
    pub fn own_streams(self) -> bool {
        match self {
            Spec::Uk90 { rules } => rules.own_streams(),
            Spec::Us75 { .. } | Spec::Us80 | Spec::Tickets90 { .. } | Spec::Items(_) => false,
        }
    }

    /// The games by the name `--game` takes.
    pub const GAMES: [&'static str; 3] = ["75", "80", "90"];
    /// Every rule-set name `--rules` takes (each game says which are its own).
    pub const RULE_SETS: [&'static str; 2] = ["uk", "es"];

    /// The game as users choose it: a name of [`Spec::GAMES`], a rule set
    /// of [`Spec::RULE_SETS`] (90-ball only; `uk` when none) and whether
    /// cards carry a star (75-ball only).
    pub fn choose(game: &str, rules: Option<&str>, star: bool) -> Result<Spec, ChoiceError> {
        let spec = match game {
            "75" => Spec::Us75 {
                star: if star { StarRule::On } else { StarRule::Off },
            },
            "90" => Spec::Uk90 {
                rules: match rules.unwrap_or("uk") {
                    "uk" => Rules::Uk,
                    "es" => Rules::Es,
                    other => return Err(ChoiceError::UnknownRules(other.to_string())),
                },
            },
            "80" => Spec::Us80,
            "items" => return Err(ChoiceError::ItemsNeedList),
            other => return Err(ChoiceError::UnknownGame(other.to_string())),
        };
        if rules.is_some() && !matches!(spec, Spec::Uk90 { .. }) {
            return Err(ChoiceError::RulesNotForGame);
        }
        if star && !matches!(spec, Spec::Us75 { .. }) {
            return Err(ChoiceError::StarNotForGame(spec.facts().short_name));
        }
        Ok(spec)
    }

    /// The game of a native header's game, rule-set and flag fields; every
    /// field must make sense for the game.
    pub fn from_header(game: u8, rules: u8, flags: u32) -> Result<Spec, FieldError> {
        match game {
            US75_BYTE => {
                if rules != 0 {
                    return Err(FieldError::Rules75(rules));
                }
                if flags & !FLAG_STAR != 0 {
                    return Err(FieldError::Flags(flags));
                }
                let star = if flags & FLAG_STAR != 0 {
                    StarRule::On
                } else {
                    StarRule::Off
                };
                Ok(Spec::Us75 { star })
            }
            UK90_BYTE => {
                let rules = Rules::from_byte(rules).ok_or(FieldError::Rules90(rules))?;
                match flags {
                    0 => Ok(Spec::Uk90 { rules }),
                    FLAG_TICKETS => Ok(Spec::Tickets90 {
                        rules,
                        loose: false,
                    }),
                    f if f == FLAG_TICKETS | FLAG_LOOSE => {
                        Ok(Spec::Tickets90 { rules, loose: true })
                    }
                    _ => Err(FieldError::Flags90(flags)),
                }
            }
            US80_BYTE => {
                if rules != 0 || flags != 0 {
                    return Err(FieldError::Fields80(rules, flags));
                }
                Ok(Spec::Us80)
            }
            ITEMS_BYTE => Err(FieldError::ItemsWithoutList),
            other => Err(FieldError::Game(other)),
        }
    }

    /// The header's (game, rule set, flags) fields.
    pub fn header_fields(self) -> (u8, u8, u32) {
        match self {
            Spec::Us75 { star } => (US75_BYTE, 0, u32::from(star == StarRule::On) * FLAG_STAR),
            Spec::Uk90 { rules } => (UK90_BYTE, rules.byte(), 0),
            Spec::Us80 => (US80_BYTE, 0, 0),
            Spec::Tickets90 { rules, loose } => (
                UK90_BYTE,
                rules.byte(),
                FLAG_TICKETS | (u32::from(loose) * FLAG_LOOSE),
            ),
            Spec::Items(deck) => {
                let (shape, flags) = deck.header_fields();
                (ITEMS_BYTE, shape, flags)
            }
        }
    }

    /// Ball `n` as people call it: its number, or an items game's label.
    pub fn ball(self, n: u8) -> String {
        match self {
            Spec::Items(deck) => deck.label(n).to_string(),
            _ => n.to_string(),
        }
    }

    /// An items game's deck (its list and card shape).
    pub fn items(self) -> Option<&'static Deck> {
        match self {
            Spec::Items(deck) => Some(deck),
            _ => None,
        }
    }

    /// Runs `work` with the typed game (90-ball tables are built on first use).
    pub fn visit<V: Visit>(self, work: V) -> V::Out {
        match self {
            Spec::Us75 { star } => work.visit(&Us75::new(star)),
            Spec::Uk90 { rules } => work.visit(&Uk90::new(rules)),
            Spec::Us80 => work.visit(&Us80),
            Spec::Tickets90 { rules, loose } => work.visit(&Tickets90::new(rules, loose)),
            Spec::Items(deck) => work.visit(&Items::new(deck)),
        }
    }

    /// The classes the game's cards are minted in shards by
    /// ([`Game::classes`]), or why it cannot be.
    pub fn classes(self) -> Result<u32, &'static str> {
        struct Classes;
        impl Visit for Classes {
            type Out = Result<u32, &'static str>;
            fn visit<G: Text>(self, game: &G) -> Self::Out {
                game.classes()
            }
        }
        self.visit(Classes)
    }

    /// What [`Spec::prepare`] will be doing, when it takes long enough to
    /// show (`building the 90-ball uk tables`).
    pub fn slow_start(self) -> Option<String> {
        match self {
            Spec::Us75 { .. } | Spec::Us80 | Spec::Tickets90 { .. } | Spec::Items(_) => None,
            Spec::Uk90 { rules } => Some(format!("building the 90-ball {} tables", rules.name())),
        }
    }

    /// Builds what the game draws from (the 90-ball tables, ~1 s), so the
    /// caller can say so; [`Spec::visit`] does it anyway when needed.
    pub fn prepare(self) {
        if let Spec::Uk90 { rules } = self {
            uk90::tables::tables(rules);
        }
    }

    /// Whether `other` is the same game (whatever its parameters). Items
    /// games are the same only with the same list on the same card: their
    /// balls are that list's items.
    pub fn same_game(self, other: Spec) -> bool {
        match (self, other) {
            (Spec::Items(a), Spec::Items(b)) => a == b,
            _ => std::mem::discriminant(&self) == std::mem::discriminant(&other),
        }
    }

    /// Human name, as `info` prints it.
    pub fn describe(self) -> &'static str {
        self.facts().describe
    }

    /// The parameters in words, as `show` names them: `rules uk`.
    pub fn parameters(self) -> String {
        match self {
            Spec::Us75 { star } => match star {
                StarRule::On => "with stars".into(),
                StarRule::Off => "no stars".into(),
                StarRule::Any => "stars not recorded".into(),
            },
            Spec::Uk90 { rules } => format!("rules {}", rules.name()),
            Spec::Us80 => "no free cell".into(),
            Spec::Tickets90 { rules, loose } => format!(
                "single tickets, rules {}{}",
                rules.name(),
                if loose { ", loose" } else { "" }
            ),
            Spec::Items(deck) => deck.describe(),
        }
    }

    /// What one record is called: card or strip.
    pub fn noun(self) -> &'static str {
        self.facts().noun
    }

    /// What one playing face is called: card or ticket.
    pub fn face_noun(self) -> &'static str {
        self.facts().face_noun
    }

    /// Faces per record: 1 card, or the 6 tickets of a strip.
    pub fn faces(self) -> usize {
        self.facts().faces
    }

    /// Rows and columns of a face.
    pub fn face_shape(self) -> (usize, usize) {
        (self.facts().rows, self.facts().cols)
    }

    /// Balls in the game: numbers run from 1 to this.
    pub fn balls(self) -> u8 {
        self.facts().balls
    }

    /// Bytes per record in the card file.
    pub fn record_size(self) -> usize {
        match self {
            Spec::Us75 { .. } => us75::RECORD_SIZE,
            Spec::Uk90 { .. } => uk90::RECORD_SIZE,
            Spec::Us80 => us80::RECORD_SIZE,
            Spec::Tickets90 { .. } => uk90::tickets::RECORD_SIZE,
            Spec::Items(deck) => deck.rows * deck.cols,
        }
    }

    /// Exact keys per record (a strip's tickets are each unique; an items
    /// card with no line shared keys each line).
    pub fn keys_per_card(self) -> usize {
        match self {
            Spec::Items(deck) => deck.keys_per_card(),
            _ => self.faces(),
        }
    }

    /// Bytes the key set holds per key (for the memory check).
    pub fn key_set_bytes(self, keys: usize) -> usize {
        match self {
            Spec::Us75 { .. } => crate::dedup::KeySet::<us75::Key96>::bytes_for(keys),
            Spec::Uk90 { .. } | Spec::Tickets90 { .. } => {
                crate::dedup::KeySet::<uk90::TicketKey>::bytes_for(keys)
            }
            Spec::Us80 => crate::dedup::KeySet::<us80::Key80>::bytes_for(keys),
            Spec::Items(_) => crate::dedup::KeySet::<items::ItemsKey>::bytes_for(keys),
        }
    }

    /// The game's fixed facts.
    pub fn facts(self) -> &'static Facts {
        match self {
            Spec::Us75 { .. } => &us75::facts::FACTS,
            Spec::Uk90 { .. } => &uk90::facts::FACTS,
            Spec::Us80 => &us80::FACTS,
            Spec::Tickets90 { .. } => &uk90::tickets::FACTS,
            Spec::Items(deck) => deck.facts(),
        }
    }

    /// The game `--game NAME` names, with its default parameters.
    pub fn named(game: &str) -> Option<Spec> {
        Spec::choose(game, None, false).ok()
    }

    /// Whether the original 128-byte v3 header can describe the game (it
    /// knows only 75-ball cards).
    pub fn fits_v3(self) -> bool {
        matches!(self, Spec::Us75 { .. })
    }

    /// The number of face `t` (from 0) of record `record` (from 1): the
    /// card number, or the ticket number of a strip.
    pub fn face_number(self, record: u64, t: usize) -> u64 {
        (record - 1) * self.faces() as u64 + t as u64 + 1
    }

    /// The record (from 1) holding face number `face` (from 1), and the
    /// face's place in it (from 0).
    pub fn record_of(self, face: u64) -> (u64, usize) {
        let faces = self.faces() as u64;
        ((face - 1) / faces + 1, ((face - 1) % faces) as usize)
    }

    /// The game's short name: `75-ball`.
    pub fn short_name(self) -> &'static str {
        self.facts().short_name
    }
}

#[cfg(test)]
mod tests;
