//! Where minted cards go: card `i` (0-based) into slot `i` of a [`Store`].
//!
//! Three stores: [`Records`], fixed-size records in memory (each card
//! encoded by its game as it is placed); [`Written`], the records of a card
//! file, each part encoded into a buffer of its own, sealed and written with
//! one `pwrite` when it is done; and a `Vec` of values (boards, kept whole
//! with everything the draw said about them, for the renderer). The
//! pipeline splits a store into [`Part`]s, one per chunk, so chunks fill
//! their slots in parallel, and tells each part when it is full
//! ([`Part::done`]).

use crate::cardfile::reader::seal_blocks;
use crate::cardfile::writer::write_out;
use crate::game::Game;
use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::sync::Mutex;

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
    /// Every slot is filled: a part that buffers its cards writes them now.
    fn done(&mut self) {}
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

/// A card file's records, written rather than mapped: a part encodes its
/// cards into a buffer of its own (a chunk of records, in a core's cache),
/// seals its blocks there and writes the buffer with one `pwrite` when
/// [`Part::done`]. No page of the record area is ever mapped, faulted or
/// unmapped; the kernel copies each buffer into the page cache while the
/// other cores draw. A card put into the store itself (a repair) is written
/// on its own and its block sealed again in [`Written::finish`].
///
/// A write that fails is kept and returned by [`Written::finish`]: the run
/// goes on, but the file is never published.
pub struct Written<'a, G> {
    game: &'a G,
    file: &'a File,
    /// Where record 0 starts in the file.
    at: u64,
    count: usize,
    /// The block table and the records per block, when the records are sealed.
    table: Option<(&'a mut [u8], usize)>,
    buffers: Mutex<Vec<Vec<u8>>>,
    error: Mutex<Option<io::Error>>,
    /// Records written one at a time: their blocks are sealed again.
    rewritten: Vec<usize>,
}

impl<'a, G: Game> Written<'a, G> {
    /// `count` records of `game` in `file` from byte `at`; `table` is the
    /// block table to fill, with the records each block seals.
    pub fn new(
        game: &'a G,
        file: &'a File,
        at: u64,
        count: usize,
        table: Option<(&'a mut [u8], usize)>,
    ) -> Written<'a, G> {
        Written {
            game,
            file,
            at,
            count,
            table,
            buffers: Mutex::new(Vec::new()),
            error: Mutex::new(None),
            rewritten: Vec::new(),
        }
    }

    /// Seals again the blocks of the records written one at a time, and
    /// returns the first write that failed, if any.
    pub fn finish(mut self) -> io::Result<()> {
        if let Some(error) = self.error.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(error);
        }
        let size = self.game.spec().record_size();
        if let Some((table, block)) = &mut self.table {
            let mut blocks: Vec<usize> = self.rewritten.iter().map(|i| i / *block).collect();
            blocks.sort_unstable();
            blocks.dedup();
            let mut bytes = Vec::new();
            for b in blocks {
                let records = (self.count - b * *block).min(*block);
                bytes.resize(records * size, 0);
                self.file
                    .read_exact_at(&mut bytes, self.at + (b * *block * size) as u64)?;
                seal_blocks(&bytes, bytes.len(), &mut table[b * 8..b * 8 + 8]);
            }
        }
        Ok(())
    }
}

/// Keeps the first error of many.
fn keep(error: &Mutex<Option<io::Error>>, e: io::Error) {
    error
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert(e);
}

impl<G: Game> Store<G::Card> for Written<'_, G> {
    type Part<'b>
        = WrittenPart<'b, G>
    where
        Self: 'b;

    fn len(&self) -> usize {
        self.count
    }

    fn parts(&mut self, per: usize) -> Vec<WrittenPart<'_, G>> {
        let size = self.game.spec().record_size();
        let (game, file, count) = (self.game, self.file, self.count);
        let (buffers, error) = (&self.buffers, &self.error);
        // Each part's entries of the block table.
        let mut tables = self.table.as_mut().map(|(table, block)| {
            assert_eq!(per % *block, 0, "parts hold whole blocks");
            let block = *block;
            table.chunks_mut(per / block * 8).map(move |t| (t, block))
        });
        (0..count.div_ceil(per))
            .map(|p| WrittenPart {
                game,
                file,
                at: self.at + (p * per * size) as u64,
                len: per.min(count - p * per),
                table: tables.as_mut().and_then(Iterator::next),
                buffers,
                error,
                buffer: Vec::new(),
            })
            .collect()
    }

    fn put(&mut self, index: usize, card: G::Card) {
        let size = self.game.spec().record_size();
        let mut record = vec![0; size];
        self.game.encode(&card, &mut record);
        if let Err(e) = self
            .file
            .write_all_at(&record, self.at + (index * size) as u64)
        {
            keep(&self.error, e);
        }
        self.rewritten.push(index);
    }
}

