//! Any text as a night's log, verified against a fixed card file (the
//! seeds are real logs the hall wrote on it): a verdict, OK or a finding
//! naming a line, and never a panic. `tests/hall_books.rs` runs a bounded,
//! seeded run of the same on every test run.
#![no_main]

use bingomint::cardfile::CardFile;
use bingomint::hall::judge::Cards;
use bingomint::hall::verify::verify;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // The cards the seed logs were played on (60 75-ball cards, seed
    // "books"), opened once a run.
    thread_local! {
        static CARDS: std::cell::RefCell<Cards> = std::cell::RefCell::new(Cards::new(
            vec![CardFile::open(std::path::Path::new(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/seeds/cards/c.bmc"
            )))
            .expect("fuzz/seeds/cards/c.bmc: bingomint generate --count 60 --seed books")],
            None,
        ));
    }
    CARDS.with(|cards| {
        let mut cards = cards.borrow_mut();
        cards.sold = None;
        if let Err(finding) = verify(text, &mut cards) {
            assert!(!finding.what.is_empty());
        }
    });
});
