//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use breakthrough::rulesets::Rules;
use breakthrough::rulesets::breakthrough::{
    DiagonalStep, Geometry, MAX_FILES, MAX_RANKS, MIN_FILES, MIN_RANKS, Position,
};
pub use breakthrough::util::rng::Rng;

/// A new folder in the system's temporary folder for one test, removed with everything
/// in it when dropped, whether the test passed or not.
pub struct Scratch(PathBuf);

impl Scratch {
    /// A folder named by `tag`, the process and a count: tests running at once never
    /// share one.
    pub fn new(tag: &str) -> Scratch {
        static MADE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("bt-{tag}-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        Scratch(dir)
    }

    /// The file `name` in the folder.
    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// The folder itself.
    pub fn dir(&self) -> &std::path::Path {
        &self.0
    }

    /// [`Scratch::path`] as text, for command lines.
    pub fn text(&self, name: &str) -> String {
        self.path(name).display().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `tests/data`: everything the tests read (see its README for where each file came from).
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// Every board size paired with both variants.
pub fn all_starts() -> Vec<Position> {
    let mut out = Vec::new();
    for files in MIN_FILES..=MAX_FILES {
        for ranks in MIN_RANKS..=MAX_RANKS {
            for diagonal in [DiagonalStep::Free, DiagonalStep::CaptureOnly] {
                out.push(Position::start(
                    diagonal,
                    Geometry::get(files, ranks).unwrap(),
                ));
            }
        }
    }
    out
}

/// Positions met along random games from every start: a varied sample of real positions.
pub fn random_positions(seed: u64, games_per_start: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for start in all_starts() {
        for _ in 0..games_per_start {
            let mut pos = start;
            loop {
                out.push(pos);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play(moves[rng.below(moves.len())]);
            }
        }
    }
    out
}

/// The engine binary as a child process, its stdout read on a thread of its own.
pub struct Engine {
    pub child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_breakthrough"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines: rx,
        }
    }

    pub fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{text}").unwrap();
        stdin.flush().unwrap();
    }

    /// Next line within `timeout`, or panic.
    pub fn line(&self, timeout: Duration) -> String {
        self.lines
            .recv_timeout(timeout)
            .unwrap_or_else(|_| panic!("no line within {timeout:?}"))
    }

    /// Lines up to and including the first one starting with `prefix`.
    pub fn until(&self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no '{prefix}' within {timeout:?}; got {lines:?}"));
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// Sends `bad` and `isready`; asserts that exactly one error line comes before
    /// `readyok`.
    pub fn expect_one_error(&mut self, bad: &str) {
        self.send(bad);
        self.send("isready");
        let lines = self.until("readyok", Duration::from_secs(10));
        assert_eq!(lines.len(), 2, "{bad}: {lines:?}");
        assert!(
            lines[0].starts_with("info string error: "),
            "{bad}: {lines:?}"
        );
    }

    /// Asserts nothing more arrives within `wait`.
    pub fn quiet(&self, wait: Duration) {
        if let Ok(line) = self.lines.recv_timeout(wait) {
            panic!("unexpected line: {line}");
        }
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
