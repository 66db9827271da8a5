//! Any `--range` text against a card file (60 75-ball cards): an error, or
//! runs in order inside the file.
#![no_main]

use bingomint::cardfile::CardFile;
use bingomint::play::reference::locate_ranges;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    thread_local! {
        static FILE: CardFile = CardFile::open(std::path::Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/seeds/cards/c.bmc"
        )))
        .expect("fuzz/seeds/cards/c.bmc: bingomint generate --count 60 --seed books");
    }
    FILE.with(|file| {
        let count = file.header().count;
        if let Ok(runs) = locate_ranges(file, text) {
            let mut last = 0;
            for run in runs {
                assert!(*run.start() >= 1 && run.start() <= run.end() && *run.end() <= count);
                assert!(*run.start() > last, "runs go forward and do not overlap");
                last = *run.end();
            }
        }
    });
});
