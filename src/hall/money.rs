//! Prize money: amounts written as decimal text (`"25.00"`), kept in minor
//! units (pence, cents) so nothing is ever a float, and a prize split
//! equally between the winners of one call, the pennies that do not divide
//! going one each to the earliest.

/// The largest amount taken: 10,000,000,000.00 (no prize is larger, and
/// every sum of a night's prizes stays far inside `u64`).
pub const MAX_MINOR: u64 = 1_000_000_000_000;

/// An amount that cannot be read, in words for the field it came from.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum AmountError {
    #[error(
        "{0:?} is not an amount: write it as text with at most two decimals, such as \"25.00\" (or \"25,00\")"
    )]
    NotAmount(String),
    #[error("{0:?} is over the largest amount taken (10000000000.00)")]
    TooLarge(String),
    /// A lone comma before three digits that can only be thousands.
    #[error("{text:?} has a comma before three digits, which as money can only group thousands: write {thousands:?}")]
    Thousands { text: String, thousands: String },
    /// A lone comma before three digits: a thousands comma or a decimal one.
    #[error("{text:?} could be {thousands} (a thousands comma) or {decimal} (a decimal comma): write {thousands:?} or {decimal:?}")]
    Ambiguous {
        text: String,
        thousands: String,
        decimal: String,
    },
}

