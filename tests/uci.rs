//! The UCI protocol through the real binary: scripted stdin, asserted stdout.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::Engine;

const SHORT: Duration = Duration::from_secs(5);

fn bestmove_of(lines: &[String]) -> String {
    lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string()
}

#[test]
fn uci_lists_identity_and_every_option() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok", SHORT);
    assert!(lines[0].starts_with("id name breakthrough"));
    assert!(lines[1].starts_with("id author "));
    for option in [
        "Hash",
        "Threads",
        "UCI_Variant",
        "MultiPV",
        "Move Overhead",
        "Ponder",
        "Clear Hash",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type"))),
            "{option}: {lines:?}"
        );
    }
    assert!(
        lines
            .iter()
            .any(|l| l.contains("var breakthrough-7x7 var capture-only "))
    );
    // Fairy-Stockfish's description of the board follows.
    assert!(
        e.line(SHORT)
            .starts_with("info string variant breakthrough files 8 ranks 8 ")
    );
    e.send("isready");
    assert_eq!(e.line(SHORT), "readyok");
    // `uci` prints the defaults, not the values set since.
    e.send("setoption name Hash value 32");
    e.send("setoption name Threads value 2");
    e.send("uci");
    let again = e.until("info string variant", SHORT);
    assert!(again.contains(&"option name Hash type spin default 16 min 1 max 65536".to_string()));
    assert!(again.contains(&"option name Threads type spin default 1 min 1 max 256".to_string()));
}

#[test]
fn search_reports_info_then_one_bestmove() {
    let mut e = Engine::start();
    e.send("position startpos moves a2a3 h7h6");
    e.send("go depth 5");
    let lines = e.until("bestmove", SHORT);
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 5, "{lines:?}");
    for (i, info) in infos.iter().enumerate() {
        let w: Vec<&str> = info.split_whitespace().collect();
        assert_eq!(w[2], (i + 1).to_string());
        for key in [
            "seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time", "pv",
        ] {
            assert!(w.contains(&key), "{key} missing in {info}");
        }
    }
    let best = bestmove_of(&lines);
    assert!(infos.last().unwrap().contains(&format!("pv {best}")));
    e.quiet(Duration::from_millis(200));
}

#[test]
fn go_limits_nodes_movetime_clock_and_searchmoves() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go nodes 5000");
    let lines = e.until("bestmove", SHORT);
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    let nodes: u64 = last_info
        .split_whitespace()
        .skip_while(|w| *w != "nodes")
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert!(nodes <= 5000 + 2048, "{last_info}");

    let start = Instant::now();
    e.send("go movetime 300");
    e.until("bestmove", SHORT);
    let took = start.elapsed();
    // Loose bounds: tests share two cores. scripts/bench-latency.sh measures the real figures.
    assert!(
        took >= Duration::from_millis(250) && took < Duration::from_millis(600),
        "{took:?}"
    );

    let start = Instant::now();
    e.send("go wtime 2000 btime 2000 winc 0 binc 0");
    e.until("bestmove", SHORT);
    assert!(start.elapsed() < Duration::from_millis(1000));

    e.send("go depth 4 searchmoves h2h3 g2g3");
    let best = bestmove_of(&e.until("bestmove", SHORT));
    assert!(best == "h2h3" || best == "g2g3", "{best}");

    e.send("go movestogo 1 wtime 100 btime 100");
    e.until("bestmove", Duration::from_millis(250));
}

#[test]
fn finds_and_reports_mates() {
    let mut e = Engine::start();
    // White steps from b7 to the goal rank at once.
    e.send("position fen 8/1P6/8/8/8/8/p7/8 w - - 0 1");
    e.send("go depth 3");
    let lines = e.until("bestmove", SHORT);
    assert!(
        lines.iter().any(|l| l.contains("score mate 1 ")),
        "{lines:?}"
    );
    assert!(["b7a8", "b7b8", "b7c8"].contains(&bestmove_of(&lines).as_str()));
    // White to move cannot stop the b3 pawn: lost in two of Black's moves.
    e.send("position fen 8/8/8/8/8/1p6/8/P7 w");
    e.send("go depth 6");
    let lines = e.until("bestmove", SHORT);
    assert!(
        lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .unwrap()
            .contains("score mate -2 "),
        "{lines:?}"
    );
    e.send("position fen 8/8/8/8/3p4/8/8/P7 b");
    e.send("go mate 3");
    let lines = e.until("bestmove", SHORT);
    assert!(
        lines.iter().any(|l| l.contains("score mate 3 ")),
        "{lines:?}"
    );
}

