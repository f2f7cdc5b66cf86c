//! A toy rule set, compiled for tests only: the smallest example of adding a rule set.
//! It lives in this folder and is registered by one line in `crate::registry`, the path
//! every real rule set takes; the tests then play it through the engine facade, the
//! protocol's commands and the search.
//!
//! The game: a heap of stones; the players take one or two in turn, and whoever takes
//! the last stone wins. FEN: the heap and the side to move (`7 w`); a move is the
//! number taken (`1` or `2`). With best play the side to move loses exactly when the
//! heap is a multiple of three.

use std::fmt;

use super::{Color, EndReason, Evaluate, Outcome, Rules, SearchRules, TermGroup};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Position {
    stones: u16,
    side: Color,
}

/// Stones taken: 1 or 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Take(u16);

impl fmt::Display for Take {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum FenError {
    #[error("expected the heap and the side to move, like '7 w'")]
    Shape,
}

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum MoveError {
    #[error("'{0}' is not a move (expected 1 or 2)")]
    Syntax(String),
    #[error("only {0} stones are left")]
    TooMany(u16),
}

impl Rules for Position {
    type Move = Take;
    type Moves = Vec<Take>;
    type Config = ();
    type FenError = FenError;
    type MoveError = MoveError;

    fn startpos(_: ()) -> Position {
        Position {
            stones: 10,
            side: Color::White,
        }
    }

    fn from_fen(fen: &str, _: ()) -> Result<Position, FenError> {
        match fen.split_whitespace().collect::<Vec<_>>()[..] {
            [stones, side] => Ok(Position {
                stones: stones
                    .parse()
                    .ok()
                    .filter(|&n| n < 1000)
                    .ok_or(FenError::Shape)?,
                side: match side {
                    "w" => Color::White,
                    "b" => Color::Black,
                    _ => return Err(FenError::Shape),
                },
            }),
            _ => Err(FenError::Shape),
        }
    }

    fn to_fen(&self) -> String {
        format!("{} {}", self.stones, self.side.fen_char())
    }

    fn read_move(text: &str) -> Result<Take, MoveError> {
        match text {
            "1" => Ok(Take(1)),
            "2" => Ok(Take(2)),
            _ => Err(MoveError::Syntax(text.to_string())),
        }
    }

    fn check_move(&self, m: Take) -> Result<(), MoveError> {
        match m.0 <= self.stones {
            true => Ok(()),
            false => Err(MoveError::TooMany(self.stones)),
        }
    }

    fn diagram(&self) -> String {
        format!("{} stones\n", self.stones)
    }

    fn board(&self) -> (u8, u8) {
        (1, 1)
    }

    const PACKED_BYTES: usize = 3;

    fn pack(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.stones.to_le_bytes());
        out.push(self.side.index() as u8);
    }

    fn unpack(bytes: &[u8], _: ()) -> Option<Position> {
        let side = match bytes {
            [_, _, 0] => Color::White,
            [_, _, 1] => Color::Black,
            _ => return None,
        };
        let stones = u16::from_le_bytes([bytes[0], bytes[1]]);
        (stones < 1000).then_some(Position { stones, side })
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    fn hash(&self) -> u64 {
        u64::from(self.stones) * 2 + self.side.index() as u64
    }

    fn legal_moves(&self) -> Vec<Take> {
        (1..=self.stones.min(2)).map(Take).collect()
    }

    fn play(&mut self, m: Take) {
        self.stones -= m.0;
        self.side = self.side.opponent();
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.stones == 0).then(|| Outcome::win(self.side.opponent(), EndReason::NoPieces))
    }

    fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            _ => self
                .legal_moves()
                .iter()
                .map(|&m| {
                    let mut child = *self;
                    Rules::play(&mut child, m);
                    child.perft(depth - 1)
                })
                .sum(),
        }
    }

    fn encode(m: Take) -> u16 {
        m.0
    }

    fn decode(code: u16) -> Option<Take> {
        (1..=2).contains(&code).then_some(Take(code))
    }
}

impl SearchRules for Position {
    fn play_null(&mut self) {
        self.side = self.side.opponent();
    }

    fn null_move_allowed(&self) -> bool {
        false
    }

    fn winning_move(&self) -> Option<Take> {
        (1..=2).contains(&self.stones).then_some(Take(self.stones))
    }

    fn win_in_two(&self) -> Option<Take> {
        None
    }

    fn opponent_threatens_win(&self) -> bool {
        (1..=2).contains(&self.stones)
    }

    fn is_tactical(&self, _m: Take) -> bool {
        false
    }

    fn tactical_order(&self, _m: Take) -> i32 {
        0
    }

    fn steps_to_goal_after(&self, _m: Take) -> u8 {
        u8::MAX
    }
}

impl Evaluate for Position {
    type Rules = Position;

    fn new(pos: Position) -> Position {
        pos
    }

    fn rules(&self) -> &Position {
        self
    }

    fn rules_mut(&mut self) -> &mut Position {
        self
    }

    fn evaluate(&self) -> i32 {
        self.features()[0] * self.weights()[0]
    }

    /// One feature: +1 when the heap is not a multiple of three (a won heap), else -1.
    fn features(&self) -> Vec<i32> {
        vec![if self.stones.is_multiple_of(3) { -1 } else { 1 }]
    }

    fn weights(&self) -> &'static [i32] {
        &[50]
    }

    const TERMS: &'static [TermGroup] = &[TermGroup::new("won heap", 0, 1)];

    fn material(&self, _color: Color) -> (i32, i32) {
        (0, 0)
    }
}
