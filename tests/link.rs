//! `bingomint link`: a national game across venues over a real NATS server
//! and a real PostgreSQL (started by `scripts/network.sh`, which `.ci/run`
//! provides for): played, settled once, verified against the stock, the
//! books and every venue's log; and the faults a network meets.

use super::network::{env_value, psql, run, servers_installed, Stop};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A network in a folder: its servers, a stock, the control's key.
pub(crate) struct Net {
    // Fields drop in order: the servers stop before their folder goes
    // (its network.env tells Stop what to stop).
    _stop: Stop,
    _temp: tempfile::TempDir,
    pub dir: PathBuf,
    pub nats: String,
    pub db: String,
    replicas: String,
    pub public: String,
}

pub(crate) fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_bingomint"))
}

impl Net {
    /// The servers started in a new folder, or None when they are not
    /// installed (the test is then skipped).
    pub(crate) fn start() -> Option<Net> {
        Net::start_nodes(1)
    }

    /// The servers with `nodes` NATS servers (1, or a cluster of 3).
    fn start_nodes(nodes: u8) -> Option<Net> {
        if !servers_installed() {
            return None;
        }
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().to_path_buf();
        let stop = Stop(dir.join("net"));
        let started = Command::new("bash")
            .arg(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/network.sh"))
            .arg("start")
            .arg(dir.join("net"))
            .env("NATS_NODES", nodes.to_string())
            .output()
            .unwrap();
        assert!(
            started.status.success(),
            "{}",
            String::from_utf8_lossy(&started.stderr)
        );
        let made = bin()
            .args([
                "generate", "--game", "75", "--count", "9000", "--seed", "linked", "-q", "--out",
            ])
            .arg(dir.join("stock.bmc"))
            .status()
            .unwrap();
        assert!(made.success());
        let key = bin()
            .args(["link", "key", "--out"])
            .arg(dir.join("control.key"))
            .output()
            .unwrap();
        assert!(key.status.success());
        Some(Net {
            nats: env_value(&dir.join("net"), "NATS_URL"),
            db: env_value(&dir.join("net"), "DATABASE_URL"),
            replicas: env_value(&dir.join("net"), "NATS_REPLICAS"),
            public: String::from_utf8(key.stdout).unwrap().trim().to_string(),
            _temp: temp,
            _stop: stop,
            dir,
        })
    }

    /// Writes the network file of game `game` (a claim window of `claim` s).
    pub(crate) fn network(&self, game: &str, claim: u64) -> PathBuf {
        let mut text = std::fs::read_to_string("data/link/network.toml").unwrap();
        if game.starts_with("live") {
            let live = "play = \"live\"\ncall_ms = 150\nclaim_ms = 500\ngrace_ms = 1000";
            text = text.replace("play = \"national\"", live);
            if game.starts_with("livec") {
                // Calls pause while a cluster elects a leader: no venue is late.
                text = text.replace("grace_ms = 1000", "grace_ms = 60000");
            }
        }
        let text = text
            .replace("\"national-1\"", &format!("{game:?}"))
            .replace("claim_seconds = 120", &format!("claim_seconds = {claim}"))
            .replace("sales_seconds = 60", "sales_seconds = 30");
        let path = self.dir.join(format!("{game}.toml"));
        std::fs::write(&path, text).unwrap();
        path
    }

    /// Writes venue `venue`'s file for `game`, pinning `key`.
    pub(crate) fn venue(&self, game: &str, venue: &str, sold: &str, key: &str) -> PathBuf {
        let text = std::fs::read_to_string("data/link/venue.toml").unwrap();
        let text = text
            .replace("\"leeds\"", &format!("{venue:?}"))
            .replace("\"national-1\"", &format!("{game:?}"))
            .replace("PUBLIC-KEY", key)
            .replace("\"1..2500\"", &format!("{sold:?}"));
        let path = self.dir.join(format!("{game}-{venue}.toml"));
        std::fs::write(&path, text).unwrap();
        path
    }

    pub(crate) fn cmd(&self, args: &[&str]) -> Command {
        let mut c = bin();
        c.current_dir(&self.dir)
            .env("NATS_URL", &self.nats)
            .env("NATS_REPLICAS", &self.replicas)
            .env("DATABASE_URL", &self.db);
        c.arg("link").args(args);
        c.stdout(Stdio::piped()).stderr(Stdio::piped());
        c
    }

    pub(crate) fn control(&self, game: &str, key: &str, claim: u64) -> Child {
        let net = self.network(game, claim);
        let log = format!("{game}-control.jsonl");
        self.cmd(&[
            "control",
            net.to_str().unwrap(),
            "--key",
            key,
            "--log",
            &log,
        ])
        .spawn()
        .unwrap()
    }

    pub(crate) fn play(&self, game: &str, venue: &str) -> Child {
        let file = self.dir.join(format!("{game}-{venue}.toml"));
        let log = format!("{game}-{venue}.jsonl");
        self.cmd(&[
            "venue",
            file.to_str().unwrap(),
            "--log",
            &log,
            "--wait",
            "60",
        ])
        .spawn()
        .unwrap()
    }

    pub(crate) fn verify(&self, game: &str, venues: &[&str]) -> Output {
        let log = format!("{game}-control.jsonl");
        let mut args = vec![
            "verify",
            &log,
            "--control",
            &self.public,
            "--stock",
            "stock.bmc",
        ];
        let logs: Vec<String> = venues.iter().map(|v| format!("{game}-{v}.jsonl")).collect();
        for l in &logs {
            args.extend(["--venue-log", l.as_str()]);
        }
        self.cmd(&args).output().unwrap()
    }

    pub(crate) fn sql(&self, query: &str) -> String {
        let out = Command::new(psql())
            .args([self.db.as_str(), "-tAc", query])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    }
}

const SOLD: [(&str, &str); 3] = [
    ("leeds", "1..2500"),
    ("york", "3001..5800"),
    ("hull", "6001..8000"),
];

pub(crate) fn finish(child: Child) -> Output {
    child.wait_with_output().unwrap()
}

pub(crate) fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Lines of `path` once it holds at least `n`, waiting up to 30 s.
pub(crate) fn wait_lines(path: &Path, n: usize) {
    let start = Instant::now();
    while std::fs::read_to_string(path).map_or(0, |t| t.lines().count()) < n {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{} never held {n} lines",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

// See: issue 64, items 2–7.
#[test]
fn a_national_game_across_three_venues_is_settled_once_and_verifies() {
    let Some(net) = Net::start() else { return };
    for (venue, sold) in SOLD {
        net.venue("n1", venue, sold, &net.public);
    }
    let control = net.control("n1", "control.key", 60);
    let venues: Vec<Child> = SOLD.iter().map(|(v, _)| net.play("n1", v)).collect();
    let control = finish(control);
    assert!(control.status.success(), "{}", text(&control));
    let payouts: Vec<String> = String::from_utf8_lossy(&control.stdout)
        .lines()
        .map(String::from)
        .collect();
    assert!(!payouts.is_empty(), "{}", text(&control));
    for v in venues {
        let out = finish(v);
        assert!(out.status.success(), "{}", text(&out));
        // Each venue's payouts are the control's for it.
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            assert!(payouts.iter().any(|p| p.ends_with(line)), "{line}");
        }
    }
    let verified = net.verify("n1", &["leeds", "york", "hull"]);
    assert!(verified.status.success(), "{}", text(&verified));
    assert!(
        text(&verified).contains("all agrees"),
        "{}",
        text(&verified)
    );
    // The books: three venues' sales, one settlement, the prize paid whole.
    assert_eq!(net.sql("select count(*) from sales where game = 'n1'"), "3");
    assert_eq!(
        net.sql("select sum(amount) from sales where game = 'n1'"),
        "365000"
    );
    assert_eq!(
        net.sql("select count(*) from settlements where game = 'n1'"),
        "1"
    );
    let paid = net.sql("select sum(amount) from payouts where game = 'n1'");
    assert_eq!(paid, net.sql("select amount from prizes where game = 'n1'"));
    assert_eq!(paid, "182500", "50% of £3,650.00");
    assert_eq!(
        net.sql("select count(*) from payouts where game = 'n1'"),
        payouts.len().to_string()
    );
    // A log changed after the night no longer verifies.
    let log = net.dir.join("n1-control.jsonl");
    let original = std::fs::read_to_string(&log).unwrap();
    std::fs::write(
        &log,
        original.replacen("\"amount\":182500", "\"amount\":282500", 1),
    )
    .unwrap();
    let tampered = net.verify("n1", &[]);
    assert_eq!(tampered.status.code(), Some(1), "{}", text(&tampered));
    assert!(text(&tampered).contains("forgery"), "{}", text(&tampered));
}

// See: issue 64, item 8: a venue killed mid-game and restarted.
#[test]
fn a_venue_killed_mid_game_catches_up_and_nothing_is_booked_twice() {
    let Some(net) = Net::start() else { return };
    for (venue, sold) in SOLD {
        net.venue("n2", venue, sold, &net.public);
    }
    let control = net.control("n2", "control.key", 60);
    let mut hull = net.play("n2", "hull");
    // Killed once it has kept the game's opening (and sold).
    wait_lines(&net.dir.join("n2-hull.jsonl"), 1);
    hull.kill().unwrap();
    hull.wait().unwrap();
    let others: Vec<Child> = ["leeds", "york"]
        .iter()
        .map(|v| net.play("n2", v))
        .collect();
    let hull = finish(net.play("n2", "hull"));
    assert!(hull.status.success(), "{}", text(&hull));
    for v in others {
        assert!(finish(v).status.success());
    }
    let control = finish(control);
    assert!(control.status.success(), "{}", text(&control));
    let verified = net.verify("n2", &["leeds", "york", "hull"]);
    assert!(verified.status.success(), "{}", text(&verified));
    assert_eq!(net.sql("select count(*) from sales where game = 'n2'"), "3");
    let claims = net.sql("select count(*) from claims where game = 'n2'");
    let distinct = net.sql("select count(distinct (venue, face)) from claims where game = 'n2'");
    assert_eq!(claims, distinct, "a claim booked twice");
}

// See: issue 64, item 8: a forged control and a second control.
#[test]
fn a_forged_control_stops_a_venue_and_a_second_control_is_refused() {
    let Some(net) = Net::start() else { return };
    // A control signing with a key no venue pinned.
    let other = net.dir.join("other.key");
    assert!(bin()
        .args(["link", "key", "--out"])
        .arg(&other)
        .output()
        .unwrap()
        .status
        .success());
    net.venue("n3", "leeds", "1..2500", &net.public);
    let forger = net.control("n3", other.to_str().unwrap(), 5);
    let leeds = finish(net.play("n3", "leeds"));
    assert_eq!(leeds.status.code(), Some(1), "{}", text(&leeds));
    assert!(
        text(&leeds).contains("not signed by the control's key"),
        "{}",
        text(&leeds)
    );
    // The game's chain on the broker is the forger's: a second control for
    // the same game is refused before it signs anything.
    let second = net.cmd(&[
        "control",
        "n3.toml",
        "--key",
        "control.key",
        "--log",
        "second.jsonl",
    ]);
    let second = {
        let mut c = second;
        c.output().unwrap()
    };
    assert_eq!(second.status.code(), Some(2), "{}", text(&second));
    assert!(
        text(&second).contains("has a control already"),
        "{}",
        text(&second)
    );
    let mut forger = forger;
    forger.kill().unwrap();
    forger.wait().unwrap();
}

// See: issue 64, items 5 and 8: the books take a retry once.
#[test]
fn the_books_book_a_retry_once_and_settle_once() {
    use bingomint::link::books::Books;
    use bingomint::link::message::{Allotment, Judged, Payout, Takings};
    let Some(net) = Net::start() else { return };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let mut a = Books::open(&net.db).await.unwrap();
        let mut b = Books::open(&net.db).await.unwrap();
        let venues = [Allotment {
            venue: "v".into(),
            faces: vec![(1, 10)],
        }];
        a.open_game("g", ("national", "ID", "£"), "c1", &venues)
            .await
            .unwrap();
        // A second control with another commitment is refused.
        let again = b
            .open_game("g", ("national", "ID", "£"), "c2", &venues)
            .await;
        assert!(again.unwrap_err().to_string().contains("another control"));
        a.venue("v", "1").await.unwrap();
        let t = Takings {
            venue: "v".into(),
            faces: 10,
            amount: 500,
        };
        a.sales("g", &t).await.unwrap();
        a.sales("g", &t).await.unwrap();
        let changed = Takings {
            amount: 400,
            ..t.clone()
        };
        assert!(a.sales("g", &changed).await.is_err());
        assert_eq!(a.takings("g").await.unwrap(), [t]);
        assert_eq!(a.fix_prize("g", 500, 250).await.unwrap(), 250);
        assert_eq!(
            b.fix_prize("g", 500, 999).await.unwrap(),
            250,
            "the first fixing stands"
        );
        let c = Judged {
            venue: "v".into(),
            claim: 1,
            face: 3,
            call: 50,
            refused: String::new(),
        };
        assert!(a.claim("g", &c).await.unwrap());
        assert!(
            !b.claim("g", &c).await.unwrap(),
            "a redelivered claim books nothing"
        );
        // Two settlers racing: one set of payouts.
        let one = [Payout {
            venue: "v".into(),
            face: 3,
            amount: 250,
        }];
        let two = [Payout {
            venue: "v".into(),
            face: 4,
            amount: 250,
        }];
        let (x, y) = tokio::join!(a.settle("g", Some(50), &one), b.settle("g", Some(50), &two));
        let (x, y) = (x.unwrap(), y.unwrap());
        assert_eq!(x, y);
        assert_eq!(x.len(), 1);
    });
    assert_eq!(net.sql("select count(*) from payouts"), "1");
}

