//! Texel-style tuning: fit the evaluation weights to game results by logistic
//! regression. Positions come from PGN files (self-play games from `breakthrough
//! match`), each labelled with its game's result from the side to move's view, or from
//! labelled-position files: one `FEN;target` line per position, the target an expected
//! score in 0..=1 for the side to move (e.g. a stronger engine's judgement, written by
//! `scripts/fs-labels.py`).

use std::ops::RangeInclusive;

use crate::pgn::{self, PgnError};
use crate::registry::{AnyPosition, FenError, History, MoveError, Variant};
use crate::rulesets::Color;
use crate::util::lines::outln;

/// One training position: features (side to move's view) and the result for that side.
pub(crate) struct Sample {
    pub(crate) features: Vec<i32>,
    pub(crate) result: f64,
}

/// Why training positions could not be read.
#[derive(Debug, thiserror::Error)]
pub(crate) enum TuneError {
    #[error(transparent)]
    Pgn(#[from] PgnError),
    #[error("bad FEN in PGN: {0}")]
    Fen(#[from] FenError),
    #[error("illegal move in PGN: {text}: {error}")]
    Move { text: String, error: MoveError },
    #[error("labelled positions, line {line}: {why}")]
    Label { line: usize, why: String },
    #[error("cannot read {path}: {error}")]
    Read { path: String, error: std::io::Error },
    #[error("cannot write {path}: {error}")]
    Write { path: String, error: std::io::Error },
    #[error("only {0} usable positions: play more games")]
    TooFew(usize),
    #[error("--only {first}-{last}: the {variant} evaluation has features 0-{max}")]
    OnlyRange {
        first: usize,
        last: usize,
        variant: Variant,
        max: usize,
    },
    #[error("no '{0}' marker")]
    NoMarker(String),
    #[error("the block after '{0}' holds no array")]
    NoArray(String),
}

/// `breakthrough tune`: fits `variant`'s weights to the positions of `files` (PGN or
/// labelled positions) with `epochs` steps, only those of `only` when given, and prints
/// them or writes them into the weights file `write`.
pub(crate) fn run(
    variant: Variant,
    epochs: usize,
    write: Option<&str>,
    only: Option<RangeInclusive<usize>>,
    files: &[String],
) -> Result<(), TuneError> {
    let initial = AnyPosition::startpos(variant).weights();
    let free: Vec<bool> = match &only {
        Some(range) if *range.end() >= initial.len() => {
            return Err(TuneError::OnlyRange {
                first: *range.start(),
                last: *range.end(),
                variant,
                max: initial.len() - 1,
            });
        }
        Some(range) => (0..initial.len()).map(|i| range.contains(&i)).collect(),
        None => vec![true; initial.len()],
    };
    let read = |path: &str| {
        std::fs::read_to_string(path).map_err(|error| TuneError::Read {
            path: path.to_string(),
            error,
        })
    };
    let texts = files
        .iter()
        .map(|p| read(p))
        .collect::<Result<Vec<_>, _>>()?;
    let samples = load_samples(&texts, variant)?;
    if samples.len() < 100 {
        return Err(TuneError::TooFew(samples.len()));
    }
    let start: Vec<f64> = initial.iter().map(|&w| w as f64).collect();
    let k = fit_k(&start, &samples);
    eprintln!(
        "{} positions, K = {k:.4}, loss {:.6}",
        samples.len(),
        loss(&start, &samples, k)
    );
    let tuned = tune(initial, &free, &samples, k, epochs, |epoch, loss| {
        eprintln!("epoch {epoch}: loss {loss:.6}")
    });
    let rounded: Vec<i32> = tuned.iter().map(|w| w.round() as i32).collect();
    match write {
        Some(path) => {
            let updated = replace_weights(&read(path)?, variant, &rounded)?;
            std::fs::write(path, updated).map_err(|error| TuneError::Write {
                path: path.to_string(),
                error,
            })?;
            eprintln!("wrote the {variant} weights into {path}");
        }
        None => {
            let numbers: Vec<String> = rounded.iter().map(i32::to_string).collect();
            outln!("{variant}: [{}]", numbers.join(", "));
        }
    }
    Ok(())
}

/// Reads every text, PGN (a text starting with a tag) or labelled positions, and keeps
/// the quiet positions (no win in one for the side to move and no threat against it):
/// of PGN, those of games decided by the rules.
pub(crate) fn load_samples(texts: &[String], variant: Variant) -> Result<Vec<Sample>, TuneError> {
    let mut samples = Vec::new();
    for text in texts {
        if !text.trim_start().starts_with('[') {
            load_labelled(text, variant, &mut samples)?;
            continue;
        }
        for game in pgn::read_games(text)? {
            if game
                .tag("Termination")
                .is_some_and(|t| t.contains("forfeits"))
            {
                continue;
            }
            let white_score = match game.result.as_str() {
                "1-0" => 1.0,
                "0-1" => 0.0,
                "1/2-1/2" => 0.5,
                _ => continue,
            };
            let start = match game.tag("FEN") {
                Some(fen) => AnyPosition::from_fen(fen, variant)?,
                None => AnyPosition::startpos(variant),
            };
            let mut history = History::new(start);
            for text in &game.moves {
                let pos = history.position();
                if let Some(features) = pos.quiet_features() {
                    let result = if pos.side_to_move() == Color::White {
                        white_score
                    } else {
                        1.0 - white_score
                    };
                    samples.push(Sample { features, result });
                }
                history.play_text(text).map_err(|error| TuneError::Move {
                    text: text.clone(),
                    error,
                })?;
            }
        }
    }
    Ok(samples)
}

/// Reads `FEN;target` lines (blank lines and `#` comments skipped) into `samples`.
fn load_labelled(text: &str, variant: Variant, samples: &mut Vec<Sample>) -> Result<(), TuneError> {
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: String| TuneError::Label { line: i + 1, why };
        let (fen, target) = line
            .rsplit_once(';')
            .ok_or_else(|| bad("expected FEN;target".into()))?;
        let result: f64 = target
            .trim()
            .parse()
            .ok()
            .filter(|t| (0.0..=1.0).contains(t))
            .ok_or_else(|| bad(format!("target '{target}' is not a number in 0..=1")))?;
        let pos = AnyPosition::from_fen(fen.trim(), variant).map_err(|e| bad(e.to_string()))?;
        if let Some(features) = pos.quiet_features() {
            samples.push(Sample { features, result });
        }
    }
    Ok(())
}

fn sigmoid(score: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * score / 400.0))
}

