//! Venue halls in a linked game: each hall sells the game's paper as it
//! sells its own (a product linked to the game) beside its house games;
//! `link venue` reports the hall's sales from its night's log; `hall
//! verify --link` holds the night against the control's records and the
//! network's books.

use super::hall::{start_at, Running};
use super::link::{bin, finish, text, Net};
use serde_json::json;
use std::path::Path;
use std::process::Child;

/// A venue's night file: a book of the linked game `game` and a house
/// book for the night's own game.
fn night(dir: &Path, venue: &str, game: &str) -> String {
    let name = format!("{venue}-night.toml");
    let text = format!(
        r#"title = "{venue} Tuesday"
currency = "£"

[[product]]
name = "National book"
price = "3.00"
faces = 6
linked = "{game}"

[[product]]
name = "House book"
price = "2.00"
faces = 6

[[game]]
name = "Early bird"
pattern = "line"
prize = {{ share = "50%", min = "5.00" }}
"#
    );
    std::fs::write(dir.join(&name), text).unwrap();
    name
}

/// A hall for `venue` in the network's folder, its night file as above.
fn hall(net: &Net, venue: &str, game: &str) -> Running {
    let file = night(&net.dir, venue, game);
    let log = format!("{venue}-night.jsonl");
    start_at(
        &net.dir,
        &[Path::new("stock.bmc")],
        Path::new(&log),
        &["--night", &file],
    )
}

fn sell(hall: &Running, product: &str, first: u64, last: u64) {
    let body = json!({ "product": product, "first": first, "last": last });
    let (status, answer) = hall.post("/api/sales", body);
    assert_eq!(status, 201, "{answer}");
}

/// A venue file whose sales are its hall's night log.
fn venue_file(net: &Net, game: &str, venue: &str) {
    let text = format!(
        "venue = \"{venue}\"\ngame = \"{game}\"\nstock = \"stock.bmc\"\ncontrol = \"{}\"\nhall = \"{venue}-night.jsonl\"\n",
        net.public
    );
    std::fs::write(net.dir.join(format!("{game}-{venue}.toml")), text).unwrap();
}

fn hall_verify(net: &Net, venue: &str, game: &str) -> std::process::Output {
    bin()
        .current_dir(&net.dir)
        .args(["hall", "verify", &format!("{venue}-night.jsonl")])
        .args([
            "--cards",
            "stock.bmc",
            "--link",
            &format!("{game}-{venue}.jsonl"),
        ])
        .args(["--control", &net.public, "--database", &net.db])
        .output()
        .unwrap()
}

/// `hall report` of leeds' night with its linked game's records, to `out`.
fn report(net: &Net, out: &str) -> std::process::Output {
    bin()
        .current_dir(&net.dir)
        .args([
            "hall",
            "report",
            "leeds-night.jsonl",
            "--cards",
            "stock.bmc",
        ])
        .args([
            "--link",
            "h1-leeds.jsonl",
            "--control",
            &net.public,
            "--out",
            out,
        ])
        .output()
        .unwrap()
}

// See: issue 64, items 2 and 7: venue halls sell the linked game's paper
// beside their own, and each night verifies against the network.
#[test]
fn venue_halls_sell_the_linked_game_beside_their_own_and_verify_against_it() {
    let Some(net) = Net::start() else { return };
    let (leeds, york) = (hall(&net, "leeds", "h1"), hall(&net, "york", "h1"));
    sell(&leeds, "National book", 1, 600);
    sell(&leeds, "House book", 2497, 2556);
    let (status, answer) = leeds.post(
        "/api/sales/return",
        json!({ "product": "National book", "first": 595, "last": 600 }),
    );
    assert_eq!(status, 201, "{answer}");
    sell(&york, "National book", 3001, 3300);
    venue_file(&net, "h1", "leeds");
    venue_file(&net, "h1", "york");
    net.venue("h1", "hull", "6001..8000", &net.public);
    let control = net.control("h1", "control.key", 60);
    let venues: Vec<Child> = ["leeds", "york", "hull"]
        .iter()
        .map(|v| net.play("h1", v))
        .collect();
    let control = finish(control);
    assert!(control.status.success(), "{}", text(&control));
    for v in venues {
        let out = finish(v);
        assert!(out.status.success(), "{}", text(&out));
    }
    // The control booked each hall's net sales of its linked product only.
    let booked = |venue: &str| {
        net.sql(&format!(
            "select faces || ' ' || amount from sales where game = 'h1' and venue = '{venue}'"
        ))
    };
    assert_eq!(booked("leeds"), "594 29700", "99 books, one returned");
    assert_eq!(booked("york"), "300 15000");
    assert_eq!(booked("hull"), "2000 100000");
    for venue in ["leeds", "york"] {
        let out = hall_verify(&net, venue, "h1");
        assert!(out.status.success(), "{}", text(&out));
        assert!(
            text(&out).contains(&format!("linked game h1 at venue {venue}")),
            "{}",
            text(&out)
        );
        assert!(text(&out).contains("the books agree"), "{}", text(&out));
    }
    assert!(
        text(&hall_verify(&net, "leeds", "h1")).contains("594 faces sold for £297.00"),
        "the night's part as booked"
    );
    // The night's record gives the venue's part of the game and the
    // network's.
    let made = report(&net, "leeds.csv");
    assert!(made.status.success(), "{}", text(&made));
    let csv = std::fs::read_to_string(net.dir.join("leeds.csv")).unwrap();
    let total = net.sql("select sum(amount) from sales where game = 'h1'");
    assert_eq!(total, "144700");
    assert!(
        csv.contains(
            "national at venue leeds: 594 faces sold here; the network's takings £1447.00"
        ),
        "{csv}"
    );
    assert!(csv.contains("paper for linked game h1"), "{csv}");
    // A book of the linked game sold after its sales closed is no part of
    // the game: the night no longer agrees with the control, and says so.
    sell(&leeds, "National book", 601, 606);
    let refused = report(&net, "late.csv");
    assert_eq!(refused.status.code(), Some(1), "{}", text(&refused));
    assert!(
        !net.dir.join("late.csv").exists(),
        "no report of a night that disagrees"
    );
    let late = hall_verify(&net, "leeds", "h1");
    assert_eq!(late.status.code(), Some(1), "{}", text(&late));
    assert!(
        text(&late).contains(
            "the control booked faces 1..594 sold at leeds; the night's log holds 1..594, 601..606"
        ),
        "{}",
        text(&late)
    );
    // A hall's log given for another venue's records is named too.
    let crossed = bin()
        .current_dir(&net.dir)
        .args(["hall", "verify", "york-night.jsonl", "--cards", "stock.bmc"])
        .args(["--link", "h1-leeds.jsonl", "--control", &net.public])
        .output()
        .unwrap();
    assert!(crossed.status.success(), "{}", text(&crossed));
    assert!(
        text(&crossed).contains("at venue york"),
        "{}",
        text(&crossed)
    );
}
