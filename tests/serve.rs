//! `breakthrough serve` over HTTP: the API the page uses, checked against the library's
//! rules; bad requests; a closed tab; a match published live.
#![cfg(feature = "serve")]

mod web;

use std::io::{BufRead, BufReader};
use std::process::Command;
use std::time::Duration;

use breakthrough::registry::{AnyPosition, History, Variant};
use breakthrough::util::rng::Rng;
use serde_json::{Value, json};
use web::{Server, wait_for};

fn moves_of(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// The game of `state` replayed with the library: its position and end must be the
/// server's.
fn check_with_rules(state: &Value) {
    let variant: Variant = state["variant"].as_str().unwrap().parse().unwrap();
    let start = AnyPosition::from_fen(state["start"].as_str().unwrap(), variant).unwrap();
    let game = History::from_moves(start, &moves_of(state)).expect("every move legal");
    assert_eq!(game.position().to_fen(), state["fen"].as_str().unwrap());
    let legal: Vec<String> = game
        .position()
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .collect();
    match game.outcome() {
        Some(o) => {
            assert_eq!(state["result"]["text"], o.result_text(), "{state}");
            assert!(state["legal"].as_array().unwrap().is_empty());
        }
        None => {
            assert!(
                state["result"].is_null()
                    || state["result"]["reason"].as_str().unwrap().contains("time")
            );
            let served: Vec<String> = state["legal"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap().to_string())
                .collect();
            if state["result"].is_null() {
                assert_eq!(served, legal);
            }
        }
    }
}

#[test]
fn whole_games_against_the_engine_by_the_api() {
    let server = Server::start();
    let mut rng = Rng::new(3);
    for (variant, fen) in [
        ("breakthrough", Some("ppppp/ppppp/5/PPPPP/PPPPP w")),
        ("capture-only", Some("ppppp/ppppp/5/PPPPP/PPPPP w")),
        ("doorbraak", None),
    ] {
        let (status, mut state) = server.post(
            "/api/games",
            json!({"variant": variant, "fen": fen, "engine": "black", "level": 0, "movetime_ms": 30}),
        );
        assert_eq!(status, 201, "{state}");
        let id = state["id"].as_u64().unwrap();
        for _ in 0..150 {
            if !state["result"].is_null() {
                break;
            }
            check_with_rules(&state);
            let legal = state["legal"].as_array().unwrap().clone();
            // A person's random move, then the engine's answer.
            let m = legal[rng.below(legal.len())].as_str().unwrap().to_string();
            let (status, after) = server.post(&format!("/api/games/{id}/move"), json!({"move": m}));
            assert_eq!(status, 200, "{after}");
            state = wait_for("the engine's move", Duration::from_secs(20), || {
                let (_, s) = server.get(&format!("/api/games/{id}"));
                (s["side"] == "white" || !s["result"].is_null()).then_some(s)
            });
        }
        check_with_rules(&state);
        if variant != "doorbraak" {
            // Small Breakthrough boards end quickly; Doorbraak may go on (passes, retreats).
            assert!(
                !state["result"].is_null(),
                "{variant}: not over after 150 moves"
            );
        }
        // The PGN out reads back in as the same game.
        let pgn = ureq::get(&format!("{}/api/games/{id}/pgn", server.url))
            .call()
            .unwrap()
            .into_string()
            .unwrap();
        let (status, copy) = server.post("/api/games", json!({"pgn": pgn, "engine": "none"}));
        assert_eq!(status, 201, "{copy}");
        assert_eq!(copy["moves"], state["moves"]);
        assert_eq!(copy["start"], state["start"]);
        assert_eq!(copy["variant"], variant);
    }
}

#[test]
fn bad_requests_get_a_clear_error_and_the_server_goes_on() {
    let mut server = Server::start();
    let (_, state) = server.post("/api/games", json!({"engine": "none"}));
    let id = state["id"].as_u64().unwrap();
    let cases: Vec<(&str, String, Option<&str>, u16, &str)> = vec![
        ("POST", "/api/games".into(), Some("{bad"), 400, "not JSON"),
        ("POST", "/api/games".into(), Some("[1]"), 400, "JSON object"),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"variant": "chess"}"#),
            400,
            "chess",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"fen": "9/9 w"}"#),
            400,
            "FEN",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"moves": ["a2a5"]}"#),
            400,
            "a2a5",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"level": 21}"#),
            400,
            "level",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"engine": "nobody"}"#),
            400,
            "engine",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"minutes": -1}"#),
            400,
            "minutes",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"pgn": "1. zz *"}"#),
            400,
            "zz",
        ),
        ("GET", "/api/games/999999".into(), None, 404, "no game"),
        (
            "GET",
            "/api/games/abc".into(),
            None,
            400,
            "not a game number",
        ),
        (
            "POST",
            format!("/api/games/{id}/move"),
            Some(r#"{"move": "a2a5"}"#),
            400,
            "illegal move",
        ),
        (
            "POST",
            format!("/api/games/{id}/move"),
            Some(r#"{"mov": "a2a3"}"#),
            400,
            "expected",
        ),
        (
            "POST",
            format!("/api/games/{id}/move"),
            Some(r#"{"move": "x"}"#),
            400,
            "illegal move",
        ),
        (
            "POST",
            format!("/api/games/{id}/takeback"),
            None,
            409,
            "no move",
        ),
        (
            "POST",
            format!("/api/games/{id}/analyse"),
            Some(r#"{"lines": 99}"#),
            400,
            "at most",
        ),
        (
            "POST",
            format!("/api/games/{id}/analyse"),
            Some(r#"{"ply": 5}"#),
            400,
            "ply 5",
        ),
        (
            "POST",
            format!("/api/games/{id}/level"),
            Some(r#"{"level": 30}"#),
            400,
            "level",
        ),
        (
            "POST",
            "/api/live".into(),
            Some(r#"{"type": "move", "game": 7}"#),
            400,
            "live event",
        ),
        (
            "POST",
            "/api/live".into(),
            Some(r#"{"type": "nonsense"}"#),
            400,
            "unknown type",
        ),
        ("GET", "/no/such/page".into(), None, 404, "no such page"),
        ("DELETE", "/api/games".into(), None, 405, "not how"),
        ("GET", format!("/api/games/{id}/move"), None, 405, "not how"),
    ];
    for (method, path, body, status, text) in cases {
        let request = ureq::request(method, &format!("{}{path}", server.url));
        let answer = match body {
            Some(b) => request
                .set("Content-Type", "application/json")
                .send_string(b),
            None => request.call(),
        };
        let (code, json): (u16, Value) = match answer {
            Ok(r) => (r.status(), r.into_json().unwrap_or(Value::Null)),
            Err(ureq::Error::Status(c, r)) => (c, r.into_json().unwrap_or(Value::Null)),
            Err(e) => panic!("{method} {path}: {e}"),
        };
        assert_eq!(code, status, "{method} {path} {body:?}: {json}");
        let error = json["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{method} {path}: no error text in {json}"));
        assert!(
            error.contains(text),
            "{method} {path}: '{error}' lacks '{text}'"
        );
        assert!(!error.contains('\n'), "one line: {error}");
    }
    // The game is as it was, and the server serves.
    let (code, state) = server.get(&format!("/api/games/{id}"));
    assert_eq!(code, 200);
    assert!(moves_of(&state).is_empty());
    assert!(server.alive());
    // The engine's turn: a person's move is refused.
    let (_, state) = server.post(
        "/api/games",
        json!({"engine": "white", "movetime_ms": 2000}),
    );
    let id = state["id"].as_u64().unwrap();
    let (code, answer) = server.post(&format!("/api/games/{id}/move"), json!({"move": "a7a6"}));
    assert_eq!(code, 409, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("engine's turn"));
}

#[test]
fn takeback_goes_back_to_the_persons_move() {
    let server = Server::start();
    let (_, state) = server.post(
        "/api/games",
        json!({"engine": "black", "level": 0, "movetime_ms": 20}),
    );
    let id = state["id"].as_u64().unwrap();
    server.post(&format!("/api/games/{id}/move"), json!({"move": "e2e3"}));
    let state = wait_for("the reply", Duration::from_secs(10), || {
        let (_, s) = server.get(&format!("/api/games/{id}"));
        (moves_of(&s).len() == 2).then_some(s)
    });
    assert_eq!(state["side"], "white");
    let (code, state) = server.post(&format!("/api/games/{id}/takeback"), json!({}));
    assert_eq!(code, 200, "{state}");
    assert!(moves_of(&state).is_empty(), "{state}");
    assert_eq!(state["fen"], state["start"]);
    // The level can change between moves.
    let (code, state) = server.post(&format!("/api/games/{id}/level"), json!({"level": 7}));
    assert_eq!(code, 200);
    assert_eq!(state["level"], 7);
}

#[test]
fn a_flag_falls_on_the_clock() {
    let server = Server::start();
    // 0.01 minutes: 600 ms for the person, who does not move.
    let (_, state) = server.post(
        "/api/games",
        json!({"engine": "black", "minutes": 0.01, "increment": 0}),
    );
    let id = state["id"].as_u64().unwrap();
    assert_eq!(state["clock"]["running"], "white");
    let state = wait_for("the flag", Duration::from_secs(5), || {
        let (_, s) = server.get(&format!("/api/games/{id}"));
        (!s["result"].is_null()).then_some(s)
    });
    assert_eq!(state["result"]["text"], "0-1");
    assert!(
        state["result"]["reason"]
            .as_str()
            .unwrap()
            .contains("on time")
    );
    let (code, _) = server.post(&format!("/api/games/{id}/move"), json!({"move": "a2a3"}));
    assert_eq!(code, 409);
}

/// Reads server-sent events of `path` on a thread; each `data:` line's JSON arrives on
/// the channel. Dropping the receiver and the connection closes the stream.
fn events(server: &Server, path: &str) -> std::sync::mpsc::Receiver<Value> {
    let response = ureq::get(&format!("{}{path}", server.url)).call().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(response.into_reader()).lines() {
            let Ok(line) = line else { return };
            if let Some(data) = line.strip_prefix("data:")
                && tx.send(serde_json::from_str(data.trim()).unwrap()).is_err()
            {
                return; // the test let go: this drops the connection
            }
        }
    });
    rx
}

#[test]
fn analysing_a_finished_position_holds_no_engine() {
    // White has one move to win. With one engine shared, an analysis of the final
    // position must end at once and leave the engine free for the next one.
    let server = Server::start_with(&["--engines", "1"]);
    let (_, state) = server.post(
        "/api/games",
        json!({"engine": "none", "fen": "8/P6p/8/8/8/8/8/8 w", "moves": ["a7a8"]}),
    );
    let id = state["id"].as_u64().unwrap();
    assert_eq!(state["result"]["winner"], "white", "{state}");
    let stream = events(&server, &format!("/api/games/{id}/events"));
    let (code, reply) = server.post(&format!("/api/games/{id}/analyse"), json!({"lines": 1}));
    assert_eq!(code, 200, "{reply}");
    let stopped = loop {
        let ev = stream
            .recv_timeout(Duration::from_secs(5))
            .expect("the analysis ends at once");
        if ev["type"] == "analysis-stopped" {
            break ev;
        }
    };
    assert!(
        stopped["why"].as_str().unwrap().contains("game is over"),
        "{stopped}"
    );
    // The one engine is free: an analysis of the position before the winning move runs.
    let (code, reply) = server.post(
        &format!("/api/games/{id}/analyse"),
        json!({"lines": 1, "ply": 0}),
    );
    assert_eq!(code, 200, "{reply}");
    assert_eq!(reply["thinking"], "analysis");
}

#[test]
fn analysis_streams_lines_and_stops_when_the_tab_closes() {
    let server = Server::start();
    let (_, state) = server.post(
        "/api/games",
        json!({"engine": "none", "moves": ["e2e3", "d7d6"]}),
    );
    let id = state["id"].as_u64().unwrap();
    let stream = events(&server, &format!("/api/games/{id}/events"));
    let first = stream.recv_timeout(Duration::from_secs(5)).unwrap();
    assert_eq!(first["type"], "state");
    let (code, state) = server.post(
        &format!("/api/games/{id}/analyse"),
        json!({"lines": 3, "ply": 1}),
    );
    assert_eq!(code, 200, "{state}");
    assert_eq!(state["thinking"], "analysis");
    // Three lines of the position after 1. e2e3 (Black to move), deeper and deeper.
    let mut seen = [false; 3];
    while !seen.iter().all(|&s| s) {
        let ev = stream
            .recv_timeout(Duration::from_secs(10))
            .expect("info events");
        if ev["type"] == "info" && ev["depth"].as_u64().unwrap() >= 3 {
            let k = ev["multipv"].as_u64().unwrap() as usize;
            assert!((1..=3).contains(&k));
            seen[k - 1] = true;
            let after_e2e3 =
                History::from_moves(AnyPosition::startpos(Variant::default()), &["e2e3"]).unwrap();
            let pv0 = ev["pv"][0].as_str().unwrap();
            assert!(
                after_e2e3.position().parse_move(pv0).is_ok(),
                "{pv0} is Black's move there"
            );
        }
    }
    // The tab closes: the analysis stops by itself within a few seconds.
    drop(stream);
    let state = wait_for(
        "the orphaned analysis to stop",
        Duration::from_secs(15),
        || {
            let (_, s) = server.get(&format!("/api/games/{id}"));
            s["thinking"].is_null().then_some(s)
        },
    );
    assert!(state["analysis"].is_null());
    let (code, health) = server.get("/api/health");
    assert_eq!(code, 200);
    // The allocator's counts: what is in use, within what is resident.
    let (allocated, resident) = (
        &health["memory"]["allocated"],
        &health["memory"]["resident"],
    );
    assert!(allocated.as_u64().unwrap() > 0, "{health}");
    assert!(
        resident.as_u64().unwrap() >= allocated.as_u64().unwrap(),
        "{health}"
    );
}

#[test]
fn a_published_match_is_followed_live() {
    let server = Server::start();
    let live = events(&server, "/api/live/events");
    assert_eq!(
        live.recv_timeout(Duration::from_secs(5)).unwrap()["type"],
        "snapshot"
    );
    let bin = env!("CARGO_BIN_EXE_breakthrough");
    let out = web::published_match(
        &format!("cmd={bin} args=greedy name=one"),
        &format!("cmd={bin} args=greedy name=two"),
        "5+0.05",
        &server.url,
    )
    .output()
    .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Every event arrived, in order, and replays as legal games.
    let mut games: std::collections::HashMap<u64, History> = Default::default();
    let mut ended = 0;
    let mut standing = None;
    while ended < 2 || standing.is_none() {
        let ev = live
            .recv_timeout(Duration::from_secs(10))
            .expect("live events");
        match ev["type"].as_str().unwrap() {
            "match" => assert_eq!(ev["engines"], json!(["one", "two"])),
            "start" => {
                let start =
                    AnyPosition::from_fen(ev["fen"].as_str().unwrap(), Variant::default()).unwrap();
                games.insert(ev["game"].as_u64().unwrap(), History::new(start));
                assert!(ev["clock"].is_array());
            }
            "move" => {
                let g = games
                    .get_mut(&ev["game"].as_u64().unwrap())
                    .expect("started");
                g.play_text(ev["move"].as_str().unwrap())
                    .expect("a legal move");
                assert_eq!(g.position().to_fen(), ev["fen"].as_str().unwrap());
            }
            "end" => {
                let g = &games[&ev["game"].as_u64().unwrap()];
                assert_eq!(ev["result"], g.outcome().expect("over").result_text());
                ended += 1;
            }
            "standing" => standing = (ev["done"] == 2).then_some(ev),
            other => panic!("unexpected event {other}"),
        }
    }
    assert!(
        standing.unwrap()["text"]
            .as_str()
            .unwrap()
            .contains("score of one vs two")
    );
    let (_, snapshot) = server.get("/api/live");
    assert_eq!(snapshot["games"].as_array().unwrap().len(), 2);
    assert!(
        snapshot["games"]
            .as_array()
            .unwrap()
            .iter()
            .all(|g| g["result"].is_string())
    );
}

#[test]
fn a_match_publishing_to_nobody_still_plays() {
    let bin = env!("CARGO_BIN_EXE_breakthrough");
    let out = Command::new(bin)
        .args([
            "match",
            "--engine",
            &format!("cmd={bin} args=greedy"),
            "--engine",
            &format!("cmd={bin} args=greedy"),
            "--each",
            "movetime=20",
            "--games",
            "2",
            "--publish",
            "http://127.0.0.1:9",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("games"));
    let bad = Command::new(bin)
        .args([
            "match",
            "--engine",
            "cmd=x",
            "--engine",
            "cmd=y",
            "--each",
            "movetime=9",
        ])
        .args(["--publish", "localhost"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--publish 'localhost'"));
}

#[test]
fn tabs_each_have_their_own_game() {
    let server = Server::start();
    // Two tabs, the engine moving first in both, thinking at the same time.
    let ids: Vec<u64> = ["breakthrough", "doorbraak"]
        .iter()
        .map(|variant| {
            let (code, state) = server.post(
                "/api/games",
                json!({"variant": variant, "engine": "white", "level": 3, "movetime_ms": 300}),
            );
            assert_eq!(code, 201, "{state}");
            // Thinking, or (at a few hundred nodes) done already.
            assert!(
                state["thinking"] == "move" || moves_of(&state).len() == 1,
                "{state}"
            );
            state["id"].as_u64().unwrap()
        })
        .collect();
    assert_ne!(ids[0], ids[1]);
    let states: Vec<Value> = ids
        .iter()
        .map(|id| {
            wait_for("the engine's first move", Duration::from_secs(10), || {
                let (_, s) = server.get(&format!("/api/games/{id}"));
                (moves_of(&s).len() == 1).then_some(s)
            })
        })
        .collect();
    assert_eq!(states[0]["variant"], "breakthrough");
    assert_eq!(states[1]["variant"], "doorbraak");
    for s in &states {
        check_with_rules(s);
    }
    // A move in one game leaves the other as it was.
    let reply = states[0]["legal"][0].as_str().unwrap().to_string();
    let (code, _) = server.post(
        &format!("/api/games/{}/move", ids[0]),
        json!({"move": reply}),
    );
    assert_eq!(code, 200);
    let (_, other) = server.get(&format!("/api/games/{}", ids[1]));
    assert_eq!(other["moves"], states[1]["moves"]);
    let (_, health) = server.get("/api/health");
    assert_eq!(health["games"], 2);
}

/// One raw HTTP exchange: `request` as bytes, the status of the answer (0 when the
/// connection closed with none) and its text. With `close_write` the sending side is shut
/// after the request, so a request cut short ends at once instead of waiting for the
/// server's header timeout.
fn raw_exchange(server: &Server, request: &[u8], close_write: bool) -> (u16, String) {
    use std::io::{Read, Write};
    let address = server.url.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    let wait = if close_write { 5 } else { 20 };
    stream
        .set_read_timeout(Some(Duration::from_secs(wait)))
        .unwrap();
    let _ = stream.write_all(request);
    if close_write {
        let _ = stream.shutdown(std::net::Shutdown::Write);
    }
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer).to_string();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, text)
}

fn raw(server: &Server, request: &[u8]) -> (u16, String) {
    raw_exchange(server, request, false)
}

/// Games cost no engine: many start at once in milliseconds; at capacity a new one is
/// refused (503, one line of JSON) and no game in play is dropped; a game idle past the
/// limit is closed, its player told so (410), and its place reused.
#[test]
fn at_capacity_new_games_are_refused_and_idle_ones_closed() {
    let server = Server::start_with(&[
        "--max-games",
        "40",
        "--idle-minutes",
        "0.05",
        "--engines",
        "1",
    ]);
    let started = std::time::Instant::now();
    let ids: Vec<u64> = (0..40)
        .map(|_| {
            let (code, state) = server.post("/api/games", json!({"engine": "none"}));
            assert_eq!(code, 201, "{state}");
            state["id"].as_u64().unwrap()
        })
        .collect();
    eprintln!("40 games started in {:?}", started.elapsed());
    let (code, refused) = server.post("/api/games", json!({"engine": "none"}));
    assert_eq!(code, 503, "{refused}");
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("most games (40)"),
        "{refused}"
    );
    // Every game is still there.
    for id in &ids {
        assert_eq!(server.get(&format!("/api/games/{id}")).0, 200);
    }
    // Kept busy, the first stays; the others go idle past 3 s and are closed.
    let first = ids[0];
    for _ in 0..16 {
        std::thread::sleep(Duration::from_millis(250));
        assert_eq!(server.get(&format!("/api/games/{first}")).0, 200);
    }
    let (code, gone) = server.get(&format!("/api/games/{}", ids[1]));
    assert_eq!(code, 410, "{gone}");
    assert!(
        gone["error"].as_str().unwrap().contains("closed after"),
        "{gone}"
    );
    assert_eq!(server.get(&format!("/api/games/{first}")).0, 200);
    let (code, _) = server.post("/api/games", json!({"engine": "none"}));
    assert_eq!(code, 201, "a closed game's place is free");
    let (_, health) = server.get("/api/health");
    assert_eq!(health["games"], 2, "{health}");
    assert_eq!(health["engines"], 1);
}

/// Engines are shared: with one, a second analysis at once is refused (503, try again),
/// while engine moves queue and are all played.
#[test]
fn one_engine_serves_every_game_in_turn() {
    let server = Server::start_with(&["--engines", "1"]);
    let (_, a) = server.post("/api/games", json!({"engine": "none"}));
    let (_, b) = server.post("/api/games", json!({"engine": "none"}));
    let (a, b) = (a["id"].as_u64().unwrap(), b["id"].as_u64().unwrap());
    let (code, _) = server.post(&format!("/api/games/{a}/analyse"), json!({"lines": 1}));
    assert_eq!(code, 200);
    let _stream = events(&server, &format!("/api/games/{a}/events"));
    let (code, busy) = server.post(&format!("/api/games/{b}/analyse"), json!({"lines": 1}));
    assert_eq!(code, 503, "{busy}");
    assert!(busy["error"].as_str().unwrap().contains("busy"), "{busy}");
    server.post(&format!("/api/games/{a}/analyse"), json!({"lines": 0}));
    // Four games where the engine moves first, all at once: each gets its move.
    let ids: Vec<u64> = (0..4)
        .map(|_| {
            let (code, s) = server.post(
                "/api/games",
                json!({"engine": "white", "level": 5, "movetime_ms": 200}),
            );
            assert_eq!(code, 201, "{s}");
            s["id"].as_u64().unwrap()
        })
        .collect();
    for id in ids {
        let state = wait_for("a queued engine move", Duration::from_secs(15), || {
            let (_, s) = server.get(&format!("/api/games/{id}"));
            (moves_of(&s).len() == 1).then_some(s)
        });
        check_with_rules(&state);
    }
}

/// Bodies over the limit get 413, unknown and malformed requests one line of JSON, too
/// many event streams from one client 429, and a sender that stops mid-headers is cut off;
/// the server answers on.
#[test]
fn hostile_requests_are_refused_and_the_server_goes_on() {
    let server = Server::start();
    let big = format!(r#"{{"fen": "{}"}}"#, "x".repeat(100_000));
    let request = format!(
        "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{big}",
        big.len()
    );
    let (status, text) = raw(&server, request.as_bytes());
    assert_eq!(status, 413, "{text}");
    assert!(
        text.contains(r#""error":"the request body is larger than 65536 bytes""#),
        "{text}"
    );
    let (status, text) = raw(
        &server,
        b"BREW /coffee HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert!((400..500).contains(&status), "{text}");
    assert!(text.contains("\"error\""), "{text}");
    let (status, _) = raw(&server, b"\x00\x01garbage\r\n\r\n");
    assert!(status == 400 || status == 0);
    // Sixteen streams from one address, then a refusal.
    let (_, state) = server.post("/api/games", json!({"engine": "none"}));
    let id = state["id"].as_u64().unwrap();
    let streams: Vec<_> = (0..16)
        .map(|_| events(&server, &format!("/api/games/{id}/events")))
        .collect();
    for s in &streams {
        s.recv_timeout(Duration::from_secs(5))
            .expect("the stream's first state");
    }
    let (code, refused) = server.get(&format!("/api/games/{id}/events"));
    assert_eq!(code, 429, "{refused}");
    drop(streams);
    // A client that sends half its headers and stops is cut off (10 s).
    let started = std::time::Instant::now();
    let (status, _) = raw(&server, b"GET /api/health HTTP/1.1\r\nHost: x\r\n");
    assert!(started.elapsed() < Duration::from_secs(15));
    assert!(status == 408 || status == 0, "{status}");
    assert_eq!(server.get("/api/health").0, 200);
}

/// Random and mutated requests, a fixed number: each gets an answer or a closed
/// connection, never a hang, and the server answers a plain request after them.
#[test]
fn fuzzed_requests_never_stop_the_server() {
    let mut server = Server::start();
    let (_, state) = server.post("/api/games", json!({"engine": "black", "movetime_ms": 50}));
    let id = state["id"].as_u64().unwrap();
    let seeds = [
        format!("POST /api/games/{id}/move HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 16\r\nConnection: close\r\n\r\n{{\"move\": \"a2a3\"}}"),
        "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 35\r\nConnection: close\r\n\r\n{\"variant\": \"toy\", \"engine\": \"none\"}".to_string(),
        format!("GET /api/games/{id}/pgn HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
        format!("POST /api/games/{id}/analyse HTTP/1.1\r\nHost: x\r\nContent-Length: 12\r\nConnection: close\r\n\r\n{{\"lines\": 2}}"),
        "POST /api/live HTTP/1.1\r\nHost: x\r\nContent-Length: 17\r\nConnection: close\r\n\r\n{\"type\": \"match\"}".to_string(),
    ];
    let mut rng = Rng::new(44);
    let mut answered = 0;
    for k in 0..400 {
        let mut bytes = seeds[k % seeds.len()].clone().into_bytes();
        let edits = 1 + rng.below(6);
        for _ in 0..edits {
            if bytes.is_empty() {
                bytes.push(b'G');
            }
            let at = rng.below(bytes.len());
            match rng.below(4) {
                0 => bytes[at] = rng.below(256) as u8,
                1 => {
                    bytes.remove(at);
                }
                2 => bytes.insert(at, b"{}[]\":,\r\n 0-9ax\xff"[rng.below(16)]),
                _ => bytes.truncate(at.max(1)),
            }
        }
        // A request cut short waits for the rest until the header timeout: only whole
        // ones count as needing an answer, and the rest are closed by us.
        let (status, _) = raw_exchange(&server, &bytes, true);
        answered += usize::from(status != 0);
        if k % 50 == 0 {
            assert!(server.alive(), "the server died at request {k}");
        }
    }
    assert!(answered > 200, "only {answered} of 400 answered");
    assert!(server.alive());
    assert_eq!(server.get("/api/health").0, 200);
}

/// Off loopback (or with --token) every change needs the token; reading stays open.
#[test]
fn changes_need_the_token_where_one_is_set() {
    for args in [&["--token", "s3cret"][..], &["--host", "0.0.0.0"][..]] {
        let server = Server::start_with(args);
        let token = server.token.clone().expect("the address carries the token");
        if args[0] == "--token" {
            assert_eq!(token, "s3cret");
        } else {
            assert_eq!(token.len(), 32);
        }
        let (code, refused) = server.post("/api/games", json!({"engine": "none"}));
        assert_eq!(code, 401, "{refused}");
        assert!(refused["error"].as_str().unwrap().contains("token"));
        let (code, state) = server.post_token("/api/games", json!({"engine": "none"}));
        assert_eq!(code, 201, "{state}");
        let id = state["id"].as_u64().unwrap();
        // Watching needs none.
        assert_eq!(server.get(&format!("/api/games/{id}")).0, 200);
        assert_eq!(server.get("/api/live").0, 200);
        let (code, _) = server.post(&format!("/api/games/{id}/move"), json!({"move": "a2a3"}));
        assert_eq!(code, 401);
        let (code, _) =
            server.post_token(&format!("/api/games/{id}/move"), json!({"move": "a2a3"}));
        assert_eq!(code, 200);
        let (code, _) = web::call_with(
            "POST",
            &format!("{}/api/live", server.url),
            Some(json!({"type": "match"})),
            Some("wrong"),
        );
        assert_eq!(code, 401);
        // ?token= in the address works too (what `match --publish` is given).
        let (code, _) = web::call(
            "POST",
            &format!("{}/api/live?token={token}", server.url),
            Some(
                json!({"type": "match", "engines": ["a", "b"], "variant": "breakthrough", "games": 2}),
            ),
        );
        assert_eq!(code, 204);
    }
    // On loopback without --token nothing is needed.
    let server = Server::start();
    assert!(server.token.is_none());
    assert_eq!(server.post("/api/games", json!({"engine": "none"})).0, 201);
}

/// Games are kept in the store: a server killed (SIGKILL) and started again on the same
/// file shows the same games, their players go on, and a game where the engine was to
/// move gets its move.
#[test]
fn games_survive_a_killed_server() {
    let dir = std::env::temp_dir().join(format!("bt-store-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("games.sqlite").display().to_string();
    let mut server = Server::start_with(&["--db", &db]);
    let (_, two) = server.post("/api/games", json!({"engine": "none"}));
    let two = two["id"].as_u64().unwrap();
    let mut state = Value::Null;
    for _ in 0..5 {
        let (_, s) = server.get(&format!("/api/games/{two}"));
        let m = s["legal"][0].as_str().unwrap().to_string();
        let (code, s) = server.post(&format!("/api/games/{two}/move"), json!({"move": m}));
        assert_eq!(code, 200);
        state = s;
    }
    // Against the engine with a clock: the person moves, then the server dies at once,
    // before (or while) the engine answers.
    let (_, vs) = server.post(
        "/api/games",
        json!({"engine": "black", "level": 2, "minutes": 5, "increment": 0}),
    );
    let vs = vs["id"].as_u64().unwrap();
    let (code, _) = server.post(&format!("/api/games/{vs}/move"), json!({"move": "a2a3"}));
    assert_eq!(code, 200);
    server.kill();
    let server = Server::start_with(&["--db", &db]);
    let (code, again) = server.get(&format!("/api/games/{two}"));
    assert_eq!(code, 200, "{again}");
    assert_eq!(again["moves"], state["moves"]);
    assert_eq!(again["fen"], state["fen"]);
    let m = again["legal"][0].as_str().unwrap().to_string();
    assert_eq!(
        server
            .post(&format!("/api/games/{two}/move"), json!({"move": m}))
            .0,
        200
    );
    let answered = wait_for(
        "the engine's move after the restart",
        Duration::from_secs(15),
        || {
            let (_, s) = server.get(&format!("/api/games/{vs}"));
            (moves_of(&s).len() == 2).then_some(s)
        },
    );
    assert_eq!(moves_of(&answered)[0], "a2a3");
    assert!(
        answered["clock"]["white"].as_u64().unwrap() > 200_000,
        "{answered}"
    );
    check_with_rules(&answered);
    // New games get new numbers.
    let (_, new) = server.post("/api/games", json!({"engine": "none"}));
    assert!(new["id"].as_u64().unwrap() > vs);
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
