//! The broker: NATS JetStream carries a linked game's messages and keeps
//! them for a venue that comes late or comes back. It is never the book of
//! record (the control's signed chain and the PostgreSQL books are).
//!
//! One stream a game, `LINK_<game>`, subjects `link.<game>.>`:
//! - `link.<game>.control`: the control's records, each published with a
//!   message id (`<game>:control:<seq>`, so a retry is stored once) and
//!   the subject's expected last sequence (so a second writer cannot fork
//!   the chain: its write is refused);
//! - `link.<game>.venue.<venue>`: each venue's messages, with ids that a
//!   retry repeats.

use super::message::VenueMessage;
use super::record::Signed;
use async_nats::jetstream::message::{PublishMessage, StreamMessage};
use async_nats::jetstream::{self, consumer, stream, Context};
use futures_util::StreamExt;
use std::time::Duration;

/// How long a follower waits in silence before it follows again.
const QUIET: Duration = Duration::from_secs(5);

/// How long a write is tried again while the broker is away.
pub const RETRY_FOR: Duration = Duration::from_secs(120);

/// What the broker could not do.
#[derive(Debug, thiserror::Error)]
pub enum BusError {
    #[error("NATS at {url}: {why}")]
    Connect { url: String, why: String },
    #[error("NATS JetStream: {0}")]
    Stream(String),
    #[error("record {seq} of game {game:?} could not be written: another control writes this game's chain")]
    SecondWriter { game: String, seq: u64 },
}

fn stream_err(e: impl std::fmt::Display) -> BusError {
    BusError::Stream(e.to_string())
}

/// A game's stream on the broker.
pub struct Bus {
    js: Context,
    stream: stream::Stream,
    game: String,
}

/// Where the broker is: its servers' URLs (commas between a cluster's),
/// the servers each game's stream is kept on, and the network's JetStream
/// domain when the servers named are a venue's own leaf server.
#[derive(Clone, Copy, Debug)]
pub struct Broker<'a> {
    pub url: &'a str,
    pub replicas: usize,
    pub domain: Option<&'a str>,
}

impl Bus {
    /// Connects to the broker (a cluster's servers separated by commas)
    /// and opens (or makes) `game`'s stream, kept on `replicas` servers.
    pub async fn open(broker: &Broker<'_>, game: &str) -> Result<Bus, BusError> {
        let (url, replicas) = (broker.url, broker.replicas);
        let servers: Vec<&str> = url.split(',').map(str::trim).collect();
        let client = async_nats::ConnectOptions::new()
            .connection_timeout(Duration::from_secs(5))
            .retry_on_initial_connect()
            .connect(&servers[..])
            .await
            .map_err(|e| BusError::Connect {
                url: url.to_string(),
                why: e.to_string(),
            })?;
        // Through a venue's own leaf server, the network's JetStream is
        // reached by its domain.
        let js = match broker.domain {
            Some(domain) => jetstream::with_domain(client, domain),
            None => jetstream::new(client),
        };
        let config = stream::Config {
            name: format!("LINK_{game}"),
            subjects: vec![format!("link.{game}.>")],
            storage: stream::StorageType::File,
            duplicate_window: Duration::from_secs(600),
            num_replicas: replicas,
            ..Default::default()
        };
        // A cluster just started may not have elected its leaders yet.
        let until = std::time::Instant::now() + Duration::from_secs(30);
        let stream = loop {
            match js.get_or_create_stream(config.clone()).await {
                Ok(stream) => break stream,
                Err(e) if std::time::Instant::now() >= until => return Err(stream_err(e)),
                Err(_) => tokio::time::sleep(Duration::from_millis(250)).await,
            }
        };
        Ok(Bus {
            js,
            stream,
            game: game.to_string(),
        })
    }

    fn control_subject(&self) -> String {
        format!("link.{}.control", self.game)
    }

    /// The stream sequence of the control's last record, 0 when it has none
    /// (asked again while a new stream's servers elect its leader).
    pub async fn last_control(&self) -> Result<u64, BusError> {
        let until = std::time::Instant::now() + Duration::from_secs(30);
        loop {
            let last = self
                .stream
                .get_last_raw_message_by_subject(&self.control_subject())
                .await;
            match last {
                Ok(m) => return Ok(m.sequence),
                Err(e) if e.kind() == stream::LastRawMessageErrorKind::NoMessageFound => {
                    return Ok(0)
                }
                Err(e) if std::time::Instant::now() >= until => return Err(stream_err(e)),
                Err(_) => tokio::time::sleep(Duration::from_millis(250)).await,
            }
        }
    }

