//! How phones find the hall: the players' addresses a phone can open (the
//! machine's network addresses, never loopback or 0.0.0.0) and their QR
//! code, for the terminal, the board and the table cards.

use serde::Serialize;
use std::net::{IpAddr, SocketAddr};

/// The players' page as phones reach it, with its QR code.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Join {
    /// `http://192.168.1.20:8075/play`, one per network address; empty
    /// when the hall listens on loopback only.
    pub players: Vec<String>,
    /// The first address's QR code: rows of `1` (dark) and `0`, without
    /// the quiet zone.
    pub qr: Vec<String>,
}

impl Join {
    /// The players' page of a hall listening on `listen` (over https when
    /// `tls`), on a machine whose network addresses are `machine`.
    pub fn new(listen: SocketAddr, machine: &[IpAddr], tls: bool) -> Join {
        let players: Vec<String> = reachable(listen.ip(), machine)
            .into_iter()
            .map(|ip| url(ip, listen.port(), tls))
            .collect();
        let qr = players.first().map(|u| qr_rows(u)).unwrap_or_default();
        Join { players, qr }
    }
}

/// The addresses a phone can use for a hall on `ip`: the machine's own
/// network addresses (IPv4 first) when it listens on every interface, the
/// address itself when it is one of them, none on loopback.
pub fn reachable(ip: IpAddr, machine: &[IpAddr]) -> Vec<IpAddr> {
    if ip.is_loopback() {
        return Vec::new();
    }
    if !ip.is_unspecified() {
        return vec![ip];
    }
    let mut out: Vec<IpAddr> = (machine.iter().copied())
        .filter(|a| !a.is_loopback() && !a.is_unspecified())
        // A phone cannot reach a link-local IPv6 address without its zone.
        .filter(|a| !matches!(a, IpAddr::V6(v6) if v6.segments()[0] & 0xffc0 == 0xfe80))
        .filter(|a| ip.is_ipv6() || a.is_ipv4())
        .collect();
    out.sort_by_key(|a| (a.is_ipv6(), *a));
    out.dedup();
    out
}

/// The players' page at `ip` and `port`.
pub fn url(ip: IpAddr, port: u16, tls: bool) -> String {
    let scheme = if tls { "https" } else { "http" };
    let at = SocketAddr::new(ip, port);
    let port_shown = if (tls && port == 443) || (!tls && port == 80) {
        match ip {
            IpAddr::V4(v4) => v4.to_string(),
            IpAddr::V6(v6) => format!("[{v6}]"),
        }
    } else {
        at.to_string()
    };
    format!("{scheme}://{port_shown}/play")
}

/// `text`'s QR code (error correction M): rows of `1` (dark) and `0`.
pub fn qr_rows(text: &str) -> Vec<String> {
    let Ok(code) = qrcodegen::QrCode::encode_text(text, qrcodegen::QrCodeEcc::Medium) else {
        return Vec::new();
    };
    let n = code.size();
    (0..n)
        .map(|y| {
            (0..n)
                .map(|x| if code.get_module(x, y) { '1' } else { '0' })
                .collect()
        })
        .collect()
}

/// `rows` (as [`qr_rows`] gives them) drawn for a terminal, two rows of
/// modules per line in half blocks, dark on light with a quiet zone of
/// two modules (terminals differ in colours: dark modules are drawn as
/// spaces on the light blocks around them, so the code reads either way
/// round only when the terminal's background is dark; a scanner also
/// reads inverted codes).
pub fn terminal(rows: &[String]) -> String {
    let n = rows.len();
    if n == 0 {
        return String::new();
    }
    let quiet = 2;
    let size = n + 2 * quiet;
    let dark = |x: usize, y: usize| {
        (quiet..quiet + n).contains(&x)
            && (quiet..quiet + n).contains(&y)
            && rows[y - quiet].as_bytes()[x - quiet] == b'1'
    };
    let mut out = String::new();
    for y in (0..size).step_by(2) {
        for x in 0..size {
            // Light modules are drawn (block), dark ones left blank.
            let top = !dark(x, y);
            let bottom = y + 1 < size && !dark(x, y + 1);
            out.push(match (top, bottom) {
                (true, true) => '█',
                (true, false) => '▀',
                (false, true) => '▄',
                (false, false) => ' ',
            });
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ips(list: &[&str]) -> Vec<IpAddr> {
        list.iter().map(|s| s.parse().unwrap()).collect()
    }

    #[test]
    fn phones_get_the_machines_network_addresses() {
        let machine = ips(&[
            "127.0.0.1",
            "192.168.1.20",
            "::1",
            "fe80::1",
            "10.0.0.5",
            "2001:db8::7",
        ]);
        let any4: IpAddr = "0.0.0.0".parse().unwrap();
        assert_eq!(
            reachable(any4, &machine),
            ips(&["10.0.0.5", "192.168.1.20"])
        );
        let any6: IpAddr = "::".parse().unwrap();
        assert_eq!(
            reachable(any6, &machine),
            ips(&["10.0.0.5", "192.168.1.20", "2001:db8::7"])
        );
        assert!(reachable("127.0.0.1".parse().unwrap(), &machine).is_empty());
        let one: IpAddr = "192.168.1.20".parse().unwrap();
        assert_eq!(reachable(one, &machine), vec![one]);
        let join = Join::new("0.0.0.0:8075".parse().unwrap(), &machine, false);
        assert_eq!(
            join.players,
            ["http://10.0.0.5:8075/play", "http://192.168.1.20:8075/play"]
        );
        assert_eq!(
            url("2001:db8::7".parse().unwrap(), 443, true),
            "https://[2001:db8::7]/play"
        );
    }

    #[test]
    fn the_qr_code_holds_the_address() {
        let rows = qr_rows("http://192.168.1.20:8075/play");
        // Version 3 (29 modules) for 29 bytes at level M (version 2
        // holds 26); finder patterns in three corners.
        assert_eq!(rows.len(), 29);
        assert!(rows.iter().all(|r| r.len() == 29));
        assert_eq!(&rows[0][..7], "1111111");
        assert_eq!(&rows[0][22..], "1111111");
        assert_eq!(&rows[28][..7], "1111111");
        assert_eq!(&rows[1][..7], "1000001");
        let drawn = terminal(&rows);
        assert_eq!(drawn.lines().count(), (29 + 4usize).div_ceil(2));
        assert!(drawn.lines().all(|l| l.chars().count() == 33));
    }
}
