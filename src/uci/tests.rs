//! The protocol in process: lines in, lines out, through the same command loop as the
//! binary, with the output captured.

use std::sync::{Arc, Mutex};

use super::*;
use crate::engine::OPTIONS;

/// A buffer the protocol writes into, kept write by write.
#[derive(Clone, Default)]
pub(super) struct Captured(Arc<Mutex<Vec<Vec<u8>>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().push(buf.to_vec());
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    pub(super) fn lines(&self) -> Vec<String> {
        let text = String::from_utf8(self.0.lock().unwrap().concat()).unwrap();
        text.lines().map(str::to_string).collect()
    }

    /// Each write's text.
    pub(super) fn writes(&self) -> Vec<String> {
        let writes = self.0.lock().unwrap();
        writes
            .iter()
            .map(|w| String::from_utf8_lossy(w).into_owned())
            .collect()
    }
}

/// Feeds `lines` to a fresh session as its whole input and returns every line written.
fn session(player: Player, lines: &[&str]) -> Vec<String> {
    session_writes(player, lines).lines()
}

/// The same, with the output as written.
fn session_writes(player: Player, lines: &[&str]) -> Captured {
    let captured = Captured::default();
    let mut session = Connection::new(player, Output::new(captured.clone())).unwrap();
    let (tx, rx) = std::sync::mpsc::sync_channel(lines.len() + 1);
    for line in lines {
        tx.send(Input::Line(line.to_string())).unwrap();
    }
    drop(tx);
    session.serve(&rx);
    captured
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
    // Each rule set on its own board and the square ones; other boards are accepted
    // but not listed (the list stays short enough for uci2wb's line buffer).
    assert!(lines.iter().any(|l| l
        == "option name UCI_Variant type combo default breakthrough \
            var breakthrough var breakthrough-4x4 var breakthrough-5x5 var breakthrough-6x6 \
            var breakthrough-7x7 var capture-only var capture-only-4x4 var capture-only-5x5 \
            var capture-only-6x6 var capture-only-7x7 var doorbraak var toy"));
    assert_eq!(
        lines.first().unwrap(),
        &format!("id name breakthrough {}", env!("CARGO_PKG_VERSION"))
    );
    // Then Fairy-Stockfish's description of the default board, for uci2wb and its kin.
    assert_eq!(lines[lines.len() - 2], "uciok");
    assert_eq!(
        lines.last().unwrap(),
        "info string variant breakthrough files 8 ranks 8 pocket 0 template fairy \
         startpos pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w - - 0 1"
    );
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

/// Setting `UCI_Variant` prints the board it names, as Fairy-Stockfish does, for every
/// board the engine plays (listed or not); `startpos` is then that board.
#[test]
fn uci_variant_prints_the_board_it_names() {
    let lines = session(
        Player::Search,
        &[
            "setoption name UCI_Variant value capture-only-5x7",
            "position startpos",
            "d",
            "setoption name UCI_Variant value breakthrough-9x9",
        ],
    );
    assert_eq!(
        lines[0],
        "info string variant capture-only-5x7 files 5 ranks 7 pocket 0 template fairy \
         startpos ppppp/ppppp/5/5/5/PPPPP/PPPPP w - - 0 1"
    );
    assert!(lines.contains(&"Fen: ppppp/ppppp/5/5/5/PPPPP/PPPPP w - - 0 1".to_string()));
    assert!(lines.contains(&"Variant: capture-only".to_string()));
    let last = lines.last().unwrap();
    assert!(
        last.starts_with("info string error: option UCI_Variant: 'breakthrough-9x9' is not one of")
            && last.ends_with("(or another board as RULES-FILESxRANKS, such as breakthrough-5x7)"),
        "{last}"
    );
}

/// CECP after `xboard`: the features, with every variant XBoard can show and every
/// option of the table but `UCI_Variant` (CECP's `variant` command sets it).
#[test]
fn cecp_handshake_lists_variants_and_options() {
    let lines = session(Player::Search, &["xboard", "protover 2"]);
    assert_eq!(lines.first().unwrap(), "feature done=0");
    assert_eq!(lines.last().unwrap(), "feature done=1");
    let features = &lines[1];
    for wanted in [
        "setboard=1",
        "usermove=1",
        "ping=1",
        "sigint=0",
        "sigterm=0",
        "colors=0",
        "analyze=1",
        "myname=\"breakthrough ",
    ] {
        assert!(features.contains(wanted), "{wanted} in {features}");
    }
    let variants = features.split("variants=\"").nth(1).unwrap();
    let variants: Vec<&str> = variants.trim_end_matches('"').split(',').collect();
    for name in [
        "breakthrough",
        "capture-only",
        "breakthrough-6x6",
        "capture-only-3x4",
    ] {
        assert!(variants.contains(&name), "{name} in {variants:?}");
    }
    assert!(!variants.iter().any(|v| v.starts_with("doorbraak")));
    let options: Vec<&String> = lines.iter().filter(|l| l.contains("option=")).collect();
    assert_eq!(options.len(), OPTIONS.len() - 1);
    assert!(options.contains(&&"feature option=\"Hash -spin 16 1 65536\"".to_string()));
    assert!(options.contains(&&"feature option=\"Ponder -check 0\"".to_string()));
    assert!(!options.iter().any(|o| o.contains("UCI_Variant")));
}

#[test]
fn cecp_variant_sets_up_the_board_for_xboard() {
    let lines = session(
        Player::Search,
        &[
            "xboard",
            "new",
            "variant capture-only-6x6",
            "variant doorbraak",
            "variant chess",
        ],
    );
    assert_eq!(
        lines[..2],
        [
            "setup (..........P.................p.......) 6x6+0_fairy \
             pppppp/pppppp/6/6/PPPPPP/PPPPPP w - - 0 1",
            "piece P& fmWfcF"
        ]
    );
    assert!(
        lines[2].starts_with("Error (XBoard cannot show this game"),
        "{}",
        lines[2]
    );
    assert!(lines[2].ends_with("): variant doorbraak"), "{}", lines[2]);
    assert!(
        lines[3].starts_with("Error (unknown variant 'chess'"),
        "{}",
        lines[3]
    );
}

/// The engine plays the side `go` gives it, claims the result after its winning move,
/// and answers `ping` at once.
#[test]
fn cecp_engine_moves_and_claims_its_win() {
    let lines = session(
        Player::Search,
        &[
            "xboard",
            "protover 2",
            "new",
            "variant breakthrough-6x6",
            "force",
            "setboard 6/P5/6/6/5p/6 w 0 1",
            "ping 7",
            "sd 4",
            "go",
        ],
    );
    let from = lines.iter().position(|l| l == "pong 7").unwrap();
    assert_eq!(
        lines[from..],
        ["pong 7", "move a5a6", "1-0 {White reaches the last rank}"]
    );
}

/// The winning move and its claim go out in one write: XBoard hands the move to the
/// other engine at once, and with two writes that engine's claim could come first.
#[test]
fn cecp_sends_a_winning_move_and_its_claim_in_one_write() {
    let captured = session_writes(
        Player::Search,
        &[
            "xboard",
            "new",
            "variant breakthrough-6x6",
            "force",
            "setboard 6/P5/6/6/5p/6 w 0 1",
            "sd 4",
            "go",
        ],
    );
    let writes = captured.writes();
    assert!(
        writes.contains(&"move a5a6\n1-0 {White reaches the last rank}\n".to_string()),
        "{writes:#?}"
    );
}

/// The GUI's moves: checked (CECP's `Illegal move` answer), a promotion suffix as XBoard
/// writes one taken, the result claimed when the GUI's move ends the game, and the game
/// taken back by `undo` and `remove`.
#[test]
fn cecp_reads_the_guis_moves() {
    let lines = session(
        Player::Search,
        &[
            "xboard",
            "new",
            "force",
            "setboard 8/8/8/8/8/8/p7/1P6 b - - 0 1",
            "usermove a2a5",
            "frobnicate",
            "usermove a2b1.",
            "usermove b1b2",
            "remove",
            "undo",
            "undo",
            "usermove a2a1",
            "level 40 0:30 0",
            "level 40 x 0",
            "option Ponder=1",
            "option UCI_Variant=capture-only",
            "option Nope=3",
        ],
    );
    let expected = [
        "Illegal move (",
        "Error (unknown command): frobnicate",
        "0-1 {Black reaches the last rank}",
        "Illegal move (the game is over): b1b2",
        "Error (no move to take back): remove",
        "Error (no move to take back): undo",
        "0-1 {Black reaches the last rank}",
        "Error ('x' is not a number): level 40 x 0",
        "Error (set by the variant command): option UCI_Variant=capture-only",
        "Error (unknown option",
    ];
    assert_eq!(lines.len(), expected.len(), "{lines:#?}");
    for (line, start) in lines.iter().zip(expected) {
        assert!(line.starts_with(start), "{line} should start with {start}");
    }
    assert!(lines[0].ends_with("): a2a5"), "{}", lines[0]);
}

/// `quit` ends the session within a second whatever waits before it: here a search with
/// a clock of thirty million years and a `setoption` and `isready` queued behind it, the
/// input left open (a GUI closing its window sends `quit` and nothing more). The waiting
/// commands still run and answer.
#[test]
fn quit_ends_the_session_at_once_behind_a_long_search() {
    let captured = Captured::default();
    let mut session = Connection::new(Player::Search, Output::new(captured.clone())).unwrap();
    let (tx, rx) = std::sync::mpsc::sync_channel(16);
    for line in [
        "position startpos",
        "go wtime 999999999999999999 btime 1",
        "setoption name Hash value 32",
        "isready",
        "quit",
    ] {
        tx.send(Input::Line(line.to_string())).unwrap();
    }
    let started = std::time::Instant::now();
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        session.serve(&rx);
        let _ = done_tx.send(());
    });
    // Failing, not hanging, where `quit` waits for the search.
    let ended = done_rx.recv_timeout(Duration::from_secs(5));
    assert!(
        ended.is_ok() && started.elapsed() < Duration::from_secs(1),
        "still running after {:?}",
        started.elapsed()
    );
    drop(tx);
    let lines = captured.lines();
    let bestmove = lines
        .iter()
        .position(|l| l.starts_with("bestmove "))
        .unwrap();
    let ready = lines.iter().position(|l| l == "readyok").unwrap();
    assert!(bestmove < ready, "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
}

