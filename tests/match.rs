//! `breakthrough match` through the real binary, with scripted fake engines
//! (tests/fake_engine.py) for every way an engine can lose outside the rules.

mod common;

use std::path::PathBuf;
use std::process::{Command, Output};

use breakthrough::pgn;
use breakthrough::registry::{AnyPosition, History};
use breakthrough::rulesets::Rules;
use breakthrough::rulesets::breakthrough::{Color, DiagonalStep, Move, Position, START_FEN};
use common::Scratch;
use serde_json::Value;

fn fake(args: &str) -> String {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fake_engine.py");
    format!("cmd={} args=\"{args}\"", script.display())
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_breakthrough"))
        .arg("match")
        .args(args)
        .output()
        .unwrap()
}

fn run_json(name: &str, args: &[&str]) -> (Output, Value) {
    let scratch = Scratch::new("match");
    let json = scratch.text(&format!("{name}.json"));
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--json", &json]);
    let out = run(&all);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    (out, value)
}

/// The bad engine loses both games by `kind`, and the good one never forfeits.
fn assert_forfeits(name: &str, bad: &str, limit: &str, kind: &str) {
    let good = fake("ok");
    let bad = fake(bad);
    let (_, json) = run_json(
        name,
        &[
            "--engine",
            &good,
            "--engine",
            &bad,
            "--each",
            limit,
            "--games",
            "2",
            "--move-timeout",
            "0.5",
        ],
    );
    let engines = json["engines"].as_array().unwrap();
    assert_eq!(engines[0]["wins"], 2, "{json}");
    assert_eq!(engines[1]["forfeits"][kind], 2, "{json}");
    assert_eq!(
        engines[0]["forfeits"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_u64().unwrap())
            .sum::<u64>(),
        0
    );
    for game in json["games"].as_array().unwrap() {
        assert_eq!(game["termination"], kind);
    }
}

#[test]
fn illegal_move_forfeits() {
    assert_forfeits("illegal", "illegal --after 2", "tc=5+0.1", "illegal");
}

#[test]
fn unparseable_move_forfeits() {
    assert_forfeits("garbage", "garbage --after 1", "tc=5+0.1", "unparseable");
}

#[test]
fn missing_bestmove_forfeits() {
    assert_forfeits("none", "none", "depth=2", "no-bestmove");
    assert_forfeits("empty", "empty --after 1", "depth=2", "no-bestmove");
}

/// A crash in each game: the engine is restarted for the second game, and crashes again.
#[test]
fn crash_forfeits_and_engine_restarts() {
    assert_forfeits("crash", "crash --after 2", "tc=5+0.1", "crash");
}

/// An engine that never answers loses on time; one that also ignores `stop` is replaced.
#[test]
fn hung_engine_loses_on_time() {
    assert_forfeits("hang", "hang --after 1", "tc=0.3+0", "time");
    assert_forfeits("deaf", "deaf --after 1", "movetime=100", "time");
    assert_forfeits("deaf-depth", "deaf --after 1", "depth=3", "time");
}

#[test]
fn slow_engine_runs_out_of_clock() {
    // 0.25 s for the game, 0.1 s per move: the third move cannot be made in time.
    assert_forfeits("slow", "ok --delay 100", "tc=0.25+0", "time");
}

