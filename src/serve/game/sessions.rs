//! Every tab's game, and the shared engines at work for them: moves, takebacks, analyses,
//! the engines' answers played when they come, games waiting for an engine served in turn,
//! clocks and forgotten tabs looked after.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::broadcast;

use super::pool::Pool;
use super::store::Store;
use super::view::info_json;
use super::{ApiError, EngineTask, Game, NewGame, bad};
use crate::engine::GoRequest;
use crate::registry::{AnyMove, History};
use crate::rulesets::Color;
use crate::search::Info;

/// An analysis nobody follows (every event stream closed) for this long is stopped.
const UNWATCHED: Duration = Duration::from_secs(3);
/// Analysis lines at most.
const MAX_MULTIPV: u64 = 8;
/// Closed games remembered, to tell their players what became of them.
const REMEMBERED: usize = 100_000;

/// What the server holds at most, and for how long.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// Engines shared by every game: searches at once.
    pub(crate) engines: usize,
    /// Games kept at once; a new one beyond is refused (503).
    pub(crate) games: usize,
    /// A game nobody has asked about for this long is closed (and its place reused).
    pub(crate) idle: Duration,
    /// An analysis runs at most this long before it is stopped.
    pub(crate) analysis: Duration,
}

/// What the sessions' thread hears: an engine's answer, or that an engine is free.
pub(crate) enum Message {
    Answer(EngineAnswer),
    Wake,
}

/// An engine's answer on its way to the session that asked (see [`Sessions::deliver`]).
pub(crate) struct EngineAnswer {
    session: u64,
    generation: u64,
    best: Option<AnyMove>,
}

pub(crate) struct Session {
    pub(crate) id: u64,
    game: Mutex<Game>,
    pub(crate) events: broadcast::Sender<String>,
}

impl Session {
    pub(crate) fn lock(&self) -> MutexGuard<'_, Game> {
        let mut game = self.game.lock().unwrap_or_else(|e| e.into_inner());
        game.touched = Instant::now();
        game
    }

    fn send(&self, event: Value) {
        // Nobody listening is not an error: the page may open its stream later.
        let _ = self.events.send(event.to_string());
    }
}

/// Every session of the server, the engines they share, and the channel engines answer
/// through.
pub(crate) struct Sessions {
    map: Mutex<HashMap<u64, Arc<Session>>>,
    next_id: AtomicU64,
    answers: mpsc::Sender<Message>,
    pool: Pool,
    /// Games whose engine move waits for a free engine, in turn.
    waiting: Mutex<VecDeque<u64>>,
    /// Games closed for idleness, and when: their players are told (410), not "no game".
    closed: Mutex<VecDeque<(u64, Instant)>>,
    pub(crate) limits: Limits,
    /// Where games are kept across restarts, if anywhere.
    store: Option<Store>,
}

impl Sessions {
    /// The sessions with their engines, and the receiving end of the engines' messages
    /// for [`Sessions::run`].
    /// The games kept in `store` are loaded (an engine's move that was due starts as soon
    /// as an engine is free).
    pub(crate) fn new(
        limits: Limits,
        store: Option<Store>,
    ) -> Result<(Arc<Sessions>, mpsc::Receiver<Message>), crate::engine::EngineError> {
        let (tx, rx) = mpsc::channel();
        let kept = store.as_ref().map(Store::load).unwrap_or_default();
        let last = store.as_ref().map_or(0, Store::last_id);
        let sessions = Arc::new(Sessions {
            map: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(last + 1),
            pool: Pool::new(limits.engines, tx.clone())?,
            answers: tx,
            waiting: Mutex::new(VecDeque::new()),
            closed: Mutex::new(VecDeque::new()),
            limits,
            store,
        });
        if !kept.is_empty() {
            log::warn!("{} games loaded from the store", kept.len());
        }
        for (id, mut game) in kept {
            let due = game.result().is_none()
                && game.engine_side == Some(game.history.position().side_to_move());
            if due {
                game.task = Some(EngineTask::Move);
                sessions
                    .waiting
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push_back(id);
            }
            let (events, _) = broadcast::channel(256);
            let session = Arc::new(Session {
                id,
                game: Mutex::new(game),
                events,
            });
            sessions.map().insert(id, session);
        }
        Ok((sessions, rx))
    }

