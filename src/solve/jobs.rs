//! A solve split into independent jobs, for a job runner to spread over machines.
//!
//! [`split`] lists the positions `depth` plies below the root that the rules and
//! patterns do not settle, each once (transpositions and mirror images merged). Each is
//! an ordinary `solve --fen` run with nothing shared: a job needs no other job's table or
//! result, so GNU Parallel over ssh, a Slurm array or a Kubernetes Job can run them
//! anywhere, in any order, retrying failures. [`merge`] then takes the jobs' answers and settles the
//! top of the tree by plain minimax: the side to move wins if one move leads to a
//! position it wins, loses if every move leads to one it loses. A job not run (or not
//! proven) leaves the positions above it open, and the merge names those it needed.

use std::collections::{HashMap, HashSet};

use super::key::Key;
use super::knowledge::{self, Known};
use crate::rulesets::Rules;
use crate::rulesets::breakthrough::{Color, Move, Position};

/// What names a job's answer: the same for a position and its mirror image, which have
/// the same value, so one job answers for both.
pub(crate) fn job_key(pos: &Position) -> u64 {
    Key::of(pos).hash
}

/// The unsettled positions `depth` plies below `root`, each once, in move order.
pub(crate) fn split(root: &Position, depth: u32) -> Vec<Position> {
    let mut jobs = Vec::new();
    let mut seen = HashSet::new();
    collect(root, depth, &mut seen, &mut jobs);
    jobs
}

fn collect(pos: &Position, depth: u32, seen: &mut HashSet<(u64, u32)>, jobs: &mut Vec<Position>) {
    // A position reached again at the same depth, or its mirror image, is the same job.
    if !seen.insert((job_key(pos), depth)) || knowledge::judge(pos).is_some() {
        return;
    }
    if depth == 0 {
        jobs.push(*pos);
        return;
    }
    for &m in pos.legal_moves().iter() {
        collect(&pos.child(m), depth - 1, seen, jobs);
    }
}

/// What the jobs' answers settle at the root, in positions `P` and moves `M` (the
/// solver's own, or the registry's).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Merged<P = Position, M = Move> {
    /// Who wins from the root; `None` while a needed job is missing or unproven.
    pub(crate) winner: Option<Color>,
    /// A winning root move, when the side to move wins.
    pub(crate) best: Option<M>,
    /// The jobs the merge looked for and did not find proven, each once.
    pub(crate) open: Vec<P>,
}

/// Settles the `depth` plies below `root` from `answers` (a job position's [`job_key`]
/// -> who wins from it, `None` when its job gave up).
pub(crate) fn merge(root: &Position, depth: u32, answers: &HashMap<u64, Option<Color>>) -> Merged {
    let mut merger = Merger {
        answers,
        memo: HashMap::new(),
        open: Vec::new(),
        open_seen: HashSet::new(),
    };
    let (winner, best) = merger.value(root, depth);
    Merged {
        winner,
        best,
        open: merger.open,
    }
}

struct Merger<'a> {
    answers: &'a HashMap<u64, Option<Color>>,
    memo: HashMap<(u64, u32), Option<Color>>,
    open: Vec<Position>,
    open_seen: HashSet<u64>,
}

impl Merger<'_> {
    /// Who wins from `pos`, `depth` plies above the jobs, and a winning move there.
    fn value(&mut self, pos: &Position, depth: u32) -> (Option<Color>, Option<Move>) {
        let us = pos.side_to_move();
        if let Some(known) = knowledge::judge(pos) {
            return match known {
                Known::Win(m) => (Some(us), m),
                Known::Loss => (Some(us.opponent()), None),
            };
        }
        if depth == 0 {
            let answer = self.answers.get(&job_key(pos)).copied().flatten();
            if answer.is_none() && self.open_seen.insert(job_key(pos)) {
                self.open.push(*pos);
            }
            return (answer, None);
        }
        let mut all_lost = true;
        for &m in pos.legal_moves().iter() {
            let child = pos.child(m);
            let key = (job_key(&child), depth - 1);
            let winner = match self.memo.get(&key) {
                Some(&w) => w,
                None => {
                    let w = self.value(&child, depth - 1).0;
                    self.memo.insert(key, w);
                    w
                }
            };
            if winner == Some(us) {
                return (Some(us), Some(m));
            }
            all_lost &= winner == Some(us.opponent());
        }
        // No legal move at all is settled by `judge` above, so `all_lost` saw a move.
        (all_lost.then_some(us.opponent()), None)
    }
}

