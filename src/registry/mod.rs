//! The registry of rule sets: `RULE_SETS` lists every rule set the engine plays, one
//! line each, and this folder is the one place that dispatches on which one is in play
//! (`position.rs`, by the `Inner` enum of the rule sets' position types).
//! [`Variant`] names a rule set (as `UCI_Variant` and `--variant` do), [`AnyPosition`] and
//! [`AnyMove`] hold a position and a move of any of them, and [`History`] a game in
//! progress. The protocol, the engine facade, the referee, the learning pipeline, the
//! greedy player and the command line use these and never name a rule set.
//!
//! The search stays generic over `Evaluate`; `AnyPosition::search` (`search.rs`) is
//! where the engine enters it with the rule set's own position type. What a rule set can
//! do beyond its rules is a capability of its entry here: the solver (`solver.rs`).

use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

mod board_variant;
mod evaluation;
mod history;
mod position;
mod search;
mod solver;

use crate::rulesets::breakthrough::{self, DiagonalStep};
use crate::rulesets::{Evaluate, Rules, doorbraak};
pub use board_variant::BoardVariant;
pub(crate) use evaluation::{
    Evaluation, LoadError, Mismatch, describe as describe_network, load as load_network,
};
pub use history::History;
use position::Inner;
pub use position::{AnyMove, AnyPosition};
pub(crate) use search::SearchSetup;
pub(crate) use solver::Provable;
use solver::SolverHooks;

/// Every rule set, in the order `uci` lists them; the first is the default.
static RULE_SETS: &[&dyn Registered] = &[
    &Registration::<breakthrough::Evaluated>::new("breakthrough", DiagonalStep::Free)
        .with_solver()
        .with_xboard_man("fmWfF"),
    &Registration::<breakthrough::Evaluated>::new("capture-only", DiagonalStep::CaptureOnly)
        .with_solver()
        .with_xboard_man("fmWfcF"),
    &Registration::<doorbraak::Position>::new("doorbraak", ()),
    #[cfg(test)]
    &Registration::<crate::rulesets::toy::Position>::new("toy", ()),
];

/// A registered rule set, its position type and configuration erased.
trait Registered: Sync {
    fn name(&self) -> &'static str;
    fn network_inputs(&self) -> usize;
    fn packed_bytes(&self) -> usize;
    fn start_on_board(&self, board: Option<(u8, u8)>) -> Option<Inner>;
    fn unpack(&self, bytes: &[u8]) -> Option<Inner>;
    fn read_fen(&self, fen: &str) -> Result<Inner, FenError>;
    fn move_text(&self, code: u16) -> String;
    /// The solver's hooks, where the solver proves this rule set's positions.
    fn solver(&self) -> Option<&'static SolverHooks>;
    /// The man's moves in Betza notation, where XBoard can show the game.
    fn xboard_man(&self) -> Option<&'static str>;
}

/// The rules of an entry's position type.
type RulesOf<P> = <P as Evaluate>::Rules;

/// One line of `RULE_SETS`: a name, a position type and its configuration.
struct Registration<P: Evaluate> {
    name: &'static str,
    config: <RulesOf<P> as Rules>::Config,
    solver: Option<&'static SolverHooks>,
    xboard_man: Option<&'static str>,
    position: PhantomData<fn() -> P>,
}

impl<P: Evaluate> Registration<P> {
    const fn new(name: &'static str, config: <RulesOf<P> as Rules>::Config) -> Self {
        Registration {
            name,
            config,
            solver: None,
            xboard_man: None,
            position: PhantomData,
        }
    }

    /// The entry with XBoard as a capability: a move takes one man from one square to
    /// another (capturing what stands there), so XBoard can show the game when told
    /// the man's moves (`betza`, Betza notation).
    const fn with_xboard_man(self, betza: &'static str) -> Self {
        Registration {
            xboard_man: Some(betza),
            ..self
        }
    }
}

impl<P> Registration<P>
where
    P: Evaluate<Rules = crate::solve::SolverPosition> + Into<Inner> + position::Member,
{
    /// The entry with the solver as a capability: its positions can be proven.
    const fn with_solver(self) -> Self {
        Registration {
            solver: Some(&const { SolverHooks::of::<P>() }),
            ..self
        }
    }
}

impl<P: Evaluate + Into<Inner>> Registered for Registration<P> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn network_inputs(&self) -> usize {
        P::NETWORK_INPUTS
    }

    fn packed_bytes(&self) -> usize {
        RulesOf::<P>::PACKED_BYTES
    }

    fn start_on_board(&self, board: Option<(u8, u8)>) -> Option<Inner> {
        let rules = match board {
            None => RulesOf::<P>::startpos(self.config),
            Some((files, ranks)) => RulesOf::<P>::start_on_board(self.config, files, ranks)?,
        };
        Some(P::new(rules).into())
    }

    fn unpack(&self, bytes: &[u8]) -> Option<Inner> {
        RulesOf::<P>::unpack(bytes, self.config).map(|r| P::new(r).into())
    }

    fn read_fen(&self, fen: &str) -> Result<Inner, FenError> {
        match RulesOf::<P>::from_fen(fen, self.config) {
            Ok(r) => Ok(P::new(r).into()),
            Err(e) => Err(FenError(Box::new(e))),
        }
    }

    fn move_text(&self, code: u16) -> String {
        RulesOf::<P>::decode(code).map_or_else(|| format!("(move {code:#x})"), |m| m.to_string())
    }

    fn solver(&self) -> Option<&'static SolverHooks> {
        self.solver
    }

    fn xboard_man(&self) -> Option<&'static str> {
        self.xboard_man
    }
}

