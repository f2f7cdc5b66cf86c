//! Reading protocol lines into commands, with a typed error for everything that can be
//! wrong with one. No engine state is needed: a line is read the same way whatever
//! position or search is current.

use super::answer::Query;
use crate::bench;
use crate::engine::{GoRequest, StartingPoint};

/// One protocol line, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Command {
    Uci,
    Ugi,
    /// Switch to CECP, the XBoard protocol.
    Xboard,
    IsReady,
    Quit,
    Stop,
    PonderHit,
    NewGame,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Position {
        start: StartingPoint,
        moves: Vec<String>,
    },
    Go(GoRequest),
    Perft(u32),
    Board,
    Eval,
    Bench(u32),
    Query(Query),
}

/// What is wrong with a line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum UciError {
    #[error("unknown command '{0}'")]
    Unknown(String),
    #[error(transparent)]
    SetOption(#[from] SetOptionError),
    #[error(transparent)]
    Position(#[from] PositionCommandError),
    #[error(transparent)]
    Go(#[from] GoParseError),
    #[error(transparent)]
    Bench(#[from] BenchError),
    #[error(transparent)]
    Query(#[from] QueryError),
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum QueryError {
    #[error("query: expected gameover, p1turn or result")]
    Missing,
    #[error("query: unknown question '{0}' (expected gameover, p1turn or result)")]
    Unknown(String),
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum SetOptionError {
    #[error("setoption needs 'name <option>'")]
    NoName,
    #[error("setoption: missing option name")]
    EmptyName,
    #[error("setoption {0}: 'value' without a value")]
    EmptyValue(String),
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum PositionCommandError {
    #[error("position: expected startpos or fen")]
    Missing,
    #[error("position: expected startpos or fen, got '{0}'")]
    BadStart(String),
    #[error("position startpos: unexpected '{0}'")]
    AfterStartpos(String),
    #[error("position fen: missing FEN")]
    NoFen,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum GoParseError {
    #[error("go {0}: missing number")]
    MissingNumber(&'static str),
    #[error("go {key}: '{text}' is not a whole number")]
    NotANumber { key: &'static str, text: String },
    #[error("go: unknown parameter '{0}'")]
    UnknownParameter(String),
    #[error("go searchmoves: no moves given")]
    NoSearchMoves,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum BenchError {
    #[error("bench: depth '{0}' must be a whole number from 1 to 64")]
    BadDepth(String),
    #[error("bench takes at most one argument, the depth")]
    TooManyArguments,
}

impl Command {
    /// Reads one line; `Ok(None)` for a blank one.
    pub(crate) fn parse(line: &str) -> Result<Option<Command>, UciError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return Ok(None);
        };
        let command = match command {
            "uci" => Command::Uci,
            "ugi" => Command::Ugi,
            "xboard" => Command::Xboard,
            "isready" => Command::IsReady,
            "quit" => Command::Quit,
            "stop" => Command::Stop,
            "ponderhit" => Command::PonderHit,
            "ucinewgame" | "uginewgame" => Command::NewGame,
            "query" => Command::Query(parse_query(args)?),
            "setoption" => parse_setoption(args)?,
            "position" => parse_position(args)?,
            "go" => parse_go(args)?,
            "d" => Command::Board,
            "eval" => Command::Eval,
            "bench" => Command::Bench(parse_bench(args)?),
            _ => return Err(UciError::Unknown(line.trim().chars().take(80).collect())),
        };
        Ok(Some(command))
    }
}

/// `setoption name <name words> [value <value words>]`.
fn parse_setoption(words: &[&str]) -> Result<Command, SetOptionError> {
    if words.first() != Some(&"name") {
        return Err(SetOptionError::NoName);
    }
    let value_at = words.iter().position(|w| *w == "value");
    let name = words[1..value_at.unwrap_or(words.len())].join(" ");
    if name.is_empty() {
        return Err(SetOptionError::EmptyName);
    }
    let value = value_at.map(|i| words[i + 1..].join(" "));
    if value.as_deref() == Some("") {
        return Err(SetOptionError::EmptyValue(name));
    }
    Ok(Command::SetOption { name, value })
}

/// `position startpos|fen FEN [moves m1 m2 ...]`.
fn parse_position(words: &[&str]) -> Result<Command, PositionCommandError> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let head = &words[..moves_at.unwrap_or(words.len())];
    let moves = moves_at.map_or(Vec::new(), |i| {
        words[i + 1..].iter().map(|s| s.to_string()).collect()
    });
    let start = match head.first() {
        Some(&"startpos") if head.len() == 1 => StartingPoint::StartPos,
        Some(&"startpos") => return Err(PositionCommandError::AfterStartpos(head[1].into())),
        Some(&"fen") if head.len() > 1 => StartingPoint::Fen(head[1..].join(" ")),
        Some(&"fen") => return Err(PositionCommandError::NoFen),
        Some(other) => return Err(PositionCommandError::BadStart(other.to_string())),
        None => return Err(PositionCommandError::Missing),
    };
    Ok(Command::Position { start, moves })
}

/// `query gameover|p1turn|result` (UGI).
fn parse_query(words: &[&str]) -> Result<Query, QueryError> {
    match words {
        [] => Err(QueryError::Missing),
        ["gameover"] => Ok(Query::GameOver),
        ["p1turn"] => Ok(Query::P1Turn),
        ["result"] => Ok(Query::Result),
        _ => Err(QueryError::Unknown(words.join(" "))),
    }
}

/// The words `go` knows; the list after `searchmoves` ends at the next of them. UGI's
/// `p1time p2time p1inc p2inc` are UCI's `wtime btime winc binc` (player 1 is White),
/// and either dialect may use either name.
const GO_KEYWORDS: [&str; 17] = [
    "infinite",
    "ponder",
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "p1time",
    "p2time",
    "p1inc",
    "p2inc",
    "movestogo",
    "mate",
    "perft",
    "searchmoves",
];

/// `go [limits]`, or `go perft N`.
fn parse_go(words: &[&str]) -> Result<Command, GoParseError> {
    let mut go = GoRequest::default();
    let mut perft = None;
    let mut i = 0;
    while i < words.len() {
        let Some(&key) = GO_KEYWORDS.iter().find(|&&k| k == words[i]) else {
            return Err(GoParseError::UnknownParameter(words[i].to_string()));
        };
        match key {
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                while let Some(text) = words.get(i + 1).filter(|w| !GO_KEYWORDS.contains(w)) {
                    go.searchmoves.push(text.to_string());
                    i += 1;
                }
                if go.searchmoves.is_empty() {
                    return Err(GoParseError::NoSearchMoves);
                }
            }
            _ => {
                let n = number(key, words.get(i + 1).copied())?;
                match key {
                    "depth" => go.depth = Some(n.clamp(1, 1_000) as u32),
                    "nodes" => go.nodes = Some(n),
                    "movetime" => go.movetime = Some(n),
                    "wtime" | "p1time" => go.wtime = Some(n),
                    "btime" | "p2time" => go.btime = Some(n),
                    "winc" | "p1inc" => go.winc = Some(n),
                    "binc" | "p2inc" => go.binc = Some(n),
                    "movestogo" => go.movestogo = Some(n.max(1)),
                    "mate" => go.mate = Some(n.clamp(1, 1_000) as u32),
                    _ => perft = Some(n.min(64) as u32),
                }
                i += 1;
            }
        }
        i += 1;
    }
    Ok(match perft {
        Some(depth) => Command::Perft(depth),
        None => Command::Go(go),
    })
}

/// The number after `key`.
fn number(key: &'static str, text: Option<&str>) -> Result<u64, GoParseError> {
    let text = text.ok_or(GoParseError::MissingNumber(key))?;
    // Clocks can go negative in some GUIs after a lag; treat as zero time left.
    if matches!(key, "wtime" | "btime" | "p1time" | "p2time")
        && text.parse::<i64>().is_ok_and(|n| n < 0)
    {
        return Ok(0);
    }
    text.parse().map_err(|_| GoParseError::NotANumber {
        key,
        text: text.to_string(),
    })
}

/// `bench [DEPTH]`.
fn parse_bench(args: &[&str]) -> Result<u32, BenchError> {
    match args {
        [] => Ok(bench::DEFAULT_DEPTH),
        [d] => d
            .parse::<u32>()
            .ok()
            .filter(|d| (1..=64).contains(d))
            .ok_or_else(|| BenchError::BadDepth(d.to_string())),
        _ => Err(BenchError::TooManyArguments),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(line: &str) -> Result<Option<Command>, UciError> {
        Command::parse(line)
    }

    fn request(line: &str) -> GoRequest {
        match go(line) {
            Ok(Some(Command::Go(request))) => request,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn go_reads_every_limit() {
        let r = request("go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5 depth 7 nodes 9");
        assert_eq!(
            (r.wtime, r.btime, r.winc, r.binc, r.movestogo),
            (Some(1000), Some(2000), Some(10), Some(20), Some(5))
        );
        assert_eq!((r.depth, r.nodes, r.movetime), (Some(7), Some(9), None));
        let r = request("go movetime 300 mate 3 infinite ponder");
        assert_eq!(
            (r.movetime, r.mate, r.infinite, r.ponder),
            (Some(300), Some(3), true, true)
        );
        assert_eq!(request("go"), GoRequest::default());
    }

    #[test]
    fn go_clamps_what_makes_no_sense() {
        assert_eq!(request("go wtime -50 btime -1").wtime, Some(0));
        assert_eq!(request("go depth 0").depth, Some(1));
        assert_eq!(request("go depth 99999").depth, Some(1_000));
        assert_eq!(request("go movestogo 0").movestogo, Some(1));
        assert_eq!(go("go perft 99"), Ok(Some(Command::Perft(64))));
        // Only the clocks may be negative.
        assert!(matches!(
            go("go winc -5"),
            Err(UciError::Go(GoParseError::NotANumber { key: "winc", .. }))
        ));
    }

    #[test]
    fn ugi_words() {
        let r = request("go p1time 1000 p2time 2000 p1inc 10 p2inc 20");
        assert_eq!(
            (r.wtime, r.btime, r.winc, r.binc),
            (Some(1000), Some(2000), Some(10), Some(20))
        );
        assert_eq!(request("go p2time -3").btime, Some(0));
        assert_eq!(go("ugi"), Ok(Some(Command::Ugi)));
        assert_eq!(go("uginewgame"), Ok(Some(Command::NewGame)));
        assert_eq!(go("query p1turn"), Ok(Some(Command::Query(Query::P1Turn))));
        assert_eq!(go("query result"), Ok(Some(Command::Query(Query::Result))));
        assert_eq!(
            go("query gameover"),
            Ok(Some(Command::Query(Query::GameOver)))
        );
        assert_eq!(go("query"), Err(UciError::Query(QueryError::Missing)));
        assert_eq!(
            go("query who wins"),
            Err(UciError::Query(QueryError::Unknown("who wins".into())))
        );
    }

    #[test]
    fn searchmoves_run_to_the_next_keyword() {
        let r = request("go searchmoves a2a3 b2b3 depth 4");
        assert_eq!(r.searchmoves, ["a2a3", "b2b3"]);
        assert_eq!(r.depth, Some(4));
        // Text that is no move is the engine's to refuse: it knows the position.
        assert_eq!(request("go searchmoves zz").searchmoves, ["zz"]);
    }

    #[test]
    fn go_errors_name_what_is_wrong() {
        for (line, error) in [
            ("go depth", GoParseError::MissingNumber("depth")),
            (
                "go nodes x",
                GoParseError::NotANumber {
                    key: "nodes",
                    text: "x".into(),
                },
            ),
            ("go wibble", GoParseError::UnknownParameter("wibble".into())),
            ("go searchmoves depth 3", GoParseError::NoSearchMoves),
            (
                "go movetime 18446744073709551616",
                GoParseError::NotANumber {
                    key: "movetime",
                    text: "18446744073709551616".into(),
                },
            ),
        ] {
            assert_eq!(go(line), Err(UciError::Go(error)), "{line}");
        }
    }

    #[test]
    fn other_commands() {
        assert_eq!(go("   "), Ok(None));
        assert_eq!(
            go("setoption name Move Overhead value 30"),
            Ok(Some(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            }))
        );
        assert_eq!(
            go("setoption name Clear Hash"),
            Ok(Some(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }))
        );
        assert_eq!(
            go("setoption name Hash value"),
            Err(UciError::SetOption(SetOptionError::EmptyValue(
                "Hash".into()
            )))
        );
        assert_eq!(
            go("position fen 8/8/8/8/8/8/8/p7 w moves a1a2"),
            Ok(Some(Command::Position {
                start: StartingPoint::Fen("8/8/8/8/8/8/8/p7 w".into()),
                moves: vec!["a1a2".into()]
            }))
        );
        assert_eq!(
            go("position startpos foo"),
            Err(UciError::Position(PositionCommandError::AfterStartpos(
                "foo".into()
            )))
        );
        assert_eq!(go("bench"), Ok(Some(Command::Bench(bench::DEFAULT_DEPTH))));
        assert_eq!(
            go("bench 0"),
            Err(UciError::Bench(BenchError::BadDepth("0".into())))
        );
        let long = format!("frobnicate {}", "x".repeat(200));
        match go(&long) {
            Err(UciError::Unknown(text)) => assert_eq!(text.chars().count(), 80),
            other => panic!("{other:?}"),
        }
    }
}
