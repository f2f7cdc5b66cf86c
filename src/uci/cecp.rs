//! CECP, the XBoard/WinBoard protocol (`protover 2`), entered by `xboard`.
//!
//! The engine defines the game for the GUI: `feature variants` lists each rule set and
//! board XBoard can show, and `variant NAME` is answered with the board (`setup`) and the
//! man's moves in Betza notation (`piece`). XBoard knows no goal rank, so the engine
//! claims every result itself (`1-0 {White reaches the last rank}`), after its own move
//! or after the GUI's. Unlike UCI the engine keeps the game and its own side: `go` makes
//! it play the side to move from then on, and every command is acted on at once, also
//! while it thinks (a search ends with `move`, or is dropped by `force`, `new`, `undo`...).
//! Options are the same table as UCI's (`feature option`, `option NAME=VALUE`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};

use super::{GRACE, Output, POLL};
use crate::engine::{Engine, GoRequest, OPTIONS, StartingPoint, find_option};
use crate::registry::{AnyMove, BoardVariant, History};
use crate::rulesets::{Color, EndReason, Outcome};
use crate::search::{Info, Score, SearchResult};
use crate::util::lines::Input;

/// Who the engine plays for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Moves are only recorded (`force`, and after a result).
    Force,
    /// The engine moves for this side whenever it is to move.
    Play(Color),
    /// Searching the current position without end, restarted after every change.
    Analyze,
}

/// The time control of `level`, `st` and `sd`, and the clocks of `time` and `otim`.
#[derive(Clone, Debug)]
struct Clocks {
    /// Moves per session (0: the whole game).
    moves_per_session: u64,
    base_ms: u64,
    increment_ms: u64,
    /// `st`: exactly this long per move.
    per_move_ms: Option<u64>,
    /// `sd`: no deeper than this.
    depth: Option<u32>,
    own_ms: u64,
    other_ms: u64,
}

impl Default for Clocks {
    /// XBoard's own default: 40 moves in 5 minutes.
    fn default() -> Clocks {
        Clocks {
            moves_per_session: 40,
            base_ms: 300_000,
            increment_ms: 0,
            per_move_ms: None,
            depth: None,
            own_ms: 300_000,
            other_ms: 300_000,
        }
    }
}

/// One CECP session; it serves until `quit` or the end of input.
pub(super) struct Cecp<'a> {
    engine: &'a mut Engine,
    out: Output,
    start: StartingPoint,
    game: History,
    mode: Mode,
    clocks: Clocks,
    /// `post`: thinking output on. Shared with the running search's report sink.
    post: Arc<AtomicBool>,
    /// Counts searches started; a result that is not the latest one's is dropped.
    search_id: u64,
    /// Whether the latest search is the engine's move (not an analysis).
    searching_move: bool,
    results: Receiver<(u64, SearchResult<AnyMove>)>,
    results_in: Sender<(u64, SearchResult<AnyMove>)>,
    /// The game has ended (claimed, or `result` received): no more moves.
    over: bool,
}

/// What is wrong with a CECP command.
#[derive(Debug, thiserror::Error)]
enum CecpError {
    #[error("Error (unknown command): {0}")]
    Unknown(String),
    #[error("Error ({reason}): {command}")]
    Refused { reason: String, command: String },
    #[error("Illegal move ({reason}): {text}")]
    IllegalMove { reason: String, text: String },
}

fn refused(reason: impl std::fmt::Display, command: &str) -> CecpError {
    CecpError::Refused {
        reason: reason.to_string(),
        command: command.to_string(),
    }
}

