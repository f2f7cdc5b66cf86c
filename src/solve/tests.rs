//! The solver against plain exhaustive minimax on the boards minimax can settle, both
//! rule sets; its knowledge against minimax on positions of random games; certificates
//! checked, and corrupted ones refused.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use super::knowledge::{self, Known};
use super::*;
use crate::rulesets::SearchRules;
use crate::rulesets::breakthrough::{DiagonalStep, Geometry};
use crate::util::rng::Rng;

/// True if the side to move wins with perfect play: plain minimax over the whole tree,
/// with a table of positions already settled.
fn wins(pos: &Position, memo: &mut HashMap<[u8; Position::BYTES], bool>) -> bool {
    if let Some(outcome) = pos.outcome() {
        return outcome.winner == Some(pos.side_to_move());
    }
    let key = pos.to_bytes();
    if let Some(&w) = memo.get(&key) {
        return w;
    }
    // A move that wins at once ends the game: the rules' own verdict, no search needed.
    let w = pos.winning_move().is_some()
        || pos
            .legal_moves()
            .iter()
            .any(|&m| !wins(&pos.child(m), memo));
    memo.insert(key, w);
    w
}

/// True if the side to move can force a win within `plies` plies (odd): plain search of
/// every move and reply.
fn wins_within(pos: &Position, plies: u32) -> bool {
    pos.legal_moves().iter().any(|&m| {
        let reply = pos.child(m);
        match reply.outcome() {
            Some(outcome) => outcome.winner == Some(pos.side_to_move()),
            None => {
                plies >= 3
                    && reply
                        .legal_moves()
                        .iter()
                        .all(|&r| wins_within(&reply.child(r), plies - 2))
            }
        }
    })
}

fn settings(threads: usize, all_moves: bool) -> SolveSettings {
    SolveSettings {
        threads,
        all_moves,
        certificate: true,
        ..SolveSettings::small()
    }
}

/// (4x5 takes seconds: tests/solve.rs, optimised, has it.)
const SMALL: [(u8, u8); 4] = [(3, 4), (4, 4), (3, 5), (5, 4)];

#[test]
fn small_boards_agree_with_minimax_and_their_proofs_check() {
    for diagonal in [DiagonalStep::Free, DiagonalStep::CaptureOnly] {
        for (files, ranks) in SMALL {
            let root = Position::start(diagonal, Geometry::get(files, ranks).unwrap());
            let mut memo = HashMap::new();
            let side_wins = wins(&root, &mut memo);
            let expected = if side_wins {
                Color::White
            } else {
                Color::Black
            };
            for (threads, all_moves) in [(1, false), (2, false), (1, true), (2, true)] {
                let what = format!(
                    "{diagonal:?} {files}x{ranks}, {threads} threads, all moves {all_moves}"
                );
                let s =
                    solve(root, &settings(threads, all_moves), &AtomicBool::new(false)).unwrap();
                assert_eq!(s.winner, Some(expected), "{what}");
                match s.best {
                    Some(m) => {
                        assert!(side_wins && !wins(&root.child(m), &mut memo), "{what}: {m}")
                    }
                    None => assert!(!side_wins, "{what}: no winning move given"),
                }
                if all_moves {
                    assert_eq!(s.moves.len(), root.legal_moves().len(), "{what}");
                    for v in &s.moves {
                        let mover_wins = !wins(&root.child(v.m), &mut memo);
                        let winner = if mover_wins {
                            Color::White
                        } else {
                            Color::Black
                        };
                        assert_eq!(v.winner, Some(winner), "{what}: {}", v.m);
                    }
                }
                let certificate = s.certificate.expect("a certificate");
                let checked = certificate.verify().unwrap();
                assert_eq!((checked.winner, checked.unused), (expected, 0), "{what}");
                let again = Certificate::from_bytes(&certificate.to_bytes()).unwrap();
                assert_eq!(again.verify().unwrap(), checked, "{what}");
            }
        }
    }
}

