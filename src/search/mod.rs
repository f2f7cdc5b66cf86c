//! The search: iterative-deepening negamax alpha-beta with principal-variation search,
//! aspiration windows, quiescence, a transposition table shared by all threads, killers
//! and history, and lazy SMP over a rayon pool. Generic over [`Evaluate`]; it never
//! formats protocol text: progress goes out through a callback as [`Info`].
//!
//! This file holds what callers see (limits, control, reports, scores); `root.rs` the
//! iterative deepening and the threads, `node.rs` the search below the root, `mate.rs`
//! the proven search for forced wins behind `go mate`.

pub(crate) mod mate;
mod node;
pub(crate) mod params;
mod root;
pub(crate) mod time;
pub(crate) mod tt;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::rulesets::End;
use params::{CHECK_INTERVAL, MAX_PLY};
use tt::Bound;

pub(crate) use root::Searcher;

/// What one search of a game leaves to the next: each thread's quiet-move history, which
/// orders the next search's moves from its start (docs/results.md, "history kept"). Emptied
/// by `ucinewgame`; a search given none starts from nothing, as `bench` and `datagen` do.
#[derive(Default)]
pub(crate) struct SearchMemory {
    histories: std::sync::Mutex<Vec<Box<node::History>>>,
}

impl SearchMemory {
    pub(crate) fn clear(&self) {
        self.lock().clear();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Box<node::History>>> {
        self.histories.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Score of a won game at the root; a win `n` plies away scores `WIN - n`.
pub(crate) const WIN: i32 = 30_000;
/// Larger than any score.
pub(crate) const INFINITY: i32 = 31_000;
const WIN_BOUND: i32 = WIN - MAX_PLY as i32;

/// A score as the protocol reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Score {
    Centipawns(i32),
    /// Moves (not plies) to the win; negative when the side to move loses. `Mate(0)`: already lost.
    Mate(i32),
}

impl Score {
    pub(crate) fn from_internal(s: i32) -> Score {
        if s >= WIN_BOUND {
            Score::Mate((WIN - s + 1) / 2)
        } else if s <= -WIN_BOUND {
            Score::Mate(-(WIN + s) / 2)
        } else {
            Score::Centipawns(s)
        }
    }
}

/// The score of a finished game at `ply`, from the side to move's view.
pub(crate) fn end_score(end: Option<End>, ply: usize) -> i32 {
    match end {
        Some(End::Drawn) => 0,
        Some(End::Won) => WIN - ply as i32,
        // No move and no recorded end: in Breakthrough, having no move loses.
        Some(End::Lost) | None => -WIN + ply as i32,
    }
}

/// True for scores that mean a forced win or loss.
pub(crate) fn is_decisive(s: i32) -> bool {
    s.abs() >= WIN_BOUND
}

pub(crate) fn score_to_tt(s: i32, ply: usize) -> i16 {
    let s = if s >= WIN_BOUND {
        s + ply as i32
    } else if s <= -WIN_BOUND {
        s - ply as i32
    } else {
        s
    };
    s as i16
}

pub(crate) fn score_from_tt(s: i16, ply: usize) -> i32 {
    let s = s as i32;
    if s >= WIN_BOUND {
        s - ply as i32
    } else if s <= -WIN_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// What a `go` asks for. Time limits live in [`Control`].
#[derive(Clone, Debug)]
pub(crate) struct SearchLimits<M> {
    pub(crate) depth: Option<u32>,
    pub(crate) nodes: Option<u64>,
    /// Stop once a win in at most this many moves is found.
    pub(crate) mate: Option<u32>,
    /// Search only these root moves (empty: all).
    pub(crate) searchmoves: Vec<M>,
    pub(crate) multipv: usize,
}

impl<M> Default for SearchLimits<M> {
    fn default() -> Self {
        SearchLimits {
            depth: None,
            nodes: None,
            mate: None,
            searchmoves: Vec::new(),
            multipv: 1,
        }
    }
}

impl<M> SearchLimits<M> {
    /// The same limits with the root moves converted; moves `f` refuses are dropped.
    pub(crate) fn map_moves<N>(&self, f: impl Fn(&M) -> Option<N>) -> SearchLimits<N> {
        SearchLimits {
            depth: self.depth,
            nodes: self.nodes,
            mate: self.mate,
            searchmoves: self.searchmoves.iter().filter_map(f).collect(),
            multipv: self.multipv,
        }
    }
}

/// What ends a search besides a `stop`: its time, its nodes, and whether it waits for
/// `ponderhit` or `stop` (`go ponder`, `go infinite`). The default has no limit.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Budget {
    /// Don't start another iteration past this.
    pub(crate) soft: Option<Duration>,
    /// Stop searching past this.
    pub(crate) hard: Option<Duration>,
    pub(crate) nodes: Option<u64>,
    /// Time limits wait and the result is held back until released.
    pub(crate) waiting: bool,
}

/// Shared, thread-safe state of one running search: the stop flag, the clock and the node count.
pub(crate) struct Control {
    /// Shared with whoever may stop the search (several searches may share one: `bench`).
    stop: Arc<AtomicBool>,
    /// While set (`go ponder` or `go infinite`), time limits wait and the result is held back.
    waiting: AtomicBool,
    start: Instant,
    /// Don't start another iteration past this.
    soft: Option<Duration>,
    /// Stop searching past this.
    hard: Option<Duration>,
    node_limit: Option<u64>,
    /// Nodes a thread counts between reports (a power of two): [`CHECK_INTERVAL`], or
    /// fewer under a small node limit, which is then kept to within a sixteenth.
    interval: u64,
    nodes: AtomicU64,
    /// Set once the main thread has its answer: helper threads stop then.
    helpers_done: AtomicBool,
}

impl Control {
    /// A search within `budget`, its clock starting now.
    pub(crate) fn new(budget: Budget) -> Control {
        Control {
            stop: Arc::new(AtomicBool::new(false)),
            waiting: AtomicBool::new(budget.waiting),
            start: Instant::now(),
            soft: budget.soft,
            hard: budget.hard,
            node_limit: budget.nodes,
            interval: budget.nodes.map_or(CHECK_INTERVAL, |n| {
                (n / 16).next_power_of_two().clamp(1, CHECK_INTERVAL)
            }),
            nodes: AtomicU64::new(0),
            helpers_done: AtomicBool::new(false),
        }
    }

    /// A search without limits: it ends at its depth or when stopped.
    pub(crate) fn unlimited() -> Control {
        Control::new(Budget::default())
    }

    /// A search without limits that stops when `stop` is set (by [`Control::stop`] of
    /// another control sharing it, for example).
    pub(crate) fn sharing_stop(stop: Arc<AtomicBool>) -> Control {
        Control {
            stop,
            ..Control::unlimited()
        }
    }

    /// The flag that stops this search, to share with another.
    pub(crate) fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Asks the search to finish now; it returns its best move so far.
    pub(crate) fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// `ponderhit`: the clock now counts and the result may be given.
    pub(crate) fn release(&self) {
        self.waiting.store(false, Ordering::Relaxed);
    }

    pub(crate) fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    pub(crate) fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// True while the search may not answer by itself (`go infinite`, or `go ponder` before `ponderhit`).
    pub(crate) fn is_waiting(&self) -> bool {
        self.waiting.load(Ordering::Relaxed)
    }

    /// Counts a thread's node (`nodes` is its count so far, this one included): at every
    /// report interval, adds them to the total and applies the limits.
    #[inline]
    fn count_node(&self, nodes: u64) {
        if nodes & (self.interval - 1) == 0 {
            self.report_nodes(self.interval);
        }
    }

    /// The nodes of a thread's count not yet reported.
    fn unreported(&self, nodes: u64) -> u64 {
        nodes & (self.interval - 1)
    }

    /// Adds a worker's nodes and stops the search if a hard limit is reached.
    fn report_nodes(&self, n: u64) {
        let total = self.nodes.fetch_add(n, Ordering::Relaxed) + n;
        if self.node_limit.is_some_and(|limit| total >= limit) {
            self.stop();
        }
        if !self.is_waiting() && self.hard.is_some_and(|hard| self.elapsed() >= hard) {
            self.stop();
        }
    }

    fn soft_limit_passed(&self, percent: u64) -> bool {
        !self.is_waiting()
            && self.soft.is_some_and(|soft| {
                self.elapsed().as_micros() * 100 >= soft.as_micros() * u128::from(percent)
            })
    }
}

/// One progress report.
#[derive(Clone, Debug)]
pub(crate) struct Info<M> {
    pub(crate) depth: u32,
    pub(crate) seldepth: u32,
    pub(crate) multipv: usize,
    pub(crate) score: Score,
    /// `Some` when an aspiration window failed: the score is only a bound.
    pub(crate) bound: Option<Bound>,
    pub(crate) nodes: u64,
    pub(crate) nps: u64,
    pub(crate) hashfull: u32,
    pub(crate) time: Duration,
    pub(crate) pv: Vec<M>,
}

impl<M: Copy> Info<M> {
    /// The same report with its moves converted.
    pub(crate) fn map_moves<N>(&self, f: impl Fn(M) -> N) -> Info<N> {
        Info {
            depth: self.depth,
            seldepth: self.seldepth,
            multipv: self.multipv,
            score: self.score,
            bound: self.bound,
            nodes: self.nodes,
            nps: self.nps,
            hashfull: self.hashfull,
            time: self.time,
            pv: self.pv.iter().map(|&m| f(m)).collect(),
        }
    }
}

/// The answer of a finished search.
#[derive(Clone, Debug)]
pub(crate) struct SearchResult<M> {
    pub(crate) best: Option<M>,
    pub(crate) ponder: Option<M>,
    /// Internal score of the best move.
    pub(crate) score: i32,
    pub(crate) depth: u32,
    pub(crate) nodes: u64,
    /// What a mate search (`go mate N`) proved when it found no win.
    pub(crate) no_mate: Option<NoMate>,
}

/// A mate search that found no win: proven there is none within `moves` moves, or
/// stopped after proving only that.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoMate {
    Proven { moves: u32 },
    Stopped { moves: u32 },
}

impl<M> SearchResult<M> {
    /// The same answer with its moves converted.
    pub(crate) fn map_moves<N>(self, f: impl Fn(M) -> N) -> SearchResult<N> {
        SearchResult {
            best: self.best.map(&f),
            ponder: self.ponder.map(&f),
            score: self.score,
            depth: self.depth,
            nodes: self.nodes,
            no_mate: self.no_mate,
        }
    }
}

#[cfg(test)]
mod tests;
