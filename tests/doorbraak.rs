//! Doorbraak rules: hand-built positions for each rule, and a second, deliberately
//! plain implementation (arrays, depth-first explosions) that must agree with the
//! bitboard one (first-in-first-out explosions) on moves, resulting positions and
//! perft over many random positions.

mod common;

use breakthrough::rulesets::doorbraak::{
    Color, EndReason, FenError, Move, MoveError, Outcome, Position, START_FEN,
};
use breakthrough::rulesets::{Rules, SearchRules};
use common::Rng;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen, ()).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn after(fen: &str, moves: &[&str]) -> Position {
    let mut p = pos(fen);
    for text in moves {
        let m = p.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        p.play(m);
    }
    p
}

fn move_texts(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(Move::to_string).collect();
    v.sort();
    v
}

// ---- The rules, one position each -------------------------------------------------

#[test]
fn the_seeds_example_b2a1() {
    // b2a1: a1 overflows to b1 and a2; a2 overflows to b2 and a3.
    let p = after(START_FEN, &["b2a1"]);
    assert_eq!(p.to_fen(), "ppppp/ppppp/5/5/5/5/P4/1PPPP/1QPPP b 0");
    assert_eq!(p.stone_count(Color::White), 10);
}

#[test]
fn a_chain_reaction_runs_along_a_rank() {
    // a2b3 fills b3 (3 stones): b3 -> a3, c3, b4; c3 -> b3, d3, c4; d3 -> c3, e3, d4.
    let p = after("4p/5/5/5/5/5/1QQQ1/P4/5 w", &["a2b3"]);
    assert_eq!(p.to_fen(), "4p/5/5/5/5/1PPP1/PPP1P/5/5 b 0");
    assert_eq!(p.stone_count(Color::White), 7);
}

#[test]
fn an_explosion_captures() {
    // c5 explodes; the stone sent right lands on d5's black stone and takes it.
    let p = after("4p/5/5/5/2Qp1/1P3/5/5/5 w", &["b4c5"]);
    assert_eq!(p.to_fen(), "4p/5/5/2P2/1P1P1/5/5/5/5 b 0");
    assert_eq!(p.stone_count(Color::Black), 1);
    // Taking the last enemy stone wins.
    let p = after("5/5/5/5/2Qp1/1P3/5/5/5 w", &["b4c5"]);
    assert_eq!(
        p.outcome(),
        Some(Outcome::win(Color::White, EndReason::NoPieces))
    );
    assert!(p.legal_moves().is_empty());
}

#[test]
fn a_stone_on_its_seventh_rank_destroys_the_stone_sent_onto_it() {
    // c2 explodes; the stone sent forward hits c3, Black's 7th rank: it is lost.
    let p = after("4p/5/5/5/5/5/2p2/2Q2/1P3 w", &["b1c2"]);
    assert_eq!(p.to_fen(), "4p/5/5/5/5/5/2p2/1P1P1/5 b 0");
    assert_eq!(p.stone_count(Color::White), 2);
    assert_eq!(p.stone_count(Color::Black), 2);
    // The same stone one rank lower (Black's 8th) is captured.
    let p = after("4p/5/5/5/5/5/5/2Q2/1P3 w", &["b1c2"]);
    assert_eq!(p.to_fen(), "4p/5/5/5/5/5/2P2/1P1P1/5 b 0");
}

#[test]
fn a_stack_may_not_land_where_it_could_not_explode() {
    // The seed's case: b1's stack may not go to a2 while a2 holds a stone.
    let p = pos("4p/5/5/5/5/5/5/P4/1Q3 w");
    let m = Move::from_uci("b1a2").unwrap();
    assert_eq!(p.check_move(m), Err(MoveError::Overfull(m)));
    assert!(!p.legal_moves().contains(&m));
    // A stack onto a middle square holding a stack: 4 stones, 3 directions.
    let p = pos("4p/5/5/5/5/5/5/2Q2/1Q3 w");
    let m = Move::from_uci("b1c2").unwrap();
    assert_eq!(p.check_move(m), Err(MoveError::Overfull(m)));
    // A stack onto an empty edge square is fine: 2 stones, 2 directions.
    let p = after("4p/5/5/5/5/5/5/5/1Q3 w", &["b1a2"]);
    assert_eq!(p.to_fen(), "4p/5/5/5/5/5/P4/1P3/5 b 0");
}

