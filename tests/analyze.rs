//! `breakthrough analyze` through the real binary: lines in, JSON out, in order.

mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use breakthrough::registry::{AnyPosition, Variant};
use serde_json::Value;

fn analyze(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_breakthrough"))
        .arg("analyze")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A run refused for its arguments may exit before reading: a broken pipe is fine.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

fn objects(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

#[test]
fn every_line_form_in_order_with_its_keys() {
    let input = "startpos moves a2a3 h7h6\n\
                 # a comment, and a blank line\n\
                 \n\
                 ppppp/ppppp/5/PPPPP/PPPPP w\n\
                 pppp/pppp/4/4/PPPP/PPPP w - - 0 1 moves a2a3\n\
                 8/8/8/8/3p4/8/8/P7 b ; id \"three\" ; bm d4d3\n";
    let out = analyze(&["--depth", "5"], input);
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "nothing on stderr when it is no terminal"
    );
    let objs = objects(&out);
    assert_eq!(objs.len(), 4);
    assert_eq!(objs[0]["input"], "startpos moves a2a3 h7h6");
    assert_eq!(
        objs[3]["epd"],
        serde_json::json!(["id \"three\"", "bm d4d3"])
    );
    for o in &objs {
        for key in [
            "input", "fen", "variant", "depth", "score", "bestmove", "pv", "nodes", "time_ms",
        ] {
            assert!(o.get(key).is_some(), "{key} missing in {o}");
        }
        // The best move is legal in the position given, and the line starts with it.
        let pos = AnyPosition::from_fen(o["fen"].as_str().unwrap(), Variant::default()).unwrap();
        let best = o["bestmove"].as_str().unwrap();
        assert!(pos.parse_move(best).is_ok(), "{o}");
        assert_eq!(o["pv"][0], best);
    }
    assert_eq!(objs[3]["score"], serde_json::json!({"mate": 3}));
    assert!(objs[1]["score"]["cp"].is_i64());
}

#[test]
fn bad_lines_and_finished_games() {
    let out = analyze(
        &["--depth", "3"],
        "startpos\nno fen at all\nstartpos moves a2a4\n8/8/8/8/8/8/8/p7 w\n",
    );
    assert_eq!(out.status.code(), Some(1), "a line failed");
    let objs = objects(&out);
    assert_eq!(objs.len(), 4);
    assert!(objs[0].get("error").is_none());
    assert!(objs[1]["error"].as_str().unwrap().starts_with("bad FEN"));
    assert!(
        objs[2]["error"]
            .as_str()
            .unwrap()
            .starts_with("move 1 (a2a4) refused")
    );
    assert_eq!(objs[3]["bestmove"], Value::Null);
    assert_eq!(objs[3]["result"], "0-1");
    assert_eq!(objs[3]["score"], serde_json::json!({"mate": 0}));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn multipv_mate_variants_and_jobs() {
    let out = analyze(
        &["--variant", "doorbraak", "--depth", "3", "--multipv", "3"],
        "startpos\n",
    );
    let o = &objects(&out)[0];
    assert_eq!(o["variant"], "doorbraak");
    assert_eq!(o["lines"].as_array().unwrap().len(), 3);
    assert_eq!(o["lines"][0]["pv"], o["pv"]);
    let out = analyze(&["--mate", "3"], "8/8/8/8/3p4/8/8/P7 b\nstartpos\n");
    let objs = objects(&out);
    assert_eq!(
        objs[0]["mate_search"],
        serde_json::json!({"result": "win", "moves": 3})
    );
    assert_eq!(
        objs[1]["mate_search"],
        serde_json::json!({"result": "none", "moves": 3})
    );
    // Two positions at a time: the same answers, in the same order.
    let suite = std::fs::read_to_string(common::data_dir().join("forced-wins.epd")).unwrap();
    let some: String = suite.lines().take(60).map(|l| format!("{l}\n")).collect();
    let strip = |out: &Output| -> Vec<Value> {
        let mut objs = objects(out);
        for o in &mut objs {
            o.as_object_mut().unwrap().remove("time_ms");
        }
        objs
    };
    let one = strip(&analyze(&["--depth", "6", "--jobs", "1"], &some));
    let two = strip(&analyze(
        &["--depth", "6", "--jobs", "2", "--threads", "2"],
        &some,
    ));
    assert_eq!(one.len(), 51);
    assert_eq!(
        one.iter().map(|o| &o["input"]).collect::<Vec<_>>(),
        two.iter().map(|o| &o["input"]).collect::<Vec<_>>()
    );
    for (a, b) in one.iter().zip(&two) {
        assert_eq!(a["score"], b["score"], "{a}");
    }
}

#[test]
fn files_and_bad_arguments() {
    let out = Command::new(env!("CARGO_BIN_EXE_breakthrough"))
        .args(["analyze", "--depth", "2", "/nonexistent/positions"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("error: cannot read /nonexistent/positions"),
        "{err}"
    );
    for bad in [["--depth", "0"], ["--jobs", "x"], ["--variant", "chess"]] {
        let out = analyze(&bad, "startpos\n");
        assert!(!out.status.success(), "{bad:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr).lines().count(),
            1,
            "{bad:?}"
        );
    }
}
