//! The solver's table: proof and disproof numbers of the positions met, shared by every
//! thread without locks. An entry is two words: the numbers, and a check word holding 46
//! bits of the key (bits the bucket's index does not use), the winning move and the work,
//! xored with the numbers, so a read that meets an entry another thread is writing sees a
//! wrong key and takes it for a miss. Four entries make a bucket of one cache line; a full
//! bucket gives up the entry that cost least to compute, unproven before proven at equal cost.
//!
//! A table can be saved to a file and loaded again ([`Table::save`], [`Table::load`]), into
//! a table of the same size or, entry by entry, of another: a long solve goes on over
//! several runs.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::key::Key;
use crate::rulesets::Rules;
use crate::rulesets::breakthrough::{DiagonalStep, Position};
use crate::search::tt::{TableError, available_megabytes};

/// Infinity of proof numbers: a proof number is `INF` only when the other one is 0.
pub(crate) const INF: u32 = 1 << 30;

const BUCKET: usize = 4;
const KEY_BITS: u32 = 46;
const KEY_MASK: u64 = (1 << KEY_BITS) - 1;

/// What the table knows of a position, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ProofEntry {
    /// Proof number: how hard it looks to prove the side to move wins (0: proven).
    pub(crate) phi: u32,
    /// Disproof number: how hard it looks to prove it loses (0: proven).
    pub(crate) delta: u32,
    /// For a proven win, the winning move's bits (`Move::to_bits`); 0 when not known.
    pub(crate) best: u16,
    /// Nodes searched to reach these numbers: what keeps an entry (kept to a power of 2).
    pub(crate) work: u32,
}

impl ProofEntry {
    pub(crate) fn is_proven(&self) -> bool {
        self.phi == 0 || self.delta == 0
    }
}

/// The bit length of `work`: 0 for 0, 1 for 1, 2 for 2-3, ...
fn work_log(work: u32) -> u64 {
    u64::from(32 - work.leading_zeros())
}

#[repr(align(64))]
struct Bucket([AtomicU64; 2 * BUCKET]);

pub(crate) struct Table {
    buckets: Box<[Bucket]>,
}

impl Table {
    /// A table of about `megabytes` MB, refused if the memory is not free.
    pub(crate) fn new(megabytes: usize) -> Result<Table, TableError> {
        Table::with_buckets(bucket_count(megabytes), megabytes)
    }

