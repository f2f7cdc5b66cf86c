//! The engine facade in process: options through the table, `position`, `go` and
//! `stop`, refusals, the greedy player, and the test-only rule set end to end.

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
        "option UCI_Variant: 'chess' is not one of breakthrough, capture-only, doorbraak, toy"
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
    let rx = go(
        &mut engine,
        GoRequest {
            infinite: true,
            ..GoRequest::default()
        },
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(100));
    assert!(rx.try_recv().is_err(), "an infinite search waits for stop");
    engine.stop();
    assert!(answer(&rx).best.is_some());
    engine.stop();
    assert!(rx.try_recv().is_err(), "one answer only");
    // `ponderhit` turns a pondering search into one that ends by itself.
    let rx = go(
        &mut engine,
        GoRequest {
            ponder: true,
            movetime: Some(50),
            ..GoRequest::default()
        },
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(100));
    assert!(rx.try_recv().is_err(), "pondering waits for ponderhit");
    engine.ponderhit();
    assert!(answer(&rx).best.is_some());
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
    let dir = std::env::temp_dir().join(format!("bt-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.nnue");
    let net = random_network(11, 128);
    std::fs::write(&good, net.to_bytes()).unwrap();
    let broken = dir.join("broken.nnue");
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
    let _ = std::fs::remove_dir_all(&dir);
}
