//! The 128-byte header, in bingomint's native layout and in the original
//! generator's v3 layout. All integers are little-endian.
//!
//! Native layout (format version 2; version 1 is read too):
//!
//! | offset | size | field |
//! |-------:|-----:|-------|
//! | 0 | 8 | magic `BINGOMNT` |
//! | 8 | 2 | format version (2) |
//! | 10 | 1 | game (75 = US 75-ball) |
//! | 11 | 1 | rule set (0 = standard) |
//! | 12 | 4 | flags (bit 0: cards carry a star) |
//! | 16 | 8 | card count |
//! | 24 | 4 | record size in bytes |
//! | 28 | 4 | records offset (128 + the block table) |
//! | 32 | 8 | master seed |
//! | 40 | 4 | creation date, yyyymmdd |
//! | 44 | 4 | drawing algorithm version |
//! | 48 | 8 | cards redrawn as duplicates |
//! | 56 | 16 | tool version, ASCII, NUL-padded |
//! | 72 | 8 | XXH3-64 of the block table (version 1: of all record bytes) |
//! | 80 | 4 | records a block (version 2; version 1: zero) |
//! | 84 | 4 | version 3 and 5: provenance bytes P; 4: item-list bytes (else zero) |
//! | 88 | 8 | the first face's number (zero: 1; version 3 and 5: never zero) |
//! | 96 | 8 | version 3 to 5: XXH3-64 of the provenance or list (else zero) |
//! | 104 | 16 | version 6: shard I (4), of N (4), the stock's count (8); else zero |
//! | 120 | 8 | XXH3-64 of header bytes 0–119 |
//!
//! Version 2 seals the records in blocks of [`BLOCK`] records: the block
//! table, from byte 128 to the records, holds the XXH3-64 of each block's
//! bytes (the last block may be shorter), so damage is named by the cards it
//! touches, and one card is checked by hashing its block alone.
//!
//! Version 3 is an imported file ([`Import`]): no seed, no algorithm; the
//! provenance (JSON, [`Provenance`]) sits between the header and the block
//! table, and faces are numbered from the source's first face number.
//! Version 5 is an imported file whose provenance keeps the serials as
//! printed ([`Serials`]: a prefix, zero padding, gaps between numbers).
//!
//! Version 6 is a minted shard of a stock (`generate --shard I/N`, see
//! `pipeline::shard`): as version 2, with the shard at byte 104; its cards
//! come from streams of the seed mixed with I and N.
//!
//! A minted file numbered from a face other than 1 (`generate
//! --first-serial`, a series continued) holds that number at byte 88; at 1
//! the bytes are zero, as they always were.
//!
//! v3 layout: int32 version = 3 (offset 0), number of cards (4), records
//! offset = 128 (8), record size = 25 (12), creation date yyyymmdd (16), the
//! rest zero.

use super::serials::Serials;
use crate::game::us75::StarRule;
use crate::game::Spec;
use xxhash_rust::xxh3::xxh3_64;

pub use super::date::{source_date_epoch, today, yyyymmdd, SourceDateEpochError};

/// Size of either header.
pub const HEADER_SIZE: usize = 128;
/// The native header's first eight bytes.
pub const MAGIC: &[u8; 8] = b"BINGOMNT";
/// The native format version this build writes for minted files (it reads
/// 1 to 3; 3 is an imported file).
pub const NATIVE_VERSION: u16 = 2;
/// The native format version of an imported file.
pub const IMPORTED_VERSION: u16 = 3;
/// The native format version of an items file (its list follows the
/// header).
pub const ITEMS_VERSION: u16 = 4;
/// The native format version of an imported file that keeps its serials
/// as printed (a prefix, padding, gaps).
pub const SERIALS_VERSION: u16 = 5;
/// The native format version of a minted shard of a stock.
pub const SHARD_VERSION: u16 = 6;
/// The highest first face number a file may carry.
pub const MAX_FIRST_FACE: u64 = 1 << 50;
/// The most item-list bytes an items file carries.
pub const MAX_ITEM_LIST: u32 = 1 << 20;
/// The most provenance bytes an imported file carries.
pub const MAX_PROVENANCE: u32 = 1 << 16;
/// Records a checksum block holds in the files this build writes.
pub const BLOCK: u32 = 64;
/// The most records a block may hold in a file this build reads.
const MAX_BLOCK: u32 = 1 << 20;

/// Which layout a file uses (`generate --file-format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileFormat {
    /// bingomint's own layout, with provenance and checksums.
    Native,
    /// The original generator's layout: no checksum, no seed.
    V3,
}

