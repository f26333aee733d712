//! Defence in depth for a server on the open internet: security headers on
//! every answer, the `Host` header required and checked (so a
//! DNS-rebinding page cannot reach a server on 127.0.0.1), over-long
//! addresses refused, and the origins a live socket may come from.

use crate::error::ApiError;
use crate::{web, Config};
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// The longest path and query string answered (a game's address is short).
const URI_LIMIT: usize = 4096;

/// The headers every answer carries: set here on the routes' answers, and
/// by the connection layer on the answers it writes itself.
pub const HEADERS: [(&str, &str); 4] = [
    ("content-security-policy", web::CONTENT_SECURITY_POLICY),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
    ("x-frame-options", "DENY"),
];

/// Which `Host` names and live-socket origins the server accepts.
#[derive(Debug)]
pub struct Hosts {
    /// Host names (lower case, no port); `None` accepts any.
    hosts: Option<Vec<String>>,
    /// Origins (`scheme://host[:port]`, lower case) accepted on live
    /// sockets besides the server's own.
    origins: Vec<String>,
}

impl Hosts {
    /// From `--public-url`, `--allowed-host`, `--allowed-origin` and the
    /// bind address: a server on a loopback address answers only to
    /// loopback names (and the names given); a server on another address
    /// answers to any host unless names are given.
    pub fn new(config: &Config) -> Result<Hosts, String> {
        let mut hosts: Vec<String> = Vec::new();
        let mut origins: Vec<String> = Vec::new();
        if let Some(url) = &config.public_url {
            let origin = origin_of(url).ok_or_else(|| {
                format!("--public-url `{url}` is not an http:// or https:// address with a host")
            })?;
            hosts.push(host_name(origin.split_once("://").map_or("", |(_, h)| h)).to_string());
            origins.push(origin);
        }
        for h in &config.allowed_hosts {
            let name = host_name(h.trim()).to_ascii_lowercase();
            if name.is_empty() || name.contains('/') {
                return Err(format!("--allowed-host `{h}` is not a host name"));
            }
            hosts.push(name);
        }
        for o in &config.allowed_origins {
            origins.push(origin_of(o).ok_or_else(|| {
                format!("--allowed-origin `{o}` is not an origin like https://example.org")
            })?);
        }
        let restricted = config.bind.is_loopback() || !hosts.is_empty();
        if config.bind.is_loopback() {
            hosts.extend(["localhost", "127.0.0.1", "[::1]"].map(String::from));
        }
        Ok(Hosts {
            hosts: restricted.then_some(hosts),
            origins,
        })
    }

    fn host_allowed(&self, host: &str) -> bool {
        let Some(hosts) = &self.hosts else {
            return true;
        };
        let name = host_name(host).to_ascii_lowercase();
        hosts.contains(&name)
    }

    /// Whether a live socket opened from page `origin` may connect, when
    /// the request was made to `host`: the server's own origin, or one of
    /// those configured.
    pub fn origin_allowed(&self, origin: &str, host: Option<&str>) -> bool {
        let origin = origin.trim().to_ascii_lowercase();
        if let Some(host) = host {
            let host = host.trim().to_ascii_lowercase();
            if origin == format!("http://{host}") || origin == format!("https://{host}") {
                return true;
            }
        }
        self.origins.contains(&origin)
    }
}

/// `scheme://host[:port]` of an http(s) URL, lower case.
fn origin_of(url: &str) -> Option<String> {
    let url = url.trim().to_ascii_lowercase();
    let (scheme, rest) = url.split_once("://")?;
    if scheme != "http" && scheme != "https" {
        return None;
    }
    let authority = rest.split(['/', '?', '#']).next()?;
    if authority.is_empty() || authority.contains('@') {
        return None;
    }
    Some(format!("{scheme}://{authority}"))
}

