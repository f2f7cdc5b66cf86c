//! What the page asks for a new game, read and checked; and why a request is refused.

use std::time::Duration;

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
    #[error("{0}")]
    Internal(String),
}

pub(super) fn bad(text: impl Into<String>) -> ApiError {
    ApiError::BadRequest(text.into())
}

/// How a new game is set up, as the page sends it.
#[derive(Debug)]
pub(crate) struct NewGame {
    pub(crate) variant: Variant,
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
    /// Reads the page's JSON: `variant`, then `fen` or `pgn` (optional), `moves`, `engine`
    /// (`"white"`, `"black"`, `"none"`), `level`, `minutes` + `increment` or `movetime_ms`.
    pub(crate) fn from_json(body: &Value) -> Result<NewGame, ApiError> {
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
