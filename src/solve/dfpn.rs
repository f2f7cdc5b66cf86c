//! Depth-first proof-number search (df-pn, Nagai 2002) over the shared table, with the
//! 1 + ε trick of Pawlewicz and Lew.
//!
//! Numbers are from the side to move's view (the "phi/delta" form): phi is the proof
//! number of its win, delta the disproof number. A node's phi is the least delta of its
//! children (one refuted reply proves the win) and its delta comes from their phis (every
//! reply must be shown to win): the largest, plus half the sum of the others. The plain
//! sum counts a position reached through several children once per child, and in
//! Breakthrough most are: the damped sum took 1-39% fewer nodes (one thread) on eight
//! boards from 3x6 to 6x5, never more. The search goes down the child of least delta
//! while the node's numbers stay under the thresholds it was given, so it needs memory
//! only for the table, not for a tree. Breakthrough's pawns never step back, so no
//! position repeats and the graph has no cycles to mislead the numbers.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use super::key::Key;
use super::knowledge::{self, Known};
use super::table::{INF, ProofEntry, Table};
use crate::rulesets::SearchRules;
use crate::rulesets::breakthrough::{MAX_MOVES, Move, Position};

/// A child is searched until its numbers pass its best sibling's by this fraction (not
/// by one): fewer switches between siblings, fewer positions searched again.
const EPSILON: f64 = 0.25;

/// Nodes between looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 4096;

/// The numbers of a settled position.
pub(crate) fn settled(known: Known) -> ProofEntry {
    match known {
        Known::Win(m) => ProofEntry {
            phi: 0,
            delta: INF,
            best: m.map_or(0, Move::to_bits),
            work: 0,
        },
        Known::Loss => ProofEntry {
            phi: INF,
            delta: 0,
            best: 0,
            work: 0,
        },
    }
}

/// When to give up.
#[derive(Clone, Copy)]
pub(crate) struct Stop<'a> {
    /// Set by the caller: every worker stops.
    pub(crate) flag: &'a AtomicBool,
    /// Set when the answer is known (workers on other parts of the problem stop) or at
    /// the deadline.
    pub(crate) done: &'a AtomicBool,
    pub(crate) deadline: Option<Instant>,
}

/// One thread's search.
pub(crate) struct ProofWorker<'a> {
    table: &'a Table,
    stop: Stop<'a>,
    /// Nodes of every worker, for the report.
    all_nodes: &'a AtomicU64,
    nodes: u64,
    unreported: u64,
    /// Child lists to reuse.
    lists: Vec<Vec<Child>>,
}

struct Child {
    m: Move,
    pos: Position,
    key: Key,
    phi: u32,
    delta: u32,
}

