//! [`RuleSet`] with the position type erased: [`DynPosition`] is the object-safe
//! mirror of the trait that [`super::AnyPosition`] holds, implemented once for every rule
//! set's position. Moves cross it as 12-bit codes ([`RuleSet::encode`]); `AnyPosition`
//! pairs them with their variant.

use rayon::prelude::*;

use super::MoveError;
use crate::rulesets::nnue::Network;
use crate::rulesets::{Color, Outcome, RuleSet};
use crate::search::tt::TranspositionTable;
use crate::search::{Control, Info, SearchLimits, SearchResult, Searcher, mate};

/// One row of the `eval` command's table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EvalTerm {
    pub(crate) name: &'static str,
    /// The group's raw feature values summed (ours minus theirs).
    pub(crate) count: i32,
    /// Its share of the evaluation, in centipawns.
    pub(crate) score: i32,
}

/// The object-safe mirror of [`RuleSet`].
pub(super) trait DynPosition: Send + Sync {
    fn clone_box(&self) -> Box<dyn DynPosition>;
    fn pack(&self, out: &mut Vec<u8>);
    fn network_inputs(&self, perspective: Color, out: &mut Vec<u16>);
    fn network(&self) -> Option<&'static Network>;
    fn set_network(&mut self, net: Option<&'static Network>) -> bool;
    fn built_in_network(&self) -> Option<&'static Network>;
    fn to_fen(&self) -> String;
    fn diagram(&self) -> String;
    fn board(&self) -> (u8, u8);
    fn side_to_move(&self) -> Color;
    fn hash(&self) -> u64;
    fn moves_made_at_least(&self) -> u64;
    fn legal_moves(&self) -> Vec<u16>;
    fn read_move(&self, text: &str) -> Result<u16, MoveError>;
    fn check_move(&self, code: u16) -> Result<(), MoveError>;
    fn is_pass(&self, code: u16) -> bool;
    fn play(&mut self, code: u16);
    fn outcome(&self) -> Option<Outcome>;
    fn perft(&self, depth: u32) -> u64;
    /// Leaves below each legal move at `depth`, on the current rayon pool, calling
    /// `counted` as each root move's count is done; counts are meaningless once `stop`
    /// says so.
    fn perft_divide(
        &self,
        depth: u32,
        stop: &(dyn Fn() -> bool + Sync),
        counted: &(dyn Fn() + Sync),
    ) -> Vec<(u16, u64)>;
    fn evaluate(&self) -> i32;
    fn eval_terms(&self) -> Vec<EvalTerm>;
    fn features(&self) -> Vec<i32>;
    fn is_quiet(&self) -> bool;
    fn is_tactical(&self, code: u16) -> bool;
    fn weights(&self) -> &'static [i32];
    fn material(&self, color: Color) -> (i32, i32);
    fn search(
        &self,
        limits: &SearchLimits<u16>,
        setup: &SearchSetup,
        on_info: &(dyn Fn(&Info<u16>) + Sync),
    ) -> SearchResult<u16>;
}

fn rules_error(e: impl std::error::Error + Send + Sync + 'static) -> MoveError {
    MoveError::Rules(Box::new(e))
}

impl<P: RuleSet> DynPosition for P {
    fn clone_box(&self) -> Box<dyn DynPosition> {
        Box::new(*self)
    }

    fn pack(&self, out: &mut Vec<u8>) {
        RuleSet::pack(self, out)
    }

    fn network_inputs(&self, perspective: Color, out: &mut Vec<u16>) {
        RuleSet::network_inputs(self, perspective, out)
    }

    fn network(&self) -> Option<&'static Network> {
        RuleSet::network(self)
    }

    fn set_network(&mut self, net: Option<&'static Network>) -> bool {
        RuleSet::set_network(self, net)
    }

