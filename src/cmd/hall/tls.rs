//! TLS for the hall: the server's configuration from a certificate and key
//! (PEM files, rustls), and a warning of its expiry.

use anyhow::{bail, Context, Result};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use std::path::Path;
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
    key_is_private(key)?;
    warn_of_expiry(cert, &chain[0]);
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

/// Refuses a key file that others may read (as the seed file is refused).
fn key_is_private(key: &Path) -> Result<()> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(key)
        .with_context(|| format!("--tls-key '{}': cannot read it", key.display()))?;
    if meta.mode() & 0o007 != 0 {
        bail!(
            "--tls-key '{}' has mode {:o}: anyone on this machine may read the private key (chmod 600 it, or 640 for a group that serves it)",
            key.display(),
            meta.mode() & 0o777
        );
    }
    Ok(())
}

/// Days before a certificate's end from which the hall warns at start.
const EXPIRY_WARNING_DAYS: i64 = 30;

/// Warns when `cert` (the file's first certificate) has expired, is not
/// valid yet, or ends within [`EXPIRY_WARNING_DAYS`]: phones would refuse it.
fn warn_of_expiry(path: &Path, cert: &CertificateDer<'_>) {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    if let Some(warning) = expiry_warning(path, cert, now) {
        eprintln!("bingomint: warning: {warning}");
    }
}

/// What [`warn_of_expiry`] says at `now` (seconds since 1970), if anything.
fn expiry_warning(path: &Path, cert: &CertificateDer<'_>, now: i64) -> Option<String> {
    use x509_parser::prelude::FromDer;
    // A certificate that does not parse: rustls says what is wrong next.
    let (_, parsed) = x509_parser::certificate::X509Certificate::from_der(cert).ok()?;
    let validity = parsed.validity();
    let (from, until) = (
        validity.not_before.timestamp(),
        validity.not_after.timestamp(),
    );
    let end = validity.not_after.to_datetime().date();
    let shown = path.display();
    if until < now {
        Some(format!("--tls-cert '{shown}' expired on {end}: phones will refuse it (make a new one: bingomint hall cert)"))
    } else if from > now {
        let start = validity.not_before.to_datetime().date();
        Some(format!(
            "--tls-cert '{shown}' is not valid before {start}: check this machine's clock"
        ))
    } else if until - now < EXPIRY_WARNING_DAYS * 86_400 {
        let days = (until - now) / 86_400;
        Some(format!(
            "--tls-cert '{shown}' expires on {end}, in {days} days: make a new one before then"
        ))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::cert::{paths, self_signed};
    use super::*;

    /// See: hardening round four (an expired certificate started the hall
    /// without a word).
    #[test]
    fn an_expired_or_ending_certificate_is_named_at_start() {
        let dir = tempfile::tempdir().unwrap();
        self_signed(&["hall.test".into()], dir.path(), false).unwrap();
        let path = paths(dir.path()).0;
        let der = CertificateDer::from_pem_file(&path).unwrap();
        let day = 86_400;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs() as i64;
        assert_eq!(expiry_warning(&path, &der, now), None);
        let late = expiry_warning(&path, &der, now + 900 * day).unwrap();
        assert!(late.contains("expired on"), "{late}");
        let soon = expiry_warning(&path, &der, now + 810 * day).unwrap();
        assert!(
            soon.contains("expires on") && soon.contains("days"),
            "{soon}"
        );
        let early = expiry_warning(&path, &der, now - 10 * day).unwrap();
        assert!(early.contains("not valid before"), "{early}");
    }
}
