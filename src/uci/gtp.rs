//! GTP, the Go Text Protocol, as OpenSpiel's GTP bot speaks it for `breakthrough`
//! (`breakthrough gtp`).
//!
//! OpenSpiel's conventions differ from ours, and this module converts both ways: its
//! first player is `b` (black), who starts on the top two rows and moves down, where
//! ours is White, starting on ranks 1-2 and moving up; so its board is ours mirrored
//! top to bottom (its `a7a6` is our `a2a3`), and `b`/`black` is the side that moves
//! first. A capture's move text ends in `*` (`d6e5*`). Answers are `= TEXT` or
//! `? ERROR`, each followed by an empty line, with the command's number if it had one.

use std::sync::mpsc::channel;

use super::Output;
use crate::engine::{Engine, EngineError, GoRequest, Player, StartingPoint};
use crate::registry::{AnyMove, AnyPosition, BoardVariant, History};
use crate::rulesets::Color;
use crate::util::lines::{self, Input};

/// How `genmove` searches.
#[derive(Clone, Debug)]
pub(crate) struct GtpSettings {
    pub(crate) variant: BoardVariant,
    pub(crate) limits: GoRequest,
}

/// Serves GTP on stdin/stdout until `quit` or the end of input.
pub(crate) fn run(settings: GtpSettings) -> Result<(), EngineError> {
    let mut engine = Engine::new(Player::Search)?;
    engine.set_option("UCI_Variant", Some(settings.variant.name()))?;
    let mut session = Gtp {
        engine,
        game: History::new(settings.variant.startpos()),
        settings,
        out: Output::new(std::io::stdout()),
    };
    let input = lines::spawn_reader(std::io::stdin());
    while let Ok(received) = input.recv() {
        let Input::Line(line) = received else {
            session.out.lines("? line too long\n");
            continue;
        };
        if !session.execute(&line) {
            break;
        }
    }
    Ok(())
}

struct Gtp {
    engine: Engine,
    game: History,
    settings: GtpSettings,
    out: Output,
}

const COMMANDS: [&str; 11] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "quit",
];

impl Gtp {
    /// Answers one line; false after `quit`.
    fn execute(&mut self, line: &str) -> bool {
        log::debug!("< {line}");
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            return true;
        }
        let mut words = line.split_whitespace().peekable();
        let id = words
            .peek()
            .filter(|w| w.chars().all(|c| c.is_ascii_digit()))
            .map(|w| w.to_string());
        if id.is_some() {
            words.next();
        }
        let command = words.next().unwrap_or("");
        let args: Vec<&str> = words.collect();
        let answer = self.command(command, &args);
        let (mark, text) = match &answer {
            Ok(text) => ('=', text.as_str()),
            Err(e) => ('?', e.as_str()),
        };
        let id = id.unwrap_or_default();
        let space = if text.is_empty() { "" } else { " " };
        self.out.lines(&format!("{mark}{id}{space}{text}\n"));
        command != "quit"
    }

    fn command(&mut self, command: &str, args: &[&str]) -> Result<String, String> {
        match command {
            "protocol_version" => Ok("2".to_string()),
            "name" => Ok(self.engine.player().name().to_string()),
            "version" => Ok(env!("CARGO_PKG_VERSION").to_string()),
            "known_command" => Ok(COMMANDS
                .contains(&args.first().copied().unwrap_or(""))
                .to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" | "komi" => Ok(String::new()),
            "boardsize" => {
                let size: u8 = args
                    .first()
                    .and_then(|s| s.parse().ok())
                    .ok_or("boardsize: expected a number")?;
                let rules = self.settings.variant.rules;
                AnyPosition::start_on_board(rules, size, size)
                    .ok_or(format!("unacceptable size (no {size}x{size} board)"))?;
                self.settings.variant = BoardVariant {
                    rules,
                    files: size,
                    ranks: size,
                };
                self.engine
                    .set_option("UCI_Variant", Some(self.settings.variant.name()))
                    .map_err(|e| e.to_string())?;
                self.clear();
                Ok(String::new())
            }
            "clear_board" => {
                self.clear();
                Ok(String::new())
            }
            "play" => {
                let [colour, text] = args[..] else {
                    return Err("play: expected a colour and a move".to_string());
                };
                self.expect_turn(colour)?;
                let m = self.read_gtp_move(text)?;
                self.game
                    .try_play(m)
                    .map_err(|e| format!("illegal move {text}: {e}"))?;
                Ok(String::new())
            }
            "genmove" => {
                let [colour] = args[..] else {
                    return Err("genmove: expected a colour".to_string());
                };
                self.expect_turn(colour)?;
                self.genmove()
            }
            _ => Err(format!("unknown command '{command}'")),
        }
    }

    fn clear(&mut self) {
        self.engine.new_game();
        self.game = History::new(self.settings.variant.startpos());
    }

    /// `b`/`black` moves first (our White), `w`/`white` second.
    fn expect_turn(&self, colour: &str) -> Result<(), String> {
        let side = match colour.to_ascii_lowercase().as_str() {
            "b" | "black" => Color::White,
            "w" | "white" => Color::Black,
            _ => return Err(format!("unknown colour '{colour}' (b or w)")),
        };
        if self.game.outcome().is_some() {
            return Err("the game is over".to_string());
        }
        if side != self.game.position().side_to_move() {
            return Err(format!("it is not {colour}'s turn"));
        }
        Ok(())
    }

    fn genmove(&mut self) -> Result<String, String> {
        let moves: Vec<String> = self.game.moves().iter().map(AnyMove::to_string).collect();
        let start = self.game.start().to_fen();
        self.engine
            .set_position(&StartingPoint::Fen(start), &moves)
            .map_err(|e| e.to_string())?;
        let (done, result) = channel();
        self.engine
            .go(
                &self.settings.limits,
                Box::new(|_| {}),
                Box::new(move |r| {
                    let _ = done.send(r);
                }),
            )
            .map_err(|e| e.to_string())?;
        let result = result
            .recv()
            .map_err(|_| "the search ended without a move")?;
        self.engine.settle();
        let best = result.best.ok_or("no legal move")?;
        let text = self.gtp_text(best);
        self.game.try_play(best).map_err(|e| e.to_string())?;
        Ok(text)
    }

    /// Our move in OpenSpiel's notation: ranks mirrored, `*` after a capture.
    fn gtp_text(&self, m: AnyMove) -> String {
        let position = self.game.position();
        let them = position.side_to_move().opponent();
        let captures = position.child(m).material(them).0 < position.material(them).0;
        let text = mirror(&m.to_string(), self.settings.variant.ranks);
        if captures { text + "*" } else { text }
    }

    /// A move in OpenSpiel's notation, read.
    fn read_gtp_move(&self, text: &str) -> Result<AnyMove, String> {
        let bare = text.trim_end_matches('*').to_ascii_lowercase();
        let ours = mirror(&bare, self.settings.variant.ranks);
        self.game
            .position()
            .parse_move(&ours)
            .map_err(|e| format!("illegal move {text}: {e}"))
    }
}

