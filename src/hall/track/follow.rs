//! The tracker off the request path: the hall posts what it should stand
//! at (the calls and the open prizes) and goes on; a thread of its own
//! brings the tracker there, keeps a copy of the counts for the pages, and
//! tells the viewers. A question that needs the tracker now (a prize's
//! sharers) brings it there itself first, so it never reads a stale one.

use super::{Distances, Tracker};
use crate::play::calls::Calls;
use crate::play::pattern::Pattern;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// What the tracker should stand at, as of the hall's change `generation`.
struct Target {
    generation: u64,
    calls: Option<Calls>,
    prizes: Vec<(usize, Pattern)>,
}

/// What the hall posted and the thread has not taken yet.
#[derive(Default)]
struct Posted {
    target: Option<Target>,
    /// Told when the counts are new.
    notify: Option<Arc<dyn Fn() + Send + Sync>>,
}

/// The counts as of a change.
#[derive(Default)]
struct Shown {
    generation: u64,
    distances: Vec<Distances>,
}

struct Shared {
    tracker: Mutex<(u64, Tracker)>,
    posted: Mutex<Posted>,
    wake: Condvar,
    shown: Mutex<Shown>,
}

/// A tracker followed by a thread of its own.
pub struct Follower {
    shared: Arc<Shared>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Follower {
    /// Follows `tracker` on a thread of its own.
    pub fn start(tracker: Tracker) -> Follower {
        let shared = Arc::new(Shared {
            tracker: Mutex::new((0, tracker)),
            posted: Mutex::default(),
            wake: Condvar::new(),
            shown: Mutex::default(),
        });
        let worker = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("hall-tracker".into())
            .spawn(move || loop {
                let (target, notify) = {
                    let mut posted = lock(&worker.posted);
                    while posted.target.is_none() {
                        posted = worker.wake.wait(posted).unwrap_or_else(|e| e.into_inner());
                    }
                    (posted.target.take(), posted.notify.clone())
                };
                if worker.bring(target) {
                    if let Some(notify) = notify {
                        notify();
                    }
                }
            })
            .expect("a thread for the tracker");
        Follower { shared }
    }

    /// The tracker should stand at `calls` and `prizes` as of change
    /// `generation` (rising).
    pub fn post(&self, generation: u64, calls: Option<Calls>, prizes: Vec<(usize, Pattern)>) {
        lock(&self.shared.posted).target = Some(Target {
            generation,
            calls,
            prizes,
        });
        self.shared.wake.notify_one();
    }

    /// Called each time the counts come up to date (the server wakes the
    /// viewers).
    pub fn on_counted(&self, notify: Arc<dyn Fn() + Send + Sync>) {
        lock(&self.shared.posted).notify = Some(notify);
    }

    /// The counts as of change `generation`, once the tracker stands there.
    pub fn distances(&self, generation: u64) -> Option<Vec<Distances>> {
        let shown = lock(&self.shared.shown);
        (shown.generation == generation).then(|| shown.distances.clone())
    }

    /// Brought up to what was posted: the tracker, to use now.
    pub fn now(&self) -> MutexGuard<'_, (u64, Tracker)> {
        let target = lock(&self.shared.posted).target.take();
        self.shared.bring(target);
        lock(&self.shared.tracker)
    }

    /// Waits until the counts stand at the last change posted.
    pub fn settle(&self) {
        drop(self.now());
    }
}

impl Shared {
    /// Brings the tracker to `target` (unless it stands at a later one);
    /// whether the counts changed.
    fn bring(&self, target: Option<Target>) -> bool {
        let Some(target) = target else {
            return false;
        };
        let mut guard = lock(&self.tracker);
        let (at, tracker) = &mut *guard;
        if target.generation < *at {
            return false;
        }
        let prizes: Vec<(usize, &Pattern)> = target.prizes.iter().map(|(k, p)| (*k, p)).collect();
        tracker.sync(target.calls.as_ref(), &prizes);
        *at = target.generation;
        *lock(&self.shown) = Shown {
            generation: target.generation,
            distances: tracker.distances(),
        };
        true
    }
}
