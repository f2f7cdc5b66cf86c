//! Where the engine enters the search and perft with a rule set's own position type.

use rayon::prelude::*;

use super::position::{Inner, each};
use super::{AnyMove, AnyPosition};
use crate::rulesets::{Evaluate, MoveOf, Rules};
use crate::search::tt::TranspositionTable;
use crate::search::{Control, Info, SearchLimits, SearchMemory, SearchResult, Searcher, mate};

/// What a search needs besides the position and its limits.
pub(crate) struct SearchSetup<'a> {
    pub(crate) control: &'a Control,
    pub(crate) tt: &'a TranspositionTable,
    pub(crate) threads: usize,
    /// Hashes of the game's positions before the root, oldest first.
    pub(crate) earlier: &'a [u64],
    /// What the last search of this game left for this one (`None`: start afresh).
    pub(crate) memory: Option<&'a SearchMemory>,
}

impl AnyPosition {
    /// Searches this position with the search built for its rule set (on the current
    /// rayon pool when more than one thread is asked for).
    pub(crate) fn search(
        &self,
        limits: &SearchLimits<AnyMove>,
        setup: &SearchSetup,
        on_info: &(dyn Fn(&Info<AnyMove>) + Sync),
    ) -> SearchResult<AnyMove> {
        let codes = limits.map_moves(|m| (m.variant == self.variant).then_some(m.code));
        let report = |info: &Info<u16>| on_info(&info.map_moves(|c| self.wrap(c)));
        let result = each!(&self.inner, p => search(p, &codes, setup, &report));
        result.map_moves(|c| self.wrap(c))
    }

    /// Leaves below each legal move at `depth`, on the current rayon pool, calling
    /// `counted` as each root move's count is done, until `stop` says to give up (the
    /// counts are then meaningless).
    pub(crate) fn perft_divide(
        &self,
        depth: u32,
        stop: &(dyn Fn() -> bool + Sync),
        counted: &(dyn Fn() + Sync),
    ) -> Vec<(AnyMove, u64)> {
        if depth == 0 {
            return Vec::new();
        }
        let counts = each!(&self.inner, p => divide(p.rules(), depth, stop, counted));
        counts.into_iter().map(|(c, n)| (self.wrap(c), n)).collect()
    }
}

fn search<P: Evaluate>(
    pos: &P,
    limits: &SearchLimits<u16>,
    setup: &SearchSetup,
    on_info: &(dyn Fn(&Info<u16>) + Sync),
) -> SearchResult<u16> {
    let limits = limits.map_moves(|&code| P::Rules::decode(code));
    let report = |info: &Info<MoveOf<P>>| on_info(&info.map_moves(P::Rules::encode));
    let (control, tt, threads) = (setup.control, setup.tt, setup.threads);
    let result = if limits.mate.is_some() {
        mate::search(*pos, &limits, control, tt, threads, setup.earlier, &report)
    } else {
        Searcher::new(*pos, &limits, control, tt, threads, &report)
            .with_game_history(setup.earlier)
            .with_memory(setup.memory)
            .run()
    };
    result.map_moves(P::Rules::encode)
}

fn divide<R: Rules>(
    pos: &R,
    depth: u32,
    stop: &(dyn Fn() -> bool + Sync),
    counted: &(dyn Fn() + Sync),
) -> Vec<(u16, u64)> {
    pos.legal_moves()
        .par_iter()
        .map(|&m| {
            let count = split_perft(&child(pos, m), depth - 1, stop);
            counted();
            (R::encode(m), count)
        })
        .collect()
}

fn child<R: Rules>(pos: &R, m: R::Move) -> R {
    let mut next = *pos;
    next.play(m);
    next
}

/// Plies below which perft runs sequentially: such a task takes a few milliseconds, so
/// `stop` and `quit` are answered at once even on a loaded machine.
const SEQUENTIAL_PLIES: u32 = 4;

/// Perft of `pos` at `depth` split into tasks on the current rayon pool, so the threads
/// stay busy even when subtrees differ in size; each task first asks `stop`.
fn split_perft<R: Rules>(pos: &R, depth: u32, stop: &(dyn Fn() -> bool + Sync)) -> u64 {
    if stop() {
        return 0;
    }
    if depth <= SEQUENTIAL_PLIES {
        return pos.perft(depth);
    }
    pos.legal_moves()
        .par_iter()
        .map(|&m| split_perft(&child(pos, m), depth - 1, stop))
        .sum()
}
