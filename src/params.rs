//! Every tunable number of the search and the evaluation, in one place.

/// Evaluation weights, in centipawns, one per feature of `crate::eval::FEATURE_NAMES`
/// (a pawn is worth about 100). One table per rule set. The blocks between the
/// BEGIN/END markers are written by `breakthrough tune --write` (see engine.md).
pub mod eval {
    pub const FEATURES: usize = 57;

    // BEGIN TUNED breakthrough
    pub const BREAKTHROUGH: [i32; FEATURES] = [
        190, 190, 190, 190, 259, 196, 242, 247, 193, 187, 208, 216, 132, 149, 157, 163, 116, 135,
        133, 145, 104, 119, 128, 136, 90, 118, 120, 110, 2, 30, 32, 22, -6, -1, 154, 2, 0, 1979,
        -1980, 228, 33, 12, -1, -10, 443, -72, 0, 1, 1, 2, -1, -3, -3, 5, -7, 22, -39,
    ];
    // END TUNED breakthrough

    // BEGIN TUNED capture-only
    pub const CAPTURE_ONLY: [i32; FEATURES] = [
        189, 65, 89, 179, 124, 131, 141, 183, 131, 159, 177, 175, 94, 128, 132, 147, 60, 119, 126,
        128, 79, 139, 131, 142, 101, 101, 100, 120, 13, 13, 12, 32, 0, 9, 167, 29, -8, 2325, -2048,
        590, 9, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ];
    // END TUNED capture-only

    // Doorbraak, one weight per feature of `crate::eval::doorbraak`: stones, stones on
    // relative ranks 1..=8, stacks, loaded 8th and 7th rank squares, tempo.
    // BEGIN TUNED doorbraak
    pub const DOORBRAAK: [i32; crate::eval::doorbraak::FEATURES] =
        [89, -42, -28, 11, 37, 61, 80, 78, 86, 59, 73, -6, 33];
    // END TUNED doorbraak
}

/// Search parameters.
pub mod search {
    /// Deepest ply the search reaches (also the mate-distance horizon).
    pub const MAX_PLY: usize = 128;
    /// First aspiration half-window, in centipawns, from this depth on.
    pub const ASPIRATION_DEPTH: u32 = 4;
    pub const ASPIRATION_WINDOW: i32 = 40;
    /// Nodes between checks of the clock, node limit and stop flag.
    pub const CHECK_INTERVAL: u64 = 1024;
    /// Plies added when the opponent threatens to win next move (like a check extension).
    pub const THREAT_EXTENSION: i32 = 1;
    /// Quiet steps to within this many steps of the goal are never reduced or pruned.
    pub const APPROACH_STEPS: u8 = 2;
    /// Reverse futility pruning: up to this depth, a static eval this far above beta per ply cuts.
    pub const RFP_DEPTH: i32 = 6;
    pub const RFP_MARGIN: i32 = 90;
    /// Null-move pruning from this depth; reduction `NULL_BASE + depth / NULL_DIVISOR`.
    pub const NULL_MIN_DEPTH: i32 = 3;
    pub const NULL_BASE: i32 = 2;
    pub const NULL_DIVISOR: i32 = 4;
    /// Late-move reductions: from this depth and move number, `LMR_BASE + ln(d) ln(i) / LMR_DIVISOR`.
    pub const LMR_MIN_DEPTH: i32 = 3;
    pub const LMR_MIN_MOVE: usize = 3;
    pub const LMR_BASE: f64 = 0.75;
    pub const LMR_DIVISOR: f64 = 1.5;
    /// Internal iterative reduction: a node this deep without a table move loses a ply.
    pub const IIR_MIN_DEPTH: i32 = 5;
    /// Futility pruning: up to this depth, quiet moves are skipped when the static
    /// evaluation plus this margin per ply cannot reach alpha.
    pub const FUTILITY_DEPTH: i32 = 3;
    pub const FUTILITY_MARGIN: i32 = 120;
    /// Late-move pruning: at depth d, quiet moves past `LMP_BASE + d * d` are skipped.
    pub const LMP_MAX_DEPTH: i32 = 4;
    pub const LMP_BASE: usize = 4;
}

/// Time management.
pub mod time {
    /// Without `movestogo`, the moves assumed to remain are `GAME_MOVES` less the moves the
    /// side to move has played in this game, but never fewer than `MIN_MOVES_TO_GO`: a
    /// Breakthrough game lasts about 35 moves a side, and the middle game decides it.
    pub const GAME_MOVES: u64 = 35;
    pub const MIN_MOVES_TO_GO: u64 = 10;
    /// Share of the increment added to each move's budget, in percent.
    pub const INCREMENT_PERCENT: u64 = 80;
    /// Hard limit as a multiple of the soft budget.
    pub const HARD_FACTOR: u64 = 4;
    /// Never plan to use more than this share of the remaining time on one move, in percent.
    pub const MAX_SHARE_PERCENT: u64 = 40;
    /// A new iteration starts only while less than this share of the soft budget is used, in percent.
    pub const NEXT_ITERATION_PERCENT: u64 = 55;
    /// From this depth, the share above is scaled by how settled the root is: by
    /// `BEST_CHANGED_PERCENT` when the best move just changed, by `STABLE_PERCENT` once it
    /// has held for `STABLE_ITERATIONS` iterations, and by `SCORE_DROP_PERCENT` when the
    /// score fell by `SCORE_DROP` centipawns or more since the last iteration.
    pub const STABILITY_MIN_DEPTH: u32 = 6;
    pub const BEST_CHANGED_PERCENT: u64 = 160;
    pub const STABLE_ITERATIONS: u32 = 4;
    pub const STABLE_PERCENT: u64 = 70;
    pub const SCORE_DROP: i32 = 30;
    pub const SCORE_DROP_PERCENT: u64 = 140;
}
