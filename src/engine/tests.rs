//! The engine facade in process: options through the table, `position`, `go` and
//! `stop`, refusals, the greedy player, and the test-only rule set end to end.

use std::sync::Mutex;
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use super::options::OptionKind;
use super::*;

/// Starts `go`; the answer arrives on the returned channel, reports are counted.
fn go(
    engine: &mut Engine,
    request: GoRequest,
) -> Result<Receiver<SearchResult<AnyMove>>, EngineError> {
    let (tx, rx) = channel();
    engine.go(
        &request,
        Box::new(|_| {}),
        Box::new(move |result| tx.send(result).unwrap()),
    )?;
    Ok(rx)
}

/// Starts `go` and returns once the search reports having run for `past` by its own
/// clock: whatever should not have happened by then has had its chance, however loaded
/// the machine. The answer arrives on the returned channel.
fn go_past(
    engine: &mut Engine,
    request: GoRequest,
    past: Duration,
) -> Receiver<SearchResult<AnyMove>> {
    let (tx, rx) = channel();
    let (info_tx, info_rx) = channel();
    engine
        .go(
            &request,
            Box::new(move |info| {
                let _ = info_tx.send(info.time);
            }),
            Box::new(move |result| tx.send(result).unwrap()),
        )
        .unwrap();
    while info_rx
        .recv_timeout(Duration::from_secs(120))
        .expect("the search reports")
        < past
    {}
    rx
}

fn depth(d: u32) -> GoRequest {
    GoRequest {
        depth: Some(d),
        ..GoRequest::default()
    }
}

fn answer(rx: &Receiver<SearchResult<AnyMove>>) -> SearchResult<AnyMove> {
    rx.recv_timeout(Duration::from_secs(10)).expect("an answer")
}

fn moves(texts: &[&str]) -> Vec<String> {
    texts.iter().map(|t| t.to_string()).collect()
}

#[test]
fn every_option_starts_at_its_declared_default() {
    let engine = Engine::new(Player::Search).unwrap();
    let s = engine.settings();
    for option in &OPTIONS {
        let current = match option.name {
            "Hash" => s.hash_mb.to_string(),
            "Threads" => s.threads.to_string(),
            "MultiPV" => s.multipv.to_string(),
            "Move Overhead" => s.move_overhead_ms.to_string(),
            "Ponder" => s.ponder.to_string(),
            "UCI_Variant" => s.variant.name().to_string(),
            "Use NNUE" => s.use_network.to_string(),
            "EvalFile" => s.eval_file.clone(),
            "Skill Level" => s.skill_level.to_string(),
            "UCI_LimitStrength" => s.limit_strength.to_string(),
            "UCI_Elo" => s.elo.to_string(),
            "Clear Hash" => continue,
            other => panic!("option {other}: say here which setting it holds"),
        };
        let default = match &option.kind {
            OptionKind::Spin { default, .. } => default.to_string(),
            OptionKind::Check { default, .. } => default.to_string(),
            OptionKind::Combo { default, .. } => default().to_string(),
            OptionKind::Text { default, .. } => default.to_string(),
            OptionKind::Button { .. } => unreachable!("no button holds a setting"),
        };
        assert_eq!(current, default, "{}", option.name);
    }
}

