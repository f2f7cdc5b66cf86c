//! `solve` and `verify-proof` on the command line.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde_json::{Value, json};

use super::fail;
use crate::rulesets::breakthrough::{Color, DiagonalStep, Geometry, Position};
use crate::solve::{self, Certificate, Settings, Solution};
use crate::variant::Variant;

#[derive(clap::Args)]
pub(super) struct SolveArgs {
    /// Rule set: breakthrough or capture-only.
    #[arg(long, default_value = "breakthrough")]
    variant: Variant,
    /// Solve this position.
    #[arg(long, conflicts_with = "board")]
    fen: Option<String>,
    /// Solve the start position of this board, FILESxRANKS (3x4 to 8x8), each side on its
    /// first two ranks.
    #[arg(long, value_name = "FxR", value_parser = parse_board)]
    board: Option<(u8, u8)>,
    /// Threads (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// The solver's table, in MB.
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..=1 << 22))]
    hash: u64,
    /// Give up after this many seconds (the answer is then `winner: null`).
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    time_limit: Option<Duration>,
    /// Prove the value of every root move.
    #[arg(long)]
    all_moves: bool,
    /// Write the winning strategy to FILE, checkable by `verify-proof`.
    #[arg(long, value_name = "FILE")]
    certificate: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub(super) struct VerifyArgs {
    /// A proof written by `solve --certificate`.
    file: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

fn parse_board(text: &str) -> Result<(u8, u8), String> {
    let bad = || format!("'{text}' is not a board: FILESxRANKS, 3x4 to 8x8");
    let (files, ranks) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let files: u8 = files.trim().parse().map_err(|_| bad())?;
    let ranks: u8 = ranks.trim().parse().map_err(|_| bad())?;
    Geometry::get(files, ranks).ok_or_else(bad)?;
    Ok((files, ranks))
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s < 1e9 => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!("'{text}' is not a number of seconds above 0")),
    }
}

fn diagonal_of(variant: Variant) -> Option<DiagonalStep> {
    match variant.name() {
        "breakthrough" => Some(DiagonalStep::Free),
        "capture-only" => Some(DiagonalStep::CaptureOnly),
        _ => None,
    }
}

fn color_name(c: Option<Color>) -> Value {
    c.map_or(Value::Null, |c| json!(c.to_string()))
}

pub(super) fn run_solve(args: SolveArgs) -> ExitCode {
    let Some(diagonal) = diagonal_of(args.variant) else {
        return fail(format_args!(
            "solve plays breakthrough and capture-only, not {}",
            args.variant
        ));
    };
    let root = match (&args.fen, args.board) {
        (Some(fen), _) => match Position::from_fen(fen, diagonal) {
            Ok(p) => p,
            Err(e) => return fail(format_args!("bad FEN: {e}")),
        },
        (None, Some((files, ranks))) => match Geometry::get(files, ranks) {
            Some(g) => Position::start(diagonal, g),
            None => return fail(format_args!("no {files}x{ranks} board")),
        },
        (None, None) => Position::startpos(diagonal),
    };
    let settings = Settings {
        threads: args.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |t| t as usize,
        ),
        hash_megabytes: args.hash as usize,
        time_limit: args.time_limit,
        all_moves: args.all_moves,
        certificate: args.certificate.is_some(),
        progress: true,
    };
    let stop = AtomicBool::new(false);
    let solution = match solve::solve(root, &settings, &stop) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let mut checked = None;
    if let (Some(path), Some(certificate)) = (&args.certificate, &solution.certificate) {
        // Check before writing: a proof that fails its own check is a bug, not a file.
        let verified = match certificate.verify() {
            Ok(v) => v,
            Err(e) => return fail(format_args!("the certificate does not check: {e}")),
        };
        if let Err(e) = write_atomically(path, &certificate.to_bytes()) {
            return fail(format_args!("cannot write {}: {e}", path.display()));
        }
        checked = Some(verified);
    }
    let peak = solve::peak_megabytes();
    if args.json {
        println!(
            "{}",
            solution_json(&args, &solution, checked.as_ref(), peak)
        );
    } else {
        print_solution(&args, &solution, checked.as_ref(), peak);
    }
    ExitCode::SUCCESS
}