/// The winner's strategy over the top `depth` plies of a merged proof: its move at each of
/// its positions there, the job positions the strategy reaches (whose proofs must be
/// joined), and the positions the knowledge settles on the way (proven by the caller).
pub(crate) struct TopStrategy {
    pub(crate) moves: Vec<(Position, Move)>,
    pub(crate) jobs: Vec<Position>,
    pub(crate) settled: Vec<Position>,
}

/// [`TopStrategy`] of `winner` from `root` (which the answers prove won by `winner`).
pub(crate) fn top_strategy(
    root: &Position,
    depth: u32,
    answers: &HashMap<u64, Option<Color>>,
    winner: Color,
) -> TopStrategy {
    let mut merger = Merger {
        answers,
        memo: HashMap::new(),
        open: Vec::new(),
        open_seen: HashSet::new(),
    };
    let mut out = TopStrategy {
        moves: Vec::new(),
        jobs: Vec::new(),
        settled: Vec::new(),
    };
    let mut seen = HashSet::new();
    walk(root, depth, winner, &mut merger, &mut out, &mut seen);
    out
}

fn walk(
    pos: &Position,
    depth: u32,
    winner: Color,
    merger: &mut Merger<'_>,
    out: &mut TopStrategy,
    seen: &mut HashSet<(u64, u32)>,
) {
    if !seen.insert((job_key(pos), depth)) || pos.outcome().is_some() {
        return;
    }
    if knowledge::judge(pos).is_some() {
        out.settled.push(*pos);
        return;
    }
    if depth == 0 {
        out.jobs.push(*pos);
        return;
    }
    if pos.side_to_move() == winner {
        let (_, best) = merger.value(pos, depth);
        if let Some(m) = best {
            out.moves.push((*pos, m));
            walk(&pos.child(m), depth - 1, winner, merger, out, seen);
        }
    } else {
        for &m in pos.legal_moves().iter() {
            walk(&pos.child(m), depth - 1, winner, merger, out, seen);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::breakthrough::{DiagonalStep, Geometry};
    use crate::solve::{SolveSettings, solve};
    use std::sync::atomic::AtomicBool;

    #[test]
    fn jobs_merged_give_the_solve_of_the_whole() {
        for diagonal in [DiagonalStep::Free, DiagonalStep::CaptureOnly] {
            for (files, ranks) in [(4, 4), (3, 5), (5, 4)] {
                let root = Position::start(diagonal, Geometry::get(files, ranks).unwrap());
                let whole = solve(root, &SolveSettings::small(), &AtomicBool::new(false)).unwrap();
                for depth in 1..=3 {
                    let jobs = split(&root, depth);
                    assert!(!jobs.is_empty());
                    let answers: HashMap<u64, Option<Color>> = jobs
                        .iter()
                        .map(|job| {
                            let s = solve(*job, &SolveSettings::small(), &AtomicBool::new(false))
                                .unwrap();
                            (job_key(job), s.winner)
                        })
                        .collect();
                    let merged = merge(&root, depth, &answers);
                    assert_eq!(merged.winner, whole.winner, "{files}x{ranks} depth {depth}");
                    // The jobs' proofs joined under the top's strategy check from the root.
                    let winner = merged.winner.unwrap();
                    let top = top_strategy(&root, depth, &answers, winner);
                    let with_proof = SolveSettings {
                        certificate: true,
                        ..SolveSettings::small()
                    };
                    let parts: Vec<_> = top
                        .jobs
                        .iter()
                        .chain(&top.settled)
                        .filter_map(|p| {
                            solve(*p, &with_proof, &AtomicBool::new(false))
                                .unwrap()
                                .certificate
                        })
                        .collect();
                    let joined = crate::solve::Certificate::join(root, winner, &top.moves, &parts);
                    assert!(joined.verify().is_ok(), "{files}x{ranks} depth {depth}");
                    if root.side_to_move() == winner {
                        assert_eq!(top.moves.first().map(|t| t.1), merged.best);
                    }
                    assert!(merged.open.is_empty());
                    if let Some(m) = merged.best {
                        // The merged move wins: its position is the winner's, by the solver.
                        let after = solve(
                            root.child(m),
                            &SolveSettings::small(),
                            &AtomicBool::new(false),
                        );
                        assert_eq!(after.unwrap().winner, merged.winner);
                    }
                    // One answer missing: the merge cannot be sure of the root unless that
                    // job was not needed, and names it if it was.
                    let mut fewer = answers.clone();
                    fewer.remove(&job_key(&jobs[0]));
                    let partial = merge(&root, depth, &fewer);
                    match partial.winner {
                        None => assert_eq!(partial.open.first(), Some(&jobs[0])),
                        Some(w) => assert_eq!(Some(w), whole.winner),
                    }
                }
            }
        }
    }
}
