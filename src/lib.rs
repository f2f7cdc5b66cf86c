//! A Breakthrough engine: rules, search and protocol.

pub mod rules;
pub mod tourney;
