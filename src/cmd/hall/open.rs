//! Opening the night: the card files checked (each sound, all one game),
//! and a hall that cannot open said with the flag that goes on.

use anyhow::{Context, Result};
use bingomint::cardfile::CardFile;
use bingomint::hall::secret::Kept;
use bingomint::hall::FileEntry;
use std::path::PathBuf;

/// A hall that cannot open, said with the flag or command that goes on.
/// The flags that do what a refusal's advice says.
pub(super) fn advice(a: bingomint::hall::Advice) -> &'static str {
    use bingomint::hall::Advice;
    match a {
        Advice::Night => " (start the hall with --night FILE)",
        Advice::Blower => " (start the hall with --balls blower to key in a blower's balls)",
        Advice::Ledger => "; start the hall with --jackpots FILE",
        Advice::NewLedger => ", or --new-ledger to begin a new one all the same",
        Advice::KeepLog => ": --night-changed keep-log",
        Advice::NewLog => " (--log)",
    }
}

pub(super) fn opening(e: bingomint::hall::HallError) -> anyhow::Error {
    use bingomint::hall::log::LogError;
    use bingomint::hall::HallError;
    let advice = e.advice().map_or("", advice);
    let hint = match &e {
        HallError::SeedLost { game, .. } => format!(
            "; start the hall with --void-lost-game to end game {game} unrevealed (logged as such: its calls can never be checked against its commitment)"
        ),
        HallError::BadLog { .. } => "; `bingomint hall verify` names what is wrong".into(),
        HallError::LogOpen(LogError::Locked { .. }) => ", or give this one another --log".into(),
        HallError::LogOpen(LogError::NoDirectory { .. }) => "; create it or give another --log".into(),
        _ => String::new(),
    };
    anyhow::anyhow!("{e}{advice}{hint}")
}

/// Opens the night's files: each sound, all one game.
pub(crate) fn open_cards(paths: &[PathBuf]) -> Result<(Vec<CardFile>, Vec<FileEntry>)> {
    let mut files: Vec<CardFile> = Vec::new();
    let mut entries = Vec::new();
    for path in paths {
        let file = CardFile::open(path)?;
        let count = file.header().count;
        crate::cmd::require_sound_flat(&file)?;
        let spec = file.header().spec;
        if let Some(first) = files.first() {
            // Items cards of two lists are two games: a ball would be two items.
            let rule = match spec.items() {
                Some(_) => "a night plays one list on one card",
                None => "a night plays one game",
            };
            anyhow::ensure!(
                first.header().spec.same_game(spec),
                "--cards '{}' holds {} but '{}' holds {}: {rule}",
                file.path(),
                spec.describe(),
                first.path(),
                first.header().spec.describe()
            );
        }
        let sha256 = bingomint::input::sha256_file(path)
            .with_context(|| format!("cannot read '{}'", path.display()))?;
        entries.push(FileEntry {
            path: file.path().to_string(),
            id: file.short_id(),
            sha256,
            count,
            game: spec.short_name().into(),
        });
        files.push(file);
    }
    Ok((files, entries))
}

/// The faces `--sold` names, within the card file's.
pub(super) fn sold(
    text: Option<&str>,
    file: &CardFile,
) -> Result<Option<Vec<std::ops::RangeInclusive<u64>>>> {
    let Some(text) = text else {
        return Ok(None);
    };
    let faces = file.header().face_range();
    let ranges = bingomint::hall::verify::parse_sold(text, file.header())
        .and_then(|ranges| bingomint::hall::verify::sold_within(ranges, faces, file.path()))
        .map_err(|e| anyhow::anyhow!("--sold: {e}"))?;
    Ok(Some(ranges))
}

/// A key kept beside the log (made when new): the players' claims key,
/// or the console's, which stays the same when the hall is started again
/// on the night's log.
pub(super) fn kept_key(log: &std::path::Path, which: Kept) -> Result<String> {
    use bingomint::hall::secret::{kept_key, key_path, SecretError};
    kept_key(log, which).map_err(|e| match e {
        SecretError::Unsafe(why) => anyhow::anyhow!("'{}' {why}", key_path(log, which).display()),
        SecretError::Lost(e) => anyhow::Error::new(e).context(format!(
            "cannot keep {} '{}'",
            which.words(),
            key_path(log, which).display()
        )),
    })
}

/// The card file at `path` and the faces `text` names of it (None: all).
pub(super) fn faces_of(
    path: &std::path::Path,
    text: Option<&str>,
) -> Result<(CardFile, bingomint::hall::stock::Faces)> {
    let (mut files, _) = open_cards(std::slice::from_ref(&path.to_path_buf()))?;
    let file = files.remove(0);
    let all = file.header().face_range();
    let faces = match text {
        None => bingomint::hall::stock::Faces::of([all]),
        Some(t) => {
            let ranges = bingomint::hall::verify::parse_sold(t, file.header())
                .and_then(|r| bingomint::hall::verify::sold_within(r, all, file.path()))
                .map_err(|e| anyhow::anyhow!("--faces: {e}"))?;
            bingomint::hall::stock::Faces::of(ranges)
        }
    };
    Ok((file, faces))
}
