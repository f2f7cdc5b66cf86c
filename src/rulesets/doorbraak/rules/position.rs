//! The Doorbraak position: per side, a bitboard of single stones and one of
//! two-stone stacks; the side to move; the passes just made; a Zobrist hash.

use std::fmt;

use super::fen::{self, FenError};
use super::perft;
use super::types::{FILES, Move, RANKS, SQUARES, Square};
use crate::rulesets::common::{Color, EndReason, Outcome, Rules, SearchRules};
use crate::util::rng::splitmix64;

/// Upper bound on the moves of any position a FEN can give (play keeps 10 stones a
/// side, but a FEN may hold more): a move is fixed by its target square and the
/// direction it came from (the first own stone along that diagonal), so at most
/// 45 x 4 moves, plus the pass.
pub const MAX_MOVES: usize = 4 * SQUARES + 1;

const BOARD: u64 = (1u64 << SQUARES) - 1;
const RANK_MASK: u64 = (1 << FILES) - 1;

/// A side's last rank: reaching it wins.
const fn goal(color: Color) -> u64 {
    match color {
        Color::White => RANK_MASK << (FILES as u64 * 8),
        Color::Black => RANK_MASK,
    }
}

/// A side's 7th rank, where its stones cannot be captured.
const fn fortress(color: Color) -> u64 {
    match color {
        Color::White => RANK_MASK << (FILES as u64 * 6),
        Color::Black => RANK_MASK << (FILES as u64 * 2),
    }
}

/// Squares a normal move of `color` may end on: up to its 7th rank.
const fn reachable(color: Color) -> u64 {
    match color {
        Color::White => (1u64 << (FILES as u64 * 7)) - 1,
        Color::Black => BOARD & !((1u64 << (FILES as u64 * 2)) - 1),
    }
}

struct Keys {
    /// `[colour][stones - 1][square]`.
    stones: [[[u64; SQUARES]; 2]; 2],
    black_to_move: u64,
    one_pass: u64,
}

const KEYS: Keys = {
    let mut state = 0x446f_6f72_6272_6161; // "Doorbraa"
    let mut stones = [[[0u64; SQUARES]; 2]; 2];
    let mut i = 0;
    while i < 2 * 2 * SQUARES {
        let (next, key) = splitmix64(state);
        state = next;
        stones[i / (2 * SQUARES)][(i / SQUARES) % 2][i % SQUARES] = key;
        i += 1;
    }
    let (next, black_to_move) = splitmix64(state);
    let (_, one_pass) = splitmix64(next);
    Keys {
        stones,
        black_to_move,
        one_pass,
    }
};

/// A fixed-capacity list of moves; no allocation.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    fn new() -> MoveList {
        MoveList {
            moves: [Move::PASS; MAX_MOVES],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl std::ops::DerefMut for MoveList {
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not of the form `b2a1` or `0000`.
    Syntax(String),
    /// No stone of the side to move on the from-square.
    NoOwnStone(Square),
    /// Not a diagonal line.
    NotDiagonal(Move),
    /// Something stands between the squares.
    Jumps(Move),
    /// The target holds enemy stones.
    EnemyTarget(Move),
    /// Beyond the mover's 7th rank.
    BeyondSeventhRank(Move),
    /// A stack of two onto a square that could not explode by the rules.
    Overfull(Move),
    /// The game is already over.
    GameOver,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(text) => write!(
                f,
                "'{text}' is not a move (expected from and to square on a5..e9, like b2a1, or 0000)"
            ),
            MoveError::NoOwnStone(s) => write!(f, "no stone of the side to move on {s}"),
            MoveError::NotDiagonal(m) => write!(f, "{m} is not a diagonal line"),
            MoveError::Jumps(m) => write!(f, "{m} would jump over a stone"),
            MoveError::EnemyTarget(m) => write!(f, "{m} lands on enemy stones"),
            MoveError::BeyondSeventhRank(m) => {
                write!(f, "{m} ends beyond the mover's 7th rank")
            }
            MoveError::Overfull(m) => write!(
                f,
                "{m} would put more stones on {} than an explosion can send out",
                m.to()
            ),
            MoveError::GameOver => write!(f, "the game is over: no move can be played"),
        }
    }
}

