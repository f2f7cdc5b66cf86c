//! Static evaluation of Breakthrough positions, in centipawns from the side to move's view.
//!
//! The evaluation is linear: a weighted sum of features, every feature counted from
//! the side to move's view (ours minus theirs, or a separate feature where the side
//! to move matters). One generic walk over the features serves the search (summing
//! weights), the `eval` command (per-term breakdown) and the tuner (feature vectors),
//! so the three can never disagree; only the pawns' square features reach the search
//! as sums of weights by square, which a test holds equal to the walk's on every board.
//! Weights live in `super::weights`.

use std::sync::OnceLock;

use super::rules::{
    Color, DiagonalStep, Geometry, MAX_FILES, MAX_RANKS, MIN_FILES, MIN_RANKS, Position, Square,
};
pub(crate) use super::weights::FEATURES;
use super::weights::{BREAKTHROUGH, CAPTURE_ONLY};
use crate::rulesets::TermGroup;
use crate::rulesets::{Rules, SearchRules};

/// Feature layout: 28 piece-square features (distance to goal 1..=7 x file distance
/// from the nearer edge 0..=3), 4 home-rank guards by edge distance, then the rest.
pub(crate) const PST: usize = 0;
pub(crate) const HOME: usize = 28;
pub(crate) const DEFENDED: usize = 32;
pub(crate) const HANGING_OURS: usize = 33;
pub(crate) const HANGING_THEIRS: usize = 34;
pub(crate) const MOBILITY: usize = 35;
pub(crate) const BLOCKED: usize = 36;
pub(crate) const RACE_OURS: usize = 37;
pub(crate) const RACE_THEIRS: usize = 38;
pub(crate) const FREE_PAWNS: usize = 39;
pub(crate) const THREAT_READY: usize = 40;
pub(crate) const TEMPO: usize = 41;
pub(crate) const UNCHALLENGED_3: usize = 42;
pub(crate) const UNCHALLENGED_4: usize = 43;
pub(crate) const LONE_STOPPER: usize = 44;
pub(crate) const OUTNUMBERED: usize = 45;
/// Seven features, distance to goal 1..=7, each counting pawns times the pawns already
/// taken off the board: advancement gains weight as the board empties.
pub(crate) const LATE_ADVANCE: usize = 46;
pub(crate) const PHALANX: usize = 53;
pub(crate) const HOLES: usize = 54;
/// Pawns two and three steps from the goal guarded by a pawn of their own: a
/// breakthrough lodged with support.
pub(crate) const SUPPORTED_2: usize = 55;
pub(crate) const SUPPORTED_3: usize = 56;

/// Names of the feature groups shown by the `eval` command: (name, first feature, count).
pub(crate) const GROUPS: [TermGroup; 21] = [
    TermGroup::new("pawns by square", PST, 28),
    TermGroup::new("home guard", HOME, 4),
    TermGroup::new("defended", DEFENDED, 1),
    TermGroup::new("hanging (ours)", HANGING_OURS, 1),
    TermGroup::new("hanging (theirs)", HANGING_THEIRS, 1),
    TermGroup::new("mobility", MOBILITY, 1),
    TermGroup::new("blocked", BLOCKED, 1),
    TermGroup::new("race won (ours)", RACE_OURS, 1),
    TermGroup::new("race won (theirs)", RACE_THEIRS, 1),
    TermGroup::new("free pawns", FREE_PAWNS, 1),
    TermGroup::new("threat ready", THREAT_READY, 1),
    TermGroup::new("tempo", TEMPO, 1),
    TermGroup::new("unchallenged at 3", UNCHALLENGED_3, 1),
    TermGroup::new("unchallenged at 4", UNCHALLENGED_4, 1),
    TermGroup::new("one enemy in cone", LONE_STOPPER, 1),
    TermGroup::new("outnumbered", OUTNUMBERED, 1),
    TermGroup::new("late advancement", LATE_ADVANCE, 7),
    TermGroup::new("side by side", PHALANX, 1),
    TermGroup::new("holes", HOLES, 1),
    TermGroup::new("supported at 2", SUPPORTED_2, 1),
    TermGroup::new("supported at 3", SUPPORTED_3, 1),
];

