//! `breakthrough perft`: leaves of the move tree, in Fairy-Stockfish's output format.

use std::process::ExitCode;
use std::time::Instant;

use super::fail;
use crate::registry::{AnyPosition, Variant};
use crate::util::lines::outln;
use crate::util::progress;

#[derive(clap::Args)]
pub(super) struct PerftArgs {
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
}

pub(super) fn run(args: PerftArgs) -> ExitCode {
    let PerftArgs {
        variant,
        fen,
        divide,
        threads,
        depth,
    } = args;
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
