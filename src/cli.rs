//! The command line: the UCI engine by default, tools as subcommands. Arguments are
//! read by clap; each subcommand is a few lines that call the module doing the work.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};

mod solve;

use crate::engine::Player;
use crate::lines::outln;
use crate::rng::Rng;
use crate::tourney::{self, EngineSpec, MatchConfig, MatchError, Opening, RefereeConfig, Sprt};
use crate::variant::{AnyPosition, Evaluation, Variant};
use crate::{analyze, bench, datagen, progress, train, tune, uci};

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
        /// Rule set: breakthrough, capture-only or doorbraak.
        #[arg(long, default_value = "breakthrough")]
        variant: Variant,
        /// Start from this FEN instead of the variant's start position.
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
    /// Play engines against each other, refereed: a match for two, a round robin for more.
    Match(MatchArgs),
    /// Serve the page to play, analyse and watch games in a browser (127.0.0.1 by default).
    Serve {
        /// Port to listen on (0: any free one; the address is printed).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Address to listen on; anything but 127.0.0.1 lets other machines in.
        #[arg(long, default_value = "127.0.0.1")]
        host: std::net::IpAddr,
        /// Open the page in the default browser.
        #[arg(long)]
        open: bool,
    },
    /// Fit the evaluation weights to game results in PGN files, or to labelled positions (Texel tuning).
    Tune {
        /// Rule set of the games (and of the weights tuned).
        #[arg(long, default_value = "breakthrough")]
        variant: Variant,
        /// Gradient steps.
        #[arg(long, default_value_t = 2000)]
        epochs: usize,
        /// Write the tuned weights into this weights file (src/rulesets/*/weights.rs) instead
        /// of printing them.
        #[arg(long)]
        write: Option<String>,
        /// Tune only the features FIRST-LAST (inclusive, 0-based); the others keep their
        /// weights. For fitting new terms around an evaluation that already plays well.
        #[arg(long, value_name = "FIRST-LAST", value_parser = parse_feature_range)]
        only: Option<std::ops::RangeInclusive<usize>>,
        /// PGN files of games in this rule set, or labelled-position files (`FEN;target`
        /// lines, target 0..=1 for the side to move).
        #[arg(required = true)]
        pgn: Vec<String>,
    },
    /// A one-ply greedy player over UCI (a sparring partner for matches).
    Greedy,
    /// Play the engine against itself and write training positions (see engine.md).
    Datagen(DatagenArgs),
    /// Train a network on data files and write it (see engine.md).
    Train(TrainArgs),
    /// Analyse positions (one per line: FEN, FEN moves ..., startpos moves ..., EPD):
    /// one JSON object per line on stdout, in input order.
    Analyze(AnalyzeArgs),
    /// Prove who wins a position with perfect play (proof-number search; see engine.md).
    Solve(solve::SolveArgs),
    /// Check a proof written by `solve --certificate` with nothing but the rules.
    VerifyProof(solve::VerifyArgs),
    /// Search fixed positions to a fixed depth; the last line is `N nodes M nps`.
    Bench {
        /// Depth in plies.
        #[arg(default_value_t = bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: u32,
    },
}

#[derive(clap::Args)]
struct DatagenArgs {
    /// Rule set of the games.
    #[arg(long, default_value = "breakthrough")]
    variant: Variant,
    /// Start every game here instead of the variant's start (sets the board size).
    #[arg(long)]
    fen: Option<String>,
    /// Data file to append to (created if missing).
    #[arg(long)]
    out: PathBuf,
    /// Nodes searched per move (without --depth: 5000).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Depth searched per move.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: Option<u32>,
    /// Random legal plies before the engine plays.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=200))]
    random_plies: u32,
    /// Stop when the file holds this many positions (the same command again completes an
    /// interrupted run).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    positions: Option<u64>,
    /// Stop after this many games.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    games: Option<u64>,
    /// Threads, each playing its own games (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Hash table per thread, in MB.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=65_536))]
    hash: u64,
    /// Evaluate with this network file instead of the built-in one.
    #[arg(long, conflicts_with = "hand_eval")]
    net: Option<PathBuf>,
    /// Evaluate by hand (no network).
    #[arg(long)]
    hand_eval: bool,
}

