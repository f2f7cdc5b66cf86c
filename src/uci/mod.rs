//! The protocol on stdin/stdout: UCI as Fairy-Stockfish speaks it for Breakthrough, and
//! UGI, its game-neutral dialect for generic tournament managers (`ugi` switches to it),
//! and CECP for XBoard and WinBoard (`xboard` hands the session to `cecp.rs`); GTP for
//! OpenSpiel is `gtp.rs` (`breakthrough gtp`).
//!
//! A reader thread turns stdin into a bounded channel, and the command loop never waits
//! for anything but the next line: a search, `go perft` and `bench` run on their own
//! thread. Commands that change or read the game wait, in order, in a backlog while a
//! job that ends by itself runs (so a script may pipe `go depth 10` and more commands
//! and get every answer in order); `stop` and `ponderhit` act at once unless a `go`
//! waits (then they wait behind it, as they are meant for it); `isready` and
//! `quit` at once unless commands wait before them. A `quit` behind waiting commands stops
//! the running job and every job they start, so they run (and answer) at once and the
//! session ends; a second `quit` ends it without them. Lines are read into
//! commands by `command.rs` and answered as `answer.rs` writes them. Every line written
//! is flushed at once; logs go to stderr.

mod answer;
mod cecp;
mod command;
pub(crate) mod gtp;

use std::collections::VecDeque;
use std::io::Write;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::engine::{Engine, EngineError, Player};
use crate::util::lines::{self, Input};
use command::{Command, UciError};

/// How the session speaks: UCI (the default) or UGI (after `ugi`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dialect {
    Uci,
    Ugi,
}

/// Bytes of commands that may wait behind a running job; past this a command is
/// refused with an error line.
const BACKLOG_BYTES: usize = 64 << 20;
/// How often the loop looks whether a running job has finished.
const POLL: Duration = Duration::from_millis(1);
/// At the end of input, how long a search with a limit of its own may still run.
const GRACE: Duration = Duration::from_millis(900);

/// Where protocol lines go (stdout, or a buffer in tests), shared by the command loop
/// and the search thread so their lines never interleave.
#[derive(Clone)]
struct Output(Arc<Mutex<dyn Write + Send>>);

impl Output {
    fn new(sink: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(sink)))
    }

    /// Writes lines and flushes; a closed stdout is ignored (the GUI is gone). The text
    /// goes out in one write, so the reader gets its lines at once: a move and the result
    /// it makes reach the GUI before another engine can answer the move.
    fn lines(&self, text: &str) {
        let mut block = String::with_capacity(text.len() + 1);
        block.push_str(text);
        block.push('\n');
        let mut out = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = out.write_all(block.as_bytes());
        let _ = out.flush();
    }

    fn error(&self, message: impl std::fmt::Display) {
        self.lines(&format!("info string error: {message}"));
    }
}

/// Runs the protocol on stdin/stdout until `quit` or the end of input; `Err` if the
/// engine cannot start.
pub(crate) fn run(player: Player) -> Result<(), EngineError> {
    let mut session = Connection::new(player, Output::new(std::io::stdout()))?;
    session.serve(&lines::spawn_reader(std::io::stdin()));
    Ok(())
}

/// One protocol session: the engine, where answers go, and the commands waiting.
struct Connection {
    engine: Engine,
    out: Output,
    dialect: Dialect,
    backlog: VecDeque<String>,
    backlog_bytes: usize,
    /// A `quit` waits in the backlog: a second one ends the session at once.
    quit_waits: bool,
}

/// What the loop does after a command.
#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
    /// `xboard`: the rest of the session speaks CECP.
    Cecp,
}

/// What the loop does before reading the next line.
#[derive(Debug, PartialEq, Eq)]
enum Wait {
    /// Waits for a line at most [`POLL`]: a job runs, and the commands behind it run
    /// when it ends.
    Poll,
    /// Waits for a line as long as it takes: nothing runs and nothing waits.
    Block,
    /// Runs the commands that wait: the job behind which they were put ended since the
    /// backlog was last looked at. (Blocking here left a GUI's `isready` unanswered
    /// until its next line: seen once in some 40,000 games, on a loaded machine.)
    RunBacklog,
}

fn next_wait(busy: bool, backlog_empty: bool) -> Wait {
    match (busy, backlog_empty) {
        (true, _) => Wait::Poll,
        (false, true) => Wait::Block,
        (false, false) => Wait::RunBacklog,
    }
}

