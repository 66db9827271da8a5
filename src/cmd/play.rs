//! What the play commands (`calls`, `check`, `winners`, `simulate`,
//! `patterns`, and `show --calls`) share: the calls flags, the pattern
//! flag, and finding the face a claim names.

use anyhow::{bail, Context, Result};
use bingomint::cardfile::CardFile;
use bingomint::game::{Face, Spec};
use bingomint::input::InputError;
use bingomint::play::calls::{parse_for, Calls};
use bingomint::play::pattern::Pattern;
use bingomint::play::reference::{locate, locate_card, Located};
use std::path::PathBuf;

/// `--calls` / `--calls-file`.
#[derive(clap::Args)]
pub struct CallsArgs {
    /// The numbers called so far, in order: `12,44,7,68,3`; for items
    /// cards also their labels: `apple,banana,café`.
    #[arg(long, value_name = "N,N,…", conflicts_with = "calls_file")]
    pub calls: Option<String>,

    /// A file of the numbers called, in order: separated by commas, spaces
    /// or newlines, `#` starting a comment (as `bingomint calls` writes).
    #[arg(long, value_name = "FILE")]
    pub calls_file: Option<PathBuf>,
}

/// The most a calls file may hold (every number, each with a comment, fits).
const MAX_CALLS_FILE: u64 = 1 << 20;

impl CallsArgs {
    /// The calls given, if any, checked against `spec`'s balls.
    pub fn read(&self, spec: Spec) -> Result<Option<Calls>> {
        if let Some(text) = &self.calls {
            return Ok(Some(parse_for(spec, text, "--calls")?));
        }
        let Some(path) = &self.calls_file else {
            return Ok(None);
        };
        let text = bingomint::input::read_text(path, MAX_CALLS_FILE).map_err(|e| match e {
            InputError::TooLarge { .. } => {
                anyhow::anyhow!("--calls-file {e}; a calls file lists the numbers called")
            }
            e => anyhow::Error::new(e).context("--calls-file"),
        })?;
        let name = format!("--calls-file '{}'", path.display());
        // A file `bingomint calls` wrote names its game on its first line.
        let ours = bingomint::play::calls::game_line(spec);
        let theirs = bingomint::play::calls::file_game(&text);
        if let Some(theirs) = theirs.filter(|t| *t != ours) {
            let game = |g: &str| match g.parse::<u8>() {
                Ok(n) => format!("a {n}-ball game"),
                Err(_) => format!("a game of {}", &g["items, ".len()..]),
            };
            bail!(
                "{name} holds the calls of {} (its first line says so), but the cards are of {}: give this game's calls",
                game(&theirs),
                game(&ours)
            );
        }
        Ok(Some(parse_for(spec, &text, &name)?))
    }

    /// The calls, which must be given.
    pub fn required(&self, spec: Spec) -> Result<Calls> {
        match self.read(spec)? {
            Some(calls) => Ok(calls),
            None => bail!("give the numbers called: --calls 12,44,7 or --calls-file FILE"),
        }
    }
}

/// `--pattern` for a game.
pub fn pattern(text: &str, spec: Spec) -> Result<Pattern> {
    Pattern::parse(text, spec).map_err(super::flag("--pattern"))
}

/// A face of a file named by a claim.
pub struct Named {
    /// The record (card or strip) number.
    pub record: u64,
    /// The face's own number: the card or ticket number.
    pub number: u64,
    /// "card 4711" or "ticket 70 (strip 12)".
    pub label: String,
}

/// What `--card`, `--strip` or `--ticket` names (at most one is given):
/// `--card` a face as printed on it (a plain number in a file of strips is
/// refused, naming `--strip` and `--ticket`), `--strip` a strip of a file
/// of strips, `--ticket` a ticket; QR texts (`bingomint:ID:card:N`,
/// `bingomint:ID:ticket:N`) must carry this file's id.
pub fn locate_named(
    file: &CardFile,
    card: Option<&str>,
    strip: Option<&str>,
    ticket: Option<&str>,
) -> Result<Located> {
    let spec = file.header().spec;
    let strips = spec.face_noun() == "ticket" && spec.faces() > 1;
    Ok(match (card, strip, ticket) {
        (Some(text), _, _) => locate_card(file, text).map_err(super::flag("--card"))?,
        (None, Some(_), _) if !strips => bail!(
            "--strip is for files of 90-ball strips; use --card with a {} file",
            spec.short_name()
        ),
        (None, Some(text), _) => locate(file, text, true).map_err(super::flag("--strip"))?,
        (None, None, Some(_)) if spec.face_noun() != "ticket" => bail!(
            "--ticket is for 90-ball tickets; use --card with a {} file",
            spec.short_name()
        ),
        (None, None, Some(text)) => locate(file, text, false).map_err(super::flag("--ticket"))?,
        (None, None, None) => {
            bail!("name the face: --card N (75- and 80-ball) or --ticket N (90-ball)")
        }
    })
}

/// The face `--card` or `--ticket` names: a number, or a reference as a
/// printed face's QR code carries it, whose file id must be this file's.
pub fn named_face(file: &CardFile, card: Option<&str>, ticket: Option<&str>) -> Result<Named> {
    let spec = file.header().spec;
    let located = locate_named(file, card, None, ticket)?;
    let (number, _) = located
        .face
        .expect("--card and --ticket name a face, never a whole strip");
    let record = located.record;
    let label = spec.face_label(file.header().serial(number), record);
    Ok(Named {
        record,
        number,
        label,
    })
}

/// The face a claim names, read from the file (a record that breaks its
/// game's rules is an error naming it).
pub fn read_face(file: &CardFile, named: &Named) -> Result<Face> {
    let mut found = bingomint::play::scan_faces(file, named.record..=named.record, |n, face| {
        (n == named.number).then_some(*face)
    })?;
    found.pop().context("the face is in its record")
}