fn run_datagen(args: DatagenArgs) -> ExitCode {
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    );
    let settings = datagen::Settings {
        variant: args.variant,
        start: args.fen,
        out: args.out,
        nodes: args.nodes.or(args.depth.is_none().then_some(5_000)),
        depth: args.depth,
        random_plies: args.random_plies,
        positions: args.positions,
        games: args.games,
        threads,
        seed: args.seed,
        hash_mb: args.hash as usize,
        evaluation: match Evaluation::from_flags(args.net.as_deref(), args.hand_eval) {
            Ok(e) => e,
            Err(e) => return fail(e),
        },
    };
    match datagen::run(&settings, Default::default()) {
        Ok(summary) => {
            eprintln!("{}", summary.line(summary.seconds));
            ExitCode::SUCCESS
        }
        Err(e) => fail(e),
    }
}

#[derive(clap::Args)]
struct TrainArgs {
    /// Data files of one rule set (written by datagen).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Where to write the network (default: nets/VARIANT-HASH.nnue).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Passes over the data.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    epochs: u32,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 16_384, value_parser = clap::value_parser!(u32).range(1..))]
    batch: u32,
    /// Adam's learning rate (a tenth of it for the last quarter of the epochs).
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Share of the target that is the game's result; the rest is the search's score.
    #[arg(long, default_value_t = 0.5)]
    lambda: f32,
    /// Share of the positions held out to validate.
    #[arg(long, default_value_t = 0.02)]
    validation: f32,
    /// Seed of the weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// A note kept in the network file's description (say how the data was made).
    #[arg(long, default_value = "")]
    note: String,
}

/// A `--lr`, `--lambda` or `--validation` outside its range.
#[derive(Debug, thiserror::Error)]
#[error("--{0} must be between {1} and {2}")]
struct RangeError(&'static str, f32, f32);

fn run_train(args: TrainArgs) -> ExitCode {
    for (name, value, lo, hi) in [
        ("lr", args.lr, 1e-6, 1.0),
        ("lambda", args.lambda, 0.0, 1.0),
        ("validation", args.validation, 0.001, 0.5),
    ] {
        if !(lo..=hi).contains(&value) {
            return fail(RangeError(name, lo, hi));
        }
    }
    let settings = train::Settings {
        files: args.files,
        epochs: args.epochs as usize,
        batch: args.batch as usize,
        learning_rate: args.lr,
        lambda: args.lambda,
        validation: args.validation,
        seed: args.seed,
        note: args.note,
        threads: args.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |t| t as usize,
        ),
    };
    let trained = match train::train(&settings, |line| eprintln!("{line}")) {
        Ok(trained) => trained,
        Err(e) => return fail(e),
    };
    let net = trained.network;
    let out = args
        .out
        .unwrap_or_else(|| PathBuf::from(format!("nets/{}-{}.nnue", net.variant(), net.digest())));
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty())
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        return fail(format_args!("cannot create {}: {e}", dir.display()));
    }
    match std::fs::write(&out, net.to_bytes()) {
        Ok(()) => {
            // The path alone on stdout, for scripts; the rest is for people.
            eprintln!("{}", net.about());
            outln!("{}", out.display());
            ExitCode::SUCCESS
        }
        Err(e) => fail(format_args!("cannot write {}: {e}", out.display())),
    }
}

#[derive(clap::Args)]
struct AnalyzeArgs {
    /// Rule set of the positions.
    #[arg(long, default_value = "breakthrough")]
    variant: Variant,
    /// Depth in plies (without any limit: depth 8).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=127))]
    depth: Option<u32>,
    /// Nodes per position.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Milliseconds per position.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    movetime: Option<u64>,
    /// Prove whether the side to move wins within N moves (exhaustive, as go mate N).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    mate: Option<u32>,
    /// Best lines reported per position (a `lines` list).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    multipv: u32,
    /// Hash table per search, in MB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=65_536))]
    hash: u64,
    /// Threads per search.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// Positions analysed at once, each with its own search.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    jobs: u32,
    /// Evaluate with this network file instead of the built-in one.
    #[arg(long, conflicts_with = "hand_eval")]
    net: Option<PathBuf>,
    /// Evaluate by hand (no network).
    #[arg(long)]
    hand_eval: bool,
    /// Files of positions; none, or `-`, reads stdin.
    files: Vec<String>,
}

