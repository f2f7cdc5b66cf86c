//! The mate search behind `go mate N`: forced wins proven by alpha-beta.
//!
//! The normal search prunes and reduces, so it can miss a
//! forced win; this one cannot. It asks, for ever more plies, whether the side to move
//! wins within them by exhaustive AND/OR search: at the attacker's nodes some move must
//! win, at the defender's every move must lose. Nothing is pruned but by proof: an
//! immediate win, the static win in two the rules provide (itself proven by their
//! tests), and results already proven for the same position in a table. The first
//! depth that proves a win gives its exact shortest length; if none up to N moves does,
//! there is none.
//!
//! Positions that can repeat (Doorbraak) are searched without the table, and a return to
//! a position of the game or of the line counts as an escape for the defender (a draw),
//! as in the normal search.

use std::collections::HashMap;

use super::tt::TranspositionTable;
use super::{Control, Info, NoMate, Score, SearchLimits, SearchResult, Searcher, WIN};
use crate::rulesets::{Evaluate, MoveOf, Rules, SearchRules};

/// `go mate N`: the proof, then the answer. A win gives its exact length, a winning line
/// and the winning move; without one (proven, or stopped first) the move is the one a
/// normal search chooses within the request's other limits (depth 2N - 1 if it has
/// none), at once if the time is already up.
pub(crate) fn search<P: Evaluate>(
    root: P,
    limits: &SearchLimits<MoveOf<P>>,
    control: &Control,
    tt: &TranspositionTable,
    threads: usize,
    earlier: &[u64],
    on_info: &(dyn Fn(&Info<MoveOf<P>>) + Sync),
) -> SearchResult<MoveOf<P>> {
    let moves = limits.mate.unwrap_or(1);
    match prove(&root, moves, earlier, control, &mut |_| {}) {
        MateOutcome::Win { moves, line } => {
            let plies = 2 * moves - 1;
            let time = control.elapsed();
            let nodes = control.nodes();
            on_info(&Info {
                depth: plies,
                seldepth: line.len() as u32,
                multipv: 1,
                score: Score::Mate(moves as i32),
                bound: None,
                nodes,
                nps: (nodes as f64 / time.as_secs_f64().max(1e-6)) as u64,
                hashfull: 0,
                time,
                pv: line.clone(),
            });
            SearchResult {
                best: line.first().copied(),
                ponder: line.get(1).copied(),
                score: WIN - plies as i32,
                depth: plies,
                nodes,
                no_mate: None,
            }
        }
        outcome => {
            let fallback = SearchLimits {
                mate: None,
                depth: limits.depth.or_else(|| {
                    let timed = control.hard.is_some() || control.node_limit.is_some();
                    (!timed).then_some(2 * moves - 1)
                }),
                ..limits.clone()
            };
            let mut result = Searcher::new(root, &fallback, control, tt, threads, on_info)
                .with_game_history(earlier)
                .run();
            result.no_mate = Some(match outcome {
                MateOutcome::Stopped { moves } => NoMate::Stopped { moves },
                _ => NoMate::Proven { moves },
            });
            result
        }
    }
}

/// How a mate search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum MateOutcome<M> {
    /// The side to move wins in `moves` of its moves (the shortest), `line` a winning
    /// line: the winning move first, then best resistance and best attack.
    Win { moves: u32, line: Vec<M> },
    /// Proven: no win within the moves asked for.
    NoWin,
    /// Stopped (time, nodes or `stop`) after proving that there is no win within
    /// `moves` moves.
    Stopped { moves: u32 },
}

/// Most table entries kept (then the table starts afresh): about 40 MB.
const TABLE_ENTRIES: usize = 1 << 20;

/// What is proven about a position, for the side to move, in plies.
#[derive(Clone, Copy, Default)]
struct Bounds {
    /// It wins within this many plies (0: not known).
    wins_within: u8,
    /// It does not win within this many plies.
    no_win_within: u8,
    /// It loses within this many plies (0: not known).
    loses_within: u8,
    /// It does not lose within this many plies.
    no_loss_within: u8,
}

struct Prover<'a, P: Evaluate> {
    control: &'a Control,
    table: HashMap<u64, Bounds>,
    /// Hashes of the game before the root, then of the line searched (positions that
    /// can repeat only).
    path: Vec<u64>,
    nodes: u64,
    _position: std::marker::PhantomData<P>,
}