/// Squares from which an enemy pawn could ever stop a pawn on a square: the widening
/// cone ahead of it. A pawn with no enemy in its cone walks to the goal unhindered.
const CONES: [[u64; 64]; 2] = {
    let mut cones = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut q = 0;
        while q < 8 {
            let reach = if q > rank { q - rank } else { rank - q };
            let mut g = 0;
            while g < 8 {
                let near = (g - file).abs() <= reach;
                if near && q > rank {
                    cones[0][sq] |= 1u64 << (q * 8 + g);
                }
                if near && q < rank {
                    cones[1][sq] |= 1u64 << (q * 8 + g);
                }
                g += 1;
            }
            q += 1;
        }
        sq += 1;
    }
    cones
};

/// The weights for a rule set.
pub(crate) fn weights(diagonal: DiagonalStep) -> &'static [i32; FEATURES] {
    match diagonal {
        DiagonalStep::Free => &BREAKTHROUGH,
        DiagonalStep::CaptureOnly => &CAPTURE_ONLY,
    }
}

/// Squares attacked by `color`'s pawns from their left and from their right.
#[inline]
fn attacks_by_side(pos: &Position, color: Color) -> (u64, u64) {
    let g = pos.geometry();
    let p = pos.pawns(color);
    let (left, right) = match color {
        Color::White => ((p & g.not_first_file) << 7, (p & g.not_last_file) << 9),
        Color::Black => ((p & g.not_first_file) >> 9, (p & g.not_last_file) >> 7),
    };
    (left & g.board, right & g.board)
}

/// Receives feature values as the evaluation walks over them.
pub(crate) trait Sink {
    /// Whether the walk leaves out the pawns' square features (pawns by square, home
    /// guard, late advancement): the evaluation sums their weights by square instead
    /// ([`square_score`]), the tuner and the `eval` command need them one by one.
    const SQUARES_APART: bool = false;

    /// Adds `value` (a count, usually ours minus theirs) of feature `index`.
    fn add(&mut self, index: usize, value: i32);
}

/// Sums weighted features: the evaluation itself.
struct Tally<'a> {
    weights: &'a [i32; FEATURES],
    total: i32,
}

impl Sink for Tally<'_> {
    const SQUARES_APART: bool = true;

    #[inline(always)]
    fn add(&mut self, index: usize, value: i32) {
        self.total += self.weights[index] * value;
    }
}

/// Collects raw feature values, for the tuner and the `eval` command.
pub(crate) struct Features(pub [i32; FEATURES]);

impl Sink for Features {
    fn add(&mut self, index: usize, value: i32) {
        self.0[index] += value;
    }
}

/// Pawns off the board since the start (each side starts with two ranks of them): what
/// late advancement is multiplied by.
#[inline]
fn pawns_taken(pos: &Position) -> i32 {
    (4 * i32::from(pos.files()) - pos.occupied().count_ones() as i32).max(0)
}

/// Per-side facts the race needs: (fastest pawn, fastest pawn no enemy can stop, free pawns).
///
/// Counts by rank and file class with bit masks rather than pawn by pawn: this is the
/// hottest part of the evaluation, and the masks avoid a branch per pawn and feature.
#[inline]
fn side_walk<S: Sink>(
    pos: &Position,
    color: Color,
    sign: i32,
    own_attacks: u64,
    enemy_attacks: u64,
    sink: &mut S,
) -> (usize, Option<usize>, i32) {
    let g = pos.geometry();
    let ranks = g.ranks as usize;
    let pawns = pos.pawns(color);
    let enemies = pos.pawns(color.opponent());
    let taken = pawns_taken(pos);
    // The squares `d` steps from `color`'s goal (none off the board).
    let at = |d: usize| match (color, d < ranks) {
        (_, false) => 0,
        (Color::White, true) => g.rank[ranks - 1 - d],
        (Color::Black, true) => g.rank[d],
    };
    let count = |bb: u64| sign * bb.count_ones() as i32;
    // Kept in step with `SquareWeights::new`.
    for d in (1..ranks).filter(|_| !S::SQUARES_APART) {
        let on = pawns & at(d);
        if on == 0 {
            continue;
        }
        for (edge, &files) in g.edge.iter().enumerate() {
            sink.add(PST + (d - 1) * 4 + edge, count(on & files));
            if d + 1 == ranks {
                sink.add(HOME + edge, count(on & files));
            }
        }
        sink.add(LATE_ADVANCE + d - 1, count(on) * taken);
    }
    sink.add(SUPPORTED_2, count(pawns & at(2) & own_attacks));
    sink.add(SUPPORTED_3, count(pawns & at(3) & own_attacks));
    sink.add(UNCHALLENGED_3, count(pawns & at(3) & !enemy_attacks));
    sink.add(UNCHALLENGED_4, count(pawns & at(4) & !enemy_attacks));
    let fastest = match (pawns, color) {
        (0, _) => usize::MAX,
        (_, Color::White) => ranks - 1 - (63 - pawns.leading_zeros() as usize) / 8,
        (_, Color::Black) => pawns.trailing_zeros() as usize / 8,
    };
    let mut free = None;
    let mut free_count = 0;
    let mut bb = pawns;
    while bb != 0 {
        let sq = bb.trailing_zeros();
        bb &= bb - 1;
        let stoppers = (CONES[color.index()][sq as usize] & enemies).count_ones();
        if stoppers > 1 {
            continue;
        }
        let d = pos.steps_to_goal(color, Square::from_index(sq as u8)) as usize;
        if stoppers == 1 && d <= 4 {
            sink.add(LONE_STOPPER, sign);
        }
        if stoppers == 0 {
            free_count += 1;
            if free.is_none_or(|f| d < f) {
                free = Some(d);
            }
        }
    }
    (fastest, free, free_count)
}

