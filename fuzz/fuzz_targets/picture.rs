//! Any bytes as an item's picture (PNG or JPEG, as a list names it): an
//! error, or pixels whose count is the width times the height, within the
//! pixel limit; never a panic, never an allocation past the limit (run
//! with `-rss_limit_mb=1024`).
#![no_main]

use bingomint::game::items::picture::{rgb, MAX_PIXELS};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok((width, height, pixels)) = rgb(data) {
        let n = u64::from(width) * u64::from(height);
        assert!(n > 0 && n <= MAX_PIXELS);
        assert_eq!(pixels.len() as u64, n * 3);
    }
});
