//! The text of answers: `info` and `bestmove` lines, the handshake, `d`, `eval`,
//! `go perft` and `query`.

use super::Dialect;
use crate::engine::{Engine, EngineError, OPTIONS, Player};
use crate::registry::{AnyMove, BoardVariant, Evaluation, describe_network};
use crate::rulesets::{Color, Outcome};
use crate::search::tt::Bound;
use crate::search::{Info, NoMate, Score, SearchResult};

fn score_text(score: Score) -> String {
    match score {
        Score::Centipawns(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

pub(super) fn info(info: &Info<AnyMove>) -> String {
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

/// `bestmove M [ponder P]`; UGI managers take exactly two tokens, so no `ponder` there.
pub(super) fn bestmove(result: &SearchResult<AnyMove>, dialect: Dialect) -> String {
    let note = match result.no_mate {
        Some(NoMate::Proven { moves }) => {
            format!("info string no forced win within {moves} moves (proven)\n")
        }
        Some(NoMate::Stopped { moves }) => format!(
            "info string mate search stopped: no forced win within {moves} moves, longer wins not searched\n"
        ),
        None => String::new(),
    };
    let answer = match (result.best, result.ponder) {
        (None, _) => format!(
            "info depth 0 score {}\nbestmove (none)",
            score_text(Score::from_internal(result.score))
        ),
        (Some(b), Some(p)) if dialect == Dialect::Uci => format!("bestmove {b} ponder {p}"),
        (Some(b), _) => format!("bestmove {b}"),
    };
    note + &answer
}

/// The answer to `uci` or `ugi`: identity, every option of the table with its default,
/// then `uciok` or `ugiok`.
pub(super) fn handshake(player: Player, dialect: Dialect) -> String {
    let mut lines = vec![
        format!("id name {} {}", player.name(), env!("CARGO_PKG_VERSION")),
        "id author the breakthrough developers".to_string(),
    ];
    lines.extend(OPTIONS.iter().map(|o| o.uci_line()));
    lines.push(
        match dialect {
            Dialect::Uci => "uciok",
            Dialect::Ugi => "ugiok",
        }
        .to_string(),
    );
    lines.join("\n")
}

/// Fairy-Stockfish's description of the board, which uci2wb turns into XBoard's
/// `setup` and the Fairy-Stockfish GUIs read: the name, the size and the start.
pub(super) fn variant_line(variant: BoardVariant) -> String {
    format!(
        "info string variant {variant} files {} ranks {} pocket 0 template fairy startpos {}",
        variant.files,
        variant.ranks,
        variant.startpos().to_fen()
    )
}

pub(super) fn eval(engine: &Engine) -> Result<String, EngineError> {
    let pos = engine.evaluated_position()?;
    let mut out = format!("{:<18} {:>7} {:>7}\n", "term", "count", "score");
    for term in pos.eval_terms() {
        out.push_str(&format!(
            "{:<18} {:>7} {:>7}\n",
            term.name, term.count, term.score
        ));
    }
    out.push_str("(counts are ours minus theirs, from the side to move's view)\n");
    let net = pos.network();
    if net.is_some() {
        let mut by_hand = pos.clone();
        let _ = by_hand.use_evaluation(Evaluation::Hand);
        let hand = by_hand.evaluate();
        out.push_str(&format!(
            "Hand-written evaluation: {hand:+} (side to move)\n"
        ));
    }
    let total = pos.evaluate();
    let white_view = if pos.side_to_move() == Color::White {
        total
    } else {
        -total
    };
    out.push_str(&format!(
        "Evaluation by: {}\nFinal evaluation: {total:+} (side to move), {white_view:+} (white side)",
        describe_network(net)
    ));
    Ok(out)
}

pub(super) fn board(engine: &Engine) -> Result<String, EngineError> {
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

/// `go perft`'s answer: a count per root move, sorted, then the total, as Fairy-Stockfish.
pub(super) fn perft(depth: u32, mut per_move: Vec<(AnyMove, u64)>) -> String {
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
    out
}

/// A UGI query about the game: `gameover`, `p1turn` or `result` (player 1 moves first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Query {
    GameOver,
    P1Turn,
    Result,
}

pub(super) fn query(engine: &Engine, query: Query) -> Result<String, EngineError> {
    let outcome: Option<Outcome> = engine.outcome()?;
    let answer = match query {
        Query::GameOver => outcome.is_some().to_string(),
        Query::P1Turn => (engine.position()?.side_to_move() == Color::White).to_string(),
        Query::Result => match outcome.map(|o| o.winner) {
            None => "none",
            Some(Some(Color::White)) => "p1win",
            Some(Some(Color::Black)) => "p2win",
            Some(None) => "draw",
        }
        .to_string(),
    };
    Ok(format!("response {answer}"))
}
