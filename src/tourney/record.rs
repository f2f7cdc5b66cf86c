//! A match's records: what identifies a match (engines, limits, openings, seeds) and its
//! finished games, kept so that a killed run goes on where it stopped (`--resume`) and
//! the shards of one match, played anywhere, merge into its table (`match --merge`).
//!
//! While a match runs, each finished game is appended as a JSON line to a journal beside
//! its `--json` file (`FILE.journal`, whose first line is the match's identity); the
//! `--json` summary written at the end holds the same games and replaces the journal.

use std::fs::{File, OpenOptions};
use std::io::Write;

use serde_json::{Value, json};

use super::referee::{ForfeitKind, SearchStats};
use super::{MatchConfig, MatchError};
use crate::rulesets::Color;
pub(crate) use crate::util::json_difference as difference;
pub(crate) use crate::util::shard::Shard;

/// One finished game as the records keep it.
#[derive(Clone, Debug)]
pub(crate) struct Finished {
    /// The game's number in the whole match, from 1.
    pub(crate) round: usize,
    /// The opening pair it belongs to: the two games of an opening, colours swapped.
    pub(crate) pair: usize,
    /// The engines (indices) that played White and Black.
    pub(crate) players: [usize; 2],
    pub(crate) winner: Option<Color>,
    pub(crate) forfeit: Option<ForfeitKind>,
    pub(crate) search: [SearchStats; 2],
    /// The game in PGN.
    pub(crate) pgn: String,
    /// Everything else the JSON summary shows of it (names, reason, moves, times).
    pub(crate) shown: Value,
}

fn digest_hex(bytes: &[u8]) -> String {
    format!("{:016x}", crate::util::fnv1a(bytes))
}

/// A file's digest, or `None` when it cannot be read (a command found on the PATH).
fn file_digest(path: &str) -> Option<String> {
    std::fs::read(path).ok().map(|bytes| digest_hex(&bytes))
}

