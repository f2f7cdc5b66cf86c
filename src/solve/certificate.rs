//! Proofs anyone can check: the winner's strategy, written as the move it plays in every
//! position it can meet, and a checker that needs nothing but the rules.
//!
//! The file: text lines `breakthrough-proof 2`, `variant NAME`, `fen FEN`, `winner
//! white|black`, `positions N`, an empty line; then N records of 20 bytes, sorted: a
//! position as `Position::to_bytes` writes it (18 bytes) and the winner's move there
//! (`Move::to_bits`, 2 bytes little-endian). The checker replays every line the loser can
//! choose against the strategy and accepts only if each ends in the winner's win.
//!
//! Two things keep the strategy small. A position and its mirror image (files reflected)
//! share one record, kept in the orientation whose bytes are smaller: the checker turns
//! the move for the other. And positions where the winner wins within three plies have no
//! record: the checker finds that win itself, trying every move and reply ([`short_win`]).
//! Those are most of the strategy's positions, the leaves of its tree and their parents.

use std::collections::{HashMap, HashSet};

use super::dfpn::ProofWorker;
use super::key;
use super::knowledge::{self, Known};
use super::table::Table;
use crate::rulesets::breakthrough::{Color, DiagonalStep, Move, Position};
use crate::rulesets::{Rules, SearchRules};

const MAGIC: &str = "breakthrough-proof 2";
const RECORD: usize = Position::BYTES + 2;

type Key = [u8; Position::BYTES];

/// A winning strategy: the winner's move wherever it is to move on the way.
#[derive(Debug)]
pub(crate) struct Certificate {
    pub(crate) root: Position,
    pub(crate) winner: Color,
    moves: HashMap<Key, Move>,
}

/// Why a strategy could not be built, or is not a proof.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum CertificateError {
    #[error("not a proof file of this version (no '{MAGIC}' line)")]
    NotProof,
    #[error("header line {0:?} is missing or unreadable")]
    Header(&'static str),
    #[error("unknown variant '{0}' (a proof is for breakthrough or capture-only)")]
    Variant(String),
    #[error("bad FEN in the header: {0}")]
    Fen(String),
    #[error("the file holds {found} bytes of records, the header promises {wanted}")]
    Size { found: usize, wanted: usize },
    #[error("record {0} is not a position of this board")]
    BadRecord(usize),
    #[error("record {0} repeats a position")]
    Repeated(usize),
    #[error("record {0} is the mirror image of the orientation proofs keep")]
    Orientation(usize),
    #[error("no move for the winner in {0}")]
    Missing(String),
    #[error("illegal move {1} in {0}")]
    Illegal(String, String),
    #[error("a line ends with the loser's win: {0}")]
    Lost(String),
    #[error("the solver's table does not prove {0}")]
    NotProven(String),
}

/// What a checked proof shows.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Verified {
    pub(crate) root: Position,
    pub(crate) winner: Color,
    /// Positions in the strategy.
    pub(crate) positions: usize,
    /// Those no line reaches (harmless, but not needed).
    pub(crate) unused: usize,
    /// The longest game the loser can make against the strategy, in plies.
    pub(crate) longest: u32,
}

impl Certificate {
    /// The strategy for `winner` from `root`, read from the solver's table; positions
    /// whose proof the table has lost are proven again by `worker`.
    pub(crate) fn build(
        root: Position,
        winner: Color,
        table: &Table,
        worker: &mut ProofWorker,
    ) -> Result<Certificate, CertificateError> {
        let mut builder = Builder {
            winner,
            table,
            worker,
            moves: HashMap::new(),
            seen: HashSet::new(),
        };
        if root.side_to_move() == winner {
            builder.winner_to_move(&root)?;
        } else {
            builder.loser_to_move(&root)?;
        }
        Ok(Certificate {
            root,
            winner,
            moves: builder.moves,
        })
    }

    /// A strategy from `root` joined from parts: `top`, the winner's moves above the
    /// parts (as positions and moves), and `parts`, strategies for `winner` from positions
    /// below. Where two give a move for one position the first is kept (both win). Not
    /// checked: see [`Certificate::verify`].
    pub(crate) fn join(
        root: Position,
        winner: Color,
        top: &[(Position, Move)],
        parts: &[Certificate],
    ) -> Certificate {
        let mut moves = HashMap::new();
        for (pos, m) in top {
            let (key, mirrored) = canonical(pos);
            let stored = if mirrored {
                m.mirrored(pos.files())
            } else {
                *m
            };
            moves.entry(key).or_insert(stored);
        }
        for part in parts.iter().filter(|p| p.winner == winner) {
            for (key, m) in &part.moves {
                moves.entry(*key).or_insert(*m);
            }
        }
        Certificate {
            root,
            winner,
            moves,
        }
    }