/// A decoded header. Fields the v3 layout lacks are `None`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub format: FileFormat,
    /// The game and its parameters (a v3 file's star is not recorded:
    /// [`StarRule::Any`]).
    pub spec: Spec,
    pub count: u64,
    pub record_size: u32,
    pub records_at: u32,
    /// yyyymmdd.
    pub created: u32,
    pub seed: Option<u64>,
    pub algorithm: Option<u32>,
    pub redrawn: Option<u64>,
    pub tool_version: Option<String>,
    /// Format version 2: XXH3-64 of the block table; version 1: of every
    /// record byte; v3: none.
    pub records_checksum: Option<u64>,
    /// Records a checksum block holds (native format version 2); None for
    /// version 1 and v3, which keep no block table.
    pub block: Option<u32>,
    /// The first face's number: 1, a series continued, or an imported
    /// file's own; the faces run on from it one by one, unless the import's
    /// serials say otherwise.
    pub first_face: u64,
    /// An imported file's provenance and numbering (native format version 3).
    pub import: Option<Import>,
    /// The shard of a stock this file is (native format version 6).
    pub shard: Option<ShardMark>,
}

/// A minted file's place in a stock made in shards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardMark {
    /// I, from 1.
    pub index: u32,
    /// N.
    pub of: u32,
    /// The whole stock's count, of all N shards.
    pub stock: u64,
}

/// Where an imported file's faces came from, and how they are numbered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Import {
    /// The provenance as stored: JSON of a [`Provenance`].
    pub provenance: Vec<u8>,
    /// The serials as printed (format version 5), decoded from the
    /// provenance; None when the faces run on one by one.
    pub serials: Option<Serials>,
}

/// What `import` records about its source.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Provenance {
    /// The source file's name, as given.
    pub source: String,
    /// SHA-256 of the source file's bytes, hex.
    pub sha256: String,
    /// The source's layout as read: `csv (a card a row, cells column by column)`.
    pub layout: String,
    /// Where the face numbers came from: `column 'card'` or `order in the file`.
    pub numbering: String,
    /// The rules the faces were judged by: `strict` or `loose`.
    pub rules: String,
    /// Faces that do not meet every rule of their game (loose imports).
    pub breaking: u64,
    /// The serials as printed, when they are more than numbers one after
    /// another (format version 5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub serials: Option<Serials>,
}

impl Import {
    /// The provenance, decoded.
    pub fn provenance(&self) -> Option<Provenance> {
        serde_json::from_slice(&self.provenance).ok()
    }

    /// The provenance in one line, as `verify` prints it.
    pub fn describe(&self) -> String {
        match self.provenance() {
            Some(p) => format!(
                "imported from '{}' (sha256 {}), faces numbered {} ({})",
                p.source,
                p.sha256,
                (self.serials.as_ref()).map_or("one after another".into(), |s| s.describe()),
                p.numbering
            ),
            None => "imported (the provenance cannot be read)".into(),
        }
    }
}

/// A header that could not be decoded; the text says why.
#[derive(Debug, PartialEq, Eq)]
pub enum HeaderError {
    /// Not a header of either layout.
    Unrecognised(String),
    /// A recognised layout with values this version cannot read.
    Unsupported(String),
    /// A recognised layout with values no valid file has (damage or forgery).
    Damaged(String),
}

/// The bytes of the block table for `count` records sealed in blocks of
/// `block`; None when that overflows.
pub fn table_len(count: u64, block: u32) -> Option<u64> {
    count.div_ceil(u64::from(block.max(1))).checked_mul(8)
}

impl Header {
    /// The format line `info` prints: the layout and its version.
    pub fn format_text(&self) -> String {
        let noun = self.spec.noun();
        match (self.format, self.block) {
            (FileFormat::Native, Some(block)) if self.import.is_some() => {
                let (kept, version) = match self.serials() {
                    Some(_) => (", serials as printed", SERIALS_VERSION),
                    None => ("", IMPORTED_VERSION),
                };
                format!(
                    "native, imported{kept} (bingomint format {version}: a checksum every {block} {noun}s)"
                )
            }
            (FileFormat::Native, Some(block)) if self.spec.items().is_some() => format!(
                "native, with its item list (bingomint format 4: a checksum every {block} {noun}s)"
            ),
            (FileFormat::Native, Some(block)) if self.shard.is_some() => {
                let s = self.shard.expect("a shard");
                format!(
                    "native, shard {}/{} of a stock of {} {noun}s (bingomint format 6: a checksum every {block} {noun}s)",
                    s.index, s.of, s.stock
                )
            }
            (FileFormat::Native, Some(block)) => {
                format!("native (bingomint format 2: a checksum every {block} {noun}s)")
            }
            (FileFormat::Native, None) => {
                "native (bingomint format 1: one checksum for all records)".into()
            }
            (FileFormat::V3, _) => {
                "v3 (the original generator's layout: no seed, no checksums)".into()
            }
        }
    }

