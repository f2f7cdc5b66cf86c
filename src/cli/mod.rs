//! The command line: the UCI engine by default, tools as subcommands, each in a file of
//! its own here. Arguments are read by clap; each subcommand is a few lines that call the
//! module doing the work.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod analyze;
mod bench;
mod datagen;
mod gtp;
mod matches;
mod perft;
mod serve;
mod solve;
mod train;
mod tune;
mod verify_proof;

use crate::engine::Player;
use crate::uci;

#[derive(Parser)]
#[command(
    name = "breakthrough",
    version,
    about = "A Breakthrough engine and tools"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Tool>,
}

#[derive(Subcommand)]
enum Tool {
    /// Count the leaf nodes of the move tree to DEPTH (Fairy-Stockfish's output format).
    Perft(perft::PerftArgs),
    /// Play engines against each other, refereed: a match for two, a round robin for more.
    Match(matches::MatchArgs),
    /// Serve the page to play, analyse and watch games in a browser (127.0.0.1 by default).
    Serve(serve::ServeArgs),
    /// Fit the evaluation weights to game results in PGN files, or to labelled positions (Texel tuning).
    Tune(tune::TuneArgs),
    /// A one-ply greedy player over UCI (a sparring partner for matches).
    Greedy,
    /// Play the engine against itself and write training positions (see engine.md).
    Datagen(datagen::DatagenArgs),
    /// Train a network on data files and write it (see engine.md).
    Train(train::TrainArgs),
    /// Analyse positions (one per line: FEN, FEN moves ..., startpos moves ..., EPD):
    /// one JSON object per line on stdout, in input order.
    Analyze(analyze::AnalyzeArgs),
    /// Prove who wins a position with perfect play (proof-number search; see engine.md).
    Solve(solve::SolveArgs),
    /// Check a proof written by `solve --certificate` with nothing but the rules.
    VerifyProof(verify_proof::VerifyProofArgs),
    /// Search fixed positions to a fixed depth; the last line is `N nodes M nps`.
    Bench(bench::BenchArgs),
    /// The engine over GTP, in OpenSpiel's notation (its first player is `b`, on top).
    Gtp(gtp::GtpArgs),
}

/// Prints one error line on stderr and gives the failing exit status.
fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::FAILURE
}

/// `--threads` where given, else every core.
fn every_core(threads: Option<u32>) -> usize {
    threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    )
}

/// The UCI engine over stdin/stdout, searching or greedy.
fn run_engine(player: Player) -> ExitCode {
    match uci::run(player) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(e),
    }
}

/// A clap error's message on one line: its first line, with the indented lines that go
/// on from it (the missing arguments of "the following required arguments were not
/// provided:"), not the usage that follows.
fn first_paragraph(text: &str) -> String {
    let mut lines = text.lines();
    let mut line = lines
        .next()
        .unwrap_or("bad arguments")
        .trim_end()
        .to_string();
    for more in lines.take_while(|l| l.starts_with(' ') && !l.trim().is_empty()) {
        line.push(' ');
        line.push_str(more.trim());
    }
    line
}

/// Runs the `breakthrough` command with the process's arguments.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version: print as clap does.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("{} (see --help)", first_paragraph(&e.to_string()));
            return ExitCode::from(2);
        }
    };
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    match cli.command {
        None => run_engine(Player::Search),
        Some(Tool::Greedy) => run_engine(Player::Greedy),
        Some(Tool::Perft(args)) => perft::run(args),
        Some(Tool::Match(args)) => matches::run(args),
        Some(Tool::Tune(args)) => tune::run(args),
        Some(Tool::Serve(args)) => serve::run(args),
        Some(Tool::Analyze(args)) => analyze::run(args),
        Some(Tool::Datagen(args)) => datagen::run(args),
        Some(Tool::Train(args)) => train::run(args),
        Some(Tool::Solve(args)) => solve::run(args),
        Some(Tool::VerifyProof(args)) => verify_proof::run(args),
        Some(Tool::Bench(args)) => bench::run(args),
        Some(Tool::Gtp(args)) => gtp::run(args),
    }
}