/// Whether the side to move of `root` wins within `moves` of its moves. `earlier` holds
/// the hashes of the game's positions before the root; `on_depth` hears of each number of
/// moves proven not enough. Nodes are counted on `control`, which may stop the search.
pub(crate) fn prove<P: Evaluate>(
    root: &P,
    moves: u32,
    earlier: &[u64],
    control: &Control,
    on_depth: &mut dyn FnMut(u32),
) -> MateOutcome<MoveOf<P>> {
    let mut prover = Prover::<P> {
        control,
        table: HashMap::new(),
        path: if P::Rules::CAN_REPEAT {
            earlier.to_vec()
        } else {
            Vec::new()
        },
        nodes: 0,
        _position: std::marker::PhantomData,
    };
    let moves = moves.clamp(1, 127);
    for n in 1..=moves {
        let plies = 2 * n - 1;
        match prover.wins(root, plies) {
            None => {
                prover.flush();
                return MateOutcome::Stopped { moves: n - 1 };
            }
            Some(true) => {
                let line = prover.line(root, plies);
                prover.flush();
                if control.is_stopped() && line.is_empty() {
                    return MateOutcome::Stopped { moves: n - 1 };
                }
                return MateOutcome::Win { moves: n, line };
            }
            Some(false) => on_depth(n),
        }
    }
    prover.flush();
    MateOutcome::NoWin
}

fn child<P: Evaluate>(pos: &P, m: MoveOf<P>) -> P {
    let mut next = *pos;
    next.play(m);
    next
}

