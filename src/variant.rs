//! Every rule set the engine plays, behind one type each for positions and moves, so
//! the protocol, the match referee and the command line handle all of them alike.
//! The search stays generic over [`crate::game::SearchGame`]: only these outer layers
//! dispatch on the variant.

use std::fmt;
use std::str::FromStr;

use crate::rules::{self, Color, Variant};
use crate::{doorbraak, game::SearchGame};

/// A rule set, as named by `UCI_Variant` and `--variant`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum GameVariant {
    /// Troyka's Breakthrough.
    #[default]
    Breakthrough,
    /// Breakthrough where a diagonal step must capture.
    CaptureOnly,
    /// Freeling's Doorbraak: 5x9, sliding stones, exploding stacks.
    Doorbraak,
}

impl GameVariant {
    pub const ALL: [GameVariant; 3] = [
        GameVariant::Breakthrough,
        GameVariant::CaptureOnly,
        GameVariant::Doorbraak,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            GameVariant::Breakthrough => "breakthrough",
            GameVariant::CaptureOnly => "capture-only",
            GameVariant::Doorbraak => "doorbraak",
        }
    }

    /// The Breakthrough rule set, for the two variants played on a Breakthrough board.
    pub const fn breakthrough_rules(self) -> Option<Variant> {
        match self {
            GameVariant::Breakthrough => Some(Variant::Breakthrough),
            GameVariant::CaptureOnly => Some(Variant::CaptureOnly),
            GameVariant::Doorbraak => None,
        }
    }
}

impl From<Variant> for GameVariant {
    fn from(v: Variant) -> GameVariant {
        match v {
            Variant::Breakthrough => GameVariant::Breakthrough,
            Variant::CaptureOnly => GameVariant::CaptureOnly,
        }
    }
}

impl fmt::Display for GameVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameVariant {
    type Err = String;
    fn from_str(s: &str) -> Result<GameVariant, String> {
        GameVariant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| {
                format!("unknown variant '{s}' (expected breakthrough, capture-only or doorbraak)")
            })
    }
}

/// A move of any rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyMove {
    Breakthrough(rules::Move),
    Doorbraak(doorbraak::Move),
}

impl AnyMove {
    pub fn is_pass(self) -> bool {
        matches!(self, AnyMove::Doorbraak(m) if m.is_pass())
    }
}

impl fmt::Display for AnyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyMove::Breakthrough(m) => m.fmt(f),
            AnyMove::Doorbraak(m) => m.fmt(f),
        }
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
pub struct GameEnd {
    pub winner: Option<Color>,
    pub reason: EndReason,
}

impl fmt::Display for GameEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |c: Color| match c {
            Color::White => "White",
            Color::Black => "Black",
        };
        match (self.winner, self.reason) {
            (Some(w), EndReason::GoalReached) => write!(f, "{} reached the goal rank", side(w)),
            (Some(w), EndReason::NoPieces) => {
                write!(f, "{} has no pieces left", side(w.opponent()))
            }
            (Some(w), EndReason::NoMoves) => {
                write!(f, "{} has no legal move", side(w.opponent()))
            }
            (_, EndReason::TwoPasses) => write!(f, "draw: both sides passed"),
            (_, EndReason::Repetition) => write!(f, "draw: threefold repetition"),
            (None, reason) => write!(f, "draw ({reason:?})"),
        }
    }
}

/// A position of any rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnyPosition {
    Breakthrough(rules::Position),
    Doorbraak(doorbraak::Position),
}

/// Runs `$body` with `$p` bound to the position inside, whatever its rule set.
macro_rules! each {
    ($pos:expr, $p:ident => $body:expr) => {
        match $pos {
            AnyPosition::Breakthrough($p) => $body,
            AnyPosition::Doorbraak($p) => $body,
        }
    };
}

impl AnyPosition {
    pub fn startpos(variant: GameVariant) -> AnyPosition {
        match variant.breakthrough_rules() {
            Some(v) => AnyPosition::Breakthrough(rules::Position::startpos(v)),
            None => AnyPosition::Doorbraak(doorbraak::Position::startpos()),
        }
    }

    /// Reads a FEN of `variant`; the error is one line of text.
    pub fn from_fen(fen: &str, variant: GameVariant) -> Result<AnyPosition, String> {
        match variant.breakthrough_rules() {
            Some(v) => rules::Position::from_fen(fen, v)
                .map(AnyPosition::Breakthrough)
                .map_err(|e| e.to_string()),
            None => doorbraak::Position::from_fen(fen)
                .map(AnyPosition::Doorbraak)
                .map_err(|e| e.to_string()),
        }
    }

