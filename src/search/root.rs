//! The root of the search: iterative deepening with aspiration windows and MultiPV,
//! lazy SMP helper threads, progress reports, and the answer.

use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::time::Duration;

use super::node::{Shared, Worker};
use super::params::*;
use super::tt::{Bound, TranspositionTable};
use super::{
    Control, INFINITY, Info, Score, SearchLimits, SearchMemory, SearchResult, WIN, end_score,
    is_decisive, time,
};
use crate::rulesets::{Evaluate, MoveOf, Rules};

struct RootMove<M> {
    m: M,
    score: i32,
    pv: Vec<M>,
}

/// How a root move is searched: with the whole window (the first move), or first with a
/// null window that only a better move fails high on (principal-variation search).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Window {
    Whole,
    Scout,
}

/// A search over one root position, run with [`Searcher::run`].
pub(crate) struct Searcher<'a, P: Evaluate> {
    root: P,
    limits: &'a SearchLimits<MoveOf<P>>,
    shared: Shared<'a>,
    workers: Vec<Mutex<Worker<P>>>,
    threads: usize,
    on_info: &'a (dyn Fn(&Info<MoveOf<P>>) + Sync),
    /// Where the workers' histories come from and go back to, if anywhere.
    memory: Option<&'a SearchMemory>,
}

impl<'a, P: Evaluate> Searcher<'a, P> {
    pub(crate) fn new(
        root: P,
        limits: &'a SearchLimits<MoveOf<P>>,
        control: &'a Control,
        tt: &'a TranspositionTable,
        threads: usize,
        on_info: &'a (dyn Fn(&Info<MoveOf<P>>) + Sync),
    ) -> Self {
        let threads = threads.max(1);
        Searcher {
            root,
            limits,
            shared: Shared {
                control,
                tt,
                is_helper: false,
            },
            workers: (0..threads)
                .map(|_| Mutex::new(Worker::new(&root)))
                .collect(),
            threads,
            on_info,
            memory: None,
        }
    }

    /// Starts each worker from the history its thread's last search of the game left in
    /// `memory`, and leaves this search's there when it ends.
    pub(crate) fn with_memory(mut self, memory: Option<&'a SearchMemory>) -> Self {
        if let Some(memory) = memory {
            for (w, earlier) in self.workers.iter_mut().zip(memory.lock().iter()) {
                w.get_mut()
                    .unwrap_or_else(|e| e.into_inner())
                    .recall(earlier);
            }
        }
        self.memory = memory;
        self
    }

    fn remember(&self) {
        if let Some(memory) = self.memory {
            let mut kept = memory.lock();
            kept.clear();
            for w in &self.workers {
                kept.push(Box::new(
                    *w.lock().unwrap_or_else(|e| e.into_inner()).history(),
                ));
            }
        }
    }

    /// Tells the search which positions the game went through before the root, so
    /// it scores a return to one of them as a draw.
    pub(crate) fn with_game_history(mut self, game: &[u64]) -> Self {
        if P::Rules::CAN_REPEAT {
            for w in &mut self.workers {
                w.get_mut()
                    .unwrap_or_else(|e| e.into_inner())
                    .set_game(&self.root, game);
            }
        }
        self
    }

    /// The main thread's worker.
    fn worker(&self) -> std::sync::MutexGuard<'_, Worker<P>> {
        self.workers[0].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Searches one root move with the window (alpha, beta), whole or by PVS; returns
    /// the score and the line it found.
    fn search_root_move(
        &self,
        m: MoveOf<P>,
        depth: i32,
        alpha: i32,
        beta: i32,
        window: Window,
    ) -> (i32, Vec<MoveOf<P>>) {
        let mut child = self.root;
        child.play(m);
        let mut w = self.worker();
        let score = if window == Window::Whole {
            -w.negamax(&self.shared, &child, depth - 1, 1, -beta, -alpha)
        } else {
            let s = -w.negamax(&self.shared, &child, depth - 1, 1, -alpha - 1, -alpha);
            if s > alpha && s < beta {
                -w.negamax(&self.shared, &child, depth - 1, 1, -beta, -alpha)
            } else {
                s
            }
        };
        let mut line = vec![m];
        line.extend_from_slice(&w.pv[1]);
        (score, line)
    }

