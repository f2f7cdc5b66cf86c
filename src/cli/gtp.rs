//! `breakthrough gtp`: the engine over GTP, as OpenSpiel's GTP bot drives it.

use std::process::ExitCode;

use super::fail;
use crate::engine::GoRequest;
use crate::registry::BoardVariant;
use crate::uci::gtp::{self, GtpSettings};

#[derive(clap::Args)]
pub(super) struct GtpArgs {
    /// Rule set and board (`breakthrough`, `capture-only-6x6`, ...); `boardsize N` changes
    /// the board.
    #[arg(long, default_value = "breakthrough")]
    variant: BoardVariant,
    /// Milliseconds per move (without any limit: 1000).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    movetime: Option<u64>,
    /// Depth in plies per move.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=127))]
    depth: Option<u32>,
    /// Nodes per move.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
}

pub(super) fn run(args: GtpArgs) -> ExitCode {
    let no_limit = args.movetime.is_none() && args.depth.is_none() && args.nodes.is_none();
    let settings = GtpSettings {
        variant: args.variant,
        limits: GoRequest {
            movetime: if no_limit { Some(1000) } else { args.movetime },
            depth: args.depth,
            nodes: args.nodes,
            ..GoRequest::default()
        },
    };
    match gtp::run(settings) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(e),
    }
}
