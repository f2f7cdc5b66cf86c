//! PGN for the games of every rule set: written by the match runner, read by the tuner
//! and by tools.

use crate::registry::AnyMove;
use crate::rulesets::Color;

/// Today's date as `YYYY.MM.DD` (UTC), from the system clock.
pub(crate) fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// One game in PGN: the tags in the order given, then the moves (the opening's first,
/// marked by a comment when there are any), `reason` as a closing comment (if any), and the result.
pub(crate) fn write_game(
    tags: &[(&str, String)],
    first_to_move: Color,
    opening: &[AnyMove],
    moves: &[AnyMove],
    reason: &str,
    result: &str,
) -> String {
    let mut out = String::new();
    for (key, value) in tags {
        out.push_str(&format!("[{key} \"{}\"]\n", escape(value)));
    }
    out.push('\n');

    let mut tokens: Vec<String> = Vec::new();
    let mut side = first_to_move;
    let mut number = 1;
    for (i, m) in opening.iter().chain(moves).enumerate() {
        if i == 0 && !opening.is_empty() {
            tokens.push("{opening}".to_string());
        }
        if i == opening.len() && i > 0 {
            tokens.push("{engines}".to_string());
        }
        if side == Color::White {
            tokens.push(format!("{number}."));
        } else if i == 0 || i == opening.len() {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.to_string());
        if side == Color::Black {
            number += 1;
        }
        side = side.opponent();
    }
    if !reason.is_empty() {
        tokens.push(format!("{{{}}}", reason.replace(['{', '}'], "")));
    }
    tokens.push(result.to_string());
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// What is wrong with a PGN text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    #[error("line {line}: tag inside move text (missing result?)")]
    TagInMoves { line: usize },
    #[error("line {line}: bad tag")]
    BadTag { line: usize },
    #[error("last game has no result")]
    NoResult,
}

/// A game read back from PGN.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PgnGame {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
    pub result: String,
}

impl PgnGame {
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads every game of a PGN text: tags, moves (comments and move numbers dropped), result.
pub fn read_games(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut in_moves = false;
    let mut in_comment = false;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if !in_comment && line.starts_with('[') {
            if in_moves {
                return Err(PgnError::TagInMoves { line: n + 1 });
            }
            let inner = line.trim_start_matches('[').trim_end_matches(']');
            let (key, value) = inner
                .split_once(' ')
                .ok_or(PgnError::BadTag { line: n + 1 })?;
            let value = value
                .trim()
                .trim_matches('"')
                .replace("\\\"", "\"")
                .replace("\\\\", "\\");
            game.tags.push((key.to_string(), value));
            continue;
        }
        for word in line.split_whitespace() {
            in_moves = true;
            if in_comment {
                in_comment = !word.ends_with('}');
                continue;
            }
            if word.starts_with('{') {
                in_comment = !word.ends_with('}');
                continue;
            }
            if ["1-0", "0-1", "1/2-1/2", "*"].contains(&word) {
                game.result = word.to_string();
                games.push(std::mem::take(&mut game));
                in_moves = false;
                continue;
            }
            // A move number (`12.`, `12...`, or glued to the move: `12.a2a3`).
            let word = match word.find('.') {
                Some(dot) if word[..dot].bytes().all(|b| b.is_ascii_digit()) => {
                    word[dot..].trim_start_matches('.')
                }
                _ => word,
            };
            if !word.is_empty() {
                game.moves.push(word.to_string());
            }
        }
    }
    if in_moves || !game.tags.is_empty() {
        return Err(PgnError::NoResult);
    }
    Ok(games)
}
