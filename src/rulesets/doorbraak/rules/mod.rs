//! The rules of Christiaan Freeling's Doorbraak: a 5x9 board, stones that slide
//! diagonally like bishops, squares with a capacity, and overfull squares that
//! explode in chain reactions. Positions, moves, FEN, hashing and perft. The bottom
//! layer, as the Breakthrough rules: it depends on `crate::rulesets::common` and
//! `crate::util::rng` only. The rules are documented in `engine.md`.

mod fen;
mod perft;
mod position;
mod types;

pub use crate::rulesets::common::{Color, EndReason, Outcome, Rules, SearchRules};
pub use fen::FenError;
pub use position::{MAX_MOVES, MoveError, MoveList, Position};
pub use types::{FILES, Move, RANKS, SQUARES, Square};

/// The start position's FEN.
pub const START_FEN: &str = "ppppp/ppppp/5/5/5/5/5/PPPPP/PPPPP w 0";
