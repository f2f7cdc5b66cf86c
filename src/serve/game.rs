//! One browser tab's game: the moves, the clocks, and the engine (the same [`Engine`]
//! facade the UCI mode drives) playing one side or analysing. Everything here is plain
//! threads and locks; the HTTP layer (`mod.rs`) only calls in and sends the events on.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::broadcast;

use crate::engine::{Engine, GoRequest, Player, StartingPoint};
use crate::rulesets::Color;
use crate::search::{Info, Score};
use crate::variant::{AnyMove, AnyPosition, History, Variant};

/// Sessions kept at once; a new one beyond this replaces the least recently used.
pub(super) const MAX_SESSIONS: usize = 32;
/// A session nobody has asked about for this long is dropped.
const IDLE: Duration = Duration::from_secs(3600);
/// An analysis nobody follows (every event stream closed) for this long is stopped.
const UNWATCHED: Duration = Duration::from_secs(3);
/// Analysis lines at most.
const MAX_MULTIPV: u64 = 8;

/// A request the server refuses, with the HTTP status it gets.
#[derive(Debug, thiserror::Error)]
pub(super) enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    #[error("no game {0} (it may have ended long ago: start a new one)")]
    NoSuchGame(u64),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    Internal(String),
}

fn bad(text: impl Into<String>) -> ApiError {
    ApiError::BadRequest(text.into())
}

/// How a new game is set up, as the page sends it.
#[derive(Debug)]
pub(super) struct NewGame {
    pub(super) variant: Variant,
    pub(super) start: AnyPosition,
    pub(super) moves: Vec<String>,
    /// The side the engine plays (`None`: nobody, for analysis or two people).
    pub(super) engine_side: Option<Color>,
    /// 0-20 (20: full strength).
    pub(super) level: u64,
    /// The clock: start time and increment; `None`: no clock, the engine thinks
    /// `movetime` per move.
    pub(super) clock: Option<(Duration, Duration)>,
    pub(super) movetime: Duration,
}

impl NewGame {
    /// Reads the page's JSON: `variant`, then `fen` or `pgn` (optional), `moves`, `engine`
    /// (`"white"`, `"black"`, `"none"`), `level`, `minutes` + `increment` or `movetime_ms`.
    pub(super) fn from_json(body: &Value) -> Result<NewGame, ApiError> {
        let text = |key: &str| -> Result<Option<&str>, ApiError> {
            match body.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.as_str())),
                Some(_) => Err(bad(format!("'{key}' must be text"))),
            }
        };
        let number = |key: &str| -> Result<Option<f64>, ApiError> {
            match body.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(v) => v
                    .as_f64()
                    .filter(|x| x.is_finite() && *x >= 0.0)
                    .map(Some)
                    .ok_or_else(|| bad(format!("'{key}' must be a number of at least 0"))),
            }
        };
        let mut variant: Variant = match text("variant")? {
            Some(name) => name.parse().map_err(|e| bad(format!("{e}")))?,
            None => Variant::default(),
        };
        let mut moves: Vec<String> = match body.get("moves") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => items
                .iter()
                .map(|m| m.as_str().map(str::to_string))
                .collect::<Option<_>>()
                .ok_or_else(|| bad("'moves' must be a list of move texts"))?,
            Some(_) => return Err(bad("'moves' must be a list of move texts")),
        };
        let mut fen = text("fen")?
            .map(str::trim)
            .filter(|f| !f.is_empty())
            .map(str::to_string);
        if let Some(pgn) = text("pgn")?.filter(|p| !p.trim().is_empty()) {
            let games = crate::pgn::read_games(pgn).map_err(|e| bad(format!("PGN: {e}")))?;
            let game = games
                .first()
                .ok_or_else(|| bad("PGN: no game in the text"))?;
            if let Some(name) = game.tag("Variant") {
                variant = name
                    .to_ascii_lowercase()
                    .parse()
                    .map_err(|e| bad(format!("PGN Variant tag: {e}")))?;
            }
            fen = game.tag("FEN").map(str::to_string);
            moves = game.moves.clone();
        }
        let start = match &fen {
            Some(fen) => {
                AnyPosition::from_fen(fen, variant).map_err(|e| bad(format!("FEN: {e}")))?
            }
            None => AnyPosition::startpos(variant),
        };
        // The moves are checked here, so a bad one is named before a game exists.
        History::from_moves(start.clone(), &moves).map_err(|e| bad(e.to_string()))?;
        let engine_side = match text("engine")?.unwrap_or("black") {
            "white" => Some(Color::White),
            "black" => Some(Color::Black),
            "none" => None,
            other => {
                return Err(bad(format!(
                    "'engine' must be white, black or none, not '{other}'"
                )));
            }
        };
        let level = match number("level")? {
            Some(l) if l <= 20.0 && l.fract() == 0.0 => l as u64,
            Some(l) => return Err(bad(format!("'level' must be a whole number 0-20, not {l}"))),
            None => 20,
        };
        let clock = match number("minutes")? {
            Some(m) if m > 0.0 && m <= 600.0 => {
                let inc = number("increment")?.unwrap_or(0.0);
                if inc > 600.0 {
                    return Err(bad("'increment' must be at most 600 seconds"));
                }
                Some((
                    Duration::from_secs_f64(m * 60.0),
                    Duration::from_secs_f64(inc),
                ))
            }
            Some(0.0) => None,
            Some(m) => {
                return Err(bad(format!(
                    "'minutes' must be above 0 and at most 600, not {m}"
                )));
            }
            None => None,
        };
        let movetime = match number("movetime_ms")? {
            Some(ms) if (10.0..=600_000.0).contains(&ms) => Duration::from_millis(ms as u64),
            Some(ms) => return Err(bad(format!("'movetime_ms' must be 10-600000, not {ms}"))),
            None => Duration::from_millis(1000),
        };
        Ok(NewGame {
            variant,
            start,
            moves,
            engine_side,
            level,
            clock,
            movetime,
        })
    }
}

