//! An items night in a real browser: lotería tablas, balls keyed in from
//! the console's keypad by their names, the board lighting each item and
//! showing the current one large, the name spoken, and a player's phone
//! showing its tabla's items. Screenshots at 1920×1080 go to
//! `target/hall-screenshots/`. Without Chromium the test says SKIPPED (and
//! fails where `BINGOMINT_REQUIRE_TOOLS` is set).

use crate::browser::Driver;
use crate::common::{generate, skipped};
use crate::hall::start;
use serde_json::json;

#[test]
fn an_items_night_in_a_real_browser() {
    let Some(driver) = Driver::start() else {
        skipped("an_items_night_in_a_real_browser: chromedriver is not installed (Debian: chromium, chromium-driver)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let tablas = generate(
        dir.path(),
        "t.bmc",
        &["--items", "loteria", "--count", "100", "--seed", "fiesta"],
    );
    let log = dir.path().join("fiesta.jsonl");
    let hall = start(&[&tablas], &log, &["--balls", "blower"]);
    driver.go(&format!("http://{}/console#{}", hall.addr, hall.key));
    driver.click("#speak");
    driver.click("#start");
    // The keypad names each item: button 23 is La Luna.
    driver.until_text("#keypad button:nth-child(23)", "23 La Luna");
    driver.click("#keypad button:nth-child(23)");
    driver.until_text("#spoken", "La Luna");
    driver.until_text("#called", "23 La Luna");
    for ball in [1, 46, 54] {
        assert_eq!(hall.post("/api/calls", json!({ "ball": ball })).0, 201);
    }
    let board = driver.call("POST", "/window/new", json!({"type": "window"}))["handle"].clone();
    driver.call("POST", "/window", json!({ "handle": board }));
    driver.go(&format!("http://{}/board", hall.addr));
    driver.until_text("#ball .number", "La Rana");
    driver.until_text("#last", "El Sol");
    // Every item on the board, the called ones lit.
    assert_eq!(
        driver.script("return document.querySelectorAll('#grid > div').length"),
        json!(54)
    );
    assert_eq!(
        driver.script("return document.getElementById('n23').textContent"),
        json!("La Luna")
    );
    assert_eq!(
        driver.script("return document.getElementById('n23').className"),
        json!("lit")
    );
    assert_eq!(
        driver.script("return document.getElementById('n54').className"),
        json!("newest")
    );
    assert_eq!(
        driver.script("return document.getElementById('n2').className"),
        json!("")
    );
    driver.screenshot("board-items", (1920, 1080));
    // A phone adds tabla 7 and sees its items.
    let phone = driver.call("POST", "/window/new", json!({"type": "window"}))["handle"].clone();
    driver.call("POST", "/window", json!({ "handle": phone }));
    driver.go(&format!("http://{}/play", hall.addr));
    driver.type_in("#card", "7\u{E007}");
    driver.until(
        "return document.querySelectorAll('#faces table td').length === 16",
        "tabla 7 on the phone",
    );
    let cells = driver.script(
        "return [...document.querySelectorAll('#faces table td')].map(td => td.textContent)",
    );
    let face = hall.post("/api/faces", json!({"card": "7"})).1;
    let labels = crate::hall::http(&hall.addr, "GET", "/api/labels", None, None).1;
    let expected: Vec<String> = face["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            labels["labels"][n.as_u64().unwrap() as usize - 1]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(cells, json!(expected));
}

/// See: the hall's books (the pages guessed a card's shape: a 3×3 items
/// card got a 5×5 custom mask and no free cell). The state names the
/// shape; the phone and the console draw it.
#[test]
fn a_three_by_three_card_is_drawn_as_the_state_shapes_it() {
    let Some(driver) = Driver::start() else {
        skipped("a_three_by_three_card_is_drawn_as_the_state_shapes_it: chromedriver is not installed (Debian: chromium, chromium-driver)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let words = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/items/words.txt");
    let cards = generate(
        dir.path(),
        "w.bmc",
        &[
            "--items",
            words.to_str().unwrap(),
            "--size",
            "3x3",
            "--free",
            "Star",
            "--count",
            "20",
            "--seed",
            "shape",
        ],
    );
    let hall = start(
        &[&cards],
        &dir.path().join("w.jsonl"),
        &["--balls", "blower"],
    );
    let card = &hall.state()["card"];
    assert_eq!(
        card,
        &json!({"rows": 3, "cols": 3, "free": 4, "free_text": "Star", "noun": "card"})
    );
    driver.go(&format!("http://{}/play", hall.addr));
    driver.type_in("#card", "3\u{E007}");
    driver.until(
        "return document.querySelectorAll('#faces table td').length === 9",
        "card 3 on the phone, 3×3",
    );
    let centre = driver.script(
        "const td = document.querySelectorAll('#faces table td')[4]; return [td.className, td.textContent]",
    );
    assert_eq!(centre, json!(["free", "Star"]));
    driver.screenshot("play-items-3x3", (412, 915));
    // The console's custom pattern is a 3×3 mask.
    driver.go(&format!("http://{}/console#{}", hall.addr, hall.key));
    driver.until(
        "return document.querySelectorAll('#mask td').length === 9",
        "a 3×3 mask",
    );
}
