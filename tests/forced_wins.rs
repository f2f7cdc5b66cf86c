//! The public forced-win suite: the search must report the exact mate distance and
//! play a move that keeps the win.

mod common;

use breakthrough::rules::{Color, Position, Variant};
use breakthrough::search::tt::TranspositionTable;
use breakthrough::search::{Control, Limits, Score, SearchResult, Searcher};

fn search(pos: Position, depth: u32, threads: usize) -> SearchResult<breakthrough::rules::Move> {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let control = Control::new(None, None, None, false);
    let tt = TranspositionTable::new(4);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| Searcher::new(pos, &limits, &control, &tt, threads, &|_| {}).run())
}

/// The mate score the suite implies for the side to move, `plies` from the end.
fn expected(plies: i32) -> Score {
    if plies % 2 == 1 {
        Score::Mate((plies + 1) / 2)
    } else {
        Score::Mate(-plies / 2)
    }
}

fn check_suite(threads: usize, step: usize) {
    let text =
        std::fs::read_to_string(common::data_dir().join("forced-wins.epd")).unwrap();
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .step_by(step)
    {
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        let pos = Position::from_fen(fields[0], Variant::Breakthrough).unwrap();
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
            let outcome = pos.outcome();
            if outcome.map(|o| o.winner) != Some(winner) {
                failures.push(format!("{line}: outcome {outcome:?}"));
            }
            continue;
        }
        assert_eq!(
            winner == pos.side_to_move(),
            plies % 2 == 1,
            "suite consistency: {line}"
        );
        let result = search(pos, plies as u32 + 4, threads);
        let score = Score::from_internal(result.score);
        if score != expected(plies) {
            failures.push(format!(
                "{line}: reported {score:?}, expected {:?}",
                expected(plies)
            ));
            continue;
        }
        // The move played must keep the win: the opponent then loses in plies - 1.
        let best = result.best.expect("a move in an unfinished game");
        let child = pos.child(best);
        let after = if plies == 1 {
            assert!(
                child.outcome().is_some_and(|o| o.winner == winner),
                "{line}"
            );
            continue;
        } else {
            Score::from_internal(search(child, plies as u32 + 3, threads).score)
        };
        if after != expected(plies - 1) && winner == pos.side_to_move() {
            failures.push(format!(
                "{line}: {best} leaves {after:?}, expected {:?}",
                expected(plies - 1)
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
fn every_suite_position_one_thread() {
    check_suite(1, 1);
}

#[test]
fn suite_sample_two_threads() {
    check_suite(2, 5);
}
