//! FEN in Fairy-Stockfish's form: `pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w - - 0 1`.
//!
//! Ranks run from the top (highest) down; the board size is read from the ranks.
//! The trailing `- - 0 1` (castling, en passant, clocks) is optional on input,
//! checked for shape, ignored, and always written; XBoard's `w 0 1` (clocks only) is
//! read too.

use std::fmt;

use super::geometry::{Geometry, MAX_FILES, MAX_RANKS, MIN_FILES, MIN_RANKS};
use super::position::Position;
use super::types::{DiagonalStep, Square};
use crate::rulesets::common::{Color, Rules};

/// What is wrong with a FEN. Ranks are numbered as on the board (the first
/// field of the FEN describes the highest rank); `column` counts characters
/// from 1 within that rank's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Nothing but white space.
    Empty,
    /// A character that is neither `P`, `p`, a digit 1-8 nor `/`.
    UnknownCharacter {
        ch: char,
        rank: usize,
        column: usize,
    },
    /// An empty-square count of 0, or digits that run together (`11`).
    BadEmptyCount { rank: usize, column: usize },
    /// A rank with nothing in it (`//`).
    EmptyRank { rank: usize },
    /// A rank wider than the top rank.
    RankTooLong {
        rank: usize,
        squares: usize,
        expected: usize,
    },
    /// A rank narrower than the top rank.
    RankTooShort {
        rank: usize,
        squares: usize,
        expected: usize,
    },
    /// More than 8 ranks.
    TooManyRanks { found: usize },
    /// Fewer than 4 ranks.
    TooFewRanks { found: usize },
    /// The top rank's width is not 3 to 8 files.
    FilesOutOfRange { files: usize },
    /// No side-to-move field.
    MissingSideToMove,
    /// A side-to-move field other than `w` or `b`.
    BadSideToMove { found: String },
    /// A castling or en-passant field other than `-`, or a clock that is not a number.
    BadField { index: usize, found: String },
    /// More than six fields.
    TooManyFields { found: usize },
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FenError::*;
        match self {
            Empty => write!(f, "empty FEN"),
            UnknownCharacter { ch, rank, column } => write!(
                f,
                "unknown character '{}' in rank {rank} at column {column} (expected P, p, 1-8 or /)",
                ch.escape_debug()
            ),
            BadEmptyCount { rank, column } => {
                write!(
                    f,
                    "bad empty-square count in rank {rank} at column {column}"
                )
            }
            EmptyRank { rank } => write!(f, "rank {rank} is empty"),
            RankTooLong {
                rank,
                squares,
                expected,
            } => write!(
                f,
                "rank {rank} is too long: {squares} squares, but the top rank has {expected}"
            ),
            RankTooShort {
                rank,
                squares,
                expected,
            } => write!(
                f,
                "rank {rank} is too short: {squares} squares, but the top rank has {expected}"
            ),
            TooManyRanks { found } => {
                write!(f, "too many ranks: {found} (at most {MAX_RANKS})")
            }
            TooFewRanks { found } => write!(f, "too few ranks: {found} (at least {MIN_RANKS})"),
            FilesOutOfRange { files } => write!(
                f,
                "board width {files} out of range (files must be {MIN_FILES} to {MAX_FILES})"
            ),
            MissingSideToMove => write!(f, "missing side to move (w or b) after the board"),
            BadSideToMove { found } => write!(f, "bad side to move '{found}' (expected w or b)"),
            BadField { index, found } => write!(
                f,
                "bad field {index} '{found}' (castling and en passant must be '-', clocks numbers)"
            ),
            TooManyFields { found } => write!(f, "too many fields: {found} (at most 6)"),
        }
    }
}

impl std::error::Error for FenError {}

/// One rank's cells, file a first.
type Row = Vec<Option<Color>>;