    pub fn variant(&self) -> GameVariant {
        match self {
            AnyPosition::Breakthrough(p) => p.variant().into(),
            AnyPosition::Doorbraak(_) => GameVariant::Doorbraak,
        }
    }

    pub fn to_fen(&self) -> String {
        each!(self, p => p.to_fen())
    }

    /// True for the variant's standard start (so `position startpos` describes it).
    pub fn is_startpos(&self) -> bool {
        *self == AnyPosition::startpos(self.variant())
    }

    pub fn side_to_move(&self) -> Color {
        each!(self, p => p.side_to_move())
    }

    pub fn hash(&self) -> u64 {
        each!(self, p => p.hash())
    }

    /// Moves the side to move has made at least to reach this position, read from the
    /// board alone (for the clock when a GUI sends a bare FEN): Breakthrough pawns only
    /// step forward; Doorbraak stones move both ways, so it says nothing there.
    pub fn moves_made_at_least(&self) -> u64 {
        match self {
            AnyPosition::Breakthrough(p) => p.moves_made_at_least(p.side_to_move()),
            AnyPosition::Doorbraak(_) => 0,
        }
    }

    pub fn diagram(&self) -> String {
        each!(self, p => p.diagram())
    }

    /// Every legal move; empty when the game is over by the board.
    pub fn legal_moves(&self) -> Vec<AnyMove> {
        match self {
            AnyPosition::Breakthrough(p) => p
                .legal_moves()
                .iter()
                .map(|&m| AnyMove::Breakthrough(m))
                .collect(),
            AnyPosition::Doorbraak(p) => p
                .legal_moves()
                .iter()
                .map(|&m| AnyMove::Doorbraak(m))
                .collect(),
        }
    }

    /// Reads move text as a legal move here; the error is one line of text.
    pub fn parse_move(&self, text: &str) -> Result<AnyMove, String> {
        match self {
            AnyPosition::Breakthrough(p) => p
                .parse_move(text)
                .map(AnyMove::Breakthrough)
                .map_err(|e| e.to_string()),
            AnyPosition::Doorbraak(p) => p
                .parse_move(text)
                .map(AnyMove::Doorbraak)
                .map_err(|e| e.to_string()),
        }
    }

    /// True if `text` has the shape of a move of this rule set (legal here or not).
    pub fn is_move_text(&self, text: &str) -> bool {
        match self {
            AnyPosition::Breakthrough(_) => rules::Move::from_uci(text).is_ok(),
            AnyPosition::Doorbraak(_) => doorbraak::Move::from_uci(text).is_ok(),
        }
    }

    /// Checks that `m` is a legal move here.
    pub fn check_move(&self, m: AnyMove) -> Result<(), String> {
        match (self, m) {
            (AnyPosition::Breakthrough(p), AnyMove::Breakthrough(m)) => {
                p.check_move(m).map_err(|e| e.to_string())
            }
            (AnyPosition::Doorbraak(p), AnyMove::Doorbraak(m)) => {
                p.check_move(m).map_err(|e| e.to_string())
            }
            _ => Err(format!("{m} is a move of another game")),
        }
    }

    /// Plays a legal move (from [`AnyPosition::legal_moves`] or a checked one).
    pub fn play(&mut self, m: AnyMove) {
        match (self, m) {
            (AnyPosition::Breakthrough(p), AnyMove::Breakthrough(m)) => p.play_unchecked(m),
            (AnyPosition::Doorbraak(p), AnyMove::Doorbraak(m)) => p.play_unchecked(m),
            _ => debug_assert!(false, "a move of another game"),
        }
    }

    pub fn child(&self, m: AnyMove) -> AnyPosition {
        let mut next = *self;
        next.play(m);
        next
    }

