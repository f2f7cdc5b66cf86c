//! `breakthrough analyze`: positions in, one JSON object per position out, in input
//! order, for shell pipelines. Several positions are searched at once (`--jobs`), each
//! with its own table and threads; a line that cannot be read gives an object with an
//! `error` and the run goes on. The schema is in engine.md.

use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::registry::{
    AnyMove, AnyPosition, Evaluation, FenError, History, Mismatch, PositionError, SearchSetup,
    Variant,
};
use crate::search::tt::{TableError, TranspositionTable};
use crate::search::{Budget, Control, Info, NoMate, Score, SearchLimits};
use crate::util::progress;

/// What to search and how.
#[derive(Clone, Debug)]
pub(crate) struct AnalyzeSettings {
    pub(crate) variant: Variant,
    pub(crate) depth: Option<u32>,
    pub(crate) nodes: Option<u64>,
    pub(crate) movetime: Option<Duration>,
    pub(crate) mate: Option<u32>,
    pub(crate) multipv: usize,
    pub(crate) hash_mb: usize,
    pub(crate) threads: usize,
    pub(crate) jobs: usize,
    pub(crate) evaluation: Evaluation,
}

/// Depth searched when no limit is given.
pub(crate) const DEFAULT_DEPTH: u32 = 8;

/// Why a run could not start or finish (a bad line is no such reason: it is reported in
/// the output and the run goes on).
#[derive(Debug, thiserror::Error)]
pub(crate) enum AnalyzeError {
    #[error("cannot read {path}: {error}")]
    Read { path: String, error: std::io::Error },
    #[error(transparent)]
    Table(#[from] TableError),
    #[error("cannot start {threads} search threads: {error}")]
    Threads {
        threads: usize,
        error: rayon::ThreadPoolBuildError,
    },
    #[error("cannot write the output: {0}")]
    Write(std::io::Error),
}

/// Why one line could not be analysed.
#[derive(Debug, thiserror::Error)]
enum LineError {
    #[error(transparent)]
    Position(#[from] PositionError),
    #[error("bad FEN: {0}")]
    Fen(#[from] FenError),
    #[error(transparent)]
    Network(#[from] Mismatch),
}

/// One input line, read: the position's start, the moves after it, the EPD operations.
struct Request {
    input: String,
    start: Option<String>,
    moves: Vec<String>,
    operations: Vec<String>,
}

impl Request {
    /// `FEN`, `FEN moves m1 m2 ...`, `startpos [moves ...]`, any of them followed by
    /// `;`-separated EPD operations.
    fn read(input: &str) -> Request {
        let mut parts = input.split(';');
        let head = parts.next().unwrap_or("").trim();
        let operations = parts
            .map(str::trim)
            .filter(|op| !op.is_empty())
            .map(str::to_string)
            .collect();
        let (position, moves) = match head.split_once(" moves") {
            Some((position, moves)) if moves.is_empty() || moves.starts_with(' ') => (
                position.trim(),
                moves.split_whitespace().map(str::to_string).collect(),
            ),
            _ => (head, Vec::new()),
        };
        Request {
            input: input.to_string(),
            start: (position != "startpos").then(|| position.to_string()),
            moves,
            operations,
        }
    }

    fn history(&self, variant: Variant) -> Result<History, LineError> {
        let start = match &self.start {
            None => AnyPosition::startpos(variant),
            Some(fen) => AnyPosition::from_fen(fen, variant)?,
        };
        Ok(History::from_moves(start, &self.moves)?)
    }
}

fn score_json(score: Score) -> Value {
    match score {
        Score::Centipawns(cp) => json!({ "cp": cp }),
        Score::Mate(n) => json!({ "mate": n }),
    }
}

fn moves_json(moves: &[AnyMove]) -> Value {
    Value::from(moves.iter().map(AnyMove::to_string).collect::<Vec<_>>())
}

/// A searcher of one worker: its table and its thread pool.
struct Analyst {
    tt: TranspositionTable,
    pool: rayon::ThreadPool,
}

impl Analyst {
    fn new(settings: &AnalyzeSettings) -> Result<Analyst, AnalyzeError> {
        let threads = settings.threads;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|error| AnalyzeError::Threads { threads, error })?;
        Ok(Analyst {
            tt: TranspositionTable::new(settings.hash_mb)?,
            pool,
        })
    }

    /// The JSON object for one line.
    fn analyze(&self, settings: &AnalyzeSettings, task: &Request) -> Value {
        let mut object = match self.search(settings, task) {
            Ok(object) => object,
            Err(e) => json!({ "error": e.to_string() }),
        };
        object["input"] = Value::from(task.input.clone());
        if !task.operations.is_empty() {
            object["epd"] = Value::from(task.operations.clone());
        }
        object
    }

    fn search(&self, settings: &AnalyzeSettings, task: &Request) -> Result<Value, LineError> {
        let game = task.history(settings.variant)?;
        let mut root = game.position().clone();
        root.use_evaluation(settings.evaluation)?;
        let mut object = json!({
            "fen": root.to_fen(),
            "variant": settings.variant.name(),
        });
        if let Some(end) = game.outcome() {
            object["bestmove"] = Value::Null;
            object["result"] = Value::from(end.result_text());
            object["reason"] = Value::from(end.to_string());
            // As UCI says it: a decided game is `mate 0`, a draw `cp 0`.
            let score = match end.winner {
                None => Score::Centipawns(0),
                Some(_) => Score::Mate(0),
            };
            object["score"] = score_json(score);
            object["depth"] = Value::from(0);
            object["pv"] = Value::from(Vec::<String>::new());
            object["nodes"] = Value::from(0);
            object["time_ms"] = Value::from(0);
            return Ok(object);
        }
        let unlimited =
            settings.nodes.is_none() && settings.movetime.is_none() && settings.mate.is_none();
        let limits = SearchLimits {
            depth: settings.depth.or(unlimited.then_some(DEFAULT_DEPTH)),
            nodes: settings.nodes,
            mate: settings.mate,
            searchmoves: Vec::new(),
            multipv: settings.multipv,
        };
        self.tt.clear();
        let control = Control::new(Budget {
            hard: settings.movetime,
            nodes: settings.nodes,
            ..Budget::default()
        });
        let setup = SearchSetup {
            control: &control,
            tt: &self.tt,
            threads: settings.threads,
            earlier: game.earlier_hashes(),
            memory: None,
        };
        let lines: Mutex<BTreeMap<usize, Info<AnyMove>>> = Mutex::default();
        let report = |info: &Info<AnyMove>| {
            if info.bound.is_none() {
                let mut lines = lines.lock().unwrap_or_else(|e| e.into_inner());
                lines.insert(info.multipv, info.clone());
            }
        };
        let started = Instant::now();
        let result = self.pool.install(|| root.search(&limits, &setup, &report));
        let lines = lines.into_inner().unwrap_or_else(|e| e.into_inner());
        let best_line = lines.get(&1);
        object["bestmove"] = result
            .best
            .map_or(Value::Null, |m| Value::from(m.to_string()));
        object["depth"] = Value::from(result.depth);
        object["score"] = score_json(Score::from_internal(result.score));
        object["pv"] = best_line.map_or_else(
            || moves_json(&result.best.into_iter().collect::<Vec<_>>()),
            |l| moves_json(&l.pv),
        );
        object["nodes"] = Value::from(result.nodes);
        object["time_ms"] = Value::from(started.elapsed().as_millis() as u64);
        if let Some(l) = best_line {
            object["seldepth"] = Value::from(l.seldepth);
        }
        if settings.multipv > 1 {
            let all: Vec<Value> = lines
                .values()
                .map(|l| json!({ "multipv": l.multipv, "score": score_json(l.score), "pv": moves_json(&l.pv) }))
                .collect();
            object["lines"] = Value::from(all);
        }
        if let Some(moves) = settings.mate {
            object["mate_search"] = match result.no_mate {
                None => json!({ "result": "win", "moves": result.depth.div_ceil(2) }),
                Some(NoMate::Proven { .. }) => json!({ "result": "none", "moves": moves }),
                Some(NoMate::Stopped { moves }) => json!({ "result": "stopped", "moves": moves }),
            };
        }
        Ok(object)
    }
}

/// Reads every line of `files` (stdin when there are none, or for `-`), blank lines and
/// `#` comments left out.
fn read_input(files: &[String]) -> Result<Vec<String>, AnalyzeError> {
    let mut lines = Vec::new();
    let stdin = ["-".to_string()];
    let files = if files.is_empty() { &stdin[..] } else { files };
    for path in files {
        let read = |error| AnalyzeError::Read {
            path: path.clone(),
            error,
        };
        let text: Box<dyn BufRead> = if path == "-" {
            Box::new(std::io::stdin().lock())
        } else {
            Box::new(std::io::BufReader::new(
                std::fs::File::open(path).map_err(read)?,
            ))
        };
        for line in text.split(b'\n') {
            let line = String::from_utf8_lossy(&line.map_err(read)?)
                .trim()
                .to_string();
            if !line.is_empty() && !line.starts_with('#') {
                lines.push(line);
            }
        }
    }
    Ok(lines)
}

/// Analyses every line of `files` and writes one JSON object per line to `out`, in
/// input order. Returns how many lines could not be analysed.
pub(crate) fn run(
    settings: &AnalyzeSettings,
    files: &[String],
    out: &mut impl Write,
) -> Result<usize, AnalyzeError> {
    let tasks: Vec<Request> = read_input(files)?
        .iter()
        .map(|l| Request::read(l))
        .collect();
    let progress = progress::bar(
        tasks.len() as u64,
        "{bar:40} {pos}/{len} positions, {per_sec}, {eta} left",
    );
    let tasks = Arc::new(tasks);
    let next = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = channel::<(usize, Value)>();
    let mut workers = Vec::new();
    for _ in 0..settings.jobs.clamp(1, tasks.len().max(1)) {
        let worker = Analyst::new(settings)?;
        let (tasks, next, tx, settings) =
            (tasks.clone(), next.clone(), tx.clone(), settings.clone());
        workers.push(std::thread::spawn(move || {
            loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(task) = tasks.get(index) else { break };
                if tx.send((index, worker.analyze(&settings, task))).is_err() {
                    break;
                }
            }
        }));
    }
    drop(tx);
    // Objects arrive in any order; each is written once all before it are.
    let (mut waiting, mut written, mut failed) = (BTreeMap::new(), 0usize, 0usize);
    for (index, object) in rx {
        waiting.insert(index, object);
        while let Some(object) = waiting.remove(&written) {
            failed += usize::from(object.get("error").is_some());
            writeln!(out, "{object}").map_err(AnalyzeError::Write)?;
            written += 1;
            progress.inc(1);
        }
    }
    out.flush().map_err(AnalyzeError::Write)?;
    for worker in workers {
        let _ = worker.join();
    }
    progress.finish_and_clear();
    Ok(failed)
}