impl<'a> Cecp<'a> {
    pub(super) fn new(engine: &'a mut Engine, out: Output) -> Cecp<'a> {
        engine.stop();
        let (results_in, results) = channel();
        let game = History::new(engine.variant().startpos());
        Cecp {
            engine,
            out,
            start: StartingPoint::StartPos,
            game,
            mode: Mode::Play(Color::Black),
            clocks: Clocks::default(),
            post: Arc::new(AtomicBool::new(false)),
            search_id: 0,
            searching_move: false,
            results,
            results_in,
            over: false,
        }
    }

    /// Serves `input` until `quit` or its end.
    pub(super) fn serve(&mut self, input: &Receiver<Input>) {
        loop {
            let busy = self.engine.busy();
            while let Ok((id, result)) = self.results.try_recv() {
                self.search_done(id, result);
            }
            let received = if busy {
                input.recv_timeout(POLL)
            } else {
                input.recv().map_err(|_| RecvTimeoutError::Disconnected)
            };
            match received {
                Ok(Input::Line(line)) => {
                    if !self.execute_line(&line) {
                        break;
                    }
                }
                Ok(Input::TooLong(bytes)) => self.out.lines(&format!(
                    "Error (a line of {bytes} bytes is too long): skipped"
                )),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    // The end of input: the engine's move still comes if it is near.
                    if self.searching_move {
                        self.engine.settle_within(Some(GRACE));
                        while let Ok((id, result)) = self.results.try_recv() {
                            self.search_done(id, result);
                        }
                    }
                    break;
                }
            }
        }
        self.drop_search();
    }

    /// Carries out one line; false on `quit`.
    pub(super) fn execute_line(&mut self, line: &str) -> bool {
        log::debug!("< {line}");
        let trimmed = line.trim();
        let (word, rest) = trimmed
            .split_once(char::is_whitespace)
            .map_or((trimmed, ""), |(w, r)| (w, r.trim()));
        if word == "quit" {
            return false;
        }
        if let Err(e) = self.command(word, rest, trimmed) {
            self.out.lines(&e.to_string());
        }
        true
    }

    fn command(&mut self, word: &str, rest: &str, line: &str) -> Result<(), CecpError> {
        match word {
            "" | "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "hard" | "easy" | "bk" | "hint" | "draw" | "." | "egtpath" => {}
            "protover" => self.features(),
            "new" => self.new_game(),
            "variant" => self.variant(rest)?,
            "force" => {
                self.drop_search();
                self.mode = Mode::Force;
            }
            "go" => {
                self.drop_search();
                self.mode = Mode::Play(self.game.position().side_to_move());
                self.next();
            }
            "playother" => {
                self.drop_search();
                self.mode = Mode::Play(self.game.position().side_to_move().opponent());
            }
            "usermove" => self.user_move(rest)?,
            "?" => {
                // Move now: the search answers with the best move found so far.
                if self.searching_move {
                    self.engine.stop();
                }
            }
            "ping" => self.out.lines(&format!("pong {rest}")),
            "result" => {
                self.drop_search();
                self.over = true;
                if self.mode != Mode::Analyze {
                    self.mode = Mode::Force;
                }
            }
            "setboard" => self.set_board(rest)?,
            "undo" => self.take_back(1, line)?,
            "remove" => self.take_back(2, line)?,
            "post" => self.post.store(true, Ordering::Relaxed),
            "nopost" => self.post.store(false, Ordering::Relaxed),
            "analyze" => {
                self.mode = Mode::Analyze;
                self.next();
            }
            "exit" => {
                self.drop_search();
                if self.mode == Mode::Analyze {
                    self.mode = Mode::Force;
                }
            }
            "level" => self.level(rest, line)?,
            "st" => {
                let seconds: f64 = parse_number(rest, line)?;
                self.clocks.per_move_ms = Some((seconds * 1000.0) as u64);
            }
            "sd" => self.clocks.depth = Some(parse_number(rest, line)?),
            "time" => self.clocks.own_ms = parse_number::<u64>(rest, line)?.saturating_mul(10),
            "otim" => self.clocks.other_ms = parse_number::<u64>(rest, line)?.saturating_mul(10),
            "memory" => self.set_option("Hash", rest, line)?,
            "cores" => self.set_option("Threads", rest, line)?,
            "option" => {
                let (name, value) = rest.split_once('=').unwrap_or((rest, ""));
                self.set_option(name, value, line)?;
            }
            "edit" | "nps" | "pause" | "resume" => {
                return Err(refused("not supported", line));
            }
            _ if self.game.position().is_move_text(word) => self.user_move(word)?,
            _ => return Err(CecpError::Unknown(line.to_string())),
        }
        Ok(())
    }

