//! Where the hall listens and how phones find it: `--listen` as typed (a
//! port alone is every interface), the machine's network addresses, and
//! the players' addresses with a QR code in the terminal.

use crate::cmd::outln;
use anyhow::Result;
use bingomint::hall::join::Join;

/// Listens where `--listen` says (`given`), or says why it cannot and what
/// to type.
pub fn listen(given: &str) -> Result<std::net::TcpListener> {
    let listen = listen_address(given);
    std::net::TcpListener::bind(&listen).map_err(|e| {
        let why = match e.kind() {
            std::io::ErrorKind::AddrInUse => "the port is in use (another hall?); 127.0.0.1:0 picks a free port".to_string(),
            std::io::ErrorKind::AddrNotAvailable => "this machine has no such address; 0.0.0.0:PORT (or PORT alone) listens on every interface".to_string(),
            std::io::ErrorKind::PermissionDenied => "ports below 1024 need privileges; use 8075 or another above 1024".to_string(),
            _ if listen.parse::<std::net::SocketAddr>().is_err() => "give ADDRESS:PORT, such as 127.0.0.1:8075 or 0.0.0.0:8075, or a PORT alone for every interface".to_string(),
            _ => e.to_string(),
        };
        anyhow::anyhow!("--listen {}: cannot listen there: {why}", given)
    })
}

/// `--listen`'s address: a port alone means every interface on it.
pub fn listen_address(given: &str) -> String {
    if !given.is_empty() && given.bytes().all(|b| b.is_ascii_digit()) {
        format!("0.0.0.0:{given}")
    } else {
        given.to_string()
    }
}

/// This machine's network addresses (none when they cannot be read).
pub fn machine() -> Vec<std::net::IpAddr> {
    if_addrs::get_if_addrs()
        .map(|list| list.iter().map(|i| i.ip()).collect())
        .unwrap_or_default()
}

/// The addresses phones can use, with the first one's QR code; or why
/// phones cannot reach the hall.
pub fn players(quiet: bool, join: &Join, listener: &std::net::TcpListener) -> Result<()> {
    let port = listener.local_addr()?.port();
    if join.players.is_empty() {
        if !quiet {
            eprintln!("bingomint: note: listening on this machine only: phones cannot reach the hall; --listen {port} (or 0.0.0.0:{port}) lets them in");
        }
        return Ok(());
    }
    for url in &join.players {
        outln!("phones   {url}");
    }
    if !quiet {
        outln!("{}", bingomint::hall::join::terminal(&join.qr).trim_end());
        outln!(
            "         (scan for {}; the board shows it between games)",
            join.players[0]
        );
    }
    Ok(())
}
