//! The position: two bitboards, the side to move, the board size and rule set,
//! and an incrementally kept Zobrist hash.

use std::fmt;

use super::fen::{self, FenError};
use super::geometry::Geometry;
use super::perft;
use super::types::{DiagonalStep, Move, Square};
use super::zobrist;
use crate::rulesets::common::{Color, EndReason, Outcome, Rules, SearchRules};

/// Upper bound on the moves of one position. White pawns stand on at most 7 ranks
/// (one on rank 8 ends the game), so straight steps reach at most 56 squares and
/// each diagonal at most 49: 154 in all.
pub const MAX_MOVES: usize = 154;

/// A fixed-capacity list of moves; no allocation.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    fn new() -> MoveList {
        MoveList {
            moves: [Move::new(Square::from_index(0), Square::from_index(8)); MAX_MOVES],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl std::ops::DerefMut for MoveList {
    fn deref_mut(&mut self) -> &mut [Move] {
        self.as_mut_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// Why a move cannot be played in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not of the form `a2a3`.
    Syntax(String),
    /// A square outside this board.
    OffBoard(Square),
    /// No pawn stands on the from-square.
    NoPawn(Square),
    /// The pawn on the from-square belongs to the side not to move.
    NotYourPawn(Square),
    /// Not a one-square step forward (straight or diagonal).
    NotAForwardStep(Move),
    /// A straight step onto an occupied square (straight steps never capture).
    Blocked(Move),
    /// A diagonal step onto one's own pawn.
    OwnPawn(Move),
    /// Capture-only rules: a diagonal step to an empty square.
    DiagonalWithoutCapture(Move),
    /// The game is already over.
    GameOver,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(text) => {
                write!(
                    f,
                    "'{text}' is not a move (expected from and to square, like a2a3)"
                )
            }
            MoveError::OffBoard(s) => write!(f, "square {s} is not on this board"),
            MoveError::NoPawn(s) => write!(f, "no pawn on {s}"),
            MoveError::NotYourPawn(s) => {
                write!(f, "the pawn on {s} belongs to the side not to move")
            }
            MoveError::NotAForwardStep(m) => {
                write!(
                    f,
                    "{m} is not a one-square step forward or diagonally forward"
                )
            }
            MoveError::Blocked(m) => {
                write!(f, "{m} is blocked: a straight step needs an empty square")
            }
            MoveError::OwnPawn(m) => write!(f, "{m} lands on the mover's own pawn"),
            MoveError::DiagonalWithoutCapture(m) => {
                write!(
                    f,
                    "{m} is a diagonal step without a capture (capture-only rules)"
                )
            }
            MoveError::GameOver => write!(f, "the game is over: no move can be played"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Targets of one side's steps, one bitboard per direction:
/// `[straight, toward a lower file, toward a higher file]`.
/// Each target square is reached from exactly one square per direction.
/// `WHITE` is the mover's colour, a constant so the shifts compile to immediates.
#[inline(always)]
pub(super) fn step_targets<const WHITE: bool>(
    us: u64,
    them: u64,
    g: &Geometry,
    diagonal: DiagonalStep,
) -> [u64; 3] {
    let empty = g.board & !(us | them);
    let diagonal_ok = match diagonal {
        DiagonalStep::Free => empty | them,
        DiagonalStep::CaptureOnly => them,
    };
    let (straight, lower, higher) = if WHITE {
        (
            us << 8,
            (us & g.not_first_file) << 7,
            (us & g.not_last_file) << 9,
        )
    } else {
        (
            us >> 8,
            (us & g.not_first_file) >> 9,
            (us & g.not_last_file) >> 7,
        )
    };
    [straight & empty, lower & diagonal_ok, higher & diagonal_ok]
}

/// `bb` reflected across the middle file of a board `files` wide: each rank's byte has
/// its bits reversed (file `f` to `7 - f`), then moves down by the files the board lacks.
/// No bit crosses into the next rank: files `files..8` are empty.
#[inline]
pub fn mirror_files(bb: u64, files: u8) -> u64 {
    bb.reverse_bits().swap_bytes() >> (8 - files)
}

/// A Breakthrough position on any board from 3x4 to 8x8, in either rule set.
///
/// ```
/// use breakthrough::rulesets::Rules;
/// use breakthrough::rulesets::breakthrough::{DiagonalStep, Position};
/// let mut pos = Position::startpos(DiagonalStep::Free);
/// assert_eq!(pos.legal_moves().len(), 22);
/// let m = pos.parse_move("b2c3").unwrap();
/// pos.try_play(m).unwrap();
/// assert!(pos.try_play(m).is_err()); // c3 is White's now, and Black is to move
/// ```
#[derive(Clone, Copy)]
pub struct Position {
    pawns: [u64; 2],
    side: Color,
    diagonal: DiagonalStep,
    geometry: &'static Geometry,
    hash: u64,
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.pawns == other.pawns
            && self.side == other.side
            && self.diagonal == other.diagonal
            && std::ptr::eq(self.geometry, other.geometry)
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({:?} {})", self.diagonal, self.to_fen())
    }
}

impl Position {
    /// The start position of any supported board: each side fills its first two ranks.
    pub fn start(diagonal: DiagonalStep, geometry: &'static Geometry) -> Position {
        Position::from_parts(geometry.home, Color::White, diagonal, geometry)
    }

    /// Builds a position from bitboards; squares off the board are dropped.
    pub fn from_parts(
        pawns: [u64; 2],
        side: Color,
        diagonal: DiagonalStep,
        geometry: &'static Geometry,
    ) -> Position {
        let white = pawns[0] & geometry.board;
        let mut pos = Position {
            pawns: [white, pawns[1] & geometry.board & !white],
            side,
            diagonal,
            geometry,
            hash: 0,
        };
        pos.hash = pos.hash_from_scratch();
        pos
    }

    /// Where diagonal steps may go: the rule set.
    #[inline]
    pub fn diagonal_step(&self) -> DiagonalStep {
        self.diagonal
    }

    #[inline]
    pub fn geometry(&self) -> &'static Geometry {
        self.geometry
    }

    #[inline]
    pub fn files(&self) -> u8 {
        self.geometry.files
    }

    #[inline]
    pub fn ranks(&self) -> u8 {
        self.geometry.ranks
    }

    /// Steps a pawn of `color` on `square` still has to go to its goal rank.
    #[inline]
    pub fn steps_to_goal(&self, color: Color, square: Square) -> u8 {
        match color {
            Color::White => self.geometry.ranks - 1 - square.rank(),
            Color::Black => square.rank(),
        }
    }

    /// Moves `color` has made at least to reach this position: every move steps one pawn
    /// one rank forward, and a pawn beyond its side's second rank took a step for each rank
    /// past it. Captured pawns' steps are not seen, so this is a lower bound.
    pub fn moves_made_by(&self, color: Color) -> u64 {
        let from_second_rank = self.geometry.ranks - 2;
        let mut pawns = self.pawns(color);
        let mut steps = 0;
        while pawns != 0 {
            let square = Square::from_index(pawns.trailing_zeros() as u8);
            pawns &= pawns - 1;
            steps += u64::from(from_second_rank.saturating_sub(self.steps_to_goal(color, square)));
        }
        steps
    }

    /// The pawns of one colour as a bitboard (bit `rank * 8 + file`).
    #[inline]
    pub fn pawns(&self, color: Color) -> u64 {
        self.pawns[color.index()]
    }

    #[inline]
    pub fn occupied(&self) -> u64 {
        self.pawns[0] | self.pawns[1]
    }

    /// The colour of the pawn on `square`, if any.
    pub fn pawn_at(&self, square: Square) -> Option<Color> {
        if self.pawns[0] & square.bit() != 0 {
            Some(Color::White)
        } else if self.pawns[1] & square.bit() != 0 {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The hash computed from nothing; equals [`Position::hash`] (tests check this).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = zobrist::size_key(self.geometry.files, self.geometry.ranks);
        for color in [Color::White, Color::Black] {
            let mut bb = self.pawns[color.index()];
            while bb != 0 {
                h ^= zobrist::pawn_key(color.index(), bb.trailing_zeros() as usize);
                bb &= bb - 1;
            }
        }
        if self.side == Color::Black {
            h ^= zobrist::black_to_move_key();
        }
        h
    }

    /// True when a pawn of either side stands on its goal rank: the game is over.
    #[inline]
    pub fn goal_reached(&self) -> bool {
        (self.pawns[0] & self.geometry.goal[0]) | (self.pawns[1] & self.geometry.goal[1]) != 0
    }

    /// Targets of the side to move's steps; see [`step_targets`].
    #[inline]
    fn step_targets(&self) -> [u64; 3] {
        let us = self.pawns[self.side.index()];
        let them = self.pawns[self.side.opponent().index()];
        match self.side {
            Color::White => step_targets::<true>(us, them, self.geometry, self.diagonal),
            Color::Black => step_targets::<false>(us, them, self.geometry, self.diagonal),
        }
    }

    /// Bit offset from target back to origin for each direction of [`Self::step_targets`].
    #[inline]
    fn step_offsets(&self) -> [i8; 3] {
        match self.side {
            Color::White => [-8, -7, -9],
            Color::Black => [8, 9, 7],
        }
    }

    /// The legal moves onto `squares` (a bitboard, bit `8 * rank + file`), in the order of
    /// [`Self::legal_moves`]: the moves to one rank, or onto one square.
    ///
    /// ```
    /// use breakthrough::rulesets::Rules;
    /// use breakthrough::rulesets::breakthrough::{DiagonalStep, Position};
    /// let pos = Position::from_fen("5/5/2p2/1P1P1/5 w", DiagonalStep::Free).unwrap();
    /// let c3 = pos.parse_move("b2c3").unwrap().to();
    /// let takes = pos.legal_moves_onto(c3.bit());
    /// assert_eq!(takes.len(), 2); // b2 and d2 take c3
    /// assert_eq!(pos.legal_moves_onto(0xff << 16).len(), 6); // six moves to rank 3
    /// ```
    pub fn legal_moves_onto(&self, squares: u64) -> MoveList {
        let mut list = MoveList::new();
        self.push_moves_onto(squares, &mut list);
        list
    }

    /// Every legal move, captures first, each group in the order of
    /// [`Self::legal_moves`]: for searches that try captures before other moves.
    ///
    /// ```
    /// use breakthrough::rulesets::Rules;
    /// use breakthrough::rulesets::breakthrough::{DiagonalStep, Position};
    /// let pos = Position::from_fen("5/5/2p2/1P1P1/5 w", DiagonalStep::Free).unwrap();
    /// let moves = pos.legal_moves_captures_first();
    /// assert_eq!(moves.len(), pos.legal_moves().len());
    /// assert!(moves.iter().take(2).all(|&m| pos.is_capture(m)));
    /// assert!(!moves.iter().skip(2).any(|&m| pos.is_capture(m)));
    /// ```
    pub fn legal_moves_captures_first(&self) -> MoveList {
        let enemies = self.pawns[self.side.opponent().index()];
        let mut list = MoveList::new();
        self.push_moves_onto(enemies, &mut list);
        self.push_moves_onto(!enemies, &mut list);
        list
    }

    /// Pushes the legal moves onto `squares`, direction by direction.
    #[inline]
    fn push_moves_onto(&self, squares: u64, list: &mut MoveList) {
        if self.goal_reached() {
            return;
        }
        let offsets = self.step_offsets();
        for (targets, offset) in self.step_targets().into_iter().zip(offsets) {
            let mut targets = targets & squares;
            while targets != 0 {
                let to = targets.trailing_zeros() as i8;
                targets &= targets - 1;
                list.push(Move::new(
                    Square::from_index((to + offset) as u8),
                    Square::from_index(to as u8),
                ));
            }
        }
    }

    /// The number of legal moves, by popcount (no list is built).
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        if self.goal_reached() {
            return 0;
        }
        let [a, b, c] = self.step_targets();
        (a.count_ones() + b.count_ones() + c.count_ones()) as u64
    }

    /// Squares on the mover's goal rank that `color` could step to now: non-zero means
    /// `color` would win at once if it were to move.
    #[inline]
    fn goal_steps(&self, color: Color) -> u64 {
        let us = self.pawns[color.index()];
        let them = self.pawns[color.opponent().index()];
        let [a, b, c] = match color {
            Color::White => step_targets::<true>(us, them, self.geometry, self.diagonal),
            Color::Black => step_targets::<false>(us, them, self.geometry, self.diagonal),
        };
        (a | b | c) & self.geometry.goal[color.index()]
    }

    /// The squares pawns of `color` attack: where they could capture an enemy pawn.
    #[inline]
    pub fn attacks(&self, color: Color) -> u64 {
        let g = self.geometry;
        let pawns = self.pawns[color.index()];
        let attacks = match color {
            Color::White => ((pawns & g.not_first_file) << 7) | ((pawns & g.not_last_file) << 9),
            Color::Black => ((pawns & g.not_first_file) >> 9) | ((pawns & g.not_last_file) >> 7),
        };
        attacks & g.board
    }

    /// True if the move is a capture in this position.
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        self.pawns[self.side.opponent().index()] & m.to().bit() != 0
    }

    /// Reads `a2a3`-style text as a legal move of this position.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let m = Move::from_uci(text)?;
        self.check_move(m)?;
        Ok(m)
    }

    /// Plays `m` if it is legal; otherwise leaves the position unchanged and says why.
    pub fn try_play(&mut self, m: Move) -> Result<(), MoveError> {
        self.check_move(m)?;
        self.play(m);
        Ok(())
    }

    /// The position after `m` (copy-make).
    #[inline]
    pub fn child(&self, m: Move) -> Position {
        let mut next = *self;
        next.play(m);
        next
    }

    /// The position reflected across the board's middle file: the rules are symmetric, so
    /// it has the same value, with every move [`Move::mirrored`].
    ///
    /// ```
    /// use breakthrough::rulesets::Rules;
    /// use breakthrough::rulesets::breakthrough::{DiagonalStep, Position};
    /// let pos = Position::from_fen("5/1p3/5/P4/5 w", DiagonalStep::Free).unwrap();
    /// assert_eq!(pos.mirrored().to_fen(), "5/3p1/5/4P/5 w - - 0 1");
    /// let m = pos.parse_move("a2b3").unwrap();
    /// assert_eq!(m.mirrored(5).to_string(), "e2d3");
    /// ```
    pub fn mirrored(&self) -> Position {
        let files = self.geometry.files;
        Position::from_parts(
            self.pawns.map(|bb| mirror_files(bb, files)),
            self.side,
            self.diagonal,
            self.geometry,
        )
    }

    /// True when the position is its own mirror image (as the start is): each move and
    /// its mirror image lead to positions of the same value.
    pub fn is_symmetric(&self) -> bool {
        let files = self.geometry.files;
        self.pawns.iter().all(|&bb| mirror_files(bb, files) == bb)
    }
}