fn run_analyze(args: AnalyzeArgs) -> ExitCode {
    let settings = analyze::Settings {
        variant: args.variant,
        depth: args.depth,
        nodes: args.nodes,
        movetime: args.movetime.map(Duration::from_millis),
        mate: args.mate,
        multipv: args.multipv as usize,
        hash_mb: args.hash as usize,
        threads: args.threads as usize,
        jobs: args.jobs as usize,
        evaluation: match Evaluation::from_flags(args.net.as_deref(), args.hand_eval) {
            Ok(e) => e,
            Err(e) => return fail(e),
        },
    };
    let stdout = std::io::stdout();
    match analyze::run(&settings, &args.files, &mut stdout.lock()) {
        Ok(0) => ExitCode::SUCCESS,
        Ok(failed) => {
            eprintln!("{failed} lines could not be analysed (see their \"error\")");
            ExitCode::FAILURE
        }
        Err(e) => fail(e),
    }
}

#[derive(clap::Args)]
struct MatchArgs {
    /// An engine: 'cmd=PATH [args="..."] [name=NAME] [option.X=V ...] [tc=S+INC|movetime=MS|depth=D|nodes=N]'.
    #[arg(long = "engine", required = true, num_args = 1)]
    engines: Vec<String>,
    /// Settings applied to every engine (each engine's own settings win).
    #[arg(long, default_value = "")]
    each: String,
    /// Rule set: breakthrough, capture-only or doorbraak.
    #[arg(long, default_value = "breakthrough")]
    variant: Variant,
    /// Games per pairing; each opening is played twice, colours swapped.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    games: u32,
    /// Openings file: one FEN, 'FEN moves m1 m2 ...', or a move list from the start per line.
    #[arg(long)]
    openings: Option<String>,
    /// Random legal plies played from each opening (or from the start) before the engines take over.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=200))]
    random_plies: u32,
    /// Seed for the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    concurrency: u32,
    /// Grace in milliseconds on every time limit before a loss on time.
    #[arg(long, default_value_t = 50)]
    margin: u64,
    /// Seconds an engine may take to answer uci or isready.
    #[arg(long, default_value_t = 10.0)]
    startup_timeout: f64,
    /// Seconds a move may take when the limit is depth or nodes only.
    #[arg(long, default_value_t = 60.0)]
    move_timeout: f64,
    /// Write every game in PGN to this file.
    #[arg(long)]
    pgn: Option<String>,
    /// Write a machine-readable summary to this file.
    #[arg(long)]
    json: Option<String>,
    /// Sequential test: elo0=0 elo1=10 alpha=0.05 beta=0.05 (two engines only).
    #[arg(long, num_args = 1..=4)]
    sprt: Option<Vec<String>>,
    /// Show the games live on a `breakthrough serve` page: its address, http://HOST:PORT.
    #[arg(long, value_name = "URL")]
    publish: Option<String>,
}

#[cfg(feature = "serve")]
fn run_serve(host: std::net::IpAddr, port: u16, open: bool) -> ExitCode {
    match crate::serve::run(std::net::SocketAddr::new(host, port), open) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(e),
    }
}

#[cfg(not(feature = "serve"))]
fn run_serve(_: std::net::IpAddr, _: u16, _: bool) -> ExitCode {
    fail(
        "this binary was built without the page: build it with the 'serve' feature (on by default)",
    )
}

fn seconds(value: f64, what: &'static str) -> Result<Duration, MatchError> {
    if value.is_finite() && value > 0.0 && value < 1e7 {
        Ok(Duration::from_secs_f64(value))
    } else {
        Err(MatchError::BadSeconds(what))
    }
}

fn match_config(args: MatchArgs) -> Result<MatchConfig, MatchError> {
    if args.engines.len() < 2 {
        return Err(MatchError::TooFewEngines);
    }
    let engines = args
        .engines
        .iter()
        .map(|e| EngineSpec::with_defaults(&args.each, e))
        .collect::<Result<Vec<_>, _>>()?;
    let sprt = match &args.sprt {
        Some(_) if engines.len() != 2 => return Err(MatchError::SprtNeedsTwo),
        Some(words) => Some(Sprt::parse(words)?),
        None => None,
    };
    let base = match &args.openings {
        Some(path) => Opening::load_file(path, args.variant)?,
        None => vec![Opening {
            start: AnyPosition::startpos(args.variant),
            moves: Vec::new(),
        }],
    };
    let needed = (args.games as usize).div_ceil(2);
    let openings = if args.random_plies == 0 {
        base
    } else {
        let mut rng = Rng::new(args.seed);
        (0..needed)
            .map(|k| {
                let from = &base[k % base.len()];
                let extra = Opening::random(&from.position(), args.random_plies, &mut rng)?;
                let mut moves = from.moves.clone();
                moves.extend(extra.moves);
                Ok(Opening {
                    start: from.start.clone(),
                    moves,
                })
            })
            .collect::<Result<Vec<_>, MatchError>>()?
    };
    Ok(MatchConfig {
        engines,
        variant: args.variant,
        games: args.games as usize,
        openings,
        concurrency: args.concurrency as usize,
        referee: RefereeConfig {
            margin: Duration::from_millis(args.margin),
            startup_timeout: seconds(args.startup_timeout, "startup-timeout")?,
            move_timeout: seconds(args.move_timeout, "move-timeout")?,
        },
        pgn: args.pgn,
        json: args.json,
        sprt,
        publish: args.publish,
    })
}

