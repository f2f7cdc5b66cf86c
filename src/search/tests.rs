//! The search, in process: exact win distances (the public forced-wins suite, and small
//! boards of both Breakthrough rule sets against plain exhaustive minimax), the table's
//! win-distance conversion, repetition draws in Doorbraak, the singular-move test, and
//! the rule set added for tests only.

use std::sync::Mutex;

use super::tt::{Bound, Entry, TranspositionTable};
use super::{Control, INFINITY, Info, Score, SearchLimits, SearchResult, Searcher, WIN};
use super::{score_from_tt, score_to_tt};
use crate::rulesets::breakthrough::{self, DiagonalStep};
use crate::rulesets::{Color, Evaluate, MoveOf, Rules, doorbraak, toy};
use crate::util::rng::Rng;

/// Searches `pos` with `limits` on `threads` threads and a fresh table; `earlier` holds
/// the hashes of the game's positions before it. Returns the answer and every report.
fn run<P: Evaluate>(
    pos: P,
    limits: SearchLimits<MoveOf<P>>,
    threads: usize,
    earlier: &[u64],
) -> (SearchResult<MoveOf<P>>, Vec<Info<MoveOf<P>>>) {
    let control = Control::unlimited();
    let tt = TranspositionTable::new(4).unwrap();
    let infos = Mutex::new(Vec::new());
    let report = |info: &Info<MoveOf<P>>| infos.lock().unwrap().push(info.clone());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let result = pool.install(|| {
        Searcher::new(pos, &limits, &control, &tt, threads, &report)
            .with_game_history(earlier)
            .run()
    });
    (result, infos.into_inner().unwrap())
}

fn search<P: Evaluate>(pos: P, depth: u32, threads: usize) -> SearchResult<MoveOf<P>> {
    let limits = SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    };
    run(pos, limits, threads, &[]).0
}

fn child<P: Evaluate>(pos: P, m: MoveOf<P>) -> P {
    let mut next = pos;
    next.play(m);
    next
}

/// The protocol's score for a win or loss `plies` plies away: odd, the side to move wins.
fn mate_in(plies: i32) -> Score {
    if plies % 2 == 1 {
        Score::Mate((plies + 1) / 2)
    } else {
        Score::Mate(-plies / 2)
    }
}

fn bt(fen: &str, diagonal: DiagonalStep) -> breakthrough::Evaluated {
    breakthrough::Evaluated::new(breakthrough::Position::from_fen(fen, diagonal).unwrap())
}

fn check_suite(threads: usize, step: usize) {
    let text = include_str!("../../tests/data/forced-wins.epd");
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .step_by(step)
    {
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        let pos = bt(fields[0], DiagonalStep::Free);
        let winner = if fields[1].ends_with('w') {
            Color::White
        } else {
            Color::Black
        };
        let plies: i32 = fields[2]
            .trim_start_matches("plies")
            .trim()
            .parse()
            .unwrap();
        checked += 1;
        if plies == 0 {
            if pos.rules().outcome().map(|o| o.winner) != Some(Some(winner)) {
                failures.push(format!("{line}: outcome {:?}", pos.rules().outcome()));
            }
            continue;
        }
        assert_eq!(
            winner == pos.rules().side_to_move(),
            plies % 2 == 1,
            "suite: {line}"
        );
        let result = search(pos, plies as u32 + 4, threads);
        let score = Score::from_internal(result.score);
        if score != mate_in(plies) {
            failures.push(format!(
                "{line}: reported {score:?}, expected {:?}",
                mate_in(plies)
            ));
            continue;
        }
        // The move played must keep the win: the opponent then loses in plies - 1.
        let best = result.best.expect("a move in an unfinished game");
        let next = child(pos, best);
        if plies == 1 {
            assert_eq!(
                next.rules().outcome().and_then(|o| o.winner),
                Some(winner),
                "{line}"
            );
            continue;
        }
        let after = Score::from_internal(search(next, plies as u32 + 3, threads).score);
        if winner == pos.rules().side_to_move() && after != mate_in(plies - 1) {
            failures.push(format!(
                "{line}: {best} leaves {after:?}, expected {:?}",
                mate_in(plies - 1)
            ));
        }
    }
    assert!(checked > 100);
    assert!(
        failures.is_empty(),
        "{} of {checked} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn forced_wins_suite_one_thread() {
    check_suite(1, 1);
}

#[test]
fn forced_wins_suite_sample_two_threads() {
    check_suite(2, 5);
}

/// True if the side to move can force a win within `plies` plies (plain minimax).
fn wins_within<R: Rules>(pos: R, plies: u32) -> bool {
    plies > 0
        && pos.legal_moves().iter().any(|&m| {
            let next = rules_child(pos, m);
            next.outcome()
                .is_some_and(|o| o.winner == Some(pos.side_to_move()))
                || (plies >= 3 && loses_within(next, plies - 1))
        })
}

/// True if the side to move loses within `plies` plies whatever it plays.
fn loses_within<R: Rules>(pos: R, plies: u32) -> bool {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return pos
            .outcome()
            .is_some_and(|o| o.winner != Some(pos.side_to_move()));
    }
    plies >= 2
        && moves
            .iter()
            .all(|&m| wins_within(rules_child(pos, m), plies - 1))
}

