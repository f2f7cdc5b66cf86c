//! Perft for Doorbraak: leaves of the legal-move tree, passes included. A finished
//! game (by the board: goal, no stones, two passes) has no moves; repetition needs
//! a game's history and is not part of perft.

use super::position::Position;
use crate::rulesets::common::Rules;

/// Leaves at `depth` below `pos`, single-threaded.
pub(super) fn perft(pos: &Position, depth: u32) -> u64 {
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
