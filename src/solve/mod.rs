//! The solver: who wins a Breakthrough position with perfect play, proven.
//!
//! Its pieces elsewhere: `registry/solver.rs`, the capability through which everything
//! above reaches it; `engine/solver.rs`, proofs tried before the search on small boards;
//! `cli/solve.rs` and `cli/verify_proof.rs`, the commands. (`search/mate.rs` is another
//! thing: the alpha-beta search for forced wins behind `go mate`.)
//!
//! A depth-first proof-number search ([`dfpn`]) over a table shared by every thread
//! ([`table`]; a position and its mirror image share an entry, [`key`]), helped by what
//! settles a position without search ([`knowledge`]: the end of the game, wins at once,
//! the static win in two, races). With more than one thread (or when every root move's
//! value is asked for) the root's moves are jobs that the threads take in turn, sharing
//! the table; a job that proves a win ends the others.
//! The proof can be written as a strategy the rules alone can check ([`certificate`]).
//! A solve too big for one machine splits into independent jobs ([`jobs`]).

mod certificate;
mod dfpn;
pub(crate) mod jobs;
mod key;
mod knowledge;
mod table;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::time::{Duration, Instant};

pub(crate) use certificate::{Certificate, CertificateError, Verified};
use dfpn::{ProofWorker, Stop};
use key::Key;
use table::ProofEntry;
pub(crate) use table::{Table, TableFileError};

use crate::rulesets::Rules;
use crate::rulesets::breakthrough::{Color, Move, Position};

/// The position the solver proves: Breakthrough's, standard or capture-only.
pub(crate) type SolverPosition = Position;
use crate::search::tt::{TableError, available_megabytes};

/// What a solve may use.
#[derive(Clone, Debug)]
pub(crate) struct SolveSettings {
    pub(crate) threads: usize,
    /// The table's size in MB; `None`: [`default_table_megabytes`], or a saved table's own.
    pub(crate) hash_megabytes: Option<usize>,
    pub(crate) time_limit: Option<Duration>,
    /// Prove the value of every root move, not just one winning move.
    pub(crate) all_moves: bool,
    /// Build the winning strategy once the value is proven.
    pub(crate) certificate: bool,
    /// A progress line on stderr each second (where stderr is a terminal).
    pub(crate) progress: bool,
    /// Start from the table saved here, if there is one (moved into a table of
    /// `hash_megabytes` if that is given and differs), and save the table here at the
    /// end: a solve stopped at its time limit goes on where it stopped.
    pub(crate) table_file: Option<PathBuf>,
}

impl SolveSettings {
    /// One thread, a 16 MB table, no limit and nothing extra: enough for the small boards
    /// of the tests, and for the positions the knowledge settles.
    pub(crate) fn small() -> SolveSettings {
        SolveSettings {
            threads: 1,
            hash_megabytes: Some(16),
            time_limit: None,
            all_moves: false,
            certificate: false,
            progress: false,
            table_file: None,
        }
    }
}

/// The table `solve` makes unless told: the smallest that holds a solve of the board
/// without much loss, since a larger one costs time to set up and to probe (5x5 on two
/// threads, measured with the mirror keys: 128 MB 1.7 s, 1 GB 2.9 s; setting up 1 GB
/// alone took 0.4 to 1.0 s).
fn default_table_megabytes(root: &Position) -> usize {
    let squares = usize::from(root.files()) * usize::from(root.ranks());
    match squares {
        0..=20 => 16,
        21..=25 => 128,
        26..=30 => 1024,
        _ => available_megabytes().map_or(4096, |free| (free / 2).clamp(16, 4096)),
    }
}

/// The value of one root move: who wins after it (`None`: not proven).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MoveValue<M = Move> {
    pub(crate) m: M,
    pub(crate) winner: Option<Color>,
}

/// What a solve found, its moves of type `M` (the solver's own, or the registry's).
#[derive(Debug)]
pub(crate) struct Solution<M = Move> {
    /// Who wins with perfect play; `None` when not proven within the limits.
    pub(crate) winner: Option<Color>,
    /// A winning move for the side to move, when it wins (and the game is not over).
    pub(crate) best: Option<M>,
    /// With `all_moves`: every root move's value.
    pub(crate) moves: Vec<MoveValue<M>>,
    /// Proof and disproof numbers at the root at the end.
    pub(crate) numbers: (u32, u32),
    pub(crate) nodes: u64,
    pub(crate) seconds: f64,
    /// The winning strategy, when asked for and proven.
    pub(crate) certificate: Option<Certificate>,
    pub(crate) certificate_seconds: f64,
    /// With a table file: whether the table was loaded from it, and why saving it failed.
    pub(crate) table_loaded: bool,
    pub(crate) table_save_error: Option<SolveError>,
}

