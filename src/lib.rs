//! A Breakthrough engine: the rules of every rule set it plays, a search, the UCI
//! protocol, and the tools around them (perft, bench, a match runner, a tuner).
//!
//! Layers, bottom up (a module uses only those below it; `architecture_tests` checks):
//! `rng`; the rules of each rule set (`rulesets::*::rules`); each rule set's evaluation
//! and its `RuleSet` implementation (`rulesets`); `search`; the registry of rule sets
//! (`variant`) and `pgn`; then `engine` (the facade and its options), `greedy`, `bench`,
//! `tune`, `tourney` (the match runner), `analyze`, the protocol (`uci`), and the command
//! line (`cli`).
//!
//! The public API is the rules (`rulesets`), the registry's uniform view of them
//! (`variant`), PGN reading (`pgn`), the random number generator (`rng`) and the
//! command line's entry point ([`cli::main`]); everything else is internal.

pub mod cli;
pub mod pgn;
pub mod rng;
pub mod rulesets;
pub mod variant;

mod analyze;
mod bench;
mod datafile;
mod datagen;
mod engine;
mod greedy;
mod lines;
mod progress;
mod search;
#[cfg(feature = "serve")]
mod serve;
mod solve;
mod tourney;
mod train;
mod tune;
mod uci;

#[cfg(test)]
mod architecture_tests;
