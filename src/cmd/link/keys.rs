//! The control's signing key: made (`link key`) and read (`link control`).

use crate::cmd::Outcome;
use anyhow::{anyhow, Context, Result};
use std::path::Path;

pub fn key(out: &Path, force: bool) -> Result<Outcome> {
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed).map_err(|e| anyhow!("no randomness from the system: {e}"))?;
    let text = format!("{}\n", bingomint::link::record::hex(&seed));
    crate::cmd::output::write_new(out, text.as_bytes(), 0o600, force)?;
    let public = ed25519_dalek::SigningKey::from_bytes(&seed).verifying_key();
    println!("{}", bingomint::link::record::hex(public.as_bytes()));
    eprintln!("'{}' holds the control's secret key; pin the public key above in every venue file: control = \"…\"", out.display());
    Ok(Outcome::Success)
}

pub fn read_key(path: &Path) -> Result<ed25519_dalek::SigningKey> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("--key: cannot read '{}'", path.display()))?;
    let seed = bingomint::link::record::unhex::<32>(&text).ok_or_else(|| {
        anyhow!(
            "--key: '{}' is not a key `bingomint link key` wrote",
            path.display()
        )
    })?;
    Ok(ed25519_dalek::SigningKey::from_bytes(&seed))
}
