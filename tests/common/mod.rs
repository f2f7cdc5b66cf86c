//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

pub use breakthrough::rng::Rng;
use breakthrough::rulesets::breakthrough::{
    DiagonalStep, Geometry, MAX_FILES, MAX_RANKS, MIN_FILES, MIN_RANKS, Position,
};

/// `tests/data`: everything the tests read (see its README for where each file came from).
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// Every board size paired with both variants.
pub fn all_starts() -> Vec<Position> {
    let mut out = Vec::new();
    for files in MIN_FILES..=MAX_FILES {
        for ranks in MIN_RANKS..=MAX_RANKS {
            for diagonal in [DiagonalStep::Free, DiagonalStep::CaptureOnly] {
                out.push(Position::start(
                    diagonal,
                    Geometry::get(files, ranks).unwrap(),
                ));
            }
        }
    }
    out
}

/// Positions met along random games from every start: a varied sample of real positions.
pub fn random_positions(seed: u64, games_per_start: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for start in all_starts() {
        for _ in 0..games_per_start {
            let mut pos = start;
            loop {
                out.push(pos);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
    }
    out
}
