//! The page's server under load: many clients at once over HTTP on the loopback address,
//! each starting games (two-person and against the engine), playing random legal moves,
//! reading the state and the PGN, holding an event stream and now and then asking for an
//! analysis, for a fixed time. Checks that every request got its answer or a documented
//! refusal (503 busy for an analysis), and that the games' memory is given back to the
//! system once the clients leave and the games are closed; prints the counts, the latencies (median and
//! 99th percentile of a move and of a state read) and the peak memory and threads.
//!
//! `LOAD_CLIENTS` (default 200) and `LOAD_SECONDS` (default 10, each of two rounds; the report in
//! docs/results.md ran 60) size it. Latencies are printed, not asserted: on a shared
//! two-core machine they measure the machine as much as the server.
#![cfg(feature = "serve")]

mod web;

use std::io::{BufRead, BufReader};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use breakthrough::util::rng::Rng;
use serde_json::{Value, json};
use web::Server;

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[derive(Default)]
struct Tally {
    requests: AtomicU64,
    refused: AtomicU64,
    errors: Mutex<Vec<String>>,
    move_ms: Mutex<Vec<f64>>,
    state_ms: Mutex<Vec<f64>>,
}

impl Tally {
    /// One request; `documented` are the statuses the API promises for this call.
    fn call(
        &self,
        method: &str,
        url: &str,
        body: Option<Value>,
        documented: &[u16],
    ) -> (u16, Value, f64) {
        let started = Instant::now();
        let mut request = ureq::request(method, url).timeout(Duration::from_secs(30));
        if body.is_some() {
            request = request.set("Content-Type", "application/json");
        }
        let answer = match body {
            Some(b) => request.send_json(b),
            None => request.call(),
        };
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        self.requests.fetch_add(1, Ordering::Relaxed);
        let (code, value) = match answer {
            Ok(r) => (r.status(), r.into_json().unwrap_or(Value::Null)),
            Err(ureq::Error::Status(code, r)) => (code, r.into_json().unwrap_or(Value::Null)),
            Err(e) => (0, json!({"error": e.to_string()})),
        };
        if !(200..300).contains(&code) {
            if documented.contains(&code) {
                self.refused.fetch_add(1, Ordering::Relaxed);
            } else {
                self.errors
                    .lock()
                    .unwrap()
                    .push(format!("{method} {url}: {code} {value}"));
            }
        }
        (code, value, ms)
    }
}

fn percentile(values: &mut [f64], p: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    values[((values.len() - 1) as f64 * p).round() as usize]
}

/// One client: games one after another until `stop`.
fn client(url: String, seed: u64, tally: Arc<Tally>, stop: Arc<AtomicBool>) {
    let mut rng = Rng::new(seed);
    while !stop.load(Ordering::Relaxed) {
        let against_engine = rng.below(2) == 0;
        let engine = if against_engine { "black" } else { "none" };
        let (code, state, _) = tally.call(
            "POST",
            &format!("{url}/api/games"),
            Some(json!({"engine": engine, "level": 1, "movetime_ms": 20})),
            &[503],
        );
        if code != 201 {
            std::thread::sleep(Duration::from_millis(200));
            continue;
        }
        let id = state["id"].as_u64().unwrap();
        // The event stream, read on a thread of its own until the game is left.
        let stream_url = format!("{url}/api/games/{id}/events");
        let leave = Arc::new(AtomicBool::new(false));
        let reader = {
            let leave = leave.clone();
            std::thread::spawn(move || {
                if let Ok(r) = ureq::get(&stream_url)
                    .timeout(Duration::from_secs(120))
                    .call()
                {
                    let mut lines = BufReader::new(r.into_reader()).lines();
                    while !leave.load(Ordering::Relaxed) {
                        if lines.next().is_none() {
                            break;
                        }
                    }
                }
            })
        };
        let mut state = state;
        for ply in 0..60 {
            if stop.load(Ordering::Relaxed) || state["result"].is_object() {
                break;
            }
            if against_engine && state["side"] == "black" {
                std::thread::sleep(Duration::from_millis(25));
                let (_, s, ms) = tally.call("GET", &format!("{url}/api/games/{id}"), None, &[]);
                tally.state_ms.lock().unwrap().push(ms);
                state = s;
                continue;
            }
            let legal = state["legal"].as_array().cloned().unwrap_or_default();
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.below(legal.len())].as_str().unwrap().to_string();
            let (code, s, ms) = tally.call(
                "POST",
                &format!("{url}/api/games/{id}/move"),
                Some(json!({"move": m})),
                // Lost on time while waiting would be a 409; none of these games has a clock.
                &[],
            );
            tally.move_ms.lock().unwrap().push(ms);
            if code == 200 {
                state = s;
            }
            if ply % 10 == 3 {
                tally.call("GET", &format!("{url}/api/games/{id}/pgn"), None, &[]);
            }
            if ply % 20 == 7 && !against_engine {
                // Analyses share the engines: "busy, try again" is a documented answer.
                let (code, _, _) = tally.call(
                    "POST",
                    &format!("{url}/api/games/{id}/analyse"),
                    Some(json!({"lines": 1})),
                    &[503],
                );
                std::thread::sleep(Duration::from_millis(50));
                if code == 200 {
                    tally.call(
                        "POST",
                        &format!("{url}/api/games/{id}/analyse"),
                        Some(json!({"lines": 0})),
                        &[],
                    );
                }
            }
            std::thread::sleep(Duration::from_millis(10 + rng.below(30) as u64));
        }
        leave.store(true, Ordering::Relaxed);
        drop(reader);
    }
}

