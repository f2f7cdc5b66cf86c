//! The registry of rule sets: [`RULE_SETS`] lists every rule set the engine plays, one
//! line each, and this file is the only place that dispatches on which one is in play.
//! [`Variant`] names a rule set (as `UCI_Variant` and `--variant` do), [`AnyPosition`] and
//! [`AnyMove`] hold a position and a move of any of them, and [`History`] a game in
//! progress. The protocol, the engine facade, the referee, the tuner, the greedy player
//! and the command line use these and never name a rule set.
//!
//! The search stays generic over [`RuleSet`]; [`AnyPosition::search`] is where the engine
//! enters it with the rule set's own position type.

use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

mod erased;
mod evaluation;

use crate::rulesets::breakthrough::{self, DiagonalStep};
use crate::rulesets::nnue::Network;
use crate::rulesets::{Color, EndReason, Outcome, RuleSet, doorbraak};
use crate::search::{Info, SearchLimits, SearchResult};
use crate::util::rng::Rng;
use erased::DynPosition;
pub(crate) use erased::{EvalTerm, SearchSetup};
pub(crate) use evaluation::{
    Evaluation, LoadError, Mismatch, describe as describe_network, load as load_network,
};

/// Every rule set, in the order `uci` lists them; the first is the default.
static RULE_SETS: &[&dyn Registered] = &[
    &Entry::<breakthrough::Evaluated>::new("breakthrough", DiagonalStep::Free),
    &Entry::<breakthrough::Evaluated>::new("capture-only", DiagonalStep::CaptureOnly),
    &Entry::<doorbraak::Position>::new("doorbraak", ()),
    #[cfg(test)]
    &Entry::<crate::rulesets::toy::Position>::new("toy", ()),
];

/// A registered rule set, its position type and configuration erased.
trait Registered: Sync {
    fn name(&self) -> &'static str;
    fn network_inputs(&self) -> usize;
    fn startpos(&self) -> Box<dyn DynPosition>;
    fn packed_bytes(&self) -> usize;
    fn unpack(&self, bytes: &[u8]) -> Option<Box<dyn DynPosition>>;
    fn read_fen(&self, fen: &str) -> Result<Box<dyn DynPosition>, FenError>;
    fn move_text(&self, code: u16) -> String;
}

/// One line of [`RULE_SETS`]: a name, a position type and its configuration.
struct Entry<P: RuleSet> {
    name: &'static str,
    config: P::Config,
    position: PhantomData<fn() -> P>,
}

impl<P: RuleSet> Entry<P> {
    const fn new(name: &'static str, config: P::Config) -> Self {
        Entry {
            name,
            config,
            position: PhantomData,
        }
    }
}

