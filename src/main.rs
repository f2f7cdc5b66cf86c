//! The `breakthrough` command: the UCI engine by default, tools as subcommands
//! (`breakthrough --help`). Everything is in the library: see `cli.rs`.

/// With `serve`, jemalloc: the page's server frees what closed games held back to the
/// system (its background thread is started by `serve`); glibc's malloc kept it.
#[cfg(feature = "serve")]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> std::process::ExitCode {
    breakthrough::cli::main()
}
