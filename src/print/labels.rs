//! Items cards' words on paper: each label wrapped at spaces to fit its
//! box, shrunk until it fits, never cut (a word wider than its box at the
//! smallest size is broken between letters). The embedded DejaVu Sans
//! covers Latin (with Vietnamese), Greek, Cyrillic, Armenian, Georgian and
//! more; text it lacks, or right-to-left text (which print does not lay
//! out), is refused naming the item.

use super::font::Font;
use super::PrintError;
use crate::game::items::Deck;

/// Line height, in font sizes.
const LEADING: f32 = 1.15;
/// The smallest size a label shrinks to, points.
const MIN_SIZE: f32 = 4.0;
/// How far the baseline sits below a line's top, in font sizes.
const ASCENT: f32 = 0.78;

/// A label laid out: its size and lines (the text, its width in points).
#[derive(Clone, Debug)]
pub(crate) struct Laid {
    pub size: f32,
    pub lines: Vec<(String, f32)>,
}

/// Whether an items `deck`'s labels, free text and group names, and the
/// `title`, can be printed with the embedded fonts; the error names the
/// text.
pub(super) fn check(deck: Option<&Deck>, title: Option<&str>) -> Result<(), PrintError> {
    let texts = deck
        .into_iter()
        .flat_map(|deck| {
            deck.list
                .labels()
                .chain(deck.free.as_deref())
                .chain(deck.facts().letters.iter().copied())
        })
        .chain(title);
    for text in texts {
        if let Some(ch) = text.chars().find(|&c| right_to_left(c)) {
            return Err(PrintError::Label {
                label: text.to_string(),
                why: format!("{ch:?} is right-to-left text, which print does not lay out"),
            });
        }
        if let Err(ch) = Font::bold(text) {
            return Err(PrintError::Label {
                label: text.to_string(),
                why: format!(
                    "the embedded font (DejaVu Sans: Latin, Greek, Cyrillic, Armenian, \
                     Georgian and more) has no glyph for {ch:?}"
                ),
            });
        }
    }
    Ok(())
}

/// Hebrew, Arabic, Syriac, Thaana, N'Ko and the Arabic presentation forms.
fn right_to_left(c: char) -> bool {
    matches!(c as u32, 0x0590..=0x07FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF)
}

/// `text` in `font`, at the largest size up to `max` whose lines, wrapped
/// at spaces to `w` points, fit `h` points.
pub(super) fn fit(font: &Font, text: &str, w: f32, h: f32, max: f32) -> Laid {
    let mut size = max.max(MIN_SIZE);
    loop {
        let (lines, broken) = wrap(font, text, w, size);
        let fits = lines.len() as f32 * size * LEADING <= h && !broken;
        if fits || size <= MIN_SIZE {
            return Laid { size, lines };
        }
        size = (size * 0.92).max(MIN_SIZE);
    }
}

/// An items label's largest size in its box: unbroken words, unless that
/// leaves it under [`BREAK_BELOW`] of the largest, when breaking its
/// longest word between letters prints it larger (one 34-letter word
/// would otherwise hold every label of its card down to a few points).
fn fit_label(font: &Font, text: &str, w: f32, h: f32, max: f32) -> f32 {
    let whole = fit(font, text, w, h, max).size;
    if whole >= BREAK_BELOW * max {
        return whole;
    }
    let mut size = max;
    while size > whole {
        let (lines, _) = wrap(font, text, w, size);
        if lines.len() as f32 * size * LEADING <= h {
            return size;
        }
        size *= 0.92;
    }
    whole
}

/// The share of its largest size under which a label's words may break.
const BREAK_BELOW: f32 = 0.3;

/// `text` wrapped at spaces to `w` points at `size` (which a fit found
/// large enough or smaller, so it fits its box).
fn at(font: &Font, text: &str, w: f32, size: f32) -> Laid {
    Laid {
        size,
        lines: wrap(font, text, w, size).0,
    }
}

/// The readers' rule for items cards: a layout chosen for them (no
/// `--layout`) puts as many cards on a page as keep every label at least
/// this large, else one a page.
pub const MIN_LABEL_PT: f32 = 18.0;

/// The share of a cell a picture takes, above its label.
pub(super) const PICTURE: f32 = 0.62;