    /// An empty table of `count` buckets (`megabytes`, for the error).
    fn with_buckets(count: usize, megabytes: usize) -> Result<Table, TableError> {
        if let Some(available) = available_megabytes()
            && megabytes > available
        {
            return Err(TableError::NotFree {
                megabytes,
                available,
            });
        }
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(count)
            .map_err(|_| TableError::Allocation { megabytes })?;
        // Writing the zeros is the setting up: rayon's threads share it (16 GB: 19-71 s
        // on one thread, 9-10 s on two; 128 MB: 70-80 ms, 40-50 ms).
        buckets.par_extend(
            (0..count)
                .into_par_iter()
                .map(|_| Bucket(std::array::from_fn(|_| AtomicU64::new(0)))),
        );
        Ok(Table {
            buckets: buckets.into_boxed_slice(),
        })
    }

    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[bucket_index(key, self.buckets.len())]
    }

    /// Slot `i` of a bucket: its key check (the check word less the numbers) and entry;
    /// `None` when empty.
    fn read(bucket: &Bucket, i: usize) -> Option<(u64, ProofEntry)> {
        let numbers = bucket.0[2 * i + 1].load(Relaxed);
        if numbers == 0 {
            // phi = delta = 0: no real entry has that.
            return None;
        }
        let check = bucket.0[2 * i].load(Relaxed) ^ numbers;
        let log = (check & 63) as u32;
        let entry = ProofEntry {
            phi: numbers as u32,
            delta: (numbers >> 32) as u32,
            best: ((check >> 6) & 0xfff) as u16,
            // A torn read may hold any bits (the key check then refuses it): no overflow.
            work: if log == 0 { 0 } else { 1 << (log - 1).min(31) },
        };
        Some((check >> 18, entry))
    }

    /// The entry of `key`'s position, if the table has it.
    pub(crate) fn get(&self, key: Key) -> Option<ProofEntry> {
        let bucket = self.bucket(key.hash);
        (0..BUCKET).find_map(|i| match Table::read(bucket, i) {
            Some((k, e)) if k == key.hash & KEY_MASK => Some(ProofEntry {
                best: key.orient(e.best),
                ..e
            }),
            _ => None,
        })
    }

    /// Loads the buckets of `keys` into the cache at once: independent loads overlap,
    /// where probing one key after another waits for each miss in turn.
    pub(crate) fn touch(&self, keys: impl Iterator<Item = Key>) {
        let mut any = 0;
        for key in keys {
            any ^= self.bucket(key.hash).0[0].load(Relaxed);
        }
        std::hint::black_box(any);
    }

    /// Records `entry` for `key`'s position, over the key's old entry or the least
    /// valuable one.
    pub(crate) fn store(&self, key: Key, entry: ProofEntry) {
        let best = key.orient(entry.best);
        let key = key.hash;
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut lowest = u64::MAX;
        for i in 0..BUCKET {
            let Some((k, e)) = Table::read(bucket, i) else {
                victim = i;
                break;
            };
            if k == key & KEY_MASK {
                victim = i;
                break;
            }
            // Work first: a proven position that cost nothing (most are children settled
            // by knowledge) is recomputed at once; one whose proof took a million nodes
            // is not, and neither is an open one that took as many.
            let value = work_log(e.work) << 1 | u64::from(e.is_proven());
            if value < lowest {
                lowest = value;
                victim = i;
            }
        }
        let numbers = u64::from(entry.phi) | u64::from(entry.delta) << 32;
        let check = (key & KEY_MASK) << 18 | u64::from(best & 0xfff) << 6 | work_log(entry.work);
        bucket.0[2 * victim + 1].store(numbers, Relaxed);
        bucket.0[2 * victim].store(check ^ numbers, Relaxed);
    }

    /// Writes the table to `path` (through a temporary file, so a failed save leaves the
    /// old file whole), for [`Table::load`] to go on from.
    pub(crate) fn save(&self, path: &Path) -> Result<(), TableFileError> {
        let mut temporary = path.as_os_str().to_owned();
        temporary.push(".partial");
        let mut out = BufWriter::with_capacity(1 << 20, File::create(&temporary)?);
        let header = file_header(self.buckets.len());
        let mut checksum = Checksum::default();
        for &word in &header {
            checksum.add(word);
            out.write_all(&word.to_le_bytes())?;
        }
        for bucket in self.buckets.iter() {
            let mut bytes = [0u8; size_of::<Bucket>()];
            for (word, chunk) in bucket.0.iter().zip(bytes.chunks_exact_mut(8)) {
                let word = word.load(Relaxed);
                checksum.add(word);
                chunk.copy_from_slice(&word.to_le_bytes());
            }
            out.write_all(&bytes)?;
        }
        out.write_all(&checksum.0.to_le_bytes())?;
        out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        std::fs::rename(&temporary, path)?;
        Ok(())
    }

    /// The table [`Table::save`] wrote to `path`, refused whole if the file is not one,
    /// comes from a solver with other keys or entries, or is damaged. With `megabytes` of
    /// another size, its entries are stored one by one into a new table of that size (the
    /// file is read as a stream, so the two are never in memory together); where they do
    /// not all fit, the usual replacement keeps the costliest.
    pub(crate) fn load(path: &Path, megabytes: Option<usize>) -> Result<Table, TableFileError> {
        let file = File::open(path)?;
        let length = file.metadata()?.len();
        let mut input = BufReader::with_capacity(1 << 20, file);
        let mut word = || -> Result<u64, TableFileError> {
            let mut bytes = [0u8; 8];
            input.read_exact(&mut bytes).map_err(|e| match e.kind() {
                std::io::ErrorKind::UnexpectedEof => TableFileError::Length,
                _ => TableFileError::Io(e),
            })?;
            Ok(u64::from_le_bytes(bytes))
        };
        let mut checksum = Checksum::default();
        let mut header = [0u64; 3];
        for h in &mut header {
            *h = word()?;
            checksum.add(*h);
        }
        let count = usize::try_from(header[2]).unwrap_or(0);
        if count == 0 || header != file_header(count) {
            return Err(TableFileError::Foreign);
        }
        // Checked before the memory is taken: a cut file fails at once, not after reading.
        let bytes = (header.len() as u64 + 1)
            .checked_add((count as u64).saturating_mul(2 * BUCKET as u64))
            .and_then(|words| words.checked_mul(8));
        if bytes != Some(length) {
            return Err(TableFileError::Length);
        }
        let target = megabytes.map_or(count, bucket_count);
        if target != count && count < MIN_BUCKETS_TO_RESIZE {
            return Err(TableFileError::TooSmallToResize);
        }
        let mut table =
            Table::with_buckets(target, (target * size_of::<Bucket>()).div_ceil(1 << 20))?;
        for index in 0..count {
            let bucket = Bucket(std::array::from_fn(|_| AtomicU64::new(0)));
            for slot in &bucket.0 {
                let w = word()?;
                checksum.add(w);
                slot.store(w, Relaxed);
            }
            if target == count {
                table.buckets[index] = bucket;
                continue;
            }
            for i in 0..BUCKET {
                if let Some((low, entry)) = Table::read(&bucket, i)
                    && let Some(hash) = full_key(index, count, low)
                {
                    table.store(Key::from_hash(hash), entry);
                }
            }
        }
        if word()? != checksum.0 {
            return Err(TableFileError::Damaged);
        }
        Ok(table)
    }

    /// Entries in use per thousand, from a sample.
    pub(crate) fn permille_full(&self) -> u32 {
        let sample = self.buckets.len().min(1000);
        let used: usize = self.buckets[..sample]
            .iter()
            .map(|b| (0..BUCKET).filter(|&i| Table::read(b, i).is_some()).count())
            .sum();
        (used * 1000 / (sample * BUCKET).max(1)) as u32
    }
}

