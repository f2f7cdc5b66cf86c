//! The evaluation's weights, in centipawns, one per feature of `super::eval` (a stone is
//! worth about 100): stones, stones on relative ranks 1..=8, stacks, loaded 8th and 7th
//! rank squares, tempo. The numbers between the BEGIN/END markers are written by
//! `breakthrough tune --write` (see engine.md, Tuning).

/// Features of the evaluation.
pub(crate) const FEATURES: usize = 13;

// BEGIN TUNED doorbraak
pub(crate) const DOORBRAAK: [i32; FEATURES] =
    [89, -42, -28, 11, 37, 61, 80, 78, 86, 59, 73, -6, 33];
// END TUNED doorbraak
