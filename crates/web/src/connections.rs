//! How the server takes connections, so that clients that misbehave cannot
//! stop it for everyone else:
//!
//! - A cap on open connections in all and per client address: a connection
//!   past either is answered `503 Service Unavailable` at once and closed,
//!   and the total stays below the open-files limit, so the database
//!   always has file descriptors to open its files with.
//! - A request's headers must arrive within the read timeout, and so must
//!   the next request on a kept-alive connection (hyper's header timeout
//!   runs while the connection waits too); a request body as well (see
//!   [`read_body`]), which with the body limit sets a minimum rate.
//! - A response that cannot be written for the write timeout (a client that
//!   stopped reading, an event stream nobody reads) ends its connection,
//!   and with it everything buffered for it.
//!
//! When no file descriptor is free to accept with, the loop waits a moment
//! and tries again; the connections wait in the kernel's queue meanwhile.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{ConnectInfo, Request};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tabula_i18n::t;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::Sleep;
use tower::ServiceExt;

use crate::client::TrustedProxies;
use crate::{ApiError, MAX_BODY, PageError};

/// Open connections per client address unless told otherwise: a browser
/// opens six, plus one per open event stream.
pub const DEFAULT_PER_ADDRESS: usize = 64;
/// Open connections in all at most, whatever the open-files limit allows.
pub const DEFAULT_MAX_CONNECTIONS: usize = 10_000;
/// File descriptors kept for everything but connections: the database's
/// files (three per connection), the mail relay, logs, bots.
const RESERVED_FILES: u64 = 128;
/// How long a request's headers, its body, or the next request on an idle
/// connection may take unless told otherwise.
pub const DEFAULT_READ_TIMEOUT: Duration = Duration::from_secs(20);
/// How long a response may wait for the client to read unless told otherwise.
pub const DEFAULT_WRITE_TIMEOUT: Duration = Duration::from_secs(60);
/// A response's bytes buffered per connection beyond the socket's own.
const WRITE_BUFFER: usize = 64 * 1024;
/// How long the accept loop waits when no file descriptor is free.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// How many connections the server takes and how long it waits for them.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Open connections in all; past it, new ones get a 503.
    pub max_connections: usize,
    /// Open connections per client address (not counted for a trusted
    /// proxy, whose connections carry many clients).
    pub per_address: usize,
    /// Headers, body, and the wait for the next request on a connection.
    pub read_timeout: Duration,
    /// A response that cannot be written for this long ends its connection.
    pub write_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_connections: default_max_connections(),
            per_address: DEFAULT_PER_ADDRESS,
            read_timeout: DEFAULT_READ_TIMEOUT,
            write_timeout: DEFAULT_WRITE_TIMEOUT,
        }
    }
}

/// [`DEFAULT_MAX_CONNECTIONS`], or fewer when the open-files limit (less
/// what the process needs besides) is lower.
pub fn default_max_connections() -> usize {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit writes the limit into the struct it is given.
    let got = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) };
    if got != 0 || limit.rlim_cur == libc::RLIM_INFINITY {
        return DEFAULT_MAX_CONNECTIONS;
    }
    let free = limit.rlim_cur.saturating_sub(RESERVED_FILES).max(16);
    usize::try_from(free).unwrap_or(usize::MAX).min(DEFAULT_MAX_CONNECTIONS)
}

/// Open connections, in all and per address.
#[derive(Default)]
struct Counts {
    total: usize,
    by_address: HashMap<IpAddr, usize>,
}

/// One connection's place in [`Counts`], given back when it is dropped.
struct Slot {
    counts: Arc<Mutex<Counts>>,
    address: Option<IpAddr>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut c = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        c.total -= 1;
        if let Some(a) = self.address
            && let Some(n) = c.by_address.get_mut(&a)
        {
            *n -= 1;
            if *n == 0 {
                c.by_address.remove(&a);
            }
        }
    }
}

/// Take a place for a connection from `peer`, or say why there is none.
fn admit(
    counts: &Arc<Mutex<Counts>>,
    limits: &Limits,
    proxies: &TrustedProxies,
    peer: IpAddr,
) -> Result<Slot, &'static str> {
    let mut c = counts.lock().unwrap_or_else(|e| e.into_inner());
    if c.total >= limits.max_connections {
        return Err("the server has as many connections open as it takes");
    }
    // Behind a trusted proxy every client shares the proxy's address.
    let address = (!proxies.trusts(peer)).then_some(peer.to_canonical());
    if let Some(a) = address {
        let n = c.by_address.entry(a).or_default();
        if *n >= limits.per_address {
            return Err("your address has as many connections open as the server takes from one address");
        }
        *n += 1;
    }
    c.total += 1;
    Ok(Slot { counts: counts.clone(), address })
}

/// Serve `app` on `listener` within `limits` until `shutdown` completes,
/// then let the connections finish what they are doing.
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    proxies: Arc<TrustedProxies>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let counts = Arc::new(Mutex::new(Counts::default()));
    let graceful = GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.read_timeout)
        .max_buf_size(WRITE_BUFFER.max(8192));
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors (or a connection reset before it
                    // was taken): the queued connections wait in the kernel.
                    tracing::warn!(error = %e, "accepting a connection failed; trying again");
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
            _ = &mut shutdown => break,
        };
        let slot = match admit(&counts, &limits, &proxies, peer.ip()) {
            Ok(slot) => slot,
            Err(why) => {
                refuse(stream, why);
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let app = app.clone().map_request(move |mut r: Request<hyper::body::Incoming>| {
            r.extensions_mut().insert(ConnectInfo(peer));
            r
        });
        let io = TokioIo::new(WriteDeadline::new(stream, limits.write_timeout));
        let connection = http.serve_connection(io, TowerToHyperService::new(app));
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(%peer, error = %e, "connection ended");
            }
            drop(slot);
        });
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}