/// The buckets of a table of `megabytes` MB.
fn bucket_count(megabytes: usize) -> usize {
    (megabytes.saturating_mul(1 << 20) / size_of::<Bucket>()).max(1)
}

/// The bucket of `key` among `count`: the key's high bits pick it, the low ones are
/// checked in the entry.
fn bucket_index(key: u64, count: usize) -> usize {
    ((u128::from(key) * count as u128) >> 64) as usize
}

/// From this many buckets (16 MB) on, the bucket and the key's low bits in the entry give
/// the whole key, so a saved table's entries can move to a table of another size.
const MIN_BUCKETS_TO_RESIZE: usize = 1 << (64 - KEY_BITS);

/// The key of an entry of bucket `index` among `count` (at least [`MIN_BUCKETS_TO_RESIZE`])
/// whose low bits are `low`: the bucket's keys run over less than `2^KEY_BITS`, so at most
/// one of them has those low bits. `None` if none does (a damaged entry).
fn full_key(index: usize, count: usize, low: u64) -> Option<u64> {
    let first = ((u128::from(index as u64) << 64).div_ceil(count as u128)) as u64;
    let mut key = (first & !KEY_MASK) | low;
    if key < first {
        key = key.checked_add(1 << KEY_BITS)?;
    }
    (bucket_index(key, count) == index).then_some(key)
}

/// Why a saved table cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub(crate) enum TableFileError {
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("not a table saved by this version of the solver")]
    Foreign,
    #[error("its length does not match the table its header describes (cut short?)")]
    Length,
    #[error("damaged: its checksum does not match")]
    Damaged,
    #[error("a table under 16 MB cannot change size: load it with its own size (no --hash)")]
    TooSmallToResize,
    #[error(transparent)]
    Memory(#[from] TableError),
}

/// A saved table's first words: the format, a key of a fixed position (a solver whose
/// keys differ cannot use the entries: the file is refused) and the bucket count.
/// `FORMAT` changes with the entries' layout.
fn file_header(buckets: usize) -> [u64; 3] {
    const FORMAT: u64 = u64::from_le_bytes(*b"btsolve1");
    let fixed = Key::of(&Position::startpos(DiagonalStep::Free)).hash;
    [FORMAT, fixed, buckets as u64]
}

/// A checksum of a saved table's words, to refuse a file damaged on disk: one flipped
/// bit in a proven entry would otherwise be a false proof.
#[derive(Default)]
struct Checksum(u64);

