//! What settles a Breakthrough position without search, every rule of it sound (the
//! certificate checker replays the moves each one gives, with nothing but the rules):
//! the game's end, a win at once, the static win in two (of each rule set), races (a
//! pawn that no enemy pawn can ever capture or block, against the opponent's fastest
//! pawn), and under the standard rules the threat win: a step to the rank before the
//! goal whose every capture leaves one of those wins.

use std::sync::OnceLock;

use crate::rulesets::breakthrough::eval::evaluate;
use crate::rulesets::breakthrough::{Color, DiagonalStep, Move, Position, Square};
use crate::rulesets::{Rules, SearchRules};

/// A position settled without search, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Known {
    /// The side to move wins: by this move, or (`None`) it has won already.
    Win(Option<Move>),
    Loss,
}

/// The value of `pos` where the rules or a pattern settle it.
pub(crate) fn judge(pos: &Position) -> Option<Known> {
    if let Some(outcome) = pos.outcome() {
        return Some(match outcome.winner {
            Some(w) if w == pos.side_to_move() => Known::Win(None),
            _ => Known::Loss,
        });
    }
    if let Some(m) = pos.winning_move() {
        return Some(Known::Win(Some(m)));
    }
    judge_past_wins_at_once(pos)
}

/// [`judge`] of a position where neither side has reached its goal or lost every pawn and
/// the side to move has no win at once: no move left (lost), the static win in two, races.
pub(crate) fn judge_past_wins_at_once(pos: &Position) -> Option<Known> {
    if pos.count_legal_moves() == 0 {
        return Some(Known::Loss);
    }
    if let Some(m) = pos.win_in_two().or_else(|| capture_only_win_in_two(pos)) {
        return Some(Known::Win(Some(m)));
    }
    race(pos).or_else(|| threat_win(pos).map(|m| Known::Win(Some(m))))
}

/// Whether the side to move of `pos` (no player has won yet) wins by what the quick rules
/// see: a win at once, the static win in two, a won race.
fn wins_quickly(pos: &Position) -> bool {
    pos.winning_move().is_some()
        || pos.win_in_two().is_some()
        || capture_only_win_in_two(pos).is_some()
        || matches!(race(pos), Some(Known::Win(_)))
}

/// The standard rules' threat win: a step to the rank before the goal after which the
/// opponent cannot win at once, and every capture of the pawn leaves the side to move a
/// quick win ([`wins_quickly`]). Nothing but a capture stops that pawn, since it may
/// always step diagonally onto the goal. It settles positions three plies before the win
/// in two does: on one thread 5x5 took 2.3 times fewer nodes (1.6 times less time) with
/// it, 6x5 4.4 times fewer. Under the capture-only rules such a pawn can also be blocked.
/// There the same rule took more nodes as often as fewer, whether every reply that might
/// stop the pawn was tried (5x6 37% and 4x6 9% more; 6x5 21% and 5x5 10% fewer) or only
/// steps below an empty goal square were, met by captures alone (5x6 15%, 5x5 9% and 4x6
/// 8% more; 6x5 21% fewer): left out.
pub(super) fn threat_win(pos: &Position) -> Option<Move> {
    if pos.diagonal_step() != DiagonalStep::Free {
        return None;
    }
    let us = pos.side_to_move();
    let before_goal = rank_behind(us, pos.geometry().goal[us.index()]);
    if pos.pawns(us) & rank_behind(us, before_goal) == 0 {
        return None;
    }
    pos.legal_moves_onto(before_goal)
        .iter()
        .copied()
        .find(|&m| {
            let reply = pos.child(m);
            reply.winning_move().is_none()
                && reply
                    .legal_moves_onto(m.to().bit())
                    .iter()
                    .all(|&take| wins_quickly(&reply.child(take)))
        })
}

/// The squares one rank behind `squares` as `color`'s pawns go: one step back from its
/// goal is the rank before the goal.
fn rank_behind(color: Color, squares: u64) -> u64 {
    match color {
        Color::White => squares >> 8,
        Color::Black => squares << 8,
    }
}

