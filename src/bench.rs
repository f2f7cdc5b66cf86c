//! `bench`: a fixed-depth search of fixed positions, one thread, a fresh table for
//! each. Its node count is a fingerprint of the search: it changes only when search
//! behaviour changes, so commits that change the search quote it (`Bench: N`).

use std::time::{Duration, Instant};

use crate::game::SearchGame;
use crate::search::tt::TranspositionTable;
use crate::search::{Control, Limits, Searcher};
use crate::variant::{AnyPosition, GameVariant};

pub const DEFAULT_DEPTH: u32 = 9;

/// (variant, FEN): openings, middlegames and endgames from every rule set and several sizes.
pub const POSITIONS: [(GameVariant, &str); 28] = [
    (
        GameVariant::Breakthrough,
        "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w - - 0 1",
    ),
    (
        GameVariant::Breakthrough,
        "pppppppp/pppp1ppp/4p3/8/3P4/8/PPP1PPPP/PPPPPPPP w - - 0 1",
    ),
    (
        GameVariant::Breakthrough,
        "p2p3p/1pppp1pP/2p1p3/p2Pp2p/P2P4/3p3P/P1P2P1P/P1P1PP1P w - - 0 1",
    ),
    (
        GameVariant::Breakthrough,
        "3p4/1pppppp1/3p1p2/p3P2P/P3P2p/PP1p1P1P/2P4P/5P2 b - - 0 1",
    ),
    (
        GameVariant::Breakthrough,
        "ppp1p2p/2p1pppp/2p2P2/1p5p/1p2PPpP/P1Pp4/PPPPP1P1/1P1P2P1 w - - 0 1",
    ),
    (
        GameVariant::Breakthrough,
        "3pp3/1p1p2pp/p2p4/2p5/pp6/8/P2P3P/PPP2PPP b - - 0 1",
    ),
    (
        GameVariant::Breakthrough,
        "5p2/8/p2p1p2/p1p2pPp/8/2PPP3/6P1/3P3P w - - 0 1",
    ),
    (
        GameVariant::Breakthrough,
        "p4p1p/1p1pp3/p2pp2p/1pP1p3/2P3pP/P2PP3/6PP/PP1PP3 w - - 0 1",
    ),
    (
        GameVariant::Breakthrough,
        "1pp3pp/p4p2/p1p1pp2/2p4p/2PP1P2/Pp1PPPP1/1P1P1P1P/2P3P1 w - - 0 1",
    ),
    (
        GameVariant::Breakthrough,
        "4p3/8/p2p1P1p/1p1P3P/5Ppp/1PP5/PP3P1P/8 w - - 0 1",
    ),
    (
        GameVariant::Breakthrough,
        "ppppp/ppppp/5/5/PPPPP/PPPPP w - - 0 1",
    ),
    (
        GameVariant::Breakthrough,
        "ppppppp/ppppppp/7/7/7/PPPPPPP/PPPPPPP b - - 0 1",
    ),
    (
        GameVariant::CaptureOnly,
        "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w - - 0 1",
    ),
    (
        GameVariant::CaptureOnly,
        "pppppppp/pp1ppppp/2p5/8/8/5P2/PPPPP1PP/PPPPPPPP w - - 0 1",
    ),
    (
        GameVariant::CaptureOnly,
        "p2p3p/1pppp1pP/2p1p3/p2Pp2p/P2P4/3p3P/P1P2P1P/P1P1PP1P w - - 0 1",
    ),
    (
        GameVariant::CaptureOnly,
        "3p4/1pppppp1/3p1p2/p3P2P/P3P2p/PP1p1P1P/2P4P/5P2 b - - 0 1",
    ),
    (
        GameVariant::CaptureOnly,
        "ppp1p2p/2p1pppp/2p2P2/1p5p/1p2PPpP/P1Pp4/PPPPP1P1/1P1P2P1 w - - 0 1",
    ),
    (
        GameVariant::CaptureOnly,
        "3pp3/1p1p2pp/p2p4/2p5/pp6/8/P2P3P/PPP2PPP b - - 0 1",
    ),
    (
        GameVariant::CaptureOnly,
        "3pp1pp/ppP2pp1/8/7p/p3P3/P1PPPP1P/3P1PPP/PP6 w - - 0 1",
    ),
    (
        GameVariant::CaptureOnly,
        "pp6/p1pp1P1p/2p2pp1/1P6/P7/P1PP1P2/4pPpP/2P4P w - - 0 1",
    ),
    (
        GameVariant::CaptureOnly,
        "8/p3P1pp/1pp3p1/2pp3p/p2P1PpP/P7/PPP5/8 w - - 0 1",
    ),
    (
        GameVariant::CaptureOnly,
        "8/2P1pp1p/5p1p/7P/p1p5/8/1PP2p2/3P3P b - - 0 1",
    ),
    (
        GameVariant::CaptureOnly,
        "pppppp/pppppp/6/6/PPPPPP/PPPPPP w - - 0 1",
    ),
    (
        GameVariant::CaptureOnly,
        "pppp/pppp/4/4/4/4/PPPP/PPPP w - - 0 1",
    ),
    (
        GameVariant::Doorbraak,
        "ppppp/ppppp/5/5/5/5/5/PPPPP/PPPPP w 0",
    ),
    (
        GameVariant::Doorbraak,
        "ppppp/1pppp/p4/5/5/5/P4/1PPPP/1QPPP b 0",
    ),
    (
        GameVariant::Doorbraak,
        "p1p1p/1q1p1/5/2p2/1P3/3P1/P1Q1P/5/1P1P1 w 0",
    ),
    (GameVariant::Doorbraak, "5/1p2p/p1P2/3Q1/5/1p3/P1q2/5/5 b 1"),
];