impl Checksum {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(23) ^ word).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let table = Table::new(1).unwrap();
        let key = Key::from_hash(0x1234_5678_9abc_def0);
        let entry = ProofEntry {
            phi: 3,
            delta: 7,
            best: 0,
            work: 8,
        };
        table.store(key, entry);
        assert_eq!(table.get(key), Some(entry));
        // The check word of another write: other key bits, a work length of 52.
        table.bucket(key.hash).0[0].fetch_xor(1 << 40 | 0b11_0000, Relaxed);
        assert_eq!(table.get(key), None);
    }

    #[test]
    fn a_saved_table_moves_into_a_table_of_another_size() {
        let scratch = crate::util::scratch::Scratch::new("table-resize");
        let path = scratch.path("t");
        let table = Table::new(16).unwrap();
        let mut rng = crate::util::rng::Rng::new(7);
        let entries: Vec<(Key, ProofEntry)> = (0..200_000u32)
            .map(|i| {
                let entry = ProofEntry {
                    phi: 1 + i % 5,
                    delta: if i % 7 == 0 { 0 } else { 2 + i },
                    best: 0,
                    work: 1 << (i % 20),
                };
                (Key::from_hash(rng.next_u64()), entry)
            })
            .collect();
        for &(key, entry) in &entries {
            table.store(key, entry);
        }
        let held: Vec<&(Key, ProofEntry)> = entries
            .iter()
            .filter(|(k, e)| table.get(*k) == Some(*e))
            .collect();
        assert!(held.len() > 190_000);
        table.save(&path).unwrap();
        // As large or larger: every entry found again, the same.
        for megabytes in [None, Some(16), Some(40)] {
            let loaded = Table::load(&path, megabytes).unwrap();
            assert!(held.iter().all(|(k, e)| loaded.get(*k) == Some(*e)));
        }
        // Smaller: what is found is right, and the costliest are kept.
        let small = Table::load(&path, Some(1)).unwrap();
        let found: Vec<&&(Key, ProofEntry)> = held
            .iter()
            .filter(|(k, _)| small.get(*k).is_some())
            .collect();
        assert!(found.iter().all(|(k, e)| small.get(*k) == Some(*e)));
        assert!(found.len() > 50_000 && found.len() < held.len());
        let mean_work = |set: &mut dyn Iterator<Item = u32>| {
            let (sum, n) = set.fold((0u64, 0u64), |(s, n), w| (s + u64::from(w), n + 1));
            sum / n
        };
        assert!(
            mean_work(&mut found.iter().map(|(_, e)| e.work))
                > mean_work(&mut held.iter().map(|(_, e)| e.work))
        );
        // A table under 16 MB does not hold whole keys: it keeps its size or is refused.
        Table::new(1).unwrap().save(&path).unwrap();
        assert!(Table::load(&path, Some(1)).is_ok());
        assert!(matches!(
            Table::load(&path, Some(2)),
            Err(TableFileError::TooSmallToResize)
        ));
    }

    #[test]
    fn keeps_entries_and_gives_up_the_cheapest() {
        let table = Table::new(1).unwrap();
        let entry = |work| ProofEntry {
            phi: 3,
            delta: 7,
            best: 0,
            work,
        };
        table.store(Key::from_hash(u64::MAX - 1), entry(4));
        assert_eq!(table.get(Key::from_hash(u64::MAX - 1)), Some(entry(4)));
        assert_eq!(table.get(Key::from_hash(u64::MAX - 2)), None);
        // Keys of one bucket: the same high bits.
        let keys: Vec<Key> = (0..BUCKET as u64 + 1)
            .map(|i| Key::from_hash(1 << 40 | i))
            .collect();
        for (i, &key) in keys.iter().enumerate() {
            table.store(key, entry(1 << (10 - i)));
        }
        // The fifth pushed out the cheapest of the first four (the fourth, work 2^7).
        assert!(table.get(keys[3]).is_none());
        for &i in &[0, 1, 2, 4] {
            assert!(table.get(keys[i]).is_some(), "{i}");
        }
        let proven = ProofEntry {
            phi: 0,
            delta: INF,
            best: 0xabc,
            work: 1 << 6,
        };
        table.store(keys[0], proven);
        // At equal work (2^6) the open entry goes first...
        table.store(Key::from_hash(1 << 40 | 77), entry(1 << 20));
        assert_eq!(table.get(keys[0]), Some(proven), "a proven entry stays");
        assert!(table.get(keys[4]).is_none());
        // ... but a cheap proof goes before a costly open entry (2^8).
        table.store(Key::from_hash(1 << 40 | 78), entry(1 << 20));
        assert!(table.get(keys[0]).is_none());
        assert!(table.get(keys[2]).is_some());
    }
}
