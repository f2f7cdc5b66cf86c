//! Every rule set the engine plays, each in a folder of its own: its rules (`rules/`, the
//! bottom layer of the crate, implementing [`Rules`] and [`SearchRules`]), its evaluation
//! (`eval.rs`, `weights.rs`, a network) and, in its `mod.rs`, its implementation of
//! `Evaluate`: the three interfaces through which everything above reaches it.
//! `crate::registry` registers each rule set with one line.

pub mod breakthrough;
mod common;
pub mod doorbraak;
pub mod nnue;
#[cfg(test)]
pub(crate) mod toy;

use std::fmt::Debug;

pub use common::{Color, End, EndReason, Outcome, Rules, SearchRules};

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

/// The move type of an evaluated position's rules.
pub(crate) type MoveOf<P> = <<P as Evaluate>::Rules as Rules>::Move;

/// A position as the engine searches it: the rules' position, and whatever its
/// evaluation keeps up to date as moves are played (a network's accumulators). What the
/// search, the tuner and the trainer need beyond the rules.
pub(crate) trait Evaluate: Copy + Send + Sync + Debug + 'static {
    type Rules: SearchRules;

    /// `rules` with the evaluation built in for its rule set and board.
    fn new(rules: Self::Rules) -> Self;
    fn rules(&self) -> &Self::Rules;
    fn rules_mut(&mut self) -> &mut Self::Rules;

    /// Plays a legal move, keeping the evaluation's state in step.
    #[inline]
    fn play(&mut self, m: MoveOf<Self>) {
        self.rules_mut().play(m)
    }

    /// The position after legal move `m`, given `after`, the rules' position with `m`
    /// played already: the search looks at that first and builds the rest (a network's
    /// accumulators) only for the moves it goes on to search. An evaluation that keeps
    /// state of its own (one that overrides [`Evaluate::play`]) overrides this too.
    #[inline]
    fn child(&self, _m: MoveOf<Self>, after: &Self::Rules) -> Self {
        let mut child = *self;
        *child.rules_mut() = *after;
        child
    }

    /// Passes the turn ([`SearchRules::play_null`]), keeping the evaluation's state in
    /// step.
    #[inline]
    fn play_null(&mut self) {
        self.rules_mut().play_null()
    }

    /// Static evaluation from the side to move's view, in centipawns.
    fn evaluate(&self) -> i32;

    /// The hand-written evaluation's features, counted from the side to move's view
    /// (its value is their weighted sum).
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
}
