//! Perft: the number of leaf nodes of the legal-move tree, the standard check of a move generator.
//!
//! A finished game has no moves, so a terminal position counts 0 at every depth >= 1.

use super::geometry::Geometry;
use super::position::{Position, step_targets};
use super::types::DiagonalStep;
use crate::rulesets::common::{Color, Rules};

/// Leaves at `depth` below `pos`, single-threaded.
pub(super) fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        2 => perft2(pos),
        _ => pos
            .legal_moves()
            .iter()
            .map(|&m| perft(&pos.child(m), depth - 1))
            .sum(),
    }
}

/// Leaves two plies below `pos`. Nearly all of perft's time is spent here, so it
/// walks the moves as bitboards and counts each reply set by popcount, without
/// building a child position or updating its hash.
fn perft2(pos: &Position) -> u64 {
    if pos.goal_reached() {
        return 0;
    }
    let us = pos.pawns(pos.side_to_move());
    let them = pos.pawns(pos.side_to_move().opponent());
    match pos.side_to_move() {
        Color::White => perft2_for::<true>(us, them, pos.geometry(), pos.diagonal_step()),
        Color::Black => perft2_for::<false>(us, them, pos.geometry(), pos.diagonal_step()),
    }
}

#[inline(always)]
fn perft2_for<const WHITE: bool>(us: u64, them: u64, g: &Geometry, diagonal: DiagonalStep) -> u64 {
    // A move onto our goal rank ends the game: that child has no replies.
    let goal = g.goal[if WHITE { 0 } else { 1 }];
    // Offsets from target back to origin, per direction of `step_targets`.
    let offsets: [i32; 3] = if WHITE { [-8, -7, -9] } else { [8, 9, 7] };
    let mut total = 0u64;
    for (targets, offset) in step_targets::<WHITE>(us, them, g, diagonal)
        .into_iter()
        .zip(offsets)
    {
        let mut targets = targets & !goal;
        while targets != 0 {
            let to = targets.trailing_zeros() as i32;
            targets &= targets - 1;
            let to_bit = 1u64 << to;
            let from_bit = 1u64 << (to + offset);
            let (them, us) = (them & !to_bit, us ^ from_bit ^ to_bit);
            let replies = if WHITE {
                step_targets::<false>(them, us, g, diagonal)
            } else {
                step_targets::<true>(them, us, g, diagonal)
            };
            total += replies.iter().map(|t| t.count_ones() as u64).sum::<u64>();
        }
    }
    total
}
