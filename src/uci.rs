//! The UCI protocol on stdin/stdout, as Fairy-Stockfish speaks it for Breakthrough.
//!
//! A reader thread turns stdin into a channel, so `isready` and `stop` are answered
//! while a search runs. Every line written is flushed at once; logs go to stderr.

use std::io::Write;
use std::sync::{Arc, Mutex};

use crate::bench;
use crate::engine::{
    Engine, GoRequest, HASH_MAX_MB, MULTIPV_MAX, OVERHEAD_MAX_MS, StartingPoint, THREADS_MAX,
};
use crate::eval;
use crate::rules::Color;
use crate::search::tt::Bound;
use crate::search::{Info, Score, SearchResult};
use crate::variant::{AnyMove, AnyPosition};

/// Serialises protocol lines from the command loop and the search thread.
#[derive(Clone)]
pub struct Output(Arc<Mutex<()>>);

impl Output {
    fn new() -> Output {
        Output(Arc::new(Mutex::new(())))
    }

    /// Writes lines and flushes; a closed stdout is ignored (the GUI is gone).
    pub fn lines(&self, text: &str) {
        let _guard = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }

    fn error(&self, message: &str) {
        self.lines(&format!("info string error: {message}"));
    }
}

fn score_text(score: Score) -> String {
    match score {
        Score::Centipawns(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

pub fn format_info(info: &Info<AnyMove>) -> String {
    let score = score_text(info.score);
    let bound = match info.bound {
        Some(Bound::Lower) => " lowerbound",
        Some(Bound::Upper) => " upperbound",
        _ => "",
    };
    let pv: Vec<String> = info.pv.iter().map(AnyMove::to_string).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {} hashfull {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.nodes,
        info.nps,
        info.hashfull,
        info.time.as_millis(),
        pv.join(" ")
    )
}

fn format_bestmove(result: &SearchResult<AnyMove>) -> String {
    match (result.best, result.ponder) {
        (None, _) => format!(
            "info depth 0 score {}\nbestmove (none)",
            score_text(Score::from_internal(result.score))
        ),
        (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
        (Some(b), None) => format!("bestmove {b}"),
    }
}

fn uci_text(engine: &Engine) -> String {
    let o = engine.options();
    [
        format!("id name breakthrough {}", env!("CARGO_PKG_VERSION")),
        "id author the breakthrough developers".to_string(),
        format!(
            "option name Hash type spin default {} min 1 max {HASH_MAX_MB}",
            o.hash_mb
        ),
        format!(
            "option name Threads type spin default {} min 1 max {THREADS_MAX}",
            o.threads
        ),
        "option name UCI_Variant type combo default breakthrough var breakthrough var capture-only var doorbraak"
            .to_string(),
        format!("option name MultiPV type spin default 1 min 1 max {MULTIPV_MAX}"),
        format!("option name Move Overhead type spin default 10 min 0 max {OVERHEAD_MAX_MS}"),
        "option name Ponder type check default false".to_string(),
        "option name Clear Hash type button".to_string(),
        "uciok".to_string(),
    ]
    .join("\n")
}

/// `setoption name <name words> [value <value words>]`.
pub(crate) fn parse_setoption(words: &[&str]) -> Result<(String, Option<String>), String> {
    if words.first() != Some(&"name") {
        return Err("setoption needs 'name <option>'".into());
    }
    let value_at = words.iter().position(|w| *w == "value");
    let name = words[1..value_at.unwrap_or(words.len())].join(" ");
    if name.is_empty() {
        return Err("setoption: missing option name".into());
    }
    let value = value_at.map(|i| words[i + 1..].join(" "));
    if value.as_deref() == Some("") {
        return Err(format!("setoption {name}: 'value' without a value"));
    }
    Ok((name, value))
}

/// `position startpos|fen FEN [moves m1 m2 ...]`.
pub(crate) fn parse_position(words: &[&str]) -> Result<(StartingPoint, Vec<String>), String> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let head = &words[..moves_at.unwrap_or(words.len())];
    let moves = moves_at.map_or(Vec::new(), |i| {
        words[i + 1..].iter().map(|s| s.to_string()).collect()
    });
    let start = match head.first() {
        Some(&"startpos") if head.len() == 1 => StartingPoint::StartPos,
        Some(&"startpos") => return Err(format!("position startpos: unexpected '{}'", head[1])),
        Some(&"fen") if head.len() > 1 => StartingPoint::Fen(head[1..].join(" ")),
        Some(&"fen") => return Err("position fen: missing FEN".into()),
        Some(other) => return Err(format!("position: expected startpos or fen, got '{other}'")),
        None => return Err("position: expected startpos or fen".into()),
    };
    Ok((start, moves))
}

fn parse_go(words: &[&str], engine: &Engine) -> Result<(GoRequest, Option<u32>), String> {
    let mut go = GoRequest::default();
    let mut perft = None;
    let mut i = 0;
    let number = |i: usize, key: &str| -> Result<u64, String> {
        let text = words
            .get(i + 1)
            .ok_or_else(|| format!("go {key}: missing number"))?;
        // Clocks can go negative in some GUIs after a lag; treat as zero time left.
        if let Ok(n) = text.parse::<i64>()
            && n < 0
            && matches!(key, "wtime" | "btime")
        {
            return Ok(0);
        }
        text.parse::<u64>()
            .map_err(|_| format!("go {key}: '{text}' is not a whole number"))
    };
    while i < words.len() {
        let key = words[i];
        match key {
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "depth" | "nodes" | "movetime" | "wtime" | "btime" | "winc" | "binc" | "movestogo"
            | "mate" | "perft" => {
                let n = number(i, key)?;
                match key {
                    "depth" => go.limits.depth = Some(n.clamp(1, 1_000) as u32),
                    "nodes" => go.limits.nodes = Some(n),
                    "movetime" => go.movetime = Some(n),
                    "wtime" => go.wtime = Some(n),
                    "btime" => go.btime = Some(n),
                    "winc" => go.winc = Some(n),
                    "binc" => go.binc = Some(n),
                    "movestogo" => go.movestogo = Some(n.max(1)),
                    "mate" => go.limits.mate = Some(n.clamp(1, 1_000) as u32),
                    _ => perft = Some(n.min(64) as u32),
                }
                i += 1;
            }
            "searchmoves" => {
                let pos = engine
                    .position()
                    .map_err(|e| format!("no valid position ({e})"))?;
                while let Some(text) = words.get(i + 1) {
                    match pos.parse_move(text) {
                        Ok(m) => go.limits.searchmoves.push(m),
                        Err(_) if is_go_keyword(text) => break,
                        Err(e) => return Err(format!("go searchmoves: {e}")),
                    }
                    i += 1;
                }
                if go.limits.searchmoves.is_empty() {
                    return Err("go searchmoves: no moves given".into());
                }
            }
            _ => return Err(format!("go: unknown parameter '{key}'")),
        }
        i += 1;
    }
    Ok((go, perft))
}

fn is_go_keyword(word: &str) -> bool {
    matches!(
        word,
        "infinite"
            | "ponder"
            | "depth"
            | "nodes"
            | "movetime"
            | "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "mate"
            | "perft"
            | "searchmoves"
    )
}

fn eval_text(engine: &Engine) -> Result<String, String> {
    let pos = engine
        .position()
        .map_err(|e| format!("no valid position ({e})"))?;
    let mut out = format!("{:<18} {:>7} {:>7}\n", "term", "count", "score");
    let mut add_rows = |features: &[i32], weights: &[i32], groups: &[(&str, usize, usize)]| {
        for &(name, first, count) in groups {
            let range = first..first + count;
            let raw: i32 = features[range.clone()].iter().sum();
            let score: i32 = range.map(|i| features[i] * weights[i]).sum();
            out.push_str(&format!("{name:<18} {raw:>7} {score:>7}\n"));
        }
    };
    match pos {
        AnyPosition::Breakthrough(p) => add_rows(
            &eval::features(p),
            eval::weights(p.variant()),
            &eval::GROUPS,
        ),
        AnyPosition::Doorbraak(p) => add_rows(
            &eval::doorbraak::features(p),
            eval::doorbraak::weights(),
            &eval::doorbraak::GROUPS,
        ),
    }
    let total = pos.evaluate();
    let white_view = if pos.side_to_move() == Color::White {
        total
    } else {
        -total
    };
    out.push_str(&format!(
        "(counts are ours minus theirs, from the side to move's view)\nFinal evaluation: {total:+} (side to move), {white_view:+} (white side)"
    ));
    Ok(out)
}

fn board_text(engine: &Engine) -> Result<String, String> {
    let pos = engine
        .position()
        .map_err(|e| format!("no valid position ({e})"))?;
    let moves: Vec<String> = pos.legal_moves().iter().map(AnyMove::to_string).collect();
    Ok(format!(
        "{}\nVariant: {}\nFen: {}\nKey: {:016X}\nSide to move: {}\nLegal moves: {}",
        pos.diagram(),
        pos.variant(),
        pos.to_fen(),
        pos.hash(),
        pos.side_to_move(),
        if moves.is_empty() {
            "(none)".to_string()
        } else {
            moves.join(" ")
        }
    ))
}

fn perft_text(engine: &Engine, depth: u32) -> Result<String, String> {
    let pos = *engine
        .position()
        .map_err(|e| format!("no valid position ({e})"))?;
    let mut per_move = pos.perft_divide(depth);
    per_move.sort_by_key(|(m, _)| m.to_string());
    let total: u64 = if depth == 0 {
        1
    } else {
        per_move.iter().map(|(_, n)| n).sum()
    };
    let mut out = String::new();
    for (m, n) in &per_move {
        out.push_str(&format!("{m}: {n}\n"));
    }
    out.push_str(&format!("\nNodes searched: {total}"));
    Ok(out)
}

/// Runs the protocol until `quit` or the end of input.
pub fn run() {
    let out = Output::new();
    let mut engine = Engine::new();
    let input = crate::lines::spawn_reader(std::io::stdin());
    loop {
        match input.recv() {
            Ok(line) => {
                if !handle_line(&mut engine, &out, line.trim()) {
                    engine.stop();
                    return;
                }
            }
            // End of input: a search with a limit of its own may finish within the
            // second the process has left; an infinite one is stopped at once.
            _ => {
                engine.settle_within(Some(std::time::Duration::from_millis(900)));
                return;
            }
        }
    }
}

/// Handles one line; false means quit.
fn handle_line(engine: &mut Engine, out: &Output, line: &str) -> bool {
    log::debug!("< {line}");
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&command, args)) = words.split_first() else {
        return true;
    };
    let report = |r: Result<String, String>| match r {
        Ok(text) => out.lines(&text),
        Err(e) => out.error(&e),
    };
    match command {
        "uci" => out.lines(&uci_text(engine)),
        "isready" => out.lines("readyok"),
        "quit" => return false,
        "stop" => engine.stop(),
        "ponderhit" => engine.ponderhit(),
        "ucinewgame" => engine.new_game(),
        "setoption" => {
            if let Err(e) = parse_setoption(args)
                .and_then(|(name, value)| engine.set_option(&name, value.as_deref()))
            {
                out.error(&e);
            }
        }
        "position" => {
            let result = parse_position(args).and_then(|(start, moves)| {
                let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
                engine.set_position(start, &moves)
            });
            if let Err(e) = result {
                // Refuse the whole command: no position until a valid one arrives.
                engine.refuse_position(e.clone());
                out.error(&format!("position refused: {e}"));
            }
        }
        "go" => go(engine, out, args),
        "d" => {
            engine.settle();
            report(board_text(engine))
        }
        "eval" => {
            engine.settle();
            report(eval_text(engine))
        }
        "bench" => {
            engine.settle();
            match bench::parse_depth(args) {
                Ok(depth) => out.lines(&bench::run(depth).summary_line()),
                Err(e) => out.error(&e),
            }
        }
        _ => out.error(&format!(
            "unknown command '{}'",
            line.chars().take(80).collect::<String>()
        )),
    }
    true
}

fn go(engine: &mut Engine, out: &Output, args: &[&str]) {
    engine.settle();
    let (request, perft) = match parse_go(args, engine) {
        Ok(parsed) => parsed,
        Err(e) => {
            out.error(&e);
            out.lines("bestmove (none)");
            return;
        }
    };
    if let Some(depth) = perft {
        match perft_text(engine, depth) {
            Ok(text) => out.lines(&text),
            Err(e) => out.error(&e),
        }
        return;
    }
    let info_out = out.clone();
    let done_out = out.clone();
    let started = engine.go(
        request,
        Box::new(move |info| info_out.lines(&format_info(info))),
        Box::new(move |result| done_out.lines(&format_bestmove(&result))),
    );
    if let Err(e) = started {
        out.error(&e);
        out.lines("bestmove (none)");
    }
}