/// The clock of a game with one.
struct GameClock {
    remaining: [Duration; 2],
    increment: Duration,
    /// When the side to move's time started running.
    since: Instant,
}

/// What the engine is doing for the session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Task {
    Move,
    Analysis,
}

/// An engine's answer on its way to the session that asked (see [`Sessions::deliver`]).
pub(super) struct EngineAnswer {
    session: u64,
    generation: u64,
    best: Option<AnyMove>,
}

pub(super) struct Game {
    engine: Engine,
    variant: Variant,
    history: History,
    engine_side: Option<Color>,
    level: u64,
    movetime: Duration,
    clock: Option<GameClock>,
    /// An end not by the board: a time forfeit (winner, reason).
    ended: Option<(Option<Color>, String)>,
    /// Counts the engine's tasks, so an answer to an earlier one is not applied.
    generation: u64,
    task: Option<Task>,
    /// The analysis asked for: lines, and the ply of the game analysed.
    analysis: Option<(u64, usize)>,
    /// When the page last asked anything: idle sessions are dropped.
    touched: Instant,
    /// Since when no event stream follows the running analysis.
    unwatched_since: Option<Instant>,
}

pub(super) struct Session {
    pub(super) id: u64,
    game: Mutex<Game>,
    pub(super) events: broadcast::Sender<String>,
}

impl Session {
    pub(super) fn lock(&self) -> MutexGuard<'_, Game> {
        let mut game = self.game.lock().unwrap_or_else(|e| e.into_inner());
        game.touched = Instant::now();
        game
    }

    fn send(&self, event: Value) {
        // Nobody listening is not an error: the page may open its stream later.
        let _ = self.events.send(event.to_string());
    }
}

/// Every session of the server, and the channel engines answer through.
pub(super) struct Sessions {
    map: Mutex<HashMap<u64, Arc<Session>>>,
    next_id: AtomicU64,
    answers: Mutex<mpsc::Sender<EngineAnswer>>,
}

impl Sessions {
    /// The sessions, and the receiving end of the engines' answers for [`Sessions::run`].
    pub(super) fn new() -> (Arc<Sessions>, mpsc::Receiver<EngineAnswer>) {
        let (tx, rx) = mpsc::channel();
        let sessions = Arc::new(Sessions {
            map: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
            answers: Mutex::new(tx),
        });
        (sessions, rx)
    }

    fn map(&self) -> MutexGuard<'_, HashMap<u64, Arc<Session>>> {
        self.map.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn get(&self, id: u64) -> Result<Arc<Session>, ApiError> {
        self.map().get(&id).cloned().ok_or(ApiError::NoSuchGame(id))
    }

