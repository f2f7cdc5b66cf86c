//! What the page asks, read by serde from JSON and then checked; and why a request is
//! refused.

use std::time::Duration;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::registry::{AnyPosition, History, Variant};
use crate::rulesets::Color;

/// A request the server refuses, with the HTTP status it gets.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    #[error("no game {0} (it may have ended long ago: start a new one)")]
    NoSuchGame(u64),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    /// No engine free for an analysis (503: try again).
    #[error("{0}")]
    Busy(String),
    /// The server holds its most games (503: try again later).
    #[error("{0}")]
    Full(String),
    /// The game was closed for idleness (410).
    #[error("{0}")]
    Closed(String),
    /// The request needs the server's token (401).
    #[error("{0}")]
    Unauthorized(String),
    /// Too many event streams from one client (429).
    #[error("{0}")]
    TooMany(String),
    #[error("{0}")]
    Internal(String),
}

pub(super) fn bad(text: impl Into<String>) -> ApiError {
    ApiError::BadRequest(text.into())
}

/// A request body (a JSON object) read as `T`; a wrong field says which, on one line.
pub(crate) fn read<T: DeserializeOwned>(body: Value) -> Result<T, ApiError> {
    serde_path_to_error::deserialize(body).map_err(|e| {
        let path = e.path().to_string();
        match path.as_str() {
            "." => bad(e.inner().to_string()),
            _ => bad(format!("'{path}': {}", e.inner())),
        }
    })
}

/// A new game as the page sends it: `variant`, then `fen` or `pgn` (optional), `moves`,
/// `engine`, `level`, `minutes` + `increment` or `movetime_ms`. Checked by
/// [`NewGame::from_request`].
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewGameRequest {
    variant: Option<String>,
    fen: Option<String>,
    pgn: Option<String>,
    moves: Option<Vec<String>>,
    engine: Option<EngineSide>,
    level: Option<u64>,
    minutes: Option<f64>,
    increment: Option<f64>,
    movetime_ms: Option<f64>,
}

/// Who the engine plays in a new game.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
enum EngineSide {
    White,
    Black,
    /// Nobody: analysis, or two people.
    None,
}

/// `{"move": "a2a3"}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MoveRequest {
    #[serde(rename = "move")]
    pub(crate) text: String,
}

/// `{"lines": N, "ply": P}`, both optional: analyse the position after ply P (the
/// current one) with N lines (1; 0 stops).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AnalyseRequest {
    pub(crate) lines: Option<u64>,
    pub(crate) ply: Option<u64>,
}

/// `{"level": 0-20}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LevelRequest {
    pub(crate) level: u64,
}

/// How a new game is set up, checked.
#[derive(Debug)]
pub(crate) struct NewGame {
    /// The start (its rule set and board with it).
    pub(crate) start: AnyPosition,
    pub(crate) moves: Vec<String>,
    /// The side the engine plays (`None`: nobody, for analysis or two people).
    pub(crate) engine_side: Option<Color>,
    /// 0-20 (20: full strength).
    pub(crate) level: u64,
    /// The clock: start time and increment; `None`: no clock, the engine thinks
    /// `movetime` per move.
    pub(crate) clock: Option<(Duration, Duration)>,
    pub(crate) movetime: Duration,
}

impl NewGame {
    /// Checks a request: the rule set, the start and moves (a PGN's, if given), the
    /// level and the clock.
    pub(crate) fn from_request(request: NewGameRequest) -> Result<NewGame, ApiError> {
        let (_, start, moves) = request.game()?;
        // The moves are checked here, so a bad one is named before a game exists.
        History::from_moves(start.clone(), &moves).map_err(|e| bad(e.to_string()))?;
        Ok(NewGame {
            start,
            moves,
            engine_side: match request.engine.unwrap_or(EngineSide::Black) {
                EngineSide::White => Some(Color::White),
                EngineSide::Black => Some(Color::Black),
                EngineSide::None => None,
            },
            level: match request.level {
                Some(l) if l > 20 => return Err(bad(format!("'level' must be 0-20, not {l}"))),
                Some(l) => l,
                None => 20,
            },
            clock: request.clock()?,
            movetime: match request.movetime_ms {
                Some(ms) if (10.0..=600_000.0).contains(&ms) => Duration::from_millis(ms as u64),
                Some(ms) => return Err(bad(format!("'movetime_ms' must be 10-600000, not {ms}"))),
                None => Duration::from_millis(1000),
            },
        })
    }
}

impl NewGameRequest {
    /// The rule set, the start and the moves: from the PGN where there is one, else from
    /// `variant`, `fen` and `moves`.
    fn game(&self) -> Result<(Variant, AnyPosition, Vec<String>), ApiError> {
        let mut variant: Variant = match &self.variant {
            Some(name) => name.parse().map_err(|e| bad(format!("{e}")))?,
            None => Variant::default(),
        };
        let mut moves = self.moves.clone().unwrap_or_default();
        let mut fen = self
            .fen
            .as_deref()
            .map(str::trim)
            .filter(|f| !f.is_empty())
            .map(str::to_string);
        if let Some(pgn) = self.pgn.as_deref().filter(|p| !p.trim().is_empty()) {
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
        Ok((variant, start, moves))
    }

    /// The clock of `minutes` and `increment` (seconds); none for 0 or no minutes.
    fn clock(&self) -> Result<Option<(Duration, Duration)>, ApiError> {
        let minutes = match self.minutes {
            None => return Ok(None),
            Some(0.0) => return Ok(None),
            Some(m) if m > 0.0 && m <= 600.0 => m,
            Some(m) => {
                return Err(bad(format!(
                    "'minutes' must be above 0 and at most 600, not {m}"
                )));
            }
        };
        let increment = match self.increment {
            None => 0.0,
            Some(i) if (0.0..=600.0).contains(&i) => i,
            Some(i) => {
                return Err(bad(format!("'increment' must be 0-600 seconds, not {i}")));
            }
        };
        Ok(Some((
            Duration::from_secs_f64(minutes * 60.0),
            Duration::from_secs_f64(increment),
        )))
    }
}
