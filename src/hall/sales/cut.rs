//! Shares of sales: a [`Percent`] to the hundredth, and a prize that is a
//! share of its game's sales ([`Cut`]), at least a minimum and at most a
//! maximum, fixed when the game starts.

use super::money;
use serde::{Deserialize, Serialize};

/// A share in hundredths of a percent (basis points): `50%` is 5000.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Percent(pub u32);

impl Percent {
    /// `"50%"`, `"12.5%"`, `"0.25 %"`: at most 100 %, two decimals.
    pub fn parse(text: &str) -> Result<Percent, String> {
        let t = text.trim();
        let bad = || {
            format!("{text:?} is not a share: write it as a percentage in quotes, such as \"50%\" or \"12.5%\"")
        };
        let number = t.strip_suffix('%').ok_or_else(bad)?.trim();
        let (int, frac) = match number.split_once('.') {
            Some((i, f)) => (i, Some(f)),
            None => (number, None),
        };
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if !digits(int) || !frac.is_none_or(|f| digits(f) && f.len() <= 2) {
            return Err(bad());
        }
        let whole: u32 = int.parse().map_err(|_| bad())?;
        let cents: u32 = format!("{:0<2}", frac.unwrap_or(""))
            .parse()
            .map_err(|_| bad())?;
        let bp = whole.checked_mul(100).and_then(|w| w.checked_add(cents));
        match bp {
            Some(bp) if bp <= 10_000 => Ok(Percent(bp)),
            _ => Err(format!("{text:?} is more than 100%")),
        }
    }

    /// This share of `amount`, rounded down to the minor unit.
    pub fn of(self, amount: u64) -> u64 {
        (u128::from(amount) * u128::from(self.0) / 10_000) as u64
    }

    /// `50%`, `12.5%`.
    pub fn words(self) -> String {
        let (whole, cents) = (self.0 / 100, self.0 % 100);
        match cents {
            0 => format!("{whole}%"),
            c if c % 10 == 0 => format!("{whole}.{}%", c / 10),
            c => format!("{whole}.{c:02}%"),
        }
    }
}

/// A prize that is a share of its game's sales, at least `min` and at
/// most `max`: fixed when the game starts, never changed after.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cut {
    pub share: Percent,
    #[serde(default)]
    pub min: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u64>,
}

impl Cut {
    /// The prize on `sales`.
    pub fn amount(&self, sales: u64) -> u64 {
        let a = self.share.of(sales).max(self.min);
        self.max.map_or(a, |m| a.min(m)).min(money::MAX_MINOR)
    }

    /// `50% of sales, at least £20.00`.
    pub fn words(&self, currency: &str) -> String {
        let mut w = format!("{} of sales", self.share.words());
        if self.min > 0 {
            w.push_str(&format!(", at least {}", money::show(self.min, currency)));
        }
        if let Some(m) = self.max {
            w.push_str(&format!(", at most {}", money::show(m, currency)));
        }
        w
    }
}