#[test]
fn setoption_reads_values_by_the_table_and_says_what_is_wrong() {
    let mut engine = Engine::new(Player::Search).unwrap();
    engine.set_option("hash", Some("2")).unwrap();
    engine.set_option("MULTIPV", Some(" 3 ")).unwrap();
    engine.set_option("Ponder", Some("TRUE")).unwrap();
    engine
        .set_option("uci_variant", Some("Capture-Only"))
        .unwrap();
    engine.set_option("Clear Hash", None).unwrap();
    let s = engine.settings();
    assert_eq!((s.hash_mb, s.multipv, s.ponder), (2, 3, true));
    assert_eq!(s.variant.name(), "capture-only");
    let err = |name: &str, value: Option<&str>| {
        Engine::new(Player::Search)
            .unwrap()
            .set_option(name, value)
            .unwrap_err()
    };
    assert!(matches!(
        err("Hash", Some("0")),
        OptionError::OutOfRange {
            value: 0,
            min: 1,
            ..
        }
    ));
    assert!(matches!(
        err("Hash", Some("lots")),
        OptionError::NotANumber { .. }
    ));
    assert!(matches!(
        err("Threads", None),
        OptionError::MissingValue("Threads")
    ));
    assert!(matches!(
        err("Ponder", Some("maybe")),
        OptionError::NotABool { .. }
    ));
    assert!(matches!(
        err("UCI_Variant", Some("chess")),
        OptionError::NotAChoice { .. }
    ));
    assert!(matches!(
        err("Contempt", Some("1")),
        OptionError::Unknown(_)
    ));
    assert_eq!(
        err("UCI_Variant", Some("chess")).to_string(),
        "option UCI_Variant: 'chess' is not one of breakthrough, breakthrough-4x4, \
         breakthrough-5x5, breakthrough-6x6, breakthrough-7x7, capture-only, capture-only-4x4, \
         capture-only-5x5, capture-only-6x6, capture-only-7x7, doorbraak, toy \
         (or another board as RULES-FILESxRANKS, such as breakthrough-5x7)"
    );
}

#[test]
fn position_go_and_the_answer() {
    let mut engine = Engine::new(Player::Search).unwrap();
    engine
        .set_position(&StartingPoint::StartPos, &moves(&["a2a3", "h7h6"]))
        .unwrap();
    let (tx, rx) = channel();
    let (info_tx, info_rx) = channel();
    engine
        .go(
            &depth(4),
            Box::new(move |info| info_tx.send(info.depth).unwrap()),
            Box::new(move |result| tx.send(result).unwrap()),
        )
        .unwrap();
    let result = answer(&rx);
    let best = result.best.unwrap();
    let pos = engine.position().unwrap().clone();
    assert!(pos.check_move(best).is_ok(), "{best}");
    assert_eq!(info_rx.try_iter().collect::<Vec<_>>(), [1, 2, 3, 4]);
    assert_eq!(result.depth, 4);
    assert!(rx.try_recv().is_err(), "one answer only");
}

#[test]
fn stop_ends_an_infinite_search_with_one_answer() {
    let mut engine = Engine::new(Player::Search).unwrap();
    let infinite = GoRequest {
        infinite: true,
        ..GoRequest::default()
    };
    let rx = go_past(&mut engine, infinite, Duration::from_millis(100));
    assert!(rx.try_recv().is_err(), "an infinite search waits for stop");
    engine.stop();
    assert!(answer(&rx).best.is_some());
    engine.stop();
    assert!(rx.try_recv().is_err(), "one answer only");
    // `ponderhit` turns a pondering search into one that ends by itself: until then it
    // goes on past its movetime.
    let pondering = GoRequest {
        ponder: true,
        movetime: Some(50),
        ..GoRequest::default()
    };
    let rx = go_past(&mut engine, pondering, Duration::from_millis(100));
    assert!(rx.try_recv().is_err(), "pondering waits for ponderhit");
    engine.ponderhit();
    assert!(answer(&rx).best.is_some());
}

#[test]
fn a_finished_game_answers_a_ponder_or_infinite_search_only_when_asked() {
    // White's pawn stands on the last rank: Black, to move, has lost. uci2wb reads an
    // early answer as "Engine moves during ponder", a UCI violation.
    let mut engine = Engine::new(Player::Search).unwrap();
    engine
        .set_position(
            &StartingPoint::Fen("P7/8/8/8/8/8/p7/8 b - - 0 1".into()),
            &[],
        )
        .unwrap();
    let pondering = GoRequest {
        ponder: true,
        ..GoRequest::default()
    };
    let infinite = GoRequest {
        infinite: true,
        ..GoRequest::default()
    };
    let release: [fn(&mut Engine); 2] = [|e| e.ponderhit(), |e| e.stop()];
    for (request, release) in [pondering, infinite].into_iter().zip(release) {
        let rx = go(&mut engine, request.clone()).unwrap();
        std::thread::sleep(Duration::from_millis(100));
        assert!(rx.try_recv().is_err(), "{request:?} waits to be released");
        release(&mut engine);
        assert_eq!(answer(&rx).best, None);
    }
}

