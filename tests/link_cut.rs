//! A venue cut off from the network and healed: the venue runs in a
//! network namespace the test makes, joined to this machine by a veth
//! pair and reaching the broker through a relay on the pair's address
//! (directly, or through its own NATS leaf server in the namespace). Its
//! link goes down while the game's sales close and its order is revealed;
//! healed, the venue catches up, finishes locally and claims in time, and
//! its claims count.

use super::common::skipped;
use super::link::{finish, text, wait_lines, Net};
use super::network::{env_value, Stop};
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A network namespace joined to this one by a veth pair, deleted (with
/// the pair) when dropped.
struct Ns {
    name: String,
    host: String,
}

fn ip(args: &[&str]) -> Output {
    Command::new("ip").args(args).output().unwrap()
}

impl Ns {
    /// A namespace and its pair, or None when this machine cannot make one
    /// (not root, no `ip`): the test is then skipped.
    fn make(tag: u32) -> Option<Ns> {
        let id = (std::process::id() % 10_000) * 10 + tag;
        let (name, outer, inner) = (format!("bmcut{id}"), format!("bmh{id}"), format!("bmn{id}"));
        let net = format!("10.213.{}", id % 250);
        let made = Command::new("ip")
            .args(["netns", "add", &name])
            .output()
            .is_ok_and(|o| o.status.success());
        if !made {
            skipped("cannot make a network namespace here (needs root and iproute2)");
            return None;
        }
        let ns = Ns {
            name: name.clone(),
            host: format!("{net}.1"),
        };
        let steps: [&[&str]; 6] = [
            &[
                "link", "add", &outer, "type", "veth", "peer", "name", &inner, "netns", &name,
            ],
            &["addr", "add", &format!("{net}.1/30"), "dev", &outer],
            &["link", "set", &outer, "up"],
            &[
                "-n",
                &name,
                "addr",
                "add",
                &format!("{net}.2/30"),
                "dev",
                &inner,
            ],
            &["-n", &name, "link", "set", &inner, "up"],
            &["-n", &name, "link", "set", "lo", "up"],
        ];
        for step in steps {
            let out = ip(step);
            assert!(out.status.success(), "ip {step:?}: {}", text(&out));
        }
        Some(ns)
    }

    /// The namespace's end of the pair.
    fn inner(&self) -> String {
        self.name.replace("bmcut", "bmn")
    }

    /// The namespace's side of the pair down (cut) or up (healed).
    fn set(&self, up: bool) {
        let state = if up { "up" } else { "down" };
        let out = ip(&["-n", &self.name, "link", "set", &self.inner(), state]);
        assert!(out.status.success(), "{}", text(&out));
    }
}

impl Drop for Ns {
    fn drop(&mut self) {
        let _ = ip(&["netns", "del", &self.name]);
    }
}

/// Forwards every connection to `addr` (this namespace's side of the
/// pair) on to `to`, both ways, until either side closes.
fn relay(addr: &str, to: String) -> u16 {
    let listener = TcpListener::bind((addr, 0)).unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for client in listener.incoming().flatten() {
            let Ok(server) = TcpStream::connect(&to) else {
                continue;
            };
            let pipe = |mut from: TcpStream, mut into: TcpStream| {
                std::thread::spawn(move || {
                    let mut buf = [0u8; 16 * 1024];
                    while let Ok(n) = from.read(&mut buf) {
                        if n == 0 || into.write_all(&buf[..n]).is_err() {
                            break;
                        }
                    }
                    let _ = into.shutdown(Shutdown::Write);
                });
            };
            pipe(client.try_clone().unwrap(), server.try_clone().unwrap());
            pipe(server, client);
        }
    });
    port
}

