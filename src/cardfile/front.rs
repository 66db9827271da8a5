//! What sits between a native header and its block table: an imported
//! file's provenance (format 3), or an items file's list (format 4); and
//! the game the header and those bytes describe together.

use super::header::{
    u32_at, u64_at, HeaderError, Import, HEADER_SIZE, IMPORTED_VERSION, ITEMS_VERSION,
    MAX_ITEM_LIST, MAX_PROVENANCE,
};
use crate::game::Spec;
use xxhash_rust::xxh3::xxh3_64;

/// The game of a native header of format `version`, and an imported
/// file's provenance.
pub(super) fn decode(version: u16, b: &[u8]) -> Result<(Spec, Option<Import>), HeaderError> {
    match version {
        ITEMS_VERSION => Ok((decode_items(b)?, None)),
        _ => {
            let spec = Spec::from_header(b[10], b[11], u32_at(b, 12))
                .map_err(|e| HeaderError::Damaged(e.to_string()))?;
            let import = (version == IMPORTED_VERSION)
                .then(|| decode_import(b))
                .transpose()?;
            Ok((spec, import))
        }
    }
}

/// An items file's game: the shape in the header, the list after it.
fn decode_items(b: &[u8]) -> Result<Spec, HeaderError> {
    let len = u32_at(b, 84);
    if b[10] != crate::game::ITEMS_BYTE || len == 0 || len > MAX_ITEM_LIST || u64_at(b, 88) != 0 {
        return Err(HeaderError::Damaged(format!(
            "an items file's header gives game {}, {len} item-list bytes and first face {}",
            b[10],
            u64_at(b, 88)
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

/// An imported file's provenance (after the header) and first face number.
fn decode_import(b: &[u8]) -> Result<Import, HeaderError> {
    let len = u32_at(b, 84);
    let first_face = u64_at(b, 88);
    if len == 0 || len > MAX_PROVENANCE || first_face == 0 {
        return Err(HeaderError::Damaged(format!(
            "an imported file's header gives {len} provenance bytes and first face {first_face}"
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
    Ok(Import {
        first_face,
        provenance: provenance.to_vec(),
    })
}
