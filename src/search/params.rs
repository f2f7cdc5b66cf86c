//! Every tunable number of the search and the clock, in one place. (The evaluation's
//! weights live with each rule set: `crate::rulesets::*/weights.rs`.)

// Search.
/// Deepest ply the search reaches (also the mate-distance horizon).
pub(crate) const MAX_PLY: usize = 128;
/// Aspiration windows from this depth on.
pub(crate) const ASPIRATION_DEPTH: u32 = 4;
/// The first aspiration half-window, in centipawns.
pub(crate) const ASPIRATION_WINDOW: i32 = 40;
/// Nodes between checks of the clock, node limit and stop flag.
pub(crate) const CHECK_INTERVAL: u64 = 1024;
/// Plies added when the opponent threatens to win next move (like a check extension).
pub(crate) const THREAT_EXTENSION: i32 = 1;
/// Quiet steps to within this many steps of the goal are never reduced or pruned.
pub(crate) const APPROACH_STEPS: u8 = 2;
/// Reverse futility pruning: up to this depth, a static eval this far above beta per ply cuts.
pub(crate) const RFP_DEPTH: i32 = 6;
pub(crate) const RFP_MARGIN: i32 = 90;
/// Null-move pruning from this depth; reduction `NULL_BASE + depth / NULL_DIVISOR`.
pub(crate) const NULL_MIN_DEPTH: i32 = 3;
pub(crate) const NULL_BASE: i32 = 2;
pub(crate) const NULL_DIVISOR: i32 = 4;
/// Late-move reductions: from this depth and move number, `LMR_BASE + ln(d) ln(i) / LMR_DIVISOR`.
pub(crate) const LMR_MIN_DEPTH: i32 = 3;
pub(crate) const LMR_MIN_MOVE: usize = 3;
pub(crate) const LMR_BASE: f64 = 0.75;
pub(crate) const LMR_DIVISOR: f64 = 1.5;
/// Internal iterative reduction: a node this deep without a table move loses a ply.
pub(crate) const IIR_MIN_DEPTH: i32 = 5;
/// Singular extensions: from this depth, the table's move is searched a ply deeper when
/// every other move scores this much per ply below the table's score.
pub(crate) const SINGULAR_MIN_DEPTH: i32 = 6;
pub(crate) const SINGULAR_MARGIN: i32 = 2;
/// Futility pruning: up to this depth, quiet moves are skipped when the static
/// evaluation plus this margin per ply cannot reach alpha.
pub(crate) const FUTILITY_DEPTH: i32 = 3;
pub(crate) const FUTILITY_MARGIN: i32 = 120;
/// Late-move pruning: at depth d, quiet moves past `LMP_BASE + d * d` are skipped.
pub(crate) const LMP_MAX_DEPTH: i32 = 4;
pub(crate) const LMP_BASE: usize = 4;

// Time management.
/// Without `movestogo`, the moves assumed to remain are `GAME_MOVES` less the moves the
/// side to move has played in this game, but never fewer than `MIN_MOVES_TO_GO`: a
/// Breakthrough game lasts about 35 moves a side, and the middle game decides it. With
/// 35 and 10, a median quarter of the clock was still left when games were decided at
/// 1 s + 0.01 s (docs/results.md, "time use"); 32 and 6 spend about half of it.
pub(crate) const GAME_MOVES: u64 = 32;
pub(crate) const MIN_MOVES_TO_GO: u64 = 6;
/// Share of the increment added to each move's budget, in percent.
pub(crate) const INCREMENT_PERCENT: u64 = 80;
/// Hard limit as a multiple of the soft budget.
pub(crate) const HARD_FACTOR: u64 = 4;
/// Never plan to use more than this share of the remaining time on one move, in percent.
pub(crate) const MAX_SHARE_PERCENT: u64 = 40;
/// A new iteration starts only while less than this share of the soft budget is used, in percent.
pub(crate) const NEXT_ITERATION_PERCENT: u64 = 55;
/// From this depth, the share above is scaled by how settled the root is: by
/// `BEST_CHANGED_PERCENT` when the best move just changed, by `STABLE_PERCENT` once it
/// has held for `STABLE_ITERATIONS` iterations, and by `SCORE_DROP_PERCENT` when the
/// score fell by `SCORE_DROP` centipawns or more since the last iteration.
pub(crate) const STABILITY_MIN_DEPTH: u32 = 6;
pub(crate) const BEST_CHANGED_PERCENT: u64 = 160;
pub(crate) const STABLE_ITERATIONS: u32 = 4;
pub(crate) const STABLE_PERCENT: u64 = 70;
pub(crate) const SCORE_DROP: i32 = 30;
pub(crate) const SCORE_DROP_PERCENT: u64 = 140;