/// The exact distance in plies to the end with best play, if it is at most `limit`.
fn distance<R: Rules>(pos: R, limit: u32) -> Option<i32> {
    (1..=limit).find_map(|plies| {
        let decided = if plies % 2 == 1 {
            wins_within(pos, plies)
        } else {
            loses_within(pos, plies)
        };
        decided.then_some(plies as i32)
    })
}

fn rules_child<R: Rules>(pos: R, m: R::Move) -> R {
    let mut next = pos;
    next.play(m);
    next
}

/// Small boards, both Breakthrough rule sets: wherever plain minimax finds a result
/// within five plies, the search reports exactly that distance, and it never reports a
/// win or loss that minimax cannot confirm.
#[test]
fn exact_win_distances_on_small_boards_against_minimax() {
    let mut rng = Rng::new(5);
    let (mut decided, mut open) = (0, 0);
    for diagonal in [DiagonalStep::Free, DiagonalStep::CaptureOnly] {
        for fen in [
            "ppp/ppp/3/PPP/PPP w",
            "pppp/pppp/4/PPPP/PPPP w",
            "ppppp/ppppp/5/5/PPPPP/PPPPP w",
        ] {
            for _ in 0..12 {
                let mut pos = bt(fen, diagonal);
                loop {
                    let moves = pos.rules().legal_moves();
                    pos.play(moves[rng.below(moves.len())]);
                    if pos.rules().outcome().is_some() {
                        break;
                    }
                    let score = Score::from_internal(search(pos, 9, 1).score);
                    match (distance(*pos.rules(), 5), score) {
                        (Some(plies), _) => {
                            decided += 1;
                            assert_eq!(score, mate_in(plies), "{pos:?}");
                        }
                        (None, Score::Mate(n)) => {
                            // Beyond five plies: confirm the claim by minimax itself.
                            let plies = if n > 0 { 2 * n - 1 } else { -2 * n };
                            assert!(plies > 5, "{pos:?}: {score:?}");
                            if plies <= 7 {
                                assert_eq!(distance(*pos.rules(), 7), Some(plies), "{pos:?}");
                            }
                        }
                        (None, Score::Centipawns(_)) => open += 1,
                    }
                }
            }
        }
    }
    assert!(
        decided > 200 && open > 100,
        "{decided} decided, {open} open"
    );
}

