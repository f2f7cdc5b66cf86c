//! `breakthrough solve` and `verify-proof` through the real binary: answers against plain
//! minimax written here with the public rules, the published 5x5 result, proofs checked
//! and corrupted ones refused, and bad arguments.

mod common;

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::{Command, Output};

use breakthrough::rulesets::breakthrough::{DiagonalStep, Geometry, Position};
use breakthrough::rulesets::{Rules, SearchRules};
use common::Scratch;
use serde_json::Value;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_breakthrough"))
        .args(args)
        .output()
        .unwrap()
}

fn json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn one_error_line(out: &Output) -> String {
    assert!(!out.status.success());
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(out.stdout.is_empty());
    text
}

fn temporary(scratch: &Scratch, name: &str) -> PathBuf {
    scratch.path(name)
}

/// Plain minimax: does the side to move win?
fn wins(pos: &Position, memo: &mut HashMap<[u8; Position::BYTES], bool>) -> bool {
    if let Some(outcome) = pos.outcome() {
        return outcome.winner == Some(pos.side_to_move());
    }
    if let Some(&w) = memo.get(&pos.to_bytes()) {
        return w;
    }
    // A move that wins at once ends the game: the rules' own verdict, no search needed.
    let w = pos.winning_move().is_some()
        || pos
            .legal_moves()
            .iter()
            .any(|&m| !wins(&pos.child(m), memo));
    memo.insert(pos.to_bytes(), w);
    w
}

#[test]
fn small_boards_proven_as_minimax_says_and_the_proofs_check() {
    let scratch = Scratch::new("solve");
    for (variant, diagonal) in [
        ("breakthrough", DiagonalStep::Free),
        ("capture-only", DiagonalStep::CaptureOnly),
    ] {
        for board in ["3x4", "4x4", "3x5", "4x5", "5x4"] {
            let (files, ranks) = board.split_once('x').unwrap();
            let root = Position::start(
                diagonal,
                Geometry::get(files.parse().unwrap(), ranks.parse().unwrap()).unwrap(),
            );
            let mut memo = HashMap::new();
            let expected = if wins(&root, &mut memo) {
                "white"
            } else {
                "black"
            };
            let proof = temporary(&scratch, &format!("{variant}-{board}.proof"));
            let proof_arg = proof.to_str().unwrap();
            let out = json(&run(&[
                "solve",
                "--variant",
                variant,
                "--board",
                board,
                "--json",
                "--all-moves",
                "--certificate",
                proof_arg,
            ]));
            assert_eq!(out["winner"], expected, "{variant} {board}: {out}");
            assert_eq!(out["fen"], root.to_fen());
            assert!(out["nodes"].as_u64().unwrap() > 0 && out["seconds"].as_f64().is_some());
            let moves = out["moves"].as_array().unwrap();
            assert_eq!(moves.len(), root.legal_moves().len());
            for v in moves {
                let m = root.parse_move(v["move"].as_str().unwrap()).unwrap();
                let white_wins_after = !wins(&root.child(m), &mut memo);
                assert_eq!(
                    v["winner"],
                    if white_wins_after { "white" } else { "black" },
                    "{variant} {board} {v}"
                );
            }
            match out["move"].as_str() {
                Some(m) => assert!(
                    expected == "white"
                        && !wins(&root.child(root.parse_move(m).unwrap()), &mut memo)
                ),
                None => assert_eq!(expected, "black"),
            }
            let checked = json(&run(&["verify-proof", "--json", proof_arg]));
            assert_eq!(
                (&checked["valid"], &checked["winner"]),
                (&Value::Bool(true), &Value::from(expected))
            );
            assert_eq!(
                checked["longest_plies"],
                out["certificate"]["longest_plies"]
            );

            // One byte of a move changed: refused with one error line, or (rarely) the
            // changed move wins too; never a crash.
            let mut bytes = std::fs::read(&proof).unwrap();
            let last = bytes.len() - 2;
            bytes[last] ^= 0x41;
            let corrupt = temporary(&scratch, &format!("{variant}-{board}.bad"));
            std::fs::write(&corrupt, &bytes).unwrap();
            let out = run(&["verify-proof", corrupt.to_str().unwrap()]);
            if !out.status.success() {
                assert!(one_error_line(&out).contains("not a valid proof"));
            }
            bytes.truncate(bytes.len() - 5);
            std::fs::write(&corrupt, &bytes).unwrap();
            assert!(
                one_error_line(&run(&["verify-proof", corrupt.to_str().unwrap()]))
                    .contains("not a valid proof")
            );
        }
    }
}

