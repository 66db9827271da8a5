//! The network file (the control's) and the venue file, read and checked
//! field by field.

use super::{game, LinkError};
use crate::cardfile::CardFile;
use crate::hall::sales::Cut;
use crate::link::message::{Allotment, Faces};
use crate::play::pattern::Pattern;
use crate::text::is_id;
use serde::Deserialize;
use std::path::{Path, PathBuf};

type Result<T, E = LinkError> = std::result::Result<T, E>;

/// The control's network file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NetworkEntry {
    game: String,
    stock: PathBuf,
    pattern: String,
    #[serde(default = "pound")]
    currency: String,
    prize: toml::Value,
    #[serde(default = "sales_seconds")]
    sales_seconds: u64,
    #[serde(default = "claim_seconds")]
    claim_seconds: u64,
    #[serde(default = "national")]
    play: String,
    #[serde(default = "call_ms")]
    call_ms: u64,
    #[serde(default = "claim_ms")]
    claim_ms: u64,
    #[serde(default = "grace_ms")]
    grace_ms: u64,
    venue: Vec<VenueEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VenueEntry {
    id: String,
    faces: String,
}

fn pound() -> String {
    "£".into()
}
fn sales_seconds() -> u64 {
    60
}
fn claim_seconds() -> u64 {
    120
}
fn national() -> String {
    "national".into()
}
fn call_ms() -> u64 {
    3000
}
fn claim_ms() -> u64 {
    5000
}
fn grace_ms() -> u64 {
    10_000
}

/// A live game's pace, in milliseconds: between calls, the claim window
/// after a hold, and how long a venue may leave a call unacknowledged
/// before it is voided for the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pace {
    pub call_ms: u64,
    pub claim_ms: u64,
    pub grace_ms: u64,
}

/// How the game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Play {
    /// The sealed order revealed to all; the fewest calls win.
    National,
    /// The control calls at its pace; a claim holds the next call for the
    /// claim window, then the claims at that call are judged.
    Live(Pace),
}

impl Play {
    /// Its name in the game's records.
    pub fn name(self) -> &'static str {
        match self {
            Play::National => "national",
            Play::Live(_) => "live",
        }
    }
}

fn play(e: &NetworkEntry) -> Result<Play> {
    let ms = 100..=600_000;
    match e.play.as_str() {
        "national" => Ok(Play::National),
        "live"
            if [e.call_ms, e.claim_ms, e.grace_ms]
                .iter()
                .all(|t| ms.contains(t)) =>
        {
            Ok(Play::Live(Pace {
                call_ms: e.call_ms,
                claim_ms: e.claim_ms,
                grace_ms: e.grace_ms,
            }))
        }
        "live" => Err(game!(
            "call_ms, claim_ms and grace_ms: give 100 to 600000 milliseconds"
        )),
        other => Err(game!(
            "play: {other:?} is not a linked game: give \"national\" or \"live\""
        )),
    }
}

/// A linked game as the control runs it.
pub struct Network {
    pub game: String,
    pub stock: CardFile,
    pub pattern: Pattern,
    pub pattern_name: String,
    pub currency: String,
    pub prize: Cut,
    pub sales_seconds: u64,
    pub claim_seconds: u64,
    pub play: Play,
    pub venues: Vec<Allotment>,
}

fn read_toml<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| game!("cannot read '{}': {e}", path.display()))?;
    toml::from_str(&text).map_err(|e| game!("'{}': {}", path.display(), e.to_string().trim()))
}

/// A path in a file, taken from the file's folder.
fn beside(file: &Path, path: &Path) -> PathBuf {
    match file.parent() {
        Some(dir) if path.is_relative() => dir.join(path),
        _ => path.to_path_buf(),
    }
}

fn name(field: &str, text: &str) -> Result<String> {
    if !is_id(text) {
        return Err(game!(
            "{field}: {text:?} cannot name it: give 1 to 32 letters, digits, '-' or '_'"
        ));
    }
    Ok(text.to_string())
}

/// Face ranges `1..3000,5001..6000` of `stock`.
fn ranges(field: &str, text: &str, stock: &CardFile) -> Result<Vec<Faces>> {
    let parsed =
        crate::hall::sold::parse_sold(text, stock.header()).map_err(|e| game!("{field}: {e}"))?;
    let within = crate::hall::sold::sold_within(parsed, stock.header().face_range(), stock.path())
        .map_err(|e| game!("{field}: {e}"))?;
    Ok(within.into_iter().map(|r| (*r.start(), *r.end())).collect())
}

