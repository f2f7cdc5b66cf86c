//! The search below the root: each thread's [`Worker`] runs negamax with its pruning,
//! reductions and move ordering, and quiescence search at the leaves.

use std::sync::atomic::Ordering;

use super::params::*;
use super::tt::{Bound, Entry, TranspositionTable};
use super::{
    Control, INFINITY, WIN, WIN_BOUND, end_score, is_decisive, score_from_tt, score_to_tt,
};
use crate::rulesets::{Evaluate, MAX_MOVES, MoveOf, Rules, SearchRules};

/// Quiet-move history: one table per side to move, indexed by the move's code.
pub(crate) type History = [[i32; 4096]; 2];

/// Per-thread search state.
pub(super) struct Worker<P: Evaluate> {
    killers: Vec<[u16; 2]>,
    /// The move a singular-extension search at this ply leaves out.
    excluded: Vec<Option<MoveOf<P>>>,
    history: Box<History>,
    pub(super) pv: Vec<Vec<MoveOf<P>>>,
    pub(super) nodes: u64,
    pub(super) seldepth: usize,
    /// Hashes of the game before the root and then of each ply of the current line
    /// (index `game_plies + ply`), for repetition checks where the game has them.
    path: Vec<u64>,
    game_plies: usize,
}

impl<P: Evaluate> Worker<P> {
    pub(super) fn new(root: &P) -> Worker<P> {
        let mut worker = Worker {
            killers: vec![[0; 2]; MAX_PLY + 1],
            excluded: vec![None; MAX_PLY + 1],
            history: Box::new([[0; 4096]; 2]),
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
    pub(super) fn set_game(&mut self, root: &P, game: &[u64]) {
        self.path.clear();
        self.path.extend_from_slice(game);
        self.path.push(root.rules().hash());
        self.path.resize(game.len() + MAX_PLY + 1, 0);
        self.game_plies = game.len();
    }

    /// Starts from the history an earlier search of the game left, halved: still a guide
    /// to the order, but one that gives way quickly to what this search finds.
    pub(super) fn recall(&mut self, earlier: &History) {
        for (mine, old) in self
            .history
            .iter_mut()
            .flatten()
            .zip(earlier.iter().flatten())
        {
            *mine = old / 2;
        }
    }

    pub(super) fn history(&self) -> &History {
        &self.history
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

/// Everything a search node reads that is shared between threads.
pub(super) struct Shared<'a> {
    pub(super) control: &'a Control,
    pub(super) tt: &'a TranspositionTable,
    /// Helper threads also stop when the main thread is done.
    pub(super) is_helper: bool,
}

impl Shared<'_> {
    #[inline]
    pub(super) fn stopped(&self) -> bool {
        self.control.is_stopped()
            || (self.is_helper && self.control.helpers_done.load(Ordering::Relaxed))
    }
}

impl<P: Evaluate> Worker<P> {
    #[inline]
    fn count_node(&mut self, shared: &Shared) {
        self.nodes += 1;
        shared.control.count_node(self.nodes);
    }

    pub(super) fn flush_nodes(&mut self, shared: &Shared) {
        shared
            .control
            .report_nodes(shared.control.unreported(self.nodes));
        self.nodes = 0;
    }

    fn set_pv(&mut self, ply: usize, m: MoveOf<P>) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    fn order_score(&self, pos: &P, m: MoveOf<P>, tt_move: Option<MoveOf<P>>, ply: usize) -> i32 {
        if Some(m) == tt_move {
            return 1 << 30;
        }
        if pos.rules().is_tactical(m) {
            return (1 << 28) + pos.rules().tactical_order(m);
        }
        let code = P::Rules::encode(m);
        let killers = self.killers[ply];
        if killers[0] == code {
            return (1 << 27) + 1;
        }
        if killers[1] == code {
            return 1 << 27;
        }
        self.history[pos.rules().side_to_move().index()][code as usize & 0xfff]
    }

    fn update_history(&mut self, side: usize, m: MoveOf<P>, bonus: i32) {
        let h = &mut self.history[side][P::Rules::encode(m) as usize & 0xfff];
        *h += bonus - *h * bonus.abs() / 16_384;
    }

    /// What every node does first: count itself, honour `stop`, and settle the node
    /// at once when a win is on the board or the ply limit is reached.
    #[inline]
    fn enter(&mut self, shared: &Shared, pos: &P, ply: usize) -> Option<i32> {
        self.pv[ply].clear();
        self.count_node(shared);
        if shared.stopped() {
            return Some(0);
        }
        self.seldepth = self.seldepth.max(ply);
        if P::Rules::CAN_REPEAT && self.repeats(pos.rules().hash(), ply) {
            return Some(0);
        }
        if let Some(m) = pos.rules().winning_move() {
            self.pv[ply].push(m);
            return Some(WIN - ply as i32 - 1);
        }
        if let Some(m) = pos.rules().win_in_two() {
            self.pv[ply].push(m);
            return Some(WIN - ply as i32 - 3);
        }
        (ply >= MAX_PLY - 1).then(|| pos.evaluate())
    }

    pub(super) fn negamax(
        &mut self,
        shared: &Shared,
        pos: &P,
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
        let threatened = pos.rules().opponent_threatens_win();
        let threatened_in_two = !threatened && {
            let mut passed = *pos.rules();
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
        let key = pos.rules().hash();
        let excluded = self.excluded[ply];
        let mut tt_move = None;
        let mut tt_entry = None;
        // A search without one move must not take (or leave) the full node's entry.
        if let Some(e) = shared.tt.probe(key).filter(|_| excluded.is_none()) {
            tt_move = P::Rules::decode(e.move_code);
            let s = score_from_tt(e.score, ply);
            let usable = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if !pv_node && e.depth as i32 >= depth && usable {
                return s;
            }
            tt_entry = Some((s, e));
        }
        let static_eval = if !pv_node && !threatened {
            Some(pos.evaluate())
        } else {
            None
        };
        if let Some(static_eval) = static_eval
            && excluded.is_none()
            && !is_decisive(beta)
            && let Some(score) = self.prune_early(shared, pos, depth, ply, beta, static_eval)
        {
            return score;
        }
        // Without a move from the table this node is likely new: search it a little shallower.
        let depth = if tt_move.is_none() && excluded.is_none() && depth >= IIR_MIN_DEPTH {
            depth - 1
        } else {
            depth
        };
        // Quiet moves that cannot lift a hopeless static score to alpha are not tried.
        let futile = static_eval
            .is_some_and(|e| depth <= FUTILITY_DEPTH && e + FUTILITY_MARGIN * depth <= alpha);
        let mut moves = pos.rules().legal_moves();
        if moves.is_empty() {
            return end_score(pos.rules().end(), ply);
        }
        let mut scores = [0i32; MAX_MOVES];
        for (score, &m) in scores.iter_mut().zip(moves.iter()) {
            *score = self.order_score(pos, m, tt_move, ply);
        }
        let singular = match (tt_move, tt_entry) {
            (Some(m), Some((s, e)))
                if excluded.is_none()
                    && depth >= SINGULAR_MIN_DEPTH
                    && e.bound != Bound::Upper
                    && e.depth as i32 >= depth - 3
                    && !is_decisive(s) =>
            {
                let singular = self.is_singular(shared, pos, depth, ply, m, s);
                if shared.stopped() {
                    return 0;
                }
                singular.then_some(m)
            }
            _ => None,
        };
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        for i in 0..moves.len() {
            // Selection sort, one step per move: most nodes cut off after a move or two.
            let j = (i..moves.len()).max_by_key(|&j| scores[j]).unwrap_or(i);
            moves.swap(i, j);
            scores.swap(i, j);
            let m = moves[i];
            if Some(m) == excluded {
                continue;
            }
            let extension = i32::from(Some(m) == singular);
            // Quiet moves far from the goal are the ones pruning and reductions may touch.
            let reducible =
                scores[i] < 1 << 27 && pos.rules().steps_to_goal_after(m) > APPROACH_STEPS;
            let mut after = *pos.rules();
            after.play(m);
            let makes_threat = after.opponent_threatens_win();
            if reducible
                && !pv_node
                && !threatened
                && !makes_threat
                && best > -WIN_BOUND
                && (futile || (depth <= LMP_MAX_DEPTH && i >= LMP_BASE + (depth * depth) as usize))
            {
                continue;
            }
            let child = pos.child(m, &after);
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
                -self.negamax(
                    shared,
                    &child,
                    depth - 1 + extension,
                    ply + 1,
                    -beta,
                    -alpha,
                )
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
                        if !pos.rules().is_tactical(m) {
                            self.reward_quiet_cutoff(pos, m, &moves[..i], depth, ply);
                        }
                        break;
                    }
                }
            }
        }
        if excluded.is_some() {
            return best;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let move_code = match (bound, best_move) {
            (Bound::Upper, _) => tt_move.map_or(0, P::Rules::encode),
            (_, Some(m)) => P::Rules::encode(m),
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

    /// Whether the table's move `m`, scored `tt_score`, is singular at this node: every
    /// other move, searched at half the depth, falls short of that score by
    /// `SINGULAR_MARGIN` a ply. A singular move is searched a ply deeper.
    pub(super) fn is_singular(
        &mut self,
        shared: &Shared,
        pos: &P,
        depth: i32,
        ply: usize,
        m: MoveOf<P>,
        tt_score: i32,
    ) -> bool {
        let singular_beta = tt_score - SINGULAR_MARGIN * depth;
        self.excluded[ply] = Some(m);
        let score = self.negamax(
            shared,
            pos,
            (depth - 1) / 2,
            ply,
            singular_beta - 1,
            singular_beta,
        );
        self.excluded[ply] = None;
        score < singular_beta
    }

    /// Reverse futility and null-move pruning at a non-PV node: the score to return when
    /// the static evaluation shows the node will fail high anyway.
    fn prune_early(
        &mut self,
        shared: &Shared,
        pos: &P,
        depth: i32,
        ply: usize,
        beta: i32,
        static_eval: i32,
    ) -> Option<i32> {
        if depth <= RFP_DEPTH && static_eval - RFP_MARGIN * depth >= beta {
            return Some(static_eval);
        }
        if depth >= NULL_MIN_DEPTH && static_eval >= beta && pos.rules().null_move_allowed() {
            let mut child = *pos;
            child.play_null();
            let r = NULL_BASE + depth / NULL_DIVISOR;
            let score = -self.negamax(shared, &child, depth - 1 - r, ply + 1, -beta, -beta + 1);
            if shared.stopped() {
                return Some(0);
            }
            if score >= beta {
                return Some(if is_decisive(score) { beta } else { score });
            }
        }
        None
    }

    /// A quiet move `m` cut off: it becomes a killer and gains history, and the quiet
    /// moves tried before it lose as much.
    fn reward_quiet_cutoff(
        &mut self,
        pos: &P,
        m: MoveOf<P>,
        tried: &[MoveOf<P>],
        depth: i32,
        ply: usize,
    ) {
        let code = P::Rules::encode(m);
        if self.killers[ply][0] != code {
            self.killers[ply] = [code, self.killers[ply][0]];
        }
        let side = pos.rules().side_to_move().index();
        let bonus = (depth * depth).min(400);
        self.update_history(side, m, bonus);
        for &other in tried {
            if !pos.rules().is_tactical(other) {
                self.update_history(side, other, -bonus);
            }
        }
    }

    /// Captures only, unless the opponent threatens to win next move: then every
    /// move, since only a reply to the threat keeps the game going.
    fn quiescence(
        &mut self,
        shared: &Shared,
        pos: &P,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if let Some(score) = self.enter(shared, pos, ply) {
            return score;
        }
        if let Some(end) = pos.rules().end() {
            return end_score(Some(end), ply);
        }
        let threatened = pos.rules().opponent_threatens_win();
        let mut best = -INFINITY;
        if !threatened {
            let stand_pat = pos.evaluate();
            if stand_pat >= beta {
                return stand_pat;
            }
            best = stand_pat;
            alpha = alpha.max(stand_pat);
        }
        let (mut moves, count) = if threatened {
            let moves = pos.rules().legal_moves();
            let count = moves.len();
            (moves, count)
        } else {
            pos.rules().tactical_moves_first()
        };
        let moves = &mut moves[..count];
        moves.sort_by_key(|&m| {
            std::cmp::Reverse(
                pos.rules().tactical_order(m) + if pos.rules().is_tactical(m) { 100 } else { 0 },
            )
        });
        for &m in moves.iter() {
            let mut after = *pos.rules();
            after.play(m);
            let child = pos.child(m, &after);
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