impl std::error::Error for MoveError {}

/// The four diagonal steps as (file, rank) deltas.
const DIAGONALS: [(i8, i8); 4] = [(-1, 1), (1, 1), (-1, -1), (1, -1)];

/// A Doorbraak position.
///
/// ```
/// use breakthrough::rulesets::Rules;
/// use breakthrough::rulesets::doorbraak::Position;
/// let mut pos = Position::startpos(());
/// pos.try_play(pos.parse_move("b2a1").unwrap()).unwrap();
/// // a1 overflows into b1 and a2; a2 overflows into b2 and a3.
/// assert_eq!(pos.to_fen(), "ppppp/ppppp/5/5/5/5/P4/1PPPP/1QPPP b 0");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Squares holding exactly one stone, per colour.
    one: [u64; 2],
    /// Squares holding a stack of two, per colour (never on an edge square).
    two: [u64; 2],
    side: Color,
    /// Passes made in a row just before this position: 0, 1 or 2 (2 ends the game).
    passes: u8,
    hash: u64,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position(doorbraak {})", self.to_fen())
    }
}

impl Position {
    /// Builds a position from bitboards; the caller keeps stacks off edge squares.
    pub(super) fn from_parts(one: [u64; 2], two: [u64; 2], side: Color, passes: u8) -> Position {
        let mut pos = Position {
            one,
            two,
            side,
            passes,
            hash: 0,
        };
        pos.hash = pos.hash_from_scratch();
        pos
    }

