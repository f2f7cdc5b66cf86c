//! `breakthrough match`: a tournament manager that referees Breakthrough and Doorbraak engines.
//!
//! The referee plays every game with its own rules and clocks ([`referee`]), engines run
//! as child processes behind timed channels ([`process`]) as their specs say
//! ([`spec`]), games start from openings ([`openings`]), and the results feed Elo and
//! SPRT statistics ([`stats`]), PGN/JSON output ([`crate::pgn`]) and a live page
//! ([`publish`]).

mod merge;
mod openings;
mod process;
mod publish;
mod record;
mod referee;
mod spec;
mod stats;

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::thread;

use serde_json::json;

use crate::pgn;
use crate::registry::Variant;
use crate::rulesets::Color;
use crate::util::progress;

pub(crate) use merge::merge;
pub(crate) use openings::{Opening, OpeningError};
pub(crate) use record::Shard;
pub(crate) use referee::RefereeConfig;
pub(crate) use spec::{EngineSpec, SpecError};
pub(crate) use stats::{Sprt, SprtError};

use crate::util::lines::outln;
use process::{EngineProcess, StartError};
use publish::{PublishError, Publisher};
use record::{Earlier, Finished, Journal};
use referee::{EngineSlot, ForfeitKind, GameRecord, SearchStats, Termination, Watch, play_game};
use stats::{Pentanomial, SprtVerdict, Wdl};

/// Options the match sends an engine besides the user's (its `UCI_Variant`).
type ExtraOptions = Vec<(String, String)>;

