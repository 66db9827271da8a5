//! The PDF's objects: the catalog with its PDF/X output intent and the
//! document info, the embedded fonts, a form and a resource dictionary per
//! ink, then the pages, built and compressed in parallel batches and written
//! in order, and a file id hashed from what the document holds.

use super::face::{face_size, repeated};
use super::font::Font;
use super::stream::PdfOut;
use super::{form_name, DocumentError, Fonts, Ink, Items, Plan, PrintError, F_BOLD, F_REGULAR};
use crate::cardfile::CardFile;
use crate::pipeline::Progress;
use pdf_writer::types::{OutputIntentSubtype, TrappingStatus};
use pdf_writer::{Chunk, Date, Filter, Finish, Name, Pdf, Rect, Ref, TextStr};
use rayon::prelude::*;
use std::ops::Range;

/// Pages a node of the page tree holds: the pages of one batch.
const BATCH: u64 = 1024;

/// The numbers of a document's objects: catalog, page tree, info, the two
/// fonts (each five objects), a form and a resource dictionary per ink,
/// then each page followed by its content stream, then the page tree's
/// nodes, one a batch of [`BATCH`] pages.
struct Refs {
    catalog: Ref,
    tree: Ref,
    info: Ref,
    regular: Ref,
    bold: Ref,
    forms: Vec<Ref>,
    resources: Vec<Ref>,
    /// An items game's pictures, one image object each, in ball order.
    images: Vec<Ref>,
    first_page: i32,
    pages: usize,
}

impl Refs {
    fn new(inks: usize, pages: usize, images: usize) -> Refs {
        let inks = inks as i32;
        let images = images as i32;
        Refs {
            catalog: Ref::new(1),
            tree: Ref::new(2),
            info: Ref::new(3),
            regular: Ref::new(4),
            bold: Ref::new(9),
            forms: (0..inks).map(|k| Ref::new(14 + k)).collect(),
            resources: (0..inks).map(|k| Ref::new(14 + inks + k)).collect(),
            images: (0..images).map(|i| Ref::new(14 + 2 * inks + i)).collect(),
            first_page: 14 + 2 * inks + images,
            pages,
        }
    }

    /// Page `i` (from 0) of the document; its content stream is the next.
    fn page(&self, i: usize) -> Ref {
        Ref::new(self.first_page + 2 * i as i32)
    }

    /// The page tree's nodes, one a batch.
    fn nodes(&self) -> usize {
        self.pages.div_ceil(BATCH as usize)
    }

    /// The node of batch `k`.
    fn node(&self, k: usize) -> Ref {
        Ref::new(self.first_page + 2 * self.pages as i32 + k as i32)
    }

    /// The last object's number.
    fn last(&self) -> i32 {
        self.node(self.nodes()).get() - 1
    }
}

impl Fonts {
    /// The two faces, subset to what the plan draws, and every number of
    /// the game ready to show.
    fn new(plan: &Plan) -> Result<Fonts, PrintError> {
        let chars = plan.chars();
        let regular = Font::regular(&chars).map_err(PrintError::MissingGlyph)?;
        let bold = Font::bold(&chars).map_err(PrintError::MissingGlyph)?;
        let numbers = (0..=plan.spec.balls())
            .map(|n: u8| {
                let label = n.to_string();
                (bold.encode(&label), bold.width(&label, 1.0))
            })
            .collect();
        let labels = plan.spec.items().map(|deck| {
            let pictured =
                |n: u8| (plan.pictures.get(usize::from(n) - 1)).is_some_and(Option::is_some);
            super::labels::CardLabels::new(&bold, deck, plan.cell, pictured)
        });
        Ok(Fonts {
            regular,
            bold,
            numbers,
            labels,
        })
    }
}

/// Writes the PDF of sheets `sheets` of `plan` (one output file) to `out`
/// as it is made: the catalog and info, the fonts, a form per ink, then the
/// pages, reading `file`'s records a batch of sheets at a time.
pub fn document(
    plan: &Plan,
    file: &CardFile,
    sheets: Range<u64>,
    progress: &dyn Progress,
    out: &mut dyn std::io::Write,
) -> Result<(), DocumentError> {
    let fonts = Fonts::new(plan)?;
    let pages = (sheets.end - sheets.start) as usize;
    let inks = plan.inks();
    let shown: Vec<usize> = (plan.pictures.iter().enumerate())
        .filter_map(|(i, p)| p.as_ref().map(|_| i))
        .collect();
    let refs = Refs::new(inks.len(), pages, shown.len());
    let mut pdf = Pdf::new();
    pdf.set_version(1, 3);
    let title = catalog_and_info(&mut pdf, plan, &refs);
    fonts.regular.write(&mut pdf, refs.regular);
    fonts.bold.write(&mut pdf, refs.bold);
    forms(&mut pdf, plan, &fonts, &inks, &refs);
    images(&mut pdf, plan, &shown, &refs);
    let mut w = PdfOut::new(out, refs.last() as usize);
    w.front(pdf)?;
    // The file id: a hash of what the document holds.
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    hasher.update(title.as_bytes());
    hasher.update(&sheets.start.to_le_bytes());
    let batch = Batch {
        plan,
        file,
        fonts: &fonts,
        refs: &refs,
    };
    batch.write_pages(&mut w, sheets, progress, &mut hasher)?;
    let id = hasher.digest128().to_le_bytes();
    w.finish(refs.catalog, refs.info, &id)?;
    Ok(())
}