/// Waits up to 30 s for `query` to answer `want` (the books' tables may
/// not be made yet).
fn until_sql(net: &Net, query: &str, want: &str) {
    let start = Instant::now();
    let answer = || {
        let out = Command::new(super::network::psql())
            .args([net.db.as_str(), "-tAc", query])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    while answer() != want {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{query} never gave {want}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

// See: issue 64, item 8: a venue cut off from the network and healed.
#[test]
fn a_venue_cut_off_while_the_order_is_revealed_catches_up_and_its_claims_count() {
    cut_off(("c1", 1), false);
}

// See: issue 64, item 3: a venue behind its own leaf server.
#[test]
fn a_venue_behind_its_own_leaf_server_cut_off_catches_up_and_its_claims_count() {
    cut_off(("c2", 2), true);
}

/// Game `game` with hull in a namespace of its own (`tag` tells the
/// namespaces of tests running together apart), its link cut while
/// sales close and the order is revealed; `leaf`: hull talks to its own
/// NATS server in the namespace, a leaf of the network's.
fn cut_off((game, tag): (&str, u32), leaf: bool) {
    let Some(net) = Net::start() else { return };
    let Some(ns) = Ns::make(tag) else { return };
    let hub = env_value(
        &net.dir.join("net"),
        if leaf { "NATS_LEAFNODES" } else { "NATS_URL" },
    );
    let port = relay(&ns.host, hub.split("://").nth(1).unwrap().to_string());
    let (url, domain, _leaf_stop) = if leaf {
        let dir = net.dir.join("hull-nats");
        let started = Command::new("ip")
            .args(["netns", "exec", &ns.name, "bash"])
            .arg(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/network.sh"))
            .arg("leaf")
            .arg(&dir)
            .env("NATS_LEAFNODES", format!("nats-leaf://{}:{port}", ns.host))
            .env("NATS_NETWORK_DOMAIN", "network")
            .output()
            .unwrap();
        assert!(started.status.success(), "{}", text(&started));
        let stop = Stop(dir.clone());
        (
            env_value(&dir, "NATS_URL"),
            env_value(&dir, "NATS_DOMAIN"),
            Some(stop),
        )
    } else {
        (format!("nats://{}:{port}", ns.host), String::new(), None)
    };
    for (venue, sold) in [
        ("leeds", "1..2500"),
        ("york", "3001..5800"),
        ("hull", "6001..8000"),
    ] {
        net.venue(game, venue, sold, &net.public);
    }
    let control = net.control(game, "control.key", 60);
    // Hull plays from inside the namespace, through the pair (or its leaf).
    let hull: Child = Command::new("ip")
        .args(["netns", "exec", &ns.name, env!("CARGO_BIN_EXE_bingomint")])
        .args(["link", "venue", &format!("{game}-hull.toml")])
        .args(["--log", &format!("{game}-hull.jsonl"), "--wait", "60"])
        .current_dir(&net.dir)
        .env("NATS_URL", url)
        .env("NATS_DOMAIN", domain)
        .env("NATS_REPLICAS", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Its sales booked, its link goes down; the others sell, so sales
    // close, the prize is fixed and the order revealed while it is cut off.
    until_sql(
        &net,
        &format!("select count(*) from sales where game = '{game}'"),
        "1",
    );
    ns.set(false);
    let others: Vec<Child> = ["leeds", "york"]
        .iter()
        .map(|v| net.play(game, v))
        .collect();
    wait_lines(&net.dir.join(format!("{game}-leeds.jsonl")), 4);
    let kept = std::fs::read_to_string(net.dir.join(format!("{game}-hull.jsonl"))).unwrap();
    assert!(
        !kept.contains("\"reveal\""),
        "hull was not cut off before the reveal"
    );
    std::thread::sleep(Duration::from_secs(4));
    ns.set(true);
    let hull = finish(hull);
    assert!(hull.status.success(), "{}", text(&hull));
    for v in others {
        let out = finish(v);
        assert!(out.status.success(), "{}", text(&out));
    }
    let control = finish(control);
    assert!(control.status.success(), "{}", text(&control));
    // Hull's claims were judged on their merits, none refused as late.
    let log = std::fs::read_to_string(net.dir.join(format!("{game}-control.jsonl"))).unwrap();
    let verdicts = log.lines().find(|l| l.contains("\"verdicts\"")).unwrap();
    assert!(verdicts.contains("\"venue\":\"hull\""), "{verdicts}");
    assert!(!verdicts.contains("too late"), "{verdicts}");
    let verified = net.verify(game, &["leeds", "york", "hull"]);
    assert!(verified.status.success(), "{}", text(&verified));
    let claims = net.sql(&format!(
        "select count(*) from claims where game = '{game}'"
    ));
    let distinct = net.sql(&format!(
        "select count(distinct (venue, face)) from claims where game = '{game}'"
    ));
    assert_eq!(claims, distinct, "a claim booked twice");
}