    /// The file's bytes.
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        let mut out = format!(
            "{MAGIC}\nvariant {}\nfen {}\nwinner {}\npositions {}\n\n",
            self.root.diagonal_step().name(),
            self.root.to_fen(),
            self.winner,
            self.moves.len()
        )
        .into_bytes();
        let mut records: Vec<(&Key, &Move)> = self.moves.iter().collect();
        records.sort_unstable_by_key(|&(key, _)| *key);
        out.reserve(records.len() * RECORD);
        for (key, m) in records {
            out.extend_from_slice(key);
            out.extend_from_slice(&m.to_bits().to_le_bytes());
        }
        out
    }

    /// Reads a file's bytes (not yet checked: see [`Certificate::verify`]).
    pub(crate) fn from_bytes(bytes: &[u8]) -> Result<Certificate, CertificateError> {
        let mut lines = Vec::new();
        let mut at = 0;
        while lines.len() < 6 {
            let end = bytes[at..]
                .iter()
                .position(|&b| b == b'\n')
                .ok_or(CertificateError::NotProof)?;
            let line = std::str::from_utf8(&bytes[at..at + end])
                .map_err(|_| CertificateError::NotProof)?;
            lines.push(line);
            at += end + 1;
        }
        if lines[0] != MAGIC {
            return Err(CertificateError::NotProof);
        }
        let field = |i: usize, name: &'static str| {
            lines[i]
                .strip_prefix(name)
                .and_then(|rest| rest.strip_prefix(' '))
                .ok_or(CertificateError::Header(name))
        };
        let name = field(1, "variant")?;
        let diagonal = DiagonalStep::from_name(name)
            .ok_or_else(|| CertificateError::Variant(name.to_string()))?;
        let root = Position::from_fen(field(2, "fen")?, diagonal)
            .map_err(|e| CertificateError::Fen(e.to_string()))?;
        let winner = match field(3, "winner")? {
            "white" => Color::White,
            "black" => Color::Black,
            _ => return Err(CertificateError::Header("winner")),
        };
        let count: usize = field(4, "positions")?
            .parse()
            .map_err(|_| CertificateError::Header("positions"))?;
        if !lines[5].is_empty() {
            return Err(CertificateError::Header("empty line"));
        }
        let body = &bytes[at..];
        if Some(body.len()) != count.checked_mul(RECORD) {
            return Err(CertificateError::Size {
                found: body.len(),
                wanted: count.saturating_mul(RECORD),
            });
        }
        let mut moves = HashMap::with_capacity(count);
        for (i, record) in body.chunks_exact(RECORD).enumerate() {
            let (key, m) = record.split_at(Position::BYTES);
            let pos = Position::unpack(key, diagonal)
                .filter(|p| (p.files(), p.ranks()) == (root.files(), root.ranks()))
                .ok_or(CertificateError::BadRecord(i))?;
            let m = Move::from_bits(u16::from_le_bytes([m[0], m[1]]))
                .ok_or(CertificateError::BadRecord(i))?;
            if canonical(&pos).1 {
                return Err(CertificateError::Orientation(i));
            }
            if moves.insert(pos.to_bytes(), m).is_some() {
                return Err(CertificateError::Repeated(i));
            }
        }
        Ok(Certificate {
            root,
            winner,
            moves,
        })
    }

    /// Checks the strategy with the rules alone: from the root, the winner's recorded
    /// move must be legal wherever it is to move, every legal move of the loser must be
    /// answered, and every line must end in the winner's win.
    pub(crate) fn verify(&self) -> Result<Verified, CertificateError> {
        let mut longest = HashMap::new();
        let plies = self.check(&self.root, &mut longest)?;
        let used = longest
            .keys()
            .filter(|k: &&Key| self.moves.contains_key(*k))
            .count();
        Ok(Verified {
            root: self.root,
            winner: self.winner,
            positions: self.moves.len(),
            unused: self.moves.len() - used,
            longest: plies,
        })
    }

    /// The longest line from `pos` the loser can make (plies), or why the proof fails.
    /// Positions are remembered by their record's orientation: a position and its mirror
    /// image last equally long against a strategy that plays mirrored moves in them.
    fn check(
        &self,
        pos: &Position,
        longest: &mut HashMap<Key, u32>,
    ) -> Result<u32, CertificateError> {
        let (key, mirrored) = canonical(pos);
        if let Some(&plies) = longest.get(&key) {
            return Ok(plies);
        }
        let plies = if let Some(outcome) = pos.outcome() {
            if outcome.winner != Some(self.winner) {
                return Err(CertificateError::Lost(pos.to_fen()));
            }
            0
        } else if pos.side_to_move() == self.winner {
            let Some(&m) = self.moves.get(&key) else {
                // Not remembered: these are the most numerous positions, and cheap to
                // check again.
                return short_win(pos).ok_or_else(|| CertificateError::Missing(pos.to_fen()));
            };
            let m = if mirrored { m.mirrored(pos.files()) } else { m };
            pos.check_move(m)
                .map_err(|_| CertificateError::Illegal(pos.to_fen(), m.to_string()))?;
            1 + self.check(&pos.child(m), longest)?
        } else {
            let mut most = 0;
            for &m in pos.legal_moves().iter() {
                most = most.max(1 + self.check(&pos.child(m), longest)?);
            }
            most
        };
        longest.insert(key, plies);
        Ok(plies)
    }
}

