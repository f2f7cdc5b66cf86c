//! Rules: hashing, FEN, move checking and game results.

mod common;

use breakthrough::rulesets::breakthrough::{
    Color, DiagonalStep, EndReason, FenError, Move, MoveError, Position, START_FEN, Square,
};
use breakthrough::rulesets::{Rules, SearchRules};

#[test]
fn incremental_hash_equals_hash_from_scratch_along_random_games() {
    let positions = common::random_positions(11, 3);
    assert!(positions.len() > 1000);
    for pos in &positions {
        assert_eq!(pos.hash(), pos.hash_from_scratch(), "{pos:?}");
    }
}

#[test]
fn hash_tells_apart_side_to_move_and_board_size() {
    let white = Position::from_fen("ppppp/5/5/5/PPPPP w", DiagonalStep::Free).unwrap();
    let black = Position::from_fen("ppppp/5/5/5/PPPPP b", DiagonalStep::Free).unwrap();
    let taller = Position::from_fen("ppppp/5/5/5/5/PPPPP w", DiagonalStep::Free).unwrap();
    assert_ne!(white.hash(), black.hash());
    // Same bit pattern for White's pawns would differ anyway; the size key separates boards.
    let narrow = Position::from_fen("pppp/4/4/4/PPPP w", DiagonalStep::Free).unwrap();
    let wide = Position::from_fen("pppp1/5/5/5/PPPP1 w", DiagonalStep::Free).unwrap();
    assert_ne!(narrow.hash(), wide.hash());
    assert_ne!(white.hash(), taller.hash());
}

#[test]
fn a_mirrored_position_has_the_mirrored_moves_and_result() {
    // Every board size and both rule sets, along random games.
    for pos in common::random_positions(13, 2) {
        let image = pos.mirrored();
        let files = pos.files();
        assert_eq!(image.mirrored(), pos);
        assert_eq!(pos.is_symmetric(), image == pos, "{pos:?}");
        assert_eq!(image.hash(), image.hash_from_scratch());
        let mut mirrored: Vec<u16> = pos
            .legal_moves()
            .iter()
            .map(|m| m.mirrored(files).to_bits())
            .collect();
        let mut moves: Vec<u16> = image.legal_moves().iter().map(|m| m.to_bits()).collect();
        mirrored.sort_unstable();
        moves.sort_unstable();
        assert_eq!(moves, mirrored, "{pos:?}");
        assert_eq!(image.outcome(), pos.outcome(), "{pos:?}");
        assert_eq!(
            image.winning_move().is_some(),
            pos.winning_move().is_some(),
            "{pos:?}"
        );
    }
}

#[test]
fn start_positions_are_symmetric() {
    for pos in common::all_starts() {
        assert!(pos.is_symmetric(), "{pos:?}");
        let m = pos.legal_moves()[0];
        assert!(!pos.child(m).is_symmetric(), "{pos:?} {m}");
    }
}

#[test]
fn attacked_squares_are_where_captures_land() {
    // Positions in play: a finished game has no moves.
    for pos in common::random_positions(17, 2)
        .into_iter()
        .filter(|p| p.outcome().is_none())
    {
        let us = pos.side_to_move();
        let captured = pos
            .legal_moves()
            .iter()
            .filter(|&&m| pos.is_capture(m))
            .fold(0u64, |bb, m| bb | m.to().bit());
        assert_eq!(
            pos.attacks(us) & pos.pawns(us.opponent()),
            captured,
            "{pos:?}"
        );
        assert_eq!(pos.attacks(us) & !pos.geometry().board, 0, "{pos:?}");
    }
}

#[test]
fn fen_round_trip_on_random_positions() {
    for pos in common::random_positions(5, 2) {
        let fen = pos.to_fen();
        let back = Position::from_fen(&fen, pos.diagonal_step()).unwrap();
        assert_eq!(back, pos, "{fen}");
        assert_eq!(back.hash(), pos.hash());
        assert_eq!(back.to_fen(), fen);
    }
}

