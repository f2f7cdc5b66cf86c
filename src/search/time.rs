//! How long to think: soft and hard limits from the clock, the increment and `movestogo`,
//! and when to start another iteration.

use std::time::Duration;

use super::is_decisive;
use super::params::*;

/// The clock as `go` gives it, for the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Clock {
    pub(crate) remaining: Duration,
    pub(crate) increment: Duration,
    pub(crate) moves_to_go: Option<u64>,
    /// Moves the side to move has played in this game so far (as far as the engine knows).
    pub(crate) moves_played: u64,
}

/// (soft, hard): past `soft` no new iteration starts; at `hard` the search stops.
///
/// The hard limit never exceeds the remaining time less `overhead` (the GUI's and the
/// pipe's delay), so the engine cannot lose on time while its clock has any time left.
pub(crate) fn budget(clock: Clock, overhead: Duration) -> (Duration, Duration) {
    // Microseconds, saturating: a GUI may send any number of milliseconds.
    let micros = |d: Duration| u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
    let remaining = micros(clock.remaining);
    let overhead = micros(overhead);
    let increment = micros(clock.increment);
    // What may be spent without touching the reserve for lag.
    let usable = remaining.saturating_sub(overhead).max(1_000);
    let moves = clock
        .moves_to_go
        .unwrap_or_else(|| {
            GAME_MOVES
                .saturating_sub(clock.moves_played)
                .max(MIN_MOVES_TO_GO)
        })
        .clamp(1, 100);
    let ceiling = if moves == 1 {
        usable
    } else {
        usable.saturating_mul(MAX_SHARE_PERCENT) / 100
    }
    .min(remaining.saturating_sub(overhead))
    .max(1_000.min(remaining / 2));
    let soft = (usable / moves)
        .saturating_add(increment.saturating_mul(INCREMENT_PERCENT) / 100)
        .min(ceiling);
    let hard = soft.saturating_mul(HARD_FACTOR).min(ceiling);
    (Duration::from_micros(soft), Duration::from_micros(hard))
}

/// How settled the root is, to spend less time when the best move holds and more
/// when it changes or its score falls (the time a move needs varies far more than
/// any fixed schedule can know).
pub(crate) struct Stability<M> {
    last: Option<(M, i32)>,
    unchanged: u32,
}

impl<M: PartialEq + Copy> Stability<M> {
    pub(crate) fn new() -> Self {
        Stability {
            last: None,
            unchanged: 0,
        }
    }

    /// Records this iteration's best move and score and returns the share of the soft
    /// budget, in percent, before which another iteration may start.
    pub(crate) fn next_iteration_percent(&mut self, depth: u32, best: M, score: i32) -> u64 {
        let (changed, drop) = match self.last {
            Some((m, s)) => (m != best, s.saturating_sub(score)),
            None => (true, 0),
        };
        self.unchanged = if changed { 0 } else { self.unchanged + 1 };
        self.last = Some((best, score));
        if depth < STABILITY_MIN_DEPTH || is_decisive(score) {
            return NEXT_ITERATION_PERCENT;
        }
        let mut percent = NEXT_ITERATION_PERCENT;
        if changed {
            percent = percent * BEST_CHANGED_PERCENT / 100;
        } else if self.unchanged >= STABLE_ITERATIONS {
            percent = percent * STABLE_PERCENT / 100;
        }
        if drop >= SCORE_DROP {
            percent = percent * SCORE_DROP_PERCENT / 100;
        }
        percent
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::WIN;

    fn ms(x: u64) -> Duration {
        Duration::from_millis(x)
    }

    #[test]
    fn never_plans_past_the_clock() {
        for remaining in [0, 1, 5, 20, 50, 100, 1_000, 10_000, 600_000] {
            for inc in [0, 100, 1_000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let clock = Clock {
                        remaining: ms(remaining),
                        increment: ms(inc),
                        moves_to_go: mtg,
                        moves_played: 0,
                    };
                    let (soft, hard) = budget(clock, ms(10));
                    assert!(soft <= hard, "{clock:?}");
                    assert!(
                        hard <= ms(remaining).saturating_sub(ms(10)).max(ms(remaining) / 2),
                        "{clock:?}: {hard:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn absurd_clocks_give_a_budget_without_overflow() {
        for remaining in [u64::MAX, 999_999_999_999_999_999, 1 << 60] {
            for inc in [0, u64::MAX / 2, 1 << 40] {
                let clock = Clock {
                    remaining: ms(remaining),
                    increment: ms(inc),
                    moves_to_go: Some(1),
                    moves_played: u64::MAX,
                };
                let (soft, hard) = budget(clock, ms(u64::MAX / 3));
                assert!(soft <= hard && hard <= ms(remaining), "{clock:?}");
            }
        }
        // A day on the clock: a long think, but not the whole day.
        let day = Clock {
            remaining: ms(86_400_000),
            ..Clock::default()
        };
        let (soft, _) = budget(day, ms(10));
        assert!(soft > ms(60_000) && soft < ms(86_400_000 / 5), "{soft:?}");
    }

    #[test]
    fn spends_more_with_more_time() {
        let a = budget(
            Clock {
                remaining: ms(10_000),
                increment: ms(100),
                moves_to_go: None,
                moves_played: 0,
            },
            ms(10),
        );
        let b = budget(
            Clock {
                remaining: ms(60_000),
                increment: ms(100),
                moves_to_go: None,
                moves_played: 0,
            },
            ms(10),
        );
        assert!(b.0 > a.0);
        let last = budget(
            Clock {
                remaining: ms(10_000),
                increment: ms(0),
                moves_to_go: Some(1),
                moves_played: 0,
            },
            ms(10),
        );
        assert!(last.0 > a.0);
    }

    #[test]
    fn spends_more_per_move_in_the_middle_game() {
        let at = |moves_played| {
            budget(
                Clock {
                    remaining: ms(6_000),
                    increment: ms(100),
                    moves_to_go: None,
                    moves_played,
                },
                ms(10),
            )
            .0
        };
        // Fewer moves remain, so the same clock buys more per move; the floor keeps a
        // long game from spending it all on one move.
        assert!(at(20) > at(0));
        assert_eq!(at(40), at(100));
        assert!(at(100) < ms(6_000) / 5);
    }

    #[test]
    fn more_time_when_the_best_move_changes_or_the_score_falls_less_when_it_holds() {
        let mut s = Stability::new();
        let d = STABILITY_MIN_DEPTH;
        // Shallow iterations keep the plain share whatever happens.
        assert_eq!(s.next_iteration_percent(1, 'a', 0), NEXT_ITERATION_PERCENT);
        assert_eq!(
            s.next_iteration_percent(2, 'b', -500),
            NEXT_ITERATION_PERCENT
        );
        let changed = s.next_iteration_percent(d, 'c', -500);
        assert!(changed > NEXT_ITERATION_PERCENT);
        let held = s.next_iteration_percent(d + 1, 'c', -500);
        assert_eq!(held, NEXT_ITERATION_PERCENT);
        let falling = s.next_iteration_percent(d + 2, 'c', -500 - SCORE_DROP);
        assert!(falling > held);
        let mut settled = held;
        for depth in d + 3..d + 3 + STABLE_ITERATIONS {
            settled = s.next_iteration_percent(depth, 'c', -530);
        }
        assert!(settled < held);
        // A proven result is not worth more time.
        assert_eq!(
            s.next_iteration_percent(d + 20, 'd', -WIN + 10),
            NEXT_ITERATION_PERCENT
        );
    }
}