    /// Where the block table starts: after the header and, in an imported
    /// file, the provenance.
    pub fn table_at(&self) -> usize {
        HEADER_SIZE + self.front_len()
    }

    /// The bytes between the header and the block table: an imported
    /// file's provenance, or an items file's list.
    pub fn front_len(&self) -> usize {
        self.import.as_ref().map_or(0, |i| i.provenance.len())
            + self.spec.items().map_or(0, |d| d.stored().len())
    }

    /// Total file size the header describes; None when it overflows (a
    /// forged or damaged header).
    pub fn file_size(&self) -> Option<u64> {
        self.count
            .checked_mul(u64::from(self.record_size))?
            .checked_add(u64::from(self.records_at))
    }

    /// Encodes the header in its format's layout.
    pub fn encode(&self) -> [u8; HEADER_SIZE] {
        let mut b = [0u8; HEADER_SIZE];
        match self.format {
            FileFormat::V3 => {
                put(&mut b, 0, &3i32.to_le_bytes());
                put(&mut b, 4, &(self.count as i32).to_le_bytes());
                put(&mut b, 8, &(self.records_at as i32).to_le_bytes());
                put(&mut b, 12, &(self.record_size as i32).to_le_bytes());
                put(&mut b, 16, &(self.created as i32).to_le_bytes());
            }
            FileFormat::Native => {
                put(&mut b, 0, MAGIC);
                // Version 1 headers are encoded only to test reading them.
                let version: u16 = match (&self.import, self.block) {
                    (Some(i), _) if i.serials.is_some() => SERIALS_VERSION,
                    (Some(_), _) => IMPORTED_VERSION,
                    (None, _) if self.spec.items().is_some() => ITEMS_VERSION,
                    (None, Some(_)) if self.shard.is_some() => SHARD_VERSION,
                    (None, Some(_)) => 2,
                    (None, None) => 1,
                };
                put(&mut b, 8, &version.to_le_bytes());
                let (game, rules, flags) = self.spec.header_fields();
                b[10] = game;
                b[11] = rules;
                put(&mut b, 12, &flags.to_le_bytes());
                put(&mut b, 16, &self.count.to_le_bytes());
                put(&mut b, 24, &self.record_size.to_le_bytes());
                put(&mut b, 28, &self.records_at.to_le_bytes());
                put(&mut b, 32, &self.seed.unwrap_or(0).to_le_bytes());
                put(&mut b, 40, &self.created.to_le_bytes());
                put(&mut b, 44, &self.algorithm.unwrap_or(0).to_le_bytes());
                put(&mut b, 48, &self.redrawn.unwrap_or(0).to_le_bytes());
                let version = self.tool_version.as_deref().unwrap_or("").as_bytes();
                let n = version.len().min(16);
                put(&mut b, 56, &version[..n]);
                put(
                    &mut b,
                    72,
                    &self.records_checksum.unwrap_or(0).to_le_bytes(),
                );
                put(&mut b, 80, &self.block.unwrap_or(0).to_le_bytes());
                if self.import.is_some() || self.first_face > 1 {
                    put(&mut b, 88, &self.first_face.to_le_bytes());
                }
                if let Some(import) = &self.import {
                    put(&mut b, 84, &(import.provenance.len() as u32).to_le_bytes());
                    put(&mut b, 96, &xxh3_64(&import.provenance).to_le_bytes());
                }
                if let Some(shard) = &self.shard {
                    put(&mut b, 104, &shard.index.to_le_bytes());
                    put(&mut b, 108, &shard.of.to_le_bytes());
                    put(&mut b, 112, &shard.stock.to_le_bytes());
                }
                if let Some(deck) = self.spec.items() {
                    put(&mut b, 84, &(deck.stored().len() as u32).to_le_bytes());
                    put(&mut b, 96, &xxh3_64(deck.stored()).to_le_bytes());
                }
                let sum = xxh3_64(&b[..120]);
                put(&mut b, 120, &sum.to_le_bytes());
            }
        }
        b
    }