impl Position {
    /// Bytes of a packed position ([`Rules::pack`]).
    pub const BYTES: usize = 18;

    /// The packed form ([`Rules::pack`]) as an array: White's and Black's bitboards
    /// (little-endian), the side to move (0 White, 1 Black), and the board size (`files <<
    /// 4 | ranks`). The rule set is not in it: files say it once for all their positions.
    pub fn to_bytes(&self) -> [u8; Position::BYTES] {
        let mut bytes = [0u8; Position::BYTES];
        bytes[..8].copy_from_slice(&self.pawns[0].to_le_bytes());
        bytes[8..16].copy_from_slice(&self.pawns[1].to_le_bytes());
        bytes[16] = self.side.index() as u8;
        bytes[17] = self.geometry.files << 4 | self.geometry.ranks;
        bytes
    }
}

impl Rules for Position {
    type Move = Move;
    type Moves = MoveList;
    type Config = DiagonalStep;
    type FenError = FenError;
    type MoveError = MoveError;

    const PACKED_BYTES: usize = Position::BYTES;

    /// The 8x8 start position.
    fn startpos(diagonal: DiagonalStep) -> Position {
        Position::start(diagonal, Geometry::standard())
    }

    fn start_on_board(diagonal: DiagonalStep, files: u8, ranks: u8) -> Option<Position> {
        Geometry::get(files, ranks).map(|g| Position::start(diagonal, g))
    }