#[test]
fn moves_end_on_the_seventh_rank_at_most_and_the_eighth_moves_back() {
    let p = pos("p4/2P2/5/5/2P2/5/5/5/5 w");
    let texts = move_texts(&p);
    // c5 slides up to the 7th rank (b6 a7, d6 e7) but not on to the 8th.
    for m in ["c5b6", "c5a7", "c5d6", "c5e7"] {
        assert!(texts.contains(&m.to_string()), "{m} in {texts:?}");
    }
    // c8 may not go up to the 9th, only back.
    for m in ["c8b7", "c8a6", "c8d7", "c8e6"] {
        assert!(texts.contains(&m.to_string()), "{m} in {texts:?}");
    }
    for m in ["c8b9", "c8d9"] {
        let mv = Move::from_uci(m).unwrap();
        assert_eq!(p.check_move(mv), Err(MoveError::BeyondSeventhRank(mv)));
    }
    // Black's 7th rank is rank 3: a black stone there goes no lower, only back.
    let p = pos("5/5/5/5/5/5/1p3/5/P4 b");
    assert_eq!(move_texts(&p), ["0000", "b3a4", "b3c4", "b3d5", "b3e6"]);
}

#[test]
fn a_win_only_through_an_explosion() {
    // a6b7 overfills b7; its forward stone overfills b8, whose forward stone lands on b9.
    let p = pos("4p/1Q3/1Q3/P4/5/5/5/5/5 w");
    assert!(
        !p.legal_moves()
            .iter()
            .any(|m| !m.is_pass() && m.to().rank() == 8),
        "no move lands on the 9th rank"
    );
    let win = Move::from_uci("a6b7").unwrap();
    assert_eq!(p.winning_move(), Some(win));
    let q = p.child(win);
    assert_eq!(
        q.outcome(),
        Some(Outcome::win(Color::White, EndReason::GoalReached))
    );
    assert_eq!(q.to_fen(), "1P2p/P1P2/P1P2/5/5/5/5/5/5 b 0");
}

#[test]
fn passing_twice_draws_and_passing_resets() {
    let p = after(START_FEN, &["0000"]);
    assert_eq!(p.to_fen(), "ppppp/ppppp/5/5/5/5/5/PPPPP/PPPPP b 1");
    assert_eq!(p.outcome(), None);
    let q = after(START_FEN, &["0000", "0000"]);
    assert_eq!(q.outcome(), Some(Outcome::draw(EndReason::TwoPasses)));
    assert!(q.legal_moves().is_empty());
    let r = after(START_FEN, &["0000", "a8b7", "0000"]);
    assert_eq!(r.passes(), 1);
    assert_eq!(r.outcome(), None);
    // The pass count is part of the position (and of its hash).
    assert_ne!(
        pos("ppppp/ppppp/5/5/5/5/5/PPPPP/PPPPP w 1").hash(),
        Position::startpos(()).hash()
    );
}

#[test]
fn every_fen_error_has_its_kind() {
    use FenError::*;
    let cases: [(&str, FenError); 11] = [
        ("   ", Empty),
        (
            "ppppp/ppppp/5/5/5/5/5/PPPPP/PPPPX w",
            UnknownCharacter { ch: 'X', rank: 1 },
        ),
        (
            "ppppp/ppppp/5/5/5/5/5/PPPPP/PP0PP w",
            BadEmptyCount { rank: 1 },
        ),
        (
            "ppppp/ppppp/5/5/6/5/5/PPPPP/PPPPP w",
            BadEmptyCount { rank: 5 },
        ),
        (
            "ppppp/pppp/5/5/5/5/5/PPPPP/PPPPP w",
            WrongRankWidth {
                rank: 8,
                squares: 4,
            },
        ),
        ("ppppp/5/5/5/5/5/PPPPP/PPPPP w", WrongRankCount { found: 8 }),
        (
            "qpppp/ppppp/5/5/5/5/5/PPPPP/PPPPP w",
            StackOnEdge {
                square: "a9".parse_square(),
            },
        ),
        ("ppppp/ppppp/5/5/5/5/5/PPPPP/PPPPP", MissingSideToMove),
        (
            "ppppp/ppppp/5/5/5/5/5/PPPPP/PPPPP x",
            BadSideToMove { found: "x".into() },
        ),
        (
            "ppppp/ppppp/5/5/5/5/5/PPPPP/PPPPP w 3",
            BadPassCount { found: "3".into() },
        ),
        (
            "ppppp/ppppp/5/5/5/5/5/PPPPP/PPPPP w 0 9",
            TooManyFields { found: 4 },
        ),
    ];
    for (fen, want) in cases {
        assert_eq!(Position::from_fen(fen, ()), Err(want), "{fen}");
    }
    assert!(matches!(
        Position::from_fen("P4/5/5/5/5/5/5/5/p4 w", ()),
        Err(ImpossiblePosition(_))
    ));
    assert!(matches!(
        Position::from_fen("5/5/5/5/5/5/5/5/5 w", ()),
        Err(ImpossiblePosition(_))
    ));
    // The pass count may be left out; every error reads as one line.
    assert_eq!(
        pos("ppppp/ppppp/5/5/5/5/5/PPPPP/PPPPP w"),
        Position::startpos(())
    );
    assert!(
        !Position::from_fen("x", ())
            .unwrap_err()
            .to_string()
            .contains('\n')
    );
}

