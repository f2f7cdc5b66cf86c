//! Every rule set the engine plays, each in a folder of its own: its rules (`rules/`, the
//! bottom layer of the crate), its evaluation (`eval.rs`, `weights.rs`) and, in its
//! `mod.rs`, its implementation of [`RuleSet`], the one interface through which everything
//! above the rules reaches it. `crate::registry` registers each rule set with one line.

pub mod breakthrough;
mod common;
pub mod doorbraak;
pub mod nnue;
#[cfg(test)]
pub(crate) mod toy;

use std::fmt::{Debug, Display};
use std::ops::DerefMut;

pub use common::{Color, EndReason, Outcome};

/// How a finished game ended, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    Won,
    Lost,
    Drawn,
}

/// Most legal moves any position of any rule set may have.
pub(crate) const MAX_MOVES: usize = 256;
const _: () = assert!(breakthrough::MAX_MOVES <= MAX_MOVES);
const _: () = assert!(doorbraak::MAX_MOVES <= MAX_MOVES);

/// A named group of evaluation features (`first..first + count`), for the `eval` table.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TermGroup {
    pub(crate) name: &'static str,
    pub(crate) first: usize,
    pub(crate) count: usize,
}

impl TermGroup {
    pub(crate) const fn new(name: &'static str, first: usize, count: usize) -> TermGroup {
        TermGroup { name, first, count }
    }
}

/// A rule set, implemented by its position type: what the protocol, the engine facade,
/// the search, the referee, the tuner and the greedy player need from it.
pub(crate) trait RuleSet: Copy + Send + Sync + Debug + 'static {
    type Move: Copy + Eq + Send + Sync + Display + Debug + 'static;
    type Moves: DerefMut<Target = [Self::Move]>;
    /// What tells apart rule sets that share this position type (Breakthrough's diagonal
    /// rule); `()` where nothing does.
    type Config: Copy + Send + Sync + 'static;
    type FenError: std::error::Error + Send + Sync + 'static;
    type MoveError: std::error::Error + Send + Sync + 'static;

    // Notation.
    fn startpos(config: Self::Config) -> Self;
    fn from_fen(fen: &str, config: Self::Config) -> Result<Self, Self::FenError>;
    fn to_fen(&self) -> String;
    /// Reads move text without looking at a position (its shape only).
    fn read_move(text: &str) -> Result<Self::Move, Self::MoveError>;
    /// Checks that `m` is legal here, saying why not.
    fn check_move(&self, m: Self::Move) -> Result<(), Self::MoveError>;
    /// The board as text, for `d`.
    fn diagram(&self) -> String;
    /// The board's files and ranks.
    fn board(&self) -> (u8, u8);
    /// Bytes of [`RuleSet::pack`]: every position of the rule set packs to as many.
    const PACKED_BYTES: usize;
    /// A compact form for data files (the configuration is not in it).
    fn pack(&self, out: &mut Vec<u8>);
    /// The position of [`RuleSet::pack`]; `None` for bytes no position gives.
    fn unpack(bytes: &[u8], config: Self::Config) -> Option<Self>;

    // Play.
    fn side_to_move(&self) -> Color;
    /// Zobrist hash of the position (side to move included).
    fn hash(&self) -> u64;
    /// Legal moves, at most [`MAX_MOVES`]; empty when the game is over.
    fn moves(&self) -> Self::Moves;
    /// Plays a legal move.
    fn play(&mut self, m: Self::Move);
    /// True for a move that passes the turn.
    fn is_pass(_m: Self::Move) -> bool {
        false
    }
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

    // What the search knows of the game.
    /// True where the same position can come back, so the search must look for
    /// repetitions (Breakthrough's pawns never move back).
    const CAN_REPEAT: bool = false;
    /// Gives the opponent a free move, for null-move pruning (never counts toward a
    /// rule that ends the game).
    fn play_null(&mut self);
    /// True where passing is a fair test of a position's strength (no zugzwang to fear).
    fn null_move_allowed(&self) -> bool;
    /// A move that wins at once, if any.
    fn winning_move(&self) -> Option<Self::Move>;
    /// A move that wins by force on the mover's next move (three plies), found without
    /// search, where the rules allow such a shortcut.
    fn win_in_two(&self) -> Option<Self::Move>;
    /// True when the opponent would win at once if it could move now.
    fn opponent_threatens_win(&self) -> bool;
    /// Captures and other moves quiescence search must look at.
    fn is_tactical(&self, m: Self::Move) -> bool;
    /// A move-ordering hint for tactical moves: higher first.
    fn tactical_order(&self, m: Self::Move) -> i32;
    /// How many steps the moved piece still has to go to its goal after the move
    /// (`u8::MAX` where the rules have no such distance). Steps close to the goal start
    /// breakthroughs, so the search treats them as forcing.
    fn steps_to_goal_after(&self, m: Self::Move) -> u8;
    /// Move to a 12-bit code (for the table, killers and history) and back.
    fn encode(m: Self::Move) -> u16;
    fn decode(code: u16) -> Option<Self::Move>;

    // Evaluation.
    /// Static evaluation from the side to move's view, in centipawns: the weighted sum of
    /// [`RuleSet::features`].
    fn evaluate(&self) -> i32;
    /// The evaluation's features, counted from the side to move's view.
    fn features(&self) -> Vec<i32>;
    /// One weight per feature.
    fn weights(&self) -> &'static [i32];
    /// The features in named groups, for the `eval` command.
    const TERMS: &'static [TermGroup];
    /// `color`'s pieces and their advancement (the sum of their ranks counted from its
    /// side): the greedy player's whole judgement.
    fn material(&self, color: Color) -> (i32, i32);

    /// Inputs of the rule set's networks (0: it has none).
    const NETWORK_INPUTS: usize = 0;

    /// The network inputs active in this position seen from `perspective`, appended to
    /// `out` (nothing where the rule set has no networks).
    fn network_inputs(&self, _perspective: Color, _out: &mut Vec<u16>) {}

    /// The learned evaluation in use, if any.
    fn network(&self) -> Option<&'static nnue::Network> {
        None
    }

    /// Evaluates with `net` from now on (`None`: by hand) if the rule set can; false if it
    /// cannot use that network (it then evaluates by hand).
    fn set_network(&mut self, net: Option<&'static nnue::Network>) -> bool {
        net.is_none()
    }

    /// The network built into the binary for this rule set and board, if there is one
    /// (what a new position evaluates with).
    fn built_in_network(&self) -> Option<&'static nnue::Network> {
        None
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

    /// 0 or 1: whose turn it is, for per-side tables.
    #[inline]
    fn side_index(&self) -> usize {
        self.side_to_move().index()
    }
}
