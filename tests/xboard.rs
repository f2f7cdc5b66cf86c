//! Whole games in XBoard, the real GUI, on a virtual screen (Xvfb): our engine over
//! CECP against Fairy-Stockfish in XBoard mode (standard and capture-only, each engine
//! as White and as Black), and our engine against itself over UCI through uci2wb.
//! Every game is read back from XBoard's saved PGN and its debug log and replayed with
//! our rules: every move legal, none refused, the result and its reason right.
//!
//! Needs Debian's `xboard`, `xvfb`, `uci2wb`, `fairy-stockfish` and `imagemagick` (for
//! the screenshot); `.ci/run` installs them. Without them the tests say so and pass,
//! unless `GUI_TESTS=1` demands them (as CI does). `SCREENSHOTS=DIR` keeps the
//! screenshot of a game in progress there as `xboard.png` (docs/xboard.png is one).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use breakthrough::registry::{AnyPosition, BoardVariant};
use breakthrough::rulesets::{Color, EndReason, Outcome};
use common::Scratch;

/// The programs, found where Debian puts them.
struct Tools {
    xboard: PathBuf,
    xvfb: PathBuf,
    uci2wb: PathBuf,
    fairy_stockfish: PathBuf,
    import: PathBuf,
}

fn find(name: &str) -> Option<PathBuf> {
    ["/usr/games", "/usr/bin", "/usr/local/bin"]
        .iter()
        .map(|dir| Path::new(dir).join(name))
        .find(|p| p.exists())
}

impl Tools {
    /// The programs, or `None` (with a note) where one is missing and none is demanded.
    fn get() -> Option<Tools> {
        let names = ["xboard", "Xvfb", "uci2wb", "fairy-stockfish", "import"];
        let found: Vec<Option<PathBuf>> = names.iter().map(|n| find(n)).collect();
        let missing: Vec<&str> = names
            .iter()
            .zip(&found)
            .filter(|(_, f)| f.is_none())
            .map(|(n, _)| *n)
            .collect();
        if !missing.is_empty() {
            assert!(
                std::env::var("GUI_TESTS").is_err(),
                "GUI_TESTS is set but {} missing",
                missing.join(", ")
            );
            eprintln!(
                "XBoard tests skipped: no {} (apt-get install xboard xvfb uci2wb fairy-stockfish imagemagick)",
                missing.join(", ")
            );
            return None;
        }
        let mut found = found.into_iter().map(Option::unwrap);
        Some(Tools {
            xboard: found.next().unwrap(),
            xvfb: found.next().unwrap(),
            uci2wb: found.next().unwrap(),
            fairy_stockfish: found.next().unwrap(),
            import: found.next().unwrap(),
        })
    }
}

/// An X server without a screen, stopped when dropped.
struct VirtualScreen {
    server: Child,
    display: String,
}

impl VirtualScreen {
    fn start(xvfb: &Path) -> VirtualScreen {
        // The server picks a free display itself and writes its number to stdout: no
        // race with other tests or servers for a number.
        let mut server = Command::new(xvfb)
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "1024x768x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb starts");
        let mut number = String::new();
        std::io::BufRead::read_line(
            &mut std::io::BufReader::new(server.stdout.take().unwrap()),
            &mut number,
        )
        .expect("Xvfb says its display");
        assert!(!number.trim().is_empty(), "Xvfb could not start");
        VirtualScreen {
            server,
            display: format!(":{}", number.trim()),
        }
    }
}

impl Drop for VirtualScreen {
    fn drop(&mut self) {
        // SIGTERM, so the server removes its lock file and socket.
        let _ = Command::new("kill")
            .arg(self.server.id().to_string())
            .status();
        let _ = self.server.wait();
    }
}

/// One XBoard match: its saved PGN and debug log.
struct Run {
    pgn: String,
    log: String,
}

