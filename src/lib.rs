//! A Breakthrough engine: rules, search and protocol.

pub mod bench;
pub mod doorbraak;
pub mod engine;
pub mod eval;
pub mod game;
pub mod greedy;
pub mod lines;
pub mod params;
pub mod rules;
pub mod search;
pub mod tourney;
pub mod tune;
pub mod uci;
pub mod variant;
