//! Every option, declared once: its name, type, default, range and setter. `uci` prints
//! this table, `setoption` reads values through it, and [`super::Engine::new`] sets each
//! default through it.

use super::{Engine, strength};
use crate::registry::BoardVariant;
use crate::search::tt::TableError;

/// An option's type, with its default, range and what setting it does.
pub(crate) enum OptionKind {
    Spin {
        default: u64,
        min: u64,
        max: u64,
        set: fn(&mut Engine, u64) -> Result<(), OptionError>,
    },
    Check {
        default: bool,
        set: fn(&mut Engine, bool),
    },
    /// One of a list of words (compared ignoring case); the list and the default may be
    /// computed, as the rule sets' names are. `more` reads values beyond the list (its
    /// canonical name, or `None`), and `more_hint` says what they look like.
    Combo {
        default: fn() -> &'static str,
        choices: fn() -> Vec<&'static str>,
        more: fn(&str) -> Option<&'static str>,
        more_hint: &'static str,
        set: fn(&mut Engine, &str),
    },
    Button {
        press: fn(&mut Engine),
    },
    /// Free text, such as a file name (`<empty>`, or no value, is the empty text).
    Text {
        default: &'static str,
        set: fn(&mut Engine, &str) -> Result<(), OptionError>,
    },
}

pub(crate) struct OptionSpec {
    pub(crate) name: &'static str,
    pub(crate) kind: OptionKind,
}

/// The options, in the order `uci` lists them.
pub(crate) static OPTIONS: [OptionSpec; 12] = [
    OptionSpec {
        name: "Hash",
        kind: OptionKind::Spin {
            default: 16,
            min: 1,
            max: 65_536,
            set: Engine::set_hash,
        },
    },
    OptionSpec {
        name: "Threads",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 256,
            set: Engine::set_threads,
        },
    },
    OptionSpec {
        name: "UCI_Variant",
        kind: OptionKind::Combo {
            default: || BoardVariant::default().name(),
            // Listed: each rule set on its own board and on the square ones. Every other
            // board is accepted too: the whole list is too long for some adapters
            // (uci2wb cuts a longer line and then reads no option at all).
            choices: || BoardVariant::listed().map(BoardVariant::name).collect(),
            more: |text| text.parse::<BoardVariant>().ok().map(BoardVariant::name),
            more_hint: " (or another board as RULES-FILESxRANKS, such as breakthrough-5x7)",
            set: |engine, name| {
                if let Ok(variant) = name.parse() {
                    engine.set_variant(variant);
                }
            },
        },
    },
    OptionSpec {
        name: "MultiPV",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 256,
            set: |engine, n| {
                engine.settings.multipv = n;
                Ok(())
            },
        },
    },
    OptionSpec {
        name: "Move Overhead",
        kind: OptionKind::Spin {
            default: 10,
            min: 0,
            max: 5_000,
            set: |engine, ms| {
                engine.settings.move_overhead_ms = ms;
                Ok(())
            },
        },
    },
    OptionSpec {
        name: "Ponder",
        kind: OptionKind::Check {
            default: false,
            set: |engine, on| engine.settings.ponder = on,
        },
    },
    OptionSpec {
        name: "Use NNUE",
        kind: OptionKind::Check {
            default: true,
            set: |engine, on| engine.settings.use_network = on,
        },
    },
    OptionSpec {
        name: "EvalFile",
        kind: OptionKind::Text {
            default: BUILT_IN,
            set: Engine::set_eval_file,
        },
    },
    OptionSpec {
        name: "Skill Level",
        kind: OptionKind::Spin {
            default: strength::MAX_LEVEL,
            min: 0,
            max: strength::MAX_LEVEL,
            set: |engine, level| {
                engine.settings.skill_level = level;
                Ok(())
            },
        },
    },
    OptionSpec {
        name: "UCI_LimitStrength",
        kind: OptionKind::Check {
            default: false,
            set: |engine, on| engine.settings.limit_strength = on,
        },
    },
    OptionSpec {
        name: "UCI_Elo",
        kind: OptionKind::Spin {
            default: strength::ELO_MAX,
            min: strength::ELO_MIN,
            max: strength::ELO_MAX,
            set: |engine, elo| {
                engine.settings.elo = elo;
                Ok(())
            },
        },
    },
    OptionSpec {
        name: "Clear Hash",
        kind: OptionKind::Button {
            press: Engine::clear_hash,
        },
    },
];

/// `EvalFile`'s value that names the network built into the binary.
pub(crate) const BUILT_IN: &str = "<built-in>";

