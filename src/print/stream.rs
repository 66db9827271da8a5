//! A PDF written as it is made: the objects go to the output as they come,
//! their byte offsets kept (8 bytes an object), and the cross-reference
//! table and trailer follow the last one. Memory stays the same for ten
//! pages or ten million.
//!
//! The front matter (catalog, info, fonts, forms) is built as one whole
//! `pdf_writer::Pdf`, whose own cross-reference table gives its objects'
//! offsets; each page and its content stream then come as chunks of one
//! object each.

use pdf_writer::{Chunk, Pdf, Ref};
use std::io::{self, Write};

/// The document being written.
pub(super) struct PdfOut<'a> {
    out: &'a mut dyn Write,
    /// Bytes written so far.
    at: u64,
    /// Each object's offset, by its number (0: not written).
    offsets: Vec<u64>,
}

impl<'a> PdfOut<'a> {
    /// A document of objects numbered 1 to `last`.
    pub(super) fn new(out: &'a mut dyn Write, last: usize) -> PdfOut<'a> {
        PdfOut {
            out,
            at: 0,
            offsets: vec![0; last + 1],
        }
    }

    /// The header and the objects of `pdf`, without its cross-reference
    /// table and trailer.
    pub(super) fn front(&mut self, pdf: Pdf) -> io::Result<()> {
        let bytes = pdf.finish();
        let (body, entries) = split_xref(&bytes).ok_or_else(|| {
            io::Error::other("the PDF library's cross-reference table could not be read")
        })?;
        for (id, offset) in entries {
            if let Some(slot) = self.offsets.get_mut(id) {
                *slot = self.at + offset;
            }
        }
        self.write(body)
    }

    /// Object `id`, the only object of `chunk`.
    pub(super) fn object(&mut self, id: Ref, chunk: &Chunk) -> io::Result<()> {
        self.offsets[id.get() as usize] = self.at;
        self.write(chunk.as_bytes())
    }

    fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.out.write_all(bytes)?;
        self.at += bytes.len() as u64;
        Ok(())
    }

    /// The cross-reference table and the trailer (catalog `root`, document
    /// info `info`, file id `id`).
    pub(super) fn finish(mut self, root: Ref, info: Ref, id: &[u8]) -> io::Result<()> {
        let xref = self.at;
        let mut table = Vec::with_capacity(20 * 4096 + 256);
        write!(
            table,
            "xref\n0 {}\n0000000000 65535 f\r\n",
            self.offsets.len()
        )?;
        for n in 1..self.offsets.len() {
            let offset = self.offsets[n];
            if offset == 0 {
                return Err(io::Error::other(format!("object {n} was never written")));
            }
            write!(table, "{offset:010} 00000 n\r\n")?;
            if table.len() >= 20 * 4096 {
                self.write(&table)?;
                table.clear();
            }
        }
        let hex: String = id.iter().map(|b| format!("{b:02X}")).collect();
        write!(
            table,
            "trailer\n<<\n  /Size {}\n  /Root {} 0 R\n  /Info {} 0 R\n  /ID [<{hex}> <{hex}>]\n>>\n\
             startxref\n{xref}\n%%EOF",
            self.offsets.len(),
            root.get(),
            info.get()
        )?;
        self.write(&table)?;
        self.out.flush()
    }
}

/// Objects' numbers and byte offsets.
type Offsets = Vec<(usize, u64)>;

/// A finished PDF's body (everything before its cross-reference table)
/// and its objects' offsets, read from that table.
fn split_xref(pdf: &[u8]) -> Option<(&[u8], Offsets)> {
    let mark = b"startxref\n";
    let at = pdf.windows(mark.len()).rposition(|w| w == mark)?;
    let tail = std::str::from_utf8(&pdf[at + mark.len()..]).ok()?;
    let xref: usize = tail.lines().next()?.trim().parse().ok()?;
    let table = std::str::from_utf8(pdf.get(xref..at)?).ok()?;
    let mut lines = table.lines();
    if lines.next()? != "xref" {
        return None;
    }
    let mut section = lines.next()?.split_whitespace();
    let first: usize = section.next()?.parse().ok()?;
    let count: usize = section.next()?.parse().ok()?;
    let entries = lines
        .take(count)
        .enumerate()
        .filter_map(|(i, line)| {
            let mut parts = line.split_whitespace();
            let offset: u64 = parts.next()?.parse().ok()?;
            let kind = parts.nth(1)?;
            (kind == "n").then_some((first + i, offset))
        })
        .collect();
    Some((&pdf[..xref], entries))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_streamed_reads_back_object_by_object() {
        let mut pdf = Pdf::new();
        pdf.catalog(Ref::new(1)).pages(Ref::new(2));
        pdf.pages(Ref::new(2)).kids([Ref::new(4)]).count(1);
        pdf.document_info(Ref::new(3))
            .title(pdf_writer::TextStr("t"));
        let mut out = Vec::new();
        let mut w = PdfOut::new(&mut out, 5);
        w.front(pdf).unwrap();
        let mut page = Chunk::new();
        page.page(Ref::new(4))
            .parent(Ref::new(2))
            .media_box(pdf_writer::Rect::new(0.0, 0.0, 100.0, 100.0))
            .contents(Ref::new(5));
        w.object(Ref::new(4), &page).unwrap();
        let mut content = Chunk::new();
        content.stream(Ref::new(5), b"0 0 m 10 10 l S");
        w.object(Ref::new(5), &content).unwrap();
        w.finish(Ref::new(1), Ref::new(3), &[7; 16]).unwrap();
        let doc = lopdf::Document::load_mem(&out).unwrap();
        assert_eq!(doc.get_pages().len(), 1);
        // Every offset in the table points at its object.
        let (body, entries) = split_xref(&out).unwrap();
        assert_eq!(entries.len(), 5);
        for (id, offset) in entries {
            assert!(body[offset as usize..].starts_with(format!("{id} 0 obj").as_bytes()));
        }
    }
}
