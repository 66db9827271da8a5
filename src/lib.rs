//! bingomint: mint millions of unique, fairly drawn bingo cards.
//!
//! The library follows the pipeline's stages: [`seed`] (master seed →
//! per-chunk streams), [`game`] (draw, key, encode, check one card),
//! [`dedup`] (the exact-key set), [`pipeline`] (chunks in parallel, then the
//! deterministic repair of duplicates), [`cardfile`] (the memory-mapped card
//! file, native and v3 layouts) and [`export`] (text renderings).

pub mod boards;
pub mod cardfile;
pub mod dedup;
pub mod export;
pub mod game;
pub mod pipeline;
pub mod seed;
