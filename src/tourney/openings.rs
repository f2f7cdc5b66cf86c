//! Where games start: a FEN, a move list, or random plies from the start.

use crate::registry::{AnyMove, AnyPosition, FenError, MoveError, Variant};
use crate::util::rng::Rng;

/// Why an opening cannot be used.
#[derive(Debug, thiserror::Error)]
pub(crate) enum OpeningError {
    #[error("bad FEN: {0}")]
    Fen(#[from] FenError),
    #[error("bad move: {0}")]
    Move(#[from] MoveError),
    #[error("the game is already over after this opening")]
    GameOver,
    #[error("cannot read openings file {path}: {error}")]
    Read { path: String, error: std::io::Error },
    #[error("{path}:{line}: {error}")]
    Line {
        path: String,
        line: usize,
        error: Box<OpeningError>,
    },
    #[error("openings file {0} holds no opening")]
    Empty(String),
    #[error("found no {0}-ply opening that leaves a game to play")]
    NoRandomOpening(u32),
}

/// A start position and the moves played from it before the engines take over.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Opening {
    pub(crate) start: AnyPosition,
    pub(crate) moves: Vec<AnyMove>,
}

impl Opening {
    /// True when the start is the variant's start (so `position startpos` can be sent).
    pub(crate) fn is_startpos(&self) -> bool {
        self.start.is_startpos()
    }

    /// The position the engines play from.
    pub(crate) fn position(&self) -> AnyPosition {
        let mut pos = self.start.clone();
        for &m in &self.moves {
            pos.play(m);
        }
        pos
    }

    /// Reads one line of an openings file: `FEN`, `FEN moves m1 m2 ...`, or `m1 m2 ...`
    /// (moves from the variant's start). Every move is checked; the opening must leave a game to play.
    pub(crate) fn parse(line: &str, variant: Variant) -> Result<Opening, OpeningError> {
        let line = line.trim();
        let (start, moves) = if line.contains('/') {
            let (fen, moves) = match line.split_once(" moves") {
                Some((fen, moves)) => (fen.trim(), moves),
                None => (line, ""),
            };
            let start = AnyPosition::from_fen(fen, variant)?;
            (start, moves)
        } else {
            (AnyPosition::startpos(variant), line)
        };
        let mut pos = start.clone();
        let mut list = Vec::new();
        for text in moves.split_whitespace() {
            let m = pos.parse_move(text)?;
            pos.play(m);
            list.push(m);
        }
        if pos.outcome().is_some() {
            return Err(OpeningError::GameOver);
        }
        Ok(Opening { start, moves: list })
    }

    /// Reads an openings file, skipping blank lines and `#` comments.
    pub(crate) fn load_file(path: &str, variant: Variant) -> Result<Vec<Opening>, OpeningError> {
        let text = std::fs::read_to_string(path).map_err(|error| OpeningError::Read {
            path: path.to_string(),
            error,
        })?;
        let mut openings = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let opening = Opening::parse(line, variant).map_err(|error| OpeningError::Line {
                path: path.to_string(),
                line: i + 1,
                error: Box::new(error),
            })?;
            openings.push(opening);
        }
        if openings.is_empty() {
            return Err(OpeningError::Empty(path.to_string()));
        }
        Ok(openings)
    }

    /// `plies` random legal moves (never a pass) from `start` that do not end the game
    /// and do not leave the side to move a win in one. Deterministic for a given seed.
    pub(crate) fn random(
        start: &AnyPosition,
        plies: u32,
        rng: &mut Rng,
    ) -> Result<Opening, OpeningError> {
        for _ in 0..1000 {
            if let Some(moves) = start.random_line(plies, rng) {
                return Ok(Opening {
                    start: start.clone(),
                    moves,
                });
            }
        }
        Err(OpeningError::NoRandomOpening(plies))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_each_line_form() {
        let v: Variant = "breakthrough".parse().unwrap();
        let a = Opening::parse("a2a3 h7h6", v).unwrap();
        assert!(a.is_startpos() && a.moves.len() == 2);
        let b = Opening::parse("ppppp/ppppp/5/PPPPP/PPPPP w - - 0 1 moves a2b3", v).unwrap();
        assert!(!b.is_startpos() && b.moves.len() == 1);
        let c = Opening::parse("ppppp/ppppp/5/PPPPP/PPPPP b", v).unwrap();
        assert!(c.moves.is_empty());
        assert!(matches!(
            Opening::parse("a2a4", v),
            Err(OpeningError::Move(_))
        ));
        assert!(matches!(
            Opening::parse("ppppp/pppp/5/PPPPP/PPPPP w", v),
            Err(OpeningError::Fen(_))
        ));
        assert!(matches!(
            Opening::parse("P4/5/5/5/p4 w", v),
            Err(OpeningError::GameOver)
        ));
    }

    #[test]
    fn random_openings_are_seeded_and_playable() {
        let variant = |name: &str| -> Variant { name.parse().unwrap() };
        let start = AnyPosition::startpos(variant("capture-only"));
        let a = Opening::random(&start, 8, &mut Rng::new(5)).unwrap();
        let b = Opening::random(&start, 8, &mut Rng::new(5)).unwrap();
        let c = Opening::random(&start, 8, &mut Rng::new(6)).unwrap();
        let tiny = AnyPosition::from_fen("ppp/3/3/PPP w", variant("breakthrough")).unwrap();
        assert!(Opening::random(&tiny, 30, &mut Rng::new(1)).is_err());
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(a.moves.len(), 8);
        assert!(a.position().outcome().is_none());
        let d = AnyPosition::startpos(variant("doorbraak"));
        let opening = Opening::random(&d, 6, &mut Rng::new(3)).unwrap();
        assert!(opening.moves.iter().all(|&m| !d.is_pass(m)));
        assert!(Opening::parse("b2a1 0000", variant("doorbraak")).is_ok());
    }
}
