//! The games kept on disk (SQLite), so a restarted server shows the same games and their
//! players go on: one row per game, written after every change while the game's lock is
//! held, in WAL mode (a process killed at any moment loses at most the change it was
//! making; the database file stays whole).

use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use rusqlite::{Connection, params};
use serde_json::{Value, json};

use super::Game;
use crate::registry::{AnyPosition, History, Variant};
use crate::rulesets::Color;

pub(crate) struct Store {
    connection: Mutex<Connection>,
}

/// Why the store cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("game store {path}: {error}")]
pub(crate) struct StoreError {
    path: String,
    error: String,
}

fn color_text(c: Option<Color>) -> Value {
    c.map_or(Value::Null, |c| json!(c.to_string()))
}

fn color_of(v: &Value) -> Option<Color> {
    match v.as_str()? {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

impl Store {
    /// Opens (creating) the store at `path`; `:memory:` keeps nothing past the process.
    pub(crate) fn open(path: &Path) -> Result<Store, StoreError> {
        let fail = |error: String| StoreError {
            path: path.display().to_string(),
            error,
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
            && path.as_os_str() != ":memory:"
        {
            std::fs::create_dir_all(dir).map_err(|e| fail(e.to_string()))?;
        }
        let connection = Connection::open(path).map_err(|e| fail(e.to_string()))?;
        connection
            .execute_batch(
                "PRAGMA journal_mode = WAL;
                 PRAGMA synchronous = NORMAL;
                 PRAGMA busy_timeout = 5000;
                 CREATE TABLE IF NOT EXISTS games (
                     id INTEGER PRIMARY KEY,
                     game TEXT NOT NULL,
                     open INTEGER NOT NULL DEFAULT 1
                 );",
            )
            .map_err(|e| fail(e.to_string()))?;
        Ok(Store {
            connection: Mutex::new(connection),
        })
    }

    fn connection(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.connection.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Writes game `id` as it stands.
    pub(crate) fn save(&self, id: u64, game: &Game) {
        let clock = game.clock.as_ref().map(|c| {
            let side = game.history.position().side_to_move();
            let mut left = c.remaining;
            if game.result().is_none() {
                left[side.index()] = left[side.index()].saturating_sub(c.since.elapsed());
            }
            json!({"white_ms": left[0].as_millis() as u64, "black_ms": left[1].as_millis() as u64,
                   "increment_ms": c.increment.as_millis() as u64})
        });
        let text = json!({
            "variant": game.history.start().variant().name(),
            "start": game.history.start().to_fen(),
            "moves": game.history.moves().iter().map(ToString::to_string).collect::<Vec<_>>(),
            "engine": color_text(game.engine_side),
            "level": game.level,
            "movetime_ms": game.movetime.as_millis() as u64,
            "clock": clock,
            "ended": game.ended.as_ref().map(|(w, reason)| json!({"winner": color_text(*w), "reason": reason})),
        })
        .to_string();
        let written = self.connection().execute(
            "INSERT INTO games (id, game, open) VALUES (?1, ?2, 1)
             ON CONFLICT(id) DO UPDATE SET game = excluded.game",
            params![id as i64, text],
        );
        if let Err(e) = written {
            log::warn!("cannot save game {id}: {e}");
        }
    }

    /// Marks game `id` closed (idle): it is not loaded again.
    pub(crate) fn close(&self, id: u64) {
        if let Err(e) = self.connection().execute(
            "UPDATE games SET open = 0 WHERE id = ?1",
            params![id as i64],
        ) {
            log::warn!("cannot close game {id}: {e}");
        }
    }

    /// The highest game number ever stored (0: none), so new games never reuse one.
    pub(crate) fn last_id(&self) -> u64 {
        self.connection()
            .query_row("SELECT COALESCE(MAX(id), 0) FROM games", [], |r| {
                r.get::<_, i64>(0)
            })
            .map_or(0, |n| n as u64)
    }

    /// The open games, as they were last saved; a row that no longer reads is skipped
    /// with a warning.
    pub(crate) fn load(&self) -> Vec<(u64, Game)> {
        let connection = self.connection();
        let Ok(mut query) =
            connection.prepare("SELECT id, game FROM games WHERE open = 1 ORDER BY id")
        else {
            return Vec::new();
        };
        let rows = query.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)));
        let Ok(rows) = rows else { return Vec::new() };
        rows.filter_map(Result::ok)
            .filter_map(|(id, text)| match game_from(&text) {
                Some(game) => Some((id as u64, game)),
                None => {
                    log::warn!("game {id} in the store does not read: left out");
                    None
                }
            })
            .collect()
    }
}

/// A game from its saved row: its clock runs from now.
fn game_from(text: &str) -> Option<Game> {
    let v: Value = serde_json::from_str(text).ok()?;
    let variant: Variant = v["variant"].as_str()?.parse().ok()?;
    let start = AnyPosition::from_fen(v["start"].as_str()?, variant).ok()?;
    let moves: Vec<&str> = v["moves"]
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let history = History::from_moves(start, &moves).ok()?;
    let ms = |x: &Value| Duration::from_millis(x.as_u64().unwrap_or(0));
    let clock = v["clock"].as_object().map(|c| {
        (
            [ms(&c["white_ms"]), ms(&c["black_ms"])],
            ms(&c["increment_ms"]),
        )
    });
    let mut game = Game::new(
        history,
        color_of(&v["engine"]),
        v["level"].as_u64()?,
        ms(&v["movetime_ms"]),
        clock,
    );
    game.ended = v["ended"].as_object().map(|e| {
        (
            color_of(&e["winner"]),
            e["reason"].as_str().unwrap_or("").to_string(),
        )
    });
    Some(game)
}
