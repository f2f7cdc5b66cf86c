//! The solver in `go`: small boards are proven before they are searched.
//!
//! Before searching, `go` lets the solver try to prove the position (a quarter of the
//! move's time at most, so the search keeps most of it when no proof comes). A proven win is played, with `score mate N` where N is the most moves the
//! loser can last against the proven strategy, checked with the rules; anything else (a
//! proven loss, no proof in time) leaves the move to the search. The solver's table
//! ([`SOLVER_TABLE_MB`]) lives as long as the engine's rule set and `Hash`, so what it
//! proved on one move is known at once on the next.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::registry::{AnyMove, AnyPosition, Provable};
use crate::search::{Control, Info, Score, SearchResult, WIN};
use crate::solve::{SolveSettings, Table};

/// Boards of at most this many squares go to the solver first (6x5 and 5x6 and below).
pub(super) const SOLVER_SQUARES: u32 = 30;

/// The solver's table in MB, at most (less when `Hash` is less): made on the command
/// thread at the first small-board `go`, so it must be quick to set up (64 MB took 0.03 s
/// here, 1 GB 0.5 s), and a game's proofs from the middle on fit in it.
pub(super) const SOLVER_TABLE_MB: u64 = 128;

/// The solver's part of one `go`.
pub(super) struct SolverTry {
    pub(super) table: Arc<Table>,
    pub(super) position: Provable,
    pub(super) budget: Duration,
    /// When the move must be played: measuring a proven win's length stops there.
    pub(super) deadline: Option<Instant>,
    pub(super) threads: usize,
}

/// The solver's view of `root`, if its rule set has the solver and its board is small.
pub(super) fn solver_position(root: &AnyPosition) -> Option<Provable> {
    let (files, ranks) = root.board_size();
    if u32::from(files) * u32::from(ranks) > SOLVER_SQUARES {
        return None;
    }
    root.provable()
}

/// What the solver found for the side to move.
pub(super) enum Proven {
    /// A win, and how long it takes at most: the answer.
    Win(SearchResult<AnyMove>),
    /// A winning move whose length was not measured in time: the search plays it.
    WinningMove(AnyMove),
    /// Nothing that decides the move.
    Nothing,
}

/// Tries to prove the side to move wins within the budget.
pub(super) fn prove(
    root: &AnyPosition,
    attempt: &SolverTry,
    control: &Control,
    on_info: &(dyn Fn(&Info<AnyMove>) + Sync),
) -> Proven {
    let settings = SolveSettings {
        threads: attempt.threads,
        hash_megabytes: None,
        time_limit: Some(attempt.budget),
        all_moves: false,
        certificate: false,
        progress: false,
        table_file: None,
    };
    let stop = control.stop_flag();
    let solution = match attempt.position.solve_in(&attempt.table, &settings, &stop) {
        Ok(s) => s,
        Err(e) => {
            log::warn!("solver: {e}");
            return Proven::Nothing;
        }
    };
    let us = root.side_to_move();
    match solution.winner {
        Some(w) if w == us => {}
        Some(_) => {
            log::info!("solver: the side to move loses ({} nodes)", solution.nodes);
            return Proven::Nothing;
        }
        None => return Proven::Nothing,
    }
    let Some(best) = solution.best else {
        return Proven::Nothing;
    };
    let Some(plies) = attempt
        .position
        .longest_line(&attempt.table, us, &stop, attempt.deadline)
    else {
        return Proven::WinningMove(best);
    };
    // The winner moves first and last: (plies + 1) / 2 of its moves.
    let moves = plies.div_ceil(2).max(1);
    let time = control.elapsed();
    log::info!(
        "solver: {best} wins within {moves} moves ({} nodes, {:.3} s)",
        solution.nodes,
        time.as_secs_f64()
    );
    on_info(&Info {
        depth: plies,
        seldepth: plies,
        multipv: 1,
        score: Score::Mate(moves as i32),
        bound: None,
        nodes: solution.nodes,
        nps: (solution.nodes as f64 / time.as_secs_f64().max(1e-6)) as u64,
        hashfull: 0,
        time,
        pv: vec![best],
    });
    Proven::Win(SearchResult {
        best: Some(best),
        ponder: None,
        score: WIN - (2 * moves - 1) as i32,
        depth: plies,
        nodes: solution.nodes,
        no_mate: None,
    })
}
