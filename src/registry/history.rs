//! A game in progress: the moves from its start, and the positions seen, for repetition.

use super::{AnyMove, AnyPosition, MoveError, PositionError};
use crate::rulesets::{EndReason, Outcome};

/// A game in progress: its start, the moves played, and every position's hash, so a
/// threefold repetition is seen.
#[derive(Clone, Debug)]
pub struct History {
    start: AnyPosition,
    moves: Vec<AnyMove>,
    current: AnyPosition,
    /// Hashes of the positions before the current one, oldest first.
    earlier: Vec<u64>,
}

impl History {
    pub fn new(start: AnyPosition) -> History {
        History {
            current: start.clone(),
            start,
            moves: Vec::new(),
            earlier: Vec::new(),
        }
    }

    /// The game after `moves` (move texts) from `start`; the error names the first move
    /// refused and why.
    pub fn from_moves<S: AsRef<str>>(
        start: AnyPosition,
        moves: &[S],
    ) -> Result<History, PositionError> {
        let mut game = History::new(start);
        for (i, text) in moves.iter().enumerate() {
            let text = text.as_ref();
            game.play_text(text).map_err(|error| PositionError::Move {
                number: i + 1,
                text: text.to_string(),
                error,
            })?;
        }
        Ok(game)
    }

    pub fn start(&self) -> &AnyPosition {
        &self.start
    }

    pub fn moves(&self) -> &[AnyMove] {
        &self.moves
    }

    pub fn position(&self) -> &AnyPosition {
        &self.current
    }

    /// Hashes of the positions before the current one, oldest first.
    pub fn earlier_hashes(&self) -> &[u64] {
        &self.earlier
    }

    /// Plays a move after checking it.
    pub fn try_play(&mut self, m: AnyMove) -> Result<(), MoveError> {
        self.current.check_move(m)?;
        self.earlier.push(self.current.hash());
        self.current.play(m);
        self.moves.push(m);
        Ok(())
    }

    /// Plays move text after checking it.
    pub fn play_text(&mut self, text: &str) -> Result<AnyMove, MoveError> {
        let m = self.current.parse_move(text)?;
        self.try_play(m)?;
        Ok(m)
    }

    /// The end of the game, by the board or by threefold repetition.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(end) = self.current.outcome() {
            return Some(end);
        }
        let key = self.current.hash();
        let seen = self.earlier.iter().filter(|&&h| h == key).count();
        (seen >= 2).then_some(Outcome::draw(EndReason::Repetition))
    }
}