    /// One pass over `moves` at `depth` with the window (alpha, beta): the first move
    /// with the full window, the rest by PVS. Returns the best score; each root move's
    /// `score` is exact if it beat alpha, else `-INFINITY`.
    fn search_root(
        &self,
        moves: &mut [RootMove<MoveOf<P>>],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let Some(first) = moves.first_mut() else {
            return -INFINITY;
        };
        let (score, line) = self.search_root_move(first.m, depth, alpha, beta, Window::Whole);
        if self.shared.stopped() {
            return -INFINITY;
        }
        first.score = if score > alpha { score } else { -INFINITY };
        if score > alpha {
            first.pv = line;
        }
        let mut best = score;
        alpha = alpha.max(score);
        if score >= beta {
            return best;
        }
        for rm in moves[1..].iter_mut() {
            let (score, line) = self.search_root_move(rm.m, depth, alpha, beta, Window::Scout);
            if self.shared.stopped() {
                return best;
            }
            rm.score = -INFINITY;
            if score > alpha {
                rm.score = score;
                rm.pv = line;
                alpha = score;
            }
            best = best.max(score);
            if score >= beta {
                break;
            }
        }
        best
    }

    /// Runs iterative deepening until a limit or `stop`, reporting each iteration through
    /// the callback. With nothing to search (no legal move) the result has no move.
    ///
    /// With more than one thread the search is "lazy SMP": helper threads on the rayon
    /// pool search the same root, each by its own iterative deepening (odd helpers one
    /// ply deeper), and share what they learn only through the transposition table;
    /// the main thread alone reports and answers, and the helpers stop when it is done.
    pub(crate) fn run(&self) -> SearchResult<MoveOf<P>> {
        if self.threads == 1 {
            let result = self.run_main();
            self.remember();
            return result;
        }
        let mut result = None;
        rayon::scope(|scope| {
            for index in 1..self.threads {
                scope.spawn(move |_| self.run_helper(index));
            }
            result = Some(self.run_main());
            self.shared
                .control
                .helpers_done
                .store(true, Ordering::Relaxed);
        });
        let mut result = result.expect("the main search ran");
        result.nodes = self.shared.control.nodes();
        self.remember();
        result
    }

    /// A helper thread's iterative deepening; its results reach the main thread
    /// through the table only.
    fn run_helper(&self, index: usize) {
        let shared = Shared {
            control: self.shared.control,
            tt: self.shared.tt,
            is_helper: true,
        };
        let mut w = self.workers[index]
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let max_depth = self.limits.depth.unwrap_or(MAX_PLY as u32 - 1) as i32;
        for depth in 1..=max_depth.min(MAX_PLY as i32 - 2) {
            let depth = depth + (index % 2) as i32;
            w.negamax(&shared, &self.root, depth, 0, -INFINITY, INFINITY);
            if shared.stopped() {
                break;
            }
        }
        w.flush_nodes(&shared);
    }

