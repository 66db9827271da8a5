//! Items games: cards of words, pictures or songs. A list of N items is a
//! game of N balls, item k being ball k, so a card holds ball numbers and
//! everything that plays numbers (calls, claims, winners, simulation, the
//! hall) plays items unchanged; only what people see shows the labels.
//!
//! A card is `rows` × `cols` (3 to 5 each), with a free centre on odd
//! squares unless `--no-free`. Its items are distinct and drawn uniformly:
//! a partial Fisher–Yates shuffle of the list (Lemire's bounded draws), the
//! first cells-many placed row by row. With `--columns grouped` each column
//! draws from its own group, as B-I-N-G-O columns do; the list is then
//! numbered group by group.
//!
//! The record is the cells row-major, a ball number a byte, 0 at the free
//! cell; the exact key is those bytes.
//!
//! A [`Deck`] (the list and the card's shape) is built once per list a
//! process meets and kept for its life, so [`Spec::Items`] stays a small
//! `Copy` value like the other games' specs.

pub mod list;
pub mod picture;
mod shape;
pub mod text;

use super::facts::{Facts, LabelAt, Paper};
use super::{Face, Game, RuleViolation, Spec, MAX_FACE_CELLS};
use crate::dedup::Keyed;
use crate::seed::{below_u32, Rng};
pub use list::{Item, ItemList, ListError};
use std::hash::{Hash, Hasher};
use std::sync::Mutex;

/// Most cells on a card (5×5).
pub const MAX_CELLS: usize = 25;
/// The fewest and most rows or columns.
pub const SIDES: std::ops::RangeInclusive<usize> = 3..=5;

/// How an items card is made: its shape, free centre, columns, and
/// whether no two cards may share a line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Design {
    pub rows: usize,
    pub cols: usize,
    /// The free centre's text, when the card has one.
    pub free: Option<String>,
    /// Whether each column draws from its own group.
    pub grouped: bool,
    /// Whether no two cards share a whole line (row, column or diagonal,
    /// as a set of items).
    pub distinct_lines: bool,
}

/// An items game's parameters: the list and the card's shape.
#[derive(Debug)]
pub struct Deck {
    pub rows: usize,
    pub cols: usize,
    /// The free centre's text, when the card has one.
    pub free: Option<String>,
    /// Whether each column draws from its own group.
    pub grouped: bool,
    /// Whether no two cards share a line: each line is a key.
    pub distinct_lines: bool,
    /// Each line's cells (row-major indices, the free cell left out),
    /// with `--distinct lines`.
    lines: Vec<Vec<usize>>,
    /// The items, in ball order (group by group when grouped).
    pub list: ItemList,
    /// Grouped: column c draws balls `bounds[c] + 1 ..= bounds[c + 1]`.
    bounds: Vec<u8>,
    /// The list as the card file keeps it.
    stored: Vec<u8>,
    facts: Facts,
}

impl PartialEq for Deck {
    fn eq(&self, other: &Deck) -> bool {
        (
            self.rows,
            self.cols,
            self.grouped,
            self.distinct_lines,
            &self.stored,
        ) == (
            other.rows,
            other.cols,
            other.grouped,
            other.distinct_lines,
            &other.stored,
        )
    }
}

impl Eq for Deck {}

/// What the card file keeps of a deck, after the header: the list's name,
/// the free cell's text and the items.
#[derive(serde::Serialize, serde::Deserialize)]
struct Stored {
    name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    free: Option<String>,
    items: Vec<Item>,
}

/// The decks this process has built, each once.
static DECKS: Mutex<Vec<&'static Deck>> = Mutex::new(Vec::new());

impl Deck {
    /// The game of `list` on cards of `design`. The error says what does
    /// not fit, in words a flag's message can carry.
    pub fn spec(design: Design, list: ItemList) -> Result<Spec, String> {
        let Design {
            rows,
            cols,
            free,
            grouped,
            distinct_lines,
        } = design;
        shape::check(rows, cols, free.as_deref())?;
        list.check()?;
        let (list, bounds) = if grouped {
            shape::grouped(list, rows, cols, free.is_some())?
        } else {
            let cells = rows * cols - usize::from(free.is_some());
            if list.items.len() < cells {
                return Err(format!(
                    "{} items for {cells} cells a card: a {rows}×{cols} card needs at least \
                     {cells} items (add items, or choose a smaller --size)",
                    list.items.len()
                ));
            }
            (list, Vec::new())
        };
        let stored = serde_json::to_vec(&Stored {
            name: list.name.clone(),
            free: free.clone(),
            items: list.items.clone(),
        })
        .expect("a list serialises");
        let facts = shape::facts(rows, cols, free.is_some(), grouped, &list);
        let centre = free.as_ref().map(|_| rows * cols / 2);
        let lines = if distinct_lines {
            shape::lines(rows, cols, centre)
        } else {
            Vec::new()
        };
        let deck = Deck {
            rows,
            cols,
            free,
            grouped,
            distinct_lines,
            lines,
            list,
            bounds,
            stored,
            facts,
        };
        Ok(Spec::Items(Deck::intern(deck)))
    }

