//! Electronic paper in a real browser. The console issues a pack (its
//! code and QR code shown); a phone (headless Chromium at 390×844) opens
//! it, follows the calls, marks a number and claims, by keyboard alone: no
//! pointer event is sent. The live region says each call and "1 to go" and
//! "bingo"; the calls are spoken in the night's languages in turn; large
//! print and high contrast turn on. axe-core (from npm, `.ci/run` installs
//! it under `target/axe`) finds no serious or critical violation on the
//! play, board and console pages. Skipped without Chromium or axe-core, as
//! `browser` is.

use crate::browser::Driver;
use crate::common::skipped;
use crate::hall_packs::{issue, open, player};
use serde_json::{json, Value};
use std::path::PathBuf;

/// axe-core's script, where `.ci/run` installs it.
fn axe_script() -> Option<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("target/axe/node_modules/axe-core/axe.min.js");
    std::fs::read_to_string(path).ok()
}

/// The page's serious and critical violations, as axe-core finds them.
fn violations(driver: &Driver, axe: &str) -> Vec<Value> {
    driver.script(&format!("{axe}\n;return true;"));
    let found = driver.call(
        "POST",
        "/execute/async",
        json!({"script": "const done = arguments[arguments.length - 1]; \
            axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations.map(v => \
            ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 8).map(n => n.target.join(' ') + ': ' + n.failureSummary)})))) \
            .catch(e => done([{id: 'axe failed', impact: 'critical', help: String(e)}]));", "args": []}),
    );
    (found.as_array().unwrap().iter())
        .filter(|v| matches!(v["impact"].as_str(), Some("serious" | "critical")))
        .cloned()
        .collect()
}

/// Keys pressed in order (WebDriver's codes: Tab \u{E004}, Enter \u{E007},
/// Space \u{E00D}, the arrows \u{E012}–\u{E015}), and any text typed.
fn press(driver: &Driver, keys: &str) {
    let actions: Vec<Value> = keys
        .chars()
        .flat_map(|c| {
            let key = c.to_string();
            [
                json!({"type": "keyDown", "value": key}),
                json!({"type": "keyUp", "value": key}),
            ]
        })
        .collect();
    driver.call(
        "POST",
        "/actions",
        json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]}),
    );
}

/// Tabs until the focused element matches `css` (at most `most` tabs).
fn tab_to(driver: &Driver, css: &str, most: usize) {
    tab_until(driver, css, most, false)
}

/// [`tab_to`], backwards (Shift+Tab) when `back`.
fn tab_until(driver: &Driver, css: &str, most: usize, back: bool) {
    for _ in 0..most {
        let on = driver.script(&format!(
            "return !!document.activeElement && document.activeElement.matches({css:?})"
        ));
        if on == json!(true) {
            return;
        }
        match back {
            false => press(driver, "\u{E004}"),
            true => {
                let keys = ["keyDown", "keyDown", "keyUp", "keyUp"]
                    .iter()
                    .zip(["\u{E008}", "\u{E004}", "\u{E004}", "\u{E008}"])
                    .map(|(t, k)| json!({"type": t, "value": k}))
                    .collect::<Vec<_>>();
                driver.call(
                    "POST",
                    "/actions",
                    json!({"actions": [{"type": "key", "id": "keyboard", "actions": keys}]}),
                );
            }
        }
    }
    panic!("{most} tabs did not reach {css}");
}

