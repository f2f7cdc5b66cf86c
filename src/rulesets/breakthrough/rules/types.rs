//! Small value types of the rules: squares, moves, the diagonal rule.

use std::fmt;

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

    /// The square across the board's middle file, on a board `files` wide.
    #[inline]
    pub const fn mirrored(self, files: u8) -> Square {
        Square::new(files - 1 - self.file(), self.rank())
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

    /// The same step across the board's middle file, on a board `files` wide: the move
    /// of [`Position::mirrored`](super::Position::mirrored).
    #[inline]
    pub const fn mirrored(self, files: u8) -> Move {
        Move::new(self.from().mirrored(files), self.to().mirrored(files))
    }

    /// The raw 12-bit encoding, for packing into tables.
    #[inline]
    pub const fn to_bits(self) -> u16 {
        self.0
    }

    /// Inverse of [`Move::to_bits`]: any two different squares, a step or not (legality
    /// is the position's to check); `None` for bits above the twelfth or a move from a
    /// square to itself.
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
    /// use breakthrough::rulesets::breakthrough::Move;
    /// let m = Move::from_uci("b2c3").unwrap();
    /// assert_eq!(m.to_string(), "b2c3");
    /// assert!(Move::from_uci("b2").is_err());
    /// ```
    pub fn from_uci(text: &str) -> Result<Move, super::MoveError> {
        let bad = || super::MoveError::Syntax(text.to_string());
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

/// Where a diagonal step may go: the one difference between the two rule sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum DiagonalStep {
    /// Troyka's standard rules: to an empty square, or onto an enemy pawn, capturing it.
    #[default]
    Free,
    /// Capture-only Breakthrough: a diagonal step must capture.
    CaptureOnly,
}

impl DiagonalStep {
    /// Both rules.
    pub const ALL: [DiagonalStep; 2] = [DiagonalStep::Free, DiagonalStep::CaptureOnly];

    /// The rule set's name, as files written by the solver give it (the registry's
    /// name of the same rule set).
    pub const fn name(self) -> &'static str {
        match self {
            DiagonalStep::Free => "breakthrough",
            DiagonalStep::CaptureOnly => "capture-only",
        }
    }

    /// The rule of [`DiagonalStep::name`].
    pub fn from_name(name: &str) -> Option<DiagonalStep> {
        DiagonalStep::ALL.into_iter().find(|d| d.name() == name)
    }
}
