//! The engine facade between the protocol and the search: it owns the game, the options'
//! values, the transposition table and the thread pool, and runs one search at a time on
//! a background thread. Nothing here formats protocol text. Options are declared once,
//! in the table of `options.rs`.

pub(crate) mod greedy;
mod options;
mod solver;
mod strength;

use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub(crate) use options::{BUILT_IN, OPTIONS, OptionError, find as find_option};

use crate::bench::{self, BenchReport};
use crate::registry::{
    AnyMove, AnyPosition, BoardVariant, Evaluation, History, MoveError, PositionError, SearchSetup,
    Variant,
};
use crate::rulesets::nnue::Network;
use crate::rulesets::{Color, Outcome};
use crate::search::time::{Clock, budget};
use crate::search::tt::{TableError, TranspositionTable};
use crate::search::{Budget, Control, Info, SearchLimits, SearchMemory, SearchResult, WIN};
use crate::util::rng::Rng;

/// Who chooses the moves: the search, or the one-ply greedy player (`breakthrough greedy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Player {
    Search,
    Greedy,
}

impl Player {
    /// The name `uci` gives.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Player::Search => "breakthrough",
            Player::Greedy => "greedy",
        }
    }
}

/// The current value of every option of [`OPTIONS`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EngineSettings {
    pub(crate) hash_mb: u64,
    pub(crate) threads: u64,
    /// `UCI_Variant`: the rule set and the board `startpos` sets up.
    pub(crate) variant: BoardVariant,
    pub(crate) multipv: u64,
    pub(crate) move_overhead_ms: u64,
    pub(crate) ponder: bool,
    /// `Use NNUE`: false evaluates by hand.
    pub(crate) use_network: bool,
    /// `EvalFile`: the network file, or [`BUILT_IN`].
    pub(crate) eval_file: String,
    /// `Skill Level`, `UCI_LimitStrength` and `UCI_Elo` (see `strength.rs`).
    pub(crate) skill_level: u64,
    pub(crate) limit_strength: bool,
    pub(crate) elo: u64,
}

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum StartingPoint {
    StartPos,
    Fen(String),
}

/// A `go` command: its limits, as given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct GoRequest {
    pub(crate) depth: Option<u32>,
    pub(crate) nodes: Option<u64>,
    pub(crate) mate: Option<u32>,
    pub(crate) movetime: Option<u64>,
    pub(crate) wtime: Option<u64>,
    pub(crate) btime: Option<u64>,
    pub(crate) winc: Option<u64>,
    pub(crate) binc: Option<u64>,
    pub(crate) movestogo: Option<u64>,
    pub(crate) infinite: bool,
    pub(crate) ponder: bool,
    /// Root moves to search (move texts, checked against the position by [`Engine::go`]).
    pub(crate) searchmoves: Vec<String>,
}

/// Why the engine cannot do what it was asked.
#[derive(Debug, thiserror::Error)]
pub(crate) enum EngineError {
    #[error("no valid position ({0})")]
    NoPosition(Arc<dyn std::error::Error + Send + Sync>),
    #[error("searchmoves: {0}")]
    SearchMove(MoveError),
    #[error("cannot start the search thread: {0}")]
    Thread(std::io::Error),
    #[error(transparent)]
    Option(#[from] OptionError),
}

/// Receives the answer when a search ends: `best` is `None` when the game is over.
pub(crate) type Done = Box<dyn FnOnce(SearchResult<AnyMove>) + Send>;
/// Receives progress reports.
pub(crate) type InfoSink = Box<dyn Fn(&Info<AnyMove>) + Send + Sync>;
/// Receives `go perft`'s counts per root move, or `None` if it was stopped.
pub(crate) type PerftDone = Box<dyn FnOnce(Option<Vec<(AnyMove, u64)>>) + Send>;
/// Receives `bench`'s report, or `None` if it was stopped.
pub(crate) type BenchDone = Box<dyn FnOnce(Option<Result<BenchReport, TableError>>) + Send>;

/// A search, perft or bench running on its own thread.
struct RunningJob {
    control: Arc<Control>,
    handle: JoinHandle<()>,
}

pub(crate) struct Engine {
    player: Player,
    settings: EngineSettings,
    /// The game to search, or why the last `position` command was refused.
    game: Result<History, Arc<dyn std::error::Error + Send + Sync>>,
    tt: Arc<TranspositionTable>,
    /// What the last search of the game left for the next: emptied with the table.
    memory: Arc<SearchMemory>,
    pool: Arc<rayon::ThreadPool>,
    /// The network `EvalFile` loaded (`None`: the built-in ones).
    file_network: Option<&'static Network>,
    job: Option<RunningJob>,
    /// The solver's table for small boards, and the rule set it holds proofs of.
    solver_table: Option<(Variant, Arc<crate::solve::Table>)>,
    /// Draws the weakened levels' choices: seeded, so a run can be repeated.
    skill_rng: Rng,
}

/// The first seed of the weakened levels' draws.
const SKILL_SEED: u64 = 0x5eed_5eed;

fn build_pool(threads: u64) -> Result<rayon::ThreadPool, rayon::ThreadPoolBuildError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads as usize)
        .thread_name(|i| format!("search-{i}"))
        .build()
}

