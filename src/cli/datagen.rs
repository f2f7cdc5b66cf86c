//! `breakthrough datagen`: self-play games written as training positions.

use std::path::PathBuf;
use std::process::ExitCode;

use super::{every_core, fail};
use crate::learn::datagen;
use crate::registry::{Evaluation, Variant};

#[derive(clap::Args)]
pub(super) struct DatagenArgs {
    /// Rule set of the games.
    #[arg(long, default_value = "breakthrough")]
    variant: Variant,
    /// Start every game here instead of the variant's start (sets the board size).
    #[arg(long)]
    fen: Option<String>,
    /// Data file to append to (created if missing).
    #[arg(long)]
    out: PathBuf,
    /// Play only the I-th of N contiguous slices of the games 0..G (--games G), as a job of a
    /// cluster; merge the shards' files with --merge, or give them all to `train`.
    #[arg(long, value_name = "I/N", value_parser = crate::util::shard::Shard::parse, requires = "games")]
    shard: Option<crate::util::shard::Shard>,
    /// Play nothing: write the given data files, read in order with repeats dropped (the
    /// first kept), to --out (a new file).
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with = "shard")]
    merge: Option<Vec<PathBuf>>,
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
    /// Stop when the games 0..G are played (this shard's slice of them).
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
    /// Play each game to its end even after the search has proven its result (by default
    /// the game ends there: no later position would be kept).
    #[arg(long)]
    play_out: bool,
    /// Label two positions with each search: the position searched, and the one after its
    /// best move with the same score from the other side; the game goes on with the
    /// search's expected reply, not searched (half the searches a position).
    #[arg(long)]
    reply_labels: bool,
}

pub(super) fn run(args: DatagenArgs) -> ExitCode {
    if let Some(files) = &args.merge {
        return match datagen::merge(&args.out, files) {
            Ok((written, repeats)) => {
                eprintln!(
                    "{written} positions written to {} ({repeats} repeats left out)",
                    args.out.display()
                );
                ExitCode::SUCCESS
            }
            Err(e) => fail(e),
        };
    }
    let threads = every_core(args.threads);
    let settings = datagen::DatagenSettings {
        variant: args.variant,
        start: args.fen,
        out: args.out,
        nodes: args.nodes.or(args.depth.is_none().then_some(5_000)),
        depth: args.depth,
        random_plies: args.random_plies,
        positions: args.positions,
        games: args.games,
        shard: args.shard.unwrap_or(crate::util::shard::Shard::WHOLE),
        threads,
        seed: args.seed,
        play_out: args.play_out,
        reply_labels: args.reply_labels,
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
