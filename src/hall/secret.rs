//! An open game's secret seed, kept beside the log (`LOG.seed`) so a
//! restarted hall can continue the game: created new for each game (no link
//! followed), mode 0600, and read back only from a plain file of one name,
//! owned by the hall's user, that no one else may read. The players'
//! claims key (`LOG.claims`) is kept the same way, once for the log's life,
//! so a phone's claim token still reads its claim after a restart; and so
//! is the console's key (`LOG.console`), so the caller's open tab still
//! works when the hall is started again on the same night.

/// Where an open game's seed is kept: beside the log.
pub fn secret_path(log: &std::path::Path) -> std::path::PathBuf {
    let mut name = log.as_os_str().to_owned();
    name.push(".seed");
    std::path::PathBuf::from(name)
}

/// Why a seed file cannot be used.
#[derive(Debug)]
pub enum SecretError {
    /// Missing or unreadable.
    Lost(std::io::Error),
    /// There, but not a file only this user can read: a link, another
    /// owner, or a mode that lets others in.
    Unsafe(String),
}

/// Opens the seed file without following a link at its name, and checks it
/// is a plain file of one name, owned by this user, readable by no one else.
fn open_secret(path: &std::path::Path) -> Result<std::fs::File, SecretError> {
    use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
        .map_err(|e| {
            match e.raw_os_error() {
            Some(libc::ELOOP) => SecretError::Unsafe(
                "is a symbolic link; the hall keeps its seed in a file of its own (remove the link)"
                    .into(),
            ),
            _ => SecretError::Lost(e),
        }
        })?;
    let meta = file.metadata().map_err(SecretError::Lost)?;
    // SAFETY: geteuid has no arguments and cannot fail.
    let me = unsafe { libc::geteuid() };
    let why = if !meta.is_file() {
        Some("is not a plain file".to_string())
    } else if meta.nlink() != 1 {
        Some(format!(
            "has {} names (a hard link); the hall keeps its seed in a file of its own",
            meta.nlink()
        ))
    } else if meta.uid() != me {
        Some(format!(
            "belongs to user {}, not to the hall's user {me}",
            meta.uid()
        ))
    } else if meta.mode() & 0o077 != 0 {
        Some(format!(
            "has mode {:o}: others may read the secret seed (it must be 600: chmod 600 it if it is yours)",
            meta.mode() & 0o777
        ))
    } else {
        None
    };
    match why {
        Some(why) => Err(SecretError::Unsafe(why)),
        None => Ok(file),
    }
}

/// Reads an open game's seed.
pub fn read_secret(path: &std::path::Path) -> Result<String, SecretError> {
    use std::io::Read;
    let mut text = String::new();
    open_secret(path)?
        .take(1024)
        .read_to_string(&mut text)
        .map_err(SecretError::Lost)?;
    Ok(text.trim().to_string())
}

/// Writes a new game's seed to a new file, mode 0600. No game is open, so
/// anything at the name is a leftover (a crash between this and the game's
/// log line) or planted: a file of ours is removed, a link is removed as a
/// name (its target untouched), and the new file is created with O_EXCL,
/// which follows no link.
pub fn write_secret(path: &std::path::Path, seed: &str) -> Result<(), SecretError> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => {
            return Err(SecretError::Unsafe(
                "is a directory; the hall keeps its seed in a file there".into(),
            ))
        }
        Ok(_) => std::fs::remove_file(path).map_err(SecretError::Lost)?,
        Err(_) => {}
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
        .map_err(SecretError::Lost)?;
    file.write_all(format!("{seed}\n").as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(SecretError::Lost)
}

/// A key kept beside the log for its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// The players' claims key (`LOG.claims`): a claim's token is made
    /// with it.
    Claims,
    /// The console's key (`LOG.console`): the caller's Bearer key.
    Console,
}

impl Kept {
    fn suffix(self) -> &'static str {
        match self {
            Kept::Claims => ".claims",
            Kept::Console => ".console",
        }
    }

    /// What it is, in words.
    pub fn words(self) -> &'static str {
        match self {
            Kept::Claims => "the players' claims key",
            Kept::Console => "the console's key",
        }
    }
}

/// Where a kept key is: beside the log.
pub fn key_path(log: &std::path::Path, which: Kept) -> std::path::PathBuf {
    let mut name = log.as_os_str().to_owned();
    name.push(which.suffix());
    std::path::PathBuf::from(name)
}

/// Where the players' claims key is kept: beside the log.
pub fn claims_key_path(log: &std::path::Path) -> std::path::PathBuf {
    key_path(log, Kept::Claims)
}

/// The key a claim's token is made with: read from beside the log, or made
/// (128 bits of the operating system's entropy) when the log has none yet.
pub fn claims_key(log: &std::path::Path) -> Result<String, SecretError> {
    kept_key(log, Kept::Claims)
}

/// A key kept beside the log: read back, or made (128 bits of the
/// operating system's entropy) when the log has none yet.
pub fn kept_key(log: &std::path::Path, which: Kept) -> Result<String, SecretError> {
    let path = key_path(log, which);
    let fresh = || {
        let key = random_hex().map_err(SecretError::Lost)?;
        write_secret(&path, &key)?;
        Ok(key)
    };
    match read_secret(&path) {
        Ok(key) if key.len() == 32 && key.bytes().all(|b| b.is_ascii_hexdigit()) => Ok(key),
        // Made, but the hall stopped before writing it: no token was
        // given with it (tokens come after the key is written).
        Ok(key) if key.is_empty() => fresh(),
        Ok(_) => Err(SecretError::Unsafe(match which {
            Kept::Claims => "does not hold a claims key (32 hex digits): remove it, and phones' claims made before are read by the caller only".into(),
            Kept::Console => "does not hold a console key (32 hex digits): remove it, and the hall makes a new key (open the console at the address it prints)".into(),
        })),
        Err(SecretError::Lost(e)) if e.kind() == std::io::ErrorKind::NotFound => fresh(),
        Err(e) => Err(e),
    }
}

/// The token of claim `id`: what its phone shows to read its standing.
/// Unguessable without the key, and the same after a restart.
pub fn claim_token(key: &str, id: u64) -> String {
    let text = format!("bingomint claim token\0{key}\0{id}");
    crate::text::sha256_hex(text.as_bytes())[..32].to_string()
}

/// The commitment to a seed: SHA-256 of its text, lowercase hex.
pub fn commitment(seed: &str) -> String {
    super::log::hash(seed)
}

/// A new game's seed: `hall2-` and 256 bits of the operating system's
/// entropy in hex. Its order is [`crate::play::live::order`] of it and the
/// room's seed.
pub fn fresh_seed() -> std::io::Result<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(format!(
        "{}{}",
        crate::play::live::PREFIX,
        crate::text::hex(&bytes)
    ))
}

/// 128 bits of the operating system's entropy, in hex: a kept key, a night's id.
pub fn random_hex() -> std::io::Result<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(crate::text::hex(&bytes))
}
