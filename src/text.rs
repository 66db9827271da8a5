//! Text helpers every rendering shares (a leaf: it imports nothing of the
//! crate): a line of numbers, one CSV field, the lines of a boxed grid.
//! Games draw their cards with them (`game::*::text`), as do `export`,
//! `show` and the boards' renderings.

use std::fmt::Write;

/// Appends `numbers` to `out`, separated by `sep`, then a newline.
pub fn push_line<'a>(out: &mut String, numbers: impl IntoIterator<Item = &'a u8>, sep: char) {
    for (i, n) in numbers.into_iter().enumerate() {
        if i > 0 {
            out.push(sep);
        }
        let _ = write!(out, "{n}");
    }
    out.push('\n');
}

/// Whether `name` may be an id of a linked game or a venue: 1 to 32 of
/// A–Z, a–z, 0–9, `-` and `_` (it becomes part of the broker's subjects
/// and a stream's name). A night file's product names its linked game so.
pub fn is_id(name: &str) -> bool {
    (1..=32).contains(&name.len())
        && (name.bytes()).all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// `text` safe to open in a spreadsheet: a cell that begins with `=`, `+`,
/// `-`, `@`, a tab or a carriage return would be read as a formula, so it
/// gets a leading `'` (OWASP's rule for CSV injection). Every CSV cell the
/// project writes from text a user, a list or a client supplied passes
/// here.
pub fn spreadsheet_safe(text: &str) -> std::borrow::Cow<'_, str> {
    match text.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{text}").into(),
        _ => text.into(),
    }
}

/// `text` as one CSV field, [`spreadsheet_safe`], quoted by the `csv`
/// crate's rules when it needs to be (for renderings that assemble rows
/// from ready fields).
pub fn csv_field(text: &str) -> String {
    let text = &*spreadsheet_safe(text);
    if text.is_empty() {
        // The crate quotes a lone empty field (`""`) so the row is not
        // empty; inside a row an empty field needs no quotes.
        return String::new();
    }
    let mut writer = csv::WriterBuilder::new().from_writer(Vec::with_capacity(text.len() + 3));
    writer
        .write_record([text])
        .expect("writing to memory cannot fail");
    let mut bytes = writer.into_inner().expect("writing to memory cannot fail");
    bytes.pop(); // the record's newline
    String::from_utf8(bytes).expect("the field was UTF-8")
}

/// A CSV header of a card a row: `card`, then a field a cell, `r1c1` …
/// row by row.
pub fn card_csv_header(rows: usize, cols: usize) -> Vec<String> {
    let cells = (1..=rows).flat_map(|r| (1..=cols).map(move |c| format!("r{r}c{c}")));
    std::iter::once("card".to_string()).chain(cells).collect()
}

/// Which horizontal line of a boxed grid.
#[derive(Clone, Copy)]
pub enum Rule {
    Top,
    Between,
    Bottom,
}

/// One horizontal line of a boxed grid of `cells` cells, each `width`
/// characters wide inside its borders, with a newline.
pub fn rule(kind: Rule, cells: usize, width: usize) -> String {
    let (left, mid, right) = match kind {
        Rule::Top => ('┌', '┬', '┐'),
        Rule::Between => ('├', '┼', '┤'),
        Rule::Bottom => ('└', '┴', '┘'),
    };
    let mut s = String::new();
    s.push(left);
    for c in 0..cells {
        s.push_str(&"─".repeat(width));
        s.push(if c + 1 == cells { right } else { mid });
    }
    s.push('\n');
    s
}

/// `text` cut to at most `max` characters, with `…` where it was cut: user
/// input quoted in a message stays a line long, however long the input.
pub fn clip(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => text.into(),
        Some((at, _)) => format!("{}…", &text[..at]).into(),
    }
}

/// Bytes in lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The SHA-256 of `bytes`, in lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    hex(&sha2::Sha256::digest(bytes))
}

/// A yyyymmdd date as people write it: `2026-11-25`.
pub fn iso_date(yyyymmdd: u32) -> String {
    format!(
        "{}-{:02}-{:02}",
        yyyymmdd / 10_000,
        yyyymmdd / 100 % 100,
        yyyymmdd % 100
    )
}

/// `n` and a noun, plural when `n` is not 1: `1 card`, `2 cards`.
pub fn count_of(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// Display columns `text` takes on a terminal (wide scripts count two).
pub fn width(text: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(text)
}

/// `text` in lines of at most `max` display columns, broken at spaces; a
/// word wider than a line is broken between characters. Never empty.
pub fn wrap(text: &str, max: usize) -> Vec<String> {
    use unicode_width::UnicodeWidthChar;
    let max = max.max(1);
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let sep = usize::from(!line.is_empty());
        if !line.is_empty() && width(&line) + sep + width(word) <= max {
            line.push(' ');
            line.push_str(word);
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        for ch in word.chars() {
            if width(&line) + ch.width().unwrap_or(0) > max && !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            line.push(ch);
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// `text` centred in `cells` display columns (padded with spaces).
pub fn centred(text: &str, cells: usize) -> String {
    let pad = cells.saturating_sub(width(text));
    format!("{}{text}{}", " ".repeat(pad / 2), " ".repeat(pad - pad / 2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_are_quoted_only_when_needed() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("plain"), "plain");
        // See: hardening round four (cells typed as formulas).
        for (given, written) in [
            ("=1+1", "'=1+1"),
            ("+44 7700", "'+44 7700"),
            ("-2", "'-2"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tx", "'\tx"),
            ("a=b", "a=b"),
        ] {
            assert_eq!(spreadsheet_safe(given), written);
        }
        assert_eq!(csv_field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(csv_field(""), "");
    }

    #[test]
    fn rules_and_lines() {
        assert_eq!(rule(Rule::Top, 2, 3), "┌───┬───┐\n");
        let mut out = String::new();
        push_line(&mut out, &[1, 22, 0], ' ');
        assert_eq!(out, "1 22 0\n");
    }

    #[test]
    fn quoted_input_is_clipped() {
        assert_eq!(clip("short", 40), "short");
        assert_eq!(clip("ééééé", 3), "ééé…");
        assert_eq!(clip(&"x".repeat(1000), 10).chars().count(), 11);
    }

    #[test]
    fn labels_wrap_at_spaces_and_wide_words_between_characters() {
        assert_eq!(wrap("yellow submarine", 10), ["yellow", "submarine"]);
        assert_eq!(wrap("a b c", 10), ["a b c"]);
        assert_eq!(wrap("hippopotamus", 5), ["hippo", "potam", "us"]);
        assert_eq!(wrap("ありがとう", 4), ["あり", "がと", "う"]);
        assert_eq!(wrap("", 4), [""]);
        assert_eq!(centred("ab", 6), "  ab  ");
        assert_eq!(width("日本"), 4);
    }
}
