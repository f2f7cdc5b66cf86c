//! Engine settings strings, as cutechess-cli users write them:
//! `cmd=PATH args="-x y" name=NAME option.Hash=16 tc=10+0.1`.

use std::collections::BTreeMap;
use std::time::Duration;

/// How long an engine may think, per move or per game.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct PlayLimits {
    /// Base time and increment per move (`tc=10+0.1`, seconds).
    pub(crate) tc: Option<(Duration, Duration)>,
    /// Fixed time per move (`movetime=500`, milliseconds).
    pub(crate) movetime: Option<Duration>,
    pub(crate) depth: Option<u32>,
    pub(crate) nodes: Option<u64>,
}

impl PlayLimits {
    pub(crate) fn is_empty(&self) -> bool {
        self.tc.is_none() && self.movetime.is_none() && self.depth.is_none() && self.nodes.is_none()
    }

    /// For the PGN's TimeControl tag.
    pub(crate) fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some((base, inc)) = self.tc {
            parts.push(format!("{}+{}", base.as_secs_f64(), inc.as_secs_f64()));
        }
        if let Some(t) = self.movetime {
            parts.push(format!("movetime={}", t.as_millis()));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        parts.join(" ")
    }
}

/// One engine as the user described it.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct EngineSpec {
    pub(crate) cmd: String,
    pub(crate) args: Vec<String>,
    pub(crate) name: Option<String>,
    /// `setoption` name and value, in the order given.
    pub(crate) options: Vec<(String, String)>,
    pub(crate) limits: PlayLimits,
}

/// A settings string that cannot be understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum SpecError {
    #[error("unclosed {quote} quote in '{text}'")]
    UnclosedQuote { quote: char, text: String },
    #[error("bad {what} '{text}' (expected seconds, like 10 or 0.1)")]
    BadSeconds { what: &'static str, text: String },
    #[error("bad {key} '{text}' (expected a whole number)")]
    BadNumber { key: String, text: String },
    #[error("'{0}' is not key=value")]
    NotKeyValue(String),
    #[error(
        "unknown setting '{0}' (expected cmd, args, name, option.NAME, tc, movetime, depth or nodes)"
    )]
    UnknownSetting(String),
    #[error("engine '{0}' has no cmd=PATH")]
    NoCmd(String),
    #[error("engine '{0}' has no limit: give tc, movetime, depth or nodes (here or in --each)")]
    NoLimit(String),
    #[error("engine '{0}' has both tc and movetime: choose one")]
    TcAndMovetime(String),
}