    /// The answer to `protover`: what XBoard may send, the variants, the options.
    fn features(&self) {
        let variants: Vec<&str> = BoardVariant::all()
            .filter(|v| v.rules.xboard_man().is_some())
            .map(BoardVariant::name)
            .collect();
        let mut lines = vec![
            "feature done=0".to_string(),
            format!(
                "feature setboard=1 usermove=1 ping=1 sigint=0 sigterm=0 colors=0 analyze=1 \
                 time=1 draw=0 reuse=1 memory=1 smp=1 playother=1 \
                 myname=\"{} {}\" variants=\"{}\"",
                self.engine.player().name(),
                env!("CARGO_PKG_VERSION"),
                variants.join(",")
            ),
        ];
        lines.extend(
            OPTIONS
                .iter()
                .filter(|o| !is_taken_over(o.name))
                .map(|o| o.cecp_feature()),
        );
        lines.push("feature done=1".to_string());
        self.out.lines(&lines.join("\n"));
    }

    fn new_game(&mut self) {
        self.drop_search();
        if self.engine.variant() != BoardVariant::default() {
            let _ = self
                .engine
                .set_option("UCI_Variant", Some(BoardVariant::default().name()));
        }
        self.engine.new_game();
        self.start = StartingPoint::StartPos;
        self.game = History::new(self.engine.variant().startpos());
        self.mode = Mode::Play(Color::Black);
        self.clocks.depth = None;
        self.clocks.own_ms = self.clocks.base_ms;
        self.clocks.other_ms = self.clocks.base_ms;
        self.over = false;
    }

    /// `variant NAME`: the rule set and board, then XBoard's description of them.
    fn variant(&mut self, name: &str) -> Result<(), CecpError> {
        self.drop_search();
        let variant: BoardVariant = name.parse().map_err(|e| refused(e, name))?;
        let Some(man) = variant.rules.xboard_man() else {
            return Err(refused(
                "XBoard cannot show this game: a move is more than one man changing square",
                &format!("variant {name}"),
            ));
        };
        self.engine
            .set_option("UCI_Variant", Some(variant.name()))
            .map_err(|e| refused(e, name))?;
        self.start = StartingPoint::StartPos;
        self.game = History::new(variant.startpos());
        self.over = false;
        self.out.lines(&setup_lines(variant, man));
        Ok(())
    }

    fn set_board(&mut self, fen: &str) -> Result<(), CecpError> {
        self.drop_search();
        let variant = self.engine.variant();
        let start = crate::registry::AnyPosition::from_fen(fen, variant.rules)
            .map_err(|e| refused(format_args!("bad FEN: {e}"), &format!("setboard {fen}")))?;
        self.start = StartingPoint::Fen(start.to_fen());
        self.game = History::new(start);
        self.over = false;
        if self.mode == Mode::Analyze {
            self.next();
        }
        Ok(())
    }

    /// A move of the GUI (its user, or the other engine).
    fn user_move(&mut self, text: &str) -> Result<(), CecpError> {
        let analyzing = self.mode == Mode::Analyze;
        self.drop_search();
        let illegal = |reason: String| CecpError::IllegalMove {
            reason,
            text: text.to_string(),
        };
        if self.game.outcome().is_some() {
            return Err(illegal("the game is over".to_string()));
        }
        let position = self.game.position();
        // XBoard appends a promotion suffix to a pawn reaching the last rank (`b2a1.`)
        // where a GUI set the man up as a pawn (uci2wb does).
        let m = position.parse_move(text).or_else(|e| {
            let bare = text.trim_end_matches(['.', '=', 'p', 'P']);
            if bare.len() < text.len() && text.len() - bare.len() <= 2 {
                position.parse_move(bare)
            } else {
                Err(e)
            }
        });
        let m = m.map_err(|e| illegal(e.to_string()))?;
        self.game.try_play(m).map_err(|e| illegal(e.to_string()))?;
        if !analyzing {
            self.claim_result();
        }
        self.next();
        Ok(())
    }

    fn take_back(&mut self, plies: usize, line: &str) -> Result<(), CecpError> {
        self.drop_search();
        let moves = self.game.moves();
        if moves.len() < plies {
            return Err(refused("no move to take back", line));
        }
        let kept: Vec<String> = moves[..moves.len() - plies]
            .iter()
            .map(AnyMove::to_string)
            .collect();
        let start = self.game.start().clone();
        self.game = History::from_moves(start, &kept).map_err(|e| refused(e, line))?;
        self.over = false;
        if self.mode == Mode::Analyze {
            self.next();
        }
        Ok(())
    }