/// The box an items label is laid in, in a cell of `c` points (under its
/// picture when it has one): width, height and the largest size.
fn label_box(c: f32, pictured: bool) -> (f32, f32, f32) {
    if pictured {
        (0.88 * c, (1.0 - PICTURE) * 0.9 * c, 0.15 * c)
    } else {
        (0.88 * c, 0.88 * c, 0.32 * c)
    }
}

/// An items deck's labels for cards of cell `c`: each one's largest size
/// in its box, and each laid out at every size a card may take, so a card
/// prints every label at one size, the largest its longest label allows.
pub(crate) struct CardLabels {
    /// The sizes cards may take, ascending (each some label's largest).
    sizes: Vec<f32>,
    /// Ball n's largest size, as an index of `sizes` (ball 0: the free
    /// text, not among a card's labels).
    best: Vec<usize>,
    /// Ball n laid out at each size up to its largest.
    laid: Vec<Vec<Laid>>,
    /// Whether the smallest size is a cell's most (no label holds it
    /// down).
    capped: bool,
}

impl CardLabels {
    /// The labels of `deck` in cells of `c` points; `pictured(n)`: ball n
    /// has a picture.
    pub(crate) fn new(
        font: &Font,
        deck: &Deck,
        c: f32,
        pictured: impl Fn(u8) -> bool,
    ) -> CardLabels {
        let balls = deck.list.items.len() as u8;
        let boxes: Vec<(f32, f32, f32)> = (0..=balls)
            .map(|n| label_box(c, n > 0 && pictured(n)))
            .collect();
        let largest: Vec<f32> = (0..=balls)
            .map(|n| {
                let (w, h, max) = boxes[usize::from(n)];
                fit_label(font, deck.label(n), w, h, max)
            })
            .collect();
        let mut sizes: Vec<f32> = largest[1..].to_vec();
        sizes.sort_by(f32::total_cmp);
        sizes.dedup();
        let best: Vec<usize> = (largest.iter())
            .map(|s| {
                sizes
                    .partition_point(|x| x < s)
                    .min(sizes.len().saturating_sub(1))
            })
            .collect();
        let laid = (0..=balls)
            .map(|n| {
                let (w, ..) = boxes[usize::from(n)];
                let text = deck.label(n);
                if n == 0 {
                    return vec![fit(font, text, boxes[0].0, boxes[0].1, boxes[0].2)];
                }
                (sizes[..=best[usize::from(n)]].iter())
                    .map(|&size| at(font, text, w, size))
                    .collect()
            })
            .collect();
        let capped = (1..=usize::from(balls))
            .all(|n| largest[n] >= boxes[n].2 - 0.01 || largest[n] > sizes[0] + 0.01);
        CardLabels {
            sizes,
            best,
            laid,
            capped,
        }
    }

    /// The size (as an index) a card of `balls` prints its labels at: its
    /// longest label's largest.
    pub(crate) fn size_of(&self, balls: impl Iterator<Item = u8>) -> usize {
        (balls.filter(|&n| n != 0))
            .map(|n| self.best[usize::from(n)])
            .min()
            .unwrap_or(0)
    }

    /// Ball `n` laid out at size `k` (no larger than its own largest).
    pub(crate) fn laid(&self, n: u8, k: usize) -> &Laid {
        let all = &self.laid[usize::from(n)];
        &all[k.min(all.len() - 1)]
    }

    /// Size `k` in points.
    pub(crate) fn points(&self, k: usize) -> f32 {
        self.sizes.get(k).copied().unwrap_or(0.0)
    }

    /// The smallest size any label may force on a card.
    pub(crate) fn smallest(&self) -> f32 {
        self.points(0)
    }

    /// The ball whose label forces the smallest size; None when the
    /// cells' size does, not a label.
    pub(crate) fn tightest(&self) -> Option<u8> {
        let n = (1..self.best.len()).min_by_key(|&n| self.best[n])?;
        (!self.capped).then_some(n as u8)
    }
}