/// The loop never waits for input with commands in its backlog and no job running: a
/// job that ended between its two looks at the engine leaves its commands to run at once.
#[test]
fn the_loop_runs_waiting_commands_before_it_waits_for_input() {
    assert_eq!(next_wait(false, false), Wait::RunBacklog);
    assert_eq!(next_wait(false, true), Wait::Block);
    assert_eq!(next_wait(true, false), Wait::Poll);
    assert_eq!(next_wait(true, true), Wait::Poll);
}

/// As a match referee does between games: `ucinewgame` and `isready` right after the
/// `bestmove`, the input left open; every `isready` is answered within a second.
#[test]
fn isready_right_after_a_bestmove_is_answered() {
    let captured = Captured::default();
    let mut session = Connection::new(Player::Search, Output::new(captured.clone())).unwrap();
    let (tx, rx) = std::sync::mpsc::sync_channel(16);
    std::thread::spawn(move || session.serve(&rx));
    let count = |prefix: &str| {
        captured
            .lines()
            .iter()
            .filter(|l| l.starts_with(prefix))
            .count()
    };
    let wait_for = |prefix: &str, n: usize| {
        let started = std::time::Instant::now();
        while count(prefix) < n {
            assert!(
                started.elapsed() < Duration::from_secs(1),
                "no {prefix} number {n} within a second"
            );
            std::thread::sleep(Duration::from_micros(200));
        }
    };
    for game in 1..=300 {
        for line in ["position startpos moves d2d3", "go nodes 60"] {
            tx.send(Input::Line(line.to_string())).unwrap();
        }
        wait_for("bestmove", game);
        for line in ["ucinewgame", "isready"] {
            tx.send(Input::Line(line.to_string())).unwrap();
        }
        wait_for("readyok", game);
    }
    tx.send(Input::Line("quit".to_string())).unwrap();
}

