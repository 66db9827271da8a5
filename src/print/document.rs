//! The PDF's objects: the catalog with its PDF/X output intent and the
//! document info, the embedded fonts, a form and a resource dictionary per
//! ink, then the pages, built and compressed in parallel batches and written
//! in order, and a file id hashed from what the document holds.

use super::face::{face_size, repeated};
use super::font::Font;
use super::{form_name, page, Fonts, Ink, Items, Plan, PrintError, F_BOLD, F_REGULAR};
use crate::pipeline::Progress;
use pdf_writer::types::{OutputIntentSubtype, TrappingStatus};
use pdf_writer::{Date, Filter, Finish, Name, Pdf, Rect, Ref, TextStr};
use rayon::prelude::*;
use std::ops::Range;

/// The numbers of a document's objects: catalog, page tree, info, the two
/// fonts (each five objects), a form and a resource dictionary per ink,
/// then each page followed by its content stream.
struct Refs {
    catalog: Ref,
    tree: Ref,
    info: Ref,
    regular: Ref,
    bold: Ref,
    forms: Vec<Ref>,
    resources: Vec<Ref>,
    pages: Vec<Ref>,
}

impl Refs {
    fn new(inks: usize, pages: usize) -> Refs {
        let inks = inks as i32;
        let first_page = 14 + 2 * inks;
        Refs {
            catalog: Ref::new(1),
            tree: Ref::new(2),
            info: Ref::new(3),
            regular: Ref::new(4),
            bold: Ref::new(9),
            forms: (0..inks).map(|k| Ref::new(14 + k)).collect(),
            resources: (0..inks).map(|k| Ref::new(14 + inks + k)).collect(),
            pages: (0..pages as i32)
                .map(|i| Ref::new(first_page + 2 * i))
                .collect(),
        }
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
        Ok(Fonts {
            regular,
            bold,
            numbers,
        })
    }
}

/// Builds the PDF of sheets `sheets` of `plan` (one output file): the
/// catalog and info, the fonts, a form per ink, then the pages.
pub fn document(
    plan: &Plan,
    items: &Items,
    sheets: Range<u64>,
    progress: &dyn Progress,
) -> Result<Vec<u8>, PrintError> {
    let fonts = Fonts::new(plan)?;
    let pages = (sheets.end - sheets.start) as usize;
    let inks = plan.inks();
    let refs = Refs::new(inks.len(), pages);
    // Room for 4 KB a page, far more than a page takes: address space only
    // (pages of it never written are never resident), and the document is
    // never copied to a larger buffer.
    let mut pdf = Pdf::with_capacity(pages * 4096 + (1 << 20));
    pdf.set_version(1, 3);
    let title = catalog_and_info(&mut pdf, plan, &refs);
    fonts.regular.write(&mut pdf, refs.regular);
    fonts.bold.write(&mut pdf, refs.bold);
    forms(&mut pdf, plan, &fonts, &inks, &refs);
    // The file id: a hash of what the document holds.
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    hasher.update(title.as_bytes());
    hasher.update(&sheets.start.to_le_bytes());
    write_pages(
        &mut pdf,
        plan,
        items,
        sheets,
        &fonts,
        &refs,
        progress,
        &mut hasher,
    );
    let id = hasher.digest128().to_le_bytes().to_vec();
    pdf.set_file_id((id.clone(), id));
    Ok(pdf.finish())
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
        .kids(refs.pages.iter().copied())
        .count(refs.pages.len() as i32);
    let (y, mo, d, hh, mi, s) = o.date;
    let date = Date::new(y)
        .month(mo)
        .day(d)
        .hour(hh)
        .minute(mi)
        .second(s)
        .utc_offset_hour(0)
        .utc_offset_minute(0);
    let title = format!(
        "{} {}s {}-{} of file {} ({})",
        plan.spec.short_name(),
        plan.spec.noun(),
        o.range.start(),
        o.range.end(),
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
        f.resources()
            .fonts()
            .pair(F_REGULAR, refs.regular)
            .pair(F_BOLD, refs.bold);
        f.finish();
    }
    for (k, &r) in refs.resources.iter().enumerate() {
        let mut res = pdf.indirect(r).start::<pdf_writer::writers::Resources>();
        res.fonts()
            .pair(F_REGULAR, refs.regular)
            .pair(F_BOLD, refs.bold);
        res.x_objects()
            .pair(Name(form_name(k).as_bytes()), refs.forms[k]);
        res.finish();
    }
}

/// The pages, built and compressed in parallel batches and written in
/// order, so only a batch of contents is held besides the document; each
/// content is added to `hasher`.
#[allow(clippy::too_many_arguments)]
fn write_pages(
    pdf: &mut Pdf,
    plan: &Plan,
    items: &Items,
    sheets: Range<u64>,
    fonts: &Fonts,
    refs: &Refs,
    progress: &dyn Progress,
    hasher: &mut xxhash_rust::xxh3::Xxh3,
) {
    let o = &plan.options;
    let (w, h) = o.paper;
    let slug = o.bleed + if o.marks { 18.0 } else { 0.0 };
    let media = Rect::new(0.0, 0.0, w + 2.0 * slug, h + 2.0 * slug);
    let trim = Rect::new(slug, slug, slug + w, slug + h);
    let bleed = Rect::new(
        slug - o.bleed,
        slug - o.bleed,
        slug + w + o.bleed,
        slug + h + o.bleed,
    );
    const BATCH: u64 = 1024;
    let mut at = sheets.start;
    while at < sheets.end {
        let batch = at..(at + BATCH).min(sheets.end);
        let contents: Vec<Vec<u8>> = batch
            .clone()
            .into_par_iter()
            .map(|sheet| {
                let page = page(plan, items, sheet, fonts, slug);
                progress.advance(1);
                deflate(&page)
            })
            .collect();
        for (sheet, content) in batch.clone().zip(&contents) {
            let page_ref = refs.pages[(sheet - sheets.start) as usize];
            let content_ref = Ref::new(page_ref.get() + 1);
            // Every page carries its own boxes and resources (nothing
            // inherited: some prepress tools read pages on their own); the
            // resources are one shared dictionary per ink, referred to.
            let mut page = pdf.page(page_ref);
            page.parent(refs.tree)
                .media_box(media)
                .trim_box(trim)
                .bleed_box(bleed)
                .contents(content_ref);
            page.pair(Name(b"Resources"), refs.resources[plan.ink_index(sheet)]);
            page.finish();
            pdf.stream(content_ref, content).filter(Filter::FlateDecode);
            hasher.update(content);
        }
        at = batch.end;
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