/// Walks every feature of `pos` into `sink`, from the side to move's view.
#[inline]
pub(crate) fn walk<S: Sink>(pos: &Position, sink: &mut S) {
    let us = pos.side_to_move();
    let them = us.opponent();
    let (our_left, our_right) = attacks_by_side(pos, us);
    let (their_left, their_right) = attacks_by_side(pos, them);
    let our_attacks = our_left | our_right;
    let their_attacks = their_left | their_right;
    let (our_fastest, our_free, our_free_count) =
        side_walk(pos, us, 1, our_attacks, their_attacks, sink);
    let (their_fastest, their_free, their_free_count) =
        side_walk(pos, them, -1, their_attacks, our_attacks, sink);
    let ours = pos.pawns(us);
    let theirs = pos.pawns(them);
    // Attacked twice, defended once: the exchange on that square loses the pawn.
    let (our_twice, their_twice) = (our_left & our_right, their_left & their_right);
    sink.add(
        OUTNUMBERED,
        (ours & their_twice & our_attacks & !our_twice).count_ones() as i32
            - (theirs & our_twice & their_attacks & !their_twice).count_ones() as i32,
    );
    sink.add(
        DEFENDED,
        (ours & our_attacks).count_ones() as i32 - (theirs & their_attacks).count_ones() as i32,
    );
    sink.add(
        HANGING_OURS,
        (ours & their_attacks & !our_attacks).count_ones() as i32,
    );
    sink.add(
        HANGING_THEIRS,
        (theirs & our_attacks & !their_attacks).count_ones() as i32,
    );
    let mut passed = *pos;
    passed.play_null();
    sink.add(
        MOBILITY,
        pos.count_legal_moves() as i32 - passed.count_legal_moves() as i32,
    );
    let (our_ahead, their_ahead) = match us {
        Color::White => (theirs >> 8, ours << 8),
        Color::Black => (theirs << 8, ours >> 8),
    };
    sink.add(
        BLOCKED,
        (ours & our_ahead).count_ones() as i32 - (theirs & their_ahead).count_ones() as i32,
    );
    // The side to move arrives first on equal distance.
    if our_free.is_some_and(|d| d <= their_fastest) {
        sink.add(RACE_OURS, 1);
    } else if their_free.is_some_and(|d| d < our_fastest) {
        sink.add(RACE_THEIRS, 1);
    }
    sink.add(FREE_PAWNS, our_free_count - their_free_count);
    let g = pos.geometry();
    let (our_two, their_two) = match us {
        Color::White => (g.goal[0] >> 16, g.goal[1] << 16),
        Color::Black => (g.goal[1] << 16, g.goal[0] >> 16),
    };
    sink.add(
        THREAT_READY,
        (ours & our_two & !their_attacks).count_ones() as i32
            - (theirs & their_two & !our_attacks).count_ones() as i32,
    );
    let side_by_side = |p: u64| (((p & g.not_last_file) << 1) & p).count_ones() as i32;
    sink.add(PHALANX, side_by_side(ours) - side_by_side(theirs));
    // Squares on a side's second and third ranks its pawns do not guard: where an
    // enemy pawn can settle, one or two steps from the goal, and not be taken.
    let holes = |color: Color, guarded: u64| {
        let zone = match color {
            Color::White => g.home[0] << 8,
            Color::Black => g.home[1] >> 8,
        };
        (zone & g.board & !guarded).count_ones() as i32
    };
    sink.add(HOLES, holes(us, our_attacks) - holes(them, their_attacks));
    sink.add(TEMPO, 1);
}

