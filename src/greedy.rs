//! `breakthrough greedy`: a one-ply greedy player over UCI, a sparring partner for
//! measuring the engine in rule sets no other engine plays (Doorbraak).
//!
//! It takes a win at once, never plays a move that loses at once, and otherwise
//! picks the move leaving the most material, then the most advanced stones; ties go
//! to a pseudo-random pick seeded by the position, so games differ. It never searches
//! the opponent's replies.

use std::io::Write;

use crate::rules::Color;
use crate::uci::{parse_position, parse_setoption};
use crate::variant::{AnyMove, AnyPosition, GameHistory, GameVariant};

/// Pieces of `color` and their advancement (the sum of their ranks counted from its side).
fn material(pos: &AnyPosition, color: Color) -> (i32, i32) {
    let (mut pieces, mut advance) = (0, 0);
    match pos {
        AnyPosition::Breakthrough(p) => {
            let mut pawns = p.pawns(color);
            while pawns != 0 {
                let rank = (pawns.trailing_zeros() / 8) as i32;
                pawns &= pawns - 1;
                pieces += 1;
                advance += match color {
                    Color::White => rank,
                    Color::Black => p.ranks() as i32 - 1 - rank,
                };
            }
        }
        AnyPosition::Doorbraak(p) => {
            let mut squares = p.occupied_by(color);
            while squares != 0 {
                let square = crate::doorbraak::Square::from_index(squares.trailing_zeros() as u8);
                squares &= squares - 1;
                let stones = if p.stacks(color) & square.bit() != 0 {
                    2
                } else {
                    1
                };
                pieces += stones;
                advance += stones * square.relative_rank(color) as i32;
            }
        }
    }
    (pieces, advance)
}

/// The score of playing `m`, for the mover.
fn score(pos: &AnyPosition, m: AnyMove) -> i64 {
    let us = pos.side_to_move();
    let child = pos.child(m);
    if let Some(end) = child.ending() {
        return match end.winner {
            Some(w) if w == us => i64::MAX / 2,
            Some(_) => i64::MIN / 2,
            None => -1_000_000,
        };
    }
    let (ours, our_advance) = material(&child, us);
    let (theirs, their_advance) = material(&child, us.opponent());
    // Passing scores as standing still, below any move that changes nothing.
    let pass_penalty = if m.is_pass() { 1 } else { 0 };
    (((ours - theirs) * 1000 + our_advance - their_advance) * 4 - pass_penalty) as i64
}

fn best_move(pos: &AnyPosition) -> Option<AnyMove> {
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
    let pick = (pos.hash().wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize % ties.len();
    Some(ties[pick])
}

/// Runs the greedy player on stdin/stdout until `quit` or the end of input.
pub fn run() {
    let mut variant = GameVariant::Breakthrough;
    let mut game: Result<GameHistory, String> =
        Ok(GameHistory::new(AnyPosition::startpos(variant)));
    let stdout = std::io::stdout();
    let say = |text: &str| {
        let mut out = stdout.lock();
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    };
    for line in std::io::stdin().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => say(
                "id name greedy\nid author the breakthrough developers\noption name UCI_Variant type combo default breakthrough var breakthrough var capture-only var doorbraak\nuciok",
            ),
            Some("isready") => say("readyok"),
            Some("quit") => break,
            Some("setoption") => {
                let chosen = parse_setoption(&words[1..]).and_then(|(name, value)| {
                    if !name.eq_ignore_ascii_case("UCI_Variant") {
                        return Err(format!(
                            "unknown option '{name}' (greedy has only UCI_Variant)"
                        ));
                    }
                    value
                        .ok_or("option UCI_Variant needs a value".to_string())?
                        .parse::<GameVariant>()
                });
                match chosen {
                    Ok(v) => {
                        variant = v;
                        game = Ok(GameHistory::new(AnyPosition::startpos(v)));
                    }
                    Err(e) => say(&format!("info string error: {e}")),
                }
            }
            Some("position") => {
                game = parse_position(&words[1..]).and_then(|(start, moves)| {
                    GameHistory::from_moves(start.position(variant)?, &moves)
                });
                if let Err(e) = &game {
                    say(&format!("info string error: position refused: {e}"));
                }
            }
            Some("go") => match &game {
                Ok(g) => match best_move(g.position()) {
                    Some(m) => say(&format!("bestmove {m}")),
                    None => say("bestmove (none)"),
                },
                Err(_) => say("info string error: no valid position\nbestmove (none)"),
            },
            Some("ucinewgame" | "stop") | None => {}
            Some(other) => say(&format!("info string error: unknown command '{other}'")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_a_win_and_a_capture() {
        let win =
            AnyPosition::from_fen("4p/1Q3/1Q3/P4/5/5/5/5/5 w", GameVariant::Doorbraak).unwrap();
        assert_eq!(best_move(&win).unwrap().to_string(), "a6b7");
        let capture =
            AnyPosition::from_fen("4p/5/5/5/2Qp1/1P3/5/5/5 w", GameVariant::Doorbraak).unwrap();
        assert_eq!(best_move(&capture).unwrap().to_string(), "b4c5");
    }
}