fn solution_json(
    args: &SolveArgs,
    s: &Solution,
    checked: Option<&solve::Verified>,
    peak: Option<u64>,
) -> Value {
    let mut object = json!({
        "fen": s.root.to_fen(),
        "variant": args.variant.name(),
        "board": format!("{}x{}", s.root.files(), s.root.ranks()),
        "winner": color_name(s.winner),
        "move": s.best.map(|m| m.to_string()),
        "nodes": s.nodes,
        "seconds": (s.seconds * 1000.0).round() / 1000.0,
        "peak_mb": peak,
        "proof": s.numbers.0,
        "disproof": s.numbers.1,
    });
    if args.all_moves {
        object["moves"] = s
            .moves
            .iter()
            .map(|v| json!({ "move": v.m.to_string(), "winner": color_name(v.winner) }))
            .collect();
    }
    if let (Some(path), Some(v)) = (&args.certificate, checked) {
        object["certificate"] = json!({
            "file": path.display().to_string(),
            "positions": v.positions,
            "longest_plies": v.longest,
            "seconds": (s.certificate_seconds * 1000.0).round() / 1000.0,
        });
    }
    object
}

fn print_solution(
    args: &SolveArgs,
    s: &Solution,
    checked: Option<&solve::Verified>,
    peak: Option<u64>,
) {
    println!("position  {}", s.root.to_fen());
    println!(
        "variant   {} ({}x{})",
        args.variant,
        s.root.files(),
        s.root.ranks()
    );
    match s.winner {
        Some(w) => println!("winner    {} (proven)", w.name()),
        None => println!(
            "winner    not proven within the limits (proof number {}, disproof number {})",
            s.numbers.0, s.numbers.1
        ),
    }
    if let Some(m) = s.best {
        println!("move      {m} wins");
    }
    if args.all_moves {
        let values: Vec<String> = s
            .moves
            .iter()
            .map(|v| match v.winner {
                Some(w) => format!(
                    "{} {}",
                    v.m,
                    if w == s.root.side_to_move() {
                        "wins"
                    } else {
                        "loses"
                    }
                ),
                None => format!("{} ?", v.m),
            })
            .collect();
        println!("moves     {}", values.join(", "));
    }
    println!("nodes     {}", s.nodes);
    println!(
        "time      {:.3} s ({:.0} nodes/s)",
        s.seconds,
        s.nodes as f64 / s.seconds.max(1e-9)
    );
    if let Some(mb) = peak {
        println!("memory    {mb} MB at most");
    }
    if let (Some(path), Some(v)) = (&args.certificate, checked) {
        println!(
            "proof     {}: {} positions, checked; the loser lasts at most {} plies against it ({:.3} s)",
            path.display(),
            v.positions,
            v.longest,
            s.certificate_seconds
        );
    } else if args.certificate.is_some() {
        println!("proof     none written: nothing proven");
    }
}

/// Writes `bytes` to a temporary file beside `path`, then renames it over `path`: a
/// killed run never leaves half a proof.
fn write_atomically(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".partial");
    std::fs::write(&temporary, bytes)?;
    std::fs::rename(&temporary, path)
}

pub(super) fn run_verify(args: VerifyArgs) -> ExitCode {
    let bytes = match std::fs::read(&args.file) {
        Ok(b) => b,
        Err(e) => return fail(format_args!("cannot read {}: {e}", args.file.display())),
    };
    let verified = Certificate::from_bytes(&bytes).and_then(|c| c.verify());
    match verified {
        Ok(v) => {
            if args.json {
                println!(
                    "{}",
                    json!({
                        "fen": v.root.to_fen(),
                        "winner": color_name(Some(v.winner)),
                        "valid": true,
                        "positions": v.positions,
                        "unused": v.unused,
                        "longest_plies": v.longest,
                    })
                );
            } else {
                println!(
                    "valid: {} wins from {}; {} positions ({} unused), every line checked; the loser lasts at most {} plies",
                    v.winner.name(),
                    v.root.to_fen(),
                    v.positions,
                    v.unused,
                    v.longest
                );
            }
            ExitCode::SUCCESS
        }
        Err(e) => fail(format_args!(
            "{}: not a valid proof: {e}",
            args.file.display()
        )),
    }
}