#[test]
fn fen_with_or_without_trailing_fields() {
    let short = Position::from_fen(
        "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w",
        DiagonalStep::Free,
    )
    .unwrap();
    assert_eq!(short, Position::startpos(DiagonalStep::Free));
    assert_eq!(short.to_fen(), START_FEN);
    let with_clocks = Position::from_fen(
        "ppppp/ppppp/5/PPPPP/PPPPP b - - 12 40",
        DiagonalStep::CaptureOnly,
    )
    .unwrap();
    assert_eq!(with_clocks.to_fen(), "ppppp/ppppp/5/PPPPP/PPPPP b - - 0 1");
    assert_eq!(with_clocks.side_to_move(), Color::Black);
    assert_eq!((with_clocks.files(), with_clocks.ranks()), (5, 5));
}

fn fen_error(fen: &str) -> FenError {
    Position::from_fen(fen, DiagonalStep::Free).expect_err(fen)
}

#[test]
fn fen_error_empty() {
    assert_eq!(fen_error(""), FenError::Empty);
    assert_eq!(fen_error("   "), FenError::Empty);
}

#[test]
fn fen_error_unknown_character() {
    assert_eq!(
        fen_error("ppppp/ppxpp/5/PPPPP/PPPPP w"),
        FenError::UnknownCharacter {
            ch: 'x',
            rank: 4,
            column: 3
        }
    );
    assert!(matches!(
        fen_error("ppppp/ppppp/5/PPPPP/PPPPé w"),
        FenError::UnknownCharacter { ch: 'é', .. }
    ));
}

#[test]
fn fen_error_bad_empty_count() {
    assert_eq!(
        fen_error("ppppp/ppppp/05/PPPPP/PPPPP w"),
        FenError::BadEmptyCount { rank: 3, column: 1 }
    );
    assert_eq!(
        fen_error("8/8/8/8/8/8/8/44 w"),
        FenError::BadEmptyCount { rank: 1, column: 2 }
    );
}

#[test]
fn fen_error_empty_rank() {
    assert_eq!(
        fen_error("ppppp//5/PPPPP/PPPPP w"),
        FenError::EmptyRank { rank: 4 }
    );
}

#[test]
fn fen_error_rank_too_long() {
    assert_eq!(
        fen_error("ppppp/pppppp/5/PPPPP/PPPPP w"),
        FenError::RankTooLong {
            rank: 4,
            squares: 6,
            expected: 5
        }
    );
}

#[test]
fn fen_error_rank_too_short() {
    assert_eq!(
        fen_error("ppppp/ppppp/5/PPPPP/PPP w"),
        FenError::RankTooShort {
            rank: 1,
            squares: 3,
            expected: 5
        }
    );
}

#[test]
fn fen_error_too_many_ranks() {
    assert_eq!(
        fen_error("8/8/8/8/8/8/8/8/8 w"),
        FenError::TooManyRanks { found: 9 }
    );
}

#[test]
fn fen_error_too_few_ranks() {
    assert_eq!(fen_error("ppp/3/PPP w"), FenError::TooFewRanks { found: 3 });
}

#[test]
fn fen_error_size_out_of_range() {
    assert_eq!(
        fen_error("pp/2/2/PP w"),
        FenError::FilesOutOfRange { files: 2 }
    );
    assert_eq!(
        fen_error("ppppppppp/9/9/PPPPPPPPP w"),
        FenError::FilesOutOfRange { files: 9 }
    );
    // A huge rank is rejected before it is built.
    let long = format!("{}/8/8/8 w", "p".repeat(100_000));
    assert_eq!(fen_error(&long), FenError::FilesOutOfRange { files: 9 });
}

#[test]
fn fen_error_missing_side_to_move() {
    assert_eq!(
        fen_error("ppppp/ppppp/5/PPPPP/PPPPP"),
        FenError::MissingSideToMove
    );
}

