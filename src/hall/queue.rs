//! Players' claims waiting for the caller, in arrival order. A claim from
//! a phone is judged when it arrives (at that call, for that stage) and
//! waits; the caller accepts or rejects it; the phone reads the outcome.
//! A flood is held off: a few waiting claims a face and a client, and a
//! bounded queue.

use super::refusal::Flood;
use super::state::Grid;
use serde::Serialize;
use std::collections::{BTreeMap, VecDeque};
use std::net::IpAddr;

/// Waiting claims a face may have.
pub const PER_FACE: usize = 2;
/// Waiting claims one client (an address) may have.
pub const PER_CLIENT: usize = 3;
/// Waiting claims in all that were not a win when they arrived.
pub const MAX_WAITING: usize = 1_000;
/// Waiting claims in all, wins included: a win is never crowded out by
/// claims that are not, and wins are bounded by the faces that hold one.
pub const MAX_WITH_WINS: usize = 2 * MAX_WAITING;
/// Decided claims remembered for phones to read back.
const REMEMBERED: usize = 100_000;

/// A claim waiting for the caller, judged on arrival.
#[derive(Clone, Debug, Serialize)]
pub struct Waiting {
    pub id: u64,
    /// The reference the phone sent.
    pub card: String,
    pub label: Option<String>,
    /// The stage and the number of calls when it arrived.
    pub stage: String,
    pub call: usize,
    pub win: bool,
    pub reason: String,
    pub face: Option<Grid>,
    /// The first waiting win of a prize not paid yet: how Accept would pay
    /// it now (`£30.00 shared by 2: …`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub split: Option<String>,
    /// The electronic pack the face is in, when its device claimed it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pack: Option<u64>,
    /// The file and face, for the caps.
    #[serde(skip)]
    pub at: (usize, u64),
}

/// Where a player's claim stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stand {
    Waiting,
    Accepted,
    Rejected,
    /// The game ended before the caller came to it.
    Closed,
}

/// A claim's standing, as a phone reads it.
#[derive(Clone, Debug, Serialize)]
pub struct Status {
    pub id: u64,
    pub status: Stand,
    /// Its place in the queue (from 1) while waiting.
    pub place: Option<usize>,
    pub label: Option<String>,
    pub stage: String,
    pub reason: String,
}

/// The queue and the outcomes of claims decided.
#[derive(Default)]
pub struct Queue {
    waiting: VecDeque<Waiting>,
    decided: BTreeMap<u64, Status>,
    /// The last id given (ids run on through the night).
    pub last: u64,
}

/// The client a cap counts `ip` as: an IPv4 address (an IPv4-mapped IPv6
/// one too) alone, an IPv6 address by its /64, the network one phone's
/// addresses come from (a phone can take any address of its /64).
pub fn client_of(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let bits = u128::from(v6) & !((1u128 << 64) - 1);
                IpAddr::V6(bits.into())
            }
        },
    }
}

impl Queue {
    /// Whether a claim on `at` from a client with `client_waiting` claims
    /// waiting, a `win` when judged, may join: a win only needs room among
    /// [`MAX_WITH_WINS`].
    pub fn admits(&self, at: (usize, u64), client_waiting: usize, win: bool) -> Result<(), Flood> {
        let full = if win { MAX_WITH_WINS } else { MAX_WAITING };
        let losers = self.waiting.iter().filter(|w| !w.win).count();
        if self.waiting.len() >= full || (!win && losers >= MAX_WAITING) {
            return Err(Flood::Full(MAX_WAITING));
        }
        if self.waiting.iter().filter(|w| w.at == at).count() >= PER_FACE {
            return Err(Flood::Face(PER_FACE));
        }
        if client_waiting >= PER_CLIENT {
            return Err(Flood::Client(PER_CLIENT));
        }
        Ok(())
    }

    /// The ids of the claims waiting that were not a win when they arrived.
    pub fn losers(&self) -> Vec<u64> {
        self.waiting
            .iter()
            .filter(|w| !w.win)
            .map(|w| w.id)
            .collect()
    }

    /// Adds a claim at the back; returns its place.
    pub fn push(&mut self, waiting: Waiting) -> usize {
        self.last = self.last.max(waiting.id);
        self.waiting.push_back(waiting);
        self.waiting.len()
    }

    /// The claims waiting, in arrival order.
    pub fn waiting(&self) -> &VecDeque<Waiting> {
        &self.waiting
    }

    /// The waiting claim `id`.
    pub fn get(&self, id: u64) -> Option<&Waiting> {
        self.waiting.iter().find(|w| w.id == id)
    }

    /// The waiting claim `id`, to fill in what its log line does not hold.
    pub fn get_mut(&mut self, id: u64) -> Option<&mut Waiting> {
        self.waiting.iter_mut().find(|w| w.id == id)
    }

