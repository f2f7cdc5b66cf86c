//! Doorbraak FEN: nine ranks from 9 down to 1, `P`/`Q` one or two White stones,
//! `p`/`q` Black's, digits for empty squares; the side to move; optionally the
//! passes just made (0 or 1; 2 means the game ended in a draw).
//! Start: `ppppp/ppppp/5/5/5/5/5/PPPPP/PPPPP w 0`.

use std::fmt;

use super::position::Position;
use super::types::{FILES, RANKS, Square};
use crate::rulesets::common::{Color, Rules};

/// What is wrong with a Doorbraak FEN. Ranks are numbered as on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    Empty,
    /// Not `P`, `Q`, `p`, `q`, a digit 1-5 or `/`.
    UnknownCharacter {
        ch: char,
        rank: usize,
    },
    /// An empty count of 0 or more than 5, or two digits in a row.
    BadEmptyCount {
        rank: usize,
    },
    /// A rank with more or fewer than 5 squares.
    WrongRankWidth {
        rank: usize,
        squares: usize,
    },
    /// Not 9 ranks.
    WrongRankCount {
        found: usize,
    },
    /// A stack of two (`Q`/`q`) on an edge square, which holds one stone.
    StackOnEdge {
        square: Square,
    },
    MissingSideToMove,
    BadSideToMove {
        found: String,
    },
    /// A pass count other than 0, 1 or 2.
    BadPassCount {
        found: String,
    },
    TooManyFields {
        found: usize,
    },
    /// Both sides have a stone on their 9th rank, or neither side has a stone.
    ImpossiblePosition(&'static str),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FenError::*;
        match self {
            Empty => write!(f, "empty FEN"),
            UnknownCharacter { ch, rank } => write!(
                f,
                "unexpected '{ch}' in rank {rank} (expected P, Q, p, q, 1-5 or /)"
            ),
            BadEmptyCount { rank } => {
                write!(
                    f,
                    "rank {rank}: an empty-square count must be one digit 1-5"
                )
            }
            WrongRankWidth { rank, squares } => {
                write!(
                    f,
                    "rank {rank} has {squares} squares; Doorbraak has 5 files"
                )
            }
            WrongRankCount { found } => {
                write!(f, "{found} ranks; Doorbraak has 9")
            }
            StackOnEdge { square } => {
                write!(f, "a stack of two on {square}: edge squares hold one stone")
            }
            MissingSideToMove => write!(f, "missing side to move (w or b)"),
            BadSideToMove { found } => write!(f, "side to move '{found}' is not w or b"),
            BadPassCount { found } => {
                write!(f, "pass count '{found}' is not 0, 1 or 2")
            }
            TooManyFields { found } => write!(
                f,
                "{found} fields; expected board, side to move and an optional pass count"
            ),
            ImpossiblePosition(why) => write!(f, "impossible position: {why}"),
        }
    }
}

impl std::error::Error for FenError {}

/// Reads a Doorbraak FEN ([`crate::rulesets::Rules::from_fen`]).
pub(super) fn read(fen: &str) -> Result<Position, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let Some(board) = fields.first() else {
        return Err(FenError::Empty);
    };
    if fields.len() > 3 {
        return Err(FenError::TooManyFields {
            found: fields.len(),
        });
    }
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != RANKS as usize {
        return Err(FenError::WrongRankCount { found: rows.len() });
    }
    let (mut one, mut two) = ([0u64; 2], [0u64; 2]);
    for (i, row) in rows.iter().enumerate() {
        let rank = RANKS as usize - i;
        let mut file = 0usize;
        let mut after_digit = false;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                if after_digit || d == 0 || d > FILES as u32 {
                    return Err(FenError::BadEmptyCount { rank });
                }
                file += d as usize;
                after_digit = true;
                continue;
            }
            after_digit = false;
            let (color, stones) = match ch {
                'P' => (Color::White, 1),
                'Q' => (Color::White, 2),
                'p' => (Color::Black, 1),
                'q' => (Color::Black, 2),
                _ => return Err(FenError::UnknownCharacter { ch, rank }),
            };
            if file < FILES as usize {
                let square = Square::at(file as i8, rank as i8 - 1).expect("file and rank checked");
                if stones == 2 && square.is_edge() {
                    return Err(FenError::StackOnEdge { square });
                }
                let board = if stones == 1 { &mut one } else { &mut two };
                board[color.index()] |= square.bit();
            }
            file += 1;
        }
        if file != FILES as usize {
            return Err(FenError::WrongRankWidth {
                rank,
                squares: file,
            });
        }
    }
    let side = match fields.get(1) {
        None => return Err(FenError::MissingSideToMove),
        Some(&"w") => Color::White,
        Some(&"b") => Color::Black,
        Some(other) => {
            return Err(FenError::BadSideToMove {
                found: other.to_string(),
            });
        }
    };
    let passes = match fields.get(2) {
        None => 0,
        Some(text) => match text.parse::<u8>() {
            Ok(n) if n <= 2 => n,
            _ => {
                return Err(FenError::BadPassCount {
                    found: text.to_string(),
                });
            }
        },
    };
    let pos = Position::from_parts(one, two, side, passes);
    let white_goal = (one[0] | two[0]) >> (8 * FILES) != 0;
    let black_goal = (one[1] | two[1]) & ((1 << FILES) - 1) != 0;
    if white_goal && black_goal {
        return Err(FenError::ImpossiblePosition(
            "both sides have a stone on their 9th rank",
        ));
    }
    if pos.occupied_by(Color::White) == 0 && pos.occupied_by(Color::Black) == 0 {
        return Err(FenError::ImpossiblePosition("the board is empty"));
    }
    Ok(pos)
}

/// The FEN of this position, pass count always written.
pub(super) fn write(pos: &Position) -> String {
    let mut rows = Vec::new();
    for rank in (0..RANKS).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..FILES {
            let square = Square::at(file as i8, rank as i8).expect("on the board");
            let ch = match pos.stones_at(square) {
                None => {
                    empty += 1;
                    continue;
                }
                Some((Color::White, 1)) => 'P',
                Some((Color::White, _)) => 'Q',
                Some((Color::Black, 1)) => 'p',
                Some((Color::Black, _)) => 'q',
            };
            if empty > 0 {
                row.push_str(&empty.to_string());
                empty = 0;
            }
            row.push(ch);
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    format!(
        "{} {} {}",
        rows.join("/"),
        pos.side_to_move().fen_char(),
        pos.passes()
    )
}
