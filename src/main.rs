//! The `kifconv` binary: a thin shell around the library (see `cli`).

mod cli;

/// mimalloc rather than the system allocator: the batch runner allocates
/// outputs on worker threads and frees them on the main thread, a pattern
/// under which glibc's per-thread arenas keep growing (measured on the
/// 10,000-game CSA archive: 264 MB resident with glibc, see the commit).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(cli::run())
}
