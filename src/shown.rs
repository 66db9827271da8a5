//! Text that reaches a person: one rule for every piece of text a user or a
//! client hands over that is then shown (a night's title, a game's name, a
//! paper, a currency, an item's label or group) or mixed into a call order
//! (the room seed). What is kept is what a person sees.
//!
//! [`shown`] puts the text in Unicode's composed form (NFC), trims it and
//! collapses runs of spaces, then refuses what a screen shows as nothing or
//! as something else: control and format characters (U+200B, the
//! direction marks and overrides), variation selectors, the combining
//! grapheme joiner and the other default-ignorable characters, spaces other
//! than U+0020, line and paragraph separators, private-use and unassigned
//! code points. So two texts that look alike are the same text, and the
//! room seed the board shows is, byte for byte, the one mixed into the
//! order. A leaf: it imports nothing of the crate.

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
use unicode_security::MixedScript;

/// How long each kind of text may be, in characters (after [`shown`]).
pub mod max {
    /// The room's seed: a phrase the room calls out.
    pub const ROOM_SEED: usize = 200;
    /// A night's title.
    pub const TITLE: usize = 300;
    /// A game's name, a paper's name.
    pub const NAME: usize = 80;
    /// A prize in words.
    pub const PRIZE: usize = 200;
    /// A currency: `£`, `EUR`.
    pub const CURRENCY: usize = 8;
}

/// Why a text was refused; the caller names the field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShownError {
    #[error("it holds {what} (U+{code:04X}), which a screen does not show as typed: remove it")]
    Hidden { what: &'static str, code: u32 },
    #[error("it is {len} characters; at most {max} are taken")]
    TooLong { len: usize, max: usize },
    #[error("it mixes letters of several scripts (as a Cyrillic 'а' among Latin letters), which look alike on a screen: type it in one script")]
    MixedScripts,
}

/// `text` as a person sees it: NFC, trimmed, runs of spaces collapsed to
/// one; refused when it holds a character that is invisible or not what
/// it looks like, or is longer than `max` characters. Empty text stays
/// empty (the caller decides whether that is allowed).
///
/// ```
/// use bingomint::shown::shown;
/// assert_eq!(shown("  table   4 ", 200).unwrap(), "table 4");
/// assert_eq!(shown("cafe\u{301}", 200).unwrap(), "caf\u{e9}");
/// assert!(shown("table\u{200b} 4", 200).is_err());
/// ```
pub fn shown(text: &str, max: usize) -> Result<String, ShownError> {
    let mut out = String::with_capacity(text.len());
    for c in text.nfc() {
        if c == ' ' {
            if !out.is_empty() && !out.ends_with(' ') {
                out.push(' ');
            }
            continue;
        }
        if let Some(what) = hidden(c) {
            return Err(ShownError::Hidden {
                what,
                code: u32::from(c),
            });
        }
        out.push(c);
    }
    if out.ends_with(' ') {
        out.pop();
    }
    let len = out.chars().count();
    if len > max {
        return Err(ShownError::TooLong { len, max });
    }
    Ok(out)
}

/// A room seed: [`shown`], and its letters of one script, so no letter can
/// stand in for one that looks the same.
pub fn room_seed(text: &str) -> Result<String, ShownError> {
    let text = shown(text, max::ROOM_SEED)?;
    if !text.as_str().is_single_script() {
        return Err(ShownError::MixedScripts);
    }
    Ok(text)
}

/// `text` as [`shown`] makes it, case-folded: the key two texts a person
/// would call the same share (a list's repeat check).
pub fn folded(text: &str) -> String {
    text.nfc().collect::<String>().to_lowercase()
}

/// What `c` is, when a screen does not show it as typed.
fn hidden(c: char) -> Option<&'static str> {
    use GeneralCategory as G;
    let what = match c.general_category() {
        G::Control => "a control character",
        G::Format => match c {
            '\u{200e}'
            | '\u{200f}'
            | '\u{061c}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}' => "a direction mark",
            _ => "an invisible format character",
        },
        G::SpaceSeparator => "a space other than the plain space",
        G::LineSeparator | G::ParagraphSeparator => "a line break",
        G::PrivateUse => "a private-use character",
        G::Unassigned | G::Surrogate => "an unassigned code point",
        _ => return ignorable(c).then_some("a character shown as nothing"),
    };
    Some(what)
}