#[test]
fn fen_error_bad_side_to_move() {
    assert_eq!(
        fen_error("ppppp/ppppp/5/PPPPP/PPPPP x"),
        FenError::BadSideToMove { found: "x".into() }
    );
    assert_eq!(
        fen_error("ppppp/ppppp/5/PPPPP/PPPPP W"),
        FenError::BadSideToMove { found: "W".into() }
    );
}

#[test]
fn fen_error_bad_trailing_field() {
    assert_eq!(
        fen_error("ppppp/ppppp/5/PPPPP/PPPPP w KQ - 0 1"),
        FenError::BadField {
            index: 3,
            found: "KQ".into()
        }
    );
    assert_eq!(
        fen_error("ppppp/ppppp/5/PPPPP/PPPPP w - - x 1"),
        FenError::BadField {
            index: 5,
            found: "x".into()
        }
    );
}

/// XBoard and Fairy-Stockfish's CECP side write `w 0 1`: clocks without castling and
/// en passant. It reads as the same position; a third clock is still an error.
#[test]
fn fen_reads_xboards_clocks_only_form() {
    let read = |fen| Position::from_fen(fen, DiagonalStep::Free).unwrap();
    let long = read("pppppp/pppppp/6/6/PPPPPP/PPPPPP b - - 0 1");
    let short = read("pppppp/pppppp/6/6/PPPPPP/PPPPPP b 0 1");
    assert_eq!(long, short);
    assert_eq!(short.side_to_move(), Color::Black);
    assert_eq!(
        fen_error("ppppp/ppppp/5/PPPPP/PPPPP w 0 1 2"),
        FenError::BadField {
            index: 5,
            found: "2".into()
        }
    );
    assert_eq!(
        fen_error("ppppp/ppppp/5/PPPPP/PPPPP w 0 -"),
        FenError::BadField {
            index: 4,
            found: "-".into()
        }
    );
}

#[test]
fn fen_error_too_many_fields() {
    assert_eq!(
        fen_error("ppppp/ppppp/5/PPPPP/PPPPP w - - 0 1 extra"),
        FenError::TooManyFields { found: 7 }
    );
}

#[test]
fn fen_errors_display_one_line_naming_the_place() {
    let message = fen_error("ppppp/ppxpp/5/PPPPP/PPPPP w").to_string();
    assert!(message.contains("'x'") && message.contains("rank 4") && message.contains("column 3"));
    assert!(!message.contains('\n'));
}

#[test]
fn fen_parser_never_panics_on_mangled_input() {
    let mut rng = common::Rng::new(99);
    let alphabet: Vec<char> = "pP012345678/ wb-x\u{e9}\t".chars().collect();
    for _ in 0..20_000 {
        let len = rng.below(40);
        let text: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        if let Ok(pos) = Position::from_fen(&text, DiagonalStep::CaptureOnly) {
            // Whatever parses must write back and re-read to the same position.
            assert_eq!(
                Position::from_fen(&pos.to_fen(), DiagonalStep::CaptureOnly).unwrap(),
                pos
            );
        }
    }
}

/// Every from/to pair on the 8-wide layout: try_play accepts exactly the generated
/// moves, and then leaves the same position as the unchecked path.
#[test]
fn try_play_and_unchecked_agree() {
    for pos in common::random_positions(3, 1).iter().step_by(3) {
        let legal = pos.legal_moves();
        for from in 0..64u8 {
            for to in 0..64u8 {
                if from == to {
                    continue;
                }
                let m = Move::new(Square::from_index(from), Square::from_index(to));
                let mut tried = *pos;
                let result = tried.try_play(m);
                assert_eq!(
                    result.is_ok(),
                    legal.contains(&m),
                    "{pos:?} {m}: {result:?}"
                );
                if result.is_ok() {
                    assert_eq!(tried, pos.child(m));
                    assert_eq!(tried.hash(), pos.child(m).hash());
                } else {
                    assert_eq!(tried, *pos, "a refused move must not change the position");
                }
            }
        }
    }
}