/// A rule set, by name: `breakthrough`, `capture-only` or `doorbraak`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Variant(u8);

impl Variant {
    /// Every rule set, the default first.
    pub fn all() -> impl Iterator<Item = Variant> {
        (0..RULE_SETS.len() as u8).map(Variant)
    }

    pub fn name(self) -> &'static str {
        self.entry().name()
    }

    /// Inputs of the rule set's networks (0: it has none).
    pub(crate) fn network_inputs(self) -> usize {
        self.entry().network_inputs()
    }

    /// The man's moves in Betza notation where XBoard can show the rule set (a move
    /// takes one man to another square); `None` where it cannot (Doorbraak's stacks
    /// and explosions).
    pub fn xboard_man(self) -> Option<&'static str> {
        self.entry().xboard_man()
    }

    /// Bytes of a position packed by [`AnyPosition::pack`].
    pub fn packed_bytes(self) -> usize {
        self.entry().packed_bytes()
    }

    fn entry(self) -> &'static dyn Registered {
        RULE_SETS[self.0 as usize]
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no registered rule set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant '{0}' (expected {list})", list = names_list())]
pub struct UnknownVariant(pub String);

fn names_list() -> String {
    let names: Vec<&str> = Variant::all().map(Variant::name).collect();
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        Variant::all()
            .find(|v| v.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

/// A FEN the rule set cannot read; the rule set's own error inside says why.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct FenError(Box<dyn std::error::Error + Send + Sync>);

impl FenError {
    /// The rule set's own error, as its type.
    pub fn downcast_ref<E: std::error::Error + 'static>(&self) -> Option<&E> {
        self.0.downcast_ref()
    }
}

/// A move that cannot be played.
#[derive(Debug, thiserror::Error)]
pub enum MoveError {
    /// The rule set refuses it; its own error inside says why.
    #[error(transparent)]
    Rules(Box<dyn std::error::Error + Send + Sync>),
    #[error("{0} is a move of another rule set")]
    OtherVariant(AnyMove),
}

/// Why a position (a start and moves) cannot be set up.
#[derive(Debug, thiserror::Error)]
pub enum PositionError {
    #[error("bad FEN: {0}")]
    Fen(#[from] FenError),
    #[error("move {number} ({text}) refused: {error}")]
    Move {
        number: usize,
        text: String,
        error: MoveError,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::{EndReason, Outcome};

    fn variant(name: &str) -> Variant {
        name.parse().unwrap()
    }

    #[test]
    fn names_round_trip() {
        for v in Variant::all() {
            assert_eq!(v.name().parse::<Variant>().unwrap(), v);
            assert_eq!(v.to_string(), v.name());
        }
        assert_eq!(
            "chess".parse::<Variant>().unwrap_err().to_string(),
            "unknown variant 'chess' (expected breakthrough, capture-only, doorbraak or toy)"
        );
    }

    #[test]
    fn threefold_repetition_ends_a_game() {
        let mut game = History::new(AnyPosition::startpos(variant("doorbraak")));
        // Two shuffles back and forth repeat the start twice more.
        for text in ["a2b3", "a8b7", "b3a2", "b7a8", "a2b3", "a8b7", "b3a2"] {
            game.play_text(text).unwrap();
            assert_eq!(game.outcome(), None, "after {text}");
        }
        game.play_text("b7a8").unwrap();
        assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::Repetition)));
    }

    #[test]
    fn moves_belong_to_their_rule_set() {
        let standard = AnyPosition::startpos(variant("breakthrough"));
        let capture = AnyPosition::startpos(variant("capture-only"));
        let m = standard.parse_move("a2b3").unwrap();
        assert!(matches!(
            capture.check_move(m),
            Err(MoveError::OtherVariant(_))
        ));
        assert!(matches!(
            capture.parse_move("a2b3"),
            Err(MoveError::Rules(_))
        ));
        assert!(capture.is_move_text("a2b3"));
        assert!(!capture.is_move_text("a2"));
        let err = AnyPosition::from_fen("ppppp/pppp/5/PPPPP/PPPPP w", variant("breakthrough"))
            .unwrap_err();
        assert_eq!(
            err.downcast_ref::<breakthrough::FenError>(),
            Some(&breakthrough::FenError::RankTooShort {
                rank: 4,
                squares: 4,
                expected: 5
            })
        );
    }

    #[test]
    fn divide_sums_to_perft_and_lists_every_move() {
        for v in Variant::all() {
            let pos = AnyPosition::startpos(v);
            for depth in 1..=4 {
                let divided = pos.perft_divide(depth, &|| false, &|| {});
                assert_eq!(divided.len(), pos.legal_moves().len(), "{v}");
                let total: u64 = divided.iter().map(|d| d.1).sum();
                assert_eq!(total, pos.perft(depth), "{v} depth {depth}");
            }
        }
    }
}
