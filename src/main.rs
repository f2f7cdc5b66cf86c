//! The `breakthrough` command: the UCI engine by default, plus tools as subcommands.

use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use breakthrough::tourney;
use breakthrough::variant::{AnyPosition, GameVariant};

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
        variant: GameVariant,
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
    /// Fit the evaluation weights to game results in PGN files, or to labelled positions (Texel tuning).
    Tune {
        /// Rule set of the games (and of the weights tuned).
        #[arg(long, default_value = "breakthrough")]
        variant: GameVariant,
        /// Gradient steps.
        #[arg(long, default_value_t = 2000)]
        epochs: usize,
        /// Write the tuned weights into this params.rs instead of printing them.
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
    /// Search fixed positions to a fixed depth; the last line is `N nodes M nps`.
    Bench {
        /// Depth in plies.
        #[arg(default_value_t = breakthrough::bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: u32,
    },
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
    variant: GameVariant,
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
}

fn seconds(value: f64, what: &str) -> Result<std::time::Duration, String> {
    if value.is_finite() && value > 0.0 && value < 1e7 {
        Ok(std::time::Duration::from_secs_f64(value))
    } else {
        Err(format!("--{what} must be a positive number of seconds"))
    }
}

fn match_config(args: MatchArgs) -> Result<tourney::MatchConfig, String> {
    use tourney::openings::{Opening, SplitMix};
    if args.engines.len() < 2 {
        return Err("a match needs at least two --engine".into());
    }
    let engines = args
        .engines
        .iter()
        .map(|e| tourney::spec::EngineSpec::with_defaults(&args.each, e).map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    let sprt = match &args.sprt {
        Some(words) if engines.len() != 2 => {
            let _ = words;
            return Err("--sprt needs exactly two engines".into());
        }
        Some(words) => Some(tourney::stats::Sprt::parse(words)?),
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
        let mut rng = SplitMix::new(args.seed);
        (0..needed)
            .map(|k| {
                let from = &base[k % base.len()];
                let extra = Opening::random(from.position(), args.random_plies, &mut rng)?;
                let mut moves = from.moves.clone();
                moves.extend(extra.moves);
                Ok(Opening {
                    start: from.start,
                    moves,
                })
            })
            .collect::<Result<Vec<_>, String>>()?
    };
    Ok(tourney::MatchConfig {
        engines,
        variant: args.variant,
        games: args.games as usize,
        openings,
        concurrency: args.concurrency as usize,
        game: tourney::game::GameConfig {
            variant: args.variant,
            margin: std::time::Duration::from_millis(args.margin),
            startup_timeout: seconds(args.startup_timeout, "startup-timeout")?,
            move_timeout: seconds(args.move_timeout, "move-timeout")?,
        },
        pgn: args.pgn,
        json: args.json,
        sprt,
    })
}

fn parse_feature_range(text: &str) -> Result<std::ops::RangeInclusive<usize>, String> {
    let (first, last) = text
        .split_once('-')
        .ok_or_else(|| format!("expected FIRST-LAST, got '{text}'"))?;
    let number = |t: &str| {
        t.trim()
            .parse::<usize>()
            .map_err(|_| format!("'{t}' is not a feature index"))
    };
    let (first, last) = (number(first)?, number(last)?);
    if first > last {
        return Err(format!("empty range {first}-{last}"));
    }
    Ok(first..=last)
}

fn run_tune(
    variant: GameVariant,
    epochs: usize,
    write: Option<String>,
    only: Option<std::ops::RangeInclusive<usize>>,
    pgn: &[String],
) -> Result<(), String> {
    use breakthrough::tune;
    let initial = tune::current_weights(variant);
    let free: Vec<bool> = match &only {
        Some(range) if *range.end() >= initial.len() => {
            return Err(format!(
                "--only {}-{}: the {variant} evaluation has features 0-{}",
                range.start(),
                range.end(),
                initial.len() - 1
            ));
        }
        Some(range) => (0..initial.len()).map(|i| range.contains(&i)).collect(),
        None => vec![true; initial.len()],
    };
    let texts = pgn
        .iter()
        .map(|p| std::fs::read_to_string(p).map_err(|e| format!("cannot read {p}: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    let samples = tune::load_samples(&texts, variant)?;
    if samples.len() < 100 {
        return Err(format!(
            "only {} usable positions: play more games",
            samples.len()
        ));
    }
    let start: Vec<f64> = initial.iter().map(|&w| w as f64).collect();
    let k = tune::fit_k(&start, &samples);
    eprintln!(
        "{} positions, K = {k:.4}, loss {:.6}",
        samples.len(),
        tune::loss(&start, &samples, k)
    );
    let tuned = tune::tune(&initial, &free, &samples, k, epochs, |epoch, loss| {
        eprintln!("epoch {epoch}: loss {loss:.6}")
    });
    let rounded: Vec<i32> = tuned.iter().map(|w| w.round() as i32).collect();
    let block = tune::weights_block(variant, &rounded);
    match write {
        Some(path) => {
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("cannot read {path}: {e}"))?;
            let updated = tune::replace_block(&text, variant, &block)?;
            std::fs::write(&path, updated).map_err(|e| format!("cannot write {path}: {e}"))?;
            eprintln!("wrote the {variant} weights into {path}");
        }
        None => println!("{block}"),
    }
    Ok(())
}

fn run_match(args: MatchArgs) -> ExitCode {
    match match_config(args).and_then(tourney::run) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => fail(e),
    }
}

/// Prints one error line on stderr and gives the failing exit status.
fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::FAILURE
}

fn run_perft(
    variant: GameVariant,
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
    let mut per_move = pool.install(|| pos.perft_divide(depth));
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
        Some(Command::Match(args)) => run_match(args),
        Some(Command::Tune {
            variant,
            epochs,
            write,
            only,
            pgn,
        }) => match run_tune(variant, epochs, write, only, &pgn) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(e),
        },
        Some(Command::Greedy) => {
            breakthrough::greedy::run();
            ExitCode::SUCCESS
        }
        Some(Command::Bench { depth }) => {
            println!("{}", breakthrough::bench::run(depth).summary_line());
            ExitCode::SUCCESS
        }
        None => {
            breakthrough::uci::run();
            ExitCode::SUCCESS
        }
    }
}
