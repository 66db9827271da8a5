//! The hall under hostile input and hostile conditions: markup in claims,
//! a full disk, a second hall on the same log, links planted at the seed
//! file, clients that trickle, chunked and mistyped requests. Each test
//! names what broke; traffic goes to 127.0.0.0/8 only, bounded in count and
//! time.

use crate::common::{bingomint, generate, stdout_of, SmallDisk};
use crate::hall::{http, secret, start};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::time::{Duration, Instant};

/// A raw request; the status line's code and the whole answer.
fn raw(addr: &str, request: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s.write_all(request).unwrap();
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    let code = answer.get(9..12).and_then(|c| c.parse().ok()).unwrap_or(0);
    (code, answer)
}

fn cards(dir: &Path) -> std::path::PathBuf {
    generate(dir, "c.bmc", &["--count", "50", "--seed", "5"])
}

// See: hardening round three, item 1 — a claim's reference was echoed into
// the console as markup. The pages now build no markup from data (checked
// in a real browser by `browser::a_night_in_a_real_browser`); here, what
// the server promises: a Content-Security-Policy on every answer, no inline
// script in any page, and no `innerHTML` in the hall's scripts.
#[test]
fn pages_carry_a_content_security_policy_and_no_inline_script() {
    let dir = tempfile::tempdir().unwrap();
    let file = cards(dir.path());
    let hall = start(&[&file], &dir.path().join("log.jsonl"), &[]);
    for page in ["/console", "/board", "/"] {
        let (code, answer) = raw(
            &hall.addr,
            format!("GET {page} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes(),
        );
        assert_eq!(code, 200, "{page}");
        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        let csp = head
            .lines()
            .find_map(|l| {
                let (name, value) = l.split_once(": ")?;
                name.eq_ignore_ascii_case("content-security-policy")
                    .then_some(value)
            })
            .unwrap_or_else(|| panic!("{page} has no Content-Security-Policy"));
        assert!(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"));
        assert!(
            !body.contains("<script>") && body.contains("<script src="),
            "{page}: scripts come from files"
        );
    }
    for script in ["/console.js", "/board.js"] {
        let (code, answer) = raw(
            &hall.addr,
            format!("GET {script} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes(),
        );
        assert_eq!(code, 200, "{script}");
        assert!(answer
            .to_ascii_lowercase()
            .contains("content-type: text/javascript"));
        assert!(!answer.contains("innerHTML"), "{script} builds markup");
    }
    // The claim is kept as the text it was.
    let hostile = "<img src=x onerror=alert(1)>";
    hall.post("/api/games", json!({"pattern": "line"}));
    let (code, v) = hall.post("/api/claims", json!({ "card": hostile }));
    assert_eq!(code, 404);
    assert_eq!(hall.state()["claims"][0]["card"], hostile);
    assert!(v["error"].as_str().unwrap().contains(hostile));
}

// See: hardening round three, item 2 — with the log's disk full, half a
// line stayed in the log and the next line was glued onto it.
#[test]
fn a_full_disk_leaves_the_log_whole_and_the_hall_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let Some(disk) = SmallDisk::mount(dir.path(), "a_full_disk_leaves_the_log_whole") else {
        return;
    };
    let file = cards(dir.path());
    let log = disk.path.join("night.jsonl");
    let hall = start(&[&file], &log, &[]);
    assert_eq!(hall.post("/api/games", json!({"pattern": "line"})).0, 201);
    // Fill the disk.
    let filler = disk.path.join("filler");
    let mut f = std::fs::File::create(&filler).unwrap();
    let block = vec![7u8; 4096];
    while f.write_all(&block).is_ok() {}
    let _ = f.sync_all();
    let mut refused = 0;
    let mut called = 0;
    for _ in 0..75 {
        match hall.post("/api/calls", json!({})).0 {
            201 => called += 1,
            500 => {
                refused += 1;
                if refused == 3 {
                    break;
                }
            }
            other => panic!("a call answered {other}"),
        }
    }
    assert!(refused > 0, "the disk never filled");
    assert_eq!(hall.calls().len(), called, "a failed call is not shown");
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.ends_with('\n'), "half a line left in the log");
    // Room again: the hall goes on, and the log is one chain.
    drop(f);
    std::fs::remove_file(&filler).unwrap();
    assert_eq!(hall.post("/api/calls", json!({})).0, 201);
    assert_eq!(hall.calls().len(), called + 1);
    assert_eq!(hall.post("/api/games/end", json!({})).0, 200);
    let out = bingomint()
        .args(["hall", "verify"])
        .arg(&log)
        .arg("--cards")
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// Runs `hall` expecting it to refuse to start; its stderr.
fn refused(file: &Path, log: &Path, extra: &[&str]) -> String {
    let out = bingomint()
        .args(["hall", "--listen", "127.0.0.1:0", "--cards"])
        .arg(file)
        .arg("--log")
        .arg(log)
        .args(extra)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "the hall started");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

// See: hardening round three, item 3 — two halls on one log interleaved
// their lines and shared one seed file.
#[test]
fn a_second_hall_on_the_same_log_is_refused_naming_the_first() {
    let dir = tempfile::tempdir().unwrap();
    let file = cards(dir.path());
    let log = dir.path().join("night.jsonl");
    let first = start(&[&file], &log, &[]);
    first.post("/api/games", json!({"pattern": "line"}));
    let before = std::fs::read(&log).unwrap();
    let err = refused(&file, &log, &[]);
    assert!(err.contains("is in use by another hall"), "{err}");
    assert!(
        err.contains(&format!("process {}", first.pid())),
        "names the first hall: {err}"
    );
    assert_eq!(std::fs::read(&log).unwrap(), before, "the log was written");
    // Once the first hall is gone, the log is free.
    drop(first);
    let again = start(&[&file], &log, &[]);
    assert_eq!(again.post("/api/calls", json!({})).0, 201);
}

// See: hardening round three, item 4 — a link at LOG.seed made the hall
// write the secret seed into the link's target.
#[test]
fn the_seed_file_follows_no_link_and_is_only_the_halls() {
    let dir = tempfile::tempdir().unwrap();
    let file = cards(dir.path());
    let victim = dir.path().join("victim.txt");
    for link in ["symbolic", "hard"] {
        std::fs::write(&victim, "precious\n").unwrap();
        let log = dir.path().join(format!("{link}.jsonl"));
        let seed = secret(&log);
        match link {
            "symbolic" => std::os::unix::fs::symlink(&victim, &seed).unwrap(),
            _ => std::fs::hard_link(&victim, &seed).unwrap(),
        }
        let hall = start(&[&file], &log, &[]);
        assert_eq!(hall.post("/api/games", json!({"pattern": "line"})).0, 201);
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
        let meta = std::fs::symlink_metadata(&seed).unwrap();
        assert!(meta.is_file() && meta.nlink() == 1, "{link}");
        assert_eq!(meta.mode() & 0o777, 0o600, "{link}");
        assert!(std::fs::read_to_string(&seed)
            .unwrap()
            .starts_with("hall2-"));
    }
    // An open game's seed file that others may read is refused, named.
    let log = dir.path().join("hard.jsonl");
    let seed = secret(&log);
    std::fs::set_permissions(&seed, std::fs::Permissions::from_mode(0o666)).unwrap();
    let err = refused(&file, &log, &[]);
    assert!(
        err.contains("has mode 666") && err.contains("chmod 600"),
        "{err}"
    );
    // So is a link put there after the game started.
    std::fs::set_permissions(&seed, std::fs::Permissions::from_mode(0o600)).unwrap();
    let text = std::fs::read(&seed).unwrap();
    std::fs::remove_file(&seed).unwrap();
    std::fs::write(&victim, &text).unwrap();
    std::os::unix::fs::symlink(&victim, &seed).unwrap();
    let err = refused(&file, &log, &[]);
    assert!(err.contains("is a symbolic link"), "{err}");
}

// See: hardening round three, also — a lost seed file left the log with no
// way on.
#[test]
fn a_game_whose_seed_is_lost_ends_unrevealed_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let file = cards(dir.path());
    let log = dir.path().join("night.jsonl");
    {
        let hall = start(&[&file], &log, &[]);
        hall.post("/api/games", json!({"pattern": "line"}));
        hall.post("/api/calls", json!({}));
    }
    std::fs::remove_file(secret(&log)).unwrap();
    let err = refused(&file, &log, &[]);
    assert!(err.contains("--void-lost-game"), "says how to go on: {err}");
    let hall = start(&[&file], &log, &["--void-lost-game"]);
    let state = hall.state();
    assert!(state["game"].is_null(), "the game is over");
    assert!(state["notice"].as_str().unwrap().contains("unrevealed"));
    assert_eq!(hall.post("/api/games", json!({"pattern": "line"})).0, 201);
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("\"event\":\"game_void\""));
    let out = stdout_of(
        bingomint()
            .args(["hall", "verify"])
            .arg(&log)
            .arg("--cards")
            .arg(&file),
    );
    assert!(out.contains("game 1 ended unrevealed"), "{out}");
}