    /// Keeps the game as it stands in the store.
    fn save(&self, session: &Session, game: &Game) {
        if let Some(store) = &self.store {
            store.save(session.id, game);
        }
    }

    fn map(&self) -> MutexGuard<'_, HashMap<u64, Arc<Session>>> {
        self.map.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn closed(&self) -> MutexGuard<'_, VecDeque<(u64, Instant)>> {
        self.closed.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn get(&self, id: u64) -> Result<Arc<Session>, ApiError> {
        if let Some(s) = self.map().get(&id) {
            return Ok(s.clone());
        }
        let idle = self.limits.idle.as_secs().div_ceil(60);
        match self.closed().iter().find(|(c, _)| *c == id) {
            Some(_) => Err(ApiError::Closed(format!(
                "game {id} was closed after {idle} minutes without a request: start a new one"
            ))),
            None => Err(ApiError::NoSuchGame(id)),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.map().len()
    }

    /// Engines: in the pool, and searching now.
    pub(crate) fn engines(&self) -> (usize, usize) {
        (self.pool.size(), self.pool.size() - self.pool.idle())
    }

    /// Closes `session` (idle): its engine, if any, is given back.
    fn close(&self, session: &Session) {
        session.lock_quietly().halt(&self.pool);
        if let Some(store) = &self.store {
            store.close(session.id);
        }
        let mut closed = self.closed();
        closed.push_back((session.id, Instant::now()));
        while closed.len() > REMEMBERED {
            closed.pop_front();
        }
    }

    /// Closes the games idle past the limit; returns how many.
    fn close_idle(&self) -> usize {
        let idle: Vec<Arc<Session>> = {
            let mut map = self.map();
            let ids: Vec<u64> = map
                .values()
                .filter(|s| s.lock_quietly().touched.elapsed() > self.limits.idle)
                .map(|s| s.id)
                .collect();
            ids.iter().filter_map(|id| map.remove(id)).collect()
        };
        for s in &idle {
            self.close(s);
        }
        idle.len()
    }

    /// Starts a game; the engine moves at once if it is its turn (or as soon as an engine
    /// is free). At capacity, games idle past the limit are closed first; if none is, the
    /// new game is refused: a game in play is never dropped to make room.
    pub(crate) fn create(self: &Arc<Self>, spec: NewGame) -> Result<Arc<Session>, ApiError> {
        let mut history = History::new(spec.start.clone());
        for m in &spec.moves {
            history.play_text(m).map_err(|e| bad(e.to_string()))?;
        }
        if self.len() >= self.limits.games && self.close_idle() == 0 {
            return Err(ApiError::Full(format!(
                "the server holds its most games ({}) and none has been idle {} minutes: try again later",
                self.limits.games,
                self.limits.idle.as_secs().div_ceil(60)
            )));
        }
        let game = Game::new(
            history,
            spec.engine_side,
            spec.level,
            spec.movetime,
            spec.clock
                .map(|(base, increment)| ([base, base], increment)),
        );
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (events, _) = broadcast::channel(256);
        let session = Arc::new(Session {
            id,
            game: Mutex::new(game),
            events,
        });
        self.map().insert(id, session.clone());
        self.after_change(&session, &mut session.lock())?;
        Ok(session)
    }

    /// After the game changed: tell the page, and start the engine's move or the
    /// analysis if one is due.
    fn after_change(&self, session: &Session, game: &mut Game) -> Result<(), ApiError> {
        game.check_flag();
        let started = if game.result().is_some() {
            game.halt(&self.pool);
            Ok(())
        } else if game.engine_side == Some(game.history.position().side_to_move()) {
            self.start_move(session, game)
        } else if let Some((lines, _)) = game.analysis {
            game.analysis = Some((lines, game.history.moves().len()));
            self.start_analysis(session, game).or_else(|e| {
                // No engine for it now: the analysis ends, and the page hears why.
                game.analysis = None;
                session
                    .send(json!({"type": "analysis-stopped", "best": null, "why": e.to_string()}));
                Ok(())
            })
        } else {
            Ok(())
        };
        self.save(session, game);
        session.send(game.state(session.id));
        started
    }

    /// The engine's move: now if an engine is free, else when one is (in turn).
    fn start_move(&self, session: &Session, game: &mut Game) -> Result<(), ApiError> {
        let Some(engine) = self.pool.take(0) else {
            game.task = Some(EngineTask::Move);
            game.lease = None;
            let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
            if !waiting.contains(&session.id) {
                waiting.push_back(session.id);
            }
            return Ok(());
        };
        game.lease = Some(engine);
        let plies = game.history.moves().len();
        let level = game.level;
        game.prepare(&mut self.pool.engine(engine), plies, 1, level)?;
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
        self.go(session, game, EngineTask::Move, &request, white)
    }

    /// An analysis, if an engine is free beyond the one kept for engine moves.
    fn start_analysis(&self, session: &Session, game: &mut Game) -> Result<(), ApiError> {
        let Some((lines, ply)) = game.analysis else {
            return Ok(());
        };
        if let Some(outcome) = game.position_after(ply).outcome() {
            // Nothing to search, and an engine held for it would answer only when stopped.
            game.analysis = None;
            session.send(json!({"type": "analysis-stopped", "best": null,
                "why": format!("nothing to analyse: the game is over there ({outcome})")}));
            return Ok(());
        }
        let keep = usize::from(self.pool.size() > 1);
        let Some(engine) = self.pool.take(keep) else {
            return Err(ApiError::Busy(format!(
                "every engine is busy ({} analysing or moving): try again in a moment",
                self.pool.size()
            )));
        };
        game.lease = Some(engine);
        game.analysis_since = Some(Instant::now());
        game.prepare(&mut self.pool.engine(engine), ply, lines, 20)?;
        let request = GoRequest {
            infinite: true,
            ..GoRequest::default()
        };
        game.unwatched_since = None;
        let white = game.position_after(ply).side_to_move() == Color::White;
        self.go(session, game, EngineTask::Analysis, &request, white)
    }

    fn go(
        &self,
        session: &Session,
        game: &mut Game,
        task: EngineTask,
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
        let answers = self.answers.clone();
        let done = Box::new(move |result: crate::search::SearchResult<AnyMove>| {
            let _ = answers.send(Message::Answer(EngineAnswer {
                session: id,
                generation,
                best: result.best,
            }));
        });
        // Before the search starts, so the page hears of it before its first report.
        session.send(json!({"type": "thinking", "task": format!("{task:?}").to_lowercase(), "generation": generation}));
        let engine = game.lease.expect("an engine is leased before a search");
        let started = self.pool.engine(engine).go(request, on_info, done);
        if let Err(e) = started {
            game.halt(&self.pool);
            return Err(ApiError::Internal(e.to_string()));
        }
        game.task = Some(task);
        Ok(())
    }

    /// A person's move (or the page's pass).
    pub(crate) fn play(&self, session: &Session, text: &str) -> Result<(), ApiError> {
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
        game.halt(&self.pool);
        game.make_move(m)?;
        self.after_change(session, &mut game)
    }

    /// Takes back the last move, and the engine's reply before it when the engine plays.
    pub(crate) fn takeback(&self, session: &Session) -> Result<(), ApiError> {
        let mut game = session.lock();
        game.halt(&self.pool);
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
        self.save(session, &game);
        session.send(game.state(session.id));
        if let Some((lines, _)) = game.analysis {
            game.analysis = Some((lines, plies));
            self.start_analysis(session, &mut game)?;
        }
        Ok(())
    }

    /// Starts (lines > 0) or stops (0) analysing the position after `ply` moves.
    pub(crate) fn analyse(
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
        if game.task == Some(EngineTask::Move) {
            return Err(ApiError::Conflict(
                "the engine is thinking about its move".into(),
            ));
        }
        game.halt(&self.pool);
        if lines == 0 {
            game.analysis = None;
            session.send(game.state(session.id));
            return Ok(());
        }
        game.analysis = Some((lines, ply));
        self.start_analysis(session, &mut game)
    }

    /// Sets the level for the engine's next moves.
    pub(crate) fn set_level(&self, session: &Session, level: u64) -> Result<(), ApiError> {
        if level > 20 {
            return Err(bad("'level' must be 0-20"));
        }
        let mut game = session.lock();
        game.level = level;
        self.save(session, &game);
        session.send(game.state(session.id));
        Ok(())
    }

    /// An engine's answer: played if it answers the session's current move task.
    fn deliver(&self, answer: EngineAnswer) {
        let Ok(session) = self.get(answer.session) else {
            return;
        };
        let mut game = session.lock_quietly();
        if answer.generation != game.generation {
            return;
        }
        let task = game.task.take();
        if let Some(i) = game.lease.take() {
            self.pool.give_back(i);
        }
        game.analysis_since = None;
        match (task, answer.best) {
            (Some(EngineTask::Move), Some(m)) if game.result().is_none() => {
                if let Err(e) = game
                    .make_move(m)
                    .and_then(|()| self.after_change(&session, &mut game))
                {
                    session.send(json!({"type": "error", "error": e.to_string()}));
                }
            }
            (Some(EngineTask::Analysis), best) => {
                session
                    .send(json!({"type": "analysis-stopped", "best": best.map(|m| m.to_string())}));
            }
            _ => session.send(game.state(session.id)),
        }
    }

    /// Gives free engines to the games waiting for their engine's move, in turn.
    fn serve_waiting(&self) {
        while self.pool.idle() > 0 {
            let next = self
                .waiting
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .pop_front();
            let Some(id) = next else { return };
            let Ok(session) = self.get(id) else { continue };
            let mut game = session.lock_quietly();
            let due = game.task == Some(EngineTask::Move)
                && game.lease.is_none()
                && game.result().is_none()
                && game.engine_side == Some(game.history.position().side_to_move());
            if due && let Err(e) = self.start_move(&session, &mut game) {
                session.send(json!({"type": "error", "error": e.to_string()}));
            }
        }
    }

    /// Delivers the engines' answers, gives free engines to waiting games, and once a
    /// quarter second looks after the clocks, analyses nobody watches any more (or that
    /// ran their time), and idle sessions. Returns when every sender is gone.
    pub(crate) fn run(self: Arc<Self>, messages: mpsc::Receiver<Message>) {
        let mut last_round = Instant::now();
        loop {
            match messages.recv_timeout(Duration::from_millis(250)) {
                Ok(Message::Answer(answer)) => self.deliver(answer),
                Ok(Message::Wake) => {}
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => return,
            }
            self.serve_waiting();
            if last_round.elapsed() < Duration::from_millis(250) {
                continue;
            }
            last_round = Instant::now();
            let sessions: Vec<Arc<Session>> = self.map().values().cloned().collect();
            for session in sessions {
                let mut game = session.lock_quietly();
                let was_over = game.result().is_some();
                game.check_flag();
                if !was_over && game.result().is_some() {
                    game.halt(&self.pool);
                    self.save(&session, &game);
                    session.send(game.state(session.id));
                }
                if game.task == Some(EngineTask::Analysis)
                    && game
                        .analysis_since
                        .is_some_and(|t| t.elapsed() > self.limits.analysis)
                {
                    // Engines are shared: an analysis has its time, then gives its engine back.
                    game.halt(&self.pool);
                    game.analysis = None;
                    session.send(json!({"type": "analysis-stopped", "best": null,
                        "why": format!("analyses stop after {} s", self.limits.analysis.as_secs())}));
                    session.send(game.state(session.id));
                }
                if game.task == Some(EngineTask::Analysis) {
                    if session.events.receiver_count() > 0 {
                        game.unwatched_since = None;
                    } else if game
                        .unwatched_since
                        .get_or_insert_with(Instant::now)
                        .elapsed()
                        > UNWATCHED
                    {
                        // The tab was closed in the middle of an analysis.
                        game.halt(&self.pool);
                        game.analysis = None;
                    }
                }
            }
            self.close_idle();
        }
    }
}

impl Session {
    /// The lock, without counting as the page's attention.
    fn lock_quietly(&self) -> MutexGuard<'_, Game> {
        self.game.lock().unwrap_or_else(|e| e.into_inner())
    }
}
