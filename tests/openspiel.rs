//! OpenSpiel, the research framework, as referee and opponent: its MCTS bot against the
//! engine behind OpenSpiel's own GTP bot (`breakthrough gtp`), every move applied by
//! OpenSpiel's rules (`tests/openspiel/play.py`). Needs Python's `open_spiel` package
//! (`pip install open_spiel`; `.ci/run` installs it); without it the test says so and
//! passes, unless `OPENSPIEL_TESTS=1` demands it (as CI does).

use std::process::Command;

use breakthrough::registry::{AnyPosition, Variant};
use breakthrough::rulesets::Color;

fn python_has_open_spiel() -> bool {
    let found = Command::new("python3")
        .args(["-c", "import pyspiel"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var("OPENSPIEL_TESTS").is_err(),
            "OPENSPIEL_TESTS is set but python3 cannot import pyspiel"
        );
        eprintln!("OpenSpiel test skipped: python3 has no open_spiel (pip install open_spiel)");
    }
    found
}

/// OpenSpiel's move text as ours: ranks mirrored (its first player starts on top), no
/// capture mark.
fn ours(text: &str) -> String {
    text.trim_end_matches('*')
        .chars()
        .map(|c| match c.to_digit(10) {
            Some(r) => char::from_digit(9 - r, 10).unwrap(),
            None => c,
        })
        .collect()
}

/// Four games against MCTS with 1000 simulations a move, the engine at 100 ms a move and
/// each side twice: every move accepted by OpenSpiel, every game won by the engine as
/// OpenSpiel scores it; replayed with our rules, the same game, the same winner.
#[test]
fn the_engine_beats_openspiels_mcts_with_openspiel_as_referee() {
    if !python_has_open_spiel() {
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/openspiel/play.py");
    let out = Command::new("python3")
        .args([
            script,
            env!("CARGO_BIN_EXE_breakthrough"),
            "4",
            "1000",
            "100",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 4, "{stdout}");
    let variant: Variant = "breakthrough".parse().unwrap();
    for game in &games {
        assert_eq!(game["engine_return"], 1.0, "lost: {game}");
        let engine_player = game["engine_player"].as_u64().unwrap();
        // OpenSpiel's player 0 moves first: our White.
        let engine_colour = if engine_player == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mut position = AnyPosition::startpos(variant);
        for text in game["moves"].as_array().unwrap() {
            let text = text.as_str().unwrap();
            let m = position.parse_move(&ours(text)).unwrap();
            let child = position.child(m);
            let men = |p: &AnyPosition| {
                p.to_fen()
                    .split(' ')
                    .next()
                    .unwrap()
                    .chars()
                    .filter(char::is_ascii_alphabetic)
                    .count()
            };
            assert_eq!(text.ends_with('*'), men(&child) < men(&position), "{text}");
            position = child;
        }
        let outcome = position
            .outcome()
            .expect("the game is over by our rules too");
        assert_eq!(outcome.winner, Some(engine_colour), "{game}");
    }
    let sides: Vec<u64> = games
        .iter()
        .map(|g| g["engine_player"].as_u64().unwrap())
        .collect();
    assert_eq!(sides, [0, 1, 0, 1]);
}
