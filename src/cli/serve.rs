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
}

#[cfg(feature = "serve")]
pub(super) fn run(args: ServeArgs) -> ExitCode {
    let address = std::net::SocketAddr::new(args.host, args.port);
    match crate::serve::run(address, args.open) {
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
