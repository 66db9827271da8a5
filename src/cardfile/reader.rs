//! Reading a card file: the whole file is mapped read-only, the header is
//! decoded and the file's size checked against it, and any card is then one
//! slice away.

use super::header::{Header, HeaderError, HEADER_SIZE};
use super::FileError;
use memmap2::Mmap;
use std::fs::File;
use std::path::Path;
use xxhash_rust::xxh3::Xxh3;

/// An open, structurally sound card file.
pub struct CardFile {
    path: String,
    map: Bytes,
    header: Header,
    header_ok: Option<bool>,
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
        let file = File::open(path).map_err(read_err)?;
        let len = file.metadata().map_err(read_err)?.len();
        if len < HEADER_SIZE as u64 {
            return Err(too_short(name, len));
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
        if bytes.len() < HEADER_SIZE {
            return Err(too_short(name.to_string(), bytes.len() as u64));
        }
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

    /// Card `n` (1-based), if the file has it.
    pub fn record(&self, n: u64) -> Option<&[u8]> {
        if n == 0 || n > self.header.count {
            return None;
        }
        let size = self.header.record_size as usize;
        let at = (n as usize - 1) * size;
        Some(&self.records()[at..at + size])
    }

    /// Whether the records match the header's checksum (None for v3, which
    /// has none).
    pub fn records_ok(&self) -> Option<bool> {
        let expected = self.header.records_checksum?;
        Some(records_checksum(self.records()) == expected)
    }
}

fn too_short(path: String, len: u64) -> FileError {
    FileError::NotACardFile {
        path,
        why: format!("{len} bytes, shorter than the {HEADER_SIZE}-byte header"),
    }
}

/// XXH3-64 of the record bytes, as stored at header offset 72.
pub fn records_checksum(records: &[u8]) -> u64 {
    let mut hasher = Xxh3::new();
    // Feed in large slices: the streaming API is fast on big inputs.
    for part in records.chunks(1 << 22) {
        hasher.update(part);
    }
    hasher.digest()
}
