//! Every tunable number of the search and the evaluation, in one place.

/// Evaluation weights, in centipawns (a pawn is worth `PAWN`).
pub mod eval {
    /// Material: one pawn.
    pub const PAWN: i32 = 100;
    /// Bonus by distance to the goal rank (index 1 = one step away), on an 8-rank board;
    /// other sizes use the same table by distance.
    pub const ADVANCE: [i32; 8] = [0, 90, 45, 22, 10, 4, 0, 0];
    /// A pawn still on its home rank (guards the goal rank the opponent must reach).
    pub const HOME_GUARD: i32 = 12;
    /// A pawn attacked by an enemy pawn and not defended by one of ours.
    pub const HANGING: i32 = 25;
    /// A pawn defended by one of ours (diagonally behind it).
    pub const DEFENDED: i32 = 6;
    /// Side to move bonus.
    pub const TEMPO: i32 = 10;
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
}

/// Time management.
pub mod time {
    /// Moves assumed to remain when the GUI gives no `movestogo`.
    pub const DEFAULT_MOVES_TO_GO: u64 = 25;
    /// Share of the increment added to each move's budget, in percent.
    pub const INCREMENT_PERCENT: u64 = 80;
    /// Hard limit as a multiple of the soft budget.
    pub const HARD_FACTOR: u64 = 4;
    /// Never plan to use more than this share of the remaining time on one move, in percent.
    pub const MAX_SHARE_PERCENT: u64 = 40;
    /// A new iteration starts only while less than this share of the soft budget is used, in percent.
    pub const NEXT_ITERATION_PERCENT: u64 = 55;
}
