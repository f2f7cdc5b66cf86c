//! The learning pipeline: self-play games into data files (`datagen`, `datafile`),
//! networks trained on them (`train`), and the hand-written evaluation's weights fitted
//! to game results (`tune`).

pub(crate) mod datafile;
pub(crate) mod datagen;
pub(crate) mod train;
pub(crate) mod tune;
