//! A rule set on one board, by the name GUIs pass around: `breakthrough` is the rule
//! set on its own board, `breakthrough-6x6` the same rules on 6 files and 6 ranks.
//! `UCI_Variant` and CECP's `variant` take these names, and Fairy-Stockfish's variant
//! line and XBoard's `setup` describe the board they name.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use super::{AnyPosition, UnknownVariant, Variant};

/// The widest and tallest boards looked at when listing the sizes a rule set plays.
const LARGEST_BOARD: u8 = 16;

/// A rule set and a board size it is played on.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct BoardVariant {
    pub rules: Variant,
    pub files: u8,
    pub ranks: u8,
}

/// Every board variant with its name, built once: the rule sets in their order, each
/// on its own board first, then on every other board its rules have a start for.
fn table() -> &'static [(BoardVariant, String)] {
    static TABLE: OnceLock<Vec<(BoardVariant, String)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = Vec::new();
        for rules in Variant::all() {
            let own = BoardVariant::own_board(rules);
            table.push((own, rules.name().to_string()));
            for files in 1..=LARGEST_BOARD {
                for ranks in 1..=LARGEST_BOARD {
                    let sized = BoardVariant {
                        rules,
                        files,
                        ranks,
                    };
                    if sized != own && AnyPosition::start_on_board(rules, files, ranks).is_some() {
                        table.push((sized, format!("{rules}-{files}x{ranks}")));
                    }
                }
            }
        }
        table
    })
}

impl BoardVariant {
    /// The rule set on its own board (8x8 for Breakthrough).
    pub fn own_board(rules: Variant) -> BoardVariant {
        let (files, ranks) = AnyPosition::startpos(rules).board_size();
        BoardVariant {
            rules,
            files,
            ranks,
        }
    }

    /// Every rule set on every board it plays, each rule set's own board first.
    pub fn all() -> impl Iterator<Item = BoardVariant> {
        table().iter().map(|(v, _)| *v)
    }

    /// Each rule set on its own board and on the square boards it plays: the boards
    /// people play, listed where the whole list would be too long.
    pub fn listed() -> impl Iterator<Item = BoardVariant> {
        BoardVariant::all().filter(|v| v.files == v.ranks || *v == BoardVariant::own_board(v.rules))
    }

    /// `breakthrough`, or `breakthrough-6x6` on another board than the rule set's own.
    pub fn name(self) -> &'static str {
        table()
            .iter()
            .find(|(v, _)| *v == self)
            .map_or("(no such board)", |(_, name)| name.as_str())
    }

    /// The start position.
    pub fn startpos(self) -> AnyPosition {
        AnyPosition::start_on_board(self.rules, self.files, self.ranks)
            .unwrap_or_else(|| AnyPosition::startpos(self.rules))
    }
}

impl Default for BoardVariant {
    fn default() -> BoardVariant {
        BoardVariant::own_board(Variant::default())
    }
}

impl From<Variant> for BoardVariant {
    fn from(rules: Variant) -> BoardVariant {
        BoardVariant::own_board(rules)
    }
}

impl fmt::Display for BoardVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for BoardVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BoardVariant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<BoardVariant, UnknownVariant> {
        table()
            .iter()
            .find(|(_, name)| name.eq_ignore_ascii_case(s.trim()))
            .map(|(v, _)| *v)
            .ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_and_start_on_their_board() {
        let mut count = 0;
        for v in BoardVariant::all() {
            assert_eq!(v.name().parse::<BoardVariant>().unwrap(), v);
            assert_eq!(v.startpos().board_size(), (v.files, v.ranks), "{v}");
            assert_eq!(v.startpos().variant(), v.rules);
            count += 1;
        }
        let six: BoardVariant = "Breakthrough-6x6".parse().unwrap();
        assert_eq!(
            (six.rules.name(), six.files, six.ranks),
            ("breakthrough", 6, 6)
        );
        assert_eq!(
            six.startpos().to_fen(),
            "pppppp/pppppp/6/6/PPPPPP/PPPPPP w - - 0 1"
        );
        let standard: BoardVariant = "capture-only".parse().unwrap();
        assert_eq!((standard.files, standard.ranks), (8, 8));
        // The rule set's own board has one name only.
        assert!("breakthrough-8x8".parse::<BoardVariant>().is_err());
        assert!("doorbraak-8x8".parse::<BoardVariant>().is_err());
        assert!("breakthrough-9x9".parse::<BoardVariant>().is_err());
        // Breakthrough: 3-8 files by 4-8 ranks, both rule sets; Doorbraak on 5x9 only.
        let boards = |rules: &str| {
            BoardVariant::all()
                .filter(|v| v.rules.name() == rules)
                .count()
        };
        assert_eq!((boards("breakthrough"), boards("capture-only")), (30, 30));
        assert_eq!(boards("doorbraak"), 1);
        assert!(count > 61);
    }
}
