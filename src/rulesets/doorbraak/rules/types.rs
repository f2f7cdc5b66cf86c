//! Squares and moves of the 5x9 board.

use std::fmt;

use crate::rulesets::common::Color;

pub const FILES: u8 = 5;
pub const RANKS: u8 = 9;
pub const SQUARES: usize = 45;

/// A square: `index = rank * 5 + file`, `a1 = 0`, `e9 = 44`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// `None` off the board.
    #[inline]
    pub const fn at(file: i8, rank: i8) -> Option<Square> {
        if file >= 0 && file < FILES as i8 && rank >= 0 && rank < RANKS as i8 {
            Some(Square((rank * FILES as i8 + file) as u8))
        } else {
            None
        }
    }

    /// The square with index `index` (below 45).
    #[inline]
    pub const fn from_index(index: u8) -> Square {
        debug_assert!((index as usize) < SQUARES);
        Square(index)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    #[inline]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// On file a or e: room for one stone, and it explodes in two directions.
    #[inline]
    pub const fn is_edge(self) -> bool {
        self.file() == 0 || self.file() == FILES - 1
    }

    /// Stones the square holds without exploding: 1 on the edge files, 2 elsewhere.
    #[inline]
    pub const fn capacity(self) -> u8 {
        if self.is_edge() { 1 } else { 2 }
    }

    /// The rank counted from `color`'s side, 1 to 9 (White's 7th is rank 7, Black's is rank 3).
    #[inline]
    pub const fn relative_rank(self, color: Color) -> u8 {
        match color {
            Color::White => self.rank() + 1,
            Color::Black => RANKS - self.rank(),
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// A move: the whole stack on one square slides to another, or a pass. Two bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move(u16);

impl Move {
    /// Passing the turn, written `0000`. Its code (all ones) is no square pair.
    pub const PASS: Move = Move(0x0fff);

    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 6)
    }

    #[inline]
    pub const fn is_pass(self) -> bool {
        self.0 == Move::PASS.0
    }

    /// Meaningless for a pass.
    #[inline]
    pub const fn from(self) -> Square {
        Square((self.0 & 63) as u8)
    }

    /// Meaningless for a pass.
    #[inline]
    pub const fn to(self) -> Square {
        Square((self.0 >> 6) as u8)
    }

    /// The 12-bit code, for tables.
    #[inline]
    pub const fn to_bits(self) -> u16 {
        self.0
    }

    /// Inverse of [`Move::to_bits`]; `None` for codes that are no move.
    pub const fn from_bits(bits: u16) -> Option<Move> {
        let m = Move(bits);
        if m.is_pass() {
            return Some(m);
        }
        let (from, to) = ((bits & 63) as usize, ((bits >> 6) & 63) as usize);
        if bits >> 12 != 0 || from >= SQUARES || to >= SQUARES || from == to {
            None
        } else {
            Some(m)
        }
    }

    /// Parses `b2a1` or `0000` without looking at a position.
    ///
    /// ```
    /// use breakthrough::rulesets::doorbraak::Move;
    /// assert_eq!(Move::from_uci("b2a1").unwrap().to_string(), "b2a1");
    /// assert!(Move::from_uci("0000").unwrap().is_pass());
    /// assert!(Move::from_uci("f1a1").is_err()); // the board has files a-e
    /// ```
    pub fn from_uci(text: &str) -> Result<Move, super::MoveError> {
        if text == "0000" {
            return Ok(Move::PASS);
        }
        let bad = || super::MoveError::Syntax(text.to_string());
        let b = text.as_bytes();
        if b.len() != 4 {
            return Err(bad());
        }
        let square = |f: u8, r: u8| {
            let file = f.checked_sub(b'a')?;
            let rank = r.checked_sub(b'1')?;
            Square::at(file as i8, rank as i8)
        };
        let from = square(b[0], b[1]).ok_or_else(bad)?;
        let to = square(b[2], b[3]).ok_or_else(bad)?;
        if from == to {
            return Err(bad());
        }
        Ok(Move::new(from, to))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            f.write_str("0000")
        } else {
            write!(f, "{}{}", self.from(), self.to())
        }
    }
}
