//! The card file: a 128-byte header, then fixed-size records, card `n`
//! (1-based) at `records_at + (n - 1) × record_size`.
//!
//! Two header layouts are read and written: bingomint's native one (magic,
//! provenance, checksums, then a table of block checksums; see `FORMAT.md`) and the original generator's v3
//! layout (75-ball only, no checksum). [`header`] encodes and decodes them,
//! [`writer`] makes a temporary file (records written, header and block
//! table through a map) and publishes it
//! atomically (and [`writer::write_text`] does the same for text outputs),
//! [`reader`] maps a file read-only. What a record holds is the game's
//! business ([`crate::game::Spec`]); the header stores the spec.

pub mod date;
pub mod header;
pub mod reader;
pub mod serials;
pub mod writer;

pub use header::{FileFormat, Header, HEADER_SIZE};
pub use reader::{CardFile, Integrity};
pub use writer::CardWriter;

/// Problems with a card file on disk. `verify` answers 1 (a bad card file)
/// for all but [`FileError::Read`] and [`FileError::Unsupported`], for which
/// it exits 2 (nothing it can check); every other command exits 2 for any
/// of them.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file could not be opened or mapped.
    #[error("cannot read '{path}'")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// The path is not a regular file (`kind`: a directory, a character
    /// device, …).
    #[error("'{path}' is {kind}, not a card file")]
    NotRegular { path: String, kind: &'static str },
    /// Neither a native nor a v3 header.
    #[error("'{path}' is not a card file: {why}")]
    NotACardFile { path: String, why: String },
    /// The header is readable but describes something this version cannot read.
    #[error("'{path}': {why}")]
    Unsupported { path: String, why: String },
    /// The header holds what no valid file holds: the file is damaged.
    #[error("'{path}' is damaged: {why}")]
    Damaged { path: String, why: String },
    /// Cards changed since the file was written (their checksums no longer
    /// match).
    #[error(
        "'{path}' is damaged: {noun}s {cards} fail their checksum (changed since the \
         file was written)"
    )]
    DamagedCards {
        path: String,
        /// What a record is: card or strip.
        noun: &'static str,
        /// The damaged runs, `4097-4160, 9985`.
        cards: String,
    },
    /// The file is shorter or longer than its header says.
    #[error(
        "'{path}' is {actual} bytes but its header describes {expected} bytes \
         ({count} cards): the file is truncated or damaged"
    )]
    SizeMismatch {
        path: String,
        expected: u64,
        actual: u64,
        count: u64,
    },
}

/// Drops the pages of `map[range]` (rounded inwards to whole pages) from
/// this process's memory. For a shared file mapping this only unmaps them:
/// their contents stay in the page cache (written pages are still written
/// to the file) and come back if read again.
pub(crate) fn release_pages(map: &[u8], range: std::ops::Range<usize>) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let base = map.as_ptr() as usize;
        let from = (base + range.start).next_multiple_of(PAGE);
        let to = (base + range.end) / PAGE * PAGE;
        if to > from {
            // SAFETY: whole pages inside a live shared file mapping;
            // DONTNEED only drops this process's page-table entries for
            // them, never their contents (see above).
            unsafe {
                libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_DONTNEED);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (map, range);
}
