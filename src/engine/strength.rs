//! Strength a person can choose: `Skill Level` (0-20) or `UCI_LimitStrength` with
//! `UCI_Elo`. Below full strength the engine searches fewer nodes, several lines at once,
//! and plays a seeded random choice among the moves whose score is within a margin of the
//! best, as a weaker player would; from [`CAREFUL_FROM`] on it never misses a win in one
//! nor allows one when it can avoid it (checked with the rules, for every rule set).
//!
//! The Elo scale is measured, not guessed: [`ELO_OF_LEVEL`] holds each level's rating
//! from the calibration matches (docs/results.md), anchored to the one-ply greedy player
//! (`breakthrough greedy`) at 1000.

use std::sync::Mutex;

use crate::registry::{AnyMove, AnyPosition};
use crate::search::{Info, Score, WIN};
use crate::util::rng::Rng;

/// The top level: full strength.
pub(crate) const MAX_LEVEL: u64 = 20;

/// Levels from which a win in one is always played and a loss in one always avoided.
pub(crate) const CAREFUL_FROM: f64 = 5.0;

/// The measured Elo of levels 0, 1, ..., 19 (level 20 is full strength at the time
/// given), anchored to the greedy player at 1000: adjacent levels' match results chained,
/// then made monotone (`scripts/strength-table.py`; the matches are in docs/results.md).
pub(crate) const ELO_OF_LEVEL: [f64; 20] = [
    1214.8, 1267.4, 1284.7, 1319.6, 1337.0, 1638.3, 1727.1, 1854.0, 2123.4, 2230.9, 2248.3, 2395.5,
    2586.4, 2675.1, 2802.1, 2890.8, 3017.8, 3199.9, 3199.9, 3382.1,
];

/// `UCI_Elo`'s range: the measured ratings of level 0 and level 19.
pub(crate) const ELO_MIN: u64 = ELO_OF_LEVEL[0] as u64;
pub(crate) const ELO_MAX: u64 = ELO_OF_LEVEL[19] as u64;

/// How much weaker than full strength to play.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Weakening {
    /// 0 (weakest) up to, not including, [`MAX_LEVEL`]; fractional when set by Elo.
    level: f64,
}

/// The strength asked for: a `Skill Level`, or an Elo (`UCI_LimitStrength` with
/// `UCI_Elo`, which wins over the level, as in chess engines).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Strength {
    Level(u64),
    Elo(u64),
}

impl Weakening {
    /// The weakening `strength` asks for, or `None` for full strength.
    pub(crate) fn of(strength: Strength) -> Option<Self> {
        let level = match strength {
            Strength::Elo(elo) => level_of_elo(elo as f64),
            Strength::Level(level) => level as f64,
        };
        (level < MAX_LEVEL as f64).then_some(Weakening { level })
    }

    /// The nodes a move may search: 100 at level 0, 1.65 times more per level (level 19:
    /// 1.36M, about a third of a second here).
    pub(crate) fn nodes(self) -> u64 {
        (100.0 * 1.65f64.powf(self.level)) as u64
    }

    /// Root moves searched as separate lines, to choose from: 4, and below
    /// [`CAREFUL_FROM`] four more per level down (24 at level 0: nearly every move of
    /// the start position), so the weakest levels choose among most moves.
    pub(crate) fn lines(self) -> usize {
        4 + (4.0 * (CAREFUL_FROM - self.level).max(0.0)).round() as usize
    }

    /// How far below the best a move's score may be and still be chosen, in centipawns.
    pub(crate) fn margin(self) -> i32 {
        ((MAX_LEVEL as f64 - self.level) * 15.0) as i32
    }