/// The catalog (with the PDF/X output intent), the page tree and the
/// document info; returns the title.
fn catalog_and_info(pdf: &mut Pdf, plan: &Plan, refs: &Refs) -> String {
    let o = &plan.options;
    let mut cat = pdf.catalog(refs.catalog);
    cat.pages(refs.tree);
    cat.output_intents()
        .push()
        .subtype(OutputIntentSubtype::PDFX)
        .output_condition_identifier(TextStr("CGATS TR 001"))
        .registry_name(TextStr("http://www.color.org"))
        .info(TextStr("U.S. Web Coated (SWOP) v2"));
    cat.finish();
    pdf.pages(refs.tree)
        .kids((0..refs.nodes()).map(|k| refs.node(k)))
        .count(refs.pages as i32);
    let (y, mo, d, hh, mi, s) = o.date;
    let date = Date::new(y)
        .month(mo)
        .day(d)
        .hour(hh)
        .minute(mi)
        .second(s)
        .utc_offset_hour(0)
        .utc_offset_minute(0);
    let runs: Vec<String> = (o.range.iter())
        .map(|r| format!("{}-{}", r.start(), r.end()))
        .collect();
    let title = format!(
        "{} {}s {} of file {} ({})",
        plan.spec.short_name(),
        plan.spec.noun(),
        runs.join(","),
        plan.id,
        plan.series
    );
    let mut di = pdf.document_info(refs.info);
    di.title(TextStr(&title))
        .creator(TextStr("bingomint"))
        .producer(TextStr(concat!("bingomint ", env!("CARGO_PKG_VERSION"))))
        .creation_date(date)
        .modified_date(date)
        .trapped(TrappingStatus::NotTrapped);
    di.pair(Name(b"GTS_PDFXVersion"), TextStr("PDF/X-1:2001"));
    di.pair(Name(b"GTS_PDFXConformance"), TextStr("PDF/X-1a:2001"));
    di.finish();
    title
}

/// For each ink, the form every record repeats and the resource
/// dictionary its pages share.
fn forms(pdf: &mut Pdf, plan: &Plan, fonts: &Fonts, inks: &[Ink], refs: &Refs) {
    let (fw, fh) = face_size(plan);
    for (k, &ink) in inks.iter().enumerate() {
        let form_content = repeated(plan, fonts, ink);
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(&form_content, 6);
        let mut f = pdf.form_xobject(refs.forms[k], &packed);
        f.bbox(Rect::new(0.0, 0.0, fw, fh));
        f.filter(Filter::FlateDecode);
        let mut res = f.resources();
        res.fonts()
            .pair(F_REGULAR, refs.regular)
            .pair(F_BOLD, refs.bold);
        spot(&mut res, ink);
        res.finish();
        f.finish();
    }
    for (k, &r) in refs.resources.iter().enumerate() {
        let mut res = pdf.indirect(r).start::<pdf_writer::writers::Resources>();
        res.fonts()
            .pair(F_REGULAR, refs.regular)
            .pair(F_BOLD, refs.bold);
        spot(&mut res, inks[k]);
        let mut x = res.x_objects();
        x.pair(Name(form_name(k).as_bytes()), refs.forms[k]);
        let pictures = (plan.pictures.iter().enumerate()).filter(|(_, p)| p.is_some());
        for ((i, _), &r) in pictures.zip(&refs.images) {
            x.pair(Name(super::face::image_name(i as u8 + 1).as_bytes()), r);
        }
        x.finish();
        res.finish();
    }
}

/// A spot ink's colour space in a resource dictionary: `/Separation`, its
/// colorant named, its process CMYK the alternate (PDF/X-1a allows it).
fn spot(res: &mut pdf_writer::writers::Resources, ink: Ink) {
    let (Some(name), Some(cmyk)) = (ink.spot_name(), ink.process()) else {
        return;
    };
    let mut spaces = res.color_spaces();
    let mut sep = spaces
        .insert(super::ink::SPOT)
        .start::<pdf_writer::writers::ColorSpace>()
        .separation(Name(name.as_bytes()));
    sep.alternate_color_space().device_cmyk();
    sep.tint_exponential()
        .domain([0.0, 1.0])
        .c0([0.0; 4])
        .c1(cmyk)
        .n(1.0);
}

