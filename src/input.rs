//! Reading what users hand over, bounded: a text file (or a pipe: `--calls-file
//! <(…)`) read up to a limit, and the kind of a path that is not a regular
//! file. No input grows memory without bound: an endless stream
//! (`/dev/zero`) stops at the limit with an error that says so.

use std::io::Read;
use std::path::Path;

/// Why a user's file could not be read as text.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The path names a directory.
    #[error("'{0}' is a directory")]
    Directory(String),
    /// More than `max` bytes (the input may be endless).
    #[error("'{path}' holds more than {} (the most this input may hold)", size_text(*max))]
    TooLarge { path: String, max: u64 },
    /// Not UTF-8 text.
    #[error("'{0}' is not UTF-8 text")]
    NotText(String),
    #[error("cannot read '{path}'")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

/// The text of `path` (a regular file, a pipe or a device), at most `max`
/// bytes; a UTF-8 byte-order mark at its start is dropped.
pub fn read_text(path: &Path, max: u64) -> Result<String, InputError> {
    let name = || path.display().to_string();
    let io = |source| InputError::Io {
        path: name(),
        source,
    };
    if path.is_dir() {
        return Err(InputError::Directory(name()));
    }
    let file = std::fs::File::open(path).map_err(io)?;
    let mut bytes = Vec::new();
    file.take(max + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > max {
        return Err(InputError::TooLarge { path: name(), max });
    }
    let text = String::from_utf8(bytes).map_err(|_| InputError::NotText(name()))?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// What `path` is when it is neither a regular file nor missing: `a
/// directory`, `a character device`, …; None for a regular file (or one
/// that cannot be looked at, whose open then says why).
pub fn irregular(path: &Path) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    let kind = std::fs::metadata(path).ok()?.file_type();
    Some(if kind.is_file() {
        return None;
    } else if kind.is_dir() {
        "a directory"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_fifo() {
        "a pipe"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    })
}

/// `1 MB`, `16 MB`, `512 bytes`.
fn size_text(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{} MB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// The SHA-256 of a file's bytes, in lowercase hex, read in blocks
/// (memory flat): what a report or a log records of a file.
pub fn sha256_file(path: &Path) -> std::io::Result<String> {
    use sha2::Digest;
    let mut file = std::fs::File::open(path)?;
    let mut hasher = sha2::Sha256::new();
    let mut buffer = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buffer)?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
    }
    Ok(crate::text::hex(&hasher.finalize()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endless_input_stops_at_the_limit() {
        let err = read_text(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert!(matches!(err, InputError::TooLarge { .. }), "{err}");
        assert!(err.to_string().contains("more than 1 MB"), "{err}");
        assert!(matches!(
            read_text(Path::new("/"), 10),
            Err(InputError::Directory(_))
        ));
        assert_eq!(
            irregular(Path::new("/dev/zero")),
            Some("a character device")
        );
        assert_eq!(irregular(Path::new("/")), Some("a directory"));
    }

    #[test]
    fn a_byte_order_mark_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.txt");
        std::fs::write(&path, "\u{feff}1,2").unwrap();
        assert_eq!(read_text(&path, 100).unwrap(), "1,2");
    }
}
