//! Breakthrough's learned evaluation: the position with its accumulators, updated on
//! every move (copy-make), and the networks built into the binary.
//!
//! Inputs, seen from each side: 64 for its own pawns, then 64 for the other side's, the
//! board turned for Black so that both see themselves moving up (square `index ^ 56`).
//! Networks exist for the 8x8 board; other sizes evaluate by hand.

use std::sync::OnceLock;

use super::rules::{Color, Move, Position, Rules, Square};
use crate::rulesets::nnue::{Accumulator, Network};
use crate::rulesets::{Evaluate, TermGroup};

/// Inputs of the network: two kinds of pawn on 64 squares.
pub(crate) const INPUTS: usize = 128;

/// The input of a pawn of `color` on `square`, seen from `perspective`.
#[inline]
pub(crate) fn feature(perspective: Color, color: Color, square: Square) -> usize {
    let relative = match perspective {
        Color::White => square.index(),
        Color::Black => square.index() ^ 56,
    };
    relative + if color == perspective { 0 } else { 64 }
}

/// The network files built into the binary (`nets/`, whose README says how each was
/// made), by rule set: standard, capture-only. Each is for the 8x8 board.
const BUILT_IN: [Option<&[u8]>; 2] = [
    Some(include_bytes!("../../../nets/breakthrough-d977994e.nnue")),
    Some(include_bytes!("../../../nets/capture-only-ea09baec.nnue")),
];

/// The network built into the binary for `pos`'s rule set and board, if there is one.
pub(crate) fn built_in(pos: &Position) -> Option<&'static Network> {
    static NETS: OnceLock<[Option<Network>; 2]> = OnceLock::new();
    // A file that does not read is caught by a test; the engine then evaluates by hand.
    let nets = NETS.get_or_init(|| BUILT_IN.map(|bytes| Network::from_bytes(bytes?).ok()));
    let board = (pos.files(), pos.ranks());
    nets[pos.diagonal_step() as usize]
        .as_ref()
        .filter(|_| board == (8, 8))
}

/// A position as the engine evaluates it: the rules' position, and, where a network
/// evaluates it, the network and both sides' accumulators.
#[derive(Clone, Copy)]
pub(crate) struct Evaluated {
    pub(crate) pos: Position,
    pub(crate) net: Option<&'static Network>,
    /// Indexed by perspective: White's, Black's.
    acc: [Accumulator; 2],
}

impl std::fmt::Debug for Evaluated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.pos)
    }
}

impl Evaluated {
    /// The accumulators, for tests.
    #[cfg(test)]
    pub(crate) fn accumulators(&self) -> [Accumulator; 2] {
        self.acc
    }
}

impl Evaluate for Evaluated {
    type Rules = Position;

    /// `pos` with the network built in for its rule set and board, if there is one.
    fn new(pos: Position) -> Evaluated {
        let mut evaluated = Evaluated {
            pos,
            net: None,
            acc: [Accumulator([0; crate::rulesets::nnue::HIDDEN]); 2],
        };
        evaluated.set_network(built_in(&pos));
        evaluated
    }

    #[inline]
    fn rules(&self) -> &Position {
        &self.pos
    }

    #[inline]
    fn rules_mut(&mut self) -> &mut Position {
        &mut self.pos
    }

    /// Plays a legal move, updating the accumulators by the squares it changes.
    #[inline]
    fn play(&mut self, m: Move) {
        if let Some(net) = self.net {
            let us = self.pos.side_to_move();
            let them = us.opponent();
            let captured = self.pos.pawns(them) & m.to().bit() != 0;
            for p in [Color::White, Color::Black] {
                let acc = &mut self.acc[p.index()];
                net.add(acc, feature(p, us, m.to()));
                net.sub(acc, feature(p, us, m.from()));
                if captured {
                    net.sub(acc, feature(p, them, m.to()));
                }
            }
        }
        self.pos.play(m);
    }

    #[inline]
    fn evaluate(&self) -> i32 {
        match self.net {
            Some(net) => {
                let us = self.pos.side_to_move();
                net.evaluate(&self.acc[us.index()], &self.acc[us.opponent().index()])
            }
            None => super::eval::evaluate(&self.pos),
        }
    }

    fn features(&self) -> Vec<i32> {
        super::eval::features(&self.pos).to_vec()
    }