/// Positions along random games of small boards: whatever the knowledge settles,
/// minimax confirms (and a winning move it names wins).
#[test]
fn knowledge_agrees_with_minimax() {
    let mut rng = Rng::new(11);
    let mut settled = [0usize; 2];
    // Wins the capture-only win in two settles, each checked below like any other; and
    // the threat win's moves, each checked here.
    let mut capture_only_wins = 0;
    let mut threat_wins = 0;
    for diagonal in [DiagonalStep::Free, DiagonalStep::CaptureOnly] {
        for (files, ranks) in [(4, 5), (5, 4), (3, 6), (6, 4)] {
            let mut memo = HashMap::new();
            for _ in 0..60 {
                let mut pos = Position::start(diagonal, Geometry::get(files, ranks).unwrap());
                let plies = 4 + rng.below(6);
                for _ in 0..plies {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos.play(moves[rng.below(moves.len())]);
                }
                let mut line = pos;
                while line.outcome().is_none() {
                    if line.winning_move().is_none()
                        && knowledge::capture_only_win_in_two(&line).is_some()
                    {
                        capture_only_wins += 1;
                    }
                    if line.winning_move().is_none()
                        && let Some(m) = knowledge::threat_win(&line)
                    {
                        assert!(!wins(&line.child(m), &mut memo), "{line:?} {m}");
                        threat_wins += 1;
                    }
                    match knowledge::judge(&line) {
                        Some(Known::Win(m)) => {
                            assert!(wins(&line, &mut memo), "{line:?}");
                            if let Some(m) = m {
                                assert!(!wins(&line.child(m), &mut memo), "{line:?} {m}");
                            }
                            settled[0] += 1;
                        }
                        Some(Known::Loss) => {
                            assert!(!wins(&line, &mut memo), "{line:?}");
                            settled[1] += 1;
                        }
                        None => {}
                    }
                    let moves = line.legal_moves();
                    line.play(moves[rng.below(moves.len())]);
                }
            }
        }
    }
    assert!(settled[0] > 200 && settled[1] > 100, "{settled:?}");
    assert!(capture_only_wins > 20, "{capture_only_wins}");
    assert!(threat_wins > 20, "{threat_wins}");
}

/// The wins a certificate leaves to its checker are exactly those a plain search finds
/// within three plies, on positions along random games.
#[test]
fn the_checker_finds_every_win_within_three_plies() {
    let mut rng = Rng::new(5);
    let mut found = [0usize; 3];
    for diagonal in [DiagonalStep::Free, DiagonalStep::CaptureOnly] {
        for (files, ranks) in [(4, 5), (5, 5), (6, 6), (8, 8)] {
            for _ in 0..40 {
                let mut pos = Position::start(diagonal, Geometry::get(files, ranks).unwrap());
                while pos.outcome().is_none() {
                    let plies = certificate::short_win(&pos);
                    assert_eq!(plies.is_some(), wins_within(&pos, 3), "{pos:?}");
                    assert_eq!(plies == Some(1), wins_within(&pos, 1), "{pos:?}");
                    found[plies.map_or(0, |p| p as usize / 2 + 1)] += 1;
                    let moves = pos.legal_moves();
                    pos.play(moves[rng.below(moves.len())]);
                }
            }
        }
    }
    assert!(found.iter().all(|&n| n > 100), "{found:?}");
}

#[test]
fn a_corrupted_proof_is_refused() {
    let root = Position::start(DiagonalStep::Free, Geometry::get(3, 5).unwrap());
    let s = solve(root, &settings(1, false), &AtomicBool::new(false)).unwrap();
    let bytes = s.certificate.unwrap().to_bytes();
    assert!(Certificate::from_bytes(&bytes).unwrap().verify().is_ok());
    let header = bytes.windows(2).position(|w| w == b"\n\n").unwrap() + 2;
    let records = (bytes.len() - header) / (Position::BYTES + 2);
    assert!(records > 3, "{records}");
    let check = |b: &[u8]| Certificate::from_bytes(b).and_then(|c| c.verify());

    // Cut short.
    assert!(matches!(
        check(&bytes[..bytes.len() - 1]),
        Err(CertificateError::Size { .. })
    ));
    // Each record's move changed to each other legal move: refused unless that move also
    // wins within the strategy (minimax says which moves win).
    let mut refused = 0;
    let mut memo = HashMap::new();
    // A dozen records spread over the file.
    for r in (0..records).step_by(records.div_ceil(12)) {
        let at = header + r * (Position::BYTES + 2);
        let pos = Position::unpack(&bytes[at..at + Position::BYTES], DiagonalStep::Free).unwrap();
        for &m in pos.legal_moves().iter() {
            let mut b = bytes.clone();
            b[at + Position::BYTES..at + Position::BYTES + 2]
                .copy_from_slice(&m.to_bits().to_le_bytes());
            if check(&b).is_err() {
                refused += 1;
            } else {
                assert!(
                    !wins(&pos.child(m), &mut memo),
                    "{pos:?}: {m} accepted, but it loses"
                );
            }
        }
        // An illegal move.
        let mut b = bytes.clone();
        b[at + Position::BYTES..at + Position::BYTES + 2]
            .copy_from_slice(&(9u16 << 6).to_le_bytes());
        assert!(check(&b).is_err());
    }
    assert!(refused > 0);
    // A record turned into its mirror image: the same strategy, but not where the checker
    // looks for it.
    let turned = (0..records)
        .find_map(|r| {
            let at = header + r * (Position::BYTES + 2);
            let pos =
                Position::unpack(&bytes[at..at + Position::BYTES], DiagonalStep::Free).unwrap();
            let m = Move::from_bits(u16::from_le_bytes([
                bytes[at + Position::BYTES],
                bytes[at + Position::BYTES + 1],
            ]))
            .unwrap();
            (!pos.is_symmetric()).then(|| {
                let mut b = bytes.clone();
                b[at..at + Position::BYTES].copy_from_slice(&pos.mirrored().to_bytes());
                b[at + Position::BYTES..at + Position::BYTES + 2]
                    .copy_from_slice(&m.mirrored(pos.files()).to_bits().to_le_bytes());
                (r, b)
            })
        })
        .expect("a record of a position that is not its own mirror image");
    assert_eq!(
        check(&turned.1).unwrap_err(),
        CertificateError::Orientation(turned.0)
    );
    // The other winner; another position; not a proof at all.
    let text = String::from_utf8_lossy(&bytes[..header]).into_owned();
    let other = if text.contains("winner white") {
        ("winner white", "winner black")
    } else {
        ("winner black", "winner white")
    };
    let mut b = text.replace(other.0, other.1).into_bytes();
    b.extend_from_slice(&bytes[header..]);
    assert!(check(&b).is_err());
    let fen_line = text.lines().find(|l| l.starts_with("fen ")).unwrap();
    let mut b = text.replace(fen_line, "fen 3/P2/3/2p/3 w").into_bytes();
    b.extend_from_slice(&bytes[header..]);
    assert!(check(&b).is_err());
    assert_eq!(
        check(b"hello\n\n\n\n\n\n").unwrap_err(),
        CertificateError::NotProof
    );
    assert_eq!(check(b"").unwrap_err(), CertificateError::NotProof);
}