// See: hardening round three, also — a cut-off last line was dropped on
// restart without a word.
#[test]
fn a_cut_off_last_line_is_reported_on_restart() {
    let dir = tempfile::tempdir().unwrap();
    let file = cards(dir.path());
    let log = dir.path().join("night.jsonl");
    drop(start(&[&file], &log, &[]));
    let mut f = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    f.write_all(b"{\"seq\":2,\"time\":\"20").unwrap();
    drop(f);
    let hall = start(&[&file], &log, &[]);
    let notice = hall.state()["notice"].as_str().unwrap().to_string();
    assert!(notice.contains("unfinished (19 bytes"), "{notice}");
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("\"note\":\"the log's last line was unfinished"));
}

// See: hardening round three, item 14 — a log in a missing folder was
// reported as unreadable, pointing at `hall verify`.
#[test]
fn a_log_in_a_missing_folder_names_the_folder() {
    let dir = tempfile::tempdir().unwrap();
    let file = cards(dir.path());
    let err = refused(&file, &dir.path().join("nowhere/night.jsonl"), &[]);
    assert!(
        err.contains("the directory") && err.contains("nowhere' does not exist"),
        "{err}"
    );
}

/// A connection from `source` (an address of 127.0.0.0/8) to `addr`.
pub fn connect_from(source: &str, addr: &str) -> TcpStream {
    let sock = socket2_free_connect(source, addr);
    sock.set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    sock
}

