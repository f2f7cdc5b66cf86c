//! Texel-style tuning: fit the evaluation weights to game results by logistic
//! regression. Positions come from PGN files (self-play games from `breakthrough
//! match`), each labelled with its game's result from the side to move's view, or from
//! labelled-position files: one `FEN;target` line per position, the target an expected
//! score in 0..=1 for the side to move (e.g. a stronger engine's judgement, written by
//! `scripts/fs-labels.py`).

use crate::eval;
use crate::game::SearchGame;
use crate::rules::Color;
use crate::tourney::pgn;
use crate::variant::{AnyPosition, GameHistory, GameVariant};

/// One training position: features (side to move's view) and the result for that side.
pub struct Sample {
    pub features: Vec<i32>,
    pub result: f64,
}

/// The evaluation's weights for a variant, as tuning starts from them.
pub fn current_weights(variant: GameVariant) -> Vec<i32> {
    match variant.breakthrough_rules() {
        Some(v) => eval::weights(v).to_vec(),
        None => eval::doorbraak::weights().to_vec(),
    }
}

/// The features of a quiet position (no win in one for the side to move, no threat
/// against it), or `None`.
fn quiet_features(pos: &AnyPosition) -> Option<Vec<i32>> {
    fn quiet<G: SearchGame>(p: &G) -> bool {
        p.end().is_none() && p.winning_move().is_none() && !p.opponent_threatens_win()
    }
    match pos {
        AnyPosition::Breakthrough(p) => quiet(p).then(|| eval::features(p).to_vec()),
        AnyPosition::Doorbraak(p) => quiet(p).then(|| eval::doorbraak::features(p).to_vec()),
    }
}

/// Reads every text, PGN (a text starting with a tag) or labelled positions, and keeps
/// the quiet positions (no win in one for the side to move and no threat against it):
/// of PGN, those of games decided by the rules.
pub fn load_samples(texts: &[String], variant: GameVariant) -> Result<Vec<Sample>, String> {
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
                Some(fen) => AnyPosition::from_fen(fen, variant)
                    .map_err(|e| format!("bad FEN in PGN: {e}"))?,
                None => AnyPosition::startpos(variant),
            };
            let mut history = GameHistory::new(start);
            for text in &game.moves {
                let pos = history.position();
                if let Some(features) = quiet_features(pos) {
                    let result = if pos.side_to_move() == Color::White {
                        white_score
                    } else {
                        1.0 - white_score
                    };
                    samples.push(Sample { features, result });
                }
                history
                    .play_text(text)
                    .map_err(|e| format!("illegal move in PGN: {text}: {e}"))?;
            }
        }
    }
    Ok(samples)
}

/// Reads `FEN;target` lines (blank lines and `#` comments skipped) into `samples`.
fn load_labelled(
    text: &str,
    variant: GameVariant,
    samples: &mut Vec<Sample>,
) -> Result<(), String> {
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: String| format!("labelled positions, line {}: {why}", i + 1);
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
        if let Some(features) = quiet_features(&pos) {
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
pub fn loss(weights: &[f64], samples: &[Sample], k: f64) -> f64 {
    samples
        .iter()
        .map(|s| (sigmoid(predict(weights, s), k) - s.result).powi(2))
        .sum::<f64>()
        / samples.len().max(1) as f64
}

/// The scaling constant that best fits the current weights (golden-section search).
pub fn fit_k(weights: &[f64], samples: &[Sample]) -> f64 {
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
pub fn tune(
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

/// The params.rs block for a variant, between its BEGIN/END markers.
pub fn weights_block(variant: GameVariant, weights: &[i32]) -> String {
    let (konst, len) = match variant {
        GameVariant::Breakthrough => ("BREAKTHROUGH", "FEATURES"),
        GameVariant::CaptureOnly => ("CAPTURE_ONLY", "FEATURES"),
        GameVariant::Doorbraak => ("DOORBRAAK", "crate::eval::doorbraak::FEATURES"),
    };
    let mut out =
        format!("    // BEGIN TUNED {variant}\n    pub const {konst}: [i32; {len}] = [\n");
    for row in weights.chunks(8) {
        let items: Vec<String> = row.iter().map(i32::to_string).collect();
        out.push_str(&format!("        {},\n", items.join(", ")));
    }
    out.push_str(&format!("    ];\n    // END TUNED {variant}"));
    out
}

/// Replaces the variant's block in the text of params.rs.
pub fn replace_block(params: &str, variant: GameVariant, block: &str) -> Result<String, String> {
    let begin = format!("    // BEGIN TUNED {variant}");
    let end = format!("// END TUNED {variant}");
    let start = params
        .find(&begin)
        .ok_or_else(|| format!("no '{begin}' marker"))?;
    let stop = params[start..]
        .find(&end)
        .ok_or_else(|| format!("no '{end}' marker"))?
        + start
        + end.len();
    Ok(format!("{}{}{}", &params[..start], block, &params[stop..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_round_trips_through_params_text() {
        let w: Vec<i32> = (0..eval::FEATURES as i32).collect();
        let block = weights_block(GameVariant::CaptureOnly, &w);
        let text = format!(
            "a\n{}\nb\n",
            weights_block(GameVariant::CaptureOnly, &[0; eval::FEATURES])
        );
        let replaced = replace_block(&text, GameVariant::CaptureOnly, &block).unwrap();
        assert_eq!(replaced, format!("a\n{block}\nb\n"));
        assert!(replace_block("nothing", GameVariant::Breakthrough, &block).is_err());
        // Every variant's block is in params.rs.
        let params = include_str!("params.rs");
        for v in GameVariant::ALL {
            let block = weights_block(v, &current_weights(v));
            assert!(replace_block(params, v, &block).is_ok(), "{v}");
        }
    }

    #[test]
    fn labelled_positions_load_and_bad_lines_are_named() {
        let v = GameVariant::Breakthrough;
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
            let err = load_samples(&[bad.to_string()], v).err().unwrap();
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
            let pos =
                crate::rules::Position::from_fen(fen, crate::rules::Variant::Breakthrough).unwrap();
            samples.push(Sample {
                features: eval::features(&pos).to_vec(),
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