/// What makes two runs the same match: shards and resumed runs must agree on all of it.
/// Files the engines are given (the command itself, a network named by an option) are
/// named by their digests, so a rebuilt engine or another network is another match.
pub(crate) fn identity(cfg: &MatchConfig) -> Value {
    let engines: Vec<Value> = cfg
        .engines
        .iter()
        .map(|spec| {
            let files: serde_json::Map<String, Value> = spec
                .options
                .iter()
                .filter_map(|(name, value)| Some((name.clone(), json!(file_digest(value)?))))
                .collect();
            json!({
                "cmd": spec.cmd,
                "cmd_digest": file_digest(&spec.cmd),
                "args": spec.args,
                "name": spec.name,
                "options": spec.options_map(),
                "option_files": files,
                "limits": spec.limits.describe(),
            })
        })
        .collect();
    let openings: String = cfg
        .openings
        .iter()
        .map(|o| {
            let moves: Vec<String> = o.moves.iter().map(ToString::to_string).collect();
            format!("{} moves {}\n", o.start.to_fen(), moves.join(" "))
        })
        .collect();
    json!({
        "variant": cfg.variant.name(),
        "games": cfg.games,
        "openings": digest_hex(openings.as_bytes()),
        "engines": engines,
        "margin_ms": cfg.referee.margin.as_millis() as u64,
        "sprt": cfg.sprt.map(|s| json!({"elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta})),
        "shards": cfg.shard.count,
    })
}

fn stats_json(s: &SearchStats) -> Value {
    json!([
        s.moves,
        s.depth_sum,
        s.depth_count,
        s.nps_sum,
        s.nps_count,
        s.time_used.as_secs_f64()
    ])
}

fn stats_from(v: &Value) -> Option<SearchStats> {
    let a = v.as_array()?;
    Some(SearchStats {
        moves: a.first()?.as_u64()? as u32,
        depth_sum: a.get(1)?.as_u64()?,
        depth_count: a.get(2)?.as_u64()? as u32,
        nps_sum: a.get(3)?.as_f64()?,
        nps_count: a.get(4)?.as_u64()? as u32,
        time_used: std::time::Duration::try_from_secs_f64(a.get(5)?.as_f64()?).ok()?,
    })
}

impl Finished {
    /// The game's entry in the JSON summary and the journal.
    pub(crate) fn to_json(&self) -> Value {
        let mut v = self.shown.clone();
        v["round"] = json!(self.round);
        v["pair"] = json!(self.pair);
        v["players"] = json!(self.players);
        v["search"] = json!([stats_json(&self.search[0]), stats_json(&self.search[1])]);
        v["pgn"] = json!(self.pgn);
        v
    }

    /// Reads an entry back; `None` when it is not one.
    pub(crate) fn from_json(v: &Value) -> Option<Finished> {
        let winner = match v.get("result")?.as_str()? {
            "1-0" => Some(Color::White),
            "0-1" => Some(Color::Black),
            "1/2-1/2" => None,
            _ => return None,
        };
        let termination = v.get("termination")?.as_str()?;
        let forfeit = ForfeitKind::ALL
            .into_iter()
            .find(|k| k.name() == termination);
        if forfeit.is_none() && termination != "rules" {
            return None;
        }
        let players = v.get("players")?.as_array()?;
        let search = v.get("search")?.as_array()?;
        Some(Finished {
            round: v.get("round")?.as_u64()? as usize,
            pair: v.get("pair")?.as_u64()? as usize,
            players: [
                players.first()?.as_u64()? as usize,
                players.get(1)?.as_u64()? as usize,
            ],
            winner,
            forfeit,
            search: [stats_from(search.first()?)?, stats_from(search.get(1)?)?],
            pgn: v.get("pgn")?.as_str()?.to_string(),
            shown: v.clone(),
        })
    }
}

/// The journal path beside a `--json` file.
pub(crate) fn journal_path(json: &str) -> String {
    format!("{json}.journal")
}

/// What an earlier run of the same match left.
pub(crate) enum Earlier {
    /// Nothing: start from the first game.
    Nothing,
    /// The match (or shard) was finished: its summary.
    Finished(Value),
    /// Finished games from a run that was stopped.
    Games(Vec<Finished>),
}

fn mismatch(path: &str, what: String) -> MatchError {
    MatchError::Resume(format!(
        "{path} holds another match (it differs in {what}); remove it or choose another --json"
    ))
}

/// Reads what an earlier run with the same `--json` file left, refusing another match's.
pub(crate) fn earlier(json: &str, identity: &Value, shard: Shard) -> Result<Earlier, MatchError> {
    if let Ok(text) = std::fs::read_to_string(json) {
        let summary: Value = serde_json::from_str(&text)
            .map_err(|e| MatchError::Resume(format!("{json}: not a match summary ({e})")))?;
        let theirs = summary.get("identity").unwrap_or(&Value::Null);
        if let Some(d) = difference(theirs, identity) {
            return Err(mismatch(
                json,
                if d.is_empty() { "everything".into() } else { d },
            ));
        }
        if summary["shard"] != json!(shard.text()) {
            return Err(mismatch(json, "shard".into()));
        }
        return Ok(Earlier::Finished(summary));
    }
    let path = journal_path(json);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(Earlier::Nothing);
    };
    let mut lines = text.lines();
    let head: Value = lines
        .next()
        .and_then(|l| serde_json::from_str(l).ok())
        .unwrap_or(Value::Null);
    if head.get("identity").is_none() {
        return Err(MatchError::Resume(format!("{path}: not a match journal")));
    }
    if let Some(d) = difference(&head["identity"], identity) {
        return Err(mismatch(&path, d));
    }
    if head["shard"] != json!(shard.text()) {
        return Err(mismatch(&path, "shard".into()));
    }
    // A line cut short by a kill is the game being written: it is played again.
    let games = lines
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| Finished::from_json(&v))
        .collect();
    Ok(Earlier::Games(games))
}

/// The journal a running match appends its games to.
pub(crate) struct Journal {
    file: File,
    path: String,
}

impl Journal {
    /// Starts the journal afresh with `games` (those kept from an earlier run).
    pub(crate) fn create(
        json: &str,
        identity: &Value,
        shard: Shard,
        games: &[Finished],
    ) -> Result<Journal, MatchError> {
        let path = journal_path(json);
        let write = |error| MatchError::Write {
            what: "journal",
            path: path.clone(),
            error,
        };
        let mut text = json!({"identity": identity, "shard": shard.text()}).to_string() + "\n";
        for g in games {
            text += &(g.to_json().to_string() + "\n");
        }
        let temporary = format!("{path}.partial");
        std::fs::write(&temporary, text).map_err(write)?;
        std::fs::rename(&temporary, &path).map_err(write)?;
        let file = OpenOptions::new().append(true).open(&path).map_err(write)?;
        Ok(Journal { file, path })
    }

    pub(crate) fn append(&mut self, game: &Finished) -> Result<(), MatchError> {
        let line = game.to_json().to_string() + "\n";
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|error| MatchError::Write {
                what: "journal",
                path: self.path.clone(),
                error,
            })
    }

    /// The summary is written: the journal is no longer needed.
    pub(crate) fn remove(self) {
        let _ = std::fs::remove_file(&self.path);
    }
}