    fn built_in_network(&self) -> Option<&'static Network> {
        RuleSet::built_in_network(self)
    }

    fn to_fen(&self) -> String {
        RuleSet::to_fen(self)
    }

    fn diagram(&self) -> String {
        RuleSet::diagram(self)
    }

    fn board(&self) -> (u8, u8) {
        RuleSet::board(self)
    }

    fn side_to_move(&self) -> Color {
        RuleSet::side_to_move(self)
    }

    fn hash(&self) -> u64 {
        RuleSet::hash(self)
    }

    fn moves_made_at_least(&self) -> u64 {
        RuleSet::moves_made_at_least(self)
    }

    fn legal_moves(&self) -> Vec<u16> {
        self.moves().iter().map(|&m| P::encode(m)).collect()
    }

    fn read_move(&self, text: &str) -> Result<u16, MoveError> {
        P::read_move(text).map(P::encode).map_err(rules_error)
    }

    fn check_move(&self, code: u16) -> Result<(), MoveError> {
        match P::decode(code) {
            Some(m) => RuleSet::check_move(self, m).map_err(rules_error),
            None => Err(MoveError::Rules("no move of this rule set".into())),
        }
    }

    fn is_pass(&self, code: u16) -> bool {
        P::decode(code).is_some_and(P::is_pass)
    }

    fn play(&mut self, code: u16) {
        if let Some(m) = P::decode(code) {
            RuleSet::play(self, m);
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        RuleSet::outcome(self)
    }

    fn perft(&self, depth: u32) -> u64 {
        RuleSet::perft(self, depth)
    }

    fn perft_divide(
        &self,
        depth: u32,
        stop: &(dyn Fn() -> bool + Sync),
        counted: &(dyn Fn() + Sync),
    ) -> Vec<(u16, u64)> {
        if depth == 0 {
            return Vec::new();
        }
        self.moves()
            .par_iter()
            .map(|&m| {
                let count = split_perft(&child(self, m), depth - 1, stop);
                counted();
                (P::encode(m), count)
            })
            .collect()
    }

    fn evaluate(&self) -> i32 {
        RuleSet::evaluate(self)
    }

    fn eval_terms(&self) -> Vec<EvalTerm> {
        let (features, weights) = (RuleSet::features(self), RuleSet::weights(self));
        P::TERMS
            .iter()
            .map(|t| {
                let range = t.first..t.first + t.count;
                EvalTerm {
                    name: t.name,
                    count: features[range.clone()].iter().sum(),
                    score: range.map(|i| features[i] * weights[i]).sum(),
                }
            })
            .collect()
    }

    fn features(&self) -> Vec<i32> {
        RuleSet::features(self)
    }

    fn is_quiet(&self) -> bool {
        self.end().is_none() && self.winning_move().is_none() && !self.opponent_threatens_win()
    }

    fn is_tactical(&self, code: u16) -> bool {
        P::decode(code).is_some_and(|m| RuleSet::is_tactical(self, m))
    }

    fn weights(&self) -> &'static [i32] {
        RuleSet::weights(self)
    }

    fn material(&self, color: Color) -> (i32, i32) {
        RuleSet::material(self, color)
    }

    fn search(
        &self,
        limits: &SearchLimits<u16>,
        setup: &SearchSetup,
        on_info: &(dyn Fn(&Info<u16>) + Sync),
    ) -> SearchResult<u16> {
        let limits = limits.map_moves(|&code| P::decode(code));
        let report = |info: &Info<P::Move>| on_info(&info.map_moves(P::encode));
        let (control, tt, threads) = (setup.control, setup.tt, setup.threads);
        let result = if limits.mate.is_some() {
            mate::search(*self, &limits, control, tt, threads, setup.earlier, &report)
        } else {
            Searcher::new(*self, &limits, control, tt, threads, &report)
                .with_game_history(setup.earlier)
                .run()
        };
        result.map_moves(P::encode)
    }
}

/// What a search needs besides the position and its limits.
pub(crate) struct SearchSetup<'a> {
    pub(crate) control: &'a Control,
    pub(crate) tt: &'a TranspositionTable,
    pub(crate) threads: usize,
    /// Hashes of the game's positions before the root, oldest first.
    pub(crate) earlier: &'a [u64],
}

fn child<P: RuleSet>(pos: &P, m: P::Move) -> P {
    let mut next = *pos;
    next.play(m);
    next
}

/// Plies below which perft runs sequentially: such a task takes a few milliseconds, so
/// `stop` and `quit` are answered at once even on a loaded machine.
const SEQUENTIAL_PLIES: u32 = 4;

/// Perft of `pos` at `depth` split into tasks on the current rayon pool, so the threads
/// stay busy even when subtrees differ in size; each task first asks `stop`.
fn split_perft<P: RuleSet>(pos: &P, depth: u32, stop: &(dyn Fn() -> bool + Sync)) -> u64 {
    if stop() {
        return 0;
    }
    if depth <= SEQUENTIAL_PLIES {
        return pos.perft(depth);
    }
    pos.moves()
        .par_iter()
        .map(|&m| split_perft(&child(pos, m), depth - 1, stop))
        .sum()
}
