//! One browser tab's game: the moves, the clocks, and an engine of the shared pool (the
//! same [`Engine`] facade the UCI mode drives) playing one side or analysing while it
//! searches. Everything here is plain threads and locks; the HTTP layer (`serve/mod.rs`)
//! only calls in and sends the events on. `request.rs` reads what the page asks,
//! `sessions.rs` keeps every tab's game and gives it engines from `pool.rs`, `view.rs`
//! shows a game as the page's JSON and as PGN.

mod pool;
mod request;
mod sessions;
mod store;
mod view;

use std::time::{Duration, Instant};

use crate::engine::{Engine, StartingPoint};
use crate::registry::{AnyMove, AnyPosition, History};
use crate::rulesets::Color;
use pool::Pool;

use request::bad;
pub(crate) use request::{AnalyseRequest, ApiError, LevelRequest, MoveRequest, NewGame, read};
pub(crate) use sessions::{Limits, Session, Sessions};
pub(crate) use store::Store;

/// The clock of a game with one.
struct GameClock {
    remaining: [Duration; 2],
    increment: Duration,
    /// When the side to move's time started running.
    since: Instant,
}

/// What the engine is doing for the session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EngineTask {
    Move,
    Analysis,
}

pub(crate) struct Game {
    history: History,
    engine_side: Option<Color>,
    level: u64,
    movetime: Duration,
    clock: Option<GameClock>,
    /// An end not by the board: a time forfeit (winner, reason).
    ended: Option<(Option<Color>, String)>,
    /// Counts the engine's tasks, so an answer to an earlier one is not applied.
    generation: u64,
    /// What an engine does for the game; a move may wait for a free engine.
    task: Option<EngineTask>,
    /// The pool's engine searching for the game, while one does.
    lease: Option<usize>,
    /// When the running analysis started (analyses end after a while: engines are shared).
    analysis_since: Option<Instant>,
    /// The analysis asked for: lines, and the ply of the game analysed.
    analysis: Option<(u64, usize)>,
    /// When the page last asked anything: idle sessions are dropped.
    touched: Instant,
    /// Since when no event stream follows the running analysis.
    unwatched_since: Option<Instant>,
}

impl Game {
    /// A game with nobody searching for it, its clock (if any) running from now.
    fn new(
        history: History,
        engine_side: Option<Color>,
        level: u64,
        movetime: Duration,
        clock: Option<([Duration; 2], Duration)>,
    ) -> Game {
        Game {
            history,
            engine_side,
            level,
            movetime,
            clock: clock.map(|(remaining, increment)| GameClock {
                remaining,
                increment,
                since: Instant::now(),
            }),
            ended: None,
            generation: 0,
            task: None,
            lease: None,
            analysis_since: None,
            analysis: None,
            touched: Instant::now(),
            unwatched_since: None,
        }
    }

    /// Stops whatever an engine does for the game and gives the engine back; its answer,
    /// if any, will be ignored.
    fn halt(&mut self, pool: &Pool) {
        self.generation += 1;
        if let Some(i) = self.lease.take() {
            pool.give_back(i);
        }
        self.task = None;
        self.analysis_since = None;
    }

    fn side_after(&self, plies: usize) -> Color {
        self.position_after(plies).side_to_move()
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

    /// Sets `engine` to this game: its rule set, position (the game up to `ply`), lines
    /// and level.
    fn prepare(
        &self,
        engine: &mut Engine,
        ply: usize,
        lines: u64,
        level: u64,
    ) -> Result<(), ApiError> {
        fn internal(e: impl std::fmt::Display) -> ApiError {
            ApiError::Internal(e.to_string())
        }
        let variant = self.history.start().variant();
        if engine.variant().rules != variant {
            engine
                .set_option("UCI_Variant", Some(variant.name()))
                .map_err(internal)?;
        }
        let start = StartingPoint::Fen(self.history.start().to_fen());
        let moves: Vec<String> = self.history.moves()[..ply]
            .iter()
            .map(AnyMove::to_string)
            .collect();
        engine.set_position(&start, &moves).map_err(internal)?;
        for (name, value) in [("Skill Level", level), ("MultiPV", lines)] {
            engine
                .set_option(name, Some(&value.to_string()))
                .map_err(internal)?;
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
}
