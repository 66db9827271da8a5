//! The hall's connection slots: how many connections are open, in all and
//! from each address, and a slot given back when its connection closes.

use bingomint::hall::api::MAX_PER_ADDRESS;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Connections served at once; more are turned away (503). Each is a task
/// and a socket, not a thread: a room of phones, each with a live stream.
const MAX_CONNECTIONS: usize = 8192;

/// Connections open now: in all, and from each address.
#[derive(Default)]
pub struct Slots {
    by_address: Mutex<HashMap<IpAddr, usize>>,
    all: AtomicUsize,
}

/// A connection's place, given back when it closes.
pub struct Slot {
    slots: Arc<Slots>,
    peer: IpAddr,
}

impl Slots {
    pub fn take(self: &Arc<Self>, peer: IpAddr) -> Option<Slot> {
        let mut by = self.by_address.lock().unwrap_or_else(|e| e.into_inner());
        let n = by.entry(peer).or_insert(0);
        if *n >= MAX_PER_ADDRESS || self.all.load(Ordering::Relaxed) >= MAX_CONNECTIONS {
            if *n == 0 {
                by.remove(&peer);
            }
            return None;
        }
        *n += 1;
        self.all.fetch_add(1, Ordering::Relaxed);
        Some(Slot {
            slots: self.clone(),
            peer,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut by = self
            .slots
            .by_address
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(n) = by.get_mut(&self.peer) {
            *n -= 1;
            if *n == 0 {
                by.remove(&self.peer);
            }
        }
        self.slots.all.fetch_sub(1, Ordering::Relaxed);
    }
}