/// A run of [`Written`]'s records, buffered until [`Part::done`].
pub struct WrittenPart<'a, G> {
    game: &'a G,
    file: &'a File,
    /// Where its first record starts in the file.
    at: u64,
    len: usize,
    /// Its blocks' entries in the table, and the records per block.
    table: Option<(&'a mut [u8], usize)>,
    buffers: &'a Mutex<Vec<Vec<u8>>>,
    error: &'a Mutex<Option<io::Error>>,
    /// Empty until the first card: taken from the pool, given back when done.
    buffer: Vec<u8>,
}

impl<G: Game> WrittenPart<'_, G> {
    #[cold]
    fn take_buffer(&mut self) {
        let size = self.game.spec().record_size();
        let mut buffer = self
            .buffers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop()
            .unwrap_or_default();
        // Every record is put before the buffer is written: a buffer of the
        // right length (all but the last part's) keeps its old bytes.
        buffer.resize(self.len * size, 0);
        self.buffer = buffer;
    }
}

impl<G: Game> Part<G::Card> for WrittenPart<'_, G> {
    fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn put(&mut self, j: usize, card: G::Card) {
        if self.buffer.is_empty() {
            self.take_buffer();
        }
        let size = self.game.spec().record_size();
        let at = j * size;
        self.game.encode(&card, &mut self.buffer[at..at + size]);
    }

    fn done(&mut self) {
        if self.buffer.is_empty() {
            return;
        }
        if let Some((table, block)) = &mut self.table {
            seal_blocks(&self.buffer, *block * self.game.spec().record_size(), table);
        }
        if let Err(e) = write_out(self.file, &self.buffer, self.at) {
            keep(self.error, e);
        }
        let buffer = std::mem::take(&mut self.buffer);
        self.buffers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(buffer);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::us75::{StarRule, Us75};
    use crate::seed::stream;

    /// Fills parts of `per` records, then puts `late` cards into the store
    /// itself, as a repair does.
    fn fill<S: Store<crate::game::us75::Card>>(store: &mut S, per: usize, late: &[usize]) {
        let game = Us75::new(StarRule::On);
        let mut rng = stream(3, 0);
        for mut part in store.parts(per) {
            for j in 0..part.len() {
                part.put(j, game.draw(&mut rng));
            }
            part.done();
        }
        for &i in late {
            store.put(i, game.draw(&mut rng));
        }
    }

    #[test]
    fn written_records_and_their_seals_match_records_in_memory() {
        let game = Us75::new(StarRule::On);
        let (count, block, size) = (1000, 8, 25);
        let late = [0, 17, 999, 18];
        let mut bytes = vec![0u8; count * size];
        fill(&mut Records::new(&game, &mut bytes), 64, &late);
        let mut expected = vec![0u8; count.div_ceil(block) * 8];
        seal_blocks(&bytes, size * block, &mut expected);

        let file = tempfile::tempfile().unwrap();
        let at = 100;
        file.set_len(at + (count * size) as u64).unwrap();
        let mut table = vec![0u8; expected.len()];
        let mut store = Written::new(&game, &file, at, count, Some((&mut table, block)));
        fill(&mut store, 64, &late);
        store.finish().unwrap();
        let mut written = vec![0u8; count * size];
        file.read_exact_at(&mut written, at).unwrap();
        assert!(written == bytes, "the records differ");
        assert_eq!(table, expected);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_failed_write_is_returned_by_finish() {
        let game = Us75::new(StarRule::Off);
        let full = File::options().write(true).open("/dev/full").unwrap();
        let mut store = Written::new(&game, &full, 0, 100, None);
        fill(&mut store, 64, &[]);
        let error = store.finish().unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::StorageFull);
    }
}