/// For one rule set and board, the summed weights of the square features of a pawn by
/// colour and square: pawns by square with the home guard, and late advancement (to be
/// multiplied by the pawns taken). Summed pawn by pawn, they cost less than the walk's
/// masks feature by feature: in the profile of a 5x5 solve, whose first numbers come
/// from the evaluation, its share fell from 22% to 18%.
struct SquareWeights {
    fixed: [[i32; 64]; 2],
    late: [[i32; 64]; 2],
}

impl SquareWeights {
    fn new(diagonal: DiagonalStep, g: &Geometry) -> SquareWeights {
        let w = weights(diagonal);
        let mut table = SquareWeights {
            fixed: [[0; 64]; 2],
            late: [[0; 64]; 2],
        };
        for color in [Color::White, Color::Black] {
            for sq in (0..64u8).filter(|&sq| g.board >> sq & 1 == 1) {
                let rank = usize::from(sq / 8);
                let d = match color {
                    Color::White => usize::from(g.ranks) - 1 - rank,
                    Color::Black => rank,
                };
                if d == 0 {
                    continue;
                }
                let edge = (0..4).find(|&e| g.edge[e] >> sq & 1 == 1).unwrap_or(3);
                let home = if d + 1 == usize::from(g.ranks) {
                    w[HOME + edge]
                } else {
                    0
                };
                table.fixed[color.index()][usize::from(sq)] = w[PST + (d - 1) * 4 + edge] + home;
                table.late[color.index()][usize::from(sq)] = w[LATE_ADVANCE + d - 1];
            }
        }
        table
    }

    /// The table of `pos`'s rule set and board, built on first use.
    fn of(pos: &Position) -> &'static SquareWeights {
        const RANKS: usize = (MAX_RANKS - MIN_RANKS + 1) as usize;
        const BOARDS: usize = (MAX_FILES - MIN_FILES + 1) as usize * RANKS;
        static TABLES: [[OnceLock<SquareWeights>; BOARDS]; 2] =
            [const { [const { OnceLock::new() }; BOARDS] }; 2];
        let board =
            usize::from(pos.files() - MIN_FILES) * RANKS + usize::from(pos.ranks() - MIN_RANKS);
        let diagonal = pos.diagonal_step();
        TABLES[usize::from(diagonal == DiagonalStep::CaptureOnly)][board]
            .get_or_init(|| SquareWeights::new(diagonal, pos.geometry()))
    }
}

/// The weighted square features of `pos` (side to move's view): what the walk leaves out
/// for [`Tally`].
#[inline]
fn square_score(pos: &Position) -> i32 {
    let table = SquareWeights::of(pos);
    let taken = pawns_taken(pos);
    let side = |color: Color| {
        let (fixed, late) = (&table.fixed[color.index()], &table.late[color.index()]);
        let (mut sum, mut late_sum) = (0, 0);
        let mut pawns = pos.pawns(color);
        while pawns != 0 {
            let sq = pawns.trailing_zeros() as usize;
            pawns &= pawns - 1;
            sum += fixed[sq];
            late_sum += late[sq];
        }
        sum + late_sum * taken
    };
    let us = pos.side_to_move();
    side(us) - side(us.opponent())
}

/// The evaluation from the side to move's point of view.
#[inline]
pub(crate) fn evaluate(pos: &Position) -> i32 {
    let mut score = Tally {
        weights: weights(pos.diagonal_step()),
        total: 0,
    };
    walk(pos, &mut score);
    score.total + square_score(pos)
}

