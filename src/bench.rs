//! `bench`: a fixed-depth search of fixed positions, one thread, a fresh table for
//! each. Its node count is a fingerprint of the search: it changes only when search
//! behaviour changes, so commits that change the search quote it (`Bench: N`), and
//! [`SIGNATURE`] records it.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::registry::{AnyPosition, SearchSetup, Variant, describe_network};
use crate::search::tt::{TableError, TranspositionTable};
use crate::search::{Control, SearchLimits};

pub(crate) const DEFAULT_DEPTH: u32 = 9;

/// The node count of `bench` at [`DEFAULT_DEPTH`]: the search's signature. A change that
/// alters it changes what the engine plays; it updates this number and says `Bench: N`
/// in its commit (a test fails until both agree).
pub(crate) const SIGNATURE: u64 = 3_858_708;

/// (variant, FEN): openings, middlegames and endgames from every rule set and several sizes.
const POSITIONS: [(&str, &str); 28] = [
    (
        "breakthrough",
        "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w - - 0 1",
    ),
    (
        "breakthrough",
        "pppppppp/pppp1ppp/4p3/8/3P4/8/PPP1PPPP/PPPPPPPP w - - 0 1",
    ),
    (
        "breakthrough",
        "p2p3p/1pppp1pP/2p1p3/p2Pp2p/P2P4/3p3P/P1P2P1P/P1P1PP1P w - - 0 1",
    ),
    (
        "breakthrough",
        "3p4/1pppppp1/3p1p2/p3P2P/P3P2p/PP1p1P1P/2P4P/5P2 b - - 0 1",
    ),
    (
        "breakthrough",
        "ppp1p2p/2p1pppp/2p2P2/1p5p/1p2PPpP/P1Pp4/PPPPP1P1/1P1P2P1 w - - 0 1",
    ),
    (
        "breakthrough",
        "3pp3/1p1p2pp/p2p4/2p5/pp6/8/P2P3P/PPP2PPP b - - 0 1",
    ),
    (
        "breakthrough",
        "5p2/8/p2p1p2/p1p2pPp/8/2PPP3/6P1/3P3P w - - 0 1",
    ),
    (
        "breakthrough",
        "p4p1p/1p1pp3/p2pp2p/1pP1p3/2P3pP/P2PP3/6PP/PP1PP3 w - - 0 1",
    ),
    (
        "breakthrough",
        "1pp3pp/p4p2/p1p1pp2/2p4p/2PP1P2/Pp1PPPP1/1P1P1P1P/2P3P1 w - - 0 1",
    ),
    (
        "breakthrough",
        "4p3/8/p2p1P1p/1p1P3P/5Ppp/1PP5/PP3P1P/8 w - - 0 1",
    ),
    ("breakthrough", "ppppp/ppppp/5/5/PPPPP/PPPPP w - - 0 1"),
    (
        "breakthrough",
        "ppppppp/ppppppp/7/7/7/PPPPPPP/PPPPPPP b - - 0 1",
    ),
    (
        "capture-only",
        "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w - - 0 1",
    ),
    (
        "capture-only",
        "pppppppp/pp1ppppp/2p5/8/8/5P2/PPPPP1PP/PPPPPPPP w - - 0 1",
    ),
    (
        "capture-only",
        "p2p3p/1pppp1pP/2p1p3/p2Pp2p/P2P4/3p3P/P1P2P1P/P1P1PP1P w - - 0 1",
    ),
    (
        "capture-only",
        "3p4/1pppppp1/3p1p2/p3P2P/P3P2p/PP1p1P1P/2P4P/5P2 b - - 0 1",
    ),
    (
        "capture-only",
        "ppp1p2p/2p1pppp/2p2P2/1p5p/1p2PPpP/P1Pp4/PPPPP1P1/1P1P2P1 w - - 0 1",
    ),
    (
        "capture-only",
        "3pp3/1p1p2pp/p2p4/2p5/pp6/8/P2P3P/PPP2PPP b - - 0 1",
    ),
    (
        "capture-only",
        "3pp1pp/ppP2pp1/8/7p/p3P3/P1PPPP1P/3P1PPP/PP6 w - - 0 1",
    ),
    (
        "capture-only",
        "pp6/p1pp1P1p/2p2pp1/1P6/P7/P1PP1P2/4pPpP/2P4P w - - 0 1",
    ),
    (
        "capture-only",
        "8/p3P1pp/1pp3p1/2pp3p/p2P1PpP/P7/PPP5/8 w - - 0 1",
    ),
    (
        "capture-only",
        "8/2P1pp1p/5p1p/7P/p1p5/8/1PP2p2/3P3P b - - 0 1",
    ),
    ("capture-only", "pppppp/pppppp/6/6/PPPPPP/PPPPPP w - - 0 1"),
    ("capture-only", "pppp/pppp/4/4/4/4/PPPP/PPPP w - - 0 1"),
    ("doorbraak", "ppppp/ppppp/5/5/5/5/5/PPPPP/PPPPP w 0"),
    ("doorbraak", "ppppp/1pppp/p4/5/5/5/P4/1PPPP/1QPPP b 0"),
    ("doorbraak", "p1p1p/1q1p1/5/2p2/1P3/3P1/P1Q1P/5/1P1P1 w 0"),
    ("doorbraak", "5/1p2p/p1P2/3Q1/5/1p3/P1q2/5/5 b 1"),
];

