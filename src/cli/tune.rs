//! `breakthrough tune`: the hand-written evaluation's weights fitted to game results.

use std::ops::RangeInclusive;
use std::process::ExitCode;

use super::fail;
use crate::learn::tune;
use crate::registry::Variant;

#[derive(clap::Args)]
pub(super) struct TuneArgs {
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
    only: Option<RangeInclusive<usize>>,
    /// PGN files of games in this rule set, or labelled-position files (`FEN;target`
    /// lines, target 0..=1 for the side to move).
    #[arg(required = true)]
    pgn: Vec<String>,
}

pub(super) fn run(args: TuneArgs) -> ExitCode {
    match tune::run(
        args.variant,
        args.epochs,
        args.write.as_deref(),
        args.only,
        &args.pgn,
    ) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(e),
    }
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

fn parse_feature_range(text: &str) -> Result<RangeInclusive<usize>, FeatureRangeError> {
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