/// Why a match cannot be set up or its records written.
#[derive(Debug, thiserror::Error)]
pub(crate) enum MatchError {
    #[error("a match needs at least two --engine")]
    TooFewEngines,
    #[error("--sprt needs exactly two engines")]
    SprtNeedsTwo,
    #[error("--{0} must be a positive number of seconds")]
    BadSeconds(&'static str),
    #[error(transparent)]
    Spec(#[from] SpecError),
    #[error(transparent)]
    Sprt(#[from] SprtError),
    #[error(transparent)]
    Opening(#[from] OpeningError),
    #[error(transparent)]
    Start(#[from] StartError),
    #[error("'{cmd}' does not offer UCI_Variant {variant}; set it with option.UCI_Variant=NAME")]
    NoVariant { cmd: String, variant: Variant },
    #[error(transparent)]
    Publish(#[from] PublishError),
    #[error("{0}")]
    Resume(String),
    #[error("{0}")]
    Merge(String),
    #[error("--shard and --resume need --json FILE: the file is the run's record")]
    NoRecord,
    #[error("cannot write {what} file {path}: {error}")]
    Write {
        what: &'static str,
        path: String,
        error: std::io::Error,
    },
}

/// Everything a match needs, already validated.
pub(crate) struct MatchConfig {
    pub(crate) engines: Vec<EngineSpec>,
    pub(crate) variant: Variant,
    /// Games per pairing.
    pub(crate) games: usize,
    /// Openings, used in turn; each is played twice with colours swapped.
    pub(crate) openings: Vec<Opening>,
    pub(crate) concurrency: usize,
    pub(crate) referee: RefereeConfig,
    pub(crate) pgn: Option<String>,
    pub(crate) json: Option<String>,
    pub(crate) sprt: Option<Sprt>,
    /// `--publish`: the `breakthrough serve` address the games are shown live at.
    pub(crate) publish: Option<String>,
    /// The slice of the match this run plays.
    pub(crate) shard: Shard,
    /// Go on from the `--json` file's records (always so for a shard).
    pub(crate) resume: bool,
}

/// One scheduled game.
#[derive(Clone, Copy)]
struct Job {
    round: usize,
    /// The opening pair: the games of one opening, colours swapped.
    pair: usize,
    white: usize,
    black: usize,
    opening: usize,
}

/// Every game of the whole match, in round order.
fn schedule(cfg: &MatchConfig) -> Vec<Job> {
    let n = cfg.engines.len();
    let mut jobs = Vec::new();
    for g in 0..cfg.games {
        for a in 0..n {
            for b in a + 1..n {
                let (white, black) = if g % 2 == 0 { (a, b) } else { (b, a) };
                jobs.push(Job {
                    round: jobs.len() + 1,
                    pair: g / 2,
                    white,
                    black,
                    opening: (g / 2) % cfg.openings.len(),
                });
            }
        }
    }
    jobs
}

/// Results of one engine.
#[derive(Clone, Debug, Default)]
struct EngineTally {
    name: String,
    wdl: Wdl,
    forfeits: BTreeMap<ForfeitKind, u64>,
    search: SearchStats,
}

impl EngineTally {
    fn forfeit_text(&self) -> String {
        let parts: Vec<String> = self
            .forfeits
            .iter()
            .map(|(k, n)| format!("{} {n}", k.name()))
            .collect();
        if parts.is_empty() {
            "none".into()
        } else {
            parts.join(", ")
        }
    }

    fn avg_depth(&self) -> Option<f64> {
        (self.search.depth_count > 0)
            .then(|| self.search.depth_sum as f64 / self.search.depth_count as f64)
    }

    fn avg_nps(&self) -> Option<f64> {
        (self.search.nps_count > 0).then(|| self.search.nps_sum / self.search.nps_count as f64)
    }
}

/// What a finished match reports.
struct MatchSummary {
    tallies: Vec<EngineTally>,
    games: Vec<Finished>,
    /// The test, its LLR over the pairs so far and its verdict.
    sprt: Option<(Sprt, f64, SprtVerdict)>,
}

/// The option values the match adds for each engine: `UCI_Variant`, when the
/// engine offers it and the user did not set it.
fn variant_option(
    spec: &EngineSpec,
    engine: &EngineProcess,
    variant: Variant,
) -> Result<ExtraOptions, MatchError> {
    if spec.option("UCI_Variant").is_some() {
        return Ok(Vec::new());
    }
    match engine.declared_option("UCI_Variant") {
        None => Ok(Vec::new()),
        Some(vars) if vars.iter().any(|v| v.eq_ignore_ascii_case(variant.name())) => {
            Ok(vec![("UCI_Variant".into(), variant.name().into())])
        }
        Some(_) => Err(MatchError::NoVariant {
            cmd: spec.cmd.clone(),
            variant,
        }),
    }
}

fn fmt_elo(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else {
        format!("{:+.0}", e + 0.0)
    }
}

/// Runs the match and prints progress lines and the final table on stdout.
pub(crate) fn run(cfg: MatchConfig) -> Result<(), MatchError> {
    let identity = record::identity(&cfg);
    let earlier = match (&cfg.json, cfg.resume) {
        (Some(json), true) => record::earlier(json, &identity, cfg.shard)?,
        (None, true) => return Err(MatchError::NoRecord),
        _ => Earlier::Nothing,
    };
    let kept = match earlier {
        Earlier::Finished(summary) => return show_finished(&cfg, &summary),
        Earlier::Games(games) => games,
        Earlier::Nothing => Vec::new(),
    };
    let publisher = cfg
        .publish
        .as_deref()
        .map(Publisher::start)
        .transpose()?
        .map(Arc::new);
    let (names, extra) = start_engines(&cfg)?;
    let all = schedule(&cfg);
    let pairs = all.last().map_or(0, |j| j.pair + 1);
    let mine: Vec<Job> = all
        .into_iter()
        .filter(|j| cfg.shard.holds(j.pair, pairs))
        .collect();
    let total = mine.len();
    let mut summary = MatchSummary::new(&names);
    let played: std::collections::HashSet<usize> = kept.iter().map(|g| g.round).collect();
    for game in kept {
        summary.count(&game);
        summary.games.push(game);
    }
    summary.games.sort_by_key(|g| g.round);
    // A shard plays its whole slice: the test is the merge's, over every shard.
    let sequential = cfg.sprt.filter(|_| cfg.shard == Shard::WHOLE);
    let decided = sequential.is_some_and(|sprt| summary.judge_in_order(sprt).is_some());
    let left: Vec<Job> = if decided {
        Vec::new()
    } else {
        mine.into_iter()
            .filter(|j| !played.contains(&j.round))
            .collect()
    };
    if !summary.games.is_empty() {
        outln!(
            "Resuming: {} of {total} games kept from {}, {} to play",
            summary.games.len(),
            cfg.json.as_deref().unwrap_or_default(),
            left.len()
        );
    }
    let jobs = Arc::new(left);
    if let Some(p) = &publisher {
        p.send(json!({"type": "match", "engines": names, "variant": cfg.variant.name(), "games": total}));
    }
    let stop = Arc::new(AtomicBool::new(false));
    let watch = publisher.clone().map(|p| (p, Arc::new(names.clone())));
    let (workers, results) = spawn_workers(&cfg, &extra, jobs, stop.clone(), watch);
    let mut pgn_file = PgnFile::create(&cfg, &summary.games)?;
    let mut journal = match &cfg.json {
        Some(json) => Some(Journal::create(json, &identity, cfg.shard, &summary.games)?),
        None => None,
    };
    // On a terminal a bar shows the games and the score; the per-game lines go to stdout
    // when it is not one (a log), as they always do when stderr is not a terminal.
    let bar = progress::bar(total as u64, "{bar:30} {pos}/{len} games  {msg}");
    bar.inc(summary.games.len() as u64);
    let game_lines = bar.is_hidden() || !std::io::stdout().is_terminal();
    for (job, record) in results.iter() {
        let game = finished(
            &job,
            &record,
            &cfg,
            &names,
            pgn_file.as_ref().map(|f| f.date.as_str()),
        );
        summary.count(&game);
        let done = summary.games.len() + 1;
        if game_lines {
            let line = finished_line(&job, &record, &names, &summary, (done, total));
            bar.suspend(|| outln!("{line}"));
        }
        bar.inc(1);
        bar.set_message(summary.score_and_elo());
        if let Some(p) = &publisher {
            p.send(json!({"type": "end", "game": job.round, "result": record.result_text(), "reason": record.reason_text()}));
            p.send(json!({"type": "standing", "text": summary.standing(done), "elo": summary.score_and_elo(), "done": done, "games": total}));
        }
        if let Some(journal) = journal.as_mut() {
            journal.append(&game)?;
        }
        if let Some(file) = pgn_file.as_mut() {
            file.write(&game.pgn)?;
        }
        summary.games.push(game);
        if let Some(sprt) = sequential
            && summary.judge(sprt)
            && !stop.swap(true, Ordering::Relaxed)
        {
            let llr = summary.sprt.map_or(0.0, |(_, llr, _)| llr);
            bar.suspend(|| {
                outln!(
                    "SPRT bound crossed after {done} games (LLR {llr:.2}): finishing the games in progress"
                )
            });
        }
    }
    bar.finish_and_clear();
    for w in workers {
        let _ = w.join();
    }
    if let Some(p) = &publisher {
        p.finish();
    }
    summary.games.sort_by_key(|g| g.round);
    if let Some(sprt) = cfg.sprt {
        // The verdict a sequential run reaches: kept once crossed; a shard's is its own.
        if summary
            .sprt
            .is_none_or(|(_, _, v)| v == SprtVerdict::Continue)
        {
            summary.judge_in_order(sprt);
        }
    }
    print_table(&summary);
    match &cfg.json {
        Some(path) => {
            let about: Vec<_> = cfg
                .engines
                .iter()
                .map(|e| json!({"cmd": e.cmd, "options": e.options_map(), "limits": e.limits.describe()}))
                .collect();
            let mut json = summary_json(&summary, &about, cfg.variant);
            json["identity"] = identity;
            json["shard"] = json!(cfg.shard.text());
            write_json(path, &json)?;
            if let Some(journal) = journal {
                journal.remove();
            }
            Ok(())
        }
        None => Ok(()),
    }
}

/// A finished game as the records keep it.
fn finished(
    job: &Job,
    record: &GameRecord,
    cfg: &MatchConfig,
    names: &[String],
    date: Option<&str>,
) -> Finished {
    let date = date.map_or_else(pgn::today, str::to_string);
    Finished {
        round: job.round,
        pair: job.pair,
        players: record.players,
        winner: record.winner,
        forfeit: match &record.termination {
            Termination::Forfeit { kind, .. } => Some(*kind),
            Termination::Rules(_) => None,
        },
        search: record.stats,
        pgn: pgn_text(record, cfg, names, *job, &date),
        shown: json!({
            "white": names[record.players[0]],
            "black": names[record.players[1]],
            "result": record.result_text(),
            "termination": match &record.termination {
                Termination::Rules(_) => "rules".to_string(),
                Termination::Forfeit { kind, .. } => kind.name().to_string(),
            },
            "reason": record.reason_text(),
            "plies": record.opening.moves.len() + record.moves.len(),
            "moves": record.opening.moves.iter().chain(&record.moves).map(ToString::to_string).collect::<Vec<_>>(),
            "move_ms": record.think.iter().map(|t| (t.as_secs_f64() * 1e6).round() / 1e3).collect::<Vec<_>>(),
        }),
    }
}

/// `--resume` on a match whose summary is written: nothing to play; its table again.
fn show_finished(cfg: &MatchConfig, summary: &serde_json::Value) -> Result<(), MatchError> {
    let path = cfg.json.as_deref().unwrap_or_default();
    let (names, games) = merge::read_summary(path, summary).map_err(MatchError::Resume)?;
    let mut again = MatchSummary::new(&names);
    for game in games {
        again.count(&game);
        again.games.push(game);
    }
    if let Some(sprt) = cfg.sprt {
        again.judge_in_order(sprt);
    }
    outln!(
        "Nothing to play: {path} holds this match's finished games (shard {})",
        cfg.shard.text()
    );
    print_table(&again);
    Ok(())
}

/// The line that tells a game's end, with the standing after it.
fn finished_line(
    job: &Job,
    record: &GameRecord,
    names: &[String],
    summary: &MatchSummary,
    (done, total): (usize, usize),
) -> String {
    format!(
        "Finished game {} of {total} ({} vs {}): {} {{{}}}, {} plies; {}",
        job.round,
        names[job.white],
        names[job.black],
        record.result_text(),
        record.reason_text(),
        record.opening.moves.len() + record.moves.len(),
        summary.standing(done)
    )
}

/// `--pgn`: the file every game is written to as it ends.
struct PgnFile {
    file: File,
    path: String,
    /// The games' `Date` tag: the match's start.
    date: String,
}

impl PgnFile {
    /// Creates the `--pgn` file with the games kept from an earlier run.
    fn create(cfg: &MatchConfig, kept: &[Finished]) -> Result<Option<PgnFile>, MatchError> {
        let Some(path) = &cfg.pgn else {
            return Ok(None);
        };
        let mut file = PgnFile::open(path)?;
        for game in kept {
            file.write(&game.pgn)?;
        }
        Ok(Some(file))
    }

    /// Creates (or empties) the file at `path`.
    fn open(path: &str) -> Result<PgnFile, MatchError> {
        let file = File::create(path).map_err(|error| MatchError::Write {
            what: "PGN",
            path: path.to_string(),
            error,
        })?;
        Ok(PgnFile {
            file,
            path: path.to_string(),
            date: pgn::today(),
        })
    }

    fn write(&mut self, text: &str) -> Result<(), MatchError> {
        self.file
            .write_all(text.as_bytes())
            .map_err(|error| MatchError::Write {
                what: "PGN",
                path: self.path.clone(),
                error,
            })
    }
}

/// `--json`: the match's summary.
fn write_json(path: &str, json: &serde_json::Value) -> Result<(), MatchError> {
    let text = serde_json::to_string_pretty(json).unwrap_or_default() + "\n";
    std::fs::write(path, text).map_err(|error| MatchError::Write {
        what: "JSON",
        path: path.to_string(),
        error,
    })
}

/// Starts every engine once before the first game, so a wrong command or a missing
/// variant is a setup error, not a string of forfeits. Returns each engine's name
/// (made unique) and the options the match adds for it.
fn start_engines(cfg: &MatchConfig) -> Result<(Vec<String>, Vec<ExtraOptions>), MatchError> {
    let mut names = Vec::new();
    let mut extra = Vec::new();
    for spec in &cfg.engines {
        let engine = EngineProcess::start(spec, &[], cfg.referee.startup_timeout)?;
        extra.push(variant_option(spec, &engine, cfg.variant)?);
        let base = spec
            .name
            .clone()
            .or_else(|| engine.id_name.clone())
            .unwrap_or_else(|| spec.cmd.rsplit('/').next().unwrap_or(&spec.cmd).to_string());
        let mut name = base.clone();
        let mut k = 2;
        while names.contains(&name) {
            name = format!("{base} ({k})");
            k += 1;
        }
        names.push(name);
    }
    Ok((names, extra))
}

/// Starts `cfg.concurrency` threads, each with its own engine processes, that take the
/// next job until none is left or `stop` is set; finished games arrive on the channel.
fn spawn_workers(
    cfg: &MatchConfig,
    extra: &[ExtraOptions],
    jobs: Arc<Vec<Job>>,
    stop: Arc<AtomicBool>,
    watch: Option<(Arc<Publisher>, Arc<Vec<String>>)>,
) -> (Vec<thread::JoinHandle<()>>, Receiver<(Job, GameRecord)>) {
    let next = Arc::new(AtomicUsize::new(0));
    let openings = Arc::new(cfg.openings.clone());
    let (tx, rx) = channel::<(Job, GameRecord)>();
    let mut workers = Vec::new();
    for _ in 0..cfg.concurrency.min(jobs.len().max(1)) {
        let (jobs, next, stop, openings, tx, watch) = (
            jobs.clone(),
            next.clone(),
            stop.clone(),
            openings.clone(),
            tx.clone(),
            watch.clone(),
        );
        let mut slots: Vec<EngineSlot> = cfg
            .engines
            .iter()
            .zip(extra)
            .map(|(s, e)| EngineSlot::new(s.clone(), e.clone()))
            .collect();
        let referee = cfg.referee.clone();
        workers.push(thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&job) = jobs.get(i) else { break };
                let (w, b) = (job.white, job.black);
                // Two distinct slots of the same vector, borrowed at once.
                let (white, black) = if w < b {
                    let (lo, hi) = slots.split_at_mut(b);
                    (&mut lo[w], &mut hi[0])
                } else {
                    let (lo, hi) = slots.split_at_mut(w);
                    (&mut hi[0], &mut lo[b])
                };
                let publish = |event: Watch<'_>| {
                    if let Some((p, names)) = &watch {
                        p.send(watch_json(job.round, &names[w], &names[b], event));
                    }
                };
                let record = play_game(
                    [white, black],
                    [w, b],
                    &openings[job.opening],
                    &referee,
                    &publish,
                );
                if tx.send((job, record)).is_err() {
                    break;
                }
            }
        }));
    }
    (workers, rx)
}

/// A game's start or move as `--publish` sends it: the position as FEN, clocks in ms.
fn watch_json(game: usize, white: &str, black: &str, event: Watch<'_>) -> serde_json::Value {
    let ms = |c: [Option<std::time::Duration>; 2]| match c {
        [Some(w), Some(b)] => json!([w.as_millis() as u64, b.as_millis() as u64]),
        _ => serde_json::Value::Null,
    };
    match event {
        Watch::Start { position, clocks } => json!({
            "type": "start", "game": game, "white": white, "black": black,
            "variant": position.variant().name(), "fen": position.to_fen(), "clock": ms(clocks),
        }),
        Watch::Move {
            m,
            position,
            clocks,
        } => json!({
            "type": "move", "game": game, "move": m.to_string(), "fen": position.to_fen(), "clock": ms(clocks),
        }),
    }
}

impl MatchSummary {
    fn new(names: &[String]) -> MatchSummary {
        MatchSummary {
            tallies: names
                .iter()
                .map(|n| EngineTally {
                    name: n.clone(),
                    ..Default::default()
                })
                .collect(),
            games: Vec::new(),
            sprt: None,
        }
    }

