//! bingomint: mint millions of unique, fairly drawn bingo cards.
//!
//! The library follows the pipeline's stages: [`seed`] (master seed →
//! per-chunk streams), [`game`] (each game described once by a `Spec`:
//! draw, key, encode, check and render one card), [`dedup`] (the exact-key
//! set), [`pipeline`] (chunks in parallel, the deterministic repair of
//! duplicates, and the stages built on it: mint a card file, exclude other
//! files' cards, verify a file), [`cardfile`] (the memory-mapped card file,
//! native and v3 layouts, block checksums), [`export`] (cards as text for
//! people and programs), [`print`](mod@print) (press-ready PDF), [`play`] (call
//! orders, win patterns, claims, winners, simulated games) and [`boards`]
//! (objective boards from Lockout goal sets), [`audit`] (the statistical
//! battery test labs run on cards and calls) and [`import`] (other makers'
//! card and ticket files). The library draws no terminal
//! output and knows no command line: the binary's `cmd/` does that.

pub mod audit;
pub mod boards;
pub mod buckets;
pub mod cardfile;
pub mod dedup;
pub mod export;
pub mod game;
pub mod hall;
pub mod import;
pub mod input;
pub mod link;
pub mod pipeline;
pub mod play;
pub mod print;
pub mod seed;
pub mod shown;
pub mod text;
