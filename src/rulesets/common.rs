//! What every rule set's rules share: the two sides, how a game ends, and the two traits
//! each rule set's rules implement: [`Rules`] (what the game is) and [`SearchRules`]
//! (what the search may ask of it).

use std::fmt::{self, Debug, Display};
use std::ops::DerefMut;

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

/// How a finished game ended, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Won,
    Lost,
    Drawn,
}

/// What the rules of a game are: positions written and read (FEN, a packed form), legal
/// moves, playing them, and the end of the game. A rule set's position type implements
/// it in the rule set's `rules/` folder; everything above reaches the rules through it.
///
/// ```
/// use breakthrough::rulesets::Rules;
/// use breakthrough::rulesets::breakthrough::{DiagonalStep, Position};
/// let mut pos = Position::startpos(DiagonalStep::Free);
/// assert_eq!(pos.legal_moves().len(), 22);
/// let m = Position::read_move("a2a3").unwrap();
/// pos.check_move(m).unwrap();
/// pos.play(m);
/// assert_eq!(pos.perft(1), 22);
/// ```
pub trait Rules: Copy + Send + Sync + Debug + 'static {
    type Move: Copy + Eq + Send + Sync + Display + Debug + 'static;
    type Moves: DerefMut<Target = [Self::Move]>;
    /// What tells apart rule sets that share this position type (Breakthrough's diagonal
    /// rule); `()` where nothing does.
    type Config: Copy + Send + Sync + 'static;
    type FenError: std::error::Error + Send + Sync + 'static;
    type MoveError: std::error::Error + Send + Sync + 'static;

    /// Bytes of [`Rules::pack`]: every position of the rule set packs to as many.
    const PACKED_BYTES: usize;
    /// True where the same position can come back, so the search must look for
    /// repetitions (Breakthrough's pawns never move back).
    const CAN_REPEAT: bool = false;

    /// The standard start position.
    fn startpos(config: Self::Config) -> Self;
    /// The start position of a board of `files` x `ranks`, where the rules have one.
    fn start_on_board(config: Self::Config, files: u8, ranks: u8) -> Option<Self> {
        let start = Self::startpos(config);
        (start.board() == (files, ranks)).then_some(start)
    }
    fn from_fen(fen: &str, config: Self::Config) -> Result<Self, Self::FenError>;
    fn to_fen(&self) -> String;
    /// The board as text, for `d`.
    fn diagram(&self) -> String;
    /// The board's files and ranks.
    fn board(&self) -> (u8, u8);
    /// A compact form for data files (the configuration is not in it).
    fn pack(&self, out: &mut Vec<u8>);
    /// The position of [`Rules::pack`]; `None` for bytes no position gives.
    fn unpack(bytes: &[u8], config: Self::Config) -> Option<Self>;

    /// Reads move text without looking at a position (its shape only).
    fn read_move(text: &str) -> Result<Self::Move, Self::MoveError>;
    /// Checks that `m` is legal here, saying why not.
    fn check_move(&self, m: Self::Move) -> Result<(), Self::MoveError>;
    /// Move to a 12-bit code (for tables, killers, history and the registry) and back.
    fn encode(m: Self::Move) -> u16;
    fn decode(code: u16) -> Option<Self::Move>;
    /// True for a move that passes the turn.
    fn is_pass(_m: Self::Move) -> bool {
        false
    }

    fn side_to_move(&self) -> Color;
    /// Zobrist hash of the position (side to move included).
    fn hash(&self) -> u64;
    /// Legal moves, at most `crate::rulesets::MAX_MOVES`; empty when the game is over.
    fn legal_moves(&self) -> Self::Moves;
    /// Plays a legal move (from [`Rules::legal_moves`] or checked).
    fn play(&mut self, m: Self::Move);
    /// The result, when the position itself ends the game (repetition needs the game's
    /// history: `crate::registry::History` and the search judge it).
    fn outcome(&self) -> Option<Outcome>;
    /// Leaves of the legal-move tree `depth` plies deep.
    fn perft(&self, depth: u32) -> u64;
    /// Moves the side to move has made at least to reach this position, read from the
    /// board alone (for the clock when a GUI sends a bare FEN).
    fn moves_made_at_least(&self) -> u64 {
        0
    }

    /// The result from the side to move's view, when the position ends the game.
    #[inline]
    fn end(&self) -> Option<End> {
        self.outcome().map(|o| match o.winner {
            None => End::Drawn,
            Some(winner) if winner == self.side_to_move() => End::Won,
            Some(_) => End::Lost,
        })
    }
}

/// What the search may ask of the rules beyond playing them: facts that follow from the
/// rules alone, found without search.
pub trait SearchRules: Rules {
    /// Gives the opponent a free move, for null-move pruning (never counts toward a
    /// rule that ends the game).
    fn play_null(&mut self);
    /// True where passing is a fair test of a position's strength (no zugzwang to fear).
    fn null_move_allowed(&self) -> bool;
    /// A move that wins at once, if any.
    fn winning_move(&self) -> Option<Self::Move>;
    /// A move that wins by force on the mover's next move (three plies), where the rules
    /// allow such a shortcut.
    fn win_in_two(&self) -> Option<Self::Move>;
    /// True when the opponent would win at once if it could move now.
    fn opponent_threatens_win(&self) -> bool;
    /// Captures and other moves quiescence search must look at.
    fn is_tactical(&self, m: Self::Move) -> bool;
    /// A list that begins with the tactical moves, in [`Rules::legal_moves`]' order, and
    /// how many they are: quiescence reads that part alone, so a rule set that can
    /// generate its captures by themselves may leave the other moves out.
    fn tactical_moves_first(&self) -> (Self::Moves, usize) {
        let mut moves = self.legal_moves();
        let mut count = 0;
        for i in 0..moves.len() {
            if self.is_tactical(moves[i]) {
                moves.swap(count, i);
                count += 1;
            }
        }
        (moves, count)
    }
    /// A move-ordering hint for tactical moves: higher first.
    fn tactical_order(&self, m: Self::Move) -> i32;
    /// How many steps the moved piece still has to go to its goal after the move
    /// (`u8::MAX` where the rules have no such distance). Steps close to the goal start
    /// breakthroughs, so the search treats them as forcing.
    fn steps_to_goal_after(&self, m: Self::Move) -> u8;

    /// True when the game goes on, the side to move has no win in one and the opponent
    /// threatens none: a position whose value is not a matter of the next move.
    fn is_quiet(&self) -> bool {
        self.outcome().is_none() && self.winning_move().is_none() && !self.opponent_threatens_win()
    }
}