/// Win scores are stored relative to the node and read back relative to the root, so
/// a win found at one ply reads as the same win from another.
#[test]
fn table_scores_keep_win_distances_across_plies() {
    for ply in [0, 1, 5, 40] {
        for s in [0, 250, -250, WIN - 7 - ply as i32, -WIN + 8 + ply as i32] {
            assert_eq!(score_from_tt(score_to_tt(s, ply), ply), s, "{s} at {ply}");
        }
    }
    // A win 3 plies below a node at ply 4 is stored as "3 plies from here"...
    let stored = score_to_tt(WIN - 7, 4);
    assert_eq!(i32::from(stored), WIN - 3);
    // ...and read at ply 10 it is a win at ply 13.
    assert_eq!(score_from_tt(stored, 10), WIN - 13);
    assert_eq!(score_from_tt(score_to_tt(-(WIN - 6), 2), 9), -(WIN - 13));
    // Through the table itself, and back to the protocol's mate count.
    let tt = TranspositionTable::new(1).unwrap();
    tt.store(
        42,
        Entry {
            move_code: 0,
            score: score_to_tt(WIN - 5, 2),
            depth: 3,
            bound: Bound::Exact,
        },
    );
    let read = score_from_tt(tt.probe(42).unwrap().score, 0);
    assert_eq!(Score::from_internal(read), Score::Mate(2));
}

/// Doorbraak positions can repeat: a move back to a position of the game scores as a
/// draw, and the same move without that history does not.
#[test]
fn a_repetition_in_doorbraak_scores_as_a_draw() {
    let start = doorbraak::Position::startpos(());
    let mut pos = start;
    let mut earlier = Vec::new();
    for text in ["a2b3", "a8b7", "b3a2", "b7a8"] {
        earlier.push(pos.rules().hash());
        let m = pos.parse_move(text).unwrap();
        Rules::play(&mut pos, m);
    }
    assert_eq!(pos, start);
    let a2b3 = pos.parse_move("a2b3").unwrap();
    let depth_one_score = |earlier: &[u64]| {
        let limits = SearchLimits {
            depth: Some(1),
            multipv: 64,
            ..SearchLimits::default()
        };
        let (_, infos) = run(pos, limits, 1, earlier);
        infos
            .iter()
            .find(|i| i.depth == 1 && i.pv.first() == Some(&a2b3))
            .map(|i| i.score)
            .unwrap()
    };
    assert_ne!(depth_one_score(&[]), Score::Centipawns(0));
    // With the game's history, a2b3 brings back the position after White's first move.
    assert_eq!(depth_one_score(&earlier), Score::Centipawns(0));
}

/// The rule set compiled for tests only, searched like any other: the side to move
/// wins exactly when the heap is no multiple of three.
#[test]
fn the_test_rule_set_is_searched_like_any_other() {
    for stones in 1..=14u16 {
        let pos = toy::Position::from_fen(&format!("{stones} w"), ()).unwrap();
        let result = search(pos, 20, 1);
        let score = Score::from_internal(result.score);
        if stones % 3 == 0 {
            assert_eq!(score, mate_in(2 * (stones / 3) as i32), "{stones}");
        } else {
            assert_eq!(score, mate_in(2 * (stones / 3) as i32 + 1), "{stones}");
            let best = result.best.unwrap();
            assert_eq!(
                child(pos, best).to_fen(),
                format!("{} b", stones - stones % 3)
            );
        }
    }
}

/// Singular extensions: the search without the table's move leaves that move out and
/// holds the others against the table's score.
#[test]
fn a_lone_good_move_is_singular_and_an_underrated_one_is_not() {
    use super::node::{Shared, Worker};
    let control = Control::unlimited();
    let tt = TranspositionTable::new(4).unwrap();
    let shared = Shared {
        control: &control,
        tt: &tt,
        is_helper: false,
    };
    let depth = 8;
    // White must take the pawn on a3: any other move lets it take b2, and only b2
    // attacks it.
    let pos = bt(
        "1ppppppp/pppppppp/8/8/8/p7/PPPPPPPP/PPPPPPPP w",
        DiagonalStep::Free,
    );
    let take = pos.rules().parse_move("b2a3").unwrap();
    let mut worker = Worker::new(&pos);
    let best = worker.negamax(&shared, &pos, depth, 0, -INFINITY, INFINITY);
    assert_eq!(worker.pv[0].first(), Some(&take), "score {best}");
    assert!(worker.is_singular(&shared, &pos, depth, 0, take, best));
    // A move rated far below what the position gives leaves other moves above it.
    let start = bt(
        "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w",
        DiagonalStep::Free,
    );
    let mut worker = Worker::new(&start);
    let best = worker.negamax(&shared, &start, depth, 0, -INFINITY, INFINITY);
    let first = worker.pv[0][0];
    assert!(!worker.is_singular(&shared, &start, depth, 0, first, best - 300));
}