/// Which moves of `pos`, a position with no win at once for the side to move (as the
/// search's `expand` meets), might not let the opponent win at once: all of them, unless
/// the opponent threatens to step onto its goal now. Then only a move that takes a pawn on
/// the rank before that goal, or steps a pawn off the goal rank (the mover's first rank;
/// under the capture-only rules that can leave a diagonal step nothing to take), might;
/// every other move leaves the threat as it was, since no pawn ever steps back onto its
/// own first rank. A 5x5 solve made 16.7M children, of which 2.46M were dropped for the
/// opponent's win at once; leaving these moves out makes 1.40M fewer, the same nodes.
pub(super) fn threat_stoppers(pos: &Position) -> impl Fn(Move) -> bool + use<> {
    let them = pos.side_to_move().opponent();
    let their_goal = pos.geometry().goal[them.index()];
    let before_their_goal = rank_behind(them, their_goal);
    let threat = pos.opponent_threatens_win();
    let targets = pos.pawns(them) & before_their_goal;
    move |m: Move| !threat || m.to().bit() & targets != 0 || m.from().bit() & their_goal != 0
}

/// The capture-only rules' win in two, for a position with no win at once: a step to the
/// rank before the goal onto a square no enemy pawn attacks, below an empty goal square,
/// when the opponent cannot win at once in reply. Enemy pawns never step back onto their
/// first rank, so the goal square stays empty and the straight step onto it wins next;
/// the pawn cannot be taken, and its side keeps it (it is not its last pawn to take).
pub(super) fn capture_only_win_in_two(pos: &Position) -> Option<Move> {
    if pos.diagonal_step() != DiagonalStep::CaptureOnly {
        return None;
    }
    let us = pos.side_to_move();
    let g = pos.geometry();
    let open_goal = g.goal[us.index()] & !pos.occupied();
    let below_open_goal = rank_behind(us, open_goal);
    // Capturing on the target takes no attacker of it away.
    let safe = below_open_goal & !pos.attacks(us.opponent());
    if safe == 0 {
        return None;
    }
    pos.legal_moves()
        .iter()
        .copied()
        .find(|&m| m.to().bit() & safe != 0 && pos.child(m).winning_move().is_none())
}

/// Proof and disproof numbers of an unsettled position before any search, from the
/// engine's evaluation (side to move's view): the better it looks for the side to move,
/// the smaller its proof number (1 to 81) and the larger its disproof number (1 to 81,
/// times the side to move's moves / 8). 5x5 took 3.1 times fewer nodes than with a start
/// from mobility, (1, 1 + moves / 4), with 1 to 21 (±400 cp in steps of 40); the finer 1
/// to 81 (±200 cp in steps of 5) 1.3 times fewer again (0.97 to 2.1 on five other boards),
/// and the moves' factor 1.17 fewer again (0.95 to 1.5 on the five others).
pub(crate) fn initial(pos: &Position) -> (u32, u32) {
    const SPAN: i32 = 200;
    const STEP: i32 = 5;
    let score = evaluate(pos);
    let phi = 1 + (SPAN - score).clamp(0, 2 * SPAN) / STEP;
    // Disproving needs every move refuted: the more moves, the harder.
    let moves = pos.count_legal_moves() as i32;
    let delta = ((1 + (SPAN + score).clamp(0, 2 * SPAN) / STEP) * moves / 8).max(1);
    (phi as u32, delta as u32)
}

/// Squares an enemy pawn must not stand on for a pawn of `color` on `square` to be
/// uncatchable: `[color][enemy moves first][square]`; and the squares ahead of it.
struct RaceMasks {
    cone: [[[u64; 64]; 2]; 2],
    path: [[u64; 64]; 2],
}

