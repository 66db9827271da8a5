//! An item's picture, read and decoded under limits a hostile file cannot
//! pass: a regular file only (not a FIFO or `/dev/zero`), at most
//! [`MAX_BYTES`] read, the size in pixels read from the header and checked
//! against [`MAX_PIXELS`] before a pixel is decoded, and a truncated or
//! damaged picture refused rather than filled with grey. `generate` decodes
//! every picture of a list this way before a card is written; `print`
//! decodes them again to lay them out.

use std::io::Read;
use std::path::Path;

/// The largest picture file, in bytes.
pub const MAX_BYTES: u64 = 8 << 20;
/// The most pixels a picture may have (4,000 × 4,000): decoded as RGBA it
/// takes at most 64 MB, and it is printed at most 512 pixels a side.
pub const MAX_PIXELS: u64 = 16_000_000;

/// The bytes of the picture at `path`, or what is wrong with it.
pub fn read(path: &Path) -> Result<Vec<u8>, String> {
    let shown = path.display();
    let cannot = |e: std::io::Error| format!("cannot read its picture '{shown}': {e}");
    let meta = std::fs::metadata(path).map_err(cannot)?;
    if !meta.is_file() {
        let kind = crate::input::irregular(path).unwrap_or("not a regular file");
        return Err(format!(
            "its picture '{shown}' is {kind}: name a PNG or JPEG file"
        ));
    }
    let too_large = || {
        format!(
            "its picture '{shown}' is over {} MB (scale it down)",
            MAX_BYTES >> 20
        )
    };
    if meta.len() > MAX_BYTES {
        return Err(too_large());
    }
    // The file may grow between the look and the read: read no more than
    // the limit whatever happens.
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_BYTES + 1).read_to_end(&mut bytes))
        .map_err(cannot)?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(too_large());
    }
    if !bytes.starts_with(b"\x89PNG\r\n\x1a\n") && !bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        return Err(format!(
            "'{shown}' is not a PNG or JPEG picture (save it as one)"
        ));
    }
    Ok(bytes)
}

/// A PNG's or JPEG's pixels as RGB over white: (width, height, pixels).
pub fn rgb(bytes: &[u8]) -> Result<(u32, u32, Vec<u8>), String> {
    if bytes.starts_with(b"\x89PNG") {
        png_rgb(bytes)
    } else {
        jpeg_rgb(bytes)
    }
}

/// Refuses a picture of more than [`MAX_PIXELS`], before decoding it.
fn within_limit(kind: &str, width: u64, height: u64) -> Result<(), String> {
    if width == 0 || height == 0 {
        return Err(format!(
            "its {kind} is {width} × {height} pixels: it shows nothing"
        ));
    }
    if width * height > MAX_PIXELS {
        return Err(format!(
            "its {kind} is {width} × {height} pixels; at most {} million pixels are taken (scale it down: it prints at most 512 pixels a side)",
            MAX_PIXELS / 1_000_000
        ));
    }
    Ok(())
}

/// A PNG's pixels as RGB over white.
fn png_rgb(bytes: &[u8]) -> Result<(u32, u32, Vec<u8>), String> {
    let unreadable = |e: png::DecodingError| format!("its PNG cannot be read: {e}");
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().map_err(unreadable)?;
    let (width, height) = (reader.info().width, reader.info().height);
    within_limit("PNG", u64::from(width), u64::from(height))?;
    let size = reader.output_buffer_size().ok_or("its PNG is too large")?;
    let mut buf = vec![0; size];
    let info = reader.next_frame(&mut buf).map_err(unreadable)?;
    let over_white = |v: u8, a: u8| (u16::from(v) * u16::from(a) / 255 + 255 - u16::from(a)) as u8;
    let pixels = &buf[..info.buffer_size()];
    let rgb: Vec<u8> = match info.color_type {
        png::ColorType::Rgb => pixels.to_vec(),
        png::ColorType::Rgba => pixels
            .chunks_exact(4)
            .flat_map(|p| {
                [
                    over_white(p[0], p[3]),
                    over_white(p[1], p[3]),
                    over_white(p[2], p[3]),
                ]
            })
            .collect(),
        png::ColorType::Grayscale => pixels.iter().flat_map(|&g| [g, g, g]).collect(),
        png::ColorType::GrayscaleAlpha => pixels
            .chunks_exact(2)
            .flat_map(|p| [over_white(p[0], p[1]); 3])
            .collect(),
        png::ColorType::Indexed => return Err("its PNG's palette was not expanded".into()),
    };
    Ok((info.width, info.height, rgb))
}

