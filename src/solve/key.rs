//! The solver's table keys: one key for a position and its mirror image (reflected
//! across the middle file), which have the same value since the rules are symmetric. A
//! position whose mirror image is met later finds the entry already there, and a symmetric
//! position's twin moves are searched once.
//!
//! The orientation the table keeps is that of the image with the smaller hash; a winning
//! move is stored in it and turned back on reading ([`Key::orient`]).

use crate::rulesets::Rules;
use crate::rulesets::breakthrough::{Color, DiagonalStep, Move, Position, mirror_files};

/// Where a position's entry lives, and how to turn its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Key {
    pub(crate) hash: u64,
    /// The board's files when the position is the mirror image of the orientation the
    /// table keeps; 0 when it is that orientation.
    mirror_files: u8,
}

/// A bijective mixer of 64 bits (the splitmix64 finaliser): nearby inputs spread apart.
#[inline]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// A hash of the pawns with `salt` (board, rule set, side to move). For one salt, equal
/// hashes need `white ^ mix(black ^ salt)` equal twice over, which for different pawns
/// is a 2^-64 accident: `mix` is a bijection.
#[inline]
fn hash(white: u64, black: u64, salt: u64) -> u64 {
    mix(white ^ mix(black ^ salt))
}

impl Key {
    /// The key of `pos`, shared with its mirror image.
    #[inline]
    pub(crate) fn of(pos: &Position) -> Key {
        let files = pos.files();
        let salt = u64::from(files) << 8
            | u64::from(pos.ranks()) << 4
            | u64::from(pos.diagonal_step() == DiagonalStep::CaptureOnly) << 1
            | u64::from(pos.side_to_move() == Color::Black);
        let (white, black) = (pos.pawns(Color::White), pos.pawns(Color::Black));
        let direct = hash(white, black, salt);
        let mirrored = hash(mirror_files(white, files), mirror_files(black, files), salt);
        if mirrored < direct {
            Key {
                hash: mirrored,
                mirror_files: files,
            }
        } else {
            Key {
                hash: direct,
                mirror_files: 0,
            }
        }
    }

    /// A key of a bare hash, in the table's orientation (a saved table's entries, the
    /// table's tests).
    pub(crate) fn from_hash(hash: u64) -> Key {
        Key {
            hash,
            mirror_files: 0,
        }
    }

    /// A move's bits (`Move::to_bits`, 0 for none) turned between the position's
    /// orientation and the table's: the same turn both ways.
    #[inline]
    pub(crate) fn orient(self, bits: u16) -> u16 {
        match (self.mirror_files, Move::from_bits(bits)) {
            (0, _) | (_, None) => bits,
            (files, Some(m)) => m.mirrored(files).to_bits(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::breakthrough::Geometry;

    #[test]
    fn a_position_and_its_mirror_image_share_a_key() {
        let pos = Position::from_fen("5/1p3/2p2/P4/1P3 w", DiagonalStep::Free).unwrap();
        let image = pos.mirrored();
        let (a, b) = (Key::of(&pos), Key::of(&image));
        assert_eq!(a.hash, b.hash);
        assert_ne!(a.mirror_files, b.mirror_files, "one of the two is turned");
        // A move stored from one orientation reads as its mirror in the other.
        let m = pos.parse_move("b1c2").unwrap();
        let stored = a.orient(m.to_bits());
        assert_eq!(Move::from_bits(b.orient(stored)), Some(m.mirrored(5)));
        assert_eq!(a.orient(stored), m.to_bits());
        assert_eq!(a.orient(0), 0);
        // Anything else tells the positions apart: side, rule set, board.
        let black = Position::from_fen("5/1p3/2p2/P4/1P3 b", DiagonalStep::Free).unwrap();
        let capture = Position::from_fen("5/1p3/2p2/P4/1P3 w", DiagonalStep::CaptureOnly);
        let wider = Position::from_fen("6/1p4/2p3/P5/1P4 w", DiagonalStep::Free).unwrap();
        for other in [black, capture.unwrap(), wider] {
            assert_ne!(Key::of(&other).hash, a.hash, "{other:?}");
        }
    }

    #[test]
    fn keys_differ_along_games() {
        // Every position of a few thousand random plies on 5x5 and 8x8 against each other:
        // equal keys only for equal positions up to mirroring.
        let mut seen = std::collections::HashMap::new();
        let mut rng = crate::util::rng::Rng::new(7);
        for geometry in [Geometry::get(5, 5).unwrap(), Geometry::standard()] {
            for _ in 0..200 {
                let mut pos = Position::start(DiagonalStep::Free, geometry);
                while pos.outcome().is_none() {
                    let canonical = pos.to_fen().min(pos.mirrored().to_fen());
                    let known = seen.entry(Key::of(&pos).hash).or_insert(canonical.clone());
                    assert_eq!(*known, canonical);
                    let moves = pos.legal_moves();
                    pos.play(moves.as_slice()[rng.below(moves.len())]);
                }
            }
        }
    }
}