#[test]
fn finished_game_answers_bestmove_none() {
    let mut e = Engine::start();
    e.send("position fen 8/8/8/8/8/8/8/p7 w");
    e.send("go depth 5");
    assert_eq!(
        e.until("bestmove", SHORT),
        ["info depth 0 score mate 0", "bestmove (none)"]
    );
    e.send("setoption name UCI_Variant value capture-only");
    assert!(
        e.line(SHORT)
            .starts_with("info string variant capture-only ")
    );
    // An infinite (or pondering) search answers only after `stop`, even with no move to
    // search: GUIs and adapters such as uci2wb treat an early answer as a violation.
    for (go, release) in [
        ("go infinite", "stop"),
        ("go ponder wtime 1000 btime 1000", "ponderhit"),
    ] {
        e.send("position fen 8/8/8/8/p7/P7/8/8 w");
        e.send(go);
        std::thread::sleep(Duration::from_millis(100));
        e.send("isready");
        assert_eq!(e.until("readyok", SHORT), ["readyok"], "{go}");
        e.send(release);
        assert_eq!(
            e.until("bestmove", SHORT),
            ["info depth 0 score mate 0", "bestmove (none)"]
        );
    }
}

#[test]
fn stop_and_isready_during_infinite_search() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    e.send("isready");
    let lines = e.until("readyok", SHORT);
    assert!(
        start.elapsed() < Duration::from_millis(250),
        "{:?}",
        start.elapsed()
    );
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("info") || l == "readyok"),
        "{lines:?}"
    );
    let start = Instant::now();
    e.send("stop");
    let lines = e.until("bestmove", SHORT);
    assert!(
        start.elapsed() < Duration::from_millis(250),
        "{:?}",
        start.elapsed()
    );
    assert!(bestmove_of(&lines).len() == 4);
    e.send("stop");
    e.quiet(Duration::from_millis(200));
}

#[test]
fn ponder_then_ponderhit() {
    let mut e = Engine::start();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves a2a3");
    e.send("go ponder wtime 1000 btime 1000");
    // No answer while pondering, even past the time budget.
    std::thread::sleep(Duration::from_millis(600));
    e.send("isready");
    let lines = e.until("readyok", SHORT);
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.send("ponderhit");
    let start = Instant::now();
    e.until("bestmove", SHORT);
    assert!(start.elapsed() < Duration::from_millis(500));
}

#[test]
fn multipv_and_threads() {
    let mut e = Engine::start();
    e.send("setoption name multipv value 3");
    e.send("setoption name THREADS value 2");
    e.send("position startpos");
    e.send("go depth 4");
    let lines = e.until("bestmove", SHORT);
    for k in 1..=3 {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth 4 ") && l.contains(&format!(" multipv {k} "))),
            "{lines:?}"
        );
    }
    let pvs: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 4 "))
        .map(|l| {
            l.split(" pv ")
                .nth(1)
                .unwrap()
                .split_whitespace()
                .next()
                .unwrap()
        })
        .collect();
    assert_eq!(pvs.len(), 3);
    assert!(
        pvs[0] != pvs[1] && pvs[1] != pvs[2] && pvs[0] != pvs[2],
        "{pvs:?}"
    );
}

#[test]
fn bad_input_gets_one_error_line_and_engine_keeps_serving() {
    let mut e = Engine::start();
    for bad in [
        "frobnicate",
        "setoption name Hash value lots",
        "setoption name Hash value 0",
        "setoption name Hash value 65536",
        "setoption name Nonexistent value 3",
        "setoption name UCI_Variant value chess",
        "setoption Hash",
        "setoption name Ponder value maybe",
        "position",
        "position startpos foo",
        "position fen",
        "bench 0",
        "bench 3 4",
    ] {
        e.expect_one_error(bad);
    }
    e.send("\u{1}\u{2}\u{7f} garbage \u{fffd}");
    e.send("isready");
    assert!(e.until("readyok", SHORT)[0].starts_with("info string error: "));
    e.send("");
    e.send("isready");
    assert_eq!(e.until("readyok", SHORT), ["readyok"]);
}

