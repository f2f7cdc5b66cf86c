//! `breakthrough serve`: the page to play, analyse and watch games in a browser.

use std::process::ExitCode;

use super::fail;

#[derive(clap::Args)]
pub(super) struct ServeArgs {
    /// Port to listen on (0: any free one; the address is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on; anything but 127.0.0.1 lets other machines in.
    #[arg(long, default_value = "127.0.0.1")]
    host: std::net::IpAddr,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
    /// The token every change (new game, move, analysis, live publishing) must carry;
    /// off loopback one is made up and printed when none is given.
    #[arg(long)]
    token: Option<String>,
    /// Engines shared by all games: the searches that run at once (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    engines: Option<u32>,
    /// Games kept at once; beyond, new games are refused until one has been idle.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_games: u32,
    /// Minutes without a request after which a game is closed.
    #[arg(long, default_value_t = 60.0)]
    idle_minutes: f64,
    /// Seconds an analysis runs before its engine goes back to the pool.
    #[arg(long, default_value_t = 300)]
    analysis_seconds: u64,
    /// Where games are kept across restarts (SQLite; default: games.sqlite in
    /// $XDG_DATA_HOME/breakthrough, else ~/.local/share/breakthrough); `:memory:` keeps
    /// nothing.
    #[arg(long, value_name = "FILE")]
    db: Option<std::path::PathBuf>,
}

/// `games.sqlite` in the user's data folder (XDG), else in the current folder.
fn default_db() -> std::path::PathBuf {
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".local/share"))
        });
    match data {
        Some(dir) => dir.join("breakthrough").join("games.sqlite"),
        None => std::path::PathBuf::from("games.sqlite"),
    }
}

#[cfg(feature = "serve")]
pub(super) fn run(args: ServeArgs) -> ExitCode {
    let address = std::net::SocketAddr::new(args.host, args.port);
    if !(args.idle_minutes.is_finite() && args.idle_minutes > 0.0 && args.idle_minutes < 1e6) {
        return fail("--idle-minutes must be a positive number of minutes");
    }
    if args
        .token
        .as_deref()
        .is_some_and(|t| t.is_empty() || t.chars().any(|c| !c.is_ascii_graphic() || c == '&'))
    {
        return fail("--token must be printable ASCII without spaces or '&'");
    }
    let token = args
        .token
        .or_else(|| (!args.host.is_loopback()).then(crate::serve::new_token));
    let settings = crate::serve::Settings {
        addr: address,
        open: args.open,
        limits: crate::serve::Limits {
            engines: super::every_core(args.engines),
            games: args.max_games as usize,
            idle: std::time::Duration::from_secs_f64(args.idle_minutes * 60.0),
            analysis: std::time::Duration::from_secs(args.analysis_seconds.max(1)),
        },
        token,
        db: args.db.unwrap_or_else(default_db),
    };
    match crate::serve::run(settings) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(e),
    }
}

#[cfg(not(feature = "serve"))]
pub(super) fn run(_: ServeArgs) -> ExitCode {
    fail(
        "this binary was built without the page: build it with the 'serve' feature (on by default)",
    )
}
