//! `kifconv serve`: a page that shows books and records on a board, and
//! the JSON API it is built on, over HTTP on a local address.
//!
//! It lives in the library behind the `serve` feature, beside the command
//! (`cli`), and uses the library as the command does; the library itself
//! never depends on the HTTP stack. The parts: [`books`] (the books served,
//! by name), [`api`] (one handler a route), [`page`] (the page's files,
//! embedded in the binary), [`conn`] (the connection loop with its
//! timeouts).

mod api;
mod books;
mod conn;
mod page;

pub use books::{Books, ServedBook};

use std::net::SocketAddr;
use std::time::Duration;

/// The threads that search books (tokio's blocking pool). A few more than
/// the cores keep a disk busy while searches wait on it; tokio's default,
/// 512, only costs memory under load.
const BOOK_THREADS: usize = 8;

/// How a server is set up.
#[derive(Clone, Debug)]
pub struct Options {
    /// The address to listen on (port 0: any free port).
    pub addr: SocketAddr,
    /// The books, in the order given; the first is the default.
    pub books: Books,
    /// The largest request body taken, in bytes.
    pub max_input_size: u64,
    /// How long a client may take to send a request's headers, and then
    /// its body.
    pub client_timeout: Duration,
}

/// A server bound to its address, not yet serving.
pub struct Server {
    runtime: tokio::runtime::Runtime,
    listener: tokio::net::TcpListener,
    options: Options,
    stop: Stop,
}

impl Server {
    /// Binds `options.addr`: an error when the address is taken or cannot
    /// be listened on.
    pub fn bind(options: Options) -> std::io::Result<Server> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .max_blocking_threads(BOOK_THREADS)
            .build()?;
        let listener = runtime.block_on(tokio::net::TcpListener::bind(options.addr))?;
        // Listened for from here on: a signal sent once the address is
        // said, before serving starts, still ends the server cleanly.
        let stop = {
            let _in_runtime = runtime.enter();
            Stop::listen()
        };
        Ok(Server {
            runtime,
            listener,
            options,
            stop,
        })
    }

    /// The address listened on (with the port chosen when 0 was asked).
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until Ctrl-C (SIGINT) or SIGTERM.
    pub fn run(self) -> std::io::Result<()> {
        let Server {
            runtime,
            listener,
            options,
            stop,
        } = self;
        let router = api::router(&options).merge(page::router());
        runtime.block_on(conn::serve(
            listener,
            router,
            options.client_timeout,
            stop.stopped(),
        ));
        Ok(())
    }
}

/// What asks the process to stop: Ctrl-C, or on Unix SIGINT and SIGTERM,
/// listened for from the moment it is made (on Unix).
struct Stop {
    #[cfg(unix)]
    signals: Option<[tokio::signal::unix::Signal; 2]>,
}

impl Stop {
    /// Starts listening; made inside the runtime.
    fn listen() -> Stop {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            let signals = match (
                signal(SignalKind::interrupt()),
                signal(SignalKind::terminate()),
            ) {
                (Ok(interrupt), Ok(terminate)) => Some([interrupt, terminate]),
                _ => None,
            };
            Stop { signals }
        }
        #[cfg(not(unix))]
        Stop {}
    }

    /// Ends when the process is asked to stop.
    async fn stopped(self) {
        #[cfg(unix)]
        if let Some([mut interrupt, mut terminate]) = self.signals {
            tokio::select! {
                _ = interrupt.recv() => {}
                _ = terminate.recv() => {}
            }
            return;
        }
        let _ = tokio::signal::ctrl_c().await;
    }
}
