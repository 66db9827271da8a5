//! Output files as every command that writes meets them: what killed runs
//! left beside them, an output that is one of the command's inputs, and the
//! words for a failed write.

use anyhow::{bail, Context, Result};

/// Says what runs killed outright left beside `out` (their temporary
/// files), or, with `--force`, removes them and says so.
pub fn clear_stale(out: Option<&std::path::Path>, force: bool) -> Result<()> {
    let Some(out) = out else {
        return Ok(());
    };
    for (path, pid) in bingomint::cardfile::writer::stale_temporaries(out) {
        let shown = path.display();
        if force {
            bingomint::cardfile::writer::remove_stale(&path)
                .with_context(|| format!("cannot remove '{shown}'"))?;
            eprintln!(
                "bingomint: removed '{shown}', left by an interrupted run (process {pid} is gone)"
            );
        } else {
            eprintln!(
                "bingomint: note: '{shown}' was left by an interrupted run (process {pid} is gone); \
                 delete it, or add --force to have it removed"
            );
        }
    }
    Ok(())
}

/// Fails when the output `out` (given as `flag`) is one of the command's
/// `inputs` (the same file, by any path): writing it would destroy what is
/// being read, so no `--force` allows it.
pub fn not_an_input(out: &std::path::Path, flag: &str, inputs: &[&std::path::Path]) -> Result<()> {
    use std::os::unix::fs::MetadataExt;
    let Ok(written) = std::fs::metadata(out) else {
        return Ok(());
    };
    for input in inputs {
        let Ok(read) = std::fs::metadata(input) else {
            continue;
        };
        if written.is_file() && (read.dev(), read.ino()) == (written.dev(), written.ino()) {
            anyhow::bail!(
                "{flag} '{}' is the input '{}': writing it would destroy what is being \
                 read, whatever --force says; choose another {flag}",
                out.display(),
                input.display()
            );
        }
    }
    Ok(())
}

/// The context of an error writing to `out` (standard output when None).
pub fn cannot_write(out: Option<&std::path::Path>) -> String {
    match out {
        Some(path) => format!("cannot write '{}'", path.display()),
        None => "cannot write to standard output".to_string(),
    }
}

/// Writes `bytes` whole to `out` (standard output when None), as
/// `write_text` does: never over a file without `force`, never a partial
/// file left behind.
pub fn write_bytes(out: Option<&std::path::Path>, force: bool, bytes: &[u8]) -> Result<()> {
    bingomint::cardfile::writer::write_text(out, force, |w| {
        w.write_all(bytes).with_context(|| cannot_write(out))
    })
}

/// Writes `bytes` to a new file of `mode` (no link followed); an existing
/// file is replaced only with `force`.
pub fn write_new(path: &std::path::Path, bytes: &[u8], mode: u32, force: bool) -> Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    if path.symlink_metadata().is_ok() {
        if !force {
            bail!(
                "'{}' already exists; add --force to replace it",
                path.display()
            );
        }
        std::fs::remove_file(path)
            .with_context(|| format!("cannot replace '{}'", path.display()))?;
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
        .with_context(|| format!("cannot create '{}'", path.display()))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .with_context(|| format!("cannot write '{}'", path.display()))
}
