//! The engine facade between the protocol and the search: it owns the position,
//! the options, the transposition table and the thread pool, and runs one search at
//! a time on a background thread. Nothing here formats protocol text.

use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use crate::rules::{Move, Position, Variant};
use crate::search::time::{Clock, budget};
use crate::search::tt::TranspositionTable;
use crate::search::{Control, Info, Limits, SearchResult, Searcher};

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
    pub variant: Variant,
    pub multipv: u64,
    pub move_overhead_ms: u64,
    pub ponder: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 16,
            threads: 1,
            variant: Variant::Breakthrough,
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

/// A `go` command, parsed.
#[derive(Clone, Debug, Default)]
pub struct GoRequest {
    pub limits: Limits<Move>,
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
pub type Done = Box<dyn FnOnce(SearchResult<Move>) + Send>;
/// Receives progress reports.
pub type InfoSink = Box<dyn Fn(&Info<Move>) + Send + Sync>;

struct RunningSearch {
    control: Arc<Control>,
    handle: JoinHandle<()>,
}

pub struct Engine {
    options: Options,
    /// The position to search, or why the last `position` command was refused.
    position: Result<Position, String>,
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
            position: Ok(Position::startpos(options.variant)),
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
    pub fn position(&self) -> Result<&Position, &str> {
        self.position.as_ref().map_err(|e| e.as_str())
    }

    /// Sets the position from a start and moves. On any error the engine holds no
    /// position (so a later `go` cannot answer for a position the GUI did not mean).
    pub fn set_position(&mut self, start: StartingPoint, moves: &[&str]) -> Result<(), String> {
        self.settle();
        let result = (|| {
            let mut pos = match start {
                StartingPoint::StartPos => Position::startpos(self.options.variant),
                StartingPoint::Fen(fen) => Position::from_fen(&fen, self.options.variant)
                    .map_err(|e| format!("bad FEN: {e}"))?,
            };
            for (i, text) in moves.iter().enumerate() {
                let m = pos
                    .parse_move(text)
                    .map_err(|e| format!("move {} ({text}) refused: {e}", i + 1))?;
                pos.play_unchecked(m);
            }
            Ok(pos)
        })();
        self.position = result.clone();
        result.map(|_| ())
    }

    /// Drops the position after a `position` command that could not be read at all.
    pub fn refuse_position(&mut self, reason: String) {
        self.settle();
        self.position = Err(reason);
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
                let variant: Variant = text
                    .trim()
                    .parse()
                    .map_err(|e| format!("option UCI_Variant: {e}"))?;
                self.options.variant = variant;
                // As Fairy-Stockfish: a new variant starts from its start position.
                self.position = Ok(Position::startpos(variant));
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
        let root = *self
            .position
            .as_ref()
            .map_err(|e| format!("no valid position ({e})"))?;
        for m in &request.limits.searchmoves {
            root.check_move(*m)
                .map_err(|e| format!("searchmoves: {e}"))?;
        }
        let overhead = Duration::from_millis(self.options.move_overhead_ms);
        let (time, inc) = match root.side_to_move() {
            crate::rules::Color::White => (request.wtime, request.winc),
            crate::rules::Color::Black => (request.btime, request.binc),
        };
        let (mut soft, mut hard) = (None, None);
        if let Some(t) = time {
            let clock = Clock {
                remaining: Duration::from_millis(t),
                increment: Duration::from_millis(inc.unwrap_or(0)),
                moves_to_go: request.movestogo,
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
        let (tt, pool, threads, thread_control) = (
            self.tt.clone(),
            self.pool.clone(),
            self.options.threads as usize,
            control.clone(),
        );
        let handle = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let result = pool.install(|| {
                    Searcher::new(root, &limits, &thread_control, &tt, threads, &*on_info).run()
                });
                done(result);
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

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}
