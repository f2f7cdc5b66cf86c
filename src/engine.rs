//! The engine facade between the protocol and the search: it owns the position,
//! the options, the transposition table and the thread pool, and runs one search at
//! a time on a background thread. Nothing here formats protocol text.

use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use crate::game::SearchGame;
use crate::rules::Color;
use crate::search::time::{Clock, budget};
use crate::search::tt::TranspositionTable;
use crate::search::{Control, Info, Limits, SearchResult, Searcher};
use crate::variant::{AnyMove, AnyPosition, GameHistory, GameVariant};

/// Option ranges, shared by the `uci` option list and `set_option`.
pub const HASH_MAX_MB: u64 = 65_536;
pub const THREADS_MAX: u64 = 256;
pub const MULTIPV_MAX: u64 = 256;
pub const OVERHEAD_MAX_MS: u64 = 5_000;

/// Current option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub hash_mb: u64,
    pub threads: u64,
    pub variant: GameVariant,
    pub multipv: u64,
    pub move_overhead_ms: u64,
    pub ponder: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 16,
            threads: 1,
            variant: GameVariant::Breakthrough,
            multipv: 1,
            move_overhead_ms: 10,
            ponder: false,
        }
    }
}

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartingPoint {
    StartPos,
    Fen(String),
}

impl StartingPoint {
    /// The position this names in `variant`.
    pub fn position(&self, variant: GameVariant) -> Result<AnyPosition, String> {
        match self {
            StartingPoint::StartPos => Ok(AnyPosition::startpos(variant)),
            StartingPoint::Fen(fen) => {
                AnyPosition::from_fen(fen, variant).map_err(|e| format!("bad FEN: {e}"))
            }
        }
    }
}

/// A `go` command, parsed.
#[derive(Clone, Debug, Default)]
pub struct GoRequest {
    pub limits: Limits<AnyMove>,
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u64>,
    pub movetime: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
}

/// What the engine answers when a search ends: `best` is `None` when the game is over.
pub type Done = Box<dyn FnOnce(SearchResult<AnyMove>) + Send>;
/// Receives progress reports.
pub type InfoSink = Box<dyn Fn(&Info<AnyMove>) + Send + Sync>;

struct RunningSearch {
    control: Arc<Control>,
    handle: JoinHandle<()>,
}

pub struct Engine {
    options: Options,
    /// The game to search (start, moves, earlier positions), or why the last
    /// `position` command was refused.
    game: Result<GameHistory, String>,
    tt: Arc<TranspositionTable>,
    pool: Arc<rayon::ThreadPool>,
    search: Option<RunningSearch>,
}

fn build_pool(threads: u64) -> Result<rayon::ThreadPool, String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads as usize)
        .thread_name(|i| format!("search-{i}"))
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))
}

