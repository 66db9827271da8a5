//! Renderings of cards for people and for other programs: the boxed text
//! grid of `show`, and the line formats of `export` (txt, csv, jsonl).

pub mod strip;
pub mod text;