#[test]
fn refused_position_blocks_go_until_a_valid_one() {
    let mut e = Engine::start();
    for bad in [
        "position fen pppppppp/ppppxppp/8/8/8/8/PPPPPPPP/PPPPPPPP w - - 0 1",
        "position startpos moves a2a3 a7a6 b2b4",
        "position startpos moves a2a3 a2a4",
        "position fen 8/8/8/8/8/8/8/8 q",
    ] {
        e.send(bad);
        e.send("go depth 3");
        let lines = e.until("bestmove", SHORT);
        assert_eq!(lines.len(), 3, "{bad}: {lines:?}");
        assert!(
            lines[0].starts_with("info string error: position refused"),
            "{lines:?}"
        );
        assert!(
            lines[1].starts_with("info string error: no valid position"),
            "{lines:?}"
        );
        assert_eq!(lines[2], "bestmove (none)");
        e.send("d");
        assert!(
            e.line(SHORT)
                .starts_with("info string error: no valid position")
        );
    }
    e.send("position startpos moves b2b3");
    e.send("go depth 2");
    let lines = e.until("bestmove", SHORT);
    assert!(lines[0].starts_with("info depth 1"));
    assert!(bestmove_of(&lines).starts_with(|c: char| c.is_ascii_lowercase()));
    // A malformed go: one error, and still exactly one bestmove.
    for bad in ["go depth x", "go wibble", "go searchmoves a2a5", "go nodes"] {
        e.send(bad);
        let lines = e.until("bestmove", SHORT);
        assert_eq!(lines.len(), 2, "{bad}: {lines:?}");
        assert!(lines[0].starts_with("info string error: "));
        assert_eq!(lines[1], "bestmove (none)");
    }
}

#[test]
fn extras_d_eval_perft_bench() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value capture-only");
    e.send("position startpos moves a2a3");
    e.send("d");
    let lines = e.until("Legal moves", SHORT);
    assert!(
        lines
            .iter()
            .any(|l| l == "Fen: pppppppp/pppppppp/8/8/8/P7/1PPPPPPP/PPPPPPPP b - - 0 1"),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l == "Variant: capture-only"));
    e.send("eval");
    let lines = e.until("Final evaluation", SHORT);
    for term in [
        "pawns by square",
        "home guard",
        "hanging (ours)",
        "defended",
        "mobility",
        "race won (ours)",
        "tempo",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(term)),
            "{term}: {lines:?}"
        );
    }
    e.send("position startpos");
    e.send("go perft 3");
    let lines = e.until("Nodes searched", SHORT);
    assert_eq!(lines.last().unwrap(), "Nodes searched: 576");
    assert_eq!(lines.len(), 8 + 2);
    e.send("bench 3");
    let line = e.line(Duration::from_secs(30));
    let w: Vec<&str> = line.split_whitespace().collect();
    assert_eq!((w.len(), w[1], w[3]), (4, "nodes", "nps"), "{line}");
}

