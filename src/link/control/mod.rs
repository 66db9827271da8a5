//! `link control`: runs a national game for the venues of a network file.
//! Every record is written to the control's log (synced) before the broker
//! carries it; the money goes to the books before any record says it.

mod live;
mod settle;

use super::files::{Network, Play};
use super::{game, note, now_ms, Ended, LinkError};
use crate::hall::money;
use crate::link::books::Books;
use crate::link::bus::{Broker, Bus};
use crate::link::message::{Allotment, Body, Faces, Judged, Takings, VenueMessage};
use crate::link::national;
use crate::link::record::{Chain, Signed};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use tokio::time::{timeout_at, Duration, Instant};

/// The control's chain, its log and its stream.
pub struct Writer {
    chain: Chain,
    log: std::fs::File,
    bus: Bus,
    stored: u64,
}

impl Writer {
    /// Signs `body`, logs it, publishes it.
    pub async fn emit(&mut self, body: Body) -> Result<Signed> {
        let s = self.chain.sign(body, now_ms());
        writeln!(self.log, "{}", s.line())?;
        self.log.sync_data()?;
        let until = Instant::now() + crate::link::bus::RETRY_FOR;
        loop {
            match self.bus.publish_record(&s, self.stored).await {
                Ok(at) => break self.stored = at,
                Err(e @ crate::link::bus::BusError::SecondWriter { .. }) => {
                    return Err(game!("{e}"))
                }
                Err(e) if Instant::now() >= until => return Err(game!("{e}")),
                Err(_) => {}
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        Ok(s)
    }
}

/// What the control has heard from the venues.
pub struct Heard {
    pub net: Network,
    pub books: Books,
    pub seed: String,
    hello: BTreeSet<String>,
    pub sold: BTreeMap<String, Vec<Faces>>,
    pub judged: BTreeMap<(String, u64), Judged>,
    pub done: BTreeSet<String>,
    /// A live game's last call each venue showed.
    pub seen: BTreeMap<String, u8>,
    /// Venues voided for the game, and at which call.
    pub voided: BTreeMap<String, u8>,
}

type Result<T, E = LinkError> = std::result::Result<T, E>;

pub type Messages = crate::link::bus::Following;

/// The venues' next message, None when `until` passes first. While the
/// broker is away the messages answer errors and the consumer recovers:
/// they are waited through.
pub async fn next_message(messages: &mut Messages, until: Instant) -> Result<Option<String>> {
    let mut said = false;
    loop {
        match timeout_at(until, messages.next()).await {
            Err(_) => return Ok(None),
            Ok(Ok(text)) => return Ok(Some(text)),
            Ok(Err(e)) => {
                if !std::mem::replace(&mut said, true) {
                    note!("the broker is not answering ({e}); waiting");
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    }
}

/// Runs the game `net` signed with `key`, logged to `log`.
pub async fn run(
    net: Network,
    key: ed25519_dalek::SigningKey,
    log: std::fs::File,
    (broker, db): (Broker<'_>, &str),
) -> Result<Ended> {
    let game = net.game.clone();
    let bus = Bus::open(&broker, &game).await?;
    if bus.last_control().await? != 0 {
        return Err(game!("game {game:?} has a control already (its records are on the broker): give the game another id"));
    }
    let mut books = Books::open(db).await?;
    let seed = crate::hall::fresh_seed()?;
    let commitment = crate::hall::commitment(&seed);
    let stock = net.stock.short_id();
    let what = (net.play.name(), stock.as_str(), net.currency.as_str());
    books
        .again(async |b| b.open_game(&game, what, &commitment, &net.venues).await)
        .await?;
    let mut w = Writer {
        chain: Chain::new(key, &game),
        log,
        bus,
        stored: 0,
    };
    w.emit(open(&net, &stock, &commitment)).await?;
    note!(
        "game {game} open: {} venues, commitment {commitment}",
        net.venues.len()
    );
    let mut messages = w.bus.venue_messages();
    let mut heard = Heard::new(net, books, seed.clone());
    heard.sales(&mut messages, &mut w).await?;
    let prize = heard.close(&mut w).await?;
    if let Play::Live(pace) = heard.net.play {
        return heard.live(&mut messages, &mut w, prize, pace).await;
    }
    w.emit(Body::Reveal { seed }).await?;
    heard.claims(&mut messages, &mut w).await?;
    heard.settle(&mut w, prize).await
}

fn open(net: &Network, stock: &str, commitment: &str) -> Body {
    Body::Open {
        play: net.play.name().into(),
        version: crate::link::VERSION.into(),
        stock: stock.into(),
        balls: net.stock.header().spec.balls(),
        pattern: net.pattern_name.clone(),
        currency: net.currency.clone(),
        venues: net.venues.clone(),
        commitment: commitment.into(),
        prize_terms: net.prize.words(&net.currency),
        claim_seconds: net.claim_seconds,
    }
}

impl Heard {
    fn new(net: Network, books: Books, seed: String) -> Heard {
        Heard {
            net,
            books,
            seed,
            hello: BTreeSet::new(),
            sold: BTreeMap::new(),
            judged: BTreeMap::new(),
            done: BTreeSet::new(),
            seen: BTreeMap::new(),
            voided: BTreeMap::new(),
        }
    }

    /// The stock's balls.
    pub fn balls(&self) -> u8 {
        self.net.stock.header().spec.balls()
    }

    pub async fn refuse(&mut self, w: &mut Writer, venue: &str, why: String) -> Result<()> {
        note!("refused {venue}: {why}");
        w.emit(Body::Refused {
            venue: venue.into(),
            why,
        })
        .await?;
        Ok(())
    }

    /// Takes hellos and sales until every venue has sold or the time is up.
    async fn sales(&mut self, messages: &mut Messages, w: &mut Writer) -> Result<()> {
        let until = Instant::now() + Duration::from_secs(self.net.sales_seconds);
        while self.sold.len() < self.net.venues.len() {
            let Some(text) = next_message(messages, until).await? else {
                break;
            };
            match serde_json::from_str::<VenueMessage>(&text) {
                Ok(m) => self.before_reveal(m, w).await?,
                Err(e) => note!("a message that is not a venue's was ignored: {e}"),
            }
        }
        Ok(())
    }

    async fn before_reveal(&mut self, m: VenueMessage, w: &mut Writer) -> Result<()> {
        let venue = m.venue().to_string();
        let Some(allotted) = self.net.venues.iter().find(|v| v.venue == venue) else {
            return self
                .refuse(w, &venue, "not a venue of this game".into())
                .await;
        };
        let allotted = allotted.faces.clone();
        match m {
            VenueMessage::Hello { version, .. } if version != crate::link::VERSION => {
                let why = format!(
                    "runs version {version}; the network plays {}",
                    crate::link::VERSION
                );
                self.refuse(w, &venue, why).await
            }
            VenueMessage::Hello { version, .. } => {
                self.books
                    .again(async |b| b.venue(&venue, &version).await)
                    .await?;
                self.hello.insert(venue);
                Ok(())
            }
            VenueMessage::Sales { .. } if !self.hello.contains(&venue) => {
                self.refuse(w, &venue, "sales before hello".into()).await
            }
            VenueMessage::Sales { faces, amount, .. } => {
                match national::check_sales(&allotted, &faces) {
                    Ok(count) => {
                        let t = Takings {
                            venue: venue.clone(),
                            faces: count,
                            amount,
                        };
                        let game = &self.net.game;
                        let booked = self.books.again(async |b| b.sales(game, &t).await);
                        if let Err(e) = booked.await {
                            return self.refuse(w, &venue, e.to_string()).await;
                        }
                        self.sold.insert(venue, faces);
                        Ok(())
                    }
                    Err(why) => self.refuse(w, &venue, why).await,
                }
            }
            _ => {
                self.refuse(w, &venue, "a claim before the reveal".into())
                    .await
            }
        }
    }

    /// Closes sales and fixes the prize from the booked takings.
    async fn close(&mut self, w: &mut Writer) -> Result<u64> {
        let game = self.net.game.clone();
        let takings = self.books.again(async |b| b.takings(&game).await).await?;
        let total: u64 = takings.iter().map(|t| t.amount).sum();
        let offered = self.net.prize.amount(total);
        let fixing = self
            .books
            .again(async |b| b.fix_prize(&game, total, offered).await);
        let prize = fixing.await?;
        let c = &self.net.currency;
        note!(
            "sales closed: {} venues, {} faces, {}; prize {}",
            takings.len(),
            takings.iter().map(|t| t.faces).sum::<u64>(),
            money::show(total, c),
            money::show(prize, c)
        );
        let sold = (self.sold.iter())
            .map(|(venue, faces)| Allotment {
                venue: venue.clone(),
                faces: faces.clone(),
            })
            .collect();
        w.emit(Body::SalesClosed {
            takings,
            total,
            sold,
        })
        .await?;
        w.emit(Body::Prize { amount: prize }).await?;
        Ok(prize)
    }
}
