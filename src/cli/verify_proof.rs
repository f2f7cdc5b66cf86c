//! `breakthrough verify-proof`: a proof written by `solve --certificate`, checked with
//! nothing but the rules.

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::json;

use super::fail;
use super::solve::color_name;
use crate::rulesets::Rules;
use crate::solve::Certificate;
use crate::util::lines::outln;

#[derive(clap::Args)]
pub(super) struct VerifyProofArgs {
    /// A proof written by `solve --certificate`.
    file: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(args: VerifyProofArgs) -> ExitCode {
    let bytes = match std::fs::read(&args.file) {
        Ok(b) => b,
        Err(e) => return fail(format_args!("cannot read {}: {e}", args.file.display())),
    };
    let verified = Certificate::from_bytes(&bytes).and_then(|c| c.verify());
    match verified {
        Ok(v) => {
            if args.json {
                outln!(
                    "{}",
                    json!({
                        "fen": v.root.to_fen(),
                        "winner": color_name(Some(v.winner)),
                        "valid": true,
                        "positions": v.positions,
                        "unused": v.unused,
                        "longest_plies": v.longest,
                    })
                );
            } else {
                outln!(
                    "valid: {} wins from {}; {} positions ({} unused), every line checked; the loser lasts at most {} plies",
                    v.winner.name(),
                    v.root.to_fen(),
                    v.positions,
                    v.unused,
                    v.longest
                );
            }
            ExitCode::SUCCESS
        }
        Err(e) => fail(format_args!(
            "{}: not a valid proof: {e}",
            args.file.display()
        )),
    }
}
