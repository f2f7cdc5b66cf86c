//! The rules of Breakthrough and its capture-only variant: positions, moves,
//! FEN, hashing and perft. Nothing here knows about search or protocols.

mod fen;
mod geometry;
mod perft;
mod position;
mod types;
pub(crate) mod zobrist;

pub use fen::FenError;
pub use geometry::{Geometry, MAX_FILES, MAX_RANKS, MIN_FILES, MIN_RANKS};
pub use perft::{perft, perft_divide};
pub use position::{MAX_MOVES, MoveError, MoveList, Position};
pub use types::{Color, Move, Outcome, Square, UnknownVariant, Variant, WinReason};

/// The 8x8 start position's FEN.
pub const START_FEN: &str = "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w - - 0 1";