    /// Decodes a header. Returns the header and, for the native layout,
    /// whether its own checksum matches (v3 headers have none: `None`).
    pub fn decode(b: &[u8]) -> Result<(Header, Option<bool>), HeaderError> {
        if b.len() < HEADER_SIZE {
            let why = format!(
                "{} bytes, shorter than the {HEADER_SIZE}-byte header",
                b.len()
            );
            return Err(if truncated_header(b) {
                HeaderError::Damaged(format!("truncated: {why}"))
            } else {
                HeaderError::Unrecognised(why)
            });
        }
        if &b[..8] == MAGIC {
            decode_native(b)
        } else if i32_at(b, 0) == 3 && i32_at(b, 8) == 128 && i32_at(b, 12) == 25 {
            decode_v3(b)
        } else {
            Err(HeaderError::Unrecognised(
                "no bingomint magic and no v3 header (an unfinished or foreign file)".into(),
            ))
        }
    }
}

/// Whether `b`, shorter than a header, begins as a header of either layout
/// does: the start of a card file cut short.
fn truncated_header(b: &[u8]) -> bool {
    let native = MAGIC.starts_with(b) || b.starts_with(MAGIC);
    // The v3 header's fixed fields: 3 at 0, 128 at 8, 25 at 12.
    let mut v3 = [0u8; 16];
    v3[0] = 3;
    v3[8] = 128;
    v3[12] = 25;
    let fixed = |i: usize| !(4..8).contains(&i);
    let v3 = b.len() >= 4
        && b.iter()
            .take(16)
            .enumerate()
            .all(|(i, &x)| !fixed(i) || x == v3[i]);
    !b.is_empty() && (native || v3)
}

fn decode_native(b: &[u8]) -> Result<(Header, Option<bool>), HeaderError> {
    let version = u16::from_le_bytes([b[8], b[9]]);
    let checksum_ok = xxh3_64(&b[..120]) == u64_at(b, 120);
    let known = 1..=SHARD_VERSION;
    if !known.contains(&version) && !checksum_ok {
        return Err(HeaderError::Damaged(format!(
            "the header's checksum does not match, and its format version reads {version}"
        )));
    }
    if !known.contains(&version) {
        return Err(HeaderError::Unsupported(format!(
            "native format version {version}; this bingomint reads versions 1 to {SHARD_VERSION}"
        )));
    }
    let (spec, import) = decode_front(version, b)?;
    let records_at = u32_at(b, 28);
    let record_size = u32_at(b, 24);
    if (records_at as usize) < HEADER_SIZE || record_size as usize != spec.record_size() {
        return Err(HeaderError::Damaged(format!(
            "records offset {records_at} / record size {record_size} are impossible \
             (a {} record is {} bytes)",
            spec.noun(),
            spec.record_size()
        )));
    }
    let count = u64_at(b, 16);
    let block = match (version, u32_at(b, 80)) {
        (1, 0) => None,
        (2..=SHARD_VERSION, block @ 1..=MAX_BLOCK) => Some(block),
        (_, block) => {
            return Err(HeaderError::Damaged(format!(
                "{block} records a checksum block is impossible in format version {version}"
            )))
        }
    };
    let table_at = HEADER_SIZE as u64
        + import.as_ref().map_or(0, |i| i.provenance.len() as u64)
        + spec.items().map_or(0, |d| d.stored().len() as u64);
    let expected_at = match block {
        None => Some(table_at),
        Some(block) => table_len(count, block).and_then(|t| t.checked_add(table_at)),
    };
    if expected_at != Some(u64::from(records_at)) {
        return Err(HeaderError::Damaged(format!(
            "records offset {records_at} does not fit {count} records and their block table"
        )));
    }
    let faces = count.saturating_mul(spec.faces() as u64);
    let shard = numbering::shard_of(b, version, count)?;
    let first_face = numbering::first_face_of(b, version, import.as_ref(), faces)?;
    let version_bytes = &b[56..72];
    let end = version_bytes.iter().position(|&c| c == 0).unwrap_or(16);
    let header = Header {
        format: FileFormat::Native,
        spec,
        count,
        record_size,
        records_at,
        created: u32_at(b, 40),
        seed: import.is_none().then(|| u64_at(b, 32)),
        algorithm: import.is_none().then(|| u32_at(b, 44)),
        redrawn: import.is_none().then(|| u64_at(b, 48)),
        tool_version: Some(String::from_utf8_lossy(&version_bytes[..end]).into_owned()),
        records_checksum: Some(u64_at(b, 72)),
        block,
        first_face,
        import,
        shard,
    };
    Ok((header, Some(checksum_ok)))
}