/// The raw feature vector of a position (side to move's view).
pub(crate) fn features(pos: &Position) -> [i32; FEATURES] {
    let mut f = Features([0; FEATURES]);
    walk(pos, &mut f);
    f.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_is_balanced_and_symmetric() {
        let pos = Position::startpos(DiagonalStep::Free);
        assert_eq!(evaluate(&pos), weights(DiagonalStep::Free)[TEMPO]);
        // Turned half a turn with colours swapped, a position scores the same for the mover.
        let a = Position::from_fen("pp6/8/8/3P4/8/8/8/6PP w", DiagonalStep::Free).unwrap();
        let b = Position::from_fen("pp6/8/8/8/4p3/8/8/6PP b", DiagonalStep::Free).unwrap();
        assert_eq!(features(&a), features(&b));
        assert_eq!(evaluate(&a), evaluate(&b));
    }

    #[test]
    fn evaluate_is_the_weighted_feature_sum() {
        // The square features come from a table for the evaluation and from the walk for
        // the features: along random games on every board, in both rule sets, they agree.
        let mut rng = crate::util::rng::Rng::new(3);
        let mut checked = 0;
        for files in MIN_FILES..=MAX_FILES {
            for ranks in MIN_RANKS..=MAX_RANKS {
                for diagonal in [DiagonalStep::Free, DiagonalStep::CaptureOnly] {
                    let g = Geometry::get(files, ranks).unwrap();
                    let w = weights(diagonal);
                    for _ in 0..3 {
                        let mut pos = Position::start(diagonal, g);
                        while pos.outcome().is_none() {
                            let f = features(&pos);
                            let sum = f.iter().zip(w).map(|(a, b)| a * b).sum::<i32>();
                            assert_eq!(evaluate(&pos), sum, "{}", pos.to_fen());
                            checked += 1;
                            let moves = pos.legal_moves();
                            pos.play(moves[rng.below(moves.len())]);
                        }
                    }
                }
            }
        }
        assert!(checked > 3000, "only {checked} positions checked");
    }

    #[test]
    fn pawn_structure_terms() {
        let f = |fen: &str| features(&Position::from_fen(fen, DiagonalStep::Free).unwrap());
        // White's d5 has one black pawn (e7) in its cone; Black's a7 has none near.
        assert_eq!(f("8/p3p3/8/3P4/8/8/8/8 w")[LONE_STOPPER], 1);
        assert_eq!(f("8/p3p3/8/3P4/8/8/8/8 b")[LONE_STOPPER], -1);
        assert_eq!(f("8/p2pp3/8/3P4/8/8/8/8 w")[LONE_STOPPER], 0);
        // d4 is attacked by c5 and e5 and defended only by c3: outnumbered.
        assert_eq!(f("8/8/8/2p1p3/3P4/2P5/8/8 w")[OUTNUMBERED], 1);
        assert_eq!(f("8/8/8/2p1p3/3P4/2P1P3/8/8 w")[OUTNUMBERED], 0);
        // Side by side: c3-d3-e3 is two pairs.
        assert_eq!(f("8/8/8/8/8/2PPP3/8/8 w")[PHALANX], 2);
        // Holes: the squares of a side's 2nd and 3rd ranks its pawns do not guard. a1..h1
        // guard all of White's 2nd rank (8 holes left); a8 guards only b7 (15).
        assert_eq!(f("p7/8/8/8/8/8/8/PPPPPPPP w")[HOLES], 8 - 15);
        // Supported: d6 (two steps) guarded by c5 and e5; c5 and e5 (three steps) by d4;
        // Black's g3 (two steps from rank 1) guarded by h4.
        let s = f("8/8/3P4/2P1P3/3P3p/6p1/8/8 w");
        assert_eq!((s[SUPPORTED_2], s[SUPPORTED_3]), (1 - 1, 2));
        assert_eq!(f("8/8/3P4/8/8/8/8/8 w")[SUPPORTED_2], 0);
    }

    /// Squares attacked by `color`'s pawns.
    fn attacks(pos: &Position, color: Color) -> u64 {
        let (left, right) = attacks_by_side(pos, color);
        left | right
    }

    /// The per-pawn features counted pawn by pawn, the plain way: the reference the
    /// mask-based `side_walk` must match.
    fn per_pawn_reference(pos: &Position) -> [i32; FEATURES] {
        let mut f = [0; FEATURES];
        let us = pos.side_to_move();
        let files = pos.files() as u32;
        let taken = (4 * files as i32 - pos.occupied().count_ones() as i32).max(0);
        let mut race = [(usize::MAX, usize::MAX, 0); 2];
        for (color, sign) in [(us, 1), (us.opponent(), -1)] {
            let (own, enemy) = (attacks(pos, color), attacks(pos, color.opponent()));
            for sq in 0..64u8 {
                if pos.pawns(color) & (1u64 << sq) == 0 {
                    continue;
                }
                let d = pos.steps_to_goal(color, Square::from_index(sq)) as usize;
                let file = sq as u32 % 8;
                let edge = file.min(files - 1 - file).min(3) as usize;
                f[PST + (d - 1) * 4 + edge] += sign;
                f[LATE_ADVANCE + d - 1] += sign * taken;
                if d + 1 == pos.ranks() as usize {
                    f[HOME + edge] += sign;
                }
                let (defended, attacked) = (own >> sq & 1 == 1, enemy >> sq & 1 == 1);
                f[SUPPORTED_2] += sign * (d == 2 && defended) as i32;
                f[SUPPORTED_3] += sign * (d == 3 && defended) as i32;
                f[UNCHALLENGED_3] += sign * (d == 3 && !attacked) as i32;
                f[UNCHALLENGED_4] += sign * (d == 4 && !attacked) as i32;
                let stoppers =
                    (CONES[color.index()][sq as usize] & pos.pawns(color.opponent())).count_ones();
                f[LONE_STOPPER] += sign * (stoppers == 1 && d <= 4) as i32;
                let r = &mut race[(sign < 0) as usize];
                r.0 = r.0.min(d);
                if stoppers == 0 {
                    r.1 = r.1.min(d);
                    r.2 += 1;
                }
            }
        }
        let ([ours, theirs], free) = (race, |d: usize| d != usize::MAX);
        f[FREE_PAWNS] = ours.2 - theirs.2;
        f[RACE_OURS] = (free(ours.1) && ours.1 <= theirs.0) as i32;
        f[RACE_THEIRS] = (f[RACE_OURS] == 0 && free(theirs.1) && theirs.1 < ours.0) as i32;
        f
    }

    #[test]
    fn mask_walk_matches_the_per_pawn_reference() {
        let per_pawn = [
            PST..PST + 28,
            HOME..HOME + 4,
            LATE_ADVANCE..LATE_ADVANCE + 7,
        ]
        .into_iter()
        .flatten()
        .chain([
            SUPPORTED_2,
            SUPPORTED_3,
            UNCHALLENGED_3,
            UNCHALLENGED_4,
            LONE_STOPPER,
            FREE_PAWNS,
            RACE_OURS,
            RACE_THEIRS,
        ])
        .collect::<Vec<_>>();
        let mut rng = crate::util::rng::Rng::new(7);
        let mut checked = 0;
        for (files, ranks) in [(8, 8), (8, 8), (5, 6), (3, 4), (6, 5), (7, 8)] {
            for diagonal in [DiagonalStep::Free, DiagonalStep::CaptureOnly] {
                let row = |c: &str| c.repeat(files);
                let mut rows = vec![row("p"), row("p")];
                rows.extend((0..ranks - 4).map(|_| files.to_string()));
                rows.extend([row("P"), row("P")]);
                let mut pos =
                    Position::from_fen(&format!("{} w", rows.join("/")), diagonal).unwrap();
                while pos.outcome().is_none() {
                    let (got, want) = (features(&pos), per_pawn_reference(&pos));
                    for &i in &per_pawn {
                        assert_eq!(got[i], want[i], "feature {i} of {}", pos.to_fen());
                    }
                    checked += 1;
                    let moves = pos.legal_moves();
                    pos.play(moves[rng.below(moves.len())]);
                }
            }
        }
        assert!(checked > 300, "only {checked} positions checked");
    }

    #[test]
    fn race_sees_an_unstoppable_pawn() {
        let race = |fen: &str| {
            let f = features(&Position::from_fen(fen, DiagonalStep::Free).unwrap());
            (f[RACE_OURS], f[RACE_THEIRS])
        };
        // White's d5 pawn has no black pawn in its cone; Black's h8 pawn is far away.
        assert_eq!(race("7p/8/8/3P4/8/8/8/8 w"), (1, 0));
        // A black pawn on e7 could still meet it.
        assert_eq!(race("8/4p3/8/3P4/8/8/8/8 w"), (0, 0));
        // Equal distance: the side to move arrives first.
        assert_eq!(race("8/8/8/7P/p7/8/8/8 w"), (1, 0));
        assert_eq!(race("8/8/8/7P/p7/8/8/8 b"), (1, 0));
        assert_eq!(race("8/8/8/7P/8/p7/8/8 w"), (0, 1));
    }
}
