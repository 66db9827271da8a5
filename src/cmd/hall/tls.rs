//! TLS for the hall: the server's configuration from a certificate and key
//! (PEM files, rustls), and `hall cert`, a self-signed pair for a venue
//! without a domain.

use crate::cmd::{outln, Outcome};
use anyhow::{bail, Context, Result};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The server's TLS configuration from `--tls-cert` and `--tls-key`.
pub fn config(cert: &Path, key: &Path) -> Result<Arc<rustls::ServerConfig>> {
    let chain = CertificateDer::pem_file_iter(cert)
        .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
        .map_err(|e| {
            anyhow::anyhow!(
                "--tls-cert '{}': not a PEM certificate file ({e})",
                cert.display()
            )
        })?;
    if chain.is_empty() {
        bail!(
            "--tls-cert '{}' holds no certificate (-----BEGIN CERTIFICATE-----)",
            cert.display()
        );
    }
    let secret = PrivateKeyDer::from_pem_file(key).map_err(|e| {
        anyhow::anyhow!(
            "--tls-key '{}': not a PEM private key file ({e})",
            key.display()
        )
    })?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .context("TLS")?
        .with_no_client_auth()
        .with_single_cert(chain, secret)
        .map_err(|e| {
            anyhow::anyhow!(
                "--tls-cert '{}' and --tls-key '{}' are not a pair: {e}",
                cert.display(),
                key.display()
            )
        })?;
    Ok(Arc::new(config))
}

/// `hall cert`.
pub fn cert(mut hosts: Vec<String>, out: &std::path::Path, force: bool) -> Result<Outcome> {
    for always in ["localhost", "127.0.0.1"] {
        if !hosts.iter().any(|h| h == always) {
            hosts.push(always.to_string());
        }
    }
    let fingerprint = self_signed(&hosts, out, force)?;
    let (cert, key) = paths(out);
    outln!(
        "certificate {} for {}\nkey         {} (mode 0600: keep it private)\nSHA-256     {fingerprint}",
        cert.display(),
        hosts.join(", "),
        key.display()
    );
    Ok(Outcome::Success)
}

/// Where `hall cert` writes: (certificate, key).
pub fn paths(dir: &Path) -> (PathBuf, PathBuf) {
    (dir.join("hall-cert.pem"), dir.join("hall-key.pem"))
}

/// Writes a self-signed certificate for `hosts` (names or addresses) and
/// its key (mode 0600) into `dir`; returns the certificate's SHA-256.
pub fn self_signed(hosts: &[String], dir: &Path, force: bool) -> Result<String> {
    let rcgen::CertifiedKey { cert, key_pair } = rcgen::generate_simple_self_signed(hosts.to_vec())
        .map_err(|e| anyhow::anyhow!("--host: cannot make a certificate for {hosts:?}: {e}"))?;
    std::fs::create_dir_all(dir)
        .with_context(|| format!("--out: cannot create '{}'", dir.display()))?;
    let (cert_path, key_path) = paths(dir);
    write_new(&key_path, key_pair.serialize_pem().as_bytes(), 0o600, force)?;
    write_new(&cert_path, cert.pem().as_bytes(), 0o644, force)?;
    Ok(bingomint::text::sha256_hex(cert.der()))
}

/// Writes `bytes` to a new file of `mode` (no link followed); an existing
/// file is replaced only with `force`.
fn write_new(path: &Path, bytes: &[u8], mode: u32, force: bool) -> Result<()> {
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
