//! Utilities below everything else: the one random number generator, lines in and out,
//! progress bars, and scratch folders for tests.

pub(crate) mod lines;
pub(crate) mod progress;
pub mod rng;
#[cfg(test)]
pub(crate) mod scratch;