#[test]
fn bench_node_count_is_deterministic() {
    let run = || {
        let out = Command::new(env!("CARGO_BIN_EXE_breakthrough"))
            .args(["bench", "6"])
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        text.lines()
            .last()
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(run(), run());
}

#[test]
fn end_of_input_ends_the_process_within_a_second() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    let start = Instant::now();
    e.close_stdin();
    let lines = e.until("bestmove", SHORT);
    assert!(!lines.is_empty());
    loop {
        if e.child.try_wait().unwrap().is_some() {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(1),
            "still running after a second"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn quit_during_search_exits() {
    let mut e = Engine::start();
    e.send("go infinite");
    e.send("quit");
    let start = Instant::now();
    while e.child.try_wait().unwrap().is_none() {
        assert!(start.elapsed() < Duration::from_secs(1));
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Commands piped after a `go` run after its search, as a script expects.
#[test]
fn pipeline_runs_commands_in_order() {
    let out = Command::new(env!("CARGO_BIN_EXE_breakthrough"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child.stdin.take().unwrap().write_all(
                b"position startpos\ngo depth 6\nposition startpos moves a2a3\ngo depth 3\n",
            )?;
            child.wait_with_output()
        })
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let bestmoves: Vec<&str> = text.lines().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(bestmoves.len(), 2, "{text}");
    assert!(text.contains("info depth 6 "), "{text}");
}

#[test]
fn stdout_is_protocol_only() {
    let out = Command::new(env!("CARGO_BIN_EXE_breakthrough"))
        .env("RUST_LOG", "debug")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child
                .stdin
                .take()
                .unwrap()
                .write_all(b"isready\nbench 2\n")?;
            child.wait_with_output()
        })
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "readyok");
    assert_eq!(lines.len(), 2, "{text}");
    assert!(!out.stderr.is_empty(), "logs go to stderr");
}

/// The depth-1 score of the MultiPV line starting with `first`.
fn depth_one_score(lines: &[String], first: &str) -> String {
    let line = lines
        .iter()
        .find(|l| {
            l.starts_with("info depth 1 ")
                && l.split(" pv ").nth(1).and_then(|pv| pv.split(' ').next()) == Some(first)
        })
        .unwrap_or_else(|| panic!("no depth-1 line for {first}: {lines:?}"));
    let w: Vec<&str> = line.split_whitespace().collect();
    let at = w.iter().position(|x| *x == "score").unwrap();
    format!("{} {}", w[at + 1], w[at + 2])
}

#[test]
fn doorbraak_over_uci() {
    let mut e = Engine::start();
    e.send("uci");
    assert!(
        e.until("uciok", SHORT)
            .iter()
            .any(|l| l.contains("var doorbraak"))
    );
    e.send("setoption name UCI_Variant value doorbraak");
    e.send("position startpos moves b2a1");
    e.send("d");
    let lines = e.until("Legal moves", SHORT);
    assert!(
        lines
            .iter()
            .any(|l| l == "Fen: ppppp/ppppp/5/5/5/5/P4/1PPPP/1QPPP b 0"),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.contains("| PP |")),
        "the stack is drawn: {lines:?}"
    );
    assert!(lines.iter().any(|l| l == "Variant: doorbraak"));
    assert!(lines.last().unwrap().ends_with(" 0000"));
    e.send("eval");
    let lines = e.until("Final evaluation", SHORT);
    for term in ["stones", "stones by rank", "stacks", "tempo"] {
        assert!(
            lines.iter().any(|l| l.starts_with(term)),
            "{term}: {lines:?}"
        );
    }
    e.send("position startpos");
    e.send("go perft 2");
    let lines = e.until("Nodes searched", SHORT);
    assert_eq!(lines.last().unwrap(), "Nodes searched: 1359");
    assert_eq!(lines.len(), 37 + 2);
    e.send("go depth 5");
    let best = bestmove_of(&e.until("bestmove", SHORT));
    assert!(
        <breakthrough::rulesets::doorbraak::Position as breakthrough::rulesets::Rules>::startpos(())
            .parse_move(&best)
            .is_ok(),
        "{best}"
    );
    // Two passes end the game in a draw: nothing to play, score 0.
    e.send("position startpos moves 0000 0000");
    e.send("go depth 5");
    assert_eq!(
        e.until("bestmove", SHORT),
        ["info depth 0 score cp 0", "bestmove (none)"]
    );
    // A bad Doorbraak move is refused with a reason.
    e.send("position startpos moves b1b2");
    let line = e.line(SHORT);
    assert!(
        line.starts_with("info string error: position refused: move 1 (b1b2)"),
        "{line}"
    );
}

#[test]
fn doorbraak_search_scores_a_repetition_as_a_draw() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value doorbraak");
    e.send("setoption name MultiPV value 40");
    // Fresh start: a2b3 is scored by the evaluation.
    e.send("position startpos");
    e.send("go depth 1");
    let fresh = e.until("bestmove", SHORT);
    assert_ne!(depth_one_score(&fresh, "a2b3"), "cp 0");
    // After a2b3 a8b7 b3a2 b7a8 the start is back; a2b3 now repeats a position of the game.
    e.send("position startpos moves a2b3 a8b7 b3a2 b7a8");
    e.send("go depth 1");
    let repeated = e.until("bestmove", SHORT);
    assert_eq!(depth_one_score(&repeated, "a2b3"), "cp 0");
    assert_ne!(depth_one_score(&repeated, "c2d3"), "cp 0");
}