    pub(super) fn len(&self) -> usize {
        self.map().len()
    }

    /// Starts a game; the engine moves at once if it is its turn.
    pub(super) fn create(self: &Arc<Self>, spec: NewGame) -> Result<Arc<Session>, ApiError> {
        let mut engine =
            Engine::new(Player::Search).map_err(|e| ApiError::Internal(e.to_string()))?;
        engine
            .set_option("UCI_Variant", Some(spec.variant.name()))
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        engine.new_game();
        let mut history = History::new(spec.start.clone());
        for m in &spec.moves {
            history.play_text(m).map_err(|e| bad(e.to_string()))?;
        }
        let game = Game {
            engine,
            variant: spec.variant,
            history,
            engine_side: spec.engine_side,
            level: spec.level,
            movetime: spec.movetime,
            clock: spec.clock.map(|(base, increment)| GameClock {
                remaining: [base, base],
                increment,
                since: Instant::now(),
            }),
            ended: None,
            generation: 0,
            task: None,
            analysis: None,
            touched: Instant::now(),
            unwatched_since: None,
        };
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (events, _) = broadcast::channel(256);
        let session = Arc::new(Session {
            id,
            game: Mutex::new(game),
            events,
        });
        {
            let mut map = self.map();
            if map.len() >= MAX_SESSIONS {
                let oldest = map
                    .values()
                    .min_by_key(|s| s.lock_quietly().touched)
                    .map(|s| s.id);
                if let Some(old) = oldest.and_then(|id| map.remove(&id)) {
                    old.lock().halt();
                }
            }
            map.insert(id, session.clone());
        }
        self.after_change(&session, &mut session.lock())?;
        Ok(session)
    }