#[test]
fn a_refused_position_refuses_go_until_a_good_one() {
    let mut engine = Engine::new(Player::Search).unwrap();
    let refused = engine.set_position(&StartingPoint::StartPos, &moves(&["a2a3", "a2a4"]));
    assert!(matches!(
        refused.as_ref().map_err(|e| &**e),
        Err(PositionError::Move { number: 2, .. })
    ));
    assert!(matches!(
        go(&mut engine, depth(2)),
        Err(EngineError::NoPosition(_))
    ));
    assert!(engine.position().is_err());
    let bad_fen = engine.set_position(&StartingPoint::Fen("8/8/8 w".into()), &[]);
    assert!(matches!(
        bad_fen.as_ref().map_err(|e| &**e),
        Err(PositionError::Fen(_))
    ));
    engine.set_position(&StartingPoint::StartPos, &[]).unwrap();
    let rx = go(&mut engine, depth(2)).unwrap();
    assert!(answer(&rx).best.is_some());
    let illegal = GoRequest {
        searchmoves: moves(&["a2a4"]),
        ..depth(2)
    };
    assert!(matches!(
        go(&mut engine, illegal),
        Err(EngineError::SearchMove(_))
    ));
    let only = GoRequest {
        searchmoves: moves(&["h2h3"]),
        ..depth(3)
    };
    let rx = go(&mut engine, only).unwrap();
    assert_eq!(answer(&rx).best.unwrap().to_string(), "h2h3");
}

#[test]
fn a_finished_game_is_answered_without_a_move() {
    let mut engine = Engine::new(Player::Search).unwrap();
    let fen = StartingPoint::Fen("8/8/8/8/8/8/8/p7 w".into());
    engine.set_position(&fen, &[]).unwrap();
    let result = answer(&go(&mut engine, depth(5)).unwrap());
    assert_eq!(result.best, None);
    assert_eq!(
        crate::search::Score::from_internal(result.score),
        crate::search::Score::Mate(0)
    );
}

#[test]
fn the_greedy_player_answers_at_once() {
    let mut engine = Engine::new(Player::Greedy).unwrap();
    engine.set_option("UCI_Variant", Some("doorbraak")).unwrap();
    let fen = StartingPoint::Fen("4p/1Q3/1Q3/P4/5/5/5/5/5 w".into());
    engine.set_position(&fen, &[]).unwrap();
    let rx = go(
        &mut engine,
        GoRequest {
            infinite: true,
            ..GoRequest::default()
        },
    )
    .unwrap();
    assert_eq!(answer(&rx).best.unwrap().to_string(), "a6b7");
}

/// The rule set registered for tests only goes through the facade like the others:
/// chosen by name, set up from its FEN, moves read and refused, searched.
#[test]
fn the_test_rule_set_through_the_facade() {
    let mut engine = Engine::new(Player::Search).unwrap();
    engine.set_option("UCI_Variant", Some("toy")).unwrap();
    assert_eq!(engine.position().unwrap().to_fen(), "10 w");
    engine
        .set_position(&StartingPoint::Fen("9 w".into()), &moves(&["2", "1"]))
        .unwrap();
    assert_eq!(engine.position().unwrap().to_fen(), "6 w");
    let refused = engine.set_position(&StartingPoint::Fen("1 w".into()), &moves(&["2"]));
    assert_eq!(
        refused.unwrap_err().to_string(),
        "move 1 (2) refused: only 1 stones are left"
    );
    engine
        .set_position(&StartingPoint::Fen("7 b".into()), &[])
        .unwrap();
    let result = answer(&go(&mut engine, depth(12)).unwrap());
    assert_eq!(result.best.unwrap().to_string(), "1");
}

