//! `link control`, a live game: the control calls; each call is shown at
//! every venue at the same instant; a claim anywhere holds the next call
//! until the claim window closes, then every claim at that call is judged
//! together. The seed is revealed at the end, so anyone can check the calls.

use super::{next_message, Heard, Messages, Writer};
use crate::link::files::Pace;
use crate::link::message::{Body, Judged, VenueMessage};
use crate::link::national;
use crate::link::{note, now_ms, Ended, LinkError};
use crate::play::calls::Calls;
use tokio::time::{Duration, Instant};

/// How far ahead of its signing a call is shown, so every venue shows it at
/// once.
const LEAD_MS: u64 = 250;

type Result<T, E = LinkError> = std::result::Result<T, E>;

impl Heard {
    /// Calls until a claim is good; settles then.
    pub async fn live(
        &mut self,
        messages: &mut Messages,
        w: &mut Writer,
        prize: u64,
        pace: Pace,
    ) -> Result<Ended> {
        let order = crate::play::live::order(self.balls(), &self.seed, &self.net.game);
        let mut shown = Vec::new();
        for k in 1..=order.len() {
            let n = k as u8;
            self.void_lagging(w, &shown, pace.grace_ms).await?;
            let show_at_ms = now_ms() + LEAD_MS;
            shown.push(Instant::now() + Duration::from_millis(LEAD_MS));
            w.emit(Body::Call {
                n,
                ball: order[k - 1],
                show_at_ms,
            })
            .await?;
            let calls = Calls::from_order(self.balls(), order[..k].to_vec());
            let until = Instant::now() + Duration::from_millis(LEAD_MS + pace.call_ms);
            let at_call = self
                .window(messages, w, (&calls, until), pace.claim_ms)
                .await?;
            if at_call.is_empty() {
                continue;
            }
            note!("call {n}: {} claim(s) judged", at_call.len());
            if at_call.iter().any(|c| c.refused.is_empty()) {
                let seed = Some(self.seed.clone());
                return self.settle_after(w, prize, at_call, seed).await;
            }
            w.emit(Body::Verdicts { claims: at_call }).await?;
        }
        let seed = Some(self.seed.clone());
        self.settle_after(w, prize, Vec::new(), seed).await
    }

    /// The claims that came before `until` (a late claim refused); the
    /// first at the last of `calls` holds the game and the window then
    /// runs `claim_ms` from it.
    async fn window(
        &mut self,
        messages: &mut Messages,
        w: &mut Writer,
        (calls, mut until): (&Calls, Instant),
        claim_ms: u64,
    ) -> Result<Vec<Judged>> {
        let n = calls.len() as u8;
        let (mut at_call, mut held) = (Vec::new(), false);
        while let Some(text) = next_message(messages, until).await? {
            let (venue, claim, face, call) = match serde_json::from_str(&text) {
                Ok(VenueMessage::Claim {
                    venue,
                    claim,
                    face,
                    call,
                }) => (venue, claim, face, call),
                Ok(VenueMessage::Seen { venue, call }) => {
                    let last = self.seen.entry(venue).or_insert(0);
                    *last = (*last).max(call);
                    continue;
                }
                _ => continue,
            };
            let key = (venue.clone(), claim);
            if self.judged.contains_key(&key) {
                continue;
            }
            let refused = self.judge_live(&venue, (face, call), calls);
            if !held && call == n {
                held = true;
                w.emit(Body::Hold {
                    call: n,
                    venue: venue.clone(),
                })
                .await?;
                until = Instant::now() + Duration::from_millis(claim_ms);
            }
            let judged = Judged {
                venue,
                claim,
                face,
                call,
                refused,
            };
            at_call.push(self.book_claim(judged).await?);
        }
        Ok(at_call)
    }

    /// A claim of `face` at `call` from `venue`, judged after `calls`:
    /// empty when good, else why not (a claim at an earlier call is late).
    fn judge_live(&self, venue: &str, (face, call): (u64, u8), calls: &Calls) -> String {
        let n = calls.len() as u8;
        if let Some(at) = self.voided.get(venue) {
            return format!("{}the venue was voided at call {at}", national::VOIDED);
        }
        match self.sold.get(venue) {
            None => "a claim from a venue with no sales booked".to_string(),
            Some(_) if call != n => {
                format!(
                    "{}claimed at call {call}, after call {n} was made",
                    national::LATE
                )
            }
            Some(sold) => {
                let (stock, pattern) = (&self.net.stock, &self.net.pattern);
                national::judge(stock, sold, pattern, calls, (face, call))
            }
        }
    }

    /// Voids each venue that sold and has left a call unshown for longer
    /// than `grace_ms` after the call's instant (`shown`: each call's).
    async fn void_lagging(
        &mut self,
        w: &mut Writer,
        shown: &[Instant],
        grace_ms: u64,
    ) -> Result<()> {
        let grace = Duration::from_millis(grace_ms);
        let lagging: Vec<(String, u8)> = (self.sold.keys())
            .filter(|v| !self.voided.contains_key(*v))
            .filter_map(|v| {
                let last = self.seen.get(v).copied().unwrap_or(0);
                let due = shown.get(usize::from(last))?;
                (due.elapsed() > grace).then(|| (v.clone(), last + 1))
            })
            .collect();
        for (venue, call) in lagging {
            let why = format!("call {call} not shown within {grace_ms} ms: the link dropped");
            note!("voided {venue}: {why}");
            self.voided.insert(venue.clone(), call);
            w.emit(Body::Voided { venue, call, why }).await?;
        }
        Ok(())
    }
}