impl<'a> ProofWorker<'a> {
    pub(crate) fn new(
        table: &'a Table,
        stop: Stop<'a>,
        all_nodes: &'a AtomicU64,
    ) -> ProofWorker<'a> {
        ProofWorker {
            table,
            stop,
            all_nodes,
            nodes: 0,
            unreported: 0,
            lists: Vec::new(),
        }
    }

    /// Searches `pos` until it is proven or disproven, or the search is stopped; its
    /// numbers at the end (also in the table).
    pub(crate) fn solve(&mut self, pos: &Position) -> ProofEntry {
        let key = Key::of(pos);
        let entry = match knowledge::judge(pos) {
            Some(known) => {
                self.count_node();
                let entry = settled(known);
                self.table.store(key, entry);
                entry
            }
            None => self.mid(pos, key, INF, INF),
        };
        self.flush();
        entry
    }

    pub(crate) fn stopped(&self) -> bool {
        self.stop.flag.load(Relaxed) || self.stop.done.load(Relaxed)
    }

    /// Whether to stop now, the clock read at once: for work between solves.
    pub(crate) fn out_of_time(&self) -> bool {
        if self.stop.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stop.done.store(true, Relaxed);
        }
        self.stopped()
    }

    fn flush(&mut self) {
        self.all_nodes.fetch_add(self.unreported, Relaxed);
        self.unreported = 0;
    }

    fn count_node(&mut self) {
        self.nodes += 1;
        self.unreported += 1;
        if self.unreported >= CHECK_EVERY {
            self.flush();
            if self.stop.deadline.is_some_and(|d| Instant::now() >= d) {
                // Not `flag`: that is the caller's, who may go on after the solve.
                self.stop.done.store(true, Relaxed);
            }
        }
    }

    /// The multiple-iterative-deepening step: searches below `pos` until its phi reaches
    /// `th_phi` or its delta `th_delta`. `pos` was judged unsettled before (as the root by
    /// `solve`, as a child by `expand`), so it is not judged again.
    fn mid(&mut self, pos: &Position, key: Key, th_phi: u32, th_delta: u32) -> ProofEntry {
        self.count_node();
        let start = self.nodes;
        // Each depth's list is kept for the next node at that depth: no allocation.
        let mut children = self.lists.pop().unwrap_or_default();
        self.expand(pos, &mut children);
        let entry = loop {
            let (phi, delta, best, second) = numbers(&children);
            if phi == 0 || delta == 0 || phi >= th_phi || delta >= th_delta || self.stopped() {
                let entry = ProofEntry {
                    phi,
                    delta,
                    best: if phi == 0 {
                        children[best].m.to_bits()
                    } else {
                        0
                    },
                    work: (self.nodes - start).min(u64::from(u32::MAX)) as u32,
                };
                self.table.store(key, entry);
                break entry;
            }
            // The child may spend what keeps this node under its delta threshold, and
            // must give way once it is clearly worse than its next sibling.
            let child_th_phi = (u64::from(th_delta) - u64::from(delta)
                + u64::from(children[best].phi))
            .min(u64::from(INF)) as u32;
            let widened =
                (u64::from(second) + 1).max((f64::from(second) * (1.0 + EPSILON)).ceil() as u64);
            let child_th_delta = widened.min(u64::from(th_phi)) as u32;
            let (child, child_key) = (children[best].pos, children[best].key);
            let entry = self.mid(&child, child_key, child_th_phi, child_th_delta);
            // The siblings' numbers are not read again: this thread's search of the child
            // never meets a sibling (the player who moved into it has lost no pawn there,
            // and any position below the child where it has lost none has its pawns
            // advanced by more moves). Another thread's changes are seen at the node's next
            // expansion; reading them here cost more time than it saved nodes.
            (children[best].phi, children[best].delta) = (entry.phi, entry.delta);
        };
        self.lists.push(children);
        entry
    }

    /// The moves worth searching, with their numbers, into `children`: a move that lets
    /// the opponent win at once is left out (none left: the position is lost), and in a
    /// symmetric position a move whose mirror image is already there.
    ///
    /// Captures come first, so they win ties of numbers: on one thread that took 32%
    /// fewer nodes for capture-only 5x6, 9% for capture-only 6x5, 6% for 4x6, 2% for 5x5,
    /// as many for 6x5 and 4% more for 3x6.
    fn expand(&mut self, pos: &Position, children: &mut Vec<Child>) {
        children.clear();
        let moves = pos.legal_moves_captures_first();
        let can_stop = knowledge::threat_stoppers(pos);
        children.extend(moves.iter().filter(|m| can_stop(**m)).map(|&m| {
            let child = pos.child(m);
            Child {
                m,
                pos: child,
                key: Key::of(&child),
                phi: 0,
                delta: 0,
            }
        }));
        if pos.is_symmetric() {
            // Twin moves lead to mirror images, which share a key: keep the first of each.
            let mut seen = [0u64; MAX_MOVES];
            let mut kept = 0;
            children.retain(|c| {
                let new = !seen[..kept].contains(&c.key.hash);
                if new {
                    seen[kept] = c.key.hash;
                    kept += 1;
                }
                new
            });
        }
        self.table.touch(children.iter().map(|c| c.key));
        children.retain_mut(|c| {
            (c.phi, c.delta) = match self.table.get(c.key) {
                // Only positions judged below, or settled, are ever stored: an entry
                // skips the check for a win at once.
                Some(e) => (e.phi, e.delta),
                // A move that lets the opponent win at once is left out.
                None if c.pos.winning_move().is_some() => return false,
                None => match knowledge::judge_past_wins_at_once(&c.pos) {
                    Some(known) => {
                        let e = settled(known);
                        self.table.store(c.key, e);
                        (e.phi, e.delta)
                    }
                    None => {
                        // Kept (at the lowest worth) for this node's next expansion.
                        let (phi, delta) = knowledge::initial(&c.pos);
                        let e = ProofEntry {
                            phi,
                            delta,
                            best: 0,
                            work: 0,
                        };
                        self.table.store(c.key, e);
                        (phi, delta)
                    }
                },
            };
            true
        });
    }
}

