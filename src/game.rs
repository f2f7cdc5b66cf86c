//! The interface the search needs from a game. Breakthrough implements it here;
//! other rule sets (Doorbraak) plug into the same search, table, clock and protocol.

use std::fmt::{Debug, Display};

use crate::rules::{Move, MoveList, Position};

/// How a finished game ended, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Won,
    Lost,
    Drawn,
}

/// Most legal moves any position of any supported game may have.
pub const MAX_MOVES: usize = 256;
const _: () = assert!(crate::rules::MAX_MOVES <= MAX_MOVES);
const _: () = assert!(crate::doorbraak::MAX_MOVES <= MAX_MOVES);

/// A two-player, perfect-information game position, as the search sees it.
pub trait SearchGame: Copy + Send + Sync + 'static {
    type Move: Copy + Eq + Send + Sync + Display + Debug + 'static;
    type Moves: std::ops::DerefMut<Target = [Self::Move]>;

    /// Zobrist hash of the position (side to move included).
    fn hash(&self) -> u64;
    /// Legal moves, at most [`MAX_MOVES`]; empty when the game is over.
    fn moves(&self) -> Self::Moves;
    /// Plays a legal move.
    fn play(&mut self, m: Self::Move);
    /// Gives the opponent a free move, for null-move pruning (never counts toward a
    /// rule that ends the game).
    fn play_null(&mut self);
    /// True where passing is a fair test of a position's strength (no zugzwang to fear).
    fn null_move_allowed(&self) -> bool;
    /// True where the same position can come back, so the search must look for
    /// repetitions (Breakthrough's pawns never move back).
    const CAN_REPEAT: bool = false;
    /// The result, when the position itself ends the game (repetition is the search's
    /// business: it needs the path that led here).
    fn end(&self) -> Option<End>;
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
    /// Static evaluation from the side to move's view, in centipawns.
    fn evaluate(&self) -> i32;
    /// Move to a 12-bit code (for the table, killers and history) and back.
    fn encode(m: Self::Move) -> u16;
    fn decode(code: u16) -> Option<Self::Move>;
    /// 0 or 1: whose turn it is, for per-side tables.
    fn side_index(&self) -> usize;
}

impl SearchGame for Position {
    type Move = Move;
    type Moves = MoveList;

    #[inline]
    fn hash(&self) -> u64 {
        Position::hash(self)
    }

    #[inline]
    fn moves(&self) -> MoveList {
        self.legal_moves()
    }

    #[inline]
    fn play(&mut self, m: Move) {
        self.play_unchecked(m)
    }

    #[inline]
    fn play_null(&mut self) {
        Position::play_null(self)
    }

    #[inline]
    fn null_move_allowed(&self) -> bool {
        // Capture-only positions often hinge on running out of moves; there a pass
        // would be a move the rules do not allow, and the test would lie.
        self.variant() == crate::rules::Variant::Breakthrough
    }

    #[inline]
    fn end(&self) -> Option<End> {
        self.outcome().map(|o| {
            if o.winner == self.side_to_move() {
                End::Won
            } else {
                End::Lost
            }
        })
    }

    #[inline]
    fn winning_move(&self) -> Option<Move> {
        Position::winning_move(self)
    }

    #[inline]
    fn win_in_two(&self) -> Option<Move> {
        Position::win_in_two(self)
    }

    #[inline]
    fn opponent_threatens_win(&self) -> bool {
        Position::opponent_threatens_win(self)
    }

    #[inline]
    fn is_tactical(&self, m: Move) -> bool {
        self.is_capture(m)
    }

    #[inline]
    fn tactical_order(&self, m: Move) -> i32 {
        // Take the enemy pawn nearest to our home rank first: it is the most dangerous.
        let rank = m.to().rank() as i32;
        match self.side_to_move() {
            crate::rules::Color::White => 8 - rank,
            crate::rules::Color::Black => rank,
        }
    }

