//! Match statistics: Elo from a score with its 95% interval, and the sequential
//! probability ratio test (SPRT) that engine testers use to stop a match early, over
//! game pairs (pentanomial: the two games of an opening, colours swapped, scored together,
//! which takes out the opening's bias as fishtest does).

/// Wins, draws and losses of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Wdl {
    pub(crate) wins: u64,
    pub(crate) draws: u64,
    pub(crate) losses: u64,
}

impl Wdl {
    pub(crate) fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Mean score per game, 0 to 1.
    pub(crate) fn score(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n
    }

    /// Variance of one game's score.
    fn variance(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let s = self.score();
        (self.wins as f64 + 0.25 * self.draws as f64) / n - s * s
    }

    /// The Elo difference this score implies and the bounds of its 95% interval:
    /// (elo, low, high). Infinite at a score of 0 or 1.
    pub(crate) fn elo(&self) -> (f64, f64, f64) {
        let s = self.score();
        let n = self.games().max(1) as f64;
        let margin = 1.959_964 * (self.variance() / n).sqrt();
        (
            elo_from_score(s),
            elo_from_score(s - margin),
            elo_from_score(s + margin),
        )
    }
}

/// Logistic Elo difference for an expected score.
pub(crate) fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if score >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Expected score of a side `elo` points stronger.
pub(crate) fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// What is wrong with `--sprt` settings.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum SprtError {
    #[error("bad SPRT setting '{0}' (expected key=value)")]
    NotKeyValue(String),
    #[error("bad SPRT value '{0}'")]
    BadValue(String),
    #[error("unknown SPRT setting '{0}' (expected elo0, elo1, alpha, beta)")]
    UnknownSetting(String),
    #[error("SPRT alpha and beta must lie between 0 and 0.5")]
    Errors,
    #[error("SPRT elo1 must be greater than elo0")]
    Hypotheses,
}

/// SPRT of H0: elo = elo0 against H1: elo = elo1 (logistic Elo).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Sprt {
    pub(crate) elo0: f64,
    pub(crate) elo1: f64,
    pub(crate) alpha: f64,
    pub(crate) beta: f64,
}

/// Game pairs by the first engine's score over the pair: 0, 0.5, 1, 1.5 or 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Pentanomial {
    pub(crate) counts: [u64; 5],
}

impl Pentanomial {
    /// Adds a pair in which the first engine scored `half_points` / 2 (0 to 4).
    pub(crate) fn add(&mut self, half_points: usize) {
        self.counts[half_points.min(4)] += 1;
    }

    pub(crate) fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// `0-0.5-1-1.5-2: a b c d e`, as fishtest shows it.
    pub(crate) fn text(&self) -> String {
        let c = self.counts;
        format!("{} {} {} {} {}", c[0], c[1], c[2], c[3], c[4])
    }
}

/// Where the test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SprtVerdict {
    /// LLR at or above the upper bound: accept H1 (the first engine is at least elo1 stronger).
    H1,
    /// LLR at or below the lower bound: accept H0.
    H0,
    Continue,
}

