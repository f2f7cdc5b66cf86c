//! What every rule set's rules share: the two sides and how a game ends.

use std::fmt;

/// A side. White moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    /// Index for per-colour arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The FEN letter for the side to move: `w` or `b`.
    pub const fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// `White` or `Black`, for sentences.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// A piece reached the winner's last rank.
    GoalReached,
    /// The loser has no pieces left.
    NoPieces,
    /// The loser has no legal move (Breakthrough).
    NoMoves,
    /// Both sides passed in a row (Doorbraak; a draw).
    TwoPasses,
    /// The same position with the same side to move came up a third time (a draw).
    Repetition,
}

/// The end of a game: the winner (`None` for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winner: Option<Color>,
    pub reason: EndReason,
}

impl Outcome {
    pub const fn win(winner: Color, reason: EndReason) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
        }
    }

    pub const fn draw(reason: EndReason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    pub const fn result_text(self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.winner, self.reason) {
            (Some(w), EndReason::GoalReached) => write!(f, "{} reached the goal rank", w.name()),
            (Some(w), EndReason::NoPieces) => {
                write!(f, "{} has no pieces left", w.opponent().name())
            }
            (Some(w), EndReason::NoMoves) => {
                write!(f, "{} has no legal move", w.opponent().name())
            }
            (_, EndReason::TwoPasses) => write!(f, "draw: both sides passed"),
            (_, EndReason::Repetition) => write!(f, "draw: threefold repetition"),
            (None, reason) => write!(f, "draw ({reason:?})"),
        }
    }
}