/// Totals of a bench run.
pub struct BenchReport {
    pub nodes: u64,
    pub time: Duration,
}

impl BenchReport {
    /// The last line of every bench: `N nodes M nps`.
    pub fn summary_line(&self) -> String {
        let nps = self.nodes as f64 / self.time.as_secs_f64().max(1e-9);
        format!("{} nodes {:.0} nps", self.nodes, nps)
    }
}

/// `bench [DEPTH]`.
pub fn parse_depth(args: &[&str]) -> Result<u32, String> {
    match args {
        [] => Ok(DEFAULT_DEPTH),
        [d] => d
            .parse::<u32>()
            .ok()
            .filter(|d| (1..=64).contains(d))
            .ok_or_else(|| format!("bench: depth '{d}' must be a whole number from 1 to 64")),
        _ => Err("bench takes at most one argument, the depth".into()),
    }
}

/// Nodes of one search of `pos` to `depth`, one thread, a fresh 16 MB table.
fn search_nodes<G: SearchGame>(pos: G, depth: u32) -> u64 {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let tt = TranspositionTable::new(16);
    let control = Control::new(None, None, None, false);
    Searcher::new(pos, &limits, &control, &tt, 1, &|_| {})
        .run()
        .nodes
}

/// Searches every position to `depth`; per-position counts go to the log (stderr).
pub fn run(depth: u32) -> BenchReport {
    let mut nodes = 0;
    let mut time = Duration::ZERO;
    for (i, (variant, fen)) in POSITIONS.iter().enumerate() {
        let started = Instant::now();
        let searched =
            match AnyPosition::from_fen(fen, *variant).expect("bench positions are valid") {
                AnyPosition::Breakthrough(p) => search_nodes(p, depth),
                AnyPosition::Doorbraak(p) => search_nodes(p, depth),
            };
        time += started.elapsed();
        nodes += searched;
        log::info!(
            "bench {}/{}: {variant} {fen}: {} nodes",
            i + 1,
            POSITIONS.len(),
            searched
        );
    }
    BenchReport { nodes, time }
}
