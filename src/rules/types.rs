//! Small value types shared by the rules: colours, squares, moves, variants.

use std::fmt;
use std::str::FromStr;

/// A side. White moves first, toward the highest rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    /// Index for per-colour arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The FEN letter for the side to move: `w` or `b`.
    pub const fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// A square on the 8-wide bit layout: `index = rank * 8 + file`, `a1 = 0`.
///
/// Every board size uses the same layout, so shifts by 8 always mean "one rank";
/// squares outside a smaller board are simply never set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// `file` and `rank` count from 0; both must be below 8.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        debug_assert!(file < 8 && rank < 8);
        Square(rank * 8 + file)
    }

    /// The square with bit index `index` (0..64).
    #[inline]
    pub const fn from_index(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    #[inline]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// A move: a pawn steps from one square to another. Two bytes.
///
/// Whether it captures follows from the position, so it is not stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move(u16);

impl Move {
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 6)
    }

    #[inline]
    pub const fn from(self) -> Square {
        Square((self.0 & 63) as u8)
    }

    #[inline]
    pub const fn to(self) -> Square {
        Square((self.0 >> 6) as u8)
    }

    /// The raw 12-bit encoding, for packing into tables.
    #[inline]
    pub const fn to_bits(self) -> u16 {
        self.0
    }

    /// Inverse of [`Move::to_bits`]; `None` for encodings that are not a step.
    pub const fn from_bits(bits: u16) -> Option<Move> {
        let m = Move(bits & 0x0fff);
        if bits >> 12 != 0 || m.from().0 == m.to().0 {
            None
        } else {
            Some(m)
        }
    }

    /// Parses `a2a3`-style text without looking at any position.
    ///
    /// ```
    /// use breakthrough::rules::Move;
    /// let m = Move::from_uci("b2c3").unwrap();
    /// assert_eq!(m.to_string(), "b2c3");
    /// assert!(Move::from_uci("b2").is_err());
    /// ```
    pub fn from_uci(text: &str) -> Result<Move, crate::rules::MoveError> {
        let bad = || crate::rules::MoveError::Syntax(text.to_string());
        let b = text.as_bytes();
        if b.len() != 4 {
            return Err(bad());
        }
        let square = |f: u8, r: u8| -> Option<Square> {
            let file = f.checked_sub(b'a').filter(|&x| x < 8)?;
            let rank = r.checked_sub(b'1').filter(|&x| x < 8)?;
            Some(Square::new(file, rank))
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
        write!(f, "{}{}", self.from(), self.to())
    }
}

/// The rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    /// Troyka's standard rules: diagonal steps may go to an empty square or capture.
    #[default]
    Breakthrough,
    /// A diagonal step must capture.
    CaptureOnly,
}

impl Variant {
    pub const ALL: [Variant; 2] = [Variant::Breakthrough, Variant::CaptureOnly];

    pub const fn name(self) -> &'static str {
        match self {
            Variant::Breakthrough => "breakthrough",
            Variant::CaptureOnly => "capture-only",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for an unknown variant name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown variant '{}' (expected breakthrough or capture-only)",
            self.0
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

/// Why a game ended. Breakthrough has no draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinReason {
    /// A pawn reached the far rank.
    GoalReached,
    /// The loser has no pawns left.
    NoPawns,
    /// The loser has no legal move on their turn.
    NoMoves,
}

impl fmt::Display for WinReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WinReason::GoalReached => "reached the goal rank",
            WinReason::NoPawns => "captured every enemy pawn",
            WinReason::NoMoves => "opponent has no legal move",
        })
    }
}

/// The end of a game: who won and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winner: Color,
    pub reason: WinReason,
}