    #[inline]
    pub fn passes(&self) -> u8 {
        self.passes
    }

    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for c in 0..2 {
            for (k, board) in [self.one[c], self.two[c]].into_iter().enumerate() {
                let mut b = board;
                while b != 0 {
                    h ^= KEYS.stones[c][k][b.trailing_zeros() as usize];
                    b &= b - 1;
                }
            }
        }
        if self.side == Color::Black {
            h ^= KEYS.black_to_move;
        }
        if self.passes == 1 {
            h ^= KEYS.one_pass;
        }
        h
    }

    /// Squares holding stones of `color`.
    #[inline]
    pub fn occupied_by(&self, color: Color) -> u64 {
        self.one[color.index()] | self.two[color.index()]
    }

    /// Squares where `color` has a stack of two.
    #[inline]
    pub fn stacks(&self, color: Color) -> u64 {
        self.two[color.index()]
    }

    #[inline]
    pub fn stone_count(&self, color: Color) -> u32 {
        self.one[color.index()].count_ones() + 2 * self.two[color.index()].count_ones()
    }

    /// The owner and number of stones on `square`, if any.
    #[inline]
    pub fn stones_at(&self, square: Square) -> Option<(Color, u8)> {
        let bit = square.bit();
        [Color::White, Color::Black].into_iter().find_map(|c| {
            if self.one[c.index()] & bit != 0 {
                Some((c, 1))
            } else if self.two[c.index()] & bit != 0 {
                Some((c, 2))
            } else {
                None
            }
        })
    }

    /// True once the game has ended by the board: then there are no moves.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Stones of `color` on `square` (0 if none or the other colour's).
    #[inline]
    fn size_of(&self, color: Color, square: Square) -> u8 {
        let bit = square.bit();
        u8::from(self.one[color.index()] & bit != 0)
            + 2 * u8::from(self.two[color.index()] & bit != 0)
    }

    /// True if `m` makes its target square overflow (a move that explodes).
    #[inline]
    pub fn explodes(&self, m: Move) -> bool {
        !m.is_pass()
            && self.size_of(self.side, m.from()) + self.size_of(self.side, m.to())
                > m.to().capacity()
    }

    /// Reads `b2a1`-style text (or `0000`) as a legal move of this position.
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

    /// Changes the stones of colour `c` on `square` from `old` to `new` (0..=2).
    #[inline]
    fn set_stones(&mut self, c: usize, square: Square, old: u8, new: u8) {
        let bit = square.bit();
        if old > 0 {
            self.hash ^= KEYS.stones[c][old as usize - 1][square.index()];
        }
        if new > 0 {
            self.hash ^= KEYS.stones[c][new as usize - 1][square.index()];
        }
        self.one[c] = (self.one[c] & !bit) | if new == 1 { bit } else { 0 };
        self.two[c] = (self.two[c] & !bit) | if new == 2 { bit } else { 0 };
    }

    /// Resolves the chain reaction started by `count` stones of the mover on `start`.
    ///
    /// Overfull squares explode one at a time, first in first out. An exploding
    /// square sends one stone to each neighbour to its owner's left, right and front
    /// (those on the board) and keeps any stones beyond that; a square still over
    /// capacity afterwards goes back in the queue. A stone landing on its own side's
    /// stones joins them; on enemy stones it captures them and stays, unless they
    /// stand on their owner's 7th rank, where the flying stone is lost instead.
    fn explode(&mut self, start: Square, count: u8) {
        let mover = self.side;
        let (us, them) = (mover.index(), mover.opponent().index());
        let mut counts = [0u8; SQUARES];
        let mut b = self.one[us] | self.two[us];
        while b != 0 {
            let s = Square::from_index(b.trailing_zeros() as u8);
            counts[s.index()] = self.size_of(mover, s);
            b &= b - 1;
        }
        counts[start.index()] = count;
        let (left, forward): (i8, i8) = match mover {
            Color::White => (-1, 1),
            Color::Black => (1, -1),
        };
        let mut queue = [0u8; 256];
        let (mut head, mut tail) = (0usize, 0usize);
        queue[tail] = start.index() as u8;
        tail += 1;
        let mut queued = start.bit();
        let fortress_them = fortress(mover.opponent());
        while head < tail {
            let square = Square::from_index(queue[head]);
            head += 1;
            queued &= !square.bit();
            let (f, r) = (square.file() as i8, square.rank() as i8);
            for (df, dr) in [(left, 0), (-left, 0), (0, forward)] {
                let target = Square::at(f + df, r + dr);
                if target.is_none() && dr == 0 {
                    continue; // an edge square has no neighbour on that side
                }
                counts[square.index()] -= 1;
                let Some(t) = target else { continue }; // flies off the board
                let bit = t.bit();
                if (self.one[them] | self.two[them]) & bit != 0 {
                    if fortress_them & bit != 0 {
                        continue; // invulnerable: the flying stone is lost
                    }
                    let old = self.size_of(mover.opponent(), t);
                    self.set_stones(them, t, old, 0);
                }
                counts[t.index()] += 1;
                if counts[t.index()] > t.capacity() && queued & bit == 0 {
                    queued |= bit;
                    queue[tail % queue.len()] = t.index() as u8;
                    tail += 1;
                }
            }
            if counts[square.index()] > square.capacity() && queued & square.bit() == 0 {
                queued |= square.bit();
                queue[tail % queue.len()] = square.index() as u8;
                tail += 1;
            }
        }
        // Write our stones back; the enemy's were updated as they were captured.
        let mut old_ones = self.one[us];
        let mut old_twos = self.two[us];
        while old_ones != 0 {
            self.hash ^= KEYS.stones[us][0][old_ones.trailing_zeros() as usize];
            old_ones &= old_ones - 1;
        }
        while old_twos != 0 {
            self.hash ^= KEYS.stones[us][1][old_twos.trailing_zeros() as usize];
            old_twos &= old_twos - 1;
        }
        self.one[us] = 0;
        self.two[us] = 0;
        for (i, &n) in counts.iter().enumerate() {
            if n > 0 {
                debug_assert!(n <= 2, "a settled square holds at most two stones");
                self.one[us] |= u64::from(n == 1) << i;
                self.two[us] |= u64::from(n >= 2) << i;
                self.hash ^= KEYS.stones[us][(n.min(2) - 1) as usize][i];
            }
        }
    }
}

