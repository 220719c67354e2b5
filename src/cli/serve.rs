//! `kifconv serve`: the books opened, the address bound, the URL printed,
//! then the server ([`crate::serve`]) until Ctrl-C.

use super::args::ServeArgs;
use super::fatal;
use crate::serve::{Books, Options, ServedBook, Server};
use std::path::Path;
use std::time::Duration;

/// Runs the server; 2 when a book or the address cannot be used.
pub fn run(args: ServeArgs) -> u8 {
    let books: Result<Vec<ServedBook>, String> = args.book.iter().map(|b| open(b)).collect();
    let books = match books.and_then(Books::new) {
        Ok(books) => books,
        Err(e) => return fatal(e),
    };
    if !(args.client_timeout > 0.0 && args.client_timeout.is_finite()) {
        return fatal("--client-timeout must be a positive number of seconds");
    }
    let options = Options {
        addr: args.addr,
        books,
        max_input_size: args.max_input_size,
        client_timeout: Duration::from_secs_f64(args.client_timeout),
    };
    let server = match Server::bind(options) {
        Ok(server) => server,
        Err(e) => return fatal(format_args!("cannot listen on {}: {e}", args.addr)),
    };
    match server.local_addr() {
        Ok(addr) => println!("kifconv serve: http://{addr}/"),
        Err(e) => return fatal(e),
    }
    match server.run() {
        Ok(()) => 0,
        Err(e) => fatal(e),
    }
}

/// A `--book PATH[=NAME]`: the whole text when it names a file, else split
/// at its last `=`.
fn open(arg: &str) -> Result<ServedBook, String> {
    if Path::new(arg).is_file() {
        return ServedBook::open(Path::new(arg), None, None);
    }
    match arg.rsplit_once('=') {
        Some((path, name)) => ServedBook::open(Path::new(path), Some(name), None),
        None => ServedBook::open(Path::new(arg), None, None),
    }
}