    fn weights(&self) -> &'static [i32] {
        super::eval::weights(self.pos.diagonal_step())
    }

    const TERMS: &'static [TermGroup] = &super::eval::GROUPS;

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

    const NETWORK_INPUTS: usize = INPUTS;

    fn network_inputs(&self, perspective: Color, out: &mut Vec<u16>) {
        inputs(&self.pos, perspective, out)
    }

    fn network(&self) -> Option<&'static Network> {
        self.net
    }

    /// Evaluates with `net` (`None`: by hand); refuses a network for another board or
    /// with other inputs, and then evaluates by hand.
    fn set_network(&mut self, net: Option<&'static Network>) -> bool {
        let fits =
            |n: &Network| n.inputs() == INPUTS && n.board() == (self.pos.files(), self.pos.ranks());
        self.net = net.filter(|n| fits(n));
        if let Some(net) = self.net {
            self.acc = [Color::White, Color::Black].map(|p| accumulate(net, &self.pos, p));
        }
        self.net.is_some() || net.is_none()
    }

    fn built_in_network(&self) -> Option<&'static Network> {
        built_in(&self.pos)
    }
}

/// The inputs active in `pos` seen from `perspective`, appended to `out`.
pub(crate) fn inputs(pos: &Position, perspective: Color, out: &mut Vec<u16>) {
    for color in [Color::White, Color::Black] {
        let mut pawns = pos.pawns(color);
        while pawns != 0 {
            let square = Square::from_index(pawns.trailing_zeros() as u8);
            pawns &= pawns - 1;
            out.push(feature(perspective, color, square) as u16);
        }
    }
}

/// The accumulator of `perspective` from nothing: every pawn's column added.
pub(crate) fn accumulate(net: &Network, pos: &Position, perspective: Color) -> Accumulator {
    let mut acc = net.empty();
    let mut active = Vec::with_capacity(32);
    inputs(pos, perspective, &mut active);
    for f in active {
        net.add(&mut acc, f as usize);
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::Evaluate;
    use crate::rulesets::breakthrough::DiagonalStep;
    use crate::rulesets::nnue::tests::random_network;
    use crate::util::rng::Rng;

    /// Along random games of both rule sets, the accumulators updated move by move equal
    /// those summed afresh, and so do the evaluations.
    #[test]
    fn incremental_accumulators_equal_fresh_ones() {
        let net: &'static Network = Box::leak(Box::new(random_network(5, INPUTS)));
        let mut rng = Rng::new(3);
        let mut checked = 0;
        for diagonal in [DiagonalStep::Free, DiagonalStep::CaptureOnly] {
            for _ in 0..40 {
                let mut pos = Evaluated::new(Position::startpos(diagonal));
                assert!(pos.set_network(Some(net)));
                while pos.pos.outcome().is_none() {
                    let moves = pos.pos.legal_moves();
                    pos.play(moves[rng.below(moves.len())]);
                    let fresh = [Color::White, Color::Black].map(|p| accumulate(net, &pos.pos, p));
                    assert_eq!(pos.accumulators(), fresh, "{:?}", pos.pos);
                    let mut again = pos;
                    again.set_network(Some(net));
                    assert_eq!(pos.evaluate(), again.evaluate());
                    checked += 1;
                }
            }
        }
        assert!(checked > 3000, "{checked}");
    }

    /// Every network in the binary reads, is for its rule set's 8x8 board, and is what a
    /// new 8x8 position of that rule set evaluates with.
    #[test]
    fn the_built_in_networks_read_and_are_used() {
        let mut built = 0;
        for (diagonal, name) in [
            (DiagonalStep::Free, "breakthrough"),
            (DiagonalStep::CaptureOnly, "capture-only"),
        ] {
            let Some(bytes) = BUILT_IN[diagonal as usize] else {
                continue;
            };
            let net = Network::from_bytes(bytes).unwrap();
            assert_eq!(
                (net.variant(), net.board(), net.inputs()),
                (name, (8, 8), INPUTS)
            );
            let pos = Evaluated::new(Position::startpos(diagonal));
            assert_eq!(pos.net.map(|n| n.to_bytes()), Some(bytes.to_vec()));
            built += 1;
        }
        assert_eq!(built, 2);
    }

    #[test]
    fn a_network_for_another_board_is_refused() {
        let net: &'static Network = Box::leak(Box::new(random_network(6, INPUTS)));
        let small = Position::from_fen("ppppp/ppppp/5/PPPPP/PPPPP w", DiagonalStep::Free).unwrap();
        let mut pos = Evaluated::new(small);
        assert!(!pos.set_network(Some(net)));
        assert!(pos.net.is_none());
        assert_eq!(pos.evaluate(), super::super::eval::evaluate(&small));
    }
}
