//! Christiaan Freeling's Doorbraak: the rules (`rules/`), the evaluation (`eval.rs`,
//! `weights.rs`), and here the [`RuleSet`] implementation that connects them to the
//! engine.

pub(crate) mod eval;
mod rules;
mod weights;

pub use rules::*;

use super::{RuleSet, TermGroup};

impl RuleSet for Position {
    type Move = Move;
    type Moves = MoveList;
    type Config = ();
    type FenError = FenError;
    type MoveError = MoveError;
    const CAN_REPEAT: bool = true;

    fn startpos(_: ()) -> Position {
        Position::startpos()
    }

    fn from_fen(fen: &str, _: ()) -> Result<Position, FenError> {
        Position::from_fen(fen)
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

    fn board(&self) -> (u8, u8) {
        (FILES, RANKS)
    }

    const PACKED_BYTES: usize = Position::BYTES;

    fn pack(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_bytes());
    }

    fn unpack(bytes: &[u8], _: ()) -> Option<Position> {
        Position::from_bytes(bytes)
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

    fn is_pass(m: Move) -> bool {
        m.is_pass()
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        Position::outcome(self)
    }

    fn perft(&self, depth: u32) -> u64 {
        perft(self, depth)
    }

    #[inline]
    fn play_null(&mut self) {
        Position::play_null(self)
    }

    #[inline]
    fn null_move_allowed(&self) -> bool {
        // Passing is always legal, so no position is a zugzwang.
        true
    }

    #[inline]
    fn winning_move(&self) -> Option<Move> {
        Position::winning_move(self)
    }

    #[inline]
    fn win_in_two(&self) -> Option<Move> {
        None
    }

    fn opponent_threatens_win(&self) -> bool {
        let mut passed = *self;
        passed.play_null();
        passed.winning_move().is_some()
    }

    #[inline]
    fn is_tactical(&self, m: Move) -> bool {
        self.explodes(m)
    }

    #[inline]
    fn tactical_order(&self, m: Move) -> i32 {
        // Explosions higher up the board come closer to the goal; a pass goes nowhere.
        if m.is_pass() {
            return 0;
        }
        m.to().relative_rank(self.side_to_move()) as i32
    }

    #[inline]
    fn steps_to_goal_after(&self, _m: Move) -> u8 {
        // Stacks explode and jump: no simple distance to the goal.
        u8::MAX
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
        eval::weights()
    }

    const TERMS: &'static [TermGroup] = &eval::GROUPS;

    fn material(&self, color: Color) -> (i32, i32) {
        let mut squares = self.occupied_by(color);
        let (mut stones, mut advance) = (0, 0);
        while squares != 0 {
            let square = Square::from_index(squares.trailing_zeros() as u8);
            squares &= squares - 1;
            let here = if self.stacks(color) & square.bit() != 0 {
                2
            } else {
                1
            };
            stones += here;
            advance += here * square.relative_rank(color) as i32;
        }
        (stones, advance)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every move has an order, the pass the lowest, for either side (a pass has no
    /// target square: its rank once overflowed).
    #[test]
    fn tactical_order_ranks_targets_and_puts_the_pass_last() {
        for fen in [START_FEN, "ppppp/ppppp/5/5/5/5/5/PPPPP/PPPPP b 0"] {
            let pos = Position::from_fen(fen).unwrap();
            for m in pos.legal_moves().iter() {
                let order = pos.tactical_order(*m);
                if m.is_pass() {
                    assert_eq!(order, 0);
                } else {
                    assert!((1..=7).contains(&order), "{m}: {order}");
                }
            }
        }
    }
}
