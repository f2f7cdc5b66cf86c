//! Utilities below everything else: the one random number generator, lines in and out,
//! and progress bars.

pub(crate) mod lines;
pub(crate) mod progress;
pub mod rng;