/// Splits on white space outside quotes; `"` or `'` quote a value, `\` escapes inside `"`.
pub(crate) fn split_words(text: &str) -> Result<Vec<String>, SpecError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    let unclosed = |quote| SpecError::UnclosedQuote {
        quote,
        text: text.to_string(),
    };
    while let Some(c) = chars.next() {
        match c {
            '"' | '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        None => return Err(unclosed(c)),
                        Some(q) if q == c => break,
                        Some('\\') if c == '"' => match chars.next() {
                            Some(e) => word.push(e),
                            None => return Err(unclosed(c)),
                        },
                        Some(other) => word.push(other),
                    }
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

fn parse_seconds(text: &str, what: &'static str) -> Result<Duration, SpecError> {
    match text.parse::<f64>() {
        Ok(s) if (0.0..1e9).contains(&s) => Ok(Duration::from_secs_f64(s)),
        _ => Err(SpecError::BadSeconds {
            what,
            text: text.to_string(),
        }),
    }
}

fn parse_number<T: std::str::FromStr>(text: &str, key: &str) -> Result<T, SpecError> {
    text.parse().map_err(|_| SpecError::BadNumber {
        key: key.to_string(),
        text: text.to_string(),
    })
}

impl EngineSpec {
    /// Reads `key=value` pairs into a spec; later keys override earlier ones.
    pub(crate) fn parse(text: &str) -> Result<EngineSpec, SpecError> {
        let mut spec = EngineSpec::default();
        spec.apply(text)?;
        Ok(spec)
    }

    /// Adds the settings of `text` on top of this spec.
    pub(crate) fn apply(&mut self, text: &str) -> Result<(), SpecError> {
        for word in split_words(text)? {
            let Some((key, value)) = word.split_once('=') else {
                return Err(SpecError::NotKeyValue(word));
            };
            match key {
                "cmd" => self.cmd = value.to_string(),
                "args" => self.args = split_words(value)?,
                "name" => self.name = Some(value.to_string()),
                "tc" => {
                    let (base, inc) = value.split_once('+').unwrap_or((value, "0"));
                    self.limits.tc = Some((
                        parse_seconds(base, "tc base")?,
                        parse_seconds(inc, "tc increment")?,
                    ));
                }
                "movetime" => {
                    self.limits.movetime = Some(Duration::from_millis(parse_number(value, key)?))
                }
                "depth" => self.limits.depth = Some(parse_number(value, key)?),
                "nodes" => self.limits.nodes = Some(parse_number(value, key)?),
                _ => match key.strip_prefix("option.") {
                    Some(name) if !name.is_empty() => {
                        self.options.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
                        self.options.push((name.to_string(), value.to_string()));
                    }
                    _ => return Err(SpecError::UnknownSetting(key.to_string())),
                },
            }
        }
        Ok(())
    }

    /// `each` first, then this engine's own settings on top.
    pub(crate) fn with_defaults(each: &str, own: &str) -> Result<EngineSpec, SpecError> {
        let mut spec = EngineSpec::parse(each)?;
        spec.apply(own)?;
        if spec.cmd.is_empty() {
            return Err(SpecError::NoCmd(own.to_string()));
        }
        if spec.limits.is_empty() {
            return Err(SpecError::NoLimit(own.to_string()));
        }
        if spec.limits.tc.is_some() && spec.limits.movetime.is_some() {
            return Err(SpecError::TcAndMovetime(own.to_string()));
        }
        Ok(spec)
    }

    /// The `setoption` value given for `name`, if any.
    pub(crate) fn option(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Options as a map, for reports.
    pub(crate) fn options_map(&self) -> BTreeMap<String, String> {
        self.options.iter().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_cutechess_style_settings() {
        let spec = EngineSpec::with_defaults(
            "option.Hash=16 tc=10+0.1",
            r#"cmd=/usr/games/fairy-stockfish args="-a 'b c'" name="Fairy SF" option.UCI_Variant=btnmr option.hash=32"#,
        )
        .unwrap();
        assert_eq!(spec.cmd, "/usr/games/fairy-stockfish");
        assert_eq!(spec.args, vec!["-a", "b c"]);
        assert_eq!(spec.name.as_deref(), Some("Fairy SF"));
        assert_eq!(spec.option("Hash"), Some("32"));
        assert_eq!(spec.option("uci_variant"), Some("btnmr"));
        assert_eq!(
            spec.limits.tc,
            Some((Duration::from_secs(10), Duration::from_millis(100)))
        );
    }

    #[test]
    fn rejects_bad_settings_with_a_reason() {
        let bad = |each: &str, own: &str| {
            EngineSpec::with_defaults(each, own)
                .unwrap_err()
                .to_string()
        };
        assert!(bad("", "cmd=x").contains("no limit"));
        assert!(bad("", "tc=1").contains("no cmd"));
        assert!(bad("", "cmd=x tc=abc").contains("bad tc base"));
        assert!(bad("", "cmd=x tc=1+x").contains("bad tc increment"));
        assert!(bad("", "cmd=x depth=-1").contains("bad depth"));
        assert!(bad("", "cmd=x depth=3 colour=red").contains("unknown setting"));
        assert!(bad("", "cmd=x depth=3 loose").contains("not key=value"));
        assert!(bad("", "cmd=\"x depth=3").contains("unclosed"));
        assert!(bad("", "cmd=x tc=1 movetime=10").contains("both"));
    }
}
