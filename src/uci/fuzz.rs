//! A fuzz test of the protocol, in process: well over 100,000 random and mutated lines
//! of both dialects and every rule set go through one session, and the output must show
//! no panic, exactly one `bestmove` per `go`, never an illegal move, and a `readyok` for
//! every `isready`.

use std::sync::mpsc::sync_channel;
use std::time::Instant;

use super::command::{Command, UciError};
use super::tests::Captured;
use super::*;
use crate::registry::{AnyPosition, Variant};
use crate::util::rng::Rng;

/// Lines generated in a release build (a tenth in a debug build, ten times slower); the
/// `d` before each `go` and the `stop` after each search come on top.
const LINES: usize = if cfg!(debug_assertions) {
    10_000
} else {
    100_000
};

struct Generator {
    rng: Rng,
    variants: Vec<Variant>,
    /// The variant the generator believes is set: positions are made for it.
    variant: Variant,
}

impl Generator {
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.rng.below(items.len())]
    }

    fn number(&mut self) -> String {
        match self.rng.below(10) {
            0 => "0".into(),
            1 => "-7".into(),
            2 => "999999999999999999999".into(),
            3 => u64::MAX.to_string(),
            4 => "x".into(),
            _ => self.rng.below(3000).to_string(),
        }
    }

    /// Legal moves from the variant's start, some plies of a random game.
    fn moves(&mut self) -> (AnyPosition, Vec<String>) {
        let mut pos = AnyPosition::startpos(self.variant);
        let mut moves = Vec::new();
        for _ in 0..self.rng.below(30) {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[self.rng.below(legal.len())];
            moves.push(m.to_string());
            pos.play(m);
        }
        (pos, moves)
    }

    fn position(&mut self) -> String {
        let (pos, moves) = self.moves();
        match self.rng.below(4) {
            0 => "position startpos".into(),
            1 => format!("position startpos moves {}", moves.join(" ")),
            2 => format!("position fen {}", pos.to_fen()),
            _ => {
                let (_, more) = self.moves();
                format!("position fen {} moves {}", pos.to_fen(), more.join(" "))
            }
        }
    }

    fn go(&mut self) -> String {
        let limit = match self.rng.below(12) {
            0 => format!("depth {}", 1 + self.rng.below(3)),
            1 => format!("nodes {}", self.number()),
            2 => format!("movetime {}", self.rng.below(5)),
            3 => format!("wtime {} btime {}", self.number(), self.number()),
            4 => format!(
                "p1time {} p2time {} p1inc 5 p2inc 5",
                self.number(),
                self.number()
            ),
            5 => format!("mate {}", 1 + self.rng.below(2)),
            6 => "infinite".into(),
            7 => "ponder movetime 3".into(),
            8 => format!(
                "depth 2 searchmoves {}",
                self.moves().1.first().cloned().unwrap_or_default()
            ),
            9 => format!("perft {}", self.rng.below(4)),
            10 => String::new(),
            _ => format!("depth {} movestogo {}", self.number(), self.number()),
        };
        format!("go {limit}")
    }

    fn command(&mut self) -> String {
        match self.rng.below(20) {
            0 => self.pick(&["uci", "ugi"]).into(),
            1 => self.pick(&["ucinewgame", "uginewgame", "isready"]).into(),
            2 => {
                self.variant = self.variants[self.rng.below(self.variants.len())];
                format!("setoption name UCI_Variant value {}", self.variant)
            }
            3 => {
                let name = self.pick(&["Hash", "MultiPV", "Threads", "Move Overhead", "Ponder"]);
                let value = match name {
                    "Hash" => (1 + self.rng.below(4)).to_string(),
                    "Threads" => (1 + self.rng.below(2)).to_string(),
                    "Ponder" => self.pick(&["true", "false", "maybe"]).into(),
                    _ => self.number(),
                };
                format!("setoption name {name} value {value}")
            }
            4..=7 => self.position(),
            8..=12 => self.go(),
            13 => self.pick(&["stop", "ponderhit", "d", "eval"]).into(),
            14 => format!(
                "query {}",
                self.pick(&["gameover", "p1turn", "result", "who"])
            ),
            15 => format!("bench {}", self.pick(&["1", "0", "x"])),
            _ => self.mutate(),
        }
    }

    /// A line of another kind, damaged: bytes changed, words dropped, swapped or added.
    fn mutate(&mut self) -> String {
        let line = match self.rng.below(3) {
            0 => self.position(),
            1 => self.go(),
            _ => self.command_without_mutation(),
        };
        let mut words: Vec<String> = line.split(' ').map(str::to_string).collect();
        for _ in 0..1 + self.rng.below(3) {
            let at = self.rng.below(words.len());
            match self.rng.below(5) {
                0 => {
                    words.remove(at);
                    if words.is_empty() {
                        words.push(String::new());
                    }
                }
                1 => {
                    let other = self.rng.below(words.len());
                    words.swap(at, other);
                }
                2 => words.insert(at, self.number()),
                3 => {
                    let garbage =
                        self.pick(&["\u{fffd}", "moves", "fen", "é", "\t", "0000", "a9a9"]);
                    words.insert(at, garbage.into());
                }
                _ => {
                    let mut bytes = words[at].clone().into_bytes();
                    if !bytes.is_empty() {
                        let i = self.rng.below(bytes.len());
                        bytes[i] = b"az09/ -"[self.rng.below(7)];
                    }
                    words[at] = String::from_utf8_lossy(&bytes).into_owned();
                }
            }
        }
        words.join(" ")
    }

    fn command_without_mutation(&mut self) -> String {
        loop {
            let line = self.command();
            // A mutated command might mutate again; one level is enough.
            if !line.is_empty() {
                return line;
            }
        }
    }
}