/// Answer a connection the server does not take with a 503 and close it,
/// without waiting on the client: what the socket takes at once is sent.
fn refuse(stream: TcpStream, why: &str) {
    let body = format!(
        "{{\"ok\":false,\"error\":{{\"code\":\"unavailable\",\"message\":\"{why}: try again later\"}}}}"
    );
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 5\r\n\
         connection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.try_write(answer.as_bytes());
    tracing::debug!(reason = why, "connection refused");
}

/// A connection whose writes fail once they have waited for the client
/// longer than the write timeout.
struct WriteDeadline {
    stream: TcpStream,
    timeout: Duration,
    stalled: Option<Pin<Box<Sleep>>>,
}

impl WriteDeadline {
    fn new(stream: TcpStream, timeout: Duration) -> Self {
        WriteDeadline { stream, timeout, stalled: None }
    }

    /// `poll` of a write: on `Pending`, the wait is timed and fails past
    /// the timeout; anything else ends the wait.
    fn timed<T>(
        &mut self,
        cx: &mut Context<'_>,
        poll: impl FnOnce(Pin<&mut TcpStream>, &mut Context<'_>) -> Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        match poll(Pin::new(&mut self.stream), cx) {
            Poll::Pending => {
                let timeout = self.timeout;
                let stalled = self.stalled.get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
                match stalled.as_mut().poll(cx) {
                    Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "the client stopped reading the answer",
                    ))),
                    Poll::Pending => Poll::Pending,
                }
            }
            ready => {
                self.stalled = None;
                ready
            }
        }
    }
}

impl AsyncRead for WriteDeadline {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for WriteDeadline {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.get_mut().timed(cx, |s, cx| s.poll_write(cx, buf))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.get_mut().timed(cx, |s, cx| s.poll_write_vectored(cx, bufs))
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.get_mut().timed(cx, |s, cx| s.poll_flush(cx))
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.get_mut().timed(cx, |s, cx| s.poll_shutdown(cx))
    }
}

/// Read a request's body whole (it is at most [`MAX_BODY`]) within the
/// read timeout `timeout`, then pass the request on to `next`. A body
/// announced larger than the limit is refused before it is read; one that
/// does not arrive in time ends its connection with `408`.
pub(crate) async fn read_body(timeout: Duration, request: Request, next: Next) -> Response {
    let api = request.uri().path().starts_with("/api/");
    let refuse = |status: StatusCode, code: &'static str, message: String| -> Response {
        let mut response = if api {
            ApiError::new(status, code, message).into_response()
        } else {
            PageError::new(status, message).into_response()
        };
        // The rest of the body is not read: the connection cannot go on.
        response.headers_mut().insert(header::CONNECTION, header::HeaderValue::from_static("close"));
        response
    };
    let announced = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if announced.is_some_and(|n| n > MAX_BODY as u64) {
        return refuse(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            t!(crate::lang::current(), "api-body-too-large", bytes = MAX_BODY),
        );
    }
    if announced == Some(0)
        || (announced.is_none() && !request.headers().contains_key(header::TRANSFER_ENCODING))
    {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    // One byte more than the limit tells a body that is too large apart.
    let read = axum::body::to_bytes(body, MAX_BODY + 1);
    match tokio::time::timeout(timeout, read).await {
        Ok(Ok(bytes)) => next.run(Request::from_parts(parts, Body::from(bytes))).await,
        Ok(Err(_)) => refuse(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            t!(crate::lang::current(), "api-body-too-large", bytes = MAX_BODY),
        ),
        Err(_) => refuse(
            StatusCode::REQUEST_TIMEOUT,
            "request_timeout",
            t!(crate::lang::current(), "api-request-timeout", seconds = timeout.as_secs()),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_are_capped_in_all_and_per_address_and_given_back() {
        let counts = Arc::new(Mutex::new(Counts::default()));
        let limits = Limits { max_connections: 3, per_address: 2, ..Limits::default() };
        let proxy: IpAddr = "10.0.0.1".parse().unwrap();
        let proxies = TrustedProxies(vec!["10.0.0.1".parse().unwrap()]);
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        let first = admit(&counts, &limits, &proxies, a).unwrap();
        let _second = admit(&counts, &limits, &proxies, a).unwrap();
        assert!(admit(&counts, &limits, &proxies, a).is_err(), "a third from one address");
        let _other = admit(&counts, &limits, &proxies, b).unwrap();
        assert!(admit(&counts, &limits, &proxies, proxy).is_err(), "past the total");
        drop(first);
        assert!(admit(&counts, &limits, &proxies, a).is_ok(), "a closed connection's place is free");
        let limits = Limits { max_connections: 10, per_address: 1, ..Limits::default() };
        let counts = Arc::new(Mutex::new(Counts::default()));
        let _p = admit(&counts, &limits, &proxies, proxy).unwrap();
        assert!(
            admit(&counts, &limits, &proxies, proxy).is_ok(),
            "a trusted proxy is not capped per address"
        );
    }
}