/// The name part of a `Host` value: without the port (`[::1]:8080` →
/// `[::1]`, `example.org:80` → `example.org`).
fn host_name(host: &str) -> &str {
    if host.starts_with('[') {
        return host.find(']').map_or(host, |i| &host[..=i]);
    }
    match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    }
}

/// A write that carries the session cookie must come from a page of this
/// site (against cross-site request forgery): its `Origin` must be the
/// server's own or an allowed one, and a write without `Origin` is refused
/// too (browsers send it on every cross-site and same-site POST; other
/// clients authenticate by token, not cookie). `SameSite=Lax` already keeps
/// the cookie off other sites' POSTs; this holds where it does not (older
/// browsers, a sibling subdomain).
fn cross_site(req: &Request, hosts: &Hosts, host: Option<&str>) -> Option<ApiError> {
    if matches!(
        *req.method(),
        axum::http::Method::GET | axum::http::Method::HEAD | axum::http::Method::OPTIONS
    ) {
        return None;
    }
    let carries_session = req
        .headers()
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .any(|pair| {
            pair.trim().split_once('=').map(|(n, _)| n) == Some(crate::accounts::SESSION_COOKIE)
        });
    if !carries_session {
        return None;
    }
    let origin = req
        .headers()
        .get(header::ORIGIN)
        .map(|o| o.to_str().unwrap_or("\u{fffd}"));
    match origin {
        Some(o) if hosts.origin_allowed(o, host) => None,
        Some(o) => Some(
            ApiError::forbidden(
                "cross_origin",
                format!("a signed-in write from the page of another site ({o}) is refused"),
            )
            .with("origin", o),
        ),
        None => Some(ApiError::forbidden(
            "cross_origin",
            "a signed-in write must say its Origin: it is refused without one",
        )),
    }
}