/// Plays `games` games of `variant` between the two engine commands, the first engine
/// White in odd games, and returns what XBoard wrote. `screenshot` is where a picture
/// of the screen in the first game goes.
fn xboard(
    tools: &Tools,
    scratch: &Scratch,
    engines: [&str; 2],
    variant: &str,
    games: u32,
    extra: &[&str],
    screenshot: Option<&Path>,
) -> Run {
    let screen = VirtualScreen::start(&tools.xvfb);
    let (pgn, log) = (scratch.path("games.pgn"), scratch.path("xboard.log"));
    let mut xboard = Command::new(&tools.xboard)
        .args(["-fcp", engines[0], "-scp", engines[1], "-variant", variant])
        .args(["-tc", "0:05", "-inc", "0.05", "-mg", &games.to_string()])
        .args(["-sgf", &pgn.display().to_string(), "-debug"])
        .args(["-nameOfDebugFile", &log.display().to_string()])
        .args(["-popupExitMessage", "false", "-saveSettingsOnExit", "false"])
        .args(["-settingsFile", &scratch.text("none.ini")])
        .args(["-animateMoving", "false"])
        .args(extra)
        .current_dir(scratch.dir())
        .env("DISPLAY", &screen.display)
        .env("HOME", scratch.dir())
        .env("TMPDIR", scratch.dir())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("xboard starts");
    let started = Instant::now();
    let mut shot = screenshot;
    let limit = Duration::from_secs(60 + 60 * u64::from(games));
    loop {
        if xboard.try_wait().unwrap().is_some() {
            break;
        }
        if started.elapsed() > limit {
            let _ = xboard.kill();
            let _ = xboard.wait();
            // The end of XBoard's debug log says what it was waiting for.
            let text =
                String::from_utf8_lossy(&std::fs::read(&log).unwrap_or_default()).into_owned();
            let lines: Vec<&str> = text.lines().collect();
            let tail = lines[lines.len().saturating_sub(40)..].join("\n");
            panic!("XBoard did not finish {games} games in {limit:?}; its log ends:\n{tail}");
        }
        // Mid-game: the first game has had its first moves.
        if let Some(path) = shot.filter(|_| started.elapsed() > Duration::from_secs(6)) {
            let status = Command::new(&tools.import)
                .args(["-display", &screen.display, "-window", "root", "-trim"])
                .arg(path)
                .env("TMPDIR", scratch.dir())
                .status()
                .expect("import runs");
            assert!(status.success(), "import could not take the screenshot");
            shot = None;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    Run {
        pgn: std::fs::read_to_string(&pgn).expect("XBoard saved the games"),
        log: String::from_utf8_lossy(&std::fs::read(&log).expect("XBoard wrote its debug log"))
            .into_owned(),
    }
}

/// A game as XBoard saved it.
#[derive(Debug)]
struct SavedGame {
    white: String,
    black: String,
    result: String,
    /// The last comment: the reason the game ended.
    reason: String,
    /// The moves as XBoard wrote them (SAN), without comments and numbers.
    moves: Vec<String>,
}

fn tag(game: &str, name: &str) -> String {
    let start = format!("[{name} \"");
    let line = game
        .lines()
        .find(|l| l.starts_with(&start))
        .unwrap_or_else(|| panic!("no {name} tag in {game}"));
    line[start.len()..line.len() - 2].to_string()
}

fn saved_games(pgn: &str) -> Vec<SavedGame> {
    pgn.split("[Event ")
        .filter(|g| !g.trim().is_empty())
        .map(|game| {
            // The first line is the rest of the Event tag.
            let body: String = game
                .lines()
                .skip(1)
                .filter(|l| !l.starts_with('['))
                .collect::<Vec<_>>()
                .join(" ");
            let mut comments = Vec::new();
            let mut moves_text = String::new();
            let mut rest = body.as_str();
            while let Some(open) = rest.find('{') {
                moves_text.push_str(&rest[..open]);
                let close = open + rest[open..].find('}').expect("closed comment");
                comments.push(rest[open + 1..close].trim().to_string());
                rest = &rest[close + 1..];
            }
            moves_text.push_str(rest);
            let result = tag(game, "Result");
            let moves = moves_text
                .split_whitespace()
                .filter(|t| !t.ends_with('.') && *t != result)
                .map(str::to_string)
                .collect();
            SavedGame {
                white: tag(game, "White"),
                black: tag(game, "Black"),
                result,
                reason: comments.last().cloned().unwrap_or_default(),
                moves,
            }
        })
        .collect()
}

/// The moves of each finished game as the engines sent them (`move X` in the debug
/// log), and the log lines that say a move was refused.
fn logged_games(log: &str) -> (Vec<Vec<String>>, Vec<String>) {
    let mut games = Vec::new();
    let mut moves = Vec::new();
    let mut refusals = Vec::new();
    for line in log.lines() {
        let sent = line
            .split_once("<first : ")
            .or_else(|| line.split_once("<second: "))
            .map(|(_, text)| text.trim());
        if let Some(text) = sent {
            if let Some(m) = text.strip_prefix("move ") {
                moves.push(m.trim().to_string());
            }
            // A refused move: CECP's answer, or an error naming a move.
            let names_move = text.as_bytes().windows(4).any(|w| {
                w[0].is_ascii_lowercase()
                    && w[1].is_ascii_digit()
                    && w[2].is_ascii_lowercase()
                    && w[3].is_ascii_digit()
            });
            if text.starts_with("Illegal move") || (text.starts_with("Error") && names_move) {
                refusals.push(line.to_string());
            }
        }
        if line.contains("Forfeit") || line.contains("invalid move") {
            refusals.push(line.to_string());
        }
        if line.starts_with("GameEnds(") && !line.contains("(null)") && !moves.is_empty() {
            games.push(std::mem::take(&mut moves));
        }
    }
    (games, refusals)
}

/// What our engine claims for an ending, written here from the rules' side.
fn expected_reason(outcome: Outcome) -> String {
    let name = |c: Color| if c == Color::White { "White" } else { "Black" };
    match (outcome.reason, outcome.winner) {
        (EndReason::GoalReached, Some(w)) => format!("{} reaches the last rank", name(w)),
        (EndReason::NoPieces, Some(w)) => format!("{} has no men left", name(w.opponent())),
        (EndReason::NoMoves, Some(w)) => format!("{} has no legal move", name(w.opponent())),
        other => panic!("no such ending in Breakthrough: {other:?}"),
    }
}

/// Replays every game with our rules and checks it against what XBoard saved.
/// `reason` is the claim expected from the game's ending (`None`: our own words).
fn check_games(run: &Run, variant: &str, games: usize, reason: Option<&str>) -> Vec<SavedGame> {
    let saved = saved_games(&run.pgn);
    let (logged, refusals) = logged_games(&run.log);
    assert!(refusals.is_empty(), "moves were refused: {refusals:#?}");
    let lines: Vec<&str> = run.log.lines().collect();
    let tail = lines[lines.len().saturating_sub(40)..].join("\n");
    assert_eq!(saved.len(), games, "{}\nthe log ends:\n{tail}", run.pgn);
    assert_eq!(logged.len(), games, "games in the debug log");
    let board: BoardVariant = variant.parse().unwrap();
    for (game, moves) in saved.iter().zip(&logged) {
        let mut position: AnyPosition = board.startpos();
        for (i, text) in moves.iter().enumerate() {
            assert!(
                position.outcome().is_none(),
                "a move after the end: {moves:?}"
            );
            let m = position
                .parse_move(text)
                .unwrap_or_else(|e| panic!("move {} ({text}) is illegal: {e}", i + 1));
            position.play(m);
        }
        let outcome = position
            .outcome()
            .unwrap_or_else(|| panic!("the game did not end by the rules: {game:?}"));
        assert_eq!(game.result, outcome.result_text(), "{game:?}");
        let expected = reason.map_or_else(|| expected_reason(outcome), str::to_string);
        assert_eq!(game.reason, expected, "{game:?}");
        // The PGN holds the same moves: as many, each to the same square.
        assert_eq!(game.moves.len(), moves.len(), "{game:?}");
        for (san, played) in game.moves.iter().zip(moves) {
            let squares: Vec<usize> = (0..san.len().saturating_sub(1))
                .filter(|&i| {
                    let b = san.as_bytes();
                    b[i].is_ascii_lowercase() && b[i + 1].is_ascii_digit()
                })
                .collect();
            let target = &san[*squares.last().expect("a square")..][..2];
            assert_eq!(target, &played[2..4], "{san} against {played}");
        }
    }
    saved
}

/// Each engine had White once and Black once.
fn assert_colours_swapped(games: &[SavedGame]) {
    assert_eq!(games[0].white, games[1].black);
    assert_eq!(games[0].black, games[1].white);
    assert_ne!(games[0].white, games[0].black);
}

/// Fairy-Stockfish knows capture-only Breakthrough from the variants file only, and
/// XBoard must see the variant in its first `feature variants`: a wrapper loads the
/// file before XBoard speaks, under the name our engine gives the variant.
fn fairy_stockfish_command(tools: &Tools, scratch: &Scratch) -> String {
    let variants = scratch.path("variants.ini");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut text = std::fs::read_to_string(repo.join("scripts/fs-variants.ini")).unwrap();
    text.push_str("\n[capture-only:btcap]\n");
    std::fs::write(&variants, text).unwrap();
    let wrapper = scratch.path("fairy-stockfish.sh");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\n(echo load {}; exec cat) | exec {}\n",
            variants.display(),
            tools.fairy_stockfish.display()
        ),
    )
    .unwrap();
    Command::new("chmod")
        .arg("+x")
        .arg(&wrapper)
        .status()
        .unwrap();
    wrapper.display().to_string()
}