    #[inline]
    fn steps_to_goal_after(&self, m: Move) -> u8 {
        self.steps_to_goal(self.side_to_move(), m.to())
    }

    #[inline]
    fn evaluate(&self) -> i32 {
        crate::eval::evaluate(self)
    }

    #[inline]
    fn encode(m: Move) -> u16 {
        m.to_bits()
    }

    #[inline]
    fn decode(code: u16) -> Option<Move> {
        Move::from_bits(code)
    }

    #[inline]
    fn side_index(&self) -> usize {
        self.side_to_move().index()
    }
}

impl SearchGame for crate::doorbraak::Position {
    type Move = crate::doorbraak::Move;
    type Moves = crate::doorbraak::MoveList;
    const CAN_REPEAT: bool = true;

    #[inline]
    fn hash(&self) -> u64 {
        crate::doorbraak::Position::hash(self)
    }

    #[inline]
    fn moves(&self) -> Self::Moves {
        self.legal_moves()
    }

    #[inline]
    fn play(&mut self, m: Self::Move) {
        self.play_unchecked(m)
    }

    #[inline]
    fn play_null(&mut self) {
        crate::doorbraak::Position::play_null(self)
    }

    #[inline]
    fn null_move_allowed(&self) -> bool {
        // Passing is always legal, so no position is a zugzwang.
        true
    }

    fn end(&self) -> Option<End> {
        use crate::doorbraak::Ending;
        let us = self.side_to_move();
        self.ending().map(|e| match e {
            Ending::TwoPasses => End::Drawn,
            Ending::GoalReached(winner) if winner == us => End::Won,
            Ending::NoStones(loser) if loser != us => End::Won,
            _ => End::Lost,
        })
    }

    #[inline]
    fn winning_move(&self) -> Option<Self::Move> {
        crate::doorbraak::Position::winning_move(self)
    }

    #[inline]
    fn win_in_two(&self) -> Option<Self::Move> {
        None
    }

    fn opponent_threatens_win(&self) -> bool {
        let mut passed = *self;
        passed.play_null();
        passed.winning_move().is_some()
    }

    #[inline]
    fn is_tactical(&self, m: Self::Move) -> bool {
        self.explodes(m)
    }

    #[inline]
    fn tactical_order(&self, m: Self::Move) -> i32 {
        // Explosions higher up the board come closer to the goal.
        m.to().relative_rank(self.side_to_move()) as i32
    }

    #[inline]
    fn steps_to_goal_after(&self, _m: Self::Move) -> u8 {
        // Stacks explode and jump: no simple distance to the goal.
        u8::MAX
    }

    #[inline]
    fn evaluate(&self) -> i32 {
        crate::eval::doorbraak::evaluate(self)
    }

    #[inline]
    fn encode(m: Self::Move) -> u16 {
        m.to_bits()
    }

    #[inline]
    fn decode(code: u16) -> Option<Self::Move> {
        crate::doorbraak::Move::from_bits(code)
    }

    #[inline]
    fn side_index(&self) -> usize {
        self.side_to_move().index()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    fn steps(fen: &str, mv: &str) -> u8 {
        let pos = Position::from_fen(fen, Variant::Breakthrough).unwrap();
        pos.steps_to_goal_after(pos.parse_move(mv).unwrap())
    }

    #[test]
    fn steps_to_goal_count_from_each_side_and_board_size() {
        let start = "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP";
        assert_eq!(steps(&format!("{start} w"), "a2a3"), 5);
        assert_eq!(steps(&format!("{start} b"), "h7h6"), 5);
        assert_eq!(steps("4p3/8/8/2P5/8/8/8/4P3 w", "c5c6"), 2);
        assert_eq!(steps("4p3/8/8/8/8/3p4/8/4P3 b", "d3c2"), 1);
        // 5 ranks: a step onto the middle rank leaves two steps to go.
        assert_eq!(steps("ppppp/ppppp/5/PPPPP/PPPPP w", "a2a3"), 2);
    }
}