#[test]
fn random_and_mutated_lines_never_break_the_protocol() {
    let started = Instant::now();
    let variants: Vec<Variant> = Variant::all().collect();
    let mut generator = Generator {
        rng: Rng::new(2026),
        variant: variants[0],
        variants,
    };
    let mut lines = Vec::new();
    let (mut generated, mut gos, mut readies) = (0, 0, 0);
    while generated < LINES {
        generated += 1;
        let line = generator.command();
        let parsed = Command::parse(&line);
        if matches!(parsed, Ok(Some(Command::Quit))) {
            continue;
        }
        let go = matches!(parsed, Ok(Some(Command::Go(_))) | Err(UciError::Go(_)));
        let long = go || matches!(parsed, Ok(Some(Command::Perft(_) | Command::Bench(_))));
        if go {
            // The position the move must be legal in, as the engine reports it.
            lines.push("d".to_string());
            gos += 1;
        }
        readies += usize::from(matches!(parsed, Ok(Some(Command::IsReady))));
        lines.push(line);
        if long {
            // A GUI stops what it started; here at once, so the test stays fast.
            lines.push("stop".to_string());
        }
    }

    let captured = Captured::default();
    let output = captured.clone();
    let fed = lines.clone();
    let session = std::thread::spawn(move || {
        let mut session = Connection::new(Player::Search, Output::new(output)).unwrap();
        let (tx, rx) = sync_channel(1024);
        let feeder = std::thread::spawn(move || {
            for line in fed {
                if tx.send(Input::Line(line)).is_err() {
                    break;
                }
            }
        });
        session.serve(&rx);
        feeder.join().unwrap();
    });
    session.join().expect("the session never panics");

    let out = captured.lines();
    let bestmoves: Vec<&String> = out.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(bestmoves.len(), gos, "one bestmove per go");
    assert_eq!(out.iter().filter(|l| *l == "readyok").count(), readies);
    // Every move played is legal in the position `d` showed just before its `go`.
    let (mut variant, mut fen, mut checked) = (None::<Variant>, None::<String>, 0);
    for line in &out {
        if let Some(v) = line.strip_prefix("Variant: ") {
            variant = v.parse().ok();
        } else if let Some(f) = line.strip_prefix("Fen: ") {
            fen = Some(f.to_string());
        } else if line.starts_with("info string error: no valid position") {
            fen = None;
        } else if let Some(m) = line.strip_prefix("bestmove ") {
            let m = m.split_whitespace().next().unwrap();
            if m != "(none)" {
                let (Some(v), Some(f)) = (variant, &fen) else {
                    panic!("bestmove {m} without a valid position");
                };
                let pos = AnyPosition::from_fen(f, v).unwrap();
                assert!(pos.parse_move(m).is_ok(), "{m} is illegal in {v} {f}");
                checked += 1;
            }
        }
    }
    assert!(
        gos > LINES / 10 && checked > gos / 4,
        "{gos} go, {checked} moves"
    );
    eprintln!(
        "fuzz: {generated} lines generated, {} fed, {gos} go, {checked} moves checked, {} lines out, {:.1} s",
        lines.len(),
        out.len(),
        started.elapsed().as_secs_f64()
    );
}
