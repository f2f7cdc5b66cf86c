//! Board sizes and the bit masks that go with them.

/// Smallest and largest supported board sizes.
pub const MIN_FILES: u8 = 3;
pub const MAX_FILES: u8 = 8;
pub const MIN_RANKS: u8 = 4;
pub const MAX_RANKS: u8 = 8;

/// Everything about a board size that move generation needs, precomputed.
#[derive(Debug, PartialEq, Eq)]
pub struct Geometry {
    pub files: u8,
    pub ranks: u8,
    /// Every square on the board.
    pub board: u64,
    /// Board squares not on the a-file (may step toward a lower file).
    pub not_first_file: u64,
    /// Board squares not on the last file (may step toward a higher file).
    pub not_last_file: u64,
    /// The rank each colour must reach, indexed by [`Color::index`](crate::rulesets::common::Color::index).
    pub goal: [u64; 2],
    /// Each colour's two starting ranks.
    pub home: [u64; 2],
    /// Each rank's squares, from the first rank up (empty past the last rank).
    pub rank: [u64; 8],
    /// Squares by distance of their file from the nearer edge file, 0..=3 (3 also
    /// holds the files farther in): the evaluation's file classes.
    pub edge: [u64; 4],
}

const fn rank_mask(files: u8, rank: u8) -> u64 {
    ((1u64 << files) - 1) << (8 * rank as u32)
}

const fn build(files: u8, ranks: u8) -> Geometry {
    let mut board = 0u64;
    let mut first_file = 0u64;
    let mut last_file = 0u64;
    let mut rank = [0u64; 8];
    let mut r = 0;
    while r < ranks {
        rank[r as usize] = rank_mask(files, r);
        board |= rank[r as usize];
        first_file |= 1u64 << (8 * r as u32);
        last_file |= 1u64 << (8 * r as u32 + files as u32 - 1);
        r += 1;
    }
    let mut edge = [0u64; 4];
    let mut f = 0;
    while f < files {
        let near = if f < files - 1 - f { f } else { files - 1 - f };
        let class = if near < 3 { near } else { 3 } as usize;
        let mut r = 0;
        while r < ranks {
            edge[class] |= 1u64 << (8 * r as u32 + f as u32);
            r += 1;
        }
        f += 1;
    }
    Geometry {
        files,
        ranks,
        board,
        not_first_file: board & !first_file,
        not_last_file: board & !last_file,
        goal: [rank_mask(files, ranks - 1), rank_mask(files, 0)],
        home: [
            rank_mask(files, 0) | rank_mask(files, 1),
            rank_mask(files, ranks - 1) | rank_mask(files, ranks - 2),
        ],
        rank,
        edge,
    }
}

const FILE_COUNT: usize = (MAX_FILES - MIN_FILES + 1) as usize;
const RANK_COUNT: usize = (MAX_RANKS - MIN_RANKS + 1) as usize;

static GEOMETRIES: [[Geometry; RANK_COUNT]; FILE_COUNT] = {
    // Written out with const loops because array::from_fn is not const.
    const fn row(files: u8) -> [Geometry; RANK_COUNT] {
        [
            build(files, 4),
            build(files, 5),
            build(files, 6),
            build(files, 7),
            build(files, 8),
        ]
    }
    [row(3), row(4), row(5), row(6), row(7), row(8)]
};

impl Geometry {
    /// The geometry for `files` x `ranks`, or `None` if that size is unsupported.
    pub fn get(files: u8, ranks: u8) -> Option<&'static Geometry> {
        if !(MIN_FILES..=MAX_FILES).contains(&files) || !(MIN_RANKS..=MAX_RANKS).contains(&ranks) {
            return None;
        }
        Some(&GEOMETRIES[(files - MIN_FILES) as usize][(ranks - MIN_RANKS) as usize])
    }

    /// The standard 8x8 board.
    pub fn standard() -> &'static Geometry {
        &GEOMETRIES[FILE_COUNT - 1][RANK_COUNT - 1]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_matches_sizes() {
        for files in MIN_FILES..=MAX_FILES {
            for ranks in MIN_RANKS..=MAX_RANKS {
                let g = Geometry::get(files, ranks).unwrap();
                assert_eq!((g.files, g.ranks), (files, ranks));
                assert_eq!(g.board.count_ones(), files as u32 * ranks as u32);
                assert_eq!(g.goal[0].count_ones(), files as u32);
                assert_eq!(
                    g.not_first_file.count_ones(),
                    (files as u32 - 1) * ranks as u32
                );
            }
        }
        for g in GEOMETRIES.iter().flatten() {
            // Ranks and edge classes each split the board without overlap.
            assert_eq!(g.rank.iter().fold(0, |a, r| a | r), g.board);
            assert_eq!(g.edge.iter().fold(0, |a, e| a | e), g.board);
            let sizes = |m: &[u64]| m.iter().map(|b| b.count_ones()).sum::<u32>();
            assert_eq!(sizes(&g.rank), g.board.count_ones());
            assert_eq!(sizes(&g.edge), g.board.count_ones());
        }
        // On 8 files: a/h, b/g, c/f, d/e.
        let g = Geometry::standard();
        assert_eq!(g.edge[0] & g.rank[0], 0b1000_0001);
        assert_eq!(g.edge[3] & g.rank[0], 0b0001_1000);
        assert!(Geometry::get(2, 5).is_none());
        assert!(Geometry::get(5, 9).is_none());
        assert!(Geometry::get(5, 3).is_none());
    }
}