/// A search given a memory leaves each thread's quiet-move history there, the next
/// search's workers start from it halved, and `clear` empties it.
#[test]
fn each_thread_keeps_its_history_for_the_next_search_halved() {
    use super::SearchMemory;
    use super::node::Worker;
    let pos = bt(
        "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w",
        DiagonalStep::Free,
    );
    let limits = SearchLimits {
        depth: Some(7),
        ..SearchLimits::default()
    };
    let (control, tt) = (Control::unlimited(), TranspositionTable::new(4).unwrap());
    let memory = SearchMemory::default();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    pool.install(|| {
        Searcher::new(pos, &limits, &control, &tt, 2, &|_| {})
            .with_memory(Some(&memory))
            .run()
    });
    // One table a thread; a helper may be stopped before its first cutoff on a busy
    // machine, so only the main thread's is sure to hold something.
    let kept: Vec<_> = memory.lock().iter().map(|h| **h).collect();
    assert_eq!(kept.len(), 2);
    assert!(kept[0].iter().flatten().any(|&v| v != 0));
    let mut worker = Worker::new(&pos);
    worker.recall(&kept[0]);
    let halved = worker
        .history()
        .iter()
        .flatten()
        .zip(kept[0].iter().flatten());
    assert!(halved.clone().all(|(&now, &then)| now == then / 2));
    assert!(halved.clone().any(|(&now, _)| now != 0));
    memory.clear();
    assert!(memory.lock().is_empty());
}

/// The proven mate search on the forced-wins suite: every win at its exact length with a
/// move that keeps it, and no win for the side that loses.
#[test]
fn mate_search_proves_the_suite_exactly() {
    use super::mate::{MateOutcome, prove};
    let text = include_str!("../../tests/data/forced-wins.epd");
    let control = Control::unlimited();
    let (mut wins, mut losses) = (0, 0);
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        let pos = bt(fields[0], DiagonalStep::Free);
        let plies: u32 = fields[2]
            .trim_start_matches("plies")
            .trim()
            .parse()
            .unwrap();
        if plies == 0 {
            continue;
        }
        let moves = plies.div_ceil(2);
        let outcome = prove(&pos, moves, &[], &control, &mut |_| {});
        if plies % 2 == 1 {
            wins += 1;
            let MateOutcome::Win {
                moves: found,
                line: pv,
            } = outcome
            else {
                panic!("{line}: {outcome:?}");
            };
            assert_eq!(found, moves, "{line}");
            // One move fewer is not enough, and the first move keeps the win.
            let shorter = prove(&pos, moves - 1, &[], &control, &mut |_| {});
            assert!(moves == 1 || shorter == MateOutcome::NoWin, "{line}");
            let next = child(pos, pv[0]);
            if plies > 1 {
                assert_eq!(
                    distance(*next.rules(), plies - 1),
                    Some(plies as i32 - 1),
                    "{line}"
                );
            }
        } else {
            losses += 1;
            assert_eq!(outcome, MateOutcome::NoWin, "{line}");
        }
    }
    assert!(wins > 300 && losses > 300, "{wins} wins, {losses} losses");
}

