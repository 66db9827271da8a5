//! The hall's log: one JSON object a line, append only, each line carrying
//! the SHA-256 of the line before it (`prev`; 64 zeros on the first), so an
//! edited, deleted, inserted or swapped line breaks the chain. A line is
//! written and fsynced before its event is shown to anyone.
//!
//! Guarantees. The log is locked (`flock`) for the life of the hall that
//! opened it: a second hall on the same log is refused, naming the first.
//! A write that fails (a full disk) is cut back to the last whole line, so
//! the log stays a chain and the next write, once there is room, follows
//! it. An unfinished last line (a crash mid-write) is dropped on opening
//! and reported ([`Opened::dropped`]).

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The `prev` of the first line.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// One line of a log: a night's ([`super::Event`]) or a jackpot ledger's
/// ([`super::LedgerEvent`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Line<E> {
    /// 1, 2, … in file order.
    pub seq: u64,
    /// UTC, to the millisecond: `2026-11-25T19:04:11.250Z`.
    pub time: String,
    /// SHA-256 (hex) of the previous line's bytes, without its newline.
    pub prev: String,
    #[serde(flatten)]
    pub event: E,
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
    #[error("'{path}': the directory '{dir}' does not exist")]
    NoDirectory { path: String, dir: String },
    #[error("'{path}' is in use by another hall{holder}; stop that hall first")]
    Locked { path: String, holder: String },
    #[error("line {line}: {why}")]
    Bad { line: u64, why: String },
}