    /// The SPRT after the games so far (finished pairs), true once a bound is crossed.
    /// The verdict then stands: games still in progress only move the LLR beside it.
    fn judge(&mut self, sprt: Sprt) -> bool {
        let llr = sprt.pair_llr(&pentanomial(&self.games));
        let verdict = match self.sprt {
            Some((_, _, v)) if v != SprtVerdict::Continue => v,
            _ => sprt.judge_llr(llr),
        };
        self.sprt = Some((sprt, llr, verdict));
        verdict != SprtVerdict::Continue
    }

    /// The SPRT as a run playing the games one at a time in round order reaches it: the
    /// first bound crossed stands, with the LLR over every game beside it. Returns the
    /// games it took to cross, if it crossed.
    fn judge_in_order(&mut self, sprt: Sprt) -> Option<usize> {
        let mut crossed = None;
        let mut pairs = Pentanomial::default();
        // The first game of each pair seen, awaiting its partner: (pair, half points).
        let mut open: BTreeMap<usize, usize> = BTreeMap::new();
        for (n, g) in self.games.iter().enumerate() {
            let half = first_engine_half_points(g);
            match open.remove(&g.pair) {
                Some(other) => pairs.add(other + half),
                None => {
                    open.insert(g.pair, half);
                    continue;
                }
            }
            let verdict = sprt.judge_llr(sprt.pair_llr(&pairs));
            if verdict != SprtVerdict::Continue {
                crossed = Some((n + 1, verdict));
                break;
            }
        }
        let llr = sprt.pair_llr(&pentanomial(&self.games));
        let verdict = crossed.map_or(SprtVerdict::Continue, |c| c.1);
        self.sprt = Some((sprt, llr, verdict));
        crossed.map(|c| c.0)
    }