fn decode_v3(b: &[u8]) -> Result<(Header, Option<bool>), HeaderError> {
    if b[20..HEADER_SIZE].iter().any(|&x| x != 0) {
        return Err(HeaderError::Damaged(
            "v3 header bytes 20-127 are not zero".into(),
        ));
    }
    let count = i32_at(b, 4);
    if count < 0 {
        return Err(HeaderError::Damaged(format!(
            "v3 header has a negative card count ({count})"
        )));
    }
    let header = Header {
        format: FileFormat::V3,
        spec: Spec::Us75 {
            star: StarRule::Any,
        },
        count: count as u64,
        record_size: 25,
        records_at: 128,
        created: i32_at(b, 16) as u32,
        seed: None,
        algorithm: None,
        redrawn: None,
        tool_version: None,
        records_checksum: None,
        block: None,
        first_face: 1,
        import: None,
        shard: None,
    };
    Ok((header, None))
}

fn put(b: &mut [u8], at: usize, bytes: &[u8]) {
    b[at..at + bytes.len()].copy_from_slice(bytes);
}

fn i32_at(b: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

/// The game of a native header of format `version`, and what sits
/// between it and the block table: an imported file's provenance (format
/// 3), or an items file's list (format 4).
fn decode_front(version: u16, b: &[u8]) -> Result<(Spec, Option<Import>), HeaderError> {
    match version {
        ITEMS_VERSION => Ok((decode_items(b)?, None)),
        _ => {
            let spec = Spec::from_header(b[10], b[11], u32_at(b, 12))
                .map_err(|e| HeaderError::Damaged(e.to_string()))?;
            let import = matches!(version, IMPORTED_VERSION | SERIALS_VERSION)
                .then(|| decode_import(b, version == SERIALS_VERSION))
                .transpose()?;
            Ok((spec, import))
        }
    }
}

/// An items file's game: the shape in the header, the list after it.
fn decode_items(b: &[u8]) -> Result<Spec, HeaderError> {
    let len = u32_at(b, 84);
    if b[10] != crate::game::ITEMS_BYTE || len == 0 || len > MAX_ITEM_LIST {
        return Err(HeaderError::Damaged(format!(
            "an items file's header gives game {} and {len} item-list bytes",
            b[10]
        )));
    }
    let stored = b
        .get(HEADER_SIZE..HEADER_SIZE + len as usize)
        .ok_or_else(|| HeaderError::Damaged("truncated inside its item list".into()))?;
    if xxh3_64(stored) != u64_at(b, 96) {
        return Err(HeaderError::Damaged(
            "the item list (bytes after the header) fails its checksum".into(),
        ));
    }
    let (rows, cols) = (usize::from(b[11] >> 4), usize::from(b[11] & 15));
    crate::game::items::Deck::from_stored(rows, cols, u32_at(b, 12), stored)
        .map_err(HeaderError::Damaged)
}

/// An imported file's provenance (after the header) and, in format
/// version 5 (`serials`), its serials as printed.
fn decode_import(b: &[u8], serials: bool) -> Result<Import, HeaderError> {
    let len = u32_at(b, 84);
    if len == 0 || len > MAX_PROVENANCE {
        return Err(HeaderError::Damaged(format!(
            "an imported file's header gives {len} provenance bytes"
        )));
    }
    let end = HEADER_SIZE + len as usize;
    let provenance = b
        .get(HEADER_SIZE..end)
        .ok_or_else(|| HeaderError::Damaged("truncated inside its provenance".into()))?;
    if xxh3_64(provenance) != u64_at(b, 96) {
        return Err(HeaderError::Damaged(
            "the provenance (bytes after the header) fails its checksum".into(),
        ));
    }
    let kept = match serde_json::from_slice::<Provenance>(provenance) {
        Ok(p) => p.serials,
        Err(_) if !serials => None,
        Err(e) => {
            return Err(HeaderError::Damaged(format!(
                "the provenance cannot be read ({e})"
            )))
        }
    };
    if kept.is_some() != serials {
        return Err(HeaderError::Damaged(format!(
            "format version {} with{} serials in its provenance",
            if serials {
                SERIALS_VERSION
            } else {
                IMPORTED_VERSION
            },
            if serials { "out" } else { "" }
        )));
    }
    Ok(Import {
        provenance: provenance.to_vec(),
        serials: kept,
    })
}

mod numbering;
#[cfg(test)]
mod tests;