impl Connection {
    fn new(player: Player, out: Output) -> Result<Connection, EngineError> {
        Ok(Connection {
            engine: Engine::new(player)?,
            out,
            dialect: Dialect::Uci,
            backlog: VecDeque::new(),
            backlog_bytes: 0,
            quit_waits: false,
        })
    }

    /// Serves `input` until `quit` or its end.
    fn serve(&mut self, input: &Receiver<Input>) {
        loop {
            match self.run_backlog() {
                Flow::Continue => {}
                Flow::Quit => return self.engine.stop(),
                Flow::Cecp => return self.serve_cecp(input),
            }
            let received = match next_wait(self.engine.busy(), self.backlog.is_empty()) {
                Wait::RunBacklog => continue,
                Wait::Poll => input.recv_timeout(POLL),
                Wait::Block => input.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            let flow = match received {
                Ok(Input::Line(line)) => self.receive(line),
                Ok(Input::TooLong(bytes)) => {
                    self.out
                        .error(format_args!("a line of {bytes} bytes is too long: skipped"));
                    Flow::Continue
                }
                Err(RecvTimeoutError::Timeout) => Flow::Continue,
                Err(RecvTimeoutError::Disconnected) => return self.finish(),
            };
            match flow {
                Flow::Continue => {}
                Flow::Quit => return self.engine.stop(),
                Flow::Cecp => return self.serve_cecp(input),
            }
        }
    }

    /// Hands the rest of the session to CECP.
    fn serve_cecp(&mut self, input: &Receiver<Input>) {
        let mut backlog = std::mem::take(&mut self.backlog);
        let mut cecp = cecp::Cecp::new(&mut self.engine, self.out.clone());
        // Lines that waited behind a UCI job are CECP's first commands.
        while let Some(line) = backlog.pop_front() {
            if !cecp.execute_line(&line) {
                return;
            }
        }
        cecp.serve(input);
    }

    /// Runs the commands that waited, as long as no job that ends by itself runs.
    fn run_backlog(&mut self) -> Flow {
        while self.quit_waits || !self.engine.finishing() {
            let Some(line) = self.backlog.pop_front() else {
                break;
            };
            // A `quit` waits: every job ends now, so the commands before it run (each
            // answered) and the session ends within moments, however long the search.
            if self.quit_waits {
                self.engine.stop();
            }
            self.backlog_bytes -= line.len();
            match self.execute(&line) {
                Flow::Continue => {}
                flow => return flow,
            }
        }
        Flow::Continue
    }

    /// A line as it arrives: acted on now, or put in the backlog behind a running job
    /// or behind commands already waiting.
    fn receive(&mut self, line: String) -> Flow {
        let word = line.split_whitespace().next().unwrap_or("");
        let now = match word {
            // They belong to the last `go`: behind one that still waits, they wait too.
            "stop" | "ponderhit" => !self.go_waits(),
            "quit" => self.backlog.is_empty() || self.quit_waits,
            "isready" => self.backlog.is_empty(),
            _ => self.backlog.is_empty() && !self.engine.finishing(),
        };
        self.quit_waits |= word == "quit" && !now;
        if now {
            return self.execute(&line);
        }
        if self.backlog_bytes + line.len() > BACKLOG_BYTES {
            let head: String = line.chars().take(80).collect();
            self.out.error(format_args!(
                "{} commands already wait for the running job: '{head}' refused",
                self.backlog.len()
            ));
        } else {
            self.backlog_bytes += line.len();
            self.backlog.push_back(line);
        }
        Flow::Continue
    }

    /// True while a `go` waits in the backlog.
    fn go_waits(&self) -> bool {
        self.backlog
            .iter()
            .any(|line| line.split_whitespace().next() == Some("go"))
    }

    /// End of input: the commands already read still run in order; then the last job
    /// gets at most [`GRACE`] more, and a search that waits for `stop` is stopped at once.
    fn finish(&mut self) {
        while let Some(line) = self.backlog.pop_front() {
            self.backlog_bytes -= line.len();
            self.engine.settle();
            match self.execute(&line) {
                Flow::Continue => {}
                Flow::Quit => return self.engine.stop(),
                Flow::Cecp => {
                    let (tx, rx) = std::sync::mpsc::sync_channel(0);
                    drop(tx);
                    return self.serve_cecp(&rx);
                }
            }
        }
        self.engine.settle_within(Some(GRACE));
    }

    /// Carries out one line.
    fn execute(&mut self, line: &str) -> Flow {
        log::debug!("< {line}");
        match Command::parse(line) {
            Ok(Some(command)) => self.command(command),
            Ok(None) => Flow::Continue,
            Err(e) => {
                self.refuse(e);
                Flow::Continue
            }
        }
    }

    fn command(&mut self, command: Command) -> Flow {
        let (engine, out) = (&mut self.engine, &self.out);
        let report = |r: Result<String, EngineError>| match r {
            Ok(text) => out.lines(&text),
            Err(e) => out.error(e),
        };
        match command {
            Command::Uci | Command::Ugi => {
                self.dialect = match command {
                    Command::Ugi => Dialect::Ugi,
                    _ => Dialect::Uci,
                };
                out.lines(&answer::handshake(engine.player(), self.dialect));
                if self.dialect == Dialect::Uci {
                    out.lines(&answer::variant_line(engine.variant()));
                }
            }
            Command::IsReady => out.lines("readyok"),
            Command::Xboard => return Flow::Cecp,
            Command::Quit => return Flow::Quit,
            Command::Stop => engine.stop(),
            Command::PonderHit => engine.ponderhit(),
            Command::NewGame => engine.new_game(),
            Command::SetOption { name, value } => {
                match engine.set_option(&name, value.as_deref()) {
                    Err(e) => out.error(e),
                    // What GUIs built around Fairy-Stockfish read the board from (UCI
                    // only: UGI managers know nothing of it).
                    Ok(())
                        if name.eq_ignore_ascii_case("UCI_Variant")
                            && self.dialect == Dialect::Uci =>
                    {
                        out.lines(&answer::variant_line(engine.variant()))
                    }
                    Ok(()) => {}
                }
            }
            Command::Position { start, moves } => {
                // A refused position leaves none: `go` answers that until a valid one.
                if let Err(e) = engine.set_position(&start, &moves) {
                    out.error(format_args!("position refused: {e}"));
                }
            }
            Command::Go(request) => {
                let (info_out, done_out, dialect) = (out.clone(), out.clone(), self.dialect);
                let started = engine.go(
                    &request,
                    Box::new(move |info| info_out.lines(&answer::info(info))),
                    Box::new(move |result| done_out.lines(&answer::bestmove(&result, dialect))),
                );
                if let Err(e) = started {
                    out.error(e);
                    out.lines("bestmove (none)");
                }
            }
            Command::Perft(depth) => {
                let done_out = out.clone();
                let started = engine.perft(
                    depth,
                    Box::new(move |counts| match counts {
                        Some(counts) => done_out.lines(&answer::perft(depth, counts)),
                        None => done_out.lines("info string perft stopped"),
                    }),
                );
                if let Err(e) = started {
                    out.error(e);
                }
            }
            Command::Bench(depth) => {
                let done_out = out.clone();
                let started = engine.bench(
                    depth,
                    Box::new(move |report| match report {
                        Some(Ok(report)) => done_out.lines(&report.summary_line()),
                        Some(Err(e)) => done_out.error(e),
                        None => done_out.lines("info string bench stopped"),
                    }),
                );
                if let Err(e) = started {
                    out.error(e);
                }
            }
            Command::Board => {
                engine.settle();
                report(answer::board(engine))
            }
            Command::Eval => {
                engine.settle();
                report(answer::eval(engine))
            }
            Command::Query(query) => {
                engine.settle();
                report(answer::query(engine, query))
            }
        }
        Flow::Continue
    }

    /// Answers a line that could not be read: one error line, and whatever the command
    /// owes (a `position` leaves no position; a `go` still gets its `bestmove`).
    fn refuse(&mut self, error: UciError) {
        match error {
            UciError::Position(e) => {
                self.engine.refuse_position(e.clone());
                self.out.error(format_args!("position refused: {e}"));
            }
            UciError::Go(e) => {
                self.engine.settle();
                self.out.error(e);
                self.out.lines("bestmove (none)");
            }
            e => self.out.error(e),
        }
    }
}

#[cfg(test)]
mod fuzz;
#[cfg(test)]
mod tests;