fn masks() -> &'static RaceMasks {
    static MASKS: OnceLock<RaceMasks> = OnceLock::new();
    MASKS.get_or_init(|| {
        let mut m = RaceMasks {
            cone: [[[0; 64]; 2]; 2],
            path: [[0; 64]; 2],
        };
        for color in [Color::White, Color::Black] {
            for from in 0..64u8 {
                let (file, rank) = (i32::from(from % 8), i32::from(from / 8));
                for to in 0..64u8 {
                    let (f, r) = (i32::from(to % 8), i32::from(to / 8));
                    let ahead = match color {
                        Color::White => r - rank,
                        Color::Black => rank - r,
                    };
                    if ahead < 1 {
                        continue;
                    }
                    // `ahead - |file distance|` never grows, whoever moves; an enemy pawn
                    // captures at 0 and blocks at 1 (module docs of `race`).
                    let reach = ahead - (f - file).abs();
                    let bit = 1u64 << to;
                    if reach >= 1 {
                        m.cone[color.index()][0][from as usize] |= bit;
                    }
                    if reach >= 0 {
                        m.cone[color.index()][1][from as usize] |= bit;
                    }
                    if f == file {
                        m.path[color.index()][from as usize] |= bit;
                    }
                }
            }
        }
        m
    })
}

/// Steps the fastest pawn of `color` needs at least to reach its goal.
fn fastest(pos: &Position, color: Color) -> u8 {
    let pawns = pos.pawns(color);
    if pawns == 0 {
        return u8::MAX;
    }
    match color {
        Color::White => pos.ranks() - 1 - (63 - pawns.leading_zeros() as u8) / 8,
        Color::Black => pawns.trailing_zeros() as u8 / 8,
    }
}

/// The pawn of `color` that reaches its goal soonest by stepping straight ahead whatever
/// the enemy does, if one does within `max_steps`: its path holds none of its own pawns
/// and no enemy pawn can ever capture it or stand in its way. For an enemy pawn that is
/// `ahead` ranks in front and `d` files aside, `ahead - d` falls by at least one with
/// every move of the runner and never rises with the enemy's; a capture needs it at 0
/// with the enemy to move, a block at 1 with the runner to move. So `ahead - d <= 0`
/// suffices when the runner's side moves first, `ahead - d < 0` when the enemy does.
fn runner(pos: &Position, color: Color, enemy_first: bool, max_steps: u8) -> Option<(u8, Square)> {
    let m = masks();
    let own = pos.pawns(color);
    let enemy = pos.pawns(color.opponent());
    let mut best: Option<(u8, Square)> = None;
    let mut pawns = own;
    while pawns != 0 {
        let square = Square::from_index(pawns.trailing_zeros() as u8);
        pawns &= pawns - 1;
        let steps = pos.steps_to_goal(color, square);
        if steps > max_steps || best.is_some_and(|(s, _)| s <= steps) {
            continue;
        }
        let i = square.index();
        if m.path[color.index()][i] & own == 0
            && m.cone[color.index()][usize::from(enemy_first)][i] & enemy == 0
        {
            best = Some((steps, square));
        }
    }
    best
}

/// The straight step of a pawn of `color` on `square`.
fn straight_step(color: Color, square: Square) -> Move {
    let rank = match color {
        Color::White => square.rank() + 1,
        Color::Black => square.rank() - 1,
    };
    Move::new(square, Square::new(square.file(), rank))
}