fn pattern(text: &str, stock: &CardFile) -> Result<Pattern> {
    Pattern::parse(text, stock.header().spec).map_err(|e| game!("pattern: {e}"))
}

/// Reads and checks the network file at `path`.
pub fn network(path: &Path) -> Result<Network> {
    let e: NetworkEntry = read_toml(path)?;
    let stock =
        CardFile::open_intact(&beside(path, &e.stock)).map_err(|err| game!("stock: {err}"))?;
    let prize = crate::hall::sales::parse::cut(&e.prize, "prize")
        .map_err(|(field, why)| game!("{field}: {why}"))?;
    if e.venue.is_empty() {
        return Err(game!(
            "venue: name the venues that play, [[venue]] id = \"leeds\", faces = \"1..3000\""
        ));
    }
    if !(1..=86_400).contains(&e.sales_seconds) || !(1..=86_400).contains(&e.claim_seconds) {
        return Err(game!(
            "sales_seconds and claim_seconds: give 1 to 86400 seconds"
        ));
    }
    let mut venues = Vec::new();
    for (k, v) in e.venue.iter().enumerate() {
        let field = format!("venue {} ({:?})", k + 1, v.id);
        venues.push(Allotment {
            venue: name(&format!("{field}.id"), &v.id)?,
            faces: ranges(&format!("{field}.faces"), &v.faces, &stock)?,
        });
    }
    let range = stock.header().face_range();
    crate::link::national::check_allotments(&venues, (*range.start(), *range.end()))
        .map_err(|why| game!("venue: {why}"))?;
    Ok(Network {
        game: name("game", &e.game)?,
        pattern: pattern(&e.pattern, &stock)?,
        pattern_name: e.pattern.clone(),
        currency: crate::hall::rules::shown_field("currency", &e.currency, 8)
            .map_err(|err| game!("{err}"))?,
        stock,
        prize,
        sales_seconds: e.sales_seconds,
        claim_seconds: e.claim_seconds,
        play: play(&e)?,
        venues,
    })
}

/// A venue file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VenueFileEntry {
    venue: String,
    game: String,
    stock: PathBuf,
    control: String,
    sold: Option<String>,
    price: Option<toml::Value>,
    hall: Option<PathBuf>,
}

/// Where a venue's sales come from.
pub enum Selling {
    /// Faces and a face's price (minor units), as the venue file gives them.
    Fixed { sold: Vec<Faces>, price: u64 },
    /// A hall's night log (`hall`): the faces its products linked to the
    /// game sold, and their net takings, read when the game opens.
    Hall(PathBuf),
}

/// A venue's part in a linked game.
pub struct Venue {
    pub venue: String,
    pub game: String,
    pub stock: CardFile,
    pub control: ed25519_dalek::VerifyingKey,
    pub selling: Selling,
}

/// Reads and checks the venue file at `path`.
pub fn venue(path: &Path) -> Result<Venue> {
    let e: VenueFileEntry = read_toml(path)?;
    let stock =
        CardFile::open_intact(&beside(path, &e.stock)).map_err(|err| game!("stock: {err}"))?;
    let control = crate::link::record::unhex::<32>(&e.control)
        .and_then(|b| ed25519_dalek::VerifyingKey::from_bytes(&b).ok())
        .ok_or_else(|| game!("control: give the control's public key, 64 hex digits, as `bingomint link key` printed it"))?;
    let selling = match (&e.hall, &e.sold, &e.price) {
        (Some(hall), None, None) => Selling::Hall(beside(path, hall)),
        (None, Some(sold), Some(price)) => Selling::Fixed {
            sold: ranges("sold", sold, &stock)?,
            price: face_price(price)?,
        },
        (Some(_), _, _) => {
            return Err(game!(
                "hall: a venue's sales come from its hall's log or from sold and price, not both: leave out sold and price"
            ))
        }
        (None, _, _) => {
            return Err(game!(
                "sold: give the faces sold and a face's price (sold = \"1..2500\", price = \"0.50\"), or the hall's log (hall = \"night.jsonl\")"
            ))
        }
    };
    Ok(Venue {
        venue: name("venue", &e.venue)?,
        game: name("game", &e.game)?,
        stock,
        control,
        selling,
    })
}

/// A face's price, written as an amount in quotes.
fn face_price(price: &toml::Value) -> Result<u64> {
    match price {
        toml::Value::String(s) => {
            crate::hall::money::parse_amount(s).map_err(|err| game!("price: {err}"))
        }
        _ => Err(game!(
            "price: give a face's price in quotes, such as \"0.50\""
        )),
    }
}
