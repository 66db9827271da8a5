//! The night file's money: `[[product]]` (what is sold), `[[progressive]]`
//! (jackpots carried from night to night) and a prize that is a share of
//! sales, `prize = { share = "50%", min = "20.00", max = "500.00" }`. Each
//! mistake names its field; the night file's reader names the table.

use super::jackpot::Progressive;
use super::{Cut, Percent, Product};
use crate::hall::money::parse_amount;
use crate::shown::max;
use serde::Deserialize;

/// A mistake: the field, and why.
pub type Refused = (String, String);

fn refused(field: &str, why: impl Into<String>) -> Refused {
    (field.to_string(), why.into())
}

/// An amount written as text; a number is refused (a float cannot hold
/// every penny).
pub fn amount(value: &toml::Value, field: &str) -> Result<u64, Refused> {
    match value {
        toml::Value::String(text) => parse_amount(text).map_err(|e| refused(field, e.to_string())),
        other => {
            let example = match other {
                toml::Value::Integer(n) => format!("{n}.00"),
                toml::Value::Float(x) => format!("{x:.2}"),
                _ => "25.00".into(),
            };
            Err(refused(field, format!(
                "write the amount as text, such as \"{example}\" in quotes (amounts are kept to the penny, never as floating point)"
            )))
        }
    }
}

/// `[[product]]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProductEntry {
    name: String,
    price: toml::Value,
    #[serde(default = "one")]
    faces: u64,
    games: Option<toml::Value>,
    paper: Option<String>,
    #[serde(default)]
    electronic: bool,
    linked: Option<String>,
}

fn one() -> u64 {
    1
}

/// `[electronic]`: the rules of electronic play.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ElectronicEntry {
    /// The card file's faces kept for packs: `"5001..6000"`.
    faces: String,
    cap: Option<u64>,
    #[serde(default)]
    one_device: bool,
}

impl ElectronicEntry {
    /// The rules, checked against the night's products: some product is
    /// electronic, and none holds more faces than the cap.
    pub fn electronic(&self, products: &[Product]) -> Result<super::packs::Electronic, Refused> {
        let range = self.faces.trim().split_once("..").and_then(|(a, b)| {
            let (a, b) = (a.trim().parse::<u64>().ok()?, b.trim().parse::<u64>().ok()?);
            (a >= 1 && a <= b).then_some((a, b))
        });
        let Some((first, last)) = range else {
            return Err(refused(
                "faces",
                format!(
                    "{:?} is not a range of faces: give the card file's faces kept for electronic play, such as \"5001..6000\"",
                    crate::text::clip(&self.faces, 40)
                ),
            ));
        };
        let cap = self.cap.unwrap_or(0);
        if self.cap == Some(0) {
            return Err(refused("cap", "give the most faces a device may hold a game, such as 36 (or leave it out: no cap)"));
        }
        let electronic: Vec<&Product> = products.iter().filter(|p| p.electronic).collect();
        if electronic.is_empty() {
            return Err(refused("faces", "no [[product]] is electronic: add one with electronic = true, which is sold as packs from these faces"));
        }
        if let Some(p) = electronic.iter().find(|p| cap > 0 && p.faces > cap) {
            return Err(refused("cap", format!(
                "a pack of {:?} holds {} faces, past the cap of {cap}: make its packs smaller or the cap larger",
                p.name, p.faces
            )));
        }
        if let Some(p) = electronic.iter().find(|p| p.linked.is_some()) {
            return Err(refused(
                "faces",
                format!(
                    "{:?} plays a linked game: packs are of the night's own games",
                    p.name
                ),
            ));
        }
        Ok(super::packs::Electronic {
            first,
            last,
            cap,
            one_device: self.one_device,
        })
    }
}

/// `[[progressive]]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProgressiveEntry {
    name: String,
    seed: toml::Value,
    increment: Option<toml::Value>,
    share: Option<String>,
    within: usize,
    #[serde(default)]
    add_calls: usize,
    ceiling: Option<toml::Value>,
    must_go: Option<String>,
}

/// A prize as a share of sales.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CutEntry {
    share: String,
    min: Option<toml::Value>,
    max: Option<toml::Value>,
}

/// A prize value that is a table: a share of sales.
pub fn cut(value: &toml::Value, field: &str) -> Result<Cut, Refused> {
    let entry: CutEntry = value.clone().try_into().map_err(|e: toml::de::Error| {
        refused(field, format!("{}: give {{ share = \"50%\", min = \"20.00\", max = \"500.00\" }} (min and max optional)", e.message().trim()))
    })?;
    let share = Percent::parse(&entry.share).map_err(|e| refused(&format!("{field}.share"), e))?;
    let opt = |v: &Option<toml::Value>, f: &str| {
        v.as_ref()
            .map(|v| amount(v, &format!("{field}.{f}")))
            .transpose()
    };
    Ok(Cut {
        share,
        min: opt(&entry.min, "min")?.unwrap_or(0),
        max: opt(&entry.max, "max")?,
    })
}