    /// Publishes the control's record `s`, after its last one, which the
    /// stream stored at `after` (0: none). Answers where `s` was stored. A
    /// retry of a write whose acknowledgement was lost finds it stored.
    pub async fn publish_record(&self, s: &Signed, after: u64) -> Result<u64, BusError> {
        let id = format!("{}:control:{}", self.game, s.record.seq);
        let message = PublishMessage::build()
            .payload(s.line().into())
            .message_id(&id)
            .expected_last_subject_sequence(after);
        let sent = self.js.send_publish(self.control_subject(), message).await;
        let acked = match sent {
            Ok(ack) => ack.await.map(|a| a.sequence).map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        match acked {
            Ok(seq) => Ok(seq),
            Err(why) => self.stored_already(&id, s.record.seq, &why).await,
        }
    }

    /// After a refused write of record `seq`: where it is stored if the
    /// subject's last message is it (a retry); else a second writer.
    async fn stored_already(&self, id: &str, seq: u64, why: &str) -> Result<u64, BusError> {
        let last = self
            .stream
            .get_last_raw_message_by_subject(&self.control_subject())
            .await;
        let ours = |m: &StreamMessage| {
            let text = String::from_utf8_lossy(&m.payload);
            Signed::parse(&text).is_ok_and(|r| r.record.seq == seq)
        };
        match last {
            Ok(m) if ours(&m) => Ok(m.sequence),
            Ok(_) if why.contains("wrong last sequence") || why.contains("10071") => {
                Err(BusError::SecondWriter {
                    game: self.game.clone(),
                    seq,
                })
            }
            _ => Err(BusError::Stream(format!("record {seq} ({id}): {why}"))),
        }
    }

    /// Publishes a venue's message, trying again (with the same message
    /// id: the stream stores it once) while the broker is away or the
    /// game's stream is not there yet, for up to two minutes.
    pub async fn publish_venue(&self, m: &VenueMessage) -> Result<(), BusError> {
        let subject = format!("link.{}.venue.{}", self.game, m.venue());
        let json = serde_json::to_string(m).expect("a message is always JSON");
        let until = std::time::Instant::now() + RETRY_FOR;
        loop {
            let message = PublishMessage::build()
                .payload(json.clone().into())
                .message_id(m.id(&self.game));
            let sent = match self.js.send_publish(subject.clone(), message).await {
                Ok(ack) => ack.await.map(drop).map_err(stream_err),
                Err(e) => Err(stream_err(e)),
            };
            match sent {
                Err(_) if std::time::Instant::now() < until => {
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
                other => return other,
            }
        }
    }

    /// A follower of `filter`'s messages from the first.
    pub fn follow(&self, filter: String) -> Following {
        Following {
            stream: self.stream.clone(),
            filter,
            after: 0,
            inner: None,
        }
    }

    /// The control's records, from the first.
    pub fn records(&self) -> Following {
        self.follow(self.control_subject())
    }

    /// Every venue's messages, from the first.
    pub fn venue_messages(&self) -> Following {
        self.follow(format!("link.{}.venue.>", self.game))
    }
}

/// Messages on a filter, in order, none twice, across the broker going away:
/// an ordered consumer, made again after the last message taken whenever
/// it fails (a restarted server has lost it).
pub struct Following {
    stream: stream::Stream,
    filter: String,
    /// The stream sequence of the last message taken.
    after: u64,
    inner: Option<std::pin::Pin<Box<consumer::pull::Ordered>>>,
}

impl Following {
    /// The next message's payload as text; an error when the broker failed
    /// (the next call starts again after the last message taken).
    pub async fn next(&mut self) -> Result<String, BusError> {
        loop {
            if self.inner.is_none() {
                self.inner = Some(Box::pin(self.consumer().await?));
            }
            let inner = self.inner.as_mut().expect("made above");
            // A consumer whose server died can fall silent without an error:
            // after a quiet spell it is made again from the last message
            // taken (nothing is missed, nothing comes twice).
            let Ok(next) = tokio::time::timeout(QUIET, inner.next()).await else {
                self.inner = None;
                continue;
            };
            return match next {
                Some(Ok(m)) => {
                    if let Ok(info) = m.info() {
                        self.after = info.stream_sequence;
                    }
                    Ok(String::from_utf8_lossy(&m.payload).into_owned())
                }
                Some(Err(e)) => {
                    self.inner = None;
                    Err(stream_err(e))
                }
                None => {
                    self.inner = None;
                    Err(BusError::Stream("the consumer ended".into()))
                }
            };
        }
    }

    /// An ordered consumer of the filter, after the last message taken.
    async fn consumer(&self) -> Result<consumer::pull::Ordered, BusError> {
        let config = consumer::pull::OrderedConfig {
            filter_subject: self.filter.clone(),
            deliver_policy: match self.after {
                0 => consumer::DeliverPolicy::All,
                n => consumer::DeliverPolicy::ByStartSequence {
                    start_sequence: n + 1,
                },
            },
            ..Default::default()
        };
        let made = self
            .stream
            .create_consumer(config)
            .await
            .map_err(stream_err)?;
        made.messages().await.map_err(stream_err)
    }
}