/// `ponderhit` and `stop` belong to the last `go`, even one that still waits behind a
/// search that ends by itself: as uci2wb sends them when the opponent answers at once,
/// before our previous search's thread has quite finished. Acted on at once, they were
/// lost, and the `go ponder` (or `go infinite`) behind them then searched for ever.
#[test]
fn ponderhit_and_stop_wait_for_the_go_before_them() {
    let ponder = "go ponder wtime 1000 btime 1000";
    for (search, release) in [
        (ponder, "ponderhit"),
        (ponder, "stop"),
        ("go infinite", "stop"),
    ] {
        let captured = Captured::default();
        let mut session = Connection::new(Player::Search, Output::new(captured.clone())).unwrap();
        let (tx, rx) = std::sync::mpsc::sync_channel(16);
        // The first search ends by itself, but only after the lines behind it arrive.
        for line in [
            "position startpos",
            "go nodes 300000",
            "position startpos moves d2d3 d7d6",
            search,
            release,
        ] {
            tx.send(Input::Line(line.to_string())).unwrap();
        }
        let captured_lines = captured.clone();
        std::thread::spawn(move || session.serve(&rx));
        let started = std::time::Instant::now();
        let bestmoves = || {
            captured_lines
                .lines()
                .iter()
                .filter(|l| l.starts_with("bestmove "))
                .count()
        };
        // The input stays open: a GUI waits for the second `bestmove`.
        while bestmoves() < 2 && started.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(
            bestmoves(),
            2,
            "{search} then {release}: {:?}",
            captured.lines()
        );
        tx.send(Input::Line("quit".to_string())).unwrap();
    }
}