fn name_of(field: &str, text: &str) -> Result<String, Refused> {
    let name = crate::shown::shown(text, max::NAME)
        .map_err(|e| refused(field, format!("{field}: {e}")))?;
    if name.is_empty() {
        return Err(refused(field, "give it a name"));
    }
    Ok(name)
}

impl ProductEntry {
    /// The name it is given, as written.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The product; `games` names the programme's games in order.
    pub fn product(&self, games: &[String]) -> Result<Product, Refused> {
        let name = name_of("name", &self.name)?;
        let price = amount(&self.price, "price")?;
        if self.faces == 0 {
            return Err(refused(
                "faces",
                "a unit holds at least one face (a book of 6 pages of 1 face: faces = 6)",
            ));
        }
        let played = match &self.games {
            None => Vec::new(),
            Some(toml::Value::String(s)) if s == "all" => Vec::new(),
            Some(toml::Value::Array(list)) if !list.is_empty() => {
                let mut out = Vec::new();
                for v in list {
                    let k = v
                        .as_str()
                        .and_then(|n| games.iter().position(|g| g == n))
                        .ok_or_else(|| {
                            refused("games", format!("{} is not a game of the night: name games as [[game]] does ({})", v.as_str().map_or_else(|| format!("{v:?}"), |n| format!("{n:?}")), quoted(games)))
                        })?;
                    if !out.contains(&(k + 1)) {
                        out.push(k + 1);
                    }
                }
                out.sort_unstable();
                out
            }
            Some(_) => {
                return Err(refused(
                    "games",
                    "give \"all\", or a list of the games' names, [\"Early bird\", \"Jackpot\"]",
                ))
            }
        };
        let linked = self.linked()?;
        if linked.is_some() && self.games.is_some() {
            return Err(refused(
                "games",
                "a linked product plays its linked game only: leave out games, or linked",
            ));
        }
        let paper = (self.paper.as_deref())
            .map(|p| {
                crate::hall::paper::paper_colour(p)
                    .map_err(|why| refused("paper", why.to_string()))?;
                Ok::<_, Refused>(p.trim().to_string())
            })
            .transpose()?;
        Ok(Product {
            name,
            price,
            faces: self.faces,
            games: played,
            paper,
            electronic: self.electronic,
            linked,
        })
    }

    /// The linked game's id, as the network file names it.
    fn linked(&self) -> Result<Option<String>, Refused> {
        let Some(id) = &self.linked else {
            return Ok(None);
        };
        if !crate::text::is_id(id) {
            return Err(refused(
                "linked",
                format!("{id:?} is not a linked game's id: give the network file's game, letters, digits, '-' and '_' (at most 32), such as \"national-1\""),
            ));
        }
        Ok(Some(id.clone()))
    }
}

fn quoted(names: &[String]) -> String {
    let list: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
    list.join(", ")
}

impl ProgressiveEntry {
    /// The name it is given, as written.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The jackpot's rules.
    pub fn progressive(&self) -> Result<Progressive, Refused> {
        let opt = |v: &Option<toml::Value>, f: &str| v.as_ref().map(|v| amount(v, f)).transpose();
        let share = (self.share.as_deref())
            .map(|s| Percent::parse(s).map_err(|e| refused("share", e)))
            .transpose()?
            .unwrap_or_default();
        if self.within == 0 {
            return Err(refused(
                "within",
                "give the calls a win must come within, such as 48",
            ));
        }
        let seed = amount(&self.seed, "seed")?;
        let ceiling = opt(&self.ceiling, "ceiling")?;
        if let Some(c) = ceiling.filter(|&c| c < seed) {
            return Err(refused(
                "ceiling",
                format!("{} is below the seed {}", c, seed),
            ));
        }
        if let Some(d) = &self.must_go {
            if !is_date(d) {
                return Err(refused(
                    "must_go",
                    format!("{d:?} is not a date: write YYYY-MM-DD, such as \"2026-12-31\""),
                ));
            }
        }
        Ok(Progressive {
            name: name_of("name", &self.name)?,
            seed,
            increment: opt(&self.increment, "increment")?.unwrap_or(0),
            share,
            within: self.within,
            add_calls: self.add_calls,
            ceiling,
            must_go: self.must_go.clone(),
        })
    }
}

/// Whether `text` is a date `YYYY-MM-DD`.
pub fn is_date(text: &str) -> bool {
    let b = text.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    if b.len() != 10
        || b[4] != b'-'
        || b[7] != b'-'
        || !digits(0..4)
        || !digits(5..7)
        || !digits(8..10)
    {
        return false;
    }
    let (m, d): (u32, u32) = (
        text[5..7].parse().unwrap_or(0),
        text[8..10].parse().unwrap_or(0),
    );
    let year: u32 = text[..4].parse().unwrap_or(0);
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match m {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    (1..=12).contains(&m) && (1..=days).contains(&d)
}