impl<P: Evaluate> Prover<'_, P> {
    /// Counts a node; false once the search must stop.
    fn count(&mut self) -> bool {
        self.nodes += 1;
        self.control.count_node(self.nodes);
        !self.control.is_stopped()
    }

    fn flush(&mut self) {
        self.control
            .report_nodes(self.control.unreported(self.nodes));
        self.nodes = 0;
    }

    fn known(&self, pos: &P) -> Bounds {
        if P::Rules::CAN_REPEAT {
            return Bounds::default();
        }
        self.table
            .get(&pos.rules().hash())
            .copied()
            .unwrap_or_default()
    }

    fn learn(&mut self, pos: &P, update: impl FnOnce(&mut Bounds)) {
        if P::Rules::CAN_REPEAT {
            return;
        }
        if self.table.len() >= TABLE_ENTRIES {
            self.table.clear();
        }
        update(self.table.entry(pos.rules().hash()).or_default());
    }

    /// True if `pos` stood on the line or in the game before (a repetition: a draw).
    fn repeats(&self, pos: &P) -> bool {
        P::Rules::CAN_REPEAT && self.path.contains(&pos.rules().hash())
    }

    /// Whether the side to move wins within `plies` (odd) plies; `None` when stopped.
    fn wins(&mut self, pos: &P, plies: u32) -> Option<bool> {
        if !self.count() {
            return None;
        }
        if pos.rules().winning_move().is_some() {
            return Some(true);
        }
        let us = pos.rules().side_to_move();
        if plies < 3 {
            // `winning_move` knows the goal and the last piece; a move that leaves the
            // opponent no move at all (capture-only rules) wins at once too.
            let stalemates = pos.rules().legal_moves().iter().any(|&m| {
                let next = child(pos, m);
                next.rules().outcome().is_some_and(|o| o.winner == Some(us))
            });
            return Some(stalemates);
        }
        if pos.rules().win_in_two().is_some() {
            return Some(true);
        }
        let known = self.known(pos);
        if known.wins_within != 0 && u32::from(known.wins_within) <= plies {
            return Some(true);
        }
        if u32::from(known.no_win_within) >= plies {
            return Some(false);
        }
        let mut moves: Vec<MoveOf<P>> = pos.rules().legal_moves().to_vec();
        // Moves that threaten to win, then captures, first: wins are found sooner.
        moves.sort_by_cached_key(|&m| {
            let next = child(pos, m);
            let threat = next.rules().opponent_threatens_win();
            std::cmp::Reverse((
                threat,
                pos.rules().is_tactical(m),
                pos.rules().tactical_order(m),
            ))
        });
        if P::Rules::CAN_REPEAT {
            self.path.push(pos.rules().hash());
        }
        let mut won = Some(false);
        for m in moves {
            let next = child(pos, m);
            if let Some(end) = next.rules().outcome() {
                if end.winner == Some(us) {
                    won = Some(true);
                    break;
                }
                continue;
            }
            if self.repeats(&next) {
                continue;
            }
            match self.loses(&next, plies - 1) {
                None => {
                    won = None;
                    break;
                }
                Some(true) => {
                    won = Some(true);
                    break;
                }
                Some(false) => {}
            }
        }
        if P::Rules::CAN_REPEAT {
            self.path.pop();
        }
        match won {
            Some(true) => self.learn(pos, |k| {
                if k.wins_within == 0 || u32::from(k.wins_within) > plies {
                    k.wins_within = plies as u8;
                }
            }),
            Some(false) => self.learn(pos, |k| {
                k.no_win_within = k.no_win_within.max(plies as u8);
            }),
            None => {}
        }
        won
    }

    /// Whether the side to move loses within `plies` (even) plies whatever it plays;
    /// `None` when stopped.
    fn loses(&mut self, pos: &P, plies: u32) -> Option<bool> {
        if !self.count() {
            return None;
        }
        if pos.rules().winning_move().is_some() {
            return Some(false);
        }
        let known = self.known(pos);
        if known.loses_within != 0 && u32::from(known.loses_within) <= plies {
            return Some(true);
        }
        if u32::from(known.no_loss_within) >= plies {
            return Some(false);
        }
        let us = pos.rules().side_to_move();
        let mut moves: Vec<MoveOf<P>> = pos.rules().legal_moves().to_vec();
        if moves.is_empty() {
            // No move: the position's outcome says (Breakthrough: having no move loses).
            return Some(
                pos.rules()
                    .outcome()
                    .is_some_and(|o| o.winner == Some(us.opponent())),
            );
        }
        // Captures first: they are the likeliest escapes.
        moves.sort_by_key(|&m| {
            std::cmp::Reverse((pos.rules().is_tactical(m), pos.rules().tactical_order(m)))
        });
        if P::Rules::CAN_REPEAT {
            self.path.push(pos.rules().hash());
        }
        let mut lost = Some(true);
        for m in moves {
            let next = child(pos, m);
            if let Some(end) = next.rules().outcome() {
                if end.winner != Some(us.opponent()) {
                    lost = Some(false);
                    break;
                }
                continue;
            }
            if self.repeats(&next) {
                lost = Some(false);
                break;
            }
            match self.wins(&next, plies - 1) {
                None => {
                    lost = None;
                    break;
                }
                Some(false) => {
                    lost = Some(false);
                    break;
                }
                Some(true) => {}
            }
        }
        if P::Rules::CAN_REPEAT {
            self.path.pop();
        }
        match lost {
            Some(true) => self.learn(pos, |k| {
                if k.loses_within == 0 || u32::from(k.loses_within) > plies {
                    k.loses_within = plies as u8;
                }
            }),
            Some(false) => self.learn(pos, |k| {
                k.no_loss_within = k.no_loss_within.max(plies as u8);
            }),
            None => {}
        }
        lost
    }

    /// The shortest number of plies (odd, at most `limit`) within which the side to move
    /// of `pos` wins, if it does.
    fn win_length(&mut self, pos: &P, limit: u32) -> Option<u32> {
        (1..=limit)
            .step_by(2)
            .find(|&plies| self.wins(pos, plies) == Some(true))
    }

    /// A winning line from `pos`, where the side to move wins in exactly `plies` plies
    /// (the shortest): a winning move, the defender's longest resistance, and so on.
    fn line(&mut self, pos: &P, plies: u32) -> Vec<MoveOf<P>> {
        let us = pos.rules().side_to_move();
        let (mut pos, mut plies) = (*pos, plies);
        let mut line = Vec::new();
        loop {
            let attack = pos.rules().legal_moves().iter().copied().find(|&m| {
                let next = child(&pos, m);
                next.rules().outcome().is_some_and(|o| o.winner == Some(us))
                    || (plies >= 3
                        && !self.repeats(&next)
                        && self.loses(&next, plies - 1) == Some(true))
            });
            let Some(m) = attack else { break };
            line.push(m);
            let next = child(&pos, m);
            if next.rules().outcome().is_some() || plies < 3 {
                break;
            }
            let replies: Vec<MoveOf<P>> = next.rules().legal_moves().to_vec();
            let mut longest: Option<(MoveOf<P>, P, u32)> = None;
            for r in replies {
                let after = child(&next, r);
                let length = match after.rules().outcome() {
                    Some(_) => 0,
                    None => self.win_length(&after, plies - 2).unwrap_or(0),
                };
                if longest.is_none_or(|(_, _, l)| length > l) {
                    longest = Some((r, after, length));
                }
            }
            let Some((r, after, length)) = longest else {
                break;
            };
            line.push(r);
            if length == 0 {
                break;
            }
            (pos, plies) = (after, length);
        }
        line
    }
}