    /// Adds a finished game to the tallies.
    fn count(&mut self, game: &Finished) {
        let tallies = &mut self.tallies;
        match game.winner {
            Some(winner) => {
                let (winner, loser) = (
                    game.players[winner.index()],
                    game.players[winner.opponent().index()],
                );
                tallies[winner].wdl.wins += 1;
                tallies[loser].wdl.losses += 1;
                if let Some(kind) = game.forfeit {
                    *tallies[loser].forfeits.entry(kind).or_insert(0) += 1;
                }
            }
            None => {
                for player in game.players {
                    tallies[player].wdl.draws += 1;
                }
            }
        }
        for color in [Color::White, Color::Black] {
            tallies[game.players[color.index()]]
                .search
                .add(&game.search[color.index()]);
        }
    }

    /// The progress bar's message: the first engine's score and Elo so far in a match of
    /// two; the leader's in a round robin.
    fn score_and_elo(&self) -> String {
        let Some(t) = self
            .tallies
            .iter()
            .max_by(|a, b| a.wdl.score().total_cmp(&b.wdl.score()))
        else {
            return String::new();
        };
        let t = if self.tallies.len() == 2 {
            &self.tallies[0]
        } else {
            t
        };
        let (elo, lo, hi) = t.wdl.elo();
        format!(
            "{}: {} - {} - {} ({:.1}%), Elo {} [{}, {}]",
            t.name,
            t.wdl.wins,
            t.wdl.losses,
            t.wdl.draws,
            100.0 * t.wdl.score(),
            fmt_elo(elo),
            fmt_elo(lo),
            fmt_elo(hi)
        )
    }