/// `EvalFile` loads a network file (refusing a broken one and keeping the one in use),
/// `<built-in>` goes back, `Use NNUE false` evaluates by hand, and a network for another
/// rule set is not used for this one.
#[test]
fn the_evaluation_options_choose_the_evaluation() {
    use crate::rulesets::nnue::tests::random_network;
    let scratch = crate::util::scratch::Scratch::new("evalfile");
    let good = scratch.path("good.nnue");
    let net = random_network(11, 128);
    std::fs::write(&good, net.to_bytes()).unwrap();
    let broken = scratch.path("broken.nnue");
    std::fs::write(&broken, &net.to_bytes()[..100]).unwrap();
    let good = good.to_str().unwrap();

    let mut engine = Engine::new(Player::Search).unwrap();
    let built_in = engine.evaluated_position().unwrap().network();
    engine.set_option("EvalFile", Some(good)).unwrap();
    let pos = engine.evaluated_position().unwrap();
    assert_eq!(pos.network().map(|n| n.to_bytes()), Some(net.to_bytes()));
    assert_eq!(engine.settings().eval_file, good);

    let e = engine.set_option("EvalFile", Some(broken.to_str().unwrap()));
    assert!(matches!(e, Err(OptionError::EvalFile(_))), "{e:?}");
    let missing = engine.set_option("EvalFile", Some("/no/such/file.nnue"));
    assert!(missing.unwrap_err().to_string().contains("cannot read"));
    assert_eq!(
        engine.settings().eval_file,
        good,
        "a refused file changes nothing"
    );

    engine.set_option("Use NNUE", Some("false")).unwrap();
    assert!(engine.evaluated_position().unwrap().network().is_none());
    engine.set_option("Use NNUE", Some("true")).unwrap();

    // The random network is for standard rules; capture-only keeps its own.
    engine
        .set_option("UCI_Variant", Some("capture-only"))
        .unwrap();
    let other = engine.evaluated_position().unwrap();
    let own = AnyPosition::startpos(other.variant()).network();
    assert_eq!(other.network().map(|n| n.digest()), own.map(|n| n.digest()));

    engine
        .set_option("UCI_Variant", Some("breakthrough"))
        .unwrap();
    engine.set_option("EvalFile", Some("<built-in>")).unwrap();
    let back = engine.evaluated_position().unwrap().network();
    assert_eq!(back.map(|n| n.digest()), built_in.map(|n| n.digest()));
    assert_eq!(engine.settings().eval_file, BUILT_IN);
}

/// Whether the side to move in `pos` can force a win within `plies` plies (plain
/// exhaustive search, remembered by position and plies).
fn wins_within(
    pos: &AnyPosition,
    plies: u32,
    memo: &mut std::collections::HashMap<(u64, u32), bool>,
) -> bool {
    if plies == 0 || pos.outcome().is_some() {
        return false;
    }
    if let Some(&known) = memo.get(&(pos.hash(), plies)) {
        return known;
    }
    let win = pos.legal_moves().into_iter().any(|m| {
        let child = pos.child(m);
        match child.outcome() {
            Some(o) => o.winner == Some(pos.side_to_move()),
            // Every reply must leave a win within what is left.
            None => {
                plies >= 3
                    && child
                        .legal_moves()
                        .into_iter()
                        .all(|r| wins_within(&child.child(r), plies - 2, memo))
            }
        }
    });
    memo.insert((pos.hash(), plies), win);
    win
}