    /// `level MPS BASE INC`: BASE in minutes or `minutes:seconds`, INC in seconds.
    fn level(&mut self, rest: &str, line: &str) -> Result<(), CecpError> {
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let [moves, base, increment] = fields[..] else {
            return Err(refused("expected level MOVES BASE INCREMENT", line));
        };
        let moves: u64 = parse_number(moves, line)?;
        let base_ms = match base.split_once(':') {
            Some((minutes, seconds)) => {
                parse_number::<u64>(minutes, line)? * 60_000
                    + parse_number::<u64>(seconds, line)? * 1000
            }
            None => (parse_number::<f64>(base, line)? * 60_000.0) as u64,
        };
        let increment: f64 = parse_number(increment, line)?;
        self.clocks.moves_per_session = moves;
        self.clocks.base_ms = base_ms;
        self.clocks.increment_ms = (increment * 1000.0) as u64;
        self.clocks.per_move_ms = None;
        self.clocks.own_ms = base_ms;
        self.clocks.other_ms = base_ms;
        Ok(())
    }

    fn set_option(&mut self, name: &str, value: &str, line: &str) -> Result<(), CecpError> {
        let spec = find_option(name).map_err(|e| refused(e, line))?;
        if is_taken_over(spec.name) {
            return Err(refused("set by the variant command", line));
        }
        let value = spec.value_from_cecp(value);
        self.engine
            .set_option(spec.name, Some(&value))
            .map_err(|e| refused(e, line))
    }

    /// After any change: claims a result the game has reached (when the engine plays a
    /// side), or starts the search the mode asks for.
    fn next(&mut self) {
        if self.over || self.game.outcome().is_some() {
            if let Mode::Play(_) = self.mode {
                self.claim_result();
            }
            if self.mode != Mode::Analyze {
                return;
            }
        }
        match self.mode {
            Mode::Force => {}
            Mode::Play(side) if side != self.game.position().side_to_move() => {}
            Mode::Play(_) => self.think(false),
            Mode::Analyze => self.think(true),
        }
    }

    /// Starts a search of the current position: the engine's move, or an analysis.
    fn think(&mut self, analysis: bool) {
        let moves: Vec<String> = self.game.moves().iter().map(AnyMove::to_string).collect();
        if let Err(e) = self.engine.set_position(&self.start, &moves) {
            return self.out.lines(&format!("Error (position): {e}"));
        }
        let request = if analysis {
            GoRequest {
                infinite: true,
                ..GoRequest::default()
            }
        } else {
            self.go_request()
        };
        self.search_id += 1;
        self.searching_move = !analysis;
        let (id, sink) = (self.search_id, self.results_in.clone());
        let (out, post) = (self.out.clone(), self.post.clone());
        let started = self.engine.go(
            &request,
            Box::new(move |info| {
                if post.load(Ordering::Relaxed) {
                    out.lines(&thinking(info));
                }
            }),
            Box::new(move |result| {
                let _ = sink.send((id, result));
            }),
        );
        if let Err(e) = started {
            self.searching_move = false;
            self.out.lines(&format!("Error (search): {e}"));
        }
    }

    /// The limits of the engine's move, from the time control and the clocks.
    fn go_request(&self) -> GoRequest {
        let c = &self.clocks;
        let mut request = GoRequest {
            depth: c.depth,
            ..GoRequest::default()
        };
        if let Some(ms) = c.per_move_ms {
            request.movetime = Some(ms.max(1));
            return request;
        }
        let (own, other) = (Some(c.own_ms), Some(c.other_ms));
        let increment = Some(c.increment_ms);
        if self.game.position().side_to_move() == Color::White {
            (request.wtime, request.btime) = (own, other);
        } else {
            (request.wtime, request.btime) = (other, own);
        }
        (request.winc, request.binc) = (increment, increment);
        if c.moves_per_session > 0 {
            let played = self.game.moves().len() as u64 / 2;
            request.movestogo = Some(c.moves_per_session - played % c.moves_per_session);
        }
        request
    }

