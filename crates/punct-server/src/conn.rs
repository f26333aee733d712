//! Connections: accepting them (at most `max_connections` open, and
//! `max_connections_per_client` from one client, live sockets included),
//! reading requests under a header timeout and their bodies under a body
//! timeout and minimum rate, answering hyper's own refusals in the API's
//! JSON form with the security headers, and stopping within the grace
//! period.

use crate::error::ApiError;
use crate::limits::{self, ClientKey, Connections, Held, TrustProxy};
use crate::security;
use axum::extract::ConnectInfo;
use axum::http::StatusCode;
use axum::Router;
use hyper::body::{Body, Bytes, Frame, Incoming, SizeHint};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::{pin, Pin};
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};
use tower::ServiceExt;

/// The largest request head (request line and headers) read; bodies have
/// their own limit. A larger head is refused with 431.
pub const HEAD_LIMIT: usize = 64 * 1024;

/// Refusals (over a cap) answered at length at once: each holds its file
/// descriptor for up to two seconds, until the client has read the answer.
/// Beyond these, a refusal's answer is written in one try and the
/// connection closed at once, so that a flood of refused connections
/// cannot take the descriptors the server needs.
const REFUSALS_AT_ONCE: usize = 32;

/// How the connection layer behaves (from `Config`).
#[derive(Clone)]
pub struct Options {
    pub max_connections: usize,
    /// Connections per client and their cap; not counted here behind a
    /// trusted proxy (every connection is the proxy's): `limits::hold`
    /// counts each client's requests in progress instead.
    pub clients: Arc<Connections>,
    pub header_timeout: Duration,
    pub body: BodyLimits,
    pub shutdown_grace: Duration,
    pub trust_proxy: bool,
}

/// How fast a request's body must come (see [`TimedBody`]).
#[derive(Clone, Copy, Debug)]
pub struct BodyLimits {
    /// The longest wait for the body to start and between its pieces.
    pub timeout: Duration,
    /// Bytes per second on average beyond the first `timeout` (0: none).
    pub min_rate: u64,
}

