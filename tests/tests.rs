//! Integration tests: the real `bingomint` binary, one module per command,
//! plus property tests of the library's invariants.

mod audit_cmd;
mod boards;
mod browser;
mod browser_items;
mod browser_night;
mod browser_play;
mod common;
mod damage;
mod export;
mod generate;
mod guides;
mod hall;
mod hall_books;
mod hall_hostile;
mod hall_live;
mod hall_night;
mod hall_players;
mod help;
mod help_examples;
mod import;
mod import_hostile;
mod info;
mod items;
mod kill;
mod outcore;
mod play;
mod print;
mod properties;
mod readme;
mod regression;
mod show;
mod stability;
mod strips;
mod us80;
mod verify;
