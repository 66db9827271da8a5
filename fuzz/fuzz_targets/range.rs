//! Any `--range` text against any card count: an error, or a range inside
//! the file.
#![no_main]

use bingomint::export::parse_range;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 8 {
        return;
    }
    let count = u64::from_le_bytes(data[..8].try_into().unwrap());
    let Ok(text) = std::str::from_utf8(&data[8..]) else {
        return;
    };
    if let Ok(range) = parse_range(text, count, "card") {
        assert!(*range.start() >= 1 && range.start() <= range.end() && *range.end() <= count);
    }
});
