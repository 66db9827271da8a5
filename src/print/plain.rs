//! A plain PDF of pages of one paper with two fonts (regular and bold),
//! as the calling cards and the table cards are: the document's objects
//! written once here, each page's drawing by its caller.

use super::font::Font;
use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref, TextStr};

/// The regular font's name in a page's content.
pub const F_REGULAR: Name = Name(b"F1");
/// The bold font's name in a page's content.
pub const F_BOLD: Name = Name(b"F2");

/// A PDF titled `title` of `pages` pages of `paper` (points), the fonts
/// `regular` and `bold` named [`F_REGULAR`] and [`F_BOLD`]; `draw(p, g)`
/// draws page `p` (from 0) into `g`.
pub fn document(
    title: &str,
    paper: (f32, f32),
    (regular, bold): (&Font, &Font),
    pages: usize,
    mut draw: impl FnMut(usize, &mut Content),
) -> Vec<u8> {
    let (catalog, tree, info, f_regular, f_bold) = (
        Ref::new(1),
        Ref::new(2),
        Ref::new(3),
        Ref::new(4),
        Ref::new(9),
    );
    let page_ref = |p: usize| Ref::new(14 + 2 * p as i32);
    let mut pdf = Pdf::new();
    pdf.catalog(catalog).pages(tree);
    pdf.pages(tree)
        .kids((0..pages).map(page_ref))
        .count(pages as i32);
    pdf.document_info(info)
        .title(TextStr(title))
        .creator(TextStr("bingomint"))
        .producer(TextStr(concat!("bingomint ", env!("CARGO_PKG_VERSION"))));
    regular.write(&mut pdf, f_regular);
    bold.write(&mut pdf, f_bold);
    for p in 0..pages {
        let mut g = Content::new();
        draw(p, &mut g);
        let content = Ref::new(page_ref(p).get() + 1);
        let mut page = pdf.page(page_ref(p));
        page.parent(tree)
            .media_box(Rect::new(0.0, 0.0, paper.0, paper.1))
            .contents(content);
        page.resources()
            .fonts()
            .pair(F_REGULAR, f_regular)
            .pair(F_BOLD, f_bold);
        page.finish();
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(&g.finish(), 6);
        pdf.stream(content, &packed)
            .filter(pdf_writer::Filter::FlateDecode);
    }
    pdf.finish()
}
