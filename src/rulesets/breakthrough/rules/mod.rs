//! The rules of Breakthrough and its capture-only variant: positions, moves, FEN,
//! hashing and perft. The bottom layer: nothing here knows about evaluation, search or
//! protocols, and nothing here depends on anything but `crate::rulesets::common` and
//! `crate::util::rng`.

mod fen;
mod geometry;
mod perft;
mod position;
mod types;
mod zobrist;

pub use crate::rulesets::common::{Color, EndReason, Outcome, Rules, SearchRules};
pub use fen::FenError;
pub use geometry::{Geometry, MAX_FILES, MAX_RANKS, MIN_FILES, MIN_RANKS};
pub use position::{MAX_MOVES, MoveError, MoveList, Position, mirror_files};
pub use types::{DiagonalStep, Move, Square};

/// The 8x8 start position's FEN.
pub const START_FEN: &str = "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w - - 0 1";
