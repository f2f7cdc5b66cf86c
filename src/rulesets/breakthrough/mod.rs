//! Troyka's Breakthrough, standard and capture-only, on every board from 3x4 to 8x8:
//! the rules (`rules/`, [`Rules`] and [`SearchRules`]), the hand-written evaluation
//! (`eval.rs`, `weights.rs`), and the learned one with the position the engine searches
//! (`network.rs`: `Evaluated` and its `Evaluate` implementation).

pub(crate) mod eval;
pub(crate) mod network;
mod rules;
mod weights;

pub use rules::*;

pub(crate) use network::Evaluated;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::Evaluate;

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
        let pos = Evaluated::new(
            Position::from_fen("p7/8/8/8/8/3p4/P7/8 w", DiagonalStep::Free).unwrap(),
        );
        // White: a2 is one rank up. Black: a8 is on its first rank, d3 five ranks down.
        assert_eq!(pos.material(Color::White), (1, 1));
        assert_eq!(pos.material(Color::Black), (2, 5));
    }
}
