//! The solver's table: proof and disproof numbers of the positions met, shared by every
//! thread without locks. An entry is three words, the first its key xored with the other
//! two, so a read that meets an entry another thread is writing sees a wrong key and
//! takes it for a miss. Entries live in buckets of four; a full bucket gives up the
//! entry that cost least to compute, unproven ones before proven ones.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::search::tt::{TableError, available_megabytes};

/// Infinity of proof numbers: a proof number is `INF` only when the other one is 0.
pub(crate) const INF: u32 = 1 << 30;

const BUCKET: usize = 4;
const ENTRY_BYTES: usize = 24;

/// What the table knows of a position, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// Proof number: how hard it looks to prove the side to move wins (0: proven).
    pub(crate) phi: u32,
    /// Disproof number: how hard it looks to prove it loses (0: proven).
    pub(crate) delta: u32,
    /// For a proven win, the winning move's bits (`Move::to_bits`); 0 when not known.
    pub(crate) best: u16,
    /// Nodes searched to reach these numbers (saturating): what keeps an entry.
    pub(crate) work: u32,
}

impl Entry {
    pub(crate) fn is_proven(&self) -> bool {
        self.phi == 0 || self.delta == 0
    }

    fn words(&self) -> (u64, u64) {
        (
            u64::from(self.phi) | u64::from(self.delta) << 32,
            u64::from(self.best) | u64::from(self.work) << 16,
        )
    }

    fn from_words(a: u64, b: u64) -> Entry {
        Entry {
            phi: a as u32,
            delta: (a >> 32) as u32,
            best: b as u16,
            work: (b >> 16) as u32,
        }
    }

    /// How much an entry is worth keeping.
    fn value(&self) -> u64 {
        u64::from(self.is_proven()) << 40 | u64::from(self.work)
    }
}

struct Slot([AtomicU64; 3]);

pub(crate) struct Table {
    slots: Box<[Slot]>,
    buckets: usize,
}

impl Table {
    /// A table of about `megabytes` MB, refused if the memory is not free.
    pub(crate) fn new(megabytes: usize) -> Result<Table, TableError> {
        if let Some(available) = available_megabytes()
            && megabytes > available
        {
            return Err(TableError::NotFree {
                megabytes,
                available,
            });
        }
        let buckets = (megabytes.saturating_mul(1 << 20) / (ENTRY_BYTES * BUCKET)).max(1);
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(buckets * BUCKET)
            .map_err(|_| TableError::Allocation { megabytes })?;
        slots.extend(
            (0..buckets * BUCKET)
                .map(|_| Slot([AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)])),
        );
        Ok(Table {
            slots: slots.into_boxed_slice(),
            buckets,
        })
    }

    fn bucket(&self, key: u64) -> &[Slot] {
        // The high bits pick the bucket (the low ones are Zobrist noise as good).
        let index = ((u128::from(key) * self.buckets as u128) >> 64) as usize;
        &self.slots[index * BUCKET..(index + 1) * BUCKET]
    }

    fn read(slot: &Slot) -> (u64, Entry) {
        let [k, a, b] = &slot.0;
        let (a, b) = (a.load(Relaxed), b.load(Relaxed));
        (k.load(Relaxed) ^ a ^ b, Entry::from_words(a, b))
    }

    /// The entry of `key`, if the table has it.
    pub(crate) fn get(&self, key: u64) -> Option<Entry> {
        self.bucket(key).iter().find_map(|slot| {
            let (k, e) = Table::read(slot);
            // An empty slot reads as phi = delta = 0, which no real entry has.
            (k == key && (e.phi, e.delta) != (0, 0)).then_some(e)
        })
    }

    /// Records `entry` for `key`, over the key's old entry or the least valuable one.
    pub(crate) fn store(&self, key: u64, entry: Entry) {
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut lowest = u64::MAX;
        for (i, slot) in bucket.iter().enumerate() {
            let (k, e) = Table::read(slot);
            let empty = (e.phi, e.delta) == (0, 0);
            if k == key || empty {
                victim = i;
                break;
            }
            if e.value() < lowest {
                lowest = e.value();
                victim = i;
            }
        }
        let (a, b) = entry.words();
        let [k, wa, wb] = &bucket[victim].0;
        wa.store(a, Relaxed);
        wb.store(b, Relaxed);
        k.store(key ^ a ^ b, Relaxed);
    }

    /// Entries in use per thousand, from a sample.
    pub(crate) fn permille_full(&self) -> u32 {
        let sample = self.slots.len().min(4000);
        let used = self.slots[..sample]
            .iter()
            .filter(|s| {
                let (_, e) = Table::read(s);
                (e.phi, e.delta) != (0, 0)
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_entries_and_gives_up_the_cheapest() {
        let table = Table::new(1).unwrap();
        let entry = |work| Entry {
            phi: 3,
            delta: 7,
            best: 0,
            work,
        };
        table.store(u64::MAX - 1, entry(5));
        assert_eq!(table.get(u64::MAX - 1), Some(entry(5)));
        assert_eq!(table.get(u64::MAX - 2), None);
        // Keys of one bucket: the same high bits.
        let keys: Vec<u64> = (0..BUCKET as u64 + 1).map(|i| 1 << 40 | i).collect();
        for (i, &key) in keys.iter().enumerate() {
            table.store(key, entry(100 - i as u32));
        }
        // The fifth pushed out the cheapest of the first four (the fourth, work 97).
        assert!(table.get(keys[3]).is_none());
        for &i in &[0, 1, 2, 4] {
            assert!(table.get(keys[i]).is_some(), "{i}");
        }
        let proven = Entry {
            phi: 0,
            delta: INF,
            best: 9,
            work: 1,
        };
        table.store(keys[0], proven);
        table.store(1 << 40 | 77, entry(1000));
        assert_eq!(table.get(keys[0]), Some(proven), "a proven entry stays");
    }
}