/// Binds a socket to `source` port 0 and connects it (libc, as no crate
/// here binds before connecting).
fn socket2_free_connect(source: &str, addr: &str) -> TcpStream {
    use std::os::fd::FromRawFd;
    let to: SocketAddr = addr.parse().unwrap();
    let from: std::net::Ipv4Addr = source.parse().unwrap();
    let SocketAddr::V4(to) = to else {
        panic!("IPv4 only")
    };
    let sockaddr = |ip: std::net::Ipv4Addr, port: u16| libc::sockaddr_in {
        sin_family: libc::AF_INET as libc::sa_family_t,
        sin_port: port.to_be(),
        sin_addr: libc::in_addr {
            s_addr: u32::from(ip).to_be(),
        },
        sin_zero: [0; 8],
    };
    let len = std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t;
    // SAFETY: a new socket, bound and connected with sockaddr_in values that
    // live across each call; the descriptor is handed to TcpStream, which
    // owns and closes it.
    unsafe {
        let fd = libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0);
        assert!(fd >= 0);
        let local = sockaddr(from, 0);
        assert_eq!(
            libc::bind(fd, (&local as *const libc::sockaddr_in).cast(), len),
            0
        );
        let remote = sockaddr(*to.ip(), to.port());
        assert_eq!(
            libc::connect(fd, (&remote as *const libc::sockaddr_in).cast(), len),
            0,
            "connect from {source}"
        );
        TcpStream::from_raw_fd(fd)
    }
}

// See: hardening round three, item 5 — 2,100 clients trickling a header
// byte every 5 s held every slot, and the console got 503.
#[test]
fn trickling_clients_are_cut_off_and_the_console_still_answers() {
    let dir = tempfile::tempdir().unwrap();
    let file = cards(dir.path());
    let hall = start(&[&file], &dir.path().join("log.jsonl"), &[]);
    let per_address = bingomint::hall::api::MAX_PER_ADDRESS;
    // More slow clients from one address than it may hold.
    let mut slow: Vec<TcpStream> = (0..per_address + 20)
        .map(|_| connect_from("127.0.0.2", &hall.addr))
        .collect();
    for s in &mut slow {
        let _ = s.write_all(b"GET /api/state HTTP/1.1\r\n");
    }
    let begun = Instant::now();
    // The console (another address) is served at once, while they hold on.
    let (code, _) = http(&hall.addr, "GET", "/console", None, None);
    assert_eq!(code, 200);
    assert!(begun.elapsed() < Duration::from_secs(2));
    // Past the cap, one address is told to come back; the rest are cut
    // off at the head's deadline.
    let (mut turned_away, mut cut_off) = (0, 0);
    let mut open: Vec<bool> = vec![true; slow.len()];
    let deadline = bingomint::hall::api::DEADLINE;
    while begun.elapsed() < deadline + Duration::from_secs(5) && open.iter().any(|o| *o) {
        std::thread::sleep(Duration::from_millis(500));
        for (s, open) in slow.iter_mut().zip(&mut open) {
            if !*open {
                continue;
            }
            // Read first: a write to a closed connection may reset it and
            // lose the answer waiting in it.
            s.set_nonblocking(true).unwrap();
            let mut buf = [0u8; 512];
            match s.read(&mut buf) {
                Ok(n) if String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 503") => {
                    turned_away += 1;
                    *open = false;
                }
                Ok(_) | Err(_) if !is_open(s) => {
                    cut_off += 1;
                    *open = false;
                    // Not before the deadline.
                    assert!(begun.elapsed() >= deadline - Duration::from_secs(1));
                }
                _ => {
                    let _ = s.write_all(b"X");
                }
            }
            s.set_nonblocking(false).unwrap();
        }
    }
    assert_eq!(turned_away, 20, "past the cap of {per_address} an address");
    assert_eq!(cut_off, per_address, "cut off at the request deadline");
}

