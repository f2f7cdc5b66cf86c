//! The greedy player behind `breakthrough greedy`: a one-ply sparring partner for
//! measuring the engine in rule sets no other engine plays (Doorbraak). It speaks the
//! same protocol through the same engine facade; only the choice of move is its own.
//!
//! It takes a win at once, never plays a move that loses at once, and otherwise picks
//! the move leaving the most material, then the most advancement ([`Evaluate::material`]);
//! ties go to a pick seeded by the position, so games differ. It never searches the
//! opponent's replies.
//!
//! [`Evaluate::material`]: crate::rulesets::Evaluate::material

use crate::registry::{AnyMove, AnyPosition};
use crate::util::rng::Rng;

/// The score of playing `m`, for the mover.
fn score(pos: &AnyPosition, m: AnyMove) -> i64 {
    let us = pos.side_to_move();
    let child = pos.child(m);
    if let Some(end) = child.outcome() {
        return match end.winner {
            Some(w) if w == us => i64::MAX / 2,
            Some(_) => i64::MIN / 2,
            None => -1_000_000,
        };
    }
    let (ours, our_advance) = child.material(us);
    let (theirs, their_advance) = child.material(us.opponent());
    // Passing scores as standing still, below any move that changes nothing.
    let pass_penalty = i32::from(pos.is_pass(m));
    i64::from(((ours - theirs) * 1000 + our_advance - their_advance) * 4 - pass_penalty)
}

/// The greedy choice, or `None` when the game is over.
pub(crate) fn best_move(pos: &AnyPosition) -> Option<AnyMove> {
    let scored: Vec<(AnyMove, i64)> = pos
        .legal_moves()
        .into_iter()
        .map(|m| (m, score(pos, m)))
        .collect();
    let best = scored.iter().map(|&(_, s)| s).max()?;
    let ties: Vec<AnyMove> = scored
        .into_iter()
        .filter(|&(_, s)| s == best)
        .map(|(m, _)| m)
        .collect();
    Some(ties[Rng::new(pos.hash()).below(ties.len())])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doorbraak(fen: &str) -> AnyPosition {
        AnyPosition::from_fen(fen, "doorbraak".parse().unwrap()).unwrap()
    }

    #[test]
    fn takes_a_win_and_a_capture() {
        let win = doorbraak("4p/1Q3/1Q3/P4/5/5/5/5/5 w");
        assert_eq!(best_move(&win).unwrap().to_string(), "a6b7");
        let capture = doorbraak("4p/5/5/5/2Qp1/1P3/5/5/5 w");
        assert_eq!(best_move(&capture).unwrap().to_string(), "b4c5");
        assert_eq!(best_move(&doorbraak("5/5/5/5/5/5/5/5/p4 w")), None);
    }
}
