//! Where games start: a FEN, a move list, or random plies from the start.

use crate::variant::{AnyMove, AnyPosition, GameVariant};

/// A start position and the moves played from it before the engines take over.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    pub start: AnyPosition,
    pub moves: Vec<AnyMove>,
}

impl Opening {
    /// True when the start is the variant's start (so `position startpos` can be sent).
    pub fn is_startpos(&self) -> bool {
        self.start.is_startpos()
    }

    /// The position the engines play from.
    pub fn position(&self) -> AnyPosition {
        let mut pos = self.start;
        for &m in &self.moves {
            pos.play(m);
        }
        pos
    }

    /// Reads one line of an openings file: `FEN`, `FEN moves m1 m2 ...`, or `m1 m2 ...`
    /// (moves from the variant's start). Every move is checked; the opening must leave a game to play.
    pub fn parse(line: &str, variant: GameVariant) -> Result<Opening, String> {
        let line = line.trim();
        let (start, moves) = if line.contains('/') {
            let (fen, moves) = match line.split_once(" moves") {
                Some((fen, moves)) => (fen.trim(), moves),
                None => (line, ""),
            };
            let start = AnyPosition::from_fen(fen, variant).map_err(|e| format!("bad FEN: {e}"))?;
            (start, moves)
        } else {
            (AnyPosition::startpos(variant), line)
        };
        let mut pos = start;
        let mut list = Vec::new();
        for text in moves.split_whitespace() {
            let m = pos.parse_move(text).map_err(|e| format!("bad move: {e}"))?;
            pos.play(m);
            list.push(m);
        }
        if pos.ending().is_some() {
            return Err("the game is already over after this opening".into());
        }
        Ok(Opening { start, moves: list })
    }

    /// Reads an openings file, skipping blank lines and `#` comments.
    pub fn load_file(path: &str, variant: GameVariant) -> Result<Vec<Opening>, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read openings file {path}: {e}"))?;
        let mut openings = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            openings
                .push(Opening::parse(line, variant).map_err(|e| format!("{path}:{}: {e}", i + 1))?);
        }
        if openings.is_empty() {
            return Err(format!("openings file {path} holds no opening"));
        }
        Ok(openings)
    }

    /// `plies` random legal moves (never a pass) from `start` that do not end the game
    /// and do not leave the side to move a win in one. Deterministic for a given seed.
    pub fn random(start: AnyPosition, plies: u32, rng: &mut SplitMix) -> Result<Opening, String> {
        'attempt: for _ in 0..1000 {
            let mut pos = start;
            let mut moves = Vec::new();
            for _ in 0..plies {
                let candidates: Vec<AnyMove> = pos
                    .legal_moves()
                    .into_iter()
                    .filter(|&m| {
                        let child = pos.child(m);
                        !m.is_pass()
                            && child.ending().is_none()
                            && child
                                .legal_moves()
                                .into_iter()
                                .all(|r| child.child(r).ending().is_none())
                    })
                    .collect();
                if candidates.is_empty() {
                    continue 'attempt;
                }
                let m = candidates[rng.below(candidates.len())];
                pos.play(m);
                moves.push(m);
            }
            return Ok(Opening { start, moves });
        }
        Err(format!(
            "found no {plies}-ply opening that leaves a game to play"
        ))
    }
}

/// A small seeded generator (SplitMix64): the same seed gives the same openings everywhere.
pub struct SplitMix(u64);

impl SplitMix {
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_each_line_form() {
        let v = GameVariant::Breakthrough;
        let a = Opening::parse("a2a3 h7h6", v).unwrap();
        assert!(a.is_startpos() && a.moves.len() == 2);
        let b = Opening::parse("ppppp/ppppp/5/PPPPP/PPPPP w - - 0 1 moves a2b3", v).unwrap();
        assert!(!b.is_startpos() && b.moves.len() == 1);
        let c = Opening::parse("ppppp/ppppp/5/PPPPP/PPPPP b", v).unwrap();
        assert!(c.moves.is_empty());
        assert!(Opening::parse("a2a4", v).unwrap_err().contains("bad move"));
        assert!(
            Opening::parse("ppppp/pppp/5/PPPPP/PPPPP w", v)
                .unwrap_err()
                .contains("bad FEN")
        );
        assert!(
            Opening::parse("P4/5/5/5/p4 w", v)
                .unwrap_err()
                .contains("over")
        );
    }

    #[test]
    fn random_openings_are_seeded_and_playable() {
        let start = AnyPosition::startpos(GameVariant::CaptureOnly);
        let a = Opening::random(start, 8, &mut SplitMix::new(5)).unwrap();
        let b = Opening::random(start, 8, &mut SplitMix::new(5)).unwrap();
        let c = Opening::random(start, 8, &mut SplitMix::new(6)).unwrap();
        let tiny = AnyPosition::from_fen("ppp/3/3/PPP w", GameVariant::Breakthrough).unwrap();
        assert!(Opening::random(tiny, 30, &mut SplitMix::new(1)).is_err());
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(a.moves.len(), 8);
        assert!(a.position().ending().is_none());
        let d = AnyPosition::startpos(GameVariant::Doorbraak);
        let opening = Opening::random(d, 6, &mut SplitMix::new(3)).unwrap();
        assert!(opening.moves.iter().all(|m| !m.is_pass()));
        assert!(Opening::parse("b2a1 0000", GameVariant::Doorbraak).is_ok());
    }
}
