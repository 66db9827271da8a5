//! Any bytes as a card file (native of format version 1 to 5, or v3):
//! opening either fails with a typed error or gives a file that verify,
//! the block checks, export and show read without panicking; a file verify
//! passes has no damaged block and exports every card.
#![no_main]

use bingomint::cardfile::CardFile;
use bingomint::export::{export, show, Format};
use bingomint::pipeline::verify::verify;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(file) = CardFile::from_bytes("fuzz", data.to_vec()) else {
        return;
    };
    let count = file.header().count;
    let report = verify(&file).expect("a small file fits in memory");
    assert_eq!(report.count, count);
    if count == 0 {
        return;
    }
    let whole = file.integrity(1..=count);
    if report.ok() {
        assert!(file.require_sound(1..=count).is_ok());
        assert_eq!(whole.damaged_cards(), 0);
    }
    let last = count.min(64);
    let _ = file.require_sound(last..=last);
    let exported = export(&file, &[1..=last], Format::Csv, &mut std::io::sink());
    let shown = show(&file, last, None);
    if report.broken.is_empty() {
        exported.expect("verify found every card valid");
        shown.expect("verify found every card valid");
    }
});