/// On a small board `go` plays a winning move where there is one (by the solver run on
/// its own) and says it mates; a lost position is left to the search, which still
/// answers. (The mate bound's truth: `the_solver_proves_before_the_search`.)
#[test]
fn go_plays_proven_wins_on_small_boards() {
    use crate::search::Score;
    use crate::solve::SolveSettings;
    use std::sync::atomic::AtomicBool;
    use std::sync::{Arc, Mutex};

    let options = SolveSettings::small();
    let winner_of = |pos: &AnyPosition| {
        let provable = pos.provable().expect("a position the solver proves");
        provable
            .solve(&options, &AtomicBool::new(false))
            .unwrap()
            .winner
    };
    for variant in ["breakthrough", "capture-only"] {
        let mut engine = Engine::new(Player::Search).unwrap();
        engine.set_option("UCI_Variant", Some(variant)).unwrap();
        let start = AnyPosition::start_on_board(variant.parse().unwrap(), 4, 5).unwrap();
        // The start, and the position after its first move: one of them is won for the
        // side to move, the other lost.
        let first = start.legal_moves()[0];
        for (pos, history) in [
            (start.clone(), vec![]),
            (start.child(first), vec![first.to_string()]),
        ] {
            let wins = winner_of(&pos) == Some(pos.side_to_move());
            engine
                .set_position(&StartingPoint::Fen(start.to_fen()), &history)
                .unwrap();
            let scores = Arc::new(Mutex::new(Vec::new()));
            let seen = scores.clone();
            let (tx, rx) = channel();
            let request = GoRequest {
                // The solver gets a quarter: 2 s, against 0.1 s needed on an idle machine
                // (the test suite runs beside it). A proof is answered at once.
                movetime: Some(8000),
                ..GoRequest::default()
            };
            engine
                .go(
                    &request,
                    Box::new(move |info| seen.lock().unwrap().push(info.score)),
                    Box::new(move |result| tx.send(result).unwrap()),
                )
                .unwrap();
            let result = answer(&rx);
            let best = result.best.expect("a move");
            let m = pos.parse_move(&best.to_string()).unwrap();
            let last = *scores.lock().unwrap().last().expect("a report");
            if wins {
                assert_eq!(
                    winner_of(&pos.child(m)),
                    Some(pos.side_to_move()),
                    "{variant}"
                );
                let Score::Mate(n) = last else {
                    panic!("{variant}: a proven win reported as {last:?}");
                };
                assert!(n >= 1, "{variant}: mate {n}");
            } else if let Score::Mate(n) = last {
                assert!(n < 0, "{variant}: a lost position reported as mate {n}");
            }
        }
    }
}

/// The solver's part of `go` by itself: a won position gives the answer with its mate
/// bound, the next move of the game is proven from the table kept, a lost one gives
/// nothing, past the move's deadline the proven move comes without a length, and a
/// stopped one gives nothing.
#[test]
fn the_solver_proves_before_the_search() {
    use super::solver::{Proven, SolverTry, prove};
    use crate::search::{Control, Score};

    let start = AnyPosition::start_on_board(Variant::default(), 5, 4).unwrap();
    let table = Arc::new(crate::solve::Table::new(16).unwrap());
    let attempt = |position: &AnyPosition| SolverTry {
        table: table.clone(),
        position: position.provable().unwrap(),
        budget: Duration::from_secs(20),
        deadline: None,
        threads: 1,
    };
    let control = Control::unlimited();
    let scores = Mutex::new(Vec::new());
    let report = |info: &Info<AnyMove>| scores.lock().unwrap().push((info.score, info.nodes));
    // 5x4: the side to move loses at the start (engine.md, "Results"), so after any move it
    // wins.
    let won = start.child(start.legal_moves()[0]);
    let Proven::Win(result) = prove(&won, &attempt(&won), &control, &report) else {
        panic!("no proof of a won 5x4 position");
    };
    let (score, nodes) = scores.lock().unwrap()[0];
    let Score::Mate(n) = score else {
        panic!("{score:?}")
    };
    let mut memo = std::collections::HashMap::new();
    assert!(wins_within(&won, 2 * n as u32 - 1, &mut memo), "mate {n}");
    assert!(!wins_within(&won, 1, &mut memo));
    // The reply and the winner's next move: proven from the table at once.
    let m = result.best.unwrap();
    let reply = won.child(m).legal_moves()[0];
    let next = won.child(m).child(reply);
    assert!(matches!(
        prove(&next, &attempt(&next), &control, &report),
        Proven::Win(_)
    ));
    let (_, nodes_next) = scores.lock().unwrap()[1];
    assert!(
        nodes_next * 100 < nodes,
        "{nodes_next} nodes again after {nodes}"
    );
    assert!(matches!(
        prove(&start, &attempt(&start), &control, &report),
        Proven::Nothing
    ));
    // The move's deadline already past: the win is proven, its length not measured, so
    // the proven move goes to the search.
    let late = SolverTry {
        deadline: Some(std::time::Instant::now()),
        ..attempt(&won)
    };
    match prove(&won, &late, &control, &report) {
        Proven::WinningMove(m) => assert_eq!(Some(m), result.best),
        _ => panic!("a proven win without a measured length"),
    }
    // Stopped before it starts: nothing.
    let fresh = SolverTry {
        table: Arc::new(crate::solve::Table::new(16).unwrap()),
        ..attempt(&won)
    };
    control.stop();
    assert!(matches!(
        prove(&won, &fresh, &control, &report),
        Proven::Nothing
    ));
}