    /// A search answered: the engine's move is played and sent, with the result if it
    /// ended the game.
    fn search_done(&mut self, id: u64, result: SearchResult<AnyMove>) {
        if id != self.search_id || !self.searching_move {
            return;
        }
        self.searching_move = false;
        let Some(best) = result.best else {
            return self.claim_result();
        };
        if let Err(e) = self.game.try_play(best) {
            // Cannot happen: the search plays legal moves. Said rather than sent.
            return self.out.lines(&format!("Error (engine move {best}): {e}"));
        }
        // The move and the result it makes in one write: XBoard passes the move on to the
        // other engine at once, and that engine's own claim must not come first.
        let mut text = format!("move {best}");
        if let Some(claim) = self.take_claim() {
            text.push('\n');
            text.push_str(&claim);
        }
        self.out.lines(&text);
    }

    /// Sends the result if the game has ended and it was not sent yet.
    fn claim_result(&mut self) {
        if let Some(claim) = self.take_claim() {
            self.out.lines(&claim);
        }
    }

    /// The result to claim, once: when the game has ended and it was not claimed yet.
    fn take_claim(&mut self) -> Option<String> {
        if self.over {
            return None;
        }
        let outcome = self.game.outcome()?;
        self.over = true;
        Some(result_claim(outcome))
    }

    /// Stops the running search, if any, and forgets its answer.
    fn drop_search(&mut self) {
        self.search_id += 1;
        self.searching_move = false;
        self.engine.stop();
        while self.results.try_recv().is_ok() {}
    }
}

/// UCI_Variant is CECP's `variant` command; it is not offered as an option.
fn is_taken_over(option: &str) -> bool {
    option.eq_ignore_ascii_case("UCI_Variant")
}

/// XBoard's `setup` and `piece` lines for a board variant: the board size, the start,
/// and the man's moves.
///
/// The man takes the Man's (commoner's) place in XBoard's piece table, not the pawn's
/// as Fairy-Stockfish puts it: XBoard treats a pawn that steps diagonally onto an empty
/// square in the far half as an en-passant capture and takes a piece off its board
/// (seen in real games: the engine's next legal move was then called invalid), and it
/// appends a promotion suffix to a pawn reaching the last rank.
fn setup_lines(variant: BoardVariant, betza: &str) -> String {
    // The piece table: P, N, B, R, Q, F, E, A, C, W, M, ... for White, then Black.
    let table = |man: char| format!("{}{man}{}", ".".repeat(10), ".".repeat(7));
    format!(
        "setup ({}{}) {}x{}+0_fairy {}\npiece P& {betza}",
        table('P'),
        table('p'),
        variant.files,
        variant.ranks,
        variant.startpos().to_fen()
    )
}

/// `1-0 {White reaches the last rank}` and its kin.
fn result_claim(outcome: Outcome) -> String {
    let side = |c: Option<Color>| c.map_or("", Color::name);
    let loser = outcome.winner.map(Color::opponent);
    let reason = match outcome.reason {
        EndReason::GoalReached => format!("{} reaches the last rank", side(outcome.winner)),
        EndReason::NoPieces => format!("{} has no men left", side(loser)),
        EndReason::NoMoves => format!("{} has no legal move", side(loser)),
        EndReason::TwoPasses => "both sides passed".to_string(),
        EndReason::Repetition => "threefold repetition".to_string(),
    };
    format!("{} {{{reason}}}", outcome.result_text())
}

/// Thinking output: `ply score time nodes pv`, time in centiseconds, a win in N moves
/// as 100000 + N (XBoard's convention).
fn thinking(info: &Info<AnyMove>) -> String {
    let score = match info.score {
        Score::Centipawns(cp) => cp,
        Score::Mate(n) if n > 0 => 100_000 + n,
        Score::Mate(n) => -100_000 + n,
    };
    let pv: Vec<String> = info.pv.iter().map(AnyMove::to_string).collect();
    format!(
        "{} {score} {} {} {}",
        info.depth,
        info.time.as_millis() / 10,
        info.nodes,
        pv.join(" ")
    )
}

fn parse_number<T: std::str::FromStr>(text: &str, line: &str) -> Result<T, CecpError> {
    text.trim()
        .parse()
        .map_err(|_| refused(format_args!("'{}' is not a number", text.trim()), line))
}
