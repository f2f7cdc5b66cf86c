//! Utilities below everything else: the one random number generator, lines in and out,
//! progress bars, a file fingerprint, JSON differences, and scratch folders for tests.

pub(crate) mod lines;
pub(crate) mod progress;
pub mod rng;
#[cfg(test)]
pub(crate) mod scratch;
pub(crate) mod shard;

use std::collections::BTreeSet;

use serde_json::Value;

/// FNV-1a, 64 bits: a small hash that is the same everywhere, for fingerprints of
/// positions and files (not for security).
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The first place where two JSON values differ, as a path (`engines[1].options`);
/// `Some("")` when they differ at the top, `None` when they are equal.
pub(crate) fn json_difference(a: &Value, b: &Value) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            keys.into_iter().find_map(|k| {
                let (u, v) = (
                    x.get(k).unwrap_or(&Value::Null),
                    y.get(k).unwrap_or(&Value::Null),
                );
                json_difference(u, v).map(|d| match d.chars().next() {
                    None => k.clone(),
                    Some('[') => format!("{k}{d}"),
                    Some(_) => format!("{k}.{d}"),
                })
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            x.iter().zip(y).enumerate().find_map(|(i, (u, v))| {
                json_difference(u, v).map(|d| {
                    if d.is_empty() {
                        format!("[{i}]")
                    } else {
                        format!("[{i}].{d}")
                    }
                })
            })
        }
        _ => (a != b).then(String::new),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn differences_are_named_by_path() {
        let a = json!({"engines": [{"cmd": "x", "options": {"Hash": "16"}}], "games": 8});
        let b = json!({"engines": [{"cmd": "x", "options": {"Hash": "32"}}], "games": 8});
        assert_eq!(json_difference(&a, &a), None);
        assert_eq!(
            json_difference(&a, &b).as_deref(),
            Some("engines[0].options.Hash")
        );
        let c = json!({"engines": [{"cmd": "x", "options": {"Hash": "16"}}], "games": 10});
        assert_eq!(json_difference(&a, &c).as_deref(), Some("games"));
    }
}