impl Engine {
    /// An engine with every option at its default (set through the option table, the
    /// one place defaults are written).
    pub(crate) fn new(player: Player) -> Result<Engine, EngineError> {
        let variant = BoardVariant::default();
        let mut engine = Engine {
            player,
            settings: EngineSettings {
                hash_mb: 0,
                threads: 0,
                variant,
                multipv: 0,
                move_overhead_ms: 0,
                ponder: false,
                use_network: false,
                eval_file: String::new(),
                skill_level: 0,
                limit_strength: false,
                elo: 0,
            },
            game: Ok(History::new(variant.startpos())),
            tt: Arc::new(TranspositionTable::new(0).map_err(OptionError::Hash)?),
            memory: Arc::default(),
            pool: Arc::new(build_pool(1).map_err(OptionError::Threads)?),
            file_network: None,
            job: None,
            solver_table: None,
            skill_rng: Rng::new(SKILL_SEED),
        };
        for option in &OPTIONS {
            option.reset(&mut engine)?;
        }
        Ok(engine)
    }

    pub(crate) fn player(&self) -> Player {
        self.player
    }

    /// The rule set and board `UCI_Variant` names.
    pub(crate) fn variant(&self) -> BoardVariant {
        self.settings.variant
    }

    #[cfg(test)]
    pub(crate) fn settings(&self) -> &EngineSettings {
        &self.settings
    }

    /// The current position, or why there is none.
    pub(crate) fn position(&self) -> Result<&AnyPosition, EngineError> {
        match &self.game {
            Ok(game) => Ok(game.position()),
            Err(e) => Err(EngineError::NoPosition(e.clone())),
        }
    }

    /// How the game stands: over (by the board, or by threefold repetition) or not.
    pub(crate) fn outcome(&self) -> Result<Option<Outcome>, EngineError> {
        match &self.game {
            Ok(game) => Ok(game.outcome()),
            Err(e) => Err(EngineError::NoPosition(e.clone())),
        }
    }

    /// Sets the position from a start and moves. On any error the engine holds no
    /// position (so a later `go` cannot answer for a position the GUI did not mean).
    pub(crate) fn set_position(
        &mut self,
        start: &StartingPoint,
        moves: &[String],
    ) -> Result<(), Arc<PositionError>> {
        self.settle();
        let variant = self.settings.variant;
        let start = match start {
            StartingPoint::StartPos => Ok(variant.startpos()),
            StartingPoint::Fen(fen) => {
                AnyPosition::from_fen(fen, variant.rules).map_err(Into::into)
            }
        };
        match start.and_then(|start| History::from_moves(start, moves)) {
            Ok(game) => {
                self.game = Ok(game);
                Ok(())
            }
            Err(e) => {
                let e = Arc::new(e);
                self.game = Err(e.clone());
                Err(e)
            }
        }
    }

    /// Drops the position after a `position` command that could not be read at all.
    pub(crate) fn refuse_position(
        &mut self,
        reason: impl std::error::Error + Send + Sync + 'static,
    ) {
        self.settle();
        self.game = Err(Arc::new(reason));
    }