/// Why a `setoption` was refused.
#[derive(Debug, thiserror::Error)]
pub(crate) enum OptionError {
    #[error("unknown option '{0}'")]
    Unknown(String),
    #[error("option {0} needs a value")]
    MissingValue(&'static str),
    #[error("option {name}: '{text}' is not a whole number")]
    NotANumber { name: &'static str, text: String },
    #[error("option {name}: {value} is out of range {min}..{max}")]
    OutOfRange {
        name: &'static str,
        value: u64,
        min: u64,
        max: u64,
    },
    #[error("option {name}: expected true or false, got '{text}'")]
    NotABool { name: &'static str, text: String },
    #[error("option {name}: '{text}' is not one of {}{hint}", choices.join(", "))]
    NotAChoice {
        name: &'static str,
        text: String,
        choices: Vec<&'static str>,
        hint: &'static str,
    },
    #[error(transparent)]
    Hash(TableError),
    #[error("cannot start the search threads: {0}")]
    Threads(rayon::ThreadPoolBuildError),
    #[error("option EvalFile: {0}")]
    EvalFile(crate::registry::LoadError),
}

/// The option called `name`, ignoring case.
pub(crate) fn find(name: &str) -> Result<&'static OptionSpec, OptionError> {
    OPTIONS
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case(name.trim()))
        .ok_or_else(|| OptionError::Unknown(name.to_string()))
}

impl OptionSpec {
    /// The `option name ...` line of `uci`, with the default.
    pub(crate) fn uci_line(&self) -> String {
        let name = self.name;
        match &self.kind {
            OptionKind::Spin {
                default, min, max, ..
            } => format!("option name {name} type spin default {default} min {min} max {max}"),
            OptionKind::Check { default, .. } => {
                format!("option name {name} type check default {default}")
            }
            OptionKind::Combo {
                default, choices, ..
            } => {
                let vars: String = choices().iter().map(|c| format!(" var {c}")).collect();
                format!("option name {name} type combo default {}{vars}", default())
            }
            OptionKind::Button { .. } => format!("option name {name} type button"),
            OptionKind::Text { default, .. } => {
                format!("option name {name} type string default {default}")
            }
        }
    }

    /// The `feature option="..."` text of CECP, with the default (XBoard's forms:
    /// `-spin D MIN MAX`, `-check 0|1`, `-combo D /// OTHER ...`, `-button`, `-string`).
    pub(crate) fn cecp_feature(&self) -> String {
        let name = self.name;
        let kind = match &self.kind {
            OptionKind::Spin {
                default, min, max, ..
            } => format!("-spin {default} {min} {max}"),
            OptionKind::Check { default, .. } => format!("-check {}", u8::from(*default)),
            OptionKind::Combo {
                default, choices, ..
            } => {
                let others: String = choices()
                    .iter()
                    .filter(|c| **c != default())
                    .map(|c| format!(" /// {c}"))
                    .collect();
                format!("-combo {}{others}", default())
            }
            OptionKind::Button { .. } => "-button".to_string(),
            OptionKind::Text { default, .. } => format!("-string {default}"),
        };
        format!("feature option=\"{name} {kind}\"")
    }

    /// A value as CECP's `option NAME=VALUE` gives it, in the form [`OptionSpec::set`]
    /// reads: XBoard writes a check box as 1 or 0.
    pub(crate) fn value_from_cecp(&self, value: &str) -> String {
        match (&self.kind, value.trim()) {
            (OptionKind::Check { .. }, "1") => "true".to_string(),
            (OptionKind::Check { .. }, "0") => "false".to_string(),
            _ => value.to_string(),
        }
    }

    /// Reads `value` as this option's type and sets it.
    pub(super) fn set(&self, engine: &mut Engine, value: Option<&str>) -> Result<(), OptionError> {
        let name = self.name;
        let text = || value.map(str::trim).ok_or(OptionError::MissingValue(name));
        match &self.kind {
            OptionKind::Spin { min, max, set, .. } => {
                let text = text()?;
                let value: u64 = text.parse().map_err(|_| OptionError::NotANumber {
                    name,
                    text: text.to_string(),
                })?;
                if !(*min..=*max).contains(&value) {
                    return Err(OptionError::OutOfRange {
                        name,
                        value,
                        min: *min,
                        max: *max,
                    });
                }
                set(engine, value)
            }
            OptionKind::Check { set, .. } => {
                let text = text()?;
                match text.to_ascii_lowercase().as_str() {
                    "true" => set(engine, true),
                    "false" => set(engine, false),
                    _ => {
                        return Err(OptionError::NotABool {
                            name,
                            text: text.to_string(),
                        });
                    }
                }
                Ok(())
            }
            OptionKind::Combo {
                choices,
                more,
                more_hint,
                set,
                ..
            } => {
                let text = text()?;
                let choices = choices();
                let listed = choices.iter().find(|c| c.eq_ignore_ascii_case(text));
                match listed.copied().or_else(|| more(text)) {
                    Some(choice) => {
                        set(engine, choice);
                        Ok(())
                    }
                    None => Err(OptionError::NotAChoice {
                        name,
                        text: text.to_string(),
                        choices,
                        hint: more_hint,
                    }),
                }
            }
            // A value given to a button is ignored, as GUIs sometimes send one.
            OptionKind::Button { press } => {
                press(engine);
                Ok(())
            }
            OptionKind::Text { set, .. } => {
                let text = value.map(str::trim).unwrap_or("");
                set(engine, if text == "<empty>" { "" } else { text })
            }
        }
    }

    /// Sets the default (a button has none).
    pub(super) fn reset(&self, engine: &mut Engine) -> Result<(), OptionError> {
        match &self.kind {
            OptionKind::Spin { default, set, .. } => set(engine, *default),
            OptionKind::Check { default, set } => {
                set(engine, *default);
                Ok(())
            }
            OptionKind::Combo { default, set, .. } => {
                set(engine, default());
                Ok(())
            }
            OptionKind::Button { .. } => Ok(()),
            OptionKind::Text { default, set } => set(engine, default),
        }
    }
}