#[test]
fn move_errors_say_why() {
    let std = Position::from_fen("ppppp/ppppp/5/PPPPP/PPPPP w", DiagonalStep::Free).unwrap();
    let cap = Position::from_fen("ppppp/ppppp/5/PPPPP/PPPPP w", DiagonalStep::CaptureOnly).unwrap();
    let err = |pos: &Position, text: &str| pos.parse_move(text).expect_err(text);
    assert_eq!(err(&std, "a2"), MoveError::Syntax("a2".into()));
    assert_eq!(err(&std, "a2a2"), MoveError::Syntax("a2a2".into()));
    assert_eq!(err(&std, "i2i3"), MoveError::Syntax("i2i3".into()));
    assert_eq!(err(&std, "0000"), MoveError::Syntax("0000".into()));
    assert!(matches!(err(&std, "a2f3"), MoveError::OffBoard(s) if s.to_string() == "f3"));
    assert!(matches!(err(&std, "a3a4"), MoveError::NoPawn(_)));
    assert!(matches!(err(&std, "a4a3"), MoveError::NotYourPawn(_)));
    assert!(matches!(err(&std, "a2a4"), MoveError::NotAForwardStep(_)));
    assert!(matches!(err(&std, "a2c3"), MoveError::NotAForwardStep(_)));
    assert!(matches!(err(&std, "a1a2"), MoveError::Blocked(_)));
    assert!(matches!(err(&std, "a1b2"), MoveError::OwnPawn(_)));
    assert!(std.parse_move("a2b3").is_ok());
    assert!(matches!(
        err(&cap, "a2b3"),
        MoveError::DiagonalWithoutCapture(_)
    ));
    assert!(cap.parse_move("a2a3").is_ok());
    let over = Position::from_fen("P4/5/5/5/p4 b", DiagonalStep::Free).unwrap();
    assert_eq!(err(&over, "a1a2"), MoveError::GameOver);
    assert!(!MoveError::GameOver.to_string().is_empty());
}

#[test]
fn outcomes_follow_the_rules() {
    let outcome = |fen: &str, variant| Position::from_fen(fen, variant).unwrap().outcome();
    // Black just reached rank 1.
    let o = outcome("5/5/5/1p3/p3P w", DiagonalStep::Free).unwrap();
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::Black), EndReason::GoalReached)
    );
    // White has no pawns.
    let o = outcome("5/1p3/5/5/5 w", DiagonalStep::Free).unwrap();
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::Black), EndReason::NoPieces)
    );
    // White's only pawn is blocked head-on: a move in standard rules, none in capture-only.
    assert!(outcome("5/5/p4/P4/5 w", DiagonalStep::Free).is_none());
    let o = outcome("5/5/p4/P4/5 w", DiagonalStep::CaptureOnly).unwrap();
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::Black), EndReason::NoMoves)
    );
    assert!(
        Position::startpos(DiagonalStep::CaptureOnly)
            .outcome()
            .is_none()
    );
    // A capture of the last pawn wins.
    let mut pos = Position::from_fen("5/5/1p3/P4/5 w", DiagonalStep::CaptureOnly).unwrap();
    pos.try_play(pos.parse_move("a2b3").unwrap()).unwrap();
    let o = pos.outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::White), EndReason::NoPieces)
    );
}

#[test]
fn outcome_and_move_generation_agree_on_random_games() {
    for pos in common::random_positions(21, 2) {
        assert_eq!(
            pos.outcome().is_some(),
            pos.legal_moves().is_empty(),
            "{pos:?}"
        );
        if let Some(o) = pos.outcome() {
            assert_eq!(o.winner, Some(pos.side_to_move().opponent()), "{pos:?}");
        }
        assert_eq!(pos.count_legal_moves(), pos.legal_moves().len() as u64);
    }
}