/// Middleware: refuses requests without one `Host` (400), unknown hosts
/// (421) and over-long addresses (414), and sets the security headers on
/// every answer.
pub async fn guard(State(hosts): State<Arc<Hosts>>, req: Request, next: Next) -> Response {
    let mut all_hosts = req.headers().get_all(header::HOST).iter();
    let host = all_hosts.next().map(|h| h.to_str().unwrap_or("\u{fffd}"));
    // An absolute request target (`GET http://name/path`) names the host
    // in place of `Host` (RFC 9112, 3.2.2): that name is checked too.
    let target = req.uri().authority().map(|a| a.as_str());
    let several = all_hosts.next().is_some();
    // Health checks and metrics scrapers call an instance by its own
    // address, not the public name; these two answers hold nothing a page
    // on another site could use.
    let for_operators = matches!(req.uri().path(), "/api/health" | "/metrics");
    let refusal = match host {
        // HTTP/1.1 requires exactly one Host (RFC 9112, 3.2); without it
        // there is nothing to check against the names answered either.
        None => Some(ApiError::bad_request(
            "missing_host",
            "the request has no Host header: HTTP/1.1 requires one, and this server answers \
             only requests that name the host they are for",
        )),
        Some(_) if several => Some(ApiError::bad_request(
            "bad_request",
            "the request has more than one Host header; HTTP/1.1 allows one",
        )),
        Some(h) if !for_operators && !hosts.host_allowed(target.unwrap_or(h)) => {
            let h = target.unwrap_or(h);
            Some(ApiError::new(
            StatusCode::MISDIRECTED_REQUEST,
            "bad_host",
            format!(
                "this server does not answer for the host `{h}` (punct serve --public-url / --allowed-host)"
            ),
        )
        .with("host", h))
        }
        _ => None,
    };
    let refusal = refusal.or_else(|| cross_site(&req, &hosts, target.or(host)));
    let refusal = refusal.or_else(|| {
        let len = req.uri().path_and_query().map_or(0, |p| p.as_str().len());
        (len > URI_LIMIT).then(|| {
            ApiError::new(
                StatusCode::URI_TOO_LONG,
                "uri_too_long",
                format!("the request's address is {len} bytes, over the {URI_LIMIT} answered"),
            )
            .with("length", len)
            .with("limit", URI_LIMIT)
        })
    });
    let mut response = match refusal {
        Some(e) => e.into_response(),
        None => as_json_error(next.run(req).await).await,
    };
    let timed_out = response.status() == StatusCode::REQUEST_TIMEOUT;
    let headers = response.headers_mut();
    for (name, value) in HEADERS {
        headers.insert(name, HeaderValue::from_static(value));
    }
    // A body that came too slowly was not read to its end: the connection
    // closes, and says so.
    if timed_out {
        headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    response
}

/// An error answer that is not the API's JSON (a rejection made inside
/// the web framework, such as an address that does not decode, always
/// plain text) turned into it, with the framework's text as the message.
/// The page itself (HTML: a browser's address with no page, api/mod.rs
/// `not_found`) goes as it is.
async fn as_json_error(response: Response) -> Response {
    let status = response.status();
    let kind = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok());
    let ours =
        kind.is_some_and(|v| v.starts_with("application/json") || v.starts_with("text/html"));
    if !(status.is_client_error() || status.is_server_error()) || ours {
        return response;
    }
    let text = axum::body::to_bytes(response.into_body(), 64 * 1024)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let code = match status.as_u16() {
        400 => "bad_request",
        404 => "not_found",
        405 => "method_not_allowed",
        413 => "too_large",
        415 => "not_json",
        _ => "error",
    };
    let message = if text.is_empty() {
        status.canonical_reason().unwrap_or("error").to_lowercase()
    } else {
        text.chars().take(500).collect()
    };
    ApiError::new(status, code, message).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn hosts(bind: &str, public_url: Option<&str>, allowed: &[&str]) -> Hosts {
        let mut c = Config::new(PathBuf::from("/nonexistent"));
        c.bind = bind.parse().unwrap();
        c.public_url = public_url.map(String::from);
        c.allowed_hosts = allowed.iter().map(|s| s.to_string()).collect();
        Hosts::new(&c).unwrap()
    }

    #[test]
    fn loopback_servers_answer_loopback_names_only() {
        let h = hosts("127.0.0.1", None, &[]);
        assert!(h.host_allowed("127.0.0.1:8080"));
        assert!(h.host_allowed("LOCALHOST:8080"));
        assert!(h.host_allowed("[::1]:8080"));
        assert!(!h.host_allowed("evil.example:8080"), "DNS rebinding");
        assert!(!h.host_allowed("127.0.0.1.evil.example"));
    }

    #[test]
    fn open_servers_answer_any_host_unless_told() {
        assert!(hosts("0.0.0.0", None, &[]).host_allowed("anything.example"));
        let h = hosts(
            "0.0.0.0",
            Some("https://punct.example.org/"),
            &["alt.example:8080"],
        );
        assert!(h.host_allowed("punct.example.org"));
        assert!(h.host_allowed("alt.example"));
        assert!(!h.host_allowed("other.example"));
        assert!(!h.host_allowed("localhost"));
    }

    #[test]
    fn live_sockets_come_from_our_own_origin() {
        let h = hosts("0.0.0.0", Some("https://punct.example.org"), &[]);
        assert!(h.origin_allowed("https://punct.example.org", Some("internal:8080")));
        assert!(h.origin_allowed("http://10.0.0.5:8080", Some("10.0.0.5:8080")));
        assert!(!h.origin_allowed("https://evil.example", Some("10.0.0.5:8080")));
        assert!(!h.origin_allowed("null", Some("10.0.0.5:8080")));
    }

    #[test]
    fn bad_settings_are_refused() {
        let mut c = Config::new(PathBuf::from("/nonexistent"));
        c.public_url = Some("ftp://x".into());
        assert!(Hosts::new(&c).unwrap_err().contains("--public-url"));
        c.public_url = None;
        c.allowed_origins = vec!["example.org".into()];
        assert!(Hosts::new(&c).unwrap_err().contains("--allowed-origin"));
    }
}
