//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

use breakthrough::rules::{
    Geometry, MAX_FILES, MAX_RANKS, MIN_FILES, MIN_RANKS, Position, Variant,
};

/// `tests/data`: everything the tests read (see its README for where each file came from).
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// A small deterministic generator (xorshift64*), so tests need no crate and repeat exactly.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Every board size paired with both variants.
pub fn all_starts() -> Vec<Position> {
    let mut out = Vec::new();
    for files in MIN_FILES..=MAX_FILES {
        for ranks in MIN_RANKS..=MAX_RANKS {
            for variant in Variant::ALL {
                out.push(Position::start(
                    variant,
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