/// Reads every line of `text`, checking the chain. An unfinished last line
/// (a crash in the middle of a write, before its fsync returned) is
/// dropped: it was never shown. Returns the lines and the hash of the last.
pub fn read<E: DeserializeOwned>(text: &str) -> Result<(Vec<Line<E>>, String), LogError> {
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
        let line: Line<E> =
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

/// An open log, appended to, locked while it is open.
pub struct Log {
    path: PathBuf,
    file: File,
    seq: u64,
    prev: String,
    /// The length of the log's whole lines: where the next line starts.
    len: u64,
    /// A failed write may have left bytes past `len` (cutting them back
    /// failed too): cut them before the next write.
    dirty: bool,
}

/// A log as opened: its lines, and what was dropped on the way.
pub struct Opened<E> {
    pub log: Log,
    pub lines: Vec<Line<E>>,
    /// The bytes of an unfinished last line that were dropped (0: none).
    pub dropped: usize,
}

impl Log {
    /// Opens (or creates) the log at `path`, locks it, and reads what it
    /// holds.
    pub fn open<E: DeserializeOwned>(path: &Path) -> Result<Opened<E>, LogError> {
        let io = |source| LogError::Io {
            path: path.display().to_string(),
            source,
        };
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        if !dir.is_dir() {
            return Err(LogError::NoDirectory {
                path: path.display().to_string(),
                dir: dir.display().to_string(),
            });
        }
        let mut file = OpenOptions::new()
            .create(true)
            .read(true)
            .write(true)
            .truncate(false)
            .open(path)
            .map_err(io)?;
        lock(&file, path)?;
        let mut text = String::new();
        use std::io::{Read, Seek};
        file.read_to_string(&mut text).map_err(io)?;
        let (lines, prev) = read(&text)?;
        // Drop an unfinished last line, so the next starts on a line of its own.
        let keep = if text.ends_with('\n') || text.is_empty() {
            text.len()
        } else {
            text.rfind('\n').map_or(0, |i| i + 1)
        };
        file.set_len(keep as u64).map_err(io)?;
        file.seek(io::SeekFrom::End(0)).map_err(io)?;
        let log = Log {
            path: path.to_path_buf(),
            file,
            seq: lines.len() as u64,
            prev,
            len: keep as u64,
            dirty: false,
        };
        Ok(Opened {
            log,
            lines,
            dropped: text.len() - keep,
        })
    }

    /// Appends `event`, fsynced before it returns. A write that fails
    /// leaves the log as it was: whatever part of the line reached the
    /// file is cut off again.
    pub fn append<E: Serialize>(&mut self, event: E) -> io::Result<Line<E>> {
        let mut lines = self.append_all(vec![event])?;
        Ok(lines.pop().expect("one event, one line"))
    }

    /// Appends `events` in one write and one fsync (a thousand claims
    /// rejected at once cost one disk flush, not a thousand). A write that
    /// fails leaves the log as it was.
    pub fn append_all<E: Serialize>(&mut self, events: Vec<E>) -> io::Result<Vec<Line<E>>> {
        if self.dirty {
            self.cut_back()?;
        }
        let time = now();
        let (mut seq, mut prev) = (self.seq, self.prev.clone());
        let mut bytes = String::new();
        let mut lines = Vec::with_capacity(events.len());
        for event in events {
            seq += 1;
            let line = Line {
                seq,
                time: time.clone(),
                prev,
                event,
            };
            let text = serde_json::to_string(&line).map_err(io::Error::other)?;
            prev = hash(&text);
            bytes.push_str(&text);
            bytes.push('\n');
            lines.push(line);
        }
        let written = self
            .file
            .write_all(bytes.as_bytes())
            .and_then(|()| self.file.sync_data());
        if let Err(e) = written {
            self.dirty = true;
            let _ = self.cut_back();
            return Err(e);
        }
        self.seq = seq;
        self.len += bytes.len() as u64;
        self.prev = prev;
        Ok(lines)
    }

    /// Cuts the file back to its whole lines.
    fn cut_back(&mut self) -> io::Result<()> {
        use std::io::Seek;
        self.file.set_len(self.len)?;
        self.file.seek(io::SeekFrom::Start(self.len))?;
        self.file.sync_data()?;
        self.dirty = false;
        Ok(())
    }

    /// The last line's sequence number (0 before the first).
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// Where the log is.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Locks the open log for this process's life, or names who holds it.
fn lock(file: &File, path: &Path) -> Result<(), LogError> {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a descriptor this function borrows; no memory is
    // shared with the call.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        return Ok(());
    }
    let e = io::Error::last_os_error();
    if e.kind() != io::ErrorKind::WouldBlock {
        return Err(LogError::Io {
            path: path.display().to_string(),
            source: e,
        });
    }
    let holder = holder(file).map_or(String::new(), |pid| {
        format!(" (process {pid} holds its lock)")
    });
    Err(LogError::Locked {
        path: path.display().to_string(),
        holder,
    })
}

/// The process holding the `flock` on `file`, from `/proc/locks` (Linux).
fn holder(file: &File) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    let inode = file.metadata().ok()?.ino();
    let locks = std::fs::read_to_string("/proc/locks").ok()?;
    // "1: FLOCK  ADVISORY  WRITE 4242 00:2a:1234 0 EOF"
    locks.lines().find_map(|l| {
        let f: Vec<&str> = l.split_whitespace().collect();
        let (kind, pid, dev_ino) = (f.get(1)?, f.get(4)?, f.get(5)?);
        let ino: u64 = dev_ino.rsplit(':').next()?.parse().ok()?;
        (*kind == "FLOCK" && ino == inode).then(|| pid.parse().ok())?
    })
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

/// Today's date where the hall runs, `YYYY-MM-DD`: the local date of the
/// machine (its `TZ`), which a hall's day (a must-go date) is judged on;
/// the UTC date where the local one cannot be had.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |t| t.as_secs() as libc::time_t);
    // SAFETY: `tm` is plain data, written whole by localtime_r on success;
    // localtime_r reads `secs` and keeps no pointer to either.
    let local = unsafe {
        let mut tm: libc::tm = std::mem::zeroed();
        (!libc::localtime_r(&secs, &mut tm).is_null()).then_some(tm)
    };
    match local {
        Some(tm) => format!(
            "{:04}-{:02}-{:02}",
            tm.tm_year + 1900,
            tm.tm_mon + 1,
            tm.tm_mday
        ),
        None => now()[..10].to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hall::event::{Call, Event, Source};

    fn event(ball: u8) -> Event {
        Event::Call(Call {
            game: 1,
            call: usize::from(ball),
            ball,
            source: Source::Rng,
        })
    }

    #[test]
    fn a_log_reads_back_and_an_unfinished_line_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.jsonl");
        let Opened::<Event> { mut log, lines, .. } = Log::open(&path).unwrap();
        assert!(lines.is_empty());
        log.append(event(1)).unwrap();
        log.append(event(2)).unwrap();
        drop(log);
        // A write cut short: half a line, no newline.
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("{\"seq\":3,\"ti");
        std::fs::write(&path, &text).unwrap();
        let Opened {
            mut log,
            lines,
            dropped,
        } = Log::open::<Event>(&path).unwrap();
        assert_eq!(dropped, 12, "the half line's bytes are reported");
        assert_eq!(lines.iter().map(|l| l.seq).collect::<Vec<_>>(), [1, 2]);
        assert_eq!(lines[0].prev, GENESIS);
        log.append(event(3)).unwrap();
        let (lines, _) = read::<Event>(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(lines.len(), 3, "the new line follows the last whole one");
    }

    #[test]
    fn the_chain_names_the_line_where_it_breaks() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.jsonl");
        let mut log = Log::open::<Event>(&path).unwrap().log;
        for b in 1..=4 {
            log.append(event(b)).unwrap();
        }
        let text = std::fs::read_to_string(&path)
            .unwrap()
            .replace("\"ball\":2", "\"ball\":9");
        match read::<Event>(&text) {
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