    /// The move to play among the searched `lines`, by a draw from `rng`: the lines within
    /// [`Weakening::margin`] of the best, the closer the likelier. From [`CAREFUL_FROM`]
    /// on, a win at once is played and a move that lets the opponent win at once is
    /// avoided where another exists. `None` when there is no line (the search's own move
    /// stands).
    pub(crate) fn choose(
        self,
        root: &AnyPosition,
        lines: &[Line],
        rng: &mut Rng,
    ) -> Option<AnyMove> {
        let best = lines.iter().map(|l| l.score).max()?;
        let margin = self.margin();
        let weights: Vec<u64> = lines
            .iter()
            .map(|l| (margin - (best - l.score) + 1).max(0) as u64)
            .collect();
        let mut chosen = pick(lines, &weights, rng);
        if self.level >= CAREFUL_FROM {
            let moves = root.legal_moves();
            if let Some(&win) = moves.iter().find(|&&m| wins_at_once(root, m)) {
                return Some(win);
            }
            if allows_win(root, chosen) {
                let safe: Vec<&Line> = lines.iter().filter(|l| !allows_win(root, l.m)).collect();
                chosen = match safe.iter().max_by_key(|l| l.score) {
                    Some(l) => l.m,
                    None => moves
                        .iter()
                        .copied()
                        .find(|&m| !allows_win(root, m))
                        .unwrap_or(chosen),
                };
            }
        }
        Some(chosen)
    }
}

/// A draw among `lines` with the given weights (all zero: the first line).
fn pick(lines: &[Line], weights: &[u64], rng: &mut Rng) -> AnyMove {
    let total: u64 = weights.iter().sum();
    if total == 0 {
        return lines[0].m;
    }
    let mut ticket = rng.next_u64() % total;
    for (line, &w) in lines.iter().zip(weights) {
        if ticket < w {
            return line.m;
        }
        ticket -= w;
    }
    lines[0].m
}

/// The level whose measured rating is `elo`, between the two levels around it.
fn level_of_elo(elo: f64) -> f64 {
    let table = &ELO_OF_LEVEL;
    if elo <= table[0] {
        return 0.0;
    }
    for level in 1..table.len() {
        if elo <= table[level] {
            let (low, high) = (table[level - 1], table[level]);
            return (level - 1) as f64 + (elo - low) / (high - low).max(1.0);
        }
    }
    (table.len() - 1) as f64
}

fn wins_at_once(pos: &AnyPosition, m: AnyMove) -> bool {
    let us = pos.side_to_move();
    pos.child(m).outcome().is_some_and(|o| o.winner == Some(us))
}

fn allows_win(pos: &AnyPosition, m: AnyMove) -> bool {
    let next = pos.child(m);
    next.outcome().is_none()
        && next
            .legal_moves()
            .into_iter()
            .any(|r| wins_at_once(&next, r))
}

/// A searched root move and its score (centipawns, or mate scores ordered as such).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Line {
    pub(crate) m: AnyMove,
    pub(crate) score: i32,
    depth: u32,
}

/// The last exact score of each line of a search, gathered from its reports.
#[derive(Default)]
pub(crate) struct Lines(Mutex<Vec<Option<Line>>>);

impl Lines {
    pub(crate) fn record(&self, info: &Info<AnyMove>) {
        let Some(&m) = info.pv.first() else { return };
        if info.bound.is_some() {
            return;
        }
        let score = match info.score {
            Score::Centipawns(cp) => cp,
            Score::Mate(n) if n > 0 => WIN - n,
            Score::Mate(n) => -WIN - n,
        };
        let mut lines = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let index = info.multipv.saturating_sub(1);
        if lines.len() <= index {
            lines.resize(index + 1, None);
        }
        lines[index] = Some(Line {
            m,
            score,
            depth: info.depth,
        });
    }

