//! The network's books in PostgreSQL: the book of record for a linked
//! game's money. Every write is idempotent on redelivery (a retried
//! message books nothing new), and what is decided once (the prize, the
//! settlement) is guarded by a row that can be written once: two controls
//! racing to settle write one set of payouts.
//!
//! The schema is in `migrations/`, applied in order and recorded in
//! `bingomint_migrations` under an advisory lock.

use super::message::{Allotment, Judged, Payout, Takings};
use tokio_postgres::{Client, NoTls};

/// The schema's migrations, in order.
const MIGRATIONS: &[(i32, &str)] = &[(1, include_str!("../../migrations/0001_network.sql"))];

/// A key for the migrations' advisory lock ("bingomin").
const LOCK: i64 = 0x6269_6e67_6f6d_696e;

/// What the books refuse or cannot do.
#[derive(Debug, thiserror::Error)]
pub enum BooksError {
    #[error("PostgreSQL: {0}")]
    Db(#[from] tokio_postgres::Error),
    #[error("{0}")]
    Conflict(String),
}

/// A connection to the network's books.
pub struct Books {
    url: String,
    client: Client,
}

/// How long [`Books::again`] keeps trying a server that went away.
const RETRY_FOR: std::time::Duration = std::time::Duration::from_secs(120);

/// Whether `e` is the connection's (the server gone, restarting, not
/// reachable), not the statement's: worth a retry on a new connection.
fn is_lost(e: &BooksError) -> bool {
    let BooksError::Db(e) = e else { return false };
    e.is_closed()
        || e.as_db_error().is_none_or(|d| {
            let code = d.code().code();
            code.starts_with("57") || code.starts_with("08")
        })
}

async fn connect(url: &str) -> Result<Client, BooksError> {
    let (client, conn) = tokio_postgres::connect(url, NoTls).await?;
    tokio::spawn(async move {
        // Ends when the client is dropped or the server goes away; the
        // next query then answers the error.
        let _ = conn.await;
    });
    Ok(client)
}

fn i(n: u64) -> i64 {
    i64::try_from(n).expect("amounts and faces are below 2^63")
}

impl Books {
    /// Connects to `url` (`postgres://user@host:port/db`) and brings the
    /// schema up to date.
    pub async fn open(url: &str) -> Result<Books, BooksError> {
        let client = connect(url).await?;
        let mut books = Books {
            url: url.to_string(),
            client,
        };
        books.migrate().await?;
        Ok(books)
    }

    /// Runs `op` until it is done, connecting again while the server is
    /// away (for up to two minutes). Every write here is idempotent, so a
    /// write that committed before its answer was lost books nothing new
    /// when it is tried again.
    pub async fn again<T>(
        &mut self,
        mut op: impl AsyncFnMut(&mut Books) -> Result<T, BooksError>,
    ) -> Result<T, BooksError> {
        let until = std::time::Instant::now() + RETRY_FOR;
        let mut said = false;
        loop {
            match op(self).await {
                Err(e) if is_lost(&e) && std::time::Instant::now() < until => {
                    if !std::mem::replace(&mut said, true) {
                        super::note!("the books are not answering ({e}); trying again");
                    }
                    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                    if let Ok(client) = connect(&self.url).await {
                        self.client = client;
                    }
                }
                other => return other,
            }
        }
    }

