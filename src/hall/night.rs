//! A night file: the programme of a night at the hall, in TOML. A title,
//! a currency, and the games in order, each a [`Plan`]: its name, its
//! pattern (or stages in order, or prizes open at once), prize amounts as
//! decimal text, its paper, and the special games. Every mistake is named
//! by game and field. (Over 600 lines with its tests: the reader is about
//! 540, its tests the rest.)

use super::rules::{shown_field, Asked, AskedJackpot, FieldError, Near, Plan, Share, ToGo};
use super::sales::jackpot::{Progress, Progressive};
use super::sales::parse::{self, ProductEntry, ProgressiveEntry};
use super::sales::{Cut, Product};
use crate::shown::max;
use serde::Deserialize;

/// A night's programme, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Night {
    pub title: String,
    pub currency: String,
    /// The game's numbers, when the file names them (`balls = 90`).
    pub balls: Option<u8>,
    pub games: Vec<Plan>,
    /// What the night sells (`[[product]]`).
    pub products: Vec<Product>,
    /// The progressive jackpots its games offer (`[[progressive]]`).
    pub progressives: Vec<Progressive>,
    /// The hall's time zone (`zone = "America/Los_Angeles"`): reports show
    /// the night's times in it.
    pub zone: Option<String>,
    /// Who the night is for (`audience = "class"`): the pages' words.
    pub audience: super::state::Audience,
    /// The rules of electronic play (`[electronic]`).
    pub electronic: Option<super::sales::packs::Electronic>,
    /// The languages calls are spoken in, in turn (`languages = ["en",
    /// "es"]`; none: the browser's own).
    pub languages: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    title: String,
    #[serde(default)]
    currency: String,
    zone: Option<String>,
    #[serde(default)]
    audience: super::state::Audience,
    balls: Option<u8>,
    /// Who shares a prize, for every game that does not say.
    share: Option<Share>,
    #[serde(default)]
    game: Vec<Entry>,
    #[serde(default)]
    product: Vec<ProductEntry>,
    #[serde(default)]
    progressive: Vec<ProgressiveEntry>,
    electronic: Option<parse::ElectronicEntry>,
    #[serde(default)]
    languages: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    name: String,
    pattern: Option<String>,
    stages: Option<Vec<String>>,
    prizes: Option<Vec<PrizeEntry>>,
    prize: Option<toml::Value>,
    paper: Option<String>,
    #[serde(default)]
    last_call: bool,
    jackpot: Option<JackpotEntry>,
    consolation: Option<NearEntry>,
    #[serde(default)]
    precalls: usize,
    #[serde(default)]
    wild: bool,
    share: Option<Share>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PrizeEntry {
    pattern: String,
    prize: Option<toml::Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JackpotEntry {
    within: Option<usize>,
    prize: Option<toml::Value>,
    consolation: Option<toml::Value>,
    /// A progressive jackpot (`[[progressive]]`) by name: its pot and
    /// calls come from the ledger.
    progressive: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NearEntry {
    to_go: ToGo,
    prize: toml::Value,
}

impl JackpotEntry {
    /// The jackpot as asked: its own amounts, or a progressive's pot and
    /// calls as its rules start them (the ledger's replace them when the
    /// game starts).
    fn asked(&self, progressives: &[Progressive]) -> Result<AskedJackpot, FieldError> {
        let consolation = (self.consolation.as_ref())
            .map(|v| amount(v, "jackpot.consolation"))
            .transpose()?;
        let (within, prize, progress) = match (&self.progressive, self.within, &self.prize) {
            (Some(name), None, None) => {
                let p = (progressives.iter().find(|p| p.name == *name)).ok_or_else(|| {
                    let names: Vec<String> = progressives.iter().map(|p| format!("{:?}", p.name)).collect();
                    FieldError::of("jackpot.progressive", format!("{name:?} is not a [[progressive]] of the night ({})", if names.is_empty() { "it lists none".into() } else { names.join(", ") }))
                })?;
                let progress = Progress {
                    name: name.clone(),
                    pot: p.seed,
                    added: 0,
                    must_go: false,
                    day: String::new(),
                };
                (p.within, p.seed, Some(progress))
            }
            (Some(_), ..) => {
                return Err(FieldError::of(
                    "jackpot",
                    "a progressive jackpot's pot and calls come from its ledger: give progressive and consolation only",
                ))
            }
            (None, Some(within), Some(prize)) => (within, amount(prize, "jackpot.prize")?, None),
            (None, None, _) => return Err(FieldError::of("jackpot.within", "give the calls a win must come within")),
            (None, _, None) => return Err(FieldError::of("jackpot.prize", "give the jackpot's amount")),
        };
        Ok(AskedJackpot {
            within,
            prize,
            consolation,
            progress,
        })
    }
}

impl NearEntry {
    /// The consolation: `to_go` a count of numbers, or `"nearest"`.
    fn near(&self) -> Result<Near, FieldError> {
        let prize = amount(&self.prize, "consolation.prize")?;
        let to_go = (self.to_go.distance()).map_err(|e| FieldError::of("consolation.to_go", e))?;
        Ok(Near { to_go, prize })
    }
}

/// A night file that cannot be played: where, and why.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("{where_}: {why}")]
pub struct NightError {
    /// `line 7` or `game 3 ("Jackpot")`.
    pub where_: String,
    pub why: String,
}

/// An amount written as text ([`parse::amount`]).
fn amount(value: &toml::Value, field: &str) -> Result<u64, FieldError> {
    parse::amount(value, field).map_err(|(field, why)| FieldError::of(&field, why))
}

impl Night {
    /// Reads a night file's text.
    pub fn parse(text: &str) -> Result<Night, NightError> {
        let file: File = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
        let field = |field: &str, text: &str, most: usize| {
            shown_field(field, text, most).map_err(|e| NightError {
                where_: "the file".into(),
                why: e.to_string(),
            })
        };
        let title = field("title", &file.title, max::TITLE)?;
        let currency = field("currency", &file.currency, max::CURRENCY)?;
        if title.is_empty() {
            return Err(NightError {
                where_: "title".into(),
                why: "give the night a title".into(),
            });
        }
        if file.game.is_empty() {
            return Err(NightError {
                where_: "the file".into(),
                why: "no [[game]]: list the night's games in order".into(),
            });
        }
        let progressives = progressives(&file.progressive)?;
        let zone = (file.zone.as_deref())
            .map(|z| super::zone::Zone::parse(z).map(|z| z.name().to_string()))
            .transpose()
            .map_err(|why| NightError {
                where_: "zone".into(),
                why,
            })?;
        let names: Vec<String> = file
            .game
            .iter()
            .map(|g| g.name.trim().to_string())
            .collect();
        let games = games(file.game, file.share, &currency, &progressives)?;
        let products = products(&file.product, &names)?;
        let electronic = (file.electronic.as_ref())
            .map(|e| e.electronic(&products))
            .transpose()
            .map_err(|(field, why)| NightError {
                where_: format!("electronic.{field}"),
                why,
            })?;
        let languages = languages(&file.languages)?;
        Ok(Night {
            title,
            currency,
            balls: file.balls,
            games,
            products,
            progressives,
            zone,
            audience: file.audience,
            electronic,
            languages,
        })
    }
}

/// `languages`: one to three language tags the browsers' voices speak
/// (`en`, `es`, `en-GB`, `es-MX`), each once.
fn languages(tags: &[String]) -> Result<Vec<String>, NightError> {
    let refused = |why: String| NightError {
        where_: "languages".into(),
        why,
    };
    if tags.len() > 3 {
        return Err(refused("at most 3 languages, spoken in turn".into()));
    }
    let mut out: Vec<String> = Vec::new();
    for tag in tags {
        let (lang, region) = tag.split_once('-').unwrap_or((tag, ""));
        let lang_ok = lang.len() == 2 && lang.bytes().all(|b| b.is_ascii_lowercase());
        let region_ok = region.is_empty()
            || (region.len() == 2 && region.bytes().all(|b| b.is_ascii_uppercase()));
        if !lang_ok || !region_ok {
            return Err(refused(format!(
                "{:?} is not a language tag: give such as \"en\", \"es\" or \"en-GB\"",
                crate::text::clip(tag, 20)
            )));
        }
        if out.contains(tag) {
            return Err(refused(format!("{tag:?} is listed twice")));
        }
        out.push(tag.clone());
    }
    Ok(out)
}

/// Where a night file is not TOML, and why.
fn toml_error(text: &str, e: &toml::de::Error) -> NightError {
    let line = e.span().map(|s| {
        text.as_bytes()[..s.start.min(text.len())]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1
    });
    NightError {
        where_: line.map_or("the file".into(), |l| format!("line {l}")),
        why: e.message().trim().to_string(),
    }
}

/// The night's games, planned in order (a game without its own `share`
/// takes the file's); a progressive jackpot offered once a night.
fn games(
    entries: Vec<Entry>,
    share: Option<Share>,
    currency: &str,
    progressives: &[Progressive],
) -> Result<Vec<Plan>, NightError> {
    let mut games = Vec::new();
    let names: Vec<String> = entries.iter().map(|g| g.name.trim().to_string()).collect();
    for (i, mut entry) in entries.into_iter().enumerate() {
        let where_ = format!("game {} ({:?})", i + 1, entry.name);
        entry.share = entry.share.or(share);
        let plan = (entry.plan(currency, i + 1, progressives)).map_err(|e| NightError {
            where_,
            why: e.to_string(),
        })?;
        if let Some(p) = &plan.rules.progressive {
            if let Some(k) = (games.iter()).position(|g: &Plan| {
                g.rules
                    .progressive
                    .as_ref()
                    .is_some_and(|q| q.name == p.name)
            }) {
                return Err(NightError {
                        where_: format!("game {} ({:?})", i + 1, names[i]),
                        why: format!("jackpot.progressive: game {} offers {:?} already: a progressive is played once a night", k + 1, p.name),
                    });
            }
        }
        games.push(plan);
    }
    Ok(games)
}

impl Night {
    /// Checks every game against the game of the cards (`spec`).
    pub fn check(&self, spec: crate::game::Spec) -> Result<(), NightError> {
        if let Some(b) = self.balls.filter(|&b| b != spec.balls()) {
            return Err(NightError {
                where_: "balls".into(),
                why: format!(
                    "the night is for {b}-ball, but the cards are {}",
                    spec.short_name()
                ),
            });
        }
        for (i, plan) in self.games.iter().enumerate() {
            plan.check(spec).map_err(|e| NightError {
                where_: format!(
                    "game {} ({:?})",
                    i + 1,
                    plan.rules.name.as_deref().unwrap_or("")
                ),
                why: e.to_string(),
            })?;
        }
        Ok(())
    }
}

/// The night's `[[product]]` tables, checked (`games`: the games' names).
fn products(entries: &[ProductEntry], games: &[String]) -> Result<Vec<Product>, NightError> {
    named(
        "product",
        entries,
        |e| e.product(games),
        |p| &p.name,
        ProductEntry::name,
    )
}

/// The night's `[[progressive]]` tables, checked.
fn progressives(entries: &[ProgressiveEntry]) -> Result<Vec<Progressive>, NightError> {
    named(
        "progressive",
        entries,
        ProgressiveEntry::progressive,
        |p| &p.name,
        ProgressiveEntry::name,
    )
}

/// Tables of `what` read by `read`, each named once (`name`); a mistake
/// names the table by its place.
fn named<E, T>(
    what: &str,
    entries: &[E],
    read: impl Fn(&E) -> Result<T, parse::Refused>,
    name: impl Fn(&T) -> &String,
    named: impl Fn(&E) -> &str,
) -> Result<Vec<T>, NightError> {
    let mut out: Vec<T> = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        // Named as a game's mistake is: its place and its name.
        let refused = |why: String| NightError {
            where_: format!("{what} {} ({:?})", i + 1, named(entry)),
            why,
        };
        let t = read(entry).map_err(|(field, why)| refused(format!("{field}: {why}")))?;
        if out.iter().any(|q| name(q) == name(&t)) {
            return Err(refused(format!("name: {:?} is listed twice", name(&t))));
        }
        out.push(t);
    }
    Ok(out)
}

/// Prizes open at once: each its pattern and the amount it names, if any
/// (all or none: `Rules::check` counts them).
fn open_prizes(prizes: Vec<PrizeEntry>) -> Result<Vec<(String, Option<u64>)>, FieldError> {
    (prizes.into_iter().enumerate())
        .map(|(k, p)| {
            let field = format!("prizes[{}].prize", k + 1);
            let amount = p.prize.as_ref().map(|v| amount(v, &field)).transpose()?;
            Ok((p.pattern, amount))
        })
        .collect()
}

impl Entry {
    /// The game as a plan.
    fn plan(
        self,
        currency: &str,
        number: usize,
        progressives: &[Progressive],
    ) -> Result<Plan, FieldError> {
        let amounts = match (&self.prize, &self.prizes) {
            (None, _) => None,
            (Some(_), Some(_)) => {
                return Err(FieldError::of(
                    "prize",
                    "each of prizes names its own prize",
                ))
            }
            (Some(_), None) => Some(self.amounts_of(self.stages.as_ref().map_or(1, Vec::len))?),
        };
        let jackpot = (self.jackpot.as_ref())
            .map(|j| j.asked(progressives))
            .transpose()?;
        let near = self.consolation.as_ref().map(NearEntry::near).transpose()?;
        let asked = Asked {
            name: Some(self.name),
            paper: self.paper,
            words: String::new(),
            pattern: self.pattern,
            stages: self.stages,
            prizes: self.prizes.map(open_prizes).transpose()?,
            amounts,
            last_call: self.last_call,
            jackpot,
            near,
            precalls: self.precalls,
            wild: self.wild,
            share: self.share,
            planned: Some(number),
            currency: currency.to_string(),
        };
        let plan = asked.plan()?;
        if plan.rules.name.as_deref().is_none_or(str::is_empty) {
            return Err(FieldError::of("name", "give the game a name"));
        }
        Ok(plan)
    }

    /// The `prize` field for `n` stages: one amount (or share of sales),
    /// or a list of `n`; the amounts, and the shares (empty: none).
    fn amounts_of(&self, n: usize) -> Result<(Vec<u64>, Vec<Option<Cut>>), FieldError> {
        let one = |v: &toml::Value, field: &str| match v {
            toml::Value::Table(_) => {
                let c = parse::cut(v, field).map_err(|(f, why)| FieldError::of(&f, why))?;
                Ok((0, Some(c)))
            }
            v => Ok((amount(v, field)?, None)),
        };
        let (amounts, cuts): (Vec<u64>, Vec<Option<Cut>>) = match &self.prize {
            None => return Ok((Vec::new(), Vec::new())),
            Some(toml::Value::Array(list)) => {
                if list.len() != n {
                    return Err(FieldError::of(
                        "prize",
                        format!("{} amounts for {n} stages; give one for each", list.len()),
                    ));
                }
                (list.iter().enumerate())
                    .map(|(k, v)| one(v, &format!("prize[{}]", k + 1)))
                    .collect::<Result<Vec<_>, _>>()?
                    .into_iter()
                    .unzip()
            }
            Some(v) if n == 1 => {
                let (a, c) = one(v, "prize")?;
                (vec![a], vec![c])
            }
            Some(_) => {
                return Err(FieldError::of(
                    "prize",
                    format!("the game has {n} stages: give a list of {n} amounts, [\"10.00\", …]"),
                ))
            }
        };
        let cuts = if cuts.iter().all(Option::is_none) {
            Vec::new()
        } else {
            cuts
        };
        Ok((amounts, cuts))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NIGHT: &str = r#"
title = "Friday at St Mary's"
currency = "£"
[[game]]
name = "Early bird"
pattern = "line"
prize = "25.00"
paper = "yellow"
[[game]]
name = "Jackpot"
pattern = "coverall"
prize = "10.00"
jackpot = { within = 50, prize = "500.00", consolation = "100.00" }
"#;

    #[test]
    fn the_issue_s_night_reads() {
        let night = Night::parse(NIGHT).unwrap();
        assert_eq!(night.title, "Friday at St Mary's");
        assert_eq!(night.games.len(), 2);
        assert_eq!(night.games[0].rules.amounts, vec![2500]);
        assert_eq!(night.games[0].prize_text(), "£25.00");
        let j = night.games[1].rules.jackpot.unwrap();
        assert_eq!((j.within, j.prize, j.consolation), (50, 50_000, 10_000));
        assert_eq!(night.games[1].rules.planned, Some(2));
    }

    #[test]
    fn mistakes_are_named_by_game_and_field() {
        let err = |text: &str| Night::parse(text).unwrap_err().to_string();
        let head = "title = \"t\"\n[[game]]\nname = \"Line\"\n";
        assert!(err(&format!("{head}pattern = \"line\"\nprize = 25.0\n"))
            .contains("game 1 (\"Line\"): prize: write the amount as text"));
        assert!(
            err(&format!("{head}pattern = \"line\"\nprize = \"2.555\"\n"))
                .contains("game 1 (\"Line\"): prize: \"2.555\" is not an amount")
        );
        let typo = err(&format!("{head}pattern = \"line\"\npatern = \"x\"\n"));
        assert!(
            typo.starts_with("line 5") && typo.contains("patern"),
            "{typo}"
        );
        assert!(
            err(&format!("{head}stages = [\"a\", \"b\"]\nprize = \"1\"\n"))
                .contains("give a list of 2 amounts")
        );
        assert!(err(&format!("{head}\n")).contains("give one of pattern, stages"));
        assert!(err("title = \"t\"\n").contains("no [[game]]"));
        // See: issue 62, a product's mistake was named by index alone.
        let product = format!(
            "{head}pattern = \"line\"\n[[product]]\nname = \"Book\"\nprice = \"1.00\"\n[[product]]\nname = \"Single\"\nprice = 2.0\n"
        );
        let said = err(&product);
        assert!(said.contains("product 2 (\"Single\"): price"), "{said}");
        // A product of a linked game (`bingomint link`) names it by its id.
        let linked = |extra: &str| {
            err(&format!(
                "{head}pattern = \"line\"\n[[product]]\nname = \"N\"\nprice = \"1.00\"\n{extra}"
            ))
        };
        let said = linked("linked = \"national 1\"\n");
        assert!(
            said.contains("product 1 (\"N\"): linked: \"national 1\" is not a linked game's id"),
            "{said}"
        );
        let said = linked("linked = \"n1\"\ngames = [\"Line\"]\n");
        assert!(
            said.contains("games: a linked product plays its linked game only"),
            "{said}"
        );
        // See: issue 62, 2,000 stages in a game gave every viewer 312 KiB.
        let stages = vec!["\"line\""; 2000].join(", ");
        let said = err(&format!("{head}stages = [{stages}]\n"));
        assert!(
            said.contains("stages: 2000 in one game; a game has at most 20"),
            "{said}"
        );
        // See: hardening round four (newlines, BEL and 200,000-character
        // titles were taken and sent to every viewer).
        assert!(err(&format!("title = \"{}\"\n", "x".repeat(301)))
            .contains("title: it is 301 characters; at most 300"));
        assert!(
            err("title = \"a\\u0007b\"\n").contains("title: it holds a control character (U+0007)")
        );
        assert!(
            err(&format!("{head}pattern = \"line\"\npaper = \"pink\\nx\"\n"))
                .contains("paper: it holds a control character (U+000A)")
        );
        let night = Night::parse("title = \" Friday   night \"\n[[game]]\nname = \"Cafe\\u0301  line\"\npattern = \"line\"\n").unwrap();
        assert_eq!(night.title, "Friday night");
        assert_eq!(night.games[0].rules.name.as_deref(), Some("Caf\u{e9} line"));
    }

    // See: the floor (consolation prizes by closeness).
    #[test]
    fn a_consolations_mistakes_are_named_by_its_field() {
        let head = "title = \"t\"\n[[game]]\nname = \"Line\"\n";
        let spec = crate::game::Spec::named("75").unwrap();
        let checked = |games: &str| {
            let night = Night::parse(&format!("{head}{games}")).map_err(|e| e.to_string())?;
            night.check(spec).map(|_| night).map_err(|e| e.to_string())
        };
        let near =
            checked("pattern = \"coverall\"\nconsolation = { to_go = 1, prize = \"1.00\" }\n")
                .unwrap();
        let rule = near.games[0].rules.near.unwrap();
        assert_eq!((rule.to_go, rule.prize), (Some(1), 100));
        let nearest = checked(
            "pattern = \"coverall\"\nconsolation = { to_go = \"nearest\", prize = \"2\" }\n",
        );
        assert_eq!(nearest.unwrap().games[0].rules.near.unwrap().to_go, None);
        for (games, says) in [
            ("pattern = \"coverall\"\nconsolation = { to_go = 9, prize = \"1.00\" }\n", "consolation.to_go: 9 is not a distance paid: give 1 to 5"),
            ("pattern = \"coverall\"\nconsolation = { to_go = -1, prize = \"1.00\" }\n", "consolation.to_go: -1 is not a distance paid"),
            // See: issue 62, `to_go = 1.5` answered "data did not match any
            // variant of untagged enum ToGo".
            ("pattern = \"coverall\"\nconsolation = { to_go = 1.5, prize = \"1.00\" }\n", "consolation.to_go: 1.5 is not a distance paid: give a whole number 1 to 5"),
            ("pattern = \"coverall\"\nconsolation = { to_go = \"most\", prize = \"1.00\" }\n", "consolation.to_go: \"most\": give how many numbers"),
            ("pattern = \"coverall\"\nconsolation = { to_go = 1, prize = 1.0 }\n", "consolation.prize: write the amount as text"),
            ("pattern = \"coverall\"\nconsolation = { to_go = 1 }\n", "prize"),
            ("prizes = [{ pattern = \"line\" }, { pattern = \"coverall\" }]\nconsolation = { to_go = 1, prize = \"1.00\" }\n", "consolation: a game of prizes open at once has no last prize"),
        ] {
            let e = checked(games).unwrap_err();
            assert!(e.contains(says), "{games}: {e}");
        }
    }
}