/// An items game's pictures (`shown`: the items that have one), each an
/// image object in CMYK, as its cells draw it.
fn images(pdf: &mut Pdf, plan: &Plan, shown: &[usize], refs: &Refs) {
    for (&i, &r) in shown.iter().zip(&refs.images) {
        let picture = plan.pictures[i]
            .as_ref()
            .expect("shown items have pictures");
        let mut image = pdf.image_xobject(r, &picture.cmyk);
        image.filter(Filter::FlateDecode);
        image.width(picture.width as i32);
        image.height(picture.height as i32);
        image.color_space().device_cmyk();
        image.bits_per_component(8);
        image.finish();
    }
}

/// What every batch of pages draws from.
struct Batch<'a> {
    plan: &'a Plan,
    file: &'a CardFile,
    fonts: &'a Fonts,
    refs: &'a Refs,
}

impl Batch<'_> {
    /// The pages, built and compressed in parallel batches and written in
    /// order, so only a batch of faces and contents is held; each content
    /// is added to `hasher`.
    fn write_pages(
        &self,
        w: &mut PdfOut,
        sheets: Range<u64>,
        progress: &dyn Progress,
        hasher: &mut xxhash_rust::xxh3::Xxh3,
    ) -> Result<(), DocumentError> {
        let Batch {
            plan,
            file,
            fonts,
            refs,
        } = *self;
        let o = &plan.options;
        let (w_, h) = o.paper;
        let slug = o.bleed + if o.marks { super::MARKS_AREA } else { 0.0 };
        let media = Rect::new(0.0, 0.0, w_ + 2.0 * slug, h + 2.0 * slug);
        let trim = Rect::new(slug, slug, slug + w_, slug + h);
        let bleed = Rect::new(
            slug - o.bleed,
            slug - o.bleed,
            slug + w_ + o.bleed,
            slug + h + o.bleed,
        );
        let mut at = sheets.start;
        while at < sheets.end {
            let batch = at..(at + BATCH).min(sheets.end);
            let items = Items::for_sheets(file, plan, batch.clone())?;
            let contents: Vec<Vec<u8>> = batch
                .clone()
                .into_par_iter()
                .map(|sheet| {
                    let page = super::sheet::page(plan, &items, sheet, fonts, slug);
                    progress.advance(1);
                    deflate(&page)
                })
                .collect();
            let first = (batch.start - sheets.start) as usize;
            let node = refs.node(first / BATCH as usize);
            for (sheet, content) in batch.clone().zip(&contents) {
                let page_ref = refs.page((sheet - sheets.start) as usize);
                let content_ref = Ref::new(page_ref.get() + 1);
                // Every page carries its own boxes and resources (nothing
                // inherited: some prepress tools read pages on their own);
                // the resources are one shared dictionary per ink, referred
                // to.
                let mut chunk = Chunk::new();
                let mut page = chunk.page(page_ref);
                page.parent(node)
                    .media_box(media)
                    .trim_box(trim)
                    .bleed_box(bleed)
                    .contents(content_ref);
                page.pair(Name(b"Resources"), refs.resources[plan.ink_index(sheet)]);
                page.finish();
                w.object(page_ref, &chunk)?;
                let mut chunk = Chunk::with_capacity(content.len() + 64);
                chunk
                    .stream(content_ref, content)
                    .filter(Filter::FlateDecode);
                w.object(content_ref, &chunk)?;
                hasher.update(content);
            }
            // The batch's node of the page tree.
            let mut chunk = Chunk::new();
            let kids = (first..first + contents.len()).map(|i| refs.page(i));
            chunk
                .pages(node)
                .parent(refs.tree)
                .kids(kids)
                .count(contents.len() as i32);
            w.object(node, &chunk)?;
            at = batch.end;
        }
        Ok(())
    }
}

/// `data` Flate-compressed (zlib, the fastest level: see BENCHMARKS.md),
/// with one compressor per thread, reset between pages rather than
/// allocated and cleared for each.
fn deflate(data: &[u8]) -> Vec<u8> {
    use miniz_oxide::deflate::core::{
        compress, create_comp_flags_from_zip_params, CompressorOxide, TDEFLFlush, TDEFLStatus,
    };
    thread_local! {
        static COMPRESSOR: std::cell::RefCell<CompressorOxide> =
            std::cell::RefCell::new(CompressorOxide::new(create_comp_flags_from_zip_params(1, 15, 0)));
    }
    COMPRESSOR.with(|cell| {
        let mut c = cell.borrow_mut();
        c.reset();
        let mut out = vec![0; data.len() / 2 + 64];
        let (mut input, mut at) = (data, 0);
        loop {
            let (status, read, written) =
                compress(&mut c, input, &mut out[at..], TDEFLFlush::Finish);
            at += written;
            match status {
                TDEFLStatus::Done => {
                    out.truncate(at);
                    return out;
                }
                TDEFLStatus::Okay => {
                    input = &input[read..];
                    if out.len() - at < 64 {
                        out.resize(out.len() * 2, 0);
                    }
                }
                other => unreachable!("deflate into a growing buffer cannot fail: {other:?}"),
            }
        }
    })
}
