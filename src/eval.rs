//! Static evaluation of Breakthrough positions, in centipawns from the side to move's view.
//!
//! The same per-colour term function feeds both the search's `evaluate` and the
//! `eval` command's breakdown, so the two can never disagree.

use crate::params::eval as w;
use crate::rules::{Color, Position};

/// Names of the terms, in the order [`terms`] returns them.
pub const TERM_NAMES: [&str; 5] = [
    "material",
    "advancement",
    "home guard",
    "hanging",
    "defended",
];

/// Squares attacked by `color`'s pawns.
#[inline]
pub fn attacks(pos: &Position, color: Color) -> u64 {
    let g = pos.geometry();
    let p = pos.pawns(color);
    let a = match color {
        Color::White => ((p & g.not_first_file) << 7) | ((p & g.not_last_file) << 9),
        Color::Black => ((p & g.not_first_file) >> 9) | ((p & g.not_last_file) >> 7),
    };
    a & g.board
}

/// One colour's term values, each already weighted.
pub fn terms(pos: &Position, color: Color) -> [i32; 5] {
    let g = pos.geometry();
    let ours = pos.pawns(color);
    let ranks = g.ranks as u32;
    let mut advancement = 0;
    for rank in 0..ranks {
        let on_rank = (ours >> (8 * rank)) & 0xff;
        if on_rank == 0 {
            continue;
        }
        let distance = match color {
            Color::White => ranks - 1 - rank,
            Color::Black => rank,
        } as usize;
        advancement += on_rank.count_ones() as i32 * w::ADVANCE[distance.min(7)];
    }
    let home_rank = g.goal[color.opponent().index()];
    let own_attacks = attacks(pos, color);
    let enemy_attacks = attacks(pos, color.opponent());
    [
        ours.count_ones() as i32 * w::PAWN,
        advancement,
        (ours & home_rank).count_ones() as i32 * w::HOME_GUARD,
        -((ours & enemy_attacks & !own_attacks).count_ones() as i32) * w::HANGING,
        (ours & own_attacks).count_ones() as i32 * w::DEFENDED,
    ]
}

/// The evaluation from the side to move's point of view, tempo included.
pub fn evaluate(pos: &Position) -> i32 {
    let white: i32 = terms(pos, Color::White).iter().sum();
    let black: i32 = terms(pos, Color::Black).iter().sum();
    let white_view = white - black;
    let stm_view = match pos.side_to_move() {
        Color::White => white_view,
        Color::Black => -white_view,
    };
    stm_view + w::TEMPO
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn start_is_balanced_and_symmetric() {
        let pos = Position::startpos(Variant::Breakthrough);
        assert_eq!(evaluate(&pos), w::TEMPO);
        // Mirror: the same structure with colours swapped scores the same for the mover.
        let a = Position::from_fen("8/8/8/3P4/8/8/8/8 w", Variant::Breakthrough).unwrap();
        let b = Position::from_fen("8/8/8/8/3p4/8/8/8 b", Variant::Breakthrough).unwrap();
        assert_eq!(evaluate(&a), evaluate(&b));
        // A more advanced pawn is worth more.
        let c = Position::from_fen("8/8/3P4/8/8/8/8/8 w", Variant::Breakthrough).unwrap();
        assert!(evaluate(&c) > evaluate(&a));
    }
}