    /// The end of a progress line: the score so far in a match of two, else the count.
    fn standing(&self, done: usize) -> String {
        match &self.tallies[..] {
            [a, b] => format!(
                "score of {} vs {}: {} - {} - {} [{:.3}] {done}",
                a.name,
                b.name,
                a.wdl.wins,
                a.wdl.losses,
                a.wdl.draws,
                a.wdl.score()
            ),
            _ => format!("{done} games done"),
        }
    }
}

/// The first engine's game pairs among `games`: the two games of an opening pair,
/// both finished, scored together (a pair's games in a match of two engines).
fn pentanomial(games: &[Finished]) -> Pentanomial {
    let mut halves: BTreeMap<usize, (usize, usize)> = BTreeMap::new();
    for g in games {
        let entry = halves.entry(g.pair).or_default();
        entry.0 += 1;
        entry.1 += first_engine_half_points(g);
    }
    let mut pairs = Pentanomial::default();
    for (games, half_points) in halves.into_values() {
        if games == 2 {
            pairs.add(half_points);
        }
    }
    pairs
}

/// The first engine's score in `game`, in half points (0, 1 or 2).
fn first_engine_half_points(game: &Finished) -> usize {
    let first_plays = if game.players[0] == 0 {
        Color::White
    } else {
        Color::Black
    };
    match game.winner {
        Some(w) if w == first_plays => 2,
        Some(_) => 0,
        None => 1,
    }
}

/// One game in PGN, with the match's tags.
fn pgn_text(
    record: &GameRecord,
    cfg: &MatchConfig,
    names: &[String],
    job: Job,
    date: &str,
) -> String {
    let start = &record.opening.start;
    let mut tags = vec![
        ("Event", "breakthrough match".to_string()),
        ("Site", "?".to_string()),
        ("Date", date.to_string()),
        ("Round", job.round.to_string()),
        ("White", names[job.white].clone()),
        ("Black", names[job.black].clone()),
        ("Result", record.result_text().to_string()),
        ("Variant", cfg.variant.name().to_string()),
    ];
    if !start.is_startpos() {
        tags.push(("FEN", start.to_fen()));
        tags.push(("SetUp", "1".to_string()));
    }
    let (white_tc, black_tc) = (
        cfg.engines[job.white].limits.describe(),
        cfg.engines[job.black].limits.describe(),
    );
    if white_tc == black_tc {
        tags.push(("TimeControl", white_tc));
    }
    let plies = record.opening.moves.len() + record.moves.len();
    tags.push(("PlyCount", plies.to_string()));
    tags.push(("Termination", record.reason_text()));
    pgn::write_game(
        &tags,
        start.side_to_move(),
        &record.opening.moves,
        &record.moves,
        &record.reason_text(),
        record.result_text(),
    )
}

fn print_table(summary: &MatchSummary) {
    outln!();
    let header = format!(
        "{:<24} {:>6} {:>6} {:>6} {:>6} {:>7}  {:<24} {:>6} {:>9}  forfeits",
        "engine", "games", "wins", "losses", "draws", "score", "elo [95%]", "depth", "nps"
    );
    outln!("{header}");
    let n = summary.tallies.len();
    for t in &summary.tallies {
        let (elo, lo, hi) = t.wdl.elo();
        let elo_text = format!("{} [{}, {}]", fmt_elo(elo), fmt_elo(lo), fmt_elo(hi));
        outln!(
            "{:<24} {:>6} {:>6} {:>6} {:>6} {:>6.1}%  {:<24} {:>6} {:>9}  {}",
            t.name,
            t.wdl.games(),
            t.wdl.wins,
            t.wdl.losses,
            t.wdl.draws,
            100.0 * t.wdl.score(),
            elo_text,
            t.avg_depth().map_or("-".into(), |d| format!("{d:.1}")),
            t.avg_nps().map_or("-".into(), |v| format!("{v:.0}")),
            t.forfeit_text()
        );
    }
    if n > 2 {
        outln!("(Elo of each engine against the rest of the field)");
    }
    if let Some((sprt, llr, verdict)) = summary.sprt {
        let (lo, hi) = sprt.bounds();
        let verdict = match verdict {
            SprtVerdict::H1 => "H1 accepted",
            SprtVerdict::H0 => "H0 accepted",
            SprtVerdict::Continue => "no verdict yet",
        };
        let pairs = pentanomial(&summary.games);
        outln!(
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} ({lo:.2}, {hi:.2}) over {} pairs [{}] {verdict}",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            pairs.pairs(),
            pairs.text()
        );
    }
}