impl Sprt {
    /// Reads `elo0=0 elo1=10 alpha=0.05 beta=0.05` (words may come as separate arguments).
    pub(crate) fn parse(words: &[String]) -> Result<Sprt, SprtError> {
        let mut sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        for word in words.iter().flat_map(|w| w.split_whitespace()) {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| SprtError::NotKeyValue(word.to_string()))?;
            let value: f64 = value
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| SprtError::BadValue(word.to_string()))?;
            match key {
                "elo0" => sprt.elo0 = value,
                "elo1" => sprt.elo1 = value,
                "alpha" => sprt.alpha = value,
                "beta" => sprt.beta = value,
                _ => return Err(SprtError::UnknownSetting(key.to_string())),
            }
        }
        if !(sprt.alpha > 0.0 && sprt.alpha < 0.5 && sprt.beta > 0.0 && sprt.beta < 0.5) {
            return Err(SprtError::Errors);
        }
        if sprt.elo1 <= sprt.elo0 {
            return Err(SprtError::Hypotheses);
        }
        Ok(sprt)
    }

    /// (lower, upper) LLR bounds: ln(beta / (1 - alpha)) and ln((1 - beta) / alpha).
    pub(crate) fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Log-likelihood ratio of the first engine's results game by game (trinomial), by
    /// the normal approximation of the generalized SPRT (as in fishtest).
    #[cfg(test)]
    pub(crate) fn llr(&self, wdl: &Wdl) -> f64 {
        self.normal_llr(&[
            (0.0, wdl.losses as f64),
            (0.5, wdl.draws as f64),
            (1.0, wdl.wins as f64),
        ])
    }

    /// Log-likelihood ratio of the first engine's results over game pairs (pentanomial).
    pub(crate) fn pair_llr(&self, pairs: &Pentanomial) -> f64 {
        let outcomes: Vec<(f64, f64)> = pairs
            .counts
            .iter()
            .enumerate()
            .map(|(k, &n)| (k as f64 / 4.0, n as f64))
            .collect();
        self.normal_llr(&outcomes)
    }

    /// LLR = (s1 - s0)(2s - s0 - s1) / (2 var / n) for `n` samples of mean score `s` and
    /// variance `var`, given as (score 0 to 1, count). Samples with no variance (every
    /// one won, or every one lost) get half a win and half a loss added, so a one-sided
    /// match still reaches a verdict.
    fn normal_llr(&self, outcomes: &[(f64, f64)]) -> f64 {
        let moments = |extra: f64| {
            let n: f64 = outcomes.iter().map(|o| o.1).sum::<f64>() + extra;
            let sum: f64 = outcomes.iter().map(|(x, c)| x * c).sum::<f64>() + 0.5 * extra;
            let squares: f64 = outcomes.iter().map(|(x, c)| x * x * c).sum::<f64>() + 0.5 * extra;
            let mean = sum / n;
            (n, mean, squares / n - mean * mean)
        };
        let n: f64 = outcomes.iter().map(|o| o.1).sum();
        if n == 0.0 {
            return 0.0;
        }
        let (n, score, var) = match moments(0.0) {
            m if m.2 > 1e-12 => m,
            _ => moments(1.0),
        };
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * var / n)
    }

    /// Where an LLR stands against the bounds.
    pub(crate) fn judge_llr(&self, llr: f64) -> SprtVerdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::H1
        } else if llr <= lower {
            SprtVerdict::H0
        } else {
            SprtVerdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    /// Values worked out independently from the published formula
    /// (score s, per-game variance m2 - s^2, LLR = (s1-s0)(2s-s0-s1)/(2 var/n)).
    #[test]
    fn llr_matches_known_values() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        assert!(close(
            sprt.llr(&Wdl {
                wins: 60,
                draws: 0,
                losses: 40
            }),
            0.556_342_867_7
        ));
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 3.0,
            ..sprt
        };
        assert!(close(
            sprt.llr(&Wdl {
                wins: 4307,
                draws: 8620,
                losses: 4063
            }),
            2.992_212_838_5
        ));
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            ..sprt
        };
        assert!(close(
            sprt.llr(&Wdl {
                wins: 500,
                draws: 0,
                losses: 520
            }),
            -0.393_563_750_5
        ));
        assert_eq!(sprt.llr(&Wdl::default()), 0.0);
        // Ten straight wins: regularized to 10.5 of 11 (s = 0.9545, var = 0.0434).
        assert!(close(
            sprt.llr(&Wdl {
                wins: 10,
                draws: 0,
                losses: 0
            }),
            0.822_585_148_7
        ));
        assert!(
            sprt.llr(&Wdl {
                wins: 0,
                draws: 0,
                losses: 10
            }) < 0.0
        );
    }

    /// Pentanomial values worked out independently from the same formula over pair
    /// scores 0, 0.25, 0.5, 0.75, 1 (a Python one-liner).
    #[test]
    fn pair_llr_matches_known_values() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let pairs = Pentanomial {
            counts: [5, 10, 40, 30, 15],
        };
        assert!(close(sprt.pair_llr(&pairs), 2.054_189_050_0));
        assert_eq!(pairs.pairs(), 100);
        // Seven pairs won 2 - 0: regularized with half a pair won and half lost.
        let swept = Pentanomial {
            counts: [0, 0, 0, 0, 7],
        };
        assert!(close(sprt.pair_llr(&swept), 0.845_263_877_3));
        assert_eq!(sprt.pair_llr(&Pentanomial::default()), 0.0);
    }

    #[test]
    fn bounds_and_verdicts() {
        let sprt = Sprt::parse(&[
            "elo0=0 elo1=10".into(),
            "alpha=0.05".into(),
            "beta=0.05".into(),
        ])
        .unwrap();
        let (lo, hi) = sprt.bounds();
        assert!(close(lo, -2.944_438_979_2) && close(hi, 2.944_438_979_2));
        assert_eq!(
            sprt.judge_llr(sprt.llr(&Wdl {
                wins: 60,
                draws: 0,
                losses: 40
            })),
            SprtVerdict::Continue
        );
        assert_eq!(
            sprt.judge_llr(sprt.llr(&Wdl {
                wins: 400,
                draws: 0,
                losses: 200
            })),
            SprtVerdict::H1
        );
        assert_eq!(
            sprt.judge_llr(sprt.llr(&Wdl {
                wins: 200,
                draws: 0,
                losses: 400
            })),
            SprtVerdict::H0
        );
        assert!(Sprt::parse(&["elo0=5 elo1=0".into()]).is_err());
        assert!(Sprt::parse(&["alpha=0.7".into()]).is_err());
        assert!(Sprt::parse(&["gamma=1".into()]).is_err());
        assert!(Sprt::parse(&["elo0".into()]).is_err());
    }

    #[test]
    fn elo_and_interval() {
        let (elo, lo, hi) = Wdl {
            wins: 60,
            draws: 0,
            losses: 40,
        }
        .elo();
        assert!(
            close(elo, 70.436_503_622) && close(lo, 2.766_872_696) && close(hi, 143.909_233_633)
        );
        assert_eq!(
            Wdl {
                wins: 3,
                draws: 0,
                losses: 0
            }
            .elo()
            .0,
            f64::INFINITY
        );
        assert!(close(elo_from_score(score_from_elo(123.0)), 123.0));
    }
}
