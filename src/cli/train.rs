//! `breakthrough train`: a network fitted to data files.

use std::path::PathBuf;
use std::process::ExitCode;

use super::{every_core, fail};
use crate::learn::train;
use crate::util::lines::outln;

#[derive(clap::Args)]
pub(super) struct TrainArgs {
    /// Data files of one rule set (written by datagen).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Where to write the network (default: nets/VARIANT-HASH.nnue).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Passes over the data (40 beat 20 by SPRT: docs/results.md).
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    epochs: u32,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 16_384, value_parser = clap::value_parser!(u32).range(1..))]
    batch: u32,
    /// Adam's learning rate (a tenth of it for the last quarter of the epochs).
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Share of the target that is the game's result; the rest is the search's score
    /// (0.3 beat 0.1, 0.5 and 0.7 by SPRT: docs/results.md).
    #[arg(long, default_value_t = 0.3)]
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
    /// Output buckets: the output layer chosen by the pieces left, in equal steps.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=8))]
    buckets: u32,
    /// The first layer's activation: screlu (clamped to [0, 1], squared: +85 over crelu by
    /// SPRT, docs/results.md) or crelu (clamped alone, as networks before round 9b).
    #[arg(long, default_value = "screlu")]
    activation: crate::rulesets::nnue::Activation,
    /// A note kept in the network file's description (say how the data was made).
    #[arg(long, default_value = "")]
    note: String,
    /// Where the state is saved after every epoch, and removed when the network is written
    /// (default: the --out file's name with .checkpoint, else train.checkpoint).
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Go on from the checkpoint of a run that was stopped (the same files and settings):
    /// the network is the one an uninterrupted run writes.
    #[arg(long)]
    resume: bool,
    /// Start from this network's weights instead of random ones, to fine-tune it on new
    /// data (same rule set, board, activation and buckets, or one output copied into
    /// every bucket; usually with a lower --lr and fewer --epochs).
    #[arg(long, value_name = "NET")]
    init: Option<PathBuf>,
}

/// A `--lr`, `--lambda` or `--validation` outside its range.
#[derive(Debug, thiserror::Error)]
#[error("--{0} must be between {1} and {2}")]
struct RangeError(&'static str, f32, f32);

pub(super) fn run(args: TrainArgs) -> ExitCode {
    for (name, value, lo, hi) in [
        ("lr", args.lr, 1e-6, 1.0),
        ("lambda", args.lambda, 0.0, 1.0),
        ("validation", args.validation, 0.001, 0.5),
    ] {
        if !(lo..=hi).contains(&value) {
            return fail(RangeError(name, lo, hi));
        }
    }
    let checkpoint = args.checkpoint.clone().unwrap_or_else(|| match &args.out {
        Some(out) => {
            let mut path = out.as_os_str().to_owned();
            path.push(".checkpoint");
            PathBuf::from(path)
        }
        None => PathBuf::from("train.checkpoint"),
    });
    let settings = train::TrainSettings {
        files: args.files,
        epochs: args.epochs as usize,
        batch: args.batch as usize,
        learning_rate: args.lr,
        lambda: args.lambda,
        validation: args.validation,
        seed: args.seed,
        buckets: args.buckets as usize,
        activation: args.activation,
        note: args.note,
        threads: every_core(args.threads),
        checkpoint: Some(checkpoint.clone()),
        resume: args.resume,
        init: args.init,
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
            let _ = std::fs::remove_file(&checkpoint);
            // The path alone on stdout, for scripts; the rest is for people.
            eprintln!("{}", net.about());
            outln!("{}", out.display());
            ExitCode::SUCCESS
        }
        Err(e) => fail(format_args!("cannot write {}: {e}", out.display())),
    }
}
