//! Which evaluation a position uses (the network built in for its rule set and board, the
//! hand-written one, or a network loaded from a file), and loading network files.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::rulesets::nnue::{Network, NetworkError};

/// The evaluation a search uses.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) enum Evaluation {
    /// The network built in for the rule set and board, or by hand where there is none.
    #[default]
    BuiltIn,
    /// The hand-written evaluation.
    Hand,
    /// A network loaded from a file.
    Network(&'static Network),
}

impl Evaluation {
    /// `--net FILE` or `--hand-eval` of the command line (neither: the built-in one).
    pub(crate) fn from_flags(net: Option<&Path>, hand: bool) -> Result<Evaluation, LoadError> {
        match (net, hand) {
            (_, true) => Ok(Evaluation::Hand),
            (Some(path), false) => load(path).map(Evaluation::Network),
            (None, false) => Ok(Evaluation::BuiltIn),
        }
    }
}

/// Why a network file could not be used.
#[derive(Debug, thiserror::Error)]
pub(crate) enum LoadError {
    #[error("cannot read network file {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("network file {}: {source}", path.display())]
    Format { path: PathBuf, source: NetworkError },
}

/// A network made for another rule set or board than the position's.
#[derive(Debug, thiserror::Error)]
#[error("the network is for {net_variant} {}x{}; the position is {variant} {}x{}: using {fallback}",
    net_board.0, net_board.1, board.0, board.1)]
pub(crate) struct Mismatch {
    pub(crate) net_variant: String,
    pub(crate) net_board: (u8, u8),
    pub(crate) variant: &'static str,
    pub(crate) board: (u8, u8),
    pub(crate) fallback: &'static str,
}

/// Most networks a process keeps loaded; each distinct file loaded stays in memory for
/// the life of the process (positions refer to it), so this bounds what a GUI setting
/// `EvalFile` again and again can cost.
const MAX_LOADED: usize = 64;

/// Reads a network file. Loading the same weights again returns the network already
/// loaded.
pub(crate) fn load(path: &Path) -> Result<&'static Network, LoadError> {
    static LOADED: Mutex<Vec<&'static Network>> = Mutex::new(Vec::new());
    let bytes = std::fs::read(path).map_err(|source| LoadError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let net = Network::from_bytes(&bytes).map_err(|source| LoadError::Format {
        path: path.to_path_buf(),
        source,
    })?;
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&same) = loaded.iter().find(|n| n.to_bytes() == bytes) {
        return Ok(same);
    }
    if loaded.len() >= MAX_LOADED {
        return Err(LoadError::Format {
            path: path.to_path_buf(),
            source: NetworkError::TooMany(MAX_LOADED),
        });
    }
    let net: &'static Network = Box::leak(Box::new(net));
    loaded.push(net);
    Ok(net)
}

/// A short description of the network `pos` evaluates with, for `eval` and the logs.
pub(crate) fn describe(net: Option<&Network>) -> String {
    match net {
        Some(net) => format!(
            "network {} ({} {}x{})",
            net.digest(),
            net.variant(),
            net.board().0,
            net.board().1
        ),
        None => "hand-written".to_string(),
    }
}

impl super::AnyPosition {
    /// Evaluates with `evaluation` from now on. A network made for another rule set or
    /// board is refused: the position then keeps its built-in evaluation.
    pub(crate) fn use_evaluation(&mut self, evaluation: Evaluation) -> Result<(), Mismatch> {
        let built_in = self.built_in_network();
        match evaluation {
            Evaluation::BuiltIn => {
                self.set_network(built_in);
            }
            Evaluation::Hand => {
                self.set_network(None);
            }
            Evaluation::Network(net) => {
                if net.variant() != self.variant().name() || !self.set_network(Some(net)) {
                    self.set_network(built_in);
                    return Err(Mismatch {
                        net_variant: net.variant().to_string(),
                        net_board: net.board(),
                        variant: self.variant().name(),
                        board: self.board_size(),
                        fallback: if built_in.is_some() {
                            "the built-in network"
                        } else {
                            "the hand-written evaluation"
                        },
                    });
                }
            }
        }
        Ok(())
    }
}