    fn run_main(&self) -> SearchResult<MoveOf<P>> {
        let control = self.shared.control;
        self.shared.tt.new_search();
        let mut root_moves: Vec<RootMove<MoveOf<P>>> = self
            .root
            .rules()
            .legal_moves()
            .iter()
            .filter(|m| self.limits.searchmoves.is_empty() || self.limits.searchmoves.contains(m))
            .map(|&m| RootMove {
                m,
                score: -INFINITY,
                pv: vec![m],
            })
            .collect();
        // Start from the table's move, if it knows one.
        if let Some(code) = self
            .shared
            .tt
            .probe(self.root.rules().hash())
            .map(|e| e.move_code)
            && let Some(i) = root_moves
                .iter()
                .position(|rm| P::Rules::encode(rm.m) == code)
        {
            root_moves[..=i].rotate_right(1);
        }
        let mut result = SearchResult {
            best: root_moves.first().map(|rm| rm.m),
            ponder: None,
            score: -WIN,
            depth: 0,
            nodes: 0,
            no_mate: None,
        };
        if root_moves.is_empty() {
            // The game is over (or searchmoves left nothing): nothing to search, but a
            // pondering or infinite search still answers only after `stop` or `ponderhit`.
            result.score = end_score(self.root.rules().end(), 0);
            wait_for_release(control);
            return result;
        }
        let multipv = self.limits.multipv.clamp(1, root_moves.len().max(1));
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        let mut previous = vec![0i32; multipv];
        let mut stability = time::Stability::new();
        'deepening: for depth in 1..=max_depth {
            self.worker().seldepth = 0;
            for pv_index in 0..multipv.min(root_moves.len()) {
                match self.aspiration(&mut root_moves, depth, pv_index, previous[pv_index]) {
                    Some(score) => previous[pv_index] = score,
                    None => break 'deepening,
                }
                self.report(
                    depth,
                    pv_index,
                    previous[pv_index],
                    None,
                    &root_moves[pv_index].pv,
                );
            }
            let best = &root_moves[0];
            result.best = Some(best.m);
            result.ponder = best.pv.get(1).copied();
            result.score = best.score;
            result.depth = depth;
            // A proven result cannot change with more depth once the depth covers it.
            if is_decisive(best.score)
                && depth as i32 > WIN - best.score.abs() + 1
                && !control.is_waiting()
            {
                break;
            }
            let percent = stability.next_iteration_percent(depth, best.m, best.score);
            if control.soft_limit_passed(percent) {
                break;
            }
        }
        self.worker().flush_nodes(&self.shared);
        wait_for_release(control);
        if result.ponder.is_none()
            && let Some(best) = result.best
        {
            let mut next = self.root;
            next.play(best);
            result.ponder = self
                .shared
                .tt
                .probe(next.rules().hash())
                .and_then(|e| P::Rules::decode(e.move_code))
                .filter(|m| next.rules().legal_moves().contains(m));
        }
        result.nodes = control.nodes();
        result
    }

    /// Searches line `pv_index` (the best root move after the lines before it) at
    /// `depth`, in a window around `centre`, its score in the last iteration, widened
    /// after each failure (reported as a bound). `None` once the search is stopped.
    fn aspiration(
        &self,
        root_moves: &mut [RootMove<MoveOf<P>>],
        depth: u32,
        pv_index: usize,
        centre: i32,
    ) -> Option<i32> {
        let mut window = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = if depth >= ASPIRATION_DEPTH && !is_decisive(centre) {
            (centre - window, centre + window)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let moves = &mut root_moves[pv_index..];
            let score = self.search_root(moves, depth as i32, alpha, beta);
            if self.shared.control.is_stopped() {
                return None;
            }
            moves.sort_by_key(|rm| std::cmp::Reverse(rm.score));
            let bound = if score <= alpha {
                alpha = (alpha - window).max(-INFINITY);
                Bound::Upper
            } else if score >= beta {
                beta = (beta + window).min(INFINITY);
                Bound::Lower
            } else {
                return Some(score);
            };
            self.report(depth, pv_index, score, Some(bound), &moves[0].pv);
            window *= 2;
            if is_decisive(score) {
                (alpha, beta) = (-INFINITY, INFINITY);
            }
        }
    }

    fn report(
        &self,
        depth: u32,
        pv_index: usize,
        score: i32,
        bound: Option<Bound>,
        pv: &[MoveOf<P>],
    ) {
        let control = self.shared.control;
        // Helpers hold their workers while they search: the main thread's figures
        // and the shared node count are what can be read without waiting.
        let (seldepth, unflushed) = {
            let w = self.worker();
            (w.seldepth as u32, control.unreported(w.nodes))
        };
        let time = control.elapsed();
        let nodes = control.nodes() + unflushed;
        (self.on_info)(&Info {
            depth,
            seldepth: seldepth.max(depth),
            multipv: pv_index + 1,
            score: Score::from_internal(score),
            bound,
            nodes,
            nps: (nodes as f64 / time.as_secs_f64().max(1e-6)) as u64,
            hashfull: self.shared.tt.hashfull(),
            time,
            pv: pv.to_vec(),
        });
    }
}

/// Infinite and ponder searches answer only after `stop` or `ponderhit` (the UCI rule:
/// no `bestmove` before either, even when the search has nothing left to do).
fn wait_for_release(control: &Control) {
    while control.is_waiting() && !control.is_stopped() {
        std::thread::sleep(Duration::from_millis(1));
    }
}
