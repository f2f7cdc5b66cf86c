//! The `breakthrough` command: the UCI engine by default, plus tools as subcommands.

use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use breakthrough::rules::{Position, Variant, perft_divide};

#[derive(Parser)]
#[command(
    name = "breakthrough",
    version,
    about = "A Breakthrough engine and tools"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the move tree to DEPTH (Fairy-Stockfish's output format).
    Perft {
        /// Rule set.
        #[arg(long, default_value = "breakthrough")]
        variant: Variant,
        /// Start from this FEN instead of the 8x8 start position.
        #[arg(long)]
        fen: Option<String>,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Worker threads.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
        threads: u32,
        /// Depth in plies.
        depth: u32,
    },
}

/// Prints one error line on stderr and gives the failing exit status.
fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::FAILURE
}

fn run_perft(
    variant: Variant,
    fen: Option<String>,
    divide: bool,
    threads: u32,
    depth: u32,
) -> ExitCode {
    let pos = match fen {
        Some(fen) => match Position::from_fen(&fen, variant) {
            Ok(p) => p,
            Err(e) => return fail(format_args!("bad FEN: {e}")),
        },
        None => Position::startpos(variant),
    };
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(threads as usize)
        .build()
    {
        Ok(p) => p,
        Err(e) => return fail(format_args!("cannot start {threads} threads: {e}")),
    };
    let start = Instant::now();
    let mut per_move = pool.install(|| perft_divide(&pos, depth));
    let total: u64 = if depth == 0 {
        1
    } else {
        per_move.iter().map(|(_, n)| n).sum()
    };
    let seconds = start.elapsed().as_secs_f64();
    if divide {
        per_move.sort_by_key(|(m, _)| m.to_string());
        for (m, n) in &per_move {
            println!("{m}: {n}");
        }
        println!();
    }
    println!("Nodes searched: {total}");
    eprintln!(
        "time {:.3} s, {:.0} leaves/s",
        seconds,
        total as f64 / seconds.max(1e-9)
    );
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version: print as clap does.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let text = e.to_string();
            let first = text.lines().next().unwrap_or("bad arguments");
            eprintln!("{} (see --help)", first.trim_end());
            return ExitCode::from(2);
        }
    };
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    match cli.command {
        Some(Command::Perft {
            variant,
            fen,
            divide,
            threads,
            depth,
        }) => run_perft(variant, fen, divide, threads, depth),
        None => fail("the engine is not built yet; try 'breakthrough perft --help'"),
    }
}
