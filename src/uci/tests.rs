//! The protocol in process: lines in, lines out, through the same command loop as the
//! binary, with the output captured.

use std::sync::{Arc, Mutex};

use super::*;
use crate::engine::OPTIONS;

/// A buffer the protocol writes into.
#[derive(Clone, Default)]
pub(super) struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    pub(super) fn lines(&self) -> Vec<String> {
        let text = String::from_utf8(self.0.lock().unwrap().clone()).unwrap();
        text.lines().map(str::to_string).collect()
    }
}

/// Feeds `lines` to a fresh session as its whole input and returns every line written.
fn session(player: Player, lines: &[&str]) -> Vec<String> {
    let captured = Captured::default();
    let mut session = Connection::new(player, Output::new(captured.clone())).unwrap();
    let (tx, rx) = std::sync::mpsc::sync_channel(lines.len() + 1);
    for line in lines {
        tx.send(Input::Line(line.to_string())).unwrap();
    }
    drop(tx);
    session.serve(&rx);
    captured.lines()
}

/// `uci` lists exactly the table's options with their declared defaults, whatever
/// they were set to before.
#[test]
fn uci_prints_the_option_table_with_its_defaults() {
    let lines = session(
        Player::Search,
        &[
            "setoption name Hash value 32",
            "setoption name Threads value 2",
            "uci",
        ],
    );
    let options: Vec<&String> = lines.iter().filter(|l| l.starts_with("option ")).collect();
    assert_eq!(options.len(), OPTIONS.len());
    for (line, option) in options.iter().zip(&OPTIONS) {
        assert_eq!(**line, option.uci_line());
    }
    assert!(lines.contains(&"option name Hash type spin default 16 min 1 max 65536".into()));
    assert!(lines.contains(&"option name Threads type spin default 1 min 1 max 256".into()));
    assert!(lines.iter().any(|l| l
        == "option name UCI_Variant type combo default breakthrough \
            var breakthrough var capture-only var doorbraak var toy"));
    assert_eq!(
        lines.first().unwrap(),
        &format!("id name breakthrough {}", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(lines.last().unwrap(), "uciok");
}

#[test]
fn bad_lines_get_one_error_line_each() {
    for (line, says) in [
        ("frobnicate", "unknown command 'frobnicate'"),
        (
            "setoption name Hash value 0",
            "option Hash: 0 is out of range 1..65536",
        ),
        ("setoption Hash", "setoption needs 'name <option>'"),
        (
            "position fen",
            "position refused: position fen: missing FEN",
        ),
        (
            "position startpos moves a2a3 a2a4",
            "position refused: move 2 (a2a4) refused",
        ),
        (
            "bench 99",
            "bench: depth '99' must be a whole number from 1 to 64",
        ),
    ] {
        let lines = session(Player::Search, &[line]);
        assert_eq!(lines.len(), 1, "{line}: {lines:?}");
        assert!(
            lines[0].starts_with(&format!("info string error: {says}")),
            "{line}: {lines:?}"
        );
    }
    // A `go` that cannot run still owes its `bestmove`.
    for line in ["go depth x", "go searchmoves a2a5"] {
        let lines = session(Player::Search, &[line]);
        assert_eq!(lines.len(), 2, "{line}: {lines:?}");
        assert_eq!(lines[1], "bestmove (none)");
    }
}

/// A fourth rule set needs nothing from the protocol: the test-only one is chosen,
/// shown, evaluated, counted and searched by the same commands.
#[test]
fn the_test_rule_set_over_the_protocol() {
    let lines = session(
        Player::Search,
        &[
            "setoption name UCI_Variant value toy",
            "position fen 7 w moves 1",
            "d",
            "eval",
            "go perft 3",
            "position fen 7 w",
            "go depth 12",
        ],
    );
    for expected in [
        "6 stones",
        "Variant: toy",
        "Fen: 6 b",
        "Legal moves: 1 2",
        "Nodes searched: 8",
    ] {
        assert!(lines.iter().any(|l| l == expected), "{expected}: {lines:?}");
    }
    assert!(lines.iter().any(|l| l.starts_with("won heap")), "{lines:?}");
    assert!(
        lines.last().unwrap().starts_with("bestmove 1 "),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.contains("score mate 3 ")),
        "{lines:?}"
    );
}
