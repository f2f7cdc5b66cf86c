//! The UCI protocol on stdin/stdout, as Fairy-Stockfish speaks it for Breakthrough.
//!
//! A reader thread turns stdin into a channel, so `isready` and `stop` are answered
//! while a search runs. Lines are read into commands by `command.rs`; here they are
//! carried out through the engine facade and answered. Every line written is flushed at
//! once; logs go to stderr.

mod command;

use std::io::Write;
use std::sync::{Arc, Mutex};

use crate::bench;
use crate::engine::{Engine, OPTIONS, Player};
use crate::rulesets::Color;
use crate::search::tt::Bound;
use crate::search::{Info, Score, SearchResult};
use crate::variant::AnyMove;
use command::Command;

/// Where protocol lines go (stdout, or a buffer in tests), shared by the command loop
/// and the search thread so their lines never interleave.
#[derive(Clone)]
struct Output(Arc<Mutex<dyn Write + Send>>);

impl Output {
    fn new(sink: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(sink)))
    }

    /// Writes lines and flushes; a closed stdout is ignored (the GUI is gone).
    fn lines(&self, text: &str) {
        let mut out = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }

    fn error(&self, message: impl std::fmt::Display) {
        self.lines(&format!("info string error: {message}"));
    }
}

fn score_text(score: Score) -> String {
    match score {
        Score::Centipawns(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

fn format_info(info: &Info<AnyMove>) -> String {
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

/// The answer to `uci`: identity, every option of the table with its default, `uciok`.
fn uci_text(player: Player) -> String {
    let mut lines = vec![
        format!("id name {} {}", player.name(), env!("CARGO_PKG_VERSION")),
        "id author the breakthrough developers".to_string(),
    ];
    lines.extend(OPTIONS.iter().map(|o| o.uci_line()));
    lines.push("uciok".to_string());
    lines.join("\n")
}

fn eval_text(engine: &Engine) -> Result<String, crate::engine::EngineError> {
    let pos = engine.position()?;
    let mut out = format!("{:<18} {:>7} {:>7}\n", "term", "count", "score");
    for term in pos.eval_terms() {
        out.push_str(&format!(
            "{:<18} {:>7} {:>7}\n",
            term.name, term.count, term.score
        ));
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

fn board_text(engine: &Engine) -> Result<String, crate::engine::EngineError> {
    let pos = engine.position()?;
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

fn perft_text(engine: &Engine, depth: u32) -> Result<String, crate::engine::EngineError> {
    let pos = engine.position()?;
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

/// Runs the protocol until `quit` or the end of input; `Err` if the engine cannot start.
pub(crate) fn run(player: Player) -> Result<(), crate::engine::EngineError> {
    let out = Output::new(std::io::stdout());
    let mut engine = Engine::new(player)?;
    let input = crate::lines::spawn_reader(std::io::stdin());
    loop {
        match input.recv() {
            Ok(line) => {
                if !handle_line(&mut engine, &out, &line) {
                    engine.stop();
                    return Ok(());
                }
            }
            // End of input: a search with a limit of its own may finish within the
            // second the process has left; an infinite one is stopped at once.
            Err(_) => {
                engine.settle_within(Some(std::time::Duration::from_millis(900)));
                return Ok(());
            }
        }
    }
}

/// Handles one line; false means quit.
fn handle_line(engine: &mut Engine, out: &Output, line: &str) -> bool {
    log::debug!("< {line}");
    let command = match Command::parse(line) {
        Ok(Some(command)) => command,
        Ok(None) => return true,
        Err(e) => {
            refuse(engine, out, e);
            return true;
        }
    };
    let report = |r: Result<String, crate::engine::EngineError>| match r {
        Ok(text) => out.lines(&text),
        Err(e) => out.error(e),
    };
    match command {
        Command::Uci => out.lines(&uci_text(engine.player())),
        Command::IsReady => out.lines("readyok"),
        Command::Quit => return false,
        Command::Stop => engine.stop(),
        Command::PonderHit => engine.ponderhit(),
        Command::NewGame => engine.new_game(),
        Command::SetOption { name, value } => {
            if let Err(e) = engine.set_option(&name, value.as_deref()) {
                out.error(e);
            }
        }
        Command::Position { start, moves } => {
            // A refused position leaves none: `go` answers that until a valid one arrives.
            if let Err(e) = engine.set_position(&start, &moves) {
                out.error(format_args!("position refused: {e}"));
            }
        }
        Command::Go(request) => {
            let (info_out, done_out) = (out.clone(), out.clone());
            let started = engine.go(
                &request,
                Box::new(move |info| info_out.lines(&format_info(info))),
                Box::new(move |result| done_out.lines(&format_bestmove(&result))),
            );
            if let Err(e) = started {
                out.error(e);
                out.lines("bestmove (none)");
            }
        }
        Command::Perft(depth) => {
            engine.settle();
            report(perft_text(engine, depth))
        }
        Command::Board => {
            engine.settle();
            report(board_text(engine))
        }
        Command::Eval => {
            engine.settle();
            report(eval_text(engine))
        }
        Command::Bench(depth) => {
            engine.settle();
            match bench::run(depth) {
                Ok(report) => out.lines(&report.summary_line()),
                Err(e) => out.error(e),
            }
        }
    }
    true
}

/// Answers a line that could not be read: one error line, and whatever the command
/// owes (a `position` leaves no position; a `go` still gets its `bestmove`).
fn refuse(engine: &mut Engine, out: &Output, error: command::UciError) {
    match error {
        command::UciError::Position(e) => {
            engine.refuse_position(e.clone());
            out.error(format_args!("position refused: {e}"));
        }
        command::UciError::Go(e) => {
            engine.settle();
            out.error(e);
            out.lines("bestmove (none)");
        }
        e => out.error(e),
    }
}

#[cfg(test)]
mod tests;
