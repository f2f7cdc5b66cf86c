//! One refereed game between two engines. The referee keeps the clocks and checks
//! every move with its own rules; the engines are trusted for nothing.

use std::fmt;
use std::time::{Duration, Instant};

use crate::registry::{AnyMove, AnyPosition, History};
use crate::rulesets::{Color, Outcome};

use super::openings::Opening;
use super::process::{EngineProcess, Received, StartError, SyncError};
use super::spec::{EngineSpec, PlayLimits};

/// Ways to lose a game other than by the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum ForfeitKind {
    /// A well-formed move the rules do not allow.
    Illegal,
    /// A `bestmove` whose move is not move text.
    Unparseable,
    /// `bestmove` without a move, or `bestmove (none)` with legal moves on the board.
    NoBestmove,
    /// The engine exited, closed its output, or failed to start.
    Crash,
    /// No `bestmove` before the clock (plus the margin) ran out.
    Time,
}

impl ForfeitKind {
    pub(crate) const ALL: [ForfeitKind; 5] = [
        ForfeitKind::Illegal,
        ForfeitKind::Unparseable,
        ForfeitKind::NoBestmove,
        ForfeitKind::Crash,
        ForfeitKind::Time,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            ForfeitKind::Illegal => "illegal",
            ForfeitKind::Unparseable => "unparseable",
            ForfeitKind::NoBestmove => "no-bestmove",
            ForfeitKind::Crash => "crash",
            ForfeitKind::Time => "time",
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Termination {
    /// By the rules of the game.
    Rules(Outcome),
    /// The loser forfeited; `detail` says what happened.
    Forfeit { kind: ForfeitKind, detail: String },
}

/// Search figures one engine reported over a game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct SearchStats {
    pub(crate) moves: u32,
    pub(crate) depth_sum: u64,
    pub(crate) depth_count: u32,
    pub(crate) nps_sum: f64,
    pub(crate) nps_count: u32,
    pub(crate) time_used: Duration,
}

impl SearchStats {
    pub(crate) fn add(&mut self, other: &SearchStats) {
        self.moves += other.moves;
        self.depth_sum += other.depth_sum;
        self.depth_count += other.depth_count;
        self.nps_sum += other.nps_sum;
        self.nps_count += other.nps_count;
        self.time_used += other.time_used;
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub(crate) struct GameRecord {
    /// Index of the engine that played White and the one that played Black.
    pub(crate) players: [usize; 2],
    pub(crate) opening: Opening,
    /// The moves the engines played, after the opening's.
    pub(crate) moves: Vec<AnyMove>,
    /// The time each of those moves took, as the clock charged it.
    pub(crate) think: Vec<Duration>,
    /// `None` for a draw.
    pub(crate) winner: Option<Color>,
    pub(crate) termination: Termination,
    /// Per colour.
    pub(crate) stats: [SearchStats; 2],
}

impl GameRecord {
    pub(crate) fn result_text(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// `None` for a draw.
    pub(crate) fn loser(&self) -> Option<Color> {
        self.winner.map(Color::opponent)
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::Rules(end) => write!(f, "{end}"),
            Termination::Forfeit { kind, detail } => {
                write!(f, "forfeit ({}): {detail}", kind.name())
            }
        }
    }
}

impl GameRecord {
    /// One sentence for PGN and progress lines: "White reached the goal rank".
    pub(crate) fn reason_text(&self) -> String {
        match &self.termination {
            Termination::Rules(end) => end.to_string(),
            Termination::Forfeit { kind, detail } => {
                format!(
                    "{} forfeits ({}): {detail}",
                    self.loser().map_or("?", Color::name),
                    kind.name()
                )
            }
        }
    }
}

/// Match-wide settings a game needs.
#[derive(Clone, Debug)]
pub(crate) struct RefereeConfig {
    /// Grace added to every time limit before a time forfeit.
    pub(crate) margin: Duration,
    /// Bound on `uciok` and `readyok` waits.
    pub(crate) startup_timeout: Duration,
    /// Bound on a move when the limit is depth or nodes only.
    pub(crate) move_timeout: Duration,
}

/// Why an engine could not take its seat for a game.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PrepareError {
    #[error(transparent)]
    Start(#[from] StartError),
    #[error("not ready for a new game: {0}")]
    NotReady(SyncError),
}

/// An engine seat: its settings and, while it is healthy, its running process.
pub(crate) struct EngineSlot {
    pub(crate) spec: EngineSpec,
    /// Options the match adds (the variant), sent after the user's.
    pub(crate) extra_options: Vec<(String, String)>,
    pub(crate) process: Option<EngineProcess>,
}

impl EngineSlot {
    pub(crate) fn new(spec: EngineSpec, extra_options: Vec<(String, String)>) -> EngineSlot {
        EngineSlot {
            spec,
            extra_options,
            process: None,
        }
    }

    /// Starts the process if it is not running, then readies it for a new game.
    fn prepare(&mut self, cfg: &RefereeConfig) -> Result<(), PrepareError> {
        let engine = match &mut self.process {
            Some(engine) => engine,
            None => self.process.insert(EngineProcess::start(
                &self.spec,
                &self.extra_options,
                cfg.startup_timeout,
            )?),
        };
        let ready = engine
            .send("ucinewgame")
            .map_err(|_| SyncError::Exited)
            .and_then(|_| engine.sync(cfg.startup_timeout));
        if let Err(e) = ready {
            self.process = None;
            return Err(PrepareError::NotReady(e));
        }
        Ok(())
    }
}

/// What one `go` produced.
enum Reply {
    /// A legal move and the time the engine took for it.
    Move(AnyMove, Duration),
    Forfeit(ForfeitKind, String),
}

/// The `position` command for the game so far.
fn position_command(opening: &Opening, moves: &[AnyMove]) -> String {
    let mut cmd = if opening.is_startpos() {
        "position startpos".to_string()
    } else {
        format!("position fen {}", opening.start.to_fen())
    };
    let all: Vec<String> = opening
        .moves
        .iter()
        .chain(moves)
        .map(AnyMove::to_string)
        .collect();
    if !all.is_empty() {
        cmd.push_str(" moves ");
        cmd.push_str(&all.join(" "));
    }
    cmd
}

/// The `go` command for an engine with `limits`, given both clocks and increments
/// (sent whenever the engine plays on a clock).
fn go_command(
    limits: &PlayLimits,
    clocks: [Option<Duration>; 2],
    increments: [Option<Duration>; 2],
) -> String {
    let ms = |d: Option<Duration>| d.unwrap_or(Duration::ZERO).as_millis();
    let mut go = "go".to_string();
    if limits.tc.is_some() {
        go.push_str(&format!(
            " wtime {} btime {} winc {} binc {}",
            ms(clocks[0]),
            ms(clocks[1]),
            ms(increments[0]),
            ms(increments[1])
        ));
    }
    if let Some(t) = limits.movetime {
        go.push_str(&format!(" movetime {}", t.as_millis()));
    }
    if let Some(d) = limits.depth {
        go.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = limits.nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    go
}

/// Reads `depth` and `nps` from an `info` line.
fn info_figures(line: &str) -> (Option<u64>, Option<f64>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let value = |key: &str| {
        words
            .iter()
            .position(|w| *w == key)
            .and_then(|i| words.get(i + 1))
            .and_then(|v| v.parse::<f64>().ok())
    };
    (value("depth").map(|d| d as u64), value("nps"))
}

/// Asks the engine for a move and judges the answer against the clock and the rules.
fn ask_move(
    slot: &mut EngineSlot,
    game: &History,
    position_cmd: &str,
    go_cmd: &str,
    allowed: Duration,
    cfg: &RefereeConfig,
    stats: &mut SearchStats,
) -> Reply {
    let Some(engine) = slot.process.as_mut() else {
        return Reply::Forfeit(ForfeitKind::Crash, "engine not running".into());
    };
    if engine
        .send(position_cmd)
        .and_then(|_| engine.send(go_cmd))
        .is_err()
    {
        slot.process = None;
        return Reply::Forfeit(ForfeitKind::Crash, "engine exited".into());
    }
    let started = Instant::now();
    let deadline = started + allowed + cfg.margin;
    let (mut depth, mut nps) = (None, None);
    let text = loop {
        match engine.recv(deadline) {
            Received::Line(line) => {
                if line.starts_with("info") {
                    let (d, n) = info_figures(&line);
                    depth = d.or(depth);
                    nps = n.or(nps);
                } else if let Some(rest) = line.strip_prefix("bestmove")
                    && (rest.is_empty() || rest.starts_with(char::is_whitespace))
                {
                    break rest.split_whitespace().next().map(str::to_string);
                }
            }
            Received::Timeout => {
                // Stop the search; an engine that will not answer even then is replaced.
                let _ = engine.send("stop");
                if engine.sync(Duration::from_secs(1)).is_err() {
                    slot.process = None;
                }
                return Reply::Forfeit(
                    ForfeitKind::Time,
                    format!(
                        "no bestmove within {} ms",
                        (allowed + cfg.margin).as_millis()
                    ),
                );
            }
            Received::Closed => {
                slot.process = None;
                return Reply::Forfeit(ForfeitKind::Crash, "engine exited while thinking".into());
            }
        }
    };
    let elapsed = started.elapsed();
    stats.moves += 1;
    stats.time_used += elapsed;
    if let Some(d) = depth {
        stats.depth_sum += d;
        stats.depth_count += 1;
    }
    if let Some(n) = nps {
        stats.nps_sum += n;
        stats.nps_count += 1;
    }
    if elapsed > allowed + cfg.margin {
        return Reply::Forfeit(
            ForfeitKind::Time,
            format!(
                "used {} ms of {} ms",
                elapsed.as_millis(),
                allowed.as_millis()
            ),
        );
    }
    let text = match text {
        None => return Reply::Forfeit(ForfeitKind::NoBestmove, "bestmove without a move".into()),
        // `0000` is the UCI null move: "no move", except in rule sets where it passes.
        Some(t) if t == "(none)" || (t == "0000" && !game.position().is_move_text(&t)) => {
            return Reply::Forfeit(
                ForfeitKind::NoBestmove,
                format!("bestmove {t} with legal moves on the board"),
            );
        }
        Some(t) => t,
    };
    // Text that is no move of this game at all is unparseable; a move the position
    // does not allow is illegal.
    let pos = game.position();
    match pos.parse_move(&text) {
        Ok(m) => Reply::Move(m, elapsed),
        Err(_) if !pos.is_move_text(&text) => {
            Reply::Forfeit(ForfeitKind::Unparseable, format!("bestmove '{text}'"))
        }
        Err(e) => Reply::Forfeit(ForfeitKind::Illegal, format!("{text}: {e}")),
    }
}

/// What a game's watcher (`match --publish`) is told as the game goes.
pub(crate) enum Watch<'a> {
    /// The engines take over at `position` (after the opening).
    Start {
        position: &'a AnyPosition,
        clocks: [Option<Duration>; 2],
    },
    /// `m` was played; `position` is the one after it.
    Move {
        m: AnyMove,
        position: &'a AnyPosition,
        clocks: [Option<Duration>; 2],
    },
}

/// Plays one game; `slots[0]` plays White. Never hangs: every wait is bounded. `watch`
/// hears of the start and of every move.
pub(crate) fn play_game(
    slots: [&mut EngineSlot; 2],
    players: [usize; 2],
    opening: &Opening,
    cfg: &RefereeConfig,
    watch: &dyn Fn(Watch<'_>),
) -> GameRecord {
    let mut record = GameRecord {
        players,
        opening: opening.clone(),
        moves: Vec::new(),
        think: Vec::new(),
        winner: None,
        termination: Termination::Forfeit {
            kind: ForfeitKind::Crash,
            detail: "not played".into(),
        },
        stats: [SearchStats::default(); 2],
    };
    let [white, black] = slots;
    let mut slots = [white, black];
    for color in [Color::White, Color::Black] {
        if let Err(e) = slots[color.index()].prepare(cfg) {
            record.winner = Some(color.opponent());
            record.termination = Termination::Forfeit {
                kind: ForfeitKind::Crash,
                detail: e.to_string(),
            };
            return record;
        }
    }
    let mut clocks: [Option<Duration>; 2] =
        [0, 1].map(|i| slots[i].spec.limits.tc.map(|(base, _)| base));
    let mut game = History::new(opening.start.clone());
    for &m in &opening.moves {
        if let Err(e) = game.try_play(m) {
            record.termination = Termination::Forfeit {
                kind: ForfeitKind::Illegal,
                detail: format!("opening move {m}: {e}"),
            };
            return record;
        }
    }
    watch(Watch::Start {
        position: game.position(),
        clocks,
    });
    loop {
        if let Some(end) = game.outcome() {
            record.winner = end.winner;
            record.termination = Termination::Rules(end);
            return record;
        }
        let side = game.position().side_to_move();
        let slot = &mut slots[side.index()];
        let limits = slot.spec.limits.clone();
        let increments = [0, 1].map(|i| slots[i].spec.limits.tc.map(|(_, inc)| inc));
        let go = go_command(&limits, clocks, increments);
        let allowed = clocks[side.index()]
            .or(limits.movetime)
            .unwrap_or(cfg.move_timeout);
        let slot = &mut slots[side.index()];
        let position_cmd = position_command(opening, &record.moves);
        match ask_move(
            slot,
            &game,
            &position_cmd,
            &go,
            allowed,
            cfg,
            &mut record.stats[side.index()],
        ) {
            Reply::Move(m, elapsed) => {
                if let (Some(left), Some((_, inc))) = (clocks[side.index()], limits.tc) {
                    clocks[side.index()] = Some(left.saturating_sub(elapsed) + inc);
                }
                // `ask_move` answers only with a legal move, checked against this game.
                if let Err(e) = game.try_play(m) {
                    record.winner = Some(side.opponent());
                    record.termination = Termination::Forfeit {
                        kind: ForfeitKind::Illegal,
                        detail: e.to_string(),
                    };
                    return record;
                }
                record.moves.push(m);
                record.think.push(elapsed);
                watch(Watch::Move {
                    m,
                    position: game.position(),
                    clocks,
                });
            }
            Reply::Forfeit(kind, detail) => {
                record.winner = Some(side.opponent());
                record.termination = Termination::Forfeit { kind, detail };
                return record;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_sends_both_clocks_and_every_limit() {
        let ms = |n| Some(Duration::from_millis(n));
        let limits = PlayLimits {
            tc: Some((Duration::from_secs(10), Duration::from_millis(100))),
            depth: Some(7),
            ..PlayLimits::default()
        };
        assert_eq!(
            go_command(&limits, [ms(9_500), ms(8_250)], [ms(100), None]),
            "go wtime 9500 btime 8250 winc 100 binc 0 depth 7"
        );
        let fixed = PlayLimits {
            movetime: ms(300),
            nodes: Some(5_000),
            ..PlayLimits::default()
        };
        assert_eq!(
            go_command(&fixed, [None, None], [None, None]),
            "go movetime 300 nodes 5000"
        );
    }

    #[test]
    fn reads_info_figures() {
        assert_eq!(
            info_figures("info depth 12 seldepth 20 score cp 31 nodes 1000 nps 250000 pv a2a3"),
            (Some(12), Some(250000.0))
        );
        assert_eq!(info_figures("info string hello"), (None, None));
    }
}