    /// The sender a search's answer goes back through.
    fn answer_sender(&self) -> mpsc::Sender<EngineAnswer> {
        self.answers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// After the game changed: tell the page, and start the engine's move or the
    /// analysis if one is due.
    pub(super) fn after_change(&self, session: &Session, game: &mut Game) -> Result<(), ApiError> {
        game.check_flag();
        let started = if game.result().is_some() {
            game.halt();
            Ok(())
        } else if game.engine_side == Some(game.history.position().side_to_move()) {
            self.start_move(session, game)
        } else if let Some((lines, _)) = game.analysis {
            game.analysis = Some((lines, game.history.moves().len()));
            self.start_analysis(session, game)
        } else {
            Ok(())
        };
        session.send(game.state(session.id));
        started
    }

    fn start_move(&self, session: &Session, game: &mut Game) -> Result<(), ApiError> {
        let plies = game.history.moves().len();
        let level = game.level;
        game.prepare(plies, 1, level)?;
        let mut request = GoRequest::default();
        match &game.clock {
            Some(c) => {
                let ms = |d: Duration| d.as_millis().min(u128::from(u64::MAX)) as u64;
                let side = game.history.position().side_to_move();
                let mut left = c.remaining;
                left[side.index()] = left[side.index()].saturating_sub(c.since.elapsed());
                request.wtime = Some(ms(left[0]));
                request.btime = Some(ms(left[1]));
                request.winc = Some(ms(c.increment));
                request.binc = Some(ms(c.increment));
            }
            None => request.movetime = Some(game.movetime.as_millis() as u64),
        }
        let white = game.history.position().side_to_move() == Color::White;
        self.go(session, game, Task::Move, &request, white)
    }

    fn start_analysis(&self, session: &Session, game: &mut Game) -> Result<(), ApiError> {
        let Some((lines, ply)) = game.analysis else {
            return Ok(());
        };
        game.prepare(ply, lines, 20)?;
        let request = GoRequest {
            infinite: true,
            ..GoRequest::default()
        };
        game.unwatched_since = None;
        let white = game.position_after(ply).side_to_move() == Color::White;
        self.go(session, game, Task::Analysis, &request, white)
    }

    fn go(
        &self,
        session: &Session,
        game: &mut Game,
        task: Task,
        request: &GoRequest,
        white_to_move: bool,
    ) -> Result<(), ApiError> {
        game.generation += 1;
        let generation = game.generation;
        let events = session.events.clone();
        let id = session.id;
        let on_info = Box::new(move |info: &Info<AnyMove>| {
            let _ = events.send(info_json(info, generation, white_to_move).to_string());
        });
        let answers = self.answer_sender();
        let done = Box::new(move |result: crate::search::SearchResult<AnyMove>| {
            let _ = answers.send(EngineAnswer {
                session: id,
                generation,
                best: result.best,
            });
        });
        // Before the search starts, so the page hears of it before its first report.
        session.send(json!({"type": "thinking", "task": format!("{task:?}").to_lowercase(), "generation": generation}));
        game.engine
            .go(request, on_info, done)
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        game.task = Some(task);
        Ok(())
    }

    /// A person's move (or the page's pass).
    pub(super) fn play(&self, session: &Session, text: &str) -> Result<(), ApiError> {
        let mut game = session.lock();
        game.check_flag();
        if let Some((_, reason)) = game.result() {
            return Err(ApiError::Conflict(format!("the game is over: {reason}")));
        }
        let side = game.history.position().side_to_move();
        if game.engine_side == Some(side) {
            return Err(ApiError::Conflict(format!(
                "it is the engine's turn ({side} to move)"
            )));
        }
        let m = game
            .history
            .position()
            .parse_move(text.trim())
            .map_err(|e| bad(format!("illegal move '{}': {e}", text.trim())))?;
        game.halt();
        game.make_move(m)?;
        self.after_change(session, &mut game)
    }

    /// Takes back the last move, and the engine's reply before it when the engine plays.
    pub(super) fn takeback(&self, session: &Session) -> Result<(), ApiError> {
        let mut game = session.lock();
        game.halt();
        let mut plies = game.history.moves().len();
        if plies == 0 {
            return Err(ApiError::Conflict("no move to take back".into()));
        }
        plies -= 1;
        // Back to a position where the person moves.
        while plies > 0 && game.engine_side == Some(game.side_after(plies)) {
            plies -= 1;
        }
        if game.engine_side == Some(game.side_after(plies)) {
            // The engine moved first from the start: nothing of the person's to take back.
            return Err(ApiError::Conflict("no move of yours to take back".into()));
        }
        game.truncate(plies);
        game.ended = None;
        if let Some(c) = &mut game.clock {
            c.since = Instant::now();
        }
        session.send(game.state(session.id));
        if let Some((lines, _)) = game.analysis {
            game.analysis = Some((lines, plies));
            self.start_analysis(session, &mut game)?;
        }
        Ok(())
    }

    /// Starts (lines > 0) or stops (0) analysing the position after `ply` moves.
    pub(super) fn analyse(
        &self,
        session: &Session,
        lines: u64,
        ply: Option<usize>,
    ) -> Result<(), ApiError> {
        let mut game = session.lock();
        if lines > MAX_MULTIPV {
            return Err(bad(format!("at most {MAX_MULTIPV} lines")));
        }
        let plies = game.history.moves().len();
        let ply = ply.unwrap_or(plies);
        if ply > plies {
            return Err(bad(format!("ply {ply}: the game has {plies}")));
        }
        if game.task == Some(Task::Move) {
            return Err(ApiError::Conflict(
                "the engine is thinking about its move".into(),
            ));
        }
        game.halt();
        if lines == 0 {
            game.analysis = None;
            session.send(game.state(session.id));
            return Ok(());
        }
        game.analysis = Some((lines, ply));
        self.start_analysis(session, &mut game)
    }

    /// Sets the level for the engine's next moves.
    pub(super) fn set_level(&self, session: &Session, level: u64) -> Result<(), ApiError> {
        if level > 20 {
            return Err(bad("'level' must be 0-20"));
        }
        let mut game = session.lock();
        game.level = level;
        session.send(game.state(session.id));
        Ok(())
    }

    /// An engine's answer: played if it answers the session's current move task.
    fn deliver(&self, answer: EngineAnswer) {
        let Ok(session) = self.get(answer.session) else {
            return;
        };
        let mut game = session.lock();
        if answer.generation != game.generation {
            return;
        }
        let task = game.task.take();
        match (task, answer.best) {
            (Some(Task::Move), Some(m)) if game.result().is_none() => {
                if let Err(e) = game
                    .make_move(m)
                    .and_then(|()| self.after_change(&session, &mut game))
                {
                    session.send(json!({"type": "error", "error": e.to_string()}));
                }
            }
            (Some(Task::Analysis), best) => {
                session
                    .send(json!({"type": "analysis-stopped", "best": best.map(|m| m.to_string())}));
            }
            _ => session.send(game.state(session.id)),
        }
    }

    /// Delivers the engines' answers, and once a quarter second looks after the clocks,
    /// analyses nobody watches any more, and idle sessions. Returns when every sender is
    /// gone.
    pub(super) fn run(self: Arc<Self>, answers: mpsc::Receiver<EngineAnswer>) {
        loop {
            match answers.recv_timeout(Duration::from_millis(250)) {
                Ok(answer) => self.deliver(answer),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => return,
            }
            let sessions: Vec<Arc<Session>> = self.map().values().cloned().collect();
            for session in sessions {
                let mut game = session.lock_quietly();
                let was_over = game.result().is_some();
                game.check_flag();
                if !was_over && game.result().is_some() {
                    game.halt();
                    session.send(game.state(session.id));
                }
                if game.task == Some(Task::Analysis) {
                    if session.events.receiver_count() > 0 {
                        game.unwatched_since = None;
                    } else if game
                        .unwatched_since
                        .get_or_insert_with(Instant::now)
                        .elapsed()
                        > UNWATCHED
                    {
                        // The tab was closed in the middle of an analysis.
                        game.halt();
                        game.analysis = None;
                    }
                }
                let idle = game.touched.elapsed() > IDLE;
                drop(game);
                if idle && let Some(s) = self.map().remove(&session.id) {
                    s.lock_quietly().halt();
                }
            }
        }
    }
}

impl Session {
    /// The lock, without counting as the page's attention.
    fn lock_quietly(&self) -> MutexGuard<'_, Game> {
        self.game.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Game {
    /// Stops whatever the engine does; its answer, if any, will be ignored.
    fn halt(&mut self) {
        self.generation += 1;
        self.engine.stop();
        self.task = None;
    }

    fn side_after(&self, plies: usize) -> Color {
        let first = self.history.start().side_to_move();
        // Every rule set alternates sides, passes included.
        if plies.is_multiple_of(2) {
            first
        } else {
            first.opponent()
        }
    }

    fn truncate(&mut self, plies: usize) {
        let mut history = History::new(self.history.start().clone());
        for &m in &self.history.moves()[..plies] {
            // The moves were legal when played, from the same start.
            let _ = history.try_play(m);
        }
        self.history = history;
    }

    fn position_after(&self, ply: usize) -> AnyPosition {
        let mut pos = self.history.start().clone();
        for &m in &self.history.moves()[..ply.min(self.history.moves().len())] {
            pos.play(m);
        }
        pos
    }

    /// Sets the engine's position (the game up to `ply`), lines and level.
    fn prepare(&mut self, ply: usize, lines: u64, level: u64) -> Result<(), ApiError> {
        let start = StartingPoint::Fen(self.history.start().to_fen());
        let moves: Vec<String> = self.history.moves()[..ply]
            .iter()
            .map(AnyMove::to_string)
            .collect();
        self.engine
            .set_position(&start, &moves)
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        for (name, value) in [("Skill Level", level), ("MultiPV", lines)] {
            self.engine
                .set_option(name, Some(&value.to_string()))
                .map_err(|e| ApiError::Internal(e.to_string()))?;
        }
        Ok(())
    }

    fn make_move(&mut self, m: AnyMove) -> Result<(), ApiError> {
        let side = self.history.position().side_to_move();
        if let Some(c) = &mut self.clock {
            let used = c.since.elapsed();
            let left = c.remaining[side.index()];
            if used > left {
                c.remaining[side.index()] = Duration::ZERO;
                self.ended = Some((Some(side.opponent()), format!("{side} lost on time")));
                return Err(ApiError::Conflict(format!("{side} lost on time")));
            }
            c.remaining[side.index()] = left - used + c.increment;
            c.since = Instant::now();
        }
        self.history.try_play(m).map_err(|e| bad(e.to_string()))
    }

    /// Ends the game if the side to move's time ran out.
    fn check_flag(&mut self) {
        if self.result().is_some() {
            return;
        }
        let side = self.history.position().side_to_move();
        if let Some(c) = &mut self.clock
            && c.since.elapsed() > c.remaining[side.index()]
        {
            c.remaining[side.index()] = Duration::ZERO;
            self.ended = Some((Some(side.opponent()), format!("{side} lost on time")));
        }
    }

    /// The winner (`None`: a draw) and the reason, once the game is over.
    fn result(&self) -> Option<(Option<Color>, String)> {
        self.history
            .outcome()
            .map(|o| (o.winner, o.to_string()))
            .or_else(|| self.ended.clone())
    }

    /// Everything the page draws, as JSON.
    pub(super) fn state(&self, id: u64) -> Value {
        let start = self.history.start();
        let mut pos = start.clone();
        let mut fens = vec![pos.to_fen()];
        for &m in self.history.moves() {
            pos.play(m);
            fens.push(pos.to_fen());
        }
        let current = self.history.position();
        let (files, ranks) = current.board_size();
        let result = self.result().map(|(winner, reason)| {
            json!({
                "winner": winner.map(|c| c.to_string()),
                "text": match winner { Some(Color::White) => "1-0", Some(Color::Black) => "0-1", None => "1/2-1/2" },
                "reason": reason,
            })
        });
        let clock = self.clock.as_ref().map(|c| {
            let side = current.side_to_move();
            let mut left = c.remaining.map(|d| d.as_millis() as u64);
            if result.is_none() {
                let used = c.since.elapsed().as_millis() as u64;
                left[side.index()] = left[side.index()].saturating_sub(used);
            }
            json!({"white": left[0], "black": left[1], "running": result.is_none().then(|| side.to_string())})
        });
        let legal: Vec<String> = if result.is_some() {
            Vec::new()
        } else {
            current
                .legal_moves()
                .iter()
                .map(AnyMove::to_string)
                .collect()
        };
        json!({
            "type": "state",
            "id": id,
            "variant": self.variant.name(),
            "files": files,
            "ranks": ranks,
            "start": fens[0],
            "fen": current.to_fen(),
            "fens": fens,
            "moves": self.history.moves().iter().map(AnyMove::to_string).collect::<Vec<_>>(),
            "side": current.side_to_move().to_string(),
            "legal": legal,
            "engine": self.engine_side.map(|c| c.to_string()),
            "level": self.level,
            "clock": clock,
            "movetime_ms": self.movetime.as_millis() as u64,
            "thinking": self.task.map(|t| format!("{t:?}").to_lowercase()),
            "analysis": self.analysis.map(|(lines, ply)| json!({"lines": lines, "ply": ply})),
            "result": result,
            "generation": self.generation,
        })
    }

    /// The game in PGN.
    pub(super) fn pgn(&self) -> String {
        let start = self.history.start();
        let (result, reason) = match self.result() {
            Some((winner, reason)) => (
                match winner {
                    Some(Color::White) => "1-0",
                    Some(Color::Black) => "0-1",
                    None => "1/2-1/2",
                },
                reason,
            ),
            None => ("*", String::new()),
        };
        let player = |c: Color| {
            if self.engine_side == Some(c) {
                format!("breakthrough (level {})", self.level)
            } else {
                "person".to_string()
            }
        };
        let mut tags = vec![
            ("Event", "breakthrough serve".to_string()),
            ("Date", crate::pgn::today()),
            ("White", player(Color::White)),
            ("Black", player(Color::Black)),
            ("Result", result.to_string()),
            ("Variant", self.variant.name().to_string()),
        ];
        if !start.is_startpos() {
            tags.push(("FEN", start.to_fen()));
        }
        crate::pgn::write_game(
            &tags,
            start.side_to_move(),
            &[],
            self.history.moves(),
            &reason,
            result,
        )
    }
}

/// A progress report as the page reads it; `white_cp` is the score from White's side,
/// for the evaluation bar.
fn info_json(info: &Info<AnyMove>, generation: u64, white_to_move: bool) -> Value {
    let sign = if white_to_move { 1 } else { -1 };
    let (score, white) = match info.score {
        Score::Centipawns(cp) => (json!({"cp": cp}), json!({"cp": sign * cp})),
        Score::Mate(n) => (json!({"mate": n}), json!({"mate": sign * n})),
    };
    json!({
        "type": "info",
        "generation": generation,
        "depth": info.depth,
        "multipv": info.multipv,
        "score": score,
        "white": white,
        "bound": info.bound.map(|b| format!("{b:?}").to_lowercase()),
        "nodes": info.nodes,
        "nps": info.nps,
        "time_ms": info.time.as_millis() as u64,
        "pv": info.pv.iter().map(AnyMove::to_string).collect::<Vec<_>>(),
    })
}
