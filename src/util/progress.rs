//! Progress bars for long work (`match`, `analyze`, deep `perft`): drawn on stderr when
//! stderr is a terminal, absent otherwise, so logs and pipes see nothing extra.

use std::io::IsTerminal;

pub(crate) use indicatif::ProgressBar;

/// A bar of `total` steps in the style of `template` (indicatif's template syntax), or a
/// hidden one when stderr is not a terminal.
pub(crate) fn bar(total: u64, template: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let style = indicatif::ProgressStyle::with_template(template)
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
    ProgressBar::new(total).with_style(style)
}
