//! The `kifconv` binary: the library's [`kifconv::cli::main`], under
//! mimalloc.

/// mimalloc rather than the system allocator: the batch runner allocates
/// outputs on worker threads and frees them on the main thread, a pattern
/// under which glibc's per-thread arenas keep growing (measured on the
/// 10,000-game CSA archive: 264 MB resident with glibc, see the commit).
/// It is chosen here, in the binary, so that a program using the library
/// keeps its own allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    kifconv::cli::main()
}
