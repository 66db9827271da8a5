//! Linked venues: one game played across halls. A *control* runs the game
//! (the commitment, the sealed order, the prize, judging every claim); each
//! *venue* sells its allotted faces, calls the order in its room and claims.
//!
//! - [`message`]: what each side says;
//! - [`record`]: the control's records, signed (Ed25519) and hash-chained,
//!   so a venue trusts the chain and never the broker;
//! - [`national`]: the national game's rules (allotments, sales, claims,
//!   the prize, the winners);
//! - [`bus`]: NATS JetStream, which carries the messages;
//! - [`books`]: PostgreSQL, the network's book of record.

pub mod books;
pub mod bus;
pub mod message;
pub mod national;
pub mod record;
pub mod verify;

/// The software's version, which every venue must share with the control.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