trait ParseSquare {
    fn parse_square(&self) -> breakthrough::rulesets::doorbraak::Square;
}

impl ParseSquare for str {
    fn parse_square(&self) -> breakthrough::rulesets::doorbraak::Square {
        Move::from_uci(&format!("{self}a1").replace("a1a1", "a1b2"))
            .unwrap()
            .from()
    }
}

#[test]
fn move_errors_say_what_is_wrong() {
    let p = Position::startpos(());
    let err = |t: &str| p.parse_move(t).unwrap_err();
    assert!(matches!(err("a2"), MoveError::Syntax(_)));
    assert!(matches!(err("f2a1"), MoveError::Syntax(_)));
    assert!(matches!(err("a3b4"), MoveError::NoOwnStone(_)));
    assert!(matches!(err("a8b7"), MoveError::NoOwnStone(_)));
    assert!(matches!(err("a2a3"), MoveError::NotDiagonal(_)));
    assert!(matches!(err("a1c3"), MoveError::Jumps(_)));
    let q = pos("5/5/5/5/5/5/1p3/P4/5 w");
    assert!(matches!(
        q.parse_move("a2b3").unwrap_err(),
        MoveError::EnemyTarget(_)
    ));
    let over = after(START_FEN, &["0000", "0000"]);
    assert_eq!(over.parse_move("0000"), Err(MoveError::GameOver));
}

#[test]
fn crowded_positions_from_a_fen_do_not_overflow_the_move_list() {
    // Far more stones than a game can have, on every other rank.
    let p = pos("p4/5/PQQQP/5/PQ1QP/5/PQQQP/5/PQQQP w");
    assert!(p.legal_moves().len() <= breakthrough::rulesets::doorbraak::MAX_MOVES);
    compare(&p);
}

#[test]
fn start_position_perft() {
    // 20 forward slides, 8 steps back onto rank 1, 8 steps up onto rank 2, and the pass.
    let p = Position::startpos(());
    assert_eq!(p.perft(1), 37);
    assert_eq!(p.perft(2), 1359);
    assert_eq!(p.perft(3), 49870);
    assert_eq!(p.perft(4), 1811746);
}

#[test]
fn hash_is_incremental() {
    let mut rng = Rng::new(11);
    for _ in 0..200 {
        let mut p = Position::startpos(());
        for _ in 0..60 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p.play(moves[rng.below(moves.len())]);
            assert_eq!(p.hash(), p.hash_from_scratch(), "{}", p.to_fen());
            assert_eq!(pos(&p.to_fen()), p, "FEN round trip");
        }
    }
}

// ---- The reference implementation -------------------------------------------------

/// Plain arrays: `cells[rank][file]` > 0 White stones, < 0 Black stones.
#[derive(Clone, PartialEq, Debug)]
struct Reference {
    cells: [[i8; 5]; 9],
    white: bool,
    passes: u8,
}

impl Reference {
    fn from_fen(fen: &str) -> Reference {
        let mut parts = fen.split_whitespace();
        let mut cells = [[0i8; 5]; 9];
        for (i, row) in parts.next().unwrap().split('/').enumerate() {
            let rank = 8 - i;
            let mut file = 0;
            for ch in row.chars() {
                match ch {
                    '1'..='5' => file += ch as usize - '0' as usize,
                    _ => {
                        cells[rank][file] = match ch {
                            'P' => 1,
                            'Q' => 2,
                            'p' => -1,
                            'q' => -2,
                            _ => panic!("bad FEN"),
                        };
                        file += 1;
                    }
                }
            }
        }
        let white = parts.next() == Some("w");
        let passes = parts.next().map_or(0, |t| t.parse().unwrap());
        Reference {
            cells,
            white,
            passes,
        }
    }