/// The most cards a page of `counts` (a layout's cell size: `cell(n)`)
/// that keeps every label of `deck` at [`MIN_LABEL_PT`] or more; else the
/// fewest.
pub(super) fn readable_count(
    deck: &Deck,
    pictured: impl Fn(u8) -> bool + Copy,
    counts: &[usize],
    cell: impl Fn(usize) -> f32,
) -> Result<usize, PrintError> {
    let mut chars: String = deck.list.labels().collect();
    chars.push_str(deck.free.as_deref().unwrap_or("FREE"));
    let font = Font::bold(&chars).map_err(PrintError::MissingGlyph)?;
    let fewest = counts.iter().copied().min().unwrap_or(1);
    Ok((counts.iter().rev().copied())
        .find(|&n| CardLabels::new(&font, deck, cell(n), pictured).smallest() >= MIN_LABEL_PT)
        .unwrap_or(fewest))
}

/// Greedy lines of at most `w` points at `size`; a word wider than a line
/// is broken between characters (and the answer says a word was broken).
fn wrap(font: &Font, text: &str, w: f32, size: f32) -> (Vec<(String, f32)>, bool) {
    let width = |s: &str| font.width(s, size);
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let mut broken = false;
    for word in text.split_whitespace() {
        let joined = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if width(&joined) <= w {
            line = joined;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        for ch in word.chars() {
            let mut longer = line.clone();
            longer.push(ch);
            if width(&longer) > w && !line.is_empty() {
                broken = true;
                lines.push(std::mem::replace(&mut line, ch.to_string()));
            } else {
                line = longer;
            }
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    let lines = lines
        .into_iter()
        .map(|l| {
            let w = width(&l);
            (l, w)
        })
        .collect();
    (lines, broken)
}

/// One line of text, `encoded` in `font`'s CIDs, at (x, y) in `size`
/// points.
pub(super) fn text(
    g: &mut pdf_writer::Content,
    font: pdf_writer::Name,
    size: f32,
    x: f32,
    y: f32,
    encoded: &[u8],
) {
    g.begin_text();
    g.set_font(font, size);
    g.set_text_matrix([1.0, 0.0, 0.0, 1.0, x, y]);
    g.show(pdf_writer::Str(encoded));
    g.end_text();
}

/// Draws `laid` centred in the box whose top-left corner is (x, top), `w`
/// × `h` points, as text of `font` (named `name` in the content).
pub(super) fn draw(
    g: &mut pdf_writer::Content,
    font: &Font,
    name: pdf_writer::Name,
    laid: &Laid,
    (x, top, w, h): (f32, f32, f32, f32),
) {
    let block = laid.lines.len() as f32 * laid.size * LEADING;
    let first = top - (h - block) / 2.0 - ASCENT * laid.size;
    for (i, (line, lw)) in laid.lines.iter().enumerate() {
        let y = first - i as f32 * laid.size * LEADING;
        text(
            g,
            name,
            laid.size,
            x + (w - lw) / 2.0,
            y,
            &font.encode(line),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_shrinks_and_wraps_to_fit_and_is_never_cut() {
        let text = "the quick brown fox jumps over the lazy dog";
        let font = Font::bold(text).unwrap();
        let laid = fit(&font, text, 50.0, 50.0, 14.0);
        assert!(laid.size < 14.0 && laid.size >= MIN_SIZE);
        assert!(laid.lines.iter().all(|(_, w)| *w <= 50.0));
        assert!(laid.lines.len() as f32 * laid.size * LEADING <= 50.0);
        let back: Vec<&str> = laid.lines.iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(back.join(" "), text);
        // One long word in a narrow box: broken between letters, all kept.
        let word = "Donaudampfschifffahrtsgesellschaft";
        let font = Font::bold(word).unwrap();
        let laid = fit(&font, word, 20.0, 20.0, 10.0);
        assert_eq!(laid.size, MIN_SIZE);
        assert_eq!(
            laid.lines
                .iter()
                .map(|(l, _)| l.as_str())
                .collect::<String>(),
            word
        );
        // A short word keeps the largest size.
        assert_eq!(fit(&font, "Dampf", 50.0, 50.0, 10.0).size, 10.0);
    }

    #[test]
    fn text_the_font_lacks_or_right_to_left_is_named() {
        assert!(right_to_left('ש') && right_to_left('م') && !right_to_left('é'));
        assert!(Font::bold("кошка θάλασσα żółw phở").is_ok());
        assert_eq!(Font::bold("日本").err(), Some('日'));
    }
}
