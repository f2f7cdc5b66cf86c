//! Perft for Doorbraak: leaves of the legal-move tree, passes included. A finished
//! game (by the board: goal, no stones, two passes) has no moves; repetition needs
//! a game's history and is not part of perft.

use rayon::prelude::*;

use super::position::Position;
use super::types::Move;

/// Leaves at `depth` below `pos`, single-threaded.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.legal_moves().len() as u64,
        _ => pos
            .legal_moves()
            .iter()
            .map(|&m| perft(&pos.child(m), depth - 1))
            .sum(),
    }
}

/// Leaves below each root move, in the order of [`Position::legal_moves`], on the
/// current rayon pool.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .par_iter()
        .map(|&m| (m, perft(&pos.child(m), depth - 1)))
        .collect()
}
