//! Items' pictures on paper. Each is read from the pictures folder (the
//! card file keeps each picture's path as the list gave it and its
//! SHA-256, not its bytes), checked against that SHA-256, decoded (PNG,
//! JPEG, under `game::items::picture`'s limits), flattened onto white, scaled down to at most [`MAX_SIDE`]
//! pixels a side, and turned into CMYK by the plain formula (K = 1 − the
//! largest of R, G, B; no colour management), so the document stays
//! PDF/X-1a. A printer that must match colours exactly supplies CMYK art.

use super::PrintError;
use crate::game::items::{picture, Deck};
use std::path::Path;

/// The longest side a picture keeps, in pixels: 512 is over 600 dpi in
/// a one-inch cell.
pub const MAX_SIDE: u32 = 512;

/// A picture ready for the PDF: CMYK, 8 bits a channel, zlib-compressed.
#[derive(Clone, Debug)]
pub struct Picture {
    pub width: u32,
    pub height: u32,
    pub cmyk: Vec<u8>,
}

/// Each item's picture (ball n at n − 1), read from `dir`; None for an item
/// without one. The error names the item and what to do.
pub fn load(deck: &Deck, dir: &Path) -> Result<Vec<Option<Picture>>, PrintError> {
    deck.list
        .items
        .iter()
        .map(|item| {
            let (Some(image), Some(sha)) = (&item.image, &item.sha256) else {
                return Ok(None);
            };
            let fault = |why: String| PrintError::Picture {
                label: item.label.clone(),
                why,
            };
            let path = dir.join(image);
            let bytes = picture::read(&path).map_err(|why| {
                fault(format!(
                    "{why}: give --pictures, the folder the list was in"
                ))
            })?;
            if crate::text::sha256_hex(&bytes) != *sha {
                return Err(fault(format!(
                    "'{}' is not the picture the cards were made with (its SHA-256 differs)",
                    path.display()
                )));
            }
            decode(&bytes).map(Some).map_err(fault)
        })
        .collect()
}

/// A PNG or JPEG as a [`Picture`].
fn decode(bytes: &[u8]) -> Result<Picture, String> {
    let (width, height, rgb) = picture::rgb(bytes)?;
    let (width, height, rgb) = shrink(width, height, &rgb);
    let cmyk: Vec<u8> = rgb
        .chunks_exact(3)
        .flat_map(|p| to_cmyk(p[0], p[1], p[2]))
        .collect();
    Ok(Picture {
        width,
        height,
        cmyk: miniz_oxide::deflate::compress_to_vec_zlib(&cmyk, 6),
    })
}

/// RGB pixels scaled down (each new pixel the mean of the box it covers)
/// so that neither side exceeds [`MAX_SIDE`].
fn shrink(width: u32, height: u32, rgb: &[u8]) -> (u32, u32, Vec<u8>) {
    let factor = width.max(height).div_ceil(MAX_SIDE).max(1);
    if factor == 1 {
        return (width, height, rgb.to_vec());
    }
    let (w, h) = (width.div_ceil(factor), height.div_ceil(factor));
    let mut out = Vec::with_capacity((w * h * 3) as usize);
    for y in 0..h {
        for x in 0..w {
            let mut sum = [0u32; 3];
            let mut n = 0;
            for sy in y * factor..((y + 1) * factor).min(height) {
                for sx in x * factor..((x + 1) * factor).min(width) {
                    let at = ((sy * width + sx) * 3) as usize;
                    (0..3).for_each(|c| sum[c] += u32::from(rgb[at + c]));
                    n += 1;
                }
            }
            out.extend(sum.map(|s| (s / n) as u8));
        }
    }
    (w, h, out)
}

/// One pixel in CMYK by the plain formula.
fn to_cmyk(r: u8, g: u8, b: u8) -> [u8; 4] {
    let k = 255 - r.max(g).max(b);
    if k == 255 {
        return [0, 0, 0, 255];
    }
    let ink = |v: u8| ((u16::from(255 - v - k) * 255) / u16::from(255 - k)) as u8;
    [ink(r), ink(g), ink(b), k]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_become_plain_cmyk_and_large_pictures_shrink() {
        assert_eq!(to_cmyk(255, 255, 255), [0, 0, 0, 0]);
        assert_eq!(to_cmyk(0, 0, 0), [0, 0, 0, 255]);
        assert_eq!(to_cmyk(255, 0, 0), [0, 255, 255, 0]);
        assert_eq!(to_cmyk(0, 0, 255), [255, 255, 0, 0]);
        let big = vec![200u8; 1030 * 10 * 3];
        let (w, h, rgb) = shrink(1030, 10, &big);
        assert_eq!((w, h), (344, 4));
        assert!(rgb.iter().all(|&v| v == 200));
    }

    #[test]
    fn a_shipped_picture_decodes() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/items/pictures/red.png");
        let picture = decode(&std::fs::read(path).unwrap()).unwrap();
        assert_eq!((picture.width, picture.height), (48, 48));
        assert!(decode(b"GIF89a").is_err());
    }
}