/// Races: the side to move wins if it has a runner (see [`runner`]) that arrives no later
/// than the opponent's fastest pawn could (it moves first, so a tie is its win); it loses
/// if the opponent has one that arrives before its own fastest pawn could. The runner
/// cannot be captured, so the loser cannot win by taking every pawn, and always has its
/// straight step, so it never runs out of moves.
fn race(pos: &Position) -> Option<Known> {
    let us = pos.side_to_move();
    let them = us.opponent();
    let (ours, theirs) = (fastest(pos, us), fastest(pos, them));
    if ours <= theirs {
        if let Some((_, square)) = runner(pos, us, false, theirs) {
            return Some(Known::Win(Some(straight_step(us, square))));
        }
    } else if runner(pos, them, true, ours - 1).is_some() {
        return Some(Known::Loss);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::breakthrough::DiagonalStep;

    fn pos(fen: &str, diagonal: DiagonalStep) -> Position {
        Position::from_fen(fen, diagonal).unwrap()
    }

    #[test]
    fn races() {
        for diagonal in [DiagonalStep::Free, DiagonalStep::CaptureOnly] {
            // White's a3 needs three steps, as Black's f4 does: the side to move wins.
            let white = pos("6/6/5p/P5/6/6 w", diagonal);
            assert_eq!(
                judge(&white),
                Some(Known::Win(Some(white.parse_move("a3a4").unwrap())))
            );
            let black = pos("6/6/5p/P5/6/6 b", diagonal);
            assert_eq!(
                judge(&black),
                Some(Known::Win(Some(black.parse_move("f4f3").unwrap())))
            );
            // One step more for White: it loses, whoever moves.
            let behind = pos("6/6/5p/6/P5/6 w", diagonal);
            assert_eq!(judge(&behind), Some(Known::Loss));
            // Black's b5 can take a White pawn on a4: no race.
            let caught = pos("6/1p4/6/P5/6/6 w", diagonal);
            assert_eq!(judge(&caught), None);
        }
    }

    #[test]
    fn capture_only_win_in_two_is_static() {
        let capture_only = |fen| pos(fen, DiagonalStep::CaptureOnly);
        // c3c4 reaches the rank before the goal below the empty c5, out of reach of any
        // Black pawn: c5 next. Black's a2 is nearer its goal but blocked, so no race says so.
        let win = capture_only("4p/5/2P2/p4/P4 w");
        assert_eq!(race(&win), None);
        assert_eq!(win_move(&win).as_deref(), Some("c3c4"));
        // c5 taken: the straight step is blocked for good.
        assert_eq!(judge(&capture_only("2p1p/5/2P2/p4/P4 w")), None);
        // b5 attacks c4.
        assert_eq!(judge(&capture_only("1p2p/5/2P2/p4/P4 w")), None);
        // Black's a2 free to take b1 in reply: not a win in two.
        assert_eq!(judge(&capture_only("4p/5/2P2/p4/PP3 w")), None);
        // Not the standard rules' (they have their own, with diagonal steps to the goal).
        let standard = pos("4p/5/2P2/p4/P4 w", DiagonalStep::Free);
        assert_eq!(capture_only_win_in_two(&standard), None);
    }

    #[test]
    fn moves_that_cannot_stop_a_threat_lose_at_once() {
        // Along random games, where the side to move cannot win at once: every move
        // `threat_stoppers` leaves out lets the opponent win at once.
        let mut rng = crate::util::rng::Rng::new(5);
        let mut left_out = 0;
        for (files, ranks) in [(5, 5), (6, 5), (4, 6), (3, 4), (8, 8)] {
            let g = crate::rulesets::breakthrough::Geometry::get(files, ranks).unwrap();
            for diagonal in [DiagonalStep::Free, DiagonalStep::CaptureOnly] {
                for _ in 0..200 {
                    let mut pos = Position::start(diagonal, g);
                    while pos.outcome().is_none() {
                        let can_stop = threat_stoppers(&pos);
                        let moves = pos.legal_moves();
                        let no_win = pos.winning_move().is_none();
                        for &m in moves.iter().filter(|&&m| no_win && !can_stop(m)) {
                            let child = pos.child(m);
                            assert!(child.winning_move().is_some(), "{} {m}", pos.to_fen());
                            left_out += 1;
                        }
                        pos.play(moves[rng.below(moves.len())]);
                    }
                }
            }
        }
        assert!(left_out > 1000, "only {left_out} moves left out");
    }

    fn win_move(pos: &Position) -> Option<String> {
        match judge(pos) {
            Some(Known::Win(Some(m))) => Some(m.to_string()),
            _ => None,
        }
    }
}