fn against_fairy_stockfish(variant: &str, screenshot: bool) {
    let Some(tools) = Tools::get() else { return };
    let scratch = Scratch::new("xboard");
    let ours = env!("CARGO_BIN_EXE_breakthrough");
    let theirs = fairy_stockfish_command(&tools, &scratch);
    let shot = scratch.path("xboard.png");
    // XBoard judges by chess's rules where it can: Debian's xboard.conf turns on
    // claim testing (XBoard knows no goal rank), and a side left without a move would
    // be adjudicated stalemate, a draw, where Breakthrough counts it lost.
    let run = xboard(
        &tools,
        &scratch,
        [ours, &theirs],
        variant,
        2,
        &["-testClaims", "false", "-checkMates", "false"],
        screenshot.then_some(shot.as_path()),
    );
    let games = check_games(&run, variant, 2, None);
    assert_colours_swapped(&games);
    assert!(games[0].white.starts_with("breakthrough"), "{games:?}");
    if screenshot {
        let png = std::fs::read(&shot).expect("the screenshot");
        assert!(
            png.starts_with(b"\x89PNG") && png.len() > 10_000,
            "{} bytes",
            png.len()
        );
        if let Ok(dir) = std::env::var("SCREENSHOTS") {
            std::fs::copy(&shot, Path::new(&dir).join("xboard.png")).unwrap();
        }
    }
}