#[test]
fn a_pack_is_played_by_keyboard_alone_and_every_page_passes_axe() {
    let phone_options = json!({
        "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        "mobileEmulation": {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2, "touch": true}}
    });
    let Some(phone) = Driver::start_as(phone_options) else {
        skipped("a_pack_is_played_by_keyboard_alone: chromedriver is not installed (Debian: chromium, chromium-driver)");
        return;
    };
    let Some(axe) = axe_script() else {
        skipped("a_pack_is_played_by_keyboard_alone: axe-core is not installed (npm install --prefix target/axe axe-core)");
        return;
    };
    let console = Driver::start().expect("a second browser");
    let dir = tempfile::tempdir().unwrap();
    let (hall, _) = open(dir.path(), &["--daub", "assist"]);

    // The console issues a pack: its code and QR code.
    console.go(&format!("http://{}/console#{}", hall.addr, hall.key));
    console.until(
        "return document.getElementById('product').options.length === 2",
        "the products",
    );
    console.script(
        "const s = document.getElementById('product'); s.value = 'E-pack 36'; s.onchange();",
    );
    console.until(
        "return document.getElementById('range').hidden",
        "no range for a pack",
    );
    console.click("#sell");
    console.until_text("#packcode", "Pack 1: code 1-");
    let code =
        console.script("return document.getElementById('packcode').textContent.split('code ')[1]");
    let code = code.as_str().unwrap().to_string();
    assert!(console.script("return document.getElementById('packqr').width > 100") == json!(true));
    console.snap("console-pack");

    // A second pack goes to another phone; the first is this phone's.
    let (_, other) = issue(&hall);
    let (status, v) = player(
        &hall,
        "/api/packs/load",
        json!({"code": other, "device": crate::hall_packs::PHONE_B}),
    );
    assert_eq!(status, 201, "{v}");

    phone.go(&format!("http://{}/play", hall.addr));
    phone.script(
        "window.said = []; speechSynthesis.speak = u => window.said.push([u.lang, u.text]); return true",
    );
    // By keyboard: the code typed and opened; speech turned on.
    tab_to(&phone, "#code", 30);
    press(&phone, &format!("{code}\u{E007}"));
    phone.until(
        "return document.querySelectorAll('section.face').length === 36",
        "the pack's 36 faces",
    );
    phone.until_text("#announce", "Pack 1 opened: 36 faces");
    tab_to(&phone, "#speak", 200);
    press(&phone, "\u{E00D}");
    assert_eq!(
        phone.script("return document.getElementById('speak').checked"),
        json!(true)
    );

    // The calls: face 217's top line, from the blower.
    assert_eq!(hall.post("/api/games", json!({})).0, 201);
    let face = phone.script("return JSON.parse(localStorage.getItem('bingomint.faces')).find(f => f.card === '217').cells");
    let top: Vec<u64> = face.as_array().unwrap()[..5]
        .iter()
        .map(|n| n.as_u64().unwrap())
        .filter(|&n| n > 0)
        .collect();
    for (i, ball) in top.iter().enumerate() {
        hall.post("/api/calls", json!({"ball": ball}));
        phone.until(
            &format!(
                "return document.getElementById('count').textContent.startsWith('{} of')",
                i + 1
            ),
            "the call on the phone",
        );
        phone.until_text("#announce", " called.");
        if i + 2 == top.len() {
            phone.until_text("#announce", "Card 217: 1 to go.");
        }
    }
    phone.until_text("#announce", "Card 217 holds it: bingo!");
    let said = phone.script("return window.said");
    let langs: Vec<&str> = said
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s[0].as_str().unwrap())
        .collect();
    assert!(langs.ends_with(&["en", "es"]), "spoken in turn: {said}");

    // A number marked by keyboard: into the first face's grid, Enter.
    tab_until(
        &phone,
        "button.cell[data-key^='cell:217:'][tabindex='0']",
        200,
        true,
    );
    let first = phone
        .script("return document.activeElement.dataset.key")
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        first.starts_with("cell:217:"),
        "the nearest face first: {first}"
    );
    press(&phone, "\u{E007}");
    phone.until(
        &format!("return document.querySelector('[data-key=\"{first}\"]').getAttribute('aria-pressed') === 'true'"),
        "the number marked",
    );
    assert_eq!(
        phone.script("return document.activeElement.dataset.key"),
        json!(first),
        "focus kept across the redraw"
    );
    press(&phone, "\u{E014}");
    let moved = phone
        .script("return document.activeElement.dataset.key")
        .as_str()
        .unwrap()
        .to_string();
    assert_ne!(moved, first, "the arrow key moves within the grid");

    // The claim, by keyboard; the caller accepts it.
    tab_to(&phone, "button[data-key='bingo:217']", 10);
    press(&phone, "\u{E007}");
    phone.until_text("#claimbar", "in the queue");
    let (_, queue) = http_get(&hall, "/api/queue");
    let id = queue["queue"][0]["id"].as_u64().unwrap();
    assert_eq!(queue["queue"][0]["pack"], 1, "{queue}");
    let (status, v) = hall.post("/api/claims", json!({"queued": id, "accept": true}));
    assert_eq!((status, v["accepted"].clone()), (200, json!(true)), "{v}");
    phone.until_text("#claimbar", "BINGO! The caller accepted");
    phone.screenshot("play-pack", (390, 844));
    let play_found = violations(&phone, &axe);

    // Large print and high contrast.
    tab_to(&phone, "#large", 300);
    press(&phone, "\u{E00D}");
    tab_to(&phone, "#contrast", 5);
    press(&phone, "\u{E00D}");
    let size = phone.script(
        "return parseFloat(getComputedStyle(document.querySelector('button.cell')).fontSize)",
    );
    assert!(size.as_f64().unwrap() >= 40.0, "large print: {size}");
    let clipped = phone.script("return [...document.querySelectorAll('button.cell')].filter(b => b.scrollWidth > b.clientWidth + 1).length");
    assert_eq!(clipped, json!(0), "large print fits its cells");
    phone.script("window.scrollTo(0, 0); return true");
    phone.screenshot("play-large-contrast", (390, 844));
    let contrast_found = violations(&phone, &axe);

    // The receipt page: the pack's issue and load.
    phone.go(&format!("http://{}/receipt", hall.addr));
    phone.until(
        "return document.querySelectorAll('tr[data-txn]').length === 2",
        "two transactions",
    );
    let txns = phone.script(
        "return [...document.querySelectorAll('tr[data-txn]')].map(t => t.cells[2].textContent)",
    );
    assert_eq!(txns, json!(["issue", "load"]));
    let receipt_found = violations(&phone, &axe);

    // The console as the night runs: calls, the queue, the sales.
    console.until_text("#saleslist", "E-pack 36");
    let console_found = violations(&console, &axe);
    let board = Driver::start().expect("a third browser");
    board.go(&format!("http://{}/board", hall.addr));
    board.until(
        "return document.getElementById('grid').children.length > 0",
        "the board",
    );
    let board_found = violations(&board, &axe);

    let pages = [
        ("console", console_found),
        ("play", play_found),
        ("play, large print and high contrast", contrast_found),
        ("receipt", receipt_found),
        ("board", board_found),
    ];
    let failed: Vec<String> = (pages.iter())
        .filter(|(_, found)| !found.is_empty())
        .map(|(page, found)| {
            format!(
                "the {page} page: {}",
                serde_json::to_string_pretty(found).unwrap()
            )
        })
        .collect();
    assert!(
        failed.is_empty(),
        "axe-core found serious or critical violations on {}",
        failed.join("\n")
    );
    // No pointer was used on the phone: every step above was a key.
}

fn http_get(hall: &crate::hall::Running, path: &str) -> (u16, Value) {
    crate::hall::http(&hall.addr, "GET", path, Some(&hall.key), None)
}