/// Reads the board field into rows of cells, top rank first, and the width, checking the shape.
fn parse_board(board: &str) -> Result<(Vec<Row>, usize), FenError> {
    let texts: Vec<&str> = board.split('/').collect();
    let rank_count = texts.len();
    // Checked first, so a hostile FEN cannot make us build a huge board.
    if rank_count > MAX_RANKS as usize {
        return Err(FenError::TooManyRanks { found: rank_count });
    }
    if rank_count < MIN_RANKS as usize {
        return Err(FenError::TooFewRanks { found: rank_count });
    }
    let mut rows = Vec::with_capacity(rank_count);
    let mut width = 0;
    for (i, text) in texts.iter().enumerate() {
        let rank = rank_count - i;
        let mut row = Vec::new();
        let mut previous_digit = false;
        for (column, ch) in text.chars().enumerate().map(|(c, ch)| (c + 1, ch)) {
            match ch {
                'P' => row.push(Some(Color::White)),
                'p' => row.push(Some(Color::Black)),
                '0'..='9' => {
                    if ch == '0' || previous_digit {
                        return Err(FenError::BadEmptyCount { rank, column });
                    }
                    row.extend(std::iter::repeat_n(None, ch as usize - '0' as usize));
                }
                _ => return Err(FenError::UnknownCharacter { ch, rank, column }),
            }
            previous_digit = ch.is_ascii_digit();
            // Stop early so a hostile FEN cannot make us build a huge row.
            if row.len() > MAX_FILES as usize {
                return Err(if i == 0 {
                    FenError::FilesOutOfRange { files: row.len() }
                } else {
                    FenError::RankTooLong {
                        rank,
                        squares: row.len(),
                        expected: width,
                    }
                });
            }
        }
        if row.is_empty() {
            return Err(FenError::EmptyRank { rank });
        }
        if i == 0 {
            width = row.len();
            if !(MIN_FILES as usize..=MAX_FILES as usize).contains(&width) {
                return Err(FenError::FilesOutOfRange { files: width });
            }
        } else if row.len() > width {
            return Err(FenError::RankTooLong {
                rank,
                squares: row.len(),
                expected: width,
            });
        } else if row.len() < width {
            return Err(FenError::RankTooShort {
                rank,
                squares: row.len(),
                expected: width,
            });
        }
        rows.push(row);
    }
    Ok((rows, width))
}

/// Reads a FEN ([`crate::rulesets::Rules::from_fen`]).
pub(super) fn read(fen: &str, diagonal: DiagonalStep) -> Result<Position, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let Some(board) = fields.first() else {
        return Err(FenError::Empty);
    };
    let (rows, files) = parse_board(board)?;
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
    if fields.len() > 6 {
        return Err(FenError::TooManyFields {
            found: fields.len(),
        });
    }
    // XBoard's form leaves out castling and en passant: `w 0 1`.
    let clocks_only = fields.get(2).is_some_and(|f| f.parse::<u32>().is_ok());
    for (index, field) in fields.iter().enumerate().skip(2) {
        let ok = if clocks_only {
            index < 4 && field.parse::<u32>().is_ok()
        } else if index < 4 {
            *field == "-"
        } else {
            field.parse::<u32>().is_ok()
        };
        if !ok {
            return Err(FenError::BadField {
                index: index + 1,
                found: field.to_string(),
            });
        }
    }
    let ranks = rows.len();
    let geometry =
        Geometry::get(files as u8, ranks as u8).expect("parse_board checked the size range");
    let mut pawns = [0u64; 2];
    for (i, row) in rows.iter().enumerate() {
        let rank = (ranks - 1 - i) as u8;
        for (file, cell) in row.iter().enumerate() {
            if let Some(color) = cell {
                pawns[color.index()] |= Square::new(file as u8, rank).bit();
            }
        }
    }
    Ok(Position::from_parts(pawns, side, diagonal, geometry))
}

/// Writes the FEN as Fairy-Stockfish does, with `- - 0 1` at the end.
pub(super) fn write(pos: &Position) -> String {
    let g = pos.geometry();
    let mut out = String::new();
    for rank in (0..g.ranks).rev() {
        let mut empty = 0;
        for file in 0..g.files {
            match pos.pawn_at(Square::new(file, rank)) {
                None => empty += 1,
                Some(color) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(if color == Color::White { 'P' } else { 'p' });
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out.push(' ');
    out.push(pos.side_to_move().fen_char());
    out.push_str(" - - 0 1");
    out
}
