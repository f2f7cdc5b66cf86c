//! A position and a move of any rule set: the boundary where the registry meets the rule
//! sets' own types. [`Inner`] holds the position type of every rule set and `each!`
//! dispatches on it, so each operation of [`AnyPosition`] is written once, here.

use std::fmt;

use super::{MoveError, Variant};
use crate::rulesets::nnue::Network;
use crate::rulesets::{
    Color, Evaluate, MoveOf, Outcome, Rules, SearchRules, breakthrough, doorbraak,
};
use crate::util::rng::Rng;

/// A move of any rule set: its rule set and its 12-bit code ([`Rules::encode`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct AnyMove {
    pub(super) variant: Variant,
    pub(super) code: u16,
}

impl fmt::Display for AnyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.variant.entry().move_text(self.code))
    }
}

impl fmt::Debug for AnyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// The position of every registered position type; a new rule set with a position type
/// of its own adds a line here, to `each!` and a `member!`.
// Breakthrough's positions carry a network's accumulators (about 1 KB): boxing them
// would cost an allocation on every clone, where a copy costs a memcpy.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug)]
pub(super) enum Inner {
    Breakthrough(breakthrough::Evaluated),
    Doorbraak(doorbraak::Position),
    #[cfg(test)]
    Toy(crate::rulesets::toy::Position),
}

/// Runs `$body` with `$p` bound to the rule set's own position inside `$inner`.
macro_rules! each {
    ($inner:expr, $p:ident => $body:expr) => {
        match $inner {
            Inner::Breakthrough($p) => $body,
            Inner::Doorbraak($p) => $body,
            #[cfg(test)]
            Inner::Toy($p) => $body,
        }
    };
}
pub(super) use each;

/// A position type of [`Inner`], taken back out of it.
pub(super) trait Member: Sized {
    fn get(inner: &Inner) -> Option<&Self>;
}