/// A JPEG's pixels as RGB; strict, so a truncated file is an error, not a
/// grey square.
fn jpeg_rgb(bytes: &[u8]) -> Result<(u32, u32, Vec<u8>), String> {
    use zune_jpeg::zune_core::{
        bytestream::ZCursor, colorspace::ColorSpace, options::DecoderOptions,
    };
    let unreadable = |e: zune_jpeg::errors::DecodeErrors| format!("its JPEG cannot be read: {e:?}");
    let options = DecoderOptions::default()
        .jpeg_set_out_colorspace(ColorSpace::RGB)
        .set_strict_mode(true);
    let mut decoder = zune_jpeg::JpegDecoder::new_with_options(ZCursor::new(bytes), options);
    decoder.decode_headers().map_err(unreadable)?;
    let (w, h) = decoder.dimensions().ok_or("its JPEG has no size")?;
    within_limit("JPEG", w as u64, h as u64)?;
    let rgb = decoder.decode().map_err(unreadable)?;
    if rgb.len() != w * h * 3 {
        return Err("its JPEG cannot be read: it is cut short".into());
    }
    Ok((w as u32, h as u32, rgb))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A PNG header claiming `width` × `height` (its IHDR's CRC is right,
    /// so the decoder reads the size before it looks for pixels).
    fn png_claiming(width: u32, height: u32) -> Vec<u8> {
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(&mut out, 1, 1);
        encoder.set_color(png::ColorType::Grayscale);
        encoder
            .write_header()
            .unwrap()
            .write_image_data(&[0])
            .unwrap();
        // IHDR's width and height sit at bytes 16..24, its CRC at 29..33.
        out[16..20].copy_from_slice(&width.to_be_bytes());
        out[20..24].copy_from_slice(&height.to_be_bytes());
        let crc = crc32(&out[12..29]);
        out[29..33].copy_from_slice(&crc.to_be_bytes());
        out
    }

    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in bytes {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    /// See: hardening round four (a 48 KB PNG of 20000² took 1.57 GB to
    /// print; one of 60000² aborted allocating 10.8 GB).
    #[test]
    fn a_huge_png_is_refused_from_its_header() {
        for side in [20_000, 60_000] {
            let err = rgb(&png_claiming(side, side)).unwrap_err();
            assert!(err.contains(&format!("{side} × {side} pixels")), "{err}");
        }
        assert_eq!(rgb(&png_claiming(1, 1)).unwrap().0, 1);
    }

    /// See: hardening round four (a 134-byte truncated JPEG printed as a
    /// grey square).
    #[test]
    fn a_truncated_picture_is_refused() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/items/pictures");
        for entry in std::fs::read_dir(path).unwrap() {
            let bytes = std::fs::read(entry.unwrap().path()).unwrap();
            assert!(rgb(&bytes).is_ok());
            for cut in [bytes.len() / 2, 134.min(bytes.len() - 1)] {
                assert!(rgb(&bytes[..cut]).is_err(), "cut at {cut}");
            }
        }
    }

    /// See: hardening round four (`/dev/zero` was read until memory ran
    /// out; a FIFO hung generate).
    #[test]
    fn only_regular_files_are_read() {
        let err = read(Path::new("/dev/zero")).unwrap_err();
        assert!(err.contains("name a PNG or JPEG file"), "{err}");
        let dir = tempfile::tempdir().unwrap();
        assert!(read(dir.path()).unwrap_err().contains("directory"));
        let big = dir.path().join("big.png");
        std::fs::write(&big, vec![0u8; (MAX_BYTES + 1) as usize]).unwrap();
        assert!(read(&big).unwrap_err().contains("over 8 MB"));
    }
}