#[test]
fn captures_first_is_a_stable_partition_of_the_legal_moves() {
    for pos in common::random_positions(23, 2) {
        let mut sorted = pos.legal_moves().to_vec();
        sorted.sort_by_key(|&m| !pos.is_capture(m));
        assert_eq!(pos.legal_moves_captures_first().to_vec(), sorted, "{pos:?}");
    }
}

#[test]
fn tactical_moves_are_the_captures_in_legal_order() {
    let mut captures_seen = 0;
    for pos in common::random_positions(29, 2) {
        let captures: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| pos.is_capture(m))
            .collect();
        let (moves, count) = pos.tactical_moves_first();
        assert_eq!(moves[..count].to_vec(), captures, "{pos:?}");
        captures_seen += count;
    }
    assert!(
        captures_seen > 100,
        "too few captures to test: {captures_seen}"
    );
}

#[test]
fn variant_names_parse() {
    use breakthrough::registry::Variant;
    let names: Vec<&str> = Variant::all().map(Variant::name).collect();
    assert_eq!(names, ["breakthrough", "capture-only", "doorbraak"]);
    assert_eq!(
        "Capture-Only".parse::<Variant>().unwrap().name(),
        "capture-only"
    );
    assert_eq!(Variant::default().name(), "breakthrough");
    let err = "chess".parse::<Variant>().unwrap_err().to_string();
    assert_eq!(
        err,
        "unknown variant 'chess' (expected breakthrough, capture-only or doorbraak)"
    );
}

/// True if the side to move can force a win within `plies` (exhaustive).
fn wins_within(pos: &Position, plies: u32) -> bool {
    if plies == 0 {
        return false;
    }
    pos.legal_moves().iter().any(|&m| {
        let child = pos.child(m);
        child
            .outcome()
            .is_some_and(|o| o.winner == Some(pos.side_to_move()))
            || (plies >= 3 && loses_within(&child, plies - 1))
    })
}

/// True if every move of the side to move lets the opponent win within `plies` more plies.
fn loses_within(pos: &Position, plies: u32) -> bool {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return pos
            .outcome()
            .is_some_and(|o| o.winner != Some(pos.side_to_move()));
    }
    moves.iter().all(|&m| wins_within(&pos.child(m), plies - 1))
}

#[test]
fn win_in_two_is_a_forced_win_in_three_plies() {
    let mut found = 0;
    for pos in common::random_positions(17, 3) {
        if let Some(m) = pos.win_in_two() {
            found += 1;
            assert!(pos.winning_move().is_none(), "{pos:?}");
            let child = pos.child(m);
            assert!(
                loses_within(&child, 2),
                "{pos:?}: {m} does not force the win"
            );
        }
        if pos.diagonal_step() == DiagonalStep::CaptureOnly {
            assert!(pos.win_in_two().is_none());
        }
    }
    assert!(found > 20, "only {found} positions exercised");
}

#[test]
fn moves_made_at_least_bounds_the_moves_of_random_games() {
    let mut rng = common::Rng::new(12345);
    for variant in [DiagonalStep::Free, DiagonalStep::CaptureOnly] {
        for _ in 0..50 {
            let mut pos = Position::startpos(variant);
            let mut made = [0u64; 2];
            let mut captured = false;
            loop {
                let moves = pos.legal_moves();
                if moves.as_slice().is_empty() {
                    break;
                }
                let m = moves.as_slice()[rng.below(moves.as_slice().len())];
                captured |= pos.is_capture(m);
                made[pos.side_to_move().index()] += 1;
                pos.try_play(m).unwrap();
                for color in [Color::White, Color::Black] {
                    let bound = pos.moves_made_by(color);
                    assert!(bound <= made[color.index()], "{}", pos.to_fen());
                    if !captured {
                        // Nothing taken: only the first step of each pawn that began on
                        // the first rank goes unseen.
                        assert!(made[color.index()] <= bound + 8, "{}", pos.to_fen());
                    }
                }
            }
        }
    }
}