/// The amount `text` says, in minor units (hundredths): `"25"`, `"25.5"`,
/// `"25.00"`, `"1,000.05"`, and as most of Europe writes money, `"12,50"`
/// and `"1.000,05"`. A decimal separator is the last of `.` and `,` when
/// both are there; a lone comma is decimal before one or two digits, and
/// refused before three (`"1,250"`: 1250.00 or 1.25?); thousands groups
/// are three digits.
pub fn parse_amount(text: &str) -> Result<u64, AmountError> {
    let bad = || AmountError::NotAmount(text.to_string());
    let t = text.trim();
    let (int, group, cents) = match (t.rfind(','), t.rfind('.')) {
        (Some(c), Some(d)) if d > c => (&t[..d], ',', Some(&t[d + 1..])),
        (Some(c), Some(_)) => (&t[..c], '.', Some(&t[c + 1..])),
        (Some(c), None) if t.matches(',').count() == 1 => match t.len() - c - 1 {
            1 | 2 => (&t[..c], ',', Some(&t[c + 1..])),
            3 => return Err(lone_comma(text, &t[..c], &t[c + 1..])),
            _ => (t, ',', None),
        },
        (Some(_), None) => (t, ',', None),
        (None, Some(d)) => (&t[..d], ',', Some(&t[d + 1..])),
        (None, None) => (t, ',', None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    // Thousands groups: 1 to 3 digits, then groups of exactly 3.
    let groups: Vec<&str> = int.split(group).collect();
    let grouped =
        groups.len() == 1 || (groups[0].len() <= 3 && groups[1..].iter().all(|g| g.len() == 3));
    if !groups.iter().all(|g| digits(g)) || !grouped {
        return Err(bad());
    }
    if cents.is_some_and(|c| c.len() > 2 || !digits(c)) {
        return Err(bad());
    }
    let whole: u64 = groups
        .concat()
        .parse()
        .map_err(|_| AmountError::TooLarge(text.to_string()))?;
    let cents: u64 = format!("{:0<2}", cents.unwrap_or(""))
        .parse()
        .map_err(|_| bad())?;
    whole
        .checked_mul(100)
        .and_then(|w| w.checked_add(cents))
        .filter(|&m| m <= MAX_MINOR)
        .ok_or_else(|| AmountError::TooLarge(text.to_string()))
}

/// Why `whole,rest` (a lone comma before three digits) is no amount:
/// not digits; or each reading suggested as an amount this reads back (a
/// decimal reading is money only with two places: 1,250 is 1.25, 0,001
/// is none; a thousands one has no leading zero).
fn lone_comma(text: &str, whole: &str, rest: &str) -> AmountError {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !digits(rest) || whole.len() > 3 {
        return AmountError::NotAmount(text.to_string());
    }
    let n = |s: &str| s.parse::<u64>().unwrap_or(0);
    let thousands = format!("{}.00", n(&format!("{whole}{rest}")));
    if !rest.ends_with('0') {
        return AmountError::Thousands {
            text: text.to_string(),
            thousands,
        };
    }
    AmountError::Ambiguous {
        text: text.to_string(),
        thousands,
        decimal: format!("{}.{}", n(whole), &rest[..2]),
    }
}

/// `minor` units shown with the currency: `£16.67`.
pub fn show(minor: u64, currency: &str) -> String {
    format!("{currency}{}.{:02}", minor / 100, minor % 100)
}

/// `amount` split between `winners`: equal shares, the minor units left
/// over going one each to the first (the earliest claims).
pub fn split(amount: u64, winners: usize) -> Vec<u64> {
    if winners == 0 {
        return Vec::new();
    }
    let n = winners as u64;
    let (each, left) = (amount / n, amount % n);
    (0..n).map(|i| each + u64::from(i < left)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_are_read_to_the_penny() {
        assert_eq!(parse_amount("25.00"), Ok(2500));
        assert_eq!(parse_amount("25"), Ok(2500));
        assert_eq!(parse_amount("25.5"), Ok(2550));
        assert_eq!(parse_amount(" 1,000.05 "), Ok(100_005));
        assert_eq!(parse_amount("0.01"), Ok(1));
        for bad in [
            "",
            "-5",
            "2.555",
            "£5",
            "5.",
            ".5",
            "1e3",
            "abc",
            "5.x",
            "1,00,000",
            "1.000.000",
            "12,5,0",
            ",50",
            "1,0000",
        ] {
            assert!(parse_amount(bad).is_err(), "{bad:?} was taken");
        }
        // See: the hall's books — "12,50" was read as 1250.00.
        assert_eq!(parse_amount("12,50"), Ok(1250));
        assert_eq!(parse_amount("12,5"), Ok(1250));
        assert_eq!(parse_amount("1.000,05"), Ok(100_005));
        assert_eq!(parse_amount("1,000,000"), Ok(100_000_000));
        assert_eq!(
            parse_amount("1 000"),
            Err(AmountError::NotAmount("1 000".into()))
        );
        let err = parse_amount("1,250").unwrap_err();
        assert_eq!(
            err.to_string(),
            "\"1,250\" could be 1250.00 (a thousands comma) or 1.25 (a decimal comma): write \"1250.00\" or \"1.25\""
        );
        assert!(matches!(
            parse_amount("1,000"),
            Err(AmountError::Ambiguous { .. })
        ));
        assert!(matches!(
            parse_amount("99999999999999999999"),
            Err(AmountError::TooLarge(_))
        ));
        assert_eq!(show(1667, "£"), "£16.67");
    }

    // See: issue 62, a refusal's suggestion was itself refused: "0,001"
    // was answered `write "0001.00" or "0.001"`, and "0.001" is no amount.
    #[test]
    fn every_amount_a_refusal_suggests_is_taken() {
        for text in ["0,001", "1,250", "1,000", "12,345", "0,010", "999,999"] {
            let err = parse_amount(text).unwrap_err();
            let said = err.to_string();
            let suggested: Vec<&str> = said.split("write ").nth(1).unwrap().split('"').collect();
            let amounts: Vec<&str> = suggested
                .iter()
                .copied()
                .filter(|s| s.contains('.'))
                .collect();
            assert!(!amounts.is_empty(), "{said}");
            for a in amounts {
                assert!(parse_amount(a).is_ok(), "{text}: {said}: {a:?} is refused");
            }
        }
        assert_eq!(
            parse_amount("0,001").unwrap_err().to_string(),
            "\"0,001\" has a comma before three digits, which as money can only group thousands: write \"1.00\""
        );
        let over = parse_amount("99999999999").unwrap_err().to_string();
        assert!(over.contains("over the largest amount taken"), "{over}");
        assert_eq!(show(5, "$"), "$0.05");
    }

    #[test]
    fn a_split_pays_every_penny_and_the_earliest_first() {
        assert_eq!(split(5000, 3), vec![1667, 1667, 1666]);
        assert_eq!(split(100, 4), vec![25, 25, 25, 25]);
        assert_eq!(split(2, 3), vec![1, 1, 0]);
        assert!(split(100, 0).is_empty());
        for (amount, n) in [(1u64, 7usize), (99_999, 13), (MAX_MINOR, 9_999)] {
            let shares = split(amount, n);
            assert_eq!(shares.iter().sum::<u64>(), amount);
            assert!(shares.windows(2).all(|w| w[0] >= w[1] && w[0] - w[1] <= 1));
        }
    }
}