/// Move text with every rank `r` turned into `ranks + 1 - r` (files kept); text that is
/// not two squares comes back as it is, for the move reader to refuse.
fn mirror(text: &str, ranks: u8) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c.to_digit(10) {
            Some(r) if (1..=u32::from(ranks)).contains(&r) => {
                out.push_str(&(u32::from(ranks) + 1 - r).to_string())
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uci::tests::Captured;

    /// Answers to `lines`, each without its empty line.
    fn answers(lines: &[&str]) -> Vec<String> {
        let captured = Captured::default();
        let variant: BoardVariant = "breakthrough-5x5".parse().unwrap();
        let mut engine = Engine::new(Player::Search).unwrap();
        engine
            .set_option("UCI_Variant", Some(variant.name()))
            .unwrap();
        let mut session = Gtp {
            engine,
            game: History::new(variant.startpos()),
            settings: GtpSettings {
                variant,
                limits: GoRequest {
                    depth: Some(3),
                    ..GoRequest::default()
                },
            },
            out: Output::new(captured.clone()),
        };
        for line in lines {
            if !session.execute(line) {
                break;
            }
        }
        captured
            .lines()
            .into_iter()
            .filter(|l| !l.is_empty())
            .collect()
    }

    #[test]
    fn plays_in_openspiels_notation_and_refuses_what_is_wrong() {
        let got = answers(&[
            "7 protocol_version",
            "play w a4a3",
            "play b a4a3",
            "play w a4a3",
            "play b b4c3 extra",
            "boardsize 9",
            "boardsize 4",
            "play b a3b2*",
            "genmove w",
            "genmove w",
            "frobnicate",
            "quit",
            "name",
        ]);
        assert_eq!(got[0], "=7 2");
        assert_eq!(got[1], "? it is not w's turn");
        assert_eq!(got[2], "=");
        assert!(got[3].starts_with("? illegal move a4a3"), "{}", got[3]);
        assert_eq!(got[4], "? play: expected a colour and a move");
        assert_eq!(got[5], "? unacceptable size (no 9x9 board)");
        assert_eq!(got[6], "=");
        // On 4x4 (a new game), black's man takes on b2; white takes it back: a capture
        // from rank 1, marked.
        assert_eq!(got[7], "=");
        assert!(
            ["= a1b2*", "= c1b2*"].contains(&got[8].as_str()),
            "{}",
            got[8]
        );
        assert_eq!(got[9], "? it is not w's turn");
        assert_eq!(got[10], "? unknown command 'frobnicate'");
        assert_eq!(got[11], "=");
        assert_eq!(got.len(), 12, "nothing after quit: {got:?}");
    }

    #[test]
    fn ranks_mirror_both_ways() {
        assert_eq!(mirror("a7a6", 8), "a2a3");
        assert_eq!(mirror("d6e5", 8), "d3e4");
        assert_eq!(mirror("a2a3", 6), "a5a4");
        assert_eq!(mirror(&mirror("h1g2", 8), 8), "h1g2");
    }
}