/// Totals of a bench run.
pub(crate) struct BenchReport {
    pub(crate) nodes: u64,
    pub(crate) time: Duration,
}

impl BenchReport {
    /// The last line of every bench: `N nodes M nps`.
    pub(crate) fn summary_line(&self) -> String {
        let nps = self.nodes as f64 / self.time.as_secs_f64().max(1e-9);
        format!("{} nodes {:.0} nps", self.nodes, nps)
    }
}

/// Searches every position to `depth`, one thread, a fresh 16 MB table each, until done
/// or `stop` is set; per-position counts go to the log (stderr).
pub(crate) fn run(depth: u32, stop: Arc<AtomicBool>) -> Result<BenchReport, TableError> {
    let limits = SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    };
    let mut report = BenchReport {
        nodes: 0,
        time: Duration::ZERO,
    };
    for (i, (variant, fen)) in POSITIONS.iter().enumerate() {
        let variant: Variant = variant.parse().expect("bench variants are registered");
        let pos = AnyPosition::from_fen(fen, variant).expect("bench positions are valid");
        let tt = TranspositionTable::new(16)?;
        let control = Control::sharing_stop(stop.clone());
        if control.is_stopped() {
            break;
        }
        let setup = SearchSetup {
            control: &control,
            tt: &tt,
            threads: 1,
            earlier: &[],
            memory: None,
        };
        let started = Instant::now();
        let nodes = pos.search(&limits, &setup, &|_| {}).nodes;
        let time = started.elapsed();
        report.time += time;
        report.nodes += nodes;
        log::info!(
            "bench {}/{}: {variant} {fen}: {nodes} nodes {:.0} nps ({})",
            i + 1,
            POSITIONS.len(),
            nodes as f64 / time.as_secs_f64().max(1e-9),
            describe_network(pos.network())
        );
    }
    if depth == DEFAULT_DEPTH && report.nodes != SIGNATURE {
        log::warn!(
            "bench: {} nodes, not the recorded {SIGNATURE}: the search behaves differently",
            report.nodes
        );
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search's behaviour is what `SIGNATURE` says it is. If this fails, the change
    /// altered what the engine plays: update `SIGNATURE` and say `Bench: N` in the commit.
    #[test]
    fn bench_matches_the_recorded_signature() {
        let nodes = run(DEFAULT_DEPTH, Arc::default()).unwrap().nodes;
        assert_eq!(
            nodes, SIGNATURE,
            "bench gives {nodes} nodes, SIGNATURE records {SIGNATURE}: update it and write \
             `Bench: {nodes}` in the commit"
        );
    }
}