    async fn migrate(&mut self) -> Result<(), BooksError> {
        let tx = self.client.transaction().await?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&LOCK])
            .await?;
        tx.batch_execute(
            "CREATE TABLE IF NOT EXISTS bingomint_migrations (
                 version integer PRIMARY KEY,
                 applied_at timestamptz NOT NULL DEFAULT now())",
        )
        .await?;
        for (version, sql) in MIGRATIONS {
            let done = "SELECT 1 FROM bingomint_migrations WHERE version = $1";
            if tx.query_opt(done, &[version]).await?.is_none() {
                tx.batch_execute(sql).await?;
                let mark = "INSERT INTO bingomint_migrations (version) VALUES ($1)";
                tx.execute(mark, &[version]).await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }

    /// Books a venue (its version as it last said hello).
    pub async fn venue(&self, venue: &str, version: &str) -> Result<(), BooksError> {
        let sql = "INSERT INTO venues (venue, version) VALUES ($1, $2)
                   ON CONFLICT (venue) DO UPDATE SET version = EXCLUDED.version";
        self.client.execute(sql, &[&venue, &version]).await?;
        Ok(())
    }

    /// Books a game and its allotments, once; a game of that id already
    /// booked with another commitment is refused (a second control).
    pub async fn open_game(
        &mut self,
        game: &str,
        (play, stock, currency): (&str, &str, &str),
        commitment: &str,
        venues: &[Allotment],
    ) -> Result<(), BooksError> {
        let tx = self.client.transaction().await?;
        let sql = "INSERT INTO games (game, play, stock, currency, commitment)
                   VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game) DO NOTHING";
        let added = tx
            .execute(sql, &[&game, &play, &stock, &currency, &commitment])
            .await?;
        if added == 0 {
            let row = tx
                .query_one("SELECT commitment FROM games WHERE game = $1", &[&game])
                .await?;
            let booked: String = row.get(0);
            if booked != commitment {
                return Err(BooksError::Conflict(format!(
                    "game {game:?} is already in the books under another commitment: another control opened it"
                )));
            }
        }
        for v in venues {
            for &(a, b) in &v.faces {
                let sql = "INSERT INTO allotments VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING";
                tx.execute(sql, &[&game, &v.venue, &i(a), &i(b)]).await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }

    /// Books a venue's takings for a game, once; a retry that says the
    /// same books nothing, one that says otherwise is refused.
    pub async fn sales(&self, game: &str, t: &Takings) -> Result<(), BooksError> {
        let sql = "INSERT INTO sales (game, venue, faces, amount) VALUES ($1, $2, $3, $4)
                   ON CONFLICT (game, venue) DO NOTHING";
        let args: [&(dyn tokio_postgres::types::ToSql + Sync); 4] =
            [&game, &t.venue, &i(t.faces), &i(t.amount)];
        if self.client.execute(sql, &args).await? == 0 {
            let sql = "SELECT faces, amount FROM sales WHERE game = $1 AND venue = $2";
            let row = self.client.query_one(sql, &[&game, &t.venue]).await?;
            let (faces, amount): (i64, i64) = (row.get(0), row.get(1));
            if (faces, amount) != (i(t.faces), i(t.amount)) {
                return Err(BooksError::Conflict(format!(
                    "venue {:?}'s sales for {game:?} are booked already as {faces} faces, {amount}",
                    t.venue
                )));
            }
        }
        Ok(())
    }

    /// Every venue's takings for a game, by venue.
    pub async fn takings(&self, game: &str) -> Result<Vec<Takings>, BooksError> {
        let sql = "SELECT venue, faces, amount FROM sales WHERE game = $1 ORDER BY venue";
        let rows = self.client.query(sql, &[&game]).await?;
        Ok(rows
            .iter()
            .map(|r| Takings {
                venue: r.get(0),
                faces: r.get::<_, i64>(1) as u64,
                amount: r.get::<_, i64>(2) as u64,
            })
            .collect())
    }

    /// Fixes the prize once, from the booked sales: the amount as fixed
    /// (the first fixing stands).
    pub async fn fix_prize(&self, game: &str, sales: u64, amount: u64) -> Result<u64, BooksError> {
        let sql = "INSERT INTO prizes (game, sales, amount) VALUES ($1, $2, $3)
                   ON CONFLICT (game) DO NOTHING";
        self.client
            .execute(sql, &[&game, &i(sales), &i(amount)])
            .await?;
        let row = self
            .client
            .query_one("SELECT amount FROM prizes WHERE game = $1", &[&game])
            .await?;
        Ok(row.get::<_, i64>(0) as u64)
    }

    /// Books a judged claim once (its key: game, venue, claim number);
    /// whether it was new.
    pub async fn claim(&self, game: &str, c: &Judged) -> Result<bool, BooksError> {
        let sql = "INSERT INTO claims (game, venue, claim, face, call, refused)
                   VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING";
        let call = i16::from(c.call);
        let args: [&(dyn tokio_postgres::types::ToSql + Sync); 6] =
            [&game, &c.venue, &i(c.claim), &i(c.face), &call, &c.refused];
        Ok(self.client.execute(sql, &args).await? == 1)
    }

    /// Settles a game once: `payouts` at `call` (None: unwon). A second
    /// settlement writes nothing; the payouts as booked come back.
    pub async fn settle(
        &mut self,
        game: &str,
        call: Option<u8>,
        payouts: &[Payout],
    ) -> Result<Vec<Payout>, BooksError> {
        let tx = self.client.transaction().await?;
        let call = call.map(i16::from);
        let sql = "INSERT INTO settlements (game, call) VALUES ($1, $2) ON CONFLICT DO NOTHING";
        if tx.execute(sql, &[&game, &call]).await? == 1 {
            for p in payouts {
                let sql = "INSERT INTO payouts VALUES ($1, $2, $3, $4)";
                tx.execute(sql, &[&game, &p.venue, &i(p.face), &i(p.amount)])
                    .await?;
            }
        }
        tx.commit().await?;
        self.payouts(game).await
    }

    /// A game's payouts as booked, by venue and face.
    pub async fn payouts(&self, game: &str) -> Result<Vec<Payout>, BooksError> {
        let sql = "SELECT venue, face, amount FROM payouts WHERE game = $1 ORDER BY venue, face";
        let rows = self.client.query(sql, &[&game]).await?;
        Ok(rows
            .iter()
            .map(|r| Payout {
                venue: r.get(0),
                face: r.get::<_, i64>(1) as u64,
                amount: r.get::<_, i64>(2) as u64,
            })
            .collect())
    }

    /// How many claims are booked for a game.
    pub async fn claims(&self, game: &str) -> Result<u64, BooksError> {
        let sql = "SELECT count(*) FROM claims WHERE game = $1";
        let row = self.client.query_one(sql, &[&game]).await?;
        Ok(row.get::<_, i64>(0) as u64)
    }

    /// The prize as fixed, and whether the game is settled.
    pub async fn state(&self, game: &str) -> Result<(Option<u64>, bool), BooksError> {
        let sql = "SELECT (SELECT amount FROM prizes WHERE game = $1),
                          EXISTS (SELECT 1 FROM settlements WHERE game = $1)";
        let row = self.client.query_one(sql, &[&game]).await?;
        let prize: Option<i64> = row.get(0);
        Ok((prize.map(|p| p as u64), row.get(1)))
    }
}