/// Nothing wedges the command loop: searches without a limit of their own are infinite
/// (the next command that needs the game stops them), `go perft` and `bench` run like
/// searches, and `isready`, `stop` and `quit` are answered while anything runs.
#[test]
fn nothing_wedges_the_engine() {
    // A bare `go`, and a clock for the side not to move: infinite searches.
    for go in ["go", "go btime 1000 binc 10"] {
        let mut e = Engine::start();
        e.send(go);
        e.send("position startpos moves a2a3");
        e.send("setoption name Hash value 2");
        e.send("isready");
        let lines = e.until("readyok", SHORT);
        assert!(
            lines.iter().any(|l| l.starts_with("bestmove")),
            "{go}: {lines:?}"
        );
        e.send("quit");
        let start = Instant::now();
        while e.child.try_wait().unwrap().is_none() {
            assert!(
                start.elapsed() < Duration::from_secs(1),
                "{go}: quit unanswered"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    // perft and bench: answered while they run, stopped by `stop`, ended by `quit`.
    let mut e = Engine::start();
    for long in ["go perft 12", "bench 40"] {
        e.send(long);
        std::thread::sleep(Duration::from_millis(100));
        let start = Instant::now();
        e.send("isready");
        assert_eq!(e.line(SHORT), "readyok", "{long}");
        assert!(start.elapsed() < Duration::from_millis(250), "{long}");
        e.send("stop");
        assert!(e.line(SHORT).ends_with("stopped"), "{long}");
    }
    // Absurd numbers: defined answers, no overflow.
    e.send("go wtime 999999999999999999 btime 1");
    e.send("isready");
    // The search's first `info` lines may come before the answer.
    let lines = e.until("readyok", SHORT);
    assert!(
        lines[..lines.len() - 1]
            .iter()
            .all(|l| l.starts_with("info ")),
        "{lines:?}"
    );
    e.send("stop");
    assert!(
        e.until("bestmove", SHORT)
            .last()
            .unwrap()
            .starts_with("bestmove ")
    );
    for go in [
        "go depth 0",
        "go nodes 0",
        "go movestogo 0 wtime 50 btime 50",
        "go movetime 0",
    ] {
        e.send(go);
        assert!(
            e.until("bestmove", SHORT)
                .last()
                .unwrap()
                .starts_with("bestmove "),
            "{go}"
        );
    }
    // The last search has answered, but its thread may still be ending: a `go` sent
    // then would wait in the backlog, and a `quit` behind it waits for it by design
    // (commands run in order). Let it end, so that `quit` meets a running perft.
    std::thread::sleep(Duration::from_millis(300));
    e.send("go perft 12");
    e.send("quit");
    let start = Instant::now();
    while e.child.try_wait().unwrap().is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(2),
            "quit during perft unanswered"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A line far longer than any command, and bytes that are no UTF-8: one error line
/// each, and the engine keeps serving.
#[test]
fn huge_and_broken_lines_get_one_error_line() {
    let out = Command::new(env!("CARGO_BIN_EXE_breakthrough"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            let mut stdin = child.stdin.take().unwrap();
            stdin.write_all(&vec![b'x'; 20 << 20])?;
            stdin.write_all(b"\nisready\ngo \xff\xfe depth 2\nisready\n")?;
            drop(stdin);
            child.wait_with_output()
        })
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert!(lines[0].starts_with("info string error: a line of 20971521 bytes is too long"));
    assert_eq!(lines[1], "readyok");
    assert!(lines[2].starts_with("info string error: go: unknown parameter"));
    assert_eq!(&lines[3..], ["bestmove (none)", "readyok"]);
}

/// Ten thousand commands pasted at once: every one answered, in order.
#[test]
fn ten_thousand_commands_at_once() {
    let mut script = String::new();
    for i in 0..2_500 {
        let first = ["a2a3", "b2b3", "c2c3", "d2d3"][i % 4];
        script.push_str(&format!(
            "position startpos moves {first}\ngo depth 1\nisready\nd\n"
        ));
    }
    let out = Command::new(env!("CARGO_BIN_EXE_breakthrough"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child.stdin.take().unwrap().write_all(script.as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let answers: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("bestmove") || *l == "readyok" || l.starts_with("Fen: "))
        .collect();
    assert_eq!(answers.len(), 7_500);
    let start = breakthrough::registry::AnyPosition::startpos(Default::default());
    for (i, three) in answers.chunks(3).enumerate() {
        // `isready` is answered at once, so its `readyok` may come before the search's
        // `bestmove`; `d` waits for the search.
        let mut first_two = [three[0], three[1]];
        first_two.sort();
        assert!(
            first_two[0].starts_with("bestmove ") && first_two[1] == "readyok",
            "{i}"
        );
        let first = ["a2a3", "b2b3", "c2c3", "d2d3"][i % 4];
        let fen = start.child(start.parse_move(first).unwrap()).to_fen();
        assert_eq!(three[2], format!("Fen: {fen}"), "{i}");
    }
}