#[test]
fn engine_that_never_starts_is_a_setup_error() {
    let out = run(&[
        "--engine",
        &fake("ok"),
        "--engine",
        "cmd=/nonexistent/engine depth=1",
        "--each",
        "depth=1",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("cannot start"), "{err}");
    let out = run(&[
        "--engine",
        &fake("ok"),
        "--engine",
        &fake("nouciok"),
        "--each",
        "depth=1",
        "--startup-timeout",
        "0.5",
    ]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("no uciok"));
}

/// The referee's clock: each go shows the time left after the previous move's
/// thinking time (as the JSON records it) and the increment, to the millisecond.
#[test]
fn clock_accounting_with_increment() {
    let scratch = Scratch::new("match");
    let log = scratch.text("clock.log");
    let logged = fake(&format!("ok --delay 100 --log {log}"));
    let (_, json) = run_json(
        "clock",
        &[
            "--engine",
            &logged,
            "--engine",
            &fake("ok"),
            "--each",
            "tc=2+0.5",
            "--games",
            "1",
        ],
    );
    assert_eq!(json["games"][0]["termination"], "rules");
    let text = std::fs::read_to_string(&log).unwrap();
    let wtimes: Vec<i64> = text
        .lines()
        .filter(|l| l.starts_with("go "))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(w[5..], ["winc", "500", "binc", "500"], "{l}");
            w[2].parse().unwrap()
        })
        .collect();
    assert!(wtimes.len() > 5);
    assert_eq!(wtimes[0], 2000);
    // White's moves are every other one; the clock shows whole milliseconds, rounded down.
    let think: Vec<f64> = json["games"][0]["move_ms"]
        .as_array()
        .unwrap()
        .iter()
        .step_by(2)
        .map(|t| t.as_f64().unwrap())
        .collect();
    let mut clock = 2000.0;
    for (k, pair) in wtimes.windows(2).enumerate() {
        assert!(think[k] >= 100.0, "the engine sleeps 100 ms: {think:?}");
        clock = clock - think[k] + 500.0;
        assert!(
            (pair[1] as f64 - clock).abs() <= 1.0,
            "move {k}: wtime {} where the clock holds {clock:.3} ({wtimes:?}, {think:?})",
            pair[1]
        );
    }
}

/// Each opening is played twice with colours swapped; the PGN re-reads into the same
/// games, which replay legally to the recorded result.
#[test]
fn colours_swap_and_pgn_round_trips() {
    let scratch = Scratch::new("match");
    let pgn_path = scratch.text("games.pgn");
    let openings = scratch.text("openings.txt");
    std::fs::write(
        &openings,
        "# two openings\na2a3 h7h6\nppppp/ppppp/5/PPPPP/PPPPP w - - 0 1 moves b2b3\n",
    )
    .unwrap();
    let (_, json) = run_json(
        "swap",
        &[
            "--engine",
            &fake("ok"),
            "--engine",
            &fake("ok --after 4 --delay 1"),
            "--engine",
            &fake("ok"),
            "--each",
            "depth=1",
            "--games",
            "4",
            "--openings",
            &openings,
            "--pgn",
            &pgn_path,
            "--variant",
            "capture-only",
            "--concurrency",
            "2",
        ],
    );
    let games = json["games"].as_array().unwrap();
    assert_eq!(games.len(), 12, "three pairings of four games");
    let text = std::fs::read_to_string(&pgn_path).unwrap();
    let read = pgn::read_games(&text).unwrap();
    assert_eq!(read.len(), 12);
    let mut by_round: Vec<_> = read
        .iter()
        .map(|g| (g.tag("Round").unwrap().parse::<usize>().unwrap(), g))
        .collect();
    by_round.sort_by_key(|(r, _)| *r);
    // Rounds come in blocks of three pairings per game number: g0 (a, b), g1 (b, a), ...
    for (r, g) in &by_round {
        let partner = by_round
            .iter()
            .find(|(r2, _)| *r2 == if (r - 1) / 3 % 2 == 0 { r + 3 } else { r - 3 })
            .unwrap()
            .1;
        assert_eq!(g.tag("White"), partner.tag("Black"), "round {r}");
        assert_eq!(g.tag("Black"), partner.tag("White"), "round {r}");
        assert_eq!(g.tag("FEN"), partner.tag("FEN"), "same opening, round {r}");
        assert_eq!(g.moves[0], partner.moves[0], "same opening, round {r}");
        assert_eq!(g.tag("Variant"), Some("capture-only"));
        // Replay: every move legal, and a game won by the rules ends where the PGN says.
        let fen = g.tag("FEN").unwrap_or(START_FEN);
        let mut pos = Position::from_fen(fen, DiagonalStep::CaptureOnly).unwrap();
        for m in &g.moves {
            pos.try_play(Move::from_uci(m).unwrap()).unwrap();
        }
        assert_eq!(
            g.tag("PlyCount").unwrap().parse::<usize>().unwrap(),
            g.moves.len()
        );
        let outcome = pos.outcome().expect("every game here ends by the rules");
        let expected = if outcome.winner == Some(Color::White) {
            "1-0"
        } else {
            "0-1"
        };
        assert_eq!(g.result, expected);
        assert_eq!(g.tag("Result"), Some(expected));
    }
    let names: Vec<_> = json["engines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(names, ["Fake ok", "Fake ok (2)", "Fake ok (3)"]);
}

#[test]
fn sprt_stops_the_match_with_a_verdict() {
    let (out, json) = run_json(
        "sprt",
        &[
            "--engine",
            &fake("ok"),
            "--engine",
            &fake("illegal --after 1"),
            "--each",
            "depth=1",
            "--games",
            "1000",
            "--random-plies",
            "2",
            "--sprt",
            "elo0=0",
            "elo1=10",
            "alpha=0.05",
            "beta=0.05",
        ],
    );
    let played = json["games_played"].as_u64().unwrap();
    assert!(played < 1000, "stopped early");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("SPRT elo0=0 elo1=10"), "{stdout}");
    assert_eq!(json["sprt"]["verdict"], "H1");
}