    /// The game a card file's header and stored list describe.
    pub fn from_stored(
        rows: usize,
        cols: usize,
        flags: u32,
        stored: &[u8],
    ) -> Result<Spec, String> {
        let free = flags & FLAG_FREE != 0;
        let grouped = flags & FLAG_GROUPED != 0;
        let distinct_lines = flags & FLAG_DISTINCT != 0;
        if flags & !(FLAG_FREE | FLAG_GROUPED | FLAG_DISTINCT) != 0 {
            return Err(format!("unknown flags {flags:#x} in an items header"));
        }
        let Stored {
            name,
            free: text,
            items,
        } = serde_json::from_slice(stored)
            .map_err(|e| format!("the item list after the header cannot be read: {e}"))?;
        if free != text.is_some() {
            return Err("the header's free-cell flag and the item list disagree".into());
        }
        let design = Design {
            rows,
            cols,
            free: text,
            grouped,
            distinct_lines,
        };
        let spec = Deck::spec(design, ItemList { name, items })?;
        if spec.items().is_some_and(|d| d.stored != stored) {
            return Err("the item list is not in the order its groups give".into());
        }
        Ok(spec)
    }

    /// The one deck equal to `deck` this process keeps.
    fn intern(deck: Deck) -> &'static Deck {
        let mut decks = DECKS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&known) = decks.iter().find(|&&d| *d == deck) {
            return known;
        }
        let deck: &'static Deck = Box::leak(Box::new(deck));
        decks.push(deck);
        deck
    }

    /// Exact keys a card has: one, or one a line.
    pub fn keys_per_card(&self) -> usize {
        if self.distinct_lines {
            self.lines.len()
        } else {
            1
        }
    }

    /// What a list that (nearly) fills every card does to a full house, in
    /// words, when its cards hold 90 % or more of its items: every card
    /// then wins a full house at (nearly) the same call.
    pub fn fill_warning(&self) -> Option<String> {
        let cells = (self.rows * self.cols - usize::from(self.free.is_some())) as u64;
        let items = u64::from(self.facts.balls);
        if cells * 10 < items * 9 {
            return None;
        }
        let what = if cells >= items {
            format!("every card holds every one of the {items} items, so a full house is won by every card at the same call")
        } else {
            format!("each card holds {cells} of the {items} items, so a full house ends in a tie of many cards")
        };
        Some(format!(
            "{what}; for a game of a winner, add items (about {} or more) or give a smaller --size",
            cells * 3 / 2
        ))
    }

    /// With `--distinct lines`, the most cards that can share no line: each
    /// card uses its lines' sets of items, and there are only so many sets
    /// of each size (a bound; a run finds fewer).
    pub fn most_cards(&self) -> Option<u64> {
        if !self.distinct_lines {
            return None;
        }
        let n = u64::from(self.facts.balls);
        let choose = |k: u64| -> u64 { (0..k).fold(1u64, |c, i| c * (n - i) / (i + 1)) };
        let mut sizes = std::collections::BTreeMap::new();
        for line in &self.lines {
            *sizes.entry(line.len() as u64).or_insert(0u64) += 1;
        }
        sizes.iter().map(|(&k, &per)| choose(k) / per).min()
    }

    /// The list as the card file keeps it.
    pub fn stored(&self) -> &[u8] {
        &self.stored
    }

    /// The header's rule-set byte (rows, columns) and flags.
    pub fn header_fields(&self) -> (u8, u32) {
        let flags = u32::from(self.free.is_some()) * FLAG_FREE
            + u32::from(self.grouped) * FLAG_GROUPED
            + u32::from(self.distinct_lines) * FLAG_DISTINCT;
        (((self.rows as u8) << 4) | self.cols as u8, flags)
    }

    /// The game's facts.
    pub fn facts(&self) -> &Facts {
        &self.facts
    }

    /// The label of ball `n` (from 1), or the free cell's text for 0.
    pub fn label(&self, n: u8) -> &str {
        match n {
            0 => self.free.as_deref().unwrap_or(""),
            n => &self.list.items[usize::from(n) - 1].label,
        }
    }

    /// The free cell's index, row-major.
    fn free_cell(&self) -> Option<usize> {
        self.free.as_ref().map(|_| self.rows * self.cols / 2)
    }

    /// The balls column `c` draws from (grouped), or all of them.
    pub fn pool(&self, c: usize) -> std::ops::RangeInclusive<u8> {
        match self.bounds.get(c..=c + 1) {
            Some(&[lo, hi]) => lo + 1..=hi,
            _ => 1..=self.facts.balls,
        }
    }

    /// The number of distinct cards: ordered draws of each column's cells
    /// from its group, or of the card's cells from the whole list.
    pub fn count(&self) -> num_bigint::BigUint {
        let draws = |n: usize, k: usize| -> num_bigint::BigUint {
            (n + 1 - k..=n).map(num_bigint::BigUint::from).product()
        };
        let free = self.free_cell();
        if self.grouped {
            (0..self.cols)
                .map(|c| {
                    let need = (0..self.rows)
                        .filter(|&r| Some(r * self.cols + c) != free)
                        .count();
                    draws(self.pool(c).count(), need)
                })
                .product()
        } else {
            draws(
                self.list.items.len(),
                self.rows * self.cols - usize::from(free.is_some()),
            )
        }
    }

    /// The deck in words: `5×5, 75 items of 'words', free centre "FREE"`.
    pub fn describe(&self) -> String {
        format!(
            "{}×{}, {} items of '{}'{}{}{}",
            self.rows,
            self.cols,
            self.list.items.len(),
            self.list.name,
            if self.grouped {
                ", a group a column"
            } else {
                ""
            },
            if self.distinct_lines {
                ", no line shared"
            } else {
                ""
            },
            match &self.free {
                Some(text) => format!(", free centre {text:?}"),
                None => ", no free cell".into(),
            }
        )
    }
}