// See: hardening round four — 8,192 live streams from 128 addresses locked
// the caller's console out. Streams are capped well below connections.
#[test]
fn live_streams_are_capped_below_the_connections_requests_need() {
    let dir = tempfile::tempdir().unwrap();
    let file = cards(dir.path());
    let hall = start(&[&file], &dir.path().join("log.jsonl"), &[]);
    let open_stream = || {
        let mut s = connect_from("127.0.0.2", &hall.addr);
        s.write_all(b"GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
            .unwrap();
        let mut buf = [0u8; 64];
        let n = s.read(&mut buf).unwrap();
        (s, String::from_utf8_lossy(&buf[..n]).to_string())
    };
    let per_address = 32;
    let held: Vec<TcpStream> = (0..per_address)
        .map(|_| {
            let (s, head) = open_stream();
            assert!(head.starts_with("HTTP/1.1 200"), "{head}");
            s
        })
        .collect();
    let (_, head) = open_stream();
    assert!(head.starts_with("HTTP/1.1 503"), "{head}");
    // The same address still has connections for its requests.
    let mut s = connect_from("127.0.0.2", &hall.addr);
    s.write_all(b"GET /api/state HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert_eq!(http(&hall.addr, "GET", "/console", None, None).0, 200);
    drop(held);
}

// See: hardening round four — a cross-site text/plain POST queued a claim,
// and the public state held the card file's absolute path.
#[test]
fn a_cross_site_form_cannot_claim_and_the_state_names_no_local_path() {
    let dir = tempfile::tempdir().unwrap();
    let file = cards(dir.path());
    let hall = start(&[&file], &dir.path().join("log.jsonl"), &[]);
    hall.post("/api/games", json!({"pattern": "line"}));
    for kind in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
    ] {
        let body = r#"{"card": "5"}"#;
        let request = format!(
            "POST /api/bingo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        let (code, answer) = raw(&hall.addr, request.as_bytes());
        assert_eq!(code, 415, "{kind}: {answer}");
    }
    let (code, _) = http(&hall.addr, "GET", "/api/queue", Some(&hall.key), None);
    assert_eq!(code, 200);
    let state = hall.state().to_string();
    let folder = dir.path().display().to_string();
    assert!(!state.contains(&folder), "{state}");
    assert_eq!(hall.state()["files"][0]["path"], "c.bmc");
}

/// Whether the server still holds `s` open (a read would wait).
fn is_open(s: &mut TcpStream) -> bool {
    let mut buf = [0u8; 1];
    matches!(s.peek(&mut buf), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock)
}

// See: hardening round three, item 11 — a chunked POST was answered as if
// its body were empty. The server now reads it, as HTTP/1.1 says.
#[test]
fn a_chunked_body_is_read_not_taken_as_empty() {
    let dir = tempfile::tempdir().unwrap();
    let file = cards(dir.path());
    let hall = start(&[&file], &dir.path().join("log.jsonl"), &[]);
    let body = r#"{"pattern":"line","prize":"chunked"}"#;
    let (head, tail) = body.split_at(10);
    let request = format!(
        "POST /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{head}\r\n{:x}\r\n{tail}\r\n0\r\n\r\n",
        hall.key,
        head.len(),
        tail.len()
    );
    let (code, answer) = raw(&hall.addr, request.as_bytes());
    assert_eq!(code, 201, "{answer}");
    assert_eq!(hall.state()["game"]["prize"], "chunked");
    // A chunked body past the limit is refused, and nothing changes.
    let big = format!(
        r#"{{"card":"{}"}}"#,
        "1".repeat(bingomint::hall::api::MAX_BODY)
    );
    let request = format!(
        "POST /api/claims HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{big}\r\n0\r\n\r\n",
        hall.key,
        big.len()
    );
    let (code, answer) = raw(&hall.addr, request.as_bytes());
    assert_eq!(code, 413, "{answer}");
    assert!(hall.state()["claims"].as_array().unwrap().is_empty());
}

// See: hardening round three, item 12 — mistyped and unknown fields changed
// a game silently.
#[test]
fn mistyped_and_unknown_fields_are_refused_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let file = cards(dir.path());
    let hall = start(&[&file], &dir.path().join("log.jsonl"), &[]);
    let cases: [(&str, Value, &str); 8] = [
        (
            "/api/games",
            json!({"pattern": "line", "last_call_must_complete": "yes"}),
            "field last_call_must_complete",
        ),
        (
            "/api/games",
            json!({"pattern": "line", "prize": 123}),
            "field prize",
        ),
        (
            "/api/games",
            json!({"pattern": "line", "stages": ["x"]}),
            "pattern or stages, not both",
        ),
        // A game asked by the API is bounded as a night file's is: each
        // stage is sent to every viewer.
        (
            "/api/games",
            json!({"stages": vec!["line"; 21]}),
            "stages: 21 in one game; a game has at most 20",
        ),
        (
            "/api/games",
            json!({"pattern": "line", "colour": "red"}),
            "unknown field `colour`",
        ),
        ("/api/calls", json!({"count": 5}), "unknown field `count`"),
        (
            "/api/claims",
            json!({"card": "1", "accept": "true"}),
            "field accept",
        ),
        // Found by fuzz/fuzz_targets/hall_request.rs: serde took an array
        // for the struct's fields in order.
        ("/api/claims", json!(["1", true]), "must be a JSON object"),
    ];
    for (path, body, says) in cases {
        if path != "/api/games" && hall.state()["game"].is_null() {
            assert_eq!(hall.post("/api/games", json!({"pattern": "line"})).0, 201);
        }
        let (code, v) = hall.post(path, body.clone());
        assert_eq!(code, 400, "{path} {body}");
        let error = v["error"].as_str().unwrap();
        assert!(error.contains(says), "{path} {body}: {error}");
        if path == "/api/games" {
            assert!(hall.state()["game"].is_null(), "{body} started a game");
        }
    }
    assert!(hall.calls().is_empty(), "nothing was called");
}

// See: hardening round three, also — `Authorization: bearer` (lower case)
// was refused; the scheme is case-insensitive.
#[test]
fn the_key_is_taken_with_the_scheme_in_any_case_and_only_whole() {
    let dir = tempfile::tempdir().unwrap();
    let file = cards(dir.path());
    let hall = start(&[&file], &dir.path().join("log.jsonl"), &[]);
    let post = |auth: &str| {
        let body = r#"{"pattern":"line"}"#;
        raw(
            &hall.addr,
            format!(
                "POST /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: {auth}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            )
            .as_bytes(),
        )
        .0
    };
    let short = &hall.key[..hall.key.len() - 1];
    assert_eq!(post(&format!("Bearer {short}")), 401);
    assert_eq!(post(&format!("Basic {}", hall.key)), 401);
    assert_eq!(post(&format!("bearer {}", hall.key)), 201);
}

/// A TLS client to `addr` trusting only `roots`; the status of `GET path`,
/// or the handshake's error.
fn over_tls(addr: &str, roots: &[Vec<u8>], name: &str, path: &str) -> Result<u16, String> {
    use rustls::pki_types::{CertificateDer, ServerName};
    let mut store = rustls::RootCertStore::empty();
    for der in roots {
        store.add(CertificateDer::from(der.clone())).unwrap();
    }
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(store)
        .with_no_client_auth();
    let server = ServerName::try_from(name.to_string()).unwrap();
    let conn = rustls::ClientConnection::new(std::sync::Arc::new(config), server).unwrap();
    let tcp = TcpStream::connect(addr).unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut tls = rustls::StreamOwned::new(conn, tcp);
    tls.write_all(
        format!("GET {path} HTTP/1.1\r\nHost: {name}\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .map_err(|e| e.to_string())?;
    let mut answer = Vec::new();
    match tls.read_to_end(&mut answer) {
        Ok(_) => {}
        // Some servers close without close_notify after Connection: close.
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof && !answer.is_empty() => {}
        Err(e) => return Err(e.to_string()),
    }
    let text = String::from_utf8_lossy(&answer);
    text.get(9..12)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| format!("no answer: {text}"))
}

/// The certificate in a PEM file, as DER.
fn pem_der(path: &Path) -> Vec<u8> {
    use rustls::pki_types::pem::PemObject;
    rustls::pki_types::CertificateDer::from_pem_file(path)
        .unwrap()
        .to_vec()
}

// Players' phones reach the hall over the venue's Wi-Fi: TLS with a
// certificate `hall cert` makes. A client that trusts it connects; one that
// does not is refused; plain HTTP to a TLS hall gets nothing.
#[test]
fn tls_with_a_generated_certificate_serves_the_clients_that_trust_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = cards(dir.path());
    let tls = dir.path().join("tls");
    let out = stdout_of(
        bingomint()
            .args(["hall", "cert", "--host", "hall.test", "--out"])
            .arg(&tls),
    );
    assert!(out.contains("SHA-256"), "{out}");
    let (cert, key) = (tls.join("hall-cert.pem"), tls.join("hall-key.pem"));
    assert_eq!(std::fs::metadata(&key).unwrap().mode() & 0o777, 0o600);
    // See: hardening round four — a certificate valid 1975–4096 with no
    // serverAuth, which phones following Apple's rule refuse.
    {
        use x509_parser::prelude::*;
        let der = pem_der(&cert);
        let (_, parsed) = X509Certificate::from_der(&der).unwrap();
        let v = parsed.validity();
        let days = (v.not_after.timestamp() - v.not_before.timestamp()) / 86_400;
        assert!((1..=825).contains(&days), "valid {days} days");
        let eku = parsed.extended_key_usage().unwrap().unwrap().value;
        assert!(eku.server_auth, "serverAuth");
        assert!(v.is_valid(), "valid now");
    }
    // Not replaced without --force.
    bingomint()
        .args(["hall", "cert", "--out"])
        .arg(&tls)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--force"));
    let hall = start(
        &[&file],
        &dir.path().join("log.jsonl"),
        &[
            "--tls-cert",
            cert.to_str().unwrap(),
            "--tls-key",
            key.to_str().unwrap(),
        ],
    );
    let trusted = [pem_der(&cert)];
    assert_eq!(
        over_tls(&hall.addr, &trusted, "hall.test", "/api/state"),
        Ok(200)
    );
    assert_eq!(
        over_tls(&hall.addr, &trusted, "localhost", "/board"),
        Ok(200)
    );
    // A client trusting another certificate is refused in the handshake.
    let other = dir.path().join("other");
    stdout_of(bingomint().args(["hall", "cert", "--out"]).arg(&other));
    let stranger = [pem_der(&other.join("hall-cert.pem"))];
    let refused = over_tls(&hall.addr, &stranger, "hall.test", "/api/state");
    assert!(refused.is_err(), "{refused:?}");
    // So is a name the certificate does not hold.
    assert!(over_tls(&hall.addr, &trusted, "elsewhere.test", "/api/state").is_err());
    // A key that is not the certificate's is refused at start, named.
    let out = bingomint()
        .args(["hall", "--listen", "127.0.0.1:0", "--cards"])
        .arg(&file)
        .arg("--log")
        .arg(dir.path().join("other.jsonl"))
        .arg("--tls-cert")
        .arg(&cert)
        .arg("--tls-key")
        .arg(other.join("hall-key.pem"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("are not a pair"), "{err}");
    // A key file others may read is refused at start, named.
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = bingomint()
        .args(["hall", "--listen", "127.0.0.1:0", "--cards"])
        .arg(&file)
        .arg("--log")
        .arg(dir.path().join("third.jsonl"))
        .arg("--tls-cert")
        .arg(&cert)
        .arg("--tls-key")
        .arg(&key)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("has mode 644") && err.contains("chmod 600"),
        "{err}"
    );
    // Names a certificate cannot hold are refused, naming the rule.
    for host in ["", "a b", "<script>", "-bad.example", "x..y"] {
        bingomint()
            .args(["hall", "cert", &format!("--host={host}"), "--out"])
            .arg(dir.path().join("never"))
            .assert()
            .code(2)
            .stderr(predicates::str::contains(format!("--host {host:?}")));
    }
    assert!(!dir.path().join("never").exists());
}
