//! `match --merge`: the shards of one match, each played anywhere, as one match's table,
//! test and records, without playing a game.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::record::{self, Finished};
use super::{MatchError, MatchSummary, PgnFile, Sprt, print_table, summary_json, write_json};
use crate::registry::Variant;
use crate::util::lines::outln;

/// The engines' names and the games of a match summary read from `path`.
pub(crate) fn read_summary(
    path: &str,
    summary: &Value,
) -> Result<(Vec<String>, Vec<Finished>), String> {
    let names = summary["engines"]
        .as_array()
        .ok_or(format!("{path}: no engines"))?
        .iter()
        .map(|e| e["name"].as_str().map(str::to_string))
        .collect::<Option<Vec<_>>>()
        .ok_or(format!("{path}: an engine without a name"))?;
    let games = summary["games"]
        .as_array()
        .ok_or(format!("{path}: no games"))?
        .iter()
        .enumerate()
        .map(|(i, g)| {
            Finished::from_json(g).ok_or(format!(
                "{path}: game {} is not a game record (written before records could be merged?)",
                i + 1
            ))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(g) = games
        .iter()
        .find(|g| g.players.iter().any(|&p| p >= names.len()))
    {
        return Err(format!(
            "{path}: game {} names no engine of the match",
            g.round
        ));
    }
    Ok((names, games))
}

fn sprt_of(identity: &Value) -> Option<Sprt> {
    let s = identity.get("sprt")?;
    Some(Sprt {
        elo0: s["elo0"].as_f64()?,
        elo1: s["elo1"].as_f64()?,
        alpha: s["alpha"].as_f64()?,
        beta: s["beta"].as_f64()?,
    })
}

/// Merges the `--json` summaries of a match's shards: prints the table and the test as
/// one run of every game would, and writes the merged PGN and JSON when asked. Refuses
/// files of different matches, a shard given twice, and says which shards are missing.
pub(crate) fn merge(
    files: &[String],
    pgn: Option<&str>,
    json: Option<&str>,
) -> Result<(), MatchError> {
    let fail = |text: String| MatchError::Merge(text);
    let mut first: Option<(String, Value, Value)> = None;
    let mut shards: BTreeMap<usize, String> = BTreeMap::new();
    let mut games: Vec<Finished> = Vec::new();
    let mut count = 0;
    let mut names = Vec::new();
    for path in files {
        let text =
            std::fs::read_to_string(path).map_err(|e| fail(format!("cannot read {path}: {e}")))?;
        let summary: Value = serde_json::from_str(&text)
            .map_err(|e| fail(format!("{path}: not a match summary ({e})")))?;
        let identity = summary.get("identity").cloned().ok_or_else(|| {
            fail(format!(
                "{path}: no match identity (not written by `match --json`, or by an older build)"
            ))
        })?;
        let shard = summary["shard"]
            .as_str()
            .and_then(|s| record::Shard::parse(s).ok())
            .ok_or_else(|| fail(format!("{path}: no shard")))?;
        match &first {
            None => {
                count = shard.count;
                first = Some((path.clone(), identity, summary["engines"].clone()));
            }
            Some((first_path, first_identity, _)) => {
                if let Some(d) = record::difference(first_identity, &identity) {
                    return Err(fail(format!(
                        "{path} and {first_path} are not shards of one match: they differ in {d}"
                    )));
                }
            }
        }
        if let Some(other) = shards.insert(shard.index, path.clone()) {
            return Err(fail(format!(
                "shard {} given twice: {other} and {path}",
                shard.text()
            )));
        }
        let (shard_names, shard_games) = read_summary(path, &summary).map_err(fail)?;
        if names.is_empty() {
            names = shard_names;
        }
        games.extend(shard_games);
    }
    let (_, identity, engines) =
        first.ok_or_else(|| fail("--merge needs at least one file".into()))?;
    games.sort_by_key(|g| g.round);
    if let Some(w) = games.windows(2).find(|w| w[0].round == w[1].round) {
        return Err(fail(format!("game {} is in two shards", w[0].round)));
    }
    let variant: Variant = identity["variant"]
        .as_str()
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| fail("the identity names no rule set".into()))?;
    let mut summary = MatchSummary::new(&names);
    for game in &games {
        summary.count(game);
    }
    summary.games = games;
    let stopped = sprt_of(&identity).and_then(|sprt| summary.judge_in_order(sprt));
    outln!(
        "Merged {} of {count} shards: {} games",
        shards.len(),
        summary.games.len()
    );
    if let Some(n) = stopped.filter(|&n| n < summary.games.len()) {
        outln!(
            "SPRT bound crossed after game {} in round order: a single run would have stopped there; the verdict stands",
            summary.games[n - 1].round
        );
    }
    print_table(&summary);
    if let Some(path) = pgn {
        let mut file = PgnFile::open(path)?;
        for game in &summary.games {
            file.write(&game.pgn)?;
        }
    }
    if let Some(path) = json {
        let about: Vec<Value> = engines.as_array().cloned().unwrap_or_default();
        let mut out = summary_json(&summary, &about, variant);
        out["identity"] = identity;
        out["shard"] = json!(record::Shard::WHOLE.text());
        out["merged_from"] = json!(shards.values().collect::<Vec<_>>());
        write_json(path, &out)?;
    }
    let missing: Vec<String> = (1..=count)
        .filter(|i| !shards.contains_key(i))
        .map(|i| format!("{i}/{count}"))
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(fail(format!(
            "incomplete: shard {} not given (the table above is of the shards given)",
            missing.join(", ")
        )))
    }
}
