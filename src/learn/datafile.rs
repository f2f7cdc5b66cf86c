//! Training data files: positions with the search's score and the game's result, written by
//! `breakthrough datagen` and read by `breakthrough train`.
//!
//! A file is a 32-byte header, then fixed-size records:
//!
//! | bytes | header |
//! |---|---|
//! | 0..8 | `BTDATA01` |
//! | 8..24 | the rule set's name (`UCI_Variant`), ASCII, zero-padded |
//! | 24..26 | record size R, little-endian |
//! | 26..32 | zero |
//!
//! | bytes | record |
//! |---|---|
//! | 0..R-4 | the position, packed by its rule set (`Rules::pack`) |
//! | R-4..R-2 | the search's score in centipawns, side to move's view, little-endian i16 |
//! | R-2 | the game's result for the side to move: 1 won, 0 drawn, -1 lost (i8) |
//! | R-1 | zero |
//!
//! Files only grow: records are appended whole, and a record cut short (a writer killed
//! mid-write) is dropped the next time the file is opened for writing.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

use crate::registry::{AnyPosition, Variant};

const MAGIC: &[u8; 8] = b"BTDATA01";
const HEADER: usize = 32;
/// Bytes after the position in a record.
const TAIL: usize = 4;

/// One training position.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Record {
    pub(crate) position: AnyPosition,
    /// The search's score, side to move's view, in centipawns.
    pub(crate) score: i16,
    /// The game's result for the side to move: 1, 0 or -1.
    pub(crate) result: i8,
}

/// What is wrong with a data file.
#[derive(Debug, thiserror::Error)]
pub(crate) enum DataError {
    #[error("{path}: {error}")]
    Io { path: String, error: std::io::Error },
    #[error("{0}: not a data file (no BTDATA01 header)")]
    NotData(String),
    #[error("{path}: holds {found} positions, not {wanted}")]
    OtherVariant {
        path: String,
        found: String,
        wanted: Variant,
    },
    #[error("{path}: records of {found} bytes, where {variant} positions need {wanted}")]
    RecordSize {
        path: String,
        found: usize,
        wanted: usize,
        variant: Variant,
    },
    #[error("{path}: record {index} holds no position")]
    BadRecord { path: String, index: usize },
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> DataError + '_ {
    move |error| DataError::Io {
        path: path.display().to_string(),
        error,
    }
}

fn record_bytes(variant: Variant) -> usize {
    variant.packed_bytes() + TAIL
}

fn header(variant: Variant) -> [u8; HEADER] {
    let mut out = [0u8; HEADER];
    out[..8].copy_from_slice(MAGIC);
    let name = variant.name().as_bytes();
    out[8..8 + name.len().min(16)].copy_from_slice(&name[..name.len().min(16)]);
    out[24..26].copy_from_slice(&(record_bytes(variant) as u16).to_le_bytes());
    out
}

/// Reads and checks a header: the variant and the record size.
fn read_header(path: &Path, bytes: &[u8]) -> Result<(Variant, usize), DataError> {
    let shown = || path.display().to_string();
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err(DataError::NotData(shown()));
    }
    let name: String = bytes[8..24]
        .iter()
        .take_while(|&&b| b != 0)
        .map(|&b| b as char)
        .collect();
    let variant: Variant = name.parse().map_err(|_| DataError::OtherVariant {
        path: shown(),
        found: name.clone(),
        wanted: Variant::default(),
    })?;
    let size = u16::from_le_bytes([bytes[24], bytes[25]]) as usize;
    if size != record_bytes(variant) {
        return Err(DataError::RecordSize {
            path: shown(),
            found: size,
            wanted: record_bytes(variant),
            variant,
        });
    }
    Ok((variant, size))
}

/// Appends records to a data file.
pub(crate) struct Writer {
    file: File,
    path: String,
    /// Bytes per record.
    size: usize,
}

impl Writer {
    /// Opens `path` to append `variant` positions, creating it with its header if it does
    /// not exist; a record cut short at its end is dropped. Returns the writer and the
    /// records already in the file.
    pub(crate) fn open(path: &Path, variant: Variant) -> Result<(Writer, Records), DataError> {
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(io(path))?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(io(path))?;
        if bytes.is_empty() {
            file.write_all(&header(variant)).map_err(io(path))?;
            file.flush().map_err(io(path))?;
            bytes.extend_from_slice(&header(variant));
        }
        let (found, size) = read_header(path, &bytes)?;
        if found != variant {
            return Err(DataError::OtherVariant {
                path: path.display().to_string(),
                found: found.name().to_string(),
                wanted: variant,
            });
        }
        let whole = HEADER + (bytes.len() - HEADER) / size * size;
        if whole < bytes.len() {
            // A record cut short by a writer that was killed: drop it.
            file.set_len(whole as u64).map_err(io(path))?;
            file.seek(SeekFrom::End(0)).map_err(io(path))?;
            bytes.truncate(whole);
        }
        bytes.drain(..HEADER);
        let records = Records {
            variant,
            size,
            bytes,
        };
        let path = path.display().to_string();
        Ok((Writer { file, path, size }, records))
    }

    /// Cuts the file back to its first `records` records.
    pub(crate) fn truncate(&mut self, records: usize) -> Result<(), DataError> {
        let path = Path::new(&self.path);
        let keep = (HEADER + records * self.size) as u64;
        if keep < self.file.metadata().map_err(io(path))?.len() {
            self.file.set_len(keep).map_err(io(path))?;
            self.file.seek(SeekFrom::End(0)).map_err(io(path))?;
        }
        Ok(())
    }

