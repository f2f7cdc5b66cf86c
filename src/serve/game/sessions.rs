//! Every tab's game, and its engine at work: moves, takebacks, analyses, the engine's
//! answers played when they come, clocks and forgotten tabs looked after.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::broadcast;

use super::view::info_json;
use super::{ApiError, EngineTask, Game, GameClock, NewGame, bad};
use crate::engine::{Engine, GoRequest, Player};
use crate::registry::{AnyMove, History};
use crate::rulesets::Color;
use crate::search::Info;

/// Sessions kept at once; a new one beyond this replaces the least recently used.
const MAX_SESSIONS: usize = 32;
/// A session nobody has asked about for this long is dropped.
const IDLE: Duration = Duration::from_secs(3600);
/// An analysis nobody follows (every event stream closed) for this long is stopped.
const UNWATCHED: Duration = Duration::from_secs(3);
/// Analysis lines at most.
const MAX_MULTIPV: u64 = 8;

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

/// Every session of the server, and the channel engines answer through.
pub(crate) struct Sessions {
    map: Mutex<HashMap<u64, Arc<Session>>>,
    next_id: AtomicU64,
    answers: mpsc::Sender<EngineAnswer>,
}

impl Sessions {
    /// The sessions, and the receiving end of the engines' answers for [`Sessions::run`].
    pub(crate) fn new() -> (Arc<Sessions>, mpsc::Receiver<EngineAnswer>) {
        let (tx, rx) = mpsc::channel();
        let sessions = Arc::new(Sessions {
            map: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
            answers: tx,
        });
        (sessions, rx)
    }

    fn map(&self) -> MutexGuard<'_, HashMap<u64, Arc<Session>>> {
        self.map.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn get(&self, id: u64) -> Result<Arc<Session>, ApiError> {
        self.map().get(&id).cloned().ok_or(ApiError::NoSuchGame(id))
    }

    pub(crate) fn len(&self) -> usize {
        self.map().len()
    }

    /// Starts a game; the engine moves at once if it is its turn.
    pub(crate) fn create(self: &Arc<Self>, spec: NewGame) -> Result<Arc<Session>, ApiError> {
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

    /// After the game changed: tell the page, and start the engine's move or the
    /// analysis if one is due.
    fn after_change(&self, session: &Session, game: &mut Game) -> Result<(), ApiError> {
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
        self.go(session, game, EngineTask::Move, &request, white)
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
        game.halt();
        game.make_move(m)?;
        self.after_change(session, &mut game)
    }

    /// Takes back the last move, and the engine's reply before it when the engine plays.
    pub(crate) fn takeback(&self, session: &Session) -> Result<(), ApiError> {
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
    pub(crate) fn set_level(&self, session: &Session, level: u64) -> Result<(), ApiError> {
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

    /// Delivers the engines' answers, and once a quarter second looks after the clocks,
    /// analyses nobody watches any more, and idle sessions. Returns when every sender is
    /// gone.
    pub(crate) fn run(self: Arc<Self>, answers: mpsc::Receiver<EngineAnswer>) {
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
