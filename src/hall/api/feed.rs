//! The live streams' messages: the whole state once, then only what
//! changed. Each change of what the pages show gets the next number; a
//! message is either `{"seq": n, "state": {…}}` (the whole state) or
//! `{"seq": n, "patch": […]}`, the JSON Patch (RFC 6902) that takes the
//! state numbered n − 1 to n. A viewer sent every message in turn stays
//! exact; one that missed any (too slow for the changes) is sent the whole
//! state again, once.

use serde_json::Value;
use std::sync::Arc;

/// One change of the state, in both of the forms a viewer may be sent.
pub struct Update {
    pub seq: u64,
    /// `{"seq": n, "state": {…}}`.
    pub whole: Arc<String>,
    /// `{"seq": n, "patch": […]}`.
    pub patch: Arc<String>,
}

impl Update {
    /// What a viewer last sent message `sent` is sent for this change: the
    /// patch when it follows on, the whole state when the viewer missed
    /// some, nothing when it has this one already.
    pub fn for_viewer(&self, sent: u64) -> Option<&Arc<String>> {
        if self.seq <= sent {
            None
        } else if self.seq == sent + 1 {
            Some(&self.patch)
        } else {
            Some(&self.whole)
        }
    }
}

/// The state as last sent, and its number.
#[derive(Default)]
pub struct Feed {
    seq: u64,
    last: Value,
    whole: Arc<String>,
}

/// `{"seq": n, key: value}` as text.
fn message(seq: u64, key: &str, value: &impl serde::Serialize) -> Arc<String> {
    let mut map = serde_json::Map::new();
    map.insert("seq".into(), seq.into());
    map.insert(key.into(), serde_json::to_value(value).expect("JSON"));
    Arc::new(Value::Object(map).to_string())
}

impl Feed {
    /// Takes the state now: the change to send, or None when nothing the
    /// pages show changed since the last.
    pub fn publish(&mut self, state: Value) -> Option<Arc<Update>> {
        if self.seq > 0 && state == self.last {
            return None;
        }
        let patch = json_patch::diff(&self.last, &state);
        self.seq += 1;
        let whole = message(self.seq, "state", &state);
        self.whole = whole.clone();
        self.last = state;
        Some(Arc::new(Update {
            seq: self.seq,
            whole,
            patch: message(self.seq, "patch", &patch),
        }))
    }

    /// The last state taken, whole, and its number.
    pub fn now(&self) -> (u64, Arc<String>) {
        (self.seq, self.whole.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// What a viewer holds after the messages it was sent.
    fn follow(messages: &[&str]) -> Value {
        let mut state = Value::Null;
        let mut seq = 0;
        for text in messages {
            let m: Value = serde_json::from_str(text).unwrap();
            let n = m["seq"].as_u64().unwrap();
            if let Some(whole) = m.get("state") {
                state = whole.clone();
            } else {
                assert_eq!(n, seq + 1, "a patch out of turn");
                let patch: json_patch::Patch = serde_json::from_value(m["patch"].clone()).unwrap();
                json_patch::patch(&mut state, &patch).unwrap();
            }
            seq = n;
        }
        state
    }

    #[test]
    fn patches_in_turn_rebuild_every_state_and_a_gap_sends_it_whole() {
        let states = [
            json!({"game": null, "claims": []}),
            json!({"game": {"calls": [], "winner": null}, "claims": []}),
            json!({"game": {"calls": [7], "winner": null}, "claims": []}),
            json!({"game": {"calls": [7, 71], "winner": {"label": "<b>x</b>"}}, "claims": [1]}),
            json!({"game": {"calls": [7], "winner": null}, "claims": [2, 1]}),
            json!({"game": null, "claims": [2, 1]}),
        ];
        let mut feed = Feed::default();
        let updates: Vec<Arc<Update>> = states
            .iter()
            .map(|s| feed.publish(s.clone()).unwrap())
            .collect();
        assert_eq!(feed.publish(states[5].clone()).map(|u| u.seq), None);
        assert_eq!(feed.now().0, 6);
        // A viewer from the start: the first message whole, then patches.
        let mut texts = vec![updates[0].whole.as_str()];
        let mut sent = 1;
        for u in &updates[1..] {
            texts.push(u.for_viewer(sent).unwrap().as_str());
            sent = u.seq;
            assert_eq!(follow(&texts), states[sent as usize - 1]);
        }
        assert!(
            texts[0].contains("\"state\"") && texts[1..].iter().all(|t| t.contains("\"patch\""))
        );
        // A call is a patch of its own, far shorter than the state.
        assert!(
            updates[2].patch.len() < updates[2].whole.len(),
            "{}",
            updates[2].patch
        );
        // A viewer that missed 2 and 3 is sent 4 whole; one that has 4 is sent nothing.
        assert_eq!(updates[3].for_viewer(1), Some(&updates[3].whole));
        assert_eq!(updates[3].for_viewer(4), None);
        let caught_up = [
            updates[0].whole.as_str(),
            updates[3].for_viewer(1).unwrap(),
            &updates[4].patch,
        ];
        assert_eq!(follow(&caught_up), states[4]);
    }
}