/// Published: 5x5 Breakthrough is a win for the second player.
#[test]
fn five_by_five_is_a_second_player_win() {
    let out = json(&run(&["solve", "--board", "5x5", "--json"]));
    assert_eq!(out["winner"], "black", "{out}");
    assert_eq!(out["move"], Value::Null);
}

#[test]
fn a_time_limit_gives_an_unproven_answer() {
    let scratch = Scratch::new("solve");
    let start = std::time::Instant::now();
    let out = json(&run(&[
        "solve",
        "--json",
        "--time-limit",
        "0.5",
        "--hash",
        "64",
    ]));
    assert!(start.elapsed().as_secs() < 10);
    assert_eq!((&out["winner"], &out["move"]), (&Value::Null, &Value::Null));
    let text = run(&[
        "solve",
        "--time-limit",
        "0.3",
        "--hash",
        "64",
        "--certificate",
        temporary(&scratch, "none").to_str().unwrap(),
    ]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("not proven"));
    assert!(!temporary(&scratch, "none").exists());
}

#[test]
fn bad_arguments_and_files() {
    for (args, code) in [
        (&["solve", "--board", "9x9"][..], 2),
        (&["solve", "--board", "5"][..], 2),
        (&["solve", "--time-limit", "0"][..], 2),
        (&["solve", "--fen", "4/4/4/4 w", "--board", "4x4"][..], 2),
        (&["solve", "--variant", "doorbraak"][..], 1),
        (&["solve", "--variant", "chess"][..], 2),
        (&["solve", "--fen", "not a fen"][..], 1),
        (&["verify-proof", "/nonexistent/proof"][..], 1),
        (&["verify-proof", "Cargo.toml"][..], 1),
    ] {
        let out = run(args);
        assert_eq!(
            out.status.code(),
            Some(code),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        one_error_line(&out);
    }
}

/// `--table-file`: a second run goes on from the first's table, also moved into a table
/// of another size; a file that is not a table is refused in one line; a table that
/// cannot be saved still gives the answer, then the error.
#[test]
fn a_table_file_carries_a_solve_over_to_the_next_run() {
    let scratch = Scratch::new("solve");
    let file = temporary(&scratch, "4x5.table");
    let _ = std::fs::remove_file(&file);
    let path = file.to_str().unwrap();
    let solve = |extra: &[&str]| {
        let mut args = vec!["solve", "--board", "4x5", "--threads", "1", "--json"];
        args.extend_from_slice(extra);
        run(&args)
    };
    let first = json(&solve(&["--table-file", path]));
    assert_eq!(first["table_file"]["loaded"], false);
    assert_eq!(first["table_file"]["saved"], true);
    assert!(first["nodes"].as_u64().unwrap() > 1000);
    let second = json(&solve(&["--table-file", path]));
    assert_eq!(second["table_file"]["loaded"], true);
    assert_eq!(second["winner"], first["winner"]);
    assert!(second["nodes"].as_u64().unwrap() <= 2, "{second}");
    let larger = json(&solve(&["--table-file", path, "--hash", "32"]));
    assert_eq!(larger["winner"], first["winner"]);
    assert!(larger["nodes"].as_u64().unwrap() <= 2, "{larger}");
    assert_eq!(std::fs::metadata(&file).unwrap().len(), (32 << 20) + 32);
    let smaller = json(&solve(&["--table-file", path, "--hash", "1"]));
    assert_eq!(smaller["winner"], first["winner"]);
    let too_small = one_error_line(&solve(&["--table-file", path, "--hash", "2"]));
    assert!(too_small.contains("16 MB"), "{too_small}");
    let foreign = one_error_line(&solve(&["--table-file", "Cargo.toml"]));
    assert!(foreign.contains("Cargo.toml"), "{foreign}");
    let unsaved = solve(&["--table-file", "/nonexistent/dir/table"]);
    assert_eq!(unsaved.status.code(), Some(1));
    let answer: Value = serde_json::from_slice(&unsaved.stdout).unwrap();
    assert_eq!(answer["winner"], first["winner"]);
    assert_eq!(answer["table_file"]["saved"], false);
    let error = String::from_utf8_lossy(&unsaved.stderr);
    assert!(
        error.lines().count() == 1 && error.contains("/nonexistent/dir"),
        "{error}"
    );
    std::fs::remove_file(&file).unwrap();
}

/// `solve --split` lists jobs; each run as its own process, their answers merged give
/// plain minimax's value of the whole (4x5, both rule sets, split one and two plies
/// down); a job left out leaves the root open and is named; bad answer files are refused
/// with one line naming the line.
#[test]
fn jobs_run_as_separate_processes_and_merged() {
    let scratch = Scratch::new("solve");
    for (variant, diagonal) in [
        ("breakthrough", DiagonalStep::Free),
        ("capture-only", DiagonalStep::CaptureOnly),
    ] {
        let start = Position::start(diagonal, Geometry::get(4, 5).unwrap());
        let white_wins = wins(&start, &mut HashMap::new());
        for depth in ["1", "2"] {
            let base = [
                "solve",
                "--variant",
                variant,
                "--board",
                "4x5",
                "--split",
                depth,
            ];
            let out = run(&base);
            assert!(out.status.success());
            let jobs: Vec<String> = String::from_utf8_lossy(&out.stdout)
                .lines()
                .map(str::to_owned)
                .collect();
            assert!(jobs.len() > 1, "{variant} depth {depth}: {jobs:?}");
            let mut answers = String::new();
            for fen in &jobs {
                let out = run(&[
                    "solve",
                    "--variant",
                    variant,
                    "--fen",
                    fen,
                    "--threads",
                    "1",
                    "--hash",
                    "16",
                    "--json",
                ]);
                assert!(out.status.success());
                answers.push_str(&String::from_utf8_lossy(&out.stdout));
            }
            let file = temporary(&scratch, &format!("answers-{variant}-{depth}.jsonl"));
            std::fs::write(&file, &answers).unwrap();
            let merged = json(&run(&[
                &base[..],
                &["--merge", file.to_str().unwrap(), "--json"],
            ]
            .concat()));
            let expected = if white_wins { "white" } else { "black" };
            assert_eq!(merged["winner"], expected, "{variant} depth {depth}");
            assert_eq!(merged["jobs_read"], jobs.len());
            assert_eq!(merged["open_jobs"].as_array().unwrap().len(), 0);
            // Without the first job's answer: open, and that job named, unless not needed.
            let rest: String = answers.lines().skip(1).map(|l| format!("{l}\n")).collect();
            std::fs::write(&file, rest).unwrap();
            let partial = json(&run(&[
                &base[..],
                &["--merge", file.to_str().unwrap(), "--json"],
            ]
            .concat()));
            if partial["winner"].is_null() {
                assert_eq!(partial["open_jobs"][0], jobs[0].as_str());
            } else {
                assert_eq!(partial["winner"], expected);
            }
        }
    }
    let file = temporary(&scratch, "bad-answers.jsonl");
    for (text, says) in [
        ("{\"fen\": \"4/4\"}\n", ":1: no 'variant'"),
        (
            "\n{\"variant\": \"capture-only\"}\n",
            ":2: a capture-only answer",
        ),
        ("not json\n", ":1: not JSON"),
    ] {
        std::fs::write(&file, text).unwrap();
        let out = run(&[
            "solve",
            "--board",
            "4x5",
            "--split",
            "1",
            "--merge",
            file.to_str().unwrap(),
        ]);
        let line = one_error_line(&out);
        assert!(line.contains(says), "{line}");
    }
    let out = run(&["solve", "--board", "4x5", "--merge", "x.jsonl"]);
    let line = one_error_line(&out);
    assert!(line.contains("not provided: --split <DEPTH>"), "{line}");
}

/// A reader that stops early (`solve --split 4 | head -1`): one error line, status 1, no
/// panic.
#[test]
fn a_closed_pipe_ends_the_output_with_one_error_line() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_breakthrough"))
        .args(["solve", "--board", "6x6", "--split", "4"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(
        Position::from_fen(first.trim(), DiagonalStep::Free).is_ok(),
        "{first}"
    );
    // The reader is dropped: the pipe is closed with 9318 lines (400 KB) to come, more
    // than a pipe holds.
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stderr);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.contains("cannot write the output"), "{text}");
}

/// The proof database in the repository reads whole: every line is a proven answer of a
/// job of its board, and the merge tells how far the root is.
#[test]
fn the_proof_database_merges() {
    let file =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("proofs/6x6-capture-only.jsonl");
    let lines = std::fs::read_to_string(&file).unwrap().lines().count();
    assert!(lines > 0);
    let split = [
        "solve",
        "--board",
        "6x6",
        "--variant",
        "capture-only",
        "--split",
        "3",
    ];
    let path = file.display().to_string();
    let merged = json(&run(&[&split[..], &["--json", "--merge", &path]].concat()));
    assert_eq!(merged["jobs_read"], lines as u64, "{merged}");
    let jobs = String::from_utf8_lossy(&run(&split).stdout).lines().count();
    // Open jobs and answered ones never add to more than the split's.
    assert!(
        merged["open_jobs"].as_array().unwrap().len() + lines <= jobs,
        "{merged}"
    );
}