    fn to_fen(&self) -> String {
        let rows: Vec<String> = (0..9)
            .rev()
            .map(|r| {
                let mut row = String::new();
                let mut empty = 0;
                for f in 0..5 {
                    let c = self.cells[r][f];
                    if c == 0 {
                        empty += 1;
                        continue;
                    }
                    if empty > 0 {
                        row += &empty.to_string();
                        empty = 0;
                    }
                    row.push(match c {
                        1 => 'P',
                        2 => 'Q',
                        -1 => 'p',
                        -2 => 'q',
                        _ => panic!("{c} stones on a square"),
                    });
                }
                if empty > 0 {
                    row += &empty.to_string();
                }
                row
            })
            .collect();
        format!(
            "{} {} {}",
            rows.join("/"),
            if self.white { 'w' } else { 'b' },
            self.passes
        )
    }

    fn me(&self) -> i8 {
        if self.white { 1 } else { -1 }
    }

    fn capacity(file: usize) -> i8 {
        if file == 0 || file == 4 { 1 } else { 2 }
    }

    fn over(&self) -> bool {
        let count = |sign: i8| {
            self.cells
                .iter()
                .flatten()
                .filter(|&&c| c * sign > 0)
                .count()
        };
        self.passes >= 2
            || count(1) == 0
            || count(-1) == 0
            || self.cells[8].iter().any(|&c| c > 0)
            || self.cells[0].iter().any(|&c| c < 0)
    }

    fn name(r: usize, f: usize) -> String {
        format!("{}{}", (b'a' + f as u8) as char, r + 1)
    }

    fn moves(&self) -> Vec<String> {
        if self.over() {
            return Vec::new();
        }
        let me = self.me();
        let mut out = vec!["0000".to_string()];
        for r in 0..9 {
            for f in 0..5 {
                let size = self.cells[r][f] * me;
                if size <= 0 {
                    continue;
                }
                for (df, dr) in [(-1i32, 1i32), (1, 1), (-1, -1), (1, -1)] {
                    let (mut tf, mut tr) = (f as i32, r as i32);
                    loop {
                        tf += df;
                        tr += dr;
                        if !(0..5).contains(&tf) || !(0..9).contains(&tr) {
                            break;
                        }
                        // The 7th rank counted from the mover's side.
                        let relative = if me > 0 { tr + 1 } else { 9 - tr };
                        if relative > 7 {
                            break;
                        }
                        let there = self.cells[tr as usize][tf as usize] * me;
                        if there < 0 {
                            break;
                        }
                        if there == 0 || size + there <= Self::capacity(tf as usize) + 1 {
                            out.push(format!(
                                "{}{}",
                                Self::name(r, f),
                                Self::name(tr as usize, tf as usize)
                            ));
                        }
                        if there > 0 {
                            break;
                        }
                    }
                }
            }
        }
        out.sort();
        out
    }

    /// One stone of `me` arrives on (r, f); overflow explodes at once, depth first.
    fn land(&mut self, r: i32, f: i32, me: i8) {
        if !(0..5).contains(&f) || !(0..9).contains(&r) {
            return; // off the board
        }
        let (ru, fu) = (r as usize, f as usize);
        let there = self.cells[ru][fu] * me;
        if there < 0 {
            // The enemy's 7th rank, counted from the enemy's side.
            let enemy_relative = if me > 0 { 9 - r } else { r + 1 };
            if enemy_relative == 7 {
                return;
            }
            self.cells[ru][fu] = me;
            return;
        }
        self.cells[ru][fu] += me;
        if there + 1 > Self::capacity(fu) {
            self.explode(r, f, me);
        }
    }

    fn explode(&mut self, r: i32, f: i32, me: i8) {
        let targets: Vec<(i32, i32)> = [(r, f - me as i32), (r, f + me as i32), (r + me as i32, f)]
            .into_iter()
            .filter(|&(_, tf)| (0..5).contains(&tf))
            .collect();
        self.cells[r as usize][f as usize] -= me * targets.len() as i8;
        for (tr, tf) in targets {
            self.land(tr, tf, me);
        }
    }

    fn play(&self, text: &str) -> Reference {
        let mut next = self.clone();
        let me = self.me();
        next.white = !self.white;
        if text == "0000" {
            next.passes += 1;
            return next;
        }
        next.passes = 0;
        let b = text.as_bytes();
        let (f0, r0) = ((b[0] - b'a') as usize, (b[1] - b'1') as usize);
        let (f1, r1) = ((b[2] - b'a') as i32, (b[3] - b'1') as i32);
        let size = next.cells[r0][f0] * me;
        next.cells[r0][f0] = 0;
        for _ in 0..size {
            next.land(r1, f1, me);
        }
        next
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .iter()
            .map(|m| self.play(m).perft(depth - 1))
            .sum()
    }
}

