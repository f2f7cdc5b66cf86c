//! The solver as a capability of a rule set's entry.
//!
//! A position of a rule set whose entry has it (`Registration::with_solver`) hands the solver
//! its own position, and the solver's answers come back as [`AnyMove`]s and
//! [`AnyPosition`]s. Nothing above the registry names the solver's position type.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::position::Inner;
use super::{AnyMove, AnyPosition, Variant};
use crate::rulesets::{Color, Evaluate, Rules};
use crate::solve::jobs::Merged;
use crate::solve::{self, Solution, SolveError, SolveSettings, SolverPosition, Table};

/// How the registry reaches the solver from an entry's position type: the two
/// conversions, made by [`SolverHooks::of`] for a type whose rules are the solver's.
pub(super) struct SolverHooks {
    to_solver: fn(&Inner) -> Option<SolverPosition>,
    from_solver: fn(SolverPosition) -> Inner,
}

impl SolverHooks {
    pub(super) const fn of<P>() -> SolverHooks
    where
        P: Evaluate<Rules = SolverPosition> + Into<Inner> + super::position::Member,
    {
        SolverHooks {
            to_solver: to_solver::<P>,
            from_solver: from_solver::<P>,
        }
    }
}

fn to_solver<P: Evaluate<Rules = SolverPosition> + super::position::Member>(
    inner: &Inner,
) -> Option<SolverPosition> {
    P::get(inner).map(|p| *p.rules())
}

fn from_solver<P: Evaluate<Rules = SolverPosition> + Into<Inner>>(pos: SolverPosition) -> Inner {
    P::new(pos).into()
}

impl Variant {
    /// True where the solver proves this rule set's positions.
    pub(crate) fn can_solve(self) -> bool {
        self.entry().solver().is_some()
    }
}

/// A position the solver can prove, from [`AnyPosition::provable`].
pub(crate) struct Provable {
    variant: Variant,
    hooks: &'static SolverHooks,
    root: SolverPosition,
}

impl AnyPosition {
    /// This position as the solver sees it, if its rule set has the solver.
    pub(crate) fn provable(&self) -> Option<Provable> {
        let hooks = self.variant.entry().solver()?;
        Some(Provable {
            variant: self.variant,
            hooks,
            root: (hooks.to_solver)(&self.inner)?,
        })
    }
}

impl Provable {
    fn wrap(&self, m: <SolverPosition as Rules>::Move) -> AnyMove {
        AnyMove {
            variant: self.variant,
            code: SolverPosition::encode(m),
        }
    }

    fn position(&self, pos: SolverPosition) -> AnyPosition {
        AnyPosition {
            variant: self.variant,
            inner: (self.hooks.from_solver)(pos),
        }
    }

    /// Proves who wins, within `options`, until `stop` is set (see `solve::solve`).
    pub(crate) fn solve(
        &self,
        options: &SolveSettings,
        stop: &AtomicBool,
    ) -> Result<Solution<AnyMove>, SolveError> {
        let solution = solve::solve(self.root, options, stop)?;
        Ok(solution.map_moves(|m| self.wrap(m)))
    }

    /// [`Provable::solve`] with a table of the caller's, kept between solves.
    pub(crate) fn solve_in(
        &self,
        table: &Table,
        options: &SolveSettings,
        stop: &AtomicBool,
    ) -> Result<Solution<AnyMove>, SolveError> {
        let solution = solve::solve_in(table, self.root, options, stop)?;
        Ok(solution.map_moves(|m| self.wrap(m)))
    }

    /// How many plies the loser can last at most against `winner`'s strategy that
    /// `table` proves (see `solve::longest_line`).
    pub(crate) fn longest_line(
        &self,
        table: &Table,
        winner: Color,
        stop: &AtomicBool,
        deadline: Option<Instant>,
    ) -> Option<u32> {
        solve::longest_line(table, self.root, winner, stop, deadline)
    }

    /// The unsettled positions `depth` plies down, each once: independent jobs.
    pub(crate) fn split(&self, depth: u32) -> Vec<AnyPosition> {
        let jobs = solve::jobs::split(&self.root, depth);
        jobs.into_iter().map(|p| self.position(p)).collect()
    }

    /// What names this position's answer among jobs' answers (a position and its mirror
    /// image share it).
    pub(crate) fn job_key(&self) -> u64 {
        solve::jobs::job_key(&self.root)
    }

    /// The certificate of a proof merged from jobs: the winner's strategy over the top
    /// `depth` plies joined with the jobs' own certificates (`proofs`: a job's
    /// [`Provable::job_key`] -> its certificate file's bytes) and with proofs of the
    /// positions the knowledge settles on the way (solved here). Checked with the rules
    /// before it is returned: the file's bytes and what the check found.
    pub(crate) fn joined_certificate(
        &self,
        depth: u32,
        answers: &HashMap<u64, Option<Color>>,
        winner: Color,
        proofs: &HashMap<u64, Vec<u8>>,
    ) -> Result<(Vec<u8>, solve::Verified), String> {
        let top = solve::jobs::top_strategy(&self.root, depth, answers, winner);
        let mut parts = Vec::new();
        for job in &top.jobs {
            let key = solve::jobs::job_key(job);
            let bytes = proofs.get(&key).ok_or_else(|| {
                format!(
                    "job {} has no certificate: run it with --certificate",
                    self.position(*job).to_fen()
                )
            })?;
            let part = solve::Certificate::from_bytes(bytes).map_err(|e| {
                format!(
                    "the certificate of job {}: {e}",
                    self.position(*job).to_fen()
                )
            })?;
            parts.push(part);
        }
        let settings = SolveSettings {
            certificate: true,
            ..SolveSettings::small()
        };
        for pos in &top.settled {
            let solved = solve::solve(*pos, &settings, &AtomicBool::new(false))
                .map_err(|e| e.to_string())?;
            parts.extend(solved.certificate);
        }
        let joined = solve::Certificate::join(self.root, winner, &top.moves, &parts);
        let verified = joined
            .verify()
            .map_err(|e| format!("the joined proof does not check: {e}"))?;
        Ok((joined.to_bytes(), verified))
    }

    /// Settles the `depth` plies below this position from jobs' `answers` (a job's
    /// [`Provable::job_key`] -> who wins from it, `None` when its job gave up).
    pub(crate) fn merge(
        &self,
        depth: u32,
        answers: &HashMap<u64, Option<Color>>,
    ) -> Merged<AnyPosition, AnyMove> {
        let merged = solve::jobs::merge(&self.root, depth, answers);
        Merged {
            winner: merged.winner,
            best: merged.best.map(|m| self.wrap(m)),
            open: merged.open.into_iter().map(|p| self.position(p)).collect(),
        }
    }
}
