//! Breakthrough's learned evaluation: the position with its accumulators, updated on
//! every move (copy-make), and the networks built into the binary.
//!
//! Inputs, seen from each side: 64 for its own pawns, then 64 for the other side's, the
//! board turned for Black so that both see themselves moving up (rank r of a board of R
//! ranks read as rank R - 1 - r: on 8x8, square `index ^ 56`). A network is made for one
//! rule set and board; those built in are listed in [`BUILT_IN`], and a board without one
//! evaluates by hand.

use std::sync::OnceLock;

use super::rules::{Color, DiagonalStep, Move, Position, Rules, Square};
use crate::rulesets::nnue::{self, Accumulator, Network};
use crate::rulesets::{Evaluate, TermGroup};

/// Inputs of the network: two kinds of pawn on 64 squares.
pub(crate) const INPUTS: usize = 128;

/// The input of a pawn of `color` on `square` of a board of `ranks` ranks, seen from
/// `perspective`.
#[inline]
pub(crate) fn feature(perspective: Color, color: Color, square: Square, ranks: u8) -> usize {
    let relative = match perspective {
        Color::White => square.index(),
        // The rank counted from Black's side, the file kept.
        Color::Black => {
            (usize::from(ranks - 1) << 3) - (square.index() & 56) + (square.index() & 7)
        }
    };
    relative + if color == perspective { 0 } else { 64 }
}

/// The network files built into the binary (`nets/`, whose README says how each was
/// made): the rule set and the board (files, ranks) each is for.
const BUILT_IN: &[(DiagonalStep, (u8, u8), &[u8])] = &[
    (
        DiagonalStep::Free,
        (8, 8),
        include_bytes!("../../../nets/breakthrough-3edb7b41.nnue"),
    ),
    (
        DiagonalStep::Free,
        (7, 7),
        include_bytes!("../../../nets/breakthrough-3fe98515.nnue"),
    ),
    (
        DiagonalStep::Free,
        (6, 6),
        include_bytes!("../../../nets/breakthrough-22be82b9.nnue"),
    ),
    (
        DiagonalStep::CaptureOnly,
        (8, 8),
        include_bytes!("../../../nets/capture-only-b0b91535.nnue"),
    ),
];

/// The network built into the binary for `pos`'s rule set and board, if there is one.
pub(crate) fn built_in(pos: &Position) -> Option<&'static Network> {
    static NETS: OnceLock<Vec<Option<Network>>> = OnceLock::new();
    // A file that does not read is caught by a test; the engine then evaluates by hand.
    let nets = NETS.get_or_init(|| {
        BUILT_IN
            .iter()
            .map(|(_, _, bytes)| Network::from_bytes(bytes).ok())
            .collect()
    });
    let board = (pos.files(), pos.ranks());
    BUILT_IN
        .iter()
        .position(|&(diagonal, size, _)| diagonal == pos.diagonal_step() && size == board)
        .and_then(|i| nets[i].as_ref())
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
        let mut after = self.pos;
        after.play(m);
        *self = self.child(m, &after);
    }

    /// The accumulators are written once, from this position's, instead of copied and
    /// then updated.
    #[inline]
    fn child(&self, m: Move, after: &Position) -> Evaluated {
        debug_assert_eq!(after.hash(), {
            let mut played = self.pos;
            played.play(m);
            played.hash()
        });
        let Some(net) = self.net else {
            return Evaluated {
                pos: *after,
                ..*self
            };
        };
        let us = self.pos.side_to_move();
        let them = us.opponent();
        let captured = self.pos.pawns(them) & m.to().bit() != 0;
        let ranks = self.pos.ranks();
        let moved = |p: Color| {
            net.moved(
                &self.acc[p.index()],
                feature(p, us, m.to(), ranks),
                feature(p, us, m.from(), ranks),
                captured.then(|| feature(p, them, m.to(), ranks)),
            )
        };
        Evaluated {
            pos: *after,
            net: self.net,
            acc: [moved(Color::White), moved(Color::Black)],
        }
    }

    #[inline]
    fn evaluate(&self) -> i32 {
        match self.net {
            Some(net) => {
                let us = self.pos.side_to_move();
                let pawns = self.pos.occupied().count_ones() as usize;
                let bucket = nnue::bucket(pawns, 4 * usize::from(self.pos.files()), net.buckets());
                net.evaluate(
                    &self.acc[us.index()],
                    &self.acc[us.opponent().index()],
                    bucket,
                )
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
            out.push(feature(perspective, color, square, pos.ranks()) as u16);
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

    /// Every network in the binary reads, is for the rule set and board it is listed
    /// for, and is what a new position of that rule set and board evaluates with; the
    /// 8x8 boards of both rule sets have one.
    #[test]
    fn the_built_in_networks_read_and_are_used() {
        for &(diagonal, (files, ranks), bytes) in BUILT_IN {
            let net = Network::from_bytes(bytes).unwrap();
            assert_eq!(
                (net.variant(), net.board(), net.inputs()),
                (diagonal.name(), (files, ranks), INPUTS)
            );
            let start = Position::start_on_board(diagonal, files, ranks).unwrap();
            let pos = Evaluated::new(start);
            assert_eq!(pos.net.map(|n| n.to_bytes()), Some(bytes.to_vec()));
        }
        for diagonal in DiagonalStep::ALL {
            assert!(Evaluated::new(Position::startpos(diagonal)).net.is_some());
        }
    }

    /// Black sees the board as White does, turned: a position and its colours swapped
    /// (the board turned, the other side to move) give the same inputs, on every board.
    #[test]
    fn both_sides_see_their_inputs_alike_on_every_board() {
        for (files, ranks) in [(8, 8), (6, 6), (7, 7), (5, 4), (3, 8)] {
            let pos = Position::start_on_board(DiagonalStep::Free, files, ranks).unwrap();
            let (mut white, mut black) = (Vec::new(), Vec::new());
            inputs(&pos, Color::White, &mut white);
            inputs(&pos, Color::Black, &mut black);
            white.sort_unstable();
            black.sort_unstable();
            assert_eq!(white, black, "{files}x{ranks}");
            assert!(white.iter().all(|&f| (f as usize) < INPUTS));
        }
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
