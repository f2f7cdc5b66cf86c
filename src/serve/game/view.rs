//! A game as the page reads it (JSON) and as PGN; an engine report as JSON.

use serde_json::{Value, json};

use super::Game;
use crate::registry::AnyMove;
use crate::rulesets::Color;
use crate::search::{Info, Score};

impl Game {
    /// Everything the page draws, as JSON.
    pub(crate) fn state(&self, id: u64) -> Value {
        let start = self.history.start();
        let mut pos = start.clone();
        let mut fens = vec![pos.to_fen()];
        for &m in self.history.moves() {
            pos.play(m);
            fens.push(pos.to_fen());
        }
        let current = self.history.position();
        let (files, ranks) = current.board_size();
        let result = self.result().map(|(winner, reason)| {
            json!({
                "winner": winner.map(|c| c.to_string()),
                "text": match winner { Some(Color::White) => "1-0", Some(Color::Black) => "0-1", None => "1/2-1/2" },
                "reason": reason,
            })
        });
        let clock = self.clock.as_ref().map(|c| {
            let side = current.side_to_move();
            let mut left = c.remaining.map(|d| d.as_millis() as u64);
            if result.is_none() {
                let used = c.since.elapsed().as_millis() as u64;
                left[side.index()] = left[side.index()].saturating_sub(used);
            }
            json!({"white": left[0], "black": left[1], "running": result.is_none().then(|| side.to_string())})
        });
        let legal: Vec<String> = if result.is_some() {
            Vec::new()
        } else {
            current
                .legal_moves()
                .iter()
                .map(AnyMove::to_string)
                .collect()
        };
        json!({
            "type": "state",
            "id": id,
            "variant": self.history.start().variant().name(),
            "files": files,
            "ranks": ranks,
            "start": fens[0],
            "fen": current.to_fen(),
            "fens": fens,
            "moves": self.history.moves().iter().map(AnyMove::to_string).collect::<Vec<_>>(),
            "side": current.side_to_move().to_string(),
            "legal": legal,
            "engine": self.engine_side.map(|c| c.to_string()),
            "level": self.level,
            "clock": clock,
            "movetime_ms": self.movetime.as_millis() as u64,
            "thinking": self.task.map(|t| format!("{t:?}").to_lowercase()),
            "analysis": self.analysis.map(|(lines, ply)| json!({"lines": lines, "ply": ply})),
            "result": result,
            "generation": self.generation,
        })
    }

    /// The game in PGN.
    pub(crate) fn pgn(&self) -> String {
        let start = self.history.start();
        let (result, reason) = match self.result() {
            Some((winner, reason)) => (
                match winner {
                    Some(Color::White) => "1-0",
                    Some(Color::Black) => "0-1",
                    None => "1/2-1/2",
                },
                reason,
            ),
            None => ("*", String::new()),
        };
        let player = |c: Color| {
            if self.engine_side == Some(c) {
                format!("breakthrough (level {})", self.level)
            } else {
                "person".to_string()
            }
        };
        let mut tags = vec![
            ("Event", "breakthrough serve".to_string()),
            ("Date", crate::pgn::today()),
            ("White", player(Color::White)),
            ("Black", player(Color::Black)),
            ("Result", result.to_string()),
            ("Variant", start.variant().name().to_string()),
        ];
        if !start.is_startpos() {
            tags.push(("FEN", start.to_fen()));
        }
        crate::pgn::write_game(
            &tags,
            start.side_to_move(),
            &[],
            self.history.moves(),
            &reason,
            result,
        )
    }
}

/// A progress report as the page reads it; `white_cp` is the score from White's side,
/// for the evaluation bar.
pub(super) fn info_json(info: &Info<AnyMove>, generation: u64, white_to_move: bool) -> Value {
    let sign = if white_to_move { 1 } else { -1 };
    let (score, white) = match info.score {
        Score::Centipawns(cp) => (json!({"cp": cp}), json!({"cp": sign * cp})),
        Score::Mate(n) => (json!({"mate": n}), json!({"mate": sign * n})),
    };
    json!({
        "type": "info",
        "generation": generation,
        "depth": info.depth,
        "multipv": info.multipv,
        "score": score,
        "white": white,
        "bound": info.bound.map(|b| format!("{b:?}").to_lowercase()),
        "nodes": info.nodes,
        "nps": info.nps,
        "time_ms": info.time.as_millis() as u64,
        "pv": info.pv.iter().map(AnyMove::to_string).collect::<Vec<_>>(),
    })
}
