//! What the flags mean, and the library's errors in the flags' words: the
//! library names values and conditions, never an option; the commands say
//! which option to change, with the helpers here for what several share.

use anyhow::Result;
use bingomint::cardfile::writer::WriteError;
use bingomint::game::{ChoiceError, Spec};
use bingomint::pipeline::MintError;

/// Puts the option a value came from in front of the library's word on
/// it: `.map_err(flag("--margin"))` gives `--margin "3": the unit must be …`.
pub fn flag<E: std::fmt::Display>(name: &'static str) -> impl Fn(E) -> anyhow::Error {
    move |e| anyhow::anyhow!("{name} {e}")
}

/// `--game`, `--rules` and `--star` as a game; the error names the flag.
pub fn spec_from_flags(game: &str, rules: Option<&str>, star: bool) -> Result<Spec> {
    Spec::choose(game, rules, star).map_err(|e| match e {
        ChoiceError::UnknownGame(_) | ChoiceError::ItemsNeedList => anyhow::anyhow!("--game {e}"),
        ChoiceError::UnknownRules(_) => anyhow::anyhow!("--rules {e}"),
        ChoiceError::RulesNotForGame => {
            anyhow::anyhow!("--rules is for 90-ball strips; add --game 90 or leave --rules out")
        }
        ChoiceError::StarNotForGame(_) => {
            anyhow::anyhow!("--star is for 75-ball cards; leave it out with --game {game}")
        }
    })
}

/// Parses a count as people write a large one: `1000000`, `1_000_000`,
/// `1,000,000` (groups of three), `1e6` or `2.5e6` (a whole number).
pub fn parse_count(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let bad = || format!("{t:?} is not a whole number: write 1000000, 1_000_000, 1,000,000 or 1e6");
    let (mantissa, exponent) = match t.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<u32>().map_err(|_| bad())?),
        None => (t, 0),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let whole = |s: &str| -> Option<String> {
        for sep in [',', '_'] {
            if s.contains(sep) {
                let groups: Vec<&str> = s.split(sep).collect();
                let ok = groups[0].len() <= 3 && groups[1..].iter().all(|g| g.len() == 3);
                return (ok && groups.iter().all(|g| digits(g))).then(|| groups.concat());
            }
        }
        digits(s).then(|| s.to_string())
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((i, f)) if exponent > 0 && digits(f) => (whole(i).ok_or_else(bad)?, f),
        Some(_) => return Err(bad()),
        None => (whole(mantissa).ok_or_else(bad)?, ""),
    };
    let shift = exponent
        .checked_sub(frac.len() as u32)
        .ok_or_else(|| format!("{t:?} is not a whole number"))?;
    let too_large = || format!("{t:?} is too large");
    let base: u64 = format!("{int}{frac}").parse().map_err(|_| too_large())?;
    10u64
        .checked_pow(shift)
        .and_then(|p| base.checked_mul(p))
        .ok_or_else(too_large)
}

/// Parses a size such as `8G`, `512M`, `1.5GiB` or `1000000` (bytes); K, M,
/// G and T are powers of 1024, with or without `iB`/`B`.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => {
            return Err(format!(
                "'{text}': use a number with K, M, G or T, such as 8G or 512M"
            ))
        }
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("'{text}': use a number with K, M, G or T, such as 8G or 512M"))?;
    let bytes = value * (1u64 << shift) as f64;
    if !bytes.is_finite() || bytes < 1.0 || bytes > u64::MAX as f64 / 2.0 {
        return Err(format!("'{text}' is not a size this machine can have"));
    }
    Ok(bytes as u64)
}

/// A mint that stopped, in the flags' words: `exhausted` says what to
/// change when the game ran out of new cards, `memory` when the key set
/// would not fit.
pub fn mint_error(e: MintError, exhausted: &str, memory: &str) -> anyhow::Error {
    match e {
        MintError::KeySpaceExhausted { .. } | MintError::OwnStreamsExhausted { .. } => {
            anyhow::anyhow!("{e} for --count ({exhausted})")
        }
        MintError::Memory { cards, memory: m } => {
            anyhow::anyhow!("--count {cards} {m}; {memory}")
        }
        MintError::Spill(e) => e.into(),
        MintError::TooMany => e.into(),
    }
}

/// The advice for a failure any command that writes can meet, added to the
/// message `main` prints: which flag mends it.
pub fn advise(err: anyhow::Error) -> anyhow::Error {
    let hint = err
        .chain()
        .find_map(|cause| match cause.downcast_ref::<WriteError>()? {
            WriteError::Exists(_) => {
                Some("choose another --out or add --force to replace it".into())
            }
            WriteError::Directory(path) => Some(format!(
                "give --out a file name (for example '{path}/cards.bmc')"
            )),
            _ => None,
        });
    match hint {
        Some(hint) => anyhow::anyhow!("{err:#}: {hint}"),
        None => err,
    }
}

/// Fails, naming the damaged cards, when any of `cards` of `file` fail their
/// checksum. `allow` is the command's `--allow-damaged` (None: it has
/// none): when given, says so on stderr and goes on.
pub fn require_sound(
    file: &bingomint::cardfile::CardFile,
    cards: std::ops::RangeInclusive<u64>,
    allow: Option<bool>,
) -> Result<()> {
    if allow != Some(true) {
        return file
            .require_sound_flat(cards)
            .map_err(|e| damaged(e, allow.is_some()));
    }
    let damage = file.integrity(cards);
    if damage.damaged_cards() > 0 {
        eprintln!(
            "bingomint: warning: '{}': {}s {} fail their checksum; used anyway (--allow-damaged)",
            file.path(),
            file.header().spec.noun(),
            damage.describe(5)
        );
    }
    Ok(())
}

/// A damaged file's error with what to do about it: verify the file, and,
/// when the command takes it (`allowed`), `--allow-damaged`.
pub fn damaged(e: bingomint::cardfile::FileError, allowed: bool) -> anyhow::Error {
    use bingomint::cardfile::FileError;
    let advice = match (&e, allowed) {
        (FileError::DamagedCards { .. }, true) => {
            "run `bingomint verify` on it, or add --allow-damaged to use them anyway"
        }
        (FileError::Damaged { .. }, true) => {
            "run `bingomint verify` on it, or add --allow-damaged to use the cards anyway"
        }
        (FileError::DamagedCards { .. }, false) => "run `bingomint verify` on it",
        _ => return e.into(),
    };
    anyhow::anyhow!("{e}; {advice}")
}

/// [`require_sound`] for a whole file, memory flat (`require_sound_all`).
pub fn require_sound_flat(file: &bingomint::cardfile::CardFile) -> Result<()> {
    file.require_sound_all().map_err(|e| damaged(e, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// See: a newcomer's first hour, round three (`--count 1e6` and
    /// `1,000` were refused).
    #[test]
    fn counts_are_read_as_people_write_them() {
        for (text, n) in [
            ("1000000", 1_000_000),
            ("1_000_000", 1_000_000),
            ("1,000,000", 1_000_000),
            ("1e6", 1_000_000),
            ("2.5e6", 2_500_000),
            ("10E3", 10_000),
            (" 42 ", 42),
        ] {
            assert_eq!(parse_count(text), Ok(n), "{text}");
        }
        for text in [
            "1.5", "1,5", "1,0000", "1e", "-3", "2.55e1", "abc", "", "1e30", "1__000",
        ] {
            assert!(parse_count(text).is_err(), "{text} was taken");
        }
    }
}