/// A random position: each square empty or holding one or two stones of a side.
fn random_position(rng: &mut Rng) -> Option<Position> {
    let density = 2 + rng.below(6);
    let mut rows = Vec::new();
    for rank in (0..9).rev() {
        let mut row = String::new();
        for file in 0..5 {
            let edge = file == 0 || file == 4;
            let ch = match rng.below(density * 2 + 4) {
                0 => 'P',
                1 => 'p',
                2 if !edge && rank < 8 => 'Q',
                3 if !edge && rank > 0 => 'q',
                _ => '1',
            };
            row.push(ch);
        }
        rows.push(row);
    }
    let side = if rng.below(2) == 0 { 'w' } else { 'b' };
    let fen = format!("{} {side} {}", rows.join("/"), rng.below(2));
    // Runs of empty squares as one digit.
    let fen = ["11111", "1111", "111", "11"]
        .iter()
        .fold(fen, |f, run| f.replace(run, &run.len().to_string()));
    Position::from_fen(&fen, ()).ok()
}

fn compare(p: &Position) {
    let fen = p.to_fen();
    let r = Reference::from_fen(&fen);
    assert_eq!(r.to_fen(), fen, "the reference reads and writes FEN alike");
    assert_eq!(move_texts(p), r.moves(), "moves of {fen}");
    for &m in p.legal_moves().iter() {
        assert_eq!(
            p.child(m).to_fen(),
            r.play(&m.to_string()).to_fen(),
            "{fen} after {m}"
        );
    }
}

#[test]
fn agrees_with_the_reference_on_random_positions() {
    let mut rng = Rng::new(2026);
    let mut checked = 0;
    while checked < 3000 {
        let Some(p) = random_position(&mut rng) else {
            continue;
        };
        compare(&p);
        if checked % 30 == 0 {
            let r = Reference::from_fen(&p.to_fen());
            assert_eq!(p.perft(3), r.perft(3), "perft 3 of {}", p.to_fen());
        }
        checked += 1;
    }
}

#[test]
fn agrees_with_the_reference_along_random_games() {
    let mut rng = Rng::new(7);
    let mut explosions = 0;
    for _ in 0..300 {
        let mut p = Position::startpos(());
        for _ in 0..80 {
            compare(&p);
            let moves = p.legal_moves();
            // Passes rarely, so games run long.
            let real: Vec<Move> = moves.iter().copied().filter(|m| !m.is_pass()).collect();
            if real.is_empty() {
                break;
            }
            let m = real[rng.below(real.len())];
            explosions += usize::from(p.explodes(m));
            p.play(m);
        }
    }
    assert!(
        explosions > 1000,
        "the games explode often enough to test chains: {explosions}"
    );
    let start = Reference::from_fen(START_FEN);
    assert_eq!(Position::startpos(()).perft(3), start.perft(3));
}

#[test]
fn mangled_fens_and_moves_never_panic() {
    let mut rng = Rng::new(99);
    let alphabet: Vec<char> = "pPqQ0123456789/ wb-x".chars().collect();
    let seeds = [
        START_FEN,
        "4p/1Q3/1Q3/P4/5/5/5/5/5 w",
        "p4/5/PQQQP/5/PQ1QP/5/PQQQP/5/PQQQP w 1",
    ];
    for _ in 0..20_000 {
        let mut fen: Vec<char> = seeds[rng.below(seeds.len())].chars().collect();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(fen.len());
            match rng.below(3) {
                0 => fen[at] = alphabet[rng.below(alphabet.len())],
                1 => fen.insert(at, alphabet[rng.below(alphabet.len())]),
                _ => {
                    fen.remove(at);
                }
            }
        }
        let fen: String = fen.into_iter().collect();
        if let Ok(p) = Position::from_fen(&fen, ()) {
            assert_eq!(pos(&p.to_fen()), p, "{fen}");
            for &m in p.legal_moves().iter() {
                let _ = p.child(m).legal_moves();
            }
        }
    }
    let p = Position::startpos(());
    for text in [
        "", "0", "00000", "a1", "a1a1", "e9e9", "a0b1", "z9a1", "b2a1x", "ä1b2",
    ] {
        assert!(p.parse_move(text).is_err(), "{text}");
    }
}
