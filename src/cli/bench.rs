//! `breakthrough bench`: the search's signature, a node count (and its speed).

use std::process::ExitCode;

use super::fail;
use crate::bench;
use crate::util::lines::outln;

#[derive(clap::Args)]
pub(super) struct BenchArgs {
    /// Depth in plies.
    #[arg(default_value_t = bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
}

pub(super) fn run(args: BenchArgs) -> ExitCode {
    match bench::run(args.depth, Default::default()) {
        Ok(report) => {
            outln!("{}", report.summary_line());
            ExitCode::SUCCESS
        }
        Err(e) => fail(e),
    }
}