/// Header flag bit: the card has a free centre.
const FLAG_FREE: u32 = 1;
/// Header flag bit: each column draws from its own group.
const FLAG_GROUPED: u32 = 2;
/// Header flag bit: no two cards share a line.
const FLAG_DISTINCT: u32 = 4;

/// One items card: its cells row-major, 0 at the free cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Card {
    cells: [u8; MAX_CELLS],
}

impl Card {
    /// The ball numbers, row-major (0 at the free cell).
    pub fn cells(&self) -> &[u8; MAX_CELLS] {
        &self.cells
    }
}

/// The exact key of a card: its cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ItemsKey([u8; MAX_CELLS]);

impl Hash for ItemsKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // One `write`: the set's hasher runs XXH3 once.
        state.write(&self.0);
    }
}

/// The items game of one deck.
#[derive(Clone, Copy, Debug)]
pub struct Items {
    deck: &'static Deck,
}

impl Items {
    pub fn new(deck: &'static Deck) -> Items {
        Items { deck }
    }

    /// The deck it draws from.
    pub fn deck(&self) -> &'static Deck {
        self.deck
    }

    /// Draws `out.len()` distinct balls of `pool` into `out`, uniformly and
    /// in random order (a partial Fisher–Yates shuffle of the pool).
    fn draw_from(rng: &mut Rng, pool: std::ops::RangeInclusive<u8>, out: &mut [u8]) {
        let mut balls = IDENTITY;
        let balls = &mut balls[usize::from(*pool.start())..=usize::from(*pool.end())];
        let n = balls.len();
        for (i, cell) in out.iter_mut().enumerate() {
            let j = i + below_u32(rng, (n - i) as u32) as usize;
            balls.swap(i, j);
            *cell = balls[i];
        }
    }
}

/// Every byte, in order: a pool of balls is a slice of it.
const IDENTITY: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = i as u8;
        i += 1;
    }
    t
};

/// A card's keys: its cells, or with `--distinct lines` each line's items
/// (sorted, so a line is the same set wherever it lies).
#[derive(Clone, Debug)]
pub enum Keys {
    Card([ItemsKey; 1]),
    Lines(Vec<ItemsKey>),
}

impl AsRef<[ItemsKey]> for Keys {
    fn as_ref(&self) -> &[ItemsKey] {
        match self {
            Keys::Card(key) => key,
            Keys::Lines(keys) => keys,
        }
    }
}

impl Keyed for Items {
    type Card = Card;
    type Key = ItemsKey;
    type Keys = Keys;

