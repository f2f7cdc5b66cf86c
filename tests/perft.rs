//! Perft against independent implementations: tests/data/perft-oracle.json (Fairy-Stockfish,
//! OpenSpiel) and our own Fairy-Stockfish cases in tests/data/fs-perft.txt.

mod common;

use breakthrough::registry::{AnyPosition, Variant};
use breakthrough::rulesets::Rules;
use breakthrough::rulesets::breakthrough::Position;
use serde_json::Value;

fn oracle() -> Value {
    let path = common::data_dir().join("perft-oracle.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).expect("perft.json is JSON")
}

/// (variant, fen, depth, expected) for every number in the oracle, skipping depths above `max_depth`.
fn oracle_cases(max_depth: u32) -> Vec<(Variant, String, u32, u64)> {
    let data = oracle();
    let mut cases = Vec::new();
    let mut add = |variant: &str, fen: &str, table: &Value| {
        let variant: Variant = variant.parse().unwrap();
        for (depth, count) in table.as_object().expect("perft table") {
            let depth: u32 = depth.parse().unwrap();
            if depth <= max_depth {
                cases.push((variant, fen.to_string(), depth, count.as_u64().unwrap()));
            }
        }
    };
    for (name, v) in data["variants"].as_object().unwrap() {
        add(
            name,
            v["start"]["fen"].as_str().unwrap(),
            &v["start"]["perft"],
        );
        for p in v["positions"].as_array().unwrap() {
            add(name, p["fen"].as_str().unwrap(), &p["perft"]);
        }
    }
    for b in data["boards"].as_array().unwrap() {
        add(
            b["variant"].as_str().unwrap(),
            b["fen"].as_str().unwrap(),
            &b["perft"],
        );
    }
    assert!(
        cases.len() > 300,
        "oracle unexpectedly small: {}",
        cases.len()
    );
    cases
}

fn check(cases: &[(Variant, String, u32, u64)]) {
    let mut failures = Vec::new();
    for (variant, fen, depth, expected) in cases {
        let pos = AnyPosition::from_fen(fen, *variant).unwrap();
        let got = pos.perft(*depth);
        if got != *expected {
            failures.push(format!(
                "{variant} {fen} depth {depth}: got {got}, expected {expected}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn oracle_up_to_depth_6() {
    check(&oracle_cases(6));
}

/// The 8x8 standard start at depth 7 (3.75e9 leaves): seconds in release, minutes in debug.
#[test]
#[cfg_attr(debug_assertions, ignore = "run in release mode: cargo test --release")]
fn oracle_depth_7() {
    let cases: Vec<_> = oracle_cases(7).into_iter().filter(|c| c.2 == 7).collect();
    assert_eq!(cases.len(), 2, "both variants' start positions");
    check(&cases);
}

#[test]
fn fairy_stockfish_cases() {
    let text = std::fs::read_to_string(common::data_dir().join("fs-perft.txt")).unwrap();
    let mut cases = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split(';').map(str::trim).collect();
        assert_eq!(f.len(), 4, "bad line {line}");
        cases.push((
            f[0].parse().unwrap(),
            f[1].to_string(),
            f[2].parse().unwrap(),
            f[3].parse().unwrap(),
        ));
    }
    assert!(cases.len() >= 10);
    check(&cases);
}

/// Perft by the plainest means: list, play, recurse. Checks the popcount shortcuts.
fn slow_perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut child = *pos;
            child.try_play(m).expect("generated moves are legal");
            slow_perft(&child, depth - 1)
        })
        .sum()
}

#[test]
fn fast_perft_equals_plain_recursion_on_random_positions() {
    let positions = common::random_positions(7, 2);
    for (i, pos) in positions.iter().enumerate().step_by(7) {
        let depth = 1 + (i % 3) as u32;
        assert_eq!(
            pos.perft(depth),
            slow_perft(pos, depth),
            "{pos:?} depth {depth}"
        );
    }
}
