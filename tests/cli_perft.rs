//! The `perft` subcommand through the real binary.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_breakthrough"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

#[test]
fn perft_prints_nodes_searched_last() {
    let o = run(&["perft", "3"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "Nodes searched: 11132\n");
    assert!(stderr(&o).contains("leaves/s"));
}

#[test]
fn divide_matches_fairy_stockfish_format() {
    let o = run(&[
        "perft",
        "--divide",
        "--variant",
        "capture-only",
        "--threads",
        "2",
        "2",
    ]);
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 8 + 2, "{out}");
    assert_eq!(lines[0], "a2a3: 8");
    assert_eq!(lines[7], "h2h3: 8");
    assert_eq!(lines[8], "");
    assert_eq!(lines[9], "Nodes searched: 64");
}

#[test]
fn perft_from_fen_any_size() {
    let o = run(&["perft", "--fen", "ppppp/ppppp/5/PPPPP/PPPPP w - - 0 1", "4"]);
    assert_eq!(stdout(&o), "Nodes searched: 23084\n");
    let o = run(&["perft", "--fen", "ppppp/5/5/5/PPPPP w", "0"]);
    assert_eq!(stdout(&o), "Nodes searched: 1\n");
}

/// Bad input: one error line on stderr, nothing on stdout, non-zero exit, no panic.
#[test]
fn bad_arguments_get_one_error_line() {
    for args in [
        &["perft"][..],
        &["perft", "x"],
        &["perft", "-3"],
        &["perft", "--variant", "chess", "2"],
        &["perft", "--fen", "ppppp/pppp/5/PPPPP/PPPPP w", "2"],
        &["perft", "--fen", "", "2"],
        &["perft", "--threads", "0", "2"],
        &["perft", "--bogus", "2"],
        &["frobnicate"],
        &["tune", "--only", "5-2", "games.pgn"],
        &["tune", "--only", "7", "games.pgn"],
        &["tune", "--only", "0-999", "games.pgn"],
        &["tune", "no-such-file.pgn"],
    ] {
        let o = run(args);
        let err = stderr(&o);
        assert!(!o.status.success(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn doorbraak_perft_from_the_command_line() {
    let o = run(&["perft", "--variant", "doorbraak", "--threads", "2", "4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "Nodes searched: 1811746\n");
    let o = run(&[
        "perft",
        "--variant",
        "doorbraak",
        "--divide",
        "--fen",
        "4p/1Q3/1Q3/P4/5/5/5/5/5 w",
        "1",
    ]);
    let out = stdout(&o);
    assert!(
        out.contains("a6b7: 1\n") && out.contains("0000: 1\n"),
        "{out}"
    );
    let o = run(&[
        "perft",
        "--variant",
        "doorbraak",
        "--fen",
        "ppppp/ppppp w",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o), "error: bad FEN: 2 ranks; Doorbraak has 9\n");
    let o = run(&["perft", "--variant", "doorbrak", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown variant 'doorbrak'"),
        "{}",
        stderr(&o)
    );
}