fn parse_number(name: &str, value: Option<&str>, max: u64, min: u64) -> Result<u64, String> {
    let text = value.ok_or_else(|| format!("option {name} needs a value"))?;
    let n: u64 = text
        .trim()
        .parse()
        .map_err(|_| format!("option {name}: '{text}' is not a whole number"))?;
    if !(min..=max).contains(&n) {
        return Err(format!("option {name}: {n} is out of range {min}..{max}"));
    }
    Ok(n)
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    pub fn new() -> Engine {
        let options = Options::default();
        Engine {
            game: Ok(GameHistory::new(AnyPosition::startpos(options.variant))),
            tt: Arc::new(TranspositionTable::new(options.hash_mb as usize)),
            pool: Arc::new(build_pool(options.threads).expect("one search thread")),
            options,
            search: None,
        }
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The current position, or why there is none.
    pub fn position(&self) -> Result<&AnyPosition, &str> {
        self.game
            .as_ref()
            .map(GameHistory::position)
            .map_err(|e| e.as_str())
    }

    /// Sets the position from a start and moves. On any error the engine holds no
    /// position (so a later `go` cannot answer for a position the GUI did not mean).
    pub fn set_position(&mut self, start: StartingPoint, moves: &[&str]) -> Result<(), String> {
        self.settle();
        let result = start
            .position(self.options.variant)
            .and_then(|start| GameHistory::from_moves(start, moves));
        self.game = result.clone();
        result.map(|_| ())
    }

    /// Drops the position after a `position` command that could not be read at all.
    pub fn refuse_position(&mut self, reason: String) {
        self.settle();
        self.game = Err(reason);
    }

    /// Sets an option by its UCI name (case-insensitive). `Clear Hash` takes no value.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        self.settle();
        match name.to_ascii_lowercase().as_str() {
            "hash" => {
                let mb = parse_number("Hash", value, HASH_MAX_MB, 1)?;
                self.tt = Arc::new(TranspositionTable::try_new(mb as usize)?);
                self.options.hash_mb = mb;
            }
            "threads" => {
                let n = parse_number("Threads", value, THREADS_MAX, 1)?;
                self.pool = Arc::new(build_pool(n)?);
                self.options.threads = n;
            }
            "multipv" => self.options.multipv = parse_number("MultiPV", value, MULTIPV_MAX, 1)?,
            "move overhead" => {
                self.options.move_overhead_ms =
                    parse_number("Move Overhead", value, OVERHEAD_MAX_MS, 0)?
            }
            "ponder" => {
                self.options.ponder = match value.map(|v| v.trim().to_ascii_lowercase()).as_deref()
                {
                    Some("true") => true,
                    Some("false") => false,
                    _ => {
                        return Err(format!(
                            "option Ponder: expected true or false, got '{}'",
                            value.unwrap_or("")
                        ));
                    }
                }
            }
            "uci_variant" => {
                let text = value.ok_or("option UCI_Variant needs a value")?;
                let variant: GameVariant = text
                    .parse()
                    .map_err(|e| format!("option UCI_Variant: {e}"))?;
                self.options.variant = variant;
                // As Fairy-Stockfish: a new variant starts from its start position.
                self.game = Ok(GameHistory::new(AnyPosition::startpos(variant)));
                self.tt.clear();
            }
            "clear hash" => self.tt.clear(),
            _ => return Err(format!("unknown option '{name}'")),
        }
        Ok(())
    }

    /// `ucinewgame`: forget everything learned about earlier positions.
    pub fn new_game(&mut self) {
        self.settle();
        self.tt.clear();
    }

    pub fn is_searching(&self) -> bool {
        self.search
            .as_ref()
            .is_some_and(|s| !s.handle.is_finished())
    }

    /// Starts a search on a background thread; `done` receives the result exactly once.
    /// A refused request (no valid position) returns the reason and does not call `done`.
    pub fn go(&mut self, request: GoRequest, on_info: InfoSink, done: Done) -> Result<(), String> {
        self.settle();
        let game = self
            .game
            .as_ref()
            .map_err(|e| format!("no valid position ({e})"))?;
        let root = *game.position();
        let earlier = game.earlier_hashes().to_vec();
        for &m in &request.limits.searchmoves {
            root.check_move(m)
                .map_err(|e| format!("searchmoves: {e}"))?;
        }
        let overhead = Duration::from_millis(self.options.move_overhead_ms);
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
                moves_played: (game.moves.len() as u64 / 2).max(root.moves_made_at_least()),
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
        let waiting = request.infinite || request.ponder;
        let control = Arc::new(Control::new(soft, hard, request.limits.nodes, waiting));
        let mut limits = request.limits;
        limits.multipv = limits.multipv.max(self.options.multipv as usize);
        let job = SearchJob {
            limits,
            earlier,
            control: control.clone(),
            tt: self.tt.clone(),
            pool: self.pool.clone(),
            threads: self.options.threads as usize,
            on_info,
            done,
        };
        let handle = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || match root {
                AnyPosition::Breakthrough(p) => job.run(p, AnyMove::Breakthrough, |m| match m {
                    AnyMove::Breakthrough(m) => Some(m),
                    _ => None,
                }),
                AnyPosition::Doorbraak(p) => job.run(p, AnyMove::Doorbraak, |m| match m {
                    AnyMove::Doorbraak(m) => Some(m),
                    _ => None,
                }),
            })
            .map_err(|e| format!("cannot start the search thread: {e}"))?;
        self.search = Some(RunningSearch { control, handle });
        Ok(())
    }

    /// `ponderhit`: the pondered move was played; the clock now runs.
    pub fn ponderhit(&self) {
        if let Some(s) = &self.search {
            s.control.release();
        }
    }

    /// Stops the running search, if any, and waits until it has answered.
    pub fn stop(&mut self) {
        if let Some(s) = self.search.take() {
            s.control.stop();
            let _ = s.handle.join();
        }
    }

    /// Lets a running search end as it would by itself, so commands queued behind a
    /// `go` run after it (as scripted pipelines expect). A search that cannot end by
    /// itself (`go infinite`, `go ponder`) is stopped instead.
    pub fn settle(&mut self) {
        self.settle_within(None);
    }

    /// As [`Engine::settle`], but stops the search once `limit` has passed.
    pub fn settle_within(&mut self, limit: Option<Duration>) {
        let Some(s) = self.search.take() else { return };
        let deadline = limit.map(|l| std::time::Instant::now() + l);
        while !s.handle.is_finished() {
            if s.control.is_waiting() || deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                s.control.stop();
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        let _ = s.handle.join();
    }
}

/// Everything a search thread takes with it.
struct SearchJob {
    limits: Limits<AnyMove>,
    earlier: Vec<u64>,
    control: Arc<Control>,
    tt: Arc<TranspositionTable>,
    pool: Arc<rayon::ThreadPool>,
    threads: usize,
    on_info: InfoSink,
    done: Done,
}

impl SearchJob {
    /// Searches `root` with the search built for its game; moves cross the facade as
    /// [`AnyMove`] (`wrap` and `unwrap` convert them).
    fn run<G: SearchGame>(
        self,
        root: G,
        wrap: fn(G::Move) -> AnyMove,
        unwrap: fn(AnyMove) -> Option<G::Move>,
    ) {
        let limits = Limits {
            depth: self.limits.depth,
            nodes: self.limits.nodes,
            mate: self.limits.mate,
            searchmoves: self
                .limits
                .searchmoves
                .iter()
                .filter_map(|&m| unwrap(m))
                .collect(),
            multipv: self.limits.multipv,
        };
        let on_info = &self.on_info;
        let report = move |info: &Info<G::Move>| on_info(&info.map_moves(wrap));
        let result = self.pool.install(|| {
            Searcher::new(
                root,
                &limits,
                &self.control,
                &self.tt,
                self.threads,
                &report,
            )
            .with_game_history(&self.earlier)
            .run()
        });
        (self.done)(result.map_moves(wrap));
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}