#[test]
fn bad_arguments_get_one_error_line() {
    let ok = fake("ok");
    for args in [
        vec!["--engine", ok.as_str()],
        vec!["--engine", ok.as_str(), "--engine", ok.as_str()],
        vec!["--engine", "cmd=x tc=1+y", "--engine", ok.as_str()],
        vec![
            "--engine",
            ok.as_str(),
            "--engine",
            ok.as_str(),
            "--each",
            "depth=1",
            "--sprt",
            "elo0=9",
            "elo1=1",
        ],
        vec![
            "--engine",
            ok.as_str(),
            "--engine",
            ok.as_str(),
            "--each",
            "depth=1",
            "--openings",
            "/nonexistent",
        ],
        vec![
            "--engine",
            ok.as_str(),
            "--engine",
            ok.as_str(),
            "--each",
            "depth=1",
            "--games",
            "0",
        ],
        vec![
            "--engine",
            ok.as_str(),
            "--engine",
            ok.as_str(),
            "--each",
            "depth=1",
            "--margin",
            "-5",
        ],
    ] {
        let out = run(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error"), "{args:?}: {err}");
        assert!(!err.contains("panicked"));
    }
}

#[test]
fn doorbraak_draws_are_counted() {
    // Two engines that always pass: every game ends at once in a draw by two passes.
    let scratch = Scratch::new("match");
    let pgn_path = scratch.text("draws.pgn");
    let (out, json) = run_json(
        "draws",
        &[
            "--variant",
            "doorbraak",
            "--engine",
            &fake("pass"),
            "--engine",
            &format!("{} name=other", fake("pass")),
            "--each",
            "depth=1",
            "--games",
            "4",
            "--pgn",
            &pgn_path,
        ],
    );
    let engines = json["engines"].as_array().unwrap();
    for e in engines {
        assert_eq!(
            (e["wins"].as_u64(), e["draws"].as_u64()),
            (Some(0), Some(4)),
            "{json}"
        );
        assert_eq!(e["score"], 0.5);
        assert_eq!(e["elo"], 0.0);
    }
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("0 - 0 - 4 [0.500]"), "{text}");
    let games = pgn::read_games(&std::fs::read_to_string(&pgn_path).unwrap()).unwrap();
    assert_eq!(games.len(), 4);
    for g in &games {
        assert_eq!(g.result, "1/2-1/2");
        assert_eq!(g.moves, ["0000", "0000"]);
        assert_eq!(g.tag("Termination"), Some("draw: both sides passed"));
        assert_eq!(g.tag("Variant"), Some("doorbraak"));
    }
}

