//! Reading a card file: the whole file is mapped read-only, the header is
//! decoded and the file's size checked against it, and any card is then one
//! slice away. [`CardFile::integrity`] checks a range of cards against the
//! block checksums; [`CardFile::require_sound`] is that check for commands
//! that use the cards.

use super::header::{Header, HeaderError, HEADER_SIZE};
use super::FileError;
use memmap2::Mmap;
use rayon::prelude::*;
use std::fs::File;
use std::ops::RangeInclusive;
use std::path::Path;
use xxhash_rust::xxh3::{xxh3_64, Xxh3};

/// What the checksums say of a range of cards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Integrity {
    /// The layout keeps no checksum (v3).
    Unchecked,
    /// Every record checked matches its checksum.
    Intact,
    /// Records changed since the file was written: the runs of cards whose
    /// checksum block no longer matches, ascending. A version-1 file keeps
    /// one checksum for all records and names them all; so does a damaged
    /// block table whose entries all match (the damage cannot be placed).
    Damaged(Vec<RangeInclusive<u64>>),
}

impl Integrity {
    /// How many cards the damaged runs cover.
    pub fn damaged_cards(&self) -> u64 {
        match self {
            Integrity::Damaged(runs) => runs.iter().map(|r| r.end() - r.start() + 1).sum(),
            _ => 0,
        }
    }

    /// The damaged runs as text, the first `shown` of them: `4097-4160,
    /// 9985` (and "… and N more runs").
    pub fn describe(&self, shown: usize) -> String {
        let Integrity::Damaged(runs) = self else {
            return String::new();
        };
        let mut text: Vec<String> = runs
            .iter()
            .take(shown)
            .map(|r| {
                if r.start() == r.end() {
                    r.start().to_string()
                } else {
                    format!("{}-{}", r.start(), r.end())
                }
            })
            .collect();
        if runs.len() > shown {
            text.push(format!("… and {} more runs", runs.len() - shown));
        }
        text.join(", ")
    }
}

/// An open, structurally sound card file.
pub struct CardFile {
    path: String,
    map: Bytes,
    header: Header,
    header_ok: Option<bool>,
    /// Whether the block table matches the header's records checksum,
    /// worked out once (None: the file has no block table).
    table_ok: std::sync::OnceLock<Option<bool>>,
}

/// A card file's bytes: mapped from disk, or held in memory.
enum Bytes {
    Mapped(Mmap),
    Owned(Vec<u8>),
}

impl std::ops::Deref for Bytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Mapped(map) => map,
            Bytes::Owned(bytes) => bytes,
        }
    }
}

