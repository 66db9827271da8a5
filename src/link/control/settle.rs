//! `link control`, after the reveal: every claim judged and booked once,
//! then the game settled once in the books and announced.

use super::{next_message, Heard, Messages, Writer};
use crate::link::message::{Body, Judged, VenueMessage};
use crate::link::national;
use crate::link::{note, Ended, LinkError};
use tokio::time::{Duration, Instant};

type Result<T, E = LinkError> = std::result::Result<T, E>;

impl Heard {
    /// Takes claims until every venue that sold is done or the time is up.
    pub async fn claims(&mut self, messages: &mut Messages, w: &mut Writer) -> Result<()> {
        let until = Instant::now() + Duration::from_secs(self.net.claim_seconds);
        let calls = national::calls(self.balls(), &self.seed, &self.net.game);
        while self.done.len() < self.sold.len() {
            let Some(text) = next_message(messages, until).await? else {
                let late: Vec<_> = self
                    .sold
                    .keys()
                    .filter(|v| !self.done.contains(*v))
                    .collect();
                note!("the claim window closed without word from {late:?}");
                break;
            };
            let Ok(m) = serde_json::from_str::<VenueMessage>(&text) else {
                continue;
            };
            self.after_reveal(m, &calls, w).await?;
        }
        Ok(())
    }

    async fn after_reveal(
        &mut self,
        m: VenueMessage,
        calls: &crate::play::calls::Calls,
        w: &mut Writer,
    ) -> Result<()> {
        let venue = m.venue().to_string();
        match m {
            VenueMessage::Claim {
                claim, face, call, ..
            } => {
                let Some(sold) = self.sold.get(&venue) else {
                    return self
                        .refuse(
                            w,
                            &venue,
                            "a claim from a venue with no sales booked".into(),
                        )
                        .await;
                };
                let refused = national::judge(
                    &self.net.stock,
                    sold,
                    &self.net.pattern,
                    calls,
                    (face, call),
                );
                let judged = Judged {
                    venue,
                    claim,
                    face,
                    call,
                    refused,
                };
                self.book_claim(judged).await?;
            }
            VenueMessage::Done { .. } => {
                self.done.insert(venue);
            }
            // Hellos and sales again: a venue that came back resends them.
            VenueMessage::Hello { .. } | VenueMessage::Sales { .. } | VenueMessage::Seen { .. } => {
            }
        }
        Ok(())
    }

    /// Books a judged claim once and keeps it; the claim as kept (the
    /// first, when the same claim came before).
    pub async fn book_claim(&mut self, judged: Judged) -> Result<Judged> {
        let game = &self.net.game;
        self.books
            .again(async |b| b.claim(game, &judged).await)
            .await?;
        let key = (judged.venue.clone(), judged.claim);
        Ok(self.judged.entry(key).or_insert(judged).clone())
    }

    /// Judges together, settles once, announces.
    pub async fn settle(&mut self, w: &mut Writer, prize: u64) -> Result<Ended> {
        let claims: Vec<Judged> = self.judged.values().cloned().collect();
        self.settle_after(w, prize, claims, None).await
    }

    /// Announces the verdicts `new` (and a live game's seed, `reveal`),
    /// then settles on every claim judged.
    pub async fn settle_after(
        &mut self,
        w: &mut Writer,
        prize: u64,
        new: Vec<Judged>,
        reveal: Option<String>,
    ) -> Result<Ended> {
        w.emit(Body::Verdicts { claims: new }).await?;
        if let Some(seed) = reveal {
            w.emit(Body::Reveal { seed }).await?;
        }
        let claims: Vec<Judged> = self.judged.values().cloned().collect();
        let game = self.net.game.clone();
        let Some((call, payouts)) = national::settle(&claims, prize) else {
            self.books
                .again(async |b| b.settle(&game, None, &[]).await)
                .await?;
            let why = "no good claim by the end of the claim window".to_string();
            note!("game {game}: unwon, {why}");
            w.emit(Body::Unwon { why }).await?;
            return Ok(Ended::Unwon);
        };
        let settling = self
            .books
            .again(async |b| b.settle(&game, Some(call), &payouts).await);
        let booked = settling.await?;
        note!(
            "game {game} settled at call {call}: {} winning face(s)",
            booked.len()
        );
        let payouts = booked.clone();
        w.emit(Body::Settled { call, payouts }).await?;
        Ok(Ended::Settled {
            call,
            payouts: booked,
            currency: self.net.currency.clone(),
        })
    }
}
