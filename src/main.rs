//! The `kifconv` binary: the library's [`kifconv::cli::main`], under
//! mimalloc.

/// mimalloc rather than the system allocator: the batch runner allocates
/// outputs on worker threads and frees them on the main thread, a pattern
/// under which glibc's per-thread arenas keep growing (the figures are in
/// the commit that chose it).
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
    if gives_memory_back_at_once(std::env::args_os().nth(1).as_deref()) {
        // SAFETY: setting an option of the allocator linked in, by its number.
        unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
    }
    kifconv::cli::main()
}

/// Whether the command whose first argument is `first` should have freed
/// memory go back to the system at once rather than after mimalloc's
/// default second: the `book` commands, which promise a memory bound.
///
/// A book build frees on one thread what workers allocated on others, in
/// bursts; kept a second, those pages raise its peak well past the bound.
/// Anything else keeps mimalloc's default: given back at once, each purge
/// is an `madvise` after which the kernel flushes the other threads' TLBs
/// by an interrupt to their cores, which a virtual machine pays dearly and
/// unevenly, for little memory saved. (The figures are in the commit that
/// made this choice.)
/// (A subcommand is always the first argument: conversion options may
/// not come before one.)
fn gives_memory_back_at_once(first: Option<&std::ffi::OsStr>) -> bool {
    first.is_some_and(|first| first == "book")
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

    /// Only the book commands give memory back at once.
    #[test]
    fn book_commands_give_memory_back_at_once() {
        use std::ffi::OsStr;
        assert!(super::gives_memory_back_at_once(Some(OsStr::new("book"))));
        for other in ["games.kif", "mate", "tsume", "--to", "books", "-j"] {
            assert!(
                !super::gives_memory_back_at_once(Some(OsStr::new(other))),
                "{other}"
            );
        }
        assert!(!super::gives_memory_back_at_once(None));
    }
}
