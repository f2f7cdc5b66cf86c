//! `breakthrough analyze`: positions in, one JSON object per position out.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use super::fail;
use crate::analyze;
use crate::registry::{Evaluation, Variant};

#[derive(clap::Args)]
pub(super) struct AnalyzeArgs {
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

pub(super) fn run(args: AnalyzeArgs) -> ExitCode {
    let settings = analyze::AnalyzeSettings {
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