/// A `--only` value that is no range of features.
#[derive(Debug, thiserror::Error)]
enum FeatureRangeError {
    #[error("expected FIRST-LAST, got '{0}'")]
    Shape(String),
    #[error("'{0}' is not a feature index")]
    NotAnIndex(String),
    #[error("empty range {0}-{1}")]
    Empty(usize, usize),
}

fn parse_feature_range(text: &str) -> Result<std::ops::RangeInclusive<usize>, FeatureRangeError> {
    let (first, last) = text
        .split_once('-')
        .ok_or_else(|| FeatureRangeError::Shape(text.to_string()))?;
    let number = |t: &str| {
        t.trim()
            .parse::<usize>()
            .map_err(|_| FeatureRangeError::NotAnIndex(t.to_string()))
    };
    let (first, last) = (number(first)?, number(last)?);
    if first > last {
        return Err(FeatureRangeError::Empty(first, last));
    }
    Ok(first..=last)
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
        Some(fen) => match AnyPosition::from_fen(&fen, variant) {
            Ok(p) => p,
            Err(e) => return fail(format_args!("bad FEN: {e}")),
        },
        None => AnyPosition::startpos(variant),
    };
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(threads as usize)
        .build()
    {
        Ok(p) => p,
        Err(e) => return fail(format_args!("cannot start {threads} threads: {e}")),
    };
    let start = Instant::now();
    // Deep counts take seconds to hours: a bar over the root moves on a terminal.
    let bar = match depth {
        0..=6 => progress::ProgressBar::hidden(),
        _ => progress::bar(
            pos.legal_moves().len() as u64,
            "{bar:40} {pos}/{len} root moves, {elapsed} spent, {eta} left",
        ),
    };
    let mut per_move = pool.install(|| pos.perft_divide(depth, &|| false, &|| bar.inc(1)));
    bar.finish_and_clear();
    let total: u64 = if depth == 0 {
        1
    } else {
        per_move.iter().map(|(_, n)| n).sum()
    };
    let seconds = start.elapsed().as_secs_f64();
    if divide {
        per_move.sort_by_key(|(m, _)| m.to_string());
        for (m, n) in &per_move {
            outln!("{m}: {n}");
        }
        outln!();
    }
    outln!("Nodes searched: {total}");
    eprintln!(
        "time {:.3} s, {:.0} leaves/s",
        seconds,
        total as f64 / seconds.max(1e-9)
    );
    ExitCode::SUCCESS
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
        Some(Command::Perft {
            variant,
            fen,
            divide,
            threads,
            depth,
        }) => run_perft(variant, fen, divide, threads, depth),
        Some(Command::Match(args)) => match match_config(args).and_then(tourney::run) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(e),
        },
        Some(Command::Tune {
            variant,
            epochs,
            write,
            only,
            pgn,
        }) => match tune::run(variant, epochs, write.as_deref(), only, &pgn) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(e),
        },
        Some(Command::Serve { port, host, open }) => run_serve(host, port, open),
        Some(Command::Analyze(args)) => run_analyze(args),
        Some(Command::Datagen(args)) => run_datagen(args),
        Some(Command::Train(args)) => run_train(args),
        Some(Command::Solve(args)) => solve::run_solve(args),
        Some(Command::VerifyProof(args)) => solve::run_verify(args),
        Some(Command::Greedy) => match uci::run(Player::Greedy) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(e),
        },
        Some(Command::Bench { depth }) => match bench::run(depth, Default::default()) {
            Ok(report) => {
                outln!("{}", report.summary_line());
                ExitCode::SUCCESS
            }
            Err(e) => fail(e),
        },
        None => match uci::run(Player::Search) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(e),
        },
    }
}