/// A node's phi and delta from its children's, the child of least delta and the next
/// least delta. No children: lost (phi infinite, delta 0).
fn numbers(children: &[Child]) -> (u32, u32, usize, u32) {
    let mut phi = INF;
    let mut second = INF;
    let mut best = 0;
    let mut sum: u64 = 0;
    let mut largest: u64 = 0;
    for (i, c) in children.iter().enumerate() {
        if c.delta < phi {
            second = phi;
            phi = c.delta;
            best = i;
        } else if c.delta < second {
            second = c.delta;
        }
        sum += u64::from(c.phi);
        largest = largest.max(u64::from(c.phi));
    }
    let delta = if phi == 0 {
        INF
    } else {
        // 0 only when every phi is (each reply proven to win). Unproven numbers stay
        // below infinity, which means proven.
        (largest + (sum - largest) / 2).min(u64::from(INF - 1)) as u32
    };
    let phi = if delta == 0 { INF } else { phi };
    (phi, delta, best, second)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::Rules;
    use crate::rulesets::breakthrough::DiagonalStep;

    #[test]
    fn captures_are_searched_first() {
        let table = Table::new(1).unwrap();
        let (flag, done, nodes) = (
            AtomicBool::new(false),
            AtomicBool::new(false),
            AtomicU64::new(0),
        );
        let stop = Stop {
            flag: &flag,
            done: &done,
            deadline: None,
        };
        let mut worker = ProofWorker::new(&table, stop, &nodes);
        let free = DiagonalStep::Free;
        // White's b2 and d2 can each take Black's c3; nothing wins at once.
        let pos = Position::from_fen("ppppp/5/2p2/1P1P1/P4 w", free).unwrap();
        let mut children = Vec::new();
        worker.expand(&pos, &mut children);
        let captures = children.iter().take_while(|c| pos.is_capture(c.m)).count();
        assert_eq!(captures, 2);
        assert!(children[captures..].iter().all(|c| !pos.is_capture(c.m)));
        assert_eq!(children.len(), pos.legal_moves().len());
    }

    #[test]
    fn numbers_of_a_node() {
        let pos = Position::startpos(DiagonalStep::Free);
        let child = |phi, delta| Child {
            m: Move::from_bits(8 << 6).unwrap(),
            pos,
            key: Key::of(&pos),
            phi,
            delta,
        };
        assert_eq!(numbers(&[]), (INF, 0, 0, INF));
        assert_eq!(
            // delta: the largest phi, 3, plus half of 2 + 1, rounded down.
            numbers(&[child(2, 5), child(3, 4), child(1, 9)]),
            (4, 4, 1, 5)
        );
        assert_eq!(numbers(&[child(2, 5), child(INF, 0)]), (0, INF, 1, 5));
        assert_eq!(numbers(&[child(0, INF), child(0, INF)]), (INF, 0, 0, INF));
        // One reply not yet shown to win: not lost.
        assert_eq!(numbers(&[child(0, INF), child(5, 2)]), (2, 5, 1, INF));
        assert_eq!(numbers(&[child(INF - 1, 3), child(INF - 1, 3)]).1, INF - 1);
    }
}
