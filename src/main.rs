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

/// mimalloc's option `purge_delay` (its place in `mi_option_e` of the
/// mimalloc 3 that the mimalloc crate builds; a test checks the place by
/// the option's default, 1000): how many milliseconds freed memory is kept
/// before it goes back to the system.
const MI_OPTION_PURGE_DELAY: i32 = 15;

extern "C" {
    fn mi_option_set(option: i32, value: std::ffi::c_long);
    #[cfg(test)]
    fn mi_option_get(option: i32) -> std::ffi::c_long;
}

fn main() -> std::process::ExitCode {
    // Freed memory goes back at once. A book build frees on one thread
    // what workers allocated on others, in bursts; kept a second, those
    // pages nearly doubled its peak (the CSA bench book at -j2: about
    // 118 MB against 64 MB), at no cost in speed measured on conversion.
    // SAFETY: setting an option of the allocator linked in, by its number.
    unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
    kifconv::cli::main()
}

#[cfg(test)]
mod tests {
    /// The option number names `purge_delay`: no option near it defaults
    /// to 1000 (a version of mimalloc that moved it fails this).
    #[test]
    fn purge_delay_is_the_option_set() {
        // SAFETY: reading an option of the allocator linked in.
        let default = unsafe { super::mi_option_get(super::MI_OPTION_PURGE_DELAY) };
        assert_eq!(default, 1000);
    }
}