/// Serves `router` on `listener` until `shutdown` completes, then lets
/// open requests and live sockets finish (`stopping` tells them to) for
/// most of `shutdown_grace`, and returns when the process must be gone:
/// the caller stops the runtime, and with it whatever is still open, by
/// then.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    options: Options,
    shutdown: impl Future<Output = ()>,
    stopping: watch::Sender<bool>,
) -> std::time::Instant {
    let slots = Arc::new(Semaphore::new(options.max_connections));
    let refusing = Arc::new(Semaphore::new(REFUSALS_AT_ONCE));
    let mut shutdown = pin!(shutdown);
    loop {
        let (tcp, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors (or a similar condition of
                    // the whole process): wait a little instead of spinning.
                    if !matches!(
                        e.kind(),
                        io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset
                    ) {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = tcp.set_nodelay(true);
        // The client's own cap first, so one client over it takes none of
        // the places the others share.
        let held = if options.trust_proxy {
            None
        } else {
            let Connections { counts, per_client } = &*options.clients;
            match counts.enter(ClientKey::new(peer.ip()), *per_client) {
                Some(held) => Some(held),
                None => {
                    refuse(
                        &refusing,
                        tcp,
                        limits::too_many_client_connections(*per_client),
                    );
                    continue;
                }
            }
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            refuse(
                &refusing,
                tcp,
                too_many_connections(options.max_connections),
            );
            continue;
        };
        tokio::spawn(connection(
            tcp,
            Places {
                _slot: slot,
                _client: held,
            },
            peer,
            router.clone(),
            options.clone(),
            stopping.subscribe(),
        ));
    }
    let deadline = std::time::Instant::now() + options.shutdown_grace;
    drop(listener);
    let _ = stopping.send(true);
    // Every open connection (and live socket) holds a slot until it
    // closes. They get the grace period less a share kept for stopping the
    // runtime (AI searches, what is still open), so that the process is
    // gone within the grace period.
    let all_closed = async {
        while slots.available_permits() < options.max_connections {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    let teardown = (options.shutdown_grace / 10).min(Duration::from_millis(500));
    let until = Instant::from_std(deadline) - teardown;
    let _ = tokio::time::timeout_at(until, all_closed).await;
    deadline
}

/// The places a connection holds until it closes (also after an upgrade
/// to WebSocket): one under the server's cap, one under its client's.
struct Places {
    _slot: OwnedSemaphorePermit,
    _client: Option<Held>,
}

/// Serves one connection: HTTP/1.1 with keep-alive and upgrades to
/// WebSocket; on shutdown it finishes the request in progress and closes.
async fn connection(
    tcp: TcpStream,
    places: Places,
    peer: SocketAddr,
    router: Router,
    options: Options,
    mut stopping: watch::Receiver<bool>,
) {
    let trust_proxy = options.trust_proxy;
    let body_limits = options.body;
    let service = hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
        let mut req = req.map(|body| TimedBody::new(body, body_limits));
        req.extensions_mut().insert(ConnectInfo(peer));
        if trust_proxy {
            req.extensions_mut().insert(TrustProxy);
        }
        router.clone().oneshot(req)
    });
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(options.header_timeout)
        .max_header_size(HEAD_LIMIT)
        .serve_connection(TokioIo::new(Stream::new(tcp, places)), service)
        .with_upgrades();
    let mut conn = pin!(conn);
    let stop = async move {
        let _ = stopping.wait_for(|&s| s).await;
    };
    tokio::select! {
        _ = conn.as_mut() => return,
        () = stop => {}
    }
    conn.as_mut().graceful_shutdown();
    let _ = conn.await;
}

/// The refusal of a connection over the server's cap.
fn too_many_connections(max: usize) -> ApiError {
    let mut error = ApiError::unavailable(
        "too_many_connections",
        format!("the server has {max} connections open, the most it takes; try again shortly"),
    )
    .with("max", max);
    error.retry_after = Some(5);
    error
}

/// Answers a connection over a cap with `error` and closes it (at once if
/// [`REFUSALS_AT_ONCE`] are being answered already).
fn refuse(refusing: &Arc<Semaphore>, mut tcp: TcpStream, error: ApiError) {
    let answer = raw_answer(&error);
    let Ok(permit) = refusing.clone().try_acquire_owned() else {
        // A new connection's send buffer takes the whole answer.
        let _ = tcp.try_write(&answer);
        return;
    };
    tokio::spawn(async move {
        let _permit = permit;
        let _ = tokio::time::timeout(Duration::from_secs(2), async {
            tcp.write_all(&answer).await?;
            tcp.shutdown().await?;
            // Read what the client sent, so closing does not reset the
            // connection before it has read the answer.
            let mut sink = [0u8; 4096];
            while tcp.read(&mut sink).await? > 0 {}
            Ok::<_, io::Error>(())
        })
        .await;
    });
}

/// `error` as a whole answer written by the connection layer itself,
/// where no route (and no middleware) runs: JSON, `Retry-After` if it
/// has one, the security headers every answer carries, and a close.
fn raw_answer(error: &ApiError) -> Vec<u8> {
    let body = error.body().to_string();
    let mut head = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n",
        error.status.as_u16(),
        error.status.canonical_reason().unwrap_or(""),
        body.len()
    );
    if let Some(secs) = error.retry_after {
        head.push_str(&format!("retry-after: {secs}\r\n"));
    }
    for (name, value) in security::HEADERS {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("connection: close\r\n\r\n");
    head.push_str(&body);
    head.into_bytes()
}

/// A request's body, read under [`BodyLimits`]: it must start within
/// `timeout` of the server first reading it, each further piece must come
/// within `timeout` of the last, and beyond the first `timeout` the body
/// must have come at `min_rate` bytes per second on average (so a body
/// trickled a byte at a time is cut off too). Otherwise reading it fails
/// with [`BodyTimeout`] (answered 408 `body_timeout`; the connection is
/// closed, as the rest of its body is never read).
pub struct TimedBody {
    inner: Incoming,
    limits: BodyLimits,
    /// Set on the first read that waits.
    clock: Option<BodyClock>,
    timed_out: bool,
}

struct BodyClock {
    start: Instant,
    last: Instant,
    received: u64,
    alarm: Pin<Box<Sleep>>,
}

impl TimedBody {
    fn new(inner: Incoming, limits: BodyLimits) -> TimedBody {
        TimedBody {
            inner,
            limits,
            clock: None,
            timed_out: false,
        }
    }
}

impl BodyLimits {
    /// When a body's next piece is due: it started at `start` and has
    /// brought `received` bytes, the last at `last`.
    fn due(self, start: Instant, last: Instant, received: u64) -> Instant {
        let gap = last + self.timeout;
        if self.min_rate == 0 {
            return gap;
        }
        let earned = Duration::from_nanos(received.saturating_mul(1_000_000_000) / self.min_rate);
        gap.min(start + self.timeout + earned)
    }
}

impl Body for TimedBody {
    type Data = Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let this = &mut *self;
        if this.timed_out {
            return Poll::Ready(Some(Err(Box::new(BodyTimeout(this.limits)))));
        }
        let now = Instant::now();
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let (Some(data), Some(clock)) = (frame.data_ref(), this.clock.as_mut()) {
                    clock.received += data.len() as u64;
                    clock.last = now;
                    let due = this.limits.due(clock.start, clock.last, clock.received);
                    clock.alarm.as_mut().reset(due);
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(Some(Err(e))) => Poll::Ready(Some(Err(Box::new(e)))),
            Poll::Ready(None) => Poll::Ready(None),
            Poll::Pending => {
                let limits = this.limits;
                let clock = this.clock.get_or_insert_with(|| BodyClock {
                    start: now,
                    last: now,
                    received: 0,
                    alarm: Box::pin(tokio::time::sleep_until(now + limits.timeout)),
                });
                if clock.alarm.as_mut().poll(cx).is_pending() {
                    return Poll::Pending;
                }
                this.timed_out = true;
                Poll::Ready(Some(Err(Box::new(BodyTimeout(limits)))))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        !self.timed_out && self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// A request's body did not come in time (see [`TimedBody`]).
#[derive(Debug)]
pub struct BodyTimeout(BodyLimits);

impl std::fmt::Display for BodyTimeout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let BodyLimits { timeout, min_rate } = self.0;
        write!(
            f,
            "the request's body came too slowly: the server waits {} s for it to start and \
             between its pieces",
            timeout.as_secs()
        )?;
        if min_rate > 0 {
            write!(
                f,
                ", and after that needs {min_rate} bytes per second on average"
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for BodyTimeout {}

/// If reading a body failed with [`BodyTimeout`] (anywhere in `error`'s
/// chain of sources), the API's answer: 408 `body_timeout`.
pub fn body_timeout(error: &(dyn std::error::Error + 'static)) -> Option<ApiError> {
    let mut source = Some(error);
    while let Some(e) = source {
        if let Some(BodyTimeout(limits)) = e.downcast_ref::<BodyTimeout>() {
            let message = BodyTimeout(*limits).to_string();
            return Some(
                ApiError::new(StatusCode::REQUEST_TIMEOUT, "body_timeout", message)
                    .with("timeout", limits.timeout.as_secs())
                    .with("min_rate", limits.min_rate),
            );
        }
        source = e.source();
    }
    None
}

/// A connection's stream. It holds the connection's places under the caps
/// until the connection closes (also after an upgrade to WebSocket), and
/// replaces hyper's bare answers to unreadable requests (400 bad request
/// line or header, 414, 431: a status with no body) by the API's JSON
/// error with the security headers: hyper writes these itself, before
/// any service or middleware could see the request.
pub struct Stream {
    tcp: TcpStream,
    _places: Places,
    /// A rewritten answer still to be written, and how much of it is.
    pending: Vec<u8>,
    written: usize,
}

impl Stream {
    fn new(tcp: TcpStream, places: Places) -> Stream {
        Stream {
            tcp,
            _places: places,
            pending: Vec::new(),
            written: 0,
        }
    }

    /// Writes out a pending rewritten answer.
    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.written < self.pending.len() {
            let n = ready!(Pin::new(&mut self.tcp).poll_write(cx, &self.pending[self.written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.written += n;
        }
        self.pending.clear();
        self.written = 0;
        Poll::Ready(Ok(()))
    }
}

impl AsyncRead for Stream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_read(cx, buf)
    }
}

impl AsyncWrite for Stream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        ready!(self.poll_pending(cx))?;
        if let Some(answer) = json_answer(buf) {
            self.pending = answer;
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut self.tcp).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        ready!(self.poll_pending(cx))?;
        let mut data = bufs.iter().filter(|b| !b.is_empty());
        if let (Some(first), None) = (data.next(), data.next()) {
            if let Some(answer) = json_answer(first) {
                self.pending = answer;
                return Poll::Ready(Ok(first.len()));
            }
        }
        Pin::new(&mut self.tcp).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.tcp).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.tcp).poll_shutdown(cx)
    }
}

/// If `out` is hyper's own answer to a request it could not read (a
/// client-error status line with `content-length: 0` and no content type:
/// every answer of the routes has a content type), the same status with
/// a JSON error body.
fn json_answer(out: &[u8]) -> Option<Vec<u8>> {
    if !out.starts_with(b"HTTP/1.") || out.len() < 12 {
        return None;
    }
    let end = out.windows(4).position(|w| w == b"\r\n\r\n")?;
    if end + 4 != out.len() {
        return None; // a body follows: not one of hyper's bare answers
    }
    let head = out[..end].to_ascii_lowercase();
    let status: u16 = std::str::from_utf8(&out[9..12]).ok()?.parse().ok()?;
    let has = |needle: &[u8]| head.windows(needle.len()).any(|w| w == needle);
    if !(400..500).contains(&status) || has(b"content-type:") || !has(b"content-length: 0") {
        return None;
    }
    let (code, status, message) = match status {
        414 => (
            "uri_too_long",
            StatusCode::URI_TOO_LONG,
            "the request's address is too long".to_string(),
        ),
        431 => (
            "headers_too_large",
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            format!(
                "the request's header is over {} KiB or has over 100 fields",
                HEAD_LIMIT / 1024
            ),
        ),
        _ => (
            "bad_request",
            StatusCode::BAD_REQUEST,
            "the request is not readable HTTP/1.1 (its request line, address or a header is malformed)"
                .to_string(),
        ),
    };
    Some(raw_answer(&ApiError::new(status, code, message)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_refusals_become_json_and_real_answers_pass() {
        let bare = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: Mon, 23 Nov 2026 12:00:00 GMT\r\n\r\n";
        let answer = String::from_utf8(json_answer(bare).expect("rewritten")).unwrap();
        assert!(answer.starts_with("HTTP/1.1 431 "), "{answer}");
        assert!(
            answer.contains("content-type: application/json"),
            "{answer}"
        );
        assert!(answer.ends_with(r#"{"error":{"code":"headers_too_large","message":"the request's header is over 64 KiB or has over 100 fields"}}"#), "{answer}");
        let ours = b"HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(json_answer(ours), None);
        let with_body = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 2\r\n\r\n{}";
        assert_eq!(json_answer(with_body), None);
        let ok = b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(json_answer(ok), None);
        assert_eq!(json_answer(b"\x81\x05hello"), None);
    }

    #[test]
    fn answers_of_the_connection_layer_carry_the_security_headers() {
        let bare = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n";
        let rewritten = String::from_utf8(json_answer(bare).expect("rewritten")).unwrap();
        let refused = String::from_utf8(raw_answer(&too_many_connections(4))).unwrap();
        for answer in [rewritten, refused] {
            for (name, value) in security::HEADERS {
                assert!(
                    answer.contains(&format!("\r\n{name}: {value}\r\n")),
                    "{answer}"
                );
            }
            assert!(answer.contains("\r\nconnection: close\r\n"), "{answer}");
        }
    }

    #[test]
    fn a_body_is_due_within_the_timeout_and_at_the_minimum_rate() {
        let limits = BodyLimits {
            timeout: Duration::from_secs(10),
            min_rate: 1000,
        };
        let t0 = Instant::now();
        let at = |ms: u64| t0 + Duration::from_millis(ms);
        // Nothing yet: the timeout.
        assert_eq!(limits.due(t0, t0, 0), at(10_000));
        // Steady: the gap after the last piece decides.
        assert_eq!(limits.due(t0, at(3000), 5000), at(13_000));
        // A trickle earns next to nothing beyond the timeout.
        assert_eq!(limits.due(t0, at(9000), 3), at(10_003));
        // Fast, then silent: never more than the timeout after the last.
        assert_eq!(limits.due(t0, at(1000), 60_000), at(11_000));
        let no_rate = BodyLimits {
            min_rate: 0,
            ..limits
        };
        assert_eq!(no_rate.due(t0, at(9000), 3), at(19_000));
    }

    #[test]
    fn a_body_timeout_is_found_among_the_sources() {
        #[derive(Debug)]
        struct Wrapper(BodyTimeout);
        impl std::fmt::Display for Wrapper {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "failed to buffer the body")
            }
        }
        impl std::error::Error for Wrapper {
            fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
                Some(&self.0)
            }
        }
        let limits = BodyLimits {
            timeout: Duration::from_secs(10),
            min_rate: 1024,
        };
        let e = body_timeout(&Wrapper(BodyTimeout(limits))).expect("found");
        assert_eq!((e.status.as_u16(), e.code), (408, "body_timeout"));
        assert!(body_timeout(&io::Error::other("reset")).is_none());
    }
}