    /// Appends records `indices` of `from` as stored, in one write.
    pub(crate) fn append_raw(
        &mut self,
        from: &Records,
        indices: &[usize],
    ) -> Result<(), DataError> {
        let mut bytes = Vec::with_capacity(indices.len() * from.size);
        for &i in indices {
            bytes.extend_from_slice(&from.bytes[i * from.size..(i + 1) * from.size]);
        }
        let path = Path::new(&self.path);
        self.file.write_all(&bytes).map_err(io(path))?;
        self.file.flush().map_err(io(path))
    }

    /// Appends `records` in one write.
    pub(crate) fn append(&mut self, records: &[Record]) -> Result<(), DataError> {
        let mut bytes = Vec::new();
        for record in records {
            encode(record, &mut bytes);
        }
        let path = Path::new(&self.path);
        self.file.write_all(&bytes).map_err(io(path))?;
        self.file.flush().map_err(io(path))
    }
}

fn encode(record: &Record, out: &mut Vec<u8>) {
    record.position.pack(out);
    out.extend_from_slice(&record.score.to_le_bytes());
    out.push(record.result as u8);
    out.push(0);
}

/// The records of a file, as stored.
pub(crate) struct Records {
    variant: Variant,
    size: usize,
    bytes: Vec<u8>,
}

impl Records {
    pub(crate) fn variant(&self) -> Variant {
        self.variant
    }

    pub(crate) fn len(&self) -> usize {
        self.bytes.len() / self.size
    }

    /// The packed position of record `i`.
    pub(crate) fn position_bytes(&self, i: usize) -> &[u8] {
        &self.bytes[i * self.size..(i + 1) * self.size - TAIL]
    }

    /// The score and result of record `i`.
    pub(crate) fn label(&self, i: usize) -> (i16, i8) {
        let tail = &self.bytes[(i + 1) * self.size - TAIL..];
        (i16::from_le_bytes([tail[0], tail[1]]), tail[2] as i8)
    }

    /// Record `i`, its position unpacked; `None` if it holds no position.
    #[cfg(test)]
    pub(crate) fn get(&self, i: usize) -> Option<Record> {
        let (score, result) = self.label(i);
        Some(Record {
            position: AnyPosition::unpack(self.position_bytes(i), self.variant)?,
            score,
            result,
        })
    }
}

/// The records of a data file (a record cut short at the end is left out).
pub(crate) fn read(path: &Path) -> Result<Records, DataError> {
    let bytes = std::fs::read(path).map_err(io(path))?;
    let (variant, size) = read_header(path, &bytes)?;
    let whole = HEADER + (bytes.len() - HEADER) / size * size;
    Ok(Records {
        variant,
        size,
        bytes: bytes[HEADER..whole].to_vec(),
    })
}

/// A 64-bit fingerprint of a packed position, to find repeats (FNV-1a: small, and the
/// same everywhere).
pub(crate) fn fingerprint(packed: &[u8]) -> u64 {
    crate::util::fnv1a(packed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::scratch::Scratch;

    fn records(variant: Variant) -> Vec<Record> {
        let start = AnyPosition::startpos(variant);
        let child = start.child(start.legal_moves()[1]);
        vec![
            Record {
                position: start,
                score: 31,
                result: 1,
            },
            Record {
                position: child,
                score: -32768,
                result: -1,
            },
        ]
    }

    #[test]
    fn records_round_trip_for_every_rule_set() {
        for variant in Variant::all() {
            let scratch = Scratch::new("data");
            let path = scratch.path(&format!("{variant}.data"));
            let (mut writer, old) = Writer::open(&path, variant).unwrap();
            assert_eq!(old.len(), 0);
            writer.append(&records(variant)).unwrap();
            writer.append(&records(variant)[..1]).unwrap();
            let read = read(&path).unwrap();
            assert_eq!(read.variant(), variant);
            assert_eq!(read.len(), 3);
            assert_eq!(read.get(0), Some(records(variant)[0].clone()));
            assert_eq!(read.get(1), Some(records(variant)[1].clone()));
            // Opening again finds them, and a file of another variant is refused.
            assert_eq!(Writer::open(&path, variant).unwrap().1.len(), 3);
            let other = Variant::all().find(|&v| v != variant).unwrap();
            assert!(matches!(
                Writer::open(&path, other),
                Err(DataError::OtherVariant { .. })
            ));
        }
    }

    #[test]
    fn a_record_cut_short_is_dropped_and_garbage_refused() {
        let variant = Variant::default();
        let scratch = Scratch::new("data");
        let path = scratch.path("cut.data");
        let (mut writer, _) = Writer::open(&path, variant).unwrap();
        writer.append(&records(variant)).unwrap();
        drop(writer);
        // A writer killed in the middle of a record.
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(&[7; 9]).unwrap();
        drop(file);
        let (mut writer, old) = Writer::open(&path, variant).unwrap();
        assert_eq!(old.len(), 2);
        writer.append(&records(variant)[..1]).unwrap();
        assert_eq!(read(&path).unwrap().len(), 3);
        std::fs::write(&path, b"hello world, this is not a data file").unwrap();
        assert!(matches!(read(&path), Err(DataError::NotData(_))));
        let mut bad = header(variant).to_vec();
        bad.extend_from_slice(&[0xff; 22]);
        std::fs::write(&path, bad).unwrap();
        assert_eq!(read(&path).unwrap().get(0), None);
    }
}
