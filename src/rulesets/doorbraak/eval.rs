//! Static evaluation of Doorbraak positions, linear like the Breakthrough one:
//! features counted ours minus theirs, weights in `super::weights`.
//!
//! The knowledge: stones are material (only explosions capture); advancement pays
//! ever more toward the 7th rank, where stones cannot be captured and from where
//! explosions send stones to the 8th and 9th; a stack is two stones one move from
//! an explosion. Explosion threats are the search's business: explosions are its
//! tactical moves, and immediate wins by explosion are found at every node.

use super::rules::{Color, Position, SQUARES, Square};
use super::weights::{DOORBRAAK, FEATURES};
use crate::rulesets::Rules;
use crate::rulesets::TermGroup;

pub(crate) const STONES: usize = 0;
/// Eight features: stones on relative ranks 1..=8.
pub(crate) const ADVANCE: usize = 1;
pub(crate) const STACKS: usize = 9;
/// Squares of our 8th rank filled to capacity: one more stone from below wins.
pub(crate) const LOADED_EIGHTH: usize = 10;
/// Squares of our 7th rank filled to capacity under a stone of ours on the 8th.
pub(crate) const LOADED_SEVENTH: usize = 11;
pub(crate) const TEMPO: usize = 12;

/// (name, first feature, count) for the `eval` command.
pub(crate) const GROUPS: [TermGroup; 6] = [
    TermGroup::new("stones", STONES, 1),
    TermGroup::new("stones by rank", ADVANCE, 8),
    TermGroup::new("stacks", STACKS, 1),
    TermGroup::new("loaded 8th rank", LOADED_EIGHTH, 1),
    TermGroup::new("loaded 7th rank", LOADED_SEVENTH, 1),
    TermGroup::new("tempo", TEMPO, 1),
];

pub(crate) fn weights() -> &'static [i32; FEATURES] {
    &DOORBRAAK
}

/// Adds `sign` times `color`'s features to `f`.
fn add_side(pos: &Position, color: Color, sign: i32, f: &mut [i32; FEATURES]) {
    let own = pos.occupied_by(color);
    let mut squares = own;
    let stacks = pos.stacks(color);
    while squares != 0 {
        let square = Square::from_index(squares.trailing_zeros() as u8);
        squares &= squares - 1;
        debug_assert!(square.index() < SQUARES);
        let stones = if stacks & square.bit() != 0 { 2 } else { 1 };
        let rank = square.relative_rank(color);
        f[STONES] += sign * stones;
        if rank <= 8 {
            f[ADVANCE + rank as usize - 1] += sign * stones;
        }
        if stones == 2 {
            f[STACKS] += sign;
        }
        if stones as u8 == square.capacity() {
            if rank == 8 {
                f[LOADED_EIGHTH] += sign;
            } else if rank == 7 {
                let forward = if color == Color::White { 1 } else { -1 };
                let ahead = Square::at(square.file() as i8, square.rank() as i8 + forward);
                if ahead.is_some_and(|a| own & a.bit() != 0) {
                    f[LOADED_SEVENTH] += sign;
                }
            }
        }
    }
}

/// The feature vector from the side to move's view.
pub(crate) fn features(pos: &Position) -> [i32; FEATURES] {
    let mut f = [0; FEATURES];
    let us = pos.side_to_move();
    add_side(pos, us, 1, &mut f);
    add_side(pos, us.opponent(), -1, &mut f);
    f[TEMPO] = 1;
    f
}

/// Centipawns from the side to move's view (a stone is worth about 100).
pub(crate) fn evaluate(pos: &Position) -> i32 {
    features(pos)
        .iter()
        .zip(weights())
        .map(|(x, w)| x * w)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_is_balanced_but_for_tempo() {
        assert_eq!(evaluate(&Position::startpos(())), weights()[TEMPO]);
    }

    #[test]
    fn mirror_positions_score_the_same() {
        let a = Position::from_fen("ppppp/ppp1p/5/5/5/1Q3/5/P1PPP/PPPPP w", ()).unwrap();
        let b = Position::from_fen("ppppp/p1ppp/5/1q3/5/5/5/PPP1P/PPPPP b", ()).unwrap();
        assert_eq!(evaluate(&a), evaluate(&b));
        assert!(
            evaluate(&a) > weights()[TEMPO],
            "the advanced stack is worth something"
        );
    }
}