impl Position {
    /// Bytes of a packed position ([`Rules::pack`]).
    pub const BYTES: usize = 26;
}

impl Rules for Position {
    type Move = Move;
    type Moves = MoveList;
    type Config = ();
    type FenError = FenError;
    type MoveError = MoveError;

    const PACKED_BYTES: usize = Position::BYTES;
    const CAN_REPEAT: bool = true;

    fn startpos(_: ()) -> Position {
        let white = RANK_MASK | RANK_MASK << FILES;
        let black = RANK_MASK << (7 * FILES) | RANK_MASK << (8 * FILES);
        Position::from_parts([white, black], [0, 0], Color::White, 0)
    }

    /// Reads a Doorbraak FEN.
    ///
    /// ```
    /// use breakthrough::rulesets::Rules;
    /// use breakthrough::rulesets::doorbraak::{Position, START_FEN};
    /// assert_eq!(Position::from_fen(START_FEN, ()).unwrap(), Position::startpos(()));
    /// assert!(Position::from_fen("qpppp/ppppp/5/5/5/5/5/PPPPP/PPPPP w", ()).is_err()); // stack on a9
    /// ```
    fn from_fen(fen: &str, _: ()) -> Result<Position, FenError> {
        fen::read(fen)
    }

    fn to_fen(&self) -> String {
        fen::write(self)
    }

    /// A text diagram, White at the bottom: `P`/`p` one stone, `PP`/`pp` a stack of
    /// two; `*` marks each side's 7th rank.
    fn diagram(&self) -> String {
        let mut out = String::new();
        let border = format!(" +{}\n", "----+".repeat(FILES as usize));
        for rank in (0..RANKS).rev() {
            out.push_str(&border);
            out.push(' ');
            for file in 0..FILES {
                let square = Square::at(file as i8, rank as i8).expect("on the board");
                let text = match self.stones_at(square) {
                    Some((Color::White, 1)) => " P ",
                    Some((Color::White, _)) => " PP",
                    Some((Color::Black, 1)) => " p ",
                    Some((Color::Black, _)) => " pp",
                    None => "   ",
                };
                out.push_str(&format!("|{text} "));
            }
            let mark = if rank == 6 || rank == 2 { " *" } else { "" };
            out.push_str(&format!("| {}{mark}\n", rank + 1));
        }
        out.push_str(&border);
        out.push(' ');
        for file in 0..FILES {
            out.push_str(&format!("   {} ", (b'a' + file) as char));
        }
        out.push_str("\n (* = a 7th rank: White's is 7, Black's is 3)\n");
        out
    }

    fn board(&self) -> (u8, u8) {
        (FILES, RANKS)
    }

    /// A compact form for data files ([`Position::BYTES`] bytes): White's single stones, Black's, White's stacks,
    /// Black's (45 bits each, in six little-endian bytes), the side to move (0 White, 1
    /// Black) and the passes just made.
    fn pack(&self, out: &mut Vec<u8>) {
        let mut bytes = [0u8; Position::BYTES];
        for (i, board) in [self.one[0], self.one[1], self.two[0], self.two[1]]
            .into_iter()
            .enumerate()
        {
            bytes[i * 6..i * 6 + 6].copy_from_slice(&board.to_le_bytes()[..6]);
        }
        bytes[24] = self.side.index() as u8;
        bytes[25] = self.passes;
        out.extend_from_slice(&bytes);
    }

