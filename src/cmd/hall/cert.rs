//! `hall cert`: a self-signed certificate and key for a venue without a domain.

use crate::cmd::output::write_new;
use crate::cmd::{outln, Outcome};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};

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

#[cfg(test)]
mod tests {
    use super::*;

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