#[test]
fn doorbraak_games_between_real_players_replay_legally() {
    let scratch = Scratch::new("match");
    let pgn_path = scratch.text("doorbraak.pgn");
    let engine = format!("cmd={} name=engine", env!("CARGO_BIN_EXE_breakthrough"));
    let greedy = format!(
        "cmd={} args=greedy name=greedy",
        env!("CARGO_BIN_EXE_breakthrough")
    );
    let (_, json) = run_json(
        "doorbraak",
        &[
            "--variant",
            "doorbraak",
            "--engine",
            &engine,
            "--engine",
            &greedy,
            "--each",
            "depth=2",
            "--games",
            "4",
            "--random-plies",
            "4",
            "--pgn",
            &pgn_path,
        ],
    );
    assert_eq!(json["games_played"], 4);
    let games = pgn::read_games(&std::fs::read_to_string(&pgn_path).unwrap()).unwrap();
    for g in &games {
        let mut game = History::new(AnyPosition::startpos("doorbraak".parse().unwrap()));
        for m in &g.moves {
            game.play_text(m).unwrap();
        }
        let end = game.outcome().expect("every game ends by the rules");
        assert_eq!(g.result, end.result_text());
    }
}

/// The games of a summary: round, moves and result of each.
fn games_of(json: &Value) -> Vec<(Value, Value, Value)> {
    json["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["round"].clone(), g["moves"].clone(), g["result"].clone()))
        .collect()
}

/// A match killed mid-run goes on with `--resume` from its journal to the same games, the
/// same table and the same PGN as a run that was never stopped; run again, it plays nothing.
#[test]
fn a_killed_match_resumes_to_the_uninterrupted_result() {
    let bin = env!("CARGO_BIN_EXE_breakthrough");
    let small = format!("cmd={bin} name=small nodes=3000");
    let large = format!("cmd={bin} name=large nodes=6000");
    let args = |json: &str, pgn: &str| -> Vec<String> {
        [
            "match",
            "--engine",
            &small,
            "--engine",
            &large,
            "--games",
            "10",
            "--random-plies",
            "4",
            "--seed",
            "11",
            "--json",
            json,
            "--pgn",
            pgn,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    let scratch = Scratch::new("resume");
    let (whole, whole_pgn) = (scratch.text("whole.json"), scratch.text("whole.pgn"));
    let out = Command::new(bin)
        .args(args(&whole, &whole_pgn))
        .output()
        .unwrap();
    assert!(out.status.success());
    let (cut, cut_pgn) = (scratch.text("cut.json"), scratch.text("cut.pgn"));
    let mut child = Command::new(bin)
        .args(args(&cut, &cut_pgn))
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let journal = format!("{cut}.journal");
    let started = std::time::Instant::now();
    // Killed (SIGKILL: nothing is tidied) once three games are in the journal.
    while std::fs::read_to_string(&journal).map_or(0, |t| t.lines().count()) < 4 {
        assert!(started.elapsed().as_secs() < 60, "no games in the journal");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        !std::path::Path::new(&cut).exists(),
        "killed before the summary"
    );
    let mut resume = args(&cut, &cut_pgn);
    resume.push("--resume".into());
    let out = Command::new(bin).args(&resume).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Resuming: "), "{stdout}");
    let read =
        |p: &str| -> Value { serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap() };
    let (a, b) = (read(&whole), read(&cut));
    assert_eq!(games_of(&a).len(), 10);
    assert_eq!(games_of(&a), games_of(&b));
    assert_eq!(a["engines"][0]["wins"], b["engines"][0]["wins"]);
    let moves_of = |p: &str| -> Vec<String> {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('[') && !l.is_empty())
            .map(str::to_string)
            .collect()
    };
    assert_eq!(
        moves_of(&whole_pgn),
        moves_of(&cut_pgn),
        "the PGN holds each game once"
    );
    assert!(
        !std::path::Path::new(&journal).exists(),
        "the summary replaces the journal"
    );
    // Finished: the same command plays nothing; other settings are refused.
    let out = Command::new(bin).args(&resume).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("Nothing to play"));
    let mut other = resume.clone();
    other[2] = format!("cmd={bin} name=small nodes=3001");
    let out = Command::new(bin).args(&other).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("differs in engines[0].limits"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
}