/// `From` into [`Inner`] and [`Member`] out of it, for each of its position types.
macro_rules! member {
    ($(#[$attr:meta])* $variant:ident($ty:ty)) => {
        $(#[$attr])*
        impl From<$ty> for Inner {
            fn from(p: $ty) -> Inner {
                Inner::$variant(p)
            }
        }

        $(#[$attr])*
        impl Member for $ty {
            #[allow(unreachable_patterns)]
            fn get(inner: &Inner) -> Option<&$ty> {
                match inner {
                    Inner::$variant(p) => Some(p),
                    _ => None,
                }
            }
        }
    };
}

member!(Breakthrough(breakthrough::Evaluated));
member!(Doorbraak(doorbraak::Position));
member!(
    #[cfg(test)]
    Toy(crate::rulesets::toy::Position)
);

/// One row of the `eval` command's table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EvalTerm {
    pub(crate) name: &'static str,
    /// The group's raw feature values summed (ours minus theirs).
    pub(crate) count: i32,
    /// Its share of the evaluation, in centipawns.
    pub(crate) score: i32,
}

fn rules_error(e: impl std::error::Error + Send + Sync + 'static) -> MoveError {
    MoveError::Rules(Box::new(e))
}

/// `code` as a move of `P`'s rules.
fn decode<P: Evaluate>(_: &P, code: u16) -> Option<MoveOf<P>> {
    P::Rules::decode(code)
}

fn encode<P: Evaluate>(_: &P, m: MoveOf<P>) -> u16 {
    P::Rules::encode(m)
}

fn read_move<P: Evaluate>(_: &P, text: &str) -> Result<u16, MoveError> {
    P::Rules::read_move(text)
        .map(P::Rules::encode)
        .map_err(rules_error)
}

fn eval_terms<P: Evaluate>(p: &P) -> Vec<EvalTerm> {
    let (features, weights) = (p.features(), p.weights());
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

/// A position of any rule set.
#[derive(Clone)]
pub struct AnyPosition {
    pub(super) variant: Variant,
    pub(super) inner: Inner,
}

impl PartialEq for AnyPosition {
    fn eq(&self, other: &AnyPosition) -> bool {
        self.variant == other.variant && self.to_fen() == other.to_fen()
    }
}

impl fmt::Debug for AnyPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AnyPosition({} {})", self.variant, self.to_fen())
    }
}

impl AnyPosition {
    /// The start position of `variant` (8x8 for Breakthrough).
    pub fn startpos(variant: Variant) -> AnyPosition {
        let inner = variant.entry().start_on_board(None);
        AnyPosition {
            variant,
            inner: inner.expect("every rule set has a start position"),
        }
    }

    /// The start position of `variant` on a board of `files` x `ranks`, where its rules
    /// have one.
    ///
    /// ```
    /// use breakthrough::registry::{AnyPosition, Variant};
    /// let v: Variant = "breakthrough".parse().unwrap();
    /// let pos = AnyPosition::start_on_board(v, 5, 4).unwrap();
    /// assert_eq!(pos.to_fen(), "ppppp/ppppp/PPPPP/PPPPP w - - 0 1");
    /// assert!(AnyPosition::start_on_board("doorbraak".parse().unwrap(), 8, 8).is_none());
    /// ```
    pub fn start_on_board(variant: Variant, files: u8, ranks: u8) -> Option<AnyPosition> {
        let inner = variant.entry().start_on_board(Some((files, ranks)))?;
        Some(AnyPosition { variant, inner })
    }

    /// Reads a FEN of `variant`.
    ///
    /// ```
    /// use breakthrough::registry::{AnyPosition, Variant};
    /// let v: Variant = "capture-only".parse().unwrap();
    /// let pos = AnyPosition::from_fen("ppp/3/3/PPP w", v).unwrap();
    /// assert_eq!(pos.to_fen(), "ppp/3/3/PPP w - - 0 1");
    /// assert_eq!(pos.legal_moves().len(), 3); // no diagonal step without a capture
    /// ```
    pub fn from_fen(fen: &str, variant: Variant) -> Result<AnyPosition, super::FenError> {
        Ok(AnyPosition {
            variant,
            inner: variant.entry().read_fen(fen)?,
        })
    }

    /// The position of [`AnyPosition::pack`]; `None` for bytes no position of `variant`
    /// gives.
    pub fn unpack(bytes: &[u8], variant: Variant) -> Option<AnyPosition> {
        Some(AnyPosition {
            variant,
            inner: variant.entry().unpack(bytes)?,
        })
    }

    /// Appends the position's compact form ([`Variant::packed_bytes`] bytes; the variant
    /// is not in it).
    pub fn pack(&self, out: &mut Vec<u8>) {
        each!(&self.inner, p => p.rules().pack(out))
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn to_fen(&self) -> String {
        each!(&self.inner, p => p.rules().to_fen())
    }

    /// True for the variant's standard start (so `position startpos` describes it).
    pub fn is_startpos(&self) -> bool {
        *self == AnyPosition::startpos(self.variant)
    }

    pub fn side_to_move(&self) -> Color {
        each!(&self.inner, p => p.rules().side_to_move())
    }

    pub fn hash(&self) -> u64 {
        each!(&self.inner, p => p.rules().hash())
    }

    /// Moves the side to move has made at least to reach this position, by the board
    /// alone (Breakthrough pawns only step forward; 0 where the board cannot tell).
    pub fn moves_made_at_least(&self) -> u64 {
        each!(&self.inner, p => p.rules().moves_made_at_least())
    }

    /// The board as text, for `d`.
    pub fn diagram(&self) -> String {
        each!(&self.inner, p => p.rules().diagram())
    }

    /// The board's files and ranks.
    pub fn board_size(&self) -> (u8, u8) {
        each!(&self.inner, p => p.rules().board())
    }

    pub(super) fn wrap(&self, code: u16) -> AnyMove {
        AnyMove {
            variant: self.variant,
            code,
        }
    }

    /// Every legal move; empty when the game is over by the board.
    pub fn legal_moves(&self) -> Vec<AnyMove> {
        each!(&self.inner, p => p
            .rules()
            .legal_moves()
            .iter()
            .map(|&m| self.wrap(encode(p, m)))
            .collect())
    }

    /// Reads move text as a legal move here.
    pub fn parse_move(&self, text: &str) -> Result<AnyMove, MoveError> {
        let m = self.wrap(each!(&self.inner, p => read_move(p, text))?);
        self.check_move(m)?;
        Ok(m)
    }

    /// True if `text` has the shape of a move of this rule set (legal here or not).
    pub fn is_move_text(&self, text: &str) -> bool {
        each!(&self.inner, p => read_move(p, text)).is_ok()
    }

    /// Checks that `m` is a legal move here.
    pub fn check_move(&self, m: AnyMove) -> Result<(), MoveError> {
        if m.variant != self.variant {
            return Err(MoveError::OtherVariant(m));
        }
        each!(&self.inner, p => match decode(p, m.code) {
            Some(m) => p.rules().check_move(m).map_err(rules_error),
            None => Err(MoveError::Rules("no move of this rule set".into())),
        })
    }

    /// True for a move that passes the turn.
    pub fn is_pass(&self, m: AnyMove) -> bool {
        m.variant == self.variant
            && each!(&self.inner, p => decode(p, m.code).is_some_and(|m| is_pass(p, m)))
    }

    /// Plays a legal move (from [`AnyPosition::legal_moves`] or checked).
    pub fn play(&mut self, m: AnyMove) {
        debug_assert_eq!(m.variant, self.variant, "a move of another rule set");
        each!(&mut self.inner, p => if let Some(m) = decode(p, m.code) {
            Evaluate::play(p, m)
        })
    }

    /// The position after a legal move.
    pub fn child(&self, m: AnyMove) -> AnyPosition {
        let mut next = self.clone();
        next.play(m);
        next
    }

    /// The end of the game by the board alone ([`super::History::outcome`] also sees
    /// threefold repetition).
    pub fn outcome(&self) -> Option<Outcome> {
        each!(&self.inner, p => p.rules().outcome())
    }

    /// Leaves of the move tree `depth` plies deep, single-threaded.
    pub fn perft(&self, depth: u32) -> u64 {
        each!(&self.inner, p => p.rules().perft(depth))
    }

    /// Static evaluation from the side to move's view.
    pub fn evaluate(&self) -> i32 {
        each!(&self.inner, p => p.evaluate())
    }

    /// The evaluation by named groups of terms, for `eval`.
    pub(crate) fn eval_terms(&self) -> Vec<EvalTerm> {
        each!(&self.inner, p => eval_terms(p))
    }

    /// The evaluation's features of a quiet position (no win in one for the side to move,
    /// no threat against it, the game not over), for the tuner.
    pub(crate) fn quiet_features(&self) -> Option<Vec<i32>> {
        self.is_quiet()
            .then(|| each!(&self.inner, p => p.features()))
    }

    /// The network inputs active here seen from `perspective`, appended to `out`.
    pub(crate) fn network_inputs(&self, perspective: Color, out: &mut Vec<u16>) {
        each!(&self.inner, p => p.network_inputs(perspective, out))
    }

    /// The learned evaluation in use, if any.
    pub(crate) fn network(&self) -> Option<&'static Network> {
        each!(&self.inner, p => p.network())
    }

    /// The network built in for this rule set and board, if any.
    pub(crate) fn built_in_network(&self) -> Option<&'static Network> {
        each!(&self.inner, p => p.built_in_network())
    }

    /// Evaluates with `net` (`None`: by hand) if the rule set can; false if it cannot use
    /// that network (it then evaluates by hand).
    pub(crate) fn set_network(&mut self, net: Option<&'static Network>) -> bool {
        each!(&mut self.inner, p => p.set_network(net))
    }

    /// True when the game goes on, the side to move has no win in one and the opponent
    /// threatens none: a position whose value is not a matter of the next move.
    pub(crate) fn is_quiet(&self) -> bool {
        each!(&self.inner, p => p.rules().is_quiet())
    }

    /// True for a capture (or what the rule set's quiescence search looks at).
    pub(crate) fn is_tactical(&self, m: AnyMove) -> bool {
        m.variant == self.variant
            && each!(&self.inner, p => decode(p, m.code).is_some_and(|m| p.rules().is_tactical(m)))
    }

    /// The evaluation's weights for this position's rule set.
    pub(crate) fn weights(&self) -> &'static [i32] {
        each!(&self.inner, p => p.weights())
    }

    /// `color`'s pieces and their advancement, for the greedy player.
    pub(crate) fn material(&self, color: Color) -> (i32, i32) {
        each!(&self.inner, p => p.material(color))
    }

    /// `plies` random legal moves from here, none of them a pass, none ending the game or
    /// leaving the side to move a win in one; `None` if this try ran into a dead end.
    pub(crate) fn random_line(&self, plies: u32, rng: &mut Rng) -> Option<Vec<AnyMove>> {
        let mut pos = self.clone();
        let mut line = Vec::new();
        for _ in 0..plies {
            let candidates: Vec<AnyMove> = pos
                .legal_moves()
                .into_iter()
                .filter(|&m| {
                    let child = pos.child(m);
                    !pos.is_pass(m)
                        && child.outcome().is_none()
                        && child
                            .legal_moves()
                            .into_iter()
                            .all(|r| child.child(r).outcome().is_none())
                })
                .collect();
            if candidates.is_empty() {
                return None;
            }
            let m = candidates[rng.below(candidates.len())];
            pos.play(m);
            line.push(m);
        }
        Some(line)
    }
}

fn is_pass<P: Evaluate>(_: &P, m: MoveOf<P>) -> bool {
    P::Rules::is_pass(m)
}
