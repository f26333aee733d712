//! Connections: accepting them (at most `max_connections` open, live
//! sockets included), reading requests under a header timeout, answering
//! hyper's own refusals in the API's JSON form, and stopping with a
//! deadline.

use crate::limits::TrustProxy;
use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use serde_json::json;
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
use tower::ServiceExt;

/// The largest request head (request line and headers) read; bodies have
/// their own limit. A larger head is refused with 431.
pub const HEAD_LIMIT: usize = 64 * 1024;

/// How the connection layer behaves (from `Config`).
#[derive(Clone, Debug)]
pub struct Options {
    pub max_connections: usize,
    pub header_timeout: Duration,
    pub shutdown_grace: Duration,
    pub trust_proxy: bool,
}

/// Serves `router` on `listener` until `shutdown` completes, then lets
/// open requests and live sockets finish for up to `shutdown_grace`
/// (`stopping` tells them to), and returns.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    options: Options,
    shutdown: impl Future<Output = ()>,
    stopping: watch::Sender<bool>,
) {
    let slots = Arc::new(Semaphore::new(options.max_connections));
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
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            tokio::spawn(refuse(tcp, options.max_connections));
            continue;
        };
        tokio::spawn(connection(
            tcp,
            slot,
            peer,
            router.clone(),
            options.clone(),
            stopping.subscribe(),
        ));
    }
    drop(listener);
    let _ = stopping.send(true);
    // Every open connection (and live socket) holds a slot until it closes.
    let all_closed = async {
        while slots.available_permits() < options.max_connections {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    let _ = tokio::time::timeout(options.shutdown_grace, all_closed).await;
}

/// Serves one connection: HTTP/1.1 with keep-alive and upgrades to
/// WebSocket; on shutdown it finishes the request in progress and closes.
async fn connection(
    tcp: TcpStream,
    slot: OwnedSemaphorePermit,
    peer: SocketAddr,
    router: Router,
    options: Options,
    mut stopping: watch::Receiver<bool>,
) {
    let trust_proxy = options.trust_proxy;
    let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
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
        .serve_connection(TokioIo::new(Stream::new(tcp, slot)), service)
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

/// Answers a connection over the cap with a 503 and closes it.
async fn refuse(mut tcp: TcpStream, max: usize) {
    let body = json!({"error": {
        "code": "too_many_connections",
        "message": format!("the server has {max} connections open, the most it takes; try again shortly"),
    }})
    .to_string();
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nretry-after: 5\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(2), async {
        tcp.write_all(answer.as_bytes()).await?;
        tcp.shutdown().await?;
        // Read what the client sent, so closing does not reset the
        // connection before it has read the answer.
        let mut sink = [0u8; 4096];
        while tcp.read(&mut sink).await? > 0 {}
        Ok::<_, io::Error>(())
    })
    .await;
}

/// A connection's stream. It holds the connection's slot under the cap
/// until the connection closes (also after an upgrade to WebSocket), and
/// replaces hyper's bare answers to unreadable requests (400 bad request
/// line or header, 414, 431: a status with no body) by the API's JSON
/// error.
pub struct Stream {
    tcp: TcpStream,
    _slot: OwnedSemaphorePermit,
    /// A rewritten answer still to be written, and how much of it is.
    pending: Vec<u8>,
    written: usize,
}

impl Stream {
    fn new(tcp: TcpStream, slot: OwnedSemaphorePermit) -> Stream {
        Stream {
            tcp,
            _slot: slot,
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
    let (code, reason, message) = match status {
        414 => (
            "uri_too_long",
            "URI Too Long",
            "the request's address is too long".to_string(),
        ),
        431 => (
            "headers_too_large",
            "Request Header Fields Too Large",
            format!(
                "the request's header is over {} KiB or has over 100 fields",
                HEAD_LIMIT / 1024
            ),
        ),
        _ => (
            "bad_request",
            "Bad Request",
            "the request is not readable HTTP/1.1 (its request line, address or a header is malformed)"
                .to_string(),
        ),
    };
    let body = json!({"error": {"code": code, "message": message}}).to_string();
    Some(
        format!(
            "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n\
             content-length: {}\r\nx-content-type-options: nosniff\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
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
}
