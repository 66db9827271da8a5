//! Any text through the normaliser of text a person sees (`shown`,
//! `room_seed`, `folded`): no panic; what it keeps is its own fixed point
//! (normalising it again changes nothing), within the limit, with no
//! control, format or non-ASCII space character, no leading, trailing or
//! doubled space; and a room seed it keeps is one script.
#![no_main]

use bingomint::shown::{folded, room_seed, shown};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&limit, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let max = usize::from(limit);
    if let Ok(kept) = shown(text, max) {
        assert!(kept.chars().count() <= max);
        assert_eq!(shown(&kept, max).as_deref(), Ok(kept.as_str()), "a fixed point");
        assert!(!kept.starts_with(' ') && !kept.ends_with(' ') && !kept.contains("  "));
        assert!(!kept.chars().any(|c| c.is_control() || (c.is_whitespace() && c != ' ')));
        let _ = folded(&kept);
    }
    if let Ok(seed) = room_seed(text) {
        assert_eq!(room_seed(&seed).as_deref(), Ok(seed.as_str()));
    }
});
