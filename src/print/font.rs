//! The embedded fonts (DejaVu Sans and DejaVu Sans Bold, `data/fonts/`,
//! with their licence): measured with ttf-parser, subset to the glyphs a
//! document uses with subsetter, and written as Type 0 fonts (CIDFontType2,
//! Identity-H) with a ToUnicode map, so text extraction gives the numbers
//! back.

use pdf_writer::types::{CidFontType, FontFlags, SystemInfo};
use pdf_writer::{Chunk, Filter, Finish, Name, Rect, Ref, Str};
use std::collections::BTreeMap;

static REGULAR: &[u8] = include_bytes!("../../data/fonts/DejaVuSans.ttf");
static BOLD: &[u8] = include_bytes!("../../data/fonts/DejaVuSans-Bold.ttf");

/// One font of a document: the characters it draws, their glyphs in the
/// subset, and their widths.
pub struct Font {
    data: &'static [u8],
    /// Original glyph id → id in the subset (= the CID drawn).
    remap: subsetter::GlyphRemapper,
    /// Character → CID.
    cids: BTreeMap<char, u16>,
    /// CID → advance width in thousandths of the font size.
    widths: BTreeMap<u16, f32>,
    pub name: &'static str,
}

impl Font {
    /// The regular face, ready to draw `chars`.
    pub fn regular(chars: &str) -> Result<Font, char> {
        Font::new(REGULAR, "DejaVuSans", chars)
    }

    /// The bold face, ready to draw `chars`.
    pub fn bold(chars: &str) -> Result<Font, char> {
        Font::new(BOLD, "DejaVuSans-Bold", chars)
    }

    /// Fails with the first character of `chars` the font lacks.
    fn new(data: &'static [u8], name: &'static str, chars: &str) -> Result<Font, char> {
        let face = ttf_parser::Face::parse(data, 0).expect("the shipped font parses");
        let scale = 1000.0 / f32::from(face.units_per_em());
        let mut remap = subsetter::GlyphRemapper::new();
        let mut cids = BTreeMap::new();
        let mut widths = BTreeMap::new();
        for c in chars.chars().chain(std::iter::once(' ')) {
            if cids.contains_key(&c) {
                continue;
            }
            let glyph = face.glyph_index(c).ok_or(c)?;
            let cid = remap.remap(glyph.0);
            let advance = f32::from(face.glyph_hor_advance(glyph).unwrap_or(0)) * scale;
            cids.insert(c, cid);
            widths.insert(cid, advance);
        }
        Ok(Font {
            data,
            remap,
            cids,
            widths,
            name,
        })
    }

    /// `text` as the two-byte CIDs a content stream shows. Characters the
    /// font was not prepared for are dropped (callers prepare every one).
    pub fn encode(&self, text: &str) -> Vec<u8> {
        text.chars()
            .filter_map(|c| self.cids.get(&c))
            .flat_map(|cid| cid.to_be_bytes())
            .collect()
    }

    /// The width of `text` at `size` points.
    pub fn width(&self, text: &str, size: f32) -> f32 {
        text.chars()
            .filter_map(|c| self.cids.get(&c))
            .map(|cid| self.widths[cid])
            .sum::<f32>()
            * size
            / 1000.0
    }

    /// Writes the font's objects at `refs` (5 consecutive ids from
    /// `refs`): the Type 0 font (its id is `refs`), the CID font, the
    /// descriptor, the subset font file and the ToUnicode map.
    pub fn write(&self, chunk: &mut Chunk, refs: Ref) {
        let [type0, cid, descriptor, file, to_unicode] =
            [0, 1, 2, 3, 4].map(|i| Ref::new(refs.get() + i));
        // A subset's base font name carries a six-letter tag.
        let tag: String = {
            let mut h = xxhash_rust::xxh3::xxh3_64_with_seed(
                &self.encode(&self.chars()),
                self.name.len() as u64,
            );
            (0..6)
                .map(|_| {
                    let c = (b'A' + (h % 26) as u8) as char;
                    h /= 26;
                    c
                })
                .collect()
        };
        let base = format!("{tag}+{}", self.name);
        chunk
            .type0_font(type0)
            .base_font(Name(base.as_bytes()))
            .encoding_predefined(Name(b"Identity-H"))
            .descendant_font(cid)
            .to_unicode(to_unicode);
        let info = SystemInfo {
            registry: Str(b"Adobe"),
            ordering: Str(b"Identity"),
            supplement: 0,
        };
        let mut font = chunk.cid_font(cid);
        font.subtype(CidFontType::Type2)
            .base_font(Name(base.as_bytes()))
            .system_info(info)
            .font_descriptor(descriptor)
            .default_width(0.0)
            .cid_to_gid_map_predefined(Name(b"Identity"));
        let mut w = font.widths();
        for (&cid, &width) in &self.widths {
            w.consecutive(cid, [width]);
        }
        w.finish();
        font.finish();
        let face = ttf_parser::Face::parse(self.data, 0).expect("the shipped font parses");
        let scale = 1000.0 / f32::from(face.units_per_em());
        let bbox = face.global_bounding_box();
        chunk
            .font_descriptor(descriptor)
            .name(Name(base.as_bytes()))
            .flags(FontFlags::NON_SYMBOLIC)
            .bbox(Rect::new(
                f32::from(bbox.x_min) * scale,
                f32::from(bbox.y_min) * scale,
                f32::from(bbox.x_max) * scale,
                f32::from(bbox.y_max) * scale,
            ))
            .italic_angle(0.0)
            .ascent(f32::from(face.ascender()) * scale)
            .descent(f32::from(face.descender()) * scale)
            .cap_height(f32::from(face.capital_height().unwrap_or(face.ascender())) * scale)
            .stem_v(80.0)
            .font_file2(file);
        let subset =
            subsetter::subset(self.data, 0, &self.remap).expect("the shipped font subsets");
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(&subset, 9);
        chunk
            .stream(file, &packed)
            .filter(Filter::FlateDecode)
            .pair(Name(b"Length1"), subset.len() as i32);
        let mut cmap = pdf_writer::types::UnicodeCmap::new(Name(b"Custom"), info);
        for (&c, &cid) in &self.cids {
            cmap.pair(cid, c);
        }
        let cmap = cmap.finish();
        chunk.cmap(to_unicode, cmap.as_slice()).system_info(info);
    }

    fn chars(&self) -> String {
        self.cids.keys().collect()
    }
}
