//! `breakthrough match`: engines played against each other, refereed.

use std::process::ExitCode;
use std::time::Duration;

use super::fail;
use crate::registry::{AnyPosition, Variant};
use crate::tourney::{self, EngineSpec, MatchConfig, MatchError, Opening, RefereeConfig, Sprt};
use crate::util::rng::Rng;

#[derive(clap::Args)]
pub(super) struct MatchArgs {
    /// An engine: 'cmd=PATH [args="..."] [name=NAME] [option.X=V ...] [tc=S+INC|movetime=MS|depth=D|nodes=N]'.
    #[arg(long = "engine", required_unless_present = "merge", num_args = 1)]
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
    /// Play only the I-th of N slices of the match's games (whole opening pairs), as a job
    /// of a cluster; needs --json, and goes on from it like --resume.
    #[arg(long, value_name = "I/N", value_parser = tourney::Shard::parse)]
    shard: Option<tourney::Shard>,
    /// Go on from the --json file of an earlier run of the same match: its finished games
    /// are kept and the rest played (nothing, if it finished).
    #[arg(long)]
    resume: bool,
    /// Play nothing: merge the --json files of a match's shards into one table and test
    /// (and --pgn/--json files of the whole).
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["engines", "shard", "resume", "publish"])]
    merge: Option<Vec<String>>,
}

pub(super) fn run(args: MatchArgs) -> ExitCode {
    if let Some(files) = &args.merge {
        return match tourney::merge(files, args.pgn.as_deref(), args.json.as_deref()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(e),
        };
    }
    match match_config(args).and_then(tourney::run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(e),
    }
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
        shard: args.shard.unwrap_or(tourney::Shard::WHOLE),
        resume: args.resume || args.shard.is_some(),
    })
}
