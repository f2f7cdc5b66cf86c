//! Zobrist keys, generated at compile time so hashes are the same on every machine.

use crate::util::rng::splitmix64;

struct Keys {
    pawn: [[u64; 64]; 2],
    black_to_move: u64,
    /// One key per board size (`files * 16 + ranks`), so equal placements on
    /// different boards hash differently.
    size: [u64; 256],
}

const KEYS: Keys = {
    let mut state = 0x4272_6561_6b74_6872; // "Breakthr"
    let mut pawn = [[0u64; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 64 {
            let (next, key) = splitmix64(state);
            state = next;
            pawn[c][s] = key;
            s += 1;
        }
        c += 1;
    }
    let (next, black_to_move) = splitmix64(state);
    state = next;
    let mut size = [0u64; 256];
    let mut i = 0;
    while i < 256 {
        let (next, key) = splitmix64(state);
        state = next;
        size[i] = key;
        i += 1;
    }
    Keys {
        pawn,
        black_to_move,
        size,
    }
};

#[inline]
pub(super) fn pawn_key(color: usize, square: usize) -> u64 {
    KEYS.pawn[color][square]
}

#[inline]
pub(super) fn black_to_move_key() -> u64 {
    KEYS.black_to_move
}

#[inline]
pub(super) fn size_key(files: u8, ranks: u8) -> u64 {
    KEYS.size[(files as usize) * 16 + ranks as usize]
}