    /// The lines of the deepest iteration, with those one ply shallower that it did not
    /// reach (a search stopped between lines); a move met twice so (it changed lines)
    /// counts once, at its deeper line.
    pub(crate) fn finished(&self) -> Vec<Line> {
        let lines = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let Some(Some(first)) = lines.first() else {
            return Vec::new();
        };
        let depth = first.depth;
        let mut out: Vec<Line> = Vec::new();
        for line in lines.iter().flatten().filter(|l| l.depth + 1 >= depth) {
            match out.iter_mut().find(|l| l.m == line.m) {
                Some(kept) if kept.depth < line.depth => *kept = *line,
                Some(_) => {}
                None => out.push(*line),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Variant;

    #[test]
    fn options_choose_the_level() {
        assert_eq!(Weakening::of(Strength::Level(20)), None);
        assert_eq!(
            Weakening::of(Strength::Level(3)),
            Some(Weakening { level: 3.0 })
        );
        // Limit strength wins over Skill Level, by the measured table.
        let w = Weakening::of(Strength::Elo(ELO_MIN)).unwrap();
        assert_eq!(w.level, 0.0);
        let mid = (ELO_OF_LEVEL[4] + ELO_OF_LEVEL[5]) / 2.0;
        let w = Weakening::of(Strength::Elo(mid as u64)).unwrap();
        assert!(w.level > 4.0 && w.level < 5.0, "{}", w.level);
        assert!(Weakening::of(Strength::Elo(ELO_MAX)).unwrap().level <= 19.0);
        // More nodes and a smaller margin at every higher level.
        for level in 1..MAX_LEVEL {
            let (low, high) = (
                Weakening {
                    level: (level - 1) as f64,
                },
                Weakening {
                    level: level as f64,
                },
            );
            assert!(high.nodes() > low.nodes());
            assert!(high.margin() < low.margin());
        }
    }

    fn line(pos: &AnyPosition, text: &str, score: i32) -> Line {
        Line {
            m: pos.parse_move(text).unwrap(),
            score,
            depth: 3,
        }
    }

    #[test]
    fn careful_levels_take_wins_and_avoid_losses() {
        for name in ["breakthrough", "capture-only"] {
            let variant: Variant = name.parse().unwrap();
            // White wins by b7b8; the search's line (made up) misses it.
            let pos = AnyPosition::from_fen("8/1P6/8/8/8/8/4P1p1/8 w", variant).unwrap();
            let lines = [line(&pos, "e2e3", 50)];
            let careful = Weakening {
                level: CAREFUL_FROM,
            };
            let mut rng = Rng::new(1);
            let m = careful.choose(&pos, &lines, &mut rng).unwrap();
            assert!(wins_at_once(&pos, m));
            // Black threatens g2g1; only f1xg2 stops it, though the lines prefer f1f2.
            let pos = AnyPosition::from_fen("8/8/8/8/8/8/6p1/5P2 w", variant).unwrap();
            let lines = [line(&pos, "f1f2", 20), line(&pos, "f1g2", 0)];
            for seed in 0..20 {
                let m = careful.choose(&pos, &lines, &mut Rng::new(seed)).unwrap();
                assert!(!allows_win(&pos, m), "{name} seed {seed}");
            }
            // The weakest level may choose either line (it can blunder); both are seen.
            let weakest = Weakening { level: 0.0 };
            let chosen: std::collections::HashSet<String> = (0..50)
                .map(|seed| {
                    let m = weakest.choose(&pos, &lines, &mut Rng::new(seed)).unwrap();
                    pos.child(m).to_fen()
                })
                .collect();
            assert_eq!(chosen.len(), 2);
        }
    }

    #[test]
    fn a_move_that_changed_lines_counts_once() {
        let pos = AnyPosition::startpos(Variant::default());
        let info = |multipv, depth, m: &str, cp| Info {
            depth,
            seldepth: depth,
            multipv,
            score: Score::Centipawns(cp),
            bound: None,
            nodes: 0,
            nps: 0,
            hashfull: 0,
            time: std::time::Duration::ZERO,
            pv: vec![pos.parse_move(m).unwrap()],
        };
        let lines = Lines::default();
        // Depth 4 of lines 1-4, then depth 5 of lines 1-2 before the stop: c2c3 moved from
        // line 4 up to line 2, so it is met twice, not next to itself.
        for (k, m) in [(1, "a2a3"), (2, "b2b3"), (3, "d2d3"), (4, "c2c3")] {
            lines.record(&info(k, 4, m, 10 - k as i32));
        }
        lines.record(&info(1, 5, "a2a3", 12));
        lines.record(&info(2, 5, "c2c3", 11));
        let got: Vec<(String, i32)> = lines
            .finished()
            .iter()
            .map(|l| (l.m.to_string(), l.score))
            .collect();
        let want = [("a2a3", 12), ("c2c3", 11), ("d2d3", 7)];
        assert_eq!(got, want.map(|(m, cp)| (m.to_string(), cp)));
    }
}