    /// Reads a FEN; the board size comes from the FEN itself.
    ///
    /// ```
    /// use breakthrough::rulesets::Rules;
    /// use breakthrough::rulesets::breakthrough::{DiagonalStep, FenError, Position};
    /// let pos = Position::from_fen("ppppp/ppppp/5/PPPPP/PPPPP w", DiagonalStep::Free).unwrap();
    /// assert_eq!((pos.files(), pos.ranks()), (5, 5));
    /// assert_eq!(pos.to_fen(), "ppppp/ppppp/5/PPPPP/PPPPP w - - 0 1");
    /// assert_eq!(
    ///     Position::from_fen("ppppp/pppp/5/PPPPP/PPPPP w", DiagonalStep::Free),
    ///     Err(FenError::RankTooShort { rank: 4, squares: 4, expected: 5 })
    /// );
    /// ```
    fn from_fen(fen: &str, diagonal: DiagonalStep) -> Result<Position, FenError> {
        fen::read(fen, diagonal)
    }

    /// Writes the FEN as Fairy-Stockfish does, with `- - 0 1` at the end.
    fn to_fen(&self) -> String {
        fen::write(self)
    }

    /// A text diagram with files and ranks labelled, White at the bottom.
    fn diagram(&self) -> String {
        let g = self.geometry;
        let mut out = String::new();
        let border = format!(" +{}\n", "---+".repeat(g.files as usize));
        for rank in (0..g.ranks).rev() {
            out.push_str(&border);
            out.push(' ');
            for file in 0..g.files {
                let c = match self.pawn_at(Square::new(file, rank)) {
                    Some(Color::White) => 'P',
                    Some(Color::Black) => 'p',
                    None => ' ',
                };
                out.push_str(&format!("| {c} "));
            }
            out.push_str(&format!("| {}\n", rank + 1));
        }
        out.push_str(&border);
        out.push(' ');
        for file in 0..g.files {
            out.push_str(&format!("  {} ", (b'a' + file) as char));
        }
        out.push('\n');
        out
    }

