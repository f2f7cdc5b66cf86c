//! Iterative-deepening negamax alpha-beta with principal-variation search, aspiration
//! windows, quiescence, a shared transposition table, killers and history, and root
//! moves split over a rayon pool. Generic over [`SearchGame`]; it never formats
//! protocol text: progress goes out through a callback as [`Info`].

pub mod time;
pub mod tt;

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::game::{End, MAX_MOVES, SearchGame};
use crate::params::search::*;
use tt::{Bound, Entry, TranspositionTable};

/// Score of a won game at the root; a win `n` plies away scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Larger than any score.
pub const INFINITY: i32 = 31_000;
const WIN_BOUND: i32 = WIN - MAX_PLY as i32;

/// A score as the protocol reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Centipawns(i32),
    /// Moves (not plies) to the win; negative when the side to move loses. `Mate(0)`: already lost.
    Mate(i32),
}

impl Score {
    pub fn from_internal(s: i32) -> Score {
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
fn end_score(end: Option<End>, ply: usize) -> i32 {
    match end {
        Some(End::Drawn) => 0,
        Some(End::Won) => WIN - ply as i32,
        // No move and no recorded end: in Breakthrough, having no move loses.
        Some(End::Lost) | None => -WIN + ply as i32,
    }
}

/// True for scores that mean a forced win or loss.
pub fn is_decisive(s: i32) -> bool {
    s.abs() >= WIN_BOUND
}

fn score_to_tt(s: i32, ply: usize) -> i16 {
    let s = if s >= WIN_BOUND {
        s + ply as i32
    } else if s <= -WIN_BOUND {
        s - ply as i32
    } else {
        s
    };
    s as i16
}

fn score_from_tt(s: i16, ply: usize) -> i32 {
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
pub struct Limits<M> {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Stop once a win in at most this many moves is found.
    pub mate: Option<u32>,
    /// Search only these root moves (empty: all).
    pub searchmoves: Vec<M>,
    pub multipv: usize,
}

impl<M> Default for Limits<M> {
    fn default() -> Self {
        Limits {
            depth: None,
            nodes: None,
            mate: None,
            searchmoves: Vec::new(),
            multipv: 1,
        }
    }
}

/// Shared, thread-safe state of one running search: the stop flag, the clock and the node count.
pub struct Control {
    stop: AtomicBool,
    /// While set (`go ponder` or `go infinite`), time limits wait and the result is held back.
    waiting: AtomicBool,
    start: Instant,
    /// Don't start another iteration past this.
    soft: Option<Duration>,
    /// Stop searching past this.
    hard: Option<Duration>,
    node_limit: Option<u64>,
    nodes: AtomicU64,
    /// Set once the main thread has its answer: helper threads stop then.
    helpers_done: AtomicBool,
}

impl Control {
    pub fn new(
        soft: Option<Duration>,
        hard: Option<Duration>,
        node_limit: Option<u64>,
        waiting: bool,
    ) -> Control {
        Control {
            stop: AtomicBool::new(false),
            waiting: AtomicBool::new(waiting),
            start: Instant::now(),
            soft,
            hard,
            node_limit,
            nodes: AtomicU64::new(0),
            helpers_done: AtomicBool::new(false),
        }
    }

    /// Asks the search to finish now; it returns its best move so far.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// `ponderhit`: the clock now counts and the result may be given.
    pub fn release(&self) {
        self.waiting.store(false, Ordering::Relaxed);
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// True while the search may not answer by itself (`go infinite`, or `go ponder` before `ponderhit`).
    pub fn is_waiting(&self) -> bool {
        self.waiting.load(Ordering::Relaxed)
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
                self.elapsed().as_micros() as u64 * 100 >= soft.as_micros() as u64 * percent
            })
    }
}

/// One progress report.
#[derive(Clone, Debug)]
pub struct Info<M> {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: usize,
    pub score: Score,
    /// `Some` when an aspiration window failed: the score is only a bound.
    pub bound: Option<Bound>,
    pub nodes: u64,
    pub nps: u64,
    pub hashfull: u32,
    pub time: Duration,
    pub pv: Vec<M>,
}

impl<M: Copy> Info<M> {
    /// The same report with its moves converted.
    pub fn map_moves<N>(&self, f: impl Fn(M) -> N) -> Info<N> {
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
pub struct SearchResult<M> {
    pub best: Option<M>,
    pub ponder: Option<M>,
    /// Internal score of the best move.
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
}

impl<M> SearchResult<M> {
    /// The same answer with its moves converted.
    pub fn map_moves<N>(self, f: impl Fn(M) -> N) -> SearchResult<N> {
        SearchResult {
            best: self.best.map(&f),
            ponder: self.ponder.map(&f),
            score: self.score,
            depth: self.depth,
            nodes: self.nodes,
        }
    }
}

/// Per-thread search state.
struct Worker<G: SearchGame> {
    killers: Vec<[u16; 2]>,
    history: Vec<[i32; 4096]>,
    pv: Vec<Vec<G::Move>>,
    nodes: u64,
    seldepth: usize,
    /// Hashes of the game before the root and then of each ply of the current line
    /// (index `game_plies + ply`), for repetition checks where the game has them.
    path: Vec<u64>,
    game_plies: usize,
}

impl<G: SearchGame> Worker<G> {
    fn new(root: &G) -> Worker<G> {
        let mut worker = Worker {
            killers: vec![[0; 2]; MAX_PLY + 1],
            history: vec![[0; 4096]; 2],
            pv: (0..=MAX_PLY).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            nodes: 0,
            seldepth: 0,
            path: Vec::new(),
            game_plies: 0,
        };
        worker.set_game(root, &[]);
        worker
    }

    /// `game` holds the hashes of the positions before the root, oldest first.
    fn set_game(&mut self, root: &G, game: &[u64]) {
        self.path.clear();
        self.path.extend_from_slice(game);
        self.path.push(root.hash());
        self.path.resize(game.len() + MAX_PLY + 1, 0);
        self.game_plies = game.len();
    }

    /// Records the node's hash on the path and says whether the same position with
    /// the same side to move stood earlier on it (in the game or the line): a draw
    /// from here on, since the side that repeated can repeat again.
    #[inline]
    fn repeats(&mut self, key: u64, ply: usize) -> bool {
        let at = self.game_plies + ply;
        self.path[at] = key;
        (2..=at).step_by(2).any(|back| self.path[at - back] == key)
    }
}

/// Late-move reduction for a move at `depth`, `index`-th in order.
fn lmr(depth: i32, index: usize) -> i32 {
    static TABLE: std::sync::OnceLock<Vec<[i32; 64]>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        (0..64)
            .map(|d| {
                let mut row = [0; 64];
                for (i, r) in row.iter_mut().enumerate().skip(1) {
                    if d > 0 {
                        *r = (LMR_BASE + (d as f64).ln() * (i as f64).ln() / LMR_DIVISOR) as i32;
                    }
                }
                row
            })
            .collect()
    });
    table[depth.clamp(0, 63) as usize][index.min(63)]
}

struct RootMove<M> {
    m: M,
    score: i32,
    pv: Vec<M>,
}

/// Everything a search node reads that is shared between threads.
struct Shared<'a> {
    control: &'a Control,
    tt: &'a TranspositionTable,
    /// Helper threads also stop when the main thread is done.
    is_helper: bool,
}

impl Shared<'_> {
    #[inline]
    fn stopped(&self) -> bool {
        self.control.is_stopped()
            || (self.is_helper && self.control.helpers_done.load(Ordering::Relaxed))
    }
}