/// Waits up to 30 s for `query` to answer `want`; else stops `control`
/// and fails with what it said.
fn wait_sql(net: &Net, query: &str, want: &str, control: &mut Child) {
    let start = Instant::now();
    let answer = || {
        let out = Command::new(psql())
            .args([net.db.as_str(), "-tAc", query])
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    };
    while answer() != want {
        if start.elapsed() > Duration::from_secs(30) {
            control.kill().unwrap();
            let mut said = String::new();
            let stderr = control.stderr.as_mut().unwrap();
            std::io::Read::read_to_string(stderr, &mut said).unwrap();
            panic!("{query} never gave {want}; the control said:\n{said}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

// See: issue 64, item 8: PostgreSQL restarted mid-game.
#[test]
fn postgresql_restarted_mid_game_loses_nothing() {
    let Some(net) = Net::start() else { return };
    for (venue, sold) in SOLD {
        net.venue("n4", venue, sold, &net.public);
    }
    let mut control = net.control("n4", "control.key", 60);
    let early: Vec<Child> = ["leeds", "york"]
        .iter()
        .map(|v| net.play("n4", v))
        .collect();
    wait_sql(
        &net,
        "select count(*) from sales where game = 'n4'",
        "2",
        &mut control,
    );
    // The books go away; hull's sales arrive while they are away.
    assert!(run("db-stop", &net.dir.join("net")).status.success());
    let hull = net.play("n4", "hull");
    std::thread::sleep(Duration::from_millis(1500));
    assert!(run("db-start", &net.dir.join("net")).status.success());
    let control = finish(control);
    assert!(control.status.success(), "{}", text(&control));
    assert!(
        text(&control).contains("the books are not answering"),
        "{}",
        text(&control)
    );
    for v in early.into_iter().chain([hull]) {
        let out = finish(v);
        assert!(out.status.success(), "{}", text(&out));
    }
    let verified = net.verify("n4", &["leeds", "york", "hull"]);
    assert!(verified.status.success(), "{}", text(&verified));
    assert_eq!(net.sql("select count(*) from sales where game = 'n4'"), "3");
}

// See: issue 64, item 8: an old record replayed.
#[test]
fn a_replayed_record_is_named_and_stops_the_venue() {
    let Some(net) = Net::start() else { return };
    net.venue("n5", "leeds", "1..2500", &net.public);
    let mut control = net.control("n5", "control.key", 60);
    wait_lines(&net.dir.join("n5-control.jsonl"), 1);
    // Record 1 published again on the control's subject, by someone else.
    let first = std::fs::read_to_string(net.dir.join("n5-control.jsonl")).unwrap();
    let first = first.lines().next().unwrap().to_string();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let client = async_nats::connect(net.nats.as_str()).await.unwrap();
        client
            .publish("link.n5.control", first.into())
            .await
            .unwrap();
        client.flush().await.unwrap();
    });
    let leeds = finish(net.play("n5", "leeds"));
    assert_eq!(leeds.status.code(), Some(1), "{}", text(&leeds));
    let said = text(&leeds);
    assert!(
        said.contains("record 1 was taken already and came again: a replay"),
        "{said}"
    );
    control.kill().unwrap();
    control.wait().unwrap();
}

// See: issue 64, item 8: the broker killed mid-game (kill -9) and started
// again on its store.
#[test]
fn the_broker_killed_mid_game_loses_nothing_and_repeats_nothing() {
    let Some(net) = Net::start() else { return };
    for (venue, sold) in SOLD {
        net.venue("n6", venue, sold, &net.public);
    }
    let mut control = net.control("n6", "control.key", 60);
    let early: Vec<Child> = ["leeds", "york"]
        .iter()
        .map(|v| net.play("n6", v))
        .collect();
    wait_sql(
        &net,
        "select count(*) from sales where game = 'n6'",
        "2",
        &mut control,
    );
    assert!(run("broker-kill", &net.dir.join("net")).status.success());
    // Hull comes while the broker is down; its hello waits for it.
    let hull = net.play("n6", "hull");
    std::thread::sleep(Duration::from_millis(1500));
    let started = run("broker-start", &net.dir.join("net"));
    assert!(
        started.status.success(),
        "{}",
        String::from_utf8_lossy(&started.stderr)
    );
    let control = finish(control);
    assert!(control.status.success(), "{}", text(&control));
    for v in early.into_iter().chain([hull]) {
        let out = finish(v);
        assert!(out.status.success(), "{}", text(&out));
    }
    let verified = net.verify("n6", &["leeds", "york", "hull"]);
    assert!(verified.status.success(), "{}", text(&verified));
    assert_eq!(net.sql("select count(*) from sales where game = 'n6'"), "3");
    let claims = net.sql("select count(*) from claims where game = 'n6'");
    let distinct = net.sql("select count(distinct (venue, face)) from claims where game = 'n6'");
    assert_eq!(claims, distinct, "a claim booked twice");
}

// See: issue 64, item 6 (b): a live game.
#[test]
fn a_live_game_is_called_held_at_a_claim_and_settled_there() {
    let Some(net) = Net::start() else { return };
    for (venue, sold) in SOLD {
        net.venue("live1", venue, sold, &net.public);
    }
    let control = net.control("live1", "control.key", 60);
    let venues: Vec<Child> = SOLD.iter().map(|(v, _)| net.play("live1", v)).collect();
    let control = finish(control);
    assert!(control.status.success(), "{}", text(&control));
    for v in venues {
        let out = finish(v);
        assert!(out.status.success(), "{}", text(&out));
        assert!(text(&out).contains("held at call"), "{}", text(&out));
    }
    let verified = net.verify("live1", &["leeds", "york", "hull"]);
    assert!(verified.status.success(), "{}", text(&verified));
    // The record: calls 1, 2, … in order, one hold at the last call, then
    // the verdicts, the seed and the settlement at that call.
    let log = std::fs::read_to_string(net.dir.join("live1-control.jsonl")).unwrap();
    let bodies: Vec<serde_json::Value> = (log.lines())
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["record"]["body"].clone())
        .collect();
    let kinds: Vec<&str> = bodies.iter().map(|b| b["kind"].as_str().unwrap()).collect();
    let calls: Vec<u64> = (bodies.iter())
        .filter(|b| b["kind"] == "call")
        .map(|b| b["n"].as_u64().unwrap())
        .collect();
    assert_eq!(calls, (1..=calls.len() as u64).collect::<Vec<_>>());
    let last = calls.len();
    assert_eq!(kinds[..3], ["open", "sales_closed", "prize"]);
    assert!(kinds[3..3 + last].iter().all(|k| *k == "call"), "{kinds:?}");
    let tail: Vec<&str> = kinds[3 + last..]
        .iter()
        .copied()
        .filter(|k| *k != "verdicts")
        .collect();
    assert_eq!(tail, ["hold", "reveal", "settled"], "{kinds:?}");
    let settled = bodies.last().unwrap();
    assert_eq!(settled["call"].as_u64().unwrap() as usize, last);
    let paid: u64 = (settled["payouts"].as_array().unwrap().iter())
        .map(|p| p["amount"].as_u64().unwrap())
        .sum();
    assert_eq!(paid, 182_500);
}

// See: issue 64, item 6 (b): a live game's venue whose link drops past the
// grace period is voided, and the game goes on without it.
#[test]
fn a_live_venue_gone_past_the_grace_period_is_voided_and_the_game_goes_on() {
    let Some(net) = Net::start() else { return };
    for (venue, sold) in SOLD {
        net.venue("live2", venue, sold, &net.public);
    }
    let control = net.control("live2", "control.key", 60);
    let others: Vec<Child> = ["leeds", "york"]
        .iter()
        .map(|v| net.play("live2", v))
        .collect();
    let mut hull = net.play("live2", "hull");
    // Killed once it has shown call 5 (open, sales closed, prize, 5 calls).
    wait_lines(&net.dir.join("live2-hull.jsonl"), 8);
    hull.kill().unwrap();
    hull.wait().unwrap();
    let control = finish(control);
    assert!(control.status.success(), "{}", text(&control));
    assert!(text(&control).contains("voided hull"), "{}", text(&control));
    for v in others {
        let out = finish(v);
        assert!(out.status.success(), "{}", text(&out));
        assert!(text(&out).contains("hull was voided"), "{}", text(&out));
    }
    let verified = net.verify("live2", &["leeds", "york", "hull"]);
    assert!(verified.status.success(), "{}", text(&verified));
    // Back with its log, hull catches up and learns it was voided.
    let back = finish(net.play("live2", "hull"));
    assert_eq!(back.status.code(), Some(1), "{}", text(&back));
    assert!(
        text(&back).contains("voided hull for this game"),
        "{}",
        text(&back)
    );
}

// See: issue 64, item 8: the NATS node leading the game's stream, in a
// cluster of three, killed mid-game.
#[test]
fn a_cluster_node_leading_the_game_killed_mid_game_pauses_the_calls_with_no_gap_or_repeat() {
    let Some(net) = Net::start_nodes(3) else {
        return;
    };
    for (venue, sold) in SOLD {
        net.venue("livec", venue, sold, &net.public);
    }
    let mut control = net.control("livec", "control.key", 60);
    let venues: Vec<Child> = SOLD.iter().map(|(v, _)| net.play("livec", v)).collect();
    // Open, sales closed, prize and five calls signed: the leader goes.
    let log = net.dir.join("livec-control.jsonl");
    let start = Instant::now();
    while std::fs::read_to_string(&log).map_or(0, |t| t.lines().count()) < 8 {
        if start.elapsed() > Duration::from_secs(30) {
            control.kill().unwrap();
            let out = finish(control);
            panic!("the game never reached call 5: {}", text(&out));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let killed = run("leader-kill", &net.dir.join("net"));
    assert!(
        killed.status.success(),
        "{}",
        String::from_utf8_lossy(&killed.stderr)
    );
    let control = finish(control);
    assert!(control.status.success(), "{}", text(&control));
    for v in venues {
        let out = finish(v);
        assert!(out.status.success(), "{}", text(&out));
    }
    // The verifier checks every call is the next of the sealed order: no
    // gap, no call twice; and each venue kept the same chain.
    let verified = net.verify("livec", &["leeds", "york", "hull"]);
    assert!(verified.status.success(), "{}", text(&verified));
    let log = std::fs::read_to_string(net.dir.join("livec-control.jsonl")).unwrap();
    assert!(
        log.lines().count() > 8 + 10,
        "the game went on after the kill"
    );
}
