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
        "{0:?} is not an amount: write it as text with at most two decimals, such as \"25.00\""
    )]
    NotAmount(String),
    #[error("{0:?} is over the largest prize taken (10000000000.00)")]
    TooLarge(String),
}

/// The amount `text` says (`"25"`, `"25.5"`, `"25.00"`, `"1,000.00"`), in
/// minor units (hundredths).
pub fn parse_amount(text: &str) -> Result<u64, AmountError> {
    let bad = || AmountError::NotAmount(text.to_string());
    let plain: String = text.trim().chars().filter(|&c| c != ',').collect();
    let (whole, cents) = match plain.split_once('.') {
        Some((w, c)) => (w, Some(c)),
        None => (plain.as_str(), None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || cents.is_some_and(|c| c.len() > 2 || !digits(c)) {
        return Err(bad());
    }
    let whole: u64 = whole
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
        for bad in ["", "-5", "2.555", "£5", "5.", ".5", "1e3", "abc", "5.x"] {
            assert!(parse_amount(bad).is_err(), "{bad:?} was taken");
        }
        assert!(matches!(
            parse_amount("99999999999999999999"),
            Err(AmountError::TooLarge(_))
        ));
        assert_eq!(show(1667, "£"), "£16.67");
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
