//! The `breakthrough` command: the UCI engine by default, tools as subcommands
//! (`breakthrough --help`). Everything is in the library: see `cli.rs`.

fn main() -> std::process::ExitCode {
    breakthrough::cli::main()
}
