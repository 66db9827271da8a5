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
        let mut patch = Vec::new();
        shortest(&self.last, &state, "", &mut patch);
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

/// A key as a JSON Pointer writes it (RFC 6901).
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Adds to `ops` the patch that takes `old` to `new` (both at pointer
/// `at`): field by field through objects of the same keys, and for any
/// other value the JSON Patch diff or one `replace`, whichever is shorter
/// (a list of the last claims that moved down one is sent as the list, not
/// as a change of every field of every entry).
fn shortest(old: &Value, new: &Value, at: &str, ops: &mut Vec<Value>) {
    if old == new {
        return;
    }
    if let (Value::Object(a), Value::Object(b)) = (old, new) {
        if a.len() == b.len() && b.keys().all(|k| a.contains_key(k)) {
            for (k, v) in b {
                shortest(&a[k], v, &format!("{at}/{}", escape(k)), ops);
            }
            return;
        }
    }
    let replace = serde_json::json!({"op": "replace", "path": at, "value": new});
    let diff = serde_json::to_value(json_patch::diff(old, new)).expect("JSON");
    let Value::Array(mut diff) = diff else {
        unreachable!("a JSON Patch is an array")
    };
    for op in &mut diff {
        if let Some(Value::String(path)) = op.get_mut("path") {
            path.insert_str(0, at);
        }
    }
    let length = |v: &Value| serde_json::to_string(v).map_or(usize::MAX, |t| t.len());
    if diff.iter().map(length).sum::<usize>() < length(&replace) {
        ops.extend(diff);
    } else {
        ops.push(replace);
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

    #[test]
    fn a_list_that_moved_down_is_sent_whole_and_a_new_call_as_one_addition() {
        let claim = |n: u64| json!({"call": n, "card": format!("card {n}"), "win": false});
        let old = json!({"claims": (0..10).map(claim).collect::<Vec<_>>(), "game": {"calls": [1, 2], "k/~": 1}});
        let new = json!({"claims": (1..11).map(claim).collect::<Vec<_>>(), "game": {"calls": [1, 2, 3], "k/~": 2}});
        let mut ops = Vec::new();
        shortest(&old, &new, "", &mut ops);
        assert_eq!(
            ops,
            vec![
                json!({"op": "replace", "path": "/claims", "value": new["claims"]}),
                json!({"op": "add", "path": "/game/calls/2", "value": 3}),
                json!({"op": "replace", "path": "/game/k~1~0", "value": 2}),
            ]
        );
        let patch: json_patch::Patch = serde_json::from_value(Value::Array(ops)).unwrap();
        let mut doc = old;
        json_patch::patch(&mut doc, &patch).unwrap();
        assert_eq!(doc, new);
    }
}
