//! The writing pass: the kept faces again, sealed in blocks into a
//! temporary file, then the header with the provenance; published whole.

use super::judge::Judged;
use super::read::{self, Layout};
use super::{ImportError, Options, Source};
use crate::cardfile::header::{table_len, today, Import, BLOCK};
use crate::cardfile::writer::{io_err, write_out};
use crate::cardfile::{CardWriter, FileFormat, Header, HEADER_SIZE};
use crate::game::{Spec, Text, Visit};
use xxhash_rust::xxh3::xxh3_64;

/// Pass 2.
pub(super) struct Write<'a> {
    pub(super) source: &'a Source<'a>,
    pub(super) options: &'a Options<'a>,
    pub(super) layout: Layout,
    pub(super) judged: &'a Judged,
    pub(super) spec: Spec,
    pub(super) provenance: Vec<u8>,
}

impl Visit for Write<'_> {
    type Out = Result<(), ImportError>;

    fn visit<G: Text>(self, game: &G) -> Result<(), ImportError> {
        let Write {
            source,
            options,
            layout,
            judged,
            spec,
            provenance,
        } = self;
        let size = spec.record_size() as u64;
        let records = judged.kept / spec.faces() as u64;
        let table = table_len(records, BLOCK).expect("bounded by the source");
        let table_at = HEADER_SIZE as u64 + provenance.len() as u64;
        let records_at = table_at + table;
        let mut writer = CardWriter::create(
            options.out,
            records_at,
            records_at + records * size,
            options.force,
        )?;
        let (front, file) = writer.table_and_file();
        front[..provenance.len()].copy_from_slice(&provenance);
        let mut sealer = Sealer {
            sums: &mut front[provenance.len()..],
            file,
            at: records_at,
            block: 0,
            block_bytes: BLOCK as usize * size as usize,
            buffer: Vec::new(),
            out: options.out,
        };
        let mut record = vec![0u8; game.spec().record_size()];
        let (mut index, mut dropped) = (0u64, 0usize);
        read::read(source, layout, &mut |item| {
            let i = index;
            index += 1;
            if judged.dropped.get(dropped) == Some(&i) {
                dropped += 1;
                return Ok(());
            }
            game.encode_faces(&[item.face], &mut record);
            sealer.push(&record, source)
        })?;
        sealer.flush(true, source)?;
        if sealer.at != records_at + records * size {
            return Err(source.not_cards("it changed while it was being imported"));
        }
        let (sums, _) = writer.table_and_file();
        let checksum = xxh3_64(&sums[provenance.len()..]);
        let header = Header {
            format: FileFormat::Native,
            spec,
            count: records,
            record_size: size as u32,
            records_at: records_at as u32,
            created: today()?,
            seed: None,
            algorithm: None,
            redrawn: None,
            tool_version: Some(env!("CARGO_PKG_VERSION").to_string()),
            records_checksum: Some(checksum),
            block: Some(BLOCK),
            first_face: judged.first_face,
            import: Some(Import {
                provenance,
                serials: judged.serials.clone(),
            }),
            shard: None,
        };
        writer.finish(&header.encode())?;
        Ok(())
    }
}

/// Records on their way to the file: written a run of whole blocks at a
/// time, each block's checksum put in the table.
struct Sealer<'a> {
    sums: &'a mut [u8],
    file: &'a std::fs::File,
    /// Where the next byte goes.
    at: u64,
    /// The next block's index.
    block: usize,
    block_bytes: usize,
    buffer: Vec<u8>,
    out: &'a std::path::Path,
}

impl Sealer<'_> {
    /// Blocks written at once.
    const RUN: usize = 64;

    fn push(&mut self, record: &[u8], source: &Source) -> Result<(), ImportError> {
        self.buffer.extend_from_slice(record);
        if self.buffer.len() >= self.block_bytes * Self::RUN {
            self.flush(false, source)?;
        }
        Ok(())
    }

    /// Writes the whole blocks held (`all`: and the last, short one).
    fn flush(&mut self, all: bool, source: &Source) -> Result<(), ImportError> {
        let whole = match all {
            true => self.buffer.len(),
            false => self.buffer.len() / self.block_bytes * self.block_bytes,
        };
        for chunk in self.buffer[..whole].chunks(self.block_bytes) {
            let Some(slot) = self.sums.get_mut(8 * self.block..8 * self.block + 8) else {
                return Err(source.not_cards("it changed while it was being imported"));
            };
            slot.copy_from_slice(&xxh3_64(chunk).to_le_bytes());
            self.block += 1;
        }
        write_out(self.file, &self.buffer[..whole], self.at)
            .map_err(io_err("cannot write", self.out))?;
        self.at += whole as u64;
        self.buffer.drain(..whole);
        Ok(())
    }
}