    /// Decides claim `id`: out of the queue, its outcome kept.
    pub fn decide(&mut self, id: u64, status: Stand, reason: String) {
        if let Some(i) = self.waiting.iter().position(|w| w.id == id) {
            let w = self.waiting.remove(i).expect("found");
            self.remember(Status {
                id,
                status,
                place: None,
                label: w.label,
                stage: w.stage,
                reason,
            });
        }
    }

    /// Closes every waiting claim: the game ended.
    pub fn close(&mut self, reason: &str) {
        self.close_where(|_| true, reason);
    }

    /// Closes the waiting claims made at call `call` or later: that call
    /// was recalled, so they were judged on a ball no longer called.
    pub fn close_from(&mut self, call: usize) {
        let reason = format!("call {call} was recalled: claim again if the card still wins");
        self.close_where(|w| w.call >= call, &reason);
    }

    /// Closes the waiting claims `which` picks, each remembered with `reason`.
    fn close_where(&mut self, which: impl Fn(&Waiting) -> bool, reason: &str) {
        let (gone, kept): (VecDeque<Waiting>, VecDeque<Waiting>) =
            std::mem::take(&mut self.waiting)
                .into_iter()
                .partition(|w| which(w));
        self.waiting = kept;
        for w in gone {
            self.remember(Status {
                id: w.id,
                status: Stand::Closed,
                place: None,
                label: w.label,
                stage: w.stage,
                reason: reason.to_string(),
            });
        }
    }

    fn remember(&mut self, status: Status) {
        self.decided.insert(status.id, status);
        while self.decided.len() > REMEMBERED {
            self.decided.pop_first();
        }
    }

    /// Where claim `id` stands, if it is known.
    pub fn status(&self, id: u64) -> Option<Status> {
        if let Some(i) = self.waiting.iter().position(|w| w.id == id) {
            let w = &self.waiting[i];
            return Some(Status {
                id,
                status: Stand::Waiting,
                place: Some(i + 1),
                label: w.label.clone(),
                stage: w.stage.clone(),
                reason: "waiting for the caller".into(),
            });
        }
        self.decided.get(&id).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waiting(id: u64, face: u64) -> Waiting {
        Waiting {
            id,
            card: face.to_string(),
            label: None,
            stage: "line".into(),
            call: 5,
            win: false,
            reason: String::new(),
            face: None,
            split: None,
            pack: None,
            at: (0, face),
        }
    }

    #[test]
    fn caps_a_face_and_a_client() {
        let mut q = Queue::default();
        q.push(waiting(1, 7));
        q.push(waiting(2, 7));
        assert_eq!(q.admits((0, 7), 0, false), Err(Flood::Face(PER_FACE)));
        assert_eq!(q.admits((0, 8), 0, false), Ok(()));
        assert_eq!(
            q.admits((0, 8), PER_CLIENT, false),
            Err(Flood::Client(PER_CLIENT))
        );
        assert_eq!(q.admits((0, 8), PER_CLIENT - 1, false), Ok(()));
    }

    /// See: hardening round four (340 addresses filled the queue in 1.4 s
    /// and real players got 429).
    #[test]
    fn a_phone_s_ipv6_addresses_are_one_client() {
        let a: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:ffff:1:2:3".parse().unwrap();
        let other: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(client_of(a), client_of(b));
        assert_ne!(client_of(a), client_of(other));
        let mapped: IpAddr = "::ffff:10.0.0.7".parse().unwrap();
        assert_eq!(client_of(mapped), IpAddr::from([10, 0, 0, 7]));
    }

    #[test]
    fn a_win_is_never_crowded_out_by_claims_that_are_not() {
        let mut q = Queue::default();
        for id in 1..=MAX_WAITING as u64 {
            q.push(waiting(id, id));
        }
        assert_eq!(q.admits((0, 5000), 0, false), Err(Flood::Full(MAX_WAITING)));
        assert_eq!(q.admits((0, 5000), 0, true), Ok(()));
        assert_eq!(q.losers().len(), MAX_WAITING);
    }

    #[test]
    fn keeps_order_and_outcomes() {
        let mut q = Queue::default();
        for id in 1..=3 {
            assert_eq!(q.push(waiting(id, id)), id as usize);
        }
        q.decide(1, Stand::Rejected, "not a win".into());
        assert_eq!(q.status(2).unwrap().place, Some(1));
        assert_eq!(q.status(1).unwrap().status, Stand::Rejected);
        q.close("the game ended");
        assert_eq!(q.status(3).unwrap().status, Stand::Closed);
        assert!(q.waiting().is_empty());
        assert!(q.status(4).is_none());
    }
}
