//! Scratch folders for tests: one per test, removed when the test ends, failed or not.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A new folder in the system's temporary folder, removed with everything in it when
/// dropped.
pub(crate) struct Scratch(PathBuf);

impl Scratch {
    /// A folder named by `tag`, the process and a count, so tests running at once
    /// never share one.
    pub(crate) fn new(tag: &str) -> Scratch {
        static MADE: AtomicU64 = AtomicU64::new(0);
        let n = MADE.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("bt-{tag}-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        Scratch(dir)
    }

    /// The file `name` in the folder.
    pub(crate) fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    pub(crate) fn dir(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scratch_folder_is_gone_once_dropped() {
        let (a, b) = (Scratch::new("scratch"), Scratch::new("scratch"));
        assert_ne!(a.dir(), b.dir());
        std::fs::write(a.path("x"), "x").unwrap();
        let dir = a.dir().to_path_buf();
        drop(a);
        assert!(!dir.exists());
        assert!(b.dir().exists());
    }
}