    /// The position of [`Rules::pack`]; `None` for bytes no position gives.
    ///
    /// ```
    /// use breakthrough::rulesets::Rules;
    /// use breakthrough::rulesets::doorbraak::Position;
    /// let pos = Position::startpos(());
    /// let mut bytes = Vec::new();
    /// pos.pack(&mut bytes);
    /// assert_eq!(Position::unpack(&bytes, ()), Some(pos));
    /// assert_eq!(Position::unpack(&[0xff; 26], ()), None);
    /// ```
    fn unpack(bytes: &[u8], _: ()) -> Option<Position> {
        let bytes: &[u8; Position::BYTES] = bytes.try_into().ok()?;
        let board = |i: usize| {
            let mut word = [0u8; 8];
            word[..6].copy_from_slice(&bytes[i * 6..i * 6 + 6]);
            u64::from_le_bytes(word)
        };
        let (one, two) = ([board(0), board(1)], [board(2), board(3)]);
        let all = [one[0], one[1], two[0], two[1]];
        let disjoint = all
            .iter()
            .enumerate()
            .all(|(i, a)| all.iter().skip(i + 1).all(|b| a & b == 0));
        let edges = (0..RANKS)
            .flat_map(|r| [Square::at(0, r as i8), Square::at(FILES as i8 - 1, r as i8)])
            .flatten()
            .fold(0u64, |m, s| m | s.bit());
        let side = match bytes[24] {
            0 => Color::White,
            1 => Color::Black,
            _ => return None,
        };
        let valid = disjoint
            && all.iter().all(|b| b & !BOARD == 0)
            && (two[0] | two[1]) & edges == 0
            && bytes[25] <= 2;
        valid.then(|| Position::from_parts(one, two, side, bytes[25]))
    }

    fn read_move(text: &str) -> Result<Move, MoveError> {
        Move::from_uci(text)
    }

    /// Checks a move against the rules, saying why it is illegal.
    fn check_move(&self, m: Move) -> Result<(), MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        if m.is_pass() {
            return Ok(());
        }
        let us = self.side;
        let (from, to) = (m.from(), m.to());
        let size = self.size_of(us, from);
        if size == 0 {
            return Err(MoveError::NoOwnStone(from));
        }
        let df = to.file() as i8 - from.file() as i8;
        let dr = to.rank() as i8 - from.rank() as i8;
        if df.abs() != dr.abs() {
            return Err(MoveError::NotDiagonal(m));
        }
        let occupied = self.occupied_by(Color::White) | self.occupied_by(Color::Black);
        for step in 1..df.abs() {
            let between = Square::at(
                from.file() as i8 + step * df.signum(),
                from.rank() as i8 + step * dr.signum(),
            )
            .expect("between two squares on the board");
            if occupied & between.bit() != 0 {
                return Err(MoveError::Jumps(m));
            }
        }
        if self.occupied_by(us.opponent()) & to.bit() != 0 {
            return Err(MoveError::EnemyTarget(m));
        }
        if reachable(us) & to.bit() == 0 {
            return Err(MoveError::BeyondSeventhRank(m));
        }
        if size + self.size_of(us, to) > to.capacity() + 1 {
            return Err(MoveError::Overfull(m));
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

    fn is_pass(m: Move) -> bool {
        m.is_pass()
    }

    #[inline]
    fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    /// Every legal move, the pass last; empty when the game is over.
    fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.is_over() {
            return list;
        }
        let us = self.side;
        let ours = self.occupied_by(us);
        let theirs = self.occupied_by(us.opponent());
        let allowed = reachable(us);
        let mut from_squares = ours;
        while from_squares != 0 {
            let from = Square::from_index(from_squares.trailing_zeros() as u8);
            from_squares &= from_squares - 1;
            let size = self.size_of(us, from);
            for (df, dr) in DIAGONALS {
                let (mut f, mut r) = (from.file() as i8, from.rank() as i8);
                loop {
                    (f, r) = (f + df, r + dr);
                    let Some(to) = Square::at(f, r) else { break };
                    let bit = to.bit();
                    if theirs & bit != 0 || allowed & bit == 0 {
                        break;
                    }
                    if ours & bit == 0 {
                        list.push(Move::new(from, to));
                        continue;
                    }
                    if size + self.size_of(us, to) <= to.capacity() + 1 {
                        list.push(Move::new(from, to));
                    }
                    break;
                }
            }
        }
        list.push(Move::PASS);
        list
    }