    /// The end of the game by the board alone (threefold repetition is judged by
    /// [`GameHistory`], which knows the earlier positions).
    pub fn ending(&self) -> Option<GameEnd> {
        match self {
            AnyPosition::Breakthrough(p) => p.outcome().map(|o| GameEnd {
                winner: Some(o.winner),
                reason: match o.reason {
                    rules::WinReason::GoalReached => EndReason::GoalReached,
                    rules::WinReason::NoPawns => EndReason::NoPieces,
                    rules::WinReason::NoMoves => EndReason::NoMoves,
                },
            }),
            AnyPosition::Doorbraak(p) => p.ending().map(|e| match e {
                doorbraak::Ending::GoalReached(c) => GameEnd {
                    winner: Some(c),
                    reason: EndReason::GoalReached,
                },
                doorbraak::Ending::NoStones(c) => GameEnd {
                    winner: Some(c.opponent()),
                    reason: EndReason::NoPieces,
                },
                doorbraak::Ending::TwoPasses => GameEnd {
                    winner: None,
                    reason: EndReason::TwoPasses,
                },
            }),
        }
    }

    /// Leaves below each legal move at `depth`, on the current rayon pool.
    pub fn perft_divide(&self, depth: u32) -> Vec<(AnyMove, u64)> {
        match self {
            AnyPosition::Breakthrough(p) => rules::perft_divide(p, depth)
                .into_iter()
                .map(|(m, n)| (AnyMove::Breakthrough(m), n))
                .collect(),
            AnyPosition::Doorbraak(p) => doorbraak::perft_divide(p, depth)
                .into_iter()
                .map(|(m, n)| (AnyMove::Doorbraak(m), n))
                .collect(),
        }
    }

    /// Static evaluation from the side to move's view.
    pub fn evaluate(&self) -> i32 {
        each!(self, p => p.evaluate())
    }
}

/// A game in progress: its start, the moves played, and every position's hash, so
/// a threefold repetition is seen.
#[derive(Clone, Debug)]
pub struct GameHistory {
    pub start: AnyPosition,
    pub moves: Vec<AnyMove>,
    current: AnyPosition,
    /// Hashes of the positions before the current one, oldest first.
    earlier: Vec<u64>,
}

impl GameHistory {
    pub fn new(start: AnyPosition) -> GameHistory {
        GameHistory {
            start,
            moves: Vec::new(),
            current: start,
            earlier: Vec::new(),
        }
    }

    pub fn position(&self) -> &AnyPosition {
        &self.current
    }

    /// Hashes of the positions before the current one, oldest first.
    pub fn earlier_hashes(&self) -> &[u64] {
        &self.earlier
    }

    /// Plays a move after checking it.
    pub fn try_play(&mut self, m: AnyMove) -> Result<(), String> {
        self.current.check_move(m)?;
        self.earlier.push(self.current.hash());
        self.current.play(m);
        self.moves.push(m);
        Ok(())
    }

    /// The game after `moves` (move texts) from `start`; the error names the first
    /// move refused and why.
    pub fn from_moves<S: AsRef<str>>(
        start: AnyPosition,
        moves: &[S],
    ) -> Result<GameHistory, String> {
        let mut game = GameHistory::new(start);
        for (i, text) in moves.iter().enumerate() {
            let text = text.as_ref();
            game.play_text(text)
                .map_err(|e| format!("move {} ({text}) refused: {e}", i + 1))?;
        }
        Ok(game)
    }

    /// Plays move text after checking it.
    pub fn play_text(&mut self, text: &str) -> Result<AnyMove, String> {
        let m = self.current.parse_move(text)?;
        self.try_play(m)?;
        Ok(m)
    }

    /// The end of the game, by the board or by threefold repetition.
    pub fn ending(&self) -> Option<GameEnd> {
        if let Some(end) = self.current.ending() {
            return Some(end);
        }
        let key = self.current.hash();
        let seen = self.earlier.iter().filter(|&&h| h == key).count();
        (seen >= 2).then_some(GameEnd {
            winner: None,
            reason: EndReason::Repetition,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for v in GameVariant::ALL {
            assert_eq!(v.name().parse::<GameVariant>(), Ok(v));
        }
        assert!("chess".parse::<GameVariant>().is_err());
    }

    #[test]
    fn threefold_repetition_ends_a_game() {
        let start = AnyPosition::startpos(GameVariant::Doorbraak);
        let mut game = GameHistory::new(start);
        // Two shuffles back and forth repeat the start twice more.
        for text in ["a2b3", "a8b7", "b3a2", "b7a8", "a2b3", "a8b7", "b3a2"] {
            game.play_text(text).unwrap();
            assert_eq!(game.ending(), None, "after {text}");
        }
        game.play_text("b7a8").unwrap();
        assert_eq!(
            game.ending(),
            Some(GameEnd {
                winner: None,
                reason: EndReason::Repetition
            })
        );
    }
}