#[test]
fn standard_games_against_fairy_stockfish_in_xboard() {
    against_fairy_stockfish("breakthrough", true);
}

#[test]
fn capture_only_games_against_fairy_stockfish_in_xboard() {
    against_fairy_stockfish("capture-only", false);
}

/// uci2wb sets XBoard's board up from the variant line of `UCI_Variant` but not the
/// man's moves: XBoard takes the men for chess pawns, so it must not judge the moves.
/// uci2wb claims the win when the engine reports a mate in one. Pondering is off
/// (`-xponder`): on a ponder miss uci2wb 4.1 can run an empty command from its queue,
/// ponder the old position again and then start no search for the opponent's move, so
/// the engine ponders for ever as told and the game hangs (seen in CI, and in one of
/// the first two runs here, two at once; with `-xponder` 16 runs of 16 finished).
#[test]
fn games_against_itself_through_uci2wb() {
    let Some(tools) = Tools::get() else { return };
    let scratch = Scratch::new("uci2wb");
    let ours = format!(
        "{} {}",
        tools.uci2wb.display(),
        env!("CARGO_BIN_EXE_breakthrough")
    );
    let run = xboard(
        &tools,
        &scratch,
        [&ours, &ours],
        "breakthrough",
        2,
        &["-testLegality", "false", "-xponder"],
        None,
    );
    let games = check_games(&run, "breakthrough", 2, Some("mate"));
    assert!(
        games.iter().all(|g| g.white.contains("UCI2WB")),
        "{games:?}"
    );
    assert!(
        run.log.contains("setup (-) 8x8+0_fairy"),
        "uci2wb set no board up from the variant line"
    );
}
