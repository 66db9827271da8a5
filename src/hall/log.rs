//! The hall's log: one JSON object a line, append only, each line carrying
//! the SHA-256 of the line before it (`prev`; 64 zeros on the first), so an
//! edited, deleted, inserted or swapped line breaks the chain. A line is
//! written and fsynced before its event is shown to anyone.

use super::Event;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The `prev` of the first line.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// One line of the log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Line {
    /// 1, 2, … in file order.
    pub seq: u64,
    /// UTC, to the millisecond: `2026-11-25T19:04:11.250Z`.
    pub time: String,
    /// SHA-256 (hex) of the previous line's bytes, without its newline.
    pub prev: String,
    #[serde(flatten)]
    pub event: Event,
}

/// The SHA-256 of a line's bytes, in hex.
pub fn hash(line: &str) -> String {
    crate::text::sha256_hex(line.as_bytes())
}

/// Why a log cannot be read as a chain.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    #[error("cannot read '{path}': {source}")]
    Io { path: String, source: io::Error },
    #[error("line {line}: {why}")]
    Bad { line: u64, why: String },
}

/// Reads every line of `text`, checking the chain. An unfinished last line
/// (a crash in the middle of a write, before its fsync returned) is
/// dropped: it was never shown. Returns the lines and the hash of the last.
pub fn read(text: &str) -> Result<(Vec<Line>, String), LogError> {
    let mut lines = Vec::new();
    let mut prev = GENESIS.to_string();
    let complete = if text.ends_with('\n') {
        text
    } else {
        &text[..text.rfind('\n').map_or(0, |i| i + 1)]
    };
    for (i, raw) in complete.lines().enumerate() {
        let at = i as u64 + 1;
        let bad = |why: String| LogError::Bad { line: at, why };
        let line: Line =
            serde_json::from_str(raw).map_err(|e| bad(format!("not a log line: {e}")))?;
        if line.prev != prev {
            return Err(bad("the chain breaks here: its prev is not the SHA-256 of the line before (a line edited, removed or moved)".into()));
        }
        if line.seq != at {
            return Err(bad(format!(
                "sequence number {} where {at} belongs",
                line.seq
            )));
        }
        prev = hash(raw);
        lines.push(line);
    }
    Ok((lines, prev))
}

/// An open log, appended to.
pub struct Log {
    path: PathBuf,
    file: File,
    seq: u64,
    prev: String,
}

impl Log {
    /// Opens (or creates) the log at `path`, reading what it holds.
    pub fn open(path: &Path) -> Result<(Log, Vec<Line>), LogError> {
        let io = |source| LogError::Io {
            path: path.display().to_string(),
            source,
        };
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(io(e)),
        };
        let (lines, prev) = read(&text)?;
        let mut file = OpenOptions::new()
            .create(true)
            .read(true)
            .write(true)
            .truncate(false)
            .open(path)
            .map_err(io)?;
        // Drop an unfinished last line, so the next starts on a line of its own.
        let keep = if text.ends_with('\n') || text.is_empty() {
            text.len()
        } else {
            text.rfind('\n').map_or(0, |i| i + 1)
        };
        file.set_len(keep as u64).map_err(io)?;
        use std::io::Seek;
        file.seek(io::SeekFrom::End(0)).map_err(io)?;
        let log = Log {
            path: path.to_path_buf(),
            file,
            seq: lines.len() as u64,
            prev,
        };
        Ok((log, lines))
    }

    /// Appends `event`, fsynced before it returns.
    pub fn append(&mut self, event: Event) -> io::Result<Line> {
        let line = Line {
            seq: self.seq + 1,
            time: now(),
            prev: self.prev.clone(),
            event,
        };
        let text = serde_json::to_string(&line).map_err(io::Error::other)?;
        self.file.write_all(format!("{text}\n").as_bytes())?;
        self.file.sync_data()?;
        self.seq += 1;
        self.prev = hash(&text);
        Ok(line)
    }

    /// Where the log is.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// The time now, UTC, to the millisecond.
pub fn now() -> String {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let secs = t.as_secs() as i64;
    let date = crate::cardfile::header::yyyymmdd(secs.div_euclid(86_400));
    let s = secs.rem_euclid(86_400);
    format!(
        "{}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        date / 10_000,
        date / 100 % 100,
        date % 100,
        s / 3600,
        s / 60 % 60,
        s % 60,
        t.subsec_millis()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(ball: u8) -> Event {
        Event::Call {
            game: 1,
            call: usize::from(ball),
            ball,
        }
    }

    #[test]
    fn a_log_reads_back_and_an_unfinished_line_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.jsonl");
        let (mut log, lines) = Log::open(&path).unwrap();
        assert!(lines.is_empty());
        log.append(event(1)).unwrap();
        log.append(event(2)).unwrap();
        drop(log);
        // A write cut short: half a line, no newline.
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("{\"seq\":3,\"ti");
        std::fs::write(&path, &text).unwrap();
        let (mut log, lines) = Log::open(&path).unwrap();
        assert_eq!(lines.iter().map(|l| l.seq).collect::<Vec<_>>(), [1, 2]);
        assert_eq!(lines[0].prev, GENESIS);
        log.append(event(3)).unwrap();
        let (lines, _) = read(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(lines.len(), 3, "the new line follows the last whole one");
    }

    #[test]
    fn the_chain_names_the_line_where_it_breaks() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.jsonl");
        let (mut log, _) = Log::open(&path).unwrap();
        for b in 1..=4 {
            log.append(event(b)).unwrap();
        }
        let text = std::fs::read_to_string(&path)
            .unwrap()
            .replace("\"ball\":2", "\"ball\":9");
        match read(&text) {
            Err(LogError::Bad { line, .. }) => assert_eq!(line, 3),
            other => panic!("{other:?}"),
        }
        // The commitment formula: SHA-256 of the text, lowercase hex.
        assert_eq!(
            hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