    fn board(&self) -> (u8, u8) {
        (self.geometry.files, self.geometry.ranks)
    }

    fn pack(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_bytes());
    }

    /// The position of [`Rules::pack`]; `None` for bytes no position gives.
    ///
    /// ```
    /// use breakthrough::rulesets::Rules;
    /// use breakthrough::rulesets::breakthrough::{DiagonalStep, Position};
    /// let pos = Position::startpos(DiagonalStep::Free);
    /// let mut bytes = Vec::new();
    /// pos.pack(&mut bytes);
    /// assert_eq!(Position::unpack(&bytes, DiagonalStep::Free), Some(pos));
    /// assert_eq!(Position::unpack(&[0xff; 18], DiagonalStep::Free), None);
    /// ```
    fn unpack(bytes: &[u8], diagonal: DiagonalStep) -> Option<Position> {
        let bytes: &[u8; Position::BYTES] = bytes.try_into().ok()?;
        let word = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap_or([0; 8]));
        let (white, black) = (word(0), word(8));
        let side = match bytes[16] {
            0 => Color::White,
            1 => Color::Black,
            _ => return None,
        };
        let geometry = Geometry::get(bytes[17] >> 4, bytes[17] & 15)?;
        let fits = (white | black) & !geometry.board == 0 && white & black == 0;
        fits.then(|| Position::from_parts([white, black], side, diagonal, geometry))
    }

    fn read_move(text: &str) -> Result<Move, MoveError> {
        Move::from_uci(text)
    }

    /// Checks a move against the rules, saying why it is illegal.
    fn check_move(&self, m: Move) -> Result<(), MoveError> {
        let g = self.geometry;
        if self.goal_reached() {
            return Err(MoveError::GameOver);
        }
        for square in [m.from(), m.to()] {
            if g.board & square.bit() == 0 {
                return Err(MoveError::OffBoard(square));
            }
        }
        match self.pawn_at(m.from()) {
            None => return Err(MoveError::NoPawn(m.from())),
            Some(c) if c != self.side => return Err(MoveError::NotYourPawn(m.from())),
            Some(_) => {}
        }
        let forward: i8 = if self.side == Color::White { 1 } else { -1 };
        let rank_step = m.to().rank() as i8 - m.from().rank() as i8;
        let file_step = m.to().file() as i8 - m.from().file() as i8;
        if rank_step != forward || file_step.abs() > 1 {
            return Err(MoveError::NotAForwardStep(m));
        }
        let target = self.pawn_at(m.to());
        if file_step == 0 {
            if target.is_some() {
                return Err(MoveError::Blocked(m));
            }
        } else if target == Some(self.side) {
            return Err(MoveError::OwnPawn(m));
        } else if target.is_none() && self.diagonal == DiagonalStep::CaptureOnly {
            return Err(MoveError::DiagonalWithoutCapture(m));
        }
        Ok(())
    }

    #[inline]
    fn encode(m: Move) -> u16 {
        m.to_bits()
    }

    #[inline]
    fn decode(code: u16) -> Option<Move> {
        Move::from_bits(code)
    }

    #[inline]
    fn side_to_move(&self) -> Color {
        self.side
    }

    /// The Zobrist hash, kept up to date by every move.
    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    /// Every legal move. Empty when the game is over.
    fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.push_moves_onto(!0, &mut list);
        list
    }

    /// Plays a move known to be legal (one from [`Rules::legal_moves`]).
    /// An illegal move leaves a meaningless position but never panics.
    #[inline]
    fn play(&mut self, m: Move) {
        let us = self.side.index();
        let them = 1 - us;
        let (from, to) = (m.from(), m.to());
        let to_bit = to.bit();
        self.pawns[us] ^= from.bit() | to_bit;
        self.hash ^= zobrist::pawn_key(us, from.index())
            ^ zobrist::pawn_key(us, to.index())
            ^ zobrist::black_to_move_key();
        if self.pawns[them] & to_bit != 0 {
            self.pawns[them] ^= to_bit;
            self.hash ^= zobrist::pawn_key(them, to.index());
        }
        self.side = self.side.opponent();
    }

    /// The result, if the game is over. The side to move is the loser in every
    /// case but one: a FEN may put the side to move's own pawn on its goal rank.
    fn outcome(&self) -> Option<Outcome> {
        let us = self.side;
        let them = us.opponent();
        let g = self.geometry;
        let win = |winner, reason| Some(Outcome::win(winner, reason));
        if self.pawns[them.index()] & g.goal[them.index()] != 0 {
            return win(them, EndReason::GoalReached);
        }
        if self.pawns[us.index()] & g.goal[us.index()] != 0 {
            return win(us, EndReason::GoalReached);
        }
        if self.pawns[us.index()] == 0 {
            return win(them, EndReason::NoPieces);
        }
        if self.pawns[them.index()] == 0 {
            return win(us, EndReason::NoPieces);
        }
        if self.count_legal_moves() == 0 {
            return win(them, EndReason::NoMoves);
        }
        None
    }

    fn perft(&self, depth: u32) -> u64 {
        perft::perft(self, depth)
    }

    fn moves_made_at_least(&self) -> u64 {
        self.moves_made_by(self.side)
    }
}