    #[inline]
    fn keys(&self, card: &Card) -> Keys {
        if !self.deck.distinct_lines {
            return Keys::Card([ItemsKey(card.cells)]);
        }
        let keys = self.deck.lines.iter().map(|line| {
            // The line's size leads, so a 4-item line never equals a 5-item one.
            let mut key = [0u8; MAX_CELLS];
            key[0] = line.len() as u8;
            for (slot, &cell) in key[1..].iter_mut().zip(line) {
                *slot = card.cells[cell];
            }
            key[1..=line.len()].sort_unstable();
            ItemsKey(key)
        });
        Keys::Lines(keys.collect())
    }

    fn keys_per_card(&self) -> usize {
        self.deck.keys_per_card()
    }
}

impl Game for Items {
    fn spec(&self) -> Spec {
        Spec::Items(self.deck)
    }

    fn draw(&self, rng: &mut Rng) -> Card {
        let d = self.deck;
        let mut cells = [0u8; MAX_CELLS];
        let free = d.free_cell();
        if d.grouped {
            for c in 0..d.cols {
                let at = |r: usize| r * d.cols + c;
                let need = (0..d.rows).filter(|&r| Some(at(r)) != free).count();
                let mut column = [0u8; 5];
                Items::draw_from(rng, d.pool(c), &mut column[..need]);
                let mut next = column.iter();
                for r in (0..d.rows).filter(|&r| Some(at(r)) != free) {
                    cells[at(r)] = *next.next().expect("one ball a cell");
                }
            }
        } else {
            let n = d.rows * d.cols;
            let mut drawn = [0u8; MAX_CELLS];
            let need = n - usize::from(free.is_some());
            Items::draw_from(rng, d.pool(0), &mut drawn[..need]);
            let mut next = drawn.iter();
            for (i, cell) in cells[..n].iter_mut().enumerate() {
                if Some(i) != free {
                    *cell = *next.next().expect("one ball a cell");
                }
            }
        }
        Card { cells }
    }

    fn encode(&self, card: &Card, record: &mut [u8]) {
        let n = self.deck.rows * self.deck.cols;
        record.copy_from_slice(&card.cells[..n]);
    }

    fn decode(&self, record: &[u8]) -> Result<Card, RuleViolation> {
        let d = self.deck;
        let n = d.rows * d.cols;
        if record.len() != n {
            return Err(RuleViolation(format!(
                "record is {} bytes, expected {n}",
                record.len()
            )));
        }
        let mut cells = [0u8; MAX_CELLS];
        let mut seen = [false; 256];
        for (i, &ball) in record.iter().enumerate() {
            let (r, c) = (i / d.cols + 1, i % d.cols + 1);
            if Some(i) == d.free_cell() {
                if ball != 0 {
                    return Err(RuleViolation(format!(
                        "the free centre holds item {ball}, expected 0"
                    )));
                }
                continue;
            }
            if !d.pool(c - 1).contains(&ball) {
                let pool = d.pool(c - 1);
                return Err(RuleViolation(format!(
                    "row {r} column {c} holds item {ball}, outside {}–{}",
                    pool.start(),
                    pool.end()
                )));
            }
            if std::mem::replace(&mut seen[usize::from(ball)], true) {
                return Err(RuleViolation(format!(
                    "item {ball} ({:?}) is on the card twice",
                    d.label(ball)
                )));
            }
            cells[i] = ball;
        }
        Ok(Card { cells })
    }

    fn face(&self, card: &Card, _face: usize) -> Face {
        let mut face = Face::new(self.deck.rows, self.deck.cols);
        let n = self.deck.rows * self.deck.cols;
        face.cells[..n].copy_from_slice(&card.cells[..n]);
        face
    }

    fn encode_faces(&self, faces: &[Face], record: &mut [u8]) {
        let n = self.deck.rows * self.deck.cols;
        record.copy_from_slice(&faces[0].cells[..n]);
    }

    fn with_spec(spec: Spec) -> Option<Items> {
        match spec {
            Spec::Items(deck) => Some(Items::new(deck)),
            _ => None,
        }
    }
}

const _: () = assert!(MAX_CELLS <= MAX_FACE_CELLS);

/// How an items card sits on paper: as an 80-ball card does.
const PAPER: Paper = Paper {
    layouts: &[1, 2, 3, 4, 6, 8, 9, 12, 16, 20],
    default_layout: 4,
    label_at: LabelAt::Below,
    label: (1.0, 1.9),
    gap: 0.0,
};

#[cfg(test)]
mod tests;
