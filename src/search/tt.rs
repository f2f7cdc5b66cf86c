//! A lock-free transposition table shared by all search threads.
//!
//! Each slot is two atomics: `key ^ data` and `data`. A reader accepts an entry only
//! if the two agree with its key, so a torn write (two threads storing at once) reads
//! as a miss instead of as a wrong entry.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// How a stored score bounds the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true score is at least this (a fail high).
    Lower,
    /// The true score is at most this (a fail low).
    Upper,
    Exact,
}

/// A probed entry. Scores are as stored: the caller converts win distances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub(crate) move_code: u16,
    pub(crate) score: i16,
    pub(crate) depth: u8,
    pub(crate) bound: Bound,
}

/// Why a table could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum TableError {
    #[error(
        "cannot allocate {megabytes} MB for the hash table: only {available} MB of memory are free"
    )]
    NotFree { megabytes: usize, available: usize },
    #[error("cannot allocate {megabytes} MB for the hash table")]
    Allocation { megabytes: usize },
}

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

pub(crate) struct TranspositionTable {
    slots: Box<[Slot]>,
    generation: AtomicU8,
}

const SLOT_BYTES: usize = 16;

fn pack(e: Entry, generation: u8) -> u64 {
    let bound = match e.bound {
        Bound::Lower => 1u64,
        Bound::Upper => 2,
        Bound::Exact => 3,
    };
    e.move_code as u64
        | (e.score as u16 as u64) << 16
        | (e.depth as u64) << 32
        | bound << 40
        | (generation as u64) << 48
}

fn unpack(data: u64) -> Option<Entry> {
    let bound = match (data >> 40) & 3 {
        1 => Bound::Lower,
        2 => Bound::Upper,
        3 => Bound::Exact,
        _ => return None,
    };
    Some(Entry {
        move_code: data as u16,
        score: (data >> 16) as u16 as i16,
        depth: (data >> 32) as u8,
        bound,
    })
}

impl TranspositionTable {
    /// A table of about `megabytes` MB (at least one slot), or an error if the memory
    /// cannot be had.
    pub(crate) fn new(megabytes: usize) -> Result<TranspositionTable, TableError> {
        // Every slot is written below, so a table larger than free memory would not
        // fail cleanly: the system would kill the process. Refuse it up front.
        if let Some(available) = available_megabytes()
            && megabytes > available
        {
            return Err(TableError::NotFree {
                megabytes,
                available,
            });
        }
        let count = (megabytes.saturating_mul(1 << 20) / SLOT_BYTES).max(1);
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(count)
            .map_err(|_| TableError::Allocation { megabytes })?;
        slots.extend((0..count).map(|_| Slot {
            check: AtomicU64::new(0),
            data: AtomicU64::new(0),
        }));
        Ok(TranspositionTable {
            slots: slots.into_boxed_slice(),
            generation: AtomicU8::new(0),
        })
    }

    /// Empties every slot.
    pub(crate) fn clear(&self) {
        for s in self.slots.iter() {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search, so old entries give way first.
    pub(crate) fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn slot(&self, key: u64) -> &Slot {
        // Multiply-shift maps the key onto any table size without a modulo.
        let index = ((key as u128 * self.slots.len() as u128) >> 64) as usize;
        &self.slots[index]
    }

    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slot(key);
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        if check ^ data != key {
            return None;
        }
        unpack(data)
    }

    /// Stores an entry, keeping a deeper one from this search for another position.
    #[inline]
    pub(crate) fn store(&self, key: u64, entry: Entry) {
        let slot = self.slot(key);
        let generation = self.generation.load(Ordering::Relaxed) & 0x3f;
        let old_data = slot.data.load(Ordering::Relaxed);
        let old_key = slot.check.load(Ordering::Relaxed) ^ old_data;
        let old_generation = ((old_data >> 48) & 0x3f) as u8;
        let old_depth = (old_data >> 32) as u8;
        let replace = old_key == key
            || old_generation != generation
            || entry.bound == Bound::Exact
            || entry.depth + 2 >= old_depth;
        if !replace {
            return;
        }
        let mut entry = entry;
        if old_key == key && entry.move_code == 0 {
            // Keep the known best move when the new entry has none.
            entry.move_code = old_data as u16;
        }
        let data = pack(entry, generation);
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Per mille of the first thousand slots used in the current search.
    pub(crate) fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 0x3f;
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                unpack(d).is_some() && ((d >> 48) & 0x3f) as u8 == generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

/// Free memory in MB as the kernel reports it (`MemAvailable`), where it does.
pub(crate) fn available_megabytes() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kilobytes: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes / 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_verifies_keys() {
        let tt = TranspositionTable::new(1).unwrap();
        let e = Entry {
            move_code: 0x123,
            score: -31_000,
            depth: 9,
            bound: Bound::Lower,
        };
        tt.store(42, e);
        assert_eq!(tt.probe(42), Some(e));
        // Another key mapping to the same slot is a miss, not a wrong hit.
        assert_eq!(tt.probe(43), None);
        tt.clear();
        assert_eq!(tt.probe(42), None);
        let tiny = TranspositionTable::new(0).unwrap();
        tiny.store(7, e);
        assert_eq!(tiny.probe(7), Some(e));
    }
}