/// The default-ignorable code points (Unicode's DerivedCoreProperties)
/// that are not control or format characters, and the blanks that draw
/// nothing: variation selectors, the combining grapheme joiner, the Hangul
/// fillers, the Khmer inherent vowels, the Mongolian variation selectors,
/// the braille blank.
fn ignorable(c: char) -> bool {
    matches!(c,
        '\u{034f}'
        | '\u{115f}'..='\u{1160}'
        | '\u{17b4}'..='\u{17b5}'
        | '\u{180b}'..='\u{180f}'
        | '\u{2800}'
        | '\u{3164}'
        | '\u{fe00}'..='\u{fe0f}'
        | '\u{ffa0}'
        | '\u{e0100}'..='\u{e01ef}')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The characters the room seed was ground with: each refused, naming
    /// its code point. See: hardening round four.
    #[test]
    fn invisible_characters_are_refused_naming_them() {
        for (text, code) in [
            ("table\u{200b} 4", 0x200b),
            ("table 4\u{fe0f}", 0xfe0f),
            ("table\u{a0}4", 0xa0),
            ("ta\u{2060}ble 4", 0x2060),
            ("evil\u{202e}", 0x202e),
            ("ta\u{34f}ble", 0x34f),
            ("tab\u{ad}le", 0xad),
            ("line\nbreak", 0x0a),
            ("bell\u{7}", 0x07),
            ("tab\tle", 0x09),
            ("\u{3164}", 0x3164),
            ("x\u{e000}", 0xe000),
            ("x\u{2028}", 0x2028),
            ("x\u{e0100}", 0xe0100),
        ] {
            let err = shown(text, 200).unwrap_err();
            assert!(
                matches!(err, ShownError::Hidden { code: c, .. } if c == code),
                "{text:?}: {err}"
            );
            assert!(err.to_string().contains(&format!("U+{code:04X}")), "{err}");
        }
    }

    #[test]
    fn spaces_collapse_and_text_composes() {
        assert_eq!(shown("  table   4  ", 200).unwrap(), "table 4");
        assert_eq!(shown("table 4", 200).unwrap(), "table 4");
        assert_eq!(shown("Cafe\u{301}", 200).unwrap(), "Caf\u{e9}");
        assert_eq!(shown("", 200).unwrap(), "");
        assert_eq!(shown("   ", 200).unwrap(), "");
        // Letters, accents, symbols and emoji that draw themselves stay.
        for text in [
            "Año Nuevo",
            "£5 raffle",
            "Łódź 7",
            "日本語",
            "🎱 night",
            "€",
        ] {
            assert_eq!(shown(text, 200).unwrap(), text);
        }
    }

    #[test]
    fn the_limit_counts_characters_after_collapsing() {
        assert_eq!(shown(&"é".repeat(8), 8).unwrap().chars().count(), 8);
        assert_eq!(
            shown(&"é".repeat(9), 8),
            Err(ShownError::TooLong { len: 9, max: 8 })
        );
        assert!(shown(&format!("a{}b", " ".repeat(50)), 3).is_ok());
    }

    #[test]
    fn a_room_seed_of_mixed_scripts_is_refused() {
        // "tаble 4" with a Cyrillic а.
        assert_eq!(room_seed("t\u{430}ble 4"), Err(ShownError::MixedScripts));
        assert_eq!(room_seed("table 4").unwrap(), "table 4");
        assert_eq!(room_seed("стол 4").unwrap(), "стол 4");
        assert_eq!(room_seed("Mesa número 4!").unwrap(), "Mesa número 4!");
    }

    #[test]
    fn look_alikes_fold_to_one_key() {
        assert_eq!(folded("Cafe\u{301}"), folded("café"));
        assert_eq!(folded("APPLE"), "apple");
    }
}
