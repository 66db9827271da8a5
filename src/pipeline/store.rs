//! Where minted cards go: card `i` (0-based) into slot `i` of a [`Store`].
//!
//! Two stores: [`Records`], fixed-size records in a card file's memory map
//! (each card encoded by its game as it is placed), and a `Vec` of values
//! (boards, kept whole with everything the draw said about them, for the
//! renderer). The pipeline splits a store into [`Part`]s, one per chunk, so
//! chunks fill their slots in parallel.

use crate::game::Game;

/// Slots for `len()` cards.
pub trait Store<C>: Send {
    /// A run of consecutive slots that one thread fills.
    type Part<'a>: Part<C>
    where
        Self: 'a;
    /// How many slots.
    fn len(&self) -> usize;
    /// Whether there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The slots in runs of `per` (the last may be shorter).
    fn parts(&mut self, per: usize) -> Vec<Self::Part<'_>>;
    /// Puts `card` into slot `index` (0-based).
    fn put(&mut self, index: usize, card: C);
}

/// A run of slots; `put(j, …)` fills its j-th.
pub trait Part<C>: Send {
    /// How many slots.
    fn len(&self) -> usize;
    /// Whether there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Puts `card` into slot `j` of this run.
    fn put(&mut self, j: usize, card: C);
}

/// Cards as values in memory.
impl<C: Send> Store<C> for Vec<C> {
    type Part<'a>
        = &'a mut [C]
    where
        C: 'a;

    fn len(&self) -> usize {
        self.as_slice().len()
    }

    fn parts(&mut self, per: usize) -> Vec<&mut [C]> {
        self.chunks_mut(per).collect()
    }

    fn put(&mut self, index: usize, card: C) {
        self[index] = card;
    }
}

impl<C: Send> Part<C> for &mut [C] {
    fn len(&self) -> usize {
        <[C]>::len(self)
    }

    fn put(&mut self, j: usize, card: C) {
        self[j] = card;
    }
}

/// Cards encoded into fixed-size records (a card file's record area).
pub struct Records<'a, G> {
    game: &'a G,
    bytes: &'a mut [u8],
    size: usize,
}

impl<'a, G: Game> Records<'a, G> {
    /// The records in `bytes`, a whole number of `game`'s records.
    pub fn new(game: &'a G, bytes: &'a mut [u8]) -> Records<'a, G> {
        let size = game.spec().record_size();
        debug_assert_eq!(bytes.len() % size, 0);
        Records { game, bytes, size }
    }
}

impl<G: Game> Store<G::Card> for Records<'_, G> {
    type Part<'b>
        = Records<'b, G>
    where
        Self: 'b;

    fn len(&self) -> usize {
        self.bytes.len() / self.size
    }

    fn parts(&mut self, per: usize) -> Vec<Records<'_, G>> {
        let (game, size) = (self.game, self.size);
        self.bytes
            .chunks_mut(per * size)
            .map(|bytes| Records { game, bytes, size })
            .collect()
    }

    #[inline]
    fn put(&mut self, index: usize, card: G::Card) {
        // The size from the game, not the field: a constant once inlined.
        let size = self.game.spec().record_size();
        let at = index * size;
        self.game.encode(&card, &mut self.bytes[at..at + size]);
    }
}

impl<G: Game> Part<G::Card> for Records<'_, G> {
    fn len(&self) -> usize {
        self.bytes.len() / self.size
    }

    #[inline]
    fn put(&mut self, j: usize, card: G::Card) {
        Store::put(self, j, card);
    }
}
