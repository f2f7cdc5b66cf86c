//! A Breakthrough engine: the rules of every rule set it plays, a search, the UCI
//! protocol, and the tools around them (perft, bench, a match runner, a solver, the
//! training pipeline, a page to play on).
//!
//! Layers, bottom up (a module uses only those below it; `architecture_tests` checks):
//!
//! 0. `util`: the random number generator, lines in and out, progress bars.
//! 1. `rulesets`: each rule set's rules (`rulesets::*::rules`, which use nothing but
//!    `util::rng` and `rulesets::common`), its evaluations and its search knowledge.
//! 2. `search`: alpha-beta over any rule set, and the mate search behind `go mate`.
//! 3. `solve`: the proof-number solver of Breakthrough's small boards.
//! 4. `registry`: the table of rule sets; positions, moves and games of any of them.
//! 5. `pgn` (game records) and `bench` (the search's signature).
//! 6. `engine` (the facade, its options, the greedy player), `learn` (datagen, data
//!    files, training, tuning), `tourney` (the match runner) and `analyze`.
//! 7. The protocols: `uci` (UCI and UGI on stdin/stdout) and `serve` (the page).
//! 8. `cli`: the command line, a file per subcommand.
//!
//! The public API is the rules (`rulesets`), the registry's uniform view of them
//! (`registry`), PGN reading (`pgn`), the random number generator (`util::rng`) and the
//! command line's entry point ([`cli::main`]); everything else is internal.

pub mod cli;
pub mod pgn;
pub mod registry;
pub mod rulesets;
pub mod util;

mod analyze;
mod bench;
mod engine;
mod learn;
mod search;
#[cfg(feature = "serve")]
mod serve;
mod solve;
mod tourney;
mod uci;

#[cfg(test)]
mod architecture_tests;