impl SearchRules for Position {
    /// Passes the turn without moving (a "null move", for search pruning only: it is
    /// not a legal move in Breakthrough).
    #[inline]
    fn play_null(&mut self) {
        self.side = self.side.opponent();
        self.hash ^= zobrist::black_to_move_key();
    }

    #[inline]
    fn null_move_allowed(&self) -> bool {
        // Capture-only positions often hinge on running out of moves; there a pass
        // would be a move the rules do not allow, and the test would lie.
        self.diagonal == DiagonalStep::Free
    }

    /// A move that wins at once (reaches the goal rank, or captures the last enemy
    /// pawn), if the side to move has one.
    fn winning_move(&self) -> Option<Move> {
        if self.goal_reached() {
            return None;
        }
        let them = self.pawns[self.side.opponent().index()];
        let goal = self.goal_steps(self.side);
        let last_pawn = if them.count_ones() == 1 { them } else { 0 };
        if goal | last_pawn == 0 {
            return None;
        }
        // Rare: only here is a move list built.
        self.legal_moves()
            .iter()
            .copied()
            .find(|m| (goal | last_pawn) & m.to().bit() != 0)
    }

    /// Standard rules only: a move after which the side to move wins on its next move
    /// whatever the reply, found statically. It steps a pawn to the rank before the
    /// goal onto a square no enemy pawn attacks, when the opponent cannot win at once
    /// in reply: such a pawn can always step on (diagonal steps need no capture), so
    /// only capturing it could stop it. `None` if there is an immediate win (take that).
    fn win_in_two(&self) -> Option<Move> {
        if self.diagonal != DiagonalStep::Free || self.goal_reached() {
            return None;
        }
        let us = self.side;
        let g = self.geometry;
        let (before_goal, two_before_goal) = match us {
            Color::White => (g.goal[0] >> 8, g.goal[0] >> 16),
            Color::Black => (g.goal[1] << 8, g.goal[1] << 16),
        };
        // Only a pawn two steps from the goal can make the threat: most positions end here.
        if self.pawns[us.index()] & two_before_goal == 0 {
            return None;
        }
        let [a, b, c] = self.step_targets();
        let targets = a | b | c;
        let last_pawn_capture = self.pawns[us.opponent().index()].count_ones() == 1
            && targets & self.pawns[us.opponent().index()] != 0;
        if targets & before_goal == 0 || targets & g.goal[us.index()] != 0 || last_pawn_capture {
            return None;
        }
        // Capturing on the target takes no attacker of it away, so the enemy's attacks
        // now are those after the move. Candidates in `legal_moves` order.
        let safe = before_goal & !self.attacks(us.opponent());
        for (targets, offset) in [a, b, c].into_iter().zip(self.step_offsets()) {
            let mut targets = targets & safe;
            while targets != 0 {
                let to = targets.trailing_zeros() as i8;
                targets &= targets - 1;
                let m = Move::new(
                    Square::from_index((to + offset) as u8),
                    Square::from_index(to as u8),
                );
                if self.child(m).winning_move().is_none() {
                    return Some(m);
                }
            }
        }
        None
    }

    /// True if the side not to move would win at once if it were its turn:
    /// a threat the side to move must answer now.
    #[inline]
    fn opponent_threatens_win(&self) -> bool {
        self.goal_steps(self.side.opponent()) != 0
    }

    #[inline]
    fn is_tactical(&self, m: Move) -> bool {
        self.is_capture(m)
    }

    /// The captures alone: generating the steps onto enemy pawns only is cheaper than
    /// every move and a filter.
    #[inline]
    fn tactical_moves_first(&self) -> (MoveList, usize) {
        let captures = self.legal_moves_onto(self.pawns[self.side.opponent().index()]);
        let count = captures.len();
        (captures, count)
    }

    #[inline]
    fn tactical_order(&self, m: Move) -> i32 {
        // Take the enemy pawn nearest to our home rank first: it is the most dangerous.
        let rank = m.to().rank() as i32;
        match self.side {
            Color::White => 8 - rank,
            Color::Black => rank,
        }
    }

    #[inline]
    fn steps_to_goal_after(&self, m: Move) -> u8 {
        self.steps_to_goal(self.side, m.to())
    }
}
