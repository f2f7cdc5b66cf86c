//! Live matches: `breakthrough match --publish URL` posts each game's start, moves and
//! end, and the standing, to `POST /api/live`; pages follow them on `/api/live/events`.
//! The hub keeps what a page opened late needs: the match, the games being played and
//! the last few finished ones.

use std::collections::BTreeMap;
use std::sync::Mutex;

use serde_json::{Value, json};
use tokio::sync::broadcast;

use super::game::ApiError;

/// Finished games kept for pages that come late.
const FINISHED_KEPT: usize = 8;

#[derive(Default)]
struct Snapshot {
    /// The `match` event: engines, variant, games.
    info: Value,
    games: BTreeMap<u64, Value>,
    standing: Value,
}

pub(super) struct Live {
    snapshot: Mutex<Snapshot>,
    pub(super) events: broadcast::Sender<String>,
}

impl Live {
    pub(super) fn new() -> Live {
        Live {
            snapshot: Mutex::new(Snapshot::default()),
            events: broadcast::channel(1024).0,
        }
    }

    /// Everything known now, as one `snapshot` event.
    pub(super) fn snapshot(&self) -> Value {
        let s = self.snapshot.lock().unwrap_or_else(|e| e.into_inner());
        json!({
            "type": "snapshot",
            "match": s.info,
            "games": s.games.values().collect::<Vec<_>>(),
            "standing": s.standing,
        })
    }

    /// Takes one event of the match runner, checks its shape and passes it on.
    pub(super) fn publish(&self, event: Value) -> Result<(), ApiError> {
        let bad = |what: &str| ApiError::BadRequest(format!("live event: {what}"));
        let kind = event
            .get("type")
            .and_then(Value::as_str)
            .ok_or_else(|| bad("no 'type'"))?;
        let game = || {
            event
                .get("game")
                .and_then(Value::as_u64)
                .ok_or_else(|| bad("no 'game' number"))
        };
        let mut s = self.snapshot.lock().unwrap_or_else(|e| e.into_inner());
        match kind {
            "match" => {
                s.info = event.clone();
                s.games.clear();
                s.standing = Value::Null;
            }
            "start" => {
                for key in ["white", "black", "fen"] {
                    if !event.get(key).is_some_and(Value::is_string) {
                        return Err(bad(&format!("'start' needs '{key}'")));
                    }
                }
                let mut g = event.clone();
                g["moves"] = json!([]);
                s.games.insert(game()?, g);
                // Keep the games in play and the last finished ones.
                let finished: Vec<u64> = s
                    .games
                    .iter()
                    .filter(|(_, g)| !g["result"].is_null())
                    .map(|(&k, _)| k)
                    .collect();
                for k in finished
                    .iter()
                    .take(finished.len().saturating_sub(FINISHED_KEPT))
                {
                    s.games.remove(k);
                }
            }
            "move" => {
                let n = game()?;
                let (Some(m), Some(fen)) = (
                    event.get("move").and_then(Value::as_str),
                    event.get("fen").and_then(Value::as_str),
                ) else {
                    return Err(bad("'move' needs 'move' and 'fen'"));
                };
                let g = s
                    .games
                    .get_mut(&n)
                    .ok_or_else(|| bad(&format!("game {n} was not started")))?;
                if let Some(moves) = g["moves"].as_array_mut() {
                    moves.push(json!(m));
                }
                g["fen"] = json!(fen);
                g["clock"] = event.get("clock").cloned().unwrap_or(Value::Null);
            }
            "end" => {
                let n = game()?;
                let g = s
                    .games
                    .get_mut(&n)
                    .ok_or_else(|| bad(&format!("game {n} was not started")))?;
                g["result"] = event.get("result").cloned().unwrap_or(Value::Null);
                g["reason"] = event.get("reason").cloned().unwrap_or(Value::Null);
            }
            "standing" => s.standing = event.clone(),
            other => return Err(bad(&format!("unknown type '{other}'"))),
        }
        drop(s);
        let _ = self.events.send(event.to_string());
        Ok(())
    }
}