impl CardFile {
    /// Opens and maps `path`, decodes its header and checks that the file
    /// holds exactly the records the header announces.
    pub fn open(path: &Path) -> Result<CardFile, FileError> {
        let name = path.display().to_string();
        let read_err = |source| FileError::Read {
            path: name.clone(),
            source,
        };
        // A card file is mapped, its size known from its header: a
        // directory, device or pipe is refused before anything is read.
        if let Some(kind) = crate::input::irregular(path) {
            return Err(FileError::NotRegular { path: name, kind });
        }
        let mut file = File::open(path).map_err(read_err)?;
        let len = file.metadata().map_err(read_err)?.len();
        if len < HEADER_SIZE as u64 {
            // Too short to map usefully: read what there is, to tell a cut
            // card file from something else.
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut file, &mut bytes).map_err(read_err)?;
            return CardFile::checked(name, Bytes::Owned(bytes));
        }
        // SAFETY: the map is read-only. Another process truncating the file
        // while it is mapped could fault the reads; card files are written
        // once under a temporary name and renamed into place, never modified
        // in place, so this only happens if a user truncates a file while
        // bingomint reads it.
        let map = unsafe { Mmap::map(&file) }.map_err(read_err)?;
        CardFile::checked(name, Bytes::Mapped(map))
    }

    /// A card file held in memory (`name` names it in messages), checked as
    /// [`CardFile::open`] checks one on disk.
    pub fn from_bytes(name: &str, bytes: Vec<u8>) -> Result<CardFile, FileError> {
        CardFile::checked(name.to_string(), Bytes::Owned(bytes))
    }

    /// Decodes the header of `map` and checks the size it announces.
    fn checked(name: String, map: Bytes) -> Result<CardFile, FileError> {
        let len = map.len() as u64;
        let (header, header_ok) = Header::decode(&map).map_err(|e| match e {
            HeaderError::Unrecognised(why) => FileError::NotACardFile {
                path: name.clone(),
                why,
            },
            HeaderError::Unsupported(why) => FileError::Unsupported {
                path: name.clone(),
                why,
            },
            HeaderError::Damaged(why) => FileError::Damaged {
                path: name.clone(),
                why,
            },
        })?;
        if header.file_size() != Some(len) {
            return Err(FileError::SizeMismatch {
                path: name,
                expected: header.file_size().unwrap_or(u64::MAX),
                actual: len,
                count: header.count,
            });
        }
        Ok(CardFile {
            path: name,
            map,
            header,
            header_ok,
            table_ok: std::sync::OnceLock::new(),
        })
    }

    /// Opens a card file whose header must be intact (for commands that
    /// trust its fields).
    pub fn open_intact(path: &Path) -> Result<CardFile, FileError> {
        let file = CardFile::open(path)?;
        file.require_intact_header()?;
        Ok(file)
    }

    /// The path as given.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The decoded header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Whether the native header's own checksum matches (None for v3).
    pub fn header_ok(&self) -> Option<bool> {
        self.header_ok
    }

    /// Fails unless the header is intact, for commands that trust its fields.
    pub fn require_intact_header(&self) -> Result<(), FileError> {
        if self.header_ok == Some(false) {
            return Err(FileError::Damaged {
                path: self.path.clone(),
                why: "the header's checksum does not match \
                      (run `bingomint verify` for details)"
                    .into(),
            });
        }
        Ok(())
    }

    /// All record bytes.
    pub fn records(&self) -> &[u8] {
        &self.map[self.header.records_at as usize..]
    }

    /// Lets the operating system drop the file's pages from this process's
    /// memory (they stay in the page cache, and come back if read again):
    /// for a command done reading the records, such as `print` once it holds
    /// the faces.
    pub fn release_pages(&self) {
        #[cfg(target_os = "linux")]
        if let Bytes::Mapped(map) = &self.map {
            // SAFETY: a read-only file mapping owned by `self`; DONTNEED
            // only discards this process's copies of clean file pages,
            // which later reads fault in again with the same contents.
            unsafe {
                libc::madvise(
                    map.as_ptr() as *mut libc::c_void,
                    map.len(),
                    libc::MADV_DONTNEED,
                );
            }
        }
    }

    /// Like [`CardFile::release_pages`] for record bytes `range` only: for
    /// a pass over a file larger than the memory budget.
    pub fn release_records(&self, range: std::ops::Range<usize>) {
        if let Bytes::Mapped(map) = &self.map {
            let at = self.header.records_at as usize;
            super::release_pages(map, at + range.start..at + range.end);
        }
    }

    /// The file's short id: 8 characters (Crockford base32) derived from
    /// its contents, stable, printed on faces and in references
    /// (`bingomint:ID:card:N`) so that a face leads back to its file. A
    /// Record `n`'s name as people read it: the face number of a card or
    /// ticket (an imported file's own numbering), a strip's record number.
    pub fn record_name(&self, n: u64) -> u64 {
        let h = &self.header;
        if h.spec.faces() == 1 {
            h.face_number(n, 0)
        } else {
            n
        }
    }

    /// native file's id comes from its header checksum (which covers the
    /// records' checksum); a v3 file's from a hash of all its bytes.
    pub fn short_id(&self) -> String {
        const DIGITS: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
        let hash = match self.header.format {
            super::FileFormat::Native => {
                u64::from_le_bytes(self.map[120..128].try_into().expect("8 bytes"))
            }
            super::FileFormat::V3 => records_checksum(&self.map),
        };
        (0..8)
            .map(|i| DIGITS[(hash >> (59 - 5 * i) & 31) as usize] as char)
            .collect()
    }

    /// Whether the block table matches its checksum (None: no table).
    fn table_ok(&self) -> Option<bool> {
        *self.table_ok.get_or_init(|| {
            let (table, expected) = (self.table()?, self.header.records_checksum?);
            Some(xxh3_64(table) == expected)
        })
    }

    /// The block table (format version 2), one XXH3-64 a block.
    fn table(&self) -> Option<&[u8]> {
        self.header.block?;
        Some(&self.map[self.header.table_at()..self.header.records_at as usize])
    }

    /// Checks `cards` (1-based, inclusive, within the file) against the
    /// records' checksums, hashing the blocks that hold them in parallel on
    /// the current rayon pool.
    pub fn integrity(&self, cards: RangeInclusive<u64>) -> Integrity {
        let h = &self.header;
        let Some(expected) = h.records_checksum else {
            return Integrity::Unchecked;
        };
        let (first, last) = (*cards.start().max(&1), *cards.end().min(&h.count));
        if first > last {
            return Integrity::Intact;
        }
        let everything = || Integrity::Damaged(vec![1..=h.count]);
        let Some(table) = self.table() else {
            // Version 1: one checksum for every record.
            return if records_checksum(self.records()) == expected {
                Integrity::Intact
            } else {
                everything()
            };
        };
        let table_ok = self.table_ok() != Some(false);
        let block = u64::from(h.block.unwrap_or(1));
        let size = h.record_size as usize;
        let blocks = (first - 1) / block..=(last - 1) / block;
        let bad: Vec<u64> = blocks
            .into_par_iter()
            .filter(|&b| {
                let start = (b * block) as usize * size;
                let end = (((b + 1) * block).min(h.count)) as usize * size;
                let stored = u64::from_le_bytes(
                    table[b as usize * 8..b as usize * 8 + 8]
                        .try_into()
                        .unwrap(),
                );
                xxh3_64(&self.records()[start..end]) != stored
            })
            .collect();
        if bad.is_empty() {
            return if table_ok {
                Integrity::Intact
            } else {
                everything()
            };
        }
        // Runs of consecutive damaged blocks, as card numbers.
        let mut runs: Vec<RangeInclusive<u64>> = Vec::new();
        for b in bad {
            let (from, to) = (b * block + 1, ((b + 1) * block).min(h.count));
            match runs.last_mut() {
                Some(run) if *run.end() + 1 == from => *run = *run.start()..=to,
                _ => runs.push(from..=to),
            }
        }
        Integrity::Damaged(runs)
    }

    /// Fails, naming the damaged cards, unless `cards` match their
    /// checksums: for commands that use the cards (show, export, print,
    /// `--exclude`). A layout without checksums passes.
    pub fn require_sound(&self, cards: RangeInclusive<u64>) -> Result<(), FileError> {
        if self.table_ok() == Some(false) {
            return Err(FileError::Damaged {
                path: self.path.clone(),
                why: "the block table (the records' checksums) does not match its own \
                      checksum, so no card can be vouched for"
                    .into(),
            });
        }
        match self.integrity(cards) {
            damage @ Integrity::Damaged(_) => Err(FileError::DamagedCards {
                path: self.path.clone(),
                noun: self.header.spec.noun(),
                cards: damage.describe(5),
            }),
            _ => Ok(()),
        }
    }

    /// [`CardFile::require_sound`] for every card, a stretch of 2²⁰ cards
    /// at a time, each stretch's pages let go once checked: memory stays
    /// flat however large the file.
    pub fn require_sound_all(&self) -> Result<(), FileError> {
        self.require_sound_flat(1..=self.header.count)
    }

    /// [`CardFile::require_sound`] for `cards`, a stretch of 2²⁰ cards at a
    /// time, each stretch's pages let go once checked.
    pub fn require_sound_flat(&self, cards: RangeInclusive<u64>) -> Result<(), FileError> {
        const STRETCH: u64 = 1 << 20;
        let size = self.header.spec.record_size();
        let (start, end) = (*cards.start(), *cards.end());
        for first in (start..=end).step_by(STRETCH as usize) {
            let last = (first + STRETCH - 1).min(end);
            self.require_sound(first..=last)?;
            self.release_records((first - 1) as usize * size..last as usize * size);
        }
        Ok(())
    }

    /// Card `n` (1-based), if the file has it.
    pub fn record(&self, n: u64) -> Option<&[u8]> {
        if n == 0 || n > self.header.count {
            return None;
        }
        let size = self.header.record_size as usize;
        let at = (n as usize - 1) * size;
        Some(&self.records()[at..at + size])
    }
}

/// Seals `records` in blocks of `span` bytes: each block's XXH3-64 into
/// its 8-byte entry of `table` (in parallel when there are many blocks; a
/// chunk's thousand or so stay on the calling thread).
pub fn seal_blocks(records: &[u8], span: usize, table: &mut [u8]) {
    table
        .par_chunks_mut(8)
        .zip(records.par_chunks(span))
        .with_min_len(1024)
        .for_each(|(entry, block)| entry.copy_from_slice(&xxh3_64(block).to_le_bytes()));
}

/// XXH3-64 of all record bytes: a version-1 file's records checksum.
pub fn records_checksum(records: &[u8]) -> u64 {
    let mut hasher = Xxh3::new();
    // Feed in large slices: the streaming API is fast on big inputs.
    for part in records.chunks(1 << 22) {
        hasher.update(part);
    }
    hasher.digest()
}