    /// Plays a move known to be legal, resolving every explosion it sets off.
    fn play(&mut self, m: Move) {
        if self.passes == 1 {
            self.hash ^= KEYS.one_pass;
        }
        if m.is_pass() {
            self.passes += 1;
            if self.passes == 1 {
                self.hash ^= KEYS.one_pass;
            }
        } else {
            self.passes = 0;
            let us = self.side.index();
            let (from, to) = (m.from(), m.to());
            let size = self.size_of(self.side, from);
            let before = self.size_of(self.side, to);
            self.set_stones(us, from, size, 0);
            let after = size + before;
            if after <= to.capacity() {
                self.set_stones(us, to, before, after);
            } else {
                self.explode(to, after);
            }
        }
        self.side = self.side.opponent();
        self.hash ^= KEYS.black_to_move;
    }

    /// The end of the game by the board alone, if it is over (repetition needs the
    /// game's history). A stone on the 9th rank decides first, then a side without stones.
    fn outcome(&self) -> Option<Outcome> {
        for c in [self.side.opponent(), self.side] {
            if self.occupied_by(c) & goal(c) != 0 {
                return Some(Outcome::win(c, EndReason::GoalReached));
            }
        }
        for c in [self.side, self.side.opponent()] {
            if self.occupied_by(c) == 0 {
                return Some(Outcome::win(c.opponent(), EndReason::NoPieces));
            }
        }
        (self.passes >= 2).then_some(Outcome::draw(EndReason::TwoPasses))
    }

    fn perft(&self, depth: u32) -> u64 {
        perft::perft(self, depth)
    }
}

impl SearchRules for Position {
    /// Gives the opponent a free move without counting it as a pass (for search
    /// pruning: a real pass could end the game).
    #[inline]
    fn play_null(&mut self) {
        if self.passes == 1 {
            self.hash ^= KEYS.one_pass;
        }
        self.passes = 0;
        self.side = self.side.opponent();
        self.hash ^= KEYS.black_to_move;
    }

    #[inline]
    fn null_move_allowed(&self) -> bool {
        // Passing is always legal, so no position is a zugzwang.
        true
    }

    /// A move that wins at once, if any. Only an explosion can reach the 9th rank or
    /// take the last enemy stones, so only exploding moves are tried.
    fn winning_move(&self) -> Option<Move> {
        let us = self.side;
        // The 9th rank is reached only by an explosion on the 8th, which needs stones
        // already there; taking every enemy stone at once needs few of them left.
        let eighth = if us == Color::White {
            goal(us) >> FILES
        } else {
            goal(us) << FILES
        };
        if self.occupied_by(us) & eighth == 0 && self.stone_count(us.opponent()) > 4 {
            return None;
        }
        self.legal_moves().iter().copied().find(|&m| {
            self.explodes(m)
                && self
                    .child(m)
                    .outcome()
                    .is_some_and(|o| o.winner == Some(us))
        })
    }

    #[inline]
    fn win_in_two(&self) -> Option<Move> {
        None
    }

    fn opponent_threatens_win(&self) -> bool {
        let mut passed = *self;
        passed.play_null();
        passed.winning_move().is_some()
    }

    #[inline]
    fn is_tactical(&self, m: Move) -> bool {
        self.explodes(m)
    }

    #[inline]
    fn tactical_order(&self, m: Move) -> i32 {
        // Explosions higher up the board come closer to the goal; a pass goes nowhere.
        if m.is_pass() {
            return 0;
        }
        m.to().relative_rank(self.side) as i32
    }

    #[inline]
    fn steps_to_goal_after(&self, _m: Move) -> u8 {
        // Stacks explode and jump: no simple distance to the goal.
        u8::MAX
    }
}
