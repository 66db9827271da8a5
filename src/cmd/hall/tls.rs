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

/// How long a certificate `hall cert` makes is valid: the most Apple's
/// rule for TLS servers allows a certificate a device is asked to trust.
const CERT_DAYS: i64 = 825;

/// `host` as a certificate's name: an IP address, or a DNS name (letters,
/// digits and hyphens in dot-separated labels of 1 to 63, at most 253 in
/// all, no label starting or ending with a hyphen); what is wrong otherwise.
fn san(host: &str) -> Result<rcgen::SanType> {
    if let Ok(ip) = host.parse::<std::net::IpAddr>() {
        return Ok(rcgen::SanType::IpAddress(ip));
    }
    // A name of digits and dots is an address written wrong, never a
    // DNS name (its last label, a top-level domain, is never all digits).
    let last = host.rsplit('.').next().unwrap_or("");
    let why = if host.is_empty() {
        Some("is empty".to_string())
    } else if !last.is_empty() && last.bytes().all(|b| b.is_ascii_digit()) {
        Some("is no IP address (each of its four numbers is 0 to 255) and no host name (a name's last part is not all digits)".to_string())
    } else if host.len() > 253 {
        Some("is over 253 characters".into())
    } else {
        host.split('.').find_map(|label| {
            if label.is_empty() || label.len() > 63 {
                Some(format!(
                    "has a label of {} characters (1 to 63)",
                    label.len()
                ))
            } else if let Some(c) = label
                .chars()
                .find(|c| !c.is_ascii_alphanumeric() && *c != '-')
            {
                Some(format!(
                    "holds {c:?}: a name has letters, digits, hyphens and dots"
                ))
            } else if label.starts_with('-') || label.ends_with('-') {
                Some(format!(
                    "has the label {label:?}, which starts or ends with a hyphen"
                ))
            } else {
                None
            }
        })
    };
    match why {
        Some(why) => bail!(
            "--host {host:?} {why}: give a host name (hall.local) or an IP address (192.168.1.20)"
        ),
        None => Ok(rcgen::SanType::DnsName(
            host.to_ascii_lowercase()
                .try_into()
                .map_err(|e| anyhow::anyhow!("--host {host:?}: {e}"))?,
        )),
    }
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
    let mut params = rcgen::CertificateParams::default();
    params.subject_alt_names = hosts.iter().map(|h| san(h)).collect::<Result<_>>()?;
    params
        .distinguished_name
        .push(rcgen::DnType::CommonName, "bingomint hall");
    // Valid from yesterday (a phone's clock may lag) for CERT_DAYS in all,
    // for a TLS server only.
    let today = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
        / 86_400;
    let day = |days: i64| {
        let ymd = bingomint::cardfile::header::yyyymmdd(days);
        rcgen::date_time_ymd(
            (ymd / 10_000) as i32,
            (ymd / 100 % 100) as u8,
            (ymd % 100) as u8,
        )
    };
    params.not_before = day(today - 1);
    params.not_after = day(today - 1 + CERT_DAYS);
    params.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::ServerAuth];
    params.key_usages = vec![rcgen::KeyUsagePurpose::DigitalSignature];
    let key_pair =
        rcgen::KeyPair::generate().map_err(|e| anyhow::anyhow!("cannot make a key pair: {e}"))?;
    let cert = params
        .self_signed(&key_pair)
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

#[cfg(test)]
mod tests {
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

    #[test]
    fn host_names_are_checked_by_the_rules_of_dns() {
        for good in ["hall.local", "a-b.example", "192.168.1.20", "::1", "x"] {
            assert!(san(good).is_ok(), "{good}");
        }
        // See: issue 62, 999.1.1.1 was taken as a DNS name.
        for bad in [
            "",
            "a b",
            "<script>",
            "-x",
            "x-",
            "a..b",
            &"a".repeat(64),
            "999.1.1.1",
            "10.0.0",
        ] {
            assert!(san(bad).is_err(), "{bad}");
        }
    }
}