#[test]
fn weakened_levels_search_little_and_still_take_a_win_in_one() {
    let mut engine = Engine::new(Player::Search).unwrap();
    let movetime = GoRequest {
        movetime: Some(5000),
        ..GoRequest::default()
    };
    // Level 3: at most 100 * 1.65^3 = 449 nodes (a node or two past the check), a legal move.
    engine.set_option("Skill Level", Some("3")).unwrap();
    engine.set_position(&StartingPoint::StartPos, &[]).unwrap();
    let result = answer(&go(&mut engine, movetime.clone()).unwrap());
    assert!(result.nodes <= 449 + 64, "{} nodes", result.nodes);
    let start = engine.position().unwrap().clone();
    assert!(start.check_move(result.best.unwrap()).is_ok());
    // The level draws among lines: over several positions it does not always play what
    // full strength at the same nodes plays.
    let mut differ = 0;
    for first in [
        "a2a3", "b2b3", "c2c3", "d2d3", "e2e3", "f2f3", "g2g3", "h2h3",
    ] {
        engine.set_option("Skill Level", Some("0")).unwrap();
        engine
            .set_position(&StartingPoint::StartPos, &moves(&[first]))
            .unwrap();
        let weak = answer(&go(&mut engine, movetime.clone()).unwrap()).best;
        engine.set_option("Skill Level", Some("20")).unwrap();
        let strong = answer(
            &go(
                &mut engine,
                GoRequest {
                    nodes: Some(100),
                    ..GoRequest::default()
                },
            )
            .unwrap(),
        )
        .best;
        differ += usize::from(weak != strong);
    }
    assert!(differ > 0, "level 0 always played the best move");
    // From level 5 a win in one is played, in both rule sets, and by Elo too.
    for variant in ["breakthrough", "capture-only"] {
        engine.set_option("UCI_Variant", Some(variant)).unwrap();
        engine
            .set_option("UCI_LimitStrength", Some("true"))
            .unwrap();
        let elo = (strength::ELO_OF_LEVEL[5] + 1.0) as u64;
        engine
            .set_option("UCI_Elo", Some(&elo.to_string()))
            .unwrap();
        for seed_position in 0..4 {
            // White's b7 steps to b8; the other pawns give the draw something to choose.
            let fen = [
                "8/1P6/8/8/8/8/PPPP2p1/8 w",
                "8/1P6/8/8/8/8/1PPPP1p1/8 w",
                "8/1P6/8/8/8/P7/2PP2p1/8 w",
                "8/1P6/8/8/8/8/P1P1P1p1/8 w",
            ][seed_position];
            engine
                .set_position(&StartingPoint::Fen(fen.into()), &[])
                .unwrap();
            let m = answer(&go(&mut engine, movetime.clone()).unwrap())
                .best
                .unwrap();
            let text = m.to_string();
            assert!(
                text.starts_with("b7") && text.ends_with('8'),
                "{variant} {fen}: {text}"
            );
        }
        engine
            .set_option("UCI_LimitStrength", Some("false"))
            .unwrap();
    }
}

/// The next search of a game starts from what the last one learned, and `ucinewgame`
/// forgets it: the same search after it repeats the first node for node, while the
/// same search with only the table emptied does not.
#[test]
fn ucinewgame_forgets_what_the_last_search_learned() {
    let mut engine = Engine::new(Player::Search).unwrap();
    let nodes = |engine: &mut Engine| answer(&go(engine, depth(8)).unwrap()).nodes;
    let first = nodes(&mut engine);
    engine.tt.clear();
    let remembered = nodes(&mut engine);
    engine.new_game();
    let forgotten = nodes(&mut engine);
    assert_eq!(forgotten, first);
    assert_ne!(remembered, first);
}
