//! A player's phone in a real browser: headless Chromium emulating a
//! 390×844 phone plays along while the caller's console (a second
//! browser) runs the game. The player adds two cards by number and one by
//! QR text, sees calls arrive, daubs, catches up, presses Bingo, and reads
//! the verdict the caller gave. Screenshots go to
//! `target/hall-screenshots/play-*.png`. Skipped without Chromium, as
//! `browser` is.

use crate::browser::Driver;
use crate::common::{file_id, generate, skipped};
use crate::hall::start;
use serde_json::json;

#[test]
fn a_player_plays_along_on_a_phone_and_claims_through_the_queue() {
    let phone_options = json!({
        "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        "mobileEmulation": {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2, "touch": true}}
    });
    let Some(phone) = Driver::start_as(phone_options) else {
        skipped("a_player_plays_along_on_a_phone: chromedriver is not installed (Debian: chromium, chromium-driver)");
        return;
    };
    let console = Driver::start().expect("a second browser");
    let dir = tempfile::tempdir().unwrap();
    let cards = generate(dir.path(), "c.bmc", &["--count", "500", "--seed", "11"]);
    let id = file_id(&cards);
    let hall = start(
        &[&cards],
        &dir.path().join("n.jsonl"),
        &["--sold", "1..400"],
    );
    hall.post(
        "/api/games",
        json!({"pattern": "line", "prize": "£25 a line"}),
    );
    for _ in 0..5 {
        hall.post("/api/calls", json!({}));
    }
    phone.go(&format!("http://{}/play", hall.addr));
    phone.until("return window.innerWidth === 390", "a phone's width");
    phone.until(
        "return document.getElementById('stage').textContent.includes('line')",
        "the game on the phone",
    );
    // Two cards by number, one by its QR text; an unsold one refused.
    for card in ["17", "42", &format!("bingomint:{id}:card:99")] {
        phone.type_in("#card", card);
        phone.click("#addbtn");
    }
    phone.until(
        "return document.querySelectorAll('.face').length === 3",
        "three faces",
    );
    phone.type_in("#card", "450");
    phone.click("#addbtn");
    phone.until(
        "return document.getElementById('error').textContent.includes('not sold')",
        "the unsold card refused",
    );
    let labels = phone
        .script("return [...document.querySelectorAll('.face .label')].map(e => e.textContent)");
    assert_eq!(
        labels,
        json!([
            format!("card 17 of {id}"),
            format!("card 42 of {id}"),
            format!("card 99 of {id}")
        ])
    );
    // Calls arrive as they are made.
    for _ in 0..10 {
        hall.post("/api/calls", json!({}));
    }
    let last = *hall.calls().last().unwrap();
    phone.until(
        &format!("return document.getElementById('number').textContent === '{last}'"),
        "the last call on the phone",
    );
    assert_eq!(
        phone.script("return document.getElementById('count').textContent"),
        json!("15 of 75 called")
    );
    // Manual daubing (the default): nothing is marked until the player taps.
    assert_eq!(
        phone.script("return document.querySelectorAll('td.daubed').length"),
        json!(0)
    );
    let called = hall.calls();
    let on_faces = phone.script(&format!(
        "const c = new Set({called:?}); return [...document.querySelectorAll('.face td')].filter(td => c.has(Number(td.textContent))).length"
    ));
    let tapped = phone.script(&format!(
        "const c = new Set({called:?}); const td = [...document.querySelectorAll('.face td')].find(td => c.has(Number(td.textContent))); \
         if (td) td.click(); return td ? Number(td.textContent) : 0"
    ));
    if tapped != json!(0) {
        phone.until(
            "return document.querySelectorAll('td.daubed').length === 1",
            "one daub",
        );
    }
    phone.snap("play-daubed-390x844");
    phone.click("#catchup");
    phone.until(
        &format!("return document.querySelectorAll('td.daubed').length === {on_faces}"),
        "every call marked by Catch up",
    );
    // Every number called: card 17 holds a line. The player presses Bingo.
    for _ in 15..75 {
        hall.post("/api/calls", json!({}));
    }
    phone.until(
        "return document.getElementById('count').textContent === '75 of 75 called'",
        "every call",
    );
    phone.script("document.querySelectorAll('.bingo')[0].click()");
    phone.until(
        "return (document.querySelector('.outcome') || {}).textContent?.includes('number 1 in the queue') === true",
        "the claim queued",
    );
    phone.snap("play-claimed-390x844");
    // The caller sees it in the queue, judged, and accepts it.
    console.go(&format!("http://{}/console#{}", hall.addr, hall.key));
    console.until(
        "return document.querySelectorAll('#queue li').length === 1",
        "the queue on the console",
    );
    let shown = console.script("return document.querySelector('#queue li').textContent");
    assert!(
        shown
            .as_str()
            .unwrap()
            .contains(&format!("card 17 of {id}"))
            && shown.as_str().unwrap().contains("WINS"),
        "{shown}"
    );
    console.screenshot("console-queue", (1280, 720));
    console.script("document.querySelector('#queue li button.go').click()");
    console.until(
        "return document.querySelectorAll('#queue li').length === 0",
        "the queue emptied",
    );
    // The player reads the verdict.
    phone.until(
        "return (document.querySelector('.outcome') || {}).textContent?.includes('BINGO! The caller accepted') === true",
        "the verdict on the phone",
    );
    phone.snap("play-accepted-390x844");
    assert!(
        hall.state()["revealed"]["seed"].is_string(),
        "the win ended the game"
    );
}