impl<G: SearchGame> Worker<G> {
    #[inline]
    fn count_node(&mut self, shared: &Shared) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_INTERVAL) {
            shared.control.report_nodes(CHECK_INTERVAL);
        }
    }

    fn flush_nodes(&mut self, shared: &Shared) {
        shared.control.report_nodes(self.nodes % CHECK_INTERVAL);
        self.nodes = 0;
    }

    fn set_pv(&mut self, ply: usize, m: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    fn order_score(&self, pos: &G, m: G::Move, tt_move: Option<G::Move>, ply: usize) -> i32 {
        if Some(m) == tt_move {
            return 1 << 30;
        }
        if pos.is_tactical(m) {
            return (1 << 28) + pos.tactical_order(m);
        }
        let code = G::encode(m);
        let killers = self.killers[ply];
        if killers[0] == code {
            return (1 << 27) + 1;
        }
        if killers[1] == code {
            return 1 << 27;
        }
        self.history[pos.side_index()][code as usize & 0xfff]
    }

    fn update_history(&mut self, side: usize, m: G::Move, bonus: i32) {
        let h = &mut self.history[side][G::encode(m) as usize & 0xfff];
        *h += bonus - *h * bonus.abs() / 16_384;
    }

    /// What every node does first: count itself, honour `stop`, and settle the node
    /// at once when a win is on the board or the ply limit is reached.
    #[inline]
    fn enter(&mut self, shared: &Shared, pos: &G, ply: usize) -> Option<i32> {
        self.pv[ply].clear();
        self.count_node(shared);
        if shared.stopped() {
            return Some(0);
        }
        self.seldepth = self.seldepth.max(ply);
        if G::CAN_REPEAT && self.repeats(pos.hash(), ply) {
            return Some(0);
        }
        if let Some(m) = pos.winning_move() {
            self.pv[ply].push(m);
            return Some(WIN - ply as i32 - 1);
        }
        if let Some(m) = pos.win_in_two() {
            self.pv[ply].push(m);
            return Some(WIN - ply as i32 - 3);
        }
        (ply >= MAX_PLY - 1).then(|| pos.evaluate())
    }

    fn negamax(
        &mut self,
        shared: &Shared,
        pos: &G,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        if let Some(score) = self.enter(shared, pos, ply) {
            return score;
        }
        // A win sooner than one already found elsewhere cannot come from here.
        alpha = alpha.max(-WIN + ply as i32);
        beta = beta.min(WIN - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let threatened = pos.opponent_threatens_win();
        let threatened_in_two = !threatened && {
            let mut passed = *pos;
            passed.play_null();
            passed.win_in_two().is_some()
        };
        let depth = if threatened || threatened_in_two {
            depth + THREAT_EXTENSION
        } else {
            depth
        };
        if depth <= 0 {
            return self.quiescence(shared, pos, ply, alpha, beta);
        }
        let pv_node = beta - alpha > 1;
        let key = pos.hash();
        let mut tt_move = None;
        if let Some(e) = shared.tt.probe(key) {
            tt_move = G::decode(e.move_code);
            let s = score_from_tt(e.score, ply);
            let usable = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if !pv_node && e.depth as i32 >= depth && usable {
                return s;
            }
        }
        let static_eval = if !pv_node && !threatened {
            Some(pos.evaluate())
        } else {
            None
        };
        if let Some(static_eval) = static_eval
            && !is_decisive(beta)
        {
            if depth <= RFP_DEPTH && static_eval - RFP_MARGIN * depth >= beta {
                return static_eval;
            }
            if depth >= NULL_MIN_DEPTH && static_eval >= beta && pos.null_move_allowed() {
                let mut child = *pos;
                child.play_null();
                let r = NULL_BASE + depth / NULL_DIVISOR;
                let score = -self.negamax(shared, &child, depth - 1 - r, ply + 1, -beta, -beta + 1);
                if shared.stopped() {
                    return 0;
                }
                if score >= beta {
                    return if is_decisive(score) { beta } else { score };
                }
            }
        }
        // Without a move from the table this node is likely new: search it a little shallower.
        let depth = if tt_move.is_none() && depth >= IIR_MIN_DEPTH {
            depth - 1
        } else {
            depth
        };
        // Quiet moves that cannot lift a hopeless static score to alpha are not tried.
        let futile = static_eval
            .is_some_and(|e| depth <= FUTILITY_DEPTH && e + FUTILITY_MARGIN * depth <= alpha);
        let mut moves = pos.moves();
        if moves.is_empty() {
            return end_score(pos.end(), ply);
        }
        let mut scores = [0i32; MAX_MOVES];
        for (score, &m) in scores.iter_mut().zip(moves.iter()) {
            *score = self.order_score(pos, m, tt_move, ply);
        }
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let side = pos.side_index();
        for i in 0..moves.len() {
            // Selection sort, one step per move: most nodes cut off after a move or two.
            let j = (i..moves.len()).max_by_key(|&j| scores[j]).unwrap_or(i);
            moves.swap(i, j);
            scores.swap(i, j);
            let m = moves[i];
            // Quiet moves far from the goal are the ones pruning and reductions may touch.
            let reducible = scores[i] < 1 << 27 && pos.steps_to_goal_after(m) > APPROACH_STEPS;
            let mut child = *pos;
            child.play(m);
            let makes_threat = child.opponent_threatens_win();
            if reducible
                && !pv_node
                && !threatened
                && !makes_threat
                && best > -WIN_BOUND
                && (futile || (depth <= LMP_MAX_DEPTH && i >= LMP_BASE + (depth * depth) as usize))
            {
                continue;
            }
            // Late quiet moves that make no threat are searched shallower first.
            let reduction = if depth >= LMR_MIN_DEPTH
                && i >= LMR_MIN_MOVE
                && !threatened
                && reducible
                && !makes_threat
            {
                (lmr(depth, i) - i32::from(pv_node)).clamp(0, depth - 2)
            } else {
                0
            };
            let score = if i == 0 {
                -self.negamax(shared, &child, depth - 1, ply + 1, -beta, -alpha)
            } else {
                let mut s = -self.negamax(
                    shared,
                    &child,
                    depth - 1 - reduction,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                );
                if reduction > 0 && s > alpha {
                    s = -self.negamax(shared, &child, depth - 1, ply + 1, -alpha - 1, -alpha);
                }
                if s > alpha && s < beta {
                    -self.negamax(shared, &child, depth - 1, ply + 1, -beta, -alpha)
                } else {
                    s
                }
            };
            if shared.stopped() {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, m);
                    if score >= beta {
                        if !pos.is_tactical(m) {
                            let code = G::encode(m);
                            if self.killers[ply][0] != code {
                                self.killers[ply] = [code, self.killers[ply][0]];
                            }
                            let bonus = (depth * depth).min(400);
                            self.update_history(side, m, bonus);
                            for &tried in &moves[..i] {
                                if !pos.is_tactical(tried) {
                                    self.update_history(side, tried, -bonus);
                                }
                            }
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let move_code = match (bound, best_move) {
            (Bound::Upper, _) => tt_move.map_or(0, G::encode),
            (_, Some(m)) => G::encode(m),
            (_, None) => 0,
        };
        shared.tt.store(
            key,
            Entry {
                move_code,
                score: score_to_tt(best, ply),
                depth: depth.clamp(0, 255) as u8,
                bound,
            },
        );
        best
    }

    /// Captures only, unless the opponent threatens to win next move: then every
    /// move, since only a reply to the threat keeps the game going.
    fn quiescence(
        &mut self,
        shared: &Shared,
        pos: &G,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if let Some(score) = self.enter(shared, pos, ply) {
            return score;
        }
        if let Some(end) = pos.end() {
            return end_score(Some(end), ply);
        }
        let threatened = pos.opponent_threatens_win();
        let mut best = -INFINITY;
        if !threatened {
            let stand_pat = pos.evaluate();
            if stand_pat >= beta {
                return stand_pat;
            }
            best = stand_pat;
            alpha = alpha.max(stand_pat);
        }
        let mut moves = pos.moves();
        let mut count = 0;
        for i in 0..moves.len() {
            if threatened || pos.is_tactical(moves[i]) {
                moves.swap(count, i);
                count += 1;
            }
        }
        let moves = &mut moves[..count];
        moves.sort_by_key(|&m| {
            std::cmp::Reverse(pos.tactical_order(m) + if pos.is_tactical(m) { 100 } else { 0 })
        });
        for &m in moves.iter() {
            let mut child = *pos;
            child.play(m);
            let score = -self.quiescence(shared, &child, ply + 1, -beta, -alpha);
            if shared.stopped() {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// A search over one root position, run with [`Searcher::run`].
pub struct Searcher<'a, G: SearchGame> {
    root: G,
    limits: &'a Limits<G::Move>,
    shared: Shared<'a>,
    workers: Vec<Mutex<Worker<G>>>,
    threads: usize,
    on_info: &'a (dyn Fn(&Info<G::Move>) + Sync),
}

impl<'a, G: SearchGame> Searcher<'a, G> {
    pub fn new(
        root: G,
        limits: &'a Limits<G::Move>,
        control: &'a Control,
        tt: &'a TranspositionTable,
        threads: usize,
        on_info: &'a (dyn Fn(&Info<G::Move>) + Sync),
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
        }
    }

    /// Tells the search which positions the game went through before the root, so
    /// it scores a return to one of them as a draw.
    pub fn with_game_history(mut self, game: &[u64]) -> Self {
        if G::CAN_REPEAT {
            for w in &mut self.workers {
                w.get_mut()
                    .unwrap_or_else(|e| e.into_inner())
                    .set_game(&self.root, game);
            }
        }
        self
    }

    /// The main thread's worker.
    fn worker(&self) -> std::sync::MutexGuard<'_, Worker<G>> {
        self.workers[0].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Searches one root move with the window (alpha, beta) by PVS; returns the
    /// score and the line it found.
    fn search_root_move(
        &self,
        m: G::Move,
        depth: i32,
        alpha: i32,
        beta: i32,
        full_first: bool,
    ) -> (i32, Vec<G::Move>) {
        let mut child = self.root;
        child.play(m);
        let mut w = self.worker();
        let score = if full_first {
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
        moves: &mut [RootMove<G::Move>],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let Some(first) = moves.first_mut() else {
            return -INFINITY;
        };
        let (score, line) = self.search_root_move(first.m, depth, alpha, beta, true);
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
            let (score, line) = self.search_root_move(rm.m, depth, alpha, beta, false);
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
    pub fn run(&self) -> SearchResult<G::Move> {
        if self.threads == 1 {
            return self.run_main();
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

    fn run_main(&self) -> SearchResult<G::Move> {
        let control = self.shared.control;
        self.shared.tt.new_search();
        let mut root_moves: Vec<RootMove<G::Move>> = self
            .root
            .moves()
            .iter()
            .filter(|m| self.limits.searchmoves.is_empty() || self.limits.searchmoves.contains(m))
            .map(|&m| RootMove {
                m,
                score: -INFINITY,
                pv: vec![m],
            })
            .collect();
        // Start from the table's move, if it knows one.
        if let Some(code) = self.shared.tt.probe(self.root.hash()).map(|e| e.move_code)
            && let Some(i) = root_moves.iter().position(|rm| G::encode(rm.m) == code)
        {
            root_moves[..=i].rotate_right(1);
        }
        let mut result = SearchResult {
            best: root_moves.first().map(|rm| rm.m),
            ponder: None,
            score: -WIN,
            depth: 0,
            nodes: 0,
        };
        if root_moves.is_empty() {
            // The game is over (or searchmoves left nothing): there is nothing to wait for.
            result.score = end_score(self.root.end(), 0);
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
                let centre = previous[pv_index];
                let mut window = ASPIRATION_WINDOW;
                let (mut alpha, mut beta) = if depth >= ASPIRATION_DEPTH && !is_decisive(centre) {
                    (centre - window, centre + window)
                } else {
                    (-INFINITY, INFINITY)
                };
                loop {
                    let moves = &mut root_moves[pv_index..];
                    let score = self.search_root(moves, depth as i32, alpha, beta);
                    if control.is_stopped() {
                        break 'deepening;
                    }
                    moves.sort_by_key(|rm| std::cmp::Reverse(rm.score));
                    if score <= alpha {
                        self.report(
                            depth,
                            pv_index,
                            score,
                            Some(Bound::Upper),
                            &root_moves[pv_index].pv,
                        );
                        alpha = (alpha - window).max(-INFINITY);
                        window *= 2;
                    } else if score >= beta {
                        self.report(
                            depth,
                            pv_index,
                            score,
                            Some(Bound::Lower),
                            &root_moves[pv_index].pv,
                        );
                        beta = (beta + window).min(INFINITY);
                        window *= 2;
                    } else {
                        previous[pv_index] = score;
                        break;
                    }
                    if is_decisive(score) {
                        (alpha, beta) = (-INFINITY, INFINITY);
                    }
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
            if let Some(mate) = self.limits.mate
                && best.score >= WIN_BOUND
                && (WIN - best.score + 1) / 2 <= mate as i32
            {
                break;
            }
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
        // Infinite and ponder searches answer only after stop or ponderhit.
        while control.is_waiting() && !control.is_stopped() {
            std::thread::sleep(Duration::from_millis(1));
        }
        if result.ponder.is_none()
            && let Some(best) = result.best
        {
            let mut next = self.root;
            next.play(best);
            result.ponder = self
                .shared
                .tt
                .probe(next.hash())
                .and_then(|e| G::decode(e.move_code))
                .filter(|m| next.moves().contains(m));
        }
        result.nodes = control.nodes();
        result
    }

    fn report(
        &self,
        depth: u32,
        pv_index: usize,
        score: i32,
        bound: Option<Bound>,
        pv: &[G::Move],
    ) {
        let control = self.shared.control;
        // Helpers hold their workers while they search: the main thread's figures
        // and the shared node count are what can be read without waiting.
        let (seldepth, unflushed) = {
            let w = self.worker();
            (w.seldepth as u32, w.nodes % CHECK_INTERVAL)
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
