//! A UCI engine as a child process: a reader thread turns its stdout into a channel,
//! so every wait has a deadline and a hung engine never blocks the referee.

use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use super::spec::EngineSpec;
use crate::util::lines::Input;

/// What waiting for a line gave.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Received {
    Line(String),
    /// The deadline passed first.
    Timeout,
    /// The engine closed its output: it exited or crashed.
    Closed,
}

pub(crate) struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Input>,
    /// The name from `id name`, if the engine sent one.
    pub(crate) id_name: Option<String>,
    /// Names of the options the engine declared, with their `var` values for combos.
    declared_options: Vec<(String, Vec<String>)>,
}

/// Why an engine could not be started or set up.
#[derive(Debug, thiserror::Error)]
pub(crate) enum StartError {
    #[error("cannot start '{cmd}': {error}")]
    Spawn { cmd: String, error: std::io::Error },
    #[error("'{0}' gave no pipe to talk through")]
    NoPipe(String),
    #[error("'{0}' exited at once")]
    ExitedAtOnce(String),
    #[error("'{cmd}' sent no uciok within {timeout:?}")]
    NoUciOk { cmd: String, timeout: Duration },
    #[error("'{0}' exited before uciok")]
    ExitedBeforeUciOk(String),
    #[error("'{0}' exited while setting options")]
    ExitedSettingOptions(String),
    #[error("'{cmd}' {error}")]
    NotReady { cmd: String, error: SyncError },
}

/// Why `isready` went unanswered.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SyncError {
    #[error("exited")]
    Exited,
    #[error("sent no readyok within {0:?}")]
    NoReadyOk(Duration),
    #[error("exited before readyok")]
    ExitedBeforeReadyOk,
}

impl EngineProcess {
    /// Starts the engine and runs the UCI handshake: `uci`/`uciok`, the options,
    /// then `isready`/`readyok`, each wait bounded by `timeout`.
    pub(crate) fn start(
        spec: &EngineSpec,
        extra_options: &[(String, String)],
        timeout: Duration,
    ) -> Result<EngineProcess, StartError> {
        let mut child = Command::new(&spec.cmd)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|error| StartError::Spawn {
                cmd: spec.cmd.clone(),
                error,
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(StartError::NoPipe(spec.cmd.clone()));
        };
        let rx = crate::util::lines::spawn_reader(stdout);
        let mut engine = EngineProcess {
            child,
            stdin,
            lines: rx,
            id_name: None,
            declared_options: Vec::new(),
        };
        let cmd = || spec.cmd.clone();
        engine
            .send("uci")
            .map_err(|_| StartError::ExitedAtOnce(cmd()))?;
        let deadline = Instant::now() + timeout;
        loop {
            match engine.recv(deadline) {
                Received::Line(line) if line == "uciok" => break,
                Received::Line(line) => engine.note_uci_line(&line),
                Received::Timeout => {
                    return Err(StartError::NoUciOk {
                        cmd: cmd(),
                        timeout,
                    });
                }
                Received::Closed => return Err(StartError::ExitedBeforeUciOk(cmd())),
            }
        }
        for (name, value) in spec.options.iter().chain(extra_options) {
            engine
                .send(&format!("setoption name {name} value {value}"))
                .map_err(|_| StartError::ExitedSettingOptions(cmd()))?;
        }
        engine
            .sync(timeout)
            .map_err(|error| StartError::NotReady { cmd: cmd(), error })?;
        Ok(engine)
    }

    fn note_uci_line(&mut self, line: &str) {
        if let Some(name) = line.strip_prefix("id name ") {
            self.id_name = Some(name.trim().to_string());
        } else if let Some(rest) = line.strip_prefix("option name ") {
            let name = rest
                .split(" type ")
                .next()
                .unwrap_or(rest)
                .trim()
                .to_string();
            let vars = rest
                .split(" var ")
                .skip(1)
                .map(|v| v.split_whitespace().next().unwrap_or("").to_string())
                .collect();
            self.declared_options.push((name, vars));
        }
    }

    /// The `var` values of a declared combo option, if the engine declared it.
    pub(crate) fn declared_option(&self, name: &str) -> Option<&[String]> {
        self.declared_options
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_slice())
    }

    /// Sends one line; an error means the engine is gone.
    pub(crate) fn send(&mut self, line: &str) -> std::io::Result<()> {
        log::debug!("> {line}");
        writeln!(self.stdin, "{line}")?;
        self.stdin.flush()
    }

    /// Waits for the next line until `deadline`.
    /// Waits for the next line until `deadline`. A line too long to keep is skipped.
    pub(crate) fn recv(&mut self, deadline: Instant) -> Received {
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(wait) {
                Ok(Input::Line(line)) => {
                    log::debug!("< {line}");
                    return Received::Line(line);
                }
                Ok(Input::TooLong(bytes)) => log::warn!("skipped a line of {bytes} bytes"),
                Err(RecvTimeoutError::Timeout) => return Received::Timeout,
                Err(RecvTimeoutError::Disconnected) => return Received::Closed,
            }
        }
    }

    /// `isready` then wait for `readyok`, dropping whatever came before it
    /// (a late `bestmove` from a stopped search, for example).
    pub(crate) fn sync(&mut self, timeout: Duration) -> Result<(), SyncError> {
        self.send("isready").map_err(|_| SyncError::Exited)?;
        let deadline = Instant::now() + timeout;
        loop {
            match self.recv(deadline) {
                Received::Line(line) if line == "readyok" => return Ok(()),
                Received::Line(_) => {}
                Received::Timeout => return Err(SyncError::NoReadyOk(timeout)),
                Received::Closed => return Err(SyncError::ExitedBeforeReadyOk),
            }
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(300);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