    /// Sets an option by its name (case-insensitive); `value` is the text after `value`.
    pub(crate) fn set_option(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Result<(), OptionError> {
        self.settle();
        options::find(name)?.set(self, value)
    }

    /// `ucinewgame`: forget everything learned about earlier positions.
    pub(crate) fn new_game(&mut self) {
        self.settle();
        self.tt.clear();
        self.memory.clear();
    }

    fn set_hash(&mut self, megabytes: u64) -> Result<(), OptionError> {
        let table = TranspositionTable::new(megabytes as usize).map_err(OptionError::Hash)?;
        self.tt = Arc::new(table);
        self.settings.hash_mb = megabytes;
        self.solver_table = None;
        Ok(())
    }

    fn set_threads(&mut self, threads: u64) -> Result<(), OptionError> {
        self.pool = Arc::new(build_pool(threads).map_err(OptionError::Threads)?);
        self.settings.threads = threads;
        Ok(())
    }

    fn set_variant(&mut self, variant: BoardVariant) {
        self.settings.variant = variant;
        // As Fairy-Stockfish: a new variant starts from its start position.
        self.game = Ok(History::new(variant.startpos()));
        self.tt.clear();
        self.memory.clear();
    }

    fn clear_hash(&mut self) {
        self.tt.clear();
        self.memory.clear();
        self.solver_table = None;
    }

    /// `EvalFile`: loads a network file, or goes back to the built-in networks (empty, or
    /// [`BUILT_IN`]). A file that cannot be used leaves the evaluation as it was.
    fn set_eval_file(&mut self, path: &str) -> Result<(), OptionError> {
        let net = if path.is_empty() || path == BUILT_IN {
            None
        } else {
            Some(crate::registry::load_network(path.as_ref()).map_err(OptionError::EvalFile)?)
        };
        self.file_network = net;
        self.settings.eval_file = if net.is_some() { path } else { BUILT_IN }.to_string();
        Ok(())
    }

    /// The evaluation that `Use NNUE` and `EvalFile` choose.
    pub(crate) fn evaluation(&self) -> Evaluation {
        match (self.settings.use_network, self.file_network) {
            (false, _) => Evaluation::Hand,
            (true, Some(net)) => Evaluation::Network(net),
            (true, None) => Evaluation::BuiltIn,
        }
    }

    /// The current position, evaluated as the search would evaluate it.
    pub(crate) fn evaluated_position(&self) -> Result<AnyPosition, EngineError> {
        let mut pos = self.position()?.clone();
        if let Err(e) = pos.use_evaluation(self.evaluation()) {
            log::warn!("{e}");
        }
        Ok(pos)
    }

    /// Starts a search on a background thread; `done` receives the result exactly once.
    /// A refused request (no valid position, an illegal `searchmoves` move) returns the
    /// reason and does not call `done`.
    pub(crate) fn go(
        &mut self,
        request: &GoRequest,
        on_info: InfoSink,
        done: Done,
    ) -> Result<(), EngineError> {
        self.settle();
        let game = match &self.game {
            Ok(game) => game,
            Err(e) => return Err(EngineError::NoPosition(e.clone())),
        };
        let mut root = game.position().clone();
        if let Err(e) = root.use_evaluation(self.evaluation()) {
            log::warn!("{e}");
        }
        // `go mate` and `searchmoves` ask a question of the position: full strength answers.
        let asked = if self.settings.limit_strength {
            strength::Strength::Elo(self.settings.elo)
        } else {
            strength::Strength::Level(self.settings.skill_level)
        };
        let weakening = strength::Weakening::of(asked)
            .filter(|_| request.mate.is_none() && request.searchmoves.is_empty());
        let nodes = match weakening {
            Some(w) => Some(request.nodes.map_or(w.nodes(), |n| n.min(w.nodes()))),
            None => request.nodes,
        };
        let shown_lines = self.settings.multipv as usize;
        let mut limits = SearchLimits {
            depth: request.depth,
            nodes,
            mate: request.mate,
            searchmoves: Vec::new(),
            multipv: shown_lines.max(weakening.map_or(1, |w| w.lines())),
        };
        for text in &request.searchmoves {
            limits
                .searchmoves
                .push(root.parse_move(text).map_err(EngineError::SearchMove)?);
        }
        if self.player == Player::Greedy {
            done(greedy_answer(&root));
            return Ok(());
        }
        let (soft, hard) = self.time_limits(request, game);
        // A search with no limit of its own (no depth, nodes, mate, move time, nor a clock
        // for the side to move) is an infinite one: it answers after `stop`.
        let unlimited =
            request.depth.is_none() && nodes.is_none() && request.mate.is_none() && hard.is_none();
        let waiting = request.infinite || request.ponder || unlimited;
        let control = Arc::new(Control::new(Budget {
            soft,
            hard,
            nodes,
            waiting,
        }));
        let earlier = game.earlier_hashes().to_vec();
        let (tt, pool) = (self.tt.clone(), self.pool.clone());
        let memory = self.memory.clone();
        let threads = self.settings.threads as usize;
        let attempt = if request.depth.is_none()
            && nodes.is_none()
            && request.mate.is_none()
            && limits.searchmoves.is_empty()
            && limits.multipv == 1
            && !waiting
        {
            soft.or(hard)
                .and_then(|limit| self.solver_try(&root, limit / 4, hard))
        } else {
            None
        };
        let (on_info, done) = match weakening {
            Some(w) => self.weakened(w, &root, shown_lines, on_info, done),
            None => (on_info, done),
        };
        self.spawn("search", control, move |control| {
            if let Some(attempt) = attempt {
                match solver::prove(&root, &attempt, control, &*on_info) {
                    solver::Proven::Win(result) => return done(result),
                    solver::Proven::WinningMove(m) => limits.searchmoves = vec![m],
                    solver::Proven::Nothing => {}
                }
            }
            let setup = SearchSetup {
                control,
                tt: &tt,
                threads,
                earlier: &earlier,
                memory: Some(&memory),
            };
            let result = pool.install(|| root.search(&limits, &setup, &*on_info));
            done(result);
        })
    }

    /// The report sink and answer of a weakened search: the sink gathers every line (and
    /// passes on the `shown` first ones), the answer plays the move `w` chooses among them.
    fn weakened(
        &mut self,
        w: strength::Weakening,
        root: &AnyPosition,
        shown: usize,
        on_info: InfoSink,
        done: Done,
    ) -> (InfoSink, Done) {
        let lines = Arc::new(strength::Lines::default());
        let gathered = lines.clone();
        let sink: InfoSink = Box::new(move |info| {
            gathered.record(info);
            if info.multipv <= shown {
                on_info(info);
            }
        });
        let mut rng = Rng::new(self.skill_rng.next_u64() ^ root.hash());
        let root = root.clone();
        let answer: Done = Box::new(move |mut result| {
            if result.best.is_some()
                && let Some(m) = w.choose(&root, &lines.finished(), &mut rng)
                && result.best != Some(m)
            {
                result.best = Some(m);
                result.ponder = None;
            }
            done(result);
        });
        (sink, answer)
    }

    /// The solver's part of a `go` on `root` within `budget`, if its board is small and
    /// its rule set the solver's (the table made or kept for it).
    fn solver_try(
        &mut self,
        root: &AnyPosition,
        budget: Duration,
        hard: Option<Duration>,
    ) -> Option<solver::SolverTry> {
        let position = solver::solver_position(root)?;
        let variant = root.variant();
        let table = match &self.solver_table {
            Some((v, table)) if *v == variant => table.clone(),
            _ => {
                self.solver_table = None;
                let table = match crate::solve::Table::new(
                    self.settings.hash_mb.min(solver::SOLVER_TABLE_MB) as usize,
                ) {
                    Ok(t) => Arc::new(t),
                    Err(e) => {
                        log::warn!("solver: {e}");
                        return None;
                    }
                };
                self.solver_table = Some((variant, table.clone()));
                table
            }
        };
        Some(solver::SolverTry {
            table,
            position,
            budget,
            deadline: hard.map(|h| Instant::now() + h),
            threads: self.settings.threads as usize,
        })
    }

    /// Counts the leaves below each legal move at `depth` on the search threads, on a
    /// thread of its own like a search; `done` gets the counts, or `None` if stopped.
    pub(crate) fn perft(&mut self, depth: u32, done: PerftDone) -> Result<(), EngineError> {
        self.settle();
        let root = self.position()?.clone();
        let pool = self.pool.clone();
        let control = Arc::new(Control::unlimited());
        self.spawn("perft", control, move |control| {
            let counts =
                pool.install(|| root.perft_divide(depth, &|| control.is_stopped(), &|| {}));
            done((!control.is_stopped()).then_some(counts));
        })
    }

    /// Runs `bench` on a thread of its own like a search; `done` gets the report, or
    /// `None` if stopped.
    pub(crate) fn bench(&mut self, depth: u32, done: BenchDone) -> Result<(), EngineError> {
        self.settle();
        let control = Arc::new(Control::unlimited());
        self.spawn("bench", control, move |control| {
            let report = bench::run(depth, control.stop_flag());
            done((!control.is_stopped()).then_some(report));
        })
    }

    /// Runs `job` on its own thread; `stop` and the other controls reach it through
    /// `control`.
    fn spawn(
        &mut self,
        name: &str,
        control: Arc<Control>,
        job: impl FnOnce(&Control) + Send + 'static,
    ) -> Result<(), EngineError> {
        let job_control = control.clone();
        let handle = std::thread::Builder::new()
            .name(name.into())
            .spawn(move || job(&job_control))
            .map_err(EngineError::Thread)?;
        self.job = Some(RunningJob { control, handle });
        Ok(())
    }

    /// True while a job runs that ends by itself (a search with a limit, perft, bench):
    /// commands that change or read the game wait for it. A search that waits for `stop`
    /// (infinite, pondering) does not count: the next such command stops it.
    pub(crate) fn finishing(&mut self) -> bool {
        self.busy()
            && self
                .job
                .as_ref()
                .is_some_and(|job| !job.control.is_waiting())
    }

    /// True while a search, perft or bench runs.
    pub(crate) fn busy(&mut self) -> bool {
        match &self.job {
            Some(job) if !job.handle.is_finished() => true,
            Some(_) => {
                self.settle();
                false
            }
            None => false,
        }
    }

    /// The soft and hard time limits of a `go`, from the clock of the side to move and
    /// `movetime`, less `Move Overhead`.
    fn time_limits(
        &self,
        request: &GoRequest,
        game: &History,
    ) -> (Option<Duration>, Option<Duration>) {
        let root = game.position();
        let overhead = Duration::from_millis(self.settings.move_overhead_ms);
        let (time, inc) = match root.side_to_move() {
            Color::White => (request.wtime, request.winc),
            Color::Black => (request.btime, request.binc),
        };
        let (mut soft, mut hard) = (None, None);
        if let Some(t) = time {
            let clock = Clock {
                remaining: Duration::from_millis(t),
                increment: Duration::from_millis(inc.unwrap_or(0)),
                moves_to_go: request.movestogo,
                moves_played: (game.moves().len() as u64 / 2).max(root.moves_made_at_least()),
            };
            let (s, h) = budget(clock, overhead);
            (soft, hard) = (Some(s), Some(h));
        }
        if let Some(t) = request.movetime {
            // A fixed move time is used in full: it sets no soft limit of its own.
            let limit = Duration::from_millis(t)
                .saturating_sub(overhead)
                .max(Duration::from_millis(1));
            hard = Some(hard.map_or(limit, |h| h.min(limit)));
            soft = soft.map(|s| s.min(limit));
        }
        (soft, hard)
    }

    /// `ponderhit`: the pondered move was played; the clock now runs.
    pub(crate) fn ponderhit(&self) {
        if let Some(job) = &self.job {
            job.control.release();
        }
    }

    /// Stops the running search, if any, and waits until it has answered.
    pub(crate) fn stop(&mut self) {
        if let Some(job) = self.job.take() {
            job.control.stop();
            let _ = job.handle.join();
        }
    }

    /// Lets a running search end as it would by itself, so commands queued behind a
    /// `go` run after it (as scripted pipelines expect). A search that cannot end by
    /// itself (`go infinite`, `go ponder`) is stopped instead.
    pub(crate) fn settle(&mut self) {
        self.settle_within(None);
    }

    /// As [`Engine::settle`], but stops the search once `limit` has passed.
    pub(crate) fn settle_within(&mut self, limit: Option<Duration>) {
        let Some(job) = self.job.take() else { return };
        let deadline = limit.map(|l| Instant::now() + l);
        while !job.handle.is_finished() {
            if job.control.is_waiting() || deadline.is_some_and(|d| Instant::now() >= d) {
                job.control.stop();
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        let _ = job.handle.join();
    }
}

/// The greedy player's answer, in the form a search gives it.
fn greedy_answer(root: &AnyPosition) -> SearchResult<AnyMove> {
    let best = crate::engine::greedy::best_move(root);
    let score = match root.outcome() {
        Some(o) if o.winner == Some(root.side_to_move()) => WIN,
        Some(o) if o.winner.is_some() => -WIN,
        _ => 0,
    };
    SearchResult {
        best,
        ponder: None,
        score,
        depth: 1,
        nodes: 0,
        no_mate: None,
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests;