impl<P: RuleSet> Registered for Entry<P> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn startpos(&self) -> Box<dyn DynPosition> {
        Box::new(P::startpos(self.config))
    }

    fn packed_bytes(&self) -> usize {
        P::PACKED_BYTES
    }

    fn network_inputs(&self) -> usize {
        P::NETWORK_INPUTS
    }

    fn unpack(&self, bytes: &[u8]) -> Option<Box<dyn DynPosition>> {
        P::unpack(bytes, self.config).map(|p| Box::new(p) as Box<dyn DynPosition>)
    }

    fn read_fen(&self, fen: &str) -> Result<Box<dyn DynPosition>, FenError> {
        match P::from_fen(fen, self.config) {
            Ok(p) => Ok(Box::new(p)),
            Err(e) => Err(FenError(Box::new(e))),
        }
    }

    fn move_text(&self, code: u16) -> String {
        P::decode(code).map_or_else(|| format!("(move {code:#x})"), |m| m.to_string())
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

    /// The diagonal-step rule, for the rule sets played on the Breakthrough board (the
    /// solver's); `None` for the others.
    pub(crate) fn diagonal_step(self) -> Option<DiagonalStep> {
        match self.name() {
            "breakthrough" => Some(DiagonalStep::Free),
            "capture-only" => Some(DiagonalStep::CaptureOnly),
            _ => None,
        }
    }

    /// Inputs of the rule set's networks (0: it has none).
    pub(crate) fn network_inputs(self) -> usize {
        self.entry().network_inputs()
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

/// A move of any rule set: its rule set and its 12-bit code ([`RuleSet::encode`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct AnyMove {
    variant: Variant,
    code: u16,
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

/// A position of any rule set.
pub struct AnyPosition {
    variant: Variant,
    inner: Box<dyn DynPosition>,
}

impl Clone for AnyPosition {
    fn clone(&self) -> AnyPosition {
        AnyPosition {
            variant: self.variant,
            inner: self.inner.clone_box(),
        }
    }
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
        AnyPosition {
            variant,
            inner: variant.entry().startpos(),
        }
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
    pub fn from_fen(fen: &str, variant: Variant) -> Result<AnyPosition, FenError> {
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
        self.inner.pack(out)
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn to_fen(&self) -> String {
        self.inner.to_fen()
    }

    /// True for the variant's standard start (so `position startpos` describes it).
    pub fn is_startpos(&self) -> bool {
        *self == AnyPosition::startpos(self.variant)
    }

    pub fn side_to_move(&self) -> Color {
        self.inner.side_to_move()
    }

    pub fn hash(&self) -> u64 {
        self.inner.hash()
    }

    /// Moves the side to move has made at least to reach this position, by the board
    /// alone (Breakthrough pawns only step forward; 0 where the board cannot tell).
    pub fn moves_made_at_least(&self) -> u64 {
        self.inner.moves_made_at_least()
    }

    /// The board as text, for `d`.
    pub fn diagram(&self) -> String {
        self.inner.diagram()
    }

    /// The board's files and ranks.
    pub fn board_size(&self) -> (u8, u8) {
        self.inner.board()
    }

    fn wrap(&self, code: u16) -> AnyMove {
        AnyMove {
            variant: self.variant,
            code,
        }
    }

    /// Every legal move; empty when the game is over by the board.
    pub fn legal_moves(&self) -> Vec<AnyMove> {
        let codes = self.inner.legal_moves();
        codes.into_iter().map(|c| self.wrap(c)).collect()
    }

    /// Reads move text as a legal move here.
    pub fn parse_move(&self, text: &str) -> Result<AnyMove, MoveError> {
        let m = self.wrap(self.inner.read_move(text)?);
        self.check_move(m)?;
        Ok(m)
    }

    /// True if `text` has the shape of a move of this rule set (legal here or not).
    pub fn is_move_text(&self, text: &str) -> bool {
        self.inner.read_move(text).is_ok()
    }

    /// Checks that `m` is a legal move here.
    pub fn check_move(&self, m: AnyMove) -> Result<(), MoveError> {
        if m.variant != self.variant {
            return Err(MoveError::OtherVariant(m));
        }
        self.inner.check_move(m.code)
    }

    /// True for a move that passes the turn.
    pub fn is_pass(&self, m: AnyMove) -> bool {
        m.variant == self.variant && self.inner.is_pass(m.code)
    }

    /// Plays a legal move (from [`AnyPosition::legal_moves`] or checked).
    pub fn play(&mut self, m: AnyMove) {
        debug_assert_eq!(m.variant, self.variant, "a move of another rule set");
        self.inner.play(m.code);
    }

    /// The position after a legal move.
    pub fn child(&self, m: AnyMove) -> AnyPosition {
        let mut next = self.clone();
        next.play(m);
        next
    }

    /// The end of the game by the board alone ([`History::outcome`] also sees
    /// threefold repetition).
    pub fn outcome(&self) -> Option<Outcome> {
        self.inner.outcome()
    }

    /// Leaves of the move tree `depth` plies deep, single-threaded.
    pub fn perft(&self, depth: u32) -> u64 {
        self.inner.perft(depth)
    }

    /// Leaves below each legal move at `depth`, on the current rayon pool, calling
    /// `counted` as each root move's count is done, until `stop` says to give up (the
    /// counts are then meaningless).
    pub(crate) fn perft_divide(
        &self,
        depth: u32,
        stop: &(dyn Fn() -> bool + Sync),
        counted: &(dyn Fn() + Sync),
    ) -> Vec<(AnyMove, u64)> {
        let counts = self.inner.perft_divide(depth, stop, counted);
        counts.into_iter().map(|(c, n)| (self.wrap(c), n)).collect()
    }

    /// Static evaluation from the side to move's view.
    pub fn evaluate(&self) -> i32 {
        self.inner.evaluate()
    }

    /// The evaluation by named groups of terms, for `eval`.
    pub(crate) fn eval_terms(&self) -> Vec<EvalTerm> {
        self.inner.eval_terms()
    }

    /// The evaluation's features of a quiet position (no win in one for the side to move,
    /// no threat against it, the game not over), for the tuner.
    pub(crate) fn quiet_features(&self) -> Option<Vec<i32>> {
        self.is_quiet().then(|| self.inner.features())
    }

    /// The network inputs active here seen from `perspective`, appended to `out`.
    pub(crate) fn network_inputs(&self, perspective: Color, out: &mut Vec<u16>) {
        self.inner.network_inputs(perspective, out)
    }

    /// The learned evaluation in use, if any.
    pub(crate) fn network(&self) -> Option<&'static Network> {
        self.inner.network()
    }

    /// Evaluates with `evaluation` from now on. A network made for another rule set or
    /// board is refused: the position then keeps its built-in evaluation.
    pub(crate) fn use_evaluation(&mut self, evaluation: Evaluation) -> Result<(), Mismatch> {
        let built_in = self.inner.built_in_network();
        match evaluation {
            Evaluation::BuiltIn => {
                self.inner.set_network(built_in);
            }
            Evaluation::Hand => {
                self.inner.set_network(None);
            }
            Evaluation::Network(net) => {
                if net.variant() != self.variant.name() || !self.inner.set_network(Some(net)) {
                    self.inner.set_network(built_in);
                    return Err(Mismatch {
                        net_variant: net.variant().to_string(),
                        net_board: net.board(),
                        variant: self.variant.name(),
                        board: self.board_size(),
                        fallback: if built_in.is_some() {
                            "the built-in network"
                        } else {
                            "the hand-written evaluation"
                        },
                    });
                }
            }
        }
        Ok(())
    }

    /// True when the game goes on, the side to move has no win in one and the opponent
    /// threatens none: a position whose value is not a matter of the next move.
    pub(crate) fn is_quiet(&self) -> bool {
        self.inner.is_quiet()
    }

    /// True for a capture (or what the rule set's quiescence search looks at).
    pub(crate) fn is_tactical(&self, m: AnyMove) -> bool {
        m.variant == self.variant && self.inner.is_tactical(m.code)
    }

    /// The evaluation's weights for this position's rule set.
    pub(crate) fn weights(&self) -> &'static [i32] {
        self.inner.weights()
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

    /// `color`'s pieces and their advancement, for the greedy player.
    pub(crate) fn material(&self, color: Color) -> (i32, i32) {
        self.inner.material(color)
    }

    /// Searches this position with the search built for its rule set (on the current
    /// rayon pool when more than one thread is asked for).
    pub(crate) fn search(
        &self,
        limits: &SearchLimits<AnyMove>,
        setup: &SearchSetup,
        on_info: &(dyn Fn(&Info<AnyMove>) + Sync),
    ) -> SearchResult<AnyMove> {
        let codes = limits.map_moves(|m| (m.variant == self.variant).then_some(m.code));
        let report = |info: &Info<u16>| on_info(&info.map_moves(|c| self.wrap(c)));
        let result = self.inner.search(&codes, setup, &report);
        result.map_moves(|c| self.wrap(c))
    }
}

/// A game in progress: its start, the moves played, and every position's hash, so a
/// threefold repetition is seen.
#[derive(Clone, Debug)]
pub struct History {
    start: AnyPosition,
    moves: Vec<AnyMove>,
    current: AnyPosition,
    /// Hashes of the positions before the current one, oldest first.
    earlier: Vec<u64>,
}

impl History {
    pub fn new(start: AnyPosition) -> History {
        History {
            current: start.clone(),
            start,
            moves: Vec::new(),
            earlier: Vec::new(),
        }
    }

    /// The game after `moves` (move texts) from `start`; the error names the first move
    /// refused and why.
    pub fn from_moves<S: AsRef<str>>(
        start: AnyPosition,
        moves: &[S],
    ) -> Result<History, PositionError> {
        let mut game = History::new(start);
        for (i, text) in moves.iter().enumerate() {
            let text = text.as_ref();
            game.play_text(text).map_err(|error| PositionError::Move {
                number: i + 1,
                text: text.to_string(),
                error,
            })?;
        }
        Ok(game)
    }

    pub fn start(&self) -> &AnyPosition {
        &self.start
    }

    pub fn moves(&self) -> &[AnyMove] {
        &self.moves
    }

    pub fn position(&self) -> &AnyPosition {
        &self.current
    }

    /// Hashes of the positions before the current one, oldest first.
    pub fn earlier_hashes(&self) -> &[u64] {
        &self.earlier
    }

    /// Plays a move after checking it.
    pub fn try_play(&mut self, m: AnyMove) -> Result<(), MoveError> {
        self.current.check_move(m)?;
        self.earlier.push(self.current.hash());
        self.current.play(m);
        self.moves.push(m);
        Ok(())
    }

    /// Plays move text after checking it.
    pub fn play_text(&mut self, text: &str) -> Result<AnyMove, MoveError> {
        let m = self.current.parse_move(text)?;
        self.try_play(m)?;
        Ok(m)
    }

    /// The end of the game, by the board or by threefold repetition.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(end) = self.current.outcome() {
            return Some(end);
        }
        let key = self.current.hash();
        let seen = self.earlier.iter().filter(|&&h| h == key).count();
        (seen >= 2).then_some(Outcome::draw(EndReason::Repetition))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
