//! Christiaan Freeling's Doorbraak: the rules (`rules/`), the evaluation (`eval.rs`,
//! `weights.rs`), and here the `Evaluate` implementation that connects them to the
//! engine.

pub(crate) mod eval;
mod rules;
mod weights;

pub use rules::*;

use super::{Evaluate, TermGroup};

impl Evaluate for Position {
    type Rules = Position;

    fn new(pos: Position) -> Position {
        pos
    }

    #[inline]
    fn rules(&self) -> &Position {
        self
    }

    #[inline]
    fn rules_mut(&mut self) -> &mut Position {
        self
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
            let pos = Position::from_fen(fen, ()).unwrap();
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
