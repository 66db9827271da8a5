//! The hall's slots: how many connections (and live streams) are open, in
//! all and from each address, and a slot given back when it closes. The
//! hall's own machine (127.0.0.1, ::1: the console beside it) has slots
//! kept for it past the total, so a room full of clients, or a hostile
//! one, never locks the caller out; and live streams are capped well below
//! the connections, so phones' streams cannot take the slots requests need.

use bingomint::hall::api::MAX_PER_ADDRESS;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Connections served at once; more are turned away (503). Each is a task
/// and a socket, not a thread: a room of phones, each with a live stream.
pub const MAX_CONNECTIONS: usize = 8192;
/// Connections kept for the hall's own machine past [`MAX_CONNECTIONS`].
pub const KEPT_FOR_CONSOLE: usize = 64;
/// Live streams at once, in all: three quarters of the connections (a
/// room of 2,000 phones and 200 screens fits), the rest kept for requests,
/// which come and go.
pub const MAX_STREAMS: usize = MAX_CONNECTIONS / 4 * 3;
/// Live streams from one address (a phone needs one; a venue's network
/// may put a few dozen phones behind one address).
pub const STREAMS_PER_ADDRESS: usize = 32;

/// Slots open now: in all, and from each address, under caps.
pub struct Slots {
    by_address: Mutex<HashMap<IpAddr, usize>>,
    all: AtomicUsize,
    total: usize,
    per_address: usize,
}

/// A connection's (or stream's) place, given back when it closes.
pub struct Slot {
    slots: Arc<Slots>,
    peer: IpAddr,
}

/// Whether `peer` is the hall's own machine.
fn is_console(peer: IpAddr) -> bool {
    peer == IpAddr::from([127, 0, 0, 1]) || peer == IpAddr::from(std::net::Ipv6Addr::LOCALHOST)
}

impl Slots {
    /// The connections' slots.
    pub fn connections() -> Arc<Slots> {
        Slots::new(MAX_CONNECTIONS, MAX_PER_ADDRESS)
    }

    /// The live streams' slots.
    pub fn streams() -> Arc<Slots> {
        Slots::new(MAX_STREAMS, STREAMS_PER_ADDRESS)
    }

    fn new(total: usize, per_address: usize) -> Arc<Slots> {
        Arc::new(Slots {
            by_address: Mutex::default(),
            all: AtomicUsize::new(0),
            total,
            per_address,
        })
    }

    pub fn take(self: &Arc<Self>, peer: IpAddr) -> Option<Slot> {
        let mut by = self.by_address.lock().unwrap_or_else(|e| e.into_inner());
        let total = if is_console(peer) {
            self.total + KEPT_FOR_CONSOLE
        } else {
            self.total
        };
        let n = by.entry(peer).or_insert(0);
        if *n >= self.per_address || self.all.load(Ordering::Relaxed) >= total {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// See: hardening round four (8,192 live streams from 128 addresses
    /// locked the caller's console out).
    #[test]
    fn the_console_s_machine_gets_in_when_every_slot_is_taken() {
        let slots = Slots::new(4, 2);
        let held: Vec<Slot> = (2..4u8)
            .flat_map(|x| {
                let slots = slots.clone();
                (0..2).map(move |_| slots.take(IpAddr::from([127, 0, 0, x])).unwrap())
            })
            .collect();
        assert!(slots.take(IpAddr::from([127, 0, 0, 9])).is_none());
        let console = slots.take(IpAddr::from([127, 0, 0, 1]));
        assert!(console.is_some());
        drop(held);
        assert_eq!(slots.all.load(Ordering::Relaxed), 1);
        assert!(slots.take(IpAddr::from([127, 0, 0, 9])).is_some());
    }
}