/// The JSON summary: the engines' tallies, the test, and every game in round order.
fn summary_json(
    summary: &MatchSummary,
    about: &[serde_json::Value],
    variant: Variant,
) -> serde_json::Value {
    let finite = |x: f64| if x.is_finite() { json!(x) } else { json!(null) };
    let engines: Vec<_> = summary
        .tallies
        .iter()
        .zip(about)
        .map(|(t, about)| {
            let (elo, lo, hi) = t.wdl.elo();
            json!({
                "name": t.name,
                "cmd": about["cmd"],
                "options": about["options"],
                "limits": about["limits"],
                "games": t.wdl.games(),
                "wins": t.wdl.wins,
                "losses": t.wdl.losses,
                "draws": t.wdl.draws,
                "score": t.wdl.score(),
                "elo": finite(elo),
                "elo_low": finite(lo),
                "elo_high": finite(hi),
                "forfeits": ForfeitKind::ALL.iter().map(|k| (k.name(), *t.forfeits.get(k).unwrap_or(&0))).collect::<BTreeMap<_, _>>(),
                "avg_depth": t.avg_depth(),
                "avg_nps": t.avg_nps(),
            })
        })
        .collect();
    let games: Vec<_> = summary.games.iter().map(Finished::to_json).collect();
    let pairs = pentanomial(&summary.games);
    json!({
        "variant": variant.name(),
        "games_played": summary.games.len(),
        "engines": engines,
        "sprt": summary.sprt.map(|(s, llr, v)| {
            let (lo, hi) = s.bounds();
            json!({"elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta, "llr": llr,
                   "lower_bound": lo, "upper_bound": hi, "pairs": pairs.counts,
                   "verdict": match v { SprtVerdict::H1 => "H1", SprtVerdict::H0 => "H0", SprtVerdict::Continue => "continue" }})
        }),
        "games": games,
    })
}