#[test]
fn a_time_limit_stops_an_unsolvable_search() {
    let root = Position::startpos(DiagonalStep::Free);
    let mut s = settings(2, false);
    s.time_limit = Some(std::time::Duration::from_millis(300));
    let start = std::time::Instant::now();
    let solution = solve(root, &s, &AtomicBool::new(false)).unwrap();
    assert!(start.elapsed().as_secs_f64() < 5.0);
    assert_eq!((solution.winner, solution.best), (None, None));
    assert!(solution.certificate.is_none());
}

#[test]
fn a_saved_table_goes_on_where_the_solve_stopped_and_a_damaged_one_is_refused() {
    let scratch = crate::util::scratch::Scratch::new("solve-table");
    let path = scratch.path("4x4.table");
    let with_file = SolveSettings {
        table_file: Some(path.clone()),
        hash_megabytes: Some(1),
        ..SolveSettings::small()
    };
    // Stopped by its time limit, the search leaves the root's numbers in the file.
    let big = Position::startpos(DiagonalStep::Free);
    let stopped = SolveSettings {
        time_limit: Some(std::time::Duration::from_millis(100)),
        ..with_file.clone()
    };
    let partial = solve(big, &stopped, &AtomicBool::new(false)).unwrap();
    assert_eq!(partial.winner, None);
    let saved = Table::load(&path, None)
        .unwrap()
        .get(Key::of(&big))
        .unwrap();
    assert_eq!((saved.phi, saved.delta), partial.numbers);
    std::fs::remove_file(&path).unwrap();
    let root = Position::start(DiagonalStep::Free, Geometry::get(4, 4).unwrap());
    let first = solve(root, &with_file, &AtomicBool::new(false)).unwrap();
    assert!(!first.table_loaded && first.table_save_error.is_none());
    assert_eq!(first.winner, Some(Color::Black));
    // The proof is in the file: the root's children are found proven at once.
    let again = solve(root, &with_file, &AtomicBool::new(false)).unwrap();
    assert!(again.table_loaded);
    assert_eq!(again.winner, first.winner);
    assert!(again.nodes <= 2, "{} nodes", again.nodes);
    assert!(first.nodes > 50, "{} nodes", first.nodes);

    let bytes = std::fs::read(&path).unwrap();
    let refused = |bytes: &[u8]| {
        std::fs::write(&path, bytes).unwrap();
        match Table::load(&path, None) {
            Err(e) => {
                // The solve says the same, naming the file.
                let error = solve(root, &with_file, &AtomicBool::new(false)).unwrap_err();
                assert!(error.to_string().contains("4x4.table"), "{error}");
                e
            }
            Ok(_) => panic!("a bad table file was loaded"),
        }
    };
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 4;
    assert!(matches!(refused(&flipped), TableFileError::Damaged));
    assert!(matches!(
        refused(&bytes[..bytes.len() - 1]),
        TableFileError::Length
    ));
    assert!(matches!(
        refused(&[&bytes[..], &[0]].concat()),
        TableFileError::Length
    ));
    let mut foreign = bytes.clone();
    foreign[0] ^= 1;
    assert!(matches!(refused(&foreign), TableFileError::Foreign));
    let mut no_buckets = bytes.clone();
    no_buckets[16..24].fill(0);
    assert!(matches!(refused(&no_buckets), TableFileError::Foreign));
    assert!(matches!(refused(b"short"), TableFileError::Length));
    std::fs::write(&path, &bytes).unwrap();
    assert!(Table::load(&path, None).is_ok());
}
