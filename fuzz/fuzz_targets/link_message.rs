//! Any bytes as what the broker carries in a linked game: a venue's message
//! judged by the control's rules (sales against an allotment), and a record
//! taken by a venue's follower (signature, game, place, link). An answer
//! or a refusal, never a panic.
#![no_main]

use bingomint::link::message::VenueMessage;
use bingomint::link::national;
use bingomint::link::record::{Follower, Signed};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(m) = serde_json::from_str::<VenueMessage>(text) {
        let _ = m.id("g");
        if let VenueMessage::Sales { faces, .. } = &m {
            let allotted = [(1, 3000), (6001, 9000)];
            if let Ok(n) = national::check_sales(&allotted, faces) {
                assert!(n <= 6000);
            }
        }
    }
    let key = ed25519_dalek::SigningKey::from_bytes(&[7; 32]).verifying_key();
    let mut follower = Follower::new(key, "g");
    for line in text.lines() {
        if let Ok(s) = Signed::parse(line) {
            let _ = follower.take(&s);
            let _ = s.line();
        }
    }
});