fn predict(weights: &[f64], s: &Sample) -> f64 {
    s.features
        .iter()
        .zip(weights)
        .map(|(&f, &w)| f as f64 * w)
        .sum()
}

/// Mean squared error of the predicted results.
pub(crate) fn loss(weights: &[f64], samples: &[Sample], k: f64) -> f64 {
    samples
        .iter()
        .map(|s| (sigmoid(predict(weights, s), k) - s.result).powi(2))
        .sum::<f64>()
        / samples.len().max(1) as f64
}

/// The scaling constant that best fits the current weights (golden-section search).
pub(crate) fn fit_k(weights: &[f64], samples: &[Sample]) -> f64 {
    let (mut lo, mut hi) = (0.05f64, 5.0f64);
    for _ in 0..60 {
        let a = lo + (hi - lo) * 0.382;
        let b = lo + (hi - lo) * 0.618;
        if loss(weights, samples, a) < loss(weights, samples, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Adam on the mean squared error; returns the tuned weights. Only the weights whose
/// `free` flag is set move.
pub(crate) fn tune(
    initial: &[i32],
    free: &[bool],
    samples: &[Sample],
    k: f64,
    epochs: usize,
    mut log: impl FnMut(usize, f64),
) -> Vec<f64> {
    let n_features = initial.len();
    assert_eq!(free.len(), n_features, "one free flag per weight");
    let mut w: Vec<f64> = initial.iter().map(|&x| x as f64).collect();
    let (mut m, mut v) = (vec![0.0; n_features], vec![0.0; n_features]);
    let (rate, beta1, beta2) = (2.0, 0.9, 0.999);
    let ln10 = std::f64::consts::LN_10;
    for epoch in 1..=epochs {
        let mut grad = vec![0.0; n_features];
        for s in samples {
            let p = sigmoid(predict(&w, s), k);
            // d/dw (p - y)^2 = 2 (p - y) p (1 - p) ln10 k / 400 * feature
            let g = 2.0 * (p - s.result) * p * (1.0 - p) * ln10 * k / 400.0;
            for (gi, &f) in grad.iter_mut().zip(&s.features) {
                *gi += g * f as f64;
            }
        }
        let n = samples.len().max(1) as f64;
        for i in (0..n_features).filter(|&i| free[i]) {
            let gi = grad[i] / n;
            m[i] = beta1 * m[i] + (1.0 - beta1) * gi;
            v[i] = beta2 * v[i] + (1.0 - beta2) * gi * gi;
            let mh = m[i] / (1.0 - beta1.powi(epoch as i32));
            let vh = v[i] / (1.0 - beta2.powi(epoch as i32));
            w[i] -= rate * mh / (vh.sqrt() + 1e-12);
        }
        if epoch % 100 == 0 || epoch == epochs {
            log(epoch, loss(&w, samples, k));
        }
    }
    w
}

/// `text` (a rule set's `weights.rs`) with the numbers of `variant`'s table, the array
/// between the markers `BEGIN TUNED <variant>` and `END TUNED <variant>`, replaced by
/// `weights` (laid out for `cargo fmt` to tidy).
pub(crate) fn replace_weights(
    text: &str,
    variant: Variant,
    weights: &[i32],
) -> Result<String, TuneError> {
    let begin = format!("// BEGIN TUNED {variant}\n");
    let end = format!("// END TUNED {variant}");
    let start = text
        .find(&begin)
        .ok_or_else(|| TuneError::NoMarker(begin.trim().to_string()))?
        + begin.len();
    let stop = text[start..]
        .find(&end)
        .ok_or_else(|| TuneError::NoMarker(end.clone()))?
        + start;
    let block = &text[start..stop];
    // The array is the first `[` after the `=` (the type before it has brackets too).
    let open = block
        .find('=')
        .and_then(|eq| block[eq..].find('[').map(|i| eq + i + 1));
    let (open, close) = match (open, block.rfind("];")) {
        (Some(open), Some(close)) if open <= close => (start + open, start + close),
        _ => return Err(TuneError::NoArray(begin.trim().to_string())),
    };
    let numbers: Vec<String> = weights.iter().map(i32::to_string).collect();
    Ok(format!(
        "{}{}{}",
        &text[..open],
        numbers.join(", "),
        &text[close..]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::breakthrough::eval;

    fn variant(name: &str) -> Variant {
        name.parse().unwrap()
    }

    /// The numbers of `variant`'s table in a weights file's text.
    fn table(text: &str, variant: Variant) -> Vec<i32> {
        let block = text
            .split(&format!("BEGIN TUNED {variant}\n"))
            .nth(1)
            .unwrap();
        let after = &block[block.find('=').unwrap()..];
        let array = after.split('[').nth(1).unwrap().split("];").next().unwrap();
        array
            .split(',')
            .filter(|n| !n.trim().is_empty())
            .map(|n| n.trim().parse().unwrap())
            .collect()
    }

    #[test]
    fn weights_round_trip_through_every_weights_file() {
        let files = [
            include_str!("../rulesets/breakthrough/weights.rs"),
            include_str!("../rulesets/doorbraak/weights.rs"),
        ];
        for v in Variant::all().filter(|v| v.name() != "toy") {
            let file = files
                .iter()
                .find(|f| f.contains(&format!("BEGIN TUNED {v}\n")))
                .unwrap_or_else(|| panic!("no weights block for {v}"));
            // The file holds the weights the engine uses.
            let weights = AnyPosition::startpos(v).weights();
            assert_eq!(table(file, v), weights, "{v}");
            let new: Vec<i32> = (0..weights.len() as i32).map(|i| i * 3 - 7).collect();
            let written = replace_weights(file, v, &new).unwrap();
            assert_eq!(table(&written, v), new, "{v}");
            // Nothing else changed: writing the old numbers back restores the table.
            let back = replace_weights(&written, v, weights).unwrap();
            assert_eq!(replace_weights(file, v, weights).unwrap(), back, "{v}");
            for other in
                Variant::all().filter(|&o| o != v && file.contains(&format!("BEGIN TUNED {o}\n")))
            {
                assert_eq!(table(&written, other), table(file, other), "{v} {other}");
            }
        }
        assert!(matches!(
            replace_weights("nothing", variant("breakthrough"), &[1]),
            Err(TuneError::NoMarker(_))
        ));
    }

    #[test]
    fn labelled_positions_load_and_bad_lines_are_named() {
        let v = variant("breakthrough");
        // Fairy-Stockfish's FEN form; a comment; a position where White wins in one (not quiet).
        let text = "# from scripts/fs-labels.py\n\
                    pppppppp/p1pppppp/1p6/8/8/P7/1PPPPPPP/PPPPPPPP w - - 2 2;0.55\n\
                    \n\
                    8/P7/8/8/8/8/8/p7 w;1\n";
        let samples = load_samples(&[text.to_string()], v).unwrap();
        assert_eq!(samples.len(), 1);
        assert_eq!(samples[0].result, 0.55);
        for (bad, says) in [
            ("8/8/8/8/8/8/8/8 w 0.5", "line 1: expected FEN;target"),
            ("8/P7/8/8/8/8/8/p7 w;1.5", "line 1: target '1.5'"),
            ("# c\n8/P7/8/8/8/8/8/p7 q;0.5", "line 2:"),
        ] {
            let err = load_samples(&[bad.to_string()], v)
                .err()
                .unwrap()
                .to_string();
            assert!(err.contains(says), "{bad}: {err}");
        }
    }

    #[test]
    fn tuning_lowers_the_loss_on_a_toy_set() {
        // Positions where the side to move is a pawn up win; a pawn down lose.
        let mut samples = Vec::new();
        for (fen, result) in [
            ("pp6/8/8/8/8/8/8/PPP5 w", 1.0),
            ("ppp5/8/8/8/8/8/8/PP6 w", 0.0),
        ] {
            let pos = AnyPosition::from_fen(fen, variant("breakthrough")).unwrap();
            samples.push(Sample {
                features: pos.quiet_features().unwrap(),
                result,
            });
        }
        let zero = [0; eval::FEATURES];
        let before = loss(&zero.map(f64::from), &samples, 1.0);
        let tuned = tune(
            &zero,
            &[true; eval::FEATURES],
            &samples,
            1.0,
            200,
            |_, _| {},
        );
        assert!(loss(&tuned, &samples, 1.0) < before / 2.0);
        // Frozen weights stay where they were.
        let mut free = [false; eval::FEATURES];
        free[eval::PST..eval::PST + 28].fill(true);
        let partly = tune(&zero, &free, &samples, 1.0, 200, |_, _| {});
        assert!(loss(&partly, &samples, 1.0) < before);
        assert!(partly[eval::PST + 28..].iter().all(|&w| w == 0.0));
    }
}
