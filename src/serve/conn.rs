//! The connection loop: every connection served on its own task, with a
//! deadline for its request headers (a client that sends them slowly, or
//! not at all, is dropped) and a limit on its whole life, so that no
//! client holds the server's resources for ever.

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::time::Duration;
use tokio::net::TcpListener;

/// The longest a connection lives, however busy: a browser opens another.
const CONNECTION_LIFE: Duration = Duration::from_secs(600);

/// Serves `router` on `listener` until `stop` ends.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    client_timeout: Duration,
    stop: impl std::future::Future<Output = ()>,
) {
    let mut stop = std::pin::pin!(stop);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut stop => return,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            // Out of file descriptors, or a connection reset before it was
            // taken: the loop goes on once the moment has passed.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(router.clone());
        tokio::spawn(async move {
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(client_timeout)
                .serve_connection(TokioIo::new(stream), service);
            // A connection that fails (a reset, a malformed request hyper
            // refuses with its own 400) ends alone.
            let _ = tokio::time::timeout(CONNECTION_LIFE, connection).await;
        });
    }
}