/// One round of `clients` clients for `seconds`; returns (peak memory kB, peak threads).
fn round(server: &Server, clients: u64, seconds: u64, tally: &Arc<Tally>) -> (u64, u64) {
    let stop = Arc::new(AtomicBool::new(false));
    let handles: Vec<_> = (0..clients)
        .map(|k| {
            let (url, tally, stop) = (server.url.clone(), tally.clone(), stop.clone());
            std::thread::spawn(move || client(url, 1000 + k, tally, stop))
        })
        .collect();
    let started = Instant::now();
    let (mut rss_peak, mut threads_peak) = (0, 0);
    while started.elapsed() < Duration::from_secs(seconds) {
        std::thread::sleep(Duration::from_millis(250));
        let (rss, threads) = server.memory_and_threads();
        rss_peak = rss_peak.max(rss);
        threads_peak = threads_peak.max(threads);
    }
    stop.store(true, Ordering::Relaxed);
    for h in handles {
        h.join().unwrap();
    }
    // The clients have left: their games close after 6 s idle.
    std::thread::sleep(Duration::from_secs(9));
    (rss_peak, threads_peak)
}

#[test]
fn many_clients_at_once_get_their_answers() {
    let clients = env_number("LOAD_CLIENTS", 200);
    let seconds = env_number("LOAD_SECONDS", 10);
    // The games kept in a file, as by default (`:memory:` would hold every closed game's
    // row in memory).
    let dir = std::env::temp_dir().join(format!("bt-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("games.sqlite").display().to_string();
    let server = Server::start_with(&[
        "--idle-minutes",
        "0.1",
        "--max-games",
        "100000",
        "--db",
        &db,
    ]);
    std::thread::sleep(Duration::from_millis(300));
    let (rss_start, threads_start) = server.memory_and_threads();
    let tally = Arc::new(Tally::default());
    // Two rounds: the second shows whether what the first left is reused (bounded) or
    // grows.
    let (peak1, threads1) = round(&server, clients, seconds, &tally);
    let (rss_between, _) = server.memory_and_threads();
    let (peak2, threads2) = round(&server, clients, seconds, &tally);
    let (_, health) = server.get("/api/health");
    let (rss_end, threads_end) = server.memory_and_threads();
    let mut moves = tally.move_ms.lock().unwrap().clone();
    let mut states = tally.state_ms.lock().unwrap().clone();
    let errors = tally.errors.lock().unwrap().clone();
    let requests = tally.requests.load(Ordering::Relaxed);
    eprintln!(
        "{clients} clients for 2 x {seconds} s: {requests} requests ({:.0}/s), {} documented refusals, {} errors; \
         move median {:.1} ms, p99 {:.1} ms ({} moves); state read median {:.1} ms, p99 {:.1} ms ({} reads); \
         memory {} MB at the start, {} MB at most in round 1, {} MB after it, {} MB at most in round 2, {} MB after; \
         threads {threads_start} at the start, {} at most, {threads_end} after; games left {}",
        requests as f64 / (2 * seconds) as f64,
        tally.refused.load(Ordering::Relaxed),
        errors.len(),
        percentile(&mut moves, 0.5),
        percentile(&mut moves, 0.99),
        moves.len(),
        percentile(&mut states, 0.5),
        percentile(&mut states, 0.99),
        states.len(),
        rss_start / 1024,
        peak1 / 1024,
        rss_between / 1024,
        peak2 / 1024,
        rss_end / 1024,
        threads1.max(threads2),
        health["games"],
    );
    eprintln!("the allocator after: {}", health["memory"]);
    for e in errors.iter().take(3) {
        eprintln!("error: {e}");
    }
    assert!(
        errors.is_empty(),
        "{} errors, first: {:?}",
        errors.len(),
        &errors[..errors.len().min(5)]
    );
    assert!(moves.len() as u64 > clients, "only {} moves", moves.len());
    assert_eq!(health["games"], 0, "every game closed once idle");
    assert_eq!(health["event_streams"], 0, "{health}");
    // Threads come back down; memory is bounded (a second round reuses what the first
    // left instead of growing) and given back once the games are closed: within 12 MB of
    // the start, the slack being what stays for good (the allocators' own tables, SQLite's
    // page cache of at most 2 MB, the pages of the binary's code that ran).
    assert!(
        threads_end <= threads_start + 4,
        "{threads_start} -> {threads_end}"
    );
    assert!(
        threads1.max(threads2) <= threads_start + 20,
        "{threads1} {threads2}"
    );
    assert!(
        peak2 <= peak1 + peak1 / 4 + 10 * 1024,
        "round 1 peak {peak1} kB, round 2 {peak2} kB"
    );
    assert!(
        rss_end <= rss_start + 12 * 1024,
        "memory {rss_start} kB at the start, {rss_end} kB after the clients left"
    );
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