/// The bytes of `pos` or of its mirror image, whichever are smaller (the orientation a
/// record keeps), and whether that is the mirror image.
fn canonical(pos: &Position) -> (Key, bool) {
    let (direct, image) = (pos.to_bytes(), pos.mirrored().to_bytes());
    if image < direct {
        (image, true)
    } else {
        (direct, false)
    }
}

/// The side to move's win within three plies, by the rules alone: with every move and
/// every reply tried, a win at once (1 ply), or a move after which every reply allows a
/// win at once (3 plies). The game must not be over.
pub(super) fn short_win(pos: &Position) -> Option<u32> {
    if wins_at_once(pos) {
        return Some(1);
    }
    pos.legal_moves().iter().find_map(|&m| {
        let reply = pos.child(m);
        if reply.winning_move().is_some() {
            return None;
        }
        reply
            .legal_moves()
            .iter()
            .all(|&r| {
                let next = reply.child(r);
                next.outcome().is_none() && wins_at_once(&next)
            })
            .then_some(3)
    })
}

/// A move that ends the game in the side to move's favour: onto the goal, taking the last
/// enemy pawn, or leaving the opponent no move. One move takes at most six moves from the
/// opponent (the three of a pawn it captures, a straight step onto the square it enters,
/// and under capture-only two captures of the pawn that left), so the last is looked for
/// only where the opponent has six or fewer.
fn wins_at_once(pos: &Position) -> bool {
    if pos.winning_move().is_some() {
        return true;
    }
    let them = pos.side_to_move().opponent();
    let pawns = [pos.pawns(Color::White), pos.pawns(Color::Black)];
    let theirs = Position::from_parts(pawns, them, pos.diagonal_step(), pos.geometry());
    theirs.count_legal_moves() <= 6
        && pos
            .legal_moves()
            .iter()
            .any(|&m| pos.child(m).count_legal_moves() == 0)
}

struct Builder<'t, 'w, 'a> {
    winner: Color,
    table: &'t Table,
    worker: &'w mut ProofWorker<'a>,
    moves: HashMap<Key, Move>,
    /// Positions of the loser to move already covered, by their table key's hash: a
    /// position wrongly taken for one seen (a 2^-64 accident) leaves a hole the check
    /// finds, so the hash is safe here, and takes less than half the memory.
    seen: HashSet<u64>,
}

impl Builder<'_, '_, '_> {
    fn winner_to_move(&mut self, pos: &Position) -> Result<(), CertificateError> {
        let (key, mirrored) = canonical(pos);
        if self.moves.contains_key(&key) {
            return Ok(());
        }
        let not_proven = || CertificateError::NotProven(pos.to_fen());
        if self.worker.out_of_time() {
            return Err(not_proven());
        }
        if let Some(outcome) = pos.outcome() {
            return match outcome.winner == Some(self.winner) {
                true => Ok(()),
                false => Err(not_proven()),
            };
        }
        // The checker finds these wins itself.
        if short_win(pos).is_some() {
            return Ok(());
        }
        let m = match knowledge::judge(pos) {
            Some(Known::Win(Some(m))) => m,
            Some(_) => return Err(not_proven()),
            None => {
                let entry = match self.table.get(key::Key::of(pos)) {
                    Some(e) if e.phi == 0 && e.best != 0 => e,
                    _ => self.worker.solve(pos),
                };
                if entry.phi != 0 {
                    return Err(not_proven());
                }
                Move::from_bits(entry.best).ok_or_else(not_proven)?
            }
        };
        let stored = if mirrored { m.mirrored(pos.files()) } else { m };
        self.moves.insert(key, stored);
        self.loser_to_move(&pos.child(m))
    }

    fn loser_to_move(&mut self, pos: &Position) -> Result<(), CertificateError> {
        if !self.seen.insert(key::Key::of(pos).hash) {
            return Ok(());
        }
        if let Some(outcome) = pos.outcome() {
            return match outcome.winner == Some(self.winner) {
                true => Ok(()),
                false => Err(CertificateError::NotProven(pos.to_fen())),
            };
        }
        for &m in pos.legal_moves().iter() {
            self.winner_to_move(&pos.child(m))?;
        }
        Ok(())
    }
}
