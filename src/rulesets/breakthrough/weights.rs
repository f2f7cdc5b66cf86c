//! The evaluation's weights, in centipawns, one per feature of `super::eval` (a pawn is
//! worth about 100); one table per rule set. The numbers between the BEGIN/END markers
//! are written by `breakthrough tune --write` (see engine.md, Tuning).

/// Features of the evaluation, and so weights of each table.
pub(crate) const FEATURES: usize = 57;

// BEGIN TUNED breakthrough
pub(crate) const BREAKTHROUGH: [i32; FEATURES] = [
    190, 190, 190, 190, 259, 196, 242, 247, 193, 187, 208, 216, 132, 149, 157, 163, 116, 135, 133,
    145, 104, 119, 128, 136, 90, 118, 120, 110, 2, 30, 32, 22, -6, -1, 154, 2, 0, 1979, -1980, 228,
    33, 12, -1, -10, 443, -72, 0, 1, 1, 2, -1, -3, -3, 5, -7, 22, -39,
];
// END TUNED breakthrough

// BEGIN TUNED capture-only
pub(crate) const CAPTURE_ONLY: [i32; FEATURES] = [
    189, 65, 89, 179, 124, 131, 141, 183, 131, 159, 177, 175, 94, 128, 132, 147, 60, 119, 126, 128,
    79, 139, 131, 142, 101, 101, 100, 120, 13, 13, 12, 32, 0, 9, 167, 29, -8, 2325, -2048, 590, 9,
    1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
];
// END TUNED capture-only
