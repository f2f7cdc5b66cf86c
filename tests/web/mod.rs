//! What the tests of `breakthrough serve` share (tests/serve.rs, tests/browser.rs): a server
//! in a child process, and JSON over HTTP.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

/// A `breakthrough serve --port 0` child, killed when dropped.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT` (no final slash).
    pub url: String,
    /// The token it printed, if it needs one.
    pub token: Option<String>,
}

impl Server {
    pub fn start() -> Server {
        Server::start_with(&[])
    }

    /// A server with more arguments (limits, a token); without `--db`, it keeps its games
    /// in memory only.
    pub fn start_with(args: &[&str]) -> Server {
        let memory = ["--db", ":memory:"];
        let db: &[&str] = if args.contains(&"--db") { &[] } else { &memory };
        let mut child = Command::new(env!("CARGO_BIN_EXE_breakthrough"))
            .args(["serve", "--port", "0"])
            .args(db)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx
            .recv_timeout(Duration::from_secs(20))
            .expect("the server prints its address");
        let printed = line
            .trim()
            .strip_prefix("serving on ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"));
        let (url, token) = match printed.split_once("/?token=") {
            Some((url, token)) => (url.to_string(), Some(token.to_string())),
            None => (printed.trim_end_matches('/').to_string(), None),
        };
        Server { child, url, token }
    }

    /// Kills the server at once (SIGKILL: nothing is tidied up).
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The process's resident memory (kB) and threads, from /proc.
    pub fn memory_and_threads(&self) -> (u64, u64) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.split_whitespace().next())
                .and_then(|v| v.parse().ok())
                .unwrap_or(0)
        };
        (field("VmRSS:"), field("Threads:"))
    }

    /// A POST carrying the server's token.
    pub fn post_token(&self, path: &str, body: Value) -> (u16, Value) {
        call_with(
            "POST",
            &format!("{}{path}", self.url),
            Some(body),
            self.token.as_deref(),
        )
    }

    /// Whether the process still runs.
    pub fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    pub fn get(&self, path: &str) -> (u16, Value) {
        call("GET", &format!("{}{path}", self.url), None)
    }

    pub fn post(&self, path: &str, body: Value) -> (u16, Value) {
        call("POST", &format!("{}{path}", self.url), Some(body))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One request with an optional JSON body; the status and the JSON answer (`null` when
/// the answer is not JSON).
pub fn call(method: &str, url: &str, body: Option<Value>) -> (u16, Value) {
    call_with(method, url, body, None)
}

/// [`call`] with an `X-Token` header.
pub fn call_with(
    method: &str,
    url: &str,
    body: Option<Value>,
    token: Option<&str>,
) -> (u16, Value) {
    let mut request = ureq::request(method, url).timeout(Duration::from_secs(30));
    if let Some(t) = token {
        request = request.set("X-Token", t);
    }
    let answer = match body {
        Some(b) => request.send_json(b),
        None => request.call(),
    };
    match answer {
        Ok(r) => (r.status(), r.into_json().unwrap_or(Value::Null)),
        Err(ureq::Error::Status(code, r)) => (code, r.into_json().unwrap_or(Value::Null)),
        Err(e) => panic!("{method} {url}: {e}"),
    }
}

/// Polls `probe` until it gives `Some`, for at most `limit`.
pub fn wait_for<T>(what: &str, limit: Duration, mut probe: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = probe() {
            return v;
        }
        assert!(start.elapsed() < limit, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `breakthrough match` of two engines (settings strings), two games at `tc` from random
/// openings, publishing to `url`.
pub fn published_match(first: &str, second: &str, tc: &str, url: &str) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_breakthrough"));
    command.args(["match", "--engine", first, "--engine", second, "--each"]);
    command.arg(format!("tc={tc}"));
    command.args(["--games", "2", "--random-plies", "2", "--publish", url]);
    command
}