impl<M> Solution<M> {
    /// The same solution with its moves written as `f` makes them.
    pub(crate) fn map_moves<N>(self, f: impl Fn(M) -> N) -> Solution<N> {
        Solution {
            winner: self.winner,
            best: self.best.map(&f),
            moves: self
                .moves
                .into_iter()
                .map(|v| MoveValue {
                    m: f(v.m),
                    winner: v.winner,
                })
                .collect(),
            numbers: self.numbers,
            nodes: self.nodes,
            seconds: self.seconds,
            certificate: self.certificate,
            certificate_seconds: self.certificate_seconds,
            table_loaded: self.table_loaded,
            table_save_error: self.table_save_error,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub(crate) enum SolveError {
    #[error(transparent)]
    Table(#[from] TableError),
    #[error("cannot build the certificate: {0}")]
    Certificate(#[from] CertificateError),
    #[error("table file {}: {source}", path.display())]
    TableFile {
        path: PathBuf,
        source: TableFileError,
    },
}

/// Proves the value of `root`, within `settings`, until `stop` is set.
pub(crate) fn solve(
    root: Position,
    settings: &SolveSettings,
    stop: &AtomicBool,
) -> Result<Solution, SolveError> {
    let start = Instant::now();
    let file_error = |path: &PathBuf| {
        let path = path.clone();
        move |source| SolveError::TableFile { path, source }
    };
    let (table, loaded) = match &settings.table_file {
        Some(path) if path.exists() => (
            Table::load(path, settings.hash_megabytes).map_err(file_error(path))?,
            true,
        ),
        _ => (
            Table::new(
                settings
                    .hash_megabytes
                    .unwrap_or_else(|| default_table_megabytes(&root)),
            )?,
            false,
        ),
    };
    // Setting up a large table takes seconds (8 GB: about 20): the limit includes them.
    let settings = SolveSettings {
        time_limit: settings.time_limit.map(|t| {
            t.saturating_sub(start.elapsed())
                .max(Duration::from_millis(1))
        }),
        ..settings.clone()
    };
    let mut solution = solve_in(&table, root, &settings, stop)?;
    // The table's setting up is part of the solve's time; saving it is not.
    solution.seconds = start.elapsed().as_secs_f64() - solution.certificate_seconds;
    solution.table_loaded = loaded;
    if let Some(path) = &settings.table_file {
        // A failed save must not cost the answer: the caller reports both.
        solution.table_save_error = table.save(path).map_err(file_error(path)).err();
    }
    Ok(solution)
}

/// [`solve`] with a table of the caller's (its size setting unused): what earlier
/// solves proved there is known at once. The keys tell boards and rule sets apart, so one
/// table may serve several.
pub(crate) fn solve_in(
    table: &Table,
    root: Position,
    settings: &SolveSettings,
    stop: &AtomicBool,
) -> Result<Solution, SolveError> {
    let start = Instant::now();
    let nodes = AtomicU64::new(0);
    let done = AtomicBool::new(false);
    let deadline = settings.time_limit.map(|t| start + t);
    let roots: Vec<(Move, Position)> = root
        .legal_moves()
        .iter()
        .map(|&m| (m, root.child(m)))
        .collect();
    let finished = AtomicBool::new(false);

    let (entry, moves) = std::thread::scope(|scope| {
        if settings.progress && std::io::stderr().is_terminal() {
            scope.spawn(|| report(table, &roots, &nodes, &finished, start));
        }
        let limits = Stop {
            flag: stop,
            done: &done,
            deadline,
        };
        let result = if settings.threads <= 1 && !settings.all_moves {
            (
                ProofWorker::new(table, limits, &nodes).solve(&root),
                Vec::new(),
            )
        } else {
            solve_jobs(&root, &roots, settings, table, limits, &nodes)
        };
        finished.store(true, Relaxed);
        result
    });
    let seconds = start.elapsed().as_secs_f64();
    let us = root.side_to_move();
    let winner = match (entry.phi, entry.delta) {
        (0, _) => Some(us),
        (_, 0) => Some(us.opponent()),
        _ => None,
    };
    let best = if entry.phi == 0 {
        Move::from_bits(entry.best)
    } else {
        None
    };
    let mut solution = Solution {
        winner,
        best,
        moves,
        numbers: (entry.phi, entry.delta),
        nodes: nodes.load(Relaxed),
        seconds,
        certificate: None,
        certificate_seconds: 0.0,
        table_loaded: false,
        table_save_error: None,
    };
    if settings.certificate
        && let Some(winner) = winner
    {
        let begin = Instant::now();
        let done = AtomicBool::new(false);
        let mut worker = ProofWorker::new(
            table,
            Stop {
                flag: stop,
                done: &done,
                deadline: None,
            },
            &nodes,
        );
        solution.certificate = Some(Certificate::build(root, winner, table, &mut worker)?);
        solution.certificate_seconds = begin.elapsed().as_secs_f64();
        solution.nodes = nodes.load(Relaxed);
    }
    Ok(solution)
}

/// How many plies the loser can last at most from `root` against the winner's strategy
/// that `table` proves, checked with the rules alone (a certificate built and verified);
/// `None` if `stop` is set or the deadline passes while it is built, or the table holds
/// no proof.
pub(crate) fn longest_line(
    table: &Table,
    root: Position,
    winner: Color,
    stop: &AtomicBool,
    deadline: Option<Instant>,
) -> Option<u32> {
    let (done, nodes) = (AtomicBool::new(false), AtomicU64::new(0));
    let limits = Stop {
        flag: stop,
        done: &done,
        deadline,
    };
    let mut worker = ProofWorker::new(table, limits, &nodes);
    let certificate = Certificate::build(root, winner, table, &mut worker).ok()?;
    certificate.verify().ok().map(|v| v.longest)
}

/// The root's moves as jobs for `settings.threads` threads; the root's numbers, and each
/// move's value when every one is asked for.
fn solve_jobs(
    root: &Position,
    roots: &[(Move, Position)],
    settings: &SolveSettings,
    table: &Table,
    stop: Stop,
    nodes: &AtomicU64,
) -> (ProofEntry, Vec<MoveValue>) {
    if let Some(known) = knowledge::judge(root)
        && (!settings.all_moves || roots.is_empty())
    {
        return (dfpn::settled(known), Vec::new());
    }
    let (twin, order) = job_order(roots, table);
    let results = run_jobs(roots, &order, settings, table, stop, nodes);
    let us = root.side_to_move();
    let moves: Vec<MoveValue> = roots
        .iter()
        .zip(&twin)
        .map(|(&(m, _), &t)| MoveValue {
            m,
            winner: match results[t] {
                Some(e) if e.delta == 0 => Some(us),
                Some(e) if e.phi == 0 => Some(us.opponent()),
                _ => None,
            },
        })
        .collect();
    let entry = root_entry(root, roots, &moves, table);
    (
        entry,
        if settings.all_moves {
            moves
        } else {
            Vec::new()
        },
    )
}

/// Which root move each takes its value from (a move whose position is the mirror image
/// of an earlier one's is not a job of its own: it takes its twin's), and the jobs in
/// the order to take them: the most promising first, those leaving the opponent least to
/// refute.
fn job_order(roots: &[(Move, Position)], table: &Table) -> (Vec<usize>, Vec<usize>) {
    let keys: Vec<u64> = roots.iter().map(|(_, pos)| Key::of(pos).hash).collect();
    let twin: Vec<usize> = (0..roots.len())
        .map(|i| keys.iter().position(|&k| k == keys[i]).unwrap_or(i))
        .collect();
    let mut order: Vec<usize> = (0..roots.len()).filter(|&i| twin[i] == i).collect();
    order.sort_by_key(|&i| child_numbers(table, &roots[i].1).0.1);
    (twin, order)
}

/// Solves the root moves of `order` on `settings.threads` threads taking them in turn;
/// a move that wins ends the others unless every value is asked for.
fn run_jobs(
    roots: &[(Move, Position)],
    order: &[usize],
    settings: &SolveSettings,
    table: &Table,
    stop: Stop,
    nodes: &AtomicU64,
) -> Vec<Option<ProofEntry>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<ProofEntry>>> = Mutex::new(vec![None; roots.len()]);
    std::thread::scope(|scope| {
        for _ in 0..settings.threads.max(1) {
            scope.spawn(|| {
                let mut worker = ProofWorker::new(table, stop, nodes);
                loop {
                    let k = next.fetch_add(1, Relaxed);
                    if k >= order.len() || worker.stopped() {
                        break;
                    }
                    let i = order[k];
                    let entry = worker.solve(&roots[i].1);
                    if let Ok(mut r) = results.lock() {
                        r[i] = Some(entry);
                    }
                    // The child's mover loses: this move wins, and the root is proven.
                    if entry.delta == 0 && !settings.all_moves {
                        stop.done.store(true, Relaxed);
                    }
                }
            });
        }
    });
    results.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// The root's entry from its moves' values: won by a winning move, lost when every move
/// loses, else its numbers from its children (or the rules, when it has no move).
fn root_entry(
    root: &Position,
    roots: &[(Move, Position)],
    moves: &[MoveValue],
    table: &Table,
) -> ProofEntry {
    let us = root.side_to_move();
    match moves.iter().find(|v| v.winner == Some(us)) {
        Some(v) => ProofEntry {
            phi: 0,
            delta: table::INF,
            best: v.m.to_bits(),
            work: 0,
        },
        None if !moves.is_empty() && moves.iter().all(|v| v.winner == Some(us.opponent())) => {
            ProofEntry {
                phi: table::INF,
                delta: 0,
                best: 0,
                work: 0,
            }
        }
        // Not every move proven, or none at all (then the game is over).
        None => match knowledge::judge(root) {
            Some(known) if moves.is_empty() => dfpn::settled(known),
            _ => {
                let ((phi, delta), _) = root_numbers(table, roots);
                ProofEntry {
                    phi,
                    delta,
                    best: 0,
                    work: 0,
                }
            }
        },
    }
}

/// A child's numbers from the table, or its first estimate; and whether it was found.
fn child_numbers(table: &Table, pos: &Position) -> ((u32, u32), bool) {
    match table.get(Key::of(pos)) {
        Some(e) => ((e.phi, e.delta), true),
        None => match knowledge::judge(pos) {
            Some(k) => {
                let e = dfpn::settled(k);
                ((e.phi, e.delta), true)
            }
            None => (knowledge::initial(pos), false),
        },
    }
}

/// The root's numbers as its children's entries make them.
fn root_numbers(table: &Table, roots: &[(Move, Position)]) -> ((u32, u32), usize) {
    let mut phi = table::INF;
    let mut sum = 0u64;
    let mut settled = 0;
    for (_, pos) in roots {
        let ((p, d), _) = child_numbers(table, pos);
        phi = phi.min(d);
        sum += u64::from(p);
        settled += usize::from(p == 0 || d == 0);
    }
    let delta = if phi == 0 {
        table::INF
    } else {
        sum.min(u64::from(table::INF)) as u32
    };
    ((phi, delta), settled)
}

/// A progress line on stderr each second until `finished`.
fn report(
    table: &Table,
    roots: &[(Move, Position)],
    nodes: &AtomicU64,
    finished: &AtomicBool,
    start: Instant,
) {
    let mut last = Instant::now();
    while !finished.load(Relaxed) {
        std::thread::sleep(Duration::from_millis(50));
        if last.elapsed() < Duration::from_secs(1) {
            continue;
        }
        last = Instant::now();
        let ((phi, delta), settled) = root_numbers(table, roots);
        let n = nodes.load(Relaxed);
        let seconds = start.elapsed().as_secs_f64();
        eprint!(
            "\r{:.0} s: proof {phi}, disproof {delta}, root moves settled {settled}/{}, {n} nodes, {:.0} nodes/s, table {}%   ",
            seconds,
            roots.len(),
            n as f64 / seconds.max(1e-9),
            table.permille_full() / 10
        );
        let _ = std::io::stderr().flush();
    }
    eprint!("\r{:100}\r", "");
}

/// The most memory the process has held, in MB, where the system says.
pub(crate) fn peak_megabytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes / 1024)
}

#[cfg(test)]
mod tests;
