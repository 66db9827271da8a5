//! Any text as called numbers (`--calls`, a calls file) of either game: an
//! error, or distinct numbers of the game whose positions table agrees
//! with the order.
#![no_main]

use bingomint::play::calls::{Calls, NEVER};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let balls = if first & 1 == 0 { 75 } else { 90 };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let Ok(calls) = Calls::parse(balls, text, "fuzz") else {
        return;
    };
    assert!(!calls.is_empty() && calls.len() <= usize::from(balls));
    for (i, &n) in calls.order().iter().enumerate() {
        assert!((1..=balls).contains(&n));
        assert_eq!(usize::from(calls.positions()[usize::from(n)]), i + 1);
    }
    let called = (1..=balls).filter(|&n| calls.positions()[usize::from(n)] != NEVER);
    assert_eq!(called.count(), calls.len());
});
