//! UGI, the game-neutral dialect of UCI, through the real binary: a manager scripted
//! here plays whole games of every rule set, judging them with the library's rules and
//! checking every answer's shape.

mod common;

use std::time::Duration;

use breakthrough::registry::{AnyPosition, History, Variant};
use breakthrough::rulesets::Color;
use common::Engine;

const SHORT: Duration = Duration::from_secs(10);

/// The one line answering `query QUESTION`: exactly `response X`.
fn query(e: &mut Engine, question: &str) -> String {
    e.send(&format!("query {question}"));
    let line = e.line(SHORT);
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(
        (words.len(), words[0]),
        (2, "response"),
        "query {question}: {line}"
    );
    words[1].to_string()
}

/// `ugi` to `ugiok`: identity, options, no `uciok`.
fn handshake(e: &mut Engine) {
    e.send("ugi");
    let lines = e.until("ugiok", SHORT);
    assert!(lines[0].starts_with("id name breakthrough"), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name UCI_Variant type combo"))
    );
    assert!(!lines.iter().any(|l| l == "uciok"));
    e.send("isready");
    assert_eq!(e.line(SHORT), "readyok");
}

/// The manager's judgement of a game: `response` words for `result` and `gameover`.
fn judged(game: &History) -> (&'static str, bool) {
    match game.outcome() {
        None => ("none", false),
        Some(o) => match o.winner {
            Some(Color::White) => ("p1win", true),
            Some(Color::Black) => ("p2win", true),
            None => ("draw", true),
        },
    }
}

/// Plays one game from `start` (moves from the variant's start) to its end.
fn play_game(e: &mut Engine, variant: &str, opening: &[&str]) -> String {
    e.send(&format!("setoption name UCI_Variant value {variant}"));
    e.send("uginewgame");
    let v: Variant = variant.parse().unwrap();
    let mut game = History::from_moves(AnyPosition::startpos(v), opening).unwrap();
    let mut moves: Vec<String> = opening.iter().map(|m| m.to_string()).collect();
    for ply in 0..400 {
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        e.send(&position);
        let (result, over) = judged(&game);
        assert_eq!(
            query(e, "gameover"),
            over.to_string(),
            "{variant} ply {ply}"
        );
        assert_eq!(query(e, "result"), result, "{variant} ply {ply}");
        let p1 = game.position().side_to_move() == Color::White;
        assert_eq!(query(e, "p1turn"), p1.to_string());
        if over {
            return result.to_string();
        }
        // Clocks for both players, as a manager sends them; the engine moves quickly.
        e.send(if ply % 2 == 0 {
            "go p1time 2000 p2time 2000 p1inc 20 p2inc 20"
        } else {
            "go depth 3"
        });
        let lines = e.until("bestmove", SHORT);
        let words: Vec<&str> = lines.last().unwrap().split_whitespace().collect();
        assert_eq!(words.len(), 2, "bestmove has exactly two tokens: {lines:?}");
        game.play_text(words[1])
            .unwrap_or_else(|err| panic!("{variant}: illegal {}: {err}", words[1]));
        moves.push(words[1].to_string());
    }
    panic!("{variant}: no end after 400 plies");
}

#[test]
fn whole_games_in_every_rule_set() {
    let mut e = Engine::start();
    handshake(&mut e);
    for (variant, opening) in [
        ("breakthrough", &["a2a3", "h7h6"][..]),
        ("capture-only", &["d2d3"][..]),
        ("doorbraak", &["b2a3"][..]),
    ] {
        let result = play_game(&mut e, variant, opening);
        assert!(["p1win", "p2win", "draw"].contains(&result.as_str()));
    }
    e.send("quit");
}

#[test]
fn finished_positions_answer_gameover_and_result() {
    let mut e = Engine::start();
    handshake(&mut e);
    // White reached rank 8: over, player 1 won, Black to move.
    e.send("position fen 1P6/8/8/8/8/8/8/p7 b");
    assert_eq!(query(&mut e, "gameover"), "true");
    assert_eq!(query(&mut e, "result"), "p1win");
    assert_eq!(query(&mut e, "p1turn"), "false");
    e.send("go depth 3");
    assert_eq!(
        e.until("bestmove", SHORT).last().unwrap(),
        "bestmove (none)"
    );
    // Doorbraak: two passes draw.
    e.send("setoption name UCI_Variant value doorbraak");
    e.send("position startpos moves 0000 0000");
    assert_eq!(query(&mut e, "gameover"), "true");
    assert_eq!(query(&mut e, "result"), "draw");
    // Capture-only: the side to move has no move and loses.
    e.send("setoption name UCI_Variant value capture-only");
    e.send("position fen 8/8/8/8/p7/P7/8/8 w");
    assert_eq!(query(&mut e, "result"), "p2win");
    // A game under way.
    e.send("position startpos moves a2a3");
    assert_eq!(query(&mut e, "gameover"), "false");
    assert_eq!(query(&mut e, "result"), "none");
}

#[test]
fn a_bad_query_gets_one_error_line_and_nothing_else() {
    let mut e = Engine::start();
    handshake(&mut e);
    for bad in ["query", "query winner", "query gameover now"] {
        e.expect_one_error(bad);
    }
    // Without a valid position, a query is refused the same way.
    e.send("position fen nonsense w");
    e.send("query p1turn");
    e.send("isready");
    let lines = e.until("readyok", SHORT);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[1].starts_with("info string error: no valid position"));
}