/// Small boards of both rule sets: the mate search agrees with plain minimax on every
/// position of random games, wins and their lengths and the absence of wins.
#[test]
fn mate_search_agrees_with_minimax_on_small_boards() {
    use super::mate::{MateOutcome, prove};
    let control = Control::unlimited();
    let mut rng = Rng::new(17);
    let (mut found, mut none) = (0, 0);
    for diagonal in [DiagonalStep::Free, DiagonalStep::CaptureOnly] {
        for fen in ["pppp/pppp/4/PPPP/PPPP w", "ppppp/ppppp/5/5/PPPPP/PPPPP w"] {
            for _ in 0..10 {
                let mut pos = bt(fen, diagonal);
                loop {
                    let moves = pos.rules().legal_moves();
                    pos.play(moves[rng.below(moves.len())]);
                    if pos.rules().outcome().is_some() {
                        break;
                    }
                    let wins_in = (1..=5)
                        .step_by(2)
                        .find(|&plies| wins_within(*pos.rules(), plies))
                        .map(|plies| plies.div_ceil(2));
                    match (prove(&pos, 3, &[], &control, &mut |_| {}), wins_in) {
                        (MateOutcome::Win { moves, line }, Some(expected)) => {
                            found += 1;
                            assert_eq!(moves, expected, "{pos:?}");
                            assert!(pos.rules().check_move(line[0]).is_ok());
                        }
                        (MateOutcome::NoWin, None) => none += 1,
                        (outcome, expected) => panic!("{pos:?}: {outcome:?}, minimax {expected:?}"),
                    }
                }
            }
        }
    }
    assert!(found > 100 && none > 100, "{found} wins, {none} without");
}

/// Doorbraak: a win only an explosion gives is found; a repetition is no way to win.
#[test]
fn mate_search_in_doorbraak() {
    use super::mate::{MateOutcome, prove};
    let control = Control::unlimited();
    let win = doorbraak::Position::from_fen("4p/1Q3/1Q3/P4/5/5/5/5/5 w", ()).unwrap();
    let MateOutcome::Win { moves, line } = prove(&win, 2, &[], &control, &mut |_| {}) else {
        panic!("no win found");
    };
    assert_eq!((moves, line[0].to_string()), (1, "a6b7".to_string()));
    let start = doorbraak::Position::startpos(());
    assert_eq!(
        prove(&start, 2, &[], &control, &mut |_| {}),
        MateOutcome::NoWin
    );
}

/// A stopped mate search says how far it proved.
#[test]
fn a_stopped_mate_search_says_so() {
    use super::mate::{MateOutcome, prove};
    let control = Control::unlimited();
    control.stop();
    let pos = breakthrough::Evaluated::new(breakthrough::Position::startpos(DiagonalStep::Free));
    assert_eq!(
        prove(&pos, 5, &[], &control, &mut |_| {}),
        MateOutcome::Stopped { moves: 0 }
    );
}

/// Capture-only wins that the normal search misses at depth 2M + 1 (found by playing
/// random games and comparing): the proven search finds each at its exact length.
#[test]
fn mate_search_finds_wins_the_normal_search_misses() {
    use super::mate::{MateOutcome, prove};
    let control = Control::unlimited();
    for (fen, moves) in [
        ("5p2/1p2ppp1/p3p3/p1p1p1pp/PPp1P2p/2P2P1P/5PP1/P7 b", 4),
        ("4p3/4pppp/2pp1p1p/pppP2P1/pP2P1PP/5PPP/PPPPP3/2P5 w", 3),
        ("p3p2p/2p1pp2/p1p4p/Pp4p1/PP3PPp/4P3/3P4/2PPPPP1 b", 4),
        ("5p2/5Pp1/p2pp1p1/p1p1p1P1/2P1P2P/P1PP3P/P1P4P/8 w", 4),
    ] {
        let pos = bt(fen, DiagonalStep::CaptureOnly);
        match prove(&pos, moves, &[], &control, &mut |_| {}) {
            MateOutcome::Win { moves: found, line } => {
                assert_eq!(found, moves, "{fen}");
                assert_eq!(line.len() as u32, 2 * moves - 1, "{fen}: {line:?}");
            }
            other => panic!("{fen}: {other:?}"),
        }
        assert_eq!(
            prove(&pos, moves - 1, &[], &control, &mut |_| {}),
            MateOutcome::NoWin
        );
    }
}
