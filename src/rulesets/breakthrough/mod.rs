//! Troyka's Breakthrough, standard and capture-only, on every board from 3x4 to 8x8:
//! the rules (`rules/`), the evaluations (`eval.rs` and `weights.rs` by hand, `network.rs`
//! learned), and here the [`RuleSet`] implementation that connects them to the engine.

pub(crate) mod eval;
pub(crate) mod network;
mod rules;
mod weights;

pub use rules::*;

pub(crate) use network::Evaluated;

use super::nnue::Network;
use super::{RuleSet, TermGroup};

impl RuleSet for Evaluated {
    type Move = Move;
    type Moves = MoveList;
    type Config = DiagonalStep;
    type FenError = FenError;
    type MoveError = MoveError;

    fn startpos(diagonal: DiagonalStep) -> Evaluated {
        Evaluated::new(Position::startpos(diagonal))
    }

    fn from_fen(fen: &str, diagonal: DiagonalStep) -> Result<Evaluated, FenError> {
        Position::from_fen(fen, diagonal).map(Evaluated::new)
    }

    fn to_fen(&self) -> String {
        self.pos.to_fen()
    }

    fn read_move(text: &str) -> Result<Move, MoveError> {
        Move::from_uci(text)
    }

    fn check_move(&self, m: Move) -> Result<(), MoveError> {
        self.pos.check_move(m)
    }

    fn diagram(&self) -> String {
        self.pos.diagram()
    }

    fn board(&self) -> (u8, u8) {
        (self.pos.files(), self.pos.ranks())
    }

    const PACKED_BYTES: usize = Position::BYTES;

    fn pack(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.pos.to_bytes());
    }

    fn unpack(bytes: &[u8], diagonal: DiagonalStep) -> Option<Evaluated> {
        Position::from_bytes(bytes, diagonal).map(Evaluated::new)
    }

    #[inline]
    fn side_to_move(&self) -> Color {
        self.pos.side_to_move()
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.pos.hash()
    }

    #[inline]
    fn moves(&self) -> MoveList {
        self.pos.legal_moves()
    }

    #[inline]
    fn play(&mut self, m: Move) {
        self.play(m)
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.pos.outcome()
    }

    fn perft(&self, depth: u32) -> u64 {
        perft(&self.pos, depth)
    }

    fn moves_made_at_least(&self) -> u64 {
        self.pos.moves_made_at_least(self.pos.side_to_move())
    }

    #[inline]
    fn play_null(&mut self) {
        self.pos.play_null()
    }

    #[inline]
    fn null_move_allowed(&self) -> bool {
        // Capture-only positions often hinge on running out of moves; there a pass
        // would be a move the rules do not allow, and the test would lie.
        self.pos.diagonal_step() == DiagonalStep::Free
    }

    #[inline]
    fn winning_move(&self) -> Option<Move> {
        self.pos.winning_move()
    }

    #[inline]
    fn win_in_two(&self) -> Option<Move> {
        self.pos.win_in_two()
    }

    #[inline]
    fn opponent_threatens_win(&self) -> bool {
        self.pos.opponent_threatens_win()
    }

    #[inline]
    fn is_tactical(&self, m: Move) -> bool {
        self.pos.is_capture(m)
    }

    #[inline]
    fn tactical_order(&self, m: Move) -> i32 {
        // Take the enemy pawn nearest to our home rank first: it is the most dangerous.
        let rank = m.to().rank() as i32;
        match self.pos.side_to_move() {
            Color::White => 8 - rank,
            Color::Black => rank,
        }
    }

    #[inline]
    fn steps_to_goal_after(&self, m: Move) -> u8 {
        self.pos.steps_to_goal(self.pos.side_to_move(), m.to())
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
        match self.net {
            Some(net) => self.network_eval(net),
            None => eval::evaluate(&self.pos),
        }
    }

    fn features(&self) -> Vec<i32> {
        eval::features(&self.pos).to_vec()
    }

    fn weights(&self) -> &'static [i32] {
        eval::weights(self.pos.diagonal_step())
    }

    const TERMS: &'static [TermGroup] = &eval::GROUPS;

    fn material(&self, color: Color) -> (i32, i32) {
        let mut pawns = self.pos.pawns(color);
        let (mut count, mut advance) = (0, 0);
        while pawns != 0 {
            let square = Square::from_index(pawns.trailing_zeros() as u8);
            pawns &= pawns - 1;
            count += 1;
            advance += i32::from(self.pos.ranks() - 1 - self.pos.steps_to_goal(color, square));
        }
        (count, advance)
    }

    const NETWORK_INPUTS: usize = network::INPUTS;

    fn network_inputs(&self, perspective: Color, out: &mut Vec<u16>) {
        network::inputs(&self.pos, perspective, out)
    }

    fn network(&self) -> Option<&'static Network> {
        self.net
    }

    fn set_network(&mut self, net: Option<&'static Network>) -> bool {
        self.use_network(net)
    }

    fn built_in_network(&self) -> Option<&'static Network> {
        network::built_in(&self.pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(fen: &str, mv: &str) -> u8 {
        let pos = Evaluated::from_fen(fen, DiagonalStep::Free).unwrap();
        pos.steps_to_goal_after(
            Position::from_fen(fen, DiagonalStep::Free)
                .unwrap()
                .parse_move(mv)
                .unwrap(),
        )
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
        let pos = Evaluated::from_fen("p7/8/8/8/8/3p4/P7/8 w", DiagonalStep::Free).unwrap();
        // White: a2 is one rank up. Black: a8 is on its first rank, d3 five ranks down.
        assert_eq!(pos.material(Color::White), (1, 1));
        assert_eq!(pos.material(Color::Black), (2, 5));
    }
}
