//! Troyka's Breakthrough, standard and capture-only, on every board from 3x4 to 8x8:
//! the rules (`rules/`), the evaluation (`eval.rs`, `weights.rs`), and here the
//! [`RuleSet`] implementation that connects them to the engine.

pub(crate) mod eval;
mod rules;
mod weights;

pub use rules::*;

use super::{RuleSet, TermGroup};

impl RuleSet for Position {
    type Move = Move;
    type Moves = MoveList;
    type Config = DiagonalStep;
    type FenError = FenError;
    type MoveError = MoveError;

    fn startpos(diagonal: DiagonalStep) -> Position {
        Position::startpos(diagonal)
    }

    fn from_fen(fen: &str, diagonal: DiagonalStep) -> Result<Position, FenError> {
        Position::from_fen(fen, diagonal)
    }

    fn to_fen(&self) -> String {
        Position::to_fen(self)
    }

    fn read_move(text: &str) -> Result<Move, MoveError> {
        Move::from_uci(text)
    }

    fn check_move(&self, m: Move) -> Result<(), MoveError> {
        Position::check_move(self, m)
    }

    fn diagram(&self) -> String {
        Position::diagram(self)
    }

    #[inline]
    fn side_to_move(&self) -> Color {
        Position::side_to_move(self)
    }

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
    fn outcome(&self) -> Option<Outcome> {
        Position::outcome(self)
    }

    fn perft(&self, depth: u32) -> u64 {
        perft(self, depth)
    }

    fn moves_made_at_least(&self) -> u64 {
        Position::moves_made_at_least(self, self.side_to_move())
    }

    #[inline]
    fn play_null(&mut self) {
        Position::play_null(self)
    }

    #[inline]
    fn null_move_allowed(&self) -> bool {
        // Capture-only positions often hinge on running out of moves; there a pass
        // would be a move the rules do not allow, and the test would lie.
        self.diagonal_step() == DiagonalStep::Free
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
            Color::White => 8 - rank,
            Color::Black => rank,
        }
    }

    #[inline]
    fn steps_to_goal_after(&self, m: Move) -> u8 {
        self.steps_to_goal(self.side_to_move(), m.to())
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
    fn evaluate(&self) -> i32 {
        eval::evaluate(self)
    }

    fn features(&self) -> Vec<i32> {
        eval::features(self).to_vec()
    }

    fn weights(&self) -> &'static [i32] {
        eval::weights(self.diagonal_step())
    }

    const TERMS: &'static [TermGroup] = &eval::GROUPS;

    fn material(&self, color: Color) -> (i32, i32) {
        let mut pawns = self.pawns(color);
        let (mut count, mut advance) = (0, 0);
        while pawns != 0 {
            let square = Square::from_index(pawns.trailing_zeros() as u8);
            pawns &= pawns - 1;
            count += 1;
            advance += i32::from(self.ranks() - 1 - self.steps_to_goal(color, square));
        }
        (count, advance)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(fen: &str, mv: &str) -> u8 {
        let pos = Position::from_fen(fen, DiagonalStep::Free).unwrap();
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

    #[test]
    fn material_counts_pawns_and_ranks_from_each_side() {
        let pos = Position::from_fen("p7/8/8/8/8/3p4/P7/8 w", DiagonalStep::Free).unwrap();
        // White: a2 is one rank up. Black: a8 is on its first rank, d3 five ranks down.
        assert_eq!(pos.material(Color::White), (1, 1));
        assert_eq!(pos.material(Color::Black), (2, 5));
    }
}
